"""``belote report``: take, table and balance as one report folder.
"""

from __future__ import annotations

from pathlib import Path
from typing import Optional

import typer

from analyzer.cli.common import backend, command_line, compiling_notice, print_json, progress_bar, run_inputs
from analyzer.cli.options import Cluster, Json, Quiet, Resume, RunDir, Scheduler, Seed, Threads
from analyzer.runs.limits import MAX_DEALS


def report(
    out: Optional[Path] = typer.Option(None, "--out", help="The report folder (default: reports/report-deals<N>-seed<S>)."),
    deals: int = typer.Option(2_000_000, "--deals", min=1, max=MAX_DEALS,
                              help="Hands per variant for balance; table uses deals/2 per variant, games deals/40, "
                              "take deals/20 per example."),
    seed: Seed = 1,
    bid: Optional[str] = typer.Option(
        None, "--bid", show_default="calibrated", help="Bidding policy of the examples, tables and balance, for "
        "every seat: calibrated (each variant's shipped policy), heuristic or random. Section 4 compares the "
        "calibrated and the heuristic bidders either way."),
    variants: Optional[str] = typer.Option(
        None, "--variants", show_default="every variant", help="Comma-separated variants to report on (classic, "
        "piekjas2, piekjas3, piekjas4, dekjas), with their example hands: a smaller, quicker report."),
    threads: Threads = None,
    cluster: Cluster = None,
    scheduler: Scheduler = None,
    run_dir: RunDir = None,
    resume: Resume = False,
    as_json: Json = False,
    quiet: Quiet = False,
):
    """The main job: take (example hands), table (every variant) and balance, as one report.

    Writes index.md, which opens with a page of findings (each with its number and interval,
    written from the report's own numbers), plots embedded, every number with its n and CI,
    the policies and rule options used; index.html, the same as a web page; CSV and Parquet
    tables, PNG plots and run.json (version, commit, seed, parameters, timings, hands
    simulated). The folder appears only when complete. Every
    seat bids with the calibrated policy of its variant; the report also shows what
    calibration changes against the heuristic bidders, what each rule option changes, and
    the bracket: the examples and the classic table under PIMC and double dummy play (small
    samples, their n shown; a few minutes of the report's time).

    Examples:

      belote report

      belote report --deals 200000 --seed 7 --out reports/quick

      belote report --bid heuristic

      belote report --variants classic --deals 100000
    """
    from analyzer.output.report import check_writable, default_name, examples_for, make_report
    from analyzer.questions.balance import parse_variants

    some = {}
    if variants is not None:
        labels = tuple(r.label for r in parse_variants(variants))
        some = {"variants": labels, "examples": examples_for(labels)}
    check_writable(out if out is not None else
                   Path("reports") / default_name(deals, seed, bid, some.get("variants")))  # before any work
    compiling_notice("report", quiet)
    recorded = run_inputs(out=out, deals=deals, seed=seed, bid=bid, variants=variants)
    with backend(cluster, scheduler, run_dir, resume, "report", recorded, quiet), \
            progress_bar(deals, quiet, "report", count=False) as update:  # units: planned ms (CostProgress)
        r = make_report(out, deals=deals, seed=seed, threads=threads, progress=update, command=command_line(), bid=bid,
                        **some)
    if as_json:
        print_json({"command": command_line(), "path": str(r.path), "run": r.run})
        return
    typer.echo(f"report written to {r.path}/index.md (and index.html): {r.run['hands_simulated']['total']:,} hands in "
               f"{r.run['timings']['total']:.0f} s")
