"""Game equity (RULES.md §7): the chance that a side wins the game from the score at the table,
estimated by simulation. ``analyzer.players.equity`` holds the table, its file and its lookup.

How it is estimated, in two steps:

1. **Real games** (``sample_games``): whole games under the given players (the engine's own,
   ``analyzer.runs.games``), every deal kept. They give two things: the hands (every hand
   dealt with no reserve waiting, in the hand's frame: side 0 holds voorhand, the dealer's
   side is last; its scores, what it put in the reserve, the side that won it) and the game
   states met in play (every side's total before each deal, and who won that game).
2. **Games from every cell** (``build``): a cell is (our seat in the next hand, our total,
   the best other side's total), totals in steps of ``GRID`` points. From each cell ``k``
   games are played to the end by drawing hands at random from the sample (a game is a
   sequence of independent hands: under players that do not read the score, a hand does
   not depend on the hands before it). The reserve is carried as the rules say (paid to the
   winner of the next hand) and the dealer moves on after every deal. A cell's value is the
   share of its games that our side won.

   With two sides a cell is the whole state; the games start in it (classic: at totals drawn
   evenly inside the cell's ten points, as its totals are not rounded). With three or four
   players the state has a third (and fourth) total: the games of a cell start from the
   states real games passed through in that cell (in turn), so its value is the average over
   the other totals as play brings them about. Cells no real game reached are filled from
   their neighbours and flagged (``n`` = 0).

Every game ``j`` of cell ``c`` draws its hands from the stream ``seed_stream(seed, c * k + j)``,
so the table is the same whatever the thread count. Passed-out deals (classic) move the dealer
and score nothing, as in play; smous redeals keep the dealer and are left out.
"""

from __future__ import annotations

import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field

import numpy as np

from analyzer.compiling import njit
from analyzer.errors import BeloteError
from analyzer.game.auction import CL_CALL, CL_ROUND, CL_SEAT, CL_SUIT
from analyzer.game.dealing import rand_below, seed_stream, shuffle_deck
from analyzer.players.bidding import P_THR1, P_THR2, bid_cards, score_shift, suit_strength
from analyzer.players.equity import EquityTable
from analyzer.rules.calls import PASS, PASSED_OUT, PLAYED, REDEAL, TAKE
from analyzer.rules.seats import VOORHAND, place_next_deal, player_at, side_of_seat
from analyzer.rules.scoring import MADE, game_winner, round_to_ten
from analyzer.runs import kernelcache
from analyzer.runs.games import DEFAULT_MAX_DEALS, _game_log
from analyzer.rules.scoring import NO_RESERVE
from analyzer.runs.hand import (RES_KIND, RES_OUTCOME, RES_RESERVE, RES_SCORES, RES_TAKER_SIDE, RES_TURNED, W_OWN,
                                hand_buffers, play_hand, strong_address)
from analyzer.runs.simulate import SimConfig, set_threads
from analyzer.runs.stats import Z95
from analyzer.runs.units import G_WINNER, GL_RESERVE, GL_ROT, GL_TOTALS

GRID = 10  # points a cell spans on each total
MAX_HANDS = 1000  # a game from a cell still open after this many deals counts as lost (counted apart)
HAND_PLAYED, HAND_PASSED = 0, 1
IN_GAME = np.bool_(True)  # the hand reads the game totals: typed, as every caller passes it (runs.hand.play_hand)


@dataclass
class GameSample:
    """What real games showed: their hands and the states they passed through (hand frame)."""

    label: str
    target: int
    n_sides: int
    partners: bool
    kind: np.ndarray = field(repr=False)  # (H,) HAND_PLAYED or HAND_PASSED
    scores: np.ndarray = field(repr=False)  # (H, n_sides) the hand's scores, side 0 = voorhand's
    added: np.ndarray = field(repr=False)  # (H,) what the hand put in the reserve
    paid: np.ndarray = field(repr=False)  # (H,) the side a waiting reserve would go to, -1 none
    states: np.ndarray = field(repr=False)  # (S, n_sides) totals before each deal (no redeals)
    state_reserve: np.ndarray = field(repr=False)  # (S,) the reserve waiting before it
    state_winner: np.ndarray = field(repr=False)  # (S,) the side (hand frame) that won that game, -1 capped
    state_game: np.ndarray = field(repr=False, default=None)  # (S,) the game it belongs to
    games: int = 0
    capped: int = 0
    seconds: float = 0.0

    @property
    def hands(self) -> int:
        return int(self.kind.shape[0])

    def outcomes(self):
        """The hands as their distinct outcomes: (rows, cum). A row is [kind, added, paid, the
        scores of every side]; ``cum[u]`` the number of hands with row ``u`` or one before it (the
        rows in numpy's sorted order). Drawing ``rand_below(hands)`` and taking the first row whose
        ``cum`` is above it draws a hand uniformly; a few thousand rows stay in the cache where
        hundreds of thousands of hands would not (``play_out``)."""
        full = np.concatenate([self.kind[:, None], self.added[:, None], self.paid[:, None], self.scores], axis=1)
        rows, counts = np.unique(full, axis=0, return_counts=True)
        return rows.astype(np.int64), np.cumsum(counts).astype(np.int64)


def _one_game(args, g):
    seed, rec, bid, play, params, max_deals, strong = args
    row, _, results, _, meta = _game_log(seed, g, rec, bid, play, params, max_deals, strong, False)
    return row, results, meta


def sample_games(config: SimConfig, games: int, first: int = 0, threads: int | None = None,
                 max_deals: int = DEFAULT_MAX_DEALS, progress=None) -> GameSample:
    """Play games ``first .. first + games - 1`` of ``config``'s run (the games ``balance``
    plays with that seed) and keep their hands and states."""
    if games <= 0:
        raise BeloteError(f"--games must be a positive number of games, not {games}")
    rules = config.rules
    rec, bid, play, params = config.game_kernel_args()
    n_sides = int(rec.n_sides)
    partners = bool(rules.partners)
    args = (config.seed, rec, bid, play, params, max_deals, strong_address(play))
    kernelcache.compile_first(_game_log, (config.seed, first, rec, bid, play, params, max_deals, args[-1], False),
                              kernelcache.HAND_LOCK)
    kind, scores, added, paid = [], [], [], []
    states, st_res, st_win, st_game = [], [], [], []
    capped = 0
    t0 = time.perf_counter()
    workers = set_threads(threads)
    with ThreadPoolExecutor(workers) as pool:
        for i, (row, results, meta) in enumerate(pool.map(lambda g: _one_game(args, g), range(first, first + games))):
            w = int(row[G_WINNER])
            capped += w < 0
            for d in range(results.shape[0]):
                res = results[d]
                k = int(res[RES_KIND])
                if k == REDEAL:
                    continue
                rot = int(meta[d, GL_ROT])
                reserve = int(meta[d, GL_RESERVE])
                states.append(meta[d, GL_TOTALS:GL_TOTALS + n_sides].copy())  # a copy: a view keeps the game's arrays
                st_res.append(reserve)
                st_game.append(first + i)
                st_win.append(-1 if w < 0 else next(hs for hs in range(n_sides)
                                                     if player_at.py_func(hs, rot, n_sides) == w))
                if reserve:
                    continue  # the sample's hands start with no reserve waiting (it is carried in the games)
                sc = res[RES_SCORES:RES_SCORES + n_sides].copy()
                kind.append(HAND_PASSED if k == PASSED_OUT else HAND_PLAYED)
                scores.append(sc)
                a = int(res[RES_RESERVE]) if k != PASSED_OUT else 0
                added.append(a)
                if k == PASSED_OUT or a:
                    paid.append(-1)
                else:
                    paid.append(int(res[RES_TAKER_SIDE]) if int(res[RES_OUTCOME]) == MADE else int(np.argmax(sc)))
            if progress is not None and (i + 1) % 256 == 0:
                progress(i + 1)
    if progress is not None:
        progress(games)
    return GameSample(rules.label, int(rec.target), n_sides, partners,
                      np.array(kind, np.int64), np.array(scores, np.int64).reshape(-1, n_sides),
                      np.array(added, np.int64), np.array(paid, np.int64),
                      np.array(states, np.int64).reshape(-1, n_sides), np.array(st_res, np.int64),
                      np.array(st_win, np.int64), np.array(st_game, np.int64), games, capped,
                      time.perf_counter() - t0)


# --- games drawn from the sample --------------------------------------------------------------


O_KIND, O_ADDED, O_PAID, O_SCORES = 0, 1, 2, 3  # the columns of an outcome row (GameSample.outcomes)


@njit(cache=True, nogil=True)
def draw(rows, cum, rng):
    """A hand drawn uniformly: the row of hand ``rand_below(cum[-1])`` (binary search on ``cum``)."""
    u = rand_below(rng, cum[cum.shape[0] - 1])
    lo, hi = 0, cum.shape[0] - 1
    while lo < hi:
        mid = (lo + hi) >> 1
        if cum[mid] > u:
            hi = mid
        else:
            lo = mid + 1
    return lo


@njit(cache=True, nogil=True)
def play_out(rows, cum, n_sides, partners, target, totals, reserve, rng, cap):
    """A game from ``totals`` (hand frame of the next deal, changed in place) and ``reserve``,
    every deal a hand drawn from the sample (``draw``): the side (that frame) that wins it, -1 after
    ``cap`` deals with no winner. The reserve goes to the side the hand names (``paid``), rounded
    to ten outside classic (as the rules round a score with the reserve in it)."""
    for rot in range(cap):
        h = draw(rows, cum, rng)
        if rows[h, O_KIND] == HAND_PASSED:
            continue
        for hs in range(n_sides):
            p = player_at(hs, rot, n_sides)
            totals[p] += rows[h, O_SCORES + hs]
        if rows[h, O_ADDED] > 0:
            reserve += rows[h, O_ADDED]
        elif reserve > 0 and rows[h, O_PAID] >= 0:
            hs = rows[h, O_PAID]
            p = player_at(hs, rot, n_sides)
            totals[p] += reserve if partners else round_to_ten(reserve)
            reserve = 0
        w = game_winner(totals, n_sides, target)
        if w >= 0:
            return w
    return -1


@njit(cache=True, nogil=True)
def _cells(rows, cum, n_sides, partners, target, starts, ptr, us, cell_ids, jitter, k, seed, cap, wins, capped):
    """``k`` games from each cell ``c`` (global number ``cell_ids[c]``), from the start states
    ``starts[ptr[c]:ptr[c + 1]]`` in turn, plus up to ``jitter - 1`` points on every total;
    counts of our side's (``us[c]``) wins and of capped games."""
    rng = np.zeros(1, np.uint64)
    totals = np.zeros(n_sides, np.int64)
    for c in range(cell_ids.shape[0]):
        m = ptr[c + 1] - ptr[c]
        w_sum = 0
        cap_sum = 0
        for j in range(k):
            seed_stream(rng, seed, cell_ids[c] * k + j)
            st = ptr[c] + j % m
            for s in range(n_sides):
                totals[s] = starts[st, s] + (rand_below(rng, jitter) if jitter > 1 else 0)
            w = play_out(rows, cum, n_sides, partners, target, totals, 0, rng, cap)
            if w == us[c]:
                w_sum += 1
            elif w < 0:
                cap_sum += 1
        wins[c] = w_sum
        capped[c] = cap_sum


@njit(cache=True)
def _isotonic(y, w):
    """The weighted least-squares nondecreasing fit of ``y`` (pool adjacent violators)."""
    n = y.shape[0]
    val = np.zeros(n)
    wt = np.zeros(n)
    size = np.zeros(n, np.int64)
    top = 0
    for i in range(n):
        val[top], wt[top], size[top] = y[i], w[i], 1
        top += 1
        while top > 1 and val[top - 2] > val[top - 1]:
            tw = wt[top - 2] + wt[top - 1]
            val[top - 2] = (val[top - 2] * wt[top - 2] + val[top - 1] * wt[top - 1]) / tw
            wt[top - 2] = tw
            size[top - 2] += size[top - 1]
            top -= 1
    out = np.empty(n)
    i = 0
    for b in range(top):
        for _ in range(size[b]):
            out[i] = val[b]
            i += 1
    return out


@njit(cache=True)
def _monotone_round(q, w):
    """One round of ``monotone``: every row fitted along our total, then along the other's."""
    for u in range(q.shape[0]):
        for b in range(q.shape[2]):
            q[u, :, b] = _isotonic(q[u, :, b].copy(), w[u, :, b].copy())
        for a in range(q.shape[1]):
            q[u, a, ::-1] = _isotonic(q[u, a, ::-1].copy(), w[u, a, ::-1].copy())


def monotone(p: np.ndarray, weight: np.ndarray, rounds: int = 200) -> np.ndarray:
    """``p[u, a, b]`` made nondecreasing in our total ``a`` and nonincreasing in the best other's
    ``b`` (more points for us never lowers our chance, more for them never raises it), by
    weighted isotonic fits along each axis in turn until neither moves anything (or ``rounds``), then
    made exactly so: the running maximum along ``a``, then the running minimum along ``b`` (which
    keeps the first: a minimum over the same cells of larger numbers is no smaller)."""
    q = p.astype(np.float64).copy()
    w = np.maximum(weight.astype(np.float64), 1e-3)
    for _ in range(rounds):
        before = q.copy()
        _monotone_round(q, w)
        if np.abs(q - before).max() < 1e-12:
            break
    return np.minimum.accumulate(np.maximum.accumulate(q, axis=1), axis=2)


def _fill(p: np.ndarray, n: np.ndarray) -> np.ndarray:
    """Cells no game reached (``n`` = 0) take the mean of their reached or filled neighbours."""
    q = np.where(n > 0, p, np.nan)
    while np.isnan(q).any():
        pad = np.pad(q, ((0, 0), (1, 1), (1, 1)), constant_values=np.nan)
        near = np.stack([pad[:, :-2, 1:-1], pad[:, 2:, 1:-1], pad[:, 1:-1, :-2], pad[:, 1:-1, 2:]])
        count = np.isfinite(near).sum(axis=0)
        if not count.any():
            raise BeloteError("no cell of the equity table was reached: too few games")
        mean = np.where(count > 0, np.nansum(near, axis=0) / np.maximum(count, 1), np.nan)
        q = np.where(np.isnan(q), mean, q)
    return q


@dataclass
class RawTable:
    """Counts of every cell: ``wins[u, a, b]`` of ``n[u, a, b]`` games (``capped`` unfinished)."""

    wins: np.ndarray
    n: np.ndarray
    capped: np.ndarray
    k: int
    seconds: float


def _cell_starts(sample: GameSample):
    """Every cell's start states (``starts``, ``ptr``), its seat ``us`` and its global number,
    and the jitter (see ``_cells``). Two sides: the cells of seat 0 (seat 1's follow from them)."""
    nb = sample.target // GRID
    if sample.n_sides == 2:
        a, b = np.meshgrid(np.arange(nb), np.arange(nb), indexing="ij")
        starts = np.stack([a.ravel(), b.ravel()], axis=1) * GRID
        ids = np.arange(nb * nb, dtype=np.int64)
        return starts.astype(np.int64), np.arange(nb * nb + 1, dtype=np.int64), np.zeros(nb * nb, np.int64), ids, \
            (GRID if sample.partners else 1)
    st = sample.states[sample.state_reserve == 0]
    rows, cells = [], []
    for u in range(sample.n_sides):
        ours = st[:, u]
        best = np.delete(st, u, axis=1).max(axis=1)
        a = np.minimum(ours // GRID, nb - 1)
        b = np.minimum(best // GRID, nb - 1)
        rows.append(st)
        cells.append((u * nb + a) * nb + b)
    allst, cell = np.concatenate(rows), np.concatenate(cells)
    order = np.argsort(cell, kind="stable")
    allst, cell = allst[order], cell[order]
    ids, first = np.unique(cell, return_index=True)
    ptr = np.append(first, cell.shape[0]).astype(np.int64)
    return allst.astype(np.int64), ptr, (ids // (nb * nb)).astype(np.int64), ids.astype(np.int64), 1


def in_parts(n: int, work, threads=None, parts: int = 64, progress=None) -> None:
    """``work(i, j)`` over ``range(n)`` cut in about ``parts`` pieces, on the run's threads (the
    kernels release the GIL; each item's numbers depend on the item alone, not on the cut);
    ``progress(done)`` after each piece."""
    step = max(1, -(-n // parts))
    done = 0
    with ThreadPoolExecutor(set_threads(threads)) as pool:
        for m in pool.map(lambda i: work(i, min(i + step, n)) or min(step, n - i), range(0, n, step)):
            done += m
            if progress is not None:
                progress(done)


def _run_cells(sample: GameSample, starts, ptr, us, ids, jitter, k, seed, threads, progress=None):
    wins = np.zeros(ids.shape[0], np.int64)
    capped = np.zeros(ids.shape[0], np.int64)
    args = (*sample.outcomes(), sample.n_sides, sample.partners, sample.target)

    def work(i, j):
        _cells(*args, starts, ptr[i:j + 1], us[i:j], ids[i:j], jitter, k, seed, MAX_HANDS, wins[i:j], capped[i:j])

    in_parts(ids.shape[0], work, threads, parts=max(64, ids.shape[0] // 256), progress=progress)
    return wins, capped


def build_raw(sample: GameSample, k: int, seed: int, threads: int | None = None, progress=None) -> RawTable:
    """``k`` games from every cell (see the module's docstring)."""
    if sample.hands == 0:
        raise BeloteError("no hands to draw games from")
    nb = sample.target // GRID
    t0 = time.perf_counter()
    starts, ptr, us, ids, jitter = _cell_starts(sample)
    w, c = _run_cells(sample, starts, ptr, us, ids, jitter, k, seed, threads, progress)
    wins = np.zeros((sample.n_sides, nb, nb), np.int64)
    capped = np.zeros_like(wins)
    n = np.zeros_like(wins)
    wins.reshape(-1)[ids] = w
    capped.reshape(-1)[ids] = c
    n.reshape(-1)[ids] = k
    if sample.n_sides == 2:  # seat 1 with (a, b) is the other side of seat 0 with (b, a)
        wins[1] = (k - wins[0] - capped[0]).T
        capped[1] = capped[0].T
        n[1] = n[0].T
    return RawTable(wins, n, capped, k, time.perf_counter() - t0)


def hand_sample_sd(sample: GameSample, k: int, seed: int, cells: int = 128, replicates: int = 4,
                   threads: int | None = None) -> float:
    """The spread a cell's value owes to the finite sample of hands: the same ``cells`` (drawn at
    random, the open ones kept: 10-90%) rebuilt from ``replicates`` resamples of the hands (with
    replacement), every replicate's games on the same random streams, so that they differ by the
    hands alone; the mean variance across replicates, as a standard deviation. What the same streams
    leave of the games' own noise counts in it: an upper bound."""
    starts, ptr, us, ids, jitter = _cell_starts(sample)
    rng = np.random.default_rng(seed)
    pick = np.sort(rng.choice(ids.shape[0], size=min(cells * 4, ids.shape[0]), replace=False))
    values = []
    for _ in range(replicates):
        h = rng.integers(0, sample.hands, sample.hands)
        boot = GameSample(sample.label, sample.target, sample.n_sides, sample.partners, sample.kind[h],
                          sample.scores[h], sample.added[h], sample.paid[h], sample.states, sample.state_reserve,
                          sample.state_winner, sample.state_game)
        sel_starts = np.concatenate([starts[ptr[i]:ptr[i + 1]] for i in pick])
        sel_ptr = np.concatenate([[0], np.cumsum([ptr[i + 1] - ptr[i] for i in pick])]).astype(np.int64)
        w, _ = _run_cells(boot, sel_starts, sel_ptr, us[pick], ids[pick], jitter, k, seed, threads)
        values.append(w / k)
    v = np.array(values)
    p = v.mean(axis=0)
    open_ = (p > 0.1) & (p < 0.9)
    if not open_.any():
        return 0.0
    return float(np.sqrt(v[:, open_].var(axis=0, ddof=1).mean()))


# --- the table, and how well it foretells real games ----------------------------------------------

DEFAULT_GAMES = 40_000  # real games a table's hands and states come from
DEFAULT_K = 20_000  # games from each cell: a cell's binomial half-width at most 0.69 points of percentage
CHECK_GAMES = 10_000  # real games of another stream the built table is checked against


def build_table(config: SimConfig, games: int = DEFAULT_GAMES, k: int = DEFAULT_K, threads: int | None = None,
                progress=None, check_games: int = CHECK_GAMES):
    """The equity table of ``config``'s rules and players (its seed): ``games`` real games, ``k``
    games from every cell, the hand sample's own error measured (``hand_sample_sd``), and the
    table checked against ``check_games`` real games of other deals (``check``). Returns
    (EquityTable, GameSample). ``progress(stage, done, total)``."""
    if k <= 0:
        raise BeloteError(f"--k must be a positive number of games a cell, not {k}")
    t0 = time.perf_counter()
    say = progress or (lambda *a: None)
    sample = sample_games(config, games, threads=threads, progress=lambda d: say("real games", d, games))
    n_cells = sample.n_sides * (sample.target // GRID) ** 2
    raw = build_raw(sample, k, config.seed, threads, progress=lambda d: say("games from every cell", d, n_cells))
    say("the hand sample's error", 0, 1)
    sd = hand_sample_sd(sample, max(k // 4, 1000), config.seed + 1, threads=threads)
    p = _fill(raw.wins / np.maximum(raw.n, 1), raw.n)
    p = monotone(p, raw.n)
    table = EquityTable(
        config.rules.label, config.rules.options(), sample.target, GRID, p, raw.wins, raw.n, raw.capped, sd,
        {"players": config.policies.describe(), "seed": config.seed, "real_games": games,
         "hands": sample.hands, "states": int(sample.states.shape[0]), "games_per_cell": k,
         "cells_reached": int((raw.n > 0).sum()), "cells": int(raw.n.size),
         "capped_cell_games": int(raw.capped.sum()), "threads": set_threads(threads), "seconds": None})
    if check_games:
        say("checked against real games", 0, check_games)
        held = sample_games(config, check_games, first=games, threads=threads)
        table.provenance["check"] = check(table, held)
    if sample.n_sides > 2:
        say("the reduced state against the whole", 0, 1)
        table.provenance["reduced_state"] = reduced_state_error(table, sample, threads=threads)
    table.provenance["seconds"] = round(time.perf_counter() - t0, 1)
    return table, sample


def _clustered(won: np.ndarray, game: np.ndarray) -> tuple[float, float, float]:
    """The share of ``won`` and its 95% interval, counting each game as one draw (the states of one
    game are not independent): the variance from the games' sums of deviations."""
    p = float(won.mean())
    dev = np.bincount(game, weights=won - p)
    se = float(np.sqrt((dev ** 2).sum())) / won.shape[0]
    return p, max(0.0, p - Z95 * se), min(1.0, p + Z95 * se)


def check(table, held: GameSample, bins: int = 10) -> dict:
    """How the table foretells real games it was not built from: at every deal of ``held`` (with no
    reserve waiting) and for every side, the table's chance against whether that side won the game.
    Calibration by tenths of predicted chance (each with its observed rate and a 95% interval that
    counts a game's states as one draw), the Brier score, and P(win) at 0-0 of every seat, table
    against the games' first deals."""
    keep = (held.state_reserve == 0) & (held.state_winner >= 0)
    st, win, game = held.states[keep], held.state_winner[keep], held.state_game[keep] - held.state_game.min()
    pred, won, games = [], [], []
    for u in range(held.n_sides):
        pred.append(table.win_chance(u, st))
        won.append(win == u)
        games.append(game)
    pred, won, games = np.concatenate(pred), np.concatenate(won).astype(np.float64), np.concatenate(games)
    edges = np.linspace(0, 1, bins + 1)
    which = np.minimum((pred * bins).astype(np.int64), bins - 1)
    rows = []
    for b in range(bins):
        m = which == b
        if m.sum():
            o, lo, hi = _clustered(won[m], games[m])
            rows.append({"predicted": [round(float(edges[b]), 2), round(float(edges[b + 1]), 2)],
                         "mean_predicted": round(float(pred[m].mean()), 4), "observed": round(o, 4),
                         "lo": round(lo, 4), "hi": round(hi, 4), "n": int(m.sum()),
                         "games": int(np.unique(games[m]).shape[0])})
    _, firsts = np.unique(held.state_game, return_index=True)  # each game's first deal: 0-0
    start = {}
    for u in range(held.n_sides):
        w = held.state_winner[firsts] == u
        o, lo, hi = _clustered(w.astype(np.float64), np.arange(firsts.shape[0]))
        start[str(u)] = {"table": round(float(table.win_chance(u, np.zeros(held.n_sides, np.int64))), 4),
                         "games": round(o, 4), "lo": round(lo, 4), "hi": round(hi, 4), "n": int(firsts.shape[0])}
    return {"games": held.games, "predictions": int(pred.shape[0]),
            "brier": round(float(((pred - won) ** 2).mean()), 5),
            "brier_no_skill": round(float(((won.mean() - won) ** 2).mean()), 5),
            "calibration": rows, "from_0_0": start}


def reduced_state_error(table, sample: GameSample, states: int = 300, k: int = 4000, seed: int = 11,
                        threads: int | None = None) -> dict:
    """With three or four players a cell keeps our total and the best other's only: how far that is from
    the whole state. ``states`` states real games passed through (drawn at random among those
    with no reserve waiting, one side each, open ones: the table gives 10-90%), each valued from
    its own totals by ``k`` games; the differences from the table's cell (mean, 90th percentile and
    largest absolute), beside the binomial noise of ``k`` games."""
    st = sample.states[sample.state_reserve == 0]
    rng = np.random.default_rng(seed)
    us_all = rng.integers(0, sample.n_sides, st.shape[0])
    table_p = table.win_chance(us_all, st)
    open_ = np.flatnonzero((table_p > 0.1) & (table_p < 0.9))
    pick = rng.choice(open_, size=min(states, open_.shape[0]), replace=False)
    starts = st[pick].astype(np.int64)
    ptr = np.arange(pick.shape[0] + 1, dtype=np.int64)
    us = us_all[pick].astype(np.int64)
    ids = np.arange(pick.shape[0], dtype=np.int64) + (1 << 44)
    w, _ = _run_cells(sample, starts, ptr, us, ids, 1, k, seed, threads)
    full = w / k
    d = np.abs(full - table_p[pick])
    return {"states": int(pick.shape[0]), "games_each": k, "mean_abs": round(float(d.mean()), 4),
            "p90_abs": round(float(np.quantile(d, 0.9)), 4), "max_abs": round(float(d.max()), 4),
            "mean_signed": round(float((full - table_p[pick]).mean()), 4),
            "binomial_sd_each": round(float(np.sqrt((full * (1 - full)).mean() / k)), 4)}


# --- score-aware bidders: what a threshold shift is worth in the game ---------------------------------


@njit(cache=True)
def table_win_chance(p, grid, target, seat, totals, n_sides):
    """``EquityTable.win_chance`` of one state, in a kernel (``p``: the table's chances)."""
    ours = totals[seat]
    best = -1
    for s in range(n_sides):
        if s != seat and totals[s] > best:
            best = totals[s]
    if ours >= target and ours > best:
        return 1.0
    if best >= target and best > ours:
        return 0.0
    cells = p.shape[1]
    return p[seat, min(ours // grid, cells - 1), min(best // grid, cells - 1)]


@njit(cache=True, forceinline=True)
def _deal_from(states, i, seed, first, totals_h, rng, deck):
    """State ``i`` as the game's totals (``totals_h``) and a fresh deal from the stream
    ``seed_stream(seed, first + i)``; returns the stream's state after the dealing, from which every
    run of that deal restarts (so each draws the same numbers)."""
    for s in range(states.shape[1]):
        totals_h[s] = states[i, s]
    seed_stream(rng, seed, first + i)
    shuffle_deck(rng, deck)
    return rng[0]


@njit(cache=True, nogil=True)
def _shift_sweep(rec, bid_pol, play_pol, params, strong_fn, states, us, shifts, seed, first, p, grid, out):
    """For each state ``i`` (totals by side of a deal, with no reserve) a fresh deal from the stream
    ``seed_stream(seed, first + i)`` played once per shift ``k``: our side's seats (side ``us[i]``)
    bid with ``shifts[k]`` added to both thresholds, the others with their own score shifts
    (``params``' ``shift_*``, by the region each sees), the hand's random numbers the same in every
    run; ``out[i, k]``: our chance to win the game after the hand (``table_win_chance``)."""
    ws, res, no_trace, rng, deck, force, totals_h = hand_buffers(rec, play_pol, strong_fn)
    n = rec.n_players
    n_sides = rec.n_sides
    seat_params = np.zeros_like(params)
    after = np.zeros(n_sides, np.int64)
    for i in range(states.shape[0]):
        u = us[i]
        state = _deal_from(states, i, seed, first, totals_h, rng, deck)
        for k in range(shifts.shape[0]):
            for s in range(n):
                my = side_of_seat(s, rec)
                for j in range(params.shape[1]):
                    seat_params[s, j] = params[s, j]
                shift = shifts[k] if my == u else score_shift(params[s], my, totals_h, n_sides, rec.target)
                seat_params[s, P_THR1] += shift
                seat_params[s, P_THR2] += shift
            rng[0] = state
            play_hand(deck, rec, bid_pol, play_pol, seat_params, rng, force, NO_RESERVE, totals_h, IN_GAME, ws, res,
                      no_trace)
            out[i, k] = win_after(res, totals_h, u, n_sides, rec.target, p, grid, after)


@njit(cache=True)
def win_after(res, totals_h, u, n_sides, target, p, grid, after):
    """Side ``u``'s chance to win the game after the hand ``res`` played from ``totals_h``: the
    hand's scores added, the dealer moved on (seat s of the next deal is seat s + 1 of this one;
    classic: the teams swap sides); a smous redeal leaves the score and the dealer as they were."""
    if res[RES_KIND] == REDEAL:
        return table_win_chance(p, grid, target, u, totals_h, n_sides)
    for s in range(n_sides):
        gained = res[RES_SCORES + s] if res[RES_KIND] == PLAYED else 0
        after[place_next_deal(s, n_sides)] = totals_h[s] + gained
    return table_win_chance(p, grid, target, place_next_deal(u, n_sides), after, n_sides)


@njit(cache=True, nogil=True)
def _take_point(rec, bid_pol, play_pol, params, strong_fn, states, seed, first, p, grid, out):
    """For each state ``i`` (totals by side of a deal) a fresh deal from ``seed_stream(seed, first + i)``
    played twice with voorhand's round-1 call forced, pass and then take (the turned suit), the hand's
    random numbers the same: ``out[i]`` = (voorhand's strength in the turned suit by its bidder,
    voorhand's side's chance to win the game after the pass, after the take)."""
    ws, res, no_trace, rng, deck, force, totals_h = hand_buffers(rec, play_pol, strong_fn)
    n_sides = rec.n_sides
    after = np.zeros(n_sides, np.int64)
    for i in range(states.shape[0]):
        state = _deal_from(states, i, seed, first, totals_h, rng, deck)
        for k in range(2):
            rng[0] = state
            force[CL_SEAT], force[CL_ROUND] = VOORHAND, 1
            force[CL_CALL] = PASS if k == 0 else TAKE
            force[CL_SUIT] = -1 if k == 0 else res[RES_TURNED] >> 3  # the pass run dealt the same turned card
            play_hand(deck, rec, bid_pol, play_pol, params, rng, force, NO_RESERVE, totals_h, IN_GAME, ws, res,
                      no_trace)
            out[i, 1 + k] = win_after(res, totals_h, 0, n_sides, rec.target, p, grid, after)
            if k == 0:
                t = res[RES_TURNED] >> 3
                out[i, 0] = suit_strength(bid_cards(np.uint32(ws.w32[W_OWN]), res[RES_TURNED], t, rec), t, params[0])
        force[CL_SEAT] = -1
