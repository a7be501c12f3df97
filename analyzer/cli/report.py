"""``belote report``: take, table and balance as one report folder.
"""

from __future__ import annotations

from pathlib import Path
from typing import Optional

import typer

from analyzer.cli.common import backend, command_line, compiling_notice, print_json, progress_bar, run_inputs
from analyzer.cli.options import (
    Cluster,
    Json,
    Lang,
    OldVariants,
    Quiet,
    Resume,
    RunDir,
    Scheduler,
    Seed,
    Threads,
    VariantLabels,
    variant_labels,
)
from analyzer.errors import BeloteError
from analyzer.players.policies import DEFAULT_PLAY
from analyzer.runs.limits import MAX_DEALS


def report(
    out: Optional[Path] = typer.Option(None, "--out", help="The report folder (default: reports/report-deals<N>-seed<S>)."),
    deals: Optional[int] = typer.Option(
        None, "--deals", min=1, max=MAX_DEALS, show_default="1,200,000 under net, 2,000,000 under heuristic",
        help="Hands per variant for balance; table uses deals/2 per variant, games deals/40, take deals/20 per "
        "example."),
    seed: Seed = 1,
    bid: Optional[str] = typer.Option(
        None, "--bid", show_default="calibrated", help="Bidding policy of the examples, tables and balance, for "
        "every seat: calibrated (each variant's shipped policy), heuristic or random. Section 4 compares the "
        "calibrated and the heuristic bidders either way."),
    play: Optional[str] = typer.Option(
        None, "--play", show_default="net", help="The play policy of every seat in the examples, tables, balance, "
        "calibration and rule sections: net (the learned player, who plays about as well as pimc) or heuristic "
        "(the fast option: about 15 times faster, and weaker). The bracket section plays the others beside it."),
    variant: VariantLabels = None,  # with their example hands: fewer make a smaller, quicker report
    variants: OldVariants = None,
    lang: Lang = typer.Option(
        Lang.en, "--lang", help="The language of the report's opening summary (en or nl); the other one is written "
        "beside it as summary_<lang>.md. The sections stay in English."),
    threads: Threads = None,
    cluster: Cluster = None,
    scheduler: Scheduler = None,
    run_dir: RunDir = None,
    resume: Resume = False,
    as_json: Json = False,
    quiet: Quiet = False,
):
    """The main job: take (example hands), table (every variant) and balance, as one report.

    Writes index.md, which opens with a summary for a club organiser (which variant is the
    most balanced, from which cards taking pays at each seat, which house rules matter; in
    English or, with --lang nl, Dutch) and a page of findings (each with its number and
    interval, written from the report's own numbers), plots embedded, every number with its n and CI,
    the policies and rule options used; index.html, the same as a web page; CSV and Parquet
    tables, PNG plots and run.json (version, commit, seed, parameters, timings, hands
    simulated). The folder appears only when complete. Every seat plays net (the learned
    player; --play heuristic: the fast, weaker one) and bids with the policy calibrated for
    it in its variant; the report also shows what calibration changes against the heuristic
    bidders, what each rule option changes, and the bracket: the examples and the classic
    table under the other players, heuristic, net, PIMC and double dummy (the searching ones
    on small samples, their n shown; a few minutes of the report's time).

    Examples:

      belote report

      belote report --play heuristic    (the fast report: about 3 minutes on 2 cores where net's takes 6)

      belote report --deals 200000 --seed 7 --out reports/quick

      belote report --bid heuristic

      belote report --lang nl            (the opening summary in Dutch)

      belote report --variant classic --deals 100000    (one variant and its example hands: a quicker report)
    """
    # lazy: loads when the command runs, not for belote --help (0.3 s)
    from analyzer.output.report import DEALS_BY_PLAY, check_writable, default_name, examples_for, make_report
    from analyzer.questions.balance import parse_variants
    from analyzer.rules import ALL_LABELS

    some = {}
    labels = variant_labels(variant, variants)
    variants = None if labels is None or labels == ALL_LABELS else ",".join(labels)  # as run folders record it
    if variants is not None:
        labels = tuple(r.label for r in parse_variants(variants))
        some = {"variants": labels, "examples": examples_for(labels)}
    play = play or DEFAULT_PLAY
    if play not in DEALS_BY_PLAY:
        raise BeloteError(f'report --play "{play}": use {" or ".join(DEALS_BY_PLAY)} (one policy for every seat)')
    deals = DEALS_BY_PLAY[play] if deals is None else deals
    check_writable(out if out is not None else
                   Path("reports") / default_name(deals, seed, bid, some.get("variants"), play))  # before any work
    compiling_notice("report", quiet)
    recorded = run_inputs(out=out, deals=deals, seed=seed, bid=bid, variants=variants, play=play)
    with backend(cluster, scheduler, run_dir, resume, "report", recorded, quiet), \
            progress_bar(deals, quiet, "report", count=False) as update:  # units: planned ms (CostProgress)
        r = make_report(out, deals=deals, seed=seed, threads=threads, progress=update, command=command_line(), bid=bid,
                        play=play, lang=lang.value, **some)
    if as_json:
        print_json({"command": command_line(), "path": str(r.path), "run": r.run})
        return
    typer.echo(f"report written to {r.path}/index.md (and index.html): {r.run['hands_simulated']['total']:,} hands in "
               f"{r.run['timings']['total']:.0f} s")
