"""CPU seconds to compile the driver's chunk kernels, one kind of unit after the other, on an empty cache.

    .venv/bin/python scripts/compile_kinds.py                 # every kind, in the driver's order
    .venv/bin/python scripts/compile_kinds.py take simulate   # these kinds, in this order
    .venv/bin/python scripts/compile_kinds.py --strong        # every kind, then the searching players' entry:
                                                              # what `belote report` compiles, in one process

Points the kernel cache at a new temporary folder (nothing is read from or written to the real cache)
and compiles each kind's chunk kernel for a classic heuristic run's argument types
(``analyzer.runs.driver.compile_kind``, which runs no unit). The first kernel compiles the hand (the
bidding, the declarations, the scoring, the heuristic and random players); the others load it, so
the first figure is the hand and its kind, each later one that kind's own. The figures behind
``kernelcache.COMPILE_SECONDS``.
"""

import os
import sys
import tempfile
import time

# before analyzer is imported: it sets numba's cache folder from BELOTE_CACHE_DIR
_TMP = tempfile.TemporaryDirectory(prefix="belote-kinds-")
os.environ["BELOTE_CACHE_DIR"] = _TMP.name
os.environ.pop("NUMBA_CACHE_DIR", None)


def main(names: list[str], strong: bool) -> None:
    from analyzer.players.policies import Policies
    from analyzer.runs import driver

    unknown = [n for n in names if n not in driver.KIND_NAMES]
    if unknown:
        sys.exit(f"compile_kinds: unknown kind {unknown[0]!r}; the kinds: {', '.join(driver.KIND_NAMES)}")
    t0 = time.process_time()
    for name in names or driver.KIND_NAMES:
        t = time.process_time()
        driver.compile_kind(driver.KIND_NAMES.index(name))
        print(f"{name}: {time.process_time() - t:.1f} s CPU", flush=True)
    if strong:
        from analyzer.runs.hand import strong_address

        t = time.process_time()
        strong_address(Policies.parse("heuristic", "pimc", 4).codes()[1])  # compiles the entry
        print(f"the searching and learned players' entry: {time.process_time() - t:.1f} s CPU", flush=True)
    print(f"all: {time.process_time() - t0:.1f} s CPU")


if __name__ == "__main__":
    main([a for a in sys.argv[1:] if a != "--strong"], "--strong" in sys.argv[1:])
