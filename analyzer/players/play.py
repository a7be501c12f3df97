"""Play policies: which legal card a seat plays.

A policy sees only what its seat may know (RULES.md §3, §4): its own playable cards,
every card already played (``gone_mask`` also holds the cards lying face up out of play:
the turned card or the exchanged 7, the fille), the trick so far, the trump and the
troefmaker. Hidden cards never reach it: they are not arguments. (In Dekjas the
opponent's face-up cards are visible too; the heuristic does not use them yet.)

Policies (codes are the registry's, ``analyzer.players.policies``):
- ``random`` (0): uniform over the legal cards.
- ``dd`` (2) and ``pimc`` (3): the strong policies, which need the game state; they are
  chosen through ``analyzer.players.strong.policy_card``, not here.
- ``heuristic`` (1): rules of good play, in this order:
  leading: the troefmaker draws trumps while an opponent may hold one (its best trump if
  that is master, else its lowest); then cash a master (a side card no unseen card of its
  suit beats, once no trump is out or when it is an ace); else lead the cheapest side card.
  following: when the partner wins the trick (classic) and is sure to keep it (it plays
  last or holds a master), load it with the richest card; otherwise win as cheaply as
  possible, with a master if one wins; when the trick cannot be won, throw the cheapest
  card (side suits before trumps, fewest points, lowest rank).
"""

import numpy as np
from numba import njit

from analyzer.rules.cards import (
    ALL_CARDS_MASK,
    PLAIN_HIGHER_LANE,
    TRUMP_HIGHER_LANE,
    card_points,
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
KIND_MASK = 0xFF  # the policy's kind is ``code & KIND_MASK``


@njit(cache=True, inline="always")
def _beaters(card, trump):
    """Mask of the cards of the same suit that beat ``card``."""
    s = card >> 3
    r = card & 7
    if s == trump:
        return np.uint32(TRUMP_HIGHER_LANE[r]) << np.uint32(8 * s)
    return np.uint32(PLAIN_HIGHER_LANE[r]) << np.uint32(8 * s)


@njit(cache=True, inline="always")
def _is_master(card, trump, unseen):
    """No unseen card of its suit beats it, and (for a side card) no unseen trump could
    ruff it unless it is an ace."""
    if _beaters(card, trump) & unseen:
        return False
    if (card >> 3) == trump:
        return True
    return (unseen & suit_mask(trump)) == 0 or (card & 7) == 7


@njit(cache=True, inline="always")
def _cheap_key(card, trump):
    """Lower = cheaper to give away: side suits before trumps, then points, then rank."""
    is_trump = 1 if (card >> 3) == trump else 0
    return is_trump * 4096 + card_points(card, trump) * 32 + strength(card, trump, card >> 3)


CHEAPEST, RICHEST, WEAKEST = 0, 1, 2  # what _pick looks for


@njit(cache=True)
def _pick(cards, trump, led, which):
    """One card of ``cards``: the CHEAPEST to give away or the RICHEST (by _cheap_key),
    or the WEAKEST in the trick (lowest strength: the cheapest way to win)."""
    m = np.uint32(cards)
    best_card = -1
    best = 0
    while m:
        c = lowest_card(m)
        m &= m - np.uint32(1)
        if which == WEAKEST:
            k = strength(c, trump, led)
        elif which == RICHEST:
            k = -_cheap_key(c, trump)
        else:
            k = _cheap_key(c, trump)
        if best_card < 0 or k < best:
            best = k
            best_card = c
    return best_card


@njit(cache=True)
def _heuristic(legal, seat, my_mask, gone_mask, led, win_card, win_seat, n_in_trick,
               trump, taker, partners, n_players):
    unseen = np.uint32(ALL_CARDS_MASK) & ~(np.uint32(my_mask) | np.uint32(gone_mask))
    trump_mask = suit_mask(trump)
    if n_in_trick == 0:
        my_trumps = legal & trump_mask
        if seat == taker and my_trumps and (unseen & trump_mask):
            best = _pick(my_trumps, trump, -1, RICHEST)
            if _is_master(best, trump, unseen):
                return best
            return _pick(my_trumps, trump, -1, CHEAPEST)
        side = legal & ~trump_mask
        m = side
        best_master = -1
        best_pts = -1
        while m:
            c = lowest_card(m)
            m &= m - np.uint32(1)
            if _is_master(c, trump, unseen):
                p = card_points(c, trump)
                if p > best_pts:
                    best_pts = p
                    best_master = c
        if best_master >= 0:
            return best_master
        if side:
            return _pick(side, trump, -1, CHEAPEST)
        return _pick(legal, trump, led, CHEAPEST)
    # following: the trick is won so far by win_card of win_seat
    win_s = strength(win_card, trump, led)
    last = n_in_trick == n_players - 1
    if partners and (win_seat & 1) == (seat & 1):
        if last or _is_master(win_card, trump, unseen):
            return _pick(legal & ~trump_mask if legal & ~trump_mask else legal, trump, led, RICHEST)
        return _pick(legal, trump, led, CHEAPEST)
    # cards of ours that would take the trick now
    winners = np.uint32(0)
    m = np.uint32(legal)
    while m:
        c = lowest_card(m)
        m &= m - np.uint32(1)
        if strength(c, trump, led) > win_s:
            winners |= np.uint32(1) << np.uint32(c)
    if winners:
        if not last:
            masters = np.uint32(0)
            m = winners
            while m:
                c = lowest_card(m)
                m &= m - np.uint32(1)
                if _is_master(c, trump, unseen):
                    masters |= np.uint32(1) << np.uint32(c)
            if masters:
                return _pick(masters, trump, led, WEAKEST)
        return _pick(winners, trump, led, WEAKEST)
    return _pick(legal, trump, led, CHEAPEST)


@njit(cache=True, inline="always")
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
    return _heuristic(legal, seat, my_mask, gone_mask, led, win_card, win_seat, n_in_trick,
                      trump, taker, partners, n_players)
