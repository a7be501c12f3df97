"""What a cold kernel cache costs: compile time, on an empty cache, at three grains.

    .venv/bin/python scripts/bench/compile_time.py report [--deals 400]
    .venv/bin/python scripts/bench/compile_time.py kinds [KIND ...] [--strong]
    .venv/bin/python scripts/bench/compile_time.py functions [--play pimc] [--variant V] [--top 40]
        [--passes] [--llvm] [--entry]

Each points the kernel cache at a new temporary folder (nothing is read from or written to the real
cache) and removes it at the end.

``report``: ``belote report --deals N`` (tiny: the time is compiling) in a child process, on the cold
cache and then once more on that now warm cache; wall and CPU seconds of each (CPU is the steadier
figure on a shared machine). The figure of ``make report``'s cold start, to compare before and after
a change.

``kinds``: CPU seconds to compile the driver's chunk kernel of each kind of unit, one after the other
(every kind in the driver's order, or the KINDs named), for a classic heuristic run's argument types
(``analyzer.runs.driver.compile_kind``, which runs no unit). The first kernel compiles the hand (the
bidding, the declarations, the scoring, the heuristic and random players); the others load it, so the
first figure is the hand and its kind, each later one that kind's own. ``--strong`` then compiles the
searching and learned players' entry: what ``belote report`` compiles, in one process. The figures
behind ``kernelcache.COMPILE_SECONDS``.

``functions``: one tiny simulation through the driver (``--play`` picks the play policy: ``heuristic``
by default, ``pimc`` to include the searching policies) with numba's ``numba:compile`` events
recorded: for each compiled function its total time and its self time (total minus the kernels
compiled while typing it), the ``--top`` largest by self time, and the sum. Numba links a called
function's code into its caller's module and has LLVM optimise and emit the whole again: ``--llvm``
shows where that is paid (``NUMBA_LLVM_PASS_TIMINGS``), ``--passes`` numba's own passes.
"""

import argparse
import os
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path


def report(tmp: Path, deals: int) -> None:
    belote = Path(sys.executable).with_name("belote")
    for label, out in (("cold cache", "r1"), ("warm cache", "r2")):
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        t0 = time.perf_counter()
        subprocess.run([str(belote), "report", "--deals", str(deals), "--out", str(tmp / out)], check=True,
                       stdout=subprocess.DEVNULL)  # the environment names the temporary cache
        wall = time.perf_counter() - t0
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
        print(f"belote report --deals {deals}, {label}: {wall:.1f} s wall, {cpu:.1f} s CPU", flush=True)


def kinds(names: list[str], strong: bool) -> None:
    from analyzer.players.policies import Policies
    from analyzer.runs import driver

    unknown = [n for n in names if n not in driver.KIND_NAMES]
    if unknown:
        sys.exit(f"compile_time kinds: unknown kind {unknown[0]!r}; the kinds: {', '.join(driver.KIND_NAMES)}")
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


def functions(args) -> None:
    import numba.core.event as ev

    from analyzer.players.policies import Policies
    from analyzer.rules import Rules
    from analyzer.runs.simulate import SimConfig, simulate

    class Profile(ev.Listener):
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

    rules = Rules.from_label(args.variant)
    config = SimConfig(rules=rules, policies=Policies.parse("heuristic", args.play, rules.players),
                       deals=8, seed=1, threads=1, chunk=8)
    prof = Profile()
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


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = ap.add_subparsers(dest="grain", required=True)
    r = sub.add_parser("report", help="belote report on a cold cache, then warm: wall and CPU seconds")
    r.add_argument("--deals", type=int, default=400)
    k = sub.add_parser("kinds", help="CPU seconds of each kind of unit's chunk kernel")
    k.add_argument("names", nargs="*", metavar="KIND")
    k.add_argument("--strong", action="store_true", help="then the searching and learned players' entry")
    f = sub.add_parser("functions", help="every function numba compiles, with its own time")
    f.add_argument("--play", default="heuristic")
    f.add_argument("--variant", default="classic")
    f.add_argument("--top", type=int, default=25)
    f.add_argument("--passes", action="store_true",
                   help="for each of the top functions, the seconds of numba's own passes (typing, inlining, "
                        "lowering) of its compiles, and of its 3 slowest passes; the rest of its self time is LLVM's")
    f.add_argument("--llvm", action="store_true",
                   help="for each of the top functions, LLVM's seconds in its compiles: function passes, module "
                        "passes (over its code and every function linked into it), emitting the object")
    f.add_argument("--entry", action="store_true",
                   help="after the heuristic run, compile the searching and learned players' entry "
                        "(analyzer.players.strong_entry) and print its CPU seconds apart")
    args = ap.parse_args()
    with tempfile.TemporaryDirectory(prefix="belote-compile-") as tmp:
        # before analyzer and numba are imported: analyzer sets numba's cache folder from BELOTE_CACHE_DIR,
        # numba reads its configuration once
        os.environ["BELOTE_CACHE_DIR"] = str(Path(tmp) / "cache")
        os.environ.pop("NUMBA_CACHE_DIR", None)
        if args.grain == "functions" and args.llvm:
            os.environ["NUMBA_LLVM_PASS_TIMINGS"] = "1"
        if args.grain == "report":
            report(Path(tmp), args.deals)
        elif args.grain == "kinds":
            kinds(args.names, args.strong)
        else:
            functions(args)


if __name__ == "__main__":
    main()
