"""Backends (analyzer.runs.backends): the same seed gives the same numbers on threads and on a real
Dask ``LocalCluster`` of worker processes, for every analysis that takes --cluster/--scheduler;
a worker killed mid-run changes nothing; a missing Dask is one line, exit 2."""

import json
import os
import signal

import numpy as np
import pytest

import cli
from analyzer.runs import backends, driver
from analyzer.players.policies import Policies
from analyzer.rules import Rules
from analyzer.runs.simulate import SimConfig

distributed = pytest.importorskip("distributed")

# wall-clock figures and the command line (it names --threads or --cluster): the only output allowed to differ
VOLATILE = {"timing", "seconds", "command"}


def _stable(obj):
    if isinstance(obj, dict):
        return {k: _stable(v) for k, v in obj.items() if k not in VOLATILE}
    if isinstance(obj, list):
        return [_stable(v) for v in obj]
    return obj


@pytest.fixture(scope="module")
def cluster():
    """One LocalCluster of 2 one-thread worker processes for the whole module."""
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                                  dashboard_address=":0") as lc, distributed.Client(lc) as client:
        client.wait_for_workers(2)
        yield lc, client


def _json(capsys, argv):
    code = cli.main(argv + ["--json", "-q"])
    out, err = capsys.readouterr()
    assert code == 0, err
    return _stable(json.loads(out))


ANALYSES = {
    "simulate": ["simulate", "--deals", "30000", "--seed", "5"],
    "simulate_piekjas3": ["simulate", "--variant", "piekjas", "--players", "3", "--deals", "20000",
                          "--bid", "0=heuristic,1=random"],
    "table": ["table", "--deals", "3000", "--seed", "3"],
    "take": ["take", "Jh 9h Ah Tc 7s", "--turned", "Qh", "--deals", "3000", "--seed", "4"],
    "take_precision": ["take", "Js 9s As 7h 8c", "--turned", "Td", "--seat", "1", "--precision", "12",
                       "--max-deals", "40000"],
    "balance": ["balance", "--variant", "classic", "--variant", "piekjas3", "--deals", "5000", "--games", "60"],
}


@pytest.mark.slow  # a Dask cluster
@pytest.mark.parametrize("name", list(ANALYSES))
def test_same_seed_same_json_on_one_and_two_threads_and_a_two_worker_cluster(cluster, capsys, name):
    argv = ANALYSES[name]
    one = _json(capsys, argv + ["--threads", "1"])
    two = _json(capsys, argv + ["--threads", "2"])
    dask2 = _json(capsys, argv + ["--scheduler", cluster[0].scheduler_address])
    assert one == two
    assert dask2 == one


@pytest.mark.slow  # a Dask cluster
def test_a_table_batched_for_the_cluster_gives_the_numbers_of_the_thread_batches(cluster, capsys):
    backend = backends.DaskBackend(cluster[1])
    assert backend.batch_units(driver.TABLE, 1 << 16) == 2 * backends.TASKS_PER_WORKER * (1 << 15)  # vs 3 on threads
    argv = ["table", "--deals", "140000", "--rounds", "1", "--seed", "8"]
    assert _json(capsys, argv + ["--scheduler", cluster[0].scheduler_address]) == _json(capsys, argv)


@pytest.mark.slow  # a Dask cluster
def test_progress_counts_hands_as_tasks_and_chunks_finish_on_every_backend(cluster):
    from analyzer.runs.simulate import simulate

    cfg = SimConfig(rules=Rules.make("classic", None, []), deals=300_000, seed=3)
    for backend, steps in ((backends.ThreadBackend(), 19), (backends.DaskBackend(cluster[1]), 3)):
        seen = []
        with backends.use(backend), backends.unit_progress(seen.append):
            simulate(cfg)  # one batch: without the hook, one update at its end
        assert len(seen) == steps and seen[-1] == 300_000 and seen == sorted(seen), backend.name


@pytest.mark.slow  # a Dask cluster
def test_cluster_local_1_starts_its_own_cluster_and_gives_the_thread_numbers(capsys):
    argv = ANALYSES["simulate"]
    assert _json(capsys, argv + ["--cluster", "local:1"]) == _json(capsys, argv + ["--threads", "1"])


@pytest.mark.slow  # a whole report on a Dask cluster
def test_report_on_a_cluster_writes_the_same_tables_as_on_threads(cluster, tmp_path):
    """Every section of a whole (one-variant, one-example) report, classic so that the table's
    bracket is in it too: the same bytes in every table on threads and on the cluster."""
    from analyzer.output import report as R

    kw = dict(deals=2000, seed=4, examples=(R.EXAMPLES[0],), variants=("classic",))
    a = R.make_report(tmp_path / "threads", **kw)
    with backends.use(backends.DaskBackend(cluster[1])):
        b = R.make_report(tmp_path / "dask", **kw)
    tables = sorted(p.name for p in a.path.iterdir() if p.suffix == ".csv")
    assert {"take_examples.csv", "balance_seats.csv", "balance_heuristic_seats.csv", "table_bracket_classic.csv",
            "bracket_examples.csv"} <= set(tables)  # take, table, balance, the bracket: every section ran
    for name in tables:
        assert (b.path / name).read_bytes() == (a.path / name).read_bytes(), name


@pytest.mark.slow  # a Dask cluster
def test_workers_load_the_kernels_from_the_parents_cache_folder(cluster):
    import numba.core.config

    from analyzer.runs.backends import _warm

    assert set(cluster[1].run(_warm).values()) == {numba.core.config.CACHE_DIR}


def _sim_args(deals):
    rules = Rules.make("classic", None, [])
    return SimConfig(rules=rules, policies=Policies.parse("heuristic", "heuristic", 4), deals=deals,
                     seed=11).kernel_args()


@pytest.mark.slow  # a Dask cluster
def test_rows_per_chunk_do_not_depend_on_the_task_size(cluster):
    args = _sim_args(1)
    local = driver._run_local(driver.SIMULATE, 11, 100, 5000, 300, args, None, False, threads=1)
    for units_per_task in (300, 900, 5000):
        with backends.use(backends.DaskBackend(cluster[1], units_per_task=units_per_task)):
            rows = driver.run_chunks(driver.SIMULATE, 11, 0, 17, 300, args, None, n_units=5100)
        np.testing.assert_array_equal(rows[1:], driver.run_chunks(driver.SIMULATE, 11, 1, 16, 300, args, None,
                                                                  n_units=5100))
        assert rows.shape[0] == 17
    with backends.use(backends.DaskBackend(cluster[1])):
        np.testing.assert_array_equal(backends.current().run(driver.SIMULATE, 11, 100, 5000, 300, args, None, False),
                                      local)


def test_dask_not_installed_is_one_line_and_exit_2(monkeypatch, capsys):
    import builtins

    real = builtins.__import__

    def no_dask(name, *a, **k):
        if name == "distributed" or name.startswith("distributed."):
            raise ImportError("No module named 'distributed'")
        return real(name, *a, **k)

    monkeypatch.setattr(builtins, "__import__", no_dask)
    code = cli.main(["simulate", "--deals", "100", "--cluster", "local:1", "-q"])
    _, err = capsys.readouterr()
    assert code == 2
    assert err.strip().count("\n") == 0 and "belote-analyzer[dask]" in err


@pytest.mark.parametrize("spec", ["local", "local:0", "remote:2", "local:x"])
def test_a_bad_cluster_spec_names_the_form(capsys, spec):
    code = cli.main(["simulate", "--deals", "100", "--cluster", spec, "-q"])
    _, err = capsys.readouterr()
    assert code == 2 and "local:N" in err and err.count("\n") == 1


def test_an_unreachable_scheduler_is_one_line_and_exit_2(capsys, monkeypatch):
    monkeypatch.setattr(backends, "CONNECT_SECONDS", 2.0)  # Dask retries a refused connection until then: 10 s
    code = cli.main(["simulate", "--deals", "100", "--scheduler", "tcp://127.0.0.1:9", "-q"])
    _, err = capsys.readouterr()
    assert code == 2 and "tcp://127.0.0.1:9" in err and err.count("\n") == 1


@pytest.mark.slow  # a Dask cluster
def test_per_task_overhead_is_measured_and_small_against_a_task(cluster):
    """The task size rule: a batch's task carries well over 20 times the scheduling cost."""
    overhead = backends.task_overhead(cluster[1], tasks=200)
    assert 0 < overhead < 0.05


RESUMABLE = ["table", "--deals", "140000", "--rounds", "1", "--seed", "8"]  # 3 batches of at most 65,536 deals


@pytest.mark.slow  # three table runs, one of them resumed (16 s)
def test_an_interrupted_run_resumed_ends_with_the_uninterrupted_numbers(capsys, monkeypatch, tmp_path):
    want = _json(capsys, RESUMABLE)
    real = backends.RecordingBackend.run
    calls = []

    def interrupt_at_the_second_batch(self, *a, **k):
        calls.append(1)
        if len(calls) == 2:
            raise KeyboardInterrupt
        return real(self, *a, **k)

    monkeypatch.setattr(backends.RecordingBackend, "run", interrupt_at_the_second_batch)
    run_dir = tmp_path / "run"
    cli.main(RESUMABLE + ["--run-dir", str(run_dir), "-q"])  # interrupted
    assert len(calls) == 2  # interrupted at the second of three batches: only the first recorded
    assert len(list((run_dir / "batches").glob("*.npz"))) == 1
    monkeypatch.setattr(backends.RecordingBackend, "run", real)
    capsys.readouterr()
    assert _json(capsys, RESUMABLE + ["--run-dir", str(run_dir), "--resume"]) == want
    assert len(list((run_dir / "batches").glob("*.npz"))) == 3
    assert not list(run_dir.rglob("*.tmp"))
    # all batches recorded: a second resume replays them and still gives the same numbers
    assert _json(capsys, RESUMABLE + ["--run-dir", str(run_dir), "--resume", "--threads", "1"]) == want


def test_a_run_dir_of_other_inputs_is_refused_naming_the_input(capsys, tmp_path):
    run_dir = tmp_path / "run"
    assert cli.main(["simulate", "--deals", "2000", "--run-dir", str(run_dir), "-q", "--json"]) == 0
    capsys.readouterr()
    code = cli.main(["simulate", "--deals", "2000", "--seed", "2", "--run-dir", str(run_dir), "--resume", "-q"])
    err = capsys.readouterr().err
    assert code == 2 and "seed=1, not 2" in err and err.count("\n") == 1
    code = cli.main(["table", "--deals", "2000", "--run-dir", str(run_dir), "--resume", "-q"])
    err = capsys.readouterr().err
    assert code == 2 and "'simulate' run" in err
    code = cli.main(["simulate", "--deals", "2000", "--run-dir", str(run_dir), "-q"])  # without --resume
    err = capsys.readouterr().err
    assert code == 2 and "--resume" in err and "not empty" in err
    code = cli.main(["simulate", "--deals", "2000", "--run-dir", str(tmp_path / "none"), "--resume", "-q"])
    err = capsys.readouterr().err
    assert code == 2 and "no run to continue" in err


@pytest.mark.slow  # a Dask cluster
def test_a_worker_killed_mid_run_has_its_tasks_rescheduled_and_the_numbers_do_not_change(cluster):
    """Last in the module: the cluster's nanny restarts the killed worker afterwards."""
    lc, client = cluster
    args = _sim_args(1)
    n, chunk = 300_000, 3000
    want = driver.run_units(driver.SIMULATE, 21, 0, n, chunk, args)
    victim = sorted(client.run(os.getpid).values())[0]
    seen = []

    def kill_after_first_task(done):
        seen.append(done)
        if len(seen) == 1:
            os.kill(victim, signal.SIGKILL)

    backend = backends.DaskBackend(client, units_per_task=chunk)
    got = backend.run(driver.SIMULATE, 21, 0, n, chunk, args, None, False, progress=kill_after_first_task)
    assert len(seen) == n // chunk and seen[-1] == n  # the kill landed with 99 tasks to go
    np.testing.assert_array_equal(got.sum(axis=0), want)
    with pytest.raises(ProcessLookupError):
        os.kill(victim, 0)
