"""``belote review``: a played deal card by card (``analyzer.questions.review``).

- every card not forced is valued by the solver: the best cards are those of the best value
  for the mover's side, the loss is the best value minus the played card's (never negative),
  the same losses as the duel's double-dummy loss (``duel.line_loss``) on the same deal;
- forced cards are not valued; the totals per seat and side add the losses up;
- the command: text and JSON, and one-line errors for a deal that is not there or not played.
"""

import json
from pathlib import Path

import pytest

from analyzer.output.deallog import read_log, write_log
from analyzer.players.policies import Policies
from analyzer.players.solver import Solver
from analyzer.questions.duel import line_loss
from analyzer.questions.review import OBJECTIVE, review, start_of
from analyzer.rules import Rules
from analyzer.runs.simulate import SimConfig

ROOT = Path(__file__).resolve().parents[2]
def _log(tmp_path, label, deals=12, seed=3):
    rules = Rules.from_label(label)
    path = tmp_path / f"{label}.jsonl"
    write_log(path, SimConfig(rules=rules, policies=Policies.parse("heuristic", "heuristic", rules.players),
                              deals=deals, seed=seed, threads=1), deals)
    return path, read_log(path)


@pytest.mark.parametrize("label", ["classic", "piekjas2", "dekjas"])  # two-sided: every value exact
def test_each_card_is_valued_and_its_loss_is_what_the_duel_counts(label, tmp_path):
    _, records = _log(tmp_path, label)
    played = [r for r in records if r["outcome"] == "played"][:2]
    assert played
    for record in played:
        r = review(record, pimc="pimc:worlds=8,infer=bids", seed=1)
        rules = r.rules
        assert len(r.cards) == rules.n_tricks * rules.players
        solver = Solver(rules, OBJECTIVE)
        st, plays = start_of(record, rules)
        expected = line_loss(solver, st, [(s, c) for _, s, c in plays])
        got = [(c.seat, c.loss) for c in r.cards if not c.forced]
        assert got == expected
        for c in r.cards:
            if c.forced:
                assert len(c.legal) == 1 and c.pimc is None and c.loss == 0
                continue
            assert set(c.values) == set(c.legal) and c.pimc in c.legal and c.loss >= 0
            assert c.card in c.best or c.loss > 0
            assert {c.values[b] for b in c.best} == {c.values[c.best[0]]}
        t = r.totals()
        assert sum(t["seats"].values()) == sum(t["sides"].values()) == sum(c.loss for c in r.cards)
        worst = r.costliest()
        assert (worst is None) == all(c.loss == 0 for c in r.cards)
        # the deal's value moves in a trick by what its cards gave away: up by the defenders' losses,
        # down by the troefmaker's side's (two-sided play: each value is exact)
        taker_side = r.side_of(int(record["troefmaker"]))
        tr = dict(r.trajectory())
        for t in range(1, rules.n_tricks + 1):
            moved = sum(c.loss if r.side_of(c.seat) != taker_side else -c.loss for c in r.cards if c.trick == t)
            assert tr[t + 1] - tr[t] == moved, (t, tr)
        assert r.turning_trick() is None or abs(r.turning_trick()[1]) == max(
            abs(tr[t + 1] - tr[t]) for t in range(1, rules.n_tricks + 1))


def test_the_command_prints_the_review_and_json_and_refuses_a_deal_not_played(belote, tmp_path):
    path, records = _log(tmp_path, "classic", deals=30, seed=5)
    played = next(r for r in records if r["outcome"] == "played")
    text = belote("review", str(path), "--deal", str(played["deal"]), "--worlds", "0")
    assert text.returncode == 0, text.stderr
    assert f"Review of deal {played['deal']} (classic" in text.stdout and "gave away" in text.stdout
    assert "pimc:infer=bids player chooses" in text.stdout
    out = belote("review", str(path), "--deal", str(played["deal"]), "--pimc", "none", "--json", "--worlds", "0")
    d = json.loads(out.stdout)
    assert d["deal"] == played["deal"] and d["pimc"] is None and len(d["cards"]) == 32 and d["exact"]
    assert sum(d["given_away"]["seats"].values()) == sum(c["loss"] for c in d["cards"])
    missing = belote("review", str(path), "--deal", "999")
    assert missing.returncode == 2 and "deal 999 is not in" in missing.stderr and "Traceback" not in missing.stderr
    not_played = [r for r in records if r["outcome"] != "played"]
    assert not_played  # seed 5: some of the 30 deals are passed out
    bad = belote("review", str(path), "--deal", str(not_played[0]["deal"]))
    assert bad.returncode == 2 and "was not played" in bad.stderr
    nl = belote("review", str(path), "--deal", str(played["deal"]), "--pimc", "none", "--lang", "nl", "--worlds", "0")
    assert nl.returncode == 0 and f"Nabespreking van spel {played['deal']}" in nl.stdout
    wrong = belote("review", str(path), "--pimc", "dd")
    assert wrong.returncode == 2 and "give a pimc policy" in wrong.stderr


HANDS = "Jh 9h Ah Tc 7s Ks Qd 8c / 7h 8h Qh Kh Ac Kc 9c 7c / Th As Ts 9s 8s Js Qs Ad / Qc Jc 8d 7d 9d Td Kd Jd"


def test_a_typed_deal_is_the_logged_deal_it_spells(tmp_path):
    """A logged deal typed back in the short notation (docs/NOTATION.md) gives the same review."""
    from analyzer.questions.review import typed_record

    _, records = _log(tmp_path, "classic")
    record = next(r for r in records if r["outcome"] == "played")
    rules = Rules.from_label("classic")
    typed = typed_record(rules, " / ".join(" ".join(h) for h in record["start_hands"]), record["trump"],
                         int(record["troefmaker"]), " ".join(c for t in record["tricks"] for _, c in t["plays"]))
    assert [[list(p) for p in t["plays"]] for t in typed["tricks"]] == [[list(p) for p in t["plays"]]
                                                                         for t in record["tricks"]]
    a = review(record, pimc=None)
    b = review(typed, pimc=None, rules=rules)
    assert [(c.seat, c.card, c.loss, c.values) for c in a.cards] == [(c.seat, c.card, c.loss, c.values) for c in b.cards]


@pytest.mark.parametrize("args,message", [
    (["--hands", "Jh 9h"], "--hands gives 1 hands for 4 players"),
    (["--hands", HANDS.replace("Jd", "Jh")], "Jh is dealt twice"),
    (["--hands", HANDS, "--plays", "Jh Ac"], "card 2, Ac, is not legal for seat 1 (its legal cards: 7h 8h Qh Kh)"),
    (["--hands", HANDS, "--trump", "x"], '--trump "x" is not a suit'),
    (["--hands", HANDS.replace(" 8c", ""), "--trump", "h"], "seat 0 holds 7 cards, not 8"),
])
def test_a_typed_deal_with_a_mistake_is_one_line_naming_it(belote, args, message):
    out = belote("analyse", *args, *([] if "--trump" in args else ["--trump", "h"]))
    assert out.returncode == 2 and message in out.stderr and "Traceback" not in out.stderr, out.stderr


def test_a_typed_deal_s_bidding_decides_its_trump_and_troefmaker_and_is_shown(belote, tmp_path):
    """``review --turned --bids``: the calls walked through the auction from seat 0 make the trump and
    the troefmaker (seat 1 takes the turned K♥ after seat 0 passes), the same review as --trump h
    --taker 1, with the bidding and the turned card in the text and the JSON; a bidding that is not
    over, or a turned card the troefmaker does not hold, is one line."""
    base = ["review", "--hands", HANDS, "--plays", "Jh 7h Th Qc Tc", "--pimc", "none", "--worlds", "0"]
    run = lambda *a: belote(*base, *a)  # noqa: E731
    by_bids = run("--turned", "Kh", "--bids", "pass take", "--json")
    assert by_bids.returncode == 0, by_bids.stderr
    got = json.loads(by_bids.stdout)
    plain = json.loads(run("--trump", "h", "--taker", "1", "--json").stdout)
    assert (got["trump"], got["troefmaker"]) == ("h", 1) and got["cards"] == plain["cards"]
    assert got["turned"] == "Kh" and [(b["seat"], b["call"]) for b in got["bids"]] == [(0, "pass"), (1, "take")]
    assert plain["bids"] is None and plain["turned"] is None
    text = run("--turned", "Kh", "--bids", "pass take", "--lang", "nl").stdout
    assert "gedraaid H♥ · het bieden: stoel 0 (voorhand): pas; stoel 1: speelt ♥" in text
    for args, message in ((("--turned", "Kh", "--bids", "pass"), "the bidding is not over: seat 1 still calls"),
                          (("--bids", "pass take"), "the bidding needs the turned card (--turned)"),
                          (("--turned", "Kh", "--trump", "h", "--taker", "0"), "the turned card Kh goes to the "
                                                                                "troefmaker (RULES.md §3): seat 0")):
        out = run(*args)
        assert out.returncode == 2 and message in out.stderr and "Traceback" not in out.stderr, (args, out.stderr)


def test_analyse_values_every_legal_card_as_the_solver_and_review_do(belote):
    """The position after the typed plays: each legal card's value is the solver's, its loss is
    against the best, and the card review values there is the same."""
    from analyzer.questions.review import analyse, typed_record

    rules = Rules()
    typed = typed_record(rules, HANDS, "h", 0, "Jh 7h Th Qc")
    p = analyse(typed, rules, pimc="pimc:worlds=8")
    st, plays = start_of(typed, rules)
    rec = rules.record()
    from analyzer.game.state import play_card
    for _, _, card in plays:
        play_card(st, rec, card)
    sol = Solver(rules, OBJECTIVE).card_values(st)
    assert p.values == {int(k): int(v) for k, v in sol.cards.items()} and p.seat == 0 and p.trick == 2
    assert min(p.losses.values()) == 0 and all(p.losses[b] == 0 for b in p.best) and p.pimc in p.values
    out = belote("analyse", "--hands", HANDS, "--trump", "h", "--plays", "Jh 7h Th Qc", "--json", "--pimc", "none")
    d = json.loads(out.stdout)
    from analyzer.rules.cards import format_card

    assert d["best"] == ["7s"] and d["losses"] == {format_card(k): v for k, v in p.losses.items()}
