"""``belote equity``: the chance of winning the game from the score, shown, drawn or rebuilt.
"""

from __future__ import annotations

from contextlib import ExitStack
from pathlib import Path
from typing import Optional

import typer

from analyzer.cli.common import command_line, compiling_notice, make_rules, print_json, progress_bar
from analyzer.cli.options import (
    BidCalibrated,
    Json,
    Lang,
    LangOption,
    Play,
    Players,
    Quiet,
    RuleOptions,
    Seed,
    Threads,
    Variant,
    VariantOption,
)
from analyzer.errors import BeloteError
from analyzer.players.equity import equity_table, read_table, shipped_equity_path
from analyzer.players.policies import DEFAULT_PLAY, Policies


def equity(
    variant: VariantOption = Variant.classic,
    players: Players = None,
    rule: RuleOptions = None,
    file: Optional[Path] = typer.Option(
        None, "--file", help="The table to show, or with --build the file to write (FILE.npz and its header "
        "FILE.json). Default: the table shipped for the variant."),
    build: bool = typer.Option(False, "--build", help="Build the table again by simulation (minutes: see --games "
                               "and --k) and write it to --file, or with --ship over the shipped one."),
    ship: bool = typer.Option(False, "--ship", help="With --build: replace the table shipped with the package "
                              "(analyzer/players/equity_data/)."),
    games: int = typer.Option(40_000, "--games", min=100, max=10_000_000,
                              help="With --build: real games the hands and states are taken from."),
    k: int = typer.Option(20_000, "--k", min=100, max=10_000_000,
                          help="With --build: games played from every cell of the table (its precision)."),
    check_games: int = typer.Option(10_000, "--check-games", min=0, max=10_000_000,
                                    help="With --build: other real games the table is checked against (0: none)."),
    seed: Seed = 1,
    bid: BidCalibrated = None,
    play: Play = None,
    out: Optional[Path] = typer.Option(None, "--out", help="Also draw the heatmap: FOLDER/equity_<label>.png."),
    lang: LangOption = Lang.en,
    threads: Threads = None,
    as_json: Json = False,
    quiet: Quiet = False,
):
    """The chance that a side wins the game from the score (to the target: 1000 in classic).

    Belote is won by games, not by hands: near the target a side that is behind must take
    risks and a side ahead should not. The table gives, for every score (in steps of 10
    points) and whose deal is next, the chance to win the game, with its 95% interval; it is
    what `belote take --score ... --objective win` carries a hand's result through. Built
    from whole games under the default players (calibrated bidders, net play): the hands of
    real games, then thousands of games played from every score by drawing those hands, and
    checked against other real games.

    Examples:

      belote equity

      belote equity --variant piekjas --players 3 --lang nl --out plots

      belote equity --build --variant dekjas --games 20000 --k 20000 --file my_dekjas.npz

      belote equity --build --ship
    """
    # lazy: loads when the command runs, not for belote --help (0.3 s)
    from analyzer.output.equity import check_table_target, equity_figure, equity_text, write_table

    rules = make_rules(variant, players, rule)
    if ship and not build:
        raise BeloteError("--ship replaces the shipped table: add --build")
    if ship and file is not None:
        raise BeloteError("--ship writes the shipped table: leave out --file")
    if build:
        if file is None and not ship:
            raise BeloteError("--build writes a table: give --file FILE.npz, or --ship to replace the shipped one")
        path = shipped_equity_path(rules.label) if ship else file
        if path.suffix != ".npz":
            raise BeloteError(f"--file {path}: an equity table is a .npz file (its header beside it as .json)")
        check_table_target(path, ship)  # before the work
        table = _build(rules, games, k, check_games, seed, bid, play, threads, quiet)
        write_table(table, path, ship)
        if not quiet:
            typer.echo(f"wrote {path} and {path.with_suffix('.json')}", err=True)
    else:
        table = read_table(file) if file is not None else equity_table(rules)
    if out is not None:
        # lazy: loads when the command runs, not for belote --help (0.3 s)
        from analyzer.output.plots import save

        out.mkdir(parents=True, exist_ok=True)
        png = save(equity_figure(table, lang.value), out / f"equity_{table.label}.png")
        if not quiet:
            typer.echo(f"wrote {png}", err=True)
    if as_json:
        lo_hi = [table.interval(u, 0, 0) for u in range(table.sides)]
        print_json({"command": command_line(), "label": table.label, "target": table.target, "grid": table.grid,
                    "rules": table.rules,
                    "from_0_0": [{"seat": u, "p": float(table.p[u, 0, 0]), "lo": lh[0], "hi": lh[1], "n": lh[2]}
                                 for u, lh in enumerate(lo_hi)],
                    "hand_sd": table.hand_sd, "provenance": table.provenance})
        return
    typer.echo(equity_text(table, lang.value))


def _build(rules, games, k, check_games, seed, bid, play, threads, quiet):
    # lazy: loads when the command runs, not for belote --help (0.3 s)
    from analyzer.players.policy_files import default_bid
    from analyzer.runs.equity import build_table
    from analyzer.runs.simulate import SimConfig

    play = play or DEFAULT_PLAY
    pols = Policies.parse(bid or default_bid(rules, play), play, rules.players)
    compiling_notice("equity", quiet)
    bars = {}
    with ExitStack() as stack:
        def progress(stage, done, total):
            if stage not in bars:
                stack.close()
                bars.clear()
                bars[stage] = stack.enter_context(progress_bar(total, quiet, stage))
            bars[stage](done)

        table, _ = build_table(SimConfig(rules=rules, policies=pols, seed=seed), games, k, threads, progress,
                               check_games)
    return table
