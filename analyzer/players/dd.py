"""The ``dd`` play policy: the seat to move plays a double-dummy best card.

Double dummy = every card visible, every side perfect (``analyzer.players.solver``): the
optimistic end of the bracket, and the only policy that reads every hand (by definition).
Its objective is the solver's: the taker side's card points (classic capot 252) in
classic; with the pit awards (``pit``) in Piekjas and Dekjas; Piekjas 3-4 the paranoid
margin. Among equally good cards the lowest-numbered one (as ``Solver.card_values``).

The transposition table is kept through one hand: every later decision of a hand is a
position of the same deal, whose bounds stay true, so decisions on the principal
variation are nearly free. A new deal (a different fingerprint of the start hands)
starts a new generation of the table.
"""

import numpy as np

from analyzer.compiling import njit
from analyzer.game.dealing import mix64
from analyzer.game.state import ST_DOWN, ST_HANDS, ST_N_PLAYED, ST_PLAYED, ST_TO_MOVE, ST_TRUMP, seat_of_play
from analyzer.players.solver import C_GEN, _on_taker_side, _paranoid, solve_cards


@njit(cache=True)
def dd_best(st, rec, sw):
    """A double-dummy best card of the seat to move of ``st`` (all cards read), with the
    solver arrays of workspace ``sw``; the table's generation is the caller's."""
    guess = 0 if _paranoid(rec) else 81
    n = solve_cards(st, rec, guess, sw.ctx, sw.tt, sw.moves, sw.scores, sw.bonus, sw.stk,
                    sw.cards, sw.values)
    maximizing = _on_taker_side(st, rec, st[ST_TO_MOVE])
    best = sw.cards[0]
    best_v = sw.values[0]
    for i in range(1, n):
        v = sw.values[i]
        if (maximizing and v > best_v) or (not maximizing and v < best_v):
            best_v = v
            best = sw.cards[i]
    return best


@njit(cache=True)
def deal_key(st, rec):
    """A 64-bit fingerprint of the deal of ``st``: each seat's cards at the first trick
    (held, face down, or played by it), and the trump."""
    n = rec.n_players
    start = np.zeros(4, np.int64)
    for s in range(n):
        start[s] = st[ST_HANDS + s] | st[ST_DOWN + s]
    for i in range(st[ST_N_PLAYED]):
        start[seat_of_play(st, rec, i)] |= np.int64(1) << st[ST_PLAYED + i]
    h = np.uint64(st[ST_TRUMP] + 1)
    for s in range(n):
        h = mix64(h ^ np.uint64(start[s]))
    return np.int64(h)


@njit(cache=True, inline="always")  # one layer less: see analyzer.players.strong_entry
def dd_card(st, rec, sw):
    """The ``dd`` policy's card: a new table generation when the deal changed."""
    key = deal_key(st, rec)
    if key != sw.fp[0]:
        sw.fp[0] = key
        sw.ctx[C_GEN] += 1
    return dd_best(st, rec, sw)
