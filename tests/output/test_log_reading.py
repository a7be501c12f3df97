"""Reading a deal log back (``belote show``, ``belote review``): streamed, so any log size is read
in bounded memory, and every record shown or reviewed replayed through the reference first
(``analyzer.rules.reference.replay``), so an impossible record is refused by both commands in the
same one line naming the file, the line and what is wrong (issue 48).

The faults are real: records of a real log tampered one field at a time, a real log of tens of MB
read under a real address-space cap (``RLIMIT_AS``) that reading it whole exceeds.
"""

import copy
import json
import resource

import pytest

import cli



def run(args, capsys):
    code = cli.main(args)
    out, err = capsys.readouterr()
    return code, out, err


@pytest.fixture(scope="module")
def logged(tmp_path_factory):
    """The records of a small real classic deal log (30 deals, seed 5: some passed out)."""
    from analyzer.output.deallog import write_log
    from analyzer.players.policies import Policies
    from analyzer.rules import Rules
    from analyzer.runs.simulate import SimConfig

    path = tmp_path_factory.mktemp("log") / "deals.jsonl"
    write_log(path, SimConfig(rules=Rules("classic"), policies=Policies.parse("heuristic", "heuristic", 4),
                              deals=30, seed=5), 30)
    return [json.loads(line) for line in path.read_text().splitlines()]


def _suit(card: str) -> str:
    return card[1]


def _illegal_ruff(r):
    """Swap a card a seat played following suit with a trump it played later: in the earlier trick it
    ruffs while holding the suit led. Returns (trick, seat, trump card) of the ruff, 1-based trick."""
    trump, tricks = r["trump"], r["tricks"]
    for t, trick in enumerate(tricks):
        led = _suit(trick["plays"][0][1])
        if led == trump:
            continue
        for j, (seat, card) in enumerate(trick["plays"][1:], 1):
            if _suit(card) != led:
                continue
            for u in range(t + 1, len(tricks)):
                for k, (s2, c2) in enumerate(tricks[u]["plays"]):
                    if s2 == seat and _suit(c2) == trump:
                        trick["plays"][j][1], tricks[u]["plays"][k][1] = c2, card
                        return t + 1, seat, c2
    return None


def _card_twice(r):
    """A seat plays again, in trick 6, the card it played in trick 2."""
    seat, card = r["tricks"][1]["plays"][0]
    k = next(k for k, (s, _) in enumerate(r["tricks"][5]["plays"]) if s == seat)
    r["tricks"][5]["plays"][k][1] = card
    return card


def _wrong_winner(r):
    """Trick 4's winner written as another seat (the next trick still led by the real one)."""
    trick = r["tricks"][3]
    real = trick["winner"]
    trick["winner"] = (real + 1) % 4
    return real, trick["winner"], dict((s, c) for s, c in trick["plays"])[real]


def _swapped_scores(r):
    scores = r["result"]["scores"]
    assert scores[0] != scores[1]
    r["result"]["scores"] = scores[::-1]
    return scores


def _five_of_eight(r):
    r["tricks"] = r["tricks"][:5]


def _faults():
    """name -> (tamper, what the one line must say, given the tamper's return value)."""
    return {
        "illegal ruff": (_illegal_ruff, lambda got: f"trick {got[0]}: seat {got[1]} plays {got[2]} illegally"),
        "card played twice": (_card_twice, lambda card: f"trick 6: card {card} played twice"),
        "wrong trick winner": (_wrong_winner,
                               lambda got: f"trick 4: winner {got[1]}, but seat {got[0]}'s {got[2]} wins it"),
        "scores contradicting the play": (_swapped_scores,
                                          lambda s: f"result.scores {s[::-1]!r} should be {s!r}"),
        "5 of 8 tricks": (_five_of_eight, lambda _: "5 tricks of 8: the record is incomplete"),
    }


@pytest.mark.parametrize("fault", list(_faults()))
def test_show_and_review_refuse_an_impossible_record_in_the_same_line(fault, logged, tmp_path, capsys):
    """Before: ``show`` printed each of these with exit 0; ``review`` reviewed the wrong winner, the
    swapped scores and the 5-trick record as if complete, and refused the ruff and the card played
    twice in a line of its own that named neither the file nor the line."""
    tamper, says = _faults()[fault]
    played = [r for r in logged if r["outcome"] == "played"]
    for record in played:  # the first played record the tamper applies to
        bad = copy.deepcopy(record)
        got = tamper(bad)
        if fault != "illegal ruff" or got is not None:
            break
    else:
        pytest.fail(f"no record of the log to make a {fault} from")
    good = next(r for r in logged if r["deal"] != bad["deal"])
    path = tmp_path / "deals.jsonl"
    path.write_text(json.dumps(good) + "\n" + json.dumps(bad) + "\n")
    lines = []
    for command in (["show", str(path), "--deal", str(bad["deal"])], ["show", str(path), "--all"],
                    ["review", str(path), "--deal", str(bad["deal"]), "--pimc", "none", "--worlds", "0", "--quiet"]):
        code, out, err = run(command, capsys)
        assert code == 2 and out == "" and err.count("\n") == 1 and "Traceback" not in err, (command, code, err)
        lines.append(err)
    assert lines[0] == lines[1] == lines[2], lines
    line = lines[0]
    assert line.startswith(f"belote: error: {path}:2: deal {bad['deal']}: "), line
    assert says(got) in line, (says(got), line)
    # the untampered record is shown and reviewed as before
    code, out, _ = run(["show", str(path), "--deal", str(good["deal"])], capsys)
    assert code == 0 and f"deal {good['deal']}" in out


def test_a_card_played_twice_names_both_tricks(logged):
    """The reference's own words for it: the trick it was played in first, not 'not in its hand'."""
    from analyzer.rules.reference import replay

    bad = copy.deepcopy(next(r for r in logged if r["outcome"] == "played"))
    card = _card_twice(bad)
    seat = bad["tricks"][1]["plays"][0][0]
    assert replay(bad)[0] == f"trick 6: card {card} played twice: seat {seat} played it in trick 2"


def test_a_line_too_long_or_nested_too_deep_is_one_line(logged, tmp_path, capsys):
    """A line far longer than any record is refused without reading it whole; JSON nested deeper
    than Python's parser recurses was a RecursionError traceback."""
    long = tmp_path / "long.jsonl"
    rec = dict(logged[0], note="x" * (3 << 20))  # extra fields are allowed; a 3 MB record is not a record
    long.write_text(json.dumps(logged[1]) + "\n" + json.dumps(rec) + "\n")
    code, out, err = run(["show", str(long), "--all"], capsys)
    assert code == 2 and out == "" and err.count("\n") == 1, err
    assert f"{long}:2 is longer than 1 MiB" in err
    deep = tmp_path / "deep.jsonl"
    deep.write_text("[" * 200_000 + "\n")
    code, out, err = run(["show", str(deep)], capsys)
    assert code == 2 and err.count("\n") == 1 and "Traceback" not in err, err
    assert f"{deep}:1 is JSON nested deeper than any deal record" in err


# ---- bounded memory -------------------------------------------------------------------------

# The address space the commands may use. Measured (2026-12-06, this machine, Python 3.11, RLIMIT_AS
# through prlimit): the streamed commands run under 350 MB (`belote show`, --all too) and 400 MB
# (`belote review --pimc none`: the solver's table besides), whatever the log's size: that is the
# import of numpy and numba and one record. Reading a log whole needed 700-900 MB for `show --deal`
# and `review` of a 41.6 MB log, 600-700 MB for `show --all` of a 20.4 MB one (RSS 1.35 GB for
# `show` of 109 MB, 1.77 GB for `show --all`): this cap sits between, 150 MB above the floor.
AS_CAP = 550 << 20
BIG_BYTES = 40 << 20  # `show --deal` and `review` of the deal at its end
ALL_BYTES = 20 << 20  # `show --all` (about 1 ms a record: each one replayed, before and as it is printed)


def _write_log(path, logged, size):
    """A real log of ``size`` bytes or more: the small log's records again and again, each with a
    deal number of its own (the replay checks the play, not the number), the last a played one.
    Returns its last deal number."""
    played = next(r for r in logged if r["outcome"] == "played")
    n, written = 0, 0
    with open(path, "w") as f:
        while written < size:
            line = json.dumps(dict(logged[n % len(logged)], deal=n), separators=(",", ":")) + "\n"
            f.write(line)
            written += len(line)
            n += 1
        f.write(json.dumps(dict(played, deal=n), separators=(",", ":")) + "\n")
    return n


def _capped(belote, *args):
    def limit():
        resource.setrlimit(resource.RLIMIT_AS, (AS_CAP, AS_CAP))

    return belote(*args, preexec_fn=limit, timeout=120)


@pytest.mark.slow  # three commands over 60 MB of log (22 s)
def test_show_and_review_read_a_large_log_in_bounded_memory(belote, logged, tmp_path):
    """Before: 'MemoryError' tracebacks under the cap (the whole log parsed into a list first); now
    the deal at the end of the log is found reading one line at a time, and --all checks then prints
    one record at a time."""
    big, half = tmp_path / "big.jsonl", tmp_path / "half.jsonl"
    last = _write_log(big, logged, BIG_BYTES)
    shown = _capped(belote, "show", str(big), "--deal", str(last))
    assert shown.returncode == 0 and f"deal {last}" in shown.stdout and "tricks:" in shown.stdout, shown.stderr[-400:]
    reviewed = _capped(belote, "review", str(big), "--deal", str(last), "--pimc", "none", "--worlds", "0", "--json",
                       "--quiet")
    assert reviewed.returncode == 0, reviewed.stderr[-400:]
    assert json.loads(reviewed.stdout)["deal"] == last
    big.unlink()
    last = _write_log(half, logged, ALL_BYTES)
    every = _capped(belote, "show", str(half), "--all")
    assert every.returncode == 0, every.stderr[-400:]
    assert every.stdout.count(" · deal ") == last + 1 and every.stdout.count("tricks:") > last // 2


def test_show_all_refuses_a_log_written_into_between_its_check_and_its_printing(logged, tmp_path):
    """--all checks every record, then reads the log again to print it: a record changed in place
    in between (trick 4's winner of the last one, the same number of bytes, past what the reader
    holds in its buffer) is refused, not printed unchecked."""
    from analyzer.errors import BeloteError
    from analyzer.output.deallog import each_deal

    records = logged[:12]
    assert records[-1]["outcome"] == "played"  # seed 5: deal 11 was played
    lines = [json.dumps(r) + "\n" for r in records]
    path = tmp_path / "deals.jsonl"
    path.write_text("".join(lines))
    assert sum(map(len, lines[:-1])) > 16 << 10  # the last line lies past the reader's buffer
    shown = each_deal(path)
    assert next(shown)["deal"] == records[0]["deal"]  # all checked; the first printed
    bad = copy.deepcopy(records[-1])
    bad["tricks"][3]["winner"] = (bad["tricks"][3]["winner"] + 1) % 4
    with open(path, "r+") as f:
        f.seek(sum(map(len, lines[:-1])))
        f.write(json.dumps(bad))  # as long as the line it replaces
    assert path.stat().st_size == sum(map(len, lines))
    with pytest.raises(BeloteError, match=f"{path}:12: deal {bad['deal']}: trick 4: winner"):
        list(shown)
