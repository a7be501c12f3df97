"""Whole games to the target score (RULES.md §7), as one numba kernel plus its driver.

Game ``g`` of a run with seed ``s`` is a pure function of ``(s, g)``: its stream is
``seed_stream(s, g)`` and its deals are consecutive ``shuffle_deck`` calls on that stream
(the hands' policies draw from the same stream). Outputs are one row per game, so the
results are identical whatever the thread count.

Players and seats: player ``p`` sits at seat ``(p - rot) mod n`` where ``rot`` counts the
dealer's moves so far (§2: the dealer moves one seat on after each hand; a classic
passed-out deal moves it too, a smous redeal keeps it, §3). So player 0 is voorhand in
the first hand, player n-1 its dealer. Player sides: classic teams {0, 2} and {1, 3},
otherwise one player per side. Each player keeps its own policies and bid parameters
whatever seat it occupies.

Between hands the reserve carries over (§6) and the game totals are passed to the hand
for the trickless-roem rule (§6, last line). The game ends at the end of a hand in which
a side reaches the target with the highest total alone; an exact tie at the top plays on
(§7). A game still unfinished after ``max_deals`` deals is counted as capped.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field

import numpy as np
from numba import njit, prange

from analyzer.bidding import PASSED_OUT, REDEAL
from analyzer.dealing import seed_stream, shuffle_deck
from analyzer.errors import BeloteError
from analyzer.cards import N_CARDS
from analyzer.hand import RES_KIND, RES_RESERVE, RES_SCORES, RES_SIZE, TRACE_SIZE, hand_buffers, play_hand
from analyzer.rules import CLASSIC
from analyzer.simulate import SimConfig, set_threads
from analyzer.stats import Mean, Rate, mean_of, rate

# --- per-game output columns (int64) -------------------------------------------------
G_WINNER = 0  # winning player side, -1 when capped
G_HANDS = 1  # hands played
G_DEALS = 2  # deals dealt (hands played + passed out + smous redeals)
G_PASSED = 3  # classic passed-out deals
G_REDEAL = 4  # smous redeals
G_TOTALS = 5  # + player side: final totals
N_GCOLS = G_TOTALS + 4

DEFAULT_MAX_DEALS = 200


# --- per-hand log of one game (only for game_hands) ---------------------------------
L_ROT = 0  # dealer moves so far: seat s is player (s + rot) mod n
L_RESERVE = 1  # reserve before the hand
L_TOTALS = 2  # + hand side: game totals before the hand
N_LCOLS = L_TOTALS + 4


@njit(cache=True, inline="always")
def _play_game(rec, bid_pol, play_pol, bid_params, max_deals, rng, ws, res, no_trace, deck, force,
               totals_h, totals_p, seat_bid, seat_play, seat_params, pside, row,
               log_decks, log_res, log_traces, log_meta):
    """One whole game on the stream ``rng`` (already seeded), its summary in ``row``.
    When ``log_decks`` has rows, deal d's deck, result, trace and the game state before
    it (``L_*``) are kept in row d of the ``log_*`` arrays."""
    n = rec.n_players
    n_sides = rec.n_sides
    classic = rec.variant == CLASSIC
    logging = log_decks.shape[0] > 0
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
        # seats of this deal: seat s is player (s + rot) mod n
        for s in range(n):
            p = (s + rot) % n
            seat_bid[s] = bid_pol[p]
            seat_play[s] = play_pol[p]
            for j in range(bid_params.shape[1]):
                seat_params[s, j] = bid_params[p, j]
        for hs in range(n_sides):
            if classic:
                pside[hs] = hs ^ (rot & 1)
            else:
                pside[hs] = (hs + rot) % n
            totals_h[hs] = totals_p[pside[hs]]
        shuffle_deck(rng, deck)
        trace = no_trace
        if logging:
            trace = log_traces[deals]
            log_meta[deals, L_ROT] = rot
            log_meta[deals, L_RESERVE] = reserve
            for hs in range(n_sides):
                log_meta[deals, L_TOTALS + hs] = totals_h[hs]
        play_hand(deck, rec, seat_bid, seat_play, seat_params, rng, force, reserve, totals_h, True,
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
        top = -1
        n_top = 0
        who = -1
        for ps in range(n_sides):
            if totals_p[ps] > top:
                top = totals_p[ps]
                n_top = 1
                who = ps
            elif totals_p[ps] == top:
                n_top += 1
        if top >= rec.target and n_top == 1:
            winner = who  # §7: highest total wins; an exact tie plays on
            break
    row[G_WINNER] = winner
    row[G_HANDS] = hands
    row[G_DEALS] = deals
    row[G_PASSED] = passed
    row[G_REDEAL] = redeals
    for ps in range(4):
        row[G_TOTALS + ps] = totals_p[ps]


@njit(cache=True)
def _game_buffers(n, n_params):
    """What one thread needs besides ``hand_buffers`` to play games."""
    return (np.zeros(4, np.int64), np.zeros(n, np.int64), np.zeros(n, np.int64),
            np.zeros((n, n_params), np.float64), np.zeros(4, np.int64))


@njit(cache=True)
def _games_chunk(seed, first, count, rec, bid_pol, play_pol, bid_params, max_deals, out):
    """Games first .. first+count-1, one row of ``out`` each (row 0 = game ``first``)."""
    ws, res, no_trace, rng, deck, force, totals_h = hand_buffers()  # totals_h: by side of the current hand
    totals_p, seat_bid, seat_play, seat_params, pside = _game_buffers(rec.n_players, bid_params.shape[1])
    no_log = np.zeros((0, 1), np.int64)
    for gi in range(count):
        seed_stream(rng, seed, first + gi)
        _play_game(rec, bid_pol, play_pol, bid_params, max_deals, rng, ws, res, no_trace, deck, force,
                   totals_h, totals_p, seat_bid, seat_play, seat_params, pside, out[gi],
                   no_log, no_log, no_log, no_log)


@njit(cache=True)
def _game_log(seed, g, rec, bid_pol, play_pol, bid_params, max_deals):
    """Game ``g`` of run ``seed`` again, every deal kept: (summary row, decks, results,
    traces, L_* rows), one row per deal dealt."""
    ws, res, no_trace, rng, deck, force, totals_h = hand_buffers()
    totals_p, seat_bid, seat_play, seat_params, pside = _game_buffers(rec.n_players, bid_params.shape[1])
    row = np.zeros(N_GCOLS, np.int64)
    decks = np.zeros((max_deals, N_CARDS), np.int64)
    results = np.zeros((max_deals, RES_SIZE), np.int64)
    traces = np.zeros((max_deals, TRACE_SIZE), np.int64)
    meta = np.zeros((max_deals, N_LCOLS), np.int64)
    seed_stream(rng, seed, g)
    _play_game(rec, bid_pol, play_pol, bid_params, max_deals, rng, ws, res, no_trace, deck, force,
               totals_h, totals_p, seat_bid, seat_play, seat_params, pside, row,
               decks, results, traces, meta)
    d = row[G_DEALS]
    return row, decks[:d], results[:d], traces[:d], meta[:d]


@njit(cache=True, parallel=True)
def _games_batch(seed, first, n_games, chunk, rec, bid_pol, play_pol, bid_params, max_deals):
    out = np.zeros((n_games, N_GCOLS), np.int64)
    n_chunks = (n_games + chunk - 1) // chunk
    for c in prange(n_chunks):
        start = c * chunk
        cnt = min(chunk, n_games - start)
        _games_chunk(seed, first + start, cnt, rec, bid_pol, play_pol, bid_params, max_deals,
                     out[start:start + cnt])
    return out


# --- the Python API ------------------------------------------------------------------------


@dataclass
class GamesResult:
    """Per-game rows (``G_*`` columns) of a run, and what they say."""

    config: SimConfig
    games: np.ndarray = field(repr=False)  # (n_games, N_GCOLS) int64
    max_deals: int
    seconds: float

    @property
    def n(self) -> int:
        return int(self.games.shape[0])

    @property
    def deals(self) -> int:
        """Deals simulated (hands played, passed out and redealt)."""
        return int(self.games[:, G_DEALS].sum())

    @property
    def capped(self) -> int:
        return int((self.games[:, G_WINNER] < 0).sum())

    def win_rates(self) -> list[Rate]:
        """P(win) of each player side (player 0 = voorhand of the first hand), over all games
        (a capped game is a loss for everyone)."""
        w = self.games[:, G_WINNER]
        return [rate(int((w == s).sum()), self.n) for s in range(self.config.rules.record().n_sides)]

    def hands_per_game(self) -> Mean:
        return mean_of(self.games[:, G_HANDS])

    def deals_per_game(self) -> Mean:
        return mean_of(self.games[:, G_DEALS])


def play_games(config: SimConfig, games: int, max_deals: int = DEFAULT_MAX_DEALS, progress=None,
               batch: int = 1 << 14, chunk: int = 256) -> GamesResult:
    """Play ``games`` whole games with ``config``'s rules, policies and seed (its ``deals``
    is not used). ``progress(done)`` is called with the games finished so far."""
    if games <= 0:
        raise BeloteError(f"--games must be a positive number of games, not {games}")
    if max_deals <= 0:
        raise BeloteError(f"the deal cap per game must be positive, not {max_deals}")
    set_threads(config.threads)
    rec, bid, play, params = config.kernel_args()
    parts = []
    t0 = time.perf_counter()
    done = 0
    while done < games:
        n = min(batch, games - done)
        parts.append(_games_batch(config.seed, done, n, chunk, rec, bid, play, params, max_deals))
        done += n
        if progress is not None:
            progress(done)
    return GamesResult(config, np.concatenate(parts), max_deals, time.perf_counter() - t0)


@dataclass
class GameDeal:
    """One deal of a game, as ``game_deals`` replays it (for deal logs)."""

    index: int  # deal number in the game, 0 first
    deck: np.ndarray
    res: np.ndarray
    trace: np.ndarray
    seats: list  # seats[s] = the player sitting at seat s in this deal
    reserve_before: int
    totals_before: list  # game totals per side of this deal, before it


def game_deals(config: SimConfig, game: int, max_deals: int = DEFAULT_MAX_DEALS) -> list[GameDeal]:
    """Every deal of game ``game`` of ``config``'s run (the same game ``play_games`` plays),
    with the game state before each."""
    if game < 0:
        raise BeloteError(f"a game number is 0 or more, not {game}")
    rec, bid, play, params = config.kernel_args()
    _, decks, results, traces, meta = _game_log(config.seed, game, rec, bid, play, params, max_deals)
    n, n_sides = rec.n_players, rec.n_sides
    return [
        GameDeal(d, decks[d], results[d], traces[d], [(s + int(meta[d, L_ROT])) % n for s in range(n)],
                 int(meta[d, L_RESERVE]), [int(x) for x in meta[d, L_TOTALS:L_TOTALS + n_sides]])
        for d in range(decks.shape[0])
    ]
