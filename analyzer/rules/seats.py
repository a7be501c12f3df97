"""Seats, sides and the dealer (RULES.md §2): the one place the engine reads them from.

Seats are numbered in playing order: seat 0 is voorhand (bids first, leads the first trick), the
last seat deals. In classic seats 0 + 2 play against 1 + 3; otherwise each seat is a side of its
own. Between the deals of a game the dealer moves one seat on, so the player at seat ``s`` sits at
seat ``s - 1`` at the next deal, and after ``rot`` moves seat ``s`` holds the player who sat at
seat ``s + rot`` at the game's first deal; the sides move the same way (classic's teams swap
sides each deal).

Numba kernels, inlined where they are called; Python code calls the same functions through
``.py_func`` (``analyzer.rules.options.Rules.side_of``), which compiles nothing.
"""

from analyzer.compiling import njit
from analyzer.rules.structure import has_partners

VOORHAND = 0  # bids first and leads the first trick; the koe when everyone passed twice (§3)


@njit(cache=True, forceinline=True)
def side_of(seat, partners):
    """The side ``seat`` plays for: with partners (classic) team ``seat & 1``, seats 0 + 2 against
    1 + 3; otherwise the seat itself."""
    return seat & 1 if partners else seat


@njit(cache=True, forceinline=True)
def side_of_seat(seat, rec):
    """The side ``seat`` plays for under the rules record ``rec`` (``side_of``)."""
    return side_of(seat, has_partners(rec))


@njit(cache=True, forceinline=True)
def seat_after(seat, k, n):
    """The seat ``k`` places after ``seat`` in playing order (0 <= k < n, ``n`` players)."""
    s = seat + k
    return s - n if s >= n else s


@njit(cache=True, forceinline=True)
def next_seat(seat, n):
    """The seat after ``seat`` in playing order."""
    return seat_after(seat, 1, n)


@njit(cache=True, forceinline=True)
def player_at(place, rot, count):
    """Who sits at seat (or side) ``place`` after ``rot`` moves of the dealer: the seat (or side)
    that player had at the game's first deal; ``count``: the number of seats (or sides)."""
    return (place + rot) % count


@njit(cache=True, forceinline=True)
def place_next_deal(place, count):
    """The seat (or side) where whoever sits at ``place`` sits at the next deal, once the dealer
    has moved on: one place back."""
    return (place + count - 1) % count
