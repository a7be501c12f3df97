"""Is the kernel cache cold? How long will compiling take?

Numba writes one index file (``<module>.<function>-<line>.pyXY.nbi``) per cached kernel
into the cache folder of the current kernel digest (``analyzer._kernel_cache_dir``), in a
subfolder named after the folder of the source file. A command's kernels are cached when
the index file of each *entry kernel* it calls exists (an entry kernel compiles everything
it calls, and numba saves each of those with it). What is missing is compiled on this run.

The minutes are measured figures, not guesses: see ``COMPILE_SECONDS``.
"""

from __future__ import annotations

import math
from pathlib import Path

# The entry kernels of each command (module, function).
ENTRY_KERNELS = {
    "simulate": (("simulate", "_run_batch"),),
    "take": (("take", "_take_batch"),),
    "table": (("classes", "table_batch"),),
    "balance": (("seats", "_seat_blocks"), ("games", "_games_batch")),
}
ENTRY_KERNELS["rules"] = ENTRY_KERNELS["balance"]
ENTRY_KERNELS["report"] = ENTRY_KERNELS["take"] + ENTRY_KERNELS["table"] + ENTRY_KERNELS["balance"]

# Seconds to compile each entry kernel on a cold cache, measured on the 2-core development
# machine shared with other jobs (2026-12-01, load average about 8) by running ``belote
# simulate``, ``table``, ``balance`` and ``take`` with ``--deals 100`` on an empty cache
# folder and reading the times the index files were written. Each entry inlines the
# whole hand, so each costs about the same and the few kernels they share are quick:
# the figures add up. simulate 289 s (timed), table 440 s (timed), balance 478 s (timed;
# 240 s until the seats kernel, the rest the games kernel), take about 280 s.
# On an idle machine expect about half.
COMPILE_SECONDS = {
    ("simulate", "_run_batch"): 289,
    ("classes", "table_batch"): 440,
    ("seats", "_seat_blocks"): 240,
    ("games", "_games_batch"): 238,
    ("take", "_take_batch"): 280,
}


def cache_folder() -> Path:
    """Where numba caches the kernels of this checkout under the current digest."""
    import numba.core.config as config
    from numba.core.caching import _CacheLocator

    import analyzer

    here = Path(analyzer.__file__).resolve().parent
    return Path(config.CACHE_DIR) / _CacheLocator.get_suitable_cache_subpath(str(here / "simulate.py"))


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


def compile_minutes(command: str, folder: Path | None = None) -> int:
    """About how many minutes compiling takes before ``command`` starts (0: the cache is warm)."""
    missing = missing_kernels(command, folder)
    if not missing:
        return 0
    return max(1, math.ceil(sum(COMPILE_SECONDS[k] for k in missing) / 60))


__all__ = ["ENTRY_KERNELS", "COMPILE_SECONDS", "cache_folder", "is_cached", "missing_kernels", "compile_minutes"]
