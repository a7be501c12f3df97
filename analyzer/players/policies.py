"""The policy registry: the one place that names the bidding and play policies.

To add a policy: write its branch in ``analyzer.players.bidding.choose_bid`` (and
``choose_koe_suit``, ``answer_smous``) or ``analyzer.players.play.choose_card`` (a policy on the
seat's view) or ``analyzer.players.strong.policy_card`` (one on the game state) under a new code,
then add its row here (``PLAY_REGISTRY``: its parameters, what it reads, its default samples in
the brackets and their bounds on the web page). Names are what the command line and the reports use.

Besides the registry's bidding policies, a seat may bid with ``calibrated`` (the policy
shipped for the run's variant and default rules, ``analyzer.questions.calibrate``) or with a policy
FILE (a path to a ``belote calibrate`` JSON file): both run the heuristic's code with the
file's parameter rows, resolved against the run's rules by ``Policies.bid_params``.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from analyzer.players import bidding, play
from analyzer.players.bidding import BID_POLICIES, CALIBRATED, SCORE_AWARE
from analyzer.players.net_files import LATEST as LATEST_NET, NET_VERSIONS
from analyzer.players.params import DECLARED, SHIFTS
from analyzer.errors import BeloteError



@dataclass(frozen=True)
class PlayPolicy:
    """One play policy, a row of the registry: what it is called, its kernel code, what it reads,
    its parameters and what it costs (the default samples every question gives it)."""

    name: str
    code: int  # its kind (analyzer.players.play): the low byte of a play code, parameters above it
    reads: str  # "view": the seat's own cards, the trick and the cards gone (play.choose_card);
    # "state": the game state and what the seat knows (knowledge.observe), through the searching
    # and learned players' entry (analyzer.players.strong): the kinds from play.FIRST_STATE_KIND on
    searches: bool  # milliseconds a hand, not microseconds: runs size their chunks and samples for it
    meaning: str
    # name -> (bits above the kind byte, lowest, highest, default, meaning)
    params: dict = field(default_factory=dict)
    words: dict = field(default_factory=dict)  # a parameter whose values are words: name -> word of 0, 1, ...
    bracket_deals: int | None = None  # take --bracket / the report: default paired deals (None: every deal)
    table_deals: int | None = None  # table --bracket: default deals (None: every deal)
    web_max_deals: int | None = None  # belote serve: the most a page may ask for (None: as many as the heuristic)
    # hands a second a thread by variant label, for the estimates before a run can measure one
    # (the searching policies; ``_RATES`` says where each figure comes from)
    hands_per_s: dict = field(default_factory=dict)
    not_by_default: tuple = ()  # labels whose brackets leave it out unless it is named (too slow there)


# Hands a second a thread of the searching policies, for the estimates before the bars can measure
# one (``table_bracket.plan``, the report's plan). Classic: measured through ``table --bracket``
# (2026-12-01, commit aaf3f7d, `belote table --bracket --rounds 1 --deals 100000 --bracket-deals 200`,
# 2 threads on this 2-core machine shared with four other sessions, load 5-6: pimc 817 hands in 9.2 s,
# dd 817 in 263 s). Other variants: the per-variant `speed` figures of docs/BENCHMARKS.md (load about
# 2) scaled by the same ratio as classic's (pimc 45/173, dd 1.55/7: about 0.25). Parameters
# (pimc:worlds=64) are not priced: the estimate is the default's. pimc v2 plays 1.8-2.6
# times as many hands a second as the player these were measured on (classic 1.8 and 2.15, piekjas2
# 2.25, piekjas3 1.8, piekjas4 2.6, dekjas 2.05: `simulate` alternately with 70a4cbb in one run,
# 2026-12-03, docs/BENCHMARKS.md), so its rates are doubled (_PIMC_V2). The default of 128 worlds with racing
# plays a hand at these times the cost of 32 worlds without (`belote bench --policy pimc --policy
# pimc:worlds=128:race=20`, alternately, twice, 2026-12-07, docs/BENCHMARKS.md): _PIMC_128.
_LOADED = 0.25
_PIMC_V2 = 2.0
_PIMC_128 = {"classic": 2.23, "piekjas2": 2.08, "piekjas3": 1.66, "piekjas4": 2.42, "dekjas": 1.99}
_RATES = {
    "pimc": {label: rate * _PIMC_V2 / _PIMC_128[label] for label, rate in
             {"classic": 45.0, "piekjas2": 359 * _LOADED, "piekjas3": 218 * _LOADED, "piekjas4": 104 * _LOADED,
              "dekjas": 141 * _LOADED}.items()},
    "dd": {"classic": 1.55, "piekjas2": 212 * _LOADED, "piekjas3": 0.3 * _LOADED, "piekjas4": 0.05 * _LOADED,
           "dekjas": 0.4 * _LOADED},
}


def _at(policy: str, key: str) -> int:
    """The bit where ``policy``'s parameter ``key`` sits in its code (``analyzer.players.params``)."""
    return SHIFTS[policy][key]


FIRST_NET = min(NET_VERSIONS)  # net:v=N: the frozen versions and the latest

PLAY_REGISTRY = (
    PlayPolicy("random", play.RANDOM, "view", False, "uniform over the legal cards"),
    PlayPolicy("heuristic", play.HEURISTIC, "view", False,
               "draw trumps as taker, cash masters, load the partner, win cheaply, throw cheap",
               # v=1: the card play before the taker fixes of v2, kept so that duels can measure them
               params={"v": (_at("heuristic", "v"), 1, 2, 2, "version of the card play: 1 before the taker fixes (heuristic v2), 2 now")}),
    # dd: about 7 classic hands a second a thread (a table deal plays about 5 hands; on a loaded
    # machine ~1.5 a second: about a minute of a table bracket on 2 threads)
    PlayPolicy("dd", play.DD, "state", True,
               "double dummy: a best card with every card visible (the optimistic end of the bracket)",
               bracket_deals=500, table_deals=150, web_max_deals=2_000, hands_per_s=_RATES["dd"],
               # dd from the first trick: 0.3-0.4 hands a second there (docs/BENCHMARKS.md)
               not_by_default=("piekjas3", "piekjas4", "dekjas")),
    # pimc: 4,000 paired deals bring its net gain to about ±4 points once adjusted by the heuristic
    # (classic, docs/BENCHMARKS.md), in about 25 s on 2 threads with 128 worlds
    PlayPolicy("pimc", play.PIMC, "state", True,
               "samples deals of the unseen cards, values each card by play-outs, plays the best on average",
               params={
                   # default 128 with racing at 20: against the heuristic (duplicate, classic, 4,000 deals) worlds=32
                   # gained +14.6 points a deal, 64 +16.8, 96 +17.3, 128 +17.9, 160 +18.2, and 128 with racing at
                   # 20 +18.1 at 2.3-2.6 times the cost of 32 worlds (docs/BENCHMARKS.md, 2026-12-07)
                   "worlds": (_at("pimc", "worlds"), 1, 255, 128, "deals of the unseen cards sampled at each decision (racing "
                                                                 "may stop sooner)"),
                   # default 0: on 1,000 classic deals exact=2 gave the same taker card points (122.4 vs
                   # 122.5, paired, docs/BENCHMARKS.md) at a fifth of the speed
                   "exact": (_at("pimc", "exact"), 0, 16, 0, "tricks left from which the play-outs are double dummy (0: heuristic to "
                                           "the end)"),
                   # v=1 and v=2: the players before, kept so that duels can measure v3 against them
                   "v": (_at("pimc", "v"), 1, 3, 3, "version: 1 values every legal card; 2 values one card of each set of "
                                      "equivalent ones (and can race); 3 is 2 with stuk in its value and the "
                                      "announcement in its worlds"),
                   # racing at 20 by default: with 128 worlds it cost nothing measurable (classic +18.1 against
                   # +17.9 without, the same 4,000 deals) and saves about a third of the work
                   "race": (_at("pimc", "race"), 0, 50, 20, "v2, racing: after 8 worlds, and every 4 after, a card leaves once it "
                                          "trails the leader by this many tenths of a standard error (0: off, every "
                                          "card on every world)"),
                   "infer": (_at("pimc", "infer"), 0, 3, 0, "what the worlds read besides the obligations the play proves: "
                                                          "none; bids (each other seat's calls under its bidding "
                                                          "policy, and the Dix); play (the cards the others chose, "
                                                          "against what the heuristic would have played in each "
                                                          "world); both"),
                   "rollout": (_at("pimc", "rollout"), 0, 1, 0, "who plays the play-outs of each world: the heuristic, "
                                                              "or net (each seat on its own view of the world)"),
               },
               words={"infer": ("none", "bids", "play", "both"), "rollout": ("heuristic", "net")},
               bracket_deals=4_000, table_deals=2_500, web_max_deals=20_000, hands_per_s=_RATES["pimc"]),
    # net: as cheap as a table, so it plays every deal with the heuristic's n
    PlayPolicy("net", play.NET, "state", False,
               "learned: a score over features of each legal card and their pairs, trained on pimc's "
               "evaluation of each card in its own games (analyzer.players.net)",
               # v=2, v=3: the weights before, kept so that duels can measure each against the next
               params={"v": (_at("net", "v"), FIRST_NET, LATEST_NET, LATEST_NET,
                             "version of the weights: 2 trained on heuristic play-outs of heuristic games, 3 the "
                             "decision's features and policy iteration fitted by least squares, 4 the shipped ones "
                             "(a further step, fitted to the choice: analyzer.players.net)")}),
)
PLAY = {p.name: p for p in PLAY_REGISTRY}
# The play policy of every question (take, table, balance, rules, the report, calibrate, the web page) when none
# is named: the strongest player the questions can afford. net plays about as well as pimc in every seat (the same
# 1,000 classic deals: net 121.1 taker card points, pimc 120.7, the heuristic 114.5) at about 50,000 hands a second
# a thread, where pimc plays about 450 (docs/PERFORMANCE.md). The heuristic, some 15 times faster than net, is the
# fast option (--play heuristic); simulate, duel and bench name their players themselves.
DEFAULT_PLAY = "net"
FAST_PLAY = "heuristic"
# the registry's columns, as the rest of the code reads them
PLAY_POLICIES = {p.name: (p.code, p.meaning) for p in PLAY_REGISTRY}
PLAY_PARAMS = {p.name: p.params for p in PLAY_REGISTRY if p.params}
assert {k: set(v) for k, v in PLAY_PARAMS.items()} == {k: set(v) for k, v in DECLARED.items()}, \
    "every parameter the registry describes sits where analyzer.players.params declares it, and no other"
PARAM_WORDS = {(p.name, k): w for p in PLAY_REGISTRY for k, w in p.words.items()}
SEARCH_PLAY = tuple(p.name for p in PLAY_REGISTRY if p.searches)  # play policies that search


def deals_by_policy(column: str) -> dict[str, int]:
    """A deals column of the registry (``bracket_deals``, ``table_deals``, ``web_max_deals``) for
    the policies that have one, the cheapest first (the most deals): ``{"pimc": 4000, "dd": 500}``."""
    given = {p.name: getattr(p, column) for p in PLAY_REGISTRY if getattr(p, column) is not None}
    return dict(sorted(given.items(), key=lambda kv: -kv[1]))

# parameters whose default is packed as 0, so that the policy's plain code stays its kind
# (``heuristic`` is ``play.HEURISTIC``, 1, wherever the version is not named; ``pimc`` keeps its code)
_ZERO_DEFAULT = {("heuristic", "v"), ("pimc", "v"), ("net", "v")}


def _packed(base: str, key: str, value: int) -> int:
    return 0 if (base, key) in _ZERO_DEFAULT and value == PLAY_PARAMS[base][key][3] else value


def _unpacked(base: str, key: str, code: int) -> int:
    bits, _, _, default, _ = PLAY_PARAMS[base][key]
    v = (code >> bits) & 0xFF
    return default if v == 0 and (base, key) in _ZERO_DEFAULT else v


def play_code(name: str) -> int:
    """The int64 code of a play policy with its parameters: ``pimc``, ``pimc:worlds=16``,
    ``pimc:worlds=16:exact=0`` (``,`` between parameters is accepted too when the policy
    is not inside a seat list). The parameters sit above the kind's byte
    (``code & play.KIND_MASK``), each at its bits of ``PLAY_PARAMS``; a parameter not given
    takes its named default."""
    base, _, rest = name.strip().partition(":")
    if base not in PLAY_POLICIES:
        raise BeloteError(f'unknown policy "{base}" for --play: use one of {", ".join(PLAY_POLICIES)}')
    params = PLAY_PARAMS.get(base, {})
    values = {k: v[3] for k, v in params.items()}
    for item in filter(None, (p.strip() for p in rest.replace(",", ":").split(":"))):
        key, sep, value = item.partition("=")
        if not params:
            raise BeloteError(f'--play {base} takes no parameters: use --play {base}')
        if key not in params or not sep:
            use = ", ".join(f"{k}={'|'.join(PARAM_WORDS.get((base, k), ('N',)))}" for k in params)
            raise BeloteError(f'--play {base}: "{item}" is not a parameter: use {use}')
        lo, hi = params[key][1], params[key][2]
        words = PARAM_WORDS.get((base, key))
        if words is not None:
            if value.strip() not in words:
                raise BeloteError(f"--play {base}: {key} must be one of {', '.join(words)}, e.g. {base}:{key}={words[-1]}")
            values[key] = words.index(value.strip())
            continue
        if not value.strip().isdigit() or not lo <= int(value) <= hi:
            raise BeloteError(f"--play {base}: {key} must be a whole number from {lo} to {hi}, e.g. {base}:{key}={params[key][3]}")
        values[key] = int(value)
    code = PLAY_POLICIES[base][0]
    for key, v in values.items():
        code |= _packed(base, key, v) << params[key][0]
    return code


def _word(base: str, key: str, value: int):
    """A parameter's value as written: its word where it has words (``infer=bids``)."""
    words = PARAM_WORDS.get((base, key))
    return value if words is None else words[value]


def _canonical_play(name: str) -> str:
    """``pimc`` with its defaults, else ``pimc:exact=0,worlds=16`` (parameters off their
    default, sorted): the name written in logs and reports."""
    base = name.strip().partition(":")[0]
    code = play_code(name)
    params = PLAY_PARAMS.get(base, {})
    off = [f"{k}={_word(base, k, _unpacked(base, k, code))}" for k, p in sorted(params.items())
           if _unpacked(base, k, code) != p[3]]
    return base + (":" + ",".join(off) if off else "")


def _join_play_params(spec: str) -> str:
    """``0=pimc:worlds=16,exact=1,1=random`` -> ``0=pimc:worlds=16:exact=1,1=random``: a
    comma-separated ``KEY=N`` naming a parameter continues the policy before it."""
    names = {k for p in PLAY_PARAMS.values() for k in p}
    out = []
    for part in spec.split(","):
        if out and ":" in out[-1] and part.partition("=")[0].strip() in names:
            out[-1] += ":" + part.strip()
        else:
            out.append(part.strip())
    return ",".join(out)


ROLES = ("taker", "defence")  # the rows of the kernels' play_pol: the troefmaker's side, the defenders
_ROLE_WORDS = {"taker": 0, "defence": 1, "defense": 1}


@dataclass(frozen=True)
class Policies:
    """Each seat's bidding policy, and its play policy by role (names).

    ``play[0][s]`` is seat s's play policy when its side is the troefmaker's side, ``play[1][s]``
    when it defends (the rows of the kernels' ``play_pol``, ``codes``). The role is known only
    after bidding: the hand resolves one policy per seat from it (``analyzer.runs.hand``).

    ``bid_play``: per seat, the play policy whose shipped ``calibrated`` file the seat bids
    with; ``None`` (the rule): the seat's own play (``seat_plays``). A bracket sets it so that
    every column bids alike while the play differs (``with_bidders_of``)."""

    bid: tuple[str, ...]
    play: tuple[tuple[str, ...], tuple[str, ...]]
    bid_play: tuple[str, ...] | None = None

    @classmethod
    def parse(cls, bid: str, play_: str, players: int) -> "Policies":
        """``--bid``: one name or per seat; ``--play``: one name, per seat (``0=random,1=heuristic``)
        or by role (``taker=random,defence=heuristic``; the role not named plays heuristic)."""
        return cls(_per_seat(bid, players, BID_POLICIES, "--bid", files=True), parse_play(play_, players))

    @classmethod
    def uniform(cls, bid: tuple[str, ...], play: tuple[str, ...]) -> "Policies":
        """Per-seat policies that do not depend on the role."""
        return cls(tuple(bid), (tuple(play), tuple(play)))

    @property
    def by_role(self) -> bool:
        """Whether some seat plays differently as taker and as defender."""
        return self.play[0] != self.play[1]

    @property
    def searching(self) -> bool:
        """A play policy of some seat, in either role, searches (``searches``): runs size
        their chunks, batches and default samples for milliseconds a hand."""
        return any(searches(name) for row in self.play for name in row)

    def seated(self, seats) -> "Policies":
        """The policies with player ``seats[s]``'s at seat s (a game's rotation)."""
        return Policies(tuple(self.bid[p] for p in seats), tuple(tuple(row[p] for p in seats) for row in self.play),
                        None if self.bid_play is None else tuple(self.bid_play[p] for p in seats))

    def with_bidders_of(self, other: "Policies") -> "Policies":
        """These play policies with ``other``'s bidders, calibrated files included (a bracket's
        columns: the same bids, another play)."""
        return Policies(other.bid, self.play, other.seat_plays())

    def codes(self):
        """(bid codes, int64[n]; play codes, int64[2, 4]: row 0 taker's side, row 1 defence)."""
        b = np.array([BID_POLICIES[n][0] if n in BID_POLICIES else bidding.HEURISTIC for n in self.bid], dtype=np.int64)
        p = np.zeros((2, 4), dtype=np.int64)
        for r, row in enumerate(self.play):
            p[r, :len(row)] = [play_code(n) for n in row]
        return b, p

    def bid_params(self, rules) -> np.ndarray:
        """One parameter row per seat: the heuristic's defaults, or the rows of the seat's
        calibrated policy / policy file (checked against ``rules``: a mismatch is refused)."""
        # lazy: the policy files' schema (pydantic) loads only when a seat bids from a file, not for belote --help
        from analyzer.players.policy_files import policy_params

        rows = np.tile(bidding.default_bid_params(rules.variant, rules.players), (rules.players, 1))
        loaded = {}
        for s, (name, seat_play) in enumerate(zip(self.bid, self.seat_plays())):
            if name not in BID_POLICIES:
                if (name, seat_play) not in loaded:
                    loaded[name, seat_play] = policy_params(name, rules, seat_play)
                rows[s] = loaded[name, seat_play][s]
        return rows

    def seat_plays(self) -> tuple[str, ...]:
        """Each seat's play policy where it plays the same in both roles, else ``mixed``:
        which shipped file ``calibrated`` reads for the seat (``policy_files.calibrated_path``),
        unless ``bid_play`` says otherwise."""
        if self.bid_play is not None:
            return self.bid_play
        return tuple(t if t == d else "mixed" for t, d in zip(self.play[0], self.play[1]))

    def describe(self) -> dict:
        """As written in deal logs and reports: one name, or a name per seat; play by role
        (``{"taker": ..., "defence": ...}``) when a seat plays differently in the two roles."""
        def one(names):
            return names[0] if len(set(names)) == 1 else {str(s): n for s, n in enumerate(names)}
        play = {role: one(row) for role, row in zip(ROLES, self.play)} if self.by_role else one(self.play[0])
        return {"bid": one(self.bid), "play": play}

    def label(self) -> str:
        """A short name for tables: ``heuristic/heuristic``, ``calibrated/taker=random,defence=heuristic``."""
        d = self.describe()
        return f"{as_typed(d['bid'])}/{as_typed(d['play'])}"


def as_typed(v) -> str:
    """A described policy as typed: ``heuristic``, ``0=heuristic,1=random``, ``taker=random,defence=(0=...)``."""
    if isinstance(v, str):
        return v
    return ",".join(f"{k}={x}" if isinstance(x, str) else f"{k}=({as_typed(x)})" for k, x in v.items())


def parse_play(spec: str, players: int) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """``--play``: (taker row, defence row), one name per seat each. One name for all;
    ``0=heuristic,1=random`` by seat (unnamed seats: heuristic; the same in both roles);
    ``taker=random,defence=heuristic`` by role (the role not named: heuristic). Seats and
    roles in one spec are refused: which would win for a seat named both ways is not clear."""
    spec = _join_play_params(spec.strip())
    parts = [p for p in spec.split(",")] if "=" in spec.partition(":")[0] else []
    keys = [p.partition("=")[0].strip().lower() for p in parts]
    unknown = [k for p, k in zip(parts, keys) if "=" in p and k not in _ROLE_WORDS and not k.isdigit()]
    if unknown:  # a misspelt role (defender=, tacker=) is named, not taken for a seat
        raise BeloteError(f'--play "{unknown[0]}=" is neither a role nor a seat: the roles are taker and defence '
                          f"(e.g. --play taker=random,defence=heuristic), the seats 0..{players - 1}")
    roles = [k for k in keys if k in _ROLE_WORDS]
    if not roles:
        seats = tuple(_canonical_play(n) for n in _per_seat(spec, players, PLAY_POLICIES, "--play"))
        return seats, seats
    if len(roles) != len(keys):
        raise BeloteError("--play mixes roles and seats: give taker=X,defence=Y or SEAT=X,..., not both "
                          "(e.g. --play taker=random,defence=heuristic)")
    row = ["heuristic", "heuristic"]
    named = set()
    for part, key in zip(parts, keys):
        name = part.partition("=")[2].strip()
        r = _ROLE_WORDS[key]
        if r in named:
            raise BeloteError(f"--play names the {ROLES[r]} twice: give each role one policy, "
                              "e.g. --play taker=random,defence=heuristic")
        if name.partition(":")[0] not in PLAY_POLICIES:
            raise BeloteError(f'unknown policy "{name}" for --play {key}=: use one of {", ".join(PLAY_POLICIES)}')
        named.add(r)
        row[r] = _canonical_play(name)
    return (row[0],) * players, (row[1],) * players


def _is_policy_file(name: str) -> bool:
    return name.endswith(".json") or "/" in name


def _per_seat(spec: str, players: int, registry: dict, flag: str, files: bool = False) -> tuple[str, ...]:
    """``heuristic`` for every seat, or ``0=heuristic,1=random`` (unnamed seats: heuristic).
    With ``files`` (bidding): ``calibrated`` and policy file paths are names too."""
    spec = spec.strip()
    names = list(registry) + ([CALIBRATED, SCORE_AWARE, "FILE.json"] if files else [])

    def known(name):
        if registry is PLAY_POLICIES:
            play_code(name)  # a one-line error for a bad parameter
            return True
        return name in registry or (files and (name in (CALIBRATED, SCORE_AWARE) or _is_policy_file(name)))

    if "=" not in spec.partition(":")[0]:
        if not known(spec):
            raise BeloteError(f'unknown policy "{spec}" for {flag}: use one of {", ".join(names)}')
        return (spec,) * players
    seats = ["heuristic"] * players
    named = set()
    for part in spec.split(","):
        seat, sep, name = part.partition("=")
        if not sep or not seat.strip().isdigit():
            roles = " or taker=POLICY,defence=POLICY" if flag == "--play" else ""
            if flag == "--bid" and seat.strip().lower() in _ROLE_WORDS:
                raise BeloteError("--bid cannot be given by role: the roles are known only after bidding; "
                                  "give one policy or one per seat, e.g. --bid 0=heuristic,1=random")
            raise BeloteError(f'{flag} "{part}" must be SEAT=POLICY{roles}, e.g. {flag} 0=heuristic,1=random')
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



def searches(name: str) -> bool:
    """A play policy that searches (its parameters after ``:`` aside): runs size their
    work for it."""
    return name.split(":", 1)[0] in SEARCH_PLAY
