"""The simulate, show and bench commands end to end, and the one way to choose variants on every
command (analyses: test_cli_analyses.py)."""

import json

import pytest

import cli


def run(args, capsys):
    code = cli.main(args)
    out, err = capsys.readouterr()
    return code, out, err


def test_simulate_table_and_json(capsys):
    code, out, _ = run(["simulate", "--deals", "5000", "--quiet"], capsys)
    assert code == 0 and "made" in out and "95% CI" in out
    code, out, _ = run(["simulate", "--variant", "dekjas", "--deals", "5000", "--quiet", "--json"], capsys)
    d = json.loads(out)
    assert d["inputs"]["variant"] == "dekjas" and d["counts"]["hands"] == 5000
    assert {"k", "n", "p", "lo", "hi"} <= set(d["rates"]["made"])
    assert d["rates"]["made"]["n"] == d["counts"]["played"]


def test_log_then_show_in_english_and_dutch(tmp_path, capsys):
    log = tmp_path / "d.jsonl"
    code, _, _ = run(["simulate", "--variant", "piekjas", "--players", "3", "--deals", "50", "--log", str(log),
                      "--log-deals", "5", "--quiet"], capsys)
    assert code == 0 and len(log.read_text().splitlines()) == 5
    code, out, _ = run(["show", str(log), "--deal", "2"], capsys)
    assert code == 0 and "deal 2" in out and "tricks:" in out
    assert any(symbol in out for symbol in "♣♦♥♠")
    code, out, _ = run(["show", str(log), "--deal", "2", "--lang", "nl"], capsys)
    assert code == 0 and "slagen:" in out


def test_a_failed_log_keeps_the_earlier_file(tmp_path, capsys):
    log = tmp_path / "d.jsonl"
    log.write_text("precious\n")
    code, _, err = run(["simulate", "--deals", "10", "--log", str(log), "--log-deals", "0", "--quiet"], capsys)
    assert code == 2 and log.read_text() == "precious\n"


BAD = [
    (["simulate", "--deals", "0"], "--deals"),
    (["simulate", "--variant", "classic", "--players", "3"], "players"),
    (["simulate", "--rule", "undertrump=sometimes"], "undertrump"),
    (["simulate", "--rule", "round2_suits=any"], "round2_suits"),
    (["simulate", "--bid", "0=heuristic,7=random"], "seat 7"),
    (["simulate", "--play", "clever"], "unknown policy"),
    (["simulate", "--play", "taker=random,0=heuristic"], "mixes roles and seats"),
    (["duel", "--a", "heuristic", "--b", "heuristic/random"], "must be BID/PLAY"),
    (["duel", "--a", "heuristic/0=random", "--b", "heuristic/random"], "not per seat"),
    (["simulate", "--threads", "99"], "--threads"),
    (["simulate", "--deals", "10", "--log", "/dev/null/x.jsonl"], "not a folder"),  # a missing folder is created
    (["show", "/nonexistent.jsonl"], "no deal log"),
    (["bench", "--variant", "piekjas9"], "unknown variant"),
]


@pytest.mark.parametrize("args, needle", BAD, ids=[" ".join(a[:2]) for a, _ in BAD])
def test_bad_input_is_one_line_with_exit_code_2(args, needle, capsys):
    code, out, err = run(args + (["--quiet"] if args[0] in ("simulate", "duel") else []), capsys)
    assert code == 2
    lines = [line for line in err.splitlines() if line.strip()]
    assert len(lines) == 1 and lines[0].startswith("belote: error:"), err
    assert needle in lines[0]
    assert "Traceback" not in out + err


def test_show_names_the_deals_a_log_holds(tmp_path, capsys):
    log = tmp_path / "d.jsonl"
    run(["simulate", "--deals", "10", "--log", str(log), "--log-deals", "3", "--quiet"], capsys)
    code, _, err = run(["show", str(log), "--deal", "9"], capsys)
    assert code == 2 and "holds deals 0..2" in err


def test_a_file_that_is_not_a_deal_log_is_refused(tmp_path, capsys):
    bad = tmp_path / "x.jsonl"
    bad.write_text("{not json\n")
    code, _, err = run(["show", str(bad)], capsys)
    assert code == 2 and "is not JSON" in err


def test_bench_json_rows(capsys):
    code, out, _ = run(["bench", "--variant", "piekjas2", "--play", "random", "--threads", "1",
                        "--seconds", "0.1", "--json"], capsys)
    rows = json.loads(out)
    assert code == 0 and len(rows) == 1
    assert {"variant", "players", "bid", "play", "threads", "hands_per_s"} <= set(rows[0])
    assert rows[0]["hands_per_s"] > 0


def test_bench_gives_a_searching_policys_cost_in_heuristic_hands(capsys):
    code, out, _ = run(["bench", "--variant", "piekjas2", "--play", "heuristic", "--play", "pimc:worlds=4",
                        "--threads", "1", "--seconds", "0.1", "--json"], capsys)
    rows = {r["play"]: r for r in json.loads(out)}
    assert code == 0 and set(rows) == {"heuristic", "pimc:worlds=4"}
    pimc = rows["pimc:worlds=4"]
    assert pimc["bid"] == "heuristic" and pimc["hands"] >= 100  # a searching policy bids as the heuristic
    assert pimc["heuristic_hands"] == round(rows["heuristic"]["hands_per_s"] / pimc["hands_per_s"]) > 1
    assert "heuristic_hands" not in rows["heuristic"]


def test_simulate_and_bench_and_show_have_help_with_examples(capsys):
    for command in ("simulate", "show", "bench"):
        code, out, _ = run([command, "--help"], capsys)
        assert code == 0 and "Examples:" in out and f"belote {command}" in out


def test_bench_peer_missing_is_an_error_naming_the_install(capsys, monkeypatch):
    import analyzer.runs.bench as B

    monkeypatch.setattr(B, "peer_missing", lambda peer: "colver is not installed: pip install 'belote-analyzer[bench]'")
    code, out, err = run(["bench", "--peer", "colver"], capsys)
    lines = [line for line in err.splitlines() if line.strip()]
    assert code == 2 and out == "" and len(lines) == 1, out + err
    assert lines[0].startswith("belote: error: --peer colver") and "pip install 'belote-analyzer[bench]'" in lines[0]


def test_bench_peer_unknown_is_refused(capsys):
    code, _, err = run(["bench", "--peer", "nobody"], capsys)
    assert code == 2 and "unknown peer" in err


@pytest.mark.parametrize("have, expect", [(None, "is not installed"), ("0.10.0", "0.10.0 is installed"),
                                           ("PEER", None)])
def test_peer_missing_names_the_fix_or_nothing(monkeypatch, have, expect):
    """Missing, another version, the measured version: a one-line fix, a one-line fix, nothing."""
    from importlib import metadata

    from analyzer.runs.bench import PEERS, peer_missing

    def version(name):
        if have is None:
            raise metadata.PackageNotFoundError(name)
        return PEERS["colver"] if have == "PEER" else have

    monkeypatch.setattr(metadata, "version", version)
    why = peer_missing("colver")
    if expect is None:
        assert why is None
    else:
        assert expect in why and f"colver=={PEERS['colver']}" in why and "\n" not in why


# --- one way to choose variants: --variant V, repeatable where a command takes several, --variant all ------------


def test_several_variants_are_chosen_with_a_repeated_variant_or_all(capsys):
    from analyzer.rules import ALL_LABELS

    args = ["balance", "--deals", "300", "--games", "0", "--json", "--quiet"]
    code, out, err = run([*args, "--variant", "classic", "--variant", "piekjas2"], capsys)
    assert code == 0 and "is now" not in err
    two = json.loads(out)
    assert two["inputs"]["variants"] == ["classic", "piekjas2"]
    code, out, _ = run([*args, "--variant", "all"], capsys)
    assert code == 0 and json.loads(out)["inputs"]["variants"] == list(ALL_LABELS)
    code, out, _ = run([*args, "--variant", "dekjas", "--variant", "all"], capsys)  # each once, in the order given
    assert code == 0 and json.loads(out)["inputs"]["variants"] == ["dekjas", "classic", "piekjas2", "piekjas3",
                                                                   "piekjas4"]
    code, out, err = run(["bench", "--variant", "piekjas2", "--variant", "piekjas2", "--play", "random", "--threads", "1",
                          "--seconds", "0.1", "--json"], capsys)
    assert code == 0 and [(r["variant"], r["play"]) for r in json.loads(out)] == [("piekjas", "random")]


def test_the_old_spellings_still_work_and_say_the_new_one_in_one_line(capsys):
    args = ["balance", "--deals", "300", "--games", "0", "--json", "--quiet"]
    code, out, err = run([*args, "--variant", "classic", "--variant", "piekjas2"], capsys)
    new = json.loads(out)
    code, out, err = run([*args, "--variants", "classic,piekjas2"], capsys)
    assert code == 0 and err.splitlines() == ["belote: --variants classic,piekjas2 is now --variant classic "
                                              "--variant piekjas2"]
    old = json.loads(out)
    assert old["inputs"] == new["inputs"] and old["seats"] == new["seats"]
    code, _, err = run([*args, "--variants", "classic", "--variant", "dekjas"], capsys)
    assert code == 2 and "without --variants, its old spelling" in err
    code, out, err = run(["bench", "--variant", "piekjas2", "--policy", "random", "--threads", "1", "--seconds", "0.1",
                          "--json"], capsys)
    assert code == 0 and err.splitlines() == ["belote: --policy random is now --play random"]
    assert [r["play"] for r in json.loads(out)] == ["random"]
    code, _, err = run(["calibrate", "--all", "--ship", "--smous-deals", "0", "--quiet"], capsys)
    lines = err.splitlines()
    assert code == 2 and lines[0] == "belote: --all is now --variant all" and "--smous-deals 0" in lines[1]
    code, out, err = run(["rules", "--variant", "classic", "--option", "classic_tie", "--deals", "100", "--games", "0",
                          "--all", "--json", "--quiet"], capsys)
    assert code == 0 and err.splitlines() == ["belote: --all is now --every-difference"]
    assert json.loads(out)["inputs"]["variants"] == ["classic"]


def test_a_command_of_one_variant_or_all_refuses_another_name_in_one_line(capsys):
    for command in (["rules", "--variant", "piekjas3"], ["calibrate", "--variant", "bridge"]):
        code, _, err = run([*command, "--quiet"], capsys)
        assert code == 2 and err.strip() == ('belote: error: unknown variant "%s" for --variant: use classic, piekjas, '
                                             'dekjas or all' % command[2])
