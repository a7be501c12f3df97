"""The kernel behind the suit-choice measurement: at the koe and at every round-2
take, each allowed suit played, forced, on the same deal.

For deal ``i`` (stream ``seed_stream(seed, i)``, ``shuffle_deck``) the natural bidding is
run once with a trace, on the stream state every run starts from. A deal holds at most one
suit decision, found in the trace:

- the **koe** (piekjas, dekjas, RULES.md §3.4: everyone passed twice): seat 0 names any of
  the four suits (``bidding.choose_koe_suit``);
- a **round-2 take** at seat ``s`` (§3.3): the suit is one of the four with
  ``round2_suits=any``, one of the three others than the turned suit with ``other``
  (``bidding.choose_bid``, round 2).

A round-2 smous also names a suit, but its answer decides whether that suit is played: it is
not measured here (counted, ``SM_R2_SMOUS``). Every allowed suit ``u`` is played once with
the decision forced to it (``run_bidding``'s force row: ``(s, 2, TAKE, u)``, or
``(0, KOE_ROUND, KOE, u)`` for the koe), from the same deck and stream state, so the earlier
calls replay exactly and only the suit differs; the policy's own suit ``p`` (the trace's) is
played forced too, so the comparison holds for any bidding policy. A forced take or koe is
never redealt; ``follow_redeals`` is called as in the bidding tables all the same, and
``counted_score`` gives the decider's side's score and net (score minus the best other
side's). Every other suit ``u`` adds ``net(u) - net(p)`` (and the score difference) to its
cell:

    cell = (((((decision * N_RANK + rank) * N_GAP + gap) * 2 + turned) * N_LENREL + lenrel) * N_PB + pstr

- decision: 0 the koe, 1 + s a round-2 take at seat s (``N_DEC``);
- rank: the alternative's place among the other allowed suits by the decider's
  ``suit_strength`` (0: the next-best suit after the policy's; ties in suit order, as the
  argmax breaks them);
- gap: (strength of the policy's suit - strength of the alternative) in ``GAP_BIN`` point
  bins, the last open-ended (a negative gap, possible only for a non-argmax policy, is bin 0);
- turned: the alternative is the turned card's suit;
- lenrel: the alternative's trump length (of the cards the bidder would play,
  ``bid_cards``) is shorter (0), equal (1) or longer (2) than the policy suit's;
- pstr: the policy suit's strength in ``P_BIN`` point bins, the last open-ended.

Rank, gap and pstr are read on the policy's choice score: the strength score, plus at the koe
the koe's weights (``bidding.koe_score``; 0 in the heuristic, whose choice is the best-scoring
suit). At the koe, candidate rules ``(a, b)`` listed in ``cfg`` are evaluated on the same runs:
the suit with the best strength + a * trump length + b * (the turned suit); their paired net
gain over the policy's suit goes to ``cand[k, CAND_*]`` (``calibrate`` moves the koe weights on it).

Outputs are integer sums per chunk (identical for any thread count): one flat row
(``SUITS_ROW``): ``cells[cell, S_*]`` then ``meta[SM_*]``.
"""

import numpy as np

from analyzer.compiling import njit
from analyzer.rules.seats import side_of_seat
from analyzer.game.auction import AUCTION_SIZE, CALL_STRIDE, CL_CALL, CL_ROUND, CL_SEAT, CL_SUIT, TRACE_BIDS
from analyzer.players.bidding import bid_cards, koe_score, suit_strength
from analyzer.rules.calls import KOE, KOE_ROUND, PLAYED, SMOUS, TAKE, trump_suits
from analyzer.layout import offsets
from analyzer.rules.cards import N_CARDS, N_SUITS, lane, popcount
from analyzer.rules.scoring import MADE
from analyzer.runs.classes import deal_and_bid
from analyzer.rules.scoring import NO_RESERVE, NO_TOTALS
from analyzer.runs.hand import RES_FORCED, RES_KIND, RES_OUTCOME, RES_TRUMP, play_hand
from analyzer.runs.units import counted_score, follow_redeals

# --- cell dimensions ---
N_DEC = 5  # 0: the koe; 1 + seat: a round-2 take at that seat
N_RANK = 3  # the alternative's rank among the other suits: the next best, the third, the fourth
GAP_BIN = 4.0  # strength points per gap bin
N_GAP = 10  # gap bins 0..9 (the last: 36 points and more)
N_LENREL = 3  # the alternative's trump length: shorter, equal, longer than the policy suit's
P_BIN = 20.0  # strength points per bin of the policy suit's strength
N_PB = 5  # bins 0..4 (the last: 80 and more)
N_CELLS = N_DEC * N_RANK * N_GAP * 2 * N_LENREL * N_PB

# --- fields per cell (int64 sums), declared once: (name, size), offsets derived ---
CELL_FIELDS = (
    ("n", 1),  # alternatives of this cell (one per decision and alternative suit)
    ("dnet", 1),  # net(alternative) - net(policy's suit), same deal: sum, sum of squares
    ("dnet_sq", 1),
    ("d", 1),  # own side's score: alternative - policy's suit
    ("d_sq", 1),
    ("alt_made", 1),  # the decider made (RULES.md §6) playing the alternative
    ("pol_made", 1),  # ... playing the policy's suit
)
S_OFFSETS, NS = offsets(CELL_FIELDS)
S_N = S_OFFSETS["n"]
S_DNET = S_OFFSETS["dnet"]
S_DNET_SQ = S_OFFSETS["dnet_sq"]
S_D = S_OFFSETS["d"]
S_D_SQ = S_OFFSETS["d_sq"]
S_ALT_MADE = S_OFFSETS["alt_made"]
S_POL_MADE = S_OFFSETS["pol_made"]

# --- meta ---
SUITS_META_FIELDS = (
    ("deals", 1),  # deals sampled
    ("hands", 1),  # hands played
    ("dec", N_DEC),  # + decision: decisions measured (koe, round-2 take at seat 0..3)
    ("pol_net", N_DEC),  # + decision: the policy suit's net, summed
    ("pol_net_sq", N_DEC),
    ("r2_smous", 1),  # round-2 smous offers (a suit named, not measured)
    ("unreached", 1),  # forced runs whose decision was not reached or not played: must stay 0
)
SM_OFFSETS, N_SMETA = offsets(SUITS_META_FIELDS)
SM_DEALS = SM_OFFSETS["deals"]
SM_HANDS = SM_OFFSETS["hands"]
SM_DEC = SM_OFFSETS["dec"]
SM_POL_NET = SM_OFFSETS["pol_net"]
SM_POL_NET_SQ = SM_OFFSETS["pol_net_sq"]
SM_R2_SMOUS = SM_OFFSETS["r2_smous"]
SM_UNREACHED = SM_OFFSETS["unreached"]

# --- candidate koe rules, evaluated on the same runs: the koe names the suit with the best
# suit_strength + a * trump length + b * (the turned card's suit), for each candidate (a, b) of cfg
MAX_CAND = 64
CAND_FIELDS = (
    ("n", 1),  # koe decisions
    ("dnet", 1),  # net(the candidate's suit) - net(the policy's suit): sum, sum of squares
    ("dnet_sq", 1),
    ("switched", 1),  # decisions where the candidate names another suit than the policy
)
CAND_OFFSETS, NC = offsets(CAND_FIELDS)
CAND_N = CAND_OFFSETS["n"]
CAND_DNET = CAND_OFFSETS["dnet"]
CAND_DNET_SQ = CAND_OFFSETS["dnet_sq"]
CAND_SWITCHED = CAND_OFFSETS["switched"]
SUITS_CFG_FIELDS = (("n_cand", 1),)  # cfg: the number of candidates, then (a, b) in hundredths of a point each
SUITS_CFG_OFFSETS, SUITS_CAND = offsets(SUITS_CFG_FIELDS)
SUITS_N_CAND = SUITS_CFG_OFFSETS["n_cand"]
CAND_SCALE = 100.0

# a row: cells (N_CELLS x NS), meta, candidates (MAX_CAND x NC)
CELLS_SIZE = N_CELLS * NS
SUITS_ROW_FIELDS = (("cells", CELLS_SIZE), ("meta", N_SMETA), ("cand", MAX_CAND * NC))
SROW_OFFSETS, SUITS_ROW = offsets(SUITS_ROW_FIELDS)
SROW_CELLS = SROW_OFFSETS["cells"]
SROW_META = SROW_OFFSETS["meta"]
CAND_OFFSET = SROW_OFFSETS["cand"]

# the unit's scratch (int64)
SUITS_SCRATCH_FIELDS = (
    ("trace", TRACE_BIDS),  # the natural bidding's trace
    ("bid_out", AUCTION_SIZE),
    ("deal", N_CARDS),  # the deal, kept while the runs reuse ``deck``
    ("net", N_SUITS),  # per suit: the decider's side's net
    ("score", N_SUITS),  # per suit: its score
    ("made", N_SUITS),  # per suit: made (0/1)
    ("len", N_SUITS),  # per suit: trump length of the cards the bidder would play
)
SS_OFFSETS, SUITS_SCRATCH = offsets(SUITS_SCRATCH_FIELDS)
SS_TRACE = SS_OFFSETS["trace"]
SS_BID_OUT = SS_OFFSETS["bid_out"]
SS_DEAL = SS_OFFSETS["deal"]
SS_NET = SS_OFFSETS["net"]
SS_SCORE = SS_OFFSETS["score"]
SS_MADE = SS_OFFSETS["made"]
SS_LEN = SS_OFFSETS["len"]


@njit(cache=True)
def suit_cell(dec, rank, gap, turned, lenrel, pstr):
    """The cell index of an alternative (module docstring), from its bins."""
    return ((((dec * N_RANK + rank) * N_GAP + gap) * 2 + turned) * N_LENREL + lenrel) * N_PB + pstr


@njit(cache=True, inline="always")
def suits_unit(rec, bid_pol, play_pol, bid_params, cfg, bufs, scratch, own, strength, row):
    """One deal of the suit-choice measurement (the unit's stream is seeded by the driver);
    ``strength``: float64[8] scratch (the choice score by suit, then the strength score)."""
    ws, res, no_trace, rng, deck, force, totals = bufs
    cells = row[SROW_CELLS:SROW_CELLS + CELLS_SIZE].reshape((N_CELLS, NS))
    meta = row[SROW_META:SROW_META + N_SMETA]
    cand = row[CAND_OFFSET:CAND_OFFSET + MAX_CAND * NC].reshape((MAX_CAND, NC))
    trace = scratch[SS_TRACE:SS_TRACE + TRACE_BIDS]
    bid_out = scratch[SS_BID_OUT:SS_BID_OUT + AUCTION_SIZE]
    deal = scratch[SS_DEAL:SS_DEAL + N_CARDS]
    net = scratch[SS_NET:SS_NET + N_SUITS]
    score = scratch[SS_SCORE:SS_SCORE + N_SUITS]
    made = scratch[SS_MADE:SS_MADE + N_SUITS]
    length = scratch[SS_LEN:SS_LEN + N_SUITS]
    meta[SM_DEALS] += 1
    turned, state = deal_and_bid(rec, bid_pol, bid_params, rng, deck, own, force, trace, bid_out)
    ts = turned >> 3
    # the deal's suit decision, if any: the koe, or a round-2 take
    seat = -1
    dec = -1
    p = -1
    for b in range(trace[0]):
        base = 1 + CALL_STRIDE * b
        rnd = trace[base + CL_ROUND]
        call = trace[base + CL_CALL]
        if call == KOE:
            seat, dec, p = 0, 0, trace[base + CL_SUIT]
        elif call == TAKE and rnd == 2:
            seat, dec, p = trace[base + CL_SEAT], 1 + trace[base + CL_SEAT], trace[base + CL_SUIT]
        elif call == SMOUS and rnd == 2:
            meta[SM_R2_SMOUS] += 1
    if seat < 0:
        return
    meta[SM_DEC + dec] += 1
    side = side_of_seat(seat, rec)
    koe = dec == 0
    for u in range(N_SUITS):
        cards = bid_cards(own[seat], turned, u, rec)
        # the policy's choice score: the strength, and at the koe its koe weights (bidding.koe_score)
        strength[N_SUITS + u] = suit_strength(cards, u, bid_params[seat])
        strength[u] = koe_score(cards, u, ts, bid_params[seat]) if koe else strength[N_SUITS + u]
        length[u] = popcount(np.uint32(lane(cards, u)))
    # every allowed suit, forced, from the same deck and stream state
    for j in range(N_CARDS):
        deal[j] = deck[j]
    allowed = trump_suits(rec, KOE_ROUND if koe else 2, ts)  # the suits its call could name (§3)
    for u in range(N_SUITS):
        if not (allowed >> u) & 1:
            continue
        force[CL_SEAT] = seat
        force[CL_ROUND] = KOE_ROUND if koe else 2
        force[CL_CALL] = KOE if koe else TAKE
        force[CL_SUIT] = u
        for j in range(N_CARDS):
            deck[j] = deal[j]
        rng[0] = state
        play_hand(deck, rec, bid_pol, play_pol, bid_params, rng, force, NO_RESERVE, totals, NO_TOTALS,
                  ws, res, no_trace)
        meta[SM_HANDS] += 1
        if res[RES_FORCED] != 1 or res[RES_KIND] != PLAYED or res[RES_TRUMP] != u:
            meta[SM_UNREACHED] += 1
        made[u] = 1 if res[RES_KIND] == PLAYED and res[RES_OUTCOME] == MADE else 0
        meta[SM_HANDS] += follow_redeals(deck, rec, bid_pol, play_pol, bid_params, rng, force, totals, ws, res,
                                         no_trace)
        score[u], net[u] = counted_score(res, rec, side)
    force[CL_SEAT] = -1
    meta[SM_POL_NET + dec] += net[p]
    meta[SM_POL_NET_SQ + dec] += net[p] * net[p]
    sp = strength[p]
    pstr = np.int64(sp / P_BIN) if sp > 0 else 0
    if pstr > N_PB - 1:
        pstr = N_PB - 1
    for u in range(N_SUITS):
        if u == p or not (allowed >> u) & 1:
            continue
        rank = 0
        for v in range(N_SUITS):
            if v == p or v == u or not (allowed >> v) & 1:
                continue
            if strength[v] > strength[u] or (strength[v] == strength[u] and v < u):
                rank += 1
        gap = sp - strength[u]
        gb = np.int64(gap / GAP_BIN) if gap > 0 else 0
        if gb > N_GAP - 1:
            gb = N_GAP - 1
        lr = 0 if length[u] < length[p] else (1 if length[u] == length[p] else 2)
        c = suit_cell(dec, rank, gb, 1 if u == ts else 0, lr, pstr)
        dn = net[u] - net[p]
        ds = score[u] - score[p]
        cells[c, S_N] += 1
        cells[c, S_DNET] += dn
        cells[c, S_DNET_SQ] += dn * dn
        cells[c, S_D] += ds
        cells[c, S_D_SQ] += ds * ds
        cells[c, S_ALT_MADE] += made[u]
        cells[c, S_POL_MADE] += made[p]
    if not koe:
        return
    for k in range(cfg[SUITS_N_CAND] if cfg.shape[0] > SUITS_N_CAND else 0):
        a = cfg[SUITS_CAND + 2 * k] / CAND_SCALE
        b = cfg[SUITS_CAND + 2 * k + 1] / CAND_SCALE
        pick = 0
        best = -1e18
        for u in range(N_SUITS):
            sc = strength[N_SUITS + u] + a * length[u] + (b if u == ts else 0.0)
            if sc > best:
                best = sc
                pick = u
        dn = net[pick] - net[p]
        cand[k, CAND_N] += 1
        cand[k, CAND_DNET] += dn
        cand[k, CAND_DNET_SQ] += dn * dn
        cand[k, CAND_SWITCHED] += 1 if pick != p else 0
