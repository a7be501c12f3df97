"""The benchmark behind ``belote bench``: hands per second, side by side in one run.

Each case simulates whole hands (deal, bidding, play, declarations, scoring and
aggregation) for about ``seconds`` of wall time after a warm-up that compiles or loads
the kernels; the figure is hands / elapsed seconds.
"""

from __future__ import annotations

import time

from analyzer.policies import Policies
from analyzer.rules import ALL_LABELS, Rules
from analyzer.simulate import SimConfig, set_threads, simulate

import numba


def cases(labels=ALL_LABELS, policies=("random", "heuristic"), threads=None):
    top = numba.config.NUMBA_NUM_THREADS
    thread_counts = threads or sorted({1, top})
    for label in labels:
        for pol in policies:
            for t in thread_counts:
                yield label, pol, t


def measure(label: str, policy: str, threads: int, seconds: float, seed: int = 1) -> dict:
    rules = Rules.from_label(label)
    pols = Policies.parse(policy, policy, rules.players)
    warm = SimConfig(rules=rules, policies=pols, deals=20_000, seed=seed, threads=threads)
    r = simulate(warm)  # compiles or loads the cache; also a first rate estimate
    rate = warm.deals / max(r.seconds, 1e-6)
    n = max(50_000, int(rate * seconds))
    cfg = SimConfig(rules=rules, policies=pols, deals=n, seed=seed + 1, threads=threads)
    t0 = time.perf_counter()
    res = simulate(cfg)
    elapsed = time.perf_counter() - t0
    set_threads(None)
    return {
        "variant": rules.variant,
        "players": rules.players,
        "bid": policy,
        "play": policy,
        "threads": threads,
        "hands": n,
        "seconds": round(elapsed, 3),
        "hands_per_s": round(n / elapsed),
        # cards actually played (passed-out and redealt hands play none)
        "cards_per_s": round(res.get("played") * rules.n_tricks * rules.players / elapsed),
    }
