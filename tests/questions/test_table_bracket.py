"""``table --bracket``: the bidding table under several play policies, on the same deals."""

import json
import signal
import time
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from typer.testing import CliRunner

import cli
from analyzer.output.markdown import table_bracket_markdown
from analyzer.errors import BeloteError
from analyzer.players.policies import Policies
from analyzer.questions.table import RAW_FIELDS, bidding_table, mean_ci
from analyzer.questions.table_bracket import (bracket_status, default_plays, parse_by, parse_deals, per_deal_table,
                                              sample_sizes, table_bracket)
from analyzer.rules import Rules
from analyzer.runs.simulate import SimConfig
from belote_command import wait_for

pytestmark = pytest.mark.slow  # the searching players' brackets (PIMC, DD): out of make test-fast

runner = CliRunner()


@pytest.fixture(scope="module")
def cheap():
    """Random and heuristic play, 4,000 deals each, the first 1,500 paired."""
    return table_bracket(Rules(), plays=("random", "heuristic"), deals=4000, strong_deals=1500, seed=4)


def test_the_deals_and_decisions_do_not_depend_on_the_play_policy(cheap):
    rnd, heu = cheap.tables
    keys = ["round", "seat", "honours", "trump_length", "side_aces", "voids"]
    a = rnd.raw.set_index(keys).sort_index()
    b = heu.raw.set_index(keys).sort_index()
    # the same classes reached as often, with the same natural calls: the bidding saw the same deals
    pd.testing.assert_frame_equal(a[["n", "nat_take", "nat_smous"]], b[["n", "nat_take", "nat_smous"]])
    assert rnd.deals == heu.deals == 4000 and rnd.decisions == heu.decisions
    # ... and the play changed what taking is worth on them
    assert (a["made"] != b["made"]).any() and (a["dnet"] != b["dnet"]).any()
    # decision by decision on the paired deals
    da, db = cheap.decisions
    assert len(da) == len(db) and (da[["deal", "cls"]].to_numpy() == db[["deal", "cls"]].to_numpy()).all()
    assert da["deal"].max() == 1499


def test_per_deal_rows_add_up_to_the_table_of_the_same_deals():
    cfg = SimConfig(rules=Rules("piekjas", 3), deals=600, seed=9)
    table, dec = per_deal_table(cfg, 600, units_per_call=7)  # a call size that does not divide the deals
    whole = bidding_table(cfg)
    pd.testing.assert_frame_equal(table.raw, whole.raw)
    pd.testing.assert_frame_equal(table.raw_strength, whole.raw_strength)
    assert table.hands == whole.hands
    # one decision a row: every count is that decision's own (n = 1, squares of the values)
    assert (dec["n"] == 1).all() and (dec["dnet_sq"] == dec["dnet"] ** 2).all()
    summed = dec.groupby("cls")[list(RAW_FIELDS)].sum()
    assert int(summed["n"].sum()) == int(whole.raw["n"].sum()) == sum(whole.decisions)


def test_the_paired_gain_is_the_mean_per_decision_difference_on_the_same_deals(cheap):
    f = cheap.frame(min_n=30)
    row = f[(f["play"] == "heuristic") & (f["round"] == 1) & (f["honours"] == "J9..")].iloc[0]
    a, h = cheap.decisions[1], cheap.decisions[0]
    pick = (h["round"] == 1) & (h["honours"] == "J9..")
    d = (a["dnet"] - h["dnet"])[pick].to_numpy(np.float64)
    assert row.paired_n == len(d) >= 30
    m, se, lo, hi = mean_ci(d.sum(), (d * d).sum(), len(d))
    assert row.gain_vs_ref == pytest.approx(m) and row.gain_vs_ref_lo == pytest.approx(lo)
    assert row.gain_vs_ref_hi == pytest.approx(hi) and hi - lo == pytest.approx(2 * 1.959964 * d.std(ddof=1) / len(d) ** 0.5)
    # the reference row carries no difference; each policy's own n is its own table's
    ref = f[(f["play"] == "random") & (f["round"] == 1) & (f["honours"] == "J9..")].iloc[0]
    assert np.isnan(ref.gain_vs_ref) and ref.n > ref.paired_n


def test_each_policy_column_is_that_policy_s_own_table(cheap):
    f = cheap.frame(min_n=30)
    alone = bidding_table(SimConfig(rules=Rules(), policies=Policies.parse("heuristic", "heuristic", 4), deals=4000,
                                    seed=4)).view(["round", "honours"])
    got = f[f["play"] == "heuristic"].merge(alone, on=["round", "honours"], suffixes=("", "_alone"))
    assert len(got) == (f["play"] == "heuristic").sum() > 5
    for col in ("n", "p_made", "p_dedans", "p_capot", "p_pit_against", "gain_net", "gain_net_lo"):
        assert np.allclose(got[col], got[col + "_alone"]), col


def test_the_bracket_flips_only_when_taking_pays_under_one_policy_and_loses_under_another():
    assert bracket_status(["take", "take", "take"]) == "holds"
    assert bracket_status(["pass", "pass"]) == "holds"
    assert bracket_status(["take", "unclear", "pass"]) == "flips"
    assert bracket_status(["take", "unclear"]) == "unclear"
    assert bracket_status(["unclear", "unclear"]) == "unclear"


def test_summary_verdicts_follow_each_policy_s_interval(cheap):
    s = cheap.summary()
    f = cheap.frame()
    for _, r in s.iterrows():
        rows = f[(f["round"] == r["round"]) & (f["honours"] == r["honours"])]
        for play in cheap.plays:
            g = rows[rows["play"] == play].iloc[0]
            want = "take" if g.gain_net_lo > 0 else "pass" if g.gain_net_hi < 0 else "unclear"
            assert r[f"verdict_{play}"] == want
        assert r["bracket"] == bracket_status([r[f"verdict_{p}"] for p in cheap.plays])
    assert "classes with n ≥ 30" in cheap.finding()


def test_searching_policies_play_the_first_strong_deals_of_the_same_stream():
    b = table_bracket(Rules("piekjas", 2), plays=("heuristic", "dd"), deals=2000, strong_deals=25, seed=2)
    heu, dd = b.tables
    assert heu.deals == 2000 and dd.deals == 25 == b.paired_deals
    first = bidding_table(SimConfig(rules=Rules("piekjas", 2), deals=25, seed=2))
    keys = ["round", "seat", "honours", "trump_length", "side_aces", "voids"]
    pd.testing.assert_frame_equal(dd.raw.set_index(keys)[["n", "nat_take"]],
                                  first.raw.set_index(keys)[["n", "nat_take"]])


def test_each_searching_policy_can_have_its_own_sample_and_pairs_on_the_deals_it_shares():
    b = table_bracket(Rules("piekjas", 2), plays=("heuristic", "pimc", "dd"), deals=500,
                      strong_deals={"pimc": 60, "dd": 20}, seed=3)
    assert b.per_deal == {"heuristic": 60, "pimc": 60, "dd": 20} and [t.deals for t in b.tables] == [500, 60, 20]
    f = b.frame(min_n=5)
    dd = f[f["play"] == "dd"]
    assert len(dd) and (dd["vs_n"] == dd["paired_n"]).all() and (dd["n"] == dd["paired_n"]).all()
    assert int(dd["paired_n"].sum()) <= int(b.decisions[2].shape[0])
    assert sample_sizes(("heuristic", "pimc"), 300, 100) == {"heuristic": 100, "pimc": 100}
    assert parse_deals("pimc=1000,dd=100") == {"pimc": 1000, "dd": 100} and parse_deals("40") == 40
    for bad, msg in (("pimc=x", "--bracket-deals"), ("0", "positive")):
        with pytest.raises(BeloteError, match=msg):
            sample_sizes(("heuristic", "pimc"), parse_deals(bad), 100)
    with pytest.raises(BeloteError, match="not among"):
        sample_sizes(("heuristic", "pimc"), {"dd": 5}, 100)


def test_default_plays_leave_dd_out_where_it_is_impractical():
    assert default_plays(Rules())[0] == ("heuristic", "net", "pimc", "dd")
    assert default_plays(Rules("piekjas", 2)) == (("heuristic", "net", "pimc", "dd"), None)
    for r in (Rules("piekjas", 3), Rules("piekjas", 4), Rules("dekjas", 2)):
        plays, note = default_plays(r)
        assert plays == ("heuristic", "net", "pimc") and "0.3-0.4 hands a second" in note


def test_bracket_by_names_class_columns_and_keeps_the_round():
    assert parse_by(None) == ("round", "honours")
    assert parse_by("honours,side_aces") == ("round", "honours", "side_aces")
    with pytest.raises(BeloteError, match="--bracket-by"):
        parse_by("honours,colour")


def test_progress_counts_each_policy_s_deals_and_an_interrupt_stops_at_the_next_call():
    seen = []
    table_bracket(Rules("piekjas", 2), plays=("heuristic", "pimc"), deals=300, strong_deals=40, seed=1,
                  progress=lambda play, done, total: seen.append((play, done, total)))
    heu = [x for x in seen if x[0] == "heuristic"]
    pimc = [x for x in seen if x[0] == "pimc"]
    assert heu[-1][1:] == (340, 340)  # its 40 paired deals one by one, then its 300-deal table
    assert pimc[-1][1:] == (40, 40) and len(pimc) >= 40 // 8  # a few deals a call: progress within seconds
    assert [d for _, d, _ in pimc] == sorted(d for _, d, _ in pimc)

    calls = []

    def stop(play, done, total):
        calls.append(done)
        if play == "pimc":
            raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        table_bracket(Rules("piekjas", 2), plays=("heuristic", "pimc"), deals=300, strong_deals=10_000, seed=1,
                      progress=stop)
    assert calls[-1] <= 16  # stopped after its first call of a few deals, not after 10,000


def test_table_bracket_command_json_and_out(tmp_path):
    out = tmp_path / "tb"
    r = runner.invoke(cli.app, ["table", "--bracket", "--bracket-plays", "random,heuristic", "--deals", "1500",
                                "--bracket-deals", "500", "--out", str(out), "--json", "--quiet"])
    assert r.exit_code == 0, r.output
    d = json.loads(r.stdout)
    assert d["inputs"]["plays"] == ["random", "heuristic"] and d["inputs"]["strong_deals"] == {"random": 500,
                                                                                              "heuristic": 500}
    assert [x["deals"] for x in d["runs"]] == [1500, 1500]
    assert {c["play"] for c in d["classes"]} == {"random", "heuristic"}
    assert all(c["paired_n"] >= 30 for c in d["classes"])
    assert {s["bracket"] for s in d["summary"]} <= {"holds", "flips", "unclear"}
    names = {Path(f).name for f in d["files"]}
    assert {"table_bracket_classic.csv", "table_bracket_classic.md", "table_bracket_classic.png"} <= names


def test_markdown_names_each_policy_s_n_and_the_paired_comparison(cheap):
    md = table_bracket_markdown(cheap)
    assert "random 4,000 deals, heuristic 4,000 deals, the first deals of one stream" in md
    assert "| class | play | n | P(made) | P(dedans) | P(capot) | P(pit) | net gain of taking | vs random, paired |" in md
    assert "Round 1:" in md and "Round 2:" in md


@pytest.mark.slow
def test_an_interrupted_table_bracket_stops_within_seconds_and_writes_nothing(belote, tmp_path):
    proc = belote.popen("table", "--bracket", "--bracket-plays", "heuristic,dd", "--deals", "2000",
                        "--bracket-deals", "100000", "--quiet", "--out", "out", cwd=tmp_path)
    # into the double-dummy deals (a classic dd deal: about a second a thread): past the start-up and
    # the heuristic's 2,000 deals, under 5 s of CPU (its bracket with random for dd: 4.9 s in all)
    wait_for(proc, busy=10.0)
    t0 = time.perf_counter()
    proc.send_signal(signal.SIGINT)
    _, err = proc.communicate(timeout=600)
    waited = time.perf_counter() - t0
    assert proc.returncode == 130 and err.strip().splitlines()[-1] == "belote: interrupted", err
    assert list(tmp_path.iterdir()) == []
    # the running call finishes first: a few deals a thread, seconds (generous for a loaded machine)
    assert waited < 60, waited
