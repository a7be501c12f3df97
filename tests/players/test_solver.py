"""The double-dummy solver (analyzer.players.solver) equals a plain brute-force minimax on every
position of random endings (up to 4 tricks left), for every variant, undertrump option
and objective; and it is deterministic."""

import numpy as np
import pytest

from analyzer.rules.cards import mask_to_cards, parse_card, parse_cards, parse_suit
from analyzer.rules import ALL_LABELS, Rules
from analyzer.players.solver import Solver, brute_force_value
from analyzer.game.state import (
    ST_TO_MOVE,
    is_over,
    legal_cards,
    play_card,
    random_start,
    start_state,
    undo_card,
)

from test_strong import stable_seed

ENDINGS = 25  # random endings per case; every position along a random line is checked


def random_ending(rules, rng, tricks_left):
    """A random position with at most ``tricks_left`` tricks to go (sometimes mid-trick),
    reached by random play from a random start."""
    rec = rules.record()
    st, _ = random_start(rules, rng)
    stop = (rules.n_tricks - tricks_left) * rules.players + int(rng.integers(rules.players))
    for _ in range(stop):
        options = mask_to_cards(int(legal_cards(st, rec)))
        play_card(st, rec, options[int(rng.integers(len(options)))])
    return st


def _cases():
    for label in ALL_LABELS:
        for undertrump in ("forced", "free"):
            for objective in ("points", "pit"):
                if label == "classic" and objective == "pit":
                    continue  # classic has no pit award: the same objective as points
                yield label, undertrump, objective


@pytest.mark.parametrize("label,undertrump,objective", list(_cases()))
def test_solver_equals_brute_force_minimax_on_random_endings(label, undertrump, objective):
    rules = Rules.from_label(label, [f"undertrump={undertrump}"])
    rec = rules.record()
    solver = Solver(rules, objective, tt_bits=12)  # a small table: collisions get exercised
    rng = np.random.default_rng(stable_seed(label, undertrump, objective))
    checked = 0
    for e in range(ENDINGS):
        st = random_ending(rules, rng, tricks_left=1 + e % 4)
        # the value of each legal card at the ending's first position
        sol = solver.card_values(st)
        for card, value in sol.cards.items():
            play_card(st, rec, card)
            assert value == brute_force_value(st, rules, objective), (label, card)
            undo_card(st, rec)
        while not is_over(st, rec):
            before = st.copy()
            want = brute_force_value(st, rules, objective)
            got = solver.value(st)
            assert got.value == want
            assert st.tobytes() == before.tobytes(), "solving must not change the position"
            checked += 1
            options = mask_to_cards(int(legal_cards(st, rec)))
            play_card(st, rec, options[int(rng.integers(len(options)))])
    assert checked >= ENDINGS * 2


def test_solver_is_deterministic_value_and_nodes():
    rules = Rules.from_label("classic")
    rng = np.random.default_rng(3)
    st = random_ending(rules, rng, tricks_left=5)
    a = Solver(rules).card_values(st)
    b = Solver(rules).card_values(st)
    assert (a.value, a.nodes, a.cards) == (b.value, b.nodes, b.cards)
    assert a.nodes > 0


def test_solver_full_classic_deal_values_within_bounds():
    rules = Rules.from_label("classic")
    rng = np.random.default_rng(9)
    solver = Solver(rules)
    for _ in range(3):
        st, _ = random_start(rules, rng)
        sol = solver.card_values(st)
        assert all(0 <= v <= 252 and v not in range(163, 252) for v in sol.cards.values())
        assert sol.value == solver.value(st).value


def test_classic_capot_is_worth_252_in_the_value():
    # seat 0 draws every trump and cashes its aces and the Ts: capot whatever the defence
    rules = Rules.from_label("classic")
    hands = ["Jh 9h Ah Th Ac Ad As Ts", "7c 8c 9c Tc 7d 8d 9d Td",
             "Kh Qh 8h 7h Kc Kd Qs Js", "Qc Jc Qd Jd 7s 8s 9s Ks"]
    st = start_state(rules, [parse_cards(h) for h in hands], parse_suit("h"), taker=0)
    sol = Solver(rules).card_values(st)
    assert sol.value == 252
    assert sol.cards[parse_card("Jh")] == 252


def test_equivalent_cards_get_the_same_value():
    # piekjas, 2 players: 7c and 8c of seat 0 are adjacent with 0 points each
    rules = Rules.from_label("piekjas2")
    hands = ["7c 8c Ac Kh Qh 7d 8s 9s Ts", "9c Tc Jh 9h Ah Ad Kd Js Qs"]
    st = start_state(rules, [parse_cards(h) for h in hands], parse_suit("h"), taker=0)
    sol = Solver(rules).card_values(st)
    assert sol.cards[parse_card("7c")] == sol.cards[parse_card("8c")]
    assert int(st[ST_TO_MOVE]) == 0
