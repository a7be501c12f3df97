"""Re-lay net's weights files after features were inserted into ``net.FEATURES``: 0 for every new term.

    .venv/bin/python scripts/maintainer/net_relay.py --old 42 --at 32 --count 2             # rewrite every weight set
    .venv/bin/python scripts/maintainer/net_relay.py --old 42 --at 32 --count 2 --dry-run   # only check and say

Run it after editing ``analyzer/players/net.py`` (``FEATURES``, ``N_CARD_FEATURES``), while the weights
files still hold the old layout: ``--old`` features, ``--count`` new ones inserted at index ``--at``.
Each setting's block of weights is laid out again in the new order (``net.pair_term``): every old single
and pair term goes to its features' new indices, every term of a new feature is 0. So every card of every
row plays as before, which the fingerprint test then shows (tests/project/test_fingerprint.py), and ``belote
learn`` trains the new terms. Every version: ``net_data/net.npy`` (the latest) and ``net_data/net_vN.npy``
(frozen, the same layout), each with its header (``analyzer.players.net_files``: the provenance kept, the layout and sha256 new).
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[2]
FILES = tuple(sorted((ROOT / "analyzer" / "players" / "net_data").glob("net*.npy")))  # every version


def _terms(f: int) -> int:
    return f + f * (f - 1) // 2


def _pair(f: int, i: int, j: int) -> int:
    """``net.pair_term`` for ``f`` features."""
    return f + i * f - i * (i + 1) // 2 + (j - i - 1)


def relay(w: np.ndarray, old: int, at: int, count: int, settings: int) -> np.ndarray:
    """``w`` (rows x settings blocks of ``_terms(old)``) laid out for ``old + count`` features."""
    new = old + count
    moved = [f if f < at else f + count for f in range(old)]
    out = np.zeros((w.shape[0], settings * _terms(new)))
    for s in range(settings):
        bo, bn = s * _terms(old), s * _terms(new)
        for f in range(old):
            out[:, bn + moved[f]] = w[:, bo + f]
        for i in range(old):
            for j in range(i + 1, old):
                out[:, bn + _pair(new, moved[i], moved[j])] = w[:, bo + _pair(old, i, j)]
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--old", type=int, required=True, help="the number of features the modules hold now")
    ap.add_argument("--at", type=int, required=True, help="where the new features were inserted")
    ap.add_argument("--count", type=int, required=True, help="how many were inserted")
    ap.add_argument("--dry-run", action="store_true")
    a = ap.parse_args()
    sys.path.insert(0, str(ROOT))
    from analyzer.players import net, net_files

    if a.old + a.count != net.N_FEATURES or not 0 <= a.at <= a.old:
        sys.exit(f"net_relay: net.py has {net.N_FEATURES} features, not {a.old} + {a.count} inserted at {a.at}")
    for path in FILES:  # read as they are (net_files.read_weights refuses the old layout)
        w = np.load(path, allow_pickle=False)
        provenance = json.loads(net_files.header_path(path).read_text())["provenance"]
        if w.size != len(net.ROW_LABELS) * net.N_SETTINGS * _terms(a.old):
            sys.exit(f"net_relay: {path.name} holds {w.size} weights, not the layout of {a.old} features")
        out = relay(w.reshape(len(net.ROW_LABELS), -1), a.old, a.at, a.count, net.N_SETTINGS)
        assert np.count_nonzero(out) == np.count_nonzero(w) and out.shape[1] == net.N_WEIGHTS
        print(f"{path.name}: {a.old} -> {net.N_FEATURES} features, {w.size // len(net.ROW_LABELS)} -> "
              f"{out.shape[1]} weights a row{' (dry run: not written)' if a.dry_run else ''}")
        if not a.dry_run:
            data = net_files.array_bytes(out)
            path.write_bytes(data)
            net_files.header_path(path).write_bytes(net_files.header_bytes(out, data, provenance))


if __name__ == "__main__":
    main()
