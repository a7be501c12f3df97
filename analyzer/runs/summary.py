"""Rates and means with confidence intervals, from a simulation's counts."""

from __future__ import annotations

from analyzer.runs.simulate import SimResult
from analyzer.runs.stats import mean_from_sums, rate

DECL_KIND_LABELS = ("seq3", "seq4", "seq5+", "carre9", "carre10", "carreJ", "carreQ", "carreK", "carreA")


def declaration_counts(res: SimResult) -> dict:
    """Declarations made, by kind (counts over all seats and played hands)."""
    return dict(zip(DECL_KIND_LABELS, res.get("decl_kinds")))


def summarize(res: SimResult) -> dict:
    """The headline rates of a run; every entry is a Rate or Mean (k/n or n, CI)."""
    c = res.as_dict()
    rules = res.config.rules
    hands = c["hands"]
    played = c["played"]
    out = {
        "played": rate(played, hands),
        "passed_out": rate(c["passed_out"], hands),
        "redeal": rate(c["redeal"], hands),
        "take_round1": rate(sum(c["take_r1"]), hands),
        "take_round2": rate(sum(c["take_r2"]), hands),
        "koe": rate(c["koe"], hands),
        "smous_offered": rate(c["smous_offered"], hands),
        "smous_accepted": rate(c["smous_play"], c["smous_offered"]),
        "made": rate(c["made"], played),
        "dedans": rate(c["dedans"], played),
        "tie": rate(c["tie"], played),
        "capot_for": rate(c["capot_for"], played),
        "pit_against": rate(c["pit_against"], played),
        "hands_with_trickless": rate(c["hands_with_trickless"], played),
        "roem_scored": rate(c["roem_scored"], played),
        "stuk": rate(c["stuk"], played),
        "dix": rate(c["dix"], played),
        "taker_score": mean_from_sums(c["taker_score_sum"], c["taker_score_sq"], played),
    }
    # rows that cannot occur under these rules are left out
    if rules.koe:
        del out["passed_out"]
    else:
        del out["koe"]
    if not rules.smous_allowed:
        for key in ("redeal", "smous_offered", "smous_accepted"):
            del out[key]
    if not rules.dix:
        del out["dix"]
    for s in range(rules.players):
        out[f"score_seat{s}"] = mean_from_sums(c["score_sum"][s], c["score_sq"][s], played)
        out[f"take_seat{s}"] = rate(c["take_r1"][s] + c["take_r2"][s] + (c["koe"] if s == 0 else 0), hands)
        takes = c["taker_made_by_seat"][s] + c["taker_dedans_by_seat"][s]
        out[f"made_when_seat{s}_takes"] = rate(c["taker_made_by_seat"][s], takes)
    return out


LABELS = {
    "played": "hands played",
    "passed_out": "passed out (classic)",
    "redeal": "smous redeals",
    "take_round1": "taken in round 1",
    "take_round2": "taken in round 2",
    "koe": "koe (forced)",
    "smous_offered": "smous offered",
    "smous_accepted": "smous answered 'play'",
    "made": "made",
    "dedans": "dedans",
    "tie": "tie / litige",
    "capot_for": "capot/pit for the taker",
    "pit_against": "capot/pit against",
    "hands_with_trickless": "a side without trick",
    "roem_scored": "roem scored",
    "stuk": "stuk / belote",
    "dix": "Dix exchanged",
    "taker_score": "taker's score",
}
