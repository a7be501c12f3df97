"""One test per rule of RULES.md, named after the rule, over both implementations.

Fixtures are in card notation. ``impl`` (conftest.py) is ``analyzer.rules.reference`` or
``analyzer.rules.engine``; both expose the same functions. Unless a test says otherwise the
trump is hearts.
"""

import random

import pytest

from analyzer.rules.cards import parse_card, parse_cards, parse_suit
from analyzer.rules import Rules

CLASSIC = Rules("classic", 4)
PIEKJAS2 = Rules("piekjas", 2)
PIEKJAS3 = Rules("piekjas", 3)
PIEKJAS3_TO_700 = Rules("piekjas", 3, target=700)  # §6 trickless-roem tests: their game's target written out
PIEKJAS4 = Rules("piekjas", 4)
DEKJAS = Rules("dekjas", 2)

CLUBS, DIAMONDS, HEARTS, SPADES = (parse_suit(s) for s in "cdhs")
H = HEARTS


def cards(text):
    return set(parse_cards(text))


def trick(text, leader=0, n=4):
    """``"Ac 7h Tc"`` played by seats leader, leader+1, ... (mod n), as (seat, card) pairs."""
    return [((leader + i) % n, c) for i, c in enumerate(parse_cards(text))]


def legal(impl, hand, played, seat=None, rules=CLASSIC, trump=H, leader=0):
    t = trick(played, leader, rules.players) if played else []
    if seat is None:
        seat = (leader + len(t)) % rules.players
    return set(impl.legal_plays(parse_cards(hand), t, seat, trump, rules))


def decl(impl, kind, text, points):
    return impl.Declaration(kind, tuple(sorted(parse_cards(text))), points)


def only(impl, text):
    """The single declaration in ``text``."""
    ds = impl.declarations(parse_cards(text))
    assert len(ds) == 1, ds
    return ds[0]


BY_CARDS = PIEKJAS3  # roem_compare=cards, the piekjas/dekjas default (§5)


def key(impl, text, rules=BY_CARDS, trump=H):
    return impl.declaration_key(only(impl, text), trump, rules)


def score(impl, rules, taker, cp, tricks, decl_points=None, roem=None, stuk=None, reserve=0, totals=None):
    n = len(cp)
    return impl.score_hand(
        rules,
        taker,
        cp,
        tricks,
        decl_points or [0] * n,
        roem,
        stuk or [0] * n,
        reserve_before=reserve,
        totals_before=totals,
    )


# --- §1 cards ----------------------------------------------------------------------


def test_trump_points_j20_9_14_a11_10_10_k4_q3(impl):
    expected = {"Jh": 20, "9h": 14, "Ah": 11, "Th": 10, "Kh": 4, "Qh": 3, "8h": 0, "7h": 0}
    got = {c: impl.trick_points([(0, parse_card(c))], H) for c in expected}
    assert got == expected


def test_plain_points_a11_10_10_k4_q3_j2(impl):
    expected = {"Ac": 11, "Tc": 10, "Kc": 4, "Qc": 3, "Jc": 2, "9c": 0, "8c": 0, "7c": 0}
    got = {c: impl.trick_points([(0, parse_card(c))], H) for c in expected}
    assert got == expected


def test_card_points_sum_to_152(impl):
    for trump in range(4):
        assert sum(impl.trick_points([(0, c)], trump) for c in range(32)) == 152


def test_last_trick_adds_10(impl):
    t = trick("Ah Tc 7s Jd")
    assert impl.trick_points(t, SPADES) == 11 + 10 + 0 + 2
    assert impl.trick_points(t, SPADES, last=True) == 11 + 10 + 0 + 2 + 10


def test_all_tricks_with_the_last_hold_162(impl):
    # Eight tricks of one card per suit-rank column: every card played once.
    total = 0
    for r in range(8):
        t = [(s, s * 8 + r) for s in range(4)]
        total += impl.trick_points(t, DIAMONDS, last=(r == 7))
    assert total == 162


def test_trump_trick_order_j_9_a_10_k_q_8_7(impl):
    order = parse_cards("Jh 9h Ah Th Kh Qh 8h 7h")
    for i, high in enumerate(order):
        for low in order[i + 1 :]:
            assert impl.trick_winner([(0, low), (1, high)], H) == 1
            assert impl.trick_winner([(0, high), (1, low)], H) == 0


def test_plain_trick_order_a_10_k_q_j_9_8_7(impl):
    order = parse_cards("Ac Tc Kc Qc Jc 9c 8c 7c")
    for i, high in enumerate(order):
        for low in order[i + 1 :]:
            assert impl.trick_winner([(0, low), (1, high)], H) == 1
            assert impl.trick_winner([(0, high), (1, low)], H) == 0


def test_sequence_order_a_k_q_j_10_9_8_7_also_in_trump(impl):
    # 9 10 J is a sequence even in trump, where the trick order is J 9 A 10 ...
    assert impl.declarations(parse_cards("9h Th Jh")) == [decl(impl, "sequence", "9h Th Jh", 20)]
    # J 9 A are neighbours in trump trick order but not a sequence
    assert impl.declarations(parse_cards("Jh 9h Ah")) == []


# --- §2 seats and §7 targets (the rules record) ------------------------------------


def test_classic_partners_sit_opposite():
    assert CLASSIC.sides == [[0, 2], [1, 3]]
    assert CLASSIC.partners


def test_piekjas_and_dekjas_have_no_partners():
    assert PIEKJAS4.sides == [[0], [1], [2], [3]] and not PIEKJAS4.partners
    assert DEKJAS.sides == [[0], [1]] and not DEKJAS.partners


def test_the_dealer_moves_one_seat_on_between_deals():
    # analyzer.rules.seats: the kernels' seats and sides, read as plain functions (no compile)
    from analyzer.rules.seats import next_seat, place_next_deal, player_at, seat_after, side_of_seat

    for rules in (CLASSIC, PIEKJAS3, DEKJAS):
        n, rec = rules.players, rules.record()
        assert [rules.side_of(s) for s in range(n)] == [side_of_seat.py_func(s, rec) for s in range(n)]
        assert [next_seat.py_func(s, n) for s in range(n)] == [seat_after.py_func(s, 1, n) for s in range(n)]
        assert next_seat.py_func(n - 1, n) == 0  # the dealer is the last seat; voorhand follows it
        for count in (n, rec.n_sides):  # seats and sides move alike: one place back each deal
            for place in range(count):
                assert player_at.py_func(place_next_deal.py_func(place, count), 1, count) == place
    assert [player_at.py_func(s, 1, 2) for s in (0, 1)] == [1, 0]  # classic's teams swap sides each deal


def test_cards_per_player_and_tricks_per_variant():
    assert (CLASSIC.first_deal, CLASSIC.n_tricks) == (5, 8)
    assert (PIEKJAS2.first_deal, PIEKJAS2.n_tricks) == (6, 9)
    assert (PIEKJAS3.first_deal, PIEKJAS3.n_tricks) == (6, 9)
    assert (PIEKJAS4.first_deal, PIEKJAS4.n_tricks) == (5, 8)
    assert DEKJAS.n_tricks == 16


def test_game_targets():
    assert [r.target for r in (CLASSIC, PIEKJAS2, PIEKJAS3, PIEKJAS4, DEKJAS)] == [1000, 500, 700, 1000, 500]


# --- §3 bidding: the calls open ------------------------------------------------------


def calls(impl, rules, rnd, turned="Qh"):
    """The open calls as ``{"take h", "smous c", "pass", "koe s"}``."""
    letters = "cdhs"
    return {c if s is None else f"{c} {letters[s]}" for c, s in impl.legal_calls(rules, rnd, parse_card(turned) >> 3)}


def test_round_one_takes_only_the_turned_suit(impl):
    assert calls(impl, CLASSIC, 1) == {"take h", "pass"}
    assert calls(impl, PIEKJAS3, 1, "7s") == {"take s", "pass"}


def test_classic_round_two_names_another_suit(impl):
    assert calls(impl, CLASSIC, 2) == {"take c", "take d", "take s", "pass"}


def test_piekjas_round_two_names_any_suit_by_default(impl):
    assert calls(impl, PIEKJAS3, 2) == {"take c", "take d", "take h", "take s", "pass"}
    assert calls(impl, PIEKJAS4, 2, "Ac") == {"take c", "take d", "take h", "take s", "pass"}


def test_round2_suits_other_leaves_out_the_turned_suit(impl):
    assert calls(impl, PIEKJAS3.with_options(round2_suits="other"), 2) == {"take c", "take d", "take s", "pass"}


def test_smous_is_open_with_two_players_on_the_suits_a_take_may_name(impl):
    assert calls(impl, PIEKJAS2, 1) == {"take h", "smous h", "pass"}
    assert calls(impl, DEKJAS, 2, "Td") == {"pass"} | {f"{c} {s}" for c in ("take", "smous") for s in "cdhs"}


def test_smous_is_closed_with_three_or_four_players_and_in_classic(impl):
    for rules in (CLASSIC, PIEKJAS3, PIEKJAS4):
        for rnd in (1, 2):
            assert not [c for c in calls(impl, rules, rnd) if c.startswith("smous")]


def test_koe_names_any_suit_after_two_passed_rounds(impl):
    for rules in (PIEKJAS2, PIEKJAS3, PIEKJAS4, DEKJAS):
        assert calls(impl, rules, 3) == {"koe c", "koe d", "koe h", "koe s"}  # no pass: seat 0 must play


def test_classic_passed_twice_has_no_call(impl):
    assert calls(impl, CLASSIC, 3) == set()  # passed out


def test_the_kernel_opens_the_calls_the_reference_opens():
    """Every variant, both round2_suits readings, every round and turned suit: the same calls."""
    from analyzer.rules import engine, reference

    for rules in (CLASSIC, PIEKJAS2, PIEKJAS3, PIEKJAS4, DEKJAS):
        readings = [rules] if rules.variant == "classic" else [rules, rules.with_options(round2_suits="other")]
        for r in readings:
            for rnd in (1, 2, 3):
                for ts in range(4):
                    assert engine.legal_calls(r, rnd, ts) == reference.legal_calls(r, rnd, ts), (r.label, rnd, ts)


def test_a_uniform_choice_counts_the_open_calls_in_one_order():
    """``nth_call`` walks a mask of calls in bit order: pass, take by suit, smous by suit, the
    answers, koe by suit (the order the random bidder draws in)."""
    from analyzer.rules import calls as C

    mask = C.legal_calls(DEKJAS.record(), 2, HEARTS)
    walked = [C.nth_call(mask, k) for k in range(9)]
    assert walked == [(C.PASS, -1)] + [(C.TAKE, s) for s in range(4)] + [(C.SMOUS, s) for s in range(4)]
    assert [C.nth_call(C.ANSWERS, k)[0] for k in range(2)] == [C.SMOUS_PLAY, C.SMOUS_REDEAL]
    assert C.calls_in(C.legal_calls(PIEKJAS3.record(), 3, HEARTS)) == [(C.KOE, s) for s in range(4)]
    for call, suit in walked:
        assert C.call_of_bit(C.call_bit(call, suit)) == (call, suit)


# --- §4 play -----------------------------------------------------------------------


def test_leader_may_lead_any_card(impl):
    assert legal(impl, "Ac 7d Jh Ks", "") == cards("Ac 7d Jh Ks")


def test_must_follow_suit(impl):
    # any card of the suit led, higher or lower; no trump, no other suit
    assert legal(impl, "Ac 7c Jh Ad", "Tc") == cards("Ac 7c")


def test_trump_led_must_overtrump(impl):
    assert legal(impl, "Jh 7h Ac", "9h") == cards("Jh")


def test_trump_led_overtrump_the_highest_trump_in_the_trick(impl):
    # 10 beats the 7 led but not the A already played: only the 9 will do
    assert legal(impl, "Th 9h Kh", "7h Ah") == cards("9h")


def test_trump_led_any_trump_when_cannot_overtrump(impl):
    assert legal(impl, "Ah 7h Ac", "9h") == cards("Ah 7h")


def test_trump_led_without_trump_any_card(impl):
    assert legal(impl, "Ac 7d Ks", "Jh") == cards("Ac 7d Ks")


def test_cannot_follow_must_trump(impl):
    assert legal(impl, "7h Qh Ad Ks", "Ac") == cards("7h Qh")


def test_must_overtrump_when_trick_holds_trump(impl):
    # seat 2; the opponent (seat 1) trumped with the Q
    assert legal(impl, "Kh 7h Ad", "Ac Qh") == cards("Kh")


def test_must_undertrump_when_cannot_overtrump(impl):
    assert legal(impl, "Ah 7h Kd Ks", "Ac 9h") == cards("Ah 7h")


def test_must_undertrump_in_piekjas(impl):
    assert legal(impl, "7h Kd", "Ac 9h", rules=PIEKJAS3) == cards("7h")


def test_dekjas_obligations_apply_to_face_up_cards(impl):
    # seat 1 leads Ac; seat 0's face-up 7h Kd (its face-down cards are not passed): trump
    t = trick("Ac", leader=1, n=2)
    assert set(impl.legal_plays(parse_cards("7h Kd"), t, 0, H, DEKJAS)) == cards("7h")
    assert set(impl.legal_plays(parse_cards("Kd Qs"), t, 0, H, DEKJAS)) == cards("Kd Qs")


def test_undertrump_free_option_allows_discard(impl):
    free = CLASSIC.with_options(undertrump="free")
    assert legal(impl, "Ah 7h Kd Ks", "Ac 9h", rules=free) == cards("Ah 7h Kd Ks")
    free3 = PIEKJAS3.with_options(undertrump="free")
    assert legal(impl, "7h Kd", "Ac 9h", rules=free3) == cards("7h Kd")


def test_undertrump_free_still_must_overtrump_if_possible(impl):
    free = CLASSIC.with_options(undertrump="free")
    assert legal(impl, "9h 7h Kd", "Ac Ah", rules=free) == cards("9h")


def test_undertrump_free_still_must_trump_an_untrumped_trick(impl):
    free = CLASSIC.with_options(undertrump="free")
    assert legal(impl, "7h Kd", "Ac", rules=free) == cards("7h")


def test_undertrump_free_still_overtrump_when_trump_led(impl):
    free = CLASSIC.with_options(undertrump="free")
    assert legal(impl, "Jh 7h Kd", "9h", rules=free) == cards("Jh")
    assert legal(impl, "Ah 7h Kd", "9h", rules=free) == cards("Ah 7h")


def test_no_trump_any_card(impl):
    assert legal(impl, "Kd Qs 8d", "Ac 9h") == cards("Kd Qs 8d")


def test_partner_winning_frees_discard(impl):
    # seat 2; partner seat 0 wins with the Ac
    assert legal(impl, "Jh 8d Ks", "Ac 7c") == cards("Jh 8d Ks")


def test_partner_winning_with_trump_frees_discard(impl):
    # seat 3 led Ac, partner seat 0 trumped, seat 1 followed: seat 2 need not overtrump
    assert legal(impl, "Jh 7h Kd", "Ac 9h Tc", leader=3) == cards("Jh 7h Kd")


def test_partner_exception_needs_partner_winning(impl):
    assert legal(impl, "Jh 8d", "7c Ac") == cards("Jh")


def test_partner_exception_does_not_override_follow_suit(impl):
    assert legal(impl, "8c Jh Kd", "Ac 7c") == cards("8c")


def test_partner_exception_not_when_trump_led(impl):
    # partner seat 0 wins with the 9 of trump; seat 2 must still overtrump
    assert legal(impl, "Jh 8h Kd", "9h 7h") == cards("Jh")


def test_no_partner_exception_in_piekjas(impl):
    # piekjas 4: seat 0 sits opposite seat 2 but is an opponent
    assert legal(impl, "Jh 8d", "Ac 7c", rules=PIEKJAS4) == cards("Jh")


def test_highest_trump_wins_trick(impl):
    assert impl.trick_winner(trick("Ac 7h Qh Tc"), H) == 2


def test_any_trump_beats_the_ace_led(impl):
    assert impl.trick_winner(trick("Ac 7h"), H) == 1


def test_highest_card_of_suit_led_wins_without_trump(impl):
    # the As is higher but not of the suit led
    assert impl.trick_winner(trick("Kc Tc As Jc"), H) == 1


def test_trick_winner_is_a_seat_not_a_position(impl):
    assert impl.trick_winner(trick("9c Jc 7c 8c", leader=2), H) == 3


# --- §5 declarations ---------------------------------------------------------------


def test_carre_values_j200_9_150_a_10_k_q_100(impl):
    values = {"J": 200, "9": 150, "A": 100, "T": 100, "K": 100, "Q": 100}
    for rank, pts in values.items():
        four = " ".join(rank + s for s in "cdhs")
        assert impl.declarations(parse_cards(four)) == [decl(impl, "carre", four, pts)]


def test_eights_and_sevens_carre_score_nothing(impl):
    assert impl.declarations(parse_cards("7c 7d 7h 7s 8c")) == []
    assert impl.declarations(parse_cards("8c 8d 8h 8s 7d")) == []
    # and a carré of sevens therefore never blocks another player's declaration
    by_seat = [impl.declarations(parse_cards("7c 7d 7h 7s")), impl.declarations(parse_cards("Ad Kd Qd"))]
    assert impl.roem_side(by_seat, H, DEKJAS) == 1


def test_sequence_values_3_20_4_50_5_or_more_100(impl):
    assert only(impl, "Ac Kc Qc").points == 20
    assert only(impl, "Ac Kc Qc Jc").points == 50
    assert only(impl, "Ac Kc Qc Jc Tc").points == 100
    assert only(impl, "Ac Kc Qc Jc Tc 9c").points == 100
    assert only(impl, "Kc Qc Jc Tc 9c 8c 7c").points == 100


def test_two_cards_are_no_sequence(impl):
    assert impl.declarations(parse_cards("Ac Kc Jc Tc 8c 7c")) == []


def test_sequence_is_in_one_suit(impl):
    assert impl.declarations(parse_cards("Ac Kd Qc Jh")) == []


def test_run_of_eight_is_one_declaration(impl):
    all_hearts = "7h 8h 9h Th Jh Qh Kh Ah"
    assert impl.declarations(parse_cards(all_hearts)) == [decl(impl, "sequence", all_hearts, 100)]


def test_runs_split_by_a_gap_are_two_sequences(impl):
    got = set(impl.declarations(parse_cards("7h 8h 9h Jh Qh Kh")))
    assert got == {decl(impl, "sequence", "7h 8h 9h", 20), decl(impl, "sequence", "Jh Qh Kh", 20)}


def test_card_counts_in_carre_and_sequence(impl):
    got = set(impl.declarations(parse_cards("Jc Jd Jh Js Qh Kh")))
    assert got == {decl(impl, "carre", "Jc Jd Jh Js", 200), decl(impl, "sequence", "Jh Qh Kh", 20)}


def test_declarations_are_sorted_deterministically(impl):
    hand = parse_cards("Kh Jc 9s Jd 8s Jh Qh 7s Js")
    assert impl.declarations(hand) == impl.declarations(list(reversed(hand)))


def test_more_cards_wins_declaration(impl):
    # a plain 4-sequence beats a trump 3-sequence
    assert key(impl, "7c 8c 9c Tc") > key(impl, "Jh Qh Kh")


def test_five_sequence_beats_carre_of_jacks(impl):
    assert key(impl, "7c 8c 9c Tc Jc") > key(impl, "Jc Jd Jh Js")


def test_carre_beats_plain_four_sequence(impl):
    assert key(impl, "Qc Qd Qh Qs") > key(impl, "Ac Kc Qc Jc")


def test_carre_order_jacks_over_nines(impl):
    order = ["J", "9", "A", "T", "K", "Q"]
    keys = [key(impl, " ".join(r + s for s in "cdhs")) for r in order]
    assert keys == sorted(keys, reverse=True)
    assert len(set(keys)) == len(keys)


def test_equal_length_higher_card_in_trick_order_wins(impl):
    # plain trick order A 10 K Q J 9: 9-10-J (top 10) beats J-Q-K (top K)
    assert key(impl, "9c Tc Jc") > key(impl, "Jd Qd Kd")
    assert key(impl, "Qd Kd Ad") > key(impl, "9c Tc Jc")


def test_trump_sequence_beats_plain_sequence_of_same_length(impl):
    # every trump card counts above every plain card
    assert key(impl, "7h 8h 9h") > key(impl, "Qc Kc Ac")


def test_trump_four_sequence_with_jack_beats_carre_of_aces(impl):
    assert key(impl, "9h Th Jh Qh") > key(impl, "Ac Ad Ah As")


def test_equal_plain_sequences_are_equal(impl):
    assert key(impl, "Qc Kc Ac") == key(impl, "Qd Kd Ad")


def test_roem_compare_points_option(impl):
    by_points = BY_CARDS.with_options(roem_compare="points")
    five, jacks = "7c 8c 9c Tc Jc", "Jc Jd Jh Js"
    assert key(impl, five) > key(impl, jacks)  # 'cards'
    assert key(impl, jacks, by_points) > key(impl, five, by_points)
    assert key(impl, "9c 9d 9h 9s", by_points) > key(impl, "Ac Kc Qc Jc Tc 9c", by_points)
    # equal points (100): then more cards
    assert key(impl, "Ac Kc Qc Jc Tc", by_points) > key(impl, "Qc Qd Qh Qs", by_points)
    # equal points and cards: then the highest card
    assert key(impl, "7h 8h 9h", by_points) > key(impl, "Qc Kc Ac", by_points)


def test_only_best_side_scores_all_its_declarations(impl):
    seats = [
        impl.declarations(parse_cards("Qc Qd Qh Qs 7d 8d 9d")),  # carré Q 100 + 3-seq 20
        impl.declarations(parse_cards("Ac Kc Jc Tc 9c 8c")),  # plain 4-seq 50 (best of side 1)
        impl.declarations(parse_cards("Js Ts 9s")),  # 3-seq 20, partner of seat 0
        [],
    ]
    side = impl.roem_side(seats, H, CLASSIC)
    assert side == 0
    res = score(impl, CLASSIC, 0, [90, 72], [5, 3], decl_points=[140, 50], roem=side)
    assert res.raw_totals == [90 + 140, 72]


def test_partner_declaration_counts_for_team(impl):
    seats = [[], [], impl.declarations(parse_cards("7h 8h 9h Th")), impl.declarations(parse_cards("Ac Kc Qc"))]
    assert impl.roem_side(seats, H, CLASSIC) == 0


def test_roem_tie_none_and_first(impl):
    seats = [
        impl.declarations(parse_cards("7s 8s 9s")),
        impl.declarations(parse_cards("Ac Kc Qc")),
        impl.declarations(parse_cards("Ad Kd Qd")),
    ]
    assert impl.roem_side(seats, H, PIEKJAS3) is None
    assert impl.roem_side(seats, H, PIEKJAS3.with_options(roem_tie="first")) == 1
    classic = [[], seats[1], seats[2], []]
    assert impl.roem_side(classic, H, CLASSIC) is None
    assert impl.roem_side(classic, H, CLASSIC.with_options(roem_tie="first")) == 1


def test_roem_tie_between_partners_is_no_tie(impl):
    seats = [impl.declarations(parse_cards("Ac Kc Qc")), [], impl.declarations(parse_cards("Ad Kd Qd")), []]
    assert impl.roem_side(seats, H, CLASSIC) == 0


def test_lower_tie_does_not_stop_the_best(impl):
    seats = [
        impl.declarations(parse_cards("Ac Kc Qc")),
        impl.declarations(parse_cards("Ad Kd Qd")),
        impl.declarations(parse_cards("7h 8h 9h Th")),
    ]
    assert impl.roem_side(seats, H, PIEKJAS3) == 2


def test_nobody_declares_no_roem_side(impl):
    assert impl.roem_side([[], [], []], H, PIEKJAS3) is None


def test_stuk_scores_20(impl):
    hands = [parse_cards("Kh Qh 7c"), parse_cards("Ah 8c"), parse_cards("Jh"), parse_cards("9h")]
    side = impl.stuk_side(hands, H, CLASSIC)
    assert side == 0
    res = score(impl, CLASSIC, 0, [90, 72], [5, 3], stuk=[20, 0])
    assert res.raw_totals == [110, 72]


def test_stuk_needs_king_and_queen_in_one_hand(impl):
    hands = [parse_cards("Kh 7c"), parse_cards("Ah"), parse_cards("Qh"), parse_cards("9h")]
    assert impl.stuk_side(hands, H, CLASSIC) is None
    assert impl.stuk_side([parse_cards("Kc Qc"), parse_cards("Kh")], H, DEKJAS) is None


def test_stuk_side_is_the_holders_side(impl):
    hands = [parse_cards("7c"), parse_cards("8c"), parse_cards("9c"), parse_cards("Ks Qs")]
    assert impl.stuk_side(hands, SPADES, CLASSIC) == 1
    assert impl.stuk_side(hands, SPADES, PIEKJAS4) == 3


def test_stuk_is_not_a_declaration(impl):
    # side 1 wins the roem; side 0's stuk still counts, and stuk alone wins no roem
    assert impl.roem_side([impl.declarations(parse_cards("Kh Qh")), []], H, DEKJAS) is None
    res = score(impl, CLASSIC, 0, [100, 62], [5, 3], decl_points=[0, 20], roem=1, stuk=[20, 0])
    assert res.raw_totals == [120, 82]


# --- §6 scoring: classic -------------------------------------------------------------


def test_made_each_team_scores_raw_total_without_rounding(impl):
    res = score(impl, CLASSIC, 0, [97, 65], [5, 3], decl_points=[20, 50], roem=0, stuk=[0, 20])
    assert res.outcome == "made"
    assert res.raw_totals == [117, 85]
    assert res.scores == [117, 85]
    assert res.reserve_after == 0


def test_capot_is_252(impl):
    res = score(impl, CLASSIC, 0, [162, 0], [8, 0])
    assert res.card_points == [252, 0]
    assert res.raw_totals == [252, 0]
    assert res.scores == [252, 0]  # no pit bonus in classic
    assert res.all_tricks_side == 0
    assert res.trickless_sides == [1]


def test_dedans_gives_162_plus_roem(impl):
    res = score(impl, CLASSIC, 0, [70, 92], [3, 5], decl_points=[20, 50], roem=1)
    assert res.outcome == "dedans"
    assert res.scores == [0, 162 + 50]
    # the takers' scoring roem goes to the defenders too
    res = score(impl, CLASSIC, 0, [60, 102], [3, 5], decl_points=[20, 0], roem=0)
    assert res.raw_totals == [80, 102]
    assert res.scores == [0, 162 + 20]


def test_dedans_takers_keep_belote(impl):
    res = score(impl, CLASSIC, 1, [102, 60], [5, 3], stuk=[0, 20])
    assert res.outcome == "dedans"
    assert res.scores == [162, 20]


def test_dedans_defenders_keep_their_belote(impl):
    res = score(impl, CLASSIC, 0, [70, 92], [3, 5], stuk=[0, 20])
    assert res.scores == [0, 182]


def test_dedans_capot_defenders_score_252(impl):
    res = score(impl, CLASSIC, 0, [0, 162], [0, 8], decl_points=[0, 20], roem=1)
    assert res.card_points == [0, 252]
    assert res.scores == [0, 252 + 20]


def test_litige_puts_takers_total_in_reserve(impl):
    res = score(impl, CLASSIC, 0, [81, 81], [4, 4])
    assert res.outcome == "tie"
    assert res.scores == [0, 81]
    assert res.reserve_after == 81


def test_litige_reserve_keeps_growing(impl):
    res = score(impl, CLASSIC, 1, [71, 91], [4, 4], decl_points=[20, 0], roem=0, reserve=81)
    assert res.outcome == "tie"
    assert res.scores == [91, 0]  # the defenders do not collect the old reserve
    assert res.reserve_after == 81 + 91


def test_classic_reserve_paid_to_next_hand_winner(impl):
    made = score(impl, CLASSIC, 0, [100, 62], [5, 3], reserve=81)
    assert made.scores == [181, 62] and made.reserve_after == 0
    dedans = score(impl, CLASSIC, 0, [62, 100], [3, 5], reserve=81)
    assert dedans.scores == [0, 162 + 81] and dedans.reserve_after == 0


def test_classic_tie_made_option(impl):
    res = score(impl, CLASSIC.with_options(classic_tie="made"), 0, [81, 81], [4, 4])
    assert res.outcome == "made"
    assert res.scores == [81, 81]
    assert res.reserve_after == 0


# --- §6 scoring: piekjas and dekjas --------------------------------------------------


def test_piekjas_made_everyone_scores_raw(impl):
    res = score(impl, PIEKJAS3, 0, [80, 50, 32], [4, 3, 2], decl_points=[0, 20, 20], roem=1)
    assert res.outcome == "made"
    assert res.raw_totals == [80, 70, 32]
    assert res.scores == [80, 70, 30]


def test_piekjas_dedans_goes_to_highest_other(impl):
    res = score(impl, PIEKJAS3, 0, [40, 70, 52], [3, 4, 2])
    assert res.outcome == "dedans"
    assert res.scores == [0, 110, 50]
    assert res.reserve_after == 0


def test_piekjas_dedans_shared_highest_goes_to_reserve(impl):
    res = score(impl, PIEKJAS3, 0, [40, 61, 61], [2, 4, 3])
    assert res.outcome == "dedans"
    assert res.scores == [0, 60, 60]
    assert res.reserve_after == 40


def test_piekjas_tie_goes_to_reserve(impl):
    res = score(impl, PIEKJAS3, 0, [61, 61, 40], [4, 3, 2])
    assert res.outcome == "tie"
    assert res.scores == [0, 60, 40]
    assert res.reserve_after == 61


def test_reserve_paid_to_next_winner(impl):
    made = score(impl, PIEKJAS3, 0, [90, 40, 32], [4, 3, 2], reserve=61)
    assert made.scores == [150, 40, 30] and made.reserve_after == 0
    dedans = score(impl, PIEKJAS3, 0, [40, 90, 32], [3, 4, 2], reserve=61)
    assert dedans.scores == [0, 190, 30] and dedans.reserve_after == 0


def test_reserve_keeps_growing_while_tied(impl):
    res = score(impl, PIEKJAS3, 0, [61, 61, 40], [4, 3, 2], reserve=40)
    assert res.scores == [0, 60, 40]
    assert res.reserve_after == 101
    shared = score(impl, PIEKJAS3, 0, [40, 61, 61], [2, 4, 3], reserve=61)
    assert shared.reserve_after == 101


def test_rounding_to_ten_halves_up(impl):
    assert score(impl, PIEKJAS2, 0, [85, 84], [5, 4]).scores == [90, 80]
    assert score(impl, PIEKJAS2, 0, [95, 64], [5, 4]).scores == [100, 60]
    assert score(impl, PIEKJAS2, 0, [86, 75], [5, 4]).scores == [90, 80]


def test_rounding_applies_to_each_players_sum(impl):
    # 44 own + 41 received = 85 -> 90 (rounding the parts would give 40 + 40)
    res = score(impl, PIEKJAS2, 0, [41, 44], [4, 5])
    assert res.scores == [0, 90]


def test_comparisons_use_raw_totals(impl):
    made = score(impl, PIEKJAS2, 0, [84, 83], [5, 4])
    assert made.outcome == "made" and made.scores == [80, 80]
    dedans = score(impl, PIEKJAS2, 0, [83, 84], [4, 5])
    assert dedans.outcome == "dedans" and dedans.scores == [0, 170]


def test_pit_bonus_100_for_all_tricks(impl):
    res = score(impl, PIEKJAS3, 0, [120, 0, 0], [9, 0, 0])
    assert res.scores == [220, 0, 0]  # the bonus, not two trickless shares
    assert res.all_tricks_side == 0
    assert res.trickless_sides == [1, 2]


def test_pit_bonus_for_a_non_troefmaker_with_all_tricks(impl):
    res = score(impl, PIEKJAS2, 0, [0, 110], [0, 9])
    assert res.outcome == "dedans"
    assert res.scores == [0, 210]
    assert res.all_tricks_side == 1 and res.trickless_sides == [0]


def test_pit_shares_100_per_trickless_player(impl):
    res = score(impl, PIEKJAS4, 0, [90, 72, 0, 0], [5, 3, 0, 0])
    assert res.scores == [190, 170, 0, 0]
    assert res.all_tricks_side is None
    assert res.trickless_sides == [2, 3]


def test_one_trickless_of_three_gives_50_each(impl):
    res = score(impl, PIEKJAS3, 0, [90, 72, 0], [6, 3, 0])
    assert res.scores == [140, 120, 0]


def test_one_trickless_of_four_gives_33_each(impl):
    # 51 + 33 = 84 -> 80 (34 would give 90); 42 + 33 = 75 -> 80 (32 would give 70)
    res = score(impl, PIEKJAS4, 0, [69, 51, 42, 0], [4, 2, 2, 0])
    assert res.outcome == "made"
    assert res.scores == [100, 80, 80, 0]


def test_dedans_troefmaker_pit_share_goes_with_points(impl):
    # s1: own 92 + share 50 + troefmaker's 40 + its share 50 = 232 -> 230
    res = score(impl, PIEKJAS3, 0, [40, 92, 0], [3, 6, 0])
    assert res.outcome == "dedans"
    assert res.scores == [0, 230, 0]


def test_tied_troefmaker_pit_share_goes_to_reserve(impl):
    res = score(impl, PIEKJAS3, 0, [70, 70, 0], [4, 5, 0])
    assert res.outcome == "tie"
    assert res.scores == [0, 120, 0]
    assert res.reserve_after == 70 + 50


def test_dedans_shared_pit_share_goes_to_reserve(impl):
    res = score(impl, PIEKJAS4, 0, [40, 61, 61, 0], [2, 3, 3, 0])
    assert res.reserve_after == 40 + 33
    assert res.scores == [0, 90, 90, 0]


def test_trickless_non_taker_keeps_roem_unless_it_wins_game(impl):
    args = (PIEKJAS3_TO_700, 0, [100, 62, 0], [5, 4, 0])
    kw = dict(decl_points=[0, 0, 50], roem=2, stuk=[0, 0, 20])
    res = score(impl, *args, **kw)
    assert res.raw_totals == [100, 62, 70]
    assert res.scores == [150, 110, 70]
    assert score(impl, *args, **kw, totals=[0, 0, 620]).scores == [150, 110, 70]  # 690 < 700
    dropped = score(impl, *args, **kw, totals=[0, 0, 630])  # 700 would win the game
    assert dropped.scores == [150, 110, 0]
    assert dropped.outcome == "made"


def test_trickless_rule_does_not_touch_players_with_tricks(impl):
    res = score(impl, PIEKJAS3_TO_700, 0, [110, 52, 0], [5, 4, 0], decl_points=[0, 50, 0], roem=1, totals=[0, 690, 0])
    assert res.outcome == "made"
    assert res.scores == [160, 150, 0]  # 690 + 150 reaches 700, but seat 1 won tricks


def test_dekjas_scores_like_piekjas(impl):
    made = score(impl, DEKJAS, 1, [11, 151], [1, 15], decl_points=[50, 70], roem=1, stuk=[0, 20])
    assert made.outcome == "made"
    assert made.raw_totals == [11, 241]
    assert made.scores == [10, 240]
    dedans = score(impl, DEKJAS, 0, [70, 92], [7, 9])
    assert dedans.outcome == "dedans" and dedans.scores == [0, 160]
    tie = score(impl, DEKJAS, 1, [81, 81], [8, 8])
    assert tie.outcome == "tie" and tie.scores == [80, 0] and tie.reserve_after == 81


def test_no_pit_when_everyone_wins_a_trick(impl):
    res = score(impl, PIEKJAS3, 0, [80, 50, 32], [4, 3, 2])
    assert res.all_tricks_side is None
    assert res.trickless_sides == []


# --- §7 a game --------------------------------------------------------------------------


def test_the_highest_total_at_or_over_the_target_wins_the_game(impl):
    assert impl.game_winner([1010, 990], 1000) == 0
    assert impl.game_winner([480, 520, 505], 500) == 1  # two over the target: the highest
    assert impl.game_winner([700, 640, 200], 700) == 0  # exactly the target is enough


def test_no_side_at_the_target_plays_on(impl):
    assert impl.game_winner([990, 980], 1000) is None
    assert impl.game_winner([0, 0, 0, 0], 1000) is None


def test_an_exact_tie_at_the_top_plays_on(impl):
    assert impl.game_winner([1020, 1020], 1000) is None
    assert impl.game_winner([510, 510, 600], 500) == 2  # the tie is not at the top
    assert impl.game_winner([600, 510, 600], 500) is None


# --- seeded random playouts: invariants at every step (§1, §4) ----------------------


ALL_RULES = [CLASSIC, PIEKJAS2, PIEKJAS3, PIEKJAS4, DEKJAS]


def _deal(rules, rng):
    """Random hands (dekjas: piles [down, up]) with every seat playing n_tricks cards."""
    deck = list(range(32))
    rng.shuffle(deck)
    k, n = rules.n_tricks, rules.players
    if rules.variant == "dekjas":
        return [[[deck[16 * s + 2 * i], deck[16 * s + 2 * i + 1]] for i in range(8)] for s in range(2)]
    return [set(deck[k * s : k * (s + 1)]) for s in range(n)]


@pytest.mark.parametrize("rules", ALL_RULES, ids=lambda r: r.label)
@pytest.mark.parametrize("undertrump", ["forced", "free"])
def test_random_playouts_keep_the_invariants(impl, rules, undertrump):
    rules = rules.with_options(undertrump=undertrump)
    rng = random.Random(20240 + rules.players)
    for _ in range(40):
        trump = rng.randrange(4)
        deal = _deal(rules, rng)
        dek = rules.variant == "dekjas"
        dealt = {c for seat in deal for x in seat for c in (x if dek else [x])}
        played, total, leader = set(), 0, 0
        for t in range(rules.n_tricks):
            trick = []
            for j in range(rules.players):
                seat = (leader + j) % rules.players
                hand = {p[-1] for p in deal[seat] if p} if dek else set(deal[seat])
                legal = set(impl.legal_plays(hand, trick, seat, trump, rules))
                assert legal and legal <= hand  # never empty, never outside the hand
                card = rng.choice(sorted(legal))
                if dek:
                    next(p for p in deal[seat] if p and p[-1] == card).pop()
                else:
                    deal[seat].discard(card)
                trick.append((seat, card))
                played.add(card)
            winner = impl.trick_winner(trick, trump)
            win_card = dict(trick)[winner]
            if any(c // 8 == trump for _, c in trick):
                assert win_card // 8 == trump  # a trick holding a trump is won by a trump
            else:
                assert win_card // 8 == trick[0][1] // 8
            total += impl.trick_points(trick, trump, last=t == rules.n_tricks - 1)
            leader = winner
        assert played == dealt  # every card dealt is played exactly once
        assert total == sum(impl.trick_points([(0, c)], trump) for c in dealt) + 10
        if len(dealt) == 32:
            assert total == 162


# --- revision 2 (RULES.md "Changes", 2026-12-01), both readings of every new default ----
#
# Scoring runs over both implementations (``impl``); dealing and bidding run in the
# kernel (``trace_deck`` on a deck written in card notation) and the reference replays
# the kernel's record (``reference.replay``), which checks them against RULES.md.


def _kernel_record(rules, deck, bid="heuristic", play="heuristic"):
    from analyzer.output.deallog import record_from_trace
    from analyzer.players.policies import Policies
    from analyzer.runs.simulate import SimConfig, trace_deck

    cfg = SimConfig(rules=rules, policies=Policies.parse(bid, play, rules.players), deals=1, seed=1)
    d, res, trace = trace_deck(cfg, deck)
    return record_from_trace(cfg, 0, d, res, trace)


def _piekjas_deck(first, turned, late):
    """Piekjas with 2 or 3 players, in dealing order: 6 cards per seat, the turned card,
    3 more per seat, then the rest of the stock (the fille last)."""
    dealt = [c for block in first for c in parse_cards(block)] + [parse_card(turned)]
    dealt += [c for block in late for c in parse_cards(block)]
    return dealt + [c for c in range(32) if c not in dealt]


def _replays(rec, **rule_changes):
    from analyzer.rules import reference

    rec = dict(rec, rules=dict(rec["rules"], **rule_changes))
    return reference.replay(rec)


def test_round2_defaults_to_any_suit_in_piekjas():
    assert PIEKJAS2.round2_suits == PIEKJAS3.round2_suits == PIEKJAS4.round2_suits == "any"
    assert DEKJAS.round2_suits == "any"
    assert PIEKJAS3.record().round2_any == 1
    # random bidders in the kernel name the turned suit in round 2; the reference accepts
    # it under the default and refuses it under round2_suits=other
    from analyzer.output.deallog import hand_record
    from analyzer.players.policies import Policies
    from analyzer.runs.simulate import SimConfig

    cfg = SimConfig(rules=PIEKJAS3, policies=Policies.parse("random", "random", 3), deals=300, seed=4)
    recs = [hand_record(cfg, i) for i in range(300)]
    turned_r2 = [r for r in recs for b in r["bids"]
                 if b["round"] == 2 and b.get("suit") == r["turned"][1] and b["call"] == "take"]
    assert turned_r2
    assert all(_replays(r) == [] for r in recs)
    assert any("other than the turned suit" in e for e in _replays(turned_r2[0], round2_suits="other"))


def test_round2_suits_other_never_names_the_turned_suit():
    from analyzer.output.deallog import hand_record
    from analyzer.players.policies import Policies
    from analyzer.runs.simulate import SimConfig

    rules = PIEKJAS3.with_options(round2_suits="other")
    cfg = SimConfig(rules=rules, policies=Policies.parse("random", "random", 3), deals=300, seed=4)
    recs = [hand_record(cfg, i) for i in range(300)]
    assert any(b["round"] == 2 and b["call"] == "take" for r in recs for b in r["bids"])
    assert not [r for r in recs for b in r["bids"] if b["round"] == 2 and b.get("suit") == r["turned"][1]]


def test_classic_round2_always_names_another_suit():
    from analyzer.errors import BeloteError

    assert CLASSIC.round2_suits == "other"
    with pytest.raises(BeloteError, match="round2_suits is for piekjas and dekjas"):
        Rules("classic", 4, round2_suits="any")


# seat 0 takes the turned Qh in round 1 (heuristic: a strong heart hand); the 7h reaches
# the last seat only with the last 3 cards
LATE_SEVEN = {
    3: (["Jh 9h Ah Th Kh Ac", "7c 8c 9c Tc Jc Qc", "7d 8d 9d Td Jd Qd"], "Qh", ["Kc Kd Ks", "Ad As Ts", "7h 8h Js"]),
    2: (["Jh 9h Ah Th Kh Ac", "7c 8c 9c Tc Jc Qc"], "Qh", ["Kc Kd Ks", "7h 8h Js"]),
}


def _check_late_seven(players):
    first, turned, late = LATE_SEVEN[players]
    deck = _piekjas_deck(first, turned, late)
    rules = Rules("piekjas", players)
    assert rules.dix_timing == "bidding"
    rec = _kernel_record(rules, deck)
    assert rec["trump"] == "h" and rec["troefmaker"] == 0
    assert rec["exchange"] is None  # the 7h arrived after the exchange moment
    last = players - 1
    assert "7h" in rec["start_hands"][last] and "Qh" not in rec["start_hands"][last]
    assert _replays(rec) == []
    # the reference refuses the late exchange that revision 1 allowed
    late_rec = _kernel_record(rules.with_options(dix_timing="deal"), deck)
    assert late_rec["exchange"] == {"seat": last, "gave": "7h", "got": "Qh"}
    assert any("does not hold 7h right after bidding" in e for e in _replays(late_rec, dix_timing="bidding"))


def test_dix_after_bidding_cannot_exchange_late_seven_with_three_players():
    _check_late_seven(3)


def test_dix_after_bidding_cannot_exchange_late_seven_with_two_players():
    _check_late_seven(2)


@pytest.mark.parametrize("players", [2, 3])
def test_dix_timing_deal_exchanges_a_seven_that_arrives_with_the_last_cards(players):
    first, turned, late = LATE_SEVEN[players]
    rules = Rules("piekjas", players, dix_timing="deal")
    rec = _kernel_record(rules, _piekjas_deck(first, turned, late))
    last = players - 1
    assert rec["exchange"] == {"seat": last, "gave": "7h", "got": "Qh"}
    assert "Qh" in rec["start_hands"][last] and "7h" not in rec["start_hands"][last]
    assert _replays(rec) == []


@pytest.mark.parametrize("timing", ["bidding", "deal"])
def test_dix_exchanges_a_seven_held_at_bidding_under_either_timing(timing):
    # seat 1 holds the 7h in its first 6 cards
    first = ["Jh 9h Ah Th Kh Ac", "7h 8c 9c Tc Jc Qc", "7d 8d 9d Td Jd Qd"]
    rec = _kernel_record(Rules("piekjas", 3, dix_timing=timing),
                         _piekjas_deck(first, "Qh", ["Kc Kd Ks", "Ad As Ts", "7c 8h Js"]))
    assert rec["exchange"] == {"seat": 1, "gave": "7h", "got": "Qh"}
    assert _replays(rec) == []


def test_dix_timing_is_an_option_only_for_piekjas_with_two_or_three_players():
    from analyzer.errors import BeloteError
    from analyzer.rules import option_choices

    for label in ("classic", "piekjas4", "dekjas"):
        with pytest.raises(BeloteError, match="dix_timing is for piekjas with 2 or 3 players"):
            Rules.from_label(label, ["dix_timing=deal"])
        assert "dix_timing" not in option_choices(*{"classic": ("classic", 4), "piekjas4": ("piekjas", 4),
                                                    "dekjas": ("dekjas", 2)}[label])
    assert option_choices("piekjas", 3)["dix_timing"] == ("bidding", "deal")


def test_classic_roem_compare_defaults_to_points(impl):
    assert CLASSIC.roem_compare == "points"
    five = impl.declarations(parse_cards("7c 8c 9c Tc Jc"))  # 5-sequence, 100
    jacks = impl.declarations(parse_cards("Jc Jd Jh Js"))  # carré of jacks, 200
    seats = [five, jacks, [], []]
    assert impl.roem_side(seats, H, CLASSIC) == 1  # the declaration worth more wins
    assert impl.roem_side(seats, H, CLASSIC.with_options(roem_compare="cards")) == 0  # more cards wins


def test_piekjas_and_dekjas_roem_compare_defaults_to_cards(impl):
    five = impl.declarations(parse_cards("7c 8c 9c Tc Jc"))
    jacks = impl.declarations(parse_cards("Jc Jd Jh Js"))
    for rules in (PIEKJAS2, DEKJAS):
        assert rules.roem_compare == "cards"
        assert impl.roem_side([five, jacks], H, rules) == 0
        assert impl.roem_side([five, jacks], H, rules.with_options(roem_compare="points")) == 1


# A piekjas-3 hand: troefmaker 0 makes; seat 2 wins no trick and has a 50 sequence (the
# best declaration) and stuk: raw [100, 62, 70], scores [150, 110, 70] (pit 50 each to
# seats 0 and 1). Without its roem and stuk seat 2 would score 0. Target 700.
TRICKLESS = (PIEKJAS3_TO_700, 0, [100, 62, 0], [5, 4, 0])
TRICKLESS_KW = dict(decl_points=[0, 0, 50], roem=2, stuk=[0, 0, 20])
BY_TARGET = PIEKJAS3_TO_700.with_options(trickless_roem="target")


def test_trickless_roem_defaults_to_wins():
    assert PIEKJAS3.trickless_roem == DEKJAS.trickless_roem == "wins"
    assert PIEKJAS3.record().trickless_target == 0 and BY_TARGET.record().trickless_target == 1


def test_trickless_roem_kept_when_another_player_wins(impl):
    # seat 2 reaches 640 + 70 = 710, but seat 1 ends higher (620 + 110 = 730) and wins
    res = score(impl, *TRICKLESS, **TRICKLESS_KW, totals=[0, 620, 640])
    assert res.scores == [150, 110, 70]
    # revision 1 (trickless_roem=target): dropped because 710 reaches the target
    assert score(impl, BY_TARGET, *TRICKLESS[1:], **TRICKLESS_KW, totals=[0, 620, 640]).scores == [150, 110, 0]


def test_trickless_roem_kept_on_an_exact_tie_at_the_top(impl):
    # seat 1 and seat 2 both end at 710: an exact tie plays on, nobody wins (§7)
    assert score(impl, *TRICKLESS, **TRICKLESS_KW, totals=[0, 600, 640]).scores == [150, 110, 70]
    assert score(impl, BY_TARGET, *TRICKLESS[1:], **TRICKLESS_KW, totals=[0, 600, 640]).scores == [150, 110, 0]


def test_trickless_roem_dropped_when_it_makes_the_player_win(impl):
    # with them seat 2 ends at 710, the highest; without them at 640: dropped either way
    for rules in (PIEKJAS3_TO_700, BY_TARGET):
        res = score(impl, rules, *TRICKLESS[1:], **TRICKLESS_KW, totals=[0, 300, 640])
        assert res.scores == [150, 110, 0]
        assert res.outcome == "made" and res.raw_totals == [100, 62, 70]  # comparisons keep the raw totals


def test_trickless_roem_kept_when_the_player_wins_without_it(impl):
    # seat 2 wins no trick but its carré of nines (150) beats the troefmaker (dedans):
    # it receives the troefmaker's 40 and pit share 50: 240, 90 of it without the carré;
    # from 650 it wins the game with 890 or with 740 (seat 1: 500 + 170)
    args = (0, [40, 122, 0], [2, 7, 0])
    kw = dict(decl_points=[0, 0, 150], roem=2, totals=[0, 500, 650])
    res = score(impl, PIEKJAS3_TO_700, *args, **kw)
    assert res.outcome == "dedans" and res.scores == [0, 170, 240]
    assert score(impl, BY_TARGET, *args, **kw).scores == [0, 170, 90]


def test_trickless_roem_dropped_for_each_player_it_would_make_win(impl):
    # piekjas 4 (target 1000): seats 2 (50 sequence) and 3 (stuk) win no trick; seat 2
    # would win with 1020; once it is dropped seat 3 would win with its stuk (1000 over
    # 970): dropped too, and nobody wins on trickless roem
    res = score(impl, PIEKJAS4, 0, [100, 62, 0, 0], [5, 3, 0, 0], decl_points=[0, 0, 50, 0], roem=2,
                stuk=[0, 0, 0, 20], totals=[0, 0, 970, 980])
    assert res.scores == [200, 160, 0, 0]


def test_single_hand_keeps_trickless_roem(impl):
    assert score(impl, *TRICKLESS, **TRICKLESS_KW).scores == [150, 110, 70]
    assert score(impl, BY_TARGET, *TRICKLESS[1:], **TRICKLESS_KW).scores == [150, 110, 70]


def test_trickless_roem_is_an_option_only_for_piekjas_and_dekjas():
    from analyzer.errors import BeloteError

    with pytest.raises(BeloteError, match="trickless_roem is for piekjas and dekjas"):
        Rules("classic", 4, trickless_roem="target")


def test_revision_2_lists_each_option_change_with_its_new_default():
    from analyzer.rules import ALL_LABELS, REVISION_2, option_choices

    assert [c.option for c in REVISION_2] == ["round2_suits", "dix_timing", "roem_compare", "trickless_roem"]
    for change in REVISION_2:
        for label in ALL_LABELS:
            rules = Rules.from_label(label)
            choices = option_choices(rules.variant, rules.players)
            if label in change.labels:
                assert getattr(rules, change.option) == change.after
                assert choices[change.option] == (change.after, change.before)
            else:  # elsewhere the default did not change, or the option changes nothing
                assert change.option not in choices or choices[change.option][0] != change.after
