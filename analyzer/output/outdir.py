"""Output folders: the one rule every command with ``--out`` follows, and ``run.json``.

The rule (checked before any work starts):

- a folder that does not exist is created;
- an empty folder is used;
- a folder that is *ours* is replaced, atomically: the new content is written to a
  temporary folder beside it, the two are swapped with renames, and the old one is
  removed only after the swap. A folder is ours when it holds a ``run.json`` written
  by belote-analyzer (``"tool": "belote-analyzer"``) and nothing but the files that
  ``run.json`` lists, so a file a user added to an earlier report is never deleted;
- anything else is refused with one line naming the fix (exit 2): a file, a folder
  holding anything we did not write, and a folder that contains the current folder or
  the repository (``--out .``, ``--out ..``).

Every folder written this way holds ``run.json``: tool, version, git commit, the command
line, seed, rules, policies, the files written and the UTC time it was created.

An interrupted run (Ctrl-C, SIGTERM) removes its temporary folder; the swap itself runs
with those signals blocked, so an interruption never leaves the destination missing.
"""

from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import sys
from contextlib import contextmanager
from datetime import datetime, timezone
from pathlib import Path

import analyzer
from analyzer import git_commit  # noqa: F401 (provenance of every output)
from analyzer.errors import BeloteError

TOOL = "belote-analyzer"
RUN_FILE = "run.json"
_REPO = Path(__file__).resolve().parents[2]  # the checkout holding this package


def provenance() -> dict:
    """``{"tool", "version", "git_commit"}``: what every ``--json`` output and ``run.json`` starts with."""
    return {"tool": TOOL, "version": analyzer.__version__, "git_commit": git_commit()}


def command_line(argv: list[str] | None = None) -> str:
    """The command as typed, ``belote`` first (for ``run.json``)."""
    import shlex

    args = sys.argv[1:] if argv is None else argv
    return " ".join(["belote"] + [shlex.quote(a) for a in args])


def read_run(folder: Path) -> dict | None:
    """The ``run.json`` of ``folder`` if belote-analyzer wrote it, else None."""
    try:
        run = json.loads((Path(folder) / RUN_FILE).read_text())
    except (OSError, ValueError):
        return None
    return run if isinstance(run, dict) and run.get("tool") == TOOL else None


def _foreign_entries(folder: Path) -> list[str]:
    """What in ``folder`` we did not write: everything, unless its run.json lists it."""
    names = sorted(p.name for p in folder.iterdir())
    run = read_run(folder)
    if run is None:
        return names
    ours = set(run.get("files") or []) | {RUN_FILE}
    return [n for n in names if n not in ours]


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
            foreign = _foreign_entries(dest)
        except OSError as e:
            raise BeloteError(f"cannot read {flag} {dest}: {e.strerror or e}; {fix}") from None
        if foreign:
            shown = ", ".join(foreign[:3]) + (f" and {len(foreign) - 3} more" if len(foreign) > 3 else "")
            raise BeloteError(f"{flag} {dest} holds files belote did not write ({shown}): {fix}, "
                              "or move them away")
    parent = dest.parent
    if parent.exists() and not parent.is_dir():
        raise BeloteError(f"{flag} {dest}: {parent} is a file, not a folder: {fix}")
    return dest


@contextmanager
def signals_blocked():
    """Hold SIGINT and SIGTERM until the block ends (they are delivered then, not lost)."""
    sigs = {signal.SIGINT, signal.SIGTERM}
    old = signal.pthread_sigmask(signal.SIG_BLOCK, sigs)
    try:
        yield
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, old)


def _remove(path: Path) -> None:
    """Remove a temporary file or folder of ours, with SIGINT / SIGTERM held meanwhile."""
    with signals_blocked():
        if path.is_dir() and not path.is_symlink():
            shutil.rmtree(path, ignore_errors=True)
        else:
            path.unlink(missing_ok=True)


class Staged:
    """A destination checked against the rule and a temporary folder beside it to write into.

    Use as a context manager: on an exception (an interruption included) the temporary
    folder is removed and the destination is untouched; ``commit`` writes ``run.json``
    and swaps the temporary folder into place.
    """

    def __init__(self, dest: str | Path, flag: str = "--out"):
        self.flag = flag
        self.dest = check_out(dest, flag)
        self.tmp = self.dest.parent / f".{self.dest.name}.belote-tmp-{os.getpid()}"
        self.committed = False

    def __enter__(self) -> "Staged":
        """Create the temporary folder (an interruption meanwhile removes it: ``__exit__``
        is not called when ``__enter__`` fails)."""
        try:
            self.dest.parent.mkdir(parents=True, exist_ok=True)
            if self.tmp.exists():
                _remove(self.tmp)
            self.tmp.mkdir()
        except OSError as e:
            raise BeloteError(f"cannot write {self.flag} {self.dest}: {e.strerror or e}; "
                              "choose a writable folder") from None
        except BaseException:
            _remove(self.tmp)
            raise
        return self

    def __exit__(self, exc_type, exc, tb):
        if exc_type is not None or not self.committed:
            _remove(self.tmp)
        return False

    def commit(self, run: dict) -> dict:
        """Write ``run.json`` (provenance, ``run``, the files, created) and swap the folder into place."""
        check_out(self.dest, self.flag)  # the destination may have changed while we worked
        files = sorted(p.name for p in self.tmp.iterdir() if p.name != RUN_FILE)
        run = provenance() | dict(run) | {
            "files": files,
            "created": datetime.now(timezone.utc).isoformat(timespec="seconds"),
        }
        (self.tmp / RUN_FILE).write_text(json.dumps(run, indent=2, default=_json_default) + "\n")
        old = self.dest.parent / f".{self.dest.name}.belote-old-{os.getpid()}"
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
            if old.exists():
                shutil.rmtree(old, ignore_errors=True)
        return run


def _json_default(o):
    import numpy as np

    if isinstance(o, np.integer):
        return int(o)
    if isinstance(o, np.floating):
        return float(o)
    if isinstance(o, Path):
        return str(o)
    raise TypeError(type(o).__name__)


def check_file(path: str | Path, flag: str, is_ours) -> Path:
    """An output file: its folder exists and is writable, it is not a folder, and an existing
    file is replaced only when ``is_ours(path)`` says we wrote it."""
    path = Path(os.path.abspath(path))
    parent = path.parent
    if path.is_dir():
        raise BeloteError(f"{flag} {path} is a folder: give a file name, e.g. {flag} {path / 'deals.jsonl'}")
    if not parent.is_dir():
        raise BeloteError(f"cannot write {flag} {path}: folder {parent} does not exist (create it or choose another {flag})")
    if not os.access(parent, os.W_OK | os.X_OK):
        raise BeloteError(f"cannot write {flag} {path}: folder {parent} is not writable (choose another {flag})")
    if path.exists() and not is_ours(path):
        raise BeloteError(f"{flag} {path} exists and belote did not write it: choose another file name or move it away")
    return path


__all__ = ["TOOL", "RUN_FILE", "Staged", "check_out", "check_file", "read_run", "provenance", "git_commit",
           "command_line", "signals_blocked"]
