"""Dekjas' declarations made in play (RULES.md §5 'When'), as the players see them: what a
trick's winner declares (``declarations.declare_new``) is what ``find_declarations`` lists, and the
public record of them (``knowledge.note_declarations``), kept by a replay after every trick, is
what the hand loop declared and scored (the deal log's declarations and roem side)."""

import numpy as np

from analyzer.game.state import play_card, record_plays, state_from_record
from analyzer.players import public_from_record
from analyzer.players.knowledge import PUB_DECLARED, PUB_DECLARED_KEY, note_declarations
from analyzer.players.policies import Policies
from analyzer.rules import Rules
from analyzer.rules.cards import parse_card, parse_suit
from analyzer.rules.declarations import (
    CARRE,
    MAX_DECLARATIONS,
    declaration_key,
    declare_new,
    find_declarations,
    roem_winner,
)
from analyzer.runs.records import hand_record
from analyzer.runs.simulate import SimConfig


def test_declare_new_sums_what_find_declarations_lists():
    """Random pools (dense enough for runs and carrés): the points, the best key and the cards used
    by each kind are those of find_declarations' list, in both orders of comparison."""
    rng = np.random.default_rng(7)
    kinds = np.zeros(MAX_DECLARATIONS, np.int64)
    masks = np.zeros(MAX_DECLARATIONS, np.uint32)
    points = np.zeros(MAX_DECLARATIONS, np.int64)
    found = 0
    for _ in range(3000):
        # uint32, as the kernels pass them (a Python int would compile another signature into the shared cache)
        seq_pool = np.uint32(int(rng.integers(2**32)) & int(rng.integers(2**32)) | int(rng.integers(2**32)) & int(rng.integers(2**32)))
        carre_pool = np.uint32(seq_pool | (int(rng.integers(2**32)) & int(rng.integers(2**32))))
        trump = int(rng.integers(4))
        for by_points in (0, 1):
            n = find_declarations(seq_pool, carre_pool, kinds, masks, points)
            pts, key, seq, carre = declare_new(seq_pool, carre_pool, trump, by_points)
            assert pts == sum(int(points[i]) for i in range(n))
            assert key == max([declaration_key(masks[i], points[i], trump, by_points) for i in range(n)], default=-1)
            assert seq == sum(int(masks[i]) for i in range(n) if kinds[i] != CARRE)
            assert carre == sum(int(masks[i]) for i in range(n) if kinds[i] == CARRE)
            found += n
    assert found > 1000  # pools with declarations, not only empty ones


def test_declarations_noted_after_every_replayed_trick_are_the_hands():
    """Dekjas deals of the heuristic replayed card by card, ``note_declarations`` after every won
    trick: each seat's declared points and best key are those of the log's declarations, and the
    side they give the roem to is the log's."""
    rules = Rules.from_label("dekjas")
    rec = rules.record()
    cfg = SimConfig(rules=rules, policies=Policies.parse("heuristic", "heuristic", 2), deals=400, seed=11)
    played = declared = 0
    for i in range(400):
        record = hand_record(cfg, i)
        if record.get("outcome") != "played":
            continue
        played += 1
        st, _ = state_from_record(record)
        pub = public_from_record(record, rules)
        assert (pub[PUB_DECLARED_KEY:PUB_DECLARED_KEY + 2] == -1).all()
        for _, _, card in record_plays(record):
            winner = play_card(st, rec, card)
            if winner >= 0:
                note_declarations(pub, st, rec, winner)
        trump = parse_suit(record["trump"])
        for seat in range(2):
            mine = [d for d in record["declarations"] if d["seat"] == seat]
            assert pub[PUB_DECLARED + seat] == sum(d["points"] for d in mine)
            keys = [declaration_key(np.uint32(sum(1 << parse_card(c) for c in d["cards"])), d["points"], trump,
                                    rec.roem_by_points) for d in mine]
            assert pub[PUB_DECLARED_KEY + seat] == max(keys, default=-1)
            declared += len(mine)
        side = roem_winner(pub[PUB_DECLARED_KEY:PUB_DECLARED_KEY + 4].copy(), 2, False, rec.roem_tie_first)
        assert (None if side < 0 else side) == record["result"]["roem_side"]
    assert played > 150 and declared > 100
