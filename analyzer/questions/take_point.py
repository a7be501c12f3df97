"""``table --score``: how the score moves the take point.

The bidding tables say from which strength taking pays in the points of a hand. Games are won to
a target, so here the measure is the chance to win the game. For each region of the score
(level, ahead, behind, each far from or near the target: ``bidding.score_region``, from
voorhand's side), states real games passed through in that region (``runs.equity.sample_games``)
are dealt fresh cards and voorhand's round-1 call is forced, pass and then take (the turned suit),
on the same cards and random numbers (``runs.equity._take_point``); the chance to win the game
after each comes from the equity table. Voorhand's strength in the turned suit is its bidder's
score (``bidding.suit_strength``).

The *take point* of a region is the weakest strength from which taking gains: the lowest strength
where the nondecreasing (isotonic) fit of the gain against strength reaches 0. Its 95% interval
comes from refitting on resamples of the states (bootstrap). Every region's gain curve is kept by
strength bins for the picture.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field

import numpy as np

from analyzer.players.bidding import SCORE_REGIONS, score_region
from analyzer.runs import kernelcache
from analyzer.runs.equity import _isotonic, _take_point, in_parts, sample_games
from analyzer.runs.hand import strong_address
from analyzer.runs.simulate import SimConfig
from analyzer.runs.stats import mean_of

BIN = 5.0  # strength points of a bin of the curves
MIN_STATES = 500  # a region with fewer states is not measured


@dataclass
class RegionPoint:
    region: str
    states: int  # states real games passed through in the region
    deals: int = 0  # deals played from them (each twice: pass and take)
    point: float | None = None  # the take point (strength), None: taking never gains (or always)
    lo: float | None = None
    hi: float | None = None
    gain_at: dict = field(default_factory=dict)  # bin centre -> Mean of the gain (points of percentage)

    def as_dict(self) -> dict:
        return {"region": self.region, "states": self.states, "deals": self.deals, "take_point": self.point,
                "lo": self.lo, "hi": self.hi,
                "gain_by_strength": {f"{k:g}": v.as_dict() for k, v in self.gain_at.items()}}


@dataclass
class TakePoints:
    label: str
    regions: list  # RegionPoint, in SCORE_REGIONS order (measured ones)
    games: int
    seed: int
    seconds: float

    def moved(self) -> list:
        """The regions whose take point's interval does not meet the level region's."""
        base = next((r for r in self.regions if r.region == "level"), None)
        if base is None or base.point is None:
            return []
        return [r for r in self.regions if r.region != "level" and r.point is not None
                and (r.lo > base.hi or r.hi < base.lo)]

    def as_dict(self) -> dict:
        return {"label": self.label, "games": self.games, "seed": self.seed, "seconds": round(self.seconds, 1),
                "regions": [r.as_dict() for r in self.regions], "moved": [r.region for r in self.moved()]}


def take_point(strength: np.ndarray, gain: np.ndarray) -> float | None:
    """The lowest strength where the nondecreasing fit of ``gain`` reaches 0 (None when it never
    does, or does from the weakest hand on)."""
    order = np.argsort(strength, kind="stable")
    x, fit = strength[order], _isotonic(gain[order].astype(np.float64), np.ones(gain.shape[0]))
    above = np.flatnonzero(fit >= 0)
    if not above.shape[0] or above[0] == 0:
        return None
    return float(x[above[0]])


def _sweep(config: SimConfig, table, states: np.ndarray, seed: int, threads=None) -> np.ndarray:
    rec, bid, play, params = config.kernel_args()
    args = (rec, bid, play, params, strong_address(play))
    out = np.zeros((states.shape[0], 3))
    kernelcache.compile_first(_take_point, (*args, states[:1], seed, 0, table.p, table.grid, out[:1]),
                              kernelcache.HAND_LOCK)
    in_parts(states.shape[0], lambda i, j: _take_point(*args, states[i:j], seed, i, table.p, table.grid, out[i:j]),
             threads, parts=16)
    return out


def take_points(config: SimConfig, table, games: int = 10_000, per_region: int = 20_000, boot: int = 100,
                seed: int = 1, threads=None, progress=None) -> TakePoints:
    """Every region's take point for voorhand in round 1 (see the module's docstring)."""
    t0 = time.perf_counter()
    sample = sample_games(config, games, threads=threads)
    st = sample.states[sample.state_reserve == 0]
    others = st[:, 1:].max(axis=1)
    reg = np.array([score_region(int(a), int(b), sample.target) for a, b in zip(st[:, 0], others)])
    rng = np.random.default_rng(seed)
    out = []
    for r, name in enumerate(SCORE_REGIONS):
        idx = np.flatnonzero(reg == r)
        if idx.shape[0] < MIN_STATES:
            out.append(RegionPoint(name, int(idx.shape[0]), 0, None, None, None))
            continue
        pick = rng.choice(idx, size=per_region, replace=idx.shape[0] < per_region)
        vals = _sweep(config, table, st[pick].astype(np.int64), seed + 101 * r, threads)
        x, gain = vals[:, 0], 100 * (vals[:, 2] - vals[:, 1])
        point = take_point(x, gain)
        boots = []
        for _ in range(boot):
            b = rng.integers(0, x.shape[0], x.shape[0])
            v = take_point(x[b], gain[b])
            boots.append(np.nan if v is None else v)
        boots = np.array(boots)
        lo, hi = (np.nanpercentile(boots, [2.5, 97.5]) if np.isfinite(boots).any() else (np.nan, np.nan))
        bins = np.floor(x / BIN) * BIN + BIN / 2
        curve = {float(c): mean_of(gain[bins == c]) for c in np.unique(bins) if (bins == c).sum() >= 30}
        out.append(RegionPoint(name, int(idx.shape[0]), int(x.shape[0]), point, None if point is None else float(lo),
                               None if point is None else float(hi), curve))
        if progress is not None:
            progress(r + 1)
    return TakePoints(config.rules.label, out, games, seed, time.perf_counter() - t0)


def take_points_text(tp: TakePoints) -> str:
    """The take point by region, in a player's words."""
    lines = [f"How the score moves the take point, {tp.label}: voorhand, round 1, taking the turned suit; "
             "the weakest strength (the bidder's score of the hand) from which taking raises the chance to win "
             "the game, 95% interval from resampled states."]
    for r in tp.regions:
        if r.point is None:
            lines.append(f"  {r.region:24} " + (f"too few states ({r.states})" if r.states < MIN_STATES
                                                else "taking gains at every strength, or at none"))
        else:
            lines.append(f"  {r.region:24} {r.point:5.0f} [{r.lo:.0f}, {r.hi:.0f}]   ({r.states:,} states met)")
    moved = tp.moved()
    lines.append("Beyond the noise against level: " + (", ".join(
        f"{r.region} ({'later' if r.point > next(x for x in tp.regions if x.region == 'level').point else 'earlier'})"
        for r in moved) if moved else "none") + ".")
    return "\n".join(lines)


__all__ = ["take_points", "take_point", "TakePoints", "RegionPoint", "take_points_text"]
