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
from analyzer.rules.structure import has_partners, has_piles
from analyzer.game.auction import AUCTION_SIZE, CALL_STRIDE, CL_CALL, CL_ROUND, CL_SEAT, CL_SUIT, TRACE_BIDS
from analyzer.players.bidding import (  # noqa: F401 (HON_*, N_HON: the class dimensions, read by the tables)
    HEURISTIC, HON_9, HON_A, HON_J, HON_T, N_ACES, N_HON, N_HAND_CLASSES, N_LEN, N_VOIDS, bid_cards,
    bid_threshold, class_features, suit_strength)
from analyzer.rules.calls import PASS, SMOUS, TAKE, trump_suits
from analyzer.rules.cards import N_SUITS
from analyzer.game.dealing import first_hands, shuffle_deck
from analyzer.rules.scoring import NO_RESERVE, NO_TOTALS
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

# --- fields per class (int64 sums) ---
Q_N = 0  # decisions of this class
Q_NAT_TAKE = 1  # the policy's natural call was take
Q_NAT_SMOUS = 2  # ... smous
Q_TAKE = 3  # own score when taking: sum, sum of squares
Q_TAKE_SQ = 4
Q_PASS = 5  # own score when passing
Q_PASS_SQ = 6
Q_D = 7  # own score: take - pass, same deal
Q_D_SQ = 8
Q_TNET = 9  # net (own - best other side) when taking
Q_TNET_SQ = 10
Q_PNET = 11  # net when passing
Q_PNET_SQ = 12
Q_DNET = 13  # net: take - pass, same deal
Q_DNET_SQ = 14
Q_MADE = 15  # when taking: made
Q_DEDANS = 16
Q_TIE = 17
Q_CAPOT = 18  # when taking: the taker's side won every trick
Q_PIT = 19  # when taking: the taker's side won no trick
# the decisions where the seat's threshold alone (no class override) takes: their count and
# paired gains, so a class splits into the part the threshold takes and the part it passes
Q_TH_N = 20
Q_TH_D = 21  # own score: take - pass
Q_TH_D_SQ = 22
Q_TH_DNET = 23  # net: take - pass
Q_TH_DNET_SQ = 24
NQ = 25

M_DEALS = 0  # deals sampled
M_HANDS = 1  # hands simulated
M_R1 = 2  # round-1 decisions recorded
M_R2 = 3  # round-2 decisions recorded
N_META = 4


@njit(cache=True)
def hand_class(cards, t, seat, rnd):
    """(class index, hon, length, side aces, voids) of ``cards`` with ``t`` as trump."""
    hon, length, aces, voids = class_features(cards, t)
    idx = ((((hon * N_LEN + length) * N_ACES + aces) * N_VOIDS + voids) * N_SEATS + seat) * N_ROUNDS + rnd - 1
    return idx, hon, length, aces, voids


@njit(cache=True, forceinline=True)
def judged_cards(rec, deck, own):
    """Fill ``own[s]`` with the cards seat s judges at bidding (Dekjas: its face-up cards) of
    the dealt ``deck``, as the hand does (RULES.md §3); returns the turned card."""
    for s in range(4):
        own[s] = np.uint32(0)
    if has_piles(rec):
        for p in range(8):  # the face-up card of pile p, as ``dekjas_piles`` lays them out
            for s in range(2):
                own[s] |= np.uint32(1) << np.uint32(deck[16 + 2 * p + s])
        return deck[31]
    return first_hands(deck, rec.n_players, rec.first_deal, own)


# compiled once and called, not inlined: see analyzer.runs.hand.run_bidding
@njit(cache=True, _nrt=False)
def deal_and_bid(rec, bid_pol, bid_params, rng, deck, own, force, trace, bid_out):
    """Deal the unit's cards (``shuffle_deck``), fill ``own`` (``judged_cards``) and run the
    natural bidding with a trace, from the stream state every forced run of the deal starts
    from: returns (the turned card, that state)."""
    shuffle_deck(rng, deck)
    state = rng[0]
    turned = judged_cards(rec, deck, own)
    trace[0] = 0
    force[0] = -1
    run_bidding(rec, own, turned, bid_pol, bid_params, rng, force, trace, bid_out)
    return turned, state


MAX_DECISIONS = 2 * 4  # two rounds, four seats
MAX_RUNS = 1 + 2 * MAX_DECISIONS  # the natural hand, a take and a pass per decision


@njit(cache=True, forceinline=True)
def _add_run(runs, n_runs, seat, rnd, call, suit):
    """Queue a forced run (seat, round, call, suit); returns the new number of runs."""
    runs[n_runs, 0] = seat
    runs[n_runs, 1] = rnd
    runs[n_runs, 2] = call
    runs[n_runs, 3] = suit
    return n_runs + 1


# the unit's scratch (int64), views taken by ``table_unit``
_S_RUNS = 0  # force rows of the runs of one deal (seat -1 = the natural hand)
_S_SCORE = _S_RUNS + 4 * MAX_RUNS  # per run and side: score
_S_NET = _S_SCORE + 4 * MAX_RUNS  # per run and side: score - best other side
_S_INFO = _S_NET + 4 * MAX_RUNS  # per run: forced reached, played, outcome, taker side, all-tricks side
_S_TRICKS = _S_INFO + 5 * MAX_RUNS  # per run and side: tricks
_S_DEC = _S_TRICKS + 4 * MAX_RUNS  # per decision: class, strength index, side, take run, pass run, call, round,
# the threshold alone takes (0/1)
_S_DEAL = _S_DEC + 8 * MAX_DECISIONS  # the deal, kept while runs (and their redeals) reuse ``deck``
_S_TRACE = _S_DEAL + 32  # the natural bidding's trace
_S_BID_OUT = _S_TRACE + TRACE_BIDS
TABLE_SCRATCH = _S_BID_OUT + AUCTION_SIZE
CLS_SIZE = N_CLASSES * NQ
STR_SIZE = N_STR * NQ
TABLE_ROW = CLS_SIZE + STR_SIZE + N_META  # a row: cls (N_CLASSES x NQ), strength (N_STR x NQ), meta
TABLE_ROUNDS, TABLE_REUSE = 0, 1  # cfg: [rounds, reuse]


@njit(cache=True, inline="always")
def table_unit(rec, bid_pol, play_pol, bid_params, cfg, bufs, scratch, own, row):
    """One deal of the bidding tables (the unit's stream is seeded by the driver)."""
    n_sides = rec.n_sides
    partners = has_partners(rec)
    rounds = cfg[TABLE_ROUNDS]
    reuse = cfg[TABLE_REUSE]
    ws, res, no_trace, rng, deck, force, totals = bufs
    cls = row[0:CLS_SIZE].reshape((N_CLASSES, NQ))
    strn = row[CLS_SIZE:CLS_SIZE + STR_SIZE].reshape((N_STR, NQ))
    meta = row[CLS_SIZE + STR_SIZE:TABLE_ROW]
    trace = scratch[_S_TRACE:_S_TRACE + TRACE_BIDS]
    bid_out = scratch[_S_BID_OUT:_S_BID_OUT + AUCTION_SIZE]
    deal = scratch[_S_DEAL:_S_DEAL + 32]
    runs = scratch[_S_RUNS:_S_SCORE].reshape((MAX_RUNS, 4))
    run_score = scratch[_S_SCORE:_S_NET].reshape((MAX_RUNS, 4))
    run_net = scratch[_S_NET:_S_INFO].reshape((MAX_RUNS, 4))
    run_info = scratch[_S_INFO:_S_TRICKS].reshape((MAX_RUNS, 5))
    run_tricks = scratch[_S_TRICKS:_S_DEC].reshape((MAX_RUNS, 4))
    dec = scratch[_S_DEC:_S_DEAL].reshape((MAX_DECISIONS, 8))
    meta[M_DEALS] += 1
    # the natural bidding lists the decisions reached and the policy's call at each
    turned, state = deal_and_bid(rec, bid_pol, bid_params, rng, deck, own, force, trace, bid_out)
    ts = turned >> 3
    n_runs = 1  # run 0: the natural hand, played only if some decision uses it
    runs[0, 0] = -1
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
        dec[n_dec, 0] = idx
        dec[n_dec, 1] = (rnd - 1) * N_SEATS * N_BINS + seat * N_BINS + bn
        dec[n_dec, 2] = seat & 1 if partners else seat
        dec[n_dec, 3] = take_run
        dec[n_dec, 4] = pass_run
        dec[n_dec, 5] = call
        dec[n_dec, 6] = rnd
        dec[n_dec, 7] = 1 if strength >= bid_threshold(bid_params[seat], rnd, seat) else 0
        n_dec += 1
    # play the runs: the hand compiled once (runs.hand.play_hand) is called here, not inlined
    for j in range(32):
        deal[j] = deck[j]
    for r in range(0 if use_natural else 1, n_runs):
        for j in range(4):
            force[j] = runs[r, j]
        for j in range(32):
            deck[j] = deal[j]
        rng[0] = state
        play_hand(deck, rec, bid_pol, play_pol, bid_params, rng, force, NO_RESERVE, totals, NO_TOTALS,
                  ws, res, no_trace)
        meta[M_HANDS] += 1
        # outcome of the hand asked about
        run_info[r, 0] = res[RES_FORCED] if runs[r, 0] >= 0 else 1
        run_info[r, 1] = 1 if res[RES_KIND] == 0 else 0
        run_info[r, 2] = res[RES_OUTCOME]
        run_info[r, 3] = res[RES_TAKER_SIDE]
        run_info[r, 4] = res[RES_ALL_TRICKS_SIDE]
        for side in range(n_sides):
            run_tricks[r, side] = res[RES_TRICKS + side]
        # scores: the hand played after any redeals (a redeal is worth a fresh deal)
        meta[M_HANDS] += follow_redeals(deck, rec, bid_pol, play_pol, bid_params, rng, force, totals, ws, res,
                                        no_trace)
        for side in range(n_sides):
            run_score[r, side], run_net[r, side] = counted_score(res, rec, side)
    force[0] = -1
    # score the decisions
    for d_i in range(n_dec):
        side = dec[d_i, 2]
        tr = dec[d_i, 3]
        pr = dec[d_i, 4]
        if run_info[tr, 0] == 0:
            continue  # cannot happen: the natural bidding reached this decision
        t_score = run_score[tr, side]
        p_score = run_score[pr, side]
        t_net = run_net[tr, side]
        p_net = run_net[pr, side]
        played = run_info[tr, 1] == 1
        oc = run_info[tr, 2]
        f_made = 1 if played and oc == 0 else 0
        f_ded = 1 if played and oc == 1 else 0
        f_tie = 1 if played and oc == 2 else 0
        f_cap = 1 if played and run_info[tr, 4] == side else 0
        f_pit = 1 if played and run_tricks[tr, side] == 0 else 0
        meta[M_R1 + dec[d_i, 6] - 1] += 1
        d = t_score - p_score
        dn = t_net - p_net
        nt = 1 if dec[d_i, 5] == TAKE else 0
        ns = 1 if dec[d_i, 5] == SMOUS else 0
        th = dec[d_i, 7]
        for which in range(2):
            acc = cls if which == 0 else strn
            j = dec[d_i, 0] if which == 0 else dec[d_i, 1]
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
