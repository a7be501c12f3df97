"""``net``: a learned play policy, a quadratic score over features of each legal card.

The seat to move sees what ``knowledge.observe`` leaves it (its cards, the cards gone, the trick,
the trump and the troefmaker, the cards face up out of play, the points and tricks each side has
taken). For each legal card the policy computes ``N_CARD_FEATURES`` numbers a Belote player would
name about the card, and ``N_CONTEXT`` more about the decision, the same for every card (below),
scores the card with the weights of its rules and of the decision's setting (the seat's side taker
or defending, the hand early or late, the seat's position in the trick; ``net_weights.WEIGHTS``,
one row per rules label, trained by ``analyzer.runs.learn`` against pimc's evaluation of each card)
and plays the best; ties go to the heuristic's card, then the lowest card. The score is a weight
per feature plus a weight per pair of features (``N_TERMS``: a feature matters more or less when
another holds, "a master when leading", "points when the partner wins", "a trump when the taker
plays after"), computed over the card's nonzero features only (most are 0 or 1, and most are 0).
The decision's features count only through their pairs with the card's (what they add alike to
every card changes no choice), so they are folded once a decision into the weights of the card's
features (``decision_weights``). Feature 0 is "the heuristic plays this card", so the model learns
where to leave the heuristic; with every other weight 0 it is the heuristic.

Versions (``net:v=N``, ``net_files.NET_VERSIONS``): v4, the default, is ``net_weights.WEIGHTS``. Its classic
row is one step of policy iteration over v3's (``belote learn --start net:v=3``: v3's games and play-outs),
its Piekjas 2 row one step over the heuristic's, both fitted to the choice (``--fit choice``: the least
squares, then the loss of the card the model plays, ``runs.learn.refine``); its other rows are v3's.
v3 (frozen): every row but Piekjas 2's reads the decision's features (35-47) and has a block of weights
for each of the 16 settings, fitted by least squares alone; in
classic and Piekjas 3 it is two steps of policy iteration (``belote learn --iterations 2``: the fit
on the heuristic's games and play-outs, then on the games the first step's net plays, each card
followed by that net in every seat; in Dekjas too), in Piekjas 4 one step (there a second step beats the
first head to head but the heuristic by less: a best response to its play-outs; figures in docs/BENCHMARKS.md).
v3's Piekjas 2 row is v2's (it had 96% of pimc's margin already). The Dekjas features 28-30 (what the
opponent's face-up cards can do to the card, the side suits they lack, and the face-down card it
uncovers), 32-33 (the opponent's likely reply to a lead, from its face-up cards: whether it takes
the trick, and the trick's points after it) and 31, 42-44 (the declarations the card breaks, those
each seat would make on winning a trick now, who holds the best one so far: Dekjas declares in
play) are 0 in every other variant
(no other seat's card is in sight; the declarations are made at the first trick). The features 34
and 45 (a card that takes the trick and keeps it, a trick its winner keeps: ``keeps``, by the unseen
cards and the voids shown) and 46-47 (the seat's masters in side suits and in trumps: ``masters``)
weigh in every row of v3 but Piekjas 2's (v2's), and in every row of v4. v2 (``net_weights.WEIGHTS_V2``,
frozen) was trained on the heuristic's games and play-outs with the features 0 to 27 and four
settings (its weights of the other features are 0, each of its blocks copied to the four positions).
The figures are in docs/BENCHMARKS.md.

The choice is a pure function of the view: no random number is drawn.
"""

from __future__ import annotations

import numpy as np

from analyzer.compiling import njit
from analyzer.rules.declarations import declare_new
from analyzer.rules.structure import declares_after_trick, has_partners, has_piles
from analyzer.game.state import (
    ST_UNDER,
    ST_BEST_I,
    ST_N_PLAYED,
    ST_PLAYED,
    ST_BEST_S,
    ST_GONE,
    ST_HANDS,
    ST_LEADER,
    ST_LEADERS,
    ST_LED,
    ST_N_IN,
    ST_TAKER,
    ST_POINTS,
    ST_TO_MOVE,
    ST_TRICKS,
    ST_TRICK_MASK,
    ST_TRICK_NO,
    ST_TRUMP,
    legal_cards,
    trick_step,
)
from analyzer.players.knowledge import PUB_DECL, PUB_DECLARED_KEY, PUB_DECLARED_USED, PUB_SEEN_OUT, UNDER_HIDDEN
from analyzer.players.play import CHEAPEST, HEURISTIC, LANE_MASTERS, _beaters, _lane_of, _pick, _winners, heuristic_on_state
from analyzer.rules import CLASSIC, DEKJAS, PIEKJAS
from analyzer.rules.cards import (ALL_CARDS_MASK, LAST_TRICK_BONUS, TOTAL_CARD_POINTS, card_points, lowest_bit64, lowest_card,
                                  popcount, strength, suit_mask)
from analyzer.rules.legal import legal_mask
from analyzer.rules.seats import next_seat, seat_after, side_of_seat

# The features of one legal card, in order (names: FEATURES). "pts" is the card's points / 20.
FEATURES = (
    "heuristic's card",  # 0: the heuristic plays it
    "trump",  # 1
    "pts",  # 2
    "rank in its suit",  # 3: 0 (lowest) .. 1 (highest), trump order for trumps
    "master",  # 4: no unseen card of its suit beats it
    "lead",  # 5: the seat leads the trick
    "lead x trump",  # 6
    "lead x master",  # 7
    "lead x pts",  # 8
    "wins the trick so far",  # 9: following, it beats the card winning the trick
    "wins x last to play",  # 10: it takes the trick for sure
    "wins x trick pts",  # 11: the points on the table / 40, when it wins
    "partner winning x pts",  # 12: classic, loading the partner's trick
    "partner winning x trump",  # 13
    "loses x pts",  # 14: following without winning: points given to the trick's winner
    "ruff",  # 15: a trump on a side suit led
    "taker side x lead x trump",  # 16: drawing trumps
    "unseen trumps x lead x trump",  # 17: the trumps others may hold / 8
    "length of its suit",  # 18: the seat's cards of that suit / 8
    "lowest of its suit",  # 19
    "highest of its suit",  # 20
    "tricks left x pts",  # 21
    "taker side x heuristic's card",  # 22
    "overtrump",  # 23: a trump above the trick's highest trump
    "lead x an opponent void in its side suit",  # 24: proven by a card of another suit on its lead
    "lead x the partner void in its side suit",  # 25: classic
    "wins x an opponent after void in the suit led",  # 26: it may be ruffed or overtrumped
    "unseen cards of its suit",  # 27: / 8
    "a later seat shows a card that beats it",  # 28: it would win the trick, but a seat to play after it
    # holds a card in sight that takes it (Dekjas: the face-up cards are public)
    "it uncovers a face-down card",  # 29: Dekjas, a face-up card with a hidden card under it
    "lead x a later seat shows no card of its side suit",  # 30: Dekjas, none among its face-up cards
    "the declarations it breaks",  # 31: Dekjas, the points / 100 the seat could still declare with it and not without
    "lead x the reply takes it",  # 32: Dekjas, the later seat's likely reply from its face-up cards (``likely_reply``) wins
    "lead x the trick's points after the reply",  # 33: Dekjas, the card's and the reply's points / 40, + the seat's, - the other's
    "it takes the trick and keeps it",  # 34: it leads or beats the trick so far, and no seat of another side to play
    # after it can beat it by what the seat sees (``keeps``): a higher unseen card of its suit with a seat not shown void
    # in that suit, or, a side card, an unseen trump with a seat shown void in the suit and not in trumps
    # what is the same for every card of the decision: the model reads it through its pairs with the card's features
    "the partner plays after it in this trick",  # 35: classic, leading or second to play
    "the taker plays after it in this trick",  # 36: a defender plays before the taker
    "the seat is the taker",  # 37: not its partner
    "the seat's side has won every trick so far",  # 38: from the second trick on (capot for)
    "another side has won every trick so far",  # 39: from the second trick on (capot against)
    "the side's lead in points",  # 40: its card and declaration points less the best other side's, / 162
    "the seat's trumps",  # 41: / 8
    "the seat's declarations still to make",  # 42: Dekjas, the points / 100 it would declare on winning a trick now
    "another seat's declarations still to make",  # 43: Dekjas, the same for the other seat
    "who holds the best declaration",  # 44: Dekjas, +1 the seat's best declared so far beats the other's, -1 it loses
    "the trick's winner keeps it",  # 45: following, no seat of another side than the winner's to play after this one
    # can beat the card winning the trick (``keeps``): "load points on the partner's sure trick", "save them from the other's"
    "the seat's masters in side suits",  # 46: / 8, its cards of a side suit that no unseen card of that suit beats
    "the seat's master trumps",  # 47: / 8, its trumps that no unseen trump beats (the taker's leads: keep a master to come
    # back in, or cash it; pimc leads low more often when it holds fewer side masters, docs/BENCHMARKS.md)
)
N_FEATURES = len(FEATURES)
MINE_TO_DECLARE = FEATURES.index("the seat's declarations still to make")  # read again by the card's feature 31
N_CARD_FEATURES = 35  # the features of the card itself; from here on, the decision's (``context_features``)
N_CONTEXT = N_FEATURES - N_CARD_FEATURES
# The score of a card: in each of sixteen settings of the decision (the seat's side taker or
# defending, the hand early or late: at most half its tricks left, and the cards already in the
# trick), a weight per feature and a weight per pair of features i < j (``pair_term``: numpy's
# ``triu_indices(N_FEATURES, 1)`` order): weights[(2 * taker + late + 4 * in_trick) * N_TERMS + term].
# Held out on classic decisions (40,000 deals to train, 10,000 to judge, docs/BENCHMARKS.md), the pairs
# took the value given away against the heuristic's card from -1.45 to -5.1 a decision (four settings,
# 28 features); more features alone (the voids) from -1.41 to -1.45.
N_SETTINGS = 16  # role (2) x stage (2) x position in the trick (4: the cards already in it)
N_PAIRS = N_FEATURES * (N_FEATURES - 1) // 2
N_TERMS = N_FEATURES + N_PAIRS
N_WEIGHTS = N_SETTINGS * N_TERMS


def _bits(features) -> int:
    return sum(1 << f for f in features)


# The card features that are 0 by their definition in some decisions (``card_features``, ``decision_features``):
# when the seat leads, those of following (winning the trick, the partner winning it, ruffing, overtrumping,
# points given to another's trick); when it follows, those of a lead; without face-up piles, Dekjas'; without
# partners, the partner's. ``decision_mask`` leaves them out of a decision's weights and scores, where they add
# 0 (tests/players/test_net.py checks every legal card's features against the mask).
LEAD_ONLY = _bits((5, 6, 7, 8, 16, 17, 24, 25, 30, 32, 33))
FOLLOW_ONLY = _bits((9, 10, 11, 12, 13, 14, 15, 23, 26))
PILES_ONLY = _bits((28, 29, 30, 31, 32, 33))
PARTNERS_ONLY = _bits((12, 13, 25))
ALL_CARD_FEATURES = _bits(range(N_CARD_FEATURES))


@njit(cache=True, forceinline=True)
def _higher_unseen(card, trump, unseen):
    """Does an unseen card of ``card``'s suit beat it (trump order for trumps)?"""
    return (_beaters(card, trump) & unseen) != 0


@njit(cache=True)
def keeps(view, rec, unseen, voids, card, side):
    """Can no seat of another side than ``side``, to play after the seat to move in this trick, beat
    ``card`` (the trick's winning card, on the table or the seat's own, of the suit led or a trump), by
    what the seat sees: ``unseen`` cards, the ``voids`` shown (``proven_voids``)? Such a seat beats it
    with a higher unseen card of its suit unless shown void in that suit, or, ``card`` a side card,
    ruffs it when shown void in the suit, not in trumps, and a trump is unseen."""
    n = rec.n_players
    seat = view[ST_TO_MOVE]
    trump = view[ST_TRUMP]
    suit = card >> 3
    higher = _higher_unseen(card, trump, unseen)
    ruffable = suit != trump and (unseen & np.uint32(suit_mask(trump))) != 0
    for d in range(1, n - view[ST_N_IN]):
        s = seat_after(seat, d, n)
        if side_of_seat(s, rec) == side:
            continue
        v = (voids >> (4 * s)) & 15
        if higher and not (v >> suit) & 1:
            return False
        if ruffable and (v >> suit) & 1 and not (v >> trump) & 1:
            return False
    return True


@njit(cache=True, forceinline=True)
def pair_term(i, j):
    """The term of the pair of features ``i < j`` (after the ``N_FEATURES`` single ones)."""
    return N_FEATURES + i * N_FEATURES - i * (i + 1) // 2 + (j - i - 1)


@njit(cache=True, forceinline=True)
def decision_weights(weights, base, x, out, mask):
    """The weight of each of the card's own features (below ``N_CARD_FEATURES``) in this decision, into
    ``out``: its single weight plus its pairs with the decision's features ``x[N_CARD_FEATURES:]``.
    The decision's features are the same for every card, so their own weights and their pairs with
    each other add the same to every card's score and are left out: a card's ``card_score`` is its
    full score less that constant, and the choice is the same. Only the features of ``mask``
    (``decision_mask``: the others are 0 in every card of the decision, and ``card_score`` reads them not)."""
    on = 0  # the decision's nonzero features, one bit each (N_CONTEXT < 32), visited lowest first
    for c in range(N_CARD_FEATURES, N_FEATURES):
        if x[c] != 0.0:
            on |= 1 << (c - N_CARD_FEATURES)
    todo = mask
    while todo:
        f = lowest_bit64(todo)  # 35 features: more than 32 bits
        todo &= todo - 1
        s = weights[base + f]
        rest = on
        while rest:
            c = N_CARD_FEATURES + lowest_card(rest)
            s += weights[base + pair_term(f, c)] * x[c]
            rest &= rest - 1
        out[f] = s


@njit(cache=True, forceinline=True)
def card_score(weights, base, lin, x, nz, mask):
    """The score of one card's own features ``x`` (``x[:N_CARD_FEATURES]``) with the setting's weights
    from ``base`` and the decision's weights of each feature ``lin`` (``decision_weights``): the single
    terms, then the pairs of nonzero features (``nz``: int64 scratch of N_FEATURES), over the features of
    ``mask`` (``decision_mask``; the others are 0: the same sum). Inlined: a call with its array arguments
    cost half again the score itself (138 against 86 ns a card)."""
    m = 0
    s = 0.0
    todo = mask
    while todo:  # without a branch on the feature: most are 0, in no order a predictor learns
        f = lowest_bit64(todo)
        todo &= todo - 1
        v = x[f]
        nz[m] = f
        m += v != 0.0
        s += lin[f] * v  # + 0.0 where the feature is 0: the same sum
    for a in range(m):
        i = nz[a]
        xi = x[i]
        for b in range(a + 1, m):
            j = nz[b]
            s += weights[base + pair_term(i, j)] * xi * x[j]
    return s


@njit(cache=True)
def proven_voids(view, rec):
    """The suits each seat has shown void in, four bits a seat (seat ``s``'s suits at bits ``4s``
    to ``4s + 3``): a card of another suit on a suit led (what every seat at the table saw)."""
    n = rec.n_players
    out = 0
    led = 0
    leader = 0
    t = 0  # the trick of card i, and j its place in it: counted, not divided by n at every card
    j = 0
    for i in range(view[ST_N_PLAYED]):
        c = view[ST_PLAYED + i]
        if j == 0:
            led = c >> 3
            leader = view[ST_LEADERS + t]
        elif (c >> 3) != led:
            out |= 1 << (4 * seat_after(leader, j, n) + led)  # the seat of card i (seat_of_play)
        j += 1
        if j == n:
            j = 0
            t += 1
    return out


@njit(cache=True)
def later_beats(view, rec, card):
    """Does a seat to play after the seat to move in this trick hold, in sight, a card that beats
    the trick once ``card`` is on it (its own card of the suit led if it has one, else any)? Only
    the cards a view shows of other seats count: Dekjas' face-up cards; elsewhere none."""
    n = rec.n_players
    seat = view[ST_TO_MOVE]
    trump = view[ST_TRUMP]
    k = view[ST_N_IN]
    led = (card >> 3) if k == 0 else view[ST_LED]
    best = strength(card, trump, led)
    if k > 0 and view[ST_BEST_S] > best:
        best = view[ST_BEST_S]
    for d in range(1, n - k):
        shown = np.uint32(view[ST_HANDS + seat_after(seat, d, n)])
        follow = shown & np.uint32(suit_mask(led))
        pool = follow if follow else shown
        while pool:
            c = lowest_card(pool)
            if strength(c, trump, led) > best:
                return True
            pool &= pool - np.uint32(1)
    return False


@njit(cache=True)
def likely_reply(view, rec, card):
    """Dekjas, the seat to move leading ``card``: the other seat's likely reply from its face-up cards
    (all it may play, in sight): of its legal cards, the cheapest that wins the trick if one does
    (``play._winners``), else the cheapest (``play._pick``'s CHEAPEST: side suits before trumps, then
    points, then strength). Returns (the reply, 1 if it wins the trick else 0); (-1, 0) when it shows
    no card."""
    trump = view[ST_TRUMP]
    led, _, best_s, best_trump = trick_step(0, card, trump, -1, 0, -1, -1)
    shown = np.uint32(view[ST_HANDS + next_seat(view[ST_TO_MOVE], rec.n_players)])
    legal = legal_mask(shown, led, best_trump, trump, 0, rec.undertrump_free)
    if not legal:
        return -1, 0
    winners = _winners(legal, trump, led, best_s)
    if winners:
        return _pick(np.uint64(winners), trump, led, CHEAPEST), 1
    return _pick(np.uint64(legal), trump, led, CHEAPEST), 0


@njit(cache=True)
def shows_none(view, rec, suit):
    """Does a seat to play after the seat to move in this trick show (Dekjas: face up) no card
    of ``suit``?"""
    n = rec.n_players
    seat = view[ST_TO_MOVE]
    for d in range(1, n - view[ST_N_IN]):
        if not np.uint32(view[ST_HANDS + seat_after(seat, d, n)]) & np.uint32(suit_mask(suit)):
            return True
    return False


@njit(cache=True)
def context_features(view, rec, pub, unseen, voids):
    """The features ``N_CARD_FEATURES`` on, the same for every card of the decision (a tuple)."""
    n = rec.n_players
    seat = view[ST_TO_MOVE]
    k = view[ST_N_IN]
    taker = view[ST_TAKER]
    partner_after = 1.0 if has_partners(rec) and k < 2 else 0.0
    taker_after = 0.0
    for d in range(1, n - k):
        if seat_after(seat, d, n) == taker:
            taker_after = 1.0
    is_taker = 1.0 if seat == taker else 0.0
    side = side_of_seat(seat, rec)
    mine_all = 0.0
    other_all = 0.0
    lead = 0.0
    if view[ST_TRICK_NO] > 0:
        own = view[ST_TRICKS + side]
        other_best = -1000000
        for s in range(rec.n_sides):
            if s != side:
                if view[ST_TRICKS + s] == view[ST_TRICK_NO]:
                    other_all = 1.0
                other_best = max(other_best, view[ST_POINTS + s] + pub[PUB_DECL + s])
        if own == view[ST_TRICK_NO]:
            mine_all = 1.0
        lead = (view[ST_POINTS + side] + pub[PUB_DECL + side] - other_best) / (TOTAL_CARD_POINTS + LAST_TRICK_BONUS)
    trumps = popcount(np.uint32(view[ST_HANDS + seat]) & np.uint32(suit_mask(view[ST_TRUMP]))) / 8.0
    mine_to_declare = 0.0
    other_to_declare = 0.0
    roem = 0.0
    if declares_after_trick(rec):  # Dekjas: the declarations are made in play (knowledge.PUB_DECLARED)
        other = next_seat(seat, n)  # the other of its two seats
        mine_to_declare = to_declare(view, rec, pub, seat, np.int64(0)) / 100.0  # int64, as the card's mask: one compile
        other_to_declare = to_declare(view, rec, pub, other, np.int64(0)) / 100.0
        if pub[PUB_DECLARED_KEY + seat] > pub[PUB_DECLARED_KEY + other]:
            roem = 1.0
        elif pub[PUB_DECLARED_KEY + seat] < pub[PUB_DECLARED_KEY + other]:
            roem = -1.0
    winner_keeps = 0.0
    if k > 0:
        win_card = view[ST_PLAYED + view[ST_N_PLAYED] - k + view[ST_BEST_I]]
        if keeps(view, rec, unseen, voids, win_card, side_of_seat(seat_after(view[ST_LEADER], view[ST_BEST_I], n), rec)):
            winner_keeps = 1.0
    side_masters, trump_masters = masters(view[ST_HANDS + seat], view[ST_TRUMP], unseen)
    return (partner_after, taker_after, is_taker, mine_all, other_all, lead, trumps, mine_to_declare, other_to_declare,
            roem, winner_keeps, side_masters / 8.0, trump_masters / 8.0)


@njit(cache=True, forceinline=True)
def masters(mine, trump, unseen):
    """The number of the cards ``mine`` of a side suit, and of trumps, that no ``unseen`` card beats: a
    lane at a time (``play.LANE_MASTERS``), not a card at a time (36 ns a classic decision that way)."""
    side = 0
    trumps = 0
    for s in range(4):
        role = 1 if s == trump else 0
        c = popcount(_lane_of(mine, s) & LANE_MASTERS[role * 256 + _lane_of(unseen, s)])
        trumps += c * role
        side += c * (1 - role)
    return side, trumps


@njit(cache=True)
def to_declare(view, rec, pub, seat, without):
    """Dekjas: the points ``seat`` would declare with its face-up cards less the cards ``without``
    (a mask), were it to win a trick now (what no declaration of the kind has used yet, §5)."""
    up = np.uint32(view[ST_HANDS + seat]) & ~np.uint32(without)
    pts, _, _, _ = declare_new(np.uint32(up & ~np.uint32(pub[PUB_DECLARED_USED])),  # uint32: one compile
                               np.uint32(up & ~np.uint32(pub[PUB_DECLARED_USED + 1])), view[ST_TRUMP], rec.roem_by_points)
    return pts


@njit(cache=True, forceinline=True)
def on_taker_side(view, rec):
    """1 if the seat to move is on the taker's side, else 0."""
    return 1 if side_of_seat(view[ST_TAKER], rec) == side_of_seat(view[ST_TO_MOVE], rec) else 0


@njit(cache=True)
def setting(view, rec):
    """The decision's setting (``N_SETTINGS``): 2 x (the seat's side is the taker's) + (late) + 4 x
    (the cards already in the trick: the seat's position in it)."""
    late = 1 if 2 * (rec.n_tricks - view[ST_TRICK_NO]) <= rec.n_tricks else 0
    return 2 * on_taker_side(view, rec) + late + 4 * view[ST_N_IN]


@njit(cache=True)
def card_features(card, trump, mine, unseen, k, led, best_s, partner, trick_pts, last, taker_side,
                  unseen_trumps, tricks_left, heur, opp_void, partner_void, after_void, out):
    """The features 0 to 27 of ``card`` written into ``out`` (float64[N_FEATURES]; the Dekjas ones,
    28 to 33, read the other seats' face-up cards and the declarations: ``decision_features``), from
    what is the same for every card of the decision (``decision_features`` computes it once): the seat's cards ``mine``,
    the ``unseen`` cards, the cards in the trick ``k``, the suit ``led`` and the winning strength
    ``best_s``, whether the partner wins it, its points / 40, whether the seat plays last, whether it
    is on the taker's side, the unseen trumps / 8, the tricks left / 8, the heuristic's card."""
    suit = card >> 3
    is_trump = 1.0 if suit == trump else 0.0
    side_suit = 1.0 - is_trump
    pts = card_points(card, trump) / 20.0
    own = strength(card, trump, suit)
    lane = (mine >> np.uint32(8 * suit)) & np.uint32(0xFF)
    others = mine & np.uint32(suit_mask(suit)) & ~(np.uint32(1) << np.uint32(card))  # the seat's other cards of the suit
    above = _beaters(card, trump)
    low = 0.0 if others & ~above else 1.0  # none of them below it
    high = 0.0 if others & above else 1.0  # none above
    master = 0.0 if _higher_unseen(card, trump, unseen) else 1.0
    lead = 1.0 if k == 0 else 0.0
    wins = 0.0
    ruff = 0.0
    over = 0.0
    if k > 0:
        beats = strength(card, trump, led) > best_s
        wins = 1.0 if beats else 0.0
        if suit == trump and led != trump:
            ruff = 1.0
        if suit == trump and best_s >= 8 and beats:
            over = 1.0
    h = 1.0 if card == heur else 0.0
    out[0] = h
    out[1] = is_trump
    out[2] = pts
    out[3] = (own & 7) / 7.0
    out[4] = master
    out[5] = lead
    out[6] = lead * is_trump
    out[7] = lead * master
    out[8] = lead * pts
    out[9] = wins
    out[10] = wins * last
    out[11] = wins * trick_pts
    out[12] = partner * pts
    out[13] = partner * is_trump
    out[14] = (1.0 - wins) * (1.0 - lead) * (1.0 - partner) * pts
    out[15] = ruff
    out[16] = taker_side * lead * is_trump
    out[17] = unseen_trumps * lead * is_trump
    out[18] = popcount(lane) / 8.0
    out[19] = low
    out[20] = high
    out[21] = tricks_left * pts
    out[22] = taker_side * h
    out[23] = over
    out[24] = lead * side_suit * ((opp_void >> suit) & 1)
    out[25] = lead * side_suit * ((partner_void >> suit) & 1)
    out[26] = wins * after_void
    out[27] = popcount((unseen >> np.uint32(8 * suit)) & np.uint32(0xFF)) / 8.0


@njit(cache=True)
def decision_features(view, rec, pub, heur_code, cards, feats):
    """Every legal card of the seat to move of ``view`` (into ``cards``, lowest first) and its
    features (rows of ``feats``); returns their number and the heuristic's card."""
    n = rec.n_players
    seat = view[ST_TO_MOVE]
    trump = view[ST_TRUMP]
    seen_out = pub[PUB_SEEN_OUT]
    mine = np.uint32(view[ST_HANDS + seat])
    unseen = np.uint32(ALL_CARDS_MASK) & ~np.uint32(view[ST_GONE] | seen_out) & ~mine
    k = view[ST_N_IN]
    led = view[ST_LED]
    partner = 0.0
    trick_pts = 0.0
    if k > 0:
        win_seat = seat_after(view[ST_LEADER], view[ST_BEST_I], n)
        if has_partners(rec) and side_of_seat(win_seat, rec) == side_of_seat(seat, rec):
            partner = 1.0
        tm = np.uint32(view[ST_TRICK_MASK])
        while tm:
            trick_pts += card_points(lowest_card(tm), trump)
            tm &= tm - np.uint32(1)
        trick_pts /= 40.0
    last = 1.0 if k == n - 1 else 0.0
    taker_side = float(on_taker_side(view, rec))
    my_side = side_of_seat(seat, rec)
    unseen_trumps = popcount(unseen & suit_mask(trump)) / 8.0
    tricks_left = (rec.n_tricks - view[ST_TRICK_NO]) / 8.0
    voids = proven_voids(view, rec)
    opp_void = np.int64(0)  # not a literal 0: card_features compiles once (numba types literal ints apart)
    partner_void = np.int64(0)
    after_void = 0.0
    for d in range(1, n):
        s = seat_after(seat, d, n)
        suits = (voids >> (4 * s)) & 15
        if has_partners(rec) and d == 2:
            partner_void = suits
            continue
        opp_void |= suits
        if k > 0 and d < n - k and (suits >> led) & 1:  # to play after the seat in this trick
            after_void = 1.0
    ctx = context_features(view, rec, pub, unseen, voids)
    legal = legal_cards(view, rec)
    heur = heuristic_on_state(view, rec, seen_out, heur_code)
    piles = has_piles(rec)
    m = 0
    for c in range(32):
        if (legal >> np.uint32(c)) & np.uint32(1):
            cards[m] = c
            f = feats[m]
            card_features(c, trump, mine, unseen, k, led, view[ST_BEST_S], partner, trick_pts, last, taker_side,
                          unseen_trumps, tricks_left, heur, opp_void, partner_void, after_void, f)
            # the Dekjas features: no other variant shows another seat's card (0 there, not looked for)
            f[28] = 1.0 if piles and (f[5] != 0.0 or f[9] != 0.0) and later_beats(view, rec, c) else 0.0
            f[29] = 1.0 if piles and view[ST_UNDER + c] == UNDER_HIDDEN else 0.0
            f[30] = 1.0 if piles and k == 0 and (c >> 3) != trump and shows_none(view, rec, c >> 3) else 0.0
            to_make = ctx[MINE_TO_DECLARE - N_CARD_FEATURES]
            f[31] = (to_make - to_declare(view, rec, pub, seat, np.int64(1) << c) / 100.0) if piles and to_make > 0.0 else 0.0
            f[32] = 0.0
            f[33] = 0.0
            if piles and k == 0:
                reply, takes = likely_reply(view, rec, c)
                if reply >= 0:
                    f[32] = float(takes)
                    f[33] = (card_points(c, trump) + card_points(reply, trump)) / 40.0 * (-1.0 if takes else 1.0)
            f[34] = 1.0 if (f[5] != 0.0 or f[9] != 0.0) and keeps(view, rec, unseen, voids, c, my_side) else 0.0
            for g in range(N_CARD_FEATURES, N_FEATURES):
                f[g] = ctx[g - N_CARD_FEATURES]
            m += 1
    return m, heur


@njit(cache=True, forceinline=True)
def decision_mask(view, rec):
    """The card features (one bit each) that may be nonzero in this decision (``LEAD_ONLY`` ...): about 20
    of the 35 (a classic decision's weights took 185 ns over all 35)."""
    mask = ALL_CARD_FEATURES & ~(FOLLOW_ONLY if view[ST_N_IN] == 0 else LEAD_ONLY)
    if not has_piles(rec):
        mask &= ~PILES_ONLY
    if not has_partners(rec):
        mask &= ~PARTNERS_ONLY
    return mask


@njit(cache=True)
def rules_row(rec):
    """The row of ``WEIGHTS`` for these rules: classic, piekjas 2, 3, 4, dekjas."""
    if rec.variant == CLASSIC:
        return 0
    if rec.variant == PIEKJAS:
        return rec.n_players - 1
    if rec.variant == DEKJAS:
        return 4
    return 0


ROW_LABELS = ("classic", "piekjas2", "piekjas3", "piekjas4", "dekjas")


@njit(cache=True)
def net_card(view, rec, pub, weights, cards, feats, nz):
    """The ``net`` policy's card for the seat to move of ``view`` (already the seat's view), with
    ``weights`` (float64[N_WEIGHTS]) and scratch ``cards`` (int64[32]), ``feats`` (float64[32, F]),
    ``nz`` (int64[N_FEATURES]: ``card_score``'s). ``feats``' last row holds the decision's weights of
    the card features (``decision_weights``): no hand has 32 legal cards."""
    m, heur = decision_features(view, rec, pub, HEURISTIC, cards, feats)
    base = setting(view, rec) * N_TERMS
    lin = feats[31]
    mask = decision_mask(view, rec)
    decision_weights(weights, base, feats[0], lin, mask)
    best = heur
    best_score = -1e300
    for j in range(m):
        s = card_score(weights, base, lin, feats[j], nz, mask)
        if s > best_score + 1e-12 or (abs(s - best_score) <= 1e-12 and cards[j] == heur):
            best_score = s
            best = cards[j]
    return best


__all__ = ["FEATURES", "N_FEATURES", "N_SETTINGS", "N_PAIRS", "N_TERMS", "N_WEIGHTS", "pair_term", "decision_weights", "card_score",
           "decision_mask",
           "ROW_LABELS",
           "setting", "card_features", "decision_features", "later_beats", "net_card", "rules_row"]
