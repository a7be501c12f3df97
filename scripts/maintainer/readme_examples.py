"""Regenerate every console example of README.md and docs/GUIDE.md from the real ``belote`` command.

Each ```` ```console ```` block of the two is a list of ``$ belote ...`` commands, each
followed by what it prints. This script runs the commands of every block in order, in one
scratch folder per block (so a ``--log`` file written by one command is there for the next),
and writes the block back with the fresh output, so the docs cannot drift from the code.

    make docs                                       # rewrite README.md and docs/GUIDE.md in place
    python scripts/maintainer/readme_examples.py --check       # exit 1 if one of them is not current

Lines that report elapsed time or speed differ between runs; ``--check`` compares the
blocks with those lines masked (``TIMING``).
"""

from __future__ import annotations

import argparse
import os
import re
import shlex
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
README = ROOT / "README.md"
FILES = (README, ROOT / "docs" / "GUIDE.md")  # the front door, and the guide the details moved to
BLOCK = re.compile(r"^```console\n(.*?)^```\n", re.S | re.M)
# lines whose numbers depend on the machine, not on the inputs
TIMING = re.compile(r"(\d[\d,.]* hands/s|\d[\d,.]* ?(s|ms|min)\b|\d[\d,]* hands in )")
WIDTH = "110"  # the terminal width the examples are rendered at


def belote_command() -> list[str]:
    """The ``belote`` of this checkout's environment (the interpreter running this script)."""
    exe = Path(sys.executable).with_name("belote")
    return [str(exe)] if exe.exists() else [sys.executable, str(ROOT / "cli.py")]


def commands(block: str) -> list[str]:
    return [line[2:] for line in block.splitlines() if line.startswith("$ ")]


def run_block(cmds: list[str]) -> str:
    """Run one block's commands in a fresh folder; the block text as the README shows it."""
    env = dict(os.environ, COLUMNS=WIDTH, LINES="50", NO_COLOR="1", TERM="dumb")
    env.pop("FORCE_COLOR", None)
    out = []
    with tempfile.TemporaryDirectory(prefix="belote-readme-") as tmp:
        for cmd in cmds:
            argv = shlex.split(cmd)
            if argv[0] != "belote":
                raise SystemExit(f"README console commands must start with 'belote': {cmd}")
            proc = subprocess.run(belote_command() + argv[1:], cwd=tmp, env=env, capture_output=True,
                                  text=True, timeout=1800)
            if proc.returncode != 0:
                raise SystemExit(f"'{cmd}' failed with exit code {proc.returncode}:\n{proc.stderr}")
            out.append(f"$ {cmd}")
            text = (proc.stdout + proc.stderr).rstrip("\n")
            if text:
                out.append("\n".join(line.rstrip() for line in text.splitlines()))
    return "\n".join(out) + "\n"


def masked(text: str) -> list[str]:
    return [TIMING.sub("…", line) for line in text.splitlines()]


def regenerate(text: str, check: bool, only: str | None = None) -> tuple[str, list[str]]:
    """README text with every (or every matching) console block rerun; and the stale blocks."""
    stale = []

    def redo(m: re.Match) -> str:
        old = m.group(1)
        cmds = commands(old)
        if not cmds or (only and not any(only in c for c in cmds)):
            return m.group(0)
        new = run_block(cmds)
        if masked(new) != masked(old):
            stale.append(cmds[0])
        return m.group(0) if check else f"```console\n{new}```\n"  # fresh timings too

    return BLOCK.sub(redo, text), stale


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--check", action="store_true", help="only report blocks that are not current")
    ap.add_argument("--only", help="only the blocks with a command containing this text")
    args = ap.parse_args(argv)
    # compile (or load) the kernels first, so no example shows the first run's compiling
    subprocess.run(belote_command() + ["simulate", "--deals", "1000", "--quiet"], check=True, capture_output=True)
    failed = False
    for path in FILES:
        text = path.read_text()
        new, stale = regenerate(text, args.check, args.only)
        name = path.relative_to(ROOT)
        if args.check:
            for cmd in stale:
                print(f"{name}: the example '{cmd}' is not current: run make docs")
            failed |= bool(stale)
            continue
        if new != text:
            tmp = path.with_suffix(".md.tmp")
            tmp.write_text(new)
            os.replace(tmp, path)
        print(f"{name}: {len(stale)} example block(s) changed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
