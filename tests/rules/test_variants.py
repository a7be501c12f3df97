"""The variants table (``analyzer.rules.variants``): each row says what docs/RULES.md says of its
variant, ``Rules`` reads its structure from the row, and a dealt and played hand does what the
row says (the kernels still branch on ``RulesRecord.variant``: these tests hold the two together)."""

import pytest

from analyzer.errors import BeloteError
from analyzer.rules import (ALL_LABELS, CLASSIC, DEKJAS, PIEKJAS, PLAYER_COUNTS, VARIANT_ROWS, VARIANTS, Rules,
                            default_target, option_choices)
from analyzer.rules.variants import DEFAULT_PLAYERS, VariantRow, variant_row

ROWS = list(VARIANT_ROWS.values())


# --- the rows against docs/RULES.md ---------------------------------------------------


def test_one_row_per_label_in_the_order_of_the_labels():
    assert ALL_LABELS == ("classic", "piekjas2", "piekjas3", "piekjas4", "dekjas")
    assert [r.label for r in ROWS] == list(ALL_LABELS)


def test_the_families_keep_the_kernels_codes():
    assert VARIANTS == ("classic", "piekjas", "dekjas")
    assert (VARIANTS[CLASSIC], VARIANTS[PIEKJAS], VARIANTS[DEKJAS]) == ("classic", "piekjas", "dekjas")
    for r in ROWS:
        assert Rules.from_label(r.label).record().variant == VARIANTS.index(r.family)


def test_player_counts_and_the_default_count_come_from_the_rows():
    assert PLAYER_COUNTS == {"classic": (4,), "piekjas": (2, 3, 4), "dekjas": (2,)}
    assert DEFAULT_PLAYERS == {"classic": 4, "piekjas": 3, "dekjas": 2}
    assert [Rules.make(v).label for v in VARIANTS] == ["classic", "piekjas3", "dekjas"]


def test_classic_two_teams_8_cards_8_tricks_passed_out_team_scoring_target_1000():
    r = VARIANT_ROWS["classic"]
    assert (r.family, r.players, r.partners) == ("classic", 4, True)  # §2 seats 0 + 2 against 1 + 3
    assert (r.first_deal, r.tricks, r.turned_position, r.taker_gets_turned) == (5, 8, 20, True)  # §3 classic.1, .5
    assert not (r.round2_any_option or r.smous or r.koe or r.dix or r.fille or r.piles)  # §3 classic.3, .4
    assert (r.declare_after_trick, r.team_scoring, r.target) == (False, True, 1000)  # §5, §6 classic, §7


@pytest.mark.parametrize("label,players,target", [("piekjas2", 2, 500), ("piekjas3", 3, 700)])
def test_piekjas_2_and_3_nine_tricks_dix_and_fille(label, players, target):
    r = VARIANT_ROWS[label]
    assert (r.family, r.players, r.partners) == ("piekjas", players, False)
    assert (r.first_deal, r.tricks, r.turned_position) == (6, 9, 6 * players)  # §3 piekjas.1, .7
    assert r.dix and r.fille and r.koe and r.round2_any_option and not r.taker_gets_turned  # §3 piekjas.3, .4, .6, .7
    assert r.smous == (players == 2)  # §3 piekjas.2, .5: 2 players only
    assert not (r.piles or r.declare_after_trick or r.team_scoring) and r.target == target  # §5, §6, §7


def test_piekjas_4_eight_tricks_the_taker_receives_the_turned_card():
    r = VARIANT_ROWS["piekjas4"]
    assert (r.family, r.players, r.partners) == ("piekjas", 4, False)
    assert (r.first_deal, r.tricks, r.turned_position, r.taker_gets_turned) == (5, 8, 20, True)  # §3 piekjas.1, .8
    assert r.dix and r.koe and not (r.fille or r.smous or r.piles or r.team_scoring)
    assert r.target == 1000


def test_dekjas_sixteen_tricks_from_piles_declarations_after_tricks_no_dix():
    r = VARIANT_ROWS["dekjas"]
    assert (r.family, r.players, r.partners) == ("dekjas", 2, False)
    assert (r.first_deal, r.tricks, r.turned_position) == (8, 16, 31)  # §3 dekjas.1: the dealer's last face-up card
    assert r.piles and r.declare_after_trick and r.smous and r.koe  # §3 dekjas.1-2, §5 when
    assert not (r.dix or r.fille or r.taker_gets_turned or r.team_scoring) and r.target == 500


def test_every_row_deals_at_most_the_deck():
    for r in ROWS:
        assert r.players * r.tricks <= 32 and r.players * r.first_deal <= r.turned_position < 32
        assert r.smous == (r.players == 2 and not r.team_scoring)  # §3: 2 players, not classic


def test_every_field_has_its_comment():
    import inspect

    from analyzer.rules import variants

    source = inspect.getsource(variants.VariantRow)
    for name in VariantRow._fields:
        line = next(ln for ln in source.splitlines() if ln.strip().startswith(f"{name}:"))
        assert "  # " in line, name


# --- Rules reads its row ----------------------------------------------------------------


@pytest.mark.parametrize("label", ALL_LABELS)
def test_every_label_round_trips_through_from_label(label):
    rules = Rules.from_label(label)
    assert rules.label == label and rules.row is VARIANT_ROWS[label]
    assert Rules.from_label(f" {label} ").label == label
    assert Rules.make(rules.variant, rules.players).label == label


@pytest.mark.parametrize("label", ALL_LABELS)
def test_rules_properties_are_the_rows(label):
    r, rules = VARIANT_ROWS[label], Rules.from_label(label)
    assert (rules.variant, rules.players) == (r.family, r.players)
    assert (rules.partners, rules.first_deal, rules.n_tricks, rules.smous_allowed) == (
        r.partners, r.first_deal, r.tricks, r.smous)
    assert (rules.koe, rules.dix, rules.fille, rules.piles, rules.turned_position, rules.taker_gets_turned,
            rules.declare_after_trick, rules.team_scoring) == (
        r.koe, r.dix, r.fille, r.piles, r.turned_position, r.taker_gets_turned, r.declare_after_trick, r.team_scoring)
    assert rules.target == default_target(r.family, r.players) == r.target
    assert len(rules.sides) == (2 if r.partners else r.players) == rules.record().n_sides
    rec = rules.record()
    assert (rec.n_players, rec.first_deal, rec.n_tricks) == (r.players, r.first_deal, r.tricks)


def test_an_unknown_label_or_player_count_is_refused():
    with pytest.raises(BeloteError, match="use classic, piekjas2, piekjas3, piekjas4 or dekjas"):
        Rules.from_label("piekjas5")
    with pytest.raises(BeloteError, match="no variant"):
        variant_row("classic", 2)
    assert Rules.from_label("piekjas").label == "piekjas3"


# --- a dealt and played hand does what the row says ---------------------------------------


def _hands(label, deals=200):
    from analyzer.players.policies import Policies
    from analyzer.runs.hand import RES_TURNED, TR_FILLE
    from analyzer.runs.records import kernel_config, record_from_trace
    from analyzer.runs.simulate import SimConfig, trace_hand

    rules = Rules.from_label(label)
    cfg = SimConfig(rules=rules, policies=Policies.parse("heuristic", "random", rules.players), deals=deals,
                    seed=11)
    kcfg = kernel_config(cfg)
    for i in range(deals):
        deck, res, trace = trace_hand(kcfg, i)
        yield deck, int(res[RES_TURNED]), int(trace[TR_FILLE]), record_from_trace(cfg, i, deck, res, trace)


@pytest.mark.parametrize("label", ALL_LABELS)
def test_a_dealt_hand_does_what_its_row_says(label):
    from analyzer.rules.cards import format_card

    row = VARIANT_ROWS[label]
    outcomes, calls, exchanges, later_decl = set(), set(), 0, False
    for deck, turned, fille, rec in _hands(label):
        assert turned == int(deck[row.turned_position])  # the kernel's turned card lies where the row says
        outcomes.add(rec["outcome"])
        calls |= {b["call"] for b in rec["bids"]}
        if rec["outcome"] != "played":
            continue
        assert len(rec["tricks"]) == row.tricks
        assert ("piles" in rec, "start_hands" in rec) == (row.piles, not row.piles)
        assert (fille >= 0) == row.fille and (fille < 0 or fille == int(deck[31]))  # §3 piekjas.7: the last card
        exchanges += rec["exchange"] is not None
        later_decl |= any(d["trick"] > 0 for d in rec["declarations"])  # §5 when
        if row.piles:
            continue
        assert all(len(h) == row.tricks for h in rec["start_hands"])
        table = rec["exchange"]["gave"] if rec["exchange"] else format_card(turned)
        holders = [s for s, h in enumerate(rec["start_hands"]) if table in h]
        assert holders == ([rec["troefmaker"]] if row.taker_gets_turned else [])  # §3 classic.5, piekjas.7-8
    assert ("passed_out" in outcomes) == (not row.koe) and ("koe" in calls) == row.koe  # §3 classic.4, piekjas.4
    assert ("smous" in calls) == row.smous and ("redeal" in outcomes) <= row.smous  # §3 piekjas.5
    assert (exchanges > 0) == row.dix  # §3 piekjas.6
    assert later_decl == row.declare_after_trick  # §5 when: after a won trick (dekjas), else at the first


def test_the_kernels_read_each_structural_fact_as_the_table_says():
    """``analyzer.rules.structure``: what the kernels ask of the rules record, for every label,
    equals the row's field (the record keeps its shape: the facts are computed from it)."""
    from analyzer.rules.structure import BY_FIELD

    for label, row in VARIANT_ROWS.items():
        rec = Rules.from_label(label).record()
        got = {field: bool(fact(rec)) for field, fact in BY_FIELD.items()}
        assert got == {field: bool(getattr(row, field)) for field in BY_FIELD}, label


# --- the table is the only place a structural fact lives -----------------------------------

# each field of a row and what reads it on the Python side (the kernels' side: structure.BY_FIELD)
ROW_READERS = {
    "label": lambda rules: rules.label,
    "partners": lambda rules: rules.partners,
    "first_deal": lambda rules: rules.first_deal,
    "tricks": lambda rules: rules.n_tricks,
    "turned_position": lambda rules: rules.turned_position,
    "taker_gets_turned": lambda rules: rules.taker_gets_turned,
    "round2_any_option": lambda rules: "round2_suits" in option_choices(rules.variant, rules.players),
    "smous": lambda rules: rules.smous_allowed,
    "koe": lambda rules: rules.koe,
    "dix": lambda rules: rules.dix,
    "fille": lambda rules: rules.fille,
    "piles": lambda rules: rules.piles,
    "declare_after_trick": lambda rules: rules.declare_after_trick,
    "team_scoring": lambda rules: rules.team_scoring,
    "target": lambda rules: rules.target,  # 0 resolved from the row (default_target)
}
ROW_KEYS = ("family", "players", "family_default")  # what finds a row (``variant_row``, ``DEFAULT_PLAYERS``)


def test_every_field_of_a_row_is_read_or_is_a_key():
    assert set(ROW_READERS) | set(ROW_KEYS) == set(VariantRow._fields)


@pytest.mark.parametrize("label", ALL_LABELS)
def test_every_structural_property_of_rules_reads_its_row(label, monkeypatch):
    """A row with every fact changed: each property follows it, so nothing on the Python side
    repeats a fact of the table (changing a row is enough to change what ``Rules`` says)."""
    from analyzer.rules import options

    real = VARIANT_ROWS[label]
    changed = real._replace(**{f: (not v if isinstance(v, bool) else v + 1 if isinstance(v, int) else v + "x")
                               for f, v in real._asdict().items() if f in ROW_READERS})
    monkeypatch.setattr(options, "variant_row", lambda variant, players: changed)
    rules = Rules(real.family, real.players, round2_suits="other")  # valid whether round 2 has the option or not
    for field, read in ROW_READERS.items():
        assert read(rules) == getattr(changed, field) != getattr(real, field), field
