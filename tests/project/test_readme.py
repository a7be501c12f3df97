"""The console examples of the README and docs/GUIDE.md are real output: rerun (the cheap ones) and compared.

``make docs`` (``scripts/maintainer/readme_examples.py``) writes every example from the real ``belote``
command; this test reruns two of them and fails when the README has drifted from the code
(timing figures masked). The others take minutes; ``make docs`` refreshes them all.
"""

import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
SCRIPT = ROOT / "scripts" / "maintainer" / "readme_examples.py"


def test_every_console_example_is_a_belote_command():
    for name in ("README.md", "docs/GUIDE.md"):  # the front door and the guide its details moved to
        text = (ROOT / name).read_text()
        blocks = re.findall(r"^```console\n(.*?)^```\n", text, re.S | re.M)
        assert blocks, f"{name} shows no console example"
        for block in blocks:
            first = block.splitlines()[0]
            assert first.startswith("$ belote "), f"{name}: a console block must start with a belote command: {first!r}"


@pytest.mark.slow
@pytest.mark.parametrize("example", ['belote take "Jh 9h Ac Kd 8s"', "belote show deals.jsonl"])
def test_readme_example_is_current(example):
    proc = subprocess.run([sys.executable, str(SCRIPT), "--check", "--only", example], capture_output=True, text=True,
                          timeout=900)
    assert proc.returncode == 0, proc.stdout + proc.stderr
