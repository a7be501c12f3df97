"""Writing a calibrated bidding policy (``belote calibrate --out FILE`` and ``--ship``) by the rule of
output files (``analyzer.output.outdir``): what the file is (``POLICY_FILE``), whether a target may be
replaced, and the write itself. The policy's content is the calibration's (``Calibration.as_policy``);
reading a policy file back is ``analyzer.players.policy_files``."""

from __future__ import annotations

import json
from pathlib import Path

from analyzer.output.outdir import FileKind, check_file, write_lines
from analyzer.players.policy_files import is_policy_file

POLICY_FILE = FileKind("a bidding-policy file", is_policy_file, "policy.json")  # calibrate --out (outdir.check_file)


def _flag(ship: bool) -> str:
    return "--ship" if ship else "--out"


def check_policy_target(path, ship: bool = False) -> Path:
    """``path`` may be written (``outdir.check_file``): it does not exist, or it is as belote wrote
    it (its digest the one recorded beside it); with ``ship`` (the package's policies) also when it
    is as committed in git. Checked before any work, and again when writing."""
    return check_file(path, _flag(ship), POLICY_FILE, committed=ship)


def write_policy(cal, path, command: str | None = None, ship: bool = False) -> Path:
    """Write the policy file of the calibration ``cal`` (JSON, indented) by the rule of output files
    (``outdir.write_lines``): refused when it is not as belote wrote it (``check_policy_target``),
    written beside it and renamed into place, its digest recorded beside it; a failed write (a full
    disk) is one line and leaves nothing."""
    write_lines(path, [json.dumps(cal.as_policy(command), indent=2) + "\n"], _flag(ship), POLICY_FILE,
                committed=ship)
    return Path(path)


__all__ = ["POLICY_FILE", "check_policy_target", "write_policy"]
