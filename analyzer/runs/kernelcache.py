"""Is the kernel cache cold? How long will compiling take? And a cache that cannot be used.

Numba writes one index file (``<module>.<function>-<line>.pyXY.nbi``) per cached kernel
into the cache folder of the current kernel digest (``analyzer._kernel_cache_dir``), in a
subfolder named after the folder of the source file (one for ``analyzer/runs``, one for
``analyzer/players``, ...). A command's kernels are cached when the index file of each *entry
kernel* it calls exists (an entry kernel compiles everything it calls, and numba saves each of
those with it). What is missing is compiled on this run.

The minutes are measured figures, not guesses: see ``COMPILE_SECONDS``.

Compiled once, however many processes start together (``compile_once``): the first process to
need a kernel compiles it holding a lock file in the cache folder; the others wait for the lock
and then load what it saved, instead of each compiling the same kernel at the same time (numba
saves a kernel only when its compile ends). That happens whenever several processes start on a
cold cache: two commands run side by side, a Dask cluster's workers, the test suite's xdist
workers and the ``belote`` processes its tests start.

A cache that cannot be used is said and worked around, never a traceback on every later run:

- an unreadable entry (a truncated index ``.nbi``, a garbage data file ``.nbc``: numba raises
  an ``UnpicklingError`` or whatever the bytes make ``pickle`` raise, on every run) is reported
  in one line on stderr, removed, and compiled again (``guard_loads``, installed when this
  module is imported, which the driver does: the CLI, library callers and Dask workers alike);
- a cache folder numba cannot write (read-only, or a file in its place) is reported in one line
  and replaced by a fresh folder under the temp folder (``use_writable_cache``, which the CLI
  calls before any kernel module is imported: numba picks a kernel's cache folder when the
  kernel is defined). Numba itself would otherwise fall back silently to a ``__pycache__``
  beside the sources, and ``compile_once`` takes its lock where numba really saves the kernel.

A cache is code: numba unpickles its index files, and unpickling runs whatever the bytes say. So
kernels are never loaded from a folder another user could have written (``_not_private``): the
cache folder and its package subfolders must belong to this user (or to root, for a cache an
administrator compiled) and be writable by no one else. The fallback under the shared temp folder
is created private (mode 0700) and used only while it is; one that another user planted, or
opened to others, is said in one line and a new private folder (``mkdtemp``) is used for this run
instead. A local Dask cluster's workers are handed the same folder (``NUMBA_CACHE_DIR``, which
they inherit).
"""

from __future__ import annotations

import atexit
import grp
import math
import os
import pwd
import shutil
import stat
import sys
import tempfile
from pathlib import Path

import numba.core.config as config
from numba.core.caching import IndexDataCacheFile as Files

import analyzer
from analyzer.compiling import STRONG_LOCK, cache_folder, compile_first, compile_once, locked  # noqa: F401 (this module's API too)
from analyzer.errors import BeloteError

# A kernel: (the package folder under ``analyzer`` of its module, module, function).
# The driver (``analyzer.runs.driver``) has one chunk kernel per kind of unit, compiled the first time
# a run needs that kind: a heuristic ``take`` compiles the take units only. The hand (with the
# bidding, the declarations, the scoring and the heuristic and random players) is compiled with the
# first chunk kernel and loaded by the others (``HAND``). Each chunk kernel is an entry kernel.
DRIVER_KINDS = ("simulate", "seats", "take", "table", "games", "duel", "suits")  # analyzer.runs.driver.KIND_NAMES
CHUNK = {kind: ("runs", "driver", f"_chunk_{kind}") for kind in DRIVER_KINDS}
DRIVER = tuple(CHUNK.values())  # every chunk kernel: what ``belote warmup`` compiles of the driver
HAND = ("runs", "hand", "_play_hand")
# The searching players (pimc, dd), which the hand calls through an address
# (``analyzer.players.strong_entry.strong_card``): only a run that plays one compiles them.
STRONG = ("players", "strong_entry", "strong_card")
# ``simulate --log`` replays the logged hands traced, one at a time (``analyzer.runs.simulate.trace_hand``).
LOG_TRACE = ("runs", "simulate", "_one_hand")
# ``duel --dd-loss`` replays each seating traced (``analyzer.questions.duel.dd_losses``) and values every
# card with the exact solver (``analyzer.players.solver.Solver``; the driver compiles it too, for searching players).
DUEL_TRACE = ("runs", "units", "trace_duel")
SOLVER = ("players", "solver", "solve_cards")
# What each command (and each option that calls other kernels, as ``"COMMAND --OPTION"``) compiles:
# the chunk kernels of the kinds of unit it runs (tests/questions/test_warmup.py checks them against the runs).
ENTRY_KERNELS = {
    "simulate": (CHUNK["simulate"],),
    "take": (CHUNK["take"],),
    "table": (CHUNK["table"],),
    "balance": (CHUNK["seats"], CHUNK["games"]),
    "rules": (CHUNK["seats"], CHUNK["games"]),
    "duel": (CHUNK["duel"],),
    "report": DRIVER + (STRONG,),  # every kind of unit; its bracket section plays pimc and dd
}
ENTRY_KERNELS["simulate --log"] = ENTRY_KERNELS["simulate"] + (LOG_TRACE,)
ENTRY_KERNELS["duel --dd-loss"] = ENTRY_KERNELS["duel"] + (DUEL_TRACE, SOLVER)

# Seconds to compile each kernel on a cold cache (CPU seconds, one kernel after the other, the 2-core
# development machine; compiling is single-threaded, so about that in wall time on an idle machine), rounded
# up from ``scripts/bench/compile_time.py kinds`` (the first chunk kernel compiles the hand; each further kind only its
# unit; ``--strong``: the searching players' entry) and a cold ``belote warmup`` (the traced hand, the traced
# duel with the solver). How these came to be: docs/BENCHMARKS.md; the current cold compile:
# docs/PERFORMANCE.md.
COMPILE_SECONDS = {HAND: 14, CHUNK["simulate"]: 3, CHUNK["seats"]: 2, CHUNK["take"]: 3, CHUNK["table"]: 5,
                   CHUNK["games"]: 3, CHUNK["duel"]: 3, CHUNK["suits"]: 4,
                   STRONG: 26, LOG_TRACE: 3, DUEL_TRACE: 2, SOLVER: 1}


def is_cached(kernel: tuple[str, str, str], root: Path | None = None) -> bool:
    package, module, function = kernel
    return any(cache_folder(package, root).glob(f"{module}.{function}-*.nbi"))


def missing_kernels(command: str, root: Path | None = None) -> list[tuple[str, str, str]]:
    """The entry kernels of ``command`` (a key of ``ENTRY_KERNELS``) that this run will compile."""
    return [k for k in ENTRY_KERNELS.get(command, ()) if not is_cached(k, root)]


# The lock every kernel that plays hands compiles under (the driver and the traced replays): the
# hand is compiled with the first of them and saved, and a process that needs another waits for that
# compile and loads the hand instead of compiling it too at the same time (the suite's workers trace
# hands while its compiling process compiles the driver).
HAND_LOCK = "driver._chunk"


def with_hand(kernels: list, root: Path | None = None) -> list:
    """``kernels`` to be compiled, with the hand first when one of them is a chunk kernel of the driver
    and the hand is not cached (it is compiled with the first chunk kernel)."""
    if any(k in DRIVER for k in kernels) and not is_cached(HAND, root):
        return [HAND, *kernels]
    return list(kernels)


def to_compile(command: str, root: Path | None = None, searching: bool = False) -> list:
    """The kernels a run of ``command`` will compile: ``missing_kernels``, the hand with the first
    chunk kernel when it is not cached, and the searching players' entry when the run plays pimc or dd
    (``searching``) and it is not cached."""
    missing = with_hand(missing_kernels(command, root), root)
    if searching and STRONG not in missing and not is_cached(STRONG, root):
        missing.append(STRONG)
    return missing


def compile_seconds(command: str, root: Path | None = None, searching: bool = False) -> int:
    """About how many seconds compiling takes before ``command`` starts (0: the cache is warm);
    ``searching``: the run plays pimc or dd."""
    return wall_seconds(to_compile(command, root, searching), False)


def wall_seconds(kernels, side_by_side: bool) -> int:
    """About how many seconds of wall time compiling ``kernels`` takes (the hand among them when it
    is to be compiled: ``with_hand``, ``to_compile``): their ``COMPILE_SECONDS`` summed, less the
    shorter of the driver's part and the searching players' entry when the two compile side by side
    (``questions.warmup.compile_apart``: a second process, on a second core)."""
    seconds = sum(COMPILE_SECONDS[k] for k in kernels)
    if side_by_side and STRONG in kernels:
        seconds -= min(sum(COMPILE_SECONDS[k] for k in kernels if k in DRIVER or k == HAND), COMPILE_SECONDS[STRONG])
    return seconds


def minutes(seconds: int) -> int:
    """``seconds`` of compiling in whole minutes, rounded up (0: nothing to compile)."""
    return max(1, math.ceil(seconds / 60)) if seconds else 0


def about(seconds: int) -> str:
    """``seconds`` of compiling as a user is told it: ``about N min``, or ``under a minute``."""
    return f"about {minutes(seconds)} min" if seconds >= 60 else "under a minute"


def compile_minutes(command: str, root: Path | None = None) -> int:
    """About how many minutes compiling takes before ``command`` starts (0: the cache is warm)."""
    return minutes(compile_seconds(command, root))


# ---- a cache that cannot be used --------------------------------------------------------------


def _say(line: str) -> None:
    """One line on stderr (from the CLI, a library call or a Dask worker alike)."""
    print(f"belote: {line}", file=sys.stderr, flush=True)


def _cannot_write(folder: Path) -> str | None:
    """Why numba could not cache in ``folder``, or None when it can: numba's own test
    (``_CacheLocator.ensure_cache_path``: create the folder, then a temporary file in it)."""
    try:
        folder.mkdir(parents=True, exist_ok=True)
        tempfile.TemporaryFile(dir=folder).close()
    except OSError as e:
        return f"{e.strerror or e}: {e.filename}" if e.filename else str(e.strerror or e)
    return None


def _not_private(folder: Path, owners: tuple[int, ...]) -> str | None:
    """Why kernels must not be loaded from ``folder`` (it exists), or None: it must be a folder,
    not a link, owned by one of ``owners`` and writable by no one else (group or others)."""
    try:
        st = os.lstat(folder)
    except FileNotFoundError:
        return None
    except OSError as e:
        return f"{e.strerror or e}: {folder}"
    if not stat.S_ISDIR(st.st_mode):
        return f"{folder} is not a folder"
    if st.st_uid not in owners:
        return f"{folder} belongs to another user (uid {st.st_uid})"
    if st.st_mode & 0o002 or (st.st_mode & 0o020 and not _own_group(st.st_gid)):
        return f"other users can write {folder} (mode {stat.S_IMODE(st.st_mode):o})"
    return None


def _own_group(gid: int) -> bool:
    """``gid`` is this user's private group (named after the user, as Debian's ``adduser`` makes it,
    where the umask 002 leaves new folders group-writable): no other user is in it."""
    try:
        return gid == os.getgid() and grp.getgrgid(gid).gr_name == pwd.getpwuid(os.getuid()).pw_name
    except KeyError:
        return False


def _cannot_cache(root: Path, owners: tuple[int, ...] = ()) -> str | None:
    """Why numba could not (or must not) cache this checkout's kernels under ``root``, or None:
    ``root`` must be a writable folder, and so must each subfolder of this checkout's packages
    already there (numba creates the others); each private to ``owners`` (default: this user or
    root) as ``_not_private`` says."""
    owners = owners or (os.getuid(), 0)
    problem = _not_private(root, owners) or _cannot_write(root)
    packages = (p.name for p in Path(analyzer.__file__).resolve().parent.iterdir() if p.is_dir())
    for sub in (cache_folder(name, root) for name in packages):
        if problem is None and (sub.exists() or sub.is_symlink()):
            problem = _not_private(sub, owners) or _cannot_write(sub)
    return problem


def _private_folder() -> tuple[Path, str | None]:
    """The fallback's home under the temp folder, ``belote-analyzer-kernels-UID``, created mode 0700
    if missing, and why it cannot be used (None: it is this user's, and private)."""
    uid = os.getuid()
    home = Path(tempfile.gettempdir()) / f"belote-analyzer-kernels-{uid}"
    try:
        os.mkdir(home, 0o700)
    except FileExistsError:
        pass
    except OSError as e:
        return home, f"{e.strerror or e}: {home}"
    return home, _not_private(home, (uid,))


def _removed_at_exit(folder: Path) -> None:
    atexit.register(shutil.rmtree, folder, ignore_errors=True)  # a folder of this run's only, made by mkdtemp


def use_writable_cache() -> None:
    """Point numba at a fresh cache folder under the temp folder (and say so in one line) when
    it cannot write the kernel cache folders of this checkout: a read-only cache, or a file where
    a folder should be. Kept from run to run (``belote-analyzer-kernels-UID/numba-DIGEST``), so only
    the first run recompiles. Also set for processes started from this one (``NUMBA_CACHE_DIR``:
    a local Dask cluster's workers). Call it before any kernel module is imported: numba picks
    a kernel's cache folder when the kernel is defined."""
    root = Path(config.CACHE_DIR)
    problem = _cannot_cache(root)
    if problem is None:
        return
    home, unsafe = _private_folder()
    fresh = home / root.name
    again = unsafe or _cannot_cache(fresh, (os.getuid(),))
    instead = f"compiling into {fresh} instead"
    if unsafe is not None and os.path.lexists(home):  # planted, or opened to others: a folder of this run's own
        try:
            fresh = Path(tempfile.mkdtemp(prefix=f"belote-analyzer-kernels-{os.getuid()}-")) / root.name
        except OSError as e:
            raise BeloteError(f"cannot write the kernel cache {root} ({problem}) nor a private folder in "
                              f"{tempfile.gettempdir()} ({e.strerror or e}): set BELOTE_CACHE_DIR to a writable "
                              f"folder") from None
        _removed_at_exit(fresh.parent)
        again, instead = None, (f"its fallback is not safe to load code from ({unsafe}): compiling into a new "
                                f"private folder {fresh} for this run")
    if again is not None:
        raise BeloteError(f"cannot write the kernel cache {root} ({problem}) nor {fresh} ({again}): "
                          f"set BELOTE_CACHE_DIR to a writable folder")
    config.CACHE_DIR = os.environ["NUMBA_CACHE_DIR"] = str(fresh)
    _say(f"cannot use the kernel cache {root} ({problem}): {instead} (set BELOTE_CACHE_DIR to choose another folder)")


def _unreadable(path: str, error: Exception) -> None:
    """Say that the cache file ``path`` could not be read, and remove it (compiled again and
    saved anew on this run)."""
    try:
        os.unlink(path)
        done = "removed it, compiling again"
    except FileNotFoundError:  # another process removed it first
        done = "compiling again"
    except OSError as e:
        done = f"cannot remove it ({e.strerror}), compiling again"
    _say(f"kernel cache file {path} is unreadable ({type(error).__name__}: {error}): {done}")


def guard_loads() -> None:
    """Make numba treat an unreadable cache file as a missing one (``_unreadable``) instead of
    raising on every run. Numba reads the index (``IndexDataCacheFile._load_index``, run before
    every load and save) and a data file (``_load_data``) with ``pickle``: a truncated or garbage
    file raises whatever its bytes make ``pickle`` raise, so any ``Exception`` there means the file
    is unusable. A missing index reads as empty; a data file that cannot be read raises
    ``OSError``, which numba's ``IndexDataCacheFile.load`` takes as "not cached" (a file removed
    while its index still names it); the new compile's save then rewrites both files."""
    if getattr(Files, "_belote_guarded", False):
        return
    load_index, load_data = Files._load_index, Files._load_data

    def _load_index(self):
        try:
            return load_index(self)
        except Exception as e:
            _unreadable(self._index_path, e)
            return {}

    def _load_data(self, name):
        try:
            return load_data(self, name)
        except OSError:
            raise  # numba's own case: the file is gone
        except Exception as e:
            _unreadable(self._data_path(name), e)
            raise OSError(f"unreadable kernel cache file {self._data_path(name)}") from e

    Files._load_index, Files._load_data, Files._belote_guarded = _load_index, _load_data, True


guard_loads()  # every process that imports the driver: the CLI, library callers, Dask workers

__all__ = ["DRIVER", "DRIVER_KINDS", "CHUNK", "HAND",
           "STRONG", "LOG_TRACE", "DUEL_TRACE", "SOLVER", "HAND_LOCK", "STRONG_LOCK", "ENTRY_KERNELS",
           "COMPILE_SECONDS", "cache_folder", "is_cached", "missing_kernels", "compile_once", "compile_first", "locked",
           "to_compile", "with_hand", "compile_seconds", "wall_seconds", "compile_minutes", "minutes", "about",
           "use_writable_cache", "guard_loads"]
