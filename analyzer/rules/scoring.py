"""Scoring one hand (RULES.md §6) and the rounding and reserve that go with it.

All arrays are per *side* (classic: two teams; otherwise one side per seat).
"""

import numpy as np

from analyzer.compiling import njit

MADE, DEDANS, TIE = 0, 1, 2
OUTCOME_NAMES = ("made", "dedans", "tie")

CAPOT_POINTS = 252  # classic: all 8 tricks are worth 252 instead of 162
DEDANS_POINTS = 162  # classic: what the defenders get when the takers fail
PIT_BONUS = 100  # piekjas/dekjas: all tricks, or each trickless player's worth

# A hand scored outside a game: ``reserve_before`` and ``use_totals`` as kernels pass them. Typed
# values, not the constants ``0`` and ``False``: numba compiles a called function once per argument
# types, and a constant has a type of its own (``Literal[int](0)``), so a kernel passing ``0`` where
# another passes a variable would compile the scoring (or the whole hand that passes them on) twice.
NO_RESERVE = np.int64(0)  # no points carried over from a passed-out classic hand
NO_TOTALS = np.bool_(False)  # no game totals: the trickless roem rule of §7 games is not applied


@njit(cache=True)
def round_to_ten(x):
    """Nearest ten, halves up (84 -> 80, 85 -> 90); scores are never negative."""
    return (x + 5) // 10 * 10


# compiled once and called, not inlined: see analyzer.runs.hand.run_bidding
@njit(cache=True, _nrt=False)
def score_classic(taker, n_tricks, card_pts, tricks, decl_pts, roem_side, stuk_pts,
                  reserve_before, tie_made, out_card, out_raw, out_scores):
    """§6 classic. Returns (outcome, reserve_after). Writes card points (after capot),
    raw totals and the hand's scores per team."""
    defenders = 1 - taker
    for s in range(2):
        out_card[s] = CAPOT_POINTS if tricks[s] == n_tricks else card_pts[s]
    roem = 0
    if roem_side >= 0:
        roem = decl_pts[roem_side]
    for s in range(2):
        out_raw[s] = out_card[s] + stuk_pts[s] + (roem if s == roem_side else 0)
    t = out_raw[taker]
    d = out_raw[defenders]
    if t > d or (t == d and tie_made):
        # made: each team its raw total; the takers win the hand (and any reserve)
        out_scores[taker] = t + reserve_before
        out_scores[defenders] = d
        return MADE, 0
    if t < d:
        # dedans: defenders 162 (252 if capot) + every scoring declaration + their stuk;
        # the takers keep only their stuk (belote stays with the team that held it)
        base = CAPOT_POINTS if tricks[defenders] == n_tricks else DEDANS_POINTS
        out_scores[defenders] = base + roem + stuk_pts[defenders] + reserve_before
        out_scores[taker] = stuk_pts[taker]
        return DEDANS, 0
    # litige: the defenders score their raw total, the takers' waits in the reserve
    out_scores[defenders] = d
    out_scores[taker] = 0
    return TIE, reserve_before + t


@njit(cache=True, forceinline=True)
def pit_awards(n_sides, n_tricks, tricks, out_bonus):
    """§6 pit (kapot): 100 to a side that won every trick; otherwise each trickless side
    is worth 100 shared by the sides that won a trick, each share rounded down."""
    for s in range(n_sides):
        out_bonus[s] = 0
    winners = 0
    trickless = 0
    for s in range(n_sides):
        if tricks[s] == n_tricks:
            out_bonus[s] = PIT_BONUS
            return
        if tricks[s] > 0:
            winners += 1
        else:
            trickless += 1
    if trickless == 0:
        return
    share = (PIT_BONUS // winners) * trickless
    for s in range(n_sides):
        if tricks[s] > 0:
            out_bonus[s] = share


# compiled once and called, not inlined: see analyzer.runs.hand.run_bidding
@njit(cache=True, _nrt=False)
def score_solo(taker, n_sides, n_tricks, card_pts, tricks, decl_pts, roem_side, stuk_pts,
               reserve_before, totals_before, target, use_totals, trickless_target,
               bonus, award, out_card, out_raw, out_scores):
    """§6 piekjas and dekjas. Returns (outcome, reserve_after).

    ``bonus`` and ``award`` are scratch arrays of n_sides. ``totals_before`` (game
    totals, per side of this hand) is only read when ``use_totals``: then a trickless
    non-troefmaker's roem and stuk are dropped by the rule of ``_trickless_roem``
    (``trickless_target``: 1 = revision 1's reading, option trickless_roem=target).
    """
    for s in range(n_sides):
        out_card[s] = card_pts[s]
        out_raw[s] = card_pts[s] + stuk_pts[s] + (decl_pts[s] if s == roem_side else 0)
    pit_awards(n_sides, n_tricks, tricks, bonus)
    t = out_raw[taker]
    m = -1
    for s in range(n_sides):
        if s != taker and out_raw[s] > m:
            m = out_raw[s]
    for s in range(n_sides):
        award[s] = out_raw[s] + bonus[s]
    reserve_after = reserve_before
    winner = -1
    if t > m:
        outcome = MADE
        winner = taker
    else:
        # the troefmaker's total, with its pit share, goes to the receiver or the reserve
        given = award[taker]
        award[taker] = 0
        receivers = 0
        receiver = -1
        for s in range(n_sides):
            if s != taker and out_raw[s] == m:
                receivers += 1
                receiver = s
        if t < m and receivers == 1:
            outcome = DEDANS
            award[receiver] += given
            winner = receiver
        else:
            outcome = DEDANS if t < m else TIE
            reserve_after += given
    if winner >= 0:
        award[winner] += reserve_before
        reserve_after = 0
    for s in range(n_sides):
        out_scores[s] = round_to_ten(award[s])
    if use_totals:
        _trickless_roem(taker, n_sides, tricks, decl_pts, roem_side, stuk_pts, totals_before,
                        target, trickless_target, award, out_scores)
    return outcome, reserve_after


@njit(cache=True, forceinline=True)
def game_winner(totals, n_sides, target):
    """§7, the end of a game: the side whose total is at or over the target and higher than
    every other's, or -1 (no side there yet, or an exact tie at the top: play on)."""
    top = -1
    n_top = 0
    who = -1
    for s in range(n_sides):
        if totals[s] > top:
            top = totals[s]
            n_top = 1
            who = s
        elif totals[s] == top:
            n_top += 1
    if top >= target and n_top == 1:
        return who
    return -1


@njit(cache=True, forceinline=True)
def wins_game(s, score_s, n_sides, totals_before, scores, target):
    """§7: with ``score_s`` for side ``s`` (and ``scores`` for the others) this hand, side
    ``s`` wins the game: its total is at or over the target and higher than every other
    (an exact tie at the top plays on)."""
    mine = totals_before[s] + score_s
    if mine < target:
        return False
    for o in range(n_sides):
        if o != s and totals_before[o] + scores[o] >= mine:
            return False
    return True


@njit(cache=True, forceinline=True)
def _trickless_roem(taker, n_sides, tricks, decl_pts, roem_side, stuk_pts, totals_before,
                    target, trickless_target, award, out_scores):
    """§6, last rule: a trickless non-troefmaker's declarations and stuk are dropped when
    they are what makes it win the game (``trickless_roem=wins``: with them it wins at the
    end of this hand, without them it would not), or (``target``, revision 1) whenever its
    total with them reaches the target. Under ``wins`` each drop can let another
    trickless player win, so the check repeats, in seat order, until nothing changes."""
    dropped = 0  # bit s: side s's roem and stuk are dropped
    changed = True
    while changed:
        changed = False
        for s in range(n_sides):
            if s == taker or tricks[s] != 0 or (dropped >> s) & 1:
                continue
            own = stuk_pts[s] + (decl_pts[s] if s == roem_side else 0)
            if own == 0:
                continue
            without = round_to_ten(award[s] - own)
            if trickless_target:
                drop = totals_before[s] + out_scores[s] >= target
            else:
                drop = (wins_game(s, out_scores[s], n_sides, totals_before, out_scores, target)
                        and not wins_game(s, without, n_sides, totals_before, out_scores, target))
            if drop:
                award[s] -= own
                out_scores[s] = without
                dropped |= 1 << s
                changed = not trickless_target
