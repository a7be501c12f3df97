"""What each analysis does with one unit of work (a hand; for ``games``, a game; for ``duel``,
a deal played once per seating), as numba kernels called by the one driver (``analyzer.runs.driver``).

A unit kernel receives the unit's random stream already seeded (``seed_stream(seed, i)``,
by the driver), the hand buffers, a scratch array and the row it adds its integer counts
to (its layout is the analysis' own: ``COUNT_FIELDS`` here for ``simulate``, ``T_*`` /
``F_*`` for ``take``, ``G_*`` for ``games``, ``D_*`` for ``duel``, ``analyzer.runs.classes`` for the bidding tables).
It says what it deals, forces and counts; it never loops over units, seeds streams,
chunks or runs in parallel: that is the driver's job, written once.

``cfg`` is the analysis' configuration as one int64 array (empty for ``simulate`` and
``seats``; the layouts are ``TAKE_*`` and ``GAMES_*`` below).
"""

import numpy as np

from analyzer.compiling import njit
from analyzer.rules.seats import player_at, side_of_seat
from analyzer.rules.calls import PASSED_OUT, PLAYED, REDEAL
from analyzer.rules.cards import N_CARDS
from analyzer.game.auction import CALL_STRIDE, CL_SEAT
from analyzer.game.dealing import seed_stream, shuffle_deck, shuffle_rest
from analyzer.players.bidding import P_THR1, P_THR2, score_shift
from analyzer.rules.scoring import NO_RESERVE, NO_TOTALS, game_winner
from analyzer.runs.hand import (
    N_DECL_KINDS,
    RES_ALL_TRICKS_SIDE,
    RES_CARD,
    RES_DECL_KINDS,
    RES_DIX_SEAT,
    RES_FORCED,
    RES_KIND,
    RES_N_TRICKLESS,
    RES_OUTCOME,
    RES_RESERVE,
    RES_ROEM_POINTS,
    RES_ROEM_SIDE,
    RES_ROUND,
    RES_SCORES,
    RES_SMOUS,
    RES_STUK_SEAT,
    RES_TAKER,
    RES_TAKER_SIDE,
    RES_TRICKS,
    RES_TRUMP,
    RES_TURNED,
    hand_buffers,
    play_hand,
)
from analyzer.layout import offsets

# ==== simulate: what a run counts per hand: (name, size); offsets below are derived ====
CARD_HIST_BINS = 253  # taker side's card points 0..252
COUNT_FIELDS = (
    ("hands", 1),  # deals simulated
    ("played", 1),  # hands played out
    ("passed_out", 1),  # classic: all passed twice
    ("redeal", 1),  # smous answered with a redeal
    ("take_r1", 4),  # takes in round 1, by seat
    ("take_r2", 4),  # takes in round 2, by seat
    ("koe", 1),  # forced troefmaker (piekjas, dekjas)
    ("smous_offered", 1),
    ("smous_play", 1),
    ("smous_redeal", 1),
    ("made", 1),
    ("dedans", 1),
    ("tie", 1),  # classic litige, or piekjas/dekjas T = M
    ("capot_for", 1),  # the taker's side won every trick
    ("pit_against", 1),  # another side won every trick
    ("trickless_sides", 1),  # sum over hands of sides that won no trick
    ("hands_with_trickless", 1),
    ("reserve_hands", 1),  # hands that left a reserve
    ("dix", 1),  # trump 7 exchanged
    ("roem_scored", 1),  # hands where a side scored declarations
    ("roem_points", 1),  # sum of the declaration points that scored
    ("stuk", 1),  # hands with stuk / belote
    ("stuk_taker", 1),  # ... held by the taker's side
    ("trump_turned", 1),  # trump = the turned card's suit
    ("score_sum", 4),  # by seat: sum of the hand scores of the seat's side
    ("score_sq", 4),  # by seat: sum of squares
    ("taker_score_sum", 1),
    ("taker_score_sq", 1),
    ("taker_card_hist", CARD_HIST_BINS),
    ("decl_kinds", N_DECL_KINDS),  # declarations made: seq3, seq4, seq5+, carré 9 10 J Q K A
    ("taker_made_by_seat", 4),
    ("taker_dedans_by_seat", 4),
)
OFFSETS, N_COUNTS = offsets(COUNT_FIELDS)

SIM_HANDS = OFFSETS["hands"]
SIM_PLAYED = OFFSETS["played"]
SIM_PASSED = OFFSETS["passed_out"]
SIM_REDEAL = OFFSETS["redeal"]
SIM_TAKE_R1 = OFFSETS["take_r1"]
SIM_TAKE_R2 = OFFSETS["take_r2"]
SIM_KOE = OFFSETS["koe"]
SIM_SMOUS_OFFERED = OFFSETS["smous_offered"]
SIM_SMOUS_PLAY = OFFSETS["smous_play"]
SIM_SMOUS_REDEAL = OFFSETS["smous_redeal"]
SIM_MADE = OFFSETS["made"]
SIM_CAPOT_FOR = OFFSETS["capot_for"]
SIM_PIT_AGAINST = OFFSETS["pit_against"]
SIM_TRICKLESS = OFFSETS["trickless_sides"]
SIM_HANDS_TRICKLESS = OFFSETS["hands_with_trickless"]
SIM_RESERVE = OFFSETS["reserve_hands"]
SIM_DIX = OFFSETS["dix"]
SIM_ROEM = OFFSETS["roem_scored"]
SIM_ROEM_POINTS = OFFSETS["roem_points"]
SIM_STUK = OFFSETS["stuk"]
SIM_STUK_TAKER = OFFSETS["stuk_taker"]
SIM_TRUMP_TURNED = OFFSETS["trump_turned"]
SIM_SCORE_SUM = OFFSETS["score_sum"]
SIM_SCORE_SQ = OFFSETS["score_sq"]
SIM_TAKER_SUM = OFFSETS["taker_score_sum"]
SIM_TAKER_SQ = OFFSETS["taker_score_sq"]
SIM_HIST = OFFSETS["taker_card_hist"]
SIM_DECL = OFFSETS["decl_kinds"]
SIM_MADE_SEAT = OFFSETS["taker_made_by_seat"]
SIM_DEDANS_SEAT = OFFSETS["taker_dedans_by_seat"]


@njit(cache=True, _nrt=False)  # once a hand: no reference counting (see dealing.shuffle_deck)
def count_hand(res, rec, counts):
    """Add one hand's result to the counts."""
    counts[SIM_HANDS] += 1
    kind = res[RES_KIND]
    if res[RES_SMOUS] > 0:
        counts[SIM_SMOUS_OFFERED] += 1
        if res[RES_SMOUS] == 1:
            counts[SIM_SMOUS_PLAY] += 1
        else:
            counts[SIM_SMOUS_REDEAL] += 1
    if kind != PLAYED:
        if kind == PASSED_OUT:
            counts[SIM_PASSED] += 1
        else:
            counts[SIM_REDEAL] += 1
        return
    counts[SIM_PLAYED] += 1
    taker = res[RES_TAKER]
    rnd = res[RES_ROUND]
    if rnd == 1:
        counts[SIM_TAKE_R1 + taker] += 1
    elif rnd == 2:
        counts[SIM_TAKE_R2 + taker] += 1
    else:
        counts[SIM_KOE] += 1
    oc = res[RES_OUTCOME]
    counts[SIM_MADE + oc] += 1
    if oc == 0:
        counts[SIM_MADE_SEAT + taker] += 1
    elif oc == 1:
        counts[SIM_DEDANS_SEAT + taker] += 1
    ts = res[RES_TAKER_SIDE]
    all_side = res[RES_ALL_TRICKS_SIDE]
    if all_side >= 0:
        if all_side == ts:
            counts[SIM_CAPOT_FOR] += 1
        else:
            counts[SIM_PIT_AGAINST] += 1
    nt = res[RES_N_TRICKLESS]
    counts[SIM_TRICKLESS] += nt
    if nt > 0:
        counts[SIM_HANDS_TRICKLESS] += 1
    if res[RES_RESERVE] > 0:
        counts[SIM_RESERVE] += 1
    if res[RES_DIX_SEAT] >= 0:
        counts[SIM_DIX] += 1
    if res[RES_ROEM_SIDE] >= 0:
        counts[SIM_ROEM] += 1
        counts[SIM_ROEM_POINTS] += res[RES_ROEM_POINTS]
    st = res[RES_STUK_SEAT]
    if st >= 0:
        counts[SIM_STUK] += 1
        if side_of_seat(st, rec) == ts:
            counts[SIM_STUK_TAKER] += 1
    if res[RES_TRUMP] == (res[RES_TURNED] >> 3):
        counts[SIM_TRUMP_TURNED] += 1
    for s in range(rec.n_players):
        sc = res[RES_SCORES + side_of_seat(s, rec)]
        counts[SIM_SCORE_SUM + s] += sc
        counts[SIM_SCORE_SQ + s] += sc * sc
    tsc = res[RES_SCORES + ts]
    counts[SIM_TAKER_SUM] += tsc
    counts[SIM_TAKER_SQ] += tsc * tsc
    cp = res[RES_CARD + ts]
    if cp > CARD_HIST_BINS - 1:
        cp = CARD_HIST_BINS - 1
    counts[SIM_HIST + cp] += 1
    for k in range(N_DECL_KINDS):
        counts[SIM_DECL + k] += res[RES_DECL_KINDS + k]


@njit(cache=True, inline="always")
def simulate_unit(rec, bid_pol, play_pol, bid_params, ws, res, no_trace, rng, deck, force, totals, row, seats):
    """``simulate``: a fresh deal from the unit's stream, played by the policies, counted;
    with ``seats``, the seat advantage of ``analyzer.questions.seats`` too (row ``SEATS_ROW`` long)."""
    shuffle_deck(rng, deck)
    play_hand(deck, rec, bid_pol, play_pol, bid_params, rng, force, NO_RESERVE, totals, NO_TOTALS, ws, res, no_trace)
    count_hand(res, rec, row)
    if seats:
        seat_advantage(res, rec, row)


# ==== seats: simulate's counts, then per seat the paired advantage ====================
SEATS_FIELDS = COUNT_FIELDS + (
    ("adv_sum", 4),  # + seat: sum of the scaled advantage
    ("adv_sq", 4),  # + seat: sum of its squares
)
SEATS_OFFSETS, SEATS_ROW = offsets(SEATS_FIELDS)
ADV_SUM = SEATS_OFFSETS["adv_sum"]
ADV_SQ = SEATS_OFFSETS["adv_sq"]


@njit(cache=True, _nrt=False)  # once a hand: no reference counting (see dealing.shuffle_deck)
def seat_advantage(res, rec, row):
    """Per seat: (n_sides - 1) * its side's score - the other sides' scores, and its square."""
    n_sides = rec.n_sides
    total = 0
    for o in range(n_sides):
        total += res[RES_SCORES + o]
    for s in range(rec.n_players):
        a = n_sides * res[RES_SCORES + side_of_seat(s, rec)] - total  # = (n_sides - 1) * own - sum of the others
        row[ADV_SUM + s] += a
        row[ADV_SQ + s] += a * a


# ==== take and the bidding tables: a forced hand, then the redeals it leads to ==========
MAX_REDEALS = 20  # smous redeals followed in a row (each happens about 1 time in 3)


@njit(cache=True, inline="always")
def follow_redeals(deck, rec, bid_pol, play_pol, bid_params, rng, force, totals, ws, res, no_trace):
    """The hand just played into ``res`` was a smous answered 'redeal' (RULES.md §3.5):
    deal new cards from the stream, same dealer, and let every seat's policies bid and
    play (the forced call is dropped), until a hand is not redealt or ``MAX_REDEALS``
    redeals were followed. Returns the hands played (0 when ``res`` was no redeal)."""
    n = 0
    while res[RES_KIND] == REDEAL and n < MAX_REDEALS:
        shuffle_deck(rng, deck)
        force[CL_SEAT] = -1
        play_hand(deck, rec, bid_pol, play_pol, bid_params, rng, force, NO_RESERVE, totals, NO_TOTALS,
                  ws, res, no_trace)
        n += 1
    return n


@njit(cache=True, inline="always")
def counted_score(res, rec, side):
    """(score, net) of ``side`` in the hand that counts after ``follow_redeals``: its hand
    score, and that minus the best other side's; both 0 when it was still a redeal."""
    if res[RES_KIND] == REDEAL:
        return 0, 0
    s = res[RES_SCORES + side]
    best_other = -(1 << 40)
    for o in range(rec.n_sides):
        if o != side and res[RES_SCORES + o] > best_other:
            best_other = res[RES_SCORES + o]
    return s, s - best_other


# ==== take: every candidate call on the same sampled deal ===============================
# row = TAKE_HEAD_FIELDS + per call CALL_RESULT_FIELDS + per ordered pair of calls (a, b): sum and
# sum of squares of score(a) - score(b) on the same deal, then the same for net scores.
TAKE_HEAD_FIELDS = (("attempts", 1), ("accepted", 1), ("hands", 1))  # samples drawn, kept, hands played
T_OFFSETS, T_HEAD = offsets(TAKE_HEAD_FIELDS)
T_ATTEMPTS = T_OFFSETS["attempts"]
T_ACCEPTED = T_OFFSETS["accepted"]
T_HANDS = T_OFFSETS["hands"]
CALL_RESULT_FIELDS = (  # one candidate call's sums
    ("sum", 1),  # the player's side's hand score
    ("sq", 1),
    ("msum", 1),  # net: score minus the best other side's score
    ("msq", 1),
    ("we_take", 1),  # the player's side is the troefmaker's side
    ("made", 1),  # ... and made (RULES.md §6); made, dedans, tie in the order of the outcome
    ("dedans", 1),  # ... and went dedans
    ("tie", 1),  # ... and tied (classic litige; piekjas/dekjas T = M)
    ("capot_for", 1),  # the player's side won every trick
    ("pit_against", 1),  # the player's side won no trick (classic: the other team's capot)
    ("not_played", 1),  # the hand asked about was passed out (classic) or redealt (smous)
    ("others", 3),  # + j (0..2): the hand score of the side j + 1 places after the player's (the game's result)
)
F_OFFSETS, N_F = offsets(CALL_RESULT_FIELDS)
F_SUM = F_OFFSETS["sum"]
F_SQ = F_OFFSETS["sq"]
F_MSUM = F_OFFSETS["msum"]
F_MSQ = F_OFFSETS["msq"]
F_WE_TAKE = F_OFFSETS["we_take"]
F_MADE = F_OFFSETS["made"]
F_DEDANS = F_OFFSETS["dedans"]
F_TIE = F_OFFSETS["tie"]
F_CAPOT_FOR = F_OFFSETS["capot_for"]
F_PIT_AGAINST = F_OFFSETS["pit_against"]
F_NOT_PLAYED = F_OFFSETS["not_played"]
F_OTHERS = F_OFFSETS["others"]

# cfg: [my side, number of calls k, base deck, fixed flags, then the k calls (CALL_FIELDS each)]
TAKE_CFG_FIELDS = (("side", 1), ("k", 1), ("deck", N_CARDS), ("fixed", N_CARDS))
TAKE_CFG_OFFSETS, TAKE_CALLS = offsets(TAKE_CFG_FIELDS)
TAKE_SIDE = TAKE_CFG_OFFSETS["side"]
TAKE_K = TAKE_CFG_OFFSETS["k"]
TAKE_DECK = TAKE_CFG_OFFSETS["deck"]
TAKE_FIXED = TAKE_CFG_OFFSETS["fixed"]


def take_row_size(k):
    return T_HEAD + k * N_F + 4 * k * k


def take_scratch_size(k):
    """The scratch of ``take_unit`` with ``k`` calls: the sample, the calls' fields (k x N_F), their
    scores and nets (k each), ``shuffle_rest``'s positions."""
    return N_CARDS + k * N_F + 2 * k + N_CARDS


@njit(cache=True, inline="always")
def take_unit(rec, bid_pol, play_pol, bid_params, cfg, bufs, scratch, row):
    """``take``: sample the unknown cards, play every call on them with the same stream."""
    ws, res, no_trace, rng, deck, force, totals = bufs
    my_side = cfg[TAKE_SIDE]
    k = cfg[TAKE_K]
    # the scratch's parts, laid end to end (take_scratch_size)
    at_tmp = N_CARDS
    at_sc = at_tmp + k * N_F
    at_mg = at_sc + k
    at_free = at_mg + k
    sample = scratch[0:at_tmp]
    tmp = scratch[at_tmp:at_sc].reshape((k, N_F))  # this sample's fields, added once accepted
    sc = scratch[at_sc:at_mg]
    mg = scratch[at_mg:at_free]
    pair0 = T_HEAD + k * N_F
    mpair0 = pair0 + 2 * k * k
    for j in range(N_CARDS):
        sample[j] = cfg[TAKE_DECK + j]
    free_pos = scratch[at_free:at_free + N_CARDS]  # shuffle_rest's scratch
    shuffle_rest(rng, sample, cfg[TAKE_FIXED:TAKE_FIXED + N_CARDS], free_pos)
    state = rng[0]
    row[T_ATTEMPTS] += 1
    accepted = True
    for c in range(k):
        rng[0] = state  # the same stream for every call: paired comparison
        for j in range(N_CARDS):
            deck[j] = sample[j]
        for j in range(CALL_STRIDE):
            force[j] = cfg[TAKE_CALLS + CALL_STRIDE * c + j]
        for f in range(N_F):
            tmp[c, f] = 0
        play_hand(deck, rec, bid_pol, play_pol, bid_params, rng, force, NO_RESERVE, totals, NO_TOTALS,
                  ws, res, no_trace)
        row[T_HANDS] += 1
        if res[RES_FORCED] == 0:
            accepted = False  # an earlier seat took (or smoused): not the situation asked about
            break
        # outcome rates: the hand asked about
        if res[RES_KIND] != PLAYED:
            tmp[c, F_NOT_PLAYED] = 1
        else:
            if res[RES_TAKER_SIDE] == my_side:
                tmp[c, F_WE_TAKE] = 1
                tmp[c, F_MADE + res[RES_OUTCOME]] = 1
            if res[RES_ALL_TRICKS_SIDE] == my_side:
                tmp[c, F_CAPOT_FOR] = 1
            if res[RES_TRICKS + my_side] == 0:
                tmp[c, F_PIT_AGAINST] = 1
        row[T_HANDS] += follow_redeals(deck, rec, bid_pol, play_pol, bid_params, rng, force, totals, ws, res,
                                       no_trace)
        # scores: the hand played (after any redeals; passed out or capped: 0)
        s, m = counted_score(res, rec, my_side)
        sc[c] = s
        mg[c] = m
        tmp[c, F_SUM] = s
        tmp[c, F_SQ] = s * s
        tmp[c, F_MSUM] = m
        tmp[c, F_MSQ] = m * m
        if res[RES_KIND] != REDEAL:
            for j in range(rec.n_sides - 1):
                tmp[c, F_OTHERS + j] = res[RES_SCORES + (my_side + 1 + j) % rec.n_sides]
    force[CL_SEAT] = -1
    if not accepted:
        return
    row[T_ACCEPTED] += 1
    for c in range(k):
        b = T_HEAD + c * N_F
        for f in range(N_F):
            row[b + f] += tmp[c, f]
    for a in range(k):
        for b2 in range(k):
            d = sc[a] - sc[b2]
            p = pair0 + 2 * (a * k + b2)
            row[p] += d
            row[p + 1] += d * d
            d = mg[a] - mg[b2]
            p = mpair0 + 2 * (a * k + b2)
            row[p] += d
            row[p + 1] += d * d


# ==== games: one whole game to the target per unit, one row per game ===================
GAME_FIELDS = (
    ("winner", 1),  # winning player side, -1 when capped
    ("hands", 1),  # hands played
    ("deals", 1),  # deals dealt (hands played + passed out + smous redeals)
    ("passed", 1),  # classic passed-out deals
    ("redeal", 1),  # smous redeals
    ("totals", 4),  # + player side: final totals
)
G_OFFSETS, N_GCOLS = offsets(GAME_FIELDS)
G_WINNER = G_OFFSETS["winner"]
G_HANDS = G_OFFSETS["hands"]
G_DEALS = G_OFFSETS["deals"]
G_PASSED = G_OFFSETS["passed"]
G_REDEAL = G_OFFSETS["redeal"]
G_TOTALS = G_OFFSETS["totals"]
GAMES_CFG_FIELDS = (("max_deals", 1), ("duplicate", 1))  # cfg: max deals per game, 1: duplicate dealing (play_game)
GAMES_CFG_OFFSETS, _ = offsets(GAMES_CFG_FIELDS)
GAMES_MAX_DEALS = GAMES_CFG_OFFSETS["max_deals"]
GAMES_DUPLICATE = GAMES_CFG_OFFSETS["duplicate"]
GAMES_SCRATCH_FIELDS = (  # games_unit's scratch (int64)
    ("totals_p", 4),  # game totals by player side
    ("seat_bid", 4),  # this deal's bid policy by seat
    ("pside", 4),  # this deal's hand side -> player side
    ("unused", 4),
    ("seat_play", 2 * 4),  # this deal's play policy by role and seat
)
GS_OFFSETS, GAMES_SCRATCH = offsets(GAMES_SCRATCH_FIELDS)
GS_TOTALS_P = GS_OFFSETS["totals_p"]
GS_SEAT_BID = GS_OFFSETS["seat_bid"]
GS_PSIDE = GS_OFFSETS["pside"]
GS_SEAT_PLAY = GS_OFFSETS["seat_play"]


# --- per-hand log of one game (only for game_hands) ---------------------------------
GAME_LOG_FIELDS = (
    ("rot", 1),  # dealer moves so far: seat s is player (s + rot) mod n
    ("reserve", 1),  # reserve before the hand
    ("totals", 4),  # + hand side: game totals before the hand
)
GL_OFFSETS, N_LCOLS = offsets(GAME_LOG_FIELDS)
GL_ROT = GL_OFFSETS["rot"]
GL_RESERVE = GL_OFFSETS["reserve"]
GL_TOTALS = GL_OFFSETS["totals"]


@njit(cache=True, inline="always")
def play_game(rec, bid_pol, play_pol, bid_params, max_deals, rng, ws, res, no_trace, deck, force,
              totals_h, totals_p, seat_bid, seat_play, seat_params, pside, row,
              log_decks, log_res, log_traces, log_meta, duplicate):
    """One whole game on the stream ``rng`` (already seeded), its summary in ``row``.
    When ``log_decks`` has rows, deal d's deck, result, trace and the game state before
    it (``L_*``) are kept in row d of the ``log_*`` arrays. ``duplicate``: deal d's cards
    are shuffled on the stream ``seed_stream(base, 2d)`` and its hand draws from
    ``seed_stream(base, 2d + 1)`` (``base``: the game's stream as given), so two games of the
    same stream get the same cards in the same order whatever their players do (a whole-game
    duplicate duel); otherwise deals and hands draw in turn from the one stream.
    A player's score shifts (``shift_*``, ``bidding.score_region``) move its thresholds by the
    region of the game score it sees (its side's total against the best other's)."""
    n = rec.n_players
    n_sides = rec.n_sides
    logging = log_decks.shape[0] > 0
    base = rng[0]
    for s in range(4):
        totals_p[s] = 0
    rot = 0
    reserve = 0
    winner = -1
    hands = 0
    deals = 0
    passed = 0
    redeals = 0
    while deals < max_deals:
        # seats of this deal: seat s holds player (s + rot) mod n (the dealer has moved rot times)
        for s in range(n):
            p = player_at(s, rot, n)
            seat_bid[s] = bid_pol[p]
            for r in range(2):  # the player's play policy by role (taker's side, defence) moves with it
                seat_play[r, s] = play_pol[r, p]
            pr = p * n + s if bid_params.shape[0] == n * n else p  # per player and seat, or per player
            for j in range(bid_params.shape[1]):
                seat_params[s, j] = bid_params[pr, j]
        for hs in range(n_sides):
            pside[hs] = player_at(hs, rot, n_sides)
            totals_h[hs] = totals_p[pside[hs]]
        for s in range(n):  # the score-aware thresholds (0 for a score-blind bidder)
            shift = score_shift(seat_params[s], side_of_seat(s, rec), totals_h, n_sides, rec.target)
            seat_params[s, P_THR1] += shift
            seat_params[s, P_THR2] += shift
        if duplicate:
            seed_stream(rng, base, 2 * deals)
        shuffle_deck(rng, deck)  # from the ordered deck
        if duplicate:
            seed_stream(rng, base, 2 * deals + 1)
        trace = no_trace
        if logging:
            trace = log_traces[deals]
            log_meta[deals, GL_ROT] = rot
            log_meta[deals, GL_RESERVE] = reserve
            for hs in range(n_sides):
                log_meta[deals, GL_TOTALS + hs] = totals_h[hs]
        play_hand(deck, rec, seat_bid, seat_play, seat_params, rng, force, np.int64(reserve), totals_h, np.bool_(True),
                  ws, res, trace)
        if logging:
            for j in range(deck.shape[0]):
                log_decks[deals, j] = deck[j]
            for j in range(res.shape[0]):
                log_res[deals, j] = res[j]
        deals += 1
        kind = res[RES_KIND]
        if kind == REDEAL:
            redeals += 1  # §3.5: same dealer, new cards
            continue
        rot += 1
        if kind == PASSED_OUT:
            passed += 1  # §3.4: no play, the next dealer deals
            continue
        hands += 1
        reserve = res[RES_RESERVE]
        for hs in range(n_sides):
            totals_p[pside[hs]] += res[RES_SCORES + hs]
        # §7. Written so (a fresh name, assigned only on a win) because play_game is inlined into the
        # driver's chunk kernel (then one, with every other unit): `winner = game_winner(...)` made LLVM lay
        # out the whole kernel otherwise and simulate's hand loop 15-20% slower (docs/BENCHMARKS.md, 2026-12-04)
        w = game_winner(totals_p, n_sides, rec.target)
        if w >= 0:
            winner = w
            break
    row[G_WINNER] = winner
    row[G_HANDS] = hands
    row[G_DEALS] = deals
    row[G_PASSED] = passed
    row[G_REDEAL] = redeals
    for ps in range(4):
        row[G_TOTALS + ps] = totals_p[ps]


@njit(cache=True, inline="always")
def games_unit(rec, bid_pol, play_pol, bid_params, cfg, bufs, scratch, seat_params, no_log, row):
    """``games``: deals on the game's stream until a side wins (RULES.md §7); see
    ``analyzer.runs.games`` for the seating and the rules followed."""
    ws, res, no_trace, rng, deck, force, totals_h = bufs  # totals_h: by side of the current hand
    n = rec.n_players
    play_game(rec, bid_pol, play_pol, bid_params, cfg[GAMES_MAX_DEALS], rng, ws, res, no_trace, deck, force,
              totals_h, scratch[GS_TOTALS_P:GS_TOTALS_P + 4], scratch[GS_SEAT_BID:GS_SEAT_BID + n],
              scratch[GS_SEAT_PLAY:GS_SEAT_PLAY + 8].reshape((2, 4)), seat_params, scratch[GS_PSIDE:GS_PSIDE + 4], row,
              no_log, no_log, no_log, no_log, cfg[GAMES_DUPLICATE] != 0)


# ==== duel: one deal played once per seating of two policy sets, A and B ===============
# The kernel arguments carry both sets: bid_pol int64[2n] (A's code for seat s at s, B's at
# n + s), bid_params (2n, N_BID_PARAMS) likewise, play_pol int64[2, 8] (role row; A's seat s
# at column s, B's at 4 + s). cfg: [k seatings, who (k x 4: 0 = A, 1 = B at each seat),
# A's side in each seating (k)] (analyzer.questions.duel builds it).
DUEL_CFG_FIELDS = (("k", 1),)  # then who (k x 4), then A's side (k)
DUEL_CFG_OFFSETS, DUEL_WHO = offsets(DUEL_CFG_FIELDS)
DUEL_K = DUEL_CFG_OFFSETS["k"]
# row: integer sums over the deals of a chunk. A seating's value v is A's margin scaled to an
# integer: (sides - 1) x A's side's score - the other sides' scores (two sides: A's score - B's).
SPLIT_FIELDS = (("x", 1), ("x_sq", 1), ("c", 1), ("c_sq", 1), ("xc", 1))  # per deal x = sum of v, c = count
DR_OFFSETS, N_SPLIT = offsets(SPLIT_FIELDS)
DR_X = DR_OFFSETS["x"]
DR_X_SQ = DR_OFFSETS["x_sq"]
DR_C = DR_OFFSETS["c"]
DR_C_SQ = DR_OFFSETS["c_sq"]
DR_XC = DR_OFFSETS["xc"]
SIDE_RATE_FIELDS = (("took", 1), ("made", 1), ("dedans", 1), ("tie", 1), ("capot_for", 1))  # made .. tie: the outcome's order
DSIDE_OFFSETS, N_SIDE_RATES = offsets(SIDE_RATE_FIELDS)
DSIDE_TOOK = DSIDE_OFFSETS["took"]
DSIDE_MADE = DSIDE_OFFSETS["made"]
DSIDE_CAPOT_FOR = DSIDE_OFFSETS["capot_for"]
DUEL_FIELDS = (
    ("deals", 1),
    ("hands", 1),  # seatings played
    ("sum", 1),  # per deal: S = sum of v over its seatings; sum of S and of S^2
    ("sq", 1),
    ("best_sum", 1),  # the same for A's score - the best other side's (take's net)
    ("best_sq", 1),
    ("take", N_SPLIT),  # A's side took: SPLIT_FIELDS
    ("defend", N_SPLIT),  # A's side defended (another side took): the same
    ("side", 2 * N_SIDE_RATES),  # + N_SIDE_RATES * w (w 0 = A, 1 = B): SIDE_RATE_FIELDS
    ("not_played", 1),  # passed out (classic) or smous redeals beyond MAX_REDEALS
)
D_OFFSETS, DUEL_ROW = offsets(DUEL_FIELDS)
D_DEALS = D_OFFSETS["deals"]
D_HANDS = D_OFFSETS["hands"]
D_SUM = D_OFFSETS["sum"]
D_SQ = D_OFFSETS["sq"]
D_BEST_SUM = D_OFFSETS["best_sum"]
D_BEST_SQ = D_OFFSETS["best_sq"]
D_TAKE = D_OFFSETS["take"]
D_DEFEND = D_OFFSETS["defend"]
D_SIDE = D_OFFSETS["side"]
D_NOT_PLAYED = D_OFFSETS["not_played"]
DUEL_SCRATCH_FIELDS = (("seat_bid", 4), ("seat_play", 2 * 4), ("deal", N_CARDS))  # duel_unit's scratch
DS_OFFSETS, DUEL_SCRATCH = offsets(DUEL_SCRATCH_FIELDS)
DS_SEAT_BID = DS_OFFSETS["seat_bid"]
DS_SEAT_PLAY = DS_OFFSETS["seat_play"]
DS_DEAL = DS_OFFSETS["deal"]


@njit(cache=True, inline="always")
def duel_seating(rec, bid_pol, play_pol, bid_params, cfg, j, deal, state, bufs, trace,
                 seat_bid, seat_play, seat_params):
    """Seating ``j`` of a duel deal: ``deal`` dealt, A and B at the seats ``cfg`` gives, the
    random stream restarted at ``state`` (every seating draws the same numbers in the same
    order). A smous redeal is followed as in ``take`` (``follow_redeals``); ``res`` (and
    ``trace`` when not empty) hold the hand played."""
    ws, res, no_trace, rng, deck, force, totals = bufs
    n = rec.n_players
    base = DUEL_WHO + 4 * j  # who: 4 a seating
    for s in range(n):
        w = cfg[base + s]
        seat_bid[s] = bid_pol[w * n + s]
        for r in range(2):
            seat_play[r, s] = play_pol[r, 4 * w + s]
        for q in range(bid_params.shape[1]):
            seat_params[s, q] = bid_params[w * n + s, q]
    for q in range(N_CARDS):
        deck[q] = deal[q]
    rng[0] = state
    force[CL_SEAT] = -1
    play_hand(deck, rec, seat_bid, seat_play, seat_params, rng, force, NO_RESERVE, totals, NO_TOTALS, ws, res, trace)
    follow_redeals(deck, rec, seat_bid, seat_play, seat_params, rng, force, totals, ws, res, trace)


@njit(cache=True, inline="always")
def duel_unit(rec, bid_pol, play_pol, bid_params, cfg, bufs, scratch, seat_params, row):
    """``duel``: a fresh deal from the unit's stream, played once per seating; A's margins
    and each side's take / made / dedans counts added to ``row`` (``D_*``)."""
    ws, res, no_trace, rng, deck, force, totals = bufs
    n_sides = rec.n_sides
    k = cfg[DUEL_K]
    seat_bid = scratch[DS_SEAT_BID:DS_SEAT_BID + 4]
    seat_play = scratch[DS_SEAT_PLAY:DS_SEAT_PLAY + 8].reshape((2, 4))
    deal = scratch[DS_DEAL:DS_DEAL + N_CARDS]
    shuffle_deck(rng, deck)
    for q in range(N_CARDS):
        deal[q] = deck[q]
    state = rng[0]
    row[D_DEALS] += 1
    total = 0
    total_best = 0
    xt, ct, xd, cd = 0, 0, 0, 0
    for j in range(k):
        duel_seating(rec, bid_pol, play_pol, bid_params, cfg, j, deal, state, bufs, no_trace,
                     seat_bid, seat_play, seat_params)
        row[D_HANDS] += 1
        if res[RES_KIND] != PLAYED:
            row[D_NOT_PLAYED] += 1  # every side scores 0: v = 0
            continue
        a_side = cfg[DUEL_WHO + 4 * k + j]
        own = res[RES_SCORES + a_side]
        others = 0
        best = -(1 << 40)
        for o in range(n_sides):
            if o != a_side:
                others += res[RES_SCORES + o]
                if res[RES_SCORES + o] > best:
                    best = res[RES_SCORES + o]
        v = (n_sides - 1) * own - others
        total += v
        total_best += own - best
        ts = res[RES_TAKER_SIDE]
        w = 0 if ts == a_side else 1
        b = D_SIDE + N_SIDE_RATES * w
        row[b + DSIDE_TOOK] += 1
        row[b + DSIDE_MADE + res[RES_OUTCOME]] += 1  # MADE 0, DEDANS 1, TIE 2
        if res[RES_ALL_TRICKS_SIDE] == ts:
            row[b + DSIDE_CAPOT_FOR] += 1
        if w == 0:
            xt += v
            ct += 1
        else:
            xd += v
            cd += 1
    row[D_SUM] += total
    row[D_SQ] += total * total
    row[D_BEST_SUM] += total_best
    row[D_BEST_SQ] += total_best * total_best
    for r in range(2):
        b = D_TAKE if r == 0 else D_DEFEND
        x = xt if r == 0 else xd
        c = ct if r == 0 else cd
        row[b + DR_X] += x
        row[b + DR_X_SQ] += x * x
        row[b + DR_C] += c
        row[b + DR_C_SQ] += c * c
        row[b + DR_XC] += x * c


@njit(cache=True)
def trace_duel(seed, index, rec, bid_pol, play_pol, bid_params, cfg, j, deck_out, res_out, trace, strong_fn):
    """Seating ``j`` of deal ``index`` of a duel run again, traced: the same deal and stream as
    ``duel_unit`` (for the double-dummy loss and deal logs). Fills ``deck_out`` (the deck of
    the hand played), ``res_out`` and ``trace``; ``strong_fn``: ``analyzer.runs.hand.strong_address``."""
    bufs = hand_buffers(rec, play_pol, strong_fn)
    rng, deck = bufs[3], bufs[4]
    seed_stream(rng, seed, index)
    shuffle_deck(rng, deck)
    deal = deck.copy()
    seat_bid = np.zeros(4, np.int64)
    seat_play = np.zeros((2, 4), np.int64)
    seat_params = np.zeros((rec.n_players, bid_params.shape[1]), np.float64)
    duel_seating(rec, bid_pol, play_pol, bid_params, cfg, j, deal, rng[0], bufs, trace,
                 seat_bid, seat_play, seat_params)
    deck_out[:] = bufs[4]
    res_out[:] = bufs[1]
