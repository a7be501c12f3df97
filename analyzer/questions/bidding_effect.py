"""What calibration changes: heuristic bidders against calibrated bidders, on the same deals.

Per variant label, two things:

- the thresholds of the heuristic bidder (``bidding.default_bid_params``) and of the
  shipped calibrated policy (``policies_data/<label>.json``, read through
  ``analyzer.players.policy_files``), by round and seat;
- the same hands and whole games played with heuristic bidders in every seat (reading
  ``a``) and with the calibrated bidders in every seat (reading ``b``), the play policy the
  same for both. Hand ``i`` of both readings is dealt from ``seed_stream(seed, i)`` and game
  ``g`` from the stream of ``(seed, g)``, so the readings are paired exactly as the rule
  options of ``analyzer.questions.impact`` are, and the intervals are the same: batch means over
  blocks of consecutive hands for the hand statistics (take rates, koe, made / dedans, scores,
  seat advantage), per-game paired differences for the games (P(win) by seat, hands per game).

Where the calibrated thresholds are the heuristic's (classic converged where it started),
both readings are the same policy and would play identical hands: the hands are played once
and every difference is exactly 0 (said in the output), which saves the second run.

``compare_bidding`` runs it; ``BiddingEffect`` builds the tables once (long format, the
columns of ``impact.TABLE_COLUMNS``, ``kind`` "policy") and renders markdown.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
import pandas as pd

from analyzer.players.policies import Policies
from analyzer.players.policy_files import describe_bid
from analyzer.questions.impact import (
    DEFAULT_BLOCKS,
    TABLE_COLUMNS,
    Diff,
    check_sizes,
    game_stats,
    hand_stats,
    paired_game_difference,
    ratio_difference,
    run_reading,
)
from analyzer.players.policy_files import override_codes
from analyzer.questions.calibrate import duplicate, thresholds
from analyzer.rules import ALL_LABELS, Rules
from analyzer.runs.games import DEFAULT_MAX_DEALS, G_DEALS
from analyzer.runs.simulate import OFFSETS, SimConfig

COMPARISON = "bid: heuristic → calibrated"
DUEL_BLOCKS = 40  # independent blocks of the duplicate match (its interval)
SHOWN = ("taken", "take_round1", "take_round2", "koe", "passed_out", "smous_offered", "redeal", "made", "dedans",
         "taker_score")  # the rows of the markdown tables (all statistics are in the CSV), then seats and games
PANELS = (  # the forest plot's panels: (statistic, title)
    ("take_round1", "taken in round 1 (pp)"),
    ("take_round2", "taken in round 2 (pp)"),
    ("koe", "koe (pp)"),
    ("dedans", "dedans (pp of hands played)"),
    ("taker_score", "taker's score (points)"),
    ("advantage_seat0", "seat 0 advantage (points)"),
    ("p_win_first_seat0", "P(win), first seat 0 (pp)"),
    ("p_win_first_seat1", "P(win), first seat 1 (pp)"),
)


@dataclass
class BiddingEffect:
    """Both readings of every label and the thresholds they bid with."""

    labels: list
    deals: int
    games: int
    blocks: int
    seed: int
    play: str
    runs: dict  # label -> (Run a, Run b); the same object twice where the policies are the same
    params: dict  # label -> (params a, params b): per-seat bid parameter rows
    bidders: dict  # label -> {"a": description, "b": description}
    seconds: float
    duel: dict = field(default_factory=dict)  # label -> (Mean per hand, deals, hands): the duplicate match
    _cache: dict = field(default_factory=dict, repr=False)

    def same(self, label: str) -> bool:
        a, b = self.runs[label]
        return a is b

    def overrides(self, label: str) -> tuple[int, int]:
        """(take, pass) class overrides of the calibrated bidders of ``label``, over their seats."""
        codes = [v for row in self.params[label][1] for v in override_codes(row)]
        return sum(v > 0 for v in codes), sum(v < 0 for v in codes)

    @property
    def hands_simulated(self) -> int:
        total = 0
        for a, b in self.runs.values():
            for r in ((a,) if a is b else (a, b)):
                total += int(r.counts[:, OFFSETS["hands"]].sum())
                total += int(r.games[:, G_DEALS].sum()) if r.games is not None else 0
        return total + sum(hands for _, _, hands in self.duel.values())

    def threshold_table(self) -> pd.DataFrame:
        """One row per label, round and seat: the heuristic's and the calibrated threshold."""
        rows = []
        for lab in self.labels:
            ta, tb = (thresholds(p) for p in self.params[lab])
            for (rnd, seat) in sorted(ta):
                rows.append({"variant": lab, "round": rnd, "seat": seat, "heuristic": ta[(rnd, seat)],
                             "calibrated": tb[(rnd, seat)], "moved": ta[(rnd, seat)] != tb[(rnd, seat)]})
        return pd.DataFrame(rows)

    def table(self) -> pd.DataFrame:
        """One row per label and statistic: calibrated − heuristic with its 95% interval."""
        if "table" in self._cache:
            return self._cache["table"]
        rows = []
        for lab in self.labels:
            rules = Rules.from_label(lab)
            ra, rb = self.runs[lab]
            for st in hand_stats(rules):
                d = ratio_difference(st.num(ra.counts, ra.adv), st.den(ra.counts, ra.adv),
                                     st.num(rb.counts, rb.adv), st.den(rb.counts, rb.adv), st.scale)
                rows.append(_row(lab, st.family, st.key, st.label, st.unit, d))
            if ra.games is not None:
                for fam, key, label, unit, xa, xb, scale in game_stats(rules, ra.games, rb.games):
                    rows.append(_row(lab, fam, key, label, unit, paired_game_difference(xa, xb, scale)))
        self._cache["table"] = pd.DataFrame(rows, columns=list(TABLE_COLUMNS))
        return self._cache["table"]

    def write(self, out_dir) -> list[Path]:
        """``calibration_effect.csv`` (every statistic) and ``calibration_thresholds.csv``."""
        out = Path(out_dir)
        files = [out / "calibration_effect.csv", out / "calibration_thresholds.csv"]
        self.table().to_csv(files[0], index=False)
        self.threshold_table().to_csv(files[1], index=False)
        return files


def _row(label, family, key, name, unit, d: Diff) -> dict:
    return {"variant": label, "comparison": COMPARISON, "option": "bid", "kind": "policy", "a_value": "heuristic",
            "b_value": "calibrated", "family": family, "statistic": key, "label": name, "unit": unit, "a": d.a,
            "b": d.b, "diff": d.diff, "lo": d.lo, "hi": d.hi, "se": d.se, "n": d.n, "beyond_noise": d.beyond_noise,
            "size": d.size}


def compare_bidding(labels=None, deals: int = 50_000, games: int = 5_000, seed: int = 1, play: str = "heuristic",
                    threads: int | None = None, blocks: int = DEFAULT_BLOCKS, max_deals: int = DEFAULT_MAX_DEALS,
                    duel_deals: int = 0, progress=None) -> BiddingEffect:
    """Heuristic bidders against the shipped calibrated bidders of each label (default all),
    on the same ``deals`` hands and ``games`` games (paired); with ``duel_deals``, also a
    duplicate match of one calibrated bidder against heuristic ones on that many deals
    (``calibrate.duplicate``). ``progress(done)`` counts hands plus games of the two readings.

    Example::

        >>> e = compare_bidding(["dekjas"], deals=100_000, games=2_000)  # doctest: +SKIP
        >>> e.table().query("beyond_noise")[["statistic", "a", "b", "diff", "lo", "hi"]]  # doctest: +SKIP
    """
    labels = list(labels) if labels else list(ALL_LABELS)
    blocks = check_sizes(deals, games, blocks, seed)
    t0 = time.perf_counter()
    runs, params, bidders, duel = {}, {}, {}, {}
    done = 0
    for lab in labels:
        rules = Rules.from_label(lab)
        cfgs = [SimConfig(rules=rules, policies=Policies.parse(bid, play, rules.players), deals=deals, seed=seed,
                          threads=threads) for bid in ("heuristic", "calibrated")]
        params[lab] = tuple(c.bid_params.copy() for c in cfgs)
        bidders[lab] = {k: describe_bid(c.policies, rules) for k, c in zip("ab", cfgs)}
        pair = []
        for cfg in cfgs:
            if pair and np.array_equal(cfg.bid_params, params[lab][0]):
                pair.append(pair[0])  # the same bidders: the same hands, not played twice
                continue

            def rp(n, base=done):
                if progress is not None:
                    progress(base + n)

            pair.append(run_reading(cfg, blocks, games, max_deals, rp))
            done += deals + games
        runs[lab] = tuple(pair)
        if duel_deals and pair[0] is not pair[1]:
            m, n = duplicate(rules, "calibrated", "heuristic", play, deals=max(DUEL_BLOCKS, duel_deals),
                             blocks=DUEL_BLOCKS, seed=seed, threads=threads)
            duel[lab] = (m, n, n * (2 if rules.partners else rules.players))
    return BiddingEffect(labels, deals, games, blocks, seed, play, runs, params, bidders, time.perf_counter() - t0,
                         duel)


def total_units(labels=None, deals: int = 50_000, games: int = 5_000) -> int:
    """What ``compare_bidding``'s progress counts up to at most (hands plus games of both readings)."""
    return len(list(labels) if labels else ALL_LABELS) * 2 * (deals + games)


__all__ = ["compare_bidding", "BiddingEffect", "COMPARISON", "PANELS", "total_units"]
