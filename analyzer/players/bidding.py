"""Bidding policies: how a seat chooses among the calls open to it (RULES.md §3).

The calls and which are open are the rules' (``analyzer.rules.calls.legal_calls``); the
procedure (whose turn, what a call ends) is the game's (``analyzer.game.auction``), and
``analyzer.runs.hand.run_bidding`` asks the seats' policies in turn. Here: a call in round 1
or 2 (``choose_bid``), the koe's suit (``choose_koe_suit``) and the answer to a smous
(``answer_smous``).

Policies see only what the bidding seat sees: its own cards (Dekjas: its face-up
cards, and the opponent's face-up cards), the turned card, its seat and the round.

Policies (codes are the registry's, ``analyzer.players.policies``):
- ``random`` (0): uniform over the open calls (``nth_call``); koe suit uniform; smous answered 50/50.
- ``heuristic`` (1): a hand-strength score per suit (``suit_strength``) against a
  threshold by round and seat; parameters in ``BID_PARAM_NAMES``. A parameter row may
  also carry class overrides (``class_override``): for a hand class (which of the trump
  J 9 A 10, trump length, side aces, side voids; by round), take or pass whatever the
  threshold says. The heuristic's own rows have none; calibrated policies
  (``analyzer.questions.calibrate``) add them where the data resolve them.
"""

import numpy as np

from analyzer.compiling import njit
from analyzer.layout import offsets
from analyzer.rules.structure import has_dix, taker_gets_turned
from analyzer.rules.cards import N_SUITS, R9, RA, RJ, RK, RQ, RT, lane, lowest_card, popcount, suit_mask
from analyzer.game.dealing import rand_below
from analyzer.rules.calls import (ALL_SUITS, ANSWERS, KOE_ROUND, PASS, SMOUS, SMOUS_BIT, SMOUS_PLAY, SMOUS_REDEAL,
                                  TAKE, TAKE_BIT, legal_calls, nth_call)

RANDOM, HEURISTIC = 0, 1
# the bidding policies by name (the registry of ``analyzer.players.policies`` reads them); any other name is a
# policy file, or one of the shipped calibrated ones
BID_POLICIES = {
    "random": (RANDOM, "uniform over the calls open; koe suit uniform; smous answered 50/50"),
    "heuristic": (HEURISTIC, "hand-strength score per suit against a threshold by round and seat"),
}
CALIBRATED = "calibrated"  # the shipped calibrated policy of the run's variant label
SCORE_AWARE = "score-aware"  # the same, its thresholds moved by the game score (whole games)

# --- heuristic parameters ---------------------------------------------------------
BID_PARAM_NAMES = (
    "w_7", "w_8", "w_9", "w_10", "w_J", "w_Q", "w_K", "w_A",  # trump cards by rank
    "w_side_ace",  # each ace of another suit
    "w_side_ten",  # each 10 of another suit guarded by its ace
    "w_length",  # each trump beyond the second
    "w_void",  # each side suit with no card (with at least two trumps)
    "w_stuk",  # K and Q of trump together
    "threshold_r1",  # take the turned suit at or above this score
    "threshold_r2",  # name a suit in round 2 at or above this score
    "seat_step",  # threshold change per seat after voorhand (negative: later seats bolder)
    "smous_margin",  # 2 players: offer smous when score >= threshold - margin
    "smous_answer",  # answer smous with 'play' when own score in that suit >= this
    "koe_w_length",  # the koe's choice of suit only: each trump of a suit adds this to its score
    "koe_w_turned",  # the koe's choice of suit only: the turned card's suit adds this to its score
    # score-aware thresholds (whole games only): added to both thresholds in each region of the game
    # score (``score_region``); 0 everywhere is the score-blind bidder
    "shift_level", "shift_ahead", "shift_behind", "shift_level_near", "shift_ahead_near", "shift_behind_near",
)
BID_PARAM_OFFSETS, N_SCALAR_PARAMS = offsets((name, 1) for name in BID_PARAM_NAMES)  # w_7 .. w_A at rank 0 .. 7
SIDE_ACES_MASK = 0x80808080  # the ace bit of every lane
SIDE_TENS_MASK = 0x08080808  # the ten bit of every lane
P_W_SIDE_ACE = BID_PARAM_OFFSETS["w_side_ace"]
P_W_SIDE_TEN = BID_PARAM_OFFSETS["w_side_ten"]
P_W_LENGTH = BID_PARAM_OFFSETS["w_length"]
P_W_VOID = BID_PARAM_OFFSETS["w_void"]
P_W_STUK = BID_PARAM_OFFSETS["w_stuk"]
P_THR1 = BID_PARAM_OFFSETS["threshold_r1"]
P_THR2 = BID_PARAM_OFFSETS["threshold_r2"]
P_SEAT_STEP = BID_PARAM_OFFSETS["seat_step"]
P_SMOUS_MARGIN = BID_PARAM_OFFSETS["smous_margin"]
P_SMOUS_ANSWER = BID_PARAM_OFFSETS["smous_answer"]
P_KOE_LENGTH = BID_PARAM_OFFSETS["koe_w_length"]
P_KOE_TURNED = BID_PARAM_OFFSETS["koe_w_turned"]
P_SHIFTS = BID_PARAM_OFFSETS["shift_level"]  # + region (SCORE_REGIONS)

# --- the regions of the game score a player names (score-aware bidders, take --score) -----
SCORE_REGIONS = ("level", "ahead", "behind", "level near the target", "ahead near the target",
                 "behind near the target")
REGION_PART = 5  # a fifth of the target: points apart that make a side "ahead" or "behind", and from the
# target that make a score "near the target" (200 in a game to 1000, 140 to 700, 100 to 500)


@njit(cache=True, forceinline=True)
def score_region(ours, best_other, target):
    """The region (index into ``SCORE_REGIONS``) of a game score: level / ahead / behind by a fifth of
    the target against the best other side, and near the target when either total is within a fifth
    of it."""
    part = target // REGION_PART
    d = ours - best_other
    r = 0 if abs(d) < part else (1 if d > 0 else 2)
    if max(ours, best_other) >= target - part:
        r += 3
    return r


@njit(cache=True, forceinline=True)
def score_shift(row, my_side, totals, n_sides, target):
    """What a bidder's parameter ``row`` adds to its thresholds at the game score ``totals`` (by side)
    when its side is ``my_side``: its ``shift_*`` of the region it sees (``score_region``)."""
    best = -1
    for s in range(n_sides):
        if s != my_side and totals[s] > best:
            best = totals[s]
    return row[P_SHIFTS + score_region(totals[my_side], best, target)]

# --- class overrides, after the named parameters -------------------------------------------
# A hand class (what a player recognises, as the bidding tables' classes): which of the
# trump J, 9, A, 10 are held (``hon`` bits J=1, 9=2, A=4, 10=8), trump length (0..8), side
# aces (0..3), side voids (0..3). Key = ((hon * N_LEN + length) * N_ACES + aces) * N_VOIDS + voids.
N_HON = 16  # subsets of trump J 9 A 10
N_LEN = 9  # trump length 0..8
N_ACES = 4  # side aces 0..3
N_VOIDS = 4  # side voids 0..3
HON_J, HON_9, HON_A, HON_T = 1, 2, 4, 8
N_HAND_CLASSES = N_HON * N_LEN * N_ACES * N_VOIDS  # classes per round
P_N_OVERRIDES = N_SCALAR_PARAMS  # how many override slots are in use
P_OVERRIDES = P_N_OVERRIDES + 1  # the slots: +code = take, -code = pass, code = 1 + (round - 1) * N_HAND_CLASSES + key
MAX_OVERRIDES = 64  # slots per seat row (a linear scan: a few dozen compares per decision)
N_BID_PARAMS = P_OVERRIDES + MAX_OVERRIDES

#                  7  8  9   10  J   Q  K  A  ace ten len void stuk thr1 thr2 seat smous ans koe_len koe_turned
_BASE = np.array([2, 2, 14, 10, 20, 4, 5, 11, 10, 4, 6, 4, 10, 42, 44, 0, 8, 40, 0, 0] + [0] * len(SCORE_REGIONS),
                 np.float64)  # and no score shift


def default_bid_params(variant: str, players: int) -> np.ndarray:
    """The heuristic's default parameters for a variant (a copy: safe to change); no
    class overrides."""
    p = np.zeros(N_BID_PARAMS, np.float64)
    p[:N_SCALAR_PARAMS] = _BASE
    # Offsets chosen by a paired sweep (one seat or team with shifted thresholds against
    # the default field, same deals): the shift that scored best per hand.
    if variant == "piekjas":
        p[P_THR1] += 4  # no partner, and each other player must be beaten individually
        p[P_THR2] += 4
    if variant == "dekjas":
        p[P_THR1] += 16  # eight face-up cards judged, eight unknown below them
        p[P_THR2] += 16
    return p


@njit(cache=True, forceinline=True)
def suit_strength(cards, t, params):
    """The heuristic's score of ``cards`` (a mask) with suit ``t`` as trump.

    Written with few branches (it runs up to 16 times a hand): the trump cards' weights
    by their set bits, then counts of side aces, guarded tens and voids by bit masks.
    """
    cards = np.uint32(cards)
    trump_lane = lane(cards, t)
    n_trumps = popcount(np.uint32(trump_lane))
    score = 0.0
    m = np.uint32(trump_lane)
    while m:
        score += params[lowest_card(m)]
        m &= m - np.uint32(1)
    if n_trumps > 2:
        score += params[P_W_LENGTH] * (n_trumps - 2)
    score += params[P_W_STUK] * ((trump_lane >> RK) & (trump_lane >> RQ) & 1)
    side = cards & ~suit_mask(t)
    score += params[P_W_SIDE_ACE] * popcount(side & np.uint32(SIDE_ACES_MASK))
    # a ten whose ace is in the same lane: shift the aces (bit 7) onto the tens (bit 3)
    guarded = side & (side >> np.uint32(RA - RT)) & np.uint32(SIDE_TENS_MASK)
    score += params[P_W_SIDE_TEN] * popcount(guarded)
    if n_trumps >= 2:
        voids = 0
        for s in range(N_SUITS):
            if s != t and lane(cards, s) == 0:
                voids += 1
        score += params[P_W_VOID] * voids
    return score


@njit(cache=True, forceinline=True)
def bid_threshold(params, rnd, seat):
    """The strength from which the heuristic takes in round ``rnd`` at ``seat``."""
    base = params[P_THR1] if rnd == 1 else params[P_THR2]
    return base + params[P_SEAT_STEP] * seat


@njit(cache=True, forceinline=True)
def class_features(cards, t):
    """(hon, trump length, side aces, side voids) of ``cards`` with ``t`` as trump: the
    hand class a player recognises (length capped at ``N_LEN - 1``)."""
    tl = lane(cards, t)
    hon = 0
    if tl >> RJ & 1:
        hon |= HON_J
    if tl >> R9 & 1:
        hon |= HON_9
    if tl >> RA & 1:
        hon |= HON_A
    if tl >> RT & 1:
        hon |= HON_T
    length = popcount(np.uint32(tl))
    if length > N_LEN - 1:
        length = N_LEN - 1
    aces = 0
    voids = 0
    for s in range(N_SUITS):
        if s == t:
            continue
        ln = lane(cards, s)
        if ln == 0:
            voids += 1
        elif ln >> RA & 1:
            aces += 1
    return hon, length, aces, voids


def class_key(hon: int, length: int, aces: int, voids: int) -> int:
    """The index of a hand class among ``N_HAND_CLASSES`` (as ``class_override`` computes it)."""
    return ((hon * N_LEN + length) * N_ACES + aces) * N_VOIDS + voids


def override_code(rnd: int, key: int, take: bool) -> float:
    """The slot value of an override: take (or pass) hands of class ``key`` in round ``rnd``."""
    code = 1 + (rnd - 1) * N_HAND_CLASSES + key
    return float(code if take else -code)


@njit(cache=True, forceinline=True)
def class_override(params, rnd, cards, t):
    """+1: the row's overrides take this hand in round ``rnd`` with trump ``t``; -1: they
    pass it; 0: no override, the threshold decides."""
    n = np.int64(params[P_N_OVERRIDES])
    if n == 0:
        return 0
    hon, length, aces, voids = class_features(cards, t)
    code = 1.0 + (rnd - 1) * N_HAND_CLASSES + ((hon * N_LEN + length) * N_ACES + aces) * N_VOIDS + voids
    for k in range(n):
        v = params[P_OVERRIDES + k]
        if v == code:
            return 1
        if v == -code:
            return -1
    return 0


@njit(cache=True, forceinline=True)
def bid_cards(own, turned, t, rec):
    """The cards a bidder would play with trump ``t``: classic and 4-player piekjas
    takers receive the turned card (§3.5, §3.8); a holder of the trump 7 may take the
    turned card in exchange when ``t`` is its suit (Dix, §3.6)."""
    cards = own
    turned_bit = np.uint32(1) << np.uint32(turned)
    if taker_gets_turned(rec):
        cards |= turned_bit
    elif has_dix(rec) and (turned >> 3) == t:
        seven = np.uint32(1) << np.uint32(8 * t)
        if own & seven:
            cards = (own & ~seven) | turned_bit
    return np.uint32(cards)  # numba widens uint32 | uint32 to uint64: uint32, as a bidder's own cards, for one compile of its callees


@njit(cache=True, forceinline=True)
def choose_bid(policy, params, seat, rnd, own, turned, rec, rng):
    """A call for ``seat`` in round ``rnd`` (1 or 2), among ``legal_calls``: returns (call, suit)."""
    turned_suit = turned >> 3
    calls = legal_calls(rec, rnd, turned_suit)
    if policy == RANDOM:
        return nth_call(calls, rand_below(rng, popcount(calls)))
    # heuristic: the strongest suit it may name, against the threshold
    thr = bid_threshold(params, rnd, seat)
    suits = (calls >> TAKE_BIT) & ALL_SUITS  # the suits a take may name (legal_calls)
    best_suit = np.int64(-1)  # not a literal -1: class_override and bid_cards compile once (numba types literal ints apart)
    best = -1e9
    for t in range(N_SUITS):
        if not (suits >> t) & 1:
            continue
        sc = suit_strength(bid_cards(own, turned, t, rec), t, params)
        if sc > best:
            best = sc
            best_suit = t
    ov = class_override(params, rnd, bid_cards(own, turned, best_suit, rec), best_suit)
    if ov > 0 or (ov == 0 and best >= thr):
        return TAKE, best_suit
    if ov == 0 and (calls >> (SMOUS_BIT + best_suit)) & 1 and best >= thr - params[P_SMOUS_MARGIN]:
        return SMOUS, best_suit
    return PASS, -1  # an override's pass is a pass (no smous): what the tables measured


@njit(cache=True)
def koe_score(cards, t, turned_suit, params):
    """The koe's score of suit ``t`` (``cards``: what it would play, ``bid_cards``): the
    strength score plus the koe's own weights, per trump (``koe_w_length``) and for the
    turned card's suit (``koe_w_turned``); both 0 in the heuristic (the best-scoring suit)."""
    sc = suit_strength(cards, t, params)
    sc += params[P_KOE_LENGTH] * popcount(np.uint32(lane(cards, t)))
    if t == turned_suit:
        sc += params[P_KOE_TURNED]
    return sc


@njit(cache=True, forceinline=True)
def choose_koe_suit(policy, params, own, turned, rec, rng):
    """Seat 0, forced to play after two passed rounds, names a suit (§3.4): the best
    ``koe_score`` (ties: the first suit)."""
    if policy == RANDOM:
        calls = legal_calls(rec, KOE_ROUND, turned >> 3)
        return nth_call(calls, rand_below(rng, popcount(calls)))[1]
    best_suit = 0
    best = -1e9
    for t in range(N_SUITS):
        sc = koe_score(bid_cards(own, turned, t, rec), t, turned >> 3, params)
        if sc > best:
            best = sc
            best_suit = t
    return best_suit


@njit(cache=True, forceinline=True)
def answer_smous(policy, params, own, turned, suit, rec, rng):
    """The other player answers a smous on ``suit``: SMOUS_PLAY or SMOUS_REDEAL (§3.5).
    The heuristic lets the bidder play when its own cards are strong in that suit."""
    if policy == RANDOM:
        return nth_call(ANSWERS, rand_below(rng, 2))[0]
    if suit_strength(own, suit, params) >= params[P_SMOUS_ANSWER]:
        return SMOUS_PLAY
    return SMOUS_REDEAL
