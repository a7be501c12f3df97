"""``table``: bidding tables. Which hands should take, by what a player recognises.

``bidding_table(config)`` samples deals, and at every bidding decision that the policies
actually reach (round 1: earlier seats passed; round 2: everyone passed in round 1 and
the earlier seats in round 2) plays the hand with that seat taking and with it passing,
on the same deal (``analyzer.runs.classes``). The decisions are grouped into classes: which of
the trump J, 9, A, 10 the bidder holds, trump length, side aces, side voids, seat and
round (round 2: the suit the bidder's cards are best in). For each class: how often the
policy takes, and if it takes: P(made), P(dedans), P(capot), and the expected gain of
taking over passing on the same deal, with 95% intervals. Scores are the bidder's side's
hand scores; *net* is that score minus the best other side's, the measure that wins
games (a dedans costs the points handed to the defenders), and the tables lead with it.

Tables are built once from the kernel's integer sums: ``raw`` frames hold the sums, any
grouping (``view``) adds them up and derives rates and means, so pooled rows are exact.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
import pandas as pd

from analyzer.runs import backends, classes as K
from analyzer.runs import driver
from analyzer.players.bidding import P_SEAT_STEP, P_THR1, P_THR2
from analyzer.players.policy_files import bid_provenance, honours_label
from analyzer.errors import BeloteError
from analyzer.runs.simulate import SimConfig, set_threads
from analyzer.runs.stats import Z95

RAW_FIELDS = ("n", "nat_take", "nat_smous", "take", "take_sq", "pass", "pass_sq", "d", "d_sq", "tnet", "tnet_sq",
              "pnet", "pnet_sq", "dnet", "dnet_sq", "made", "dedans", "tie", "capot", "pit",
              # the part of the decisions the seat's threshold alone takes (classes.Q_TH_*)
              "th_n", "th_d", "th_d_sq", "th_dnet", "th_dnet_sq")
assert len(RAW_FIELDS) == K.NQ
MIN_N = 200  # cells with fewer decisions are left out of plots and break-even lines


# --- vectorised intervals (the formulas of analyzer.runs.stats) --------------------------------


def wilson(k, n, z=Z95):
    k = np.asarray(k, np.float64)
    n = np.asarray(n, np.float64)
    with np.errstate(invalid="ignore", divide="ignore"):
        p = k / n
        denom = 1 + z * z / n
        centre = (p + z * z / (2 * n)) / denom
        half = z * np.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    return p, np.maximum(0.0, centre - half), np.minimum(1.0, centre + half)


def mean_ci(total, total_sq, n, z=Z95):
    total = np.asarray(total, np.float64)
    total_sq = np.asarray(total_sq, np.float64)
    n = np.asarray(n, np.float64)
    with np.errstate(invalid="ignore", divide="ignore"):
        m = total / n
        var = np.maximum(0.0, total_sq / n - m * m) * np.where(n > 1, n / (n - 1), np.nan)
        se = np.sqrt(var / n)
    return m, se, m - z * se, m + z * se


def derive(raw: pd.DataFrame) -> pd.DataFrame:
    """Rates and means with 95% intervals from summed raw columns (keeps the key columns)."""
    keys = [c for c in raw.columns if c not in RAW_FIELDS]
    out = raw[keys].copy()
    n = raw["n"].to_numpy()
    out["n"] = n
    for name, col in (("policy_takes", "nat_take"), ("policy_smous", "nat_smous"), ("p_made", "made"),
                      ("p_dedans", "dedans"), ("p_tie", "tie"), ("p_capot", "capot"), ("p_pit_against", "pit")):
        p, lo, hi = wilson(raw[col].to_numpy(), n)
        out[name] = p
        out[name + "_lo"] = lo
        out[name + "_hi"] = hi
    for name, s, sq in (("gain_net", "dnet", "dnet_sq"), ("gain_score", "d", "d_sq"), ("take_net", "tnet", "tnet_sq"),
                        ("pass_net", "pnet", "pnet_sq"), ("take_score", "take", "take_sq"),
                        ("pass_score", "pass", "pass_sq")):
        m, se, lo, hi = mean_ci(raw[s].to_numpy(), raw[sq].to_numpy(), n)
        out[name] = m
        out[name + "_lo"] = lo
        out[name + "_hi"] = hi
        if name.startswith("gain"):
            out[name + "_se"] = se
    if "gain_net_lo" in out:
        out["verdict"] = np.where(out["gain_net_lo"] > 0, "take", np.where(out["gain_net_hi"] < 0, "pass", "unclear"))
    return out


def _class_frame(cls: np.ndarray) -> pd.DataFrame:
    idx = np.nonzero(cls[:, K.Q_N])[0]
    df = class_keys(idx)
    for j, name in enumerate(RAW_FIELDS):
        df[name] = cls[idx, j]
    return df


def class_keys(idx: np.ndarray) -> pd.DataFrame:
    """The key columns (round, seat, honours, trump J/9/A/10, trump length, side aces,
    voids) of the class indices ``idx`` (``analyzer.runs.classes.hand_class``)."""
    idx = np.asarray(idx, np.int64)
    r = idx % K.N_ROUNDS
    rest = idx // K.N_ROUNDS
    seat = rest % K.N_SEATS
    rest //= K.N_SEATS
    voids = rest % K.N_VOIDS
    rest //= K.N_VOIDS
    aces = rest % K.N_ACES
    rest //= K.N_ACES
    length = rest % K.N_LEN
    hon = rest // K.N_LEN
    df = pd.DataFrame({
        "round": r + 1, "seat": seat, "honours": [honours_label(h) for h in hon],
        "trump_J": (hon & K.HON_J) > 0, "trump_9": (hon & K.HON_9) > 0, "trump_A": (hon & K.HON_A) > 0,
        "trump_10": (hon & K.HON_T) > 0, "trump_length": length, "side_aces": aces, "voids": voids,
    })
    return df


def _strength_frame(strn: np.ndarray) -> pd.DataFrame:
    idx = np.nonzero(strn[:, K.Q_N])[0]
    b = idx % K.N_BINS
    seat = (idx // K.N_BINS) % K.N_SEATS
    r = idx // (K.N_BINS * K.N_SEATS)
    df = pd.DataFrame({"round": r + 1, "seat": seat, "strength_lo": b * K.STR_BIN,
                       "strength_hi": np.where(b == K.N_BINS - 1, np.inf, (b + 1) * K.STR_BIN)})
    for j, name in enumerate(RAW_FIELDS):
        df[name] = strn[idx, j]
    return df


@dataclass
class TableResult:
    """Class and strength-bin sums of a bidding-table run, and the views built on them."""

    config: SimConfig
    raw: pd.DataFrame  # one row per non-empty class, summed counts
    raw_strength: pd.DataFrame  # one row per non-empty (round, seat, strength bin)
    deals: int
    hands: int
    decisions: tuple  # (round-1 decisions, round-2 decisions)
    seconds: float
    rounds: int
    _cache: dict = field(default_factory=dict, repr=False)

    @property
    def label(self) -> str:
        return self.config.rules.label

    def view(self, by=("round", "seat", "honours", "trump_length", "side_aces", "voids"), where=None,
             raw: pd.DataFrame | None = None) -> pd.DataFrame:
        """Classes grouped by the columns ``by`` (pooled exactly), with rates and intervals.
        ``where``: a boolean Series on the raw frame to keep only some classes; ``raw``: a
        frame of raw sums with extra key columns (default: ``self.raw``)."""
        raw = self.raw if raw is None else raw
        if where is not None:
            raw = raw[where]
        by = list(by)
        if not by:
            summed = raw[list(RAW_FIELDS)].sum().to_frame().T
        else:
            summed = raw.groupby(by, as_index=False, observed=True)[list(RAW_FIELDS)].sum()
        return derive(summed)

    def classes(self) -> pd.DataFrame:
        """Every class, with its rates and intervals (the CSV / Parquet table)."""
        if "classes" not in self._cache:
            self._cache["classes"] = derive(self.raw).sort_values(
                ["round", "seat", "honours", "trump_length", "side_aces", "voids"], ascending=[True, True, False, True, True, True]
            ).reset_index(drop=True)
        return self._cache["classes"]

    def strength(self, pooled_seats: bool = False) -> pd.DataFrame:
        raw = self.raw_strength
        by = ["round", "strength_lo", "strength_hi"] if pooled_seats else ["round", "seat", "strength_lo", "strength_hi"]
        summed = raw.groupby(by, as_index=False)[list(RAW_FIELDS)].sum()
        return derive(summed).sort_values(by).reset_index(drop=True)

    def policy_threshold(self, rnd: int, seat: int) -> float:
        p = self.config.bid_params[seat]
        return float((p[P_THR1] if rnd == 1 else p[P_THR2]) + p[P_SEAT_STEP] * seat)

    def break_even(self, min_n: int = MIN_N) -> pd.DataFrame:
        """Per round and seat (and pooled): the heuristic strength where taking starts to pay.

        ``n``: every bidding decision reached in that round at that seat (the seat rows add
        up to the ``all`` row); ``n_bins``: those in strength bins with at least ``min_n``
        decisions, the bins the lines are read from. ``break_even``: the lower edge of the
        first such bin from which the net gain of taking over passing is positive in every
        such bin; ``sure_from``: the first bin whose 95% interval is above 0 from there on.
        Compared with the bidding policy's threshold there.

        The pooled (``all``) lines are given only where they are every seat's: when a seat
        that has bins reads another line (dekjas round 2: seat 0, with 91% of the decisions,
        breaks even at 32 and the pool at 80, a mix of two seats that holds for neither),
        they are left empty and ``seats_differ`` is set: read the seat rows."""
        rows = []
        per_seat = self.strength()
        pooled = self.strength(pooled_seats=True)
        for rnd in sorted(per_seat["round"].unique()):
            seat_rows = []
            for seat in list(range(self.config.rules.players)) + [None]:
                every = (pooled[pooled["round"] == rnd] if seat is None
                         else per_seat[(per_seat["round"] == rnd) & (per_seat["seat"] == seat)])
                df = every[every["n"] >= min_n].sort_values("strength_lo")
                if every.empty:
                    continue
                row = {
                    "round": int(rnd), "seat": "all" if seat is None else str(seat), "n": int(every["n"].sum()),
                    "n_bins": int(df["n"].sum()), "break_even": _first_from(df, df["gain_net"] > 0),
                    "sure_from": _first_from(df, df["gain_net_lo"] > 0),
                    "policy_threshold": np.nan if seat is None else self.policy_threshold(int(rnd), seat),
                    "seats_differ": False,
                }
                if seat is None:
                    readable = [r for r in seat_rows if r["n_bins"] > 0]
                    if any(not _same(r[k], row[k]) for r in readable for k in ("break_even", "sure_from")):
                        row |= {"break_even": np.nan, "sure_from": np.nan, "seats_differ": True}
                seat_rows.append(row)
            rows += seat_rows
        return pd.DataFrame(rows, columns=["round", "seat", "n", "n_bins", "break_even", "sure_from", "policy_threshold",
                                           "seats_differ"])

    def rule_of_thumb(self) -> pd.DataFrame:
        """'Trump jack and nine, plus one or two aces, is usually enough' (a common players'
        rule of thumb), measured:
        hands with the trump J and 9 and 1-2 side aces, by round, seat and trump length; and
        for contrast J+9 with 0 or 3 side aces. ``verdict``: take (net gain > 0 beyond the
        noise), pass (< 0 beyond the noise) or unclear."""
        raw = self.raw.copy()
        raw["aces"] = np.where(raw["side_aces"].isin([1, 2]), "1-2", raw["side_aces"].astype(str))
        raw["length"] = np.where(raw["trump_length"] >= 4, "4+", raw["trump_length"].astype(str))
        jn = raw["trump_J"] & raw["trump_9"]
        parts = [
            self.view(["round", "aces"], where=jn, raw=raw).assign(seat="all", length="all"),
            self.view(["round", "seat", "aces"], where=jn, raw=raw).assign(length="all"),
            self.view(["round", "length", "aces"], where=jn, raw=raw).assign(seat="all"),
        ]
        out = pd.concat(parts, ignore_index=True)
        out["seat"] = out["seat"].astype(str)
        cols = ["round", "seat", "length", "aces", "n", "policy_takes", "p_made", "p_made_lo", "p_made_hi", "p_dedans",
                "gain_net", "gain_net_lo", "gain_net_hi", "gain_score", "verdict"]
        return out[cols].sort_values(["round", "aces", "seat", "length"]).reset_index(drop=True)

    def rule_of_thumb_finding(self) -> str:
        """The rule of thumb in one paragraph of numbers."""
        rt = self.rule_of_thumb()
        lines = []
        for rnd in sorted(rt["round"].unique()):
            base = rt[(rt["round"] == rnd) & (rt["aces"] == "1-2")]
            top = base[(base["seat"] == "all") & (base["length"] == "all")]
            if top.empty:
                continue
            t = top.iloc[0]
            lines.append(
                f"Round {rnd}: with the trump J and 9 and one or two side aces (n={int(t.n):,}), taking is made "
                f"{100 * t.p_made:.1f}% [{100 * t.p_made_lo:.1f}, {100 * t.p_made_hi:.1f}] of the time and gains "
                f"{t.gain_net:+.1f} [{t.gain_net_lo:+.1f}, {t.gain_net_hi:+.1f}] net points a hand over passing: "
                + ("the rule holds." if t.verdict == "take" else "the rule does NOT hold on average." if t.verdict == "pass"
                   else "inside the noise."))
            sub = base[(base["seat"] == "all") & (base["length"] != "all")]
            fails = sub[sub["verdict"] != "take"]
            holds = sub[sub["verdict"] == "take"]
            if len(holds):
                lines.append("  It holds with trump length " + ", ".join(
                    f"{r.length} ({100 * r.p_made:.0f}% made, {r.gain_net:+.0f}, n={int(r.n):,})" for r in holds.itertuples()) + ".")
            if len(fails):
                lines.append("  It fails or is unclear with trump length " + ", ".join(
                    f"{r.length} ({100 * r.p_made:.0f}% made, {r.gain_net:+.0f} [{r.gain_net_lo:+.0f}, {r.gain_net_hi:+.0f}], "
                    f"n={int(r.n):,})" for r in fails.itertuples()) + ".")
            seats = base[(base["seat"] != "all") & (base["length"] == "all")]
            bad = seats[seats["verdict"] != "take"]
            if len(bad):
                lines.append("  By seat it fails or is unclear at seat " + ", ".join(
                    f"{r.seat} ({r.gain_net:+.1f} [{r.gain_net_lo:+.1f}, {r.gain_net_hi:+.1f}])" for r in bad.itertuples()) + ".")
            else:
                lines.append("  It holds at every seat.")
            for aces in ("0", "3"):
                c = rt[(rt["round"] == rnd) & (rt["aces"] == aces) & (rt["seat"] == "all") & (rt["length"] == "all")]
                if len(c):
                    c = c.iloc[0]
                    lines.append(f"  For contrast, J+9 with {aces} side aces: {100 * c.p_made:.1f}% made, "
                                 f"{c.gain_net:+.1f} [{c.gain_net_lo:+.1f}, {c.gain_net_hi:+.1f}] net (n={int(c.n):,}).")
        return "\n".join(lines)


    def notes(self, rnd: int, min_n: int = MIN_N) -> list[str]:
        """One line for each number of the round's honours table that would surprise a player:
        a weaker-looking holding beating a stronger one because of a sequence, and a class
        that is usually made and yet loses to passing (with the scores that show why)."""
        notes = []
        v = self.view(["round", "honours"])
        v = v[(v["round"] == rnd) & (v["n"] >= min_n)].set_index("honours")
        if {"J9.T", "J9A."} <= set(v.index):
            a, b = v.loc["J9.T"], v.loc["J9A."]
            if _beyond(a.gain_net - b.gain_net, a.gain_net_se, b.gain_net_se):
                notes.append(
                    f"`J9.T` gains more than `J9A.` ({a.gain_net:+.0f} against {b.gain_net:+.0f} net, all side aces): "
                    "the 9, 10 and J of trump are a sequence (sequence order A K Q J 10 9 8 7), 20 roem more, which "
                    "J, 9 and A are not.")
        c = self.view(["round", "honours", "side_aces"])
        c = c[(c["round"] == rnd) & (c["n"] >= min_n) & (c["p_made"] >= 0.85) & (c["gain_net_hi"] < 0)]
        dedans = ("the defenders score 162 plus every declaration" if self.config.rules.team_scoring
                  else "its whole raw total goes to the best other player")
        for r in c.itertuples():
            aces = f"{r.side_aces} side ace{'s' if r.side_aces != 1 else ''}"
            four = " (all four aces: a carré, 100 roem whoever takes)" if r.honours[2] == "A" and r.side_aces == 3 else ""
            notes.append(
                f"`{r.honours}` with {aces}{four} is made {100 * r.p_made:.0f}% of the time when it takes, yet passing "
                f"is better ({r.gain_net:+.0f} [{r.gain_net_lo:+.0f}, {r.gain_net_hi:+.0f}] net, n={int(r.n):,}). "
                f"Passing scores {r.pass_score:.0f} a hand against {r.take_score:.0f} taking: another player who takes "
                f"plays against these cards, and when it goes dedans {dedans}.")
        return notes

    def as_dict(self, min_n: int = MIN_N) -> dict:
        be = self.break_even(min_n)
        rt = self.rule_of_thumb()
        return {
            "inputs": {"variant": self.config.rules.variant, "players": self.config.rules.players,
                       "deals": self.deals, "seed": self.config.seed, "rounds": self.rounds,
                       "rules": self.config.rules.options(), "policies": self.config.policies.describe(),
                       "bid_policy": bid_provenance(self.config.policies, self.config.rules)},
            "decisions": {"round1": self.decisions[0], "round2": self.decisions[1]},
            "hands_simulated": self.hands,
            "seconds": round(self.seconds, 3),
            "break_even": _records(be),
            "rule_of_thumb": _records(rt),
            "rule_of_thumb_finding": self.rule_of_thumb_finding(),
        }

    def write(self, out_dir) -> list[Path]:
        """CSV and Parquet tables into ``out_dir`` (the markdown, the heatmaps and the break-even
        plot: ``analyzer.output.files.write_table``)."""
        out = Path(out_dir)
        lab = self.label
        files = []
        frames = {f"table_{lab}_classes": self.classes(), f"table_{lab}_strength": self.strength(),
                  f"table_{lab}_break_even": self.break_even(), f"table_{lab}_rule_of_thumb": self.rule_of_thumb()}
        for name, df in frames.items():
            files += write_frame(df, out / name)
        return files


def _hon_key(h: str):
    """Sort honours labels: more honours first, then J before 9 before A before 10."""
    held = [c != "." for c in h]
    return (-sum(held), [not x for x in held])


def _first_from(df, cond) -> float:
    """The strength_lo of the first row from which ``cond`` holds to the end (NaN: never)."""
    c = cond.to_numpy()
    lows = df["strength_lo"].to_numpy()
    if len(c) == 0 or not c[-1]:
        return float("nan")
    k = len(c) - 1
    while k > 0 and c[k - 1]:
        k -= 1
    return float(lows[k])


def _beyond(diff: float, se_a: float, se_b: float) -> bool:
    """Two independent estimates differ beyond the noise (95%)."""
    return bool(abs(diff) > Z95 * np.hypot(se_a, se_b))


def _same(a: float, b: float) -> bool:
    """Two break-even lines are the same (never reached, NaN, is a line too)."""
    return a == b or (np.isnan(a) and np.isnan(b))


def _fmt(x) -> str:
    if isinstance(x, str):
        return x
    return "—" if x is None or (isinstance(x, float) and np.isnan(x)) else f"{x:g}"


def _records(df: pd.DataFrame) -> list:
    return [{k: (None if isinstance(v, float) and not np.isfinite(v) else v.item() if hasattr(v, "item") else v)
             for k, v in row.items()} for row in df.to_dict("records")]


def write_frame(df: pd.DataFrame, stem: Path) -> list[Path]:
    """``stem.csv`` and ``stem.parquet``."""
    stem = Path(stem)
    csv = stem.with_suffix(".csv")
    pq = stem.with_suffix(".parquet")
    df.to_csv(csv, index=False)
    df.to_parquet(pq, index=False)
    return [csv, pq]


def bidding_table(config: SimConfig, rounds: int = 2, progress=None, batch: int = 1 << 16,
                  reuse: bool = True) -> TableResult:
    """Sample ``config.deals`` deals and compare take with pass at every bidding decision
    reached (rounds 1 and 2, or 1 only). ``progress(done)``: deals done so far.

    Example::

        >>> t = bidding_table(SimConfig(deals=200_000))  # doctest: +SKIP
        >>> t.view(["round", "honours"]).head()  # doctest: +SKIP
    """
    if rounds not in (1, 2):
        raise BeloteError(f"--rounds must be 1 or 2, not {rounds}")
    cfg = np.zeros(2, np.int64)
    cfg[K.TABLE_ROUNDS] = rounds
    cfg[K.TABLE_REUSE] = int(reuse)
    row, seconds = summed_deals(driver.TABLE, config, cfg, batch, progress)
    cls = row[:K.CLS_SIZE].reshape(K.N_CLASSES, K.NQ)
    strn = row[K.CLS_SIZE:K.CLS_SIZE + K.STR_SIZE].reshape(K.N_STR, K.NQ)
    return table_from_sums(config, cls, strn, row[K.CLS_SIZE + K.STR_SIZE:], seconds, rounds)


def summed_deals(kind: int, config: SimConfig, cfg, batch: int, progress=None) -> tuple[np.ndarray, float]:
    """``config.deals`` units of driver ``kind`` (one deal each) in batches: (their summed
    row, seconds). ``progress(done)``: deals done so far."""
    threads = set_threads(config.threads)
    args = config.kernel_args()
    batch = backends.current().batch_units(kind, batch)  # integer sums: any batch, the same numbers
    t0 = time.perf_counter()
    total = None
    done = 0
    while done < config.deals:
        n = min(batch, config.deals - done)
        chunk = -(-n // max(8, 4 * threads))  # integer sums: the split does not change the numbers
        row = driver.run_units(kind, config.seed, done, n, chunk, args, cfg)
        total = row if total is None else total + row
        done += n
        if progress is not None:
            progress(done)
    return total, time.perf_counter() - t0


def table_from_sums(config: SimConfig, cls: np.ndarray, strn: np.ndarray, meta: np.ndarray, seconds: float,
                    rounds: int) -> TableResult:
    """A ``TableResult`` from the kernel's summed class, strength and meta counts."""
    return TableResult(config, _class_frame(cls), _strength_frame(strn), int(meta[K.M_DEALS]), int(meta[K.M_HANDS]),
                       (int(meta[K.M_R1]), int(meta[K.M_R2])), seconds, rounds)
