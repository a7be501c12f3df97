"""Calibrated bidders in the questions and the report (issue 11): the defaults, the names of
the bidders in every output, take's conditioning on either policy, and what calibration
changes against the heuristic bidders, paired on the same deals."""

import json

import numpy as np
import pytest

from analyzer.output.markdown import bidding_effect_markdown
from analyzer.errors import BeloteError
from analyzer.players.bidding import BID_PARAM_NAMES, default_bid_params
from analyzer.players.policies import Policies
from analyzer.players.policy_files import MAX_STRENGTH, default_bid, describe_bid, read_policy, shipped_path
from analyzer.questions.bidding_effect import compare_bidding
from analyzer.questions.take import analyse_take
from analyzer.rules import Rules
from analyzer.runs.simulate import SimConfig, simulate
from analyzer.runs.summary import summarize

# --- the default bidder ---------------------------------------------------------------------


def test_default_bidder_is_calibrated_where_a_shipped_policy_fits_else_heuristic():
    for lab in ("classic", "piekjas2", "piekjas3", "piekjas4", "dekjas"):
        assert default_bid(Rules.from_label(lab)) == "calibrated"
    assert default_bid(Rules.from_label("classic", ["undertrump=free"])) == "heuristic"  # calibrated for the defaults
    assert default_bid(Rules.from_label("piekjas3"), play="random") == "heuristic"  # calibrated for heuristic play
    for lab in ("classic", "piekjas2", "piekjas3", "piekjas4", "dekjas"):  # and the ones calibrated under net play
        assert default_bid(Rules.from_label(lab), play="net") == "calibrated"
    assert default_bid(Rules.from_label("classic"), play="pimc") == "heuristic"  # no policy ships for pimc play


def test_bidders_are_named_with_their_policy_file_and_provenance():
    rules = Rules.from_label("dekjas")
    doc = read_policy(shipped_path("dekjas"))
    text = describe_bid(Policies.parse("calibrated", "heuristic", 2), rules)
    assert "analyzer/players/policies_data/dekjas.json" in text and doc["git_commit"][:7] in text
    assert f"{doc['deals_per_iteration']:,} deals" in text and f"{len(doc['iterations'])} iteration" in text
    assert describe_bid(Policies.parse("heuristic", "heuristic", 2), rules) == "heuristic"
    assert describe_bid(Policies.parse("0=calibrated", "heuristic", 2), rules).startswith("seat 0 calibrated (")


@pytest.mark.slow  # table and balance runs in subprocesses (11 s)
def test_cli_table_and_balance_bid_calibrated_by_default_and_say_which_file(belote):
    d = belote.json("table", "--variant", "piekjas", "--players", "3", "--deals", "300", "--rounds", "1")
    assert d["inputs"]["policies"]["bid"] == "calibrated"
    assert d["inputs"]["bid_policy"]["file"] == "analyzer/players/policies_data/piekjas3.net.json"  # net plays
    d = belote.json("balance", "--variant", "dekjas", "--deals", "300", "--games", "0")
    assert d["inputs"]["policies"]["dekjas"]["bid"] == "calibrated"
    assert d["inputs"]["bid_policy"]["dekjas"]["git_commit"] == read_policy(shipped_path("dekjas", "net"))["git_commit"]
    p = belote("balance", "--variant", "dekjas", "--deals", "300", "--games", "0", "--quiet")
    assert p.returncode == 0 and "Bidders: dekjas calibrated (shipped dekjas policy" in " ".join(p.stdout.split())


@pytest.mark.slow  # table and balance runs in subprocesses (14 s)
def test_cli_with_a_changed_rule_falls_back_to_heuristic_and_says_why(belote):
    d = belote.json("table", "--deals", "300", "--rounds", "1", "--rule", "undertrump=free")
    assert d["inputs"]["policies"]["bid"] == "heuristic"
    assert "calibrated policy is for the default rules" in d["inputs"]["bid_note"]
    d = belote.json("balance", "--variant", "classic", "--deals", "300", "--games", "0", "--rule", "undertrump=free")
    assert d["inputs"]["policies"]["classic"]["bid"] == "heuristic" and "default rules" in d["inputs"]["bid_note"]["classic"]
    p = belote("take", "Jh 9h Ah Tc 7s", "--turned", "Qh", "--deals", "300", "--quiet", "--rule", "undertrump=free")
    assert p.returncode == 0, p.stderr
    assert "Bidders: heuristic (default --bid is heuristic here" in " ".join(p.stdout.split())
    # asked for explicitly, the calibrated policy is still refused under other rules (one line, exit 2)
    p = belote("table", "--deals", "300", "--rule", "undertrump=free", "--bid", "calibrated", "--quiet")
    assert p.returncode == 2 and p.stderr.count("\n") == 1 and "shipped calibrated policy" in p.stderr


# --- take: the earlier seats' passes under either policy --------------------------------------

PIEKJAS4 = Rules.from_label("piekjas4")  # seat 0's round-1 threshold: heuristic 46, calibrated 80
HAND, TURNED = "Ac Kd 8s 7d 9c", "7h"  # no trump: seat 0 may hold a hand that takes


def _acceptance(bid, seat=1, deals=3000, play="heuristic"):
    r = analyse_take(PIEKJAS4, HAND, TURNED, seat=seat, deals=deals, seed=5,
                     policies=Policies.parse(bid, play, 4))
    return r.acceptance


def test_take_conditions_the_earlier_passes_on_the_bidding_policy_given():
    heur, cal = _acceptance("heuristic"), _acceptance("calibrated")
    assert cal.k < cal.n  # seat 0 sometimes takes under either policy
    # seat 0 passes below its threshold: more often at 80 (calibrated) than at 46 (heuristic)
    assert cal.lo > heur.hi, (cal, heur)
    # only seat 0 bids before seat 1: the acceptance follows seat 0's policy and nothing else, exactly
    assert _acceptance("0=heuristic,1=calibrated,2=calibrated,3=calibrated").k == heur.k
    assert _acceptance("0=heuristic,1=calibrated,2=calibrated,3=calibrated").n == heur.n
    assert (_acceptance("0=calibrated").k, _acceptance("0=calibrated").n) == (cal.k, cal.n)


def test_take_with_an_earlier_seat_that_never_takes_accepts_every_deal(tmp_path):
    doc = read_policy(shipped_path("piekjas4"))
    # seat 0 never takes the turned suit in round 1: a threshold at the top of the strength range,
    # above every hand (the row and the thresholds shown, which a policy file keeps equal)
    doc["params"]["0"]["threshold_r1"] = doc["thresholds"]["round1"]["0"] = MAX_STRENGTH
    path = tmp_path / "never.json"
    path.write_text(json.dumps(doc))
    acc = _acceptance(str(path), deals=500)
    assert acc.k == acc.n == 500


@pytest.mark.slow  # take runs in subprocesses (6 s)
def test_cli_take_bids_calibrated_by_default_and_names_the_conditioning_policy(belote):
    args = ("take", HAND, "--turned", TURNED, "--variant", "piekjas", "--players", "4", "--seat", "1",
            "--deals", "2000", "--seed", "5")
    d = belote.json(*args)
    assert d["inputs"]["policies"]["bid"] == "calibrated" and "bid_note" not in d["inputs"]
    assert d["inputs"]["bid_policy"]["file"] == "analyzer/players/policies_data/piekjas4.net.json"  # net plays
    assert d["acceptance"]["k"] == _acceptance("calibrated", deals=2000, play="net").k
    h = belote.json(*args, "--bid", "heuristic")
    assert h["inputs"]["policies"]["bid"] == "heuristic"
    assert h["acceptance"]["k"] == _acceptance("heuristic", deals=2000).k
    out = " ".join(belote(*args, "--quiet").stdout.split())
    assert "rejection sampling under the bidding policy, bid=calibrated" in out
    assert "Bidders: calibrated (shipped piekjas4 policy" in out


# --- what calibration changes ------------------------------------------------------------------


@pytest.fixture(scope="module")
def effect():
    return compare_bidding(["classic", "dekjas", "piekjas4"], deals=4000, games=100, seed=3, duel_deals=400)


def test_thresholds_are_read_from_the_heuristic_and_the_policy_files(effect):
    tt = effect.threshold_table()
    for lab in ("classic", "dekjas", "piekjas4"):
        doc = read_policy(shipped_path(lab))
        for rnd in (1, 2):
            for seat, want in doc["thresholds"][f"round{rnd}"].items():
                row = tt[(tt["variant"] == lab) & (tt["round"] == rnd) & (tt["seat"] == int(seat))].iloc[0]
                assert row["calibrated"] == want
                assert row["heuristic"] == doc["heuristic_thresholds"][f"round{rnd}"][seat]
                assert row["moved"] == (want != row["heuristic"])


def test_identical_bidders_are_played_once_and_differ_by_exactly_zero(tmp_path, monkeypatch):
    """A shipped classic policy equal to the heuristic (its thresholds, no class override):
    both readings are one run, every difference exactly 0, no duplicate match."""
    import analyzer.players.policy_files as PF

    doc = read_policy(shipped_path("classic"))
    doc["params"] = {s: {k: float(v) for k, v in zip(BID_PARAM_NAMES, default_bid_params("classic", 4))}
                     for s in doc["params"]}
    doc["overrides"]["by_seat"] = {s: [] for s in doc["overrides"]["by_seat"]}
    doc["thresholds"] = {f"round{r}": {s: row[f"threshold_r{r}"] for s, row in doc["params"].items()} for r in (1, 2)}
    (tmp_path / "classic.json").write_text(json.dumps(doc))
    monkeypatch.setattr(PF, "POLICIES_DIR", tmp_path)
    e = compare_bidding(["classic"], deals=2000, games=20, seed=3, duel_deals=200)
    assert e.same("classic") and e.overrides("classic") == (0, 0)
    df = e.table()
    assert len(df) > 10 and (df["diff"] == 0).all() and not df["beyond_noise"].any()
    assert "classic" not in e.duel
    assert "**classic**: the calibrated policy is the heuristic's" in bidding_effect_markdown(e, "x.png")


def test_a_calibrated_policy_with_class_overrides_is_not_the_heuristic(effect):
    assert not effect.same("classic") and not effect.same("dekjas")
    assert sum(effect.overrides("classic")) > 0  # classic's thresholds stayed; its overrides differ
    assert {"classic", "dekjas", "piekjas4"} <= set(effect.duel)


def test_each_reading_is_the_run_of_its_bidders_on_the_same_deals(effect):
    # the heuristic and calibrated readings are exactly what simulate gives with those bidders and seed
    df = effect.table().set_index(["variant", "statistic"])
    for bid, col in (("heuristic", "a"), ("calibrated", "b")):
        res = simulate(SimConfig(rules=Rules.from_label("dekjas"), policies=Policies.parse(bid, "heuristic", 2),
                                 deals=4000, seed=3))
        s = summarize(res)
        assert df.loc[("dekjas", "take_round1"), col] == pytest.approx(100 * s["take_round1"].p, abs=1e-9)
        assert df.loc[("dekjas", "dedans"), col] == pytest.approx(100 * s["dedans"].p, abs=1e-9)


def test_higher_thresholds_at_every_seat_take_the_turned_suit_less_on_the_same_deals(effect):
    # dekjas raises both seats' round-1 thresholds, so a deal taken in round 1 by the calibrated
    # bidders is taken by the heuristic ones too: fewer round-1 takes, beyond the noise
    tt = effect.threshold_table()
    r1 = tt[(tt["variant"] == "dekjas") & (tt["round"] == 1)]
    assert (r1["calibrated"] >= r1["heuristic"]).all()
    row = effect.table().set_index(["variant", "statistic"]).loc[("dekjas", "take_round1")]
    assert row["diff"] < 0 and row["hi"] < 0 and row["lo"] <= row["diff"] <= row["hi"]


def test_markdown_shows_thresholds_differences_and_the_duplicate_match(effect):
    md = bidding_effect_markdown(effect, "calibration_effect.png", number="4. ")
    assert md.startswith("## 4. What calibration changes")
    assert "| dekjas | 1 | **58 → 82** |" in md  # the file's thresholds, bold where they moved
    assert "Class overrides of the calibrated bidders" in md and "classic " in md
    assert "| taken in round 1 |" in md and "| seat 0 advantage |" in md and "P(win)" in md
    assert "### Calibrated against heuristic bidders at the same table" in md
    m, deals, _ = effect.duel["dekjas"]
    assert f"| dekjas | {deals:,} | {m.mean:+.2f} [{m.lo:+.2f}, {m.hi:+.2f}] |" in md


def test_compare_bidding_refuses_too_few_deals():
    with pytest.raises(BeloteError, match="--deals"):
        compare_bidding(["dekjas"], deals=5, games=0)


def test_compare_bidding_is_identical_across_thread_counts():
    a = compare_bidding(["piekjas2"], deals=2000, games=20, seed=4, threads=1).table()
    b = compare_bidding(["piekjas2"], deals=2000, games=20, seed=4, threads=2).table()
    assert np.array_equal(a[["a", "b", "diff", "lo", "hi"]].to_numpy(), b[["a", "b", "diff", "lo", "hi"]].to_numpy(),
                          equal_nan=True)
