"""Kernels are cached on disk: a second run of the same command loads, never recompiles."""

import os
import subprocess
import sys

import pytest

SCRIPT = (
    "from analyzer.rules import Rules\n"
    "from analyzer.runs.simulate import SimConfig, simulate\n"
    "simulate(SimConfig(rules=Rules('piekjas', 2), deals=2000, seed=1))\n"
)


def _run():
    env = dict(os.environ, NUMBA_DEBUG_CACHE="1")
    out = subprocess.run([sys.executable, "-c", SCRIPT], env=env, capture_output=True, text=True, check=True)
    return out.stdout + out.stderr


@pytest.mark.slow
def test_second_run_loads_every_kernel_from_the_cache():
    _run()  # compiles whatever is not cached yet
    log = _run()
    assert "data loaded from" in log
    assert "data saved to" not in log, [line for line in log.splitlines() if "saved" in line][:5]
