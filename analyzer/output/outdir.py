"""Output folders and files: the one rule every command with ``--out`` (or ``--log``) follows, and ``run.json``.

The rule (checked before any work starts):

- a folder that does not exist is created (its parent folders too);
- an empty folder is used;
- a folder that is *ours* is replaced, atomically: the new content is written to a
  temporary folder beside it, the two are swapped with renames, and the old one is
  removed only after the swap. A folder is ours when it holds a ``run.json`` written
  by belote-analyzer (``"tool": "belote-analyzer"``) and nothing but the files that
  ``run.json`` lists, each still as we wrote it: ``run.json`` records every file's
  sha256 and its own (``sha256``, ``run_sha256``), so a file a user added to an
  earlier report, or an edit to one of ours (``run.json`` included), is never deleted;
- a folder whose ``run.json`` records no digests (written before they were recorded)
  is refused too: whether a user changed it cannot be known, and a folder that may
  hold a user's work is never deleted on a guess;
- anything else is refused with one line naming the fix (exit 2): a file, a folder
  holding anything we did not write, and a folder that contains the current folder or
  the repository (``--out .``, ``--out ..``).

Every folder written this way holds ``run.json``: tool, version, git commit, the command
line, seed, rules, policies, the files written with their digests and the UTC time it
was created.

An output file (a deal log, ``--log``; a policy file, ``calibrate --out``) follows the same
rule: it is replaced only when its sha256 is the one recorded when belote wrote it. The
record is a file beside it, ``.NAME.belote`` (tool, file name, ``sha256``), itself written
beside it and renamed into place: before the new file is renamed into place it names both
the new digest and the one it replaces (``replacing``), and only the new one after, so a run
killed at any point leaves a file its record vouches for. A file whose digest differs (a line appended by hand, an edited
threshold) is refused in one line naming it; so is a file with no record beside it
(written by a version before records, or moved without its record): whether someone
changed it cannot be known, exactly as for a ``run.json`` without digests. One mechanism
serves both kinds of file, and it is kept apart from the content as ``run.json`` is from a
folder's files: a deal log's every line is a ``belote-deal/1`` record that readers check
(docs/DEAL_LOG.md), so a trailer would break them, and a digest inside a policy file would
be a second mechanism for one rule. The one exception is ``calibrate --ship``, which writes
the package's own policies: those files, as committed, carry no record, and git's is used
instead (a file whose bytes are git's blob in ``HEAD`` may be replaced: nothing is lost
that git does not hold). An output file is never a device, a named pipe or a symbolic link,
and is written beside its target (``.NAME.belote-tmp-PID``) and renamed into place.

One run at a time writes a destination: a run holds an exclusive ``fcntl`` lock on
``.NAME.belote-lock`` beside it from the check to the end, and a second run is refused
in one line. An interrupted run (Ctrl-C, SIGTERM) removes its temporary folder; the
swap itself runs with those signals blocked. SIGKILL cannot be blocked: a run killed
between the two renames leaves the destination missing and the earlier content in
``.NAME.belote-old-PID``, and any killed run leaves ``.NAME.belote-tmp-PID``. The next
run to that destination, holding the lock, finds these leftovers of a dead process,
puts the earlier content back (when the destination is missing) or removes them, and
says so in one line on stderr (``recover``).

An earlier folder that cannot be removed once the new one is in place (it holds files of
another user, e.g. a report written as root) leaves the run a success, since its output is
written, but is said in one line naming the folder, why, and the fix; it is renamed
``.NAME.belote-unremoved-PID`` (never put back: part of it may be gone). Later runs try
again and say "removed" only of what is gone, otherwise that it could not be removed and why.
"""

from __future__ import annotations

import errno
import fcntl
import hashlib
import json
import os
import re
import shlex
import shutil
import stat
import subprocess
import sys
from contextlib import ExitStack, contextmanager
from dataclasses import dataclass
from datetime import datetime, timezone
from pathlib import Path
from typing import Callable

import numpy as np

import analyzer
from analyzer import git_commit  # noqa: F401 (provenance of every output)
from analyzer.errors import BeloteError, not_a_file
from analyzer.processes import alive
from analyzer.runs.signals import signals_blocked

TOOL = "belote-analyzer"
RUN_FILE = "run.json"
_REPO = Path(__file__).resolve().parents[2]  # the checkout holding this package


def provenance() -> dict:
    """``{"tool", "version", "git_commit"}``: what every ``--json`` output and ``run.json`` starts with."""
    return {"tool": TOOL, "version": analyzer.__version__, "git_commit": git_commit()}


def command_line(argv: list[str] | None = None) -> str:
    """The command as typed, ``belote`` first (for ``run.json``)."""
    args = sys.argv[1:] if argv is None else argv
    return " ".join(["belote"] + [shlex.quote(a) for a in args])


# --- run.json and the digests that say a folder is still as we wrote it ---------------------------


def _sha256(path: Path) -> str | None:
    """The sha256 of a regular file (not followed through a symlink), None for anything else."""
    try:
        if not stat.S_ISREG(os.lstat(path).st_mode):
            return None
        h = hashlib.sha256()
        with open(path, "rb") as f:
            for block in iter(lambda: f.read(1 << 20), b""):
                h.update(block)
        return h.hexdigest()
    except FileNotFoundError:
        return None


def _run_digest(run: dict) -> str:
    """The digest of ``run.json``'s own content (every key but ``run_sha256``), key order and
    layout aside: computed from the parsed JSON, so writing and reading agree."""
    rest = {k: v for k, v in run.items() if k != "run_sha256"}
    return hashlib.sha256(json.dumps(rest, sort_keys=True).encode()).hexdigest()


def write_run(folder: Path, run: dict) -> dict:
    """Write ``folder/run.json``: ``run`` with the sha256 of every other file in ``folder``
    (``files``, ``sha256``) and of itself (``run_sha256``); returns what was written."""
    folder = Path(folder)
    files = sorted(p.name for p in folder.iterdir() if p.name != RUN_FILE)
    run = json.loads(json.dumps(dict(run) | {"files": files, "sha256": {n: _sha256(folder / n) for n in files}},
                                default=_json_default))
    run["run_sha256"] = _run_digest(run)
    (folder / RUN_FILE).write_text(json.dumps(run, indent=2) + "\n")
    return run


def read_run(folder: Path) -> dict | None:
    """The ``run.json`` of ``folder`` if belote-analyzer wrote it, else None."""
    path = Path(folder) / RUN_FILE
    try:  # a regular file only: reading a named pipe would wait forever
        run = json.loads(path.read_text()) if stat.S_ISREG(os.lstat(path).st_mode) else None
    except (OSError, ValueError):
        return None
    return run if isinstance(run, dict) and run.get("tool") == TOOL else None


def _not_ours(folder: Path) -> tuple[str, str] | None:
    """Why ``folder`` may hold something a user wrote or changed, and what to move away (the
    files or the folder), or None when all of it is ours."""
    names = sorted(p.name for p in folder.iterdir())
    if not names:
        return None
    run = read_run(folder)
    if run is None:
        return f"holds files belote did not write ({_some(names)})", "them"
    digests = run.get("sha256")
    if not isinstance(digests, dict) or run.get("run_sha256") is None:
        return ("was written by an earlier belote that did not record its files' digests, so whether "
                "someone changed it since cannot be known"), "it"
    if run["run_sha256"] != _run_digest(run):
        return f"holds a {RUN_FILE} that was changed since belote wrote it", "it"
    foreign = [n for n in names if n != RUN_FILE and n not in digests]
    if foreign:
        return f"holds files belote did not write ({_some(foreign)})", "them"
    changed = [n for n in names if n != RUN_FILE and _sha256(folder / n) != digests[n]]
    if changed:
        return f"holds files changed since belote wrote them ({_some(changed)})", "them"
    return None


def _some(names: list[str]) -> str:
    return ", ".join(names[:3]) + (f" and {len(names) - 3} more" if len(names) > 3 else "")


def _holds(folder: Path, inner: Path) -> bool:
    return inner == folder or folder in inner.parents


def check_out(dest: str | Path, flag: str = "--out") -> Path:
    """Apply the rule to ``dest`` without writing anything; return it as an absolute path."""
    dest = Path(os.path.abspath(dest))
    fix = f"choose a new or empty folder, e.g. {flag} reports/run1"
    if _holds(dest, Path.cwd().resolve()) or _holds(dest, Path(os.path.abspath(Path.cwd()))):
        raise BeloteError(f"{flag} {dest} contains the current folder, which belote did not write: {fix}")
    if _holds(dest, _REPO):
        raise BeloteError(f"{flag} {dest} contains the belote-analyzer checkout: {fix}")
    if dest.is_symlink() or (dest.exists() and not dest.is_dir()):
        raise BeloteError(f"{flag} {dest} is a file, not a folder: {fix}")
    if dest.is_dir():
        try:
            why = _not_ours(dest)
        except OSError as e:
            raise BeloteError(f"cannot read {flag} {dest}: {e.strerror or e}; {fix}") from None
        if why:
            raise BeloteError(f"{flag} {dest} {why[0]}: {fix}, or move {why[1]} away")
    parent = dest.parent
    if parent.exists() and not parent.is_dir():
        raise BeloteError(f"{flag} {dest}: {parent} is a file, not a folder: {fix}")
    return dest


def _remove(path: Path) -> OSError | None:
    """Remove a temporary file or folder of ours, with SIGINT / SIGTERM held meanwhile; returns
    the first error met when some of it could not be removed (all of it is tried), its
    ``filename`` the full path of what could not go, else None."""
    errors = []

    def failed(function, where, exc):  # rmtree's onexc (exc) or onerror (exc_info); exc.filename may be a bare name
        e = exc if isinstance(exc, BaseException) else exc[1]
        errors.append(OSError(e.errno, e.strerror, where) if isinstance(e, OSError) else OSError(str(e)))

    with signals_blocked():
        try:
            if path.is_dir() and not path.is_symlink():
                shutil.rmtree(path, **({"onexc": failed} if sys.version_info >= (3, 12) else {"onerror": failed}))
            else:
                path.unlink(missing_ok=True)
        except OSError as e:
            errors.append(e)
    if not errors and os.path.lexists(path):  # not expected, but "removed" is said only of what is gone
        errors.append(OSError(errno.EEXIST, os.strerror(errno.EEXIST), str(path)))
    return errors[0] if errors else None


def _why_not_removed(e: OSError, beside: Path) -> str:
    """Why a removal failed and what to do, in a few words, paths shown from the folder
    ``beside``: ``Permission denied (.r.belote-unremoved-PID/index.md: its folder belongs to
    root); remove it as root``."""
    said = os.strerror(e.errno) if e.errno else str(e)
    if not e.filename:
        return f"{said}; remove it yourself once that is put right"
    where = Path(e.filename)
    shown = where.relative_to(beside) if where.is_relative_to(beside) else where
    if e.errno not in (errno.EACCES, errno.EPERM):
        return f"{said} ({shown}); remove it yourself once that is put right"
    try:  # an entry is removed from its folder: who may is that folder's owner
        import pwd

        uid = where.parent.lstat().st_uid
        try:
            owner = pwd.getpwuid(uid).pw_name
        except KeyError:
            owner = f"user {uid}"
    except OSError:
        return f"{said} ({shown}); remove it as a user who may"
    return f"{said} ({shown}: its folder belongs to {owner}); remove it as {owner}"


def _discard(old: Path, dest: Path, pid: int) -> tuple[Path | None, str | None]:
    """Remove ``old``, the earlier content of ``dest`` (moved aside by run ``pid``). Returns
    (None, None) when it is gone; otherwise where what is left of it now is (renamed
    ``.NAME.belote-unremoved-PID``, so that it is never put back as a complete earlier folder)
    and why it could not be removed."""
    e = _remove(old)
    if e is None:
        return None, None
    left = _beside(dest, "unremoved", pid)
    try:
        if old == left or os.path.lexists(left):
            raise FileExistsError
        with signals_blocked():
            os.rename(old, left)
    except OSError:
        left = old
    if e.filename and left != old and Path(e.filename).is_relative_to(old):  # named where it is now
        e = OSError(e.errno, e.strerror, str(left / Path(e.filename).relative_to(old)))
    return left, _why_not_removed(e, dest.parent)


# --- one run per destination, and what a killed run left beside it -------------------------------


def _beside(dest: Path, kind: str, pid: int | None = None) -> Path:
    """``.NAME.belote-KIND[-PID]`` beside ``dest``: how every temporary entry of ours is named."""
    return dest.parent / (f".{dest.name}.belote-{kind}" + ("" if pid is None else f"-{pid}"))


def _write_error(e: OSError, flag: str, dest: Path) -> BeloteError:
    """A failed write as one line: what the system said (in its words, not a library's: Parquet's
    full disk is "Error writing bytes to file. Detail: [errno 28] ...") and the fix."""
    fix = (f"free some space, or choose another {flag}" if e.errno in (errno.ENOSPC, errno.EDQUOT)
           else f"choose another {flag}, in a writable folder")
    said = os.strerror(e.errno) if e.errno else (e.strerror or e)
    return BeloteError(f"cannot write {flag} {dest}: {said} ({fix})")


_held: set[Path] = set()  # the lock files this process holds (its outermost ``locked`` releases them)


@contextmanager
def locked(dest: Path, flag: str):
    """Hold the exclusive lock of ``dest`` (``.NAME.belote-lock`` beside it, which holds the
    holder's PID) meanwhile; refuse in one line when another run holds it. Re-entrant in one
    process. The lock file is removed on release, under the lock; an acquirer that finds the
    file it locked replaced or removed meanwhile tries again, so two runs never hold two
    different files of one name. A lock file a killed run left is simply locked again."""
    path = _beside(dest, "lock")
    if path in _held:
        yield
        return

    while True:
        try:
            fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o644)
        except OSError as e:
            raise _write_error(e, flag, dest) from None
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            holder = os.read(fd, 32).decode(errors="replace").strip()
            os.close(fd)
            raise BeloteError(f"{flag} {dest} is being written by another belote run"
                              + (f" (PID {holder})" if holder.isdigit() else "")
                              + f": wait for it to finish, or choose another {flag}") from None
        try:
            same = os.path.samestat(os.fstat(fd), os.stat(path))
        except FileNotFoundError:
            same = False
        if same:
            break
        os.close(fd)
    try:
        try:  # the PID only names the holder in a refusal: a full disk must not stop the run here
            os.ftruncate(fd, 0)
            os.write(fd, f"{os.getpid()}\n".encode())
        except OSError:
            pass
        _held.add(path)
        yield
    finally:
        with signals_blocked():
            _held.discard(path)
            Path(path).unlink(missing_ok=True)
            os.close(fd)


def recover(dest: Path) -> str | None:
    """Put right what runs killed while writing ``dest`` left beside it (called holding its
    lock): ``.NAME.belote-old-PID``, the earlier content a run moved aside before it was
    killed, goes back to ``dest`` when ``dest`` is missing (the newest, if several) and is
    removed otherwise; ``.NAME.belote-tmp-PID`` and ``.NAME.belote-record-PID``, a
    half-written or never swapped result or record, are removed; ``.NAME.belote-unremoved-PID``,
    an earlier folder a finished run could not remove, is removed. Only entries of dead
    processes are touched. Returns the lines (one for a killed run's leftovers, one for what
    could not be removed before) that say what was done and what could not be, or None when
    there was nothing."""
    pattern = re.compile(re.escape(f".{dest.name}.belote-") + r"(tmp|record|old|unremoved)-(\d+)")
    found = []
    for p in dest.parent.iterdir():
        m = pattern.fullmatch(p.name)
        if m and not alive(int(m.group(2))):
            found.append((m.group(1), int(m.group(2)), p))
    if not found:
        return None
    killed, unremoved = [], []
    with signals_blocked():
        olds = sorted((p for kind, _, p in found if kind == "old"), key=lambda p: p.lstat().st_mtime)
        if olds and not os.path.lexists(dest):
            newest = olds[-1]
            os.replace(newest, dest)
            killed.append(f"restored {dest} from {newest.name}")
        for kind, pid, p in found:
            if not os.path.lexists(p):
                continue
            if kind in ("old", "unremoved"):
                left, why = _discard(p, dest, pid)
            else:
                e = _remove(p)
                left, why = (None, None) if e is None else (p, _why_not_removed(e, dest.parent))
            said = (f"removed {p.name}" if left is None else
                    f"could not remove {p.name}" + (f" (left as {left.name})" if left != p else "") + f": {why}")
            (unremoved if kind == "unremoved" else killed).append(said)
    lines = []
    pids = ", ".join(str(pid) for pid in sorted({pid for kind, pid, _ in found if kind != "unremoved"}))
    if killed:
        lines.append(f"belote: a run writing {dest} was killed (PID {pids}) and left it unfinished: " + "; ".join(killed))
    if unremoved:
        lines.append(f"belote: the earlier content of {dest} that an earlier run could not remove: " + "; ".join(unremoved))
    return "\n".join(lines)


def _open_elsewhere(path: Path) -> bool:
    """Whether another process may have ``path`` open: True unless a write lease (Linux
    ``F_SETLEASE``, granted only while no other process has the file open) is granted."""
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK)
    except OSError:
        return True
    try:
        fcntl.fcntl(fd, fcntl.F_SETLEASE, fcntl.F_WRLCK)
        fcntl.fcntl(fd, fcntl.F_SETLEASE, fcntl.F_UNLCK)
        return False
    except (OSError, AttributeError):  # open elsewhere, or leases unknown here (not Linux, NFS)
        return True
    finally:
        os.close(fd)


def remove_unused(folder: Path, pattern: str) -> list[str]:
    """Remove the regular files of ``folder`` whose names match ``pattern`` and that no
    process has open, and return their names: for temporary files whose names say nothing
    of their writer (an earlier version's). Where that cannot be known, nothing is removed."""
    removed = []
    for p in sorted(folder.iterdir()):
        if re.fullmatch(pattern, p.name) and p.is_file() and not p.is_symlink() and not _open_elsewhere(p):
            _remove(p)
            removed.append(p.name)
    return removed


@contextmanager
def claimed(dest: Path, flag: str):
    """``dest``'s folder created, its lock held and a killed run's leftovers put right (said on
    stderr) meanwhile: what a run does before writing ``dest``, held for the run's duration."""
    try:
        dest.parent.mkdir(parents=True, exist_ok=True)
    except OSError as e:
        raise _write_error(e, flag, dest) from None
    with locked(dest, flag):
        note = recover(dest)
        if note:
            print(note, file=sys.stderr)
        yield


class Staged:
    """A destination checked against the rule and a temporary folder beside it to write into.

    Use as a context manager: entering it takes the destination's lock (``claimed``) for the
    run's duration; on an exception (an interruption included) the temporary folder is
    removed and the destination is untouched, and a failed write (a full disk) becomes one
    line; ``commit`` writes ``run.json`` and swaps the temporary folder into place.

    Two ways to write: ``write`` writes the results once the work is done and raises its
    failure as one line the caller can hold until it has printed them (the CLI's ``_save``);
    a run that writes as it goes (the report, whose results are its files) stops at its first
    failed write, and its line says that nothing was written and the numbers so far are lost.
    They are not kept elsewhere: the report stops at the first file it cannot write, so the
    work left undone is most of it, a second disk with room is not known to exist, and a
    partial report would break the rule that the folder appears only when complete.
    """

    def __init__(self, dest: str | Path, flag: str = "--out"):
        self.flag = flag
        self.dest = check_out(dest, flag)
        self.tmp = _beside(self.dest, "tmp", os.getpid())
        self.committed = False
        self._claim = ExitStack()

    def __enter__(self) -> "Staged":
        """Claim the destination and create the temporary folder (an interruption meanwhile
        releases both: ``__exit__`` is not called when ``__enter__`` fails)."""
        self._claim.enter_context(claimed(self.dest, self.flag))
        try:
            check_out(self.dest, self.flag)  # a killed run's earlier folder may be back
            self.tmp.mkdir()
        except OSError as e:
            self._claim.close()
            raise _write_error(e, self.flag, self.dest) from None
        except BaseException:
            _remove(self.tmp)
            self._claim.close()
            raise
        return self

    def __exit__(self, exc_type, exc, tb):
        try:
            if exc_type is not None or not self.committed:
                _remove(self.tmp)
        finally:
            self._claim.close()
        if isinstance(exc, OSError) and exc.errno in (errno.ENOSPC, errno.EDQUOT, errno.EROFS):
            # written as the work goes (the report): the run stops at its first file that cannot be written
            raise BeloteError(f"{_write_error(exc, self.flag, self.dest)}; the run stopped there: nothing was "
                              f"written to {self.dest}, and the numbers computed so far are lost") from None
        return False

    def write(self, write, run: dict) -> list[Path]:
        """``write(folder)`` (which returns the paths it wrote) into the temporary folder, then
        ``commit(run)``; returns the paths written, in the destination. A failed write (a full
        disk) is one line (``BeloteError``) and the temporary folder is removed when the block
        ends, so a caller can catch it, show what it computed, and raise it then."""
        try:
            names = [Path(p).name for p in write(self.tmp)]
            self.commit(run)
        except OSError as e:
            raise _write_error(e, self.flag, self.dest) from None
        return [self.dest / n for n in names]

    def commit(self, run: dict) -> dict:
        """Write ``run.json`` (provenance, ``run``, the files and their digests, created) and
        swap the folder into place."""
        check_out(self.dest, self.flag)  # the destination may have changed while we worked
        run = write_run(self.tmp, provenance() | dict(run) | {
            "created": datetime.now(timezone.utc).isoformat(timespec="seconds")})
        old = _beside(self.dest, "old", os.getpid())
        with signals_blocked():
            try:
                if self.dest.exists():
                    os.replace(self.dest, old)
                os.replace(self.tmp, self.dest)
            except OSError as e:
                if old.exists() and not self.dest.exists():
                    os.replace(old, self.dest)
                raise BeloteError(f"cannot write {self.flag} {self.dest}: {e.strerror or e}") from None
            self.committed = True
            left, why = _discard(old, self.dest, os.getpid()) if os.path.lexists(old) else (None, None)
        if left is not None:  # the new folder is in place: the run succeeded, and says what it left
            print(f"belote: {self.dest} is written, but its earlier content could not be removed and is left in "
                  f"{left}: {why}", file=sys.stderr)
        return run


def _json_default(o):
    if isinstance(o, np.integer):
        return int(o)
    if isinstance(o, np.floating):
        return float(o)
    if isinstance(o, Path):
        return str(o)
    raise TypeError(type(o).__name__)


def check_regular(path: str | Path, flag: str, example: str = "deals.jsonl") -> Path:
    """An output file's path, absolute: refused when it is a folder, a device or a named pipe
    (asked before anything reads it: reading ``/dev/full`` never ends, a pipe waits forever)."""
    path = Path(os.path.abspath(path))
    if path.is_dir():
        raise BeloteError(f"{flag} {path} is a folder: give a file name, e.g. {flag} {path / example}")
    kind = not_a_file(path)
    if kind:
        raise BeloteError(f"{flag} {path} is {kind}, not a file: give a file name, e.g. {flag} {example}")
    return path


# --- output files: the record beside each of the digest it was written with ---------------------

MAX_RECORD_BYTES = 4096  # a record is about 200 bytes: anything larger is not one


@dataclass(frozen=True)
class FileKind:
    """A kind of output file, for the words of ``check_file``: ``what`` it is (``"a deal log"``),
    ``looks_like(path)``, whether a file with no record beside it is one (asked of regular files
    only, so it never reads a device or waits on a pipe), and an ``example`` name."""

    what: str
    looks_like: Callable[[Path], bool]
    example: str


def record_path(path: Path) -> Path:
    """``.NAME.belote`` beside an output file: the record that says belote wrote it, and how."""
    return path.parent / f".{path.name}.belote"


def _is_digest(value) -> bool:
    return isinstance(value, str) and len(value) == 64 and all(c in "0123456789abcdef" for c in value)


def read_record(path: Path) -> set[str] | str:
    """The digests the record beside the output file ``path`` vouches for (the file's, and while
    it was being swapped the one it replaced); an empty set when there is no record; a string
    saying why, when what is there is not a record belote wrote of this file."""
    rec = record_path(path)
    try:
        st = os.lstat(rec)
    except FileNotFoundError:
        return set()
    except OSError as e:
        return f"cannot be read ({e.strerror})"
    if not stat.S_ISREG(st.st_mode) or st.st_size > MAX_RECORD_BYTES:
        return "is not a record belote wrote (not a small regular file)"
    try:
        doc = json.loads(rec.read_bytes())
    except OSError as e:
        return f"cannot be read ({e.strerror})"
    except ValueError:
        return "is not a record belote wrote (not JSON)"
    if not isinstance(doc, dict) or doc.get("tool") != TOOL or not _is_digest(doc.get("sha256")):
        return "is not a record belote wrote (no tool and sha256)"
    if doc.get("file") != path.name:
        return f"is the record of another file ({str(doc.get('file'))[:80]!r}), not of {path.name}"
    if doc.get("replacing") is not None and not _is_digest(doc["replacing"]):
        return "is not a record belote wrote (its replacing is no sha256)"
    return {doc["sha256"]} | ({doc["replacing"]} if doc.get("replacing") else set())


def _write_record(path: Path, digest: str, replacing: str | None = None) -> None:
    """Write the record of the output file ``path`` (``.NAME.belote``): beside it, then renamed
    into place, so a record is whole or not there."""
    tmp = _beside(path, "record", os.getpid())
    doc = {"tool": TOOL, "version": analyzer.__version__, "file": path.name, "sha256": digest}
    if replacing and replacing != digest:
        doc["replacing"] = replacing
    try:
        tmp.write_text(json.dumps(doc, indent=2) + "\n")
        os.replace(tmp, record_path(path))
    finally:
        tmp.unlink(missing_ok=True)


def _git_state(path: Path) -> str | None:
    """``"unchanged"`` when ``path``'s bytes are the blob git holds for it in its folder's
    ``HEAD``, ``"changed"`` when git holds other bytes, None when git holds nothing of it (no
    repository, the file not committed, no git). The blob's id is git's digest of the file."""
    try:
        p = subprocess.run(["git", "-C", str(path.parent), "rev-parse", "--verify", "--quiet", f"HEAD:./{path.name}"],
                           capture_output=True, text=True, timeout=10)
    except (OSError, subprocess.SubprocessError):
        return None
    blob = p.stdout.strip()
    if p.returncode or len(blob) not in (40, 64):
        return None
    data = path.read_bytes()
    digest = (hashlib.sha1 if len(blob) == 40 else hashlib.sha256)(b"blob %d\0" % len(data) + data).hexdigest()
    return "unchanged" if digest == blob else "changed"


def _file_not_ours(path: Path, kind: FileKind, committed: bool) -> str | None:
    """Why the output file ``path`` may not be replaced, with the fix, or None when it may: it does
    not exist, or its digest is one its record vouches for (or, with ``committed``, git's)."""
    rec = record_path(path)
    recorded = read_record(path)
    fix = "choose another file name, or move it away"
    if not os.path.lexists(path):
        if isinstance(recorded, str):  # ours would be written over it
            return f"cannot be written: {rec}, where belote records the file's digest, {recorded}: {fix}"
        return None
    if os.path.islink(path):
        return f"is a symbolic link, which belote does not write: {fix}"
    if isinstance(recorded, str):
        return (f"has {rec} beside it, which {recorded}, so whether belote wrote it cannot be known: choose another "
                f"file name, or move both away")
    if _sha256(path) in recorded:
        return None
    git = _git_state(path) if committed else None
    if git == "unchanged":
        return None
    if committed:  # the package's own files (calibrate --ship): no other name can be chosen
        fix = ("commit it first (git then keeps your version), or move it away" if git is not None else
               "move it away, or commit it in the checkout first (git then keeps it)")
        if git == "changed":
            return f"was changed since it was committed (git holds other bytes for it): {fix}"
    if recorded:
        return f"was changed since belote wrote it (its sha256 is not the one recorded in {rec.name}): {fix}"
    if not kind.looks_like(path):
        return f"exists and belote did not write it: {fix}"
    return (f"is {kind.what} with no record of its digest beside it ({rec.name}; earlier versions wrote none), so "
            f"whether someone changed it since belote wrote it cannot be known: {fix}")


def check_file(path: str | Path, flag: str, kind: FileKind, committed: bool = False) -> Path:
    """An output file of ``kind``: not a folder, a device or a named pipe; its folder is one or
    can be created, and is writable; an existing file is replaced only when its digest is the one
    recorded beside it when belote wrote it (``_file_not_ours``), or, with ``committed``, the one
    git holds for it."""
    path = check_regular(path, flag, kind.example)
    folder = path.parent
    while not folder.exists():  # created when written, as --out folders are
        folder = folder.parent
    if not folder.is_dir():
        raise BeloteError(f"cannot write {flag} {path}: {folder} is a file, not a folder (choose another {flag})")
    if not os.access(folder, os.W_OK | os.X_OK):
        raise BeloteError(f"cannot write {flag} {path}: folder {folder} is not writable (choose another {flag})")
    try:
        why = _file_not_ours(path, kind, committed)
    except OSError as e:
        raise BeloteError(f"cannot read {flag} {path}: {e.strerror or e} (choose another {flag})") from None
    if why:
        raise BeloteError(f"{flag} {path} {why}")
    return path


@contextmanager
def claimed_file(path: str | Path, flag: str, kind: FileKind, committed: bool = False):
    """An output file checked (``check_file``) and claimed (``claimed``) meanwhile; yields its path."""
    path = check_file(path, flag, kind, committed)
    with claimed(path, flag):
        yield check_file(path, flag, kind, committed)  # as a killed run left it


def write_lines(path: str | Path, lines, flag: str, kind: FileKind, committed: bool = False) -> int:
    """Write ``lines`` (strings ending in a newline, or bytes) to the output file ``path``: claimed, written
    to ``.NAME.belote-tmp-PID`` beside it and renamed into place, so a failure leaves an earlier
    file intact and a full disk is one line; then its record (``.NAME.belote``, its sha256).
    Returns the number of lines written."""
    with claimed_file(path, flag, kind, committed) as path:
        tmp = _beside(path, "tmp", os.getpid())
        count = 0
        digest = hashlib.sha256()
        try:
            with open(tmp, "wb") as f:
                for line in lines:
                    data = line if isinstance(line, bytes) else line.encode()
                    f.write(data)
                    digest.update(data)
                    count += 1
            replacing = _sha256(path)  # an earlier file of ours (checked), or None
            with signals_blocked():
                # the record first, vouching for both files: a run killed between the steps leaves
                # a file its record vouches for, whichever of the two it is
                _write_record(path, digest.hexdigest(), replacing)
                os.replace(tmp, path)
                if replacing:
                    try:
                        _write_record(path, digest.hexdigest())
                    except OSError:  # the record above vouches for the file written (and the one before)
                        pass
        except OSError as e:
            _remove(tmp)
            raise _write_error(e, flag, path) from None
        except BaseException:
            _remove(tmp)
            raise
    return count


__all__ = ["TOOL", "RUN_FILE", "Staged", "FileKind", "check_out", "check_file", "check_regular", "claimed_file", "write_lines",
           "record_path", "read_record", "read_run", "write_run", "recover", "remove_unused", "provenance", "git_commit", "command_line",
           "signals_blocked"]
