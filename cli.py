"""The ``belote`` command line: parse, build a config, call the library, render.

Every command has examples in its help; domain errors print one line and exit 2.
"""

from __future__ import annotations

import json
import sys
from enum import Enum
from pathlib import Path
from typing import List, Optional

import typer

from analyzer.errors import BeloteError

app = typer.Typer(
    help="belote-analyzer: Monte-Carlo strategy analyser for classic Belote, Piekjas and Dekjas.\n\n"
    "Examples:\n\n"
    "  belote take \"Jh 9h Ah Tc 7s\" --turned Qh\n\n"
    "  belote simulate --variant piekjas --players 3 --deals 1000000\n\n"
    "  belote report",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
    rich_markup_mode=None,
)


class Variant(str, Enum):
    classic = "classic"
    piekjas = "piekjas"
    dekjas = "dekjas"


class Lang(str, Enum):
    en = "en"
    nl = "nl"


# ---- shared options ------------------------------------------------------------------

SEED = typer.Option(1, "--seed", min=0, help="Random seed: the same seed gives the same numbers.")
QUIET = typer.Option(False, "--quiet", "-q", help="No progress bar.")
VARIANT = typer.Option(Variant.classic, "--variant", help="Which game.")
PLAYERS = typer.Option(None, "--players", help="Players (piekjas 2-4; classic 4; dekjas 2). Default: the variant's usual count.")
RULE = typer.Option(None, "--rule", help="Rule option KEY=VALUE (repeatable), e.g. --rule undertrump=free.")
BID = typer.Option("heuristic", "--bid", help="Bidding policy for all seats, or per seat: 0=heuristic,1=random.")
PLAY = typer.Option("heuristic", "--play", help="Play policy for all seats, or per seat: 0=heuristic,1=random.")
THREADS = typer.Option(None, "--threads", help="Threads (default: all cores). Results do not depend on it.")
JSON = typer.Option(False, "--json", help="Print one JSON object instead of tables.")


def _rules(variant: Variant, players: Optional[int], rule: Optional[List[str]]):
    from analyzer.rules import Rules

    return Rules.make(variant.value, players, rule or [])


def _progress(total: int, quiet: bool, label: str):
    """A rich progress bar as a context manager yielding an update(done) callback."""
    from contextlib import contextmanager

    @contextmanager
    def bar():
        if quiet or total <= 0:
            yield lambda done: None
            return
        from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn

        with Progress(TextColumn(label), BarColumn(), MofNCompleteColumn(), TimeRemainingColumn(),
                      transient=True, console=_err_console()) as p:
            task = p.add_task(label, total=total)
            yield lambda done: p.update(task, completed=done)

    return bar()


def _err_console():
    from rich.console import Console

    return Console(stderr=True)


def _console():
    from rich.console import Console

    return Console()


# ---- simulate --------------------------------------------------------------------------


@app.command()
def simulate(
    variant: Variant = VARIANT,
    players: Optional[int] = PLAYERS,
    deals: int = typer.Option(1_000_000, "--deals", min=1, help="Hands to simulate."),
    seed: int = SEED,
    bid: str = BID,
    play: str = PLAY,
    rule: Optional[List[str]] = RULE,
    threads: Optional[int] = THREADS,
    log: Optional[Path] = typer.Option(None, "--log", help="Write the first hands as belote-deal/1 JSON lines."),
    log_deals: int = typer.Option(1000, "--log-deals", min=1, help="How many hands --log writes."),
    as_json: bool = JSON,
    quiet: bool = QUIET,
):
    """Simulate hands and count what happens: takes, made / dedans, capot, scores by seat.

    Examples:

      belote simulate --deals 1000000

      belote simulate --variant piekjas --players 2 --bid 0=heuristic,1=random --json

      belote simulate --variant dekjas --deals 5000 --log dekjas.jsonl --log-deals 100
    """
    from analyzer.deallog import write_log
    from analyzer.policies import Policies
    from analyzer.simulate import SimConfig, simulate as run
    from analyzer.summary import LABELS, summarize

    rules = _rules(variant, players, rule)
    cfg = SimConfig(rules=rules, policies=Policies.parse(bid, play, rules.players), deals=deals, seed=seed,
                    threads=threads)
    with _progress(deals, quiet, "simulating") as update:
        res = run(cfg, progress=update)
    logged = write_log(log, cfg, log_deals) if log else 0
    summary = summarize(res)
    inputs = {
        "variant": rules.variant, "players": rules.players, "deals": deals, "seed": seed,
        "rules": rules.options(), "policies": cfg.policies.describe(),
    }
    if as_json:
        out = {
            "inputs": inputs,
            "counts": res.as_dict(),
            "rates": {k: v.as_dict() for k, v in summary.items()},
            "log": {"file": str(log), "deals": logged} if log else None,
            "timing": {"seconds": round(res.seconds, 4), "hands_per_s": round(deals / max(res.seconds, 1e-9)),
                       "threads": res.threads},
        }
        typer.echo(json.dumps(out))
        return
    from rich.table import Table

    t = Table(title=f"{rules.label}: {deals:,} hands, seed {seed}, bid={bid} play={play}")
    t.add_column("")
    t.add_column("rate or mean", justify="right")
    t.add_column("95% CI", justify="right")
    t.add_column("n", justify="right")
    for key, v in summary.items():
        if v.n == 0:
            continue
        label = LABELS.get(key, key.replace("_", " "))
        if hasattr(v, "p"):
            t.add_row(label, f"{100 * v.p:.2f}%", f"{100 * v.lo:.2f} – {100 * v.hi:.2f}", f"{v.n:,}")
        else:
            t.add_row(label, f"{v.mean:.2f}", f"{v.lo:.2f} – {v.hi:.2f}", f"{v.n:,}")
    con = _console()
    con.print(t)
    con.print(f"{deals / max(res.seconds, 1e-9):,.0f} hands/s on {res.threads} thread(s)"
              + (f"; {logged} hands logged to {log}" if log else ""))


# ---- show ------------------------------------------------------------------------------


@app.command()
def show(
    file: Path = typer.Argument(..., help="A deal log written with 'belote simulate --log'."),
    deal: Optional[int] = typer.Option(None, "--deal", help="Show only this deal number (default: the first)."),
    lang: Lang = typer.Option(Lang.en, "--lang", help="Card and word language: en or nl (B V H A, k r h s)."),
    all_deals: bool = typer.Option(False, "--all", help="Show every deal in the file."),
):
    """Show a logged deal as a person reads it: hands, bids, tricks, declarations, scores.

    Examples:

      belote simulate --deals 100 --log deals.jsonl && belote show deals.jsonl

      belote show deals.jsonl --deal 7 --lang nl
    """
    from analyzer.deallog import read_log
    from analyzer.show import render

    records = read_log(file)
    if all_deals:
        chosen = records
    elif deal is None:
        chosen = records[:1]
    else:
        chosen = [r for r in records if r.get("deal") == deal]
        if not chosen:
            numbers = [r.get("deal") for r in records]
            raise BeloteError(f"deal {deal} is not in {file}: it holds deals {min(numbers)}..{max(numbers)}")
    typer.echo("\n\n".join(render(r, lang.value) for r in chosen))


# ---- bench -------------------------------------------------------------------------------


@app.command()
def bench(
    variant: Optional[List[str]] = typer.Option(
        None, "--variant", help="Variants to measure: classic, piekjas2, piekjas3, piekjas4, dekjas (repeatable; default all)."),
    policy: Optional[List[str]] = typer.Option(None, "--policy", help="random and/or heuristic (default both)."),
    seconds: float = typer.Option(3.0, "--seconds", min=0.1, help="Seconds of simulation per case."),
    threads: Optional[List[int]] = typer.Option(None, "--threads", help="Thread counts (default: 1 and all)."),
    as_json: bool = JSON,
):
    """Hands per second for each variant and policy, on one thread and on all threads.

    Whole hands: deal, bidding, play, declarations, scoring and aggregation.

    Examples:

      belote bench

      belote bench --variant classic --policy random --seconds 10 --json
    """
    from analyzer.bench import cases, measure
    from analyzer.policies import PLAY_POLICIES
    from analyzer.rules import ALL_LABELS, Rules

    labels = variant or list(ALL_LABELS)
    for lab in labels:
        Rules.from_label(lab)
    pols = policy or ["random", "heuristic"]
    for p in pols:
        if p not in PLAY_POLICIES:
            raise BeloteError(f'unknown policy "{p}" for --policy: use one of {", ".join(PLAY_POLICIES)}')
    rows = []
    for lab, pol, t in cases(labels, pols, threads):
        row = measure(lab, pol, t, seconds)
        rows.append(row)
        if not as_json:
            typer.echo(f"{lab:<9} {pol:<9} threads={t}  {row['hands_per_s']:>12,} hands/s  "
                       f"{row['cards_per_s']:>14,} cards played/s", err=False)
    if as_json:
        typer.echo(json.dumps(rows))


# ---- entry point -----------------------------------------------------------------------


def main(argv=None) -> int:
    """Run the app; usage and domain errors become one line on stderr with exit code 2."""
    try:
        app(args=argv, prog_name="belote", standalone_mode=False)
    except BeloteError as e:
        typer.echo(f"belote: error: {e}", err=True)
        return 2
    except typer.Exit as e:
        return e.exit_code
    except typer.Abort:
        typer.echo("belote: interrupted", err=True)
        return 130
    except typer.TyperException as e:  # usage errors: bad option, missing argument, bad value
        ctx = getattr(e, "ctx", None)
        if type(e).__name__ == "NoArgsIsHelpError" and ctx is not None:
            typer.echo(ctx.get_help())  # a bare 'belote' or 'belote CMD' shows its help
            return 0
        cmd = ctx.command_path if ctx is not None else "belote"
        typer.echo(f"belote: error: {e.format_message()} (see '{cmd} --help')", err=True)
        return 2
    except KeyboardInterrupt:
        typer.echo("belote: interrupted", err=True)
        return 130
    return 0


def entry():
    sys.exit(main())


if __name__ == "__main__":
    entry()
