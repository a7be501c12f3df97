"""Where each play policy's parameters sit in its code: declared once, read by the registry
(``analyzer.players.policies``, which packs them) and by the kernels (which unpack them).

A play code is an int64: the policy's kind in the low byte (``analyzer.players.play.KIND_MASK``),
then one byte for each parameter, in the order the policy declares them here. The registry says
what each parameter means, its range and its default; a kernel reads a parameter with
``param(code, SHIFT)``, the shift named after the policy and the parameter (``PIMC_WORLDS``).
"""

from analyzer.compiling import njit

PARAM_BITS = 8  # every parameter is one byte of the code
PARAM_MASK = (1 << PARAM_BITS) - 1

# each policy's parameters, in the order they sit in its code above the kind's byte
DECLARED = {
    "heuristic": ("v",),
    "pimc": ("worlds", "exact", "v", "race", "infer", "rollout"),
    "net": ("v",),
}
SHIFTS = {name: {key: PARAM_BITS * (k + 1) for k, key in enumerate(keys)} for name, keys in DECLARED.items()}
assert all(max(s.values()) + PARAM_BITS <= 63 for s in SHIFTS.values()), "a code is an int64"

HEURISTIC_V = SHIFTS["heuristic"]["v"]
PIMC_WORLDS = SHIFTS["pimc"]["worlds"]
PIMC_EXACT = SHIFTS["pimc"]["exact"]
PIMC_V = SHIFTS["pimc"]["v"]
PIMC_RACE = SHIFTS["pimc"]["race"]
PIMC_INFER = SHIFTS["pimc"]["infer"]
PIMC_ROLLOUT = SHIFTS["pimc"]["rollout"]
NET_V = SHIFTS["net"]["v"]


@njit(cache=True, inline="always")
def param(code, shift):
    """The parameter at ``shift`` of play code ``code`` (its packed byte: 0 where a default is packed as 0)."""
    return (code >> shift) & PARAM_MASK


__all__ = ["PARAM_BITS", "DECLARED", "SHIFTS", "param", "HEURISTIC_V", "PIMC_WORLDS", "PIMC_EXACT", "PIMC_V",
           "PIMC_RACE", "PIMC_INFER", "PIMC_ROLLOUT", "NET_V"]
