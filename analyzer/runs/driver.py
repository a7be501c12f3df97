"""The one driver: the loop over units, the seeding of each unit's stream, the chunking and
the parallel batch, written once for every analysis.

A unit is a hand (``simulate``, ``seats``), a sampled deal played once per candidate call
(``take``), a deal with its forced take and pass runs (the bidding tables), a whole
game (``games``), a deal played once per seating of two policy sets (``duel``) or a deal
played once per suit its koe or round-2 taker may name (``suits``). Unit
``i`` of a run with seed ``s`` depends only on ``(s, i)``: the
driver seeds its stream with ``seed_stream(s, i)`` and hands it to the analysis' unit
kernel (``analyzer.runs.units``, ``analyzer.runs.classes.table_unit``), which says what it deals,
forces and counts into an int64 row. Rows are integer sums per chunk (``per_unit``: one
row per unit, for games), so the numbers are identical whatever the thread count, the
chunk size or the split into calls.

How it compiles (numba 0.60+). One chunk kernel per kind of unit (``CHUNKS``): the same body,
made once per kind with ``kind`` a closure variable, so numba prunes the other kinds' branches,
compiles only that kind's unit and caches each kernel apart (a closure's variables are part of its
cache key; each kernel gets its own name, ``_chunk_take``, ...). The hand is a call compiled once,
with the first kernel, and loaded by the others (``analyzer.runs.hand.play_hand``). The designs
this one replaced and what each cost (a driver taking the count kernel as an argument, closures
over it, one kernel with a ``kind`` switch): docs/BENCHMARKS.md.

The parallel batch is Python threads over the chunk kernel, which releases the GIL
(``nogil=True``), not a ``parallel=True`` kernel: a parfor batch costs its own compile (the
gufunc built around the loop body, with the whole hand linked in and optimised again) and
nothing at run time that a chunk of thousands of hands would notice. Numba links a called
function's code into its caller's and LLVM optimises and emits the whole again, so every
function between the driver and the hand that is called, not inlined, costs the hand's LLVM
time again: the chunk kernel allocates nothing (its buffers are the caller's,
``chunk_buffers``), is compiled without reference counting, and inlines everything down to the
hand. The searching players are not compiled here at all: the hand calls them through an
address (``analyzer.players.strong``), so only a run that plays one compiles them.

The small helpers of the play loop (``bit``, ``popcount``, ``strength``, ``legal_mask``,
the heuristic's card keys) are ``forceinline=True`` (``analyzer.compiling.njit``): compiled
once, and LLVM copies them where they are called (as plain calls the heuristic hand is about
30% slower; numba-inlined, they would be typed anew at every call site). Helpers off the hot
loop (``has_declaration``, ``side_of``, ``hand_class``, ...) are plain functions. The cold
compile's figures: docs/PERFORMANCE.md.

Python side: ``run_chunks`` runs chunks ``first_chunk .. first_chunk + n_chunks - 1`` of a
run and returns one row per chunk (what a distributed backend calls per chunk, and what
batch-means intervals need); ``run_units`` runs units ``first .. first + n - 1`` and returns
their summed row (or, ``per_unit``, one row per unit).
"""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager

import numba
import numpy as np

from analyzer.compiling import njit
from analyzer.game.dealing import seed_stream
from analyzer.players.bidding import N_BID_PARAMS
from analyzer.players.policies import Policies
from analyzer.rules import Rules
from analyzer.rules.scoring import NO_RESERVE, NO_TOTALS
from analyzer.runs import kernelcache
from analyzer.runs.classes import TABLE_ROW, TABLE_SCRATCH, table_unit
from analyzer.runs.hand import hand_buffers, play_hand, strong_address
from analyzer.runs.limits import kernel_seed
from analyzer.runs.suits import SUITS_ROW, SUITS_SCRATCH, suits_unit
from analyzer.runs.units import (
    DUEL_ROW,
    DUEL_SCRATCH,
    GAMES_SCRATCH,
    N_COUNTS,
    N_GCOLS,
    SEATS_ROW,
    TAKE_K,
    duel_unit,
    games_unit,
    simulate_unit,
    take_row_size,
    take_scratch_size,
    take_unit,
)

# --- the kinds of unit -------------------------------------------------------------------
SIMULATE = 0  # a hand: simulate's counts (analyzer.runs.units.COUNT_FIELDS)
SEATS = 1  # a hand: simulate's counts and the seat advantage
TAKE = 2  # a sampled deal, every candidate call played on it
TABLE = 3  # a deal of the bidding tables, its take and pass runs
GAMES = 4  # a whole game, one row per game
DUEL = 5  # a deal played once per seating of two policy sets (analyzer.questions.duel)
SUITS = 6  # a deal with a koe or a round-2 take, every allowed suit played (analyzer.questions.suits)
KIND_NAMES = kernelcache.DRIVER_KINDS  # ("simulate", "seats", "take", "table", "games", "duel", "suits")


def row_size(kind: int, cfg: np.ndarray) -> int:
    """The length of one row of ``kind`` with configuration ``cfg``."""
    if kind == SIMULATE:
        return N_COUNTS
    if kind == SEATS:
        return SEATS_ROW
    if kind == TAKE:
        return take_row_size(int(cfg[TAKE_K]))
    if kind == TABLE:
        return TABLE_ROW
    if kind == GAMES:
        return N_GCOLS
    if kind == DUEL:
        return DUEL_ROW
    if kind == SUITS:
        return SUITS_ROW
    raise ValueError(f"unknown unit kind {kind}")


def scratch_size(kind: int, cfg: np.ndarray) -> int:
    """The int64 scratch one unit of ``kind`` needs (allocated once per chunk)."""
    if kind == TAKE:
        return take_scratch_size(int(cfg[TAKE_K]))
    if kind == TABLE:
        return TABLE_SCRATCH
    if kind == GAMES:
        return GAMES_SCRATCH
    if kind == DUEL:
        return DUEL_SCRATCH
    if kind == SUITS:
        return SUITS_SCRATCH
    return 1


def _chunk_kernel(kind):
    """The chunk kernel of units of ``kind``: units first .. first+count-1, added to ``out[0]``
    (``per_unit``: unit ``first + j`` written to ``out[j]``). ``kind`` is a constant of the kernel
    (a closure variable), so numba prunes the other kinds' branches and compiles only this kind's
    unit. ``bufs`` (``analyzer.runs.hand.hand_buffers``) and the scratch arrays are the caller's
    (``chunk_buffers``): the kernel allocates nothing, so it is compiled without numba's reference
    counting, and the unit kernel and the layers down to the hand (``simulate_unit``,
    ``follow_redeals``, ``duel_seating``) are inlined at no cost in counted references (each inlined
    parameter is an assignment that would count one to its array)."""

    def chunk(seed, first, count, rec, bid_pol, play_pol, bid_params, cfg, out, per_unit, bufs, scratch, own,
              strength, seat_params, no_log):
        ws, res, no_trace, rng, deck, force, totals = bufs
        seats = kind == SEATS
        for j in range(count):
            seed_stream(rng, seed, first + j)
            row = out[j] if per_unit else out[0]
            if kind == SIMULATE or kind == SEATS:
                simulate_unit(rec, bid_pol, play_pol, bid_params, ws, res, no_trace, rng, deck, force, totals, row,
                              seats)
            elif kind == TAKE:
                take_unit(rec, bid_pol, play_pol, bid_params, cfg, bufs, scratch, row)
            elif kind == TABLE:
                table_unit(rec, bid_pol, play_pol, bid_params, cfg, bufs, scratch, own, row)
            elif kind == GAMES:
                games_unit(rec, bid_pol, play_pol, bid_params, cfg, bufs, scratch, seat_params, no_log, row)
            elif kind == DUEL:
                duel_unit(rec, bid_pol, play_pol, bid_params, cfg, bufs, scratch, seat_params, row)
            else:
                suits_unit(rec, bid_pol, play_pol, bid_params, cfg, bufs, scratch, own, strength, row)

    chunk.__name__ = chunk.__qualname__ = f"_chunk_{KIND_NAMES[kind]}"
    return njit(cache=True, nogil=True, _nrt=False)(chunk)


CHUNKS = tuple(_chunk_kernel(kind) for kind in range(len(KIND_NAMES)))


def chunk_buffers(rec, play_pol, strong_fn, n_scratch):
    """What one call of a chunk kernel works in, allocated here: (the hand's buffers, the unit's int64
    scratch, the cards each seat judges at bidding (TABLE, SUITS), the decider's choice and strength
    scores in each suit (SUITS), the bid parameters by seat (GAMES, DUEL), an empty per-deal log
    (GAMES: ``analyzer.runs.games.game_deals`` keeps one))."""
    return (hand_buffers(rec, play_pol, strong_fn), np.zeros(n_scratch, np.int64), np.zeros(4, np.uint32),
            np.zeros(8, np.float64), np.zeros((rec.n_players, N_BID_PARAMS), np.float64),
            np.zeros((0, 1), np.int64))


# --- the Python API ------------------------------------------------------------------------

_NO_CFG = np.zeros(1, np.int64)


def _args(kind, cfg):
    cfg = _NO_CFG if cfg is None else np.ascontiguousarray(cfg, dtype=np.int64)
    if cfg.shape[0] == 0:
        cfg = _NO_CFG
    return cfg, scratch_size(kind, cfg), row_size(kind, cfg)


def _run(kind, seed, first, n, chunk, kernel_args, cfg, per_unit):
    """Units first .. first+n-1 in chunks of ``chunk`` on the backend in use
    (``current()``: threads unless a command chose a Dask cluster, ``analyzer.runs.backends``); one
    row per chunk, or per unit, the same on every backend."""
    return current().run(kind, seed, first, n, chunk, kernel_args, cfg, per_unit)


def _compile(kind, args) -> None:
    """Compile (or load) the chunk kernel of ``kind`` for the types of ``args``, once across processes
    started together on a cold cache (``kernelcache.compile_once``, under the hand's lock: the first
    kernel compiled compiles the hand, the others load it).

    The hand's own compiled code is loaded first (``_hand_first``): the chunk kernel's object code
    carries a copy of the hand that LLVM optimised again inside the kernel's module, as a weak
    symbol, which the JIT binds to a hand already loaded. A kernel compiled in this process finds
    the hand loaded (it compiled it first), but one loaded from the cache would run its own copy,
    about a fifth slower a random classic hand."""
    _hand_first(args)
    kernelcache.compile_once(CHUNKS[kind], args, kernelcache.HAND_LOCK)


def _hand_first(args) -> None:
    """Load (or compile) ``play_hand`` for the types the chunk kernel calls it with, from the chunk
    kernel's arguments (``chunk(seed, first, count, rec, bid_pol, play_pol, bid_params, cfg, out,
    per_unit, bufs, ...)``; ``bufs``: ``hand_buffers``)."""
    rec, bid_pol, play_pol, bid_params, bufs = args[3], args[4], args[5], args[6], args[10]
    ws, res, no_trace, rng, deck, force, totals = bufs
    kernelcache.compile_once(play_hand, (deck, rec, bid_pol, play_pol, bid_params, rng, force, NO_RESERVE, totals,
                                         NO_TOTALS, ws, res, no_trace), kernelcache.HAND_LOCK)


def compile_kind(kind: int) -> None:
    """Compile (or load from the cache) the chunk kernel of ``kind`` for the argument types every run
    passes it (a classic heuristic run's), without running a unit (``belote warmup``, a Dask worker's
    warm-up)."""
    rules = Rules.make("classic", None, [])
    policies = Policies.parse("heuristic", "heuristic", rules.players)
    bid, play = policies.codes()
    rec, params = rules.record(), np.ascontiguousarray(policies.bid_params(rules), dtype=np.float64)
    rows = np.zeros((1, 1), np.int64)
    _compile(kind, (0, 0, 1, rec, bid, play, params, _NO_CFG, rows[:1], False,
                    *chunk_buffers(rec, play, strong_address(play), 1)))


def _run_local(kind, seed, first, n, chunk, kernel_args, cfg, per_unit, threads=None, progress=None):
    """``_run`` in this process: on ``threads`` (default ``numba.get_num_threads()``)
    Python threads over the chunk kernel of ``kind``, which releases the GIL; ``progress(units done)``
    after each chunk when given."""
    if chunk <= 0:
        raise ValueError(f"chunk must be positive, not {chunk}")
    rec, bid, play, params = kernel_args
    cfg, n_scratch, n_row = _args(kind, cfg)
    n_chunks = (n + chunk - 1) // chunk
    strong_fn = strong_address(play) if n_chunks else 0
    rows = np.zeros((n if per_unit else n_chunks, n_row), np.int64)

    def one(c):
        start = c * chunk
        cnt = min(chunk, n - start)
        out = rows[start:start + cnt] if per_unit else rows[c:c + 1]
        CHUNKS[kind](seed, first + start, cnt, rec, bid, play, params, cfg, out, per_unit,
               *chunk_buffers(rec, play, strong_fn, n_scratch))

    if n_chunks:
        _compile(kind, (seed, first, min(chunk, n), rec, bid, play, params, cfg, rows[:1], per_unit,
                        *chunk_buffers(rec, play, strong_fn, n_scratch)))
    threads = min(numba.get_num_threads() if threads is None else threads, n_chunks)
    done = 0
    if threads <= 1:
        for c in range(n_chunks):
            one(c)
            if progress is not None:
                done += min(chunk, n - c * chunk)
                progress(done)
    else:
        pool = ThreadPoolExecutor(threads)
        try:
            for c, f in enumerate([pool.submit(one, c) for c in range(n_chunks)]):
                f.result()
                if progress is not None:
                    done += min(chunk, n - c * chunk)
                    progress(done)
        finally:
            # interrupted or failed: the chunks running finish, the queued ones never start
            pool.shutdown(wait=True, cancel_futures=True)
    return rows


def run_units(kind: int, seed: int, first: int, n: int, chunk: int, kernel_args, cfg=None,
              per_unit: bool = False) -> np.ndarray:
    """Units ``first .. first + n - 1`` of a run: their summed row (int64), or with
    ``per_unit`` one row per unit. ``kernel_args``: (rules record, bid policies, play
    policies, bid parameters), as ``SimConfig.kernel_args()`` gives them; ``cfg``: the
    analysis' int64 configuration (``analyzer.runs.units``)."""
    rows = _run(kind, seed, first, n, chunk, kernel_args, cfg, per_unit)
    return rows if per_unit else rows.sum(axis=0)


def run_chunks(kind: int, seed: int, first_chunk: int, n_chunks: int, chunk: int, kernel_args, cfg=None,
               n_units: int | None = None) -> np.ndarray:
    """Chunks ``first_chunk .. first_chunk + n_chunks - 1`` of a run cut into chunks of
    ``chunk`` units (the last one cut at ``n_units``, the run's length, when given): one
    int64 row per chunk, shape (n_chunks, row size). A backend that spreads a run over
    machines calls this per chunk; the rows' sum is the run's whatever the split."""
    first = first_chunk * chunk
    n = n_chunks * chunk if n_units is None else min(n_chunks * chunk, n_units - first)
    if n <= 0:
        return np.zeros((0, row_size(kind, _args(kind, cfg)[0])), np.int64)
    return _run(kind, seed, first, n, chunk, kernel_args, cfg, False)


# --- the backend in use: threads here, or the one a command chose (analyzer.runs.backends) -----

_UNIT_HOOK: list = []  # unit_progress's callbacks, innermost last


@contextmanager
def unit_progress(callback):
    """Inside the block, ``callback(first + units done)`` after each finished chunk (threads)
    or task (Dask) of every batch: finer progress than an analysis' own per-batch calls, for
    the analyses whose progress counts the driver's units from 0 (``simulate``, ``table``)."""
    _UNIT_HOOK.append(callback)
    try:
        yield
    finally:
        _UNIT_HOOK.pop()


def _progress_for(first, progress):
    if progress is not None or not _UNIT_HOOK:
        return progress
    hook = _UNIT_HOOK[-1]
    return lambda done: hook(first + done)


class ThreadBackend:
    """The chunks on this process' numba threads (``numba.set_num_threads``)."""

    name = "threads"

    def run(self, kind, seed, first, n, chunk, kernel_args, cfg, per_unit, progress=None):
        return _run_local(kind, kernel_seed(seed), first, n, chunk, kernel_args, cfg, per_unit,
                                 progress=_progress_for(first, progress))

    def batch_units(self, kind: int, batch: int) -> int:
        """The batch an analysis whose numbers do not depend on its batching should use."""
        return batch

    def describe(self) -> dict:
        return {"backend": self.name, "threads": numba.get_num_threads()}


_DEFAULT = ThreadBackend()
_STACK: list = []


def current():
    """The backend the driver runs on now (threads unless ``use`` says otherwise)."""
    return _STACK[-1] if _STACK else _DEFAULT


@contextmanager
def use(backend):
    """Run the driver on ``backend`` inside the ``with`` block."""
    _STACK.append(backend)
    try:
        yield backend
    finally:
        _STACK.pop()
