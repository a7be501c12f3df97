"""The suit choices (the koe's suit, the round-2 suit) of the shipped policies, on any deals:
the replication table of docs/CALIBRATION.md ("The suit choices (koe and round 2)").

    .venv/bin/python scripts/maintainer/suit_choice.py [--deals 200000] [--seed 1001] [--bid calibrated | DIR/{label}.json]
        [--labels ...]

Prints, per variant label, ``SuitChoice.summary()`` (the decision cells and their verdicts)
and one markdown row: decisions, resolved cells, cells where another suit beats the
best-scoring one (decision cells, and split by the turned suit and by trump length); then
what three candidate rules would gain (``SuitChoice.switch_gain``, exact from the cells):
name the next-best suit at a near tie when it is longer in trumps, the turned suit, or either;
and, at the koe, what the best-scoring suit (the heuristic's koe) nets against the policy's.
``belote calibrate --suits`` measures the same under the policy it has just calibrated;
this script measures the shipped files (``--bid calibrated``) or the heuristic, on fresh seeds.
"""

import argparse

from analyzer.players.policies import Policies
from analyzer.questions import calibrate as C
from analyzer.questions.suits import SPLITS, suit_choice
from analyzer.rules import Rules
from analyzer.runs.simulate import SimConfig


# candidate suit-choice rules (not built): name the next-best suit instead at a near tie (strength
# gap under 8 points) when it is longer in trumps, or the turned suit, or either
NEAR = 8.0
RULES_TRIED = {
    "longer": lambda r: (r["gap_lo"] < NEAR) & (r["length"] == "longer"),
    "turned": lambda r: (r["gap_lo"] < NEAR) & r["turned"],
    "longer or turned": lambda r: (r["gap_lo"] < NEAR) & ((r["length"] == "longer") | r["turned"]),
}


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--deals", type=int, default=200_000)
    ap.add_argument("--seed", type=int, default=1001)
    ap.add_argument("--bid", default="calibrated", help="calibrated, heuristic, or a policy file per label "
                    "(DIR/{label}.json)")
    ap.add_argument("--labels", default=",".join(C.SHIPPED_LABELS))
    args = ap.parse_args()
    rows, switch, koe = [], [], []
    for lab in args.labels.split(","):
        rules = Rules.from_label(lab)
        bid = args.bid.format(label=lab)
        s = suit_choice(SimConfig(rules=rules, policies=Policies.parse(bid, "heuristic", rules.players),
                                  deals=args.deals, seed=args.seed), candidates=[(0.0, 0.0)])
        g = s.candidate_gains().iloc[0]
        if g["n"]:
            koe.append(f"| {lab} | {int(g['n']):,} | {int(g['switched']):,} | {g['gain_net']:+.2f} "
                       f"[{g['lo']:+.2f}, {g['hi']:+.2f}] |")
        print(s.summary(), "\n")
        for which in ("koe", "round2"):
            if which == "koe" and rules.variant == "classic":
                continue
            v = s.verdict(which)
            sp = v["splits"]
            nb = v.get("next_best")
            for name, where in RULES_TRIED.items():
                g = s.switch_gain(which, where)
                switch.append(f"| {lab} | {which} | {name} | {g['switched']:,} of {g['decisions']:,} | "
                              f"{g['gain_net']:+.2f} [{g['lo']:+.2f}, {g['hi']:+.2f}] |")
            rows.append(f"| {lab} | {which} | {v['decisions']:,} | {v['enough']} | {v['resolved']} | {v['beaten']} | "
                        + " | ".join(f"{sp[k]['resolved']} / {sp[k]['beaten']}" for k in SPLITS) + " | "
                        + (f"{nb['gain_net']:+.1f} [{nb['lo']:+.1f}, {nb['hi']:+.1f}]" if nb else "") + " |")
    print(f"deals {args.deals:,}, seed {args.seed}, bid {args.bid}, play heuristic\n")
    print("| variant | decision | decisions | cells n >= 200 | resolved | beaten | split by turned: resolved / beaten "
          "| split by length: resolved / beaten | next-best suit, net a hand |")
    print("|---|---|---:|---:|---:|---:|---:|---:|---:|")
    print("\n".join(rows))
    print(f"\nNaming the next-best suit at a near tie (strength gap under {NEAR:g}) when ...: net gain a decision, "
          "over every decision of the kind\n")
    print("| variant | decision | rule | switched | net gain a decision |")
    print("|---|---|---|---:|---:|")
    print("\n".join(switch))
    print("\nAt the koe, the best-scoring suit (the heuristic's koe) against the policy's suit: net a koe decision "
          "(negative: the policy's koe does better)\n")
    print("| variant | koe decisions | where they differ | best-scoring suit's net gain a koe |")
    print("|---|---:|---:|---:|")
    print("\n".join(koe))


if __name__ == "__main__":
    main()
