"""The files of a result: its tables (written by the question itself) and its plots.

The questions (``analyzer.questions``) write their tables and markdown; the plots are
drawn here, from the DataFrames the questions return, so imports point one way
(questions → output) and ``analyzer.output.plots`` never sits under a question.
"""

from __future__ import annotations

from pathlib import Path

from analyzer.output import plots as P
from analyzer.output.markdown import (
    balance_markdown,
    bidding_effect_markdown,
    rules_impact_markdown,
    table_bracket_markdown,
    table_markdown,
)
from analyzer.output.words import RULE_WORDS, short_label
from analyzer.questions.balance import SEAT_AXIS
from analyzer.questions.bidding_effect import PANELS, compare_bidding
from analyzer.questions.impact import HEADLINE, MIN_BLOCKS, choice_table, compare_rules
from analyzer.questions.table import MIN_N, write_frame
from analyzer.questions.table_bracket import class_label


def table_figures(t) -> dict:
    """A bidding table's plots: name -> Figure."""
    lab = t.label
    return {
        f"table_{lab}_heatmap_gain.png": P.heatmap(t.view(["round", "honours", "trump_length"]), "gain_net",
                                                   "honours", "trump_length", f"{lab}: net gain of taking",
                                                   min_n=MIN_N, center=0.0),
        f"table_{lab}_heatmap_made.png": P.heatmap(t.view(["round", "honours", "trump_length"]), "p_made",
                                                   "honours", "trump_length", f"{lab}: P(made) when taking",
                                                   min_n=MIN_N, percent=True),
        f"table_{lab}_heatmap_aces.png": P.heatmap(t.view(["round", "honours", "side_aces"]), "gain_net",
                                                   "honours", "side_aces", f"{lab}: net gain of taking",
                                                   min_n=MIN_N, center=0.0),
        f"table_{lab}_break_even.png": P.break_even_plot(t.strength(pooled_seats=True), t.break_even(),
                                                         f"{lab}: gain of taking by hand strength", by_seat=t.strength()),
    }


def write_table(t, out_dir, plots: bool = True) -> list[Path]:
    """A bidding table's CSV, Parquet and markdown, and (``plots``) its heatmaps and break-even plot."""
    out = Path(out_dir)
    files = t.write(out)
    md = out / f"table_{t.label}.md"
    md.write_text(table_markdown(t))
    files.append(md)
    if plots:
        files += [P.save(fig, out / name) for name, fig in table_figures(t).items()]
    return files


def balance_figures(b) -> dict:
    """The balance plots: name -> Figure."""
    ht = b.hand_table()
    st = b.seat_table()
    figs = {
        "balance_takes.png": P.bars_ci(ht[ht["statistic"].isin(["take_round1", "take_round2", "koe", "passed_out",
                                                                  "smous_offered", "redeal"])],
                                       "label", "variant", "value", "lo", "hi", "How hands are bid", "share of deals",
                                       percent=True),
        "balance_outcomes.png": P.bars_ci(ht[ht["statistic"].isin(["made", "dedans", "tie", "capot_for",
                                                                     "pit_against"])],
                                          "label", "variant", "value", "lo", "hi", "Outcome of the hands played",
                                          "share of hands played", percent=True),
        "balance_advantage.png": P.bars_ci(st, "seat", "variant", "advantage", "advantage_lo", "advantage_hi",
                                           "Seat advantage (points a hand over the other sides' mean)",
                                           "points a hand", xlabel=SEAT_AXIS),
    }
    if "p_win" in st:
        figs["balance_win.png"] = P.bars_ci(st, "seat", "variant", "p_win", "p_win_lo", "p_win_hi",
                                            "P(win) by seat in the first hand", "games won", percent=True,
                                            xlabel=SEAT_AXIS, ref="p_win_fair", ref_label="fair share (1 / sides)")
        figs["balance_hands_per_game.png"] = P.histograms(b.hands_per_game(), "hands", "games", "variant",
                                                          "Hands played per game", "hands")
    return figs


def write_balance(b, out_dir, plots: bool = True, markdown: bool = True) -> list[Path]:
    """The balance tables (CSV, Parquet), its plots and ``balance.md`` embedding them."""
    out = Path(out_dir)
    written = {}
    pngs = []
    if plots:
        for name, fig in balance_figures(b).items():
            pngs.append(P.save(fig, out / name))
            written[name] = name
    files = b.write(out)
    if markdown:
        md = out / "balance.md"
        md.write_text(balance_markdown(b, written))
        files.append(md)
    return files + pngs


def impact_figure(r):
    """The forest plot of what each rule option changes."""
    return P.forest(r.table(), HEADLINE, f"What each rule option changes (b − a, 95% CI; seed {r.seed}, "
                                         f"{r.deals:,} hands and {r.games:,} games per reading)")


HEADLINE_RULES = (("taker_score", "the taker's side's score (points a hand)"),
                  ("p_win_first_seat0", "P(win) of the first seat 0 (points of %)"))
"""The first page's picture of the house rules: what a club organiser weighs first."""


def impact_headline_figure(r):
    """The report's first page's picture of the house rules, legible at page width: each rule
    option changed from its variant's default, by its name and new choice, and what it does to the
    taker's score and to the first seat's chance of winning a game (``HEADLINE_RULES``)."""
    df = r.table()
    df = df[df["kind"] == "option"].reset_index(drop=True)

    def name(row):
        words = RULE_WORDS.get(row["option"], {}).get("en")
        label = short_label(row["variant"])
        if words is None:
            return f"{label}: {row['comparison']}"
        return f"{label}: {words[0]} → {words[1].get(str(row['b_value']), row['b_value'])}"

    names = df.apply(name, axis=1)
    return P.forest(df, HEADLINE_RULES, f"What each house rule changes (new − default, 95% CI; seed {r.seed}, "
                                        f"{r.deals:,} hands and {r.games:,} games)", legend="filled: beyond the noise",
                    names=names, ncol=2, fontsize=9)


def write_impact(r, out_dir, plot: bool = True) -> list[Path]:
    """``rules_impact.csv``, ``rules_games_changed.csv``, ``rules_impact.png`` and ``rules_impact.md``."""
    out = Path(out_dir)
    name = "rules_impact.png" if plot else None
    pngs = [P.save(impact_figure(r), out / name)] if plot else []
    files = r.write(out)
    md = out / "rules_impact.md"
    md.write_text(rules_impact_markdown(r, name, heading="#"))
    files.append(md)
    return files + pngs


def impact_sizes(deals: int) -> tuple[int, int]:
    """Hands and games per reading of the report's section on rule options: ``deals / 40`` and
    ``deals / 800`` (50,000 and 2,500 at the report's default 2,000,000)."""
    return max(MIN_BLOCKS, deals // 40), max(1, deals // 800)


def impact_report_section(folder, deals: int, seed: int, threads=None, labels=None, number: str = "",
                          note: str = "", progress=None, play: str = "heuristic"):
    """The report's section on rule options: a smaller comparison of ``labels`` (default all;
    ``impact_sizes(deals)``), its plot and CSV written into ``folder``; returns the markdown
    and the result."""
    hands, games = impact_sizes(deals)
    result = compare_rules(labels, deals=hands, games=games, seed=seed, play=play, threads=threads, progress=progress)
    choices = choice_table(result, bids=(result.bid, "calibrated"))  # the report's other sections bid calibrated
    folder = Path(folder)
    result.table().to_csv(folder / "rules_impact.csv", index=False)
    choices.to_csv(folder / "rules_choices.csv", index=False)
    P.save(impact_figure(result), folder / "rules_impact.png")
    P.save(impact_headline_figure(result), folder / "rules_headline.png")  # the first page's, at page width
    return rules_impact_markdown(result, "rules_impact.png", number=number, note=note, choices=choices), result


def bidding_effect_figure(e):
    """The forest plot of what calibrated bidders change against heuristic ones."""
    df = e.table()
    df = df[[not e.same(v) for v in df["variant"]]]  # identical bidders: nothing to draw
    return P.forest(df, PANELS, f"What calibration changes (calibrated − heuristic bidders, 95% CI; seed {e.seed}, "
                                f"{e.deals:,} hands and {e.games:,} games per reading)",
                    legend="every seat bids calibrated against every seat heuristic, on the same deals and games")


def bidding_effect_report_section(folder, deals: int, games: int, seed: int, threads=None, labels=None,
                                  number: str = "", duel_deals: int = 0, docs: str = "docs", progress=None,
                                  play: str = "heuristic"):
    """The report's section on calibration (``analyzer.questions.bidding_effect``): its CSVs and
    forest plot written into ``folder``; returns the markdown and the result."""
    e = compare_bidding(labels, deals=deals, games=games, seed=seed, play=play, threads=threads,
                        duel_deals=duel_deals, progress=progress)
    folder = Path(folder)
    e.write(folder)
    P.save(bidding_effect_figure(e), folder / "calibration_effect.png")
    return bidding_effect_markdown(e, "calibration_effect.png", number=number, docs=docs), e


def table_bracket_figure(b, by=None):
    """The bidding-table bracket's plot: P(made) and net gain per class under each policy."""
    df = b.frame(by).copy()
    df["label"] = [f"r{r['round']} " + class_label(r, b.by if by is None else by).replace("`", "")
                   for _, r in df.iterrows()]
    return P.bracket_plot(df, f"{b.rules.label}: the bidding table under each play policy (95% CI)",
                          empty=f"no class with n ≥ {b.min_n} under every policy: deal more")


def write_table_bracket(b, out_dir, plot: bool = True) -> list[Path]:
    """A bidding-table bracket's CSV and Parquet (``frame``, ``summary``), markdown and plot."""
    out = Path(out_dir)
    stem = f"table_bracket_{b.rules.label}"
    files = write_frame(b.frame(), out / stem) + write_frame(b.summary(), out / f"{stem}_summary")
    md = out / f"{stem}.md"
    md.write_text(table_bracket_markdown(b))
    files.append(md)
    if plot:
        files.append(P.save(table_bracket_figure(b), out / f"{stem}.png"))
    return files
