"""The answer of ``take`` as a table: one set of column names for the CLI, the report and the CSV.

``COLUMNS`` lists every statistic of a call (``analyzer.questions.take.CallStats``) under the name
that the CLI rows, the report's tables and the columns of ``take_examples.csv`` all use.
``situation_text`` is the answer's title (what the player sees, in one line);
``rows`` gives the rows the CLI and the report print (the same skip rule in both);
``frame`` the CSV / Parquet frame (one row per call, each value with its 95% interval);
``command`` the ``belote take ...`` line that reproduces a result.
"""

from __future__ import annotations

import shlex
from typing import TYPE_CHECKING, NamedTuple

from analyzer.players.policies import DEFAULT_PLAY, as_typed
from analyzer.players.policy_files import default_bid
from analyzer.questions.bracket import BRACKET_ROWS
from analyzer.questions.take import seat_name
from analyzer.rules import PLAYER_COUNTS, Rules
from analyzer.rules.cards import format_card, format_cards
from analyzer.runs.fmt import pm_mean, pm_rate
from analyzer.runs.stats import Z95

if TYPE_CHECKING:  # pandas is imported by frame() only: belote take prints its rows without it (0.35 s a command)
    import pandas as pd


class Column(NamedTuple):
    attr: str  # the CallStats field
    name: str  # the name shown everywhere (CLI row, report row, CSV column)
    kind: str  # "mean" (points a hand) or "rate"
    meaning: str


COLUMNS = (
    Column("score", "score", "mean", "our side's hand score (a classic passed-out deal scores 0)"),
    Column("vs_pass", "score_vs_pass", "mean", "score minus score when passing, on the same deal"),
    Column("net", "net", "mean", "our score minus the best other side's score: what wins games"),
    Column("net_vs_pass", "net_vs_pass", "mean", "net minus net when passing, on the same deal"),
    Column("we_take", "p_we_take", "rate", "our side (the player, or its partner in classic) became troefmaker, now or later"),
    Column("made", "p_made", "rate", "our side took and made"),
    Column("dedans", "p_dedans", "rate", "our side took and went dedans"),
    Column("tie", "p_tie", "rate", "our side took and tied (litige)"),
    Column("capot_for", "p_capot_for", "rate", "our side won every trick, whoever took"),
    Column("pit_against", "p_pit_against", "rate", "our side won no trick, whoever took"),
    Column("not_played", "p_not_played", "rate", "the hand was passed out (classic) or redealt after a smous"),
)

SHARE_SENTENCE = ("Every rate is a share of all n paired deals, whoever took: p_made + p_dedans + p_tie = p_we_take "
                  "(our side took), so a call that lets the others take shows low rates, not failure; "
                  "± is the 95% half-width; a lopsided 95% interval (near 0% or 100%) is shown whole, in brackets.")


def situation_text(situation) -> str:
    """What the player sees (``analyzer.questions.take.Situation``) in one line, the title of a
    ``take`` answer: ``classic, seat 0 (voorhand), round 1, hand Jh 9h Ah Tc 7s, turned Qh``."""
    r = situation.rules
    s = f"{r.label}, seat {situation.seat} ({seat_name(situation.seat, r.players)}), round {situation.round}, "
    if r.piles:
        return s + f"mine {format_cards(situation.hand)}, theirs {format_cards(situation.theirs)}, turned {format_card(situation.turned)}"
    return s + f"hand {format_cards(situation.hand)}, turned {format_card(situation.turned)}"


def rows(r) -> list[tuple[str, list]]:
    """``[(name, [Mean or Rate per call]), ...]``; ``p_not_played`` only when it happened."""
    out = []
    for col in COLUMNS:
        vals = [getattr(c, col.attr) for c in r.calls]
        if col.attr == "not_played" and all(v.k == 0 for v in vals):
            continue
        out.append((col.name, vals))
    return out


def cell(x) -> str:
    """A Mean as ``+12.3 ± 1.4``, a Rate as ``12.3% ± 0.4`` (one more decimal when small), either
    as ``[lo, hi]`` where its interval is lopsided (``analyzer.runs.fmt.pm_or_ci``)."""
    return pm_rate(x) if hasattr(x, "p") else pm_mean(x)


def frame(r) -> pd.DataFrame:
    """One row per call: ``call``, ``n`` and every column with ``_lo`` / ``_hi`` (95% CI)."""
    # lazy: pandas (about 0.35 s) loads only when a table is written
    import pandas as pd

    out = []
    for c in r.calls:
        row = {"call": c.call.label, "n": r.n}
        for col in COLUMNS:
            x = getattr(c, col.attr)
            v = x.p if col.kind == "rate" else x.mean
            row[col.name], row[col.name + "_lo"], row[col.name + "_hi"] = v, x.lo, x.hi
        out.append(row)
    return pd.DataFrame(out)


def bracket_rows(b, objective: str = "net") -> list[tuple[str, str, list]]:
    """The rows of ``take --bracket``: for each call, its outcome rates and its gain over
    passing (``net_vs_pass``, or ``score_vs_pass`` when ranked by score), one value per column
    of ``b.columns()`` (each play policy; an adjusted one followed by its plain numbers):
    ``[(call label, row name, [Rate or Mean per column]), ...]``."""
    names = {col.attr: col.name for col in COLUMNS}
    fields = [f if f != "net_vs_pass" or objective == "net" else "vs_pass" for f, _ in BRACKET_ROWS]
    out = []
    for i, c in enumerate(b.results[0].calls):
        for j, f in enumerate(fields):
            if c.call.label == "pass" and f in ("vs_pass", "net_vs_pass"):
                continue
            out.append((c.call.label if j == 0 else "", names[f], [getattr(r.calls[i], f) for _, r in b.columns()]))
    return out


def command(r, deals: int, seed: int) -> str:
    """The ``belote take ...`` command that reproduces ``r``: ``--play`` when its players are not the
    command's default (``DEFAULT_PLAY``), ``--bid`` when its bidders are not the default for that play
    (``policy_files.default_bid``), and the rule options that differ from the variant's defaults
    with ``--rule``."""
    s = r.situation
    rules = s.rules
    args = ["belote", "take"]
    if not rules.piles:
        args.append(format_cards(s.hand))
    args += ["--turned", format_card(s.turned)]
    if rules.variant != "classic":  # the command's default --variant
        args += ["--variant", rules.variant]
        if len(PLAYER_COUNTS[rules.variant]) > 1:
            args += ["--players", str(rules.players)]
    if rules.piles:
        args += ["--mine", format_cards(s.hand), "--theirs", format_cards(s.theirs)]
    if s.seat:
        args += ["--seat", str(s.seat)]
    if s.round != 1:
        args += ["--round", str(s.round)]
    defaults = Rules.from_label(rules.label).options()
    for key, value in rules.options().items():
        if defaults.get(key) != value:
            args += ["--rule", f"{key}={value}"]
    described = r.policies.describe()
    play = as_typed(described["play"])
    bid = as_typed(described["bid"])
    if bid != default_bid(rules, play):
        args += ["--bid", bid]
    if play != DEFAULT_PLAY:
        args += ["--play", play]
    args += ["--deals", str(deals), "--seed", str(seed)]
    return shlex.join(args)


def control_notes(b) -> list[str]:
    """One sentence per adjusted column of a bracket: what it borrowed and how much it gained."""
    out = []
    for p, r in zip(b.plays, b.results):
        if r.control is None:
            continue
        c = r.control
        i = next((j for j, x in enumerate(r.calls) if x.call.label != "pass"), 0)
        adj, plain = r.calls[i].net_vs_pass, c.plain.calls[i].net_vs_pass
        gain = f"; {r.calls[i].call.label}'s net gain ±{Z95 * adj.se:.1f} where alone ±{Z95 * plain.se:.1f}" \
            if plain.se > 0 else ""
        out.append(f"{p}, adjusted by {c.play}: the {r.n:,} deals {p} played are {c.play}'s first, so each {p} "
                   f"number is corrected by how far {c.play}'s numbers on them fell from its {c.long.n:,} deals "
                   f"(a control variate){gain}.")
    return out
