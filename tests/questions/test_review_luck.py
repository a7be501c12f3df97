"""Error or bad luck (``analyzer.questions.review``, issue 51): every card not forced valued from
what its seat knew, on worlds drawn as pimc draws them (``analyzer.players.worlds``), each solved
with open cards; the card then an error, bad luck, lucky or neither.

- the verdicts and their points on numbers made by hand (``judge``, ``information``), and the
  points adding up to what each card gave away;
- blind: the worlds, and so the values, do not change when the seat's unseen cards are dealt anew;
- where the seat's information fixes every hidden card, the two values agree;
- the same numbers on one thread or two; the command line's text and JSON.
"""

import json
from pathlib import Path

import numpy as np
import pytest

from analyzer.output.deallog import read_log, write_log
from analyzer.players import public_from_record
from analyzer.players.policies import Policies
from analyzer.players.solver import Solver
from analyzer.players.worlds import SeatWorlds
from analyzer.questions.review import OBJECTIVE, default_worlds, information, judge, review, start_of
from analyzer.rules import Rules
from analyzer.runs.simulate import SimConfig
from analyzer.game.state import ST_TO_MOVE, legal_cards, play_card
from analyzer.rules.cards import mask_to_cards

ROOT = Path(__file__).resolve().parents[2]
@pytest.mark.parametrize("dd_loss, loss, lo, kind, points", [
    (10, 6.0, 2.0, "error", (6.0, 4.0, 0.0)),  # worse by what it knew, and it lost more on the true deal
    (4, 6.0, 2.0, "error", (6.0, 0.0, 2.0)),  # an error the deal forgave in part
    (0, 6.0, 2.0, "lucky", (6.0, 0.0, 6.0)),  # worse by what it knew, nothing lost on the true deal
    (8, 1.0, -1.0, "bad luck", (0.0, 8.0, 0.0)),  # as good as the seat could tell: the loss is bad luck
    (0, 0.0, 0.0, "", (0.0, 0.0, 0.0)),  # the seat's best, and the true deal's
    (3, 0.4, 0.1, "bad luck", (0.0, 3.0, 0.0)),  # beyond the noise but under a card point: no error
])
def test_a_card_s_verdict_and_points_add_up_to_what_it_gave_away(dd_loss, loss, lo, kind, points):
    got = judge(dd_loss, loss, lo)
    assert got == (kind, *points)
    _, error, bad, lucky = got
    assert error + bad - lucky == pytest.approx(dd_loss)


def test_information_picks_the_best_by_the_mean_and_pairs_the_loss_world_by_world():
    # three worlds, cards 5 and 9; the mover on the troefmaker's side (sign 1): card 9 is better by 4 in every world
    vals = [[100, 104], [60, 64], [130, 134]]
    info = information(vals, [5, 9], 5, 1, dd_loss=4)
    assert info.best == [9] and info.worlds == 3
    assert info.loss == pytest.approx(4.0) and info.loss_lo == pytest.approx(4.0)  # paired: no spread at all
    assert info.values[5][0] == pytest.approx(290 / 3) and info.values[5][1] > 30  # the values themselves spread
    assert info.kind == "error" and (info.error, info.bad_luck, info.lucky) == (4.0, 0.0, 0.0)
    # a defender (sign -1) wants the lower value: card 5 is its best
    other = information(vals, [5, 9], 9, -1, dd_loss=0)
    assert other.best == [5] and other.kind == "lucky" and other.loss == pytest.approx(4.0)


def _deals(label, deals=8, seed=5):
    rules = Rules.from_label(label)
    path = Path(f"/tmp/test_review_luck_{label}_{seed}.jsonl")
    write_log(path, SimConfig(rules=rules, policies=Policies.parse("heuristic", "heuristic", rules.players),
                              deals=deals, seed=seed, threads=1), deals)
    out = [r for r in read_log(path) if r["outcome"] == "played"]
    path.unlink()
    return rules, out


def _positions(rules, record, every=1):
    """The deal's positions with a choice: (state, public information, the card played)."""
    from analyzer.players.knowledge import note_declarations

    rec = rules.record()
    st, plays = start_of(record, rules)
    pub = public_from_record(record, rules)
    for i, (_, _, card) in enumerate(plays):
        if len(mask_to_cards(int(legal_cards(st, rec)))) > 1 and i % every == 0:
            yield st.copy(), pub.copy(), card
        winner = play_card(st, rec, card)
        if winner >= 0 and rules.declare_after_trick:
            note_declarations(pub, st, rec, winner)


@pytest.mark.parametrize("label", ["classic", "piekjas2", "dekjas"])
def test_the_worlds_are_blind_to_the_unseen_cards(label):
    """Deal the seat's unseen cards anew (one of its own worlds as the true deal): the worlds drawn
    from the same seed, and every value from them, are the same."""
    rules, records = _deals(label, deals=4)
    drawer = SeatWorlds(rules)
    checked = 0
    for record in records[:2]:
        for k, (st, pub, _) in enumerate(_positions(rules, record, every=3)):
            other = drawer.draw(st, pub, 1, seed=999 + k)[0]  # the same view, other hidden cards
            a, b = drawer.draw(st, pub, 6, seed=k), drawer.draw(other, pub, 6, seed=k)
            assert np.array_equal(a, b)
            checked += not np.array_equal(other, st)
    assert checked > 0  # the anew-dealt deals did differ from the true ones


def test_where_the_seat_knows_every_card_its_values_are_the_open_card_values():
    """Dekjas once every face-down card is turned up (and any position where the play left nothing
    hidden): every world is the true deal, so the information values are the open-card values, with
    no spread. (Piekjas 2 never gets there: 14 cards stay undealt.)"""
    rules, records = _deals("dekjas", deals=8)
    drawer, solver = SeatWorlds(rules), Solver(rules, OBJECTIVE)
    known = 0
    for record in records:
        for k, (st, pub, card) in enumerate(_positions(rules, record)):
            ws = drawer.draw(st, pub, 8, seed=k)
            if not all(np.array_equal(w, st) for w in ws):
                continue
            known += 1
            legal = mask_to_cards(int(legal_cards(st, rules.record())))
            true = solver.card_values(st).cards
            vals = [[solver.card_values(w).cards[c] for c in legal] for w in ws]
            sign = 1 if solver.maximizes(st) else -1
            top = max(sign * v for v in true.values())
            info = information(vals, legal, card, sign, top - sign * true[card])
            assert {c: m for c, (m, _) in info.values.items()} == {c: float(v) for c, v in true.items()}
            assert all(h == 0 for _, h in info.values.values())
            assert info.kind in ("", "error")  # no luck where nothing was hidden
            assert info.bad_luck == 0 and info.lucky == 0
    assert known >= 5, known


@pytest.mark.parametrize("label, worlds", [("piekjas2", 12), ("classic", 4)])
def test_a_review_s_verdicts_add_up_per_seat_and_do_not_depend_on_the_threads(label, worlds):
    rules, records = _deals(label, deals=4)
    a = review(records[0], pimc=None, worlds=worlds, threads=1)
    b = review(records[0], pimc=None, worlds=worlds, threads=2)
    assert [c.info for c in a.cards] == [c.info for c in b.cards]
    judged = [c for c in a.cards if c.info is not None]
    assert judged and all(c.info.worlds == worlds for c in judged)
    assert all(c.forced for c in a.cards if c.info is None)
    luck = a.luck()
    for seat, t in luck["seats"].items():
        mine = [c for c in judged if c.seat == seat]
        assert t["error_points"] + t["bad_luck_points"] - t["lucky_points"] == pytest.approx(t["given_away"], abs=0.02)
        assert t["given_away"] == sum(c.loss for c in mine)
        assert t["error"] == sum(c.info.kind == "error" for c in mine)
    d = a.as_dict()
    assert d["luck"]["worlds"] == worlds and set(d["luck"]["seats"]) == {str(s) for s in range(rules.players)}
    assert all((c["info"] is None) == c["forced"] for c in d["cards"])


def test_the_default_worlds_and_where_they_are_left_out():
    assert default_worlds(Rules.from_label("classic")) == 32 and default_worlds(Rules.from_label("piekjas2")) == 32
    assert default_worlds(Rules.from_label("piekjas3")) == 0  # its solver's value is the pessimistic one
    assert default_worlds(Rules.from_label("dekjas")) == 0  # a first-trick world takes seconds to solve


def test_the_command_says_error_bad_luck_and_lucky_in_both_languages(belote, tmp_path):
    rules, records = _deals("piekjas2", deals=4)
    path = tmp_path / "d.jsonl"
    path.write_text(json.dumps(records[0]) + "\n")
    run = lambda *a: belote("review", str(path), "--pimc", "none", "--worlds", "12", *a)  # noqa: E731
    out = run("--json")
    assert out.returncode == 0, out.stderr
    d = json.loads(out.stdout)
    assert d["luck"]["worlds"] == 12
    en, nl = run().stdout, run("--lang", "nl").stdout
    assert "by what it knew" in en and "By what each seat knew (12 worlds a decision" in en
    assert "Error + bad luck − lucky = what the cards gave away." in en
    assert "naar wat hij wist" in nl and "Fout + pech − geluk" in nl
    kinds = {c["info"]["kind"] for c in d["cards"] if c["info"]}
    for kind, word in (("error", " error "), ("bad luck", " bad luck "), ("lucky", " lucky ")):
        if kind in kinds:
            assert word in en
    off = run("--worlds", "0", "--json")
    assert json.loads(off.stdout)["luck"] is None


def test_the_bot_beside_you_plays_the_rest_of_the_deal_and_its_result_is_told(belote, tmp_path):
    """From card k on, the bot plays every seat: the deal's first k cards kept, the rest the bot's
    (legal: replayed through the reference), the finished deal's result beside the deal's own."""
    from analyzer.game.played import play_out
    from analyzer.questions.review import bot_line

    rules, records = _deals("piekjas2", deals=4)
    record = records[0]
    n = sum(len(t["plays"]) for t in record["tricks"])
    line = bot_line(record, 3, "net", rules=rules)
    assert line["from"] == 3 and len(line["cards"]) == n - 3
    mine = [c for t in record["tricks"] for _, c in t["plays"]]
    theirs = [c for t in line["played"]["tricks"] for _, c in t["plays"]]
    assert theirs[:3] == mine[:3] and theirs[3:] == line["cards"]
    assert line["played"]["result"]["outcome"] in ("made", "dedans", "tie")
    same = bot_line({**record, "tricks": line["played"]["tricks"]}, 3, "net", rules=rules)
    assert same["cards"] == line["cards"]  # the bot from the same position plays the same cards
    last = bot_line(record, n - 1, "net", rules=rules)  # the last card is forced: the deal's own result
    assert last["played"]["result"] == play_out(record, rules)["result"]
    path = tmp_path / "d.jsonl"
    path.write_text(json.dumps(record) + "\n")
    out = belote("review", str(path), "--pimc", "none", "--worlds", "0", "--bot", "net", "--bot-from", "4")
    assert out.returncode == 0, out.stderr
    assert "The bot beside you: from card 4 (trick 2" in out.stdout and "With the bot: " in out.stdout
    bad = belote("review", str(path), "--worlds", "0", "--bot-from", str(n + 1))
    assert bad.returncode == 2 and f"the deal has cards 1 to {n}" in bad.stderr and "Traceback" not in bad.stderr


@pytest.mark.parametrize("label", ["classic", "piekjas2"])
def test_a_card_s_cost_in_the_game_s_unit_is_read_on_perfect_play_after_it(label):
    """Every card that gave something away: the deal played on perfectly after it and after the best
    card ends with the solver's values of those two cards (the lines are the solver's), and the
    outcomes and the net cost are told."""
    rules, records = _deals(label, deals=6)
    costed = 0
    for record in records[:3]:
        r = review(record, pimc=None, worlds=2)
        for c in r.cards:
            if c.forced or c.loss == 0:
                assert c.game is None
                continue
            costed += 1
            assert c.game["card_points"] == [c.values[c.card], c.values[c.best[0]]]
            assert {c.game["played"].split(" + ")[0], c.game["best"].split(" + ")[0]} <= {"made", "dedans", "tie"}
            assert isinstance(c.game["cost"], int)
    assert costed > 0


@pytest.mark.parametrize("infer", [False, True])
def test_the_worlds_and_play_outs_are_pimc_s_own(infer):
    """Drawn from the decision's random number, a seat's worlds are the ones pimc draws, and
    ``SeatWorlds.rollouts`` values each card as pimc does: the card pimc plays is the best by their
    sum, at every decision of these deals (pimc's own per-card values, surfaced; without racing, which
    stops valuing the cards that fall behind)."""
    from analyzer.players import choose, strong_workspace
    from analyzer.players.policies import play_code

    rules, records = _deals("classic", deals=4, seed=2)
    policy = "pimc:worlds=16,race=0" + (",infer=bids" if infer else "")
    link, drawer = strong_workspace(rules, [play_code(policy)]), SeatWorlds(rules)
    n = 0
    for record in records[:2]:
        for k, (st, pub, _) in enumerate(_positions(rules, record)):
            legal = mask_to_cards(int(legal_cards(st, rules.record())))
            card = choose(policy, st, rules, pub, seed=777 + k, workspace=link)
            seat = int(st[ST_TO_MOVE])
            sums = drawer.rollouts(drawer.draw(st, pub, 16, seed=777 + k, infer=infer), pub, legal,
                                   seat & 1).sum(0)
            assert sums[legal.index(card)] == sums.max()
            n += 1
    assert n >= 20


def test_every_position_a_legal_play_reached_has_worlds_the_stuk_announced_included():
    """The stuk announced as its K or Q falls is evidence the worlds honour (as pimc's do, through
    ``choose``): without it, a position after an announced stuk had no world at all (classic, seed 1,
    deal 5, card 23: the review left that card without its value by what the seat knew)."""
    rules = Rules.from_label("classic")
    path = Path("/tmp/test_review_luck_stuk.jsonl")
    write_log(path, SimConfig(rules=rules, policies=Policies.parse("heuristic", "heuristic", 4), deals=12, seed=1,
                              threads=1), 12)
    records = [r for r in read_log(path) if r["outcome"] == "played"]
    path.unlink()
    drawer = SeatWorlds(rules)
    n = 0
    for record in records:
        for k, (st, pub, _) in enumerate(_positions(rules, record)):
            assert len(drawer.draw(st, pub, 2, seed=k)) == 2, (record["deal"], k)
            n += 1
    assert n > 150 and any(r.get("stuk") for r in records)


def test_a_typed_deal_is_judged_from_its_cards_alone():
    """A deal typed by hand has no bidding or turned card: its worlds and its game-unit lines read
    the cards alone (the review once failed on it: the record has no turned card to read)."""
    from analyzer.players import public_info
    from analyzer.questions.review import typed_record

    rules = Rules.from_label("classic")
    hands = "Jh 9h Ah Tc 7s Ks Qd 8c / 7h 8h Qh Kh Ac Kc 9c 7c / Th As Ts 9s 8s Js Qs Ad / Qc Jc 8d 7d 9d Td Kd Jd"
    typed = typed_record(rules, hands, "h", 0, "Jh 7h Th Qc 9h 8h As Jc")
    r = review(typed, pimc=None, public=public_info(rules), rules=rules, worlds=3)
    judged = [c for c in r.cards if not c.forced]
    assert judged and all(c.info is not None and c.info.worlds == 3 for c in judged)
    assert all(c.game is not None for c in judged if c.loss > 0)


def test_net_s_reason_is_what_decided_between_its_card_and_the_runner_up():
    """Net's score of two cards differs by the features in which they differ (a quadratic form): the
    shares add up to the margin, the card named is net's own, and the words name the card that has
    each feature; dealing the unseen cards anew changes nothing (net reads only the seat's view)."""
    from analyzer.output.words import net_reason_text
    from analyzer.players import choose
    from analyzer.players.net_reasons import reason
    from analyzer.questions.review import net_reason

    rules, records = _deals("classic", deals=4, seed=2)
    drawer = SeatWorlds(rules)
    n = 0
    for record in records[:2]:
        for k, (st, pub, _) in enumerate(_positions(rules, record)):
            r = reason(st, rules, pub)
            assert r["card"] == choose("net", st, rules, pub, seed=k)
            assert r["shares"].sum() == pytest.approx(r["margin"], abs=1e-6) and r["margin"] >= 0
            assert all(share > 0 for _, _, share, _ in r["features"])
            other = drawer.draw(st, pub, 1, seed=50 + k)[0]
            again = reason(other, rules, pub)
            assert (again["card"], again["other"]) == (r["card"], r["other"])
            assert again["margin"] == pytest.approx(r["margin"])
            n += 1
    assert n > 20
    j = net_reason(st, rules, pub)
    from analyzer.output.words import card_text

    text = net_reason_text(j, "en")
    assert text.startswith(f"net plays {card_text(j['card'], 'en')} rather than {card_text(j['other'], 'en')}")
    assert net_reason_text(j, "nl").startswith(f"net speelt {card_text(j['card'], 'nl')} liever dan ")
    for f in j["features"]:  # each feature said of the card that has it
        assert card_text(j["card"] if f["on_card"] else j["other"], "en") in text
