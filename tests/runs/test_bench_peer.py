"""The solver agrees card for card with colver's double-dummy values (skipped without the
optional ``bench`` extra), and the card and suit mapping into our notation is right."""

import pytest

from analyzer.runs.bench_peer import card_from_colver, suit_from_colver
from analyzer.rules.cards import format_card, format_suit


def test_colver_cards_map_to_our_notation():
    # colver: suits spades hearts diamonds clubs, ranks 7 8 9 J Q K 10 A
    assert [format_card(card_from_colver(i)) for i in range(8)] == ["7s", "8s", "9s", "Js", "Qs", "Ks", "Ts", "As"]
    assert format_card(card_from_colver(11)) == "Jh"
    assert format_card(card_from_colver(22)) == "Td"
    assert format_card(card_from_colver(31)) == "Ac"
    assert sorted(card_from_colver(i) for i in range(32)) == list(range(32))
    assert [format_suit(suit_from_colver(s)) for s in range(4)] == ["s", "h", "d", "c"]


def test_solver_values_equal_colvers_card_for_card():
    pytest.importorskip("colver", reason="colver is not installed: pip install -e '.[bench]' to compare with the peer")
    from analyzer.runs.bench_peer import solver_vs_colver

    r = solver_vs_colver(6, seed=11)
    assert r.cards >= 6 * 8
    assert r.mismatches == []
