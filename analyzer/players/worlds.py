"""The worlds of a seat: deals of the cards it cannot see, consistent with what it knows.

``seat_worlds`` draws them as the ``pimc`` player does (``analyzer.players.pimc``): uniformly
among the deals that fit the seat's view (its own cards, the cards played, the suits the play
proves a seat is out of, the stuk announced or not: ``analyzer.players.knowledge``), and with
``infer`` each weighted by how likely the bidding is in it (``pimc:infer=bids``). It reads the
true state only through ``knowledge.observe``: dealing the unseen cards anew leaves the worlds
unchanged (the review's seat-information values rest on that; tests/questions/test_review_luck.py).
"""

from __future__ import annotations

import numpy as np

from analyzer.compiling import njit
from analyzer.game.state import ST_TO_MOVE, STATE_SIZE
from analyzer.players.knowledge import note_stuk, observe, prepare, prepare_bids, sample_fitting_world, sample_world
from analyzer.players.pimc import MAX_TRIES, roll_out, set_stuk
from analyzer.players.strong import make_strong
from analyzer.rules.structure import team_scoring


@njit(cache=True)
def draw_worlds(st, rec, pub, sw, infer, u, out):
    """``len(out)`` worlds of the seat to move of ``st`` into ``out`` (int64[n, STATE_SIZE]), from
    the random number ``u``; ``sw``: a ``strong.make_strong`` workspace. Returns the number drawn:
    0 when no deal fits what the seat saw."""
    seat = st[ST_TO_MOVE]
    view = sw.pov
    observe(st, rec, pub, seat, view)
    # ---- from here on: the view, never st ----
    sw.rng[0] = u
    if prepare(view, rec, pub, seat, sw, True) <= 0.0:
        return 0
    fit = infer and prepare_bids(view, rec, pub, seat, sw)
    for w in range(out.shape[0]):
        if fit:
            sample_fitting_world(view, rec, pub, seat, sw, sw.world, MAX_TRIES)
        else:
            sample_world(view, rec, sw, sw.world)
        for i in range(STATE_SIZE):
            out[w, i] = sw.world[i]
    return out.shape[0]


@njit(cache=True)
def rollout_values(worlds, rec, pub, sw, cards, side, out):
    """pimc's own value of each of ``cards`` on each of ``worlds`` (``pimc.roll_out``: the card, then
    the heuristic in every seat to the end; the value to ``side``: its hand score times
    ``pimc.SCORE_WEIGHT`` plus its card-point margin) into ``out`` (int64[worlds, cards])."""
    for w in range(worlds.shape[0]):
        set_stuk(worlds[w], rec, sw.sc, True)
        for j in range(cards.shape[0]):
            out[w, j] = roll_out(worlds[w], rec, pub, sw.sc, cards[j], side)


class SeatWorlds:
    """Draws worlds for one rules set, keeping its workspace between calls."""

    def __init__(self, rules):
        self.rules = rules
        self.rec = rules.record()
        self._sw = make_strong(team_scoring(self.rec), 0)

    def draw(self, state: np.ndarray, public: np.ndarray, n: int, seed: int, infer: bool = True) -> np.ndarray:
        """``n`` worlds (int64[n, STATE_SIZE]) of the seat to move of ``state`` given ``public``
        (``public_info`` / ``public_from_record``; not changed) and the stuk announced in the state's
        play; an empty array when no deal fits (never for a position a legal play reached)."""
        pub = np.array(public, np.int64)
        note_stuk(pub, state, self.rec)  # the stuk announced in the state's play, as ``players.choose`` adds it
        out = np.zeros((n, STATE_SIZE), np.int64)
        got = draw_worlds(state, self.rec, pub, self._sw, infer, np.uint64(seed % 2**64), out)
        return out[:got]

    def rollouts(self, worlds: np.ndarray, public: np.ndarray, cards: list[int], side: int) -> np.ndarray:
        """pimc's value of each card on each world (``rollout_values``): its evaluator, beside the
        solver's, for the review's measurement of the two (docs/BENCHMARKS.md)."""
        out = np.zeros((len(worlds), len(cards)), np.int64)
        rollout_values(worlds, self.rec, public, self._sw, np.array(cards, np.int64), np.int64(side), out)
        return out


__all__ = ["draw_worlds", "rollout_values", "SeatWorlds"]
