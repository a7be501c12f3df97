"""Ctrl-C and SIGTERM: the first signal unwinds the command like Ctrl-C, and the process
exits with ``belote: interrupted`` and status 130.

``install`` sets the handlers (the console script, ``entry``); ``check_interrupted`` is the
backstop every progress update runs; ``exit_status`` ends the process itself so that a
signal after the command still gets its 130.
"""

from __future__ import annotations

import atexit
import os
import signal
import sys
import threading

import typer

_interrupted = 0  # the first SIGINT / SIGTERM received, 0 before
_raised = False  # whether the signal handler has raised Interrupted
_finished = False  # whether the command has returned (``entry``): a signal is then noted, not raised
_late = 0  # a signal received after the command had returned


class Interrupted(KeyboardInterrupt):
    """Ctrl-C or SIGTERM: unwinds like Ctrl-C, so every ``finally`` removes what it half wrote."""


# Python run as a callback of compiled code: a running numba kernel unpickling a constant, or LLVM
# handing a compiled object to llvmlite's cache (a ctypes callback, where Python prints the exception
# as "Exception ignored" with its traceback and drops it; the compile then fails otherwise)
_CALLBACKS = (os.path.join("numba", "core", "serialize.py"), os.path.join("llvmlite", "binding", "executionengine.py"))


# llvmlite's Python wrappers around LLVM's objects: an exception raised in one half built leaves an
# object its finaliser cannot dispose of ("Exception ignored in ObjectRef.__del__ ... AttributeError",
# printed once in 24 Ctrl-C's two seconds into `belote warmup`); they return at once, so wait for that
_LLVMLITE = os.sep + "llvmlite" + os.sep  # in any install layout (site-packages, dist-packages, a checkout)


def _inside_kernel(frame) -> bool:
    """Whether Python runs here as a callback of compiled code (``_CALLBACKS``), in llvmlite's
    wrappers (``_LLVMLITE``) or inside a finaliser (a ``__del__`` anywhere up the stack: llvmlite
    disposes of its objects so while numba compiles): an exception raised there is not expected by
    the compiled code, which then fails with a SystemError, crashes, or has it printed and dropped
    (a finaliser's always is: a Ctrl-C two seconds into ``belote warmup`` was lost so, once in 16
    runs, and the warmup ran on to its end)."""
    if frame is None:
        return False
    if frame.f_code.co_filename.endswith(_CALLBACKS) or _LLVMLITE in frame.f_code.co_filename:
        return True
    while frame is not None:
        if frame.f_code.co_name == "__del__":
            return True
        frame = frame.f_back
    return False


def _on_signal(signum, frame):
    # The first signal interrupts; later ones (SIGTERM after Ctrl-C, a second Ctrl-C) are
    # swallowed, so they cannot cut short the cleanup the first one started. (A Python
    # no-op rather than SIG_IGN: a second signal already pending is then run quietly.)
    global _interrupted, _raised, _late
    if _finished:
        _late = _late or signum
        return
    _interrupted = _interrupted or signum
    if _raised:
        return
    if _inside_kernel(frame):  # not here: try again in 20 ms, by then back in our own code
        signal.signal(signal.SIGALRM, lambda _s, f: _on_signal(signum, f))
        signal.setitimer(signal.ITIMER_REAL, 0.02)
        return
    _raised = True
    signal.setitimer(signal.ITIMER_REAL, 0)
    signal.signal(signal.SIGINT, _after_interrupt)
    signal.signal(signal.SIGTERM, _after_interrupt)
    raise Interrupted(signum)


def finished() -> None:
    """The command has returned: a signal from now on is noted (``exit_status``), not raised."""
    global _finished
    _finished = True


def _after_interrupt(signum, frame):
    pass


def interrupted() -> bool:
    """Whether a SIGINT or SIGTERM has come (an error raised since may be its consequence)."""
    return _interrupted != 0


def check_interrupted() -> None:
    """Raise ``Interrupted`` if a signal came: the backstop for an exception raised by the
    handler where Python drops it (a finaliser, a callback), run at every progress update."""
    if _interrupted:
        raise Interrupted(_interrupted)


def interrupted_exit() -> int:
    """Say ``belote: interrupted`` and give the exit status 130, no later signal able to change it."""
    if signal.getsignal(signal.SIGTERM) in (_on_signal, _after_interrupt):  # the console script's handlers
        signal.setitimer(signal.ITIMER_REAL, 0)  # a retry still armed must not fire while exiting
        # Ignored at the C level: Python's shutdown resets its own handlers to the defaults,
        # and a second signal arriving then would kill the process with 143 instead of 130.
        for sig in (signal.SIGALRM, signal.SIGINT, signal.SIGTERM):
            signal.signal(sig, signal.SIG_IGN)
    typer.echo("belote: interrupted", err=True)
    return 130


def _unraisable(unraisable) -> None:
    """``sys.unraisablehook``: after an interruption, drop what a half-built llvmlite object's finaliser
    raises (``AttributeError: ... '_as_parameter_'``; the signal deferred out of llvmlite's frames can
    still land in numba's between an llvmlite object's creation and its wrapper's set-up, as a Ctrl-C
    early in `belote warmup` can). Anything else goes to Python's hook."""
    exc = unraisable.exc_value
    if _interrupted and isinstance(exc, AttributeError) and "_as_parameter_" in str(exc):
        return
    sys.__unraisablehook__(unraisable)


def install() -> None:
    """The handlers of the console script (``entry``): the first signal raises ``Interrupted``."""
    signal.signal(signal.SIGINT, _on_signal)
    signal.signal(signal.SIGTERM, _on_signal)
    sys.unraisablehook = _unraisable


def exit_status(code: int) -> int:
    """Python's own exit, run here while our signal handlers still work, and the exit status.

    After the command, Python's shutdown takes a quarter of a second (numba's modules torn
    down), and from its middle on it resets our handlers to the defaults: a SIGTERM then
    killed the process with 143, no message, and the results not yet flushed from a pipe's
    buffer were lost. So ``entry`` does what matters of that shutdown itself (wait for the
    threads, run the ``atexit`` functions, flush the output: ``threading._shutdown`` is what
    Python calls first), notes a signal that comes meanwhile (``finished``), and then ends
    the process with ``os._exit`` (no teardown left for a signal to cut short). A signal after
    the command had finished: its output is complete, and the status 130 all the same."""
    threading._shutdown()
    atexit._run_exitfuncs()
    if _late:
        typer.echo("belote: interrupted after the command had finished (its output is complete)", err=True)
        code = 130
    for stream in (sys.stdout, sys.stderr):
        try:
            stream.flush()
        except OSError:  # a closed pipe, a full disk: the status Python's own exit gives
            code = code or 120
    return code

