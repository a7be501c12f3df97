"""``belote balance``: the variants compared, bidding, outcomes, seat advantage and whole games.
"""

from __future__ import annotations

from pathlib import Path
from typing import Optional

import typer

from analyzer.cli.common import (
    backend,
    command_line,
    compiling_notice,
    print_json,
    progress_bar,
    run_inputs,
    save,
    staged,
)
from analyzer.cli.options import (
    BidCalibrated,
    Cluster,
    Json,
    OldVariants,
    Play,
    Quiet,
    Resume,
    RuleOptions,
    RunDir,
    Scheduler,
    Seed,
    Threads,
    VariantLabels,
    variant_labels,
)
from analyzer.players.policies import DEFAULT_PLAY
from analyzer.rules import ALL_LABELS, Rules
from analyzer.runs.limits import MAX_DEALS


def balance(
    variant: VariantLabels = None,
    variants: OldVariants = None,
    deals: Optional[int] = typer.Option(
        None, "--deals", min=1, max=MAX_DEALS, show_default=False,
        help="Hands per variant [default: 450,000 (net); with --play heuristic 1,000,000; pimc 20,000; dd 200]."),
    games: Optional[int] = typer.Option(
        None, "--games", min=0, max=MAX_DEALS, show_default=False,
        help="Whole games per variant, 0: hands only [default: 9,000 (net); with --play heuristic 20,000; pimc 1,000; "
        "dd 10]."),
    out: Optional[Path] = typer.Option(None, "--out", help="Write CSV, Parquet, PNG plots and balance.md here."),
    seed: Seed = 1,
    bid: BidCalibrated = None,
    play: Play = None,
    rule: RuleOptions = None,
    threads: Threads = None,
    cluster: Cluster = None,
    scheduler: Scheduler = None,
    run_dir: RunDir = None,
    resume: Resume = False,
    as_json: Json = False,
    quiet: Quiet = False,
):
    """Compare the variants: bidding, outcomes, seat advantage, and whole games.

    Per variant, on single hands: take rate by round, koe, smous offered / accepted,
    passed out, made / dedans / tie, capot for and against, mean score and spread per
    seat, each seat's advantage; on whole games to the target: P(win) by seat, hands per
    game. Every number with its n and 95% CI. The bidders are each variant's calibrated
    ones by default (--bid heuristic for the uncalibrated). Under a searching --play (pimc,
    dd) the heuristic also plays the same deals and 1,000,000 hands and 20,000 games more with
    the same bidders, and each number is adjusted by it (a control variate), the plain
    interval beside.

    Examples:

      belote balance --deals 1000000 --games 20000 --out reports/balance

      belote balance --variant classic --variant piekjas3 --rule undertrump=free --json

      belote balance --variant classic --variant piekjas2 --play pimc
    """
    # lazy: loads when the command runs, not for belote --help (0.3 s)
    from analyzer.cli import render
    from analyzer.output.files import write_balance
    from analyzer.players.policy_files import bid_note
    from analyzer.questions.balance import compare_variants, default_sizes, parse_variants, work

    play = play or DEFAULT_PLAY
    variants = ",".join(variant_labels(variant, variants) or ALL_LABELS)
    labels = [r.label for r in parse_variants(variants)]
    bid_notes = [bid_note(Rules.from_label(lab, rule or []), bid, play) for lab in labels]
    notes = {lab: n for lab, n in zip(labels, bid_notes) if n}
    sizes = default_sizes(play)
    deals = sizes[0] if deals is None else deals
    games = sizes[1] if games is None else games
    total = len(labels) * work(deals, games)
    with staged(out) as stage:  # the folder rule is checked before any work
        compiling_notice("balance", quiet)
        recorded = run_inputs(  # labels, total, stage without --out and n, the last variant's note, too: the
            # names run folders have recorded them under
            variants=variants, deals=deals, games=games, out=out, seed=seed, bid=bid, play=play, rule=rule,
            labels=labels, total=total, **({"stage": None} if stage is None else {}),
            **({"n": bid_notes[-1]} if bid_notes else {}))
        with backend(cluster, scheduler, run_dir, resume, "balance", recorded, quiet), \
                progress_bar(total, quiet, "simulating") as update:
            b = compare_variants(labels, deals=deals, games=games, seed=seed, bid=bid, play=play,
                                 rule_options=rule or [], threads=threads, progress=update)
        files = []
        if stage is not None:
            inputs = b.as_dict().get("inputs", {})
            files = save(stage, lambda folder: write_balance(b, folder), {
                "command": command_line(), "seed": seed, "rules": inputs.get("rules"),
                "policies": inputs.get("policies"), "variants": labels, "deals": deals, "games": games})
    if as_json:
        d = b.as_dict()
        d["files"] = files
        d["command"] = command_line()
        if notes:
            d["inputs"]["bid_note"] = notes
        print_json(d)
        return
    render.balance(b, labels, deals, games, seed, notes, files, out)
