"""The schema of a ``belote-deal/1`` record (docs/DEAL_LOG.md), checked before anything uses one.

``check_record`` is the one gate: the log reader of ``belote show`` and ``belote review``
(``output.deallog``) and the reference replay (``rules.reference.replay``) pass every record
through it, so none meets a record it cannot read. It checks shape, not play: every field has
its type, each card and suit is notation, each seat is one of the record's players and each
side one of its sides, lists that hold one entry per seat or per side hold that many, the
variant, player count and rule options make real rules (``Rules``), and a played record has
what a played hand records (``PLAYED_FIELDS``). Whether the bids, plays and scores follow the
rules is the replay's question. Fields DEAL_LOG.md does not name are allowed and kept.

The names (calls, outcomes, declaration kinds) are spelt here as DEAL_LOG.md spells them,
not imported from the engine: the format is the contract, and the reference replay stays
independent of the code it checks.

Checked in two steps: the header (schema, variant, players, rules) first, since the range
of a seat or a side and the length of a per-seat list depend on it; then the whole record,
with those sizes in the validation context.
"""

from __future__ import annotations

import re
from typing import Annotated, Optional

from pydantic import BaseModel, BeforeValidator, ConfigDict, Field, ValidationInfo, model_validator

from analyzer.errors import BeloteError
from analyzer.rules.options import RULE_KEYS, VARIANTS, Rules
from analyzer.schema import check, choice, whole

SCHEMA = "belote-deal/1"
CALLS = ("pass", "take", "smous", "smous-play", "smous-redeal", "koe")  # DEAL_LOG.md bids[].call
KOE_ROUND = 3  # DEAL_LOG.md: the koe is recorded as round 3, after two passed rounds
OUTCOMES = ("played", "passed_out", "redeal")
HAND_OUTCOMES = ("made", "dedans", "tie")
KINDS = ("sequence", "carre")
PLAYED_FIELDS = ("trump", "troefmaker", "tricks", "declarations", "result")
_CARD = re.compile(r"[789TJQKA][cdhs]")

Points = whole(-10 ** 9, 10 ** 9)  # a whole number of points (scores, totals: bounded only against typos)


def _card(value):
    if not isinstance(value, str) or not _CARD.fullmatch(value):
        raise ValueError(f"must be a card, rank then suit (7 8 9 T J Q K A, c d h s) like 'Th', not {value!r}"[:120])
    return value


def _suit(value):
    if value not in ("c", "d", "h", "s"):
        raise ValueError(f"must be a suit letter c, d, h or s, not {value!r}"[:80])
    return value


def _index_of(what: str, count: str):
    """A whole number naming one of the record's seats or sides (``count`` in the context)."""
    def check_index(value, info: ValidationInfo):
        n = info.context[count]
        if not isinstance(value, int) or isinstance(value, bool) or not 0 <= value < n:
            raise ValueError(f"must be a {what} 0..{n - 1}, not {value!r}"[:80])
        return value

    return Annotated[int, BeforeValidator(check_index)]


def _per(what: str, count: str, item):
    """A list of one ``item`` per seat or per side (``count`` in the context)."""
    def check_length(value, info: ValidationInfo):
        n = info.context[count]
        if isinstance(value, list) and len(value) != n:
            raise ValueError(f"must list {n} {what}, one per {count[:-1]}, not {len(value)}")
        return value

    return Annotated[list[item], BeforeValidator(check_length)]


def _exactly(n: int, item):
    def check_length(value):
        if isinstance(value, list) and len(value) != n:
            raise ValueError(f"must list {n}, not {len(value)}")
        return value

    return Annotated[list[item], BeforeValidator(check_length)]


def _flag(value):
    if not isinstance(value, bool):
        raise ValueError(f"must be true or false, not {value!r}"[:80])
    return value


Card = Annotated[str, BeforeValidator(_card)]
Suit = Annotated[str, BeforeValidator(_suit)]
Flag = Annotated[bool, BeforeValidator(_flag)]
Seat = _index_of("seat", "seats")
Side = _index_of("side", "sides")
SeatCard = tuple[Seat, Card]  # [seat, card]
PolicyName = str | dict[str, str | dict[str, str]]  # one name, or per seat / per role


class _Open(BaseModel):
    """A record of the format: the named fields checked, any other kept (DEAL_LOG.md). Not
    ``analyzer.schema.Open``: that one is strict, and strict pydantic refuses the JSON lists a
    record holds where a field is a tuple (``[seat, card]``)."""

    model_config = ConfigDict(extra="allow", frozen=True)


class Header(_Open):
    schema_: choice(SCHEMA) = Field(alias="schema")  # ``schema`` would shadow a BaseModel method
    variant: choice(*VARIANTS)
    players: whole(2, 4)
    rules: dict[choice(*RULE_KEYS), str | int] = {}  # an option left out takes its default


class Bid(_Open):
    seat: Seat
    round: whole(1, KOE_ROUND)
    call: choice(*CALLS)
    suit: Optional[Suit] = None


class Policies(_Open):
    bid: PolicyName
    play: PolicyName


class Exchange(_Open):
    seat: Seat
    gave: Card
    got: Card


class Trick(_Open):
    leader: Seat
    plays: _per("plays", "seats", SeatCard)
    winner: Seat
    points: whole(0, 162)  # RULES.md §1: 152 card points and the last trick's 10
    revealed: Optional[list[SeatCard]] = None


class Declaration(_Open):
    seat: Seat
    kind: choice(*KINDS)
    cards: list[Card]
    points: whole(0, 200)  # a carré of jacks
    trick: whole(0, 15)


class Stuk(_Open):
    seat: Seat
    points: whole(0, 20)


class Pit(_Open):
    all_tricks_side: Optional[Side]
    trickless_sides: list[Side]


class Result(_Open):
    card_points: _per("numbers", "sides", whole(0, 252))  # classic capot: 252
    roem_side: Optional[Side]
    raw_totals: _per("numbers", "sides", Points)
    outcome: choice(*HAND_OUTCOMES)
    pit: Pit
    reserve_before: Points
    reserve_after: Points
    scores: _per("numbers", "sides", Points)


class DealRecord(_Open):
    seed: whole(0, 2 ** 64 - 1)
    deal: whole(0)
    game: Optional[whole(0)] = None
    policies: Policies
    sides: list[list[Seat]]
    deck: _exactly(32, Card)
    turned: Card
    bids: list[Bid]
    outcome: choice(*OUTCOMES)
    totals_before: Optional[_per("whole numbers", "sides", Points)] = None
    trump: Optional[Suit] = None
    troefmaker: Optional[Seat] = None
    koe: Flag = False
    exchange: Optional[Exchange] = None
    fille: Optional[Card] = None
    start_hands: Optional[_per("hands", "seats", list[Card])] = None
    piles: Optional[_per("pile lists", "seats", _exactly(8, _exactly(2, Card)))] = None
    tricks: Optional[list[Trick]] = None
    declarations: Optional[list[Declaration]] = None
    stuk: Optional[Stuk] = None
    result: Optional[Result] = None

    @model_validator(mode="after")
    def _played(self, info: ValidationInfo):
        if self.outcome != "played":
            return self
        missing = [f for f in PLAYED_FIELDS if getattr(self, f) is None]
        hands = "piles" if info.context["piles"] else "start_hands"
        if getattr(self, hands) is None:
            missing.append(hands)
        if missing:
            raise ValueError(f"{missing[0]}: is missing: a played {info.context['variant']} record has "
                             f"{', '.join(PLAYED_FIELDS)} and {hands}")
        return self


def check_record(record, where: str = "record", fix: str = "") -> Rules:
    """Refuse (``BeloteError``: ``WHERE: FIELD: what it must be: FIX``) a record that does
    not have the shape of ``belote-deal/1``; return its rules."""
    head = check(Header, record, where, fix)
    try:
        rules = Rules(variant=head.variant, players=head.players, **head.rules)
    except BeloteError as e:
        raise BeloteError(f"{where}: rules: {e}" + (f": {fix}" if fix else "")) from None
    check(DealRecord, record, where, fix,
          context={"seats": rules.players, "sides": len(rules.sides), "variant": rules.variant, "piles": rules.piles})
    return rules
