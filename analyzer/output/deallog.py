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


def write_game_log(path, config: SimConfig, games: int, max_deals: int = DEFAULT_MAX_DEALS) -> int:
    """Write every deal of the first ``games`` games of the run to ``path``, as
    ``write_log`` does; returns the number of records written."""
    return _write_records(path, (r for g in range(games) for r in game_records(config, g, max_deals)))


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
    except (OSError, ValueError, AttributeError):
        return False


LOG_FILE = FileKind("a deal log", is_deal_log, "deals.jsonl")  # what --log writes (outdir.check_file)


def read_log(path) -> list[dict]:
    """All records of a deal log, each checked against the ``belote-deal/1`` schema
    (``rules.deal_schema``) before anything uses it; one line naming the file, the line
    and the field for a missing or malformed file or record."""
    path = Path(path)
    if not path.is_file():
        raise BeloteError(f"no deal log at {path}: write one with 'belote simulate --log {path}'")
    records = []
    with open(path, "rb") as f:  # bytes: a line that is not UTF-8 is refused like one that is not JSON
        for lineno, line in enumerate(f, 1):
            if not line.strip():
                continue
            try:
                r = json.loads(line)
            except ValueError:  # JSONDecodeError, UnicodeDecodeError
                raise BeloteError(f"{path}:{lineno} is not JSON: a deal log has one belote-deal/1 record per line") from None
            check_record(r, f"{path}:{lineno}", f"a deal log holds {SCHEMA} records as 'belote simulate --log' writes them")
            records.append(r)
    if not records:
        raise BeloteError(f"{path} holds no deals")
    return records


__all__ = ["record_from_trace", "hand_record", "game_records", "write_log", "write_game_log", "read_log", "is_deal_log",
           "LOG_FILE", "SCHEMA"]
