"""The strong play policies' workspace and their one dispatch on the game state (the
Python API over it: ``analyzer.players.api``).

``policy_card(code, st, rec, pub, sw, u)`` is the card of the seat to move of state ``st``
under play policy ``code`` (``analyzer.players.policies.play_code``): ``random`` and
``heuristic`` from what the seat sees (``analyzer.players.play.choose_card``), ``dd``
(``analyzer.players.dd``) and ``pimc`` (``analyzer.players.pimc``). ``pub`` is the public
information of the hand (``analyzer.players.knowledge``); ``sw`` a ``StrongWorkspace``
(``make_strong``); ``u`` a fresh 64-bit random number of the hand's stream.

The hand reaches them through an address, not a call numba links (``make_link``,
``call_strong``; the entry itself is ``analyzer.players.strong_entry.strong_card``). Numba
copies the code of every function a kernel calls into the kernel's own module and optimises
all of it again (``numba.core.codegen.CPUCodeLibrary.finalize``), so a hand that called
``policy_card`` carried the solver and pimc into every kernel that plays hands, and every
heuristic or random run compiled them: about a third of a cold start (figures in
docs/BENCHMARKS.md). Through an address the hand is compiled once for every policy, and the
searching policies are compiled (or loaded from the cache) only by a run that plays them.
"""

from __future__ import annotations

import sys
import threading
from typing import NamedTuple

import numpy as np
from llvmlite import ir
from numba import types
from numba.extending import intrinsic

from analyzer.compiling import njit
from analyzer.rules.structure import declares_after_trick, team_scoring
from analyzer.compiling import STRONG_LOCK, cache_folder, locked
from analyzer.layout import offsets
from analyzer.game.dealing import GOLDEN, mix64
from analyzer.game.state import STATE_SIZE, ST_TO_MOVE, is_over, legal_cards, play_card
from analyzer.players import play
from analyzer.players.dd import dd_card
from analyzer.players.params import NET_V, param
from analyzer.players.knowledge import MAX_HOLDERS, PUB_SEEN_OUT, ROOM, note_declarations, note_stuk, observe
from analyzer.players.net import N_FEATURES, net_card, rules_row
from analyzer.players.net_weights import WEIGHTS, WEIGHTS_V2, WEIGHTS_V3
from analyzer.players.pimc import MAX_WORLDS, N_SC, pimc_card
from analyzer.players.solver import (
    C_MTD_STEPS,
    C_OBJ,
    C_SIZE,
    C_TT_MASK,
    DEPTH,
    ENTRY,
    FRAME,
    MOVE_STRIDE,
    OBJ_PIT,
    OBJ_POINTS,
)
from analyzer.rules.options import RulesRecord
from analyzer.rules.cards import N_CARDS, nth_card, popcount


DD_TT_BITS = 20  # the dd policy's table: 1M entries (32 MB), kept through a hand
PIMC_TT_BITS = 14  # pimc solves endings of a few tricks only


class StrongWorkspace(NamedTuple):
    """Scratch of the strong policies, one per thread (allocated only when one is in play)."""

    pov: np.ndarray  # int64[STATE_SIZE]: the view, what the seat to move knows (knowledge.observe)
    world: np.ndarray  # int64[STATE_SIZE]: one sampled deal
    ucards: np.ndarray  # int64[32]: the unseen cards
    slots: np.ndarray  # int64[32]: Dekjas, face-up cards over a hidden card
    perm: np.ndarray  # int64[32]: Dekjas, the shuffled unseen cards
    hseat: np.ndarray  # int64[MAX_HOLDERS]: seat of each holder (-1 stock, -2 none)
    hcap: np.ndarray  # int64[MAX_HOLDERS]: cards each holder still has unseen
    hforb: np.ndarray  # int64[MAX_HOLDERS]: cards each holder cannot have
    known: np.ndarray  # int64[4]: per seat, cards everyone knows it holds
    forb: np.ndarray  # int64[4]: per seat, cards the play proves it does not hold
    wtab: np.ndarray  # float64[33 * ROOM * ROOM]: completions of partial deals
    meta: np.ndarray  # int64[2]: unseen cards, Dekjas slots
    rng: np.ndarray  # uint64[1]: the decision's own stream, seeded from the hand's number
    lcards: np.ndarray  # int64[32]: the legal cards valued
    sums: np.ndarray  # int64[32]: their values summed over the worlds
    sc: np.ndarray  # int64[N_SC, 4]: scoring scratch (pimc.hand_value)
    ctx: np.ndarray  # the solver's counters and settings (solver.C_*)
    tt: np.ndarray  # the solver's transposition table
    moves: np.ndarray
    scores: np.ndarray
    bonus: np.ndarray
    stk: np.ndarray
    cards: np.ndarray  # int64[32]: solve_cards output
    values: np.ndarray  # int64[32]
    fp: np.ndarray  # int64[1]: fingerprint of the deal the dd table holds
    wvals: np.ndarray  # int64[(MAX_WORLDS + 1) * 32]: pimc's value of each card on each world (racing)
    bidev: np.ndarray  # int64[4]: per seat, the cards it has played (knowledge.prepare_bids: infer=bids)
    feats: np.ndarray  # float64[32 * net.N_FEATURES]: the net policy's features of each legal card
    rview: np.ndarray  # int64[STATE_SIZE]: pimc:rollout=net, the view of the seat to move in a play-out
    rcards: np.ndarray  # int64[32]: pimc:rollout=net, net's legal cards in a play-out
    rnz: np.ndarray  # int64[net.N_FEATURES]: pimc:rollout=net, net's scratch in a play-out


@njit(cache=True)
def strong_bits(play_pol):
    """The table size (bits) the policies of ``play_pol`` (any shape) need: -1 when no
    strong policy is in play."""
    bits = -1
    for code in play_pol.flat:
        kind = code & play.KIND_MASK
        if kind == play.DD:
            bits = max(bits, DD_TT_BITS)
        elif kind == play.PIMC:
            bits = max(bits, PIMC_TT_BITS)
        elif kind == play.NET:
            bits = max(bits, 0)  # a workspace, no table
    return bits


@njit(cache=True)
def make_strong(teams, tt_bits):
    """A workspace (``_init_ctx``: the solver's settings; ``teams``: ``structure.team_scoring`` of the rules);
    ``tt_bits`` -1: no strong policy in play, a placeholder of the same types (one-element arrays). The hand keeps its own in its
    link instead (``make_link``)."""
    i = np.int64
    if tt_bits < 0:
        return StrongWorkspace(
            np.zeros(1, i), np.zeros(1, i), np.zeros(1, i), np.zeros(1, i), np.zeros(1, i), np.zeros(1, i),
            np.zeros(1, i), np.zeros(1, i), np.zeros(1, i), np.zeros(1, i), np.zeros(1, np.float64),
            np.zeros(1, i), np.zeros(1, np.uint64), np.zeros(1, i), np.zeros(1, i), np.zeros((1, 4), i),
            np.zeros(1, i), np.zeros(1, i), np.zeros(1, i), np.zeros(1, i), np.zeros(1, i), np.zeros(1, i),
            np.zeros(1, i), np.zeros(1, i), np.zeros(1, i), np.zeros(1, i), np.zeros(1, i), np.zeros(1, np.float64),
            np.zeros(1, i), np.zeros(1, i), np.zeros(1, i))
    ctx = np.zeros(C_SIZE, i)
    _init_ctx(ctx, teams, tt_bits)
    return StrongWorkspace(
        np.zeros(STATE_SIZE, i), np.zeros(STATE_SIZE, i), np.zeros(N_CARDS, i), np.zeros(N_CARDS, i),
        np.zeros(N_CARDS, i), np.zeros(MAX_HOLDERS, i), np.zeros(MAX_HOLDERS, i), np.zeros(MAX_HOLDERS, i),
        np.zeros(4, i), np.zeros(4, i), np.zeros((N_CARDS + 1) * ROOM * ROOM, np.float64), np.zeros(2, i),
        np.zeros(1, np.uint64), np.zeros(N_CARDS, i), np.zeros(N_CARDS, i), np.zeros((N_SC, 4), i),
        ctx, np.zeros((1 << tt_bits) * ENTRY, i), np.zeros(DEPTH * MOVE_STRIDE, i), np.zeros(DEPTH * MOVE_STRIDE, i),
        np.zeros(4, i), np.zeros(DEPTH * FRAME, i), np.zeros(N_CARDS, i), np.zeros(N_CARDS, i), np.zeros(1, i),
        np.zeros((MAX_WORLDS + 1) * N_CARDS, i), np.zeros(4, i), np.zeros(N_CARDS * N_FEATURES, np.float64),
        np.zeros(STATE_SIZE, i), np.zeros(N_CARDS, i), np.zeros(N_FEATURES, i),
    )


@njit(cache=True)
def strong_sizes(tt_bits):
    """The number of elements (all of 8 bytes) of each array of a workspace ``make_strong`` makes
    for ``tt_bits`` >= 0, in field order."""
    return np.array((STATE_SIZE, STATE_SIZE, N_CARDS, N_CARDS, N_CARDS, MAX_HOLDERS, MAX_HOLDERS, MAX_HOLDERS,
                     4, 4, (N_CARDS + 1) * ROOM * ROOM, 2, 1, N_CARDS, N_CARDS, N_SC * 4, C_SIZE,
                     (1 << tt_bits) * ENTRY, DEPTH * MOVE_STRIDE, DEPTH * MOVE_STRIDE, 4, DEPTH * FRAME,
                     N_CARDS, N_CARDS, 1, (MAX_WORLDS + 1) * N_CARDS, 4, N_CARDS * N_FEATURES,
                     STATE_SIZE, N_CARDS, N_FEATURES), np.int64)


@njit(cache=True)
def _init_ctx(ctx, teams, tt_bits):
    """The solver's settings: its objective (card points where two teams score, classic; with the
    pit awards elsewhere: analyzer.players.solver), its table's size, its search steps."""
    ctx[C_OBJ] = OBJ_POINTS if teams else OBJ_PIT
    ctx[C_TT_MASK] = (1 << tt_bits) - 1
    ctx[C_MTD_STEPS] = 3


@njit(cache=True, inline="always")  # one layer less: see analyzer.players.strong_entry
def policy_card(code, st, rec, pub, sw, u):
    """The card of the seat to move of ``st`` under play policy ``code`` (module docstring)."""
    kind = code & play.KIND_MASK
    if kind == play.DD:
        return dd_card(st, rec, sw)
    if kind == play.PIMC:
        return pimc_card(st, rec, pub, sw, code, u)
    if kind == play.NET:
        legal = legal_cards(st, rec)
        if popcount(legal) == 1:  # a forced card: nothing to score (the same card net_card returns)
            return nth_card(legal, 0)
        observe(st, rec, pub, st[ST_TO_MOVE], sw.pov)  # the seat's view: never the hidden cards
        v = param(code, NET_V)  # net:v=N, the versions before the latest (the default, which packs as 0)
        weights = WEIGHTS_V2[rules_row(rec)] if v == 2 else WEIGHTS_V3[rules_row(rec)] if v == 3 else WEIGHTS[rules_row(rec)]
        return net_card(sw.pov, rec, pub, weights, sw.lcards, sw.feats.reshape((N_CARDS, N_FEATURES)),
                        sw.sums[:N_FEATURES])  # sums: pimc's, free for net's scratch
    if kind == play.RANDOM:
        legal = legal_cards(st, rec)
        k = np.int64(((u >> np.uint64(32)) * np.uint64(popcount(legal))) >> np.uint64(32))
        return nth_card(legal, k)
    return play.heuristic_on_state(st, rec, pub[PUB_SEEN_OUT], code)


@njit(cache=True)
def play_to_end(codes, st, rec, pub, link, rng):
    """Play ``st`` to the end, the seat to move each time under ``codes[seat]`` through the
    entry of ``link`` (``entry_link``), drawing each decision's random number from ``rng``
    (uint64[1], advanced before use). Tests and benchmarks; the hand loop has its own decision
    point."""
    while not is_over(st, rec):
        rng[0] += GOLDEN
        note_stuk(pub, st, rec)  # the stuk announced so far, as the hand loop notes it before a decision
        card = call_strong(link, codes[st[ST_TO_MOVE]], st, pub, mix64(rng[0]))
        winner = play_card(st, rec, card)
        if winner >= 0 and declares_after_trick(rec):  # Dekjas: the declarations made are public
            note_declarations(pub, st, rec, winner)


# ---- the hand's link to the strong policies: one call through an address ----------------------
# A link is one int64 array: the entry's address, the rules record's fields, the address and size of
# each array of a StrongWorkspace in field order (read back by
# analyzer.players.strong_entry.workspace_at), then the memory of those arrays themselves. So the
# hand's workspace holds one array for the searching players, not the 25 of a StrongWorkspace: a
# call to the hand passes every array of its workspace, and fewer cost less on every hand.
N_REC = len(RulesRecord._fields)
N_SW = len(StrongWorkspace._fields)
LINK_FIELDS = (  # the link's head, declared once (int64; ``analyzer.layout.offsets``)
    ("fn", 1),  # the address of strong_entry.strong_card (0: no strong policy in play)
    ("rec", N_REC),  # + field: the rules record
    ("sw", 2 * N_SW),  # + 2 * field: address, size of each workspace array
)
LINK_OFFSETS, LINK_SIZE = offsets(LINK_FIELDS)  # then the arrays' memory, from LINK_SIZE on
L_FN = LINK_OFFSETS["fn"]
L_REC = LINK_OFFSETS["rec"]
L_SW = LINK_OFFSETS["sw"]
F_CTX = StrongWorkspace._fields.index("ctx")


def plays_strong(play_pol) -> bool:
    """Is one of the play policies ``play_pol`` (codes, any shape) dd, pimc or net (on the state)?"""
    return bool(((np.asarray(play_pol, np.int64) & play.KIND_MASK) >= play.FIRST_STATE_KIND).any())


_ENTRY_LOCK = threading.Lock()  # one thread imports the entry; the others wait for it whole


def entry_address() -> int:
    """The address of the searching players' entry (``analyzer.players.strong_entry.strong_card``),
    compiled or loaded from the kernel cache on its first use in this process, once across
    processes started together (``analyzer.compiling.STRONG_LOCK``) and once across this process's
    threads (``_ENTRY_LOCK``: a module another thread is still importing is in ``sys.modules`` before
    its entry exists)."""
    with _ENTRY_LOCK:
        entry = sys.modules.get("analyzer.players.strong_entry")
        if entry is None or not hasattr(entry, "strong_card"):
            with locked(STRONG_LOCK, cache_folder("players")):
                # lazy: importing the entry compiles it (or loads it): only a run with a searching player does
                from analyzer.players import strong_entry as entry
        return entry.strong_card.address


def entry_link(rec, codes) -> np.ndarray:
    """A link to the entry for play policies ``codes`` (its table sized for them) under rules
    ``rec``: what ``card_via_link``, ``play_to_end`` and the Python API's ``choose`` call through."""
    return make_link(rec, max(strong_bits(np.asarray(codes, np.int64)), PIMC_TT_BITS), entry_address())


@njit(cache=True)
def card_via_link(code, st, pub, link, u):
    """``policy_card(code, st, rec, pub, sw, u)`` through the link's entry: the rules and the
    workspace are the link's."""
    return call_strong(link, code, st, pub, u)


@njit(cache=True)
def make_link(rec, tt_bits, fn):
    """The link of a hand under rules ``rec`` to the entry at address ``fn``, with the memory of
    a workspace for ``tt_bits`` (``strong_bits``; -1: no strong policy in play, no memory). The
    addresses point into the link itself: a copy of it would point into the original."""
    sizes = strong_sizes(max(tt_bits, 0))
    link = np.zeros(LINK_SIZE + (sizes.sum() if tt_bits >= 0 else 0), np.int64)
    link[L_FN] = fn
    k = L_REC
    for v in rec:
        link[k] = v
        k += 1
    if tt_bits < 0:
        return link
    base = link.ctypes.data
    at = LINK_SIZE
    for f in range(N_SW):
        link[L_SW + 2 * f] = base + 8 * at
        link[L_SW + 2 * f + 1] = sizes[f]
        if f == F_CTX:
            _init_ctx(link[at:at + sizes[f]], team_scoring(rec), tt_bits)
        at += sizes[f]
    return link


@intrinsic
def _call_address(typingctx, fn, code, link, st, pub, u):
    """``int64 fn(int64 code, int64 link, int64 st, int64 pub, uint64 u)`` for the address ``fn``:
    the C signature of ``strong_entry.strong_card``."""
    sig = types.int64(types.int64, types.int64, types.int64, types.int64, types.int64, types.uint64)

    def codegen(context, builder, signature, args):
        i64 = ir.IntType(64)
        entry = builder.inttoptr(args[0], ir.FunctionType(i64, [i64] * 5).as_pointer())
        return builder.call(entry, args[1:])

    return sig, codegen


@njit(cache=True, inline="always")
def call_strong(link, code, st, pub, u):
    """``policy_card(code, st, rec, pub, sw, u)`` through the link (the hand's decision point)."""
    return _call_address(link[L_FN], np.int64(code), np.int64(link.ctypes.data), np.int64(st.ctypes.data),
                         np.int64(pub.ctypes.data), np.uint64(u))


__all__ = ["StrongWorkspace", "make_strong", "strong_bits", "strong_sizes", "policy_card", "play_to_end",
           "plays_strong", "make_link", "call_strong", "entry_address", "entry_link", "card_via_link", "LINK_SIZE",
           "L_FN", "L_REC", "L_SW", "N_REC", "N_SW"]
