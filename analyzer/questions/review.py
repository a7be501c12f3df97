"""Review a played deal card by card (``belote review``): what each card cost.

For every card of a logged deal (a ``belote-deal/1`` record) that was not forced, the exact
solver values each legal card in that position with every card visible (double dummy,
``analyzer.players.solver``: the card points the troefmaker's side ends the hand with when
every card from there on is played perfectly; in Piekjas 3-4, which is not two-sided, the
troefmaker's result against the others playing together, the solver's *paranoid* value), and
the card's *loss* is the best card's value minus the played card's, from the mover's side's
point of view: what the card gave away against perfect play with open cards (0: as good as the
best). The value at the start of each trick traces the deal: the trick whose cards moved it
most is where the deal turned. Beside it, the card the ``pimc``
player would have played from what the seat saw (its worlds read the record's public
information, the bidding included), so a player sees both the open-card truth and what a
strong player without it chooses.

Per seat and per side the losses add up to what each gave away; the costliest card is where
the deal turned most.

**Error or bad luck.** A seat could not see the other hands, so the open-card loss blames it for
what it could not know. With ``worlds`` > 0 every card not forced is also valued *from what the
seat knew*: on ``worlds`` deals of the cards it could not see, drawn as pimc draws them
(consistent with its cards, the play so far and the stuk, and weighted by the bidding:
``analyzer.players.worlds``), each valued by the same solver, the mean with its 95% interval
(the *information value*, the troefmaker's side's card points like the open-card values). The
card's *information loss* is the paired mean of what it gives away against the seat's best card
by that value, world by world. Each card is then (``judge``):

- an **error** when the information loss is beyond the noise (its interval above 0, and at least
  one card point: ``MIN_LOSS``) and the card lost on the true deal;
- **lucky** when it is beyond the noise but the card lost nothing on the true deal;
- **bad luck** when it is not beyond the noise (the seat's best, or as good as it can tell) but
  the card lost on the true deal;
- neither otherwise.

Its points split what it gave away exactly: ``error`` = the information loss where beyond the
noise (else 0), and the rest, open-card loss minus error, is ``bad_luck`` when positive and
``lucky`` when negative (what the deal gave back), so ``error + bad_luck - lucky`` = the loss.
"""

from __future__ import annotations

import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field

import numba
import numpy as np

from analyzer.errors import BeloteError
from analyzer.game.played import PlayRefused, bidding, play_out, refusal
from analyzer.game.state import (
    ST_TO_MOVE,
    dekjas_state,
    is_over,
    legal_cards,
    play_card,
    record_plays,
    start_state,
    state_from_record,
)
from analyzer.players import choose, public_from_record, public_info, strong_workspace
from analyzer.players.knowledge import note_declarations
from analyzer.players.net_reasons import reason
from analyzer.players.policies import play_code
from analyzer.players.solver import Solver
from analyzer.players.worlds import SeatWorlds
from analyzer.rules import Rules
from analyzer.rules.cards import (
    NotationError,
    format_card,
    format_suit,
    mask_to_cards,
    parse_cards_in,
    parse_piles,
    parse_suit,
)
from analyzer.rules.deal_schema import check_record
from analyzer.runs.stats import t_quantile

OBJECTIVE = "points"  # the solver's card points (the pit awards aside): what the losses count
WORLDS = 32  # the worlds a decision is valued on from what the seat knew, by default (each one solved)


def default_worlds(rules: Rules) -> int:
    """``WORLDS`` in classic and Piekjas 2 (a classic deal in 4-16 s on 2 cores, a Piekjas 2 deal
    in under a second); 0 elsewhere, where the cards are judged by the open-card loss only unless
    worlds are asked for: in Piekjas 3-4 the solver's value is the paranoid one (the troefmaker
    against the others playing together: pessimistic, so an "error" there would be judged against a
    coalition no table plays) and 8 worlds already take 2-12 s a deal, and in Dekjas a world of the
    first tricks takes 1-6 s to solve (its face-down piles keep the whole deal in play: 15-75 s a
    deal on 8 worlds, one core)."""
    return WORLDS if rules.label in ("classic", "piekjas2") else 0


def exact_under(rules: Rules) -> bool:
    """Two-sided play (classic, Piekjas 2, Dekjas): the solver's value is exact; three or four
    sides (Piekjas 3-4): paranoid (``analyzer.players.solver``)."""
    return len(rules.sides) == 2


@dataclass
class CardReview:
    """One card of the deal: who played it in which trick, the legal cards and, when it was
    not forced, each one's solver value, the best cards, the loss and pimc's card."""

    trick: int
    seat: int
    card: int
    legal: list[int]
    value: int | None  # the position's solver value before the card (None: a forced card inside a trick)
    values: dict[int, int] | None = None  # None: forced (one legal card)
    best: list[int] = field(default_factory=list)
    loss: int = 0
    pimc: int | None = None
    losses: dict[int, int] | None = None  # what each legal card gives away against the best (None: forced)

    info: "Info | None" = None  # the values from what the seat knew (review's ``worlds``), None: not asked or forced
    game: dict | None = None  # what it cost in the game's unit (``game_costs``), None: nothing given away or not asked

    @property
    def forced(self) -> bool:
        return self.values is None


KINDS = ("error", "bad luck", "lucky")
MIN_LOSS = 1.0  # card points: the least information loss that makes a card an error (or lucky)


@dataclass
class Info:
    """A decision valued from what the seat knew: on ``worlds`` deals of its unseen cards, each
    legal card's mean solver value with its 95% half-width (the troefmaker's side's card points),
    the best cards by it (the mover's side's view), the played card's paired loss against the
    first of them (mean and 95% interval, card points of the mover's side), the verdict
    (``KINDS`` or "") and the points (``judge``)."""

    worlds: int
    values: dict[int, tuple[float, float]]
    best: list[int]
    loss: float
    loss_lo: float
    loss_hi: float
    kind: str
    error: float
    bad_luck: float
    lucky: float

    def as_dict(self) -> dict:
        r = lambda x: round(float(x), 2)  # noqa: E731
        return {"worlds": self.worlds, "values": {format_card(c): [r(m), r(h)] for c, (m, h) in self.values.items()},
                "best": [format_card(c) for c in self.best], "loss": r(self.loss), "loss_lo": r(self.loss_lo),
                "loss_hi": r(self.loss_hi), "kind": self.kind, "error": r(self.error), "bad_luck": r(self.bad_luck),
                "lucky": r(self.lucky)}


def judge(dd_loss: float, loss: float, loss_lo: float) -> tuple[str, float, float, float]:
    """A card's verdict and points from its open-card loss (``dd_loss``) and its information loss
    (mean ``loss``, 95% lower bound ``loss_lo``): (kind, error, bad_luck, lucky), with
    ``error + bad_luck - lucky == dd_loss`` (module docstring). A loss counts when its interval is
    above 0 and it is at least ``MIN_LOSS`` card points: a tenth of a point lost in one world of
    thirty is beyond the noise but no mistake a player would call one."""
    beyond = loss_lo > 0 and loss >= MIN_LOSS
    error = float(loss) if beyond else 0.0
    rest = float(dd_loss) - error
    bad_luck, lucky = max(rest, 0.0), max(-rest, 0.0)
    if beyond:
        kind = "error" if dd_loss > 0 else "lucky"
    else:
        kind = "bad luck" if dd_loss > 0 else ""
    return kind, error, bad_luck, lucky


def information(values, cards: list[int], played: int, sign: int, dd_loss: float) -> Info:
    """``Info`` from the solver's values of ``cards`` on each world (``values``: float[worlds,
    len(cards)], the troefmaker's side's card points); ``sign`` 1 where the mover is on the
    troefmaker's side, else -1."""
    v = np.asarray(values, float)
    n = v.shape[0]
    q = t_quantile(n - 1) if n > 1 else 0.0
    means = v.mean(0)
    half = q * v.std(0, ddof=1) / np.sqrt(n) if n > 1 else np.zeros(len(cards))
    mine = sign * means
    top = mine.max()
    best = [c for c, m in zip(cards, mine) if m >= top - 1e-9]
    b, j = cards.index(best[0]), cards.index(played)
    d = sign * (v[:, b] - v[:, j])
    loss = float(d.mean())
    h = float(q * d.std(ddof=1) / np.sqrt(n)) if n > 1 else 0.0
    kind, error, bad, lucky = judge(dd_loss, loss, loss - h)
    return Info(n, {c: (float(m), float(x)) for c, m, x in zip(cards, means, half)}, sorted(best), loss, loss - h,
                loss + h, kind, error, bad, lucky)


@dataclass
class Review:
    record: dict
    rules: Rules
    cards: list[CardReview]
    pimc_policy: str | None
    seconds: float
    final: int  # the solver's value of the finished hand (the troefmaker's side's card points in two-sided play)

    @property
    def exact(self) -> bool:
        return exact_under(self.rules)

    def side_of(self, seat: int) -> int:
        return self.rules.side_of(seat)

    def totals(self) -> dict:
        """Card points given away per seat and per side, and the cards valued."""
        seats = {s: 0 for s in range(self.rules.players)}
        valued = {s: 0 for s in range(self.rules.players)}
        for c in self.cards:
            if not c.forced:
                seats[c.seat] += c.loss
                valued[c.seat] += 1
        sides = {}
        for s, v in seats.items():
            sides[self.side_of(s)] = sides.get(self.side_of(s), 0) + v
        return {"seats": seats, "sides": sides, "valued": valued}

    def trajectory(self) -> list[tuple[int, int]]:
        """``(trick, value)`` at the start of each trick, then ``(last trick + 1, the value after the
        last card)`` (the finished hand's, for a whole deal): the deal's value as the cards fell."""
        starts = [(c.trick, c.value) for k, c in enumerate(self.cards) if k % self.rules.players == 0]
        return starts + [(self.cards[-1].trick + 1, self.final)]

    def values_after(self) -> list[int]:
        """The deal's value after every card, in the order played: the value of the card played
        where the seat had a choice, else unchanged (a forced card moves nothing); the last is
        the finished hand's (``final``). The review page's chart."""
        out, value = [], self.cards[0].value if self.cards else self.final
        for c in self.cards:
            value = c.values[c.card] if not c.forced else (value if c.value is None else c.value)
            out.append(int(value))
        return out

    def turning_trick(self) -> tuple[int, int] | None:
        """The trick whose cards moved the deal's value most, and by how much (troefmaker's side's
        view); None when no trick moved it."""
        tr = self.trajectory()
        moves = [(tr[k][0], tr[k + 1][1] - tr[k][1]) for k in range(len(tr) - 1)]
        best = max(moves, key=lambda m: abs(m[1]), default=None)
        return best if best is not None and best[1] != 0 else None

    def luck(self) -> dict | None:
        """Per seat and per side: the cards of each verdict (``KINDS``) and their points
        (``error``, ``bad_luck``, ``lucky``); the costliest error and the unluckiest card; None
        when the cards were not valued from what the seats knew."""
        judged = [c for c in self.cards if c.info is not None]
        if not judged:
            return None

        def tally(cards):
            out = {k.replace(" ", "_"): sum(1 for c in cards if c.info.kind == k) for k in KINDS}
            for p in ("error", "bad_luck", "lucky"):
                out[p + "_points"] = round(sum(getattr(c.info, p) for c in cards), 2)
            out["given_away"] = sum(c.loss for c in cards)
            return out

        seats = {s: tally([c for c in judged if c.seat == s]) for s in range(self.rules.players)}
        sides = {}
        for side in sorted({self.side_of(s) for s in range(self.rules.players)}):
            sides[side] = tally([c for c in judged if self.side_of(c.seat) == side])
        errors = [c for c in judged if c.info.kind == "error"]
        unlucky = [c for c in judged if c.info.bad_luck > 0]
        return {"worlds": max(c.info.worlds for c in judged), "seats": seats, "sides": sides,
                "costliest_error": max(errors, key=lambda c: c.info.error, default=None),
                "unluckiest": max(unlucky, key=lambda c: c.info.bad_luck, default=None)}

    def _luck_dict(self) -> dict | None:
        """``luck()`` as the JSON says it."""
        luck = self.luck()
        if luck is None:
            return None

        def card(c):
            return None if c is None else {"trick": c.trick, "seat": c.seat, "card": format_card(c.card),
                                           "loss": c.loss, **{k: round(getattr(c.info, k), 2)
                                                              for k in ("error", "bad_luck", "lucky")}}

        return {"worlds": luck["worlds"], "seats": {str(k): v for k, v in luck["seats"].items()},
                "sides": {str(k): v for k, v in luck["sides"].items()},
                "costliest_error": card(luck["costliest_error"]), "unluckiest": card(luck["unluckiest"])}

    def costliest(self) -> CardReview | None:
        """The card that gave away most (the first of equal ones), None when every card was as
        good as the best."""
        worst = max((c for c in self.cards if not c.forced), key=lambda c: c.loss, default=None)
        return worst if worst is not None and worst.loss > 0 else None

    def as_dict(self) -> dict:
        fc = format_card
        t = self.totals()
        worst = self.costliest()
        turn = self.turning_trick()
        return {
            "deal": self.record.get("deal"), "seed": self.record.get("seed"), "variant": self.rules.label,
            "trump": self.record["trump"], "troefmaker": self.record["troefmaker"], "objective": OBJECTIVE,
            "exact": self.exact, "pimc": self.pimc_policy,
            "cards": [{"trick": c.trick, "seat": c.seat, "card": fc(c.card), "forced": c.forced,
                       "value": c.value, "values": None if c.forced else {fc(k): v for k, v in c.values.items()},
                       "best": [fc(b) for b in c.best], "loss": c.loss,
                       "losses": None if c.forced else {fc(k): v for k, v in c.losses.items()},
                       "pimc": None if c.pimc is None else fc(c.pimc),
                       "info": None if c.info is None else c.info.as_dict(), "game": c.game} for c in self.cards],
            "luck": self._luck_dict(),
            "given_away": {"seats": {str(k): v for k, v in t["seats"].items()},
                           "sides": {str(k): v for k, v in t["sides"].items()},
                           "cards_valued": {str(k): v for k, v in t["valued"].items()}},
            "trajectory": [{"trick": t, "value": v} for t, v in self.trajectory()],
            "values_after": self.values_after(),
            "turning_trick": None if turn is None else {"trick": turn[0], "change": turn[1]},
            "costliest": None if worst is None else {"trick": worst.trick, "seat": worst.seat,
                                                     "card": fc(worst.card), "loss": worst.loss,
                                                     "best": [fc(b) for b in worst.best]},
            "seconds": round(self.seconds, 3),
            # the deal as it was played (analyzer.game.played): the bidding and turned card when recorded,
            # each trick's winner and points, the roem and stuk, the result
            "turned": self.record.get("turned"), "bids": self.record.get("bids"), "koe": self.record.get("koe"),
            "played": play_out(self.record, self.rules),
        }


def start_of(record: dict, rules: Rules):
    """The first-trick position of a played record and its plays ``[(trick, seat, card)]``."""
    if record.get("outcome") != "played":
        raise BeloteError(f"deal {record.get('deal')} was not played ({record.get('outcome')}): nothing to review")
    st, _ = state_from_record(record)
    return st, record_plays(record)


def _world_values(solvers, pool, worlds, legal: list[int]) -> list[list[int]]:
    """Each legal card's solver value on each world (in the worlds' order), the worlds dealt out in
    turn among ``solvers`` (one a thread: the solve releases the GIL)."""
    parts = [worlds[k::len(solvers)] for k in range(len(solvers))]

    def solve(k):
        return [[solvers[k].card_values(w).cards[c] for c in legal] for w in parts[k]]

    done = list(pool.map(solve, range(len(solvers)))) if pool is not None else [solve(0)]
    out = [None] * len(worlds)
    for k, vals in enumerate(done):
        out[k::len(solvers)] = vals
    return out


def review(record: dict, pimc: str | None = "pimc", seed: int = 0, progress=None, public=None,
           rules: Rules | None = None, worlds: int = 0, threads: int | None = None) -> Review:
    """Review one played record (``belote-deal/1``, or ``typed_record``'s): every card not forced
    valued by the solver, and (``pimc``: a play policy, None: not asked) the card that policy
    plays there, from what the seat saw (``public``; default: the record's public information,
    its bidding included). ``rules``: those of a typed record (a logged one is checked and
    names its own). ``worlds`` > 0: every card not forced valued from what the seat knew too
    (module docstring), on that many worlds drawn from the same public information, solved on
    ``threads`` threads (None: numba's, every core); the values do not depend on the threads."""
    t0 = time.perf_counter()
    rules = rules if rules is not None else check_record(record, f"deal {record.get('deal')}")
    rec = rules.record()
    st, plays = start_of(record, rules)
    solver = Solver(rules, OBJECTIVE)
    pub = public.copy() if public is not None else (public_from_record(record, rules) if pimc or worlds else None)
    start_pub = None if pub is None else pub.copy()  # the game-unit lines start from the first trick
    link = strong_workspace(rules, [play_code(pimc)]) if pimc else None
    pool = None
    if worlds:
        drawer = SeatWorlds(rules)
        n_threads = max(1, min(worlds, numba.config.NUMBA_NUM_THREADS if threads is None else threads))
        solvers = [solver] + [Solver(rules, OBJECTIVE) for _ in range(n_threads - 1)]
        pool = ThreadPoolExecutor(n_threads) if n_threads > 1 else None
    out = []
    for i, (trick, seat, card) in enumerate(plays):
        if int(st[ST_TO_MOVE]) != seat:
            raise BeloteError(f"deal {record.get('deal')}: seat {seat} plays out of turn in trick {trick + 1}")
        legal = mask_to_cards(int(legal_cards(st, rec)))
        if card not in legal:
            raise BeloteError(f"deal {record.get('deal')}: {format_card(card)} is not legal for seat {seat} "
                              f"in trick {trick + 1}")
        if len(legal) > 1:
            sol = solver.card_values(st)
            c = CardReview(trick + 1, seat, card, legal, int(sol.value))
            sign = 1 if solver.maximizes(st) else -1
            c.values = {k: int(v) for k, v in sol.cards.items()}
            top = max(sign * v for v in c.values.values())
            c.best = sorted(k for k, v in c.values.items() if sign * v == top)
            c.losses = {k: int(top - sign * v) for k, v in c.values.items()}
            c.loss = c.losses[card]
            if pimc:
                c.pimc = choose(pimc, st, rules, pub, seed=seed + i, workspace=link)
            if worlds:
                ws = drawer.draw(st, pub, worlds, seed * 1_000_003 + i)  # the decision's own worlds, from the seed
                if len(ws):
                    c.info = information(_world_values(solvers, pool, ws, legal), legal, card, sign, c.loss)
        else:  # forced: valued only where a trick starts (the trajectory)
            c = CardReview(trick + 1, seat, card, legal, None if i % rules.players else int(solver.value(st).value))
        out.append(c)
        winner = play_card(st, rec, card)
        if winner >= 0 and pub is not None and rules.declare_after_trick:
            note_declarations(pub, st, rec, winner)  # Dekjas: what the trick's winner declares is public
        if progress is not None:
            progress(i + 1, len(plays))
    if pool is not None:
        pool.shutdown()
    if worlds:  # the game's unit: did a card that gave something away change the deal's outcome?
        game_costs(record, rules, out, start_pub)
    return Review(record, rules, out, pimc, time.perf_counter() - t0, int(solver.value(st).value))


def _net(result: dict, side: int) -> int:
    """A side's score-sheet points minus the best other side's."""
    scores = result["scores"]
    return int(scores[side]) - max(int(v) for k, v in enumerate(scores) if k != side)


def game_costs(record: dict, rules: Rules, cards: list[CardReview], public=None) -> None:
    """For every card that gave something away (open-card loss > 0): the deal played on perfectly
    (the ``dd`` player, every card open) after it and after the best card, and what the card cost
    in the game's unit, ``CardReview.game``: both outcomes (made, dedans, tie; pit) and the
    difference of the mover's side's net score (its score-sheet points minus the best other
    side's). A 2-point slip that turns made into dedans costs more here than a 10-point one that
    does not. ``public``: the public information at the start (default: the record's; a typed deal
    has none of its own)."""
    link = strong_workspace(rules, [play_code("dd")])
    side = rules.side_of
    taker = side(int(record["troefmaker"]))

    def outcome(r):
        pit = r["pit"]["all_tricks_side"] is not None or bool(r["pit"]["trickless_sides"])
        return r["outcome"] + (" + pit" if pit else "")

    for k, c in enumerate(cards):
        if c.forced or c.loss <= 0:
            continue
        lines = [bot_line(record, k, "dd", rules=rules, first=x, link=link, public=public)["played"]
                 for x in (c.card, c.best[0])]
        played, best = (line["result"] for line in lines)
        # the troefmaker's side's card points of each line: the solver's values of the two cards
        points = [sum(t["points"] for t in line["tricks"] if side(t["winner"]) == taker) for line in lines]
        c.game = {"played": outcome(played), "best": outcome(best),
                  "cost": _net(best, side(c.seat)) - _net(played, side(c.seat)), "card_points": points}


# ---- the bot beside you -------------------------------------------------------------------------


def bot_line(record: dict, start: int, policy: str = "net", seed: int = 0, public=None,
             rules: Rules | None = None, first: int | None = None, link=None) -> dict:
    """The deal's cards up to card ``start`` (0-based: 0 replays none), then the rest played by
    ``policy`` in every seat, each from what it sees (``public``; default: the record's public
    information, the bidding included): ``{policy, from, cards (the bot's, in order),
    played}``, ``played`` as ``analyzer.game.played.play_out`` tells the finished deal (its
    ``result``: made, nat, litige, the scores), to set beside the deal's own. ``first``: the
    card played at ``start`` instead of the policy's (the game-unit check: a card, then perfect
    play); ``link``: a ``strong_workspace`` for the policy, reused over calls."""
    rules = rules if rules is not None else check_record(record, f"deal {record.get('deal')}")
    play_code(policy)  # a one-line error for a policy that is not one
    st, plays = start_of(record, rules)
    if not 0 <= start < len(plays):
        raise BeloteError(f"--bot-from {start + 1}: the deal has cards 1 to {len(plays)}")
    rec = rules.record()
    pub = public.copy() if public is not None else public_from_record(record, rules)
    link = link if link is not None else strong_workspace(rules, [play_code(policy)])
    seq, bot = [], []
    why = None
    k = 0
    while not is_over(st, rec):
        seat = int(st[ST_TO_MOVE])
        if k < start:
            card = plays[k][2]
        elif k == start and first is not None:
            card = first
            bot.append(card)
        else:
            if k == start and policy == "net":  # the shipped weights (net:v=2 is the row kept for duels)
                why = net_reason(st, rules, pub)  # what decided net's first card
            card = choose(policy, st, rules, pub, seed=seed + k, workspace=link)
            bot.append(card)
        seq.append((seat, card))
        winner = play_card(st, rec, card)
        if winner >= 0 and rules.declare_after_trick:
            note_declarations(pub, st, rec, winner)
        k += 1
    tricks = [{"plays": [[s, format_card(c)] for s, c in seq[t:t + rules.players]]}
              for t in range(0, len(seq), rules.players)]
    return {"policy": policy, "from": start, "cards": [format_card(c) for c in bot],
            "played": play_out({**record, "tricks": tricks}, rules), "reason": why}


def net_reason(st, rules: Rules, pub) -> dict | None:
    """What decided net's card here against its runner-up (``analyzer.players.net_reasons``), as
    the JSON says it: ``{card, other, margin, features: [{feature, name, share, on_card}]}``."""
    r = reason(st, rules, pub)
    if r is None:
        return None
    return {"card": format_card(r["card"]), "other": format_card(r["other"]), "margin": round(r["margin"], 3),
            "features": [{"feature": f, "name": name, "share": round(share, 3), "on_card": on}
                         for f, name, share, on in r["features"]]}


# ---- a deal typed by hand (docs/NOTATION.md) -------------------------------------------------


def typed_record(rules: Rules, hands: str, trump: str, taker: int, plays: str = "") -> dict:
    """A deal typed in the short notation (docs/NOTATION.md) as a ``belote-deal/1``-like record that
    ``review`` reads: ``hands`` each seat's cards at the first trick, seat 0 first, separated by
    ``/`` (Dekjas: each seat's 8 piles, ``Jh:7c`` a face-up card and the face-down card under it);
    ``trump`` a suit; ``taker`` the troefmaker's seat; ``plays`` the cards played so far in order
    (who plays each follows from the rules: seat 0 leads, each trick's winner leads the next).
    Every mistake is a one-line error naming it; an illegal card names the legal ones and the
    obligation of RULES.md §4 that forbids it (``analyzer.game.played.refusal``), raised as
    ``PlayRefused`` for the caller to word."""
    parts = [p for p in hands.split("/")]
    if len(parts) != rules.players:
        raise BeloteError(f"--hands gives {len(parts)} hands for {rules.players} players: one per seat, seat 0 "
                          "first, separated by / (e.g. \"Jh 9h ... / 7h 8h ... / ...\")")
    cards, piles = [], []
    for s, part in enumerate(parts):
        if rules.piles:  # §3 Dekjas: 8 piles a seat, a face-up card on a face-down one
            try:
                pile = parse_piles(part)
            except NotationError as e:
                raise BeloteError(f"--hands: seat {s}: {e}") from None
            if len(pile) != rules.first_deal:
                raise BeloteError(f"--hands: seat {s} has {len(pile)} piles, not {rules.first_deal} (dekjas: "
                                  f"{rules.first_deal} each, written face-up:face-down, e.g. Jh:7c)")
            piles.append(pile)
            got = [c for p in pile for c in p]
        else:
            got = parse_cards_in(part)
            if len(got) != rules.n_tricks:
                raise BeloteError(f"--hands: seat {s} holds {len(got)} cards, not {rules.n_tricks} ({rules.label}: "
                                  f"{rules.n_tricks} each at the first trick)")
        cards.append(got)
    flat = [c for h in cards for c in h]
    dup = sorted({c for c in flat if flat.count(c) > 1})
    if dup:
        raise BeloteError(f"--hands: {format_card(dup[0])} is dealt twice: every card once")
    try:
        t = parse_suit(trump)
    except NotationError:
        try:
            t = parse_suit(trump, "nl")  # the Dutch letters: h r k s
        except NotationError:
            raise BeloteError(f'--trump "{trump}" is not a suit: write h d c s (or the Dutch h r k s, or the '
                              "symbols)") from None
    if not 0 <= taker < rules.players:
        raise BeloteError(f"--taker: seat {taker} does not exist with {rules.players} players: seats 0..{rules.players - 1}")
    st = dekjas_state(rules, piles, t, taker) if rules.piles else start_state(rules, cards, t, taker)
    rec = rules.record()
    tricks = []
    for k, card in enumerate(parse_cards_in(plays) if plays.strip() else []):
        seat = int(st[ST_TO_MOVE])
        refused = refusal(st, rules, card)
        if refused is not None:
            raise PlayRefused(*refused, k + 1, rules.piles)
        if k % rules.players == 0:
            tricks.append({"plays": []})
        tricks[-1]["plays"].append([seat, format_card(card)])
        play_card(st, rec, card)
    dealt = ({"piles": [[[format_card(d), format_card(u)] for d, u in p] for p in piles]} if rules.piles else
             {"start_hands": [[format_card(c) for c in h] for h in cards]})
    return {"schema": "typed", "variant": rules.variant, "players": rules.players, "rules": rules.options(),
            "deal": None, "seed": None, "outcome": "played", "trump": format_suit(t), "troefmaker": taker,
            **dealt, "tricks": tricks}


def typed_deal_record(rules: Rules, hands: str, trump: str | None, taker, plays: str = "",
                      turned: str | None = None, bids: str | None = None) -> dict:
    """A typed deal with, optionally, its turned card and its bidding (``bids``: the calls in
    order, ``pass take:h ...``, as ``analyzer.game.played.bidding`` reads them): the bidding,
    when given, decides the trump and the troefmaker (and must agree with them where they are
    given too), and the turned card must lie where RULES.md §3 puts it. The record of
    ``typed_record`` with ``turned``, ``bids`` and ``koe`` added; every mistake one line."""
    card = None
    if turned:
        got = parse_cards_in(turned)
        if len(got) != 1:
            raise BeloteError(f"--turned must be one card, not \"{turned[:20]}\"")
        card = got[0]
    told = None
    if bids:
        if card is None:
            raise BeloteError("the bidding needs the turned card (--turned): its suit is the trump of round 1")
        told = bidding(rules, card, bids)
        if "next" in told:
            raise BeloteError(f"the bidding is not over: seat {told['next']['seat']} still calls "
                              f"({' '.join(told['next']['calls'])})")
        if told["outcome"] != "played":
            raise BeloteError(f"the bidding ends {told['outcome'].replace('_', ' ')}: the deal is not played")
        if trump is not None and trump.lower() != told["trump"] or taker not in (None, "", told["taker"]):
            raise BeloteError(f"the bidding makes seat {told['taker']} troefmaker in {told['trump']}, not the trump and "
                              "troefmaker given")
        trump, taker = told["trump"], told["taker"]
    if trump is None:
        raise BeloteError("the trump is missing: give the trump suit (h, d, c or s), or the bidding")
    record = typed_record(rules, hands, trump, 0 if taker in (None, "") else int(taker), plays)
    if card is not None:
        record["turned"] = format_card(card)
        _check_turned(rules, record, card)
    if told is not None:
        record["bids"], record["koe"] = told["bids"], told["koe"]
    return record


def _check_turned(rules: Rules, record: dict, turned: int) -> None:
    """Where the turned card must lie (RULES.md §3): with the troefmaker in classic (it takes it), one
    of the dealer's face-up cards in Dekjas (its last pile)."""
    card = format_card(turned)
    if rules.piles:
        if card not in [up for _, up in record["piles"][rules.players - 1]]:
            raise BeloteError(f"the turned card {card} is the dealer's last face-up card: it must be one of seat "
                              f"{rules.players - 1}'s face-up cards")
    elif rules.variant == "classic" and card not in record["start_hands"][record["troefmaker"]]:
        raise BeloteError(f"the turned card {card} goes to the troefmaker (RULES.md §3): seat {record['troefmaker']} "
                          "must hold it")


@dataclass
class Position:
    """One position of a deal: each legal card's solver value (with every card open) and what it
    gives away against the best, and the card pimc chooses from what the seat sees."""

    rules: Rules
    seat: int
    trick: int
    values: dict[int, int]
    best: list[int]
    losses: dict[int, int]
    pimc: int | None
    pimc_policy: str | None
    exact: bool

    def as_dict(self) -> dict:
        fc = format_card
        return {"variant": self.rules.label, "seat": self.seat, "trick": self.trick, "objective": OBJECTIVE,
                "exact": self.exact, "values": {fc(c): v for c, v in self.values.items()},
                "losses": {fc(c): v for c, v in self.losses.items()}, "best": [fc(c) for c in self.best],
                "pimc": None if self.pimc is None else fc(self.pimc), "pimc_policy": self.pimc_policy}


def analyse(record: dict, rules: Rules, pimc: str | None = "pimc", seed: int = 0) -> Position:
    """The position after the record's plays: every legal card of the seat to move valued by the
    solver, and pimc's card (from the state alone: a typed deal has no bidding to read)."""
    st, plays = start_of(record, rules)
    rec = rules.record()
    for _, _, card in plays:
        play_card(st, rec, card)
    if is_over(st, rec):
        raise BeloteError("--plays: every card is played: the hand is over, there is no card to analyse")
    solver = Solver(rules, OBJECTIVE)
    sol = solver.card_values(st)
    sign = 1 if solver.maximizes(st) else -1
    values = {int(k): int(v) for k, v in sol.cards.items()}
    top = max(sign * v for v in values.values())
    card = choose(pimc, st, rules, public_info(rules), seed=seed) if pimc else None
    return Position(rules, int(st[ST_TO_MOVE]), len(plays) // rules.players + 1, values,
                    sorted(k for k, v in values.items() if sign * v == top),
                    {k: int(top - sign * v) for k, v in values.items()}, card, pimc, exact_under(rules))


__all__ = ["review", "Review", "CardReview", "start_of", "OBJECTIVE", "typed_record", "analyse", "Position",
           "exact_under"]
