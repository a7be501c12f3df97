"""``balance``: the variants side by side, on single hands and on whole games.

Per variant, hands (``analyzer.questions.seats``: ``simulate``'s counts plus the seat advantage):
take rate by round and seat, koe, smous offered / accepted, passed out, made / dedans /
tie, capot for and against, mean score and spread per seat, and each seat's advantage
(its side's hand score minus the other sides' mean, paired on the same hand). Games
(``analyzer.runs.games``): P(win) of each player by its seat in the first hand, hands per
game. Every rate carries its n and a 95% Wilson interval, every mean its 95% interval.

``compare_variants`` runs them; ``BalanceResult`` builds the tables once (long format:
one row per variant and statistic) and writes CSV / Parquet, plots and markdown.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
import pandas as pd

from analyzer.errors import BeloteError
from analyzer.runs.fmt import ci_pct
from analyzer.runs.games import G_HANDS, DEFAULT_MAX_DEALS, GamesResult, play_games
from analyzer.players.policies import Policies, parse_play
from analyzer.players.policy_files import bid_provenance, default_bid, describe_bid
from analyzer.rules import ALL_LABELS, Rules
from analyzer.questions.seats import seat_advantage, simulate_seats
from analyzer.runs.simulate import SimConfig, SimResult
from analyzer.runs.summary import summarize
from analyzer.questions.take import seat_name

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
# (the figures behind them: docs/BENCHMARKS.md, PIMC and dd hands per second; pimc's since
# issue 19: 2,000 hands and 100 games a variant took 11 s on 2 threads, so ten times that)
DEFAULT_SIZES = {"": (1_000_000, 20_000), "pimc": (20_000, 1_000), "dd": (200, 10)}


HANDS_PER_GAME = 9.74  # a whole game: 4.6 (dekjas) to 12 (piekjas4) hands, 9.74 over the variants


def work(deals: int, games: int) -> int:
    """The progress total of ``compare_variants`` per variant, in hands: each game counted as
    ``HANDS_PER_GAME`` hands, so the ETA does not jump when the games start."""
    return deals + round(HANDS_PER_GAME * games)


def default_sizes(play: str) -> tuple[int, int]:
    """(hands, games) per variant that ``balance`` plays by default with play policy
    ``play`` (a name, per seat or by role): the costliest policy named decides."""
    names = {name.split(":", 1)[0] for row in parse_play(play, 4) for name in row}
    for costly in ("dd", "pimc"):
        if costly in names:
            return DEFAULT_SIZES[costly]
    return DEFAULT_SIZES[""]


SEAT_AXIS = "seat (0 = voorhand, bids and leads first; the last seat deals)"


@dataclass
class VariantBalance:
    rules: Rules
    hands: SimResult
    adv: np.ndarray  # analyzer.questions.seats sums
    games: GamesResult | None


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
        return sum(v.hands.config.deals + (v.games.deals if v.games else 0) for v in self.variants)

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
                    rows.append({"variant": v.rules.label, "statistic": key, "label": label, "kind": "rate",
                                 "value": x.p, "lo": x.lo, "hi": x.hi, "k": x.k, "n": x.n, "sd": np.nan})
                else:
                    rows.append({"variant": v.rules.label, "statistic": key, "label": label, "kind": "mean",
                                 "value": x.mean, "lo": x.lo, "hi": x.hi, "k": np.nan, "n": x.n, "sd": x.sd})
        self._cache["hands"] = pd.DataFrame(rows)
        return self._cache["hands"]

    def seat_table(self) -> pd.DataFrame:
        """One row per variant and seat: take rates, made when taking, score, advantage, P(win)."""
        if "seats" in self._cache:
            return self._cache["seats"]
        from analyzer.runs.stats import rate

        rows = []
        for v in self.variants:
            r = v.rules
            c = v.hands.as_dict()
            s = summarize(v.hands)
            n_sides = r.record().n_sides
            hands = c["hands"]
            wins = v.games.win_rates() if v.games else None
            for seat in range(r.players):
                side = seat & 1 if r.partners else seat
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

    # ---- rendering ----

    def bidders_markdown(self) -> str:
        """One line naming each variant's bidders and play policy (with the policy file's provenance)."""
        return "Bidders: " + "; ".join(
            f"{v.rules.label} {describe_bid(v.hands.config.policies, v.rules)}, play="
            f"{v.hands.config.policies.describe()['play']}" for v in self.variants) + "."


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
            "hands_simulated": self.hands_simulated,
            "seconds": round(self.seconds, 3),
        }

    def write(self, out_dir, prefix: str = "balance") -> list[Path]:
        """CSV and Parquet tables into ``out_dir`` (``balance_hands.csv``, ..., named after ``prefix``;
        the plots and ``balance.md``: ``analyzer.output.files.write_balance``)."""
        from analyzer.questions.table import write_frame

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


def _records(df: pd.DataFrame) -> list:
    from analyzer.questions.table import _records as rec

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
        raise BeloteError("--variants is empty: give e.g. --variants classic,piekjas3")
    out = []
    for lab in labels:
        r = Rules.from_label(lab)
        if r.label not in [x.label for x in out]:
            out.append(r)
    return out


def compare_variants(variants=None, deals: int | None = None, games: int | None = None, seed: int = 1,
                     bid: str | None = None, play: str = "heuristic", rule_options=(), threads: int | None = None,
                     max_deals: int = DEFAULT_MAX_DEALS, progress=None) -> BalanceResult:
    """Hands and whole games for each variant (labels: classic, piekjas2, piekjas3,
    piekjas4, dekjas), with the same policies (names, or per seat) and rule options.
    ``bid=None``: each variant's default bidder (``policy_files.default_bid``: the shipped
    calibrated policy where it fits the rules and ``play``, else the heuristic).
    ``deals`` / ``games`` per variant, ``None``: ``default_sizes(play)``; ``games=0``: hands
    only. ``progress(done)`` counts the work done: hands, plus ``HANDS_PER_GAME`` a game (``work``).

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
    out = []
    base = 0
    for cfg in configs:
        def hp(done, base=base):
            if progress is not None:
                progress(base + done)

        res, adv = simulate_seats(cfg, progress=hp)
        base += deals
        g = None
        if games:
            def gp(done, base=base):
                if progress is not None:
                    progress(base + round(HANDS_PER_GAME * done))

            g = play_games(cfg, games, max_deals=max_deals, progress=gp)
            base += round(HANDS_PER_GAME * games)
        out.append(VariantBalance(cfg.rules, res, adv, g))
    return BalanceResult(out, seed, deals, games, time.perf_counter() - t0)
