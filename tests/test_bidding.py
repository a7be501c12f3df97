"""The bidding heuristic's hand score: the bit-mask version against its plain definition."""

import random

import numpy as np

from analyzer.players.bidding import (
    P_W_LENGTH,
    P_W_SIDE_ACE,
    P_W_SIDE_TEN,
    P_W_STUK,
    P_W_VOID,
    default_bid_params,
    suit_strength,
)
from analyzer.rules.cards import parse_hand


def plain_strength(cards, t, p):
    """BID_PARAM_NAMES read literally: trump weights by rank, length beyond two, stuk,
    side aces, tens guarded by their ace, voids (with at least two trumps)."""
    trump = [(cards >> (8 * t + r)) & 1 for r in range(8)]
    n_trumps = sum(trump)
    score = sum(p[r] for r in range(8) if trump[r])
    score += p[P_W_LENGTH] * max(0, n_trumps - 2)
    score += p[P_W_STUK] if trump[6] and trump[5] else 0
    for s in range(4):
        if s == t:
            continue
        lane = (cards >> (8 * s)) & 0xFF
        if lane == 0:
            score += p[P_W_VOID] if n_trumps >= 2 else 0
        elif lane >> 7 & 1:
            score += p[P_W_SIDE_ACE] + (p[P_W_SIDE_TEN] if lane >> 3 & 1 else 0)
    return score


def test_suit_strength_matches_its_plain_definition():
    rng = random.Random(3)
    for variant, players in (("classic", 4), ("piekjas", 3), ("dekjas", 2)):
        p = default_bid_params(variant, players)
        for _ in range(20_000):
            cards = sum(1 << c for c in rng.sample(range(32), rng.randint(0, 9)))
            t = rng.randrange(4)
            assert suit_strength(np.uint32(cards), t, p) == plain_strength(cards, t, p)


def test_trump_jack_nine_and_an_ace_reach_the_classic_round_one_threshold():
    p = default_bid_params("classic", 4)
    hand = parse_hand("Jh 9h Ac 7d 8s")
    assert suit_strength(np.uint32(hand), 2, p) >= p[13] > suit_strength(np.uint32(parse_hand("7h 8c 9d Qs Kd")), 2, p)
