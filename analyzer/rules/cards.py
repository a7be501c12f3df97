"""Cards as bits, the lookup tables of RULES.md §1, and card notation.

Layout
------
A card is ``suit * 8 + rank``; a set of cards is a ``uint32`` with one 8-bit lane per
suit::

    bit  31 ........ 24 | 23 ........ 16 | 15 ......... 8 | 7 .......... 0
         spades (s, 3)  | hearts (h, 2)  | diamonds (d, 1)| clubs (c, 0)
    lane bit:  7  6  5  4  3  2  1  0
    rank:      A  K  Q  J  T  9  8  7

Rank numbers follow the *sequence order* of declarations (A K Q J 10 9 8 7, RULES.md
§1), so a run of consecutive ranks is a run of consecutive bits. Trick strength and
points depend on whether the suit is trump and come from the tables below.

The tables are numpy arrays so numba kernels can take them as globals (frozen at
compile time; they never change) and the Python reference can read the same numbers.
"""

from __future__ import annotations

import llvmlite.binding as llvm
import llvmlite.ir as ir
import numpy as np
from numba import types
from numba.extending import intrinsic

from analyzer.compiling import njit, unsigned_index
from analyzer.errors import BeloteError

# --- constants -----------------------------------------------------------------------

N_SUITS = 4
N_RANKS = 8
N_CARDS = N_SUITS * N_RANKS  # 32
NO_CARD = -1
NO_SUIT = -1

CLUBS, DIAMONDS, HEARTS, SPADES = 0, 1, 2, 3
R7, R8, R9, RT, RJ, RQ, RK, RA = range(8)

LANE_MASK = 0xFF  # the eight bits of one suit
ALL_CARDS_MASK = 0xFFFFFFFF

# --- lookup tables (index = rank 0..7 = 7 8 9 T J Q K A) -------------------------------

# Trick order inside the trump suit, higher wins: J 9 A 10 K Q 8 7.
TRUMP_ORDER = np.array(
    [
        0,  # 7
        1,  # 8
        6,  # 9  (nel)
        4,  # 10
        7,  # J  (jas)
        2,  # Q
        3,  # K
        5,  # A
    ],
    dtype=np.int64,
)

# Trick order in a plain suit, higher wins: A 10 K Q J 9 8 7.
PLAIN_ORDER = np.array(
    [
        0,  # 7
        1,  # 8
        2,  # 9
        6,  # 10
        3,  # J
        4,  # Q
        5,  # K
        7,  # A
    ],
    dtype=np.int64,
)

# Card points in the trump suit: J 20, 9 14, A 11, 10 10, K 4, Q 3.
TRUMP_POINTS = np.array(
    [
        0,   # 7
        0,   # 8
        14,  # 9
        10,  # 10
        20,  # J
        3,   # Q
        4,   # K
        11,  # A
    ],
    dtype=np.int64,
)

# Card points in a plain suit: A 11, 10 10, K 4, Q 3, J 2.
PLAIN_POINTS = np.array(
    [
        0,   # 7
        0,   # 8
        0,   # 9
        10,  # 10
        2,   # J
        3,   # Q
        4,   # K
        11,  # A
    ],
    dtype=np.int64,
)

LAST_TRICK_BONUS = 10  # RULES.md §1: the last trick adds 10 (152 + 10 = 162)
TOTAL_CARD_POINTS = 152


def _lane_table(order):
    """For each trick-order rank r, the lane bits of the ranks that beat it."""
    out = np.zeros(N_RANKS, dtype=np.int64)
    for r in range(N_RANKS):
        for q in range(N_RANKS):
            if order[q] > order[r]:
                out[r] |= 1 << q
    return out


# TRUMP_HIGHER_LANE[r]: lane bits of the trumps that beat trump rank r
# (e.g. for the A: the 9 and the J). Shift by 8 * trump to get a card mask.
TRUMP_HIGHER_LANE = _lane_table(TRUMP_ORDER)
# PLAIN_HIGHER_LANE[r]: lane bits of the cards of a plain suit that beat rank r
# (e.g. for the K: the 10 and the A).
PLAIN_HIGHER_LANE = _lane_table(PLAIN_ORDER)


def _lane_points(points):
    """Points of every possible 8-bit lane (256 entries), for whole-mask sums."""
    out = np.zeros(256, dtype=np.int64)
    for lane in range(256):
        out[lane] = sum(points[r] for r in range(N_RANKS) if lane >> r & 1)
    return out


# LANE_TRUMP_POINTS[lane] / LANE_PLAIN_POINTS[lane]: the points of the cards in one
# 8-bit suit lane, read as trump or as a plain suit.
LANE_TRUMP_POINTS = _lane_points(TRUMP_POINTS)
LANE_PLAIN_POINTS = _lane_points(PLAIN_POINTS)

def _select_table():
    out = np.zeros(256 * 8, dtype=np.int64)
    for lane_bits in range(256):
        ranks = [r for r in range(8) if lane_bits >> r & 1]
        for k, r in enumerate(ranks):
            out[lane_bits * 8 + k] = r
    return out


# SELECT8[lane * 8 + k]: the rank of the k-th card (from the lowest) of an 8-bit lane.
SELECT8 = _select_table()

# POPCOUNT8[lane]: number of cards in an 8-bit lane.
POPCOUNT8 = np.array([bin(i).count("1") for i in range(256)], dtype=np.int64)


# --- kernels on cards and masks --------------------------------------------------------


@njit(cache=True)
def suit_of(card):
    return card >> 3


@njit(cache=True)
def rank_of(card):
    return card & 7


@njit(cache=True, forceinline=True)
def bit(card):
    return np.uint32(1) << np.uint32(card)


@njit(cache=True, forceinline=True)
def suit_mask(suit):
    """The card mask of a whole suit."""
    return np.uint32(LANE_MASK) << np.uint32(8 * suit)


@njit(cache=True, forceinline=True)
def lane(mask, suit):
    """The 8-bit lane of ``suit`` in ``mask``."""
    return np.int64((mask >> np.uint32(8 * suit)) & np.uint32(LANE_MASK))


@intrinsic
def _ctpop32(typingctx, x):
    """LLVM's population count on a uint32 (one POPCNT instruction)."""
    sig = types.int64(types.uint32)

    def codegen(context, builder, signature, args):
        return builder.zext(builder.ctpop(args[0]), ir.IntType(64))

    return sig, codegen


@intrinsic
def _cttz32(typingctx, x):
    """LLVM's count of trailing zeros on a uint32 (one TZCNT/BSF instruction)."""
    sig = types.int64(types.uint32)

    def codegen(context, builder, signature, args):
        return builder.zext(builder.cttz(args[0], ir.Constant(ir.IntType(1), 0)), ir.IntType(64))

    return sig, codegen


@intrinsic
def _cttz64(typingctx, x):
    """LLVM's count of trailing zeros on a uint64 (one TZCNT/BSF instruction)."""
    sig = types.int64(types.uint64)

    def codegen(context, builder, signature, args):
        return builder.cttz(args[0], ir.Constant(ir.IntType(1), 0))

    return sig, codegen


@njit(cache=True, forceinline=True)
def lowest_bit64(mask):
    """Index of the lowest set bit of a 64-bit ``mask`` (non-zero): for sets of more than 32 things."""
    return _cttz64(np.uint64(mask))


def _has_pdep() -> bool:
    """This machine's CPU has BMI2's PDEP (x86-64 since Haswell and Zen): ``nth_card`` deposits the
    n-th bit with it. On another CPU (ARM, older x86) the lane-table select below is compiled instead;
    both give the same card. (Numba's kernel cache is keyed by the CPU's features, so a cached kernel
    is never loaded on a CPU of the other kind.)"""
    if llvm.get_host_cpu_name() in ("znver1", "znver2"):
        return False  # AMD before Zen 3 has PDEP in microcode, slower than the table
    try:
        return "+bmi2" in llvm.get_host_cpu_features().flatten().split(",")
    except RuntimeError:  # features unknown
        return False


HAS_PDEP = _has_pdep()


@intrinsic
def _pdep32(typingctx, x, mask):
    """BMI2's parallel bit deposit on uint32s (one PDEP instruction; only where ``HAS_PDEP``)."""
    sig = types.uint32(types.uint32, types.uint32)

    def codegen(context, builder, signature, args):
        fn = builder.module.declare_intrinsic("llvm.x86.bmi.pdep.32", fnty=ir.FunctionType(ir.IntType(32), [ir.IntType(32)] * 2))
        return builder.call(fn, args)

    return sig, codegen


@njit(cache=True, forceinline=True)
def popcount(mask):
    """Number of cards in ``mask``."""
    return _ctpop32(np.uint32(mask))


@njit(cache=True, forceinline=True)
def lowest_card(mask):
    """Index of the lowest set bit (mask must be non-zero)."""
    return _cttz32(np.uint32(mask))


@njit(cache=True, forceinline=True)
def _nth_card_select(mask, n):
    """``nth_card`` without PDEP. Branch-free, because n is random in the random policy's hot loop:
    count the cards of the lanes below, pick the lane, then look the bit up in SELECT8."""
    m = np.uint32(mask)
    c1 = _ctpop32(m & np.uint32(0xFF))
    c2 = c1 + _ctpop32(m & np.uint32(0xFF00))
    c3 = c2 + _ctpop32(m & np.uint32(0xFF0000))
    ge1 = np.int64(n >= c1)
    ge2 = np.int64(n >= c2)
    ge3 = np.int64(n >= c3)
    lane_no = ge1 + ge2 + ge3
    below = ge1 * c1 + ge2 * (c2 - c1) + ge3 * (c3 - c2)
    byte = np.int64((m >> np.uint32(8 * lane_no)) & np.uint32(0xFF))
    return 8 * lane_no + SELECT8[unsigned_index(byte * 8 + (n - below))]


if HAS_PDEP:
    @njit(cache=True, forceinline=True)
    def nth_card(mask, n):
        """The n-th (0-based, from the lowest bit) card of ``mask``; n < popcount(mask): the n-th
        set bit deposited by PDEP (the random pick's critical path, once a card)."""
        return _cttz32(_pdep32(np.uint32(1) << np.uint32(n), np.uint32(mask)))
else:
    nth_card = _nth_card_select


@njit(cache=True, forceinline=True)
def strength(card, trump, led):
    """Trick strength of ``card``: 8..15 for a trump, 0..7 for the suit led, -1 else."""
    s = card >> 3
    r = card & 7
    if s == trump:
        return 8 + TRUMP_ORDER[r]
    if s == led:
        return PLAIN_ORDER[r]
    return -1


@njit(cache=True, forceinline=True)
def card_points(card, trump):
    if (card >> 3) == trump:
        return TRUMP_POINTS[card & 7]
    return PLAIN_POINTS[card & 7]


@njit(cache=True, forceinline=True)
def mask_points(mask, trump):
    """Card points of every card in ``mask``, read with ``trump`` as trump."""
    total = 0
    for s in range(N_SUITS):
        ln = lane(mask, s)
        if s == trump:
            total += LANE_TRUMP_POINTS[ln]
        else:
            total += LANE_PLAIN_POINTS[ln]
    return total


# --- notation (plain Python) -----------------------------------------------------------

SUIT_LETTERS = {"en": "cdhs", "nl": "krhs"}
SUIT_SYMBOLS = "♣♦♥♠"
RANK_LETTERS = {
    "en": ["7", "8", "9", "T", "J", "Q", "K", "A"],
    "nl": ["7", "8", "9", "10", "B", "V", "H", "A"],
}
SUIT_NAMES = {
    "en": ["clubs", "diamonds", "hearts", "spades"],
    "nl": ["klaveren", "ruiten", "harten", "schoppen"],
}
LANGUAGES = tuple(RANK_LETTERS)


class NotationError(BeloteError):
    """A card, hand or suit that cannot be read."""


def _check_lang(lang):
    if lang not in RANK_LETTERS:
        raise NotationError(f'unknown language "{lang}": use one of {", ".join(LANGUAGES)}')


def parse_suit(token: str, lang: str = "en") -> int:
    """A suit letter (``c d h s``; Dutch ``k r h s``) or symbol ``♣♦♥♠`` → suit number."""
    _check_lang(lang)
    t = token.strip()
    if len(t) == 1:
        if t in SUIT_SYMBOLS:
            return SUIT_SYMBOLS.index(t)
        letters = SUIT_LETTERS[lang]
        if t.lower() in letters:
            return letters.index(t.lower())
    raise NotationError(
        f'"{token}" is not a suit: suits are {" ".join(SUIT_LETTERS[lang])} (or {" ".join(SUIT_SYMBOLS)})'
    )


def parse_card(token: str, lang: str = "en") -> int:
    """``"Jh"`` → card number. English accepts ``10`` for ``T``; Dutch ``T`` for ``10``."""
    _check_lang(lang)
    t = token.strip()
    ranks = RANK_LETTERS[lang]
    if len(t) < 2:
        raise NotationError(
            f'"{token}" is not a card: write rank then suit, e.g. {ranks[4]}{SUIT_LETTERS[lang][2]}'
        )
    rank_tok, suit_tok = t[:-1].upper(), t[-1]
    aliases = {"10": "T"} if lang == "en" else {"T": "10"}
    rank_tok = aliases.get(rank_tok, rank_tok)
    if rank_tok not in ranks:
        raise NotationError(f'"{token}" is not a card: ranks are {" ".join(ranks)}')
    letters = SUIT_LETTERS[lang]
    if suit_tok in SUIT_SYMBOLS:
        suit = SUIT_SYMBOLS.index(suit_tok)
    elif suit_tok.lower() in letters:
        suit = letters.index(suit_tok.lower())
    else:
        raise NotationError(
            f'"{token}" is not a card: suits are {" ".join(letters)} (or {" ".join(SUIT_SYMBOLS)})'
        )
    return suit * 8 + ranks.index(rank_tok)


def parse_cards(text: str, lang: str = "en") -> list[int]:
    """A space- or comma-separated list of cards, in the order written. Duplicates are an error."""
    tokens = text.replace(",", " ").split()
    cards = [parse_card(t, lang) for t in tokens]
    seen = set()
    for tok, c in zip(tokens, cards):
        if c in seen:
            raise NotationError(f'"{tok}" appears twice: each card exists once')
        seen.add(c)
    return cards


def card_language(text: str) -> str:
    """The notation ``text`` is written in: ``en`` or ``nl``, recognised from the cards.

    The two notations share 7 8 9 A and 10 (``T``) and the suits h s, which read the
    same in both, so a card never means two different things: a token reads in both
    (same card), in one only (``Jc``, ``Kd``: English; ``Bh``, ``Vk``, ``Hr``: Dutch), or in
    neither. ``text`` is English unless some card reads only in Dutch; a mix of cards that
    read only in English and only in Dutch is an error.
    """
    tokens = text.replace(",", " ").split()
    only = {"en": [], "nl": []}
    for tok in tokens:
        ok = {}
        for lang in LANGUAGES:
            try:
                parse_card(tok, lang)
                ok[lang] = True
            except NotationError:
                ok[lang] = False
        for lang in LANGUAGES:
            if ok[lang] and not any(ok[other] for other in LANGUAGES if other != lang):
                only[lang].append(tok)
    if only["en"] and only["nl"]:
        raise NotationError(
            f'"{only["en"][0]}" is English and "{only["nl"][0]}" Dutch notation: write all cards in one '
            "(English J Q K, suits c d h s; Dutch B V H, suits k r h s)")
    return "nl" if only["nl"] else "en"


def parse_cards_in(text: str, lang: str | None = None) -> list[int]:
    """``parse_cards`` in ``lang``, or (``lang=None``) in the notation ``text`` is written in."""
    return parse_cards(text, lang or card_language(text))


def parse_piles(text: str, lang: str | None = None) -> list[tuple[int, int]]:
    """Dekjas piles as typed (docs/NOTATION.md): each pile its face-up card, a colon and the
    face-down card under it (``Jh:7c``), separated by spaces or commas; in ``lang``, or in the
    notation ``text`` is written in. Returns ``[(face_down, face_up)]``, DEAL_LOG.md's order."""
    lang = lang or card_language(text.replace(":", " "))
    out = []
    for tok in text.replace(",", " ").split():
        up, sep, down = tok.partition(":")
        if not sep or not up or not down:
            raise NotationError(f'"{tok}" is not a pile: write its face-up card, a colon and the face-down card '
                                "under it, e.g. Jh:7c")
        out.append((parse_card(down, lang), parse_card(up, lang)))
    return out


def parse_hand(text: str, lang: str = "en") -> int:
    """A hand in notation → its card mask."""
    return cards_to_mask(parse_cards(text, lang))


def format_card(card: int, lang: str = "en", symbols: bool = False) -> str:
    _check_lang(lang)
    suit, rank = divmod(int(card), 8)
    s = SUIT_SYMBOLS[suit] if symbols else SUIT_LETTERS[lang][suit]
    return RANK_LETTERS[lang][rank] + s


def format_suit(suit: int, lang: str = "en", symbols: bool = False) -> str:
    _check_lang(lang)
    return SUIT_SYMBOLS[suit] if symbols else SUIT_LETTERS[lang][suit]


def format_cards(cards, lang: str = "en", symbols: bool = False) -> str:
    return " ".join(format_card(c, lang, symbols) for c in cards)


def cards_to_mask(cards) -> int:
    m = 0
    for c in cards:
        m |= 1 << int(c)
    return m


def mask_to_cards(mask: int) -> list[int]:
    """Cards of a mask, lowest bit first (clubs 7 … spades A)."""
    mask = int(mask)
    return [c for c in range(N_CARDS) if mask >> c & 1]


def format_hand(mask: int, lang: str = "en", symbols: bool = False, trump: int = NO_SUIT) -> str:
    """A hand sorted for reading: by suit, trump first if given, high to low in trick order."""
    cards = mask_to_cards(mask)

    def key(c):
        s, r = divmod(c, 8)
        order = TRUMP_ORDER[r] if s == trump else PLAIN_ORDER[r]
        return (0 if s == trump else 1, s, -int(order))

    return format_cards(sorted(cards, key=key), lang, symbols)
