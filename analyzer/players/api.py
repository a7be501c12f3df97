"""The players' Python API for other programs (a GUI, another engine): ask a play policy
for its card in a position given what the seat knows (``choose``), build what the seat
knows beyond the state (``public_info``, ``public_from_record``), and solve a position
double dummy (``solve``). Plain Python over the kernels of ``analyzer.players.strong``
(its one compiled entry, the one the simulations call).
"""

from __future__ import annotations

import numpy as np

from analyzer.errors import BeloteError
from analyzer.game.state import STATE_SIZE, is_over
from analyzer.players import play
from analyzer.players.knowledge import (
    PUB_DECL,
    PUB_DECLARED_KEY,
    PUB_DIX_SEAT,
    PUB_KNOWN,
    PUB_ROEM_SIDE,
    PUB_SEEN_OUT,
    PUB_SIZE,
    PUB_STUK,
    PUB_TABLE,
    PUB_TURNED,
    fill_bidding,
    note_stuk,
)
from analyzer.players.policies import Policies, play_code
from analyzer.players.solver import Solution, Solver
from analyzer.players.strong import L_REC, L_SW, LINK_SIZE, N_REC, card_via_link, entry_link
from analyzer.rules import Rules
from analyzer.rules.cards import parse_card


def public_info(rules: Rules, seen_out=(), known=None, declarations=None, roem_side: int = -1,
                bidding: dict | None = None) -> np.ndarray:
    """The public-information array of a hand (``analyzer.players.knowledge``).

    seen_out: cards face up out of play (Piekjas 2-3: the card on the table, the fille).
    known: ``{seat: cards}`` everyone knows the seat received (classic and Piekjas 4: the
    troefmaker's table card; a Dix exchanger's turned card).
    declarations: ``{side: points}`` the side scores; ``roem_side``: that side. (Dekjas declares in
    play: a position given here starts with nothing declared; a replay notes each trick's declarations
    into it as it goes, ``knowledge.note_declarations``, as belote learn and belote review do.)
    bidding: what ``pimc:infer=bids`` reads (none: the bidding is not known, nothing is
    inferred from it): ``round`` the trump was made in (1, 2, or 3 for a koe), ``turned``
    (the turned card), ``bid`` (the seats' bidding policies, as ``--bid`` takes them; default
    heuristic), and where they apply ``table`` (the card on the table after a Dix; default the
    turned card), ``dix_seat``, ``smous_seat`` (whose smous was played) and ``forced`` (the
    seat whose call a question forced, and its round: ``(seat, round)``).
    Cards are card numbers (``analyzer.rules.cards.parse_card``).
    """
    pub = np.zeros(PUB_SIZE, np.int64)
    pub[PUB_SEEN_OUT] = sum(bit_ for bit_ in (1 << int(c) for c in seen_out))
    for seat, cards in (known or {}).items():
        if not 0 <= int(seat) < rules.players:
            raise BeloteError(f"public_info: seat {seat} does not exist with {rules.players} players")
        pub[PUB_KNOWN + int(seat)] = sum(1 << int(c) for c in cards)
    for side, pts in (declarations or {}).items():
        pub[PUB_DECL + int(side)] = int(pts)
    pub[PUB_ROEM_SIDE] = roem_side
    pub[PUB_DECLARED_KEY:PUB_DECLARED_KEY + 4] = -1  # Dekjas: nothing declared yet
    pub[PUB_DIX_SEAT] = -1
    pub[PUB_STUK] = -1  # stuk not announced: choose adds what a position's play announced
    if bidding is not None:
        unknown = set(bidding) - {"round", "turned", "bid", "table", "dix_seat", "smous_seat", "forced"}
        if unknown or "round" not in bidding or "turned" not in bidding:
            raise BeloteError("public_info: bidding takes round and turned, and optionally bid, table, dix_seat, "
                              f"smous_seat, forced (got {', '.join(sorted(bidding))})")
        if bidding["round"] not in (1, 2, 3):
            raise BeloteError(f"public_info: the bidding round is 1, 2 or 3 (a koe), not {bidding['round']}")
        pols = Policies.parse(bidding.get("bid", "heuristic"), "heuristic", rules.players)
        codes, _ = pols.codes()
        forced = bidding.get("forced")
        pub[PUB_TURNED] = int(bidding["turned"])
        pub[PUB_TABLE] = int(bidding.get("table", bidding["turned"]))
        pub[PUB_DIX_SEAT] = int(bidding.get("dix_seat", -1))
        fill_bidding(pub, rules.record(), int(bidding["round"]), int(bidding.get("smous_seat", -1)),
                     -1 if forced is None else 4 * int(forced[0]) + int(forced[1]), codes, pols.bid_params(rules))
    return pub


def public_from_record(record: dict, rules: Rules) -> np.ndarray:
    """The public information of a played ``belote-deal/1`` record (DEAL_LOG.md): the
    table card and the exchange, the fille, the declarations that score, and the bidding
    (its calls, and the bidding policies the record names)."""
    seen, known = [], {}
    exch = record.get("exchange")
    table = parse_card(exch["gave"]) if exch else parse_card(record["turned"])
    if rules.taker_gets_turned:  # classic, Piekjas 4: the troefmaker took the card on the table
        known.setdefault(int(record["troefmaker"]), []).append(table)
    elif rules.fille:  # Piekjas 2-3: the card on the table and the fille stay out of play, face up
        seen = [table, parse_card(record["fille"])]
    if exch:
        known.setdefault(int(exch["seat"]), []).append(parse_card(exch["got"]))
    # at the first trick the declarations are known, unless they are made after each trick (Dekjas)
    roem_side = None if rules.declare_after_trick else record["result"]["roem_side"]
    decl = {}
    if roem_side is not None:
        sides = record["sides"]
        decl = {roem_side: sum(d["points"] for d in record["declarations"] if d["seat"] in sides[roem_side])}
    bid = record["policies"]["bid"]
    last = record["bids"][-1]
    smous = [b["seat"] for b in record["bids"] if b["call"] == "smous"]
    bidding = {"round": int(last["round"]), "turned": parse_card(record["turned"]), "table": table,
               "bid": bid if isinstance(bid, str) else ",".join(f"{s}={n}" for s, n in bid.items()),
               "dix_seat": int(exch["seat"]) if exch else -1, "smous_seat": smous[-1] if smous else -1}
    return public_info(rules, seen_out=seen, known=known, declarations=decl,
                       roem_side=-1 if roem_side is None else int(roem_side), bidding=bidding)


def choose(policy: str, state: np.ndarray, rules: Rules, public: np.ndarray | None = None, seed: int = 0,
           workspace: np.ndarray | None = None) -> int:
    """The card (a card number) that play policy ``policy`` plays for the seat to move of
    ``state``, given what the seat knows (``public``, from ``public_info``; none: nothing
    beyond the state's public part; the stuk announcement the state's play made is added, as it
    is public). ``seed`` is the random number the policy draws from;
    the same seed gives the same card. Pass a ``workspace`` (``strong_workspace``) to
    reuse its tables over many calls.

    >>> from analyzer.rules import Rules
    >>> from analyzer.rules.cards import parse_cards, parse_suit, format_card
    >>> from analyzer.game.state import start_state
    >>> rules = Rules()
    >>> hands = [parse_cards(h) for h in ("Jh 9h Ah Tc 7s Ks Qd 8c", "7h 8h Qh Kh Ac Kc 9c 7c",
    ...                                   "Th As Ts 9s 8s Js Qs Ad", "Qc Jc 8d 7d 9d Td Kd Jd")]
    >>> st = start_state(rules, hands, trump=parse_suit("h"), taker=0)
    >>> format_card(choose("dd", st, rules))
    '9h'
    >>> format_card(choose("pimc:worlds=8", st, rules, public_info(rules), seed=1))
    '7s'
    """
    code = play_code(policy)
    if state.shape != (STATE_SIZE,) or state.dtype != np.int64:
        raise BeloteError("choose: state must be a game state (analyzer.game.state.new_state / start_state)")
    rec = rules.record()
    if is_over(state, rec):
        raise BeloteError("the hand is over: there is no card left to choose")
    pub = public_info(rules) if public is None else np.array(public, np.int64)
    if pub.shape != (PUB_SIZE,):
        raise BeloteError("choose: public must come from analyzer.players.public_info")
    note_stuk(pub, state, rec)  # the stuk announced in the state's play (by the seat that holds the other)
    link = workspace if workspace is not None else strong_workspace(rules, [code])
    if tuple(int(v) for v in link[L_REC:L_REC + N_REC]) != tuple(rec):
        raise BeloteError("choose: the workspace was made for other rules (strong_workspace(rules, ...))")
    if int(link[L_SW]) != link.ctypes.data + 8 * LINK_SIZE:  # its addresses point into the array it was copied from
        raise BeloteError("choose: the workspace is a copy; pass the array strong_workspace returned")
    return int(card_via_link(np.int64(code), state.copy(), pub, link, np.uint64(seed % 2**64)))


def strong_workspace(rules: Rules, codes=(play.DD,)) -> np.ndarray:
    """A workspace for ``choose`` (the searching players' memory, its table sized for the
    policies ``codes``), to reuse over many calls. The players run in the one compiled entry
    the simulations use (``analyzer.players.strong``), compiled on its first use."""
    return entry_link(rules.record(), codes)


def solve(state: np.ndarray, rules: Rules, objective: str = "points") -> Solution:
    """The double-dummy value of ``state`` and of each legal card of the seat to move
    (``analyzer.players.solver.Solver.card_values``; objective ``points`` or ``pit``).

    >>> from analyzer.rules import Rules
    >>> from analyzer.rules.cards import parse_cards, parse_suit
    >>> from analyzer.game.state import start_state
    >>> rules = Rules()
    >>> hands = [parse_cards(h) for h in ("Jh 9h Ah Tc 7s Ks Qd 8c", "7h 8h Qh Kh Ac Kc 9c 7c",
    ...                                   "Th As Ts 9s 8s Js Qs Ad", "Qc Jc 8d 7d 9d Td Kd Jd")]
    >>> sol = solve(start_state(rules, hands, trump=parse_suit("h"), taker=0), rules)
    >>> sol.value == max(sol.cards.values())
    True
    """
    return Solver(rules, objective).card_values(state)


__all__ = ["choose", "solve", "public_info", "public_from_record", "strong_workspace"]
