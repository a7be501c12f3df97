"""The ``pimc`` play policy: perfect-information Monte Carlo on the seat's worlds.

At each decision with more than one legal card the seat samples ``worlds`` deals of the
cards it cannot see, uniformly among those consistent with what it knows
(``analyzer.players.knowledge``), values every legal card on every world, and plays the
card of the best mean value.

Evaluator
---------
A card is valued by playing it in the world and playing the hand out: every seat plays
the heuristic (``analyzer.players.play.choose_card``, on the world's state) while more
than ``exact`` tricks are left, then a double-dummy best card (``analyzer.players.dd.dd_best``,
the solver with its table kept through the world) to the end. Piekjas 3-4 is not
two-sided, so there the play-out is the heuristic's to the end (``exact`` is not used).

Value
-----
What the hand is worth to the seat's side at the end of the play-out: its hand score
minus the best score among the other sides (RULES.md §6, with the declarations
announced at the first trick; made/dedans, litige, classic capot 252 and Piekjas/Dekjas
pit included; stuk, reserve and game totals left out), times ``SCORE_WEIGHT``, plus its
card-point margin (capot included), which breaks ties of equal scores (Piekjas scores
are rounded to tens). The heuristic's own card wins ties of the mean value, then the
lowest-numbered card: the choice is a pure function of the view and the random number.

Parameters (packed into the policy code by ``analyzer.players.policies``, with their
named defaults there): ``worlds`` (1..255, default 32) and ``exact`` (0..16 tricks,
default 0: measured as strong as 2 at a fifth of the cost, docs/BENCHMARKS.md).
"""

import numpy as np
from numba import njit

from analyzer.game.state import (
    ST_BEST_I,
    ST_GONE,
    ST_HANDS,
    ST_LEADER,
    ST_LED,
    ST_N_IN,
    ST_PLAYED,
    ST_POINTS,
    ST_TAKER,
    ST_TAKER_SIDE,
    ST_TO_MOVE,
    ST_TRICK_NO,
    ST_TRICKS,
    ST_TRUMP,
    legal_cards,
    play_card,
    side_of_seat,
    undo_card,
)
from analyzer.players.dd import dd_best
from analyzer.players.knowledge import PUB_DECL, PUB_ROEM_SIDE, PUB_SEEN_OUT, mask_cards, observe, prepare, sample_world
from analyzer.players.play import HEURISTIC, choose_card
from analyzer.players.solver import C_GEN, _paranoid
from analyzer.rules import CLASSIC
from analyzer.rules.cards import lowest_card, popcount
from analyzer.rules.scoring import score_classic, score_solo

SCORE_WEIGHT = 4  # one point of hand score is worth four card points of margin

# rows of the workspace's scoring scratch ``sc`` (int64[N_SC, 4])
SC_CARD, SC_TRICKS, SC_DECL, SC_STUK, SC_TOTALS, SC_BONUS, SC_AWARD, SC_OUT_CARD, SC_OUT_RAW, SC_OUT_SCORES = range(10)
N_SC = 10


@njit(cache=True, inline="always")
def heuristic_on_state(st, rec, seen_out, code):
    """The heuristic's card for the seat to move of ``st`` (it reads that seat's cards,
    the cards gone and ``seen_out``, the cards face up out of play); ``code`` the policy's
    code with its parameters (``heuristic:v=1``: the earlier card play)."""
    n = rec.n_players
    seat = st[ST_TO_MOVE]
    k = st[ST_N_IN]
    led = -1
    win_card = -1
    win_seat = -1
    if k > 0:
        led = st[ST_LED]
        bi = st[ST_BEST_I]
        win_card = st[ST_PLAYED + st[ST_TRICK_NO] * n + bi]
        win_seat = st[ST_LEADER] + bi
        if win_seat >= n:
            win_seat -= n
    return choose_card(code, legal_cards(st, rec), seat, np.uint32(st[ST_HANDS + seat]),
                       np.uint32(st[ST_GONE] | seen_out), led, win_card, win_seat, k, st[ST_TRUMP],
                       st[ST_TAKER], rec.variant == CLASSIC, n, np.uint64(0))


@njit(cache=True)
def hand_value(st, rec, pub, sc, side):
    """The value to ``side`` of the finished hand ``st`` (module docstring)."""
    n_sides = rec.n_sides
    for s in range(4):
        sc[SC_CARD, s] = st[ST_POINTS + s]
        sc[SC_TRICKS, s] = st[ST_TRICKS + s]
        sc[SC_DECL, s] = pub[PUB_DECL + s]
        sc[SC_STUK, s] = 0
        sc[SC_TOTALS, s] = 0
    if rec.variant == CLASSIC:
        score_classic(st[ST_TAKER_SIDE], rec.n_tricks, sc[SC_CARD], sc[SC_TRICKS], sc[SC_DECL],
                      pub[PUB_ROEM_SIDE], sc[SC_STUK], 0, rec.classic_tie_made,
                      sc[SC_OUT_CARD], sc[SC_OUT_RAW], sc[SC_OUT_SCORES])
    else:
        score_solo(st[ST_TAKER_SIDE], n_sides, rec.n_tricks, sc[SC_CARD], sc[SC_TRICKS], sc[SC_DECL],
                   pub[PUB_ROEM_SIDE], sc[SC_STUK], 0, sc[SC_TOTALS], rec.target, 0, rec.trickless_target,
                   sc[SC_BONUS], sc[SC_AWARD], sc[SC_OUT_CARD], sc[SC_OUT_RAW], sc[SC_OUT_SCORES])
    other_score = -(1 << 30)
    other_card = -(1 << 30)
    for s in range(n_sides):
        if s != side:
            other_score = max(other_score, sc[SC_OUT_SCORES, s])
            other_card = max(other_card, sc[SC_OUT_CARD, s])
    return SCORE_WEIGHT * (sc[SC_OUT_SCORES, side] - other_score) + sc[SC_OUT_CARD, side] - other_card


@njit(cache=True)
def play_out(w, rec, pub, sw, exact, side):
    """The value to ``side`` of world ``w`` played to the end by the evaluator (module
    docstring); ``w`` is back as it was on return."""
    played = 0
    seen = pub[PUB_SEEN_OUT]
    while w[ST_TRICK_NO] < rec.n_tricks:
        legal = legal_cards(w, rec)
        if popcount(legal) == 1:
            c = lowest_card(legal)
        elif rec.n_tricks - w[ST_TRICK_NO] <= exact:
            c = dd_best(w, rec, sw)
        else:
            c = heuristic_on_state(w, rec, seen, HEURISTIC)
        play_card(w, rec, c)
        played += 1
    v = hand_value(w, rec, pub, sw.sc, side)
    for _ in range(played):
        undo_card(w, rec)
    return v


@njit(cache=True)
def pimc_card(st, rec, pub, sw, code, u):
    """The ``pimc`` policy's card for the seat to move of ``st``. Reads ``st`` only
    through ``observe`` (what the seat knows), ``pub``, and the 64-bit random number
    ``u``; ``code`` carries the parameters."""
    seat = st[ST_TO_MOVE]
    view = sw.pov
    observe(st, rec, pub, seat, view)
    # ---- from here on: the view, never st ----
    legal = np.int64(legal_cards(view, rec))
    fallback = heuristic_on_state(view, rec, pub[PUB_SEEN_OUT], HEURISTIC)
    if popcount(np.uint32(legal)) == 1:
        return fallback
    worlds = (code >> 8) & 0xFF
    exact = (code >> 16) & 0xFF
    if _paranoid(rec):
        exact = 0
    sw.rng[0] = u
    if prepare(view, rec, pub, seat, sw) <= 0.0:
        return fallback  # no deal fits what the seat saw (a position not reached by play)
    n_cards = mask_cards(legal, sw.lcards)
    for j in range(n_cards):
        sw.sums[j] = 0
    side = side_of_seat(seat, rec)
    world = sw.world
    for _ in range(worlds):
        sample_world(view, rec, sw, world)
        sw.ctx[C_GEN] += 1  # a new deal for the solver's table
        for j in range(n_cards):
            play_card(world, rec, sw.lcards[j])
            sw.sums[j] += play_out(world, rec, pub, sw, exact, side)
            undo_card(world, rec)
    best = -1
    best_sum = 0
    for j in range(n_cards):
        s = sw.sums[j]
        if best < 0 or s > best_sum or (s == best_sum and sw.lcards[j] == fallback):
            best = sw.lcards[j]
            best_sum = s
    return best
