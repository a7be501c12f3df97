"""``duel --games``: two policy sets in whole games to the target, duplicate style (RULES.md §7).

The seatings are the hand duel's (``analyzer.questions.duel.seatings``), for the players of the
first deal: classic A as the team of seats 0+2 and B as 1+3, then swapped; two players A at seat
0, then at seat 1; Piekjas with 3 or 4 players A at one seat and B at the others, A rotated
through every seat. Players move round the table as in any game (``analyzer.runs.games``).
Game ``g`` of every seating is dealt the same cards in the same order (``play_games`` with
``duplicate``: deal d's cards and its hand's random numbers come from streams of the game and
d alone), so where A and B decide alike the games are the same, and they part only where a
decision differs.

A game's value is the share of its seatings that A's side won; its mean over games, with the
interval from the per-game values (the seatings of a game are paired), is A's chance to win a
game, against a fair share of 1 / sides (two sides: 50%). A game still unfinished after the deal
cap counts as lost for both (counted apart).
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field

import numpy as np

from analyzer.errors import BeloteError
from analyzer.players.policies import Policies
from analyzer.questions.duel import PolicySet, seating_text, seatings, _a_side
from analyzer.rules import Rules
from analyzer.runs.fmt import ci_pct
from analyzer.runs.games import DEFAULT_MAX_DEALS, G_HANDS, G_WINNER, play_games
from analyzer.runs.simulate import SimConfig
from analyzer.runs.stats import Mean, Z95, distinguishable, mean_of, rate


def seated_policies(rules: Rules, a: PolicySet, b: PolicySet, who) -> Policies:
    """The players' policies of one seating: player p (at seat p in the first deal) is A's or B's."""
    sets = (a.policies, b.policies)
    n = rules.players
    return Policies(tuple(sets[who[p]].bid[p] for p in range(n)),
                    tuple(tuple(sets[who[p]].play[r][p] for p in range(n)) for r in range(2)),
                    tuple(sets[who[p]].seat_plays()[p] for p in range(n)))


@dataclass
class GamesDuel:
    rules: Rules
    a: PolicySet
    b: PolicySet
    seed: int
    games: int
    seatings: list
    a_wins: Mean  # per game: the share of its seatings A's side won
    fair: float  # a fair share: 1 / sides
    by_seating: list  # Rate per seating: A's side won
    capped: int  # games unfinished at the deal cap (seatings)
    hands: Mean  # hands per game (every seating)
    seconds: float
    values: np.ndarray = field(repr=False, default=None)

    @property
    def vs_fair(self) -> Mean:
        m = self.a_wins
        return Mean(m.n, m.mean - self.fair, m.se, m.lo - self.fair, m.hi - self.fair, m.sd)

    @property
    def beyond_noise(self) -> bool:
        return distinguishable(self.vs_fair)

    def verdict(self) -> str:
        d = self.vs_fair
        fair = f"{100 * self.fair:.1f}%"
        if d.n > 1 and d.sd == 0:
            return f"A and B play the same games (n={d.n:,} games): no difference."
        p = 1 if 100 * Z95 * d.se >= 0.1 else 2  # decimals that show the interval
        if self.beyond_noise:
            who = "A" if d.mean > 0 else "B"
            return (f"{who} wins more games: A wins {100 * self.a_wins.mean:.{p}f}% against a fair share of {fair}, "
                    f"{100 * d.mean:+.{p}f} points of percentage (95% CI {100 * d.lo:+.{p}f} to {100 * d.hi:+.{p}f}, "
                    f"n={d.n:,} games a seating), beyond the noise.")
        return (f"A wins {100 * self.a_wins.mean:.{p}f}% of games against a fair share of {fair}: "
                f"{100 * d.mean:+.{p}f} ± {100 * Z95 * d.se:.{p}f} points of percentage (n={d.n:,} games a seating), "
                "inside the noise; not distinguishable.")

    def text(self) -> str:
        r = self.rules
        lines = [f"Whole-game duplicate duel, {r.label} to {r.target}: A = {self.a.spec}, B = {self.b.spec}",
                 f"Seatings: {seating_text(r)}; every game's deals dealt in the same order in each seating.",
                 "A's side won: " + (f"{100 * self.a_wins.mean:.1f}% (every game played alike in every seating)"
                                     if self.a_wins.sd == 0 else ci_pct(self.a_wins.mean, self.a_wins.lo,
                                                                        self.a_wins.hi)) + " "
                 f"of games (n={self.games:,} games x {len(self.seatings)} seatings, seed {self.seed}).",
                 "By seating: " + "; ".join(f"{''.join('AB'[w] for w in who)} {100 * rt.p:.1f}% [{100 * rt.lo:.1f}, "
                                            f"{100 * rt.hi:.1f}]" for who, rt in zip(self.seatings, self.by_seating)),
                 f"Verdict: {self.verdict()}",
                 f"Hands a game: {self.hands.mean:.2f}; games unfinished at the deal cap: {self.capped}; "
                 f"{self.seconds:.1f} s."]
        return "\n".join(lines)

    def as_dict(self) -> dict:
        r = self.rules
        return {"inputs": {"variant": r.variant, "players": r.players, "games": self.games, "seed": self.seed,
                           "rules": r.options(), "target": r.target,
                           "a": {"spec": self.a.spec, "policies": self.a.policies.describe()},
                           "b": {"spec": self.b.spec, "policies": self.b.policies.describe()}},
                "seatings": {"who": [["AB"[w] for w in who] for who in self.seatings], "text": seating_text(r)},
                "a_wins": self.a_wins.as_dict(), "fair_share": self.fair, "a_vs_fair": self.vs_fair.as_dict(),
                "by_seating": [rt.as_dict() for rt in self.by_seating], "capped": self.capped,
                "hands_per_game": self.hands.as_dict(),
                "verdict": {"beyond_noise": self.beyond_noise, "text": self.verdict()},
                "seconds": round(self.seconds, 3)}


def duel_games(rules: Rules, a: PolicySet, b: PolicySet, games: int = 2_000, seed: int = 1,
               threads: int | None = None, progress=None, max_deals: int = DEFAULT_MAX_DEALS) -> GamesDuel:
    """``games`` whole games per seating (see the module's docstring). ``progress(done)``: games
    finished over all seatings."""
    if games <= 0:
        raise BeloteError(f"--games must be a positive number of games, not {games}")
    seats = seatings(rules)
    won = np.zeros((games, len(seats)))
    hands = np.zeros((games, len(seats)))
    capped = 0
    t0 = time.perf_counter()
    for j, who in enumerate(seats):
        cfg = SimConfig(rules=rules, policies=seated_policies(rules, a, b, who), seed=seed, threads=threads)
        step = (lambda d, j=j: progress(j * games + d)) if progress else None
        g = play_games(cfg, games, max_deals=max_deals, progress=step, duplicate=True)
        w = g.games[:, G_WINNER]
        won[:, j] = w == _a_side(rules, who)
        hands[:, j] = g.games[:, G_HANDS]
        capped += int((w < 0).sum())
    sides = 2 if rules.partners else rules.players
    fair = 1 / sides
    by = [rate(int(won[:, j].sum()), games) for j in range(len(seats))]
    return GamesDuel(rules, a, b, seed, games, seats, mean_of(won.mean(axis=1)), fair, by, capped,
                     mean_of(hands.mean(axis=1)), time.perf_counter() - t0, won)


__all__ = ["duel_games", "GamesDuel", "seated_policies"]
