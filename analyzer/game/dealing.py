"""Random numbers and dealing (RULES.md §3, DEAL_LOG.md 'Dealing order').

Hand ``i`` of a run with seed ``s`` is a pure function of ``(s, i)``: its random stream is
SplitMix64 started from a hash of both, so the same seed gives the same hands whatever
the number of threads or the chunking. The stream also drives random policies.
"""

import numpy as np

from analyzer.compiling import njit
from analyzer.rules.cards import N_CARDS

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


@njit(cache=True)
def dealt_decks(seed, first, n):
    """The shuffled decks of hands first .. first+n-1 of run ``seed`` (for checks)."""
    out = np.empty((n, N_CARDS), np.int64)
    rng = np.zeros(1, np.uint64)
    for k in range(n):
        seed_stream(rng, seed, first + k)
        shuffle_deck(rng, out[k])
    return out
