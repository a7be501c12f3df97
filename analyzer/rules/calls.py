"""The calls of the bidding (RULES.md §3) and which of them are open: ``legal_calls``.

Every bidder, the ``take`` question's open calls, the suit runs and the rules API read the
open calls here, the way every player reads its legal cards from ``analyzer.rules.legal``.
The procedure that asks for them in turn (who calls, what a call ends) is the state of
``analyzer.game.auction``.

A set of calls is a mask, one bit per (call, suit), in the order a uniform choice counts
them (``nth_call``): pass, then take on each suit, smous on each suit, the two answers to a
smous, koe on each suit.

    bit  0       pass
    bits 1..4    take, suit ♣ ♦ ♥ ♠ (trump = that suit)
    bits 5..8    smous, suit ♣ ♦ ♥ ♠ (2 players: play on it, or redeal: the other chooses)
    bit  9       smous-play   (the answer: the smous bidder becomes troefmaker)
    bit  10      smous-redeal (the answer: the deal is annulled)
    bits 11..14  koe, suit ♣ ♦ ♥ ♠ (seat 0 forced to play after two passed rounds)
"""


from analyzer.compiling import njit
from analyzer.rules.structure import has_koe, has_smous
from analyzer.rules.cards import N_SUITS, nth_card

# calls, as in DEAL_LOG.md bids[].call
PASS, TAKE, SMOUS, SMOUS_PLAY, SMOUS_REDEAL, KOE = 0, 1, 2, 3, 4, 5
CALL_NAMES = ("pass", "take", "smous", "smous-play", "smous-redeal", "koe")
KOE_ROUND = 3  # the koe is recorded as round 3: it follows two passed rounds

# bidding outcomes
PLAYED, PASSED_OUT, REDEAL = 0, 1, 2

# the mask's layout (module docstring)
PASS_BIT = 0
TAKE_BIT = 1  # + suit
SMOUS_BIT = 5  # + suit
PLAY_BIT = 9
REDEAL_BIT = 10
KOE_BIT = 11  # + suit
N_CALL_BITS = 15
ALL_SUITS = (1 << N_SUITS) - 1
ANSWERS = (1 << PLAY_BIT) | (1 << REDEAL_BIT)  # §3 piekjas.5: the other player plays or redeals


@njit(cache=True, forceinline=True)
def trump_suits(rec, rnd, turned_suit):
    """The suits a call of round ``rnd`` may make trump, a 4-bit mask: round 1 the turned
    card's suit (§3 classic.2, piekjas.2); round 2 another suit (§3 classic.3), any of the
    four under ``round2_suits=any`` (§3 piekjas.3, the default outside classic); the koe any
    suit (§3 piekjas.4), and none in classic, where a hand passed twice is passed out
    (§3 classic.4)."""
    if rnd == 1:
        return 1 << turned_suit
    if rnd == 2:
        return ALL_SUITS if rec.round2_any else ALL_SUITS & ~(1 << turned_suit)
    return ALL_SUITS if has_koe(rec) else 0


@njit(cache=True, forceinline=True)
def legal_calls(rec, rnd, turned_suit):
    """The calls open to the seat whose turn it is in round ``rnd`` (1, 2 or ``KOE_ROUND``),
    a mask (module docstring). Rounds 1 and 2: pass, take on each of ``trump_suits`` and,
    with 2 players, smous on each of them. The koe round: koe on a suit of seat 0's choice,
    no pass (classic: no call, the hand is passed out)."""
    suits = trump_suits(rec, rnd, turned_suit)
    if rnd == KOE_ROUND:
        return suits << KOE_BIT
    m = (1 << PASS_BIT) | (suits << TAKE_BIT)
    if has_smous(rec):  # §3 piekjas.2-3, dekjas.2: 2 players, never classic
        m |= suits << SMOUS_BIT
    return m


@njit(cache=True, forceinline=True)
def call_bit(call, suit):
    """The bit of (``call``, ``suit``) in a mask of calls (``suit`` ignored where the call has none)."""
    if call == PASS:
        return PASS_BIT
    if call == TAKE:
        return TAKE_BIT + suit
    if call == SMOUS:
        return SMOUS_BIT + suit
    if call == SMOUS_PLAY:
        return PLAY_BIT
    if call == SMOUS_REDEAL:
        return REDEAL_BIT
    return KOE_BIT + suit


@njit(cache=True, forceinline=True)
def call_of_bit(b):
    """(call, suit) of bit ``b`` of a mask of calls (suit -1 for pass and the answers)."""
    if b == PASS_BIT:
        return PASS, -1
    if b < SMOUS_BIT:
        return TAKE, b - TAKE_BIT
    if b < PLAY_BIT:
        return SMOUS, b - SMOUS_BIT
    if b == PLAY_BIT:
        return SMOUS_PLAY, -1
    if b == REDEAL_BIT:
        return SMOUS_REDEAL, -1
    return KOE, b - KOE_BIT


@njit(cache=True, forceinline=True)
def nth_call(mask, k):
    """The ``k``-th call (from 0) of ``mask`` in bit order: a uniform choice among the open
    calls is ``nth_call(mask, rand_below(rng, popcount(mask)))``."""
    return call_of_bit(nth_card(mask, k))


def calls_in(mask: int) -> list[tuple[int, int]]:
    """Every (call, suit) of a mask of calls, in bit order (plain Python)."""
    return [call_of_bit.py_func(b) for b in range(N_CALL_BITS) if mask >> b & 1]


__all__ = ["PASS", "TAKE", "SMOUS", "SMOUS_PLAY", "SMOUS_REDEAL", "KOE", "CALL_NAMES", "KOE_ROUND", "PLAYED",
           "PASSED_OUT", "REDEAL", "ANSWERS", "trump_suits", "legal_calls", "call_bit", "call_of_bit",
           "nth_call", "calls_in"]
