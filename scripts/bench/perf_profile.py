"""Where a simulation's time goes, per compiled function: ``perf`` with a map of the kernels' symbols.

    .venv/bin/python scripts/bench/perf_profile.py [--variant classic] [--play random] [--hands 3000000] [--top 15]

``perf`` sees numba's machine code only as anonymous addresses. This script runs the simulation under
``perf record -e cpu-clock`` (the machine's hardware counters are not available in a VM; sampling the
clock needs none), and before the timed run writes ``/tmp/perf-PID.map``, the file ``perf`` reads for
code it cannot name: every function of the driver kernel's library (the hand, the units, the players
and every callee numba linked into it), at the address the JIT loaded it, with its size from the
library's object code (``nm -S``). Prints the functions taking the most samples, named
``module.function``; ``NRT_incref`` / ``NRT_decref`` are numba's reference counting. Needs ``perf``
and ``nm`` (Debian: linux-perf, binutils). Run it on a warm kernel cache (a second time, or after
``belote warmup``): on a cold one the compile is in the profile too.
"""

from __future__ import annotations

import argparse
import os
import re
import subprocess
import sys
import tempfile


def _keep_object_code() -> None:
    """Keep a copy of each library's object code when numba compiles or loads it (numba hands the
    buffer to the JIT and drops its own reference)."""
    from numba.core import codegen

    lib_cls = codegen.CPUCodeLibrary
    set_object = lib_cls._set_compiled_object

    def _set(self, value):
        self._belote_object = value
        return set_object(self, value)

    hook = lib_cls._object_compiled_hook.__func__

    def _hook(cls, ll_module, buf):
        library = getattr(ll_module, "_CPUCodeLibrary__library", None)
        if library is not None:
            library._belote_object = buf
        return hook(cls, ll_module, buf)

    lib_cls._set_compiled_object = _set
    lib_cls._object_compiled_hook = classmethod(_hook)


def _inner(a) -> None:
    _keep_object_code()
    from analyzer.players.policies import Policies
    from analyzer.rules import Rules
    from analyzer.runs import driver
    from analyzer.runs.simulate import SimConfig, simulate

    rules = Rules.from_label(a.variant)
    pols = Policies.parse(a.play if a.play in ("random", "heuristic") else "heuristic", a.play, rules.players)
    simulate(SimConfig(rules=rules, policies=pols, deals=1000, seed=1, threads=1))  # compiles or loads the driver
    from analyzer.runs.hand import play_hand

    # the driver's kernel and the hand's own code, which it calls (driver._compile loads it first)
    libraries = [cres.library for d in (driver.CHUNKS[driver.SIMULATE], play_hand) for cres in d.overloads.values()]
    with tempfile.NamedTemporaryFile(suffix=".o") as obj, open(f"/tmp/perf-{os.getpid()}.map", "w") as out:
        for number, library in enumerate(libraries):
            obj.seek(0)
            obj.truncate()
            obj.write(library._belote_object)
            obj.flush()
            if a.keep:  # --annotate: the object code and where each function was loaded
                with open(f"{a.keep}.{number}", "wb") as keep:
                    keep.write(library._belote_object)
            listing = subprocess.run(["nm", "-S", "--defined-only", obj.name], capture_output=True, text=True,
                                     check=True).stdout
            symbols = []
            for line in listing.splitlines():
                parts = line.split()
                if len(parts) == 4 and parts[2] in "tTwW":
                    try:
                        at = library.get_pointer_to_function(parts[3])
                    except Exception:  # a local symbol the JIT does not export
                        continue
                    if at:
                        symbols.append((at, int(parts[0], 16), int(parts[1], 16), parts[2], parts[3]))
            # a weak symbol (a callee's copy) the JIT bound to a definition loaded before is not this
            # library's code: keep the symbols at this library's load offset, the strong ones' (.text)
            bases = {at - offset for at, offset, _, kind, _ in symbols if kind in "tT"}
            for at, offset, size, _kind, name in symbols:
                if at - offset in bases:
                    out.write(f"{at:x} {size:x} {name}\n")
                    if a.keep:
                        with open(a.keep + ".map", "a") as keep:
                            keep.write(f"{number} {at:x} {offset:x} {size:x} {name}\n")
    simulate(SimConfig(rules=rules, policies=pols, deals=a.hands, seed=2, threads=1))


def _name(symbol: str) -> str:
    """``analyzer.runs.hand._play_hand`` from numba's mangled ``_ZN8analyzer4runs4hand10_play_handB...``."""
    m = re.match(r"_ZN(?:7cpython)?((?:\d+[A-Za-z_]\w*?)+)B\d", symbol)
    if not m:
        return symbol
    parts, rest = [], m.group(1)
    while rest:
        n = re.match(r"\d+", rest).group(0)
        parts.append(rest[len(n):len(n) + int(n)])
        rest = rest[len(n) + int(n):]
    return ".".join(parts)


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--variant", default="classic")
    p.add_argument("--play", default="random")
    p.add_argument("--hands", type=int, default=3_000_000)
    p.add_argument("--top", type=int, default=15)
    p.add_argument("--annotate", metavar="NAME", help="also print NAME's instructions (e.g. _play_hand) with their samples")
    p.add_argument("--lines", type=int, default=60, help="--annotate: the hottest instructions shown, in address order")
    p.add_argument("--inner", action="store_true", help=argparse.SUPPRESS)
    p.add_argument("--keep", help=argparse.SUPPRESS)
    a = p.parse_args()
    if a.inner:
        _inner(a)
        return
    with tempfile.TemporaryDirectory() as tmp:
        data = os.path.join(tmp, "perf.data")
        keep = ["--keep", os.path.join(tmp, "kernels.o")] if a.annotate else []
        subprocess.run(["perf", "record", "-q", "-e", "cpu-clock", "-F", "4000", "-o", data, sys.executable, __file__,
                        "--inner", "--variant", a.variant, "--play", a.play, "--hands", str(a.hands)] + keep, check=True)
        report = subprocess.run(["perf", "report", "-i", data, "--stdio", "--sort", "sym"], capture_output=True,
                                text=True, check=True).stdout
        if a.annotate:
            annotated = _annotate(data, keep[1], a.annotate, a.lines)
    print(f"{a.variant}, play {a.play}, {a.hands:,} hands on one thread (and the process's start-up):")
    shown = 0
    for line in report.splitlines():
        m = re.match(r"\s*([\d.]+)%\s+\[\.\]\s+(\S+)", line)
        if m and shown < a.top:
            print(f"{m.group(1):>7}%  {_name(m.group(2))}")
            shown += 1
    if a.annotate:
        print(annotated)


def _annotate(data: str, obj: str, name: str, lines: int) -> str:
    """The instructions of the function whose name contains ``name``, each with its share of the
    function's samples: the ``lines`` hottest, in address order, with ``...`` where some are left out.
    A sample's address less the function's load address is its offset in the object code (``objdump``)."""
    functions = []
    with open(obj + ".map") as f:
        for line in f:
            number, at, offset, size, symbol = line.split()
            if name in _name(symbol):
                functions.append((int(at, 16), int(offset, 16), int(size, 16), symbol, f"{obj}.{number}"))
    if not functions:
        return f"--annotate: no function named like {name!r} in the driver's library"
    ips = [int(line, 16) for line in subprocess.run(["perf", "script", "-i", data, "-F", "ip"], capture_output=True,
                                                      text=True, check=True).stdout.split()]
    # the library's copy that took the samples (the driver has one per signature it was called with)
    at, offset, size, symbol, obj = max(functions, key=lambda f: sum(f[0] <= ip < f[0] + f[2] for ip in ips))
    hits: dict[int, int] = {}
    for ip in ips:
        if at <= ip < at + size:
            hits[offset + ip - at] = hits.get(offset + ip - at, 0) + 1
    total = sum(hits.values()) or 1
    listing = subprocess.run(["objdump", "-d", "--no-show-raw-insn", f"--start-address={offset}",
                              f"--stop-address={offset + size}", obj], capture_output=True, text=True, check=True).stdout
    rows = []
    for line in listing.splitlines():
        m = re.match(r"\s*([0-9a-f]+):\s+(.*)", line)
        if m:
            rows.append((int(m.group(1), 16), re.sub(r"<[^>]*?(\+0x[0-9a-f]+)?>", lambda j: f"<{j.group(1) or ''}>", m.group(2))))
    hot = {r[0] for r in sorted(rows, key=lambda r: -hits.get(r[0], 0))[:lines]}
    out = [f"{_name(symbol)}: {total:,} samples, {size:,} bytes of code; the {lines} hottest instructions:"]
    skipped = False
    for address, text in rows:
        if address in hot:
            out.append(f"{100 * hits.get(address, 0) / total:6.2f}%  {address:6x}  {text}")
            skipped = False
        elif not skipped:
            out.append("    ...")
            skipped = True
    return "\n".join(out)


if __name__ == "__main__":
    main()
