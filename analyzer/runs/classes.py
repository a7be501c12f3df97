"""The kernel behind the bidding tables: hands classified the way a player sees them, and
take versus pass compared on the same deals.

For deal ``i`` (stream ``seed_stream(seed, i)``, ``shuffle_deck``), the natural bidding
is run once (``run_bidding`` with a trace, on the same stream state the hand will use),
which tells every decision point reached and the policy's call there. For each seat
``s`` reached in round 1 (all earlier seats passed) and in round 2 (everyone passed in
round 1, earlier seats in round 2), the hand is played twice from that same state: with
``s`` forced to take (round 1: the turned suit; round 2: the suit its cards are best in,
by ``suit_strength``) and with ``s`` forced to pass. The difference is paired.

A heuristic bidder draws no random numbers, so forcing its natural call replays the
natural hand exactly: that run is reused instead of played again (``reuse=1``; the test
suite checks that ``reuse=0`` gives identical counts). A pass answered by a smous and a
redeal (2 players) is followed by a fresh deal with the same dealer, as in ``take``
(``analyzer.runs.units.follow_redeals``, which both call): its scores count. The runs of
a deal are listed first and played in one loop (one call site of ``play_hand``).

``table_unit`` is one deal; the one driver (``analyzer.runs.driver``, kind ``TABLE``) seeds its
stream, loops, chunks and runs the chunks in parallel.

Classes (what a player recognises), from the cards the bidder would play with trump
``t`` (``bid_cards``: the classic / 4-player taker's turned card, the Dix exchange):
which of the trump J, 9, A, 10 are held (``hon`` bits J=1, 9=2, A=4, 10=8), trump length,
side aces, side voids, seat and round. The heuristic's strength score is binned
separately (``STR_BIN`` points a bin) for the break-even line.

Outputs are integer sums per chunk (identical for any thread count), one flat row
(``TABLE_ROW``): ``cls[class, Q_*]``, ``strength[(round, seat, bin), Q_*]`` and ``meta[M_*]``.
"""

import numpy as np

from analyzer.compiling import njit
from analyzer.rules.seats import side_of_seat
from analyzer.game.auction import AUCTION_SIZE, CALL_STRIDE, CL_CALL, CL_ROUND, CL_SEAT, CL_SUIT, TRACE_BIDS
from analyzer.players.bidding import (  # noqa: F401 (HON_*, N_HON: the class dimensions, read by the tables)
    HEURISTIC, HON_9, HON_A, HON_J, HON_T, N_ACES, N_HON, N_HAND_CLASSES, N_LEN, N_VOIDS, bid_cards,
    bid_threshold, class_features, suit_strength)
from analyzer.rules.calls import PASS, PLAYED, SMOUS, TAKE, trump_suits
from analyzer.rules.cards import N_CARDS, N_SUITS
from analyzer.game.dealing import bidding_hands, shuffle_deck
from analyzer.layout import offsets
from analyzer.rules.scoring import DEDANS, MADE, NO_RESERVE, NO_TOTALS, TIE
from analyzer.runs.hand import (
    RES_ALL_TRICKS_SIDE,
    RES_FORCED,
    RES_KIND,
    RES_OUTCOME,
    RES_TAKER_SIDE,
    RES_TRICKS,
    play_hand,
    run_bidding,
)
from analyzer.runs.units import counted_score, follow_redeals

# --- class dimensions (index = ((((hon * N_LEN + len) * 4 + aces) * 4 + voids) * 4 + seat) * 2 + round - 1;
# the hand class itself, N_HON..N_VOIDS, is the bidding module's: class overrides use the same classes)
N_SEATS = 4
N_ROUNDS = 2
N_CLASSES = N_HAND_CLASSES * N_SEATS * N_ROUNDS

STR_BIN = 4.0  # strength points per bin
N_BINS = 50  # bins 0..49 (the last one open-ended)
N_STR = N_ROUNDS * N_SEATS * N_BINS  # index = (round - 1) * N_SEATS * N_BINS + seat * N_BINS + bin

# --- fields per class (int64 sums), declared once: (name, size), offsets derived ---
CLASS_FIELDS = (
    ("n", 1),  # decisions of this class
    ("nat_take", 1),  # the policy's natural call was take
    ("nat_smous", 1),  # ... smous
    ("take", 1),  # own score when taking: sum, sum of squares
    ("take_sq", 1),
    ("pass", 1),  # own score when passing
    ("pass_sq", 1),
    ("d", 1),  # own score: take - pass, same deal
    ("d_sq", 1),
    ("tnet", 1),  # net (own - best other side) when taking
    ("tnet_sq", 1),
    ("pnet", 1),  # net when passing
    ("pnet_sq", 1),
    ("dnet", 1),  # net: take - pass, same deal
    ("dnet_sq", 1),
    ("made", 1),  # when taking: made
    ("dedans", 1),
    ("tie", 1),
    ("capot", 1),  # when taking: the taker's side won every trick
    ("pit", 1),  # when taking: the taker's side won no trick
    # the decisions where the seat's threshold alone (no class override) takes: their count and
    # paired gains, so a class splits into the part the threshold takes and the part it passes
    ("th_n", 1),
    ("th_d", 1),  # own score: take - pass
    ("th_d_sq", 1),
    ("th_dnet", 1),  # net: take - pass
    ("th_dnet_sq", 1),
)
Q_OFFSETS, NQ = offsets(CLASS_FIELDS)
Q_N = Q_OFFSETS["n"]
Q_NAT_TAKE = Q_OFFSETS["nat_take"]
Q_NAT_SMOUS = Q_OFFSETS["nat_smous"]
Q_TAKE = Q_OFFSETS["take"]
Q_TAKE_SQ = Q_OFFSETS["take_sq"]
Q_PASS = Q_OFFSETS["pass"]
Q_PASS_SQ = Q_OFFSETS["pass_sq"]
Q_D = Q_OFFSETS["d"]
Q_D_SQ = Q_OFFSETS["d_sq"]
Q_TNET = Q_OFFSETS["tnet"]
Q_TNET_SQ = Q_OFFSETS["tnet_sq"]
Q_PNET = Q_OFFSETS["pnet"]
Q_PNET_SQ = Q_OFFSETS["pnet_sq"]
Q_DNET = Q_OFFSETS["dnet"]
Q_DNET_SQ = Q_OFFSETS["dnet_sq"]
Q_MADE = Q_OFFSETS["made"]
Q_DEDANS = Q_OFFSETS["dedans"]
Q_TIE = Q_OFFSETS["tie"]
Q_CAPOT = Q_OFFSETS["capot"]
Q_PIT = Q_OFFSETS["pit"]
Q_TH_N = Q_OFFSETS["th_n"]
Q_TH_D = Q_OFFSETS["th_d"]
Q_TH_D_SQ = Q_OFFSETS["th_d_sq"]
Q_TH_DNET = Q_OFFSETS["th_dnet"]
Q_TH_DNET_SQ = Q_OFFSETS["th_dnet_sq"]

# --- the row's meta (int64 sums) ---
META_FIELDS = (
    ("deals", 1),  # deals sampled
    ("hands", 1),  # hands simulated
    ("r1", 1),  # round-1 decisions recorded
    ("r2", 1),  # round-2 decisions recorded (M_R1 + round - 1)
)
M_OFFSETS, N_META = offsets(META_FIELDS)
M_DEALS = M_OFFSETS["deals"]
M_HANDS = M_OFFSETS["hands"]
M_R1 = M_OFFSETS["r1"]
M_R2 = M_OFFSETS["r2"]


@njit(cache=True)
def hand_class(cards, t, seat, rnd):
    """(class index, hon, length, side aces, voids) of ``cards`` with ``t`` as trump."""
    hon, length, aces, voids = class_features(cards, t)
    idx = ((((hon * N_LEN + length) * N_ACES + aces) * N_VOIDS + voids) * N_SEATS + seat) * N_ROUNDS + rnd - 1
    return idx, hon, length, aces, voids


# compiled once and called, not inlined: see analyzer.runs.hand.run_bidding
@njit(cache=True, _nrt=False)
def deal_and_bid(rec, bid_pol, bid_params, rng, deck, own, force, trace, bid_out):
    """Deal the unit's cards (``shuffle_deck``), fill ``own`` (``bidding_hands``: what each seat
    judges, as the hand does) and run the natural bidding with a trace, from the stream state
    every forced run of the deal starts from: returns (the turned card, that state)."""
    shuffle_deck(rng, deck)
    state = rng[0]
    turned = bidding_hands(deck, rec, own)
    trace[0] = 0
    force[CL_SEAT] = -1
    run_bidding(rec, own, turned, bid_pol, bid_params, rng, force, trace, bid_out)
    return turned, state


MAX_DECISIONS = 2 * 4  # two rounds, four seats
MAX_RUNS = 1 + 2 * MAX_DECISIONS  # the natural hand, a take and a pass per decision


@njit(cache=True, forceinline=True)
def _add_run(runs, n_runs, seat, rnd, call, suit):
    """Queue a forced run (a force row: seat, round, call, suit); returns the new number of runs."""
    runs[n_runs, CL_SEAT] = seat
    runs[n_runs, CL_ROUND] = rnd
    runs[n_runs, CL_CALL] = call
    runs[n_runs, CL_SUIT] = suit
    return n_runs + 1


# what a run of a deal gave (one row per run, int64)
RUN_INFO_FIELDS = (
    ("forced", 1),  # the forced decision was reached (the natural hand: 1)
    ("played", 1),  # the hand was played (not passed out or redealt)
    ("outcome", 1),  # MADE, DEDANS or TIE
    ("taker_side", 1),
    ("all_tricks_side", 1),  # side that won every trick, -1
)
RI_OFFSETS, N_RUN_INFO = offsets(RUN_INFO_FIELDS)
RI_FORCED = RI_OFFSETS["forced"]
RI_PLAYED = RI_OFFSETS["played"]
RI_OUTCOME = RI_OFFSETS["outcome"]
RI_TAKER_SIDE = RI_OFFSETS["taker_side"]
RI_ALL_TRICKS_SIDE = RI_OFFSETS["all_tricks_side"]

# one decision of a deal (one row per decision, int64)
DECISION_FIELDS = (
    ("cls", 1),  # its class (hand_class)
    ("str", 1),  # its strength index: (round - 1) * N_SEATS * N_BINS + seat * N_BINS + bin
    ("side", 1),  # the deciding seat's side
    ("take_run", 1),  # the run where it takes
    ("pass_run", 1),  # the run where it passes
    ("call", 1),  # the policy's natural call
    ("round", 1),
    ("threshold", 1),  # the seat's threshold alone takes (0/1)
)
DEC_OFFSETS, N_DEC_FIELDS = offsets(DECISION_FIELDS)
DEC_CLS = DEC_OFFSETS["cls"]
DEC_STR = DEC_OFFSETS["str"]
DEC_SIDE = DEC_OFFSETS["side"]
DEC_TAKE_RUN = DEC_OFFSETS["take_run"]
DEC_PASS_RUN = DEC_OFFSETS["pass_run"]
DEC_CALL = DEC_OFFSETS["call"]
DEC_ROUND = DEC_OFFSETS["round"]
DEC_THRESHOLD = DEC_OFFSETS["threshold"]

# the unit's scratch (int64), views taken by ``table_unit``
TABLE_SCRATCH_FIELDS = (
    ("runs", CALL_STRIDE * MAX_RUNS),  # per run: its force row (CALL_FIELDS; seat -1 = the natural hand)
    ("score", 4 * MAX_RUNS),  # per run and side: score
    ("net", 4 * MAX_RUNS),  # per run and side: score - best other side
    ("info", N_RUN_INFO * MAX_RUNS),  # per run: RUN_INFO_FIELDS
    ("tricks", 4 * MAX_RUNS),  # per run and side: tricks
    ("dec", N_DEC_FIELDS * MAX_DECISIONS),  # per decision: DECISION_FIELDS
    ("deal", N_CARDS),  # the deal, kept while runs (and their redeals) reuse ``deck``
    ("trace", TRACE_BIDS),  # the natural bidding's trace
    ("bid_out", AUCTION_SIZE),
)
TS_OFFSETS, TABLE_SCRATCH = offsets(TABLE_SCRATCH_FIELDS)
TS_RUNS = TS_OFFSETS["runs"]
TS_SCORE = TS_OFFSETS["score"]
TS_NET = TS_OFFSETS["net"]
TS_INFO = TS_OFFSETS["info"]
TS_TRICKS = TS_OFFSETS["tricks"]
TS_DEC = TS_OFFSETS["dec"]
TS_DEAL = TS_OFFSETS["deal"]
TS_TRACE = TS_OFFSETS["trace"]
TS_BID_OUT = TS_OFFSETS["bid_out"]

# a row: cls (N_CLASSES x NQ), strength (N_STR x NQ), meta
CLS_SIZE = N_CLASSES * NQ
STR_SIZE = N_STR * NQ
TABLE_ROW_FIELDS = (("cls", CLS_SIZE), ("strength", STR_SIZE), ("meta", N_META))
TROW_OFFSETS, TABLE_ROW = offsets(TABLE_ROW_FIELDS)
TROW_CLS = TROW_OFFSETS["cls"]
TROW_STR = TROW_OFFSETS["strength"]
TROW_META = TROW_OFFSETS["meta"]

TABLE_CFG_FIELDS = (("rounds", 1), ("reuse", 1))  # cfg: the rounds asked (1 or 2); reuse the natural hand (0/1)
TABLE_CFG_OFFSETS, _ = offsets(TABLE_CFG_FIELDS)
TABLE_ROUNDS = TABLE_CFG_OFFSETS["rounds"]
TABLE_REUSE = TABLE_CFG_OFFSETS["reuse"]


@njit(cache=True, inline="always")
def table_unit(rec, bid_pol, play_pol, bid_params, cfg, bufs, scratch, own, row):
    """One deal of the bidding tables (the unit's stream is seeded by the driver)."""
    n_sides = rec.n_sides
    rounds = cfg[TABLE_ROUNDS]
    reuse = cfg[TABLE_REUSE]
    ws, res, no_trace, rng, deck, force, totals = bufs
    cls = row[TROW_CLS:TROW_CLS + CLS_SIZE].reshape((N_CLASSES, NQ))
    strn = row[TROW_STR:TROW_STR + STR_SIZE].reshape((N_STR, NQ))
    meta = row[TROW_META:TROW_META + N_META]
    trace = scratch[TS_TRACE:TS_TRACE + TRACE_BIDS]
    bid_out = scratch[TS_BID_OUT:TS_BID_OUT + AUCTION_SIZE]
    deal = scratch[TS_DEAL:TS_DEAL + N_CARDS]
    runs = scratch[TS_RUNS:TS_RUNS + CALL_STRIDE * MAX_RUNS].reshape((MAX_RUNS, CALL_STRIDE))
    run_score = scratch[TS_SCORE:TS_SCORE + 4 * MAX_RUNS].reshape((MAX_RUNS, 4))
    run_net = scratch[TS_NET:TS_NET + 4 * MAX_RUNS].reshape((MAX_RUNS, 4))
    run_info = scratch[TS_INFO:TS_INFO + N_RUN_INFO * MAX_RUNS].reshape((MAX_RUNS, N_RUN_INFO))
    run_tricks = scratch[TS_TRICKS:TS_TRICKS + 4 * MAX_RUNS].reshape((MAX_RUNS, 4))
    dec = scratch[TS_DEC:TS_DEC + N_DEC_FIELDS * MAX_DECISIONS].reshape((MAX_DECISIONS, N_DEC_FIELDS))
    meta[M_DEALS] += 1
    # the natural bidding lists the decisions reached and the policy's call at each
    turned, state = deal_and_bid(rec, bid_pol, bid_params, rng, deck, own, force, trace, bid_out)
    ts = turned >> 3
    n_runs = 1  # run 0: the natural hand, played only if some decision uses it
    runs[0, CL_SEAT] = -1
    use_natural = False
    n_dec = 0
    for b in range(trace[0]):
        base = 1 + CALL_STRIDE * b
        seat = trace[base + CL_SEAT]
        rnd = trace[base + CL_ROUND]
        call = trace[base + CL_CALL]
        if rnd > rounds or (call != PASS and call != TAKE and call != SMOUS):
            continue  # koe, smous answers, round 2 when only round 1 is asked
        if rnd == 1:
            t = ts
        else:
            t = -1
            best = -1e18
            allowed = trump_suits(rec, 2, ts)
            for u in range(N_SUITS):
                if not (allowed >> u) & 1:
                    continue
                sc = suit_strength(bid_cards(own[seat], turned, u, rec), u, bid_params[seat])
                if sc > best:
                    best = sc
                    t = u
        cards = bid_cards(own[seat], turned, t, rec)
        idx, hon, length, aces, voids = hand_class(cards, t, seat, rnd)
        strength = suit_strength(cards, t, bid_params[seat])
        bn = np.int64(strength / STR_BIN) if strength > 0 else 0
        if bn > N_BINS - 1:
            bn = N_BINS - 1
        # a heuristic bidder draws no random numbers: forcing its natural call replays the natural hand
        deterministic = reuse == 1 and bid_pol[seat] == HEURISTIC
        if deterministic and call == TAKE and trace[base + CL_SUIT] == t:
            take_run = 0
            use_natural = True
        else:
            take_run = n_runs
            n_runs = _add_run(runs, n_runs, seat, rnd, TAKE, t)
        if deterministic and call == PASS:
            pass_run = 0
            use_natural = True
        else:
            pass_run = n_runs
            n_runs = _add_run(runs, n_runs, seat, rnd, PASS, -1)
        dec[n_dec, DEC_CLS] = idx
        dec[n_dec, DEC_STR] = (rnd - 1) * N_SEATS * N_BINS + seat * N_BINS + bn
        dec[n_dec, DEC_SIDE] = side_of_seat(seat, rec)
        dec[n_dec, DEC_TAKE_RUN] = take_run
        dec[n_dec, DEC_PASS_RUN] = pass_run
        dec[n_dec, DEC_CALL] = call
        dec[n_dec, DEC_ROUND] = rnd
        dec[n_dec, DEC_THRESHOLD] = 1 if strength >= bid_threshold(bid_params[seat], rnd, seat) else 0
        n_dec += 1
    # play the runs: the hand compiled once (runs.hand.play_hand) is called here, not inlined
    for j in range(N_CARDS):
        deal[j] = deck[j]
    for r in range(0 if use_natural else 1, n_runs):
        for j in range(CALL_STRIDE):
            force[j] = runs[r, j]
        for j in range(N_CARDS):
            deck[j] = deal[j]
        rng[0] = state
        play_hand(deck, rec, bid_pol, play_pol, bid_params, rng, force, NO_RESERVE, totals, NO_TOTALS,
                  ws, res, no_trace)
        meta[M_HANDS] += 1
        # outcome of the hand asked about
        run_info[r, RI_FORCED] = res[RES_FORCED] if runs[r, CL_SEAT] >= 0 else 1
        run_info[r, RI_PLAYED] = 1 if res[RES_KIND] == PLAYED else 0
        run_info[r, RI_OUTCOME] = res[RES_OUTCOME]
        run_info[r, RI_TAKER_SIDE] = res[RES_TAKER_SIDE]
        run_info[r, RI_ALL_TRICKS_SIDE] = res[RES_ALL_TRICKS_SIDE]
        for side in range(n_sides):
            run_tricks[r, side] = res[RES_TRICKS + side]
        # scores: the hand played after any redeals (a redeal is worth a fresh deal)
        meta[M_HANDS] += follow_redeals(deck, rec, bid_pol, play_pol, bid_params, rng, force, totals, ws, res,
                                        no_trace)
        for side in range(n_sides):
            run_score[r, side], run_net[r, side] = counted_score(res, rec, side)
    force[CL_SEAT] = -1
    # score the decisions
    for d_i in range(n_dec):
        side = dec[d_i, DEC_SIDE]
        tr = dec[d_i, DEC_TAKE_RUN]
        pr = dec[d_i, DEC_PASS_RUN]
        if run_info[tr, RI_FORCED] == 0:
            continue  # cannot happen: the natural bidding reached this decision
        t_score = run_score[tr, side]
        p_score = run_score[pr, side]
        t_net = run_net[tr, side]
        p_net = run_net[pr, side]
        played = run_info[tr, RI_PLAYED] == 1
        oc = run_info[tr, RI_OUTCOME]
        f_made = 1 if played and oc == MADE else 0
        f_ded = 1 if played and oc == DEDANS else 0
        f_tie = 1 if played and oc == TIE else 0
        f_cap = 1 if played and run_info[tr, RI_ALL_TRICKS_SIDE] == side else 0
        f_pit = 1 if played and run_tricks[tr, side] == 0 else 0
        meta[M_R1 + dec[d_i, DEC_ROUND] - 1] += 1
        d = t_score - p_score
        dn = t_net - p_net
        nt = 1 if dec[d_i, DEC_CALL] == TAKE else 0
        ns = 1 if dec[d_i, DEC_CALL] == SMOUS else 0
        th = dec[d_i, DEC_THRESHOLD]
        for which in range(2):
            acc = cls if which == 0 else strn
            j = dec[d_i, DEC_CLS] if which == 0 else dec[d_i, DEC_STR]
            acc[j, Q_N] += 1
            acc[j, Q_NAT_TAKE] += nt
            acc[j, Q_NAT_SMOUS] += ns
            acc[j, Q_TAKE] += t_score
            acc[j, Q_TAKE_SQ] += t_score * t_score
            acc[j, Q_PASS] += p_score
            acc[j, Q_PASS_SQ] += p_score * p_score
            acc[j, Q_D] += d
            acc[j, Q_D_SQ] += d * d
            acc[j, Q_TNET] += t_net
            acc[j, Q_TNET_SQ] += t_net * t_net
            acc[j, Q_PNET] += p_net
            acc[j, Q_PNET_SQ] += p_net * p_net
            acc[j, Q_DNET] += dn
            acc[j, Q_DNET_SQ] += dn * dn
            acc[j, Q_MADE] += f_made
            acc[j, Q_DEDANS] += f_ded
            acc[j, Q_TIE] += f_tie
            acc[j, Q_CAPOT] += f_cap
            acc[j, Q_PIT] += f_pit
            acc[j, Q_TH_N] += th
            acc[j, Q_TH_D] += th * d
            acc[j, Q_TH_D_SQ] += th * d * d
            acc[j, Q_TH_DNET] += th * dn
            acc[j, Q_TH_DNET_SQ] += th * dn * dn
