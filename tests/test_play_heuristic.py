"""The heuristic's leads as troefmaker (issue 10's taker fixes, version 2) and the old card
play kept as ``heuristic:v=1``. Hands in card notation; trump is hearts, seat 0 the taker,
and every card not in the seat's hand nor listed as gone is unseen."""

import numpy as np
import pytest

from analyzer.errors import BeloteError
from analyzer.players import play
from analyzer.players.policies import Policies, play_code
from analyzer.rules.cards import HEARTS, format_card, parse_hand

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
