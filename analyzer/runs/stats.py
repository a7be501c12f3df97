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
