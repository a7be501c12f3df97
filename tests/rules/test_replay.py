"""Dealing, bidding and whole hands (RULES.md §2-§6) through ``reference.replay`` on
hand-written ``belote-deal/1`` records (DEAL_LOG.md).

Every record below was worked out by hand: the deck in dealing order, the bids, each
trick with its winner and points, the declarations and the result. A clean record must
replay without errors; each mutation breaks one rule and must be flagged.
"""

import copy

import pytest

from analyzer.rules.reference import replay

# The options the hand-written records were worked out under (revision 1's defaults, as
# the records were written before revision 2; options left out take their defaults).
DEFAULT_RULES = {
    "round2_suits": "other",
    "roem_compare": "cards",
    "roem_tie": "none",
    "classic_tie": "litige",
    "undertrump": "forced",
}


def deck(text):
    cards = text.split()
    assert len(cards) == 32 and len(set(cards)) == 32, "test deck must hold 32 distinct cards"
    return cards


def bids(*calls):
    """``"0 1 pass"``, ``"1 1 take h"`` ... -> bid dicts (seat, round, call[, suit])."""
    out = []
    for c in calls:
        seat, rnd, call, *suit = c.split()
        b = {"seat": int(seat), "round": int(rnd), "call": call}
        if suit:
            b["suit"] = suit[0]
        out.append(b)
    return out


def tricks(n, rows, revealed=None):
    """rows: (leader, "cards in play order", winner, points); seats follow the leader."""
    out = []
    for k, (leader, played, winner, points) in enumerate(rows):
        toks = played.split()
        assert len(toks) == n
        tr = {
            "leader": leader,
            "plays": [[(leader + j) % n, t] for j, t in enumerate(toks)],
            "winner": winner,
            "points": points,
        }
        if revealed is not None:
            tr["revealed"] = [[int(s), c] for s, c in (x.split(":") for x in revealed[k].split())]
        out.append(tr)
    return out


def seq(seat, text, points, trick=0, kind="sequence"):
    return {"seat": seat, "kind": kind, "cards": text.split(), "points": points, "trick": trick}


def record(variant, players, **fields):
    sides = [[0, 2], [1, 3]] if variant == "classic" else [[s] for s in range(players)]
    rec = {
        "schema": "belote-deal/1",
        "variant": variant,
        "players": players,
        "rules": dict(DEFAULT_RULES),
        "seed": 1,
        "deal": 0,
        "policies": {"bid": "hand", "play": "hand"},
        "sides": sides,
    }
    rec.update(fields)
    return rec


def hands(*texts):
    return [t.split() for t in texts]


# --- the hand-written records --------------------------------------------------------


def classic_capot():
    """Seat 0 holds every heart and takes: capot, a run of 8 each, belote."""
    return record(
        "classic",
        4,
        deck=deck(
            "Jh 9h Ah Th Kh  Ac Tc Kc Qc Jc  Ad Td Kd Qd Jd  As Ts Ks Qs Js  Qh  8h 7h"
            "  9c 8c 7c  9d 8d 7d  9s 8s 7s"
        ),
        turned="Qh",
        bids=bids("0 1 take h"),
        outcome="played",
        trump="h",
        troefmaker=0,
        koe=False,
        exchange=None,
        fille=None,
        start_hands=hands(
            "Jh 9h Ah Th Kh Qh 8h 7h",
            "Ac Tc Kc Qc Jc 9c 8c 7c",
            "Ad Td Kd Qd Jd 9d 8d 7d",
            "As Ts Ks Qs Js 9s 8s 7s",
        ),
        tricks=tricks(
            4,
            [
                (0, "Jh 7c 7d 7s", 0, 20),
                (0, "9h 8c 8d 8s", 0, 14),
                (0, "Ah 9c 9d 9s", 0, 11),
                (0, "Th Jc Jd Js", 0, 16),
                (0, "Kh Qc Qd Qs", 0, 13),
                (0, "Qh Kc Kd Ks", 0, 15),
                (0, "8h Tc Td Ts", 0, 30),
                (0, "7h Ac Ad As", 0, 43),
            ],
        ),
        declarations=[
            seq(0, "7h 8h 9h Th Jh Qh Kh Ah", 100),
            seq(1, "7c 8c 9c Tc Jc Qc Kc Ac", 100),
            seq(2, "7d 8d 9d Td Jd Qd Kd Ad", 100),
            seq(3, "7s 8s 9s Ts Js Qs Ks As", 100),
        ],
        stuk={"seat": 0, "points": 20},
        result={
            "card_points": [252, 0],
            "roem_side": 0,
            "raw_totals": [472, 0],
            "outcome": "made",
            "pit": {"all_tricks_side": 0, "trickless_sides": [1]},
            "reserve_before": 0,
            "reserve_after": 0,
            "scores": [472, 0],
        },
    )


def classic_dedans():
    """All pass on the turned 7d; seat 1 names hearts in round 2 and goes dedans."""
    return record(
        "classic",
        4,
        deck=deck(
            "Jh 9h Ac Tc Ad  Ah Kh Qh 8h 7c  Th 7h Kc Qc Kd  Jc 9c Jd 9d Qs  7d"
            "  Td As Ts  8c 8d  Qd Ks 8s  7s Js 9s"
        ),
        turned="7d",
        bids=bids(
            "0 1 pass", "1 1 pass", "2 1 pass", "3 1 pass", "0 2 pass", "1 2 take h"
        ),
        outcome="played",
        trump="h",
        troefmaker=1,
        koe=False,
        start_hands=hands(
            "Jh 9h Ac Tc Ad Td As Ts",
            "Ah Kh Qh 8h 7c 8c 8d 7d",
            "Th 7h Kc Qc Kd Qd Ks 8s",
            "Jc 9c Jd 9d Qs 7s Js 9s",
        ),
        tricks=tricks(
            4,
            [
                (0, "Jh 8h 7h 7s", 0, 20),
                (0, "9h Qh Th 9s", 0, 27),
                (0, "Ac 7c Kc 9c", 0, 15),
                (0, "Tc 8c Qc Jc", 0, 15),
                (0, "Ad 7d Kd 9d", 0, 15),
                (0, "Td 8d Qd Jd", 0, 15),
                (0, "As Kh Ks Qs", 1, 22),
                (1, "Ah 8s Js Ts", 1, 33),
            ],
        ),
        declarations=[seq(1, "Qh Kh Ah", 20)],
        stuk={"seat": 1, "points": 20},
        result={
            "card_points": [107, 55],
            "roem_side": 1,
            "raw_totals": [107, 95],
            "outcome": "dedans",
            "pit": {"all_tricks_side": None, "trickless_sides": []},
            "reserve_before": 0,
            "reserve_after": 0,
            "scores": [182, 20],
        },
    )


def classic_passed_out():
    rec = classic_capot()
    for k in ("trump", "troefmaker", "koe", "exchange", "fille", "start_hands", "tricks",
              "declarations", "stuk", "result"):
        del rec[k]
    rec["bids"] = bids(*[f"{s} {r} pass" for r in (1, 2) for s in range(4)])
    rec["outcome"] = "passed_out"
    return rec


def piekjas3_dix():
    """Seat 1 takes the turned Qh; seat 2's 7h arrives with the last 3 cards and is
    exchanged (Dix, revision 1's dix_timing=deal). Seat 0 wins no trick; seat 2's
    4-sequence scores all its roem and ties the troefmaker: the troefmaker's total and
    pit share join the reserve."""
    rec = record(
        "piekjas",
        3,
        deck=deck(
            "9c 8c Jd 9d 8d Ks  Jh 9h Ah Th Ac Td  Tc Kc Qc Jc Ad Kd  Qh"
            "  Qs Js 9s  Kh As Ts  Qd 8h 7h  7c 7d 7s 8s"
        ),
        turned="Qh",
        bids=bids("0 1 pass", "1 1 take h"),
        outcome="played",
        trump="h",
        troefmaker=1,
        koe=False,
        exchange={"seat": 2, "gave": "7h", "got": "Qh"},
        fille="8s",
        start_hands=hands(
            "9c 8c Jd 9d 8d Ks Qs Js 9s",
            "Jh 9h Ah Th Ac Td Kh As Ts",
            "Tc Kc Qc Jc Ad Kd Qd 8h Qh",
        ),
        tricks=tricks(
            3,
            [
                (0, "Ks As 8h", 2, 15),
                (2, "Tc 9c Ac", 1, 21),
                (1, "Jh Qh 8d", 1, 23),
                (1, "9h Jc 8c", 1, 16),
                (1, "Ts Kc 9s", 1, 14),
                (1, "Ah Qc Jd", 1, 16),
                (1, "Th Kd Js", 1, 16),
                (1, "Kh Qd Qs", 1, 10),
                (1, "Td Ad 9d", 2, 31),
            ],
        ),
        declarations=[
            seq(0, "Js Qs Ks", 20),
            seq(1, "9h Th Jh", 20),
            seq(2, "Tc Jc Qc Kc", 50),
            seq(2, "Qd Kd Ad", 20),
        ],
        stuk=None,
        result={
            "card_points": [0, 116, 46],
            "roem_side": 2,
            "raw_totals": [0, 116, 116],
            "outcome": "tie",
            "pit": {"all_tricks_side": None, "trickless_sides": [0]},
            "reserve_before": 30,
            "reserve_after": 30 + 116 + 50,
            "scores": [0, 0, 170],
        },
    )
    rec["rules"]["dix_timing"] = "deal"
    return rec


def piekjas2_smous():
    """Both pass the turned 7c; seat 0 smouses spades in round 2, seat 1 lets it play.
    Seat 0 wins every trick (pit); trickless seat 1 keeps its stuk."""
    return record(
        "piekjas",
        2,
        deck=deck(
            "Js 9s As Ah Kh Qh  Ks Qs 8s Th Jh Tc  7c  Ts Ad 8d  7s Ac Td"
            "  8c 9c Jc Qc Kc 7d 9d Jd Qd Kd 7h 8h 9h"
        ),
        turned="7c",
        bids=bids("0 1 pass", "1 1 pass", "0 2 smous s", "1 2 smous-play"),
        outcome="played",
        trump="s",
        troefmaker=0,
        koe=False,
        exchange=None,
        fille="9h",
        start_hands=hands("Js 9s As Ah Kh Qh Ts Ad 8d", "Ks Qs 8s Th Jh Tc 7s Ac Td"),
        tricks=tricks(
            2,
            [
                (0, "Js 7s", 0, 20),
                (0, "9s 8s", 0, 14),
                (0, "As Qs", 0, 14),
                (0, "Ts Ks", 0, 14),
                (0, "Ah Th", 0, 21),
                (0, "Kh Jh", 0, 6),
                (0, "Qh Tc", 0, 13),
                (0, "Ad Td", 0, 21),
                (0, "8d Ac", 0, 21),
            ],
        ),
        declarations=[seq(0, "9s Ts Js", 20), seq(0, "Qh Kh Ah", 20)],
        stuk={"seat": 1, "points": 20},
        result={
            "card_points": [144, 0],
            "roem_side": 0,
            "raw_totals": [184, 20],
            "outcome": "made",
            "pit": {"all_tricks_side": 0, "trickless_sides": [1]},
            "reserve_before": 0,
            "reserve_after": 0,
            "scores": [280, 20],
        },
    )


def piekjas2_redeal():
    rec = piekjas2_smous()
    for k in ("trump", "troefmaker", "koe", "exchange", "fille", "start_hands", "tricks",
              "declarations", "stuk", "result"):
        del rec[k]
    rec["bids"] = bids("0 1 smous c", "1 1 smous-redeal")
    rec["outcome"] = "redeal"
    return rec


def piekjas4_koe():
    """All pass twice; seat 0 is koe on the turned suit (diamonds); seat 2 exchanges its
    7d for the turned Ad before the stock is dealt, so seat 0 takes the 7d. Dedans: seat
    3 (6-sequence, stuk) receives seat 0's points and pit share; nobody scores four 7s
    or four 8s."""
    return record(
        "piekjas",
        4,
        deck=deck(
            "7c 8c 7h 8h 7s  Ac Tc Kc Qc Jd  Jc 9c Kh Qh 7d  As Ts Ks Qs Js  Ad"
            "  8s 8d  9d Ah Th  Jh Td 9h  9s Kd Qd"
        ),
        turned="Ad",
        bids=bids(*[f"{s} {r} pass" for r in (1, 2) for s in range(4)], "0 3 koe d"),
        outcome="played",
        trump="d",
        troefmaker=0,
        koe=True,
        exchange={"seat": 2, "gave": "7d", "got": "Ad"},
        fille=None,
        start_hands=hands(
            "7c 8c 7h 8h 7s 8s 8d 7d",
            "Ac Tc Kc Qc Jd 9d Ah Th",
            "Jc 9c Kh Qh Ad Jh Td 9h",
            "As Ts Ks Qs Js 9s Kd Qd",
        ),
        tricks=tricks(
            4,
            [
                (0, "7c Ac Jc Qd", 3, 16),
                (3, "As 7s 9d Td", 1, 35),
                (1, "Jd Ad Kd 8d", 1, 35),
                (1, "Ah 9h 9s 7h", 1, 11),
                (1, "Th Jh Js 8h", 1, 14),
                (1, "Tc 9c Qs 8c", 1, 13),
                (1, "Kc Qh Ks 7d", 0, 11),
                (0, "8s Qc Kh Ts", 3, 27),
            ],
        ),
        declarations=[
            seq(1, "Qc Kc Ac", 20),
            seq(2, "Jh Qh Kh", 20),
            seq(3, "9s Ts Js Qs Ks As", 100),
        ],
        stuk={"seat": 3, "points": 20},
        result={
            "card_points": [11, 108, 0, 43],
            "roem_side": 3,
            "raw_totals": [11, 108, 0, 163],
            "outcome": "dedans",
            "pit": {"all_tricks_side": None, "trickless_sides": [2]},
            "reserve_before": 0,
            "reserve_after": 0,
            "scores": [0, 140, 0, 240],
        },
    )


DEKJAS_PILES = [
    [["7d", "Ac"], ["Kc", "8c"], ["Qc", "Tc"], ["Jc", "9c"], ["7c", "As"], ["Ks", "Qs"], ["Ts", "Js"], ["8s", "9s"]],
    [["Kh", "8h"], ["Qh", "9h"], ["Ad", "Td"], ["Kd", "Qd"], ["Jd", "9d"], ["8d", "7s"], ["Ah", "Jh"], ["Th", "7h"]],
]


def dekjas():
    """Seat 1 takes the turned 7h. Seat 0's 7d lies face down under its Ac all hand long,
    so the diamonds led never oblige it. Declarations come after tricks won, from the
    face-up cards then; seat 1's face-up Q-J-10 of diamonds is no new sequence because
    its 10 was already declared."""
    return record(
        "dekjas",
        2,
        deck=deck(
            "7d Kh Kc Qh Qc Ad Jc Kd 7c Jd Ks 8d Ts Ah 8s Th"
            "  Ac 8h 8c 9h Tc Td 9c Qd As 9d Qs 7s Js Jh 9s 7h"
        ),
        turned="7h",
        bids=bids("0 1 pass", "1 1 take h"),
        outcome="played",
        trump="h",
        troefmaker=1,
        koe=False,
        piles=copy.deepcopy(DEKJAS_PILES),
        tricks=tricks(
            2,
            [
                (0, "As 7s", 0, 11),
                (0, "8c 7h", 1, 0),
                (1, "9d 9s", 1, 0),
                (1, "Qd 8s", 1, 3),
                (1, "Jh 7c", 1, 20),
                (1, "Ah Tc", 1, 21),
                (1, "8h Js", 1, 2),
                (1, "9h Ts", 1, 24),
                (1, "Th Qs", 1, 13),
                (1, "Kh Ks", 1, 8),
                (1, "Qh 9c", 1, 3),
                (1, "8d Jc", 1, 2),
                (1, "Td Qc", 1, 13),
                (1, "Jd Kc", 1, 6),
                (1, "Kd Ac", 1, 15),
                (1, "Ad 7d", 1, 21),
            ],
            revealed=[
                "0:7c 1:8d",
                "0:Kc 1:Th",
                "1:Jd 0:8s",
                "1:Kd",
                "1:Ah",
                "0:Qc",
                "1:Kh 0:Ts",
                "1:Qh",
                "0:Ks",
                "",
                "0:Jc",
                "",
                "1:Ad",
                "",
                "0:7d",
                "",
            ],
        ),
        declarations=[
            seq(0, "7c 8c 9c Tc", 50, trick=0),
            seq(1, "8h 9h Th Jh", 50, trick=1),
            seq(1, "8d 9d Td", 20, trick=1),
        ],
        stuk={"seat": 1, "points": 20},
        result={
            "card_points": [11, 151],
            "roem_side": 1,
            "raw_totals": [11, 241],
            "outcome": "made",
            "pit": {"all_tricks_side": None, "trickless_sides": []},
            "reserve_before": 0,
            "reserve_after": 0,
            "scores": [10, 240],
        },
    )


CLEAN = {
    "classic_capot": classic_capot,
    "classic_dedans": classic_dedans,
    "classic_passed_out": classic_passed_out,
    "piekjas3_dix": piekjas3_dix,
    "piekjas2_smous": piekjas2_smous,
    "piekjas2_redeal": piekjas2_redeal,
    "piekjas4_koe": piekjas4_koe,
    "dekjas": dekjas,
}


def said_played(rec, played):
    """``rec`` claiming outcome played, with the fields of the ``played`` record: the shape of a
    played record (deal_schema), so that the replay itself judges the outcome."""
    rec["outcome"] = "played"
    rec.update({k: played[k] for k in ("trump", "troefmaker", "koe", "start_hands", "tricks", "declarations", "result")})
    return rec


def flagged(rec, *fragments):
    """replay(rec) reports errors, one of which contains every fragment."""
    errors = replay(rec)
    assert errors, "the record should have been flagged"
    assert any(all(f in e for f in fragments) for e in errors), errors
    return errors


# --- clean records --------------------------------------------------------------------


@pytest.mark.parametrize("name", sorted(CLEAN))
def test_hand_written_record_replays_clean(name):
    assert replay(CLEAN[name]()) == []


def test_replay_does_not_change_the_record():
    rec = dekjas()
    before = copy.deepcopy(rec)
    replay(rec)
    assert rec == before


def test_extra_fields_are_allowed():
    rec = classic_dedans()
    rec["comment"] = "written by hand"
    rec["result"]["note"] = 1
    assert replay(rec) == []


# --- §4 play ---------------------------------------------------------------------------


def test_illegal_play_is_flagged():
    # trick 2: seat 2 holds Kc Qc but discards Kd on the Ac, then plays Kc for Kd later
    rec = classic_dedans()
    rec["tricks"][2]["plays"][2][1] = "Kd"
    rec["tricks"][4]["plays"][2][1] = "Kc"
    flagged(rec, "trick 3", "seat 2", "Kd", "illegally")


def test_undertrump_is_compulsory_in_replay():
    # piekjas4 trick 1: seat 2 cannot beat the 9d and must still trump with Td
    rec = piekjas4_koe()
    rec["tricks"][1]["plays"][3][1] = "9h"
    rec["tricks"][3]["plays"][1][1] = "Td"
    flagged(rec, "trick 2", "seat 2", "9h", "illegally")


def test_undertrump_free_option_in_replay():
    # the same discard is legal with undertrump=free (the hand then no longer adds up,
    # but trick 1 itself is accepted)
    rec = piekjas4_koe()
    rec["rules"]["undertrump"] = "free"
    rec["tricks"][1]["plays"][3][1] = "9h"
    errors = replay(rec)
    assert not any(e.startswith("trick 2:") and "illegally" in e for e in errors), errors
    assert any(e.startswith("trick 2: points") for e in errors)  # 9h scores 0, Td 10


def test_card_not_in_hand_is_flagged():
    rec = classic_dedans()
    rec["tricks"][0]["plays"][0][1] = "Ah"  # seat 1's card
    flagged(rec, "trick 1", "seat 0", "Ah", "not in its hand")


def test_play_out_of_turn_is_flagged():
    rec = classic_dedans()
    rec["tricks"][0]["plays"][1][0] = 3
    flagged(rec, "trick 1", "seat 3", "seat 1's turn")


def test_seat_0_leads_the_first_trick():
    rec = classic_dedans()
    rec["tricks"][0]["leader"] = 1
    flagged(rec, "trick 1", "leader 1", "seat 0")


def test_trick_winner_leads_the_next_trick():
    rec = classic_dedans()
    rec["tricks"][7]["leader"] = 0
    flagged(rec, "trick 8", "leader 0", "seat 1")


def test_wrong_trick_winner_is_flagged():
    rec = classic_dedans()
    rec["tricks"][6]["winner"] = 0
    flagged(rec, "trick 7", "winner 0", "seat 1")


def test_wrong_trick_points_are_flagged():
    rec = classic_dedans()
    rec["tricks"][7]["points"] = 23  # forgot the last trick's 10
    flagged(rec, "trick 8", "points 23", "33")


def test_too_few_tricks_are_flagged():
    rec = piekjas3_dix()
    rec["tricks"].pop()
    flagged(rec, "8 tricks", "9")


def test_table_card_is_out_of_play():
    # without the exchange, the Qh stays on the table: seat 2 cannot hold or play it
    rec = piekjas3_dix()
    rec["exchange"] = None
    errors = flagged(rec, "start_hands[2]")
    assert any("Qh" in e and "not in its hand" in e for e in errors), errors


def test_dekjas_face_down_card_cannot_be_played():
    # seat 0's 7d lies under the Ac until trick 14
    rec = dekjas()
    rec["tricks"][2]["plays"][1][1] = "7d"
    flagged(rec, "trick 3", "7d", "not in its face-up cards")


def test_dekjas_card_under_is_playable_only_once_uncovered():
    # seat 0's Kc lies under its 8c; at trick 1 it is still covered (the clean record
    # plays the 8c there and the Kc at trick 13)
    rec = dekjas()
    rec["tricks"][1]["plays"][0][1] = "Kc"
    flagged(rec, "trick 2", "Kc", "not in its face-up cards")


def test_dekjas_face_up_obligations():
    # trick 0: seat 1 must follow the As with its face-up 7s
    rec = dekjas()
    rec["tricks"][0]["plays"][1][1] = "8h"
    flagged(rec, "trick 1", "seat 1", "8h", "illegally")


def test_dekjas_wrong_revealed_is_flagged():
    rec = dekjas()
    rec["tricks"][2]["revealed"] = [[1, "Jd"]]
    flagged(rec, "trick 3", "revealed")


# --- §3 dealing ------------------------------------------------------------------------


def test_wrong_turned_card_is_flagged():
    rec = classic_dedans()
    rec["turned"] = "Td"
    flagged(rec, "turned card Td", "7d")


def test_deck_must_hold_32_distinct_cards():
    rec = classic_capot()
    rec["deck"][31] = "Jh"
    flagged(rec, "deck repeats", "Jh")


def test_classic_taker_gets_turned_card_and_two():
    # the deal gives the 7d to the taker (seat 1), not to seat 0
    rec = classic_dedans()
    rec["start_hands"][0], rec["start_hands"][1] = rec["start_hands"][1], rec["start_hands"][0]
    flagged(rec, "start_hands[0]")


def test_start_hands_must_match_the_deal():
    rec = piekjas2_smous()
    rec["start_hands"][1][0] = "Kd"
    flagged(rec, "start_hands[1]", "the deal gives")


def test_wrong_fille_is_flagged():
    rec = piekjas3_dix()
    rec["fille"] = "7c"
    flagged(rec, "fille", "8s")


def test_no_fille_with_four_players():
    rec = piekjas4_koe()
    rec["fille"] = "8s"
    flagged(rec, "no fille")


def test_dekjas_piles_must_match_the_deal():
    rec = dekjas()
    rec["piles"][0][0] = ["Ac", "7d"]
    flagged(rec, "piles[0]")


def test_dix_exchange_needs_turned_suit_trump():
    # piekjas 2: trump is spades, the turned card is the 7c
    rec = piekjas2_smous()
    rec["exchange"] = {"seat": 1, "gave": "7s", "got": "7c"}
    flagged(rec, "Dix", "turned card's suit")


def test_dix_exchange_gives_the_trump_7():
    rec = piekjas3_dix()
    rec["exchange"] = {"seat": 2, "gave": "8h", "got": "Qh"}
    flagged(rec, "exchange.gave 8h", "7h")


def test_dix_exchange_needs_the_holder_of_the_7():
    rec = piekjas3_dix()
    rec["exchange"]["seat"] = 1
    flagged(rec, "seat 1 does not hold 7h")


def test_dix_in_piekjas4_happens_before_the_stock_is_dealt():
    # seat 3 gets the 7d from the stock only after the exchange moment: it cannot exchange
    rec = piekjas4_koe()
    d = rec["deck"]
    i, j = d.index("7d"), d.index("9s")  # swap seat 2's 7d with seat 3's stock 9s
    d[i], d[j] = d[j], d[i]
    rec["exchange"] = {"seat": 3, "gave": "7d", "got": "Ad"}
    flagged(rec, "seat 3 does not hold 7d", "right after bidding")


def test_no_dix_in_classic():
    rec = classic_capot()
    rec["exchange"] = {"seat": 1, "gave": "7h", "got": "Qh"}
    flagged(rec, "classic has no Dix")


def test_no_dix_in_dekjas():
    rec = dekjas()
    rec["exchange"] = {"seat": 1, "gave": "7h", "got": "7h"}
    flagged(rec, "dekjas has no Dix")


# --- §3 bidding ------------------------------------------------------------------------


def test_smous_with_three_players_is_flagged():
    rec = piekjas3_dix()
    rec["bids"] = bids("0 1 smous h", "1 1 smous-play")
    flagged(rec, "smous is only allowed with 2 players")


def test_smous_in_classic_is_flagged():
    rec = classic_capot()
    rec["bids"] = bids("0 1 smous h", "1 1 smous-play")
    flagged(rec, "smous is only allowed with 2 players")


def test_smous_answer_must_come_from_the_other_player():
    rec = piekjas2_redeal()
    rec["bids"] = bids("0 1 smous c", "0 1 smous-redeal")
    flagged(rec, "answer to smous", "seat 1")


def test_smous_must_be_answered():
    rec = piekjas2_redeal()
    rec["bids"] = bids("0 1 smous c")
    flagged(rec, "bids end early", "answer to smous")


def test_smous_redeal_ends_the_record():
    rec = piekjas2_redeal()
    flagged(said_played(rec, piekjas2_smous()), "outcome 'played'", "'redeal'")


def test_round1_take_must_be_the_turned_suit():
    rec = classic_capot()
    rec["bids"] = bids("0 1 take s")
    flagged(rec, "round-1 take", "turned suit h")


def test_round2_must_name_another_suit():
    rec = piekjas2_redeal()
    rec["bids"] = bids("0 1 pass", "1 1 pass", "0 2 smous c", "1 2 smous-redeal")
    flagged(rec, "round-2 smous", "other than the turned suit c")


def test_round2_suits_any_allows_the_turned_suit():
    rec = piekjas2_redeal()
    rec["rules"]["round2_suits"] = "any"
    rec["bids"] = bids("0 1 pass", "1 1 pass", "0 2 smous c", "1 2 smous-redeal")
    assert replay(rec) == []


def test_round2_suits_any_does_not_apply_to_classic():
    rec = classic_passed_out()
    rec["rules"]["round2_suits"] = "any"
    rec["bids"] = bids(*[f"{s} 1 pass" for s in range(4)], "0 2 take h")
    rec["outcome"] = "played"
    # Rules refuses the option for classic, so the record's rules themselves are flagged
    flagged(rec, "rules:", "round2_suits is for piekjas and dekjas")


def test_bids_out_of_turn_are_flagged():
    rec = classic_dedans()
    rec["bids"] = bids("1 1 pass", "0 1 pass")
    flagged(rec, "bids[0]", "seat 0's turn")


def test_bids_after_a_take_are_flagged():
    rec = classic_capot()
    rec["bids"] = bids("0 1 take h", "1 1 pass")
    flagged(rec, "come after the bidding ended")


def test_all_pass_twice_classic_is_passed_out():
    flagged(said_played(classic_passed_out(), classic_capot()), "outcome 'played'", "'passed_out'")
    rec = classic_passed_out()
    rec["tricks"] = classic_capot()["tricks"]
    flagged(rec, "ends after bids")


def test_all_pass_twice_in_piekjas_makes_seat_0_koe():
    rec = piekjas4_koe()
    rec["bids"] = rec["bids"][:-1]
    flagged(rec, "bids end early", "koe")
    rec = piekjas4_koe()
    rec["bids"][-1]["seat"] = 1
    flagged(rec, "seat 0 must be koe")


def test_koe_flag_must_match_the_bidding():
    rec = piekjas4_koe()
    rec["koe"] = False
    flagged(rec, "koe False", "True")


def test_trump_and_troefmaker_must_match_the_bidding():
    rec = classic_dedans()
    rec["trump"] = "d"
    rec["troefmaker"] = 0
    errors = flagged(rec, "trump 'd'", "'h'")
    assert any("troefmaker 0" in e for e in errors)


def test_unknown_rule_option_is_flagged():
    rec = classic_capot()
    rec["rules"]["undertrump"] = "sometimes"
    flagged(rec, "undertrump")


# --- §5 declarations and stuk -----------------------------------------------------------


def test_missing_declaration_is_flagged():
    rec = piekjas3_dix()
    del rec["declarations"][0]
    flagged(rec, "declaration missing", "seat 0", "Js Qs Ks")


def test_carre_of_sevens_is_no_declaration():
    rec = piekjas4_koe()
    rec["declarations"].append({"seat": 0, "kind": "carre", "cards": ["7c", "7d", "7h", "7s"], "points": 0, "trick": 0})
    flagged(rec, "declaration not allowed", "7c 7d 7h 7s")


def test_declaration_of_cards_not_held_is_flagged():
    rec = classic_dedans()
    rec["declarations"].append(seq(0, "9h Th Jh", 20))
    flagged(rec, "declaration not allowed", "seat 0")


def test_dekjas_declares_after_winning_a_trick_only():
    # seat 0's clubs run is declarable after it wins trick 0, not before
    rec = dekjas()
    rec["declarations"][0]["trick"] = 1
    flagged(rec, "declaration missing", "seat 0", "at trick 1")


def test_dekjas_no_new_sequence_from_used_cards():
    # after trick 2 seat 1 shows Q J 10 of diamonds, but the 10 is already declared
    rec = dekjas()
    rec["declarations"].append(seq(1, "Td Jd Qd", 20, trick=2))
    flagged(rec, "declaration not allowed", "Td Jd Qd")


def test_wrong_stuk_is_flagged():
    rec = classic_dedans()
    rec["stuk"] = None
    flagged(rec, "stuk None", "'seat': 1")


def test_stuk_needs_both_cards_in_play():
    # piekjas 3: the Kh is seat 1's, the Qh seat 2's: no stuk
    rec = piekjas3_dix()
    rec["stuk"] = {"seat": 1, "points": 20}
    flagged(rec, "nobody holds K and Q")


def test_dekjas_stuk_counts_face_down_cards():
    # seat 1's Kh and Qh start face down, the stuk is still seat 1's
    rec = dekjas()
    rec["stuk"] = None
    flagged(rec, "stuk None", "'seat': 1")


# --- §6 result -----------------------------------------------------------------------------


def test_wrong_score_is_flagged():
    rec = classic_dedans()
    rec["result"]["scores"] = [162, 20]  # forgot the roem that goes to the defenders
    flagged(rec, "result.scores [162, 20]", "[182, 20]")


def test_wrong_card_points_are_flagged():
    rec = classic_capot()
    rec["result"]["card_points"] = [162, 0]  # capot is 252
    flagged(rec, "result.card_points")


def test_wrong_roem_side_is_flagged():
    rec = piekjas3_dix()
    rec["result"]["roem_side"] = 1
    flagged(rec, "result.roem_side 1", "2")


def test_wrong_outcome_is_flagged():
    rec = piekjas4_koe()
    rec["result"]["outcome"] = "made"
    flagged(rec, "result.outcome 'made'", "'dedans'")


def test_wrong_pit_is_flagged():
    rec = piekjas2_smous()
    rec["result"]["pit"]["all_tricks_side"] = None
    flagged(rec, "result.pit.all_tricks_side")


def test_reserve_is_paid_to_the_receiver_of_the_dedans_points():
    rec = piekjas4_koe()
    rec["result"]["reserve_before"] = 30
    flagged(rec, "result.scores [0, 140, 0, 240]", "[0, 140, 0, 270]")
    rec["result"]["scores"] = [0, 140, 0, 270]
    assert replay(rec) == []
    rec["result"]["reserve_after"] = 30
    flagged(rec, "result.reserve_after 30", "0")


def test_tie_reserve_keeps_growing():
    rec = piekjas3_dix()
    rec["result"]["reserve_after"] = 30
    flagged(rec, "result.reserve_after 30", "196")


def test_trickless_player_stuk_dropped_when_it_would_win_the_game():
    # seat 1 (no trick) at 490 of 500: its stuk of 20 would win the game, so it is dropped
    rec = piekjas2_smous()
    rec["totals_before"] = [0, 490]
    flagged(rec, "result.scores [280, 20]", "[280, 0]")
    rec["result"]["scores"] = [280, 0]
    assert replay(rec) == []
    rec["totals_before"] = [0, 100]
    flagged(rec, "result.scores [280, 0]", "[280, 20]")


def test_without_game_totals_a_single_hand_keeps_trickless_stuk():
    # DEAL_LOG.md: without totals_before a record is scored as a single hand (RULES.md §6)
    rec = piekjas2_smous()
    assert replay(rec) == []
    rec["result"]["scores"] = [280, 0]
    flagged(rec, "result.scores [280, 0]", "[280, 20]")


def test_trickless_stuk_kept_in_a_game_when_the_other_player_wins():
    # seat 1 (no trick) reaches 490 + 20 = 510, but seat 0 ends at 300 + 280 = 580 and
    # wins: the stuk is kept (trickless_roem=wins); revision 1's reading drops it
    rec = piekjas2_smous()
    rec["totals_before"] = [300, 490]
    assert replay(rec) == []
    rec["rules"]["trickless_roem"] = "target"
    flagged(rec, "result.scores [280, 20]", "[280, 0]")
    rec["result"]["scores"] = [280, 0]
    assert replay(rec) == []


def test_game_totals_must_list_one_whole_number_per_side():
    rec = piekjas2_smous()
    rec["totals_before"] = [0, 490, 7]
    flagged(rec, "totals_before", "2 whole numbers")


def test_late_dix_exchange_is_refused_after_bidding():
    # revision 2 (dix_timing=bidding): seat 2's 7h came with the last 3 cards
    rec = piekjas3_dix()
    del rec["rules"]["dix_timing"]
    flagged(rec, "exchange: seat 2 does not hold 7h right after bidding")


def test_schema_must_be_belote_deal_1():
    rec = classic_capot()
    rec["schema"] = "belote-deal/2"
    flagged(rec, "schema")


def test_malformed_record_is_an_error_not_a_crash():
    rec = classic_capot()
    rec["tricks"][0]["plays"][0] = "Jh"
    assert replay(rec)
