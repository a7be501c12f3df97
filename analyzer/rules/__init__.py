"""The rules (RULES.md §1-7): cards and notation, the variants table (``variants``: one row per
label, what each variant is structurally), the options record, the calls of the bidding, legal
plays, tricks, declarations, scoring and the end of a game; and the plain-Python reference."""

from analyzer.rules.options import *  # noqa: F401,F403  (`from analyzer.rules import Rules` keeps working)
