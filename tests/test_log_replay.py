"""Every deal the simulator logs replays cleanly through the plain-Python reference:
no illegal bid or play, no wrong winner, declaration or score (DEAL_LOG.md, RULES.md)."""

import json

import pytest

from analyzer import reference
from analyzer.deallog import read_log, write_log
from analyzer.policies import Policies
from analyzer.rules import ALL_LABELS, OPTIONS, Rules
from analyzer.simulate import SimConfig

HANDS = 1500  # per variant and policy: thousands of hands in all, in CI


def _replay_all(rules, bid, play, hands, tmp_path, seed=17):
    cfg = SimConfig(rules=rules, policies=Policies.parse(bid, play, rules.players), deals=hands, seed=seed)
    path = tmp_path / "log.jsonl"
    assert write_log(path, cfg, hands) == hands
    records = read_log(path)
    assert len(records) == hands
    bad = {}
    for r in records:
        errors = reference.replay(r)
        if errors:
            bad[r["deal"]] = errors
    assert not bad, json.dumps(dict(list(bad.items())[:3]), indent=1)
    return records


@pytest.mark.slow
@pytest.mark.parametrize("label", ALL_LABELS)
@pytest.mark.parametrize("policy", ["random", "heuristic"])
def test_logged_deals_replay_cleanly(label, policy, tmp_path):
    records = _replay_all(Rules.from_label(label), policy, policy, HANDS, tmp_path)
    assert sum(r["outcome"] == "played" for r in records) > HANDS // 3


def _option_cases():
    for key, (values, _) in OPTIONS.items():
        for value in values[1:]:
            for label in ALL_LABELS:
                if key == "round2_suits" and label == "classic":
                    continue
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
