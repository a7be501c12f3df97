"""Confidence intervals: every rate with its n, every mean with its standard error.

- Rates: Wilson score interval (good near 0 and 1, where the normal one is not).
- Means: normal interval from the sum and the sum of squares (n is in the millions).
- Paired comparisons: the mean of per-deal differences and its standard error.
"""

from __future__ import annotations

import math
from dataclasses import asdict, dataclass

import numpy as np

Z95 = 1.959963984540054  # two-sided 95% normal quantile


@dataclass(frozen=True)
class Rate:
    """k successes in n trials, with a 95% Wilson interval."""

    k: int
    n: int
    p: float
    lo: float
    hi: float

    def as_dict(self):
        return asdict(self)

    def __str__(self):
        if self.n == 0:
            return "n/a (n=0)"
        return f"{100 * self.p:.2f}% [{100 * self.lo:.2f}, {100 * self.hi:.2f}]"


def rate(k: int, n: int, z: float = Z95) -> Rate:
    k, n = int(k), int(n)
    if n <= 0:
        return Rate(k, 0, float("nan"), float("nan"), float("nan"))
    p = k / n
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    return Rate(k, n, p, max(0.0, centre - half), min(1.0, centre + half))


@dataclass(frozen=True)
class Mean:
    """A mean of n values with its standard error and 95% interval."""

    n: int
    mean: float
    se: float
    lo: float
    hi: float
    sd: float

    def as_dict(self):
        return asdict(self)

    def __str__(self):
        if self.n == 0:
            return "n/a (n=0)"
        return f"{self.mean:.2f} ± {Z95 * self.se:.2f}"


def mean_from_sums(total: float, total_sq: float, n: int, z: float = Z95) -> Mean:
    n = int(n)
    if n <= 0:
        nan = float("nan")
        return Mean(0, nan, nan, nan, nan, nan)
    m = total / n
    var = max(0.0, total_sq / n - m * m) * (n / (n - 1) if n > 1 else 0.0)
    sd = math.sqrt(var)
    se = sd / math.sqrt(n)
    return Mean(n, m, se, m - z * se, m + z * se, sd)


def mean_of(values, z: float = Z95) -> Mean:
    v = np.asarray(values, dtype=np.float64)
    return mean_from_sums(float(v.sum()), float((v * v).sum()), v.size, z)


def paired_difference(a, b, z: float = Z95) -> Mean:
    """Mean of a - b over the same deals, with its standard error."""
    return mean_of(np.asarray(a, np.float64) - np.asarray(b, np.float64), z)


def distinguishable(d: Mean) -> bool:
    """True when the 95% interval of a difference excludes zero."""
    return d.n > 1 and (d.lo > 0 or d.hi < 0)


# --- control variates: a short sample that borrows a long one's precision ------------------------
#
# A costly policy plays the first M deals of a stream that a cheap one (the *control*) plays to N
# deals. On the M shared deals both values are known, y_i and x_i, so the regression estimator
#
#     y_cv = mean(y) - beta * (mean_M(x) - mean_N(x)),   beta = cov(x, y) / var(x)  (on the M deals)
#
# corrects y's mean by how far the control's first M deals fell from its whole sample. The N deals
# include the M, so with f = (N - M) / N and rho the correlation of x and y on the shared deals,
#
#     var(y_cv) = var(y) * [(1 - 2 f rho^2 + f^2 rho^2) / M + f^2 rho^2 / (N - M)],
#
# which is var(y) (1 - rho^2) / M when N is much larger than M, and var(y) / M when N = M (the
# control then adds nothing). beta is estimated on the same deals (a plug-in estimator: its own
# noise is of order 1/M, measured by the coverage test in tests/questions/test_control_variate.py).


CV_MIN_N = 30  # fewer shared deals: beta's own noise is not small, so the plain numbers are kept


def control_variate(y, x, x_mean_all: float, n_all: int, z: float = Z95) -> Mean:
    """The mean of ``y`` (the short sample) adjusted by the control ``x`` on the same deals, whose
    mean over all its ``n_all`` deals (these first, then others) is ``x_mean_all``. ``sd`` is y's own
    spread; ``se`` the adjusted estimate's standard error. The plain mean where the control has
    nothing to add: fewer than ``CV_MIN_N`` deals, no further control deals, or a constant
    ``x`` or ``y``."""
    adj = _adjusted(y, x, x_mean_all, n_all, z)
    return mean_of(y, z) if adj is None else adj


def control_variate_rate(y, x, x_mean_all: float, n_all: int, z: float = Z95) -> Rate:
    """``control_variate`` for a rate (``y`` and ``x`` are 0/1 per deal): a normal interval clipped
    to [0, 1]; the plain Wilson ``rate`` where the control has nothing to add."""
    y = np.asarray(y, np.float64)
    adj = _adjusted(y, x, x_mean_all, n_all, z)
    if adj is None:
        return rate(int(y.sum()), y.size, z)
    return Rate(int(y.sum()), int(y.size), min(1.0, max(0.0, adj.mean)), max(0.0, adj.lo), min(1.0, adj.hi))


def _adjusted(y, x, x_mean_all, n_all, z):
    y = np.asarray(y, np.float64)
    x = np.asarray(x, np.float64)
    m = y.size
    if x.size != m:
        raise ValueError(f"control variate: {x.size} control values for {m} values")
    if m < CV_MIN_N or n_all <= m:
        return None
    vx = float(x.var(ddof=1))
    vy = float(y.var(ddof=1))
    if vx <= 0 or vy <= 0:
        return None
    cxy = float(((x - x.mean()) * (y - y.mean())).sum() / (m - 1))
    beta = cxy / vx
    rho2 = min(1.0, cxy * cxy / (vx * vy))
    f = (n_all - m) / n_all
    rest_mean = (x_mean_all * n_all - float(x.sum())) / (n_all - m)  # the control's other deals
    est = float(y.mean()) - beta * f * (float(x.mean()) - rest_mean)
    var = vy * ((1 - 2 * f * rho2 + f * f * rho2) / m + f * f * rho2 / (n_all - m))
    se = math.sqrt(max(var, 0.0))
    return Mean(m, est, se, est - z * se, est + z * se, math.sqrt(vy))


def t_quantile(df: int, z: float = Z95) -> float:
    """Two-sided 95% Student t quantile (Cornish-Fisher expansion; within 0.1% for df >= 5)."""
    if df <= 0:
        return float("nan")
    g1 = (z ** 3 + z) / 4
    g2 = (5 * z ** 5 + 16 * z ** 3 + 3 * z) / 96
    g3 = (3 * z ** 7 + 19 * z ** 5 + 17 * z ** 3 - 15 * z) / 384
    return z + g1 / df + g2 / df ** 2 + g3 / df ** 3
