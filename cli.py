"""The ``belote`` command line: parse, build a config, call the library, render.

The entry point the project has always had (``belote = "cli:entry"``, ``python cli.py``);
the commands live in the package ``analyzer.cli``, one module each.
"""

from analyzer.cli import app, entry, main

__all__ = ["app", "entry", "main"]

if __name__ == "__main__":
    entry()
