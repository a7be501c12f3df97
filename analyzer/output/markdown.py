"""The questions' results as markdown: every renderer of a result object lives here, in the output
stage (the questions return data: ``analyzer.questions``). ``write_*`` in ``analyzer.output.files``
and the report write these beside the CSV and Parquet tables; the command line prints them."""

from __future__ import annotations

import math

import numpy as np
import pandas as pd

from analyzer.players.policy_files import describe_bid
from analyzer.questions.balance import CONTROL_PLAY, HAND_STATS, _cell
from analyzer.questions.bidding_effect import DUEL_BLOCKS, SHOWN
from analyzer.questions.impact import METHOD, REVISION_STATS, ImpactResult, identical
from analyzer.questions.table import MIN_N, _fmt, _hon_key
from analyzer.questions.table_bracket import STATS, _VERB, class_label
from analyzer.runs import classes as K
from analyzer.runs.fmt import ci_pct, mean_sd
from analyzer.runs.limits import derived_seed
from analyzer.runs.stats import CV_MIN_N


def table_markdown(t, min_n: int = MIN_N, class_tables: bool = True) -> str:
    """The readable tables: net gain of taking by trump honours and side aces (each round,
    all seats; ``class_tables`` False: left out, with the notes on them kept), the
    break-even line and the rule of thumb."""
    r = t.config.rules
    pol = t.config.policies.describe()
    out = [f"### Bidding table: {r.label} ({t.deals:,} deals, seed {t.config.seed}, "
           f"bid={pol['bid']} play={pol['play']})", "",
           f"Bidders (every seat's policy, which the decisions tabulated and the later bids follow): "
           f"{describe_bid(t.config.policies, r)}.", ""]
    v = t.view(["round", "honours", "side_aces"])
    for rnd in sorted(v["round"].unique()):
        sub = v[(v["round"] == rnd) & (v["n"] >= min_n)]
        if sub.empty:
            continue
        if not class_tables:
            for note in t.notes(int(rnd), min_n):
                out += [f"*Note (round {rnd}):* {note}", ""]
            continue
        out.append(f"Round {rnd}, all seats: net gain of taking over passing [95% CI] (n), P(made) when taking "
                   f"(classes with n ≥ {min_n}).")
        out.append("")
        aces = sorted(sub["side_aces"].unique())  # columns with no class are left out
        out.append("| trump J 9 A 10 | " + " | ".join(f"{a} side aces" for a in aces) + " |")
        out.append("|---|" + "---|" * len(aces))
        for hon in sorted(sub["honours"].unique(), key=_hon_key):
            cells = []
            for a in aces:
                c = sub[(sub["honours"] == hon) & (sub["side_aces"] == a)]
                if c.empty:
                    cells.append("")
                else:
                    c = c.iloc[0]
                    cells.append(f"{c.gain_net:+.0f} [{c.gain_net_lo:+.0f}, {c.gain_net_hi:+.0f}] "
                                 f"(n={int(c.n):,}), {100 * c.p_made:.0f}% made")
            out.append(f"| `{hon}` | " + " | ".join(cells) + " |")
        out.append("")
        for note in t.notes(int(rnd), min_n):
            out += [f"*Note:* {note}", ""]
    be = t.break_even(min_n)
    if not be.empty:
        out.append("Break-even: the heuristic strength score from which taking gains (net) in every bin "
                   f"of {K.STR_BIN:g} points with n ≥ {min_n}, and from which the gain is above 0 beyond the noise; "
                   "the policy's threshold for comparison. `n` counts every bidding decision reached in that round "
                   "at that seat (the seat rows add up to `all`); `n in bins` those in the bins with "
                   f"n ≥ {min_n}, from which the lines are read.")
        out.append("")
        out.append("| round | seat | n | n in bins | break-even | sure from | policy threshold |")
        out.append("|---|---|---|---|---|---|---|")
        for row in be.itertuples():
            lines = ("seats differ", "read the seat rows") if row.seats_differ else (row.break_even, row.sure_from)
            out.append(f"| {row.round} | {row.seat} | {row.n:,} | {row.n_bins:,} | {_fmt(lines[0])} | "
                       f"{_fmt(lines[1])} | {_fmt(row.policy_threshold)} |")
        out.append("")
        if be["seats_differ"].any():
            out.append("Where the seats break even at different strengths, the pooled row gives no line: a "
                       "pooled line mixes the seats in the proportions of their decisions and holds for none of "
                       "them (the plot draws each seat's curve there).")
            out.append("")
    out.append("Rule of thumb, \"trump jack and nine, plus one or two aces, is usually enough\":")
    out.append("")
    out.extend(("- " + line) if line.startswith("Round") else line for line in t.rule_of_thumb_finding().split("\n"))
    out.append("")
    return "\n".join(out)


def table_bracket_markdown(b, by=None, min_n: int | None = None) -> str:
    """The side-by-side tables, one per round, and the finding."""
    min_n = b.min_n if min_n is None else min_n
    by = tuple(b.by if by is None else by)
    df = b.frame(by, min_n)
    s = b.summary(by, min_n)
    status = {tuple(r[list(by)]): r["bracket"] for _, r in s.iterrows()} if len(s) else {}
    ref = b.reference
    out = [f"### Bidding-table bracket: {b.rules.label} ({b._sizes()}; seed {b.seed}, "
           f"bid={b.policies[0].describe()['bid']})", ""]
    out.append(f"Bidders (every seat, the same under every play policy): "
               f"{describe_bid(b.policies[0], b.rules)}. Play: each policy in every seat. "
               f"Classes by {', '.join(b for b in by if b != 'round')}, all seats pooled unless named; "
               f"classes with n ≥ {min_n} decisions in the paired sample. Each rate and gain is the policy's own "
               f"table (its n); `vs {ref}` is the paired difference of the net gain from {ref}'s on the same "
               f"decisions of the policy's first deals (n = paired n). Taking pays / loses: the "
               "95% interval of the net gain is above / below 0.")
    if any(b.adjusted(k) for k in range(len(b.plays))):
        out[-1] += (f" A searching policy's rates and gain are adjusted by {ref}'s on the same decisions (a "
                    f"control variate: each moves by how far {ref}'s numbers on those decisions fell from its "
                    f"whole table, which narrows the interval); the plain gain is shown in brackets, and a "
                    f"class with fewer than {CV_MIN_N} shared decisions is left plain.")
    if b.note:
        out += ["", f"*Note:* {b.note}."]
    out.append("")
    for rnd in sorted(df["round"].unique()):
        sub = df[df["round"] == rnd]
        out.append(f"Round {rnd}:")
        out.append("")
        out.append("| class | play | n | " + " | ".join(lab for _, lab in STATS)
                   + f" | net gain of taking | vs {ref}, paired | bracket |")
        out.append("|---|---|---|" + "---|" * len(STATS) + "---|---|---|")
        last = None
        for _, r in sub.iterrows():
            key = tuple(r[list(by)])
            first = key != last
            last = key
            cells = [f"{100 * r[c]:.0f}% [{100 * r[c + '_lo']:.0f}, {100 * r[c + '_hi']:.0f}]" for c, _ in STATS]
            vs = ("" if r["order"] == 0 else
                  f"{r.gain_vs_ref:+.1f} [{r.gain_vs_ref_lo:+.1f}, {r.gain_vs_ref_hi:+.1f}] (n={int(r.vs_n):,})")
            plain = (f" (plain {r.gain_net_plain:+.1f} [{r.gain_net_plain_lo:+.1f}, {r.gain_net_plain_hi:+.1f}])"
                     if r.get("adjusted", False) is True else "")
            out.append(f"| {class_label(r, by) if first else ''} | {r.play} | {int(r.n):,} | " + " | ".join(cells)
                       + f" | {r.gain_net:+.1f} [{r.gain_net_lo:+.1f}, {r.gain_net_hi:+.1f}] {_VERB[r.verdict]}"
                       f"{plain} | {vs} | {status.get(key, '') if first else ''} |")
        out.append("")
    out.append(b.finding(by, min_n))
    out.append("")
    return "\n".join(out)


def balance_bidders_line(b) -> str:
    """One line naming each variant's bidders and play policy (with the policy file's provenance)."""
    return "Bidders: " + "; ".join(
        f"{v.rules.label} {describe_bid(v.hands.config.policies, v.rules)}, play="
        f"{v.hands.config.policies.describe()['play']}" for v in b.variants) + "."


def balance_control_line(b) -> str:
    """One line: what adjusted a searching balance's numbers, on how many hands and games (empty
    without a control)."""
    v = next((v for v in b.variants if v.control is not None), None)
    if v is None:
        return ""
    c = v.control
    games = f" and {c.games.n:,} games" if c.games is not None else ""
    return (f"Searching play: each number is adjusted by the {CONTROL_PLAY} with the same bidders on the same "
            f"deals, which also played {c.hands.config.deals:,} hands{games} a variant (a control variate, the "
            f"paired regression estimator); the plain interval is shown beside where it differs.")


def _plain_note(row, name: str, fmt: str) -> str:
    """`` (plain [lo, hi])`` after a number a control adjusted (``balance``'s ``*_plain``
    columns; ``name`` the value's column, its interval ``<lo>``/``<hi>`` beside it), else ``""``;
    ``fmt``: ``"%"`` a rate, ``"+"`` a signed mean, ``""`` a mean."""
    if not row.get(f"adjusted_{name}", False):
        return ""
    base = "" if name == "value" else f"{name}_"
    lo, hi = row[f"{base}lo_plain"], row[f"{base}hi_plain"]
    if fmt == "%":
        return f" (plain [{100 * lo:.2f}, {100 * hi:.2f}])"
    return f" (plain [{lo:{fmt}.1f}, {hi:{fmt}.1f}])"


def balance_markdown(b, plots: dict | None = None) -> str:
    """Readable tables (every number with its 95% CI and n); ``plots``: name -> file to embed."""
    plots = plots or {}
    out = [f"### Hands ({b.deals:,} per variant, seed {b.seed})", ""]
    out += [balance_bidders_line(b), ""]
    if b.controlled:
        out += [balance_control_line(b), ""]
    ht = b.hand_table()
    labels = [v.rules.label for v in b.variants]
    out.append("| | " + " | ".join(labels) + " |")
    out.append("|---|" + "---|" * len(labels))
    for key, label in HAND_STATS:
        cells = []
        for lab in labels:
            r = ht[(ht["variant"] == lab) & (ht["statistic"] == key)]
            cells.append(_cell(r.iloc[0]) + _plain_note(r.iloc[0], "value", "%" if r.iloc[0]["kind"] == "rate" else "")
                         if len(r) else "—")
        if any(c != "—" for c in cells):
            out.append(f"| {label} | " + " | ".join(cells) + " |")
    out.append("")
    out.append("Rates are over all deals (take, koe, passed out, smous offered, redeal), over smous offers "
               "(answered 'play') or over hands played (the rest); [95% CI], n.")
    out.append("")
    for name in ("balance_takes.png", "balance_outcomes.png"):
        if name in plots:
            out.append(f"![{name}]({plots[name]})")
    out.append("")
    out.append("### Seats")
    out.append("")
    out.append("Advantage: the seat's side's hand score minus the mean of the other sides', on the same hand "
               "(all deals; passed out = 0). Mean score: over hands played, with the standard deviation of one "
               "hand's score (sd, the spread, not an interval). P(win): the player sitting there in the first hand "
               "(the dealer then moves on each hand); fair share: 1 / the number of sides.")
    out.append("")
    st = b.seat_table()
    has_games = "p_win" in st
    out.append("| variant | seat | takes (r1 / r2) | made when it takes | mean score (sd) | advantage | "
               + ("P(win) |" if has_games else ""))
    out.append("|---|---|---|---|---|---|" + ("---|" if has_games else ""))
    for r in st.itertuples():
        line = (f"| {r.variant} | {r.seat} {r.seat_name} | {100 * r.take_r1:.1f}% / {100 * r.take_r2:.1f}% | "
                f"{ci_pct(r.made_when_takes, r.made_when_takes_lo, r.made_when_takes_hi)}"
                f"{_plain_note(r._asdict(), 'made_when_takes', '%')} "
                f"(n={r.takes:,}) | {mean_sd(r.score_mean, r.score_sd)} (n={r.played:,}) | "
                f"{r.advantage:+.2f} [{r.advantage_lo:+.2f}, {r.advantage_hi:+.2f}]"
                f"{_plain_note(r._asdict(), 'advantage', '+')} (n={r.hands:,}) |")
        if has_games:
            line += (f" {ci_pct(r.p_win, r.p_win_lo, r.p_win_hi)}{_plain_note(r._asdict(), 'p_win', '%')} "
                     f"(n={r.games:,}) (fair {100 * r.p_win_fair:.0f}%) |")
        out.append(line)
    out.append("")
    for name in ("balance_advantage.png", "balance_win.png"):
        if name in plots:
            out.append(f"![{name}]({plots[name]})")
    gt = b.game_table()
    if len(gt):
        out.append("")
        out.append("### Games")
        out.append("")
        out.append("| variant | target | games | hands per game | median [5%, 95%] | deals per game | capped |")
        out.append("|---|---|---|---|---|---|---|")
        for r in gt.itertuples():
            out.append(f"| {r.variant} | {r.target} | {r.games:,} | {r.hands_mean:.2f} [{r.hands_lo:.2f}, {r.hands_hi:.2f}] | "
                       f"{r.hands_median:g} [{r.hands_p5:g}, {r.hands_p95:g}] | {r.deals_mean:.2f} [{r.deals_lo:.2f}, "
                       f"{r.deals_hi:.2f}] | {r.capped} (cap {r.max_deals} deals) |")
        out.append("")
        if "balance_hands_per_game.png" in plots:
            out.append(f"![hands per game]({plots['balance_hands_per_game.png']})")
    out.append("")
    return "\n".join(out)


def bidding_effect_markdown(e, plot_name: str | None = None, heading: str = "##", number: str = "", docs: str = "docs") -> str:
    """The section: thresholds, then per label what calibration changed (bold: beyond the noise);
    ``docs``: the link to the project's docs folder."""
    h = heading
    out = [f"{h} {number}What calibration changes", ""]
    out.append("The calibrated bidders use the heuristic's strength score with thresholds by round and seat, "
               "and class overrides (take or pass a hand class whatever the threshold says), moved to a fixed "
               "point, where each seat takes exactly where the paired gain of taking over passing "
               "is positive against a field of the same bidders (`belote calibrate`, "
               f"[docs/CALIBRATION.md]({docs}/CALIBRATION.md)). This section sets them against the uncalibrated "
               f"heuristic bidders (play {e.play} for both). The calibrated policies:")
    out.append("")
    out.extend(f"- {lab}: {e.bidders[lab]['b']}" for lab in e.labels)
    out.append("")
    out.append(f"{h}# Thresholds, heuristic → calibrated")
    out.append("")
    tt = e.threshold_table()
    seats = sorted(tt["seat"].unique())
    out.append("| variant | round | " + " | ".join(f"seat {s}" for s in seats) + " |")
    out.append("|---|---|" + "---|" * len(seats))
    for (lab, rnd), sub in tt.groupby(["variant", "round"], sort=False):
        by = sub.set_index("seat")
        cells = []
        for s in seats:
            if s not in by.index:
                cells.append("")
                continue
            r = by.loc[s]
            cells.append(f"**{r.heuristic:g} → {r.calibrated:g}**" if r.moved else f"{r.heuristic:g}")
        out.append(f"| {lab} | {rnd} | " + " | ".join(cells) + " |")
    out.append("")
    out.append("A seat takes (round 1: the turned suit; round 2: its best suit) when its strength score reaches "
               "the threshold, unless a class override of its hand says otherwise. Bold: moved by calibration. "
               "In `calibration_thresholds.csv`.")
    out.append("")
    out.append("Class overrides of the calibrated bidders (the classes are listed in each policy file): " + "; ".join(
        f"{lab} {e.overrides(lab)[0]} take, {e.overrides(lab)[1]} pass" for lab in e.labels) + ".")
    out.append("")
    out.append(f"{h}# What the calibrated bidders change, paired on the same deals")
    out.append("")
    out.append(f"Seed {e.seed}; {e.deals:,} hands and {e.games:,} games per reading, the same deals and "
               f"games for both; {e.hands_simulated:,} hands simulated in {e.seconds:.0f} s. Each row: the "
               "heuristic bidders' value, the calibrated bidders' value and the difference calibrated − "
               "heuristic with its 95% interval (rates in percentage points); bold where the interval excludes "
               f"0. Intervals: {e.blocks} batch-means blocks of hands, per-game paired differences for games "
               "(as in the section on rule options). Seat advantage: the seat's side's hand score minus the "
               "other sides' mean, a hand; P(win): the player in that seat in the first hand.")
    out.append("")
    out += forest_lines(plot_name, "what calibration changes")
    df = e.table()
    for lab in e.labels:
        sub = df[df["variant"] == lab]
        keep = [k for k in SHOWN] + [k for k in sub["statistic"] if k.startswith(("advantage_seat", "p_win_first"))]
        keep.append("hands_per_game")
        sub = sub.set_index("statistic")
        out.append(f"**{lab}**" + (": the calibrated policy is the heuristic's, so both readings are the same "
                                   "bidders and every difference is exactly 0 (the hands were played once)."
                                   if e.same(lab) else ""))
        out.append("")
        out.append("| statistic | heuristic | calibrated | calibrated − heuristic [95% CI] | n |")
        out.append("|---|---|---|---|---|")
        for k in keep:
            if k not in sub.index:
                continue
            r = sub.loc[k]
            rr = dict(r, statistic=k)
            mark = "**" if r["beyond_noise"] else ""
            out.append(f"| {r['label']} | {fmt_value(r['a'], r['unit'])} | {fmt_value(r['b'], r['unit'])} | "
                       f"{mark}{fmt_diff(rr)}{mark} | {int(r['n']):,} |")
        out.append("")
    out.append("n: deals, hands played or games of the heuristic reading. Every statistic (roem, scores by seat, "
               "capot / pit, ...) is in `calibration_effect.csv`. These are the variants as played when every "
               "seat bids one way or the other: a lower taker's score or a higher dedans rate does not make "
               "the calibrated bidder the worse one (what it optimises is the net hand score, which also counts "
               "what passing gives away), and a seat's advantage or P(win) moves with every seat's bidding.")
    out.append("")
    if e.duel:
        out.extend(bidding_duel_markdown(e, h))
    return "\n".join(out)


# ---- what each rule option changes (analyzer.questions.impact) ------------------------------


def _digits(half: float) -> int:
    """Decimals that show an interval of half-width ``half``: 2, more for narrow ones (at most 5)."""
    if not np.isfinite(half) or half <= 0:
        return 2
    return int(min(5, max(2, -math.floor(math.log10(half)))))


def forest_lines(plot_name: str | None, alt: str) -> list[str]:
    """The markdown of a section's forest plot and its legend (nothing without a plot)."""
    if not plot_name:
        return []
    return [f"![{alt}]({plot_name})", "", "Filled markers: beyond the noise; hollow: the interval includes 0.", ""]


def fmt_value(x: float, unit: str, signed: bool = False, digits: int = 2) -> str:
    if not np.isfinite(x):
        return "n/a"
    s = f"{x:+.{digits}f}" if signed else f"{x:.{digits}f}"
    return s + ("%" if unit == "pp" and not signed else "")


def fmt_diff(r) -> str:
    """``+1.23 [+0.50, +1.96]`` (pp for rates); more decimals when the interval is narrow."""
    unit = r["unit"]
    if r["lo"] == r["hi"]:
        return f"{fmt_value(r['diff'], unit, True)} (identical)" if r["diff"] == 0 else fmt_value(r["diff"], unit, True)
    k = _digits((r["hi"] - r["lo"]) / 2)
    return f"{fmt_value(r['diff'], unit, True, k)} [{fmt_value(r['lo'], unit, True, k)}, {fmt_value(r['hi'], unit, True, k)}]"


def fmt_pm(r) -> str:
    """``-0.76 ± 0.09``: the intervals are symmetric (t or normal)."""
    if r["lo"] == r["hi"]:
        return f"{r['diff']:+.2f} ± 0"
    half = (r["hi"] - r["lo"]) / 2
    k = _digits(half)
    return f"{r['diff']:+.{k}f} ± {half:.{k}f}"


def rules_impact_markdown(result: ImpactResult, plot_name: str | None = None, heading: str = "##",
                          number: str = "", note: str = "", choices: pd.DataFrame | None = None) -> str:
    """The comparison as markdown: method, revision 2 before → after, then per variant the
    differences beyond the noise, largest first; ``plot_name``: the forest plot to embed;
    ``number``: the section's number in a report (``"5. "``); ``note``: a paragraph after the
    heading; ``choices``: what each option changed in the players' choices (``choice_table``),
    which says why an option with every statistic identical changed nothing."""
    h = heading
    out = [f"{h} {number}What each rule option changes", ""] + ([note, ""] if note else [])
    out.append(f"Seed {result.seed}; {result.deals:,} hands and {result.games:,} games per reading; policies "
               + ", ".join(f"{lab} {_pol(p)}" for lab, p in result.policies.items())
               + f"; {result.hands_simulated:,} hands simulated in {result.seconds:.0f} s. Differences are the other "
               "reading minus the default (revision 2: after − before), rates in percentage points, "
               "with their 95% interval.")
    out.append("")
    out.append(METHOD.format(blocks=result.blocks))
    out.append("")
    out += forest_lines(plot_name, "what each rule option changes")
    df = result.table()
    rev = df[df["kind"] == "revision 2"]
    if len(rev):
        out.append(f"{h}# Revision 2, before → after")
        out.append("")
        keys = [k for k, _ in REVISION_STATS]
        rev = rev[rev["statistic"].isin(keys)]
        same = rev.groupby(["variant", "comparison"], sort=False).apply(
            lambda g: bool(((g["diff"] == 0) & (g["lo"] == g["hi"])).all()), include_groups=False)
        if same.any():  # a change that moved no count: one line, not a table of zeros
            out.append("Changes that leave every statistic of this table identical (the same in every block of hands "
                       "and every game), so they have no rows below: "
                       + "; ".join(f"{v}, {c}" for (v, c), s_ in same.items() if s_) + ".")
            out.append("")
        rev = rev[[not same[(v, c)] for v, c in zip(rev["variant"], rev["comparison"])]]
        out.append("| variant | change | statistic | before | after | after − before [95% CI] | n |")
        out.append("|---|---|---|---|---|---|---|")
        for r in rev.itertuples():
            rr = r._asdict()
            mark = "**" if r.beyond_noise else ""
            out.append(f"| {r.variant} | {r.comparison} | {r.label} | {fmt_value(r.a, r.unit)} | {fmt_value(r.b, r.unit)} | "
                       f"{mark}{fmt_diff(rr)}{mark} | {r.n:,} |")
        out.append("")
        out.append("Bold: beyond the noise. n: deals, hands played or games under the 'before' reading. "
                   "*(identical)*: the same count under both readings" + (" (why: the next subsection)."
                                                                           if choices is not None else "."))
        out.append("")
    if choices is not None:
        out += choice_markdown(result, choices, f"{h}#")
    gc = result.games_changed()
    if len(gc):
        out.append(f"{h}# How many games each option changed")
        out.append("")
        out.append("A paired game is changed when any of its counts (winner, hands, deals, final totals) differs "
                   "between the readings: how often the rule fired with a visible effect on a whole game.")
        out.append("")
        out.append("| variant | comparison | games changed [95% CI] | n |")
        out.append("|---|---|---|---|")
        for r in gc[gc["kind"] == "option"].itertuples():
            out.append(f"| {r.variant} | {r.comparison} | {100 * r.p:.1f}% [{100 * r.lo:.1f}, {100 * r.hi:.1f}] | "
                       f"{r.games:,} |")
        out.append("")
    for lab in result.labels:
        sub = result.ranked(lab, kind="option")
        n_all = int(((df["variant"] == lab) & (df["kind"] == "option")).sum())
        out.append(f"{h}# {lab}: differences beyond the noise, largest first")
        out.append("")
        if not len(sub):
            out.append(f"None of the {n_all} differences is beyond the noise.")
            out.append("")
            continue
        out.append("| comparison | statistic | default | other | difference [95% CI] | n | size |")
        out.append("|---|---|---|---|---|---|---|")
        for r in sub.itertuples():
            out.append(f"| {r.comparison} | {r.label} | {fmt_value(r.a, r.unit)} | {fmt_value(r.b, r.unit)} | "
                       f"{fmt_diff(r._asdict())} | {r.n:,} | {r.size:.3f} |")
        out.append("")
        out.append(f"{len(sub)} of {n_all} differences are beyond the noise; the rest (in `rules_impact.csv`) are not.")
        out.append("")
    return "\n".join(out)


def _pol(p: dict) -> str:
    def one(x):
        return x if isinstance(x, str) else ",".join(f"{k}={v}" for k, v in x.items())
    return f"bid={one(p['bid'])} play={one(p['play'])}"


def choice_markdown(result: "ImpactResult", choices: pd.DataFrame, heading: str = "###") -> list[str]:
    """The subsection on what each option changed in the players' choices (``choice_table``):
    a row per comparison and bidders, and for each comparison whose every statistic is
    identical, why (``no_effect_reason``, for the bidders its statistics were measured with)."""
    if not len(choices):
        return []
    df = result.table()
    out = [f"{heading} What each option changed in the players' choices", "",
           "A sample of the hands of each reading is logged and replayed with the reference rules (the same deals "
           "under both readings): at each decision the option rules, the legal choices under both readings. "
           "*Changed*: decisions whose legal choices differ between the readings; *used*: decisions where the "
           "player chose what the other reading forbids. An option can change nothing only if its legal "
           "difference never arises or the players never use it. The calibrated bidders of the other sections "
           "were calibrated for the default rules, so only the readings they accept are replayed with them.", "",
           f"| variant | comparison | decisions | {result.bid} bidders: changed / used of n (readings) | "
           "calibrated bidders: changed / used of n (readings) | statistics |", "|---|---|---|---|---|---|"]
    verdicts = []
    mine, cal = choices[choices["bid"] == result.bid], choices[choices["bid"] != result.bid]
    for r in mine.itertuples():
        rows = df[(df["variant"] == r.variant) & (df["comparison"] == r.comparison) & (df["kind"] == r.kind)]
        same = identical(rows)
        other = cal[(cal["variant"] == r.variant) & (cal["comparison"] == r.comparison) & (cal["kind"] == r.kind)]
        cells = [_counts(r._asdict())] + [_counts(x) for x in other.to_dict("records")][:1]
        out.append(f"| {r.variant} | {r.comparison} | {r.decides} | " + " | ".join(cells + ["—"] * (2 - len(cells)))
                   + " | " + ("identical" if same else f"{int(rows['beyond_noise'].sum())} of {len(rows)} beyond the "
                              "noise") + " |")
        if same:
            verdicts.append(f"- {r.variant}, `{r.comparison}`: every statistic identical, no effect under these "
                            f"players ({r.bid} bidders), because {no_effect_reason(r._asdict())}"
                            + (f"; {_calibrated(other.iloc[0])}" if len(other) and other.iloc[0]["replayed"] else "")
                            + ".")
    out.append("")
    if verdicts:
        out += verdicts + [""]
    return out


def _counts(row: dict) -> str:
    if not row["replayed"]:
        return "—"
    return f"{row['changed']:,} / {row['used']:,} of {row['decisions']:,} ({row['replayed']})"


def _calibrated(row) -> str:
    """What the calibrated bidders (not those of the statistics) did with the difference."""
    what, n = row["decides"], f"{row['decisions']:,}"
    if row["used"]:
        return (f"the calibrated bidders of the other sections would use it: under {row['replayed']} they chose what "
                f"the other reading forbids at {row['used']:,} of {n} {what} (their statistics under the other "
                "reading cannot be measured: they were calibrated for the defaults)")
    return (f"the calibrated bidders, under {row['replayed']}, chose nothing the other reading forbids either (0 of "
            f"{n} {what}; their legal choices differed at {row['changed']:,})")


def no_effect_reason(row) -> str:
    """Why an option whose every statistic is identical changed nothing, from its ``choice_counts``."""
    if row["decides"] == "no choice":
        return ("it rules no player's choice (it scores, or times the Dix), and the case it decides did not occur "
                "in these hands")
    what = row["decides"]
    if row["changed"] == 0:
        return (f"it never changed the legal choices: 0 of {row['decisions']:,} {what} in {row['hands']:,} hands a "
                "reading had other legal choices under the other reading")
    if row["used"] == 0:
        return (f"it changed the legal choices at {row['changed']:,} of {row['decisions']:,} {what}, and the players "
                "never chose what the other reading forbids (0 times)")
    return (f"the players chose what the other reading forbids at {row['used']:,} of {row['decisions']:,} {what}, "
            "and it moved no statistic")


def bidding_duel_markdown(e, h: str = "##") -> list[str]:
    """Which bidder is better at the same table: the duplicate match."""
    out = [f"{h}# Calibrated against heuristic bidders at the same table", ""]
    out.append("A duplicate match (`analyzer.questions.calibrate.duplicate`): the same deals are played with the "
               "calibrated bidder on one side and heuristic bidders on the others, once for each side (classic: "
               "the teams swapped; otherwise the calibrated bidder at each seat in turn), so the calibrated "
               "bidder holds every hand once. Per hand: its side's score minus the mean of the other sides' (two "
               f"sides: the net score); 95% interval from {DUEL_BLOCKS} independent blocks of deals (seeds "
               f"{e.seed} to {derived_seed(e.seed, DUEL_BLOCKS - 1)}, wrapped at 2**64).")
    out.append("")
    out.append("| variant | deals | calibrated side, points a hand [95% CI] | verdict |")
    out.append("|---|---|---|---|")
    for lab in e.labels:
        if e.same(lab):
            out.append(f"| {lab} | — | +0.00 (identical bidders) | the heuristic was already calibrated |")
            continue
        if lab not in e.duel:
            continue
        m, deals, _ = e.duel[lab]
        verdict = ("calibrated ahead" if m.lo > 0 else "heuristic ahead" if m.hi < 0 else "inside the noise")
        out.append(f"| {lab} | {deals:,} | {m.mean:+.2f} [{m.lo:+.2f}, {m.hi:+.2f}] | {verdict} |")
    out.append("")
    return out
