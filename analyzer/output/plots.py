"""Plots: each function takes a DataFrame (as built by the table, take and balance
modules) and returns a matplotlib ``Figure``; ``save`` writes it as PNG.

Figures are made with ``matplotlib.figure.Figure`` directly (the Agg canvas), never
through pyplot, so nothing here changes the backend of a notebook that imports it.
Intervals are drawn as error bars or bands: every number comes with its 95% CI.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd
from matplotlib.figure import Figure

from analyzer.questions.table import _hon_key

DPI = 110


def save(fig: Figure, path) -> Path:
    """Write ``fig`` as a PNG at ``path`` and return the path."""
    path = Path(path)
    fig.savefig(path, dpi=DPI, bbox_inches="tight")
    return path


def _hon_order(labels):
    return sorted(labels, key=_hon_key)


def text_colour(rgba) -> str:
    """``"black"`` or ``"white"``, whichever contrasts more with a cell of colour ``rgba``
    (WCAG contrast ratio on the relative luminance of the sRGB colour)."""
    lum = relative_luminance(rgba)
    on_black = (lum + 0.05) / 0.05
    on_white = 1.05 / (lum + 0.05)
    return "black" if on_black >= on_white else "white"


def relative_luminance(rgba) -> float:
    """WCAG relative luminance of an sRGB colour with channels in 0..1."""
    def lin(c):
        return c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4

    r, g, b = (lin(float(c)) for c in rgba[:3])
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def contrast_ratio(rgba_a, rgba_b) -> float:
    """WCAG contrast ratio (1 to 21) of two colours."""
    la, lb = sorted((relative_luminance(rgba_a), relative_luminance(rgba_b)), reverse=True)
    return (la + 0.05) / (lb + 0.05)


def heatmap(df: pd.DataFrame, value: str, row: str, col: str, title: str, min_n: int = 0,
            center: float | None = None, percent: bool = False) -> Figure:
    """One panel per ``round`` (if the column exists): ``value`` by ``row`` x ``col``,
    annotated in black or white, whichever reads better on the cell's colour; cells with
    fewer than ``min_n`` decisions are left blank, rows with no cell in any panel and a
    panel's columns with no cell in it are dropped."""
    rounds = sorted(df["round"].unique()) if "round" in df else [None]
    kept = df[df["n"] >= min_n]
    rows = _hon_order(kept[row].unique()) if row == "honours" else sorted(kept[row].unique())
    panel_cols = [sorted((kept if rnd is None else kept[kept["round"] == rnd])[col].unique()) for rnd in rounds]
    widths = [max(1, len(c)) for c in panel_cols]
    fig = Figure(figsize=(1.0 + 0.75 * sum(widths) + 1.5, 0.8 + 0.32 * max(1, len(rows))))
    axes = fig.subplots(1, len(rounds), squeeze=False, gridspec_kw={"width_ratios": widths})[0]
    vals = kept[value].to_numpy(np.float64) * (100 if percent else 1)
    vmax = float(np.nanmax(np.abs(vals))) if len(vals) else 1.0
    if center is not None:
        norm = dict(vmin=center - vmax, vmax=center + vmax, cmap="RdBu")
    else:
        norm = dict(vmin=float(np.nanmin(vals)) if len(vals) else 0, vmax=float(np.nanmax(vals)) if len(vals) else 1,
                    cmap="viridis")
    im = None
    for ax, rnd, cols in zip(axes, rounds, panel_cols):
        ax.set_title(f"round {rnd}" if rnd is not None else "")
        if not cols:  # no class of this round reached min_n
            ax.text(0.5, 0.5, f"no cell with n ≥ {min_n}", ha="center", va="center", transform=ax.transAxes)
            ax.set_xticks([])
            ax.set_yticks([])
            continue
        sub = kept if rnd is None else kept[kept["round"] == rnd]
        grid = np.full((len(rows), len(cols)), np.nan)
        for r in sub.itertuples():
            grid[rows.index(getattr(r, row)), cols.index(getattr(r, col))] = getattr(r, value) * (100 if percent else 1)
        im = ax.imshow(grid, aspect="auto", interpolation="nearest", **norm)
        for i in range(len(rows)):
            for j in range(len(cols)):
                if np.isfinite(grid[i, j]):
                    ax.text(j, i, f"{grid[i, j]:.0f}", ha="center", va="center", fontsize=7,
                            color=text_colour(im.cmap(im.norm(grid[i, j]))))
        ax.set_xticks(range(len(cols)), [str(c) for c in cols])
        ax.set_yticks(range(len(rows)), [str(r) for r in rows], fontfamily="monospace", fontsize=8)
        ax.set_xlabel(col.replace("_", " "))
        if ax is axes[0]:
            ax.set_ylabel("trump J 9 A T held" if row == "honours" else row.replace("_", " "))
    if im is not None:
        cb = fig.colorbar(im, ax=list(axes), shrink=0.8)
        cb.set_label(value.replace("_", " ") + (" (%)" if percent else ""))
    fig.suptitle(title + (f" (cells with n ≥ {min_n})" if min_n else ""))
    return fig


def break_even_plot(strength: pd.DataFrame, be: pd.DataFrame, title: str, min_n: int = 200,
                    by_seat: pd.DataFrame | None = None) -> Figure:
    """Net gain of taking over passing (with its 95% band) by the heuristic's strength
    score, one panel per round, each bin drawn over its width (the last one included);
    the break-even and the policy's thresholds marked; the legend below the panels.

    ``strength`` is pooled over the seats; in a round where the seats break even apart
    (``be``'s ``seats_differ``, ``TableResult.break_even``) the pooled curve would mislead,
    so each seat's curve (``by_seat``: ``TableResult.strength()``) and break-even are drawn
    instead, in the seat's colour."""
    rounds = sorted(strength["round"].unique())
    fig = Figure(figsize=(5.5 * len(rounds), 4.2))
    axes = fig.subplots(1, len(rounds), squeeze=False)[0]
    handles = {}
    for ax, rnd in zip(axes, rounds):
        b = be[(be["round"] == rnd)]
        apart = by_seat is not None and bool(b.get("seats_differ", pd.Series(False, index=b.index)).any())
        curves = ([(f"seat {r.seat}", by_seat[(by_seat["round"] == rnd) & (by_seat["seat"] == int(r.seat))], r)
                   for r in b.itertuples() if r.seat != "all" and r.n_bins > 0] if apart
                  else [("", strength[strength["round"] == rnd], next((r for r in b.itertuples() if r.seat == "all"),
                                                                     None))])
        for k, (who, s, r) in enumerate(curves):
            colour = f"C{k}"
            s = s[s["n"] >= min_n].sort_values("strength_lo")
            x, gain, lo, hi = step_edges(s)
            handles[f"95% CI{' ' + who if who else ''}"] = ax.fill_between(x, lo, hi, alpha=0.3 if not who else 0.2,
                                                                          step="post", color=colour)
            handles[f"net gain of taking{', ' + who if who else ''}"], = ax.step(x, gain, where="post", color=colour)
            if r is not None and np.isfinite(r.break_even):
                handles[f"break-even ({who or 'all seats'})"] = ax.axvline(r.break_even, color="green" if not who
                                                                          else colour, ls="--")
        ax.axhline(0, color="black", lw=0.8)
        thr = b.loc[b["seat"] != "all", "policy_threshold"].dropna().unique()
        for t in sorted(thr):
            handles["policy threshold(s)"] = ax.axvline(t, color="red", ls=":", lw=0.9)
        ax.set_xlabel("heuristic strength score")
        ax.set_ylabel("net points a hand, take − pass")
        ax.set_title(f"round {rnd}" + (" (seats apart: they break even apart)" if apart else ""))
    fig.legend(list(handles.values()), list(handles), loc="lower center", ncol=min(4, len(handles)), fontsize=7,
               bbox_to_anchor=(0.5, -0.02))
    fig.subplots_adjust(bottom=0.22 if len(handles) <= 4 else 0.3)
    fig.suptitle(title)
    return fig


def step_edges(s: pd.DataFrame):
    """Bin edges and values for a ``where="post"`` step over bins ``strength_lo`` ..
    ``strength_hi``: the last value is repeated at the last bin's upper edge so that bin
    is drawn with its width (an open last bin gets the width of the others)."""
    lo_edge = s["strength_lo"].to_numpy(np.float64)
    hi_edge = s["strength_hi"].to_numpy(np.float64)
    if len(lo_edge) == 0:
        return lo_edge, lo_edge, lo_edge, lo_edge
    widths = hi_edge - lo_edge
    finite = widths[np.isfinite(widths)]
    last = hi_edge[-1] if np.isfinite(hi_edge[-1]) else lo_edge[-1] + (np.median(finite) if len(finite) else 1.0)
    x = np.append(lo_edge, last)
    cols = [np.append(v, v[-1]) for v in (s[c].to_numpy(np.float64) for c in ("gain_net", "gain_net_lo", "gain_net_hi"))]
    return (x, *cols)


def bars_ci(df: pd.DataFrame, x: str, group: str, value: str, lo: str, hi: str, title: str, ylabel: str,
            percent: bool = False, hline: float | None = None, xlabel: str | None = None,
            ref: str | None = None, ref_label: str = "fair share") -> Figure:
    """Grouped bars of ``value`` by ``x`` (one bar per ``group`` in each), 95% error bars.
    ``ref``: a column drawn as a short black line across each bar (e.g. the fair share);
    the legend sits outside the axes, on the right."""
    xs = list(dict.fromkeys(df[x]))
    groups = list(dict.fromkeys(df[group]))
    k = 100 if percent else 1
    fig = Figure(figsize=(max(5.0, 0.9 * len(xs) * max(1, len(groups)) * 0.45 + 2) + 1.5, 3.8))
    ax = fig.subplots()
    width = 0.8 / max(1, len(groups))
    ref_drawn = False
    for gi, g in enumerate(groups):
        sub = df[df[group] == g].set_index(x).reindex(xs)
        v = sub[value].to_numpy(np.float64) * k
        err = np.vstack([v - sub[lo].to_numpy(np.float64) * k, sub[hi].to_numpy(np.float64) * k - v])
        pos = np.arange(len(xs)) + (gi - (len(groups) - 1) / 2) * width
        ax.bar(pos, v, width, yerr=np.clip(np.nan_to_num(err), 0, None), capsize=2, label=str(g))
        if ref is not None:
            rv = sub[ref].to_numpy(np.float64) * k
            ok = np.isfinite(rv)
            ax.hlines(rv[ok], pos[ok] - width / 2, pos[ok] + width / 2, color="black", lw=1.5,
                      label=None if ref_drawn else ref_label)
            ref_drawn = True
    if hline is not None:
        ax.axhline(hline * k, color="black", lw=0.8, ls="--")
    ax.axhline(0, color="black", lw=0.5)
    ax.set_xticks(range(len(xs)), [str(v) for v in xs], rotation=0 if len(xs) < 7 else 30)
    ax.set_ylabel(ylabel + (" (%)" if percent else ""))
    if xlabel:
        ax.set_xlabel(xlabel)
    ax.set_title(title)
    if len(groups) > 1 or ref is not None:
        ax.legend(fontsize=7, loc="upper left", bbox_to_anchor=(1.01, 1.0), borderaxespad=0)
    return fig


def histograms(df: pd.DataFrame, value: str, count: str, group: str, title: str, xlabel: str) -> Figure:
    """Distributions side by side: one normalised step histogram per ``group``."""
    fig = Figure(figsize=(6.5, 3.8))
    ax = fig.subplots()
    for g, sub in df.groupby(group, sort=False):
        sub = sub.sort_values(value)
        total = sub[count].sum()
        ax.step(sub[value], sub[count] / total * 100, where="mid", label=f"{g} (n={int(total):,})")
    ax.set_xlabel(xlabel)
    ax.set_ylabel("% of games")
    ax.set_title(title)
    ax.legend(fontsize=7, loc="upper left", bbox_to_anchor=(1.01, 1.0), borderaxespad=0)
    return fig


def take_examples_plot(df: pd.DataFrame, title: str = "Should I take? Each call against passing") -> Figure:
    """Every ``take`` example in one figure, one row per call other than pass (pass is the
    reference, 0 by construction): its net points a hand over passing, paired on the same
    deals, with the 95% interval, all on one scale. ``df``: rows of ``take_table.frame``
    with ``example`` and ``variant`` columns. Green: better than passing beyond the noise;
    red: worse; grey: inside the noise."""
    d = df[df["call"] != "pass"].reset_index(drop=True)
    fig = Figure(figsize=(7.5, 1.0 + 0.32 * max(1, len(d))))
    ax = fig.subplots()
    v = d["net_vs_pass"].to_numpy(np.float64)
    lo = d["net_vs_pass_lo"].to_numpy(np.float64)
    hi = d["net_vs_pass_hi"].to_numpy(np.float64)
    colors = ["tab:green" if a > 0 else "tab:red" if b < 0 else "tab:grey" for a, b in zip(lo, hi)]
    y = np.arange(len(d))[::-1]
    ax.barh(y, v, xerr=np.clip(np.nan_to_num(np.vstack([v - lo, hi - v])), 0, None), capsize=2, color=colors,
            height=0.7)
    labels = [f"{r.example}. {r.variant}: {r.call}" for r in d.itertuples()]
    ax.set_yticks(y, labels, fontsize=8, fontfamily="monospace")
    ax.axvline(0, color="black", lw=0.8)
    for k in range(1, len(d)):
        if d["example"].iloc[k] != d["example"].iloc[k - 1]:
            ax.axhline(y[k] + 0.5, color="0.85", lw=0.6)
    ax.set_xlabel("net points a hand, call − pass (95% CI); pass = 0")
    ax.set_title(title, fontsize=10)
    return fig


FOREST_LEGEND = "blue: default → other reading; red: revision 2, before → after"


def forest(df: pd.DataFrame, panels, title: str, legend: str = FOREST_LEGEND, names=None, ncol: int = 4,
           fontsize: float = 7) -> Figure:
    """Forest plot of paired differences: one panel per ``(statistic, title)`` of ``panels``,
    one row per comparison (``variant: comparison``, or ``names``: a Series of row labels beside
    ``df``), the difference with its 95% interval; filled markers where the interval excludes 0,
    hollow where it does not; blue for the ``kind`` "option", red otherwise (``legend`` says what
    the colours are). At most ``ncol`` panels a row, labels of ``fontsize`` points."""
    panels = [(k, t) for k, t in panels if (df["statistic"] == k).any()]
    one = df["comparison"].nunique() == 1  # one comparison: the rows are the variants
    if names is None:
        names = df["variant"] if one else df["variant"] + ": " + df["comparison"]
    rows = list(dict.fromkeys(names))
    ncol = min(ncol, max(1, len(panels)))
    nrow = -(-len(panels) // ncol) if panels else 1
    scale = fontsize / 7
    fig = Figure(figsize=(3.3 * scale * ncol + 2.6 * scale, 1.2 + nrow * (0.7 + 0.19 * scale * len(rows))),
                 layout="constrained")
    axes = fig.subplots(nrow, ncol, squeeze=False)
    y = {name: i for i, name in enumerate(rows)}
    for k, ax in enumerate(axes.flat):
        if k >= len(panels):
            ax.set_visible(False)
            continue
        key, ptitle = panels[k]
        sub = df[df["statistic"] == key]
        # one collection of lines and one of markers a panel (an artist a row took seconds)
        sub_names = names[sub.index]
        yy = np.array([y[name] for name in sub_names], float)
        color = np.where(sub["kind"].to_numpy() != "option", "tab:red", "tab:blue")
        lo, hi = sub["lo"].to_numpy(float), sub["hi"].to_numpy(float)
        shown = np.isfinite(lo) & np.isfinite(hi)
        ax.hlines(yy[shown], lo[shown], hi[shown], colors=color[shown], lw=1.2)
        face = np.where(sub["beyond_noise"].to_numpy(bool), color, "white")
        ax.scatter(sub["diff"].to_numpy(float), yy, s=16, c=list(face), edgecolors=list(color), linewidths=1,
                   zorder=3)
        ax.axvline(0, color="black", lw=0.7)
        ax.set_ylim(len(rows) - 0.5, -0.5)
        ax.set_yticks(range(len(rows)), rows if k % ncol == 0 else [""] * len(rows), fontsize=fontsize)
        ax.tick_params(axis="x", labelsize=fontsize)
        ax.set_title(ptitle, fontsize=fontsize + 1)
        ax.grid(axis="y", lw=0.3, alpha=0.5)
    fig.suptitle(title + "\n" + legend, fontsize=fontsize + 2)
    return fig


def bracket_plot(df: pd.DataFrame, title: str, empty: str = "no class") -> Figure:
    """The bidding-table bracket: per class (``label``, in order), P(made) and the net gain of
    taking under each play policy (``play``, in order), each with its 95% error bar and the
    policy's n in the legend. ``df``: rows of ``TableBracket.frame`` with a ``label`` column;
    none: the figure says ``empty``."""
    if df.empty:
        fig = Figure(figsize=(6.0, 2.0))
        ax = fig.subplots()
        ax.text(0.5, 0.5, empty, ha="center", va="center")
        ax.set_axis_off()
        ax.set_title(title, fontsize=10)
        return fig
    labels = list(dict.fromkeys(df["label"]))
    plays = list(dict.fromkeys(df["play"]))
    fig = Figure(figsize=(max(6.0, 0.55 * len(labels) + 2.5), 6.2))
    axes = fig.subplots(2, 1, sharex=True)
    width = 0.8 / max(1, len(plays))
    for ax, (col, k, ylabel) in zip(axes, (("p_made", 100, "P(made) when taking (%)"),
                                           ("gain_net", 1, "net gain of taking over passing"))):
        for gi, play in enumerate(plays):
            sub = df[df["play"] == play].set_index("label").reindex(labels)
            v = sub[col].to_numpy(np.float64) * k
            err = np.vstack([v - sub[col + "_lo"].to_numpy(np.float64) * k,
                             sub[col + "_hi"].to_numpy(np.float64) * k - v])
            pos = np.arange(len(labels)) + (gi - (len(plays) - 1) / 2) * width
            n = sub["n"].dropna()
            ns = f"n={int(n.min()):,}" if n.min() == n.max() else f"n={int(n.min()):,}-{int(n.max()):,}"
            ax.errorbar(pos, v, yerr=np.clip(np.nan_to_num(err), 0, None), fmt="o", ms=3, capsize=2,
                        label=f"{play} ({ns} a class)")
        if col == "gain_net":
            ax.axhline(0, color="black", lw=0.8)
        ax.set_ylabel(ylabel, fontsize=8)
        ax.grid(axis="y", color="0.9", lw=0.6)
    axes[0].legend(fontsize=7, loc="upper left", bbox_to_anchor=(1.01, 1.0), borderaxespad=0)
    axes[1].set_xticks(range(len(labels)), labels, rotation=45, ha="right", fontsize=7, fontfamily="monospace")
    axes[0].set_title(title, fontsize=10)
    return fig


def break_even_overview(frames: dict, title: str = "From which strength does taking pay?") -> Figure:
    """Every variant's break-even strengths on one picture (``frames``: label -> the bidding
    table's ``break_even()`` frame): one panel per round, a row per variant, a dot per seat at
    its break-even (hollow where the net gain is never surely positive), a bar from there to
    where it is sure (interval above 0), and the bidders' threshold as a black tick."""
    labels = list(frames)
    fig = Figure(figsize=(9.0, 1.6 + 0.55 * max(2, len(labels))), layout="constrained")
    axes = fig.subplots(1, 2, sharey=True)
    colours = ("tab:blue", "tab:orange", "tab:green", "tab:red")
    for rnd, ax in zip((1, 2), axes):
        for i, lab in enumerate(labels):
            be = frames[lab]
            rows = be[(be["round"] == rnd) & (be["seat"] != "all")]
            for r in rows.itertuples():
                s = int(r.seat)
                y = i + (s - 1.5) * 0.16
                if np.isfinite(r.policy_threshold):
                    ax.plot([r.policy_threshold], [y], marker="|", color="black", ms=9)
                if not np.isfinite(r.break_even):
                    continue
                sure = np.isfinite(r.sure_from)
                if sure:
                    ax.plot([r.break_even, r.sure_from], [y, y], color=colours[s], lw=2, alpha=0.6)
                ax.plot([r.break_even], [y], "o", color=colours[s], mfc=colours[s] if sure else "white")
        ax.set_title(f"round {rnd}", fontsize=9)
        ax.set_xlabel("strength (the heuristic's hand score)")
        ax.grid(axis="x", lw=0.3)
    axes[0].set_yticks(range(len(labels)), labels)
    axes[0].set_ylim(len(labels) - 0.5, -0.5)  # the first variant on top
    handles = [axes[0].plot([], [], "o", color=colours[s])[0] for s in range(4)]
    handles += [axes[0].plot([], [], "o", color="grey", mfc="white")[0], axes[0].plot([], [], "|", color="black", ms=9)[0]]
    fig.legend(handles, [f"seat {s}" for s in range(4)] + ["never surely", "bidders take from"], fontsize=7,
               loc="outside lower center", ncol=6)
    fig.suptitle(title)
    return fig
