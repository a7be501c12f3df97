"""``belote rules``: what each rule option changes, the same deals played under both readings.
"""

from __future__ import annotations

from pathlib import Path
from typing import List, Optional

import typer

from analyzer.cli.common import (
    backend,
    command_line,
    compiling_notice,
    console,
    print_json,
    progress_bar,
    run_inputs,
    save,
    staged,
)
from analyzer.cli.options import (
    Bid,
    Cluster,
    Json,
    Play,
    Quiet,
    Resume,
    RunDir,
    Scheduler,
    Seed,
    Threads,
    deprecated,
    variant_or_all,
)
from analyzer.players.policies import DEFAULT_PLAY, FAST_PLAY
from analyzer.runs.limits import MAX_DEALS


def rules(
    variant: Optional[str] = typer.Option(None, "--variant", show_default="all",
                                          help="Only this variant: classic, piekjas or dekjas; all: every variant."),
    players: Optional[int] = typer.Option(None, "--players", help="Only this player count (default: every count of "
                                          "the variant, e.g. piekjas 2, 3 and 4)."),
    option: Optional[List[str]] = typer.Option(None, "--option", help="Only this rule option (repeatable), e.g. "
                                               "--option undertrump. Default: every option that can change the variant."),
    deals: Optional[int] = typer.Option(None, "--deals", min=10, max=MAX_DEALS, show_default=False,
                                        help="Hands per reading (the same deals for both) [default: 50,000 (net); "
                                        "with --play heuristic 200,000]."),
    games: Optional[int] = typer.Option(None, "--games", min=0, max=MAX_DEALS, show_default=False,
                                        help="Whole games per reading, 0: hands only [default: 1,000 (net); with "
                                        "--play heuristic 4,000]."),
    out: Optional[Path] = typer.Option(None, "--out", help="Write CSV, markdown, the forest plot and run.json into "
                                       "this folder (new, empty, or an earlier output of belote, which is replaced)."),
    every: bool = typer.Option(False, "--every-difference", help="Also list the differences inside the noise."),
    all_rows: bool = typer.Option(False, "--all", hidden=True),  # the old spelling of --every-difference
    seed: Seed = 1,
    bid: Bid = "heuristic",
    play: Play = None,
    threads: Threads = None,
    cluster: Cluster = None,
    scheduler: Scheduler = None,
    run_dir: RunDir = None,
    resume: Resume = False,
    as_json: Json = False,
    quiet: Quiet = False,
):
    """What each rule option changes: the same deals played under both readings.

    For every rule option of every variant (and player count), the hands and whole games
    are played under the default and under the other reading with the same seed (paired),
    and the differences are reported with their 95% intervals: take rates, made / dedans /
    tie, capot / pit, roem, mean hand scores, seat advantage, game length and P(win).
    Also the four changes of rules revision 2, before → after. Listed: the differences
    beyond the noise (interval excluding 0), largest first.

    Examples:

      belote rules

      belote rules --variant classic --option undertrump --deals 500000

      belote rules --variant piekjas --players 3 --games 20000 --out reports/rules-piekjas3 --json
    """
    # lazy: loads when the command runs, not for belote --help (0.3 s)
    from analyzer.cli import render
    from analyzer.output.files import write_impact
    from analyzer.questions.impact import SIZES_BY_PLAY, compare_rules, parse_labels, total_units

    play = play or DEFAULT_PLAY
    if all_rows:
        deprecated("--all", "--every-difference")
    all_rows = all_rows or every
    variant = variant_or_all(variant)
    sizes = SIZES_BY_PLAY.get(play.partition(":")[0], SIZES_BY_PLAY[FAST_PLAY])
    deals = sizes[0] if deals is None else deals
    games = sizes[1] if games is None else games
    labels = parse_labels(variant.value if variant else None, players)
    with staged(out) as stage:  # the folder rule is checked before any work
        compiling_notice("rules", quiet)
        recorded = run_inputs(  # labels and, without --out, stage too: the names run folders have recorded them under
            variant=variant, players=players, option=option, deals=deals, games=games, out=out, all_rows=all_rows,
            seed=seed, bid=bid, play=play, labels=labels, **({"stage": None} if stage is None else {}))
        with backend(cluster, scheduler, run_dir, resume, "rules", recorded, quiet), \
                progress_bar(total_units(labels, option, deals, games), quiet, "comparing") as update:
            r = compare_rules(labels, option, deals=deals, games=games, seed=seed, bid=bid, play=play,
                              threads=threads, progress=update)
        files = []
        if stage is not None:
            inputs = r.inputs()
            files = save(stage, lambda folder: write_impact(r, folder), {
                "command": command_line(), "seed": seed, "deals": deals, "games": games,
                "rules": {c["variant"] + ": " + c["option"]: {"a": c["rules_a"], "b": c["rules_b"]}
                          for c in inputs["comparisons"]},
                "policies": inputs["policies"]})
    if as_json:
        print_json({"command": command_line(), **r.as_dict(), "files": files})
        return
    render.rules(r, all_rows)
    console().print(f"{r.hands_simulated:,} hands in {r.seconds:.1f} s"
                     + (f"; {len(files)} files written to {out}" if files else ""), style="dim")
