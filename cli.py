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

        # started on the first update, so bad input fails before any bar is drawn
        live = {}

        def update(done):
            if not live:
                live["bar"] = Progress(TextColumn(label), BarColumn(), MofNCompleteColumn(), TimeRemainingColumn(),
                                       transient=True, console=_err_console())
                live["bar"].start()
                live["task"] = live["bar"].add_task(label, total=total)
            live["bar"].update(live["task"], completed=done)

        try:
            yield update
        finally:
            if live:
                live["bar"].stop()

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
    deals: int = typer.Option(100_000, "--deals", min=1, help="Paired deals to keep (deals where the earlier seats passed)."),
    precision: Optional[float] = typer.Option(
        None, "--precision", help="Instead of --deals: simulate until the 95% half-width of the verdict's "
        "difference is at most this many points (capped by --max-deals)."),
    max_deals: int = typer.Option(2_000_000, "--max-deals", min=1, help="The cap on paired deals with --precision."),
    seed: int = SEED,
    bid: str = BID,
    play: str = PLAY,
    rule: Optional[List[str]] = RULE,
    threads: Optional[int] = THREADS,
    as_json: bool = JSON,
    quiet: bool = QUIET,
):
    """Should I take with this hand? Every call open, played out on the same sampled deals.

    Unknown cards are sampled given what you see; when earlier seats bid first, only deals
    where they all passed (under the bidding policy) are kept. For each call: your side's
    expected hand score and net score (minus the best other side's), the paired differences
    to passing, p_we_take, p_made, p_dedans, p_tie, p_capot_for, p_pit_against (and
    p_not_played when deals were passed out or redealt), each a share of all deals, with
    95% CIs; then the verdict. The same names as the report and its CSV.

    Examples:

      belote take "Jh 9h Ah Tc 7s" --turned Qh

      belote take "Js 9s As 7h 8c" --turned Td --seat 1 --round 2 --precision 1

      belote take "Js Qs Ks 9d Ad 7c" --turned 8s --variant piekjas --players 2 --seat 1 --json

      belote take --variant dekjas --mine "Jh 9h Ah Ac Tc 7d 8s Ks" --theirs "7c 8c 9c Qd Kd Ad Ts Qh" --turned Qh
    """
    from analyzer.policies import Policies
    from analyzer.take import analyse_take

    rules = _rules(variant, players, rule)
    pols = Policies.parse(bid, play, rules.players)
    total = max_deals if precision is not None else deals
    with _progress(total, quiet, "sampling") as update:
        r = analyse_take(rules, hand, turned, seat, round_, mine=mine, theirs=theirs, deals=deals,
                         precision=precision, max_deals=max_deals, seed=seed, policies=pols, calls=call,
                         objective=objective.value, threads=threads, progress=update)
    if as_json:
        typer.echo(json.dumps(r.as_dict()))
        return
    from rich.table import Table

    con = _console()
    from analyzer import take_table
    from analyzer.fmt import ci_rate

    t = Table(title=f"{r.situation.describe()}\n(n={r.n:,} paired deals, seed {seed}; ± = 95% half-width)")
    t.add_column("")
    for c in r.calls:
        t.add_column(c.call.label, justify="right")
    for name, vals in take_table.rows(r):
        t.add_row(name, *[take_table.cell(v) for v in vals])
    con.print(t)
    con.print(take_table.SHARE_SENTENCE, style="dim")
    if r.acceptance.p < 1:
        con.print(f"Earlier seats all passed in {ci_rate(r.acceptance)} of {r.acceptance.n:,} sampled deals "
                  "(rejection sampling under the bidding policy).")
    con.print(f"[bold]Verdict:[/bold] {r.verdict()}")
    con.print(f"{r.hands:,} hands in {r.seconds:.1f} s; bid={bid} play={play}; ranked by {objective.value}.",
              style="dim")


# ---- table -------------------------------------------------------------------------------


@app.command()
def table(
    variant: Variant = VARIANT,
    players: Optional[int] = PLAYERS,
    deals: int = typer.Option(200_000, "--deals", min=1, help="Deals to sample."),
    rounds: int = typer.Option(2, "--rounds", min=1, max=2, help="Bidding rounds to tabulate: 1, or 2 for both."),
    out: Optional[Path] = typer.Option(None, "--out", help="Write CSV, Parquet, heatmap PNGs and a markdown table here."),
    seed: int = SEED,
    bid: str = BID,
    play: str = PLAY,
    rule: Optional[List[str]] = RULE,
    threads: Optional[int] = THREADS,
    as_json: bool = JSON,
    quiet: bool = QUIET,
):
    """Bidding tables: which hands should take, by what a player recognises.

    At every bidding decision the policies reach, the hand is played with that seat taking
    and with it passing, on the same deal. Classes: which of the trump J 9 A 10 are held,
    trump length, side aces, voids, seat and round. Per class: n, how often the policy
    takes, P(made), P(dedans), P(capot) and the net gain of taking with its 95% CI; the
    break-even strength; the rule of thumb "trump J and 9 plus one or two aces" in numbers.

    Examples:

      belote table --deals 500000 --out reports/table-classic

      belote table --variant piekjas --players 3 --rounds 1 --json
    """
    from analyzer.policies import Policies
    from analyzer.simulate import SimConfig
    from analyzer.table import bidding_table

    rules = _rules(variant, players, rule)
    if out is not None:
        from analyzer.report import check_writable

        check_writable(out)
    cfg = SimConfig(rules=rules, policies=Policies.parse(bid, play, rules.players), deals=deals, seed=seed,
                    threads=threads)
    with _progress(deals, quiet, "tabulating") as update:
        t = bidding_table(cfg, rounds=rounds, progress=update)
    files = [str(p) for p in t.write(out)] if out is not None else []
    if as_json:
        d = t.as_dict()
        d["files"] = files
        typer.echo(json.dumps(d))
        return
    typer.echo(t.markdown())
    typer.echo(f"{t.hands:,} hands in {t.seconds:.1f} s" + (f"; {len(files)} files written to {out}" if out else ""))


# ---- balance -----------------------------------------------------------------------------


@app.command()
def balance(
    variants: str = typer.Option("classic,piekjas2,piekjas3,piekjas4,dekjas", "--variants",
                                 help="Comma-separated: classic, piekjas2, piekjas3, piekjas4, dekjas."),
    deals: int = typer.Option(1_000_000, "--deals", min=1, help="Hands per variant."),
    games: int = typer.Option(20_000, "--games", min=0, help="Whole games per variant (0: hands only)."),
    out: Optional[Path] = typer.Option(None, "--out", help="Write CSV, Parquet, PNG plots and balance.md here."),
    seed: int = SEED,
    bid: str = BID,
    play: str = PLAY,
    rule: Optional[List[str]] = RULE,
    threads: Optional[int] = THREADS,
    as_json: bool = JSON,
    quiet: bool = QUIET,
):
    """Compare the variants: bidding, outcomes, seat advantage, and whole games.

    Per variant, on single hands: take rate by round, koe, smous offered / accepted,
    passed out, made / dedans / tie, capot for and against, mean score and spread per
    seat, each seat's advantage; on whole games to the target: P(win) by seat, hands per
    game. Every number with its n and 95% CI.

    Examples:

      belote balance --deals 1000000 --games 20000 --out reports/balance

      belote balance --variants classic,piekjas3 --rule undertrump=free --json
    """
    from analyzer.balance import compare_variants, parse_variants

    labels = [r.label for r in parse_variants(variants)]
    if out is not None:
        from analyzer.report import check_writable

        check_writable(out)
    total = len(labels) * (deals + games)
    with _progress(total, quiet, "simulating") as update:
        b = compare_variants(labels, deals=deals, games=games, seed=seed, bid=bid, play=play,
                             rule_options=rule or [], threads=threads, progress=update)
    files = [str(p) for p in b.write(out)] if out is not None else []
    if as_json:
        d = b.as_dict()
        d["files"] = files
        typer.echo(json.dumps(d))
        return
    from rich.table import Table

    con = _console()
    ht = b.hand_table()
    t = Table(title=f"Hands: {deals:,} per variant, seed {seed}  (rate or mean, ± 95% half-width)")
    t.add_column("")
    for lab in labels:
        t.add_column(lab, justify="right")
    from analyzer.balance import HAND_STATS

    for key in [k for k, _ in HAND_STATS if k in set(ht["statistic"])]:
        sub = ht[ht["statistic"] == key].set_index("variant")
        cells = []
        for lab in labels:
            if lab not in sub.index:
                cells.append("—")
                continue
            r = sub.loc[lab]
            k = 100 if r["kind"] == "rate" else 1
            cells.append(f"{k * r['value']:.2f}{'%' if k == 100 else ''} ± {k * (r['hi'] - r['lo']) / 2:.2f}")
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
            row.append(f"{100 * r.p_win:.1f}% ± {100 * max(r.p_win - r.p_win_lo, r.p_win_hi - r.p_win):.1f}")
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
    con.print(f"{b.hands_simulated:,} hands in {b.seconds:.1f} s" + (f"; {len(files)} files written to {out}" if out else ""),
              style="dim")


# ---- report ------------------------------------------------------------------------------


@app.command()
def report(
    out: Optional[Path] = typer.Option(None, "--out", help="The report folder (default: reports/report-deals<N>-seed<S>)."),
    deals: int = typer.Option(2_000_000, "--deals", min=1,
                              help="Hands per variant for balance; table uses deals/2 per variant, games deals/40, "
                              "take deals/20 per example."),
    seed: int = SEED,
    threads: Optional[int] = THREADS,
    as_json: bool = JSON,
    quiet: bool = QUIET,
):
    """The main job: take (example hands), table (every variant) and balance, as one report.

    Writes index.md (plots embedded, every number with its n and CI, the policies and rule
    options used), CSV and Parquet tables, PNG plots and run.json (version, commit, seed,
    parameters, timings, hands simulated). The folder appears only when complete.

    Examples:

      belote report

      belote report --deals 200000 --seed 7 --out reports/quick
    """
    from analyzer.report import EXAMPLES, make_report
    from analyzer.rules import ALL_LABELS

    parts = 1000 * (len(EXAMPLES) + len(ALL_LABELS) + 1)  # make_report's progress units
    with _progress(parts, quiet, "report") as update:
        r = make_report(out, deals=deals, seed=seed, threads=threads, progress=lambda done, total: update(done))
    if as_json:
        typer.echo(json.dumps({"path": str(r.path), "run": r.run}, default=str))
        return
    typer.echo(f"report written to {r.path}/index.md: {r.run['hands_simulated']['total']:,} hands in "
               f"{r.run['timings']['total']:.0f} s")


# ---- calibrate ---------------------------------------------------------------------------


@app.command()
def calibrate(
    variant: Variant = VARIANT,
    players: Optional[int] = PLAYERS,
    play: str = PLAY,
    rule: Optional[List[str]] = RULE,
    deals: int = typer.Option(40_000, "--deals", min=1, help="Deals an iteration (the same deals every iteration)."),
    iterations: int = typer.Option(6, "--iterations", min=1, max=50, help="Most iterations before giving up."),
    out: Optional[Path] = typer.Option(None, "--out", help="The policy file to write (JSON)."),
    all_: bool = typer.Option(False, "--all", help="Every variant label: classic, piekjas2, piekjas3, piekjas4, dekjas."),
    ship: bool = typer.Option(False, "--ship", help="Write the package's shipped policies (default rules only)."),
    seed: int = SEED,
    threads: Optional[int] = THREADS,
    as_json: bool = JSON,
    quiet: bool = QUIET,
):
    """Calibrate the heuristic bidder's thresholds by round and seat to a fixed point.

    Iterates: measure the paired net gain of taking over passing per (round, seat,
    strength bin) under the current thresholds in every seat; move each threshold to where
    the monotone fit of the gain crosses 0 when the hands in between resolve it (95%
    interval excludes 0); repeat until nothing moves. Objective: the net hand score.
    Use the result with --bid FILE (or --bid calibrated for the shipped policies).

    Examples:

      belote calibrate --variant dekjas --out dekjas-policy.json

      belote simulate --variant dekjas --bid dekjas-policy.json

      belote calibrate --all --ship
    """
    from analyzer import calibrate as C
    from analyzer.rules import Rules

    if ship and rule:
        raise BeloteError("--ship writes the policies for the default rules: drop --rule, or use --out FILE")
    if ship and play != "heuristic":
        raise BeloteError("--ship writes the policies for heuristic play: drop --play, or use --out FILE")
    if all_:
        if not ship or out is not None:
            raise BeloteError("--all writes the shipped policies: use --all --ship (one variant: --variant V --out FILE)")
        targets = [(Rules.from_label(lab), C.shipped_path(lab)) for lab in C.SHIPPED_LABELS]
    else:
        rules = _rules(variant, players, rule)
        if ship:
            target = C.shipped_path(rules.label)
        else:
            target = out
        targets = [(rules, target)]
    results = []
    for rules, target in targets:
        with _progress(iterations, quiet, f"calibrating {rules.label}") as update:
            cal = C.calibrate(rules, play=play, deals=deals, seed=seed, max_iter=iterations, threads=threads,
                              progress=lambda k, moves: update(k))
        written = str(C.write_policy(cal, target)) if target is not None else None
        results.append((cal, written))
        if not as_json:
            typer.echo(cal.summary() + (f"\n  policy written to {written}" if written else ""))
    if as_json:
        typer.echo(json.dumps([dict(cal.as_policy(), file=w) for cal, w in results]))


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
