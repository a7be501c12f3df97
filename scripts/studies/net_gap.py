"""Where ``net`` gives value away against pimc: the value each player's card gives away a decision, by setting.

    .venv/bin/python scripts/studies/net_gap.py --variant piekjas3 --deals 3000 --seed 2

Replays deals ``0 .. --deals - 1`` of ``belote simulate --seed SEED`` (heuristic bidding and play) and, at every
decision with two or more legal cards, values each legal card on the true deal with pimc's evaluator (the card,
then heuristic play to the end: the target ``belote learn`` fits, ``learn.rollout_values``), and asks the
heuristic (the card played), ``net`` and ``pimc`` (``api.choose``) for their cards. Prints the mean value each
card gives away against the best card, in all and by ``net.setting`` (the seat's side taker or defending, the
hand early or late, the cards already in the trick) and by trick number, with net minus pimc's 95% interval and
its share of the whole gap, and how often net (and the heuristic) plays pimc's card. The held-out decisions of
``belote learn`` are the same deals (seed 2). Single-threaded; 3,000 deals take about a minute.
"""

from __future__ import annotations

import argparse
import time

import numpy as np

from analyzer.game.state import ST_TO_MOVE, ST_TRICK_NO, STATE_SIZE, is_over, legal_cards, play_card, side_of_seat
from analyzer.players.api import choose, strong_workspace
from analyzer.players.knowledge import note_declarations, observe
from analyzer.players.net import N_FEATURES, N_SETTINGS, decision_features, net_card, rules_row, setting
from analyzer.players.net_weights import WEIGHTS
from analyzer.players.pimc import N_SC, set_stuk
from analyzer.players.play import HEURISTIC
from analyzer.players.policies import play_code
from analyzer.rules import Rules
from analyzer.rules.cards import popcount
from analyzer.runs.learn import played_deals, rollout_values
from analyzer.runs.stats import Z95, rate


def gaps(label: str, deals: int, seed: int):
    """Per decision: its setting, its trick number (1..), the loss of the heuristic's, net's and pimc's cards, and
    whether net's and the heuristic's card is pimc's (1 or 0)."""
    rules = Rules.from_label(label)
    rec = rules.record()
    ws = strong_workspace(rules, [play_code("pimc")])
    weights = np.ascontiguousarray(WEIGHTS[rules_row(rec)])
    view = np.zeros(STATE_SIZE, np.int64)
    cards, feats, nz = np.zeros(32, np.int64), np.zeros((32, N_FEATURES)), np.zeros(N_FEATURES, np.int64)
    lc, fs = np.zeros(32, np.int64), np.zeros((32, N_FEATURES))
    sc, vals = np.zeros((N_SC, 4), np.int64), np.zeros(32, np.int64)
    out = []
    for i, st, plays, pub in played_deals(rules, seed, 0, deals):
        set_stuk(st, rec, sc, True)  # the true deal's stuk, in every value, as belote learn's
        k = 0
        while not is_over(st, rec):
            card = next(plays)[2]
            if popcount(legal_cards(st, rec)) > 1:
                seat = int(st[ST_TO_MOVE])
                observe(st, rec, pub, seat, view)
                m, _ = decision_features(view, rec, pub, HEURISTIC, cards, feats)
                rollout_values(st, rec, pub, sc, cards, m, side_of_seat(seat, rec), vals)
                v = vals[:m]
                loss = {int(c): float(v.max() - v[j]) for j, c in enumerate(cards[:m])}
                net = int(net_card(view, rec, pub, weights, lc, fs, nz))
                pimc = choose("pimc", st, rules, pub, seed=i * 1000 + k, workspace=ws)
                out.append((setting(view, rec), int(st[ST_TRICK_NO]) + 1, loss[int(card)], loss[net], loss[pimc],
                            net == pimc, int(card) == pimc))
                k += 1
            winner = play_card(st, rec, card)
            if winner >= 0 and rules.declare_after_trick:
                note_declarations(pub, st, rec, winner)
    return np.array(out, np.float64)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--variant", default="classic", help="a label: classic, piekjas2, piekjas3, piekjas4, dekjas")
    ap.add_argument("--deals", type=int, default=3000)
    ap.add_argument("--seed", type=int, default=2)
    a = ap.parse_args()
    t0 = time.perf_counter()
    g = gaps(a.variant, a.deals, a.seed)
    n = g.shape[0]
    gap = g[:, 3] - g[:, 4]

    def ci(x):
        return f"{x.mean():+7.2f} ± {Z95 * x.std(ddof=1) / np.sqrt(x.shape[0]):5.2f}" if x.shape[0] > 1 else "      -"

    def share(x):
        r = rate(int(x.sum()), x.shape[0])  # Wilson's interval
        return f"{r.p:.1%} [{100 * r.lo:.1f}, {100 * r.hi:.1f}]"

    print(f"{a.variant}: {n:,} decisions of {a.deals:,} deals (seed {a.seed}), {time.perf_counter() - t0:.0f} s; the value "
          "each card gives away against the best card (4 x net score + card points, heuristic play-out, true deal)")
    head = f"{'heuristic':>9} {'net':>7} {'pimc':>7} {'net - pimc':>15} {'of the gap':>10} {'net plays pimc':>20} {'heuristic does':>20}"

    def row(name, s):
        print(f"{name:>34} {s.sum():9,} {g[s, 2].mean():9.2f} {g[s, 3].mean():7.2f} {g[s, 4].mean():7.2f} {ci(gap[s]):>15} "
              f"{gap[s].sum() / gap.sum():10.0%} {share(g[s, 5]):>20} {share(g[s, 6]):>20}")

    print(f"{'setting':>34} {'decisions':>9} {head}")
    row("all", np.ones(n, bool))
    for k in range(N_SETTINGS):
        if (g[:, 0] == k).any():
            row(f"{'taker' if (k >> 1) & 1 else 'defence'}, {'late' if k & 1 else 'early'}, {k >> 2} in the trick", g[:, 0] == k)
    print(f"{'trick':>34} {'decisions':>9} {head}")
    for t in np.unique(g[:, 1]):
        row(f"{int(t)}", g[:, 1] == t)


if __name__ == "__main__":
    main()
