"""The bidding as a state (RULES.md §3; ``analyzer.game.auction``): whose turn, the calls
open, what each call ends. Fixtures name the calls as the deal log does ("take h", "pass")."""

import random

import numpy as np

from analyzer.game import auction as A
from analyzer.rules import Rules
from analyzer.rules import calls as C
from analyzer.rules import reference
from analyzer.rules.cards import parse_card

CLASSIC = Rules("classic", 4)
PIEKJAS2 = Rules("piekjas", 2)
PIEKJAS3 = Rules("piekjas", 3)
DEKJAS = Rules("dekjas", 2)
NAMES = {"pass": C.PASS, "take": C.TAKE, "smous": C.SMOUS, "smous-play": C.SMOUS_PLAY,
         "smous-redeal": C.SMOUS_REDEAL, "koe": C.KOE}


def bid(rules, calls, turned="Qh"):
    """Apply ``calls`` ("take h", "pass", "smous-play", ...) in turn; returns the state and
    the (seat, round) of each call."""
    rec = rules.record()
    ts = parse_card(turned) >> 3
    au = np.zeros(A.AUCTION_SIZE, np.int64)
    A.auction_start(au)
    turns = []
    for text in calls:
        assert not A.auction_done(au), f"the bidding ended before {text!r}"
        name, _, suit = text.partition(" ")
        call, s = NAMES[name], ("cdhs".index(suit) if suit else -1)
        assert A.auction_legal(au, rec, ts) >> C.call_bit(call, s) & 1, f"{text!r} is not open"
        turns.append((int(au[A.AU_SEAT]), int(A.auction_round(au))))
        A.auction_apply(au, rec, ts, call, s)
    return au, turns


def test_seats_call_in_turn_from_voorhand_and_round_two_starts_again_at_seat_0():
    au, turns = bid(CLASSIC, ["pass"] * 4 + ["pass", "take s"])
    assert turns == [(0, 1), (1, 1), (2, 1), (3, 1), (0, 2), (1, 2)]
    assert A.auction_done(au)


def test_a_take_ends_the_bidding_with_its_seat_as_troefmaker():
    au, _ = bid(CLASSIC, ["pass", "take h"])
    assert (au[A.AU_OUTCOME], au[A.AU_TRUMP], au[A.AU_TAKER], au[A.AU_ROUND]) == (C.PLAYED, 2, 1, 1)


def test_classic_passed_twice_is_passed_out():
    au, _ = bid(CLASSIC, ["pass"] * 8)
    assert A.auction_done(au) and au[A.AU_OUTCOME] == C.PASSED_OUT


def test_piekjas_passed_twice_makes_seat_0_the_koe_on_a_suit_of_its_choice():
    au, turns = bid(PIEKJAS3, ["pass"] * 6 + ["koe c"])
    assert turns[-1] == (0, C.KOE_ROUND)
    assert (au[A.AU_OUTCOME], au[A.AU_TRUMP], au[A.AU_TAKER], au[A.AU_ROUND]) == (C.PLAYED, 0, 0, C.KOE_ROUND)


def test_smous_hands_the_turn_to_the_other_player_who_lets_it_play():
    au, turns = bid(PIEKJAS2, ["pass", "smous h", "smous-play"])
    assert turns == [(0, 1), (1, 1), (0, 1)]  # the answer is recorded in the smous' round
    assert (au[A.AU_OUTCOME], au[A.AU_TRUMP], au[A.AU_TAKER], au[A.AU_SMOUS], au[A.AU_SMOUS_SEAT]) == (
        C.PLAYED, 2, 1, 1, 1)


def test_smous_answered_redeal_annuls_the_deal():
    au, _ = bid(DEKJAS, ["pass", "pass", "smous d", "smous-redeal"])
    assert (au[A.AU_OUTCOME], au[A.AU_SMOUS], au[A.AU_SMOUS_SEAT], au[A.AU_ROUND]) == (C.REDEAL, 2, 0, 2)


def test_only_the_answers_are_open_to_a_smous():
    rec = PIEKJAS2.record()
    au, _ = bid(PIEKJAS2, ["smous h"])
    assert A.auction_legal(au, rec, 2) == C.ANSWERS


def _reference_outcome(rules, turned, bids):
    """The reference's reading of a list of logged bids: its outcome and trump/troefmaker."""
    r = reference._Replay.__new__(reference._Replay)
    r.rules, r.n, r.turned, r.errors = rules, rules.players, turned, []
    r.rec = {"bids": bids}
    outcome = r.check_bids()
    return outcome, r.trump, r.troefmaker, r.errors


def test_random_legal_calls_end_where_the_reference_says_every_variant():
    """Random walks of legal calls through the state, read back by the reference's check of
    the same bids: the same outcome, trump and troefmaker."""
    rng = random.Random(7)
    for rules in (CLASSIC, PIEKJAS2, PIEKJAS3, Rules("piekjas", 4), DEKJAS,
                  PIEKJAS2.with_options(round2_suits="other")):
        rec = rules.record()
        for _ in range(150):
            turned = rng.randrange(32)
            ts = turned >> 3
            au = np.zeros(A.AUCTION_SIZE, np.int64)
            A.auction_start(au)
            bids = []
            while not A.auction_done(au):
                calls = C.calls_in(int(A.auction_legal(au, rec, ts)))
                # pass often, so that round two and the koe are reached
                call, suit = (C.PASS, -1) if (C.PASS, -1) in calls and rng.random() < 0.8 else rng.choice(calls)
                b = {"seat": int(au[A.AU_SEAT]), "round": int(A.auction_round(au)), "call": C.CALL_NAMES[call]}
                if suit >= 0:
                    b["suit"] = "cdhs"[suit]
                bids.append(b)
                A.auction_apply(au, rec, ts, call, suit)
            outcome, trump, taker, errors = _reference_outcome(rules, turned, bids)
            assert errors == [], (rules.label, bids, errors)
            want = {"played": C.PLAYED, "passed_out": C.PASSED_OUT, "redeal": C.REDEAL}[outcome]
            assert au[A.AU_OUTCOME] == want, (rules.label, bids)
            if want == C.PLAYED:
                assert (au[A.AU_TRUMP], au[A.AU_TAKER]) == (trump, taker), (rules.label, bids)
