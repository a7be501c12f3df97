"""Whole games to the target score (RULES.md §7): ``analyzer.runs.units.games_unit`` is one
game, run by the one driver (``analyzer.runs.driver``, kind ``GAMES``, one row per game).

Game ``g`` of a run with seed ``s`` is a pure function of ``(s, g)``: its stream is
``seed_stream(s, g)`` and its deals are consecutive ``shuffle_deck`` calls on that stream
(the hands' policies draw from the same stream). Outputs are one row per game, so the
results are identical whatever the thread count.

Players and seats: player ``p`` sits at seat ``(p - rot) mod n`` where ``rot`` counts the
dealer's moves so far (§2: the dealer moves one seat on after each hand; a classic
passed-out deal moves it too, a smous redeal keeps it, §3). So player 0 is voorhand in
the first hand, player n-1 its dealer. Player sides: classic teams {0, 2} and {1, 3},
otherwise one player per side. Each player keeps its own policies (its play policy by
role: as taker's side and as defender) whatever seat it occupies, and bids with its
policy's parameters for that seat (a calibrated policy has a row per seat:
``SimConfig.game_kernel_args``); parameter rows given by the caller stay with the player.

Between hands the reserve carries over (§6) and the game totals are passed to the hand
for the trickless-roem rule (§6, last line). The game ends at the end of a hand in which
a side reaches the target with the highest total alone; an exact tie at the top plays on
(§7). A game still unfinished after ``max_deals`` deals is counted as capped.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field

import numpy as np


from analyzer.compiling import njit
from analyzer.runs import driver, kernelcache
from analyzer.rules.cards import N_CARDS
from analyzer.rules.seats import player_at
from analyzer.game.dealing import seed_stream
from analyzer.errors import BeloteError
from analyzer.runs.hand import RES_SIZE, TRACE_SIZE, hand_buffers, strong_address
from analyzer.runs.simulate import SimConfig, set_threads
from analyzer.runs.stats import Mean, Rate, mean_of, rate
from analyzer.runs.units import (  # noqa: F401 (the per-game columns, int64; the per-deal log columns)
    GL_RESERVE,
    GL_ROT,
    GL_TOTALS,
    N_LCOLS,
    play_game,
    G_DEALS,
    G_HANDS,
    G_PASSED,
    G_REDEAL,
    G_TOTALS,
    G_WINNER,
    GAMES_DUPLICATE,
    GAMES_MAX_DEALS,
    N_GCOLS,
)

DEFAULT_MAX_DEALS = 200


@njit(cache=True)
def _game_buffers(n, n_params):
    """What one thread needs besides ``hand_buffers`` to play games."""
    return (np.zeros(4, np.int64), np.zeros(n, np.int64), np.zeros((2, 4), np.int64),
            np.zeros((n, n_params), np.float64), np.zeros(4, np.int64))


@njit(cache=True, nogil=True)  # threads play games side by side (analyzer.runs.equity.sample_games)
def _game_log(seed, g, rec, bid_pol, play_pol, bid_params, max_deals, strong_fn, duplicate):
    """Game ``g`` of run ``seed`` again, every deal kept: (summary row, decks, results,
    traces, L_* rows), one row per deal dealt."""
    ws, res, no_trace, rng, deck, force, totals_h = hand_buffers(rec, play_pol, strong_fn)
    totals_p, seat_bid, seat_play, seat_params, pside = _game_buffers(rec.n_players, bid_params.shape[1])
    row = np.zeros(N_GCOLS, np.int64)
    decks = np.zeros((max_deals, N_CARDS), np.int64)
    results = np.zeros((max_deals, RES_SIZE), np.int64)
    traces = np.zeros((max_deals, TRACE_SIZE), np.int64)
    meta = np.zeros((max_deals, N_LCOLS), np.int64)
    seed_stream(rng, seed, g)
    play_game(rec, bid_pol, play_pol, bid_params, max_deals, rng, ws, res, no_trace, deck, force,
              totals_h, totals_p, seat_bid, seat_play, seat_params, pside, row,
              decks, results, traces, meta, duplicate)
    d = row[G_DEALS]
    return row, decks[:d], results[:d], traces[:d], meta[:d]


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
               batch: int = 1 << 14, chunk: int = 256, duplicate: bool = False) -> GamesResult:
    """Play ``games`` whole games with ``config``'s rules, policies and seed (its ``deals``
    is not used). ``progress(done)`` is called with the games finished so far. A searching
    play policy plays a game in seconds: one game a chunk, a progress call every few.
    ``duplicate``: game g's deals are the same cards in the same order whoever plays them
    (``units.play_game``): two runs on one seed with other players are a duplicate match."""
    if games <= 0:
        raise BeloteError(f"--games must be a positive number of games, not {games}")
    if max_deals <= 0:
        raise BeloteError(f"the deal cap per game must be positive, not {max_deals}")
    threads = set_threads(config.threads)
    args = config.game_kernel_args()
    cfg = np.zeros(2, np.int64)
    cfg[GAMES_MAX_DEALS] = max_deals
    cfg[GAMES_DUPLICATE] = int(duplicate)
    if config.policies.searching:
        chunk, batch = 1, min(batch, 2 * threads)
    parts = []
    t0 = time.perf_counter()
    done = 0
    while done < games:
        n = min(batch, games - done)
        parts.append(driver.run_units(driver.GAMES, config.seed, done, n, chunk, args, cfg, per_unit=True))
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


def game_deals(config: SimConfig, game: int, max_deals: int = DEFAULT_MAX_DEALS,
               duplicate: bool = False) -> list[GameDeal]:
    """Every deal of game ``game`` of ``config``'s run (the same game ``play_games`` plays, with
    ``duplicate`` as it was given), with the game state before each."""
    if game < 0:
        raise BeloteError(f"a game number is 0 or more, not {game}")
    rec, bid, play, params = config.game_kernel_args()
    args = (config.seed, game, rec, bid, play, params, max_deals, strong_address(play), duplicate)
    kernelcache.compile_first(_game_log, args, kernelcache.HAND_LOCK)  # the hand compiled once (see there)
    _, decks, results, traces, meta = _game_log(*args)
    n, n_sides = rec.n_players, rec.n_sides
    return [
        GameDeal(d, decks[d], results[d], traces[d], [player_at.py_func(s, int(meta[d, GL_ROT]), n) for s in range(n)],
                 int(meta[d, GL_RESERVE]), [int(x) for x in meta[d, GL_TOTALS:GL_TOTALS + n_sides]])
        for d in range(decks.shape[0])
    ]
