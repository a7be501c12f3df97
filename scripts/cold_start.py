"""Cold start: what ``make report`` compiles, timed on an empty kernel cache.

Runs ``belote report --deals N`` (tiny: the time is compiling) in a child process with
``BELOTE_CACHE_DIR`` pointed at a new temporary folder, then once more on that now warm
cache, and prints wall and CPU seconds of each (CPU is the steadier figure on a shared
machine). The temporary folder, cache and report included, is removed at the end.

    .venv/bin/python scripts/cold_start.py            # --deals 400
    .venv/bin/python scripts/cold_start.py 2000
"""

import os
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path


def _timed(cmd, env):
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t0 = time.perf_counter()
    subprocess.run(cmd, env=env, check=True, stdout=subprocess.DEVNULL)
    wall = time.perf_counter() - t0
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return wall, cpu


def main(deals: int = 400) -> None:
    belote = Path(sys.executable).with_name("belote")
    with tempfile.TemporaryDirectory(prefix="belote-cold-") as tmp:
        env = dict(os.environ, BELOTE_CACHE_DIR=str(Path(tmp) / "cache"))
        env.pop("NUMBA_CACHE_DIR", None)
        for label, out in (("cold cache", "r1"), ("warm cache", "r2")):
            wall, cpu = _timed([str(belote), "report", "--deals", str(deals), "--out", str(Path(tmp) / out)], env)
            print(f"belote report --deals {deals}, {label}: {wall:.1f} s wall, {cpu:.1f} s CPU", flush=True)


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 400)
