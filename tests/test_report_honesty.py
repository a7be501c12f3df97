"""What the report says is what the numbers are (issue 18): intervals printed as they are,
a progress bar that only moves forward, break-even lines by seat where the seats differ,
and rule options that changed nothing said to have changed nothing, with the reason."""

import numpy as np
import pytest

from analyzer.runs.fmt import pm_mean, pm_or_ci, pm_rate
from analyzer.runs.stats import mean_of, rate


@pytest.mark.parametrize("k, n, printed", [
    (30, 30, "100.0% [88.6, 100.0]"),  # one-sided: was "100.0% ± 11.4"
    (0, 30, "0.0% [0.0, 11.4]"),  # was "0.0% ± 11.4"
    (50, 1000, "5.0% [3.8, 6.5]"),  # the Wilson interval is lopsided at 5%: was "5.0% ± 1.5"
    (500, 1000, "50.0% ± 3.1"),  # symmetric: ± stays
    (912_000, 1_000_000, "91.2% ± 0.1"),  # both sides round to 0.1
])
def test_plus_minus_only_for_an_interval_symmetric_as_printed(k, n, printed):
    assert pm_rate(rate(k, n)) == printed


def test_one_rule_for_means_and_rates():
    assert pm_mean(mean_of(np.arange(100.0))) == "+49.5 ± 5.7"  # a normal interval is symmetric
    assert pm_or_ci(10.0, 9.0, 12.0, 1, "+") == "+10.0 [+9.0, +12.0]"
    assert pm_or_ci(10.0, 9.0, 11.0, 1, "+") == "+10.0 ± 1.0"
