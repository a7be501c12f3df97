"""Policies by role (``--play taker=X,defence=Y``) and the duplicate duel (issue 10).

Small runs: what these pin is exact (negation, zero, thread count, the solver's best card),
so a few hundred deals are enough; the one statistical check states its bound.
"""

import json
import math
from pathlib import Path

import numpy as np
import pytest

from analyzer.errors import BeloteError
from analyzer.game.state import (
    ST_BEST_I,
    ST_GONE,
    ST_HANDS,
    ST_LEADER,
    ST_LED,
    ST_N_IN,
    ST_PLAYED,
    ST_TO_MOVE,
    ST_TRICK_NO,
    is_over,
    legal_cards,
    play_card,
    random_start,
    state_from_record,
)
from analyzer.output.deallog import record_from_trace
from analyzer.players import play as play_mod
from analyzer.players.policies import Policies, parse_play
from analyzer.players.solver import Solver
from analyzer.questions.duel import (
    D_DEALS,
    D_SIDE,
    D_SUM,
    duel,
    kernel_inputs,
    line_loss,
    parse_set,
    seatings,
)
from analyzer.rules import Rules
from analyzer.rules.cards import parse_card
from analyzer.runs import driver
from analyzer.runs.games import play_games
from analyzer.runs.simulate import SimConfig, simulate, trace_hand

GOLDEN = Path(__file__).resolve().parents[1] / "data" / "by_seat_before_roles.json"


# ---- the role parser ---------------------------------------------------------------------


def test_play_by_role_fills_each_row():
    taker, defence = parse_play("taker=random,defence=heuristic", 4)
    assert taker == ("random",) * 4 and defence == ("heuristic",) * 4
    # the role not named plays heuristic; "defense" is accepted
    assert parse_play("defense=random", 2) == (("heuristic",) * 2, ("random",) * 2)


def test_play_one_name_and_by_seat_fill_both_rows():
    assert parse_play("random", 3) == (("random",) * 3, ("random",) * 3)
    seats = ("random", "heuristic", "random", "heuristic")
    assert parse_play("0=random,2=random", 4) == (seats, seats)


@pytest.mark.parametrize("spec,words", [
    ("taker=random,1=heuristic", "mixes roles and seats"),
    ("taker=random,taker=heuristic", "names the taker twice"),
    ("defence=clever", 'unknown policy "clever"'),
    ("attack=random", "\"attack=\" is neither a role nor a seat: the roles are taker and defence"),
])
def test_play_role_parser_refuses_with_one_line(spec, words):
    with pytest.raises(BeloteError) as e:
        parse_play(spec, 4)
    assert words in str(e.value) and "\n" not in str(e.value)


def test_bid_cannot_be_given_by_role():
    with pytest.raises(BeloteError, match="known only after bidding"):
        Policies.parse("taker=random", "heuristic", 4)


def test_role_policies_codes_and_description():
    p = Policies.parse("heuristic", "taker=random,defence=heuristic", 4)
    _, codes = p.codes()
    assert codes.shape == (2, 4) and codes.dtype == np.int64
    assert codes[0].tolist() == [play_mod.RANDOM] * 4 and codes[1].tolist() == [play_mod.HEURISTIC] * 4
    assert p.describe() == {"bid": "heuristic", "play": {"taker": "random", "defence": "heuristic"}}
    assert Policies.parse("heuristic", "0=random", 2).describe()["play"] == {"0": "random", "1": "heuristic"}
    assert p.label() == "heuristic/taker=random,defence=heuristic"


def test_games_rotate_the_role_policies_with_the_player():
    p = Policies.parse("0=random", "taker=random,defence=heuristic", 3)
    s = p.seated([2, 0, 1])  # player 2 at seat 0, ...
    assert s.bid == ("heuristic", "random", "heuristic")
    assert s.play == (("random",) * 3, ("heuristic",) * 3)


# ---- the hand resolves one policy per seat after bidding -------------------------------


def _heuristic_card(st, rules, legal):
    """The heuristic's card in position ``st`` (classic: nothing lies face up out of play)."""
    n = rules.players
    seat = int(st[ST_TO_MOVE])
    k = int(st[ST_N_IN])
    t = int(st[ST_TRICK_NO])
    win_card = win_seat = -1
    if k:
        bi = int(st[ST_BEST_I])
        win_card = int(st[ST_PLAYED + t * n + bi])
        win_seat = (int(st[ST_LEADER]) + bi) % n
    return int(play_mod.choose_card(play_mod.HEURISTIC, np.uint32(legal), seat, np.uint32(st[ST_HANDS + seat]),
                                    np.uint32(st[ST_GONE]), int(st[ST_LED]), win_card, win_seat, k, int(st[0]),
                                    int(st[1]), True, n, np.uint64(0)))


def test_taker_random_defence_heuristic_plays_each_role_its_policy():
    """Every defender's card is the heuristic's; the taker side's cards are uniform over the
    legal cards: at the decisions between exactly 2 cards, the lower-numbered card is chosen
    with a share within 4 standard errors of 1/2 (a false alarm about 1 time in 15,000)."""
    rules = Rules()
    pols = Policies.parse("heuristic", "taker=random,defence=heuristic", 4)
    cfg = SimConfig(rules=rules, policies=pols, deals=400, seed=7)
    defender_cards = taker_choices = taker_unlike_heuristic = 0
    two_way = lower = 0
    for i in range(cfg.deals):
        deck, res, trace = trace_hand(cfg, i)
        rec = record_from_trace(cfg, i, deck, res, trace)
        if rec["outcome"] != "played":
            continue
        assert rec["policies"]["play"] == {"taker": "random", "defence": "heuristic"}
        st, _ = state_from_record(rec)
        taker_side = rec["troefmaker"] & 1
        for trick in rec["tricks"]:
            for seat, card in trick["plays"]:
                c = parse_card(card)
                legal = int(legal_cards(st, rules.record()))
                assert legal >> c & 1
                if (seat & 1) != taker_side:
                    assert c == _heuristic_card(st, rules, legal), f"deal {i}: defender {seat} left the heuristic"
                    defender_cards += 1
                elif bin(legal).count("1") > 1:
                    taker_choices += 1
                    taker_unlike_heuristic += c != _heuristic_card(st, rules, legal)
                    if bin(legal).count("1") == 2:
                        two_way += 1
                        lower += c == (legal & -legal).bit_length() - 1
                play_card(st, rules.record(), c)
    assert defender_cards > 2000 and taker_choices > 1000
    assert taker_unlike_heuristic > taker_choices // 5  # a random taker, not the heuristic
    assert abs(lower / two_way - 0.5) <= 4 * math.sqrt(0.25 / two_way), (lower, two_way)


def test_by_seat_form_gives_the_numbers_from_before_roles():
    """The counts of per-seat runs (simulate, games) equal those the code before policies by
    role produced (``tests/data/by_seat_before_roles.json``, recorded from main at 5da2980),
    the heuristic's seats playing its card play of then (``heuristic:v=1``: issue 10 changed it)."""
    golden = json.loads(GOLDEN.read_text())
    for key, want in golden.items():
        what, label, _, play = key.split(" ")
        r = Rules.from_label(label)
        seats = ["heuristic"] * r.players
        for part in play.split(","):
            seats[int(part.partition("=")[0])] = part.partition("=")[2]
        play = ",".join(f"{s}={'heuristic:v=1' if name == 'heuristic' else name}" for s, name in enumerate(seats))
        cfg = SimConfig(rules=r, policies=Policies.parse("heuristic", play, r.players), deals=3000, seed=5, threads=1)
        got = simulate(cfg).counts.tolist() if what == "simulate" else play_games(cfg, 40).games.tolist()
        assert got == want, key


# ---- the duel --------------------------------------------------------------------------


def _rows(rules, a, b, deals=300, seed=3, threads=None, per_unit=False, chunk=64):
    args, cfg = kernel_inputs(rules, parse_set(a, "--a", rules.players), parse_set(b, "--b", rules.players))
    if threads is not None:
        from analyzer.runs.simulate import set_threads

        set_threads(threads)
    try:
        return driver.run_units(driver.DUEL, seed, 0, deals, chunk, args, cfg, per_unit=per_unit)
    finally:
        if threads is not None:
            set_threads(None)


def test_duel_seatings_by_variant():
    assert seatings(Rules()) == [(0, 1, 0, 1), (1, 0, 1, 0)]
    assert seatings(Rules.from_label("dekjas")) == [(0, 1), (1, 0)]
    assert seatings(Rules.from_label("piekjas4")) == [(0, 1, 1, 1), (1, 0, 1, 1), (1, 1, 0, 1), (1, 1, 1, 0)]


@pytest.mark.parametrize("label", ["classic", "piekjas3"])
def test_duel_a_against_a_is_zero_on_every_deal(label):
    rules = Rules.from_label(label)
    rows = _rows(rules, "heuristic/taker=random,defence=heuristic", "heuristic/taker=random,defence=heuristic",
                 deals=200, per_unit=True)
    assert (rows[:, D_SUM] == 0).all()
    assert rows[:, D_SIDE].sum() > 0 and rows[:, D_SIDE + 5].sum() > 0  # hands were played and taken


@pytest.mark.parametrize("label", ["classic", "piekjas2"])
def test_duel_swapping_a_and_b_negates_the_mean_exactly(label):
    rules = Rules.from_label(label)
    a, b = "heuristic/heuristic", "random/taker=random,defence=heuristic"
    r1 = duel(rules, parse_set(a, "--a", rules.players), parse_set(b, "--b", rules.players), deals=300, seed=4)
    r2 = duel(rules, parse_set(b, "--a", rules.players), parse_set(a, "--b", rules.players), deals=300, seed=4)
    assert r1.margin.mean != 0
    assert r1.margin.mean == -r2.margin.mean and r1.margin.se == r2.margin.se
    assert r1.taking.mean == -r2.defending.mean
    assert r1.sides[0] == r2.sides[1] and r1.sides[1] == r2.sides[0]


def test_duel_numbers_do_not_depend_on_the_thread_count():
    rules = Rules()
    one = _rows(rules, "heuristic/heuristic", "calibrated/random", deals=500, threads=1, chunk=32)
    two = _rows(rules, "heuristic/heuristic", "calibrated/random", deals=500, threads=2, chunk=32)
    assert one[D_DEALS] == 500 and (one == two).all()


def test_duel_policy_set_parser():
    s = parse_set("calibrated/taker=random,defence=heuristic", "--a", 4)
    assert s.policies.bid == ("calibrated",) * 4 and s.policies.by_role
    assert parse_set("some/dir/pol.json/random", "--b", 2).policies.bid == ("some/dir/pol.json",) * 2
    for bad, words in (("heuristic", "must be BID/PLAY"), ("heuristic/0=random", "not per seat"),
                       ("0=random/heuristic", "not per seat")):
        with pytest.raises(BeloteError, match=words):
            parse_set(bad, "--a", 4)


# ---- the double-dummy loss -------------------------------------------------------------


def _ending(seed, cards_played=20):
    """A classic position with 3 tricks left, reached by random legal cards."""
    rules = Rules()
    rng = np.random.default_rng(seed)
    st, _ = random_start(rules, rng)
    rec = rules.record()
    for _ in range(cards_played):
        legal = int(legal_cards(st, rec))
        cs = [c for c in range(32) if legal >> c & 1]
        play_card(st, rec, int(rng.choice(cs)))
    return rules, st


def _line(solver, st, first=None):
    """Every card to the end: the solver's best, except ``first`` as the first card."""
    rec = solver.rec
    work = st.copy()
    plays = []
    while not is_over(work, rec):
        sol = solver.card_values(work)
        card = first if first is not None and not plays else sol.best_card
        plays.append((int(work[ST_TO_MOVE]), card))
        play_card(work, rec, card)
    return plays


def test_dd_loss_is_zero_along_the_solvers_best_line():
    rules, st = _ending(11)
    solver = Solver(rules)
    losses = line_loss(solver, st, _line(solver, st))
    assert losses and all(loss == 0 for _, loss in losses)


def test_dd_loss_of_a_worse_card_is_its_value_gap():
    rules = Rules()
    solver = Solver(rules)
    for seed in range(40):  # the first ending where the mover has a strictly worse card
        rules, st = _ending(seed)
        sol = solver.card_values(st)
        gaps = {c: (sol.value - v if solver.maximizes(st) else v - sol.value) for c, v in sol.cards.items()}
        worse = [c for c, g in gaps.items() if g > 0]
        if worse:
            break
    else:
        pytest.fail("no ending with a worse card in 40 seeds")
    card = worse[0]
    losses = line_loss(solver, st, _line(solver, st, first=card))
    assert losses[0] == (int(st[ST_TO_MOVE]), gaps[card])
    assert all(loss == 0 for _, loss in losses[1:])


def test_duel_reports_the_dd_loss_by_side_and_role():
    rules = Rules()
    r = duel(rules, parse_set("heuristic/heuristic", "--a", 4), parse_set("heuristic/random", "--b", 4),
             deals=50, seed=2, dd_deals=2)
    assert r.dd_deals == 2 and r.dd_positions > 0
    assert {(d.side, d.role) for d in r.dd} == {(s, role) for s in "AB" for role in ("taker", "defence")}
    n = sum(d.loss.n for d in r.dd)  # each hand played: one value for the taker side, one for the defence
    assert 0 < n <= 2 * 2 * 2 and n % 2 == 0
    assert all(d.loss.mean >= 0 for d in r.dd if d.loss.n)


def test_duel_agrees_with_calibrates_duplicate_match_where_nothing_is_redealt():
    """Piekjas with 3 players has no smous: the duel's margin is exactly the mean of
    ``calibrate.duplicate`` on the same deals (one block of seed 9). With a smous (Dekjas,
    Piekjas 2) the two differ by design: the duel plays a redeal, the duplicate scores it 0."""
    from analyzer.questions.calibrate import duplicate

    rules = Rules.from_label("piekjas3")
    m, n = duplicate(rules, deals=3000, blocks=1, seed=9)
    d = duel(rules, parse_set("calibrated/heuristic", "--a", 3), parse_set("heuristic/heuristic", "--b", 3),
             deals=3000, seed=9)
    assert n == d.deals == 3000 and m.mean != 0
    assert d.margin.mean == pytest.approx(m.mean, abs=1e-12)


def test_show_names_the_roles_of_a_role_policy():
    from analyzer.output.show import term

    assert term({"taker": "random", "defence": "heuristic"}, "en") == "taker=random,defence=heuristic"
    assert term({"taker": "random", "defence": {"0": "random", "1": "heuristic"}}, "nl") == \
        "troefmaker=willekeurig,verdediging=(0=willekeurig,1=vuistregels)"
