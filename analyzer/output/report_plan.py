"""What a report runs and what it costs: its example hands, its sizes (``Sizes``, from one ``deals``
figure and its player), the planned CPU seconds of each part (``planned_seconds``, ``bracket_plan``) and
the progress bar that moves by them (``CostProgress``). ``analyzer.output.report`` runs the parts."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from analyzer.errors import BeloteError
from analyzer.output.files import impact_sizes
from analyzer.players.policies import DEFAULT_PLAY, FAST_PLAY, searches
from analyzer.questions.balance import HANDS_PER_GAME
from analyzer.questions.impact import CHOICE_HANDS, total_units
from analyzer.questions.table_bracket import HANDS_PER_DEAL, HANDS_PER_S, default_plays
from analyzer.questions.take import open_calls
from analyzer.rules import ALL_LABELS, Rules
from analyzer.rules.cards import parse_card

REPORT_PLAYS = (DEFAULT_PLAY, FAST_PLAY)  # the play policy of sections 1-5, every seat: net (the default) or heuristic
# The report's size by its player (``--deals``: hands a variant of the balance; the other parts follow,
# ``Sizes``). A net hand costs about fifteen heuristic ones, so net's report plays fewer: 1,200,000 keeps its
# whole run near 8 minutes on 2 cores and its intervals (the examples' net gains, the seats' advantages) at
# most 1.5 times as wide as the heuristic report's at 2,000,000 (``scripts/studies/report_widths.py``; figures:
# docs/PERFORMANCE.md).
DEALS_BY_PLAY = {"heuristic": 2_000_000, "net": 1_200_000}
DEFAULT_DEALS = DEALS_BY_PLAY[DEFAULT_PLAY]
MIN_EFFECT_DEALS = 40  # the batch-means blocks (impact.MIN_BLOCKS) and the duplicate match's blocks need one each


@dataclass(frozen=True)
class Example:
    """A ``take`` question for the report: what the player sees, and why it is instructive."""

    label: str  # classic, piekjas3, ...
    why: str
    turned: str
    hand: str | None = None
    seat: int = 0
    round: int = 1
    mine: str | None = None
    theirs: str | None = None


EXAMPLES = (
    Example("classic", "Trump J 9 A and a side 10: the textbook take.", "Qh", "Jh 9h Ah Tc 7s"),
    Example("classic", "The rule of thumb: trump J and 9 plus one side ace.", "7h", "Jh 9h Ac Kd 8s"),
    Example("classic", "Trump J and A, no 9, as dealer after three passes.", "Qh", "Jh Ah 8c Kd 7s", seat=3),
    Example("classic", "Nothing: low cards, no trump.", "Kh", "7c 8d 9s Qd 8s"),
    Example("classic", "Round 2: which suit, if any, after everyone passed the diamonds?", "Td", "Js 9s As 7h 8c",
            seat=1, round=2),
    Example("piekjas3", "Three players: the trump 7 (Dix) and the J 9 of trump, voorhand.", "Th", "Jh 9h 7h Ac 8c Kd"),
    Example("piekjas2", "Two players: take, pass, or smous with a middling hand?", "8s", "Js Qs Ks 9d Ad 7c", seat=1),
    Example("piekjas4", "Four players, no partners: trump J and 9 and a side ace, third to bid.", "8d", "Jd 9d Ac 7s Kh",
            seat=2),
    Example("dekjas", "Dekjas: eight face-up cards each, the dealer's last one turned.", "Qh",
            mine="Jh 9h Ah Ac Tc 7d 8s Ks", theirs="7c 8c 9c Qd Kd Ad Ts Qh"),
)


@dataclass
class Sizes:
    """How much each part simulates, derived from one ``deals`` figure."""

    deals: int  # balance: hands per variant
    table_deals: int  # table: deals per variant
    games: int  # balance: games per variant
    take_deals: int  # take: paired deals per example
    effect_deals: int  # what calibration changes: hands per reading, and deals of the duplicate match
    effect_games: int  # what calibration changes: games per reading
    bracket_deals: dict  # the bracket: paired deals per example of each searching policy ({"pimc": n, "dd": n})
    bracket_table_deals: dict  # the bracket: deals of the classic bidding table of each searching policy
    net_balance_deals: int = 0  # the bracket: hands per variant of the balance under net
    net_balance_games: int = 0  # the bracket: games per variant of the balance under net

    @classmethod
    def from_deals(cls, deals: int, full: int = DEFAULT_DEALS) -> "Sizes":
        """The sizes of a report of ``deals`` hands a variant; the bracket's searching samples are their
        full size at ``full`` (the report's default for its player) and above, smaller below."""
        if deals <= 0:
            raise BeloteError(f"--deals must be a positive number of hands, not {deals}")
        return cls(deals=deals, table_deals=max(1, deals // 2), games=max(1, deals // 40),
                   take_deals=max(1, deals // 20), effect_deals=max(MIN_EFFECT_DEALS, deals // 20),
                   effect_games=max(1, deals // 200), bracket_deals=_scaled(BRACKET_DEALS, deals, full),
                   bracket_table_deals=_scaled(BRACKET_TABLE_DEALS, deals, full),
                   net_balance_deals=max(1, deals // NET_BALANCE_SHARE),
                   net_balance_games=max(1, deals // (40 * NET_BALANCE_SHARE)))


def _scaled(sizes: dict, deals: int, full: int = DEFAULT_DEALS) -> dict:
    """The bracket's ``sizes`` at ``deals`` (as given at ``full`` and above; at least 5)."""
    return {play: max(5, min(n, n * deals // full)) for play, n in sizes.items()}


# Hands simulated per unit of each part, measured on a report (``make_report(deals=40000,
# seed=1)``, its run.json's hands_simulated): they turn the sizes into the hands a report will simulate.
TAKE_HANDS_PER_CALL = 1.30  # take: hands per paired deal and call compared (pass included)
TABLE_HANDS_PER_DEAL = 5.33  # table: hands per deal (every decision played taking and passing)
# What each part of a report costs, in CPU seconds on one thread: a fixed cost per run of the
# part (an example, a variant's table, ...: policies, small blocks, files and plots), fitted to two small
# reports of the same examples and variants (``make_report(deals=D, seed=2, threads=1, examples=(EXAMPLES[0],
# EXAMPLES[6]), variants=("classic", "piekjas2"))`` at D = 4,000 and 40,000), and a cost per planned hand,
# fitted on a default heuristic report on an idle machine (each section's CPU seconds in run.json's timings,
# less its fixed costs, over the hands it simulated). How these were measured: docs/BENCHMARKS.md.
FIXED_SECONDS = {"take": 0.21, "table": 1.0, "balance": 0.66, "calibration": 0.64, "rules": 0.91, "score": 1.0}
MICROS_PER_HAND = {"take": 0.25, "table": 1.05, "balance": 1.05, "calibration": 1.31, "rules": 1.46, "score": 1.05}
# The bracket's searching players are priced by their own rates (``bracket_plan``, from
# ``table_bracket.HANDS_PER_S``: wall rates on a loaded machine) times this measured ratio of CPU to plan
# (a default net report's bracket: its CPU less its cheap columns', against its plan): 0.22 × 0.22. A
# bracket hand costs thousands of balance hands, so the progress bar weighs the parts by planned seconds,
# not by hands.
BRACKET_CPU_PER_PLANNED = 0.22 * 0.22
# The same per hand when net plays the part (the default report, and the bracket's net columns of a heuristic
# one), fitted on a default net report (1,200,000 deals) the same way.
NET_MICROS_PER_HAND = {"take": 17.2, "table": 19.6, "balance": 20.3, "calibration": 19.5, "rules": 18.1,
                       "score": 20.3}  # score: priced as balance's hands until a report measures it
# The balance of the variants under net plays a tenth of the heuristic's hands and games: its
# whole sample would cost twelve times the heuristic's section (about 400 CPU s at the default
# sizes, the whole report's CPU again), and a tenth still gives each seat's advantage to about
# ±0.4 points and its P(win) to about ±1.4%, the intervals shown.
NET_BALANCE_SHARE = 10
# The rule options' section also logs and replays a sample of hands (``impact.choice_table``):
# 6.1 CPU s for 500 hands a reading in all five variants, both bidders.
CHOICE_SECONDS_PER_HAND = 6.1 / (500 * 5)  # per hand of the sample and variant
# The bracket's searching samples (at the default 2,000,000 deals; fewer below): pimc costs
# milliseconds a hand, classic dd a third of a second on this loaded machine, so each gets its
# own small size, its n shown; the section's measured cost is written in the report.
# pimc's 2,000 deals an example cost seconds (about a millisecond a hand) and, adjusted by the
# heuristic on the same deals, give its net gain to about ±7 points in classic.
BRACKET_DEALS = {"pimc": 2000, "dd": 24}  # paired deals per example
BRACKET_TABLE_DEALS = {"pimc": 2000, "dd": 50}  # deals of the classic table
BRACKET_MIN_N = 15  # its classes shown: fewer decisions than the CLI's 30, wide intervals shown as they are


def planned_seconds(sizes: Sizes, examples, variants, play: str = DEFAULT_PLAY) -> list[tuple[str, float]]:
    """The parts of a report in the order they run and about how long each takes on one thread,
    as ``(kind, seconds)``: each example, each variant's table, balance, what calibration
    changes, what the rule options change (``FIXED_SECONDS`` + ``MICROS_PER_HAND`` × the hands
    each is expected to simulate; the rule options' replayed sample too), and the bracket (``bracket_plan``)."""
    plan = []
    for ex in examples:
        calls = len(open_calls(Rules.from_label(ex.label), parse_card(ex.turned), ex.round))
        plan.append(("take", sizes.take_deals * calls * TAKE_HANDS_PER_CALL))
    plan += [("table", sizes.table_deals * TABLE_HANDS_PER_DEAL)] * len(variants)
    plan.append(("balance", len(variants) * (sizes.deals + sizes.games * HANDS_PER_GAME)))
    duel = sum(sizes.effect_deals * (2 if Rules.from_label(lab).partners else Rules.from_label(lab).players)
               for lab in variants)  # an upper bound: no duplicate match where the bidders are the same
    plan.append(("calibration", len(variants) * 2 * (sizes.effect_deals + sizes.effect_games * HANDS_PER_GAME) + duel))
    hands, games = impact_sizes(sizes.deals)
    plan.append(("rules", total_units(variants, None, 1, 0) * (hands + games * HANDS_PER_GAME)))
    seconds = [(kind, FIXED_SECONDS[kind] + _hand_micros(kind, play) * 1e-6 * h) for kind, h in plan]
    seconds[-1] = ("rules", seconds[-1][1] + len(variants) * min(CHOICE_HANDS, hands) * CHOICE_SECONDS_PER_HAND)
    bracket = sum(sec for _, _, sec in bracket_plan(sizes, examples, variants, threads=1, play=play))
    games, per_region = score_sizes(sizes)
    score = len(variants) * (FIXED_SECONDS["score"] + _hand_micros("score", play) * 1e-6 * (
        games * HANDS_PER_GAME + 12 * per_region))
    return seconds + [("bracket", bracket), ("score", score)]


def search_seconds(play: str, label: str, hands: float, threads: int = 2) -> float:
    """About how long ``hands`` hands of the searching policy ``play`` take in ``label``
    (``table_bracket.HANDS_PER_S``, per thread)."""
    rate = HANDS_PER_S.get((play.split(":", 1)[0], label), HANDS_PER_S[("pimc", "classic")])
    return hands / (rate * threads)


def bracket_columns(label: str) -> tuple[str, ...]:
    """Every play policy of an example's bracket, weakest first: heuristic, net, pimc, and dd where it is
    affordable (``table_bracket.default_plays``)."""
    return default_plays(Rules.from_label(label))[0]


def other_cheap(play: str) -> str:
    """The other cheap player of the bracket beside the report's ``play``: the heuristic under net, net
    under the heuristic."""
    return FAST_PLAY if play == DEFAULT_PLAY else DEFAULT_PLAY


def _hand_micros(kind: str, play: str) -> float:
    """Microseconds of one thread a hand of the report's part ``kind`` played by ``play`` (a cheap one)."""
    return NET_MICROS_PER_HAND[kind] if play == "net" else MICROS_PER_HAND[kind]


def bracket_plan(sizes: Sizes, examples, variants, threads: int = 2,
                 play: str = DEFAULT_PLAY) -> list[tuple[str, float, float]]:
    """The bracket section's runs, their expected hands and CPU seconds spread over ``threads``
    threads: ``(name, hands, seconds)`` per example and policy other than the report's ``play``, and the
    classic table's. A searching policy plays its own small sample (``search_seconds`` ×
    ``BRACKET_CPU_PER_PLANNED``), the other cheap one every deal of the part (``_hand_micros``)."""
    def cheap(kind, hands, p):
        return hands * _hand_micros(kind, p) * 1e-6 / threads

    plan = []
    for k, ex in enumerate(examples):
        calls = len(open_calls(Rules.from_label(ex.label), parse_card(ex.turned), ex.round))
        for p in bracket_columns(ex.label):
            if p == play:
                continue
            if searches(p):
                hands = sizes.bracket_deals[p] * calls * TAKE_HANDS_PER_CALL
                sec = BRACKET_CPU_PER_PLANNED * search_seconds(p, ex.label, hands, threads)
            else:
                hands = sizes.take_deals * calls * TAKE_HANDS_PER_CALL
                sec = cheap("take", hands, p)
            plan.append((f"example {k + 1} {p}", hands, sec))
    if "classic" in variants:
        for p in default_plays(Rules())[0]:
            if p == play:
                continue
            if searches(p):
                hands = sizes.bracket_table_deals[p] * HANDS_PER_DEAL[2]
                sec = BRACKET_CPU_PER_PLANNED * search_seconds(p, "classic", hands, threads)
            else:
                hands = (sizes.table_deals + max(sizes.bracket_table_deals.values())) * TABLE_HANDS_PER_DEAL
                sec = cheap("table", hands, p)
            plan.append((f"classic table {p}", hands, sec))
    if variants:
        other = other_cheap(play)
        deals, games = other_balance_sizes(sizes, other)
        hands = len(variants) * (deals + games * HANDS_PER_GAME)
        plan.append((f"balance {other}", hands,
                     FIXED_SECONDS["balance"] * len(variants) / threads + cheap("balance", hands, other)))
    return plan


def other_balance_sizes(sizes: Sizes, other: str) -> tuple[int, int]:
    """Hands and games a variant of the bracket's balance under the other cheap player ``other``: net plays
    a tenth of the heuristic report's (``NET_BALANCE_SHARE``), the heuristic as many as net played."""
    if other == "net":
        return sizes.net_balance_deals, sizes.net_balance_games
    return sizes.deals, sizes.games


class CostProgress:
    """A report's progress in expected seconds (``planned_seconds``): each part owns a fixed
    slice of the total, its expected cost, and moves only within it, so the fraction never
    goes back (a part that simulated more or fewer hands than planned does not re-scale the
    parts before it) and the rate the bar measures is the same in every part, which is what
    its ETA assumes. ``progress(done, total)`` in milliseconds of the plan."""

    def __init__(self, plan: list[tuple[str, float]], progress=None):
        self.ends = np.cumsum([max(sec, 1e-3) for _, sec in plan]) * 1000  # the slices' ends, in ms
        self.progress = progress
        self.part, self.done = 0, 0

    def tick(self, frac: float) -> None:
        """The current part is ``frac`` done."""
        if self.progress is None or self.part >= len(self.ends):
            return
        start = self.ends[self.part - 1] if self.part else 0.0
        now = int(start + (self.ends[self.part] - start) * min(1.0, max(0.0, frac)))
        self.done = max(self.done, now)  # a part's own count may restart (one run per example, per play)
        self.progress(self.done, int(self.ends[-1]))

    def next(self) -> None:
        """The current part is finished."""
        self.tick(1.0)
        self.part += 1


def default_name(deals: int | None, seed: int, bid: str | None = None, variants=None, play: str | None = None) -> str:
    """``report-deals900k-seed1``: named after its parameters and seed (``deals`` None: the player's default;
    ``-playheuristic`` when the players are not the default ones, ``-bidheuristic`` when the bidders are not
    the default calibrated ones, ``-classic-piekjas2`` when it reports on some variants only)."""
    play = play or DEFAULT_PLAY
    deals = DEALS_BY_PLAY.get(play, DEFAULT_DEALS) if deals is None else deals
    some = variants is not None and tuple(variants) != tuple(ALL_LABELS)
    return (f"report-deals{_compact(deals)}-seed{seed}" + (f"-play{play}" if play != DEFAULT_PLAY else "")
            + (f"-bid{bid}" if bid and bid != "calibrated" else "")
            + ("".join(f"-{lab}" for lab in variants) if some else ""))


def examples_for(variants) -> tuple:
    """The built-in examples (``EXAMPLES``) of these variants, for a report on some variants
    only (``report --variant V``); a variant list without one is refused."""
    chosen = tuple(ex for ex in EXAMPLES if ex.label in variants)
    if not chosen:
        have = ", ".join(dict.fromkeys(ex.label for ex in EXAMPLES))
        raise BeloteError(f"report {' '.join('--variant ' + v for v in variants)}: no example hand in these variants; "
                          f"include one of {have}")
    return chosen


def _compact(n: int) -> str:
    for div, suf in ((1_000_000, "M"), (1_000, "k")):
        if n >= div and n % div == 0:
            return f"{n // div}{suf}"
    return str(n)


def score_sizes(sizes: Sizes) -> tuple[int, int]:
    """(real games a variant, states a region) of the take point by score: 10,000 and 20,000 from a
    report of 400,000 hands a variant, less in a smaller one."""
    return min(10_000, max(200, sizes.deals // 40)), min(20_000, max(500, sizes.deals // 20))
