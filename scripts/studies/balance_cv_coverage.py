"""Coverage of the control-variate intervals of ``balance`` under a searching player (issue 19),
for docs/BENCHMARKS.md.

    .venv/bin/python scripts/studies/balance_cv_coverage.py [--variant piekjas2] [--play pimc] [--blocks 400]
        [--deals 150] [--control-deals 20000]

``--play`` plays ``blocks x deals`` hands of ``--variant`` and the heuristic (the same bidders)
the same hands and more. Block ``r`` is one small ``balance``: ``--deals`` hands of the
searching policy, adjusted (``analyzer.questions.balance.adjust``, what ``belote balance``
runs) by the heuristic on those hands plus ``--control-deals - deals`` further hands of its
own, disjoint from every other block's. The truth is the whole sample's estimate (every
block's hands, adjusted by the heuristic on all of them and a million more). Prints, per
statistic the adjustment moves, the share of blocks whose 95% interval covers the truth,
adjusted and plain, and the median ratio of the intervals' widths.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from analyzer import git_commit  # noqa: E402
from analyzer.players.policies import Policies  # noqa: E402
from analyzer.questions.balance import CONTROL_PLAY, Control, _hand_rows, _joined, adjust  # noqa: E402
from analyzer.questions.seats import A_SUM, simulate_seats  # noqa: E402
from analyzer.rules import Rules  # noqa: E402
from analyzer.runs import driver  # noqa: E402
from analyzer.runs.simulate import SimConfig, SimResult  # noqa: E402
from analyzer.runs.stats import mean_of, rate  # noqa: E402
from analyzer.runs.summary import parts  # noqa: E402
from analyzer.runs.units import N_COUNTS  # noqa: E402

STATS = ("made", "dedans", "capot_for", "taker_score", "score_seat0", "advantage_seat0", "advantage_seat1")


def _control(cfg: SimConfig, shared: dict, rest: np.ndarray, n_all: int) -> Control:
    """The heuristic run of a block: its hands shared with the searching run (one row a hand)
    and the summed row ``rest`` of its own further hands."""
    counts = rest.astype(np.int64).copy()
    from analyzer.runs.units import COUNT_FIELDS, OFFSETS

    for name, size in COUNT_FIELDS:
        if name in shared:
            v = shared[name].astype(np.int64).sum(axis=0)
            counts[OFFSETS[name]:OFFSETS[name] + size] += v
    adv = counts[N_COUNTS:] + shared["adv"].astype(np.int64).sum(axis=0)
    c = SimConfig(rules=cfg.rules, policies=cfg.policies, deals=n_all, seed=cfg.seed)
    return Control(SimResult(c, counts[:N_COUNTS], 0.0, 1), adv, None)


def _plain(key: str, rows: dict, rules):
    if key.startswith("advantage_seat"):
        k = rules.record().n_sides - 1
        return mean_of(rows["adv"][:, A_SUM + int(key[-1])] / k)
    kind, *p = parts(rows, rules, True)[key]
    sub = np.asarray(p[-1]) > 0
    return rate(int(p[0][sub].sum()), int(sub.sum())) if kind == "rate" else mean_of(p[0][sub])


def _value(e) -> float:
    return e.p if hasattr(e, "p") else e.mean


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--variant", default="piekjas2")
    ap.add_argument("--play", default="pimc")
    ap.add_argument("--blocks", type=int, default=400)
    ap.add_argument("--deals", type=int, default=150)
    ap.add_argument("--control-deals", type=int, default=20_000)
    ap.add_argument("--seed", type=int, default=31)
    a = ap.parse_args()
    print(f"# {time.strftime('%Y-%m-%d')} commit {git_commit()}: {' '.join(sys.argv)}", flush=True)
    rules = Rules.from_label(a.variant)
    m, reps, n_all = a.deals, a.blocks, a.control_deals
    short = SimConfig(rules=rules, policies=Policies.parse("heuristic", a.play, rules.players), deals=reps * m,
                      seed=a.seed)
    long_p = Policies.parse("heuristic", CONTROL_PLAY, rules.players).with_bidders_of(short.policies)
    long = SimConfig(rules=rules, policies=long_p, deals=reps * m, seed=a.seed)
    t0 = time.perf_counter()
    y = _joined(simulate_seats(short, keep=reps * m, reduce=_hand_rows)[2])
    t_short = time.perf_counter() - t0
    x = _joined(simulate_seats(long, keep=reps * m, reduce=_hand_rows)[2])
    args = long.kernel_args()

    def hands(first: int, n: int) -> np.ndarray:
        return driver.run_units(driver.SEATS, a.seed, first, n, long.chunk, args)

    extra = 1_000_000
    far = reps * m + reps * (n_all - m)  # after every block's own control hands
    truth = adjust(rules, y, x, _control(long, x, hands(far, extra), reps * m + extra))
    cover = {k: [0, 0] for k in STATS}
    ratios = {k: [] for k in STATS}
    for r in range(reps):
        ys = {k: v[r * m:(r + 1) * m] for k, v in y.items()}
        xs = {k: v[r * m:(r + 1) * m] for k, v in x.items()}
        adj = adjust(rules, ys, xs, _control(long, xs, hands(reps * m + r * (n_all - m), n_all - m), n_all))
        for k in STATS:
            if k not in truth:
                continue
            plain = _plain(k, ys, rules)
            e = adj.get(k, plain)
            t = _value(truth[k])
            cover[k][0] += e.lo <= t <= e.hi
            cover[k][1] += plain.lo <= t <= plain.hi
            if plain.hi > plain.lo:
                ratios[k].append((e.hi - e.lo) / (plain.hi - plain.lo))
    out = {
        "variant": a.variant, "play": a.play, "blocks": reps, "hands_per_block": m, "control_hands": n_all,
        "statistics": {k: {"truth": round(_value(truth[k]), 4), "truth_lo": round(truth[k].lo, 4),
                           "truth_hi": round(truth[k].hi, 4),
                           "coverage_adjusted": str(rate(cover[k][0], reps)),
                           "coverage_plain": str(rate(cover[k][1], reps)),
                           "median_width_ratio": round(float(np.median(ratios[k])), 3)}
                       for k in STATS if k in truth},
        "seconds_searching": round(t_short, 1), "seconds": round(time.perf_counter() - t0, 1),
    }
    print(json.dumps(out, indent=1))


if __name__ == "__main__":
    main()
