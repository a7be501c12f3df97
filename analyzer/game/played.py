"""A deal as it was played, told from its cards: who won each trick and for how many points, what
was declared and when, the stuk, and the hand's result (RULES.md §4-§6); and, for a card that may
not be played, which obligation of §4 forbids it.

A logged deal (``belote-deal/1``, docs/DEAL_LOG.md) records all of it; a deal typed by hand
(``analyzer.questions.review.typed_record``, docs/NOTATION.md) records only the cards. ``play_out``
plays the cards of either through the one game state (``analyzer.game.state``: ``play_card``,
``trick_points``) and scores it with the engine's functions (``analyzer.rules.engine``:
``declarations``, ``roem_side``, ``stuk_side``, ``score_hand``), so a typed deal gets the fields a
log would have written, and a logged one the same fields it holds (``tests/game/test_played.py``
checks them against logs of every variant, single hands and hands of games). A typed deal is a
single hand: no reserve before it, no game totals (the trickless-roem rule of §6 needs a game); a
logged hand of a game is scored with its ``reserve_before`` and ``totals_before``.

``refusal`` says why the seat to move may not play a card, from the legal set the engine gives
(``legal_cards``, the one implementation of §4): not held (Dekjas: not face up); follow suit
(§4.1); trump led, a trump and a higher one if it can (§4.2); cannot follow, trump, higher than
the trump in the trick if it can, else still lower (§4.3). It reads which of those the legal set
is; it decides nothing the engine has not.
"""

from __future__ import annotations

from analyzer.game.state import (
    ST_BEST_TRUMP, ST_HANDS, ST_LED, ST_N_IN, ST_TO_MOVE, ST_TRUMP, ST_UNDER, legal_cards, play_card, record_plays,
    dekjas_state, start_state, trick_points, trick_so_far,
)
from analyzer.errors import BeloteError
from analyzer.rules import Rules
from analyzer.rules.cards import RK, RQ, N_RANKS, TRUMP_ORDER, format_card, mask_to_cards, parse_card, parse_suit

STUK_POINTS = 20  # RULES.md §5


def start_of(record: dict, rules: Rules):
    """The state at the first card of a record (logged or typed) and every seat's cards then
    (Dekjas: face down too), as card numbers."""
    trump, taker = parse_suit(record["trump"]), int(record["troefmaker"])
    if rules.piles:
        piles = [[(parse_card(d), parse_card(u)) for d, u in seat] for seat in record["piles"]]
        owned = [[c for pile in seat for c in pile] for seat in piles]
        return dekjas_state(rules, piles, trump, taker), owned
    hands = [[parse_card(c) for c in h] for h in record["start_hands"]]
    return start_state(rules, hands, trump, taker), hands


def play_out(record: dict, rules: Rules) -> dict:
    """The record's cards played out: ``tricks`` (each completed one: ``leader``, ``plays``,
    ``winner``, ``points``, Dekjas ``revealed``), ``declarations``, ``stuk`` and, once every trick
    is played, ``result``, as DEAL_LOG.md writes them; and ``stuk_tricks``, the tricks (0-based) in
    which the stuk holder played its trump K and Q (when it is announced: "stuk", then "brok")."""
    from analyzer.rules import engine

    rec = rules.record()
    st, owned = start_of(record, rules)
    trump, taker = parse_suit(record["trump"]), int(record["troefmaker"])
    side = rules.side_of
    n_sides = len(rules.sides)
    tricks, decls = [], []
    if not rules.declare_after_trick:  # §5 classic, piekjas: at the first trick, every seat all it holds
        for s in range(rules.players):
            decls += [(s, d, 0) for d in engine.declarations(owned[s])]
    used = {"sequence": [set() for _ in range(rules.players)], "carre": [set() for _ in range(rules.players)]}
    current, revealed = [], []
    king, queen = trump * N_RANKS + RK, trump * N_RANKS + RQ
    stuk_tricks = []
    for t, seat, card in record_plays(record):
        leader = int(st[ST_TO_MOVE]) if not current else current[0][0]
        current.append((seat, card))
        under = int(st[ST_UNDER + card])
        if under >= 0:
            revealed.append([seat, format_card(under)])  # §4 Dekjas: the card under it turns face up
        if card in (king, queen):
            stuk_tricks.append(t)
        winner = play_card(st, rec, card)
        if winner < 0:
            continue
        trick = {"leader": leader, "plays": [[s, format_card(c)] for s, c in current], "winner": int(winner),
                 "points": int(trick_points(st, rec, len(tricks)))}
        if rules.piles:
            trick["revealed"] = revealed
            face_up = set(mask_to_cards(int(st[ST_HANDS + winner])))
            for kind in ("carre", "sequence"):  # §5 Dekjas: new combinations among the winner's face-up cards
                for d in engine.declarations(face_up - used[kind][winner]):
                    if d.kind == kind:
                        decls.append((winner, d, len(tricks)))
                        used[kind][winner].update(d.cards)
        tricks.append(trick)
        current, revealed = [], []
    stuk = engine.stuk_side(owned, trump, rules)
    holder = next((s for s in range(rules.players) if king in owned[s]), None) if stuk is not None else None
    out = {
        "tricks": tricks,
        "declarations": [{"seat": s, "kind": d.kind, "cards": [format_card(c) for c in d.cards], "points": d.points,
                          "trick": t} for s, d, t in decls],
        "stuk": None if holder is None else {"seat": holder, "points": STUK_POINTS},
        "stuk_tricks": stuk_tricks if holder is not None else [],
        "result": None,
    }
    if len(tricks) < rules.n_tricks:
        return out
    card_points, won = [0] * n_sides, [0] * n_sides
    for tr in tricks:
        card_points[side(tr["winner"])] += tr["points"]
        won[side(tr["winner"])] += 1
    decl_points = [0] * n_sides
    for s, d, _ in decls:
        decl_points[side(s)] += d.points
    by_seat = [[d for s, d, _ in decls if s == seat] for seat in range(rules.players)]
    roem = engine.roem_side(by_seat, trump, rules)
    stuk_points = [STUK_POINTS if s == stuk else 0 for s in range(n_sides)]
    # a hand of a game (DEAL_LOG.md): the reserve it inherits, and the totals the trickless-roem rule reads
    reserve = int((record.get("result") or {}).get("reserve_before", 0))
    r = engine.score_hand(rules, side(taker), card_points, won, decl_points, roem, stuk_points, reserve,
                          record.get("totals_before"))
    out["result"] = {
        "card_points": r.card_points, "roem_side": roem, "raw_totals": r.raw_totals, "outcome": r.outcome,
        "pit": {"all_tricks_side": r.all_tricks_side, "trickless_sides": r.trickless_sides},
        "reserve_before": reserve, "reserve_after": r.reserve_after, "scores": r.scores,
    }
    return out


# ---- why a card may not be played (§4) ----------------------------------------------------------

REFUSALS = ("not_held", "follow", "trump_led_higher", "trump_led", "overtrump", "trump", "undertrump")


class PlayRefused(BeloteError):
    """The ``k``-th card of typed plays may not be played: ``refusal``'s ``why`` and ``facts``, for
    the layer that words it (``analyzer.output.words.refusal_text``: the command line, the pages),
    since a question returns data and never words. Its own text is the bare facts."""

    def __init__(self, why: str, facts: dict, k: int, piles: bool):
        self.why, self.facts, self.k, self.piles = why, facts, k, piles
        super().__init__(f"card {k} ({facts['card']}) may not be played: {why}; legal: {' '.join(facts['legal'])}")


def refusal(st, rules: Rules, card: int) -> tuple[str, dict] | None:
    """None when the seat to move may play ``card``; otherwise ``(why, facts)``: ``why`` one of
    ``REFUSALS``, ``facts`` the seat, the card, the legal cards, the suit led and the highest trump
    in the trick (card notation), what the words of a refusal name (``analyzer.output.words``)."""
    rec = rules.record()
    legal = mask_to_cards(int(legal_cards(st, rec)))
    if card in legal:
        return None
    seat = int(st[ST_TO_MOVE])
    trump = int(st[ST_TRUMP])
    trick = trick_so_far(st, rules)
    led = int(st[ST_LED]) if int(st[ST_N_IN]) else -1
    best = int(st[ST_BEST_TRUMP]) if int(st[ST_N_IN]) else -1
    best_card = [c for _, c in trick if c // N_RANKS == trump]
    best_card = max(best_card, key=lambda c: TRUMP_ORDER[c % N_RANKS]) if best_card else None
    facts = {"seat": seat, "card": format_card(card), "legal": [format_card(c) for c in legal],
             "led": "cdhs"[led] if led >= 0 else None, "best": None if best_card is None else format_card(best_card)}
    held = mask_to_cards(int(st[ST_HANDS + seat]))
    if card not in held:
        return "not_held", facts
    trumps = all(c // N_RANKS == trump for c in legal)
    higher = best >= 0 and all(TRUMP_ORDER[c % N_RANKS] > TRUMP_ORDER[best] for c in legal)
    if led == trump:
        return ("trump_led_higher" if higher else "trump_led"), facts
    if all(c // N_RANKS == led for c in legal):
        return "follow", facts
    if trumps:
        if best < 0:
            return "trump", facts
        return ("overtrump" if higher else "undertrump"), facts
    return "not_held", facts  # every held card is legal here: the card was not held


# ---- the bidding, call by call (§3) ---------------------------------------------------------------

def _call_of(token: str, open_calls, turned_suit: int):
    """A call as typed (``pass``, ``take``, ``take:h``, ``smous:h``, ``play``, ``redeal``, ``koe:h``) →
    ``(call, suit)``; a take or smous without a suit means the only suit open (round 1: the turned one)."""
    from analyzer.rules.calls import CALL_NAMES
    from analyzer.rules.cards import NotationError

    name, _, suit_tok = token.strip().lower().partition(":")
    name = {"smous-play": "play", "smous-redeal": "redeal", "pas": "pass", "passen": "pass", "speel": "take",
            "spelen": "take", "neem": "take"}.get(name, name)
    names = {"play": "smous-play", "redeal": "smous-redeal"}
    if names.get(name, name) not in CALL_NAMES:
        return None
    call = CALL_NAMES.index(names.get(name, name))
    if suit_tok:
        try:
            suit = parse_suit(suit_tok)
        except NotationError:
            try:
                suit = parse_suit(suit_tok, "nl")
            except NotationError:
                return None
        return call, suit
    suits = [s for c, s in open_calls if c == call]
    return (call, suits[0]) if len(suits) == 1 else (call, -1)


def call_token(call: int, suit: int) -> str:
    """A call as typed: ``take:h``, ``pass``, ``play``."""
    from analyzer.rules.calls import CALL_NAMES

    name = {"smous-play": "play", "smous-redeal": "redeal"}.get(CALL_NAMES[call], CALL_NAMES[call])
    return f"{name}:{'cdhs'[suit]}" if suit >= 0 else name


def bids_text(bids: list[dict]) -> str:
    """Recorded bids (DEAL_LOG.md's ``bids``) as typed for ``bidding``: ``pass take:h``."""
    names = {"smous-play": "play", "smous-redeal": "redeal"}
    return " ".join(names.get(b["call"], b["call"]) + (f":{b['suit']}" if b.get("suit") else "") for b in bids)


def bidding(rules: Rules, turned: int, calls: str) -> dict:
    """The calls typed in order (``pass pass take``; with a suit where several are open: ``take:s``,
    ``smous:h``, ``koe:c``; ``play`` or ``redeal`` answers a smous) walked through the one auction
    (``analyzer.game.auction``, RULES.md §3) from seat 0: ``bids`` as DEAL_LOG.md writes them;
    once over, ``outcome`` (played, passed_out, redeal) with ``trump``, ``taker`` and ``koe``; else
    ``next``, whose call it is and the calls open to it (as typed). A call that is not open is a
    one-line error naming the ones that are."""
    import numpy as np

    from analyzer.errors import BeloteError
    from analyzer.game.auction import (AU_OUTCOME, AU_ROUND, AU_SEAT, AU_TAKER, AU_TRUMP, AUCTION_SIZE,
                                       auction_apply, auction_done, auction_legal, auction_round, auction_start)
    from analyzer.rules.calls import CALL_NAMES, KOE_ROUND, PLAYED, calls_in

    rec = rules.record()
    ts = turned // N_RANKS
    au = np.zeros(AUCTION_SIZE, np.int64)
    auction_start(au)
    bids = []
    for k, token in enumerate(calls.replace(",", " ").split()):
        if auction_done(au):
            raise BeloteError(f"--bids: call {k + 1}, {token}: the bidding is already over")
        seat, rnd = int(au[AU_SEAT]), int(auction_round(au))
        open_calls = calls_in(int(auction_legal(au, rec, ts)))
        got = _call_of(token, open_calls, ts)
        if got not in open_calls:
            allowed = " ".join(call_token(c, s) for c, s in open_calls)
            raise BeloteError(f"--bids: call {k + 1}, {token}, is not open to seat {seat} in round {rnd}: "
                              f"it may call {allowed} (RULES.md §3)")
        call, suit = got
        bids.append({"seat": seat, "round": rnd, "call": CALL_NAMES[call], **({"suit": "cdhs"[suit]} if suit >= 0
                                                                               else {})})
        auction_apply(au, rec, ts, call, suit)
    out = {"bids": bids}
    if not auction_done(au):
        out["next"] = {"seat": int(au[AU_SEAT]), "round": int(auction_round(au)),
                       "calls": [call_token(c, s) for c, s in calls_in(int(auction_legal(au, rec, ts)))]}
        return out
    outcome = int(au[AU_OUTCOME])
    out["outcome"] = ("played", "passed_out", "redeal")[outcome]
    if outcome == PLAYED:
        out.update(trump="cdhs"[int(au[AU_TRUMP])], taker=int(au[AU_TAKER]), koe=int(au[AU_ROUND]) == KOE_ROUND)
    return out


__all__ = ["play_out", "refusal", "REFUSALS", "start_of", "STUK_POINTS", "bidding", "bids_text", "call_token"]
