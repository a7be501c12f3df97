"""Hands with the seat advantage: ``simulate``'s counts plus, per seat, the paired
difference between its side's hand score and the other sides' mean, on the same hand.

Hand ``i`` is the same as hand ``i`` of ``analyzer.simulate`` with the same seed (same
stream, same dealing), so both runs agree on every count they share. The advantage of
seat ``s`` on one hand is ``score(side(s)) - mean of the other sides' scores``; it is
accumulated as the integer ``(n_sides - 1) * score(side(s)) - sum of the others`` (and
its square) so the sums are exact and identical whatever the thread count. Hands not
played (passed out, redeal) count as 0 for everyone.
"""

from __future__ import annotations

import time

import numpy as np
from numba import njit, prange

from analyzer.dealing import seed_stream, shuffle_deck
from analyzer.hand import RES_SCORES, hand_buffers, play_hand
from analyzer.rules import CLASSIC
from analyzer.simulate import N_COUNTS, SimConfig, SimResult, count_hand, set_threads
from analyzer.stats import Mean, mean_from_sums

A_SUM = 0  # + seat: sum of the scaled advantage
A_SQ = 4  # + seat: sum of its squares
N_ADV = 8


@njit(cache=True)
def _seat_chunk(seed, first, count, rec, bid_pol, play_pol, bid_params, counts, adv):
    ws, res, no_trace, rng, deck, force, totals = hand_buffers()
    n = rec.n_players
    n_sides = rec.n_sides
    classic = rec.variant == CLASSIC
    for i in range(first, first + count):
        seed_stream(rng, seed, i)
        shuffle_deck(rng, deck)
        play_hand(deck, rec, bid_pol, play_pol, bid_params, rng, force, 0, totals, False, ws, res, no_trace)
        count_hand(res, rec, counts)
        total = 0
        for o in range(n_sides):
            total += res[RES_SCORES + o]
        for s in range(n):
            side = s & 1 if classic else s
            own = res[RES_SCORES + side]
            a = n_sides * own - total  # = (n_sides - 1) * own - sum of the others
            adv[A_SUM + s] += a
            adv[A_SQ + s] += a * a


@njit(cache=True, parallel=True)
def _seat_blocks(seed, starts, sizes, rec, bid_pol, play_pol, bid_params):
    """One row of counts and one of advantage sums per block; block ``c`` is hands
    ``starts[c] .. starts[c] + sizes[c] - 1``. Blocks run in parallel; a row depends only
    on its hands, so the rows are the same whatever the thread count."""
    n_blocks = starts.shape[0]
    rows = np.zeros((n_blocks, N_COUNTS), np.int64)
    advs = np.zeros((n_blocks, N_ADV), np.int64)
    for c in prange(n_blocks):
        _seat_chunk(seed, starts[c], sizes[c], rec, bid_pol, play_pol, bid_params, rows[c], advs[c])
    return rows, advs


def chunk_bounds(first: int, n_hands: int, chunk: int):
    """(starts, sizes) of the chunks of hands ``first .. first + n_hands - 1``."""
    starts = np.arange(first, first + n_hands, chunk, dtype=np.int64)
    return starts, np.minimum(chunk, first + n_hands - starts).astype(np.int64)


def simulate_seats(config: SimConfig, progress=None, batch: int = 1 << 20):
    """``simulate(config)`` plus the seat advantage sums: returns (SimResult, adv int64[8])."""
    threads = set_threads(config.threads)
    rec, bid, play, params = config.kernel_args()
    counts = np.zeros(N_COUNTS, np.int64)
    adv = np.zeros(N_ADV, np.int64)
    t0 = time.perf_counter()
    done = 0
    while done < config.deals:
        n = min(batch, config.deals - done)
        c, a = _seat_blocks(config.seed, *chunk_bounds(done, n, config.chunk), rec, bid, play, params)
        counts += c.sum(axis=0)
        adv += a.sum(axis=0)
        done += n
        if progress is not None:
            progress(done)
    return SimResult(config, counts, time.perf_counter() - t0, threads), adv


def seat_advantage(adv, seat: int, n_sides: int, hands: int) -> Mean:
    """Mean advantage (points a hand) of ``seat``'s side over the mean of the other sides."""
    k = n_sides - 1
    return mean_from_sums(float(adv[A_SUM + seat]) / k, float(adv[A_SQ + seat]) / (k * k), hands)
