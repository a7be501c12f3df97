"""Bidding tables: classes, the take/pass comparison, pooled views and the files written."""

import numpy as np
import pandas as pd
import pytest

from analyzer.output.files import write_table
from analyzer.runs import classes as K
from analyzer.rules.cards import cards_to_mask, parse_cards, parse_suit
from analyzer.errors import BeloteError
from analyzer.rules import Rules
from analyzer.runs.simulate import SimConfig
from analyzer.questions.table import bidding_table, honours_label


@pytest.fixture(scope="module")
def classic_table():
    return bidding_table(SimConfig(rules=Rules(), deals=20_000, seed=3))


def test_hand_class_reads_honours_length_aces_and_voids():
    cards = cards_to_mask(parse_cards("Jh 9h 7h Ac Kd 8d"))
    idx, hon, length, aces, voids = K.hand_class(np.uint32(cards), parse_suit("h"), 2, 1)
    assert honours_label(hon) == "J9.."
    assert (length, aces, voids) == (3, 1, 1)  # hearts J 9 7; the ace of clubs; no spade
    assert idx == ((((hon * K.N_LEN + 3) * K.N_ACES + 1) * K.N_VOIDS + 1) * K.N_SEATS + 2) * K.N_ROUNDS + 0


def test_reusing_the_natural_hand_changes_no_count():
    cfg = SimConfig(rules=Rules(), deals=3000, seed=8)
    a = bidding_table(cfg, reuse=True)
    b = bidding_table(cfg, reuse=False)
    pd.testing.assert_frame_equal(a.raw, b.raw)
    pd.testing.assert_frame_equal(a.raw_strength, b.raw_strength)
    assert a.hands < b.hands  # fewer hands played for the same numbers


def test_same_numbers_whatever_the_thread_count_and_chunking():
    a = bidding_table(SimConfig(rules=Rules("piekjas", 2), deals=5000, seed=2, threads=1), batch=1 << 11)
    b = bidding_table(SimConfig(rules=Rules("piekjas", 2), deals=5000, seed=2, threads=2))
    pd.testing.assert_frame_equal(a.raw, b.raw)


def test_every_reached_decision_is_counted_once(classic_table):
    t = classic_table
    assert t.deals == 20_000
    assert t.raw["n"].sum() == sum(t.decisions)
    assert t.raw_strength["n"].sum() == sum(t.decisions)
    # round 1: voorhand decides on every deal
    r1 = t.view(["round", "seat"])
    assert int(r1[(r1["round"] == 1) & (r1["seat"] == 0)]["n"].iloc[0]) == 20_000
    # later seats decide only when the earlier ones passed
    n_by_seat = r1[r1["round"] == 1].sort_values("seat")["n"].to_numpy()
    assert (np.diff(n_by_seat) < 0).all()


def test_pooled_views_are_exact_sums(classic_table):
    v = classic_table.view(["round"])
    assert v["n"].sum() == classic_table.raw["n"].sum()
    whole = classic_table.view([])
    assert int(whole["n"].iloc[0]) == classic_table.raw["n"].sum()
    assert ((whole["p_made_lo"] <= whole["p_made"]) & (whole["p_made"] <= whole["p_made_hi"])).all()


def test_trump_jack_and_nine_gain_more_than_no_honours(classic_table):
    v = classic_table.view(["round", "trump_J", "trump_9"])
    r1 = v[v["round"] == 1].set_index(["trump_J", "trump_9"])
    jn, none = r1.loc[(True, True)], r1.loc[(False, False)]
    # beyond the noise: J+9's 95% interval lies above the no-honour interval
    assert jn["gain_net_lo"] > none["gain_net_hi"]
    assert jn["p_made"] > none["p_made"]


def test_break_even_and_rule_of_thumb_tables(classic_table):
    be = classic_table.break_even(min_n=100)
    assert set(be["seat"]) >= {"0", "all"}
    assert be["break_even"].notna().any()
    rt = classic_table.rule_of_thumb()
    assert {"1-2", "0"} <= set(rt["aces"])
    assert set(rt["verdict"]) <= {"take", "pass", "unclear"}
    text = classic_table.rule_of_thumb_finding()
    assert "Round 1" in text and "n=" in text


def test_write_produces_csv_parquet_png_and_markdown(classic_table, tmp_path):
    files = write_table(classic_table, tmp_path)
    names = {p.name for p in files}
    for stem in ("classes", "strength", "break_even", "rule_of_thumb"):
        assert f"table_classic_{stem}.csv" in names and f"table_classic_{stem}.parquet" in names
    assert {"table_classic_heatmap_gain.png", "table_classic_break_even.png", "table_classic.md"} <= names
    back = pd.read_parquet(tmp_path / "table_classic_classes.parquet")
    assert len(back) == len(classic_table.classes())
    assert all((tmp_path / n).stat().st_size > 0 for n in names)


def test_round_one_only():
    t = bidding_table(SimConfig(rules=Rules("dekjas", 2), deals=2000, seed=1), rounds=1)
    assert set(t.raw["round"]) == {1} and t.decisions[1] == 0
    with pytest.raises(BeloteError, match="--rounds"):
        bidding_table(SimConfig(rules=Rules(), deals=10, seed=1), rounds=3)
