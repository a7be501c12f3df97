"""``belote warmup``: the kernels compiled once, ahead of the first command (``analyzer.questions.warmup``).

A whole cold compile takes minutes, so the cold case is tested on the smallest part of it: a
kernel cache holding everything but one kernel (links to this checkout's cache), from which
warmup compiles only that one (seconds).
"""

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from analyzer.questions import warmup
from analyzer.runs import kernelcache

BELOTE = str(Path(sys.executable).parent / "belote")


def run(*args, cache=None):
    env = dict(os.environ)
    if cache is not None:  # BELOTE_CACHE_DIR picks the folder, unless NUMBA_CACHE_DIR overrides it
        env = {k: v for k, v in env.items() if k != "NUMBA_CACHE_DIR"} | {"BELOTE_CACHE_DIR": str(cache)}
    return subprocess.run([BELOTE, "warmup", *args], capture_output=True, text=True, env=env, timeout=900)


def test_warmup_has_help_with_an_example():
    p = subprocess.run([BELOTE, "warmup", "--help"], capture_output=True, text=True, timeout=60)
    assert p.returncode == 0 and "Examples:" in p.stdout and "belote warmup" in p.stdout.split("Examples:")[1]


def test_warmup_covers_every_entry_kernel():
    assert set(warmup.KERNELS) == {k for ks in kernelcache.ENTRY_KERNELS.values() for k in ks}
    assert warmup.KERNELS[0] == kernelcache.DRIVER  # first: the others load what it compiled
    assert set(warmup.RUN) == set(warmup.WHAT) == set(warmup.KERNELS)


def test_a_warm_cache_is_said_at_once():
    assert run("--quiet").returncode == 0  # compiles what this cache lacks (nothing, once the suite has run)
    t0 = time.monotonic()
    p = run()
    seconds = time.monotonic() - t0
    assert p.returncode == 0 and p.stderr == "", p.stderr
    assert p.stdout.startswith("kernels already compiled (") and seconds < 15, (p.stdout, seconds)


def test_the_driver_is_compiled_under_the_lock_the_suite_and_the_commands_take(monkeypatch, compile_once_calls):
    """make install's warmup and a command or the test suite's compiling process (tests/conftest.py)
    started together compile the driver once: each goes through ``kernelcache.compile_once``."""
    from analyzer.runs import driver

    monkeypatch.setattr(kernelcache, "is_cached", lambda kernel, root=None: kernel != kernelcache.DRIVER)
    assert warmup.warmup() == [kernelcache.DRIVER]  # only the driver taken as missing: only its warmer runs
    assert compile_once_calls == [(driver._chunk, "driver._chunk")]


@pytest.mark.parametrize("kernels", [(kernelcache.LOG_TRACE,), (kernelcache.DUEL_TRACE, kernelcache.SOLVER)],
                         ids=["log", "dd-loss"])
@pytest.mark.slow  # compiles kernels in a subprocess (8-12 s)
def test_cold_kernels_are_compiled_with_a_progress_line(tmp_path, kernels, cache_without):
    assert run("--quiet").returncode == 0  # this checkout's cache warm: only the kernels removed below are cold
    dst = cache_without([".".join(k[1:]) for k in kernels])
    assert [k for k in warmup.KERNELS if not kernelcache.is_cached(k, dst)] == list(kernels)
    p = run(cache=dst.parent)
    assert p.returncode == 0, p.stderr
    lines = p.stderr.splitlines()
    assert lines[0] == ("compiling kernels once for this machine (under a minute): "
                        + ", ".join(warmup.WHAT[k] for k in kernels))
    assert lines[-1].startswith("  done in ") and p.stdout.startswith("kernels compiled in ")
    assert all(kernelcache.is_cached(k, dst) for k in kernels)  # each one compiled and saved, none left cold
    assert run(cache=dst.parent).stdout.startswith("kernels already compiled (")


def test_warmup_interrupted_while_compiling_exits_130(tmp_path):
    """An empty cache: the whole compile announced in minutes, then Ctrl-C."""
    env = {k: v for k, v in os.environ.items() if k != "NUMBA_CACHE_DIR"} | {"BELOTE_CACHE_DIR": str(tmp_path)}
    p = subprocess.Popen([BELOTE, "warmup"], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env)
    first = p.stderr.readline()  # printed before compiling starts
    time.sleep(2)  # inside the compile
    p.send_signal(signal.SIGINT)
    out, err = p.communicate(timeout=300)
    minutes = kernelcache.minutes(sum(kernelcache.COMPILE_SECONDS.values()))
    assert first.startswith(f"compiling kernels once for this machine (about {minutes} min): the simulation driver")
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
    assert not signals._inside_kernel(frame_in(os.path.join("analyzer", "cli", "warmup.py")))
