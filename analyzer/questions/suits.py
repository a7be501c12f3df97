"""The suit choices of the bidding policy, measured (docs/CALIBRATION.md): the koe's suit and the
choice among suits in round 2.

The heuristic bidder (calibrated or not) names the suit its strength score
(``bidding.suit_strength``) is best in, at the koe (piekjas and dekjas: after two passed
rounds seat 0 must play, on a suit of its choice) and when it takes in round 2. Neither the
take/pass thresholds nor the class overrides touch that choice. ``suit_choice(config)``
samples deals under the config's bidding policies in every seat, and at every koe and every
round-2 take reached plays the hand once per allowed suit, forced, from the same stream state
(``analyzer.runs.suits``): the paired net gain of each alternative suit over the policy's.

Cells a reader can act on (``cells``): (decision: the koe, or a round-2 take at seat s; the
alternative's rank among the other suits by strength: 2nd, 3rd or 4th best; the strength gap
between the policy's suit and the alternative, in ``GAP_BIN``-point bins). Other views
(``view``): whether the alternative is the turned suit, whether it is longer in trumps, the
policy suit's own strength. A cell's verdict, on the net gain of the alternative with its 95%
interval (``n`` at least ``min_n``): **beaten** (the alternative gains: interval above 0),
**kept** (the policy's suit gains: interval below 0) or unclear. The policy's suit choice
agrees with the data where no resolved cell is beaten (``beaten_share``).

Integer sums per chunk (``driver.SUITS``): the same numbers whatever the thread count.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pandas as pd

from analyzer.players.policies import Policies
from analyzer.questions.table import _records, mean_ci, summed_deals
from analyzer.runs import driver
from analyzer.runs import suits as K
from analyzer.runs.simulate import SimConfig

MIN_N = 200  # alternatives a cell needs for a verdict (the bidding tables' MIN_N)
RAW_FIELDS = ("n", "dnet", "dnet_sq", "d", "d_sq", "alt_made", "pol_made")
assert len(RAW_FIELDS) == K.NS
LENREL = ("shorter", "equal", "longer")
CELL_KEYS = ("decision", "rank", "gap_lo", "gap_hi")
SPLITS = {  # the decision cells split once more: name -> (the grouping, what it says)
    "turned": (CELL_KEYS + ("turned",), "split by whether the alternative is the turned suit"),
    "length": (CELL_KEYS + ("length",), "split by the alternative's trump length against the policy suit's"),
}
RANK_NAMES = {2: "2nd", 3: "3rd", 4: "4th"}  # the alternative's rank among all allowed suits (the policy's is 1st)


def decision_label(dec: int) -> str:
    """0: ``koe``; 1 + s: ``r2 seat s`` (a round-2 take at seat s)."""
    return "koe" if dec == 0 else f"r2 seat {dec - 1}"


def cell_keys(idx: np.ndarray) -> pd.DataFrame:
    """The key columns of the kernel's cell indices ``idx`` (``analyzer.runs.suits.suit_cell``)."""
    idx = np.asarray(idx, np.int64)
    pstr = idx % K.N_PB
    rest = idx // K.N_PB
    lenrel = rest % K.N_LENREL
    rest //= K.N_LENREL
    turned = rest % 2
    rest //= 2
    gap = rest % K.N_GAP
    rest //= K.N_GAP
    rank = rest % K.N_RANK
    dec = rest // K.N_RANK
    return pd.DataFrame({
        "decision": [decision_label(int(d)) for d in dec], "dec": dec,
        "rank": rank + 2,  # the policy's suit is 1st: alternatives are 2nd .. 4th
        "gap_lo": gap * K.GAP_BIN, "gap_hi": np.where(gap == K.N_GAP - 1, np.inf, (gap + 1) * K.GAP_BIN),
        "turned": turned == 1, "length": [LENREL[int(x)] for x in lenrel],
        "policy_strength_lo": pstr * K.P_BIN,
        "policy_strength_hi": np.where(pstr == K.N_PB - 1, np.inf, (pstr + 1) * K.P_BIN),
    })


def derive(summed: pd.DataFrame, min_n: int = MIN_N) -> pd.DataFrame:
    """Means with 95% intervals and the verdict from summed raw columns (keeps the keys)."""
    keys = [c for c in summed.columns if c not in RAW_FIELDS]
    out = summed[keys].copy()
    n = summed["n"].to_numpy()
    out["n"] = n
    for name, s, sq in (("gain_net", "dnet", "dnet_sq"), ("gain_score", "d", "d_sq")):
        m, se, lo, hi = mean_ci(summed[s], summed[sq], n)
        out[name], out[name + "_se"], out[name + "_lo"], out[name + "_hi"] = m, se, lo, hi
    with np.errstate(invalid="ignore", divide="ignore"):
        out["alt_made"] = summed["alt_made"].to_numpy() / n
        out["policy_made"] = summed["pol_made"].to_numpy() / n
    enough = n >= min_n
    out["verdict"] = np.where(~enough, "too few", np.where(out["gain_net_lo"] > 0, "beaten",
                                                           np.where(out["gain_net_hi"] < 0, "kept", "unclear")))
    return out


@dataclass
class SuitChoice:
    """The kernel's sums of one run, and the views built on them."""

    config: SimConfig
    raw: pd.DataFrame  # one row per non-empty kernel cell: its keys and summed RAW_FIELDS
    meta: np.ndarray  # analyzer.runs.suits.SM_*
    seconds: float
    min_n: int = MIN_N
    bidders: str = ""  # who bid, as the summary names them (default: the config's policies)
    candidates: tuple = ()  # the candidate koe rules (a, b) evaluated (analyzer.runs.suits, cand block)
    cand: np.ndarray | None = None  # their sums, (len(candidates), NC)

    @property
    def label(self) -> str:
        return self.config.rules.label

    @property
    def deals(self) -> int:
        return int(self.meta[K.SM_DEALS])

    @property
    def hands(self) -> int:
        return int(self.meta[K.SM_HANDS])

    def decisions(self) -> dict:
        """{decision label: decisions measured} (every decision reached, not only alternatives)."""
        return {decision_label(d): int(self.meta[K.SM_DEC + d]) for d in range(K.N_DEC)
                if self.meta[K.SM_DEC + d] > 0}

    def view(self, by=CELL_KEYS) -> pd.DataFrame:
        """The alternatives grouped by the columns ``by`` (pooled exactly from the integer
        sums), with the net and score gains of the alternative over the policy's suit and
        the verdict."""
        by = list(by)
        if self.raw.empty:
            return derive(pd.DataFrame({c: [] for c in by + list(RAW_FIELDS)}), self.min_n)
        if not by:
            summed = self.raw[list(RAW_FIELDS)].sum().to_frame().T
        else:
            summed = self.raw.groupby(by, as_index=False, observed=True)[list(RAW_FIELDS)].sum()
        if "decision" in by:  # the koe first, then round 2 by seat
            summed = summed.assign(_o=summed["decision"].map(lambda d: -1 if d == "koe" else int(d[-1])))
            summed = summed.sort_values(["_o"] + [c for c in by if c != "decision"]).drop(columns="_o")
        return derive(summed.reset_index(drop=True), self.min_n)

    def cells(self) -> pd.DataFrame:
        """The decision cells: (decision, the alternative's rank, the strength gap bin)."""
        return self.view(CELL_KEYS)

    def beaten_share(self, by=CELL_KEYS) -> dict:
        """How many cells of ``view(by)`` have ``min_n`` alternatives, how many of those the
        95% interval resolves, and how many resolved cells the policy's suit loses
        (``beaten``), with their labels."""
        v = self.view(by)
        enough = v[v["n"] >= self.min_n]
        res = enough[enough["verdict"].isin(["beaten", "kept"])]
        beaten = res[res["verdict"] == "beaten"]
        return {"cells": int(len(v)), "enough": int(len(enough)), "resolved": int(len(res)),
                "beaten": int(len(beaten)), "share_beaten": float(len(beaten) / len(res)) if len(res) else None,
                "beaten_cells": [_cell_label(r, by) for _, r in beaten.iterrows()]}

    def verdict(self, which: str) -> dict:
        """``beaten_share`` of the decision cells of the koe (``which="koe"``) or of the round-2
        takes (``"round2"``), with the pooled gain of the next-best suit there."""
        keep = (self.raw["dec"] == 0) if which == "koe" else (self.raw["dec"] > 0)
        part = SuitChoice(self.config, self.raw[keep], self.meta, self.seconds, self.min_n, self.bidders)
        out = part.beaten_share()
        out["kept"] = out["resolved"] - out["beaten"]
        out["splits"] = {k: {f: v for f, v in part.beaten_share(by).items() if f != "cells"}
                         for k, (by, _) in SPLITS.items()}
        nxt = part.view(["rank"])
        nxt = nxt[nxt["rank"] == 2]
        out["decisions"] = self.n_decisions(which)
        if len(nxt):
            r = nxt.iloc[0]
            out["next_best"] = {"n": int(r["n"]), "gain_net": float(r["gain_net"]), "lo": float(r["gain_net_lo"]),
                                "hi": float(r["gain_net_hi"])}
        return out

    def n_decisions(self, which: str) -> int:
        """Decisions measured at the koe (``which="koe"``) or at the round-2 takes (``"round2"``)."""
        return int(sum(self.meta[K.SM_DEC + d] for d in (range(1) if which == "koe" else range(1, K.N_DEC))))

    def switch_gain(self, which: str, where) -> dict:
        """The net gain a decision, with its 95% interval, of a rule that names the next-best
        suit instead of the best-scoring one where ``where(raw)`` (a boolean Series on the raw
        cells) holds, at the koe or the round-2 takes (``which``), over every decision of that
        kind. Exact from the cells: a decision has one next-best suit, so it adds that
        alternative's paired gain where the rule switches and 0 elsewhere."""
        raw = self.raw
        part = raw[((raw["dec"] == 0) if which == "koe" else (raw["dec"] > 0)) & (raw["rank"] == 2) & where(raw)]
        n = self.n_decisions(which)
        m, se, lo, hi = mean_ci(part["dnet"].sum(), part["dnet_sq"].sum(), n)
        return {"decisions": n, "switched": int(part["n"].sum()), "gain_net": float(m), "se": float(se),
                "lo": float(lo), "hi": float(hi)}

    def decision_text(self, which: str) -> str:
        """What a policy file's ``decisions`` entry says of the koe's suit or the round-2 suit, by
        this measurement (``verdict``)."""
        v = self.verdict(which)
        what = "koe" if which == "koe" else "round-2 take"
        head = (f"each other allowed suit played forced at every {what} of {self.deals:,} deals (seed "
                f"{self.config.seed}, {v['decisions']:,} decisions); of {v['enough']} cells (the alternative's rank, "
                f"strength gap) with n >= {self.min_n}, {v['resolved']} resolved by the 95% interval of the net gain: "
                f"{v['kept']} for the best-scoring suit, {v['beaten']} against it")
        sp = v["splits"]
        head += (f" (split by the turned suit, and by trump length: {sp['turned']['resolved']} and "
                 f"{sp['length']['resolved']} resolved cells, {sp['turned']['beaten']} and {sp['length']['beaten']} "
                 f"against it)")
        nb = v.get("next_best")
        tail = (f"; the next-best suit nets {nb['gain_net']:+.1f} [{nb['lo']:+.1f}, {nb['hi']:+.1f}] a hand against it "
                f"(n={nb['n']:,})") if nb else ""
        if v["beaten"] == 0 and not any(x["beaten"] for x in sp.values()):
            return f"measured, kept: the best-scoring suit; {head}{tail}"
        return (f"measured: the best-scoring suit is beaten in {v['beaten']} of {v['resolved']} resolved cells, kept "
                f"(no suit-choice rule is calibrated); {head}{tail}")

    def candidate_gains(self) -> pd.DataFrame:
        """Each candidate koe rule (the suit with the best strength + a * trump length + b *
        the turned suit): its net gain a koe decision over the policy's suit, paired on the same
        decisions, with its 95% interval, and how many decisions it names another suit at."""
        rows = []
        for (a, b), c in zip(self.candidates, self.cand if self.cand is not None else []):
            m, se, lo, hi = mean_ci(c[K.CAND_DNET], c[K.CAND_DNET_SQ], c[K.CAND_N])
            rows.append({"koe_w_length": a, "koe_w_turned": b, "n": int(c[K.CAND_N]), "switched": int(c[K.CAND_SWITCHED]),
                         "gain_net": float(m), "se": float(se), "lo": float(lo), "hi": float(hi)})
        return pd.DataFrame(rows, columns=["koe_w_length", "koe_w_turned", "n", "switched", "gain_net", "se", "lo",
                                           "hi"])

    def unreached(self) -> int:
        """Forced runs whose decision was not reached or not played as forced (always 0)."""
        return int(self.meta[K.SM_UNREACHED])

    def summary(self) -> str:
        """The measurement, as text: per decision its count and the policy suit's mean net,
        then the decision cells with n >= min_n, then the verdict."""
        r = self.config.rules
        pol = self.config.policies
        lines = [f"suit choices {r.label} (bid/play {self.bidders or pol.label()}): {self.deals:,} deals, "
                 f"seed {self.config.seed}, {self.hands:,} hands, "
                 f"{self.seconds:.0f} s; net gain of the alternative suit over the policy's (best-scoring) suit, "
                 f"95% intervals; cells with n >= {self.min_n}"]
        for d in range(K.N_DEC):
            n = int(self.meta[K.SM_DEC + d])
            if n == 0:
                continue
            m, _, lo, hi = mean_ci(self.meta[K.SM_POL_NET + d], self.meta[K.SM_POL_NET_SQ + d], n)
            lines.append(f"  {decision_label(d)}: {n:,} decisions, the policy's suit nets {float(m):+.1f} "
                         f"[{float(lo):+.1f}, {float(hi):+.1f}] a hand")
        if int(self.meta[K.SM_R2_SMOUS]):
            lines.append(f"  round-2 smous offers (a suit named, answer decides; not measured): "
                         f"{int(self.meta[K.SM_R2_SMOUS]):,}")
        cells = self.cells()
        cells = cells[cells["n"] >= self.min_n]
        for r_ in cells.itertuples():
            lines.append(f"  {r_.decision:<9} {RANK_NAMES[int(r_.rank)]} suit, gap {_gap(r_.gap_lo, r_.gap_hi):<7} "
                         f"n={int(r_.n):>7,}  {r_.gain_net:+7.2f} [{r_.gain_net_lo:+7.2f}, {r_.gain_net_hi:+7.2f}]  "
                         f"{r_.verdict}")
        for by, what in [(CELL_KEYS, "decision cells (decision, rank, gap)")] + [
                (by, f"the cells {what}") for by, what in SPLITS.values()]:
            s = self.beaten_share(by)
            lines.append(f"  {what}: {s['enough']} with n >= {self.min_n}, {s['resolved']} resolved, "
                         f"{s['beaten']} beaten" + (f": {'; '.join(s['beaten_cells'])}" if s["beaten"] else ""))
        return "\n".join(lines)

    def as_dict(self) -> dict:
        return {"label": self.label, "bidders": self.bidders or self.config.policies.label(), "deals": self.deals,
                "seed": self.config.seed, "hands": self.hands,
                "seconds": round(self.seconds, 1), "min_n": self.min_n, "decisions": self.decisions(),
                "r2_smous_not_measured": int(self.meta[K.SM_R2_SMOUS]),
                "cells": _records(self.cells().round(3)), "beaten": self.beaten_share(),
                **{f"split_{k}": self.beaten_share(by) for k, (by, _) in SPLITS.items()}}


def _gap(lo, hi) -> str:
    return f"{lo:g}+" if not np.isfinite(hi) else f"{lo:g}-{hi:g}"


def _cell_label(r, by) -> str:
    parts = []
    for c in by:
        if c == "rank":
            parts.append(f"{RANK_NAMES[int(r['rank'])]} suit")
        elif c == "gap_lo":
            parts.append(f"gap {_gap(r['gap_lo'], r['gap_hi'])}")
        elif c == "gap_hi":
            continue
        elif c == "turned":
            parts.append("the turned suit" if r["turned"] else "not the turned suit")
        elif c == "length":
            parts.append(f"{r['length']} in trumps")
        else:
            parts.append(str(r[c]))
    return (f"{' '.join(parts)} {r['gain_net']:+.1f} [{r['gain_net_lo']:+.1f}, {r['gain_net_hi']:+.1f}] "
            f"n={int(r['n']):,}")


def measure_calibration(cal, threads: int | None = None, progress=None) -> SuitChoice:
    """The suit choices of a calibration's policy (``calibrate.Calibration``): its rows in
    every seat, on its seed and deals an iteration."""
    cfg = SimConfig(rules=cal.rules, policies=Policies.parse("heuristic", cal.play, cal.rules.players),
                    deals=cal.deals, seed=cal.seed, threads=threads, bid_params=cal.params)
    return suit_choice(cfg, progress=progress, min_n=cal.min_n, bidders=f"calibrated in this run/{cal.play}")


def suit_choice(config: SimConfig, progress=None, batch: int = 1 << 16, min_n: int = MIN_N,
                bidders: str = "", candidates=()) -> SuitChoice:
    """Measure the suit choices of ``config``'s bidding policies (module docstring) on
    ``config.deals`` deals; ``progress(done)``: deals done so far.

    Example::

        >>> from analyzer.rules import Rules
        >>> s = suit_choice(SimConfig(rules=Rules("piekjas", 3), deals=200_000))  # doctest: +SKIP
        >>> s.beaten_share()["beaten"]  # doctest: +SKIP
    """
    candidates = tuple((float(a), float(b)) for a, b in candidates)
    if len(candidates) > K.MAX_CAND:
        raise ValueError(f"at most {K.MAX_CAND} candidate koe rules, not {len(candidates)}")
    cfg = np.zeros(K.SUITS_CAND + 2 * len(candidates), np.int64)
    cfg[K.SUITS_N_CAND] = len(candidates)
    for k, (a, b) in enumerate(candidates):
        cfg[K.SUITS_CAND + 2 * k] = round(a * K.CAND_SCALE)
        cfg[K.SUITS_CAND + 2 * k + 1] = round(b * K.CAND_SCALE)
    row, seconds = summed_deals(driver.SUITS, config, cfg, batch, progress)
    return from_sums(config, row, seconds, min_n, bidders, candidates)


def from_sums(config: SimConfig, row: np.ndarray, seconds: float, min_n: int = MIN_N, bidders: str = "",
              candidates=()) -> SuitChoice:
    """A ``SuitChoice`` from the kernel's summed row."""
    cells = row[:K.CELLS_SIZE].reshape(K.N_CELLS, K.NS)
    idx = np.nonzero(cells[:, K.S_N])[0]
    raw = cell_keys(idx)
    for j, name in enumerate(RAW_FIELDS):
        raw[name] = cells[idx, j]
    cand = row[K.CAND_OFFSET:K.SUITS_ROW].reshape(K.MAX_CAND, K.NC)[:len(candidates)].copy()
    return SuitChoice(config, raw, row[K.CELLS_SIZE:K.CAND_OFFSET].copy(), seconds, min_n, bidders, tuple(candidates),
                      cand)


__all__ = ["SuitChoice", "suit_choice", "measure_calibration", "from_sums", "cell_keys", "decision_label", "MIN_N"]
