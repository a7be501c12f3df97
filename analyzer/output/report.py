"""``report``: the three analyses with built-in defaults, written as one folder.

``make_report`` runs ``take`` on a small set of instructive example hands, ``table`` for
every variant and ``balance`` across the variants, all with the calibrated bidders (the
policies shipped for each variant, ``analyzer.players.policy_files``), then what calibration
changes against the heuristic bidders (``analyzer.questions.bidding_effect``) and what each
rule option changes (``analyzer.questions.impact``), then the bracket (the examples and the
classic bidding table under PIMC and double dummy play, ``bracket_section``), and writes
``reports/NAME/``:
``index.md`` (the readable report, plots embedded, every number with its n and 95% CI,
the policies and rule options that produced it), the CSV and Parquet tables, the PNG
plots and ``run.json`` (version, git commit, seed, parameters, timings, hands simulated).

The folder is written under a temporary name next to its destination and moved into
place only when complete, so an interrupted run never leaves a half report, and an
earlier report of the same name is replaced only by a complete one. The folder rule
(new, empty or an earlier one of ours; anything else refused up front) is
``analyzer.output.outdir``'s, shared with ``table`` and ``balance``. What a report runs and
what each part costs (its examples, sizes and planned seconds): ``analyzer.output.report_plan``.
"""

from __future__ import annotations

import os
import platform
import time
from dataclasses import dataclass, field
from datetime import datetime, timezone
from pathlib import Path

import numpy as np
import pandas as pd

import analyzer
from analyzer.errors import BeloteError
from analyzer.output import findings as F
from analyzer.output import plots as P
from analyzer.output import summary as S
from analyzer.output import take_table
from analyzer.output.equity import score_findings, take_point_overview, take_points_markdown
from analyzer.output.files import (
    bidding_effect_report_section,
    impact_report_section,
    impact_sizes,
    write_balance,
    write_table,
    write_table_bracket,
)
from analyzer.output.html import anchor_text, write_html
from analyzer.output.markdown import balance_bidders_line, balance_markdown, table_bracket_markdown, table_markdown
from analyzer.output.outdir import Staged, check_out, git_commit
from analyzer.output.report_plan import (
    BRACKET_MIN_N,
    DEALS_BY_PLAY,
    EXAMPLES,
    NET_BALANCE_SHARE,
    REPORT_PLAYS,
    CostProgress,
    Example,
    Sizes,
    bracket_columns,
    bracket_plan,
    default_name,
    examples_for,
    other_balance_sizes,
    other_cheap,
    planned_seconds,
    score_sizes,
)
from analyzer.players.equity import equity_table
from analyzer.players.policies import DEFAULT_PLAY, Policies, searches
from analyzer.players.policy_files import bid_provenance, default_bid, describe_bid
from analyzer.questions import bidding_effect
from analyzer.questions.balance import HANDS_PER_GAME, compare_variants, work
from analyzer.questions.bracket import Bracket, analyse_bracket
from analyzer.questions.impact import total_units
from analyzer.questions.table import bidding_table, write_frame
from analyzer.questions.table_bracket import default_plays, table_bracket
from analyzer.questions.take import TakeResult, analyse_take, seat_name
from analyzer.questions.take_point import take_points
from analyzer.rules import ALL_LABELS, Rules, option_choices
from analyzer.rules.calls import PASS, SMOUS
from analyzer.runs.fmt import ci_pct, ci_rate
from analyzer.runs.limits import derived_seed
from analyzer.runs.simulate import SimConfig, set_threads
from analyzer.runs.stats import CV_MIN_N


def check_writable(folder: Path, flag: str = "--out") -> Path:
    """Check ``folder`` against the output-folder rule (``analyzer.output.outdir``) before any work."""
    return check_out(folder, flag)


def take_frame(r: TakeResult) -> pd.DataFrame:
    """One row per call of a ``take`` answer (means and rates with their 95% CIs), the
    columns named as in the CLI and the report (``analyzer.output.take_table.COLUMNS``)."""
    return take_table.frame(r)


def take_markdown(r: TakeResult, why: str = "", command: str | None = None) -> str:
    """One ``take`` answer as the CLI shows it: a row per statistic, a column per call, the
    reproducing command, the verdict and a line on any number that would surprise a player."""
    s = r.situation
    out = [f"#### {take_table.situation_text(s)}", ""]
    if why:
        out += [f"*{why}*", ""]
    if command:
        out += ["Reproduce these numbers:", "", "```", command, "```", ""]
    out.append(f"n = {r.n:,} paired deals; acceptance (earlier seats passed under the bidding policy, "
               f"bid={r.policies.describe()['bid']}) "
               f"{ci_rate(r.acceptance)} of {r.acceptance.n:,} sampled.")
    out.append("")
    out.append("| | " + " | ".join(c.call.label for c in r.calls) + " |")
    out.append("|---|" + "---|" * len(r.calls))
    for name, vals in take_table.rows(r):
        out.append(f"| `{name}` | " + " | ".join(take_table.cell(v) for v in vals) + " |")
    out.append("")
    out.append(f"**Verdict:** {r.verdict()}")
    out.append("")
    for note in take_notes(r):
        out += [f"*Note:* {note}", ""]
    return "\n".join(out)


def take_notes(r: TakeResult) -> list[str]:
    """One line for each number of a ``take`` answer that a player would stumble over."""
    notes = []
    rules = r.situation.rules
    for c in r.calls:
        if c.call.call == PASS and c.we_take.k:
            ways = (["its partner"] if rules.partners else []) + (["the player itself in round 2"]
                                                                   if r.situation.round == 1 else [])
            if rules.koe:
                ways.append("a forced take (koe) when everyone passes")
            notes.append(f"`p_we_take` of pass is {ci_rate(c.we_take)}: after passing, our side can still become "
                         f"troefmaker later ({', '.join(ways)}), and those hands count.")
        if c.call.call == SMOUS:
            notes.append(f"{c.call.label}: the opponent answers play or redeal. It redealt on {ci_rate(c.not_played)} "
                         "of the deals (`p_not_played`); those deals score what the new deal scores, while `p_made` "
                         "and the other rates count only the hand asked about, so a redealt deal adds to none of them.")
    if not rules.koe and any(x.not_played.k for x in r.calls if x.call.call == PASS):
        notes.append("A classic deal that everyone passes is passed out and scores 0 for both teams (`p_not_played`).")
    return notes


def docs_link(folder: Path) -> str:
    """The project's ``docs/`` folder as a link from the report folder: relative when the
    report lies inside the checkout (``reports/NAME`` → ``../../docs``; the folder being
    written is a sibling of the final one, so the link holds after the move), otherwise
    the absolute path."""
    root = Path(__file__).resolve().parents[2]
    folder = Path(folder).resolve()
    if folder.is_relative_to(root):
        return Path(os.path.relpath(root / "docs", folder)).as_posix()
    return (root / "docs").as_posix()


def rules_markdown(options: dict) -> list[str]:
    """The rule options in force, one table row per variant (``{label: Rules.options()}``);
    an option that can change nothing in a variant (not in ``option_choices``) is shown as —."""
    keys = list(dict.fromkeys(k for opts in options.values() for k in opts))
    out = ["| variant | " + " | ".join(f"`{k}`" for k in keys) + " |", "|---|" + "---|" * len(keys)]
    for lab, opts in options.items():
        r = Rules.from_label(lab)
        live = set(option_choices(r.variant, r.players)) | {"target"}
        out.append(f"| {lab} | " + " | ".join(str(opts[k]) if k in opts and k in live else "—" for k in keys) + " |")
    return out


SECTIONS = ("Should I take? Example hands", "Bidding tables", "Balance of the variants", "What calibration changes",
            "What each rule option changes", "Stronger players: the bracket", "How the score moves the take point",
            "Files")  # the numbered sections, in order
CALIBRATION_SECTION, RULES_SECTION = 4, 5  # written by analyzer.questions.bidding_effect and .impact (titles above)
BRACKET_SECTION = 6
SCORE_SECTION = 7
# Who plays the cards, in words (the report's Policies paragraph)
PLAYERS_IN_WORDS = {
    "net": "the learned player: a score of each legal card over what its seat can see, trained on pimc's evaluation "
           "of each card; it plays about as well as pimc, at about 50,000 hands a second a thread",
    "heuristic": "hand-written rules: draw trumps as taker, cash masters, load the partner, win cheaply, throw "
                 "cheap; the fast player, about fifteen times as fast as net and weaker",
}
IMPACT_NOTE = ("The bidders here are the `heuristic` ones in every reading: a calibrated policy is calibrated for one "
               "set of rules (the defaults), so it has no counterpart under the other reading of an option, and "
               "comparing a calibrated bidder with itself under rules it was not calibrated for would mix two effects. "
               "What each option changed in the players' choices is counted for both: the heuristic bidders under "
               "both readings, the calibrated ones under the reading they were calibrated for.")


def heading(number: int) -> str:
    """``## N. title`` of the report's section ``number`` (``SECTIONS``)."""
    return f"## {number}. {SECTIONS[number - 1]}"


def anchor(number: int, title: str) -> str:
    """The markdown anchor of the heading ``## N. title`` (GitHub's rule: lower case, spaces to
    dashes, punctuation dropped)."""
    return anchor_text(f"{number}. {title}")


@dataclass
class ReportResult:
    path: Path
    run: dict = field(default_factory=dict)


def make_report(out: str | Path | None = None, deals: int | None = None, seed: int = 1,
                threads: int | None = None, progress=None, examples=EXAMPLES, variants=ALL_LABELS,
                reports_dir: str | Path = "reports", command: str | None = None,
                bid: str | None = None, play: str | None = None, lang: str = "en") -> ReportResult:
    """Run ``take`` (the examples), ``table`` (each variant) and ``balance`` (all variants),
    what calibration changes and what each rule option changes, and write the report
    folder; returns its path and the ``run.json`` content.

    ``bid``: the bidders of the examples, tables and balance: ``None`` (default) each
    variant's calibrated policy (``policy_files.default_bid``), or ``heuristic`` / ``random``.

    ``out``: the folder (default ``reports/report-deals<N>-seed<S>``). ``deals``: hands per
    variant for ``balance``; ``table`` uses half as many deals per variant, ``balance``
    ``deals / 40`` games per variant, ``take`` ``deals / 20`` paired deals per example.
    ``progress(done, total)`` is called as the parts advance, in planned milliseconds (``CostProgress``).
    The folder follows the rule of ``analyzer.output.outdir`` (checked before any work);
    ``command`` is recorded in ``run.json`` (the CLI passes the command line). ``lang``: the language
    of the first page's summary (``en`` or ``nl``; the other one is written beside as ``summary_<lang>.md``).

    Example::

        >>> make_report(deals=100_000, seed=7)  # doctest: +SKIP
    """
    play = play or DEFAULT_PLAY
    if play not in REPORT_PLAYS:
        raise BeloteError(f'report --play "{play}": use {" or ".join(REPORT_PLAYS)} (one policy for every seat)')
    deals = DEALS_BY_PLAY[play] if deals is None else deals
    sizes = Sizes.from_deals(deals, DEALS_BY_PLAY[play])
    if seed < 0:
        raise BeloteError(f"--seed must be 0 or more, not {seed}")
    if bid is not None and bid not in ("calibrated", "heuristic", "random"):
        raise BeloteError(f'report --bid "{bid}": use calibrated, heuristic or random (one policy for every seat)')
    if not examples:
        raise BeloteError("a report needs at least one example hand (examples=...)")
    if lang not in ("en", "nl"):
        raise BeloteError(f'report --lang "{lang}": use en or nl')
    dest = Path(out) if out is not None else Path(reports_dir) / default_name(deals, seed, bid, variants, play)
    with Staged(dest) as stage:  # checked and staged before any work; removed if interrupted
        run = _write(stage.tmp, sizes, seed, threads, progress, examples, variants, bid, play, lang)
        run["output"] = str(stage.dest)
        params = run.get("parameters", {})
        run = stage.commit({"command": command or f"make_report(deals={deals}, seed={seed})",
                            "rules": params.get("rules"), "policies": params.get("policies")} | run)
    return ReportResult(dest, run)


@dataclass
class _Run:
    """What the report's sections share while they run: the inputs, the progress, the bidders of
    every label, and what each section leaves for those after it and for the first page
    (``results``)."""

    folder: Path
    sizes: Sizes
    seed: int
    threads: object
    examples: tuple
    variants: tuple
    bid: str | None
    play: str  # every seat's play policy in sections 1-5 (the bracket plays the others)
    prog: CostProgress
    used_threads: int
    policies: dict = field(default_factory=dict)  # the policies of every label used (``play``, its bidders)
    results: dict = field(default_factory=dict)

    def pols(self, rules) -> Policies:
        if rules.label not in self.policies:
            self.policies[rules.label] = Policies.parse(self.bid or default_bid(rules, self.play), self.play,
                                                        rules.players)
        return self.policies[rules.label]


def _take_section(run: _Run) -> tuple[list[str], int]:
    """Section 1: every example's calls against passing (``belote take``)."""
    sizes, seed = run.sizes, run.seed
    take_md, rows, results, hands = [], [], [], 0
    for k, ex in enumerate(run.examples):
        rules = Rules.from_label(ex.label)
        r = analyse_take(rules, ex.hand, ex.turned, ex.seat, ex.round, mine=ex.mine, theirs=ex.theirs,
                         deals=sizes.take_deals, seed=derived_seed(seed, k), threads=run.threads,
                         policies=run.pols(rules), progress=lambda done: run.prog.tick(done / sizes.take_deals))
        hands += r.hands
        results.append(r)
        rows.append(take_frame(r).assign(example=k + 1, variant=rules.label, situation=take_table.situation_text(r.situation),
                                         verdict=r.verdict()))
        cmd = take_table.command(r, sizes.take_deals, derived_seed(seed, k))
        take_md.append(take_markdown(r, ex.why, cmd).replace("#### ", f"#### {k + 1}. ", 1))
        run.prog.next()
    take_all = pd.concat(rows, ignore_index=True)
    write_frame(take_all, run.folder / "take_examples")
    P.save(P.take_examples_plot(take_all), run.folder / "take_examples.png")
    run.results.update(take_all=take_all, take_results=results)
    md = [heading(1), "",
          "Each example: the unknown cards are sampled uniformly given what the player sees; when earlier seats "
          "bid first, only deals where they all passed under the bidding policy are kept (acceptance shown). "
          "Every call open is then played out on the same deals; passing is played honestly (later seats bid and "
          "play with their policies; a classic passed-out deal scores 0). The tables are those of `belote take` "
          "(same rows, same names as the columns of `take_examples.csv`):", ""]
    md += [f"- `{c.name}`: {c.meaning}" for c in take_table.COLUMNS]
    md += ["", take_table.SHARE_SENTENCE, "", "![every example: net gain of each call over passing](take_examples.png)",
           ""]
    return md + take_md, hands


def _table_section(run: _Run) -> tuple[list[str], int]:
    """Section 2: the bidding table of every variant (``belote table``)."""
    sizes = run.sizes
    table_md, tables, hands = [], {}, 0
    for lab in run.variants:
        rules = Rules.from_label(lab)
        cfg = SimConfig(rules=rules, policies=run.pols(rules), deals=sizes.table_deals, seed=run.seed,
                        threads=run.threads)
        t = bidding_table(cfg, progress=lambda done: run.prog.tick(done / sizes.table_deals))
        write_table(t, run.folder)
        hands += t.hands
        tables[lab] = t
        table_md.append(table_markdown(t, class_tables=False))  # the class tables are the heatmaps' numbers: in table_<lab>.md
        table_md.append(f"The net gain and P(made) of each class (trump honours by side aces, each round) are drawn "
                        f"below; the same numbers as tables, with their intervals and n: `table_{lab}.md`.\n")
        table_md.append(f"![net gain heatmap](table_{lab}_heatmap_gain.png)\n\n"
                        f"![P(made) heatmap](table_{lab}_heatmap_made.png)\n\n"
                        f"![net gain by side aces](table_{lab}_heatmap_aces.png)\n\n"
                        f"![break-even](table_{lab}_break_even.png)\n\n"
                        f"Decisions: {t.decisions[0]:,} in round 1, {t.decisions[1]:,} in round 2; "
                        f"{t.hands:,} hands simulated. Full tables: `table_{lab}_classes.csv` (and .parquet), "
                        f"`table_{lab}_strength.csv`, `table_{lab}_break_even.csv`, `table_{lab}_rule_of_thumb.csv`.\n")
        run.prog.next()
    run.results["tables"] = tables
    md = [heading(2), "",
          "At every bidding decision the policies reach (round 1 after earlier passes; round 2 with the bidder's "
          "best suit), the hand is played with that seat taking and with it passing, on the same deal. Classes "
          "are what a player recognises: which of the trump J 9 A 10 are held (`J9A.` = J, 9 and A, no 10), trump "
          "length, side aces, voids, seat and round, counting the turned card for the classic / 4-player taker "
          "and the Dix exchange. *Net gain* = net score taking − net score passing.", "",
          "Each variant below ends with a common players' rule of thumb, \"trump jack and nine, plus one or "
          "two aces, is usually enough\", measured.", ""]
    return md + table_md, hands


def _balance_section(run: _Run) -> tuple[list[str], int]:
    """Section 3: the balance of the variants (``belote balance``)."""
    sizes = run.sizes
    units = len(run.variants) * work(sizes.deals, sizes.games)
    b = compare_variants(list(run.variants), deals=sizes.deals, games=sizes.games, seed=run.seed, bid=run.bid,
                         play=run.play, threads=run.threads, progress=lambda done: run.prog.tick(done / units),
                         control=(0, 0))
    files = write_balance(b, run.folder, markdown=False)
    plots = {p.name: p.name for p in files if p.suffix == ".png"}
    run.results["balance"] = b
    run.prog.next()
    return [heading(3), "", balance_markdown(b, plots).replace("### ", "#### ")], b.hands_simulated


def _calibration_section(run: _Run) -> tuple[list[str], int]:
    """Section 4: what calibrating the bidders changes (``analyzer.questions.bidding_effect``)."""
    sizes = run.sizes
    units = bidding_effect.total_units(run.variants, sizes.effect_deals, sizes.effect_games)
    md, effect = bidding_effect_report_section(
        run.folder, sizes.effect_deals, sizes.effect_games, run.seed, run.threads, run.variants,
        number=f"{CALIBRATION_SECTION}. ", duel_deals=sizes.effect_deals, docs=docs_link(run.folder),
        progress=lambda done: run.prog.tick(done / units), play=run.play)
    run.prog.next()
    return [md], effect.hands_simulated


def _rules_section(run: _Run) -> tuple[list[str], int]:
    """Section 5: what each rule option changes (``analyzer.questions.impact``)."""
    units = total_units(run.variants, None, *impact_sizes(run.sizes.deals))
    md, impact = impact_report_section(
        run.folder, run.sizes.deals, run.seed, run.threads, run.variants, number=f"{RULES_SECTION}. ",
        note=IMPACT_NOTE, progress=lambda done: run.prog.tick(done / units), play=run.play)
    run.results["impact"] = impact
    run.prog.next()
    return [md], impact.hands_simulated


def _bracket_section(run: _Run) -> tuple[list[str], int]:
    """Section 6: the stronger players' bracket (``bracket_section``); ``{COST}`` where its measured
    cost goes."""
    r = run.results
    md, hands, brackets, table_brackets, balance_alt = bracket_section(
        run.folder, run.sizes, run.seed, run.threads, run.examples, r["take_results"], r["tables"].get("classic"),
        run.prog.tick, balance=r["balance"], bid=run.bid, play=run.play)
    r.update(brackets=brackets, table_brackets=table_brackets, balance_alt=balance_alt)
    run.prog.next()
    return [heading(BRACKET_SECTION), "", md], hands


def _score_section(run: _Run) -> tuple[list[str], int]:
    """Section 7: how the game score moves the take point (``analyzer.questions.take_point``)."""
    games, per_region = score_sizes(run.sizes)
    md = [heading(SCORE_SECTION), "",
          "Games are won to a target (1000 in classic and Piekjas 4, 700 in Piekjas 3, 500 in Piekjas 2 and "
          "Dekjas), so the question near the end is not how many points a hand brings but how it moves the "
          "chance to win the game. For each region of the score, seen from voorhand's side (level, ahead or "
          "behind by a fifth of the target or more, each far from or within a fifth of the target: 200 points in "
          "classic), states that real "
          f"games pass through ({games:,} games a variant) are dealt fresh cards, and voorhand's round-1 call "
          f"is played both ways, pass and take, on the same cards ({per_region:,} deals a region): the chance to "
          "win the game after each comes from the game-equity table (`belote equity`). The *take point* is the "
          "weakest strength (the bidder's score of the hand in the turned suit; the bidding tables' strength) "
          "from which taking raises that chance; its 95% interval comes from resampled deals. `belote table "
          "--score` gives one variant.", ""]
    results, hands = {}, 0
    for k, lab in enumerate(run.variants):
        rules = Rules.from_label(lab)
        cfg = SimConfig(rules=rules, policies=run.pols(rules), seed=run.seed, threads=run.threads)
        tp = take_points(cfg, equity_table(rules), games=games, per_region=per_region, seed=run.seed,
                         threads=run.threads, progress=lambda r, k=k: run.prog.tick((k + r / 6) / len(run.variants)))
        results[lab] = tp
        hands += int(games * HANDS_PER_GAME) + sum(2 * r.deals for r in tp.regions)
        md += take_points_markdown(tp)
    fig = take_point_overview(results)
    fig.savefig(run.folder / "take_point_by_score.png", dpi=110, bbox_inches="tight")
    md += ["![The take point by region of the score](take_point_by_score.png)", ""]
    run.results["score"] = results
    run.prog.next()
    return md, hands


# The report's sections in the order they run and are written (``SECTIONS``' numbers 1-6; the last,
# the files, is written once they are all there): (the key of its timings and hands, the section).
# Each returns its markdown and the hands it simulated, and leaves in ``_Run.results`` what the
# sections after it and the first page read; a ``{COST}`` in its markdown becomes its measured cost.
REPORT_SECTIONS = (("take", _take_section), ("table", _table_section), ("balance", _balance_section),
                   ("calibration", _calibration_section), ("rules", _rules_section), ("bracket", _bracket_section),
                   ("score", _score_section))


def _write(folder: Path, sizes: Sizes, seed: int, threads, progress, examples, variants, bid=None,
           play: str = "heuristic", lang: str = "en") -> dict:
    started = datetime.now(timezone.utc)
    t_start = time.perf_counter()
    run = _Run(folder, sizes, seed, threads, examples, variants, bid, play,
               CostProgress(planned_seconds(sizes, examples, variants, play), progress), set_threads(threads))
    timings, hands, sections = {}, {}, []
    for name, section in REPORT_SECTIONS:
        t0, cpu0 = time.perf_counter(), time.process_time()
        text, hands[name] = section(run)
        timings[name] = time.perf_counter() - t0
        timings[name + "_cpu"] = time.process_time() - cpu0  # every section's: what the plan's prices are fitted to
        text = "\n".join(text)
        if "{COST}" in text:
            text = text.replace("{COST}", f"This section took {timings[name]:.0f} s of wall time and "
                                          f"{timings[name + '_cpu']:.0f} s of CPU on {run.used_threads} thread(s).")
        sections.append(text)
    # ---- index.md and run.json ----
    finished = datetime.now(timezone.utc)
    total_hands = sum(hands.values())
    wall = time.perf_counter() - t_start
    commit = git_commit()
    policies, results, used_threads = run.policies, run.results, run.used_threads
    rules_opts = {lab: Rules.from_label(lab).options() for lab in variants}
    docs = docs_link(folder)
    bidders = {lab: describe_bid(policies[lab], Rules.from_label(lab)) for lab in variants}
    md = []
    md.append(f"# Belote analyser report (seed {seed})")
    md.append("")
    md.append(f"belote-analyzer {analyzer.__version__}, commit `{commit or 'unknown'}`, "
              f"{finished.strftime('%Y-%m-%d %H:%M UTC')}. {total_hands:,} hands simulated in {wall:.0f} s "
              f"on {used_threads} thread(s).")
    md.append("")
    md.extend(findings_page(folder, results["take_all"], results["tables"], results["balance"], results["impact"],
                            results["brackets"], results["table_brackets"], results["balance_alt"], run.play, lang))
    md.append(f"**Policies** (sections 1-5): every seat plays with the `{run.play}` play policy ({PLAYERS_IN_WORDS[run.play]}) "
              "and bids with "
              + (f"the `calibrated` policy shipped for its variant and a seat that plays {run.play}: the heuristic's "
                 "hand-strength score per suit against thresholds by round and seat calibrated to a fixed point, so "
                 "that each seat takes where the bidding tables say taking pays against a field of the same bidders "
                 f"([docs/CALIBRATION.md]({docs}/CALIBRATION.md); section 4 compares them with the uncalibrated "
                 "heuristic). The bidders of each variant:" if all(set(policies[lab].bid) == {"calibrated"}
                                                                   for lab in variants)
                 else "these bidding policies (section 4 compares the calibrated and the heuristic bidders):"))
    md.append("")
    md.extend(f"- {lab}: {bidders[lab]}" for lab in variants)
    md.append("")

    md.extend(score_findings(results.get("score", {}), SCORE_SECTION, anchor(SCORE_SECTION, SECTIONS[SCORE_SECTION - 1])))
    md.append(f"**Rules**: as written in [docs/RULES.md]({docs}/RULES.md) (the deal order and the deal log: "
              f"[docs/DEAL_LOG.md]({docs}/DEAL_LOG.md)), each variant with its default rule options, in force "
              "for every number below:")
    md.append("")
    md.extend(rules_markdown(rules_opts))
    md.append("")
    md.append("**Sizes**: " + f"`take` {sizes.take_deals:,} paired deals per example; `table` {sizes.table_deals:,} "
              f"deals per variant; `balance` {sizes.deals:,} hands and {sizes.games:,} games per variant.")
    md.append("")
    md.append("**How to read the numbers**: every rate and mean comes with its n and its 95% interval, written "
              "either `[lo, hi]` (the interval) or `± h` (h = the 95% half-width, written only where both sides of the "
              "interval round to h: a lopsided one, near 0% or 100%, is always `[lo, hi]`; ± never means a standard "
              "deviation, which is written `sd`). Rates are Wilson intervals, means normal ones; a small rate gets one more "
              "decimal where its half-width would round to zero. Comparisons (a call against passing, taking against "
              "passing) are paired: both are played on the same deals with the same random stream, and the interval is "
              "that of the mean per-deal difference. `score` is the hand score of the player's side; `net` is that "
              "score minus the best other side's score. Net is what wins games: a dedans costs the points it hands to "
              "the defenders, which the score does not see. Verdicts rank calls by net.")
    md.append("")
    md.append("## Contents")
    md.append("")
    md.extend(f"{k}. [{title}](#{anchor(k, title)})" for k, title in enumerate(SECTIONS, start=1))
    md.append("")
    md.extend(sections)
    md.append(heading(len(SECTIONS)))
    md.append("")
    for p in sorted(folder.iterdir()):
        if p.is_file():
            md.append(f"- `{p.name}`")
    md.append("- `index.html`: this report as a web page (plots shown, tables sorted by a click on a heading)")
    md.append("- `run.json`: version, commit, seed, parameters, timings, hands simulated")
    md.append("")
    (folder / "index.md").write_text("\n".join(md))
    write_html(folder)
    return {
        "schema": "belote-report/1",
        "version": analyzer.__version__,
        "git_commit": commit,
        "seed": seed,
        "parameters": {
            "deals": sizes.deals, "table_deals": sizes.table_deals, "games": sizes.games,
            "take_deals": sizes.take_deals, "variants": list(variants),
            "examples": [ex.__dict__ for ex in examples],
            "policies": {lab: policies[lab].describe() for lab in variants},
            "bid_policy": {lab: bid_provenance(policies[lab], Rules.from_label(lab)) for lab in variants},
            "effect_deals": sizes.effect_deals, "effect_games": sizes.effect_games,
            "bracket_deals": sizes.bracket_deals, "bracket_table_deals": sizes.bracket_table_deals,
            "net_balance_deals": sizes.net_balance_deals, "net_balance_games": sizes.net_balance_games,
            "rules_deals": impact_sizes(sizes.deals)[0], "rules_games": impact_sizes(sizes.deals)[1],
            "rules": rules_opts, "threads": used_threads, "lang": lang,
        },
        "timings": {k: round(v, 3) for k, v in timings.items()} | {"total": round(wall, 3)},
        "hands_simulated": hands | {"total": total_hands},
        "started": started.isoformat(timespec="seconds"),
        "finished": finished.isoformat(timespec="seconds"),
        "platform": {"python": platform.python_version(), "machine": platform.machine(),
                     "numba": _version("numba"), "numpy": np.__version__, "cpus": os.cpu_count()},
    }


def findings_page(folder: Path, take_all: pd.DataFrame, tables: dict, balance, impact, brackets=(),
                  table_brackets=(), balance_alt=None, play: str = DEFAULT_PLAY, lang: str = "en") -> list[str]:
    """The first page: the summary in ``lang`` (``analyzer.output.summary``; the other language's
    written beside as ``summary_<lang>.md``), then the findings (``analyzer.output.findings``) from
    the frames of the sections they link, with one picture per question (the break-even overview
    drawn here, the others the sections')."""
    links = findings_links()
    seat_classes = {}
    for lab, t in tables.items():
        seat_classes[lab] = t.view(["round", "seat", "honours", "side_aces"])
        seat_classes[lab].to_csv(folder / f"table_{lab}_seat_honours_aces.csv", index=False)
    other = "nl" if lang == "en" else "en"
    (folder / f"summary_{other}.md").write_text(
        "\n".join(S.markdown(balance.seat_table(), seat_classes, impact.table(), {k: "index.md" + v for k, v in links.items()},
                             other, other="index.md")) + "\n")
    summary = S.markdown(balance.seat_table(), seat_classes, impact.table(), links, lang, other=f"summary_{other}.md")
    found = F.take_findings(take_all, links["take"])
    for lab, t in tables.items():
        found += F.when_findings(lab, t.break_even(), t.strength(), links["when"])
        by_class = t.view(["round", "honours", "side_aces"])
        by_class.to_csv(folder / f"table_{lab}_honours_aces.csv", index=False)
        found += F.class_findings(lab, by_class, links["when"])
    found += F.balance_findings(balance.seat_table(), links["balance"])
    found += F.rules_findings(impact.table(), links["rules"])
    if brackets:
        rows = F.bracket_rows(brackets)
        rows.to_csv(folder / "bracket_examples.csv", index=False)
        found += F.bracket_findings(rows, links["bracket"])
    if balance_alt is not None:  # the bracket section's balance under the other cheap player
        found += F.other_balance_findings(balance.seat_table(), balance_alt.seat_table(), links["bracket"], play,
                                          other_cheap(play))
    for tb in table_brackets:
        found += F.table_bracket_findings(tb.rules.label, tb.summary(), tb.plays, tb.by, tb.min_n, links["bracket"])
    P.save(P.break_even_overview({lab: t.break_even() for lab, t in tables.items()}), folder / "findings_break_even.png")
    return summary + F.markdown(found, links, findings_pictures(folder))


FINDINGS_PICTURES = {"take": "take_examples.png", "when": "findings_break_even.png", "balance": "balance_win.png",
                     "rules": "rules_headline.png", "bracket": "table_bracket_classic.png"}  # the first page's picture for each question


def findings_links() -> dict[str, str]:
    """The section each question of the first page links."""
    return {"take": "#" + anchor(1, SECTIONS[0]), "when": "#" + anchor(2, SECTIONS[1]),
            "balance": "#" + anchor(3, SECTIONS[2]), "rules": "#" + anchor(RULES_SECTION, SECTIONS[RULES_SECTION - 1]),
            "bracket": "#" + anchor(BRACKET_SECTION, SECTIONS[BRACKET_SECTION - 1])}


def findings_pictures(folder: Path) -> dict[str, str]:
    """The first page's pictures that the report folder holds."""
    return {k: v for k, v in FINDINGS_PICTURES.items() if (Path(folder) / v).exists()}


def bracket_section(folder: Path, sizes: Sizes, seed: int, threads, examples, take_results, classic_table,
                    tick, balance=None, bid=None, play: str = DEFAULT_PLAY) -> tuple:
    """Section 6: each example under every policy of its bracket (heuristic, net, PIMC and double dummy
    where affordable) beside the answer of section 1 under the report's ``play``, the classic bidding
    table of section 2 under the same policies, and the balance of the variants of section 3 (``balance``)
    under the other cheap player (``other_cheap``); the markdown (with ``{COST}`` where the section's
    measured cost goes), the hands simulated, the examples' brackets and the table's, and that balance
    (``None`` without ``balance``). Every column bids as the report's ``play`` does (its calibrated file)."""
    labels = [v.rules.label for v in balance.variants] if balance is not None else []
    plan = {name: sec for name, _, sec in bracket_plan(sizes, examples, labels, play=play)}
    total = sum(plan.values()) or 1.0
    spent = [0.0]
    other = other_cheap(play)

    def step(name, plays):
        before = {}
        acc = 0.0
        for p in plays:  # the runs in the order analyse_bracket / table_bracket make them
            before[p] = acc
            acc += plan.get(f"{name} {p}", 0.0)

        def progress(p, done, n):
            tick((spent[0] + before.get(p, 0.0) + plan.get(f"{name} {p}", 0.0) * done / max(1, n)) / total)
        return progress

    out = [f"Every number above is played by `{play}` in every seat. Here the same questions are played by the "
           "other players, in every seat, on the same deals (the same seed; the deals do not depend on how the "
           "hands are played) and with the same bidders: `heuristic` (hand-written rules: draw trumps as taker, "
           "cash masters, load the partner, win cheaply, throw cheap; about fifteen times as fast as net), `net` "
           "(the learned player: a score of each legal card over features its seat can see and their pairs, "
           "trained on pimc's own evaluation), `pimc` (samples the cards it cannot see, consistent with what its "
           "seat knows, and plays the card that does best on average) and `dd` (double dummy: every seat sees "
           "every card and plays perfectly, the optimistic end). The two cheap players play every deal, the same "
           "n. A verdict that holds under all of them does not hang on how well the hands are played. The "
           "searching policies cost milliseconds (pimc) to a third of a second (classic dd) a hand, so "
           f"they play the first {_sizes_text(sizes.bracket_deals)} paired deals of each example and the first "
           f"{_sizes_text(sizes.bracket_table_deals)} deals of the classic table, each column with its n; `dd` is "
           "left out in piekjas 3-4 and dekjas, where its search from the first trick runs at 0.3-0.4 hands a "
           "second. Those deals are the heuristic's first, so every searching number is adjusted by the "
           "heuristic's on the same deals (a control variate: it moves by how far the heuristic's numbers on "
           "them fell from its whole sample, which narrows the interval); the plain numbers are shown beside "
           f"(left plain below {CV_MIN_N} shared deals). {{COST}}", ""]
    hands = 0
    brackets, table_brackets = [], []
    for k, (ex, r) in enumerate(zip(examples, take_results)):
        rules = r.situation.rules
        plays = bracket_columns(ex.label)
        strong = {p: sizes.bracket_deals[p] for p in plays if searches(p)}
        name = f"example {k + 1}"
        b = analyse_bracket(rules, ex.hand, ex.turned, ex.seat, ex.round, mine=ex.mine, theirs=ex.theirs,
                            plays=plays, deals=sizes.take_deals, strong_deals=strong, seed=derived_seed(seed, k),
                            bid=_bid_name(r.policies), threads=threads,
                            progress=step(name, [p for p in plays if p != play]), known={play: r}, bidders_of=play)
        spent[0] += sum(sec for n, sec in plan.items() if n.startswith(name + " "))
        hands += sum(x.hands for p, x in zip(plays, b.results) if p != play)
        brackets.append(b)
        cmd = (take_table.command(r, sizes.take_deals, derived_seed(seed, k)).replace(f" --play {play}", "")
               + " --bracket --bracket-plays " + ",".join(plays) + " --bracket-deals "
               + ",".join(f"{p}={v}" for p, v in strong.items())
               + (f" --bracket-bidders {play}" if play != DEFAULT_PLAY else ""))
        out += bracket_markdown(b, f"{k + 1}. {take_table.situation_text(r.situation)}", cmd)
    if classic_table is not None:
        cfg = classic_table.config
        plays = default_plays(cfg.rules)[0]
        tb = table_bracket(cfg.rules, plays=plays, deals=classic_table.deals, strong_deals=sizes.bracket_table_deals,
                           seed=seed, bid=_bid_name(cfg.policies), rounds=classic_table.rounds, threads=threads,
                           progress=step("classic table", [p for p in plays if p != play]),
                           known={play: classic_table}, min_n=BRACKET_MIN_N, bidders_of=play)
        hands += tb.hands
        table_brackets.append(tb)
        spent[0] += sum(sec for name, sec in plan.items() if name.startswith("classic table"))
        write_table_bracket(tb, folder)
        out += ["#### The classic bidding table under each play policy", "",
                "Reproduce these numbers:", "", "```",
                f"belote table --bracket --deals {classic_table.deals} --bracket-deals "
                + ",".join(f"{p}={v}" for p, v in sizes.bracket_table_deals.items()) + f" --seed {seed}"
                + (f" --bracket-bidders {play}" if play != DEFAULT_PLAY else ""), "```", "",
                table_bracket_markdown(tb).split("\n", 2)[2],
                f"![P(made) and net gain per class under each play policy](table_bracket_{cfg.rules.label}.png)", "",
                f"Files: `table_bracket_{cfg.rules.label}.csv` (and .parquet, `_summary`).", ""]
    alt = None
    if balance is not None:
        deals, games = other_balance_sizes(sizes, other)
        units = len(labels) * work(deals, games)
        alt = compare_variants(labels, deals=deals, games=games, seed=seed, bid=bid, play=other, threads=threads,
                               control=(0, 0),
                               progress=lambda done: tick((spent[0] + plan[f"balance {other}"] * done / max(1, units))
                                                          / total))
        hands += alt.hands_simulated
        alt.write(folder, prefix=f"balance_{other}")
        out += other_balance_markdown(balance, alt, play, other)
    return "\n".join(out), hands, brackets, table_brackets, alt


def other_balance_markdown(ref, alt, play: str, other: str) -> list[str]:
    """The balance of the variants under the other cheap player (``alt``, played by ``other``) beside
    section 3's under the report's ``play`` (``ref``): each seat's take rates, made rate, advantage and
    P(win), with their intervals and n (two samples of the same seed's first deals and games, each bid by
    its own player's calibrated bidders)."""
    h = ref.seat_table().set_index(["variant", "seat"])
    share = (f" (1/{NET_BALANCE_SHARE} of section 3's: a net hand costs about fifteen heuristic ones, so the "
             "intervals are wider)" if other == "net" else " (as many as section 3's)")
    out = [f"#### The balance of the variants under {other}", "",
           f"Section 3 again with `{other}` playing every seat, on the first {alt.deals:,} deals and "
           f"{alt.n_games:,} games of each variant{share}; each cell is {play} → {other}, two samples of the same "
           "seed (not paired: the bidders differ, so the hands do too). " + balance_bidders_line(alt), "",
           "| variant | seat | takes r1 / r2 | made when it takes | advantage | P(win) |", "|---|---|---|---|---|---|"]
    has_games = "p_win" in alt.seat_table() and "p_win" in ref.seat_table()
    for r in alt.seat_table().itertuples():
        a = h.loc[(r.variant, r.seat)]
        line = (f"| {r.variant} | {r.seat} {r.seat_name} | {100 * a.take_r1:.1f}% / {100 * a.take_r2:.1f}% "
                f"(n={int(a.hands):,}) → {ci_pct(r.take_r1, r.take_r1_lo, r.take_r1_hi)} / "
                f"{ci_pct(r.take_r2, r.take_r2_lo, r.take_r2_hi)} (n={r.hands:,}) | "
                f"{ci_pct(a.made_when_takes, a.made_when_takes_lo, a.made_when_takes_hi)} (n={int(a.takes):,}) → "
                f"{ci_pct(r.made_when_takes, r.made_when_takes_lo, r.made_when_takes_hi)} (n={r.takes:,}) | "
                f"{a.advantage:+.2f} [{a.advantage_lo:+.2f}, {a.advantage_hi:+.2f}] → {r.advantage:+.2f} "
                f"[{r.advantage_lo:+.2f}, {r.advantage_hi:+.2f}] (n={r.hands:,}) |")
        if has_games:
            line += (f" {ci_pct(a.p_win, a.p_win_lo, a.p_win_hi)} (n={int(a.games):,}) → "
                     f"{ci_pct(r.p_win, r.p_win_lo, r.p_win_hi)} (n={r.games:,}) |")
        else:
            line += " — |"
        out.append(line)
    out += ["", f"Files: `balance_{other}_seats.csv`, `balance_{other}_hands.csv`, `balance_{other}_games.csv`, "
            f"`balance_{other}_hands_per_game.csv` (and .parquet).", ""]
    return out


def _sizes_text(n: dict) -> str:
    return " and ".join(f"{v:,} ({p})" for p, v in n.items())


def _bid_name(policies) -> str:
    bid = policies.describe()["bid"]
    return bid if isinstance(bid, str) else ",".join(f"{k}={v}" for k, v in bid.items())


def bracket_markdown(b: Bracket, title: str, command: str | None = None) -> list[str]:
    """One example's bracket as ``take --bracket`` shows it: a row per call and statistic, a
    column per play policy (its n), each policy's verdict and the bracket's."""
    out = [f"#### {title}", ""]
    if command:
        out += ["Reproduce these numbers:", "", "```", command, "```", ""]
    cols = b.columns()
    out.append("| call | | " + " | ".join(f"{p} (n={r.n:,})" for p, r in cols) + " |")
    out.append("|---|---|" + "---|" * len(cols))
    for label, name, cells in take_table.bracket_rows(b):
        out.append(f"| {label} | `{name}` | " + " | ".join(take_table.cell(v) for v in cells) + " |")
    out.append("")
    out += [f"- {p}: {r.verdict()}" for p, r in zip(b.plays, b.results)]
    out += [f"- {line}" for line in take_table.control_notes(b)]
    out += ["", f"**Bracket:** {b.verdict()}", ""]
    return out


def _version(mod: str) -> str | None:
    try:
        return __import__(mod).__version__
    except Exception:  # pragma: no cover - informational only
        return None


__all__ = ["make_report", "ReportResult", "EXAMPLES", "Example", "Sizes", "default_name", "examples_for", "check_writable",
           "take_frame", "take_markdown", "git_commit", "seat_name"]
