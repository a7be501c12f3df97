"""Faults injected into ``belote learn`` (issue 48): an install the user cannot write under
``--write`` (another user, a read-only or a mounted weights file), a SIGKILLed run's workers and
its temporary weights files, and the bounds of ``--threads``, ``--deals`` and ``--ridge``.

The faults are real: the second user is ``nobody`` (``setpriv``: root ignores file modes), the
read-only and the mounted module are bind mounts in a mount namespace of the run's own
(``unshare``: nothing outside it sees them), the kills are SIGKILLs of real processes. Root only
where they need it (skipped otherwise).
"""

import json
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import textwrap
import time
from pathlib import Path

import pytest

from analyzer.errors import BeloteError
from analyzer.players.net_files import NET_PATH, header_path
from analyzer.runs import learn as L
from conftest import as_nobody
from belote_command import Belote, listing

# belote subprocesses, some of them training: out of make test-fast (make test runs them); one at a time across the
# workers with every test that writes beside the shipped weights or runs a learn (conftest.net_data_lock)
pytestmark = [pytest.mark.slow, pytest.mark.usefixtures("net_data_lock")]

WEIGHTS = NET_PATH  # analyzer/players/net_data/net.npy
HEADER = header_path(NET_PATH)  # net.json, which vouches for it
PACKAGE = WEIGHTS.parent  # analyzer/players/net_data, where --write replaces both
SMALL = ["learn", "--variant", "piekjas", "--players", "2", "--deals", "20", "--test-deals", "10", "--threads", "1"]


def temporaries() -> list[str]:
    """The temporary weights files in the package folder (``.net*.npy.PID.tmp``, ``.net*.npy.PID.old.tmp``,
    ``.net*.json.PID.tmp``)."""
    return sorted(p.name for p in PACKAGE.iterdir() if re.fullmatch(r"\.net\w*\.(npy|json)\.\d+(\.old)?\.tmp", p.name))


def pair() -> tuple[bytes, bytes]:
    """The shipped weights files' bytes: the array and its header."""
    return WEIGHTS.read_bytes(), HEADER.read_bytes()


@pytest.fixture(autouse=True)
def no_leftovers():
    """No temporary weights file of an earlier run, killed while its test ran (its next run would say so)."""
    L.remove_stale(WEIGHTS)


def needs_root():
    if os.geteuid() != 0:
        pytest.skip("needs root (another user, a mount namespace)")


# --- --write where the weights files cannot be replaced: refused before the work, or one line after it


def test_write_on_an_install_another_user_cannot_write_is_refused_before_any_work(belote):
    user, env = as_nobody()  # skipped, with the reason, where nobody cannot run this checkout
    home = Path(tempfile.mkdtemp(prefix="belote-nobody-"))  # the kernel cache and the folder nobody runs in
    try:
        os.chown(home, 65534, 65534)
        env = dict(env, BELOTE_CACHE_DIR=str(home / "cache"))
        before = pair()
        t0 = time.monotonic()
        p = subprocess.run([*user, "-c", "import sys; sys.argv[0] = 'belote'; import cli; cli.entry()", *SMALL,
                            "--write", "-q"], capture_output=True, text=True, cwd=home, env=env, timeout=900)
        seconds = time.monotonic() - t0
    finally:
        shutil.rmtree(home, ignore_errors=True)
    line = belote.error_line(p)
    assert line == (f"belote: error: --write cannot replace the weights file {WEIGHTS}: Permission denied (install "
                    "belote-analyzer where you can write (a checkout of your own: pip install -e .), or run without "
                    "--write)")
    assert p.stdout == "" and seconds < 60  # before any work: no training (a cold kernel cache alone takes minutes)
    assert pair() == before and temporaries() == []


def in_namespace(mode: str, args: list[str], copy: Path, target: Path = WEIGHTS) -> subprocess.CompletedProcess:
    """``belote ARGS`` in a mount namespace of its own where the weights file ``target`` (the array or
    its header) is a bind mount of a copy of itself: ``ro`` read-only (refused up front: the file cannot
    be opened for writing), ``rw`` writable but a mount point, which no rename can replace (as a file
    mounted into a container)."""
    script = ('cp "$1" "$2" && mount --bind "$2" "$1" && { [ "$3" = rw ] || mount -o remount,bind,ro "$1"; } '
              '&& shift 3 && exec "$@"')
    p = subprocess.run(["unshare", "--mount", "--propagation", "private", "sh", "-c", script, "sh", str(target),
                        str(copy), mode, Belote.path, *args], capture_output=True, text=True, timeout=900)
    if "unshare failed" in p.stderr or "mount: " in p.stderr:
        pytest.skip(f"cannot mount here: {p.stderr.strip()}")
    return p


@pytest.mark.parametrize("target", [WEIGHTS, HEADER], ids=["array", "header"])
def test_a_read_only_weights_file_is_refused_before_any_work(belote, target, tmp_path):
    needs_root()
    before = pair()
    p = in_namespace("ro", [*SMALL, "--write", "-q"], tmp_path / "copy", target)
    line = belote.error_line(p)
    assert line.startswith(f"belote: error: --write cannot replace the weights file {target}: Read-only file system")
    assert line.endswith("or run without --write)") and p.stdout == ""
    assert temporaries() == [] and pair() == before


@pytest.mark.parametrize("as_json,target", [(False, WEIGHTS), (True, WEIGHTS), (False, HEADER)],
                         ids=["text", "json", "header"])
def test_a_write_that_fails_after_the_work_prints_the_results_then_one_line(belote, as_json, target, tmp_path):
    # a mount point passes the checks (a file can be created beside it, it opens for writing) and fails
    # only at the rename, after the training: the held-out results are printed all the same. The header
    # mounted: the array renamed into place first is put back, the pair as it was
    needs_root()
    before = pair()
    p = in_namespace("rw", [*SMALL, "--write", "-q", *(["--json"] if as_json else [])], tmp_path / "copy", target)
    line = belote.error_line(p)
    assert line == (f"belote: error: cannot write the weights file {target}: Device or resource busy (install "
                    "belote-analyzer where you can write (a checkout of your own: pip install -e .), or run without "
                    "--write)")
    if as_json:
        d = json.loads(p.stdout)
        assert d["held_out"]["decisions"] > 0 and d["held_out"]["deals"] == 10
    else:
        assert "judged on" in p.stdout and "difference" in p.stdout and "weights written" not in p.stdout
    assert temporaries() == []  # the temporary files removed after the failed rename
    assert pair() == before and (tmp_path / "copy").read_bytes() == target.read_bytes()  # the mounted file as it was


# --- a SIGKILLed run: its workers die with it, and the next run removes its temporary file -------


def children(pid: int) -> set[int]:
    """The processes ``pid`` forked that still run its own program (its pool workers)."""
    out = set()
    try:
        cmdline = Path(f"/proc/{pid}/cmdline").read_bytes()
        for task in Path(f"/proc/{pid}/task").iterdir():
            for c in (task / "children").read_text().split():
                if Path(f"/proc/{c}/cmdline").read_bytes() == cmdline:
                    out.add(int(c))
    except OSError:  # gone meanwhile
        pass
    return out


def running(pid: int) -> bool:
    """Whether ``pid`` exists and is not a zombie (a dead process no one has reaped yet)."""
    try:
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0] != "Z"
    except (OSError, IndexError):
        return False


def test_the_workers_of_a_sigkilled_learn_die_with_it(tmp_path):
    p = subprocess.Popen([Belote.path, "learn", "--variant", "piekjas", "--players", "2", "--deals", "40000",
                          "--test-deals", "10", "--threads", "2", "-q"], cwd=tmp_path, stdout=subprocess.DEVNULL,
                         stderr=subprocess.DEVNULL)
    workers: set[int] = set()
    try:
        deadline = time.monotonic() + 120
        while len(workers) < 2 and time.monotonic() < deadline and p.poll() is None:
            time.sleep(0.1)
            workers = children(p.pid)
        assert len(workers) == 2, "the run ended or started no workers"
        p.kill()  # SIGKILL
        p.wait()
        deadline = time.monotonic() + 10
        while any(map(running, workers)) and time.monotonic() < deadline:
            time.sleep(0.1)
        assert not any(map(running, workers)), "workers outlived their parent"
    finally:
        p.kill()
        p.wait()
        for w in workers:  # what this test started, if the fix fails
            if running(w):
                os.kill(w, signal.SIGKILL)


def test_a_worker_whose_parent_died_before_it_asked_to_die_with_it_ends_itself():
    # the race PR_SET_PDEATHSIG leaves open: the parent gone before the call, so no signal will come
    script = textwrap.dedent("""
        import os, sys, time
        from analyzer.runs.learn import _die_with_parent

        parent = os.getpid()
        r, w = os.pipe()
        if os.fork() == 0:  # the worker
            os.close(w)
            os.read(r, 1)  # end of file: the parent has exited
            for _ in range(3000):  # until it is another process's child (at most 30 s)
                if os.getppid() != parent:
                    break
                time.sleep(0.01)
            print("starting", flush=True)
            _die_with_parent(parent)
            print("still running", flush=True)
            os._exit(0)
        os._exit(0)  # the parent dies before its worker starts
    """)
    p = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=60)
    assert p.stdout == "starting\n", p.stdout + p.stderr  # it got to the call, and did not run on


def test_a_write_killed_before_its_renames_is_cleaned_up_by_the_next_run(belote, tmp_path):
    before = pair()
    p = subprocess.Popen([sys.executable, "-c", textwrap.dedent("""
        import os, signal
        import numpy as np
        from analyzer.players.net import N_WEIGHTS
        from analyzer.players.net_files import NET_PATH
        from analyzer.runs import learn

        def die(src, dst):  # the temporary files written, then SIGKILL before the first rename
            os.kill(os.getpid(), signal.SIGKILL)

        os.replace = die
        learn.write_weights(NET_PATH, {"piekjas2": np.zeros(N_WEIGHTS)}, {"piekjas2": {}})
    """)])
    assert p.wait(timeout=120) == -signal.SIGKILL
    left = [f".net.json.{p.pid}.tmp", f".net.npy.{p.pid}.old.tmp", f".net.npy.{p.pid}.tmp"]
    assert temporaries() == left and pair() == before  # the fault's state: the files as they were
    r = belote(*SMALL, "-q", cwd=tmp_path)
    assert r.returncode == 0, r.stderr
    assert r.stderr.splitlines() == [f"belote: a learn --write that did not finish (PID {p.pid}) left its temporary "
                                     f"weights files in {PACKAGE} (the files there are as they were): "
                                     + "; ".join(f"removed {name}" for name in left)]
    assert temporaries() == [] and pair() == before


def test_a_write_killed_between_its_renames_is_finished_not_removed_by_the_next_run(tmp_path):
    # the new array in place, the old header, and the header that vouches for the new array beside them:
    # the next run renames that header into place (the write as it meant to end), not away
    from analyzer.players.net import N_WEIGHTS

    path = tmp_path / "net.npy"
    L.write_weights(path, {}, {})
    p = subprocess.Popen([sys.executable, "-c", textwrap.dedent(f"""
        import os, signal
        import numpy as np
        from analyzer.runs import learn

        real = os.replace
        def replace(src, dst):  # the array renamed, then SIGKILL before the header's rename
            if str(dst).endswith(".json"):
                os.kill(os.getpid(), signal.SIGKILL)
            real(src, dst)
        os.replace = replace
        learn.write_weights({str(path)!r}, {{"classic": np.ones({N_WEIGHTS})}}, {{"classic": {{"seed": 5}}}})
    """)])
    assert p.wait(timeout=120) == -signal.SIGKILL
    assert listing(tmp_path) == sorted([f".net.json.{p.pid}.tmp", f".net.npy.{p.pid}.old.tmp", "net.json", "net.npy"])
    assert L.remove_stale(path) == (f"belote: a learn --write killed between its two renames (PID {p.pid}) left {path} "
                                    f"without its header: finished it (.net.json.{p.pid}.tmp renamed to net.json)")
    assert listing(tmp_path) == ["net.json", "net.npy"]
    assert json.loads((tmp_path / "net.json").read_text())["provenance"]["classic"] == {"seed": 5}


def test_a_temporary_weights_file_of_a_live_process_is_not_touched(tmp_path):
    sleeper = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(60)"])
    try:
        ours = [f".net.npy.{sleeper.pid}.tmp", f".net.npy.{sleeper.pid}.old.tmp", f".net.json.{sleeper.pid}.tmp"]
        for name in ours:
            (tmp_path / name).write_text("being written")
        (tmp_path / ".net.npy.x.tmp").write_text("not ours: no PID")
        assert L.remove_stale(tmp_path / "net.npy") is None
        assert listing(tmp_path) == sorted([*ours, ".net.npy.x.tmp"])
    finally:
        sleeper.kill()
        sleeper.wait()


# --- the bounds: --threads, --deals, --ridge -----------------------------------------------------


def test_threads_beyond_the_cores_are_refused_in_simulate_s_words(belote, tmp_path):
    cores = len(os.sched_getaffinity(0))
    over = str(cores + 1)
    line = belote.error(*SMALL[:-1], over, "-q", cwd=tmp_path, timeout=300)
    assert line == belote.error("simulate", "--deals", "10", "--threads", over, "-q")
    assert line == f"belote: error: --threads must be between 1 and {cores} on this machine, not {over}"
    assert cores == L.cores()


def test_deals_beyond_the_memory_are_refused_in_one_line_with_the_figure(belote, tmp_path):
    line = belote.error("learn", "--deals", "10000000", "--threads", "1", "-q", cwd=tmp_path, timeout=120)
    assert line.startswith("belote: error: --deals 10,000,000 and --test-deals 20,000 need about ")
    assert "GB of memory (24 KB a classic deal, held twice while the deals are put together)" in line
    assert " GB is available: at most --deals " in line and line.endswith("with --test-deals 20,000 here")


def test_the_deals_the_memory_refusal_suggests_fit_and_one_more_does_not():
    available = 3e9
    with pytest.raises(BeloteError, match="at most --deals ") as e:
        L.check_memory("dekjas", 1_000_000, 10_000, 2, available)
    most = int(str(e.value).split("at most --deals ")[1].split()[0].replace(",", ""))
    need = [L.memory_needed("dekjas", n, 10_000, 2)[0] for n in (most, most + 1)]
    assert need[0] <= available < need[1]
    L.check_memory("dekjas", most, 10_000, 2, available)  # accepted
    # held-out deals that alone exceed it: the fix is fewer of them, not fewer training deals
    with pytest.raises(BeloteError, match="fewer --test-deals, or free some memory"):
        L.check_memory("dekjas", 10, 100_000, 2, available)


def test_the_memory_a_deal_takes_is_what_its_rows_take():
    # the estimate's bytes per row are a Decisions row's, and its rows per deal the measured mean (the
    # table's, rounded up) within 4 standard errors of a fresh sample's (per-deal rows: SD 8 in Piekjas 3)
    from analyzer.rules import Rules

    d = L.decisions(Rules.from_label("piekjas3"), seed=5, deals=200)
    rows = d.x.shape[0]
    nbytes = d.x.nbytes + d.loss.nbytes + d.g.nbytes + d.trick.nbytes + d.setting.nbytes
    assert abs(nbytes / rows - L.ROW_BYTES) < 2  # 400 bytes and a decision's 16 over its 4 rows or so
    assert abs(rows / 200 - L.ROWS_PER_DEAL["piekjas3"]) < 4 * 8 / 200**0.5


def test_ridge_zero_is_refused_in_one_line(belote, tmp_path):
    line = belote.error(*SMALL, "--ridge", "0", "-q", cwd=tmp_path, timeout=300)
    assert line == ("belote: error: --ridge must be more than 0, not 0 (without a penalty the least squares are "
                    "singular: terms that are 0 in every decision have no weight to find): e.g. --ridge 1")


def test_a_ridge_too_small_to_solve_is_one_line_not_a_linalg_error():
    from analyzer.rules import Rules

    d = L.decisions(Rules.from_label("piekjas2"), seed=1, deals=30)
    with pytest.raises(BeloteError, match=r"are singular at --ridge 1e-30 .*: use a larger --ridge, e\.g\. 1"):
        L.fit(d, 1e-30)
    assert L.fit(d, 1.0).any()  # the default solves
