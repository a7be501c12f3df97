"""One steppable state of a hand in play (RULES.md §4), for every variant.

A state is a flat ``int64`` array (pgx-style record) whose fields sit at the named
offsets below; copying it is one ``st.copy()`` of ``STATE_SIZE`` words. The rules
record (``analyzer.rules.RulesRecord``) is passed alongside, never stored. Only these
kernels change or read a state:

- ``init_state``: a start position (hands at the first trick, Dekjas piles, trump,
  taker, leader);
- ``legal_cards``: the playable cards of the seat to move (``analyzer.rules.legal.legal_mask``,
  the one implementation of the obligations of §4);
- ``play_card``: play one card (trick winner by ``analyzer.rules.cards.strength``, points by
  ``mask_points`` of the trick once it is complete; a Dekjas face-down card under the played card turns face up);
- ``undo_card``: take the last card back. The state keeps the order of play and each
  trick's leader, and the Dekjas pile table never changes, so undo needs nothing but
  the state; it restores the state exactly (byte-equal);
- ``is_over``, ``trick_points`` (a completed trick's card points) and ``hand_result``:
  card points per side (last trick 10, classic capot 252) and tricks per side.

The hand loop (``analyzer.runs.hand``, every simulated hand), the double-dummy solver
(``analyzer.players.solver``) and the search players step this one state: one
implementation of play.

Layout (offsets into the array, declared as ``STATE_FIELDS``; masks are card masks of
``analyzer.rules.cards``)::

    ST_TRUMP, ST_TAKER, ST_TAKER_SIDE   trump suit, troefmaker seat and its side
    ST_N_PLAYED                         cards played so far (all tricks)
    ST_TRICK_NO                         completed tricks
    ST_N_IN                             cards in the trick being played (0 = leading)
    ST_LEADER, ST_TO_MOVE               leader of the current trick, seat to move
    ST_LED                              suit led in the current trick, -1 when leading
    ST_BEST_I                           position in the trick of the card winning it so far
    ST_BEST_S                           its strength (analyzer.rules.cards.strength), -1
    ST_BEST_TRUMP                       rank of the highest trump in the trick, -1
    ST_GONE                             mask of every card played (current trick included)
    ST_TRICK_MASK                       mask of the cards of the current trick
    ST_IN_PLAY                          mask of every card dealt to a seat (played or not)
    ST_HANDS + seat                     playable cards (Dekjas: face up)
    ST_DOWN + seat                      Dekjas: face-down cards still owned (else 0)
    ST_POINTS + side                    card points won so far (last-trick 10 included)
    ST_TRICKS + side                    tricks won so far
    ST_PLAYED + i                       the i-th card played, -1 after the last
    ST_LEADERS + t                      leader of trick t, -1 for tricks not started
    ST_UNDER + card                     Dekjas: the face-down card under a face-up card, -1

Seats are in playing order (RULES.md §2): the seat after ``s`` is ``s + 1`` modulo the
player count; sides are teams ``seat & 1`` in classic, one seat each otherwise (``analyzer.rules.seats``).
"""

from __future__ import annotations

import numpy as np

from analyzer.compiling import njit, unsigned_index as _u
from analyzer.layout import offsets
from analyzer.rules.structure import has_partners, has_piles, team_scoring
from analyzer.rules.cards import LAST_TRICK_BONUS, N_CARDS, TRUMP_ORDER, lowest_card, mask_points, strength
from analyzer.rules.legal import legal_mask
from analyzer.rules.seats import next_seat, seat_after, side_of, side_of_seat
from analyzer.rules import Rules
from analyzer.rules.scoring import CAPOT_POINTS

MAX_SEATS = 4
MAX_TRICKS = 16  # Dekjas

# the state's record, declared once: (name, size), offsets derived (the layout of the docstring)
STATE_FIELDS = (
    ("trump", 1),  # trump suit
    ("taker", 1),  # troefmaker seat
    ("taker_side", 1),  # its side
    ("n_played", 1),  # cards played so far (all tricks)
    ("trick_no", 1),  # completed tricks
    ("n_in", 1),  # cards in the trick being played (0 = leading)
    ("leader", 1),  # leader of the current trick
    ("to_move", 1),  # seat to move
    ("led", 1),  # suit led in the current trick, -1 when leading
    ("best_i", 1),  # position in the trick of the card winning it so far
    ("best_s", 1),  # its strength (analyzer.rules.cards.strength), -1
    ("best_trump", 1),  # rank of the highest trump in the trick, -1
    ("gone", 1),  # mask of every card played (current trick included)
    ("trick_mask", 1),  # mask of the cards of the current trick
    ("in_play", 1),  # mask of every card dealt to a seat (played or not)
    ("unused", 1),  # (free: the per-seat blocks start at 16)
    ("hands", MAX_SEATS),  # + seat: playable cards (Dekjas: face up)
    ("down", MAX_SEATS),  # + seat: Dekjas face-down cards still owned (else 0)
    ("points", MAX_SEATS),  # + side: card points won so far (last-trick 10 included)
    ("tricks", MAX_SEATS),  # + side: tricks won so far
    ("played", N_CARDS),  # + i: the i-th card played, -1 after the last
    ("leaders", MAX_TRICKS + 1),  # + t: leader of trick t, -1 for tricks not started
    ("under", N_CARDS),  # + card: Dekjas, the face-down card under a face-up card, -1
)
ST_OFFSETS, STATE_SIZE = offsets(STATE_FIELDS)
ST_TRUMP = ST_OFFSETS["trump"]
ST_TAKER = ST_OFFSETS["taker"]
ST_TAKER_SIDE = ST_OFFSETS["taker_side"]
ST_N_PLAYED = ST_OFFSETS["n_played"]
ST_TRICK_NO = ST_OFFSETS["trick_no"]
ST_N_IN = ST_OFFSETS["n_in"]
ST_LEADER = ST_OFFSETS["leader"]
ST_TO_MOVE = ST_OFFSETS["to_move"]
ST_LED = ST_OFFSETS["led"]
ST_BEST_I = ST_OFFSETS["best_i"]
ST_BEST_S = ST_OFFSETS["best_s"]
ST_BEST_TRUMP = ST_OFFSETS["best_trump"]
ST_GONE = ST_OFFSETS["gone"]
ST_TRICK_MASK = ST_OFFSETS["trick_mask"]
ST_IN_PLAY = ST_OFFSETS["in_play"]
ST_HANDS = ST_OFFSETS["hands"]
ST_DOWN = ST_OFFSETS["down"]
ST_POINTS = ST_OFFSETS["points"]
ST_TRICKS = ST_OFFSETS["tricks"]
ST_PLAYED = ST_OFFSETS["played"]
ST_LEADERS = ST_OFFSETS["leaders"]
ST_UNDER = ST_OFFSETS["under"]


@njit(cache=True, forceinline=True)
def seat_of_play(st, rec, i):
    """The seat that played the ``i``-th card of the hand (``ST_PLAYED + i``): its trick's leader
    plus its place in the trick."""
    n = rec.n_players
    t = i // n
    return seat_after(st[ST_LEADERS + t], i - t * n, n)


@njit(cache=True, forceinline=True)  # LLVM inlines it into the hand: a call would cost its arrays' reference counts
def init_state(st, rec, hands, under, trump, taker, leader):
    """Fill ``st`` with the position at the first card of the hand.

    hands: per seat, the playable cards (uint32/int64 masks; Dekjas: face up).
    under: int64[32], Dekjas: the face-down card under each face-up card, -1 for none;
    the face-down cards become each seat's ``ST_DOWN``. Other variants have no piles:
    ``under`` is not read.
    """
    for i in range(ST_PLAYED):  # every field is written once: the counters and masks start at 0
        st[i] = 0
    st[ST_TRUMP] = trump
    st[ST_TAKER] = taker
    st[ST_TAKER_SIDE] = side_of_seat(taker, rec)
    st[ST_LEADER] = leader
    st[ST_TO_MOVE] = leader
    st[ST_LED] = -1
    st[ST_BEST_S] = -1
    st[ST_BEST_TRUMP] = -1
    for s in range(rec.n_players):
        st[ST_HANDS + s] = np.int64(hands[s])
    for i in range(N_CARDS):
        st[ST_PLAYED + i] = -1
        st[ST_UNDER + i] = under[i] if has_piles(rec) else -1
    for t in range(MAX_TRICKS + 1):
        st[ST_LEADERS + t] = -1
    st[ST_LEADERS] = leader
    for s in range(rec.n_players):
        h = np.int64(hands[s])
        if has_piles(rec):
            m = h
            while m:
                c = lowest_card(np.uint32(m))
                m &= m - 1
                if under[c] >= 0:
                    st[ST_DOWN + s] |= np.int64(1) << under[c]
        st[ST_IN_PLAY] |= h | st[ST_DOWN + s]


@njit(cache=True, forceinline=True)
def trick_step(k, card, trump, led, best_i, best_s, best_trump):
    """Card ``card`` is the k-th of the trick: the suit led, the position and strength of
    the card winning it so far, and the rank of the highest trump in it (-1: none), after
    it (RULES.md §4: highest trump, else highest card of the suit led). Scalars in and
    out, so ``play_card`` keeps the trick in registers between its loads and its stores."""
    if k == 0:
        led = card >> 3
        best_i = 0
        best_s = -1
        best_trump = -1
    s = strength(card, trump, led)
    if s > best_s:
        best_s = s
        best_i = k
    if (card >> 3) == trump:
        r = card & 7
        if best_trump < 0 or TRUMP_ORDER[r] > TRUMP_ORDER[best_trump]:
            best_trump = r
    return led, best_i, best_s, best_trump


@njit(cache=True, forceinline=True)
def legal_cards(st, rec):
    """The cards the seat to move may play (RULES.md §4 via ``legal_mask``), a uint32."""
    seat = st[ST_TO_MOVE]
    k = st[ST_N_IN]
    partner_winning = 0
    partners = has_partners(rec)
    if k > 0 and partners:  # §4.4 the partner exception
        winner = seat_after(st[ST_LEADER], st[ST_BEST_I], rec.n_players)
        partner_winning = 1 if side_of(winner, partners) == side_of(seat, partners) else 0
    led = st[ST_LED] if k > 0 else -1
    return legal_mask(np.uint32(st[_u(ST_HANDS + seat)]), led, st[ST_BEST_TRUMP] if k > 0 else -1,
                      st[ST_TRUMP], partner_winning, rec.undertrump_free)


@njit(cache=True, forceinline=True)
def _completed_trick_points(mask, trump, t, rec):
    """Card points of the cards of trick ``t`` (``mask``, in registers), the last trick's 10 included:
    summed from the played cards they were a gather from the state, about 10% of a random hand's play
    (docs/BENCHMARKS.md, 2026-12-05)."""
    pts = mask_points(mask, trump)
    if t == rec.n_tricks - 1:
        pts += LAST_TRICK_BONUS
    return pts


@njit(cache=True, forceinline=True)
def trick_points(st, rec, t):
    """Card points of completed trick t, the last trick's 10 included."""
    n = rec.n_players
    m = np.int64(0)
    for j in range(n):  # no slice: a view of the state would cost reference counts on every trick
        m |= np.int64(1) << st[_u(ST_PLAYED + t * n + j)]
    return _completed_trick_points(m, st[ST_TRUMP], t, rec)


@njit(cache=True, forceinline=True)
def play_card(st, rec, card):
    """The seat to move plays ``card`` (which must be legal). Returns the trick's winner
    when this card completes a trick, else -1."""
    n = rec.n_players
    # every load before the first store: a store at a computed offset (the seat's hand, the
    # i-th card played) may be any field for the compiler, and would make each later load
    # a real one on the hand loop's critical path
    seat = st[ST_TO_MOVE]
    k = st[ST_N_IN]
    trump = st[ST_TRUMP]
    n_played = st[ST_N_PLAYED]
    hand = st[_u(ST_HANDS + seat)]
    gone = st[ST_GONE]
    trick_mask = st[ST_TRICK_MASK]
    led, best_i, best_s, best_trump = -1, 0, -1, -1
    if k > 0:
        led, best_i, best_s, best_trump = st[ST_LED], st[ST_BEST_I], st[ST_BEST_S], st[ST_BEST_TRUMP]
    led, best_i, best_s, best_trump = trick_step(k, card, trump, led, best_i, best_s, best_trump)
    b = np.int64(1) << card
    hand &= ~b
    if has_piles(rec):
        below = st[_u(ST_UNDER + card)]
        if below >= 0:
            # §4 Dekjas: the face-down card under a played face-up card turns face up
            hand |= np.int64(1) << below
            st[_u(ST_DOWN + seat)] &= ~(np.int64(1) << below)
    st[_u(ST_HANDS + seat)] = hand
    st[ST_GONE] = gone | b
    st[_u(ST_PLAYED + n_played)] = card
    st[ST_N_PLAYED] = n_played + 1
    if k + 1 < n:
        st[ST_TRICK_MASK] = trick_mask | b
        st[ST_LED] = led
        st[ST_BEST_I] = best_i
        st[ST_BEST_S] = best_s
        st[ST_BEST_TRUMP] = best_trump
        st[ST_N_IN] = k + 1
        st[ST_TO_MOVE] = next_seat(seat, n)
        return -1
    # the trick is complete
    winner = seat_after(st[ST_LEADER], best_i, n)
    t = st[ST_TRICK_NO]
    side = side_of_seat(winner, rec)
    st[_u(ST_POINTS + side)] += _completed_trick_points(trick_mask | b, trump, t, rec)
    st[_u(ST_TRICKS + side)] += 1
    st[ST_TRICK_NO] = t + 1
    st[_u(ST_LEADERS + t + 1)] = winner
    st[ST_LEADER] = winner
    st[ST_TO_MOVE] = winner
    st[ST_N_IN] = 0
    st[ST_LED] = -1
    st[ST_BEST_I] = 0
    st[ST_BEST_S] = -1
    st[ST_BEST_TRUMP] = -1
    st[ST_TRICK_MASK] = 0
    return winner


@njit(cache=True, forceinline=True)
def undo_card(st, rec):
    """Take back the last card played; the state becomes exactly what it was before."""
    n = rec.n_players
    i = st[ST_N_PLAYED] - 1
    if i < 0:
        return
    card = st[ST_PLAYED + i]
    if st[ST_N_IN] == 0:
        # the card completed trick t: take the trick back from its winner
        t = st[ST_TRICK_NO] - 1
        winner = st[ST_LEADERS + t + 1]
        side = side_of_seat(winner, rec)
        k = n - 1
        m = np.int64(0)
        for j in range(k):
            m |= np.int64(1) << st[_u(ST_PLAYED + t * n + j)]
        st[ST_TRICK_MASK] = m
        st[_u(ST_POINTS + side)] -= _completed_trick_points(m | (np.int64(1) << card), st[ST_TRUMP], t, rec)
        st[_u(ST_TRICKS + side)] -= 1
        st[_u(ST_LEADERS + t + 1)] = -1
        st[ST_TRICK_NO] = t
        st[ST_LEADER] = st[_u(ST_LEADERS + t)]
    else:
        k = st[ST_N_IN] - 1
        st[ST_TRICK_MASK] &= ~(np.int64(1) << card)
    st[ST_PLAYED + i] = -1
    st[ST_N_PLAYED] = i
    st[ST_N_IN] = k
    seat = seat_after(st[ST_LEADER], k, n)
    st[ST_TO_MOVE] = seat
    b = np.int64(1) << card
    st[ST_GONE] &= ~b
    below = st[ST_UNDER + card]
    if below >= 0:
        st[ST_HANDS + seat] &= ~(np.int64(1) << below)
        st[ST_DOWN + seat] |= np.int64(1) << below
    st[ST_HANDS + seat] |= b
    # the trick so far, from the cards still in it
    led, best_i, best_s, best_trump = -1, 0, -1, -1
    base = ST_PLAYED + st[ST_TRICK_NO] * n
    for j in range(k):
        led, best_i, best_s, best_trump = trick_step(j, st[base + j], st[ST_TRUMP], led, best_i, best_s, best_trump)
    st[ST_LED] = led
    st[ST_BEST_I] = best_i
    st[ST_BEST_S] = best_s
    st[ST_BEST_TRUMP] = best_trump


@njit(cache=True, forceinline=True)
def alive_mask(st):
    """Cards still held (Dekjas face down too) or in the current trick."""
    return st[ST_IN_PLAY] & (~st[ST_GONE] | st[ST_TRICK_MASK])


@njit(cache=True, forceinline=True)
def is_over(st, rec):
    return st[ST_TRICK_NO] >= rec.n_tricks


@njit(cache=True, forceinline=True)
def side_card_points(st, rec, side):
    """Card points of ``side`` so far; at the end of a classic hand a side with every
    trick has 252 (capot, RULES.md §6) and the other 0."""
    if team_scoring(rec) and st[ST_TRICKS + side] == rec.n_tricks:
        return np.int64(CAPOT_POINTS)
    return st[ST_POINTS + side]


@njit(cache=True)
def hand_result(st, rec, out_points, out_tricks):
    """Card points (last trick and classic capot included) and tricks per side."""
    for s in range(rec.n_sides):
        out_points[s] = side_card_points(st, rec, s)
        out_tricks[s] = st[ST_TRICKS + s]


# --- Python side ---------------------------------------------------------------------


def new_state() -> np.ndarray:
    return np.zeros(STATE_SIZE, np.int64)


def start_state(rules: Rules, hands, trump: int, taker: int, leader: int = 0) -> np.ndarray:
    """The state at the first trick from each seat's cards (masks or lists of card
    numbers), for classic and piekjas."""
    if rules.piles:
        raise ValueError("dekjas starts from piles: use dekjas_state")
    masks = np.zeros(MAX_SEATS, np.int64)
    for s, h in enumerate(hands):
        masks[s] = h if isinstance(h, (int, np.integer)) else sum(1 << int(c) for c in h)
    st = new_state()
    init_state(st, rules.record(), masks, np.full(N_CARDS, -1, np.int64), trump, taker, leader)
    return st


def dekjas_state(rules: Rules, piles, trump: int, taker: int, leader: int = 0) -> np.ndarray:
    """The Dekjas state at the first trick: ``piles[seat]`` is 8 ``(face_down, face_up)``
    card pairs."""
    masks = np.zeros(MAX_SEATS, np.int64)
    under = np.full(N_CARDS, -1, np.int64)
    for s, seat_piles in enumerate(piles):
        for down, up in seat_piles:
            masks[s] |= 1 << int(up)
            under[int(up)] = int(down)
    st = new_state()
    init_state(st, rules.record(), masks, under, trump, taker, leader)
    return st


def state_from_record(record: dict) -> tuple[np.ndarray, Rules]:
    """The start position of a played ``belote-deal/1`` record, and its rules."""
    from analyzer.rules.cards import parse_card, parse_suit

    opts = [f"{k}={v}" for k, v in record["rules"].items()]
    rules = Rules.make(record["variant"], record["players"], opts)
    trump = parse_suit(record["trump"])
    taker = int(record["troefmaker"])
    if rules.piles:
        piles = [[(parse_card(d), parse_card(u)) for d, u in seat] for seat in record["piles"]]
        return dekjas_state(rules, piles, trump, taker), rules
    hands = [[parse_card(c) for c in h] for h in record["start_hands"]]
    return start_state(rules, hands, trump, taker), rules


def record_plays(record: dict) -> list[tuple[int, int, int]]:
    """The cards of a played ``belote-deal/1`` record in the order played: ``(trick, seat, card)``."""
    from analyzer.rules.cards import parse_card

    return [(t, int(s), parse_card(c)) for t, trick in enumerate(record["tricks"]) for s, c in trick["plays"]]


def random_start(rules: Rules, rng) -> tuple[np.ndarray, list[int]]:
    """A random start position (tests and benchmarks): hands dealt from a shuffled deck
    (Dekjas piles in the DEAL_LOG.md order), a random trump and taker, seat 0 leading.
    Returns the state and the cards in play. ``rng``: a ``numpy.random.Generator``."""
    deck = [int(c) for c in rng.permutation(N_CARDS)]
    trump = int(rng.integers(4))
    taker = int(rng.integers(rules.players))
    if rules.piles:
        piles = [[(deck[2 * i + s], deck[16 + 2 * i + s]) for i in range(8)] for s in range(2)]
        return dekjas_state(rules, piles, trump, taker), deck
    k = rules.n_tricks
    hands = [deck[s * k:(s + 1) * k] for s in range(rules.players)]
    return start_state(rules, hands, trump, taker), deck[: k * rules.players]


def trick_so_far(st: np.ndarray, rules: Rules) -> list[tuple[int, int]]:
    """The current trick as ``(seat, card)`` pairs (the reference's notation)."""
    n = rules.players
    t, k, leader = int(st[ST_TRICK_NO]), int(st[ST_N_IN]), int(st[ST_LEADER])
    return [(seat_after.py_func(leader, j, n), int(st[ST_PLAYED + t * n + j])) for j in range(k)]


__all__ = [
    "STATE_SIZE", "init_state", "trick_step", "legal_cards", "play_card", "undo_card", "is_over", "hand_result", "trick_points",
    "side_card_points", "side_of_seat", "new_state", "start_state", "dekjas_state", "state_from_record",
    "random_start", "trick_so_far",
]
