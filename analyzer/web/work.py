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

from analyzer.errors import BeloteError
from analyzer.players.policies import DEFAULT_PLAY, FAST_PLAY, deals_by_policy
from analyzer.rules.variants import PLAYER_COUNTS, VARIANTS
from analyzer.runs.limits import SEEDS, SEEDS_TEXT

# The most a page may ask for; the CLI has no such bounds (a user's own machine), a server does.
MAX_TAKE_DEALS = 200_000  # paired deals played by net, the default player: about 8 s on 2 threads in classic
# a bracket's searching columns (the registry's web_max_deals)
MAX_STRONG_DEALS = deals_by_policy("web_max_deals")
# the bracket's other columns beside the answer's player (DEFAULT_PLAY): the fast one plays every deal too
BRACKET_CHOICES = (FAST_PLAY,) + tuple(MAX_STRONG_DEALS)
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
    from analyzer.rules import Rules

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
    return Rules.make(variant, players if len(counts) > 1 else None, extra)


def _english(text: str | None, lang: str) -> str | None:
    if text is None or lang == "en":
        return text
    from analyzer.rules.cards import format_cards, parse_cards

    return format_cards(parse_cards(text, lang))


# ---- should I take? ---------------------------------------------------------------------


def take_query(form: dict):
    """The take page's question: ``{variant, players, rules, hand | mine + theirs, turned, seat, round,
    deals, seed, bracket: [net, pimc, dd], pimc_deals, dd_deals}`` → the job's function. The bidders are
    the command line's default (``policy_files.default_bid``: the calibrated ones, or the heuristic
    where house rules leave the shipped policy out, said in the answer)."""
    from analyzer.players.policies import Policies
    from analyzer.players.policy_files import bid_note, default_bid
    from analyzer.questions.take import check_hand_fits, make_situation
    from analyzer.rules.cards import card_language

    rules = _rules(form, options=True)
    hand, turned = _text(form, "hand"), _text(form, "turned", required=True)
    mine, theirs = _text(form, "mine"), _text(form, "theirs")
    lang = card_language(" ".join(t for t in (hand, turned, mine, theirs) if t))
    hand, turned, mine, theirs = (_english(t, lang) for t in (hand, turned, mine, theirs))
    check_hand_fits(rules.variant, rules.players, hand)
    seat = _int(form, "seat", 0, rules.players - 1, 0)
    round_ = _int(form, "round", 1, 2, 1)
    make_situation(rules, hand, turned, seat, round_, mine, theirs)  # every card checked, before the job
    deals = _int(form, "deals", 1, MAX_TAKE_DEALS, 100_000)
    seed = _seed(form)
    bracket = form.get("bracket") or []
    if not isinstance(bracket, list) or not all(isinstance(p, str) and p in BRACKET_CHOICES for p in bracket):
        raise BeloteError(f"bracket must list some of {', '.join(BRACKET_CHOICES)}, not {_shown(bracket)}")
    from analyzer.questions.bracket import BRACKET_PLAYS

    plays = tuple(p for p in BRACKET_PLAYS if p == DEFAULT_PLAY or p in bracket)  # weakest first
    from analyzer.questions.bracket import STRONG_DEALS
    from analyzer.runs.stats import CV_MIN_N

    strong = {p: _int(form, f"{p}_deals", CV_MIN_N, MAX_STRONG_DEALS[p], STRONG_DEALS[p]) for p in plays
              if p in MAX_STRONG_DEALS}
    bid = default_bid(rules, DEFAULT_PLAY)
    note = bid_note(rules, None, DEFAULT_PLAY)
    pols = Policies.parse(bid, DEFAULT_PLAY, rules.players)

    def work(job):
        from analyzer.questions.take import analyse_take

        r = analyse_take(rules, hand, turned, seat, round_, mine=mine, theirs=theirs, deals=deals, seed=seed,
                         policies=pols, progress=lambda done: job.step(DEFAULT_PLAY, done, deals))
        job.publish("take", take_view(r, deals, seed, note))
        if len(plays) > 1:
            from analyzer.questions.bracket import analyse_bracket

            b = analyse_bracket(rules, hand, turned, seat, round_, mine=mine, theirs=theirs, plays=plays,
                                deals=deals, strong_deals=strong, seed=seed, bid=bid, known={DEFAULT_PLAY: r},
                                progress=lambda play, done, total: job.step(play, done, total))
            job.publish("bracket", bracket_view(b, r, deals, seed, strong))

    return work


def take_view(r, deals: int, seed: int, note: str = "") -> dict:
    """The take page's table: the CLI's rows and cells (``take_table``), the verdict, the command,
    and the CLI's ``--json`` object (``json``) the numbers come from."""
    from analyzer.output import take_table
    from analyzer.players.policy_files import describe_bid
    from analyzer.rules import Rules
    from analyzer.runs.fmt import ci_rate

    s = r.situation
    conditioned = s.seat > 0 or s.round == 2
    return {
        "title": take_table.situation_text(s), "n": r.n, "seed": seed,
        "calls": [c.call.label for c in r.calls],
        "rows": [[name, [take_table.cell(v) for v in vals]] for name, vals in take_table.rows(r)],
        "share": take_table.SHARE_SENTENCE,
        "acceptance": (f"Earlier seats all passed in {ci_rate(r.acceptance)} of {r.acceptance.n:,} sampled deals "
                       f"(rejection sampling under the bidding policy)") if conditioned else None,
        "verdict": r.verdict(), "best": r.best.call.label,
        "bidders": describe_bid(r.policies, s.rules) + (f" ({note})" if note else ""),
        "rules": {k: v for k, v in s.rules.options().items() if v != Rules.from_label(s.rules.label).options().get(k)},
        "hands": r.hands, "seconds": round(r.seconds, 2),
        "command": take_table.command(r, deals, seed),
        "json": r.as_dict(),
    }


def bracket_view(b, r, deals: int, seed: int, strong: dict) -> dict:
    """The bracket under the table: one column per play policy (an adjusted one followed by its
    plain numbers), the rows of ``take --bracket``, each policy's verdict and the bracket's."""
    from analyzer.output import take_table

    plays = ",".join(b.plays)
    sizes = ",".join(f"{p}={n}" for p, n in strong.items())
    return {
        "columns": [{"head": head, "n": x.n} for head, x in b.columns()],
        "rows": [[label, name, [take_table.cell(v) for v in cells]] for label, name, cells in take_table.bracket_rows(b)],
        "verdicts": [[p, x.verdict()] for p, x in zip(b.plays, b.results)],
        "notes": take_table.control_notes(b),
        "verdict": b.verdict(),
        "command": f"{take_table.command(r, deals, seed)} --bracket --bracket-plays {plays}"
                   + (f" --bracket-deals {sizes}" if sizes else ""),
        "json": b.as_dict(),
    }


# ---- review ---------------------------------------------------------------------------------

REVIEW_PIMC = "pimc:infer=bids"  # belote review's default


def review_query(form: dict, logs: list) -> tuple:
    """The review page's deal: ``{record: "<one belote-deal/1 line>"}``, ``{log: i, deal: n}`` (a log
    given to ``belote serve --log``, by its number: a page never names a file) or ``{random: {variant,
    players, seed, deal}}`` → (the job's function, the command that reviews the same deal)."""
    from analyzer.output.deallog import check_play
    from analyzer.rules.deal_schema import check_record

    pimc = form.get("pimc", REVIEW_PIMC)
    if pimc not in (REVIEW_PIMC, "pimc", None, "none"):
        raise BeloteError(f'pimc must be "{REVIEW_PIMC}", "pimc" or "none", not {_shown(pimc)}')
    pimc = None if pimc in (None, "none") else pimc
    chosen = [k for k in ("record", "log", "random") if form.get(k) is not None]
    if len(chosen) != 1:
        raise BeloteError("give one deal to review: a pasted record, a deal of a log, or a random deal")
    flag = "" if pimc == REVIEW_PIMC else f" --pimc {pimc or 'none'}"
    if chosen == ["record"]:
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
        rules, seed, first = random_inputs(form["random"])  # checked now, dealt in the job (a kernel call)
        record = None
    if record is not None and record.get("outcome") != "played":
        raise BeloteError(f"deal {record.get('deal')} was not played ({record.get('outcome')}): nothing to review")

    def work(job):
        from analyzer.questions.review import review

        deal, how = (record, command) if record is not None else random_record(rules, seed, first, flag)
        r = review(deal, pimc=pimc, progress=lambda done, total: job.step("review", done, total))
        job.publish("review", review_view(r, deal, how))

    return work


def random_inputs(form) -> tuple:
    """A random deal's fields ``{variant, players, seed, deal}`` checked: (rules, seed, deal)."""
    if not isinstance(form, dict):
        raise BeloteError("random must be {variant, players, seed, deal}")
    return _rules(form), _seed(form), _int(form, "deal", 0, MAX_RANDOM_DEAL, 0, name="deal")


def random_record(rules, seed: int, first: int, flag: str = "") -> tuple[dict, str]:
    """Deal ``first`` of ``belote simulate --seed SEED`` (heuristic bidding and play), or the first
    played one after it, and the commands that log and review it."""
    from analyzer.players.policies import Policies
    from analyzer.runs.records import hand_record
    from analyzer.runs.simulate import SimConfig

    pols = Policies.parse("heuristic", "heuristic", rules.players)
    for d in range(first, first + 64):  # a passed-out deal is skipped: about one in four in classic
        cfg = SimConfig(rules=rules, policies=pols, deals=d + 1, seed=seed)
        record = hand_record(cfg, d)
        if record.get("outcome") == "played":
            break
    else:
        raise BeloteError(f"no played deal among deals {first}..{first + 63} of seed {seed}")
    args = ["belote", "simulate", "--variant", rules.variant]
    if len(PLAYER_COUNTS[rules.variant]) > 1:
        args += ["--players", str(rules.players)]
    args += ["--seed", str(seed), "--deals", str(d + 1), "--log", "deal.jsonl", "--log-deals", str(d + 1), "-q"]
    return record, f"{shlex.join(args)} && belote review deal.jsonl --deal {d}{flag}"


def review_view(r, record: dict, command: str) -> dict:
    """The review page's deal: the CLI's ``--json`` object (``json``), the cards each seat holds at
    the first trick (every card open: a review sees them all), the players and sides, the command."""
    import numpy as np

    from analyzer.game.state import ST_DOWN, ST_HANDS, state_from_record
    from analyzer.rules.cards import format_card, mask_to_cards

    st, rules = state_from_record(record)
    start = [[format_card(c) for c in mask_to_cards(int(np.int64(st[ST_HANDS + s]) | np.int64(st[ST_DOWN + s])))]
             for s in range(rules.players)]
    return {"json": r.as_dict(), "start": start, "players": rules.players, "partners": bool(rules.partners),
            "deal": record.get("deal"), "variant": rules.label, "bids": record.get("bids", []),
            "result": record.get("result"), "command": command}


# ---- reports --------------------------------------------------------------------------------


def report_list(folder) -> list[dict]:
    """The reports under ``folder`` (each a folder with its ``index.html``), newest first."""
    from pathlib import Path

    folder = Path(folder)
    if not folder.is_dir():
        return []
    out = []
    for d in folder.iterdir():
        page = d / "index.html"
        if d.is_dir() and not d.is_symlink() and page.is_file() and not page.is_symlink():
            out.append({"name": d.name, "url": f"/report/{d.name}/index.html", "modified": page.stat().st_mtime})
    return sorted(out, key=lambda x: -x["modified"])


__all__ = ["read_json", "MAX_DEPTH", "MAX_DIGITS", "take_query", "review_query", "random_inputs", "random_record",
           "take_view", "bracket_view", "review_view", "report_list"]
