"""Comparing variants: per-hand counts, the seat advantage, games, tables and files."""

import numpy as np
import pandas as pd
import pytest

from analyzer.output.files import write_balance
from analyzer.questions.balance import compare_variants, parse_variants
from analyzer.errors import BeloteError
from analyzer.rules import Rules
from analyzer.questions.seats import simulate_seats
from analyzer.runs.simulate import SimConfig, simulate


@pytest.fixture(scope="module")
def small():
    return compare_variants(["classic", "piekjas3", "dekjas"], deals=20_000, games=200, seed=4)


def test_seat_kernel_counts_are_simulates_counts():
    cfg = SimConfig(rules=Rules("piekjas", 2), deals=30_000, seed=6)
    res, _ = simulate_seats(cfg)
    assert (res.counts == simulate(cfg).counts).all()


def test_seat_advantages_balance_out(small):
    st = small.seat_table()
    for lab, sub in st.groupby("variant"):
        adv = sub.sort_values("seat")["advantage"].to_numpy()
        if lab == "classic":
            # partners share a side: seats 0 and 2 gain what seats 1 and 3 lose
            assert adv[0] == pytest.approx(adv[2]) and adv[0] == pytest.approx(-adv[1])
        else:
            # each hand: sum over seats of (own - mean of the others) is exactly 0
            assert adv.sum() == pytest.approx(0.0, abs=1e-9)


def test_every_number_lies_in_its_interval(small):
    ht = small.hand_table()
    assert ((ht["lo"] <= ht["value"] + 1e-12) & (ht["value"] <= ht["hi"] + 1e-12)).all()
    st = small.seat_table()
    assert ((st["p_win_lo"] <= st["p_win"]) & (st["p_win"] <= st["p_win_hi"])).all()
    assert (ht["n"] > 0).all()


def test_rows_that_cannot_occur_are_left_out(small):
    ht = small.hand_table()
    classic = set(ht[ht["variant"] == "classic"]["statistic"])
    assert "passed_out" in classic and "koe" not in classic and "smous_offered" not in classic
    dekjas = set(ht[ht["variant"] == "dekjas"]["statistic"])
    assert {"koe", "smous_offered", "redeal"} <= dekjas and "passed_out" not in dekjas


def test_games_table_and_distribution(small):
    gt = small.game_table()
    assert list(gt["variant"]) == ["classic", "piekjas3", "dekjas"]
    assert (gt["games"] == 200).all()
    hist = small.hands_per_game()
    assert hist.groupby("variant")["games"].sum().eq(200).all()


def test_write_tables_plots_and_markdown(small, tmp_path):
    files = write_balance(small, tmp_path)
    names = {p.name for p in files}
    assert {"balance_hands.csv", "balance_seats.parquet", "balance_games.csv", "balance.md",
            "balance_advantage.png", "balance_win.png", "balance_hands_per_game.png"} <= names
    md = (tmp_path / "balance.md").read_text()
    assert "piekjas3" in md and "n=" in md and "![" in md
    assert len(pd.read_csv(tmp_path / "balance_seats.csv")) == 4 + 3 + 2


def test_variant_labels_are_checked():
    assert [r.label for r in parse_variants("classic, piekjas2")] == ["classic", "piekjas2"]
    with pytest.raises(BeloteError, match="unknown variant"):
        parse_variants("classic,bridge")
    with pytest.raises(BeloteError, match="--deals"):
        compare_variants(["classic"], deals=0)


def test_hands_only_when_no_games():
    b = compare_variants(["piekjas4"], deals=5000, games=0, seed=1)
    assert "p_win" not in b.seat_table() and b.game_table().empty
    assert np.isfinite(b.seat_table()["advantage"]).all()


def test_default_sizes_shrink_for_a_searching_play_policy():
    from analyzer.questions.balance import DEFAULT_SIZES, default_sizes

    assert default_sizes("heuristic") == DEFAULT_SIZES[""] == (1_000_000, 20_000)
    assert default_sizes("pimc:worlds=8") == DEFAULT_SIZES["pimc"]
    assert default_sizes("taker=pimc,defence=heuristic") == DEFAULT_SIZES["pimc"]
    assert default_sizes("0=dd,1=pimc") == DEFAULT_SIZES["dd"]  # the costliest named decides
    assert DEFAULT_SIZES["dd"] < DEFAULT_SIZES["pimc"] < DEFAULT_SIZES[""]


def test_a_searching_policy_runs_in_small_chunks_with_the_same_numbers():
    from analyzer.players.policies import Policies
    from analyzer.runs.simulate import CHUNK, SEARCH_CHUNK

    rules = Rules("piekjas", 2)
    assert SimConfig(rules=rules).chunk == CHUNK
    strong = SimConfig(rules=rules, policies=Policies.parse("heuristic", "pimc:worlds=4", 2), deals=40, seed=3)
    assert strong.chunk == SEARCH_CHUNK
    whole = SimConfig(rules=rules, policies=strong.policies, deals=40, seed=3, chunk=40)
    assert (simulate(strong).counts == simulate(whole).counts).all()


def test_balance_progress_counts_games_as_hands_to_the_total():
    from analyzer.questions.balance import HANDS_PER_GAME, work

    seen = []
    compare_variants(["dekjas"], deals=3000, games=20, seed=2, bid="heuristic", progress=seen.append)
    assert seen == sorted(seen) and seen[-1] == work(3000, 20) == 3000 + round(HANDS_PER_GAME * 20)
