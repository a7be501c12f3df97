"""``calibrate``: bidding thresholds that agree with the bidding tables, found as a fixed point.

The heuristic bidder takes when its strength score (``bidding.suit_strength``) reaches a
threshold by round and seat. The bidding tables (``analyzer.questions.table.bidding_table``) measure,
at every decision the policies reach, the paired net gain of taking over passing on the
same deal, by (round, seat, strength bin). A policy is *self-consistent* when it takes
exactly where that gain is positive, against a field playing the same policy.

The iteration (``calibrate``):

1. Measure the strength table with the current thresholds in every seat.
2. For each (round, seat): fit the gain by strength with a monotone (non-decreasing,
   inverse-variance weighted) regression over the bins with at least ``min_n`` decisions,
   and read where the fit crosses 0, interpolated between bin centres: the candidate
   threshold.
3. Move a threshold to its candidate only when the data resolves it: the candidate is at
   least one strength bin (``STR_BIN`` points) away, and the hands between
   the old and the candidate threshold, pooled, have a net gain whose 95% interval
   excludes 0 on the side of the move (taking pays there when the candidate is lower,
   loses when it is higher). Otherwise it stays: the noise does not say which side is
   better.
   A threshold that stays is *resolved* (kept on evidence) when the data bracket it: a
   strength cell below it (at least ``min_n`` decisions) whose 95% interval says taking
   loses, and one above it whose interval says taking pays (``Move.bracket``). A
   calibration in which nothing is resolved - no threshold moved or bracketed, no class
   override, no sweep moved - rests on nothing: its status is ``unresolved`` (not enough
   deals), not ``converged``, and ``--ship`` refuses it.
4. Add and drop class overrides (below) from the same table.
5. Repeat with the new thresholds and overrides in every seat, on the same deals (common random
   numbers: a move reflects the policy, not a new sample), until nothing moves, a set of
   thresholds and overrides repeats (a cycle, reported) or ``max_iter`` is reached.

Objective: the **net** hand score (own side's score minus the best other side's), the
measure ``take`` ranks calls by (``--objective net``), as the tables' ``gain_net``; or, with
``objective="score"`` (``--objective score``), the own side's hand score alone (the tables'
``gain_score``), which does not count what a dedans hands to the others. The shipped policies
are calibrated on net.

What is calibrated: the round-1 and round-2 thresholds of each seat, and **class
overrides**: a hand class of the bidding tables (which of the trump J 9 A 10, trump
length, side aces, side voids) at a seat in a round may be taken or passed whatever the
threshold says (``OVERRIDE_RULE``, ``propose_overrides``). The tables split each class
into the part the seat's threshold takes and the part it passes (``classes.Q_TH_*``), so
an override is decided on exactly the hands it changes: a take override where the part
the threshold passes gains beyond the noise (95% interval, at least ``min_n`` decisions),
a pass override where the part it takes loses. Overrides are part of the fixed point: the
next iteration's field plays them. The threshold is fitted on every hand of its (round,
seat), overridden ones included (the gain of a decision does not depend on the decider's
own policy, only on the field's). The koe's suit (piekjas, dekjas) is calibrated too
(``KOE_RULE``, ``sweep_koe``): once the take/pass decisions settle, two koe weights (per trump,
and for the turned suit, added to the strength score in the koe's choice only) move to the best
of a grid of candidates scored on the koe's own forced runs when that is beyond the noise, and
the take/pass iterations run again. The hand-strength weights and the round-2 suit choice (the
best-scoring suit) are the heuristic's and are kept as they are (``decisions``); the suit
choices are measured against every other suit by ``analyzer.questions.suits`` (``--suits``;
figures in docs/CALIBRATION.md). The smous offer margin and answer (2 players) are swept seat
by seat by duplicate match once the take/pass decisions settle (``sweep_smous``,
``sweep_deals`` > 0, ``SMOUS_RULE``), and the take/pass iterations run again against the new
field.

A calibrated policy is one parameter row per seat (``SimConfig.bid_params``) with the
seat's own thresholds, ``seat_step`` 0 and its override slots (``bidding.P_OVERRIDES``);
it runs under the ``heuristic`` code. Policy files (JSON) hold the named parameters and
the overrides (by class, readable) with their provenance; the package ships one per
variant label for the default rules (``policies_data/``).
"""

from __future__ import annotations

import datetime as _dt
import time
from dataclasses import dataclass, field
from statistics import NormalDist

import numpy as np
import pandas as pd

import analyzer
from analyzer import git_commit
from analyzer.errors import BeloteError
from analyzer.players.bidding import (
    BID_PARAM_NAMES,
    MAX_OVERRIDES,
    N_HAND_CLASSES,
    P_KOE_LENGTH,
    P_KOE_TURNED,
    P_SEAT_STEP,
    P_SMOUS_ANSWER,
    P_SMOUS_MARGIN,
    P_THR1,
    P_THR2,
    class_key,
    default_bid_params,
    override_code,
)
from analyzer.players.policies import Policies
from analyzer.players.policy_files import (  # noqa: F401 (the files this module writes)
    POLICIES_DIR,
    honours_bits,
    honours_label,
    override_codes,
    policy_params,
    read_policy,
    set_overrides,
    shipped_path,
)
from analyzer.questions.duel import duel, parse_set
from analyzer.questions.seats import seat_advantage, simulate_seats
from analyzer.questions.suits import suit_choice
from analyzer.questions.table import RAW_FIELDS, bidding_table, derive, mean_ci
from analyzer.rules import Rules
from analyzer.runs.classes import STR_BIN
from analyzer.runs.limits import derived_seed
from analyzer.runs.simulate import SimConfig
from analyzer.runs.stats import Z95, mean_of

POLICY_FORMAT = 1
SHIPPED_LABELS = ("classic", "piekjas2", "piekjas3", "piekjas4", "dekjas")
OBJECTIVES = {  # what a threshold is calibrated on: the name, and its meaning as written in the policy file
    "net": "net: own side's hand score minus the best other side's (as `take --objective net` ranks calls)",
    "score": "score: own side's hand score (as `take --objective score` ranks calls)",
}
OBJECTIVE = OBJECTIVES["net"]  # the default, and the shipped policies'


def gain_column(objective: str) -> str:
    """The bidding tables' column of the paired gain of taking on ``objective`` (net or score)."""
    if objective not in OBJECTIVES:
        raise BeloteError(f'unknown objective "{objective}": use {" or ".join(OBJECTIVES)}')
    return f"gain_{objective}"
MIN_N = 200  # decisions a strength bin needs to count (the tables' MIN_N)
DEFAULT_DEALS = 40_000  # per iteration: a full calibration of one variant within minutes on 2 cores
DEFAULT_ITER = 20  # with the smous sweeps (2 players) each sweep that moves adds take/pass iterations


def thresholds(params: np.ndarray) -> dict[tuple[int, int], float]:
    """{(round, seat): threshold} of per-seat parameter rows (as ``bidding._threshold``)."""
    out = {}
    for seat, p in enumerate(params):
        out[(1, seat)] = float(p[P_THR1] + p[P_SEAT_STEP] * seat)
        out[(2, seat)] = float(p[P_THR2] + p[P_SEAT_STEP] * seat)
    return out


def with_thresholds(params: np.ndarray, thr: dict[tuple[int, int], float]) -> np.ndarray:
    """A copy of ``params`` whose seat rows carry the thresholds ``thr`` (seat_step 0)."""
    p = np.array(params, dtype=np.float64, copy=True)
    for (rnd, seat), v in thr.items():
        p[seat, P_THR1 if rnd == 1 else P_THR2] = v
    p[:, P_SEAT_STEP] = 0.0
    return p


# --- reading a threshold from the strength table -------------------------------------------


def isotonic(y: np.ndarray, w: np.ndarray) -> np.ndarray:
    """Weighted non-decreasing least-squares fit of ``y`` (pool adjacent violators)."""
    vals, wts, sizes = [], [], []
    for yi, wi in zip(np.asarray(y, float), np.asarray(w, float)):
        vals.append(yi)
        wts.append(wi)
        sizes.append(1)
        while len(vals) > 1 and vals[-2] > vals[-1]:
            wsum = wts[-2] + wts[-1]
            v = (vals[-2] * wts[-2] + vals[-1] * wts[-1]) / wsum
            n = sizes[-2] + sizes[-1]
            vals[-2:], wts[-2:], sizes[-2:] = [v], [wsum], [n]
    return np.repeat(vals, sizes)


def crossing(cells: pd.DataFrame, column: str = "gain_net") -> float:
    """Where the monotone fit of ``column`` (the gain) over strength crosses 0, interpolated between
    bin centres; the lowest bin's lower edge when the fit is positive everywhere, the
    highest bin's upper edge when it is negative everywhere (NaN: no cells)."""
    if cells.empty:
        return float("nan")
    c = cells.sort_values("strength_lo")
    lo = c["strength_lo"].to_numpy(float)
    hi = c["strength_hi"].to_numpy(float)
    hi = np.where(np.isfinite(hi), hi, lo + STR_BIN)  # the open-ended last bin
    centre = (lo + hi) / 2
    se = np.maximum(c[column + "_se"].to_numpy(float), 1e-9)
    fit = isotonic(c[column].to_numpy(float), 1.0 / se ** 2)
    pos = np.nonzero(fit >= 0)[0]
    if len(pos) == 0:
        return float(hi[-1])
    i = int(pos[0])
    if i == 0:
        return float(lo[0])
    a, b = fit[i - 1], fit[i]
    x = centre[i - 1] + (centre[i] - centre[i - 1]) * (0.0 - a) / (b - a) if b > a else centre[i]
    return float(round(x, 1))


@dataclass
class Move:
    """One threshold's verdict in one iteration: the candidate, and whether it moved."""

    round: int
    seat: int
    before: float
    candidate: float
    after: float
    n: int  # decisions between the old threshold and the candidate
    gain: float  # their pooled net gain of taking, with its 95% interval
    lo: float
    hi: float
    # (upper edge of the nearest cell below ``before`` whose interval says pass, lower edge of the
    # nearest above whose interval says take), or None when a side has no such cell
    bracket: tuple | None = None

    @property
    def moved(self) -> bool:
        return self.after != self.before

    @property
    def resolved(self) -> bool:
        """Moved on evidence, or kept between cells the data resolve (module docstring, step 3)."""
        return self.moved or self.bracket is not None

    def as_dict(self) -> dict:
        return {"round": self.round, "seat": self.seat, "before": self.before, "candidate": self.candidate,
                "after": self.after, "moved": self.moved, "n_between": self.n,
                "gain_between": _num(self.gain), "gain_between_lo": _num(self.lo), "gain_between_hi": _num(self.hi),
                "bracket": list(self.bracket) if self.bracket else None}


def propose(table, params: np.ndarray, min_n: int = MIN_N, objective: str = "net") -> list[Move]:
    """The move of every (round, seat) threshold that the table ``table`` resolves, on the
    paired gain of ``objective`` (net or score)."""
    col = gain_column(objective)

    current = thresholds(params)
    raw = table.raw_strength
    cells = table.strength()
    moves = []
    for (rnd, seat), before in sorted(current.items()):
        sub = cells[(cells["round"] == rnd) & (cells["seat"] == seat) & (cells["n"] >= min_n)]
        cand = crossing(sub, col)
        n, gain, lo, hi = 0, float("nan"), float("nan"), float("nan")
        after = before
        if np.isfinite(cand) and cand != before:
            a, b = min(before, cand), max(before, cand)
            # the bins whose centre lies between the two thresholds change side with the move;
            # a move that crosses no bin centre changes no bin's side, which is below the
            # table's resolution (the bins cannot say which side of a threshold inside them a
            # hand is on), and is not made
            rs = raw[(raw["round"] == rnd) & (raw["seat"] == seat)]
            centre = rs["strength_lo"] + STR_BIN / 2
            between = rs[(centre >= a) & (centre < b)]
            # nearest the old threshold first: when the bins up to the candidate, pooled, do not
            # resolve the move, the threshold moves as far as the bins nearest it resolve it (to
            # the far edge of the last of them), or stays
            order = between.sort_values("strength_lo", ascending=cand > before)
            for k in range(len(order), 0, -1):
                pooled = derive(order.iloc[:k][list(RAW_FIELDS)].sum().to_frame().T).iloc[0]
                pn, pg, plo, phi = int(pooled["n"]), float(pooled[col]), float(pooled[col + "_lo"]), float(pooled[col + "_hi"])
                if k == len(order):
                    n, gain, lo, hi = pn, pg, plo, phi  # reported when nothing resolves
                if (cand < before and plo > 0) or (cand > before and phi < 0):
                    n, gain, lo, hi = pn, pg, plo, phi
                    edge = float(order["strength_lo"].iloc[k - 1]) + (0.0 if cand < before else STR_BIN)
                    after = cand if k == len(order) else edge
                    break
        moves.append(Move(rnd, seat, before, cand, after, n, gain, lo, hi, bracket(sub, before, col)))
    return moves


def bracket(cells: pd.DataFrame, threshold: float, column: str = "gain_net") -> tuple | None:
    """(edge below, edge above): the upper edge of the highest cell wholly below ``threshold``
    whose 95% interval of ``column`` is below 0 (passing there is right), and the lower edge of
    the lowest cell wholly above it whose interval is above 0 (taking is right); None unless
    both exist. ``cells``: one (round, seat)'s strength cells with enough decisions."""
    hi = np.where(np.isfinite(cells["strength_hi"]), cells["strength_hi"], cells["strength_lo"] + STR_BIN)
    below = cells[(hi <= threshold) & (cells[column + "_hi"] < 0)]
    above = cells[(cells["strength_lo"] >= threshold) & (cells[column + "_lo"] > 0)]
    if below.empty or above.empty:
        return None
    return float(hi[cells.index.get_indexer(below.index)].max()), float(above["strength_lo"].min())


# --- class overrides ---------------------------------------------------------------------------

OVERRIDE_RULE = (
    "Per (round, seat, hand class: which of the trump J 9 A 10, trump length, side aces, side voids), the "
    "class's decisions split into the part the seat's threshold takes and the part it passes. A class gets a "
    "take override when the part the threshold passes has at least min_n decisions and a paired gain of "
    "taking whose 95% interval is above 0; a pass override when the part the threshold takes has at least "
    "min_n decisions and an interval below 0 (neither when both hold: the class is not one-sided). An override "
    "stays until its part resolves the other way, or is dropped when the threshold calls the whole class its "
    "way. Everywhere else the score threshold decides. An override's pass is a pass (no smous offer).")


@dataclass
class Override:
    """One class override: take (or pass) every hand of a class at a seat in a round; with
    the last measurement of the part of the class the threshold calls the other way."""

    round: int
    seat: int
    key: int  # bidding.class_key
    hon: int
    length: int
    aces: int
    voids: int
    take: bool
    n: int  # decisions of the part the override changes (the threshold passes them for a take)
    gain: float  # their paired gain of taking, with its 95% interval
    lo: float
    hi: float

    @property
    def ident(self) -> tuple:
        return (self.round, self.seat, self.key)

    @property
    def z(self) -> float:
        se = (self.hi - self.lo) / (2 * Z95)
        return abs(self.gain) / se if se > 0 else float("inf")

    def as_dict(self) -> dict:
        return {"round": self.round, "honours": honours_label(self.hon), "trump_length": self.length,
                "side_aces": self.aces, "voids": self.voids, "call": "take" if self.take else "pass",
                "n_changed": self.n, "gain": _num(self.gain), "gain_lo": _num(self.lo), "gain_hi": _num(self.hi)}

    def label(self) -> str:
        return (f"r{self.round} seat {self.seat} {honours_label(self.hon)} len {self.length} aces {self.aces} "
                f"voids {self.voids} {'take' if self.take else 'pass'} ({self.gain:+.1f} [{self.lo:+.1f}, "
                f"{self.hi:+.1f}], n={self.n:,})")


def class_parts(table, objective: str = "net") -> pd.DataFrame:
    """Every (round, seat, class) of the table, split into the part the seat's threshold
    takes (``t_*``) and the part it passes (``p_*``): n and the paired gain of taking on
    ``objective`` with its 95% interval."""
    col = gain_column(objective)
    s, sq = ("dnet", "dnet_sq") if col == "gain_net" else ("d", "d_sq")
    raw = table.raw
    hon = np.array([honours_bits(h) for h in raw["honours"]], dtype=np.int64)
    out = pd.DataFrame({"round": raw["round"].to_numpy(), "seat": raw["seat"].to_numpy(), "hon": hon,
                        "honours": raw["honours"].to_numpy(), "trump_length": raw["trump_length"].to_numpy(),
                        "side_aces": raw["side_aces"].to_numpy(), "voids": raw["voids"].to_numpy()})
    out["key"] = [class_key(int(h), int(ln), int(a), int(v)) for h, ln, a, v in
                  zip(hon, out["trump_length"], out["side_aces"], out["voids"])]
    n = raw["n"].to_numpy()
    tn = raw["th_n"].to_numpy()
    ts, tsq = raw["th_" + s].to_numpy(), raw["th_" + sq].to_numpy()
    for part, pn, ps, psq in (("t", tn, ts, tsq), ("p", n - tn, raw[s].to_numpy() - ts, raw[sq].to_numpy() - tsq)):
        m, _, lo, hi = mean_ci(ps, psq, pn)
        out[f"{part}_n"] = pn
        out[f"{part}_gain"] = m
        out[f"{part}_lo"] = lo
        out[f"{part}_hi"] = hi
    return out


def overrides_of(params: np.ndarray, info: dict | None = None) -> dict:
    """{(round, seat, key): Override} read back from parameter rows (their measurements from
    ``info`` where known, else empty)."""
    out = {}
    info = info or {}
    for seat, row in enumerate(params):
        for v in override_codes(row):
            code = int(abs(v)) - 1
            rnd, key = code // N_HAND_CLASSES + 1, code % N_HAND_CLASSES
            voids = key % 4
            aces = key // 4 % 4
            length = key // 16 % 9
            hon = key // 144
            prev = info.get((rnd, seat, key))
            out[(rnd, seat, key)] = prev if prev is not None else Override(
                rnd, seat, key, hon, length, aces, voids, v > 0, 0, float("nan"), float("nan"), float("nan"))
    return out


def with_overrides(params: np.ndarray, overrides: dict) -> np.ndarray:
    """A copy of ``params`` whose seat rows carry ``overrides`` (the strongest ``MAX_OVERRIDES``
    a seat, by |z|, when there are more; ``capped`` says how many were left out)."""
    p = np.array(params, dtype=np.float64, copy=True)
    for seat in range(p.shape[0]):
        mine = sorted((o for o in overrides.values() if o.seat == seat), key=lambda o: (o.round, o.key))
        if len(mine) > MAX_OVERRIDES:
            keep = set(o.ident for o in sorted(mine, key=lambda o: -o.z)[:MAX_OVERRIDES])
            mine = [o for o in mine if o.ident in keep]
        set_overrides(p[seat], [override_code(o.round, o.key, o.take) for o in mine])
    return p


def propose_overrides(table, params: np.ndarray, current: dict, min_n: int = MIN_N,
                      objective: str = "net") -> tuple[dict, list, list]:
    """The class overrides the table resolves (``OVERRIDE_RULE``), from the ``current`` ones:
    (new {ident: Override}, added, removed)."""
    parts = class_parts(table, objective)
    new, added, removed = {}, [], []
    seen = set()
    for r in parts.itertuples():
        ident = (int(r.round), int(r.seat), int(r.key))
        seen.add(ident)
        cur = current.get(ident)

        def make(take):
            pre = "p" if take else "t"
            return Override(ident[0], ident[1], ident[2], int(r.hon), int(r.trump_length), int(r.side_aces),
                            int(r.voids), take, int(getattr(r, pre + "_n")), float(getattr(r, pre + "_gain")),
                            float(getattr(r, pre + "_lo")), float(getattr(r, pre + "_hi")))

        take_ok = r.p_n >= min_n and r.p_lo > 0
        pass_ok = r.t_n >= min_n and r.t_hi < 0
        if cur is None:
            if take_ok != pass_ok:
                o = make(take_ok)
                new[ident] = o
                added.append(o)
            continue
        n_other, against = (r.p_n, r.p_n >= min_n and r.p_hi < 0) if cur.take else (r.t_n, r.t_n >= min_n and r.t_lo > 0)
        if n_other == 0 or against:
            removed.append(make(cur.take))
        else:
            new[ident] = make(cur.take)
    for ident, o in current.items():  # a class no decision reached this time keeps its override
        if ident not in seen:
            new[ident] = o
    return new, added, removed


# --- the smous offer and its answer (2 players): sweeps by duplicate match ---------------------

SMOUS_SWEEPS = (  # (parameter, its index, the values tried besides the current one)
    ("smous_margin", P_SMOUS_MARGIN, (0.0, 4.0, 8.0, 12.0, 16.0, 24.0, 32.0)),  # 0: never offer
    ("smous_answer", P_SMOUS_ANSWER, (0.0, 20.0, 30.0, 40.0, 50.0, 60.0, 999.0)),  # 0: always play, 999: always redeal
)
SMOUS_RULE = (
    "2 players: the smous offer (offer when the score is within smous_margin below the take threshold) and its "
    "answer (play when the answerer's own score in the suit reaches smous_answer) are swept once the take/pass "
    "decisions settle, one parameter of one seat at a time: a duplicate match (belote duel's design: the same "
    "deals, seats swapped, redealt hands played) of a bidder whose row at that seat holds the candidate value "
    "against the current policy, every candidate on the same deals. The parameter moves to the best candidate "
    "only when its margin's 95% interval is above 0; then the take/pass fixed point runs again with the new "
    "field, until neither the take/pass decisions nor any sweep moves. An answer no offer of the field reaches "
    "scores exactly 0 for every candidate and stays as it is.")


@dataclass
class Sweep:
    """One parameter's sweep at one seat: each candidate's margin over the current policy, and
    the verdict."""

    name: str
    seat: int
    before: float
    after: float
    candidates: list  # (value, mean, lo, hi, n)

    @property
    def moved(self) -> bool:
        return self.after != self.before

    def as_dict(self) -> dict:
        return {"parameter": self.name, "seat": self.seat, "before": self.before, "after": self.after,
                "moved": self.moved,
                "candidates": [{"value": v, "margin": _num(m), "lo": _num(lo), "hi": _num(hi), "n": n}
                               for v, m, lo, hi, n in self.candidates]}

    def label(self) -> str:
        best = max(self.candidates, key=lambda c: c[1])
        return (f"seat {self.seat} {self.name} {self.before:g}→{self.after:g} (best {best[0]:g}: {best[1]:+.2f} "
                f"[{best[2]:+.2f}, {best[3]:+.2f}] a deal)")


def sweep_smous(rules: Rules, params: np.ndarray, play: str, deals: int, seed: int,
                threads: int | None = None) -> tuple[np.ndarray, list]:
    """The smous sweeps (``SMOUS_RULE``) from ``params``, seat by seat: (new rows, [Sweep])."""
    sets = parse_set(f"heuristic/{play}", "--a", rules.players)
    out = []
    params = np.array(params, dtype=np.float64, copy=True)
    for seat in range(rules.players):
        for name, j, values in SMOUS_SWEEPS:
            before = float(params[seat, j])
            cands = []
            for v in values:
                if v == before:
                    continue
                trial = params.copy()
                trial[seat, j] = v
                m = duel(rules, sets, sets, deals=deals, seed=seed, threads=threads, bid_params=(trial, params)).margin
                cands.append((v, float(m.mean), float(m.lo), float(m.hi), int(m.n)))
            best = max(cands, key=lambda c: c[1])
            after = best[0] if best[2] > 0 else before
            params[seat, j] = after
            out.append(Sweep(name, seat, before, after, cands))
    return params, out


# --- the koe's suit: weights swept on the koe's own forced runs ------------------------------

KOE_GRID = tuple((a, b) for a in (0.0, 2.0, 4.0, 6.0, 8.0, 12.0, 16.0) for b in (0.0, 4.0, 8.0, 12.0, 16.0, 24.0))
KOE_RULE = (
    "piekjas and dekjas: the koe names the suit with the best strength score + koe_w_length per trump + koe_w_turned "
    "for the turned card's suit (both 0 in the heuristic: the best-scoring suit). Once the take/pass decisions settle, "
    "every koe of the iteration's deals is played in each of the four suits, forced, from the same stream state "
    "(analyzer.runs.suits), and every candidate (koe_w_length, koe_w_turned) of a fixed grid is scored on those runs: "
    "its paired net gain a koe decision over the current policy's suit. The weights move to the best candidate only "
    "when its 95% interval is above 0; then the take/pass fixed point runs again with the new koe (a round-2 pass "
    "leads to it).")


@dataclass
class KoeSweep:
    """The koe weights' sweep: the best candidate's paired gain over the current koe, and the verdict."""

    before: tuple
    after: tuple
    best: tuple  # (koe_w_length, koe_w_turned, gain, lo, hi, n, switched) of the best candidate
    candidates: int

    @property
    def moved(self) -> bool:
        return self.after != self.before

    def as_dict(self) -> dict:
        a, b, m, lo, hi, n, sw = self.best
        return {"before": list(self.before), "after": list(self.after), "moved": self.moved,
                "candidates": self.candidates, "best": {"koe_w_length": a, "koe_w_turned": b, "gain": _num(m),
                                                        "lo": _num(lo), "hi": _num(hi), "n": n, "switched": sw}}

    def label(self) -> str:
        a, b, m, lo, hi, n, sw = self.best
        return (f"koe weights (length, turned) {self.before[0]:g}, {self.before[1]:g} → {self.after[0]:g}, "
                f"{self.after[1]:g} (best {a:g}, {b:g}: {m:+.2f} [{lo:+.2f}, {hi:+.2f}] a koe, n={n:,}, "
                f"{sw:,} switched)")


def sweep_koe(rules: Rules, params: np.ndarray, play: str, deals: int, seed: int,
              threads: int | None = None) -> tuple[np.ndarray, KoeSweep]:
    """The koe weights' sweep (``KOE_RULE``) from ``params``: (new rows, KoeSweep)."""
    cfg = SimConfig(rules=rules, policies=Policies.parse("heuristic", play, rules.players), deals=deals, seed=seed,
                    threads=threads, bid_params=params)
    gains = suit_choice(cfg, candidates=KOE_GRID).candidate_gains()
    before = (float(params[0, P_KOE_LENGTH]), float(params[0, P_KOE_TURNED]))
    b = gains.loc[gains["gain_net"].idxmax()] if len(gains) and gains["n"].max() > 0 else None
    if b is None:
        return params, KoeSweep(before, before, (before[0], before[1], 0.0, 0.0, 0.0, 0, 0), len(KOE_GRID))
    best = (float(b["koe_w_length"]), float(b["koe_w_turned"]), float(b["gain_net"]), float(b["lo"]), float(b["hi"]),
            int(b["n"]), int(b["switched"]))
    after = (best[0], best[1]) if best[3] > 0 else before
    params = np.array(params, dtype=np.float64, copy=True)
    params[:, P_KOE_LENGTH], params[:, P_KOE_TURNED] = after
    return params, KoeSweep(before, after, best, len(KOE_GRID))


# --- the fixed point ------------------------------------------------------------------------


@dataclass
class Iteration:
    index: int
    thresholds: dict  # (round, seat) -> threshold measured in this iteration
    moves: list
    hands: int
    seconds: float
    added: list = field(default_factory=list)  # class overrides added after this iteration's table
    removed: list = field(default_factory=list)  # ... and removed
    n_overrides: int = 0  # class overrides in force during this iteration
    sweeps: list = field(default_factory=list)  # the smous sweeps (2 players), once take/pass settled
    koe: object = None  # the koe weights' sweep (KoeSweep), once take/pass settled

    @property
    def changed(self) -> bool:
        return (any(m.moved for m in self.moves) or bool(self.added) or bool(self.removed)
                or any(w.moved for w in self.sweeps) or (self.koe is not None and self.koe.moved))

    def as_dict(self) -> dict:
        return {"iteration": self.index, "thresholds": _thr_json(self.thresholds), "hands": self.hands,
                "seconds": round(self.seconds, 1), "moved": [m.as_dict() for m in self.moves if m.moved],
                "unresolved": [m.as_dict() for m in self.moves if not m.moved and m.n > 0],
                "overrides_in_force": self.n_overrides,
                "overrides_added": [dict(o.as_dict(), seat=o.seat) for o in self.added],
                "overrides_removed": [dict(o.as_dict(), seat=o.seat) for o in self.removed],
                "smous_sweeps": [w.as_dict() for w in self.sweeps],
                "koe_sweep": self.koe.as_dict() if self.koe is not None else None}


@dataclass
class Calibration:
    """The result of ``calibrate``: the per-seat parameter rows and how they were found."""

    rules: Rules
    play: str
    deals: int
    seed: int
    min_n: int
    start: np.ndarray  # the heuristic's rows the iteration started from
    params: np.ndarray  # the calibrated rows
    iterations: list = field(default_factory=list)
    status: str = "converged"  # converged | unresolved (converged on nothing) | cycle | max_iter
    seconds: float = 0.0
    max_iter: int = DEFAULT_ITER
    objective: str = "net"  # what the thresholds are calibrated on (OBJECTIVES)
    overrides: dict = field(default_factory=dict)  # (round, seat, class key) -> Override, in ``params``
    class_overrides: bool = True  # whether overrides were calibrated (False: thresholds only)
    sweep_deals: int = 0  # 2 players: deals of each smous sweep's duplicate match (0: not swept)
    suits: object = None  # the suit choices measured under ``params`` (questions.suits.SuitChoice; --suits)
    koe_choice: bool = True  # piekjas / dekjas: whether the koe's weights were swept (KOE_RULE)

    def thresholds(self) -> dict:
        return thresholds(self.params)

    def resolved(self) -> int:
        """How many decisions the data resolved: threshold moves, class overrides added or
        dropped and sweeps moved in every iteration, and the last iteration's thresholds kept
        between resolved cells (``Move.bracket``). 0: the result rests on nothing."""
        changes = sum(sum(m.moved for m in it.moves) + len(it.added) + len(it.removed)
                      + sum(w.moved for w in it.sweeps) + (it.koe is not None and it.koe.moved)
                      for it in self.iterations)
        last = self.iterations[-1].moves if self.iterations else []
        return changes + sum(m.bracket is not None and not m.moved for m in last)

    def unresolved_note(self) -> str:
        """The line that says an ``unresolved`` calibration rests on nothing, and what to do."""
        return (f"unresolved: not enough deals ({self.deals:,} an iteration): no threshold moved or lies between "
                f"strength cells whose 95% interval resolves (n >= {self.min_n} each), no class override or sweep "
                "moved; the policy is the heuristic's (make policies calibrates on --deals 200000)")

    def summary(self) -> str:
        r = self.rules
        lines = [f"calibrate {r.label}: play={self.play}, {self.deals:,} deals an iteration, seed {self.seed}, "
                 f"objective {self.objective}; {len(self.iterations)} iterations, {self.status}, "
                 f"{self.seconds:.0f} s"]
        for it in self.iterations:
            moved = [m for m in it.moves if m.moved]
            what = [f"r{m.round} seat {m.seat} {m.before:g}→{m.after:g} (gain {m.gain:+.1f} [{m.lo:+.1f}, {m.hi:+.1f}], "
                    f"n={m.n:,})" for m in moved]
            if it.added or it.removed:
                what.append(f"class overrides +{len(it.added)} −{len(it.removed)} (in force: {it.n_overrides})")
            what += [f"smous sweep: {w.label()}" for w in it.sweeps if w.moved]
            if it.sweeps and not any(w.moved for w in it.sweeps):
                what.append("smous sweeps: " + ", ".join(w.label() for w in it.sweeps) + ", not beyond the noise")
            if it.koe is not None:
                what.append(it.koe.label() + ("" if it.koe.moved else ", not beyond the noise"))
            lines.append(f"  iteration {it.index}: " + (", ".join(what) if what else "nothing moved beyond the noise"))
        start, end = thresholds(self.start), self.thresholds()
        lines.append("  thresholds (heuristic → calibrated): " + ", ".join(
            f"r{rnd} seat {s} {start[(rnd, s)]:g}→{end[(rnd, s)]:g}" for (rnd, s) in sorted(end)))
        ovs = sorted(self.overrides.values(), key=lambda o: (o.round, o.seat, -o.z))
        lines.append(f"  class overrides: {len(ovs)} ({sum(o.take for o in ovs)} take, "
                     f"{sum(not o.take for o in ovs)} pass)" + "".join(f"\n    {o.label()}" for o in ovs))
        if self.status == "unresolved":
            lines.append("  " + self.unresolved_note())
        return "\n".join(lines)

    def command(self) -> str:
        """The command that recomputes this calibration."""
        r = self.rules
        rules = "".join(f" --rule {k}={v}" for k, v in r.options().items() if v != Rules.make(r.variant, r.players).options()[k])
        return (f"belote calibrate --variant {r.variant} --players {r.players} --play {self.play}{rules} "
                f"--deals {self.deals} --seed {self.seed} --iterations {self.max_iter}"
                + (f" --objective {self.objective}" if self.objective != "net" else "")
                + ("" if self.class_overrides else " --no-classes")
                + (f" --smous-deals {self.sweep_deals}" if self.rules.smous_allowed else "")
                + (" --suits" if self.suits is not None else "")
                + ("" if self.koe_choice or not self.rules.koe else " --no-koe-choice"))

    def as_policy(self, command: str | None = None) -> dict:
        """The policy file's content (``write_policy``)."""
        r = self.rules
        return {
            "tool": "belote-analyzer",
            "kind": "bidding-policy",
            "format": POLICY_FORMAT,
            "version": analyzer.__version__,
            "git_commit": git_commit(),
            "created": _dt.datetime.now(_dt.timezone.utc).replace(microsecond=0).isoformat(),
            "command": command or self.command(),
            "label": r.label,
            "variant": r.variant,
            "players": r.players,
            "rules": r.options(),
            "play": self.play,
            "objective": OBJECTIVES[self.objective],
            "seed": self.seed,
            "deals_per_iteration": self.deals,
            "min_n": self.min_n,
            "status": self.status,
            "seconds": round(self.seconds, 1),
            "iterations": [it.as_dict() for it in self.iterations],
            "heuristic_thresholds": _thr_json(thresholds(self.start)),
            "thresholds": _thr_json(self.thresholds()),
            "kept_from_heuristic": ("strength weights, round-2 suit (best-scoring suit)"
                                    if self.koe_choice and r.koe else
                                    "strength weights, koe suit and round-2 suit (best-scoring suit)")
                                   + ("" if self.sweep_deals > 0 or not r.smous_allowed
                                      else ", smous margin and answer (not swept: --smous-deals 0)")
                                   + ("; the suit choices measured: see decisions" if self.suits is not None else ""),
            "decisions": decisions(r, self.sweep_deals > 0, self.suits, self.koe_choice),
            "koe_choice": ({"rule": KOE_RULE, "koe_w_length": float(self.params[0, P_KOE_LENGTH]),
                            "koe_w_turned": float(self.params[0, P_KOE_TURNED])}
                           if self.koe_choice and r.koe else None),
            "suit_choices": ({"koe": self.suits.verdict("koe"), "round2": self.suits.verdict("round2")}
                             if self.suits is not None else None),
            "smous": ({"rule": SMOUS_RULE, "deals": self.sweep_deals,
                       "by_seat": {str(s): {"smous_margin": float(row[P_SMOUS_MARGIN]),
                                            "smous_answer": float(row[P_SMOUS_ANSWER])}
                                   for s, row in enumerate(self.params)}}
                      if self.sweep_deals > 0 and r.smous_allowed else None),
            "params": {str(s): {name: float(v) for name, v in zip(BID_PARAM_NAMES, row)}
                       for s, row in enumerate(self.params)},
            "overrides": {
                "rule": OVERRIDE_RULE, "min_n": self.min_n,
                "measured": "n_changed, gain: the part of the class the override calls differently from the "
                            "threshold, paired gain of taking on the objective with its 95% interval, last iteration",
                "by_seat": {str(s): [o.as_dict() for o in sorted(self.overrides.values(), key=lambda o: (o.round, o.key))
                                     if o.seat == s] for s in range(r.players)}},
        }


def decisions(rules: Rules, swept: bool = False, suits=None, koe_swept: bool = False) -> dict:
    """Per bidding decision of the rules: calibrated, or kept from the heuristic and why
    (``swept``: the smous offer and answer were swept, ``SMOUS_RULE``; ``suits``: the suit
    choices measured, ``questions.suits.SuitChoice``)."""
    unmeasured = ("kept from the heuristic: the best-scoring suit; not measured in this run (belote calibrate "
                  "--suits measures it; figures in docs/CALIBRATION.md)")
    smous = rules.smous_allowed
    out = {
        "take_or_pass": "calibrated: a strength threshold by round and seat, and class overrides (OVERRIDE_RULE)",
        "strength_weights": "kept from the heuristic: the threshold and the classes are read on its score",
        "round2_suit": suits.decision_text("round2") if suits is not None else unmeasured,
        "koe_suit": ((("calibrated: the best strength score + koe_w_length per trump + koe_w_turned for the turned "
                       "suit, the weights swept on the koe's forced runs (KOE_RULE)" if koe_swept else "")
                      + ("; " if koe_swept and suits is not None else "")
                      + (suits.decision_text("koe") if suits is not None else "" if koe_swept else unmeasured))
                     if rules.koe else "not in this variant (passed out)"),
    }
    if smous and swept:
        out["smous_offer"] = "calibrated: smous_margin swept seat by seat by duplicate match (SMOUS_RULE)"
        out["smous_answer"] = ("calibrated: smous_answer swept seat by seat by duplicate match (SMOUS_RULE); an "
                               "answer no offer of the field reaches cannot be measured and stays the heuristic's")
    elif smous:
        out["smous_offer"] = ("kept from the heuristic: offered when the score is within smous_margin below the "
                              "threshold; the tables compare take with pass, not smous with either")
        out["smous_answer"] = ("kept from the heuristic: play when the answerer's own score in the suit reaches "
                               "smous_answer; not measured")
    else:
        out["smous_offer"] = out["smous_answer"] = "not in this variant (2 players only)"
    return out


def calibrate(rules: Rules, play: str = "heuristic", deals: int = DEFAULT_DEALS, seed: int = 1,
              max_iter: int = DEFAULT_ITER, min_n: int = MIN_N, threads: int | None = None, objective: str = "net",
              class_overrides: bool = True, sweep_deals: int | None = None, progress=None,
              koe_choice: bool = True) -> Calibration:
    """Iterate thresholds and class overrides to the fixed point (module docstring), on the
    paired gain of ``objective`` (``net``, the default, or ``score``); ``class_overrides``
    False: thresholds only. 2 players: the smous offer and answer are swept (``sweep_smous``) on
    ``sweep_deals`` deals (default: ``deals``; 0: kept from the heuristic) whenever the take/pass
    decisions settle. ``progress(iteration, moves)`` is called
    after each iteration."""
    if max_iter < 1:
        raise BeloteError(f"--iterations must be 1 or more, not {max_iter}")
    if sweep_deals is None:
        sweep_deals = deals
    if sweep_deals < 0:
        raise BeloteError(f"--smous-deals must be 0 or more, not {sweep_deals}")
    start = np.tile(default_bid_params(rules.variant, rules.players), (rules.players, 1))
    params = with_thresholds(start, thresholds(start))
    pols = Policies.parse("heuristic", play, rules.players)
    gain_column(objective)  # an unknown objective is refused before any work
    cal = Calibration(rules, play, deals, seed, min_n, start, params, max_iter=max_iter, objective=objective,
                      class_overrides=class_overrides, sweep_deals=sweep_deals, koe_choice=koe_choice)
    seen = [_key(params)]
    overrides = {}
    t0 = time.perf_counter()
    cal.status = "max_iter"
    smous = sweep_deals > 0 and rules.smous_allowed
    for k in range(1, max_iter + 1):
        t1 = time.perf_counter()
        table = bidding_table(SimConfig(rules=rules, policies=pols, deals=deals, seed=seed, threads=threads,
                                        bid_params=params))
        moves = propose(table, params, min_n, objective)
        if class_overrides:
            new, added, removed = propose_overrides(table, params, overrides, min_n, objective)
        else:
            new, added, removed = {}, [], []
        it = Iteration(k, thresholds(params), moves, table.hands, time.perf_counter() - t1, added, removed,
                       len(overrides))
        cal.iterations.append(it)
        params = with_overrides(params, new)
        overrides = overrides_of(params, new)  # what the rows hold: the capped set
        if not it.changed and smous:
            # the take/pass decisions are at their fixed point: the smous sweeps, against this field
            params, it.sweeps = sweep_smous(rules, params, play, sweep_deals, seed, threads)
            it.seconds = time.perf_counter() - t1
        if not it.changed and koe_choice and rules.koe:
            # the take/pass decisions are at their fixed point: the koe weights, on this field's koes
            params, it.koe = sweep_koe(rules, params, play, deals, seed, threads)
            it.seconds = time.perf_counter() - t1
        if progress is not None:
            progress(k, moves)
        if not it.changed:
            cal.status = "converged"
            break
        params = with_thresholds(params, {(m.round, m.seat): m.after for m in moves})
        if _key(params) in seen:
            cal.status = "cycle"
            break
        seen.append(_key(params))
    cal.params = params
    cal.overrides = overrides
    cal.seconds = time.perf_counter() - t0
    if cal.status == "converged" and not cal.resolved():
        cal.status = "unresolved"
    return cal


def _key(params):
    codes = tuple(tuple(sorted(override_codes(row))) for row in params)
    return tuple(np.round(params[:, [P_THR1, P_THR2, P_SMOUS_MARGIN, P_SMOUS_ANSWER, P_KOE_LENGTH, P_KOE_TURNED]],
                          3).ravel().tolist()), codes


# --- agreement: does the policy take where taking pays? -------------------------------------


def agreement(table, min_n: int = MIN_N) -> pd.DataFrame:
    """Every (round, seat, strength bin) with at least ``min_n`` decisions: the measured
    verdict (take / pass / unclear, from the 95% interval of the net gain), the policy's
    call there (take when it took most of those hands) and whether they agree."""
    cells = table.strength()
    cells = cells[cells["n"] >= min_n].copy()
    cells["policy_call"] = np.where(cells["policy_takes"] >= 0.5, "take", "pass")
    cells["resolved"] = cells["verdict"] != "unclear"
    cells["agrees"] = cells["resolved"] & (cells["verdict"] == cells["policy_call"])
    return cells[["round", "seat", "strength_lo", "strength_hi", "n", "policy_takes", "policy_call", "gain_net",
                  "gain_net_lo", "gain_net_hi", "verdict", "resolved", "agrees"]].reset_index(drop=True)


def class_agreement(table, min_n: int = MIN_N) -> pd.DataFrame:
    """The decision cells of a threshold-and-overrides policy: every (round, seat, hand
    class), split into the part the seat's threshold takes and the part it passes, with at
    least ``min_n`` decisions. The policy calls each part one way (the class's override, or
    the threshold's side); the verdict of the 95% interval of the net gain (take / pass /
    unclear) against that call."""
    parts = class_parts(table, "net")
    ovs = overrides_of(table.config.bid_params)
    rows = []
    for r in parts.itertuples():
        o = ovs.get((int(r.round), int(r.seat), int(r.key)))
        for part in ("t", "p"):
            n = getattr(r, part + "_n")
            if n < min_n:
                continue
            lo, hi = getattr(r, part + "_lo"), getattr(r, part + "_hi")
            call = ("take" if o.take else "pass") if o is not None else ("take" if part == "t" else "pass")
            verdict = "take" if lo > 0 else "pass" if hi < 0 else "unclear"
            rows.append({"round": int(r.round), "seat": int(r.seat), "honours": r.honours,
                         "trump_length": int(r.trump_length), "side_aces": int(r.side_aces), "voids": int(r.voids),
                         "threshold_part": "takes" if part == "t" else "passes", "override": o is not None,
                         "n": int(n), "policy_call": call, "gain_net": getattr(r, part + "_gain"), "gain_net_lo": lo,
                         "gain_net_hi": hi, "verdict": verdict, "resolved": verdict != "unclear",
                         "agrees": verdict == call})
    return pd.DataFrame(rows, columns=["round", "seat", "honours", "trump_length", "side_aces", "voids",
                                       "threshold_part", "override", "n", "policy_call", "gain_net", "gain_net_lo",
                                       "gain_net_hi", "verdict", "resolved", "agrees"])


# --- policy files (written by analyzer.output.policy_file) ----------------------------------------


_CALLS = {"take": "takes", "pass": "passes"}


def _thr_json(thr: dict) -> dict:
    out = {}
    for (rnd, seat), v in sorted(thr.items()):
        out.setdefault(f"round{rnd}", {})[str(seat)] = v
    return out


def _num(x):
    return None if x is None or not np.isfinite(x) else round(float(x), 2)


# --- evidence: agreement on fresh deals, and a duplicate match ---------------------------------


def agreement_share(rules: Rules, bid: str = "calibrated", play: str = "heuristic", deals: int = 200_000,
                    seed: int = 1, min_n: int = MIN_N, threads: int | None = None) -> dict:
    """The bidding table of ``bid`` in every seat on ``deals`` deals: how many (round, seat,
    strength bin) cells have ``min_n`` decisions, how many of those the 95% interval
    resolves, and how many resolved cells agree with the policy's call."""
    cfg = SimConfig(rules=rules, policies=Policies.parse(bid, play, rules.players), deals=deals, seed=seed,
                    threads=threads)
    table = bidding_table(cfg)
    cells = agreement(table, min_n)
    res = cells[cells["resolved"]]
    wrong = res[~res["agrees"]]
    parts = class_agreement(table, min_n)
    pres = parts[parts["resolved"]]
    pwrong = pres[~pres["agrees"]]
    fw, fw_wrong = family_wise(cells), family_wise(parts)
    return {"label": rules.label, "bid": bid, "play": play, "deals": deals, "seed": seed, "cells": len(cells),
            "resolved": int(len(res)), "agree": int(res["agrees"].sum()),
            "share": float(res["agrees"].mean()) if len(res) else float("nan"),
            "disagree": [f"r{r.round} seat {r.seat} {r.strength_lo:g}-{r.strength_hi:g}: policy {_CALLS[r.policy_call]} "
                         f"({100 * r.policy_takes:.0f}% take), gain {r.gain_net:+.1f} [{r.gain_net_lo:+.1f}, "
                         f"{r.gain_net_hi:+.1f}] n={r.n:,}" for r in wrong.itertuples()],
            "fw_z": fw[0], "fw_disagree": fw[1], "class_fw_z": fw_wrong[0], "class_fw_disagree": fw_wrong[1],
            "class_cells": len(parts), "class_resolved": int(len(pres)), "class_agree": int(pres["agrees"].sum()),
            "class_share": float(pres["agrees"].mean()) if len(pres) else float("nan"),
            "class_disagree": [f"r{r.round} seat {r.seat} {r.honours} len {r.trump_length} aces {r.side_aces} "
                               f"voids {r.voids} (part the threshold {r.threshold_part}"
                               f"{', overridden' if r.override else ''}): policy {_CALLS[r.policy_call]}, gain "
                               f"{r.gain_net:+.1f} [{r.gain_net_lo:+.1f}, {r.gain_net_hi:+.1f}] n={r.n:,}"
                               for r in pwrong.itertuples()]}


def family_wise(cells: pd.DataFrame, alpha: float = 0.05) -> tuple[float, int]:
    """Disagreements that survive a family-wise correction: with m cells tested (n >= MIN_N),
    a policy that is right everywhere still shows about m x 2.5% one-sided 95% misses against
    its calls by chance. Bonferroni: each cell's interval widened to z = Φ⁻¹(1 − α / 2m); returns
    (z, how many cells' widened interval is still on the other side of the policy's call)."""
    m = len(cells)
    if m == 0:
        return float("nan"), 0
    z = NormalDist().inv_cdf(1 - alpha / (2 * m))
    se = (cells["gain_net_hi"] - cells["gain_net_lo"]) / (2 * Z95)
    lo, hi = cells["gain_net"] - z * se, cells["gain_net"] + z * se
    wrong = ((cells["policy_call"] == "take") & (hi < 0)) | ((cells["policy_call"] == "pass") & (lo > 0))
    return float(z), int(wrong.sum())


def duplicate(rules: Rules, a: str = "calibrated", b: str = "heuristic", play: str = "heuristic",
              deals: int = 400_000, blocks: int = 40, seed: int = 1, threads: int | None = None):
    """A duplicate match of bidding policy ``a`` against ``b``, same play policy: the same
    deals are played with ``a`` on one side and ``b`` on the others, once for each side
    (classic: the two teams swapped; piekjas / dekjas: ``a`` at each seat in turn), so ``a``
    holds every hand once. Per hand, ``a``'s side scores ``own - mean of the other sides``
    (with two sides: own minus the other's, the net score). Returns a ``Mean`` per hand with
    its 95% interval from ``blocks`` independent blocks of deals (seeds ``derived_seed(seed, j)``); the
    runs of a block share their deals, so the comparison is paired."""
    n = rules.players
    rotations = range(len(rules.sides))  # a at the seats of each side in turn
    per = max(1, deals // blocks)
    vals = []
    for j in range(blocks):
        tot = 0.0
        for s in rotations:
            spec = ",".join(f"{k}={a if rules.side_of(k) == s else b}" for k in range(n))
            cfg = SimConfig(rules=rules, policies=Policies.parse(spec, play, n), deals=per, seed=derived_seed(seed, j),
                            threads=threads)
            res, adv = simulate_seats(cfg)
            tot += seat_advantage(adv, s, len(rules.sides), per).mean
        vals.append(tot / len(rotations))
    m = mean_of(vals)
    return m, per * blocks
