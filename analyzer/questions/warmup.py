"""``belote warmup``: compile every entry kernel the commands call, once per machine.

A cold cache makes the first command a user types compile for minutes before it answers
(``kernelcache.COMPILE_SECONDS``). ``make install`` runs ``belote warmup`` after installing, so
that cost is paid once, at install, with a progress line, and never inside the first answer.

Each entry kernel of ``kernelcache.ENTRY_KERNELS`` is compiled with the argument types a command
passes it (which is what numba compiles and caches): the driver's chunk kernel of each kind of unit
from a classic run's arguments (``driver.compile_kind``, which runs no unit), one traced hand
(``simulate --log``), the double-dummy loss of a classic duel deal (``duel --dd-loss``: the traced
duel and the solver). The driver goes first: its first chunk kernel compiles the hand, which the
others then load. The driver's kernels compile under the lock of ``kernelcache.compile_once``, so
a warmup and a command (or the test suite's compiling process) started together compile each once.
A warm cache is only looked at (each entry kernel's index file, ``kernelcache.is_cached``), in
under a second; nothing cached is compiled again.

Side by side (``compile_apart``): the searching players' entry shares little with the driver, so
where both are missing and the machine has a second core, a second process compiles the entry
while this one compiles the driver (under the entry's lock, ``STRONG_LOCK``: whoever needs it next
waits for that process and loads what it saved): on an empty cache and 2 cores, about half the
wall time for the same CPU (figures: docs/PERFORMANCE.md). A command that will need both
(``belote report``, a searching run: ``compile_ahead``) starts a second process the same way.
"""

from __future__ import annotations

import atexit
import os
import subprocess
import sys
import time
from typing import Callable

from analyzer.players.policies import Policies
from analyzer.questions.duel import dd_losses, parse_set
from analyzer.rules import Rules
from analyzer.runs import driver
from analyzer.runs import kernelcache as K
from analyzer.runs.hand import strong_address
from analyzer.runs.simulate import SimConfig, trace_hand

# Every entry kernel, in the order compiled: the driver's chunk kernels first (the others call what
# the first of them compiles: the hand and the players).
KERNELS = tuple(dict.fromkeys(K.DRIVER + tuple(k for kernels in K.ENTRY_KERNELS.values() for k in kernels)))
# What each kernel but the driver's serves, for the progress line (``what`` says the driver's together).
WHAT = {K.LOG_TRACE: "the traced hand (simulate --log)", K.DUEL_TRACE: "the traced duel (duel --dd-loss)",
        K.SOLVER: "the exact solver (duel --dd-loss)", K.STRONG: "the searching and learned players (pimc, dd, net)"}


def what(kernels) -> str:
    """The progress line's words for ``kernels``: the driver's chunk kernels said together."""
    kinds = [k[2].removeprefix("_chunk_") for k in kernels if k in K.DRIVER]
    words = [f"the simulation driver ({', '.join(kinds)} units)"] if kinds else []
    return ", ".join(words + [WHAT[k] for k in kernels if k not in K.DRIVER])


def _driver(kernels) -> None:
    """Compile the chunk kernels of ``kernels`` (the first one with the hand) without running a unit."""
    for kernel in _driver_part(kernels):
        driver.compile_kind(K.DRIVER.index(kernel))


def _log_trace(kernels) -> None:
    trace_hand(SimConfig(deals=1), 0)


def _dd_loss(kernels) -> None:
    rules = Rules.make("classic", None, [])
    a = parse_set("heuristic/heuristic", "--a", rules.players)
    b = parse_set("heuristic/random", "--b", rules.players)
    dd_losses(rules, a, b, seed=1, deals=2)  # deal 0 is passed out in both seatings, deal 1 played: the solver runs


def _strong(kernels) -> None:
    strong_address(Policies.parse("heuristic", "pimc", 4).codes()[1])  # compiles the entry, or loads it


# Each kernel's warmer, called with the kernels to compile (one call for all the kernels it serves).
RUN = {K.LOG_TRACE: _log_trace, K.DUEL_TRACE: _dd_loss, K.SOLVER: _dd_loss, K.STRONG: _strong}
RUN.update({k: _driver for k in K.DRIVER})


def _driver_part(kernels) -> tuple:
    return tuple(k for k in kernels if k in K.DRIVER)


def _side_by_side(missing) -> bool:
    """Compile the searching players' entry in a second process: both it and a chunk kernel of the
    driver are to be compiled, and there is a second core to do it on."""
    return bool(_driver_part(missing)) and K.STRONG in missing and (os.cpu_count() or 1) > 1


def compile_apart(kernels) -> subprocess.Popen:
    """Start a process that compiles ``kernels`` (their warmers, under each kernel's lock) and exits;
    its output is dropped: should it fail, whoever needs a kernel compiles it as before."""
    code = f"from analyzer.questions.warmup import warmup; warmup({tuple(kernels)!r})"
    return subprocess.Popen([sys.executable, "-c", code], stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                            stderr=subprocess.DEVNULL)


def _stop(proc: subprocess.Popen) -> None:
    """End ``proc`` if it still runs (numba saves a kernel only when its compile ends: nothing is
    left half-written)."""
    if proc.poll() is None:
        proc.terminate()
        proc.wait()


def compile_ahead(command: str, searching: bool = False) -> subprocess.Popen | None:
    """For a command about to compile both the driver and the searching players' entry
    (``kernelcache.ENTRY_KERNELS``; ``searching``: it plays pimc or dd): start compiling the one it
    needs second in a second process now (``compile_apart``), ended when this process exits. A
    searching run links the entry into its hand's workspace before it first runs the driver, so there
    the second process compiles the driver; ``belote report`` runs its heuristic sections first, so
    there it compiles the entry. None when nothing is to be gained (a warm cache, one core, a run
    without searching players)."""
    missing = K.to_compile(command, searching=searching)
    if not _side_by_side(missing):
        return None
    proc = compile_apart(_driver_part(missing) if searching else (K.STRONG,))
    atexit.register(_stop, proc)
    return proc


def warmup(kernels=KERNELS, say: Callable[[str], None] = lambda line: None) -> list[tuple[str, str, str]]:
    """Compile the ``kernels`` not yet cached (each kernel's warmer once, however many of
    ``kernels`` it compiles), saying what and about how long before each with ``say``; the
    searching players' entry beside the driver where both are missing (``compile_apart``).
    Returns the kernels that were missing (empty: the cache was warm)."""
    missing = [k for k in kernels if not K.is_cached(k)]
    if not missing:
        return missing
    side = _side_by_side(missing)
    say(f"compiling kernels once for this machine ({K.about(_seconds(missing, side))}): {what(missing)}")
    start = time.monotonic()
    apart = compile_apart((K.STRONG,)) if side else None
    runs = list(dict.fromkeys(RUN[k] for k in missing))
    if apart is not None:  # the entry's own process compiles it: here, its warmer only loads it, last
        runs.remove(RUN[K.STRONG])
        runs.append(RUN[K.STRONG])
    try:
        for run in runs:
            mine = [k for k in missing if RUN[k] is run]
            t0 = time.monotonic()
            if apart is not None and K.STRONG in mine:
                apart.wait()  # then loads what it saved (or, had it failed, compiles it here)
                run(mine)
                say(f"  {WHAT[K.STRONG]}, compiled beside the others: ready {time.monotonic() - start:.0f} s "
                    "after the start")
                continue
            also = f"; beside it, in a second process: {WHAT[K.STRONG]}" if apart is not None and _driver_part(mine) else ""
            say(f"  {what(mine)}: {K.about(_seconds(mine))}{also}")
            run(mine)
            say(f"  done in {time.monotonic() - t0:.0f} s")
    finally:
        if apart is not None:
            _stop(apart)
    return missing


def _seconds(kernels, side_by_side: bool = False) -> int:
    """About how many seconds compiling ``kernels`` takes (the hand with the first chunk kernel;
    ``side_by_side``: the searching players' entry in a second process, ``kernelcache.wall_seconds``)."""
    return K.wall_seconds(K.with_hand(kernels), side_by_side)


__all__ = ["KERNELS", "warmup", "what", "compile_apart", "compile_ahead"]
