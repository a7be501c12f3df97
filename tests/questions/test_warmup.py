"""``belote warmup``: the kernels compiled once, ahead of the first command (``analyzer.questions.warmup``).

A whole cold compile takes minutes, so the cold case is tested on the smallest part of it: a
kernel cache holding everything but one kernel (links to this checkout's cache), from which
warmup compiles only that one (seconds).
"""

import os
import signal
import sys
import time

import pytest

from analyzer.questions import warmup
from analyzer.runs import kernelcache



def test_warmup_has_help_with_an_example(belote):
    p = belote("warmup", "--help", timeout=60)
    assert p.returncode == 0 and "Examples:" in p.stdout and "belote warmup" in p.stdout.split("Examples:")[1]


def test_warmup_covers_every_entry_kernel():
    assert set(warmup.KERNELS) == {k for ks in kernelcache.ENTRY_KERNELS.values() for k in ks}
    assert warmup.KERNELS[:len(kernelcache.DRIVER)] == kernelcache.DRIVER  # first: the others load what they compiled
    assert set(warmup.RUN) == set(warmup.WHAT) | set(kernelcache.DRIVER) == set(warmup.KERNELS)


def test_a_warm_cache_is_said_at_once(belote):
    assert belote("warmup", "--quiet").returncode == 0  # compiles what this cache lacks (nothing once the suite ran)
    t0 = time.monotonic()
    p = belote("warmup")
    seconds = time.monotonic() - t0
    assert p.returncode == 0 and p.stderr == "", p.stderr
    assert p.stdout.startswith("kernels already compiled (") and seconds < 15, (p.stdout, seconds)


def test_the_driver_is_compiled_under_the_lock_the_suite_and_the_commands_take(monkeypatch, compile_once_calls):
    """make install's warmup and a command or the test suite's compiling process (tests/conftest.py)
    started together compile the driver once: each goes through ``kernelcache.compile_once``."""
    from analyzer.runs import driver

    take, table = kernelcache.CHUNK["take"], kernelcache.CHUNK["table"]
    monkeypatch.setattr(kernelcache, "is_cached", lambda kernel, root=None: kernel not in (take, table))
    assert warmup.warmup() == [take, table]  # only two of the driver's kernels taken as missing: only they compile
    hand = (driver.play_hand, "driver._chunk")  # each loads the hand's own code first (driver._compile)
    assert compile_once_calls == [hand, (driver.CHUNKS[driver.TAKE], "driver._chunk"), hand, (driver.CHUNKS[driver.TABLE], "driver._chunk")]


@pytest.mark.parametrize("kernels", [(kernelcache.LOG_TRACE,), (kernelcache.DUEL_TRACE, kernelcache.SOLVER)],
                         ids=["log", "dd-loss"])
@pytest.mark.slow  # compiles kernels in a subprocess (8-12 s)
def test_cold_kernels_are_compiled_with_a_progress_line(belote, tmp_path, kernels, cache_without):
    assert belote("warmup", "--quiet").returncode == 0  # this checkout's cache warm: only those removed below are cold
    dst = cache_without([".".join(k[1:]) for k in kernels])
    assert [k for k in warmup.KERNELS if not kernelcache.is_cached(k, dst)] == list(kernels)
    p = belote("warmup", env=belote.with_cache(dst.parent))
    assert p.returncode == 0, p.stderr
    lines = p.stderr.splitlines()
    assert lines[0] == ("compiling kernels once for this machine (under a minute): "
                        + ", ".join(warmup.WHAT[k] for k in kernels))
    assert lines[-1].startswith("  done in ") and p.stdout.startswith("kernels compiled in ")
    assert all(kernelcache.is_cached(k, dst) for k in kernels)  # each one compiled and saved, none left cold
    assert belote("warmup", env=belote.with_cache(dst.parent)).stdout.startswith("kernels already compiled (")


def test_warmup_interrupted_while_compiling_exits_130(belote, tmp_path):
    """An empty cache: the whole compile announced with how long it takes, then Ctrl-C."""
    p = belote.popen("warmup", env=belote.with_cache(tmp_path))
    first = p.stderr.readline()  # printed before compiling starts
    time.sleep(2)  # inside the compile
    p.send_signal(signal.SIGINT)
    out, err = p.communicate(timeout=300)
    # every kernel, the searching players' entry beside the driver where there is a second core
    seconds = kernelcache.wall_seconds(list(kernelcache.COMPILE_SECONDS), (os.cpu_count() or 1) > 1)
    assert first.startswith(f"compiling kernels once for this machine ({kernelcache.about(seconds)}): the simulation driver")
    assert p.returncode == 130 and err.strip().splitlines()[-1] == "belote: interrupted" and "Traceback" not in err
    assert out == ""


def _fail_inside_the_compile(monkeypatch, signum):
    """What numba does when a Ctrl-C lands inside its compile: the interrupted library cannot be
    saved to the cache, and a RuntimeError comes out instead of the KeyboardInterrupt."""
    from analyzer.cli import signals
    from analyzer.runs import kernelcache as kc

    def compile_interrupted():
        signals._interrupted = signum
        raise RuntimeError("no compiled object yet for <Library 'hand_buffers'>")

    monkeypatch.setattr(signals, "_interrupted", 0)  # restored after the test
    monkeypatch.setattr(kc, "use_writable_cache", compile_interrupted)


def test_an_error_that_an_interruption_caused_is_the_interruption(monkeypatch, capsys):
    """Found with Ctrl-C two seconds into `belote warmup` on an empty cache: exit 1 and numba's
    traceback about 2 times in 6 (at a86e052 too), where the rule is 130 and one line."""
    import cli

    _fail_inside_the_compile(monkeypatch, signal.SIGINT)
    assert cli.main(["warmup", "--quiet"]) == 130
    assert capsys.readouterr().err.strip().splitlines()[-1] == "belote: interrupted"


def test_the_same_error_without_an_interruption_is_not_hidden(monkeypatch):
    import cli

    _fail_inside_the_compile(monkeypatch, 0)
    with pytest.raises(RuntimeError, match="no compiled object yet"):
        cli.main(["warmup", "--quiet"])


def test_a_signal_inside_llvmlites_cache_callback_waits_until_python_is_back_in_its_own_code():
    """llvmlite hands a compiled object to its cache through a ctypes callback: an Interrupted
    raised there was printed as "Exception ignored ... Traceback" and dropped (16 Ctrl-C's two
    seconds into `belote warmup`: exit 130 and one clean line each since)."""
    from analyzer.cli import signals

    def frame_in(path):
        ns = {}
        exec(compile("import sys\nf = sys._getframe()", path, "exec"), ns)
        return ns["f"]

    assert signals._inside_kernel(frame_in(os.path.join("site", "llvmlite", "binding", "executionengine.py")))
    assert signals._inside_kernel(frame_in(os.path.join("site", "numba", "core", "serialize.py")))
    assert signals._inside_kernel(frame_in(os.path.join("site-packages", "llvmlite", "binding", "ffi.py")))  # a wrapper
    assert not signals._inside_kernel(frame_in(os.path.join("analyzer", "cli", "warmup.py")))


def test_a_signal_inside_a_finaliser_waits_until_python_is_back_in_its_own_code():
    """llvmlite disposes of its objects in ``__del__`` while numba compiles; an Interrupted raised in a
    function a finaliser calls is printed and dropped by Python (a Ctrl-C two seconds into `belote
    warmup` was lost so once in 16 runs, and the warmup ran to its end with status 0)."""
    from analyzer.cli import signals

    seen = []

    class Disposed:
        def __del__(self):
            seen.append(dispose())

    def dispose():  # a callee of the finaliser, as llvmlite's _is_shutting_down is
        return signals._inside_kernel(sys._getframe())

    Disposed()  # dropped at once: its finaliser runs here
    assert seen == [True]
    assert not signals._inside_kernel(sys._getframe())  # the test itself: not inside a finaliser


def test_the_warmup_ends_on_a_signal_python_dropped(monkeypatch):
    """The backstop: before and after each kernel the warmup checks for a signal that came (and that
    Python dropped where it was raised), and exits 130 instead of running on."""
    from analyzer import cli
    from analyzer.cli import signals

    def compiled_while_interrupted(say=lambda line: None):
        say("compiling kernels once for this machine")
        monkeypatch.setattr(signals, "_interrupted", 2)  # the handler ran inside a finaliser: noted, then dropped
        say("  done in 1 s")
        return []  # went on to the end: without the backstop the warmup exits 0

    monkeypatch.setattr(warmup, "warmup", compiled_while_interrupted)
    assert cli.main(["warmup", "--quiet"]) == 130


class _Apart:
    """A stand-in for the second compiling process (``warmup.compile_apart``): what was asked of it."""

    def __init__(self, kernel, log):
        self.kernel, self.log, self.running = kernel, log, True
        log.append(("start", kernel))

    def poll(self):
        return None if self.running else 0

    def wait(self):
        self.log.append(("wait", self.kernel))
        self.running = False
        return 0

    def terminate(self):
        self.log.append(("terminate", self.kernel))
        self.running = False


def test_the_driver_and_the_searching_players_compile_side_by_side(monkeypatch):
    """Both missing, two cores: the entry's own process starts first, the driver compiles here, and the
    entry's warmer runs last, once that process is done (it then loads what was saved)."""
    log = []
    monkeypatch.setattr(kernelcache, "is_cached", lambda kernel, root=None: kernel not in kernelcache.DRIVER + (kernelcache.STRONG,))
    monkeypatch.setattr(warmup.os, "cpu_count", lambda: 2)
    monkeypatch.setattr(warmup, "compile_apart", lambda kernels: _Apart(kernels, log))
    def warmer():
        return lambda kernels: log.append(("run", tuple(kernels)))

    driver_warmer = warmer()  # one warmer for every chunk kernel, as the driver's
    monkeypatch.setattr(warmup, "RUN", {k: driver_warmer if k in kernelcache.DRIVER else warmer() for k in warmup.KERNELS})
    lines = []
    assert warmup.warmup(say=lines.append) == [*kernelcache.DRIVER, kernelcache.STRONG]
    assert log == [("start", (kernelcache.STRONG,)), ("run", kernelcache.DRIVER), ("wait", (kernelcache.STRONG,)),
                   ("run", (kernelcache.STRONG,))]
    assert "beside it, in a second process: " + warmup.WHAT[kernelcache.STRONG] in lines[1]
    assert lines[-1].startswith(f"  {warmup.WHAT[kernelcache.STRONG]}, compiled beside the others: ready ")
    log.clear()
    monkeypatch.setattr(warmup.os, "cpu_count", lambda: 1)  # one core: one after the other, in this process
    warmup.warmup()
    assert log == [("run", kernelcache.DRIVER), ("run", (kernelcache.STRONG,))]


def test_an_interrupted_warmup_ends_its_second_process(monkeypatch):
    log = []
    monkeypatch.setattr(kernelcache, "is_cached", lambda kernel, root=None: kernel not in kernelcache.DRIVER + (kernelcache.STRONG,))
    monkeypatch.setattr(warmup.os, "cpu_count", lambda: 2)
    monkeypatch.setattr(warmup, "compile_apart", lambda kernels: _Apart(kernels, log))

    def interrupted(kernels):
        raise KeyboardInterrupt(kernels)

    monkeypatch.setattr(warmup, "RUN", {k: (lambda kernels, k=k: interrupted(k)) for k in warmup.KERNELS})  # a warmer each
    with pytest.raises(KeyboardInterrupt):
        warmup.warmup()
    strong = (kernelcache.STRONG,)
    assert log == [("start", strong), ("terminate", strong), ("wait", strong)]


@pytest.mark.parametrize("command, searching, apart", [
    ("report", False, (kernelcache.STRONG,)),  # its heuristic sections run first: the entry compiles beside the driver
    ("take", True, (kernelcache.CHUNK["take"],)),  # a searching run links the entry first: its driver kernel beside it
    ("take", False, None),  # a heuristic run needs only the driver
])
def test_a_command_that_needs_both_starts_the_second_one_ahead(monkeypatch, command, searching, apart):
    log, stops = [], []
    monkeypatch.setattr(kernelcache, "is_cached", lambda kernel, root=None: kernel not in kernelcache.DRIVER + (kernelcache.STRONG,))
    monkeypatch.setattr(warmup.os, "cpu_count", lambda: 2)
    monkeypatch.setattr(warmup, "compile_apart", lambda kernels: _Apart(kernels, log))
    monkeypatch.setattr(warmup.atexit, "register", lambda fn, proc: stops.append(proc))  # ended when the command exits
    proc = warmup.compile_ahead(command, searching)
    assert (proc.kernel if proc is not None else None) == apart and stops == ([proc] if apart else [])
    monkeypatch.setattr(kernelcache, "is_cached", lambda kernel, root=None: True)  # a warm cache: nothing ahead
    assert warmup.compile_ahead(command, searching) is None


@pytest.mark.parametrize("command, args", [
    ("simulate", ["simulate", "--deals", "50"]),
    ("take", ["take", "Jh 9h Ah Tc 7s", "--turned", "Qh", "--deals", "50"]),
    ("table", ["table", "--deals", "50"]),
    ("balance", ["balance", "--variant", "classic", "--deals", "50", "--games", "2"]),
    ("rules", ["rules", "--variant", "classic", "--option", "undertrump", "--deals", "50", "--games", "2"]),
    ("duel", ["duel", "--a", "heuristic/heuristic", "--b", "heuristic/random", "--deals", "20"]),
])
def test_each_command_compiles_the_driver_kernels_its_entry_names(compile_once_calls, capsys, command, args):
    """``kernelcache.ENTRY_KERNELS`` says which of the driver's kernels a command compiles (what its
    compile notice counts and what a searching run compiles beside it): the kinds of unit it runs."""
    from analyzer import cli
    from analyzer.runs import driver

    assert cli.main([*args, "--quiet"]) == 0
    capsys.readouterr()
    ran = {kernelcache.DRIVER[driver.CHUNKS.index(d)] for d, _ in compile_once_calls if d in driver.CHUNKS}
    assert ran == {k for k in kernelcache.ENTRY_KERNELS[command] if k in kernelcache.DRIVER}


def test_after_an_interruption_a_half_built_llvmlite_object_s_finaliser_is_not_printed(monkeypatch):
    """What a Ctrl-C two seconds into `belote warmup` once printed in CI: "Exception ignored in ...
    ObjectRef.__del__ ... AttributeError: 'PassBuilder' object has no attribute '_as_parameter_'"; after
    an interruption that is dropped, and every other unraisable exception still goes to Python's hook."""
    import sys
    import types

    from analyzer.cli import signals

    seen = []
    monkeypatch.setattr(sys, "__unraisablehook__", seen.append)
    half_built = types.SimpleNamespace(exc_value=AttributeError("'PassBuilder' object has no attribute '_as_parameter_'"))
    other = types.SimpleNamespace(exc_value=ValueError("a finaliser's own fault"))
    monkeypatch.setattr(signals, "_interrupted", 0)
    signals._unraisable(half_built)  # no interruption: printed as ever
    monkeypatch.setattr(signals, "_interrupted", 2)
    signals._unraisable(half_built)  # interrupted: dropped
    signals._unraisable(other)
    assert seen == [half_built, other]
