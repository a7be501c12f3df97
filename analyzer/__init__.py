"""belote-analyzer: a Monte-Carlo strategy analyser for the Belote family of card games."""

import hashlib
import os
import subprocess
from pathlib import Path

__version__ = "0.1.0"


def git_commit() -> str | None:
    """The checkout's commit (read-only ``git rev-parse HEAD``), or None outside a checkout:
    named in every result's provenance."""
    try:
        out = subprocess.run(["git", "rev-parse", "HEAD"], cwd=Path(__file__).resolve().parent.parent,
                             capture_output=True, text=True, timeout=10)
    except (OSError, subprocess.SubprocessError):
        return None
    return (out.stdout.strip() or None) if out.returncode == 0 else None


# The data files that kernels freeze into their code as constants (paths under the package): numba
# checks only the timestamps of kernel modules, so a retrained model must start a fresh kernel cache,
# not run the old weights from it. analyzer.players.net_weights reads them into the globals that
# analyzer.players.strong's kernels read (tests/runs/test_cache.py checks that every file it reads is here).
KERNEL_DATA_FILES = ("players/net_data/net.npy", "players/net_data/net_v2.npy", "players/net_data/net_v3.npy")


def kernel_sources(here: Path) -> list[Path]:
    """The modules under ``here`` that shape compiled code, in order: the kernel modules (``@njit``)
    and the one whose ``njit`` sets every kernel's flags (``compiling.py``)."""
    return [src for src in sorted(here.rglob("*.py"))
            if b"@njit" in src.read_bytes() or src == here / "compiling.py"]


def _kernel_digest(here: Path):
    """The digest of what shapes compiled code: the modules of ``kernel_sources`` and the data files
    that kernels freeze (``KERNEL_DATA_FILES``; one that is missing counts as such, and its reader
    refuses it in one line)."""
    digest = hashlib.sha256()
    for src in kernel_sources(here):
        digest.update(str(src.relative_to(here)).encode())
        digest.update(src.read_bytes())
    for name in KERNEL_DATA_FILES:
        digest.update(b"\0data\0" + name.encode() + b"\0")
        try:
            digest.update(hashlib.sha256((here / name).read_bytes()).digest())
        except OSError:
            digest.update(b"missing")
    return digest


# The packages whose code and data cannot change a simulated number: they parse the command line,
# render results and serve pages. Everything else (the rules, the game, the players with their shipped
# weights and calibrated bidders, the runs, the questions) is "the code that produced" a result.
RENDERING_PACKAGES = ("cli", "output", "web")


def code_files(here: Path) -> list[Path]:
    """The files under ``here`` (the package) that can change a simulated number, in order: every
    file outside ``RENDERING_PACKAGES`` and ``__pycache__``, data files (the calibrated bidders'
    JSON, the net player's weights) as well as modules."""
    return [p for p in sorted(here.rglob("*"))
            if p.is_file() and "__pycache__" not in p.parts
            and p.relative_to(here).parts[0] not in RENDERING_PACKAGES]


def package_digest(here: Path) -> str:
    """The digest (20 hex digits) of ``code_files(here)``: their paths and contents."""
    digest = hashlib.sha256()
    for src in code_files(here):
        digest.update(str(src.relative_to(here)).encode() + b"\0")
        digest.update(hashlib.sha256(src.read_bytes()).digest())
    return digest.hexdigest()[:20]


_CODE_DIGEST: list[str] = []


def code_digest() -> str:
    """The digest of the code and data that produce this install's numbers (``package_digest`` of
    this package): what a run folder (``--run-dir``) and each batch it keeps are bound to, so a run
    interrupted before a ``git pull`` or a ``belote learn --write`` is never resumed with other
    players. Read once a process."""
    if not _CODE_DIGEST:
        _CODE_DIGEST.append(package_digest(Path(__file__).resolve().parent))
    return _CODE_DIGEST[0]


def _kernel_cache_dir() -> Path:
    """Numba's on-disk cache, in a folder named after a digest of this package's sources.

    Numba checks only the timestamp of the file that defines a cached function, not of
    the modules whose kernels it inlines, so an edit to ``hand.py`` could leave a stale
    ``simulate.py`` kernel in the cache. Keying the folder on every kernel module's source makes
    any kernel edit start a fresh cache, while an unchanged tree reuses it: a second run does not
    recompile. ``make clean`` removes old folders.
    """
    digest = _kernel_digest(Path(__file__).resolve().parent)
    base = os.environ.get("BELOTE_CACHE_DIR") or os.path.join(
        os.environ.get("XDG_CACHE_HOME") or os.path.join(Path.home(), ".cache"), "belote-analyzer")
    return Path(base) / f"numba-{digest.hexdigest()[:16]}"


if not os.environ.get("NUMBA_CACHE_DIR"):  # a user's own choice wins
    import numba.core.config as _numba_config

    _numba_config.CACHE_DIR = str(_kernel_cache_dir())
