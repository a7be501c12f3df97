"""``belote warmup``: compile every entry kernel the commands call, once per machine.

A cold cache makes the first command a user types compile for minutes before it answers
(``kernelcache.COMPILE_SECONDS``). ``make install`` runs ``belote warmup`` after installing, so
that cost is paid once, at install, with a progress line, and never inside the first answer.

Each entry kernel of ``kernelcache.ENTRY_KERNELS`` is compiled by running the smallest piece of
real work that calls it, the way a command does (so with the argument types a command passes,
which is what numba compiles and caches): one classic hand through the driver (as a Dask worker
warms, ``backends._warm``), one traced hand (``simulate --log``), the double-dummy loss of a
classic duel deal (``duel --dd-loss``: the traced duel and the solver). The driver goes first:
the others then load the hand and the players it compiled. The driver's compile takes the lock
of ``kernelcache.compile_once``, so a warmup and a command (or the test suite's compiling
process) started together compile it once. A warm cache is only looked at (each entry kernel's
index file, ``kernelcache.is_cached``), in under a second; nothing cached is compiled again.
"""

from __future__ import annotations

import time
from typing import Callable

from analyzer.runs import kernelcache as K

# Every entry kernel, in the order compiled: the driver first (the others call what it compiles).
KERNELS = tuple(dict.fromkeys(k for kernels in K.ENTRY_KERNELS.values() for k in kernels))
# What each kernel serves, for the progress line.
WHAT = {K.DRIVER: "the simulation driver (every command)", K.LOG_TRACE: "the traced hand (simulate --log)",
        K.DUEL_TRACE: "the traced duel (duel --dd-loss)", K.SOLVER: "the exact solver (duel --dd-loss)",
        K.STRONG: "the searching and learned players (pimc, dd, net)"}


def _driver() -> None:
    from analyzer.runs.backends import _warm

    _warm()


def _log_trace() -> None:
    from analyzer.runs.simulate import SimConfig, trace_hand

    trace_hand(SimConfig(deals=1), 0)


def _dd_loss() -> None:
    from analyzer.questions.duel import dd_losses, parse_set
    from analyzer.rules import Rules

    rules = Rules.make("classic", None, [])
    a = parse_set("heuristic/heuristic", "--a", rules.players)
    b = parse_set("heuristic/random", "--b", rules.players)
    dd_losses(rules, a, b, seed=1, deals=2)  # deal 0 is passed out in both seatings, deal 1 played: the solver runs


def _strong() -> None:
    from analyzer.players.policies import Policies
    from analyzer.runs.hand import strong_address

    strong_address(Policies.parse("heuristic", "pimc", 4).codes()[1])  # compiles the entry, or loads it


RUN = {K.DRIVER: _driver, K.LOG_TRACE: _log_trace, K.DUEL_TRACE: _dd_loss, K.SOLVER: _dd_loss, K.STRONG: _strong}


def warmup(kernels=KERNELS, say: Callable[[str], None] = lambda line: None) -> list[tuple[str, str, str]]:
    """Compile the ``kernels`` not yet cached (each kernel's warmer once, however many of
    ``kernels`` it compiles), saying what and about how long before each with ``say``.
    Returns the kernels that were missing (empty: the cache was warm)."""
    missing = [k for k in kernels if not K.is_cached(k)]
    if not missing:
        return missing
    say(f"compiling kernels once for this machine ({K.about(sum(K.COMPILE_SECONDS[k] for k in missing))}): "
        + ", ".join(WHAT[k] for k in missing))
    for run in dict.fromkeys(RUN[k] for k in missing):
        mine = [k for k in missing if RUN[k] is run]
        t0 = time.monotonic()
        say(f"  {' and '.join(WHAT[k] for k in mine)}: {K.about(sum(K.COMPILE_SECONDS[k] for k in mine))}")
        run()
        say(f"  done in {time.monotonic() - t0:.0f} s")
    return missing


__all__ = ["KERNELS", "warmup"]
