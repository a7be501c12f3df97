"""The variants as data: one row per label (``classic``, ``piekjas2``, ``piekjas3``, ``piekjas4``,
``dekjas``), the only place that says what each is structurally (docs/RULES.md, the variants
table and §2-§7).

A row holds the facts that follow from the variant and its player count alone: partners, the
cards and tricks, where the turned card lies in the dealt deck and who gets it, which calls and
exchanges the bidding has, how the hand is scored and the game's target. The rule *options*
(readings a user may switch) are not here: they are ``analyzer.rules.options.OPTIONS``.
``Rules`` (``analyzer.rules.options``) reads its structural properties (``partners``,
``first_deal``, ``n_tricks``, ``smous_allowed``, ``koe``, ``dix``, ...) from its row, and the
Python-side code asks those properties instead of testing the variant's name. The kernels ask
the same facts of the rules record through ``analyzer.rules.structure`` (``has_partners(rec)``,
``has_piles(rec)``, ...), checked against this table for every label.

How to change a row or add a structural rule
--------------------------------------------
A fact that a row already holds (a target, a deal size within a family's pattern) changes here
and nowhere else in the code: ``Rules`` reads it (``tests/rules/test_variants.py``,
``test_every_structural_property_of_rules_reads_its_row``) and the kernels get it through the
record (``target``) or ``structure``. What else moves is the rule's text and the tests that pin
it. Worked example (made and tested on a throwaway branch): piekjas3's default
target 700 -> 1000 (the Piekjas text allows either). Files touched (``git diff --stat``)::

    analyzer/rules/variants.py     the row: target=1000
    docs/RULES.md                  the variants table, §7, the options table, the readings
    tests/rules/test_variants.py         the row's test (piekjas3, 3, 1000)
    tests/rules/test_rules.py            test_game_targets (§7)
    tests/golden/fingerprint.json  regenerated (scripts/maintainer/fingerprint.py --write): the six
                                   piekjas3 game digests change, no hand digest does
    docs/DEAL_LOG.md               the example record's ``rules`` (its target), as
                                   ``analyzer.runs.records.hand_record`` writes it

and nothing else: 554 tests of the rules, variants, games, docs, calibration, balance, impact,
input files, log replay and README passed. Not run there: ``make docs`` (README's balance
example prints each target) and the rules contract outside the repository.

A new fact (a field of ``VariantRow``) is a field here with its comment, its reader on the
Python side (a ``Rules`` property; ``ROW_READERS`` in ``tests/rules/test_variants.py`` must name it)
and, if a kernel needs it, an inline function of the record in ``analyzer.rules.structure``
(``BY_FIELD``, checked against the table) computed from the fields the record has: adding a
field to ``RulesRecord`` costs the hand loop about 17%, nine about 40% (measured). A
new row is more: a row is found by (family, player count), and the kernels derive its facts from
those two fields (``structure``), so a new label needs a new count or family the kernels can
deal and play (not tried); the web pages read the rows (``/api/options``), but their lists of
families and player counts are written in ``analyzer/web/static/take.html`` and ``review.html``.
"""

from __future__ import annotations

from typing import NamedTuple

from analyzer.errors import BeloteError

CLASSIC, PIEKJAS, DEKJAS = 0, 1, 2  # RulesRecord.variant: the family (analyzer.rules.structure reads it)


class VariantRow(NamedTuple):
    """One variant with one player count. Section numbers are docs/RULES.md's."""

    label: str  # the name in tables, reports and --variant: classic, piekjas2..4, dekjas
    family: str  # Rules.variant: classic, piekjas or dekjas (the rule text it follows)
    players: int  # §2 seats 0..players-1, seat 0 voorhand, the dealer last
    family_default: bool  # the player count `--variant FAMILY` means when --players is not given
    partners: bool  # §2 classic: seats 0 + 2 against 1 + 3; otherwise each seat on its own (§4.4 too)
    first_deal: int  # §3 cards each seat holds at bidding (dekjas: its 8 face-up cards)
    tricks: int  # §3 cards each seat plays = tricks in a hand (classic.5, piekjas.7-8, dekjas.1)
    turned_position: int  # §3 index of the turned card in the dealt deck (DEAL_LOG.md, dealing order)
    taker_gets_turned: bool  # §3 classic.5, piekjas.8: the troefmaker takes the card on the table
    round2_any_option: bool  # §3 piekjas.3: round 2 may name any suit (option round2_suits); classic: another only
    smous: bool  # §3 piekjas.2, piekjas.5, dekjas.2: the smous offer (2 players, not classic)
    koe: bool  # §3 piekjas.4: two passed rounds make seat 0 the koe; else the deal is passed out (classic.4)
    dix: bool  # §3 piekjas.6: the trump 7 may be exchanged for the turned card
    fille: bool  # §3 piekjas.7: 3 more cards each after bidding, then the fille is turned; the stock stays out
    piles: bool  # §3 dekjas.1, §4: face-down piles under face-up cards, turned up as play uncovers them
    declare_after_trick: bool  # §5 when: declarations after each won trick (dekjas), else at the first trick
    team_scoring: bool  # §6 classic: two teams, capot, dedans, litige, no rounding; else pit and rounding to ten
    target: int  # §7 the game's default target


_ROWS = (
    VariantRow("classic", family="classic", players=4, family_default=True, partners=True,
               first_deal=5, tricks=8, turned_position=20, taker_gets_turned=True, round2_any_option=False,
               smous=False, koe=False, dix=False, fille=False, piles=False,
               declare_after_trick=False, team_scoring=True, target=1000),
    VariantRow("piekjas2", family="piekjas", players=2, family_default=False, partners=False,
               first_deal=6, tricks=9, turned_position=12, taker_gets_turned=False, round2_any_option=True,
               smous=True, koe=True, dix=True, fille=True, piles=False,
               declare_after_trick=False, team_scoring=False, target=500),
    VariantRow("piekjas3", family="piekjas", players=3, family_default=True, partners=False,
               first_deal=6, tricks=9, turned_position=18, taker_gets_turned=False, round2_any_option=True,
               smous=False, koe=True, dix=True, fille=True, piles=False,
               declare_after_trick=False, team_scoring=False, target=700),
    VariantRow("piekjas4", family="piekjas", players=4, family_default=False, partners=False,
               first_deal=5, tricks=8, turned_position=20, taker_gets_turned=True, round2_any_option=True,
               smous=False, koe=True, dix=True, fille=False, piles=False,
               declare_after_trick=False, team_scoring=False, target=1000),
    VariantRow("dekjas", family="dekjas", players=2, family_default=True, partners=False,
               first_deal=8, tricks=16, turned_position=31, taker_gets_turned=False, round2_any_option=True,
               smous=True, koe=True, dix=False, fille=False, piles=True,
               declare_after_trick=True, team_scoring=False, target=500),
)

VARIANT_ROWS: dict[str, VariantRow] = {r.label: r for r in _ROWS}
"""The table: label -> row, in the order of ``ALL_LABELS``."""

ALL_LABELS = tuple(VARIANT_ROWS)
VARIANTS = tuple(dict.fromkeys(r.family for r in _ROWS))  # ("classic", "piekjas", "dekjas"): index = code
PLAYER_COUNTS = {v: tuple(r.players for r in _ROWS if r.family == v) for v in VARIANTS}
DEFAULT_PLAYERS = {r.family: r.players for r in _ROWS if r.family_default}
_BY_SEATS = {(r.family, r.players): r for r in _ROWS}


def variant_row(variant: str, players: int) -> VariantRow:
    """The row of ``variant`` (a family: classic, piekjas, dekjas) played by ``players``."""
    row = _BY_SEATS.get((variant, players))
    if row is None:
        raise BeloteError(f'no variant "{variant}" with {players} players: use one of {", ".join(ALL_LABELS)}')
    return row


__all__ = ["CLASSIC", "PIEKJAS", "DEKJAS", "VariantRow", "VARIANT_ROWS", "ALL_LABELS", "VARIANTS", "PLAYER_COUNTS",
           "DEFAULT_PLAYERS", "variant_row"]
