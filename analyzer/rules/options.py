"""The rules record: one variant, its player count and every rule option of RULES.md.

``Rules`` is the readable, validated Python side (option values are words, as in
RULES.md and the deal log). What a variant is structurally (partners, cards, tricks, smous,
koe, Dix, fille, piles, scoring, target) is its row in the variants table,
``analyzer.rules.variants.VARIANT_ROWS``; ``Rules``' structural properties read it.
``Rules.record()`` gives ``RulesRecord``, the small immutable tuple of integers that every
kernel takes.
"""

from __future__ import annotations

from dataclasses import dataclass, fields, replace
from typing import NamedTuple

from analyzer.errors import BeloteError
from analyzer.rules.seats import side_of
from analyzer.rules.variants import (  # noqa: F401  (re-exported: analyzer.rules.options names them)
    ALL_LABELS, CLASSIC, DEFAULT_PLAYERS, DEKJAS, PIEKJAS, PLAYER_COUNTS, VARIANT_ROWS, VARIANTS,
    VariantRow, variant_row,
)

# Every rule option: name -> (allowed values, one-line meaning). The default depends on
# the variant for some options (``option_default``); ``option_choices`` lists, per variant
# and player count, the options that can change something, default first.
OPTIONS = {
    "round2_suits": (
        ("other", "any"),
        "round-2 trump: 'any' = all four suits (piekjas, dekjas default); "
        "'other' = any suit but the turned one (classic's only value) (RULES.md §3)",
    ),
    "roem_compare": (
        ("cards", "points"),
        "higher declaration: 'cards' = more cards, then highest card (piekjas, dekjas default); "
        "'points' = point value first (classic default) (§5)",
    ),
    "roem_tie": (
        ("none", "first"),
        "equal best declarations: 'none' = nobody scores roem; 'first' = earlier seat scores (§5)",
    ),
    "classic_tie": (
        ("litige", "made"),
        "classic, takers equal to defenders: 'litige' = takers' total to reserve; 'made' = both score (§6)",
    ),
    "undertrump": (
        ("forced", "free"),
        "cannot overtrump an opponent's trump: 'forced' = must still trump lower; 'free' = any card (§4)",
    ),
    "dix_timing": (
        ("bidding", "deal"),
        "piekjas Dix: 'bidding' = exchange right after bidding, from the cards held then; "
        "'deal' = with 2-3 players, after the last 3 cards (revision 1) (§3)",
    ),
    "trickless_roem": (
        ("wins", "target"),
        "piekjas, dekjas trickless non-troefmaker's roem and stuk in a game: 'wins' = dropped only when they make "
        "it win the game; 'target' = dropped when its total with them reaches the target (revision 1) (§6)",
    ),
}
# variant -> default, where it differs from the first allowed value
_VARIANT_DEFAULTS = {
    "round2_suits": {"piekjas": "any", "dekjas": "any"},
    "roem_compare": {"classic": "points"},
}


def option_default(key: str, variant: str) -> str:
    """The default value of rule option ``key`` in ``variant`` (RULES.md, revision 2)."""
    return _VARIANT_DEFAULTS.get(key, {}).get(variant, OPTIONS[key][0][0])


def _option_applies(key: str, variant: str, players: int) -> bool:
    """Whether option ``key`` can change anything in that variant and player count (its row)."""
    row = variant_row(variant, players)
    if key == "round2_suits":
        return row.round2_any_option  # classic round 2 always names another suit
    if key == "classic_tie":
        return row.team_scoring  # the litige is the teams' equality
    if key == "dix_timing":
        return row.dix and row.fille  # 3 more cards each after the Dix (2-3 players); with 4 the two readings agree
    if key == "trickless_roem":
        return not row.team_scoring  # the trickless player of individual scoring (pit)
    return True


def option_choices(variant: str, players: int) -> dict[str, tuple[str, ...]]:
    """For each rule option that can change something in ``variant`` with ``players``
    players, its allowed values with the variant's default first (``target`` is not in it)."""
    out = {}
    for key, (values, _) in OPTIONS.items():
        if _option_applies(key, variant, players):
            default = option_default(key, variant)
            out[key] = (default,) + tuple(v for v in values if v != default)
    return out


class RuleChange(NamedTuple):
    """One change of a rules revision that is a rule option: ``before`` -> ``after`` (the
    new default) in the variants named by ``labels`` (``ALL_LABELS`` spelling)."""

    option: str
    before: str
    after: str
    labels: tuple[str, ...]
    summary: str


REVISION_2 = (
    RuleChange("round2_suits", "other", "any", ("piekjas2", "piekjas3", "piekjas4", "dekjas"),
               "round 2 may name any of the four suits, the turned one included (the seeds' 'vrij een troef kiezen')"),
    RuleChange("dix_timing", "deal", "bidding", ("piekjas2", "piekjas3"),
               "the Dix exchange is made right after bidding: a trump 7 that arrives with the last 3 cards can no longer be exchanged"),
    RuleChange("roem_compare", "cards", "points", ("classic",),
               "the declaration worth more points wins (a carré of jacks beats a 5-sequence), as in the classic French game"),
    RuleChange("trickless_roem", "target", "wins", ("piekjas2", "piekjas3", "piekjas4", "dekjas"),
               "a trickless non-troefmaker's declarations and stuk are dropped only when they are what makes it win the game"),
)
"""Rules revision 2 (RULES.md "Changes", 2026-12-01), the changes that are rule options."""

RULE_KEYS = tuple(OPTIONS) + ("target",)


# The largest target a game may have: a game still unfinished after ``GAME_DEALS_CAP`` deals
# is cut (``analyzer.runs.games.DEFAULT_MAX_DEALS``, the same number; a test pins it), and a
# side scores far less than 500 points a hand on average (162 card points, capot and roem
# shared between the sides), so with a higher target every game would be cut (and past
# 2**63 the kernels' int64 overflows).
MAX_TARGET = 100_000
GAME_DEALS_CAP = 200


def default_target(variant: str, players: int) -> int:
    """RULES.md §7: the game's default target, the row's (``analyzer.rules.variants``)."""
    return variant_row(variant, players).target


class RulesRecord(NamedTuple):
    """What the kernels read. All integers; derived sizes are precomputed here."""

    variant: int  # CLASSIC, PIEKJAS or DEKJAS
    n_players: int  # seats 0..n-1, seat 0 voorhand, n-1 dealer
    n_sides: int  # classic 2 teams, otherwise one side per seat
    first_deal: int  # cards each seat holds at bidding (dekjas: 8 face-up)
    n_tricks: int  # tricks in a hand = cards each seat plays
    round2_any: int  # 1: round 2 may name the turned suit too
    roem_by_points: int  # 1: declarations compare by point value first
    roem_tie_first: int  # 1: equal best declarations go to the earlier seat
    classic_tie_made: int  # 1: classic equality counts as made (no litige)
    undertrump_free: int  # 1: may discard when unable to beat an opponent's trump
    dix_at_deal: int  # 1: piekjas 2-3 players, the Dix exchange after the last 3 cards (rev. 1)
    trickless_target: int  # 1: trickless roem dropped when its total reaches the target (rev. 1)
    target: int  # game target score (§7)


@dataclass(frozen=True)
class Rules:
    """A variant, a player count and the rule options (defaults are RULES.md's, revision 2;
    an option left None takes its variant's default)."""

    variant: str = "classic"
    players: int = 4
    # None = the variant's default (``option_default``); resolved by __post_init__
    round2_suits: str | None = None  # §3 round 2: 'any' suit or an 'other' than the turned one
    roem_compare: str | None = None  # §5 higher declaration: by 'cards' or by 'points' first
    roem_tie: str | None = None  # §5 equal best declarations: 'none' scores, or the 'first' seat
    classic_tie: str | None = None  # §6 classic equality: 'litige' (reserve) or 'made'
    undertrump: str | None = None  # §4.3 unable to beat an opponent's trump: 'forced' or 'free'
    dix_timing: str | None = None  # §3 piekjas.6 Dix: right after 'bidding', or after the 'deal'
    trickless_roem: str | None = None  # §6 trickless roem dropped when it 'wins' / reaches 'target'
    target: int = 0  # 0 = the variant's default (§7)

    def __post_init__(self):
        if self.variant not in VARIANTS:
            raise BeloteError(f'unknown variant "{self.variant}": use one of {", ".join(VARIANTS)}')
        allowed = PLAYER_COUNTS[self.variant]
        if self.players not in allowed:
            counts = str(allowed[0]) if len(allowed) == 1 else ", ".join(str(n) for n in allowed[:-1]) + f" or {allowed[-1]}"
            raise BeloteError(f"{self.variant} is played by {counts} players, not {self.players}: use --players {allowed[0]}")
        for key, (values, _) in OPTIONS.items():
            if getattr(self, key) is None:
                object.__setattr__(self, key, option_default(key, self.variant))
            if getattr(self, key) not in values:
                raise BeloteError(
                    f'rule {key}={getattr(self, key)} is not an option: use {key}={" or ".join(values)}'
                )
        if self.round2_suits != "other" and not _option_applies("round2_suits", self.variant, self.players):
            raise BeloteError("rule round2_suits is for piekjas and dekjas: classic round 2 always names another suit")
        if self.dix_timing != "bidding" and not _option_applies("dix_timing", self.variant, self.players):
            raise BeloteError("rule dix_timing is for piekjas with 2 or 3 players: elsewhere there is no Dix "
                              "or it is always right after bidding (use dix_timing=bidding)")
        if self.trickless_roem != "wins" and not _option_applies("trickless_roem", self.variant, self.players):
            raise BeloteError("rule trickless_roem is for piekjas and dekjas: classic has no trickless-player rule")
        if self.target < 0:
            raise BeloteError(f"rule target={self.target} must be a positive score, e.g. target=1000")
        if self.target > MAX_TARGET:
            raise BeloteError(f"rule target={self.target} must be at most {MAX_TARGET:,}: a game is cut after "
                              f"{GAME_DEALS_CAP} deals, far too few to score more, e.g. target=1000")
        if self.target == 0:
            object.__setattr__(self, "target", default_target(self.variant, self.players))

    # ---- construction from the command line ----

    @classmethod
    def make(cls, variant: str = "classic", players: int | None = None, options=()) -> "Rules":
        """Rules from a variant, an optional player count and ``KEY=VALUE`` strings."""
        if variant not in VARIANTS:
            raise BeloteError(f'unknown variant "{variant}": use one of {", ".join(VARIANTS)}')
        if players is None:
            players = DEFAULT_PLAYERS[variant]
        kwargs = {}
        for opt in options:
            key, sep, value = opt.partition("=")
            key, value = key.strip(), value.strip()
            if not sep or not key:
                raise BeloteError(f'rule "{opt}" must be KEY=VALUE, e.g. undertrump=free')
            if key not in RULE_KEYS:
                raise BeloteError(f'unknown rule "{key}": rules are {", ".join(RULE_KEYS)}')
            if key == "target":
                try:
                    kwargs[key] = int(value)
                except ValueError:
                    raise BeloteError(f'rule target={value} must be a whole number, e.g. target=1000') from None
                if kwargs[key] <= 0:
                    raise BeloteError(f"rule target={value} must be a positive score, e.g. target=1000")
            else:
                kwargs[key] = value
        return cls(variant=variant, players=players, **kwargs)

    def with_options(self, **changes) -> "Rules":
        return replace(self, **changes)

    # ---- derived facts ----

    @property
    def variant_code(self) -> int:
        return VARIANTS.index(self.variant)

    @property
    def row(self) -> VariantRow:
        """The variant's row in the table (``analyzer.rules.variants``): what it is structurally."""
        return variant_row(self.variant, self.players)

    @property
    def partners(self) -> bool:
        return self.row.partners

    def side_of(self, seat: int) -> int:
        """The side ``seat`` plays for (RULES.md §2, ``analyzer.rules.seats.side_of``)."""
        return side_of.py_func(seat, self.partners)

    @property
    def sides(self) -> list[list[int]]:
        """Seat groups that score together (DEAL_LOG.md)."""
        seats = range(self.players)
        return [[s for s in seats if self.side_of(s) == side] for side in sorted({self.side_of(s) for s in seats})]

    @property
    def first_deal(self) -> int:
        return self.row.first_deal

    @property
    def n_tricks(self) -> int:
        return self.row.tricks

    @property
    def smous_allowed(self) -> bool:
        return self.row.smous

    @property
    def koe(self) -> bool:
        """Two passed rounds make seat 0 the koe (piekjas, dekjas); else the deal is passed out."""
        return self.row.koe

    @property
    def dix(self) -> bool:
        """The trump 7 may be exchanged for the turned card (piekjas)."""
        return self.row.dix

    @property
    def fille(self) -> bool:
        """3 more cards each after bidding, the fille turned, the stock out of play (piekjas 2-3)."""
        return self.row.fille

    @property
    def piles(self) -> bool:
        """Face-down piles under face-up cards (dekjas): piles, not hands, in a record."""
        return self.row.piles

    @property
    def turned_position(self) -> int:
        """The turned card's index in the dealt deck (DEAL_LOG.md, dealing order)."""
        return self.row.turned_position

    @property
    def taker_gets_turned(self) -> bool:
        """The troefmaker takes the card on the table (classic, piekjas with 4)."""
        return self.row.taker_gets_turned

    @property
    def declare_after_trick(self) -> bool:
        """Declarations are made after each won trick (dekjas), not at the first trick."""
        return self.row.declare_after_trick

    @property
    def team_scoring(self) -> bool:
        """Classic's team scoring (capot, dedans, litige); else individual (pit, reserve, rounding)."""
        return self.row.team_scoring

    @property
    def label(self) -> str:
        """Short name used in tables: classic, piekjas3, dekjas."""
        return self.row.label

    def options(self) -> dict:
        """The resolved value of every rule option (plus target), as written in a deal
        log's ``rules`` field."""
        return {f.name: getattr(self, f.name) for f in fields(self) if f.name in RULE_KEYS}

    def record(self) -> RulesRecord:
        return RulesRecord(
            variant=self.variant_code,
            n_players=self.players,
            n_sides=2 if self.partners else self.players,
            first_deal=self.first_deal,
            n_tricks=self.n_tricks,
            round2_any=int(self.round2_suits == "any"),
            roem_by_points=int(self.roem_compare == "points"),
            roem_tie_first=int(self.roem_tie == "first"),
            classic_tie_made=int(self.classic_tie == "made"),
            undertrump_free=int(self.undertrump == "free"),
            dix_at_deal=int(self.dix_timing == "deal"),
            trickless_target=int(self.trickless_roem == "target"),
            target=self.target,
        )

    @classmethod
    def from_label(cls, label: str, options=()) -> "Rules":
        """``classic``, ``piekjas2``/``piekjas3``/``piekjas4`` or ``dekjas``."""
        label = label.strip()
        if label in VARIANT_ROWS:
            row = VARIANT_ROWS[label]
            return cls.make(row.family, row.players, options)
        if label in VARIANTS:
            return cls.make(label, None, options)
        raise BeloteError(
            f'unknown variant "{label}": use {", ".join(ALL_LABELS[:-1])} or {ALL_LABELS[-1]}'
        )
