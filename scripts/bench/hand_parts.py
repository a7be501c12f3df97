"""What a hand's parts cost, each in a numba loop of its own, and the chunk kernel from the cache against
compiled in this process (docs/BENCHMARKS.md, 2026-12-05).

    .venv/bin/python scripts/bench/hand_parts.py [--variant classic] [--play random] [--hands 1000000]

Prints nanoseconds a hand (the best of five loops) for: the deal (``shuffle_deck``), the deal and the
bidding (``run_bidding``), the whole hand counted (``units.simulate_unit``, as the driver runs it),
and the driver's chunk kernel of ``simulate`` as a run gets it (from the kernel cache once ``belote
warmup`` has run) and compiled anew in this process. The loops here are compiled in this process,
each against the hand's own code (``driver._compile``); the last two lines should agree: a gap means
a kernel from the cache runs other code than a fresh compile (the weak copies of
``analyzer.runs.hand.play_hand``'s comment).
"""

from __future__ import annotations

import argparse
import time

import numba
import numpy as np

from analyzer.compiling import njit
from analyzer.game.dealing import first_hands, seed_stream, shuffle_deck
from analyzer.players.policies import Policies
from analyzer.rules import Rules
from analyzer.runs import driver
from analyzer.runs.hand import hand_buffers, run_bidding
from analyzer.runs.simulate import SimConfig, simulate
from analyzer.runs.units import simulate_unit


@njit(_nrt=False)
def _deal(n, rng, deck):
    s = 0
    for i in range(n):
        seed_stream(rng, 1, i)
        shuffle_deck(rng, deck)
        s += deck[0]
    return s


@njit(_nrt=False)
def _deal_and_bid(n, rng, deck, rec, bid_pol, bid_params, own, bid_out, force, trace):
    s = 0
    for i in range(n):
        seed_stream(rng, 1, i)
        shuffle_deck(rng, deck)
        turned = first_hands(deck, rec.n_players, rec.first_deal, own)
        s += run_bidding(rec, own, turned, bid_pol, bid_params, rng, force, trace, bid_out)
    return s


@njit(_nrt=False)
def _hands(n, rec, bid_pol, play_pol, bid_params, out, bufs):
    ws, res, no_trace, rng, deck, force, totals = bufs
    for i in range(n):
        seed_stream(rng, 1, i)
        simulate_unit(rec, bid_pol, play_pol, bid_params, ws, res, no_trace, rng, deck, force, totals, out[0], False)
    return out[0, 0]


def _best(fn, args, n) -> float:
    fn(1000, *args)  # compiles
    best = float("inf")
    for _ in range(5):
        t0 = time.perf_counter()
        fn(n, *args)
        best = min(best, time.perf_counter() - t0)
    return best / n * 1e9


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--variant", default="classic")
    p.add_argument("--play", default="random", choices=("random", "heuristic"))
    p.add_argument("--hands", type=int, default=1_000_000)
    a = p.parse_args()
    rules = Rules.from_label(a.variant)
    config = SimConfig(rules=rules, policies=Policies.parse(a.play, a.play, rules.players), deals=1000, seed=1, threads=1)
    simulate(config)  # the driver's kernel as a run loads it (the hand's own code first)
    rec, bid_pol, play_pol, bid_params = config.kernel_args()
    bufs = hand_buffers(rec, play_pol, 0)
    ws, res, trace, rng, deck, force, totals = bufs
    cfg, n_scratch, n_row = driver._args(driver.SIMULATE, None)
    out = np.zeros((1, n_row), np.int64)
    chunk_args = (rec, bid_pol, play_pol, bid_params, cfg, out, False, *driver.chunk_buffers(rec, play_pol, 0, n_scratch))
    here = numba.njit(nogil=True, _nrt=False)(driver.CHUNKS[driver.SIMULATE].py_func)
    rows = [
        ("the deal", _deal, (rng, deck)),
        ("the deal and the bidding", _deal_and_bid,
         (rng, deck, rec, bid_pol, bid_params, np.zeros(4, np.uint32), np.zeros(16, np.int64), force, trace)),
        ("the whole hand, counted", _hands, (rec, bid_pol, play_pol, bid_params, out, bufs)),
        ("the chunk kernel, as a run loads it", lambda n, *x: driver.CHUNKS[driver.SIMULATE](3, 0, n, *x), chunk_args),
        ("the chunk kernel, compiled here", lambda n, *x: here(3, 0, n, *x), chunk_args),
    ]
    print(f"{a.variant}, {a.play}, one thread, the best of 5 loops of {a.hands:,} hands:")
    for name, fn, args in rows:
        print(f"  {name:38s} {_best(fn, args, a.hands):7.1f} ns a hand")


if __name__ == "__main__":
    main()
