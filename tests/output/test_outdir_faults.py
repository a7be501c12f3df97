"""Faults injected into output folders and files (``analyzer.output.outdir``): a user's edit in
an earlier folder, a run SIGKILLed between its two renames or while writing, two runs at once
to one destination, a device, a named pipe or a full filesystem as ``--log``.

The kills are real (a child process SIGKILLs itself at the exact point, or is killed from
here); the full filesystem is a small tmpfs, mounted when this process may (root), skipped
otherwise.
"""

import hashlib
import json
import os
import signal
import subprocess
import sys
import textwrap
from contextlib import contextmanager
from pathlib import Path

import pytest

from analyzer.errors import BeloteError
from analyzer.output import outdir
from analyzer.output.deallog import LOG_FILE
from analyzer.output.outdir import RUN_FILE, Staged, write_lines, write_run
from analyzer.output.policy_file import check_policy_target, write_policy
from conftest import as_nobody
from belote_command import listing

pytestmark = pytest.mark.slow  # faults injected into belote subprocesses: out of make test-fast (make test runs them)

TABLE = ["table", "--deals", "200", "--quiet"]  # the smallest command with --out
SIMULATE = ["simulate", "--deals", "20", "--quiet"]


def earlier(folder: Path, **files) -> dict:
    """A folder as an earlier run of ours leaves it (``name_ext="text"``); returns its files' bytes."""
    folder.mkdir()
    for name, text in files.items():
        (folder / name.replace("_", ".")).write_text(text)
    write_run(folder, {"tool": outdir.TOOL, "command": "belote test"})
    return {p.name: p.read_bytes() for p in folder.iterdir()}


def contents(folder: Path) -> dict:
    return {p.name: p.read_bytes() for p in folder.iterdir()}


def dead_pid() -> int:
    """The PID of a process that has exited (and been reaped)."""
    p = subprocess.Popen([sys.executable, "-c", "pass"])
    p.wait()
    return p.pid


def child(script: str, *args, **kw) -> subprocess.Popen:
    """A Python child running ``script`` (the analyzer importable, as here)."""
    return subprocess.Popen([sys.executable, "-c", textwrap.dedent(script), *map(str, args)], text=True, **kw)


# --- 1. a user's edit inside an earlier output folder is never deleted --------------------------


def test_run_json_records_the_digest_of_every_file_and_of_itself(tmp_path):
    with Staged(tmp_path / "r") as stage:
        (stage.tmp / "a.csv").write_text("1,2\n")
        stage.commit({"command": "belote test"})
    run = json.loads((tmp_path / "r" / RUN_FILE).read_text())
    assert run["files"] == ["a.csv"]
    assert run["sha256"] == {"a.csv": hashlib.sha256(b"1,2\n").hexdigest()}
    assert run["run_sha256"] == outdir._run_digest(run)


@pytest.mark.parametrize("edit", ["changed", "truncated", "run.json", "fifo"])
def test_a_folder_whose_file_changed_since_we_wrote_it_is_refused_and_kept(edit, tmp_path):
    dest = tmp_path / "r"
    earlier(dest, index_md="the report\n", table_csv="1,2\n")
    if edit == "changed":
        (dest / "table.csv").write_text("1,2\n3,4  # my note\n")
    elif edit == "truncated":
        (dest / "table.csv").write_text("")
    elif edit == "run.json":  # a note added to run.json itself
        run = json.loads((dest / RUN_FILE).read_text())
        (dest / RUN_FILE).write_text(json.dumps(run | {"note": "the good run"}, indent=2))
    else:  # replaced by a named pipe: refused without reading it (which would wait forever)
        (dest / "table.csv").unlink()
        os.mkfifo(dest / "table.csv")
    before = {p.name: p.is_fifo() or p.read_bytes() for p in dest.iterdir()}
    with pytest.raises(BeloteError) as e:
        Staged(dest)
    named = RUN_FILE if edit == "run.json" else "table.csv"
    assert named in str(e.value) and "changed since belote wrote" in str(e.value)
    assert {p.name: p.is_fifo() or p.read_bytes() for p in dest.iterdir()} == before
    assert listing(tmp_path) == ["r"]


def test_an_unchanged_folder_of_ours_is_still_replaced(tmp_path):
    dest = tmp_path / "r"
    earlier(dest, index_md="the report\n")
    with Staged(dest) as stage:
        (stage.tmp / "new.md").write_text("new\n")
        stage.commit({"command": "belote test"})
    assert listing(dest) == ["new.md", RUN_FILE] and listing(tmp_path) == ["r"]


def test_a_folder_written_before_digests_were_recorded_is_refused_not_guessed(tmp_path):
    # run.json as earlier versions wrote it: the file names, no digests. A user's edit in it
    # cannot be told from our content, so it is kept and the user asked to move it.
    dest = tmp_path / "r"
    dest.mkdir()
    (dest / "index.md").write_text("the report, or the user's edit of it\n")
    (dest / RUN_FILE).write_text(json.dumps({"tool": outdir.TOOL, "files": ["index.md"]}))
    before = contents(dest)
    with pytest.raises(BeloteError, match="earlier belote that did not record its files' digests.*move it away"):
        Staged(dest)
    assert contents(dest) == before


def test_the_cli_refuses_an_edited_out_folder_in_one_line_naming_the_file(belote, tmp_path):
    out = tmp_path / "out"
    assert belote(*TABLE, "--out", str(out), cwd=tmp_path).returncode == 0
    md = next(n for n in listing(out) if n.endswith(".md"))
    (out / md).write_text((out / md).read_text() + "\nMy conclusions.\n")
    before = contents(out)
    line = belote.error(*TABLE, "--out", str(out), cwd=tmp_path)
    assert md in line and "changed since belote wrote" in line
    assert contents(out) == before and listing(tmp_path) == ["out"]


# --- 2. what a SIGKILLed run leaves is restored or removed by the next run -----------------------

KILLED_BETWEEN_RENAMES = """
    import os, signal, sys
    from analyzer.output import outdir
    replace = os.replace

    def replace_then_die(src, dst):  # the first rename (the earlier folder moved aside), then SIGKILL
        replace(src, dst)
        os.kill(os.getpid(), signal.SIGKILL)

    with outdir.Staged(sys.argv[1]) as stage:
        (stage.tmp / "new.md").write_text("the new report")
        outdir.os.replace = replace_then_die
        stage.commit({"command": "belote test"})
"""


def killed_between_renames(dest: Path) -> int:
    """Run a child that SIGKILLs itself between the two renames of its commit; return its PID."""
    p = child(KILLED_BETWEEN_RENAMES, dest)
    assert p.wait(timeout=120) == -signal.SIGKILL
    assert not dest.exists()  # the state the fault leaves: the earlier folder moved aside, nothing in its place
    assert listing(dest.parent) == sorted([f".{dest.name}.belote-old-{p.pid}", f".{dest.name}.belote-tmp-{p.pid}",
                                           f".{dest.name}.belote-lock"])
    return p.pid


def test_a_run_killed_between_its_renames_is_put_right_by_the_next(tmp_path, capfd):
    dest = tmp_path / "r"
    before = earlier(dest, index_md="the earlier report")
    pid = killed_between_renames(dest)
    with Staged(dest):  # the next run, stopped before it writes anything
        pass
    assert contents(dest) == before and listing(tmp_path) == ["r"]
    err = capfd.readouterr().err.splitlines()
    assert len(err) == 1 and f"PID {pid}" in err[0]
    assert f"restored {dest} from .r.belote-old-{pid}" in err[0] and f"removed .r.belote-tmp-{pid}" in err[0]


def test_the_cli_after_a_killed_run_restores_says_so_and_writes(belote, tmp_path):
    dest = tmp_path / "out"
    earlier(dest, notes_md="the earlier table")
    pid = killed_between_renames(dest)
    p = belote(*TABLE, "--out", str(dest), cwd=tmp_path)
    assert p.returncode == 0, p.stderr
    notes = [line for line in p.stderr.splitlines() if "killed" in line]
    assert len(notes) == 1 and f"PID {pid}" in notes[0] and "restored" in notes[0], p.stderr
    assert listing(tmp_path) == ["out"] and "notes.md" not in listing(dest)  # the earlier one, then replaced


def test_an_earlier_folder_left_aside_is_removed_when_the_destination_is_there(tmp_path, capfd):
    dest = tmp_path / "r"
    before = earlier(dest, index_md="the current report")
    pid = dead_pid()
    earlier(tmp_path / f".r.belote-old-{pid}", index_md="the report before it")
    with Staged(dest):
        pass
    assert contents(dest) == before and listing(tmp_path) == ["r"]
    assert f"removed .r.belote-old-{pid}" in capfd.readouterr().err


def test_leftovers_of_a_live_process_are_not_touched(tmp_path, capfd):
    dest = tmp_path / "r"
    sleeper = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(60)"])
    try:
        other = tmp_path / f".r.belote-tmp-{sleeper.pid}"
        other.mkdir()
        with Staged(dest):
            pass
        assert other.is_dir() and capfd.readouterr().err == ""
    finally:
        sleeper.kill()
        sleeper.wait()


def test_a_log_killed_while_written_leaves_a_temporary_file_the_next_run_removes(tmp_path, capfd):
    log = tmp_path / "d.jsonl"
    p = child("""
        import os, signal, sys
        from analyzer.output.deallog import LOG_FILE
        from analyzer.output.outdir import write_lines

        def lines():
            yield '{"schema": "belote-deal/1"}\\n'
            os.kill(os.getpid(), signal.SIGKILL)

        write_lines(sys.argv[1], lines(), "--log", LOG_FILE)
    """, log)
    assert p.wait(timeout=120) == -signal.SIGKILL
    assert f".d.jsonl.belote-tmp-{p.pid}" in listing(tmp_path)
    assert write_lines(log, ['{"schema": "belote-deal/1"}\n'], "--log", LOG_FILE) == 1
    assert listing(tmp_path) == [".d.jsonl.belote", "d.jsonl"]  # the log and its record
    err = capfd.readouterr().err.splitlines()
    assert len(err) == 1 and f"removed .d.jsonl.belote-tmp-{p.pid}" in err[0]


# --- 3. two runs at once to one destination: the second is refused ------------------------------

HOLDS = """
    import sys
    from analyzer.output import outdir
    from analyzer.output.deallog import LOG_FILE

    with outdir.Staged(sys.argv[2]) if sys.argv[1] == "out" else outdir.claimed_file(sys.argv[2], "--log", LOG_FILE):
        print("holding", flush=True)
        sys.stdin.read()  # until the test closes stdin, or kills this process
"""


def holding(kind: str, dest: Path) -> subprocess.Popen:
    p = child(HOLDS, kind, dest, stdin=subprocess.PIPE, stdout=subprocess.PIPE)
    assert p.stdout.readline() == "holding\n"
    return p


def test_a_second_run_to_one_out_folder_is_refused_in_one_line(belote, tmp_path):
    dest = tmp_path / "out"
    first = holding("out", dest)
    try:
        line = belote.error(*TABLE, "--out", str(dest), cwd=tmp_path)
        assert f"is being written by another belote run (PID {first.pid})" in line
    finally:
        first.kill()  # SIGKILL: its lock goes with it, its lock file stays
        first.wait()
    p = belote(*TABLE, "--out", str(dest), cwd=tmp_path)
    assert p.returncode == 0, p.stderr
    assert listing(tmp_path) == ["out"]  # its temporary folder removed, and the lock file


def test_a_second_run_to_one_log_is_refused_in_one_line(belote, tmp_path):
    log = tmp_path / "d.jsonl"
    first = holding("log", log)
    try:
        line = belote.error(*SIMULATE, "--log", str(log), cwd=tmp_path)
        assert f"--log {log} is being written by another belote run (PID {first.pid})" in line
    finally:
        first.stdin.close()
        assert first.wait(timeout=60) == 0
    assert listing(tmp_path) == []


def test_the_lock_is_taken_again_within_one_process(tmp_path):
    dest = tmp_path / "d.jsonl"
    with outdir.claimed_file(dest, "--log", LOG_FILE):  # the CLI holds it; write_log takes it again
        assert write_lines(dest, ["{}\n"], "--log", LOG_FILE) == 1
    assert listing(tmp_path) == [".d.jsonl.belote", "d.jsonl"]


# --- 4. devices, named pipes and a full filesystem as --log --------------------------------------


def test_a_device_as_log_is_refused_in_one_line_without_reading_it(belote):
    line = belote.error(*SIMULATE, "--log", "/dev/full", timeout=120)
    assert "--log /dev/full is a device, not a file" in line


def test_a_named_pipe_as_log_is_refused_in_one_line_without_waiting(belote, tmp_path):
    os.mkfifo(tmp_path / "pipe")
    line = belote.error(*SIMULATE, "--log", str(tmp_path / "pipe"), timeout=120)
    assert "is a named pipe, not a file" in line


@contextmanager
def tmpfs(folder: Path, options: str):
    """A tmpfs mounted on ``folder`` meanwhile (root only: skipped where mount is not allowed)."""
    folder.mkdir()
    if subprocess.run(["mount", "-t", "tmpfs", "-o", options, "tmpfs", str(folder)], capture_output=True).returncode:
        pytest.skip("cannot mount a tmpfs here (needs root)")
    try:
        yield folder
    finally:
        subprocess.run(["umount", str(folder)], check=True)


@pytest.fixture
def full_fs(tmp_path):
    """A 64 KiB filesystem, filled by the first few deal records."""
    with tmpfs(tmp_path / "small", "size=64k") as mnt:
        yield mnt


@pytest.fixture
def read_only_fs(tmp_path):
    """A read-only filesystem: refused to root as well (EROFS), unlike a folder without write permission."""
    with tmpfs(tmp_path / "ro", "ro,size=64k") as mnt:
        yield mnt


@pytest.mark.parametrize("as_json", [False, True], ids=["table", "json"])
def test_a_full_disk_under_log_says_so_in_one_line_and_keeps_the_results(belote, as_json, full_fs):
    p = belote("simulate", "--deals", "200", "--log", str(full_fs / "d.jsonl"), "--log-deals", "200", "--quiet",
               *(["--json"] if as_json else []))
    assert p.returncode == 2 and "Traceback" not in p.stdout + p.stderr, p.stderr
    assert p.stderr.splitlines() == [f"belote: error: cannot write --log {full_fs / 'd.jsonl'}: No space left on "
                                     "device (free some space, or choose another --log)"]
    if as_json:  # the results computed are printed
        d = json.loads(p.stdout)
        assert d["counts"]["hands"] == 200 and d["log"] is None
    else:
        assert "hands played" in p.stdout and "hands/s" in p.stdout
    assert listing(full_fs) == []  # no partial log, temporary file or lock left


def test_a_lock_on_a_full_disk_does_not_stop_the_run(tmp_path):
    # the lock file's PID is informative: a disk with no byte left still takes the lock (an
    # empty file), and the run's own write then fails in one line
    with tmpfs(tmp_path / "full", "size=4k") as fs:
        (fs / "filler").write_bytes(b"x" * 4096)
        with outdir.claimed_file(fs / "d.jsonl", "--log", LOG_FILE):
            with pytest.raises(BeloteError, match="No space left on device"):
                write_lines(fs / "d.jsonl", ["{}\n"], "--log", LOG_FILE)
        assert listing(fs) == ["filler"]


def test_a_full_disk_under_out_says_so_in_one_line(belote, full_fs):
    line = belote.error(*TABLE, "--out", str(full_fs / "t"), cwd=full_fs.parent)
    assert "No space left on device" in line and listing(full_fs) == []


OUT_COMMANDS = {  # each command with --out, small: what it prints is checked, not its numbers
    "table": TABLE,
    "table-bracket": ["table", "--bracket", "--rounds", "1", "--deals", "2000", "--bracket-plays", "heuristic,pimc",
                      "--bracket-deals", "80", "--quiet"],
    "balance": ["balance", "--variant", "piekjas2", "--deals", "200", "--games", "2", "--quiet"],
    "rules": ["rules", "--variant", "classic", "--option", "undertrump", "--deals", "200", "--games", "0", "--quiet"],
}


@pytest.mark.parametrize("as_json", [False, True], ids=["text", "json"])
@pytest.mark.parametrize("command", list(OUT_COMMANDS))
def test_a_full_disk_under_out_prints_the_results_then_the_error(belote, command, as_json, tmp_path):
    # the computation is not lost: its results are printed as without --out, the write error last
    with tmpfs(tmp_path / "small", "size=16k") as full_fs:  # less than any of their outputs (a plot: 40 KB)
        dest = full_fs / "out"
        p = belote(*OUT_COMMANDS[command], "--out", str(dest), *(["--json"] if as_json else []), cwd=tmp_path)
        assert listing(full_fs) == []  # nothing half-written, no temporary folder or lock left
    assert p.stderr.splitlines() == [f"belote: error: cannot write --out {dest}: No space left on device "
                                     "(free some space, or choose another --out)"], p.stderr
    assert p.returncode == 2 and "Traceback" not in p.stdout
    if as_json:
        d = json.loads(p.stdout)
        assert d["hands_simulated"] > 0 and d["files"] == []
        assert d["command"].startswith(f"belote {OUT_COMMANDS[command][0]}")
    else:
        assert "|" in p.stdout or "━" in p.stdout  # the table (markdown or rich)
        footer = p.stdout.rstrip().splitlines()[-1]
        assert " hands in " in footer and "written" not in footer  # no file claimed written


def test_a_full_disk_under_a_reports_out_says_nothing_was_written_and_the_numbers_are_lost(belote, tmp_path):
    # the report's results are its files, written as it goes: it stops at the first that fails
    with tmpfs(tmp_path / "small", "size=16k") as full_fs:
        dest = full_fs / "out"
        line = belote.error("report", "--deals", "200", "--variant", "piekjas2", "--quiet",
                                     "--out", str(dest), cwd=tmp_path)
        assert listing(full_fs) == []
    assert line == (f"belote: error: cannot write --out {dest}: No space left on device (free some space, or choose "
                    f"another --out); the run stopped there: nothing was written to {dest}, and the numbers "
                    "computed so far are lost")


def test_a_read_only_folder_under_out_or_log_is_one_line_before_any_work(belote, read_only_fs):
    # held before the lock too; pins that the lock file, now the first thing written, fails in one line
    line = belote.error(*TABLE, "--out", str(read_only_fs / "t"), cwd=read_only_fs.parent)
    assert "Read-only file system" in line
    line = belote.error("simulate", "--deals", "500000000", "--log", str(read_only_fs / "d.jsonl"),
                                 "--quiet", timeout=120)  # refused up front: half a billion hands would take hours
    assert "is not writable" in line


# --- 5. --log creates its folder as --out does ---------------------------------------------------


def test_log_creates_missing_folders_as_out_does(belote, tmp_path):
    log = tmp_path / "new" / "deeper" / "d.jsonl"
    p = belote(*SIMULATE, "--log", str(log), "--log-deals", "3")
    assert p.returncode == 0, p.stderr
    assert len(log.read_text().splitlines()) == 3 and listing(log.parent) == [".d.jsonl.belote", "d.jsonl"]


def test_calibrate_refuses_a_device_or_a_named_pipe_as_out_without_reading_it(belote, tmp_path):
    # the policy file's "is it ours" check read the file: /dev/full forever, a pipe waits
    os.mkfifo(tmp_path / "pipe")
    for out, kind in (("/dev/full", "a device"), (str(tmp_path / "pipe"), "a named pipe")):
        line = belote.error("calibrate", "--deals", "1000", "--out", out, "--quiet", timeout=120)
        assert f"--out {out} is {kind}, not a file" in line


def test_an_earlier_versions_unnamed_temporary_log_is_removed_unless_open(belote, tmp_path):
    # before this change a log was written to tempfile.mkstemp(prefix=".belote-log-"): no PID in
    # its name, so the next log beside it removes it only when no process has it open
    left = tmp_path / ".belote-log-k3j_x9q2"
    left.write_text('{"schema": "belote-deal/1"}\n')
    writing = tmp_path / ".belote-log-abcd1234"
    writing.write_text("")
    with open(writing) as f:
        holder = subprocess.Popen(["sleep", "60"], stdin=f)  # another process has it open
    try:
        p = belote(*SIMULATE, "--log", str(tmp_path / "d.jsonl"), "--log-deals", "2")
        assert p.returncode == 0, p.stderr
        assert listing(tmp_path) == [".belote-log-abcd1234", ".d.jsonl.belote", "d.jsonl"]
        notes = [line for line in p.stderr.splitlines() if line.strip()]
        assert len(notes) == 1 and ".belote-log-k3j_x9q2" in notes[0] and "earlier version" in notes[0]
    finally:
        holder.kill()
        holder.wait()


# --- 6. a user's edit of an output file (--log, calibrate --out) is never replaced ---------------


def test_an_output_file_records_its_digest_beside_it(tmp_path):
    log = tmp_path / "d.jsonl"
    assert write_lines(log, ['{"schema": "belote-deal/1"}\n'], "--log", LOG_FILE) == 1
    record = json.loads((tmp_path / ".d.jsonl.belote").read_text())
    assert record["tool"] == outdir.TOOL and record["file"] == "d.jsonl"
    assert record["sha256"] == hashlib.sha256(log.read_bytes()).hexdigest()
    assert listing(tmp_path) == [".d.jsonl.belote", "d.jsonl"]  # no temporary file or lock left


def test_a_deal_log_with_a_line_added_by_hand_is_refused_and_kept(belote, tmp_path):
    # the user's line is itself a deal record: the file still starts like a deal log, as ours did
    log = tmp_path / "d.jsonl"
    assert belote(*SIMULATE, "--log", str(log), "--log-deals", "3").returncode == 0
    with open(log, "a") as f:
        f.write(log.read_text().splitlines()[0] + "\n")
    before = log.read_bytes()
    line = belote.error(*SIMULATE, "--log", str(log), "--log-deals", "2")
    assert f"--log {log} was changed since belote wrote it" in line and "choose another file name" in line
    assert log.read_bytes() == before


def test_a_deal_log_written_before_digests_were_recorded_is_refused_not_guessed(belote, tmp_path):
    log = tmp_path / "d.jsonl"
    assert belote(*SIMULATE, "--log", str(log), "--log-deals", "3").returncode == 0
    (tmp_path / ".d.jsonl.belote").unlink(missing_ok=True)  # as earlier versions left it: no record beside it
    before = log.read_bytes()
    line = belote.error(*SIMULATE, "--log", str(log), "--log-deals", "2")
    assert f"--log {log}" in line and "cannot be known" in line and "move it away" in line
    assert log.read_bytes() == before and listing(tmp_path) == ["d.jsonl"]


@pytest.mark.parametrize("damage", ["garbage", "another file's", "a folder"])
def test_a_damaged_record_beside_an_output_file_is_refused_naming_it(damage, tmp_path):
    log = tmp_path / "d.jsonl"
    write_lines(log, ['{"schema": "belote-deal/1"}\n'], "--log", LOG_FILE)
    record = tmp_path / ".d.jsonl.belote"
    if damage == "garbage":
        record.write_text("not json\n")
    elif damage == "another file's":
        record.write_text(record.read_text().replace('"d.jsonl"', '"e.jsonl"'))
    else:
        record.unlink(missing_ok=True)
        record.mkdir()
    before = log.read_bytes()
    with pytest.raises(BeloteError) as e:
        write_lines(log, ['{"schema": "belote-deal/1", "deal": 2}\n'], "--log", LOG_FILE)
    assert str(record) in str(e.value) and "\n" not in str(e.value)
    assert log.read_bytes() == before


def _policy():
    import numpy as np

    from analyzer.players.bidding import default_bid_params
    from analyzer.questions import calibrate as C
    from analyzer.rules import Rules

    start = np.tile(default_bid_params("classic", 4), (4, 1))
    return C, C.Calibration(Rules.from_label("classic"), "heuristic", 10, 1, C.MIN_N, start, start.copy())


@pytest.mark.parametrize("edit", ["a note added", "a threshold changed"])
def test_a_policy_file_edited_by_hand_is_refused_and_kept(edit, tmp_path):
    C, cal = _policy()
    path = write_policy(cal, tmp_path / "p.json")
    assert write_policy(cal, path) == path  # unchanged since we wrote it: replaced
    doc = json.loads(path.read_text())
    if edit == "a note added":
        doc["note"] = "the one I use at the club"
    else:
        doc["params"]["0"]["threshold_r1"] += 1.0
    path.write_text(json.dumps(doc, indent=2) + "\n")  # still a bidding-policy file
    before = path.read_bytes()
    with pytest.raises(BeloteError, match=f"--out {path} was changed since belote wrote it"):
        write_policy(cal, path)
    assert path.read_bytes() == before


def test_calibrate_refuses_a_hand_edited_policy_file_in_one_line_before_any_work(belote, tmp_path):
    C, cal = _policy()
    path = write_policy(cal, tmp_path / "p.json")
    path.write_text(path.read_text().replace('"status"', '"my_note": "keep", "status"'))
    before = path.read_bytes()
    line = belote.error("calibrate", "--deals", "1000", "--iterations", "1", "--out", str(path), "--quiet",
                                 timeout=300)
    assert f"--out {path} was changed since belote wrote it" in line and path.read_bytes() == before


def test_a_policy_file_written_before_digests_were_recorded_is_refused_not_guessed(tmp_path):
    C, cal = _policy()
    path = write_policy(cal, tmp_path / "p.json")
    (tmp_path / ".p.json.belote").unlink(missing_ok=True)  # as earlier versions left it
    before = path.read_bytes()
    with pytest.raises(BeloteError, match="cannot be known.*choose another file name, or move it away"):
        write_policy(cal, path)
    assert path.read_bytes() == before


def _git(repo: Path, *args) -> None:
    subprocess.run(["git", "-C", str(repo), "-c", "user.name=t", "-c", "user.email=t@t", *args], check=True,
                   capture_output=True)


def test_ship_replaces_a_policy_as_committed_and_refuses_an_edit_since(tmp_path):
    # calibrate --ship writes into the package: its files, written by an earlier --ship, carry no record
    # beside them; git's record of them is the digest (a file unchanged since its commit loses nothing)
    C, cal = _policy()
    repo = tmp_path / "repo"
    repo.mkdir()
    _git(repo, "init", "-q")
    path = repo / "classic.json"
    path.write_text(json.dumps(cal.as_policy(), indent=2) + "\n")
    _git(repo, "add", "classic.json")
    _git(repo, "commit", "-q", "-m", "shipped")
    assert check_policy_target(path, ship=True) == path
    with pytest.raises(BeloteError, match="cannot be known"):
        check_policy_target(path)  # only --ship takes git's word: --out FILE is anyone's file
    path.write_text(path.read_text().replace('"status"', '"my_note": "keep", "status"'))
    with pytest.raises(BeloteError, match=f"--ship {path} was changed since it was committed"):
        check_policy_target(path, ship=True)
    _git(repo, "checkout", "-q", "--", "classic.json")
    assert write_policy(cal, path, ship=True) == path  # as committed: replaced, and recorded
    assert write_policy(cal, path, ship=True) == path  # changed since its commit, but as we wrote it
    assert listing(repo) == [".classic.json.belote", ".git", "classic.json"]


@pytest.mark.parametrize("play", ["heuristic", "net"])
def test_make_policies_may_replace_every_shipped_policy(play):
    from analyzer import git_commit
    from analyzer.questions import calibrate as C

    if git_commit() is None:
        pytest.skip("not a git checkout: the shipped policies are replaced only where git records them")
    for label in C.SHIPPED_LABELS:
        path = C.shipped_path(label, play)
        assert check_policy_target(path, ship=True) == path


# --- 7. an earlier folder that cannot be removed is said, never said removed ---------------------


@pytest.fixture
def shared_dir():
    """A folder anyone may write in, without the sticky bit (tmp_path's parents are private to root)."""
    import shutil
    import tempfile

    base = Path(tempfile.mkdtemp(prefix="belote-shared-"))
    base.chmod(0o777)
    try:
        yield base
    finally:
        shutil.rmtree(base)


COMMIT = """
    import sys
    from analyzer.output import outdir

    with outdir.Staged(sys.argv[1]) as stage:
        if sys.argv[2] == "write":
            (stage.tmp / "new.md").write_text("the new report")
            stage.commit({"command": "belote test"})
"""


def run_as(user, env, *args) -> subprocess.CompletedProcess:
    return subprocess.run([*user, "-c", textwrap.dedent(COMMIT), *map(str, args)], capture_output=True, text=True,
                          env=env, cwd="/", timeout=120)


def test_an_earlier_folder_the_user_cannot_empty_is_said_where_it_stays(shared_dir):
    # a report written as root, then replaced by a user who cannot delete root's files in it
    user, env = as_nobody()
    dest = shared_dir / "r"
    before = earlier(dest, index_md="root's report")
    p = run_as(user, env, dest, "write")
    assert p.returncode == 0, p.stderr  # the new report is in place: the run succeeded
    assert contents(dest).keys() == {"new.md", RUN_FILE} and (dest / "new.md").read_text() == "the new report"
    left = [n for n in listing(shared_dir) if n.startswith(".r.belote-")]
    assert len(left) == 1 and contents(shared_dir / left[0]) == before  # nothing of it could go
    said = [line for line in p.stderr.splitlines() if line.strip()]
    assert len(said) == 1 and "Traceback" not in p.stderr, p.stderr
    assert str(shared_dir / left[0]) in said[0] and "could not be removed" in said[0], said
    assert "Permission denied" in said[0] and "remove it" in said[0], said


def test_a_leftover_that_cannot_be_removed_is_never_said_removed(shared_dir):
    # a killed run's earlier folder, root's: every later run of the user tried to remove it, failed
    # in silence and said "removed"
    user, env = as_nobody()
    dest = shared_dir / "r"
    earlier(dest, index_md="the current report")
    pid = dead_pid()
    before = earlier(shared_dir / f".r.belote-old-{pid}", index_md="the report before it, root's")
    for name in (f".r.belote-old-{pid}", f".r.belote-unremoved-{pid}"):  # every run tries again, and says so
        p = run_as(user, env, dest, "check")
        assert p.returncode == 0, p.stderr
        said = [line for line in p.stderr.splitlines() if line.strip()]
        assert len(said) == 1 and "Traceback" not in p.stderr, p.stderr
        assert "removed .r.belote" not in said[0] and f"could not remove {name}" in said[0], said
        assert "Permission denied" in said[0] and "remove it as root" in said[0], said
        left = [n for n in listing(shared_dir) if n.endswith(f"-{pid}")]
        assert left == [f".r.belote-unremoved-{pid}"] and contents(shared_dir / left[0]) == before
    with Staged(dest):  # root may: removed, and said so
        pass
    assert listing(shared_dir) == ["r"]
