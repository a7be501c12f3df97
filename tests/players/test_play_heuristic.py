"""The heuristic's leads as troefmaker (issue 10's taker fixes, version 2) and the old card
play kept as ``heuristic:v=1``. Hands in card notation; trump is hearts, seat 0 the taker,
and every card not in the seat's hand nor listed as gone is unseen."""

import numpy as np
import pytest

from analyzer.errors import BeloteError
from analyzer.players import play
from analyzer.players.policies import Policies, play_code
from analyzer.rules.cards import HEARTS, card_points, format_card, parse_hand, strength

OLD = play_code("heuristic:v=1")
NEW = play_code("heuristic")


def lead(hand, gone="", players=4, code=NEW, seat=0, taker=0):
    """The card ``seat`` leads to a new trick holding ``hand`` (all of it legal)."""
    mine = parse_hand(hand)
    card = play.choose_card(np.int64(code), np.uint32(mine), seat, np.uint32(mine),
                            np.uint32(parse_hand(gone) if gone else 0), -1, -1, -1, 0, HEARTS, taker,
                            players == 4, players, np.uint64(0))
    return format_card(int(card))


def test_heuristic_keeps_its_plain_code_and_names_its_old_version():
    assert NEW == play.HEURISTIC  # the default version packs as 0: the agreed code 1
    assert OLD & play.KIND_MASK == play.HEURISTIC and (OLD >> 8) & 0xFF == 1
    assert play_code("heuristic:v=2") == NEW
    assert Policies.parse("heuristic", "heuristic:v=2", 4).play[0] == ("heuristic",) * 4
    assert Policies.parse("heuristic", "taker=heuristic:v=1", 4).play[0] == ("heuristic:v=1",) * 4
    with pytest.raises(BeloteError, match="v must be a whole number from 1 to 2"):
        play_code("heuristic:v=3")


def test_taker_with_two_trumps_does_not_lead_one_that_is_not_master():
    # Jh unseen: 9h is not master; the old play led the 7h into the jack
    assert lead("9h 7h Ac Kc Qd 8s Td 9s") == "Ac"
    assert lead("9h 7h Ac Kc Qd 8s Td 9s", code=OLD) == "7h"


def test_taker_with_three_trumps_drives_out_the_master_with_its_lowest():
    assert lead("9h Ah 7h Ac Kc Qd 8s Td") == "7h"


def test_taker_holding_only_trumps_leads_its_lowest_when_the_best_is_not_master():
    assert lead("9h Ah 7h") == "7h"


def test_taker_with_the_master_trump_and_the_length_draws_trumps():
    # four trumps against the four unseen (4 x 3 other seats >= 4): lead the master jack
    assert lead("Jh 9h Ah 7h Ac Kc Qd 8s") == "Jh"


def test_taker_without_trump_length_keeps_its_master_trump():
    # two players: two trumps against the six unseen (2 x 1 < 6); the old play drew with the jack
    assert lead("Jh 7h Ac Kc Qd 8s 9s", players=2) == "Ac"
    assert lead("Jh 7h Ac Kc Qd 8s 9s", players=2, code=OLD) == "Jh"


def test_taker_keeps_its_last_trump_while_two_are_unseen():
    # the master 9h is its only trump, Th 8h unseen (the rest gone): it leads a side card
    assert lead("9h Ac Kc", gone="Jh Ah Kh Qh 7h") == "Ac"
    # one trump unseen: the master draws it
    assert lead("9h Ac Kc", gone="Jh Ah Kh Qh 7h 8h") == "9h"


def test_only_the_taker_draws_trumps():
    # the taker's partner (seat 2) and a defender lead the master side ace, not the jack
    assert lead("Jh 9h Ah 7h Ac Kc Qd 8s", seat=2) == "Ac"
    assert lead("Jh 9h Ah 7h Ac Kc Qd 8s", seat=1) == "Ac"


def follow_last(hand, trick, code=NEW):
    """Seat 3 (classic, last to play) with ``hand``, its partner seat 1 winning ``trick`` (led by seat 0)."""
    mine = parse_hand(hand)
    cards = [parse_hand(c) for c in trick.split()]
    win = int(cards[1]).bit_length() - 1
    led = (int(cards[0]).bit_length() - 1) >> 3
    card = play.choose_card(np.int64(code), np.uint32(mine), 3, np.uint32(mine),
                            np.uint32(sum(cards)), led, win, 1, 3, HEARTS, 1, True, 4, np.uint64(0))
    return format_card(int(card))


def test_partner_sure_to_win_is_loaded_with_a_card_that_is_not_a_master():
    # seat 1's Ac wins the club trick; seat 3, void in clubs, loads the Td and keeps its
    # master Ad (the old play loaded the ace, 11 points, which wins a trick of its own)
    assert follow_last("Ad Td 8s", "7c Ac 8c") == "Td"
    assert follow_last("Ad Td 8s", "7c Ac 8c", code=OLD) == "Ad"
    # only masters to load: the richest of them
    assert follow_last("Ad As", "7c Ac 8c") == "Ad"


# ---- the lane tables against a card-by-card loop -------------------------------------------------
# The heuristic's helpers look a suit up at once (analyzer.players.play's lane tables). Below, the
# obvious loops they replaced, card by card, and the two compared on every lane of every suit and
# role, and on random whole masks.

def _bits(mask):
    return [c for c in range(32) if mask >> c & 1]


def _cheap_key(c, trump):
    """Lower = cheaper to give away: side suits before trumps, then points, then strength."""
    return (4096 if c >> 3 == trump else 0) + int(card_points(c, trump)) * 32 + int(strength(c, trump, c >> 3))


def _ref_pick(cards, trump, led, which):
    best_card, best = -1, 0
    for c in _bits(cards):
        if which == play.WEAKEST:
            k = int(strength(c, trump, led))
        elif which == play.RICHEST:
            k = -_cheap_key(c, trump)
        else:
            k = _cheap_key(c, trump)
        if best_card < 0 or k < best:
            best, best_card = k, c
    return best_card


def _ref_is_master(c, trump, unseen):
    return bool(play._is_master(c, trump, np.uint32(unseen)))


def _ref_masters(cards, trump, unseen):
    return sum(1 << c for c in _bits(cards) if _ref_is_master(c, trump, unseen))


def _ref_winners(cards, trump, led, win_s):
    return sum(1 << c for c in _bits(cards) if strength(c, trump, led) > win_s)


def _ref_richest_master(cards, trump, unseen):
    best, pts = -1, -1
    for c in _bits(cards):
        if _ref_is_master(c, trump, unseen) and card_points(c, trump) > pts:
            best, pts = c, int(card_points(c, trump))
    return best


def _masks():
    """Every lane of every suit (the rest empty or full), and random whole masks."""
    rng = np.random.default_rng(7)
    for s in range(4):
        for ln in range(1, 256):
            yield ln << (8 * s), int(rng.integers(2**32))
    for _ in range(500):
        yield int(rng.integers(1, 2**32)), int(rng.integers(2**32))


def test_the_heuristics_lane_lookups_agree_with_a_card_by_card_loop():
    u32 = np.uint32
    checked = 0
    for cards, other in _masks():
        unseen = other & ~cards
        for trump in range(4):
            for which in (play.CHEAPEST, play.RICHEST, play.WEAKEST):
                for led in range(-1, 4):
                    assert play._pick(u32(cards), trump, led, which) == _ref_pick(cards, trump, led, which)
            assert play._masters(u32(cards), trump, u32(unseen)) == _ref_masters(cards, trump, unseen)
            assert play._richest_master(u32(cards), trump, u32(unseen)) == _ref_richest_master(cards, trump, unseen)
            for led in range(4):
                for win_s in range(-1, 16):
                    assert play._winners(u32(cards), trump, led, win_s) == _ref_winners(cards, trump, led, win_s)
            checked += 1
    assert checked == 4 * (4 * 255 + 500)
