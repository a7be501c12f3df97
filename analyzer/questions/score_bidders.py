"""Score-aware bidders: the calibrated bidder's thresholds moved by the game score.

A bidder's ``shift_*`` parameters (``analyzer.players.bidding``) add to both its thresholds in
each region of the score it sees (its side's total against the best other's: level, ahead,
behind, each far from or near the target, ``bidding.score_region``). They are chosen here by
what they are worth in the game, not in the points of the hand:

1. states of real games (``analyzer.runs.equity.sample_games``, no reserve waiting), each with
   one side as "us", grouped by region;
2. for each region, every candidate shift played on the same fresh deals from those states
   (``equity._shift_sweep``): our seats bid with the shift, the others with their current ones,
   and our chance to win the game after the hand is read from the equity table;
3. the shift whose mean chance is highest is kept where its paired gain over the current one is
   beyond the noise (else the current one stays); every region in turn, and again with the new
   shifts (the others bid with them too) until no shift moves: a fixed point, or ``rounds``.

The result is written as a policy file: the calibrated file's rows with the shifts in every
seat, and a ``score_aware`` block that records how they were chosen.
"""

from __future__ import annotations

import copy
import time
from dataclasses import dataclass, field

import numpy as np

from analyzer.players.bidding import BID_PARAM_NAMES, P_SHIFTS, SCORE_REGIONS, score_region
from analyzer.players.policy_files import calibrated_path, read_policy
from analyzer.runs import kernelcache
from analyzer.runs.equity import GameSample, _shift_sweep, in_parts, sample_games
from analyzer.runs.hand import strong_address
from analyzer.runs.simulate import SimConfig
from analyzer.runs.stats import distinguishable, mean_of

CANDIDATES = (-24.0, -16.0, -10.0, -6.0, -3.0, 0.0, 3.0, 6.0, 10.0, 16.0, 24.0)
SHIFT_NAMES = tuple(n for n in BID_PARAM_NAMES if n.startswith("shift_"))


@dataclass
class ShiftCalibration:
    label: str
    shifts: np.ndarray  # per region
    rounds: list = field(default_factory=list)  # per round: per region {"shift", "gains": {cand: Mean dict}}
    states: int = 0
    seconds: float = 0.0
    status: str = "max_iter"


def region_states(sample: GameSample, per_region: int, seed: int):
    """Up to ``per_region`` states of each region (with the side that is "us"), drawn from those real
    games passed through with no reserve waiting."""
    st = sample.states[sample.state_reserve == 0]
    rng = np.random.default_rng(seed)
    us = rng.integers(0, sample.n_sides, st.shape[0])
    ours = st[np.arange(st.shape[0]), us]
    others = st.copy()
    others[np.arange(st.shape[0]), us] = -1
    reg = np.array([score_region(int(a), int(b), sample.target) for a, b in zip(ours, others.max(axis=1))])
    out = []
    for r in range(len(SCORE_REGIONS)):
        idx = np.flatnonzero(reg == r)
        pick = rng.choice(idx, size=min(per_region, idx.shape[0]), replace=False) if idx.shape[0] else idx
        out.append((st[pick].astype(np.int64), us[pick].astype(np.int64)))
    return out


def sweep(config: SimConfig, params: np.ndarray, states, us, candidates, seed: int, table, threads=None):
    """(states, candidates) chances to win after the hand, each candidate shift for our seats."""
    rec, bid, play, _ = config.kernel_args()
    strong = strong_address(play)
    out = np.zeros((states.shape[0], len(candidates)))
    shifts = np.array(candidates, np.float64)
    args = (rec, bid, play, params, strong)
    kernelcache.compile_first(_shift_sweep, (*args, states[:1], us[:1], shifts, seed, 0, table.p, table.grid,
                                             out[:1]), kernelcache.HAND_LOCK)
    in_parts(states.shape[0], lambda i, j: _shift_sweep(*args, states[i:j], us[i:j], shifts, seed, i, table.p,
                                                         table.grid, out[i:j]), threads, parts=16)
    return out


def calibrate_shifts(config: SimConfig, table, games: int = 10_000, per_region: int = 20_000, rounds: int = 4,
                     seed: int = 1, threads=None, progress=None) -> ShiftCalibration:
    """The shifts of every region at their fixed point (see the module's docstring)."""
    t0 = time.perf_counter()
    sample = sample_games(config, games, threads=threads)
    groups = region_states(sample, per_region, seed)
    shifts = np.zeros(len(SCORE_REGIONS))
    cal = ShiftCalibration(config.rules.label, shifts, states=sum(g[0].shape[0] for g in groups))
    base = config.bid_params.copy()
    for rnd in range(rounds):
        moved = False
        record = {}
        for r, (states, us) in enumerate(groups):
            if states.shape[0] < 100:
                record[SCORE_REGIONS[r]] = {"shift": float(shifts[r]), "states": int(states.shape[0]),
                                            "note": "too few states"}
                continue
            params = base.copy()
            params[:, P_SHIFTS:P_SHIFTS + len(SCORE_REGIONS)] = shifts
            vals = sweep(config, params, states, us, CANDIDATES, seed + 1000 * rnd + r, table, threads)
            cur = CANDIDATES.index(shifts[r]) if shifts[r] in CANDIDATES else CANDIDATES.index(0.0)
            gains = {c: mean_of(vals[:, k] - vals[:, cur]) for k, c in enumerate(CANDIDATES)}
            best = max(CANDIDATES, key=lambda c: gains[c].mean)
            if best != shifts[r] and distinguishable(gains[best]):
                shifts[r] = best
                moved = True
            record[SCORE_REGIONS[r]] = {"shift": float(shifts[r]), "states": int(states.shape[0]),
                                        "gain_over_previous": {f"{c:+g}": gains[c].as_dict() for c in CANDIDATES}}
            if progress is not None:
                progress(rnd * len(SCORE_REGIONS) + r + 1)
        cal.rounds.append(record)
        if not moved:
            cal.status = "converged"
            break
    cal.shifts = shifts
    cal.seconds = time.perf_counter() - t0
    return cal


def score_policy(config: SimConfig, cal: ShiftCalibration, table, command: str) -> dict:
    """The shipped calibrated policy of the rules and play, with the shifts in every seat's row."""
    play = config.policies.play[0][0]
    doc = copy.deepcopy(read_policy(calibrated_path(config.rules.label, play)))
    for row in doc["params"].values():
        for name, v in zip(SHIFT_NAMES, cal.shifts):
            row[name] = float(v)
    doc["command"] = command
    doc["score_aware"] = {
        "regions": list(SCORE_REGIONS), "shifts": {n: float(v) for n, v in zip(SHIFT_NAMES, cal.shifts)},
        "status": cal.status, "rounds": cal.rounds, "states": cal.states, "candidates": list(CANDIDATES),
        "seconds": round(cal.seconds, 1), "equity_table": {k: table.provenance.get(k) for k in
                                                          ("git_commit", "real_games", "games_per_cell", "date")},
        "from": calibrated_path(config.rules.label, play).name,
    }
    return doc


__all__ = ["calibrate_shifts", "score_policy", "ShiftCalibration", "CANDIDATES", "SHIFT_NAMES"]
