"""Whole-game duplicate duels and score-aware bidders (issue 52): the same deals in the same order in
every seating, the same games where the players decide alike, the score regions and the shifts."""

import numpy as np
import pytest

from analyzer.players.bidding import P_SHIFTS, SCORE_REGIONS, score_region
from analyzer.players.policies import Policies
from analyzer.questions.duel import parse_set
from analyzer.questions.duel_games import duel_games
from analyzer.rules import Rules
from analyzer.runs.games import _game_log, play_games
from analyzer.runs.hand import strong_address
from analyzer.runs.simulate import SimConfig


def test_equal_players_play_the_same_games_and_share_them_fairly():
    rules = Rules()
    s = parse_set("heuristic/heuristic", "--a", 4)
    g = duel_games(rules, s, s, games=150, seed=3)
    assert g.a_wins.mean == 0.5 and g.a_wins.sd == 0  # each game won once by A, once by B
    assert "the same games" in g.verdict()
    assert g.by_seating[0].k + g.by_seating[1].k == 150


@pytest.mark.parametrize("label", ["classic", "piekjas2", "piekjas3"])
def test_a_duplicate_game_deals_the_same_cards_whoever_plays(label):
    rules = Rules.from_label(label)
    decks = []
    for bid, play in (("heuristic", "heuristic"), ("random", "random")):
        cfg = SimConfig(rules=rules, policies=Policies.parse(bid, play, rules.players), seed=4)
        rec, b, p, params = cfg.game_kernel_args()
        decks.append(_game_log(4, 7, rec, b, p, params, 200, strong_address(p), True)[1])
    d = min(len(decks[0]), len(decks[1]))
    assert d >= 3 and np.array_equal(decks[0][:d], decks[1][:d])
    plain = SimConfig(rules=rules, seed=4).game_kernel_args()
    assert not np.array_equal(_game_log(4, 7, *plain, 200, 0, False)[1][1], decks[0][1])  # the usual dealing differs


def test_the_better_player_wins_more_whole_games():
    rules = Rules.from_label("piekjas2")
    g = duel_games(rules, parse_set("heuristic/heuristic", "--a", 2), parse_set("random/random", "--b", 2),
                   games=200, seed=1)
    assert g.beyond_noise and g.a_wins.mean > 0.6
    assert "A wins more games" in g.verdict()


def test_score_regions_as_players_name_them():
    t = 1000
    assert SCORE_REGIONS[score_region(300, 320, t)] == "level"
    assert SCORE_REGIONS[score_region(600, 300, t)] == "ahead"
    assert SCORE_REGIONS[score_region(100, 500, t)] == "behind"
    assert SCORE_REGIONS[score_region(820, 790, t)] == "level near the target"
    assert SCORE_REGIONS[score_region(850, 400, t)] == "ahead near the target"
    assert SCORE_REGIONS[score_region(400, 850, t)] == "behind near the target"
    # a fifth of the target: in a game to 500, 100 points apart is ahead and 400 is near the end
    assert SCORE_REGIONS[score_region(350, 300, 500)] == "level"
    assert SCORE_REGIONS[score_region(400, 250, 500)] == "ahead near the target"


def test_a_score_shift_moves_the_bidders_thresholds_in_games():
    """Shifts of 0 are the score-blind bidder (the same games); a shift out of reach in every region
    is a bidder that never takes (classic: every deal passed out, no game ends)."""
    rules = Rules()
    base = SimConfig(rules=rules, seed=2)
    rows = base.bid_params.copy()
    assert (rows[:, P_SHIFTS:P_SHIFTS + len(SCORE_REGIONS)] == 0).all()
    same = SimConfig(rules=rules, bid_params=rows.copy(), seed=2)
    assert np.array_equal(play_games(base, 40).games, play_games(same, 40).games)
    never = rows.copy()
    never[:, P_SHIFTS:P_SHIFTS + len(SCORE_REGIONS)] = 500.0
    g = play_games(SimConfig(rules=rules, bid_params=never, seed=2), 5, max_deals=30)
    assert g.capped == 5 and (g.games[:, 1] == 0).all()  # no hand played: every deal passed out


def test_score_shifts_are_chosen_by_the_chance_to_win_on_paired_deals(tmp_path):
    """calibrate --score-aware's sweep: every candidate shift on the same deals (a shift of 0 is the
    current bidder: its gain over itself is exactly 0), the shift kept only where its gain is beyond
    the noise, and the policy written with the shifts in every seat's row."""
    from analyzer.players.equity import equity_table
    from analyzer.questions.score_bidders import CANDIDATES, SHIFT_NAMES, calibrate_shifts, score_policy

    rules = Rules.from_label("piekjas2")
    cfg = SimConfig(rules=rules, policies=Policies.parse("calibrated", "heuristic", 2), seed=5)
    table = equity_table(rules)
    cal = calibrate_shifts(cfg, table, games=300, per_region=150, rounds=1, seed=5)
    assert cal.status in ("converged", "max_iter") and all(s in CANDIDATES for s in cal.shifts)
    level = cal.rounds[0]["level"]
    assert level["states"] == 150 and level["gain_over_previous"]["+0"]["mean"] == 0
    assert any(g["mean"] != 0 for g in level["gain_over_previous"].values())  # the shifts change decisions
    doc = score_policy(cfg, cal, table, "test")
    assert all(row[name] == v for row in doc["params"].values() for name, v in zip(SHIFT_NAMES, cal.shifts))
    assert doc["score_aware"]["regions"][0] == "level"
