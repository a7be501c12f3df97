"""``analyse_take``: what the player sees, the calls compared, and the statistics.

Statistical assertions use the 95% intervals the analysis reports (fixed seeds); each
test says which bound it relies on.
"""

import math

import numpy as np
import pytest

from analyzer.rules.calls import PASS, SMOUS, TAKE
from analyzer.rules.cards import parse_card, parse_cards
from analyzer.errors import BeloteError
from analyzer.rules import Rules
from analyzer.runs.stats import Z95
from analyzer.questions.take import Call, analyse_take, make_situation, open_calls

CLASSIC = Rules()
PIEKJAS2 = Rules("piekjas", 2)
PIEKJAS3 = Rules("piekjas", 3)
DEKJAS = Rules("dekjas", 2)


def labels(result):
    return [c.call.label for c in result.calls]


# --- the situation: cards placed in the dealing order of DEAL_LOG.md ------------------


def test_classic_hand_sits_in_the_seats_block_and_the_turned_card_at_20():
    sit = make_situation(CLASSIC, "Jh 9h Ah Tc 7s", "Qh", seat=2)
    assert list(sit.base_deck[10:15]) == parse_cards("Jh 9h Ah Tc 7s")
    assert sit.base_deck[20] == parse_card("Qh")
    assert sit.fixed.sum() == 6 and all(sit.fixed[10:15]) and sit.fixed[20]
    assert sorted(sit.base_deck) == list(range(32))


def test_piekjas3_deals_six_and_turns_card_18():
    sit = make_situation(PIEKJAS3, "Jh 9h 7h Ac 8c Kd", "Th", seat=1)
    assert list(sit.base_deck[6:12]) == parse_cards("Jh 9h 7h Ac 8c Kd")
    assert sit.base_deck[18] == parse_card("Th")


def test_dekjas_face_up_cards_and_turned_card_is_dealers_last_pile():
    mine, theirs = "Jh 9h Ah Ac Tc 7d 8s Ks", "7c 8c 9c Qd Kd Ad Ts Qh"
    sit = make_situation(DEKJAS, None, "Qh", seat=0, mine=mine, theirs=theirs)
    assert [sit.base_deck[16 + 2 * i] for i in range(8)] == parse_cards(mine)
    assert sit.base_deck[31] == parse_card("Qh")
    assert set(sit.base_deck[17:32:2]) == set(parse_cards(theirs))
    assert sit.fixed[16:].all() and not sit.fixed[:16].any()


@pytest.mark.parametrize("kwargs, message", [
    (dict(rules=CLASSIC, hand="Jh 9h Ah Tc", turned="Qh"), "deals 5 cards"),
    (dict(rules=PIEKJAS3, hand="Jh 9h Ah Tc 7s", turned="Qh"), "deals 6 cards"),
    (dict(rules=CLASSIC, hand="Jh 9h Ah Tc Qh", turned="Qh"), "also in the hand"),
    (dict(rules=CLASSIC, hand="Jh 9h Ah Tc Jh", turned="Qh"), "appears twice"),
    (dict(rules=CLASSIC, hand="Jh 9h Ah Tc 1s", turned="Qh"), "is not a card"),
    (dict(rules=CLASSIC, hand="Jh 9h Ah Tc 7s", turned="Qh", seat=4), "seat 4 does not exist"),
    (dict(rules=CLASSIC, hand="Jh 9h Ah Tc 7s", turned="Qh", round_=3), "not a bidding round"),
    (dict(rules=DEKJAS, turned="Qh", mine="Jh 9h Ah Ac Tc 7d 8s Ks", theirs="7c 8c 9c Qd Kd Ad Ts Qs"),
     "dealer's last face-up card"),
    (dict(rules=DEKJAS, turned="Qh", mine="Jh 9h Ah Ac Tc 7d 8s", theirs="7c 8c 9c Qd Kd Ad Ts Qh"), "8 face-up"),
    (dict(rules=DEKJAS, turned="Qh", mine="Jh 9h Ah Ac Tc 7d 8s Qh", theirs="7c 8c 9c Qd Kd Ad Ts Qh"), "both"),
    (dict(rules=DEKJAS, hand="Jh 9h Ah Tc 7s", turned="Qh"), "--mine and --theirs"),
])
def test_bad_situation_is_one_domain_error(kwargs, message):
    with pytest.raises(BeloteError, match=message):
        analyse_take(deals=10, **kwargs)


def test_smous_with_more_than_two_players_is_refused():
    with pytest.raises(BeloteError, match="smous is only open with 2 players"):
        analyse_take(PIEKJAS3, "Jh 9h 7h Ac 8c Kd", "Th", deals=10, calls=["smous"])


def test_non_positive_counts_are_refused():
    with pytest.raises(BeloteError, match="--deals"):
        analyse_take(CLASSIC, "Jh 9h Ah Tc 7s", "Qh", deals=0)
    with pytest.raises(BeloteError, match="--precision"):
        analyse_take(CLASSIC, "Jh 9h Ah Tc 7s", "Qh", precision=-1.0)


# --- the calls open (RULES.md §3) -------------------------------------------------------


def test_round_one_offers_take_and_pass_and_smous_only_to_two_players():
    qh = parse_card("Qh")
    assert open_calls(CLASSIC, qh, 1) == [Call(TAKE, 2), Call(PASS, -1)]
    assert open_calls(PIEKJAS2, qh, 1) == [Call(TAKE, 2), Call(SMOUS, 2), Call(PASS, -1)]


def test_round_two_offers_each_other_suit_or_all_four_with_round2_any():
    td = parse_card("Td")
    assert [c.suit for c in open_calls(CLASSIC, td, 2) if c.call == TAKE] == [0, 2, 3]
    anyr = Rules.make("piekjas", 3)  # round2_suits=any, the piekjas default (revision 2)
    assert [c.suit for c in open_calls(anyr, td, 2) if c.call == TAKE] == [0, 1, 2, 3]
    other = Rules.make("piekjas", 3, ["round2_suits=other"])
    assert [c.suit for c in open_calls(other, td, 2) if c.call == TAKE] == [0, 2, 3]


# --- the analysis ---------------------------------------------------------------------------


def test_trump_jack_nine_ace_ten_king_takes_with_dedans_near_zero():
    r = analyse_take(CLASSIC, "Jh 9h Ah Th Kh", "Qh", deals=3000, seed=5)
    take = r.calls[0]
    assert r.best.call == Call(TAKE, 2) and r.beats_runner_up
    # near 0: the whole 95% Wilson interval of P(dedans) lies below 1%
    assert take.dedans.hi < 0.01
    assert take.made.lo > 0.95


def test_low_cards_without_trump_pass():
    r = analyse_take(CLASSIC, "7c 8d 9s Qd 8s", "Kh", deals=3000, seed=5)
    assert r.best.call == Call(PASS, -1)
    # beyond the noise: the paired difference's 95% interval excludes 0
    assert r.beats_runner_up and r.best_vs_runner_up.lo > 0


@pytest.mark.parametrize("before, after, turned, seat", [
    ("9h Ah Kc 7s 8d", "9h Ah Kc Jh 8d", "Qh", 0),
    ("Th Ac Kc 7d Qs", "Th Ac Kc Jh Qs", "8h", 2),
])
def test_replacing_a_side_seven_by_the_trump_jack_never_lowers_take_ev(before, after, turned, seat):
    take = Call(TAKE, parse_card(turned) >> 3)
    a = analyse_take(CLASSIC, before, turned, seat, deals=3000, seed=11, calls=["take"])
    b = analyse_take(CLASSIC, after, turned, seat, deals=3000, seed=11, calls=["take"])
    ea = next(c for c in a.calls if c.call == take).net
    eb = next(c for c in b.calls if c.call == take).net
    # independent samples: the difference's 95% interval is Z95 * sqrt(se_a^2 + se_b^2)
    assert eb.mean - ea.mean >= -Z95 * math.hypot(ea.se, eb.se)


def test_paired_differences_have_smaller_variance_than_unpaired():
    r = analyse_take(CLASSIC, "Jh Ah 8c Kd 7s", "Qh", seat=1, deals=4000, seed=3)
    take, pas = r.calls[0], r.calls[-1]
    paired_var = take.net_vs_pass.sd ** 2
    unpaired_var = take.net.sd ** 2 + pas.net.sd ** 2  # the variance of a difference of independent draws
    assert paired_var < unpaired_var
    # and the paired mean is the difference of the means (same deals)
    assert take.net_vs_pass.mean == pytest.approx(take.net.mean - pas.net.mean, abs=1e-9)


def test_earlier_seats_must_have_passed_later_seats_see_fewer_deals():
    first = analyse_take(CLASSIC, "Jh Ah 8c Kd 7s", "Qh", seat=0, deals=2000, seed=2)
    last = analyse_take(CLASSIC, "Jh Ah 8c Kd 7s", "Qh", seat=3, deals=2000, seed=2)
    assert first.acceptance.p == 1.0
    assert 0 < last.acceptance.p < 1
    assert last.n >= 2000


def test_round_two_compares_each_other_suit_and_pass():
    r = analyse_take(CLASSIC, "Js 9s As 7h 8c", "Td", seat=1, round_=2, deals=2000, seed=4)
    assert labels(r) == ["take c", "take h", "take s", "pass"]
    assert r.best.call == Call(TAKE, 3)  # spades, with J 9 A of spades


def test_same_numbers_whatever_the_thread_count():
    a = analyse_take(CLASSIC, "Jh Ah 8c Kd 7s", "Qh", seat=2, deals=3000, seed=9, threads=1)
    b = analyse_take(CLASSIC, "Jh Ah 8c Kd 7s", "Qh", seat=2, deals=3000, seed=9, threads=2)
    assert a.as_dict()["calls"] == b.as_dict()["calls"]
    assert a.acceptance == b.acceptance


def test_precision_keeps_going_until_the_half_width_is_reached():
    r = analyse_take(CLASSIC, "Jh Ah 8c Kd 7s", "Qh", precision=4.0, max_deals=200_000, seed=1)
    assert Z95 * r.best_vs_runner_up.se <= 4.0
    assert r.n < 200_000


def test_smous_redeal_is_followed_by_a_fresh_deal_not_scored_zero():
    # the opponent answers this smous with a redeal; the next deal (same dealer) is played
    r = analyse_take(PIEKJAS2, "Js Qs Ks 9d Ad 7c", "8s", seat=1, deals=2000, seed=1)
    smous = next(c for c in r.calls if c.call.call == SMOUS)
    assert smous.not_played.p > 0.5
    assert smous.score.mean > 0  # scores of the fresh deals count


def test_dekjas_take_runs_and_compares_smous():
    r = analyse_take(DEKJAS, None, "Qh", mine="Jh 9h Ah Ac Tc 7d 8s Ks", theirs="7c 8c 9c Qd Kd Ad Ts Qh",
                     deals=1000, seed=1)
    assert labels(r) == ["take h", "smous h", "pass"]
    assert r.n >= 1000


def test_objective_score_ranks_by_own_score():
    r = analyse_take(CLASSIC, "Jh 9h Ah Tc 7s", "Qh", seat=1, round_=2, deals=2000, seed=1, objective="score")
    assert r.objective == "score"
    assert r.best.score.mean == max(c.score.mean for c in r.calls)
    with pytest.raises(BeloteError, match="objective"):
        analyse_take(CLASSIC, "Jh 9h Ah Tc 7s", "Qh", deals=10, objective="fun")


def test_as_dict_is_json_ready():
    import json

    r = analyse_take(CLASSIC, "Jh 9h Ah Tc 7s", "Qh", deals=500, seed=1)
    d = json.loads(json.dumps(r.as_dict()))
    assert set(d) >= {"inputs", "n", "acceptance", "calls", "verdict", "hands_simulated"}
    assert d["verdict"]["best"] == "take h"
    assert np.isfinite(d["calls"][0]["net_vs_pass"]["lo"])
