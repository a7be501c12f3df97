"""The steppable state of a hand (analyzer.game.state): invariants on seeded random playouts,
exact undo, agreement with the plain-Python reference on legal plays and trick winners,
and agreement with whole hands played by the engine (deal logs)."""

import numpy as np
import pytest

from analyzer.rules import reference
from analyzer.rules.cards import card_points, format_card, mask_to_cards, parse_card, parse_cards, parse_suit
from analyzer.output.deallog import hand_record
from analyzer.players.policies import Policies
from analyzer.rules import ALL_LABELS, Rules
from analyzer.runs.simulate import SimConfig
from analyzer.game.state import (
    ST_DOWN,
    ST_GONE,
    ST_HANDS,
    ST_POINTS,
    ST_TO_MOVE,
    ST_TRICK_NO,
    dekjas_state,
    hand_result,
    is_over,
    legal_cards,
    play_card,
    random_start,
    start_state,
    state_from_record,
    trick_so_far,
    undo_card,
)

UNDERTRUMP = ("forced", "free")


def _rules_cases():
    for label in ALL_LABELS:
        for u in UNDERTRUMP:
            yield label, u


def _hand_cards(st, rules, seat):
    return mask_to_cards(int(st[ST_HANDS + seat]))


@pytest.mark.parametrize("label,undertrump", list(_rules_cases()))
def test_random_playouts_keep_the_invariants_and_undo_restores_exactly(label, undertrump):
    rules = Rules.from_label(label, [f"undertrump={undertrump}"])
    rec = rules.record()
    rng = np.random.default_rng(101)
    pts, trk = np.zeros(4, np.int64), np.zeros(4, np.int64)
    for _ in range(40):
        st, in_play = random_start(rules, rng)
        in_play_points = sum(card_points(c, int(st[0])) for c in in_play)
        played = []
        while not is_over(st, rec):
            seat = int(st[ST_TO_MOVE])
            legal = int(legal_cards(st, rec))
            hand = int(st[ST_HANDS + seat])
            assert legal and legal & ~hand == 0, "legal set empty or outside the hand"
            options = mask_to_cards(legal)
            card = options[int(rng.integers(len(options)))]
            before = st.copy()
            play_card(st, rec, card)
            after = st.copy()
            undo_card(st, rec)
            assert st.tobytes() == before.tobytes(), "undo did not restore the state"
            play_card(st, rec, card)
            assert st.tobytes() == after.tobytes(), "replaying after undo differs"
            assert card not in played
            played.append(card)
        assert sorted(played) == sorted(in_play), "every card in play is played exactly once"
        hand_result(st, rec, pts, trk)
        n_sides = rec.n_sides
        assert trk[:n_sides].sum() == rules.n_tricks
        total = int(pts[:n_sides].sum())
        if rules.variant == "classic":
            assert total == (252 if trk[:2].max() == 8 else 162)
        else:
            assert total == in_play_points + 10
        # undo everything: back to the start position, byte for byte
        start = st.copy()
        for _ in played:
            undo_card(st, rec)
        for c in played:
            play_card(st, rec, c)
        assert st.tobytes() == start.tobytes()


@pytest.mark.parametrize("label,undertrump", list(_rules_cases()))
def test_legal_plays_and_trick_winners_agree_with_the_reference(label, undertrump):
    rules = Rules.from_label(label, [f"undertrump={undertrump}"])
    rec = rules.record()
    rng = np.random.default_rng(202)
    checked = 0
    for _ in range(60):
        st, _ = random_start(rules, rng)
        trump = int(st[0])
        while not is_over(st, rec):
            seat = int(st[ST_TO_MOVE])
            trick = trick_so_far(st, rules)
            want = reference.legal_plays(_hand_cards(st, rules, seat), trick, seat, trump, rules)
            got = frozenset(mask_to_cards(int(legal_cards(st, rec))))
            assert got == want, (trick, seat)
            options = sorted(got)
            card = options[int(rng.integers(len(options)))]
            winner = play_card(st, rec, card)
            if winner >= 0:
                assert winner == reference.trick_winner(trick + [(seat, card)], trump)
            checked += 1
    assert checked > 60 * 16


def _replay_record(r):
    """Replay a logged hand through the state: each play legal, each trick's winner,
    points and Dekjas reveals as logged, and the result's card points and tricks."""
    st, rules = state_from_record(r)
    rec = rules.record()
    n_sides = rec.n_sides
    tricks = [0] * n_sides
    for t in r["tricks"]:
        pts_before = st.copy()
        down_before = [int(st[ST_DOWN + s]) for s in range(rules.players)]
        winner = -1
        for seat, card_s in t["plays"]:
            card = parse_card(card_s)
            assert int(st[ST_TO_MOVE]) == seat
            assert int(legal_cards(st, rec)) >> card & 1, f"illegal {card_s} in deal {r['deal']}"
            winner = play_card(st, rec, card)
        assert winner == t["winner"]
        side = rules.sides.index(next(sd for sd in rules.sides if winner in sd))
        tricks[side] += 1
        won = int(st[ST_POINTS + side]) - int(pts_before[ST_POINTS + side])
        assert won == t["points"]
        if rules.variant == "dekjas":
            revealed = sorted((s, parse_card(c)) for s, c in t.get("revealed", []))
            got = sorted((s, c) for s in range(2)
                         for c in mask_to_cards(down_before[s] & ~int(st[ST_DOWN + s])))
            assert got == revealed
    assert is_over(st, rec)
    pts, trk = np.zeros(4, np.int64), np.zeros(4, np.int64)
    hand_result(st, rec, pts, trk)
    assert [int(x) for x in trk[:n_sides]] == tricks
    assert [int(x) for x in pts[:n_sides]] == r["result"]["card_points"]


@pytest.mark.parametrize("label", ALL_LABELS)
@pytest.mark.parametrize("policy", ["random", "heuristic"])
def test_hands_played_by_the_engine_replay_through_the_state(label, policy):
    rules = Rules.from_label(label)
    cfg = SimConfig(rules=rules, policies=Policies.parse(policy, policy, rules.players), deals=200, seed=31)
    played = 0
    for i in range(120):
        r = hand_record(cfg, i)
        if r["outcome"] != "played":
            continue
        _replay_record(r)
        played += 1
    assert played > 30


def test_hands_under_undertrump_free_replay_through_the_state():
    rules = Rules.from_label("classic", ["undertrump=free"])
    cfg = SimConfig(rules=rules, policies=Policies.parse("heuristic", "random", 4), deals=200, seed=5)
    records = [hand_record(cfg, i) for i in range(120)]
    for r in records:
        if r["outcome"] == "played":
            _replay_record(r)
    assert sum(r["outcome"] == "played" for r in records) > 30


# --- named rules on small positions, in card notation ------------------------------------


def _classic(hands, trump="h", taker=0, leader=0, options=()):
    rules = Rules.from_label("classic", list(options))
    st = start_state(rules, [parse_cards(h) for h in hands], parse_suit(trump), taker, leader)
    return st, rules, rules.record()


def _play(st, rec, cards):
    w = -1
    for c in cards.split():
        w = play_card(st, rec, parse_card(c))
    return w


def test_classic_capot_counts_252_for_the_side_with_every_trick():
    st, rules, rec = _classic(["Jh 9h Ah Th Ac Ad As Ts", "7c 8c 9c Tc 7d 8d 9d Td",
                               "Kh Qh 8h 7h Kc Kd Qs Js", "Qc Jc Qd Jd 7s 8s 9s Ks"])
    for lead in ["Jh", "9h", "Ah", "Th", "Ac", "Ad", "As", "Ts"]:
        seat = int(st[ST_TO_MOVE])
        assert seat == 0
        _play(st, rec, lead)
        for _s in (1, 2, 3):
            legal = mask_to_cards(int(legal_cards(st, rec)))
            _play(st, rec, format_card(min(legal)))
    pts, trk = np.zeros(4, np.int64), np.zeros(4, np.int64)
    hand_result(st, rec, pts, trk)
    assert list(trk[:2]) == [8, 0]
    assert list(pts[:2]) == [252, 0]


def test_partner_winning_frees_the_discard_in_the_state():
    # seat 0 leads Ac, seat 1 follows, seat 2 (partner of 0) has no club: may discard
    st, rules, rec = _classic(["Ac 7d", "7c 8d", "7h 9d", "8c Td"], trump="h")
    _play(st, rec, "Ac 7c")
    assert mask_to_cards(int(legal_cards(st, rec))) == sorted(parse_cards("7h 9d"))


def test_must_undertrump_when_cannot_overtrump_in_the_state():
    st, rules, rec = _classic(["Ac 7d", "7c 8d", "Jh 9d", "9h Td"], trump="h")
    _play(st, rec, "Ac 7c Jh")
    # seat 3 cannot follow and cannot beat the Jh of an opponent: must still trump
    assert mask_to_cards(int(legal_cards(st, rec))) == [parse_card("9h")]
    st, rules, rec = _classic(["Ac 7d", "7c 8d", "Jh 9d", "9h Td"], trump="h", options=["undertrump=free"])
    _play(st, rec, "Ac 7c Jh")
    assert mask_to_cards(int(legal_cards(st, rec))) == sorted(parse_cards("9h Td"))


def test_dekjas_played_face_up_card_turns_the_card_below_face_up():
    rules = Rules.from_label("dekjas")
    rec = rules.record()
    deck = list(range(32))
    piles = [[(deck[2 * i + s], deck[16 + 2 * i + s]) for i in range(8)] for s in range(2)]
    st = dekjas_state(rules, piles, parse_suit("s"), 0)
    up0 = piles[0][3][1]
    down0 = piles[0][3][0]
    assert not int(st[ST_HANDS]) >> down0 & 1 and int(st[ST_DOWN]) >> down0 & 1
    before = st.copy()
    play_card(st, rec, up0)
    assert int(st[ST_HANDS]) >> down0 & 1 and not int(st[ST_DOWN]) >> down0 & 1
    assert int(st[ST_GONE]) >> up0 & 1
    undo_card(st, rec)
    assert st.tobytes() == before.tobytes()


def test_trick_winner_leads_the_next_trick():
    st, rules, rec = _classic(["7c Ad", "Ac 8d", "8c 9d", "9c Td"], trump="h")
    assert _play(st, rec, "7c Ac 8c 9c") == 1
    assert int(st[ST_TO_MOVE]) == 1 and int(st[ST_TRICK_NO]) == 1
