"""The strong play policies compiled apart from the hand: ``strong_card``, a C function the hand
calls through its address (``analyzer.players.strong.call_strong``; why: that module's docstring).

Importing this module compiles ``strong_card`` with the solver, pimc and dd it calls, or loads
them from the kernel cache: only a run that plays a searching policy does
(``analyzer.runs.hand.strong_address``, under the kernel cache's lock). ``strong_card`` reads
the hand's arrays where the link says they are (``workspace_at``): nothing is copied, and what
the policies keep between decisions (the dd table, its fingerprint) stays in the hand's link.

What it costs to compile. Numba links the code of every function a compiled function calls into
that function's own module, and LLVM optimises and emits the whole again: each layer of calls
between ``strong_card`` and the solver's search paid for the solver, pimc and net once more
(``scripts/bench/compile_time.py functions --llvm``: ``policy_card`` 10.9 s of LLVM, ``pimc.play_out`` 5.1 s,
``dd.dd_card`` 2.7 s on a loaded machine). The layers called at one place only (``policy_card``,
``play_out``, ``dd_card``) are therefore numba-inlined (``inline="always"``), which cut this
module's cold compile by about a fifth (docs/BENCHMARKS.md, 2026-12-03). Inlining more
(``pimc_card``, ``dd_best``, the solver's ``solve_cards`` and ``_exact``) made it slower: numba
types and lowers an inlined body anew, and the big ones cost more that way than LLVM saved. The
small helpers (the state's, the cards', the solver's move ordering) are ``forceinline=True``:
typed once, and LLVM inlines them, which took this module's compile from 45-47 s of CPU to 24-25
(``analyzer.compiling.njit``; docs/BENCHMARKS.md, 2026-12-05).
"""

from __future__ import annotations

import numpy as np
from numba import carray, cfunc, types
from numba.extending import intrinsic

from analyzer.compiling import njit
from analyzer.game.state import STATE_SIZE
from analyzer.players.knowledge import PUB_SIZE
from analyzer.players.strong import L_REC, L_SW, LINK_SIZE, N_REC, StrongWorkspace, policy_card
from analyzer.rules.options import RulesRecord


@intrinsic
def _ints_at(typingctx, address):
    """An int64 address read as a pointer to int64."""
    ptr = types.CPointer(types.int64)

    def codegen(context, builder, signature, args):
        return builder.inttoptr(args[0], context.get_value_type(ptr))

    return ptr(types.int64), codegen


@njit(cache=True, inline="always")
def _field(link, f):
    """Array ``f`` of the workspace the link holds, as int64 (every element is 8 bytes)."""
    k = L_SW + 2 * f
    return carray(_ints_at(link[k]), link[k + 1])


F_SC = StrongWorkspace._fields.index("sc")


@njit(cache=True)
def workspace_at(link):
    """The StrongWorkspace whose arrays the link names (``strong.make_link``), in field order."""
    return StrongWorkspace(
        _field(link, 0), _field(link, 1), _field(link, 2), _field(link, 3), _field(link, 4),  # pov world ucards slots perm
        _field(link, 5), _field(link, 6), _field(link, 7), _field(link, 8), _field(link, 9),  # hseat hcap hforb known forb
        _field(link, 10).view(np.float64), _field(link, 11), _field(link, 12).view(np.uint64),  # wtab meta rng
        _field(link, 13), _field(link, 14),  # lcards sums
        _field(link, F_SC).reshape((link[L_SW + 2 * F_SC + 1] // 4, 4)),  # sc, int64[N_SC, 4]
        _field(link, 16), _field(link, 17), _field(link, 18), _field(link, 19),  # ctx tt moves scores
        _field(link, 20), _field(link, 21), _field(link, 22), _field(link, 23), _field(link, 24),  # bonus stk cards values fp
        _field(link, 25), _field(link, 26), _field(link, 27).view(np.float64),  # wvals bidev feats
        _field(link, 28), _field(link, 29), _field(link, 30),  # rview rcards rnz
    )


# the fields workspace_at reads, in the order it reads them: a field added or moved fails here, at import
assert StrongWorkspace._fields == (
    "pov", "world", "ucards", "slots", "perm", "hseat", "hcap", "hforb", "known", "forb", "wtab", "meta", "rng",
    "lcards", "sums", "sc", "ctx", "tt", "moves", "scores", "bonus", "stk", "cards", "values", "fp", "wvals",
    "bidev", "feats", "rview", "rcards", "rnz")
assert N_REC == 13, "rules_at reads 13 fields of RulesRecord"


@njit(cache=True)
def rules_at(link):
    """The rules record the link holds."""
    r = link[L_REC:L_REC + N_REC]
    return RulesRecord(r[0], r[1], r[2], r[3], r[4], r[5], r[6], r[7], r[8], r[9], r[10], r[11], r[12])


@cfunc(types.int64(types.int64, types.int64, types.int64, types.int64, types.uint64), cache=True, nopython=True)
def strong_card(code, link_at, st_at, pub_at, u):
    """``policy_card(code, st, rec, pub, sw, u)`` on the arrays at these addresses: the hand's
    link (int64[LINK_SIZE]), its state (int64[STATE_SIZE]) and public information (int64[PUB_SIZE])."""
    link = carray(_ints_at(link_at), LINK_SIZE)
    st = carray(_ints_at(st_at), STATE_SIZE)
    pub = carray(_ints_at(pub_at), PUB_SIZE)
    return policy_card(code, st, rules_at(link), pub, workspace_at(link), u)


__all__ = ["strong_card", "workspace_at", "rules_at"]
