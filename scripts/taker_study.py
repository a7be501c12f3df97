"""Where the heuristic gives away double-dummy value, and the old heuristic against the new
on the same deals (issue 10: "fix what makes the heuristic weak as taker").

    .venv/bin/python scripts/taker_study.py loss --variant classic --deals 150
    .venv/bin/python scripts/taker_study.py points --variant classic --deals 10000

``loss``: the first played hands of the duel stream (seed 1, heuristic bidding) played by
the heuristic (``--version``) at every seat; every card that is not forced is valued by the
exact solver (``Solver.card_values``, as ``belote duel --dd-loss``) and its loss (best legal
card's value minus the played card's, for the mover's side) is added up by role (taker,
taker's partner, defender), trick number, leading / following, and the card's kind (trump
or side card) against the kind of the best card. Prints the mean loss a hand per group.

``points``: the same start positions played four ways (taker side old/new x defence
old/new): the taker side's card points (last trick and classic capot included) a hand, and
the paired differences with their 95% intervals. A quick check on the card play alone (no
bidding, declarations or scores: ``belote duel`` measures those).
"""

from __future__ import annotations

import argparse
import math
import time
from collections import defaultdict

import numpy as np
from numba import njit

from analyzer.game.state import (
    ST_N_IN,
    ST_POINTS,
    ST_TAKER,
    ST_TAKER_SIDE,
    ST_TO_MOVE,
    ST_TRICK_NO,
    ST_TRUMP,
    legal_cards,
    play_card,
    side_of_seat,
)
from analyzer.rules.calls import PLAYED
from analyzer.players.play import heuristic_on_state
from analyzer.players.policies import play_code
from analyzer.questions.duel import _start_from_trace, kernel_inputs, parse_set
from analyzer.rules import Rules
from analyzer.rules.cards import N_CARDS, popcount
from analyzer.runs.hand import RES_FILLE, RES_KIND, RES_SIZE, RES_TURNED, TR_EXCH, TRACE_SIZE, strong_address
from analyzer.runs.units import trace_duel

VARIANTS = {"classic": ("classic", 4), "piekjas2": ("piekjas", 2), "piekjas3": ("piekjas", 3),
            "piekjas4": ("piekjas", 4), "dekjas": ("dekjas", 2)}


def starts(rules: Rules, deals: int, seed: int = 1, label: str = ""):
    """The first-trick positions of the played hands among the first ``deals`` deals of the
    duel stream (seating 0, heuristic bidding) and the cards each lies face up out of play.
    Kept in /tmp between runs (tracing compiles the hand kernel, which any kernel edit makes
    cold; the bidding does not depend on the play policy)."""
    import os

    path = f"/tmp/taker_study_starts_{label}_{deals}_{seed}.npz"
    if label and os.path.exists(path):
        z = np.load(path)
        return z["sts"], z["seen"]
    a = parse_set("heuristic/heuristic", "--a", rules.players)
    (rec, bid, play, params), cfg = kernel_inputs(rules, a, a)
    deck = np.zeros(N_CARDS, np.int64)
    res = np.zeros(RES_SIZE, np.int64)
    trace = np.zeros(TRACE_SIZE, np.int64)
    out, seen = [], []
    for i in range(deals):
        trace_duel(seed, i, rec, bid, play, params, cfg, 0, deck, res, trace, strong_address(play))
        if int(res[RES_KIND]) != PLAYED:
            continue
        st, _ = _start_from_trace(rules, deck, res, trace)
        s = 0
        if rules.variant == "piekjas" and rules.players <= 3:  # the card on the table and the fille
            table = int(trace[TR_EXCH + 1]) if int(trace[TR_EXCH]) >= 0 else int(res[RES_TURNED])
            s = (1 << table) | (1 << int(res[RES_FILLE]))
        out.append(st)
        seen.append(s)
    sts, seen = np.array(out), np.array(seen, np.int64)
    if label:
        np.savez(path, sts=sts, seen=seen)
    return sts, seen


@njit(cache=True)
def play_lines(sts, seen, rec, taker_code, defence_code, cards_out, points_out):
    """Each start played to the end, the taker's side under ``taker_code``, the others under
    ``defence_code``: the cards in order and the taker side's card points."""
    for h in range(sts.shape[0]):
        st = sts[h].copy()
        for i in range(rec.n_players * rec.n_tricks):
            seat = st[ST_TO_MOVE]
            code = taker_code if side_of_seat(seat, rec) == st[ST_TAKER_SIDE] else defence_code
            c = heuristic_on_state(st, rec, seen[h], code)
            cards_out[h, i] = c
            play_card(st, rec, c)
        points_out[h] = st[ST_POINTS + st[ST_TAKER_SIDE]]


def _code(v):
    return play_code(f"heuristic:v={v}")


def lines(rules, sts, seen, taker_v, defence_v):
    rec = rules.record()
    cards = np.zeros((len(sts), rules.players * rules.n_tricks), np.int64)
    pts = np.zeros(len(sts), np.int64)
    play_lines(sts, seen, rec, _code(taker_v), _code(defence_v), cards, pts)
    return cards, pts


def _mean_ci(x):
    x = np.asarray(x, float)
    se = x.std(ddof=1) / math.sqrt(len(x)) if len(x) > 1 else float("nan")
    return f"{x.mean():+7.2f} ± {1.96 * se:5.2f}"


def cmd_points(rules, args):
    t0 = time.perf_counter()
    sts, seen = starts(rules, args.deals, args.seed, args.variant)
    t1 = time.perf_counter()
    old, new = args.old, args.version
    p = {(a, b): lines(rules, sts, seen, a, b)[1] for a in (old, new) for b in (old, new)}
    t2 = time.perf_counter()
    print(f"{args.variant}: {len(sts):,} hands played of {args.deals:,} deals "
          f"(starts {t1 - t0:.1f} s, play {t2 - t1:.1f} s); taker side card points a hand, 95% CI")
    for (a, b), v in p.items():
        print(f"  taker v{a} / defence v{b}: {v.mean():7.2f}")
    print(f"  new taker - old taker (old defence): {_mean_ci(p[new, old] - p[old, old])}")
    print(f"  new defence - old defence (old taker), in points the taker loses: {_mean_ci(p[old, old] - p[old, new])}")
    print(f"  new both - old both: {_mean_ci(p[new, new] - p[old, old])}")


def cmd_loss(rules, args):
    from analyzer.players.solver import Solver

    sts, seen = starts(rules, args.deals, args.seed, args.variant)
    sts, seen = sts[:args.hands], seen[:args.hands]
    cards, _ = lines(rules, sts, seen, args.version, args.version)
    rec = rules.record()
    solver = Solver(rules)
    groups = defaultdict(float)
    counts = defaultdict(int)
    per_role = defaultdict(list)
    t0 = time.perf_counter()
    for h in range(len(sts)):
        st = sts[h].copy()
        trump = int(st[ST_TRUMP])
        taker = int(st[ST_TAKER])
        hand = defaultdict(int)
        for _i, c in enumerate(cards[h]):
            seat = int(st[ST_TO_MOVE])
            legal = int(legal_cards(st, rec))
            if popcount(np.uint32(legal)) > 1:
                sol = solver.card_values(st)
                v = sol.cards[int(c)]
                loss = sol.value - v if solver.maximizes(st) else v - sol.value
                role = ("taker" if seat == taker else
                        "partner" if rules.partners and (seat & 1) == (taker & 1) else "defender")
                hand[role] += loss
                lead = "lead" if int(st[ST_N_IN]) == 0 else f"follow{int(st[ST_N_IN])}"
                kind = "trump" if c >> 3 == trump else "side"
                best_kind = "trump" if sol.best_card >> 3 == trump else "side"
                t = int(st[ST_TRICK_NO])
                for key in ((role, "trick", t), (role, lead), (role, lead, kind, "best", best_kind)):
                    groups[key] += loss
                    counts[key] += 1
            play_card(st, rec, int(c))
        for role in ("taker", "partner", "defender"):
            if role in hand or role == "taker":
                per_role[role].append(hand.get(role, 0))
    n = len(sts)
    print(f"{args.variant} v{args.version}: {n} hands, {time.perf_counter() - t0:.0f} s of solving")
    for role, v in per_role.items():
        print(f"  {role}: loss a hand {_mean_ci(v)}")
    for key in sorted(groups, key=lambda k: -groups[k]):
        if groups[key] / n >= args.min:
            print(f"  {' '.join(map(str, key)):40s} {groups[key] / n:6.2f} a hand  ({counts[key]} cards, "
                  f"{groups[key] / max(1, counts[key]):.2f} a card)")


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("what", choices=("loss", "points"))
    ap.add_argument("--variant", choices=list(VARIANTS), default="classic")
    ap.add_argument("--deals", type=int, default=10_000)
    ap.add_argument("--hands", type=int, default=150, help="loss: the first HANDS hands played")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--version", type=int, default=2, help="heuristic version (heuristic:v=N)")
    ap.add_argument("--old", type=int, default=1, help="the version to compare against (points)")
    ap.add_argument("--min", type=float, default=0.5, help="loss: show groups of at least this a hand")
    ap.add_argument("--undertrump", default=None, help="undertrump rule option (free / forced)")
    args = ap.parse_args()
    variant, players = VARIANTS[args.variant]
    opts = [("undertrump", args.undertrump)] if args.undertrump else []
    rules = Rules.make(variant, players, opts)
    (cmd_loss if args.what == "loss" else cmd_points)(rules, args)


if __name__ == "__main__":
    main()
