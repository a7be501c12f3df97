"""The bracket: one ``take`` question answered by weaker and stronger players, side by side.

Every number of ``take`` is produced by the players that play the hands. The bracket
asks the same question with each play policy of ``plays`` in every seat (by default the
heuristic, PIMC and double dummy: the heuristic is what the tables use, double dummy the
optimistic end where every seat sees every card), with the same bidding policy and the
same seed, so the sampled deals are the same deals in the same order (the sample stream
does not depend on the play policy; the costly policies use the first ``strong_deals`` of
them). It reports, for each call and policy, P(made), P(dedans), P(capot for), P(pit
against) and the net gain over passing, and whether the verdict (the best call) is the
same under every policy: a verdict that holds under all of them does not hang on how
well the hands are played.
"""

from __future__ import annotations

import time
from dataclasses import dataclass

from analyzer.errors import BeloteError
from analyzer.players.policies import Policies
from analyzer.questions.take import TakeResult, analyse_take
from analyzer.rules import Rules

BRACKET_PLAYS = ("heuristic", "pimc", "dd")  # what the tables use, a searching player, all cards seen
STRONG_DEALS = 500  # default paired deals for the searching policies (dd: about 7 classic hands a second a thread)


@dataclass
class Bracket:
    """One ``TakeResult`` per play policy, on the same situation, bidding and seed."""

    plays: tuple[str, ...]
    results: list[TakeResult]
    seconds: float

    @property
    def best_calls(self) -> list[str]:
        return [r.best.call.label for r in self.results]

    def holds(self) -> bool:
        """The same call is best under every play policy."""
        return len(set(self.best_calls)) == 1

    def verdict(self) -> str:
        best = self.best_calls
        under = ", ".join(self.plays)
        if self.holds():
            sure = [r.beats_runner_up for r in self.results]
            noise = "" if all(sure) else (
                " (inside the noise under " + ", ".join(p for p, s in zip(self.plays, sure) if not s) + ")")
            return f"The verdict holds: {self.results[0].best.call.describe().upper()} under {under}{noise}."
        parts = ", ".join(f"{p}: {r.best.call.describe().upper()}" for p, r in zip(self.plays, self.results))
        return f"The verdict depends on how well the hands are played: {parts}."

    def as_dict(self) -> dict:
        return {
            "plays": list(self.plays),
            "results": [r.as_dict() for r in self.results],
            "best_calls": self.best_calls,
            "holds": self.holds(),
            "text": self.verdict(),
            "seconds": round(self.seconds, 3),
        }


def parse_plays(spec: str | None) -> tuple[str, ...]:
    """``"heuristic,pimc,dd"`` → the play policies of the bracket, each checked."""
    if not spec:
        return BRACKET_PLAYS
    plays = tuple(p.strip() for p in spec.split(",") if p.strip())
    if len(plays) < 2:
        raise BeloteError(f'--bracket-plays "{spec}" names one policy: give two or more, e.g. heuristic,pimc,dd')
    for p in plays:
        if "=" in p.partition(":")[0]:  # pimc:worlds=16 is one policy; 0=pimc or taker=pimc is not
            raise BeloteError(f'--bracket-plays "{p}": give one policy for every seat, e.g. heuristic,pimc,dd')
        Policies.parse("heuristic", p, 2)  # a one-line error for an unknown name
    return plays


def analyse_bracket(rules: Rules | None = None, hand=None, turned=None, seat: int = 0, round_: int = 1, *,
                    mine=None, theirs=None, plays=BRACKET_PLAYS, deals: int = 100_000,
                    strong_deals: int = STRONG_DEALS, seed: int = 1, bid: str = "heuristic", calls=None,
                    objective: str = "net", threads: int | None = None, progress=None) -> Bracket:
    """``take``'s question under each play policy of ``plays`` (in every seat).

    Cheap policies keep ``deals`` paired deals, searching ones (``dd``, ``pimc``) the first
    ``strong_deals`` of the same sample sequence. ``progress(play, done, total)`` is called
    as each policy's run goes.

    Example::

        >>> b = analyse_bracket(Rules(), "Jh 9h Ah Tc 7s", "Qh", plays=("random", "heuristic"),
        ...                     deals=2_000)  # doctest: +SKIP
        >>> print(b.verdict())  # doctest: +SKIP
    """
    rules = rules or Rules()
    if strong_deals <= 0:
        raise BeloteError(f"--bracket-deals must be a positive number of deals, not {strong_deals}")
    t0 = time.perf_counter()
    results = []
    for play in plays:
        pols = Policies.parse(bid, play, rules.players)
        n = min(deals, strong_deals) if pols.searching else deals  # either role
        step = None if progress is None else (lambda done, play=play, n=n: progress(play, done, n))
        results.append(analyse_take(rules, hand, turned, seat, round_, mine=mine, theirs=theirs, deals=n,
                                    seed=seed, policies=pols, calls=calls, objective=objective,
                                    threads=threads, progress=step))
    return Bracket(tuple(plays), results, time.perf_counter() - t0)


BRACKET_ROWS = (  # (CallStats field, row name): the rates that say how a call ends, and its worth
    ("made", "p_made"),
    ("dedans", "p_dedans"),
    ("capot_for", "p_capot_for"),
    ("pit_against", "p_pit_against"),
    ("net_vs_pass", "net_vs_pass"),
)
