"""The numba engine agrees with the plain-Python reference on at least 100,000 random
positions, hands and scores each (issue: kernels vs reference)."""

import random

import pytest

from analyzer.rules import ALL_LABELS, Rules, option_choices

ALL_RULES = [Rules.from_label(label) for label in ALL_LABELS]

N_CASES = 100_000


_MADE = {}


def _with(rules, options):
    """``rules.with_options(**options)``, made once per combination (a few dozen) rather than once per case."""
    key = (rules, tuple(sorted(options.items())))
    if key not in _MADE:
        _MADE[key] = rules.with_options(**options)
    return _MADE[key]


def _random_options(rng, rules=None):
    """Random values of the options that apply to ``rules`` (all options of its variant
    and player count, rules.option_choices), or of the options every variant takes."""
    if rules is None:
        return dict(
            roem_compare=rng.choice(["cards", "points"]),
            roem_tie=rng.choice(["none", "first"]),
            classic_tie=rng.choice(["litige", "made"]),
            undertrump=rng.choice(["forced", "free"]),
        )
    return {k: rng.choice(v) for k, v in option_choices(rules.variant, rules.players).items()}


@pytest.mark.slow
def test_engine_agrees_with_reference_on_legal_plays_and_tricks():
    import analyzer.rules.engine as eng
    import analyzer.rules.reference as ref

    rng = random.Random(7)
    for _ in range(N_CASES):
        rules = _with(rng.choice(ALL_RULES), _random_options(rng))
        n = rules.players
        cards = rng.sample(range(32), rng.randint(2, 12))
        k = rng.randint(0, n - 1)
        leader = rng.randrange(n)
        trick = [((leader + j) % n, c) for j, c in enumerate(cards[:k])]
        hand = cards[k:]
        seat = (leader + k) % n
        trump = rng.randrange(4)
        assert eng.legal_plays(hand, trick, seat, trump, rules) == ref.legal_plays(hand, trick, seat, trump, rules)
        if trick:
            assert eng.trick_winner(trick, trump) == ref.trick_winner(trick, trump)
            last = rng.random() < 0.5
            assert eng.trick_points(trick, trump, last) == ref.trick_points(trick, trump, last)


@pytest.mark.slow
def test_engine_agrees_with_reference_on_declarations():
    import analyzer.rules.engine as eng
    import analyzer.rules.reference as ref

    rng = random.Random(8)
    for _ in range(N_CASES):
        rules = _with(rng.choice(ALL_RULES), _random_options(rng))
        trump = rng.randrange(4)
        deck = rng.sample(range(32), 32)
        size = 16 if rules.variant == "dekjas" else 9
        hands = [deck[size * s : size * (s + 1)][: rng.randint(3, size)] for s in range(rules.players)]
        by_seat = []
        for h in hands:
            d = ref.declarations(h)
            assert sorted(eng.declarations(h)) == sorted(d)  # the order is each module's own
            by_seat.append(d)
        # keys need only order the same way (their type is the implementation's)
        every = [x for d in by_seat for x in d]
        for x, y in zip(every, every[1:] + every[:1]):  # neighbours, and last with first
            kx, ky = ref.declaration_key(x, trump, rules), ref.declaration_key(y, trump, rules)
            ex, ey = eng.declaration_key(x, trump, rules), eng.declaration_key(y, trump, rules)
            assert ((ex > ey) - (ex < ey)) == ((kx > ky) - (kx < ky)), (x, y, rules)
        assert eng.roem_side(by_seat, trump, rules) == ref.roem_side(by_seat, trump, rules)
        assert eng.stuk_side(hands, trump, rules) == ref.stuk_side(hands, trump, rules)


@pytest.mark.slow
def test_engine_agrees_with_reference_on_scoring():
    import analyzer.rules.engine as eng
    import analyzer.rules.reference as ref

    rng = random.Random(9)
    for _ in range(N_CASES):
        rules = rng.choice(ALL_RULES)
        rules = _with(rules, _random_options(rng, rules))
        n_sides = len(rules.sides)
        tricks = [0] * n_sides
        points = [0] * n_sides
        for t in range(rules.n_tricks):
            s = rng.randrange(n_sides)
            tricks[s] += 1
            points[s] += rng.randint(0, 30) + (10 if t == rules.n_tricks - 1 else 0)
        if rules.variant == "classic":  # classic card points always sum to 162
            a = rng.randint(0, 162) if all(tricks) else (162 if tricks[0] else 0)
            points = [a, 162 - a]
        decl = [rng.choice([0, 0, 20, 40, 50, 100, 150, 200, 270]) for _ in range(n_sides)]
        roem = rng.choice([None] + list(range(n_sides)))
        stuk = [0] * n_sides
        holder = rng.choice([None] + list(range(n_sides)))
        if holder is not None:
            stuk[holder] = 20
        taker = rng.randrange(n_sides)
        reserve = rng.choice([0, 0, 41, 162])
        # game totals (multiples of ten), often near the target so that the trickless-roem
        # rule (§6) decides: some just under it, some at it after a tie that played on
        near = lambda: rules.target - 10 * rng.randint(0, 30)  # noqa: E731
        totals = rng.choice([None, [10 * rng.randint(0, rules.target // 10) for _ in range(n_sides)],
                             [near() for _ in range(n_sides)]])
        args = (rules, taker, points, tricks, decl, roem, stuk, reserve, totals)
        a, b = ref.score_hand(*args), eng.score_hand(*args)
        for f in ("outcome", "card_points", "raw_totals", "scores", "reserve_after", "all_tricks_side", "trickless_sides"):
            assert getattr(b, f) == getattr(a, f), (f, args)


def test_every_suit_lane_declares_the_reference_sequences():
    """Every one of the 256 sets of cards of a suit, in every suit (with the other suits' cards beside
    it, which are no part of its runs): ``find_declarations``' sequences (its lane table,
    ``declarations.LANE_RUNS``) are the reference's, in the kernel's order (by suit, then rank)."""
    import numpy as np

    import analyzer.rules.reference as ref
    from analyzer.rules.declarations import MAX_DECLARATIONS, SEQUENCE, find_declarations

    kinds = np.zeros(MAX_DECLARATIONS, np.int64)
    masks = np.zeros(MAX_DECLARATIONS, np.uint32)
    points = np.zeros(MAX_DECLARATIONS, np.int64)
    others = 0b10100101  # a fixed pattern in the other lanes: 7 9 Q A, no run of 3
    for suit in range(4):
        for lane in range(256):
            pool = sum((lane if s == suit else others) << (8 * s) for s in range(4))
            cards = [c for c in range(32) if pool >> c & 1]
            n = find_declarations(np.uint32(pool), np.uint32(pool), kinds, masks, points)
            got = [(int(masks[i]), int(points[i])) for i in range(n) if kinds[i] == SEQUENCE]
            want = [(sum(1 << c for c in d.cards), d.points) for d in ref.declarations(cards) if d.kind == "sequence"]
            assert got == want, (suit, bin(lane))
