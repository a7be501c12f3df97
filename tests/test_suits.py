"""The suit-choice measurement (``analyzer.runs.suits``, ``analyzer.questions.suits``): the koe's
suit and the round-2 suit, every allowed suit played forced on the same deal."""

import json

import numpy as np
import pandas as pd
import pytest

import cli
from analyzer.game.dealing import shuffle_deck  # noqa: F401 (the deal order the reference reads)
from analyzer.players.bidding import KOE, KOE_ROUND, PLAYED, SMOUS, TAKE, bid_cards, suit_strength
from analyzer.players.policies import Policies
from analyzer.questions import suits as Q
from analyzer.questions.calibrate import read_policy
from analyzer.rules import Rules
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


def reference_row(config: SimConfig, n: int, argmax: bool) -> np.ndarray:
    """The kernel's row for deals 0 .. n-1, computed one forced hand at a time through the
    Python API (``trace_hand`` with a force row). ``argmax``: also check that the policy's
    suit is the best-scoring one (the heuristic's choice)."""
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
        strength = {u: suit_strength(cards[u], u, params[seat]) for u in allowed}
        length = {u: bin((int(cards[u]) >> (8 * u)) & 0xFF).count("1") for u in allowed}
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
    return row


@pytest.mark.parametrize("label,bid,deals", [("classic", "calibrated", 120), ("piekjas2", "calibrated", 150),
                                             ("piekjas3", "random", 100), ("piekjas4", "calibrated", 100),
                                             ("dekjas", "calibrated", 150)])
def test_kernel_sums_equal_the_forced_hands_played_one_by_one(label, bid, deals):
    rules = Rules.from_label(label)
    cfg = SimConfig(rules=rules, policies=Policies.parse(bid, "heuristic", rules.players), deals=deals, seed=5)
    want = reference_row(cfg, deals, argmax=bid != "random")
    got = driver.run_units(driver.SUITS, cfg.seed, 0, deals, 37, cfg.kernel_args())
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
    assert doc["decisions"]["koe_suit"].startswith("measured") and "3,000 deals" in doc["decisions"]["koe_suit"]
    assert doc["decisions"]["round2_suit"].startswith("measured")
    assert doc["suit_choices"]["koe"]["decisions"] > 0
    json.dumps(doc)  # plain JSON
    path2 = tmp_path / "p3b.json"
    assert cli.main(["calibrate", "--variant", "piekjas", "--players", "3", "--deals", "1500", "--iterations", "1",
                     "--quiet", "--out", str(path2)]) == 0
    doc2 = read_policy(path2)
    assert "not measured in this run" in doc2["decisions"]["koe_suit"] and doc2["suit_choices"] is None


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
