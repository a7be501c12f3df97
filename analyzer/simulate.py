"""The simulation driver: many hands in parallel chunks, aggregated as integer counts.

Hand ``i`` of a run depends only on ``(seed, i)`` (``analyzer.dealing``), and every
aggregate is an integer sum, so the counts are identical whatever the thread count or
the chunk size. Memory is flat in the number of hands: one row of counts per chunk in a
batch, never per-hand storage.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field

import numba
import numpy as np
from numba import njit, prange

from analyzer.bidding import KOE_ROUND, N_BID_PARAMS, PLAYED, PASSED_OUT
from analyzer.dealing import seed_stream, shuffle_deck
from analyzer.errors import BeloteError
from analyzer.hand import (
    N_DECL_KINDS,
    RES_ALL_TRICKS_SIDE,
    RES_CARD,
    RES_DECL_KINDS,
    RES_DIX_SEAT,
    RES_KIND,
    RES_N_TRICKLESS,
    RES_RESERVE,
    RES_ROEM_POINTS,
    RES_OUTCOME,
    RES_ROEM_SIDE,
    RES_ROUND,
    RES_SCORES,
    RES_SIZE,
    RES_SMOUS,
    RES_STUK_SEAT,
    RES_TAKER,
    RES_TAKER_SIDE,
    RES_TRUMP,
    RES_TURNED,
    TRACE_SIZE,
    hand_buffers,
    make_workspace,
    play_hand,
)
from analyzer.policies import Policies
from analyzer.rules import Rules

# --- what a run counts: (name, size); offsets below are derived ----------------------
CARD_HIST_BINS = 253  # taker side's card points 0..252
COUNT_FIELDS = (
    ("hands", 1),  # deals simulated
    ("played", 1),  # hands played out
    ("passed_out", 1),  # classic: all passed twice
    ("redeal", 1),  # smous answered with a redeal
    ("take_r1", 4),  # takes in round 1, by seat
    ("take_r2", 4),  # takes in round 2, by seat
    ("koe", 1),  # forced troefmaker (piekjas, dekjas)
    ("smous_offered", 1),
    ("smous_play", 1),
    ("smous_redeal", 1),
    ("made", 1),
    ("dedans", 1),
    ("tie", 1),  # classic litige, or piekjas/dekjas T = M
    ("capot_for", 1),  # the taker's side won every trick
    ("pit_against", 1),  # another side won every trick
    ("trickless_sides", 1),  # sum over hands of sides that won no trick
    ("hands_with_trickless", 1),
    ("reserve_hands", 1),  # hands that left a reserve
    ("dix", 1),  # trump 7 exchanged
    ("roem_scored", 1),  # hands where a side scored declarations
    ("roem_points", 1),  # sum of the declaration points that scored
    ("stuk", 1),  # hands with stuk / belote
    ("stuk_taker", 1),  # ... held by the taker's side
    ("trump_turned", 1),  # trump = the turned card's suit
    ("score_sum", 4),  # by seat: sum of the hand scores of the seat's side
    ("score_sq", 4),  # by seat: sum of squares
    ("taker_score_sum", 1),
    ("taker_score_sq", 1),
    ("taker_card_hist", CARD_HIST_BINS),
    ("decl_kinds", N_DECL_KINDS),  # declarations made: seq3, seq4, seq5+, carré 9 10 J Q K A
    ("taker_made_by_seat", 4),
    ("taker_dedans_by_seat", 4),
)
OFFSETS = {}
_o = 0
for _name, _size in COUNT_FIELDS:
    OFFSETS[_name] = _o
    _o += _size
N_COUNTS = _o

C_HANDS = OFFSETS["hands"]
C_PLAYED = OFFSETS["played"]
C_PASSED = OFFSETS["passed_out"]
C_REDEAL = OFFSETS["redeal"]
C_TAKE_R1 = OFFSETS["take_r1"]
C_TAKE_R2 = OFFSETS["take_r2"]
C_KOE = OFFSETS["koe"]
C_SMOUS_OFFERED = OFFSETS["smous_offered"]
C_SMOUS_PLAY = OFFSETS["smous_play"]
C_SMOUS_REDEAL = OFFSETS["smous_redeal"]
C_MADE = OFFSETS["made"]
C_CAPOT_FOR = OFFSETS["capot_for"]
C_PIT_AGAINST = OFFSETS["pit_against"]
C_TRICKLESS = OFFSETS["trickless_sides"]
C_HANDS_TRICKLESS = OFFSETS["hands_with_trickless"]
C_RESERVE = OFFSETS["reserve_hands"]
C_DIX = OFFSETS["dix"]
C_ROEM = OFFSETS["roem_scored"]
C_ROEM_POINTS = OFFSETS["roem_points"]
C_STUK = OFFSETS["stuk"]
C_STUK_TAKER = OFFSETS["stuk_taker"]
C_TRUMP_TURNED = OFFSETS["trump_turned"]
C_SCORE_SUM = OFFSETS["score_sum"]
C_SCORE_SQ = OFFSETS["score_sq"]
C_TAKER_SUM = OFFSETS["taker_score_sum"]
C_TAKER_SQ = OFFSETS["taker_score_sq"]
C_HIST = OFFSETS["taker_card_hist"]
C_DECL = OFFSETS["decl_kinds"]
C_MADE_SEAT = OFFSETS["taker_made_by_seat"]
C_DEDANS_SEAT = OFFSETS["taker_dedans_by_seat"]

CHUNK = 1 << 14  # hands per chunk: the unit of parallel work


@njit(cache=True)
def count_hand(res, rec, counts):
    """Add one hand's result to the counts."""
    counts[C_HANDS] += 1
    kind = res[RES_KIND]
    if res[RES_SMOUS] > 0:
        counts[C_SMOUS_OFFERED] += 1
        if res[RES_SMOUS] == 1:
            counts[C_SMOUS_PLAY] += 1
        else:
            counts[C_SMOUS_REDEAL] += 1
    if kind != PLAYED:
        if kind == PASSED_OUT:
            counts[C_PASSED] += 1
        else:
            counts[C_REDEAL] += 1
        return
    counts[C_PLAYED] += 1
    taker = res[RES_TAKER]
    rnd = res[RES_ROUND]
    if rnd == 1:
        counts[C_TAKE_R1 + taker] += 1
    elif rnd == 2:
        counts[C_TAKE_R2 + taker] += 1
    else:
        counts[C_KOE] += 1
    oc = res[RES_OUTCOME]
    counts[C_MADE + oc] += 1
    if oc == 0:
        counts[C_MADE_SEAT + taker] += 1
    elif oc == 1:
        counts[C_DEDANS_SEAT + taker] += 1
    ts = res[RES_TAKER_SIDE]
    all_side = res[RES_ALL_TRICKS_SIDE]
    if all_side >= 0:
        if all_side == ts:
            counts[C_CAPOT_FOR] += 1
        else:
            counts[C_PIT_AGAINST] += 1
    nt = res[RES_N_TRICKLESS]
    counts[C_TRICKLESS] += nt
    if nt > 0:
        counts[C_HANDS_TRICKLESS] += 1
    if res[RES_RESERVE] > 0:
        counts[C_RESERVE] += 1
    if res[RES_DIX_SEAT] >= 0:
        counts[C_DIX] += 1
    if res[RES_ROEM_SIDE] >= 0:
        counts[C_ROEM] += 1
        counts[C_ROEM_POINTS] += res[RES_ROEM_POINTS]
    st = res[RES_STUK_SEAT]
    if st >= 0:
        counts[C_STUK] += 1
        st_side = st & 1 if rec.variant == 0 else st
        if st_side == ts:
            counts[C_STUK_TAKER] += 1
    if res[RES_TRUMP] == (res[RES_TURNED] >> 3):
        counts[C_TRUMP_TURNED] += 1
    for s in range(rec.n_players):
        side = s & 1 if rec.variant == 0 else s
        sc = res[RES_SCORES + side]
        counts[C_SCORE_SUM + s] += sc
        counts[C_SCORE_SQ + s] += sc * sc
    tsc = res[RES_SCORES + ts]
    counts[C_TAKER_SUM] += tsc
    counts[C_TAKER_SQ] += tsc * tsc
    cp = res[RES_CARD + ts]
    if cp > CARD_HIST_BINS - 1:
        cp = CARD_HIST_BINS - 1
    counts[C_HIST + cp] += 1
    for k in range(N_DECL_KINDS):
        counts[C_DECL + k] += res[RES_DECL_KINDS + k]


@njit(cache=True)
def _run_chunk(seed, first, count, rec, bid_pol, play_pol, bid_params, counts):
    ws, res, no_trace, rng, deck, force, totals = hand_buffers()
    for i in range(first, first + count):
        seed_stream(rng, seed, i)
        shuffle_deck(rng, deck)
        play_hand(deck, rec, bid_pol, play_pol, bid_params, rng, force, 0, totals, False, ws, res, no_trace)
        count_hand(res, rec, counts)


@njit(cache=True, parallel=True)
def _run_batch(seed, first, n_hands, chunk, rec, bid_pol, play_pol, bid_params):
    """Hands first .. first+n_hands-1, in chunks run in parallel; returns summed counts."""
    n_chunks = (n_hands + chunk - 1) // chunk
    rows = np.zeros((n_chunks, N_COUNTS), np.int64)
    for c in prange(n_chunks):
        start = first + c * chunk
        count = min(chunk, first + n_hands - start)
        _run_chunk(seed, start, count, rec, bid_pol, play_pol, bid_params, rows[c])
    return rows.sum(axis=0)


@njit(cache=True)
def _one_hand(seed, index, rec, bid_pol, play_pol, bid_params, deck, res, trace, given):
    """Hand ``index`` of run ``seed``; with ``given`` the dealt deck is replaced by the
    contents of ``deck`` (the random stream for the policies stays the run's)."""
    ws = make_workspace()
    rng = np.zeros(1, np.uint64)
    seed_stream(rng, seed, index)
    mine = deck.copy()
    shuffle_deck(rng, deck)
    if given:
        deck[:] = mine
    play_hand(deck, rec, bid_pol, play_pol, bid_params, rng, np.full(4, -1, np.int64), 0,
              np.zeros(4, np.int64), False, ws, res, trace)


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
    chunk: int = CHUNK

    def __post_init__(self):
        if self.policies is None:
            self.policies = Policies.parse("heuristic", "heuristic", self.rules.players)
        if self.deals <= 0:
            raise BeloteError(f"--deals must be a positive number of hands, not {self.deals}")
        if self.seed < 0:
            raise BeloteError(f"--seed must be 0 or more, not {self.seed}")
        if self.bid_params is None:
            # the variant's defaults, or a calibrated policy's rows (--bid calibrated / FILE)
            self.bid_params = self.policies.bid_params(self.rules)
        self.bid_params = np.ascontiguousarray(self.bid_params, dtype=np.float64)
        if self.bid_params.shape != (self.rules.players, N_BID_PARAMS):
            raise BeloteError(f"bid parameters must have shape ({self.rules.players}, {N_BID_PARAMS})")

    def kernel_args(self):
        bid, play = self.policies.codes()
        return self.rules.record(), bid, play, self.bid_params


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


def simulate(config: SimConfig, progress=None, batch: int = 1 << 20) -> SimResult:
    """Simulate ``config.deals`` hands; ``progress(done)`` is called after each batch."""
    threads = set_threads(config.threads)
    rec, bid, play, params = config.kernel_args()
    counts = np.zeros(N_COUNTS, np.int64)
    t0 = time.perf_counter()
    done = 0
    while done < config.deals:
        n = min(batch, config.deals - done)
        counts += _run_batch(config.seed, done, n, config.chunk, rec, bid, play, params)
        done += n
        if progress is not None:
            progress(done)
    return SimResult(config, counts, time.perf_counter() - t0, threads)


def trace_hand(config: SimConfig, index: int):
    """Replay hand ``index`` of the run with tracing on: (deck, res, trace) arrays."""
    rec, bid, play, params = config.kernel_args()
    deck = np.zeros(32, np.int64)
    res = np.zeros(RES_SIZE, np.int64)
    trace = np.zeros(TRACE_SIZE, np.int64)
    _one_hand(config.seed, index, rec, bid, play, params, deck, res, trace, False)
    return deck, res, trace


def trace_deck(config: SimConfig, deck, index: int = 0):
    """Like ``trace_hand`` but with a deck of your choosing (e.g. to change hidden cards)."""
    rec, bid, play, params = config.kernel_args()
    deck = np.array(deck, dtype=np.int64)
    if sorted(deck.tolist()) != list(range(32)):
        raise BeloteError("a deck must hold each of the 32 cards once")
    res = np.zeros(RES_SIZE, np.int64)
    trace = np.zeros(TRACE_SIZE, np.int64)
    _one_hand(config.seed, index, rec, bid, play, params, deck, res, trace, True)
    return deck, res, trace


__all__ = ["SimConfig", "SimResult", "simulate", "trace_hand", "COUNT_FIELDS", "OFFSETS", "KOE_ROUND"]
