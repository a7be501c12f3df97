"""Deal logs: ``belote-deal/1`` records (docs/DEAL_LOG.md), written from the kernel's
trace of a hand, read back for ``belote show`` and for replay checks."""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path

from analyzer.errors import BeloteError
from analyzer.output.outdir import FileKind, remove_unused, write_lines
from analyzer.rules.deal_schema import SCHEMA, check_record
from analyzer.rules.reference import replay
from analyzer.runs.games import DEFAULT_MAX_DEALS
from analyzer.runs.records import game_records, hand_record, record_from_trace  # noqa: F401 (re-exported)
from analyzer.runs.simulate import SimConfig


def write_log(path, config: SimConfig, count: int) -> int:
    """Write the first ``count`` hands of the run to ``path`` (JSON Lines), by the rule of
    output files (``analyzer.output.outdir.write_lines``): its folder created, written beside
    it and renamed into place, so a failure leaves any earlier file intact. Returns the
    number of records written."""
    count = min(count, config.deals)
    return _write_records(path, (hand_record(config, i) for i in range(count)))


def write_game_log(path, config: SimConfig, games: int, max_deals: int = DEFAULT_MAX_DEALS,
                   duplicate: bool = False) -> int:
    """Write every deal of the first ``games`` games of the run (``duplicate``: dealt as a
    whole-game duel deals them) to ``path``, as ``write_log`` does; returns the number of records
    written."""
    return _write_records(path, (r for g in range(games) for r in game_records(config, g, max_deals, duplicate)))


# the temporary files of versions before output files were named after their target and
# writer's PID (tempfile.mkstemp's names): removed by the next log written beside them
_UNNAMED_TMP = r"\.belote-log-[a-z0-9_]{8}"


def _write_records(path, records) -> int:
    lines = (json.dumps(r, separators=(",", ":")) + "\n" for r in records)
    count = write_lines(path, lines, "--log", LOG_FILE)
    removed = remove_unused(Path(os.path.abspath(path)).parent, _UNNAMED_TMP)
    if removed:
        print(f"belote: removed {', '.join(removed)}, left beside {path} by a killed run of an earlier version",
              file=sys.stderr)
    return count


def is_deal_log(path) -> bool:
    """Whether ``path`` starts like a deal log (its first line a belote-deal record): the words of
    the refusal of a log with no record of its digest beside it (``outdir.check_file``). Reads at
    most a record's worth of the first line (asked of regular files only)."""
    try:
        with open(path) as f:
            first = f.readline(1 << 20)
        return json.loads(first).get("schema") == SCHEMA
    except (OSError, ValueError, AttributeError, RecursionError):  # JSON nested past the parser's depth too
        return False


LOG_FILE = FileKind("a deal log", is_deal_log, "deals.jsonl")  # what --log writes (outdir.check_file)


# ---- reading a log back: one line at a time, in bounded memory --------------------------------
#
# A log is never read whole: a line is read (at most MAX_RECORD_BYTES of it), parsed, checked,
# used and dropped, so ``belote show`` and ``belote review`` read a log of any size in the memory
# of one record (reading it whole took about 12 times the file's size: 1.35 GB for 109 MB).

MAX_RECORD_BYTES = 1 << 20  # a line of a deal log: a record is 1-3 KB (Dekjas the longest); a longer line is no record
_FIX = f"a deal log holds {SCHEMA} records as 'belote simulate --log' writes them"


def _open_log(path: Path):
    if not path.is_file():
        raise BeloteError(f"no deal log at {path}: write one with 'belote simulate --log {path}'")
    return open(path, "rb")  # bytes: a line that is not UTF-8 is refused like one that is not JSON


def _lines(path: Path, f, end: int | None = None):
    """``(line number, record)`` for each line of the open log ``f`` that is not blank, up to byte
    ``end`` (None: the end of the file); each a JSON object of the ``belote-deal/1`` shape
    (``deal_schema.check_record``), refused in one line naming the file and the line otherwise."""
    lineno = 0
    while end is None or f.tell() < end:
        line = f.readline(MAX_RECORD_BYTES + 1)
        if not line:
            return
        lineno += 1
        if len(line) > MAX_RECORD_BYTES:
            raise BeloteError(f"{path}:{lineno} is longer than {MAX_RECORD_BYTES >> 20} MiB: no deal record is; {_FIX}")
        if not line.strip():
            continue
        try:
            r = json.loads(line)
        except ValueError:  # JSONDecodeError, UnicodeDecodeError
            raise BeloteError(f"{path}:{lineno} is not JSON: a deal log has one belote-deal/1 record per line") from None
        except RecursionError:  # nested deeper than the parser recurses (a record: 4 levels at most)
            raise BeloteError(f"{path}:{lineno} is JSON nested deeper than any deal record: {_FIX}") from None
        check_record(r, f"{path}:{lineno}", _FIX)
        yield lineno, r


def check_play(record: dict, where: str) -> None:
    """Refuse (``BeloteError``, one line: ``WHERE: deal N: what is wrong``) a record whose play
    the rules do not allow: it is replayed through the reference (``rules.reference.replay``:
    the deal, every bid, every card against the obligations of play, every trick's winner and
    points, the declarations and the score), and a played record must hold every trick. The
    first thing wrong is named, with the count of the others. ``belote show`` and ``belote
    review`` pass every record they use through it."""
    errors = replay(record)
    if errors:
        more = f" (and {len(errors) - 1} more)" if len(errors) > 1 else ""
        raise BeloteError(f"{where}: deal {record.get('deal')}: {errors[0]}{more}: the rules do not allow it "
                          "(docs/RULES.md); write the log again with 'belote simulate --log'")


def iter_log(path):
    """The records of a deal log, one at a time, as it is read: each checked against the
    ``belote-deal/1`` schema (``rules.deal_schema``) before anything uses it; one line naming the
    file, the line and the field for a missing or malformed file or record. Memory: one record's."""
    path = Path(path)
    with _open_log(path) as f:
        seen = False
        for _, r in _lines(path, f):
            seen = True
            yield r
    if not seen:
        raise BeloteError(f"{path} holds no deals")


def read_log(path) -> list[dict]:
    """All records of a deal log, each checked against the schema (``iter_log``): for a caller
    that holds them all (``belote serve``, whose logs are bounded in size; the tests)."""
    return list(iter_log(path))


def find_deal(path, deal: int | None = None, played: bool = False) -> dict:
    """Deal number ``deal`` of the log at ``path`` (the first record of that number); ``None``:
    the first record (``played``: the first played one). Read line by line up to it (the lines
    before it checked against the schema, the lines after it not read), and replayed through the
    reference before it is returned (``check_play``). One line naming the file when it is not
    there, and naming the file and the line when it is not a hand the rules allow."""
    path = Path(path)
    numbers = None  # the lowest and highest deal numbers read, for the line naming what the log holds
    with _open_log(path) as f:
        for lineno, r in _lines(path, f):
            number = r["deal"]
            numbers = (number, number) if numbers is None else (min(numbers[0], number), max(numbers[1], number))
            if number == deal or (deal is None and (not played or r["outcome"] == "played")):
                check_play(r, f"{path}:{lineno}")
                return r
    if numbers is None:
        raise BeloteError(f"{path} holds no deals")
    if deal is not None:
        raise BeloteError(f"deal {deal} is not in {path}: it holds deals {numbers[0]}..{numbers[1]}")
    raise BeloteError(f"{path} holds no played deal (every deal was passed out or redealt): nothing to review")


def each_deal(path):
    """Every record of the log at ``path``, as ``belote show --all`` prints them: the whole log
    read and checked first (schema and replay, ``check_play``) in one record's memory, so that
    nothing is printed of a log that holds a record the rules do not allow; then read again from
    the same open file, up to where the check ended, each record checked again as it is read (a
    log written into meanwhile is refused, not printed unchecked)."""
    path = Path(path)
    with _open_log(path) as f:
        count = 0
        for lineno, r in _lines(path, f):
            check_play(r, f"{path}:{lineno}")
            count += 1
        if not count:
            raise BeloteError(f"{path} holds no deals")
        end = f.tell()
        f.seek(0)
        for lineno, r in _lines(path, f, end):
            check_play(r, f"{path}:{lineno}")
            yield r


__all__ = ["record_from_trace", "hand_record", "game_records", "write_log", "write_game_log", "read_log", "iter_log",
           "find_deal", "each_deal", "check_play", "is_deal_log", "LOG_FILE", "SCHEMA", "MAX_RECORD_BYTES"]
