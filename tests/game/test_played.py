"""A deal told from its cards (``analyzer.game.played``) and typed by hand (docs/NOTATION.md):

- ``play_out`` gives a logged deal's own tricks (winner, points, Dekjas cards turned up), roem,
  stuk and result, in every variant: so a deal typed by hand, which records only its cards, is
  told as a log would tell it;
- a Dekjas deal is typed with its piles (``Jh:7c``: a face-up card on a face-down one) and
  reviews as the logged deal it spells, on the command line too;
- a card that may not be played is refused in one line naming the legal cards and the
  obligation of RULES.md §4 that forbids it.
"""

import json
from collections import Counter
from pathlib import Path

import pytest

from analyzer.errors import BeloteError
from analyzer.game.played import PlayRefused, bidding, call_token, play_out
from analyzer.output.words import refusal_text
from analyzer.players.policies import Policies
from analyzer.questions.review import review, typed_record
from analyzer.rules import Rules
from analyzer.rules.calls import CALL_NAMES
from analyzer.rules.cards import parse_card
from analyzer.runs.records import hand_record
from analyzer.runs.simulate import SimConfig

ROOT = Path(__file__).resolve().parents[2]
def _played(label: str, deals: int, seed: int = 5) -> list[dict]:
    rules = Rules.from_label(label)
    cfg = SimConfig(rules=rules, policies=Policies.parse("heuristic", "heuristic", rules.players), deals=deals,
                    seed=seed, threads=1)
    return [r for r in (hand_record(cfg, d) for d in range(deals)) if r["outcome"] == "played"]


def _declared(ds) -> Counter:
    return Counter((d["seat"], d["kind"], tuple(sorted(d["cards"])), d["points"], d["trick"]) for d in ds)


@pytest.mark.parametrize("label", ["classic", "piekjas2", "piekjas3", "piekjas4", "dekjas"])
def test_a_deal_played_out_from_its_cards_is_told_as_its_log_tells_it(label):
    records = _played(label, 40)
    assert len(records) >= 15  # piekjas2: some deals are redealt after a smous
    rules = Rules.from_label(label)
    roem = stuk = 0
    for r in records:
        p = play_out(r, rules)
        assert p["tricks"] == r["tricks"], r["deal"]
        assert _declared(p["declarations"]) == _declared(r["declarations"]), r["deal"]
        assert p["stuk"] == r["stuk"] and p["result"] == r["result"], r["deal"]
        roem += bool(r["declarations"])
        if r["stuk"]:
            stuk += 1
            assert len(p["stuk_tricks"]) == 2 and p["stuk_tricks"] == sorted(p["stuk_tricks"])
    assert roem and stuk  # the deals hold some of each: the comparison is not empty


@pytest.mark.parametrize("label", ["classic", "piekjas3", "dekjas"])
def test_a_hand_of_a_game_is_scored_with_its_reserve_and_the_game_s_totals(label):
    from analyzer.runs.records import game_records

    rules = Rules.from_label(label)
    cfg = SimConfig(rules=rules, policies=Policies.parse("heuristic", "heuristic", rules.players), deals=1, seed=3,
                    threads=1)
    records = [r for g in range(3) for r in game_records(cfg, g) if r["outcome"] == "played"]
    assert any(any(r["totals_before"]) for r in records)  # hands played with a score on the sheet
    for r in records:
        assert play_out(r, rules)["result"] == r["result"], (r["game"], r["deal"])


def _dekjas_typed(record: dict) -> tuple[str, str]:
    hands = " / ".join(" ".join(f"{up}:{down}" for down, up in seat) for seat in record["piles"])
    return hands, " ".join(c for t in record["tricks"] for _, c in t["plays"])


def test_a_dekjas_deal_is_typed_with_its_piles_and_reviews_as_its_log(belote):
    record = _played("dekjas", 6)[0]
    rules = Rules.from_label("dekjas")
    hands, plays = _dekjas_typed(record)
    typed = typed_record(rules, hands, record["trump"], record["troefmaker"], plays)
    assert typed["piles"] == record["piles"]
    assert play_out(typed, rules)["result"] == record["result"]
    a, b = review(record, pimc=None), review(typed, pimc=None, rules=rules)
    assert [(c.seat, c.card, c.values) for c in a.cards] == [(c.seat, c.card, c.values) for c in b.cards]
    # the command line reads the same notation, Dutch letters too
    dutch = hands.replace("J", "B").replace("Q", "V").replace("K", "H").replace("c", "k").replace("d", "r")
    out = belote("review", "--variant", "dekjas", "--hands", dutch, "--trump", record["trump"],
                 "--taker", str(record["troefmaker"]), "--plays", plays, "--pimc", "none", "--json")
    assert out.returncode == 0, out.stderr
    cli = json.loads(out.stdout)
    assert cli["values_after"] == a.as_dict()["values_after"]
    assert cli["played"]["result"] == record["result"] and cli["played"]["tricks"] == record["tricks"]


@pytest.mark.parametrize("hands, message", [
    ("Jh 9h / 7c", "seat 0: \"Jh\" is not a pile: write its face-up card, a colon and the face-down card under it"),
    ("Jh:7c / 8c:9c", "seat 0 has 1 piles, not 8"),
])
def test_a_dekjas_deal_typed_wrong_is_one_line_naming_it(hands, message):
    with pytest.raises(BeloteError, match=message):
        typed_record(Rules.from_label("dekjas"), hands, "h", 0)


HANDS = "Jh 9h Ah Tc 7s Ks Qd 8c / 7h 8h Qh Kh Ac Kc 9c 7c / Th As Ts 9s 8s Js Qs Ad / Qc Jc 8d 7d 9d Td Kd Jd"
# Piekjas 3: seats 1 and 2 hold no club, seat 2 the only trump above seat 1's (P3) or none (P3_LOW)
P3 = "Ac Kc Qc 7d 8d 9d 7s 8s 9s / 7h 9h Td Jd Qd Kd Ad Ts Js / 8h Th Qh Kh Ah Jh Qs Ks As"
P3_LOW = P3.replace("9h Td", "Xh Td").replace("Jh Qs", "9h Qs").replace("Xh", "Jh")


@pytest.mark.parametrize("label, hands, trump, plays, rule, message", [
    ("classic", HANDS, "h", "Th", [], "card 1, Th, is not legal for seat 0 (its legal cards: 8c Tc Qd 9h Jh Ah 7s Ks): "
                                      "seat 0 does not hold Th"),
    ("classic", HANDS, "h", "Tc Ac Th Kd", [], "card 4, Kd, is not legal for seat 3 (its legal cards: Jc Qc): clubs "
                                                "was led and seat 3 holds clubs: it must follow suit (RULES.md §4.1)"),
    ("classic", HANDS, "h", "Jh Ac", [], "card 2, Ac, is not legal for seat 1 (its legal cards: 7h 8h Qh Kh): trump "
                                         "was led: seat 1 must play a trump (RULES.md §4.2)"),
    ("classic", HANDS, "s", "Ks 7c 8s", [], "card 3, 8s, is not legal for seat 2 (its legal cards: 9s Ts Js As): "
                                            "trump was led: seat 2 must play a trump higher than Ks (RULES.md §4.2)"),
    ("piekjas3", P3, "h", "Ac Ts", [], "card 2, Ts, is not legal for seat 1 (its legal cards: 7h 9h): seat 1 cannot "
                                       "follow clubs: it must trump (RULES.md §4.3)"),
    ("piekjas3", P3, "h", "Ac 9h Qs", [], "card 3, Qs, is not legal for seat 2 (its legal cards: Jh): seat 2 cannot "
                                          "follow clubs: it must trump higher than 9h (RULES.md §4.3)"),
    ("piekjas3", P3_LOW, "h", "Ac Jh Qs", [], "card 3, Qs, is not legal for seat 2 (its legal cards: 8h 9h Th Qh Kh "
                                              "Ah): seat 2 can neither follow clubs nor beat Jh: it must still trump "
                                              "lower (undertrumping is compulsory, RULES.md §4.3)"),
    ("piekjas3", P3_LOW, "h", "Ac Jh Qs", ["undertrump=free"], None),  # the house rule lets it discard
])
def test_an_illegal_card_is_refused_with_the_obligation_that_forbids_it(label, hands, trump, plays, rule, message):
    rules = Rules.from_label(label, rule)
    if message is None:
        assert len(typed_record(rules, hands, trump, 0, plays)["tricks"][0]["plays"]) == 3
        return
    with pytest.raises(PlayRefused) as e:  # a question returns the facts; the command line words them
        typed_record(rules, hands, trump, 0, plays)
    assert refusal_text(e.value.why, e.value.facts, e.value.k, piles=e.value.piles, notation=True) == message


@pytest.mark.parametrize("label", ["classic", "piekjas2", "piekjas3", "dekjas"])
def test_the_bidding_typed_call_by_call_is_the_logged_bidding(label):
    """Each logged bidding typed back (``take:h``, ``pass``, ``smous:s``, ``play``, ``koe:c``) walks the
    one auction to the same calls, trump, troefmaker and koe; a passed-out or redealt one ends so."""
    rules = Rules.from_label(label)
    cfg = SimConfig(rules=rules, policies=Policies.parse("calibrated", "heuristic", rules.players), deals=60, seed=7,
                    threads=1)
    outcomes = Counter()
    for d in range(60):
        r = hand_record(cfg, d)
        typed = " ".join(call_token(CALL_NAMES.index(b["call"]), "cdhs".index(b["suit"]) if "suit" in b else -1)
                         for b in r["bids"])
        got = bidding(rules, parse_card(r["turned"]), typed)
        assert got["bids"] == r["bids"] and got["outcome"] == r["outcome"], (d, typed)
        if r["outcome"] == "played":
            assert (got["trump"], got["taker"], got["koe"]) == (r["trump"], r["troefmaker"], r["koe"])
        outcomes[r["outcome"]] += 1
        half = bidding(rules, parse_card(r["turned"]), " ".join(typed.split()[:-1]))
        assert "next" in half and half["next"]["seat"] == r["bids"][-1]["seat"]
    assert outcomes["played"] > 20


def test_a_call_that_is_not_open_is_one_line_naming_the_open_ones():
    with pytest.raises(BeloteError, match=r"--bids: call 2, smous:s, is not open to seat 1 in round 1: it may call "
                                          r"pass take:h smous:h \(RULES.md §3\)"):
        bidding(Rules.from_label("dekjas"), parse_card("Qh"), "pass smous:s")
    with pytest.raises(BeloteError, match="call 6, take:h, is not open to seat 1 in round 2: it may call pass "
                                          "take:c take:d take:s"):  # classic round 2: another suit
        bidding(Rules.from_label("classic"), parse_card("Qh"), "pass pass pass pass pass take:h")
