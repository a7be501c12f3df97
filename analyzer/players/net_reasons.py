"""Why ``net`` plays its card rather than the runner-up, feature by feature.

``net`` scores each legal card by weights on the card's features and on their pairs
(``analyzer.players.net``): a quadratic form. The difference of two cards' scores splits
exactly over the features in which the two cards differ (the straight-line attribution, exact
for a quadratic form): feature f gets ``(x_f(A) - x_f(B)) * (w_f + sum over the decision's
features c of w_fc x_c + sum over the other card features g of w_fg (x_g(A) + x_g(B)) / 2)``, and
these add up to the difference. The largest are the reason (``analyzer.output.words`` words them).

Reads only the seat's view (``knowledge.observe``), as net does.
"""

from __future__ import annotations

import numpy as np

from analyzer.game.state import ST_TO_MOVE, STATE_SIZE
from analyzer.players.knowledge import note_stuk, observe
from analyzer.players.net import FEATURES, N_FEATURES, N_TERMS, decision_features, pair_term, rules_row, setting
from analyzer.players.net_weights import WEIGHTS
from analyzer.players.play import HEURISTIC


def features(state: np.ndarray, rules, public: np.ndarray) -> tuple[list[int], np.ndarray, int]:
    """The legal cards of the seat to move, their features (float[cards, N_FEATURES]) and the base of
    the decision's setting in net's weights, from the seat's view."""
    rec = rules.record()
    pub = np.array(public, np.int64)
    note_stuk(pub, state, rec)
    view = np.zeros(STATE_SIZE, np.int64)
    observe(state, rec, pub, int(state[ST_TO_MOVE]), view)
    cards = np.zeros(32, np.int64)
    feats = np.zeros((32, N_FEATURES), np.float64)
    m, _ = decision_features(view, rec, pub, HEURISTIC, cards, feats)
    return [int(c) for c in cards[:m]], feats[:m].copy(), int(setting(view, rec)) * N_TERMS


def _quadratic(w, base: int) -> tuple[np.ndarray, np.ndarray]:
    """The setting's single weights (float[N_FEATURES]) and pair weights as a symmetric matrix."""
    lin = np.array(w[base:base + N_FEATURES], float)
    q = np.zeros((N_FEATURES, N_FEATURES))
    for i in range(N_FEATURES):
        for j in range(i + 1, N_FEATURES):
            q[i, j] = q[j, i] = w[base + pair_term(i, j)]
    return lin, q


def reason(state: np.ndarray, rules, public: np.ndarray, most: int = 2, weights=None) -> dict | None:
    """Net's card, the runner-up, the margin, and the features that decided between them, largest
    first: ``{card, other, margin, features: [(index, name, share, on_card)]}`` (``share``: that
    feature's part of the margin; ``on_card``: the chosen card has the feature, else the runner-up);
    None with one legal card. ``weights``: a row of net's (default: the shipped one for the rules)."""
    cards, x, base = features(state, rules, public)
    if len(cards) < 2:
        return None
    lin, q = _quadratic(WEIGHTS[rules_row(rules.record())] if weights is None else weights, base)
    scores = x @ lin + 0.5 * np.einsum("ci,ij,cj->c", x, q, x)
    order = np.argsort(-scores, kind="stable")
    a, b = int(order[0]), int(order[1])
    dx = x[a] - x[b]
    phi = dx * (lin + q @ ((x[a] + x[b]) / 2))  # adds up to scores[a] - scores[b] (a quadratic form)
    top = [int(f) for f in np.argsort(-phi, kind="stable")[:most] if phi[f] > 0]
    return {"card": cards[a], "other": cards[b], "margin": float(scores[a] - scores[b]),
            "features": [(f, FEATURES[f], float(phi[f]), bool(x[a, f] > x[b, f])) for f in top],
            "shares": phi}


__all__ = ["features", "reason"]
