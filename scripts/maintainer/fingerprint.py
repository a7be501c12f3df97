"""A fingerprint of the engine's numbers: a digest of the raw integer outputs of every
analysis, for every variant, policy and a few rule options, on small seeded runs.

Two builds give the same fingerprint exactly when they consume the random stream alike
and play, score and count alike. ``tests/project/test_fingerprint.py`` compares the current
build with the digests in ``tests/golden/fingerprint.json``; a change that is meant to
move numbers (a rule, a policy's decision) regenerates them with

    .venv/bin/python scripts/maintainer/fingerprint.py --write

and says why in its commit. Without ``--write`` it prints the digests as JSON.
"""

from __future__ import annotations

import hashlib
import json
import sys
from pathlib import Path

import numpy as np

GOLDEN = Path(__file__).resolve().parents[2] / "tests" / "golden" / "fingerprint.json"

# (label, rule options): every variant on its defaults, and the options that change play
RULESETS = (
    ("classic", ()),
    ("classic", ("undertrump=free",)),
    ("classic", ("classic_tie=made", "roem_compare=cards")),
    ("piekjas2", ()),
    ("piekjas2", ("dix_timing=deal",)),
    ("piekjas3", ()),
    ("piekjas3", ("undertrump=free", "roem_tie=first")),
    ("piekjas4", ()),
    ("dekjas", ()),
    ("dekjas", ("undertrump=free",)),
)
POLICIES = (("random", "random"), ("heuristic", "heuristic"), ("heuristic", "random"))
TAKE_EXAMPLES = (("classic", "Jh 9h Ah Tc 7s", "Qh"), ("piekjas3", "Jh 9h 7h Ac 8c Kd", "Th"))
# the searching players on a few hands of every variant (they cost milliseconds a decision):
# (label, play policy, deals); dd only where the solver is fast. pimc:v=1 is the player before
# racing (its digests recorded before racing came in); pimc at 12 worlds races (its first look
# is after 8); pimc:v=2 is the player before stuk (its digests are the ones plain pimc gave before
# v3, checked when v3 came in).
STRONG = (("classic", "pimc:v=1,worlds=6", 24), ("classic", "dd", 12), ("piekjas2", "pimc:v=1,worlds=6", 24),
          ("piekjas2", "dd", 12), ("piekjas3", "pimc:v=1,worlds=6", 16), ("piekjas4", "pimc:v=1,worlds=4", 12),
          ("dekjas", "pimc:v=1,worlds=6", 16))
STRONG += tuple((label, f"pimc:{v}race=20,worlds=12", n) for v in ("v=2,", "")
                for label, n in (("classic", 24), ("piekjas2", 24), ("piekjas3", 16), ("piekjas4", 12), ("dekjas", 16)))
# the learned player on more hands (it is cheap): net:v=2 is the net of issue 20 (its digests are the
# ones plain ``net`` gave before v3, checked when v3 came in), net its current weights
STRONG += tuple((label, play, 400) for play in ("net:v=2", "net")
                for label in ("classic", "piekjas2", "piekjas3", "piekjas4", "dekjas"))


def _digest(*arrays) -> str:
    h = hashlib.sha256()
    for a in arrays:
        if isinstance(a, str):
            h.update(a.encode())
            continue
        a = np.ascontiguousarray(a, dtype=np.int64)
        h.update(str(a.shape).encode())
        h.update(a.tobytes())
    return h.hexdigest()[:16]


def fingerprint(deals: int = 3000, traced: int = 40) -> dict[str, str]:
    """Digests keyed by case: simulate and seats counts, traced hands (the deal logs'
    source), games rows and bidding-table sums for each ruleset and policy pair; take
    rows for the report's examples."""
    from analyzer.players.policies import Policies
    from analyzer.questions.seats import simulate_seats
    from analyzer.questions.table import bidding_table
    from analyzer.questions.take import analyse_take
    from analyzer.rules import Rules
    from analyzer.runs.games import play_games
    from analyzer.runs.simulate import SimConfig, trace_hand

    out = {}
    for label, opts in RULESETS:
        base = Rules.from_label(label)
        rules = Rules.make(base.variant, base.players, list(opts))
        for bid, play in POLICIES:
            key = f"{label}[{','.join(opts)}] {bid}/{play}"
            cfg = SimConfig(rules=rules, policies=Policies.parse(bid, play, rules.players), deals=deals,
                            seed=17, threads=2, chunk=777)
            res, adv = simulate_seats(cfg)
            out[f"seats {key}"] = _digest(res.counts, adv)
            hands = [trace_hand(cfg, i) for i in range(traced)]
            out[f"traces {key}"] = _digest(*[a for h in hands for a in h])
            out[f"games {key}"] = _digest(play_games(cfg, 60, chunk=7).games)
            t = bidding_table(SimConfig(rules=rules, policies=cfg.policies, deals=deals // 3, seed=19, threads=2))
            out[f"table {key}"] = _digest(t.raw.to_csv(), t.raw_strength.to_csv(), [t.deals, t.hands, *t.decisions])
    for label, hand, turned in TAKE_EXAMPLES:
        for bid, play in POLICIES[:2]:
            rules = Rules.from_label(label)
            r = analyse_take(rules, hand, turned, deals=1500, seed=23, threads=2,
                             policies=Policies.parse(bid, play, rules.players))
            rates = [[getattr(c, k).k for k in ("we_take", "made", "dedans", "tie", "capot_for", "pit_against",
                                                 "not_played")]
                     + [round(c.score.mean * c.score.n), round(c.net.mean * c.net.n)] for c in r.calls]
            out[f"take {label} {hand} / {turned} {bid}/{play}"] = _digest(
                r.pair_sums, rates, [r.acceptance.k, r.acceptance.n, r.hands])
    # what a question answers with no --play and no --bid: the default player (net) and the bidders calibrated for
    # it (recorded when net became the default, issue 49); the cases above name their players and stay as they were
    from analyzer.players.policies import DEFAULT_PLAY
    from analyzer.players.policy_files import default_bid

    for label, hand, turned in TAKE_EXAMPLES:
        rules = Rules.from_label(label)
        pols = Policies.parse(default_bid(rules, DEFAULT_PLAY), DEFAULT_PLAY, rules.players)
        r = analyse_take(rules, hand, turned, deals=300, seed=23, threads=2, policies=pols)
        out[f"default take {label} {hand} / {turned} {pols.label()}"] = _digest(r.pair_sums,
                                                                              [r.acceptance.k, r.acceptance.n, r.hands])
    for label in ("classic", "piekjas2", "piekjas3", "piekjas4", "dekjas"):
        rules = Rules.from_label(label)
        pols = Policies.parse(default_bid(rules, DEFAULT_PLAY), DEFAULT_PLAY, rules.players)
        t = bidding_table(SimConfig(rules=rules, policies=pols, deals=200, seed=19, threads=2))
        out[f"default table {label} {pols.label()}"] = _digest(t.raw.to_csv(), t.raw_strength.to_csv(),
                                                               [t.deals, t.hands, *t.decisions])
    for label, play, n in STRONG:
        rules = Rules.from_label(label)
        cfg = SimConfig(rules=rules, policies=Policies.parse("heuristic", play, rules.players), deals=n, seed=29,
                        threads=2, chunk=4)
        res, adv = simulate_seats(cfg)
        hands = [trace_hand(cfg, i) for i in range(3)]
        out[f"strong {label} heuristic/{play}"] = _digest(res.counts, adv, *[a for h in hands for a in h])
    return out


def main(argv: list[str]) -> None:
    fp = fingerprint()
    if "--write" in argv:
        GOLDEN.parent.mkdir(exist_ok=True)
        GOLDEN.write_text(json.dumps(fp, indent=1, sort_keys=True) + "\n")
        print(f"wrote {len(fp)} digests to {GOLDEN}")
    else:
        print(json.dumps(fp, indent=1, sort_keys=True))


if __name__ == "__main__":
    main(sys.argv[1:])
