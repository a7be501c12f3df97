"""The take, table, balance and report commands end to end: help, exit codes, JSON shape,
and one-line errors for bad input."""

import json

import pytest
from typer.testing import CliRunner

import cli

runner = CliRunner()


def run(*args):
    result = runner.invoke(cli.app, list(args))
    assert result.exit_code == 0, result.output
    return result


def run_json(*args):
    return json.loads(run(*args, "--json", "--quiet").stdout)


# --- help ----------------------------------------------------------------------------------


def test_every_command_has_help_with_an_example():
    names = [c.name or c.callback.__name__ for c in cli.app.registered_commands]
    assert {"take", "table", "balance", "report"} <= set(names)
    for name in names:
        result = runner.invoke(cli.app, [name, "--help"])
        assert result.exit_code == 0, name
        assert "Example" in result.stdout, f"'belote {name} --help' shows no example"
        assert f"belote {name}" in result.stdout, f"'belote {name} --help' has no example command line"


# --- take ------------------------------------------------------------------------------------


def test_take_json_shape():
    d = run_json("take", "Jh 9h Ah Tc 7s", "--turned", "Qh", "--deals", "2000", "--seed", "3")
    assert set(d) >= {"inputs", "n", "acceptance", "calls", "verdict", "hands_simulated", "seconds"}
    assert d["inputs"]["hand"] == "Jh 9h Ah Tc 7s" and d["inputs"]["seed"] == 3
    assert [c["label"] for c in d["calls"]] == ["take h", "pass"]
    call = d["calls"][0]
    for key in ("score", "vs_pass", "net", "net_vs_pass"):
        assert set(call[key]) >= {"mean", "lo", "hi", "n"}
    for key in ("made", "dedans", "tie", "capot_for", "pit_against"):
        assert set(call[key]) >= {"p", "lo", "hi", "k", "n"}
    assert d["verdict"]["best"] == "take h" and d["verdict"]["beyond_noise"] is True


def test_take_prints_a_table_and_a_verdict():
    out = run("take", "7c 8d 9s Qd 8s", "--turned", "Kh", "--deals", "2000", "--quiet").stdout
    assert "Verdict: PASS" in out and "p_dedans" in out and "net_vs_pass" in out


def test_take_round_two_and_dekjas_and_precision():
    d = run_json("take", "Js 9s As 7h 8c", "--turned", "Td", "--seat", "1", "--round", "2", "--deals", "1000")
    assert d["verdict"]["best"] == "take s" and d["acceptance"]["p"] < 1
    d = run_json("take", "--variant", "dekjas", "--mine", "Jh 9h Ah Ac Tc 7d 8s Ks", "--theirs",
                 "7c 8c 9c Qd Kd Ad Ts Qh", "--turned", "Qh", "--deals", "500")
    assert [c["label"] for c in d["calls"]] == ["take h", "smous h", "pass"]
    d = run_json("take", "Jh 9h Ah Tc 7s", "--turned", "Qh", "--precision", "5")
    assert d["inputs"]["precision"] == 5.0 and 1.96 * d["verdict"]["difference"]["se"] <= 5.0


# --- table, balance, report ------------------------------------------------------------------


def test_table_json_and_files(tmp_path):
    d = run_json("table", "--variant", "piekjas", "--players", "3", "--deals", "3000", "--out", str(tmp_path / "t"))
    assert set(d) >= {"inputs", "decisions", "break_even", "rule_of_thumb", "rule_of_thumb_finding", "files"}
    assert d["inputs"]["players"] == 3 and d["decisions"]["round1"] > 3000
    assert (tmp_path / "t" / "table_piekjas3_classes.parquet").is_file()
    out = run("table", "--deals", "2000", "--quiet").stdout
    assert "Break-even" in out or "Rule of thumb" in out


def test_balance_json_shape():
    d = run_json("balance", "--variant", "classic", "--variant", "piekjas2", "--deals", "3000", "--games", "40")
    assert d["inputs"]["variants"] == ["classic", "piekjas2"]
    assert {r["variant"] for r in d["seats"]} == {"classic", "piekjas2"}
    assert {"advantage", "advantage_lo", "advantage_hi", "p_win"} <= set(d["seats"][0])
    assert len(d["games"]) == 2
    out = run("balance", "--variant", "dekjas", "--deals", "2000", "--games", "0", "--quiet").stdout
    assert "dekjas" in out and "advantage" in out


@pytest.mark.slow  # a whole report of one variant (the command's wiring: the content is tested on the shared report)
def test_report_writes_a_folder(tmp_path):
    d = run_json("report", "--deals", "2000", "--out", str(tmp_path / "rep"), "--seed", "5", "--variant", "piekjas2")
    assert d["path"] == str(tmp_path / "rep")
    assert (tmp_path / "rep" / "index.md").is_file() and (tmp_path / "rep" / "run.json").is_file()
    assert d["run"]["seed"] == 5 and d["run"]["hands_simulated"]["total"] > 0
    assert d["run"]["parameters"]["variants"] == ["piekjas2"]


# --- bad input: one line, exit code 2, no traceback -------------------------------------------


BAD = [
    (["take", "Jh 9h Ah T 7s", "--turned", "Qh"], "not a card"),
    (["take", "Jh 9h Ah Tc Jh", "--turned", "Qh"], "twice"),
    (["take", "Jh 9h Ah Tc", "--turned", "Qh"], "5 cards"),
    (["take", "Jh 9h Ah Tc Qh", "--turned", "Qh"], "turned card"),
    (["take", "Jh 9h Ah Tc 7s", "--turned", "Qh", "--seat", "4"], "seat 4"),
    (["take", "Jh 9h Ah Tc 7s", "--turned", "Qh", "--round", "3"], "--round"),
    (["take", "Jh 9h Ah Tc 7s 8c", "--turned", "Qh", "--variant", "piekjas", "--players", "3", "--call", "smous"],
     "smous"),
    (["take", "Jh 9h Ah Tc 7s", "--turned", "Qh", "--variant", "whist"], "--variant"),
    (["take", "Jh 9h Ah Tc 7s", "--turned", "Qh", "--bid", "genius"], "unknown policy"),
    (["take", "Jh 9h Ah Tc 7s", "--turned", "Qh", "--rule", "trumps=none"], "unknown rule"),
    (["take", "Jh 9h Ah Tc 7s", "--turned", "Qh", "--deals", "0"], "--deals"),
    (["take", "Jh 9h Ah Tc 7s", "--turned", "Qh", "--precision", "0"], "--precision"),
    (["table", "--deals", "-1"], "--deals"),
    (["table", "--variant", "piekjas", "--players", "5"], "players"),
    (["balance", "--variant", "classic", "--variant", "bridge"], "unknown variant"),
    (["balance", "--deals", "0"], "--deals"),
    (["take", "Jh Ah Tc 7s 8d", "--turned", "Qh", "--bracket", "--play", "random"], "--bracket-plays"),
    (["take", "Jh Ah Tc 7s 8d", "--turned", "Qh", "--bracket", "--bracket-plays", "heuristic"], "two or more"),
    (["take", "Jh Ah Tc 7s 8d", "--turned", "Qh", "--bracket", "--bracket-plays", "heuristic,nosuch"], "unknown policy"),
    (["table", "--bracket", "--play", "random"], "--bracket-plays"),
    (["table", "--bracket", "--bracket-plays", "heuristic"], "two or more"),
    (["table", "--bracket", "--bracket-by", "colour"], "--bracket-by"),
    (["table", "--bracket", "--run-dir", "r"], "--run-dir"),
    (["report", "--deals", "0"], "--deals"),
    (["report", "--variant", "classic", "--variant", "bridge"], "unknown variant"),
]


@pytest.mark.parametrize("args, needle", BAD, ids=[" ".join(a[:3]) for a, _ in BAD])
def test_bad_input_is_one_line_with_exit_code_2(args, needle, capsys):
    code = cli.main(args + ["--quiet"])
    out, err = capsys.readouterr()
    assert code == 2
    lines = [line for line in err.splitlines() if line.strip()]
    assert len(lines) == 1 and lines[0].startswith("belote: error:"), err
    assert needle in lines[0]
    assert "Traceback" not in err + out


@pytest.mark.parametrize("command", ["table", "balance", "report"])
def test_unwritable_output_folder_is_a_domain_error(command, tmp_path, capsys):
    blocker = tmp_path / "a-file"
    blocker.write_text("")
    args = [command, "--out", str(blocker / "sub"), "--deals", "10", "--quiet"]
    if command == "balance":
        args += ["--variant", "classic", "--games", "0"]
    code = cli.main(args)
    err = capsys.readouterr().err
    assert code == 2 and len(err.strip().splitlines()) == 1
    assert "cannot write" in err or "not a folder" in err
