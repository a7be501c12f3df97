"""``duel``: two policy sets on the same deals, duplicate style.

A policy set is ``BID/PLAY``: a bidding policy (a registry name, ``calibrated`` or a policy
file) and a play policy (one name, or by role: ``taker=random,defence=heuristic``). Set A
and set B play every deal once per *seating*:

- classic: A on seats 0 and 2, B on 1 and 3; then swapped;
- two players (Piekjas 2, Dekjas): A on seat 0, B on seat 1; then swapped;
- Piekjas with 3 or 4 players: A holds one seat and B all the others, A rotated through
  every seat (3 or 4 seatings). This is not symmetric: B's seats are also each other's
  opponents.

Every seating of a deal is the same deal: the cards come from the deal's stream
(``seed_stream(seed, i)``), and the random stream is restarted at the same state for each
seating, so the k-th random number a hand draws (a random policy's card or call, the
cards of a smous redeal) is the same number in every seating, whichever seat draws it. A
seating whose policies are identical to another's plays the identical hand.

A's value in a seating is its *margin*: its side's hand score minus the mean of the other
sides' scores (two sides: A's score minus B's, which is also how ``take`` ranks calls;
with 3-4 players ``take``'s net, A's score minus the best other's, is reported beside it:
that one is below 0 even for equal policies, since the best of two or three others is
above the average). A deal's value is the mean of its seatings' margins; the mean over
deals has its 95% interval from the per-deal values (the seatings of a deal are paired).
Passed-out deals (classic) and smous redeals beyond ``MAX_REDEALS`` score 0 for all.

The split by role ("A's side took" / "A's side defended") is over seatings: the mean
margin of the seatings where A's side was the troefmaker's side, with a ratio-estimator
interval clustered by deal (the seatings of one deal are not independent). With equal
policies the two are exactly opposite. The take / made / dedans rates of each side are
shares of the seatings played (n = seatings).

With ``dd_deals`` > 0, each seating of the first ``dd_deals`` deals is replayed, traced,
and every card that was not forced is valued by the exact solver
(``analyzer.players.solver.Solver.card_values``): the *double-dummy loss* of a card is the
best legal card's value minus the played card's value, from the mover's side's point of
view (the solver's value is the taker side's card points; Piekjas 3-4: the troefmaker's
paranoid margin). Each hand's losses are added up per side and role (A or B, taking or
defending) and reported as a mean per hand with its n and 95% interval.
"""

from __future__ import annotations

import math
import time
from dataclasses import dataclass, field

import numpy as np

from analyzer.errors import BeloteError
from analyzer.game.state import ST_TO_MOVE, dekjas_state, legal_cards, play_card, start_state
from analyzer.players.policies import ROLES, Policies
from analyzer.players.solver import Solver
from analyzer.rules import Rules
from analyzer.rules.calls import PLAYED
from analyzer.rules.cards import N_CARDS
from analyzer.runs import driver, kernelcache
from analyzer.runs.hand import (
    RES_KIND,
    RES_SIZE,
    RES_TAKER,
    RES_TAKER_SIDE,
    RES_TRUMP,
    TK_PLAYS,
    TR_START,
    TR_TRICKS,
    TRACE_SIZE,
    TRICK_STRIDE,
    strong_address,
)
from analyzer.runs.limits import kernel_seed
from analyzer.runs.simulate import SEARCH_BATCH, SEARCH_CHUNK, set_threads
from analyzer.runs.stats import Z95, Mean, Rate, distinguishable, mean_from_sums, mean_of, rate
from analyzer.runs.units import (  # noqa: F401 (the layout of a duel row)
    D_BEST_SQ,
    D_BEST_SUM,
    D_DEALS,
    D_DEFEND,
    D_HANDS,
    D_NOT_PLAYED,
    D_SIDE,
    D_SQ,
    D_SUM,
    D_TAKE,
    DUEL_K,
    DUEL_WHO,
    trace_duel,
)

A, B = 0, 1
NAMES = ("A", "B")
DEFAULT_DD_DEALS = 200
_BATCH = 1 << 16  # deals per kernel call (a progress update each)
CHUNK = 1 << 11
# A searching play policy (dd, pimc) costs milliseconds a hand: the small chunks and batches of
# ``analyzer.runs.simulate`` (SEARCH_CHUNK, SEARCH_BATCH), so a signal is honoured within a chunk's
# time instead of after 2,048 deals (a classic pimc duel on 2 threads, SIGTERM after 6 s: 9.8 and
# 23.9 s to exit with chunks of 2,048 deals, 0.45-0.70 s with 8). The numbers do not depend on the split.


# --- the two policy sets --------------------------------------------------------------


@dataclass(frozen=True)
class PolicySet:
    """One side of a duel: ``BID/PLAY`` as typed, and the same policies at every seat."""

    spec: str
    policies: Policies

    @property
    def label(self) -> str:
        return self.policies.label()


def parse_set(spec: str, flag: str, players: int) -> PolicySet:
    """``heuristic/heuristic``, ``calibrated/taker=random,defence=heuristic``, ``FILE.json/random``.
    The last ``/`` splits (a policy file's path may hold more); the set plays every seat it
    is given, so per-seat policies are refused."""
    spec = (spec or "").strip()
    bid, sep, play = spec.rpartition("/")
    if not sep or not bid.strip() or not play.strip():
        raise BeloteError(f'{flag} "{spec}" must be BID/PLAY, e.g. {flag} heuristic/heuristic or '
                          f'{flag} calibrated/taker=random,defence=heuristic')
    for part in play.split(","):
        if part.partition("=")[0].strip().isdigit():
            raise BeloteError(f"{flag}: a duel's policy set plays every seat it sits at: give its play policy as "
                              f"one name or by role (taker=X,defence=Y), not per seat")
    if "=" in bid and bid.partition("=")[0].strip().isdigit():
        raise BeloteError(f"{flag}: a duel's policy set bids at every seat it sits at: give one bidding policy, "
                          f"not per seat")
    return PolicySet(spec, Policies.parse(bid.strip(), play.strip(), players))


def seatings(rules: Rules) -> list[tuple[int, ...]]:
    """Who sits where in each seating: ``who[s]`` is A (0) or B (1) at seat s."""
    n = rules.players
    if rules.partners:
        return [(A, B, A, B), (B, A, B, A)]
    if n == 2:
        return [(A, B), (B, A)]
    return [tuple(A if s == j else B for s in range(n)) for j in range(n)]


def seating_text(rules: Rules) -> str:
    n = rules.players
    if rules.partners:
        return "each deal twice: A on seats 0+2 and B on 1+3, then swapped"
    if n == 2:
        return "each deal twice: A on seat 0 and B on seat 1, then swapped"
    return (f"each deal {n} times: A holds one seat and B the other {n - 1}, A rotated through "
            f"every seat (not symmetric: B's seats also play each other)")


def _a_side(rules: Rules, who) -> int:
    return rules.side_of(who.index(A))


def kernel_inputs(rules: Rules, a: PolicySet, b: PolicySet, bid_params=None):
    """(rules record, bid codes int64[2n], play codes int64[2, 8], bid parameters (2n, P), cfg)
    as ``analyzer.runs.units.duel_unit`` reads them; ``bid_params`` = (A's rows, B's rows)
    instead of the sets' own (calibration's sweeps)."""
    n = rules.players
    ba, pa = a.policies.codes()
    bb, pb = b.policies.codes()
    bid = np.concatenate([ba, bb]).astype(np.int64)
    play = np.ascontiguousarray(np.hstack([pa, pb]), dtype=np.int64)
    rows = bid_params if bid_params is not None else (a.policies.bid_params(rules), b.policies.bid_params(rules))
    params = np.ascontiguousarray(np.vstack(rows), dtype=np.float64)
    seats = seatings(rules)
    k = len(seats)
    cfg = np.zeros(DUEL_WHO + 5 * k, np.int64)
    cfg[DUEL_K] = k
    for j, who in enumerate(seats):
        cfg[DUEL_WHO + 4 * j:DUEL_WHO + 4 * j + n] = who
        cfg[DUEL_WHO + 4 * k + j] = _a_side(rules, who)
    return (rules.record(), bid, play, params), cfg


# --- results ----------------------------------------------------------------------------


def _ratio(x, xx, c, cc, xc, scale) -> Mean:
    """Mean of seating values ``sum(x) / sum(c)`` (divided by ``scale``) with a delta-method
    interval clustered by deal: var = sum((x_i - m c_i)^2) / (sum c)^2."""
    n = int(c)
    if n <= 0:
        nan = float("nan")
        return Mean(0, nan, nan, nan, nan, nan)
    m = x / c
    ss = max(0.0, xx - 2 * m * xc + m * m * cc)
    se = math.sqrt(ss) / c / scale
    mean = m / scale
    return Mean(n, mean, se, mean - Z95 * se, mean + Z95 * se, se * math.sqrt(n))


@dataclass
class SideRates:
    """One side's bidding outcomes over the seatings played."""

    took: Rate  # its side was the troefmaker's side / seatings
    made: Rate  # made / its takes
    dedans: Rate
    tie: Rate
    capot: Rate  # won every trick / its takes

    def as_dict(self):
        return {k: getattr(self, k).as_dict() for k in ("took", "made", "dedans", "tie", "capot")}


@dataclass
class DdLoss:
    """Double-dummy value given away per hand by one side in one role."""

    side: str  # "A" or "B"
    role: str  # "taker" or "defence"
    loss: Mean  # solver points a hand
    cards: int  # cards valued (not forced)


@dataclass
class DuelResult:
    rules: Rules
    a: PolicySet
    b: PolicySet
    seed: int
    deals: int
    seatings: list
    margin: Mean  # A's mean margin per deal over B (paired over the seatings)
    net_best: Mean | None  # 3-4 players: A's score minus the best other's, per deal
    taking: Mean  # A's margin in the seatings where A's side took
    defending: Mean  # ... where another side took
    sides: list  # SideRates of A and B
    not_played: Rate  # seatings passed out or redealt past the cap
    hands: int
    seconds: float
    dd: list = field(default_factory=list)  # DdLoss rows (with dd_deals)
    dd_deals: int = 0
    dd_seconds: float = 0.0
    dd_positions: int = 0
    row: np.ndarray = field(repr=False, default=None)

    @property
    def beyond_noise(self) -> bool:
        return distinguishable(self.margin)

    def verdict(self) -> str:
        m = self.margin
        if m.n > 1 and m.sd == 0 and m.mean == 0:
            return f"A and B play the same hands on every deal (n={m.n:,}): no difference."
        if self.beyond_noise:
            who, other = ("A", "B") if m.mean > 0 else ("B", "A")
            return (f"{who} beats {other} by {abs(m.mean):.2f} points a deal (95% CI {m.lo:+.2f} to {m.hi:+.2f} for A, "
                    f"n={m.n:,} deals), beyond the noise.")
        return (f"A - B = {m.mean:+.2f} ± {Z95 * m.se:.2f} points a deal (n={m.n:,} deals): inside the noise, "
                "not distinguishable.")

    def as_dict(self) -> dict:
        r = self.rules
        return {
            "inputs": {"variant": r.variant, "players": r.players, "deals": self.deals, "seed": self.seed,
                       "rules": r.options(),
                       "a": {"spec": self.a.spec, "policies": self.a.policies.describe()},
                       "b": {"spec": self.b.spec, "policies": self.b.policies.describe()},
                       "dd_deals": self.dd_deals},
            "seatings": {"who": [["AB"[w] for w in who] for who in self.seatings], "text": seating_text(r)},
            "margin": self.margin.as_dict(),
            "net_vs_best_other": self.net_best.as_dict() if self.net_best else None,
            "a_taking": self.taking.as_dict(),
            "a_defending": self.defending.as_dict(),
            "sides": {NAMES[w]: s.as_dict() for w, s in enumerate(self.sides)},
            "not_played": self.not_played.as_dict(),
            "dd_loss": [{"side": d.side, "role": d.role, "cards_valued": d.cards, **d.loss.as_dict()} for d in self.dd],
            "verdict": {"beyond_noise": self.beyond_noise, "text": self.verdict()},
            "hands_simulated": self.hands,
            "seconds": round(self.seconds, 3),
            "dd_seconds": round(self.dd_seconds, 3),
            "dd_positions": self.dd_positions,
        }


def _results(rules, a, b, seed, row, seconds) -> DuelResult:
    seats = seatings(rules)
    k = len(seats)
    scale = rules.record().n_sides - 1  # v = scale x margin
    n = int(row[D_DEALS])
    hands = int(row[D_HANDS])
    margin = mean_from_sums(row[D_SUM] / (k * scale), row[D_SQ] / (k * scale) ** 2, n)
    best = mean_from_sums(row[D_BEST_SUM] / k, row[D_BEST_SQ] / k ** 2, n) if scale > 1 else None
    split = [_ratio(*[float(x) for x in row[o:o + 5]], scale) for o in (D_TAKE, D_DEFEND)]
    sides = []
    for w in (A, B):
        o = D_SIDE + 5 * w
        took = int(row[o])
        sides.append(SideRates(rate(took, hands), rate(row[o + 1], took), rate(row[o + 2], took),
                               rate(row[o + 3], took), rate(row[o + 4], took)))
    return DuelResult(rules, a, b, seed, n, seats, margin, best, split[0], split[1], sides,
                      rate(row[D_NOT_PLAYED], hands), hands, seconds, row=row.copy())


# --- the double-dummy loss ------------------------------------------------------------


def line_loss(solver, st: np.ndarray, plays) -> list[tuple[int, int]]:
    """Play ``plays`` (``(seat, card)`` in order) from position ``st`` (not changed) and value
    every card that was not forced: ``[(seat, loss), ...]``, one per valued card, where loss
    is the best legal card's solver value minus the played card's, from the mover's side's
    point of view (0 when the played card is as good as the best)."""
    rec = solver.rec
    work = st.copy()
    out = []
    for seat, card in plays:
        if int(work[ST_TO_MOVE]) != seat:
            raise ValueError(f"seat {seat} plays out of turn (seat {int(work[ST_TO_MOVE])} is to move)")
        legal = int(legal_cards(work, rec))
        if not legal >> card & 1:
            raise ValueError(f"card {card} is not legal for seat {seat}")
        if bin(legal).count("1") > 1:
            sol = solver.card_values(work)
            v = sol.cards[card]
            loss = sol.value - v if solver.maximizes(work) else v - sol.value
            out.append((seat, int(loss)))
        play_card(work, rec, card)
    return out


def _start_from_trace(rules: Rules, deck, res, trace):
    """The first-trick position of a traced hand and its plays ``[(seat, card), ...]``."""
    trump, taker = int(res[RES_TRUMP]), int(res[RES_TAKER])
    n = rules.players
    if rules.piles:
        piles = [[(int(deck[2 * i + s]), int(deck[16 + 2 * i + s])) for i in range(8)] for s in range(2)]
        st = dekjas_state(rules, piles, trump, taker)
    else:
        st = start_state(rules, [int(trace[TR_START + s]) for s in range(n)], trump, taker)
    plays = []
    for t in range(rules.n_tricks):
        b = TR_TRICKS + TRICK_STRIDE * t
        plays += [(int(trace[b + TK_PLAYS + 2 * j]), int(trace[b + TK_PLAYS + 1 + 2 * j])) for j in range(n)]
    return st, plays


def dd_losses(rules: Rules, a: PolicySet, b: PolicySet, seed: int, deals: int, progress=None):
    """The double-dummy loss of the first ``deals`` deals of the duel run ``seed``:
    (DdLoss rows for A/B x taker/defence, positions valued, seconds)."""
    args, cfg = kernel_inputs(rules, a, b)
    rec, bid, play, params = args
    strong_fn = strong_address(play)
    seats = seatings(rules)
    solver = Solver(rules)
    per_hand = {(w, r): [] for w in (A, B) for r in (0, 1)}
    cards = {key: 0 for key in per_hand}
    deck = np.zeros(N_CARDS, np.int64)
    res = np.zeros(RES_SIZE, np.int64)
    trace = np.zeros(TRACE_SIZE, np.int64)
    positions = 0
    t0 = time.perf_counter()
    for i in range(deals):
        for j, who in enumerate(seats):
            args = (kernel_seed(seed), i, rec, bid, play, params, cfg, j, deck, res, trace, strong_fn)
            kernelcache.compile_first(trace_duel, args, kernelcache.HAND_LOCK)  # the hand compiled once
            trace_duel(*args)
            if int(res[RES_KIND]) != PLAYED:
                continue
            st, plays = _start_from_trace(rules, deck, res, trace)
            taker_side = int(res[RES_TAKER_SIDE])

            def key(seat):  # (A or B, role) of a seat in this hand
                return who[seat], 0 if rules.side_of(seat) == taker_side else 1

            hand = {key(s): 0 for s in range(rules.players)}  # the side-roles present in this hand
            for seat, loss in line_loss(solver, st, plays):
                hand[key(seat)] += loss
                cards[key(seat)] += 1
                positions += 1
            for k_, v in hand.items():
                per_hand[k_].append(v)
        if progress is not None:
            progress(i + 1)
    rows = [DdLoss(NAMES[w], ROLES[r], mean_of(per_hand[(w, r)]), cards[(w, r)]) for w in (A, B) for r in (0, 1)]
    return rows, positions, time.perf_counter() - t0


# --- the run ----------------------------------------------------------------------------


def duel(rules: Rules, a: PolicySet, b: PolicySet, *, deals: int = 100_000, seed: int = 1,
         threads: int | None = None, dd_deals: int = 0, progress=None, dd_progress=None,
         chunk: int | None = None, bid_params=None) -> DuelResult:
    """Play ``deals`` deals once per seating of A and B (see the module docstring); with
    ``dd_deals``, the double-dummy loss of the first ``dd_deals`` deals too.
    ``progress(done)`` after each batch of deals; ``dd_progress(done)`` after each dd deal.
    ``chunk``: deals per chunk (default ``CHUNK``, ``SEARCH_CHUNK`` when a play policy searches).

    Example::

        >>> from analyzer.rules import Rules
        >>> r = Rules()
        >>> res = duel(r, parse_set("heuristic/heuristic", "--a", 4), parse_set("heuristic/random", "--b", 4),
        ...            deals=20_000)  # doctest: +SKIP
        >>> print(res.verdict())  # doctest: +SKIP
    """
    if deals <= 0:
        raise BeloteError(f"--deals must be a positive number of deals, not {deals}")
    if seed < 0:
        raise BeloteError(f"--seed must be 0 or more, not {seed}")
    if dd_deals < 0:
        raise BeloteError(f"--dd-deals must be 0 or more, not {dd_deals}")
    args, cfg = kernel_inputs(rules, a, b, bid_params)
    set_threads(threads)
    searching = a.policies.searching or b.policies.searching
    chunk = chunk or (SEARCH_CHUNK if searching else CHUNK)
    batch = SEARCH_BATCH if searching else _BATCH
    row = None
    done = 0
    t0 = time.perf_counter()
    while done < deals:
        n = min(batch, deals - done)
        part = driver.run_units(driver.DUEL, seed, done, n, chunk, args, cfg)
        row = part if row is None else row + part
        done += n
        if progress is not None:
            progress(done)
    out = _results(rules, a, b, seed, row, time.perf_counter() - t0)
    if dd_deals:
        add_dd_loss(out, dd_deals, dd_progress)
    return out


def add_dd_loss(r: DuelResult, deals: int, progress=None) -> DuelResult:
    """Add the double-dummy loss of the first ``deals`` deals (at most the duel's) to ``r``."""
    m = min(deals, r.deals)
    r.dd, r.dd_positions, r.dd_seconds = dd_losses(r.rules, r.a, r.b, r.seed, m, progress)
    r.dd_deals = m
    return r


__all__ = ["PolicySet", "parse_set", "seatings", "seating_text", "duel", "DuelResult", "line_loss", "dd_losses",
           "add_dd_loss",
           "DEFAULT_DD_DEALS"]
