"""The double-dummy solver against a peer engine: colver 0.11.1 (PyPI ``colver``, a Belote
Contrée engine in Rust; the optional ``bench`` extra, never a runtime dependency).

``solver_vs_colver(n)`` deals ``n`` full classic deals with colver (``Env.deal``), gives
each a trump, maps the deal into ``analyzer.game.state`` and values every legal card of the
first player with both solvers: colver's ``Env.solve_scores()`` (N-S card points, belote
left out, capot 252) against ``Solver.card_values`` under ``undertrump=free`` (the
French federation reading colver plays). It reports the cards whose values differ and
both solvers' solve times, measured alternately in the same run.

Mapping
-------
colver cards are ``suit * 8 + rank`` with suits ♠ ♥ ♦ ♣ = 0..3 and ranks
7 8 9 J Q K 10 A = 0..7; ours are ``suit * 8 + rank`` with suits ♣ ♦ ♥ ♠ = 0..3 and
ranks 7 8 9 10 J Q K A = 0..7. colver seat ``(dealer + 1 + i) % 4`` plays i-th, our seat
i; with dealer 0, colver's N-S (seats 0 and 2) are our seats 3 and 1, our side 1, so our
taker is seat 1 and our value is N-S's card points.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field

import numpy as np

from analyzer.errors import BeloteError
from analyzer.rules import Rules
from analyzer.players.solver import Solver
from analyzer.game.state import start_state

COLVER_VERSION = "0.11.1"
# colver rank index (7 8 9 J Q K 10 A) -> our rank index (7 8 9 10 J Q K A)
_RANK = (0, 1, 2, 4, 5, 6, 3, 7)


def card_from_colver(idx: int) -> int:
    """colver card index -> ours (module docstring)."""
    return (3 - idx // 8) * 8 + _RANK[idx % 8]


def suit_from_colver(suit: int) -> int:
    return 3 - suit


def _colver():
    try:
        # lazy: colver is optional (the [bench] extra)
        import colver
    except ImportError:
        raise BeloteError(
            f"colver is not installed: pip install 'belote-analyzer[bench]' (colver=={COLVER_VERSION})"
        ) from None
    if getattr(colver, "__version__", "") != COLVER_VERSION:
        raise BeloteError(f"colver {colver.__version__} is installed; the comparison is for colver=={COLVER_VERSION}")
    return colver


@dataclass
class PeerComparison:
    """What ``solver_vs_colver`` measured (times in seconds, per deal: every legal card
    of the first player valued)."""

    deals: int
    cards: int  # legal cards compared
    mismatches: list = field(default_factory=list)  # (deal seed, colver card, colver value, ours)
    ours: np.ndarray = None  # solve time per deal
    theirs: np.ndarray = None
    nodes: np.ndarray = None  # our nodes per deal

    def summary(self) -> dict:
        q = lambda a, p: float(np.percentile(a, p))  # noqa: E731
        return {
            "deals": self.deals,
            "cards compared": self.cards,
            "cards that differ": len(self.mismatches),
            "ours median s": q(self.ours, 50),
            "ours p99 s": q(self.ours, 99),
            "colver median s": q(self.theirs, 50),
            "colver p99 s": q(self.theirs, 99),
            "median ratio ours/colver": q(self.ours, 50) / q(self.theirs, 50),
            "our nodes median": q(self.nodes, 50),
            "our nodes p99": q(self.nodes, 99),
        }


def solver_vs_colver(n: int = 1000, seed: int = 1, solver: Solver | None = None, progress=None) -> PeerComparison:
    """Compare our card values and solve times with colver's on ``n`` classic deals
    (deal ``i`` is ``colver.Env.deal(dealer=0, seed=seed + i)``, trump ``(seed + i) % 4``
    in colver's suit numbering). ``progress(i)`` is called after each deal if given."""
    colver = _colver()
    rules = Rules.from_label("classic", ["undertrump=free"])
    solver = solver or Solver(rules)
    ours, theirs, nodes, mismatches = [], [], [], []
    compared = 0
    for i in range(n):
        deal_seed = seed + i
        env = colver.Env.deal(dealer=0, seed=deal_seed)
        trump_c = deal_seed % 4
        env.set_contract(trump_c, 80, 0, 0)
        env.set_phase_playing()
        hands = env.get_hands()
        my_hands = [[card_from_colver(c) for c in hands[(1 + s) % 4]] for s in range(4)]
        st = start_state(rules, my_hands, suit_from_colver(trump_c), taker=1)
        # alternate which solver goes first, so neither profits from a warm cache
        if i % 2 == 0:
            t0 = time.perf_counter()
            got = env.solve_scores()
            t1 = time.perf_counter()
            sol = solver.card_values(st)
            t2 = time.perf_counter()
            theirs.append(t1 - t0)
            ours.append(t2 - t1)
        else:
            t0 = time.perf_counter()
            sol = solver.card_values(st)
            t1 = time.perf_counter()
            got = env.solve_scores()
            t2 = time.perf_counter()
            ours.append(t1 - t0)
            theirs.append(t2 - t1)
        nodes.append(sol.nodes)
        for c, v in got["scores"]:
            compared += 1
            mine = sol.cards.get(card_from_colver(c))
            if mine != v:
                mismatches.append((deal_seed, int(c), int(v), mine))
        if progress:
            progress(i)
    return PeerComparison(n, compared, mismatches, np.array(ours), np.array(theirs), np.array(nodes))


__all__ = ["solver_vs_colver", "PeerComparison", "card_from_colver", "suit_from_colver"]
