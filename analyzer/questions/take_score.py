"""``take --score``: the hand's result carried through the game-equity table (RULES.md §7).

On every deal ``take`` kept, each call's hand scores of every side (``TakeResult.deal_scores``)
are added to the score at the table; the dealer moves one seat on; the table
(``analyzer.players.equity``) gives the chance that the player's side then wins the game (1 or 0
when this hand ends it). Each call's chance is the mean over the deals, compared to the best
call's deal by deal (paired). Their intervals carry the table's own error too: each cell's
binomial variance weighted by the share of deals that read it (``table_variance``: for a paired
difference, the difference of the two calls' shares), and for a call's chance the hand sample's
error of the table (``hand_sd``), which the two calls of a difference share. The same deals answer
for other scores too (``by_score``): every score of a grid, its best call and whether the sample
tells it from the runner-up, summed up in regions a player names ("level", "far ahead near the
target", ...).

What it leaves out: a reserve left by this hand (a tie, or a dedans with the highest total shared)
is not carried into the next hand's value (the table's games carry it; one hand in a hundred or so
leaves one); the trickless player's roem rule is not applied (it needs a player that won no trick
reaching the target with it).
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass, field

import numpy as np

from analyzer.errors import BeloteError
from analyzer.players.bidding import SCORE_REGIONS, score_region
from analyzer.rules.seats import place_next_deal, seat_after
from analyzer.runs.stats import Z95, Mean, distinguishable, mean_of

GRID_STEPS = 10  # the by-score grid: every target / 10 points on each total
REGIONS = SCORE_REGIONS  # level / ahead / behind, far from or near the target (bidding.score_region)


def parse_score(text: str, rules, seat: int) -> np.ndarray:
    """The score before this deal by side of this deal (side 0 = voorhand's): classic ``820-640``
    (ours first); otherwise every seat's total in seat order, voorhand first (``120-300-80``)."""
    parts = re.split(r"\s*[-/,:]\s*|\s+", text.strip())
    n_sides = 2 if rules.partners else rules.players
    try:
        vals = [int(p) for p in parts if p != ""]
    except ValueError:
        vals = []
    example = "820-640 (ours first)" if rules.partners else "-".join(["120", "300", "80", "40"][:n_sides]) + \
        " (every seat's total, voorhand first)"
    if len(vals) != n_sides or any(v < 0 for v in vals):
        raise BeloteError(f"--score {text!r}: give {n_sides} totals, e.g. --score {example}")
    if any(v > 10 * rules.target for v in vals):
        raise BeloteError(f"--score {text!r}: a total above {10 * rules.target} is not a game to {rules.target}")
    totals = np.array(vals, np.int64)
    if rules.partners:  # ours first: our side is the seat's
        mine = rules.side_of(seat)
        totals = np.array([vals[0], vals[1]] if mine == 0 else [vals[1], vals[0]], np.int64)
    top = totals.max()
    if top >= rules.target and (totals == top).sum() == 1:
        raise BeloteError(f"--score {text!r}: that game is over (a side at or over {rules.target}, alone at the top)")
    return totals


def score_text(totals: np.ndarray, rules, seat: int) -> str:
    """The score as the player typed it (classic ours first)."""
    if rules.partners:
        mine = rules.side_of(seat)
        return f"{totals[mine]}-{totals[1 - mine]}"
    return "-".join(str(int(x)) for x in totals)


def next_deal(totals, my_side: int, scores: np.ndarray):
    """(totals in the next deal's frame, our side there) after a hand whose ``scores[..., j]`` went
    to the side ``j`` places after ours. The dealer moves one seat on: side ``s`` of the next deal
    is side ``s + 1`` of this one (classic: the teams swap sides), ``analyzer.rules.seats``."""
    n = scores.shape[-1]
    after = np.broadcast_to(np.asarray(totals, np.int64), scores.shape[:-1] + (n,)).copy()
    for j in range(n):
        after[..., seat_after.py_func(my_side, j, n)] += scores[..., j]
    return np.roll(after, -1, axis=-1), place_next_deal.py_func(my_side, n)


def win_chances(table, totals, my_side: int, scores: np.ndarray) -> np.ndarray:
    """Our chance of winning the game after each deal's hand (``scores``: (deals, calls, sides))."""
    nxt, seat = next_deal(totals, my_side, scores)
    return table.win_chance(seat, nxt)


def table_variance(table, cells: np.ndarray, weights: np.ndarray) -> float:
    """The variance a mean over deals owes to the table's own cells: ``cells`` (deals, calls) as
    ``EquityTable.cell_of`` gives them, ``weights`` per call (1 for a call's chance; +1 and -1 for a
    paired difference). Each cell's binomial variance times the square of the share of deals reading
    it (decided games read no cell); the cells are independent."""
    share = np.zeros(table.p.size)
    d = cells.shape[0]
    for c, w in enumerate(weights):
        if w:
            col = cells[:, c]
            share += w * np.bincount(col[col >= 0], minlength=table.p.size) / d
    return float((share ** 2 * table.cell_variance()).sum())


def widened(m: Mean, extra_var: float) -> Mean:
    """``m`` with an independent error of variance ``extra_var`` added to its standard error."""
    se = math.sqrt(m.se ** 2 + extra_var)
    return Mean(m.n, m.mean, se, m.mean - Z95 * se, m.mean + Z95 * se, m.sd)


@dataclass
class ScoreAnswer:
    """Each call's chance to win the game from one score, and the verdict by that chance."""

    totals: np.ndarray  # the score before the deal, by side of the deal
    labels: list  # the calls' labels, as take compared them
    win: list  # Mean per call: its chance to win the game
    vs_best: list  # Mean per call: paired, its chance less the best call's
    best: int
    runner_up: int
    beyond_noise: bool
    table_note: dict  # where the table comes from, by language
    regions: dict = field(default_factory=dict)  # region -> (best call index or -1 when too close, scores)
    grid: np.ndarray | None = field(default=None, repr=False)  # by score: best call index, -1 too close
    step: int = 0  # the grid's step in points
    same: bool = False  # the two best calls lead to the same hands on every deal

    def as_dict(self) -> dict:
        return {"score": [int(x) for x in self.totals],
                "calls": [{"label": lab, "win": w.as_dict(), "vs_best": d.as_dict()}
                          for lab, w, d in zip(self.labels, self.win, self.vs_best)],
                "best": self.labels[self.best], "runner_up": self.labels[self.runner_up],
                "beyond_noise": self.beyond_noise, "same_hands": self.same, "table": self.table_note["en"],
                "by_score": {r: (self.labels[b] if b >= 0 else None, n) for r, (b, n) in self.regions.items()}}


def table_note(table, lang: str = "en") -> str:
    """Where the chances come from, in a line."""
    prov = table.provenance
    commit = (prov.get("git_commit") or "unknown")[:7]
    if lang == "nl":
        return (f"winkanstabel {table.label}: {_n(prov.get('real_games', 0), lang)} echte spellen, "
                f"{_n(prov.get('games_per_cell', 0), lang)} spellen per vak, commit {commit}")
    return (f"equity table {table.label}: {prov.get('real_games', 0):,} real games, {prov.get('games_per_cell', 0):,} "
            f"games a cell, commit {commit}")


def _ranked(values: np.ndarray):
    """Best and runner-up (indices) of per-deal values (deals, calls), and the paired difference."""
    means = values.mean(axis=0)
    order = np.argsort(-means, kind="stable")
    b, r = int(order[0]), int(order[1])
    return b, r, mean_of(values[:, b] - values[:, r])


def score_answer(result, totals: np.ndarray, table, with_grid: bool = True) -> ScoreAnswer:
    """The chance to win from ``totals`` of each call of ``result`` (run with ``keep_scores``)."""
    if result.deal_scores is None or result.deal_scores.shape[0] < 2:
        raise BeloteError("too few deals kept to carry into the game (need at least 2)")
    sit = result.situation
    nxt, seat = next_deal(totals, sit.side, result.deal_scores)
    w = table.win_chance(seat, nxt)
    cells = table.cell_of(seat, nxt)
    b, r, _ = _ranked(w)
    k = w.shape[1]

    def weights(*pairs):
        out = np.zeros(k)
        for c, v in pairs:
            out[c] += v
        return out

    # the deals' own spread and the table's cells' (a call's chance: also the hand sample's, which the
    # paired differences share)
    wins = [widened(mean_of(w[:, c]), table_variance(table, cells, weights((c, 1))) + table.hand_sd ** 2)
            for c in range(k)]
    vs = [widened(mean_of(w[:, c] - w[:, b]), table_variance(table, cells, weights((c, 1), (b, -1))))
          for c in range(k)]
    note = {lang: table_note(table, lang) for lang in ("en", "nl")}
    plain = mean_of(w[:, r] - w[:, b])
    ans = ScoreAnswer(totals, [c.call.label for c in result.calls], wins, vs, b, r, distinguishable(vs[r]), note,
                      same=bool(plain.sd == 0 and plain.mean == 0))
    if with_grid:
        ans.grid, ans.regions = by_score(result, table)
        ans.step = sit.rules.target // GRID_STEPS
    return ans


def grid_scores(rules) -> list[int]:
    step = rules.target // GRID_STEPS
    return list(range(0, rules.target, step))


def _score_at(rules, my_side: int, ours: int, theirs: int) -> np.ndarray:
    """A score of the grid by side of the deal: ours, and every other side at ``theirs``."""
    n = 2 if rules.partners else rules.players
    t = np.full(n, theirs, np.int64)
    t[my_side] = ours
    return t


def region(rules, ours: int, theirs: int) -> str:
    """The region a player names a score by (``REGIONS``: ``bidding.score_region``)."""
    return REGIONS[score_region(ours, theirs, rules.target)]


def by_score(result, table, limit: int = 20_000):
    """Every score of the grid (ours x every other side's): the best call on the first ``limit``
    deals, or -1 where the sample cannot tell it from the runner-up; and by region, the call best
    at most of its scores told apart (-1 when none is, or two tie) with how many scores it has."""
    sit = result.situation
    rules = sit.rules
    sc = result.deal_scores[:limit]
    marks = grid_scores(rules)
    grid = np.full((len(marks), len(marks)), -1, np.int64)
    votes: dict = {r: {} for r in REGIONS}
    count = {r: 0 for r in REGIONS}
    for i, a in enumerate(marks):
        for j, o in enumerate(marks):
            nxt, seat = next_deal(_score_at(rules, sit.side, a, o), sit.side, sc)
            w = table.win_chance(seat, nxt)
            b, r, d = _ranked(w)
            pair = np.zeros(w.shape[1])
            pair[b], pair[r] = 1, -1
            same = d.sd == 0 and d.mean == 0  # the two calls lead to the same hands: either is the answer
            d = widened(d, table_variance(table, table.cell_of(seat, nxt), pair))
            reg = region(rules, a, o)
            count[reg] += 1
            if same or distinguishable(d):
                grid[i, j] = b
                votes[reg][b] = votes[reg].get(b, 0) + 1
    regions = {}
    for reg in REGIONS:
        if not count[reg]:
            continue
        v = votes[reg]
        top = sorted(v.items(), key=lambda kv: -kv[1])
        best = top[0][0] if top and (len(top) == 1 or top[0][1] > top[1][1]) else -1
        regions[reg] = (best, count[reg])
    return grid, regions


REGION_WORDS = {
    "en": {r: r for r in REGIONS},
    "nl": {"level": "gelijk op", "ahead": "ver voor", "behind": "ver achter",
           "level near the target": "gelijk op vlak bij het eind", "ahead near the target": "ver voor vlak bij het eind",
           "behind near the target": "ver achter vlak bij het eind"},
}
_W = {
    "en": {"beyond": "{best}: it wins the game {d:.{p}f} points of percentage more often than {second} "
                     "(95% CI {lo:+.{p}f} to {hi:+.{p}f}, n={n}), beyond the noise.",
           "nose": "{best} by a nose: {d:+.{p}f} ± {hw:.{p}f} points of percentage over {second} (n={n}) is inside "
                   "the noise; the sample cannot tell them apart.",
           "every": "{call} at every score of the grid",
           "same": "{best} or {second}: the same hands follow on every deal (n={n}; e.g. passing leads to the same "
                   "contract), so the same chance to win.",
           "by": "By the score (every {step} points on each total): ", "close": "too close to call", "when": " when ",
           "or": " or "},
    "nl": {"beyond": "{best}: daarmee win je het spel {d:.{p}f} procentpunt vaker dan met {second} "
                     "(95%-BI {lo:+.{p}f} tot {hi:+.{p}f}, n={n}), buiten de ruis.",
           "nose": "{best} met een neuslengte: {d:+.{p}f} ± {hw:.{p}f} procentpunt boven {second} (n={n}) valt binnen "
                   "de ruis; de steekproef houdt ze niet uit elkaar.",
           "every": "{call} bij elke stand van het rooster",
           "same": "{best} of {second}: op elk spel volgen dezelfde handen (n={n}; bv. passen leidt tot hetzelfde "
                   "contract), dus dezelfde winkans.",
           "by": "Naar de stand (elke {step} punten op elk totaal): ", "close": "te dicht bij elkaar", "when": " als ",
           "or": " of "},
}


def _n(n: int, lang: str) -> str:
    return f"{n:,}".replace(",", ".") if lang == "nl" else f"{n:,}"


def _dec(text: str, lang: str) -> str:
    """Dutch decimal commas (between digits only: a sentence keeps its full stop)."""
    return re.sub(r"(\d)\.(\d)", r"\1,\2", text) if lang == "nl" else text


def verdict(ans: ScoreAnswer, describe, lang: str = "en") -> str:
    """The verdict by the chance to win (``describe(i)``: call i in words)."""
    w = _W[lang]
    d = ans.vs_best[ans.runner_up]
    best, second = describe(ans.best), describe(ans.runner_up)
    p = 1 if 100 * Z95 * d.se >= 0.1 else 2  # decimals that show the interval
    if ans.same:
        return _dec(w["same"].format(best=best.upper(), second=second, n="{n}"), lang).format(n=_n(d.n, lang))
    if ans.beyond_noise:
        return _dec(w["beyond"].format(best=best.upper(), second=second, d=-100 * d.mean, lo=-100 * d.hi,
                                       hi=-100 * d.lo, n="{n}", p=p), lang).format(n=_n(d.n, lang))
    return _dec(w["nose"].format(best=best.upper(), second=second, d=-100 * d.mean, hw=100 * Z95 * d.se, n="{n}",
                                 p=p), lang).format(n=_n(d.n, lang))


def regions_line(ans: ScoreAnswer, describe, lang: str = "en") -> str:
    """Where the verdict changes with the score, in a player's words."""
    w = _W[lang]
    by: dict = {}
    for reg, (b, _) in ans.regions.items():
        by.setdefault(b, []).append(REGION_WORDS[lang][reg])
    if len(by) == 1 and -1 not in by:
        return w["by"].format(step=ans.step) + w["every"].format(call=describe(next(iter(by))).upper()) + "."
    parts = []
    for b in sorted(by, key=lambda x: (x < 0, x)):
        regs = by[b]
        text = ", ".join(regs[:-1]) + (w["or"] if len(regs) > 1 else "") + regs[-1]
        parts.append((w["close"] if b < 0 else describe(b).upper()) + w["when"] + text)
    return w["by"].format(step=ans.step) + "; ".join(parts) + "."


__all__ = ["parse_score", "score_text", "next_deal", "win_chances", "ScoreAnswer", "score_answer", "by_score",
           "region", "REGIONS", "REGION_WORDS", "table_note", "verdict", "regions_line", "grid_scores"]
