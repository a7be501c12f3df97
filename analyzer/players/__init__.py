"""Bidding and play policies, solvers, and their registry. They read the game state; they never loop over hands.

The Python API for other programs (a GUI, another engine): ``choose(policy, state, rules,
public=..., seed=...)`` asks a play policy for its card in a position given what the seat
knows, ``public_info`` builds what the seat knows beyond the state, and ``solve`` is the
double-dummy value of a position and of each legal card (``analyzer.players.api``).
"""

_API = ("choose", "solve", "public_info", "public_from_record", "strong_workspace")


def __getattr__(name):
    # imported on first use: the policies' kernels load only for programs that ask
    if name in _API:
        from analyzer.players import api  # lazy: see above

        return getattr(api, name)
    raise AttributeError(f"module 'analyzer.players' has no attribute {name!r}")
