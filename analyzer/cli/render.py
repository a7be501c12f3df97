"""The rich tables the commands print: ``simulate``'s rates, ``take``'s calls (and its
bracket), ``balance``'s variants side by side and ``rules``' differences.

Each function takes what the question returned and prints it, as the command did inline.
"""

from __future__ import annotations

from functools import partial

from rich import box
from rich.table import Table

from analyzer.cli.common import console
from analyzer.output import take_table, words
from analyzer.questions.take_score import regions_line, score_text, verdict
from analyzer.runs.fmt import ci_pct, ci_rate, pm_or_ci, pm_pct


def simulate(summary: dict, title: str) -> None:
    """``belote simulate``: each rate or mean with its 95% CI and n."""
    from analyzer.runs.summary import LABELS  # lazy: belote take imports this module too, without these

    t = Table(title=title)
    t.add_column("")
    t.add_column("rate or mean", justify="right")
    t.add_column("95% CI", justify="right")
    t.add_column("n", justify="right")
    for key, v in summary.items():
        if v.n == 0:
            continue
        label = LABELS.get(key, key.replace("_", " "))
        if hasattr(v, "p"):
            t.add_row(label, f"{100 * v.p:.2f}%", f"{100 * v.lo:.2f} – {100 * v.hi:.2f}", f"{v.n:,}")
        else:
            t.add_row(label, f"{v.mean:.2f}", f"{v.lo:.2f} – {v.hi:.2f}", f"{v.n:,}")
    console().print(t)


def take(r, seed: int, earlier_seats: bool, bid: str, play: str, objective: str, bidders: str,
         lang: str = "en", game=None) -> None:
    """``belote take``: the calls side by side, the acceptance of the earlier seats' passes
    (``earlier_seats``: they bid first), the verdict with its reason in words, who bids and plays,
    and the ``bidders`` line. ``lang="nl"``: every line in Dutch, the rows as a player says them
    (``analyzer.output.words``); in English the rows keep the names of the report and the CSV."""
    con = console()

    answer = r.as_dict()
    if lang == "nl":
        _take_nl(r, answer, seed, earlier_seats, bid, play, objective)
        if game is not None:
            take_game(r, game, objective, "nl")
        return
    t = Table(title=f"{take_table.situation_text(r.situation)}\n(n={r.n:,} paired deals, seed {seed}; ± = 95% half-width)")
    t.add_column("")
    for c in r.calls:
        t.add_column(c.call.label, justify="right")
    for name, vals in take_table.rows(r):
        t.add_row(name, *[take_table.cell(v) for v in vals])
    con.print(t)
    con.print(take_table.SHARE_SENTENCE, style="dim")
    if earlier_seats:  # earlier seats bid first: name the policy their passes are conditioned on
        con.print(f"Earlier seats all passed in {ci_rate(r.acceptance)} of {r.acceptance.n:,} sampled deals "
                  f"(rejection sampling under the bidding policy, bid={r.policies.describe()['bid']}).")
    con.print(f"[bold]Verdict{' by the points of this hand' if game is not None else ''}:[/bold] {r.verdict()}")
    con.print(words.reason(answer, "en"))
    if game is not None:
        take_game(r, game, objective, "en")
    con.print(words.who_plays(answer, "en"), style="dim")
    con.print(f"{r.hands:,} hands in {r.seconds:.1f} s; bid={bid} play={play}; ranked by {objective}.",
              style="dim")
    con.print(bidders, style="dim")


def take_game(r, game, objective: str, lang: str) -> None:
    """``take --score``: each call's chance to win the game from the score, the verdict by it, and
    where the verdict changes with the score (``analyzer.questions.take_score``)."""
    con = console()
    sit = r.situation
    nl = lang == "nl"

    def describe(i):
        return words.call_text(r.calls[i].call.label, "nl") if nl else r.calls[i].call.describe()

    chances = " · ".join(f"{describe(i)} {ci_pct(w.mean, w.lo, w.hi)}" for i, w in enumerate(game.win))
    if nl:
        chances = chances.replace(".", ",")
    at = score_text(game.totals, sit.rules, sit.seat)
    head = (f"Kans om het spel te winnen vanuit {at} (tot {sit.rules.target}): " if nl else
            f"Chance to win the game from {at} (to {sit.rules.target}): ")
    con.print(head + chances)
    label = "Oordeel naar de winkans" if nl else "Verdict by the chance to win"
    con.print(f"[bold]{label}:[/bold] {verdict(game, describe, lang)}")
    con.print(regions_line(game, describe, lang))
    con.print(("Winkansen uit de " if nl else "Chances from the ") + game.table_note[lang] + ".", style="dim")


def _take_nl(r, answer: dict, seed: int, earlier_seats: bool, bid: str, play: str, objective: str) -> None:
    """``belote take --lang nl``: the answer in Dutch (the words of the pages: ``analyzer.output.words``)."""
    con = console()
    nl = lambda text: text.replace(".", ",")  # noqa: E731  (a cell: +12.3 ± 1.4, 45.1% [44.2, 46.0])
    n = f"{r.n:,}".replace(",", ".")
    t = Table(title=f"{words.situation_text(answer['inputs'], 'nl')}\n(n={n} gepaarde spellen, seed {seed}; "
                    "± = halve breedte van het 95%-interval)")
    t.add_column("")
    for c in r.calls:
        t.add_column(words.call_text(c.call.label, "nl"), justify="right")
    names = {col.name: col.attr for col in take_table.COLUMNS}
    for name, vals in take_table.rows(r):
        t.add_row(words.ROWS[names[name]]["nl"][0], *[nl(take_table.cell(v)) for v in vals])
    con.print(t)
    con.print("Elk percentage is een deel van alle n gepaarde spellen, wie er ook speelde: gehaald + nat + gelijk = "
              "jij wordt troefmaker; ± is de halve breedte van het 95%-interval, een scheef interval (bij 0% of "
              "100%) staat er helemaal, tussen haken.", style="dim")
    if earlier_seats:
        drawn = f"{r.acceptance.n:,}".replace(",", ".")
        con.print(f"De stoelen voor jou pasten allemaal in {nl(ci_rate(r.acceptance))} van {drawn} getrokken spellen "
                  "(alleen die zijn gehouden).")
    con.print(f"[bold]Oordeel:[/bold] {words.verdict(answer, 'nl')}")
    con.print(words.reason(answer, "nl"))
    con.print(words.who_plays(answer, "nl"), style="dim")
    hands = f"{r.hands:,}".replace(",", ".")
    con.print(f"{hands} handen in {nl(f'{r.seconds:.1f}')} s; bid={bid} play={play}; gerangschikt op "
              f"{ {'net': 'netto', 'win': 'winkans'}.get(objective, 'score')}.", style="dim")


def take_bracket(b, bid: str, seed: int, objective: str) -> None:
    """``belote take --bracket``: the calls under each play policy, each policy's verdict and the bracket's."""
    con = console()
    first = b.results[0]
    t = Table(title=f"{take_table.situation_text(first.situation)}\nthe same deals under each play policy (bid={bid}, seed {seed}; "
              "± = 95% half-width)")
    t.add_column("call")
    t.add_column("")
    for head, r in b.columns():
        t.add_column(f"{head}\nn={r.n:,}", justify="right")
    for label, name, cells in take_table.bracket_rows(b, objective):
        t.add_row(label, name, *[take_table.cell(v) for v in cells])
    con.print(t)
    con.print(take_table.SHARE_SENTENCE, style="dim")
    for play, r in zip(b.plays, b.results):
        con.print(f"[bold]{play}:[/bold] {r.verdict()}")
    for line in take_table.control_notes(b):
        con.print(line, style="dim")
    con.print(f"[bold]Bracket:[/bold] {b.verdict()}")
    hands = sum(r.hands for r in b.results)
    con.print(f"{hands:,} hands in {b.seconds:.1f} s; ranked by {objective}.", style="dim")


def _plain_half(row, base: str, scale: float, decimals: int = 2) -> str:
    """`` (h)``, the plain half-width of a number a control adjusted (``balance``'s
    ``<base>lo_plain``/``<base>hi_plain``), else ``""``."""
    flag = "adjusted_" + (base.rstrip("_") or "value")
    if not row.get(flag, False):
        return ""
    return f" ({scale * (row[base + 'hi_plain'] - row[base + 'lo_plain']) / 2:.{decimals}f})"


def balance(b, labels: list, deals: int, games: int, seed: int, notes: dict, files: list, out) -> None:
    """``belote balance``: hands, seats and games, one column or row per variant."""
    # lazy: belote take imports this module too, without pandas (which these load)
    from analyzer.output.markdown import balance_bidders_line, balance_control_line
    from analyzer.questions.balance import HAND_STATS

    con = console()
    ht = b.hand_table()
    t = Table(title=f"Hands: {deals:,} per variant, seed {seed}  (rate or mean, ± 95% half-width)")
    t.add_column("")
    for lab in labels:
        t.add_column(lab, justify="right")
    for key in [k for k, _ in HAND_STATS if k in set(ht["statistic"])]:
        sub = ht[ht["statistic"] == key].set_index("variant")
        cells = []
        for lab in labels:
            if lab not in sub.index:
                cells.append("—")
                continue
            r = sub.loc[lab]
            k = 100 if r["kind"] == "rate" else 1
            cells.append(pm_or_ci(k * r["value"], k * r["lo"], k * r["hi"], 2, unit="%" if k == 100 else "")
                         + _plain_half(r, "", k))
        t.add_row(sub["label"].iloc[0], *cells)
    con.print(t)
    st = b.seat_table()
    t = Table(title="Seats (± = 95% half-width)" + (f"; P(win) over {games:,} games per variant" if games else ""))
    for col in ("variant", "seat", "take r1/r2 %", "made %", "score (sd)", "advantage"):
        t.add_column(col, justify="left" if col in ("variant", "seat") else "right")
    if games:
        t.add_column("P(win)", justify="right")
    for r in st.itertuples():
        row = [r.variant, f"{r.seat} {r.seat_name}", f"{100 * r.take_r1:.1f}/{100 * r.take_r2:.1f}",
               f"{100 * r.made_when_takes:.1f}", f"{r.score_mean:.0f} (sd {r.score_sd:.0f})",
               f"{r.advantage:+.2f} ± {(r.advantage_hi - r.advantage_lo) / 2:.2f}"
               + _plain_half(r._asdict(), "advantage_", 1, 1)]
        if games:
            row.append(pm_pct(r.p_win, r.p_win_lo, r.p_win_hi) + _plain_half(r._asdict(), "p_win_", 100, 1))
        t.add_row(*row)
    con.print(t)
    gt = b.game_table()
    if len(gt):
        t = Table(title="Games")
        for col in ("variant", "target", "games", "hands per game", "median [5%, 95%]", "capped"):
            t.add_column(col, justify="left" if col == "variant" else "right")
        for r in gt.itertuples():
            t.add_row(r.variant, str(r.target), f"{r.games:,}", f"{r.hands_mean:.2f} ± {(r.hands_hi - r.hands_lo) / 2:.2f}",
                      f"{r.hands_median:g} [{r.hands_p5:g}, {r.hands_p95:g}]", str(r.capped))
        con.print(t)
    con.print(balance_bidders_line(b) + "".join(f" ({lab}: {n})" for lab, n in notes.items()), style="dim")
    if b.controlled:
        con.print(balance_control_line(b).replace("the plain interval is shown beside",
                                                "in brackets the plain half-width,"), style="dim")
    con.print(f"{b.hands_simulated:,} hands in {b.seconds:.1f} s" + (f"; {len(files)} files written to {out}" if files else ""),
              style="dim")


def rules(r, all_rows: bool) -> None:
    """``belote rules``: rules revision 2's changes, then each option's differences (beyond the noise, or
    ``all_rows``), and the paired games they change."""
    # lazy: belote take imports this module too, without pandas (which these load)
    from analyzer.output.markdown import fmt_pm
    from analyzer.questions.impact import REVISION_STATS

    narrow = partial(Table, box=box.SIMPLE_HEAD)  # narrow tables for 80-column terminals

    con = console()
    df = r.table()
    heads = dict(REVISION_STATS)
    for lab in r.labels:  # revision 2: one column per change, the headline statistics as rows
        rev = df[(df["kind"] == "revision 2") & (df["variant"] == lab) & df["statistic"].isin(list(heads))]
        if not len(rev):
            continue
        changes = list(dict.fromkeys(rev["comparison"]))
        t = narrow(title=f"{lab}: rules revision 2, after − before (± 95% half-width; {r.deals:,} deals and "
                  f"{r.games:,} games per reading, seed {r.seed})", caption="bold: beyond the noise")
        t.add_column("statistic")
        for ch in changes:
            t.add_column(ch.replace(": ", "\n"), justify="right")
        t.add_column("n (before)", justify="right")
        for key, title in REVISION_STATS:
            cells = rev[rev["statistic"] == key].set_index("comparison")
            if not len(cells):
                continue
            row = [title]
            for ch in changes:
                x = cells.loc[ch] if ch in cells.index else None
                row.append("—" if x is None else (f"[bold]{fmt_pm(x)}[/bold]" if x["beyond_noise"] else fmt_pm(x)))
            row.append(f"{int(cells.iloc[0]['n']):,}")
            t.add_row(*row)
        con.print(t)
    for lab in r.labels:
        sub = r.ranked(lab, kind="option", all_rows=all_rows)
        n_all = int(((df["variant"] == lab) & (df["kind"] == "option")).sum())
        n_beyond = int(r.ranked(lab, kind="option").shape[0])
        t = narrow(title=f"{lab}: {n_beyond} of {n_all} differences beyond the noise"
                  + (" (dim: inside the noise)" if all_rows else ", largest first") + " — other reading − default")
        for col in ("option", "statistic", "default", "other", "difference", "n", "size"):
            t.add_column(col, justify="left" if col in ("option", "statistic") else "right", no_wrap=col == "option")
        for row in sub.to_dict("records"):
            t.add_row(row["comparison"], row["label"], f"{row['a']:.2f}", f"{row['b']:.2f}", fmt_pm(row),
                      f"{row['n']:,}", f"{row['size']:.3f}", style=None if row["beyond_noise"] else "dim")
        con.print(t)
    gc = r.games_changed()
    if len(gc):
        t = narrow(title="Paired games changed by the option (any count differs)")
        for col in ("variant", "comparison", "changed [95% CI]", "games"):
            t.add_column(col, justify="left" if col in ("variant", "comparison") else "right")
        for row in gc[gc["kind"] == "option"].itertuples():
            t.add_row(row.variant, row.comparison, f"{100 * row.p:.1f}% [{100 * row.lo:.1f}, {100 * row.hi:.1f}]",
                      f"{row.games:,}")
        con.print(t)
    con.print("Rates in %, their differences in percentage points; ± = 95% half-width (paired); size = |difference| / "
              "per-unit sd of the default reading.", style="dim")
