"""One whole hand, every variant: deal -> bidding -> Dix and completing the deal ->
play -> declarations -> scoring (RULES.md §3-§6), as one numba kernel.

``play_hand`` takes a dealt deck (DEAL_LOG.md order), the rules record, each seat's
policies (play: ``play_pol[role, seat]``, role 0 when the seat's side is the troefmaker's,
1 when it defends; ``analyzer.players.policies.Policies.codes``) and a random stream, and writes the hand's result into ``res`` (layout: the
``RES_*`` constants). When ``trace`` is non-empty it also records every bid, the
exchange, every trick and declaration (layout: the ``TR_*`` constants), from which
``analyzer.output.deallog`` writes the ``belote-deal/1`` record.

The play (§4) runs on the game state of ``analyzer.game.state`` (``ws.state``, where
search players can read it): ``init_state`` from the hands at the first trick (Dekjas:
the piles through ``under``), then per card ``legal_cards``, the one policy call
(``analyzer.players.play.choose_card``, fed from the state) and ``play_card``. Card
points and tricks per side come from the state; the trace reads each trick from it.
"""

from typing import NamedTuple

import numpy as np

from analyzer.compiling import njit, unsigned_index as _u
from analyzer.rules.seats import VOORHAND, seat_after, side_of_seat
from analyzer.rules.structure import declares_after_trick, has_partners, has_piles, team_scoring
from analyzer.game.auction import (AU_FORCED, AU_OUTCOME, AU_PHASE, AU_ROUND, AU_SEAT, AU_SMOUS, AU_SMOUS_SEAT,
                                   AU_SMOUS_SUIT, AU_TAKER, AU_TRUMP, AU_ANSWER, AUCTION_SIZE, CL_CALL, CL_ROUND,
                                   CL_SEAT, CL_SUIT, TRACE_BIDS,
                                   auction_apply, auction_done, auction_round, auction_start, record_call)
from analyzer.layout import offsets
from analyzer.players.bidding import answer_smous, choose_bid, choose_koe_suit
from analyzer.rules.calls import KOE, KOE_ROUND, PLAYED
from analyzer.rules.cards import N_CARDS, bit, lowest_card, popcount
from analyzer.game.dealing import GOLDEN, bidding_hands, complete_deal, lay_piles, mix64
from analyzer.game.state import (
    ST_BEST_I,
    ST_GONE,
    ST_HANDS,
    ST_LEADER,
    ST_LEADERS,
    ST_LED,
    ST_N_IN,
    ST_N_PLAYED,
    ST_PLAYED,
    ST_POINTS,
    ST_TO_MOVE,
    ST_TRICK_NO,
    ST_TRICKS,
    ST_UNDER,
    STATE_SIZE,
    init_state,
    legal_cards,
    play_card,
    trick_points,
)
from analyzer.rules.declarations import (
    CARRE,
    MAX_DECLARATIONS,
    declaration_key,
    find_declarations,
    has_declaration,
    roem_winner,
    STUK_POINTS,
    stuk_seat,
)
from analyzer.players.knowledge import PUB_SIZE, fill_bidding, fill_public, note_declarations, note_stuk
from analyzer.players.play import FIRST_STATE_KIND, KIND_MASK, choose_card
from analyzer.players.strong import L_FN, call_strong, entry_address, make_link, plays_strong, strong_bits
from analyzer.rules.scoring import score_classic, score_solo

# --- the per-hand result record (int64), declared once: (name, size), offsets derived --------
N_DECL_KINDS = 9  # declarations by kind: seq3, seq4, seq5+, carré 9 10 J Q K A
RESULT_FIELDS = (
    ("kind", 1),  # bidding outcome: PLAYED, PASSED_OUT or REDEAL
    ("trump", 1),  # trump suit
    ("taker", 1),  # troefmaker seat
    ("round", 1),  # round of the take: 1, 2 or KOE_ROUND
    ("smous", 1),  # 0 no smous, 1 smous played, 2 smous redeal
    ("smous_seat", 1),  # seat that offered smous, -1
    ("forced", 1),  # 1 when the forced decision was reached
    ("outcome", 1),  # MADE, DEDANS or TIE
    ("taker_side", 1),
    ("roem_side", 1),  # side scoring declarations, -1
    ("stuk_seat", 1),  # seat holding K+Q of trump, -1
    ("all_tricks_side", 1),  # side that won every trick, -1
    ("n_trickless", 1),  # sides that won no trick
    ("reserve", 1),  # reserve after the hand
    ("dix_seat", 1),  # seat that exchanged the trump 7, -1
    ("fille", 1),  # fille card, -1
    ("turned", 1),  # the turned card
    ("roem_points", 1),  # declaration points that scored
    ("unused", 2),  # (free: the per-side blocks start at 20)
    ("scores", 4),  # + side: the hand's score per side
    ("raw", 4),  # + side: raw totals
    ("card", 4),  # + side: card points (last trick and classic capot included)
    ("tricks", 4),  # + side: tricks won
    ("decl", 4),  # + side: points of all declarations made
    ("decl_kinds", N_DECL_KINDS),  # + kind: declarations made
    ("spare", 3),  # (free)
)
RES_OFFSETS, RES_SIZE = offsets(RESULT_FIELDS)
RES_KIND = RES_OFFSETS["kind"]
RES_TRUMP = RES_OFFSETS["trump"]
RES_TAKER = RES_OFFSETS["taker"]
RES_ROUND = RES_OFFSETS["round"]
RES_SMOUS = RES_OFFSETS["smous"]
RES_SMOUS_SEAT = RES_OFFSETS["smous_seat"]
RES_FORCED = RES_OFFSETS["forced"]
RES_OUTCOME = RES_OFFSETS["outcome"]
RES_TAKER_SIDE = RES_OFFSETS["taker_side"]
RES_ROEM_SIDE = RES_OFFSETS["roem_side"]
RES_STUK_SEAT = RES_OFFSETS["stuk_seat"]
RES_ALL_TRICKS_SIDE = RES_OFFSETS["all_tricks_side"]
RES_N_TRICKLESS = RES_OFFSETS["n_trickless"]
RES_RESERVE = RES_OFFSETS["reserve"]
RES_DIX_SEAT = RES_OFFSETS["dix_seat"]
RES_FILLE = RES_OFFSETS["fille"]
RES_TURNED = RES_OFFSETS["turned"]
RES_ROEM_POINTS = RES_OFFSETS["roem_points"]
RES_SCORES = RES_OFFSETS["scores"]
RES_RAW = RES_OFFSETS["raw"]
RES_CARD = RES_OFFSETS["card"]
RES_TRICKS = RES_OFFSETS["tricks"]
RES_DECL = RES_OFFSETS["decl"]
RES_DECL_KINDS = RES_OFFSETS["decl_kinds"]

# --- the trace (int64), only for logged hands; declared once --------------------------------
MAX_TRICKS = 16
MAX_TRACE_DECL = 48
TRICK_FIELDS = (  # one trick of the trace
    ("leader", 1),
    ("winner", 1),
    ("points", 1),
    ("n_revealed", 1),  # Dekjas: face-down cards turned up during the trick
    ("plays", 2 * 4),  # (seat, card) in playing order
    ("revealed", 2 * 2),  # (seat, card) turned face up
)
TK_OFFSETS, TRICK_STRIDE = offsets(TRICK_FIELDS)
TK_LEADER = TK_OFFSETS["leader"]
TK_WINNER = TK_OFFSETS["winner"]
TK_POINTS = TK_OFFSETS["points"]
TK_N_REVEALED = TK_OFFSETS["n_revealed"]
TK_PLAYS = TK_OFFSETS["plays"]
TK_REVEALED = TK_OFFSETS["revealed"]
DECL_FIELDS = (("seat", 1), ("kind", 1), ("mask", 1), ("points", 1), ("trick", 1))  # one declaration
DC_OFFSETS, DECL_STRIDE = offsets(DECL_FIELDS)
DC_SEAT = DC_OFFSETS["seat"]
DC_KIND = DC_OFFSETS["kind"]
DC_MASK = DC_OFFSETS["mask"]
DC_POINTS = DC_OFFSETS["points"]
DC_TRICK = DC_OFFSETS["trick"]
TRACE_FIELDS = (
    ("bids", TRACE_BIDS),  # analyzer.game.auction.record_call: [n, (seat, round, call, suit) ...]
    ("exch_seat", 1),  # the Dix exchange: seat (-1: none), the 7 it gave, the card it got
    ("exch_gave", 1),
    ("exch_got", 1),
    ("fille", 1),
    ("start", 4),  # + seat: cards at the first trick (Dekjas: all 16 owned)
    ("tricks", TRICK_STRIDE * MAX_TRICKS),  # + trick * TRICK_STRIDE (TRICK_FIELDS)
    ("n_decl", 1),
    ("decl", DECL_STRIDE * MAX_TRACE_DECL),  # + i * DECL_STRIDE (DECL_FIELDS)
    ("stuk", 1),
)
TR_OFFSETS, TRACE_SIZE = offsets(TRACE_FIELDS)
TR_BIDS = TR_OFFSETS["bids"]
TR_EXCH = TR_OFFSETS["exch_seat"]
TR_EXCH_GAVE = TR_OFFSETS["exch_gave"]
TR_EXCH_GOT = TR_OFFSETS["exch_got"]
TR_FILLE = TR_OFFSETS["fille"]
TR_START = TR_OFFSETS["start"]
TR_TRICKS = TR_OFFSETS["tricks"]
TR_NDECL = TR_OFFSETS["n_decl"]
TR_DECL = TR_OFFSETS["decl"]
TR_STUK = TR_OFFSETS["stuk"]


# --- one thread's scratch, declared once: (name, size), offsets derived ----------------------
WS64_FIELDS = (  # int64
    ("under", N_CARDS),  # Dekjas: the face-down card under a face-up card
    ("down", 16),  # Dekjas piles, face down: [seat * 8 + pile]
    ("up", 16),  # Dekjas piles, face up
    ("bid_out", AUCTION_SIZE),  # the bidding's state and outcome (analyzer.game.auction)
    ("card_pts", 4),  # + side
    ("tricks", 4),  # + side
    ("decl_pts", 4),  # + side
    ("stuk_pts", 4),  # + side
    ("best_key", 4),  # + seat
    ("kinds", MAX_DECLARATIONS),
    ("points", MAX_DECLARATIONS),
    ("bonus", 4),
    ("award", 4),
    ("out_card", 4),
    ("out_raw", 4),
    ("out_scores", 4),
    ("seat_play", 4),  # each seat's play policy in this hand, resolved by role after bidding
)
W64_OFFSETS, W64_SIZE = offsets(WS64_FIELDS)
WS32_FIELDS = (  # uint32 card masks
    ("hands", 4),  # + seat: playable cards (Dekjas: face-up)
    ("start", 4),  # + seat: cards at the first trick (Dekjas: all owned)
    ("own", 4),  # + seat: cards each seat judges when bidding
    ("masks", MAX_DECLARATIONS),
)
W32_OFFSETS, W32_SIZE = offsets(WS32_FIELDS)
W_UNDER, W_DOWN, W_UP, W_BID_OUT = (W64_OFFSETS[k] for k in ("under", "down", "up", "bid_out"))
W_CARD_PTS, W_TRICKS, W_DECL_PTS, W_STUK_PTS, W_BEST_KEY = (
    W64_OFFSETS[k] for k in ("card_pts", "tricks", "decl_pts", "stuk_pts", "best_key"))
W_KINDS, W_POINTS, W_BONUS, W_AWARD = (W64_OFFSETS[k] for k in ("kinds", "points", "bonus", "award"))
W_OUT_CARD, W_OUT_RAW, W_OUT_SCORES, W_SEAT_PLAY = (W64_OFFSETS[k] for k in ("out_card", "out_raw", "out_scores", "seat_play"))
W_HANDS, W_START, W_OWN, W_MASKS = (W32_OFFSETS[k] for k in ("hands", "start", "own", "masks"))


class Workspace(NamedTuple):
    """Scratch arrays, allocated once per thread (numba allocations in the hot loop cost
    more than the hand itself). Few arrays: numba passes each array of a call's arguments as
    seven words, and the hand is called once a hand (24 arrays cost a random hand about 4%,
    docs/BENCHMARKS.md); the hand takes its views of ``w64`` and ``w32`` (``WS64_FIELDS``,
    ``WS32_FIELDS``)."""

    w64: np.ndarray  # int64[W64_SIZE]
    w32: np.ndarray  # uint32[W32_SIZE]
    state: np.ndarray  # int64[STATE_SIZE]: the hand in play (analyzer.game.state), readable by search players
    pub: np.ndarray  # int64[PUB_SIZE]: what every seat knows beyond the state (analyzer.players.knowledge)
    link: np.ndarray  # int64: the dd / pimc policies' entry and memory (analyzer.players.strong.make_link)


@njit(cache=True)
def make_workspace(rec, play_pol, strong_fn):
    """The scratch of one thread; the strong policies' part is allocated only when one of
    ``play_pol`` is dd or pimc, and they are called at address ``strong_fn`` (``strong_address``)."""
    bits = strong_bits(play_pol)
    if bits >= 0 and strong_fn == 0:
        raise ValueError("a dd or pimc policy plays: pass the address of its entry (runs.hand.strong_address)")
    return Workspace(np.zeros(W64_SIZE, np.int64), np.zeros(W32_SIZE, np.uint32), np.zeros(STATE_SIZE, np.int64),
                     np.zeros(PUB_SIZE, np.int64), make_link(rec, bits, strong_fn))


@njit(cache=True)
def hand_buffers(rec, play_pol, strong_fn):
    """What one thread needs to play hands with ``play_hand`` under play policies
    ``play_pol``, allocated once: (workspace, res, an empty trace, rng state, deck, force
    (no override), totals)."""
    return (make_workspace(rec, play_pol, strong_fn), np.zeros(RES_SIZE, np.int64), np.zeros(0, np.int64),
            np.zeros(1, np.uint64), np.zeros(N_CARDS, np.int64), np.full(4, -1, np.int64), np.zeros(4, np.int64))


def strong_address(play_pol) -> int:
    """The address of the searching policies' entry (``analyzer.players.strong_entry.strong_card``)
    when one of ``play_pol`` is dd or pimc, 0 otherwise. Importing the entry compiles it (or loads
    it from the kernel cache) on first use in this process, once across processes started together
    (``analyzer.compiling.STRONG_LOCK``): a heuristic or random run never compiles the searching policies."""
    if not plays_strong(play_pol):
        return 0
    return entry_address()


@njit(cache=True)
def _decl_kind_index(kind, mask_len, rank):
    if kind == CARRE:
        return 3 + rank - 2  # carré of 9 10 J Q K A
    return min(mask_len, 5) - 3  # sequence of 3, 4, 5+


@njit(cache=True, forceinline=True)
def _declare(kinds, masks, points, decl_pts, best_key, res, trace, seat, seq_pool, carre_pool,
             trump, rec, trick):
    """Seat declares everything in its pools (§5): adds to the side's declaration points,
    the seat's best key, the kind counters and the trace. Returns the cards used by
    sequences and by carrés (Dekjas keeps them out of later declarations)."""
    seq_used = np.uint32(0)
    carre_used = np.uint32(0)
    n = find_declarations(seq_pool, carre_pool, kinds, masks, points)
    side = side_of_seat(seat, rec)
    for i in range(n):
        m = masks[i]
        decl_pts[side] += points[i]
        key = declaration_key(m, points[i], trump, rec.roem_by_points)
        if key > best_key[seat]:
            best_key[seat] = key
        res[RES_DECL_KINDS + _decl_kind_index(kinds[i], popcount(m), lowest_card(m) & 7)] += 1
        if kinds[i] == CARRE:
            carre_used |= m
        else:
            seq_used |= m
        if trace.shape[0] > 0 and trace[TR_NDECL] < MAX_TRACE_DECL:
            b = TR_DECL + DECL_STRIDE * trace[TR_NDECL]
            trace[b + DC_SEAT] = seat
            trace[b + DC_KIND] = kinds[i]
            trace[b + DC_MASK] = np.int64(m)
            trace[b + DC_POINTS] = points[i]
            trace[b + DC_TRICK] = trick
            trace[TR_NDECL] += 1
    return seq_used, carre_used


# Compiled once and called, not inlined: numba-inlined (``inline="always"``), it was typed anew at
# every call site of every kernel, which made the hand's cold compile about a third longer;
# without reference counting (``_nrt=False``: it allocates nothing) a call costs only its
# arguments (docs/BENCHMARKS.md, 2026-12-03).
@njit(cache=True, _nrt=False)
def run_bidding(rec, own, turned, bid_pol, bid_params, rng, force, trace, au):
    """The whole bidding of §3 on the auction state ``au`` (``analyzer.game.auction``): each
    seat in turn chooses among its open calls with its bidding policy (``own[s]``: the cards
    seat s judges; Dekjas: its face-up cards). ``force`` = (seat, round, call, suit)
    (``CALL_FIELDS``) replaces that one decision when it is reached (seat -1: none; the koe's
    suit is forced after its policy has chosen, so the stream is the natural hand's). Returns the outcome (PLAYED,
    PASSED_OUT or REDEAL); ``au`` holds trump, troefmaker, round, smous and whether the force
    was reached (``AUCTION_FIELDS``)."""
    ts = turned >> 3
    auction_start(au)
    while not auction_done(au):
        seat = au[AU_SEAT]
        phase = au[AU_PHASE]
        if phase == AU_ANSWER:
            call = answer_smous(bid_pol[seat], bid_params[seat], own[seat], turned, au[AU_SMOUS_SUIT], rec, rng)
            suit = -1
        elif phase == KOE_ROUND:
            call = KOE
            suit = choose_koe_suit(bid_pol[VOORHAND], bid_params[VOORHAND], own[VOORHAND], turned, rec, rng)
            if force[CL_SEAT] == VOORHAND and force[CL_ROUND] == KOE_ROUND:
                suit = force[CL_SUIT]
                au[AU_FORCED] = 1
        elif force[CL_SEAT] == seat and force[CL_ROUND] == phase:
            call = force[CL_CALL]
            suit = force[CL_SUIT]
            au[AU_FORCED] = 1
        else:
            call, suit = choose_bid(bid_pol[seat], bid_params[seat], seat, phase, own[seat], turned, rec, rng)
        record_call(trace, seat, auction_round(au), call, suit)
        auction_apply(au, rec, ts, call, suit)
    return au[AU_OUTCOME]


@njit(cache=True, forceinline=True)
def _clear_hand(res, trace, w64, w32):
    """The result, the trace (when not empty) and the workspace's per-seat blocks as a hand starts:
    zeros, and -1 for what is not known yet (seats, sides, cards, declaration keys)."""
    for i in range(RES_SIZE):
        res[i] = 0
    if trace.shape[0] > 0:
        for i in range(trace.shape[0]):
            trace[i] = 0
        trace[TR_EXCH] = -1
        trace[TR_FILLE] = -1
        trace[TR_STUK] = -1
    for s in range(4):
        w64[W_CARD_PTS + s] = 0
        w64[W_TRICKS + s] = 0
        w64[W_DECL_PTS + s] = 0
        w64[W_STUK_PTS + s] = 0
        w64[W_BEST_KEY + s] = -1
        w32[W_HANDS + s] = 0
        w32[W_START + s] = 0
        w32[W_OWN + s] = 0
    res[RES_DIX_SEAT] = -1
    res[RES_FILLE] = -1
    res[RES_ROEM_SIDE] = -1
    res[RES_STUK_SEAT] = -1
    res[RES_ALL_TRICKS_SIDE] = -1


@njit(cache=True, forceinline=True)
def _trace_trick(trace, st, rec, t, winner, n_rev):
    """Trick ``t``, just completed on the state ``st``, into the trace (``TRICK_FIELDS``; the Dekjas
    cards it turned face up are written as they turn)."""
    n = rec.n_players
    b = TR_TRICKS + TRICK_STRIDE * t
    leader = st[ST_LEADERS + t]
    trace[b + TK_LEADER] = leader
    trace[b + TK_WINNER] = winner
    trace[b + TK_POINTS] = trick_points(st, rec, t)
    trace[b + TK_N_REVEALED] = n_rev
    for j in range(n):
        trace[b + TK_PLAYS + 2 * j] = seat_after(leader, j, n)
        trace[b + TK_PLAYS + 1 + 2 * j] = st[ST_PLAYED + t * n + j]


@njit(cache=True, forceinline=True)
def _score_hand(rec, st, w64, start, res, trace, trump, taker_side, reserve_before, totals, use_totals):
    """The end of a played hand (``st`` over): which side scores its declarations and who holds the
    stuk (§5), the hand's scores (§6), all into ``res`` (and the stuk into ``trace``)."""
    n = rec.n_players
    n_sides = rec.n_sides
    card_pts, tricks = w64[W_CARD_PTS:W_CARD_PTS + 4], w64[W_TRICKS:W_TRICKS + 4]
    decl_pts, stuk_pts = w64[W_DECL_PTS:W_DECL_PTS + 4], w64[W_STUK_PTS:W_STUK_PTS + 4]
    bonus, award = w64[W_BONUS:W_BONUS + 4], w64[W_AWARD:W_AWARD + 4]
    out_card, out_raw, out_scores = w64[W_OUT_CARD:W_OUT_CARD + 4], w64[W_OUT_RAW:W_OUT_RAW + 4], w64[W_OUT_SCORES:W_OUT_SCORES + 4]
    for s in range(n_sides):
        card_pts[s] = st[ST_POINTS + s]
        tricks[s] = st[ST_TRICKS + s]
    roem_side = roem_winner(w64[W_BEST_KEY:W_BEST_KEY + 4], n, has_partners(rec), rec.roem_tie_first)
    res[RES_ROEM_SIDE] = roem_side
    if roem_side >= 0:
        res[RES_ROEM_POINTS] = decl_pts[roem_side]
    st_seat = stuk_seat(start, n, trump)
    res[RES_STUK_SEAT] = st_seat
    if st_seat >= 0:
        stuk_pts[side_of_seat(st_seat, rec)] = STUK_POINTS
        if trace.shape[0] > 0:
            trace[TR_STUK] = st_seat
    if team_scoring(rec):
        oc, reserve = score_classic(taker_side, rec.n_tricks, card_pts, tricks, decl_pts,
                                    roem_side, stuk_pts, reserve_before, rec.classic_tie_made,
                                    out_card, out_raw, out_scores)
    else:
        oc, reserve = score_solo(taker_side, n_sides, rec.n_tricks, card_pts, tricks, decl_pts,
                                 roem_side, stuk_pts, reserve_before, totals, rec.target, use_totals,
                                 rec.trickless_target, bonus, award, out_card, out_raw, out_scores)
    res[RES_OUTCOME] = oc
    res[RES_RESERVE] = reserve
    n_trickless = 0
    for s in range(n_sides):
        res[RES_SCORES + s] = out_scores[s]
        res[RES_RAW + s] = out_raw[s]
        res[RES_CARD + s] = out_card[s]
        res[RES_TRICKS + s] = tricks[s]
        res[RES_DECL + s] = decl_pts[s]
        if tricks[s] == rec.n_tricks:
            res[RES_ALL_TRICKS_SIDE] = s
        if tricks[s] == 0:
            n_trickless += 1
    res[RES_N_TRICKLESS] = n_trickless


def _play_hand(deck, rec, bid_pol, play_pol, bid_params, rng, force,
               reserve_before, totals, use_totals, ws, res, trace):
    """Simulate one hand from the dealt ``deck``; see the module docstring."""
    # the workspace's views (no reference counting: the hand is compiled without it)
    w64, w32 = ws.w64, ws.w32
    hands, start, own = w32[W_HANDS:W_HANDS + 4], w32[W_START:W_START + 4], w32[W_OWN:W_OWN + 4]
    masks = w32[W_MASKS:W_MASKS + MAX_DECLARATIONS]
    under, bid_out = w64[W_UNDER:W_UNDER + N_CARDS], w64[W_BID_OUT:W_BID_OUT + AUCTION_SIZE]
    down, up = w64[W_DOWN:W_DOWN + 16], w64[W_UP:W_UP + 16]  # Dekjas' piles: [seat * 8 + pile]
    decl_pts, best_key = w64[W_DECL_PTS:W_DECL_PTS + 4], w64[W_BEST_KEY:W_BEST_KEY + 4]
    kinds, points = w64[W_KINDS:W_KINDS + MAX_DECLARATIONS], w64[W_POINTS:W_POINTS + MAX_DECLARATIONS]
    n = rec.n_players
    partners = has_partners(rec)
    tracing = trace.shape[0] > 0
    _clear_hand(res, trace, w64, w32)

    # ---- §3 dealing: the cards each seat judges at bidding, the turned card, Dekjas' piles ----
    turned = bidding_hands(deck, rec, own)
    if has_piles(rec):
        lay_piles(deck, down, up, start, under)
    res[RES_TURNED] = turned

    # ---- §3 bidding ----
    outcome = run_bidding(rec, own, turned, bid_pol, bid_params, rng, force, trace, bid_out)
    res[RES_KIND] = outcome
    res[RES_SMOUS] = bid_out[AU_SMOUS]
    res[RES_SMOUS_SEAT] = bid_out[AU_SMOUS_SEAT]
    res[RES_FORCED] = bid_out[AU_FORCED]
    if outcome != PLAYED:
        return
    trump = bid_out[AU_TRUMP]
    taker = bid_out[AU_TAKER]
    res[RES_TRUMP] = trump
    res[RES_TAKER] = taker
    res[RES_ROUND] = bid_out[AU_ROUND]
    taker_side = side_of_seat(taker, rec)
    res[RES_TAKER_SIDE] = taker_side

    # ---- §3 the Dix exchange, completing the deal, the fille ----
    dix_seat, table_card, fille = complete_deal(deck, rec, own, hands, taker, trump, turned)
    res[RES_DIX_SEAT] = dix_seat
    res[RES_FILLE] = fille
    # cards lying face up out of play, seen by every seat (the policies' "gone" adds the played
    # ones): the card on the table and the fille
    face_up_out = np.uint32(0)
    if fille >= 0:
        face_up_out |= bit(table_card) | bit(fille)
    if not has_piles(rec):
        for s in range(n):
            start[s] = hands[s]
    if tracing:
        if dix_seat >= 0:
            trace[TR_EXCH] = dix_seat
            trace[TR_EXCH_GAVE] = table_card  # the trump 7, left on the table
            trace[TR_EXCH_GOT] = turned
        trace[TR_FILLE] = fille
        for s in range(n):
            trace[TR_START + s] = np.int64(start[s])

    # ---- §5 declarations at the first trick (classic, piekjas) ----
    if not declares_after_trick(rec):
        for s in range(n):
            if has_declaration(start[s], start[s]):
                _declare(kinds, masks, points, decl_pts, best_key, res, trace, s,
                         start[s], start[s], trump, rec, 0)
    seq_used = np.uint32(0)
    carre_used = np.uint32(0)

    # ---- §4 play, on the game state (analyzer.game.state: the one implementation of play) ----
    # each seat's play policy for this hand, by its side's role (row 0: the troefmaker's side)
    seat_play = w64[W_SEAT_PLAY:W_SEAT_PLAY + 4]
    for s in range(n):
        seat_play[s] = play_pol[0 if side_of_seat(s, rec) == taker_side else 1, s]
    st = ws.state
    init_state(st, rec, hands, under, trump, taker, 0)
    strong = ws.link[L_FN] != 0  # a dd / pimc policy is in play (make_workspace)
    if strong:
        roem_side0 = -1 if declares_after_trick(rec) else roem_winner(best_key, n, partners, rec.roem_tie_first)
        fill_public(ws.pub, rec, taker, turned, table_card, dix_seat, fille, roem_side0, decl_pts[roem_side0] if roem_side0 >= 0 else 0)
        fill_bidding(ws.pub, rec, bid_out[AU_ROUND], bid_out[AU_SMOUS_SEAT] if bid_out[AU_SMOUS] == 1 else -1,
                     force[CL_SEAT] * 4 + force[CL_ROUND] if bid_out[AU_FORCED] else -1, bid_pol, bid_params)
    # the random stream in a register for the play (an array access per card costs more)
    stream = rng[0]
    n_rev = 0  # Dekjas: cards turned face up in the current trick
    while True:
        seat = st[ST_TO_MOVE]
        k = st[ST_N_IN]
        legal = legal_cards(st, rec)
        # the trick so far as the policies see it: the suit led, the card winning it, its seat
        win_card = -1
        win_seat = -1
        if k > 0:
            bi = st[ST_BEST_I]
            win_card = st[_u(ST_PLAYED + st[ST_N_PLAYED] - k + bi)]
            win_seat = seat_after(st[ST_LEADER], bi, n)
        # every draw advances the stream before using it (as dealing.next_u64 does), so
        # the first card never reuses the number of the last bidding call
        stream += GOLDEN
        policy = seat_play[_u(seat)]
        if strong and (policy & KIND_MASK) >= FIRST_STATE_KIND:
            # §5: the stuk announced so far (note_stuk reads it from the whole state, so here, at the
            # decisions that hear it, and not after every card: the loop of every hand pays that)
            note_stuk(ws.pub, st, rec)
            card = call_strong(ws.link, policy, st, ws.pub, mix64(stream))
        else:
            card = choose_card(policy, legal, seat, np.uint32(st[_u(ST_HANDS + seat)]),
                               np.uint32(st[ST_GONE] | face_up_out), st[ST_LED], win_card, win_seat, k, trump,
                               taker, partners, n, mix64(stream))
        winner = play_card(st, rec, card)
        if has_piles(rec):
            below = st[_u(ST_UNDER + card)]
            if below >= 0:
                # the face-down card under it turned face up (§4, done by play_card)
                if tracing:
                    b = TR_TRICKS + TRICK_STRIDE * (st[ST_TRICK_NO] - (0 if winner < 0 else 1))
                    trace[b + TK_REVEALED + 2 * n_rev] = seat
                    trace[b + TK_REVEALED + 1 + 2 * n_rev] = below
                n_rev += 1
        if winner < 0:
            continue
        # the trick is complete
        t = st[ST_TRICK_NO] - 1
        if tracing:
            _trace_trick(trace, st, rec, t, winner, n_rev)
        n_rev = 0
        if declares_after_trick(rec):
            # §5: right after winning a trick, declare what is new among the face-up cards
            shown = np.uint32(st[ST_HANDS + winner])
            seq_pool = np.uint32(shown & ~seq_used)  # numba widens uint32 & uint32 to uint64: one type,
            carre_pool = np.uint32(shown & ~carre_used)  # one compile of find_declarations
            if has_declaration(seq_pool, carre_pool):
                su, cu = _declare(kinds, masks, points, decl_pts, best_key, res, trace,
                                  winner, seq_pool, carre_pool, trump, rec, t)
                seq_used |= su
                carre_used |= cu
                if strong:  # the searching players and net read what has been declared
                    note_declarations(ws.pub, st, rec, winner)
        if t == rec.n_tricks - 1:
            break
    rng[0] = stream

    # ---- §5 who scores declarations, stuk; §6 scoring ----
    _score_hand(rec, st, w64, start, res, trace, trump, taker_side, reserve_before, totals, use_totals)


# The hand, compiled once and called (not inlined) by every unit kernel and by the traced replays.
# Without numba's reference counting (``_nrt=False``): it allocates nothing, and a call that counted
# references to every array of its arguments (the workspace's among them) on entry and exit cost
# 22-38% of a random-policy hand (docs/BENCHMARKS.md). Numba compiles a function once per argument
# types, and a constant argument has a type of its own (``0`` is ``Literal[int](0)``): every caller
# passes ``reserve_before`` and ``use_totals`` typed (``NO_RESERVE`` and ``NO_TOTALS`` of
# ``analyzer.rules.scoring`` outside a game), so the hand compiles once. Each compile of a function
# that calls the hand also links the hand's code in and has LLVM optimise and emit it again (about
# 2-4 s of CPU each), so the layers between the driver and the hand are numba-inlined, not called
# (``inline="always"``, docs/BENCHMARKS.md, 2026-12-03; the rule: ``analyzer.compiling.njit``).
# That copy in a caller's object code is a weak symbol, which the JIT binds to the hand's own code when
# that is loaded first; the driver loads it first (``analyzer.runs.driver._compile``): the copy LLVM
# optimised again inside the kernel's module ran 19% slower (docs/BENCHMARKS.md, 2026-12-05).
play_hand = njit(cache=True, _nrt=False)(_play_hand)
