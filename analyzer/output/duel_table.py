"""The answer of ``duel`` as text: the CLI prints it, the docs quote it.

``lines(r)`` gives a markdown-style table of A's margin over B (all deals, A taking, A
defending), each side's take / made / dedans rates and, when measured, the double-dummy
loss of each side by role; every figure with its n and 95% interval (± = half-width).
"""

from __future__ import annotations

from analyzer.questions.duel import NAMES, seating_text
from analyzer.runs.fmt import pm_mean, pm_rate


def _row(*cells) -> str:
    return "| " + " | ".join(str(c) for c in cells) + " |"


def lines(r) -> list[str]:
    rules = r.rules
    out = [
        f"{rules.label}: duel of A = {r.a.label} against B = {r.b.label}, {r.deals:,} deals, seed {r.seed}",
        f"Seatings: {seating_text(rules)}; the same cards and random stream in every seating.",
        "",
        _row("A's margin over B, points a hand", "mean ± 95%", "n"),
        _row("---", "---:", "---:"),
        _row("every deal (mean of its seatings)", pm_mean(r.margin, 2), f"{r.margin.n:,} deals"),
        _row("seatings where A's side took", pm_mean(r.taking, 2), f"{r.taking.n:,} hands"),
        _row("seatings where A's side defended", pm_mean(r.defending, 2), f"{r.defending.n:,} hands"),
    ]
    if r.net_best is not None:
        out.append(_row("A's score minus the best other's (take's net; < 0 for equal sets)",
                        pm_mean(r.net_best, 2), f"{r.net_best.n:,} deals"))
    out += [
        "",
        _row("side", f"took (of {r.hands:,} hands)", "made (of its takes)", "dedans (of its takes)",
             "capot/pit (of its takes)", "n takes"),
        _row("---", "---:", "---:", "---:", "---:", "---:"),
    ]
    for w, s in enumerate(r.sides):
        out.append(_row(NAMES[w], pm_rate(s.took), pm_rate(s.made), pm_rate(s.dedans), pm_rate(s.capot), f"{s.took.k:,}"))
    if r.not_played.k:
        out.append(f"Not played (passed out, or redealt past the cap): {pm_rate(r.not_played)} of {r.hands:,} hands.")
    if r.dd:
        out += [
            "",
            f"Double-dummy loss (solver card points given away a hand, mover's side's view), first {r.dd_deals:,} "
            f"deals, {r.dd_positions:,} positions valued in {r.dd_seconds:.1f} s:",
            "",
            _row("side", "role", "loss a hand", "hands", "cards valued"),
            _row("---", "---", "---:", "---:", "---:"),
        ]
        for d in r.dd:
            out.append(_row(d.side, d.role, pm_mean(d.loss, 1, sign=False), f"{d.loss.n:,}", f"{d.cards:,}"))
    out += ["", f"Verdict: {r.verdict()}"]
    return out


def text(r) -> str:
    return "\n".join(lines(r))


__all__ = ["lines", "text"]
