"""Declarations (roem) and stuk: RULES.md §5.

A declaration is (kind, cards mask, points). Kinds: ``SEQUENCE`` (a maximal run of 3 or
more consecutive cards of one suit in sequence order A K Q J 10 9 8 7, which is rank
order, so a run of bits in a suit lane) and ``CARRE`` (all four cards of one rank).

Which declaration is higher is decided by an integer *key* (higher wins):
``roem_compare=cards``: ``n_cards * 16 + top``; ``roem_compare=points``:
``points * 256 + n_cards * 16 + top``, where ``top`` is the trick strength of the
declaration's highest card with every trump (8..15) above every plain card (0..7).
"""

import numpy as np

from analyzer.compiling import njit
from analyzer.rules.cards import N_SUITS, PLAIN_ORDER, RK, RQ, TRUMP_ORDER, lane, popcount
from analyzer.rules.seats import side_of

SEQUENCE, CARRE = 0, 1
KIND_NAMES = ("sequence", "carre")
MAX_DECLARATIONS = 16  # 4 suits x 2 runs + 6 carrés fit

# CARRE_POINTS[rank]: a carré of J 200, of 9 150, of A, 10, K or Q 100; 8s and 7s nothing.
CARRE_POINTS = np.array(
    [
        0,    # 7
        0,    # 8
        150,  # 9
        100,  # 10
        200,  # J
        100,  # Q
        100,  # K
        100,  # A
    ],
    dtype=np.int64,
)

# SEQUENCE_POINTS[length]: 3 cards 20, 4 cards 50, 5 or more 100 (0..2: not a sequence).
SEQUENCE_POINTS = np.array([0, 0, 0, 20, 50, 100, 100, 100, 100], dtype=np.int64)
STUK_POINTS = 20  # §5: the K and Q of trump in one hand


def _lane_top(order):
    """For every 8-bit lane, the highest trick order among its cards (-1 for none)."""
    out = np.full(256, -1, dtype=np.int64)
    for lane_bits in range(1, 256):
        out[lane_bits] = max(order[r] for r in range(8) if lane_bits >> r & 1)
    return out


# LANE_TOP_TRUMP[lane] / LANE_TOP_PLAIN[lane]: the trick order (0..7) of the strongest card
# of an 8-bit lane read as trump / as a plain suit; -1 for an empty lane.
LANE_TOP_TRUMP = _lane_top(TRUMP_ORDER)
LANE_TOP_PLAIN = _lane_top(PLAIN_ORDER)


@njit(cache=True)
def _top_strength(mask, trump):
    """Trick strength of the highest card of ``mask``, trumps (8..15) above plain (0..7)."""
    best = -1
    for s in range(N_SUITS):
        ln = lane(mask, s)
        if ln != 0:
            v = 8 + LANE_TOP_TRUMP[ln] if s == trump else LANE_TOP_PLAIN[ln]
            if v > best:
                best = v
    return best


@njit(cache=True)
def declaration_key(cards_mask, points, trump, by_points):
    """The comparison key of one declaration (§5, option roem_compare)."""
    key = popcount(cards_mask) * 16 + _top_strength(cards_mask, trump)
    if by_points:
        key += points * 256
    return key


# Bits where a run of three can start inside a lane (lane bits 0..5).
RUN3_START_MASK = 0x3F3F3F3F
# Carré ranks that score: 9 10 J Q K A (lane bits 2..7).
CARRE_RANKS_MASK = 0xFC


@njit(cache=True)
def has_declaration(seq_pool, carre_pool):
    """Fast test: does any run of 3 or any scoring carré exist? (Most hands have none.)"""
    m = np.uint32(seq_pool)
    runs = m & (m >> np.uint32(1)) & (m >> np.uint32(2)) & np.uint32(RUN3_START_MASK)
    c = np.uint32(carre_pool)
    quads = c & (c >> np.uint32(8)) & (c >> np.uint32(16)) & (c >> np.uint32(24)) & np.uint32(CARRE_RANKS_MASK)
    return runs != 0 or quads != 0


def _lane_runs():
    """For every 8-bit lane, its maximal runs of 3 or more set bits (at most 2 fit in 8 bits), lowest
    first, as lane masks: ``LANE_RUNS[2 * lane + j]``, 0 where there is no j-th run."""
    out = np.zeros(2 * 256, dtype=np.int64)
    for lane_bits in range(256):
        runs, r = [], 0
        while r < 8:
            if lane_bits >> r & 1:
                start = r
                while r < 8 and lane_bits >> r & 1:
                    r += 1
                if r - start >= 3:
                    runs.append(((1 << (r - start)) - 1) << start)
            else:
                r += 1
        out[2 * lane_bits:2 * lane_bits + len(runs)] = runs
    return out


# LANE_RUNS[2 * lane + j]: the j-th maximal run of 3+ cards of an 8-bit lane (a table: a loop over
# the bits costs a random hand 8% of its time)
LANE_RUNS = _lane_runs()


@njit(cache=True, forceinline=True)
def lane_run(seq_pool, s, j):
    """The j-th (0 or 1) sequence of suit ``s`` in ``seq_pool``, a uint32 card mask; 0 for none."""
    return np.uint32(np.uint32(LANE_RUNS[2 * lane(seq_pool, s) + j]) << np.uint32(8 * s))


# compiled once and called, not inlined: see analyzer.runs.hand.run_bidding
@njit(cache=True, _nrt=False)
def find_declarations(seq_pool, carre_pool, out_kind, out_mask, out_points):
    """Every declaration in the given cards; returns how many were written.

    Sequences are the maximal runs of 3+ in ``seq_pool``; carrés the full ranks in
    ``carre_pool`` (for classic and piekjas both are the hand; Dekjas passes its face-up
    cards less those already used in a declaration of that kind, §5 'When').
    Order: sequences by suit then rank, then carrés by rank.
    """
    n = 0
    seq_pool = np.uint32(seq_pool)
    carre_pool = np.uint32(carre_pool)
    if not has_declaration(seq_pool, carre_pool):
        return 0
    for s in range(N_SUITS):
        for j in range(2):
            run = lane_run(seq_pool, s, j)
            if run == 0:
                break
            out_kind[n] = SEQUENCE
            out_mask[n] = run
            out_points[n] = SEQUENCE_POINTS[popcount(run)]
            n += 1
    for r in range(8):
        if CARRE_POINTS[r] == 0:
            continue
        m = np.uint32(0x01010101) << np.uint32(r)
        if carre_pool & m == m:
            out_kind[n] = CARRE
            out_mask[n] = m
            out_points[n] = CARRE_POINTS[r]
            n += 1
    return n


# compiled once and called, not inlined: see analyzer.runs.hand.run_bidding
@njit(cache=True, _nrt=False)
def roem_winner(best_key, n_players, partners, tie_first):
    """The side that scores declarations, or -1 (§5 'Who scores').

    best_key[seat]: the key of the seat's best single declaration, -1 for none.
    The side with the highest best declaration scores; if the two highest are equal,
    nobody (roem_tie=none) or the earlier seat holding it (roem_tie=first).
    """
    top = -1
    top_seat = np.int64(-1)  # not a literal -1: side_of compiles once (numba types literal ints apart)
    for s in range(n_players):
        if best_key[s] > top:
            top = best_key[s]
            top_seat = s
    if top < 0:
        return -1
    winner = side_of(top_seat, partners)
    for s in range(n_players):
        if best_key[s] == top and side_of(s, partners) != winner:
            # an equal best declaration on another side
            if tie_first:
                return winner  # top_seat is the earliest seat holding the best
            return -1
    return winner


# compiled once and called, not inlined: see analyzer.runs.hand.run_bidding
@njit(cache=True, _nrt=False)
def stuk_seat(cards_by_seat, n_players, trump):
    """The seat holding both the K and the Q of trump (§5 'Stuk'), or -1."""
    m = (np.uint32(1) << np.uint32(8 * trump + RK)) | (np.uint32(1) << np.uint32(8 * trump + RQ))
    for s in range(n_players):
        if np.uint32(cards_by_seat[s]) & m == m:
            return s
    return -1


@njit(cache=True, _nrt=False)
def declare_new(seq_pool, carre_pool, trump, by_points):
    """What ``find_declarations`` finds in the pools, summed: (its points, the key of its best
    declaration or -1, the cards its sequences use, the cards its carrés use). Dekjas' trick
    winner declares this with its face-up cards less those already used by a declaration of the
    kind (§5 'When'); the searching players' play-outs count it without the list."""
    seq_pool = np.uint32(seq_pool)
    carre_pool = np.uint32(carre_pool)
    pts = 0
    best = -1
    seq_used = np.uint32(0)
    carre_used = np.uint32(0)
    if not has_declaration(seq_pool, carre_pool):
        return pts, best, seq_used, carre_used
    for s in range(N_SUITS):
        for j in range(2):
            run = lane_run(seq_pool, s, j)
            if run == 0:
                break
            points = SEQUENCE_POINTS[popcount(run)]
            pts += points
            best = max(best, declaration_key(run, points, trump, by_points))
            seq_used |= run
    for r in range(8):
        if CARRE_POINTS[r] == 0:
            continue
        m = np.uint32(np.uint32(0x01010101) << np.uint32(r))  # numba widens a uint32 shift: one type for declaration_key
        if carre_pool & m == m:
            pts += CARRE_POINTS[r]
            best = max(best, declaration_key(m, CARRE_POINTS[r], trump, by_points))
            carre_used |= m
    return pts, best, seq_used, carre_used
