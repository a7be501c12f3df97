"""Every deal the simulator logs replays cleanly through the plain-Python reference:
no illegal bid or play, no wrong winner, declaration or score (DEAL_LOG.md, RULES.md)."""

import json

import pytest

from analyzer.rules import reference
from analyzer.output.deallog import game_records, read_log, write_game_log, write_log
from analyzer.players.policies import Policies
from analyzer.rules import ALL_LABELS, Rules, option_choices
from analyzer.runs.simulate import SimConfig

HANDS = 1500  # per variant and policy: thousands of hands in all, in CI


def _replay_all(rules, bid, play, hands, tmp_path, seed=17):
    cfg = SimConfig(rules=rules, policies=Policies.parse(bid, play, rules.players), deals=hands, seed=seed)
    path = tmp_path / "log.jsonl"
    assert write_log(path, cfg, hands) == hands
    records = read_log(path)
    assert len(records) == hands
    _assert_clean(records)
    return records


def _assert_clean(records):
    bad = {}
    for r in records:
        errors = reference.replay(r)
        if errors:
            bad[(r.get("game"), r["deal"])] = errors
    assert not bad, json.dumps({str(k): v for k, v in list(bad.items())[:3]}, indent=1)


@pytest.mark.slow
@pytest.mark.parametrize("label", ALL_LABELS)
@pytest.mark.parametrize("policy", ["random", "heuristic"])
def test_logged_deals_replay_cleanly(label, policy, tmp_path):
    records = _replay_all(Rules.from_label(label), policy, policy, HANDS, tmp_path)
    assert sum(r["outcome"] == "played" for r in records) > HANDS // 3


def _option_cases():
    """Every value but the default of every option that can change something there."""
    for label in ALL_LABELS:
        rules = Rules.from_label(label)
        for key, values in option_choices(rules.variant, rules.players).items():
            for value in values[1:]:
                yield label, f"{key}={value}"


@pytest.mark.slow
@pytest.mark.parametrize("label,option", list(_option_cases()))
def test_logged_deals_replay_cleanly_under_every_rule_option(label, option, tmp_path):
    rules = Rules.from_label(label, [option])
    _replay_all(rules, "random", "heuristic", 400, tmp_path, seed=23)


def test_mixed_policies_per_seat_replay_cleanly(tmp_path):
    records = _replay_all(Rules("classic"), "0=heuristic,1=random", "0=random,2=random", 500, tmp_path)
    assert records[0]["policies"] == {"bid": {"0": "heuristic", "1": "random", "2": "heuristic", "3": "heuristic"},
                                      "play": {"0": "random", "1": "heuristic", "2": "random", "3": "heuristic"}}


GAME_CASES = [(label, opt) for label in ALL_LABELS for opt in ([], ["trickless_roem=target"])
              if not (label == "classic" and opt)]


@pytest.mark.slow
@pytest.mark.parametrize("label,options", GAME_CASES)
@pytest.mark.parametrize("policy", ["random", "heuristic"])
def test_game_deals_replay_cleanly_with_the_game_totals(label, options, policy, tmp_path):
    rules = Rules.from_label(label, options)
    cfg = SimConfig(rules=rules, policies=Policies.parse(policy, policy, rules.players), seed=29)
    path = tmp_path / "games.jsonl"
    n = write_game_log(path, cfg, 12)
    records = read_log(path)
    assert len(records) == n > 12
    played = [r for r in records if r["outcome"] == "played"]
    assert all(isinstance(r["totals_before"], list) for r in played)
    assert any(max(r["totals_before"]) > 0 for r in played)
    _assert_clean(records)


@pytest.mark.slow  # whole games logged and replayed (17 s)
def test_game_records_carry_the_totals_and_reserve_before_each_hand():
    from analyzer.runs.games import G_TOTALS, play_games

    rules = Rules("piekjas", 3)
    cfg = SimConfig(rules=rules, policies=Policies.parse("random", "heuristic", 3), seed=31)
    rows = play_games(cfg, 3).games
    for g in range(3):
        recs = [r for r in game_records(cfg, g) if r["outcome"] == "played"]
        assert recs[0]["totals_before"] == [0, 0, 0] and recs[0]["result"]["reserve_before"] == 0
        for a, b in zip(recs, recs[1:]):
            # the dealer moves one seat on: seat s of hand b is seat s + 1 of hand a
            after = [t + s for t, s in zip(a["totals_before"], a["result"]["scores"])]
            assert b["totals_before"] == after[1:] + after[:1]
            assert b["result"]["reserve_before"] == a["result"]["reserve_after"]
        last = recs[-1]
        final = [t + s for t, s in zip(last["totals_before"], last["result"]["scores"])]
        rot = (len(recs) - 1) % 3  # seat s of the last hand is player (s + rot) mod 3
        by_player = [final[(p - rot) % 3] for p in range(3)]
        assert by_player == list(rows[g, G_TOTALS:G_TOTALS + 3])
        _assert_clean(recs)


# dd solves from the first trick: about 0.3 hands/s in Piekjas 3-4 and Dekjas (docs/BENCHMARKS.md)
DD_HANDS = {"classic": 6, "piekjas2": 6, "piekjas3": 2, "piekjas4": 2, "dekjas": 2}


@pytest.mark.slow  # searching players (dd: 8-16 s a variant)
@pytest.mark.parametrize("label", ALL_LABELS)
@pytest.mark.parametrize("play", ["pimc:worlds=12", "pimc:v=1,worlds=4", "pimc:infer=bids,worlds=8",
                                  "pimc:infer=both,rollout=net,worlds=4", "dd", "net"])
def test_deals_played_by_the_strong_policies_replay_cleanly(label, play, tmp_path):
    """dd, pimc and net play through the hand loop's decision point: their logged deals replay
    (few hands: they search; net does not, but is chosen there too). pimc at 12 worlds races (its first look is after 8); v=1 does not;
    infer=bids reads the bidding through the hand's public information; infer=both the cards played too, and
    rollout=net plays the play-outs with net."""
    hands = DD_HANDS[label] if play == "dd" else 60
    records = _replay_all(Rules.from_label(label), "heuristic", play, hands, tmp_path)
    assert any(r["outcome"] == "played" for r in records)
    assert {r["policies"]["play"] for r in records} == {play}


@pytest.mark.parametrize("label", ["classic", "piekjas3"])
def test_score_aware_duplicate_games_replay_cleanly(label, tmp_path):
    """Whole-game duels deal in duplicate and their score-aware bidders move their thresholds with the
    game totals: the games they play replay through the reference like any other."""
    from analyzer.players.policy_files import calibrated_path, read_policy
    from analyzer.questions.score_bidders import SHIFT_NAMES

    rules = Rules.from_label(label)
    doc = read_policy(calibrated_path(label, "heuristic"))
    for row in doc["params"].values():  # strong shifts, so that they change decisions in a few games
        row.update({name: v for name, v in zip(SHIFT_NAMES, (0, 20, -20, -10, 30, -30))})
    policy = tmp_path / "score.json"
    policy.write_text(json.dumps(doc))
    cfg = SimConfig(rules=rules, policies=Policies.parse(str(policy), "heuristic", rules.players), seed=37)
    path = tmp_path / "games.jsonl"
    n = write_game_log(path, cfg, 6, duplicate=True)
    records = read_log(path)
    assert len(records) == n > 6
    _assert_clean(records)
