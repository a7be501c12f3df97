"""Coverage of the control-variate intervals of ``take --bracket`` (issue 19), for docs/BENCHMARKS.md.

    .venv/bin/python scripts/studies/cv_coverage.py [--play pimc] [--blocks 200] [--deals 200] [--control-deals 20000]
        [--control heuristic|net]

One take question (``"Jh Ah Tc 7s 8d" --turned Qh``, take or pass) is played by ``--play`` on
``blocks x deals`` deals and by ``--control`` (the heuristic, or net) on the same deals and more. Block ``r`` is one
small bracket: ``--deals`` deals of the searching policy, adjusted by the heuristic on those
deals plus ``--control-deals - deals`` further deals of its own (disjoint from every other
block's). The truth is the whole sample's estimate (every block's deals, adjusted by the
heuristic on all of them and a million more). Prints the share of blocks whose 95% interval
covers the truth, adjusted and plain, and the median ratio of the intervals' widths.
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
from analyzer.rules.calls import PASS  # noqa: E402
from analyzer.players.policies import Policies  # noqa: E402
from analyzer.questions.take import F_MSUM, Call, _per_deal, analyse_take  # noqa: E402
from analyzer.rules import Rules  # noqa: E402
from analyzer.runs.stats import Z95, control_variate, mean_of, rate  # noqa: E402


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--play", default="pimc")
    ap.add_argument("--hand", default="Jh Ah Tc 7s 8d")
    ap.add_argument("--turned", default="Qh")
    ap.add_argument("--blocks", type=int, default=200)
    ap.add_argument("--deals", type=int, default=200)
    ap.add_argument("--control-deals", type=int, default=20_000)
    ap.add_argument("--control", default="heuristic", help="the long run's play policy (heuristic or net)")
    ap.add_argument("--seed", type=int, default=21)
    a = ap.parse_args()
    print(f"# {time.strftime('%Y-%m-%d')} commit {git_commit()}: {' '.join(sys.argv)}", flush=True)
    rules = Rules()
    kw = dict(calls=["take"], seed=a.seed)
    short_p = Policies.parse("heuristic", a.play, rules.players)
    long_p = Policies.parse("heuristic", a.control, rules.players)
    m, reps, n_all = a.deals, a.blocks, a.control_deals
    t0 = time.perf_counter()
    y_run = analyse_take(rules, a.hand, a.turned, policies=short_p, units=reps * m, keep_units=True, **kw)
    x_run = analyse_take(rules, a.hand, a.turned, policies=long_p, units=reps * m, keep_units=True, **kw)
    t_short = time.perf_counter() - t0
    ipass = [c.call for c in y_run.calls].index(Call(PASS, -1))
    yv, xv = (_per_deal(r.unit_rows, 2) for r in (y_run, x_run))
    y, x = yv[:, 0, F_MSUM] - yv[:, ipass, F_MSUM], xv[:, 0, F_MSUM] - xv[:, ipass, F_MSUM]
    assert y.size == reps * m, "voorhand: every sample is a deal"
    extra = 1_000_000
    far = reps * m + reps * (n_all - m)  # after every block's own control deals
    big = analyse_take(rules, a.hand, a.turned, policies=long_p, start=far, units=extra, **kw).calls[0].net_vs_pass
    truth = control_variate(y, x, (x.sum() + big.mean * big.n) / (y.size + big.n), y.size + big.n)
    cover = plain_cover = 0
    ratios = []
    for r in range(reps):
        rest = analyse_take(rules, a.hand, a.turned, policies=long_p, start=reps * m + r * (n_all - m),
                            units=n_all - m, **kw).calls[0].net_vs_pass
        ys, xs = y[r * m:(r + 1) * m], x[r * m:(r + 1) * m]
        adj = control_variate(ys, xs, (xs.sum() + rest.mean * rest.n) / n_all, n_all)
        plain = mean_of(ys)
        cover += adj.lo <= truth.mean <= adj.hi
        plain_cover += plain.lo <= truth.mean <= plain.hi
        ratios.append(adj.se / plain.se)
    rho = float(np.corrcoef(x, y)[0, 1])
    out = {
        "play": a.play, "control": a.control, "blocks": reps, "deals_per_block": m, "control_deals": n_all,
        "truth": round(truth.mean, 2), "truth_half_width": round(Z95 * truth.se, 2),
        "rho": round(rho, 3),
        "coverage_adjusted": str(rate(cover, reps)), "coverage_plain": str(rate(plain_cover, reps)),
        "median_width_ratio": round(float(np.median(ratios)), 3),
        "median_half_width_adjusted": round(float(np.median(ratios)) * Z95 * float(np.std(y, ddof=1)) / m ** 0.5, 2),
        "seconds_searching": round(t_short, 1), "seconds": round(time.perf_counter() - t0, 1),
    }
    print(json.dumps(out, indent=1))


if __name__ == "__main__":
    main()
