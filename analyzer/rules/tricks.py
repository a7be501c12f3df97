"""Who wins a trick and what it is worth (RULES.md §1, §4)."""


from analyzer.compiling import njit
from analyzer.rules.cards import card_points, strength


@njit(cache=True)
def trick_winner_index(cards, n, trump):
    """Position (0..n-1) of the winning card in the trick ``cards[:n]``: the highest trump,
    else the highest card of the suit led (§4)."""
    led = cards[0] >> 3
    best = 0
    best_strength = strength(cards[0], trump, led)
    for i in range(1, n):
        s = strength(cards[i], trump, led)
        if s > best_strength:
            best = i
            best_strength = s
    return best


@njit(cache=True)
def trick_card_points(cards, n, trump):
    """Card points of the trick ``cards[:n]`` (without the last-trick bonus)."""
    total = 0
    for i in range(n):
        total += card_points(cards[i], trump)
    return total
