"""``rules``: what each rule option changes, measured on the same deals.

For every rule option that can change a variant (``analyzer.rules.option_choices``), the
hands are played under the variant's default reading and under the other reading, with
the same seed: hand ``i`` of both runs is dealt from ``seed_stream(seed, i)``
(``analyzer.game.dealing``), so both readings see the same cards and the comparison is paired.
Whole games are paired the same way (game ``g`` of both runs uses the stream of
``(seed, g)``; with policies that draw no random numbers, deal ``k`` of game ``g`` is the
same deck under both readings).

**Intervals (batch means).** The ``deals`` hands of a reading are cut into ``blocks``
consecutive blocks (100 by default) and each block is simulated on its own
(``analyzer.questions.seats``), which gives one row of integer counts per block. A statistic is a
ratio of two counts (made hands / hands played, points / hands, ...); its value is the
ratio of the totals, and the interval of the difference between the readings comes from
the block-to-block spread of the paired, linearised differences

    u_c = (num_b,c - r_b den_b,c) / mean(den_b) - (num_a,c - r_a den_a,c) / mean(den_a)

(the delta method for a ratio; with a per-deal denominator it is the plain difference of
the block means): SE = sd(u) / sqrt(blocks), interval = d ± t(blocks - 1) SE. Blocks
are the same hands under both readings, so what the hands have in common cancels. Games
are independent units: the interval is the normal one of the per-game paired
differences. Every count is an integer sum, so the numbers are identical whatever the
thread count. A difference is *beyond the noise* when its 95% interval excludes 0.

**Revision 2.** Each change of ``analyzer.rules.REVISION_2`` is also reported as
"before → after" (the revision-1 value against today's default, after − before), and,
for a variant with more than one change, all of them together.

``compare_rules`` runs it; ``ImpactResult`` builds the table once (one row per
comparison and statistic) and writes it as JSON and CSV; the output stage renders it
(markdown: ``analyzer.output.markdown.rules_impact_markdown``; the forest plot:
``analyzer.output.files``; rich tables: ``analyzer.cli.render``).
"""

from __future__ import annotations

import math
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable

import numpy as np
import pandas as pd

from analyzer.errors import BeloteError
from analyzer.players.policies import Policies
from analyzer.players.policy_files import CALIBRATED, shipped_fits
from analyzer.questions.seats import A_SUM
from analyzer.questions.table import _records
from analyzer.rules import ALL_LABELS, PLAYER_COUNTS, REVISION_2, Rules, option_choices, reference
from analyzer.runs import driver
from analyzer.runs.games import DEFAULT_MAX_DEALS, G_DEALS, G_HANDS, G_WINNER, play_games
from analyzer.runs.records import hand_record
from analyzer.runs.simulate import OFFSETS, SimConfig, set_threads
from analyzer.runs.stats import mean_of, rate, t_quantile
from analyzer.runs.units import N_COUNTS

DEFAULT_DEALS = 200_000  # hands per reading: the whole `belote rules` in about a minute warm (docs/REVISION_EFFECTS.md)
DEFAULT_GAMES = 4_000  # games per reading
# the defaults of ``belote rules`` by its players: net, about fifteen times the heuristic's cost a hand, plays a
# quarter of its sizes (the whole command in about four minutes warm on 2 threads; intervals twice as wide)
SIZES_BY_PLAY = {"heuristic": (DEFAULT_DEALS, DEFAULT_GAMES), "net": (50_000, 1_000)}
DEFAULT_BLOCKS = 100  # batch-means blocks per reading
MIN_BLOCKS = 10  # fewer blocks would make the t interval meaningless
COMBINED = "revision 2 (all)"


# ---- statistics: what is compared -------------------------------------------------------


def _c(name: str, k: int = 0) -> Callable:
    off = OFFSETS[name] + k
    return lambda counts, adv: counts[:, off]


def _sum(*getters) -> Callable:
    return lambda counts, adv: sum(g(counts, adv) for g in getters)


def _takes(counts, adv):
    r1 = OFFSETS["take_r1"]
    r2 = OFFSETS["take_r2"]
    return counts[:, r1:r1 + 4].sum(axis=1) + counts[:, r2:r2 + 4].sum(axis=1) + counts[:, OFFSETS["koe"]]


@dataclass(frozen=True)
class Stat:
    """One compared statistic: ``num / den`` of per-block counts (``scale`` 100 for a rate in %)."""

    key: str
    label: str
    family: str  # bidding, outcome, roem, points, seats
    unit: str  # "pp" (percentage points) or "points"
    num: Callable
    den: Callable
    scale: float = 1.0


HANDS = _c("hands")
PLAYED = _c("played")


def hand_stats(rules: Rules) -> list[Stat]:
    """The statistics that can occur under ``rules``' variant and player count."""
    out = [
        Stat("taken", "taken (any round, koe)", "bidding", "pp", _takes, HANDS, 100),
        Stat("take_round1", "taken in round 1", "bidding", "pp",
             _sum(*[_c("take_r1", s) for s in range(rules.players)]), HANDS, 100),
        Stat("take_round2", "taken in round 2", "bidding", "pp",
             _sum(*[_c("take_r2", s) for s in range(rules.players)]), HANDS, 100),
    ]
    if rules.koe:
        out.append(Stat("koe", "koe (forced troefmaker)", "bidding", "pp", _c("koe"), HANDS, 100))
    else:
        out.append(Stat("passed_out", "passed out", "bidding", "pp", _c("passed_out"), HANDS, 100))
    if rules.smous_allowed:
        out.append(Stat("smous_offered", "smous offered", "bidding", "pp", _c("smous_offered"), HANDS, 100))
        out.append(Stat("redeal", "smous redeal", "bidding", "pp", _c("redeal"), HANDS, 100))
    out += [
        Stat("made", "made", "outcome", "pp", _c("made"), PLAYED, 100),
        Stat("dedans", "dedans", "outcome", "pp", _c("dedans"), PLAYED, 100),
        Stat("tie", "tie / litige", "outcome", "pp", _c("tie"), PLAYED, 100),
        Stat("capot_for", "capot / pit for the taker", "outcome", "pp", _c("capot_for"), PLAYED, 100),
        Stat("pit_against", "capot / pit against the taker", "outcome", "pp", _c("pit_against"), PLAYED, 100),
    ]
    if not rules.partners:  # classic: a side without a trick is the capot already counted
        out.append(Stat("hands_with_trickless", "a player without a trick", "outcome", "pp", _c("hands_with_trickless"),
                        PLAYED, 100))
    out += [
        Stat("roem_scored", "roem scored", "roem", "pp", _c("roem_scored"), PLAYED, 100),
        Stat("roem_points", "roem points a hand", "roem", "points", _c("roem_points"), PLAYED),
        Stat("stuk", "stuk / belote", "roem", "pp", _c("stuk"), PLAYED, 100),
    ]
    if rules.dix:
        out.append(Stat("dix", "Dix exchanged", "roem", "pp", _c("dix"), PLAYED, 100))
    out.append(Stat("taker_score", "taker's score", "points", "points", _c("taker_score_sum"), PLAYED))
    seats = range(2 if rules.partners else rules.players)  # classic: seats 2 and 3 score with 0 and 1
    for s in seats:
        out.append(Stat(f"score_seat{s}", f"seat {s} score", "points", "points",
                        _c("score_sum", s), PLAYED))
    n_sides = 2 if rules.partners else rules.players
    for s in range(1 if n_sides == 2 else n_sides):  # two sides: seat 1's advantage is minus seat 0's
        out.append(Stat(f"advantage_seat{s}", f"seat {s} advantage", "seats", "points",
                        lambda counts, adv, s=s: adv[:, A_SUM + s] / (n_sides - 1), HANDS))
    return out


@dataclass(frozen=True)
class Diff:
    """A paired difference b - a with its standard error and 95% interval."""

    a: float
    b: float
    diff: float
    se: float
    lo: float
    hi: float
    n: int  # units of the denominator under reading a (deals, hands played or games)
    sd_unit: float  # per-unit sd of the statistic under reading a (for the standardised size)

    @property
    def beyond_noise(self) -> bool:
        return bool(self.lo > 0 or self.hi < 0)

    @property
    def size(self) -> float:
        """|difference| / per-unit sd of reading a: comparable across units (0 when nothing varies)."""
        if not np.isfinite(self.sd_unit) or self.sd_unit <= 0:
            return 0.0 if self.diff == 0 else float("inf")
        return abs(self.diff) / self.sd_unit


def ratio_difference(num_a, den_a, num_b, den_b, scale: float = 1.0) -> Diff:
    """Batch-means difference of two ratio estimators on the same blocks (see the module doc)."""
    num_a, den_a, num_b, den_b = (np.asarray(x, np.float64) for x in (num_a, den_a, num_b, den_b))
    blocks = num_a.size
    na, nb = den_a.sum(), den_b.sum()
    if na <= 0 or nb <= 0 or blocks < 2:
        nan = float("nan")
        return Diff(nan, nan, nan, nan, nan, nan, int(na), nan)
    ra, rb = num_a.sum() / na, num_b.sum() / nb
    ua = (num_a - ra * den_a) / (na / blocks)
    ub = (num_b - rb * den_b) / (nb / blocks)
    u = ub - ua
    se = math.sqrt(float((u * u).sum()) / (blocks * (blocks - 1)))
    sd_unit = math.sqrt(float((ua * ua).sum()) / (blocks - 1) * (na / blocks))
    d = rb - ra
    half = t_quantile(blocks - 1) * se
    return Diff(scale * ra, scale * rb, scale * d, scale * se, scale * (d - half), scale * (d + half), int(na),
                scale * sd_unit)


def paired_game_difference(xa, xb, scale: float = 1.0) -> Diff:
    """Per-game paired difference (games are independent units)."""
    xa = np.asarray(xa, np.float64)
    xb = np.asarray(xb, np.float64)
    m = mean_of(xb - xa)
    sd = float(xa.std(ddof=1)) if xa.size > 1 else float("nan")
    return Diff(scale * float(xa.mean()), scale * float(xb.mean()), scale * m.mean, scale * m.se, scale * m.lo,
                scale * m.hi, int(xa.size), scale * sd)


# ---- running both readings ----------------------------------------------------------------


@dataclass
class Run:
    """One reading of one variant: per-block counts of the hands, per-game rows."""

    rules: Rules
    counts: np.ndarray  # (blocks, N_COUNTS) int64
    adv: np.ndarray  # (blocks, N_ADV) int64
    games: np.ndarray | None  # (games, N_GCOLS) int64
    seconds: float


@dataclass(frozen=True)
class Comparison:
    """Reading ``b`` against reading ``a`` of one variant (differences are b - a)."""

    label: str
    option: str  # the rule option, or COMBINED
    kind: str  # "option" (default -> other reading) or "revision 2" (before -> after)
    a_value: str
    b_value: str
    a: Rules
    b: Rules
    summary: str = ""

    @property
    def name(self) -> str:
        return f"{self.option}: {self.a_value} → {self.b_value}"


def block_bounds(deals: int, blocks: int):
    """(starts, sizes) of ``blocks`` consecutive blocks of hands 0 .. deals-1, sizes differing by at most one."""
    base, extra = divmod(deals, blocks)
    sizes = np.full(blocks, base, np.int64)
    sizes[:extra] += 1
    starts = np.concatenate([[0], np.cumsum(sizes)[:-1]]).astype(np.int64)
    return starts, sizes


def run_reading(config: SimConfig, blocks: int, games: int, max_deals: int = DEFAULT_MAX_DEALS,
                progress=None) -> Run:
    """Hands of ``config`` in ``blocks`` blocks (one count row each, the driver's ``SEATS``
    unit) and ``games`` whole games; progress after each block."""
    threads = set_threads(config.threads)
    args = config.kernel_args()
    rows = []
    t0 = time.perf_counter()
    for start, size in zip(*block_bounds(config.deals, blocks)):
        start, size = int(start), int(size)
        # each block split over the threads (a chunk's size never changes the counts)
        rows.append(driver.run_units(driver.SEATS, config.seed, start, size, -(-size // threads), args))
        if progress is not None:
            progress(start + size)
    rows = np.array(rows, np.int64)
    counts, adv = rows[:, :N_COUNTS].copy(), rows[:, N_COUNTS:].copy()
    games_rows = None
    if games:
        games_rows = play_games(config, games, max_deals=max_deals,
                                progress=(lambda g: progress(config.deals + g)) if progress is not None else None).games
    return Run(config.rules, counts, adv, games_rows, time.perf_counter() - t0)


def _rules_key(r: Rules) -> tuple:
    return (r.label,) + tuple(sorted(r.options().items()))


def plan(labels, options=None) -> list[Comparison]:
    """Every comparison for ``labels``: each option's other readings, then revision 2."""
    wanted = set(options) if options else None
    out = []
    for lab in labels:
        base = Rules.from_label(lab)
        for opt, values in option_choices(base.variant, base.players).items():
            if wanted is not None and opt not in wanted:
                continue
            for v in values[1:]:
                out.append(Comparison(lab, opt, "option", values[0], v, base, Rules.from_label(lab, [f"{opt}={v}"])))
        changes = [ch for ch in REVISION_2 if lab in ch.labels]
        for ch in changes:
            if wanted is not None and ch.option not in wanted:
                continue
            out.append(Comparison(lab, ch.option, "revision 2", ch.before, ch.after,
                                  Rules.from_label(lab, [f"{ch.option}={ch.before}"]),
                                  Rules.from_label(lab, [f"{ch.option}={ch.after}"]), ch.summary))
        if len(changes) > 1 and (wanted is None or all(ch.option in wanted for ch in changes)):
            out.append(Comparison(lab, COMBINED, "revision 2", "revision 1", "revision 2",
                                  Rules.from_label(lab, [f"{ch.option}={ch.before}" for ch in changes]),
                                  Rules.from_label(lab, [f"{ch.option}={ch.after}" for ch in changes]),
                                  "; ".join(ch.option for ch in changes)))
    return out


def parse_labels(variant: str | None = None, players: int | None = None) -> list[str]:
    """Variant labels for ``--variant`` / ``--players`` (default: every variant, every player count)."""
    if variant is None:
        labs = [lab for lab in ALL_LABELS if players is None or Rules.from_label(lab).players == players]
        if not labs:
            raise BeloteError(f"no variant is played by {players} players: use --players 2, 3 or 4")
        return labs
    if players is not None:
        return [Rules.make(variant, players).label]
    Rules.make(variant)  # an unknown variant fails here, with the fix
    return [Rules.make(variant, n).label for n in PLAYER_COUNTS[variant]]


def check_sizes(deals: int, games: int, blocks: int, seed: int) -> int:
    """Refuse sizes a paired comparison cannot use (one line naming the fix); the blocks to use."""
    if deals <= 0:
        raise BeloteError(f"--deals must be a positive number of hands, not {deals}")
    if games < 0:
        raise BeloteError(f"--games must be 0 or more, not {games}")
    blocks = min(blocks, deals)
    if blocks < MIN_BLOCKS:
        raise BeloteError(f"--deals must be at least {MIN_BLOCKS} (one hand per batch-means block), not {deals}")
    if seed < 0:
        raise BeloteError(f"--seed must be 0 or more, not {seed}")
    return blocks


def compare_rules(labels=None, options=None, deals: int = DEFAULT_DEALS, games: int = DEFAULT_GAMES,
                  seed: int = 1, bid: str = "heuristic", play: str = "heuristic", threads: int | None = None,
                  blocks: int = DEFAULT_BLOCKS, max_deals: int = DEFAULT_MAX_DEALS, progress=None) -> "ImpactResult":
    """Play the same deals (and games) under both readings of every rule option of
    ``labels`` (default all: classic, piekjas2, piekjas3, piekjas4, dekjas), plus the
    changes of revision 2; ``options`` keeps only those options. ``progress(done)`` counts
    hands plus games simulated.

    Example::

        >>> r = compare_rules(["classic"], ["undertrump"], deals=100_000, games=500)  # doctest: +SKIP
        >>> r.table().query("beyond_noise")[["comparison", "statistic", "diff", "lo", "hi"]]  # doctest: +SKIP
    """
    labels = list(labels) if labels else list(ALL_LABELS)
    for lab in labels:
        Rules.from_label(lab)
    blocks = check_sizes(deals, games, blocks, seed)
    if options:
        known = set()
        for lab in labels:
            r = Rules.from_label(lab)
            known |= set(option_choices(r.variant, r.players))
        bad = [o for o in options if o not in known]
        if bad:
            raise BeloteError(f'rule option "{bad[0]}" changes none of {", ".join(labels)}: '
                              f'use one of {", ".join(sorted(known))}')
    comps = plan(labels, options)
    if not comps:
        raise BeloteError("nothing to compare: choose another --option or --variant")
    policies = {lab: Policies.parse(bid, play, Rules.from_label(lab).players) for lab in labels}
    needed = {}
    for c in comps:
        for r in (c.a, c.b):
            needed.setdefault(_rules_key(r), r)
    t0 = time.perf_counter()
    runs = {}
    base = 0
    per_run = deals + games
    for key, r in needed.items():
        cfg = SimConfig(rules=r, policies=policies[r.label], deals=deals, seed=seed, threads=threads)

        def rp(done, base=base):
            if progress is not None:
                progress(base + done)

        runs[key] = run_reading(cfg, blocks, games, max_deals, rp)
        base += per_run
    return ImpactResult(comps, runs, labels, deals, games, blocks, seed,
                        {lab: policies[lab].describe() for lab in labels}, time.perf_counter() - t0, bid=bid)


def total_units(labels=None, options=None, deals: int = DEFAULT_DEALS, games: int = DEFAULT_GAMES) -> int:
    """What ``compare_rules``' progress counts up to (hands plus games)."""
    comps = plan(list(labels) if labels else list(ALL_LABELS), options)
    keys = {_rules_key(r) for c in comps for r in (c.a, c.b)}
    return len(keys) * (deals + games)


# ---- what an option changes in the players' choices ---------------------------------------
#
# Every statistic of an option can be identical under both readings for two reasons: the
# option never changed what a player may do, or the players never chose what only one
# reading allows. The counts are read from deal logs: a sample of hands is logged under each
# reading (``analyzer.runs.records.hand_record``, the same deals) and replayed with the
# reference rules (``analyzer.rules.reference``), and at each decision the option rules the
# legal choices are taken under both readings.

CHOICES = {"round2_suits": "round-2 bids", "undertrump": "card plays"}  # the options that rule a choice
CHOICE_HANDS = 500  # hands logged and replayed per reading and bidders (at most the hands compared)
CHOICE_COLUMNS = ("variant", "comparison", "option", "kind", "bid", "decides", "replayed", "hands", "decisions",
                  "changed", "used")


def choice_counts(comparison: Comparison, bid: str, hands: int, seed: int, records=None) -> dict:
    """How often ``comparison``'s option changed the legal choices and how often the players
    (bidders ``bid``, heuristic play) chose what the other reading forbids, over ``hands``
    hands logged under each reading (``records``: a cache of logged hands by reading and
    bidders); one row of ``CHOICE_COLUMNS``. An option that rules no choice (it scores, or
    times the Dix) counts nothing: ``decides`` says so. The calibrated bidders exist only for
    the rules they were calibrated with: a reading they refuse is not replayed (``replayed``
    names the readings that were)."""
    row = {"variant": comparison.label, "comparison": comparison.name, "option": comparison.option,
           "kind": comparison.kind, "bid": bid, "decides": CHOICES.get(comparison.option, "no choice"),
           "replayed": "", "hands": 0, "decisions": 0, "changed": 0, "used": 0}
    if comparison.option not in CHOICES:
        return row
    records = {} if records is None else records
    replayed = []
    for this, other, value in ((comparison.a, comparison.b, comparison.a_value),
                               (comparison.b, comparison.a, comparison.b_value)):
        if bid == CALIBRATED and shipped_fits(this, "heuristic") is not None:
            continue
        for rec in _logged(this, bid, hands, seed, records):
            for key, k in _choices(rec, this, other).items():
                row[key] += k
        replayed.append(value)
    return row | {"replayed": ", ".join(replayed), "hands": hands if replayed else 0}


def _logged(rules: Rules, bid: str, hands: int, seed: int, records: dict) -> list:
    """The first ``hands`` hands of the run of ``rules`` (bidders ``bid``) as deal records."""
    key = (_rules_key(rules), bid, hands, seed)
    if key not in records:
        cfg = SimConfig(rules=rules, policies=Policies.parse(bid, "heuristic", rules.players), deals=hands, seed=seed)
        records[key] = [hand_record(cfg, i) for i in range(hands)]
    return records[key]


def _choices(rec: dict, this: Rules, other: Rules) -> dict:
    """The decisions of one record (played under ``this``) that the option between ``this`` and
    ``other`` rules: how many, how many with other legal choices under ``other``, and how many
    chose what ``other`` forbids."""
    out = {"decisions": 0, "changed": 0, "used": 0}
    if this.round2_suits != other.round2_suits:  # §3 round 2: the turned suit named or not
        turned = rec["turned"][1]
        for b in rec["bids"]:
            if b.get("round") == 2 and b["call"] in ("pass", "take", "smous"):
                out["decisions"] += 1
                out["changed"] += 1  # the turned suit is a legal call under one reading only
                out["used"] += b["call"] != "pass" and b["suit"] == turned and other.round2_suits == "other"

    if this.undertrump != other.undertrump:  # §4.3: an opponent's trump that cannot be beaten

        class Counting(reference._Replay):
            def legal(self, hand, trick, seat, card):
                legal = super().legal(hand, trick, seat, card)
                theirs = reference.legal_plays(hand, trick, seat, self.trump, other)
                out["decisions"] += 1
                out["changed"] += legal != theirs
                out["used"] += card not in theirs
                return legal

        errors = Counting(rec)
        errors.run()
        if errors.errors:
            raise BeloteError(f"deal {rec['deal']} under {this.label} does not replay: {errors.errors[0]}")
    return out


def choice_table(result: "ImpactResult", bids=("heuristic",), hands: int = CHOICE_HANDS) -> pd.DataFrame:
    """``choice_counts`` of every single-option comparison of ``result`` under each of ``bids``
    (at most ``result.deals`` hands a reading)."""
    records = {}
    rows = [choice_counts(c, bid, min(hands, result.deals), result.seed, records)
            for bid in bids for c in result.comparisons if c.option != COMBINED]
    return pd.DataFrame(rows, columns=list(CHOICE_COLUMNS))


def identical(rows: pd.DataFrame) -> bool:
    """Every statistic of a comparison (its rows of ``ImpactResult.table``) is the same under
    both readings, to the last count."""
    d = rows[np.isfinite(rows["diff"])]
    return bool(len(d)) and bool(((d["diff"] == 0) & (d["lo"] == d["hi"])).all())


# ---- the result ---------------------------------------------------------------------------

TABLE_COLUMNS = ("variant", "comparison", "option", "kind", "a_value", "b_value", "family", "statistic", "label",
                 "unit", "a", "b", "diff", "lo", "hi", "se", "n", "beyond_noise", "size")


@dataclass
class ImpactResult:
    comparisons: list
    runs: dict
    labels: list
    deals: int
    games: int
    blocks: int
    seed: int
    policies: dict
    seconds: float
    _cache: dict = field(default_factory=dict, repr=False)
    bid: str = "heuristic"  # the bidders (``compare_rules``' ``bid``), whose choices ``choice_table`` replays first

    @property
    def hands_simulated(self) -> int:
        return sum(int(r.counts[:, OFFSETS["hands"]].sum()) + (int(r.games[:, G_DEALS].sum()) if r.games is not None
                                                              else 0) for r in self.runs.values())

    def run(self, rules: Rules) -> Run:
        return self.runs[_rules_key(rules)]

    def table(self) -> pd.DataFrame:
        """One row per comparison and statistic (differences b - a, rates in percentage points)."""
        if "table" in self._cache:
            return self._cache["table"]
        rows = []
        for c in self.comparisons:
            ra, rb = self.run(c.a), self.run(c.b)
            for st in hand_stats(c.a):
                d = ratio_difference(st.num(ra.counts, ra.adv), st.den(ra.counts, ra.adv),
                                     st.num(rb.counts, rb.adv), st.den(rb.counts, rb.adv), st.scale)
                rows.append(_row(c, st.family, st.key, st.label, st.unit, d))
            if ra.games is not None and rb.games is not None:
                for fam, key, label, unit, xa, xb, scale in game_stats(c.a, ra.games, rb.games):
                    rows.append(_row(c, fam, key, label, unit, paired_game_difference(xa, xb, scale)))
        df = pd.DataFrame(rows, columns=list(TABLE_COLUMNS))
        self._cache["table"] = df
        return df

    def games_changed(self) -> pd.DataFrame:
        """Per comparison: how many of the paired games the option changed at all (any count differs)."""
        rows = []
        for c in self.comparisons:
            ra, rb = self.run(c.a), self.run(c.b)
            if ra.games is None or rb.games is None:
                continue
            changed = int((ra.games != rb.games).any(axis=1).sum())
            x = rate(changed, ra.games.shape[0])
            rows.append({"variant": c.label, "comparison": c.name, "kind": c.kind, "games": x.n, "changed": x.k,
                         "p": x.p, "lo": x.lo, "hi": x.hi})
        return pd.DataFrame(rows, columns=["variant", "comparison", "kind", "games", "changed", "p", "lo", "hi"])

    def ranked(self, label: str | None = None, kind: str | None = None, all_rows: bool = False) -> pd.DataFrame:
        """Differences beyond the noise (or all), largest standardised size first."""
        df = self.table()
        if label is not None:
            df = df[df["variant"] == label]
        if kind is not None:
            df = df[df["kind"] == kind]
        if not all_rows:
            df = df[df["beyond_noise"]]
        return df.sort_values(["beyond_noise", "size"], ascending=[False, False], kind="stable")

    def as_dict(self) -> dict:
        return {
            "inputs": self.inputs(),
            "method": METHOD,
            "differences": _records(self.table()),
            "games_changed": _records(self.games_changed()),
            "hands_simulated": self.hands_simulated,
            "seconds": round(self.seconds, 3),
        }

    def inputs(self) -> dict:
        return {"variants": self.labels, "deals": self.deals, "games": self.games, "blocks": self.blocks,
                "seed": self.seed, "policies": self.policies,
                "comparisons": [{"variant": c.label, "option": c.option, "kind": c.kind, "a": c.a_value,
                                 "b": c.b_value, "rules_a": c.a.options(), "rules_b": c.b.options(),
                                 "summary": c.summary} for c in self.comparisons]}

    def write(self, out_dir) -> list[Path]:
        """``rules_impact.csv`` and ``rules_games_changed.csv`` (the markdown and the forest plot
        beside them: ``analyzer.output.files.write_impact``)."""
        out = Path(out_dir)
        files = []
        p = out / "rules_impact.csv"
        self.table().to_csv(p, index=False)
        files.append(p)
        gc = self.games_changed()
        if len(gc):
            p = out / "rules_games_changed.csv"
            gc.to_csv(p, index=False)
            files.append(p)
        return files


def _row(c: Comparison, family, key, label, unit, d: Diff) -> dict:
    return {"variant": c.label, "comparison": c.name, "option": c.option, "kind": c.kind, "a_value": c.a_value,
            "b_value": c.b_value, "family": family, "statistic": key, "label": label, "unit": unit, "a": d.a,
            "b": d.b, "diff": d.diff, "lo": d.lo, "hi": d.hi, "se": d.se, "n": d.n, "beyond_noise": d.beyond_noise,
            "size": d.size}


def game_stats(rules: Rules, ga: np.ndarray, gb: np.ndarray):
    """(family, key, label, unit, per-game values a, b, scale) of the game statistics."""
    n_sides = rules.record().n_sides
    yield "games", "hands_per_game", "hands per game", "hands", ga[:, G_HANDS], gb[:, G_HANDS], 1.0
    for s in range(n_sides):
        who = f"team of seats {s} and {s + 2}" if rules.partners else f"player {s}"
        yield ("games", f"p_win_first_seat{s}", f"P(win), {who} (seat {s} in the first hand)", "pp",
               ga[:, G_WINNER] == s, gb[:, G_WINNER] == s, 100.0)
    yield "games", "capped", "games capped", "pp", ga[:, G_WINNER] < 0, gb[:, G_WINNER] < 0, 100.0


HEADLINE = (  # the forest plot's panels: (statistic, title)
    ("taken", "taken (% of deals)"),
    ("made", "made (% of hands)"),
    ("tie", "tie / litige (% of hands)"),
    ("roem_points", "roem points a hand"),
    ("taker_score", "taker's side score"),
    ("advantage_seat0", "seat 0 advantage (points)"),
    ("p_win_first_seat0", "P(win), first seat 0 (pp)"),
    ("hands_per_game", "hands per game"),
)

REVISION_STATS = HEADLINE[:3] + (("dedans", "dedans (% of hands)"), ("roem_scored", "roem scored (% of hands)"),
                                  ("dix", "Dix exchanged (% of hands)")) + HEADLINE[3:]
"""The statistics shown for the changes of revision 2 (all are in the CSV / JSON)."""

METHOD = ("Paired: both readings play the same deals (hand i from the stream of (seed, i)) and the same games "
          "(game g from the stream of (seed, g)). Hands: {blocks} batch-means blocks of consecutive hands per "
          "reading; a statistic is a ratio of block counts, its difference b − a has the standard error "
          "sd(u)/sqrt(blocks) of the linearised paired block differences u (delta method) and the interval "
          "d ± t(blocks−1)·SE. Games: the normal interval of the per-game paired differences. Beyond the noise: "
          "the 95% interval excludes 0. Size: |difference| / per-unit sd under reading a.")


__all__ = ["compare_rules", "ImpactResult", "Comparison", "Diff", "ratio_difference", "paired_game_difference",
           "plan", "parse_labels", "choice_counts", "choice_table", "identical", "total_units", "t_quantile",
           "block_bounds"]
