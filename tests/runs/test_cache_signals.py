"""Faults the kernel cache and the signal handling must survive, injected for real.

The kernel cache: a truncated index or a garbage data file, a cache path that is a file, a
read-only cache folder (as the user nobody when the tests run as root). Each is tried on a tiny
numba kernel in a temporary cache folder, in a fresh process (numba reads its cache once per
process), never on the driver: recompiling the driver takes minutes.

Signals, real ones to real ``belote`` processes: SIGTERM to a pimc duel, after a command has
finished (from its own ``atexit`` function, and from outside during its exit), to a
``duel --cluster``'s whole process group and to it while its cluster starts.

The compile notice of ``simulate --log`` and ``duel --dd-loss``, whose kernels are not the driver's.
"""

import json
import os
import signal
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import pytest

pytestmark = pytest.mark.slow  # faults injected into belote subprocesses: out of make test-fast (make test runs them)

TINY = "from numba import njit\n\n@njit(cache=True)\ndef twice(x):\n    return 2 * x\n"

# What a process of the analyser does: import kernelcache (the driver does), let the CLI's start-up
# check run when asked, then call a cached kernel.
RUN_TINY = (
    "import sys\n"
    "sys.path.insert(0, sys.argv[1])\n"
    "from analyzer.runs import kernelcache\n"
    "if 'cli' in sys.argv[2:]:\n"
    "    kernelcache.use_writable_cache()\n"
    "import tiny\n"
    "if 'lock' in sys.argv[2:]:\n"
    "    kernelcache.compile_once(tiny.twice, (3,), 'tiny.twice')\n"
    "print('result', tiny.twice(3))\n"
    "print('cached in', tiny.twice.stats.cache_path)\n"
    "if 'child' in sys.argv[2:]:  # a process started from this one, as a local Dask cluster's worker\n"
    "    import subprocess\n"
    "    code = 'import analyzer, numba.core.config as c; print(c.CACHE_DIR)'\n"
    "    print('child cache', subprocess.run([sys.executable, '-c', code], capture_output=True, text=True).stdout)\n"
)


def _env(tmp_path, cache, **more):
    env = {k: v for k, v in os.environ.items() if k not in ("NUMBA_CACHE_DIR", "BELOTE_CACHE_DIR")}
    return env | {"NUMBA_CACHE_DIR": str(cache), "NUMBA_DEBUG_CACHE": "1", "TMPDIR": str(tmp_path / "tmp")} | more


def _run_tiny(tmp_path, cache, *flags, user=()):
    (tmp_path / "tmp").mkdir(exist_ok=True)
    (tmp_path / "tiny.py").write_text(TINY)
    return subprocess.run([*user, sys.executable, "-c", RUN_TINY, str(tmp_path), *flags], env=_env(tmp_path, cache),
                          capture_output=True, text=True, timeout=120)


def _belote_lines(err: str) -> list[str]:
    return [line for line in err.splitlines() if line.startswith("belote:")]


@pytest.mark.parametrize("damage", ["truncated index", "garbage data"])
def test_an_unreadable_kernel_cache_file_is_said_removed_and_compiled_again(tmp_path, damage):
    cache = tmp_path / "cache"
    first = _run_tiny(tmp_path, cache)
    assert first.returncode == 0 and "data saved to" in first.stdout, first.stderr
    if damage == "truncated index":
        bad = next(cache.rglob("tiny.twice-*.nbi"))
        bad.write_bytes(bad.read_bytes()[:10])
    else:
        bad = next(cache.rglob("tiny.twice-*.nbc"))
        bad.write_bytes(b"garbage\n")
    hurt = _run_tiny(tmp_path, cache)
    assert hurt.returncode == 0 and "result 6" in hurt.stdout, hurt.stderr
    said = _belote_lines(hurt.stderr)
    assert len(said) == 1 and str(bad) in said[0] and "unreadable" in said[0] and "compiling again" in said[0], said
    assert "Traceback" not in hurt.stderr
    assert "data saved to" in hurt.stdout  # compiled again and saved over the bad file
    healed = _run_tiny(tmp_path, cache)  # and the next run loads it, quietly
    assert healed.returncode == 0 and "result 6" in healed.stdout and _belote_lines(healed.stderr) == []
    assert "data loaded from" in healed.stdout and "data saved to" not in healed.stdout


def _fresh_root(tmp_path) -> Path:
    return tmp_path / "tmp" / f"belote-analyzer-kernels-{os.getuid()}"


def test_a_cache_path_that_is_a_file_is_said_and_replaced_by_a_fresh_folder(tmp_path):
    cache = tmp_path / "cache"
    cache.write_text("not a folder")
    run = _run_tiny(tmp_path, cache, "cli", "lock")
    assert run.returncode == 0 and "result 6" in run.stdout, run.stderr
    said = _belote_lines(run.stderr)
    assert len(said) == 1 and str(cache) in said[0] and "compiling into" in said[0], said
    fresh = _fresh_root(tmp_path) / "cache"  # named after the unusable folder
    assert f"cached in {fresh}" in run.stdout and list(fresh.rglob("tiny.twice-*.nbi"))
    assert list(fresh.rglob("tiny.twice.lock"))  # compile_once locked where numba saved, not in the file's place
    again = _run_tiny(tmp_path, cache, "cli")  # the same fresh folder: loaded, not compiled again
    assert again.returncode == 0 and "data loaded from" in again.stdout and "data saved to" not in again.stdout


class _Planted:
    """Marks that a planted kernel index was unpickled: the code it carries touches ``path``."""

    def __init__(self, path):
        self.path = str(path)

    def __reduce__(self):
        return (os.system, (f"touch {self.path}",))


@pytest.mark.parametrize("how", ["another user's folder", "a folder others can write"])
def test_a_planted_fallback_cache_is_never_loaded(tmp_path, how):
    """The probe's attack: the cache cannot be written, so ``belote`` falls back to
    ``<temp>/belote-analyzer-kernels-UID``, which another user created first with an index whose
    unpickling runs code. Before, that code ran as the victim (the marker appeared). Now the folder
    is refused in one line and a new private folder of the run's own is used, and handed to the
    processes the run starts (a local Dask cluster's workers)."""
    import pickle

    cache = tmp_path / "cache"
    cache.write_text("not a folder")  # the cache cannot be used: the fallback is taken
    planted = _fresh_root(tmp_path) / "cache"
    first = _run_tiny(tmp_path, planted)  # a real index where the victim will look, then replaced by the attacker's
    assert first.returncode == 0, first.stderr
    marker = tmp_path / "ran-as-the-victim"
    (index,) = planted.rglob("tiny.twice-*.nbi")
    index.write_bytes(pickle.dumps(_Planted(marker)))
    home = _fresh_root(tmp_path)
    if how == "another user's folder":
        for p in [home, *home.rglob("*")]:
            os.lchown(p, 65534, 65534)  # the attacker's, as if nobody had made them
    else:
        home.chmod(0o777)
    run = _run_tiny(tmp_path, cache, "cli", "child")
    assert not marker.exists(), "the planted index was unpickled"
    assert run.returncode == 0 and "result 6" in run.stdout, run.stderr
    said = _belote_lines(run.stderr)
    assert len(said) == 1 and str(cache) in said[0] and "not safe to load code from" in said[0], said
    assert ("belongs to another user" if how == "another user's folder" else "other users can write") in said[0]
    cached_in = Path(run.stdout.split("cached in ")[1].split()[0])
    child = Path(run.stdout.split("child cache ")[1].split()[0])  # what the run handed to a process it started
    assert child in cached_in.parents and home not in cached_in.parents, (child, cached_in)
    assert child.parent.name.startswith(f"{home.name}-")  # mkdtemp's: private, this run's own
    assert not child.parent.exists()  # removed when the run ended


def test_the_fallback_cache_folder_is_created_private(tmp_path):
    cache = tmp_path / "cache"
    cache.write_text("not a folder")
    run = _run_tiny(tmp_path, cache, "cli")
    assert run.returncode == 0, run.stderr
    assert _fresh_root(tmp_path).stat().st_mode & 0o777 == 0o700


def test_compile_once_locks_where_numba_caches_when_its_cache_path_is_a_file(tmp_path):
    """A library caller, without the CLI's start-up check: numba falls back to a folder of its
    own (``__pycache__`` beside the source) and the lock goes there, not into the file's place."""
    cache = tmp_path / "cache"
    cache.write_text("not a folder")
    run = _run_tiny(tmp_path, cache, "lock")
    assert run.returncode == 0 and "result 6" in run.stdout, run.stderr
    assert list((tmp_path / "__pycache__").glob("tiny.twice.lock"))


def test_no_writable_place_for_the_cache_is_one_line_naming_the_fix(tmp_path, monkeypatch):
    import numba.core.config

    from analyzer.errors import BeloteError
    from analyzer.runs import kernelcache

    (tmp_path / "cache").write_text("not a folder")
    (tmp_path / "tmp").write_text("not a folder either")
    monkeypatch.setattr(numba.core.config, "CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path / "tmp"))
    with pytest.raises(BeloteError, match="set BELOTE_CACHE_DIR to a writable folder") as e:
        kernelcache.use_writable_cache()
    assert str(tmp_path / "cache") in str(e.value) and "\n" not in str(e.value)
    assert numba.core.config.CACHE_DIR == str(tmp_path / "cache")  # left as it was


def test_a_read_only_cache_folder_is_said_and_replaced_by_a_fresh_folder(tmp_path):
    """A cache folder this user cannot write. As root (the suite's usual user here, for whom no
    permission bit makes a folder read-only) it is a read-only bind mount in a private mount
    namespace of the child (``unshare -m``: nothing leaks into the machine's mounts); as any other
    user, a folder without write permission. Before, the test ran as the user nobody, who cannot
    read the checkout's virtual environment when the clone sits in a private folder (a ``mktemp -d``
    folder, root's home): ``No module named 'numpy'`` in every fresh-clone run there."""
    cache = tmp_path / "cache"
    cache.mkdir()
    (tmp_path / "tmp").mkdir()
    (tmp_path / "tiny.py").write_text(TINY)
    command = [sys.executable, "-c", RUN_TINY, str(tmp_path), "cli", "lock"]
    if os.geteuid() == 0:
        if shutil.which("unshare") is None:
            pytest.skip("no unshare: cannot make a folder read-only for root")
        probe = subprocess.run(["unshare", "-m", "sh", "-c", "mount -t tmpfs tmpfs /mnt"], capture_output=True)
        if probe.returncode:
            pytest.skip(f"cannot mount in a private namespace here: {probe.stderr.decode().strip()}")
        mount = f"mount --bind {cache} {cache} && mount -o remount,bind,ro {cache} || exit 99; exec \"$@\""
        command = ["unshare", "-m", "sh", "-c", mount, "sh", *command]
        denied = "Read-only file system"
    else:
        cache.chmod(0o555)
        denied = "Permission denied"
    run = subprocess.run(command, env=_env(tmp_path, cache), capture_output=True, text=True, timeout=120)
    assert run.returncode == 0 and "result 6" in run.stdout, run.stderr
    said = _belote_lines(run.stderr)
    assert len(said) == 1 and str(cache) in said[0] and denied in said[0], said
    fresh = _fresh_root(tmp_path) / "cache"
    assert f"cached in {fresh}" in run.stdout and "Traceback" not in run.stderr
    assert not list(cache.iterdir())  # nothing written into the read-only folder


@pytest.mark.parametrize("where", ["the cache folder", "a package's subfolder"])
def test_the_cli_checks_the_cache_folder_before_any_command(belote, tmp_path, where):
    from analyzer.runs import kernelcache

    cache = tmp_path / "cache"
    env = belote.with_cache(cache) | {"TMPDIR": str(tmp_path)}
    if where == "the cache folder":
        cache.write_text("not a folder")
    else:  # numba's folder for analyzer/runs under this checkout's digest
        digest = Path(subprocess.run([sys.executable, "-c", "import analyzer; print(analyzer._kernel_cache_dir())"],
                                     env=env, capture_output=True, text=True, check=True).stdout.strip())
        runs = kernelcache.cache_folder("runs", digest)
        runs.parent.mkdir(parents=True)
        runs.write_text("not a folder")
    p = belote("--version", env=env, timeout=120)
    assert p.returncode == 0 and p.stdout.startswith("belote-analyzer")
    said = _belote_lines(p.stderr)
    fresh = tmp_path / f"belote-analyzer-kernels-{os.getuid()}"
    assert len(said) == 1 and str(cache) in said[0] and f"compiling into {fresh}" in said[0], p.stderr


# --- signals --------------------------------------------------------------------------------------------


def _wait_for(predicate, seconds: float) -> None:
    end = time.monotonic() + seconds
    while not predicate() and time.monotonic() < end:
        time.sleep(0.1)


def test_a_searching_duel_runs_in_the_small_chunks_of_searching_policies(monkeypatch):
    from analyzer.questions import duel as D
    from analyzer.rules import Rules
    from analyzer.runs import driver
    from analyzer.runs.simulate import SEARCH_BATCH, SEARCH_CHUNK

    seen = []
    monkeypatch.setattr(driver, "run_units", lambda kind, seed, first, n, chunk, *a: seen.append((n, chunk)) or 0)
    monkeypatch.setattr(D, "_results", lambda *a: None)
    rules = Rules("classic")
    D.duel(rules, D.parse_set("heuristic/pimc", "--a", 4), D.parse_set("heuristic/heuristic", "--b", 4), deals=200)
    assert seen and all(n <= SEARCH_BATCH and chunk == SEARCH_CHUNK for n, chunk in seen), seen
    seen.clear()
    D.duel(rules, D.parse_set("heuristic/heuristic", "--a", 4), D.parse_set("random/random", "--b", 4), deals=200)
    assert seen == [(200, D.CHUNK)]  # cheap policies keep their big chunks


def test_sigterm_stops_a_pimc_duel_within_seconds(belote):
    """Before: the Python side saw the signal only after a chunk of 2,048 deals (10-24 s)."""
    p = belote.popen("duel", "--a", "heuristic/pimc", "--b", "heuristic/heuristic", "--deals", "100000", "--quiet")
    time.sleep(4)  # past the start-up, playing
    assert p.poll() is None
    sent = time.monotonic()
    p.send_signal(signal.SIGTERM)
    _, err = p.communicate(timeout=60)
    assert time.monotonic() - sent < 5, time.monotonic() - sent
    assert p.returncode == 130 and err.strip() == "belote: interrupted"


# The console script's entry point, with an atexit function of its own: it runs after the command,
# at the end of the process, which is where a late signal lands.
LATE = (
    "import atexit, os, signal, subprocess, sys\n"
    "sys.argv = ['belote', *sys.argv[2:]]\n"
    "import cli\n"
    "if os.environ['LATE'] == 'self':\n"
    "    atexit.register(lambda: (os.kill(os.getpid(), signal.SIGTERM), __import__('time').sleep(0.3)))\n"
    "else:  # from outside, 50 ms on: during what used to be Python's teardown\n"
    "    atexit.register(lambda: subprocess.Popen(['sh', '-c', f'sleep 0.05; kill -TERM {os.getpid()} 2>/dev/null']))\n"
    "cli.entry()\n"
)


def _late(how, *args):
    root = Path(__file__).resolve().parents[2]
    return subprocess.run([sys.executable, "-c", LATE, str(root), *args], cwd=root, env=dict(os.environ, LATE=how),
                          capture_output=True, text=True, timeout=300)


def test_a_sigterm_after_the_command_finished_says_so_with_130():
    p = _late("self", "simulate", "--deals", "100", "--quiet", "--json")
    assert p.returncode == 130, (p.returncode, p.stderr)
    assert p.stderr.strip() == "belote: interrupted after the command had finished (its output is complete)"
    assert json.loads(p.stdout)["inputs"]["deals"] == 100  # the whole output, flushed


def test_a_sigterm_during_the_exit_never_kills_the_process_with_143():
    """Before: Python's teardown (a quarter of a second after a command that loaded numba) resets
    the handlers to the defaults, and the SIGTERM killed the process: 143, no message."""
    p = _late("outside", "simulate", "--deals", "100", "--quiet", "--json")
    assert p.returncode in (0, 130) and p.returncode != -signal.SIGTERM, (p.returncode, p.stderr)
    assert json.loads(p.stdout)["inputs"]["deals"] == 100 and "Traceback" not in p.stderr


def _duel_on_a_cluster(belote, tmp_path):
    return belote.popen("duel", "--cluster", "local:2", "--a", "heuristic/heuristic", "--b", "heuristic/random",
                        "--deals", "100000000", "--quiet", env=dict(os.environ, TMPDIR=str(tmp_path)),
                        start_new_session=True)


@pytest.mark.slow
def test_sigterm_to_the_process_group_of_duel_cluster_leaves_no_dask_lock(belote, tmp_path):
    """Each Dask worker holds ``dask-scratch-space/worker-*.dirlock`` in the temp folder while it
    runs; killed by the group's SIGTERM before the parent could stop it, it left the file behind."""
    pytest.importorskip("distributed")
    p = _duel_on_a_cluster(belote, tmp_path)
    scratch = tmp_path / "dask-scratch-space"
    _wait_for(lambda: len(list(scratch.glob("worker-*.dirlock"))) == 2, 120)
    assert len(list(scratch.glob("worker-*.dirlock"))) == 2, "the workers did not start"
    time.sleep(2)  # running tasks
    os.killpg(p.pid, signal.SIGTERM)  # the parent and its workers, as a terminal or a service manager does
    _, err = p.communicate(timeout=120)
    assert p.returncode == 130 and err.strip() == "belote: interrupted", err
    assert not list(scratch.glob("*.dirlock")), list(scratch.iterdir())


@pytest.mark.slow
def test_sigterm_while_the_dask_cluster_starts_closes_it_without_a_traceback(belote, tmp_path):
    pytest.importorskip("distributed")
    p = _duel_on_a_cluster(belote, tmp_path)
    scratch = tmp_path / "dask-scratch-space"
    _wait_for(lambda: list(scratch.glob("scheduler-*.dirlock")), 120)  # the cluster is starting
    p.send_signal(signal.SIGTERM)
    _, err = p.communicate(timeout=120)
    assert p.returncode == 130 and err.strip() == "belote: interrupted", err
    assert not list(scratch.glob("*.dirlock")), list(scratch.iterdir())


@pytest.mark.slow
def test_sigint_while_a_forced_big_cluster_starts_its_workers_stops_within_seconds(belote, tmp_path):
    """``--cluster local:48!`` on 2 cores takes half a minute and more to start its workers. Before,
    signals were held for the whole start, so Ctrl-C waited for every worker; now only the scheduler's
    start holds them, and the workers start a few at a time."""
    pytest.importorskip("distributed")
    p = belote.popen("simulate", "--cluster", "local:48!", "--deals", "100000", "--quiet",
                     env=dict(os.environ, TMPDIR=str(tmp_path)), start_new_session=True)
    scratch = tmp_path / "dask-scratch-space"
    _wait_for(lambda: list(scratch.glob("scheduler-*.dirlock")), 120)  # the cluster is starting
    time.sleep(3)  # its workers too
    assert p.poll() is None and len(list(scratch.glob("worker-*.dirlock"))) < 48
    sent = time.monotonic()
    p.send_signal(signal.SIGINT)
    try:
        _, err = p.communicate(timeout=120)
    finally:
        with __import__("contextlib").suppress(ProcessLookupError):
            os.killpg(p.pid, signal.SIGKILL)  # whatever is left of a run that failed the test
    took = time.monotonic() - sent
    assert p.returncode == 130 and err.strip() == "belote: interrupted", err
    assert took < 15, f"{took:.1f} s from the signal to the exit"
    assert not list(scratch.glob("*.dirlock")), list(scratch.iterdir())


# --- the compile notice of the options that call other kernels ------------------------------------------


@pytest.mark.parametrize("command, args, cold", [
    ("simulate --log", ["simulate", "--deals", "10", "--log", "{tmp}/hands.jsonl"], ["simulate._one_hand"]),
    ("duel --dd-loss", ["duel", "--a", "heuristic/heuristic", "--b", "heuristic/random", "--deals", "10", "--dd-loss",
                        "--dd-deals", "2"], ["units.trace_duel", "solver.solve_cards"]),
])
def test_the_log_and_dd_loss_kernels_are_announced_when_not_cached(belote, tmp_path, command, args, cold,
                                                                    cache_without):
    """A cache holding everything but the option's own kernels (links to this checkout's cache):
    the driver is warm, so only the notice of those kernels can speak. Interrupted once it has."""

    from analyzer.runs import kernelcache

    if kernelcache.missing_kernels("simulate"):  # a cold cache (CI): compile it, or wait for the compile under way
        from analyzer.runs.backends import _warm

        _warm()
    dst = cache_without(cold)
    assert kernelcache.missing_kernels(command, dst) == [k for k in kernelcache.ENTRY_KERNELS[command]
                                                        if ".".join(k[1:]) in cold]
    p = belote.popen(*(a.format(tmp=tmp_path) for a in args), env=belote.with_cache(tmp_path / "cache"))
    first = p.stderr.readline()  # printed before any work
    p.send_signal(signal.SIGINT)
    p.communicate(timeout=300)
    assert first.strip() == "compiling kernels (first run only, under a minute)"
