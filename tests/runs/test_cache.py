"""Kernels are cached on disk: a second run of the same command loads, never recompiles."""

import os
import subprocess
import sys

import numpy as np
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


# --- compiled once when processes start together on a cold cache --------------------------------

TINY = "from numba import njit\n\n@njit(cache=True)\ndef twice(x):\n    return 2 * x\n"

COMPILE_ONCE = (
    "import sys, time\n"
    "sys.path.insert(0, sys.argv[1])\n"
    "import tiny\n"
    "from analyzer.runs.kernelcache import compile_once\n"
    "if sys.argv[2] == 'slow':  # hold the lock a while: a compile that takes long\n"
    "    compile = tiny.twice.compile\n"
    "    tiny.twice.compile = lambda sig: (print('compiling', flush=True), time.sleep(4), compile(sig))\n"
    "compile_once(tiny.twice, (3,), 'tiny.twice', folder=sys.argv[3])\n"
    "print('result', tiny.twice(3))\n"
)


def test_a_process_finding_a_kernel_being_compiled_waits_and_loads_it_instead_of_compiling(tmp_path):
    (tmp_path / "tiny.py").write_text(TINY)
    env = dict(os.environ, NUMBA_CACHE_DIR=str(tmp_path / "cache"), NUMBA_DEBUG_CACHE="1")
    locks = str(tmp_path / "locks")

    def start(mode):
        return subprocess.Popen([sys.executable, "-c", COMPILE_ONCE, str(tmp_path), mode, locks], env=env,
                                stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)

    first = start("slow")  # compiles for 4 s (holding the lock)
    seen = []
    while not seen or seen[-1] not in ("compiling\n", ""):  # until it is compiling (or has ended)
        seen.append(first.stdout.readline())
    second = start("fast")  # started while the first compiles
    out1, out2 = "".join(seen) + first.communicate(timeout=120)[0], second.communicate(timeout=120)[0]
    assert first.returncode == 0 and second.returncode == 0, out1 + out2
    assert "result 6" in out1 and "result 6" in out2
    assert "data saved to" in out1  # the first compiled and saved ...
    assert "data loaded from" in out2 and "data saved to" not in out2, out2  # ... the second only loaded it


def test_the_driver_compiles_its_chunk_kernel_through_the_lock_for_the_signature_it_runs(compile_once_calls):
    from analyzer.rules import Rules
    from analyzer.runs import driver
    from analyzer.runs.simulate import SimConfig, simulate

    from analyzer.runs.hand import play_hand

    simulate(SimConfig(rules=Rules("classic"), deals=50, seed=1, threads=2, chunk=16))
    chunk = driver.CHUNKS[driver.SIMULATE]
    # the hand's own code first, then the kernel (whose weak copy of the hand the JIT binds to it: driver._compile)
    assert compile_once_calls == [(play_hand, "driver._chunk"), (chunk, "driver._chunk")]
    assert len(chunk.overloads) == 1  # the chunks ran the signature compiled under the lock, no other
    assert len(play_hand.overloads) == 1  # the hand loaded for the signature the kernel calls it with


# --- every kernel states how a call to it is compiled (analyzer.compiling.njit) ----------------------


def _kernels():
    """Every numba dispatcher defined in a module the cache's digest covers (``analyzer.kernel_sources``),
    as (name, dispatcher)."""
    import importlib
    from pathlib import Path

    from numba.core.registry import CPUDispatcher

    import analyzer

    here = Path(analyzer.__file__).resolve().parent
    out = []
    for src in analyzer.kernel_sources(here):
        name = "analyzer." + ".".join(src.relative_to(here).with_suffix("").parts)
        mod = importlib.import_module(name)
        out += [(f"{name}.{k}", v) for k, v in vars(mod).items()
                if isinstance(v, CPUDispatcher) and v.py_func.__module__ == name]
    return out


def test_every_kernel_is_made_by_the_projects_njit_with_its_inlining_said():
    """A kernel made by numba's own njit would leave ``forceinline`` unset, so it would inherit the
    flag (and ``_nrt``) from whichever kernel first compiled it, in this process or in the one that
    cached it: ``analyzer.compiling.njit`` sets it on every kernel, and a helper LLVM inlines counts
    no references."""
    kernels = _kernels()
    assert len(kernels) > 150  # the package's kernels were found
    unsaid = [n for n, d in kernels if "forceinline" not in d.targetoptions]
    assert not unsaid, f"made by numba's njit, not analyzer.compiling.njit: {unsaid[:5]}"
    counting = [n for n, d in kernels if d.targetoptions["forceinline"] and d.targetoptions.get("_nrt", True)]
    assert not counting, f"LLVM-inlined helpers that count references: {counting[:5]}"
    helpers = sum(d.targetoptions["forceinline"] for _, d in kernels)
    layers = sum(d.targetoptions.get("inline") == "always" for _, d in kernels)
    assert helpers > 50 and layers > 5, (helpers, layers)  # both kinds of inlining are in use


# --- the data kernels freeze: a retrained model starts a fresh kernel cache ----------------------

CACHE_AND_WEIGHTS = ("import analyzer, numba.core.config as c\n"
                     "from analyzer.players.net_weights import WEIGHTS\n"
                     "print(analyzer.__file__, c.CACHE_DIR, WEIGHTS[1, :3].tolist())\n")


def test_every_array_kernels_freeze_is_in_the_kernel_cache_s_digest():
    """net's weights are module-level arrays (``net_weights``) that the strong players' kernels read,
    so numba freezes them into the compiled code: each file they are read from, and every ``.npy`` of
    the package, is in ``analyzer.KERNEL_DATA_FILES``, which the cache folder's digest covers."""
    from pathlib import Path

    import analyzer
    from analyzer.players import net_files, net_weights, strong

    here = Path(analyzer.__file__).resolve().parent
    read = sorted(str(p.relative_to(here)) for p in net_files.NET_VERSIONS.values())
    assert read == sorted(analyzer.KERNEL_DATA_FILES) == sorted(str(p.relative_to(here)) for p in here.rglob("*.npy"))
    frozen = {v: getattr(strong, f"WEIGHTS_V{v}", None) for v in net_weights.VERSIONS if v != net_weights.LATEST}
    assert strong.WEIGHTS is net_weights.WEIGHTS and all(frozen[v] is net_weights.BY_VERSION[v] for v in frozen)


def test_a_retrained_model_starts_a_fresh_kernel_cache_and_the_same_weights_reuse_it(tmp_path):
    """numba checks only the timestamps of kernel modules, not the arrays it froze into the code: the
    cache folder is named after a digest that covers them (``analyzer.KERNEL_DATA_FILES``). A copy of
    this package keeps this install's folder; the copy with a row retrained (``belote learn
    --write``'s own writer) gets a folder of its own, and plays the new weights."""
    import shutil
    from pathlib import Path

    import analyzer
    from analyzer.players.net import N_WEIGHTS
    from analyzer.runs.learn import write_weights

    here = Path(analyzer.__file__).resolve().parent
    shutil.copytree(here, tmp_path / "analyzer", ignore=shutil.ignore_patterns("__pycache__"))
    env = {k: v for k, v in os.environ.items() if k != "NUMBA_CACHE_DIR"}
    env = dict(env, PYTHONPATH=str(tmp_path), BELOTE_CACHE_DIR=str(tmp_path / "cache"))

    def folder_and_weights():
        out = subprocess.run([sys.executable, "-c", CACHE_AND_WEIGHTS], env=env, capture_output=True, text=True,
                             cwd=tmp_path, timeout=120)
        assert out.returncode == 0, out.stderr
        source, cache, weights = out.stdout.split(" ", 2)
        assert Path(source).resolve().parent == tmp_path / "analyzer"  # the copy ran, not this install
        return Path(cache), weights.strip()

    same, shipped = folder_and_weights()
    assert same.parent == tmp_path / "cache" and same.name == analyzer._kernel_cache_dir().name
    write_weights(tmp_path / "analyzer" / "players" / "net_data" / "net.npy", {"piekjas2": np.full(N_WEIGHTS, 0.5)},
                  {"piekjas2": {"seed": 3}})
    fresh, retrained = folder_and_weights()
    assert fresh.parent == same.parent and fresh.name != same.name
    assert shipped != retrained == "[0.5, 0.5, 0.5]"
