"""Formatting numbers with their intervals, the same way in the CLI, the reports and markdown.

Two notations, never mixed:

- ``pm``: ``+12.3 ± 1.4`` where ± is always the 95% half-width (never a standard deviation);
- ``ci``: ``+12.3 [+10.9, +13.7]``, the 95% interval itself.

``±`` is printed only for an interval that is symmetric as printed: both of its sides round
to the same half-width at the printed precision. Any other interval (a Wilson interval near
0% or 100%, ``100.0% [86.2, 100.0]`` and not ``100.0% ± 13.8``; most Wilson intervals on a
few hundred deals) is printed ``[lo, hi]`` wherever a ``pm`` formatter is asked for: one rule,
in ``pm_or_ci``, for every table that uses ± (the CLI's and the reports').

Rates are percentages with one decimal; when the half-width would round to zero at that
precision (a rare event on many deals: ``0.0% ± 0.0``), more decimals are printed, one at a
time, until it does not, so the reader sees how small the rate and its uncertainty are. A standard deviation is written
``sd 81`` and never with ±.
"""

from __future__ import annotations

import math


def _finite(*xs) -> bool:
    return all(x is not None and math.isfinite(x) for x in xs)


MAX_EXTRA_DECIMALS = 3  # 0.0005% is as fine as a rate is ever printed


def rate_decimals(p: float, lo: float, hi: float, decimals: int = 1) -> int:
    """``decimals``, or more, one at a time (at most ``MAX_EXTRA_DECIMALS``), while the 95%
    half-width (in %) would round to zero or the interval's ends to one number:
    ``0.0% ± 0.0`` becomes ``0.00% ± 0.04``, ``0.1% [0.1, 0.1]`` becomes ``0.10% [0.06, 0.14]``."""
    half = 100 * max(p - lo, hi - p)
    d = decimals
    while ((round(half, d) == 0 or round(100 * lo, d) == round(100 * hi, d))
           and d < decimals + MAX_EXTRA_DECIMALS):
        d += 1
    return d


def pm_or_ci(x: float, lo: float, hi: float, decimals: int, sign: str = "", unit: str = "") -> str:
    """``x ± h`` when the interval ``[lo, hi]`` around ``x`` is symmetric at ``decimals``
    (both sides round to ``h``), else ``x [lo, hi]``; ``sign`` ``"+"`` signs the numbers,
    ``unit`` follows the value (``"%"``)."""
    below, above = x - lo, hi - x
    if round(below, decimals) == round(above, decimals) or math.isclose(below, above, rel_tol=1e-9):
        return f"{x:{sign}.{decimals}f}{unit} ± {max(below, above):.{decimals}f}"
    return f"{x:{sign}.{decimals}f}{unit} [{lo:{sign}.{decimals}f}, {hi:{sign}.{decimals}f}]"


def pm_rate(r, decimals: int = 1) -> str:
    """``12.3% ± 0.4`` (the 95% Wilson interval, when symmetric as printed), else
    ``100.0% [86.2, 100.0]`` (``pm_or_ci``); ``0.01% ± 0.02`` when small."""
    return pm_pct(r.p, r.lo, r.hi, decimals)


def pm_pct(p: float, lo: float, hi: float, decimals: int = 1) -> str:
    """``pm_rate`` from the three numbers (a rate and its 95% interval, as fractions)."""
    if not _finite(p, lo, hi):
        return "n/a"
    return pm_or_ci(100 * p, 100 * lo, 100 * hi, rate_decimals(p, lo, hi, decimals), unit="%")


def ci_rate(r, decimals: int = 1) -> str:
    """``12.3% [11.9, 12.7]``; one more decimal when the interval would collapse."""
    return ci_pct(r.p, r.lo, r.hi, decimals)


def ci_pct(p: float, lo: float, hi: float, decimals: int = 1) -> str:
    """``ci_rate`` from the three numbers (a rate and its 95% interval, as fractions)."""
    if not _finite(p, lo, hi):
        return "n/a"
    d = rate_decimals(p, lo, hi, decimals)
    return f"{100 * p:.{d}f}% [{100 * lo:.{d}f}, {100 * hi:.{d}f}]"


def pm_mean(m, decimals: int = 1, sign: bool = True) -> str:
    """``+12.3 ± 1.4`` (± = 95% half-width; ``pm_or_ci``: a normal interval is symmetric)."""
    if not _finite(m.mean, m.lo, m.hi):
        return "n/a"
    return pm_or_ci(m.mean, m.lo, m.hi, decimals, "+" if sign else "")


def ci_mean(m, decimals: int = 1, sign: bool = True) -> str:
    """``+12.3 [+10.9, +13.7]``."""
    if not _finite(m.mean, m.lo, m.hi):
        return "n/a"
    s = "+" if sign else ""
    return f"{m.mean:{s}.{decimals}f} [{m.lo:{s}.{decimals}f}, {m.hi:{s}.{decimals}f}]"


def mean_sd(mean: float, sd: float, decimals: int = 1) -> str:
    """``81.2 (sd 64)``: a mean and the spread of the values (not an interval)."""
    return f"{mean:.{decimals}f} (sd {sd:.0f})"
