"""Two checkouts side by side: ``belote bench`` of each, alternating variant by variant.

    .venv/bin/python scripts/bench_ab.py OLD_CHECKOUT NEW_CHECKOUT [--rounds 2] [--seconds 3]
    .venv/bin/python scripts/bench_ab.py OLD NEW --peer colver
    .venv/bin/python scripts/bench_ab.py OLD NEW --policy random --policy heuristic --variant classic

Each checkout runs with its own ``.venv/bin/belote`` (its own code and kernel cache). For
every round and variant it runs ``belote bench --variant V --json`` in OLD, then in NEW
(odd rounds: NEW first), so both see the same load on a shared machine; with ``--peer``
it alternates ``belote bench --peer colver --json`` instead. Prints one line per
measurement and, per case, the median of each checkout and NEW / OLD.
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
from pathlib import Path

LABELS = ("classic", "piekjas2", "piekjas3", "piekjas4", "dekjas")


def _bench(checkout: Path, args: list[str]):
    belote = checkout / ".venv" / "bin" / "belote"
    out = subprocess.run([str(belote), "bench", *args, "--json"], cwd=checkout, check=True,
                         capture_output=True, text=True).stdout
    return json.loads(out.strip().splitlines()[-1])


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("old", type=Path)
    p.add_argument("new", type=Path)
    p.add_argument("--rounds", type=int, default=2)
    p.add_argument("--seconds", type=float, default=3.0)
    p.add_argument("--peer", default=None)
    p.add_argument("--variant", action="append", default=None)
    p.add_argument("--policy", action="append", default=None, help="policies to bench (both checkouts must know them)")
    a = p.parse_args()
    figures: dict[tuple, dict[str, list[float]]] = {}
    for r in range(a.rounds):
        order = (("old", a.old), ("new", a.new)) if r % 2 == 0 else (("new", a.new), ("old", a.old))
        if a.peer:
            for name, path in order:
                got = _bench(path, ["--peer", a.peer, "--seconds", str(a.seconds), "--rounds", "1"])
                for pol in ("random", "heuristic"):
                    key = ("classic", pol, "ratio to " + a.peer)
                    figures.setdefault(key, {"old": [], "new": []})[name].append(got["ratio_" + pol])
                print(f"round {r} {name}: {json.dumps(got['median_per_s'])}", flush=True)
            continue
        for label in a.variant or LABELS:
            for name, path in order:
                pols = [x for p in a.policy or [] for x in ("--policy", p)]
                for row in _bench(path, ["--variant", label, "--seconds", str(a.seconds), *pols]):
                    key = (label, row["play"], f"threads={row['threads']}")
                    figures.setdefault(key, {"old": [], "new": []})[name].append(row["hands_per_s"])
                    print(f"round {r} {name}: {' '.join(key)} {row['hands_per_s']:,}", flush=True)
    print("\ncase | old (median) | new (median) | new / old")
    for key, f in figures.items():
        if not f["old"] or not f["new"]:
            continue  # measured in one checkout only
        o, n = statistics.median(f["old"]), statistics.median(f["new"])
        print(f"{' '.join(key)} | {o:,.2f} | {n:,.2f} | {n / o:.3f}")


if __name__ == "__main__":
    main()
