"""The one driver: unit i of a run is the hand (or game) its stream (seed, i) gives, and the
rows are the same whatever the chunking, the thread count or the split into calls."""

import numpy as np
import pytest

from analyzer.runs import driver
from analyzer.runs.games import play_games
from analyzer.runs.hand import RES_SCORES
from analyzer.players.policies import Policies
from analyzer.rules import Rules
from analyzer.questions.seats import simulate_seats
from analyzer.runs.simulate import SimConfig, simulate, trace_hand
from analyzer.runs.units import N_COUNTS, count_hand


@pytest.mark.parametrize("label", ["classic", "piekjas3", "dekjas"])
def test_simulate_counts_hand_i_of_the_traced_replay(label):
    # trace_hand(config, i) plays hand i on its own (the path every deal log replays through
    # the reference); the driver's counts must be those hands', one by one
    rules = Rules.from_label(label)
    cfg = SimConfig(rules=rules, policies=Policies.parse("random", "heuristic", rules.players),
                    deals=300, seed=11, threads=1, chunk=64)
    rec = cfg.rules.record()
    want = np.zeros(N_COUNTS, np.int64)
    for i in range(cfg.deals):
        _, res, _ = trace_hand(cfg, i)
        count_hand(res, rec, want)
    assert (simulate(cfg).counts == want).all()


def test_seat_advantage_is_the_traced_hands_scores():
    cfg = SimConfig(rules=Rules("piekjas", 3), deals=200, seed=4, threads=1, chunk=50)
    _, adv = simulate_seats(cfg)
    want = np.zeros(8, np.int64)
    for i in range(cfg.deals):
        _, res, _ = trace_hand(cfg, i)
        sc = res[RES_SCORES:RES_SCORES + 3]
        for s in range(3):
            a = 3 * sc[s] - sc.sum()
            want[s] += a
            want[4 + s] += a * a
    assert (adv == want).all()


def test_per_chunk_rows_sum_to_the_run_whatever_the_split():
    cfg = SimConfig(rules=Rules("piekjas", 2), policies=Policies.parse("random", "random", 2), deals=1, seed=9)
    args = cfg.kernel_args()
    whole = driver.run_units(driver.SIMULATE, 9, 0, 5000, 1000, args)
    rows = driver.run_chunks(driver.SIMULATE, 9, 0, 5, 1000, args)
    assert rows.shape == (5, N_COUNTS) and (rows.sum(axis=0) == whole).all()
    assert len({tuple(r) for r in rows}) == 5  # five different chunks, not one repeated
    # chunks 2..4 on their own are the same rows; the last chunk is cut at the run's length
    assert (driver.run_chunks(driver.SIMULATE, 9, 2, 3, 1000, args) == rows[2:]).all()
    cut = driver.run_chunks(driver.SIMULATE, 9, 4, 2, 1000, args, n_units=4500)
    assert cut.shape[0] == 1 and cut[0, 0] == 500
    assert (driver.run_units(driver.SIMULATE, 9, 0, 5000, 333, args) == whole).all()


def test_simulate_same_counts_on_one_and_two_threads_and_any_chunk():
    base = dict(rules=Rules(), deals=6000, seed=5)
    a = simulate(SimConfig(**base, threads=1, chunk=6000)).counts
    b = simulate(SimConfig(**base, threads=2, chunk=700)).counts
    assert (a == b).all() and a[0] == 6000


def test_games_rows_the_same_whatever_the_chunk_and_threads():
    cfg1 = SimConfig(rules=Rules("piekjas", 3), deals=1, seed=6, threads=1)
    cfg2 = SimConfig(rules=Rules("piekjas", 3), deals=1, seed=6, threads=2)
    a = play_games(cfg1, 120, chunk=120).games
    b = play_games(cfg2, 120, chunk=7, batch=50).games
    assert a.shape == (120, b.shape[1]) and (a == b).all()
    assert len({tuple(r) for r in a}) > 100  # one row per game, not one game repeated
