"""Exact double-dummy solver on ``analyzer.game.state`` (every card visible, every side perfect).

Objective
---------
The value of a position is the taker side's final result under perfect play:

- ``points`` (default): the taker side's card points at the end of the hand, last-trick
  10 included, classic capot 252 (RULES.md §1, §6).
- ``pit``: the same plus the taker side's pit award of RULES.md §6 (Piekjas, Dekjas: 100
  for every trick, or its share of each trickless player's 100; ``scoring.pit_awards``).
  Classic has no pit award (its capot is already the 252).

Declarations and stuk are not in the objective. In classic and Piekjas they are fixed once
the hands are known (made at the first trick from the cards held), so they shift every
line by the same amount. In Dekjas they depend on who wins which trick (RULES.md §5); the
solver leaves them out, so a Dekjas value is the card-point value only.

Who plays against whom
----------------------
Classic (two teams), Piekjas with 2 players and Dekjas are two-sided and solved exactly:
the taker side maximises the objective, the other side minimises it. Piekjas with 3 or 4
players is not a two-sided game; there the solver gives the **paranoid** value: the other
players together minimise the troefmaker's margin, its objective minus the best
objective among the others (card points, with pit awards under ``pit``), and the
troefmaker maximises it. The paranoid value is a lower bound on what the troefmaker can
guarantee against any defence.

Search
------
Fail-soft alpha-beta on the state's ``play_card`` / ``undo_card``, iterative (an explicit
stack, so numba can cache the kernel), with:

- a preallocated transposition table of lower and upper bounds, stored at trick
  boundaries; key: the cards gone, the leader, and whatever of the past still changes
  the outcome (two-sided: whether the taker side has won every trick so far; paranoid:
  each side's points less the troefmaker's, which leave the margin unchanged, and
  whether it has a trick); the best card of an entry is tried first;
- bounds from the points left (what the taker side has, and that plus every point still
  in play), checked at trick boundaries;
- move ordering by a cheap rule (lead masters, beat an opponent cheaply or, as the last
  to play, with the richest card, load a partner's trick, else throw the cheapest);
- equivalent cards searched once: cards of the hand to move, adjacent in the trick order
  of their suit once the cards between them have been played in earlier tricks, with
  the same points (and, in Dekjas, no face-down card under them);
- the last trick played out directly (every card is forced);
- exact values by null-window searches: a few MTD(f) steps from a guess (the previous
  card's value when valuing every card), then bisection.

The search is deterministic: the same position gives the same value and the same node
count. ``Solution.nodes`` counts the positions searched.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from analyzer.compiling import njit
from analyzer.rules.structure import team_scoring
from analyzer.rules.cards import (
    N_CARDS,
    PLAIN_HIGHER_LANE,
    PLAIN_ORDER,
    TRUMP_HIGHER_LANE,
    TRUMP_ORDER,
    LAST_TRICK_BONUS,
    card_points,
    lowest_card,
    mask_points,
    strength,
)
from analyzer.game.dealing import mix64
from analyzer.compiling import STRONG_LOCK, compile_first
from analyzer.layout import offsets
from analyzer.errors import BeloteError
from analyzer.rules import Rules
from analyzer.rules.scoring import CAPOT_POINTS, PIT_BONUS, pit_awards
from analyzer.rules.seats import seat_after, side_of_seat
from analyzer.game.state import (
    alive_mask,
    ST_BEST_I,
    ST_BEST_S,
    ST_DOWN,
    ST_GONE,
    ST_HANDS,
    ST_LEADER,
    ST_LED,
    ST_N_IN,
    ST_N_PLAYED,
    ST_POINTS,
    ST_TAKER,
    ST_TAKER_SIDE,
    ST_TO_MOVE,
    ST_TRICK_NO,
    ST_TRICKS,
    ST_TRUMP,
    ST_UNDER,
    is_over,
    legal_cards,
    play_card,
    side_card_points,
    undo_card,
)

OBJ_POINTS, OBJ_PIT = 0, 1
OBJECTIVES = {"points": OBJ_POINTS, "pit": OBJ_PIT}
INF = 1 << 20

# ranks of a suit from the weakest to the strongest card, as trump and as a plain suit
TRUMP_RANKS_UP = np.argsort(TRUMP_ORDER).astype(np.int64)  # 7 8 Q K 10 A 9 J
PLAIN_RANKS_UP = np.argsort(PLAIN_ORDER).astype(np.int64)  # 7 8 9 J Q K 10 A

MOVE_STRIDE = 16  # most cards a seat can have to choose from (Dekjas: 8 face up)
DEPTH = N_CARDS + 1  # one move list per card played

# ctx: the search's counters and settings, declared once (int64; ``analyzer.layout.offsets``)
CTX_FIELDS = (
    ("nodes", 1),  # nodes searched (calls of the search)
    ("gen", 1),  # generation of the transposition table: entries of older solves are ignored
    ("obj", 1),  # OBJ_POINTS or OBJ_PIT
    ("tt_mask", 1),  # table size - 1 (a power of two)
    ("passes", 1),  # null-window searches made
    ("mtd_steps", 1),  # MTD(f) steps from the guess before bisection
)
CTX_OFFSETS, C_SIZE = offsets(CTX_FIELDS)
C_NODES = CTX_OFFSETS["nodes"]
C_GEN = CTX_OFFSETS["gen"]
C_OBJ = CTX_OFFSETS["obj"]
C_TT_MASK = CTX_OFFSETS["tt_mask"]
C_PASSES = CTX_OFFSETS["passes"]
C_MTD_STEPS = CTX_OFFSETS["mtd_steps"]

DEFAULT_TT_BITS = 20  # 1M entries of 32 bytes

# a table entry: 4 int64 (one half cache line), at index * ENTRY
ENTRY_FIELDS = (
    ("ka", 1),  # the position's keys (``_keys``)
    ("kb", 1),
    ("lo", 1),  # lower bound, less the key's offset
    ("meta", 1),  # upper bound, best card and generation, packed below
)
ENTRY_OFFSETS, ENTRY = offsets(ENTRY_FIELDS)
E_KA = ENTRY_OFFSETS["ka"]
E_KB = ENTRY_OFFSETS["kb"]
E_LO = ENTRY_OFFSETS["lo"]
E_META = ENTRY_OFFSETS["meta"]
HI_BIAS = 2 * INF  # meta bits 0..21: upper bound + HI_BIAS (bounds are within +-INF)
HI_MASK = (1 << 22) - 1
META_MOVE = 22  # bits 22..27: best card + 1 (0: none)
META_GEN = 28  # bits 28..: the solve's generation


@njit(cache=True, forceinline=True)
def _paranoid(rec):
    """More than two sides (piekjas with 3 or 4 players): the others together against the troefmaker."""
    return rec.n_sides > 2


@njit(cache=True, forceinline=True)
def _on_taker_side(st, rec, seat):
    """Whether ``seat`` plays for the troefmaker's side."""
    return side_of_seat(seat, rec) == st[ST_TAKER_SIDE]


@njit(cache=True)
def final_value(st, rec, objective, bonus):
    """The objective at the end of the hand (see the module docstring); ``bonus`` is
    scratch (int64[4]) for the pit awards."""
    n_sides = rec.n_sides
    for s in range(4):
        bonus[s] = 0
    if objective == OBJ_PIT and not team_scoring(rec):
        pit_awards(n_sides, rec.n_tricks, st[ST_TRICKS: ST_TRICKS + 4], bonus)
    t = st[ST_TAKER_SIDE]
    own = side_card_points(st, rec, t) + bonus[t]
    if not _paranoid(rec):
        return own
    best_other = -INF
    for s in range(n_sides):
        if s != t:
            v = side_card_points(st, rec, s) + bonus[s]
            if v > best_other:
                best_other = v
    return own - best_other


@njit(cache=True, forceinline=True)
def _reduce(st, rec, legal):
    """One card of each class of equivalent legal cards (module docstring)."""
    trump = st[ST_TRUMP]
    alive = alive_mask(st)
    out = np.int64(0)
    legal = np.int64(legal)
    for suit in range(4):
        ln = (legal >> (8 * suit)) & 0xFF
        if (ln & (ln - 1)) == 0:
            out |= ln << (8 * suit)  # none or one card of the suit: nothing to merge
            continue
        prev_pts = -1
        for j in range(8):
            r = TRUMP_RANKS_UP[j] if suit == trump else PLAIN_RANKS_UP[j]
            c = 8 * suit + r
            if ((alive >> c) & 1) == 0:
                continue  # played in an earlier trick: does not separate
            if (legal >> c) & 1:
                if st[ST_UNDER + c] >= 0:
                    out |= np.int64(1) << c
                    prev_pts = -1  # a face-down card below: never equivalent
                    continue
                p = card_points(c, trump)
                if p != prev_pts:
                    out |= np.int64(1) << c
                prev_pts = p
            else:
                prev_pts = -1
    return out


@njit(cache=True, forceinline=True)
def _higher_mask(card, trump):
    suit = card >> 3
    r = card & 7
    if suit == trump:
        return np.int64(TRUMP_HIGHER_LANE[r]) << (8 * suit)
    return np.int64(PLAIN_HIGHER_LANE[r]) << (8 * suit)


@njit(cache=True, forceinline=True)
def _order_moves(st, rec, cands, moves, scores, base, tt_move):
    """Write the candidate cards into moves[base:], best first; returns their count."""
    trump = st[ST_TRUMP]
    seat = st[ST_TO_MOVE]
    k = st[ST_N_IN]
    n = rec.n_players
    mine_winning = False
    if k > 0:
        w = seat_after(st[ST_LEADER], st[ST_BEST_I], n)
        mine_winning = _on_taker_side(st, rec, w) == _on_taker_side(st, rec, seat)
    others = alive_mask(st) & ~(st[ST_HANDS + seat] | st[ST_DOWN + seat])
    m = 0
    c_mask = cands
    while c_mask:
        c = lowest_card(np.uint32(c_mask))
        c_mask &= ~(np.int64(1) << c)
        p = card_points(c, trump)
        if c == tt_move:
            sc = 1 << 40
        elif k == 0:
            master = (_higher_mask(c, trump) & others) == 0
            sc = p + (40 if master else 0) + (8 if (c >> 3) == trump else 0)
        else:
            s = strength(c, trump, st[ST_LED])
            wins = s > st[ST_BEST_S]
            if mine_winning:
                sc = 2 * p - (30 if wins else 0)
            elif wins:
                # beat an opponent: as the last to play with the richest card, else cheaply
                sc = 200 + p if k == n - 1 else 200 + p - s
            else:
                sc = -p
        # insertion sort, higher score first
        i = m
        while i > 0 and scores[base + i - 1] < sc:
            moves[base + i] = moves[base + i - 1]
            scores[base + i] = scores[base + i - 1]
            i -= 1
        moves[base + i] = c
        scores[base + i] = sc
        m += 1
    return m


@njit(cache=True, forceinline=True)
def _keys(st, rec, objective):
    """Transposition-table key of a position at a trick boundary, and the offset between
    the final value and the stored one (two-sided: the taker side's points so far)."""
    ka = st[ST_GONE] | (st[ST_LEADER] << 32)
    kb = np.int64(0)
    if _paranoid(rec):
        # the margin does not change when every side gains the same: key on each side's
        # points less the troefmaker's, and on who has a trick (pit)
        t = st[ST_TAKER]
        for s in range(rec.n_sides):
            kb |= (st[ST_POINTS + s] - st[ST_POINTS + t] + 256) << (9 * s)
            if st[ST_TRICKS + s] > 0:
                kb |= np.int64(1) << (36 + s)
        return ka, kb, np.int64(0)
    t = st[ST_TAKER_SIDE]
    if team_scoring(rec) or objective == OBJ_PIT:
        if st[ST_TRICKS + t] == st[ST_TRICK_NO]:
            ka |= np.int64(1) << 34  # the taker side has every trick so far (capot, pit)
    return ka, kb, st[ST_POINTS + t]


# one frame of the search stack per card played below the root, declared once (int64)
FRAME_FIELDS = (
    ("alpha", 1),  # the window, narrowed as the cards are tried
    ("beta", 1),
    ("a0", 1),  # the window the node was entered with (what its value bounds)
    ("b0", 1),
    ("best", 1),  # the best value so far
    ("best_card", 1),  # its card, -1
    ("i", 1),  # the next card of the move list to try
    ("m", 1),  # the move list's length
    ("max", 1),  # 1: the seat to move is on the taker's side (maximises)
    ("boundary", 1),  # 1: between tricks (the node reads and writes the table)
    ("idx", 1),  # its table index
    ("ka", 1),  # its keys and offset (``_keys``)
    ("kb", 1),
    ("off", 1),
    ("hit", 1),  # 1: the table held an entry of this position
    ("spare", 1),  # unused: a frame stays 16 int64 (as compiled)
)
FRAME_OFFSETS, FRAME = offsets(FRAME_FIELDS)
F_ALPHA = FRAME_OFFSETS["alpha"]
F_BETA = FRAME_OFFSETS["beta"]
F_A0 = FRAME_OFFSETS["a0"]
F_B0 = FRAME_OFFSETS["b0"]
F_BEST = FRAME_OFFSETS["best"]
F_BEST_CARD = FRAME_OFFSETS["best_card"]
F_I = FRAME_OFFSETS["i"]
F_M = FRAME_OFFSETS["m"]
F_MAX = FRAME_OFFSETS["max"]
F_BOUNDARY = FRAME_OFFSETS["boundary"]
F_IDX = FRAME_OFFSETS["idx"]
F_KA = FRAME_OFFSETS["ka"]
F_KB = FRAME_OFFSETS["kb"]
F_OFF = FRAME_OFFSETS["off"]
F_HIT = FRAME_OFFSETS["hit"]


@njit(cache=True, forceinline=True)
def _bounds(st, rec, objective):
    """The least and the most the value can still be. Two-sided: what the taker side
    has, and that plus every point still in play (252 while a capot is open). Paranoid:
    the margin if the others, or the troefmaker, won every point left (pit awards move
    each side by at most 100)."""
    t = st[ST_TAKER_SIDE]
    acc = st[ST_POINTS + t]
    alive = alive_mask(st)
    rest = mask_points(np.uint32(alive), st[ST_TRUMP]) + LAST_TRICK_BONUS
    if _paranoid(rec):
        best_other = np.int64(0)
        for s in range(rec.n_sides):
            if s != t and st[ST_POINTS + s] > best_other:
                best_other = st[ST_POINTS + s]
        lo = acc - best_other - rest
        hi = acc + rest - best_other
        if objective == OBJ_PIT:
            lo -= PIT_BONUS
            hi += PIT_BONUS
        return lo, hi
    hi = acc + rest
    if st[ST_TRICKS + t] == st[ST_TRICK_NO]:
        if team_scoring(rec):
            hi = CAPOT_POINTS
        elif objective == OBJ_PIT:
            hi += PIT_BONUS
    return acc, hi


@njit(cache=True, forceinline=True)
def _play_out(st, rec, objective, bonus):
    """The value of a position in the last trick (each seat holds its last card)."""
    played = 0
    while not is_over(st, rec):
        play_card(st, rec, lowest_card(np.uint32(st[ST_HANDS + st[ST_TO_MOVE]])))
        played += 1
    v = final_value(st, rec, objective, bonus)
    for _ in range(played):
        undo_card(st, rec)
    return v


@njit(cache=True)
def _search(st, rec, alpha, beta, ctx, tt, moves, scores, bonus, stk):
    """Fail-soft alpha-beta from ``st``: its value if inside (alpha, beta), else a bound on
    the far side of the window. Iterative (an explicit stack ``stk`` of frames), so the
    kernel can be cached; ``st`` is back as it was on return."""
    objective = ctx[C_OBJ]
    gen = ctx[C_GEN]
    d = 0
    stk[F_ALPHA] = alpha
    stk[F_BETA] = beta
    mode = 0  # 0: enter the node at depth d; 1: try its next card; 2: a value came back
    ret = np.int64(0)
    while True:
        f = d * FRAME
        if mode == 0:
            ctx[C_NODES] += 1
            a = stk[f + F_ALPHA]
            b = stk[f + F_BETA]
            if st[ST_TRICK_NO] >= rec.n_tricks - 1:
                # the last trick: every card left is forced, play it out and back
                ret = _play_out(st, rec, objective, bonus)
                mode = 2
            else:
                if st[ST_N_IN] == 0:
                    # points change only when a trick ends: inside one the bounds are the same
                    lo_b, hi_b = _bounds(st, rec, objective)
                    if lo_b >= b:
                        ret = lo_b
                        mode = 2
                    elif hi_b <= a:
                        ret = hi_b
                        mode = 2
            if mode == 0:
                boundary = st[ST_N_IN] == 0
                tt_move = -1
                hit = 0
                if boundary:
                    ka, kb, off = _keys(st, rec, objective)
                    idx = np.int64(mix64(np.uint64(ka) ^ mix64(np.uint64(kb))) & np.uint64(ctx[C_TT_MASK]))
                    stk[f + F_IDX] = idx
                    stk[f + F_KA] = ka
                    stk[f + F_KB] = kb
                    stk[f + F_OFF] = off
                    e = idx * ENTRY
                    meta = tt[e + E_META]
                    if (meta >> META_GEN) == gen and tt[e + E_KA] == ka and tt[e + E_KB] == kb:
                        hit = 1
                        lo = tt[e + E_LO] + off
                        hi = (meta & HI_MASK) - HI_BIAS + off
                        if lo >= b or lo == hi:
                            ret = lo
                            mode = 2
                        elif hi <= a:
                            ret = hi
                            mode = 2
                        else:
                            if lo > a:
                                a = lo
                            if hi < b:
                                b = hi
                            tt_move = ((meta >> META_MOVE) & 63) - 1
                if mode == 0:
                    base = st[ST_N_PLAYED] * MOVE_STRIDE
                    cands = _reduce(st, rec, legal_cards(st, rec))
                    m = _order_moves(st, rec, cands, moves, scores, base, tt_move)
                    maximizing = _on_taker_side(st, rec, st[ST_TO_MOVE])
                    stk[f + F_ALPHA] = a
                    stk[f + F_BETA] = b
                    stk[f + F_A0] = a
                    stk[f + F_B0] = b
                    stk[f + F_BEST] = -INF if maximizing else INF
                    stk[f + F_BEST_CARD] = -1
                    stk[f + F_I] = 0
                    stk[f + F_M] = m
                    stk[f + F_MAX] = 1 if maximizing else 0
                    stk[f + F_BOUNDARY] = 1 if boundary else 0
                    stk[f + F_HIT] = hit
                    mode = 1
        elif mode == 1:
            i = stk[f + F_I]
            if i < stk[f + F_M] and stk[f + F_ALPHA] < stk[f + F_BETA]:
                c = moves[st[ST_N_PLAYED] * MOVE_STRIDE + i]
                stk[f + F_I] = i + 1
                play_card(st, rec, c)
                g = f + FRAME
                stk[g + F_ALPHA] = stk[f + F_ALPHA]
                stk[g + F_BETA] = stk[f + F_BETA]
                d += 1
                mode = 0
            else:
                best = stk[f + F_BEST]
                if stk[f + F_BOUNDARY]:
                    idx = stk[f + F_IDX]
                    off = stk[f + F_OFF]
                    lo = -INF
                    hi = INF
                    e = idx * ENTRY
                    meta = tt[e + E_META]
                    if stk[f + F_HIT] and (meta >> META_GEN) == gen and tt[e + E_KA] == stk[f + F_KA] \
                            and tt[e + E_KB] == stk[f + F_KB]:
                        lo = tt[e + E_LO] + off
                        hi = (meta & HI_MASK) - HI_BIAS + off
                    if best <= stk[f + F_A0]:
                        hi = min(hi, best)
                    elif best >= stk[f + F_B0]:
                        lo = max(lo, best)
                    else:
                        lo = best
                        hi = best
                    tt[e + E_KA] = stk[f + F_KA]
                    tt[e + E_KB] = stk[f + F_KB]
                    tt[e + E_LO] = lo - off if lo > -INF else -INF
                    hi = hi - off if hi < INF else INF
                    tt[e + E_META] = (hi + HI_BIAS) | ((stk[f + F_BEST_CARD] + 1) << META_MOVE) | (gen << META_GEN)
                ret = best
                mode = 2
        else:
            # the value ``ret`` of depth d goes up to its parent
            if d == 0:
                return ret
            d -= 1
            f = d * FRAME
            undo_card(st, rec)
            c = moves[st[ST_N_PLAYED] * MOVE_STRIDE + stk[f + F_I] - 1]
            if stk[f + F_MAX]:
                if ret > stk[f + F_BEST]:
                    stk[f + F_BEST] = ret
                    stk[f + F_BEST_CARD] = c
                    if ret > stk[f + F_ALPHA]:
                        stk[f + F_ALPHA] = ret
            else:
                if ret < stk[f + F_BEST]:
                    stk[f + F_BEST] = ret
                    stk[f + F_BEST_CARD] = c
                    if ret < stk[f + F_BETA]:
                        stk[f + F_BETA] = ret
            mode = 1


@njit(cache=True)
def _exact(st, rec, guess, ctx, tt, moves, scores, bonus, stk):
    """The exact value by null-window searches (the table keeps every bound found on the
    way): a few MTD(f) steps from ``guess`` (cheap when the guess is right, as for a card
    worth what the previous one was), then bisection of what is left."""
    lo, hi = _bounds(st, rec, ctx[C_OBJ])
    g = min(max(guess, lo), hi)
    k = 0
    while lo < hi:
        if k < ctx[C_MTD_STEPS]:
            t = g + 1 if g == lo else g
        else:
            t = (lo + hi + 1) // 2
        t = max(lo + 1, min(t, hi))
        ctx[C_PASSES] += 1
        r = _search(st, rec, t - 1, t, ctx, tt, moves, scores, bonus, stk)
        if r >= t:
            lo = r
        else:
            hi = r
        g = r
        k += 1
    return lo


@njit(cache=True, nogil=True)  # nogil: the review solves a decision's worlds on every core, a Solver each
def solve_cards(st, rec, guess, ctx, tt, moves, scores, bonus, stk,
                out_cards, out_values):
    """The exact value of every legal card of the seat to move. Returns the number of
    legal cards written."""
    legal = np.int64(legal_cards(st, rec))
    n_out = 0
    g = guess
    for c in range(N_CARDS):
        if ((legal >> c) & 1) == 0:
            continue
        play_card(st, rec, c)
        g = _exact(st, rec, g, ctx, tt, moves, scores, bonus, stk)
        undo_card(st, rec)
        out_cards[n_out] = c
        out_values[n_out] = g
        n_out += 1
    return n_out


@njit(cache=True)
def solve_value(st, rec, guess, ctx, tt, moves, scores, bonus, stk):
    """The exact value of the position."""
    return _exact(st, rec, guess, ctx, tt, moves, scores, bonus, stk)


@njit  # not cached: numba cannot reload a self-recursive function from its cache (segfault)
def brute_force(st, rec, objective, bonus):
    """Plain minimax over every legal card, no pruning, no table: the check of the solver."""
    if is_over(st, rec):
        return final_value(st, rec, objective, bonus)
    legal = np.int64(legal_cards(st, rec))
    maximizing = _on_taker_side(st, rec, st[ST_TO_MOVE])
    best = -INF if maximizing else INF
    for c in range(N_CARDS):
        if (legal >> c) & 1:
            play_card(st, rec, c)
            v = brute_force(st, rec, objective, bonus)
            undo_card(st, rec)
            if (maximizing and v > best) or (not maximizing and v < best):
                best = v
    return best


# --- Python side ---------------------------------------------------------------------


@dataclass
class Solution:
    """What a solve found: the position's value, the nodes searched, the null-window
    searches made (MTD(f) passes) and each legal card's value (when asked)."""

    value: int
    nodes: int
    passes: int
    cards: dict[int, int] | None = None
    best_card: int = -1


class Solver:
    """A double-dummy solver for one rules set, holding its preallocated transposition
    table (``2**tt_bits`` entries) between solves."""

    def __init__(self, rules: Rules, objective: str = "points", tt_bits: int = DEFAULT_TT_BITS):
        if objective not in OBJECTIVES:
            raise BeloteError(f'unknown objective "{objective}": use {" or ".join(OBJECTIVES)}')
        self.rules = rules
        self.rec = rules.record()
        self.objective = objective
        size = 1 << tt_bits
        self._tt = np.zeros(size * ENTRY, np.int64)
        self._ctx = np.zeros(C_SIZE, np.int64)
        self._ctx[C_OBJ] = OBJECTIVES[objective]
        self._ctx[C_TT_MASK] = size - 1
        self._ctx[C_MTD_STEPS] = 3
        self._moves = np.zeros(DEPTH * MOVE_STRIDE, np.int64)
        self._scores = np.zeros(DEPTH * MOVE_STRIDE, np.int64)
        self._bonus = np.zeros(4, np.int64)
        self._stk = np.zeros(DEPTH * FRAME, np.int64)

    @property
    def paranoid(self) -> bool:
        return len(self.rules.sides) > 2  # three or four sides (Piekjas 3-4): each against all

    def _begin(self):
        self._ctx[C_GEN] += 1  # a new deal: the table's older entries no longer apply
        self._ctx[C_NODES] = 0
        self._ctx[C_PASSES] = 0

    def _guess(self, st) -> int:
        """MTD(f)'s first guess: half of what is in play (0 for the paranoid margin)."""
        return 0 if self.paranoid else 81

    def value(self, st: np.ndarray) -> Solution:
        """The exact value of position ``st`` (not changed)."""
        self._begin()
        work = st.copy()
        args = (work, self.rec, np.int64(self._guess(st)), self._ctx, self._tt, self._moves, self._scores, self._bonus,
                self._stk)
        compile_first(solve_value, args, STRONG_LOCK)  # the searching players' entry compiles it too
        v = solve_value(*args)
        return Solution(int(v), int(self._ctx[C_NODES]), int(self._ctx[C_PASSES]))

    def card_values(self, st: np.ndarray) -> Solution:
        """The value of every legal card of the seat to move, the best value, and the
        best card (the lowest-numbered card of that value, so the choice is deterministic)."""
        if is_over(st, self.rec):
            raise BeloteError("the hand is over: there is no card left to value")
        self._begin()
        work = st.copy()
        cards = np.zeros(N_CARDS, np.int64)
        values = np.zeros(N_CARDS, np.int64)
        args = (work, self.rec, np.int64(self._guess(st)), self._ctx, self._tt, self._moves, self._scores, self._bonus,
                self._stk, cards, values)
        compile_first(solve_cards, args, STRONG_LOCK)  # the searching players' entry compiles it too
        n = solve_cards(*args)
        vals = {int(c): int(v) for c, v in zip(cards[:n], values[:n])}
        pick = max if self.maximizes(st) else min
        best = pick(vals.values())
        best_card = min(c for c, v in vals.items() if v == best)
        return Solution(best, int(self._ctx[C_NODES]), int(self._ctx[C_PASSES]), vals, best_card)

    def maximizes(self, st: np.ndarray) -> bool:
        """Whether the seat to move is on the taker's side (it maximises the value)."""
        return self.rules.side_of(int(st[ST_TO_MOVE])) == int(st[ST_TAKER_SIDE])


def brute_force_value(st: np.ndarray, rules: Rules, objective: str = "points") -> int:
    """Plain minimax value of ``st`` (small positions only)."""
    return int(brute_force(st.copy(), rules.record(), OBJECTIVES[objective], np.zeros(4, np.int64)))


__all__ = ["Solver", "Solution", "brute_force_value", "final_value", "OBJECTIVES"]
