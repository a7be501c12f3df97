"""``belote simulate``: hands simulated and counted, rates with their intervals (``--log``: the
first hands as a deal log); and ``belote show``, which shows a logged deal as a person reads it.
"""

from __future__ import annotations

from contextlib import nullcontext
from pathlib import Path
from typing import Optional

import typer

from analyzer.cli.common import (
    backend,
    command_line,
    compiling_notice,
    console,
    hold,
    make_rules,
    print_json,
    progress_bar,
    run_inputs,
    searching,
    unit_progress,
)
from analyzer.cli.options import (
    Bid,
    Cluster,
    Json,
    Lang,
    LangOption,
    Players,
    PlayHeuristic,
    Quiet,
    Resume,
    RuleOptions,
    RunDir,
    Scheduler,
    Seed,
    Threads,
    Variant,
    VariantOption,
)
from analyzer.errors import BeloteError
from analyzer.players.policies import Policies
from analyzer.runs.limits import MAX_DEALS
from analyzer.output.outdir import claimed_file


def simulate(
    variant: VariantOption = Variant.classic,
    players: Players = None,
    deals: int = typer.Option(1_000_000, "--deals", min=1, max=MAX_DEALS, help="Hands to simulate."),
    seed: Seed = 1,
    bid: Bid = "heuristic",
    play: PlayHeuristic = "heuristic",
    rule: RuleOptions = None,
    threads: Threads = None,
    cluster: Cluster = None,
    scheduler: Scheduler = None,
    run_dir: RunDir = None,
    resume: Resume = False,
    log: Optional[Path] = typer.Option(None, "--log", help="Write the first hands as belote-deal/1 JSON lines."),
    log_deals: int = typer.Option(1000, "--log-deals", min=1, max=MAX_DEALS, help="How many hands --log writes."),
    as_json: Json = False,
    quiet: Quiet = False,
):
    """Simulate hands and count what happens: takes, made / dedans, capot, scores by seat.

    Examples:

      belote simulate --deals 1000000

      belote simulate --variant piekjas --players 2 --bid 0=heuristic,1=random --json

      belote simulate --variant dekjas --deals 5000 --log dekjas.jsonl --log-deals 100
    """
    # lazy: loads when the command runs, not for belote --help (0.3 s)
    from analyzer.cli import render
    from analyzer.output.deallog import LOG_FILE, write_log
    from analyzer.runs.simulate import SimConfig, simulate as run
    from analyzer.runs.summary import summarize

    rules = make_rules(variant, players, rule)
    cfg = SimConfig(rules=rules, policies=Policies.parse(bid, play, rules.players), deals=deals, seed=seed,
                    threads=threads)
    # --log checked and held before any work: a bad path must not cost a simulation, nor a second run lose it
    with claimed_file(log, "--log", LOG_FILE) if log is not None else nullcontext():
        compiling_notice("simulate --log" if log is not None else "simulate", quiet,
                          searching(cfg.policies))
        recorded = run_inputs(variant=variant, players=players, deals=deals, seed=seed, bid=bid, play=play, rule=rule,
                            log=log, log_deals=log_deals)
        with backend(cluster, scheduler, run_dir, resume, "simulate", recorded, quiet) as where, \
                progress_bar(deals, quiet, "simulating") as update:
            with unit_progress(update):
                res = run(cfg, progress=update)
            where = where.describe()
        try:
            logged = write_log(log, cfg, log_deals) if log else 0
        except BeloteError as e:  # a full disk: the results are printed all the same, the error last
            hold(e)
            logged, log = 0, None
    summary = summarize(res)
    replayed = where.get("units_replayed", 0)  # hands read back from --run-dir: not simulated here
    per_s = (deals - replayed) / max(res.seconds, 1e-9)
    inputs = {
        "variant": rules.variant, "players": rules.players, "deals": deals, "seed": seed,
        "rules": rules.options(), "policies": cfg.policies.describe(),
    }
    if as_json:
        out = {
            "command": command_line(),
            "inputs": inputs,
            "counts": res.as_dict(),
            "rates": {k: v.as_dict() for k, v in summary.items()},
            "log": {"file": str(log), "deals": logged} if log else None,
            "timing": {"seconds": round(res.seconds, 4), "hands_per_s": round(per_s), "threads": res.threads,
                       **({} if run_dir is None else {"hands_simulated": deals - replayed, "hands_replayed": replayed}),
                       **({} if where["backend"] == "threads" else {"cluster": where})},
        }
        print_json(out)
        return
    render.simulate(summary, f"{rules.label}: {deals:,} hands, seed {seed}, bid={bid} play={play}")
    con = console()
    on = (f"{res.threads} thread(s)" if where["backend"] == "threads" else
          f"a Dask cluster of {where['workers']} worker(s) ({where['scheduler']})")
    rate = (f"all {deals:,} hands replayed from {run_dir}, none simulated" if replayed == deals else
            f"{per_s:,.0f} hands/s on {on}" + (f" over the {deals - replayed:,} hands simulated here "
                                                f"({replayed:,} replayed from {run_dir})" if replayed else ""))
    con.print(rate + (f"; {logged} hands logged to {log}" if log else ""))


def show(
    file: Path = typer.Argument(..., help="A deal log written with 'belote simulate --log'."),
    deal: Optional[int] = typer.Option(None, "--deal", help="Show only this deal number (default: the first)."),
    lang: LangOption = Lang.en,
    all_deals: bool = typer.Option(False, "--all", help="Show every deal in the file."),
):
    """Show a logged deal as a person reads it: hands, bids, tricks, declarations, scores. Each
    deal shown is replayed through the rules first; one they do not allow (a card played twice,
    a wrong winner or score, tricks missing) is refused in one line naming the file's line.

    Examples:

      belote simulate --deals 100 --log deals.jsonl && belote show deals.jsonl

      belote show deals.jsonl --deal 7 --lang nl
    """
    # lazy: loads when the command runs, not for belote --help (0.3 s)
    from analyzer.output.deallog import each_deal, find_deal
    from analyzer.output.show import render

    if not all_deals:
        typer.echo(render(find_deal(file, deal), lang.value))
        return
    for k, record in enumerate(each_deal(file)):  # one record at a time: a log of any size
        typer.echo(("\n" if k else "") + render(record, lang.value))
