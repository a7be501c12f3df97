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
  (``PUB_DECL``, ``PUB_ROEM_SIDE``; Dekjas: 0 and -1, its declarations come in play);
- Dekjas: the declarations made so far, after each won trick (``PUB_DECLARED``,
  ``PUB_DECLARED_KEY``, ``PUB_DECLARED_USED``: ``note_declarations``);
- stuk (RULES.md §5): the seat holding the K and Q of trump announces it ("belote") when it
  plays the first of them, and the simulator always announces (``PUB_STUK``: ``note_stuk``).
  So once the first is played, everyone knows its player holds the other until it plays it,
  or, when nobody announced, that its player does not hold the other. Dekjas has no such
  evidence: an owner cannot see its own face-down cards, and a face-up card is public anyway.

A world is any deal consistent with the above and with what the play proves; with
``pimc:infer=bids`` also with the bidding ("What the bidding tells", below).

Public-information array (int64, ``PUB_SIZE``, declared as ``PUB_FIELDS``; filled by the hand
loop, or by ``public_info`` in Python)::

    PUB_SEEN_OUT        mask of the cards face up out of play
    PUB_KNOWN + seat    mask of the cards everyone knows the seat received (until played)
    PUB_DECL + side     declaration points the side scores (classic, Piekjas)
    PUB_ROEM_SIDE       the side scoring declarations, -1
    PUB_DECLARED + seat Dekjas: the declaration points the seat has declared so far
    PUB_DECLARED_KEY + seat  Dekjas: the key of its best declaration so far, -1
    PUB_DECLARED_USED   Dekjas: the cards used by a sequence (+ 0), by a carré (+ 1)
    PUB_STUK            the seat that announced stuk (belote), -1 (classic, Piekjas)
    PUB_BID_ROUND       the round the trump was made in: 1, 2 or KOE_ROUND (3); 0: the
                        bidding is not known (no evidence: the Python API's default)
    PUB_TURNED          the turned card
    PUB_TABLE           the card on the table after any Dix (the troefmaker's, n = 4)
    PUB_DIX_SEAT        the seat that made the Dix exchange, -1
    PUB_SMOUS_SEAT      the seat whose smous was played (it is the troefmaker), -1
    PUB_FORCED          the call not made by its seat's policy (a question forced it):
                        seat * 4 + round, -1
    PUB_BID_POL + seat  each seat's bidding policy (``analyzer.players.bidding`` codes), -1
    PUB_BID_PARAMS      each seat's parameter row (float64 bits, ``N_BID_PARAMS`` a seat)

What the play proves
--------------------
Every obligation of §4 (``legal_mask``) is a conjunction of "the player holds no card of
a set" (follow suit: none of the led suit; must trump: no trump; must overtrump: no
higher trump; the partner exception and ``undertrump=free`` only shrink the sets). So a
card ``c`` played by a seat proves it held no card ``x`` for which ``c`` is not legal
from the two-card hand ``{c, x}`` in the same trick: ``forbidden`` collects these, with
``legal_mask`` itself as the judge (one implementation of the rules), and cards only
leave hands, so what a seat did not hold then it does not hold now.

What the bidding tells
----------------------
The calls are public, and so is each seat's bidding policy (the run's, as a player knows
the habits of the table). The calls before the trump was made, in the order of §3, were
each seat's policy applied to the cards it judged then: its *bid hand*, the cards it held
at bidding (§3: five, or six in Piekjas 2-3). In a world a seat's bid hand is unknown
too: it is ``first_deal`` of the cards the world gives it over the hand (held and played),
less those known to have come after the bidding (the troefmaker's table card, a Dix
maker's turned card; a Dix maker's trump 7 was in it), each such subset equally likely:
the deck was shuffled. So the likelihood of the calls in a world is, per seat, the share
of its possible bid hands under which its policy makes the calls it made (the heuristic
bidder is deterministic); the random bidder's calls tell nothing. With the Dix at bidding
(§3.6, always made when possible), a seat that did not exchange held no trump 7 then.

``sample_fitting_world`` draws from the worlds weighted by that likelihood, by rejection:
a uniform world, one bid hand drawn per seat, kept when every call fits (a world is then
kept with probability its likelihood, exactly), else drawn anew, up to ``max_tries``
times (then the last world is kept: the bound on the work). A call forced by a question
(``PUB_FORCED``) is not evidence. Dekjas bids on face-up cards, which are public: nothing
to infer.

What the play tells
-------------------
The cards the other seats played were choices, not only obligations: a player holding the
ace of the suit led and a partner losing the trick would mostly have played it. With
``pimc:infer=play`` a world is weighted by how well the cards played so far fit it:
``play_misfits`` counts the other seats' unforced cards the heuristic would not have played
holding what the world gives them then (the table's habits as a model of every seat, the
heuristic being what a seat mostly plays and the cheapest model to ask), and each misfit
halves the world's weight ``misfit`` times (``analyzer.players.pimc``). A seat may play
otherwise than the heuristic, so no world is ruled out: the weight is a soft likelihood.

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

from analyzer.compiling import njit
from analyzer.layout import offsets
from analyzer.rules.structure import has_dix, has_fille, has_partners, has_piles, taker_gets_turned
from analyzer.game.dealing import rand_below, rand_unit
from analyzer.players.bidding import N_BID_PARAMS, RANDOM, answer_smous, choose_bid, choose_koe_suit
from analyzer.rules.calls import KOE_ROUND, PASS, SMOUS, SMOUS_PLAY, TAKE
from analyzer.game.state import (
    trick_step,
    ST_TAKER,
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
    ST_TO_MOVE,
    legal_cards,
    play_card,
    seat_of_play,
    undo_card,
)
from analyzer.players.play import HEURISTIC, heuristic_on_state
from analyzer.rules.cards import ALL_CARDS_MASK, N_CARDS, R7, RK, RQ, lowest_card, popcount
from analyzer.rules.declarations import declare_new
from analyzer.rules.legal import legal_mask
from analyzer.rules.seats import seat_after, side_of, side_of_seat

# the public-information record, declared once (the layout of the docstring): (name, size)
PUB_FIELDS = (
    ("seen_out", 1),  # mask of the cards face up out of play
    ("known", 4),  # + seat: mask of the cards everyone knows the seat received (until played)
    ("decl", 4),  # + side: declaration points the side scores (classic, Piekjas)
    ("roem_side", 1),  # the side scoring declarations, -1
    ("declared", 4),  # + seat: Dekjas, the declaration points the seat has declared so far (it scores them if its
    # best declaration is the best at the end of the hand)
    ("declared_key", 4),  # + seat: Dekjas, the key of the seat's best declaration so far (declarations.declaration_key), -1
    ("declared_used", 2),  # Dekjas: the cards used by a sequence, by a carré (no later declaration of the kind uses them)
    ("stuk", 1),  # the seat that announced stuk (belote) when playing the first of K and Q of trump, -1 (note_stuk)
    ("bid_round", 1),  # the round the trump was made in: 1, 2 or KOE_ROUND; 0: the bidding is not known
    ("turned", 1),  # the turned card
    ("table", 1),  # the card on the table after any Dix
    ("dix_seat", 1),  # the seat that made the Dix exchange, -1
    ("smous_seat", 1),  # the seat whose smous was played, -1
    ("forced", 1),  # the call a question forced (seat * 4 + round), -1
    ("bid_pol", 4),  # + seat: its bidding policy (analyzer.players.bidding codes), -1
    ("bid_params", 4 * N_BID_PARAMS),  # each seat's parameter row (float64 bits)
)
PUB_OFFSETS, PUB_SIZE = offsets(PUB_FIELDS)
PUB_SEEN_OUT = PUB_OFFSETS["seen_out"]
PUB_KNOWN = PUB_OFFSETS["known"]
PUB_DECL = PUB_OFFSETS["decl"]
PUB_ROEM_SIDE = PUB_OFFSETS["roem_side"]
PUB_DECLARED = PUB_OFFSETS["declared"]
PUB_DECLARED_KEY = PUB_OFFSETS["declared_key"]
PUB_DECLARED_USED = PUB_OFFSETS["declared_used"]
PUB_STUK = PUB_OFFSETS["stuk"]
PUB_BID_ROUND = PUB_OFFSETS["bid_round"]
PUB_TURNED = PUB_OFFSETS["turned"]
PUB_TABLE = PUB_OFFSETS["table"]
PUB_DIX_SEAT = PUB_OFFSETS["dix_seat"]
PUB_SMOUS_SEAT = PUB_OFFSETS["smous_seat"]
PUB_FORCED = PUB_OFFSETS["forced"]
PUB_BID_POL = PUB_OFFSETS["bid_pol"]
PUB_BID_PARAMS = PUB_OFFSETS["bid_params"]

UNDER_HIDDEN = -2  # view of a Dekjas face-down card still hidden under a face-up card

MAX_HOLDERS = 3  # other seats (at most 3) or other seats and the stock (Piekjas 2-3)
ROOM = 17  # a holder's room 0..16 (Piekjas 2: the stock holds 12)
STOCK = -1  # holder seat of the stock
NO_HOLDER = -2


@njit(cache=True, forceinline=True)
def _stock_in_game(rec):
    """Piekjas 2-3 (a fille): part of the deck stays out of play face down (RULES.md §3)."""
    return has_fille(rec)


@njit(cache=True)
def observe(st, rec, pub, seat, view):
    """Copy into ``view`` what ``seat`` knows of state ``st``: the other seats' cards are
    gone (Dekjas: the face-down cards, every seat's), and so is the set of cards in play
    where the stock hides some of them."""
    for i in range(STATE_SIZE):
        view[i] = st[i]
    for s in range(4):
        view[ST_DOWN + s] = 0
    if has_piles(rec):
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
    troefmaker takes it); ``dix_seat``, ``fille``, ``roem_side``: -1 when none. The bidding
    is not known until ``fill_bidding``."""
    for i in range(PUB_SIZE):
        pub[i] = 0
    pub[PUB_ROEM_SIDE] = -1
    pub[PUB_TURNED] = turned
    pub[PUB_TABLE] = table_card
    pub[PUB_DIX_SEAT] = dix_seat
    pub[PUB_SMOUS_SEAT] = -1
    pub[PUB_FORCED] = -1
    pub[PUB_STUK] = -1
    for s in range(4):
        pub[PUB_BID_POL + s] = -1
        pub[PUB_DECLARED_KEY + s] = -1
    if has_piles(rec):
        return
    if taker_gets_turned(rec):
        pub[PUB_KNOWN + taker] |= np.int64(1) << table_card
    else:
        pub[PUB_SEEN_OUT] = (np.int64(1) << table_card) | (np.int64(1) << fille)
    if dix_seat >= 0:
        pub[PUB_KNOWN + dix_seat] |= np.int64(1) << turned
    if roem_side >= 0:
        pub[PUB_ROEM_SIDE] = roem_side
        pub[PUB_DECL + roem_side] = roem_points


@njit(cache=True)
def declare_into(declared, keys, used, up, winner, trump, by_points):
    """Dekjas (§5 'When'): ``winner`` has just won a trick holding the face-up cards ``up`` and declares
    what is new among them: its points added to ``declared[winner]``, its best key into ``keys[winner]``,
    the cards it uses into ``used`` (0: sequences, 1: carrés). The one step behind the public record
    (``note_declarations``) and the searching players' play-outs (``pimc.declare_after``)."""
    up = np.uint32(up)
    pts, key, seq, carre = declare_new(np.uint32(up & ~np.uint32(used[0])),  # uint32: one compile
                                       np.uint32(up & ~np.uint32(used[1])), trump, by_points)
    declared[winner] += pts
    keys[winner] = max(keys[winner], key)
    used[0] |= np.int64(seq)
    used[1] |= np.int64(carre)


@njit(cache=True)
def note_declarations(pub, st, rec, winner):
    """Dekjas: ``winner`` has just won a trick of ``st``; what it declares is public, so it goes into
    ``pub`` (``PUB_DECLARED``, ``PUB_DECLARED_KEY``, ``PUB_DECLARED_USED``), where the searching
    players' values and net's features read it. The hand loop calls it after every trick of a hand a
    searching player is in; a replay (``belote learn``, ``belote review``) after every trick it replays."""
    declare_into(pub[PUB_DECLARED:PUB_DECLARED + 4], pub[PUB_DECLARED_KEY:PUB_DECLARED_KEY + 4],
                 pub[PUB_DECLARED_USED:PUB_DECLARED_USED + 2], st[ST_HANDS + winner], winner, st[ST_TRUMP],
                 rec.roem_by_points)


@njit(cache=True, forceinline=True)
def stuk_cards(trump):
    """The mask of the K and Q of trump (RULES.md §5 'Stuk')."""
    return (np.int64(1) << (8 * trump + RK)) | (np.int64(1) << (8 * trump + RQ))


@njit(cache=True)
def card_owner(st, rec, c):
    """The seat that holds card ``c`` in ``st`` or has played it (Dekjas: owns it, face up or
    down), -1 when no seat does (out of play, or hidden from the view ``st`` is)."""
    b = np.int64(1) << c
    for s in range(rec.n_players):
        if (st[ST_HANDS + s] | st[ST_DOWN + s]) & b:
            return s
    if st[ST_GONE] & b:
        for i in range(st[ST_N_PLAYED]):
            if st[ST_PLAYED + i] == c:
                return seat_of_play(st, rec, i)
    return -1


@njit(cache=True)
def stuk_owner(st, rec):
    """The seat that was dealt both the K and Q of trump in ``st`` (held or played; Dekjas:
    owned), -1: the seat that scores stuk (RULES.md §5), as ``declarations.stuk_seat`` finds it
    in the starting hands."""
    trump = st[ST_TRUMP]
    k = card_owner(st, rec, 8 * trump + RK)
    if k >= 0 and card_owner(st, rec, 8 * trump + RQ) == k:
        return k
    return -1


@njit(cache=True)
def note_stuk(pub, st, rec):
    """The stuk announcement made so far in ``st`` (the whole state, every hand) into ``pub``
    (``PUB_STUK``, module docstring). The owner of the K and Q of trump announces as it plays the
    first of them, so once either is played the announcement is made or never will be. Idempotent,
    and called where it is read: the hand loop and ``play_to_end`` before each decision of a player
    that reads it, the Python API's ``choose`` once for a position (``belote review`` asks through
    it). Not in Dekjas."""
    if pub[PUB_STUK] >= 0 or has_piles(rec):
        return
    if st[ST_GONE] & stuk_cards(st[ST_TRUMP]):
        pub[PUB_STUK] = stuk_owner(st, rec)


@njit(cache=True)
def fill_bidding(pub, rec, rnd, smous_seat, forced, bid_pol, bid_params):
    """The bidding into ``pub`` (after ``fill_public``): the round the trump was made in, the
    seat whose smous was played (-1), the call a question forced (seat * 4 + round, -1), and
    each seat's bidding policy code (``bid_pol``) and parameter row (``bid_params``)."""
    pub[PUB_BID_ROUND] = rnd
    pub[PUB_SMOUS_SEAT] = smous_seat
    pub[PUB_FORCED] = forced
    params = pub[PUB_BID_PARAMS:PUB_BID_PARAMS + 4 * N_BID_PARAMS].view(np.float64)
    for s in range(rec.n_players):
        pub[PUB_BID_POL + s] = bid_pol[s]
        for k in range(N_BID_PARAMS):
            params[s * N_BID_PARAMS + k] = bid_params[s, k]


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
    partners = has_partners(rec)
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
        s = seat_after(leader, j, n)
        if j > 0 and s != seat:
            w = seat_after(leader, win_j, n)
            pw = 1 if partners and side_of(w, partners) == side_of(s, partners) else 0
            m = np.int64(candidates) & ~out[s]
            while m:
                x = lowest_card(np.uint32(m))
                m &= ~(np.int64(1) << x)
                two = np.uint32((1 << c) | (1 << x))
                if ((np.int64(legal_mask(two, led, best_tr, trump, pw, utf)) >> c) & 1) == 0:
                    out[s] |= np.int64(1) << x
        led, win_j, best_s, best_tr = trick_step(j, c, trump, led, win_j, best_s, best_tr)


@njit(cache=True)
def stuk_evidence(view, rec, announced, seat, out):
    """Into ``out`` (per seat, the cards it cannot hold): a seat other than ``seat`` that played the
    K or Q of trump and did not announce stuk (``announced``, ``PUB_STUK``) does not hold the other."""
    kq = stuk_cards(view[ST_TRUMP])
    if (view[ST_GONE] & kq) == 0:
        return
    for i in range(view[ST_N_PLAYED]):
        c = view[ST_PLAYED + i]
        if (kq >> c) & 1:
            s = seat_of_play(view, rec, i)
            if s != announced and s != seat:
                out[s] |= kq & ~(np.int64(1) << c)


@njit(cache=True, forceinline=True)
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


@njit(cache=True, forceinline=True)
def _w_at(i, c0, c1):
    return (i * ROOM + c0) * ROOM + c1


@njit(cache=True, forceinline=True)
def _allowed(forb, x):
    return ((forb >> x) & 1) == 0


@njit(cache=True)
def prepare(view, rec, pub, seat, kn, stuk):
    """Set up the sampling of ``seat``'s worlds in workspace ``kn`` (fields ``ucards``,
    ``hseat``, ``hcap``, ``hforb``, ``known``, ``forb``, ``wtab``, ``meta``). Returns the
    number of consistent worlds (a float; 0 when the view is inconsistent). ``stuk``: the
    worlds honour the stuk announcement, or its absence (``stuk_evidence``)."""
    n = rec.n_players
    gone = view[ST_GONE]
    meta = kn.meta
    if has_piles(rec):
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
    announced = pub[PUB_STUK] if stuk else -1
    known_all = np.int64(0)
    for s in range(4):
        kn.known[s] = 0
        if s < n and s != seat:
            kn.known[s] = pub[PUB_KNOWN + s] & ~gone & ~own
            if s == announced:  # it holds the other of the K and Q of trump until it plays it
                kn.known[s] |= stuk_cards(view[ST_TRUMP]) & ~gone & ~own
            known_all |= kn.known[s]
    unseen = np.int64(ALL_CARDS_MASK) & ~own & ~gone & ~pub[PUB_SEEN_OUT] & ~known_all
    m = mask_cards(unseen, kn.ucards)
    meta[0] = m
    forbidden(view, rec, seat, unseen, kn.forb)
    if stuk:
        stuk_evidence(view, rec, announced, seat, kn.forb)
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


@njit(cache=True, forceinline=True)
def sample_world(view, rec, kn, world):
    """One world, uniform among the consistent ones (``prepare`` first, and it must have
    found some): ``view`` with the unseen cards dealt, into ``world``. Draws from
    ``kn.rng``. (The work is ``_deal_world``'s, which takes the workspace's arrays one by one:
    a call that passes the whole workspace costs more than the sampling.)"""
    _deal_world(view, rec, kn.ucards, kn.slots, kn.perm, kn.hseat, kn.hcap, kn.hforb, kn.known, kn.wtab, kn.meta,
                kn.rng, world)


@njit(cache=True)
def _deal_world(view, rec, ucards, slots, perm, hseat, hcap, hforb, known, wtab, meta, rng, world):
    """``sample_world`` on the workspace's arrays."""
    for i in range(STATE_SIZE):
        world[i] = view[i]
    m = meta[0]
    if has_piles(rec):
        # Fisher-Yates: slot j gets ucards[perm[j]]
        for i in range(m):
            perm[i] = ucards[i]
        for i in range(m - 1, 0, -1):
            j = rand_below(rng, i + 1)
            tmp = perm[i]
            perm[i] = perm[j]
            perm[j] = tmp
        for j in range(m):
            slot = slots[j]
            x = perm[j]
            world[ST_UNDER + slot] = x
            owner = 0 if (world[ST_HANDS] >> slot) & 1 else 1
            world[ST_DOWN + owner] |= np.int64(1) << x
        return
    c0, c1, c2 = hcap[0], hcap[1], hcap[2]
    f0, f1, f2 = hforb[0], hforb[1], hforb[2]
    got0 = np.int64(0)
    got1 = np.int64(0)
    got2 = np.int64(0)
    for i in range(m):
        x = ucards[i]
        r = rand_unit(rng) * wtab[_w_at(i, c0, c1)]
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
        s = hseat[h]
        got = got0 if h == 0 else (got1 if h == 1 else got2)
        if s >= 0:
            world[ST_HANDS + s] = known[s] | got
    for s in range(rec.n_players):
        in_play |= world[ST_HANDS + s]
    world[ST_IN_PLAY] = in_play


@njit(cache=True)
def prepare_bids(view, rec, pub, seat, kn):
    """Set up ``bids_fit`` for ``seat``'s decision: per seat, the cards it has played
    (``kn.bidev``). Returns whether the bidding is evidence here (known, not Dekjas)."""
    if pub[PUB_BID_ROUND] == 0 or has_piles(rec):
        return False
    for s in range(4):
        kn.bidev[s] = 0
    for i in range(view[ST_N_PLAYED]):
        kn.bidev[seat_of_play(view, rec, i)] |= np.int64(1) << view[ST_PLAYED + i]
    return True


@njit(cache=True)
def draw_bid_hand(world, rec, pub, s, played, rng):
    """Seat ``s``'s bid hand in ``world`` (module docstring): ``first_deal`` of the cards the
    world gives it over the hand, less those that came after the bidding, drawn uniformly
    (a Dix maker's trump 7 always in it, unless the Dix is made at the deal). -1 when the
    world gives it too few such cards."""
    d = world[ST_HANDS + s] | played[s]
    trump = world[ST_TRUMP]
    if rec.n_players == 4 and s == world[ST_TAKER]:
        d &= ~(np.int64(1) << pub[PUB_TABLE])
    fixed = np.int64(0)
    if s == pub[PUB_DIX_SEAT]:
        seven = np.int64(1) << (8 * trump + R7)
        d &= ~(np.int64(1) << pub[PUB_TURNED])
        if rec.dix_at_deal:
            d |= seven
        else:
            fixed = seven
            d &= ~seven
    need = rec.first_deal - popcount(np.uint32(fixed))
    left = popcount(np.uint32(d))
    if left < need:
        return np.int64(-1)
    out = fixed
    while need > 0:  # selection sampling: each card kept with probability need / left
        c = lowest_card(np.uint32(d))
        d &= ~(np.int64(1) << c)
        if rand_below(rng, left) < need:
            out |= np.int64(1) << c
            need -= 1
        left -= 1
    return out


@njit(cache=True)
def bids_fit(world, rec, pub, seat, played, rng):
    """Do the calls of the bidding fit ``world`` (module docstring), one bid hand drawn for
    each other seat whose calls or Dix tell something? ``played``: per seat, the cards it has
    played (``prepare_bids``). The troefmaker first: its take rules out the most worlds."""
    n = rec.n_players
    rnd_taken = pub[PUB_BID_ROUND]
    taker = world[ST_TAKER]
    trump = world[ST_TRUMP]
    turned = pub[PUB_TURNED]
    smous = pub[PUB_SMOUS_SEAT]
    forced = pub[PUB_FORCED]
    params = pub[PUB_BID_PARAMS:PUB_BID_PARAMS + 4 * N_BID_PARAMS].view(np.float64)
    dix_rule = has_dix(rec) and (turned >> 3) == trump and not rec.dix_at_deal
    seven = np.int64(1) << (8 * trump + R7)
    for i in range(n):
        s = seat_after(taker, i, n)
        if s == seat:
            continue
        pol = pub[PUB_BID_POL + s]
        calls = pol >= 0 and pol != RANDOM
        if not calls and not (dix_rule and s != pub[PUB_DIX_SEAT]):
            continue
        own = draw_bid_hand(world, rec, pub, s, played, rng)
        if own < 0:
            return False
        if dix_rule and s != pub[PUB_DIX_SEAT] and (own & seven) != 0:
            return False  # it would have exchanged its 7 for the turned card
        if not calls:
            continue
        p = params[s * N_BID_PARAMS:(s + 1) * N_BID_PARAMS]
        hand = np.uint32(own)
        last = 2 if rnd_taken == KOE_ROUND else rnd_taken
        for r in range(1, last + 1):
            if forced == s * 4 + r:
                continue
            if r == rnd_taken and s > taker:
                break  # the bidding ended before its turn
            call, suit = choose_bid(pol, p, s, r, hand, turned, rec, rng)
            if r < rnd_taken or s < taker:
                if call != PASS:
                    return False
            elif call != (SMOUS if smous == s else TAKE) or suit != trump:
                return False
        if rnd_taken == KOE_ROUND and s == 0 and forced != KOE_ROUND:
            if choose_koe_suit(pol, p, hand, turned, rec, rng) != trump:
                return False
        if smous >= 0 and s == 1 - smous and answer_smous(pol, p, hand, turned, trump, rec, rng) != SMOUS_PLAY:
            return False
    return True


@njit(cache=True)
def play_misfits(world, rec, pub, seat, view):
    """How many of the other seats' cards played so far (``view``'s history) the heuristic would
    not have played, each on its own cards of ``world`` at the time (a forced card is no
    evidence). ``world`` is taken back to the start of the play and played forward again, so it is
    as it was on return. The heuristic reads its seat's cards, the cards gone, the trick and the
    cards face up out of play: what that seat saw then, in this world."""
    n_played = view[ST_N_PLAYED]
    for _ in range(n_played):
        undo_card(world, rec)
    seen = pub[PUB_SEEN_OUT]
    misses = 0
    for i in range(n_played):
        c = view[ST_PLAYED + i]
        s = world[ST_TO_MOVE]
        if side_of_seat(s, rec) != side_of_seat(seat, rec) and popcount(legal_cards(world, rec)) > 1:
            if heuristic_on_state(world, rec, seen, HEURISTIC) != c:
                misses += 1
        play_card(world, rec, c)
    return misses


@njit(cache=True, forceinline=True)
def sample_fitting_world(view, rec, pub, seat, kn, world, max_tries):
    """One world weighted by the likelihood of the bidding (module docstring): ``sample_world``
    until ``bids_fit``, at most ``max_tries`` times. Returns the number of worlds drawn
    (``max_tries`` and the last world kept when none fitted)."""
    for k in range(1, max_tries + 1):
        sample_world(view, rec, kn, world)
        if bids_fit(world, rec, pub, seat, kn.bidev, kn.rng):
            return k
    return max_tries


__all__ = ["PUB_SIZE", "PUB_SEEN_OUT", "PUB_KNOWN", "PUB_DECL", "PUB_ROEM_SIDE", "PUB_STUK", "fill_public", "fill_bidding",
           "note_stuk", "stuk_owner", "observe", "prepare", "sample_world", "forbidden", "prepare_bids", "bids_fit", "sample_fitting_world",
           "play_misfits"]
