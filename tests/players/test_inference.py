"""Worlds that read the bidding (``pimc:infer=bids``, ``analyzer.players.knowledge``).

- a seat's bid hand is drawn uniformly among the subsets its cards over the hand allow, and
  on the real deal the true bid hand (the first cards the deck dealt it) is one of them;
- a world fits the bidding with probability its likelihood: per seat, the share of its bid
  hands under which its policy makes the calls the log records (a slow reference that
  replays the logged calls one by one on every subset);
- the worlds kept follow the posterior: the rejection sampler's worlds against uniform
  worlds weighted by that reference.
"""

import itertools
import math

import numpy as np
import pytest

from analyzer.game.dealing import first_hands
from analyzer.game.state import ST_HANDS, ST_TO_MOVE, legal_cards, play_card, start_state
from analyzer.players import public_from_record
from analyzer.players.bidding import answer_smous, choose_bid, choose_koe_suit
from analyzer.rules.calls import CALL_NAMES, PASS
from analyzer.players.knowledge import (
    PUB_BID_PARAMS,
    PUB_BID_POL,
    PUB_FORCED,
    bids_fit,
    draw_bid_hand,
    note_stuk,
    observe,
    prepare,
    prepare_bids,
    sample_fitting_world,
    sample_world,
)
from analyzer.players.bidding import N_BID_PARAMS
from analyzer.players.policies import Policies
from analyzer.players.strong import PIMC_TT_BITS, make_strong
from analyzer.runs.records import hand_record
from analyzer.runs.simulate import SimConfig
from analyzer.rules import Rules
from analyzer.rules.cards import R7, mask_to_cards, parse_card, parse_cards, parse_suit

LABELS = ("classic", "piekjas2", "piekjas3", "piekjas4")


def _records(label, bid, count, seed):
    rules = Rules.from_label(label)
    cfg = SimConfig(rules=rules, policies=Policies.parse(bid, "heuristic", rules.players), deals=count, seed=seed,
                    threads=1)
    for i in range(count):
        r = hand_record(cfg, i)
        if r["outcome"] == "played":
            yield rules, r


def _state_after(rules, record, plays):
    """The state of the logged hand after its first ``plays`` cards."""
    rec = rules.record()
    hands = [parse_cards(" ".join(h)) for h in record["start_hands"]]
    st = start_state(rules, hands, parse_suit(record["trump"]), int(record["troefmaker"]), 0)
    cards = [parse_card(c) for t in record["tricks"] for _, c in t["plays"]]
    for c in cards[:plays]:
        assert (int(legal_cards(st, rec)) >> c) & 1
        play_card(st, rec, c)
    return st


def _true_bid_hands(rules, record):
    deck = np.array([parse_card(c) for c in record["deck"]], np.int64)
    own = np.zeros(4, np.uint32)
    first_hands(deck, rules.players, rules.first_deal, own)
    return [int(own[s]) for s in range(rules.players)]


def _played_by(st, rules, seat, record, plays):
    cards = [(s, parse_card(c)) for t in record["tricks"] for s, c in t["plays"]][:plays]
    return sum(1 << c for s, c in cards if s == seat)


def _pool(world_hand, played, rules, record, seat):
    """The reference's pool and fixed cards of ``seat``'s bid hand (knowledge module docstring),
    written from the record."""
    d = world_hand | played
    fixed = 0
    if rules.players == 4 and seat == int(record["troefmaker"]):
        exch = record["exchange"]
        d &= ~(1 << parse_card(exch["gave"] if exch else record["turned"]))
    exch = record["exchange"]
    if exch and int(exch["seat"]) == seat:
        d &= ~(1 << parse_card(exch["got"]))
        fixed = 1 << parse_card(exch["gave"])
        d &= ~fixed
    return d, fixed


def _calls_fit(rules, record, params, codes, seat, hand, forced=None):
    """Replay the logged calls of ``seat`` on bid hand ``hand`` (a mask), one by one (but the
    call ``forced``, (seat, round), which a question made)."""
    rec = rules.record()
    rng = np.zeros(1, np.uint64)
    turned = parse_card(record["turned"])
    trump = parse_suit(record["trump"])
    if rules.variant == "piekjas" and trump == turned >> 3 and not record["exchange"] and (hand >> (8 * trump + R7)) & 1:
        return False  # the Dix is always made
    if codes[seat] == 0:  # the random bidder's calls tell nothing
        return True
    for b in record["bids"]:
        if b["seat"] != seat or (b["seat"], b["round"]) == forced:
            continue
        if b["call"] in ("smous-play", "smous-redeal"):
            suit = parse_suit(record["trump"])
            got = CALL_NAMES[answer_smous(codes[seat], params[seat], np.uint32(hand), turned, suit, rec, rng)]
            if got != b["call"]:
                return False
        elif b["call"] == "koe":
            if choose_koe_suit(codes[seat], params[seat], np.uint32(hand), turned, rec, rng) != parse_suit(b["suit"]):
                return False
        else:
            call, suit = choose_bid(codes[seat], params[seat], seat, b["round"], np.uint32(hand), turned, rec, rng)
            if CALL_NAMES[call] != b["call"] or (call != PASS and suit != parse_suit(b["suit"])):
                return False
    return True


def _likelihood(rules, record, world, viewer, played, codes, params, forced=None):
    """The reference likelihood of the logged calls in ``world``: per seat, the share of its
    bid hands (every subset, enumerated) under which its calls are the logged ones."""
    total = 1.0
    for s in range(rules.players):
        if s == viewer:
            continue
        d, fixed = _pool(int(world[ST_HANDS + s]), played[s], rules, record, s)
        need = rules.first_deal - bin(fixed).count("1")
        subsets = list(itertools.combinations(mask_to_cards(d), need))
        fit = sum(_calls_fit(rules, record, params, codes, s, fixed | sum(1 << c for c in sub), forced)
                  for sub in subsets)
        total *= fit / len(subsets)
    return total


def _turn(rules, record, rng, takers):
    """A number of cards played after which another seat than the troefmaker is to move (whose
    worlds the troefmaker's calls tell about), or (``takers``) the troefmaker (whose worlds a
    smous answer tells about)."""
    while True:
        plays = int(rng.integers(0, len(record["tricks"]) * rules.players - 1))
        if (int(_state_after(rules, record, plays)[ST_TO_MOVE]) == int(record["troefmaker"])) == takers:
            return plays


def _setup(rules, record, plays, forced=None):
    st = _state_after(rules, record, plays)
    rec = rules.record()
    pub = public_from_record(record, rules)
    if forced is not None:
        pub[PUB_FORCED] = 4 * forced[0] + forced[1]
    seat = int(st[ST_TO_MOVE])
    sw = make_strong(rec.variant, PIMC_TT_BITS)
    view = np.zeros_like(st)
    note_stuk(pub, st, rec)  # stuk announced in the play so far
    observe(st, rec, pub, seat, view)
    assert prepare(view, rec, pub, seat, sw, True) > 0
    assert prepare_bids(view, rec, pub, seat, sw)
    played = [_played_by(st, rules, s, record, plays) for s in range(4)]
    codes = pub[PUB_BID_POL:PUB_BID_POL + 4]
    params = pub[PUB_BID_PARAMS:PUB_BID_PARAMS + 4 * N_BID_PARAMS].view(np.float64).reshape(4, N_BID_PARAMS)
    return st, rec, pub, seat, sw, view, played, codes, params


@pytest.mark.parametrize("label", LABELS)
def test_bid_hands_are_uniform_subsets_that_hold_the_true_one(label):
    """On the real deal, every seat's drawn bid hand has the bidding's cards, lies in its
    cards over the hand, and the true bid hand is among the subsets, each drawn about
    equally often (chi-square, p = 0.001)."""
    checked = 0
    for rules, record in _records(label, "heuristic", 60, 3):
        plays = len(record["tricks"]) * rules.players // 2
        st, rec, pub, seat, sw, view, played, codes, params = _setup(rules, record, plays)
        true = _true_bid_hands(rules, record)
        sw.rng[0] = np.uint64(checked + 1)
        for s in range(rules.players):
            if s == seat:
                continue
            d, fixed = _pool(int(st[ST_HANDS + s]), played[s], rules, record, s)
            assert true[s] & ~(d | fixed) == 0 and fixed & ~true[s] == 0, (label, s)
            need = rules.first_deal - bin(fixed).count("1")
            n_sub = math.comb(bin(d).count("1"), need)
            per = 40
            counts = {}
            for _ in range(per * n_sub):
                h = int(draw_bid_hand(st, rec, pub, s, sw.bidev, sw.rng))
                assert bin(h).count("1") == rules.first_deal and h & fixed == fixed and h & ~(d | fixed) == 0
                counts[h] = counts.get(h, 0) + 1
            assert len(counts) == n_sub and true[s] in counts
            chi2 = sum((k - per) ** 2 / per for k in counts.values())
            df = n_sub - 1
            assert chi2 < df * (1 - 2 / (9 * df) + 3.0902 * math.sqrt(2 / (9 * df))) ** 3
        checked += 1
        if checked == 3:
            break
    assert checked == 3


KINDS = {
    "any": lambda r: True,
    "round 2": lambda r: r["bids"][-1]["round"] == 2,
    "koe": lambda r: r["bids"][-1]["call"] == "koe",
    "smous": lambda r: any(b["call"] == "smous" for b in r["bids"]),
    "dix": lambda r: r["exchange"] is not None,
    "no dix": lambda r: r["exchange"] is None and r["trump"] == r["turned"][1],
}


@pytest.mark.parametrize("label,bid,force,kind", [(lb, "heuristic", False, "any") for lb in LABELS] + [
    ("classic", "calibrated", False, "any"), ("piekjas2", "calibrated", False, "any"),
    ("classic", "heuristic", True, "any"), ("classic", "heuristic", False, "round 2"),
    ("piekjas3", "heuristic", False, "koe"), ("piekjas2", "heuristic", False, "smous"),
    ("piekjas2", "heuristic", False, "dix"), ("piekjas4", "heuristic", False, "dix"),
    ("piekjas3", "heuristic", False, "no dix")])
def test_a_world_fits_the_bidding_with_its_likelihood(label, bid, force, kind):
    """For uniform worlds of logged positions (of each kind of bidding: a take in round 2, a
    koe, a smous played, a Dix made or not), the share of draws in which ``bids_fit`` keeps the
    world is the reference likelihood (within 4.5 standard errors); the real deal fits. A
    call a question forced (``force``: the troefmaker's take) is no evidence."""
    rng = np.random.default_rng(5)
    checked = 0
    between = 0
    for rules, record in _records(label, bid, 3000, 7):
        if not KINDS[kind](record):
            continue
        plays = _turn(rules, record, rng, kind == "smous")
        forced = (int(record["troefmaker"]), int(record["bids"][-1]["round"])) if force else None
        st, rec, pub, seat, sw, view, played, codes, params = _setup(rules, record, plays, forced)
        sw.rng[0] = np.uint64(checked + 11)
        assert _likelihood(rules, record, st, seat, played, codes, params, forced) > 0  # the real deal
        world = np.zeros_like(st)
        for _ in range(3):
            sample_world(view, rec, sw, world)
            ref = _likelihood(rules, record, world, seat, played, codes, params, forced)
            draws = 1500
            kept = sum(bool(bids_fit(world, rec, pub, seat, sw.bidev, sw.rng)) for _ in range(draws))
            se = math.sqrt(max(ref * (1 - ref), 1e-4) / draws)
            assert abs(kept / draws - ref) < 4.5 * se, (label, record["deal"], ref, kept / draws)
            between += 0 < ref < 1
        checked += 1
        if checked == 4:
            break
    assert checked == 4 and between > 0  # some worlds the bidding makes neither certain nor impossible


@pytest.mark.parametrize("label", ["classic", "piekjas2"])
def test_fitting_worlds_follow_the_posterior(label):
    """Where the trump jack lies, among the worlds the sampler keeps, against uniform worlds
    weighted by the reference likelihood (the posterior by importance weights): within 4.5
    standard errors, at a position where the bidding moves it."""
    rules = Rules.from_label(label)
    trials = 0
    for rules, record in _records(label, "heuristic", 80, 9):
        st, rec, pub, seat, sw, view, played, codes, params = _setup(rules, record, 0)
        jack = 8 * parse_suit(record["trump"]) + 4
        if (int(view[ST_HANDS + seat]) >> jack) & 1 or record["exchange"]:
            continue
        holders = [s for s in range(rules.players) if s != seat]
        sw.rng[0] = np.uint64(trials + 1)
        world = np.zeros_like(st)
        n = 3000
        weights = np.zeros(n)
        where = np.zeros((n, len(holders)))
        for i in range(n):
            sample_world(view, rec, sw, world)
            weights[i] = _likelihood(rules, record, world, seat, played, codes, params)
            where[i] = [(int(world[ST_HANDS + s]) >> jack) & 1 for s in holders]
        post = (weights[:, None] * where).sum(0) / weights.sum()
        prior = where.mean(0)
        ess = weights.sum() ** 2 / (weights ** 2).sum()
        got = np.zeros(len(holders))
        m = 3000
        for _ in range(m):
            tries = sample_fitting_world(view, rec, pub, seat, sw, world, 10_000)
            assert tries < 10_000
            got += [(int(world[ST_HANDS + s]) >> jack) & 1 for s in holders]
        got /= m
        se = np.sqrt(post * (1 - post) / m + post * (1 - post) / ess) + 1e-3
        assert (np.abs(got - post) < 4.5 * se).all(), (label, record["deal"], got, post, prior)
        trials += 1
        if abs(post - prior).max() > 0.1:  # a position where the bidding tells something
            return
    pytest.fail(f"no logged {label} position in 80 deals where the bidding moves the trump jack")
