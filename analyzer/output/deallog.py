"""Deal logs: ``belote-deal/1`` records (docs/DEAL_LOG.md), written from the kernel's
trace of a hand, read back for ``belote show`` and for replay checks."""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path

from analyzer.players.bidding import CALL_NAMES, KOE, PLAYED, PASSED_OUT, SMOUS, TAKE
from analyzer.rules.cards import format_card, format_suit, mask_to_cards
from analyzer.rules.declarations import KIND_NAMES
from analyzer.errors import BeloteError
from analyzer.output.outdir import remove_unused, write_lines
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
    TR_BIDS,
    TR_DECL,
    TR_EXCH,
    TR_FILLE,
    TR_NDECL,
    TR_START,
    TR_STUK,
    TR_TRICKS,
    TRICK_STRIDE,
)
from analyzer.players.bidding import KOE_ROUND
from analyzer.rules.scoring import OUTCOME_NAMES
from analyzer.runs.games import DEFAULT_MAX_DEALS, game_deals
from analyzer.players.policies import Policies
from analyzer.rules.deal_schema import SCHEMA, check_record
from analyzer.runs.simulate import SimConfig, trace_hand
from analyzer.runs.limits import kernel_config



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
        "turned": format_card(deck[31] if rules.variant == "dekjas" else deck[n * rules.first_deal]),
    }
    bids = []
    for i in range(int(trace[TR_BIDS])):
        seat, rnd, call, suit = (int(x) for x in trace[TR_BIDS + 1 + 4 * i: TR_BIDS + 5 + 4 * i])
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
            "gave": format_card(trace[TR_EXCH + 1]),
            "got": format_card(trace[TR_EXCH + 2]),
        }
    else:
        rec["exchange"] = None
    rec["fille"] = format_card(trace[TR_FILLE]) if int(trace[TR_FILLE]) >= 0 else None
    if rules.variant == "dekjas":
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
            "leader": int(trace[b]),
            "plays": [[int(trace[b + 4 + 2 * k]), format_card(trace[b + 5 + 2 * k])] for k in range(n)],
            "winner": int(trace[b + 1]),
            "points": int(trace[b + 2]),
        }
        if rules.variant == "dekjas":
            trick["revealed"] = [
                [int(trace[b + 12 + 2 * j]), format_card(trace[b + 13 + 2 * j])] for j in range(int(trace[b + 3]))
            ]
        tricks.append(trick)
    rec["tricks"] = tricks
    decls = []
    for i in range(int(trace[TR_NDECL])):
        seat, kind_, mask, points, trick = (int(x) for x in trace[TR_DECL + 5 * i: TR_DECL + 5 * i + 5])
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


def game_records(config: SimConfig, game: int, max_deals: int = DEFAULT_MAX_DEALS) -> list[dict]:
    """The records of every deal of game ``game`` of ``config``'s run (``play_games``),
    each with the reserve and the game totals (``totals_before``) before it."""
    out = []
    for d in game_deals(kernel_config(config), game, max_deals):
        out.append(record_from_trace(config, d.index, d.deck, d.res, d.trace, policies=config.policies.seated(d.seats),
                                     reserve_before=d.reserve_before, totals_before=d.totals_before, game=game))
    return out


def write_log(path, config: SimConfig, count: int) -> int:
    """Write the first ``count`` hands of the run to ``path`` (JSON Lines), by the rule of
    output files (``analyzer.output.outdir.write_lines``): its folder created, written beside
    it and renamed into place, so a failure leaves any earlier file intact. Returns the
    number of records written."""
    count = min(count, config.deals)
    return _write_records(path, (hand_record(config, i) for i in range(count)))


def write_game_log(path, config: SimConfig, games: int, max_deals: int = DEFAULT_MAX_DEALS) -> int:
    """Write every deal of the first ``games`` games of the run to ``path``, as
    ``write_log`` does; returns the number of records written."""
    return _write_records(path, (r for g in range(games) for r in game_records(config, g, max_deals)))


# the temporary files of versions before output files were named after their target and
# writer's PID (tempfile.mkstemp's names): removed by the next log written beside them
_UNNAMED_TMP = r"\.belote-log-[a-z0-9_]{8}"


def _write_records(path, records) -> int:
    lines = (json.dumps(r, separators=(",", ":")) + "\n" for r in records)
    count = write_lines(path, lines, "--log", is_deal_log)
    removed = remove_unused(Path(os.path.abspath(path)).parent, _UNNAMED_TMP)
    if removed:
        print(f"belote: removed {', '.join(removed)}, left beside {path} by a killed run of an earlier version",
              file=sys.stderr)
    return count


def is_deal_log(path) -> bool:
    """Whether ``path`` is a deal log (its first line a belote-deal record): only those are
    replaced. Reads at most a record's worth of the first line (``check_file`` asks it of
    regular files only)."""
    try:
        with open(path) as f:
            first = f.readline(1 << 20)
        return json.loads(first).get("schema") == SCHEMA
    except (OSError, ValueError, AttributeError):
        return False


def read_log(path) -> list[dict]:
    """All records of a deal log, each checked against the ``belote-deal/1`` schema
    (``rules.deal_schema``) before anything uses it; one line naming the file, the line
    and the field for a missing or malformed file or record."""
    path = Path(path)
    if not path.is_file():
        raise BeloteError(f"no deal log at {path}: write one with 'belote simulate --log {path}'")
    records = []
    with open(path, "rb") as f:  # bytes: a line that is not UTF-8 is refused like one that is not JSON
        for lineno, line in enumerate(f, 1):
            if not line.strip():
                continue
            try:
                r = json.loads(line)
            except ValueError:  # JSONDecodeError, UnicodeDecodeError
                raise BeloteError(f"{path}:{lineno} is not JSON: a deal log has one belote-deal/1 record per line") from None
            check_record(r, f"{path}:{lineno}", f"a deal log holds {SCHEMA} records as 'belote simulate --log' writes them")
            records.append(r)
    if not records:
        raise BeloteError(f"{path} holds no deals")
    return records


__all__ = ["record_from_trace", "hand_record", "game_records", "write_log", "write_game_log", "read_log", "is_deal_log",
           "SCHEMA"]
