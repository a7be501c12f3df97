"""Is the kernel cache cold? How long will compiling take?

Numba writes one index file (``<module>.<function>-<line>.pyXY.nbi``) per cached kernel
into the cache folder of the current kernel digest (``analyzer._kernel_cache_dir``), in a
subfolder named after the folder of the source file. A command's kernels are cached when
the index file of each *entry kernel* it calls exists (an entry kernel compiles everything
it calls, and numba saves each of those with it). What is missing is compiled on this run.

The minutes are measured figures, not guesses: see ``COMPILE_SECONDS``.

Compiled once, however many processes start together (``compile_once``): the first process to
need a kernel compiles it holding a lock file in the cache folder; the others wait for the lock
and then load what it saved, instead of each compiling the same kernel at the same time (numba
saves a kernel only when its compile ends). That happens whenever several processes start on a
cold cache: two commands run side by side, a Dask cluster's workers, the test suite's xdist
workers and the ``belote`` processes its tests start.
"""

from __future__ import annotations

import math
from pathlib import Path

# The entry kernel of every command that simulates: the one driver's chunk kernel
# (``analyzer.runs.driver._chunk``), which compiles every unit, the hand and the policies with it.
DRIVER = ("driver", "_chunk")
ENTRY_KERNELS = {command: (DRIVER,) for command in ("simulate", "take", "table", "balance", "rules", "report", "duel")}

# Seconds to compile the driver on a cold cache: a cold ``belote simulate`` (an empty cache
# folder) measured 310 CPU s on the 2-core development machine shared with other jobs
# (2026-12-01, load about 4), when the hand was still compiled three times; compiling it once
# (``analyzer.runs.hand.play_hand``) took the whole cold compile from 425 to 295 CPU s in
# ``scripts/compile_profile.py`` (load 7-8, docs/BENCHMARKS.md), a ratio of 0.69: about 215 s.
# Compiling is single-threaded, so about that in wall time on an idle machine.
COMPILE_SECONDS = {DRIVER: 215}


def cache_folder() -> Path:
    """Where numba caches the kernels of this checkout under the current digest."""
    import numba.core.config as config
    from numba.core.caching import _CacheLocator

    import analyzer

    here = Path(analyzer.__file__).resolve().parent
    return Path(config.CACHE_DIR) / _CacheLocator.get_suitable_cache_subpath(str(here / "runs" / "driver.py"))


def is_cached(module: str, function: str, folder: Path | None = None) -> bool:
    folder = cache_folder() if folder is None else folder
    return any(folder.glob(f"{module}.{function}-*.nbi"))


def missing_kernels(command: str, folder: Path | None = None) -> list[tuple[str, str]]:
    """The entry kernels of ``command`` that this run will compile."""
    folder = cache_folder() if folder is None else folder
    seen = []
    for k in ENTRY_KERNELS.get(command, ()):
        if k not in seen and not is_cached(*k, folder=folder):
            seen.append(k)
    return seen


def compile_once(dispatcher, args, name: str, folder: Path | None = None) -> None:
    """Compile (or load from the cache) ``dispatcher`` for the types of ``args``, holding the
    lock file ``<folder>/<name>.lock`` (default: ``cache_folder()``) while it does: a process
    that finds the lock taken waits, then loads the kernel the holder saved. Nothing happens
    when this process has the kernel already. Without ``fcntl`` (not POSIX) no lock is taken."""
    import numba

    sig = tuple(numba.typeof(a) for a in args)
    if sig in dispatcher.overloads:
        return
    try:
        import fcntl
    except ImportError:  # no POSIX locks here: every process compiles for itself
        dispatcher.compile(sig)
        return
    folder = cache_folder() if folder is None else Path(folder)
    folder.mkdir(parents=True, exist_ok=True)
    with open(folder / f"{name}.lock", "a") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)  # interrupted while waiting: KeyboardInterrupt, as anywhere
        try:
            dispatcher.compile(sig)  # loads what another process saved meanwhile, or compiles and saves
        finally:
            fcntl.flock(lock, fcntl.LOCK_UN)


def compile_minutes(command: str, folder: Path | None = None) -> int:
    """About how many minutes compiling takes before ``command`` starts (0: the cache is warm)."""
    missing = missing_kernels(command, folder)
    if not missing:
        return 0
    return max(1, math.ceil(sum(COMPILE_SECONDS[k] for k in missing) / 60))


__all__ = ["ENTRY_KERNELS", "COMPILE_SECONDS", "cache_folder", "is_cached", "missing_kernels", "compile_once",
           "compile_minutes"]
