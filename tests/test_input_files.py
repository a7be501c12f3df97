"""Files the tool reads back are validated before use (analyzer.schema): policy files and
deal-log records. A bad value is refused in one line naming the file and the field, never
used silently and never a traceback."""

import copy
import json

import pytest

import cli
from analyzer.errors import BeloteError
from analyzer.players.bidding import P_KOE_LENGTH, P_KOE_TURNED
from analyzer.players.policy_files import PolicyFile, policy_params, read_policy, shipped_path
from analyzer.questions.calibrate import SHIPPED_LABELS
from analyzer.rules import Rules


def run(args, capsys):
    code = cli.main(args)
    out, err = capsys.readouterr()
    return code, out, err


# --- policy files --------------------------------------------------------------------------


@pytest.mark.parametrize("label", SHIPPED_LABELS)
def test_every_shipped_policy_validates_against_the_schema(label):
    doc = json.loads(shipped_path(label).read_text())
    PolicyFile.model_validate(doc)
    assert read_policy(shipped_path(label)) == doc


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
