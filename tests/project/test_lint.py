"""The linter's check (``make lint``: ruff, configured in pyproject.toml) passes on the whole
repository, so a change that breaks it fails the suite rather than waiting for someone to run it."""

import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def _ruff() -> list[str]:
    exe = Path(sys.executable).parent / "ruff"
    if exe.exists():
        return [str(exe)]
    found = shutil.which("ruff")
    assert found, "ruff is not installed: it is in the test extra (pip install -e '.[test]')"
    return [found]


def test_the_linter_passes_on_the_repository():
    p = subprocess.run(_ruff() + ["check", "--no-cache", "--output-format", "concise", "."], cwd=ROOT,
                       capture_output=True, text=True, timeout=120)
    assert p.returncode == 0, p.stdout + p.stderr


def test_the_linter_finds_what_it_is_configured_to_find(tmp_path):
    """The configuration is read and its rules are on: an unused import fails the check."""
    bad = tmp_path / "bad.py"
    bad.write_text("import os\n")
    p = subprocess.run(_ruff() + ["check", "--no-cache", "--config", str(ROOT / "pyproject.toml"), str(bad)],
                       capture_output=True, text=True, timeout=120)
    assert p.returncode == 1 and "F401" in p.stdout, p.stdout + p.stderr
