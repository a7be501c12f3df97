"""What the commands share: the JSON they print, the rules and the backend their options
give, progress bars, the ``--out`` folder, the cards as typed, and the deals they read.
"""

from __future__ import annotations

import json
import os
from contextlib import ExitStack, contextmanager, nullcontext
from enum import Enum
from pathlib import Path
from typing import List, Optional

import typer

from analyzer.cli.options import Lang, Variant
from analyzer.cli.signals import check_interrupted
from analyzer.errors import BeloteError
from analyzer.output.words import refusal_text
from analyzer.players.policies import play_code
from analyzer.rules import Rules
from analyzer.rules.cards import card_language, format_cards, format_suit, parse_cards, parse_suit
from analyzer.output.outdir import Staged, command_line as as_typed, provenance
from analyzer.runs.kernelcache import about, to_compile, wall_seconds

ARGV: Optional[List[str]] = None  # the command line being run, for run.json and --json (set by main)
HELD: list[BeloteError] = []  # a failed write, raised by main once the command has printed its results


def print_json(d) -> None:
    """Print one JSON object that names the tool, its version and commit (``--json``)."""
    typer.echo(json.dumps(provenance() | d, default=str))


def command_line() -> str:
    """The command line being run, as run.json and ``--json`` record it."""
    return as_typed(ARGV)


def make_rules(variant: Variant, players: Optional[int], rule: Optional[List[str]]):
    """The rules of ``--variant``, ``--players`` and ``--rule``."""
    return Rules.make(variant.value, players, rule or [])


def backend(cluster: Optional[str], scheduler: Optional[str], run_dir: Optional[Path] = None,
            resume: bool = False, command: str = "", inputs: Optional[dict] = None, quiet: bool = False):
    """Where the command's hands run (analyzer.runs.backends): threads, --cluster or --scheduler;
    with --run-dir each finished batch recorded there (--resume: replayed), the folder holding
    the ``command``'s ``inputs`` (``run_inputs``), which a run folder must match."""
    # lazy: loads when the command runs, not for belote --help (0.3 s)
    from analyzer.runs.backends import open_backend, recording

    if cluster and scheduler == os.environ.get("DASK_SCHEDULER_ADDRESS"):
        scheduler = None  # --cluster wins over the environment's scheduler
    if resume and run_dir is None:
        raise BeloteError("--resume needs --run-dir DIR, the folder of the run to continue")

    @contextmanager
    def both():
        with ExitStack() as stack:
            b = stack.enter_context(open_backend(cluster, scheduler))
            if run_dir is not None:
                b = stack.enter_context(recording(run_dir, resume, command, inputs or {}))
            yield b
        if run_dir is not None and b.replayed and not quiet:
            # the timings printed next count the replayed batches' hands, which ran in an earlier process
            typer.echo(f"belote: {b.replayed} of {b.seq} batches replayed from --run-dir {run_dir}, "
                       f"{b.seq - b.replayed} run here", err=True)

    return both()


def unit_progress(update):
    """The progress bar moved after each finished chunk or task, not only each batch."""
    # lazy: loads when the command runs, not for belote --help (0.3 s)
    from analyzer.runs.backends import unit_progress as per_unit

    return per_unit(update)


def run_inputs(**values) -> dict:
    """The inputs a ``--run-dir`` folder records, in the order given, and ``--resume`` must match:
    plain values as JSON holds them (an Enum by its value, a path as text, a tuple as a list).

    Each command names its inputs: its options that change the numbers (not where the hands
    run nor what is printed), and a few more names that run folders have recorded since they
    were first written (a command's working values such as ``note`` or ``total``), kept so
    that the runs recorded before can still be resumed."""
    out = {}
    for k, v in values.items():
        if isinstance(v, Enum):
            v = v.value
        elif isinstance(v, Path):
            v = str(v)
        elif isinstance(v, (list, tuple)) and all(isinstance(x, str) for x in v):
            v = list(v)
        if v is None or isinstance(v, (str, int, float, bool, list)):
            out[k] = v
    return out


def progress_bar(total: int, quiet: bool, label: str, count: bool = True):
    """A rich progress bar as a context manager yielding an ``update(done, total=None)`` callback
    (a ``total`` given replaces the first: the report passes its plan's, in planned milliseconds)."""
    @contextmanager
    def bar():
        if quiet or total <= 0:
            yield lambda done, new_total=None: check_interrupted()
            return
        # lazy: loads when the command runs, not for belote --help (0.3 s)
        from rich.progress import (
            BarColumn,
            MofNCompleteColumn,
            Progress,
            TaskProgressColumn,
            TextColumn,
            TimeRemainingColumn,
        )

        # started on the first update, so bad input fails before any bar is drawn
        live = {}

        def update(done, new_total=None):
            check_interrupted()
            if not live:
                middle = MofNCompleteColumn() if count else TaskProgressColumn()
                live["bar"] = Progress(TextColumn(label), BarColumn(), middle, TimeRemainingColumn(),
                                       transient=True, console=err_console())
                live["bar"].start()
                live["task"] = live["bar"].add_task(label, total=total)
            live["bar"].update(live["task"], completed=done, total=new_total or None)

        try:
            yield update
        finally:
            if live:
                live["bar"].stop()

    return bar()


def staged(out: Optional[Path]):
    """The ``--out`` folder checked and staged (``analyzer.output.outdir``), or nothing without ``--out``."""
    return Staged(out) if out is not None else nullcontext()


def hold(error: BeloteError) -> None:
    """Raise ``error`` (a failed write: a full disk) only after the command returns.

    An output written after the work (``--out``, ``--log``) must not lose the work when it
    cannot be written: the command prints its results as it would without the output, and
    ``main`` then gives the error as its one line (exit 2)."""
    HELD.append(error)


def save(stage, write, run: dict) -> list[str]:
    """The command's results written into its ``--out`` folder (``Staged.write``: ``write(folder)``
    returns the paths it wrote) and ``run`` committed; the files written, none when the write
    failed: the error is held (``_hold``) until the results are printed."""
    try:
        return [str(p) for p in stage.write(write, run)]
    except BeloteError as e:
        hold(e)
        return []


def searching(*policies) -> bool:
    """Does one of these ``Policies`` play pimc or dd?"""
    # lazy: loads when the command runs, not for belote --help (0.3 s)
    from analyzer.players.strong import plays_strong

    return any(plays_strong(p.codes()[1]) for p in policies)


def compiling_notice(command: str, quiet: bool, searching: bool = False) -> None:
    """Say so when this run will compile kernels (a cold cache) and about how long it takes.
    ``command`` is a key of ``kernelcache.ENTRY_KERNELS``: ``"simulate --log"`` for an option
    that calls other kernels; ``searching``: the run plays pimc or dd (compiled apart). A run that
    will compile both the driver and the searching players' entry starts the compile of the one it
    needs second in a second process now (``questions.warmup.compile_ahead``), so the two compile
    side by side."""
    kernels = to_compile(command, searching=searching)
    if not kernels:
        return
    # lazy: loads when the command runs, not for belote --help (0.3 s)
    from analyzer.questions.warmup import compile_ahead

    seconds = wall_seconds(kernels, compile_ahead(command, searching) is not None)
    if not quiet:
        typer.echo(f"compiling kernels (first run only, {about(seconds)})", err=True)


# ---- cards as typed: English or Dutch notation -----------------------------------------


def typed_language(texts, lang: Optional[Lang]) -> str:
    """The notation of everything typed: ``--lang``, or recognised from all of it together."""
    if lang is not None:
        return lang.value

    return card_language(" ".join(t for t in texts if t))


def to_english(text: Optional[str], lang: str) -> Optional[str]:
    """Cards typed in ``lang`` rewritten in English notation, in the order typed."""
    if text is None or lang == "en":
        return text

    return format_cards(parse_cards(text, lang))


def call_to_english(spec: str, lang: str) -> str:
    """``--call take:k`` in Dutch notation: the suit letter rewritten in English."""
    name, sep, suit = spec.partition(":")
    if not sep or lang == "en":
        return spec

    return f"{name}:{format_suit(parse_suit(suit, lang))}"


def check_hand_fits(variant: Variant, players: Optional[int], hand: Optional[str]) -> None:
    # lazy: loads when the command runs, not for belote --help (0.3 s)
    from analyzer.questions.take import check_hand_fits as fits

    fits(variant.value, players, hand)


# ---- consoles, deals read or typed, progress by policy ----------------------------------


def err_console():
    return console(stderr=True)


def console(stderr: bool = False):
    # lazy: loads when the command runs, not for belote --help (0.3 s)
    from rich.console import Console

    return Console(stderr=stderr)


def typed_deal(variant, players, rule, hands, trump, taker, plays, turned=None, bids=None):
    """The rules and record of a deal typed in the short notation (docs/NOTATION.md), with its
    turned card and its bidding where given (the bidding decides the trump and the troefmaker)."""
    # lazy: loads when the command runs, not for belote --help (0.3 s)
    from analyzer.game.played import PlayRefused
    from analyzer.questions.review import typed_deal_record

    if trump is None and not bids:
        raise BeloteError("--hands needs --trump: the trump suit (h, d, c or s), e.g. --trump h (or the bidding: "
                          "--turned and --bids)")
    rules = make_rules(variant, players, rule)
    try:
        return rules, typed_deal_record(rules, hands, trump, taker, plays, turned, bids)
    except PlayRefused as e:
        raise BeloteError("--plays: " + refusal_text(e.why, e.facts, e.k, piles=e.piles, notation=True)) from None


def pimc_player(pimc: str):
    """``--pimc``: the searching player shown beside the cards, ``None`` for none."""
    player = None if pimc.strip() == "none" else pimc.strip()
    if player is not None:
        if player.partition(":")[0] != "pimc":
            raise BeloteError(f'--pimc "{pimc}": give a pimc policy (e.g. pimc, pimc:worlds=64,infer=bids) or none')
        play_code(player)  # a one-line error for a bad parameter
    return player


def bars_per_policy(quiet: bool):
    """A ``progress(play, done, total)`` callback drawing one bar per play policy of a bracket,
    each with its own ETA (their costs differ 1000-fold), as a context manager."""
    @contextmanager
    def bars():
        with ExitStack() as stage:
            shown = {}

            def progress(play, done, total):
                if play not in shown:
                    stage.close()
                    shown.clear()
                    shown[play] = stage.enter_context(progress_bar(total, quiet, f"{play} play"))
                shown[play](done)

            yield progress

    return bars()
