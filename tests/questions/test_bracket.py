"""``take --bracket``: one question under several play policies, on the same deals."""

import json

from typer.testing import CliRunner

import cli
from analyzer.players.policies import Policies
from analyzer.questions.bracket import Bracket, analyse_bracket
from analyzer.questions.take import analyse_take
from analyzer.rules import Rules

runner = CliRunner()
HAND, TURNED = "Jh Ah Tc 7s 8d", "Qh"


def test_each_policy_of_the_bracket_answers_exactly_as_take_alone_on_the_same_deals():
    b = analyse_bracket(Rules(), HAND, TURNED, plays=("random", "heuristic"), deals=600, seed=5)
    for play, r in zip(b.plays, b.results):
        alone = analyse_take(Rules(), HAND, TURNED, deals=600, seed=5, policies=Policies.parse("heuristic", play, 4))
        assert r.n == alone.n == 600
        assert (r.pair_sums == alone.pair_sums).all(), play
        assert [c.made.k for c in r.calls] == [c.made.k for c in alone.calls]
    # the play changes the outcomes on those deals (random and heuristic differ)
    assert [c.made.k for c in b.results[0].calls] != [c.made.k for c in b.results[1].calls]


def test_the_bracket_holds_only_when_every_policy_names_the_same_call():
    take = analyse_take(Rules(), HAND, TURNED, deals=400, seed=2)
    passed = analyse_take(Rules(), "7c 8d 9s Qd 8s", "Kh", deals=400, seed=2)
    assert take.best.call.label == "take h" and passed.best.call.label == "pass"
    same = Bracket(("a", "b"), [take, take], 0.0)
    assert same.holds() and same.verdict().startswith("The verdict holds: TAKE HEARTS under a, b")
    split = Bracket(("a", "b"), [take, passed], 0.0)
    assert not split.holds()
    assert split.verdict() == "The verdict depends on how well the hands are played: a: TAKE HEARTS, b: PASS."


def test_take_bracket_command_json_and_refusals():
    r = runner.invoke(cli.app, ["take", HAND, "--turned", TURNED, "--bracket", "--bracket-plays", "random,heuristic",
                                "--deals", "300", "--json", "--quiet"])
    assert r.exit_code == 0, r.output
    d = json.loads(r.stdout)
    assert d["plays"] == ["random", "heuristic"] and len(d["results"]) == 2
    assert [x["inputs"]["policies"]["play"] for x in d["results"]] == ["random", "heuristic"]
    assert d["holds"] == (len(set(d["best_calls"])) == 1)
