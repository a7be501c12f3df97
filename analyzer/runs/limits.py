"""What a run accepts, in one place: the seeds and the deal counts, and how a seed reaches
the kernels.

Seeds. A seed is any whole number of [0, 2**64): the kernels compute with its 64 bits
(``analyzer.game.dealing.seed_stream`` starts hand ``i``'s SplitMix64 stream from
``np.uint64(seed)``). numba types a Python int below 2**63 as int64 and one from 2**63 on
as uint64, so such a seed would compile every kernel a second time (a new signature,
minutes on a cold cache) for the same arithmetic. ``kernel_seed`` hands every seed
to the kernels as the int64 with the same 64 bits (``seed - 2**64`` from 2**63 on):
``np.uint64`` of it is the seed itself, so the numbers are those the uint64 signature
computed, and a seed below 2**63 passes unchanged (``tests/project/test_fingerprint.py`` pins
those). The driver's backends (``analyzer.runs.backends``), the duel's replay and the deal
logs (through ``kernel_config``) call it wherever a seed enters a kernel.

Deals. ``MAX_DEALS`` = 2**40 (about 1.1 × 10**12) bounds every count of deals or games a
command takes: at the fastest rate measured here (piekjas2 random on 2 threads, 3.3 million
hands a second, docs/PERFORMANCE.md) it is four days of simulation, and the int64 sums of
the kernels stay below 2**63 (a hand scores under 2**10 points, so even the sums of squared
scores stay under 2**60). A count beyond it is a typo or a run that cannot finish: refused
in one line. Every seed reaches the kernels through ``seed_stream`` alone (the driver's
chunk, the duel's and the deal log's replays, the games' log), so the int64 and the uint64
typing compute the same streams.
"""

from __future__ import annotations

import copy

from analyzer.errors import BeloteError

SEEDS = 2**64  # seeds are 0 .. SEEDS - 1: the 64 bits of the kernels' streams
MAX_DEALS = 2**40  # the most deals (hands, games) a command accepts: see the module docstring
MAX_DEALS_TEXT = "2**40 = 1,099,511,627,776"  # how the one-line errors name the bounds
SEEDS_TEXT = f"a whole number from 0 to 2**64 - 1 = {SEEDS - 1:,}"


def check_seed(seed: int, flag: str = "--seed") -> int:
    """``seed`` when it is a whole number of [0, 2**64), else a one-line error."""
    if not 0 <= seed < SEEDS:
        raise BeloteError(f"{flag} must be {SEEDS_TEXT}, not {seed}")
    return seed


def derived_seed(seed: int, k: int) -> int:
    """The ``k``-th seed derived from ``seed`` (the report's example hands, calibrate's blocks):
    ``seed + k`` wrapped into [0, 2**64), so a seed near the top of the range works as any other
    (no run stops partway through with "--seed must be ..."); below 2**64 - k it is ``seed + k``."""
    return (int(seed) + int(k)) % SEEDS


def kernel_seed(seed: int) -> int:
    """The seed as the kernels take it: the int64 with the seed's 64 bits (see the module
    docstring), so every seed compiles the same kernel signature."""
    check_seed(int(seed))
    return int(seed) - SEEDS if seed >= SEEDS // 2 else int(seed)


def kernel_config(config):
    """A copy of a ``SimConfig`` whose ``seed`` is ``kernel_seed``'s, for the functions
    that hand ``config.seed`` to a kernel themselves (``simulate.trace_hand``,
    ``games.game_deals``); what a user reads (a deal log's ``seed``) keeps the original. A
    copy, not ``dataclasses.replace``: the config's own check refuses a negative seed."""
    out = copy.copy(config)
    out.seed = kernel_seed(config.seed)
    return out


def check_deals(n: int, flag: str = "--deals") -> int:
    """``n`` when it is at most ``MAX_DEALS``, else a one-line error."""
    if n > MAX_DEALS:
        raise BeloteError(f"{flag} must be at most {MAX_DEALS_TEXT} (no run of more could finish), not {n:,}")
    return n


# how long --scheduler may take to answer before the command gives up (analyzer.runs.backends)
CONNECT_SECONDS = 10.0
