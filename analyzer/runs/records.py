"""``belote-deal/1`` records (docs/DEAL_LOG.md) built from the kernel's trace of a hand: data
of the runs stage, used by the deal log (``analyzer.output.deallog``, which writes and reads
them) and by the questions that replay hands (``analyzer.questions.impact``)."""

from __future__ import annotations

from analyzer.rules.calls import CALL_NAMES, KOE, KOE_ROUND, PASSED_OUT, PLAYED, SMOUS, TAKE
from analyzer.players.policies import Policies
from analyzer.rules.cards import format_card, format_suit, mask_to_cards
from analyzer.rules.declarations import KIND_NAMES
from analyzer.rules.deal_schema import SCHEMA
from analyzer.rules.scoring import OUTCOME_NAMES
from analyzer.runs.games import DEFAULT_MAX_DEALS, game_deals
from analyzer.game.auction import CALL_STRIDE, CL_CALL, CL_ROUND, CL_SEAT, CL_SUIT
from analyzer.runs.hand import (
    RES_KIND,
    RES_OUTCOME,
    RES_RAW,
    RES_CARD,
    RES_RESERVE,
    RES_ROEM_SIDE,
    RES_SCORES,
    RES_TAKER,
    RES_TRICKS,
    RES_TRUMP,
    RES_ROUND,
    DC_KIND,
    DC_MASK,
    DC_POINTS,
    DC_SEAT,
    DC_TRICK,
    DECL_STRIDE,
    TK_LEADER,
    TK_N_REVEALED,
    TK_PLAYS,
    TK_POINTS,
    TK_REVEALED,
    TK_WINNER,
    TR_BIDS,
    TR_DECL,
    TR_EXCH,
    TR_EXCH_GAVE,
    TR_EXCH_GOT,
    TR_FILLE,
    TR_NDECL,
    TR_START,
    TR_STUK,
    TR_TRICKS,
    TRICK_STRIDE,
)
from analyzer.runs.limits import kernel_config
from analyzer.runs.simulate import SimConfig, trace_hand


def _cards(mask) -> list[str]:
    return [format_card(c) for c in mask_to_cards(int(mask))]


def record_from_trace(config: SimConfig, index: int, deck, res, trace, *, policies: Policies | None = None,
                      reserve_before: int = 0, totals_before: list | None = None, game: int | None = None) -> dict:
    """The DEAL_LOG.md record of hand ``index`` of ``config``'s run; inside a game (deal
    ``index`` of game ``game``) also the seats' ``policies``, the reserve and the game
    totals before the hand."""
    rules = config.rules
    n = rules.players
    policies = policies or config.policies
    rec = {
        "schema": SCHEMA,
        "variant": rules.variant,
        "players": n,
        "rules": rules.options(),
        "seed": config.seed,
        **({"game": int(game)} if game is not None else {}),
        "deal": int(index),
        "policies": policies.describe(),
        "sides": rules.sides,
        "deck": [format_card(c) for c in deck],
        "turned": format_card(deck[rules.turned_position]),
    }
    bids = []
    for i in range(int(trace[TR_BIDS])):
        c = TR_BIDS + 1 + CALL_STRIDE * i
        seat, rnd, call, suit = (int(trace[c + f]) for f in (CL_SEAT, CL_ROUND, CL_CALL, CL_SUIT))
        b = {"seat": seat, "round": rnd, "call": CALL_NAMES[call]}
        if call in (TAKE, SMOUS, KOE):
            b["suit"] = format_suit(suit)
        bids.append(b)
    rec["bids"] = bids
    kind = int(res[RES_KIND])
    if kind != PLAYED:
        rec["outcome"] = "passed_out" if kind == PASSED_OUT else "redeal"
        return rec
    rec["outcome"] = "played"
    if totals_before is not None:
        rec["totals_before"] = [int(x) for x in totals_before]
    trump = int(res[RES_TRUMP])
    rec["trump"] = format_suit(trump)
    rec["troefmaker"] = int(res[RES_TAKER])
    rec["koe"] = int(res[RES_ROUND]) == KOE_ROUND
    if int(trace[TR_EXCH]) >= 0:
        rec["exchange"] = {
            "seat": int(trace[TR_EXCH]),
            "gave": format_card(trace[TR_EXCH_GAVE]),
            "got": format_card(trace[TR_EXCH_GOT]),
        }
    else:
        rec["exchange"] = None
    rec["fille"] = format_card(trace[TR_FILLE]) if int(trace[TR_FILLE]) >= 0 else None
    if rules.piles:
        rec["piles"] = [
            [[format_card(deck[2 * i + s]), format_card(deck[16 + 2 * i + s])] for i in range(8)]
            for s in range(2)
        ]
    else:
        rec["start_hands"] = [_cards(trace[TR_START + s]) for s in range(n)]
    tricks = []
    for t in range(rules.n_tricks):
        b = TR_TRICKS + TRICK_STRIDE * t
        trick = {
            "leader": int(trace[b + TK_LEADER]),
            "plays": [[int(trace[b + TK_PLAYS + 2 * k]), format_card(trace[b + TK_PLAYS + 1 + 2 * k])] for k in range(n)],
            "winner": int(trace[b + TK_WINNER]),
            "points": int(trace[b + TK_POINTS]),
        }
        if rules.piles:
            trick["revealed"] = [
                [int(trace[b + TK_REVEALED + 2 * j]), format_card(trace[b + TK_REVEALED + 1 + 2 * j])]
                for j in range(int(trace[b + TK_N_REVEALED]))
            ]
        tricks.append(trick)
    rec["tricks"] = tricks
    decls = []
    for i in range(int(trace[TR_NDECL])):
        d = TR_DECL + DECL_STRIDE * i
        seat, kind_, mask, points, trick = (int(trace[d + f]) for f in (DC_SEAT, DC_KIND, DC_MASK, DC_POINTS, DC_TRICK))
        decls.append({"seat": seat, "kind": KIND_NAMES[kind_], "cards": _cards(mask), "points": points, "trick": trick})
    rec["declarations"] = decls
    stuk = int(trace[TR_STUK])
    rec["stuk"] = {"seat": stuk, "points": 20} if stuk >= 0 else None
    sides = len(rules.sides)
    tricks_won = [int(res[RES_TRICKS + s]) for s in range(sides)]
    roem_side = int(res[RES_ROEM_SIDE])
    all_side = next((s for s in range(sides) if tricks_won[s] == rules.n_tricks), None)
    rec["result"] = {
        "card_points": [int(res[RES_CARD + s]) for s in range(sides)],
        "roem_side": roem_side if roem_side >= 0 else None,
        "raw_totals": [int(res[RES_RAW + s]) for s in range(sides)],
        "outcome": OUTCOME_NAMES[int(res[RES_OUTCOME])],
        "pit": {"all_tricks_side": all_side, "trickless_sides": [s for s in range(sides) if tricks_won[s] == 0]},
        "reserve_before": int(reserve_before),
        "reserve_after": int(res[RES_RESERVE]),
        "scores": [int(res[RES_SCORES + s]) for s in range(sides)],
    }
    return rec


def hand_record(config: SimConfig, index: int) -> dict:
    """Simulate hand ``index`` of the run again, traced, and return its record."""
    deck, res, trace = trace_hand(kernel_config(config), index)
    return record_from_trace(config, index, deck, res, trace)


def game_records(config: SimConfig, game: int, max_deals: int = DEFAULT_MAX_DEALS,
                 duplicate: bool = False) -> list[dict]:
    """The records of every deal of game ``game`` of ``config``'s run (``play_games``, with
    ``duplicate`` as it was given), each with the reserve and the game totals (``totals_before``)
    before it."""
    out = []
    for d in game_deals(kernel_config(config), game, max_deals, duplicate):
        out.append(record_from_trace(config, d.index, d.deck, d.res, d.trace, policies=config.policies.seated(d.seats),
                                     reserve_before=d.reserve_before, totals_before=d.totals_before, game=game))
    return out


__all__ = ["record_from_trace", "hand_record", "game_records"]
