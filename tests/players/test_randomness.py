"""The random policy is uniform over the options open at every decision it makes
(issue 7): each bidding call (round 1, round 2, with and without smous open), the smous
answer, the koe suit, and each card of each trick, the first card of the hand included.

The decisions are read from the real engine's deal logs (``analyzer.output.deallog``): for each
one the options open are rebuilt from the record (bids: RULES.md §3; cards: the legal
plays of the plain-Python reference, §4) and the chosen option's index is counted. Per
variant, rule option, decision type and number of open options, a chi-square test of
uniformity.

Tolerance: a uniform policy fails one test with probability alpha; over ``m`` tests the
Bonferroni bound makes the chance that a correct engine fails this file at most
``FAMILY_ALPHA`` = 1e-4, so each test needs p > 1e-4 / m. Seeds are fixed, so the
outcome is reproducible. The old bug (the first card reused the random number of the
last bidding call) gave p-values below 1e-100 on the first card of the hand.
"""

import math
from collections import Counter, defaultdict

import pytest

from analyzer.rules import reference
from analyzer.rules.cards import SUIT_LETTERS, parse_card
from analyzer.output.deallog import hand_record
from analyzer.players.policies import Policies
from analyzer.rules import Rules
from analyzer.runs.simulate import SimConfig

FAMILY_ALPHA = 1e-4
HANDS = 2500  # per configuration
MIN_EXPECTED = 5  # the chi-square approximation needs >= 5 expected per cell


def chi2_sf(x: float, df: int) -> float:
    """P(X >= x) for X chi-square with ``df`` degrees of freedom (closed forms: even df
    is a Poisson sum, odd df an erfc plus a finite series)."""
    if x <= 0:
        return 1.0
    if df % 2 == 0:
        m = x / 2
        term = math.exp(-m)
        total = term
        for i in range(1, df // 2):
            term *= m / i
            total += term
        return min(1.0, total)
    z = math.sqrt(x)
    total = math.erfc(z / math.sqrt(2))
    term = math.sqrt(2 / math.pi) * math.exp(-x / 2) * z  # 2 phi(z) z / 1
    for k in range(1, (df - 1) // 2 + 1):
        total += term
        term *= x / (2 * k + 1)
    return min(1.0, total)


def test_chi2_sf_matches_tabulated_quantiles():
    # the 5% and 0.1% points of the chi-square table
    for df, q05, q001 in [(1, 3.841, 10.828), (2, 5.991, 13.816), (3, 7.815, 16.266),
                          (7, 14.067, 24.322), (8, 15.507, 26.124), (15, 24.996, 37.697)]:
        assert chi2_sf(q05, df) == pytest.approx(0.05, abs=2e-4)
        assert chi2_sf(q001, df) == pytest.approx(0.001, abs=2e-5)


def _bid_options(b, rules, turned_suit):
    """The calls open to the bid ``b`` (RULES.md §3), or None if it is not a choice."""
    call = b["call"]
    if call in ("smous-play", "smous-redeal"):
        return ["smous-play", "smous-redeal"], call, "smous answer"
    if call == "koe":
        return list("cdhs"), b["suit"], "koe suit"
    smous = ["smous"] if rules.smous_allowed else []
    if b["round"] == 1:
        return ["pass", "take"] + smous, call, "round-1 call"
    any_suit = rules.variant != "classic" and rules.round2_suits == "any"
    suits = [s for s in "cdhs" if any_suit or s != SUIT_LETTERS["en"][turned_suit]]
    options = ["pass"] + [("take", s) for s in suits] + [("smous", s) for s in suits if smous]
    chosen = "pass" if call == "pass" else (call, b["suit"])
    return options, chosen, "round-2 call"


def _decisions(rec, rules, random_bidders):
    """(decision type, number of options open, index of the option chosen) for every
    random decision of one logged hand (bids: those of the ``random_bidders`` seats)."""
    turned_suit = parse_card(rec["turned"]) // 8
    for b in rec["bids"]:
        if b["seat"] not in random_bidders:
            continue
        options, chosen, what = _bid_options(b, rules, turned_suit)
        yield what, len(options), options.index(chosen)
    if rec["outcome"] != "played":
        return
    trump = SUIT_LETTERS["en"].index(rec["trump"])
    if rules.variant == "dekjas":
        piles = [[[parse_card(c) for c in pile] for pile in rec["piles"][s]] for s in range(2)]
        playable = lambda s: {p[-1] for p in piles[s] if p}  # noqa: E731  (§4 face-up cards)
    else:
        hands = [{parse_card(c) for c in h} for h in rec["start_hands"]]
        playable = lambda s: hands[s]  # noqa: E731
    for t, tr in enumerate(rec["tricks"]):
        trick = []
        for j, (seat, token) in enumerate(tr["plays"]):
            card = parse_card(token)
            legal = sorted(reference.legal_plays(playable(seat), trick, seat, trump, rules))
            what = "first card of the hand" if t == 0 and j == 0 else ("lead" if j == 0 else f"card {j + 1} of a trick")
            yield what, len(legal), legal.index(card)
            if rules.variant == "dekjas":
                next(p for p in piles[seat] if p and p[-1] == card).pop()
            else:
                hands[seat].discard(card)
            trick.append((seat, card))


# (variant, rule options, bidding policies); play is random everywhere. Random bidders
# rarely all pass twice (1 hand in 441 with 2 players, fewer with more), so the koe is
# reached by a random seat 0 facing heuristic bidders, which mostly pass.
CONFIGS = [("classic", (), "random")] + [
    (label, (f"round2_suits={r2}",), "random")
    for label in ("piekjas2", "piekjas3", "piekjas4", "dekjas") for r2 in ("other", "any")
] + [(label, (), "0=random") for label in ("piekjas2", "piekjas3", "piekjas4", "dekjas")]


def _count(label, options, bid, seed):
    rules = Rules.from_label(label, options)
    policies = Policies.parse(bid, "random", rules.players)
    random_bidders = {s for s, name in enumerate(policies.bid) if name == "random"}
    cfg = SimConfig(rules=rules, policies=policies, deals=HANDS, seed=seed)
    counts = defaultdict(Counter)
    for i in range(HANDS):
        for what, k, idx in _decisions(hand_record(cfg, i), rules, random_bidders):
            if k > 1:
                counts[(what, k)][idx] += 1
    return counts


@pytest.mark.slow
def test_random_policy_is_uniform_at_every_decision():
    groups = {}
    for n, (label, options, bid) in enumerate(CONFIGS):
        for (what, k), c in _count(label, options, bid, seed=101 + n).items():
            groups[(label, options + (f"bid={bid}",), what, k)] = c
    tested = {key: c for key, c in groups.items() if sum(c.values()) >= MIN_EXPECTED * key[3]}
    alpha = FAMILY_ALPHA / len(tested)
    failures = []
    for (label, options, what, k), c in sorted(tested.items()):
        n = sum(c.values())
        x = sum((c[i] - n / k) ** 2 / (n / k) for i in range(k))
        p = chi2_sf(x, k - 1)
        if p <= alpha:
            failures.append(f"{label} {' '.join(options)}: {what}, {k} options, n={n}: "
                            f"counts {[c[i] for i in range(k)]}, p={p:.2g}")
    assert not failures, f"non-uniform at p <= {alpha:.2g} ({len(tested)} tests):\n" + "\n".join(failures)
    # every kind of decision was tested in every variant
    for label in {c[0] for c in CONFIGS}:
        rules = Rules.from_label(label)
        kinds = {what for (lb, _, what, k) in tested if lb == label}
        want = {"round-1 call", "round-2 call", "first card of the hand", "lead", "card 2 of a trick"}
        if rules.variant != "classic":
            want.add("koe suit")
        if rules.smous_allowed:
            want.add("smous answer")
        assert want <= kinds, (label, sorted(want - kinds))
    # round 2 both with smous open (2 players) and without, naming 3 or 4 suits
    assert {k for (_, _, what, k) in tested if what == "round-2 call"} >= {4, 5, 7, 9}
