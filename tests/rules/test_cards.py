"""The bit tricks of analyzer.rules.cards against obvious Python, and the tables against RULES.md §1."""

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from analyzer.rules.cards import (
    LANE_PLAIN_POINTS,
    LANE_TRUMP_POINTS,
    PLAIN_HIGHER_LANE,
    PLAIN_ORDER,
    TRUMP_HIGHER_LANE,
    TRUMP_ORDER,
    _nth_card_select,
    lowest_card,
    mask_points,
    nth_card,
    parse_cards,
    popcount,
    cards_to_mask,
)

masks = st.integers(min_value=1, max_value=2**32 - 1)


@settings(max_examples=3000, deadline=None)  # the first example loads the kernels
@given(masks, st.data())
def test_nth_card_popcount_and_lowest_card_match_python(m, data):
    """nth_card is PDEP's where the CPU has it (cards.HAS_PDEP), else the lane-table select, which
    is checked here too: the two give the same card."""
    bits = [i for i in range(32) if m >> i & 1]
    k = data.draw(st.integers(min_value=0, max_value=len(bits) - 1))
    assert popcount(np.uint32(m)) == len(bits)
    assert lowest_card(np.uint32(m)) == bits[0]
    assert nth_card(np.uint32(m), k) == bits[k]
    assert _nth_card_select(np.uint32(m), k) == bits[k]


def test_higher_lanes_follow_the_trick_orders():
    for r in range(8):
        for q in range(8):
            assert bool(TRUMP_HIGHER_LANE[r] >> q & 1) == (TRUMP_ORDER[q] > TRUMP_ORDER[r])
            assert bool(PLAIN_HIGHER_LANE[r] >> q & 1) == (PLAIN_ORDER[q] > PLAIN_ORDER[r])


def test_trump_order_is_j_9_a_10_k_q_8_7():
    order = sorted(range(8), key=lambda r: -TRUMP_ORDER[r])
    assert [("789TJQKA")[r] for r in order] == list("J9ATKQ87")


def test_plain_order_is_a_10_k_q_j_9_8_7():
    order = sorted(range(8), key=lambda r: -PLAIN_ORDER[r])
    assert [("789TJQKA")[r] for r in order] == list("ATKQJ987")


def test_lane_point_tables_and_mask_points():
    assert LANE_TRUMP_POINTS[0xFF] == 62 and LANE_PLAIN_POINTS[0xFF] == 30
    hand = cards_to_mask(parse_cards("Jh 9h Ah Tc 7s Qd"))
    # trump hearts: J 20 + 9 14 + A 11; plain: 10 + 0 + 3
    assert mask_points(np.uint32(hand), 2) == 20 + 14 + 11 + 10 + 0 + 3
    assert mask_points(np.uint32(0xFFFFFFFF), 0) == 152
