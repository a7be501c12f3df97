"""The ``belote`` command line: parse, build a config, call the library, render.

``app`` (the typer app) and ``main``/``entry`` live in ``app``; the options the commands
share are declared once in ``options``; what they share besides in ``common``; the signal
handling in ``signals``; each command in a module of its own, named after it (``show`` with
``simulate``, whose logs it shows); the rich tables of ``take``, ``balance`` and ``rules`` in
``render``. Every command has examples in its help; domain errors print one line and exit 2.
"""

from analyzer.cli.app import app, entry, main

__all__ = ["app", "entry", "main"]
