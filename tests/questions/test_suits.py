"""The suit-choice measurement (``analyzer.runs.suits``, ``analyzer.questions.suits``): the koe's
suit and the round-2 suit, every allowed suit played forced on the same deal."""

import json

import numpy as np
import pandas as pd
import pytest

import cli
from analyzer.game.dealing import shuffle_deck  # noqa: F401 (the deal order the reference reads)
from analyzer.players.bidding import (P_KOE_LENGTH, P_KOE_TURNED, bid_cards, choose_koe_suit, default_bid_params,
                                      suit_strength)
from analyzer.rules.calls import KOE, KOE_ROUND, PLAYED, SMOUS, TAKE
from analyzer.players.policies import Policies
from analyzer.questions import suits as Q
from analyzer.questions.calibrate import read_policy
from analyzer.rules import Rules
from analyzer.rules.cards import cards_to_mask, parse_card, parse_cards
from analyzer.rules.scoring import MADE
from analyzer.runs import driver
from analyzer.runs import suits as K
from analyzer.runs.hand import RES_FORCED, RES_KIND, RES_OUTCOME, RES_ROUND, RES_SCORES, RES_TAKER, RES_TRUMP
from analyzer.runs.simulate import SimConfig, trace_hand


def _own_cards(rules: Rules, deck) -> tuple[list[int], int]:
    """The cards each seat judges at bidding, and the turned card (RULES.md §3), read off
    the dealt deck the slow way."""
    if rules.variant == "dekjas":  # pile p of seat s: face up deck[16 + 2p + s]
        return [sum(1 << int(deck[16 + 2 * p + s]) for p in range(8)) for s in range(2)], int(deck[31])
    fd = rules.record().first_deal
    n = rules.players
    return [sum(1 << int(deck[s * fd + k]) for k in range(fd)) for s in range(n)], int(deck[n * fd])


def _bin(x: float, width: float, top: int) -> int:
    return min(int(x / width), top - 1) if x > 0 else 0


def reference_row(config: SimConfig, n: int, argmax: bool, candidates=()) -> np.ndarray:
    """The kernel's row for deals 0 .. n-1, computed one forced hand at a time through the
    Python API (``trace_hand`` with a force row). ``argmax``: also check that the policy's
    suit is the best by its choice score (the strength score; at the koe plus its koe
    weights). ``candidates``: koe rules (a, b) scored on the same runs."""
    rules, rec, params = config.rules, config.rules.record(), config.bid_params
    row = np.zeros(K.SUITS_ROW, np.int64)
    meta = row[K.CELLS_SIZE:]
    cells = row[:K.CELLS_SIZE].reshape(K.N_CELLS, K.NS)
    for i in range(n):
        deck, _, trace = trace_hand(config, i)
        meta[K.SM_DEALS] += 1
        found = None
        for b in range(int(trace[0])):
            seat, rnd, call, suit = (int(x) for x in trace[1 + 4 * b:5 + 4 * b])
            if call == KOE:
                found = (0, 0, KOE_ROUND, KOE, suit)
            elif call == TAKE and rnd == 2:
                found = (1 + seat, seat, 2, TAKE, suit)
            elif call == SMOUS and rnd == 2:
                meta[K.SM_R2_SMOUS] += 1
        if found is None:
            continue
        dec, seat, rnd, call, p = found
        own, turned = _own_cards(rules, deck)
        allowed = [u for u in range(4) if dec == 0 or rules.round2_suits == "any" or u != turned // 8]
        cards = {u: bid_cards(np.uint32(own[seat]), turned, u, rec) for u in allowed}
        raw = {u: suit_strength(cards[u], u, params[seat]) for u in allowed}
        length = {u: bin((int(cards[u]) >> (8 * u)) & 0xFF).count("1") for u in allowed}
        koe_w = (params[seat][P_KOE_LENGTH], params[seat][P_KOE_TURNED]) if dec == 0 else (0.0, 0.0)
        strength = {u: raw[u] + koe_w[0] * length[u] + (koe_w[1] if u == turned // 8 else 0.0) for u in allowed}
        if argmax:
            assert p == max(allowed, key=lambda u: (strength[u], -u))  # the first best-scoring suit
        side = seat % 2 if rules.partners else seat
        net, score, made = {}, {}, {}
        for u in allowed:
            _, res, _ = trace_hand(config, i, force=(seat, rnd, call, u))
            assert res[RES_FORCED] == 1 and res[RES_KIND] == PLAYED and res[RES_TRUMP] == u and res[RES_TAKER] == seat
            assert res[RES_ROUND] == rnd
            sc = [int(res[RES_SCORES + s]) for s in range(len(rules.sides))]
            score[u] = sc[side]
            net[u] = sc[side] - max(v for s, v in enumerate(sc) if s != side)
            made[u] = int(res[RES_OUTCOME] == MADE)
        meta[K.SM_HANDS] += len(allowed)
        meta[K.SM_DEC + dec] += 1
        meta[K.SM_POL_NET + dec] += net[p]
        meta[K.SM_POL_NET_SQ + dec] += net[p] ** 2
        others = sorted((u for u in allowed if u != p), key=lambda u: (-strength[u], u))
        for rank, u in enumerate(others):
            gap = _bin(strength[p] - strength[u], K.GAP_BIN, K.N_GAP)
            lenrel = 0 if length[u] < length[p] else 1 if length[u] == length[p] else 2
            pstr = _bin(strength[p], K.P_BIN, K.N_PB)
            c = ((((dec * K.N_RANK + rank) * K.N_GAP + gap) * 2 + int(u == turned // 8)) * K.N_LENREL + lenrel) \
                * K.N_PB + pstr
            dn, ds = net[u] - net[p], score[u] - score[p]
            cells[c] += (1, dn, dn * dn, ds, ds * ds, made[u], made[p])
        if dec == 0:
            cand = row[K.CAND_OFFSET:].reshape(K.MAX_CAND, K.NC)
            for k, (a, b) in enumerate(candidates):
                pick = max(allowed, key=lambda u: (raw[u] + a * length[u] + (b if u == turned // 8 else 0.0), -u))
                cand[k] += (1, net[pick] - net[p], (net[pick] - net[p]) ** 2, int(pick != p))
    return row


def _cand_cfg(candidates) -> np.ndarray:
    cfg = np.zeros(1 + 2 * len(candidates), np.int64)
    cfg[0] = len(candidates)
    for k, (a, b) in enumerate(candidates):
        cfg[1 + 2 * k:3 + 2 * k] = (round(100 * a), round(100 * b))
    return cfg


@pytest.mark.parametrize("label,bid,deals", [("classic", "calibrated", 120), ("piekjas2", "calibrated", 150),
                                             ("piekjas3", "random", 100), ("piekjas4", "calibrated", 100),
                                             ("dekjas", "calibrated", 150)])
def test_kernel_sums_equal_the_forced_hands_played_one_by_one(label, bid, deals):
    rules = Rules.from_label(label)
    cfg = SimConfig(rules=rules, policies=Policies.parse(bid, "heuristic", rules.players), deals=deals, seed=5)
    cands = [(0.0, 0.0), (6.0, 0.0), (0.0, 12.0), (4.5, 8.0)]
    want = reference_row(cfg, deals, argmax=bid != "random", candidates=cands)
    got = driver.run_units(driver.SUITS, cfg.seed, 0, deals, 37, cfg.kernel_args(), _cand_cfg(cands))
    meta = want[K.CELLS_SIZE:]
    assert meta[K.SM_DEC:K.SM_DEC + K.N_DEC].sum() >= deals // 5  # the deals hold enough suit decisions to test
    np.testing.assert_array_equal(got, want)
    assert got[K.CELLS_SIZE + K.SM_UNREACHED] == 0


def test_classic_round_two_never_names_the_turned_suit_and_has_no_koe():
    cfg = SimConfig(rules=Rules(), deals=3000, seed=2)
    s = Q.suit_choice(cfg)
    assert s.decisions() and "koe" not in s.decisions()
    assert not s.raw["turned"].any()  # round2_suits=other: the turned suit is no alternative
    assert set(s.raw["rank"]) <= {2, 3}  # three suits allowed: the policy's and two others


def test_the_koe_may_name_every_suit_and_round_two_any_suit_in_piekjas():
    s = Q.suit_choice(SimConfig(rules=Rules("piekjas", 3), deals=3000, seed=2))
    koe = s.raw[s.raw["dec"] == 0]
    r2 = s.raw[s.raw["dec"] > 0]
    assert set(koe["rank"]) == {2, 3, 4} and set(r2["rank"]) == {2, 3, 4}
    assert koe["turned"].any() and r2["turned"].any()
    # one alternative per other suit: three a decision
    assert s.raw["n"].sum() == 3 * sum(s.decisions().values())
    assert s.unreached() == 0


def test_same_numbers_on_one_and_two_threads():
    rules = Rules("dekjas", 2)
    pols = Policies.parse("calibrated", "heuristic", 2)
    a = Q.suit_choice(SimConfig(rules=rules, policies=pols, deals=4000, seed=3, threads=1), batch=1 << 10)
    b = Q.suit_choice(SimConfig(rules=rules, policies=pols, deals=4000, seed=3, threads=2))
    pd.testing.assert_frame_equal(a.raw, b.raw)
    np.testing.assert_array_equal(a.meta, b.meta)


def _row_with(cells: dict) -> np.ndarray:
    """A kernel row holding the given cells: {(dec, rank, gap, turned, lenrel, pstr): (n, sum, sum_sq)}."""
    row = np.zeros(K.SUITS_ROW, np.int64)
    c = row[:K.CELLS_SIZE].reshape(K.N_CELLS, K.NS)
    for key, (n, s, sq) in cells.items():
        c[K.suit_cell(*key), K.S_N] = n
        c[K.suit_cell(*key), K.S_DNET] = s
        c[K.suit_cell(*key), K.S_DNET_SQ] = sq
    return row


def test_cells_pool_exactly_and_give_each_verdict():
    # koe, next-best suit, gap 0-4: 150 alternatives at +20 and 150 at 0 (two sub-cells: turned or not)
    # -> n 300, mean +10, sd 10 * sqrt(300/299): beaten. Round 2 seat 1: mean -10 -> kept.
    # Round 2 seat 0: n 100 -> too few. Round 2 seat 2: mean 0 -> unclear.
    row = _row_with({(0, 0, 0, 0, 1, 2): (150, 3000, 60000), (0, 0, 0, 1, 1, 2): (150, 0, 0),
                     (2, 0, 0, 0, 1, 2): (300, -3000, 60000), (1, 0, 1, 0, 1, 2): (100, 1000, 20000),
                     (3, 1, 2, 0, 0, 1): (300, 0, 30000)})
    s = Q.from_sums(SimConfig(rules=Rules("piekjas", 3), deals=1), row, 0.0)
    v = s.cells().set_index(["decision", "rank", "gap_lo"])
    koe = v.loc[("koe", 2, 0.0)]
    se = np.sqrt((60000 / 300 - 100) * 300 / 299 / 300)
    assert koe["n"] == 300 and koe["gain_net"] == pytest.approx(10.0)
    assert koe["gain_net_lo"] == pytest.approx(10 - 1.959963984540054 * se)
    assert koe["verdict"] == "beaten"
    assert v.loc[("r2 seat 1", 2, 0.0)]["verdict"] == "kept"
    assert v.loc[("r2 seat 0", 2, 4.0)]["verdict"] == "too few"
    assert v.loc[("r2 seat 2", 3, 8.0)]["verdict"] == "unclear"
    share = s.beaten_share()
    assert (share["cells"], share["enough"], share["resolved"], share["beaten"]) == (4, 3, 2, 1)
    assert share["share_beaten"] == 0.5 and share["beaten_cells"][0].startswith("koe 2nd suit gap 0-4 +10.0")
    # split by the turned suit, the koe's two halves are separate cells: +20 (sd 0: beaten) and 0
    by_turned = s.view(("decision", "turned")).set_index(["decision", "turned"])
    assert by_turned.loc[("koe", False)]["gain_net"] == 20.0 and by_turned.loc[("koe", True)]["gain_net"] == 0.0
    koe_v, r2_v = s.verdict("koe"), s.verdict("round2")
    assert (koe_v["beaten"], koe_v["kept"], r2_v["beaten"], r2_v["kept"]) == (1, 0, 0, 1)
    assert s.decision_text("koe").startswith("measured: the best-scoring suit is beaten in 1 of 1")
    assert s.decision_text("round2").startswith("measured, kept: the best-scoring suit")


def test_calibrate_suits_prints_the_measurement_and_writes_it_in_the_policy_file(tmp_path, capsys):
    path = tmp_path / "p3.json"
    code = cli.main(["calibrate", "--variant", "piekjas", "--players", "3", "--deals", "3000", "--iterations", "1",
                     "--suits", "--quiet", "--out", str(path)])
    out, _ = capsys.readouterr()
    assert code == 0 and "suit choices piekjas3" in out and "koe:" in out and "r2 seat 0:" in out
    doc = read_policy(path)
    assert doc["command"].endswith("--suits")
    koe = doc["decisions"]["koe_suit"]
    assert koe.startswith("calibrated") and "; measured" in koe and "3,000 deals" in koe
    assert doc["decisions"]["round2_suit"].startswith("measured")
    assert doc["suit_choices"]["koe"]["decisions"] > 0
    json.dumps(doc)  # plain JSON
    path2 = tmp_path / "p3b.json"
    assert cli.main(["calibrate", "--variant", "piekjas", "--players", "3", "--deals", "1500", "--iterations", "1",
                     "--quiet", "--out", str(path2)]) == 0
    doc2 = read_policy(path2)
    assert "not measured in this run" in doc2["decisions"]["round2_suit"] and doc2["suit_choices"] is None
    assert doc2["decisions"]["koe_suit"].startswith("calibrated") and "measured" not in doc2["decisions"]["koe_suit"]


def test_switch_gain_counts_every_decision_and_only_the_next_best_suit():
    row = _row_with({(0, 0, 0, 0, 2, 1): (100, 1000, 20000),  # koe, next best, gap 0-4, longer: +10 a switch
                     (0, 0, 3, 0, 2, 1): (50, -500, 5000),  # gap 12-16: not switched by the rule below
                     (0, 1, 0, 0, 2, 1): (80, 800, 8000)})  # the third suit: never switched
    row[K.CELLS_SIZE + K.SM_DEC] = 400  # koe decisions
    s = Q.from_sums(SimConfig(rules=Rules("piekjas", 4), deals=1), row, 0.0)
    g = s.switch_gain("koe", lambda r: (r["gap_lo"] < 8) & (r["length"] == "longer"))
    assert (g["decisions"], g["switched"]) == (400, 100)
    assert g["gain_net"] == pytest.approx(1000 / 400)  # 0 on the 300 decisions not switched
    assert g["se"] == pytest.approx(np.sqrt((20000 / 400 - 2.5 ** 2) * 400 / 399 / 400))
    assert s.switch_gain("round2", lambda r: r["gap_lo"] >= 0)["switched"] == 0


def test_a_koe_policy_with_weights_is_measured_on_its_own_choice_score():
    """A koe with length and turned-suit weights: the kernel's cells and candidates equal the
    forced hands played one by one, and its suit is the best of its own koe score."""
    rules = Rules("piekjas", 3)
    params = np.tile(default_bid_params("piekjas", 3), (3, 1))
    params[:, P_KOE_LENGTH], params[:, P_KOE_TURNED] = 6.0, 8.0
    cfg = SimConfig(rules=rules, deals=120, seed=9, bid_params=params)
    cands = [(0.0, 0.0), (6.0, 8.0)]
    want = reference_row(cfg, 120, argmax=True, candidates=cands)
    got = driver.run_units(driver.SUITS, cfg.seed, 0, 120, 50, cfg.kernel_args(), _cand_cfg(cands))
    np.testing.assert_array_equal(got, want)
    cand = got[K.CAND_OFFSET:].reshape(K.MAX_CAND, K.NC)
    assert cand[1, K.CAND_N] > 0 and cand[1, K.CAND_DNET] == 0 and cand[1, K.CAND_SWITCHED] == 0  # the policy's own rule


def _koe(cards: str, turned: str, length_w: float, turned_w: float, rules=Rules("piekjas", 3)) -> str:
    params = default_bid_params(rules.variant, rules.players)
    params[P_KOE_LENGTH], params[P_KOE_TURNED] = length_w, turned_w
    suit = choose_koe_suit(1, params, np.uint32(cards_to_mask(parse_cards(cards))), parse_card(turned),
                           rules.record(), np.zeros(1, np.uint64))
    return "cdhs"[suit]


def test_the_koe_names_the_best_scoring_suit_without_koe_weights():
    # hearts J 9 with the ace of clubs and a diamond void: 48; spades 9 8 7: 38
    assert _koe("Jh 9h Ac 9s 8s 7s", "Kd", 0.0, 0.0) == "h"


def test_a_koe_length_weight_names_the_longer_suit_at_a_near_tie():
    # 48 + 2 w against 38 + 3 w: spades from w > 10
    assert _koe("Jh 9h Ac 9s 8s 7s", "Kd", 8.0, 0.0) == "h"
    assert _koe("Jh 9h Ac 9s 8s 7s", "Kd", 12.0, 0.0) == "s"


def test_a_koe_turned_weight_names_the_turned_suit_at_a_near_tie():
    # turned Ks: in spades the koe exchanges its 7s for it (Dix): 9 8 K of spades score 41 + w against hearts 48
    assert _koe("Jh 9h Ac 9s 8s 7s", "Ks", 0.0, 6.0) == "h"
    assert _koe("Jh 9h Ac 9s 8s 7s", "Ks", 0.0, 8.0) == "s"
