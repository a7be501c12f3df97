"""The bracket: one ``take`` question answered by weaker and stronger players, side by side.

Every number of ``take`` is produced by the players that play the hands. The bracket
asks the same question with each play policy of ``plays`` in every seat (by default the
heuristic, net, PIMC and double dummy: the heuristic is what the tables use, net the learned
player at nearly the heuristic's sample size, PIMC the searching one, double dummy the
optimistic end where every seat sees every card), with the same bidding policy and the
same seed, so the sampled deals are the same deals in the same order (the sample stream
does not depend on the play policy; the costly policies use the first ``strong_deals`` of
them). It reports, for each call and policy, P(made), P(dedans), P(capot for), P(pit
against) and the net gain over passing, and whether the verdict (the best call) is the
same under every policy: a verdict that holds under all of them does not hang on how
well the hands are played.

A searching policy plays the first of the deals the heuristic plays, so on those deals
both are known, and the two are strongly correlated (the same cards decide much of both
scores). Each searching number is therefore adjusted by the heuristic's (a control
variate: its mean moved by beta times how far the heuristic's first deals fell from its
whole sample, ``analyzer.runs.stats.control_variate``), which narrows its interval by
sqrt(1 - rho^2) where rho is the deal-by-deal correlation; the plain numbers are kept and
shown beside the adjusted ones.
"""

from __future__ import annotations

import time
from dataclasses import dataclass

from analyzer.errors import BeloteError
from analyzer.players.policies import DEFAULT_PLAY, Policies, deals_by_policy
from analyzer.questions.take import TakeResult, adjust_by_control, analyse_take
from analyzer.rules import Rules
from analyzer.runs.stats import CV_MIN_N

# what the tables use, the learned player (as cheap as a table: every deal), a searching player, all cards seen
BRACKET_PLAYS = ("heuristic", "net", "pimc", "dd")
# default paired deals of the searching policies, by name (the registry's bracket_deals, with why)
STRONG_DEALS = deals_by_policy("bracket_deals")
OTHER_STRONG_DEALS = 500  # a searching policy not named above


@dataclass
class Bracket:
    """One ``TakeResult`` per play policy, on the same situation, bidding and seed."""

    plays: tuple[str, ...]
    results: list[TakeResult]  # adjusted by the control where a run is shorter than it (``control``)
    seconds: float

    def columns(self) -> list[tuple[str, TakeResult]]:
        """(header, result) for display: each policy, and after an adjusted one its plain numbers."""
        out = []
        for p, r in zip(self.plays, self.results):
            if r.control is None:
                out.append((p, r))
            else:
                out.append((f"{p}, adjusted by {r.control.play}", r))
                out.append((f"{p}, plain", r.control.plain))
        return out

    @property
    def best_calls(self) -> list[str]:
        return [r.best.call.label for r in self.results]

    def holds(self) -> bool:
        """The same call is best under every play policy."""
        return len(set(self.best_calls)) == 1

    def verdict(self) -> str:
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


def default_bidders(plays) -> str:
    """The play whose bidders every column of a bracket bids with when none is named: the default player's
    (``DEFAULT_PLAY``) where it is a column, so that its column is the question's own answer; otherwise the
    first column's."""
    return DEFAULT_PLAY if DEFAULT_PLAY in plays else plays[0]


def check_bidders(bidders: str | None, plays) -> str:
    """``--bracket-bidders``: one of the bracket's ``plays`` (default ``default_bidders``), checked."""
    if bidders is None:
        return default_bidders(plays)
    if bidders.strip() not in plays:
        raise BeloteError(f'--bracket-bidders "{bidders}": name one of the bracket\'s players, '
                          f'{", ".join(plays)}')
    return bidders.strip()


def strong_sizes(plays, strong_deals=None) -> dict:
    """Paired deals of each searching policy of ``plays``: ``strong_deals`` is one number for
    all, or ``{name: n}`` (``--bracket-deals pimc=4000,dd=500``; a policy not named keeps its
    ``STRONG_DEALS`` default, by name without parameters)."""
    given = {} if strong_deals is None else strong_deals
    if not isinstance(given, dict):
        given = {p: int(given) for p in plays}
    extra = set(given) - set(plays)
    if extra:
        raise BeloteError(f"--bracket-deals names {', '.join(sorted(extra))}, not among the bracket's policies "
                          f"{', '.join(plays)}")
    for p, v in given.items():
        if v <= 0:
            raise BeloteError(f"--bracket-deals must be a positive number of deals, not {p}={v}")
    return {p: int(given.get(p, STRONG_DEALS.get(p.split(":", 1)[0], OTHER_STRONG_DEALS))) for p in plays}


def analyse_bracket(rules: Rules | None = None, hand=None, turned=None, seat: int = 0, round_: int = 1, *,
                    mine=None, theirs=None, plays=BRACKET_PLAYS, deals: int = 100_000,
                    strong_deals: int | dict | None = None, seed: int = 1, bid: str = "heuristic", calls=None,
                    objective: str = "net", threads: int | None = None, progress=None,
                    control: bool = True, known: dict | None = None, bidders_of: str | None = None) -> Bracket:
    """``take``'s question under each play policy of ``plays`` (in every seat).

    Cheap policies keep ``deals`` paired deals, searching ones (``dd``, ``pimc``) the first
    ``strong_deals`` of the same sample sequence (one number, or by policy; ``strong_sizes``). ``progress(play, done, total)`` is called
    as each policy's run goes. With ``control`` (the default), a searching run's numbers are
    adjusted by the first policy that played every deal (a control variate: the paired
    regression estimator, ``analyzer.runs.stats.control_variate``); its plain numbers are kept
    in ``result.control.plain``. ``known``: ``{play: TakeResult}`` already answered on this
    situation, seed, bidding and calls (the report's own answer), used as they are. ``bidders_of``:
    the play whose bidders every column bids with (``bid`` ``calibrated`` reads the file calibrated for
    that play; default ``default_bidders(plays)``).

    Example::

        >>> b = analyse_bracket(Rules(), "Jh 9h Ah Tc 7s", "Qh", plays=("random", "heuristic"),
        ...                     deals=2_000)  # doctest: +SKIP
        >>> print(b.verdict())  # doctest: +SKIP
    """
    rules = rules or Rules()
    sizes = strong_sizes(plays, strong_deals)
    t0 = time.perf_counter()
    kw = dict(mine=mine, theirs=theirs, seed=seed, calls=calls, objective=objective, threads=threads)
    results, short = [], []
    first = Policies.parse(bid, bidders_of or default_bidders(plays), rules.players)
    for play in plays:
        pols = Policies.parse(bid, play, rules.players).with_bidders_of(first)  # every column bids alike
        n = min(deals, sizes[play]) if pols.searching else deals  # either role
        step = None if progress is None else (lambda done, play=play, n=n: progress(play, done, n))
        if known and play in known:
            results.append(known[play])
        else:
            results.append(analyse_take(rules, hand, turned, seat, round_, deals=n, policies=pols, progress=step,
                                        keep_units=control and pols.searching, **kw))
        short.append(control and pols.searching)
    # the control: the first policy that played every deal; the searching runs played its first ones
    long = next((i for i, s in enumerate(short) if not s), None)
    todo = [] if long is None else [i for i, r in enumerate(results)
                                    if short[i] and CV_MIN_N <= r.n < results[long].n]
    if todo:  # the control's own rows on those deals: one run over the longest of them, sliced
        units = max(len(results[i].unit_rows) for i in todo)
        pols = Policies.parse(bid, plays[long], rules.players).with_bidders_of(first)
        rows = analyse_take(rules, hand, turned, seat, round_, policies=pols, units=units, keep_units=True,
                            **kw).unit_rows
        for i in todo:
            results[i] = adjust_by_control(results[i], results[long], rows[:len(results[i].unit_rows)], plays[long])
    return Bracket(tuple(plays), results, time.perf_counter() - t0)


BRACKET_ROWS = (  # (CallStats field, row name): the rates that say how a call ends, and its worth
    ("made", "p_made"),
    ("dedans", "p_dedans"),
    ("capot_for", "p_capot_for"),
    ("pit_against", "p_pit_against"),
    ("net_vs_pass", "net_vs_pass"),
)
