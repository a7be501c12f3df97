"""The review's value by what a seat knew: the solver on each world (shipped) or pimc's play-outs? (issue 51)

    .venv/bin/python scripts/luck_evaluators.py --deals 20 --worlds 32 [--variant classic]

On the unforced decisions of logged deals (heuristic players, seed ``--seed``), the same worlds
of the seat to move (``analyzer.players.worlds``) are valued two ways: by the exact solver with
every card open (card points of the troefmaker's side: what the review ships) and by pimc's own
evaluator (``pimc.roll_out``: the card, then the heuristic everywhere; its hand score times 4
plus its card-point margin). Printed: the decisions compared, how often the two pick the same
best card (the solver's best cards include the play-outs' best), the mean Spearman correlation of
the cards' means, how often the played card's verdict (worse than the best beyond the noise, or
not) agrees, and the time each took.
"""

from __future__ import annotations

import argparse
import tempfile
import time
from pathlib import Path

import numpy as np

from analyzer.game.state import legal_cards, play_card
from analyzer.output.deallog import read_log, write_log
from analyzer.players import public_from_record
from analyzer.players.knowledge import note_declarations
from analyzer.players.policies import Policies
from analyzer.players.solver import Solver
from analyzer.players.worlds import SeatWorlds
from analyzer.questions.impact import t_quantile
from analyzer.questions.review import OBJECTIVE, start_of
from analyzer.rules import Rules
from analyzer.rules.cards import mask_to_cards
from analyzer.runs.simulate import SimConfig


def _worse(v: np.ndarray, j: int) -> bool:
    """Is card ``j`` worse than the best by the mean, beyond the noise (paired, 95%)?"""
    b = int(np.argmax(v.mean(0)))
    d = v[:, b] - v[:, j]
    if len(d) < 2 or b == j:
        return False
    return d.mean() - t_quantile(len(d) - 1) * d.std(ddof=1) / np.sqrt(len(d)) > 0


def _rank(x: np.ndarray) -> np.ndarray:
    return np.argsort(np.argsort(x)).astype(float)


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--variant", default="classic")
    ap.add_argument("--deals", type=int, default=20)
    ap.add_argument("--worlds", type=int, default=32)
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args(argv)
    rules = Rules.from_label(args.variant)
    rec = rules.record()
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "d.jsonl"
        write_log(path, SimConfig(rules=rules, policies=Policies.parse("heuristic", "heuristic", rules.players),
                                  deals=args.deals, seed=args.seed, threads=1), args.deals)
        records = [r for r in read_log(path) if r["outcome"] == "played"]
    drawer, solver = SeatWorlds(rules), Solver(rules, OBJECTIVE)
    n = same_best = same_verdict = 0
    rhos, t_dd, t_ro = [], 0.0, 0.0
    for d, record in enumerate(records):
        st, plays = start_of(record, rules)
        pub = public_from_record(record, rules)
        for i, (_, seat, card) in enumerate(plays):
            legal = mask_to_cards(int(legal_cards(st, rec)))
            ws = drawer.draw(st, pub, args.worlds, seed=1000 * d + i) if len(legal) > 1 else []
            if len(ws):  # none when no deal fits what the seat saw
                sign = 1 if solver.maximizes(st) else -1
                t0 = time.perf_counter()
                dd = sign * np.array([[solver.card_values(w).cards[c] for c in legal] for w in ws], float)
                t1 = time.perf_counter()
                side = seat & 1 if rules.partners else seat
                ro = drawer.rollouts(ws, pub, legal, side).astype(float)
                t2 = time.perf_counter()
                t_dd, t_ro = t_dd + t1 - t0, t_ro + t2 - t1
                n += 1
                m_dd, m_ro = dd.mean(0), ro.mean(0)
                same_best += m_dd[int(np.argmax(m_ro))] >= m_dd.max() - 1e-9
                if len(legal) > 2 and m_dd.std() > 0 and m_ro.std() > 0:
                    rhos.append(np.corrcoef(_rank(m_dd), _rank(m_ro))[0, 1])
                j = legal.index(card)
                same_verdict += _worse(dd, j) == _worse(ro, j)
            winner = play_card(st, rec, card)
            if winner >= 0 and rules.declare_after_trick:
                note_declarations(pub, st, rec, winner)
    print(f"{args.variant}: {n} decisions of {len(records)} played deals, {args.worlds} worlds each (seed {args.seed})")
    print(f"  the play-outs' best card is among the solver's best: {100 * same_best / n:.1f}%")
    print(f"  Spearman correlation of the cards' means (3+ cards): mean {np.mean(rhos):.3f} over {len(rhos)} decisions")
    print(f"  the played card's verdict (worse beyond the noise or not) the same: {100 * same_verdict / n:.1f}%")
    print(f"  time: solver {t_dd:.1f} s ({1000 * t_dd / n:.0f} ms a decision), play-outs {t_ro:.2f} s "
          f"({1000 * t_ro / n:.1f} ms a decision)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
