"""Compiling a kernel once per machine, however many processes need it at the same moment.

Numba saves a kernel to its cache only when the kernel's compile ends, so processes started
together on a cold cache (two commands side by side, a Dask cluster's workers, the test suite's
workers and the ``belote`` processes its tests start) would each compile the same kernel at the
same time. ``compile_once`` compiles under a lock file in the cache folder: the first process
compiles and saves, the others wait for the lock and then load what it saved. Below ``runs`` and
``players`` alike (the searching players' entry and the solver take ``STRONG_LOCK``); the kernel
cache's other concerns are ``analyzer.runs.kernelcache``. ``njit``: how every kernel is compiled,
and what a call from one kernel to another costs.
"""

from __future__ import annotations

from contextlib import contextmanager
from pathlib import Path

import numba
import numba.core.config as config
import numpy as np
from numba.core.caching import _CacheLocator

import analyzer

# An index that is never negative, computed in a kernel's hot loop, is written ``a[unsigned_index(i)]``
# (imported as ``_u``): numba adds a wraparound for a negative index to every signed one (a compare and a
# conditional move before the load), which would sit on the hand loop's critical path at every computed
# offset of the state and every table lookup by a computed rank. An unsigned index gets none, so it must be
# one that cannot be negative.
unsigned_index = np.uint64


def njit(fn=None, **options):
    """numba's ``njit`` with this project's rule for what a kernel's call to another costs. Each
    kernel is compiled once (for each signature) in its own module, and a kernel that calls it links
    that module into its own, where LLVM optimises and emits the whole again:

    - ``@njit(cache=True)``: a call, not inlined. For what is called from few places or is big (the
      hand, the bidding, the scoring, the solver's search).
    - ``@njit(cache=True, forceinline=True)``: a small helper (a card's strength, a legal play, a
      field of the state). Compiled once like any other, and LLVM copies its body where it is called
      (``alwaysinline``), so a call costs nothing at run time. Without reference counting
      (``_nrt=False``, unless it says otherwise): a helper allocates nothing, so it counts no
      references in the hand or the solver it is copied into (numba refuses, when it compiles
      one, an allocation or a returned array that is not an argument).
    - ``@njit(cache=True, inline="always")``: a layer called at one place, whose callees are big (a
      unit of the driver, which calls the hand; ``policy_card``, which calls the solver). Numba
      types its body anew inside its caller, so the hand's or the solver's code is not linked,
      optimised and emitted once more for a layer between.

    ``forceinline`` is ``False`` unless a kernel says otherwise: numba lets a callee inherit the
    flag (and ``_nrt``) from the kernel it is first compiled for, so without these defaults how a
    helper is compiled would depend on which caller compiled it first, in this process or in the
    one that cached it. A helper numba-inlined instead is typed anew at each of its call sites,
    which about doubles the searching players' entry's compile (figures: docs/PERFORMANCE.md)."""
    options.setdefault("forceinline", False)
    if options["forceinline"]:
        options.setdefault("_nrt", False)
    return numba.njit(**options) if fn is None else numba.njit(fn, **options)


# The lock of the searching players' entry (``analyzer.players.strong_entry``) and of what it compiles
# (the solver): a process that needs the solver while another compiles the entry waits and loads it.
STRONG_LOCK = "strong_entry.strong_card"


def cache_folder(package: str = "runs", root: Path | None = None) -> Path:
    """Where numba caches the kernels of ``analyzer/<package>`` of this checkout, under ``root``
    (default: the current digest's folder, numba's ``CACHE_DIR``)."""
    here = Path(analyzer.__file__).resolve().parent
    root = Path(config.CACHE_DIR) if root is None else Path(root)
    return root / _CacheLocator.get_suitable_cache_subpath(str(here / package / "x.py"))


def compile_once(dispatcher, args, name: str, folder: Path | None = None) -> None:
    """Compile (or load from the cache) ``dispatcher`` for the types of ``args``, holding the
    lock file ``<folder>/<name>.lock`` (default: the folder numba caches ``dispatcher`` in) while
    it does: a process that finds the lock taken waits, then loads the kernel the holder saved.
    Nothing happens when this process has the kernel already. Without ``fcntl`` (not POSIX) no
    lock is taken."""
    sig = tuple(numba.typeof(a) for a in args)
    if sig in dispatcher.overloads:
        return
    # numba's own choice, which it checked it can write (its CACHE_DIR, else a fallback): a lock
    # beside an unusable CACHE_DIR would fail where numba does not
    folder = Path(dispatcher.stats.cache_path) if folder is None else Path(folder)
    with locked(name, folder):
        dispatcher.compile(sig)  # loads what another process saved meanwhile, or compiles and saves


def compile_first(dispatcher, args, name: str, folder: Path | None = None) -> None:
    """``compile_once`` for a kernel's first signature in this process, and nothing after: for
    kernels called once per hand or position from Python (the traced replays, the solver), where
    typing the arguments on every call would cost about half of a traced hand."""
    if not dispatcher.overloads:
        compile_once(dispatcher, args, name, folder)


@contextmanager
def locked(name: str, folder: Path):
    """Hold the lock file ``<folder>/<name>.lock`` (waiting for it while another process holds
    it) around a compile or a cache load. Without ``fcntl`` (not POSIX) no lock is taken."""
    try:
        # lazy: fcntl is POSIX only
        import fcntl
    except ImportError:  # no POSIX locks here: every process compiles for itself
        yield
        return
    folder.mkdir(parents=True, exist_ok=True)
    with open(folder / f"{name}.lock", "a") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)  # interrupted while waiting: KeyboardInterrupt, as anywhere
        try:
            yield
        finally:
            fcntl.flock(lock, fcntl.LOCK_UN)


__all__ = ["STRONG_LOCK", "cache_folder", "compile_first", "compile_once", "locked"]
