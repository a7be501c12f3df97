"""Card notation (RULES.md §1, DEAL_LOG.md): round trips, accepted spellings, one-line errors."""

import pytest
from hypothesis import given
from hypothesis import strategies as st

from analyzer.rules.cards import (
    NotationError,
    format_card,
    format_cards,
    format_suit,
    parse_card,
    parse_cards,
    parse_suit,
)

cards_st = st.integers(min_value=0, max_value=31)
langs_st = st.sampled_from(["en", "nl"])


@given(cards_st, langs_st, st.booleans())
def test_card_round_trip(card, lang, symbols):
    assert parse_card(format_card(card, lang, symbols), lang) == card


@given(st.lists(cards_st, unique=True), langs_st, st.booleans())
def test_hand_round_trip_keeps_order(cards, lang, symbols):
    assert parse_cards(format_cards(cards, lang, symbols), lang) == cards


@given(st.integers(min_value=0, max_value=3), langs_st, st.booleans())
def test_suit_round_trip(suit, lang, symbols):
    assert parse_suit(format_suit(suit, lang, symbols), lang) == suit


def test_english_notation_is_rank_then_suit():
    assert format_card(parse_card("Th")) == "Th"
    assert [format_card(c) for c in (0, 7, 8, 31)] == ["7c", "Ac", "7d", "As"]
    assert format_cards(parse_cards("Jh 9h Ah Tc 7s")) == "Jh 9h Ah Tc 7s"


def test_ten_written_10_is_accepted():
    assert parse_card("10h") == parse_card("Th")
    assert parse_card("Th", "nl") == parse_card("10h", "nl") == parse_card("Th")


def test_suit_symbols_accepted():
    assert parse_cards("J♥ 9♦ A♣ 10♠") == parse_cards("Jh 9d Ac Ts")
    assert format_card(parse_card("Jh"), symbols=True) == "J♥"


def test_dutch_ranks_and_suits():
    # B = boer (J), V = vrouw (Q), H = heer (K); k = klaveren, r = ruiten
    assert parse_cards("Bk Vr Hh As 10s", "nl") == parse_cards("Jc Qd Kh As Ts")
    assert format_card(parse_card("Jc"), "nl") == "Bk"


def test_commas_separate_cards():
    assert parse_cards("Jh, 9h,Ah") == parse_cards("Jh 9h Ah")


def test_bad_rank_names_the_token():
    with pytest.raises(NotationError) as e:
        parse_card("Xh")
    assert str(e.value) == '"Xh" is not a card: ranks are 7 8 9 T J Q K A'


def test_bad_suit_names_the_token():
    with pytest.raises(NotationError) as e:
        parse_card("Jx")
    assert str(e.value).startswith('"Jx" is not a card: suits are c d h s')


def test_too_short_token_names_the_token():
    with pytest.raises(NotationError) as e:
        parse_card("J")
    assert str(e.value).startswith('"J" is not a card')


def test_bad_token_in_a_hand_names_that_token():
    with pytest.raises(NotationError) as e:
        parse_cards("Jh Xh 9h")
    assert '"Xh"' in str(e.value)


def test_bad_suit_names_the_suit_token():
    with pytest.raises(NotationError) as e:
        parse_suit("x")
    assert str(e.value).startswith('"x" is not a suit')


def test_unknown_language_is_an_error():
    with pytest.raises(NotationError):
        parse_card("Jh", "fr")


def test_duplicates_rejected():
    with pytest.raises(NotationError) as e:
        parse_cards("Jh 9h Jh")
    assert '"Jh"' in str(e.value)


def test_same_card_in_two_spellings_is_a_duplicate():
    with pytest.raises(NotationError) as e:
        parse_cards("Th 9h 10h")
    assert '"10h"' in str(e.value)


def test_notation_error_is_a_value_error():
    assert issubclass(NotationError, ValueError)


@given(st.text(alphabet=st.characters(blacklist_categories=("Cs",)), min_size=1, max_size=6).filter(
    lambda t: not any(ch.isspace() for ch in t)
))
def test_any_token_is_a_card_or_a_one_line_error_naming_it(token):
    try:
        card = parse_card(token)
    except NotationError as e:
        msg = str(e)
        assert f'"{token}"' in msg
        assert "\n" not in msg
    else:
        assert 0 <= card < 32
        assert parse_card(format_card(card)) == card
