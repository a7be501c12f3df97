"""The ``net`` play policy's weights as numba reads them: module-level arrays, float64[len(net.ROW_LABELS),
net.N_WEIGHTS], which numba freezes into the compiled policy (``analyzer.players.strong``) as constants.
Read and checked from their files (``analyzer.players.net_files``: ``net_data/*.npy`` and the JSON header
beside each); ``PROVENANCE``: how each row was trained and validated, from the header.
"""

from analyzer.players.net_files import NET_PATH, NET_V2_PATH, read_weights

WEIGHTS, PROVENANCE = read_weights(NET_PATH)  # net (v3), the default: belote learn --write rewrites it
WEIGHTS_V2, PROVENANCE_V2 = read_weights(NET_V2_PATH)  # net:v=2, frozen

__all__ = ["WEIGHTS", "PROVENANCE", "WEIGHTS_V2", "PROVENANCE_V2"]
