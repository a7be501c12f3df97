"""The rules (RULES.md §1-6): cards and notation, the options record, legal plays, tricks, declarations, scoring; and the plain-Python reference."""

from analyzer.rules.options import *  # noqa: F401,F403  (`from analyzer.rules import Rules` keeps working)
