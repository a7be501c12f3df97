"""The ``belote`` app: its commands in the order ``--help`` lists them, ``--version``, and
``main`` and ``entry``, which turn usage and domain errors into one line and exit code 2
and an interruption into ``belote: interrupted`` and exit code 130.
"""

from __future__ import annotations

import os
import re
import sys

import typer

from analyzer.cli import (
    analyse,
    balance,
    bench,
    calibrate,
    common,
    duel,
    equity,
    learn,
    report,
    review,
    rules,
    serve,
    signals,
    simulate,
    table,
    take,
    warmup,
)
from analyzer.errors import BeloteError
from analyzer.runs.limits import MAX_DEALS, MAX_DEALS_TEXT, SEEDS, SEEDS_TEXT
from analyzer.output.outdir import provenance
from analyzer.runs import kernelcache

app = typer.Typer(
    help="belote-analyzer: Monte-Carlo strategy analyser for classic Belote, Piekjas and Dekjas.\n\n"
    "Examples:\n\n"
    "  belote take \"Jh 9h Ah Tc 7s\" --turned Qh\n\n"
    "  belote simulate --variant piekjas --players 3 --deals 1000000\n\n"
    "  belote duel --a heuristic/heuristic --b heuristic/taker=random,defence=heuristic\n\n"
    "  belote report",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
    rich_markup_mode=None,
)


def _show_version(value: bool) -> None:
    if value:
        p = provenance()
        typer.echo(f"belote-analyzer {p['version']} (commit {p['git_commit'] or 'unknown'})")
        raise typer.Exit()


@app.callback()
def _app_options(
    version: bool = typer.Option(False, "--version", callback=_show_version, is_eager=True,
                                 help="Print the version and git commit, then exit."),
):
    pass


for command in (simulate.simulate, simulate.show, review.review, analyse.analyse, bench.bench, take.take,
                table.table, equity.equity, balance.balance, duel.duel, rules.rules, report.report, calibrate.calibrate,
                warmup.warmup, learn.learn, serve.serve):
    app.command()(command)


def _usage_message(e) -> str:
    """A usage error in the project's words: ``--deals must be at least 1``, not the validator's."""
    param = getattr(e, "param", None)
    cause = e.__cause__
    errors = cause.errors() if hasattr(cause, "errors") else []
    if param is None or not errors:
        return e.format_message()
    opts = getattr(param, "opts", None) or [param.name]
    flag = max(opts, key=len) if opts[0].startswith("-") else param.name.upper()
    err = errors[0]
    given = err.get("input")
    kind, ctx = err.get("type", ""), err.get("ctx") or {}
    if str(given).strip().lower().lstrip("+-") == "nan":  # fails every bound: say what it is not
        return f"{flag} must be a number, not {given}"
    if kind in ("greater_than_equal", "greater_than"):
        bound = ctx.get("ge", ctx.get("gt"))
        return f"{flag} must be {'at least' if 'ge' in ctx else 'more than'} {bound}, not {given}"
    if kind in ("less_than_equal", "less_than"):
        bound = ctx.get("le", ctx.get("lt"))
        if bound == MAX_DEALS:  # the deal counts' common bound (analyzer.runs.limits)
            return f"{flag} must be at most {MAX_DEALS_TEXT} (no run of more could finish), not {given}"
        if bound == SEEDS - 1:
            return f"{flag} must be {SEEDS_TEXT}, not {given}"
        return f"{flag} must be {'at most' if 'le' in ctx else 'less than'} {bound}, not {given}"
    if kind == "int_parsing":
        return f'{flag} must be a whole number, not "{given}"'
    if kind == "float_parsing":
        return f'{flag} must be a number, not "{given}"'
    m = re.search(r"is not one of (.*?)\.?$", str(ctx.get("error", "")))
    if m:
        choices = ", ".join(c.strip().strip("'") for c in m.group(1).split(","))
        return f'{flag} must be one of {choices}, not "{given}"'
    return f"{flag}: {str(err.get('msg', '')).removeprefix('Value error, ')}"


def main(argv=None) -> int:
    """Run the app; usage and domain errors become one line on stderr with exit code 2,
    an interruption (Ctrl-C, SIGTERM) ``belote: interrupted`` with exit code 130."""
    common.ARGV = list(sys.argv[1:] if argv is None else argv)
    try:
        kernelcache.use_writable_cache()  # before any kernel module is imported (and guards the cache's reads)
        common.HELD.clear()
        rv = app(args=argv, prog_name="belote", standalone_mode=False)
        if common.HELD and rv in (None, 0):  # the results are printed: now the write that failed (common.hold)
            raise common.HELD[0]
    except BeloteError as e:
        typer.echo(f"belote: error: {e}", err=True)
        return 2
    except typer.Exit as e:
        return e.exit_code
    except (typer.Abort, KeyboardInterrupt):
        return signals.interrupted_exit()
    except typer.TyperException as e:  # usage errors: bad option, missing argument, bad value
        ctx = getattr(e, "ctx", None)
        if type(e).__name__ == "NoArgsIsHelpError" and ctx is not None:
            typer.echo(ctx.get_help())  # a bare 'belote' or 'belote CMD' shows its help
            return 0
        cmd = ctx.command_path if ctx is not None else "belote"
        typer.echo(f"belote: error: {_usage_message(e)} (see '{cmd} --help')", err=True)
        return 2
    except Exception:
        # an error the interruption caused: numba, interrupted inside a compile, then fails to save
        # it to its cache with a RuntimeError ("no compiled object yet") instead of the Ctrl-C
        if signals.interrupted():
            return signals.interrupted_exit()
        raise
    if rv == 130:  # typer turns a KeyboardInterrupt inside a command into exit code 130
        return signals.interrupted_exit()
    return rv if isinstance(rv, int) else 0


def entry():
    """The console script ``belote``: ``main`` with the signal handlers set, and the process
    ended by ``signals.exit_status`` (a signal after the command still gives 130)."""
    signals.install()
    try:
        code = main()
        signals.finished()
    except KeyboardInterrupt:  # a signal between the end of main's own handling and here
        code = signals.interrupted_exit()
    os._exit(signals.exit_status(code))
