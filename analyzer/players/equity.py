"""Game equity tables: the chance that a side wins the game from the score (RULES.md §7), one
table per variant label, as data (``equity_data/<label>.npz`` and its header ``<label>.json``).

A table is indexed by cell ``[seat, ours, other]``: ``seat`` is our side's place in the next
deal (0 = voorhand's side ... the dealer's side last: classic 0 = the team of voorhand, 1 = the
dealing team), ``ours`` our total and ``other`` the best other side's total, both in steps of
``grid`` points (a total at or over the last step falls in the last cell). With three or four
players the other totals below the best are averaged as play brings them about (the reduced
state, measured against the full one in docs/EQUITY.md). Each cell holds ``wins`` of ``n``
simulated games (``n`` = 0: no real game reached it; its value is its neighbours'), and ``p``,
the share made monotone (more points for us never lowers our chance). How the counts are made:
``analyzer.runs.equity``; ``belote equity`` builds, prints and plots them.

Every file is checked when read: the header's format, variant, rules and shapes, the arrays'
dtypes and shapes, their sha256 (in the header), ``0 <= wins <= n`` and ``p`` in [0, 1]. A bad
one is refused in one line naming the file.
"""

from __future__ import annotations

import hashlib
import io
import json
import math
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from analyzer.errors import BeloteError
from analyzer.rules import Rules

EQUITY_DIR = Path(__file__).resolve().parent / "equity_data"
FORMAT = "belote-equity/1"
ARRAYS = {"p": np.float64, "wins": np.int64, "n": np.int64, "capped": np.int64}
MAX_FILE_BYTES = 20_000_000
Z95 = 1.959963984540054  # two-sided 95% normal quantile (as analyzer.runs.stats, which players do not import)


def shipped_equity_path(label: str) -> Path:
    return EQUITY_DIR / f"{label}.npz"


def header_path(path) -> Path:
    return Path(path).with_suffix(".json")


@dataclass
class EquityTable:
    """One variant's table (see the module's docstring)."""

    label: str
    rules: dict  # the rule options it was built under (Rules.options())
    target: int
    grid: int
    p: np.ndarray = field(repr=False)  # (sides, cells, cells) float64, monotone
    wins: np.ndarray = field(repr=False)  # (sides, cells, cells) int64
    n: np.ndarray = field(repr=False)
    capped: np.ndarray = field(repr=False)
    hand_sd: float  # the spread a value owes to the finite sample of hands (see runs.equity.hand_sample_sd)
    provenance: dict = field(default_factory=dict)

    @property
    def sides(self) -> int:
        return int(self.p.shape[0])

    @property
    def cells(self) -> int:
        return int(self.p.shape[1])

    def index(self, total):
        """The cell of a total (numpy arrays too)."""
        return np.minimum(np.asarray(total) // self.grid, self.cells - 1)

    def _ours_best(self, seat, totals):
        """(seat, our total, the best other side's total), broadcast over the leading axes of ``totals``."""
        t = np.asarray(totals, np.int64)
        seat = np.broadcast_to(np.asarray(seat, np.int64), t.shape[:-1])
        ours = np.take_along_axis(t, seat[..., None], axis=-1)[..., 0]
        others = t.copy()
        np.put_along_axis(others, seat[..., None], np.iinfo(np.int64).min, axis=-1)
        return seat, ours, others.max(axis=-1)

    def _cell(self, seat, ours, best) -> np.ndarray:
        flat = (seat * self.cells + self.index(ours)) * self.cells + self.index(best)
        decided = ((ours >= self.target) & (ours > best)) | ((best >= self.target) & (best > ours))
        return np.where(decided, -1, flat)

    def cell_of(self, seat, totals) -> np.ndarray:
        """The flat index into ``p`` of the cell each state reads, -1 where the game is decided
        (as ``win_chance``)."""
        return self._cell(*self._ours_best(seat, totals))

    def cell_variance(self) -> np.ndarray:
        """Every cell's binomial variance (flat): p(1-p)/n of its games; a cell no game reached (its value
        filled from its neighbours) counts as if it had as few games as the fewest reached cell."""
        n = self.n.ravel().astype(np.float64)
        fewest = n[n > 0].min() if (n > 0).any() else 1.0
        q = self.wins.ravel() / np.maximum(n, 1)
        return np.where(n > 0, q * (1 - q) / np.maximum(n, 1), 0.25 / fewest)

    def win_chance(self, seat, totals) -> np.ndarray:
        """Our chance of winning the game, for totals before a deal (``totals[..., side]``, in the
        frame of that deal: side 0 voorhand's) and our side ``seat`` there. A side at or over the
        target alone at the top has won (1 or 0); an exact tie at the top plays on. Vectorised over
        leading axes of ``totals`` (``seat`` broadcast with them)."""
        seat, ours, best = self._ours_best(seat, totals)
        cell = self._cell(seat, ours, best)
        won = ((ours >= self.target) & (ours > best)).astype(np.float64)  # a decided game: 1 if ours, else 0
        return np.where(cell >= 0, self.p.ravel()[np.maximum(cell, 0)], won)

    def interval(self, seat: int, ours: int, other: int) -> tuple[float, float, int]:
        """The 95% interval of a cell (Wilson on its games, widened by ``hand_sd``) and its n."""
        a, b = int(self.index(ours)), int(self.index(other))
        w, n = int(self.wins[seat, a, b]), int(self.n[seat, a, b])
        return (*wilson_widened(w, n, self.hand_sd), n)

    def half_width(self) -> np.ndarray:
        """Every cell's 95% half-width (nan where no game reached it)."""
        n = np.where(self.n > 0, self.n, 1)
        q = self.wins / n
        hw = Z95 * np.sqrt(q * (1 - q) / n + self.hand_sd ** 2)
        return np.where(self.n > 0, hw, np.nan)


def wilson_widened(w: int, n: int, extra_sd: float) -> tuple[float, float]:
    """Wilson's 95% interval of ``w`` in ``n``, its half-width grown by an independent error of
    standard deviation ``extra_sd`` (added in quadrature)."""
    if n <= 0:
        return (0.0, 1.0)
    p = w / n
    z2 = Z95 * Z95
    centre = (p + z2 / (2 * n)) / (1 + z2 / n)
    hw = Z95 * math.sqrt(p * (1 - p) / n + z2 / (4 * n * n)) / (1 + z2 / n)
    hw = math.sqrt(hw * hw + (Z95 * extra_sd) ** 2)
    return max(0.0, centre - hw), min(1.0, centre + hw)


# --- the files ------------------------------------------------------------------------------


def table_bytes(t: EquityTable) -> bytes:
    buf = io.BytesIO()
    np.savez_compressed(buf, **{k: getattr(t, k).astype(dt) for k, dt in ARRAYS.items()})
    return buf.getvalue()


def header(t: EquityTable, data: bytes) -> dict:
    return {"format": FORMAT, "label": t.label, "rules": t.rules, "target": t.target, "grid": t.grid,
            "shape": list(t.p.shape), "arrays": {k: np.dtype(dt).name for k, dt in ARRAYS.items()},
            "sha256": hashlib.sha256(data).hexdigest(), "hand_sd": t.hand_sd, "provenance": t.provenance}


def _bad(path, what: str) -> BeloteError:
    return BeloteError(f"equity table {path}: {what}; rebuild it with belote equity --build")


def read_table(path) -> EquityTable:
    """The table in ``path`` (``.npz``) and its header beside it (``.json``), checked."""
    path = Path(path)
    hpath = header_path(path)
    for p in (path, hpath):
        if not p.is_file():
            fix = ("belote equity --build --ship --variant ..." if path.parent == EQUITY_DIR
                   else f"belote equity --build --file {path}")
            raise BeloteError(f"equity table {p}: no such file; build it with {fix}")
        if p.stat().st_size > MAX_FILE_BYTES:
            raise _bad(p, f"larger than {MAX_FILE_BYTES:,} bytes")
    try:
        h = json.loads(hpath.read_text())
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as e:
        raise _bad(hpath, f"not a readable JSON header ({e.__class__.__name__})") from None
    if not isinstance(h, dict) or h.get("format") != FORMAT:
        raise _bad(hpath, f'not a header of format "{FORMAT}"')
    for key, kind in (("label", str), ("rules", dict), ("target", int), ("grid", int), ("shape", list),
                      ("sha256", str), ("hand_sd", (int, float)), ("provenance", dict)):
        if not isinstance(h.get(key), kind) or isinstance(h.get(key), bool):
            raise _bad(hpath, f"field {key} missing or of the wrong type")
    data = path.read_bytes()
    if hashlib.sha256(data).hexdigest() != h["sha256"]:
        raise _bad(path, "its sha256 is not the one its header records (changed or damaged)")
    try:
        with np.load(io.BytesIO(data), allow_pickle=False) as z:
            arrays = {k: z[k] for k in ARRAYS}
    except (OSError, ValueError, KeyError) as e:
        raise _bad(path, f"not a table of arrays {', '.join(ARRAYS)} ({e.__class__.__name__})") from None
    shape = tuple(h["shape"])
    if len(shape) != 3 or shape[1] != shape[2] or not 2 <= shape[0] <= 4 or h["grid"] <= 0 \
            or shape[1] != -(-h["target"] // h["grid"]):
        raise _bad(hpath, f"shape {list(shape)} does not fit target {h['target']} and grid {h['grid']}")
    for k, dt in ARRAYS.items():
        if arrays[k].shape != shape or arrays[k].dtype != np.dtype(dt):
            raise _bad(path, f"array {k} is {arrays[k].dtype}{list(arrays[k].shape)}, not {np.dtype(dt)}{list(shape)}")
    p, wins, n = arrays["p"], arrays["wins"], arrays["n"]
    if not (np.isfinite(p).all() and (p >= 0).all() and (p <= 1).all()):
        raise _bad(path, "a chance outside [0, 1]")
    if (wins < 0).any() or (wins > n).any() or (arrays["capped"] < 0).any():
        raise _bad(path, "a count of wins outside 0..n")
    if not (0 <= h["hand_sd"] < 1):
        raise _bad(hpath, "hand_sd outside [0, 1)")
    return EquityTable(h["label"], h["rules"], h["target"], h["grid"], p, wins, n, arrays["capped"], float(h["hand_sd"]),
                       h["provenance"])


_LOADED: dict = {}


def equity_table(rules: Rules, path=None) -> EquityTable:
    """The table for ``rules``: the file ``path``, or the one shipped for the rules' variant label;
    refused in one line when it was built under other rules."""
    path = Path(path) if path else shipped_equity_path(rules.label)
    key = (str(path), path.stat().st_mtime_ns if path.exists() else 0)
    if key not in _LOADED:
        _LOADED[key] = read_table(path)
    t = _LOADED[key]
    if t.label != rules.label or t.rules != rules.options():
        differ = sorted(k for k in set(t.rules) | set(rules.options()) if t.rules.get(k) != rules.options().get(k))
        what = f"variant {t.label}" if t.label != rules.label else "rules " + ", ".join(
            f"{k}={t.rules.get(k)}" for k in differ)
        raise BeloteError(f"equity table {path} was built for {what}, not these: build one for them with "
                          f"belote equity --build --variant ... --rule ... --out FILE and pass --equity FILE")
    return t


__all__ = ["EQUITY_DIR", "FORMAT", "EquityTable", "equity_table", "read_table", "table_bytes", "header",
           "shipped_equity_path", "header_path", "wilson_widened"]
