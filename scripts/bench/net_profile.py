"""Where a ``net`` decision's time goes: the heuristic's card (a feature), the features of every
legal card, and the whole decision (features and scores), in nanoseconds a decision, over
positions of random play with two or more legal cards (the positions the strong tests use).

    .venv/bin/python scripts/bench/net_profile.py --variant classic --positions 2000 --reps 50

Run it alternately against another checkout to compare (the machine is shared and noisy).
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

import numpy as np
from numba import njit

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "tests" / "players"))

from analyzer.game.state import STATE_SIZE, legal_cards  # noqa: E402
from analyzer.players import play  # noqa: E402
from analyzer.players.knowledge import PUB_SEEN_OUT, observe  # noqa: E402
from analyzer.players.net import N_FEATURES, decision_features, net_card, rules_row  # noqa: E402
from analyzer.players.net_weights import WEIGHTS  # noqa: E402
from analyzer.players.play import heuristic_on_state  # noqa: E402
from analyzer.rules import Rules  # noqa: E402
from test_strong import random_position  # noqa: E402


@njit
def _heuristic(views, pubs, rec, reps):
    s = 0
    for _ in range(reps):
        for i in range(views.shape[0]):
            s += heuristic_on_state(views[i], rec, pubs[i][PUB_SEEN_OUT], play.HEURISTIC)
    return s


@njit
def _features(views, pubs, rec, reps, cards, feats):
    s = 0
    for _ in range(reps):
        for i in range(views.shape[0]):
            s += decision_features(views[i], rec, pubs[i], play.HEURISTIC, cards, feats)[0]
    return s


@njit
def _decision(views, pubs, rec, reps, w, cards, feats, nz):
    s = 0
    for _ in range(reps):
        for i in range(views.shape[0]):
            s += net_card(views[i], rec, pubs[i], w, cards, feats, nz)
    return s


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--variant", default="classic", help="a label: classic, piekjas2, piekjas3, piekjas4, dekjas")
    ap.add_argument("--positions", type=int, default=2000)
    ap.add_argument("--reps", type=int, default=50)
    ap.add_argument("--seed", type=int, default=3)
    a = ap.parse_args()
    rules = Rules.from_label(a.variant)
    rec = rules.record()
    rng = np.random.default_rng(a.seed)
    views, pubs = [], []
    while len(views) < a.positions:
        st, pub, seat = random_position(rules, rng, tricks_left=int(rng.integers(1, rules.n_tricks + 1)))
        if int(legal_cards(st, rec)).bit_count() >= 2:
            v = np.zeros(STATE_SIZE, np.int64)
            observe(st, rec, pub, seat, v)
            views.append(v)
            pubs.append(pub)
    views, pubs = np.array(views), np.array(pubs)
    cards, feats, nz = np.zeros(32, np.int64), np.zeros((32, N_FEATURES)), np.zeros(N_FEATURES, np.int64)
    w = WEIGHTS[rules_row(rec)]
    legal = _features(views, pubs, rec, 1, cards, feats) / len(views)
    for name, fn, args in (("heuristic's card", _heuristic, (views, pubs, rec)),
                           ("features", _features, (views, pubs, rec)),
                           ("whole decision", _decision, (views, pubs, rec))):
        extra = {"features": (cards, feats), "whole decision": (w, cards, feats, nz)}.get(name, ())
        fn(*args, 1, *extra)  # compile
        t = time.perf_counter()
        fn(*args, a.reps, *extra)
        print(f"{name:>16}: {(time.perf_counter() - t) / (a.reps * len(views)) * 1e9:6.0f} ns a decision")
    print(f"{a.variant}: {len(views):,} positions, {legal:.2f} legal cards a decision")


if __name__ == "__main__":
    main()
