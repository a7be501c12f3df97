"""``belote calibrate``: the heuristic bidder's thresholds, class overrides and smous decisions
calibrated to a fixed point (``--ship``: the package's shipped policies).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Optional

import typer

from analyzer.cli.common import backend, command_line, make_rules, print_json, progress_bar
from analyzer.cli.options import (
    Cluster,
    Json,
    Objective,
    Play,
    Players,
    Quiet,
    RuleOptions,
    Scheduler,
    Seed,
    Threads,
    deprecated,
    variant_or_all,
)
from analyzer.errors import BeloteError
from analyzer.players.equity import equity_table
from analyzer.players.policies import DEFAULT_PLAY, Policies
from analyzer.rules import Rules
from analyzer.runs.limits import MAX_DEALS
from analyzer.output.outdir import write_lines


def calibrate(
    variant: str = typer.Option("classic", "--variant", help="Which game: classic, piekjas, dekjas; all: every "
                                "variant label (classic, piekjas2, piekjas3, piekjas4, dekjas), with --ship."),
    players: Players = None,
    play: Play = None,
    rule: RuleOptions = None,
    deals: int = typer.Option(40_000, "--deals", min=1, max=MAX_DEALS,
                              help="Deals an iteration (the same deals every iteration)."),
    iterations: int = typer.Option(
        20, "--iterations", min=1, max=50, help="Most iterations before giving up (each smous sweep that moves adds "
        "take/pass iterations)."),  # = calibrate.DEFAULT_ITER (tested)
    out: Optional[Path] = typer.Option(None, "--out", help="The policy file to write (JSON)."),
    all_: bool = typer.Option(False, "--all", hidden=True),  # the old spelling of --variant all
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
    score_aware: bool = typer.Option(
        False, "--score-aware", help="Instead: move the calibrated bidder's thresholds by the game score (level, "
        "ahead, behind, near the target), each region's shift chosen by the chance to win the game (the equity "
        "table) to a fixed point; written beside the calibrated policy as <label>.<play>.score.json (--ship) or "
        "to --out."),
    seed: Seed = 1,
    threads: Threads = None,
    cluster: Cluster = None,
    scheduler: Scheduler = None,
    as_json: Json = False,
    quiet: Quiet = False,
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

      belote calibrate --variant all --ship    (the bidders of a seat that plays net, the default player)

      belote calibrate --variant all --ship --play heuristic    (the bidders of a seat that plays the heuristic)

      belote calibrate --variant classic --score-aware --ship    (the score-aware bidders)
    """
    # lazy: loads when the command runs, not for belote --help (0.3 s)
    from analyzer.output.policy_file import check_policy_target, write_policy
    from analyzer.players.policy_files import SHIPPED_PLAYS
    from analyzer.questions import calibrate as C, suits as S

    play = play or DEFAULT_PLAY
    if all_:
        deprecated("--all", "--variant all")
    variant = None if all_ else variant_or_all(variant)
    all_ = variant is None
    if score_aware:
        _score_aware(variant, players, rule, play, out, ship, all_, seed, threads, as_json, quiet)
        return
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
            raise BeloteError("--variant all writes the shipped policies: use --variant all --ship (one variant: "
                              "--variant V --out FILE)")
        targets = [(Rules.from_label(lab), C.shipped_path(lab, play.strip())) for lab in C.SHIPPED_LABELS]
    else:
        rules = make_rules(variant, players, rule)
        if ship:
            target = C.shipped_path(rules.label, play.strip())
        else:
            target = out
        targets = [(rules, target)]
    for _, target in targets:  # every output checked before any work (a device or a pipe before it is read)
        if target is not None:
            check_policy_target(target, ship)
    results = []
    for rules, target in targets:
        with backend(cluster, scheduler), progress_bar(iterations, quiet, f"calibrating {rules.label}") as update:
            cal = C.calibrate(rules, play=play, deals=deals, seed=seed, max_iter=iterations, threads=threads,
                              objective=objective.value, class_overrides=classes, sweep_deals=smous_deals,
                              progress=lambda k, moves: update(k), koe_choice=koe_choice)
        if ship and cal.status == "unresolved":  # a shipped policy must rest on something
            raise BeloteError(f"--ship refuses the {rules.label} calibration, {cal.unresolved_note()}")
        if suits or ship:
            with backend(cluster, scheduler), progress_bar(cal.deals, quiet, f"suit choices {rules.label}") as update:
                cal.suits = S.measure_calibration(cal, threads=threads, progress=update)
        written = str(write_policy(cal, target, ship=ship)) if target is not None else None
        results.append((cal, written))
        if not as_json:
            typer.echo(cal.summary() + (f"\n{cal.suits.summary()}" if cal.suits is not None else "")
                       + (f"\n  policy written to {written}" if written else ""))
    if as_json:  # one object, as every --json: the header, then each calibration as its policy file holds it
        print_json({"command": command_line(),
               "calibrations": [dict(cal.as_policy(), file=w, **({"suits": cal.suits.as_dict()} if cal.suits else {}))
                                for cal, w in results]})


def _score_aware(variant, players, rule, play, out, ship, all_, seed, threads, as_json, quiet) -> None:
    """``calibrate --score-aware``: the shifts of the calibrated bidder (``questions.score_bidders``)."""
    # lazy: loads when the command runs, not for belote --help (0.3 s)
    from analyzer.output.policy_file import POLICY_FILE, check_policy_target
    from analyzer.players.policy_files import score_aware_path
    from analyzer.questions.score_bidders import SCORE_REGIONS, calibrate_shifts, score_policy
    from analyzer.runs.simulate import SimConfig

    if all_:
        raise BeloteError("--score-aware calibrates one variant: give --variant V (and --players), not all")
    if rule:
        raise BeloteError("--score-aware moves the shipped calibrated bidder under the shipped equity table: drop --rule")
    rules = make_rules(variant, players, None)
    target = score_aware_path(rules.label, play.strip()) if ship else out
    if target is None:
        raise BeloteError("--score-aware writes a policy file: give --out FILE, or --ship")
    check_policy_target(target, ship)
    table = equity_table(rules)
    config = SimConfig(rules=rules, policies=Policies.parse("calibrated", play, rules.players), seed=seed,
                       threads=threads)
    with progress_bar(4 * len(SCORE_REGIONS), quiet, "regions x rounds") as update:
        cal = calibrate_shifts(config, table, seed=seed, threads=threads, progress=update)
    doc = score_policy(config, cal, table, command_line())
    write_lines(target, [json.dumps(doc, indent=2) + "\n"], "--ship" if ship else "--out", POLICY_FILE,
                committed=ship)
    if as_json:
        print_json(doc["score_aware"])
        return
    typer.echo(f"score-aware {rules.label} bidder ({cal.status}, {cal.seconds:.0f} s): " + ", ".join(
        f"{r} {v:+g}" for r, v in zip(SCORE_REGIONS, cal.shifts)) + f"; wrote {target}")
