"""The real ``belote`` command as a user runs it: output folders, interruptions, output
paths, version and provenance, Dutch cards, and the project's own error wording.

Every test runs ``.venv/bin/belote`` in a subprocess (small ``--deals``, so they stay fast
once the kernels are cached).
"""

import json
import signal
import time

import pytest

from analyzer.runs import kernelcache
from analyzer.output.outdir import RUN_FILE, TOOL, git_commit
from belote_command import listing, wait_for

RUN_KEYS = {"tool", "version", "git_commit", "command", "seed", "rules", "policies", "created", "files"}


SMALL = {
    # one variant (its example hand, table, balance, ... and bracket): what these tests check of the --out
    # folder does not depend on the report's content; tests/commands/test_cli_analyses.py runs every variant
    "report": ["report", "--deals", "200", "--variant", "piekjas2"],
    "table": ["table", "--deals", "200"],
    "balance": ["balance", "--variant", "piekjas2", "--deals", "200", "--games", "2"],
}


# --- one rule for every --out folder ----------------------------------------------------------


@pytest.mark.parametrize("command", sorted(SMALL))
def test_out_folder_holding_a_file_we_did_not_write_is_refused_and_kept(belote, command, tmp_path):
    out = tmp_path / "out"
    out.mkdir()
    (out / "notes.txt").write_text("mine")
    line = belote.error(*SMALL[command], "--out", str(out), "--quiet", cwd=tmp_path)
    assert "notes.txt" in line and "did not write" in line
    assert (out / "notes.txt").read_text() == "mine" and listing(out) == ["notes.txt"]
    assert listing(tmp_path) == ["out"]  # no temporary folder left beside it


@pytest.mark.parametrize("command", sorted(SMALL))
@pytest.mark.parametrize("where", [".", ".."])
def test_out_folder_containing_the_current_folder_is_refused_before_any_work(belote, command, where, tmp_path):
    cwd = tmp_path / "work"
    cwd.mkdir()
    (cwd / "keep.txt").write_text("x")
    t0 = time.perf_counter()
    line = belote.error(*SMALL[command], "--out", where, "--quiet", cwd=cwd)
    assert "contains the current folder" in line
    assert listing(cwd) == ["keep.txt"] and listing(tmp_path) == ["work"]
    assert time.perf_counter() - t0 < 60  # refused up front, not after the analysis


@pytest.mark.slow  # whole table and balance runs in a subprocess: out of make test-fast
@pytest.mark.parametrize("command", ["table", "balance"])
def test_table_and_balance_write_run_json_and_replace_only_their_own_folder(belote, command, tmp_path):
    out = tmp_path / "out"
    out.mkdir()  # an empty folder is used
    p = belote(*SMALL[command], "--out", str(out), "--seed", "4", "--quiet", cwd=tmp_path)
    assert p.returncode == 0, p.stderr
    run = json.loads((out / RUN_FILE).read_text())
    assert RUN_KEYS <= set(run) and run["tool"] == TOOL and run["seed"] == 4
    assert run["git_commit"] == git_commit() and run["command"].startswith(f"belote {command} ")
    assert sorted(run["files"] + [RUN_FILE]) == listing(out)
    assert run["rules"] and run["policies"]
    # an earlier folder of ours is replaced (the new run.json, no stale file)
    p = belote(*SMALL[command], "--out", str(out), "--seed", "5", "--quiet", cwd=tmp_path)
    assert p.returncode == 0, p.stderr
    assert json.loads((out / RUN_FILE).read_text())["seed"] == 5 and listing(tmp_path) == ["out"]
    # ... but not once the user has put a file of their own in it
    (out / "mine.csv").write_text("1,2\n")
    belote.error(*SMALL[command], "--out", str(out), "--quiet", cwd=tmp_path)
    assert (out / "mine.csv").read_text() == "1,2\n"


@pytest.mark.slow  # two whole reports
def test_report_out_replaces_its_own_report_and_writes_run_json(belote, tmp_path):
    out = tmp_path / "rep"
    for seed in ("1", "2"):
        p = belote(*SMALL["report"], "--out", str(out), "--seed", seed, "--quiet", cwd=tmp_path)
        assert p.returncode == 0, p.stderr
    run = json.loads((out / RUN_FILE).read_text())
    assert RUN_KEYS <= set(run) and run["seed"] == 2 and (out / "index.md").is_file()
    assert listing(tmp_path) == ["rep"]
    # --variant: the report of that variant only, with its example hand
    assert run["parameters"]["variants"] == ["piekjas2"]
    assert [ex["label"] for ex in run["parameters"]["examples"]] == ["piekjas2"]


# --- interruptions: "belote: interrupted", exit 130, nothing half-written ----------------------


def interrupt(proc, *signals, gap=0.05, busy=None, until=None):
    """Let ``proc`` get into its work (``wait_for``), then send ``signals`` ``gap`` seconds apart.

    A signal is handled when the running kernel batch returns (seconds; on a loaded
    machine up to minutes for the 2**20-hand batches of simulate and balance), hence
    the generous wait."""
    wait_for(proc, busy, until)
    for sig in signals:
        proc.send_signal(sig)
        time.sleep(gap)
    out, err = proc.communicate(timeout=600)
    return proc.returncode, out, err


LONG = {  # random play: the fastest hands, so a kernel batch returns soon
    "simulate": ["simulate", "--deals", "500000000", "--bid", "random", "--play", "random", "--quiet"],
    "take": ["take", "Jh 9h Ah Tc 7s", "--turned", "Qh", "--deals", "500000000", "--quiet"],
    "table": ["table", "--deals", "500000000", "--quiet", "--out", "out"],
    "balance": ["balance", "--variant", "piekjas2", "--deals", "500000000", "--games", "0", "--bid", "random",
                "--play", "random", "--quiet", "--out", "out"],
    "duel": ["duel", "--a", "random/random", "--b", "random/taker=heuristic", "--deals", "500000000", "--quiet"],
}


def assert_interrupted(code, err):
    assert code == 130, err
    assert err.strip().splitlines()[-1] == "belote: interrupted" and "Traceback" not in err, err


@pytest.mark.slow  # ten subprocesses, each run seconds before its signal
@pytest.mark.parametrize("sig", [signal.SIGINT, signal.SIGTERM], ids=["SIGINT", "SIGTERM"])
@pytest.mark.parametrize("command", sorted(LONG))
def test_an_interrupted_command_says_so_and_exits_130(belote, command, sig, tmp_path):
    # 2 s of CPU: its imports take about 0.4, loading the kernels about as much; then it simulates
    assert_interrupted(*interrupt(belote.popen(*LONG[command], cwd=tmp_path), sig, busy=2.0)[::2])
    assert listing(tmp_path) == []  # no output folder, no temporary folder


@pytest.mark.slow  # each run 5 s of CPU before its signal
@pytest.mark.parametrize("command", ["take", "table"])  # short kernel batches: interrupted mid-run
def test_a_command_interrupted_inside_its_kernels_exits_130(belote, command, tmp_path):
    # about 1 s of CPU to import and load the kernels, then 4 s of simulating
    assert_interrupted(*interrupt(belote.popen(*LONG[command], cwd=tmp_path), signal.SIGINT, busy=5.0)[::2])
    assert listing(tmp_path) == []


@pytest.mark.slow  # a whole report first, then one interrupted
def test_report_interrupted_by_sigint_then_sigterm_keeps_the_earlier_report_and_leaves_nothing(belote, tmp_path):
    out = tmp_path / "rep"
    p = belote(*SMALL["report"], "--out", str(out), "--quiet", cwd=tmp_path)
    assert p.returncode == 0, p.stderr
    before = {n: (out / n).read_bytes() for n in listing(out)}
    proc = belote.popen("report", "--deals", "500000000", "--out", str(out), "--quiet", cwd=tmp_path)
    code, _, err = interrupt(proc, signal.SIGINT, signal.SIGTERM, busy=5.0, gap=0.01)  # into its sections
    assert_interrupted(code, err)
    assert listing(tmp_path) == ["rep"]  # no stray temporary entry beside it
    assert {n: (out / n).read_bytes() for n in listing(out)} == before


@pytest.mark.slow  # a long logged run in a subprocess
def test_an_interrupted_log_leaves_no_file(belote, tmp_path):
    proc = belote.popen("simulate", "--deals", "300000", "--log", "d.jsonl", "--log-deals", "300000", "--quiet",
                 cwd=tmp_path)  # simulating takes seconds, the log many minutes: interrupted while logging
    seen = []

    def logging():  # once the log's temporary file beside d.jsonl has its first lines
        for f in tmp_path.iterdir():
            try:
                if f.name.startswith(".d.jsonl.belote-tmp") and f.stat().st_size > 0:
                    seen.append(f.name)
            except FileNotFoundError:  # gone between the listing and its size
                pass
        return bool(seen)

    code, _, err = interrupt(proc, signal.SIGINT, signal.SIGTERM, until=logging)
    assert seen, "the log was never being written"
    assert_interrupted(code, err)
    assert listing(tmp_path) == []


# --- output paths are checked before any work ---------------------------------------------------


def test_an_unwritable_log_path_is_refused_before_simulating(belote, tmp_path):
    (tmp_path / "no").write_text("a file where the log's folder would be")
    t0 = time.perf_counter()
    line = belote.error("simulate", "--deals", "500000000", "--log", str(tmp_path / "no" / "d.jsonl"),
                                 "--quiet", timeout=120)
    assert "is a file, not a folder" in line and time.perf_counter() - t0 < 60


def test_a_log_path_holding_a_file_we_did_not_write_is_refused(belote, tmp_path):
    f = tmp_path / "notes.txt"
    f.write_text("precious\n")
    line = belote.error("simulate", "--deals", "500000000", "--log", str(f), "--quiet", timeout=120)
    assert "did not write" in line and f.read_text() == "precious\n"
    # an earlier deal log is replaced
    log = tmp_path / "d.jsonl"
    assert belote("simulate", "--deals", "20", "--log", str(log), "--log-deals", "3", "--quiet").returncode == 0
    assert belote("simulate", "--deals", "20", "--log", str(log), "--log-deals", "2", "--quiet").returncode == 0
    assert len(log.read_text().splitlines()) == 2


# --- version and provenance ----------------------------------------------------------------------


def test_version_names_the_version_and_commit(belote):
    import analyzer

    p = belote("--version")
    assert p.returncode == 0 and analyzer.__version__ in p.stdout
    assert (git_commit() or "unknown") in p.stdout


JSON_COMMANDS = [
    ["simulate", "--deals", "50"],
    ["take", "Jh 9h Ah Tc 7s", "--turned", "Qh", "--deals", "50"],
    ["table", "--deals", "50"],
    ["balance", "--variant", "piekjas2", "--deals", "50", "--games", "1"],
    ["duel", "--a", "heuristic/heuristic", "--b", "heuristic/taker=random,defence=heuristic", "--deals", "50"],
    ["rules", "--variant", "piekjas", "--players", "2", "--option", "undertrump", "--deals", "50", "--games", "0"],
    ["calibrate", "--deals", "300", "--iterations", "1"],
    ["equity", "--variant", "dekjas"],
    ["learn", "--variant", "piekjas", "--players", "2", "--deals", "40", "--test-deals", "20", "--threads", "1"],
    SMALL["report"],  # into reports/ under the test's temporary folder
    ["analyse", "--hands", "Jh 9h Ah Tc 7s Ks Qd 8c / 7h 8h Qh Kh Ac Kc 9c 7c / Th As Ts 9s 8s Js Qs Ad / "
     "Qc Jc 8d 7d 9d Td Kd Jd", "--trump", "h", "--plays", "Jh 7h Th Qc", "--pimc", "none"],
    ["review", "--hands", "Jh 9h Ah Tc 7s Ks Qd 8c / 7h 8h Qh Kh Ac Kc 9c 7c / Th As Ts 9s 8s Js Qs Ad / "
     "Qc Jc 8d 7d 9d Td Kd Jd", "--trump", "h", "--plays", "Jh 7h Th Qc", "--pimc", "none", "--worlds", "0"],
]


def test_the_json_header_test_covers_every_command_with_json():
    from typer.main import get_command

    import cli

    with_json = {name for name, c in get_command(cli.app).commands.items()
                 if any("--json" in p.opts for p in c.params)}
    assert with_json == {a[0] for a in JSON_COMMANDS} | {"bench"}  # bench prints rows: the test below


@pytest.mark.parametrize("args", [pytest.param(a, id=a[0], marks=[pytest.mark.slow] if a[0] == "report" else [])
                                  for a in JSON_COMMANDS])  # the report case: a whole report, out of make test-fast
def test_every_json_output_names_tool_version_and_commit(belote, args, tmp_path, request):
    if args[0] == "learn":  # one at a time with the tests that write beside the shipped weights (their leftovers)
        request.getfixturevalue("net_data_lock")
    import analyzer

    d = belote.json(*args, cwd=tmp_path)
    assert d["tool"] == TOOL and d["version"] == analyzer.__version__ and d["git_commit"] == git_commit()
    assert d["command"].startswith(f"belote {args[0]} ")


def test_bench_json_rows_name_version_and_commit(belote):
    p = belote("bench", "--variant", "piekjas2", "--play", "random", "--threads", "1", "--seconds", "0.1", "--json")
    rows = json.loads(p.stdout)
    assert p.returncode == 0 and rows and all(r["version"] and r["git_commit"] == git_commit() for r in rows)


# --- the kernel cache: say when it is cold ---------------------------------------------------------


def test_a_cold_kernel_cache_is_announced_with_the_minutes(belote, tmp_path):
    proc = belote.popen("simulate", "--deals", "100", env=belote.with_cache(tmp_path))
    first = proc.stderr.readline()  # printed before compiling starts
    proc.send_signal(signal.SIGINT)  # no need to wait minutes for the compilation itself
    _, err = proc.communicate(timeout=300)
    seconds = kernelcache.compile_seconds("simulate", root=tmp_path / "nothing-here")
    assert seconds > 0  # the whole driver is cold
    assert first.strip() == f"compiling kernels (first run only, {kernelcache.about(seconds)})"
    assert proc.returncode == 130 and "belote: interrupted" in err


def test_a_warm_kernel_cache_is_not_announced(belote):
    assert belote("simulate", "--deals", "100", "--quiet").returncode == 0  # compiles if it must
    p = belote("simulate", "--deals", "100")
    assert p.returncode == 0 and "compiling kernels" not in p.stderr


def test_compile_minutes_count_only_the_kernels_not_cached(tmp_path):
    K = kernelcache
    S = K.COMPILE_SECONDS
    assert K.missing_kernels("balance", tmp_path) == [K.CHUNK["seats"], K.CHUNK["games"]]
    assert K.missing_kernels("report", tmp_path) == [*K.DRIVER, K.STRONG]  # every unit; its bracket plays pimc and dd
    assert K.compile_minutes("report", tmp_path) == -(-sum(S[k] for k in (K.HAND, *K.DRIVER, K.STRONG)) // 60)
    assert K.compile_seconds("take", tmp_path) == S[K.HAND] + S[K.CHUNK["take"]]  # the hand with the take units only
    assert K.compile_seconds("take", tmp_path, searching=True) == S[K.HAND] + S[K.CHUNK["take"]] + S[K.STRONG]
    # side by side (a second process compiles the searching players' entry): the shorter part is paid beside the other
    everything = [K.HAND, *K.DRIVER, K.STRONG, K.LOG_TRACE]
    driver_part = S[K.HAND] + sum(S[k] for k in K.DRIVER)
    assert K.wall_seconds(everything, False) == driver_part + S[K.STRONG] + S[K.LOG_TRACE]
    assert K.wall_seconds(everything, True) == max(driver_part, S[K.STRONG]) + S[K.LOG_TRACE]
    assert K.wall_seconds([K.HAND, K.CHUNK["take"]], True) == S[K.HAND] + S[K.CHUNK["take"]]  # nothing beside it
    runs = K.cache_folder("runs", tmp_path)
    runs.mkdir(parents=True)
    (runs / "hand._play_hand-320.py311.nbi").write_bytes(b"")  # the hand cached (with the take units, say)
    (runs / "driver._chunk_take-152.py311.nbi").write_bytes(b"")
    assert K.compile_seconds("take", tmp_path) == 0
    assert K.compile_seconds("table", tmp_path) == S[K.CHUNK["table"]]  # the table units only: the hand is loaded
    for kernel in K.DRIVER:
        (runs / f"driver.{kernel[2]}-152.py311.nbi").write_bytes(b"")
    assert K.missing_kernels("balance", tmp_path) == []
    assert K.compile_minutes("simulate", tmp_path) == 0
    assert K.compile_seconds("simulate", tmp_path, searching=True) == S[K.STRONG]
    assert K.missing_kernels("report", tmp_path) == [K.STRONG]
    K.cache_folder("players", tmp_path).mkdir(parents=True)
    (K.cache_folder("players", tmp_path) / "strong_entry.strong_card-97.py311.nbi").write_bytes(b"")
    assert K.compile_minutes("report", tmp_path) == 0
    assert K.compile_seconds("duel", tmp_path, searching=True) == 0


# --- input: policies, player counts, the project's own wording -------------------------------------


def test_the_same_seat_twice_in_a_policy_is_refused(belote):
    line = belote.error("simulate", "--deals", "10", "--bid", "0=random,0=heuristic", "--quiet")
    assert "seat 0 twice" in line


def test_piekjas_players_suggestion_fits_the_typed_hand(belote):
    line = belote.error("take", "Jh 9h Ah Tc 7s", "--turned", "Qh", "--variant", "piekjas", "--players", "5",
                                 "--quiet")
    assert "--players 4" in line and "--players 2" not in line
    line = belote.error("take", "Jh 9h Ah Tc 7s", "--turned", "Qh", "--variant", "piekjas", "--players", "2",
                                 "--quiet")
    assert "--players 4" in line
    p = belote("take", "Jh 9h Ah Tc 7s", "--turned", "Qh", "--variant", "piekjas", "--players", "4", "--deals", "100",
               "--quiet")
    assert p.returncode == 0, p.stderr  # the suggestion works


WORDING = [
    (["simulate", "--deals", "0"], "--deals must be at least 1, not 0"),
    (["simulate", "--deals", "many"], '--deals must be a whole number, not "many"'),
    (["take", "Jh 9h Ah Tc 7s", "--turned", "Qh", "--round", "3"], "--round must be at most 2, not 3"),
    (["simulate", "--variant", "whist"], '--variant must be one of classic, piekjas, dekjas, not "whist"'),
    (["simulate", "--seed", "-1"], "--seed must be at least 0, not -1"),
    (["bench", "--seconds", "soon"], '--seconds must be a number, not "soon"'),
]


@pytest.mark.parametrize("args, message", WORDING, ids=[" ".join(a[:3]) for a, _ in WORDING])
def test_usage_errors_are_the_projects_own_one_line_messages(belote, args, message):
    line = belote.error(*args)
    assert message in line
    assert "Input should" not in line and "Value error" not in line


# --- Dutch cards -------------------------------------------------------------------------------------


def take_json(belote, *args):
    d = belote.json("take", *args, "--deals", "300", "--seed", "3")
    return d["calls"], d["n"]


def test_take_reads_dutch_cards_with_lang_nl_or_recognised(belote):
    english = take_json(belote, "Jh 9h Ah Tc 7s", "--turned", "Qh")
    assert take_json(belote, "Bh 9h Ah 10k 7s", "--turned", "Vh", "--lang", "nl") == english
    assert take_json(belote, "Bh 9h Ah 10k 7s", "--turned", "Vh") == english  # recognised: B, V and k are Dutch
    dekjas = ("--variant", "dekjas", "--turned")
    dutch = take_json(belote, *dekjas, "Vh", "--mine", "Bh 9h Ah Ak 10k 7r 8s Hs", "--theirs", "7k 8k 9k Vr Hr Ar 10s Vh")
    assert dutch == take_json(belote, *dekjas, "Qh", "--mine", "Jh 9h Ah Ac Tc 7d 8s Ks",
                              "--theirs", "7c 8c 9c Qd Kd Ad Ts Qh")


def test_cards_mixing_english_and_dutch_are_refused(belote):
    line = belote.error("take", "Jh 9h Ah Tc 7s", "--turned", "Vh", "--quiet")
    assert "Dutch" in line and "English" in line


def test_show_in_dutch_translates_the_calls_and_outcomes(belote, tmp_path):
    log = tmp_path / "d.jsonl"
    assert belote("simulate", "--variant", "piekjas", "--players", "2", "--deals", "40", "--log", str(log),
                  "--log-deals", "40", "--quiet").returncode == 0
    en = belote("show", str(log), "--all")
    nl = belote("show", str(log), "--all", "--lang", "nl")
    assert en.returncode == nl.returncode == 0
    assert ": pass" in en.stdout and ": pas" in nl.stdout and ": pass" not in nl.stdout
    assert ": take" in en.stdout and ": take" not in nl.stdout and ": speelt" in nl.stdout
    for english in ("round ", "players", "policies", "(trick ", "made", "dedans", "sequence"):
        assert english not in nl.stdout, english
