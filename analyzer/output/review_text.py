"""``belote review`` as a person reads it: one line per card, what it gave away against the best
card with every card open, the card pimc would have played, and the totals per seat and side."""

from __future__ import annotations

from analyzer.game.played import play_out
from analyzer.output.show import SEAT_WORDS
from analyzer.output.words import bid_text, net_reason_text, number, policy_text, result_lines
from analyzer.questions.review import Review
from analyzer.rules.cards import format_card, parse_card

WORDS = {
    "en": {"title": "Review of deal {deal} ({variant}, trump {trump}, troefmaker seat {taker})", "typed": "(typed)",
           "turned": "turned", "bidding": "the bidding",
           "head": ("trick", "seat", "played", "best with open cards", "gave away", "pimc"),
           "forced": "forced", "same": "= best",
           "sides": "given away (card points, against perfect open-card play)", "side": "side", "seat_total": "seat",
           "worst": "The costliest card: trick {trick}, seat {seat} played {card} and gave away {loss} card points "
                    "(best: {best}).", "none": "Every card was as good as the best with open cards.",
           "trace": "The deal's value (troefmaker's side) at the start of each trick: {values}; after the last card: "
                    "{final}.",
           "turn": "It moved most in trick {trick}: {change:+d}.", "still": "No trick moved it.",
           "exact": "Values: the card points the troefmaker's side ends with when every card from there on is "
                    "played perfectly, every card visible (the exact solver).",
           "paranoid": "Values: the solver's troefmaker margin against the others playing together (Piekjas with "
                       "3-4 players is not two-sided: a pessimistic, not an exact, value).",
           "pimc": "pimc: the card the {policy} player chooses from what the seat saw (the record's bidding "
                   "included), from the same position.",
           "knew": "by what it knew", "verdict": "verdict",
           "kinds": {"error": "error", "bad luck": "bad luck", "lucky": "lucky"},
           "luck_head": "By what each seat knew ({worlds} worlds a decision: deals of the cards it could not see, "
                        "each solved with open cards; the loss against its best card by them, paired, 95% interval):",
           "luck_seat": "{who}: {error} error(s), {error_points} points; {bad} bad luck, {bad_points}; {lucky} lucky, "
                        "{lucky_points} (gave away {given}).",
           "costliest_error": "The costliest error: trick {trick}, {who} played {card}: {error} points worse than its "
                              "best by what it knew (it gave away {loss} on the true deal).",
           "unluckiest": "The unluckiest card: trick {trick}, {who} played {card}: {bad} of the {loss} points it gave "
                         "away on the true deal could not be seen from its seat.",
           "bot_head": "The bot beside you: from card {k} (trick {trick}, {who}) on, {bot} plays every seat: {cards}.",
           "bot_result": "With the bot:", "as_played": "As played:",
           "game_head": "In the game's unit (the deal played on perfectly, every card open, after the card and after "
                        "the best one; net: the side's score-sheet points minus the best other side's):",
           "game_changed": "trick {trick}, {who} played {card} ({loss} card points): {best} → {played}, {cost} net "
                           "points for its side.",
           "game_none": "No card changed the deal's outcome.",
           "game_top": "The costliest card in the game's unit: trick {trick}, {who} played {card}: {cost} net points "
                       "({loss} card points).",
           "outcomes": {"made": "made", "dedans": "nat", "tie": "litige/tie", "made + pit": "made with pit",
                        "dedans + pit": "nat with pit", "tie + pit": "tie with pit"},
           "luck_words": "Error: worse than the seat's best card by what it knew, beyond the noise, and it lost on the "
                         "true deal; bad luck: its best by what it knew (or as good as it could tell), yet it lost; "
                         "lucky: worse by what it knew, but not on the true deal. Error + bad luck − lucky = what "
                         "the cards gave away."},
    "nl": {"title": "Nabespreking van spel {deal} ({variant}, troef {trump}, troefmaker stoel {taker})",
           "typed": "(ingetypt)", "turned": "gedraaid", "bidding": "het bieden",
           "head": ("slag", "stoel", "gespeeld", "beste met open kaarten", "weggegeven", "pimc"),
           "forced": "gedwongen", "same": "= beste",
           "sides": "weggegeven (kaartpunten, tegen perfect spel met open kaarten)", "side": "kant",
           "seat_total": "stoel",
           "worst": "De duurste kaart: slag {trick}, stoel {seat} speelde {card} en gaf {loss} kaartpunten weg "
                    "(beste: {best}).", "none": "Elke kaart was even goed als de beste met open kaarten.",
           "trace": "De waarde van het spel (kant van de troefmaker) aan het begin van elke slag: {values}; na de "
                    "laatste kaart: {final}.",
           "turn": "Ze bewoog het meest in slag {trick}: {change:+d}.", "still": "Geen slag bewoog ze.",
           "exact": "Waarden: de kaartpunten waarmee de kant van de troefmaker eindigt als elke kaart vanaf daar "
                    "perfect gespeeld wordt, alle kaarten open (de exacte oplosser).",
           "paranoid": "Waarden: de marge van de troefmaker tegen de anderen samen (Piekjas met 3-4 spelers is "
                       "niet tweezijdig: een pessimistische, geen exacte waarde).",
           "pimc": "pimc: de kaart die de {policy}-speler kiest met wat de stoel zag (het bieden inbegrepen), "
                   "in dezelfde positie.",
           "knew": "naar wat hij wist", "verdict": "oordeel",
           "kinds": {"error": "fout", "bad luck": "pech", "lucky": "geluk"},
           "luck_head": "Naar wat elke stoel wist ({worlds} werelden per beslissing: verdelingen van de kaarten die hij "
                        "niet zag, elk opgelost met open kaarten; wat de kaart weggeeft tegen zijn beste kaart daarin, "
                        "gepaard, 95%-interval):",
           "luck_seat": "{who}: {error} fout(en), {error_points} punten; {bad} pech, {bad_points}; {lucky} geluk, "
                        "{lucky_points} (gaf {given} weg).",
           "costliest_error": "De duurste fout: slag {trick}, {who} speelde {card}: {error} punten slechter dan zijn "
                              "beste naar wat hij wist (hij gaf {loss} weg in het echte spel).",
           "unluckiest": "De kaart met de meeste pech: slag {trick}, {who} speelde {card}: {bad} van de {loss} punten "
                         "die hij in het echte spel weggaf waren vanaf zijn stoel niet te zien.",
           "bot_head": "De bot naast je: vanaf kaart {k} (slag {trick}, {who}) speelt {bot} elke stoel: {cards}.",
           "bot_result": "Met de bot:", "as_played": "Zoals gespeeld:",
           "game_head": "In de eenheid van het spel (het spel perfect uitgespeeld, alle kaarten open, na de kaart en na "
                        "de beste; netto: de punten van de kant op het scoreblad min die van de beste andere kant):",
           "game_changed": "slag {trick}, {who} speelde {card} ({loss} kaartpunten): {best} → {played}, {cost} netto "
                           "punten voor zijn kant.",
           "game_none": "Geen kaart veranderde de uitslag van het spel.",
           "game_top": "De duurste kaart in de eenheid van het spel: slag {trick}, {who} speelde {card}: {cost} netto "
                       "punten ({loss} kaartpunten).",
           "outcomes": {"made": "gehaald", "dedans": "nat", "tie": "litige/gelijk", "made + pit": "gehaald met pit",
                        "dedans + pit": "nat met pit", "tie + pit": "gelijk met pit"},
           "luck_words": "Fout: slechter dan de beste kaart naar wat de stoel wist, buiten de ruis, en ze kostte in het "
                         "echte spel; pech: de beste naar wat hij wist (of even goed voor zover hij kon zien), toch "
                         "verloren; geluk: slechter naar wat hij wist, maar niet in het echte spel. Fout + pech − geluk "
                         "= wat de kaarten weggaven."},
}


def _columns(rows, ruled: int) -> list[str]:
    """``rows`` (the heading first) as left-aligned columns, the heading's first ``ruled`` columns
    underlined."""
    widths = [max(len(r[k]) for r in rows) for k in range(len(rows[0]))]
    out = []
    for k, r in enumerate(rows):
        out.append("  ".join(v.ljust(widths[j]) for j, v in enumerate(r)).rstrip())
        if k == 0:
            out.append("  ".join("-" * widths[j] for j in range(ruled)))
    return out


def _luck_lines(r: Review, luck: dict, w: dict, lang: str, c) -> list[str]:
    """Error, bad luck and lucky per seat, the costliest error and the unluckiest card."""
    seat_word = SEAT_WORDS[lang]["seat"]
    out = [w["luck_head"].format(worlds=luck["worlds"])]
    for s, t in luck["seats"].items():
        out.append("  " + w["luck_seat"].format(
            who=f"{seat_word} {s}", error=t["error"], error_points=number(t["error_points"], lang), bad=t["bad_luck"],
            bad_points=number(t["bad_luck_points"], lang), lucky=t["lucky"],
            lucky_points=number(t["lucky_points"], lang), given=t["given_away"]))
    e, u = luck["costliest_error"], luck["unluckiest"]
    if e is not None:
        out.append(w["costliest_error"].format(trick=e.trick, who=f"{seat_word} {e.seat}", card=c(e.card),
                                               error=number(e.info.error, lang), loss=e.loss))
    if u is not None:
        out.append(w["unluckiest"].format(trick=u.trick, who=f"{seat_word} {u.seat}", card=c(u.card),
                                          bad=number(u.info.bad_luck, lang), loss=u.loss))
    out.append(w["luck_words"])
    return out


def _game_lines(r: Review, w: dict, lang: str, c) -> list[str]:
    """The cards that changed the deal's outcome (perfect play after each), costliest first, and the
    card that cost most in the game's unit."""
    costed = [x for x in r.cards if x.game is not None]
    if not costed:
        return []
    seat_word = SEAT_WORDS[lang]["seat"]
    out = [w["game_head"]]
    changed = sorted((x for x in costed if x.game["played"] != x.game["best"]), key=lambda x: -x.game["cost"])
    for x in changed:
        out.append("  " + w["game_changed"].format(
            trick=x.trick, who=f"{seat_word} {x.seat}", card=c(x.card), loss=x.loss,
            best=w["outcomes"].get(x.game["best"], x.game["best"]),
            played=w["outcomes"].get(x.game["played"], x.game["played"]), cost=x.game["cost"]))
    if not changed:
        out.append("  " + w["game_none"])
    top = max(costed, key=lambda x: (x.game["cost"], x.loss))
    if top.game["cost"] > 0:
        out.append(w["game_top"].format(trick=top.trick, who=f"{seat_word} {top.seat}", card=c(top.card),
                                        cost=top.game["cost"], loss=top.loss))
    return out


def _bot_lines(r: Review, bot: dict, w: dict, lang: str) -> list[str]:
    """The bot's line beside the deal's: from which card it played, and both results."""
    c = r.cards[bot["from"]]
    seat_word = SEAT_WORDS[lang]["seat"]
    rec = r.record
    theirs = result_lines({**rec, **bot["played"]}, r.rules, lang)
    ours = result_lines({**rec, **play_out(rec, r.rules)}, r.rules, lang)  # the deal's own, not the whole review again
    why = []
    if bot.get("reason"):
        why = ["  " + net_reason_text(bot["reason"], lang)]
    return [w["bot_head"].format(k=bot["from"] + 1, trick=c.trick, who=f"{seat_word} {c.seat}",
                                 bot=policy_text(bot["policy"], lang),
                                 cards=" ".join(format_card(parse_card(x), lang, symbols=True) for x in bot["cards"])),
            *why,
            "  " + w["bot_result"] + " " + theirs[0] + " " + theirs[-1],
            "  " + w["as_played"] + " " + ours[0] + " " + ours[-1]]


def render(r: Review, lang: str = "en", bot: dict | None = None) -> str:
    w = WORDS[lang]

    def c(card):
        return format_card(card, lang, symbols=True)

    def c_(text):
        return c(parse_card(text))

    rec = r.record
    out = [w["title"].format(deal=rec.get("deal") if rec.get("deal") is not None else w["typed"],
                             variant=r.rules.label, trump=rec["trump"], taker=rec["troefmaker"]), ""]
    if rec.get("turned") or rec.get("bids"):  # what a player remembers the deal by: the turned card, the bidding

        told = [f"{w['turned']} {c_(rec['turned'])}"] if rec.get("turned") else []
        if rec.get("bids"):
            told.append(w["bidding"] + ": " + "; ".join(bid_text(b, r.rules.players, lang) for b in rec["bids"]))
        out[-1:-1] = [" · ".join(told)]
    luck = r.luck()
    head = list(w["head"][:5]) + ([w["knew"], w["verdict"]] if luck else []) + ([w["head"][5]] if r.pimc_policy else [])
    rows = [head]
    for x in r.cards:
        if x.forced:
            row = [str(x.trick), str(x.seat), c(x.card), w["forced"], ""] + (["", ""] if luck else [])
        else:
            best = w["same"] if x.loss == 0 else " ".join(c(b) for b in x.best)
            row = [str(x.trick), str(x.seat), c(x.card), best, str(x.loss) if x.loss else "0"]
            if luck:
                i = x.info
                row += (["", ""] if i is None else
                        [number(i.loss, lang) + (f" [{number(i.loss_lo, lang)}, {number(i.loss_hi, lang)}]"
                                                  if i.loss_hi > i.loss_lo else ""), w["kinds"].get(i.kind, "")])
        if r.pimc_policy:
            row.append("" if x.forced or x.pimc is None else (c(x.pimc) + (" *" if x.pimc != x.card else "")))
        rows.append(row)
    out += _columns(rows, len(head))
    out.append("")
    t = r.totals()
    seat_word = SEAT_WORDS[lang]["seat"] if lang in SEAT_WORDS else "seat"
    out.append(w["sides"] + ": " + ", ".join(f"{seat_word} {s} {v}" for s, v in t["seats"].items())
               + ("; " + ", ".join(f"{w['side']} {s} {v}" for s, v in t["sides"].items()) if r.rules.partners else ""))
    worst = r.costliest()
    out.append(w["none"] if worst is None else w["worst"].format(
        trick=worst.trick, seat=worst.seat, card=c(worst.card), loss=worst.loss, best=" ".join(c(b) for b in worst.best)))
    tr = r.trajectory()
    turn = r.turning_trick()
    out.append(w["trace"].format(values=" ".join(str(v) for _, v in tr[:-1]), final=tr[-1][1]) + " "
               + (w["still"] if turn is None else w["turn"].format(trick=turn[0], change=turn[1])))
    if luck:
        out += [""] + _luck_lines(r, luck, w, lang, c)
    game = _game_lines(r, w, lang, c)
    if game:
        out += [""] + game
    if bot is not None:
        out += [""] + _bot_lines(r, bot, w, lang)
    out.append("")
    out.append(w["exact"] if r.exact else w["paranoid"])
    if r.pimc_policy:
        out.append(w["pimc"].format(policy=r.pimc_policy) + (" *: not the card played." if lang == "en"
                                                             else " *: niet de gespeelde kaart."))
    return "\n".join(out)


def render_position(p, lang: str = "en") -> str:
    """``belote analyse``: one line per legal card, best first."""
    w = WORDS[lang]

    def c(card):
        return format_card(card, lang, symbols=True)

    head = ("card", "value", "gives away", "") if lang == "en" else ("kaart", "waarde", "geeft weg", "")
    title = (f"{p.rules.label}, trick {p.trick}, seat {p.seat} to play" if lang == "en"
             else f"{p.rules.label}, slag {p.trick}, stoel {p.seat} aan de beurt")
    rows = [head]
    for card in sorted(p.values, key=lambda k: (p.losses[k], k)):
        mark = ("best" if lang == "en" else "beste") if card in p.best else ""
        if p.pimc == card:
            mark = (mark + ", " if mark else "") + p.pimc_policy
        rows.append((c(card), str(p.values[card]), str(p.losses[card]), mark))
    out = [title, ""] + _columns(rows, 3)
    out += ["", w["exact"] if p.exact else w["paranoid"]]
    return "\n".join(out)


__all__ = ["render", "render_position"]
