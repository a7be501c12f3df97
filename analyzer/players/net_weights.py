"""The ``net`` play policy's weights as numba reads them: module-level arrays, float64[len(net.ROW_LABELS),
net.N_WEIGHTS], which numba freezes into the compiled policy (``analyzer.players.strong``) as constants.
Read and checked from their files (``analyzer.players.net_files``: ``net_data/*.npy`` and the JSON header
beside each); ``PROVENANCE``: how each row was trained and validated, from the header.

One array a version, not one array of all of them: numba freezes a global array into the code only up
to about a megabyte (a version is 0.75 MB); above, it reads it through a pointer and refuses to cache
the compiled policy (NumbaWarning: "Cannot cache ... large global arrays"), which then compiles anew
in every process.
"""

from analyzer.players.net_files import LATEST, NET_VERSIONS, read_weights

_READ = {v: read_weights(path) for v, path in sorted(NET_VERSIONS.items())}
VERSIONS = tuple(sorted(NET_VERSIONS))  # net:v=N for N in these
BY_VERSION = {v: _READ[v][0] for v in VERSIONS}
PROVENANCE_BY_VERSION = {v: _READ[v][1] for v in VERSIONS}
WEIGHTS, PROVENANCE = _READ[LATEST]  # net, the default (net.npy): belote learn --write rewrites it
WEIGHTS_V2 = BY_VERSION[2]  # net:v=2, frozen
WEIGHTS_V3 = BY_VERSION[3]  # net:v=3, frozen

__all__ = ["WEIGHTS", "PROVENANCE", "LATEST", "VERSIONS", "BY_VERSION", "PROVENANCE_BY_VERSION", "WEIGHTS_V2",
           "WEIGHTS_V3"]
