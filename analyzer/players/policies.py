"""The policy registry: the one place that names the bidding and play policies.

To add a policy: write its branch in ``analyzer.players.bidding.choose_bid`` (and
``choose_koe_suit``, ``answer_smous``) or ``analyzer.players.play.choose_card`` under a new code,
then add one line here. Names are what the command line and the reports use.

Besides the registry's bidding policies, a seat may bid with ``calibrated`` (the policy
shipped for the run's variant and default rules, ``analyzer.questions.calibrate``) or with a policy
FILE (a path to a ``belote calibrate`` JSON file): both run the heuristic's code with the
file's parameter rows, resolved against the run's rules by ``Policies.bid_params``.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from analyzer.players import bidding, play
from analyzer.errors import BeloteError

CALIBRATED = "calibrated"  # the shipped calibrated policy of the run's variant label
BID_POLICIES = {
    "random": (bidding.RANDOM, "uniform over the calls open; koe suit uniform; smous answered 50/50"),
    "heuristic": (bidding.HEURISTIC, "hand-strength score per suit against a threshold by round and seat"),
}
PLAY_POLICIES = {
    "random": (play.RANDOM, "uniform over the legal cards"),
    "heuristic": (play.HEURISTIC, "draw trumps as taker, cash masters, load the partner, win cheaply, throw cheap"),
}


@dataclass(frozen=True)
class Policies:
    """Each seat's bidding and play policy (names), plus the heuristic's bid parameters."""

    bid: tuple[str, ...]
    play: tuple[str, ...]

    @classmethod
    def parse(cls, bid: str, play_: str, players: int) -> "Policies":
        return cls(_per_seat(bid, players, BID_POLICIES, "--bid", files=True),
                   _per_seat(play_, players, PLAY_POLICIES, "--play"))

    def codes(self):
        b = np.array([BID_POLICIES[n][0] if n in BID_POLICIES else bidding.HEURISTIC for n in self.bid], dtype=np.int64)
        p = np.array([PLAY_POLICIES[n][0] for n in self.play], dtype=np.int64)
        return b, p

    def bid_params(self, rules) -> np.ndarray:
        """One parameter row per seat: the heuristic's defaults, or the rows of the seat's
        calibrated policy / policy file (checked against ``rules``: a mismatch is refused)."""
        from analyzer.players.policy_files import policy_params

        rows = np.tile(bidding.default_bid_params(rules.variant, rules.players), (rules.players, 1))
        loaded = {}
        for s, name in enumerate(self.bid):
            if name not in BID_POLICIES:
                if name not in loaded:
                    loaded[name] = policy_params(name, rules)
                rows[s] = loaded[name][s]
        return rows

    def describe(self) -> dict:
        """As written in deal logs and reports: one name, or a name per seat."""
        def one(names):
            return names[0] if len(set(names)) == 1 else {str(s): n for s, n in enumerate(names)}
        return {"bid": one(self.bid), "play": one(self.play)}


def _is_policy_file(name: str) -> bool:
    return name.endswith(".json") or "/" in name


def _per_seat(spec: str, players: int, registry: dict, flag: str, files: bool = False) -> tuple[str, ...]:
    """``heuristic`` for every seat, or ``0=heuristic,1=random`` (unnamed seats: heuristic).
    With ``files`` (bidding): ``calibrated`` and policy file paths are names too."""
    spec = spec.strip()
    names = list(registry) + ([CALIBRATED, "FILE.json"] if files else [])

    def known(name):
        return name in registry or (files and (name == CALIBRATED or _is_policy_file(name)))

    if "=" not in spec:
        if not known(spec):
            raise BeloteError(f'unknown policy "{spec}" for {flag}: use one of {", ".join(names)}')
        return (spec,) * players
    seats = ["heuristic"] * players
    named = set()
    for part in spec.split(","):
        seat, sep, name = part.partition("=")
        if not sep or not seat.strip().isdigit():
            raise BeloteError(f'{flag} "{part}" must be SEAT=POLICY, e.g. {flag} 0=heuristic,1=random')
        s = int(seat)
        if not 0 <= s < players:
            raise BeloteError(f"{flag}: seat {s} does not exist with {players} players: seats are 0..{players - 1}")
        if not known(name.strip()):
            raise BeloteError(f'unknown policy "{name.strip()}" for {flag}: use one of {", ".join(names)}')
        if s in named:
            raise BeloteError(f"{flag} names seat {s} twice: give each seat one policy, e.g. {flag} 0=heuristic,1=random")
        named.add(s)
        seats[s] = name.strip()
    return tuple(seats)


SEARCH_PLAY = ("dd", "pimc")  # play policies that search (milliseconds a hand, not microseconds)


def searches(name: str) -> bool:
    """A play policy that searches (its parameters after ``:`` aside): runs size their
    work for it."""
    return name.split(":", 1)[0] in SEARCH_PLAY
