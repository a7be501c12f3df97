"""The play policies' registry (``analyzer.players.policies.PLAY_REGISTRY``): one row per policy,
and every table that knows a policy's code, parameters or default samples reads it."""

from analyzer.players import play
from analyzer.players.policies import (PARAM_WORDS, PLAY_PARAMS, PLAY_POLICIES, PLAY_REGISTRY, SEARCH_PLAY,
                                       play_code, searches)


def test_each_row_names_one_kernel_kind():
    codes = [p.code for p in PLAY_REGISTRY]
    assert len(set(codes)) == len(codes) and all(0 <= c <= play.KIND_MASK for c in codes)
    assert len({p.name for p in PLAY_REGISTRY}) == len(PLAY_REGISTRY)
    for p in PLAY_REGISTRY:
        assert play_code(p.name) & play.KIND_MASK == p.code
        assert PLAY_POLICIES[p.name] == (p.code, p.meaning)


def test_the_kinds_that_read_the_game_state_are_the_ones_the_hand_hands_to_the_state_entry():
    """The hand sends a kind to the searching and learned players' entry when it is at least
    play.FIRST_STATE_KIND (analyzer.runs.hand, analyzer.players.strong.plays_strong)."""
    for p in PLAY_REGISTRY:
        assert p.reads in ("view", "state")
        assert (p.code >= play.FIRST_STATE_KIND) == (p.reads == "state"), p.name


def test_parameters_fit_above_the_kind_byte_without_overlapping():
    for p in PLAY_REGISTRY:
        used = 0
        for key, (bits, lo, hi, default, meaning) in p.params.items():
            assert bits >= 8 and bits + 8 <= 63, (p.name, key)  # a byte each, above the kind's
            field = 0xFF << bits
            assert used & field == 0, (p.name, key)
            used |= field
            assert 0 <= lo <= default <= hi <= 0xFF and meaning, (p.name, key)
            words = p.words.get(key)
            assert words is None or len(words) == hi - lo + 1, (p.name, key)
        assert PLAY_PARAMS.get(p.name, {}) == p.params
        assert {k for (name, k) in PARAM_WORDS if name == p.name} == set(p.words)


def test_every_searching_policy_has_its_default_samples_and_its_bound():
    """What the brackets give a searching policy by default, and the most a page may ask for."""
    from analyzer.questions import bracket, table_bracket
    from analyzer.web import work

    assert set(SEARCH_PLAY) == {p.name for p in PLAY_REGISTRY if p.searches}
    for p in PLAY_REGISTRY:
        assert searches(p.name) == p.searches and searches(p.name + ":worlds=8") == p.searches
        if p.searches:
            assert bracket.STRONG_DEALS[p.name] == p.bracket_deals > 0
            assert table_bracket.STRONG_DEALS[p.name] == p.table_deals > 0
            assert work.MAX_STRONG_DEALS[p.name] == p.web_max_deals >= p.bracket_deals
        else:  # as cheap as a table: every deal, the heuristic's n
            assert p.name not in bracket.STRONG_DEALS and p.name not in table_bracket.STRONG_DEALS


def test_every_searching_policy_has_a_rate_in_every_variant_for_the_estimates():
    """``table_bracket.plan`` and the report's plan price a searching policy's hands before a run
    measures them: from its row, in every variant."""
    from analyzer.questions.table_bracket import HANDS_PER_S, NO_DD_LABELS
    from analyzer.rules import ALL_LABELS

    for p in PLAY_REGISTRY:
        if p.searches:
            assert set(p.hands_per_s) == set(ALL_LABELS) and min(p.hands_per_s.values()) > 0, p.name
            assert all(HANDS_PER_S[p.name, label] == rate for label, rate in p.hands_per_s.items())
        assert set(p.not_by_default) <= set(ALL_LABELS)
    assert NO_DD_LABELS == next(p for p in PLAY_REGISTRY if p.name == "dd").not_by_default
