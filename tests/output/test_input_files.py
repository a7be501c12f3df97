"""Files the tool reads back are validated before use (analyzer.schema): policy files and
deal-log records. A bad value is refused in one line naming the file and the field, never
used silently and never a traceback."""

import copy
import json
import os

import pytest

import cli
from analyzer.errors import BeloteError
from analyzer.players.bidding import P_KOE_LENGTH, P_KOE_TURNED
from analyzer.players.policy_files import SHIPPED_PLAYS, PolicyFile, policy_params, read_policy, shipped_path
from analyzer.questions.calibrate import SHIPPED_LABELS
from analyzer.rules import Rules


def run(args, capsys):
    code = cli.main(args)
    out, err = capsys.readouterr()
    return code, out, err


# --- policy files --------------------------------------------------------------------------


@pytest.mark.parametrize("play", SHIPPED_PLAYS)
@pytest.mark.parametrize("label", SHIPPED_LABELS)
def test_every_shipped_policy_validates_against_the_schema(label, play):
    doc = json.loads(shipped_path(label, play).read_text())
    PolicyFile.model_validate(doc)
    assert read_policy(shipped_path(label, play)) == doc


@pytest.mark.parametrize("label", SHIPPED_LABELS)
def test_every_shipped_score_aware_policy_validates_against_the_schema(label):
    from analyzer.players.policy_files import score_aware_path

    path = score_aware_path(label, "net")
    doc = json.loads(path.read_text())
    PolicyFile.model_validate(doc)
    assert read_policy(path) == doc and doc["score_aware"]["regions"][0] == "level"


def _tampered(tmp_path, change, label="piekjas3"):
    doc = json.loads(shipped_path(label).read_text())
    change(doc)
    path = tmp_path / "policy.json"
    path.write_text(json.dumps(doc))  # NaN and Infinity written as the json module writes them
    return path


def _param(value, seat="1", name="threshold_r1"):
    return lambda d: d["params"][seat].__setitem__(name, value)


def _override(field, value):
    return lambda d: d["overrides"]["by_seat"]["0"][0].__setitem__(field, value)


BAD_POLICIES = {  # the change, the field the error names, what the error says it must be
    "true": (_param(True), "params.1.threshold_r1", "finite number in [0, 200], not True"),
    "string 42": (_param("42"), "params.1.threshold_r1", "not '42'"),
    "NaN": (_param(float("nan")), "params.1.threshold_r1", "not nan"),
    "Infinity": (_param(float("inf"), name="w_J"), "params.1.w_J", "finite number in [0, 100], not inf"),
    "+1e9": (_param(1e9), "params.1.threshold_r1", "in [0, 200]"),
    "-1e9": (_param(-1e9, name="seat_step"), "params.1.seat_step", "in [-50, 50]"),
    "score shift 500": (_param(500.0, name="shift_behind_near"), "params.1.shift_behind_near", "in [-60, 60]"),
    "trump_length 99": (_override("trump_length", 99), "overrides.by_seat.0[0].trump_length", "in [0, 8], not 99"),
    "round 7": (_override("round", 7), "overrides.by_seat.0[0].round", "in [1, 2], not 7"),
    "side_aces -3": (_override("side_aces", -3), "overrides.by_seat.0[0].side_aces", "in [0, 3], not -3"),
    "call maybe": (_override("call", "maybe"), "overrides.by_seat.0[0].call", "'take' or 'pass', not 'maybe'"),
    "overrides junk": (lambda d: d.__setitem__("overrides", "junk"), "overrides", "must be an object"),
    "misspelt parameter": (_param(3.0, name="w_jack"), "params.1.w_jack", "not a field"),
    "missing seat row": (lambda d: d["params"].pop("2"), "params", "one row per seat"),
    "seat 5 overrides": (lambda d: d["overrides"]["by_seat"].__setitem__("5", []), "overrides.by_seat.5", "seat"),
    "thresholds edited, not the rows": (lambda d: d["thresholds"]["round1"].__setitem__("2", 50.0),
                                        "thresholds.round1.2", "params.2.threshold_r1"),
}


@pytest.mark.parametrize("case", list(BAD_POLICIES))
def test_a_bad_policy_value_is_refused_naming_the_file_and_the_field(case, tmp_path):
    change, field, must = BAD_POLICIES[case]
    path = _tampered(tmp_path, change)
    with pytest.raises(BeloteError) as e:
        policy_params(str(path), Rules.from_label("piekjas3"))
    msg = str(e.value)
    assert "\n" not in msg and msg.startswith(f"policy file {path}: {field}: ") and must in msg, msg


def test_a_tampered_shipped_net_file_is_refused_naming_it(tmp_path, monkeypatch):
    """A seat that plays net reads <label>.net.json through the same schema: a bad value there is
    refused in one line naming that file, and the heuristic-play file beside it still reads."""
    import shutil

    from analyzer.players import policy_files
    from analyzer.players.policies import Policies

    folder = tmp_path / "policies_data"
    shutil.copytree(policy_files.POLICIES_DIR, folder)
    doc = json.loads((folder / "classic.net.json").read_text())
    doc["params"]["1"]["threshold_r1"] = float("nan")
    (folder / "classic.net.json").write_text(json.dumps(doc))
    monkeypatch.setattr(policy_files, "POLICIES_DIR", folder)
    rules = Rules.from_label("classic")
    with pytest.raises(BeloteError) as e:
        Policies.parse("calibrated", "net", 4).bid_params(rules)
    assert "classic.net.json" in str(e.value) and "params.1.threshold_r1" in str(e.value)
    assert "\n" not in str(e.value)
    Policies.parse("calibrated", "heuristic", 4).bid_params(rules)  # the other file is untouched


def test_a_threshold_may_span_the_strength_tables_range():
    from analyzer.players.policy_files import MAX_STRENGTH
    from analyzer.runs.classes import N_BINS, STR_BIN

    assert MAX_STRENGTH == N_BINS * STR_BIN


def test_a_policy_file_from_before_the_koe_weights_reads_them_as_0(tmp_path):
    def drop(d):
        for row in d["params"].values():
            del row["koe_w_length"], row["koe_w_turned"]
    params = policy_params(str(_tampered(tmp_path, drop)), Rules.from_label("piekjas3"))
    shipped = policy_params("calibrated", Rules.from_label("piekjas3"))
    assert (params[:, [P_KOE_LENGTH, P_KOE_TURNED]] == 0).all() and shipped[:, P_KOE_LENGTH].any()


def test_a_bad_policy_file_through_the_cli_is_one_line_and_exit_2(tmp_path, capsys):
    path = _tampered(tmp_path, _override("call", "maybe"))
    code, out, err = run(["simulate", "--variant", "piekjas", "--players", "3", "--deals", "100", "--quiet",
                          "--bid", str(path)], capsys)
    assert code == 2 and out == "" and err.count("\n") == 1, err
    assert "overrides.by_seat.0[0].call" in err and "Traceback" not in err


# --- deal-log records (belote show, the reference replay) ------------------------------------


@pytest.fixture(scope="module")
def logged(tmp_path_factory):
    """The records of a small classic deal log, the first of them played."""
    from analyzer.output.deallog import write_log
    from analyzer.players.policies import Policies
    from analyzer.runs.simulate import SimConfig

    path = tmp_path_factory.mktemp("log") / "deals.jsonl"
    write_log(path, SimConfig(rules=Rules("classic"), policies=Policies.parse("heuristic", "heuristic", 4),
                              deals=30, seed=5), 30)
    records = [json.loads(line) for line in path.read_text().splitlines()]
    return sorted(records, key=lambda r: r["outcome"] != "played")


def _set(*keys_and_value):
    *keys, last, value = keys_and_value

    def change(r):
        for k in keys:
            r = r[k]
        r[last] = value
    return change


BAD_RECORDS = {  # the change, the field the error names, what it says
    "7 players": (_set("players", 7), "players", "in [2, 4], not 7"),
    "variant poker": (_set("variant", "poker"), "variant", "not 'poker'"),
    "seat 99 in a trick": (_set("tricks", 3, "plays", 1, 0, 99), "tricks[3].plays[1][0]", "seat 0..3, not 99"),
    "troefmaker 99": (_set("troefmaker", 99), "troefmaker", "seat 0..3"),
    "a trick of 3 plays": (lambda r: r["tricks"][0]["plays"].pop(), "tricks[0].plays", "must list 4 plays"),
    "one score for two sides": (_set("result", "scores", [1]), "result.scores", "must list 2 numbers"),
    "no result": (lambda r: r.pop("result"), "result", "is missing"),
    "trump x": (_set("trump", "x"), "trump", "suit letter"),
    "a card Zz": (_set("start_hands", 0, 0, "Zz"), "start_hands[0][0]", "must be a card"),
    "call double": (_set("bids", 0, "call", "double"), "bids[0].call", "not 'double'"),
    "koe 1": (_set("koe", 1), "koe", "true or false"),
    "policies junk": (_set("policies", "junk"), "policies", "must be an object"),
    "deck of 31": (lambda r: r["deck"].pop(), "deck", "must list 32"),
    "unknown rule option": (_set("rules", "trumps", "many"), "rules.trumps", "one of 'round2_suits'"),
    "impossible rules": (_set("rules", "round2_suits", "any"), "rules", "classic round 2 always names another suit"),
}


@pytest.mark.parametrize("case", list(BAD_RECORDS))
def test_a_malformed_or_impossible_record_is_refused_naming_the_line_and_the_field(case, logged, tmp_path):
    from analyzer.output.deallog import read_log

    change, field, says = BAD_RECORDS[case]
    bad = copy.deepcopy(logged[0])
    change(bad)
    path = tmp_path / "deals.jsonl"
    path.write_text("".join(json.dumps(r) + "\n" for r in [logged[1], bad]))
    with pytest.raises(BeloteError) as e:
        read_log(path)
    msg = str(e.value)
    assert "\n" not in msg and msg.startswith(f"{path}:2: {field}: ") and says in msg, msg


def test_every_logged_record_has_the_schema_shape(logged):
    from analyzer.rules.deal_schema import check_record

    assert {check_record(r).label for r in logged} == {"classic"} and logged[0]["outcome"] == "played"


def test_show_on_an_impossible_record_is_one_line_and_exit_2(logged, tmp_path, capsys):
    bad = copy.deepcopy(logged[0])
    bad["tricks"][3]["plays"][1][0] = 99
    path = tmp_path / "deals.jsonl"
    path.write_text(json.dumps(bad) + "\n")
    code, out, err = run(["show", str(path), "--all"], capsys)
    assert code == 2 and out == "" and err.count("\n") == 1 and "Traceback" not in err
    assert f"{path}:1: tricks[3].plays[1][0]: must be a seat 0..3, not 99" in err


def test_the_reference_replay_refuses_through_the_same_schema(logged):
    from analyzer.rules.reference import replay

    bad = copy.deepcopy(logged[0])
    bad["players"] = 7
    assert replay(bad) == ["record: players: must be a whole number in [2, 4], not 7"]
    assert replay(logged[0]) == []


def test_show_on_a_file_of_random_bytes_is_one_line_and_exit_2(logged, tmp_path, capsys):
    path = tmp_path / "deals.jsonl"
    path.write_bytes(json.dumps(logged[0]).encode() + b"\n" + bytes(range(128, 256)) + b"\n")  # line 2: not UTF-8
    code, out, err = run(["show", str(path), "--all"], capsys)
    assert code == 2 and out == "" and err.count("\n") == 1 and f"{path}:2 is not JSON" in err, err


@pytest.mark.parametrize("kind", ["device", "fifo", "huge"])
def test_a_policy_path_that_is_no_policy_file_is_refused_without_reading_it(belote, kind, tmp_path):
    """/dev/zero was read until the memory ran out; a named pipe blocks forever. Run as a
    subprocess with a time limit, so that a regression fails instead of hanging the suite."""

    if kind == "device":
        path = "/dev/zero"
    elif kind == "fifo":
        path = tmp_path / "pipe.json"
        os.mkfifo(path)
    else:
        path = tmp_path / "huge.json"
        with open(path, "wb") as f:
            f.truncate(50_000_000)  # sparse: no disk used
    p = belote("simulate", "--deals", "10", "--quiet", "--bid", str(path), timeout=60)  # reading forever fails
    lines = p.stderr.strip().splitlines()
    says = {"device": "is a device, not a file", "fifo": "is a named pipe, not a file", "huge": "more than any policy file"}
    assert p.returncode == 2 and len(lines) == 1 and f"policy file {path} " in lines[0], p.stderr
    assert says[kind] in lines[0], p.stderr


def test_a_policy_target_that_is_a_device_is_refused_without_reading_it():
    """The library's own check (the CLI refuses the same before any work: test_outdir_faults)."""
    from analyzer.output.policy_file import check_policy_target

    with pytest.raises(BeloteError, match="--out /dev/zero is a device, not a file"):
        check_policy_target("/dev/zero")
