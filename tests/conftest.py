"""Shared fixtures: the rule tests run over both implementations of the rules; one small
report built once per test session for the tests that only read it.

On a cold kernel cache under xdist (``make test``), the driver's chunk kernels and the searching
players' entry (``analyzer.runs.kernelcache``) are compiled by two processes the controller starts
before the workers, side by side (the entry was ready 13 s sooner than compiled after the driver in one
process), and the test modules that never run the driver are collected first: the workers run those
while they compile, and the first test that needs the driver or the entry waits for it
(``kernelcache.compile_once``, ``STRONG_LOCK``) instead of compiling it again.
"""

import fcntl
import importlib
import json
import os
import subprocess
import sys
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

import pytest
from belote_command import Belote

# test modules that never run the driver's chunk kernel: collected first, in this order, so they
# run while it compiles; the rules' kernels first, then those that compile a part of what the
# driver calls (bidding, card play, the solver and the searching policies, a traced hand)
WITHOUT_DRIVER = ("test_agreement", "test_cards", "test_notation", "test_layout", "test_bidding",
                  "test_play_heuristic", "test_solver", "test_strong", "test_state", "test_rules")

_warming = []  # the controller's compiling processes, if any


def pytest_collection_modifyitems(session, config, items):
    rank = {name: k for k, name in enumerate(WITHOUT_DRIVER)}
    items.sort(key=lambda item: rank.get(item.path.stem, len(rank)))  # stable: the rest keep their order


def pytest_sessionstart(session):
    """In the xdist controller, on a cold cache: start compiling the driver before the workers start."""
    config = session.config
    if hasattr(config, "workerinput") or not config.pluginmanager.has_plugin("dsession"):
        return  # a worker, or a run without xdist: kernels compile when first needed
    from analyzer.runs import kernelcache

    missing = kernelcache.missing_kernels("report")  # the driver's kernels and the searching players' entry, side by side
    for kernels in ([k for k in missing if k in kernelcache.DRIVER], [k for k in missing if k not in kernelcache.DRIVER]):
        if kernels:
            _warming.append(subprocess.Popen([sys.executable, "-c", "from analyzer.questions.warmup import warmup; "
                                              f"warmup({tuple(kernels)!r})"]))


def pytest_sessionfinish(session, exitstatus):
    for proc in _warming:  # finished long before, unless the session was cut short
        if proc.poll() is None:
            proc.terminate()
        proc.wait()


@pytest.fixture(scope="session")
def belote() -> Belote:
    """The ``belote`` command as a user runs it (``tests/belote_command.py``): ``belote(*args)``,
    ``belote.out``, ``belote.json``, ``belote.error``, ``belote.popen``."""
    return Belote()


@pytest.fixture(params=["reference", "engine"])
def impl(request):
    """``analyzer.rules.reference`` (plain Python) or ``analyzer.rules.engine`` (numba), same API."""
    return importlib.import_module("analyzer.rules." + request.param)


@dataclass(frozen=True)
class SharedReport:
    """A report folder built by ``make_report`` with these arguments; read it, never write to it."""

    path: Path
    run: dict  # the content of its run.json
    deals: int
    seed: int
    examples: tuple
    variants: tuple


def _session_folder(tmp_path_factory) -> Path:
    """The test session's temporary folder, the same for every xdist worker."""
    base = tmp_path_factory.getbasetemp()
    return base.parent if os.environ.get("PYTEST_XDIST_WORKER") else base


@contextmanager
def _session_lock(tmp_path_factory, name: str):
    """Held by one xdist worker at a time: an exclusive lock on ``NAME.lock`` in the session's folder."""
    with open(_session_folder(tmp_path_factory) / f"{name}.lock", "a") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(lock, fcntl.LOCK_UN)


@pytest.fixture(scope="session")
def shared_report(tmp_path_factory) -> SharedReport:
    """A small report (classic and piekjas2 with an example hand each, 4,000 deals, seed 2), built
    once per session: under xdist by the first worker that asks for it, holding a lock, and then
    read by every worker from the session's temporary folder."""
    from analyzer.output import report as R

    kw = dict(deals=4000, seed=2, examples=(R.EXAMPLES[0], R.EXAMPLES[6]), variants=("classic", "piekjas2"))
    folder = _session_folder(tmp_path_factory) / "shared-report"
    with _session_lock(tmp_path_factory, "shared-report"):
        if not (folder / "r" / "run.json").is_file():
            folder.mkdir(exist_ok=True)
            R.make_report(folder / "r", **kw)
    run = json.loads((folder / "r" / "run.json").read_text())
    return SharedReport(folder / "r", run, **kw)


@pytest.fixture
def compile_once_calls(monkeypatch):
    """The ``(dispatcher, name)`` of every ``kernelcache.compile_once`` call made meanwhile
    (each still compiles or loads, as it would)."""
    from analyzer.runs import kernelcache

    seen = []
    real = kernelcache.compile_once

    def spy(dispatcher, args, name, folder=None):
        seen.append((dispatcher, name))
        real(dispatcher, args, name, folder)

    monkeypatch.setattr(kernelcache, "compile_once", spy)
    return seen


@pytest.fixture
def cache_without(tmp_path):
    """``cache_without(cold)``: a cache folder (for BELOTE_CACHE_DIR) linking every file of this
    checkout's warm cache but those of the kernels ``cold`` (``module.function``); its
    digest folder is returned, its root is ``tmp_path / "cache"``."""
    def make(cold) -> Path:
        import numba.core.config

        src = Path(numba.core.config.CACHE_DIR)
        dst = tmp_path / "cache" / src.name
        for f in src.rglob("*"):
            if f.is_file() and not any(f.name.startswith(c + "-") for c in cold):
                (dst / f.relative_to(src)).parent.mkdir(parents=True, exist_ok=True)
                (dst / f.relative_to(src)).symlink_to(f)
        return dst

    return make


def as_nobody() -> tuple[list[str], dict]:
    """The command prefix and environment that run a Python child as the user nobody (``setpriv``),
    with this checkout and its venv's packages importable: for a fault that needs another user than
    root, whom no permission bit stops (a folder nobody may not empty, a module nobody may not replace).
    Skipped, with the reason, where that cannot be done: a clone in a folder nobody cannot read (a
    ``mktemp -d`` folder, root's home), where nobody cannot import this checkout."""
    import shutil
    import sysconfig

    if os.geteuid() != 0:
        pytest.skip("needs root, to run a command as another user")
    if shutil.which("setpriv") is None:
        pytest.skip("setpriv is not installed: cannot run as another user")
    user = ["setpriv", "--reuid=65534", "--regid=65534", "--clear-groups"]
    checkout = Path(__file__).resolve().parents[1]
    env = dict(os.environ, PYTHONDONTWRITEBYTECODE="1",
               PYTHONPATH=os.pathsep.join([str(checkout), sysconfig.get_paths()["purelib"]]))
    version = f"python{sys.version_info.major}.{sys.version_info.minor}"
    why = []
    for python in dict.fromkeys([sys.executable, shutil.which(version) or version, f"/usr/bin/{version}"]):
        p = subprocess.run([*user, python, "-c", "import analyzer.output.outdir"], capture_output=True, text=True,
                           env=env, cwd="/")
        if p.returncode == 0:
            return [*user, python], env
        why.append(f"{python}: {(p.stderr.strip().splitlines() or ['exit %d' % p.returncode])[-1]}")
    pytest.skip("the user nobody cannot run Python with this checkout (" + "; ".join(why) + ")")


@pytest.fixture
def net_data_lock(tmp_path_factory):
    """Held for the whole test by every test that writes beside the shipped weights
    (``analyzer/players/net_data``) or runs a ``belote learn``, which removes what a killed write left
    there: one at a time across the xdist workers (a lock in the session's temporary folder). Two at
    once, a learn removed the leftovers another test had made on purpose before that test looked, and
    a --write meant to fail found the folder writable between two other tests and rewrote a shipped row
    (seen once each)."""
    with _session_lock(tmp_path_factory, "net-data"):
        yield
