"""The report's first page: what a player takes away, in sentences written from the report's
own numbers (never typed by hand, so they cannot drift from the tables behind them).

Each finding quotes its number with its 95% interval and links the section it comes from. A
number whose interval does not support the claim is not written as a finding: it is listed
among what the samples leave open, with its interval, so the reader sees why.

The sentences are built from the frames the report already writes (the take examples, the
bidding tables' break-even lines, the balance's seat table, the rule options' differences),
so each function here takes those frames and can be tested on frames made by hand.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import numpy as np
import pandas as pd

from analyzer.errors import BeloteError
from analyzer.output.report_plan import BRACKET_MIN_N
from analyzer.output.take_table import situation_text
from analyzer.output.words import rule_change_text
from analyzer.questions.table import _hon_key
from analyzer.questions.table_bracket import BY, summary_finding

# the questions of the first page, in order, with the section each one's findings link
QUESTIONS = (
    ("take", "Should I take with this hand?"),
    ("when", "From which hand does taking pay?"),
    ("balance", "Is the game fair to every seat, and which variant is the most balanced?"),
    ("rules", "Which house rules change the game?"),
    ("bracket", "Do the answers move with the players, weaker or stronger?"),
)
HONOURS_WORDS = ("Trump honours are written J 9 A 10 in that order, `.` where not held (`J9..`: the jack and the "
                 "nine, not the ace or the ten); the gain quoted is that of the weakest paying class, in net points "
                 "a hand over passing.")
STRENGTH_WORDS = ("*Strength* is the heuristic's hand score for the trump suit: trump J 20, 9 14, A 11, 10 10, K 5, "
                  "Q 4, 8 and 7 2 each, +6 for each trump beyond two, +10 for each side ace, +4 for a side ten with "
                  "its ace, +4 for each void with two trumps, +10 for trump K and Q together.")


@dataclass(frozen=True)
class Finding:
    """One sentence of the first page: ``question`` (a key of ``QUESTIONS``), the variant it is
    about ("" for all), ``text`` (with its number and interval), ``link`` (the anchor of the
    section behind it), and whether the interval supports it (``supported``: else it is listed
    among what the samples leave open)."""

    question: str
    variant: str
    text: str
    link: str
    supported: bool = True


def _ci(m, lo, hi, unit: str = "", digits: int = 1) -> str:
    return f"{m:+.{digits}f}{unit} [{lo:+.{digits}f}, {hi:+.{digits}f}]"


def _pct(p, lo, hi) -> str:
    return f"{100 * p:.1f}% [{100 * lo:.1f}, {100 * hi:.1f}]"


def take_findings(take: pd.DataFrame, link: str) -> list[Finding]:
    """One finding per example of the take section (``take``: the rows of ``take_examples.csv``,
    one per call, with ``example``, ``variant`` and ``situation``): the best call other than
    passing against passing, in net points a hand, with its chances of being made and of going
    dedans; supported where the interval of the gain excludes 0."""
    out = []
    for _, rows in take.groupby("example", sort=True):
        calls = rows[rows["call"] != "pass"]
        if calls.empty:
            continue
        best = calls.loc[calls["net_vs_pass"].idxmax()]
        where = f"{best['situation']}"
        gain = _ci(best["net_vs_pass"], best["net_vs_pass_lo"], best["net_vs_pass_hi"])
        odds = (f"our side makes it in {_pct(best['p_made'], best['p_made_lo'], best['p_made_hi'])} of the deals "
                f"and goes dedans in {_pct(best['p_dedans'], best['p_dedans_lo'], best['p_dedans_hi'])} "
                f"(n={int(best['n']):,} paired deals)")
        if best["net_vs_pass_lo"] == best["net_vs_pass_hi"] == 0:
            out.append(Finding("take", str(best["variant"]), f"**Either** — {where}: taking ({best['call']}) and "
                               "passing lead to the same hands on every deal (passing ends in the same contract), so "
                               f"they are worth the same (n={int(best['n']):,} paired deals).", link))
            continue
        if best["net_vs_pass_lo"] > 0:
            text = f"**Take** ({best['call']}) — {where}: it gains {gain} net points a hand over passing; {odds}."
        elif best["net_vs_pass_hi"] < 0:
            text = (f"**Pass** — {where}: the best other call, {best['call']}, makes {gain} net points a hand against "
                    f"passing; {odds}.")
        else:
            text = (f"{where}: taking ({best['call']}) against passing, {gain} net points a hand, is inside the noise "
                    f"({odds}).")
        out.append(Finding("take", str(best["variant"]), text, link, bool(best["net_vs_pass_lo"] > 0
                                                                            or best["net_vs_pass_hi"] < 0)))
    return out


def when_findings(label: str, break_even: pd.DataFrame, strength: pd.DataFrame, link: str) -> list[Finding]:
    """Per round of a variant's bidding table: the strength from which taking pays on average
    at each seat (``break_even``: ``TableResult.break_even()``), and how often a hand at that
    strength goes dedans when taken (``strength``: ``TableResult.strength()``, by seat). A
    seat whose break-even line has no bin with enough decisions is left out; a round with no
    such seat is a question left open."""
    out = []
    for rnd, rows in break_even.groupby("round", sort=True):
        seats = rows[(rows["seat"] != "all") & rows["break_even"].notna()]
        word = "round 1 (the turned suit)" if rnd == 1 else "round 2 (a suit of one's choice)"
        if seats.empty:
            out.append(Finding("when", label, f"{label}, {word}: too few decisions at any strength to say where "
                                              "taking starts to pay.", link, False))
            continue
        parts = []
        for r in seats.itertuples():
            sure = (f"beyond the noise from {r.sure_from:.0f}" if np.isfinite(r.sure_from)
                    else "never beyond the noise in these samples")
            parts.append(f"{r.break_even:.0f} at seat {r.seat} ({sure}; the bidders take from {r.policy_threshold:.0f})")
        first = seats.iloc[0]
        risk = ""
        s = strength[(strength["round"] == rnd) & (strength["seat"] == int(first["seat"]))
                     & (strength["strength_lo"] == first["break_even"])]
        if len(s):
            b = s.iloc[0]
            risk = (f" A seat-{first['seat']} hand at the break-even ({b['strength_lo']:.0f}-{b['strength_hi']:.0f}) "
                    f"goes dedans {_pct(b['p_dedans'], b['p_dedans_lo'], b['p_dedans_hi'])} of the times it is taken "
                    f"(n={int(b['n']):,}).")
        out.append(Finding("when", label, f"{label}, {word}: taking pays on average from a strength of "
                                          + "; ".join(parts) + "." + risk, link))
    return out


def class_findings(label: str, classes: pd.DataFrame, link: str, min_n: int = 200) -> list[Finding]:
    """The hands that pay, in a player's terms, per round of a variant's bidding table
    (``classes``: ``TableResult.view(["round", "honours", "side_aces"])``, all seats pooled): for
    each set of trump honours (J 9 A 10, ``.`` where not held), the fewest side aces from which
    taking gains beyond the noise in every class with at least ``min_n`` decisions. A round
    where no class pays beyond the noise is said so."""
    out = []
    for rnd, rows in classes.groupby("round", sort=True):
        rows = rows[rows["n"] >= min_n]
        pays = []
        for hon in sorted(rows["honours"].unique(), key=_hon_key):
            h = rows[rows["honours"] == hon].sort_values("side_aces")
            ok = (h["gain_net_lo"] > 0).to_numpy()
            start = None
            for k in range(len(h) - 1, -1, -1):  # the longest run of paying classes up to the most aces
                if not ok[k]:
                    break
                start = k
            if start is not None:
                first = h.iloc[start]
                n = int(h.iloc[start:]["n"].sum())
                pays.append(f"`{hon}` with {int(first['side_aces'])}+ side aces (from {first['gain_net']:+.0f} "
                            f"[{first['gain_net_lo']:+.0f}, {first['gain_net_hi']:+.0f}], n={n:,})")
        word = "round 1" if rnd == 1 else "round 2"
        if pays:
            out.append(Finding("when", label, f"{label}, {word}: taking pays beyond the noise with trump "
                                              + "; ".join(pays) + ".", link))
        else:
            out.append(Finding("when", label, f"{label}, {word}: no class of trump honours and side aces with "
                                              f"n ≥ {min_n} gains beyond the noise.", link, False))
    return out


def _abs_interval(m, lo, hi) -> tuple[float, float, float]:
    """|x| and an interval for it from x's interval."""
    if lo <= 0 <= hi:
        return abs(m), 0.0, max(abs(lo), abs(hi))
    return abs(m), min(abs(lo), abs(hi)), max(abs(lo), abs(hi))


def balance_findings(seats: pd.DataFrame, link: str) -> list[Finding]:
    """From the balance's seat table (``BalanceResult.seat_table()``): per variant, the seat
    whose side gains most over the others a hand (supported where its interval excludes 0);
    and, by the measure "how far the starting seat's chance of winning a game lies from a fair
    share", the least and the most balanced variant (said only where their intervals part)."""
    out = []
    gaps = []
    for label, rows in seats.groupby("variant", sort=False):
        top = rows.loc[rows["advantage"].abs().idxmax()]
        adv = _ci(top["advantage"], top["advantage_lo"], top["advantage_hi"])
        ok = bool(top["advantage_lo"] > 0 or top["advantage_hi"] < 0)
        text = (f"{label}: the side of seat {int(top['seat'])} ({top['seat_name']}), the seat furthest from even, "
                f"averages {adv} points a hand against the others (n={int(top['hands']):,} hands)"
                + ("." if ok else ": inside the noise."))
        out.append(Finding("balance", label, text, link, ok))
        if "p_win" in rows and rows["p_win"].notna().any():
            w = rows.loc[(rows["p_win"] - rows["p_win_fair"]).abs().idxmax()]
            gap = _abs_interval(w["p_win"] - w["p_win_fair"], w["p_win_lo"] - w["p_win_fair"], w["p_win_hi"] - w["p_win_fair"])
            gaps.append((label, w, gap))
    if len(gaps) >= 2:
        gaps.sort(key=lambda g: g[2][0])
        most, least = gaps[0], gaps[-1]

        def said(g):
            label, w, _ = g
            return (f"{label} (seat {int(w['seat'])}'s side wins {_pct(w['p_win'], w['p_win_lo'], w['p_win_hi'])} of "
                    f"{int(w['games']):,} games, against a fair {100 * w['p_win_fair']:.1f}%)")

        parted = least[2][1] > most[2][2]
        text = (f"By how far a seat's chance of winning a game lies from its fair share, the least balanced variant is "
                f"{said(least)} and the most balanced {said(most)}"
                + ("." if parted else ": their intervals overlap, so the ranking is not established."))
        out.append(Finding("balance", "", text, link, parted))
    return out


def other_balance_findings(seats: pd.DataFrame, alt: pd.DataFrame, link: str, play: str = "net",
                           other: str = "heuristic") -> list[Finding]:
    """From the balance's seat tables under the report's player ``play`` (``seats``) and under the other
    cheap player ``other`` (``alt``, the bracket section's ``balance_<other>_seats.csv``): per variant, the
    seat furthest from even under ``play`` and its side's advantage under ``other``. Said to change side
    where both intervals exclude 0 with opposite signs; otherwise ``other``'s figure, supported where its
    interval excludes 0."""
    out = []
    for label, rows in seats.groupby("variant", sort=False):
        mine = alt[alt["variant"] == label]
        if not len(mine):
            continue
        h = rows.loc[rows["advantage"].abs().idxmax()]
        n = mine[mine["seat"] == h["seat"]].iloc[0]
        h_sig = bool(h["advantage_lo"] > 0 or h["advantage_hi"] < 0)
        n_sig = bool(n["advantage_lo"] > 0 or n["advantage_hi"] < 0)
        was = (f"{_ci(h['advantage'], h['advantage_lo'], h['advantage_hi'])} with the {play} players "
               f"(n={int(h['hands']):,} hands)")
        now = (f"{_ci(n['advantage'], n['advantage_lo'], n['advantage_hi'])} under {other} "
               f"(n={int(n['hands']):,} hands)")
        who = f"seat {int(h['seat'])} ({h['seat_name']})"
        if h_sig and n_sig and (h["advantage"] > 0) != (n["advantage"] > 0):
            text = f"{label}: under {other} the edge changes side: {who}'s side averages {now}, against {was}."
        else:
            text = (f"{label}: {who}'s side averages {now}, against {was}"
                    + ("." if n_sig else f": under {other}, inside the noise."))
        out.append(Finding("bracket", label, text, link, n_sig))
    return out


def rules_findings(diffs: pd.DataFrame, link: str, per_option: int = 2) -> list[Finding]:
    """From the rule options' differences (``ImpactResult.table()``, kind ``option``): per
    variant and option, its largest effects beyond the noise (at most ``per_option``, by
    standardised size), and the options that change nothing measured beyond the noise. An
    option with no more statistics beyond the noise than chance alone gives (one in twenty
    of those measured, at least one) is left open: its effect is not established."""
    out = []
    opts = diffs[diffs["kind"] == "option"]
    for label, rows in opts.groupby("variant", sort=False):
        quiet = []
        for comp, c in rows.groupby("comparison", sort=False):
            if {"option", "a_value", "b_value"} <= set(c.columns):  # the rule by its name, its code key after it
                first = c.iloc[0]
                named = rule_change_text(first["option"], first["a_value"], first["b_value"])
                comp = f"{named}, `{comp}`" if named else comp
            moved = c[c["beyond_noise"]].sort_values("size", ascending=False).head(per_option)
            if moved.empty:
                quiet.append(comp)
                continue
            effects = "; ".join(f"{r.label} {_ci(r.diff, r.lo, r.hi, digits=2)} {r.unit}".rstrip() for r in moved.itertuples())
            k, n = int(c["beyond_noise"].sum()), len(c)
            chance = k <= max(1, round(0.05 * n))  # no more than 1 in 20 of the statistics: what chance alone gives
            out.append(Finding("rules", label, f"{label}, {comp}: {effects} ({k} of {n} statistics beyond the noise"
                                               + (", no more than chance alone would give)." if chance else ")."),
                               link, not chance))
        if quiet:
            out.append(Finding("rules", label, f"{label}: " + ", ".join(quiet) + " change no measured statistic beyond "
                                                                               "the noise.", link, False))
    return out


def bracket_rows(brackets) -> pd.DataFrame:
    """One row per example and play policy of the report's bracket (``Bracket`` objects, in the
    examples' order): the best call, the best call other than passing against passing (net
    points, adjusted where a control was used), and whether the best beat the runner-up."""
    rows = []
    for k, b in enumerate(brackets, start=1):
        for play, r in zip(b.plays, b.results):
            calls = [c for c in r.calls if c.call.label != "pass"]
            take = max(calls, key=lambda c: c.net_vs_pass.mean)
            rows.append({"example": k, "situation": situation_text(r.situation), "play": play, "n": r.n,
                         "best": r.best.call.label, "beyond_noise": bool(r.beats_runner_up), "call": take.call.label,
                         "gain": take.net_vs_pass.mean, "gain_lo": take.net_vs_pass.lo, "gain_hi": take.net_vs_pass.hi,
                         "adjusted": r.control is not None})
    return pd.DataFrame(rows)


def bracket_findings(rows: pd.DataFrame, link: str) -> list[Finding]:
    """Per example (``bracket_rows``): does its verdict hold under every play policy of the
    bracket? Supported where the same call is best under each, beyond the noise under each;
    a verdict that changes is a finding too (the answer hangs on how well the hands are
    played) where the changed verdicts are each beyond the noise."""
    out = []
    for _k, g in rows.groupby("example", sort=True):
        where = g["situation"].iloc[0]
        parts = ", ".join(f"{r.play} {r.best.upper()} ({r.call} {_ci(r.gain, r.gain_lo, r.gain_hi)} against passing"
                          f"{', adjusted' if r.adjusted else ''}, n={int(r.n):,})" for r in g.itertuples())
        sure = bool(g["beyond_noise"].all())
        if ((g["gain"] == 0) & (g["gain_lo"] == 0) & (g["gain_hi"] == 0)).all():
            out.append(Finding("bracket", "", f"{where}: taking and passing lead to the same hands under every player "
                                              f"({', '.join(g['play'])}): worth the same.", link))
            continue
        if g["best"].nunique() == 1:
            noisy = ", ".join(g.loc[~g["beyond_noise"].astype(bool), "play"])
            text = (f"{where}: the verdict holds under every player: {parts}."
                    if sure else f"{where}: the same best call under every player, inside the noise under {noisy}: "
                                 f"{parts}.")
        else:
            text = f"{where}: the verdict moves with the players: {parts}."
        out.append(Finding("bracket", "", text, link, sure))
    return out


def table_bracket_findings(label: str, summary: pd.DataFrame, plays, by, min_n: int, link: str) -> list[Finding]:
    """A bidding table's bracket (``TableBracket.summary()``: a verdict per class and play
    policy), in the bracket's own sentence: how many classes hold, flip and stay unclear, and
    each flip. Supported where some class has enough decisions under every player."""
    return [Finding("bracket", label, f"{label} bidding table: " + summary_finding(summary, plays, by, min_n), link,
                    not summary.empty)]


def markdown(findings: list[Finding], links: dict[str, str], pictures: dict[str, str] | None = None) -> list[str]:
    """The first page: each question with its findings (linked to their section), then what the
    samples leave open, and its picture (``pictures``: question -> file name)."""
    out = ["## What a player takes away", "",
           "Every sentence below is written by the report from its own numbers (95% intervals, n as in the "
           "sections it links); a number whose interval does not support a claim is listed as open, not as a "
           "finding.", ""]
    for key, title in QUESTIONS:
        mine = [f for f in findings if f.question == key]
        if not mine:
            continue
        out += [f"**{title}** ([details]({links[key]}))", ""]
        said = [f for f in mine if f.supported]
        open_ = [f for f in mine if not f.supported]
        out += [f"- {f.text}" for f in said] or ["- No finding: every number here is inside the noise."]
        if open_:
            out += ["- Left open by these samples:"] + [f"    - {f.text}" for f in open_]
        if key == "when":
            out += ["", STRENGTH_WORDS, "", HONOURS_WORDS]
        if pictures and key in pictures:
            out += ["", f"![{title}]({pictures[key]})"]
        out.append("")
    return out


# the columns each file of a report must have for its findings to be rebuilt (``from_folder``)
_NEEDS = {
    "take": ("example", "variant", "situation", "call", "n", "net_vs_pass", "net_vs_pass_lo", "net_vs_pass_hi",
             "p_made", "p_made_lo", "p_made_hi", "p_dedans", "p_dedans_lo", "p_dedans_hi"),
    "break_even": ("round", "seat", "break_even", "sure_from", "policy_threshold"),
    "strength": ("round", "seat", "strength_lo", "strength_hi", "n", "p_dedans", "p_dedans_lo", "p_dedans_hi"),
    "classes": ("round", "honours", "side_aces", "n", "gain_net", "gain_net_lo", "gain_net_hi"),
    "seats": ("variant", "seat", "seat_name", "hands", "advantage", "advantage_lo", "advantage_hi"),
    "rules": ("variant", "comparison", "kind", "label", "unit", "diff", "lo", "hi", "beyond_noise", "size"),
    "bracket": ("example", "situation", "play", "n", "best", "beyond_noise", "call", "gain", "gain_lo", "gain_hi",
                "adjusted"),
    "table_bracket": ("round", "bracket"),
    # the summary's (analyzer.output.summary.from_folder)
    "seat_classes": ("round", "seat", "honours", "side_aces", "n", "gain_net", "gain_net_lo", "gain_net_hi"),
    "games": ("variant", "seat", "p_win", "p_win_lo", "p_win_hi", "games", "p_win_fair"),
    "impact": ("variant", "comparison", "option", "kind", "a_value", "b_value", "statistic", "label", "unit", "diff",
               "lo", "hi", "beyond_noise", "size"),
}


def _read(path, kind: str, empty_ok: bool = False, **kw) -> pd.DataFrame:
    """A report's table read back, refused in one line naming it when it is not one the report
    wrote (unreadable, or without the columns its findings quote)."""
    try:
        df = pd.read_csv(path, **kw)
    except pd.errors.EmptyDataError:
        if empty_ok:  # a table bracket with no class of enough decisions: the file has no columns
            return pd.DataFrame()
        raise BeloteError(f"{path}: empty, not a table the report wrote: write the report again") from None
    except (OSError, ValueError, pd.errors.ParserError) as e:
        raise BeloteError(f"{path}: cannot be read as a report table ({str(e).splitlines()[0]}): "
                          "write the report again") from None
    missing = [c for c in _NEEDS[kind] if c not in df.columns]
    if missing:
        raise BeloteError(f"{path}: not a table the report wrote (no column {', '.join(missing)}): "
                          "write the report again")
    return df


def from_folder(folder, links: dict[str, str]) -> list[Finding]:
    """The findings of a written report, from the tables it wrote (``take_examples.csv``, each
    variant's ``table_<label>_break_even.csv``, ``_strength.csv`` and ``_honours_aces.csv``,
    ``balance_seats.csv``, ``rules_impact.csv``, ``bracket_examples.csv``,
    ``table_bracket_<label>_summary.csv``): the same sentences as its first page (the README
    quotes one). A file that is not as the report wrote it is refused in one line naming it."""
    folder = Path(folder)
    found = take_findings(_read(folder / "take_examples.csv", "take"), links["take"])
    seats = _read(folder / "balance_seats.csv", "seats")
    for label in dict.fromkeys(seats["variant"]):
        be = folder / f"table_{label}_break_even.csv"
        if be.exists():
            found += when_findings(label, _read(be, "break_even", dtype={"seat": str}),
                                   _read(folder / f"table_{label}_strength.csv", "strength"), links["when"])
            found += class_findings(label, _read(folder / f"table_{label}_honours_aces.csv", "classes"), links["when"])
    found += balance_findings(seats, links["balance"])
    found += rules_findings(_read(folder / "rules_impact.csv", "rules"), links["rules"])
    if (folder / "bracket_examples.csv").exists():
        found += bracket_findings(_read(folder / "bracket_examples.csv", "bracket"), links["bracket"])
    for other, play in (("net", "heuristic"), ("heuristic", "net")):  # the report played by play, the bracket's other
        if (folder / f"balance_{other}_seats.csv").exists():
            found += other_balance_findings(seats, _read(folder / f"balance_{other}_seats.csv", "seats"),
                                            links["bracket"], play, other)
    for path in sorted(folder.glob("table_bracket_*_summary.csv")):
        label = path.name[len("table_bracket_"):-len("_summary.csv")]
        summary = _read(path, "table_bracket", empty_ok=True)
        plays = [c[len("verdict_"):] for c in summary.columns if c.startswith("verdict_")]
        found += table_bracket_findings(label, summary, plays, BY, BRACKET_MIN_N, links["bracket"])
    return found


__all__ = ["Finding", "from_folder", "class_findings", "bracket_rows", "bracket_findings", "table_bracket_findings",
           "QUESTIONS", "take_findings", "when_findings", "balance_findings", "other_balance_findings", "rules_findings",
           "markdown"]
