"""The strong play policies compiled apart from the hand: ``strong_card``, a C function the hand
calls through its address (``analyzer.players.strong.call_strong``; why: that module's docstring).

Importing this module compiles ``strong_card`` with the solver, pimc and dd it calls, or loads
them from the kernel cache: only a run that plays a searching policy does
(``analyzer.runs.hand.strong_address``, under the kernel cache's lock). ``strong_card`` reads
the hand's arrays where the link says they are (``workspace_at``): nothing is copied, and what
the policies keep between decisions (the dd table, its fingerprint) stays in the hand's link.
"""

from __future__ import annotations

from numba import carray, cfunc, njit, types
from numba.extending import intrinsic

from analyzer.game.state import STATE_SIZE
from analyzer.players.knowledge import PUB_SIZE
from analyzer.players.strong import L_REC, L_SW, LINK_SIZE, N_REC, StrongWorkspace, policy_card
from analyzer.rules.options import RulesRecord


def _pointer_typer(dtype):
    """The typing of an intrinsic that reads an int64 address as a pointer to ``dtype``."""
    ptr = types.CPointer(dtype)

    def codegen(context, builder, signature, args):
        return builder.inttoptr(args[0], context.get_value_type(ptr))

    return ptr(types.int64), codegen


@intrinsic
def _ints_at(typingctx, address):
    return _pointer_typer(types.int64)


@intrinsic
def _floats_at(typingctx, address):
    return _pointer_typer(types.float64)


@intrinsic
def _uints_at(typingctx, address):
    return _pointer_typer(types.uint64)


@njit(cache=True, inline="always")
def _ints(link, field):
    k = L_SW + 2 * field
    return carray(_ints_at(link[k]), link[k + 1])


@njit(cache=True, inline="always")
def _floats(link, field):
    k = L_SW + 2 * field
    return carray(_floats_at(link[k]), link[k + 1])


@njit(cache=True, inline="always")
def _uints(link, field):
    k = L_SW + 2 * field
    return carray(_uints_at(link[k]), link[k + 1])


@njit(cache=True)
def workspace_at(link):
    """The StrongWorkspace whose arrays the link names (``strong.make_link``), in field order."""
    k = L_SW + 2 * 15  # sc, int64[N_SC, 4]
    sc = carray(_ints_at(link[k]), (link[k + 1] // 4, 4))
    return StrongWorkspace(
        _ints(link, 0), _ints(link, 1), _ints(link, 2), _ints(link, 3), _ints(link, 4),  # pov world ucards slots perm
        _ints(link, 5), _ints(link, 6), _ints(link, 7), _ints(link, 8), _ints(link, 9),  # hseat hcap hforb known forb
        _floats(link, 10), _ints(link, 11), _uints(link, 12), _ints(link, 13), _ints(link, 14),  # wtab meta rng lcards sums
        sc, _ints(link, 16), _ints(link, 17), _ints(link, 18), _ints(link, 19),  # sc ctx tt moves scores
        _ints(link, 20), _ints(link, 21), _ints(link, 22), _ints(link, 23), _ints(link, 24),  # bonus stk cards values fp
    )


# the fields workspace_at reads, in the order it reads them: a field added or moved fails here, at import
assert StrongWorkspace._fields == (
    "pov", "world", "ucards", "slots", "perm", "hseat", "hcap", "hforb", "known", "forb", "wtab", "meta", "rng",
    "lcards", "sums", "sc", "ctx", "tt", "moves", "scores", "bonus", "stk", "cards", "values", "fp")
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
