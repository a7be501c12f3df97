"""The ``belote`` command line: parse, build a config, call the library, render.

Every command has examples in its help; domain errors print one line and exit 2.
"""

from __future__ import annotations

import json
import os
import signal
import sys
from enum import Enum
from pathlib import Path
from typing import List, Optional

import typer

from analyzer.errors import BeloteError
from analyzer.players.costs import DD_LOSS_COST, DD_PLAY_COST
from analyzer.runs.backends import CONNECT_SECONDS
from analyzer.runs.limits import MAX_DEALS, MAX_DEALS_TEXT, SEEDS, SEEDS_TEXT

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


class Variant(str, Enum):
    classic = "classic"
    piekjas = "piekjas"
    dekjas = "dekjas"


class Lang(str, Enum):
    en = "en"
    nl = "nl"


def _show_version(value: bool) -> None:
    if value:
        from analyzer.output.outdir import provenance

        p = provenance()
        typer.echo(f"belote-analyzer {p['version']} (commit {p['git_commit'] or 'unknown'})")
        raise typer.Exit()


@app.callback()
def _app_options(
    version: bool = typer.Option(False, "--version", callback=_show_version, is_eager=True,
                                 help="Print the version and git commit, then exit."),
):
    pass


# ---- shared options ------------------------------------------------------------------

SEED = typer.Option(1, "--seed", min=0, max=SEEDS - 1, help="Random seed, 0 to 2**64 - 1: the same seed gives the "
                    "same numbers.")
QUIET = typer.Option(False, "--quiet", "-q", help="No progress bar.")
VARIANT = typer.Option(Variant.classic, "--variant", help="Which game.")
PLAYERS = typer.Option(None, "--players", help="Players (piekjas 2-4; classic 4; dekjas 2). Default: the variant's usual count.")
LANG = typer.Option(Lang.en, "--lang", help="Card and word language: en or nl (B V H A, k r h s).")
RULE = typer.Option(None, "--rule", help="Rule option KEY=VALUE (repeatable), e.g. --rule undertrump=free.")
BID = typer.Option("heuristic", "--bid", help="Bidding policy for all seats, or per seat: 0=heuristic,1=random.")
BID_CALIBRATED = typer.Option(  # the questions' default: the bidders the bidding tables agree with (docs/CALIBRATION.md)
    None, "--bid", show_default="calibrated", help="Bidding policy for all seats, or per seat: 0=heuristic,1=random; "
    "calibrated = the policy shipped for the variant, FILE = a belote calibrate file. Default: calibrated, or "
    "heuristic where no shipped policy fits (with --rule, or --play other than heuristic; the output says so).")
PLAY = typer.Option("heuristic", "--play", help="Play policy for all seats, per seat (0=heuristic,1=random) "
                    "or by role (taker=random,defence=heuristic: the troefmaker's side, the defenders).")
THREADS = typer.Option(None, "--threads", help="Threads (default: all cores). Results do not depend on it.")
JSON = typer.Option(False, "--json", help="Print one JSON object instead of tables.")
CLUSTER = typer.Option(None, "--cluster", help="Run on a new Dask cluster of N worker processes on this machine: "
                       "local:N, N at most the machine's cores (local:N! forces N; needs belote-analyzer[dask]). "
                       "Results do not depend on it.")
RUN_DIR = typer.Option(None, "--run-dir", help="Record each finished batch in this folder as the run goes, "
                       "so an interrupted run can continue with --resume (one run at a time per folder).")
RESUME = typer.Option(False, "--resume", help="Continue the run recorded in --run-dir: the same inputs, the same numbers "
                      "(each recorded batch is checked against its checksum; one that does not match is refused).")
SCHEDULER = typer.Option(None, "--scheduler", envvar="DASK_SCHEDULER_ADDRESS",
                         help="Run on an existing Dask cluster: its scheduler, tcp://HOST:PORT "
                         f"(default: $DASK_SCHEDULER_ADDRESS), which must answer within {CONNECT_SECONDS:g} s. "
                         "Results do not depend on it.")


def _json(d) -> None:
    """Print one JSON object that names the tool, its version and commit (``--json``)."""
    from analyzer.output.outdir import provenance

    typer.echo(json.dumps(provenance() | d, default=str))


def _command() -> str:
    from analyzer.output.outdir import command_line

    return command_line(_ARGV)


def _rules(variant: Variant, players: Optional[int], rule: Optional[List[str]]):
    from analyzer.rules import Rules

    return Rules.make(variant.value, players, rule or [])


# where the hands run and what a run folder records, not what the numbers depend on
_NOT_INPUTS = {"threads", "cluster", "scheduler", "run_dir", "resume", "quiet", "as_json"}


def _backend(cluster: Optional[str], scheduler: Optional[str], run_dir: Optional[Path] = None,
             resume: bool = False, command: str = "", params: Optional[dict] = None):
    """Where the command's hands run (analyzer.runs.backends): threads, --cluster or --scheduler;
    with --run-dir each finished batch recorded there (--resume: replayed). ``params``: the
    ``command``'s ``locals()``, whose plain values are the inputs a run folder must match."""
    import os
    from contextlib import ExitStack, contextmanager

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
                b = stack.enter_context(recording(run_dir, resume, command, _inputs(params or {})))
            yield b
        if run_dir is not None and b.replayed and not (params or {}).get("quiet"):
            # the timings printed next count the replayed batches' hands, which ran in an earlier process
            typer.echo(f"belote: {b.replayed} of {b.seq} batches replayed from --run-dir {run_dir}, "
                       f"{b.seq - b.replayed} run here", err=True)

    return both()


def _unit_progress(update):
    """The progress bar moved after each finished chunk or task, not only each batch."""
    from analyzer.runs.backends import unit_progress

    return unit_progress(update)


def _inputs(params: dict) -> dict:
    out = {}
    for k, v in params.items():
        if k in _NOT_INPUTS or k.startswith("_"):
            continue
        if isinstance(v, Enum):
            v = v.value
        elif isinstance(v, Path):
            v = str(v)
        elif isinstance(v, (list, tuple)) and all(isinstance(x, str) for x in v):
            v = list(v)
        if v is None or isinstance(v, (str, int, float, bool, list)):
            out[k] = v
    return out


def _progress(total: int, quiet: bool, label: str, count: bool = True):
    """A rich progress bar as a context manager yielding an ``update(done, total=None)`` callback
    (a ``total`` given replaces the first: the report passes its plan's, in planned milliseconds)."""
    from contextlib import contextmanager

    @contextmanager
    def bar():
        if quiet or total <= 0:
            yield lambda done, new_total=None: _check_interrupted()
            return
        from rich.progress import (BarColumn, MofNCompleteColumn, Progress, TaskProgressColumn, TextColumn,
                                   TimeRemainingColumn)

        # started on the first update, so bad input fails before any bar is drawn
        live = {}

        def update(done, new_total=None):
            _check_interrupted()
            if not live:
                middle = MofNCompleteColumn() if count else TaskProgressColumn()
                live["bar"] = Progress(TextColumn(label), BarColumn(), middle, TimeRemainingColumn(),
                                       transient=True, console=_err_console())
                live["bar"].start()
                live["task"] = live["bar"].add_task(label, total=total)
            live["bar"].update(live["task"], completed=done, total=new_total or None)

        try:
            yield update
        finally:
            if live:
                live["bar"].stop()

    return bar()


def _staged(out: Optional[Path]):
    """The ``--out`` folder checked and staged (``analyzer.output.outdir``), or nothing without ``--out``."""
    from contextlib import nullcontext

    from analyzer.output.outdir import Staged

    return Staged(out) if out is not None else nullcontext()


_held: list[BeloteError] = []  # a failed write, raised by main once the command has printed its results


def _hold(error: BeloteError) -> None:
    """Raise ``error`` (a failed write: a full disk) only after the command returns.

    An output written after the work (``--out``, ``--log``) must not lose the work when it
    cannot be written: the command prints its results as it would without the output, and
    ``main`` then gives the error as its one line (exit 2)."""
    _held.append(error)


def _save(stage, write, run: dict) -> list[str]:
    """The command's results written into its ``--out`` folder (``Staged.write``: ``write(folder)``
    returns the paths it wrote) and ``run`` committed; the files written, none when the write
    failed: the error is held (``_hold``) until the results are printed."""
    try:
        return [str(p) for p in stage.write(write, run)]
    except BeloteError as e:
        _hold(e)
        return []


def _searching(*policies) -> bool:
    """Does one of these ``Policies`` play pimc or dd?"""
    from analyzer.players.strong import plays_strong

    return any(plays_strong(p.codes()[1]) for p in policies)


def _compiling_notice(command: str, quiet: bool, searching: bool = False) -> None:
    """Say so when this run will compile kernels (a cold cache) and about how long it takes.
    ``command`` is a key of ``kernelcache.ENTRY_KERNELS``: ``"simulate --log"`` for an option
    that calls other kernels; ``searching``: the run plays pimc or dd (compiled apart)."""
    if quiet:
        return
    from analyzer.runs.kernelcache import about, compile_seconds

    seconds = compile_seconds(command, searching=searching)
    if seconds:
        typer.echo(f"compiling kernels (first run only, {about(seconds)})", err=True)


# ---- cards as typed: English or Dutch notation -----------------------------------------


def _typed_language(texts, lang: Optional[Lang]) -> str:
    """The notation of everything typed: ``--lang``, or recognised from all of it together."""
    if lang is not None:
        return lang.value
    from analyzer.rules.cards import card_language

    return card_language(" ".join(t for t in texts if t))


def _to_english(text: Optional[str], lang: str) -> Optional[str]:
    """Cards typed in ``lang`` rewritten in English notation, in the order typed."""
    if text is None or lang == "en":
        return text
    from analyzer.rules.cards import format_cards, parse_cards

    return format_cards(parse_cards(text, lang))


def _call_to_english(spec: str, lang: str) -> str:
    """``--call take:k`` in Dutch notation: the suit letter rewritten in English."""
    name, sep, suit = spec.partition(":")
    if not sep or lang == "en":
        return spec
    from analyzer.rules.cards import format_suit, parse_suit

    return f"{name}:{format_suit(parse_suit(suit, lang))}"


def _check_hand_fits(variant: Variant, players: Optional[int], hand: Optional[str]) -> None:
    from analyzer.questions.take import check_hand_fits

    check_hand_fits(variant.value, players, hand)


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
    deals: int = typer.Option(1_000_000, "--deals", min=1, max=MAX_DEALS, help="Hands to simulate."),
    seed: int = SEED,
    bid: str = BID,
    play: str = PLAY,
    rule: Optional[List[str]] = RULE,
    threads: Optional[int] = THREADS,
    cluster: Optional[str] = CLUSTER,
    scheduler: Optional[str] = SCHEDULER,
    run_dir: Optional[Path] = RUN_DIR,
    resume: bool = RESUME,
    log: Optional[Path] = typer.Option(None, "--log", help="Write the first hands as belote-deal/1 JSON lines."),
    log_deals: int = typer.Option(1000, "--log-deals", min=1, max=MAX_DEALS, help="How many hands --log writes."),
    as_json: bool = JSON,
    quiet: bool = QUIET,
):
    """Simulate hands and count what happens: takes, made / dedans, capot, scores by seat.

    Examples:

      belote simulate --deals 1000000

      belote simulate --variant piekjas --players 2 --bid 0=heuristic,1=random --json

      belote simulate --variant dekjas --deals 5000 --log dekjas.jsonl --log-deals 100
    """
    from contextlib import nullcontext

    from analyzer.output.deallog import is_deal_log, write_log
    from analyzer.output.outdir import claimed_file
    from analyzer.players.policies import Policies
    from analyzer.runs.simulate import SimConfig, simulate as run
    from analyzer.runs.summary import LABELS, summarize

    rules = _rules(variant, players, rule)
    cfg = SimConfig(rules=rules, policies=Policies.parse(bid, play, rules.players), deals=deals, seed=seed,
                    threads=threads)
    # --log checked and held before any work: a bad path must not cost a simulation, nor a second run lose it
    with claimed_file(log, "--log", is_deal_log) if log is not None else nullcontext():
        _compiling_notice("simulate --log" if log is not None else "simulate", quiet,
                          _searching(cfg.policies))
        with _backend(cluster, scheduler, run_dir, resume, "simulate", locals()) as where, \
                _progress(deals, quiet, "simulating") as update:
            with _unit_progress(update):
                res = run(cfg, progress=update)
            where = where.describe()
        try:
            logged = write_log(log, cfg, log_deals) if log else 0
        except BeloteError as e:  # a full disk: the results are printed all the same, the error last
            _hold(e)
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
            "command": _command(),
            "inputs": inputs,
            "counts": res.as_dict(),
            "rates": {k: v.as_dict() for k, v in summary.items()},
            "log": {"file": str(log), "deals": logged} if log else None,
            "timing": {"seconds": round(res.seconds, 4), "hands_per_s": round(per_s), "threads": res.threads,
                       **({} if run_dir is None else {"hands_simulated": deals - replayed, "hands_replayed": replayed}),
                       **({} if where["backend"] == "threads" else {"cluster": where})},
        }
        _json(out)
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
    on = (f"{res.threads} thread(s)" if where["backend"] == "threads" else
          f"a Dask cluster of {where['workers']} worker(s) ({where['scheduler']})")
    rate = (f"all {deals:,} hands replayed from {run_dir}, none simulated" if replayed == deals else
            f"{per_s:,.0f} hands/s on {on}" + (f" over the {deals - replayed:,} hands simulated here "
                                                f"({replayed:,} replayed from {run_dir})" if replayed else ""))
    con.print(rate + (f"; {logged} hands logged to {log}" if log else ""))


# ---- show ------------------------------------------------------------------------------


def _logged_deal(records: list, file: Path, deal: Optional[int], played: bool = False) -> dict:
    """Deal number ``deal`` of a log's ``records``; ``None``: the first (``played``: the first that
    was played). One line naming the file when there is none."""
    if deal is not None:
        found = [r for r in records if r.get("deal") == deal]
        if not found:
            numbers = [r.get("deal") for r in records]
            raise BeloteError(f"deal {deal} is not in {file}: it holds deals {min(numbers)}..{max(numbers)}")
        return found[0]
    if not records:
        raise BeloteError(f"{file} holds no deal: write one with belote simulate --log")
    pool = [r for r in records if r.get("outcome") == "played"] if played else records
    if not pool:
        raise BeloteError(f"{file} holds no played deal (every deal was passed out or redealt): nothing to review")
    return pool[0]


@app.command()
def show(
    file: Path = typer.Argument(..., help="A deal log written with 'belote simulate --log'."),
    deal: Optional[int] = typer.Option(None, "--deal", help="Show only this deal number (default: the first)."),
    lang: Lang = LANG,
    all_deals: bool = typer.Option(False, "--all", help="Show every deal in the file."),
):
    """Show a logged deal as a person reads it: hands, bids, tricks, declarations, scores.

    Examples:

      belote simulate --deals 100 --log deals.jsonl && belote show deals.jsonl

      belote show deals.jsonl --deal 7 --lang nl
    """
    from analyzer.output.deallog import read_log
    from analyzer.output.show import render

    records = read_log(file)
    chosen = records if all_deals else [_logged_deal(records, file, deal)]
    typer.echo("\n\n".join(render(r, lang.value) for r in chosen))


HANDS = typer.Option(None, "--hands", help="A deal typed by hand: each seat's cards at the first trick, seat 0 first, "
                     "separated by / (docs/NOTATION.md).")
TRUMP = typer.Option(None, "--trump", help="With --hands: the trump suit (h, d, c, s).")
TAKER = typer.Option(0, "--taker", help="With --hands: the troefmaker's seat.")
PLAYS = typer.Option("", "--plays", help="With --hands: the cards played so far, in order (seat 0 leads; each "
                     "trick's winner leads the next).")


def _typed(variant, players, rule, hands, trump, taker, plays):
    """The rules and record of a deal typed in the short notation (docs/NOTATION.md)."""
    from analyzer.questions.review import typed_record

    if trump is None:
        raise BeloteError("--hands needs --trump: the trump suit (h, d, c or s), e.g. --trump h")
    rules = _rules(variant, players, rule)
    return rules, typed_record(rules, hands, trump, taker, plays)


def _pimc_player(pimc: str):
    from analyzer.players.policies import play_code

    player = None if pimc.strip() == "none" else pimc.strip()
    if player is not None:
        if player.partition(":")[0] != "pimc":
            raise BeloteError(f'--pimc "{pimc}": give a pimc policy (e.g. pimc, pimc:worlds=64,infer=bids) or none')
        play_code(player)  # a one-line error for a bad parameter
    return player


@app.command()
def review(
    file: Optional[Path] = typer.Argument(None, help="A deal log written with 'belote simulate --log' (or give "
                                                     "--hands)."),
    deal: Optional[int] = typer.Option(None, "--deal", help="Review this deal number (default: the first played one)."),
    hands: Optional[str] = HANDS,
    trump: Optional[str] = TRUMP,
    taker: int = TAKER,
    plays: str = PLAYS,
    variant: Variant = VARIANT,
    players: Optional[int] = PLAYERS,
    rule: Optional[List[str]] = RULE,
    pimc: str = typer.Option("pimc:infer=bids", "--pimc",
                             help="The searching player whose card is shown beside each card played (a pimc policy "
                                  "with its parameters), or none."),
    lang: Lang = LANG,
    as_json: bool = JSON,
    quiet: bool = QUIET,
):
    """Review a played deal card by card: what each card gave away against the best card with
    every card open (the exact solver; Piekjas 3-4: its pessimistic two-sided value), the card
    pimc would have played from what the seat saw, the totals per seat and side, and the
    deal's value trick by trick. A logged deal, or one typed with --hands (docs/NOTATION.md).

    Examples:

      belote simulate --deals 20 --log deals.jsonl && belote review deals.jsonl

      belote review deals.jsonl --deal 7 --lang nl

      belote review --hands "Jh 9h Ah Tc 7s Ks Qd 8c / 7h 8h Qh Kh Ac Kc 9c 7c / Th As Ts 9s 8s Js Qs Ad /
      Qc Jc 8d 7d 9d Td Kd Jd" --trump h --taker 0 --plays "Jh 7h Th Qc"
    """
    from analyzer.output.review_text import render
    from analyzer.players import public_info
    from analyzer.questions.review import review as review_deal

    player = _pimc_player(pimc)
    if hands is not None:
        if file is not None:
            raise BeloteError("give a deal log or --hands, not both")
        rules, typed = _typed(variant, players, rule, hands, trump, taker, plays)
        if not typed["tricks"]:
            raise BeloteError("--plays is empty: nothing to review (belote analyse values the cards of a position)")
        chosen, pub = typed, public_info(rules)
    else:
        if file is None:
            raise BeloteError("give a deal log (belote simulate --log FILE) or a deal typed with --hands")
        from analyzer.output.deallog import read_log

        chosen = _logged_deal(read_log(file), file, deal, played=True)
        rules, pub = None, None
    cards = sum(len(t["plays"]) for t in chosen.get("tricks", []))
    with _progress(cards, quiet, "review") as update:  # about 0.5 s a classic deal, minutes in Piekjas 3-4
        r = review_deal(chosen, pimc=player, public=pub, rules=rules, progress=lambda done, total: update(done))
    if as_json:
        _json({"command": _command(), **r.as_dict()})
        return
    typer.echo(render(r, lang.value))


@app.command()
def analyse(
    hands: str = typer.Option(..., "--hands", help="Each seat's cards at the first trick, seat 0 first, separated "
                              "by / (docs/NOTATION.md)."),
    trump: str = typer.Option(..., "--trump", help="The trump suit (h, d, c, s)."),
    taker: int = TAKER,
    plays: str = PLAYS,
    variant: Variant = VARIANT,
    players: Optional[int] = PLAYERS,
    rule: Optional[List[str]] = RULE,
    pimc: str = typer.Option("pimc", "--pimc", help="The searching player whose card is shown (a pimc policy), or "
                             "none. A typed position has no bidding: it reads only the cards."),
    lang: Lang = LANG,
    as_json: bool = JSON,
    quiet: bool = QUIET,  # one position: no progress to show (accepted as by every command with --json)
):
    """One decision: every legal card of the seat to move after --plays, valued with every card
    open (the exact solver; Piekjas 3-4: its pessimistic value), what each gives away against the
    best, and the card pimc plays from what the seat sees.

    Examples:

      belote analyse --hands "Jh 9h Ah Tc 7s Ks Qd 8c / 7h 8h Qh Kh Ac Kc 9c 7c / Th As Ts 9s 8s Js Qs Ad /
      Qc Jc 8d 7d 9d Td Kd Jd" --trump h --taker 0 --plays "Jh 7h Th Qc"

      belote analyse --variant piekjas --players 2 --hands "..." --trump s --taker 1 --json
    """
    from analyzer.output.review_text import render_position
    from analyzer.questions.review import analyse as analyse_position

    rules, typed = _typed(variant, players, rule, hands, trump, taker, plays)
    p = analyse_position(typed, rules, pimc=_pimc_player(pimc))
    if as_json:
        _json({"command": _command(), **p.as_dict()})
        return
    typer.echo(render_position(p, lang.value))


# ---- bench -------------------------------------------------------------------------------


@app.command()
def bench(
    variant: Optional[List[str]] = typer.Option(
        None, "--variant", help="Variants to measure: classic, piekjas2, piekjas3, piekjas4, dekjas (repeatable; default all)."),
    policy: Optional[List[str]] = typer.Option(
        None, "--policy", help="Play policies (repeatable; default random, heuristic and pimc): any of random, "
        "heuristic, pimc, dd with its parameters, e.g. heuristic:v=1 (the card play before the taker fixes) or "
        "pimc:v=1 (pimc before racing). A searching policy bids as the heuristic, and its cost is also given "
        "in heuristic hands of the same run."),
    seconds: float = typer.Option(3.0, "--seconds", min=0.1, max=3600,
                                  help="Seconds of simulation per case (at most an hour)."),
    threads: Optional[List[int]] = typer.Option(None, "--threads", help="Thread counts (default: 1 and all)."),
    peer: Optional[str] = typer.Option(
        None, "--peer", help="Compare with another engine instead, alternately in one run: colver "
        "(the optional extra: pip install 'belote-analyzer[bench]')."),
    rounds: int = typer.Option(3, "--rounds", min=1, max=100, help="With --peer: how many times to alternate."),
    as_json: bool = JSON,
):
    """Hands per second for each variant and policy, on one thread and on all threads.

    Whole hands: deal, bidding, play, declarations, scoring and aggregation.

    Examples:

      belote bench

      belote bench --variant classic --policy random --seconds 10 --json

      belote bench --variant classic --policy heuristic --policy pimc --policy pimc:v=1 --threads 1

      belote bench --peer colver
    """
    from analyzer.runs.bench import PEERS, cases, compare_peer, measure, peer_missing

    if peer is not None:
        if peer not in PEERS:
            raise BeloteError(f'unknown peer "{peer}" for --peer: use {", ".join(PEERS)}')
        why = peer_missing(peer)
        if why is not None:  # asked for and not measured: an error, not a quiet "skipped" with exit 0
            raise BeloteError(f"--peer {peer} cannot run: {why}")
        r = compare_peer(peer, seconds, rounds)
        if as_json:
            typer.echo(json.dumps(r))
            return
        m = r["median_per_s"]
        typer.echo(f"{r['peer']}: {r['peer_measure']}: {m['colver']:,} hands/s (median of {rounds})")
        for pol in ("random", "heuristic"):
            typer.echo(f"belote classic {pol:<9} 1 thread: {m[pol]:>12,} hands/s = {r['ratio_' + pol]:.2f}x "
                       f"(goal {r['goals']['ratio_' + pol]}x)")
        return
    from analyzer.players.policies import PLAY_POLICIES, play_code
    from analyzer.rules import ALL_LABELS, Rules
    from analyzer.runs.bench import DEFAULT_POLICIES, cost_in

    labels = variant or list(ALL_LABELS)
    for lab in labels:
        Rules.from_label(lab)
    pols = policy or list(DEFAULT_POLICIES)
    for p in pols:
        if p.partition(":")[0] not in PLAY_POLICIES:
            raise BeloteError(f'unknown policy "{p}" for --policy: use {", ".join(PLAY_POLICIES)} (heuristic:v=1: '
                              'its card play before its taker fixes)')
        play_code(p)  # a one-line error for a bad parameter
    rows = []
    for lab, pol, t in cases(labels, pols, threads):
        row = measure(lab, pol, t, seconds)
        rows.append(row)
        if not as_json:
            typer.echo(f"{lab:<9} {pol:<9} threads={t}  {row['hands_per_s']:>12,} hands/s  "
                       f"{row['cards_per_s']:>14,} cards played/s", err=False)
    costs = cost_in(rows)
    if as_json:
        from analyzer.output.outdir import provenance

        typer.echo(json.dumps([provenance() | row for row in rows]))
        return
    for c in costs:
        typer.echo(f"{c['variant']}{c['players'] if c['variant'] == 'piekjas' else ''} {c['play']} threads="
                   f"{c['threads']}: one hand costs {c['heuristic_hands']:,} heuristic hands")


# ---- take --------------------------------------------------------------------------------


class Objective(str, Enum):
    net = "net"
    score = "score"


@app.command()
def take(
    hand: Optional[str] = typer.Argument(
        None, help="Your cards at bidding time, e.g. \"Jh 9h Ah Tc 7s\": 5 in classic and 4-player piekjas, "
        "otherwise 6. Dekjas: use --mine and --theirs instead."),
    turned: str = typer.Option(..., "--turned", help="The turned card, e.g. Qh (dekjas: the dealer's last face-up card)."),
    variant: Variant = VARIANT,
    players: Optional[int] = PLAYERS,
    seat: int = typer.Option(0, "--seat", min=0, help="Your seat: 0 = voorhand (bids first) ... players-1 = dealer."),
    round_: int = typer.Option(1, "--round", min=1, max=2, help="The bidding round reached: 1, or 2 after everyone passed."),
    mine: Optional[str] = typer.Option(None, "--mine", help="Dekjas: your 8 face-up cards."),
    theirs: Optional[str] = typer.Option(None, "--theirs", help="Dekjas: the opponent's 8 face-up cards."),
    call: Optional[List[str]] = typer.Option(
        None, "--call", help="Compare only these calls: take, smous, pass, or with a suit, e.g. take:s (repeatable). "
        "Default: every call open. Pass is always compared."),
    objective: Objective = typer.Option(
        Objective.net, "--objective", help="What ranks the calls: net = your side's score minus the best other "
        "side's (counts what a dedans gives away); score = your side's own score."),
    deals: int = typer.Option(100_000, "--deals", min=1, max=MAX_DEALS,
                              help="Paired deals to keep (deals where the earlier seats passed)."),
    precision: Optional[float] = typer.Option(
        None, "--precision", help="Instead of --deals: simulate until the 95% half-width of the verdict's "
        "difference is at most this many points (capped by --max-deals)."),
    max_deals: int = typer.Option(2_000_000, "--max-deals", min=1, max=MAX_DEALS,
                                  help="The cap on paired deals with --precision."),
    seed: int = SEED,
    bid: Optional[str] = BID_CALIBRATED,
    play: str = PLAY,
    rule: Optional[List[str]] = RULE,
    threads: Optional[int] = THREADS,
    lang: Optional[Lang] = typer.Option(
        None, "--lang", help="The notation of the cards you type: en (J Q K, suits c d h s) or nl (B V H, suits "
        "k r h s). Default: recognised from the cards (they never read differently in the two)."),
    cluster: Optional[str] = CLUSTER,
    scheduler: Optional[str] = SCHEDULER,
    run_dir: Optional[Path] = RUN_DIR,
    resume: bool = RESUME,
    bracket: bool = typer.Option(
        False, "--bracket", help="Answer under each policy of --bracket-plays (every seat) side by side, on the "
        "same deals: P(made), P(dedans), P(capot/pit) and net gain of each call, and whether the verdict holds "
        "under all of them."),
    bracket_plays: Optional[str] = typer.Option(
        None, "--bracket-plays", help="The play policies of --bracket, weakest first. Default: heuristic,net,pimc,dd."),
    bracket_deals: Optional[str] = typer.Option(
        None, "--bracket-deals", show_default="pimc=4000,dd=500", help="Paired deals of the searching policies of "
        f"--bracket: one number for all, or by policy (pimc: about a millisecond a hand; dd: {DD_PLAY_COST}); "
        "the others keep --deals. Their numbers are adjusted by the heuristic's on the same deals (a control "
        "variate), the plain ones shown beside."),
    as_json: bool = JSON,
    quiet: bool = QUIET,
):
    """Should I take with this hand? Every call open, played out on the same sampled deals.

    Unknown cards are sampled given what you see; when earlier seats bid first, only deals
    where they all passed under their bidding policy (--bid: calibrated by default, or
    heuristic, or per seat) are kept; later seats bid with it too. For each call: your side's
    expected hand score and net score (minus the best other side's), the paired differences
    to passing, p_we_take, p_made, p_dedans, p_tie, p_capot_for, p_pit_against (and
    p_not_played when deals were passed out or redealt), each a share of all deals, with
    95% CIs; then the verdict. The same names as the report and its CSV.

    Examples:

      belote take "Jh 9h Ah Tc 7s" --turned Qh

      belote take "Js 9s As 7h 8c" --turned Td --seat 1 --round 2 --precision 1

      belote take "Js Qs Ks 9d Ad 7c" --turned 8s --variant piekjas --players 2 --seat 1 --json

      belote take --variant dekjas --mine "Jh 9h Ah Ac Tc 7d 8s Ks" --theirs "7c 8c 9c Qd Kd Ad Ts Qh" --turned Qh

      belote take "Bh 9h Ah 10k 7s" --turned Vh --lang nl

      belote take "8c Qd 7s 9d Kc" --turned Th --seat 2 --bid heuristic

      belote take "Jh Ah Tc 7s 8d" --turned Qh --bracket --deals 20000 --bracket-deals pimc=4000,dd=300
    """
    from analyzer.players.policies import Policies
    from analyzer.players.policy_files import bid_note, default_bid, describe_bid
    from analyzer.questions.take import analyse_take

    lang_ = _typed_language([hand, turned, mine, theirs], lang)
    hand, turned, mine, theirs = (_to_english(x, lang_) for x in (hand, turned, mine, theirs))
    call = [_call_to_english(c, lang_) for c in call] if call else call
    _check_hand_fits(variant, players, hand)
    rules = _rules(variant, players, rule)
    note = bid_note(rules, bid, play)
    bid = bid or default_bid(rules, play)  # --bracket too: the same bidders under every play policy
    if bracket:
        if precision is not None:
            raise BeloteError("--bracket keeps a fixed number of deals: use --deals and --bracket-deals, not --precision")
        if play != "heuristic":
            raise BeloteError("--bracket sets the play policies: use --bracket-plays instead of --play")
        _take_bracket(rules, hand, turned, seat, round_, mine, theirs, call, objective.value, deals, bracket_deals,
                      bracket_plays, seed, bid, threads, lang_, as_json, quiet)
        return
    pols = Policies.parse(bid, play, rules.players)
    total = max_deals if precision is not None else deals
    _compiling_notice("take", quiet, _searching(pols))
    with _backend(cluster, scheduler, run_dir, resume, "take", locals()), _progress(total, quiet, "sampling") as update:
        r = analyse_take(rules, hand, turned, seat, round_, mine=mine, theirs=theirs, deals=deals,
                         precision=precision, max_deals=max_deals, seed=seed, policies=pols, calls=call,
                         objective=objective.value, threads=threads, progress=update)
    if as_json:
        d = r.as_dict()
        d["command"] = _command()
        if note:
            d["inputs"]["bid_note"] = note
        if lang_ == "nl":
            d["inputs"]["lang"] = "nl"
        _json(d)
        return
    from rich.table import Table

    con = _console()
    from analyzer.output import take_table
    from analyzer.runs.fmt import ci_rate

    t = Table(title=f"{r.situation.describe()}\n(n={r.n:,} paired deals, seed {seed}; ± = 95% half-width)")
    t.add_column("")
    for c in r.calls:
        t.add_column(c.call.label, justify="right")
    for name, vals in take_table.rows(r):
        t.add_row(name, *[take_table.cell(v) for v in vals])
    con.print(t)
    con.print(take_table.SHARE_SENTENCE, style="dim")
    if seat > 0 or round_ == 2:  # earlier seats bid first: name the policy their passes are conditioned on
        con.print(f"Earlier seats all passed in {ci_rate(r.acceptance)} of {r.acceptance.n:,} sampled deals "
                  f"(rejection sampling under the bidding policy, bid={r.policies.describe()['bid']}).")
    con.print(f"[bold]Verdict:[/bold] {r.verdict()}")
    con.print(f"{r.hands:,} hands in {r.seconds:.1f} s; bid={bid} play={play}; ranked by {objective.value}.",
              style="dim")
    con.print(f"Bidders: {describe_bid(pols, rules)}" + (f" ({note})" if note else "") + ".", style="dim")


def _bars_per_policy(quiet: bool):
    """A ``progress(play, done, total)`` callback drawing one bar per play policy of a bracket,
    each with its own ETA (their costs differ 1000-fold), as a context manager."""
    from contextlib import ExitStack, contextmanager

    @contextmanager
    def bars():
        with ExitStack() as stage:
            shown = {}

            def progress(play, done, total):
                if play not in shown:
                    stage.close()
                    shown.clear()
                    shown[play] = stage.enter_context(_progress(total, quiet, f"{play} play"))
                shown[play](done)

            yield progress

    return bars()


def _take_bracket(rules, hand, turned, seat, round_, mine, theirs, call, objective, deals, bracket_deals,
                  bracket_plays, seed, bid, threads, lang_, as_json, quiet) -> None:
    """``take --bracket``: the question under each play policy, one progress bar each."""
    from analyzer.output import take_table
    from analyzer.questions.bracket import analyse_bracket, parse_plays, strong_sizes
    from analyzer.questions.table_bracket import parse_deals
    from analyzer.runs.limits import check_deals

    plays = parse_plays(bracket_plays)
    if bracket_deals is not None:
        bracket_deals = parse_deals(bracket_deals)
        for v in (bracket_deals.values() if isinstance(bracket_deals, dict) else [bracket_deals]):
            check_deals(v, "--bracket-deals")
    strong_sizes(plays, bracket_deals)  # a bad --bracket-deals is refused before the compile
    _compiling_notice("take", quiet, searching=True)
    with _bars_per_policy(quiet) as progress:
        b = analyse_bracket(rules, hand, turned, seat, round_, mine=mine, theirs=theirs, plays=plays, deals=deals,
                            strong_deals=bracket_deals, seed=seed, bid=bid, calls=call, objective=objective,
                            threads=threads, progress=progress)
    if as_json:
        d = b.as_dict()
        d["command"] = _command()
        if lang_ == "nl":
            d["inputs"] = {"lang": "nl"}
        _json(d)
        return
    from rich.table import Table

    con = _console()
    first = b.results[0]
    t = Table(title=f"{first.situation.describe()}\nthe same deals under each play policy (bid={bid}, seed {seed}; "
              "± = 95% half-width)")
    t.add_column("call")
    t.add_column("")
    for head, r in b.columns():
        t.add_column(f"{head}\nn={r.n:,}", justify="right")
    for label, name, cells in take_table.bracket_rows(b, objective):
        t.add_row(label, name, *[take_table.cell(v) for v in cells])
    con.print(t)
    con.print(take_table.SHARE_SENTENCE, style="dim")
    for play, r in zip(b.plays, b.results):
        con.print(f"[bold]{play}:[/bold] {r.verdict()}")
    for line in take_table.control_notes(b):
        con.print(line, style="dim")
    con.print(f"[bold]Bracket:[/bold] {b.verdict()}")
    hands = sum(r.hands for r in b.results)
    con.print(f"{hands:,} hands in {b.seconds:.1f} s; ranked by {objective}.", style="dim")


# ---- table -------------------------------------------------------------------------------


@app.command()
def table(
    variant: Variant = VARIANT,
    players: Optional[int] = PLAYERS,
    deals: int = typer.Option(200_000, "--deals", min=1, max=MAX_DEALS, help="Deals to sample."),
    rounds: int = typer.Option(2, "--rounds", min=1, max=2, help="Bidding rounds to tabulate: 1, or 2 for both."),
    out: Optional[Path] = typer.Option(None, "--out", help="Write CSV, Parquet, heatmap PNGs and a markdown table here."),
    seed: int = SEED,
    bid: Optional[str] = BID_CALIBRATED,
    play: str = PLAY,
    rule: Optional[List[str]] = RULE,
    threads: Optional[int] = THREADS,
    cluster: Optional[str] = CLUSTER,
    scheduler: Optional[str] = SCHEDULER,
    run_dir: Optional[Path] = RUN_DIR,
    resume: bool = RESUME,
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
    as_json: bool = JSON,
    quiet: bool = QUIET,
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
    """
    from analyzer.players.policies import Policies
    from analyzer.runs.simulate import SimConfig
    from analyzer.output.files import write_table
    from analyzer.players.policy_files import bid_note, default_bid
    from analyzer.questions.table import bidding_table

    rules = _rules(variant, players, rule)
    note = bid_note(rules, bid, play)
    if bracket:
        if play != "heuristic":
            raise BeloteError("--bracket sets the play policies: use --bracket-plays instead of --play")
        if run_dir is not None or resume:
            raise BeloteError("--bracket runs are not recorded: drop --run-dir and --resume")
        _table_bracket(rules, bid or default_bid(rules, play), deals, bracket_deals, bracket_plays, bracket_by,
                       rounds, out, seed, threads, cluster, scheduler, as_json, quiet)
        return
    cfg = SimConfig(rules=rules, policies=Policies.parse(bid or default_bid(rules, play), play, rules.players),
                    deals=deals, seed=seed, threads=threads)
    with _staged(out) as stage:  # the folder rule is checked before any work
        _compiling_notice("table", quiet)
        with _backend(cluster, scheduler, run_dir, resume, "table", locals()), \
                _progress(deals, quiet, "tabulating") as update:
            with _unit_progress(update):
                t = bidding_table(cfg, rounds=rounds, progress=update)
        files = []
        if stage is not None:
            files = _save(stage, lambda folder: write_table(t, folder), {
                "command": _command(), "seed": seed, "rules": rules.options(), "policies": cfg.policies.describe(),
                "variant": rules.label, "deals": deals, "rounds": rounds})
    if as_json:
        d = t.as_dict()
        d["files"] = files
        d["command"] = _command()
        if note:
            d["inputs"]["bid_note"] = note
        _json(d)
        return
    if note:
        typer.echo(f"({note})")
    typer.echo(t.markdown())
    typer.echo(f"{t.hands:,} hands in {t.seconds:.1f} s" + (f"; {len(files)} files written to {out}" if files else ""))


def _table_bracket(rules, bid, deals, bracket_deals, bracket_plays, bracket_by, rounds, out, seed, threads,
                   cluster, scheduler, as_json, quiet) -> None:
    """``table --bracket``: the bidding table under each play policy, one progress bar each."""
    from analyzer.output.files import write_table_bracket
    from analyzer.questions.bracket import parse_plays
    from analyzer.questions.table_bracket import (check_sample, default_plays, parse_by, parse_deals, plan,
                                                  sample_sizes, table_bracket)

    plays = parse_plays(bracket_plays) if bracket_plays else default_plays(rules)[0]
    by = parse_by(bracket_by)
    bracket_deals = parse_deals(bracket_deals) if bracket_deals else None
    sample_sizes(plays, bracket_deals, deals)  # a bad --bracket-deals is refused before anything (the compile too)
    with _staged(out) as stage:  # the folder rule is checked before any work
        _compiling_notice("table", quiet, searching=True)
        check_sample(rules, plays, deals, bracket_deals, seed=seed, bid=bid, rounds=rounds, by=by,
                     threads=threads)  # a sample too small to show a class: refused before the searching plays
        if not quiet:
            typer.echo(plan(rules, plays, deals, bracket_deals, rounds, threads), err=True)
        with _backend(cluster, scheduler), _bars_per_policy(quiet) as progress:
            b = table_bracket(rules, plays=plays if bracket_plays else None, deals=deals, strong_deals=bracket_deals,
                              seed=seed, bid=bid, rounds=rounds, by=by, threads=threads, progress=progress)
        files = []
        if stage is not None:
            files = _save(stage, lambda folder: write_table_bracket(b, folder), {
                "command": _command(), "seed": seed, "rules": rules.options(),
                "policies": {p: pol.describe() for p, pol in zip(b.plays, b.policies)},
                "variant": rules.label, "deals": deals, "strong_deals": b.per_deal, "rounds": rounds})
    if as_json:
        d = b.as_dict()
        d["files"] = files
        d["command"] = _command()
        _json(d)
        return
    typer.echo(b.markdown())
    typer.echo(f"{b.hands:,} hands in {b.seconds:.1f} s" + (f"; {len(files)} files written to {out}" if files else ""))


# ---- balance -----------------------------------------------------------------------------


@app.command()
def balance(
    variants: str = typer.Option("classic,piekjas2,piekjas3,piekjas4,dekjas", "--variants",
                                 help="Comma-separated: classic, piekjas2, piekjas3, piekjas4, dekjas."),
    deals: Optional[int] = typer.Option(
        None, "--deals", min=1, max=MAX_DEALS, show_default=False,
        help="Hands per variant [default: 1,000,000; with --play pimc 2,000; with dd 200]."),
    games: Optional[int] = typer.Option(
        None, "--games", min=0, max=MAX_DEALS, show_default=False,
        help="Whole games per variant, 0: hands only [default: 20,000; with --play pimc 100; with dd 10]."),
    out: Optional[Path] = typer.Option(None, "--out", help="Write CSV, Parquet, PNG plots and balance.md here."),
    seed: int = SEED,
    bid: Optional[str] = BID_CALIBRATED,
    play: str = PLAY,
    rule: Optional[List[str]] = RULE,
    threads: Optional[int] = THREADS,
    cluster: Optional[str] = CLUSTER,
    scheduler: Optional[str] = SCHEDULER,
    run_dir: Optional[Path] = RUN_DIR,
    resume: bool = RESUME,
    as_json: bool = JSON,
    quiet: bool = QUIET,
):
    """Compare the variants: bidding, outcomes, seat advantage, and whole games.

    Per variant, on single hands: take rate by round, koe, smous offered / accepted,
    passed out, made / dedans / tie, capot for and against, mean score and spread per
    seat, each seat's advantage; on whole games to the target: P(win) by seat, hands per
    game. Every number with its n and 95% CI. The bidders are each variant's calibrated
    ones by default (--bid heuristic for the uncalibrated).

    Examples:

      belote balance --deals 1000000 --games 20000 --out reports/balance

      belote balance --variants classic,piekjas3 --rule undertrump=free --json
    """
    from analyzer.output.files import write_balance
    from analyzer.questions.balance import compare_variants, default_sizes, parse_variants, work

    from analyzer.players.policy_files import bid_note
    from analyzer.rules import Rules

    labels = [r.label for r in parse_variants(variants)]
    notes = {lab: n for lab in labels if (n := bid_note(Rules.from_label(lab, rule or []), bid, play))}
    sizes = default_sizes(play)
    deals = sizes[0] if deals is None else deals
    games = sizes[1] if games is None else games
    total = len(labels) * work(deals, games)
    with _staged(out) as stage:  # the folder rule is checked before any work
        _compiling_notice("balance", quiet)
        with _backend(cluster, scheduler, run_dir, resume, "balance", locals()), \
                _progress(total, quiet, "simulating") as update:
            b = compare_variants(labels, deals=deals, games=games, seed=seed, bid=bid, play=play,
                                 rule_options=rule or [], threads=threads, progress=update)
        files = []
        if stage is not None:
            inputs = b.as_dict().get("inputs", {})
            files = _save(stage, lambda folder: write_balance(b, folder), {
                "command": _command(), "seed": seed, "rules": inputs.get("rules"),
                "policies": inputs.get("policies"), "variants": labels, "deals": deals, "games": games})
    if as_json:
        d = b.as_dict()
        d["files"] = files
        d["command"] = _command()
        if notes:
            d["inputs"]["bid_note"] = notes
        _json(d)
        return
    from rich.table import Table

    con = _console()
    ht = b.hand_table()
    t = Table(title=f"Hands: {deals:,} per variant, seed {seed}  (rate or mean, ± 95% half-width)")
    t.add_column("")
    for lab in labels:
        t.add_column(lab, justify="right")
    from analyzer.questions.balance import HAND_STATS
    from analyzer.runs.fmt import pm_or_ci, pm_pct

    for key in [k for k, _ in HAND_STATS if k in set(ht["statistic"])]:
        sub = ht[ht["statistic"] == key].set_index("variant")
        cells = []
        for lab in labels:
            if lab not in sub.index:
                cells.append("—")
                continue
            r = sub.loc[lab]
            k = 100 if r["kind"] == "rate" else 1
            cells.append(pm_or_ci(k * r["value"], k * r["lo"], k * r["hi"], 2, unit="%" if k == 100 else ""))
        t.add_row(sub["label"].iloc[0], *cells)
    con.print(t)
    st = b.seat_table()
    t = Table(title="Seats (± = 95% half-width)" + (f"; P(win) over {games:,} games per variant" if games else ""))
    for col in ("variant", "seat", "take r1/r2 %", "made %", "score (sd)", "advantage"):
        t.add_column(col, justify="left" if col in ("variant", "seat") else "right")
    if games:
        t.add_column("P(win)", justify="right")
    for r in st.itertuples():
        row = [r.variant, f"{r.seat} {r.seat_name}", f"{100 * r.take_r1:.1f}/{100 * r.take_r2:.1f}",
               f"{100 * r.made_when_takes:.1f}", f"{r.score_mean:.0f} (sd {r.score_sd:.0f})",
               f"{r.advantage:+.2f} ± {(r.advantage_hi - r.advantage_lo) / 2:.2f}"]
        if games:
            row.append(pm_pct(r.p_win, r.p_win_lo, r.p_win_hi))
        t.add_row(*row)
    con.print(t)
    gt = b.game_table()
    if len(gt):
        t = Table(title="Games")
        for col in ("variant", "target", "games", "hands per game", "median [5%, 95%]", "capped"):
            t.add_column(col, justify="left" if col == "variant" else "right")
        for r in gt.itertuples():
            t.add_row(r.variant, str(r.target), f"{r.games:,}", f"{r.hands_mean:.2f} ± {(r.hands_hi - r.hands_lo) / 2:.2f}",
                      f"{r.hands_median:g} [{r.hands_p5:g}, {r.hands_p95:g}]", str(r.capped))
        con.print(t)
    con.print(b.bidders_markdown() + "".join(f" ({lab}: {n})" for lab, n in notes.items()), style="dim")
    con.print(f"{b.hands_simulated:,} hands in {b.seconds:.1f} s" + (f"; {len(files)} files written to {out}" if files else ""),
              style="dim")


# ---- duel --------------------------------------------------------------------------------


@app.command()
def duel(
    a: str = typer.Option(..., "--a", help="Policy set A as BID/PLAY, e.g. heuristic/heuristic or "
                          "heuristic/taker=random,defence=heuristic (BID may be calibrated or a policy FILE)."),
    b: str = typer.Option(..., "--b", help="Policy set B as BID/PLAY, e.g. calibrated/heuristic."),
    variant: Variant = VARIANT,
    players: Optional[int] = PLAYERS,
    deals: int = typer.Option(100_000, "--deals", min=1, max=MAX_DEALS, help="Deals, each played once per seating."),
    seed: int = SEED,
    rule: Optional[List[str]] = RULE,
    dd_loss: bool = typer.Option(False, "--dd-loss", help="Also value every card of the first --dd-deals deals "
                                 "with the exact solver: the double-dummy points each side gives away, by role."),
    dd_deals: int = typer.Option(200, "--dd-deals", min=1, max=MAX_DEALS,
                                 help=f"Deals whose play --dd-loss values (slow: {DD_LOSS_COST})."),
    threads: Optional[int] = THREADS,
    cluster: Optional[str] = CLUSTER,
    scheduler: Optional[str] = SCHEDULER,
    as_json: bool = JSON,
    quiet: bool = QUIET,
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
    """
    from analyzer.questions.duel import add_dd_loss, duel as run, parse_set

    rules = _rules(variant, players, rule)
    sa, sb = parse_set(a, "--a", rules.players), parse_set(b, "--b", rules.players)
    _compiling_notice("duel --dd-loss" if dd_loss else "duel", quiet,
                      _searching(sa.policies, sb.policies))
    with _backend(cluster, scheduler) as where:
        with _progress(deals, quiet, "dueling") as update:
            r = run(rules, sa, sb, deals=deals, seed=seed, threads=threads, progress=update)
        where = where.describe()
    if dd_loss:
        n_dd = min(dd_deals, deals)
        with _progress(n_dd, quiet, "double-dummy loss") as update:
            add_dd_loss(r, n_dd, update)
    if as_json:
        d = r.as_dict()
        d["command"] = _command()
        if where["backend"] != "threads":
            d["cluster"] = where
        _json(d)
        return
    from analyzer.output.duel_table import text

    typer.echo(text(r))
    typer.echo(f"{r.hands:,} hands in {r.seconds:.1f} s", err=False)


# ---- rules ------------------------------------------------------------------------------


@app.command()
def rules(
    variant: Optional[Variant] = typer.Option(None, "--variant", help="Only this variant (default: every variant)."),
    players: Optional[int] = typer.Option(None, "--players", help="Only this player count (default: every count of "
                                          "the variant, e.g. piekjas 2, 3 and 4)."),
    option: Optional[List[str]] = typer.Option(None, "--option", help="Only this rule option (repeatable), e.g. "
                                               "--option undertrump. Default: every option that can change the variant."),
    deals: int = typer.Option(200_000, "--deals", min=10, max=MAX_DEALS,
                              help="Hands per reading (the same deals for both)."),
    games: int = typer.Option(4_000, "--games", min=0, max=MAX_DEALS, help="Whole games per reading (0: hands only)."),
    out: Optional[Path] = typer.Option(None, "--out", help="Write CSV, markdown, the forest plot and run.json into "
                                       "this folder (new, empty, or an earlier output of belote, which is replaced)."),
    all_rows: bool = typer.Option(False, "--all", help="Also list the differences inside the noise."),
    seed: int = SEED,
    bid: str = BID,
    play: str = PLAY,
    threads: Optional[int] = THREADS,
    cluster: Optional[str] = CLUSTER,
    scheduler: Optional[str] = SCHEDULER,
    run_dir: Optional[Path] = RUN_DIR,
    resume: bool = RESUME,
    as_json: bool = JSON,
    quiet: bool = QUIET,
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
    from analyzer.output.files import write_impact
    from analyzer.questions.impact import compare_rules, parse_labels, total_units

    labels = parse_labels(variant.value if variant else None, players)
    with _staged(out) as stage:  # the folder rule is checked before any work
        _compiling_notice("rules", quiet)
        with _backend(cluster, scheduler, run_dir, resume, "rules", locals()), \
                _progress(total_units(labels, option, deals, games), quiet, "comparing") as update:
            r = compare_rules(labels, option, deals=deals, games=games, seed=seed, bid=bid, play=play,
                              threads=threads, progress=update)
        files = []
        if stage is not None:
            inputs = r.inputs()
            files = _save(stage, lambda folder: write_impact(r, folder), {
                "command": _command(), "seed": seed, "deals": deals, "games": games,
                "rules": {c["variant"] + ": " + c["option"]: {"a": c["rules_a"], "b": c["rules_b"]}
                          for c in inputs["comparisons"]},
                "policies": inputs["policies"]})
    if as_json:
        _json({"command": _command(), **r.as_dict(), "files": files})
        return
    _render_rules(r, all_rows)
    _console().print(f"{r.hands_simulated:,} hands in {r.seconds:.1f} s"
                     + (f"; {len(files)} files written to {out}" if files else ""), style="dim")


def _render_rules(r, all_rows: bool) -> None:
    from functools import partial

    from rich import box
    from rich.table import Table

    Table = partial(Table, box=box.SIMPLE_HEAD)  # noqa: N806 - narrow tables for 80-column terminals

    from analyzer.questions.impact import REVISION_STATS, fmt_pm

    con = _console()
    df = r.table()
    heads = dict(REVISION_STATS)
    for lab in r.labels:  # revision 2: one column per change, the headline statistics as rows
        rev = df[(df["kind"] == "revision 2") & (df["variant"] == lab) & df["statistic"].isin(list(heads))]
        if not len(rev):
            continue
        changes = list(dict.fromkeys(rev["comparison"]))
        t = Table(title=f"{lab}: rules revision 2, after − before (± 95% half-width; {r.deals:,} deals and "
                  f"{r.games:,} games per reading, seed {r.seed})", caption="bold: beyond the noise")
        t.add_column("statistic")
        for ch in changes:
            t.add_column(ch.replace(": ", "\n"), justify="right")
        t.add_column("n (before)", justify="right")
        for key, title in REVISION_STATS:
            cells = rev[rev["statistic"] == key].set_index("comparison")
            if not len(cells):
                continue
            row = [title]
            for ch in changes:
                x = cells.loc[ch] if ch in cells.index else None
                row.append("—" if x is None else (f"[bold]{fmt_pm(x)}[/bold]" if x["beyond_noise"] else fmt_pm(x)))
            row.append(f"{int(cells.iloc[0]['n']):,}")
            t.add_row(*row)
        con.print(t)
    for lab in r.labels:
        sub = r.ranked(lab, kind="option", all_rows=all_rows)
        n_all = int(((df["variant"] == lab) & (df["kind"] == "option")).sum())
        n_beyond = int(r.ranked(lab, kind="option").shape[0])
        t = Table(title=f"{lab}: {n_beyond} of {n_all} differences beyond the noise"
                  + (" (dim: inside the noise)" if all_rows else ", largest first") + " — other reading − default")
        for col in ("option", "statistic", "default", "other", "difference", "n", "size"):
            t.add_column(col, justify="left" if col in ("option", "statistic") else "right", no_wrap=col == "option")
        for row in sub.to_dict("records"):
            t.add_row(row["comparison"], row["label"], f"{row['a']:.2f}", f"{row['b']:.2f}", fmt_pm(row),
                      f"{row['n']:,}", f"{row['size']:.3f}", style=None if row["beyond_noise"] else "dim")
        con.print(t)
    gc = r.games_changed()
    if len(gc):
        t = Table(title="Paired games changed by the option (any count differs)")
        for col in ("variant", "comparison", "changed [95% CI]", "games"):
            t.add_column(col, justify="left" if col in ("variant", "comparison") else "right")
        for row in gc[gc["kind"] == "option"].itertuples():
            t.add_row(row.variant, row.comparison, f"{100 * row.p:.1f}% [{100 * row.lo:.1f}, {100 * row.hi:.1f}]",
                      f"{row.games:,}")
        con.print(t)
    con.print("Rates in %, their differences in percentage points; ± = 95% half-width (paired); size = |difference| / "
              "per-unit sd of the default reading.", style="dim")


@app.command()
def report(
    out: Optional[Path] = typer.Option(None, "--out", help="The report folder (default: reports/report-deals<N>-seed<S>)."),
    deals: int = typer.Option(2_000_000, "--deals", min=1, max=MAX_DEALS,
                              help="Hands per variant for balance; table uses deals/2 per variant, games deals/40, "
                              "take deals/20 per example."),
    seed: int = SEED,
    bid: Optional[str] = typer.Option(
        None, "--bid", show_default="calibrated", help="Bidding policy of the examples, tables and balance, for "
        "every seat: calibrated (each variant's shipped policy), heuristic or random. Section 4 compares the "
        "calibrated and the heuristic bidders either way."),
    variants: Optional[str] = typer.Option(
        None, "--variants", show_default="every variant", help="Comma-separated variants to report on (classic, "
        "piekjas2, piekjas3, piekjas4, dekjas), with their example hands: a smaller, quicker report."),
    threads: Optional[int] = THREADS,
    cluster: Optional[str] = CLUSTER,
    scheduler: Optional[str] = SCHEDULER,
    run_dir: Optional[Path] = RUN_DIR,
    resume: bool = RESUME,
    as_json: bool = JSON,
    quiet: bool = QUIET,
):
    """The main job: take (example hands), table (every variant) and balance, as one report.

    Writes index.md, which opens with a page of findings (each with its number and interval,
    written from the report's own numbers), plots embedded, every number with its n and CI,
    the policies and rule options used; index.html, the same as a web page; CSV and Parquet
    tables, PNG plots and run.json (version, commit, seed, parameters, timings, hands
    simulated). The folder appears only when complete. Every
    seat bids with the calibrated policy of its variant; the report also shows what
    calibration changes against the heuristic bidders, what each rule option changes, and
    the bracket: the examples and the classic table under PIMC and double dummy play (small
    samples, their n shown; a few minutes of the report's time).

    Examples:

      belote report

      belote report --deals 200000 --seed 7 --out reports/quick

      belote report --bid heuristic

      belote report --variants classic --deals 100000
    """
    from analyzer.output.report import check_writable, default_name, examples_for, make_report
    from analyzer.questions.balance import parse_variants

    _some = {}  # (not a run-folder input: --variants is)
    if variants is not None:
        _labels = tuple(r.label for r in parse_variants(variants))
        _some = {"variants": _labels, "examples": examples_for(_labels)}
    check_writable(out if out is not None else
                   Path("reports") / default_name(deals, seed, bid, _some.get("variants")))  # before any work
    _compiling_notice("report", quiet)
    with _backend(cluster, scheduler, run_dir, resume, "report", locals()), \
            _progress(deals, quiet, "report", count=False) as update:  # units: planned ms (CostProgress)
        r = make_report(out, deals=deals, seed=seed, threads=threads, progress=update, command=_command(), bid=bid,
                        **_some)
    if as_json:
        _json({"command": _command(), "path": str(r.path), "run": r.run})
        return
    typer.echo(f"report written to {r.path}/index.md (and index.html): {r.run['hands_simulated']['total']:,} hands in "
               f"{r.run['timings']['total']:.0f} s")


# ---- calibrate ---------------------------------------------------------------------------


@app.command()
def calibrate(
    variant: Variant = VARIANT,
    players: Optional[int] = PLAYERS,
    play: str = PLAY,
    rule: Optional[List[str]] = RULE,
    deals: int = typer.Option(40_000, "--deals", min=1, max=MAX_DEALS,
                              help="Deals an iteration (the same deals every iteration)."),
    iterations: int = typer.Option(
        20, "--iterations", min=1, max=50, help="Most iterations before giving up (each smous sweep that moves adds "
        "take/pass iterations)."),  # = calibrate.DEFAULT_ITER (tested)
    out: Optional[Path] = typer.Option(None, "--out", help="The policy file to write (JSON)."),
    all_: bool = typer.Option(False, "--all", help="Every variant label: classic, piekjas2, piekjas3, piekjas4, dekjas."),
    ship: bool = typer.Option(False, "--ship", help="Write the package's shipped policies (default rules only); "
                              "refused for a calibration that resolved nothing (status unresolved)."),
    objective: Objective = typer.Option(
        Objective.net, "--objective", help="What a threshold is calibrated on: net = your side's score minus the "
        "best other side's (counts what a dedans gives away, as take ranks calls); score = your side's own score."),
    classes: bool = typer.Option(
        True, "--classes/--no-classes", help="Also calibrate class overrides (take or pass a hand class of belote "
        "table whatever the threshold says, where the data resolve it); --no-classes: thresholds only."),
    smous_deals: Optional[int] = typer.Option(
        None, "--smous-deals", min=0, max=MAX_DEALS, help="2 players: sweep the smous offer margin and answer seat by "
        "seat, each candidate by a duplicate match on this many deals (default: --deals; 0: keep the heuristic's)."),
    suits: bool = typer.Option(
        False, "--suits", help="Then measure the calibrated policy's suit choices (the koe's suit, the round-2 suit): "
        "at every koe and round-2 take on the same deals, each other allowed suit played forced against the "
        "best-scoring one; printed, and written in the policy file's decisions (always on with --ship)."),
    koe_choice: bool = typer.Option(
        True, "--koe-choice/--no-koe-choice", help="Piekjas and Dekjas: also calibrate the koe's suit (weights for "
        "trump length and the turned suit added to the strength score in the koe's choice only, swept on the koe's "
        "forced runs); --no-koe-choice: the best-scoring suit."),
    seed: int = SEED,
    threads: Optional[int] = THREADS,
    cluster: Optional[str] = CLUSTER,
    scheduler: Optional[str] = SCHEDULER,
    as_json: bool = JSON,
    quiet: bool = QUIET,
):
    """Calibrate the heuristic bidder's thresholds by round and seat, its class overrides
    and (2 players) its smous offer and answer, to a fixed point.

    Iterates: measure the paired net gain of taking over passing per (round, seat,
    strength bin) and per hand class under the current policy in every seat; move each
    threshold to where the monotone fit of the gain crosses 0 when the hands in between
    resolve it (95% interval excludes 0); give a class a take (pass) override where the
    part of it the threshold passes (takes) resolves the other way; repeat until nothing
    moves. Once take/pass settles, sweep (2 players) each seat's smous margin and answer
    by duplicate match and (Piekjas, Dekjas) the koe's suit weights on its forced runs, and
    iterate again while they move. Objective: the net hand score
    (--objective score: the own side's score).
    Use the result with --bid FILE (or --bid calibrated for the shipped policies).

    Examples:

      belote calibrate --variant dekjas --out dekjas-policy.json

      belote simulate --variant dekjas --bid dekjas-policy.json

      belote calibrate --variant piekjas --players 3 --suits

      belote calibrate --all --ship

      belote calibrate --all --ship --play net    (the bidders of a seat that plays net)
    """
    from analyzer.players.policy_files import SHIPPED_PLAYS
    from analyzer.questions import calibrate as C
    from analyzer.questions import suits as S
    from analyzer.rules import Rules

    if ship and rule:
        raise BeloteError("--ship writes the policies for the default rules: drop --rule, or use --out FILE")
    if ship and objective != Objective.net:
        raise BeloteError("--ship writes the policies calibrated on net: drop --objective, or use --out FILE")
    if ship and play.strip() not in SHIPPED_PLAYS:
        raise BeloteError(f"--ship writes the policies for {' or '.join(SHIPPED_PLAYS)} play: give --play "
                          f"{' or --play '.join(SHIPPED_PLAYS)}, or use --out FILE")
    if ship and not classes:
        raise BeloteError("--ship writes the policies with class overrides: drop --no-classes, or use --out FILE")
    if ship and not koe_choice:
        raise BeloteError("--ship writes the policies with the koe's suit calibrated: drop --no-koe-choice, or use "
                          "--out FILE")
    if ship and smous_deals == 0:
        raise BeloteError("--ship writes the policies with the smous decisions calibrated: drop --smous-deals 0, "
                          "or use --out FILE")
    if all_:
        if not ship or out is not None:
            raise BeloteError("--all writes the shipped policies: use --all --ship (one variant: --variant V --out FILE)")
        targets = [(Rules.from_label(lab), C.shipped_path(lab, play.strip())) for lab in C.SHIPPED_LABELS]
    else:
        rules = _rules(variant, players, rule)
        if ship:
            target = C.shipped_path(rules.label, play.strip())
        else:
            target = out
        targets = [(rules, target)]
    for _, target in targets:  # every output checked before any work (a device or a pipe before it is read)
        if target is not None:
            C.check_policy_target(target)
    results = []
    for rules, target in targets:
        with _backend(cluster, scheduler), _progress(iterations, quiet, f"calibrating {rules.label}") as update:
            cal = C.calibrate(rules, play=play, deals=deals, seed=seed, max_iter=iterations, threads=threads,
                              objective=objective.value, class_overrides=classes, sweep_deals=smous_deals,
                              progress=lambda k, moves: update(k), koe_choice=koe_choice)
        if ship and cal.status == "unresolved":  # a shipped policy must rest on something
            raise BeloteError(f"--ship refuses the {rules.label} calibration, {cal.unresolved_note()}")
        if suits or ship:
            with _backend(cluster, scheduler), _progress(cal.deals, quiet, f"suit choices {rules.label}") as update:
                cal.suits = S.measure_calibration(cal, threads=threads, progress=update)
        written = str(C.write_policy(cal, target)) if target is not None else None
        results.append((cal, written))
        if not as_json:
            typer.echo(cal.summary() + (f"\n{cal.suits.summary()}" if cal.suits is not None else "")
                       + (f"\n  policy written to {written}" if written else ""))
    if as_json:  # one object, as every --json: the header, then each calibration as its policy file holds it
        _json({"command": _command(),
               "calibrations": [dict(cal.as_policy(), file=w, **({"suits": cal.suits.as_dict()} if cal.suits else {}))
                                for cal, w in results]})


# ---- warmup ------------------------------------------------------------------------------


@app.command()
def warmup(quiet: bool = typer.Option(False, "--quiet", "-q", help="No progress lines.")):
    """Compile the kernels every command needs, once for this machine (make install runs it).

    A command run on a cold kernel cache compiles first, for minutes; after warmup it
    answers at once. Kernels already compiled are not compiled again: warmup then says so
    in under a second. Kernels go to BELOTE_CACHE_DIR (default ~/.cache/belote-analyzer).

    Examples:

      belote warmup

      BELOTE_CACHE_DIR=/srv/belote-kernels belote warmup
    """
    import time

    import numba.core.config

    from analyzer.questions.warmup import warmup as compile_kernels

    t0 = time.monotonic()
    compiled = compile_kernels(say=lambda line: quiet or typer.echo(line, err=True))
    where = numba.core.config.CACHE_DIR
    typer.echo(f"kernels compiled in {time.monotonic() - t0:.0f} s into {where}" if compiled
               else f"kernels already compiled ({where})")


# ---- learn -------------------------------------------------------------------------------


@app.command()
def learn(
    variant: Variant = VARIANT,
    players: Optional[int] = PLAYERS,
    deals: int = typer.Option(200_000, "--deals", min=10, max=10_000_000, help="Deals whose decisions train the model."),
    test_deals: int = typer.Option(20_000, "--test-deals", min=10, max=10_000_000,
                                   help="Deals of --test-seed the model is judged on (never trained on)."),
    target: str = typer.Option("rollout", "--target", help="What a card is worth: rollout (pimc's value of the card "
                               "followed by heuristic play on the true deal: 4 x the net hand score + the card-point "
                               "margin) or dd (the double-dummy card points; about 100 times slower)."),
    anchor: Optional[float] = typer.Option(None, "--anchor", min=0.0, max=1e6, help="Fix the weight of the "
                                           "heuristic's card at this many units: leave it only for a larger predicted gain."),
    seed: int = SEED,
    test_seed: int = typer.Option(2, "--test-seed", min=0, max=SEEDS - 1, help="The seed of the held-out deals."),
    ridge: float = typer.Option(1.0, "--ridge", min=0.0, max=1e6, help="The ridge penalty of the least squares."),
    write: bool = typer.Option(False, "--write", help="Write the weights into analyzer/players/net_weights.py "
                               "(the row of this variant), with their provenance."),
    threads: Optional[int] = typer.Option(None, "--threads", min=1, max=256, help="Processes that value the "
                                          "decisions (default: all cores). Results do not depend on it."),
    as_json: bool = JSON,
    quiet: bool = QUIET,
):
    """Train the net play policy, and judge it on held-out deals.

    Every decision of deals bid and played by the heuristic: each legal card's features as the
    seat sees it, and the card's value on the true deal (--target: pimc's own evaluator, the card
    followed by heuristic play, or double dummy). The model (a weight per feature and per pair of
    features, ridge least squares within each decision, one block of weights per role and stage of
    the hand) is then
    judged on deals of --test-seed: the value it gives away per decision, next to the heuristic's.
    --write ships the weights (analyzer/players/net_weights.py) with their provenance.

    Examples:

      belote learn --deals 20000 --test-deals 5000

      belote learn --variant piekjas --players 2 --write
    """
    from analyzer.runs import learn as L

    if target not in ("rollout", "dd"):
        raise BeloteError(f'--target must be rollout or dd, not "{target}"')
    rules = _rules(variant, players, None)
    with _progress(deals, quiet, "training deals") as update:
        train = L.decisions_parallel(rules, seed, deals, threads, progress=update, label=target)
    with _progress(test_deals, quiet, "held-out deals") as update:
        test = L.decisions_parallel(rules, test_seed, test_deals, threads, progress=update, label=target)
    with _progress(int(train.x.shape[0]), quiet, "fitting (rows)") as update:
        w = L.fit(train, ridge, anchor, progress=update)
    r = {"rules": rules.label, "seed": seed, "target": target, "anchor": anchor,
         "train": {"deals": deals, "decisions": train.n, "seconds": round(train.seconds, 1)},
         "test_seed": test_seed, "ridge": ridge, "in_sample": L.evaluate(train, w), "held_out": L.evaluate(test, w),
         "weights": [round(float(x), 6) for x in w]}
    if write:
        from analyzer.output.outdir import provenance

        prov = {k: r[k] for k in ("seed", "test_seed", "ridge", "target", "anchor")} | {
            "commit": provenance().get("git_commit"), "train_deals": deals, "train_decisions": train.n,
            "held_out": {k: r["held_out"][k] for k in ("decisions", "deals", "net_loss", "heuristic_loss", "difference",
                                                       "difference_ci", "net_best", "heuristic_best")}}
        from analyzer.players import net_weights

        L.write_weights(net_weights.__file__, {rules.label: w}, {rules.label: prov})
    if as_json:
        _json({"command": _command(), **r})
        return
    h = r["held_out"]
    typer.echo(f"{rules.label}: trained on {train.n:,} decisions of {deals:,} deals (seed {seed}), judged on "
               f"{h['decisions']:,} decisions of {test_deals:,} deals (seed {test_seed})")
    unit = "card points given away per decision against double dummy" if target == "dd" else \
        "value given away per decision against the best card's (4 x net score + card points, heuristic play-out)"
    typer.echo(f"{unit}: net {h['net_loss']:.3f}, heuristic "
               f"{h['heuristic_loss']:.3f}; difference {h['difference']:+.3f} [{h['difference_ci'][0]:+.3f}, "
               f"{h['difference_ci'][1]:+.3f}] (paired, 95%)")
    typer.echo(f"a best card: net {100 * h['net_best']:.1f}%, heuristic {100 * h['heuristic_best']:.1f}%; net plays "
               f"another card than the heuristic in {100 * h['differs_from_heuristic']:.1f}% of decisions")
    if write:
        typer.echo(f"weights written to {L.WEIGHTS_FILE} ({rules.label})")


# ---- serve -------------------------------------------------------------------------------


@app.command()
def serve(
    host: str = typer.Option("127.0.0.1", "--host", help="The address to listen on. The default answers this "
                             "machine only; any other (0.0.0.0: every network) lets others use your CPU and read "
                             "your reports and logs."),
    port: int = typer.Option(8765, "--port", min=0, max=65535, help="The port (0: a free one, printed)."),
    reports: Path = typer.Option(Path("reports"), "--reports", help="The folder of reports the Reports page shows."),
    log: Optional[List[Path]] = typer.Option(None, "--log", help="A deal log (belote simulate --log) whose deals the "
                                             "Review page offers (repeatable)."),
    jobs: int = typer.Option(2, "--jobs", min=1, max=64, help="Questions computed at once; the next ones wait."),
    queue: int = typer.Option(8, "--queue", min=0, max=1000, help="Questions that may wait; more are refused."),
    max_seconds: float = typer.Option(600.0, "--max-seconds", min=1.0, max=86400.0,
                                      help="The longest one question may compute before it is stopped."),
    warm: bool = typer.Option(True, "--warmup/--no-warmup", help="Compile the kernels before listening "
                              "(belote warmup; under a second when compiled), so the first question answers at once."),
    quiet: bool = QUIET,
):
    """A local web page over the analyser: should I take? (click your cards), a deal reviewed card
    by card, and the reports. Needs the web extra: pip install 'belote-analyzer[web]'.

    Examples:

      belote serve

      belote simulate --deals 100 --log deals.jsonl && belote serve --log deals.jsonl

      belote serve --port 0 --jobs 1 --max-seconds 120
    """
    import socket

    from analyzer.web.serve import LOOPBACK, read_logs, run

    try:
        import starlette  # noqa: F401
        import uvicorn  # noqa: F401
    except ImportError:
        raise BeloteError("belote serve needs the web extra: pip install 'belote-analyzer[web]' (make install "
                          "and make test install it)") from None
    from analyzer.web.jobs import Limits

    logs = read_logs(log or [])
    limits = Limits(running=jobs, waiting=queue, seconds=max_seconds)
    if warm:
        from analyzer.questions.warmup import warmup as compile_kernels

        compile_kernels(say=lambda line: quiet or typer.echo(line, err=True))
    try:
        sock = socket.create_server((host, port), family=socket.AF_INET6 if ":" in host else socket.AF_INET)
    except OSError as e:
        raise BeloteError(f"cannot listen on {host}:{port} ({e.strerror}): choose another --port, or --port 0") from None
    if host not in LOOPBACK:
        typer.echo(f"belote: WARNING: listening on {host}, not only this machine: anyone who reaches it can run "
                   f"questions on your CPU and read the reports in {reports} and the logs given", err=True)
    url_host = f"[{host}]" if ":" in host else host
    typer.echo(f"belote serve: http://{url_host}:{sock.getsockname()[1]}/  (should I take? · /review · /reports; "
               "Ctrl-C stops)", err=False)
    sys.stdout.flush()
    run(sock, host, reports, logs, limits, quiet)


# ---- entry point -----------------------------------------------------------------------

_ARGV: Optional[List[str]] = None  # the command line being run, for run.json and --json
_interrupted = 0  # the first SIGINT / SIGTERM received, 0 before
_raised = False  # whether the signal handler has raised Interrupted
_finished = False  # whether the command has returned (``entry``): a signal is then noted, not raised
_late = 0  # a signal received after the command had returned


class Interrupted(KeyboardInterrupt):
    """Ctrl-C or SIGTERM: unwinds like Ctrl-C, so every ``finally`` removes what it half wrote."""


def _inside_kernel(frame) -> bool:
    """Whether Python runs here as a callback of a running numba kernel (numba unpickling a
    constant): an exception raised there is not expected by the compiled code, which then
    fails with a SystemError or crashes."""
    return frame is not None and frame.f_code.co_filename.endswith(os.path.join("numba", "core", "serialize.py"))


def _on_signal(signum, frame):
    # The first signal interrupts; later ones (SIGTERM after Ctrl-C, a second Ctrl-C) are
    # swallowed, so they cannot cut short the cleanup the first one started. (A Python
    # no-op rather than SIG_IGN: a second signal already pending is then run quietly.)
    global _interrupted, _raised, _late
    if _finished:
        _late = _late or signum
        return
    _interrupted = _interrupted or signum
    if _raised:
        return
    if _inside_kernel(frame):  # not here: try again in 20 ms, by then back in our own code
        signal.signal(signal.SIGALRM, lambda _s, f: _on_signal(signum, f))
        signal.setitimer(signal.ITIMER_REAL, 0.02)
        return
    _raised = True
    signal.setitimer(signal.ITIMER_REAL, 0)
    signal.signal(signal.SIGINT, _after_interrupt)
    signal.signal(signal.SIGTERM, _after_interrupt)
    raise Interrupted(signum)


def _after_interrupt(signum, frame):
    pass


def _check_interrupted() -> None:
    """Raise ``Interrupted`` if a signal came: the backstop for an exception raised by the
    handler where Python drops it (a finaliser, a callback), run at every progress update."""
    if _interrupted:
        raise Interrupted(_interrupted)


def _interrupted_exit() -> int:
    if signal.getsignal(signal.SIGTERM) in (_on_signal, _after_interrupt):  # the console script's handlers
        signal.setitimer(signal.ITIMER_REAL, 0)  # a retry still armed must not fire while exiting
        # Ignored at the C level: Python's shutdown resets its own handlers to the defaults,
        # and a second signal arriving then would kill the process with 143 instead of 130.
        for sig in (signal.SIGALRM, signal.SIGINT, signal.SIGTERM):
            signal.signal(sig, signal.SIG_IGN)
    typer.echo("belote: interrupted", err=True)
    return 130


def _handle_signals() -> None:
    signal.signal(signal.SIGINT, _on_signal)
    signal.signal(signal.SIGTERM, _on_signal)


def _usage_message(e) -> str:
    """A usage error in the project's words: ``--deals must be at least 1``, not the validator's."""
    import re

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
    global _ARGV
    _ARGV = list(sys.argv[1:] if argv is None else argv)
    try:
        from analyzer.runs.kernelcache import use_writable_cache

        use_writable_cache()  # before any kernel module is imported (and guards the cache's reads)
        _held.clear()
        rv = app(args=argv, prog_name="belote", standalone_mode=False)
        if _held and rv in (None, 0):  # the results are printed: now the write that failed (_hold)
            raise _held[0]
    except BeloteError as e:
        typer.echo(f"belote: error: {e}", err=True)
        return 2
    except typer.Exit as e:
        return e.exit_code
    except (typer.Abort, KeyboardInterrupt):
        return _interrupted_exit()
    except typer.TyperException as e:  # usage errors: bad option, missing argument, bad value
        ctx = getattr(e, "ctx", None)
        if type(e).__name__ == "NoArgsIsHelpError" and ctx is not None:
            typer.echo(ctx.get_help())  # a bare 'belote' or 'belote CMD' shows its help
            return 0
        cmd = ctx.command_path if ctx is not None else "belote"
        typer.echo(f"belote: error: {_usage_message(e)} (see '{cmd} --help')", err=True)
        return 2
    if rv == 130:  # typer turns a KeyboardInterrupt inside a command into exit code 130
        return _interrupted_exit()
    return rv if isinstance(rv, int) else 0


def _exit_status(code: int) -> int:
    """Python's own exit, run here while our signal handlers still work, and the exit status.

    After the command, Python's shutdown takes a quarter of a second (numba's modules torn
    down), and from its middle on it resets our handlers to the defaults: a SIGTERM then
    killed the process with 143, no message, and the results not yet flushed from a pipe's
    buffer were lost. So ``entry`` does what matters of that shutdown itself (wait for the
    threads, run the ``atexit`` functions, flush the output: ``threading._shutdown`` is what
    Python calls first), notes a signal that comes meanwhile (``_finished``), and then ends
    the process with ``os._exit`` (no teardown left for a signal to cut short). A signal after
    the command had finished: its output is complete, and the status 130 all the same."""
    import atexit
    import threading

    threading._shutdown()
    atexit._run_exitfuncs()
    if _late:
        typer.echo("belote: interrupted after the command had finished (its output is complete)", err=True)
        code = 130
    for stream in (sys.stdout, sys.stderr):
        try:
            stream.flush()
        except OSError:  # a closed pipe, a full disk: the status Python's own exit gives
            code = code or 120
    return code


def entry():
    global _finished
    _handle_signals()
    try:
        code = main()
        _finished = True
    except KeyboardInterrupt:  # a signal between the end of main's own handling and here
        code = _interrupted_exit()
    os._exit(_exit_status(code))


if __name__ == "__main__":
    entry()
