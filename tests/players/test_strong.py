"""The strong play policies (issue 10): what a seat knows, its worlds, ``pimc`` and ``dd``.

- every sampled world replays: each seat's cards at the first trick, taken from the
  world, make every card played legal again and rebuild the world's state exactly, and
  the world keeps what the seat knows (its cards, the known cards, the cards out of play);
- on small positions the sampler is uniform over the consistent worlds (enumerated);
- the policies never read hidden cards: states that differ only there give the same card;
- ``dd`` plays a card of the solver's best value; the Python API and parameters.
"""

import itertools
import math

import zlib

import numpy as np
import pytest

from analyzer.errors import BeloteError
from analyzer.game.state import (
    ST_DOWN,
    ST_GONE,
    ST_HANDS,
    ST_IN_PLAY,
    ST_LEADERS,
    ST_N_PLAYED,
    ST_PLAYED,
    ST_TAKER,
    ST_TAKER_SIDE,
    ST_TO_MOVE,
    ST_TRICK_MASK,
    ST_TRICK_NO,
    ST_TRUMP,
    ST_UNDER,
    dekjas_state,
    is_over,
    legal_cards,
    play_card,
    random_start,
    side_card_points,
    side_of_seat,
    start_state,
)
from analyzer.players import choose, public_info, solve, strong_workspace
from analyzer.players import play
from analyzer.players.knowledge import (
    PUB_DECL,
    PUB_DECLARED,
    PUB_SEEN_OUT,
    PUB_STUK,
    note_declarations,
    note_stuk,
    observe,
    play_misfits,
    prepare,
    sample_world,
    stuk_owner,
)
from analyzer.players.net import rules_row
from analyzer.players.net_weights import WEIGHTS
from analyzer.players.pimc import (SC_CARD, SC_DECLARED, SC_TRICKS, SCORE_WEIGHT, _race, declare_after, distinct_cards, hand_value,
                                   play_out, roll_out, set_stuk, start_declarations)
from analyzer.players.params import PIMC_EXACT, PIMC_INFER, PIMC_RACE, PIMC_ROLLOUT, PIMC_WORLDS, param
from analyzer.players.play import heuristic_on_state
from analyzer.players.policies import Policies, play_code
from analyzer.players.strong import PIMC_TT_BITS, card_via_link, make_strong, play_to_end
from analyzer.rules.structure import team_scoring
from analyzer.rules import ALL_LABELS, Rules, reference
from analyzer.rules.cards import PLAIN_ORDER, TRUMP_ORDER, card_points, mask_to_cards, parse_cards, parse_suit

N_CARDS = 32


def _chi2_999(df):
    """The 0.999 quantile of chi-square with ``df`` degrees of freedom (Wilson-Hilferty,
    within 1% for df >= 3): a uniform sampler fails the test once in a thousand runs."""
    z = 3.0902
    return df * (1 - 2 / (9 * df) + z * math.sqrt(2 / (9 * df))) ** 3


def stable_seed(*parts: str) -> int:
    """A test case's seed from its name, the same in every run and process (Python's ``hash`` of a
    string is salted per process, so a seed from it drew other positions each run)."""
    return zlib.crc32("/".join(parts).encode())


def random_position(rules, rng, tricks_left=None):
    """A position reached by random play from a random deal, with the public information
    a real hand would give: classic and Piekjas 4, the troefmaker's table card; Piekjas
    2-3, two of the cards out of play face up (the card on the table and the fille).
    Returns (state, pub, seat to move)."""
    rec = rules.record()
    st, in_play = random_start(rules, rng)
    known, seen = {}, ()
    if rules.variant != "dekjas":
        taker = int(st[ST_TAKER])
        if rules.players == 4:
            known = {taker: [int(rng.choice(mask_to_cards(int(st[ST_HANDS + taker]))))]}
        else:
            seen = [c for c in range(N_CARDS) if c not in in_play][:2]
    pub = public_info(rules, seen_out=seen, known=known)
    total = rules.n_tricks * rules.players
    if tricks_left is None:
        stop = int(rng.integers(total - 1))
    else:
        stop = (rules.n_tricks - tricks_left) * rules.players + int(rng.integers(rules.players))
    for _ in range(stop):
        options = mask_to_cards(int(legal_cards(st, rec)))
        winner = play_card(st, rec, options[int(rng.integers(len(options)))])
        note_stuk(pub, st, rec)  # stuk announced with the first of the K and Q of trump
        if winner >= 0 and rules.declare_after_trick:  # Dekjas: what the trick's winner declares is public
            note_declarations(pub, st, rec, winner)
    return st, pub, int(st[ST_TO_MOVE])


def replay(world, rules):
    """The world's state rebuilt from its seats' first-trick cards and the cards played,
    each checked legal; None when one is not."""
    rec = rules.record()
    n = rules.players
    start = [int(world[ST_HANDS + s]) | int(world[ST_DOWN + s]) for s in range(n)]
    for i in range(int(world[ST_N_PLAYED])):
        t = i // n
        s = (int(world[ST_LEADERS + t]) + i - t * n) % n
        start[s] |= 1 << int(world[ST_PLAYED + i])
    trump, taker, leader = int(world[ST_TRUMP]), int(world[ST_TAKER]), int(world[ST_LEADERS])
    if rules.variant == "dekjas":
        piles = [[(int(world[ST_UNDER + c]), c) for c in range(N_CARDS)
                  if world[ST_UNDER + c] >= 0 and (start[s] >> c) & 1] for s in range(2)]
        st = dekjas_state(rules, piles, trump, taker, leader)
    else:
        st = start_state(rules, start, trump, taker, leader)
    for i in range(int(world[ST_N_PLAYED])):
        c = int(world[ST_PLAYED + i])
        if not (int(legal_cards(st, rec)) >> c) & 1:
            return None
        play_card(st, rec, c)
    return st


def _worlds(st, rules, pub, seat, count, seed, stuk=True):
    rec = rules.record()
    sw = make_strong(team_scoring(rec), PIMC_TT_BITS)
    view = np.zeros_like(st)
    observe(st, rec, pub, seat, view)
    total = prepare(view, rec, pub, seat, sw, stuk)
    sw.rng[0] = np.uint64(seed)
    out = []
    for _ in range(count):
        w = np.zeros_like(st)
        sample_world(view, rec, sw, w)
        out.append(w)
    return total, out


@pytest.mark.parametrize("label", ALL_LABELS)
@pytest.mark.parametrize("undertrump", ["forced", "free"])
def test_every_world_replays_and_keeps_what_the_seat_knows(label, undertrump):
    rules = Rules.from_label(label, [f"undertrump={undertrump}"])
    rng = np.random.default_rng(stable_seed(label, undertrump))
    for _ in range(30):
        st, pub, seat = random_position(rules, rng)
        total, worlds = _worlds(st, rules, pub, seat, 8, int(rng.integers(2**63)))
        assert total >= 1  # the real deal is one of them
        for w in worlds:
            rebuilt = replay(w, rules)
            assert rebuilt is not None, "a card played is not legal in the world"
            assert (rebuilt == w).all(), "the world is not the state its deal gives"
            if rules.variant == "dekjas":
                for s in range(2):  # face-up cards are public
                    assert w[ST_HANDS + s] == st[ST_HANDS + s]
                    assert bin(int(w[ST_DOWN + s])).count("1") == bin(int(st[ST_DOWN + s])).count("1")
                continue
            assert w[ST_HANDS + seat] == st[ST_HANDS + seat]
            assert _announces(w, rules) == int(pub[PUB_STUK])  # the world would have announced stuk as the play did
            held = 0
            for s in range(rules.players):
                assert bin(int(w[ST_HANDS + s])).count("1") == bin(int(st[ST_HANDS + s])).count("1")
                known = int(pub[1 + s]) & ~int(st[ST_GONE])
                assert int(w[ST_HANDS + s]) & known == known  # the troefmaker keeps its table card
                held |= int(w[ST_HANDS + s])
            assert held & int(pub[0]) == 0  # the cards face up out of play stay out


@pytest.mark.parametrize("label", ALL_LABELS)
@pytest.mark.parametrize("undertrump", ["forced", "free"])
def test_roll_out_values_every_card_as_play_out_does(label, undertrump):
    """pimc's fast play-out (the trick in registers, nothing undone) gives every legal card of
    every sampled world the value of the plain one: play the card, play the hand out with
    ``play_out`` on the state, undo; and leaves the world as it found it."""
    rules = Rules.from_label(label, [f"undertrump={undertrump}"])
    rec = rules.record()
    rng = np.random.default_rng(stable_seed("roll", label, undertrump))
    sw = make_strong(team_scoring(rec), PIMC_TT_BITS)
    values = set()
    checked = declared_before = declared_in_play = 0
    for _ in range(40):
        st, pub, seat = random_position(rules, rng)
        declared_before += int(pub[PUB_DECLARED:PUB_DECLARED + 2].sum() > 0)
        pub[PUB_DECL + int(rng.integers(rec.n_sides))] = int(rng.choice([0, 20, 50]))
        _, worlds = _worlds(st, rules, pub, seat, 3, int(rng.integers(2**63)))
        for w in worlds:
            set_stuk(w, rec, sw.sc, True)
            before = w.copy()
            for card in mask_to_cards(int(legal_cards(w, rec))):
                for side in range(rec.n_sides):
                    fast = roll_out(w, rec, pub, sw.sc, card, side)
                    assert (w == before).all()
                    slow = play_out(w, rec, pub, sw, 0, side, card, np.zeros(0))
                    declared_in_play += int(sw.sc[SC_DECLARED, :2].sum() > pub[PUB_DECLARED:PUB_DECLARED + 2].sum())
                    assert (w == before).all()
                    assert fast == slow, (label, card, side)
                    values.add(int(fast))
                    checked += 1
    assert checked > 200 and len(values) > 20  # many positions, and values that differ
    if rules.declare_after_trick:  # and play-outs that start from declarations made, and make more
        assert declared_before > 5 and declared_in_play > 20


@pytest.mark.parametrize("label", ALL_LABELS)
def test_net_play_outs_are_net_playing_every_seat_on_its_own_view(label):
    """``pimc:rollout=net``: the value of a card in a world is the hand's value after the card and
    net's play in every seat (``play_to_end`` under net, each seat on its view of the world), and the
    world is left as it was found."""
    rules = Rules.from_label(label)
    rec = rules.record()
    rng = np.random.default_rng(stable_seed("net-rollout", label))
    sw = make_strong(team_scoring(rec), PIMC_TT_BITS)
    link = strong_workspace(rules, [play.NET])
    weights = WEIGHTS[rules_row(rec)]
    net = np.int64(play_code("net"))
    checked = differ = 0
    for _ in range(12):
        st, pub, seat = random_position(rules, rng)
        _, worlds = _worlds(st, rules, pub, seat, 2, int(rng.integers(2**63)))
        for w in worlds:
            set_stuk(w, rec, sw.sc, True)
            before = w.copy()
            side = int(rng.integers(rec.n_sides))
            for card in mask_to_cards(int(legal_cards(w, rec))):
                value = play_out(w, rec, pub, sw, 0, side, card, weights)
                assert (w == before).all()
                ended = w.copy()
                if rules.declare_after_trick:
                    start_declarations(pub, sw.sc)
                winner = play_card(ended, rec, card)
                if rules.declare_after_trick and winner >= 0:
                    declare_after(sw.sc, ended[ST_HANDS + winner], winner, ended[ST_TRUMP], rec)
                while int(ended[ST_TRICK_NO]) < rec.n_tricks:  # net in every seat, through the entry
                    c = card_via_link(net, ended.copy(), pub, link, np.uint64(0))
                    winner = play_card(ended, rec, c)
                    if rules.declare_after_trick and winner >= 0:
                        declare_after(sw.sc, ended[ST_HANDS + winner], winner, ended[ST_TRUMP], rec)
                assert value == hand_value(ended, rec, pub, sw.sc, side), (label, card)
                differ += int(value != roll_out(w, rec, pub, sw.sc, card, side))
                checked += 1
    assert checked > 40 and differ > 0  # and net's play-outs are not the heuristic's


@pytest.mark.parametrize("label", ALL_LABELS)
def test_play_misfits_count_the_other_sides_cards_the_heuristic_would_not_have_played(label):
    """``knowledge.play_misfits`` on the true deal: 0 when the other sides played the heuristic (whatever
    the seat's own side played), and as many misfits as the other sides' unforced cards the heuristic
    would not have chosen when they played at random; the world is left as it was found."""
    rules = Rules.from_label(label)
    rec = rules.record()
    rng = np.random.default_rng(stable_seed("misfits", label))
    random_misfits = 0
    for k in range(60):
        st, _ = random_start(rules, rng)
        pub = public_info(rules)
        seat = int(rng.integers(rules.players))
        own_side = int(side_of_seat(seat, rec))
        others_random = k % 2 == 1
        expected = 0
        for _ in range(int(rng.integers(1, rules.n_tricks * rules.players - 1))):
            s = int(st[ST_TO_MOVE])
            options = mask_to_cards(int(legal_cards(st, rec)))
            heur = int(heuristic_on_state(st, rec, pub[PUB_SEEN_OUT], play.HEURISTIC))
            theirs = int(side_of_seat(s, rec)) != own_side
            c = options[int(rng.integers(len(options)))] if (others_random and theirs) or not theirs else heur
            expected += int(theirs and len(options) > 1 and c != heur)
            play_card(st, rec, c)
        view = np.zeros_like(st)
        observe(st, rec, pub, seat, view)
        world = st.copy()
        assert play_misfits(world, rec, pub, seat, view) == expected, (label, k)
        assert (world == st).all()
        random_misfits += expected
    assert random_misfits > 30


def _equivalent_sets(view, rules, seat, legal, seen_out):
    """The legal cards in sets of equivalent ones, by the definition (slow, obvious): two
    cards of one suit that score the same, every card between them in the suit's trick order
    the seat's own or out of play (completed tricks, face up out of play)."""
    trump = int(view[ST_TRUMP])
    own = int(view[ST_HANDS + seat])
    out = (int(view[ST_GONE]) & ~int(view[ST_TRICK_MASK])) | seen_out
    cards = mask_to_cards(legal)
    parent = {c: c for c in cards}

    def find(c):
        while parent[c] != c:
            c = parent[c]
        return c

    def order(c):
        return int((TRUMP_ORDER if c >> 3 == trump else PLAIN_ORDER)[c & 7])

    for a in cards:
        for b in cards:
            if a < b and a >> 3 == b >> 3 and card_points(a, trump) == card_points(b, trump):
                lo, hi = sorted((order(a), order(b)))
                between = [x for x in range(8 * (a >> 3), 8 * (a >> 3) + 8) if lo < order(x) < hi]
                if all(((own | out) >> x) & 1 for x in between):
                    parent[find(b)] = find(a)
    sets = {}
    for c in cards:
        sets.setdefault(find(c), set()).add(c)
    return list(sets.values())


@pytest.mark.parametrize("label", ALL_LABELS)
def test_pimc_values_one_card_of_each_set_of_equivalent_ones(label):
    """``distinct_cards`` keeps exactly one card of each set of equivalent legal cards (the
    definition, brute force), the heuristic's card where it is in the set, else the lowest;
    Dekjas keeps every card (a played card turns up the card under it)."""
    rules = Rules.from_label(label)
    rec = rules.record()
    rng = np.random.default_rng(5)
    out = np.zeros(32, np.int64)
    merged = 0
    for _ in range(400):
        st, pub, seat = random_position(rules, rng)
        view = np.zeros_like(st)
        observe(st, rec, pub, seat, view)
        legal = int(legal_cards(view, rec))
        cards = mask_to_cards(legal)
        fallback = int(rng.choice(cards))
        k = distinct_cards(view, rec, seat, legal, fallback, int(pub[0]), out)
        kept = sorted(int(c) for c in out[:k])
        if rules.variant == "dekjas":
            assert kept == cards
            continue
        sets = _equivalent_sets(view, rules, seat, legal, int(pub[0]))
        assert kept == sorted(fallback if fallback in s else min(s) for s in sets)
        merged += len(cards) - k
    assert rules.variant == "dekjas" or merged > 20  # positions where cards were equivalent


def test_racing_drops_the_cards_that_fall_clearly_behind():
    """``_race``: a card always worse than the leader by the same amount stays (its difference
    has no spread yet: a difference unseen may come), and so does one equal to it on every
    world so far and one whose difference is noise; a card clearly behind, with some spread,
    leaves."""
    sw = make_strong(1, PIMC_TT_BITS)  # classic's solver settings
    w = 8
    base = np.random.default_rng(3).integers(-200, 200, w)
    alt = np.array([1, -1] * 4)
    sw.lcards[:4] = [3, 5, 9, 12]

    def race(cols, fallback):
        for j, col in enumerate(cols):
            sw.sums[j] = col.sum()
            sw.wvals[np.arange(w) * 32 + j] = col
        return _race(sw, 4, w, 0b1111, fallback, 2.0)

    noise = np.array([40, -41, 40, -39, 41, -40, 39, -40])  # sums to 0: card 3 ties card 0
    cols = [base, base - 10 + alt, base - 7, base + noise]
    assert race(cols, -1) == 0b1101  # leader card 0 (the lower of a tie); card 1 clearly behind
    assert race(cols, 12) == 0b1111  # the heuristic's card 12 wins the tie: against it all is noise
    cols[3] = base + 30 + np.array([2, -1, 1, -2, 2, -1, 1, -2])  # card 3 now leads on every world: the others leave
    assert race(cols, -1) == 0b1000


def _consistent_worlds(st, rules, pub, seat):
    """Every deal of the unseen cards that replays (brute force)."""
    n = rules.players
    gone, own = int(st[ST_GONE]), int(st[ST_HANDS + seat])
    known = {s: int(pub[1 + s]) & ~gone for s in range(n)}
    unseen = [c for c in range(N_CARDS) if not ((gone | own | int(pub[0]) | sum(known.values())) >> c) & 1]
    holders = [s for s in range(n) if s != seat]
    room = {s: bin(int(st[ST_HANDS + s])).count("1") - bin(known[s]).count("1") for s in holders}
    stock = len(unseen) - sum(room.values())
    out = set()
    deals = 0
    for assign in itertools.product(holders + ([-1] if stock else []), repeat=len(unseen)):
        if any(assign.count(s) != room[s] for s in holders):
            continue
        deals += 1
        w = st.copy()
        for s in holders:
            w[ST_HANDS + s] = known[s] | sum(1 << c for c, h in zip(unseen, assign) if h == s)
        if replay(w, rules) is not None and _announces(w, rules) == int(pub[PUB_STUK]):
            out.add(tuple(int(w[ST_HANDS + s]) for s in holders))
    return out, deals


def _announces(world, rules):
    """The stuk announcement the play of ``world`` (a whole deal) made: the seat, -1."""
    pub = public_info(rules)
    note_stuk(pub, world, rules.record())
    return int(pub[PUB_STUK])


@pytest.mark.parametrize("label", ["classic", "piekjas3"])
def test_worlds_are_uniform_over_the_consistent_deals(label):
    """On small endings where the play has proved voids, the sampler's worlds are the
    consistent deals (enumerated), each as often as the others (chi-square, p = 0.001)."""
    rules = Rules.from_label(label)
    rng = np.random.default_rng(7)
    tested = 0
    while tested < 3:
        st, pub, seat = random_position(rules, rng, tricks_left=2)
        every, deals = _consistent_worlds(st, rules, pub, seat)
        n = rules.players
        if not 6 <= len(every) < deals:
            continue  # too few worlds to test, or none excluded by the play
        per = 200
        total, worlds = _worlds(st, rules, pub, seat, per * len(every), tested + 1)
        assert total == len(every)
        counts = {}
        for w in worlds:
            key = tuple(int(w[ST_HANDS + s]) for s in range(n) if s != seat)
            assert key in every
            counts[key] = counts.get(key, 0) + 1
        chi2 = sum((counts.get(k, 0) - per) ** 2 / per for k in every)
        assert chi2 < _chi2_999(len(every) - 1), (label, len(every), chi2)
        tested += 1


def _hidden_twin(st, rules, pub, rng):
    """A state that differs from ``st`` only in cards the seat to move cannot see (two
    unseen cards swapped between holders), or None."""
    seat = int(st[ST_TO_MOVE])
    other = st.copy()
    if rules.variant == "dekjas":
        downs = [(s, c) for s in range(2) for c in mask_to_cards(int(st[ST_DOWN + s]))]
        tops = {int(st[ST_UNDER + c]): c for c in range(N_CARDS) if st[ST_UNDER + c] >= 0}
        if len(downs) < 2:
            return None
        (sa, a), (sb, b) = [downs[i] for i in rng.choice(len(downs), 2, replace=False)]
        other[ST_UNDER + tops[a]], other[ST_UNDER + tops[b]] = b, a
        other[ST_DOWN + sa] = (int(other[ST_DOWN + sa]) & ~(1 << a)) | (1 << b)
        other[ST_DOWN + sb] = (int(other[ST_DOWN + sb]) & ~(1 << b)) | (1 << a)
        return other
    # holders of hidden cards: the other seats, and (Piekjas 2-3) the stock out of play
    stock = ~int(st[ST_IN_PLAY]) & ~int(pub[0]) & 0xFFFFFFFF
    held = {s: int(st[ST_HANDS + s]) & ~int(pub[1 + s]) for s in range(rules.players) if s != seat}
    held = {s: m for s, m in held.items() if m}
    if stock:
        held[-1] = stock
    if len(held) < 2:
        return None
    sa, sb = rng.choice(sorted(held), 2, replace=False)
    a = int(rng.choice(mask_to_cards(held[sa])))
    b = int(rng.choice(mask_to_cards(held[sb])))
    for s, out_, in_ in ((sa, a, b), (sb, b, a)):
        if s >= 0:
            other[ST_HANDS + s] = (int(st[ST_HANDS + s]) & ~(1 << out_)) | (1 << in_)
    other[ST_IN_PLAY] = int(other[ST_GONE]) | sum(int(other[ST_HANDS + s]) for s in range(rules.players))
    return other


def _with_bidding(pub, rules, st, rng):
    """``pub`` with a bidding that read the trump's suit from the turned card (heuristic bidders,
    round 1 or 2): what ``pimc:infer=bids`` reads."""
    from analyzer.players.knowledge import PUB_TABLE, PUB_TURNED, fill_bidding

    out = pub.copy()
    turned = int(8 * int(st[ST_TRUMP]) + rng.integers(8))
    out[PUB_TURNED] = out[PUB_TABLE] = turned
    pols = Policies.parse("heuristic", "heuristic", rules.players)
    fill_bidding(out, rules.record(), int(rng.integers(1, 3)), -1, -1, pols.codes()[0], pols.bid_params(rules))
    return out


def _after(hands, trump, plays):
    """Classic, seat 0 the troefmaker and the leader: the state after ``plays`` (card notation),
    and its public information kept as the hand loop keeps it."""
    rules = Rules()
    rec = rules.record()
    st = start_state(rules, [parse_cards(h) for h in hands], trump=parse_suit(trump), taker=0)
    pub = public_info(rules)
    for c in parse_cards(plays):
        play_card(st, rec, c)
        note_stuk(pub, st, rec)
    return rules, st, pub


STUK_HANDS = ("Jh 9h Ah Tc 7s Ks Qd 8c", "7h 8h Qh Kh Ac Kc 9c 7c", "Th As Ts 9s 8s Js Qs Ad", "Qc Jc 8d 7d 9d Td Kd Jd")


def test_stuk_is_announced_with_the_first_of_king_and_queen_of_trump():
    """RULES.md §5: seat 1 holds Kh Qh (hearts trump) and announces as it plays the first; nobody
    announces before, and a seat that plays the K without the Q announces nothing."""
    assert _after(STUK_HANDS, "h", "Jh")[2][PUB_STUK] == -1
    assert _after(STUK_HANDS, "h", "Jh 7h")[2][PUB_STUK] == -1  # its 7h: the K and Q still in hand
    assert _after(STUK_HANDS, "h", "Jh Kh")[2][PUB_STUK] == 1
    assert _after(STUK_HANDS, "h", "Jh Kh Th 7d 9h Qh")[2][PUB_STUK] == 1  # then rebelote: still seat 1
    # the K alone (the Q with seat 3): no announcement
    split = ("Jh 9h Ah Tc 7s Ks Qd 8c", "7h 8h Jd Kh Ac Kc 9c 7c", "Th As Ts 9s 8s Js Qs Ad", "Qc Jc 8d 7d 9d Td Kd Qh")
    assert _after(split, "h", "Jh Kh")[2][PUB_STUK] == -1
    assert stuk_owner(_after(split, "h", "Jh Kh")[1], Rules().record()) == -1
    assert stuk_owner(_after(STUK_HANDS, "h", "")[1], Rules().record()) == 1


def test_worlds_hear_the_stuk_announcement_and_its_absence():
    """Seat 2's worlds after seat 1 played the Kh: announced, every world gives seat 1 the Qh;
    not announced, none does, though without the evidence (``prepare(..., False)``) some do."""
    rules, st, pub = _after(STUK_HANDS, "h", "Jh Kh")
    _, worlds = _worlds(st, rules, pub, 2, 200, 5)
    qh = 1 << parse_cards("Qh")[0]
    assert all(int(w[ST_HANDS + 1]) & qh for w in worlds)
    split = ("Jh 9h Ah Tc 7s Ks Qd 8c", "7h 8h Jd Kh Ac Kc 9c 7c", "Th As Ts 9s 8s Js Qs Ad", "Qc Jc 8d 7d 9d Td Kd Qh")
    rules, st, pub = _after(split, "h", "Jh Kh")
    _, worlds = _worlds(st, rules, pub, 2, 200, 5)
    assert not any(int(w[ST_HANDS + 1]) & qh for w in worlds)
    assert all(int(w[ST_HANDS + 0] | w[ST_HANDS + 3]) & qh for w in worlds)
    _, blind = _worlds(st, rules, pub, 2, 200, 5, stuk=False)
    assert sum(bool(int(w[ST_HANDS + 1]) & qh) for w in blind) > 40  # seat 1 has 7 of the 22 unseen places (70 of 200)


@pytest.mark.parametrize("label", [lb for lb in ALL_LABELS if not lb.startswith("dekjas")])
def test_roll_out_scores_stuk_as_the_reference_does(label):
    """pimc's value of a card played out from the first trick equals the value the slow reference
    scorer (``rules.reference.score_hand``) gives the play-out's tricks, stuk included: 20 to the
    side of the seat dealt the K and Q of trump. On some deals stuk changes the value."""
    rules = Rules.from_label(label)
    rec = rules.record()
    rng = np.random.default_rng(stable_seed("stuk", label))
    sw = make_strong(team_scoring(rec), PIMC_TT_BITS)
    changed = with_stuk = 0
    for _ in range(150):
        st, pub, _ = random_position(rules, rng, tricks_left=rules.n_tricks)
        start = [int(st[ST_HANDS + s]) for s in range(rules.players)]
        for i in range(int(st[ST_N_PLAYED])):  # the first trick's cards so far
            start[(int(st[ST_LEADERS]) + i) % rules.players] |= 1 << int(st[ST_PLAYED + i])
        stuk_side = reference.stuk_side([mask_to_cards(h) for h in start], int(st[ST_TRUMP]), rules)
        card = mask_to_cards(int(legal_cards(st, rec)))[0]
        side = int(rng.integers(rec.n_sides))
        set_stuk(st, rec, sw.sc, False)
        blind = roll_out(st, rec, pub, sw.sc, card, side)
        set_stuk(st, rec, sw.sc, True)
        v = roll_out(st, rec, pub, sw.sc, card, side)
        n_sides = rec.n_sides
        res = reference.score_hand(rules, int(st[ST_TAKER_SIDE]), sw.sc[SC_CARD, :n_sides], sw.sc[SC_TRICKS, :n_sides],
                                   [0] * n_sides, None, [20 if s == stuk_side else 0 for s in range(n_sides)])
        others = [s for s in range(n_sides) if s != side]
        want = (SCORE_WEIGHT * (res.scores[side] - max(res.scores[s] for s in others))
                + res.card_points[side] - max(res.card_points[s] for s in others))
        assert v == want, (label, res)
        with_stuk += stuk_side is not None
        changed += v != blind
    assert with_stuk > 10 and changed > 0


def hidden_pairs(rules, rng, count, tries=400):
    """Up to ``count`` positions with two legal cards or more, each with its twin that differs only in
    cards the seat to move cannot see (``_hidden_twin``): ``(state, twin, public, seat)``."""
    rec = rules.record()
    found = 0
    for _ in range(tries):
        if found == count:
            return
        st, pub, seat = random_position(rules, rng, tricks_left=int(rng.integers(1, rules.n_tricks + 1)))
        twin = _hidden_twin(st, rules, pub, rng)
        if twin is None or int(legal_cards(st, rec)).bit_count() < 2:
            continue
        found += 1
        yield st, twin, pub, seat


@pytest.mark.parametrize("label", ALL_LABELS)
def test_pimc_never_reads_hidden_cards(label):
    """Two states that differ only in cards the seat cannot see: the same view, and
    PIMC's card is the same with the same random number, with and without the bidding and the
    play as evidence, with the heuristic's or net's play-outs. (``dd`` sees every card: on the same pairs its card does change sometimes,
    which shows the swaps matter.)"""
    rules = Rules.from_label(label)
    rec = rules.record()
    rng = np.random.default_rng(11)
    link = strong_workspace(rules, [play.DD])
    pimc = np.int64(play_code("pimc:worlds=16,race=20"))  # racing: its first look is after 8 worlds
    infer = np.int64(play_code("pimc:worlds=8,infer=bids"))
    both = np.int64(play_code("pimc:worlds=6,infer=both,rollout=net"))  # the play's evidence, net's play-outs
    dd_changed = 0
    pairs = 0
    for st, twin, pub, seat in hidden_pairs(rules, rng, 40):
        pairs += 1
        va, vb = np.zeros_like(st), np.zeros_like(st)
        observe(st, rec, pub, seat, va)
        observe(twin, rec, pub, seat, vb)
        assert (va == vb).all()
        u = np.uint64(rng.integers(2**63))
        assert card_via_link(pimc, st.copy(), pub, link, u) == card_via_link(pimc, twin.copy(), pub, link, u)
        bids = _with_bidding(pub, rules, st, np.random.default_rng(pairs))  # its own stream: the positions stay
        assert card_via_link(infer, st.copy(), bids, link, u) == card_via_link(infer, twin.copy(), bids, link, u)
        assert card_via_link(both, st.copy(), bids, link, u) == card_via_link(both, twin.copy(), bids, link, u)
        if rules.n_tricks - int(st[ST_TRICK_NO]) <= 3:  # dd solves: endings only, to keep the test short
            dd = np.int64(play.DD)
            dd_changed += card_via_link(dd, st.copy(), pub, link, u) != card_via_link(dd, twin.copy(), pub, link, u)
    assert pairs == 40 and dd_changed > 0


HANDS = ("Jh 9h Ah Tc 7s Ks Qd 8c", "7h 8h Qh Kh Ac Kc 9c 7c", "Th As Ts 9s 8s Js Qs Ad", "Qc Jc 8d 7d 9d Td Kd Jd")


def _classic_start():
    rules = Rules()
    st = start_state(rules, [parse_cards(h) for h in HANDS], trump=parse_suit("h"), taker=0)
    return rules, st


def test_dd_plays_a_card_of_the_solvers_best_value():
    rules, st = _classic_start()
    rec = rules.record()
    sw = strong_workspace(rules, [play.DD])
    while not is_over(st, rec):
        sol = solve(st, rules)
        card = choose("dd", st, rules, workspace=sw)
        assert sol.cards[card] == sol.value
        play_card(st, rec, card)


def test_dd_hand_reaches_the_solved_value():
    """Every seat playing dd from the start ends on the start position's value."""
    rules, st = _classic_start()
    rec = rules.record()
    value = solve(st, rules).value
    sw = strong_workspace(rules, [play.DD])
    play_to_end(np.full(4, play.DD, np.int64), st, rec, public_info(rules), sw, np.zeros(1, np.uint64))
    assert side_card_points(st, rec, 0) == value  # seat 0 took


def test_choose_is_deterministic_from_the_seed_and_plays_a_legal_card():
    rules, st = _classic_start()
    pub = public_info(rules, known={0: parse_cards("Jh")})
    legal = int(legal_cards(st, rules.record()))
    cards = {choose("pimc:worlds=8", st, rules, pub, seed=s) for s in range(6)}
    assert all((legal >> c) & 1 for c in cards)
    assert choose("pimc:worlds=8", st, rules, pub, seed=3) == choose("pimc:worlds=8", st, rules, pub, seed=3)
    before = st.copy()
    choose("pimc", st, rules, pub, seed=1)
    assert (st == before).all()  # the caller's state is not changed


def test_play_parameters_pack_into_the_code_with_named_defaults():
    code = play_code("pimc")
    assert code & play.KIND_MASK == play.PIMC
    assert param(code, PIMC_WORLDS) == 128 and param(code, PIMC_EXACT) == 0 and param(code, PIMC_RACE) == 20
    assert param(code, PIMC_ROLLOUT) == 0 and param(code, PIMC_INFER) == 0
    code = play_code("pimc:worlds=16,exact=2,race=0")
    assert param(code, PIMC_WORLDS) == 16 and param(code, PIMC_EXACT) == 2 and param(code, PIMC_RACE) == 0
    assert (PIMC_WORLDS, PIMC_EXACT) == (8, 16)  # where the codes written before the declaration had them
    assert play_code("dd") == play.DD
    pols = Policies.parse("heuristic", "0=pimc:worlds=16,exact=3,1=random", 4)
    seats = ("pimc:exact=3,worlds=16", "random", "heuristic", "heuristic")
    assert pols.play == (seats, seats)  # by seat: the same in both roles
    assert Policies.parse("heuristic", "pimc:worlds=128,race=20", 4).play[0] == ("pimc",) * 4  # the defaults: its plain name
    for row in pols.codes()[1]:
        assert list(row[:2]) == [play_code("pimc:worlds=16:exact=3"), play.RANDOM]
    assert Policies.parse("heuristic", "pimc:exact=0", 4).play[0] == ("pimc",) * 4
    roles = Policies.parse("heuristic", "taker=pimc:worlds=8,exact=1,defence=dd", 4)
    assert roles.play == (("pimc:exact=1,worlds=8",) * 4, ("dd",) * 4)
    assert list(roles.codes()[1][:, 0]) == [play_code("pimc:worlds=8:exact=1"), play.DD]
    # a parameter whose values are words
    assert param(play_code("pimc:infer=bids"), PIMC_INFER) == 1 and param(play_code("pimc:infer=none"), PIMC_INFER) == 0
    assert [param(play_code(f"pimc:infer={w}"), PIMC_INFER) for w in ("play", "both")] == [2, 3]
    assert param(play_code("pimc:rollout=net"), PIMC_ROLLOUT) == 1
    assert Policies.parse("heuristic", "pimc:rollout=net,infer=both", 2).play[0] == ("pimc:infer=both,rollout=net",) * 2
    assert Policies.parse("heuristic", "pimc:infer=bids,worlds=8", 2).play[0] == ("pimc:infer=bids,worlds=8",) * 2


@pytest.mark.parametrize("spec,message", [
    ("pimc:worlds=0", "worlds must be a whole number from 1 to 255"),
    ("pimc:depth=3", '"depth=3" is not a parameter'),
    ("pimc:infer=cards", "infer must be one of none, bids, play, both"),
    ("pimc:rollout=dd", "rollout must be one of heuristic, net"),
    ("dd:worlds=3", "dd takes no parameters"),
    ("strong", 'unknown policy "strong"'),
])
def test_bad_play_parameters_are_one_line_errors(spec, message):
    with pytest.raises(BeloteError, match=message):
        Policies.parse("heuristic", spec, 4)


def test_api_doc_examples_run():
    import doctest

    from analyzer.players import api

    assert doctest.testmod(api).failed == 0


def test_choose_plays_the_heuristic_version_its_code_names():
    """``heuristic:v=1`` through the Python API (the entry) is the earlier card play, as in
    the hand loop: with one trump, the master, against seven unseen, v1 draws it, v2 cashes
    an ace (it draws only with the length)."""
    from analyzer.game.state import start_state
    from analyzer.rules.cards import format_card, parse_suit

    rules = Rules()
    hands = [parse_cards(h) for h in ("Jh Tc 7s Ks Qd 8c As Ad", "7h 8h Qh Kh Ac Kc 9c 7c",
                                      "Th 9h Ah Ts 9s 8s Js Qs", "Qc Jc 8d 7d 9d Td Kd Jd")]
    st = start_state(rules, hands, trump=parse_suit("h"), taker=0)
    assert format_card(choose("heuristic:v=1", st, rules)) == "Jh"
    assert format_card(choose("heuristic", st, rules)) in ("As", "Ad")


# ---- the hand's link to the searching policies (analyzer.players.strong.make_link) ----------

@pytest.mark.parametrize("label", ["classic", "piekjas3", "dekjas"])
def test_the_strong_entry_reads_the_workspace_the_link_holds(label):
    """The link holds the rules record field for field and the memory of a workspace, each array
    of it where the link says, of the size, shape and type ``make_strong`` gives it, one after
    another inside the link, the solver's settings as ``make_strong`` sets them; the entry
    (compiled apart, called through an address) reads exactly that. A field added to either
    record fails here (and at the entry's import)."""
    from analyzer.players.strong import LINK_SIZE, N_SW, make_link, make_strong, strong_bits
    from analyzer.players.strong_entry import rules_at, workspace_at

    base = Rules.from_label(label)
    rules = Rules.make(base.variant, base.players, ["undertrump=free"])
    rec = rules.record()
    for play_ in ("pimc", "dd"):
        bits = strong_bits(Policies.parse("heuristic", play_, rules.players).codes()[1])
        link = make_link(rec, bits, 12345)
        want = make_strong(team_scoring(rec), bits)
        got = workspace_at(link)
        assert len(got) == N_SW == len(want) and link[0] == 12345 and rules_at(link) == rec
        at = link.ctypes.data + 8 * LINK_SIZE
        for name, mine, seen in zip(want._fields, want, got):
            assert (seen.shape, seen.dtype) == (mine.shape, mine.dtype), name
            assert seen.ctypes.data == at, name
            at += 8 * seen.size
        assert at == link.ctypes.data + 8 * link.size  # the memory fills the link, no more
        assert (got.ctx == want.ctx).all() and got.ctx.any()
    empty = make_link(rec, -1, 0)  # no searching player: the rules only
    assert empty.size == LINK_SIZE and empty[0] == 0 and rules_at(empty) == rec


def test_a_hand_with_a_searching_policy_needs_the_entrys_address():
    from analyzer.runs.hand import make_workspace

    rules = Rules.from_label("classic")
    _, play_pol = Policies.parse("heuristic", "pimc", rules.players).codes()
    with pytest.raises(ValueError, match="strong_address"):
        make_workspace(rules.record(), play_pol, 0)


def test_only_a_run_that_plays_a_searching_policy_loads_the_searching_policies():
    """A heuristic run never imports (so never compiles) the searching policies' entry; a pimc run
    does, and plays legal hands through it (run in a fresh interpreter each)."""
    import subprocess
    import sys

    code = ("import sys; from analyzer.players.policies import Policies; from analyzer.rules import Rules; "
            "from analyzer.runs.simulate import SimConfig, simulate; r = Rules.from_label('piekjas2'); "
            "res = simulate(SimConfig(rules=r, policies=Policies.parse('heuristic', '{play}', 2), deals=4, seed=3, "
            "threads=1, chunk=2)); print(int(res.get('hands')), 'analyzer.players.strong_entry' in sys.modules,)")
    for play_, loaded in (("heuristic", "False"), ("pimc:worlds=2", "True")):
        out = subprocess.run([sys.executable, "-c", code.replace("{play}", play_)], capture_output=True, text=True,
                             check=True).stdout.split()
        assert out[0] == "4" and out[1] == loaded, (play_, out)


def test_choose_refuses_a_workspace_made_for_other_rules_or_copied():
    rules, st = _classic_start()
    other = strong_workspace(Rules.make("classic", None, ["undertrump=free"]), [play.DD])
    with pytest.raises(BeloteError, match="other rules"):
        choose("dd", st, rules, workspace=other)
    mine = strong_workspace(rules, [play.DD])
    with pytest.raises(BeloteError, match="is a copy"):  # its addresses point into the original's memory
        choose("dd", st, rules, workspace=mine.copy())
    assert choose("dd", st, rules, workspace=mine) == choose("dd", st, rules)
