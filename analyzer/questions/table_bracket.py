"""The bracket of the bidding tables: ``table``'s classes answered by weaker and stronger players.

``table`` measures, at every bidding decision the bidders reach, what taking is worth over
passing when the hands are played by the heuristic. ``table_bracket`` asks the same with
each play policy of ``plays`` in every seat (by default heuristic, net, PIMC and, where it
is affordable, double dummy), with the same bidders and seed, and shows the classes side by
side: P(made), P(dedans), P(capot), P(pit) and the net gain of taking, each with n and its
95% interval, and whether "taking pays" flips between the policies.

Same deals. Deal ``i`` of a table run is seeded by ``(seed, i)`` alone and the bidding
(which lists the decisions) runs before any card is played, so the deals, the decisions
reached and their classes do not depend on the play policy; only the played-out scores do.
The searching policies cost milliseconds (``pimc``) to tenths of a second (``dd``) a hand
(``analyzer.players.costs``), so they play the first
``strong_deals`` deals of the stream; the cheap ones play all ``deals`` as well. On those
first deals every policy is run one deal a row (``per_unit``): a class index holds the seat
and the round, so a deal has at most one decision in a class and the row gives each
decision's own take and pass scores. The decisions are matched deal by deal and class by
class (a mismatch is an error, not a footnote), which gives, besides each policy's own
table, the *paired* difference of each policy's gain from the first policy's on the same
decisions: the comparison of players without the noise of different deals.

Verdicts: a class's taking *pays* under a policy when the 95% interval of its net gain is
above 0, *loses* when below, and is *unclear* otherwise (``table.derive``'s ``verdict``);
the bracket *flips* for a class when it pays under one policy and loses under another.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field

import numba
import numpy as np
import pandas as pd

from analyzer.errors import BeloteError
from analyzer.players.policies import PLAY, PLAY_REGISTRY, Policies, deals_by_policy, searches
from analyzer.questions.bracket import BRACKET_PLAYS, default_bidders, parse_plays
from analyzer.questions.table import (
    RAW_FIELDS,
    TableResult,
    _hon_key,
    _records,
    bidding_table,
    class_keys,
    mean_ci,
    table_from_sums,
)
from analyzer.rules import Rules
from analyzer.runs import classes as K
from analyzer.runs import driver
from analyzer.runs.limits import check_deals
from analyzer.runs.simulate import SimConfig, set_threads
from analyzer.runs.stats import CV_MIN_N, control_variate, control_variate_rate

# default deals of the searching policies (the registry's table_deals): a table deal plays about 5
# hands, pimc ~100 hands a second a thread and dd ~1.5 on a loaded machine (HANDS_PER_S below), so
# about a minute each on 2 threads; a policy not named there gets OTHER_DEALS
STRONG_DEALS = deals_by_policy("table_deals")
OTHER_DEALS = 300
NO_DD_LABELS = PLAY["dd"].not_by_default  # dd from the first trick: 0.3-0.4 hands/s (the registry)
BY = ("round", "honours")  # the default grouping: a searching sample is too small for the table's finest classes
KEYS = ("round", "seat", "honours", "trump_length", "side_aces", "voids")  # what --bracket-by may name
MIN_N = 30  # classes with fewer decisions in the paired sample are left out of the tables and plots
STATS = (("p_made", "P(made)"), ("p_dedans", "P(dedans)"), ("p_capot", "P(capot)"), ("p_pit_against", "P(pit)"))
UNITS_PER_CALL = 4  # deals a thread a per-deal call (a row of 3 MB a deal): progress and Ctrl-C within seconds


def default_plays(rules: Rules) -> tuple[tuple[str, ...], str | None]:
    """The bracket's play policies for ``rules``, and why ``dd`` is left out where it is."""
    if rules.label in NO_DD_LABELS:
        return tuple(p for p in BRACKET_PLAYS if p != "dd"), (
            f"dd is left out of the default bracket in {rules.label}: from the first trick its search runs at "
            "0.3-0.4 hands a second (docs/BENCHMARKS.md); ask for it with --bracket-plays heuristic,net,pimc,dd")
    return BRACKET_PLAYS, None


def parse_by(spec: str | None) -> tuple[str, ...]:
    """``"round,honours,side_aces"`` → the class columns the bracket groups by (checked)."""
    if not spec:
        return BY
    by = tuple(k.strip() for k in spec.split(",") if k.strip())
    bad = [k for k in by if k not in KEYS]
    if bad or not by:
        raise BeloteError(f'--bracket-by "{spec}": name columns among {", ".join(KEYS)}, e.g. round,honours')
    return by if "round" in by else ("round",) + by


def decisions_frame(rows: np.ndarray, first: int) -> pd.DataFrame:
    """One row per bidding decision of per-deal table rows (deal ``first + j`` in ``rows[j]``):
    ``deal``, ``cls`` (the class index), the class keys and the decision's own ``RAW_FIELDS``."""
    n_units = rows.shape[0]
    cls = rows[:, :K.CLS_SIZE].reshape(n_units, K.N_CLASSES, K.NQ)
    unit, idx = np.nonzero(cls[:, :, K.Q_N])
    vals = cls[unit, idx]
    if (vals[:, K.Q_N] != 1).any():  # seat and round are part of the class: one decision a class a deal
        raise AssertionError("a deal has two decisions in one class")
    df = class_keys(idx)
    df.insert(0, "deal", first + unit)
    df.insert(1, "cls", idx)
    for j, name in enumerate(RAW_FIELDS):
        df[name] = vals[:, j]
    return df


def per_deal_table(config: SimConfig, deals: int, rounds: int = 2, progress=None,
                   units_per_call: int | None = None) -> tuple[TableResult, pd.DataFrame]:
    """The bidding table of ``config``'s first ``deals`` deals and its decisions one by one
    (``decisions_frame``). Run a few deals a call, one deal a chunk, so a policy that takes
    seconds a deal still reports progress (``progress(deals done)``) and stops soon when
    interrupted. The sums equal ``bidding_table``'s on the same deals (integer sums)."""
    threads = set_threads(config.threads)
    per_call = units_per_call or UNITS_PER_CALL * threads
    args = config.kernel_args()
    cfg = np.zeros(2, np.int64)
    cfg[K.TABLE_ROUNDS] = rounds
    cfg[K.TABLE_REUSE] = 1
    total = np.zeros(K.TABLE_ROW, np.int64)
    parts = []
    t0 = time.perf_counter()
    done = 0
    while done < deals:
        n = min(per_call, deals - done)
        rows = driver.run_units(driver.TABLE, config.seed, done, n, 1, args, cfg, per_unit=True)
        total += rows.sum(axis=0)
        parts.append(decisions_frame(rows, done))
        done += n
        if progress is not None:
            progress(done)
    cls = total[:K.CLS_SIZE].reshape(K.N_CLASSES, K.NQ)
    strn = total[K.CLS_SIZE:K.CLS_SIZE + K.STR_SIZE].reshape(K.N_STR, K.NQ)
    meta = total[K.CLS_SIZE + K.STR_SIZE:]
    table = table_from_sums(config, cls, strn, meta, time.perf_counter() - t0, rounds)
    return table, pd.concat(parts, ignore_index=True)


@dataclass
class TableBracket:
    """One bidding table per play policy (``tables``: the cheap ones on ``deals`` deals, each
    searching one on the first ``per_deal[play]``) and every policy's decisions one by one on
    its first ``per_deal[play]`` deals (``decisions``; a cheap policy: as many as the
    largest searching sample), matched one to one on the deals two policies share."""

    rules: Rules
    seed: int
    rounds: int
    plays: tuple[str, ...]
    policies: list[Policies]
    tables: list[TableResult]
    decisions: list[pd.DataFrame]
    deals: int
    per_deal: dict  # play -> deals played one deal a row (the paired sample)
    by: tuple[str, ...] = BY
    note: str | None = None
    seconds: float = 0.0
    hands: int = 0  # hands this bracket simulated (a ``known`` table's not counted again)
    min_n: int = MIN_N  # classes with fewer decisions in some policy's paired sample are left out
    _cache: dict = field(default_factory=dict, repr=False)

    @property
    def reference(self) -> str:
        return self.plays[0]

    @property
    def paired_deals(self) -> int:
        """The deals every policy played one by one (the smallest paired sample)."""
        return min(self.per_deal.values())

    def _counts(self, by: list[str]) -> pd.DataFrame:
        """Per class: each policy's decisions in its paired sample (``n_<k>``)."""
        out = None
        for k, dec in enumerate(self.decisions):
            c = dec.groupby(by, observed=True).size().rename(f"n_{k}").reset_index()
            out = c if out is None else out.merge(c, on=by, how="outer")
        return out.fillna(0)

    def frame(self, by=None, min_n: int | None = None) -> pd.DataFrame:
        """One row per class (grouped by ``by``) and play policy: n, P(made), P(dedans),
        P(capot), P(pit) and the net gain of taking with their 95% intervals and verdict (from
        the policy's own table); ``paired_n`` and, for every policy after the first, the
        paired difference of its net gain and of its P(made) from the first policy's on the
        same decisions (``gain_vs_ref``, ``made_vs_ref`` with ``_lo``/``_hi``, on ``vs_n`` of
        them). Classes with fewer than ``min_n`` (default ``self.min_n``) decisions in some
        policy's paired sample are left out."""
        min_n = self.min_n if min_n is None else min_n
        by = list(self.by if by is None else by)
        counts = self._counts(by)
        n_cols = [f"n_{k}" for k in range(len(self.plays))]
        keep = counts[(counts[n_cols] >= min_n).all(axis=1)]
        out = []
        for k, (play, t) in enumerate(zip(self.plays, self.tables)):
            v = t.view(by).merge(keep[by + [f"n_{k}"]].rename(columns={f"n_{k}": "paired_n"}), on=by, how="inner")
            v.insert(len(by), "play", play)
            v.insert(len(by) + 1, "order", k)
            if k == 0:
                for col in ("gain_vs_ref", "made_vs_ref"):
                    v[col] = v[col + "_lo"] = v[col + "_hi"] = np.nan
                v["vs_n"] = 0
            else:
                v = v.merge(self._paired(k, by), on=by, how="left")
            v = self._adjust(k, by, v)
            out.append(v)
        df = pd.concat(out, ignore_index=True)
        df["_hon"] = [_hon_rank(h) for h in df["honours"]] if "honours" in df else 0
        df = df.sort_values(["round", "_hon"] + [b for b in by if b not in ("round", "honours")] + ["order"])
        return df.drop(columns=["_hon"]).reset_index(drop=True)

    def adjusted(self, k: int) -> bool:
        """Policy ``k``'s numbers are adjusted by the reference's (a searching policy on fewer
        deals than the reference's table: ``_adjust``)."""
        return k > 0 and self.policies[k].searching and not self.policies[0].searching and \
            self.tables[k].deals < self.tables[0].deals <= self.deals and \
            self.per_deal[self.reference] >= self.per_deal[self.plays[k]]

    def _adjust(self, k: int, by: list[str], v: pd.DataFrame) -> pd.DataFrame:
        """Policy ``k``'s class numbers (``v``, from its own table) adjusted by the reference's
        on the same decisions (a control variate, ``analyzer.runs.stats.control_variate``): the
        reference played these decisions too, and all its table's; each number moves by how far
        the reference's numbers on these decisions fell from its whole table. The plain ones are
        kept as ``<name>_plain`` (and ``_lo``/``_hi``), ``adjusted`` says which rows moved."""
        v["adjusted"] = False
        if not self.adjusted(k):
            return v
        joined = self._matched(k, by, [c for _, c in _ADJUST])
        ref = self.tables[0].view(by).set_index(by)
        for name, _ in _ADJUST:
            for suffix in ("", "_lo", "_hi"):
                v[f"{name}_plain{suffix}"] = v[f"{name}{suffix}"]
        v = v.set_index(by)
        for key, g in joined.groupby(by, observed=True):
            key = key[0] if len(by) == 1 and isinstance(key, tuple) else key
            if key not in v.index or key not in ref.index:
                continue
            n_all = int(ref.at[key, "n"])
            if len(g) < CV_MIN_N:
                continue  # too few shared decisions to estimate how the two move together
            for name, col in _ADJUST:
                y, x = g[col].to_numpy(np.float64), g[col + "_ref"].to_numpy(np.float64)
                if name == "gain_net":
                    e = control_variate(y, x, float(ref.at[key, name]), n_all)
                    est, lo, hi = e.mean, e.lo, e.hi
                    if "gain_net_se" in v:
                        v.loc[key, "gain_net_se"] = e.se
                else:
                    e = control_variate_rate(y, x, float(ref.at[key, name]), n_all)
                    est, lo, hi = e.p, e.lo, e.hi
                v.loc[key, [name, name + "_lo", name + "_hi"]] = est, lo, hi
            v.loc[key, "adjusted"] = True
        v = v.reset_index()
        v["verdict"] = np.where(v["gain_net_lo"] > 0, "take", np.where(v["gain_net_hi"] < 0, "pass", "unclear"))
        return v

    def _matched(self, k: int, by: list[str], cols: list[str]) -> pd.DataFrame:
        """Policy ``k``'s decisions on the deals both it and the first policy played one by one,
        indexed by (deal, class): ``by``, ``cols`` and the first policy's ``cols`` as ``<col>_ref``."""
        m = min(self.per_deal[self.plays[k]], self.per_deal[self.reference])
        a = self.decisions[k]
        h = self.decisions[0]
        a = a[a["deal"] < m].set_index(["deal", "cls"])
        h = h[h["deal"] < m].set_index(["deal", "cls"])
        return a[by + cols].join(h[cols].add_suffix("_ref"), how="inner")

    def _paired(self, k: int, by: list[str]) -> pd.DataFrame:
        """Policy ``k`` minus the first policy on the same decisions (the deals both played
        one by one), grouped by ``by``."""
        j = self._matched(k, by, ["dnet", "made"])
        d = j[by].copy()
        d["dg"] = j["dnet"] - j["dnet_ref"]
        d["dm"] = j["made"] - j["made_ref"]
        d["dg_sq"] = d["dg"] ** 2
        d["dm_sq"] = d["dm"] ** 2
        s = d.groupby(by, as_index=False, observed=True).agg(n=("dg", "size"), dg=("dg", "sum"),
                                                             dg_sq=("dg_sq", "sum"), dm=("dm", "sum"),
                                                             dm_sq=("dm_sq", "sum"))
        out = s[by].copy()
        out["vs_n"] = s["n"]
        for name, col in (("gain_vs_ref", "dg"), ("made_vs_ref", "dm")):
            m, _, lo, hi = mean_ci(s[col], s[col + "_sq"], s["n"])
            out[name], out[name + "_lo"], out[name + "_hi"] = m, lo, hi
        return out

    def summary(self, by=None, min_n: int | None = None) -> pd.DataFrame:
        """One row per class: each policy's verdict on taking (``verdict_<play>``), and
        ``bracket``: ``holds`` (the same verdict, beyond the noise, under every policy),
        ``flips`` (pays under one policy, loses under another) or ``unclear``."""
        min_n = self.min_n if min_n is None else min_n
        df = self.frame(by, min_n)
        by = list(self.by if by is None else by)
        rows = []
        for key, g in df.groupby(by, sort=False, observed=True):
            verdicts = list(g.sort_values("order")["verdict"])
            row = dict(zip(by, key if isinstance(key, tuple) else (key,)))
            row["paired_n"] = int(g["paired_n"].iloc[0])
            for play, v, gain in zip(self.plays, verdicts, g.sort_values("order")["gain_net"]):
                row[f"verdict_{play}"] = v
                row[f"gain_{play}"] = gain
            row["bracket"] = bracket_status(verdicts)
            rows.append(row)
        return pd.DataFrame(rows)

    def flips(self, by=None, min_n: int | None = None) -> pd.DataFrame:
        min_n = self.min_n if min_n is None else min_n
        s = self.summary(by, min_n)
        return s[s["bracket"] == "flips"] if len(s) else s

    def finding(self, by=None, min_n: int | None = None) -> str:
        """The bracket in a sentence or two: how many classes hold, flip, or are unclear."""
        min_n = self.min_n if min_n is None else min_n
        return summary_finding(self.summary(by, min_n), self.plays, self.by if by is None else by, min_n)


    def _sizes(self) -> str:
        return ", ".join(f"{play} {t.deals:,} deals" for play, t in zip(self.plays, self.tables)) + \
            ", the first deals of one stream"

    def as_dict(self, by=None, min_n: int | None = None) -> dict:
        min_n = self.min_n if min_n is None else min_n
        return {
            "inputs": {"variant": self.rules.variant, "players": self.rules.players, "deals": self.deals,
                       "strong_deals": dict(self.per_deal), "seed": self.seed, "rounds": self.rounds,
                       "rules": self.rules.options(), "plays": list(self.plays),
                       "policies": {p: pol.describe() for p, pol in zip(self.plays, self.policies)},
                       "by": list(self.by if by is None else by), "min_n": min_n, "note": self.note},
            "hands_simulated": self.hands,
            "runs": [{"play": p, "deals": t.deals, "hands_simulated": t.hands, "seconds": round(t.seconds, 3),
                      "decisions": {"round1": t.decisions[0], "round2": t.decisions[1]}}
                     for p, t in zip(self.plays, self.tables)],
            "classes": _records(self.frame(by, min_n)),
            "summary": _records(self.summary(by, min_n)),
            "finding": self.finding(by, min_n),
            "seconds": round(self.seconds, 3),
        }


_VERB = {"take": "pays", "pass": "loses", "unclear": "unclear"}
# the numbers of a searching policy adjusted by the reference's: (frame column, decision column)
_ADJUST = (("gain_net", "dnet"), ("p_made", "made"), ("p_dedans", "dedans"), ("p_capot", "capot"),
           ("p_pit_against", "pit"))


def _hon_rank(h: str) -> int:
    """The table's order of honours labels (``table._hon_key``) as one integer."""
    count, missing = _hon_key(h)
    return count * 16 + sum(m << (3 - i) for i, m in enumerate(missing))


def bracket_status(verdicts) -> str:
    """``holds`` (one verdict, beyond the noise, under every policy), ``flips`` (taking pays
    under one and loses under another) or ``unclear``."""
    v = set(verdicts)
    if {"take", "pass"} <= v:
        return "flips"
    if len(v) == 1 and "unclear" not in v:
        return "holds"
    return "unclear"


def summary_finding(s: pd.DataFrame, plays, by, min_n: int) -> str:
    """A table bracket's ``summary`` in a sentence or two: how many classes hold, flip, or are
    unclear, and each flip (``TableBracket.finding``; the report's first page quotes it)."""
    if s.empty:
        return f"No class has {min_n} or more decisions under every policy's paired deals: deal more."
    counts = s["bracket"].value_counts()
    text = (f"Of {len(s)} classes with n ≥ {min_n} in the paired sample, taking's verdict holds under "
            f"{', '.join(plays)} in {counts.get('holds', 0)}, flips in {counts.get('flips', 0)} and is "
            f"inside the noise under at least one policy in {counts.get('unclear', 0)}.")
    fl = s[s["bracket"] == "flips"]
    if len(fl):
        text += " Flips: " + "; ".join(
            f"{class_label(r, by)}: " + ", ".join(f"{p} {r[f'verdict_{p}']} ({r[f'gain_{p}']:+.0f})" for p in plays)
            for _, r in fl.iterrows()) + "."
    return text


def class_label(r, by) -> str:
    parts = []
    for b in by:
        if b == "round":
            continue
        if b == "honours":
            parts.append(f"`{r[b]}`")
        else:
            parts.append(f"{b.replace('_', ' ')} {r[b]}")
    return " ".join(parts) or "all"


def table_bracket(rules: Rules | None = None, *, plays=None, deals: int = 200_000, strong_deals=None,
                  seed: int = 1, bid: str = "heuristic", rounds: int = 2, by=BY, threads: int | None = None,
                  progress=None, known: dict | None = None, min_n: int = MIN_N,
                  bidders_of: str | None = None) -> TableBracket:
    """``table`` under each play policy of ``plays`` (default: ``default_plays(rules)``).

    ``strong_deals``: the deals of every searching policy, or ``{play: deals}``, or None for
    ``STRONG_DEALS`` (double
    dummy costs about 50 times PIMC in classic); each plays the first of the stream. The cheap
    policies tabulate ``deals`` deals, and play the largest searching sample one deal a
    row so every policy is matched decision by decision with the first.
    ``progress(play, done, total)`` as each policy's runs go (a cheap policy: its per-deal
    part, then its full table). ``known``: ``{play: TableResult}`` tables of cheap policies
    already made with these rules, bidders, seed, rounds and ``deals`` (the report's), used
    instead of tabulating them again. ``bidders_of``: the play whose bidders every column bids with
    (``bid`` ``calibrated`` reads the file calibrated for that play; default the first of ``plays``):
    default ``bracket.default_bidders``: the default player's where it is a column.

    Example::

        >>> b = table_bracket(Rules(), plays=("random", "heuristic"), deals=20_000, strong_deals=2_000)  # doctest: +SKIP
        >>> print(b.finding())  # doctest: +SKIP
    """
    rules = rules or Rules()
    note = None
    if plays is None:
        plays, note = default_plays(rules)
    plays = parse_plays(",".join(plays))
    if rounds not in (1, 2):
        raise BeloteError(f"--rounds must be 1 or 2, not {rounds}")
    per_deal = sample_sizes(plays, strong_deals, deals)
    t0 = time.perf_counter()
    pols, tables, decisions = [], [], []
    hands = 0
    bidders = Policies.parse(bid, bidders_of or default_bidders(plays), rules.players)
    for play in plays:
        p = Policies.parse(bid, play, rules.players).with_bidders_of(bidders)  # every column bids alike (files too)
        costly = p.searching
        paired = per_deal[play]
        total = paired + (0 if costly or (known and play in known) else deals)
        step = None if progress is None else (lambda done, play=play, total=total: progress(play, done, total))
        cfg = SimConfig(rules=rules, policies=p, deals=deals, seed=seed, threads=threads)
        small, dec = per_deal_table(cfg, paired, rounds, progress=step)
        hands += small.hands
        if costly:
            tables.append(small)
        elif known and play in known:
            t = known[play]
            if (t.deals, t.config.seed, t.rounds, t.config.rules, t.config.policies.describe()) != (
                    deals, seed, rounds, rules, p.describe()):
                raise ValueError(f"the known table of {play} was not made with this bracket's inputs")
            tables.append(t)
        else:
            tables.append(bidding_table(cfg, rounds=rounds, progress=None if step is None else
                                        (lambda done, step=step: step(paired + done))))
            hands += tables[-1].hands
        if decisions and not _same_decisions(decisions[0], dec, min(paired, per_deal[plays[0]])):
            raise AssertionError(f"the deals or decisions of {play} differ from {plays[0]}'s on the same seed")
        pols.append(p)
        decisions.append(dec)
    return TableBracket(rules, seed, rounds, tuple(plays), pols, tables, decisions, deals, per_deal, tuple(by), note,
                        time.perf_counter() - t0, hands, min_n)


def check_sample(rules: Rules, plays, deals: int, strong_deals=None, *, seed: int = 1, bid: str = "heuristic",
                 rounds: int = 2, by=BY, threads: int | None = None, min_n: int = MIN_N,
                 bidders_of: str | None = None) -> int:
    """Refuse up front a bracket that could show no class: one whose smallest paired sample
    (``sample_sizes``; the samples are prefixes of one stream, so the smallest binds) gives
    no class of ``by`` ``min_n`` decisions, which the bracket reports only after its searching
    policies' minutes ("deal more"). The decisions and their classes do not depend on the
    play policy (the module docstring), so they are counted on that sample played by the
    heuristic: milliseconds. Returns the largest class's decisions; a one-line error naming
    about how many paired deals would do (decisions grow in proportion) otherwise."""
    paired = min(sample_sizes(plays, strong_deals, deals).values())
    bidders = Policies.parse(bid, bidders_of or default_bidders(plays), rules.players)
    cfg = SimConfig(rules=rules, policies=Policies.parse(bid, "heuristic", rules.players).with_bidders_of(bidders),
                    deals=deals, seed=seed, threads=threads)
    _, dec = per_deal_table(cfg, paired, rounds)
    counts = dec.groupby(list(by), observed=True).size()
    most = int(counts.max()) if len(counts) else 0
    if most < min_n:
        need = -(-paired * min_n * 5 // (4 * max(most, 1)))  # a quarter more: the counts are random
        more = f"--bracket-deals {need}" + (f" and --deals {need}" if need > deals else "")
        raise BeloteError(f"table --bracket: its paired sample, the first {paired:,} deals, gives no class (by "
                          f"{','.join(by)}) the {min_n} decisions a class needs to be shown (the most: {most}); "
                          f"deal more, about {more}")
    return most


def sample_sizes(plays, strong_deals, deals: int) -> dict:
    """Deals each policy plays one deal a row: ``strong_deals`` (an int, or ``{play: n}``;
    a searching policy not named gets its ``STRONG_DEALS`` default, by name without
    parameters) for the searching policies, the largest of those for the cheap ones (all
    cut at ``deals``)."""
    if strong_deals is None:
        strong_deals = {}
    given = strong_deals if isinstance(strong_deals, dict) else {p: strong_deals for p in plays}
    extra = set(given) - set(plays)
    if extra:
        raise BeloteError(f"--bracket-deals names {', '.join(sorted(extra))}, not among the bracket's policies "
                          f"{', '.join(plays)}")
    bad = [f"{p}={v}" for p, v in given.items() if v <= 0]
    if bad:
        raise BeloteError(f"--bracket-deals must be a positive number of deals, not {bad[0]}")
    for v in given.values():
        check_deals(v, "--bracket-deals")
    n = {p: int(given.get(p, STRONG_DEALS.get(p.split(":", 1)[0], OTHER_DEALS))) for p in plays if searches(p)}
    if n:
        top = max(n.values())
    else:  # no searching policy: the cheap ones pair on the deals given
        top = OTHER_DEALS if isinstance(strong_deals, dict) else int(strong_deals)
    return {p: min(deals, n.get(p, top)) for p in plays}


def parse_deals(spec: str) -> int | dict:
    """``--bracket-deals``: ``300`` for every searching policy, or ``pimc=1000,dd=100``."""
    try:
        if "=" not in spec:
            return int(spec)
        out = {}
        for part in spec.split(","):
            name, _, n = part.partition("=")
            out[name.strip()] = int(n)
        return out
    except ValueError:
        raise BeloteError(f'--bracket-deals "{spec}": give deals, e.g. 300, or deals by policy, e.g. '
                          "pimc=1000,dd=100") from None


def _same_decisions(a: pd.DataFrame, b: pd.DataFrame, m: int) -> bool:
    """The same decisions (deal, class, the policy's natural call) in the same order on the
    first ``m`` deals: what the bidding saw does not depend on how the hands are played."""
    cols = ["deal", "cls", "nat_take", "nat_smous"]
    a, b = a[a["deal"] < m], b[b["deal"] < m]
    return len(a) == len(b) and bool((a[cols].to_numpy() == b[cols].to_numpy()).all())


# Hands a second a thread of the searching policies (the registry's hands_per_s, with where each
# figure comes from), for ``plan``'s estimate before the bars can measure one
HANDS_PER_S = {(p.name, label): rate for p in PLAY_REGISTRY for label, rate in p.hands_per_s.items()}
HANDS_PER_DEAL = {1: 4.0, 2: 5.3}  # table hands a deal by rounds tabulated (classic, measured)


def plan(rules: Rules, plays, deals: int, strong_deals, rounds: int = 2, threads: int | None = None) -> str:
    """One line before the work: each policy's deals and, for the searching ones, about how
    long they take (``HANDS_PER_S`` by policy, spread over the threads)."""
    threads = threads or numba.get_num_threads()
    per_deal = sample_sizes(plays, strong_deals, deals)
    parts = []
    for play in plays:
        name = play.split(":", 1)[0]
        paired = per_deal[play]
        if searches(play):
            rate = HANDS_PER_S.get((name, rules.label), HANDS_PER_S[("pimc", "classic")])
            s = paired * HANDS_PER_DEAL[rounds] / (rate * threads)
            parts.append(f"{play} the first {paired:,} (about {_duration(s)})")
        else:
            parts.append(f"{play} {deals:,}")
    return (f"table --bracket, {rules.label}: deals per play policy: " + ", ".join(parts)
            + f" on {threads} thread(s); each bar shows its own ETA")


def _duration(seconds: float) -> str:
    return f"{seconds:.0f} s" if seconds < 120 else f"{seconds / 60:.0f} min"
