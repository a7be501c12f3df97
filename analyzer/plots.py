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

DPI = 110


def save(fig: Figure, path) -> Path:
    """Write ``fig`` as a PNG at ``path`` and return the path."""
    path = Path(path)
    fig.savefig(path, dpi=DPI, bbox_inches="tight")
    return path


def _hon_order(labels):
    from analyzer.table import _hon_key

    return sorted(labels, key=_hon_key)


def heatmap(df: pd.DataFrame, value: str, row: str, col: str, title: str, min_n: int = 0,
            center: float | None = None, percent: bool = False) -> Figure:
    """One panel per ``round`` (if the column exists): ``value`` by ``row`` x ``col``,
    annotated; cells with fewer than ``min_n`` decisions are left blank."""
    rounds = sorted(df["round"].unique()) if "round" in df else [None]
    rows = _hon_order(df[row].unique()) if row == "honours" else sorted(df[row].unique())
    cols = sorted(df[col].unique())
    fig = Figure(figsize=(1.0 + 0.75 * len(cols) * len(rounds) + 1.5, 0.8 + 0.32 * len(rows)))
    axes = fig.subplots(1, len(rounds), squeeze=False)[0]
    vals = df.loc[df["n"] >= min_n, value].to_numpy(np.float64) * (100 if percent else 1)
    vmax = float(np.nanmax(np.abs(vals))) if len(vals) else 1.0
    if center is not None:
        norm = dict(vmin=center - vmax, vmax=center + vmax, cmap="RdBu")
    else:
        norm = dict(vmin=float(np.nanmin(vals)) if len(vals) else 0, vmax=float(np.nanmax(vals)) if len(vals) else 1,
                    cmap="viridis")
    im = None
    for ax, rnd in zip(axes, rounds):
        sub = df if rnd is None else df[df["round"] == rnd]
        grid = np.full((len(rows), len(cols)), np.nan)
        for r in sub.itertuples():
            if r.n >= min_n:
                grid[rows.index(getattr(r, row)), cols.index(getattr(r, col))] = getattr(r, value) * (100 if percent else 1)
        im = ax.imshow(grid, aspect="auto", interpolation="nearest", **norm)
        for i in range(len(rows)):
            for j in range(len(cols)):
                if np.isfinite(grid[i, j]):
                    ax.text(j, i, f"{grid[i, j]:.0f}", ha="center", va="center", fontsize=7)
        ax.set_xticks(range(len(cols)), [str(c) for c in cols])
        ax.set_yticks(range(len(rows)), [str(r) for r in rows], fontfamily="monospace", fontsize=8)
        ax.set_xlabel(col.replace("_", " "))
        if ax is axes[0]:
            ax.set_ylabel("trump J 9 A T held" if row == "honours" else row.replace("_", " "))
        ax.set_title(f"round {rnd}" if rnd is not None else "")
    if im is not None:
        cb = fig.colorbar(im, ax=list(axes), shrink=0.8)
        cb.set_label(value.replace("_", " ") + (" (%)" if percent else ""))
    fig.suptitle(title + (f" (cells with n ≥ {min_n})" if min_n else ""))
    return fig


def break_even_plot(strength: pd.DataFrame, be: pd.DataFrame, title: str, min_n: int = 200) -> Figure:
    """Net gain of taking over passing (with its 95% band) by the heuristic's strength
    score, one panel per round; the break-even and the policy's thresholds marked."""
    rounds = sorted(strength["round"].unique())
    fig = Figure(figsize=(5.5 * len(rounds), 3.8))
    axes = fig.subplots(1, len(rounds), squeeze=False)[0]
    for ax, rnd in zip(axes, rounds):
        s = strength[(strength["round"] == rnd) & (strength["n"] >= min_n)].sort_values("strength_lo")
        x = s["strength_lo"].to_numpy(np.float64)
        ax.fill_between(x, s["gain_net_lo"], s["gain_net_hi"], alpha=0.3, step="post", label="95% CI")
        ax.step(x, s["gain_net"], where="post", label="net gain of taking")
        ax.axhline(0, color="black", lw=0.8)
        b = be[(be["round"] == rnd)]
        for r in b.itertuples():
            if r.seat == "all" and np.isfinite(r.break_even):
                ax.axvline(r.break_even, color="green", ls="--", label=f"break-even {r.break_even:g}")
        thr = b.loc[b["seat"] != "all", "policy_threshold"].dropna().unique()
        for k, t in enumerate(sorted(thr)):
            ax.axvline(t, color="red", ls=":", lw=0.9, label="policy threshold(s)" if k == 0 else None)
        ax.set_xlabel("heuristic strength score (bin lower edge)")
        ax.set_ylabel("net points a hand, take − pass")
        ax.set_title(f"round {rnd}")
        ax.legend(fontsize=7)
    fig.suptitle(title)
    return fig


def bars_ci(df: pd.DataFrame, x: str, group: str, value: str, lo: str, hi: str, title: str, ylabel: str,
            percent: bool = False, hline: float | None = None, xlabel: str | None = None) -> Figure:
    """Grouped bars of ``value`` by ``x`` (one bar per ``group`` in each), 95% error bars."""
    xs = list(dict.fromkeys(df[x]))
    groups = list(dict.fromkeys(df[group]))
    k = 100 if percent else 1
    fig = Figure(figsize=(max(5.0, 0.9 * len(xs) * max(1, len(groups)) * 0.45 + 2), 3.8))
    ax = fig.subplots()
    width = 0.8 / max(1, len(groups))
    for gi, g in enumerate(groups):
        sub = df[df[group] == g].set_index(x).reindex(xs)
        v = sub[value].to_numpy(np.float64) * k
        err = np.vstack([v - sub[lo].to_numpy(np.float64) * k, sub[hi].to_numpy(np.float64) * k - v])
        pos = np.arange(len(xs)) + (gi - (len(groups) - 1) / 2) * width
        ax.bar(pos, v, width, yerr=np.clip(np.nan_to_num(err), 0, None), capsize=2, label=str(g))
    if hline is not None:
        ax.axhline(hline * k, color="black", lw=0.8, ls="--")
    ax.axhline(0, color="black", lw=0.5)
    ax.set_xticks(range(len(xs)), [str(v) for v in xs], rotation=0 if len(xs) < 7 else 30)
    ax.set_ylabel(ylabel + (" (%)" if percent else ""))
    if xlabel:
        ax.set_xlabel(xlabel)
    ax.set_title(title)
    if len(groups) > 1:
        ax.legend(fontsize=7, ncol=min(5, len(groups)))
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
    ax.legend(fontsize=7)
    return fig


def take_calls_plot(df: pd.DataFrame, title: str) -> Figure:
    """Each call's net points over passing, with its 95% error bar (one ``take`` answer)."""
    fig = Figure(figsize=(max(4.0, 1.1 * len(df) + 1.5), 3.2))
    ax = fig.subplots()
    v = df["net_vs_pass"].to_numpy(np.float64)
    err = np.vstack([v - df["net_vs_pass_lo"].to_numpy(np.float64), df["net_vs_pass_hi"].to_numpy(np.float64) - v])
    colors = ["tab:green" if x > 0 else "tab:red" for x in v]
    ax.bar(range(len(df)), v, yerr=np.clip(np.nan_to_num(err), 0, None), capsize=3, color=colors)
    ax.axhline(0, color="black", lw=0.8)
    ax.set_xticks(range(len(df)), df["call"])
    ax.set_ylabel("net points a hand vs pass")
    ax.set_title(title, fontsize=9)
    return fig


def forest(df: pd.DataFrame, panels, title: str) -> Figure:
    """Forest plot of paired differences: one panel per ``(statistic, title)`` of ``panels``,
    one row per comparison (``variant: comparison``), the difference with its 95% interval;
    filled markers where the interval excludes 0, hollow where it does not."""
    panels = [(k, t) for k, t in panels if (df["statistic"] == k).any()]
    rows = list(dict.fromkeys(df["variant"] + ": " + df["comparison"]))
    ncol = min(4, max(1, len(panels)))
    nrow = -(-len(panels) // ncol) if panels else 1
    fig = Figure(figsize=(3.3 * ncol + 2.6, 0.8 + nrow * (0.6 + 0.19 * len(rows))))
    axes = fig.subplots(nrow, ncol, squeeze=False)
    y = {name: i for i, name in enumerate(rows)}
    for k, ax in enumerate(axes.flat):
        if k >= len(panels):
            ax.set_visible(False)
            continue
        key, ptitle = panels[k]
        sub = df[df["statistic"] == key]
        for r in sub.itertuples():
            yy = y[f"{r.variant}: {r.comparison}"]
            color = "tab:red" if r.kind != "option" else "tab:blue"
            if np.isfinite(r.lo) and np.isfinite(r.hi):
                ax.plot([r.lo, r.hi], [yy, yy], color=color, lw=1.2)
            ax.plot([r.diff], [yy], "o", ms=4, color=color, mfc=color if r.beyond_noise else "white")
        ax.axvline(0, color="black", lw=0.7)
        ax.set_ylim(len(rows) - 0.5, -0.5)
        ax.set_yticks(range(len(rows)), rows if k % ncol == 0 else [""] * len(rows), fontsize=7)
        ax.tick_params(axis="x", labelsize=7)
        ax.set_title(ptitle, fontsize=8)
        ax.grid(axis="y", lw=0.3, alpha=0.5)
    fig.suptitle(title + "\nblue: default → other reading; red: revision 2, before → after", fontsize=9)
    return fig
