"""Two checkouts side by side, best of several runs: for a shared machine whose load moves single figures.

    .venv/bin/python scripts/bench_best.py OLD_CHECKOUT NEW_CHECKOUT [--rounds 6] CASE [CASE ...]
    .venv/bin/python scripts/bench_best.py /work/old /work/main classic:random classic:heuristic dekjas:random

A CASE is ``LABEL:PLAY`` (the bidding is the play's own for random and heuristic, else heuristic). For
every round each checkout in turn (odd rounds: NEW first) runs, in a process of its own with its own
``.venv`` and kernel cache, a warm-up and then ``--runs`` simulations of ``--hands`` hands on one thread,
and keeps its best rate: a slower run is a run the machine's other jobs slowed, so the best is the
figure least moved by them. Prints per case the best and the median over rounds of each checkout, and
NEW / OLD of both. (``scripts/bench_ab.py`` compares ``belote bench`` medians instead.)
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import time


def _rates(cases: list[str], runs: int, hands: int) -> dict[str, float]:
    """In this checkout: the best rate of each case (hands per second, one thread)."""
    from analyzer.players.policies import Policies
    from analyzer.rules import Rules
    from analyzer.runs.simulate import SimConfig, simulate

    out = {}
    for case in cases:
        label, play = case.split(":", 1)
        rules = Rules.from_label(label)
        pols = Policies.parse(play if play in ("random", "heuristic") else "heuristic", play, rules.players)
        simulate(SimConfig(rules=rules, policies=pols, deals=20_000, seed=1, threads=1))  # loads the kernels
        best = 0.0
        for k in range(runs):
            t0 = time.perf_counter()
            simulate(SimConfig(rules=rules, policies=pols, deals=hands, seed=2 + k, threads=1))
            best = max(best, hands / (time.perf_counter() - t0))
        out[case] = best
    return out


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("old")
    p.add_argument("new")
    p.add_argument("cases", nargs="+", metavar="CASE")
    p.add_argument("--rounds", type=int, default=6)
    p.add_argument("--runs", type=int, default=7, help="simulations per checkout and round (the best is kept)")
    p.add_argument("--hands", type=int, default=150_000, help="hands per simulation")
    p.add_argument("--inner", action="store_true", help=argparse.SUPPRESS)  # one checkout's measurement
    a = p.parse_args()
    if a.inner:
        print(json.dumps(_rates(a.cases, a.runs, a.hands)))
        return
    got: dict[str, list[dict[str, float]]] = {a.old: [], a.new: []}
    for r in range(a.rounds):
        for path in (a.old, a.new) if r % 2 == 0 else (a.new, a.old):
            proc = subprocess.run([f"{path}/.venv/bin/python", __file__, path, path, *a.cases, "--inner",
                                   "--runs", str(a.runs), "--hands", str(a.hands)],
                                  cwd=path, capture_output=True, text=True, check=True)
            got[path].append(json.loads(proc.stdout.strip().splitlines()[-1]))
            print(f"round {r} {path}: {got[path][-1]}", file=sys.stderr, flush=True)
    print("case | old best | old median | new best | new median | new/old best | new/old median")
    for c in a.cases:
        x = [g[c] for g in got[a.old]]
        y = [g[c] for g in got[a.new]]
        print(f"{c} | {max(x):,.0f} | {statistics.median(x):,.0f} | {max(y):,.0f} | {statistics.median(y):,.0f} | "
              f"{max(y) / max(x):.3f} | {statistics.median(y) / statistics.median(x):.3f}")


if __name__ == "__main__":
    main()
