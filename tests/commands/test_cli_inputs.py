"""Bad command-line inputs are one line and exit code 2, found before any work (issue 18):
absurd numbers, seeds beyond 64 bits, empty calls, misspelt roles, more workers than cores,
schedulers that are not one, a missing bench peer, a bracket sample too small to show a
class. And a seed from 2**63 on runs on the kernels already compiled (no second signature)."""

import os
import socket
import threading
import time

import pytest

import cli
from analyzer.errors import BeloteError
from analyzer.runs import backends
from analyzer.runs.limits import MAX_DEALS, SEEDS, kernel_seed

HAND = ["take", "Jh 9h Ah Tc 7s", "--turned", "Qh", "--deals", "100", "--quiet"]


def run(args, capsys):
    code = cli.main(args)
    out, err = capsys.readouterr()
    return code, out, err


def one_line_error(args, capsys) -> str:
    """The command's single stderr line, after checking the exit code 2 and no traceback."""
    code, out, err = run(args, capsys)
    lines = [line for line in err.splitlines() if line.strip()]
    assert code == 2 and len(lines) == 1 and lines[0].startswith("belote: error:"), (code, out, err)
    assert "Traceback" not in out + err
    return lines[0]


BAD = [
    (["simulate", "--seed", str(SEEDS)], "from 0 to 2**64 - 1"),
    (["simulate", "--seed", str(10**30)], "from 0 to 2**64 - 1"),
    (["simulate", "--rule", "target=100000000000000000000"], "at most 100,000"),
    (["simulate", "--rule", "target=100001"], "at most 100,000"),
    (["simulate", "--rule", "target=1e20"], "whole number"),
    (HAND + ["--call", ""], '--call "" names no call'),
    (HAND + ["--call", " , "], "names no call"),
    (HAND + ["--call", "pass"], "names only pass"),
    (HAND + ["--precision", "nan"], "--precision must be a positive, finite number"),
    (HAND + ["--precision", "inf"], "--precision must be a positive, finite number"),
    (HAND + ["--precision", "-inf"], "--precision must be a positive, finite number"),
    (HAND + ["--precision", "0"], "--precision must be a positive, finite number"),
    (["simulate", "--deals", str(10**15)], "--deals must be at most 2**40"),
    (["simulate", "--deals", str(10**30)], "--deals must be at most 2**40"),
    (["simulate", "--log-deals", str(10**15)], "--log-deals must be at most 2**40"),
    (HAND + ["--max-deals", str(10**15)], "--max-deals must be at most 2**40"),
    (["table", "--deals", str(10**15)], "--deals must be at most 2**40"),
    (["table", "--bracket", "--bracket-deals", str(10**15)], "--bracket-deals must be at most 2**40"),
    (HAND + ["--bracket", "--bracket-deals", str(10**15)], "--bracket-deals must be at most 2**40"),
    (HAND + ["--bracket", "--bracket-deals", "pimc=x"], '--bracket-deals "pimc=x": give deals'),
    (HAND + ["--bracket", "--bracket-deals", "pimc=0"], "--bracket-deals must be a positive number"),
    (HAND + ["--bracket", "--bracket-deals", "mcts=40"], "not among the bracket's policies"),
    (["balance", "--games", str(10**15)], "--games must be at most 2**40"),
    (["duel", "--a", "heuristic/heuristic", "--b", "heuristic/random", "--deals", str(10**15)], "at most 2**40"),
    (["rules", "--deals", str(10**15)], "--deals must be at most 2**40"),
    (["report", "--deals", str(10**15)], "--deals must be at most 2**40"),
    (["calibrate", "--deals", str(10**15)], "--deals must be at most 2**40"),
    (["learn", "--ridge", "0"], "--ridge must be more than 0, not 0 (without a penalty"),
    (["learn", "--threads", "100000"], "--threads must be between 1 and"),
    (["learn", "--deals", "10000000"], "GB of memory (24 KB a classic deal"),  # 485 GB: tests/runs/test_learn_faults.py
    (["bench", "--seconds", "inf"], "--seconds must be at most 3600"),
    (["bench", "--seconds", "nan"], "--seconds must be a number, not nan"),
    (["bench", "--peer", "colver", "--rounds", str(10**30)], "--rounds must be at most 100"),
    (["simulate", "--play", "defender=random"], '"defender=" is neither a role nor a seat'),
    (["simulate", "--play", "tacker=random,defence=heuristic"], '"tacker=" is neither a role nor a seat'),
    (["duel", "--a", "heuristic/taker=random,defender=heuristic", "--b", "heuristic/heuristic"],
     "the roles are taker and defence"),
]


@pytest.mark.parametrize("args, needle", BAD, ids=[" ".join(a[-2:])[:40] for a, _ in BAD])
def test_bad_input_is_one_line_with_exit_code_2(args, needle, capsys):
    assert needle in one_line_error(args, capsys)


def test_the_deal_bound_is_the_documented_one():
    assert MAX_DEALS == 2**40
    from analyzer.rules.options import GAME_DEALS_CAP
    from analyzer.runs.games import DEFAULT_MAX_DEALS

    assert GAME_DEALS_CAP == DEFAULT_MAX_DEALS  # the target bound's reason: games are cut there


# ---- seeds: every seed of [0, 2**64) on the one compiled signature --------------------


def test_kernel_seed_keeps_the_64_bits_and_every_seed_below_2_63():
    import numpy as np

    for s in (0, 1, 7, 2**63 - 1):
        assert kernel_seed(s) == s  # the golden fingerprints' seeds are unchanged
    for s in (2**63, 2**63 + 5, SEEDS - 1):
        k = kernel_seed(s)
        assert -(2**63) <= k < 0 and int(np.int64(k).view(np.uint64)) == s
    for s in (-1, SEEDS):
        with pytest.raises(BeloteError):
            kernel_seed(s)


def test_a_seed_from_2_63_deals_the_uint64_seeds_decks():
    """The int64 the kernels get deals what the seed itself (typed uint64) deals: the
    mapping changes the type numba sees, not the numbers (a small kernel compiled for both)."""
    import numpy as np

    from analyzer.game.dealing import dealt_decks

    for s in (2**63 + 12345, SEEDS - 1):
        assert np.array_equal(dealt_decks(np.uint64(s), 0, 3), dealt_decks(kernel_seed(s), 0, 3))


def test_a_seed_from_2_63_adds_no_kernel_signature_and_gives_results(tmp_path, capsys):
    import json

    from analyzer.game.dealing import dealt_decks
    from analyzer.output.deallog import read_log
    from analyzer.rules.cards import format_card
    from analyzer.runs import driver, simulate

    warm = tmp_path / "warm.jsonl"  # the usual signatures (a seed below 2**63), loaded
    assert cli.main(["simulate", "--deals", "50", "--seed", "3", "--log", str(warm), "--log-deals", "1", "-q"]) == 0
    capsys.readouterr()
    before = (list(driver.CHUNKS[driver.SIMULATE].signatures), list(simulate._one_hand.signatures))
    seed = 2**63 + 12345
    log = tmp_path / "d.jsonl"
    code, out, err = run(["simulate", "--deals", "200", "--seed", str(seed), "--log", str(log), "--log-deals", "2",
                          "--quiet", "--json"], capsys)
    assert code == 0, err
    assert (list(driver.CHUNKS[driver.SIMULATE].signatures), list(simulate._one_hand.signatures)) == before
    d = json.loads(out)
    assert d["counts"]["hands"] == 200 and d["inputs"]["seed"] == seed
    first = read_log(log)[0]
    assert first["seed"] == seed  # the log names the seed as given
    assert first["deck"] == [format_card(c) for c in dealt_decks(kernel_seed(seed), 0, 1)[0]]


# ---- where the hands run: --cluster and --scheduler --------------------------------------


def test_more_workers_than_cores_is_refused_naming_the_limit_and_the_force(capsys):
    cores = os.cpu_count()
    line = one_line_error(["simulate", "--deals", "10", "--cluster", f"local:{cores + 1}", "-q"], capsys)
    assert f"at most local:{cores}" in line and f"local:{cores + 1}!" in line
    assert backends.parse_cluster(f"local:{cores + 1}!") == cores + 1  # forced: the user's call
    assert backends.parse_cluster(f"local:{cores}") == cores


@pytest.mark.parametrize("address", ["localhost", "notanaddress"])
def test_a_scheduler_without_a_port_is_one_line(address, capsys):
    pytest.importorskip("distributed")
    line = one_line_error(["simulate", "--deals", "10", "--scheduler", address, "-q"], capsys)
    assert f'"{address}" is not a scheduler address' in line and "tcp://HOST:PORT" in line


@pytest.fixture
def silent_server():
    """A plain TCP server on 127.0.0.1 that accepts and never answers (not Dask); it stops
    itself after 30 s whatever happens, and at the end of the test."""
    srv = socket.socket()
    srv.bind(("127.0.0.1", 0))
    srv.listen(8)
    srv.settimeout(0.2)
    stop = threading.Event()
    held = []

    def serve():
        end = time.monotonic() + 30
        while not stop.is_set() and time.monotonic() < end:
            try:
                held.append(srv.accept()[0])
            except OSError:
                pass
        for c in held:
            c.close()
        srv.close()

    t = threading.Thread(target=serve, daemon=True)
    t.start()
    yield f"tcp://127.0.0.1:{srv.getsockname()[1]}"
    stop.set()
    t.join(5)


def test_a_server_that_is_not_dask_times_out_in_one_line(silent_server, capsys, monkeypatch):
    pytest.importorskip("distributed")
    monkeypatch.setattr(backends, "CONNECT_SECONDS", 1.0, raising=False)  # (before the fix: no such bound)
    t0 = time.monotonic()
    line = one_line_error(["simulate", "--deals", "10", "--scheduler", silent_server, "-q"], capsys)
    assert time.monotonic() - t0 < 10
    assert f"cannot reach a Dask scheduler at {silent_server} (no answer within 1 s)" in line


# ---- bench --peer and table --bracket ------------------------------------------------------


def test_bench_peer_without_the_extra_exits_2_with_the_install_hint(capsys, monkeypatch):
    import analyzer.runs.bench as B

    monkeypatch.setattr(B, "peer_missing", lambda peer: "colver is not installed: pip install 'belote-analyzer[bench]'")
    line = one_line_error(["bench", "--peer", "colver"], capsys)
    assert "--peer colver" in line and "pip install 'belote-analyzer[bench]'" in line


def test_table_bracket_refuses_a_sample_too_small_before_any_searching_play(capsys, monkeypatch):
    import analyzer.questions.table_bracket as TB

    def never(*a, **k):
        raise AssertionError("the bracket ran before its sample was checked")

    monkeypatch.setattr(TB, "table_bracket", never)
    line = one_line_error(["table", "--bracket", "--deals", "2000", "--bracket-deals", "10", "--quiet"], capsys)
    assert "the first 10 deals" in line and "deal more, about --bracket-deals" in line


def test_table_bracket_suggestion_is_enough_deals():
    """The suggested sample gives a class its 30 decisions (the counts grow in proportion)."""
    import re

    from analyzer.questions.table_bracket import BY, MIN_N, check_sample
    from analyzer.rules import Rules

    rules = Rules()
    with pytest.raises(BeloteError) as e:
        check_sample(rules, ("heuristic", "pimc"), 2000, 10)
    need = int(re.search(r"--bracket-deals (\d+)", str(e.value)).group(1))
    assert check_sample(rules, ("heuristic", "pimc"), 2000, need, by=BY) >= MIN_N


# ---- what double dummy costs: one phrase everywhere ----------------------------------------


def test_every_help_and_the_readme_give_double_dummys_cost_in_the_same_words(capsys):
    """The figures live in analyzer.players.costs (from docs/BENCHMARKS.md); the help of
    every option that plays or values double dummy and the README and its guide quote them word for word."""
    from pathlib import Path

    from analyzer.players.costs import DD_LOSS_COST, DD_PLAY_COST

    def flat(text):
        return " ".join(text.split())

    helps = {}
    for command in ("take", "table", "duel"):
        code, out, _ = run([command, "--help"], capsys)
        assert code == 0
        helps[command] = flat(out)
    assert DD_PLAY_COST in helps["take"] and DD_PLAY_COST in helps["table"]
    assert DD_LOSS_COST in helps["duel"]
    root = Path(__file__).resolve().parents[2]  # the README and the guide its details moved to
    readme = flat((root / "README.md").read_text() + "\n" + (root / "docs" / "GUIDE.md").read_text())
    assert readme.count(DD_PLAY_COST) == 2 and readme.count(DD_LOSS_COST) == 1
    for stale in ("about half a second a classic hand", "about 25 PIMC hands", "(pimc, dd: milliseconds a hand)"):
        assert stale not in readme and all(stale not in h for h in helps.values())


def test_seeds_derived_from_the_top_seed_wrap_instead_of_failing_midway():
    """The report's example hands and calibrate's duplicate blocks use seed + k: from the top
    seed they wrap to 0, 1, ... (they stopped partway with '--seed must be ...')."""
    from analyzer.questions.calibrate import duplicate
    from analyzer.rules import Rules
    from analyzer.runs.limits import derived_seed

    top = SEEDS - 1
    assert [derived_seed(top, k) for k in range(3)] == [top, 0, 1] and derived_seed(5, 2) == 7
    m, n = duplicate(Rules.from_label("classic"), "calibrated", "heuristic", "heuristic", deals=64, blocks=4,
                     seed=top, threads=1)
    assert n == 64


def test_the_python_api_bounds_deals_and_seeds_as_the_cli_does():
    from analyzer.errors import BeloteError
    from analyzer.rules import Rules
    from analyzer.runs.simulate import SimConfig

    with pytest.raises(BeloteError, match=r"--deals must be at most 2\*\*40"):
        SimConfig(rules=Rules("classic"), deals=MAX_DEALS + 1)
    for seed in (-1, SEEDS):
        with pytest.raises(BeloteError, match=r"--seed must be a whole number from 0 to 2\*\*64 - 1"):
            SimConfig(rules=Rules("classic"), seed=seed)
    assert SimConfig(rules=Rules("classic"), deals=MAX_DEALS, seed=SEEDS - 1).seed == SEEDS - 1
