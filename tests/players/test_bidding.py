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
from analyzer.rules.cards import parse_card, parse_hand


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


# --- class overrides (analyzer.players.bidding.class_override) ------------------------------------


def _bid(rules, params, hand, turned, seat=0, rnd=1):
    from analyzer.players.bidding import HEURISTIC, choose_bid

    return choose_bid(HEURISTIC, params, seat, rnd, np.uint32(parse_hand(hand)), parse_card(turned), rules.record(),
                      np.zeros(1, np.uint64))


def _with_override(params, rnd, hand, suit, take):
    from analyzer.players.bidding import class_features, class_key, override_code
    from analyzer.players.policy_files import set_overrides

    p = params.copy()
    key = class_key(*class_features(np.uint32(parse_hand(hand)), suit))
    set_overrides(p, [override_code(rnd, key, take)])
    return p


def test_a_take_override_takes_a_class_the_threshold_passes():
    """Piekjas 3, round 1, turned Qh: J 9 of trump with a side ace scores below the
    threshold (the heuristic passes); a take override for its class (J9.., length 2, one
    side ace, no void) takes it, and a hand of another class still passes."""
    from analyzer.rules.calls import PASS, TAKE
    from analyzer.rules import Rules

    rules = Rules.make("piekjas", 3)
    p = default_bid_params("piekjas", 3)
    hand, other = "Jh 9h Ac 8s 7d", "Jh 8h Ac 8s 7d"
    assert suit_strength(np.uint32(parse_hand(hand)), 2, p) < p[13]
    assert _bid(rules, p, hand, "Qh") == (PASS, -1)
    q = _with_override(p, 1, hand, 2, take=True)
    assert _bid(rules, q, hand, "Qh") == (TAKE, 2)
    assert _bid(rules, q, other, "Qh") == (PASS, -1)
    assert _bid(rules, q, hand, "Qh", rnd=2)[0] == PASS  # the override is for round 1 only


def test_a_pass_override_passes_a_class_the_threshold_takes():
    """Piekjas 3, round 1, turned Qh: J 9 A of trump with a side ace reaches the threshold
    (the heuristic takes); a pass override for its class passes it."""
    from analyzer.rules.calls import PASS, TAKE
    from analyzer.rules import Rules

    rules = Rules.make("piekjas", 3)
    p = default_bid_params("piekjas", 3)
    hand = "Jh 9h Ah Ac 7d"
    assert suit_strength(np.uint32(parse_hand(hand)), 2, p) >= p[13]
    assert _bid(rules, p, hand, "Qh") == (TAKE, 2)
    assert _bid(rules, _with_override(p, 1, hand, 2, take=False), hand, "Qh") == (PASS, -1)


def test_a_pass_override_is_a_pass_not_a_smous_offer():
    """Piekjas 2: a hand just below the threshold offers smous; with a pass override for
    its class it passes (what the tables measured is take against pass)."""
    from analyzer.players.bidding import P_THR1
    from analyzer.rules.calls import PASS, SMOUS
    from analyzer.rules import Rules

    rules = Rules.make("piekjas", 2)
    p = default_bid_params("piekjas", 2)
    hand = "Jh 9h Ah Ac 7d"
    p[P_THR1] = suit_strength(np.uint32(parse_hand(hand)), 2, p) + 1  # just above: smous, not take
    assert _bid(rules, p, hand, "Qh")[0] == SMOUS
    assert _bid(rules, _with_override(p, 1, hand, 2, take=False), hand, "Qh") == (PASS, -1)
