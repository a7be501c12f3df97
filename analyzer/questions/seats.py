"""Hands with the seat advantage: ``simulate``'s counts plus, per seat, the paired
difference between its side's hand score and the other sides' mean, on the same hand.

Hand ``i`` is the same as hand ``i`` of ``analyzer.runs.simulate`` with the same seed (same
stream, same dealing), so both runs agree on every count they share. The advantage of
seat ``s`` on one hand is ``score(side(s)) - mean of the other sides' scores``; it is
accumulated as the integer ``(n_sides - 1) * score(side(s)) - sum of the others`` (and
its square) so the sums are exact and identical whatever the thread count. Hands not
played (passed out, redeal) count as 0 for everyone. The per-hand kernel is
``analyzer.runs.units.simulate_unit`` with its ``seats`` flag, run by the one driver
(kind ``SEATS``).
"""

from __future__ import annotations

from analyzer.runs import driver
from analyzer.runs.simulate import SimConfig, SimResult, run_hands
from analyzer.runs.stats import Mean, mean_from_sums
from analyzer.runs.units import N_COUNTS

A_SUM = 0  # + seat: sum of the scaled advantage
A_SQ = 4  # + seat: sum of its squares
N_ADV = 8


def simulate_seats(config: SimConfig, progress=None, batch: int = 1 << 20, keep: int = 0, reduce=None):
    """``simulate(config)`` plus the seat advantage sums: returns (SimResult, adv int64[8]); with
    ``keep``, a third item: the first ``keep`` hands' rows (counts, then ``N_ADV`` advantage
    sums), one a hand, in batches passed through ``reduce`` (``run_hands``)."""
    out = run_hands(driver.SEATS, config, progress, batch, keep, reduce)
    row, seconds, threads = out[:3]
    res = SimResult(config, row[:N_COUNTS].copy(), seconds, threads), row[N_COUNTS:].copy()
    return res + (out[3],) if keep else res


def seat_advantage(adv, seat: int, n_sides: int, hands: int) -> Mean:
    """Mean advantage (points a hand) of ``seat``'s side over the mean of the other sides."""
    k = n_sides - 1
    return mean_from_sums(float(adv[A_SUM + seat]) / k, float(adv[A_SQ + seat]) / (k * k), hands)
