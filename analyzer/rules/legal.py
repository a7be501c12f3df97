"""Which cards may be played: the obligations of RULES.md §4, on card masks.

Obligations, in order (§4): 1 follow suit; 2 trump led: overtrump if you can, else any
trump; 3 cannot follow: trump, overtrump if the trick holds a trump, else still a lower
trump (option ``undertrump=free``: any card when an opponent's trump cannot be beaten);
4 classic: a partner currently winning frees you when you cannot follow.
"""

import numpy as np

from analyzer.compiling import njit
from analyzer.rules.cards import TRUMP_HIGHER_LANE, suit_mask


@njit(cache=True, forceinline=True)
def legal_mask(hand_mask, led, best_trump_rank, trump, partner_winning, undertrump_free):
    """The playable subset of ``hand_mask``.

    led: suit of the first card of the trick, -1 when leading.
    best_trump_rank: rank (0..7) of the highest trump already in the trick, -1 if none.
    partner_winning: 1 when the card currently winning is the player's partner's (classic).
    undertrump_free: the rules option (only matters when an opponent's trump leads).
    """
    hand_mask = np.uint32(hand_mask)
    if led < 0:
        return hand_mask  # leading: any card
    trumps = hand_mask & suit_mask(trump)
    if best_trump_rank >= 0:
        higher = trumps & (np.uint32(TRUMP_HIGHER_LANE[best_trump_rank]) << np.uint32(8 * trump))
    else:
        higher = trumps
    if led == trump:
        # §4.2 trump led: a higher trump if you can, else any trump (even over the partner)
        if higher:
            return higher
        if trumps:
            return trumps
        return hand_mask
    # §4.1 follow suit
    followers = hand_mask & suit_mask(led)
    if followers:
        return followers
    # §4.4 classic partner exception
    if partner_winning:
        return hand_mask
    # §4.3 cannot follow: trump, overtrumping if the trick holds a trump
    if trumps == 0:
        return hand_mask
    if higher:
        return higher
    # only lower trumps than an opponent's trump: undertrump (forced) or any card (free)
    if undertrump_free:
        return hand_mask
    return trumps
