"""Rates and means with confidence intervals, from a simulation's counts.

Every headline statistic is written once, as its parts (``parts``): a rate as (successes,
trials), a mean as (sum, sum of squares, values). The parts read a counts view
(``count_view``), which is the same for a run's summed row and for one row a hand, so the same
formulas give the run's rates (``summarize``) and each hand's share of them (what a control
variate pairs, deal by deal: ``analyzer.questions.balance``).
"""

from __future__ import annotations

import numpy as np

from analyzer.runs.simulate import SimResult
from analyzer.runs.stats import mean_from_sums, rate
from analyzer.runs.units import COUNT_FIELDS, OFFSETS

DECL_KIND_LABELS = ("seq3", "seq4", "seq5+", "carre9", "carre10", "carreJ", "carreQ", "carreK", "carreA")

# the fields no statistic of ``parts`` reads (wide: left out of a view of one row a hand)
UNREAD_FIELDS = ("taker_card_hist", "decl_kinds")


def declaration_counts(res: SimResult) -> dict:
    """Declarations made, by kind (counts over all seats and played hands)."""
    return dict(zip(DECL_KIND_LABELS, res.get("decl_kinds")))


def count_view(counts, names=None) -> dict:
    """``{field: counts}`` of ``COUNT_FIELDS`` (``names``: these only): ``counts`` is one row
    (a field of size 1 a number, a wider one an array) or one row a hand (an array a hand, or
    hands x size)."""
    counts = np.asarray(counts)
    out = {}
    for name, size in COUNT_FIELDS:
        if names is None or name in names:
            off = OFFSETS[name]
            out[name] = counts[..., off] if size == 1 else counts[..., off:off + size]
    return out


def hand_view(rows) -> dict:
    """``count_view`` of one row a hand (int64, hands x at least ``N_COUNTS``), without the
    fields no statistic reads, as int32 (a hand's counts and scores are small)."""
    names = [n for n, _ in COUNT_FIELDS if n not in UNREAD_FIELDS]
    return {k: v.astype(np.int32) for k, v in count_view(rows, names).items()}


def parts(c: dict, rules, by_round: bool = False) -> dict:
    """The headline statistics of a run as their parts, from a ``count_view`` ``c``:
    ``("rate", successes, trials)`` or ``("mean", sum, sum of squares, values)``; the
    statistics the rules rule out are left out. ``by_round``: each seat's takes by round too
    (``take_r1_seat0``, ...)."""
    hands = c["hands"]
    played = c["played"]
    out = {
        "played": ("rate", played, hands),
        "passed_out": ("rate", c["passed_out"], hands),
        "redeal": ("rate", c["redeal"], hands),
        "take_round1": ("rate", c["take_r1"].sum(-1), hands),
        "take_round2": ("rate", c["take_r2"].sum(-1), hands),
        "koe": ("rate", c["koe"], hands),
        "smous_offered": ("rate", c["smous_offered"], hands),
        "smous_accepted": ("rate", c["smous_play"], c["smous_offered"]),
    }
    for key in ("made", "dedans", "tie", "capot_for", "pit_against", "hands_with_trickless", "roem_scored", "stuk",
                "dix"):
        out[key] = ("rate", c[key], played)
    out["taker_score"] = ("mean", c["taker_score_sum"], c["taker_score_sq"], played)
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
        out[f"score_seat{s}"] = ("mean", c["score_sum"][..., s], c["score_sq"][..., s], played)
        out[f"take_seat{s}"] = ("rate", c["take_r1"][..., s] + c["take_r2"][..., s] + (c["koe"] if s == 0 else 0),
                                hands)
        if by_round:
            out[f"take_r1_seat{s}"] = ("rate", c["take_r1"][..., s], hands)
            out[f"take_r2_seat{s}"] = ("rate", c["take_r2"][..., s], hands)
        made = c["taker_made_by_seat"][..., s]
        out[f"made_when_seat{s}_takes"] = ("rate", made, made + c["taker_dedans_by_seat"][..., s])
    return out


def summarize(res: SimResult) -> dict:
    """The headline rates of a run; every entry is a Rate or Mean (k/n or n, CI)."""
    out = {}
    for key, p in parts(count_view(res.counts), res.config.rules).items():
        out[key] = rate(p[1], p[2]) if p[0] == "rate" else mean_from_sums(p[1], p[2], p[3])
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
