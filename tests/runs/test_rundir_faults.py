"""Run folders (--run-dir, analyzer.runs.backends.recording) under faults: every batch file is
verified on reading (its index, its inputs' digest, the checksum of its counts, all inside the
file), so a changed number, a file copied over another, a truncated or garbage file and a stray
file are refused in one line naming the file; a run folder that is a file, read-only or full,
or already in use by another run, is one line too; a resumed run's rate counts only the hands
it simulated. A resume after SIGKILL still gives exactly the uninterrupted numbers.

Faults are real: files tampered with on disk, a child process killed with SIGKILL while it
holds the folder, a read-only bind mount and a full tmpfs. Tests run as root here, where
chmod cannot make a folder read-only: the read-only and full-disk tests mount a filesystem in
a private mount namespace of a child process (``unshare -m``: nothing leaks into the
machine's mounts) and are skipped where that is not allowed; the chmod variant runs as a
non-root user and is skipped as root.
"""

import json
import os
import shutil
import signal
import subprocess
import sys
import textwrap
from pathlib import Path

import numpy as np
import pytest

import cli
from analyzer.errors import BeloteError
from analyzer.players.policies import Policies
from analyzer.rules import Rules
from analyzer.runs import backends, driver
from analyzer.runs.simulate import SimConfig

pytestmark = pytest.mark.slow  # faults injected into belote subprocesses: out of make test-fast (make test runs them)

ROOT = Path(__file__).resolve().parents[2]
UNITS, CHUNK, BATCHES = 400, 100, 3  # a library run: 3 batches of 400 hands, chunks of 100


def _args():
    rules = Rules.make("classic", None, [])
    return SimConfig(rules=rules, policies=Policies.parse("heuristic", "heuristic", 4), deals=1).kernel_args()


def _run(folder, resume=False, seed=7):
    """A 3-batch run recorded in ``folder``: its summed counts and the backend's replay count."""
    with backends.recording(folder, resume, "test", {"seed": seed}) as b:
        total = sum(driver.run_units(driver.SIMULATE, seed, k * UNITS, UNITS, CHUNK, _args()) for k in range(BATCHES))
    return total, b.replayed


def _batch(folder, seq):
    (path,) = (Path(folder) / "batches").glob(f"{seq:06d}-*.npz")
    return path


@pytest.fixture(scope="module")
def recorded(tmp_path_factory):
    """A complete recorded run (copied by each test before tampering) and its counts."""
    folder = tmp_path_factory.mktemp("rundir") / "run"
    total, replayed = _run(folder)
    assert replayed == 0 and len(list((folder / "batches").iterdir())) == BATCHES
    return folder, total


@pytest.fixture
def run_copy(recorded, tmp_path):
    folder = tmp_path / "run"
    shutil.copytree(recorded[0], folder)
    return folder


def test_a_resumed_run_verifies_and_replays_every_batch(recorded, run_copy):
    total, replayed = _run(run_copy, resume=True)
    assert replayed == BATCHES
    np.testing.assert_array_equal(total, recorded[1])


def _refused(folder, *words):
    with pytest.raises(BeloteError) as e:
        _run(folder, resume=True)
    msg = str(e.value)
    assert "\n" not in msg and all(w in msg for w in words), msg
    return msg


def test_a_number_changed_in_a_batch_file_is_refused_naming_the_file(run_copy):
    path = _batch(run_copy, 1)
    with np.load(path) as z:
        rows, record = z["rows"].copy(), z["record"]
    rows[0, 0] += 1000  # the record kept as it was: only its checksum can tell
    with open(path, "wb") as f:
        np.savez(f, rows=rows, record=record)
    _refused(run_copy, str(path), "checksum", "remove it")


def test_a_byte_changed_in_a_batch_file_is_refused(run_copy):
    path = _batch(run_copy, 0)
    data = bytearray(path.read_bytes())
    data[len(data) // 2] ^= 0x10
    path.write_bytes(bytes(data))
    _refused(run_copy, str(path))


def test_batch_0_copied_over_batch_1_under_its_name_is_refused(run_copy):
    target = _batch(run_copy, 1)
    shutil.copyfile(_batch(run_copy, 0), target)
    _refused(run_copy, str(target), "batch 0", "not the one its name says")


def test_batch_0_copied_as_batch_1_beside_it_is_refused(run_copy):
    """The name of batch 0 with index 1: the file says it is batch 0."""
    src = _batch(run_copy, 0)
    _batch(run_copy, 1).unlink()
    copy = src.with_name("000001" + src.name[6:])
    shutil.copyfile(src, copy)
    _refused(run_copy, str(copy), "not the one its name says")


@pytest.mark.parametrize("damage", ["truncated", "empty", "garbage", "npy", "text"])
def test_a_truncated_or_garbage_batch_file_is_refused_naming_it(run_copy, damage):
    path = _batch(run_copy, 2)
    data = path.read_bytes()
    if damage == "truncated":
        path.write_bytes(data[: len(data) // 2])
    elif damage == "empty":
        path.write_bytes(b"")
    elif damage == "garbage":
        path.write_bytes(np.random.default_rng(0).bytes(len(data)))
    elif damage == "npy":  # a plain array where a record belongs (the format before checksums)
        with open(path, "wb") as f:
            np.save(f, np.zeros((4, 3), np.int64))
    else:
        path.write_text("hands,played\n1920,1545\n")
    _refused(run_copy, str(path), "truncated or not a batch record")


def test_a_stray_file_among_the_batches_is_refused(run_copy):
    stray = run_copy / "batches" / "notes.txt"
    stray.write_text("mine")
    _refused(run_copy, str(stray), "not a batch record")
    assert stray.read_text() == "mine"  # refused, never deleted


def test_a_batch_file_of_another_run_is_refused(run_copy, tmp_path):
    """Whole and valid, under its own name, but recorded for other inputs (another seed)."""
    other = tmp_path / "other"
    _run(other, seed=8)
    _batch(run_copy, 1).unlink()
    shutil.copy(_batch(other, 1), run_copy / "batches")
    _refused(run_copy, str(_batch(run_copy, 1)), "other inputs")


def test_a_batch_beyond_the_run_is_refused(run_copy):
    src = _batch(run_copy, 2)
    with np.load(src) as z:
        rows, record = z["rows"], json.loads(str(z["record"]))
    backends._write_batch(src.with_name(f"000007-{record['key']}.npz"), 7, record["key"], rows)
    _refused(run_copy, "000007-", "not a batch of this run")


def test_a_run_folder_of_an_earlier_version_is_refused_not_trusted(run_copy):
    meta = run_copy / "run.json"
    run = json.loads(meta.read_text())
    del run["format"]
    meta.write_text(json.dumps(run))
    _refused(run_copy, "earlier belote-analyzer", "new --run-dir")


def _package_copy(dest: Path) -> Path:
    """A copy of this checkout's package and CLI under ``dest`` (``dest`` on PYTHONPATH runs it)."""
    shutil.copytree(ROOT / "analyzer", dest / "analyzer", ignore=shutil.ignore_patterns("__pycache__"))
    shutil.copy(ROOT / "cli.py", dest)
    return dest


def test_the_code_digest_covers_the_players_weights_and_bidders_not_the_renderers(tmp_path):
    """What a run folder is bound to changes with the net weights (as ``belote learn --write`` leaves
    them), a calibrated bidder's file or any rule's code; a renderer's edit leaves it."""
    import analyzer

    here = _package_copy(tmp_path)
    digest = analyzer.package_digest(here / "analyzer")
    assert digest == analyzer.code_digest()  # the copy is this install
    for data in ("players/net_data/net.npy", "players/net_data/net.json", "players/policies_data/classic.net.json",
                 "rules/scoring.py"):
        path = here / "analyzer" / data
        before = path.read_bytes()
        path.write_bytes(before + b"\n")
        assert analyzer.package_digest(here / "analyzer") != digest, data
        path.write_bytes(before)
    with open(here / "analyzer" / "output" / "markdown.py", "a") as f:
        f.write("# a renderer's edit\n")
    assert analyzer.package_digest(here / "analyzer") == digest


def test_a_run_resumed_after_the_weights_changed_is_refused_not_mixed(sim_run, tmp_path):
    """The probe's case: a run interrupted, the net weights retrained (``belote learn --write``), then
    ``--resume``. Before, the resume replayed the old player's batches and ran the rest with the new
    one (exit 0, a number of neither); now it is refused in one line that says why, before any hand
    runs. The new code is real: this checkout copied, its weights rewritten on disk (``belote learn
    --write``'s own writer), run from the copy."""
    folder = tmp_path / "run"
    shutil.copytree(sim_run, folder)
    here = _package_copy(tmp_path / "install")
    from analyzer.players.net import N_WEIGHTS
    from analyzer.runs.learn import write_weights

    write_weights(here / "analyzer" / "players" / "net_data" / "net.npy", {"classic": np.full(N_WEIGHTS, 0.5)},
                  {"classic": {"note": "retrained"}})
    env = dict(os.environ, PYTHONPATH=str(here), BELOTE_CACHE_DIR=str(tmp_path / "cache"))
    p = subprocess.run([sys.executable, "-c", "import sys, cli; sys.exit(cli.main(sys.argv[1:]))", *SIM,
                        "--run-dir", str(folder), "--resume"], capture_output=True, text=True, env=env, cwd=tmp_path,
                       timeout=300)
    lines = p.stderr.strip().splitlines()
    assert p.returncode == 2 and len(lines) == 1, p.stderr
    assert lines[0].startswith(f"belote: error: --resume: {folder} was recorded by other code or data"), lines
    assert "new --run-dir" in lines[0] and "Traceback" not in p.stderr
    assert not (tmp_path / "cache").exists() or not any((tmp_path / "cache").rglob("*.nbi"))  # refused before compiling


def test_a_batch_kept_by_other_code_is_refused(recorded, run_copy, monkeypatch):
    """Each kept batch is bound to the code too: a batch file of this run's inputs recorded by
    other code (here, a run under another digest) does not verify against this code's batch."""
    import analyzer

    other = run_copy.parent / "other"
    monkeypatch.setattr(analyzer, "_CODE_DIGEST", ["0" * 20])
    _run(other)
    monkeypatch.undo()
    _batch(run_copy, 1).unlink()
    shutil.copy(_batch(other, 1), run_copy / "batches")
    _refused(run_copy, str(_batch(run_copy, 1)), "other inputs")


def test_a_leftover_temporary_file_of_a_killed_write_is_not_refused(recorded, run_copy):
    """SIGKILL between writing a batch and renaming it leaves ``NNNNNN-KEY.tmp``: rewritten
    when its batch runs again."""
    path = _batch(run_copy, 2)
    path.rename(path.with_suffix(".tmp"))
    path.with_suffix(".tmp").write_bytes(b"half")
    total, replayed = _run(run_copy, resume=True)
    assert replayed == BATCHES - 1 and path.exists() and not path.with_suffix(".tmp").exists()
    np.testing.assert_array_equal(total, recorded[1])


# ---- through the CLI: one line, exit 2 -------------------------------------------------------

SIM = ["simulate", "--deals", "2000", "--seed", "3", "-q"]


@pytest.fixture(scope="module")
def sim_run(tmp_path_factory):
    folder = tmp_path_factory.mktemp("simrun") / "run"
    assert cli.main(SIM + ["--run-dir", str(folder)]) == 0
    return folder


@pytest.mark.parametrize("damage", ["number", "truncated"])
def test_the_cli_refuses_a_tampered_run_folder_in_one_line(sim_run, tmp_path, capsys, damage):
    folder = tmp_path / "run"
    shutil.copytree(sim_run, folder)
    path = _batch(folder, 0)
    if damage == "number":
        with np.load(path) as z:
            rows, record = z["rows"].copy(), z["record"]
        rows[0, 0] += 1000
        with open(path, "wb") as f:
            np.savez(f, rows=rows, record=record)
    else:
        path.write_bytes(path.read_bytes()[:100])
    capsys.readouterr()
    code = cli.main(SIM + ["--run-dir", str(folder), "--resume", "--json"])
    out, err = capsys.readouterr()
    assert code == 2 and out == "" and err.count("\n") == 1 and str(path) in err, err
    assert err.startswith("belote: error: --resume: ") and "Traceback" not in err


@pytest.mark.parametrize("resume", [False, True])
def test_a_run_dir_that_is_a_file_says_so(tmp_path, capsys, resume):
    file = tmp_path / "notes.txt"
    file.write_text("mine")
    code = cli.main(SIM + ["--run-dir", str(file)] + (["--resume"] if resume else []))
    err = capsys.readouterr().err
    assert code == 2 and err.count("\n") == 1 and "is a file: give a folder" in err, err
    assert "add --resume" not in err and file.read_text() == "mine"


def test_a_resumed_simulation_rates_only_the_hands_it_simulated(monkeypatch, tmp_path, capsys):
    """3 batches of 1,000 hands; interrupted at the second, resumed: 1,000 replayed, 2,000
    simulated, and the rate is over the 2,000 (before: over all 3,000)."""
    from analyzer.runs import simulate as sim

    real_simulate, real_run = sim.simulate, backends.RecordingBackend.run
    monkeypatch.setattr(sim, "simulate", lambda cfg, progress=None: real_simulate(cfg, progress, batch=1000))
    calls = []

    def interrupt_at_the_second_batch(self, *a, **k):
        calls.append(1)
        if len(calls) == 2:
            raise KeyboardInterrupt
        return real_run(self, *a, **k)

    folder = tmp_path / "run"
    argv = ["simulate", "--deals", "3000", "--seed", "4", "--run-dir", str(folder)]
    monkeypatch.setattr(backends.RecordingBackend, "run", interrupt_at_the_second_batch)
    assert cli.main(argv + ["-q"]) == 130
    monkeypatch.setattr(backends.RecordingBackend, "run", real_run)
    capsys.readouterr()
    assert cli.main(argv + ["--resume", "--json", "-q"]) == 0
    timing = json.loads(capsys.readouterr().out)["timing"]
    assert timing["hands_simulated"] == 2000 and timing["hands_replayed"] == 1000
    # over 2,000 hands, not 3,000 (``seconds`` is rounded to 0.1 ms: 1% covers it)
    assert timing["hands_per_s"] * timing["seconds"] == pytest.approx(2000, rel=0.01)
    # the text says it too; fully replayed now: no rate at all
    assert cli.main(argv + ["--resume"]) == 0
    out, err = capsys.readouterr()
    text = " ".join(out.split())  # rich wraps long lines at the terminal's width
    assert "all 3,000 hands replayed" in text and "none simulated" in text
    assert "3 of 3 batches replayed" in err


# ---- two runs at once, a killed run ----------------------------------------------------------

HOLDER = textwrap.dedent("""
    import sys, time
    from analyzer.players.policies import Policies
    from analyzer.rules import Rules
    from analyzer.runs import backends, driver
    from analyzer.runs.simulate import SimConfig
    args = SimConfig(rules=Rules.make("classic", None, []), policies=Policies.parse("heuristic", "heuristic", 4),
                     deals=1).kernel_args()
    with backends.recording(sys.argv[1], False, "test", {"seed": 7}):
        for k in range(3):
            driver.run_units(driver.SIMULATE, 7, k * %d, %d, %d, args)
            print(k, flush=True)
            time.sleep(600)  # holds the folder until killed
""") % (UNITS, UNITS, CHUNK)


def test_a_second_run_of_a_folder_in_use_is_refused_and_a_sigkill_frees_it(recorded, tmp_path, capsys):
    """A child records batch 0 and holds the folder; a second run (library and CLI, with and
    without --resume) is refused in one line; SIGKILL frees the folder, and the resumed run
    gives exactly the uninterrupted numbers."""
    folder = tmp_path / "run"
    child = subprocess.Popen([sys.executable, "-c", HOLDER, str(folder)], cwd=ROOT, stdout=subprocess.PIPE, text=True)
    try:
        assert child.stdout.readline().strip() == "0"  # batch 0 recorded, the folder held
        _refused(folder, "in use by another belote run")
        for extra in (["--resume"], []):
            code = cli.main(SIM + ["--run-dir", str(folder)] + extra)
            err = capsys.readouterr().err
            assert code == 2 and err.count("\n") == 1 and "in use by another belote run" in err, err
    finally:
        child.send_signal(signal.SIGKILL)
        child.wait()
    assert child.returncode == -signal.SIGKILL
    total, replayed = _run(folder, resume=True)
    assert replayed == 1
    np.testing.assert_array_equal(total, recorded[1])


# ---- a read-only folder, a full disk ----------------------------------------------------------

def _in_mount_namespace(script: str, timeout=300) -> subprocess.CompletedProcess:
    """``script`` (sh) in a private mount namespace: mounts made there vanish with it."""
    if shutil.which("unshare") is None:
        pytest.skip("no unshare")
    probe = subprocess.run(["unshare", "-m", "sh", "-c", "mount -t tmpfs tmpfs /mnt"], capture_output=True)
    if probe.returncode:
        pytest.skip(f"cannot mount in a private namespace here: {probe.stderr.decode().strip()}")
    return subprocess.run(["unshare", "-m", "sh", "-c", script], cwd=ROOT, capture_output=True, text=True,
                          timeout=timeout)


def _one_line(err: str, *words):
    lines = err.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("belote: error: ") and all(w in lines[0] for w in words), err


def test_a_read_only_run_folder_is_one_line_and_a_finished_run_still_replays(belote, sim_run, tmp_path):
    """As root (a read-only bind mount): a batch to record there, or a new run to create
    there, is refused in one line; a complete run replays from it."""
    folder = tmp_path / "run"
    shutil.copytree(sim_run, folder)
    args = " ".join(SIM)
    r = _in_mount_namespace(f"""
        mount --bind {folder} {folder} && mount -o remount,bind,ro {folder} || exit 99
        {belote.path} {args} --run-dir {folder} --resume --json > /dev/null || exit 98
        rm {folder}/batches/*.npz 2>/dev/null && exit 97
        {belote.path} {args} --run-dir {folder}/new
        echo "rc=$?" >&2
    """)
    assert r.returncode == 0 and r.stderr.endswith("rc=2\n"), (r.returncode, r.stderr)
    _one_line(r.stderr.removesuffix("rc=2\n"), f"cannot create {folder}/new", "Read-only file system")
    (batch,) = (folder / "batches").iterdir()
    batch.unlink()  # outside the namespace the folder is writable: leave a batch to record
    r = _in_mount_namespace(f"""
        mount --bind {folder} {folder} && mount -o remount,bind,ro {folder} || exit 99
        {belote.path} {args} --run-dir {folder} --resume
    """)
    assert r.returncode == 2, r.stderr
    _one_line(r.stderr, f"cannot write {batch}", "Read-only file system", "--resume")


@pytest.mark.skipif(os.geteuid() == 0, reason="root writes into a chmod 555 folder: see the bind-mount variant")
def test_a_read_only_run_folder_is_one_line_as_a_user(sim_run, tmp_path, capsys):
    folder = tmp_path / "run"
    shutil.copytree(sim_run, folder)
    (batch,) = (folder / "batches").iterdir()
    batch.unlink()
    (folder / "batches").chmod(0o555)
    try:
        code = cli.main(SIM + ["--run-dir", str(folder), "--resume"])
    finally:
        (folder / "batches").chmod(0o755)
    err = capsys.readouterr().err
    assert code == 2 and err.count("\n") == 1 and f"cannot write {batch}" in err, err


def test_a_full_disk_under_the_run_folder_is_one_line(belote, tmp_path):
    """A 64 KiB tmpfs: the run is recorded, its batch removed, the disk filled, the resume
    cannot record the batch; a new run cannot write its run.json."""
    mnt = tmp_path / "mnt"
    mnt.mkdir()
    args = " ".join(SIM)
    r = _in_mount_namespace(f"""
        mount -t tmpfs -o size=64k tmpfs {mnt} || exit 99
        {belote.path} {args} --run-dir {mnt}/run || exit 98
        rm {mnt}/run/batches/*.npz
        dd if=/dev/zero of={mnt}/fill bs=4k 2>/dev/null
        {belote.path} {args} --run-dir {mnt}/run --resume
        echo "rc=$?" >&2
        {belote.path} {args} --run-dir {mnt}/new
        echo "rc=$?" >&2
    """)
    assert r.returncode == 0, r.stderr
    first, rc1, second, rc2 = r.stderr.splitlines()
    assert rc1 == rc2 == "rc=2", r.stderr
    _one_line(first, f"cannot write {mnt}/run/batches/", "No space left on device", "--resume")
    _one_line(second, f"cannot write {mnt}/new/run.json", "No space left on device")


def test_an_interruption_while_a_batch_is_written_leaves_no_temporary_file(monkeypatch, tmp_path):
    def interrupted(fd):
        raise KeyboardInterrupt

    monkeypatch.setattr(backends.os, "fsync", interrupted)
    with pytest.raises(KeyboardInterrupt):
        _run(tmp_path / "run")
    assert sorted(p.name for p in (tmp_path / "run").rglob("*")) == ["batches", "run.json"]


def test_a_folder_that_cannot_be_locked_is_one_line(monkeypatch, tmp_path):
    """Some network filesystems refuse flock (ENOLCK): say so rather than run unlocked."""
    import errno

    def no_locks(fd, op):
        raise OSError(errno.ENOLCK, os.strerror(errno.ENOLCK))

    monkeypatch.setattr(backends.fcntl, "flock", no_locks)
    with pytest.raises(BeloteError, match="cannot be locked .*local disk"):
        _run(tmp_path / "run")
