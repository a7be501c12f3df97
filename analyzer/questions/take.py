"""``take``: should I take with this hand? Every open call compared on the same deals.

The player knows its own cards at bidding time, the turned card, its seat and the
bidding round reached (Dekjas: both players' face-up cards). Sample ``i`` of a run
puts those cards at their places in the dealing order of DEAL_LOG.md, shuffles the
unknown positions with the stream ``seed_stream(seed, i)`` (``shuffle_rest``), and then
plays the hand once per candidate call, with that decision forced and the random stream
restarted at the same state each time, so the calls are compared on identical deals
(paired). Everything else is the policies' doing: earlier seats bid before the forced
decision, later seats after it, and all seats play.

Conditioning (rejection sampling): when earlier seats bid before the player, a sample
counts only if they all passed under their bidding policy, i.e. if the forced decision
was reached (``RES_FORCED``). The acceptance rate is reported. The policies are the
caller's, per seat: ``heuristic`` here by default, ``calibrated`` by default on the command
line (``policy_files.default_bid``), so the earlier seats' passes can be conditioned on
either bidder, or on a mix (``0=heuristic,1=calibrated``). In round 2 the player
itself must have passed in round 1: its heuristic round-1 threshold is lifted out of
reach for these runs (a random bidder's round-1 takes are rejected instead).

Scores are the hand scores of the player's side (RULES.md §6; a classic passed-out deal
scores 0 for everyone). A smous answered with a redeal (§3.5) is followed honestly: new
cards from the sample's stream, the same dealer, every seat's policies, and that hand's
scores count, so a redeal is worth what a fresh deal at that seat is worth. The outcome
rates (made, dedans, ...) describe the hand asked about; "not played" counts its redeals.
Counts are integer sums per chunk, so the numbers are identical whatever the thread
count. One sample is ``analyzer.runs.units.take_unit``, run by the one driver (kind ``TAKE``).
"""

from __future__ import annotations

import math
import time
from dataclasses import dataclass, field

import numpy as np

from analyzer.runs import driver
from analyzer.players.bidding import P_THR1
from analyzer.rules.calls import CALL_NAMES, PASS, SMOUS, TAKE, calls_in, legal_calls
from analyzer.rules.cards import (
    N_CARDS,
    SUIT_NAMES,
    format_card,
    format_cards,
    format_suit,
    parse_card,
    parse_cards,
    parse_suit,
)
from analyzer.errors import BeloteError
from analyzer.players.policies import Policies
from analyzer.players.policy_files import bid_provenance
from analyzer.rules import VARIANT_ROWS, Rules
from analyzer.runs.simulate import SEARCH_BATCH, SEARCH_CHUNK, SimConfig, set_threads
from analyzer.runs.stats import (
    Mean,
    Rate,
    Z95,
    control_variate,
    control_variate_rate,
    distinguishable,
    mean_from_sums,
    rate,
)
from analyzer.runs.units import (  # noqa: F401 (the layout of a take row)
    F_CAPOT_FOR,
    F_DEDANS,
    F_MADE,
    F_MSQ,
    F_MSUM,
    F_NOT_PLAYED,
    F_OTHERS,
    F_PIT_AGAINST,
    F_SQ,
    F_SUM,
    F_TIE,
    F_WE_TAKE,
    MAX_REDEALS,
    N_F,
    T_ACCEPTED,
    T_ATTEMPTS,
    T_HANDS,
    T_HEAD,
    TAKE_CALLS,
    TAKE_DECK,
    TAKE_FIXED,
    TAKE_K,
    TAKE_SIDE,
    take_row_size,
)

_BATCH = 1 << 16  # samples per kernel call
_FIRST_PRECISION_BATCH = 1 << 14  # --precision: the first look at the noise
_SCORES_BATCH = 1 << 13  # samples per kernel call when every deal's scores are kept


# --- the situation -----------------------------------------------------------------------


@dataclass(frozen=True)
class Call:
    """A call open to the player: ``take`` or ``smous`` on a suit, or ``pass``."""

    call: int  # analyzer.players.bidding PASS / TAKE / SMOUS
    suit: int  # -1 for pass

    @property
    def label(self) -> str:
        if self.call == PASS:
            return "pass"
        return f"{CALL_NAMES[self.call]} {format_suit(self.suit)}"

    def describe(self) -> str:
        if self.call == PASS:
            return "pass"
        return f"{CALL_NAMES[self.call]} {SUIT_NAMES['en'][self.suit]}"


def _cards(value) -> list[int]:
    if value is None:
        return []
    if isinstance(value, str):
        return parse_cards(value)
    return [int(c) for c in value]


def open_calls(rules: Rules, turned: int, round_: int) -> list[Call]:
    """Every call open at that moment (``analyzer.rules.calls.legal_calls``, RULES.md §3):
    take on each suit open (round 1 the turned suit), smous likewise with 2 players, then pass."""
    calls = [Call(c, s) for c, s in calls_in(legal_calls.py_func(rules.record(), round_, turned >> 3))]
    return [c for c in calls if c.call != PASS] + [Call(PASS, -1)]


def parse_calls(spec, rules: Rules, turned: int, round_: int) -> list[Call]:
    """``["take", "smous:h", "pass"]`` → the calls (pass is always added: the reference)."""
    avail = open_calls(rules, turned, round_)
    if not spec:
        return avail
    chosen: list[Call] = []
    for item in spec:
        if not str(item).replace(",", " ").split():
            raise BeloteError(f'--call "{item}" names no call: give take, smous or pass, e.g. --call take')
        for tok in str(item).replace(",", " ").split():
            name, _, suit_tok = tok.partition(":")
            name = name.strip().lower()
            if name not in ("take", "smous", "pass"):
                raise BeloteError(f'unknown call "{tok}": calls are take, smous and pass (optionally with a suit, e.g. take:h)')
            if name == "smous" and not rules.smous_allowed:
                raise BeloteError(
                    f"smous is only open with 2 players (piekjas --players 2, or dekjas), not in {rules.label}: drop --call smous")
            if name == "pass":
                cands = [c for c in avail if c.call == PASS]
            else:
                code = TAKE if name == "take" else SMOUS
                cands = [c for c in avail if c.call == code]
                if suit_tok:
                    s = parse_suit(suit_tok)
                    cands = [c for c in cands if c.suit == s]
                    if not cands:
                        allowed = " ".join(format_suit(c.suit) for c in avail if c.call == code)
                        raise BeloteError(f"{name} {format_suit(s)} is not open in round {round_} with "
                                          f"{format_card(turned)} turned: choose from {allowed}")
            for c in cands:
                if c not in chosen:
                    chosen.append(c)
    if Call(PASS, -1) not in chosen:
        chosen.append(Call(PASS, -1))
    if len(chosen) < 2:  # pass is the reference: alone, there is nothing to compare it with
        raise BeloteError("--call names only pass, which every call is compared with: add another, e.g. --call take")
    return chosen


@dataclass(frozen=True)
class Situation:
    """What the player sees: validated, with the fixed part of the deck."""

    rules: Rules
    seat: int
    round: int
    turned: int
    hand: tuple  # the player's cards at bidding (Dekjas: its face-up cards)
    theirs: tuple  # Dekjas: the opponent's face-up cards; otherwise ()
    base_deck: np.ndarray
    fixed: np.ndarray

    @property
    def side(self) -> int:
        return self.rules.side_of(self.seat)


def seat_name(seat: int, players: int) -> str:
    """voorhand, 2nd, 3rd, dealer (RULES.md §2: seat 0 first to bid, the dealer last)."""
    if seat == 0:
        return "voorhand"
    if seat == players - 1:
        return "dealer"
    return {1: "2nd", 2: "3rd"}.get(seat, f"seat {seat}")


def check_hand_fits(variant: str, players: int | None, hand: str | None) -> None:
    """Piekjas (a variant of several player counts): a hand that does not fit the player count
    names the player count it fits (the rows' cards at bidding, ``analyzer.rules.variants``)."""
    dealt = {r.players: r.first_deal for r in VARIANT_ROWS.values() if r.family == variant}
    if len(dealt) < 2 or not hand or players is None:
        return
    n = len(hand.replace(",", " ").split())
    fits = [k for k, cards in dealt.items() if cards == n]
    if fits and players not in fits:
        counts = " or ".join(f"--players {k}" for k in fits)
        allowed = ", ".join(map(str, list(dealt)[:-1])) + f" or {list(dealt)[-1]}"
        problem = (f"{variant} with {players} players deals {dealt[players]} cards, not {n}" if players in dealt else
                   f"{variant} is played by {allowed} players, not {players}")
        raise BeloteError(f"{problem}: a {n}-card hand is {variant} with {' or '.join(map(str, fits))} players, "
                          f"use {counts}")


def make_situation(rules: Rules, hand=None, turned=None, seat: int = 0, round_: int = 1,
                   mine=None, theirs=None) -> Situation:
    """Check what the player sees and place it in the dealing order (DEAL_LOG.md)."""
    n = rules.players
    if turned is None:
        raise BeloteError("the turned card is missing: give it with --turned, e.g. --turned Qh")
    t = parse_card(turned) if isinstance(turned, str) else int(turned)
    if not 0 <= seat < n:
        raise BeloteError(f"seat {seat} does not exist with {n} players: use --seat 0..{n - 1} (0 = voorhand)")
    if round_ not in (1, 2):
        raise BeloteError(f"round {round_} is not a bidding round: use --round 1 or --round 2")
    deck = np.full(N_CARDS, -1, np.int64)
    fixed = np.zeros(N_CARDS, np.int64)
    if rules.piles:
        if hand:
            raise BeloteError("dekjas has no hand: give the face-up cards with --mine and --theirs (8 each)")
        m = _cards(mine)
        o = _cards(theirs)
        for name, cs in (("--mine", m), ("--theirs", o)):
            if len(cs) != 8:
                raise BeloteError(f"dekjas: {name} must list 8 face-up cards, not {len(cs)}")
        dup = set(m) & set(o)
        if dup:
            raise BeloteError(f"{format_cards(sorted(dup))} cannot be in both --mine and --theirs: each card exists once")
        dealer_cards, dealer_flag = (m, "--mine") if seat == 1 else (o, "--theirs")
        if t not in dealer_cards:
            raise BeloteError(f"the turned card {format_card(t)} is the dealer's last face-up card: it must be "
                              f"one of the dealer's cards ({dealer_flag}, seat 1)")
        per_seat = {seat: m, 1 - seat: o}
        for s in range(2):
            cs = list(per_seat[s])
            if s == 1:
                cs.remove(t)
                cs.append(t)  # the dealer's last pile: deck[31]
            for i, c in enumerate(cs):
                deck[16 + 2 * i + s] = c
                fixed[16 + 2 * i + s] = 1
        own, other = tuple(m), tuple(o)
    else:
        if mine or theirs:
            raise BeloteError(f"--mine/--theirs are for dekjas only; for {rules.label} give the hand as one argument")
        cs = _cards(hand)
        fd = rules.first_deal
        if len(cs) != fd:
            raise BeloteError(f"{rules.label} deals {fd} cards before bidding, but the hand has {len(cs)}: "
                              f"give exactly {fd} cards, e.g. \"Jh 9h Ah Tc 7s{' 8d' if fd == 6 else ''}\"")
        if t in cs:
            raise BeloteError(f"the turned card {format_card(t)} is also in the hand: the turned card lies on the table")
        for k, c in enumerate(cs):
            deck[fd * seat + k] = c
            fixed[fd * seat + k] = 1
        deck[n * fd] = t
        fixed[n * fd] = 1
        own, other = tuple(cs), ()
    rest = [c for c in range(N_CARDS) if c not in set(deck.tolist())]
    free = [p for p in range(N_CARDS) if not fixed[p]]
    deck[free] = rest
    return Situation(rules, seat, round_, t, own, other, deck, fixed)


# --- results ------------------------------------------------------------------------------

OBJECTIVES = {
    "net": "the player's side's score minus the best other side's score (what wins games)",
    "score": "the player's side's own hand score (ignores what a dedans gives away)",
    "win": "the chance to win the game from the score at the table (--score): each call's result carried "
           "through the game-equity table (analyzer.questions.take_score)",
}


@dataclass
class CallStats:
    """One call on the sampled deals: scores of the player's side and outcome rates."""

    call: Call
    score: Mean  # the player's side's hand score
    vs_pass: Mean  # paired: score(call) - score(pass)
    net: Mean  # score minus the best other side's score
    net_vs_pass: Mean  # paired: net(call) - net(pass)
    we_take: Rate  # the player's side became troefmaker
    made: Rate  # ... and made: unconditional rates, over all deals
    dedans: Rate
    tie: Rate
    capot_for: Rate  # the player's side won every trick
    pit_against: Rate  # the player's side won no trick
    not_played: Rate  # passed out (classic) or smous redeal

    def value(self, objective: str) -> Mean:
        return self.net if objective == "net" else self.score

    def as_dict(self) -> dict:
        d = {"call": CALL_NAMES[self.call.call], "suit": format_suit(self.call.suit) if self.call.suit >= 0 else None,
             "label": self.call.label}
        for k in ("score", "vs_pass", "net", "net_vs_pass", "we_take", "made", "dedans", "tie", "capot_for",
                  "pit_against", "not_played"):
            d[k] = getattr(self, k).as_dict()
        return d


@dataclass
class TakeResult:
    """The answer to 'should I take?': every call's statistics and a verdict."""

    situation: Situation
    policies: Policies
    seed: int
    objective: str  # "net" or "score": what the verdict ranks calls by
    calls: list  # CallStats, in the order compared
    acceptance: Rate  # samples where the earlier seats passed / samples drawn
    best: CallStats
    runner_up: CallStats
    best_vs_runner_up: Mean  # paired difference of the objective
    beats_runner_up: bool  # its 95% interval excludes 0
    precision: float | None
    hands: int  # hands simulated (samples x calls, rejected ones included)
    seconds: float
    pair_sums: np.ndarray = field(repr=False, default=None)
    unit_rows: np.ndarray | None = field(repr=False, default=None)  # one row per sample, with keep_units
    deal_scores: np.ndarray | None = field(repr=False, default=None)  # with keep_scores: (deals, calls, sides)
    control: "Control | None" = field(repr=False, default=None)  # set on a result adjusted by a control

    @property
    def n(self) -> int:
        return self.acceptance.k

    def diff(self, a: Call, b: Call, objective: str | None = None) -> Mean:
        """Paired difference (a - b) of two compared calls, on the objective's measure."""
        idx = [c.call for c in self.calls]
        if self.control is not None:
            return self.control.diff(idx.index(a), idx.index(b), objective or self.objective)
        return _pair(self.pair_sums, len(idx), idx.index(a), idx.index(b), self.n, objective or self.objective)

    def verdict(self) -> str:
        d = self.best_vs_runner_up
        best, second = self.best.call.describe(), self.runner_up.call.describe()
        what = "net points" if self.objective == "net" else "points"
        if d.n > 1 and d.sd == 0 and d.mean == 0:
            return (f"{best.upper()} or {second}: the same hands follow on every deal (n={d.n:,}; e.g. passing "
                    f"leads to the same contract), so they are worth the same.")
        if self.beats_runner_up:
            return (f"{best.upper()}: it beats {second} by {d.mean:+.1f} {what} a hand "
                    f"(95% CI {d.lo:+.1f} to {d.hi:+.1f}, n={d.n:,}), beyond the noise.")
        return (f"{best.upper()} by a nose: {d.mean:+.1f} ± {Z95 * d.se:.1f} {what} a hand over {second} "
                f"(n={d.n:,}) is inside the noise; the two are not distinguishable.")

    def as_dict(self) -> dict:
        s = self.situation
        r = s.rules
        return {
            "inputs": {
                "variant": r.variant, "players": r.players, "seat": s.seat, "round": s.round,
                "hand": format_cards(s.hand), "theirs": format_cards(s.theirs) if s.theirs else None,
                "turned": format_card(s.turned), "seed": self.seed, "precision": self.precision,
                "objective": self.objective, "rules": r.options(), "policies": self.policies.describe(),
                "bid_policy": bid_provenance(self.policies, r),
            },
            "n": self.n,
            "acceptance": self.acceptance.as_dict(),
            "calls": [c.as_dict() for c in self.calls],
            "verdict": {
                "best": self.best.call.label, "runner_up": self.runner_up.call.label,
                "objective": self.objective,
                "difference": self.best_vs_runner_up.as_dict(), "beyond_noise": self.beats_runner_up,
                "text": self.verdict(),
            },
            "hands_simulated": self.hands,
            "seconds": round(self.seconds, 3),
            **({} if self.control is None else {"control_variate": self.control.as_dict()}),
        }


def _pair(pairs, k, a, b, n, objective) -> Mean:
    p = 2 * (a * k + b) + (2 * k * k if objective == "net" else 0)
    return mean_from_sums(float(pairs[p]), float(pairs[p + 1]), n)


def _best_two(stats, objective) -> tuple[int, int]:
    """The indices of the best call and the runner-up by the objective's mean (with no deal, the
    order compared)."""
    order = sorted(range(len(stats)), key=lambda c: -stats[c].value(objective).mean if stats[c].net.n else c)
    return order[0], order[1]


def _results(sit, pols, seed, objective, calls, row, precision, hands, seconds) -> TakeResult:
    k = len(calls)
    att, acc = int(row[T_ATTEMPTS]), int(row[T_ACCEPTED])
    pairs = row[T_HEAD + k * N_F:]
    ipass = calls.index(Call(PASS, -1))
    stats = []
    for c, call in enumerate(calls):
        f = row[T_HEAD + c * N_F:T_HEAD + (c + 1) * N_F]
        stats.append(CallStats(
            call=call,
            score=mean_from_sums(float(f[F_SUM]), float(f[F_SQ]), acc),
            vs_pass=_pair(pairs, k, c, ipass, acc, "score"),
            net=mean_from_sums(float(f[F_MSUM]), float(f[F_MSQ]), acc),
            net_vs_pass=_pair(pairs, k, c, ipass, acc, "net"),
            we_take=rate(f[F_WE_TAKE], acc),
            made=rate(f[F_MADE], acc),
            dedans=rate(f[F_DEDANS], acc),
            tie=rate(f[F_TIE], acc),
            capot_for=rate(f[F_CAPOT_FOR], acc),
            pit_against=rate(f[F_PIT_AGAINST], acc),
            not_played=rate(f[F_NOT_PLAYED], acc),
        ))
    b, r2 = _best_two(stats, objective)
    d = _pair(pairs, k, b, r2, acc, objective)
    return TakeResult(sit, pols, seed, objective, stats, rate(acc, att), stats[b], stats[r2], d,
                      distinguishable(d), precision, hands, seconds, pairs.copy())


# --- a short run adjusted by a long one on the same deals (control variate) ------------------

_RATE_FIELDS = (("we_take", F_WE_TAKE), ("made", F_MADE), ("dedans", F_DEDANS), ("tie", F_TIE),
                ("capot_for", F_CAPOT_FOR), ("pit_against", F_PIT_AGAINST), ("not_played", F_NOT_PLAYED))


def deal_scores(rows: np.ndarray, k: int, n_sides: int) -> np.ndarray:
    """(deals kept, k calls, n_sides) hand scores of every side on each deal of per-sample rows,
    the player's side first, then the sides after it in turn (``F_SUM``, ``F_OTHERS``)."""
    acc = rows[rows[:, T_ACCEPTED] == 1, T_HEAD:T_HEAD + k * N_F].reshape(-1, k, N_F)
    return np.concatenate([acc[:, :, F_SUM:F_SUM + 1], acc[:, :, F_OTHERS:F_OTHERS + n_sides - 1]], axis=2)


def _per_deal(rows: np.ndarray, k: int) -> np.ndarray:
    """(deals kept, k calls, N_F) float values of one run's per-sample rows."""
    acc = rows[:, T_ACCEPTED] == 1
    return rows[acc, T_HEAD:T_HEAD + k * N_F].reshape(-1, k, N_F).astype(np.float64)


@dataclass
class Control:
    """How a short run's numbers borrow a long run's precision: ``y`` and ``x`` are both runs'
    per-deal values on the short run's deals (the first ones of the long run, same seed and
    bidding), ``long`` the long run's own result (``analyzer.runs.stats.control_variate``)."""

    play: str  # the long run's play policy, e.g. "heuristic"
    y: np.ndarray = field(repr=False)
    x: np.ndarray = field(repr=False)
    long: TakeResult = field(repr=False)
    plain: TakeResult = field(repr=False)  # the short run's own numbers

    def _field(self, a: int, b: int | None, j: int):
        y, x = self.y[:, a, j], self.x[:, a, j]
        if b is not None:
            y, x = y - self.y[:, b, j], x - self.x[:, b, j]
        return y, x

    def mean(self, attr: str, a: int, b: int | None, j: int) -> Mean:
        y, x = self._field(a, b, j)
        long = getattr(self.long.calls[a], attr)
        return control_variate(y, x, long.mean, self.long.n)

    def diff(self, a: int, b: int, objective: str) -> Mean:
        j = F_MSUM if objective == "net" else F_SUM
        y, x = self._field(a, b, j)
        calls = [c.call for c in self.long.calls]
        long = self.long.diff(calls[a], calls[b], objective)
        return control_variate(y, x, long.mean, self.long.n)

    def as_dict(self) -> dict:
        return {"control": self.play, "control_n": self.long.n, "deals": int(self.y.shape[0]),
                "plain": {"calls": [c.as_dict() for c in self.plain.calls],
                          "verdict": self.plain.as_dict()["verdict"]}}


def adjust_by_control(short: TakeResult, long: TakeResult, long_rows: np.ndarray, play: str) -> TakeResult:
    """``short``'s numbers, each adjusted by the same number of ``long`` (run on the same seed,
    bidding and calls, over more deals): ``long_rows`` are long's per-sample rows over the
    samples of ``short.unit_rows``. Returns a new result whose ``control`` keeps the plain one."""
    if short.unit_rows is None:
        raise ValueError("adjust_by_control: the short run kept no per-sample rows (keep_units=True)")
    if long_rows.shape != short.unit_rows.shape or not np.array_equal(
            long_rows[:, T_ACCEPTED], short.unit_rows[:, T_ACCEPTED]):
        raise BeloteError("the control's deals are not the short run's: the runs must share the seed, the "
                          "situation and the bidding policy")
    k = len(short.calls)
    ctl = Control(play, _per_deal(short.unit_rows, k), _per_deal(long_rows, k), long, short)
    ipass = [c.call for c in short.calls].index(Call(PASS, -1))
    stats = []
    for c, cs in enumerate(short.calls):
        rates = {attr: control_variate_rate(ctl.y[:, c, j], ctl.x[:, c, j], getattr(long.calls[c], attr).p, long.n)
                 for attr, j in _RATE_FIELDS}
        stats.append(CallStats(
            call=cs.call,
            score=ctl.mean("score", c, None, F_SUM),
            vs_pass=ctl.mean("vs_pass", c, ipass, F_SUM),
            net=ctl.mean("net", c, None, F_MSUM),
            net_vs_pass=ctl.mean("net_vs_pass", c, ipass, F_MSUM),
            **rates,
        ))
    obj = short.objective
    b, r2 = _best_two(stats, obj)
    d = ctl.diff(b, r2, obj)
    return TakeResult(short.situation, short.policies, short.seed, obj, stats, short.acceptance, stats[b], stats[r2],
                      d, distinguishable(d), short.precision, short.hands, short.seconds, short.pair_sums,
                      short.unit_rows, control=ctl)


def analyse_take(rules: Rules | None = None, hand=None, turned=None, seat: int = 0, round_: int = 1, *,
                 mine=None, theirs=None, deals: int = 100_000, precision: float | None = None,
                 max_deals: int = 2_000_000, seed: int = 1, policies: Policies | None = None,
                 bid_params: np.ndarray | None = None, calls=None, objective: str = "net",
                 threads: int | None = None, progress=None, chunk: int | None = None,
                 batch: int | None = None, units: int | None = None, start: int = 0,
                 keep_units: bool = False, keep_scores: bool = False) -> TakeResult:
    """Should the player take? Compare every open call on the same sampled deals.

    ``hand``: the player's cards at bidding (``"Jh 9h Ah Tc 7s"`` or card numbers);
    Dekjas: ``mine`` and ``theirs``, the face-up cards. ``turned``: the turned card.
    ``seat``: 0 = voorhand. ``round_``: the bidding round reached (1 or 2).
    ``deals``: paired deals to keep (samples where the earlier seats passed); with
    ``precision`` P, keep going until the 95% half-width of the best call's difference to
    the runner-up is at most P points (at most ``max_deals`` deals). ``calls``: a subset
    of the open calls (``["take", "pass"]``, ``"smous:h"``); pass is always compared.
    ``objective``: what ranks the calls, ``"net"`` (default: own score minus the best
    other side's, so a dedans counts the points it gives away) or ``"score"`` (own score).
    ``progress(done)`` is called with the number of deals kept so far, at least every
    ``batch`` samples; ``chunk`` is the samples of one kernel call (by default 2048, and
    ``SEARCH_CHUNK`` / ``SEARCH_BATCH`` for a searching play policy, so threads share the
    work and progress moves). ``units``: run exactly the samples ``start .. start + units - 1``
    (their accepted ones are the deals) instead of ``deals``. ``keep_units``: keep one row per sample
    (``TakeResult.unit_rows``), so that two runs on one seed can be paired deal by deal (the
    bracket's control variate, ``analyzer.questions.bracket``). ``keep_scores``: keep every side's
    hand score on each deal kept, for each call (``TakeResult.deal_scores``, ``deal_scores``): what
    the game's score becomes (``analyzer.questions.take_score``).

    Example::

        >>> r = analyse_take(Rules(), "Jh 9h Ah Tc 7s", "Qh", deals=20_000)  # doctest: +SKIP
        >>> print(r.verdict())  # doctest: +SKIP
    """
    rules = rules or Rules()
    sit = make_situation(rules, hand, turned, seat, round_, mine, theirs)
    if deals <= 0:
        raise BeloteError(f"--deals must be a positive number of deals, not {deals}")
    if precision is not None and not (0 < precision < math.inf):  # nan fails both comparisons
        raise BeloteError(f"--precision must be a positive, finite number of points, e.g. --precision 1.0, "
                          f"not {precision}")
    if max_deals <= 0:
        raise BeloteError(f"--max-deals must be positive, not {max_deals}")
    if objective not in OBJECTIVES:
        raise BeloteError(f'unknown objective "{objective}": use {" or ".join(OBJECTIVES)}')
    if objective == "win":
        objective = "net"  # the kernel's ranking; the chance to win ranks them after (take_score)
        keep_scores = True
    call_list = parse_calls(calls, rules, sit.turned, round_)
    cfg = SimConfig(rules=rules, policies=policies, deals=deals, seed=seed, threads=threads, bid_params=bid_params)
    rec, bid, play, params = cfg.kernel_args()
    if chunk is None:
        chunk = SEARCH_CHUNK if cfg.policies.searching else 2048
    if batch is None:
        batch = SEARCH_BATCH if cfg.policies.searching else _BATCH
    if keep_scores:
        batch = min(batch, _SCORES_BATCH)  # one row per sample in memory at a time
    params = params.copy()
    if round_ == 2:
        params[seat, P_THR1] = 1e18  # the player passed in round 1 (heuristic bidder)
    k = len(call_list)
    rsize = take_row_size(k)
    tcfg = np.zeros(TAKE_CALLS + 4 * k, np.int64)  # the sample kernel's configuration
    tcfg[TAKE_SIDE] = sit.side
    tcfg[TAKE_K] = k
    tcfg[TAKE_DECK:TAKE_DECK + N_CARDS] = sit.base_deck
    tcfg[TAKE_FIXED:TAKE_FIXED + N_CARDS] = sit.fixed
    tcfg[TAKE_CALLS:] = np.array([[seat, round_, c.call, c.suit] for c in call_list], np.int64).ravel()
    args = (rec, bid, play, params)
    set_threads(threads)
    target = deals if precision is None else max(max_deals, 2)
    row = np.zeros(rsize, np.int64)
    if start and units is None:
        raise ValueError("analyse_take: start is for a run of a given number of units")
    first = start
    hands = 0
    kept, scores = [], []
    t0 = time.perf_counter()
    while (first < start + units) if units is not None else (row[T_ACCEPTED] < target):
        acc, att = int(row[T_ACCEPTED]), int(row[T_ATTEMPTS])
        if acc == 0 and att >= 1 << 16:
            raise BeloteError(
                f"in {att:,} sampled deals the earlier seats never all passed under the bidding policy: with "
                f"these cards this seat and round are (almost) never reached; check --seat and --round")
        ratio = acc / att if att else 1.0
        n = int(math.ceil((target - acc) / max(ratio, 1e-3) * (1.02 if ratio < 1 else 1.0)))
        n = min(n, batch)  # a progress update at least every batch samples
        if precision is not None:
            n = min(n, max(_FIRST_PRECISION_BATCH, att))  # grow geometrically, check in between
        if units is not None:
            n = min(start + units - first, batch)
        out = driver.run_units(driver.TAKE, seed, first, n, chunk, args, tcfg, per_unit=keep_units or keep_scores)
        if keep_scores:
            scores.append(deal_scores(out, k, int(rec.n_sides)))
        if keep_units:
            kept.append(out)
        if keep_units or keep_scores:
            out = out.sum(axis=0)
        row += out
        first += n
        hands += int(out[T_HANDS])
        if progress is not None:
            progress(min(int(row[T_ACCEPTED]), target))
        if precision is not None and row[T_ACCEPTED] >= 2:
            res = _results(sit, cfg.policies, seed, objective, call_list, row, precision, hands, 0.0)
            if Z95 * res.best_vs_runner_up.se <= precision:
                break
    res = _results(sit, cfg.policies, seed, objective, call_list, row, precision, hands, time.perf_counter() - t0)
    if keep_units:
        res.unit_rows = np.concatenate(kept) if kept else np.zeros((0, rsize), np.int64)
    if keep_scores:
        res.deal_scores = np.concatenate(scores) if scores else np.zeros((0, k, int(rec.n_sides)), np.int64)
    return res
