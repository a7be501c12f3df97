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


def test_the_hand_and_its_players_compile_once_for_every_caller():
    # numba compiles a function once per argument types, and a constant argument has a type of its
    # own: a caller passing 0 where another passes a variable (or uint64 where another passes uint32)
    # would compile the hand, or a player it calls, again, and every compile of the hand costs tens of
    # seconds on a cold cache (docs/BENCHMARKS.md, 2026-12-03). Simulate, the traced replay, a game
    # (a variable reserve), pimc's play-outs and its evaluator as `belote learn` calls it (the heuristic
    # and the scoring) all reach one signature.
    # Counted in the kernel cache's index (what every compile of this source saved), since a kernel
    # loaded from the cache brings its callees without compiling them (their .signatures stay empty)
    from analyzer.players import play
    from analyzer.rules import declarations, scoring
    from analyzer.runs import learn
    from analyzer.runs.hand import play_hand

    for label in ("classic", "dekjas"):
        rules = Rules.from_label(label)
        cfg = SimConfig(rules=rules, policies=Policies.parse("heuristic", "heuristic", rules.players),
                        deals=20, seed=5, threads=1, chunk=20)
        simulate(cfg)
        trace_hand(cfg, 3)
        play_games(cfg, 2)
    pimc = SimConfig(rules=Rules("piekjas", 3), policies=Policies.parse("heuristic", "pimc:worlds=2", 3),
                     deals=1, seed=5, threads=1, chunk=1)
    simulate(pimc)
    learn.decisions(Rules.from_label("classic"), seed=5, deals=1)  # pimc's evaluator on the true deal
    for f in (play_hand, play._heuristic, scoring.score_solo, declarations.find_declarations,
              declarations.declare_new):
        saved = f._cache._cache_file._load_index()
        assert len(saved) == 1, (f.py_func.__name__, [key[0] for key in saved])
