"""The ``pimc`` play policy: perfect-information Monte Carlo on the seat's worlds.

At each decision with more than one legal card the seat samples deals of the cards it
cannot see ("worlds"), uniformly among those consistent with what it knows
(``analyzer.players.knowledge``), values legal cards on every world, and plays the card of
the best mean value.

Version 2 does less work for the same choice:

- **equivalent cards** are valued once (``distinct_cards``): two cards of one suit that score
  the same with no other seat's card between them win, lose and score alike in every
  continuation (7 8 9 of a plain suit, 7 8 of trumps);
- **racing**, with ``race`` > 0 (``_race``): after ``RACE_FIRST`` worlds, and every
  ``RACE_STEP`` after, a card leaves once the leader's mean lead over it, paired world by world,
  exceeds ``race`` tenths of a standard error; the decision ends when one card is left, or at
  ``worlds``. So the many worlds of the default are spent on the decisions that are close.

Version 3 (the default) is version 2 that also knows stuk: its value counts it, and its worlds
honour the announcement ("belote") or its absence (``knowledge.stuk_evidence``).

``pimc:v=1`` values every legal card on all ``worlds``, and ``pimc:v=2`` leaves stuk out: the
players before, kept so that duels can measure the new one against them (docs/BENCHMARKS.md).

Evaluator
---------
A card is valued by playing it in the world and playing the hand out: every seat plays
the heuristic (``analyzer.players.play.choose_card``, on the world's state), or with
``rollout=net`` the learned player (``analyzer.players.net``, each seat on its own view of the
world: ``knowledge.observe``), while more than ``exact`` tricks are left, then a double-dummy best card (``analyzer.players.dd.dd_best``,
the solver with its table kept through the world) to the end. Piekjas 3-4 is not
two-sided, so there the play-out is the heuristic's to the end (``exact`` is not used).
With ``exact`` 0 the heuristic's play-out is ``roll_out``: the same values as ``play_out``
(tested), with the trick in registers and nothing to undo.

Value
-----
What the hand is worth to the seat's side at the end of the play-out: its hand score
minus the best score among the other sides (RULES.md §6, with the declarations
announced at the first trick, or in Dekjas those made so far (``knowledge.PUB_DECLARED``)
and those the play-out's trick winners make (``declare_after``); made/dedans, litige, classic capot 252 and Piekjas/Dekjas
pit included, and stuk: 20 to the side of the seat the world deals the K and Q of trump; reserve
and game totals left out), times ``SCORE_WEIGHT``, plus its
card-point margin (capot included), which breaks ties of equal scores (Piekjas scores
are rounded to tens). The heuristic's own card wins ties of the mean value, then the
lowest-numbered card: the choice is a pure function of the view and the random number.

Parameters (declared in ``analyzer.players.params``, described with their named defaults
in the registry, ``analyzer.players.policies``): ``worlds`` (1..255, default 128), ``exact`` (0..16 tricks,
default 0: measured as strong as 2 at a fifth of the cost, docs/BENCHMARKS.md), ``v``
(1, 2 or 3, default 3), ``race`` (0..50, default 20; 0: off) and ``infer`` (``none``;
``bids``: worlds weighted by how likely the bidding is in them, drawn at most ``MAX_TRIES``
times each; ``play``: each world's values weighted by how well the cards played so far fit it,
its weight halved ``MISFIT_HALVINGS`` times for each card the heuristic would not have played
there; ``both``: the two; ``analyzer.players.knowledge``; racing reads the values unweighted) and ``rollout``
(``heuristic`` or ``net``: who plays the play-outs).
"""

import numpy as np

from analyzer.compiling import njit
from analyzer.layout import offsets
from analyzer.rules.structure import has_partners, has_piles, team_scoring
from analyzer.game.state import (
    ST_BEST_I,
    ST_BEST_S,
    ST_BEST_TRUMP,
    ST_GONE,
    ST_HANDS,
    ST_LEADER,
    ST_LED,
    ST_N_IN,
    ST_N_PLAYED,
    ST_PLAYED,
    ST_POINTS,
    ST_TAKER,
    ST_TAKER_SIDE,
    ST_TO_MOVE,
    ST_TRICK_MASK,
    ST_TRICK_NO,
    ST_TRICKS,
    ST_TRUMP,
    ST_UNDER,
    legal_cards,
    play_card,
    trick_step,
    undo_card,
)
from analyzer.players.dd import dd_best
from analyzer.players.knowledge import (
    PUB_DECL,
    PUB_DECLARED,
    PUB_DECLARED_KEY,
    PUB_DECLARED_USED,
    PUB_ROEM_SIDE,
    PUB_SEEN_OUT,
    declare_into,
    play_misfits,
    stuk_owner,
    mask_cards,
    observe,
    prepare,
    prepare_bids,
    sample_fitting_world,
    sample_world,
)
from analyzer.players.net import N_FEATURES, net_card, rules_row
from analyzer.players.net_weights import WEIGHTS
from analyzer.players.params import PIMC_EXACT, PIMC_INFER, PIMC_RACE, PIMC_ROLLOUT, PIMC_V, PIMC_WORLDS, param
from analyzer.players.play import HEURISTIC, choose_card, heuristic_on_state
from analyzer.players.solver import C_GEN, _paranoid
from analyzer.rules.cards import LAST_TRICK_BONUS, N_CARDS, card_points, lowest_card, popcount
from analyzer.rules.legal import legal_mask
from analyzer.rules.seats import next_seat, seat_after, side_of, side_of_seat
from analyzer.rules.declarations import STUK_POINTS, has_declaration, roem_winner
from analyzer.rules.scoring import NO_RESERVE, NO_TOTALS, score_classic, score_solo
from analyzer.rules.structure import declares_after_trick

SCORE_WEIGHT = 4  # one point of hand score is worth four card points of margin
V1 = 1  # ``pimc:v=1``: every legal card valued on every world (the player before racing)
V2 = 2  # ``pimc:v=2``: stuk left out of the value and the worlds (the player before v3)
# racing (v2, ``race`` > 0): the first look after RACE_FIRST worlds, then every RACE_STEP
RACE_FIRST = 8
RACE_STEP = 4
MAX_WORLDS = 255
# who plays the play-outs (``rollout``): 0 the heuristic (the default), or net, each seat on its own view of the world
ROLLOUT_NET = 1
# infer=bids: worlds drawn at most this many times for one that fits the bidding (knowledge.sample_fitting_world)
MAX_TRIES = 64
# what the worlds read besides the play's obligations (``infer``, bits): the bidding, the cards chosen
INFER_BIDS = 1
INFER_PLAY = 2
# infer=play: a world's weight halves this many times for each card played that the heuristic would not
# have played in it (knowledge.play_misfits), from WEIGHT_ONE down to 1
MISFIT_HALVINGS = 2
WEIGHT_BITS = 20

# rows of the workspace's scratch ``sc`` (int64[N_SC, 4]), declared once: the scoring's
# arguments and outputs (by side, ``analyzer.rules.scoring``), and the hands of a roll-out (by seat)
SC_FIELDS = (
    ("card", 1),  # card points won so far
    ("tricks", 1),  # tricks won so far
    ("decl", 1),  # declaration points the side scores
    ("stuk", 1),  # stuk points, set for each world (``set_stuk``)
    ("totals", 1),  # game totals before the hand (0: not read, NO_TOTALS)
    ("bonus", 1),  # score_solo's scratch
    ("award", 1),  # score_solo's scratch: the pit awards
    ("out_card", 1),  # the scoring's outputs: card points (after capot), raw totals, hand scores
    ("out_raw", 1),
    ("out_scores", 1),
    ("hand", 1),  # each seat's cards in a roll-out
    ("declared", 1),  # Dekjas, by seat: the declaration points declared (PUB_DECLARED, then the play-out's)
    ("declared_key", 1),  # Dekjas, by seat: the key of its best declaration, -1
    ("declared_used", 1),  # Dekjas: the cards used by a sequence (0), by a carré (1)
)
SC_OFFSETS, N_SC = offsets(SC_FIELDS)
SC_CARD = SC_OFFSETS["card"]
SC_TRICKS = SC_OFFSETS["tricks"]
SC_DECL = SC_OFFSETS["decl"]
SC_STUK = SC_OFFSETS["stuk"]
SC_TOTALS = SC_OFFSETS["totals"]
SC_BONUS = SC_OFFSETS["bonus"]
SC_AWARD = SC_OFFSETS["award"]
SC_OUT_CARD = SC_OFFSETS["out_card"]
SC_OUT_RAW = SC_OFFSETS["out_raw"]
SC_OUT_SCORES = SC_OFFSETS["out_scores"]
SC_HAND = SC_OFFSETS["hand"]
SC_DECLARED = SC_OFFSETS["declared"]
SC_DECLARED_KEY = SC_OFFSETS["declared_key"]
SC_DECLARED_USED = SC_OFFSETS["declared_used"]


@njit(cache=True)
def start_declarations(pub, sc):
    """Dekjas: a play-out starts from the declarations made so far (``pub``), into ``sc``'s
    ``SC_DECLARED`` rows, where ``declare_after`` adds the play-out's own."""
    for s in range(4):
        sc[SC_DECLARED, s] = pub[PUB_DECLARED + s]
        sc[SC_DECLARED_KEY, s] = pub[PUB_DECLARED_KEY + s]
    sc[SC_DECLARED_USED, 0] = pub[PUB_DECLARED_USED]
    sc[SC_DECLARED_USED, 1] = pub[PUB_DECLARED_USED + 1]


@njit(cache=True)
def declare_after(sc, up, winner, trump, rec):
    """Dekjas, in a play-out: ``winner`` has won a trick holding the face-up cards ``up`` and
    declares what is new among them (``knowledge.declare_into``) into ``sc``'s rows."""
    declare_into(sc[SC_DECLARED], sc[SC_DECLARED_KEY], sc[SC_DECLARED_USED], up, winner, trump, rec.roem_by_points)


@njit(cache=True)
def hand_value(st, rec, pub, sc, side):
    """The value to ``side`` of the finished hand ``st`` (module docstring); Dekjas: with the
    declarations in ``sc`` (``start_declarations``, then ``declare_after`` every trick)."""
    for s in range(4):
        sc[SC_CARD, s] = st[ST_POINTS + s]
        sc[SC_TRICKS, s] = st[ST_TRICKS + s]
    return scored_value(rec, st[ST_TAKER_SIDE], pub, sc, side)


@njit(cache=True)
def set_stuk(w, rec, sc, on):
    """``sc[SC_STUK]`` for the values in world ``w`` (a whole deal): 20 to the side of the seat it
    deals the K and Q of trump (``knowledge.stuk_owner``), when ``on``; else nothing."""
    for s in range(4):
        sc[SC_STUK, s] = 0
    if on:
        o = stuk_owner(w, rec)
        if o >= 0:
            sc[SC_STUK, side_of_seat(o, rec)] = STUK_POINTS


@njit(cache=True)
def scored_value(rec, taker_side, pub, sc, side):
    """The value to ``side`` of a finished hand whose card points and tricks by side are
    ``sc[SC_CARD]`` and ``sc[SC_TRICKS]`` (module docstring): the declarations of the first
    trick from ``pub``; Dekjas' (made in play) from ``sc[SC_DECLARED]``, ``sc[SC_DECLARED_KEY]``;
    stuk from ``sc[SC_STUK]`` (``set_stuk``, once a world)."""
    n_sides = rec.n_sides
    roem_side = pub[PUB_ROEM_SIDE]
    dekjas = declares_after_trick(rec)
    if dekjas:
        roem_side = roem_winner(sc[SC_DECLARED_KEY], rec.n_players, has_partners(rec), rec.roem_tie_first)
    for s in range(4):
        sc[SC_DECL, s] = sc[SC_DECLARED, s] if dekjas else pub[PUB_DECL + s]
        sc[SC_TOTALS, s] = 0
    if team_scoring(rec):
        score_classic(taker_side, rec.n_tricks, sc[SC_CARD], sc[SC_TRICKS], sc[SC_DECL],
                      roem_side, sc[SC_STUK], NO_RESERVE, rec.classic_tie_made,
                      sc[SC_OUT_CARD], sc[SC_OUT_RAW], sc[SC_OUT_SCORES])
    else:
        score_solo(taker_side, n_sides, rec.n_tricks, sc[SC_CARD], sc[SC_TRICKS], sc[SC_DECL],
                   roem_side, sc[SC_STUK], NO_RESERVE, sc[SC_TOTALS], rec.target, NO_TOTALS,
                   rec.trickless_target,
                   sc[SC_BONUS], sc[SC_AWARD], sc[SC_OUT_CARD], sc[SC_OUT_RAW], sc[SC_OUT_SCORES])
    other_score = -(1 << 30)
    other_card = -(1 << 30)
    for s in range(n_sides):
        if s != side:
            other_score = max(other_score, sc[SC_OUT_SCORES, s])
            other_card = max(other_card, sc[SC_OUT_CARD, s])
    return SCORE_WEIGHT * (sc[SC_OUT_SCORES, side] - other_score) + sc[SC_OUT_CARD, side] - other_card


@njit(cache=True, inline="always")  # one layer less: see analyzer.players.strong_entry
def play_out(w, rec, pub, sw, exact, side, card, weights):
    """The value to ``side`` of ``card`` played in world ``w`` and the hand played to the end
    by the evaluator (module docstring): with ``weights`` (a row of net's weights; empty: the
    heuristic) each seat plays net on its own view of the world (``knowledge.observe``);
    ``w`` is back as it was on return."""
    played = 0
    seen = pub[PUB_SEEN_OUT]
    dekjas = declares_after_trick(rec)
    if dekjas:
        start_declarations(pub, sw.sc)
    by_net = weights.size > 0
    c = card
    while True:
        winner = play_card(w, rec, c)
        played += 1
        if dekjas and winner >= 0:
            declare_after(sw.sc, w[ST_HANDS + winner], winner, w[ST_TRUMP], rec)
        if w[ST_TRICK_NO] >= rec.n_tricks:
            break
        legal = legal_cards(w, rec)
        if popcount(legal) == 1:
            c = lowest_card(legal)
        elif rec.n_tricks - w[ST_TRICK_NO] <= exact:
            c = dd_best(w, rec, sw)
        elif by_net:
            observe(w, rec, pub, w[ST_TO_MOVE], sw.rview)
            c = net_card(sw.rview, rec, pub, weights, sw.rcards, sw.feats.reshape((N_CARDS, N_FEATURES)), sw.rnz)
        else:
            c = heuristic_on_state(w, rec, seen, HEURISTIC)
    v = hand_value(w, rec, pub, sw.sc, side)
    for _ in range(played):
        undo_card(w, rec)
    return v


@njit(cache=True)
def roll_out(w, rec, pub, sc, card, side):
    """``play_out`` with ``exact`` 0 after ``card`` is played in world ``w``: the value to
    ``side`` of ``card`` followed by the heuristic in every seat to the end. The same value
    (tests/players/test_strong.py checks it against ``play_out``), about twice as fast: the trick is
    kept in registers and the hands in ``sc[SC_HAND]``; ``w`` is only read, so nothing is
    undone."""
    n = rec.n_players
    partners = has_partners(rec)
    piles = has_piles(rec)
    trump = w[ST_TRUMP]
    taker = w[ST_TAKER]
    seen = pub[PUB_SEEN_OUT]
    utf = rec.undertrump_free
    for s in range(4):
        sc[SC_HAND, s] = w[ST_HANDS + s]
        sc[SC_CARD, s] = w[ST_POINTS + s]
        sc[SC_TRICKS, s] = w[ST_TRICKS + s]
    gone = w[ST_GONE]
    t = w[ST_TRICK_NO]
    k = w[ST_N_IN]
    leader = w[ST_LEADER]
    seat = w[ST_TO_MOVE]
    led = w[ST_LED]
    best_i = w[ST_BEST_I]
    best_s = w[ST_BEST_S]
    best_trump = w[ST_BEST_TRUMP]
    dekjas = declares_after_trick(rec)
    seq_used = carre_used = np.uint32(0)  # Dekjas: the cards a declaration of the kind has used (in registers)
    if dekjas:
        start_declarations(pub, sc)
        seq_used = np.uint32(pub[PUB_DECLARED_USED])
        carre_used = np.uint32(pub[PUB_DECLARED_USED + 1])
    pts = 0
    win_card = -1
    base = ST_PLAYED + t * n
    for j in range(k):
        x = w[base + j]
        pts += card_points(x, trump)
        if j == best_i:
            win_card = x
    c = card
    while True:
        led, best_i, best_s, best_trump = trick_step(k, c, trump, led, best_i, best_s, best_trump)
        if best_i == k:
            win_card = c
        pts += card_points(c, trump)
        b = np.int64(1) << c
        h = sc[SC_HAND, seat] & ~b
        if piles:
            below = w[ST_UNDER + c]
            if below >= 0:  # §4 Dekjas: the face-down card under it turns face up
                h |= np.int64(1) << below
        sc[SC_HAND, seat] = h
        gone |= b
        k += 1
        win_seat = seat_after(leader, best_i, n)
        if k < n:
            seat = next_seat(seat, n)
        else:
            if t == rec.n_tricks - 1:
                pts += LAST_TRICK_BONUS
            ws = side_of_seat(win_seat, rec)
            sc[SC_CARD, ws] += pts
            sc[SC_TRICKS, ws] += 1
            if dekjas:
                up = np.uint32(sc[SC_HAND, win_seat])
                if has_declaration(np.uint32(up & ~seq_used), np.uint32(up & ~carre_used)):  # most tricks: nothing new
                    declare_after(sc, sc[SC_HAND, win_seat], win_seat, trump, rec)  # int64, as play_out's: one compile
                    seq_used = np.uint32(sc[SC_DECLARED_USED, 0])
                    carre_used = np.uint32(sc[SC_DECLARED_USED, 1])
            t += 1
            if t >= rec.n_tricks:
                break
            leader = win_seat
            seat = win_seat
            k = 0
            pts = 0
            led = -1
            best_i = 0
            best_s = -1
            best_trump = -1
            win_card = -1
            win_seat = -1
        hand = np.uint32(sc[SC_HAND, seat])
        pw = 1 if k > 0 and partners and side_of(win_seat, partners) == side_of(seat, partners) else 0
        legal = legal_mask(hand, led, best_trump, trump, pw, utf)
        if popcount(legal) == 1:
            c = lowest_card(legal)
        else:
            c = choose_card(HEURISTIC, legal, seat, hand, np.uint32(gone | seen), led, win_card, win_seat, k,
                            trump, taker, partners, n, np.uint64(0))
    return scored_value(rec, w[ST_TAKER_SIDE], pub, sc, side)


@njit(cache=True)
def distinct_cards(view, rec, seat, legal, fallback, seen_out, out):
    """The legal cards worth valuing, into ``out`` (lowest first; returns how many): one card of
    each set of equivalent ones. Two cards of one suit are equivalent when they score the same
    and no other seat can hold a card between them in the suit's order: every card between is
    the seat's own, or out of play (played in a completed trick, or face up out of play). Only
    the cards of no points qualify (7 8 9 in a plain suit, 7 8 in trumps, whose orders run 7 8 9
    and 7 8 Q: RULES.md §1), and either card then wins, loses and scores exactly as the other in
    every continuation, so valuing one is enough. The one kept is the lowest, or the heuristic's
    card ``fallback`` where it is in the set (pimc's tie rule). Dekjas keeps every card: a
    played face-up card turns up the card under it, which differs from card to card."""
    if has_piles(rec):
        return mask_cards(legal, out)
    own = view[ST_HANDS + seat]
    trump = view[ST_TRUMP]
    out_of_play = (view[ST_GONE] & ~view[ST_TRICK_MASK]) | seen_out
    k = 0
    m = np.int64(legal)
    while m:
        c = lowest_card(np.uint32(m))
        m &= ~(np.int64(1) << c)
        rank = c & 7
        top = 1 if (c >> 3) == trump else 2  # the zero-point run: rank indices 0..top (7 8 [9])
        same = False
        if 0 < rank <= top:
            for r in range(rank - 1, -1, -1):
                x = c - rank + r
                if (legal >> x) & 1:
                    same = True  # the last card kept is x's set: nothing between was kept
                    break
                if ((own | out_of_play) >> x) & 1 == 0:
                    break  # another seat may hold x, between the two
        if same:
            if c == fallback:
                out[k - 1] = c
        else:
            out[k] = c
            k += 1
    return k


@njit(cache=True)
def _race(sw, n_cards, w, alive, fallback, z):
    """The cards still in the race after ``w`` worlds (bit j: ``sw.lcards[j]``): a card leaves when
    the leader's mean lead over it, paired world by world, exceeds ``z`` standard errors (a
    card equal to the leader on every world so far stays: a difference yet unseen may come)."""
    b = -1
    best_sum = 0
    for j in range(n_cards):
        if (alive >> j) & 1:
            s = sw.sums[j]
            if b < 0 or s > best_sum or (s == best_sum and sw.lcards[j] == fallback):
                b = j
                best_sum = s
    for j in range(n_cards):
        if j == b or (alive >> j) & 1 == 0:
            continue
        s = 0.0
        q = 0.0
        for i in range(w):
            d = float(sw.wvals[i * N_CARDS + b] - sw.wvals[i * N_CARDS + j])
            s += d
            q += d * d
        mean = s / w
        var = (q - s * s / w) / (w - 1)
        if var > 0.0 and mean > z * np.sqrt(var / w):
            alive &= ~(np.int64(1) << j)
    return alive


@njit(cache=True)
def pimc_card(st, rec, pub, sw, code, u):
    """The ``pimc`` policy's card for the seat to move of ``st``. Reads ``st`` only
    through ``observe`` (what the seat knows), ``pub``, and the 64-bit random number
    ``u``; ``code`` carries the parameters."""
    seat = st[ST_TO_MOVE]
    view = sw.pov
    observe(st, rec, pub, seat, view)
    # ---- from here on: the view, never st ----
    legal = np.int64(legal_cards(view, rec))
    fallback = heuristic_on_state(view, rec, pub[PUB_SEEN_OUT], HEURISTIC)
    if popcount(np.uint32(legal)) == 1:
        return fallback
    worlds = param(code, PIMC_WORLDS)
    exact = param(code, PIMC_EXACT)
    if _paranoid(rec):
        exact = 0
    sw.rng[0] = u
    version = param(code, PIMC_V)  # 0: the default, 3
    stuk = version != V1 and version != V2
    if prepare(view, rec, pub, seat, sw, stuk) <= 0.0:
        return fallback  # no deal fits what the seat saw (a position not reached by play)
    v2 = version != V1
    z = param(code, PIMC_RACE) / 10.0
    infer = param(code, PIMC_INFER)
    bids = (infer & INFER_BIDS) != 0 and prepare_bids(view, rec, pub, seat, sw)
    by_play = (infer & INFER_PLAY) != 0 and view[ST_N_PLAYED] > 0
    # the play-outs' player: net's weights of these rules, or none (the heuristic)
    weights = WEIGHTS[rules_row(rec)]
    if param(code, PIMC_ROLLOUT) != ROLLOUT_NET:
        weights = weights[:0]
    racing = v2 and z > 0.0
    if v2:
        n_cards = distinct_cards(view, rec, seat, legal, fallback, pub[PUB_SEEN_OUT], sw.lcards)
        if n_cards == 1:
            return sw.lcards[0]
    else:
        n_cards = mask_cards(legal, sw.lcards)
    for j in range(n_cards):
        sw.sums[j] = 0
    alive = (np.int64(1) << n_cards) - 1
    side = side_of_seat(seat, rec)
    world = sw.world
    check = RACE_FIRST
    for w in range(worlds):
        if bids:
            sample_fitting_world(view, rec, pub, seat, sw, world, MAX_TRIES)
        else:
            sample_world(view, rec, sw, world)
        weight = 1
        if by_play:
            weight = np.int64(1) << max(0, WEIGHT_BITS - MISFIT_HALVINGS * play_misfits(world, rec, pub, seat, view))
        set_stuk(world, rec, sw.sc, stuk)
        sw.ctx[C_GEN] += 1  # a new deal for the solver's table
        for j in range(n_cards):
            if (alive >> j) & 1 == 0:
                continue
            if exact == 0 and weights.size == 0:
                v = roll_out(world, rec, pub, sw.sc, sw.lcards[j], side)
            else:
                v = play_out(world, rec, pub, sw, exact, side, sw.lcards[j], weights)
            sw.sums[j] += v * weight
            if racing:
                sw.wvals[w * N_CARDS + j] = v
        if racing and w + 1 == check and w + 1 < worlds:
            alive = _race(sw, n_cards, w + 1, alive, fallback, z)
            if alive & (alive - 1) == 0:
                break
            check += RACE_STEP
    best = -1
    best_sum = 0
    for j in range(n_cards):
        s = sw.sums[j]
        if (alive >> j) & 1 == 0:
            continue
        if best < 0 or s > best_sum or (s == best_sum and sw.lcards[j] == fallback):
            best = sw.lcards[j]
            best_sum = s
    return best
