"""A deal log record as a person reads it (``belote show``)."""

from __future__ import annotations

from analyzer.rules.cards import format_card, format_hand, format_suit, parse_card, parse_suit, cards_to_mask

SEAT_WORDS = {
    "en": {"seat": "seat", "dealer": "dealer", "voorhand": "leads first"},
    "nl": {"seat": "stoel", "dealer": "gever", "voorhand": "voorhand"},
}
WORDS = {
    "en": {
        "turned": "turned card", "bids": "bidding", "trump": "trump", "troefmaker": "taker",
        "koe": "(koe: forced)", "exchange": "Dix", "fille": "fille", "hands": "hands at the first trick",
        "tricks": "tricks", "declarations": "declarations", "stuk": "belote / stuk", "result": "result",
        "wins": "wins", "outcome": "outcome", "card_points": "card points", "raw": "raw totals",
        "scores": "scores", "roem_side": "roem scored by side", "none": "none", "reserve": "reserve after",
        "piles": "piles (face down / face up)", "revealed": "revealed", "side": "side",
        "players": "players", "seed": "seed", "deal": "deal", "policies": "policies", "bid": "bid", "play": "play",
        "round": "round", "trick": "trick",
    },
    "nl": {
        "turned": "gedraaide kaart", "bids": "bieden", "trump": "troef", "troefmaker": "troefmaker",
        "koe": "(koe)", "exchange": "Dix", "fille": "fille", "hands": "handen bij de eerste slag",
        "tricks": "slagen", "declarations": "roem", "stuk": "stuk", "result": "uitslag",
        "wins": "wint", "outcome": "uitkomst", "card_points": "kaartpunten", "raw": "ruwe totalen",
        "scores": "scores", "roem_side": "roem voor partij", "none": "geen", "reserve": "reserve na",
        "piles": "stapels (gedekt / open)", "revealed": "omgedraaid", "side": "partij",
        "players": "spelers", "seed": "seed", "deal": "spel", "policies": "strategie", "bid": "bieden",
        "play": "spelen", "round": "ronde", "trick": "slag",
    },
}
# The names a deal log records (calls, outcomes, declaration kinds), as each language says them.
TERMS = {
    "en": {},
    "nl": {
        # calls (analyzer.players.bidding.CALL_NAMES)
        "pass": "pas", "take": "speelt", "smous": "smous", "smous-play": "smous: speelt",
        "smous-redeal": "smous: opnieuw delen", "koe": "koe",
        # bidding outcomes
        "passed_out": "iedereen past", "redeal": "opnieuw delen",
        # hand outcomes (analyzer.rules.scoring.OUTCOME_NAMES)
        "made": "gehaald", "dedans": "nat", "tie": "gelijk (litige)",
        # declaration kinds (analyzer.rules.declarations.KIND_NAMES)
        "sequence": "reeks", "carre": "vier gelijke",
        # policies (analyzer.players.policies)
        "random": "willekeurig", "heuristic": "vuistregels", "taker": "troefmaker", "defence": "verdediging",
    },
}


def term(name, lang: str) -> str:
    """A recorded name (``take``, ``dedans``, ``sequence``, ...) in ``lang``."""
    if isinstance(name, dict):  # a policy per seat, or per role (each a name or per seat)
        return ",".join(f"{term(s, lang)}={term(v, lang)}" if isinstance(v, str) else f"{term(s, lang)}=({term(v, lang)})"
                        for s, v in name.items())
    return TERMS[lang].get(name, name)


def _c(card: str, lang: str) -> str:
    return format_card(parse_card(card), lang, symbols=True)


def _cs(cards, lang: str, trump: int = -1) -> str:
    return format_hand(cards_to_mask(parse_card(c) for c in cards), lang, symbols=True, trump=trump)


def render(record: dict, lang: str = "en") -> str:
    w = WORDS[lang]
    sw = SEAT_WORDS[lang]
    n = record["players"]
    lines = [
        f"{record['variant']} · {n} {w['players']} · {w['seed']} {record['seed']} · {w['deal']} {record['deal']} · "
        f"{w['policies']} {w['bid']}={term(record['policies']['bid'], lang)} "
        f"{w['play']}={term(record['policies']['play'], lang)}",
        f"{w['turned']}: {_c(record['turned'], lang)}   ({sw['seat']} 0 = {sw['voorhand']}, {sw['seat']} {n - 1} = {sw['dealer']})",
        f"{w['bids']}:",
    ]
    for b in record["bids"]:
        suit = f" {format_suit(parse_suit(b['suit']), lang, symbols=True)}" if "suit" in b else ""
        lines.append(f"  {w['round']} {b['round']}  {sw['seat']} {b['seat']}: {term(b['call'], lang)}{suit}")
    if record["outcome"] != "played":
        lines.append(f"{w['outcome']}: {term(record['outcome'], lang)}")
        return "\n".join(lines)
    trump = parse_suit(record["trump"])
    koe = f" {w['koe']}" if record.get("koe") else ""
    lines.append(f"{w['trump']}: {format_suit(trump, lang, symbols=True)}   {w['troefmaker']}: {sw['seat']} {record['troefmaker']}{koe}")
    if record.get("exchange"):
        e = record["exchange"]
        lines.append(f"{w['exchange']}: {sw['seat']} {e['seat']} {_c(e['gave'], lang)} → {_c(e['got'], lang)}")
    if record.get("fille"):
        lines.append(f"{w['fille']}: {_c(record['fille'], lang)}")
    if "start_hands" in record:
        lines.append(f"{w['hands']}:")
        for s, h in enumerate(record["start_hands"]):
            lines.append(f"  {sw['seat']} {s}: {_cs(h, lang, trump)}")
    if "piles" in record:
        lines.append(f"{w['piles']}:")
        for s, piles in enumerate(record["piles"]):
            lines.append(f"  {sw['seat']} {s}: " + "  ".join(f"{_c(d, lang)}/{_c(u, lang)}" for d, u in piles))
    lines.append(f"{w['tricks']}:")
    for i, t in enumerate(record["tricks"]):
        plays = "  ".join(f"{s}:{_c(c, lang)}" for s, c in t["plays"])
        rev = ""
        if t.get("revealed"):
            rev = f"   {w['revealed']} " + " ".join(f"{s}:{_c(c, lang)}" for s, c in t["revealed"])
        lines.append(f"  {i + 1:2d}. {plays}   → {sw['seat']} {t['winner']} {w['wins']} {t['points']}{rev}")
    if record["declarations"]:
        lines.append(f"{w['declarations']}:")
        for d in record["declarations"]:
            lines.append(f"  {sw['seat']} {d['seat']}: {term(d['kind'], lang)} {_cs(d['cards'], lang)} = {d['points']} "
                         f"({w['trick']} {d['trick'] + 1})")
    if record.get("stuk"):
        lines.append(f"{w['stuk']}: {sw['seat']} {record['stuk']['seat']} +{record['stuk']['points']}")
    r = record["result"]
    roem = r["roem_side"] if r["roem_side"] is not None else w["none"]
    sides = ["+".join(str(s) for s in side) for side in record["sides"]]
    lines += [
        f"{w['result']}: {term(r['outcome'], lang)}",
        f"  {w['side']:<14}" + "".join(f"{s:>8}" for s in sides),
        f"  {w['card_points']:<14}" + "".join(f"{x:>8}" for x in r["card_points"]),
        f"  {w['raw']:<14}" + "".join(f"{x:>8}" for x in r["raw_totals"]),
        f"  {w['scores']:<14}" + "".join(f"{x:>8}" for x in r["scores"]),
        f"  {w['roem_side']}: {roem}   {w['reserve']}: {r['reserve_after']}",
    ]
    return "\n".join(lines)
