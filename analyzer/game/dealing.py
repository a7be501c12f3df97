"""Random numbers and dealing (RULES.md §3, DEAL_LOG.md 'Dealing order').

Hand ``i`` of a run with seed ``s`` is a pure function of ``(s, i)``: its random stream is
SplitMix64 started from a hash of both, so the same seed gives the same hands whatever
the number of threads or the chunking. The stream also drives random policies.

The deal itself, from a shuffled deck: before the bidding, the cards each seat judges
(``bidding_hands``) and the Dekjas piles (``lay_piles``); after it, the Dix exchange, the
rest of the cards and the fille (``complete_deal``, ``dix_exchange``).
"""

import numpy as np

from analyzer.compiling import njit
from analyzer.rules.cards import N_CARDS, R7, bit
from analyzer.rules.structure import has_dix, has_piles, taker_gets_turned

GOLDEN = np.uint64(0x9E3779B97F4A7C15)
MIX1 = np.uint64(0xBF58476D1CE4E5B9)
MIX2 = np.uint64(0x94D049BB133111EB)


@njit(cache=True, forceinline=True)
def mix64(z):
    """SplitMix64's output function: a well-mixed 64 bits from a counter value."""
    z = (z ^ (z >> np.uint64(30))) * MIX1
    z = (z ^ (z >> np.uint64(27))) * MIX2
    return z ^ (z >> np.uint64(31))


@njit(cache=True, forceinline=True)
def seed_stream(rng, seed, index):
    """Start the stream of hand ``index`` of run ``seed`` in ``rng`` (a uint64[1])."""
    rng[0] = mix64(np.uint64(seed) * GOLDEN + mix64(np.uint64(index) + GOLDEN))


@njit(cache=True, forceinline=True)
def next_u64(rng):
    rng[0] += GOLDEN
    return mix64(rng[0])


@njit(cache=True, forceinline=True)
def rand_below(rng, n):
    """Uniform integer in [0, n), n < 2**32 (multiply-shift on the high 32 bits)."""
    return np.int64(((next_u64(rng) >> np.uint64(32)) * np.uint64(n)) >> np.uint64(32))


@njit(cache=True, forceinline=True)
def rand_unit(rng):
    """Uniform float in [0, 1)."""
    return np.float64(next_u64(rng) >> np.uint64(11)) * (1.0 / 9007199254740992.0)


# Without reference counting (it allocates nothing): called once a hand, and counting references to
# its arrays on every call is work nothing needs (docs/BENCHMARKS.md, 2026-12-03)
@njit(cache=True, _nrt=False)
def shuffle_deck(rng, deck):
    """A uniformly shuffled deck of the 32 cards (Fisher-Yates).

    Each 64-bit draw gives two 32-bit halves, each mapped to [0, i] by multiply-shift
    (bias below 2**-27 for i < 32); the stream state stays in a register meanwhile.
    """
    for i in range(N_CARDS):
        deck[i] = i
    state = rng[0]
    i = N_CARDS - 1
    while i > 0:
        state += GOLDEN
        z = mix64(state)
        hi = z >> np.uint64(32)
        lo = z & np.uint64(0xFFFFFFFF)
        j = np.int64((hi * np.uint64(i + 1)) >> np.uint64(32))
        t = deck[i]
        deck[i] = deck[j]
        deck[j] = t
        i -= 1
        if i > 0:
            j = np.int64((lo * np.uint64(i + 1)) >> np.uint64(32))
            t = deck[i]
            deck[i] = deck[j]
            deck[j] = t
            i -= 1
    rng[0] = state


@njit(cache=True)
def shuffle_rest(rng, deck, fixed, free_pos):
    """Shuffle only the positions of ``deck`` whose ``fixed`` flag is 0, among themselves
    (used to sample the unknown cards around the cards a player sees); ``free_pos``: int64
    scratch of ``N_CARDS`` (allocating nothing, it can be called from a kernel compiled
    without reference counting: ``analyzer.runs.driver.CHUNKS``)."""
    n_free = 0
    for i in range(N_CARDS):
        if fixed[i] == 0:
            free_pos[n_free] = i
            n_free += 1
    for k in range(n_free - 1, 0, -1):
        j = rand_below(rng, k + 1)
        a = free_pos[k]
        b = free_pos[j]
        t = deck[a]
        deck[a] = deck[b]
        deck[b] = t


# --- the dealing order of DEAL_LOG.md --------------------------------------------------


@njit(cache=True, forceinline=True)
def first_hands(deck, n_players, first_deal, out_hands):
    """Classic and piekjas: the blocks dealt before bidding; returns the turned card."""
    for s in range(n_players):
        m = np.uint32(0)
        for k in range(first_deal):
            m |= np.uint32(1) << np.uint32(deck[s * first_deal + k])
        out_hands[s] = m
    return deck[n_players * first_deal]


@njit(cache=True, forceinline=True)
def dekjas_piles(deck, out_down, out_up):
    """Dekjas: pile i of seat s is (deck[2i+s] face down, deck[16+2i+s] face up).
    Fills out_down[8 * s + i] and out_up[8 * s + i]; the turned card is deck[31]."""
    for i in range(8):
        for s in range(2):
            out_down[8 * s + i] = deck[2 * i + s]
            out_up[8 * s + i] = deck[16 + 2 * i + s]
    return deck[31]


@njit(cache=True, forceinline=True)
def bidding_hands(deck, rec, own):
    """§3: ``own[s]``, the cards seat s judges at bidding, from the dealt ``deck``: the blocks dealt
    before bidding (classic, piekjas), its face-up cards (Dekjas, as ``dekjas_piles`` lays them
    out); returns the turned card."""
    for s in range(own.shape[0]):
        own[s] = np.uint32(0)
    if has_piles(rec):
        for p in range(8):
            for s in range(2):
                own[s] |= bit(deck[16 + 2 * p + s])
        return deck[N_CARDS - 1]
    return first_hands(deck, rec.n_players, rec.first_deal, own)


@njit(cache=True, forceinline=True)
def lay_piles(deck, down, up, start, under):
    """§3 dekjas.1: each seat's piles (``dekjas_piles``), the 16 cards it owns (``start``) and the
    face-down card under each face-up card (``under``, -1 for the other cards)."""
    dekjas_piles(deck, down, up)
    for c in range(N_CARDS):
        under[c] = -1
    for s in range(2):
        start[s] = np.uint32(0)
        for p in range(8):
            start[s] |= bit(up[8 * s + p]) | bit(down[8 * s + p])
            under[up[8 * s + p]] = down[8 * s + p]


# --- after the bidding: the Dix, the rest of the cards, the fille (RULES.md §3) ---------


@njit(cache=True, forceinline=True)
def dix_exchange(hands, n, trump, turned):
    """§3 piekjas.6, the Dix: the holder of the trump 7 takes the turned card and leaves the 7 on
    the table (always done: never worse than keeping the 7). Returns the seat that exchanged
    (-1: no seat holds the 7) and the card on the table."""
    seven = 8 * trump + R7
    for s in range(n):
        if hands[s] & bit(seven):
            hands[s] = (hands[s] & ~bit(seven)) | bit(turned)
            return s, seven
    return -1, turned


@njit(cache=True, forceinline=True)
def complete_deal(deck, rec, own, hands, taker, trump, turned):
    """§3 after the bidding: from the cards each seat judged (``own``) to the cards it holds at
    the first trick (``hands``), for troefmaker ``taker`` and ``trump``:

    - Dekjas (dekjas.2): its face-up cards; no Dix, no fille;
    - classic and piekjas with 4 (classic.5, piekjas.8): the Dix (piekjas) right after bidding,
      then the troefmaker takes the card on the table and 2 more from the stock, the others 3
      each, in seat order;
    - piekjas with 2 or 3 (piekjas.6-7): the Dix right after bidding (``dix_timing=deal``,
      revision 1: after the last 3 cards; only the cards held then count), 3 more each, then
      the fille, the last card of the stock, turned face up; the card on the table and the
      rest of the stock stay out of play.

    Returns (the seat that made the Dix exchange or -1, the card on the table, the fille or -1)."""
    n = rec.n_players
    for s in range(n):
        hands[s] = own[s]
    dix_seat = -1
    table_card = turned
    fille = -1
    if has_piles(rec):
        return dix_seat, table_card, fille
    dix = (turned >> 3) == trump and has_dix(rec)
    p = n * rec.first_deal + 1  # the stock: the cards after the first blocks and the turned card
    if taker_gets_turned(rec):
        if dix:
            dix_seat, table_card = dix_exchange(hands, n, trump, turned)
        for s in range(n):
            k = 2 if s == taker else 3
            for j in range(k):
                hands[s] |= bit(deck[p + j])
            p += k
        hands[taker] |= bit(table_card)
        return dix_seat, table_card, fille
    if dix and not rec.dix_at_deal:
        dix_seat, table_card = dix_exchange(hands, n, trump, turned)
    for s in range(n):
        for j in range(3):
            hands[s] |= bit(deck[p + j])
        p += 3
    if dix and rec.dix_at_deal:
        dix_seat, table_card = dix_exchange(hands, n, trump, turned)
    fille = deck[N_CARDS - 1]
    return dix_seat, table_card, fille


@njit(cache=True)
def dealt_decks(seed, first, n):
    """The shuffled decks of hands first .. first+n-1 of run ``seed`` (for checks)."""
    out = np.empty((n, N_CARDS), np.int64)
    rng = np.zeros(1, np.uint64)
    for k in range(n):
        seed_stream(rng, seed, first + k)
        shuffle_deck(rng, out[k])
    return out
