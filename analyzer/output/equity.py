"""Game-equity tables written, told and drawn: the files (``write_table``, by the rule of output
files), the console's words (``equity_text``, English or Dutch) and the heatmap (``equity_figure``).
Reading a table back is ``analyzer.players.equity``."""

from __future__ import annotations

import datetime
import json
import platform
from pathlib import Path

import numpy as np
from matplotlib.figure import Figure

from analyzer.output.outdir import FileKind, check_file, command_line, provenance, write_lines
from analyzer.players.bidding import SCORE_REGIONS
from analyzer.players.equity import FORMAT, EquityTable, header, header_path, table_bytes


def _is_table(path: Path) -> bool:
    try:
        return json.loads(header_path(path).read_text()).get("format") == FORMAT
    except (OSError, ValueError, AttributeError, RecursionError):
        return False


TABLE_FILE = FileKind("an equity table", _is_table, "classic.npz")
HEADER_FILE = FileKind("an equity table's header", lambda p: _is_table(Path(p).with_suffix(".npz")), "classic.json")


def cpu_model() -> str:
    """The CPU's model name (Linux), for the provenance of timings."""
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or "unknown"


def check_table_target(path, ship: bool = False) -> Path:
    """The table and its header may be written (checked before any work, and again when writing)."""
    flag = "--ship" if ship else "--file"
    check_file(header_path(path), flag, HEADER_FILE, committed=ship)
    return check_file(path, flag, TABLE_FILE, committed=ship)


def write_table(table: EquityTable, path, ship: bool = False) -> Path:
    """The arrays (``.npz``) and then the header that vouches for them (``.json``, their sha256),
    each written beside its place and renamed into it; the provenance gains the tool's version and
    commit, the date, the command and the CPU."""
    flag = "--ship" if ship else "--file"
    data = table_bytes(table)
    table.provenance.update({**provenance(), "date": datetime.date.today().isoformat(),
                             "command": command_line(), "cpu_model": cpu_model()})
    write_lines(path, [data], flag, TABLE_FILE, committed=ship)
    write_lines(header_path(path), [json.dumps(header(table, data), indent=2) + "\n"], flag, HEADER_FILE,
                committed=ship)
    return Path(path)


# --- words -----------------------------------------------------------------------------------

_SEATS = {  # the seat of a cell, by the number of sides
    "en": {2: ("the non-dealing side", "the dealing side"), 3: ("voorhand", "second hand", "the dealer"),
           4: ("voorhand", "second hand", "third hand", "the dealer")},
    "nl": {2: ("de niet-gevende kant", "de gevende kant"), 3: ("voorhand", "middelhand", "de gever"),
           4: ("voorhand", "tweede hand", "derde hand", "de gever")},
}
_TEAMS = {"en": ("voorhand's team", "the dealer's team"), "nl": ("het team van voorhand", "het team van de gever")}

_T = {
    "en": {
        "title": "Game equity, {label} (to {target}): the chance that a side wins the game from the score",
        "built": "Built from {games:,} real games ({hands:,} hands) under {players}; {k:,} games from every cell "
                 "of {grid} points; commit {commit}, {date}.",
        "start": "From 0-0, {seat} wins {p} [{lo}, {hi}] (real games: {g} [{glo}, {ghi}], n={n:,}).",
        "grid": "Our chance (%) by our total (rows) and the best other's (columns), {seat} to play next:",
        "check": "Checked against {games:,} other real games ({pred:,} predictions): Brier score {brier:.3f} "
                 "(guessing the average: {none:.3f}); by tenths of the table's chance, the games won:",
        "row": "  table {lo:.0%}-{hi:.0%} (mean {mp:.1%}): won {o:.1%} [{olo:.1%}, {ohi:.1%}], n={n:,} in {g:,} games",
        "precision": "95% half-width where the game is open (our chance 10-90%): median {med:.2f}, largest {top:.2f} "
                     "points of percentage; the sample of hands adds {sd:.2f} (one standard deviation).",
        "reduced": "With {n} players a cell keeps our total and the best other's; the whole state, measured on "
                   "{states} open states ({k:,} games each): {mean:.1f} points of percentage apart on average, "
                   "{p90:.1f} at the 90th percentile.",
        "players": "{bid} bidders and {play} play",
        "no_hand_sd": "; the sample of hands adds too little to measure (its resamples spread no more than the "
                      "games' own noise).",
    },
    "nl": {
        "title": "Winkans, {label} (tot {target}): de kans dat een kant het spel wint vanuit de stand",
        "built": "Gebouwd uit {games:,} echte spellen ({hands:,} handen) met {players}; {k:,} spellen vanuit elk vak "
                 "van {grid} punten; commit {commit}, {date}.",
        "start": "Vanuit 0-0 wint {seat} {p} [{lo}, {hi}] (echte spellen: {g} [{glo}, {ghi}], n={n:,}).",
        "grid": "Onze kans (%) naar ons totaal (rijen) en dat van de beste ander (kolommen), {seat} speelt hierna:",
        "check": "Getoetst aan {games:,} andere echte spellen ({pred:,} voorspellingen): Brier-score {brier:.3f} "
                 "(het gemiddelde gokken: {none:.3f}); per tiende van de kans uit de tabel, de gewonnen spellen:",
        "row": "  tabel {lo:.0%}-{hi:.0%} (gem. {mp:.1%}): gewonnen {o:.1%} [{olo:.1%}, {ohi:.1%}], n={n:,} in {g:,} spellen",
        "precision": "95%-halve breedte waar het spel open is (onze kans 10-90%): mediaan {med:.2f}, grootste "
                     "{top:.2f} procentpunt; de steekproef van handen voegt {sd:.2f} toe (één standaardafwijking).",
        "reduced": "Met {n} spelers houdt een vak ons totaal en dat van de beste ander; tegen de hele stand, gemeten "
                   "op {states} open standen ({k:,} spellen elk): gemiddeld {mean:.1f} procentpunt verschil, "
                   "{p90:.1f} op het 90e percentiel.",
        "players": "{bid}-bieders en {play}-spel",
        "no_hand_sd": "; de steekproef van handen voegt te weinig toe om te meten (haar herbemonsteringen spreiden "
                      "niet meer dan de ruis van de spellen zelf).",
    },
}


def seat_name(table: EquityTable, seat: int, lang: str = "en") -> str:
    names = _TEAMS[lang] if table.label == "classic" else _SEATS[lang][table.sides]
    return names[seat]


def _pct(x: float, lang: str) -> str:
    s = f"{100 * x:.1f}%"
    return s.replace(".", ",") if lang == "nl" else s


def equity_text(table: EquityTable, lang: str = "en", step: int | None = None) -> str:
    """The table told: its provenance, P(win) from 0-0 by seat, a grid every ``step`` points for
    the first seat, its precision and how it foretold real games."""
    t = _T[lang]
    prov = table.provenance
    pl = prov.get("players", {})
    players = t["players"].format(bid=pl.get("bid"), play=pl.get("play")) if isinstance(pl, dict) else str(pl)
    out = [t["title"].format(label=table.label, target=table.target),
           t["built"].format(games=prov.get("real_games", 0), hands=prov.get("hands", 0), players=players,
                             k=prov.get("games_per_cell", 0), grid=table.grid,
                             commit=(prov.get("git_commit") or "unknown")[:7], date=prov.get("date", "?")), ""]
    start = prov.get("check", {}).get("from_0_0", {})
    zero = np.zeros(table.sides, np.int64)
    for u in range(table.sides):
        p = float(table.win_chance(u, zero))
        lo, hi, _ = table.interval(u, 0, 0)
        g = start.get(str(u), {})
        out.append(t["start"].format(seat=seat_name(table, u, lang), p=_pct(p, lang), lo=_pct(lo, lang),
                                     hi=_pct(hi, lang), g=_pct(g.get("games", float("nan")), lang),
                                     glo=_pct(g.get("lo", float("nan")), lang),
                                     ghi=_pct(g.get("hi", float("nan")), lang), n=g.get("n", 0)))
    step = step or table.target // 10
    marks = list(range(0, table.target, step))
    out += ["", t["grid"].format(seat=seat_name(table, 0, lang))]
    out.append("       " + "".join(f"{m:>6}" for m in marks))
    for a in marks:
        row = [100 * table.p[0, table.index(a), table.index(b)] for b in marks]
        out.append(f"{a:>6} " + "".join(f"{v:>6.0f}" for v in row))
    hw = table.half_width()
    open_ = (table.p >= 0.1) & (table.p <= 0.9) & (table.n > 0)
    if open_.any():
        out += ["", t["precision"].format(med=100 * float(np.nanmedian(hw[open_])), top=100 * float(np.nanmax(hw[open_])),
                                          sd=100 * table.hand_sd)]
        if table.hand_sd == 0:
            out[-1] = out[-1].split(";")[0] + t["no_hand_sd"]
    red = prov.get("reduced_state")
    if red:
        out.append(t["reduced"].format(n=table.sides, states=red["states"], k=red["games_each"],
                                       mean=100 * red["mean_abs"], p90=100 * red["p90_abs"]))
    chk = prov.get("check")
    if chk:
        out += ["", t["check"].format(games=chk["games"], pred=chk["predictions"], brier=chk["brier"],
                                      none=chk["brier_no_skill"])]
        for r in chk["calibration"]:
            out.append(t["row"].format(lo=r["predicted"][0], hi=r["predicted"][1], mp=r["mean_predicted"],
                                       o=r["observed"], olo=r["lo"], ohi=r["hi"], n=r["n"], g=r.get("games", 0)))
    return "\n".join(out)


def equity_figure(table: EquityTable, lang: str = "en") -> Figure:
    """One heatmap per seat: our chance by our total (up) and the best other's (right), with the
    10%, 50% and 90% lines."""
    k = table.sides
    fig = Figure(figsize=(3.6 * k + 1.2, 4.2))
    axes = fig.subplots(1, k, squeeze=False)[0]
    ext = [0, table.target, 0, table.target]
    im = None
    for u, ax in enumerate(axes):
        im = ax.imshow(100 * table.p[u], origin="lower", extent=ext, vmin=0, vmax=100, cmap="RdBu",
                       interpolation="nearest", aspect="equal")
        cs = ax.contour(100 * table.p[u], levels=[10, 50, 90], colors="k", linewidths=0.8,
                        extent=[table.grid / 2, table.target - table.grid / 2] * 2)
        ax.clabel(cs, fmt="%d%%", fontsize=7)
        ax.set_title(seat_name(table, u, lang) + (" speelt hierna" if lang == "nl" else " next"), fontsize=9)
        ax.set_xlabel("totaal beste ander" if lang == "nl" else "best other's total")
        if u == 0:
            ax.set_ylabel("ons totaal" if lang == "nl" else "our total")
    cb = fig.colorbar(im, ax=list(axes), shrink=0.85)
    cb.set_label("winkans (%)" if lang == "nl" else "chance to win the game (%)")
    fig.suptitle(("Winkans vanuit de stand, " if lang == "nl" else "The chance to win from the score, ")
                 + f"{table.label} ({'tot' if lang == 'nl' else 'to'} {table.target})")
    return fig


def take_point_figure(tp) -> Figure:
    """The gain of taking (points of percentage of the chance to win the game) against voorhand's
    strength, one line per region of the score with its 95% band, the take points marked."""
    fig = Figure(figsize=(7.5, 4.5))
    ax = fig.subplots()
    for r in tp.regions:
        if not r.gain_at:
            continue
        x = np.array(sorted(r.gain_at))
        m = np.array([r.gain_at[k].mean for k in x])
        lo = np.array([r.gain_at[k].lo for k in x])
        hi = np.array([r.gain_at[k].hi for k in x])
        line = ax.plot(x, m, marker=".", label=r.region + ("" if r.point is None else f" (from {r.point:.0f})"))[0]
        ax.fill_between(x, lo, hi, color=line.get_color(), alpha=0.12)
        if r.point is not None:
            ax.axvline(r.point, color=line.get_color(), linestyle=":", linewidth=1)
    ax.axhline(0, color="k", linewidth=0.8)
    ax.set_xlabel("voorhand's strength in the turned suit (the bidder's score)")
    ax.set_ylabel("gain of taking: chance to win the game (points of %)")
    ax.set_title(f"How the score moves the take point, {tp.label}")
    ax.legend(fontsize=7, loc="upper left")
    return fig


def _point(r) -> str:
    return "—" if r.point is None else f"{r.point:.0f} [{r.lo:.0f}, {r.hi:.0f}]"


def take_points_markdown(tp) -> list[str]:
    """One variant's take point by region of the score (``questions.take_point``), as a table."""
    level = next((r for r in tp.regions if r.region == "level"), None)
    moved = {r.region for r in tp.moved()}
    md = [f"### {tp.label}", "", "| region of the score | states met | deals played | take point [95% CI] | "
          "against level |", "|---|---:|---:|---|---|"]
    for r in tp.regions:
        deals = r.deals
        if r.region == "level" or r.point is None or level is None or level.point is None:
            against = "" if r.region == "level" else ("—" if r.point is None else "")
        else:
            against = ("**later**" if r.point > level.point else "**earlier**") if r.region in moved else "within the noise"
        md.append(f"| {r.region} | {r.states:,} | {deals:,} | {_point(r)} | {against} |")
    md += ["", "(— : too few states met in that region, or taking gains at every strength or at none.)", ""]
    return md


def score_findings(results: dict, number: int = 0, link: str = "") -> list[str]:
    """The first page's line on the score (``take_points`` by variant): where the take point moves
    beyond the noise against level."""
    if not results:
        return []
    moved = []
    for lab, tp in results.items():
        level = next((r for r in tp.regions if r.region == "level"), None)
        for r in tp.moved():
            moved.append(f"{lab} {r.region} ({'later' if r.point > level.point else 'earlier'}: from {_point(r)} "
                         f"against {_point(level)} when level)")
    where = f" ([section {number}](#{link}))" if link else ""
    if not moved:
        return [f"**The game score and the take point**{where}: in no variant does the score move voorhand's take "
                "point beyond the noise of this report (the chance to win the game read from the equity table).", ""]
    return [f"**The game score moves the take point**{where} beyond the noise in: " + "; ".join(moved) + ".", ""]


def take_point_overview(results: dict) -> Figure:
    """Every variant's take point by region of the score, with its 95% interval (one row a region)."""
    fig = Figure(figsize=(8, 4.2))
    ax = fig.subplots()
    labels = list(results)
    width = 0.8 / max(1, len(labels))
    for k, lab in enumerate(labels):
        ys, xs, lo, hi = [], [], [], []
        for i, name in enumerate(SCORE_REGIONS):
            r = next((x for x in results[lab].regions if x.region == name), None)
            if r is None or r.point is None:
                continue
            ys.append(i - 0.4 + width * (k + 0.5))
            xs.append(r.point)
            lo.append(r.point - r.lo)
            hi.append(r.hi - r.point)
        ax.errorbar(xs, ys, xerr=[lo, hi], fmt="o", capsize=2, label=lab, markersize=4)
    ax.set_yticks(range(len(SCORE_REGIONS)), SCORE_REGIONS)
    ax.invert_yaxis()
    ax.set_xlabel("take point: voorhand's strength from which taking raises the chance to win (95% CI)")
    ax.set_title("How the score moves the take point")
    ax.legend(fontsize=7, ncol=len(labels), loc="lower center", bbox_to_anchor=(0.5, -0.35))
    return fig


__all__ = ["TABLE_FILE", "take_point_figure", "take_points_markdown", "take_point_overview", "score_findings",
           "check_table_target",
           "write_table", "equity_text", "equity_figure", "seat_name", "cpu_model"]
