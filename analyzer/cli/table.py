"""``belote table``: the bidding tables, which hands should take, by what a player recognises
(``--bracket``: under each play policy).
"""

from __future__ import annotations

from pathlib import Path
from typing import Optional

import typer

from analyzer.cli.common import (
    backend,
    bars_per_policy,
    command_line,
    compiling_notice,
    make_rules,
    print_json,
    progress_bar,
    run_inputs,
    save,
    staged,
    unit_progress,
)
from analyzer.cli.options import (
    BidCalibrated,
    Cluster,
    Json,
    Play,
    Players,
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
from analyzer.players.bidding import SCORE_REGIONS
from analyzer.players.costs import DD_PLAY_COST
from analyzer.players.equity import equity_table
from analyzer.players.policies import DEFAULT_PLAY, Policies
from analyzer.runs.limits import MAX_DEALS


def table(
    variant: VariantOption = Variant.classic,
    players: Players = None,
    deals: Optional[int] = typer.Option(None, "--deals", min=1, max=MAX_DEALS, show_default=False,
                                        help="Deals to sample [default: 200,000; with --score 20,000 a region]."),
    score: bool = typer.Option(
        False, "--score", help="Instead: how the game score moves the take point. By region of the score (level, "
        "ahead, behind, near the target or not), from which strength taking the turned suit as voorhand raises the "
        "chance to win the game (the equity table), on states real games pass through; --out draws the curves."),
    rounds: int = typer.Option(2, "--rounds", min=1, max=2, help="Bidding rounds to tabulate: 1, or 2 for both."),
    out: Optional[Path] = typer.Option(None, "--out", help="Write CSV, Parquet, heatmap PNGs and a markdown table here."),
    seed: Seed = 1,
    bid: BidCalibrated = None,
    play: Play = None,
    rule: RuleOptions = None,
    threads: Threads = None,
    cluster: Cluster = None,
    scheduler: Scheduler = None,
    run_dir: RunDir = None,
    resume: Resume = False,
    bracket: bool = typer.Option(
        False, "--bracket", help="The table under each policy of --bracket-plays (every seat) side by side, on "
        "the same deals: per class P(made), P(dedans), P(capot), P(pit) and the net gain of taking, each policy's "
        "gain paired against the first's, and whether taking pays flips between them."),
    bracket_plays: Optional[str] = typer.Option(
        None, "--bracket-plays", help="The play policies of --bracket, weakest first. Default: heuristic,net,pimc,dd "
        "(classic, piekjas 2), heuristic,net,pimc (piekjas 3-4, dekjas: dd is too slow there)."),
    bracket_deals: Optional[str] = typer.Option(
        None, "--bracket-deals", show_default="pimc=2500,dd=150", help="Deals of the searching policies of --bracket: one number "
        f"for all, or by policy (a table deal plays about 5 hands; dd: {DD_PLAY_COST}; about a minute each at "
        "the default on 2 threads); the others keep --deals as well."),
    bracket_by: Optional[str] = typer.Option(
        None, "--bracket-by", help="The class columns of --bracket: round, seat, honours, trump_length, "
        "side_aces, voids. Default: round,honours (a searching sample is small)."),
    bracket_bidders: Optional[str] = typer.Option(
        None, "--bracket-bidders", show_default="net", help="With --bracket: the player whose bidders every "
        "column bids with (--bid calibrated reads the file calibrated for that player's play). Default: net where "
        "it is a column, otherwise the first of --bracket-plays."),
    as_json: Json = False,
    quiet: Quiet = False,
):
    """Bidding tables: which hands should take, by what a player recognises.

    At every bidding decision the policies reach, the hand is played with that seat taking
    and with it passing, on the same deal. Classes: which of the trump J 9 A 10 are held,
    trump length, side aces, voids, seat and round. Per class: n, how often the policy
    takes, P(made), P(dedans), P(capot) and the net gain of taking with its 95% CI; the
    break-even strength; the rule of thumb "trump J and 9 plus one or two aces" in numbers.
    The bidders are the calibrated ones by default (--bid heuristic for the uncalibrated).

    Examples:

      belote table --deals 500000 --out reports/table-classic

      belote table --variant piekjas --players 3 --rounds 1 --json

      belote table --bracket --rounds 1 --deals 100000 --bracket-deals pimc=1000,dd=100

      belote table --score --variant piekjas --players 2 --out plots
    """
    # lazy: loads when the command runs, not for belote --help (0.3 s)
    from analyzer.output.files import write_table
    from analyzer.output.markdown import table_markdown
    from analyzer.players.policy_files import bid_note, default_bid
    from analyzer.questions.table import bidding_table
    from analyzer.runs.simulate import SimConfig

    rules = make_rules(variant, players, rule)
    if bracket and play is not None:
        raise BeloteError("--bracket sets the play policies: use --bracket-plays instead of --play")
    play = play or DEFAULT_PLAY
    if score:
        if bracket or run_dir is not None or resume or cluster or scheduler:
            raise BeloteError("--score runs on this machine under one play policy: leave out --bracket, --run-dir, "
                              "--resume, --cluster and --scheduler")
        _table_score(rules, bid or default_bid(rules, play), play, deals or 20_000, out, seed, threads, as_json, quiet)
        return
    deals = deals or 200_000
    note = bid_note(rules, bid, play)
    if bracket:
        if run_dir is not None or resume:
            raise BeloteError("--bracket runs are not recorded: drop --run-dir and --resume")
        _table_bracket(rules, bid or default_bid(rules, play), deals, bracket_deals, bracket_plays, bracket_by,
                       rounds, out, seed, threads, cluster, scheduler, as_json, quiet, bracket_bidders)
        return
    cfg = SimConfig(rules=rules, policies=Policies.parse(bid or default_bid(rules, play), play, rules.players),
                    deals=deals, seed=seed, threads=threads)
    with staged(out) as stage:  # the folder rule is checked before any work
        compiling_notice("table", quiet)
        recorded = run_inputs(  # note and, without --out, stage too: the names run folders have recorded them under
            variant=variant, players=players, deals=deals, rounds=rounds, out=out, seed=seed, bid=bid, play=play,
            rule=rule, bracket=bracket, bracket_plays=bracket_plays, bracket_deals=bracket_deals, bracket_by=bracket_by,
            note=note, **({"stage": None} if stage is None else {}))
        with backend(cluster, scheduler, run_dir, resume, "table", recorded, quiet), \
                progress_bar(deals, quiet, "tabulating") as update:
            with unit_progress(update):
                t = bidding_table(cfg, rounds=rounds, progress=update)
        files = []
        if stage is not None:
            files = save(stage, lambda folder: write_table(t, folder), {
                "command": command_line(), "seed": seed, "rules": rules.options(), "policies": cfg.policies.describe(),
                "variant": rules.label, "deals": deals, "rounds": rounds})
    if as_json:
        d = t.as_dict()
        d["files"] = files
        d["command"] = command_line()
        if note:
            d["inputs"]["bid_note"] = note
        print_json(d)
        return
    if note:
        typer.echo(f"({note})")
    typer.echo(table_markdown(t))
    typer.echo(f"{t.hands:,} hands in {t.seconds:.1f} s" + (f"; {len(files)} files written to {out}" if files else ""))


def _table_bracket(rules, bid, deals, bracket_deals, bracket_plays, bracket_by, rounds, out, seed, threads,
                   cluster, scheduler, as_json, quiet, bidders=None) -> None:
    """``table --bracket``: the bidding table under each play policy, one progress bar each."""
    # lazy: loads when the command runs, not for belote --help (0.3 s)
    from analyzer.output.files import write_table_bracket
    from analyzer.output.markdown import table_bracket_markdown
    from analyzer.questions.bracket import check_bidders, parse_plays
    from analyzer.questions.table_bracket import (
        check_sample,
        default_plays,
        parse_by,
        parse_deals,
        plan,
        sample_sizes,
        table_bracket,
    )

    plays = parse_plays(bracket_plays) if bracket_plays else default_plays(rules)[0]
    bidders = check_bidders(bidders, plays)
    by = parse_by(bracket_by)
    bracket_deals = parse_deals(bracket_deals) if bracket_deals else None
    sample_sizes(plays, bracket_deals, deals)  # a bad --bracket-deals is refused before anything (the compile too)
    with staged(out) as stage:  # the folder rule is checked before any work
        compiling_notice("table", quiet, searching=True)
        check_sample(rules, plays, deals, bracket_deals, seed=seed, bid=bid, rounds=rounds, by=by,
                     threads=threads, bidders_of=bidders)  # a sample too small to show a class: refused before the searching plays
        if not quiet:
            typer.echo(plan(rules, plays, deals, bracket_deals, rounds, threads), err=True)
        with backend(cluster, scheduler), bars_per_policy(quiet) as progress:
            b = table_bracket(rules, plays=plays if bracket_plays else None, deals=deals, strong_deals=bracket_deals,
                              seed=seed, bid=bid, rounds=rounds, by=by, threads=threads, progress=progress,
                              bidders_of=bidders)
        files = []
        if stage is not None:
            files = save(stage, lambda folder: write_table_bracket(b, folder), {
                "command": command_line(), "seed": seed, "rules": rules.options(),
                "policies": {p: pol.describe() for p, pol in zip(b.plays, b.policies)},
                "variant": rules.label, "deals": deals, "strong_deals": b.per_deal, "rounds": rounds})
    if as_json:
        d = b.as_dict()
        d["files"] = files
        d["command"] = command_line()
        print_json(d)
        return
    typer.echo(table_bracket_markdown(b))
    typer.echo(f"{b.hands:,} hands in {b.seconds:.1f} s" + (f"; {len(files)} files written to {out}" if files else ""))


def _table_score(rules, bid, play, per_region, out, seed, threads, as_json, quiet) -> None:
    """``table --score``: the take point by region of the game score (``questions.take_point``)."""
    # lazy: loads when the command runs, not for belote --help (0.3 s)
    from analyzer.output.equity import take_point_figure
    from analyzer.questions.take_point import take_points, take_points_text
    from analyzer.runs.simulate import SimConfig

    table = equity_table(rules)
    cfg = SimConfig(rules=rules, policies=Policies.parse(bid, play, rules.players), seed=seed, threads=threads)
    compiling_notice("table --score", quiet)
    with progress_bar(len(SCORE_REGIONS), quiet, "regions") as update:
        tp = take_points(cfg, table, per_region=per_region, seed=seed, threads=threads, progress=update)
    if out is not None:
        # lazy: loads when the command runs, not for belote --help (0.3 s)
        from analyzer.output.plots import save

        out.mkdir(parents=True, exist_ok=True)
        png = save(take_point_figure(tp), out / f"take_point_by_score_{rules.label}.png")
        if not quiet:
            typer.echo(f"wrote {png}", err=True)
    if as_json:
        d = tp.as_dict()
        d["command"] = command_line()
        d["policies"] = cfg.policies.describe()
        print_json(d)
        return
    typer.echo(take_points_text(tp))
    typer.echo(f"{tp.seconds:.1f} s; bid={bid} play={play}; seed {seed}.")
