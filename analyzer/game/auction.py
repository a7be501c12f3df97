"""The bidding of RULES.md §3 as a state and its moves, like play's ``analyzer.game.state``.

One small int64 record (``AUCTION_FIELDS``, offsets derived) says whose turn it is and what
has been called; ``auction_legal`` gives the calls open to that seat (``legal_calls``, or the
answers to a smous), ``auction_apply`` makes one, ``auction_done`` says when the bidding has
ended and how (``AU_OUTCOME``: PLAYED, PASSED_OUT or REDEAL). The procedure is the rules':

- round 1, seats 0..n-1 in turn, then round 2 if all passed (§3 classic.2-3, piekjas.2-3);
- a take ends the bidding: its seat is the troefmaker, its suit trump;
- a smous (2 players) hands the turn to the other player, who answers play (the smous bidder
  becomes troefmaker on the smous suit) or redeal (§3 piekjas.5);
- all passed twice: classic is passed out (§3 classic.4); otherwise seat 0 is the koe and
  names a suit (§3 piekjas.4).

Who chooses the calls is not here: ``analyzer.runs.hand.run_bidding`` asks the seats'
bidding policies in turn and applies their calls; a searching bidder can step the same state.
"""


from analyzer.compiling import njit
from analyzer.layout import offsets
from analyzer.rules.seats import VOORHAND
from analyzer.rules.calls import (ANSWERS, KOE, KOE_ROUND, PASS, PASSED_OUT, PLAYED, REDEAL, SMOUS, SMOUS_PLAY,
                                  SMOUS_REDEAL, TAKE, legal_calls)

AU_ANSWER = 4  # AU_PHASE: the other player answers a smous
AU_DONE = 5  # AU_PHASE: the bidding has ended

# the auction's record, declared once: (name, size), offsets derived; the first seven are the
# bidding's outcome, as the hand reads it
AUCTION_FIELDS = (
    ("outcome", 1),  # PLAYED, PASSED_OUT or REDEAL once done (-1 before)
    ("trump", 1),  # the trump suit named (PLAYED)
    ("taker", 1),  # the troefmaker's seat (PLAYED)
    ("round", 1),  # the round of the call that decided: 1, 2 or KOE_ROUND (a smous: its round)
    ("smous", 1),  # 0 no smous, 1 smous played, 2 smous redealt
    ("smous_seat", 1),  # the seat that offered smous (-1: none)
    ("forced", 1),  # 1 when a forced decision (analyzer.runs.hand.run_bidding) was reached
    ("phase", 1),  # 1, 2: the round being called; KOE_ROUND; AU_ANSWER; AU_DONE
    ("seat", 1),  # whose call it is
    ("smous_suit", 1),  # the suit of a smous awaiting its answer
)
AU_OFFSETS, AUCTION_SIZE = offsets(AUCTION_FIELDS)

AU_OUTCOME = AU_OFFSETS["outcome"]
AU_TRUMP = AU_OFFSETS["trump"]
AU_TAKER = AU_OFFSETS["taker"]
AU_ROUND = AU_OFFSETS["round"]
AU_SMOUS = AU_OFFSETS["smous"]
AU_SMOUS_SEAT = AU_OFFSETS["smous_seat"]
AU_FORCED = AU_OFFSETS["forced"]
AU_PHASE = AU_OFFSETS["phase"]
AU_SEAT = AU_OFFSETS["seat"]
AU_SMOUS_SUIT = AU_OFFSETS["smous_suit"]


@njit(cache=True, forceinline=True)
def auction_start(au):
    """Voorhand (seat 0) to call in round 1, nothing called yet."""
    au[AU_OUTCOME] = -1
    au[AU_TRUMP] = -1
    au[AU_TAKER] = -1
    au[AU_ROUND] = 0
    au[AU_SMOUS] = 0
    au[AU_SMOUS_SEAT] = -1
    au[AU_FORCED] = 0
    au[AU_PHASE] = 1
    au[AU_SEAT] = VOORHAND
    au[AU_SMOUS_SUIT] = -1


@njit(cache=True, forceinline=True)
def auction_done(au):
    return au[AU_PHASE] == AU_DONE


@njit(cache=True, forceinline=True)
def auction_round(au):
    """The round the next call belongs to, as the bidding trace records it (an answer to a
    smous: the smous' round)."""
    return au[AU_ROUND] if au[AU_PHASE] == AU_ANSWER else au[AU_PHASE]


@njit(cache=True, forceinline=True)
def auction_legal(au, rec, turned_suit):
    """The calls open to the seat whose turn it is (a mask of ``analyzer.rules.calls``)."""
    if au[AU_PHASE] == AU_ANSWER:
        return ANSWERS
    return legal_calls(rec, au[AU_PHASE], turned_suit)


@njit(cache=True, forceinline=True)
def _end(au, outcome, trump, taker, rnd):
    au[AU_OUTCOME] = outcome
    au[AU_TRUMP] = trump
    au[AU_TAKER] = taker
    au[AU_ROUND] = rnd
    au[AU_PHASE] = AU_DONE


@njit(cache=True, forceinline=True)
def auction_apply(au, rec, turned_suit, call, suit):
    """The seat whose turn it is makes ``call`` (on ``suit``), one of ``auction_legal``."""
    phase = au[AU_PHASE]
    seat = au[AU_SEAT]
    if call == TAKE:
        _end(au, PLAYED, suit, seat, phase)
    elif call == KOE:
        _end(au, PLAYED, suit, 0, KOE_ROUND)
    elif call == SMOUS:
        au[AU_SMOUS_SEAT] = seat
        au[AU_SMOUS_SUIT] = suit
        au[AU_ROUND] = phase
        au[AU_PHASE] = AU_ANSWER
        au[AU_SEAT] = 1 - seat
    elif call == SMOUS_PLAY:
        au[AU_SMOUS] = 1
        _end(au, PLAYED, au[AU_SMOUS_SUIT], au[AU_SMOUS_SEAT], au[AU_ROUND])
    elif call == SMOUS_REDEAL:
        au[AU_SMOUS] = 2
        _end(au, REDEAL, -1, -1, au[AU_ROUND])
    elif call == PASS:
        if seat + 1 < rec.n_players:
            au[AU_SEAT] = seat + 1
        elif phase == 1:
            au[AU_PHASE] = 2
            au[AU_SEAT] = VOORHAND
        elif legal_calls(rec, KOE_ROUND, turned_suit) != 0:
            au[AU_PHASE] = KOE_ROUND  # §3 piekjas.4: seat 0 must play, the koe
            au[AU_SEAT] = VOORHAND
        else:
            _end(au, PASSED_OUT, -1, -1, 0)  # §3 classic.4


MAX_BIDS = 12  # 2 rounds x 4 seats, a smous answer, a koe
CALL_FIELDS = (("seat", 1), ("round", 1), ("call", 1), ("suit", 1))  # one call of a trace
CL_OFFSETS, CALL_STRIDE = offsets(CALL_FIELDS)
CL_SEAT = CL_OFFSETS["seat"]
CL_ROUND = CL_OFFSETS["round"]
CL_CALL = CL_OFFSETS["call"]
CL_SUIT = CL_OFFSETS["suit"]
TRACE_BIDS = 1 + CALL_STRIDE * MAX_BIDS  # a trace of the calls: [number of calls, then CALL_FIELDS each]


@njit(cache=True, forceinline=True)
def record_call(trace, seat, rnd, call, suit):
    """Append a call to ``trace`` (``TRACE_BIDS`` long, or empty: no trace)."""
    if trace.shape[0] > 0:
        n = trace[0]
        base = 1 + CALL_STRIDE * n
        trace[base + CL_SEAT] = seat
        trace[base + CL_ROUND] = rnd
        trace[base + CL_CALL] = call
        trace[base + CL_SUIT] = suit
        trace[0] = n + 1


__all__ = ["AUCTION_FIELDS", "AUCTION_SIZE", "AU_ANSWER", "AU_DONE", "auction_start", "auction_done", "auction_round",
           "auction_legal", "auction_apply", "MAX_BIDS", "CALL_FIELDS", "CALL_STRIDE", "TRACE_BIDS", "record_call"]
