"""Two checkouts side by side, alternating, so both see the same load on a shared machine.

    .venv/bin/python scripts/bench/ab.py bench OLD_CHECKOUT NEW_CHECKOUT [--rounds 2] [--seconds 3]
    .venv/bin/python scripts/bench/ab.py bench OLD NEW --policy random --policy heuristic --variant classic
    .venv/bin/python scripts/bench/ab.py bench OLD NEW --peer colver
    .venv/bin/python scripts/bench/ab.py best OLD NEW [--rounds 6] classic:random classic:heuristic dekjas:random

Each checkout runs with its own ``.venv`` (its own code and kernel cache). For every round each
checkout measures in turn (odd rounds: NEW first):

- ``bench``: ``belote bench --variant V --json`` for each variant (every variant by default, or the
  ``--variant``s and ``--policy``s named); with ``--peer`` ``belote bench --peer colver --json``, the
  ratio to the peer engine instead.
- ``best``: for each CASE ``LABEL:PLAY`` (the bidding is the play's own for random and heuristic, else
  heuristic), in a process of the checkout's own, a warm-up and then ``--runs`` simulations of
  ``--hands`` hands on one thread, keeping the best rate: a slower run is one the machine's other jobs
  slowed, so the best is the figure least moved by them, when the load moves single figures.

Prints one line per measurement and, per case, the best and the median over rounds of each checkout,
and NEW / OLD of both.
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import time
from pathlib import Path

LABELS = ("classic", "piekjas2", "piekjas3", "piekjas4", "dekjas")


def _bench(checkout: Path, args: list[str]):
    belote = checkout / ".venv" / "bin" / "belote"
    out = subprocess.run([str(belote), "bench", *args, "--json"], cwd=checkout, check=True,
                         capture_output=True, text=True).stdout
    return json.loads(out.strip().splitlines()[-1])


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


def _measure(a, side: str, path: Path, r: int, figures: dict) -> None:
    """One checkout's measurements of round ``r``, added to ``figures[case][side]``."""
    def add(key, value):
        figures.setdefault(key, {"old": [], "new": []})[side].append(value)

    if a.how == "best":
        proc = subprocess.run([f"{path}/.venv/bin/python", __file__, "best", str(path), str(path), *a.cases,
                               "--inner", "--runs", str(a.runs), "--hands", str(a.hands)],
                              cwd=path, capture_output=True, text=True, check=True)
        got = json.loads(proc.stdout.strip().splitlines()[-1])
        for case, rate in got.items():
            add((case,), rate)
        print(f"round {r} {side}: {got}", flush=True)
    elif a.peer:
        got = _bench(path, ["--peer", a.peer, "--seconds", str(a.seconds), "--rounds", "1"])
        for pol in ("random", "heuristic"):
            add(("classic", pol, "ratio to " + a.peer), got["ratio_" + pol])
        print(f"round {r} {side}: {json.dumps(got['median_per_s'])}", flush=True)
    else:
        pols = [x for p in a.policy or [] for x in ("--policy", p)]
        for label in a.variant or LABELS:
            for row in _bench(path, ["--variant", label, "--seconds", str(a.seconds), *pols]):
                key = (label, row["play"], f"threads={row['threads']}")
                add(key, row["hands_per_s"])
                print(f"round {r} {side}: {' '.join(key)} {row['hands_per_s']:,}", flush=True)


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = p.add_subparsers(dest="how", required=True)
    b = sub.add_parser("bench", help="belote bench of each checkout, variant by variant (medians)")
    b.add_argument("--rounds", type=int, default=2)
    b.add_argument("--seconds", type=float, default=3.0)
    b.add_argument("--peer", default=None)
    b.add_argument("--variant", action="append", default=None)
    b.add_argument("--policy", action="append", default=None, help="policies to bench (both checkouts must know them)")
    s = sub.add_parser("best", help="the best of several one-thread simulations of each CASE (LABEL:PLAY)")
    s.add_argument("--rounds", type=int, default=6)
    s.add_argument("--runs", type=int, default=7, help="simulations per checkout and round (the best is kept)")
    s.add_argument("--hands", type=int, default=150_000, help="hands per simulation")
    s.add_argument("--inner", action="store_true", help=argparse.SUPPRESS)  # one checkout's measurement
    for q in (b, s):
        q.add_argument("old", type=Path)
        q.add_argument("new", type=Path)
    s.add_argument("cases", nargs="+", metavar="CASE")
    a = p.parse_args()
    if a.how == "best" and a.inner:
        print(json.dumps(_rates(a.cases, a.runs, a.hands)))
        return
    figures: dict[tuple, dict[str, list[float]]] = {}
    for r in range(a.rounds):
        for side, path in (("old", a.old), ("new", a.new)) if r % 2 == 0 else (("new", a.new), ("old", a.old)):
            _measure(a, side, path, r, figures)
    print("\ncase | old best | old median | new best | new median | new/old best | new/old median")
    for key, f in figures.items():
        x, y = f["old"], f["new"]
        if not x or not y:
            continue  # measured in one checkout only
        print(f"{' '.join(key)} | {max(x):,.2f} | {statistics.median(x):,.2f} | {max(y):,.2f} | "
              f"{statistics.median(y):,.2f} | {max(y) / max(x):.3f} | {statistics.median(y) / statistics.median(x):.3f}")


if __name__ == "__main__":
    main()
