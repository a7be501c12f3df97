"""A plain-Python reference implementation of RULES.md, written to be read, not to be fast.

Used by the tests, to check the numba engine (``analyzer.rules.engine`` exposes the same
functions with the same signatures, and the rule tests run over both), and to replay deal
logs (``replay``, DEAL_LOG.md): the tests replay what the simulator logs, and ``belote show``
and ``belote review`` replay every record they read (``output.deallog.check_play``). Its
messages number tricks from 1, as those commands print them. Cards are the ints of ``analyzer.rules.cards`` (``suit * 8 +
rank``, rank 0..7 = 7 8 9 T J Q K A); sets of cards are Python sets, never masks.

Every rule branch cites its RULES.md section. Where RULES.md can be read two ways and no
rule option settles it, a comment starting with ``Reading:`` says which reading is taken.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from typing import NamedTuple

from analyzer.rules.cards import (
    LAST_TRICK_BONUS,
    N_RANKS,
    N_SUITS,
    PLAIN_ORDER,
    PLAIN_POINTS,
    R7,
    R9,
    RA,
    RJ,
    RK,
    RQ,
    RT,
    SUIT_LETTERS,
    TOTAL_CARD_POINTS,
    TRUMP_ORDER,
    TRUMP_POINTS,
    NotationError,
    format_card,
    parse_card,
)
from analyzer.errors import BeloteError
from analyzer.rules import Rules
from analyzer.rules.deal_schema import check_record

FULL_HAND_POINTS = TOTAL_CARD_POINTS + LAST_TRICK_BONUS  # 162, RULES.md §1
CAPOT_POINTS = 252  # RULES.md §6 classic: a team that wins all 8 tricks
PIT_BONUS = 100  # RULES.md §6 piekjas/dekjas: all tricks, or each trickless player
STUK_POINTS = 20  # RULES.md §5: K + Q of trump

# RULES.md §5: carré values by rank.
# Reading: "eights and sevens score nothing" = four 8s / 7s are no declaration at all
# (not a 0-point carré that could still win the comparison and block the others).
CARRE_POINTS = {RJ: 200, R9: 150, RA: 100, RT: 100, RK: 100, RQ: 100}


# --- small helpers on card ints ---------------------------------------------------------


def suit_of(card: int) -> int:
    return card // N_RANKS


def rank_of(card: int) -> int:
    return card % N_RANKS


def card_points(card: int, trump: int) -> int:
    """RULES.md §1: the points of one card, read with ``trump`` as trump."""
    if suit_of(card) == trump:
        return int(TRUMP_POINTS[rank_of(card)])
    return int(PLAIN_POINTS[rank_of(card)])


def _trump_order(card: int) -> int:
    return int(TRUMP_ORDER[rank_of(card)])


def _trick_strength(card: int, trump: int, led: int) -> int:
    """RULES.md §4: any trump beats every card of the suit led; other suits never win."""
    if suit_of(card) == trump:
        return N_RANKS + _trump_order(card)
    if suit_of(card) == led:
        return int(PLAIN_ORDER[rank_of(card)])
    return -1


def _side_of_seat(rules: Rules) -> dict[int, int]:
    return {seat: side for side, seats in enumerate(rules.sides) for seat in seats}


def _fmt(cards) -> str:
    return " ".join(format_card(c) for c in sorted(cards))


# --- §4 play ---------------------------------------------------------------------------


def legal_plays(hand, trick, seat, trump, rules: Rules) -> frozenset:
    """The cards ``seat`` may play from ``hand`` on ``trick`` (RULES.md §4).

    ``hand``: the cards the seat may play (dekjas: its face-up cards only, §4).
    ``trick``: ``(seat, card)`` pairs already played in this trick, in play order.
    """
    hand = frozenset(int(c) for c in hand)
    if not trick:
        return hand  # §4: the leader may lead any card
    led = suit_of(trick[0][1])
    same_suit = frozenset(c for c in hand if suit_of(c) == led)
    trumps = frozenset(c for c in hand if suit_of(c) == trump)
    trick_trumps = [c for _, c in trick if suit_of(c) == trump]
    best = max((_trump_order(c) for c in trick_trumps), default=-1)
    higher = frozenset(c for c in trumps if _trump_order(c) > best)

    if led == trump:
        # Reading: option undertrump=free belongs to §4.3 (cannot follow), so it never
        # frees a player who holds a trump when trump is led.
        if trumps:
            # §4.2 trump led: a higher trump if you can, else any trump (even over a partner)
            return higher or trumps
        return hand  # §4.3 cannot follow and no trump at all: any card

    if same_suit:
        return same_suit  # §4.1 follow suit, any card of the suit led

    # §4.3 / §4.4: cannot follow a plain suit
    if rules.partners and _partner_winning(trick, seat, trump, rules):
        return hand  # §4.4 classic partner exception: partner is winning, any card
    if not trumps:
        return hand  # §4.3 no trump at all: any card
    if not trick_trumps:
        return trumps  # §4.3 must trump
    if higher:
        return higher  # §4.3 must overtrump if you can
    if rules.undertrump == "free":
        # §4.3 option undertrump=free: the best trump is an opponent's (a partner's is
        # §4.4 above) and cannot be beaten: any card
        return hand
    return trumps  # §4.3 undertrump=forced: still a (lower) trump


def _partner_winning(trick, seat, trump, rules: Rules) -> bool:
    side = _side_of_seat(rules)
    winner = trick_winner(trick, trump)
    return winner != seat and side[winner] == side[seat]


def trick_winner(trick, trump) -> int:
    """RULES.md §4: the highest trump, or with no trump the highest card of the suit led."""
    led = suit_of(trick[0][1])
    seat, _ = max(trick, key=lambda sc: _trick_strength(sc[1], trump, led))
    return seat


def trick_points(trick, trump, last=False) -> int:
    """RULES.md §1: card points of the trick, +10 if it is the last trick."""
    pts = sum(card_points(c, trump) for _, c in trick)
    return pts + (LAST_TRICK_BONUS if last else 0)


# --- §5 declarations and stuk ----------------------------------------------------------


class Declaration(NamedTuple):
    kind: str  # 'sequence' or 'carre'
    cards: tuple  # card ints, ascending
    points: int


def _sequence_points(length: int) -> int:
    """RULES.md §5: 3 cards 20, 4 cards 50, 5 or more 100."""
    if length >= 5:
        return 100
    return 50 if length == 4 else 20


def declarations(cards) -> list:
    """Every carré and every maximal sequence of 3+ in ``cards`` (RULES.md §5).

    Sorted by kind ('carre' before 'sequence'), then by the card tuple.
    """
    held = set(int(c) for c in cards)
    out = []
    for rank, points in CARRE_POINTS.items():
        four = tuple(s * N_RANKS + rank for s in range(N_SUITS))
        if all(c in held for c in four):
            out.append(Declaration("carre", four, points))
    for s in range(N_SUITS):
        # Rank numbers follow sequence order 7 8 9 10 J Q K A (§1), so a run of
        # consecutive ranks is a sequence; a whole maximal run is one declaration (§5).
        run = []
        for rank in range(N_RANKS + 1):
            card = s * N_RANKS + rank
            if rank < N_RANKS and card in held:
                run.append(card)
                continue
            if len(run) >= 3:
                out.append(Declaration("sequence", tuple(run), _sequence_points(len(run))))
            run = []
    out.sort(key=lambda d: (d.kind, d.cards))
    return out


def _declaration_strength(card: int, trump: int) -> int:
    """§5: trick order, every trump above every plain card (plain suits compare equal)."""
    if suit_of(card) == trump:
        return N_RANKS + _trump_order(card)
    return int(PLAIN_ORDER[rank_of(card)])


def declaration_key(decl, trump, rules: Rules) -> tuple:
    """A comparable key, higher = better declaration (RULES.md §5, option roem_compare)."""
    top = max(_declaration_strength(c, trump) for c in decl.cards)
    by_cards = (len(decl.cards), top)  # §5 'cards': more cards, then the highest card
    if rules.roem_compare == "points":
        return (decl.points,) + by_cards  # §5 'points': point value first, then as above
    return by_cards


def roem_side(decls_by_seat, trump, rules: Rules):
    """The side that scores declarations, or None (RULES.md §5 "Who scores")."""
    side = _side_of_seat(rules)
    best, holders = None, []
    for seat, decls in enumerate(decls_by_seat):
        for d in decls:
            key = declaration_key(d, trump, rules)
            if best is None or key > best:
                best, holders = key, [seat]
            elif key == best:
                holders.append(seat)
    if best is None:
        return None
    best_sides = {side[s] for s in holders}
    if len(best_sides) == 1:
        return best_sides.pop()  # §5: one side holds the best declaration
    if rules.roem_tie == "first":
        # §5 roem_tie=first: the earlier seat in the first trick's order (seat 0 leads it)
        return side[min(holders)]
    return None  # §5 roem_tie=none: the two highest are equal, nobody scores


def stuk_side(cards_by_seat, trump, rules: Rules):
    """The side whose one seat holds both K and Q of trump (RULES.md §5), or None."""
    side = _side_of_seat(rules)
    king, queen = trump * N_RANKS + RK, trump * N_RANKS + RQ
    for seat, cards in enumerate(cards_by_seat):
        held = set(int(c) for c in cards)
        if king in held and queen in held:
            return side[seat]
    return None


# --- §6 scoring ------------------------------------------------------------------------


@dataclass
class HandResult:
    outcome: str  # 'made', 'dedans' or 'tie'
    card_points: list  # per side, after classic capot (252)
    raw_totals: list  # per side: card points + scoring declarations + stuk
    scores: list  # per side: what goes on the score sheet for this hand
    reserve_after: int
    all_tricks_side: int | None = None
    trickless_sides: list = field(default_factory=list)


def round_to_ten(x: int) -> int:
    """RULES.md §6: to the nearest ten, halves up (84 -> 80, 85 -> 90)."""
    return (x + 5) // 10 * 10


def score_hand(
    rules: Rules,
    taker_side,
    card_points,
    tricks_won,
    decl_points,
    roem_side,
    stuk_points,
    reserve_before=0,
    totals_before=None,
) -> HandResult:
    """Score one hand (RULES.md §6). All lists are per side (``rules.sides``).

    ``card_points`` include the last trick's 10; ``decl_points`` are the points of all of
    a side's declarations (only ``roem_side``'s count); ``totals_before`` (the game totals
    before this hand) is needed only for the trickless-player rule of piekjas/dekjas.
    """
    n = len(rules.sides)
    cp = [int(x) for x in card_points]
    tricks = [int(x) for x in tricks_won]
    stuk = [int(x) for x in stuk_points]
    roem = [int(decl_points[s]) if s == roem_side else 0 for s in range(n)]
    winners = [s for s in range(n) if tricks[s] > 0]
    trickless = [s for s in range(n) if tricks[s] == 0]
    all_tricks = winners[0] if len(winners) == 1 else None
    args = (rules, int(taker_side), cp, tricks, roem, stuk, int(reserve_before))
    if rules.variant == "classic":
        res = _score_classic(*args, all_tricks)
    else:
        res = _score_individual(*args, winners, trickless, all_tricks, totals_before)
    res.all_tricks_side = all_tricks
    res.trickless_sides = trickless
    return res


def _score_classic(rules, t, cp, tricks, roem, stuk, reserve, all_tricks) -> HandResult:
    d = 1 - t  # the defending team
    if all_tricks is not None:
        # §6 classic capot: 252 card points (last trick included) instead of 162
        cp = [CAPOT_POINTS if s == all_tricks else 0 for s in range(2)]
    raw = [cp[s] + roem[s] + stuk[s] for s in range(2)]  # §6 raw total
    scores = [0, 0]
    if raw[t] > raw[d] or (raw[t] == raw[d] and rules.classic_tie == "made"):
        # §6 made (or equal with classic_tie=made): each team its raw total.
        # Reading: "the team that wins the next hand" = the takers when made, the
        # defenders when dedans, nobody on a litige.
        scores = list(raw)
        scores[t] += reserve
        return HandResult("made", cp, raw, scores, 0)
    if raw[t] < raw[d]:
        # §6 dedans: defenders 162 (252 if they won every trick) plus every scoring
        # declaration; the takers keep only their stuk.
        # Reading: "belote stays with the team that held it" -> defenders keep their own
        # stuk too; the defenders won the hand and collect any reserve.
        base = CAPOT_POINTS if all_tricks == d else FULL_HAND_POINTS
        scores[d] = base + sum(roem) + stuk[d] + reserve
        scores[t] = stuk[t]
        return HandResult("dedans", cp, raw, scores, 0)
    # §6 equal, classic_tie=litige: defenders score their raw total, the takers' raw total
    # joins the reserve (nobody won the hand, so the reserve keeps growing); no rounding.
    # Reading: the takers' "raw total" includes their stuk (only dedans keeps it apart).
    scores[d] = raw[d]
    return HandResult("tie", cp, raw, scores, reserve + raw[t])


def _score_individual(rules, t, cp, tricks, roem, stuk, reserve, winners, trickless, all_tricks, totals_before):
    n = len(cp)
    raw = [cp[s] + roem[s] + stuk[s] for s in range(n)]  # §6 raw total
    # §6 pit (kapot): all tricks -> 100 bonus; else each trickless player is worth 100
    # shared equally by the players with a trick, each share rounded down.
    # Reading: the all-tricks bonus replaces the trickless shares (100 in all, not 100
    # per trickless opponent).
    pit = [0] * n
    if all_tricks is not None:
        pit[all_tricks] = PIT_BONUS
    elif trickless and winners:
        share = PIT_BONUS // len(winners)
        for s in winners:
            pit[s] = share * len(trickless)
    others = [s for s in range(n) if s != t]
    award = [0] * n
    for s in others:
        award[s] = raw[s] + pit[s]  # others always score their own raw total and pit share
    T = raw[t]
    M = max(raw[s] for s in others)
    if T > M:
        # §6 made: everyone its raw total; the troefmaker won the hand and gets the reserve
        award[t] = T + pit[t] + reserve
        outcome, reserve_after = "made", 0
    elif T < M:
        top = [s for s in others if raw[s] == M]
        outcome = "dedans"
        if len(top) == 1:
            # §6 dedans: the troefmaker's total (and its pit share, which goes with its
            # points) to the highest other, who won the hand and gets the reserve
            award[top[0]] += T + pit[t] + reserve
            reserve_after = 0
        else:
            # §6 dedans, highest total shared: the troefmaker's total goes to the reserve
            reserve_after = reserve + T + pit[t]
    else:
        # §6 tie: the troefmaker's total (with its pit share) goes to the reserve; nobody
        # won the hand, so the old reserve is not paid out either
        outcome, reserve_after = "tie", reserve + T + pit[t]
    scores = [round_to_ten(a) for a in award]  # §6 rounding of each player's sum
    if totals_before is not None:
        _trickless_roem(rules, t, tricks, roem, stuk, award, scores, [int(x) for x in totals_before])
    return HandResult(outcome, cp, raw, scores, reserve_after)


def game_winner(totals, target) -> int | None:
    """RULES.md §7: hands are played until a side reaches the target at the end of a hand;
    the highest total wins, and an exact tie plays on. The winning side, or None."""
    top = max(totals)
    leaders = [s for s, x in enumerate(totals) if x == top]
    return leaders[0] if top >= target and len(leaders) == 1 else None


def wins_game(side, scores, totals_before, target) -> bool:
    """RULES.md §7: with this hand's ``scores``, ``side`` ends the hand at or over the
    target with the highest total alone (an exact tie at the top plays on)."""
    totals = [b + s for b, s in zip(totals_before, scores)]
    mine = totals[side]
    return mine >= target and all(x < mine for o, x in enumerate(totals) if o != side)


def _trickless_roem(rules, taker, tricks, roem, stuk, award, scores, totals_before):
    """RULES.md §6, last rule: a non-troefmaker that won no trick scores its declarations
    and stuk, except when they are what makes it win the game."""
    dropped = set()
    changed = True
    while changed:
        changed = False
        for s in range(len(scores)):
            own = roem[s] + stuk[s]
            if s == taker or tricks[s] or not own or s in dropped:
                continue
            without = scores[:s] + [round_to_ten(award[s] - own)] + scores[s + 1:]
            if rules.trickless_roem == "target":
                # option trickless_roem=target (revision 1): dropped whenever its total with
                # them reaches the target, even if another player ends higher
                drop = totals_before[s] + scores[s] >= rules.target
            else:
                # trickless_roem=wins: dropped only when with them it wins the game at the
                # end of this hand (§7) and without them it would not.
                # Reading: a drop can let another trickless player win by its own roem, so
                # the check repeats in seat order until nothing changes; the made/dedans
                # comparisons above keep the raw totals.
                drop = (wins_game(s, scores, totals_before, rules.target)
                        and not wins_game(s, without, totals_before, rules.target))
            if drop:
                award[s] -= own
                scores[s] = without[s]
                dropped.add(s)
                changed = rules.trickless_roem == "wins"


# --- replay of a deal log (DEAL_LOG.md) ------------------------------------------------


KOE_ROUND = 3  # after two passed rounds (DEAL_LOG.md records the koe as round 3)


def legal_calls(rules: Rules, rnd: int, turned_suit: int) -> frozenset:
    """RULES.md §3: the calls open to the seat whose turn it is in round ``rnd`` (1, 2, or 3
    for the koe after two passed rounds), as (call, suit) pairs, suit None for pass."""
    others = [s for s in range(4) if s != turned_suit]
    if rnd == 1:
        suits = [turned_suit]  # §3 classic.2, piekjas.2: take the turned card's suit
    elif rnd == 2:
        # §3 classic.3: another suit; §3 piekjas.3 / dekjas.2: option round2_suits, 'any' of the four
        # (a piekjas/dekjas option: classic round 2 always names "another suit")
        any_suit = rules.variant != "classic" and rules.round2_suits == "any"
        suits = list(range(4)) if any_suit else others
    elif rules.variant == "classic":
        return frozenset()  # §3 classic.4: passed twice, no play (passed out)
    else:
        # §3 piekjas.4: seat 0 must play on a suit of its choice, the koe. Reading: any of the
        # four, the turned suit included (then the Dix exchange is possible)
        return frozenset(("koe", s) for s in range(4))
    calls = {("pass", None)} | {("take", s) for s in suits}
    if rules.variant != "classic" and rules.players == 2:
        calls |= {("smous", s) for s in suits}  # §3 piekjas.2-3, dekjas.2: smous only with 2 players
    return frozenset(calls)


class _Stop(Exception):
    """The record cannot be followed any further."""


def replay(record: dict) -> list:
    """Check one ``belote-deal/1`` record against RULES.md; an empty list means clean. A
    record without the format's shape (``deal_schema.check_record``, the gate ``belote
    show`` uses too) is one error and is not followed further."""
    try:
        r = _Replay(record)
    except BeloteError as e:
        return [str(e)]
    try:
        r.run()
    except _Stop:
        pass
    except (KeyError, IndexError, TypeError, ValueError, AttributeError) as e:
        r.errors.append(f"malformed record: {type(e).__name__}: {e}")
    return r.errors


class _Replay:
    def __init__(self, record):
        self.rec = record
        self.rules = check_record(record)  # the record's shape first: a BeloteError when it has none
        self.errors: list[str] = []

    # ---- helpers ----

    def err(self, msg):
        self.errors.append(msg)

    def stop(self, msg):
        self.errors.append(msg)
        raise _Stop

    def card(self, token, where):
        try:
            return parse_card(str(token))
        except NotationError as e:
            self.stop(f"{where}: {e}")

    def suit(self, token, where):
        if not isinstance(token, str) or len(token) != 1 or token not in SUIT_LETTERS["en"]:
            self.stop(f"{where}: {token!r} is not a suit letter (c d h s)")
        return SUIT_LETTERS["en"].index(token)

    # ---- the whole record ----

    def run(self):
        rec, rules = self.rec, self.rules
        self.n = rules.players
        self.side = _side_of_seat(rules)
        if rec.get("sides") != rules.sides:
            self.err(f"sides {rec.get('sides')} should be {rules.sides}")
        self.read_deck()
        outcome = self.check_bids()
        if rec.get("outcome") != outcome:
            self.err(f"outcome {rec.get('outcome')!r} should be {outcome!r}")
        if outcome != "played":
            if rec.get("tricks"):
                self.err(f"a {outcome} record ends after bids but has tricks")
            return
        self.check_trump_fields()
        if rules.variant == "dekjas":
            self.deal_dekjas()
        else:
            self.deal_hands()
        self.play_tricks()
        self.check_declarations()
        self.check_stuk()
        self.check_result()

    def read_deck(self):
        self.deck = [self.card(t, f"deck[{i}]") for i, t in enumerate(self.rec["deck"])]  # 32: deal_schema
        if len(set(self.deck)) != 32:
            dup = [format_card(c) for c, k in Counter(self.deck).items() if k > 1]
            self.stop(f"deck repeats cards: {' '.join(dup)}")
        # DEAL_LOG.md dealing order: the turned card
        v, n = self.rules.variant, self.n
        if v == "dekjas":
            idx = 31  # seat 1's last face-up card
        elif v == "piekjas" and n in (2, 3):
            idx = 6 * n
        else:
            idx = 20
        self.turned = self.deck[idx]
        got = self.card(self.rec.get("turned"), "turned")
        if got != self.turned:
            self.err(f"turned card {format_card(got)} should be deck[{idx}] = {format_card(self.turned)}")

    # ---- §3 bidding ----

    def check_bids(self) -> str:
        """Walk the bids (RULES.md §3); set trump/troefmaker/koe; return the outcome."""
        rules, n = self.rules, self.n
        bids = self.rec.get("bids")
        if not isinstance(bids, list):
            self.stop("bids must be a list")
        turned_suit = suit_of(self.turned)
        self.trump = self.troefmaker = None
        self.koe = False
        i = 0

        def next_bid(what):
            nonlocal i
            if i >= len(bids):
                self.stop(f"bids end early: expected {what}")
            b = bids[i]
            i += 1
            return i - 1, b

        def finish(outcome):
            if i < len(bids):
                self.err(f"bids[{i}:] come after the bidding ended ({len(bids) - i} extra)")
            return outcome

        for rnd in (1, 2):
            for seat in range(n):
                k, b = next_bid(f"seat {seat}'s round-{rnd} bid")
                where = f"bids[{k}]"
                if b.get("seat") != seat or b.get("round") != rnd:
                    self.stop(
                        f"{where}: seat {b.get('seat')} round {b.get('round')} bids, "
                        f"but it is seat {seat}'s turn in round {rnd}"
                    )
                call = b.get("call")
                if call == "pass":
                    continue
                if call not in ("take", "smous"):
                    self.stop(f"{where}: call {call!r} is not allowed here (take, pass or smous)")
                open_calls = legal_calls(rules, rnd, turned_suit)
                if call == "smous" and not any(c == "smous" for c, _ in open_calls):
                    self.stop(
                        f"{where}: smous is only allowed with 2 players in piekjas or dekjas, "
                        f"not in {rules.label} (RULES.md §3)"
                    )
                s = self.suit(b.get("suit"), f"{where} {call}")
                if (call, s) not in open_calls and rnd == 1:
                    self.stop(f"{where}: round-1 {call} must be on the turned suit {SUIT_LETTERS['en'][turned_suit]}")
                if (call, s) not in open_calls:
                    self.stop(f"{where}: round-2 {call} must name a suit other than the turned suit "
                              f"{SUIT_LETTERS['en'][turned_suit]} (round2_suits=other)")
                if call == "take":
                    self.trump, self.troefmaker = s, seat
                    return finish("played")
                # §3 piekjas.5 smous: the other player chooses play or redeal
                # (DEAL_LOG.md gives the answer no round: only its seat is checked)
                k2, ans = next_bid("the answer to smous")
                other = 1 - seat
                if ans.get("seat") != other:
                    self.stop(f"bids[{k2}]: the answer to smous must come from seat {other}")
                if ans.get("call") == "smous-play":
                    self.trump, self.troefmaker = s, seat
                    return finish("played")
                if ans.get("call") == "smous-redeal":
                    return finish("redeal")
                self.stop(f"bids[{k2}]: call {ans.get('call')!r}: smous must be answered smous-play or smous-redeal")
        koe_calls = legal_calls(rules, KOE_ROUND, turned_suit)
        if not koe_calls:
            return finish("passed_out")  # §3 classic.4: all passed twice
        # the koe bid's "round" is not checked
        k, b = next_bid("seat 0's koe")
        if b.get("seat") != 0 or b.get("call") != "koe":
            self.stop(f"bids[{k}]: after all passed twice, seat 0 must be koe (call 'koe' with a suit)")
        self.trump = self.suit(b.get("suit"), f"bids[{k}] koe")
        if ("koe", self.trump) not in koe_calls:
            self.stop(f"bids[{k}]: the koe may not name {SUIT_LETTERS['en'][self.trump]}")
        self.troefmaker, self.koe = 0, True
        return finish("played")

    def check_trump_fields(self):
        rec = self.rec
        letter = SUIT_LETTERS["en"][self.trump]
        if rec.get("trump") != letter:
            self.err(f"trump {rec.get('trump')!r} should be {letter!r}")
        if rec.get("troefmaker") != self.troefmaker:
            self.err(f"troefmaker {rec.get('troefmaker')} should be seat {self.troefmaker}")
        if bool(rec.get("koe")) != self.koe:
            self.err(f"koe {rec.get('koe')} should be {self.koe}")

    # ---- §3 dealing, Dix exchange, fille ----

    def read_exchange(self, hands_then):
        """Check the Dix exchange (§3 piekjas.6-8) against the hands at its moment."""
        ex = self.rec.get("exchange")
        if not ex:
            return None
        rules = self.rules
        if rules.variant != "piekjas":
            self.err(f"{rules.variant} has no Dix exchange (RULES.md §3)")
            return None
        if self.trump != suit_of(self.turned):
            self.err("Dix exchange is only allowed when the trump is the turned card's suit (§3 piekjas.6)")
            return None
        seat = ex.get("seat")
        seven = self.trump * N_RANKS + R7
        gave = self.card(ex.get("gave"), "exchange.gave")
        got = self.card(ex.get("got"), "exchange.got")
        if gave != seven:
            self.err(f"exchange.gave {format_card(gave)} should be the trump 7 {format_card(seven)}")
            return None
        if got != self.turned:
            self.err(f"exchange.got {format_card(got)} should be the turned card {format_card(self.turned)}")
            return None
        if seat not in range(self.n) or seven not in hands_then[seat]:
            late = self.n in (2, 3) and rules.dix_timing == "deal"
            when = "after the last 3 cards (dix_timing=deal)" if late else "right after bidding"
            self.err(f"exchange: seat {seat} does not hold {format_card(seven)} {when} (§3 piekjas.6)")
            return None
        return seat

    def exchange_dix(self, hands):
        """Make the logged Dix exchange in ``hands`` if it is allowed at this moment;
        returns the exchanging seat or None."""
        seat = self.read_exchange(hands)
        if seat is not None:
            hands[seat].remove(self.trump * N_RANKS + R7)
            hands[seat].append(self.turned)
        return seat

    def deal_hands(self):
        """Classic and piekjas hands at the first trick (DEAL_LOG.md dealing order, §3)."""
        n, deck, rules = self.n, self.deck, self.rules
        if n == 4:
            # §3 classic / piekjas.8: 5 each, turned card deck[20]; after bidding (and, in
            # piekjas, the Dix exchange) the taker gets the card on the table + 2, others 3
            hands = [list(deck[5 * s : 5 * s + 5]) for s in range(4)]
            table = self.turned
            if self.exchange_dix(hands) is not None:
                table = self.trump * N_RANKS + R7
            p = 21
            for s in range(4):
                k = 2 if s == self.troefmaker else 3
                hands[s] += deck[p : p + k]
                p += k
                if s == self.troefmaker:
                    hands[s].append(table)
            fille = None
        else:
            # §3 piekjas.6-7, n = 2 or 3: 6 each, turned card; the Dix exchange right after
            # bidding, from the cards held then (dix_timing=bidding; revision 1's
            # dix_timing=deal: after the 3 more each, so a 7 that just arrived counts); then
            # 3 each; the table card and the rest of the stock are out of play
            hands = [list(deck[6 * s : 6 * s + 6]) for s in range(n)]
            at_deal = rules.dix_timing == "deal"
            if not at_deal:
                self.exchange_dix(hands)
            p = 6 * n + 1
            for s in range(n):
                hands[s] += deck[p : p + 3]
                p += 3
            if at_deal:
                self.exchange_dix(hands)
            fille = deck[31]
        self.check_fille(fille)
        start = self.rec.get("start_hands")
        if not isinstance(start, list) or len(start) != n:
            self.stop(f"start_hands must list {n} hands")
        for s in range(n):
            listed = [self.card(t, f"start_hands[{s}]") for t in start[s]]
            if sorted(listed) != sorted(hands[s]):
                self.err(f"start_hands[{s}] is {_fmt(listed)}, the deal gives {_fmt(hands[s])}")
        self.hands = [set(h) for h in hands]
        self.start = [set(h) for h in hands]

    def check_fille(self, fille):
        got = self.rec.get("fille")
        if fille is None:
            if got is not None:
                self.err(f"fille {got!r}: there is no fille in {self.rules.label} (§3)")
            return
        if got is None or self.card(got, "fille") != fille:
            self.err(f"fille {got!r} should be the last stock card {format_card(fille)} (§3 piekjas.7)")

    def deal_dekjas(self):
        """§3 dekjas.1: pile i of seat s = (deck[2i+s] face down, deck[16+2i+s] face up)."""
        deck = self.deck
        if self.rec.get("exchange"):
            self.err("dekjas has no Dix exchange (§3 dekjas.2)")
        self.check_fille(None)
        piles = [[[deck[2 * i + s], deck[16 + 2 * i + s]] for i in range(8)] for s in range(2)]
        got = self.rec.get("piles")
        if not isinstance(got, list) or len(got) != 2:
            self.stop("dekjas record needs piles for 2 seats")
        for s in range(2):
            listed = [[self.card(t, f"piles[{s}]") for t in pile] for pile in got[s]]
            if listed != piles[s]:
                self.err(f"piles[{s}] do not match the deal (pile i = deck[2i+s] down, deck[16+2i+s] up)")
        self.piles = piles  # each pile: [face_down, face_up]; the last element is on top
        self.start = [set(c for pile in piles[s] for c in pile) for s in range(2)]

    # ---- §4 play ----

    def playable(self, seat):
        if self.rules.variant == "dekjas":
            return {pile[-1] for pile in self.piles[seat] if pile}  # §4: face-up cards only
        return self.hands[seat]

    def legal(self, hand, trick, seat, card) -> frozenset:
        """The cards ``seat`` may play from ``hand`` on ``trick`` (``legal_plays``); ``card`` is
        the one it played (read by a replay that counts choices: ``analyzer.questions.impact``)."""
        return legal_plays(hand, trick, seat, self.trump, self.rules)

    def play_tricks(self):
        rules, n, trump = self.rules, self.n, self.trump
        tricks = self.rec.get("tricks")
        if not isinstance(tricks, list):
            self.stop("tricks must be a list")
        if len(tricks) < rules.n_tricks:  # DEAL_LOG.md: a played record holds every trick
            self.stop(f"{len(tricks)} tricks of {rules.n_tricks}: the record is incomplete")
        if len(tricks) > rules.n_tricks:
            self.err(f"{len(tricks)} tricks, {rules.label} has {rules.n_tricks}")
        self.winners, self.points = [], []
        self.dek_decls = []  # dekjas: (seat, Declaration, trick)
        used = {"sequence": [set(), set()], "carre": [set(), set()]}
        played = {}  # card -> (seat, trick number) of the cards played so far
        leader = 0  # §4: seat 0 leads the first trick
        for t, tr in enumerate(tricks[: rules.n_tricks]):
            k = t + 1  # the trick's number in messages, as belote show and review number them
            if tr.get("leader") != leader:
                self.err(f"trick {k}: leader {tr.get('leader')} should be seat {leader}")
            plays = tr.get("plays")
            if not isinstance(plays, list) or len(plays) != n:
                self.stop(f"trick {k}: needs {n} plays")
            trick, revealed = [], []
            for j, play in enumerate(plays):
                seat, token = play
                card = self.card(token, f"trick {k} card {j + 1}")
                expected = (leader + j) % n
                if seat != expected:
                    self.stop(f"trick {k}: card {j + 1} is played by seat {seat}, it is seat {expected}'s turn")
                hand = self.playable(seat)
                if card in played:
                    first_seat, first = played[card]
                    self.stop(f"trick {k}: card {format_card(card)} played twice: seat {first_seat} played it in "
                              f"trick {first}")
                if card not in hand:
                    what = "face-up cards" if rules.variant == "dekjas" else "hand"
                    self.stop(f"trick {k}: seat {seat} plays {format_card(card)}, not in its {what} {_fmt(hand)}")
                legal = self.legal(hand, trick, seat, card)
                if card not in legal:
                    self.err(
                        f"trick {k}: seat {seat} plays {format_card(card)} illegally, "
                        f"must play one of {_fmt(legal)} (RULES.md §4)"
                    )
                if rules.variant == "dekjas":
                    pile = next(p for p in self.piles[seat] if p and p[-1] == card)
                    pile.pop()
                    if pile:
                        revealed.append((seat, pile[-1]))  # §4: the card under turns face up
                else:
                    hand.discard(card)
                trick.append((seat, card))
                played[card] = (seat, k)
            last = t == rules.n_tricks - 1
            winner = trick_winner(trick, trump)
            pts = trick_points(trick, trump, last)
            if tr.get("winner") != winner:
                wins = format_card(dict(trick)[winner])
                self.err(f"trick {k}: winner {tr.get('winner')}, but seat {winner}'s {wins} wins it")
            if tr.get("points") != pts:
                self.err(f"trick {k}: points {tr.get('points')} should be {pts}")
            if rules.variant == "dekjas":
                got = sorted((s, self.card(c, f"trick {k} revealed")) for s, c in tr.get("revealed") or [])
                if got != sorted(revealed):
                    want = ", ".join(f"{s} {format_card(c)}" for s, c in revealed) or "none"
                    self.err(f"trick {k}: revealed should be {want}")
                self.dekjas_declare(winner, t, used)
            self.winners.append(winner)
            self.points.append(pts)
            leader = winner

    def dekjas_declare(self, seat, t, used):
        """§5 dekjas: after winning a trick, every new combination among the face-up cards
        that uses no card already used in a declaration of the same kind this hand."""
        # Reading: "face-up cards at that moment" includes the cards this trick revealed.
        face_up = {pile[-1] for pile in self.piles[seat] if pile}
        for kind in ("carre", "sequence"):
            fresh = face_up - used[kind][seat]
            for d in declarations(fresh):
                if d.kind == kind:
                    self.dek_decls.append((seat, d, t))
                    used[kind][seat].update(d.cards)

    # ---- §5 declarations and stuk ----

    def check_declarations(self):
        if self.rules.variant == "dekjas":
            expected = self.dek_decls
        else:
            # §5 classic/piekjas: at the first trick, from the cards then held
            # Reading: every seat declares everything it holds (DEAL_LOG lists them all).
            expected = [(s, d, 0) for s in range(self.n) for d in declarations(self.start[s])]
        want = Counter((s, d.kind, d.cards, d.points, t) for s, d, t in expected)
        got = Counter()
        for k, d in enumerate(self.rec.get("declarations") or []):
            cards = tuple(sorted(self.card(c, f"declarations[{k}]") for c in d.get("cards", [])))
            got[(d.get("seat"), d.get("kind"), cards, d.get("points"), d.get("trick"))] += 1

        def show(key):
            s, kind, cards, pts, t = key
            return f"seat {s} {kind} {_fmt(cards)} = {pts} at trick {t + 1}"

        for key in sorted(want - got, key=str):
            self.err(f"declaration missing: {show(key)}")
        for key in sorted(got - want, key=str):
            self.err(f"declaration not allowed or wrong: {show(key)}")
        self.decls_by_seat = [[d for s, d, _ in expected if s == seat] for seat in range(self.n)]

    def check_stuk(self):
        # §5: holding K+Q of trump (dekjas: owning them, face up or down)
        self.stuk_side = stuk_side(self.start, self.trump, self.rules)
        holder = None
        if self.stuk_side is not None:
            king = self.trump * N_RANKS + RK
            holder = next(s for s in range(self.n) if king in self.start[s])
        got = self.rec.get("stuk")
        if holder is None:
            if got:
                self.err(f"stuk {got} but nobody holds K and Q of trump")
        elif not got or got.get("seat") != holder or got.get("points") != STUK_POINTS:
            self.err(f"stuk {got} should be {{'seat': {holder}, 'points': {STUK_POINTS}}}")

    # ---- §6 result ----

    def check_result(self):
        rules, n_sides = self.rules, len(self.rules.sides)
        res = self.rec.get("result")
        if not isinstance(res, dict):
            self.stop("result is missing")
        cp, tricks_won = [0] * n_sides, [0] * n_sides
        for w, pts in zip(self.winners, self.points):
            cp[self.side[w]] += pts  # §6: the last trick's 10 goes to its winner
            tricks_won[self.side[w]] += 1
        decl_points = [0] * n_sides
        for seat, decls in enumerate(self.decls_by_seat):
            decl_points[self.side[seat]] += sum(d.points for d in decls)
        rside = roem_side(self.decls_by_seat, self.trump, rules)
        stuk = [STUK_POINTS if s == self.stuk_side else 0 for s in range(n_sides)]
        reserve_before = res.get("reserve_before", 0)
        if not isinstance(reserve_before, int) or reserve_before < 0:
            self.err(f"result.reserve_before {reserve_before!r} must be a whole number >= 0")
            reserve_before = 0
        taker = self.side[self.troefmaker]
        args = (rules, taker, cp, tricks_won, decl_points, rside, stuk, reserve_before)
        # DEAL_LOG.md totals_before (hands played inside a game): the trickless-roem rule of
        # §6 applies, in the reading of option trickless_roem; without it, a single hand
        # keeps every trickless player's declarations and stuk
        totals_before = self.rec.get("totals_before", res.get("totals_before"))
        if totals_before is not None and (
            not isinstance(totals_before, list) or len(totals_before) != n_sides
            or not all(isinstance(x, int) and x >= 0 for x in totals_before)
        ):
            self.err(f"totals_before {totals_before!r} must list {n_sides} whole numbers >= 0, one per side")
            totals_before = None
        hr = score_hand(*args, totals_before)
        pit = res.get("pit") or {}
        checks = [
            ("card_points", res.get("card_points"), hr.card_points),
            ("roem_side", res.get("roem_side"), rside),
            ("raw_totals", res.get("raw_totals"), hr.raw_totals),
            ("outcome", res.get("outcome"), hr.outcome),
            ("pit.all_tricks_side", pit.get("all_tricks_side"), hr.all_tricks_side),
            ("pit.trickless_sides", pit.get("trickless_sides"), hr.trickless_sides),
            ("reserve_after", res.get("reserve_after"), hr.reserve_after),
            ("scores", res.get("scores"), hr.scores),
        ]
        for name, got, want in checks:
            if got != want:
                self.err(f"result.{name} {got!r} should be {want!r}")
