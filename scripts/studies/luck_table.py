"""Errors and bad luck of a player, by seat role (issue 51): the review's verdicts over many deals.

    .venv/bin/python scripts/studies/luck_table.py --deals 60 --play heuristic --play net --play pimc

For each play policy, the same classic deals (seed ``--seed``: the deal stream is the same, the
bidding is the calibrated one for that player, so the contracts can differ) are simulated and
logged, and every played deal is reviewed with ``--worlds`` worlds a decision
(``analyzer.questions.review``): each card not forced is an error, bad luck, lucky or neither.
Printed per player and seat role (the troefmaker, its partner, the two defenders): the cards
judged, the share of each verdict (Wilson 95% interval), and error, bad-luck and lucky points a
deal (mean and 95% interval over deals), as a markdown table for docs/BENCHMARKS.md.
"""

from __future__ import annotations

import argparse
import tempfile
import time
from pathlib import Path

import numpy as np

from analyzer.output.deallog import read_log, write_log
from analyzer.players.policies import Policies
from analyzer.players.policy_files import default_bid
from analyzer.questions.review import review
from analyzer.rules import Rules
from analyzer.runs.simulate import SimConfig
from analyzer.runs.stats import mean_of, rate

ROLES = ("troefmaker", "partner", "defender")


def role(seat: int, taker: int) -> str:
    if seat == taker:
        return "troefmaker"
    return "partner" if (seat - taker) % 2 == 0 else "defender"


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--deals", type=int, default=60)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--worlds", type=int, default=32)
    ap.add_argument("--play", action="append", default=None)
    args = ap.parse_args(argv)
    rules = Rules.from_label("classic")
    print("| player | role | cards judged | error | bad luck | lucky | error pts a deal | bad-luck pts a deal "
          "| lucky pts a deal |")
    print("|---|---|---:|---:|---:|---:|---:|---:|---:|")
    for play in args.play or ["heuristic", "net", "pimc"]:
        t0 = time.perf_counter()
        pols = Policies.parse(default_bid(rules, play), play, rules.players)
        with tempfile.TemporaryDirectory() as tmp:
            path = Path(tmp) / "d.jsonl"
            write_log(path, SimConfig(rules=rules, policies=pols, deals=args.deals, seed=args.seed, threads=1),
                      args.deals)
            records = [r for r in read_log(path) if r["outcome"] == "played"]
        cards = {r: [] for r in ROLES}
        per_deal = {r: {"error": [], "bad_luck": [], "lucky": []} for r in ROLES}
        for k, rec in enumerate(records):
            rv = review(rec, pimc=None, worlds=args.worlds, seed=k)
            taker = int(rec["troefmaker"])
            sums = {r: {"error": 0.0, "bad_luck": 0.0, "lucky": 0.0} for r in ROLES}
            for c in rv.cards:
                if c.info is None:
                    continue
                ro = role(c.seat, taker)
                cards[ro].append(c.info.kind)
                for p in ("error", "bad_luck", "lucky"):
                    sums[ro][p] += getattr(c.info, p)
            for ro in ROLES:
                for p in ("error", "bad_luck", "lucky"):
                    per_deal[ro][p].append(sums[ro][p] / (2 if ro == "defender" else 1))  # a defender's, per seat
        for ro in ROLES:
            n = len(cards[ro])
            shares = [rate(sum(k == kind for k in cards[ro]), n) for kind in ("error", "bad luck", "lucky")]
            pts = [mean_of(np.array(per_deal[ro][p])) for p in ("error", "bad_luck", "lucky")]
            cells = [f"{100 * s.p:.1f}% [{100 * s.lo:.1f}, {100 * s.hi:.1f}]" for s in shares]
            cells += [f"{m.mean:.2f} [{m.lo:.2f}, {m.hi:.2f}]" for m in pts]
            print(f"| {play} | {ro} | {n:,} | " + " | ".join(cells) + " |")
        print(f"<!-- {play}: {len(records)} played deals of {args.deals}, {args.worlds} worlds a decision, "
              f"{time.perf_counter() - t0:.0f} s -->", flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
