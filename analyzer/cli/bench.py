"""``belote bench``: hands per second per variant, policy and thread count (``--peer``: against
another engine).
"""

from __future__ import annotations

import json
from typing import List, Optional

import typer

from analyzer.cli.options import Json, VariantLabels, deprecated, variant_labels
from analyzer.errors import BeloteError
from analyzer.players.policies import PLAY_POLICIES, play_code
from analyzer.rules import ALL_LABELS
from analyzer.output.outdir import provenance


def bench(
    variant: VariantLabels = None,
    play: Optional[List[str]] = typer.Option(
        None, "--play", help="Play policies (repeatable; default random, heuristic and pimc): any of random, "
        "heuristic, pimc, dd with its parameters, e.g. heuristic:v=1 (the card play before the taker fixes) or "
        "pimc:v=1 (pimc before racing). A searching policy bids as the heuristic, and its cost is also given "
        "in heuristic hands of the same run."),
    policy: Optional[List[str]] = typer.Option(None, "--policy", hidden=True),  # the old spelling of --play
    seconds: float = typer.Option(3.0, "--seconds", min=0.1, max=3600,
                                  help="Seconds of simulation per case (at most an hour)."),
    threads: Optional[List[int]] = typer.Option(None, "--threads", help="Thread counts (default: 1 and all)."),
    peer: Optional[str] = typer.Option(
        None, "--peer", help="Compare with another engine instead, alternately in one run: colver "
        "(the optional extra: pip install 'belote-analyzer[bench]')."),
    rounds: int = typer.Option(3, "--rounds", min=1, max=100, help="With --peer: how many times to alternate."),
    as_json: Json = False,
):
    """Hands per second for each variant and policy, on one thread and on all threads.

    Whole hands: deal, bidding, play, declarations, scoring and aggregation.

    Examples:

      belote bench

      belote bench --variant classic --play random --seconds 10 --json

      belote bench --variant classic --play heuristic --play pimc --play pimc:v=1 --threads 1

      belote bench --peer colver
    """
    # lazy: loads when the command runs, not for belote --help (0.3 s)
    from analyzer.runs.bench import cases, compare_peer, cost_in, DEFAULT_POLICIES, measure, peer_missing, PEERS

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

    labels = list(variant_labels(variant) or ALL_LABELS)
    if policy:
        if play:
            raise BeloteError("give --play (repeatable) without --policy, its old spelling")
        deprecated(" ".join(f"--policy {p}" for p in policy), " ".join(f"--play {p}" for p in policy))
    pols = play or policy or list(DEFAULT_POLICIES)
    for p in pols:
        if p.partition(":")[0] not in PLAY_POLICIES:
            raise BeloteError(f'unknown policy "{p}" for --play: use {", ".join(PLAY_POLICIES)} (heuristic:v=1: '
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
        typer.echo(json.dumps([provenance() | row for row in rows]))
        return
    for c in costs:
        typer.echo(f"{c['variant']}{c['players'] if c['variant'] == 'piekjas' else ''} {c['play']} threads="
                   f"{c['threads']}: one hand costs {c['heuristic_hands']:,} heuristic hands")
