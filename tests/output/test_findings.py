"""The report's first page (``analyzer.output.findings``): every sentence is written from the
numbers it quotes (change a number, the sentence changes), and a number whose interval does not
support a claim is listed as open, not as a finding."""

import numpy as np
import pandas as pd

from analyzer.output import findings as F


def _take(gain, lo, hi, call="take h"):
    rows = []
    for c, g in (("pass", (0.0, 0.0, 0.0)), (call, (gain, lo, hi)), ("take s", (gain - 30, lo - 30, hi - 30))):
        rows.append({"example": 1, "variant": "classic", "situation": "classic, seat 0 (voorhand), round 1, hand X",
                     "call": c, "n": 4000, "net_vs_pass": g[0], "net_vs_pass_lo": g[1], "net_vs_pass_hi": g[2],
                     "p_made": 0.9, "p_made_lo": 0.88, "p_made_hi": 0.92, "p_dedans": 0.1, "p_dedans_lo": 0.08,
                     "p_dedans_hi": 0.12})
    return pd.DataFrame(rows)


def test_a_take_finding_quotes_the_best_calls_gain_and_changes_with_it():
    (f,) = F.take_findings(_take(14.8, 11.5, 18.1), "#1")
    assert f.supported and f.text.startswith("**Take** (take h)")
    assert "+14.8 [+11.5, +18.1] net points" in f.text and "90.0% [88.0, 92.0]" in f.text and "n=4,000" in f.text
    (g,) = F.take_findings(_take(9.2, 6.0, 12.4), "#1")
    assert "+9.2 [+6.0, +12.4]" in g.text and g.text != f.text


def test_a_gain_inside_the_noise_is_not_a_finding_and_a_sure_loss_says_pass():
    (same,) = F.take_findings(_take(0.0, 0.0, 0.0), "#1")
    assert same.supported and same.text.startswith("**Either**") and "the same hands on every deal" in same.text
    (f,) = F.take_findings(_take(2.0, -1.0, 5.0), "#1")
    assert not f.supported and "inside the noise" in f.text
    (g,) = F.take_findings(_take(-6.0, -9.0, -3.0), "#1")
    assert g.supported and g.text.startswith("**Pass**") and "-6.0 [-9.0, -3.0]" in g.text


def _break_even(be0, sure0, be1=np.nan):
    return pd.DataFrame([
        {"round": 1, "seat": "0", "n": 900, "n_bins": 800, "break_even": be0, "sure_from": sure0, "policy_threshold": 44.0},
        {"round": 1, "seat": "1", "n": 900, "n_bins": 0 if np.isnan(be1) else 800, "break_even": be1,
         "sure_from": np.nan, "policy_threshold": 46.0},
        {"round": 1, "seat": "all", "n": 1800, "n_bins": 800, "break_even": np.nan, "sure_from": np.nan,
         "policy_threshold": np.nan},
        {"round": 2, "seat": "0", "n": 50, "n_bins": 0, "break_even": np.nan, "sure_from": np.nan, "policy_threshold": 48.0},
    ])


def _strength(p_dedans):
    return pd.DataFrame([{"round": 1, "seat": 0, "strength_lo": 40.0, "strength_hi": 44.0, "n": 321,
                          "p_dedans": p_dedans, "p_dedans_lo": p_dedans - 0.05, "p_dedans_hi": p_dedans + 0.05}])


def test_break_even_findings_name_each_seat_and_the_dedans_risk_there():
    found = F.when_findings("classic", _break_even(40.0, 48.0, 44.0), _strength(0.30), "#2")
    r1, r2 = found
    assert r1.supported and "40 at seat 0 (beyond the noise from 48; the bidders take from 44)" in r1.text
    assert "44 at seat 1 (never beyond the noise in these samples" in r1.text
    assert "goes dedans 30.0% [25.0, 35.0] of the times it is taken (n=321)" in r1.text
    assert not r2.supported and "round 2" in r2.text and "too few decisions" in r2.text
    moved = F.when_findings("classic", _break_even(40.0, 52.0, 44.0), _strength(0.20), "#2")[0]
    assert "from 52" in moved.text and "20.0% [15.0, 25.0]" in moved.text


def _seats(adv0, lo0, hi0, label="classic", p_win=0.5, p_lo=0.49, p_hi=0.51):
    return [{"variant": label, "seat": s, "seat_name": ("voorhand", "dealer")[s], "hands": 10000,
             "advantage": a, "advantage_lo": lo, "advantage_hi": hi, "p_win": w, "p_win_lo": wl, "p_win_hi": wh,
             "p_win_fair": 0.5, "games": 2000}
            for s, (a, lo, hi, w, wl, wh) in enumerate(((adv0, lo0, hi0, p_win, p_lo, p_hi),
                                                        (-adv0, -hi0, -lo0, 1 - p_win, 1 - p_hi, 1 - p_lo)))]


def test_seat_advantage_and_the_most_balanced_variant_come_from_their_intervals():
    seats = pd.DataFrame(_seats(3.0, 1.0, 5.0, "classic", 0.56, 0.54, 0.58)
                         + _seats(0.5, -1.0, 2.0, "piekjas2", 0.505, 0.49, 0.52))
    found = F.balance_findings(seats, "#3")
    classic, piekjas, ranking = found
    assert classic.supported and "averages +3.0 [+1.0, +5.0] points a hand against the others" in classic.text
    assert not piekjas.supported and "inside the noise" in piekjas.text
    assert ranking.supported and "least balanced variant is classic (seat 0's side wins 56.0% [54.0, 58.0]" in ranking.text
    assert "the most balanced piekjas2" in ranking.text
    seats = pd.DataFrame(_seats(3.0, 1.0, 5.0, "classic", 0.53, 0.50, 0.56)
                         + _seats(0.5, -1.0, 2.0, "piekjas2", 0.51, 0.49, 0.53))
    overlap = F.balance_findings(seats, "#3")[-1]
    assert not overlap.supported and "not established" in overlap.text


def _diffs(beyond, n=20):
    rows = []
    for i in range(n):
        rows.append({"variant": "piekjas2", "comparison": "undertrump: forced → free", "kind": "option",
                     "label": f"statistic {i}", "unit": "pp", "diff": 2.0 + i, "lo": 1.0 if i < beyond else -1.0,
                     "hi": 3.0 + i, "beyond_noise": i < beyond, "size": 0.1 * i})
    rows.append({"variant": "piekjas2", "comparison": "roem_tie: none → first", "kind": "option", "label": "x",
                 "unit": "pp", "diff": 0.1, "lo": -1.0, "hi": 1.2, "beyond_noise": False, "size": 0.0})
    option = [c.partition(":")[0] for c in (r["comparison"] for r in rows)]
    values = [c.partition(": ")[2].split(" → ") for c in (r["comparison"] for r in rows)]
    return pd.DataFrame(rows).assign(option=option, a_value=[v[0] for v in values], b_value=[v[1] for v in values])


def test_a_rule_option_is_a_finding_only_beyond_what_chance_gives():
    moved, quiet = F.rules_findings(_diffs(4), "#5")
    assert moved.supported and "4 of 20 statistics beyond the noise)" in moved.text
    assert "statistic 3 +5.00 [+1.00, +6.00] pp" in moved.text  # the largest standardised size first
    # the rule by its name and choices, its code key beside
    assert not quiet.supported and ("Equal best roem (nobody scores roem → the earlier seat scores), `roem_tie: none → "
                                    "first` change no measured statistic") in quiet.text
    assert moved.text.startswith("piekjas2, Cannot beat an opponent's trump (must still trump lower (undertrump) → "
                                 "may play any card), `undertrump: forced → free`:")
    chance = F.rules_findings(_diffs(1), "#5")[0]
    assert not chance.supported and "no more than chance alone would give" in chance.text


def test_the_page_lists_open_questions_apart_and_links_each_question():
    found = F.take_findings(_take(14.8, 11.5, 18.1), "#take") + F.take_findings(_take(2.0, -1.0, 5.0), "#take")
    page = "\n".join(F.markdown(found, {"take": "#take"}))
    assert page.index("**Take**") < page.index("Left open by these samples") < page.index("inside the noise")
    assert "([details](#take))" in page


def _bracket(pimc_best="take h", pimc_gain=(10.0, 4.0, 16.0), pimc_sure=True):
    rows = [{"example": 1, "situation": "classic, seat 0, hand X", "play": "heuristic", "n": 100000, "best": "take h",
             "beyond_noise": True, "call": "take h", "gain": 12.0, "gain_lo": 11.0, "gain_hi": 13.0, "adjusted": False},
            {"example": 1, "situation": "classic, seat 0, hand X", "play": "pimc", "n": 2000, "best": pimc_best,
             "beyond_noise": pimc_sure, "call": "take h", "gain": pimc_gain[0], "gain_lo": pimc_gain[1],
             "gain_hi": pimc_gain[2], "adjusted": True}]
    return pd.DataFrame(rows)


def test_a_bracket_finding_says_whether_the_verdict_holds_under_every_player():
    (f,) = F.bracket_findings(_bracket(), "#6")
    assert f.supported and "the verdict holds under every player" in f.text
    assert "pimc TAKE H (take h +10.0 [+4.0, +16.0] against passing, adjusted, n=2,000)" in f.text
    (g,) = F.bracket_findings(_bracket("pass", (-8.0, -14.0, -2.0)), "#6")
    assert g.supported and "the verdict moves with the players" in g.text and "pimc PASS" in g.text
    (h,) = F.bracket_findings(_bracket(pimc_gain=(3.0, -2.0, 8.0), pimc_sure=False), "#6")
    assert not h.supported and "inside the noise under pimc:" in h.text
    same = _bracket(pimc_gain=(0.0, 0.0, 0.0)).assign(gain=0.0, gain_lo=0.0, gain_hi=0.0)
    (e,) = F.bracket_findings(same, "#6")
    assert e.supported and "lead to the same hands under every player (heuristic, pimc)" in e.text


def test_a_table_bracket_finding_counts_and_names_the_flips():
    summary = pd.DataFrame([
        {"round": 1, "honours": "J9..", "paired_n": 900, "verdict_heuristic": "take", "gain_heuristic": 20.0,
         "verdict_pimc": "take", "gain_pimc": 25.0, "bracket": "holds"},
        {"round": 1, "honours": "J...", "paired_n": 400, "verdict_heuristic": "pass", "gain_heuristic": -1.6,
         "verdict_pimc": "take", "gain_pimc": 10.7, "bracket": "flips"}])
    (f,) = F.table_bracket_findings("classic", summary, ("heuristic", "pimc"), ("round", "honours"), 300, "#6")
    assert f.supported and "Of 2 classes with n ≥ 300" in f.text and "holds under heuristic, pimc in 1, flips in 1" in f.text
    assert "Flips: `J...`: heuristic pass (-2), pimc take (+11)" in f.text
    (g,) = F.table_bracket_findings("classic", summary.iloc[:0], ("heuristic", "pimc"), ("round", "honours"), 300, "#6")
    assert not g.supported and "No class has 300 or more decisions" in g.text


def test_every_variant_has_an_example_hand_so_the_first_page_answers_should_i_take_in_each():
    from analyzer.errors import BeloteError
    from analyzer.output import report as R
    from analyzer.rules import ALL_LABELS

    for label in ALL_LABELS:
        assert [ex.label for ex in R.examples_for((label,))] and {ex.label for ex in R.examples_for((label,))} == {label}
    try:
        R.examples_for(("bridge",))
    except BeloteError as e:
        assert "no example hand" in str(e)
    else:
        raise AssertionError("a variant list without an example hand must be refused")


def test_the_hands_that_pay_are_each_honours_set_from_its_fewest_side_aces():
    rows = []
    for hon, gains in (("J9..", (5, 9, 12)), ("J...", (-3, 2, 6)), (".9..", (-8, -2, -1))):
        for aces, g in enumerate(gains):
            rows.append({"round": 1, "honours": hon, "side_aces": aces, "n": 1000, "gain_net": float(g),
                         "gain_net_lo": g - 1.5, "gain_net_hi": g + 1.5})
    (f,) = F.class_findings("classic", pd.DataFrame(rows), "#2")
    assert f.supported and "`J9..` with 0+ side aces (from +5 [+4, +6], n=3,000)" in f.text
    assert "`J...` with 1+ side aces (from +2 [+0, +4], n=2,000)" in f.text and ".9.." not in f.text
    rows = [dict(r, gain_net_lo=-1.0) for r in rows]
    (g,) = F.class_findings("classic", pd.DataFrame(rows), "#2")
    assert not g.supported and "no class of trump honours and side aces with n ≥ 200 gains beyond the noise" in g.text
