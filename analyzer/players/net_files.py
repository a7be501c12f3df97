"""The ``net`` play policy's weights as data: an array file and a JSON header beside it, one pair per
weight set, in ``net_data/`` (``net.npy`` + ``net.json``: ``net``, the latest version and the default, which
``belote learn --write`` rewrites; ``net_vN.npy`` + ``net_vN.json``: ``net:v=N``, the versions
before it, frozen: ``NET_VERSIONS``).

The array (``.npy``, numpy's own format, little-endian float64) has one row per rules label
(``net.ROW_LABELS``) and one column per weight (``net.N_WEIGHTS``: in each setting of ``net.setting``,
one line of ``net.N_TERMS``: each feature of ``net.FEATURES``, then each pair of them in
``net.pair_term``'s order). A row of zeros but the first (the heuristic's card) is the heuristic
itself: the rows not trained yet. The header (``.json``) holds the format, the row labels in order,
the layout (shape, dtype, features, settings), the sha256 of the ``.npy`` file (the header vouches for
exactly those bytes) and the provenance of each row: how it was trained and validated.

Every file is checked when read (``read_weights``): the header's format and fields, the row labels,
the layout against net's, the dtype, the sha256, and every weight finite; a bad one is refused in
one line naming the file and the fix. ``analyzer.players.net_weights`` reads them into the
module-level arrays that numba freezes into the compiled policy as constants; the ``.npy`` files are
in the kernel cache's digest (``analyzer.KERNEL_DATA_FILES``), so a retrained model starts a fresh
kernel cache instead of running the old weights.

A write (``analyzer.runs.learn.write_weights``) renames the ``.npy`` into place first, then the header
that vouches for it. A write killed between the two renames (SIGKILL: other signals wait for both)
leaves the new array beside the old header and, beside both, its temporary header that vouches for
the new array: ``finish_interrupted`` renames that header into place, as the write would have
(``read_weights`` does it when it finds the pair so, and ``belote learn`` before it removes a killed
run's leftovers).
"""

from __future__ import annotations

import hashlib
import io
import json
import os
import re
import sys
import time
from pathlib import Path

import numpy as np

from analyzer.errors import BeloteError, not_a_file
from analyzer.players.net import N_FEATURES, N_SETTINGS, N_WEIGHTS, ROW_LABELS
from analyzer.processes import alive

NET_DATA = Path(__file__).resolve().parent / "net_data"
NET_PATH = NET_DATA / "net.npy"  # net, the latest version and the default: belote learn --write rewrites it
LATEST = 4  # the version of net.npy (net:v=4): shipping a new one freezes this file as net_vLATEST first
# every version's array, by version: the earlier ones frozen (net:v=N plays them, so that duels can measure each
# against the next)
NET_VERSIONS = {2: NET_DATA / "net_v2.npy", 3: NET_DATA / "net_v3.npy", LATEST: NET_PATH}
FORMAT = "belote-net-weights/1"
DTYPE = "<f8"  # little-endian float64, exact to the bit on every machine
MAX_FILE_BYTES = 50_000_000  # the shipped arrays are 0.75 MB, their headers under 20 kB

# every command that plays or learns reads both sets (belote learn --write keeps the rows it does not train)
FIX = ("restore the shipped files (git checkout analyzer/players/net_data in a checkout, or reinstall "
       "belote-analyzer)")


def header_path(path) -> Path:
    """The header beside a weights array: ``net.npy`` -> ``net.json``."""
    return Path(path).with_suffix(".json")


def array_bytes(weights: np.ndarray) -> bytes:
    """``weights`` as the ``.npy`` file holds them (little-endian float64, C order, no pickle)."""
    buf = io.BytesIO()
    np.save(buf, np.ascontiguousarray(weights, DTYPE), allow_pickle=False)
    return buf.getvalue()


def header_bytes(weights: np.ndarray, data: bytes, provenance: dict) -> bytes:
    """The header that vouches for ``data`` (``array_bytes(weights)``): its format, row labels, layout,
    sha256 and the ``provenance`` of each row (keys sorted, as text a reviewer reads)."""
    head = {"format": FORMAT,
            "about": "net's play weights: one row per rules label (rows), one column per weight; "
                     "analyzer/players/net_files.py says how they are laid out and read",
            "rows": list(ROW_LABELS), "shape": list(weights.shape), "dtype": DTYPE,
            "features": N_FEATURES, "settings": N_SETTINGS,
            "sha256": hashlib.sha256(data).hexdigest(),
            "provenance": json.loads(json.dumps(provenance, sort_keys=True, allow_nan=False))}
    return (json.dumps(head, indent=4, ensure_ascii=False, allow_nan=False) + "\n").encode()


class _Mismatch(BeloteError):
    """The array's sha256 is not its header's: perhaps a write between its two renames."""


def _bad(path, what: str, fix: str) -> BeloteError:
    return BeloteError(f"net weights {path}: {what}; {fix}")


def _read(path: Path, fix: str) -> tuple[np.ndarray, dict]:
    hpath = header_path(path)
    for p in (path, hpath):
        kind = not_a_file(p)  # a device or a pipe would be read forever
        if kind:
            raise _bad(p, f"{kind}, not a file", fix)
        if not p.is_file():
            raise _bad(p, "no such file", fix)
        if p.stat().st_size > MAX_FILE_BYTES:
            raise _bad(p, f"larger than {MAX_FILE_BYTES:,} bytes", fix)
    try:
        h = json.loads(hpath.read_bytes())
    except (OSError, UnicodeDecodeError, ValueError) as e:
        raise _bad(hpath, f"not a readable JSON header ({e.__class__.__name__})", fix) from None
    if not isinstance(h, dict) or h.get("format") != FORMAT:
        raise _bad(hpath, f'not a header of format "{FORMAT}"', fix)
    for key, kind in (("rows", list), ("shape", list), ("dtype", str), ("features", int), ("settings", int),
                      ("sha256", str), ("provenance", dict)):
        if not isinstance(h.get(key), kind) or isinstance(h.get(key), bool):
            raise _bad(hpath, f"field {key} missing or of the wrong type", fix)
    if h["rows"] != list(ROW_LABELS):
        raise _bad(hpath, f"rows {h['rows']}, not net's {list(ROW_LABELS)}", fix)
    if (h["features"], h["settings"]) != (N_FEATURES, N_SETTINGS) or h["shape"] != [len(ROW_LABELS), N_WEIGHTS]:
        raise _bad(hpath, f"laid out for {h['features']} features and {h['settings']} settings (shape {h['shape']}), "
                          f"not net's {N_FEATURES} and {N_SETTINGS} (shape {[len(ROW_LABELS), N_WEIGHTS]})",
                   "after a change of net's features re-lay them (scripts/maintainer/net_relay.py), or " + fix)
    if h["dtype"] != DTYPE:
        raise _bad(hpath, f'dtype "{h["dtype"]}", not "{DTYPE}"', fix)
    try:
        data = path.read_bytes()
    except OSError as e:
        raise _bad(path, f"not readable ({os.strerror(e.errno) if e.errno else e})", fix) from None
    if hashlib.sha256(data).hexdigest() != h["sha256"]:
        raise _Mismatch(f"net weights {path}: its sha256 is not the one its header {hpath.name} records "
                        f"(changed or damaged); {fix}")
    try:
        w = np.lib.format.read_array(io.BytesIO(data), allow_pickle=False)
    except (OSError, ValueError, EOFError) as e:
        raise _bad(path, f"not a .npy array ({e.__class__.__name__})", fix) from None
    if w.dtype != np.dtype(DTYPE) or list(w.shape) != h["shape"]:
        raise _bad(path, f"an array of {w.dtype.str}{list(w.shape)}, not the header's {DTYPE}{h['shape']}", fix)
    if not np.isfinite(w).all():
        bad = np.argwhere(~np.isfinite(w))[0]
        row, col = int(bad[0]), int(bad[1])
        raise _bad(path, f"weight {col} of row {ROW_LABELS[row]} is {w[row, col]}, not a finite number", fix)
    # a writable native C array of its own, as numba types the module-level global it freezes
    return np.array(w, dtype=np.float64, order="C"), h["provenance"]


def read_weights(path, fix: str = FIX) -> tuple[np.ndarray, dict]:
    """The weights in ``path`` (``.npy``) and the provenance in its header, checked (see the module's
    docstring): float64[len(ROW_LABELS), N_WEIGHTS], exact to the bit. One line naming the file and
    ``fix`` for a bad one."""
    path = Path(path)
    for attempt in range(3):
        try:
            return _read(path, fix)
        except _Mismatch as e:
            if attempt == 2:
                raise BeloteError(str(e)) from None
            note = finish_interrupted(path)  # a write killed between its renames: finished
            if note:
                print(note, file=sys.stderr)
            else:
                time.sleep(0.05)  # perhaps a write between its two renames right now: read again


_TMP_HEADER = r"\.{name}\.(\d+)\.tmp"  # a header written and not yet renamed into place (runs.learn's names)


def finish_interrupted(path) -> str | None:
    """Finish a write of ``path`` killed between its two renames: the array renamed into place, its
    header not. The header it wrote (``.NAME.json.PID.tmp``, of a PID no process has) vouches for the
    array in place by its sha256; renamed into place, the pair is the one the write meant (and the
    second name the write kept of the array it replaced, ``.NAME.npy.PID.old.tmp``, is removed). Return
    the line that says so, or None when there was no such write (the header in place vouches for the
    array, or no header left does; or the rename failed: the pair is then refused as it is)."""
    path = Path(path)
    hpath = header_path(path)
    pattern = re.compile(_TMP_HEADER.format(name=re.escape(hpath.name)))
    try:
        sha = hashlib.sha256(path.read_bytes()).hexdigest()
        try:
            if json.loads(hpath.read_bytes()).get("sha256") == sha:
                return None  # the pair is whole
        except (OSError, ValueError, AttributeError):
            pass
        left = sorted((int(m.group(1)), p) for p in path.parent.iterdir() if (m := pattern.fullmatch(p.name)))
    except OSError:
        return None
    for pid, p in left:
        if alive(pid):
            continue
        try:
            h = json.loads(p.read_bytes())
            if not isinstance(h, dict) or h.get("format") != FORMAT or h.get("sha256") != sha:
                continue
            os.replace(p, hpath)
        except (OSError, ValueError):
            continue
        replaced = path.with_name(f".{path.name}.{pid}.old.tmp")
        try:
            replaced.unlink(missing_ok=True)
        except OSError:
            pass  # belote learn removes it (runs.learn.remove_stale)
        return (f"belote: a learn --write killed between its two renames (PID {pid}) left {path} without its "
                f"header: finished it ({p.name} renamed to {hpath.name})")
    return None


__all__ = ["NET_DATA", "NET_PATH", "LATEST", "NET_VERSIONS", "FORMAT", "DTYPE", "FIX", "header_path",
           "array_bytes", "header_bytes", "read_weights", "finish_interrupted"]
