"""What the report says is what the numbers are (issue 18): intervals printed as they are,
a progress bar that only moves forward, break-even lines by seat where the seats differ,
and rule options that changed nothing said to have changed nothing, with the reason."""

from types import SimpleNamespace

import numpy as np
import pandas as pd
import pytest

from analyzer.output import plots as P
from analyzer.questions.table import TableResult

from analyzer.runs.fmt import pm_mean, pm_or_ci, pm_rate
from analyzer.runs.stats import mean_of, rate


@pytest.mark.parametrize("k, n, printed", [
    (30, 30, "100.0% [88.6, 100.0]"),  # one-sided: was "100.0% ± 11.4"
    (0, 30, "0.0% [0.0, 11.4]"),  # was "0.0% ± 11.4"
    (50, 1000, "5.0% [3.8, 6.5]"),  # the Wilson interval is lopsided at 5%: was "5.0% ± 1.5"
    (500, 1000, "50.0% ± 3.1"),  # symmetric: ± stays
    (912_000, 1_000_000, "91.2% ± 0.1"),  # both sides round to 0.1
    (17, 20_000, "0.08% [0.05, 0.14]"),  # at 1 decimal the ends collapse: was "0.1% [0.1, 0.1]"
])
def test_plus_minus_only_for_an_interval_symmetric_as_printed(k, n, printed):
    assert pm_rate(rate(k, n)) == printed


def test_one_rule_for_means_and_rates():
    assert pm_mean(mean_of(np.arange(100.0))) == "+49.5 ± 5.7"  # a normal interval is symmetric
    assert pm_or_ci(10.0, 9.0, 12.0, 1, "+") == "+10.0 [+9.0, +12.0]"
    assert pm_or_ci(10.0, 9.0, 11.0, 1, "+") == "+10.0 ± 1.0"


# ---- break-even by seat --------------------------------------------------------------------


def _bins(seat, gains, rnd=2, n=500):
    lows = np.arange(len(gains)) * 8.0 + 24
    return pd.DataFrame({"round": rnd, "seat": seat, "strength_lo": lows, "strength_hi": lows + 8, "n": n,
                         "gain_net": gains, "gain_net_lo": np.array(gains) - 3.0,
                         "gain_net_hi": np.array(gains) + 3.0})


def _table(seat0, seat1, pooled):
    """A bidding table reduced to what ``break_even`` reads: the strength bins by seat and pooled."""
    by_seat = pd.concat([_bins(0, seat0), _bins(1, seat1)], ignore_index=True)
    return SimpleNamespace(strength=lambda pooled_seats=False: _bins("all", pooled) if pooled_seats else by_seat,
                           policy_threshold=lambda rnd, seat: 40.0, config=SimpleNamespace(rules=SimpleNamespace(players=2)))


# dekjas round 2 as the issue found it: seat 0 (most decisions) breaks even at 32, seat 1 at 80, the pool at 80
APART = ([-5, 4, 6, 9, 12, 15, 18, 20], [-9, -8, -7, -6, -5, -4, -2, 3], [-9, -2, -1, -1, -1, -1, -1, 3])


def test_pooled_break_even_is_left_empty_where_the_seats_break_even_apart():
    be = TableResult.break_even(_table(*APART))
    seats = be.set_index("seat")
    assert seats.loc["0", "break_even"] == 32 and seats.loc["1", "break_even"] == 80
    assert seats.loc["all", "seats_differ"] and np.isnan(seats.loc["all", "break_even"])
    assert np.isnan(seats.loc["all", "sure_from"])
    same = TableResult.break_even(_table(APART[0], APART[0], APART[0])).set_index("seat")
    assert not same.loc["all", "seats_differ"] and same.loc["all", "break_even"] == 32


def test_break_even_plot_draws_each_seat_where_they_differ_and_no_pooled_line():
    t = _table(*APART)
    be = TableResult.break_even(t)
    fig = P.break_even_plot(t.strength(pooled_seats=True), be, "dekjas", by_seat=t.strength())
    labels = [x.get_text() for x in fig.legends[0].get_texts()]
    assert "break-even (seat 0)" in labels and "break-even (seat 1)" in labels
    assert not any("all seats" in x for x in labels) and "net gain of taking" not in labels  # no pooled curve
    drawn = {tuple(line.get_xdata()) for line in fig.axes[0].lines}
    assert (32.0, 32.0) in drawn and (80.0, 80.0) in drawn
    t = _table(APART[0], APART[0], APART[0])
    fig = P.break_even_plot(t.strength(pooled_seats=True), TableResult.break_even(t), "x", by_seat=t.strength())
    assert "break-even (all seats)" in [x.get_text() for x in fig.legends[0].get_texts()]  # seats agree: pooled



# ---- the report's progress ----------------------------------------------------------------


@pytest.mark.slow  # a whole report
def test_report_progress_never_goes_back_and_ends_at_its_plan(tmp_path):
    from analyzer.output import report as R

    seen = []
    examples, variants = R.EXAMPLES[:1], ("piekjas2",)
    R.make_report(tmp_path / "r", deals=2000, seed=1, examples=examples, variants=variants,
                  progress=lambda done, total: seen.append((done, total)))
    fracs = [d / t for d, t in seen]
    assert all(b >= a for a, b in zip(fracs, fracs[1:]))  # the old plan-corrected total went back 4 times here
    assert len({t for _, t in seen}) == 1  # one total: the plan, never re-scaled
    plan = R.planned_seconds(R.Sizes.from_deals(2000), examples, variants)
    assert seen[-1][0] == seen[-1][1] == int(1000 * sum(sec for _, sec in plan))
    assert [kind for kind, _ in plan] == ["take", "table", "balance", "calibration", "rules", "bracket", "score"]


def test_a_part_whose_count_restarts_does_not_move_the_bar_back():
    from analyzer.output.report import CostProgress

    seen = []
    p = CostProgress([("take", 1.0), ("bracket", 3.0)], lambda done, total: seen.append(done / total))
    p.tick(0.5)
    p.next()
    p.tick(0.6)
    p.tick(0.1)  # one run per searching policy: the second one counts from 0 again
    p.next()
    assert seen == sorted(seen) and seen[0] == 0.125 and seen[-1] == 1.0
    assert seen[2] == 0.25 + 0.75 * 0.6  # the bracket's slice is its share of the plan: 3 of 4 seconds


@pytest.mark.parametrize("play, lo, hi", [("net", 0.08, 0.25), ("heuristic", 0.65, 0.9)])
def test_the_bracket_weighs_what_it_costs_in_a_default_report(play, lo, hi):
    """Priced by hands, the bracket was 2% of a default report's bar and its last 3 minutes. Measured on the
    default reports of 2026-12-06 (run.json's CPU seconds, docs/BENCHMARKS.md): under net the bracket took 101
    of 631 CPU s (0.16: its heuristic columns are cheap), under the heuristic 252 of 314 (0.80: its net
    columns play every deal of the examples and the classic table)."""
    from analyzer.output import report as R
    from analyzer.rules import ALL_LABELS

    deals = R.DEALS_BY_PLAY[play]
    plan = R.planned_seconds(R.Sizes.from_deals(deals, deals), R.EXAMPLES, ALL_LABELS, play)
    share = sum(sec for kind, sec in plan if kind == "bracket") / sum(sec for _, sec in plan)
    assert lo < share < hi, share


# ---- rule options that changed nothing, and why ----------------------------------------------


def _comparison(label, option):
    from analyzer.questions import impact as I

    return next(c for c in I.plan([label], [option]) if c.kind == "option")


def test_round2_suits_changes_every_round2_bid_and_the_heuristic_bidders_never_use_it():
    from analyzer.questions.impact import choice_counts

    c = _comparison("dekjas", "round2_suits")
    heur = choice_counts(c, "heuristic", 150, 1)
    assert heur["replayed"] == "any, other" and heur["decisions"] == heur["changed"] > 0
    assert heur["used"] == 0  # they never name the turned suit in round 2: why every statistic is identical
    cal = choice_counts(c, "calibrated", 150, 1)
    assert cal["replayed"] == "any"  # calibrated for the defaults: the other reading is refused, not replayed
    assert cal["used"] > 0  # the report's calibrated bidders do name it


def test_undertrump_never_changes_a_two_player_legal_choice_and_does_in_classic():
    from analyzer.questions.impact import choice_counts

    two = choice_counts(_comparison("piekjas2", "undertrump"), "heuristic", 100, 1)
    assert two["decisions"] > 0 and two["changed"] == two["used"] == 0
    four = choice_counts(_comparison("classic", "undertrump"), "heuristic", 100, 1)
    assert 0 < four["used"] <= four["changed"] < four["decisions"]


@pytest.mark.slow  # a whole report
def test_report_section_says_why_an_option_with_every_statistic_identical_changed_nothing(tmp_path):
    from analyzer.output.files import impact_report_section

    md, _ = impact_report_section(tmp_path, 4000, 2, labels=["piekjas2"], number="5. ")
    assert "(identical)" in md
    lines = {line.split("`")[1]: line for line in md.splitlines() if line.startswith("- piekjas2, `")}
    r2 = lines["round2_suits: any → other"]
    assert "no effect under these players (heuristic bidders), because it changed the legal choices at" in r2
    assert "never chose what the other reading forbids" in r2 and "calibrated bidders" in r2
    assert "never changed the legal choices" in lines["undertrump: forced → free"]
    assert (tmp_path / "rules_choices.csv").is_file()
