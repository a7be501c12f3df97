"""The options the commands share, each declared once with its help text.

Each is a ``typing.Annotated`` alias a command gives its parameter, the default beside it:
``seed: Seed = 1``, ``quiet: Quiet = False`` (typer's way to share options, as pip-tools
shares its own). The choices are Enums.
"""

from __future__ import annotations

from enum import Enum
from pathlib import Path
from typing import Annotated, List, Optional

import typer

from analyzer.players.policies import DEFAULT_PLAY, FAST_PLAY
from analyzer.runs.limits import CONNECT_SECONDS, SEEDS


class Variant(str, Enum):
    classic = "classic"
    piekjas = "piekjas"
    dekjas = "dekjas"


class Lang(str, Enum):
    en = "en"
    nl = "nl"


class Objective(str, Enum):
    net = "net"
    score = "score"
    win = "win"


# ---- the game and its rules ------------------------------------------------------------

VariantOption = Annotated[Variant, typer.Option("--variant", help="Which game.")]
Players = Annotated[Optional[int], typer.Option(
    "--players", help="Players (piekjas 2-4; classic 4; dekjas 2). Default: the variant's usual count.")]
RuleOptions = Annotated[Optional[List[str]], typer.Option(
    "--rule", help="Rule option KEY=VALUE (repeatable), e.g. --rule undertrump=free.")]
LangOption = Annotated[Lang, typer.Option("--lang", help="Card and word language: en or nl (B V H A, k r h s).")]
# the commands that take several variants (balance, report, bench): --variant repeatable, by label, or all
VariantLabels = Annotated[Optional[List[str]], typer.Option(
    "--variant", show_default="all", help="Which games (repeatable): classic, piekjas2, piekjas3, piekjas4, dekjas, "
    "or all.")]
OldVariants = Annotated[Optional[str], typer.Option("--variants", hidden=True)]  # the old spelling, still read


def deprecated(old: str, new: str) -> None:
    """The one line that says an old spelling's new one (the old spelling still works)."""
    typer.echo(f"belote: {old} is now {new}", err=True)


def variant_or_all(name: Optional[str]) -> Optional[Variant]:
    """``--variant`` of a command that runs one variant or every one (rules, calibrate): the
    Variant, or None for ``all``."""
    from analyzer.errors import BeloteError

    if name is None or name == "all":
        return None
    if name not in Variant.__members__:
        raise BeloteError(f'unknown variant "{name}" for --variant: use {", ".join(Variant.__members__)} or all')
    return Variant(name)


def variant_labels(names: Optional[List[str]], old: Optional[str] = None) -> Optional[tuple]:
    """The labels ``--variant`` names (repeatable; ``all``: every label), in the order given, each
    once; None when none is named. ``old``: the old spelling ``--variants a,b``, read as
    ``--variant a --variant b`` with a line that says so."""
    from analyzer.errors import BeloteError
    from analyzer.rules import ALL_LABELS, Rules

    if old is not None:
        if names:
            raise BeloteError("give --variant (repeatable) without --variants, its old spelling")
        names = [s for s in old.replace(" ", ",").split(",") if s]
        if not names:
            raise BeloteError("--variants is empty: give e.g. --variant classic --variant piekjas3")
        deprecated(f"--variants {old}", " ".join(f"--variant {n}" for n in names))
    if not names:
        return None
    labels = []
    for name in names:
        for lab in ALL_LABELS if name == "all" else (Rules.from_label(name).label,):
            if lab not in labels:
                labels.append(lab)
    return tuple(labels)

# ---- the policies ----------------------------------------------------------------------

Bid = Annotated[str, typer.Option(
    "--bid", help="Bidding policy for all seats, or per seat: 0=heuristic,1=random.")]
BidCalibrated = Annotated[Optional[str], typer.Option(  # the questions' default: the bidders the bidding tables
    "--bid", show_default="calibrated",                 # agree with (docs/CALIBRATION.md)
    help="Bidding policy for all seats, or per seat: 0=heuristic,1=random; "
    "calibrated = the policy shipped for the variant, FILE = a belote calibrate file. Default: calibrated, or "
    "heuristic where no shipped policy fits (with --rule, or --play other than heuristic; the output says so).")]
_PLAY_HELP = ("per seat (0=heuristic,1=random) or by role (taker=random,defence=heuristic: the troefmaker's side, "
              "the defenders)")
Play = Annotated[Optional[str], typer.Option(  # the questions' default: the strongest player they can afford
    "--play", show_default=DEFAULT_PLAY,
    help=f"Play policy for all seats, {_PLAY_HELP}. Default {DEFAULT_PLAY}: the learned player, who plays about "
    f"as well as pimc; --play {FAST_PLAY} is the fast option (about 15 times faster, and weaker: it gains "
    "little over random play in the taker's card points).")]
PlayHeuristic = Annotated[str, typer.Option(  # simulate: the engine itself, the fast player by default
    "--play", help=f"Play policy for all seats, {_PLAY_HELP}.")]

# ---- the numbers -----------------------------------------------------------------------

Seed = Annotated[int, typer.Option(
    "--seed", min=0, max=SEEDS - 1, help="Random seed, 0 to 2**64 - 1: the same seed gives the same numbers.")]

# ---- where the hands run, and a run recorded as it goes ----------------------------------

Threads = Annotated[Optional[int], typer.Option(
    "--threads", help="Threads (default: all cores). Results do not depend on it.")]
Cluster = Annotated[Optional[str], typer.Option(
    "--cluster", help="Run on a new Dask cluster of N worker processes on this machine: "
    "local:N, N at most the machine's cores (local:N! forces N; needs belote-analyzer[dask]). "
    "Results do not depend on it.")]
Scheduler = Annotated[Optional[str], typer.Option(
    "--scheduler", envvar="DASK_SCHEDULER_ADDRESS",
    help="Run on an existing Dask cluster: its scheduler, tcp://HOST:PORT "
    f"(default: $DASK_SCHEDULER_ADDRESS), which must answer within {CONNECT_SECONDS:g} s. "
    "Results do not depend on it.")]
RunDir = Annotated[Optional[Path], typer.Option(
    "--run-dir", help="Record each finished batch in this folder as the run goes, "
    "so an interrupted run can continue with --resume (one run at a time per folder).")]
Resume = Annotated[bool, typer.Option(
    "--resume", help="Continue the run recorded in --run-dir: the same inputs, the same numbers "
    "(each recorded batch is checked against its checksum; one that does not match is refused, and so is "
    "a folder recorded by other code or data, e.g. before a git pull or belote learn --write).")]

# ---- what is printed -------------------------------------------------------------------

Json = Annotated[bool, typer.Option("--json", help="Print one JSON object instead of tables.")]
Quiet = Annotated[bool, typer.Option("--quiet", "-q", help="No progress bar.")]

# ---- a deal typed by hand (review, analyse) ----------------------------------------------

Taker = Annotated[Optional[int], typer.Option("--taker", show_default="0",
                                             help="With --hands: the troefmaker's seat.")]
Plays = Annotated[str, typer.Option(
    "--plays", help="With --hands: the cards played so far, in order (seat 0 leads; each "
    "trick's winner leads the next).")]
