"""How wide a report's intervals are against another's, statistic by statistic (issue 49).

    .venv/bin/python scripts/studies/report_widths.py REFERENCE NEW [--limit 1.5]

REFERENCE and NEW are two report folders (``belote report --out``), e.g. the heuristic's at its
default size and net's at its own. For every interval both report for the same statistic, the
ratio of NEW's width to REFERENCE's: the examples' calls (section 1, every rate and mean), each
variant's bidding-table classes with n >= 200 in both (net gain and P(made)), the balance's hand
statistics and seat table (advantage, take rates, made rate, P(win)), what calibration changes and
what each rule option changes (the differences). Prints, per part, how many were compared, the
median and the largest ratio, and the share above ``--limit``, then the headline statistics (the
first page's: each example's best call against passing, each seat's advantage and P(win), the
classes' net gain) one by one where they exceed it.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import numpy as np
import pandas as pd

MIN_CLASS_N = 200  # the first page's classes (findings.class_findings)


def _ratios(a: pd.DataFrame, b: pd.DataFrame, keys: list[str], stats: list[str]) -> pd.DataFrame:
    """One row per key and statistic present in both with a positive reference width."""
    m = a.merge(b, on=keys, suffixes=("_a", "_b"))
    rows = []
    for st in stats:
        lo, hi = f"{st}_lo", f"{st}_hi"
        if f"{lo}_a" not in m:
            continue
        wa = m[f"{hi}_a"] - m[f"{lo}_a"]
        wb = m[f"{hi}_b"] - m[f"{lo}_b"]
        ok = (wa > 0) & np.isfinite(wa) & np.isfinite(wb)
        part = m.loc[ok, keys].copy()
        part["statistic"] = st
        part["ratio"] = (wb[ok] / wa[ok]).to_numpy()
        rows.append(part)
    return pd.concat(rows, ignore_index=True) if rows else pd.DataFrame(columns=keys + ["statistic", "ratio"])


def _long(a: pd.DataFrame, b: pd.DataFrame, keys: list[str]) -> pd.DataFrame:
    """For tables in long form (a ``lo`` and ``hi`` column a row)."""
    m = a.merge(b, on=keys, suffixes=("_a", "_b"))
    wa, wb = m["hi_a"] - m["lo_a"], m["hi_b"] - m["lo_b"]
    ok = (wa > 0) & np.isfinite(wa) & np.isfinite(wb)
    out = m.loc[ok, keys].copy()
    out["ratio"] = (wb[ok] / wa[ok]).to_numpy()
    return out


def compare(ref: Path, new: Path) -> dict[str, pd.DataFrame]:
    parts = {}
    take_stats = ["score", "score_vs_pass", "net", "net_vs_pass", "p_we_take", "p_made", "p_dedans", "p_capot_for",
                  "p_pit_against"]
    parts["take"] = _ratios(pd.read_csv(ref / "take_examples.csv"), pd.read_csv(new / "take_examples.csv"),
                            ["example", "call"], take_stats)
    tables = []
    for path in sorted(ref.glob("table_*_classes.csv")):
        other = new / path.name
        if not other.exists():
            continue
        a, b = pd.read_csv(path), pd.read_csv(other)
        keys = ["round", "seat", "honours", "trump_length", "side_aces", "voids"]
        a, b = a[a["n"] >= MIN_CLASS_N], b[b["n"] >= MIN_CLASS_N]
        r = _ratios(a, b, keys, ["gain_net", "p_made"])
        r.insert(0, "variant", path.name[len("table_"):-len("_classes.csv")])
        tables.append(r)
    parts["table classes"] = pd.concat(tables, ignore_index=True) if tables else pd.DataFrame()
    parts["balance hands"] = _long(pd.read_csv(ref / "balance_hands.csv"), pd.read_csv(new / "balance_hands.csv"),
                                   ["variant", "statistic"])
    parts["balance seats"] = _ratios(pd.read_csv(ref / "balance_seats.csv"), pd.read_csv(new / "balance_seats.csv"),
                                     ["variant", "seat"], ["advantage", "p_win", "take_r1", "take_r2", "made_when_takes"])
    for name, file in (("calibration", "calibration_effect.csv"), ("rules", "rules_impact.csv")):
        a, b = pd.read_csv(ref / file), pd.read_csv(new / file)
        parts[name] = _long(a, b, ["variant", "comparison", "statistic"])
    return parts


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("reference", type=Path)
    ap.add_argument("new", type=Path)
    ap.add_argument("--limit", type=float, default=1.5)
    ap.add_argument("--show", type=int, default=8, help="headline statistics listed above the limit, the widest first")
    a = ap.parse_args(argv)
    parts = compare(a.reference, a.new)
    print(f"width of {a.new} / width of {a.reference}, per interval of the same statistic")
    print(f"{'part':16s} {'n':>6s} {'median':>7s} {'max':>6s}  above {a.limit:g}")
    for name, df in parts.items():
        if df.empty:
            print(f"{name:16s} {0:6d}")
            continue
        r = df["ratio"]
        print(f"{name:16s} {len(r):6d} {r.median():7.3f} {r.max():6.3f}  {(r > a.limit).sum()} "
              f"({100 * (r > a.limit).mean():.0f}%)")
    head = [("take", parts["take"][parts["take"]["statistic"] == "net_vs_pass"]),
            ("balance seats", parts["balance seats"][parts["balance seats"]["statistic"].isin(["advantage", "p_win"])]),
            ("table classes", parts["table classes"][parts["table classes"]["statistic"] == "gain_net"]
             if not parts["table classes"].empty else parts["table classes"])]
    print("\nheadline statistics (the first page's):")
    for name, df in head:
        if df.empty:
            continue
        r = df["ratio"]
        print(f"  {name:14s} {len(r):5d} compared, median {r.median():.3f}, max {r.max():.3f}, "
              f"{(r > a.limit).sum()} above {a.limit:g}")
        over = df[r > a.limit].sort_values("ratio", ascending=False)
        for row in over.head(a.show).itertuples():
            print("    " + ", ".join(f"{k}={getattr(row, k)}" for k in df.columns if k != "ratio")
                  + f": {row.ratio:.3f}")
        if len(over) > a.show:
            print(f"    ... and {len(over) - a.show} more")
    return 0


if __name__ == "__main__":
    sys.exit(main())
