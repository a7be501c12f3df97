"""The ``belote`` command as a user runs it, for the tests: this venv's console script in a subprocess.

``tests/conftest.py`` hands one ``Belote`` to every test as the ``belote`` fixture; helper modules
that are not tests (``tests/web/web_server.py``) import it from here, and tests import ``listing`` and
``wait_for`` (a command started and left running, waited for until it is into its work).
"""

import json
import os
import subprocess
import sys
import time
from pathlib import Path


class Belote:
    """``belote(*args)`` runs the command and returns its ``CompletedProcess`` (text, output captured),
    with a time limit, so a regression that reads or waits forever fails instead of hanging the suite.
    The methods add the checks most tests make: ``out`` (exit 0, its stdout), ``json`` (``--json
    --quiet``, parsed) and ``error`` (a refusal: exit 2 and one line)."""

    path = str(Path(sys.executable).with_name("belote"))  # the console script, installed beside python

    def __call__(self, *args, cwd=None, env=None, timeout: float = 900, **kw) -> subprocess.CompletedProcess:
        return subprocess.run([self.path, *map(str, args)], capture_output=True, text=True, cwd=cwd, env=env,
                              timeout=timeout, **kw)

    def popen(self, *args, **kw) -> subprocess.Popen:
        """The command started and left running (stdout and stderr piped, text): for a test that signals it."""
        return subprocess.Popen([self.path, *map(str, args)], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                text=True, **kw)

    def out(self, *args, **kw) -> str:
        """The stdout of a run that must succeed (its stderr in the failure message otherwise)."""
        p = self(*args, **kw)
        assert p.returncode == 0, (p.returncode, p.stderr)
        return p.stdout

    def json(self, *args, **kw):
        """The run's answer with ``--json --quiet``, parsed."""
        return json.loads(self.out(*args, "--json", "--quiet", **kw))

    def error(self, *args, **kw) -> str:
        """The one stderr line of a run the command must refuse (``error_line``)."""
        return self.error_line(self(*args, **kw))

    @staticmethod
    def error_line(p: subprocess.CompletedProcess) -> str:
        """A refusal's single line: exit code 2, one non-blank stderr line starting ``belote: error:``,
        no traceback anywhere."""
        lines = [line for line in p.stderr.splitlines() if line.strip()]
        assert p.returncode == 2, (p.returncode, p.stderr)
        assert len(lines) == 1 and lines[0].startswith("belote: error:"), p.stderr
        assert "Traceback" not in p.stdout + p.stderr
        return lines[0]

    @staticmethod
    def with_cache(folder) -> dict:
        """This environment with ``BELOTE_CACHE_DIR=folder`` and without ``NUMBA_CACHE_DIR`` (which would override it)."""
        return {k: v for k, v in os.environ.items() if k != "NUMBA_CACHE_DIR"} | {"BELOTE_CACHE_DIR": str(folder)}


def listing(folder: Path) -> list[str]:
    """The sorted names in ``folder``: what a run left there (its output, a temporary file, a lock)."""
    return sorted(p.name for p in Path(folder).iterdir())


def cpu_seconds(pid: int) -> float:
    """The CPU time a process (all its threads) has used so far (``/proc/PID/stat``)."""
    with open(f"/proc/{pid}/stat") as f:
        fields = f.read().rsplit(")", 1)[1].split()  # after the command name: field 3 on
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")  # utime, stime


def wait_for(proc, busy=None, until=None) -> None:
    """Until ``proc`` has used ``busy`` seconds of CPU (past its imports and loading its kernels,
    whatever the machine's load), or ``until()`` is true; at most 120 s. ``proc`` is still running."""
    t0 = time.monotonic()
    while proc.poll() is None and time.monotonic() - t0 < 120 and not (until() if until else cpu_seconds(proc.pid) >= busy):
        time.sleep(0.05)
    assert proc.poll() is None, proc.communicate()
