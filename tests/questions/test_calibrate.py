"""Calibration (``analyzer.questions.calibrate``), policy files and ``--bid calibrated`` / ``--bid FILE``."""

import json

import numpy as np
import pandas as pd
import pytest

import cli
from analyzer.questions import calibrate as C
from analyzer.output.policy_file import write_policy
from analyzer.players.bidding import (BID_PARAM_NAMES, P_KOE_LENGTH, P_KOE_TURNED, P_SEAT_STEP, P_SMOUS_ANSWER,
                                      P_SMOUS_MARGIN, P_THR1, P_THR2,
                                      default_bid_params)
from analyzer.runs.classes import STR_BIN
from analyzer.errors import BeloteError
from analyzer.players.policies import Policies
from analyzer.players.policy_files import SHIPPED_PLAYS
from analyzer.rules import Rules
from analyzer.runs.simulate import SimConfig
from analyzer.questions.table import RAW_FIELDS, TableResult


def run(args, capsys):
    code = cli.main(args)
    out, err = capsys.readouterr()
    return code, out, err


# --- the threshold read from a strength table ---------------------------------------------


def test_isotonic_fit_pools_adjacent_violators():
    fit = C.isotonic(np.array([-5.0, 1.0, -1.0, 4.0]), np.ones(4))
    assert fit.tolist() == [-5.0, 0.0, 0.0, 4.0]
    assert np.all(np.diff(C.isotonic(np.array([3.0, 2.0, 1.0]), np.array([1.0, 1.0, 2.0]))) >= 0)


def _raw_strength(rows):
    """A raw strength frame from (round, seat, bin, n, mean net gain, sd, share the policy took)."""
    out = []
    for rnd, seat, b, n, mean, sd, took in rows:
        r = {k: 0 for k in RAW_FIELDS}
        r.update(round=rnd, seat=seat, strength_lo=b * STR_BIN, strength_hi=(b + 1) * STR_BIN, n=n,
                 nat_take=int(round(took * n)), dnet=int(round(mean * n)),
                 dnet_sq=int(round(n * (sd * sd * (n - 1) / n + mean * mean))))
        out.append(r)
    return pd.DataFrame(out)


def _table(rows):
    return TableResult(config=None, raw=None, raw_strength=_raw_strength(rows), deals=0, hands=0, decisions=(0, 0),
                       seconds=0.0, rounds=1)


def test_crossing_interpolates_between_bin_centres():
    # gains -10 at bin 10 (centre 42) and +10 at bin 11 (centre 46): crossing at 44
    t = _table([(1, 0, 10, 1000, -10.0, 30.0, 0.0), (1, 0, 11, 1000, 10.0, 30.0, 1.0)])
    assert C.crossing(t.strength()) == pytest.approx(44.0)


def test_threshold_moves_down_when_the_hands_in_between_gain_beyond_the_noise():
    # the policy takes from 52; the gain crosses 0 between bins 9 and 10 (centres 38, 42),
    # and the hands of bins 10..12 (40-52), which the policy passes, gain clearly
    rows = [(1, 0, b, 2000, 5.0 * (b - 10) + 2.5, 30.0, float(b >= 13)) for b in range(8, 16)]
    params = C.with_thresholds(np.tile(default_bid_params("piekjas", 2), (1, 1)), {(1, 0): 52.0, (2, 0): 52.0})
    moves = {(m.round, m.seat): m for m in C.propose(_table(rows), params)}
    m = moves[(1, 0)]
    assert m.candidate == pytest.approx(40.0)
    assert m.moved and m.after == m.candidate and m.lo > 0


def test_objective_score_calibrates_on_the_own_score_gain_not_the_net():
    # the net gain crosses 0 at 40 as above; the own score gains +20 in every bin (a dedans
    # costs the taker little of its own score), so on score the threshold goes to the lowest bin
    rows = [(1, 0, b, 2000, 5.0 * (b - 10) + 2.5, 30.0, float(b >= 13)) for b in range(8, 16)]
    table = _table(rows)
    raw = table.raw_strength
    raw["d"] = 20 * raw["n"]
    raw["d_sq"] = raw["n"] * (30 * 30 + 20 * 20)
    params = C.with_thresholds(np.tile(default_bid_params("piekjas", 2), (1, 1)), {(1, 0): 52.0, (2, 0): 52.0})
    net = {(m.round, m.seat): m for m in C.propose(table, params)}[(1, 0)]
    score = {(m.round, m.seat): m for m in C.propose(table, params, objective="score")}[(1, 0)]
    assert net.after == pytest.approx(40.0)
    assert score.after == pytest.approx(8 * STR_BIN) and score.gain == pytest.approx(20.0) and score.lo > 0
    with pytest.raises(BeloteError, match="unknown objective"):
        C.propose(table, params, objective="wins")


def test_calibrate_objective_is_written_in_the_policy_file_and_refused_for_shipping(tmp_path, capsys):
    path = tmp_path / "score.json"
    code, out, _ = run(["calibrate", "--variant", "piekjas", "--players", "2", "--deals", "1500", "--iterations", "1",
                        "--objective", "score", "--quiet", "--out", str(path)], capsys)
    assert code == 0 and "objective score" in out
    doc = C.read_policy(path)
    assert doc["objective"].startswith("score:") and " --objective score" in doc["command"]
    code, _, err = run(["calibrate", "--variant", "all", "--ship", "--objective", "score", "--quiet"], capsys)
    assert code == 2 and err.count("\n") == 1 and "--objective" in err


def test_threshold_stays_when_the_interval_includes_zero():
    # same shape, but so few and noisy hands that the gain in between is not resolved
    rows = [(1, 0, b, 200, 0.5 * (b - 10) + 0.25, 200.0, float(b >= 13)) for b in range(8, 16)]
    params = C.with_thresholds(np.tile(default_bid_params("piekjas", 2), (1, 1)), {(1, 0): 52.0, (2, 0): 52.0})
    m = {(m.round, m.seat): m for m in C.propose(_table(rows), params)}[(1, 0)]
    assert m.candidate != m.before
    assert not m.moved and m.after == 52.0 and m.lo < 0 < m.hi


def test_a_move_that_crosses_no_bin_centre_is_not_made():
    # the gain crosses 0 at 42.5 (bins 40-44 and 44-48, centres 42 and 46, gain -1.25 and +8.75): half a
    # point from the threshold 43, no bin centre in between, so no bin changes side
    rows = [(1, 0, b, 5000, 10.0 * (b - 10) - 1.25, 30.0, float(b >= 11)) for b in range(8, 16)]
    params = C.with_thresholds(np.tile(default_bid_params("piekjas", 2), (1, 1)), {(1, 0): 43.0, (2, 0): 43.0})
    m = {(m.round, m.seat): m for m in C.propose(_table(rows), params)}[(1, 0)]
    assert m.candidate == pytest.approx(42.5) and not m.moved and m.n == 0


def test_a_move_under_a_bin_is_made_when_the_bin_it_crosses_resolves():
    # threshold 58 splits the bin 56-60 (centre 58), which loses beyond the noise: the fit crosses 0 at
    # 61 (centres 58 and 62: -10 and +3.3), so the threshold moves up by 3 and the whole bin passes
    rows = [(1, 0, b, 5000, -10.0 if b <= 14 else 3.3, 30.0, float(b >= 15)) for b in range(10, 18)]
    params = C.with_thresholds(np.tile(default_bid_params("piekjas", 2), (1, 1)), {(1, 0): 58.0, (2, 0): 58.0})
    m = {(m.round, m.seat): m for m in C.propose(_table(rows), params)}[(1, 0)]
    assert m.candidate == pytest.approx(61.0, abs=0.1) and m.moved and m.after == m.candidate
    assert m.n == 5000 and m.hi < 0  # exactly the bin 56-60, pooled


def test_with_thresholds_sets_each_seat_and_drops_the_seat_step():
    p = np.tile(default_bid_params("classic", 4), (4, 1))
    p[:, P_SEAT_STEP] = 2.0
    assert C.thresholds(p)[(1, 3)] == p[3, P_THR1] + 6.0
    q = C.with_thresholds(p, {(1, 3): 50.0, (2, 1): 40.0})
    assert q[3, P_THR1] == 50.0 and q[1, P_THR2] == 40.0 and (q[:, P_SEAT_STEP] == 0).all()
    assert C.thresholds(q)[(1, 3)] == 50.0


# --- policy files and --bid ---------------------------------------------------------------------


@pytest.mark.parametrize("play", SHIPPED_PLAYS)
@pytest.mark.parametrize("label", C.SHIPPED_LABELS)
def test_shipped_policy_provenance_matches_the_code_defaults(label, play):
    """Each shipped file (one calibrated under each play policy that ships) names the
    variant, player count, play policy and every resolved rule option of the code's default
    rules, and its parameters are the heuristic's except the thresholds and the class
    overrides it lists (each read into its seat's row by a seat that plays ``play``)."""
    from analyzer.players.policy_files import override_codes

    doc = C.read_policy(C.shipped_path(label, play))
    rules = Rules.from_label(label)
    assert (doc["variant"], doc["players"], doc["label"]) == (rules.variant, rules.players, label)
    # the rules it was calibrated with are the defaults, the game's target aside: a hand does not read the
    # target, so a calibrated policy fits any target (policy_files.policy_params compares the rest)
    assert {k: v for k, v in doc["rules"].items() if k != "target"} == {
        k: v for k, v in rules.options().items() if k != "target"}
    assert doc["play"] == play and doc["objective"] == C.OBJECTIVE and doc["status"] == "converged"
    params = Policies.parse("calibrated", play, rules.players).bid_params(rules)
    base = default_bid_params(rules.variant, rules.players)
    two = rules.players == 2
    if two:  # the smous offer and answer swept on the calibration's deals, their values by seat
        assert doc["smous"]["deals"] == doc["deals_per_iteration"] and doc["decisions"]["smous_offer"].startswith("calibrated")
    else:
        assert doc["smous"] is None
    for s in range(rules.players):
        for j, name in enumerate(BID_PARAM_NAMES):
            if j in (P_THR1, P_THR2, P_SEAT_STEP, P_KOE_LENGTH, P_KOE_TURNED):  # calibrated (the koe's: KOE_RULE)
                continue
            if two and j in (P_SMOUS_MARGIN, P_SMOUS_ANSWER):
                assert params[s, j] == doc["smous"]["by_seat"][str(s)][name]
                continue
            assert params[s, j] == base[j], name
        assert params[s, P_SEAT_STEP] == 0
        assert doc["thresholds"]["round1"][str(s)] == params[s, P_THR1]
        assert doc["thresholds"]["round2"][str(s)] == params[s, P_THR2]
        listed = doc["overrides"]["by_seat"][str(s)]
        assert len(override_codes(params[s])) == len(listed) == len({(o["round"], o["honours"], o["trump_length"],
                                                                     o["side_aces"], o["voids"]) for o in listed})
    assert set(doc["decisions"]) >= {"take_or_pass", "smous_offer", "smous_answer", "koe_suit", "round2_suit"}


def _policy_with(tmp_path, label, **rule_changes):
    doc = json.loads(C.shipped_path(label).read_text())
    doc["rules"].update(rule_changes)
    path = tmp_path / f"{label}.json"
    path.write_text(json.dumps(doc))
    return path


def test_bid_file_with_other_rules_is_refused_with_one_line_and_exit_2(tmp_path, capsys):
    path = _policy_with(tmp_path, "classic", undertrump="free")
    for cmd in (["simulate", "--deals", "100", "--quiet"], ["table", "--deals", "100", "--quiet"]):
        code, out, err = run(cmd + ["--bid", str(path)], capsys)
        assert code == 2 and out == ""
        assert err.count("\n") == 1 and "undertrump=free (run: forced)" in err, err


def test_bid_calibrated_with_a_changed_rule_is_refused(capsys):
    code, _, err = run(["simulate", "--deals", "100", "--quiet", "--rule", "undertrump=free", "--bid", "calibrated"],
                       capsys)
    assert code == 2 and err.count("\n") == 1 and "shipped calibrated policy" in err


def test_a_policy_file_for_another_variant_is_refused():
    with pytest.raises(BeloteError, match="is for classic with 4 players"):
        C.policy_params(str(C.shipped_path("classic")), Rules.from_label("piekjas4"))


def test_a_missing_policy_file_names_the_fix(tmp_path):
    with pytest.raises(BeloteError, match="belote calibrate --out"):
        C.policy_params(str(tmp_path / "none.json"), Rules.from_label("classic"))


def test_bid_calibrated_runs_the_shipped_thresholds_and_is_named(capsys):
    rules = Rules.from_label("piekjas3")
    cfg = SimConfig(rules=rules, policies=Policies.parse("calibrated", "heuristic", 3), deals=10)
    doc = C.read_policy(C.shipped_path("piekjas3"))
    assert [cfg.bid_params[s, P_THR1] for s in range(3)] == [doc["thresholds"]["round1"][str(s)] for s in range(3)]
    assert cfg.policies.describe()["bid"] == "calibrated"
    code, out, _ = run(["simulate", "--variant", "piekjas", "--players", "3", "--deals", "2000", "--quiet",
                        "--bid", "calibrated", "--json"], capsys)
    assert code == 0 and json.loads(out)["inputs"]["policies"]["bid"] == "calibrated"


def test_per_seat_calibrated_against_heuristic():
    pols = Policies.parse("0=calibrated", "heuristic", 2)
    rules = Rules.from_label("dekjas")
    p = pols.bid_params(rules)
    assert pols.bid == ("calibrated", "heuristic")
    assert (p[1] == default_bid_params("dekjas", 2)).all()
    assert p[0, P_THR1] == C.read_policy(C.shipped_path("dekjas"))["thresholds"]["round1"]["0"]


# --- the fixed point ------------------------------------------------------------------------


@pytest.mark.slow  # whole calibrations on 1 and 2 threads (11 s)
def test_calibration_is_identical_across_thread_counts():
    rules = Rules.from_label("piekjas2")
    a = C.calibrate(rules, deals=1500, seed=3, max_iter=2, threads=1)
    b = C.calibrate(rules, deals=1500, seed=3, max_iter=2, threads=2)
    assert np.array_equal(a.params, b.params)
    assert [it.as_dict()["moved"] for it in a.iterations] == [it.as_dict()["moved"] for it in b.iterations]


def test_calibrate_writes_a_policy_file_that_bid_file_reads(tmp_path, capsys):
    path = tmp_path / "p.json"
    code, out, _ = run(["calibrate", "--variant", "piekjas", "--players", "2", "--deals", "1500", "--iterations", "2",
                        "--quiet", "--out", str(path)], capsys)
    assert code == 0 and "iteration 1" in out and str(path) in out
    doc = C.read_policy(path)
    assert doc["rules"] == Rules.from_label("piekjas2").options() and doc["deals_per_iteration"] == 1500
    assert doc["seed"] == 1 and len(doc["iterations"]) >= 1 and doc["command"]
    code, out, _ = run(["simulate", "--variant", "piekjas", "--players", "2", "--deals", "500", "--quiet",
                        "--bid", str(path), "--json"], capsys)
    assert code == 0 and json.loads(out)["inputs"]["policies"]["bid"] == str(path)


def test_calibrate_does_not_overwrite_a_file_it_did_not_write(tmp_path, capsys):
    path = tmp_path / "notes.json"
    path.write_text('{"mine": 1}')
    code, _, err = run(["calibrate", "--variant", "piekjas", "--players", "2", "--deals", "300", "--iterations", "1",
                        "--quiet", "--out", str(path)], capsys)
    assert code == 2 and "exists and belote did not write it" in err and path.read_text() == '{"mine": 1}'


def _resolved_moves(label, bid, deals=20_000, seed=987_654, z=3.3):
    """One bidding-table iteration on fresh deals under ``bid`` in every seat: the threshold
    moves whose hands between the threshold and the candidate argue for the move (gain
    for a lower candidate, loss for a higher one) beyond ``z`` standard errors."""
    from analyzer.questions.table import bidding_table

    rules = Rules.from_label(label)
    cfg = SimConfig(rules=rules, policies=Policies.parse(bid, "heuristic", rules.players), deals=deals, seed=seed)
    out = []
    for m in C.propose(bidding_table(cfg), cfg.bid_params):
        if m.candidate == m.before or not np.isfinite(m.gain) or m.n < C.MIN_N:
            continue
        se = (m.hi - m.lo) / (2 * 1.959964)
        toward = m.gain if m.candidate < m.before else -m.gain
        if toward >= z * se:
            out.append(m.as_dict())
    return out


@pytest.mark.parametrize("label", C.SHIPPED_LABELS)
def test_shipped_thresholds_agree_with_a_small_recalibration(label):
    """No move is resolved at z=3.3 (two-sided 0.1%: with up to 8 thresholds per label and 5
    labels, a false alarm in the whole test has a chance under 4% even at a true fixed
    point), on 20,000 fresh deals."""
    assert _resolved_moves(label, "calibrated") == []


def test_the_recalibration_check_catches_stale_thresholds():
    """The same check fails for the uncalibrated heuristic (a stale policy) where it is off."""
    assert _resolved_moves("piekjas4", "heuristic")
    assert _resolved_moves("dekjas", "heuristic")


@pytest.mark.parametrize("args", [
    ["take", "Jh 9h Ah Tc 7s", "--turned", "Qh", "--variant", "piekjas", "--players", "4", "--seat", "1",
     "--deals", "300"],
    ["table", "--variant", "piekjas", "--players", "4", "--deals", "300", "--json"],
    ["balance", "--variant", "piekjas4", "--deals", "300", "--games", "0", "--json"],
])
def test_bid_calibrated_works_on_every_command_that_takes_bid(args, capsys):
    code, out, err = run(args + ["--bid", "calibrated", "--quiet"], capsys)
    assert code == 0, err
    assert "calibrated" in out


def test_a_calibration_that_returns_to_earlier_thresholds_is_reported_as_a_cycle(monkeypatch):
    """Thresholds that alternate between two values stop with status 'cycle', not forever."""
    class FakeTable:
        hands = 0

    monkeypatch.setattr(C, "bidding_table", lambda cfg: FakeTable())

    def flip(table, params, min_n=C.MIN_N, objective="net"):
        out = []
        for (rnd, seat), before in sorted(C.thresholds(params).items()):
            after = before + 10 if (rnd, seat) == (1, 0) and before < 50 else before - 10 if (rnd, seat) == (1, 0) else before
            out.append(C.Move(rnd, seat, before, after, after, 1000, 1.0, 0.5, 1.5))
        return out

    monkeypatch.setattr(C, "propose", flip)
    cal = C.calibrate(Rules.from_label("piekjas2"), deals=10, max_iter=10, class_overrides=False)
    assert cal.status == "cycle" and len(cal.iterations) == 2


# --- class overrides ----------------------------------------------------------------------------


def _raw_class(rnd, seat, hon_label, length, aces, voids, parts):
    """A raw class row; ``parts``: {"t": (n, mean, sd), "p": (n, mean, sd)}, the part the
    threshold takes and the part it passes (net gain of taking)."""
    from analyzer.players.policy_files import honours_bits

    hon = honours_bits(hon_label)
    r = {k: 0 for k in RAW_FIELDS}
    r.update(round=rnd, seat=seat, honours=hon_label, trump_J=bool(hon & 1), trump_9=bool(hon & 2),
             trump_A=bool(hon & 4), trump_10=bool(hon & 8), trump_length=length, side_aces=aces, voids=voids)
    for part, (n, mean, sd) in parts.items():
        s, sq = int(round(mean * n)), int(round(n * (sd * sd * (n - 1) / n + mean * mean)))
        r["n"] += n
        r["dnet"] += s
        r["dnet_sq"] += sq
        if part == "t":
            r.update(th_n=n, th_dnet=s, th_dnet_sq=sq, nat_take=n)
    return r


def _class_table(rows):
    return TableResult(config=None, raw=pd.DataFrame(rows), raw_strength=None, deals=0, hands=0, decisions=(0, 0),
                       seconds=0.0, rounds=2)


def test_a_class_whose_passed_part_gains_beyond_the_noise_gets_a_take_override():
    """Round 1 seat 0, J9.. with 2 trumps and one ace: the 1,000 hands the threshold passes
    gain +5 (sd 30: interval [+3.1, +6.9]) -> take; J... with 0 aces: −1 (interval
    includes 0) -> no override; the part the threshold takes of .9A. losing −6 -> pass."""
    t = _class_table([_raw_class(1, 0, "J9..", 2, 1, 0, {"p": (1000, 5.0, 30.0), "t": (300, 8.0, 30.0)}),
                      _raw_class(1, 0, "J...", 2, 0, 0, {"p": (1000, -1.0, 30.0)}),
                      _raw_class(1, 0, ".9A.", 3, 1, 0, {"t": (1000, -6.0, 30.0), "p": (50, 2.0, 30.0)})])
    new, added, removed = C.propose_overrides(t, None, {})
    got = {(o.as_dict()["honours"], o.take) for o in new.values()}
    assert got == {("J9..", True), (".9A.", False)} and len(added) == 2 and not removed
    take = next(o for o in new.values() if o.take)
    assert take.n == 1000 and take.lo > 0


def test_an_override_stays_while_unresolved_and_goes_when_resolved_against():
    first, _, _ = C.propose_overrides(
        _class_table([_raw_class(1, 0, "J9..", 2, 1, 0, {"p": (1000, 5.0, 30.0)})]), None, {})
    kept, _, removed = C.propose_overrides(
        _class_table([_raw_class(1, 0, "J9..", 2, 1, 0, {"p": (1000, 1.0, 30.0)})]), None, first)
    assert kept.keys() == first.keys() and not removed  # unresolved: stays (no flapping on noise)
    gone, _, removed = C.propose_overrides(
        _class_table([_raw_class(1, 0, "J9..", 2, 1, 0, {"p": (1000, -5.0, 30.0)})]), None, first)
    assert not gone and len(removed) == 1
    redundant, _, removed = C.propose_overrides(  # the threshold now takes the whole class
        _class_table([_raw_class(1, 0, "J9..", 2, 1, 0, {"t": (1000, 5.0, 30.0)})]), None, first)
    assert not redundant and len(removed) == 1


def test_overrides_round_trip_through_the_rows_and_the_policy_file(tmp_path):
    rules = Rules.from_label("piekjas3")
    t = _class_table([_raw_class(1, 0, "J9..", 2, 1, 0, {"p": (1000, 5.0, 30.0)}),
                      _raw_class(2, 2, "J...", 4, 0, 1, {"t": (1000, -6.0, 30.0)})])
    new, _, _ = C.propose_overrides(t, None, {})
    start = np.tile(default_bid_params("piekjas", 3), (3, 1))
    params = C.with_overrides(C.with_thresholds(start, C.thresholds(start)), new)
    assert C.overrides_of(params).keys() == new.keys()
    cal = C.Calibration(rules, "heuristic", 10, 1, C.MIN_N, start, params, overrides=new)
    path = write_policy(cal, tmp_path / "p.json")
    doc = json.loads(path.read_text())
    assert [o["call"] for o in doc["overrides"]["by_seat"]["0"]] == ["take"]
    assert [(o["round"], o["honours"], o["call"]) for o in doc["overrides"]["by_seat"]["2"]] == [(2, "J...", "pass")]
    assert (C.policy_params(str(path), rules) == params).all()


def test_class_table_splits_each_class_at_the_threshold():
    """Without overrides the heuristic takes exactly where its threshold does: in every
    class the part the threshold takes is the policy's takes (and a smous is not a take)."""
    from analyzer.questions.table import bidding_table

    for label in ("piekjas3", "piekjas2"):
        t = bidding_table(SimConfig(rules=Rules.from_label(label), deals=2000, seed=5))
        assert (t.raw["th_n"] == t.raw["nat_take"]).all()
        assert (t.raw["th_n"] > 0).any() and (t.raw["th_n"] < t.raw["n"]).any()


def test_an_override_changes_the_calls_of_its_class_in_the_tables():
    """A take override on the commonest class the threshold passes: the policy now takes
    every decision of that class, and only there does it differ from the threshold."""
    from analyzer.questions.table import bidding_table

    rules = Rules.from_label("piekjas3")
    base = SimConfig(rules=rules, deals=2000, seed=5)
    t = bidding_table(base)
    parts = C.class_parts(t)
    r = parts[(parts["round"] == 1) & (parts["seat"] == 0)].sort_values("p_n").iloc[-1]
    o = C.Override(1, 0, int(r.key), int(r.hon), int(r.trump_length), int(r.side_aces), int(r.voids), True, 0, 1.0, 0.5, 1.5)
    params = C.with_overrides(base.bid_params, {o.ident: o})
    t2 = bidding_table(SimConfig(rules=rules, deals=2000, seed=5, bid_params=params))
    raw = t2.raw
    mine = (raw["round"] == 1) & (raw["seat"] == 0) & (raw["honours"] == r.honours) & (
        raw["trump_length"] == r.trump_length) & (raw["side_aces"] == r.side_aces) & (raw["voids"] == r.voids)
    assert (raw.loc[mine, "nat_take"] == raw.loc[mine, "n"]).all() and raw.loc[mine, "th_n"].sum() < raw.loc[mine, "n"].sum()
    assert (raw.loc[~mine & (raw["round"] == 1) & (raw["seat"] == 0), "th_n"]
            == raw.loc[~mine & (raw["round"] == 1) & (raw["seat"] == 0), "nat_take"]).all()
    agree = C.class_agreement(t2, min_n=1)
    assert agree[agree["override"]]["policy_call"].eq("take").all() and agree["override"].any()


# --- the smous offer and answer (2 players) ------------------------------------------------------


def _fake_duel(gains):
    """A stand-in for ``duel``: the candidate's margin by the (seat, parameter, value) A's rows
    carry where they differ from the current rows."""
    from types import SimpleNamespace

    def fake(rules, a, b, *, deals, seed, threads=None, bid_params=None):
        trial, current = bid_params
        (seat, j), = zip(*np.nonzero(trial != current))  # a sweep changes one parameter of one seat
        mean, half = gains.get((int(seat), int(j), float(trial[seat, j])), (0.0, 1.0))
        return SimpleNamespace(margin=SimpleNamespace(mean=mean, lo=mean - half, hi=mean + half, n=deals))
    return fake


def test_a_smous_parameter_moves_to_the_best_candidate_only_beyond_the_noise(monkeypatch):
    from analyzer.players.bidding import P_SMOUS_ANSWER, P_SMOUS_MARGIN

    rules = Rules.from_label("dekjas")
    start = np.tile(default_bid_params("dekjas", 2), (2, 1))
    # seat 0: margin 16 gains +2 [+1, +3] a deal (moves), margin 24 +1.5 (not the best); answer 30 gains +0.5
    # [-0.5, +1.5] (inside the noise: stays). Seat 1: answer 0 gains +1 [+0.5, +1.5] (moves).
    monkeypatch.setattr(C, "duel", _fake_duel({(0, P_SMOUS_MARGIN, 16.0): (2.0, 1.0),
                                               (0, P_SMOUS_MARGIN, 24.0): (1.5, 1.0),
                                               (0, P_SMOUS_ANSWER, 30.0): (0.5, 1.0),
                                               (1, P_SMOUS_ANSWER, 0.0): (1.0, 0.5)}))
    params, sweeps = C.sweep_smous(rules, start, "heuristic", 100, 1)
    assert [(w.seat, w.name, w.before, w.after) for w in sweeps] == [
        (0, "smous_margin", 8.0, 16.0), (0, "smous_answer", 40.0, 40.0),
        (1, "smous_margin", 8.0, 8.0), (1, "smous_answer", 40.0, 0.0)]
    assert params[:, P_SMOUS_MARGIN].tolist() == [16.0, 8.0] and params[:, P_SMOUS_ANSWER].tolist() == [40.0, 0.0]
    assert all(v != 8.0 for v, *_ in sweeps[0].candidates)  # the current value is not a candidate


def test_smous_sweeps_run_for_two_players_only_and_are_written_in_the_policy_file(monkeypatch):
    monkeypatch.setattr(C, "duel", _fake_duel({}))
    cal = C.calibrate(Rules.from_label("dekjas"), deals=2000, max_iter=3, sweep_deals=100)
    swept = [w for it in cal.iterations for w in it.sweeps]
    assert swept and not any(w.moved for w in swept) and {w.seat for w in swept} == {0, 1}
    doc = cal.as_policy()
    assert doc["smous"]["by_seat"]["1"] == {"smous_margin": 8.0, "smous_answer": 40.0}
    assert doc["decisions"]["smous_offer"].startswith("calibrated")
    assert "smous_sweeps" in doc["iterations"][-1]
    assert "--smous-deals 100" in cal.command()
    four = C.calibrate(Rules.from_label("piekjas4"), deals=500, max_iter=1, sweep_deals=100)
    assert not any(it.sweeps for it in four.iterations) and four.as_policy()["smous"] is None
    default = C.calibrate(Rules.from_label("dekjas"), deals=500, max_iter=3)  # the default: swept on the same deals
    assert default.sweep_deals == 500 and "--smous-deals 500" in default.command()
    none = C.calibrate(Rules.from_label("dekjas"), deals=500, max_iter=1, sweep_deals=0)  # asked not to sweep
    assert none.as_policy()["decisions"]["smous_offer"].startswith("kept") and "--smous-deals 0" in none.command()
    assert none.as_policy()["smous"] is None


def test_a_disagreement_survives_the_family_wise_correction_only_when_far_beyond_chance():
    # two cells tested: z = Φ⁻¹(1 − 0.05 / 4) = 2.24. A take at −10 with se 1 stays wrong after
    # widening; a pass at +2.1 with se 1 (95%: [+0.14, +4.06], a one-sided miss) does not.
    se = 1.0
    cells = pd.DataFrame({"policy_call": ["take", "pass"], "gain_net": [-10.0, 2.1],
                          "gain_net_lo": [-10.0 - C.Z95 * se, 2.1 - C.Z95 * se],
                          "gain_net_hi": [-10.0 + C.Z95 * se, 2.1 + C.Z95 * se]})
    z, wrong = C.family_wise(cells)
    assert z == pytest.approx(2.2414, abs=1e-3)
    assert wrong == 1
    # the same pass cell alone (m = 1, z = 1.96) is still a miss: the correction grows with m
    assert C.family_wise(cells.iloc[[1]])[1] == 1
    assert C.family_wise(cells.iloc[[1]])[0] == pytest.approx(C.Z95)


def test_calibrate_cli_default_iterations_are_the_modules():
    import inspect

    from analyzer.cli.calibrate import calibrate

    assert inspect.signature(calibrate).parameters["iterations"].default.default == C.DEFAULT_ITER


def test_a_threshold_moves_as_far_as_the_bins_nearest_it_resolve():
    # threshold 52; the fit crosses 0 at 38 (bins 36-40 .. 48-52 between). The bin 48-52 gains +10 with
    # n=5000 (resolved alone), the bins below it gain 0 with few, scattered hands: pooled to the candidate they
    # do not resolve, so the threshold moves to 48, the lower edge of the bin that does.
    rows = ([(1, 0, 8, 5000, -20.0, 30.0, 0.0)]
            + [(1, 0, b, 300, 0.0, 2000.0, 0.0) for b in (9, 10, 11)]  # sd 2000: they pull the pool into the noise
            + [(1, 0, 12, 5000, 10.0, 30.0, 0.0), (1, 0, 13, 5000, 12.0, 30.0, 1.0)])
    params = C.with_thresholds(np.tile(default_bid_params("piekjas", 2), (1, 1)), {(1, 0): 52.0, (2, 0): 52.0})
    m = {(m.round, m.seat): m for m in C.propose(_table(rows), params)}[(1, 0)]
    assert m.candidate == pytest.approx(38.0) and m.moved and m.after == 48.0
    assert m.n == 5000 and m.lo > 0  # the bin 48-52 alone


# --- the koe's suit (piekjas, dekjas) ------------------------------------------------------------


def _fake_suit_choice(gains):
    """A stand-in for ``suits.suit_choice``: candidate (a, b) gains {(a, b): (mean, half width)}
    while the rows' koe weights are the heuristic's, 0 for every candidate afterwards."""
    from types import SimpleNamespace

    def fake(cfg, candidates=(), **_):
        fresh = cfg.bid_params[0, P_KOE_LENGTH] == 0 and cfg.bid_params[0, P_KOE_TURNED] == 0
        rows = []
        for a, b in candidates:
            m, h = gains.get((a, b), (0.0, 0.0)) if fresh else (0.0, 0.0)
            rows.append({"koe_w_length": a, "koe_w_turned": b, "n": 1000, "switched": 100 if m else 0,
                         "gain_net": m, "se": h / 2, "lo": m - h, "hi": m + h})
        return SimpleNamespace(candidate_gains=lambda: pd.DataFrame(rows))
    return fake


def test_the_koe_weights_move_to_the_best_candidate_only_beyond_the_noise(monkeypatch):
    rules = Rules.from_label("piekjas3")
    start = np.tile(default_bid_params("piekjas", 3), (3, 1))
    monkeypatch.setattr(C, "suit_choice", _fake_suit_choice({(6.0, 0.0): (2.0, 1.0), (8.0, 4.0): (1.5, 1.0)}))
    params, sw = C.sweep_koe(rules, start, "heuristic", 100, 1)
    assert sw.moved and sw.after == (6.0, 0.0) and (params[:, P_KOE_LENGTH] == 6.0).all()
    # the best candidate's interval includes 0: the weights stay
    monkeypatch.setattr(C, "suit_choice", _fake_suit_choice({(6.0, 0.0): (2.0, 2.5)}))
    params, sw = C.sweep_koe(rules, start, "heuristic", 100, 1)
    assert not sw.moved and sw.best[:2] == (6.0, 0.0) and (params[:, P_KOE_LENGTH] == 0.0).all()


def test_the_koe_weights_are_in_the_fixed_point_and_written_in_the_policy_file(monkeypatch, tmp_path):
    monkeypatch.setattr(C, "suit_choice", _fake_suit_choice({(4.0, 12.0): (3.0, 1.0)}))
    cal = C.calibrate(Rules.from_label("piekjas3"), deals=1500, max_iter=10)
    koe = [it.koe for it in cal.iterations if it.koe is not None]
    assert koe[0].moved and not koe[-1].moved and cal.status == "converged"  # the take/pass iterations ran again
    path = write_policy(cal, tmp_path / "p3.json")
    doc = C.read_policy(path)
    assert doc["koe_choice"]["koe_w_length"] == 4.0 and doc["koe_choice"]["koe_w_turned"] == 12.0
    assert doc["decisions"]["koe_suit"].startswith("calibrated")
    rows = Policies.parse(str(path), "heuristic", 3).bid_params(Rules.from_label("piekjas3"))
    assert (rows[:, P_KOE_LENGTH] == 4.0).all() and (rows[:, P_KOE_TURNED] == 12.0).all()
    classic = C.calibrate(Rules.from_label("classic"), deals=500, max_iter=1)
    assert all(it.koe is None for it in classic.iterations) and classic.as_policy()["koe_choice"] is None


def test_a_policy_file_without_koe_weights_reads_as_the_best_scoring_suit(tmp_path):
    doc = json.loads(C.shipped_path("piekjas3").read_text())
    for row in doc["params"].values():
        row.pop("koe_w_length", None)
        row.pop("koe_w_turned", None)
    path = tmp_path / "old.json"
    path.write_text(json.dumps(doc))
    rows = Policies.parse(str(path), "heuristic", 3).bid_params(Rules.from_label("piekjas3"))
    assert (rows[:, P_KOE_LENGTH] == 0).all() and (rows[:, P_KOE_TURNED] == 0).all()


def test_ship_refuses_to_keep_the_heuristics_smous_decisions(capsys):
    code, _, err = run(["calibrate", "--variant", "all", "--ship", "--smous-deals", "0", "--quiet"], capsys)
    assert code == 2 and err.count("\n") == 1 and "--smous-deals 0" in err


# --- an answer that rests on nothing says so ---------------------------------------------------


def test_a_calibration_on_too_few_deals_is_unresolved_not_converged():
    cal = C.calibrate(Rules.from_label("classic"), deals=3000, seed=1, max_iter=3)
    assert [m.moved for m in cal.iterations[-1].moves] == [False] * 8 and not cal.overrides
    assert cal.resolved() == 0 and cal.status == "unresolved"
    assert "unresolved: not enough deals (3,000 an iteration)" in cal.summary()
    assert cal.as_policy()["status"] == "unresolved"


def test_a_threshold_kept_between_resolved_cells_is_resolved():
    cells = pd.DataFrame({"strength_lo": [20.0, 24.0, 28.0, 32.0, 36.0], "strength_hi": [24.0, 28.0, 32.0, 36.0, 40.0],
                          "gain_net_lo": [-9.0, -6.0, -3.0, -1.0, 2.0], "gain_net_hi": [-5.0, -1.0, 4.0, 6.0, 9.0]})
    assert C.bracket(cells, 28.0) == (28.0, 36.0)
    assert C.bracket(cells, 30.0) == (28.0, 36.0)  # the cell holding the threshold is on neither side
    assert C.bracket(cells, 22.0) is None  # no cell wholly below it says pass
    assert C.bracket(cells[cells["strength_lo"] < 36], 28.0) is None  # none above says take
    move = C.Move(1, 0, 28.0, 28.0, 28.0, 0, float("nan"), float("nan"), float("nan"), C.bracket(cells, 28.0))
    assert move.resolved and not move.moved and move.as_dict()["bracket"] == [28.0, 36.0]


def test_ship_refuses_an_unresolved_calibration_in_one_line(tmp_path, monkeypatch, capsys):
    target = tmp_path / "classic.json"
    monkeypatch.setattr(C, "shipped_path", lambda label, play="heuristic": target)  # never the package's own file
    code, out, err = run(["calibrate", "--deals", "3000", "--iterations", "2", "--ship", "--quiet"], capsys)
    assert code == 2 and err.count("\n") == 1 and "--ship refuses the classic calibration, unresolved" in err, err
    assert not target.exists()


def test_ship_is_refused_for_a_play_policy_that_ships_no_policy(capsys):
    code, out, err = run(["calibrate", "--deals", "300", "--ship", "--play", "pimc", "--quiet"], capsys)
    assert code == 2 and err.count("\n") == 1, err
    assert "--ship writes the policies for heuristic or net play" in err and "--out FILE" in err


def test_a_seat_bids_with_the_policy_calibrated_for_its_own_play():
    """``calibrated`` reads <label>.net.json for a seat that plays net in both roles and
    <label>.json for any other (a seat playing pimc, or net in one role only); a bracket's
    columns bid as their first (``with_bidders_of``)."""
    from analyzer.players.policy_files import calibrated_path, describe_bid, policy_params

    rules = Rules.from_label("classic")
    heur, net = (policy_params(str(C.shipped_path("classic", p)), rules) for p in ("heuristic", "net"))
    assert not np.array_equal(heur, net)  # the two calibrations differ, so the test can tell them apart
    mixed = Policies.parse("calibrated", "0=net,1=pimc,2=heuristic,3=net", 4)
    rows = mixed.bid_params(rules)
    assert np.array_equal(rows[[0, 3]], net[[0, 3]]) and np.array_equal(rows[[1, 2]], heur[[1, 2]])
    by_role = Policies.parse("calibrated", "taker=net,defence=heuristic", 4)
    assert by_role.seat_plays() == ("mixed",) * 4 and np.array_equal(by_role.bid_params(rules), heur)
    assert calibrated_path("classic", "mixed") == calibrated_path("classic", "pimc") == C.shipped_path("classic")
    text = describe_bid(mixed, rules)
    assert text.count("policies_data/classic.net.json") == 2 and text.count("policies_data/classic.json") == 2
    assert "net play" in text and "heuristic play" in text
    column = Policies.parse("calibrated", "net", 4).with_bidders_of(Policies.parse("calibrated", "heuristic", 4))
    assert np.array_equal(column.bid_params(rules), heur) and column.play == Policies.parse("heuristic", "net", 4).play


def test_take_under_net_play_names_the_bidders_it_used(capsys):
    """The console's Bidders line and --json's bid_policy name the file the seats bid with: the net
    file under net play (which bid_params reads; the default), the heuristic-play file under --play
    heuristic."""
    args = ["take", "Jh 9h Ac Kd 8s", "--turned", "7h", "--deals", "300", "--quiet"]
    code, out, err = run(args + ["--play", "net"], capsys)
    assert code == 0 and "policies_data/classic.net.json" in " ".join(out.split()), err
    code, out, err = run(args + ["--play", "net", "--json"], capsys)
    assert json.loads(out)["inputs"]["bid_policy"]["file"] == "analyzer/players/policies_data/classic.net.json"
    code, out, err = run(args, capsys)  # net, the default player
    assert code == 0 and "policies_data/classic.net.json" in " ".join(out.split())
    code, out, err = run(args + ["--play", "heuristic"], capsys)
    assert code == 0 and "policies_data/classic.json" in " ".join(out.split())


def test_a_policy_file_on_a_full_disk_is_one_line_and_leaves_nothing(tmp_path):
    """A real 4 KiB tmpfs (root only: skipped where mount is refused), too small for a policy file."""
    import subprocess

    rules = Rules.from_label("classic")
    start = np.tile(default_bid_params("classic", 4), (4, 1))
    cal = C.Calibration(rules, "heuristic", 10, 1, C.MIN_N, start, start.copy())
    fs = tmp_path / "full"
    fs.mkdir()
    if subprocess.run(["mount", "-t", "tmpfs", "-o", "size=4k", "tmpfs", str(fs)], capture_output=True).returncode:
        pytest.skip("cannot mount a tmpfs here (needs root)")
    try:
        (fs / "filler").write_bytes(b"x" * 4096)
        with pytest.raises(BeloteError, match=r"cannot write --out .*p\.json: No space left on device"):
            write_policy(cal, fs / "p.json")
        assert sorted(p.name for p in fs.iterdir()) == ["filler"]
    finally:
        subprocess.run(["umount", str(fs)], check=True)
