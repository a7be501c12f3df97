"""Training the ``net`` play policy (``analyzer.players.net``) on the value of every legal card.

Data: the decisions of deals bid and played by the heuristic (deal ``i`` of ``belote simulate
--seed SEED``), each with the features of every legal card as the seat to move sees it
(``knowledge.observe``: never the hidden cards) and the card's value on the true deal: by default
(``rollout``) pimc's own evaluator, the card then heuristic play in every seat to the end (4 x the
net hand score + the card-point margin; stuk counted; Dekjas' declarations made in play counted: the
replay keeps the public record of them, ``knowledge.note_declarations``); or (``dd``) the card points the seat's side ends with when
every card is then played perfectly, every card visible (``players.solver``), which lost its duel
(docs/BENCHMARKS.md). A card's *loss* is the best card's value minus its own. Averaged over the
deals a view is consistent with, the value on the true deal is what PIMC estimates by sampling
(BEN, the bridge engine, learns its card play the same way).

Model: a score linear in the features and in every product of two of them (``net.N_TERMS``),
fitted by ridge least squares to minus the loss, within each decision (terms and targets centred
on the decision's mean: only differences between the cards of one decision decide), one block of
weights per setting. The normal equations are summed over chunks of decisions, so memory stays
bounded whatever the number of deals; then (``refine``, ``belote learn --fit choice``, the default) the
weights are refined to minimise the loss of the card the model would play (a softmax over its scores at a
falling temperature, by L-BFGS), since a decision asks only which card scores highest. Plain numpy: the
model needs no training library.

Evaluation, on deals of another seed: the mean loss per decision of the card the model plays,
against the heuristic's card on the same decisions, and how often each plays a best card.
"""

from __future__ import annotations

import ctypes
import errno
import io
import multiprocessing
import os
import re
import signal
import time
from concurrent.futures import ProcessPoolExecutor, ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from analyzer.compiling import njit
from analyzer.errors import BeloteError
from analyzer.game.state import (ST_HANDS, ST_TO_MOVE, ST_TRICK_NO, ST_TRUMP, STATE_SIZE, is_over, legal_cards, play_card,
                                 record_plays, side_of_seat, state_from_record)
from analyzer.players import public_from_record
from analyzer.players.knowledge import note_declarations, observe
from analyzer.players.net import (N_FEATURES, N_SETTINGS, N_TERMS, ROW_LABELS, decision_features, net_card, pair_term,
                                  setting)
from analyzer.players.net_files import array_bytes, finish_interrupted, header_bytes, header_path
from analyzer.players.pimc import N_SC, declare_after, hand_value, roll_out, set_stuk, start_declarations
from analyzer.players.play import HEURISTIC
from analyzer.players.policies import Policies
from analyzer.players.solver import Solver
from analyzer.processes import alive
from analyzer.rules import Rules
from analyzer.rules.structure import declares_after_trick
from analyzer.rules.cards import lowest_card, popcount
from analyzer.runs.records import hand_record
from analyzer.runs.signals import signals_blocked
from analyzer.runs.simulate import SimConfig
from analyzer.runs.stats import Z95


@dataclass
class Decisions:
    """Decision ``g[i]`` of row ``i``: a legal card's features ``x[i]``, its loss ``loss[i]``, and
    whether the heuristic plays it (``x[i, 0]``)."""
    x: np.ndarray  # float64[rows, F]
    loss: np.ndarray  # float64[rows]
    g: np.ndarray  # int64[rows]: the decision of each row
    trick: np.ndarray  # int64[decisions]: the trick number (1..) of each decision
    setting: np.ndarray  # int64[decisions]: net.setting of each decision (role, stage)
    deals: int
    seconds: float

    @property
    def n(self) -> int:
        return int(self.trick.shape[0])


@njit(cache=True)
def rollout_values(st, rec, pub, sc, cards, m, side, out):
    """The value to ``side`` of each of ``cards[:m]`` played in the true deal ``st`` and followed by
    the heuristic in every seat to the end (``pimc.roll_out``: pimc's own evaluator, score-aware,
    on the one world that is true)."""
    for j in range(m):
        out[j] = roll_out(st, rec, pub, sc, cards[j], side)


@njit(cache=True)
def net_rollout_values(st, rec, pub, sc, cards, m, side, weights, w, view, lcards, feats, nz, out):
    """The value to ``side`` of each of ``cards[:m]`` played in the true deal ``st`` and followed by
    ``net`` with ``weights`` in every seat to the end (each seat reading its own view), the same
    value as ``rollout_values`` (pimc's evaluator) with net as the continuation: a step of policy
    iteration over net. ``w``, ``view``: state-sized scratch; ``lcards``, ``feats``, ``nz``: net_card's."""
    dekjas = declares_after_trick(rec)
    for j in range(m):
        w[:] = st
        if dekjas:
            start_declarations(pub, sc)
        c = cards[j]
        while True:
            winner = play_card(w, rec, c)
            if dekjas and winner >= 0:
                declare_after(sc, w[ST_HANDS + winner], winner, w[ST_TRUMP], rec)
            if is_over(w, rec):
                break
            legal = legal_cards(w, rec)
            if popcount(legal) == 1:
                c = lowest_card(legal)
            else:
                observe(w, rec, pub, w[ST_TO_MOVE], view)
                c = net_card(view, rec, pub, weights, lcards, feats, nz)
        out[j] = hand_value(w, rec, pub, sc, side)


def played_deals(rules, seed: int, first: int, deals: int):
    """The deals ``first .. first + deals - 1`` of ``belote simulate --seed SEED`` (heuristic bidding and
    play) that were played, each as ``(i, its state before the first card, an iterator over its plays in
    order (``record_plays``), its public information (``public_from_record``))``."""
    cfg = SimConfig(rules=rules, policies=Policies.parse("heuristic", "heuristic", rules.players),
                    deals=first + deals, seed=seed)
    for i in range(first, first + deals):
        record = hand_record(cfg, i)
        if record.get("outcome") != "played":
            continue
        st, _ = state_from_record(record)
        yield i, st, iter(record_plays(record)), public_from_record(record, rules)


def decisions(rules, seed: int, deals: int, first: int = 0, progress=None, label: str = "rollout",
              weights: np.ndarray | None = None) -> Decisions:
    """The decisions with more than one legal card of deals ``first .. first + deals - 1`` of seed
    ``seed`` (heuristic bidding), each legal card's features and loss: ``label`` "dd", the
    double-dummy card points; "rollout", pimc's value (4 x the net hand score + the card-point margin)
    of the card followed by the play-out policy on the true deal. ``weights`` None: the heuristic
    plays the hands and the play-outs (the deals of ``belote simulate --seed SEED``); a row of net
    weights (``net.N_WEIGHTS``): net with them plays both, from the first card (the same deals and
    bidding), so the fit is a step of policy iteration over that net."""
    t0 = time.perf_counter()
    rec = rules.record()
    solver = Solver(rules, "points") if label == "dd" else None  # card points the seat's side ends with
    view = np.zeros(STATE_SIZE, np.int64)
    cards = np.zeros(32, np.int64)
    feats = np.zeros((32, N_FEATURES), np.float64)
    sc = np.zeros((N_SC, 4), np.int64)
    vals = np.zeros(32, np.int64)
    if weights is not None:  # net_card's and the play-outs' scratch
        weights = np.ascontiguousarray(weights, np.float64)
        w_scr, v_scr = np.zeros(STATE_SIZE, np.int64), np.zeros(STATE_SIZE, np.int64)
        lc, fs, nz = np.zeros(32, np.int64), np.zeros((32, N_FEATURES), np.float64), np.zeros(N_FEATURES, np.int64)
    xs, losses, groups, tricks, settings = [], [], [], [], []
    for i, st, plays, pub in played_deals(rules, seed, first, deals):
        set_stuk(st, rec, sc, True)  # the true deal's stuk, in every value of its decisions
        while not is_over(st, rec):
            card = next(plays)[2] if weights is None else -1  # the heuristic's card, as it was played
            legal = legal_cards(st, rec)
            if popcount(legal) > 1:
                observe(st, rec, pub, int(st[ST_TO_MOVE]), view)
                m, _ = decision_features(view, rec, pub, HEURISTIC, cards, feats)
                side = side_of_seat(int(st[ST_TO_MOVE]), rec)
                if label == "dd":
                    sol = solver.card_values(st)
                    sign = 1 if solver.maximizes(st) else -1
                    v = np.array([sign * sol.cards[int(c)] for c in cards[:m]], np.float64)
                elif weights is not None:
                    net_rollout_values(st, rec, pub, sc, cards, m, side, weights, w_scr, v_scr, lc, fs, nz, vals)
                    v = vals[:m].astype(np.float64)
                else:
                    rollout_values(st, rec, pub, sc, cards, m, side, vals)
                    v = vals[:m].astype(np.float64)
                xs.append(feats[:m].copy())
                losses.append(v.max() - v)
                groups.append(np.full(m, len(tricks), np.int64))
                tricks.append(int(st[ST_TRICK_NO]) + 1)
                settings.append(setting(view, rec))
                if weights is not None:
                    card = net_card(view, rec, pub, weights, lc, fs, nz)
            elif weights is not None:
                card = lowest_card(legal)
            winner = play_card(st, rec, card)
            if winner >= 0 and rules.declare_after_trick:  # Dekjas: the declarations made are public
                note_declarations(pub, st, rec, winner)
        if progress is not None:
            progress(i - first + 1, deals)
    if not tricks:
        return Decisions(np.zeros((0, N_FEATURES)), np.zeros(0), np.zeros(0, np.int64), np.zeros(0, np.int64),
                         np.zeros(0, np.int64), deals, time.perf_counter() - t0)
    return Decisions(np.concatenate(xs), np.concatenate(losses), np.concatenate(groups), np.array(tricks, np.int64),
                     np.array(settings, np.int64), deals, time.perf_counter() - t0)


CHUNK = 25  # deals valued by one task of decisions_parallel


def _task(args):
    label, seed, first, n, target, weights = args

    return decisions(Rules.from_label(label), seed, n, first, label=target, weights=weights)


def cores() -> int:
    """The CPUs this process may run on (its affinity: what a container or ``taskset`` leaves it),
    the most worker processes ``decisions_parallel`` starts; numba's default thread count, which
    bounds ``simulate --threads``, is the same figure."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # not Linux
        return os.cpu_count() or 1


def check_workers(workers: int | None) -> int:
    """The worker processes to use: ``workers``, at most the cores (``cores``; more only share them,
    at about 250 MB each: 256 were accepted on 2 cores), or all of them for None; else a one-line
    error in ``simulate --threads``' words."""
    top = cores()
    if workers is None:
        return top
    if not 1 <= workers <= top:
        raise BeloteError(f"--threads must be between 1 and {top} on this machine, not {workers}")
    return workers


# Rows (legal cards of the decisions with two or more) per deal, by rules label: the most of the means over
# deals 0 to 1,999 of seeds 1, 2 and 7 with the heuristic (classic 59.2, 59.5, 59.9; Piekjas 2 38.6, 37.9,
# 38.2; Piekjas 3 72.4, 72.9, 72.9; Piekjas 4 70.3, 69.9, 69.9; Dekjas 77.5, 78.7, 76.3, and 80.0 over deals 0
# to 9,999 of seed 1), rounded up. A row holds its features, its loss and its decision (``Decisions``:
# ``ROW_BYTES``), so a classic deal is about 24 KB. The estimate against whole trainings measured with
# ``/usr/bin/time -v`` (docs/BENCHMARKS.md, 2026-12-05): Piekjas 3, 100,000 deals, 6.9 GB estimated, 6.3 GB
# peak; Piekjas 4, 100,000 deals, 6.7 GB and 5.5 GB.
ROWS_PER_DEAL = {"classic": 60, "piekjas2": 39, "piekjas3": 73, "piekjas4": 71, "dekjas": 80}
# A row's x, loss and g, 8 bytes each; its decision's trick and setting, 16 bytes over its 4 rows or so.
ROW_BYTES = 8 * (N_FEATURES + 2) + 4
# What does not grow with the deals: this process with the kernels loaded and the fit's normal equations
# (``N_SETTINGS`` x ``N_TERMS`` x ``N_TERMS`` doubles, 177 MB), 500 MB; each worker process, 250 MB (180 to 200
# MB resident measured during a Dekjas run on 2 workers, 2026-12-06).
MAIN_BYTES = 500e6
WORKER_BYTES = 250e6


def memory_needed(label: str, deals: int, test_deals: int, workers: int) -> tuple[float, float]:
    """The memory ``belote learn`` needs for ``deals`` training and ``test_deals`` held-out deals of
    rules ``label`` on ``workers`` processes, and the bytes a deal takes, both estimated. The rows of
    the training deals are held while the held-out ones are made, and each set is held twice while
    its chunks are put together (``decisions_parallel``; tracemalloc's peak: 2.02 times the rows' bytes
    on 10,000 Dekjas deals): ``max(2 deals, deals + 2 test_deals)`` deals at once."""
    per_deal = ROWS_PER_DEAL.get(label, max(ROWS_PER_DEAL.values())) * ROW_BYTES
    fixed = MAIN_BYTES + (WORKER_BYTES * workers if workers > 1 else 0)
    return per_deal * max(2 * deals, deals + 2 * test_deals) + fixed, per_deal


def memory_available() -> float | None:
    """The memory that can be used without swapping (``MemAvailable`` of ``/proc/meminfo``, bytes),
    None where it is not known (not Linux)."""
    try:
        with open("/proc/meminfo") as f:
            for line in f:
                if line.startswith("MemAvailable:"):
                    return float(line.split()[1]) * 1024
    except OSError:
        pass
    return None


def check_memory(label: str, deals: int, test_deals: int, workers: int, available: float | None = None) -> None:
    """A one-line error when the run's memory (``memory_needed``) exceeds what is available
    (``memory_available``), naming the most deals that fit: 10,000,000 classic deals, which ``--deals``
    accepts, need about 485 GB; such a run used to start, and fail or swap only after hours."""
    available = memory_available() if available is None else available
    if available is None:
        return
    need, per_deal = memory_needed(label, deals, test_deals, workers)
    if need <= available:
        return
    room = (available - memory_needed(label, 0, 0, workers)[0]) / per_deal  # deal-sized rows that fit
    most = int(room // 2) if room // 2 >= 2 * test_deals else int(room - 2 * test_deals)
    fix = (f"at most --deals {most:,} with --test-deals {test_deals:,} here" if most >= 10 else
           "fewer --test-deals, or free some memory")
    raise BeloteError(f"--deals {deals:,} and --test-deals {test_deals:,} need about {need / 1e9:,.1f} GB of memory "
                      f"({per_deal / 1e3:.0f} KB a {label} deal, held twice while the deals are put together) and "
                      f"{available / 1e9:,.1f} GB is available: {fix}")


PR_SET_PDEATHSIG = 1  # <linux/prctl.h>: the prctl option that names the signal sent when the parent dies


def _die_with_parent(parent: int) -> None:
    """A worker process's start (``decisions_parallel``' pool): the kernel SIGKILLs it when its
    parent dies (Linux ``prctl(PR_SET_PDEATHSIG)``). A SIGKILLed ``belote learn`` used to leave its
    workers running (about 250 MB each, waiting for work that never came, and ignoring SIGTERM). A
    parent that died before the call sends no signal: the worker then ends itself (its parent is
    no longer ``parent``)."""
    try:
        prctl = ctypes.CDLL(None, use_errno=True).prctl
    except (OSError, AttributeError):  # not Linux: no such call
        return
    prctl(PR_SET_PDEATHSIG, int(signal.SIGKILL), 0, 0, 0)
    if os.getppid() != parent:
        os.kill(os.getpid(), signal.SIGKILL)


def decisions_parallel(rules, seed: int, deals: int, workers: int | None = None, progress=None,
                       label: str = "rollout", weights: np.ndarray | None = None) -> Decisions:
    """``decisions`` of deals ``0 .. deals - 1`` in chunks of ``CHUNK`` deals over ``workers``
    processes (default: the cores; at most that many, ``check_workers``), put together in deal
    order: the same rows whatever the number of workers. ``progress(deals done)``. The workers
    die with this process, a SIGKILL included (``_die_with_parent``)."""
    t0 = time.perf_counter()
    chunk = CHUNK if label == "dd" else 20 * CHUNK
    tasks = [(rules.label, seed, a, min(chunk, deals - a), label, weights) for a in range(0, deals, chunk)]
    workers = check_workers(workers)
    parts, done = [], 0
    if workers == 1:
        results = map(_task, tasks)
    else:
        # forked (the default of Python 3.11 and 3.12 on Linux, named so that a later default, forkserver,
        # does not make the workers' parent another process than this one, which _die_with_parent checks)
        pool = ProcessPoolExecutor(workers, mp_context=multiprocessing.get_context("fork"),
                                   initializer=_die_with_parent, initargs=(os.getpid(),))
        results = pool.map(_task, tasks)
    try:
        for (_, _, _, n, *_), d in zip(tasks, results):
            parts.append(d)
            done += n
            if progress is not None:
                progress(done)
    finally:
        if workers != 1:
            pool.shutdown(cancel_futures=True)
    offset, gs = 0, []
    for d in parts:
        gs.append(d.g + offset)
        offset += d.n
    return Decisions(np.concatenate([d.x for d in parts]), np.concatenate([d.loss for d in parts]), np.concatenate(gs),
                     np.concatenate([d.trick for d in parts]), np.concatenate([d.setting for d in parts]), deals,
                     time.perf_counter() - t0)


def _centred(v: np.ndarray, g: np.ndarray, n: int) -> np.ndarray:
    """``v`` less the mean of its decision, row by row (``g``: rows in decision order, 0 to n - 1)."""
    starts = np.flatnonzero(np.r_[True, g[1:] != g[:-1]])
    counts = np.diff(np.r_[starts, g.shape[0]]).astype(np.float64)
    means = np.add.reduceat(v, starts, axis=0) / (counts if v.ndim == 1 else counts[:, None])
    return v - np.repeat(means, counts.astype(np.int64), axis=0)


def terms(x: np.ndarray) -> np.ndarray:
    """The model's terms of feature rows ``x``: each feature, then each product of two features
    ``i < j`` in ``net.pair_term``'s order (numpy's ``triu_indices``), every one of them, dense: the
    obvious form of what ``_row_terms`` gives row by row over the nonzero ones (the fit and the scores
    use that; the tests check it against this)."""
    i, j = np.triu_indices(N_FEATURES, 1)
    return np.hstack([x, x[:, i] * x[:, j]])


CHUNK_ROWS = 200_000  # rows summed between two of the fit's progress reports


def _chunks(d: Decisions):
    """Row ranges ``(a, b)`` of about ``CHUNK_ROWS`` that never split a decision (rows are in
    decision order)."""
    a, rows = 0, d.x.shape[0]
    while a < rows:
        b = min(rows, a + CHUNK_ROWS)
        while b < rows and d.g[b] == d.g[b - 1]:
            b += 1
        yield a, b
        a = b


def scores(d: Decisions, w: np.ndarray) -> np.ndarray:
    """The model's score of each row: its terms times the weights of its decision's setting
    (``net.setting``: the weights are ``N_SETTINGS`` blocks of ``N_TERMS``), over its nonzero terms
    (``_row_scores``: the same as ``terms(d.x)`` times the setting's block, tests/players/test_net.py, which
    took 11.6 s for the 178,264 rows of 3,000 classic deals against 0.09 s)."""
    out = np.empty(d.x.shape[0])
    _row_scores(np.ascontiguousarray(d.x), d.setting[d.g], np.ascontiguousarray(w, np.float64), out)
    return out


@njit(cache=True, forceinline=True)
def _row_terms(x, r, nz, idx, val):
    """The nonzero terms of row ``r`` of ``x`` (``terms``' columns): their indices into ``idx``, in
    increasing order (the features, then the pairs in ``net.pair_term``'s order), their values into
    ``val``; ``nz``: scratch of a row's features. Returns their number."""
    q = 0
    for f in range(x.shape[1]):
        if x[r, f] != 0.0:
            nz[q] = f
            idx[q] = f
            val[q] = x[r, f]
            q += 1
    m = q
    for a in range(q):
        xa = x[r, nz[a]]
        for b in range(a + 1, q):
            idx[m] = pair_term(nz[a], nz[b])
            val[m] = xa * x[r, nz[b]]
            m += 1
    return m


@njit(cache=True)
def _row_scores(x, row_setting, w, out):
    """``scores``' kernel: row ``r``'s nonzero terms times the weights of setting ``row_setting[r]``."""
    n_terms = w.shape[0] // N_SETTINGS
    nz = np.empty(x.shape[1], np.int64)
    idx = np.empty(n_terms, np.int64)
    val = np.empty(n_terms)
    for r in range(x.shape[0]):
        base = row_setting[r] * n_terms
        m = _row_terms(x, r, nz, idx, val)
        s = 0.0
        for a in range(m):
            s += w[base + idx[a]] * val[a]
        out[r] = s


@njit(cache=True)
def _normal_equations(x, y, g, row_setting, xtx, xty):
    """Add the normal equations of the rows of ``x`` (features; rows in decision order ``g``, whole
    decisions) to ``xtx`` (upper triangle only) and ``xty``, one block per setting: the model's terms
    centred on their decision's mean, against ``y`` (already centred). A row's terms are mostly 0 (its
    features are), so the sums run over its nonzero terms, and the centring is the identity
    sum (t - mean)(t - mean)' = sum t t' - n mean mean' (and sum (t - mean) y = sum t y: y's mean is 0)."""
    n_rows = x.shape[0]
    n_terms = xty.shape[1]
    nz = np.empty(x.shape[1], np.int64)
    idx = np.empty(n_terms, np.int64)
    val = np.empty(n_terms)
    total = np.zeros(n_terms)  # the decision's sum of each term
    touched = np.zeros(n_terms, np.bool_)
    seen = np.empty(n_terms, np.int64)
    r = 0
    while r < n_rows:
        e = r + 1
        while e < n_rows and g[e] == g[r]:
            e += 1
        k = row_setting[r]
        n_seen = 0
        for q in range(r, e):
            m = _row_terms(x, q, nz, idx, val)
            yq = y[q]
            for a in range(m):
                i = idx[a]
                v = val[a]
                xty[k, i] += v * yq
                for b in range(a, m):  # idx increases: the upper triangle
                    xtx[k, i, idx[b]] += v * val[b]
                total[i] += v
                if not touched[i]:
                    touched[i] = True
                    seen[n_seen] = i
                    n_seen += 1
        inv = 1.0 / (e - r)
        for a in range(n_seen):
            i = seen[a]
            ti = total[i] * inv
            for b in range(n_seen):
                j = seen[b]
                if j >= i:
                    xtx[k, i, j] -= ti * total[j]
        for a in range(n_seen):
            total[seen[a]] = 0.0
            touched[seen[a]] = False
        r = e


def check_ridge(ridge: float) -> float:
    """``ridge`` when it is more than 0, else a one-line error. Without a penalty the least squares
    are singular: a term that is 0 in every decision of a setting (a pair of features that never
    meet) has no weight to find, and numpy's solve raised ``LinAlgError: Singular matrix``."""
    if not ridge > 0:
        why = (" (without a penalty the least squares are singular: terms that are 0 in every decision have no "
               "weight to find)") if ridge == 0 else ""
        raise BeloteError(f"--ridge must be more than 0, not {ridge:g}{why}: e.g. --ridge 1")
    return ridge


def fit(d: Decisions, ridge: float = 1.0, anchor: float | None = None, progress=None) -> np.ndarray:
    """The weights: ridge least squares of minus the loss on the terms, within each decision
    (terms and targets centred on the decision's mean), one block of weights per setting (the
    settings' rows never share a decision, so each block is its own least squares), its normal
    equations summed chunk by chunk. ``anchor``: the weight of "the heuristic's card" fixed at this
    many units in every setting (the others fitted to what it leaves), so that the model leaves the
    heuristic's card only where it predicts a gain of more than that: a prior that the heuristic's
    card is good. ``progress(rows)``: the rows summed so far, after each chunk (the solves at the
    end take a second). The sums run over each row's nonzero terms (``_normal_equations``: a classic
    row has about 11 nonzero features, so about 66 nonzero terms of 990): on 3,000 classic deals
    (178,264 rows) the fit took 2.7 s where the dense products of every term took 23.5 s.
    ``ridge`` must be more than 0 (``check_ridge``)."""
    check_ridge(ridge)
    xtx = np.zeros((N_SETTINGS, N_TERMS, N_TERMS))  # the upper triangle, filled in below
    xty = np.zeros((N_SETTINGS, N_TERMS))
    y = _centred(-d.loss, d.g, d.n) if d.x.shape[0] else np.zeros(0)
    if anchor is not None and d.x.shape[0]:
        y = y - anchor * _centred(d.x[:, 0], d.g, d.n)
    x = np.ascontiguousarray(d.x)
    row_setting = d.setting[d.g]
    for a, b in _chunks(d):
        _normal_equations(x[a:b], y[a:b], d.g[a:b], row_setting[a:b], xtx, xty)
        if progress is not None:
            progress(b)
    seen = np.zeros(N_SETTINGS, bool)
    seen[np.unique(d.setting)] = True
    for k in range(N_SETTINGS):
        upper = np.triu(xtx[k])
        xtx[k] = upper + upper.T - np.diag(np.diag(upper))
    w = np.zeros(N_SETTINGS * N_TERMS)
    free = slice(0 if anchor is None else 1, N_TERMS)  # with an anchor, term 0 is fixed
    for k in range(N_SETTINGS):
        block = w[k * N_TERMS:(k + 1) * N_TERMS]
        if not seen[k]:
            block[0] = 1.0 if anchor is None else anchor  # no data: the heuristic's card
            continue
        a = xtx[k][free, free]
        try:
            block[free] = np.linalg.solve(a + ridge * np.eye(a.shape[0]), xty[k][free])
        except np.linalg.LinAlgError:  # a ridge so small that it vanishes next to the sums
            block[free] = np.nan
        if not np.isfinite(block).all():
            raise BeloteError(f"the least squares of setting {k} are singular at --ridge {ridge:g} (terms that are 0 "
                              f"in all its decisions): use a larger --ridge, e.g. 1")
        if anchor is not None:
            block[0] = anchor
    return w


# --- the choice fit (``--fit choice``): the least squares' weights refined on what a choice costs -----------
#
# The least squares fit every card's value, the cards no one would play as closely as the best two; but a
# decision only asks which card scores highest. The refinement minimises what the model's choice gives away:
# the loss of each card weighted by its softmax probability at temperature ``tau`` (in the target's units: a
# card scored ``tau`` below another is played e = 2.7 times less often), which tends to the loss of the card
# the model plays as ``tau`` falls, and is smooth, so a quasi-Newton method (L-BFGS) finds its minimum from the
# least squares' weights. A small penalty ties the weights to where they started, so a term that seldom
# occurs keeps its least-squares weight. Each temperature starts where the one before ended (8, then 4 units).

TEMPERATURES = (8.0, 4.0)  # the softmax's temperatures, in the target's units, each refining the last
PENALTY = 1e-4  # lambda of lambda / 2 |w - w0|^2, per decision
LBFGS_STEPS = 40  # quasi-Newton steps at each temperature


@njit(cache=True, nogil=True)
def _choice_objective(x, loss, g, row_setting, w, tau, grad):
    """The sum over decisions of the softmax(score / ``tau``)-weighted loss of their cards (rows in
    decision order ``g``, at most 32 a decision, weights by ``row_setting``), and the number of
    decisions; its gradient in ``w`` added to ``grad``: d/ds_c sum_k p_k loss_k = p_c (loss_c - L) / tau,
    times the card's terms."""
    n_rows = x.shape[0]
    n_terms = w.shape[0] // N_SETTINGS
    nz = np.empty(x.shape[1], np.int64)
    idx = np.empty(n_terms, np.int64)
    val = np.empty(n_terms)
    p = np.empty(32)
    total = 0.0
    n_decisions = 0
    r = 0
    while r < n_rows:
        e = r + 1
        while e < n_rows and g[e] == g[r]:
            e += 1
        base = row_setting[r] * n_terms
        top = -np.inf
        for q in range(r, e):
            m = _row_terms(x, q, nz, idx, val)
            s = 0.0
            for a in range(m):
                s += w[base + idx[a]] * val[a]
            p[q - r] = s / tau
            top = max(top, p[q - r])
        z = 0.0
        for q in range(r, e):
            p[q - r] = np.exp(p[q - r] - top)
            z += p[q - r]
        expected = 0.0
        for q in range(r, e):
            p[q - r] /= z
            expected += p[q - r] * loss[q]
        total += expected
        n_decisions += 1
        for q in range(r, e):
            coef = p[q - r] * (loss[q] - expected) / tau
            if coef != 0.0:
                m = _row_terms(x, q, nz, idx, val)
                for a in range(m):
                    grad[base + idx[a]] += coef * val[a]
        r = e
    return total, n_decisions


def lbfgs(f, w0: np.ndarray, steps: int, memory: int = 10, progress=None) -> np.ndarray:
    """The minimum near ``w0`` of ``f`` (``f(w) -> (value, gradient)``) after ``steps`` steps of
    L-BFGS (Nocedal and Wright, algorithm 7.4: the two-loop recursion over the last ``memory`` steps),
    each step's length halved from 1 until it decreases ``f`` enough (Armijo, c = 1e-4); the first
    step moves no weight by more than 1. ``progress(step)`` after each. Plain numpy: the fit needs no
    optimisation library."""
    w = np.array(w0, np.float64)
    fx, gx = f(w)
    past: list[tuple[np.ndarray, np.ndarray, float]] = []  # (s, y, 1 / y's) of the last steps
    for step in range(steps):
        d = -gx
        alphas = []
        for s, y, rho in reversed(past):
            a = rho * (s @ d)
            alphas.append(a)
            d = d - a * y
        if past:
            s, y, _ = past[-1]
            d = d * ((s @ y) / (y @ y))
        else:
            d = d / max(np.abs(d).max(), 1e-300)
        for (s, y, rho), a in zip(past, reversed(alphas)):
            d = d + (a - rho * (y @ d)) * s
        slope = gx @ d
        if not slope < 0:  # not a descent direction (curvature lost to rounding): start again from the gradient
            past, d = [], -gx / max(np.abs(gx).max(), 1e-300)
            slope = gx @ d
        length = 1.0
        while True:
            wn = w + length * d
            fn, gn = f(wn)
            if fn <= fx + 1e-4 * length * slope or length < 1e-10:
                break
            length /= 2
        s, y = wn - w, gn - gx
        if s @ y > 1e-12:
            past = (past + [(s, y, 1.0 / (s @ y))])[-memory:]
        w, fx, gx = wn, fn, gn
        if progress is not None:
            progress(step + 1)
    return w


# the decisions' parts whose sums threads compute apart, added in order: the same sums on any threads. A fixed
# count, not the fit's chunks (``_chunks``, by size): the split orders the sums, so the shipped weights (net v4)
# are what this split gives, to the bit
PARTS = 16


def _parts(g: np.ndarray, parts: int = PARTS) -> list[tuple[int, int]]:
    """``parts`` row ranges of about equal size that never split a decision (rows in decision order
    ``g``), empty ones left out."""
    rows = g.shape[0]
    cuts = [0]
    for k in range(1, parts):
        b = max(cuts[-1], rows * k // parts)
        while 0 < b < rows and g[b] == g[b - 1]:
            b += 1
        cuts.append(b)
    cuts.append(rows)
    return [(a, b) for a, b in zip(cuts[:-1], cuts[1:]) if b > a]


def refine(d: Decisions, w0: np.ndarray, temperatures=TEMPERATURES, penalty: float = PENALTY,
           steps: int = LBFGS_STEPS, threads: int = 1, progress=None) -> np.ndarray:
    """The weights that minimise, from ``w0`` (the least squares' ``fit``), the mean over the decisions
    of ``d`` of the loss the model's softmax choice gives away at each of ``temperatures`` in turn
    (``_choice_objective``), plus ``penalty`` / 2 |w - w0|^2. The sums run in ``PARTS`` parts on
    ``threads`` threads (the kernel releases the GIL) and are added in order, so the weights do not
    depend on ``threads``. ``progress(steps done)``, of ``len(temperatures) * steps``."""
    x = np.ascontiguousarray(d.x, np.float64)
    loss = np.ascontiguousarray(d.loss, np.float64)
    row_setting = np.ascontiguousarray(d.setting[d.g])
    parts = _parts(d.g)
    w0 = np.array(w0, np.float64)
    w = w0
    with ThreadPoolExecutor(max(1, threads)) as pool:
        for i, tau in enumerate(temperatures):
            def f(w, tau=float(tau)):
                def part(ab):
                    a, b = ab
                    grad = np.zeros_like(w)
                    total, n = _choice_objective(x[a:b], loss[a:b], d.g[a:b], row_setting[a:b], w, tau, grad)
                    return total, n, grad

                total, n, grad = 0.0, 0, np.zeros_like(w)
                for t, k, gr in pool.map(part, parts):  # in order
                    total, n, grad = total + t, n + k, grad + gr
                n = max(n, 1)
                dw = w - w0
                return total / n + 0.5 * penalty * (dw @ dw), grad / n + penalty * dw

            done = i * steps
            w = lbfgs(f, w, steps, progress=None if progress is None else (lambda k, done=done: progress(done + k)))
    return w


def choices(d: Decisions, w: np.ndarray) -> np.ndarray:
    """The row the model plays in each decision (ties: the heuristic's card, then the first)."""
    score = scores(d, w) + 1e-9 * d.x[:, 0]
    order = np.lexsort((-score, d.g))  # by decision, best score first
    first = np.ones(order.shape[0], bool)
    first[1:] = d.g[order][1:] != d.g[order][:-1]
    return order[first]


def evaluate(d: Decisions, w: np.ndarray) -> dict:
    """Mean loss per decision (in the target's units) of the model's card and of the heuristic's,
    with their paired difference and 95% interval, and the share of best cards."""
    net = d.loss[choices(d, w)]
    heur_rows = np.flatnonzero(d.x[:, 0] == 1.0)
    heur = np.zeros(d.n)
    heur[d.g[heur_rows]] = d.loss[heur_rows]
    diff = net - heur
    se = diff.std(ddof=1) / np.sqrt(d.n) if d.n > 1 else float("nan")
    by_trick = {int(t): {"net": float(net[d.trick == t].mean()), "heuristic": float(heur[d.trick == t].mean()),
                         "decisions": int((d.trick == t).sum())} for t in np.unique(d.trick)}
    return {"decisions": d.n, "deals": d.deals, "net_loss": float(net.mean()), "heuristic_loss": float(heur.mean()),
            "difference": float(diff.mean()), "difference_ci": [float(diff.mean() - Z95 * se), float(diff.mean() + Z95 * se)],
            "net_best": float((net == 0).mean()), "heuristic_best": float((heur == 0).mean()),
            "differs_from_heuristic": float((net != heur).mean()), "by_trick": by_trick}


__all__ = ["Decisions", "decisions", "decisions_parallel", "fit", "refine", "lbfgs", "choices", "evaluate", "write_weights",
           "check_workers", "check_memory", "check_ridge", "check_writable", "remove_stale"]


# --- the weights files (``--write``): checked before the work, written after it ---------------------
#
# The array (``net_data/net.npy``) and its header (``net.json``, which vouches for the array by its
# sha256: ``analyzer.players.net_files``) are each written to ``.NAME.PID.tmp`` beside it and renamed
# into place, the array first, then the header, with SIGINT and SIGTERM held between the two: the pair
# is the old one or the new one, never half of each. A rename that fails (the header a mount point)
# puts the old array back. A run SIGKILLed before the renames leaves its temporary files, which the
# next ``belote learn`` removes and says so (``remove_stale``), as ``outdir.recover`` does for a killed
# run's output folders; one SIGKILLed between the two renames leaves the new array and the header that
# vouches for it, which the next reader renames into place (``net_files.finish_interrupted``).

# a weights file's temporary file (the new file, or ``.old``: a second name of the array it replaces, to
# put it back): name, writer's PID
_TMP = re.compile(r"\.(net\w*\.(?:npy|json))\.(\d+)(?:\.old)?\.tmp")


def _temporary(path: Path, kind: str = "") -> Path:
    return path.with_name(f".{path.name}.{os.getpid()}{kind}.tmp")


def _cannot_write(e: OSError, path: Path, what: str) -> BeloteError:
    """A failed write of a weights file as one line: what the system said and the fix."""
    said = os.strerror(e.errno) if e.errno else (e.strerror or str(e))
    fix = ("free some space, or run without --write" if e.errno in (errno.ENOSPC, errno.EDQUOT) else
           "install belote-analyzer where you can write (a checkout of your own: pip install -e .), "
           "or run without --write")
    return BeloteError(f"{what} {path}: {said} ({fix})")


def check_writable(path) -> None:
    """A one-line error, before any work, when ``--write`` could not replace the weights array ``path``
    and its header beside it: a temporary file created and removed beside them, as this process's user
    (the test that the renames need), and each file opened for writing (a read-only file, or a
    read-only bind of it). An install the user cannot write used to fail with a traceback after the
    whole training (6 to 13 minutes at the documented sizes), its held-out results lost."""
    path = Path(path)
    probe = _temporary(path)
    target = path
    try:
        with signals_blocked():  # the probe removed before an interruption lands
            os.close(os.open(probe, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o644))
            os.unlink(probe)
        for target in (path, header_path(path)):
            os.close(os.open(target, os.O_WRONLY | os.O_APPEND))  # nothing written: the file is as it was
    except OSError as e:
        raise _cannot_write(e, target, "--write cannot replace the weights file") from None


def remove_stale(path) -> str | None:
    """Remove the temporary files that runs killed between writing the weights files beside ``path``
    and renaming them into place left, or earlier versions whose write failed (``.net*.npy.PID.tmp``,
    ``.net*.npy.PID.old.tmp``, ``.net*.json.PID.tmp`` of a PID no process has, or of this one, which
    has not written its own yet: ``processes.alive``), once a header that finishes a write killed
    between its two renames is renamed into place (``net_files.finish_interrupted``); return the lines
    that say so, or None when there were none. The files themselves are as those runs found them (each
    rename is atomic)."""
    path = Path(path)
    finished = finish_interrupted(path)
    try:
        found = sorted((int(m.group(2)), p.name, p) for p in path.parent.iterdir()
                       if (m := _TMP.fullmatch(p.name)) and not alive(int(m.group(2))))
    except OSError:  # a folder that cannot be listed: nothing of ours to find
        return finished
    if not found:
        return finished
    done = []
    with signals_blocked():
        for _, _, p in found:
            try:
                p.unlink(missing_ok=True)
                done.append(f"removed {p.name}")
            except OSError as e:
                done.append(f"cannot remove {p.name} ({os.strerror(e.errno) if e.errno else e})")
    pids = ", ".join(str(pid) for pid in sorted({pid for pid, _, _ in found}))
    line = (f"belote: a learn --write that did not finish (PID {pids}) left its temporary weights files in "
            f"{path.parent} (the files there are as they were): " + "; ".join(done))
    return line if finished is None else finished + "\n" + line


def _write_file(dest: Path, data: bytes) -> Path:
    """``data`` in ``dest``, on the disk (before a rename puts it in place)."""
    with open(dest, "wb") as f:
        f.write(data)
        f.flush()
        os.fsync(f.fileno())
    return dest


def write_weights(path, rows: dict, provenance: dict) -> None:
    """Rewrite the weights array ``path`` (``.npy``) and its header beside it with ``rows``
    (``{label: weights}``) replacing those rows, the others kept (the shipped ``net_weights.WEIGHTS``),
    each row's provenance beside it. Written beside and renamed into place, the array first, then
    the header that vouches for it; a failed write (a full disk) is one line and leaves nothing beside
    them, the pair as it was, nor does an interruption."""
    # lazy: reading the shipped weights validates them, after remove_stale has finished a --write a kill cut short
    from analyzer.players import net_weights

    weights = net_weights.WEIGHTS.copy()
    prov = dict(net_weights.PROVENANCE)
    for label, w in rows.items():
        weights[ROW_LABELS.index(label)] = w
        prov[label] = provenance[label]
    data = array_bytes(weights)
    back = np.lib.format.read_array(io.BytesIO(data), allow_pickle=False)
    assert back.tobytes() == np.ascontiguousarray(weights, "<f8").tobytes()  # exact, or nothing is written
    head = header_bytes(weights, data, prov)
    path = Path(path)
    hpath = header_path(path)
    old = _temporary(path, ".old")  # the array replaced, put back if its header cannot follow
    temps = [_temporary(path), _temporary(hpath), old]
    target = path
    try:
        _write_file(temps[0], data)
        target = hpath
        _write_file(temps[1], head)
        target = path
        if path.exists():
            try:
                os.link(path, old)  # a second name of the old array: putting it back is a rename
            except OSError:
                _write_file(old, path.read_bytes())  # a file system without hard links: a copy
        with signals_blocked():  # both renames, or an interruption waits for them
            os.replace(temps[0], path)
            target = hpath
            try:
                os.replace(temps[1], hpath)
            except OSError:
                if old.exists():
                    os.replace(old, path)  # the old array back beside its own header
                else:
                    path.unlink(missing_ok=True)  # there was none
                raise
    except OSError as e:
        raise _cannot_write(e, target, "cannot write the weights file") from None
    finally:
        with signals_blocked():
            for tmp in temps:
                try:
                    tmp.unlink(missing_ok=True)  # after a failure or an interruption; renamed away otherwise
                except OSError:
                    pass
