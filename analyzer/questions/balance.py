"""``balance``: the variants side by side, on single hands and on whole games.

Per variant, hands (``analyzer.questions.seats``: ``simulate``'s counts plus the seat advantage):
take rate by round and seat, koe, smous offered / accepted, passed out, made / dedans /
tie, capot for and against, mean score and spread per seat, and each seat's advantage
(its side's hand score minus the other sides' mean, paired on the same hand). Games
(``analyzer.runs.games``): P(win) of each player by its seat in the first hand, hands per
game. Every rate carries its n and a 95% Wilson interval, every mean its 95% interval.

``compare_variants`` runs them; ``BalanceResult`` builds the tables once (long format:
one row per variant and statistic) and writes CSV / Parquet, plots and markdown.

A searching play policy (pimc, dd) plays thousands of times fewer hands than the heuristic in
the same time, so its numbers borrow the heuristic's sample: the same variant, seed,
rules and bidders are played again with the heuristic at its own default sizes (``Control``).
Hand ``i`` and game ``i`` of both runs are dealt from the same stream, so on the searching
run's hands and games both are known, and each searching number is the paired regression
estimator (``analyzer.runs.stats.control_variate``): its mean moved by how far the heuristic's
numbers on those hands fell from its whole sample. A rate over a subset of hands (made when a
seat takes, over hands played) is adjusted only where both runs have the same subset (the same
bidding); the plain numbers stay beside (``*_plain`` columns).
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
import pandas as pd

from analyzer.errors import BeloteError
from analyzer.players.policies import Policies, parse_play
from analyzer.players.policy_files import bid_provenance, default_bid
from analyzer.questions.seats import A_SUM, seat_advantage, simulate_seats
from analyzer.questions.table import _records as rec
from analyzer.questions.table import write_frame
from analyzer.questions.take import seat_name
from analyzer.rules import ALL_LABELS, Rules
from analyzer.runs.fmt import ci_pct
from analyzer.runs.games import DEFAULT_MAX_DEALS, G_HANDS, G_WINNER, GamesResult, play_games
from analyzer.runs.simulate import SimConfig, SimResult
from analyzer.runs.stats import Rate, control_variate, control_variate_rate, mean_of, rate
from analyzer.runs.summary import count_view, hand_view, parts, summarize
from analyzer.runs.units import N_COUNTS

HAND_STATS = (  # (key in summarize(), label)
    ("take_round1", "taken in round 1"),
    ("take_round2", "taken in round 2"),
    ("koe", "koe (forced troefmaker)"),
    ("passed_out", "passed out"),
    ("smous_offered", "smous offered"),
    ("smous_accepted", "smous answered 'play'"),
    ("redeal", "smous redeal"),
    ("made", "made"),
    ("dedans", "dedans"),
    ("tie", "tie / litige"),
    ("capot_for", "capot / pit for the taker"),
    ("pit_against", "capot / pit against the taker"),
    ("hands_with_trickless", "a side without a trick"),
    ("roem_scored", "roem scored"),
    ("stuk", "stuk / belote"),
    ("dix", "Dix exchanged"),
    ("taker_score", "taker's hand score"),
)


# default sizes per variant: (hands, whole games); a searching play policy plays hands in
# milliseconds (pimc) or seconds (dd in Piekjas 3-4 and Dekjas), so it gets its own
# (PIMC and dd hands per second: docs/PERFORMANCE.md; pimc's 2,000 hands and 100 games a variant take
# about 11 s on 2 threads, so ten times that)
# net, about fifteen times the heuristic's cost a hand, plays 45% of its sizes: intervals 1.5 times as wide, about
# 40 s for the five variants on 2 threads
DEFAULT_SIZES = {"": (1_000_000, 20_000), "net": (450_000, 9_000), "pimc": (20_000, 1_000), "dd": (200, 10)}


HANDS_PER_GAME = 9.74  # a whole game: 4.6 (dekjas) to 12 (piekjas4) hands, 9.74 over the variants


def work(deals: int, games: int) -> int:
    """The progress total of ``compare_variants`` per variant, in hands: each game counted as
    ``HANDS_PER_GAME`` hands, so the ETA does not jump when the games start."""
    return deals + round(HANDS_PER_GAME * games)


def default_sizes(play: str) -> tuple[int, int]:
    """(hands, games) per variant that ``balance`` plays by default with play policy
    ``play`` (a name, per seat or by role): the costliest policy named decides."""
    names = {name.split(":", 1)[0] for row in parse_play(play, 4) for name in row}
    for costly in ("dd", "pimc", "net"):
        if costly in names:
            return DEFAULT_SIZES[costly]
    return DEFAULT_SIZES[""]


SEAT_AXIS = "seat (0 = voorhand, bids and leads first; the last seat deals)"


CONTROL_PLAY = "heuristic"  # the control of a searching run: it plays every hand at the heuristic's sizes


@dataclass
class Control:
    """The heuristic run that adjusts a searching one: the same variant, seed, rules and bidders,
    at the heuristic's own sizes (its first hands and games are the searching run's)."""

    hands: SimResult
    adv: np.ndarray
    games: GamesResult | None


@dataclass
class VariantBalance:
    rules: Rules
    hands: SimResult
    adv: np.ndarray  # analyzer.questions.seats sums
    games: GamesResult | None
    control: Control | None = None
    adjusted: dict = field(default_factory=dict)  # statistic -> Rate / Mean adjusted by the control (``adjust``)


@dataclass
class BalanceResult:
    """Every variant's hand and game statistics; tables are built on first use."""

    variants: list
    seed: int
    deals: int
    n_games: int
    seconds: float
    _cache: dict = field(default_factory=dict, repr=False)

    @property
    def hands_simulated(self) -> int:
        """Hands played, the controls' included."""
        return sum(v.hands.config.deals + (v.games.deals if v.games else 0) + (
            v.control.hands.config.deals + (v.control.games.deals if v.control.games else 0) if v.control else 0)
            for v in self.variants)

    @property
    def controlled(self) -> bool:
        """The searching numbers are adjusted by a heuristic control run (``Control``)."""
        return any(v.control is not None for v in self.variants)

    # ---- tables ----

    def hand_table(self) -> pd.DataFrame:
        """One row per variant and statistic: value (rate or mean), 95% CI, k and n."""
        if "hands" in self._cache:
            return self._cache["hands"]
        rows = []
        for v in self.variants:
            s = summarize(v.hands)
            for key, label in HAND_STATS:
                x = s.get(key)  # summarize leaves out what the variant's rules rule out
                if x is None or x.n == 0:
                    continue
                if hasattr(x, "p"):
                    row = {"variant": v.rules.label, "statistic": key, "label": label, "kind": "rate",
                           "value": x.p, "lo": x.lo, "hi": x.hi, "k": x.k, "n": x.n, "sd": np.nan}
                else:
                    row = {"variant": v.rules.label, "statistic": key, "label": label, "kind": "mean",
                           "value": x.mean, "lo": x.lo, "hi": x.hi, "k": np.nan, "n": x.n, "sd": x.sd}
                if self.controlled:
                    _adjust_row(row, v.adjusted.get(key), ("value", "lo", "hi"))
                rows.append(row)
        self._cache["hands"] = pd.DataFrame(rows)
        return self._cache["hands"]

    def seat_table(self) -> pd.DataFrame:
        """One row per variant and seat: take rates, made when taking, score, advantage, P(win)."""
        if "seats" in self._cache:
            return self._cache["seats"]

        rows = []
        for v in self.variants:
            r = v.rules
            c = v.hands.as_dict()
            s = summarize(v.hands)
            n_sides = r.record().n_sides
            hands = c["hands"]
            wins = v.games.win_rates() if v.games else None
            for seat in range(r.players):
                side = r.side_of(seat)
                t1 = rate(c["take_r1"][seat], hands)
                t2 = rate(c["take_r2"][seat], hands)
                made = s[f"made_when_seat{seat}_takes"]
                sc = s[f"score_seat{seat}"]
                adv = seat_advantage(v.adv, seat, n_sides, hands)
                row = {"variant": r.label, "seat": seat, "seat_name": seat_name(seat, r.players),
                       "hands": hands,
                       "take_r1": t1.p, "take_r1_lo": t1.lo, "take_r1_hi": t1.hi,
                       "take_r2": t2.p, "take_r2_lo": t2.lo, "take_r2_hi": t2.hi,
                       "made_when_takes": made.p, "made_when_takes_lo": made.lo, "made_when_takes_hi": made.hi,
                       "takes": made.n,
                       "score_mean": sc.mean, "score_lo": sc.lo, "score_hi": sc.hi, "score_sd": sc.sd, "played": sc.n,
                       "advantage": adv.mean, "advantage_lo": adv.lo, "advantage_hi": adv.hi}
                if wins:
                    w = wins[side]
                    row.update({"p_win": w.p, "p_win_lo": w.lo, "p_win_hi": w.hi, "games": w.n,
                                "p_win_fair": 1.0 / n_sides})
                if self.controlled:
                    for key, name in ((f"take_r1_seat{seat}", "take_r1"), (f"take_r2_seat{seat}", "take_r2"),
                                      (f"made_when_seat{seat}_takes", "made_when_takes"),
                                      (f"score_seat{seat}", "score"), (f"advantage_seat{seat}", "advantage"),
                                      (f"p_win_side{side}", "p_win")):
                        if name != "p_win" or wins:
                            _adjust_row(row, v.adjusted.get(key),
                                        ("score_mean" if name == "score" else name, f"{name}_lo", f"{name}_hi"))
                rows.append(row)
        self._cache["seats"] = pd.DataFrame(rows)
        return self._cache["seats"]

    def game_table(self) -> pd.DataFrame:
        """One row per variant: games, capped games, hands and deals per game (mean, CI, quantiles)."""
        rows = []
        for v in self.variants:
            g = v.games
            if g is None:
                continue
            h = g.hands_per_game()
            d = g.deals_per_game()
            q = np.percentile(g.games[:, G_HANDS], [5, 50, 95])
            rows.append({"variant": v.rules.label, "target": v.rules.target, "games": g.n, "capped": g.capped,
                         "max_deals": g.max_deals, "hands_mean": h.mean, "hands_lo": h.lo, "hands_hi": h.hi,
                         "hands_sd": h.sd, "hands_p5": q[0], "hands_median": q[1], "hands_p95": q[2],
                         "deals_mean": d.mean, "deals_lo": d.lo, "deals_hi": d.hi})
        return pd.DataFrame(rows)

    def hands_per_game(self) -> pd.DataFrame:
        """The distribution: variant, hands (played in a game), games."""
        rows = []
        for v in self.variants:
            if v.games is None:
                continue
            counts = np.bincount(v.games.games[:, G_HANDS])
            for h, k in enumerate(counts):
                if k:
                    rows.append({"variant": v.rules.label, "hands": h, "games": int(k)})
        return pd.DataFrame(rows)

    def as_dict(self) -> dict:
        return {
            "inputs": {"variants": [v.rules.label for v in self.variants], "deals": self.deals, "games": self.n_games,
                       "seed": self.seed,
                       "rules": {v.rules.label: v.rules.options() for v in self.variants},
                       "policies": {v.rules.label: v.hands.config.policies.describe() for v in self.variants},
                       "bid_policy": {v.rules.label: bid_provenance(v.hands.config.policies, v.rules)
                                      for v in self.variants}},
            "hands": _records(self.hand_table()),
            "seats": _records(self.seat_table()),
            "games": _records(self.game_table()),
            **({"control": {"play": CONTROL_PLAY, "deals": {v.rules.label: v.control.hands.config.deals
                                                              for v in self.variants if v.control},
                            "games": {v.rules.label: v.control.games.n for v in self.variants
                                      if v.control and v.control.games}}} if self.controlled else {}),
            "hands_simulated": self.hands_simulated,
            "seconds": round(self.seconds, 3),
        }

    def write(self, out_dir, prefix: str = "balance") -> list[Path]:
        """CSV and Parquet tables into ``out_dir`` (``balance_hands.csv``, ..., named after ``prefix``;
        the plots and ``balance.md``: ``analyzer.output.files.write_balance``)."""
        out = Path(out_dir)
        files = []
        for name, df in ((f"{prefix}_hands", self.hand_table()), (f"{prefix}_seats", self.seat_table()),
                         (f"{prefix}_games", self.game_table()), (f"{prefix}_hands_per_game", self.hands_per_game())):
            if len(df):
                files += write_frame(df, out / name)
        return files


def _cell(r) -> str:
    if r["kind"] == "rate":
        return f"{ci_pct(r['value'], r['lo'], r['hi'], decimals=2)} (n={int(r['n']):,})"
    return f"{r['value']:.1f} [{r['lo']:.1f}, {r['hi']:.1f}] sd {r['sd']:.0f} (n={int(r['n']):,})"


def _adjust_row(row: dict, est, names) -> None:
    """Put an adjusted number (``est``, a Rate or Mean, or None: left plain) into a table row
    under ``names`` (value, lo, hi), the plain ones moved to ``<name>_plain``; ``adjusted_<value>``
    says which."""
    row["adjusted_" + names[0]] = est is not None
    for n, x in zip(names, (np.nan, np.nan, np.nan) if est is None else
                    (est.p if isinstance(est, Rate) else est.mean, est.lo, est.hi)):
        row[n + "_plain"] = row[n]
        if est is not None:
            row[n] = x


def _records(df: pd.DataFrame) -> list:
    return rec(df)


def parse_variants(spec) -> list[Rules]:
    """``"classic,piekjas3"`` or a list of labels → Rules (default options)."""
    if spec is None:
        labels = list(ALL_LABELS)
    elif isinstance(spec, str):
        labels = [s for s in spec.replace(" ", ",").split(",") if s]
    else:
        labels = [s for item in spec for s in str(item).replace(" ", ",").split(",") if s]
    if not labels:
        raise BeloteError("no variant given: give e.g. --variant classic --variant piekjas3")
    out = []
    for lab in labels:
        r = Rules.from_label(lab)
        if r.label not in [x.label for x in out]:
            out.append(r)
    return out


def _hand_rows(rows) -> dict:
    """What ``adjust`` needs of a batch of one row a hand (``SEATS`` rows): the counts it reads
    and the advantage sums."""
    out = hand_view(rows)
    out["adv"] = rows[:, N_COUNTS:].astype(np.int32)
    return out


def _joined(batches: list) -> dict:
    return {k: np.concatenate([b[k] for b in batches]) for k in batches[0]} if batches else {}


# Where the regression estimator's interval holds in a balance (scripts/studies/balance_cv_coverage.py,
# piekjas2, pimc against the heuristic): with 150 shared hands a
# block the adjusted 95% intervals covered 87-94% (a hand's outcome moves with the player only now
# and then, so its few discordant hands decide the spread), with 400 93-96% but a rare rate
# (capot, 2.6%) 89.5%, with 1,000 93.5-97% for every statistic. So a balance adjusts a number only
# on at least ``CV_MIN_HANDS`` shared hands, and a rate only where at least ``CV_MIN_DISCORDANT``
# of them differ between the two runs; elsewhere the plain number stands.
CV_MIN_HANDS = 400
CV_MIN_DISCORDANT = 30


def _cv(kind: str, y, x, x_mean_all: float, n_all: int):
    """``y`` adjusted by ``x`` (None where the control has nothing to add, or too little to hold
    the interval: ``CV_MIN_HANDS``, ``CV_MIN_DISCORDANT``)."""
    differ = int(np.sum(np.asarray(y) != np.asarray(x)))
    if differ and (np.size(y) < CV_MIN_HANDS or (kind == "rate" and differ < CV_MIN_DISCORDANT)):
        return None
    if kind == "rate":
        est, plain = control_variate_rate(y, x, x_mean_all, n_all), rate(int(np.sum(y)), np.size(y))
    else:
        est, plain = control_variate(y, x, x_mean_all, n_all), mean_of(y)
    return None if est == plain else est


def adjust(rules: Rules, y_rows: dict, x_rows: dict, control: Control, y_games: GamesResult | None = None) -> dict:
    """The searching run's numbers adjusted by its control: ``y_rows`` / ``x_rows`` are the
    searching and the control run's first hands (``_hand_rows``, the same deals), ``control``
    the control's whole run, ``y_games`` the searching run's games (the control's first ones are
    the same). Returns ``{statistic: Rate or Mean}`` for every statistic of ``parts`` (with
    ``by_round``) whose subset of hands is the same in both runs, ``advantage_seat<s>`` and
    ``p_win_side<k>``; statistics the control cannot adjust are left out."""
    out = {}
    py, px = parts(y_rows, rules, True), parts(x_rows, rules, True)
    whole = parts(count_view(control.hands.counts), rules, True)
    for key, (kind, *a) in py.items():
        b, c = px[key][1:], whole[key][1:]
        if not np.array_equal(a[-1], b[-1]) or not c[-1]:
            continue  # not the same hands in both runs (other calls): the plain number stands
        sub = np.asarray(a[-1]) > 0
        est = _cv(kind, a[0][sub], b[0][sub], float(c[0]) / float(c[-1]), int(c[-1]))
        if est is not None:
            out[key] = est
    n_sides = rules.record().n_sides
    k, hands = n_sides - 1, control.hands.config.deals
    for seat in range(rules.players):
        whole_adv = seat_advantage(control.adv, seat, n_sides, hands)
        est = _cv("mean", y_rows["adv"][:, A_SUM + seat] / k, x_rows["adv"][:, A_SUM + seat] / k, whole_adv.mean,
                  hands)
        if est is not None:
            out[f"advantage_seat{seat}"] = est
    if y_games is not None and control.games is not None and y_games.n <= control.games.n:
        wy = y_games.games[:, G_WINNER]
        wx = control.games.games[:y_games.n, G_WINNER]
        for side, w in enumerate(control.games.win_rates()):
            est = _cv("rate", (wy == side).astype(np.float64), (wx == side).astype(np.float64), w.p, w.n)
            if est is not None:
                out[f"p_win_side{side}"] = est
    return out


def compare_variants(variants=None, deals: int | None = None, games: int | None = None, seed: int = 1,
                     bid: str | None = None, play: str = "heuristic", rule_options=(), threads: int | None = None,
                     max_deals: int = DEFAULT_MAX_DEALS, progress=None, control: tuple | None = None) -> BalanceResult:
    """Hands and whole games for each variant (labels: classic, piekjas2, piekjas3,
    piekjas4, dekjas), with the same policies (names, or per seat) and rule options.
    ``bid=None``: each variant's default bidder (``policy_files.default_bid``: the shipped
    calibrated policy where it fits the rules and ``play``, else the heuristic).
    ``deals`` / ``games`` per variant, ``None``: ``default_sizes(play)``; ``games=0``: hands
    only. ``progress(done)`` counts the work done: hands, plus ``HANDS_PER_GAME`` a game (``work``).
    A searching ``play`` is adjusted by a control run of the heuristic with the same bidders
    (``adjust``) of ``control`` = (hands, games) a variant, ``None``: the heuristic's default
    sizes (or the searching run's, if larger); ``(0, 0)``: none, the plain numbers.

    Example::

        >>> b = compare_variants(["classic", "piekjas3"], deals=200_000, games=2_000)  # doctest: +SKIP
        >>> b.seat_table()[["variant", "seat", "advantage", "p_win"]]  # doctest: +SKIP
    """
    sizes = default_sizes(play)
    deals = sizes[0] if deals is None else deals
    games = sizes[1] if games is None else games
    if deals <= 0:
        raise BeloteError(f"--deals must be a positive number of hands, not {deals}")
    if games < 0:
        raise BeloteError(f"--games must be 0 or more, not {games}")
    labels = parse_variants(variants)
    rules_list = [Rules.from_label(r.label, list(rule_options)) for r in labels]
    configs = [SimConfig(rules=r, policies=Policies.parse(bid or default_bid(r, play), play, r.players), deals=deals,
                         seed=seed, threads=threads) for r in rules_list]
    t0 = time.perf_counter()
    if control is None:
        control = tuple(max(a, b) for a, b in zip(DEFAULT_SIZES[""], (deals, games)))
    out = []
    base = 0
    for cfg in configs:
        def hp(done, base=base):
            if progress is not None:
                progress(base + done)

        controlled = cfg.policies.searching and control[0] > 0
        res, adv, *rows = simulate_seats(cfg, progress=hp, keep=deals if controlled else 0, reduce=_hand_rows)
        base += deals
        g = None
        if games:
            def gp(done, base=base):
                if progress is not None:
                    progress(base + round(HANDS_PER_GAME * done))

            g = play_games(cfg, games, max_deals=max_deals, progress=gp)
            base += round(HANDS_PER_GAME * games)
        v = VariantBalance(cfg.rules, res, adv, g)
        if controlled:  # the heuristic with the same bidders, on the same deals and more (module docstring)
            pols = Policies.parse(bid or default_bid(cfg.rules, play), CONTROL_PLAY, cfg.rules.players)
            ccfg = SimConfig(rules=cfg.rules, policies=pols.with_bidders_of(cfg.policies), deals=control[0], seed=seed,
                             threads=threads)
            cres, cadv, crows = simulate_seats(ccfg, keep=deals, reduce=_hand_rows)
            cg = play_games(ccfg, control[1], max_deals=max_deals) if games and control[1] else None
            v.control = Control(cres, cadv, cg)
            v.adjusted = adjust(cfg.rules, _joined(rows[0]), _joined(crows), v.control, g)
        out.append(v)
    return BalanceResult(out, seed, deals, games, time.perf_counter() - t0)
