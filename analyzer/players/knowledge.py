"""What a seat knows (RULES.md §3, §4), and deals of the cards it cannot see ("worlds").

A game state (``analyzer.game.state``) holds every hand. A strong policy must never read
the cards its seat cannot see, so it starts with ``observe``: a copy of the state with
everything hidden from the seat taken out (the *view*), and from then on reads only the
view, the public-information array below and its own workspace.

What a seat sees, by variant:

- its own cards; every card played, by whom and in which trick; the trick so far; the
  trump, the troefmaker; the player count and the rules;
- classic and Piekjas 4: the turned card (or, after a Dix, the trump 7 left on the
  table) goes to the troefmaker, who holds it until it plays it (``PUB_KNOWN``);
- a Dix exchange: its maker holds the turned card until it plays it (``PUB_KNOWN``);
- Piekjas 2-3: the card on the table and the fille lie face up out of play
  (``PUB_SEEN_OUT``); the rest of the stock is out of play too, face down: a world
  puts unseen cards there as well (the *stock*);
- Dekjas: every face-up card of both players and the pile structure (which face-up
  card covers a face-down one) are public; no one sees a face-down card, its owner
  included (RULES.md §3, §4). In the view a hidden face-down card under a face-up card
  is ``UNDER_HIDDEN``;
- the declarations announced at the first trick and the side that scores them
  (``PUB_DECL``, ``PUB_ROEM_SIDE``; Dekjas: 0 and -1, its declarations come in play).

Bidding is not used as evidence: a world is any deal consistent with the above and with
what the play proves.

Public-information array (int64, ``PUB_SIZE``; filled by the hand loop, or by
``public_info`` in Python)::

    PUB_SEEN_OUT        mask of the cards face up out of play
    PUB_KNOWN + seat    mask of the cards everyone knows the seat received (until played)
    PUB_DECL + side     declaration points the side scores (classic, Piekjas)
    PUB_ROEM_SIDE       the side scoring declarations, -1

What the play proves
--------------------
Every obligation of §4 (``legal_mask``) is a conjunction of "the player holds no card of
a set" (follow suit: none of the led suit; must trump: no trump; must overtrump: no
higher trump; the partner exception and ``undertrump=free`` only shrink the sets). So a
card ``c`` played by a seat proves it held no card ``x`` for which ``c`` is not legal
from the two-card hand ``{c, x}`` in the same trick: ``forbidden`` collects these, with
``legal_mask`` itself as the judge (one implementation of the rules), and cards only
leave hands, so what a seat did not hold then it does not hold now.

Sampling
--------
A world gives each unseen card to a *holder* (another seat, or the stock), each holder
getting exactly the cards it still has, none of its forbidden cards. The worlds are
sampled **uniformly** among all such deals, with no rejection: ``prepare`` counts, by
dynamic programming over the unseen cards and the holders' remaining room, the number
of ways to complete each partial deal (at most 3 holders: two dimensions of room, the
third is implied), and ``sample_world`` gives each card to a holder with probability
proportional to the completions. Dekjas has no constraint to prove (the obligations
only ever concern face-up cards, which are public), so a world is a uniform shuffle of
the face-down cards into the piles.
"""

import numpy as np
from numba import njit

from analyzer.game.dealing import rand_below, rand_unit
from analyzer.game.state import (
    trick_step,
    ST_DOWN,
    ST_GONE,
    ST_HANDS,
    ST_IN_PLAY,
    ST_LEADER,
    ST_LEADERS,
    ST_N_IN,
    ST_N_PLAYED,
    ST_PLAYED,
    ST_TRICK_NO,
    ST_TRUMP,
    ST_UNDER,
    STATE_SIZE,
)
from analyzer.rules import CLASSIC, DEKJAS, PIEKJAS
from analyzer.rules.cards import ALL_CARDS_MASK, N_CARDS, lowest_card, popcount
from analyzer.rules.legal import legal_mask

PUB_SEEN_OUT = 0
PUB_KNOWN = 1
PUB_DECL = PUB_KNOWN + 4
PUB_ROEM_SIDE = PUB_DECL + 4
PUB_SIZE = PUB_ROEM_SIDE + 1

UNDER_HIDDEN = -2  # view of a Dekjas face-down card still hidden under a face-up card

MAX_HOLDERS = 3  # other seats (at most 3) or other seats and the stock (Piekjas 2-3)
ROOM = 17  # a holder's room 0..16 (Piekjas 2: the stock holds 12)
STOCK = -1  # holder seat of the stock
NO_HOLDER = -2


@njit(cache=True, inline="always")
def _stock_in_game(rec):
    """Piekjas 2-3: part of the deck stays out of play face down (RULES.md §3)."""
    return rec.variant == PIEKJAS and rec.n_players < 4


@njit(cache=True)
def observe(st, rec, pub, seat, view):
    """Copy into ``view`` what ``seat`` knows of state ``st``: the other seats' cards are
    gone (Dekjas: the face-down cards, every seat's), and so is the set of cards in play
    where the stock hides some of them."""
    for i in range(STATE_SIZE):
        view[i] = st[i]
    for s in range(4):
        view[ST_DOWN + s] = 0
    if rec.variant == DEKJAS:
        up = st[ST_HANDS] | st[ST_HANDS + 1]
        for c in range(N_CARDS):
            if (up >> c) & 1 and st[ST_UNDER + c] >= 0:
                view[ST_UNDER + c] = UNDER_HIDDEN
        return
    for s in range(4):
        if s != seat:
            view[ST_HANDS + s] = 0
    if _stock_in_game(rec):
        view[ST_IN_PLAY] = st[ST_GONE] | st[ST_HANDS + seat]


@njit(cache=True)
def fill_public(pub, rec, taker, turned, table_card, dix_seat, fille, roem_side, roem_points):
    """The public information of a hand after the deal (module docstring): the hand loop's
    call. ``table_card``: the card on the table after any Dix (classic and Piekjas 4: the
    troefmaker takes it); ``dix_seat``, ``fille``, ``roem_side``: -1 when none."""
    for i in range(PUB_SIZE):
        pub[i] = 0
    pub[PUB_ROEM_SIDE] = -1
    if rec.variant == DEKJAS:
        return
    if rec.n_players == 4:
        pub[PUB_KNOWN + taker] |= np.int64(1) << table_card
    else:
        pub[PUB_SEEN_OUT] = (np.int64(1) << table_card) | (np.int64(1) << fille)
    if dix_seat >= 0:
        pub[PUB_KNOWN + dix_seat] |= np.int64(1) << turned
    if roem_side >= 0:
        pub[PUB_ROEM_SIDE] = roem_side
        pub[PUB_DECL + roem_side] = roem_points


@njit(cache=True)
def cards_played_by(view, rec, seat):
    """How many cards ``seat`` has played (completed tricks, and the current one)."""
    n = rec.n_players
    k = view[ST_N_IN]
    pos = seat - view[ST_LEADER]
    if pos < 0:
        pos += n
    return view[ST_TRICK_NO] + (1 if pos < k else 0)


@njit(cache=True)
def forbidden(view, rec, seat, candidates, out):
    """Per seat, the ``candidates`` it cannot hold by what its past cards prove (module
    docstring). ``seat``'s own entry stays 0."""
    n = rec.n_players
    trump = view[ST_TRUMP]
    utf = rec.undertrump_free
    partners = rec.variant == CLASSIC
    for s in range(4):
        out[s] = 0
    led = -1
    best_s = -1
    win_j = 0
    best_tr = -1
    leader = 0
    for i in range(view[ST_N_PLAYED]):
        t = i // n
        j = i - t * n
        c = view[ST_PLAYED + i]
        if j == 0:
            leader = view[ST_LEADERS + t]
        s = leader + j
        if s >= n:
            s -= n
        if j > 0 and s != seat:
            w = leader + win_j
            if w >= n:
                w -= n
            pw = 1 if partners and (w & 1) == (s & 1) else 0
            m = np.int64(candidates) & ~out[s]
            while m:
                x = lowest_card(np.uint32(m))
                m &= ~(np.int64(1) << x)
                two = np.uint32((1 << c) | (1 << x))
                if ((np.int64(legal_mask(two, led, best_tr, trump, pw, utf)) >> c) & 1) == 0:
                    out[s] |= np.int64(1) << x
        led, win_j, best_s, best_tr = trick_step(j, c, trump, led, win_j, best_s, best_tr)


@njit(cache=True, inline="always")
def mask_cards(mask, out):
    """The cards of ``mask`` into ``out``, lowest first; returns how many."""
    k = 0
    mask = np.int64(mask)
    while mask:
        c = lowest_card(np.uint32(mask))
        mask &= ~(np.int64(1) << c)
        out[k] = c
        k += 1
    return k


@njit(cache=True, inline="always")
def _w_at(i, c0, c1):
    return (i * ROOM + c0) * ROOM + c1


@njit(cache=True, inline="always")
def _allowed(forb, x):
    return ((forb >> x) & 1) == 0


@njit(cache=True)
def prepare(view, rec, pub, seat, kn):
    """Set up the sampling of ``seat``'s worlds in workspace ``kn`` (fields ``ucards``,
    ``hseat``, ``hcap``, ``hforb``, ``known``, ``forb``, ``wtab``, ``meta``). Returns the
    number of consistent worlds (a float; 0 when the view is inconsistent)."""
    n = rec.n_players
    gone = view[ST_GONE]
    meta = kn.meta
    if rec.variant == DEKJAS:
        # the unseen cards are the face-down ones; the slots are the face-up cards over them
        up = view[ST_HANDS] | view[ST_HANDS + 1]
        m = 0
        k = 0
        for c in range(N_CARDS):
            if (up >> c) & 1 and view[ST_UNDER + c] == UNDER_HIDDEN:
                kn.slots[k] = c
                k += 1
            elif ((gone | up) >> c) & 1 == 0:
                kn.ucards[m] = c
                m += 1
        meta[0] = m
        meta[1] = k
        if k != m:
            return 0.0
        f = 1.0
        for i in range(2, m + 1):
            f *= i
        return f
    own = view[ST_HANDS + seat]
    known_all = np.int64(0)
    for s in range(4):
        kn.known[s] = 0
        if s < n and s != seat:
            kn.known[s] = pub[PUB_KNOWN + s] & ~gone & ~own
            known_all |= kn.known[s]
    unseen = np.int64(ALL_CARDS_MASK) & ~own & ~gone & ~pub[PUB_SEEN_OUT] & ~known_all
    m = mask_cards(unseen, kn.ucards)
    meta[0] = m
    forbidden(view, rec, seat, unseen, kn.forb)
    h = 0
    room = 0
    for s in range(n):
        if s == seat:
            continue
        kn.hseat[h] = s
        kn.hcap[h] = rec.n_tricks - cards_played_by(view, rec, s) - popcount(np.uint32(kn.known[s]))
        kn.hforb[h] = kn.forb[s]
        room += kn.hcap[h]
        h += 1
    if _stock_in_game(rec):
        kn.hseat[h] = STOCK
        kn.hcap[h] = m - room
        kn.hforb[h] = 0
        room = m
        h += 1
    for j in range(h, MAX_HOLDERS):
        kn.hseat[j] = NO_HOLDER
        kn.hcap[j] = 0
        kn.hforb[j] = -1
    for j in range(MAX_HOLDERS):
        if kn.hcap[j] < 0 or kn.hcap[j] >= ROOM:
            return 0.0
    if room != m:
        return 0.0
    cap0, cap1, cap2 = kn.hcap[0], kn.hcap[1], kn.hcap[2]
    f0, f1, f2 = kn.hforb[0], kn.hforb[1], kn.hforb[2]
    wtab = kn.wtab
    for i in range(m, -1, -1):
        rem = m - i
        for c0 in range(min(cap0, rem) + 1):
            for c1 in range(min(cap1, rem - c0) + 1):
                c2 = rem - c0 - c1
                idx = _w_at(i, c0, c1)
                if c2 > cap2:
                    wtab[idx] = 0.0
                elif i == m:
                    wtab[idx] = 1.0
                else:
                    x = kn.ucards[i]
                    w = 0.0
                    if c0 > 0 and _allowed(f0, x):
                        w += wtab[_w_at(i + 1, c0 - 1, c1)]
                    if c1 > 0 and _allowed(f1, x):
                        w += wtab[_w_at(i + 1, c0, c1 - 1)]
                    if c2 > 0 and _allowed(f2, x):
                        w += wtab[_w_at(i + 1, c0, c1)]
                    wtab[idx] = w
    return wtab[_w_at(0, cap0, cap1)]


@njit(cache=True)
def sample_world(view, rec, kn, world):
    """One world, uniform among the consistent ones (``prepare`` first, and it must have
    found some): ``view`` with the unseen cards dealt, into ``world``. Draws from
    ``kn.rng``."""
    for i in range(STATE_SIZE):
        world[i] = view[i]
    m = kn.meta[0]
    if rec.variant == DEKJAS:
        # Fisher-Yates: slot j gets ucards[perm[j]]
        for i in range(m):
            kn.perm[i] = kn.ucards[i]
        for i in range(m - 1, 0, -1):
            j = rand_below(kn.rng, i + 1)
            tmp = kn.perm[i]
            kn.perm[i] = kn.perm[j]
            kn.perm[j] = tmp
        for j in range(m):
            slot = kn.slots[j]
            x = kn.perm[j]
            world[ST_UNDER + slot] = x
            owner = 0 if (world[ST_HANDS] >> slot) & 1 else 1
            world[ST_DOWN + owner] |= np.int64(1) << x
        return
    c0, c1, c2 = kn.hcap[0], kn.hcap[1], kn.hcap[2]
    f0, f1, f2 = kn.hforb[0], kn.hforb[1], kn.hforb[2]
    got0 = np.int64(0)
    got1 = np.int64(0)
    got2 = np.int64(0)
    wtab = kn.wtab
    for i in range(m):
        x = kn.ucards[i]
        r = rand_unit(kn.rng) * wtab[_w_at(i, c0, c1)]
        w0 = wtab[_w_at(i + 1, c0 - 1, c1)] if c0 > 0 and _allowed(f0, x) else 0.0
        w1 = wtab[_w_at(i + 1, c0, c1 - 1)] if c1 > 0 and _allowed(f1, x) else 0.0
        w2 = wtab[_w_at(i + 1, c0, c1)] if c2 > 0 and _allowed(f2, x) else 0.0
        # the last holder with any completion takes what rounding leaves over
        if w0 > 0.0 and (r < w0 or (w1 == 0.0 and w2 == 0.0)):
            got0 |= np.int64(1) << x
            c0 -= 1
        elif w1 > 0.0 and (r < w0 + w1 or w2 == 0.0):
            got1 |= np.int64(1) << x
            c1 -= 1
        else:
            got2 |= np.int64(1) << x
            c2 -= 1
    in_play = world[ST_GONE]
    for h in range(MAX_HOLDERS):
        s = kn.hseat[h]
        got = got0 if h == 0 else (got1 if h == 1 else got2)
        if s >= 0:
            world[ST_HANDS + s] = kn.known[s] | got
    for s in range(rec.n_players):
        in_play |= world[ST_HANDS + s]
    world[ST_IN_PLAY] = in_play


__all__ = ["PUB_SIZE", "PUB_SEEN_OUT", "PUB_KNOWN", "PUB_DECL", "PUB_ROEM_SIDE", "fill_public", "observe", "prepare",
           "sample_world", "forbidden"]
