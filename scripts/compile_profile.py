"""Where a cold start's compile time goes: every kernel numba compiles, with its own time.

Points the kernel cache at a new temporary folder (nothing is read from or written to the
real cache), runs one tiny analysis through the driver (``--play`` picks the play policy:
``heuristic`` by default, ``pimc`` to include the searching policies), and records numba's
``numba:compile`` events: for each compiled function its total time and its self time
(total minus the kernels compiled while typing it), the 25 largest by self time, and the sum.

    .venv/bin/python scripts/compile_profile.py
    .venv/bin/python scripts/compile_profile.py --play pimc --top 40
    .venv/bin/python scripts/compile_profile.py --llvm   # + LLVM's seconds in each function's compile
    .venv/bin/python scripts/compile_profile.py --entry  # then the searching players' entry, timed apart

Numba links a called function's code into its caller's module and has LLVM optimise and emit the
whole again: ``--llvm`` shows where that is paid (``NUMBA_LLVM_PASS_TIMINGS``).
"""

import argparse
import os
import sys
import tempfile
import time

# before analyzer is imported: it sets numba's cache folder from BELOTE_CACHE_DIR
_TMP = tempfile.TemporaryDirectory(prefix="belote-compile-")
os.environ["BELOTE_CACHE_DIR"] = _TMP.name
os.environ.pop("NUMBA_CACHE_DIR", None)

if "--llvm" in sys.argv:  # before numba is imported: it reads its configuration once
    os.environ["NUMBA_LLVM_PASS_TIMINGS"] = "1"

import numba.core.event as ev  # noqa: E402


class _Profile(ev.Listener):
    """Self and total seconds per compiled function, from nested compile events."""

    def __init__(self):
        self.stack = []  # [name, start, seconds of children]
        self.rows = []  # (name, total, self)
        self.dispatchers = {}  # name: dispatcher

    def on_start(self, event):
        d = event.data["dispatcher"]
        name = f"{d.py_func.__module__}.{d.py_func.__qualname__}"
        self.dispatchers[name] = d
        self.stack.append([name, time.process_time(), 0.0])

    def on_end(self, event):
        name, t0, children = self.stack.pop()
        total = time.process_time() - t0
        self.rows.append((name, total, total - children))
        if self.stack:
            self.stack[-1][2] += total


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--play", default="heuristic")
    ap.add_argument("--variant", default="classic")
    ap.add_argument("--top", type=int, default=25)
    ap.add_argument("--passes", action="store_true",
                    help="for each of the top functions, the seconds of numba's own passes (typing, inlining, "
                         "lowering) of its compiles, and of its 3 slowest passes; the rest of its self time is LLVM's")
    ap.add_argument("--llvm", action="store_true",
                    help="for each of the top functions, LLVM's seconds in its compiles: function passes, module "
                         "passes (over its code and every function linked into it), emitting the object")
    ap.add_argument("--entry", action="store_true",
                    help="after the heuristic run, compile the searching and learned players' entry "
                         "(analyzer.players.strong_entry) and print its CPU seconds apart")
    args = ap.parse_args()
    from analyzer.players.policies import Policies
    from analyzer.rules import Rules
    from analyzer.runs.simulate import SimConfig, simulate

    rules = Rules.from_label(args.variant)
    config = SimConfig(rules=rules, policies=Policies.parse("heuristic", args.play, rules.players),
                       deals=8, seed=1, threads=1, chunk=8)

    prof = _Profile()
    t0 = time.process_time()
    with ev.install_listener("numba:compile", prof):
        simulate(config)
    cpu = time.process_time() - t0
    if args.entry:
        t1 = time.process_time()
        with ev.install_listener("numba:compile", prof):
            import analyzer.players.strong_entry  # noqa: F401 (importing compiles it)
        print(f"cold compile of the driver: {cpu:.1f} s CPU; then of the searching players' entry: "
              f"{time.process_time() - t1:.1f} s CPU")
        cpu = time.process_time() - t0
    by = {}
    for name, total, own in prof.rows:
        n, t, s = by.get(name, (0, 0.0, 0.0))
        by[name] = (n + 1, t + total, s + own)
    rows = sorted(by.items(), key=lambda kv: -kv[1][2])
    what = " and of the searching players' entry" if args.entry else ""
    print(f"cold compile of a {args.variant} simulate with --play {args.play}{what}: {cpu:.1f} s CPU, "
          f"{len(prof.rows)} compiles of {len(by)} functions")
    print(f"{'self s':>8} {'total s':>8} {'n':>3}  function")
    for name, (n, total, own) in rows[:args.top]:
        d = prof.dispatchers.get(name)
        print(f"{own:8.1f} {total:8.1f} {n:3d}  {name}{_passes(d) if args.passes else ''}{_llvm(d) if args.llvm else ''}")
    rest = sum(v[2] for _, v in rows[args.top:])
    print(f"{rest:8.1f} {'':>8} {'':>3}  ({len(rows) - args.top} more)")
    if args.llvm:
        print(f"LLVM in all: {sum(_llvm_seconds(d).get('all', 0.0) for d in prof.dispatchers.values()):.1f} s")


def _passes(dispatcher) -> str:
    """Numba's pass seconds over the compiles of ``dispatcher`` (``pipeline_times``): in all, and the
    three slowest passes."""
    if dispatcher is None:
        return ""
    by = {}
    for cres in dispatcher.overloads.values():
        for pipeline in (cres.metadata or {}).get("pipeline_times", {}).values():
            for pass_name, t in pipeline.items():
                key = pass_name.split("_", 1)[-1]
                by[key] = by.get(key, 0.0) + t.init + t.run + t.finalize
    top = sorted(by.items(), key=lambda kv: -kv[1])[:3]
    return f"   numba passes {sum(by.values()):.1f} s: " + ", ".join(f"{k} {v:.1f}" for k, v in top)


def _llvm_seconds(dispatcher) -> dict:
    """LLVM's seconds over the compiles of ``dispatcher`` (``llvm_pass_timings``), by stage and in all."""
    by = {}
    for cres in dispatcher.overloads.values():
        for rec in (cres.metadata or {}).get("llvm_pass_timings") or ():
            stage = ("function passes" if rec.name.startswith("Function passes") else
                     "module passes" if rec.name.startswith("Module passes") else "emit")
            t = rec.timings.get_total_time()
            by[stage] = by.get(stage, 0.0) + t
            by["all"] = by.get("all", 0.0) + t
    return by


def _llvm(dispatcher) -> str:
    if dispatcher is None:
        return ""
    by = _llvm_seconds(dispatcher)
    return (f"   LLVM {by.get('all', 0.0):.1f} s: " +
            ", ".join(f"{k} {by.get(k, 0.0):.1f}" for k in ("module passes", "function passes", "emit")))


if __name__ == "__main__":
    try:
        main()
    finally:
        _TMP.cleanup()
