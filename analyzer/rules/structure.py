"""The variant's structure as the kernels read it: each fact of a row of the variants table
(``analyzer.rules.variants.VariantRow``) as a function of the rules record, the one place where the
kernels turn the family code and the player count into what the rules say.

The record keeps its shape on purpose: changing its number of fields (nine more, one more, seven
fewer) made the hand loop 8-40% slower when it was tried, so the facts are computed from the
fields it has, and ``tests/rules/test_variants.py`` checks each function against the table for every label.
"""


from analyzer.compiling import njit
from analyzer.rules.variants import CLASSIC, DEKJAS, PIEKJAS


@njit(cache=True, forceinline=True)
def has_partners(rec):
    """§2: seats 0 + 2 against 1 + 3 (classic); otherwise each seat on its own (``VariantRow.partners``)."""
    return rec.variant == CLASSIC


@njit(cache=True, forceinline=True)
def taker_gets_turned(rec):
    """§3 classic.5, piekjas.8: the troefmaker takes the card on the table (``VariantRow.taker_gets_turned``)."""
    return rec.variant == CLASSIC or (rec.variant == PIEKJAS and rec.n_players == 4)


@njit(cache=True, forceinline=True)
def has_smous(rec):
    """§3 piekjas.2, dekjas.2: the smous offer, 2 players, not classic (``VariantRow.smous``)."""
    return rec.variant != CLASSIC and rec.n_players == 2


@njit(cache=True, forceinline=True)
def has_koe(rec):
    """§3 piekjas.4: two passed rounds make seat 0 the koe; in classic the deal is passed out
    (``VariantRow.koe``)."""
    return rec.variant != CLASSIC


@njit(cache=True, forceinline=True)
def has_dix(rec):
    """§3 piekjas.6: the trump 7 may be exchanged for the turned card (``VariantRow.dix``)."""
    return rec.variant == PIEKJAS


@njit(cache=True, forceinline=True)
def has_fille(rec):
    """§3 piekjas.7: 3 more cards each after bidding, the fille turned, the stock out of play
    (``VariantRow.fille``)."""
    return rec.variant == PIEKJAS and rec.n_players < 4


@njit(cache=True, forceinline=True)
def has_piles(rec):
    """§3 dekjas.1, §4: face-down piles under face-up cards (``VariantRow.piles``)."""
    return rec.variant == DEKJAS


@njit(cache=True, forceinline=True)
def declares_after_trick(rec):
    """§5: declarations after each won trick (dekjas), else at the first trick
    (``VariantRow.declare_after_trick``)."""
    return rec.variant == DEKJAS


@njit(cache=True, forceinline=True)
def team_scoring(rec):
    """§6: two teams, capot, dedans, litige (classic); else pit and rounding to ten
    (``VariantRow.team_scoring``)."""
    return rec.variant == CLASSIC


# the facts above, by the name of the row's field (tests/rules/test_variants.py checks each against the table)
BY_FIELD = {"partners": has_partners, "taker_gets_turned": taker_gets_turned, "smous": has_smous, "koe": has_koe,
            "dix": has_dix, "fille": has_fille, "piles": has_piles, "declare_after_trick": declares_after_trick,
            "team_scoring": team_scoring}
