"""``belote warmup``: the kernels every command needs, compiled once for this machine.
"""

from __future__ import annotations

import time

import numba.core.config
import typer

from analyzer.cli.signals import check_interrupted


def warmup(quiet: bool = typer.Option(False, "--quiet", "-q", help="No progress lines.")):
    """Compile the kernels every command needs, once for this machine (make install runs it).

    A command run on a cold kernel cache compiles first, for minutes; after warmup it
    answers at once. With two cores or more, the searching players (pimc, dd, net) compile
    in a second process beside the driver. Kernels already compiled are not compiled again:
    warmup then says so in under a second. Kernels go to BELOTE_CACHE_DIR (default
    ~/.cache/belote-analyzer).

    Examples:

      belote warmup

      BELOTE_CACHE_DIR=/srv/belote-kernels belote warmup
    """
    # lazy: loads when the command runs, not for belote --help (0.3 s)
    from analyzer.questions.warmup import warmup as compile_kernels

    t0 = time.monotonic()

    def say(line: str) -> None:
        check_interrupted()  # the backstop, before and after each kernel: a signal Python dropped still ends the warmup
        if not quiet:
            typer.echo(line, err=True)

    compiled = compile_kernels(say=say)
    where = numba.core.config.CACHE_DIR
    typer.echo(f"kernels compiled in {time.monotonic() - t0:.0f} s into {where}" if compiled
               else f"kernels already compiled ({where})")
