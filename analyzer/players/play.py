"""Play policies: which legal card a seat plays.

A policy sees only what its seat may know (RULES.md §3, §4): its own playable cards,
every card already played (``gone_mask`` also holds the cards lying face up out of play:
the turned card or the exchanged 7, the fille), the trick so far, the trump and the
troefmaker. Hidden cards never reach it: they are not arguments. (In Dekjas the
opponent's face-up cards are visible too; the heuristic does not use them yet.)

Policies (codes are the registry's, ``analyzer.players.policies``):
- ``random`` (0): uniform over the legal cards.
- ``dd`` (2) and ``pimc`` (3): the strong policies, which need the game state; they are
  chosen through ``analyzer.players.strong.policy_card``, not here; so is ``net`` (4), the
  learned policy (``analyzer.players.net``).
- ``heuristic`` (1): rules of good play, in this order:
  leading: the troefmaker draws trumps while an opponent may hold one: with its best trump
  when that is master and it has the length (at least the unseen trumps over the other
  n - 1 seats, and not its last trump while two or more are unseen), with its lowest when
  the best is not master and it holds three or more; holding only trumps, its best if
  master, else its lowest. Then cash a master (a side card no unseen card of its suit
  beats, once no trump is out or when it is an ace); else lead the cheapest side card.
  following: when the partner wins the trick (classic) and is sure to keep it (it plays
  last or holds a master), load it with the richest card that is not a master (a master
  wins a trick of its own later), else the richest; otherwise win as cheaply as
  possible, with a master if one wins; when the trick cannot be won, throw the cheapest
  card (side suits before trumps, fewest points, lowest rank).
  ``heuristic:v=1`` is the earlier card play, kept so that duels can measure against it: its
  troefmaker draws trumps whenever an opponent might hold one, with its lowest trump when its
  best is not master, and it loads a partner with masters too.
"""

import numpy as np

from analyzer.compiling import njit, unsigned_index as _u
from analyzer.game.state import (
    ST_BEST_I,
    ST_GONE,
    ST_HANDS,
    ST_LEADER,
    ST_LED,
    ST_N_IN,
    ST_PLAYED,
    ST_TAKER,
    ST_TO_MOVE,
    ST_TRICK_NO,
    ST_TRUMP,
    legal_cards,
)
from analyzer.players.params import HEURISTIC_V, param
from analyzer.rules.structure import has_partners
from analyzer.rules.seats import seat_after, side_of
from analyzer.rules.cards import (
    ALL_CARDS_MASK,
    PLAIN_HIGHER_LANE,
    PLAIN_ORDER,
    PLAIN_POINTS,
    TRUMP_HIGHER_LANE,
    TRUMP_ORDER,
    TRUMP_POINTS,
    lowest_card,
    nth_card,
    popcount,
    strength,
    suit_mask,
)

RANDOM, HEURISTIC = 0, 1
# the strong policies, on the game state (analyzer.players.dd, analyzer.players.pimc): their
# codes carry parameters above the low byte (analyzer.players.policies.play_code)
DD, PIMC = 2, 3
# the learned policy (analyzer.players.net): it reads the state through the seat's view, so it is
# chosen where the strong ones are (analyzer.players.strong.policy_card)
NET = 4
FIRST_STATE_KIND = DD  # kinds from here on read the game state (the registry's rows with reads="state")
KIND_MASK = 0xFF  # the policy's kind is ``code & KIND_MASK``


@njit(cache=True, forceinline=True)
def _beaters(card, trump):
    """Mask of the cards of the same suit that beat ``card``."""
    s = card >> 3
    r = card & 7
    if s == trump:
        return np.uint32(TRUMP_HIGHER_LANE[r]) << np.uint32(8 * s)
    return np.uint32(PLAIN_HIGHER_LANE[r]) << np.uint32(8 * s)


@njit(cache=True, forceinline=True)
def _is_master(card, trump, unseen):
    """No unseen card of its suit beats it, and (for a side card) no unseen trump could
    ruff it unless it is an ace."""
    if _beaters(card, trump) & unseen:
        return False
    if (card >> 3) == trump:
        return True
    return (unseen & suit_mask(trump)) == 0 or (card & 7) == 7


# what _pick looks for; numpy scalars, not ints, as _pick's arguments: numba compiles a function anew for
# each literal int it is called with (six compiles of _pick), once for an int64
CHEAPEST, RICHEST, WEAKEST = np.int64(0), np.int64(1), np.int64(2)
NO_LED = np.int64(-1)  # _pick's suit led when none counts

# ---- lane tables: the helpers below look a whole suit up at once ---------------------------------
# Index ``role * 256 + lane``: role 1 reads the 8-bit lane as the trump suit, 0 as a plain suit.
# Within one suit no two cards tie on a key (the trick orders are strict), so "the lowest-numbered
# card of equal keys" is only ever a choice between suits, made by scanning suits upwards.
# tests/players/test_play_heuristic.py checks every helper against a card-by-card loop over all inputs.
_ROLE_POINTS = (PLAIN_POINTS, TRUMP_POINTS)
_ROLE_ORDER = (PLAIN_ORDER, TRUMP_ORDER)
_ROLE_HIGHER = (PLAIN_HIGHER_LANE, TRUMP_HIGHER_LANE)


def _lane_tables():
    # the cheap key of rank r in role (index role * 8 + r), lower = cheaper to give away: side
    # suits before trumps, then points, then strength in the trick (8 + trump order for a trump)
    key = np.zeros(16, np.int64)
    for role in (0, 1):
        for r in range(8):
            key[role * 8 + r] = role * 4096 + _ROLE_POINTS[role][r] * 32 + 8 * role + _ROLE_ORDER[role][r]
    cheapest, richest, weakest, richest_pts, masters = (np.zeros(512, np.int64) for _ in range(5))
    for role in (0, 1):
        for ln in range(256):
            ranks = [r for r in range(8) if ln >> r & 1]
            i = role * 256 + ln
            masters[i] = sum(1 << r for r in range(8) if not _ROLE_HIGHER[role][r] & ln)  # ln: the unseen
            if not ranks:
                cheapest[i] = richest[i] = weakest[i] = richest_pts[i] = -1
                continue
            cheapest[i] = min(ranks, key=lambda r: key[role * 8 + r])
            richest[i] = max(ranks, key=lambda r: key[role * 8 + r])
            weakest[i] = min(ranks, key=lambda r: _ROLE_ORDER[role][r])
            richest_pts[i] = max(ranks, key=lambda r: (_ROLE_POINTS[role][r], -r))  # ties: the lowest rank
    stronger = np.zeros(2 * 17, np.int64)  # index role * 17 + (s + 1): ranks of strength above s (-1..15)
    for s in range(-1, 16):
        for r in range(8):
            if 8 + TRUMP_ORDER[r] > s:
                stronger[17 + s + 1] |= 1 << r
            if PLAIN_ORDER[r] > s:
                stronger[s + 1] |= 1 << r
    return key, cheapest, richest, weakest, richest_pts, masters, stronger


# LANE_CHEAPEST / LANE_RICHEST: the rank of the lane's card of least / greatest cheap key;
# LANE_WEAKEST: of least trick order; LANE_RICHEST_POINTS: of most points (ties: the lowest rank);
# -1 for an empty lane. LANE_MASTERS[role * 256 + unseen]: the ranks no unseen card of the suit
# beats. LANE_STRONGER[role * 17 + s + 1]: the ranks of strength above s, role 1 as trumps
# (8 + trump order), role 0 as the suit led (its plain order).
(RANK_KEY, LANE_CHEAPEST, LANE_RICHEST, LANE_WEAKEST, LANE_RICHEST_POINTS, LANE_MASTERS,
 LANE_STRONGER) = _lane_tables()
ACE_BIT = 1 << 7  # rank A in a lane


@njit(cache=True, forceinline=True)
def _lane_of(mask, s):
    return np.int64((np.uint32(mask) >> np.uint32(8 * s)) & np.uint32(0xFF))


@njit(cache=True, forceinline=True)
def _pick(cards, trump, led, which):
    """One card of ``cards``: the CHEAPEST to give away or the RICHEST (by ``RANK_KEY``),
    or the WEAKEST in the trick (lowest strength: the cheapest way to win); of equal keys,
    the lowest-numbered card."""
    best_card = -1
    best = 0
    for s in range(4):
        ln = _lane_of(cards, s)
        if ln == 0:
            continue
        role = 1 if s == trump else 0
        if which == WEAKEST:
            if role == 1:
                r = LANE_WEAKEST[256 + ln]
                k = 8 + TRUMP_ORDER[_u(r)]
            elif s == led:
                r = LANE_WEAKEST[ln]
                k = PLAIN_ORDER[_u(r)]
            else:
                r = lowest_card(np.uint32(ln))
                k = -1
        elif which == RICHEST:
            r = LANE_RICHEST[role * 256 + ln]
            k = -RANK_KEY[_u(role * 8 + r)]
        else:
            r = LANE_CHEAPEST[role * 256 + ln]
            k = RANK_KEY[_u(role * 8 + r)]
        if best_card < 0 or k < best:
            best = k
            best_card = 8 * s + r
    return best_card


@njit(cache=True, forceinline=True)
def _masters(cards, trump, unseen):
    """The cards of ``cards`` that are masters (``_is_master``)."""
    out = np.uint32(0)
    trumps_out = (np.uint32(unseen) & suit_mask(trump)) != 0
    for s in range(4):
        ln = _lane_of(cards, s)
        if ln == 0:
            continue
        role = 1 if s == trump else 0
        m = ln & LANE_MASTERS[role * 256 + _lane_of(unseen, s)]
        if role == 0 and trumps_out:
            m &= ACE_BIT
        out |= np.uint32(m) << np.uint32(8 * s)
    return out


@njit(cache=True, forceinline=True)
def _winners(cards, trump, led, win_s):
    """The cards of ``cards`` that beat a trick won so far at strength ``win_s``: trumps and
    cards of the suit led (any other card has strength -1)."""
    out = np.uint32(_lane_of(cards, trump) & LANE_STRONGER[_u(17 + win_s + 1)]) << np.uint32(8 * trump)
    if led >= 0 and led != trump:
        out |= np.uint32(_lane_of(cards, led) & LANE_STRONGER[_u(win_s + 1)]) << np.uint32(8 * led)
    return out


@njit(cache=True, forceinline=True)
def _richest_master(cards, trump, unseen):
    """The master of ``cards`` with the most points (the lowest-numbered of equal points),
    -1 if none is a master."""
    masters = _masters(cards, trump, unseen)
    best_master = -1
    best_pts = -1
    for s in range(4):
        ln = _lane_of(masters, s)
        if ln == 0:
            continue
        role = 1 if s == trump else 0
        r = LANE_RICHEST_POINTS[role * 256 + ln]
        p = TRUMP_POINTS[_u(r)] if role == 1 else PLAIN_POINTS[_u(r)]
        if p > best_pts:
            best_pts = p
            best_master = 8 * s + r
    return best_master


@njit(cache=True, forceinline=True)
def _lead_side(legal, side, trump, unseen):
    """Leading without drawing trumps: the richest master side card, else the cheapest
    side card (``side``: the legal side cards), else the cheapest card."""
    best_master = _richest_master(side, trump, unseen)
    if best_master >= 0:
        return best_master
    if side:
        return _pick(np.uint64(side), trump, NO_LED, CHEAPEST)
    return _pick(np.uint64(legal), trump, NO_LED, CHEAPEST)


@njit(cache=True, forceinline=True)
def _follow(legal, seat, led, win_card, win_seat, n_in_trick, trump, partners, n_players, unseen,
            keep_masters):
    """Following, the trick won so far by ``win_card`` of ``win_seat`` (module docstring).
    ``keep_masters``: load the partner with a card that is not a master when it can (version 2)."""
    trump_mask = suit_mask(trump)
    win_s = strength(win_card, trump, led)
    last = n_in_trick == n_players - 1
    if partners and side_of(win_seat, partners) == side_of(seat, partners):
        if last or _is_master(win_card, trump, unseen):
            load = legal & ~trump_mask if legal & ~trump_mask else legal
            if keep_masters and load & ~_masters(load, trump, unseen):
                load &= ~_masters(load, trump, unseen)  # a master wins a trick of its own later
            return _pick(np.uint64(load), trump, led, RICHEST)
        return _pick(np.uint64(legal), trump, led, CHEAPEST)
    winners = _winners(legal, trump, led, win_s)
    if winners:
        if not last:
            masters = _masters(winners, trump, unseen)
            if masters:
                return _pick(np.uint64(masters), trump, led, WEAKEST)
        return _pick(np.uint64(winners), trump, led, WEAKEST)
    return _pick(np.uint64(legal), trump, led, CHEAPEST)


@njit(cache=True, forceinline=True)
def _heuristic(legal, seat, my_mask, gone_mask, led, win_card, win_seat, n_in_trick,
               trump, taker, partners, n_players, v1):
    """The heuristic (``heuristic``, version 2; the module docstring), or with ``v1`` the earlier card
    play (``heuristic:v=1``, kept to duel against). The two differ in when the troefmaker leads trumps
    and in which card loads a partner. One function for both, compiled once."""
    unseen = np.uint32(ALL_CARDS_MASK) & ~(np.uint32(my_mask) | np.uint32(gone_mask))
    trump_mask = suit_mask(trump)
    if n_in_trick == 0:
        my_trumps = legal & trump_mask
        side = legal & ~trump_mask
        n_unseen = popcount(unseen & trump_mask)
        if seat == taker and my_trumps and n_unseen:
            best = _pick(np.uint64(my_trumps), trump, NO_LED, RICHEST)
            master = _is_master(best, trump, unseen)
            if v1:  # version 1 draws with its master trump, else leads its cheapest trump
                return best if master else _pick(np.uint64(my_trumps), trump, NO_LED, CHEAPEST)
            # the troefmaker draws trumps while an opponent may hold one; with side cards to lead
            # it draws with its master trump only with the length (at least the unseen trumps over
            # the other n - 1 seats) and not with its last trump while two or more are unseen, and
            # without the master it leads its lowest trump only with three or more (to drive the
            # master out), else a side card
            n_mine = popcount(my_trumps)
            if not side:
                return best if master else _pick(np.uint64(my_trumps), trump, NO_LED, CHEAPEST)
            if master and n_mine * (n_players - 1) >= n_unseen and not (n_mine == 1 and n_unseen > 1):
                return best
            if not master and n_mine >= 3:
                return _pick(np.uint64(my_trumps), trump, NO_LED, CHEAPEST)
        return _lead_side(legal, side, trump, unseen)
    return _follow(legal, seat, led, win_card, win_seat, n_in_trick, trump, partners, n_players, unseen, not v1)


@njit(cache=True, forceinline=True)
def choose_card(policy, legal, seat, my_mask, gone_mask, led, win_card, win_seat,
                n_in_trick, trump, taker, partners, n_players, u):
    """The card ``seat`` plays from the non-empty ``legal`` mask.

    The trick so far is summed up by the suit led, the card winning it and that card's
    seat (``led`` -1 when leading). ``u`` is a fresh 64-bit random number (random
    policies use it; the others ignore it). Everything is a scalar: no array reaches a
    policy, which keeps the hot loop free of reference counting.
    """
    if policy == RANDOM:
        k = np.int64(((u >> np.uint64(32)) * np.uint64(popcount(legal))) >> np.uint64(32))
        return nth_card(legal, k)
    # one type for every caller (numba widens some uint32 arithmetic to uint64, and compiles a
    # function once per argument types): each heuristic compiles once (tests/runs/test_driver.py)
    legal = np.uint64(legal)
    my_mask = np.uint32(my_mask)
    gone_mask = np.uint32(gone_mask)
    return _heuristic(legal, seat, my_mask, gone_mask, led, win_card, win_seat, n_in_trick,
                      trump, taker, partners, n_players, param(policy, HEURISTIC_V) == 1)


@njit(cache=True, forceinline=True)
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
        win_seat = seat_after(st[ST_LEADER], bi, n)
    return choose_card(code, legal_cards(st, rec), seat, np.uint32(st[ST_HANDS + seat]),
                       np.uint32(st[ST_GONE] | seen_out), led, win_card, win_seat, k, st[ST_TRUMP],
                       st[ST_TAKER], has_partners(rec), n, np.uint64(0))
