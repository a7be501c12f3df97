"""``belote duel``: a duplicate duel, policy sets A and B on the same deals with the seats swapped.
"""

from __future__ import annotations

from typing import Optional

import typer

from analyzer.cli.common import backend, command_line, compiling_notice, make_rules, print_json, progress_bar, searching
from analyzer.cli.options import (
    Cluster,
    Json,
    Players,
    Quiet,
    RuleOptions,
    Scheduler,
    Seed,
    Threads,
    Variant,
    VariantOption,
)
from analyzer.errors import BeloteError
from analyzer.players.costs import DD_LOSS_COST
from analyzer.runs.limits import MAX_DEALS


def duel(
    a: str = typer.Option(..., "--a", help="Policy set A as BID/PLAY, e.g. heuristic/heuristic or "
                          "heuristic/taker=random,defence=heuristic (BID may be calibrated or a policy FILE)."),
    b: str = typer.Option(..., "--b", help="Policy set B as BID/PLAY, e.g. calibrated/heuristic."),
    variant: VariantOption = Variant.classic,
    players: Players = None,
    deals: int = typer.Option(100_000, "--deals", min=1, max=MAX_DEALS, help="Deals, each played once per seating."),
    games: Optional[int] = typer.Option(
        None, "--games", min=1, max=MAX_DEALS, help="Instead of single deals: whole games to the target, each "
        "played once per seating with the same deals in the same order; A's chance to win a game."),
    seed: Seed = 1,
    rule: RuleOptions = None,
    dd_loss: bool = typer.Option(False, "--dd-loss", help="Also value every card of the first --dd-deals deals "
                                 "with the exact solver: the double-dummy points each side gives away, by role."),
    dd_deals: int = typer.Option(200, "--dd-deals", min=1, max=MAX_DEALS,
                                 help=f"Deals whose play --dd-loss values (slow: {DD_LOSS_COST})."),
    threads: Threads = None,
    cluster: Cluster = None,
    scheduler: Scheduler = None,
    as_json: Json = False,
    quiet: Quiet = False,
):
    """Duplicate duel: A and B play the same deals with the seats swapped; A's margin over B.

    Classic: A on seats 0+2 and B on 1+3, then swapped; two players: A on seat 0, then on
    seat 1; Piekjas with 3-4 players: A on one seat and B on the others, A rotated through
    every seat. Every seating of a deal has the same cards and the same random stream.
    Reports A's mean margin a deal over B (its side's score minus the others' mean; two
    sides: A's score minus B's) with its 95% interval, split by whether A's side took or
    defended, and each side's take / made / dedans rates.

    Examples:

      belote duel --a heuristic/heuristic --b heuristic/random --deals 50000

      belote duel --variant dekjas --a calibrated/heuristic --b heuristic/heuristic --deals 200000

      belote duel --a heuristic/heuristic --b heuristic/taker=random,defence=heuristic --dd-loss --dd-deals 50

      belote duel --variant piekjas --players 3 --a heuristic/heuristic --b random/random --json

      belote duel --games 2000 --a score-aware/net --b calibrated/net
    """
    # lazy: loads when the command runs, not for belote --help (0.3 s)
    from analyzer.questions.duel import add_dd_loss, duel as run, parse_set

    rules = make_rules(variant, players, rule)
    sa, sb = parse_set(a, "--a", rules.players), parse_set(b, "--b", rules.players)
    if games is not None:
        if dd_loss or cluster or scheduler:
            raise BeloteError("--games plays whole games on this machine: leave out --dd-loss, --cluster and --scheduler")
        # lazy: loads when the command runs, not for belote --help (0.3 s)
        from analyzer.questions.duel_games import duel_games

        compiling_notice("duel --games", quiet, searching(sa.policies, sb.policies))
        n_seatings = 2 if rules.players == 2 or rules.partners else rules.players
        with progress_bar(games * n_seatings, quiet, "games") as update:
            g = duel_games(rules, sa, sb, games=games, seed=seed, threads=threads, progress=update)
        if as_json:
            d = g.as_dict()
            d["command"] = command_line()
            print_json(d)
        else:
            typer.echo(g.text())
        return
    compiling_notice("duel --dd-loss" if dd_loss else "duel", quiet,
                      searching(sa.policies, sb.policies))
    with backend(cluster, scheduler) as where:
        with progress_bar(deals, quiet, "dueling") as update:
            r = run(rules, sa, sb, deals=deals, seed=seed, threads=threads, progress=update)
        where = where.describe()
    if dd_loss:
        n_dd = min(dd_deals, deals)
        with progress_bar(n_dd, quiet, "double-dummy loss") as update:
            add_dd_loss(r, n_dd, update)
    if as_json:
        d = r.as_dict()
        d["command"] = command_line()
        if where["backend"] != "threads":
            d["cluster"] = where
        print_json(d)
        return
    # lazy: loads when the command runs, not for belote --help (0.3 s)
    from analyzer.output.duel_table import text

    typer.echo(text(r))
    typer.echo(f"{r.hands:,} hands in {r.seconds:.1f} s", err=False)
