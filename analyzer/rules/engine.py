"""The numba kernels behind the same plain-Python API as ``analyzer.rules.reference``.

Tests are parametrized over both modules, so every rule test checks the fast engine and
the slow reference alike. Nothing here is on a hot path.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import NamedTuple

import numpy as np

from analyzer.rules import Rules
from analyzer.rules import calls as _calls
from analyzer.rules import declarations as _decl
from analyzer.rules import scoring as _scoring
from analyzer.rules.cards import TRUMP_ORDER, cards_to_mask, mask_to_cards
from analyzer.rules.legal import legal_mask
from analyzer.rules.tricks import trick_card_points, trick_winner_index


class Declaration(NamedTuple):
    kind: str  # 'sequence' or 'carre'
    cards: tuple  # card numbers, ascending
    points: int


@dataclass
class HandResult:
    outcome: str
    card_points: list
    raw_totals: list
    scores: list
    reserve_after: int
    all_tricks_side: int | None
    trickless_sides: list


def legal_plays(hand, trick, seat, trump, rules: Rules) -> frozenset:
    hand_mask = cards_to_mask(hand)
    led, best_trump, partner_winning = -1, -1, 0
    if trick:
        cards = np.array([c for _, c in trick], dtype=np.int64)
        led = int(cards[0]) >> 3
        trumps = [c & 7 for c in cards if c >> 3 == trump]
        if trumps:
            best_trump = max(trumps, key=lambda r: TRUMP_ORDER[r])
        winner_seat = trick[trick_winner_index(cards, len(cards), trump)][0]
        partner_winning = int(rules.partners and winner_seat != seat and rules.side_of(winner_seat) == rules.side_of(seat))
    m = legal_mask(np.uint32(hand_mask), led, best_trump, trump, partner_winning, int(rules.undertrump == "free"))
    return frozenset(mask_to_cards(int(m)))


def game_winner(totals, target) -> int | None:
    """The kernel's end of a game (``analyzer.rules.scoring.game_winner``)."""
    w = _scoring.game_winner(np.array(totals, np.int64), len(totals), target)
    return None if w < 0 else int(w)


def legal_calls(rules: Rules, rnd: int, turned_suit: int) -> frozenset:
    """The kernel's open calls (``analyzer.rules.calls.legal_calls``) as the reference's
    (call, suit) pairs, suit None for pass."""
    mask = _calls.legal_calls(rules.record(), rnd, turned_suit)
    return frozenset((_calls.CALL_NAMES[c], None if c == _calls.PASS else s) for c, s in _calls.calls_in(int(mask)))


def trick_winner(trick, trump) -> int:
    cards = np.array([c for _, c in trick], dtype=np.int64)
    return trick[trick_winner_index(cards, len(cards), trump)][0]


def trick_points(trick, trump, last=False) -> int:
    cards = np.array([c for _, c in trick], dtype=np.int64)
    return int(trick_card_points(cards, len(cards), trump)) + (10 if last else 0)


def _find(cards):
    kinds = np.zeros(_decl.MAX_DECLARATIONS, np.int64)
    masks = np.zeros(_decl.MAX_DECLARATIONS, np.uint32)
    points = np.zeros(_decl.MAX_DECLARATIONS, np.int64)
    m = np.uint32(cards_to_mask(cards))
    n = _decl.find_declarations(m, m, kinds, masks, points)
    return kinds[:n], masks[:n], points[:n]


def declarations(cards) -> list:
    kinds, masks, points = _find(cards)
    return [
        Declaration(_decl.KIND_NAMES[k], tuple(mask_to_cards(int(m))), int(p))
        for k, m, p in zip(kinds, masks, points)
    ]


def declaration_key(decl, trump, rules: Rules):
    return int(
        _decl.declaration_key(
            np.uint32(cards_to_mask(decl.cards)), decl.points, trump, int(rules.roem_compare == "points")
        )
    )


def roem_side(decls_by_seat, trump, rules: Rules):
    best = np.full(rules.players, -1, np.int64)
    for s, decls in enumerate(decls_by_seat):
        for d in decls:
            best[s] = max(best[s], declaration_key(d, trump, rules))
    side = _decl.roem_winner(best, rules.players, rules.partners, int(rules.roem_tie == "first"))
    return None if side < 0 else int(side)


def stuk_side(cards_by_seat, trump, rules: Rules):
    masks = np.array([cards_to_mask(c) for c in cards_by_seat], dtype=np.uint32)
    seat = _decl.stuk_seat(masks, len(masks), trump)
    return None if seat < 0 else rules.side_of(int(seat))


def score_hand(rules: Rules, taker_side, card_points, tricks_won, decl_points, roem_side,
               stuk_points, reserve_before=0, totals_before=None) -> HandResult:
    n = len(card_points)
    arr = lambda xs: np.array(list(xs), dtype=np.int64)  # noqa: E731
    cp, tr, dp, sp = arr(card_points), arr(tricks_won), arr(decl_points), arr(stuk_points)
    out_card, out_raw, out_scores = np.zeros(n, np.int64), np.zeros(n, np.int64), np.zeros(n, np.int64)
    rs = -1 if roem_side is None else roem_side
    if rules.team_scoring:
        outcome, reserve = _scoring.score_classic(
            taker_side, rules.n_tricks, cp, tr, dp, rs, sp, reserve_before,
            int(rules.classic_tie == "made"), out_card, out_raw, out_scores)
    else:
        use_totals = totals_before is not None
        tb = arr(totals_before) if use_totals else np.zeros(n, np.int64)
        outcome, reserve = _scoring.score_solo(
            taker_side, n, rules.n_tricks, cp, tr, dp, rs, sp, reserve_before, tb, rules.target,
            use_totals, int(rules.trickless_roem == "target"), np.zeros(n, np.int64), np.zeros(n, np.int64),
            out_card, out_raw, out_scores)
    all_side = next((s for s in range(n) if tr[s] == rules.n_tricks), None)
    return HandResult(
        outcome=_scoring.OUTCOME_NAMES[outcome],
        card_points=[int(x) for x in out_card],
        raw_totals=[int(x) for x in out_raw],
        scores=[int(x) for x in out_scores],
        reserve_after=int(reserve),
        all_tricks_side=all_side,
        trickless_sides=[s for s in range(n) if tr[s] == 0],
    )
