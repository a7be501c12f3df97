"""``simulate``: many hands, aggregated as integer counts (``analyzer.runs.units.COUNT_FIELDS``).

Hand ``i`` of a run depends only on ``(seed, i)`` (``analyzer.game.dealing``); the one driver
(``analyzer.runs.driver``, kind ``SIMULATE``) loops, seeds, chunks and runs in parallel, and
every aggregate is an integer sum, so the counts are identical whatever the thread count
or the chunk size. Memory is flat in the number of hands: one row of counts per chunk in
a batch, never per-hand storage.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field

import numba
import numpy as np

from analyzer.compiling import njit
from analyzer.players.bidding import N_BID_PARAMS
from analyzer.rules.calls import KOE_ROUND
from analyzer.rules.seats import player_at
from analyzer.game.dealing import seed_stream, shuffle_deck
from analyzer.errors import BeloteError
from analyzer.runs.limits import check_deals, check_seed
from analyzer.runs import driver, kernelcache
from analyzer.rules.scoring import NO_RESERVE, NO_TOTALS
from analyzer.runs.hand import RES_SIZE, TRACE_SIZE, make_workspace, play_hand, strong_address
from analyzer.players.policies import Policies
from analyzer.rules import Rules
from analyzer.runs.units import COUNT_FIELDS, N_COUNTS, OFFSETS  # noqa: F401 (the layout of a run's counts)

CHUNK = 1 << 14  # hands per chunk: the unit of parallel work
# a searching play policy (dd, pimc) costs milliseconds a hand, not microseconds: small
# chunks and batches keep the progress bar, its ETA and Ctrl-C responsive (the numbers do
# not depend on the split)
SEARCH_CHUNK = 8
SEARCH_BATCH = 64
KEEP_BATCH = 1 << 14  # hands a batch when each hand's row is kept (SEATS rows: about 40 MB)


@njit(cache=True)
def _one_hand(seed, index, rec, bid_pol, play_pol, bid_params, deck, res, trace, given, force, strong_fn):
    """Hand ``index`` of run ``seed``; with ``given`` the dealt deck is replaced by the
    contents of ``deck`` (the random stream for the policies stays the run's); ``force``:
    one bidding decision overridden (``run_bidding``; seat -1: none)."""
    ws = make_workspace(rec, play_pol, strong_fn)
    rng = np.zeros(1, np.uint64)
    seed_stream(rng, seed, index)
    mine = deck.copy()
    shuffle_deck(rng, deck)
    if given:
        deck[:] = mine
    play_hand(deck, rec, bid_pol, play_pol, bid_params, rng, force, NO_RESERVE, np.zeros(4, np.int64), NO_TOTALS,
              ws, res, trace)


# --- the Python API --------------------------------------------------------------------


@dataclass
class SimConfig:
    """One simulation run: rules, policies, how many hands, which seed."""

    rules: Rules = field(default_factory=Rules)
    policies: Policies | None = None
    deals: int = 100_000
    seed: int = 1
    threads: int | None = None  # None: all cores
    bid_params: np.ndarray | None = None  # (players, N_BID_PARAMS); None: the variant's defaults
    chunk: int | None = None  # None: CHUNK, or SEARCH_CHUNK when a play policy searches

    params_from_policies: bool = field(init=False, default=False)  # bid_params were the policies' own rows

    def __post_init__(self):
        self.params_from_policies = self.bid_params is None
        if self.policies is None:
            self.policies = Policies.parse("heuristic", "heuristic", self.rules.players)
        if self.chunk is None:
            self.chunk = SEARCH_CHUNK if self.policies.searching else CHUNK
        if self.deals <= 0:
            raise BeloteError(f"--deals must be a positive number of hands, not {self.deals}")
        check_deals(self.deals)  # the Python API bounded as the CLI is (runs.limits)
        check_seed(self.seed)
        if self.bid_params is None:
            # the variant's defaults, or a calibrated policy's rows (--bid calibrated / FILE)
            self.bid_params = self.policies.bid_params(self.rules)
        self.bid_params = np.ascontiguousarray(self.bid_params, dtype=np.float64)
        if self.bid_params.shape != (self.rules.players, N_BID_PARAMS):
            raise BeloteError(f"bid parameters must have shape ({self.rules.players}, {N_BID_PARAMS})")

    def kernel_args(self):
        bid, play = self.policies.codes()
        return self.rules.record(), bid, play, self.bid_params

    def game_kernel_args(self):
        """``kernel_args`` for whole games, where players move round the table: when the bid
        parameters are the policies' own, one row per player and seat (row ``p * n + s``: player
        ``p``'s policy at seat ``s``, as a calibrated policy has a row per seat), so a player bids
        with its policy's row for the seat it occupies; parameters given as rows keep one row per
        player (``analyzer.runs.units.play_game``)."""
        rec, bid, play, params = self.kernel_args()
        if not self.params_from_policies:
            return rec, bid, play, params
        n = self.rules.players
        rows = np.zeros((n * n, N_BID_PARAMS), np.float64)
        for rot in range(n):
            seats = [player_at.py_func(s, rot, n) for s in range(n)]
            seated = self.policies.seated(seats).bid_params(self.rules)
            for s, p in enumerate(seats):
                rows[p * n + s] = seated[s]
        return rec, bid, play, rows


def set_threads(threads: int | None) -> int:
    """Use ``threads`` numba threads (None: all); returns the number used."""
    top = numba.config.NUMBA_NUM_THREADS
    if threads is None:
        threads = top
    if threads < 1 or threads > top:
        raise BeloteError(f"--threads must be between 1 and {top} on this machine, not {threads}")
    numba.set_num_threads(threads)
    return threads


@dataclass
class SimResult:
    config: SimConfig
    counts: np.ndarray  # N_COUNTS int64
    seconds: float
    threads: int

    def get(self, name: str):
        off = OFFSETS[name]
        size = dict(COUNT_FIELDS)[name]
        v = self.counts[off:off + size]
        return int(v[0]) if size == 1 else [int(x) for x in v]

    def as_dict(self) -> dict:
        return {name: self.get(name) for name, _ in COUNT_FIELDS}


def run_hands(kind: int, config: SimConfig, progress=None, batch: int = 1 << 20, keep: int = 0, reduce=None):
    """``config.deals`` hands of driver unit ``kind`` (``SIMULATE`` or ``SEATS``) in batches:
    (summed row, seconds, threads); ``progress(done)`` is called after each batch. With
    ``keep``, the first ``keep`` hands are also kept one row a hand, each batch of rows passed
    through ``reduce`` (to what a caller needs of them, so memory stays bounded); the list of
    what it returned comes fourth."""
    threads = set_threads(config.threads)
    args = config.kernel_args()
    if config.policies.searching:
        batch = min(batch, SEARCH_BATCH)
    if keep:
        batch = min(batch, KEEP_BATCH)
    row = None
    kept = []
    t0 = time.perf_counter()
    done = 0
    while done < config.deals:
        n = min(batch, config.deals - done)
        if done < keep:
            n = min(n, keep - done)
            rows = driver.run_units(kind, config.seed, done, n, config.chunk, args, per_unit=True)
            part = rows.sum(axis=0)
            kept.append(rows if reduce is None else reduce(rows))
        else:
            part = driver.run_units(kind, config.seed, done, n, config.chunk, args)
        row = part if row is None else row + part
        done += n
        if progress is not None:
            progress(done)
    if keep:
        return row, time.perf_counter() - t0, threads, kept
    return row, time.perf_counter() - t0, threads


def simulate(config: SimConfig, progress=None, batch: int = 1 << 20) -> SimResult:
    """Simulate ``config.deals`` hands; ``progress(done)`` is called after each batch."""
    counts, seconds, threads = run_hands(driver.SIMULATE, config, progress, batch)
    return SimResult(config, counts, seconds, threads)


def _force_row(force) -> np.ndarray:
    if force is None:
        return np.full(4, -1, np.int64)
    row = np.array(force, dtype=np.int64)
    if row.shape != (4,):
        raise BeloteError("force must be (seat, round, call, suit)")
    return row


def _traced(*args) -> None:
    """``_one_hand(*args)``, compiled under the hand's lock (``kernelcache.HAND_LOCK``)."""
    kernelcache.compile_first(_one_hand, args, kernelcache.HAND_LOCK)
    _one_hand(*args)


def trace_hand(config: SimConfig, index: int, force=None):
    """Replay hand ``index`` of the run with tracing on: (deck, res, trace) arrays.
    ``force`` = (seat, round, call, suit) overrides that bidding decision when it is reached
    (``analyzer.runs.hand.run_bidding``; the koe's suit: ``(0, KOE_ROUND, KOE, suit)``)."""
    rec, bid, play, params = config.kernel_args()
    deck = np.zeros(32, np.int64)
    res = np.zeros(RES_SIZE, np.int64)
    trace = np.zeros(TRACE_SIZE, np.int64)
    _traced(config.seed, index, rec, bid, play, params, deck, res, trace, False, _force_row(force), strong_address(play))
    return deck, res, trace


def trace_deck(config: SimConfig, deck, index: int = 0):
    """Like ``trace_hand`` but with a deck of your choosing (e.g. to change hidden cards)."""
    rec, bid, play, params = config.kernel_args()
    deck = np.array(deck, dtype=np.int64)
    if sorted(deck.tolist()) != list(range(32)):
        raise BeloteError("a deck must hold each of the 32 cards once")
    res = np.zeros(RES_SIZE, np.int64)
    trace = np.zeros(TRACE_SIZE, np.int64)
    _traced(config.seed, index, rec, bid, play, params, deck, res, trace, True, _force_row(None), strong_address(play))
    return deck, res, trace


__all__ = ["SimConfig", "SimResult", "simulate", "trace_hand", "COUNT_FIELDS", "OFFSETS", "KOE_ROUND"]
