"""The learned play policy ``net`` (issue 20): its features against a slow reference written from
what each feature means, its card the best-scored legal card (the heuristic's with the weights
that only trust the heuristic), it never reads hidden cards, and the training's least squares
recovers a known scoring."""

from __future__ import annotations

import numpy as np
import pytest

from analyzer.game.state import (
    ST_BEST_I,
    ST_GONE,
    ST_HANDS,
    ST_LEADER,
    ST_LEADERS,
    ST_LED,
    ST_N_IN,
    ST_N_PLAYED,
    ST_PLAYED,
    ST_TAKER,
    ST_TO_MOVE,
    ST_TRICK_NO,
    ST_TRUMP,
    ST_UNDER,
    STATE_SIZE,
    legal_cards,
)
from analyzer.players import play
from analyzer.players.knowledge import PUB_DECL, PUB_DECLARED_KEY, PUB_DECLARED_USED, PUB_SEEN_OUT, UNDER_HIDDEN, observe
from analyzer.players.net import (FEATURES, N_CARD_FEATURES, N_FEATURES, N_SETTINGS, N_TERMS, N_WEIGHTS, ROW_LABELS, decision_features,
                                  decision_mask, net_card, setting)
from analyzer.players.play import heuristic_on_state
from analyzer.players.policies import play_code
from analyzer.players import strong_workspace
from analyzer.players.strong import card_via_link
from analyzer.rules import ALL_LABELS, Rules, reference
from analyzer.rules.cards import PLAIN_ORDER, PLAIN_POINTS, TRUMP_ORDER, TRUMP_POINTS
from analyzer.runs.learn import (Decisions, _centred, _choice_objective, _normal_equations, choices, evaluate, fit, lbfgs,
                                 refine, scores, terms)

from test_strong import hidden_pairs, random_position  # noqa: E402  (the positions the strong tests use)


def _cards(mask: int) -> list[int]:
    return [c for c in range(32) if (mask >> c) & 1]


def _order(card: int, trump: int) -> int:
    return (TRUMP_ORDER if card >> 3 == trump else PLAIN_ORDER)[card & 7]


def _points(card: int, trump: int) -> int:
    return int((TRUMP_POINTS if card >> 3 == trump else PLAIN_POINTS)[card & 7])


def _beats(a: int, b: int, trump: int, led: int) -> bool:
    """Does card ``a`` beat card ``b`` in a trick led in ``led`` (RULES.md §4: a trump beats any
    side card; within a suit the higher order; a card of another side suit never beats)?"""
    ta, tb = a >> 3 == trump, b >> 3 == trump
    if ta != tb:
        return ta
    if a >> 3 != b >> 3:
        return False
    return _order(a, trump) > _order(b, trump)


def reference_voids(view, rules) -> dict[int, set[int]]:
    """The suits each seat has shown void in: every card it played of another suit than the one led."""
    n = rules.players
    plays = [int(view[ST_PLAYED + i]) for i in range(int(view[ST_N_PLAYED]))]
    out = {s: set() for s in range(n)}
    for i, c in enumerate(plays):
        t, j = divmod(i, n)
        led = plays[t * n] >> 3
        if j and c >> 3 != led:
            out[(int(view[ST_LEADERS + t]) + j) % n].add(led)
    return out


def reference_to_declare(view, pub, seat, without=None) -> int:
    """Dekjas: the points ``seat`` would declare on winning a trick now (§5 'When'): the sequences among
    its face-up cards (less ``without``) that use no card a sequence has used, and the carrés likewise."""
    up = [c for c in _cards(int(view[ST_HANDS + seat])) if c != without]
    seq_used, carre_used = _cards(int(pub[PUB_DECLARED_USED])), _cards(int(pub[PUB_DECLARED_USED + 1]))
    return (sum(d.points for d in reference.declarations([c for c in up if c not in seq_used]) if d.kind == "sequence")
            + sum(d.points for d in reference.declarations([c for c in up if c not in carre_used]) if d.kind == "carre"))


def reference_keeps(view, rules, unseen, voids, card: int, side: int) -> bool:
    """No seat of another side than ``side``, to play after the seat to move in this trick, could beat
    ``card`` with an unseen card it may hold: one of ``card``'s suit ranked above it, by a seat not shown
    void in that suit; or, ``card`` a side card, a trump, by a seat shown void in its suit and not in trumps."""
    n, trump, suit = rules.players, int(view[ST_TRUMP]), card >> 3
    side_of = rules.side_of
    after = [(int(view[ST_TO_MOVE]) + d) % n for d in range(1, n - int(view[ST_N_IN]))]
    for s in after:
        if side_of(s) == side:
            continue
        for c in unseen:
            if c >> 3 == suit and _order(c, trump) > _order(card, trump) and suit not in voids[s]:
                return False
            if c >> 3 == trump and suit != trump and suit in voids[s] and trump not in voids[s]:
                return False
    return True


def reference_features(view, rules, seen_out: int, heur: int, card: int, pub=None) -> list[float]:
    """Each feature as its name says, card by card, from the seat's view."""
    n = rules.players
    seat, trump, k = int(view[ST_TO_MOVE]), int(view[ST_TRUMP]), int(view[ST_N_IN])
    mine = _cards(int(view[ST_HANDS + seat]))
    gone = set(_cards(int(view[ST_GONE]) | seen_out))
    unseen = [c for c in range(32) if c not in gone and c not in mine]
    suit = card >> 3
    is_trump = float(suit == trump)
    pts = _points(card, trump) / 20
    same = [c for c in mine if c >> 3 == suit]
    master = float(not any(c >> 3 == suit and _order(c, trump) > _order(card, trump) for c in unseen))
    side = (lambda s: s & 1) if rules.partners else (lambda s: s)
    taker_side = float(side(int(view[ST_TAKER])) == side(seat))
    lead = float(k == 0)
    wins = partner = trick_pts = ruff = over = 0.0
    if k:
        led = int(view[ST_LED])
        start = int(view[ST_TRICK_NO]) * n
        trick = [int(view[ST_PLAYED + start + i]) for i in range(k)]
        best = trick[int(view[ST_BEST_I])]
        wins = float(_beats(card, best, trump, led))
        win_seat = (int(view[ST_LEADER]) + int(view[ST_BEST_I])) % n
        partner = float(rules.partners and win_seat % 2 == seat % 2)
        trick_pts = sum(_points(c, trump) for c in trick) / 40
        ruff = float(suit == trump and led != trump)
        over = float(suit == trump and best >> 3 == trump and wins == 1.0)
    last = float(k == n - 1)
    unseen_trumps = sum(1 for c in unseen if c >> 3 == trump) / 8
    left = (rules.n_tricks - int(view[ST_TRICK_NO])) / 8
    h = float(card == heur)
    voids = reference_voids(view, rules)
    partner_seat = (seat + 2) % n if rules.partners else None
    opponents = [s for s in range(n) if s != seat and s != partner_seat]
    side_lead = lead * (1 - is_trump)
    opp_void = side_lead * float(any(suit in voids[s] for s in opponents))
    partner_void = side_lead * float(partner_seat is not None and suit in voids[partner_seat])
    after = [(seat + d) % n for d in range(1, n - k)] if k else []
    after_void = wins * float(any(int(view[ST_LED]) in voids[s] for s in after if s in opponents))
    unseen_suit = sum(1 for c in unseen if c >> 3 == suit) / 8
    # a seat to play after it shows (Dekjas: face up) a card that takes the trick it would win
    led_now = suit if k == 0 else int(view[ST_LED])
    later = 0.0
    if lead or wins:
        for d in range(1, n - k):
            shown = _cards(int(view[ST_HANDS + (seat + d) % n]))
            pool = [c for c in shown if c >> 3 == led_now] or shown
            later = max(later, float(any(_beats(c, card, trump, led_now) for c in pool)))
    uncovers = float(rules.variant == "dekjas" and int(view[ST_UNDER + card]) == UNDER_HIDDEN)
    none_shown = float(rules.variant == "dekjas" and k == 0 and suit != trump and any(
        not any(c >> 3 == suit for c in _cards(int(view[ST_HANDS + (seat + d) % n]))) for d in range(1, n)))
    breaks = 0.0  # Dekjas: the points the seat could still declare with the card and not without it
    if rules.variant == "dekjas":
        breaks = (reference_to_declare(view, pub, seat) - reference_to_declare(view, pub, seat, card)) / 100
    reply_takes = reply_points = 0.0  # Dekjas, leading: the other seat's likely reply from its face-up cards
    if rules.variant == "dekjas" and k == 0:
        other = (seat + 1) % n
        legal = reference.legal_plays(_cards(int(view[ST_HANDS + other])), [(seat, card)], other, trump, rules)
        takers = [c for c in legal if _beats(c, card, trump, suit)]
        if legal:  # it takes with its cheapest winner, else gives its cheapest card: side suits before trumps,
            # then fewer points, then the weaker card; of equal keys the lowest-numbered card
            reply = min(takers or legal, key=lambda c: (c >> 3 == trump, _points(c, trump), _order(c, trump), c))
            reply_takes = float(bool(takers))
            reply_points = (_points(card, trump) + _points(reply, trump)) / 40 * (-1 if takers else 1)
    side_of = rules.side_of
    takes_keeps = float(bool(lead or wins) and reference_keeps(view, rules, unseen, voids, card, side_of(seat)))
    return [h, is_trump, pts, _order(card, trump) / 7, master, lead, lead * is_trump, lead * master, lead * pts, wins,
            wins * last, wins * trick_pts, partner * pts, partner * is_trump, (1 - wins) * (1 - lead) * (1 - partner) * pts,
            ruff, taker_side * lead * is_trump, unseen_trumps * lead * is_trump, len(same) / 8,
            float(all(_order(c, trump) >= _order(card, trump) for c in same)),
            float(all(_order(c, trump) <= _order(card, trump) for c in same)), left * pts, taker_side * h, over,
            opp_void, partner_void, after_void, unseen_suit, later, uncovers, none_shown, breaks, reply_takes, reply_points,
            takes_keeps]


def reference_context(view, rules, pub) -> list[float]:
    """The features the same for every card of the decision, as their names say: the seats still to play in
    this trick, the tricks so far replayed card by card (who won each, the points each side took), the
    declarations each side scores, the seat's trumps."""
    n = rules.players
    seat, taker, trump, k = int(view[ST_TO_MOVE]), int(view[ST_TAKER]), int(view[ST_TRUMP]), int(view[ST_N_IN])
    side = (lambda s: s & 1) if rules.partners else (lambda s: s)
    after = [(seat + d) % n for d in range(1, n - k)]
    done = int(view[ST_TRICK_NO])
    plays = [int(view[ST_PLAYED + i]) for i in range(done * n)]
    won, points = {}, {}
    for t in range(done):
        trick = plays[t * n:(t + 1) * n]
        best = 0
        for i in range(1, n):
            if _beats(trick[i], trick[best], trump, trick[0] >> 3):
                best = i
        winner = side((int(view[ST_LEADERS + t]) + best) % n)
        won[winner] = won.get(winner, 0) + 1
        points[winner] = points.get(winner, 0) + sum(_points(c, trump) for c in trick)
    sides = sorted({side(s) for s in range(n)})
    mine = side(seat)
    total = {s: points.get(s, 0) + int(pub[PUB_DECL + s]) for s in sides}
    lead = (total[mine] - max(total[s] for s in sides if s != mine)) / 162 if done else 0.0
    return [float(rules.partners and (seat + 2) % n in after), float(taker in after), float(seat == taker),
            float(done > 0 and won.get(mine, 0) == done), float(done > 0 and any(won.get(s, 0) == done for s in sides if s != mine)),
            lead, sum(1 for c in _cards(int(view[ST_HANDS + seat])) if c >> 3 == trump) / 8] + reference_declarations(view, rules, pub) + [
                reference_winner_keeps(view, rules, pub)] + reference_masters(view, pub)


def reference_masters(view, pub) -> list[float]:
    """The seat's cards of a side suit, then its trumps, that no unseen card of their suit beats, / 8."""
    seat, trump = int(view[ST_TO_MOVE]), int(view[ST_TRUMP])
    mine = _cards(int(view[ST_HANDS + seat]))
    gone = set(_cards(int(view[ST_GONE]) | int(pub[PUB_SEEN_OUT])))
    unseen = [c for c in range(32) if c not in gone and c not in mine]
    masters = [c for c in mine if not any(u >> 3 == c >> 3 and _order(u, trump) > _order(c, trump) for u in unseen)]
    return [sum(1 for c in masters if c >> 3 != trump) / 8, sum(1 for c in masters if c >> 3 == trump) / 8]


def reference_declarations(view, rules, pub) -> list[float]:
    """Dekjas: the points / 100 the seat, then the other seat, would declare on winning a trick now, and
    whose best declaration so far is the better (+1 the seat's, -1 the other's, 0 neither)."""
    if rules.variant != "dekjas":
        return [0.0, 0.0, 0.0]
    seat = int(view[ST_TO_MOVE])
    mine, other = int(pub[PUB_DECLARED_KEY + seat]), int(pub[PUB_DECLARED_KEY + 1 - seat])
    return [reference_to_declare(view, pub, seat) / 100, reference_to_declare(view, pub, 1 - seat) / 100,
            float(mine > other) - float(mine < other)]


def reference_winner_keeps(view, rules, pub) -> float:
    """Following: no seat of another side than the trick's winner's, to play after the seat to move, could beat
    the card winning the trick (``reference_keeps``), by what the seat sees."""
    n, k = rules.players, int(view[ST_N_IN])
    if not k:
        return 0.0
    seat = int(view[ST_TO_MOVE])
    mine = _cards(int(view[ST_HANDS + seat]))
    gone = set(_cards(int(view[ST_GONE]) | int(pub[PUB_SEEN_OUT])))
    unseen = [c for c in range(32) if c not in gone and c not in mine]
    start = int(view[ST_TRICK_NO]) * n
    trick = [int(view[ST_PLAYED + start + i]) for i in range(k)]
    best = 0
    for i in range(1, k):
        if _beats(trick[i], trick[best], int(view[ST_TRUMP]), trick[0] >> 3):
            best = i
    side_of = rules.side_of
    winner = (int(view[ST_LEADER]) + best) % n
    return float(reference_keeps(view, rules, unseen, reference_voids(view, rules), trick[best], side_of(winner)))


def reference_taker_side(view, rules) -> int:
    seat, taker = int(view[ST_TO_MOVE]), int(view[ST_TAKER])
    return int(seat % 2 == taker % 2) if rules.partners else int(seat == taker)


def _positions(label, count, seed):
    rules = Rules.from_label(label)
    rng = np.random.default_rng(seed)
    out = []
    while len(out) < count:
        st, pub, seat = random_position(rules, rng, tricks_left=int(rng.integers(1, rules.n_tricks + 1)))
        if int(legal_cards(st, rules.record())).bit_count() >= 2:
            out.append((st, pub, seat))
    return rules, out


def test_the_features_are_named_in_order():
    assert len(FEATURES) == N_FEATURES == 48 and ROW_LABELS == ("classic", "piekjas2", "piekjas3", "piekjas4", "dekjas")


@pytest.mark.parametrize("label", ALL_LABELS)
def test_every_feature_of_every_legal_card_equals_the_reference(label):
    rules, positions = _positions(label, 200 if label == "dekjas" else 30, 5)  # Dekjas: declarations still to make are rarer
    seen = np.zeros(N_FEATURES, bool)
    rec = rules.record()
    view = np.zeros(STATE_SIZE, np.int64)
    cards, feats = np.zeros(32, np.int64), np.zeros((32, N_FEATURES))
    for st, pub, seat in positions:
        observe(st, rec, pub, seat, view)
        m, heur = decision_features(view, rec, pub, play.HEURISTIC, cards, feats)
        assert sorted(cards[:m]) == _cards(int(legal_cards(st, rec)))
        assert heur == heuristic_on_state(view, rec, pub[PUB_SEEN_OUT], play.HEURISTIC)
        mask = decision_mask(view, rec)
        for j in range(m):
            ref = reference_features(view, rules, int(pub[PUB_SEEN_OUT]), heur, int(cards[j]), pub) + reference_context(view, rules, pub)
            got = feats[j]
            wrong = [FEATURES[f] for f in range(N_FEATURES) if abs(got[f] - ref[f]) > 1e-12]
            assert not wrong, (label, int(cards[j]), wrong)
            outside = [FEATURES[f] for f in range(N_CARD_FEATURES) if got[f] != 0.0 and not (mask >> f) & 1]
            assert not outside, (label, int(cards[j]), outside)  # net's scores leave them out (decision_mask)
            seen |= got != 0
    assert seen[[34, 45, 46, 47]].all(), label  # takes and keeps, its winner keeps, side masters, master trumps: all met
    if label == "dekjas":  # every feature of Dekjas' face-up cards and declarations was checked where it is not 0
        assert seen[[28, 29, 30, 31, 32, 33, 42, 43, 44]].all(), [FEATURES[f] for f in range(N_FEATURES) if not seen[f]]


@pytest.mark.parametrize("label", ["classic", "piekjas3", "dekjas"])
def test_the_card_is_the_best_scored_and_the_heuristic_s_under_the_heuristic_s_weights(label):
    rules, positions = _positions(label, 80, 6)
    rec = rules.record()
    view = np.zeros(STATE_SIZE, np.int64)
    cards, feats, nz = np.zeros(32, np.int64), np.zeros((32, N_FEATURES)), np.zeros(N_FEATURES, np.int64)
    only_heuristic = np.zeros(N_WEIGHTS)
    only_heuristic[0::N_TERMS] = 1.0
    w = np.random.default_rng(1).normal(size=N_WEIGHTS)
    for st, pub, seat in positions:
        observe(st, rec, pub, seat, view)
        heur = heuristic_on_state(view, rec, pub[PUB_SEEN_OUT], play.HEURISTIC)
        assert net_card(view, rec, pub, only_heuristic, cards, feats, nz) == heur
        card = net_card(view, rec, pub, w, cards, feats, nz)
        m, _ = decision_features(view, rec, pub, play.HEURISTIC, cards, feats)
        k = setting(view, rec)
        assert k == (2 * (reference_taker_side(view, rules)) + (2 * (rules.n_tricks - int(view[ST_TRICK_NO])) <= rules.n_tricks)
                     + 4 * int(view[ST_N_IN]))
        # the training's terms (every feature, then every product of two in numpy's triu order)
        t = terms(feats[:m])
        assert t.shape == (m, N_TERMS)
        i, j = np.triu_indices(N_FEATURES, 1)
        assert np.allclose(t[:, N_FEATURES + 5], feats[:m, i[5]] * feats[:m, j[5]])
        scores = {int(cards[r]): float(t[r] @ w[k * N_TERMS:(k + 1) * N_TERMS]) for r in range(m)}
        assert abs(scores[card] - max(scores.values())) < 1e-9


@pytest.mark.parametrize("label", ALL_LABELS)
def test_net_never_reads_hidden_cards(label):
    """Two states that differ only in cards the seat cannot see: the same card, through the hand's
    own decision point (the link)."""
    rules = Rules.from_label(label)
    rng = np.random.default_rng(12)
    link = strong_workspace(rules, [play.NET])
    net = np.int64(play_code("net"))
    pairs = 0
    for st, twin, pub, _seat in hidden_pairs(rules, rng, 40):
        pairs += 1
        u = np.uint64(rng.integers(2**63))
        assert card_via_link(net, st.copy(), pub, link, u) == card_via_link(net, twin.copy(), pub, link, u)
    assert pairs == 40


def test_the_fit_recovers_a_known_scoring_within_decisions():
    """Losses made from known weights (plus a constant per decision, which no choice sees): the fit
    finds the weights, plays the best card everywhere, and the evaluation says so."""
    rng = np.random.default_rng(3)
    true = rng.normal(size=N_WEIGHTS)
    i, j = np.triu_indices(N_FEATURES, 1)
    lead = np.r_[np.arange(N_FEATURES) == 5, (i == 5) | (j == 5)]  # "lead" and its pairs
    true[np.tile(lead, N_WEIGHTS // N_TERMS)] = 0.0  # the same for every card of a decision: never identified
    used = (0, 7, N_SETTINGS - 1)  # three settings with data; a setting without any is the heuristic's card
    for k in set(range(N_SETTINGS)) - set(used):
        true[k * N_TERMS:(k + 1) * N_TERMS] = np.r_[1.0, np.zeros(N_TERMS - 1)]
    xs, gs, losses, settings = [], [], [], []
    for g in range(3000):
        k = used[g % len(used)]
        settings.append(k)
        m = int(rng.integers(2, 8))
        x = rng.normal(size=(m, N_FEATURES))
        x[:, 5] = 0.0  # never varies within a decision: its products with the others would not be identified
        x[:, 0] = 0.0
        x[int(rng.integers(m)), 0] = 1.0  # one "heuristic's card" a decision
        v = terms(x) @ true[k * N_TERMS:(k + 1) * N_TERMS] + rng.normal()
        xs.append(x)
        gs.append(np.full(m, g))
        losses.append(v.max() - v)
    d = Decisions(np.concatenate(xs), np.concatenate(losses), np.concatenate(gs), np.ones(3000, np.int64),
                  np.array(settings), 3000, 0.0)
    seen = []
    w = fit(d, ridge=1e-9, progress=seen.append)
    assert np.allclose(w, true, atol=1e-6)
    assert seen == sorted(seen) and seen[-1] == d.x.shape[0]  # the fit's progress: rows summed, to the last
    assert (d.loss[choices(d, w)] == 0).all()
    e = evaluate(d, w)
    assert e["net_loss"] == 0 and e["net_best"] == 1.0 and e["difference"] <= 0 and e["decisions"] == 3000


def _sparse_decisions(rng, count, settings=(0, 5, N_SETTINGS - 1)):
    """Decisions of 2 to 7 cards whose features are mostly 0 (as a card's are), some 1, some real."""
    xs, gs, ks = [], [], []
    for g in range(count):
        m = int(rng.integers(2, 8))
        x = np.where(rng.random((m, N_FEATURES)) < 0.25, rng.choice([1.0, 1.0, -0.5, 0.3], size=(m, N_FEATURES)), 0.0)
        x[:, N_FEATURES - 3:] = x[0, N_FEATURES - 3:]  # the decision's own features: the same for every card
        xs.append(x)
        gs.append(np.full(m, g))
        ks.append(settings[g % len(settings)])
    x = np.concatenate(xs)
    return Decisions(x, rng.normal(size=x.shape[0]) ** 2, np.concatenate(gs), np.ones(count, np.int64), np.array(ks), count, 0.0)


def test_the_fit_s_sums_over_nonzero_terms_equal_the_dense_centred_products():
    """``_normal_equations`` (each row's nonzero terms, the centring as sum t t' - n mean mean') against
    the obvious computation: every term of every row, centred on its decision's mean, multiplied out;
    and ``scores`` against the terms times the setting's weights."""
    rng = np.random.default_rng(11)
    d = _sparse_decisions(rng, 400)
    t = _centred(terms(d.x), d.g, d.n)
    y = _centred(-d.loss, d.g, d.n)
    xtx, xty = np.zeros((N_SETTINGS, N_TERMS, N_TERMS)), np.zeros((N_SETTINGS, N_TERMS))
    _normal_equations(d.x, y, d.g, d.setting[d.g], xtx, xty)
    rows = d.setting[d.g]
    for k in range(N_SETTINGS):
        dense = t[rows == k].T @ t[rows == k]
        assert np.allclose(np.triu(xtx[k]), np.triu(dense), atol=1e-9) and np.allclose(xty[k], t[rows == k].T @ y[rows == k])
        assert (np.tril(xtx[k], -1) == 0).all()  # only the upper triangle is summed; fit mirrors it
    assert np.abs(xtx).max() > 1.0  # settings with data summed something
    w = rng.normal(size=N_WEIGHTS)
    dense_scores = np.einsum("ij,ij->i", terms(d.x), w.reshape(N_SETTINGS, N_TERMS)[rows])
    assert np.allclose(scores(d, w), dense_scores)


def test_the_weights_files_written_by_learn_read_back_every_bit_and_the_other_rows(tmp_path):
    """``belote learn --write``'s files: the new row, every other row and every provenance as they
    were, to the bit, and a header that vouches for the array (its sha256, the row labels, the layout)."""
    import hashlib
    import json

    from analyzer.players import net_weights
    from analyzer.players.net import N_FEATURES, N_SETTINGS, N_WEIGHTS, ROW_LABELS
    from analyzer.players.net_files import FORMAT, read_weights
    from analyzer.runs.learn import write_weights

    rng = np.random.default_rng(5)
    row = rng.normal(0, 50, N_WEIGHTS) * (rng.random(N_WEIGHTS) < 0.3)  # zeros as trained rows have
    row[:4] = [-0.0, 5e-324, 1e300, -3.1388088160019484e-27]  # the bits survive, not only the values
    path = tmp_path / "w.npy"
    write_weights(path, {"piekjas3": row}, {"piekjas3": {"seed": 9, "note": "± a deal"}})
    assert sorted(p.name for p in tmp_path.iterdir()) == ["w.json", "w.npy"]  # no temporary file left
    weights, provenance = read_weights(path)
    want = net_weights.WEIGHTS.copy()
    want[ROW_LABELS.index("piekjas3")] = row
    assert weights.dtype == np.float64 and weights.tobytes() == want.tobytes()
    assert weights.flags.writeable and weights.flags.c_contiguous  # as numba types the global it freezes
    assert provenance == {**net_weights.PROVENANCE, "piekjas3": {"seed": 9, "note": "± a deal"}}
    assert np.load(path, allow_pickle=False).tobytes() == want.tobytes()  # plain numpy reads it too
    head = json.loads((tmp_path / "w.json").read_text())
    assert head["format"] == FORMAT and head["rows"] == list(ROW_LABELS) and head["dtype"] == "<f8"
    assert head["shape"] == [len(ROW_LABELS), N_WEIGHTS]
    assert (head["features"], head["settings"]) == (N_FEATURES, N_SETTINGS)
    assert head["sha256"] == hashlib.sha256(path.read_bytes()).hexdigest()


def test_the_shipped_weights_are_net_s_layout_with_their_provenance():
    """Every version's weights read and checked (``net_files``): one row per rules label, one column per
    weight, every row's provenance; the latest is the default (``net.npy``); v3 differs from the
    frozen v2 where it took its later steps."""
    from analyzer.players import net_weights
    from analyzer.players.net import N_WEIGHTS, ROW_LABELS

    assert net_weights.VERSIONS == tuple(range(2, net_weights.LATEST + 1))
    assert net_weights.BY_VERSION[net_weights.LATEST] is net_weights.WEIGHTS
    for v, w in net_weights.BY_VERSION.items():
        prov = net_weights.PROVENANCE_BY_VERSION[v]
        assert w.shape == (len(ROW_LABELS), N_WEIGHTS) and w.dtype == np.float64 and np.isfinite(w).all()
        assert sorted(prov) == sorted(ROW_LABELS) and all(isinstance(p, dict) for p in prov.values())
        assert w[:, 0].all()  # the heuristic's card weighs in every row
    v2, v3 = net_weights.BY_VERSION[2], net_weights.BY_VERSION[3]
    same = [np.array_equal(v3[k], v2[k]) for k in range(len(ROW_LABELS))]
    assert same == [label == "piekjas2" for label in ROW_LABELS]  # v3's Piekjas 2 row is v2's


def _weights_pair(tmp_path, name="w"):
    """A valid pair of weights files in ``tmp_path`` (the shipped weights), its array's path."""
    from analyzer.runs.learn import write_weights

    path = tmp_path / f"{name}.npy"
    write_weights(path, {}, {})
    return path


def _rewrite_header(path, **fields):
    import json

    h = path.with_suffix(".json")
    head = json.loads(h.read_text())
    head.update(fields)
    h.write_text(json.dumps(head))


@pytest.mark.parametrize("fault", ["no array", "no header", "not json", "format", "rows", "layout", "dtype",
                                   "changed array", "not npy", "array shape", "not finite", "a folder"])
def test_a_bad_weights_file_is_refused_in_one_line_naming_the_file_and_the_fix(fault, tmp_path):
    import hashlib

    from analyzer.errors import BeloteError
    from analyzer.players.net import N_WEIGHTS
    from analyzer.players.net_files import array_bytes, read_weights

    path = _weights_pair(tmp_path)
    header = path.with_suffix(".json")
    w = np.load(path)
    named = {"no array": path, "no header": header, "not json": header, "format": header, "rows": header,
             "layout": header, "dtype": header, "changed array": path, "not npy": path, "array shape": path,
             "not finite": path, "a folder": path}[fault]
    if fault == "no array":
        path.unlink()
    elif fault == "no header":
        header.unlink()
    elif fault == "not json":
        header.write_text("{not json")
    elif fault == "format":
        _rewrite_header(path, format="belote-net-weights/0")
    elif fault == "rows":
        _rewrite_header(path, rows=["classic", "dekjas", "piekjas2", "piekjas3", "piekjas4"])
    elif fault == "layout":
        _rewrite_header(path, features=47, shape=[5, N_WEIGHTS - 16 * 48])
    elif fault == "dtype":
        _rewrite_header(path, dtype="<f4")
    elif fault == "changed array":
        data = bytearray(path.read_bytes())
        data[-1] ^= 1  # one bit of the last weight
        path.write_bytes(bytes(data))
    else:
        if fault == "not npy":
            data = b"not an array" * 10
        elif fault == "array shape":
            data = array_bytes(w[:, :-1])
        elif fault == "not finite":
            w[3, 7] = np.nan
            data = array_bytes(w)
        else:  # a folder where the array was
            path.unlink()
            path.mkdir()
            data = None
        if data is not None:
            path.write_bytes(data)
            _rewrite_header(path, sha256=hashlib.sha256(data).hexdigest())  # the header vouches for it
    with pytest.raises(BeloteError) as e:
        read_weights(path)
    line = str(e.value)
    assert "\n" not in line and line.startswith(f"net weights {named}: "), line
    assert line.endswith("restore the shipped files (git checkout analyzer/players/net_data in a checkout, or "
                         "reinstall belote-analyzer)"), line
    what = {"no array": "no such file", "no header": "no such file", "not json": "not a readable JSON header",
            "format": 'not a header of format "belote-net-weights/1"', "rows": "rows ['classic', 'dekjas'",
            "layout": "laid out for 47 features and 16 settings", "dtype": 'dtype "<f4", not "<f8"',
            "changed array": "its sha256 is not the one its header w.json records", "not npy": "not a .npy array",
            "array shape": f"not the header's <f8[5, {N_WEIGHTS}]", "not finite": "weight 7 of row piekjas4 is nan",
            "a folder": "a folder, not a file"}[fault]
    assert what in line, line


def test_a_write_killed_between_its_two_renames_is_finished_by_the_next_reader(tmp_path, capsys):
    """The array renamed into place, its header not (a SIGKILL between the two renames): the header the
    write left beside them vouches for the new array, and the next reader renames it into place."""
    import os
    import subprocess
    import sys
    import textwrap

    from analyzer.players.net_files import read_weights

    path = _weights_pair(tmp_path)
    p = subprocess.Popen([sys.executable, "-c", textwrap.dedent(f"""
        import os, signal
        import numpy as np
        from analyzer.players.net import N_WEIGHTS
        from analyzer.runs import learn

        real = os.replace
        def replace(src, dst):  # the array renamed, then SIGKILL before the header's rename
            if str(dst).endswith(".json"):
                os.kill(os.getpid(), signal.SIGKILL)
            real(src, dst)
        os.replace = replace
        learn.write_weights({str(path)!r}, {{"dekjas": np.full(N_WEIGHTS, 2.0)}},
                            {{"dekjas": {{"seed": 4}}}})
    """)])
    assert p.wait(timeout=120) == -9
    left = f".w.json.{p.pid}.tmp"
    # the new array, the old header, the new one beside it and a second name of the array replaced
    assert sorted(os.listdir(tmp_path)) == [left, f".w.npy.{p.pid}.old.tmp", "w.json", "w.npy"]
    weights, provenance = read_weights(path)
    assert (weights[ROW_LABELS.index("dekjas")] == 2.0).all() and provenance["dekjas"] == {"seed": 4}
    assert sorted(os.listdir(tmp_path)) == ["w.json", "w.npy"]
    assert capsys.readouterr().err == (f"belote: a learn --write killed between its two renames (PID {p.pid}) left "
                                       f"{path} without its header: finished it ({left} renamed to w.json)\n")


def test_the_weights_arrays_are_part_of_the_kernel_cache_s_digest(tmp_path):
    """numba freezes the weights into the compiled policy and checks only the timestamps of kernel
    modules: a retrained model (its ``.npy``) must start a fresh kernel cache, not run the old weights;
    its header (the provenance) and a module kernels do not read leave the cache as it is."""
    import shutil
    from pathlib import Path

    import analyzer
    from analyzer import KERNEL_DATA_FILES, _kernel_digest

    here = Path(analyzer.__file__).resolve().parent
    (tmp_path / "players").mkdir()
    kernel = tmp_path / "players" / "k.py"
    kernel.write_text("from numba import njit\n\n@njit(cache=True)\ndef f():\n    return 1\n")
    plain = tmp_path / "players" / "p.py"
    plain.write_text("X = 1\n")
    for name in KERNEL_DATA_FILES:
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy(here / name, tmp_path / name)
        shutil.copy((here / name).with_suffix(".json"), (tmp_path / name).with_suffix(".json"))
    before = _kernel_digest(tmp_path).hexdigest()
    plain.write_text("X = 2\n")
    (tmp_path / KERNEL_DATA_FILES[0]).with_suffix(".json").write_text("{}")
    assert _kernel_digest(tmp_path).hexdigest() == before  # not read by kernels: the cache stays
    for name in KERNEL_DATA_FILES:
        data = tmp_path / name
        saved = data.read_bytes()
        data.write_bytes(saved[:-1] + bytes([saved[-1] ^ 1]))  # one bit of one weight
        assert _kernel_digest(tmp_path).hexdigest() != before, name
        data.unlink()
        assert _kernel_digest(tmp_path).hexdigest() != before, name  # a missing file too (its reader refuses it)
        data.write_bytes(saved)
        assert _kernel_digest(tmp_path).hexdigest() == before


@pytest.mark.slow  # two small trainings through the CLI
@pytest.mark.usefixtures("net_data_lock")  # a learn cleans up what tests/runs/test_learn_faults.py leaves on purpose
def test_belote_learn_trains_and_judges_on_held_out_deals_the_same_way_on_any_number_of_processes(belote, tmp_path):
    a, b = (belote.json("learn", "--variant", "piekjas", "--players", "2", "--deals", "300", "--test-deals", "150",
                        "--threads", threads, "--iterations", "2", cwd=tmp_path) for threads in ("1", "2"))
    assert a["weights"] == b["weights"] and a["held_out"] == b["held_out"]
    for sa, sb in zip(a["steps"], b["steps"]):  # every step the same but its seconds
        assert {k: v for k, v in sa.items() if k != "train"} == {k: v for k, v in sb.items() if k != "train"}
        assert sa["train"]["decisions"] == sb["train"]["decisions"]
    # two steps of policy iteration: the second judged on the games of the first step's net
    assert [s["games"] for s in a["steps"]] == ["heuristic", "net of step 1"] and a["held_out"] == a["steps"][1]["held_out"]
    games = [(s["held_out"]["decisions"], s["held_out"]["heuristic_loss"]) for s in a["steps"]]
    assert games[0] != games[1]  # other games: other decisions, or the heuristic's card judged on other positions
    h = a["held_out"]
    assert h["deals"] == 150 and h["decisions"] > 500 and a["train"]["decisions"] > 1000
    assert h["heuristic_loss"] > 0 and h["difference_ci"][0] <= h["difference"] <= h["difference_ci"][1]
    assert not list(tmp_path.iterdir())  # without --write nothing is written


@pytest.mark.parametrize("label", ["classic", "piekjas3", "dekjas"])
def test_net_plays_the_shipped_weights_and_each_version_its_own(label):
    """``net`` scores with ``net_weights.WEIGHTS`` (the latest), ``net:v=N`` with version N's frozen
    weights (``net_weights.BY_VERSION``): through the hand's own decision point, the card net_card
    gives with each."""
    from analyzer.players.net import rules_row
    from analyzer.players.net_weights import BY_VERSION, LATEST, VERSIONS, WEIGHTS

    assert play_code("net") == play.NET and play_code(f"net:v={LATEST}") == play.NET  # the plain code: the kind's
    rules, positions = _positions(label, 60, 8)
    rec = rules.record()
    link = strong_workspace(rules, [play.NET])
    view = np.zeros(STATE_SIZE, np.int64)
    cards, feats, nz = np.zeros(32, np.int64), np.zeros((32, N_FEATURES)), np.zeros(N_FEATURES, np.int64)
    played = {}
    for name, weights in [("net", WEIGHTS)] + [(f"net:v={v}", BY_VERSION[v]) for v in VERSIONS]:
        code = np.int64(play_code(name))
        played[name] = []
        for st, pub, seat in positions:  # each with two legal cards or more
            observe(st, rec, pub, seat, view)
            want = net_card(view, rec, pub, weights[rules_row(rec)], cards, feats, nz)
            assert card_via_link(code, st.copy(), pub, link, np.uint64(1)) == want, (name, label)
            played[name].append(want)
    # versions whose rows differ play differently on these positions; those that share a row play alike
    for v, w in BY_VERSION.items():
        assert (played["net"] != played[f"net:v={v}"]) == (not np.array_equal(WEIGHTS[rules_row(rec)], w[rules_row(rec)]))
    assert label != "classic" or played["net:v=2"] != played["net:v=3"]


@pytest.mark.parametrize("label", ["classic", "dekjas"])
def test_a_step_over_the_heuristic_s_own_weights_is_the_first_step(label):
    """The weights that play only the heuristic's card are the heuristic: a step of policy iteration
    over them (their games, their play-outs) gives the decisions and losses of the heuristic's games
    and play-outs, row for row. So the games and play-outs of a step are net's own, card for card."""
    from analyzer.runs.learn import decisions

    rules = Rules.from_label(label)
    only_heuristic = np.zeros(N_WEIGHTS)
    only_heuristic[0::N_TERMS] = 1.0
    a = decisions(rules, seed=3, deals=25)
    b = decisions(rules, seed=3, deals=25, weights=only_heuristic)
    assert a.n > 100
    for f in ("x", "loss", "g", "trick", "setting"):
        assert np.array_equal(getattr(a, f), getattr(b, f)), f
    # and other weights play other games: the step is not a copy of the first
    c = decisions(rules, seed=3, deals=25, weights=np.random.default_rng(2).normal(size=N_WEIGHTS))
    assert c.n != a.n or not np.array_equal(c.loss, a.loss)


def test_policy_iteration_with_double_dummy_values_is_refused_in_one_line(belote, tmp_path):
    line = belote.error("learn", "--target", "dd", "--iterations", "2", "--deals", "10", "-q", cwd=tmp_path)
    assert "--iterations needs --target rollout" in line


def test_the_relay_of_the_weights_keeps_every_score_and_gives_new_features_no_weight():
    """``scripts/maintainer/net_relay.py``: the weights laid out again after features are inserted score every card
    as before (the new features 0), and every term of a new feature is 0."""
    from scripts.maintainer import net_relay

    old, at, count, settings = 9, 4, 2, 3
    rng = np.random.default_rng(3)
    w = rng.normal(size=(2, settings * net_relay._terms(old)))
    out = net_relay.relay(w, old, at, count, settings)
    new = old + count

    def score(weights, f, x, s):
        base = s * net_relay._terms(f)
        return (sum(weights[base + i] * x[i] for i in range(f))
                + sum(weights[base + net_relay._pair(f, i, j)] * x[i] * x[j] for i in range(f) for j in range(i + 1, f)))

    for s in range(settings):
        x = rng.normal(size=old)
        x_new = np.insert(x, at, np.zeros(count))
        assert abs(score(w[1], old, x, s) - score(out[1], new, x_new, s)) < 1e-9
    inserted = np.zeros(new)
    inserted[at:at + count] = 1.0  # only the new features on: their singles and their pairs, all 0
    assert all(score(np.abs(out[0]), new, inserted, s) == 0.0 for s in range(settings))
    assert np.count_nonzero(out) == np.count_nonzero(w)  # every old term kept, none added (pairs with old ones too)


def _softmax_loss(d, w, tau):
    """``_choice_objective`` the obvious way: every term of every row dense, a softmax per decision."""
    s = np.einsum("ij,ij->i", terms(d.x), w.reshape(N_SETTINGS, N_TERMS)[d.setting[d.g]]) / tau
    total = 0.0
    for g in range(d.n):
        rows = d.g == g
        p = np.exp(s[rows] - s[rows].max())
        total += (p / p.sum()) @ d.loss[rows]
    return total


def test_the_choice_objective_and_its_gradient_equal_the_dense_softmax_and_its_differences():
    """``_choice_objective`` (each row's nonzero terms) against the dense softmax-weighted loss, and
    its gradient against central differences of that, term by term on a sample of weights."""
    rng = np.random.default_rng(5)
    d = _sparse_decisions(rng, 200)
    w = rng.normal(size=N_WEIGHTS) * 0.3
    grad = np.zeros(N_WEIGHTS)
    total, n = _choice_objective(d.x, d.loss, d.g, d.setting[d.g], w, 2.0, grad)
    assert n == d.n and np.isclose(total, _softmax_loss(d, w, 2.0))
    used = np.flatnonzero(grad)
    assert used.size > 500  # the settings with data have gradients in many terms
    for k in rng.choice(used, 12, replace=False).tolist() + [int(np.flatnonzero(grad == 0)[0])]:
        e = np.zeros(N_WEIGHTS)
        e[k] = 1e-5
        numeric = (_softmax_loss(d, w + e, 2.0) - _softmax_loss(d, w - e, 2.0)) / 2e-5
        assert np.isclose(grad[k], numeric, rtol=1e-5, atol=1e-8), k


def test_lbfgs_finds_the_minimum_of_a_quadratic():
    rng = np.random.default_rng(2)
    a = rng.normal(size=(30, 30))
    h = a @ a.T + np.eye(30)
    b = rng.normal(size=30)
    steps = []
    w = lbfgs(lambda w: (0.5 * w @ h @ w - b @ w, h @ w - b), np.zeros(30), 60, progress=steps.append)
    assert np.allclose(w, np.linalg.solve(h, b), atol=1e-4) and steps == list(range(1, 61))


def test_the_refinement_lowers_the_loss_of_the_card_played_where_no_quadratic_score_fits():
    """Decisions whose values no quadratic score fits (a product of three features, which the
    least squares fit as best they can over every card, the worst ones too): the refinement lowers
    the loss of the card played on held-out decisions drawn the same way, from the least squares'
    weights; a setting without decisions keeps its weights."""
    rng = np.random.default_rng(9)

    def draw(count):
        xs, gs, losses = [], [], []
        for g in range(count):
            m = int(rng.integers(2, 8))
            x = np.zeros((m, N_FEATURES))
            x[:, 1:5] = rng.uniform(-1, 1, size=(m, 4))
            v = 8 * x[:, 1] * x[:, 2] * x[:, 3] + x[:, 4] + 0.3 * rng.normal(size=m)
            xs.append(x)
            gs.append(np.full(m, g))
            losses.append(v.max() - v)
        return Decisions(np.concatenate(xs), np.concatenate(losses), np.concatenate(gs), np.ones(count, np.int64),
                         np.arange(count) % 2 * 5, count, 0.0)

    train, test = draw(4000), draw(2000)
    w0 = fit(train, ridge=1.0)
    seen = []
    w = refine(train, w0, temperatures=(0.5, 0.25), steps=25, progress=seen.append)
    assert seen == list(range(1, 51))
    assert np.array_equal(w, refine(train, w0, temperatures=(0.5, 0.25), steps=25, threads=2))  # any threads: the same
    gain = test.loss[choices(test, w0)] - test.loss[choices(test, w)]  # paired, decision by decision
    assert gain.mean() > max(0.1, 4 * gain.std() / np.sqrt(gain.size)), gain.mean()  # measured: 0.30 +- 0.04
    idle = np.ones(N_SETTINGS, bool)
    idle[[0, 5]] = False
    assert np.array_equal(w.reshape(N_SETTINGS, N_TERMS)[idle], w0.reshape(N_SETTINGS, N_TERMS)[idle])


@pytest.mark.usefixtures("net_data_lock")  # a learn cleans up what tests/runs/test_learn_faults.py leaves on purpose
def test_a_learn_started_from_a_net_version_trains_on_that_net_s_games(belote, tmp_path):
    """--start net:v=3: the first step's games and play-outs are v3's (other decisions than the
    heuristic's games give), said in the output and the steps; a version that does not exist is one line."""
    args = ("learn", "--variant", "piekjas", "--players", "2", "--deals", "200", "--test-deals", "100", "--fit", "squares")
    plain, started = belote.json(*args, cwd=tmp_path), belote.json(*args, "--start", "net:v=3", cwd=tmp_path)
    assert plain["start"] == "heuristic" and started["start"] == "net:v=3"
    assert [s["games"] for s in started["steps"]] == ["net:v=3"]
    assert started["held_out"]["decisions"] != plain["held_out"]["decisions"]  # other games, other decisions
    text = belote.out(*args, "--start", "net:v=3", "-q", cwd=tmp_path)
    assert "(step 1: games and play-outs of net:v=3)" in text and "net:v=3 play-out" in text
    line = belote.error(*args, "--start", "net:v=9", "-q", cwd=tmp_path)
    assert line.startswith('belote: error: --start must be heuristic, net (the latest) or one of net:v=2, net:v=3')
