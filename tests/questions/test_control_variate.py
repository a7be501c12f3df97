"""The control variate: a short run's numbers adjusted by a long run on the same deals.

``analyzer.runs.stats.control_variate`` is checked against its variance formula on synthetic
data, and the whole path (per-sample rows, the pairing, the adjusted interval) by coverage: a
short run of one play policy, adjusted by a long run of another, must cover the short policy's
true value (known from a large run) about 95% of the time.
"""

import numpy as np
import pytest

from analyzer.output.markdown import table_bracket_markdown
from analyzer.errors import BeloteError
from analyzer.players.policies import Policies
from analyzer.questions.bracket import analyse_bracket
from analyzer.questions.take import F_MSUM, Call, _per_deal, adjust_by_control, analyse_take
from analyzer.rules.calls import PASS, TAKE
from analyzer.rules import Rules
from analyzer.rules.cards import parse_card
from analyzer.runs.stats import Z95, control_variate, control_variate_rate, mean_of

HAND, TURNED = "Jh 9h Ah Tc 7s", "Qh"


def _pairs(rng, n, rho, mu=3.0):
    x = rng.normal(0, 10, n)
    y = mu + rho * x + np.sqrt(1 - rho * rho) * rng.normal(0, 10, n)
    return x, y


def test_the_adjusted_interval_covers_the_true_mean_95_percent_of_the_time_and_is_narrower():
    rng = np.random.default_rng(7)
    m, n_all, reps, rho = 60, 3000, 4000, 0.9
    cover = 0
    ratio = []
    for _ in range(reps):
        x, y = _pairs(rng, n_all, rho)
        ys, xs = y[:m], x[:m]  # the short run: the long run's first deals
        adj = control_variate(ys, xs, float(x.mean()), n_all)
        cover += adj.lo <= 3.0 <= adj.hi
        ratio.append(adj.se / mean_of(ys).se)
    assert 0.935 <= cover / reps <= 0.965
    # sqrt(1 - rho^2) = 0.44 with a long control; the formula's f terms add a little
    assert 0.40 <= float(np.median(ratio)) <= 0.50


def test_a_control_with_nothing_to_add_leaves_the_plain_mean():
    rng = np.random.default_rng(1)
    x, y = _pairs(rng, 500, 0.8)
    plain = mean_of(y[:100])
    same_n = control_variate(y[:100], x[:100], float(x[:100].mean()), 100)  # no further control deals
    flat = control_variate(y[:100], np.zeros(100), 0.0, 500)  # a constant control
    assert (same_n.mean, same_n.se) == (plain.mean, plain.se)
    assert (flat.mean, flat.se) == (plain.mean, plain.se)
    r = control_variate_rate(np.ones(50), np.zeros(50), 0.0, 500)  # a rate of 50/50: Wilson's interval
    assert r.p == 1.0 and r.lo < 1.0 and r.hi == 1.0
    with pytest.raises(ValueError, match="control values"):
        control_variate(y[:10], x[:9], 0.0, 500)


def test_a_short_run_adjusted_by_a_long_one_covers_the_truth_about_95_percent_of_the_time():
    """Short runs of ``heuristic:v=1`` (the card play before the taker fixes) adjusted by
    ``heuristic``: 300 disjoint blocks of 100 paired deals, each with 900 more control deals of
    its own, against the truth from 300,000 deals."""
    rules = Rules()
    reps, m, n_all = 300, 100, 1000
    short_p = Policies.parse("heuristic", "heuristic:v=1", rules.players)
    long_p = Policies.parse("heuristic", "heuristic", rules.players)
    kw = dict(calls=["take"], seed=11, threads=1)
    truth = analyse_take(rules, HAND, TURNED, deals=300_000, policies=short_p, **kw).calls[0].net_vs_pass
    y_run = analyse_take(rules, HAND, TURNED, policies=short_p, units=reps * m, keep_units=True, **kw)
    x_run = analyse_take(rules, HAND, TURNED, policies=long_p, units=reps * m, keep_units=True, **kw)
    ipass = [c.call for c in y_run.calls].index(Call(PASS, -1))
    yv, xv = (_per_deal(r.unit_rows, 2) for r in (y_run, x_run))
    y, x = yv[:, 0, F_MSUM] - yv[:, ipass, F_MSUM], xv[:, 0, F_MSUM] - xv[:, ipass, F_MSUM]
    assert y.size == reps * m  # voorhand: every sample is a deal
    cover, narrower = 0, 0
    for r in range(reps):
        rest = analyse_take(rules, HAND, TURNED, policies=long_p, start=reps * m + r * (n_all - m),
                            units=n_all - m, **kw).calls[0].net_vs_pass
        ys, xs = y[r * m:(r + 1) * m], x[r * m:(r + 1) * m]
        x_all = (xs.sum() + rest.mean * rest.n) / n_all
        adj = control_variate(ys, xs, x_all, n_all)
        cover += adj.lo <= truth.mean <= adj.hi
        narrower += adj.se < mean_of(ys).se
    assert truth.se * Z95 < 0.5
    assert 0.92 <= cover / reps <= 0.98, f"coverage {cover / reps:.3f}"
    assert narrower >= 0.9 * reps


def test_the_bracket_adjusts_the_short_run_by_the_long_one_and_keeps_its_plain_numbers():
    rules = Rules()
    b = analyse_bracket(rules, HAND, TURNED, plays=("heuristic", "pimc:worlds=4"), deals=20_000, strong_deals=150,
                        seed=3, calls=["take"], threads=1)
    h, p = b.results
    assert h.control is None and p.control is not None
    plain = p.control.plain
    assert p.n == plain.n == 150 and p.control.long is h
    i = [c.call for c in p.calls].index(Call(TAKE, parse_card(TURNED) >> 3))
    adj, alone = p.calls[i].net_vs_pass, plain.calls[i].net_vs_pass
    assert adj.se < alone.se and adj.mean != alone.mean
    assert [name for name, _ in b.columns()] == ["heuristic", "pimc:worlds=4, adjusted by heuristic",
                                                 "pimc:worlds=4, plain"]
    d = p.as_dict()["control_variate"]
    assert d["control"] == "heuristic" and d["control_n"] == 20_000 and d["deals"] == 150
    assert p.diff(Call(TAKE, parse_card(TURNED) >> 3), Call(PASS, -1)).se == pytest.approx(adj.se)
    # a control run on other deals is refused, not silently paired
    other = analyse_take(rules, HAND, TURNED, policies=Policies.parse("heuristic", "heuristic", 4), units=300,
                         keep_units=True, seed=3, calls=["take"], threads=1).unit_rows
    with pytest.raises(BeloteError, match="control's deals"):
        adjust_by_control(plain, h, other, "heuristic")


def test_the_table_bracket_adjusts_a_searching_policy_s_classes_by_the_heuristic_s():
    from analyzer.questions.table_bracket import table_bracket

    b = table_bracket(Rules("piekjas", 2), plays=("heuristic", "pimc:worlds=4"), deals=20_000, strong_deals=400,
                      seed=5, rounds=1, threads=1)
    f = b.frame(min_n=30)
    p = f[f["play"] == "pimc:worlds=4"]
    assert b.adjusted(1) and not b.adjusted(0) and p["adjusted"].all() and not f[f["play"] == "heuristic"]["adjusted"].any()
    width, plain_width = p["gain_net_hi"] - p["gain_net_lo"], p["gain_net_plain_hi"] - p["gain_net_plain_lo"]
    assert (width < plain_width).mean() >= 0.8  # narrower in (nearly) every class
    want = np.where(p["gain_net_lo"] > 0, "take", np.where(p["gain_net_hi"] < 0, "pass", "unclear"))
    assert list(p["verdict"]) == list(want)  # the verdict reads the adjusted interval
    # one class by hand: the same decisions under both policies, the heuristic's whole-table value
    r = p.sort_values("n").iloc[-1]
    def cls(d):
        return d[(d["deal"] < 400) & (d["round"] == r["round"]) & (d["honours"] == r["honours"])]

    y = cls(b.decisions[1]).set_index(["deal", "cls"])["dnet"]
    x = cls(b.decisions[0]).set_index(["deal", "cls"])["dnet"].loc[y.index]
    ref = b.tables[0].view(["round", "honours"])
    ref = ref[(ref["round"] == r["round"]) & (ref["honours"] == r["honours"])].iloc[0]
    e = control_variate(y.to_numpy(float), x.to_numpy(float), float(ref["gain_net"]), int(ref["n"]))
    assert (r["gain_net"], r["gain_net_lo"]) == pytest.approx((e.mean, e.lo))
    md = table_bracket_markdown(b, min_n=30)
    assert "plain" in md and "control variate" in md
