"""The questions a page asks, checked and turned into jobs (``analyzer.web.jobs``).

Each ``*_query`` reads the fields a page posts, checks every one with the CLI's one-line
errors (the same functions check them: ``make_situation``, ``Rules.make``, ``check_record``)
and a bound of its own (deals, sizes), and returns the job's function, so that bad input is
refused before anything runs. The numbers are the CLI's: the same functions, the same
defaults, the same seed; each answer carries the ``belote`` command that reproduces it.
"""

from __future__ import annotations

import json
import re
import shlex
from pathlib import Path

import numpy as np

from analyzer.errors import BeloteError
from analyzer.game.played import PlayRefused, bidding, bids_text, play_out, refusal
from analyzer.game.state import (
    ST_DOWN,
    ST_HANDS,
    ST_TO_MOVE,
    is_over,
    legal_cards,
    play_card,
    state_from_record,
    trick_so_far,
)
from analyzer.output import take_table, words
from analyzer.output.deallog import check_play
from analyzer.players import public_info
from analyzer.players.equity import EQUITY_DIR, equity_table
from analyzer.players.policies import DEFAULT_PLAY, FAST_PLAY, Policies, as_typed, deals_by_policy
from analyzer.players.policy_files import bid_note, default_bid, describe_bid
from analyzer.questions.bracket import BRACKET_PLAYS, STRONG_DEALS, analyse_bracket, default_bidders
from analyzer.questions.review import bot_line, default_worlds, review, start_of, typed_deal_record
from analyzer.questions.take import analyse_take, check_hand_fits, make_situation
from analyzer.questions.take_score import parse_score, regions_line, score_answer, score_text, verdict
from analyzer.rules import Rules
from analyzer.rules.cards import card_language, format_card, format_cards, mask_to_cards, parse_cards, parse_cards_in
from analyzer.rules.deal_schema import check_record
from analyzer.rules.options import option_choices
from analyzer.rules.variants import PLAYER_COUNTS, VARIANT_ROWS, VARIANTS
from analyzer.runs.fmt import ci_pct, ci_rate
from analyzer.runs.limits import SEEDS, SEEDS_TEXT
from analyzer.runs.records import hand_record
from analyzer.runs.simulate import SimConfig
from analyzer.runs.stats import CV_MIN_N

# The most a page may ask for; the CLI has no such bounds (a user's own machine), a server does.
MAX_TAKE_DEALS = 200_000  # paired deals played by net, the default player: about 8 s on 2 threads in classic
# a bracket's searching columns (the registry's web_max_deals)
MAX_STRONG_DEALS = deals_by_policy("web_max_deals")
# the bracket's columns beside the answer's player: the two cheap players (each plays every deal) and the searching
# ones (their own samples)
BRACKET_CHOICES = (FAST_PLAY, DEFAULT_PLAY) + tuple(MAX_STRONG_DEALS)
MAX_RANDOM_DEAL = 100_000  # the deal number of a random deal to review
# What a request, or a deal record pasted into one, may hold: a form nests 3 deep (random: {...},
# bracket: [...]) and a deal record 4; a whole number of a form has at most 20 digits (a seed,
# below 2**64). Deeper or longer is refused in one line before anything recurses into it or
# int() reads it (int() refuses more than 4,300 digits with a ValueError of its own).
MAX_DEPTH = 16
MAX_DIGITS = 30
_WHOLE = re.compile(r"[+-]?[0-9]+")  # ASCII digits only: "²".isdigit() is true and int("²") fails
_MAX_SHOWN = 40  # characters of a refused value quoted in a message


def read_json(data, what: str, fix: str = ""):
    """``data`` (bytes or text) read as JSON; a ``BeloteError`` naming ``what`` (and ``fix``)
    when it is not JSON or nests lists and objects deeper than ``MAX_DEPTH``. A number of more
    than ``MAX_DIGITS`` digits is kept as its digits, for ``_int`` to refuse naming its field.
    json's decoder recurses once a level and raises RecursionError past about 1,000 levels (50,000
    ``[`` fit in a request): caught here; a depth under that is measured without recursion."""
    too_deep = BeloteError(f"{what} nests lists or objects deeper than {MAX_DEPTH} levels" + (f": {fix}" if fix else ""))
    try:
        value = json.loads(data, parse_int=lambda digits: int(digits) if len(digits) <= MAX_DIGITS else digits)
    except RecursionError:
        raise too_deep from None
    except ValueError:  # not JSON, or not UTF-8
        raise BeloteError(f"{what} is not JSON" + (f": {fix}" if fix else "")) from None
    level = [value]
    for _ in range(MAX_DEPTH):
        level = [x for v in level if isinstance(v, (list, dict)) for x in (v.values() if isinstance(v, dict) else v)]
    if any(isinstance(v, (list, dict)) for v in level):
        raise too_deep
    return value


def _shown(v) -> str:
    """A refused value as a message quotes it: a long number by its count of digits, anything else
    its repr cut to ``_MAX_SHOWN`` characters (a request holds up to 128 KB of it)."""
    if isinstance(v, str) and _WHOLE.fullmatch(v.strip()) and len(v.strip().lstrip("+-")) > MAX_DIGITS:
        return f"a number of {len(v.strip().lstrip('+-')):,} digits"
    text = repr(v)
    return text if len(text) <= _MAX_SHOWN else text[:_MAX_SHOWN - 3] + "..."


def _int(form: dict, key: str, lo: int, hi: int, default: int | None = None, name: str | None = None,
         bounds: str | None = None) -> int:
    """A whole number from ``lo`` to ``hi`` (a number or its digits, at most ``MAX_DIGITS`` of
    them); ``bounds`` names them in the error."""
    v = form.get(key, default)
    name = name or key
    if isinstance(v, str) and _WHOLE.fullmatch(v.strip()) and len(v.strip().lstrip("+-")) <= MAX_DIGITS:
        v = int(v.strip())
    if isinstance(v, bool) or not isinstance(v, int) or not lo <= v <= hi:
        raise BeloteError(f"{name} must be {bounds or f'a whole number from {lo:,} to {hi:,}'}, not {_shown(v)}")
    return v


def _text(form: dict, key: str, required: bool = False, limit: int = 200) -> str | None:
    v = form.get(key)
    if v is None or (isinstance(v, str) and not v.strip()):
        if required:
            raise BeloteError(f"{key} is missing")
        return None
    if not isinstance(v, str) or len(v) > limit:
        raise BeloteError(f"{key} must be text of at most {limit} characters")
    return v.strip()


def _seed(form: dict) -> int:
    return _int(form, "seed", 0, SEEDS - 1, 1, bounds=SEEDS_TEXT)


def _rules(form: dict, options: bool = False):
    """The rules of a form: ``variant``, ``players`` and (``options``) ``rules``, the house rules as
    ``KEY=VALUE`` words (``--rule``'s), e.g. ``"undertrump=free target=1500"``."""
    variant = form.get("variant", "classic")
    if variant not in VARIANTS:
        shown = variant if isinstance(variant, str) and len(variant) <= _MAX_SHOWN else _shown(variant)
        raise BeloteError(f'unknown variant "{shown}": use one of {", ".join(VARIANTS)}')
    players = form.get("players")
    players = None if players in (None, "") else _int(form, "players", 2, 4)
    counts = PLAYER_COUNTS[variant]
    if len(counts) > 1 and players is None:
        raise BeloteError(f"{variant}: give the number of players, {', '.join(map(str, counts[:-1]))} or {counts[-1]}")
    extra = (_text(form, "rules") or "").replace(",", " ").split() if options else []
    rule = form.get("rule") if options else None
    if rule is not None:  # the CLI's --rule, repeated: a list of KEY=VALUE (a page's link: rule=undertrump=free)
        if isinstance(rule, str):
            rule = [rule]
        if not isinstance(rule, list) or len(rule) > 16 or not all(isinstance(x, str) and len(x) <= 40 for x in rule):
            raise BeloteError(f"rule must list KEY=VALUE words (as --rule), not {_shown(rule)}")
        extra += [x for x in rule if x.strip()]
    return Rules.make(variant, players if len(counts) > 1 else None, extra)


def _english(text: str | None, lang: str) -> str | None:
    if text is None or lang == "en":
        return text

    return format_cards(parse_cards(text, lang))


# ---- should I take? ---------------------------------------------------------------------


def take_query(form: dict):
    """The take page's question: ``{variant, players, rules, hand | mine + theirs, turned, seat, round,
    score, deals, seed, bracket: [net, pimc, dd], pimc_deals, dd_deals}`` → the job's function. The bidders are
    the command line's default (``policy_files.default_bid``: the calibrated ones, or the heuristic
    where house rules leave the shipped policy out, said in the answer). ``score``: the score at the
    table (``take --score``'s: classic ours-theirs, otherwise every seat's total, voorhand first),
    checked with the variant's game-equity table before anything runs; the answer then carries each
    call's chance to win the game (``game_view``)."""
    rules = _rules(form, options=True)
    hand, turned = _text(form, "hand"), _text(form, "turned", required=True)
    mine, theirs = _text(form, "mine"), _text(form, "theirs")
    lang = card_language(" ".join(t for t in (hand, turned, mine, theirs) if t))
    hand, turned, mine, theirs = (_english(t, lang) for t in (hand, turned, mine, theirs))
    check_hand_fits(rules.variant, rules.players, hand)
    seat = _int(form, "seat", 0, rules.players - 1, 0)
    round_ = _int(form, "round", 1, 2, 1)
    make_situation(rules, hand, turned, seat, round_, mine, theirs)  # every card checked, before the job
    at_score, table = score_inputs(form, rules, seat)
    deals = _int(form, "deals", 1, MAX_TAKE_DEALS, 100_000)
    seed = _seed(form)
    bracket = form.get("bracket") or []
    if not isinstance(bracket, list) or not all(isinstance(p, str) and p in BRACKET_CHOICES for p in bracket):
        raise BeloteError(f"bracket must list some of {', '.join(BRACKET_CHOICES)}, not {_shown(bracket)}")

    play = form.get("play") or default_play()
    if play not in PLAY_CHOICES:
        raise BeloteError(f"play must be one of {', '.join(PLAY_CHOICES)}, not {_shown(play)}")
    plays = tuple(p for p in BRACKET_PLAYS if p == play or p in bracket)  # the answer's player among them, weakest first
    strong = {p: _int(form, f"{p}_deals", CV_MIN_N, MAX_STRONG_DEALS[p], STRONG_DEALS[p]) for p in plays
              if p in MAX_STRONG_DEALS}
    bid = default_bid(rules, play)
    note = bid_note(rules, None, play)
    pols = Policies.parse(bid, play, rules.players)
    bidders = default_bidders(plays)  # belote take --bracket's: net's where net is a column
    bracket_bid = default_bid(rules, bidders)

    def work(job):
        r = analyse_take(rules, hand, turned, seat, round_, mine=mine, theirs=theirs, deals=deals, seed=seed,
                         policies=pols, progress=lambda done: job.step(play, done, deals),
                         keep_scores=at_score is not None)
        game = None
        if at_score is not None:
            game = score_answer(r, at_score, table)
        job.publish("take", take_view(r, deals, seed, note, play, game))
        if len(plays) > 1:
            known = {play: r} if bidders == play else {}  # the answer is a column where it bid as the bracket does
            b = analyse_bracket(rules, hand, turned, seat, round_, mine=mine, theirs=theirs, plays=plays,
                                deals=deals, strong_deals=strong, seed=seed, bid=bracket_bid, known=known,
                                progress=lambda play, done, total: job.step(play, done, total))
            job.publish("bracket", bracket_view(b, r, deals, seed, strong))

    return work


PLAY_CHOICES = (FAST_PLAY, DEFAULT_PLAY)  # the play policies a take page offers: each plays every deal, in seconds


def default_play() -> str:
    """The play policy of ``belote take`` when ``--play`` is not given (``players.policies.DEFAULT_PLAY``, the
    one place every question reads it from), so the page follows the command line."""
    return DEFAULT_PLAY


MAX_SCORE_TEXT = 40  # characters of a score ("120-300-80-40" is 13)


def score_inputs(form: dict, rules, seat: int) -> tuple:
    """The ``score`` of a take form checked as ``take --score`` checks it (``take_score.parse_score``),
    and the variant's shipped game-equity table: (totals, table), or (None, None) without a score.
    A table missing or built for other rules is refused in its one line, the server's folder named
    as the package's (a page names no path of the server)."""
    text = _text(form, "score", limit=MAX_SCORE_TEXT)
    if text is None:
        return None, None

    totals = parse_score(text, rules, seat)
    try:
        table = equity_table(rules)
    except BeloteError as e:
        raise BeloteError(str(e).replace(str(EQUITY_DIR), "analyzer/players/equity_data")) from None
    return totals, table


def game_view(r, ans) -> dict:
    """The take page's block of ``take --score``: the ``--json`` object's ``game`` (``ScoreAnswer.as_dict``),
    the score as typed (``at``: classic ours first) and the target, each call's chance to win the game
    as the command line writes it (``chances``: ``92.8% [92.7, 92.8]``); ``words``, in each language,
    the verdict by the chance to win, where it changes with the score, and the source of the
    chances (``analyzer.questions.take_score``; the calls named as the page's table names them)."""
    s = r.situation

    def in_words(lang):
        def describe(i):
            return words.call_text(r.calls[i].call.label, lang)

        return {"verdict": verdict(ans, describe, lang), "regions": regions_line(ans, describe, lang),
                "table": ans.table_note[lang]}

    return {**ans.as_dict(), "at": score_text(ans.totals, s.rules, s.seat), "target": s.rules.target,
            "chances": [ci_pct(w.mean, w.lo, w.hi) for w in ans.win],
            "words": {lang: in_words(lang) for lang in words.LANGS}}


def take_view(r, deals: int, seed: int, note: str = "", play: str = "heuristic", game=None) -> dict:
    """The take page's table: the CLI's rows and cells (``take_table``), the verdict, the command,
    and the CLI's ``--json`` object (``json``) the numbers come from; ``words``, in each language,
    the verdict, its reason, who bids and plays, the calls and the rows as a player says them
    (``analyzer.output.words``). ``game``: the ``ScoreAnswer`` of a score (``game_view``; the command
    and the JSON then carry ``--score``, ``game`` and the objective ``win``, as ``take --score``'s)."""
    s = r.situation
    conditioned = s.seat > 0 or s.round == 2
    d = r.as_dict()
    command = take_table.command(r, deals, seed)  # --play when not the default
    if game is not None:
        d["game"] = game.as_dict()
        d["inputs"]["objective"] = "win"
        command += f" --score {shlex.quote(score_text(game.totals, s.rules, s.seat))}"
    rows = take_table.rows(r)
    attrs = {c.name: c.attr for c in take_table.COLUMNS}
    acc = r.acceptance

    def in_words(lang):
        return {"verdict": words.verdict(d, lang), "reason": words.reason(d, lang), "who": words.who_plays(d, lang),
                "calls": [words.call_text(c.call.label, lang) for c in r.calls],
                "title": words.situation_text(d["inputs"], lang),
                "acceptance": words.PAGE[lang]["acceptance"].format(
                    rate=f"{words.percent(acc.p, lang)} [{words.percent(acc.lo, lang)}, {words.percent(acc.hi, lang)}]",
                    n=words.number(acc.n, lang, 0)) if conditioned else None,
                "note": note and words.bid_note_text(note, lang)}

    return {
        "title": take_table.situation_text(s), "n": r.n, "seed": seed,
        "calls": [c.call.label for c in r.calls],
        "rows": [[name, [take_table.cell(v) for v in vals]] for name, vals in rows],
        "keys": [attrs[name] for name, _ in rows],
        "share": take_table.SHARE_SENTENCE,
        "acceptance": (f"Earlier seats all passed in {ci_rate(r.acceptance)} of {r.acceptance.n:,} sampled deals "
                       f"(rejection sampling under the bidding policy)") if conditioned else None,
        "verdict": r.verdict(), "best": r.best.call.label,
        "bidders": describe_bid(r.policies, s.rules) + (f" ({note})" if note else ""),
        "rules": {k: v for k, v in s.rules.options().items() if v != Rules.from_label(s.rules.label).options().get(k)},
        "hands": r.hands, "seconds": round(r.seconds, 2), "play": play,
        "command": command,
        "words": {lang: in_words(lang) for lang in words.LANGS},
        "game": None if game is None else game_view(r, game),
        "json": d,
    }


def bracket_view(b, r, deals: int, seed: int, strong: dict) -> dict:
    """The bracket under the table: one column per play policy (an adjusted one followed by its
    plain numbers), the rows of ``take --bracket``, each policy's verdict and the bracket's."""
    plays = ",".join(b.plays)  # --bracket sets the players: the answer's --play is not repeated
    sizes = ",".join(f"{p}={n}" for p, n in strong.items())
    bd = b.as_dict()
    rows = take_table.bracket_rows(b)
    attrs = {c.name: c.attr for c in take_table.COLUMNS}

    def in_words(lang):
        return {"verdict": words.bracket_verdict(bd, lang),
                "verdicts": [[p, words.verdict(x, lang)] for p, x in zip(b.plays, bd["results"])],
                "heads": [words.bracket_head(head, lang) for head, _ in b.columns()],
                "calls": [words.call_text(label, lang) if label else "" for label, _, _ in rows]}

    return {
        "columns": [{"head": head, "n": x.n} for head, x in b.columns()],
        "rows": [[label, name, [take_table.cell(v) for v in cells]] for label, name, cells in rows],
        "keys": [attrs[name] for _, name, _ in rows],
        "words": {lang: in_words(lang) for lang in words.LANGS},
        "verdicts": [[p, x.verdict()] for p, x in zip(b.plays, b.results)],
        "notes": take_table.control_notes(b),
        "verdict": b.verdict(),
        "command": take_table.command(r, deals, seed).replace(f" --play {as_typed(r.policies.describe()['play'])}", "")
                   + f" --bracket --bracket-plays {plays}" + (f" --bracket-deals {sizes}" if sizes else ""),
        "json": b.as_dict(),
    }


# ---- review ---------------------------------------------------------------------------------

REVIEW_PIMC = "pimc:infer=bids"  # belote review's default


def review_query(form: dict, logs: list) -> tuple:
    """The review page's deal (and ``worlds``: belote review's --worlds, its default when absent):
    ``{typed: {variant, players, rule, hands, trump, taker, plays, turned, bids}}``
    (a deal entered by hand, docs/NOTATION.md), ``{record: "<one belote-deal/1 line>"}``, ``{log: i,
    deal: n}`` (a log given to ``belote serve --log``, by its number: a page never names a file) or
    ``{random: {variant, players, seed, deal}}`` → the job's function."""
    pimc = form.get("pimc", REVIEW_PIMC)
    if pimc not in (REVIEW_PIMC, "pimc", None, "none"):
        raise BeloteError(f'pimc must be "{REVIEW_PIMC}", "pimc" or "none", not {_shown(pimc)}')
    pimc = None if pimc in (None, "none") else pimc
    flag = "" if pimc == REVIEW_PIMC else f" --pimc {pimc or 'none'}"
    worlds = None if form.get("worlds") in (None, "") else _int(form, "worlds", 0, 255)  # None: the CLI's default
    if worlds is not None:
        flag += f" --worlds {worlds}"
    fetch = review_deal(form, logs, flag)

    def work(job):
        deal, rules, public, how, note = fetch()
        named = rules if rules is not None else check_record(deal, "the deal")
        r = review(deal, pimc=pimc, public=public, rules=rules,
                   progress=lambda done, total: job.step("review", done, total),
                   worlds=default_worlds(named) if worlds is None else worlds)
        job.publish("review", review_view(r, deal, how, note))

    return work


def review_deal(form: dict, logs: list, flag: str = ""):
    """The deal a review request names (``review_query``'s sources), checked now → a function that
    gives ``(record, rules, public, command, note)``: ``rules`` and ``public`` those of a typed deal
    (None: the record's own), a random deal dealt when it is called (a kernel call: in the job)."""
    chosen = [k for k in ("typed", "record", "log", "random") if form.get(k) is not None]
    if len(chosen) != 1:
        raise BeloteError("give one deal to review: your own, a pasted record, a deal of a log, or a random deal")
    rules = public = None
    if chosen == ["typed"]:
        rules, record, command = typed_inputs(form["typed"])
        if not record["tricks"]:
            raise BeloteError("no card is played yet: play the cards in the order they fell, then review")
        command += flag

        public = public_info(rules)  # as belote review --hands: the cards alone, no bidding
    elif chosen == ["record"]:
        text = form["record"]
        if not isinstance(text, str) or len(text) > 64_000:
            raise BeloteError("record must be one belote-deal/1 line of at most 64,000 characters")
        record = read_json(text, "the pasted record", "paste one line of a deal log (belote simulate --log)")
        check_record(record, "the pasted record", "paste one line of a deal log (belote simulate --log)")
        check_play(record, "the pasted record")  # replayed through the reference, as belote review does
        command = f"belote review DEAL.jsonl{flag}  # DEAL.jsonl: the pasted line"
    elif chosen == ["log"]:
        i = _int(form, "log", 0, max(len(logs) - 1, 0), name="log")
        if not logs:
            raise BeloteError("no deal log was given to belote serve: start it with --log FILE")
        path, records = logs[i]
        n = _int(form, "deal", 0, 2**63 - 1, name="deal")
        found = [r for r in records if r.get("deal") == n]
        if not found:
            raise BeloteError(f"deal {n} is not in {path.name}")
        record = found[0]
        check_play(record, path.name)  # read at start against the schema; its play checked now
        command = f"belote review {shlex.quote(str(path))} --deal {n}{flag}"
    else:
        random_rules, seed, first = random_inputs(form["random"])  # checked now, dealt in the job (a kernel call)
        record = None
    if record is not None and record.get("outcome") != "played":
        raise BeloteError(f"deal {record.get('deal')} was not played ({record.get('outcome')}): nothing to review")

    def fetch():
        if record is not None:
            return record, rules, public, command, None
        deal, how, note = random_record(random_rules, seed, first, flag)
        return deal, rules, public, how, note

    return fetch


BOTS = ("net", "heuristic", "pimc")  # the bots the review page lets play on (dd: seconds a classic deal)


def bot_view(form: dict, logs: list) -> dict:
    """The review page's bot beside you: ``{<the review's deal>, bot, from}`` (``from``: the card, 1 the
    first, from which ``bot`` plays every seat) → the bot's cards and the finished deal's result in
    each language beside the deal's own, and the ``belote review --bot`` command."""
    bot = form.get("bot", "net")
    if bot not in BOTS:
        raise BeloteError(f"bot must be one of {', '.join(BOTS)}, not {_shown(bot)}")
    k = _int(form, "from", 1, 10_000, name="from")
    deal, rules, public, how, _ = review_deal(form, logs, f" --bot {bot} --bot-from {k}")()
    rules = rules if rules is not None else check_record(deal, "the deal")
    line = bot_line(deal, k - 1, bot, public=public, rules=rules)
    own = play_out(deal, rules)
    return {"bot": line, "command": how, "lines": {
        lang: {"bot": words.result_lines({**deal, **line["played"]}, rules, lang),
               "played": words.result_lines({**deal, **own}, rules, lang),
               "reason": words.net_reason_text(line["reason"], lang) if line["reason"] else None}
        for lang in words.LANGS}}


def random_inputs(form) -> tuple:
    """A random deal's fields ``{variant, players, seed, deal}`` checked: (rules, seed, deal)."""
    if not isinstance(form, dict):
        raise BeloteError("random must be {variant, players, seed, deal}")
    return _rules(form), _seed(form), _int(form, "deal", 0, MAX_RANDOM_DEAL, 0, name="deal")


def random_record(rules, seed: int, first: int, flag: str = "") -> tuple[dict, str, dict | None]:
    """Deal ``first`` of ``belote simulate --seed SEED`` (heuristic bidding and play), or the first
    played one after it, the commands that log and review it, and (when deal ``first`` was not
    played) a note saying so: ``{asked, deal, why}``."""
    pols = Policies.parse("heuristic", "heuristic", rules.players)
    skipped = None
    for d in range(first, first + 64):  # a passed-out deal is skipped: about one in four in classic
        cfg = SimConfig(rules=rules, policies=pols, deals=d + 1, seed=seed)
        record = hand_record(cfg, d)
        if record.get("outcome") == "played":
            break
        skipped = skipped or record.get("outcome")
    else:
        raise BeloteError(f"no played deal among deals {first}..{first + 63} of seed {seed}")
    args = ["belote", "simulate", "--variant", rules.variant]
    if len(PLAYER_COUNTS[rules.variant]) > 1:
        args += ["--players", str(rules.players)]
    args += ["--seed", str(seed), "--deals", str(d + 1), "--log", "deal.jsonl", "--log-deals", str(d + 1), "-q"]
    note = None if skipped is None else {"asked": first, "deal": d, "why": skipped}
    return record, f"{shlex.join(args)} && belote review deal.jsonl --deal {d}{flag}", note


# the direction of play (RULES.md §2; the seeds: Piekjas "kloksgewijs", classic "tegen de klok in"); the
# pages draw the seats so; two players have none
DIRECTION = {"classic": "counter", "piekjas": "clockwise", "dekjas": None}


def review_view(r, record: dict, command: str, note: dict | None = None) -> dict:
    """The review page's deal: the CLI's ``--json`` object (``json``: its ``played`` tells the tricks,
    roem, stuk and result), the cards each seat holds at the first trick (every card open: a review
    sees them all; Dekjas: its piles too), the players and sides, the bidding and turned card when
    known, the command; ``story``, in each language, the deal as a player tells it."""
    st, rules = state_from_record(record)
    start = [[format_card(c) for c in mask_to_cards(int(np.int64(st[ST_HANDS + s]) | np.int64(st[ST_DOWN + s])))]
             for s in range(rules.players)]
    d = r.as_dict()
    return {"json": d, "start": start, "players": rules.players, "partners": bool(rules.partners),
            "deal": record.get("deal"), "variant": rules.label, "bids": record.get("bids", []),
            "turned": record.get("turned"), "koe": record.get("koe"), "piles": record.get("piles"),
            "result": d["played"]["result"], "command": command, "note": note,
            "direction": DIRECTION[rules.variant],
            "story": {lang: story_words(record, rules, d["played"], lang, note) for lang in words.LANGS}}


def story_words(record: dict, rules, played: dict, lang: str, note: dict | None = None) -> dict:
    """A deal as a player tells it (``analyzer.output.words``): the headline, each seat's name, the
    bidding call by call, the turned card, each completed trick (winner, points), the roem and stuk
    with the trick they are said in, and the result once the deal is over."""
    n = rules.players
    trump = words.SUIT_SIGNS[record["trump"]]
    taker = words.seat_text(record["troefmaker"], n, lang) + (words.PAGE[lang]["koe_mark"] if record.get("koe")
                                                                 else "")
    deal = record.get("deal")
    ui = words.PAGE[lang]
    announce = [{"trick": d["trick"], "text": words.declaration_text(d, n, lang)} for d in played["declarations"]]
    if played["stuk"]:
        for k, t in enumerate(played["stuk_tricks"]):
            announce.append({"trick": t, "text": words.stuk_text(played["stuk"], n, k == 1, lang)})
    why = {"passed_out": "everyone passed twice" if lang == "en" else "iedereen paste twee keer",
           "redeal": "a new deal after a smous" if lang == "en" else "opnieuw delen na een smous"}
    return {
        "headline": ui["headline" if deal is not None else "headline_own"].format(
            deal=deal, variant=words.label_text(rules.label, lang), trump=trump, taker=taker),
        "seats": [words.seat_text(s, n, lang) + (f" · {words.partner_text(s, n, lang)}" if rules.partners else "")
                  for s in range(n)],
        "bids": [words.bid_text(b, n, lang) for b in record.get("bids") or []],
        "turned": words.card_text(record["turned"], lang) if record.get("turned") else None,
        "tricks": [words.trick_text(t, tr, n, lang) for t, tr in enumerate(played["tricks"])],
        "announce": sorted(announce, key=lambda a: a["trick"]),
        "result": words.result_lines(dict(record, **played), rules, lang) if played["result"] else [],
        "note": None if note is None else ui["note_skipped"].format(asked=note["asked"], deal=note["deal"],
                                                                    why=why.get(note["why"], note["why"])),
    }


def options_view() -> dict:
    """What the pages offer, from the code that decides it: each variant's row (players, cards,
    tricks, piles, partners, calls, the direction of play), its house rules (each option's values,
    the default first, and the target), the play policies and the command line's default, the
    bracket's policies and their deals."""
    rows = {}
    for label, row in VARIANT_ROWS.items():
        rows[label] = {"family": row.family, "players": row.players, "first_deal": row.first_deal,
                       "tricks": row.tricks, "partners": row.partners, "piles": row.piles, "smous": row.smous,
                       "koe": row.koe, "taker_gets_turned": row.taker_gets_turned, "fille": row.fille,
                       "direction": DIRECTION[row.family], "target": row.target,
                       "rules": {k: list(v) for k, v in option_choices(row.family, row.players).items()}}
    return {"variants": rows, "player_counts": {v: list(c) for v, c in PLAYER_COUNTS.items()},
            "play": list(PLAY_CHOICES), "default_play": default_play(), "bracket": list(BRACKET_CHOICES),
            "strong_deals": {p: STRONG_DEALS[p] for p in MAX_STRONG_DEALS}, "max_strong_deals": MAX_STRONG_DEALS,
            "max_take_deals": MAX_TAKE_DEALS, "review_pimc": REVIEW_PIMC}


# ---- a deal entered by hand -------------------------------------------------------------------------

MAX_TYPED = 1_000  # characters of a typed field (a deal's hands are about 250)


def typed_inputs(form) -> tuple:
    """A deal entered by hand, ``{variant, players, rule, hands, trump, taker, plays, turned, bids}``
    (docs/NOTATION.md; ``bids``: the calls in order, ``pass take:h ...``, which decide the trump and
    the troefmaker when these are not given), checked with the command line's one-line errors →
    (rules, the record ``review`` reads, the ``belote review`` command that reviews the same deal)."""
    if not isinstance(form, dict):
        raise BeloteError("typed must be {variant, players, rule, hands, trump, taker, plays, turned, bids}")
    rules = _rules(form, options=True)
    hands = _text(form, "hands", required=True, limit=MAX_TYPED)
    plays = _text(form, "plays", limit=MAX_TYPED) or ""
    turned, bids = _text(form, "turned", limit=8), _text(form, "bids", limit=MAX_TYPED)
    trump, taker = _text(form, "trump", limit=8), form.get("taker")
    if not bids:
        taker = _int({} if taker in (None, "") else {"taker": taker}, "taker", 0, rules.players - 1, 0)
    try:
        record = typed_deal_record(rules, hands, trump, taker, plays, turned, bids)
    except PlayRefused as e:
        raise BeloteError("--plays: " + words.refusal_text(e.why, e.facts, e.k, piles=e.piles, notation=True)) from None
    return rules, record, typed_command(rules, record)


def typed_command(rules, record: dict) -> str:
    """``belote review --hands ...`` for a typed record (its cards in the English notation; its bidding,
    where given, with --turned and --bids instead of --trump and --taker)."""
    args = ["belote", "review"]
    if rules.variant != "classic":
        args += ["--variant", rules.variant]
        if len(PLAYER_COUNTS[rules.variant]) > 1:
            args += ["--players", str(rules.players)]

    defaults = Rules.from_label(rules.label).options()
    for key, value in rules.options().items():
        if defaults.get(key) != value:
            args += ["--rule", f"{key}={value}"]
    if rules.piles:
        hands = " / ".join(" ".join(f"{up}:{down}" for down, up in seat) for seat in record["piles"])
    else:
        hands = " / ".join(" ".join(h) for h in record["start_hands"])
    if record.get("bids"):  # the bidding decides the trump and the troefmaker
        args += ["--hands", hands, "--turned", record["turned"], "--bids", bids_text(record["bids"])]
    else:
        args += ["--hands", hands, "--trump", record["trump"], "--taker", str(record["troefmaker"])]
        if record.get("turned"):
            args += ["--turned", record["turned"]]
    plays = " ".join(c for t in record["tricks"] for _, c in t["plays"])
    if plays:
        args += ["--plays", plays]
    return shlex.join(args)


def deal_view(form: dict) -> dict:
    """The editor's deal so far (``typed_inputs``' fields; every one optional but the hands, the
    plays up to the card just clicked): the bidding as far as it goes (``bidding``: the calls open
    next), and, once trump and troefmaker are known, the play: each completed trick with its winner
    and points, the trick on the table, the cards each seat holds (Dekjas: face up, and face down),
    the seat to play and its legal cards. A card that may not be played is refused (``refused``: the
    command line's line in English, and in each language's words) and the deal is the one before it."""
    if not isinstance(form, dict):
        raise BeloteError("the deal must be a JSON object")
    out: dict = {}
    rules = _rules(form, options=True)
    bids, turned_text = _text(form, "bids", limit=MAX_TYPED), _text(form, "turned", limit=8)
    if turned_text:
        told = bidding(rules, parse_cards_in(turned_text)[0], bids or "")
        out["bidding"] = told
        if "next" in told or told["outcome"] != "played":
            return out
    plays = (_text(form, "plays", limit=MAX_TYPED) or "").replace(",", " ").split()
    base = dict(form, plays="")
    rules, record, command = typed_inputs(base)
    st, _ = start_of(record, rules)
    rec = rules.record()
    done = []
    for k, token in enumerate(plays):
        card = parse_cards_in(token)[0]
        refused = refusal(st, rules, card)
        if refused is not None:
            out["refused"] = {"en": words.refusal_text(*refused, k + 1, piles=rules.piles, notation=True),
                              "words": {lang: words.refusal_text(*refused, k + 1, lang, piles=rules.piles)
                                        for lang in words.LANGS}, "card": format_card(card)}
            break
        play_card(st, rec, card)
        done.append(format_card(card))
    record = typed_inputs(dict(form, plays=" ".join(done)))[1]
    played = play_out(record, rules)
    seats = range(rules.players)
    out.update({
        "plays": done, "tricks": played["tricks"], "trick": [[s, format_card(c)] for s, c in trick_so_far(st, rules)],
        "held": [[format_card(c) for c in mask_to_cards(int(np.int64(st[ST_HANDS + s])))] for s in seats],
        "down": [[format_card(c) for c in mask_to_cards(int(np.int64(st[ST_DOWN + s])))] for s in seats],
        "over": bool(is_over(st, rec)), "trump": record["trump"], "taker": record["troefmaker"],
        "command": typed_command(rules, record),
    })
    if not out["over"]:
        out["to_move"] = int(st[ST_TO_MOVE])
        out["legal"] = [format_card(c) for c in mask_to_cards(int(legal_cards(st, rec)))]
    out["story"] = {lang: story_words(record, rules, played, lang) for lang in words.LANGS}
    return out


# ---- reports --------------------------------------------------------------------------------


def report_list(folder) -> list[dict]:
    """The reports under ``folder`` (each a folder with its ``index.html``), newest first."""
    folder = Path(folder)
    if not folder.is_dir():
        return []
    out = []
    for d in folder.iterdir():
        page = d / "index.html"
        if d.is_dir() and not d.is_symlink() and page.is_file() and not page.is_symlink():
            out.append({"name": d.name, "url": f"/report/{d.name}/index.html", "modified": page.stat().st_mtime})
    return sorted(out, key=lambda x: -x["modified"])


__all__ = ["read_json", "MAX_DEPTH", "MAX_DIGITS", "take_query", "review_query", "review_deal", "bot_view", "BOTS",
           "random_inputs", "random_record",
           "take_view", "game_view", "score_inputs",
           "bracket_view", "review_view", "story_words", "typed_inputs", "typed_command", "deal_view",
           "options_view", "default_play", "report_list", "DIRECTION", "PLAY_CHOICES"]
