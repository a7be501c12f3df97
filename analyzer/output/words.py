"""The players' words, in English and Dutch: one place for every term, label and sentence a player
reads on ``belote serve``'s pages (and, later, in the CLI's text output and the report).

- ``TERMS``: each game term as players say it in each language, with a one-line explanation
  (RULES.md §8, the Dutch rule texts of ``seeds/``); ``glossary(lang)`` lists them;
- ``PAGE``: every label, button and sentence of the pages (``{name}`` marks a value the page
  fills in); ``ROWS``: the rows of a ``take`` answer as a player would say them, each with its
  explanation and the term it leans on; ``RULE_WORDS``: the house rules as named choices;
- sentences made from the numbers of an answer, pure functions of the CLI's ``--json`` objects:
  ``verdict`` (in English the CLI's own sentence, word for word), ``reason`` (one line: which
  outcomes make the difference), ``who_plays`` (who bids and who plays the cards, in words);
  and from a deal: ``bid_text``, ``trick_text``, ``declaration_text``, ``stuk_text``,
  ``result_lines``, ``refusal_text`` (why a card may not be played).

Cards are shown with the suit's sign and the language's rank letters (Dutch: B V H A for jack,
queen, king, ace); the notation a player types is ``analyzer.rules.cards``'.
"""

from __future__ import annotations

LANGS = ("en", "nl")
SUIT_SIGNS = {"c": "♣", "d": "♦", "h": "♥", "s": "♠"}
RANKS = {"en": {"T": "10"}, "nl": {"T": "10", "J": "B", "Q": "V", "K": "H"}}
SUIT_WORDS = {"en": {"c": "clubs", "d": "diamonds", "h": "hearts", "s": "spades"},
              "nl": {"c": "klaveren", "d": "ruiten", "h": "harten", "s": "schoppen"}}


def language(accept: str | None) -> str:
    """``nl`` when the first language of an ``Accept-Language`` value (or a ``lang`` given) is Dutch,
    else ``en``."""
    first = (accept or "").split(",")[0].strip().lower()
    return "nl" if first.startswith("nl") else "en"


def card_text(card: str, lang: str = "en") -> str:
    """A card in notation (``Th``) as a player reads it: ``10♥``; in Dutch ``Bh`` is ``B♥``."""
    return RANKS[lang].get(card[0], card[0]) + SUIT_SIGNS[card[1]]


def cards_text(cards, lang: str = "en") -> str:
    return " ".join(card_text(c, lang) for c in cards)


def number(x: float, lang: str = "en", decimals: int = 1, sign: bool = False) -> str:
    """``+3.8`` / ``+3,8``; thousands ``20,000`` / ``20.000``."""
    text = f"{x:{'+' if sign else ''},.{decimals}f}"
    return text.translate(str.maketrans(",.", ".,")) if lang == "nl" else text


def percent(p: float, lang: str = "en") -> str:
    """A share as a player reads it: ``96.9%``; ``<0.1%`` and ``>99.9%`` at the ends."""
    if p != p:  # nan: no deal
        return "–"
    if 0 < p < 0.0005:
        return "<" + number(0.1, lang) + "%"
    if 0.9995 < p < 1:
        return ">" + number(99.9, lang) + "%"
    return number(100 * p, lang) + "%"


# ---- the terms (RULES.md §8) --------------------------------------------------------------------

# key -> {lang: (the word players use, one line saying what it is)}; ``aliases``: the other words
# RULES.md §8 gives for the same thing
TERMS = {
    "troef": {"en": ("trump", "The suit chosen in the bidding: any trump beats every card of the other suits; "
                              "jack (jas, 20) and nine (nel, 14) are its highest cards."),
              "nl": ("troef", "De kleur die bij het bieden gekozen is: elke troef wint van alle kaarten van de "
                              "andere kleuren; boer (jas, 20) en negen (nel, 14) zijn de hoogste.")},
    "troefmaker": {"en": ("troefmaker", "The player who chose trump (the taker, 'speler'): must end with more "
                                        "points than each other player (in classic: than the other team)."),
                   "nl": ("troefmaker", "De speler die troef koos (de 'speler'): moet meer punten halen dan "
                                        "iedere andere speler (klassiek: dan de andere partij).")},
    "voorhand": {"en": ("voorhand", "Seat 0, left of the dealer in the direction of play: bids first and leads "
                                    "the first trick."),
                 "nl": ("voorhand", "Stoel 0, na de gever in de speelrichting: biedt eerst en komt uit in de "
                                    "eerste slag.")},
    "gever": {"en": ("dealer", "Deals the cards and bids last (the last seat); in Dekjas the dealer's last "
                               "face-up card is the turned card."),
              "nl": ("gever", "Deelt de kaarten en biedt als laatste (de laatste stoel); bij Dekjas is zijn "
                              "laatste open kaart de gedraaide kaart.")},
    "maat": {"en": ("partner (maat)", "Classic Belote only: the player opposite you; seats 0 and 2 play "
                                      "together against 1 and 3."),
             "nl": ("maat", "Alleen klassiek: de speler tegenover je; stoel 0 en 2 spelen samen tegen 1 en 3.")},
    "bekennen": {"en": ("follow suit", "Play a card of the suit led when you have one (kleur bekennen, RULES.md "
                                       "§4.1)."),
                 "nl": ("kleur bekennen", "Een kaart van de gevraagde kleur spelen als je die hebt (RULES.md §4.1).")},
    "troeven": {"en": ("trump, overtrump, undertrump", "Cannot follow: you must trump, higher than a trump already in "
                                                       "the trick if you can, else still lower (RULES.md §4.3)."),
                "nl": ("troeven, overtroeven, ondertroeven", "Kun je niet bekennen, dan moet je troeven, hoger dan een "
                                                             "troef in de slag als je kunt, anders toch lager "
                                                             "(RULES.md §4.3).")},
    "jas": {"en": ("jas, nel", "The trump jack (20 points) and the trump nine (14): the two highest trumps."),
            "nl": ("jas, nel", "De troefboer (20 punten) en de troefnegen (14): de twee hoogste troeven.")},
    "letters": {"en": ("B V H A", "The Dutch letters of the cards: boer = jack, vrouw = queen, heer = king, aas = ace "
                                  "(and 10)."),
                "nl": ("boer, vrouw, heer, aas", "B V H A: de letters van de kaarten (en 10); Engels J Q K A.")},
    "kleuren": {"en": ("suits", "klaveren ♣ clubs, ruiten ♦ diamonds, harten ♥ hearts, schoppen ♠ spades."),
                "nl": ("klaveren, ruiten, harten, schoppen", "♣ ♦ ♥ ♠; Engels clubs, diamonds, hearts, spades.")},
    "stok": {"en": ("stock (stok)", "The cards not dealt yet."), "nl": ("stok", "De kaarten die nog niet gedeeld "
                                                                               "zijn.")},
    "carre": {"en": ("carré, sequence", "The two kinds of roem: four of a kind, and a run in one suit in the order "
                                        "A K Q J 10 9 8 7."),
              "nl": ("carré, sequentie (reeks)", "De twee soorten roem: vier gelijke, en een reeks in één kleur in "
                                                 "de volgorde A H V B 10 9 8 7.")},
    "gedraaid": {"en": ("turned card", "The card turned face up after the first cards are dealt: its suit is the "
                                       "trump on offer in round 1."),
                 "nl": ("gedraaide kaart", "De kaart die na het eerste delen open wordt gedraaid: haar kleur is "
                                           "de troef waarop in ronde 1 geboden wordt.")},
    "slag": {"en": ("trick", "One card from each player; the highest trump wins it, else the highest card of "
                             "the suit led; the last trick adds 10 points."),
             "nl": ("slag", "Eén kaart van iedere speler; de hoogste troef wint, anders de hoogste kaart van de "
                            "gevraagde kleur; de laatste slag telt 10 punten extra.")},
    "roem": {"en": ("roem (declarations)", "Sequences of 3, 4, 5+ cards in a suit (20, 50, 100) and four of a kind "
                                          "(jacks 200, nines 150, A 10 K Q 100); only the best declarer scores."),
             "nl": ("roem", "Reeksen van 3, 4, 5 of meer kaarten in één kleur (20, 50, 100) en vier gelijke "
                            "(boeren 200, negens 150, A 10 H V 100); alleen wie de hoogste roem heeft, scoort.")},
    "stuk": {"en": ("stuk (belote)", "King and queen of trump in one hand: 20 points, announced 'stuk' with the "
                                    "first and 'brok' (rebelote) with the second."),
             "nl": ("stuk", "Heer en vrouw van troef in één hand: 20 punten; je zegt 'stuk' bij de eerste en "
                            "'brok' bij de tweede.")},
    "gehaald": {"en": ("made", "The troefmaker ended with more points than each other player (team): everyone "
                               "scores what they won."),
                "nl": ("gehaald", "De troefmaker haalde meer punten dan iedere andere speler (partij): iedereen "
                                  "schrijft op wat hij haalde.")},
    "nat": {"en": ("nat (dedans)", "The troefmaker (taking team) failed: fewer points than another player; "
                                   "its points go to the others (classic: the defenders score 162 and the roem)."),
            "nl": ("nat", "De troefmaker (spelende partij) faalde: minder punten dan een ander; zijn punten gaan "
                          "naar de anderen (klassiek: de tegenpartij krijgt 162 plus de roem).")},
    "litige": {"en": ("litige (tie)", "Classic: the takers and the defenders have equal points; the takers' points "
                                      "wait in reserve for whoever wins the next hand."),
               "nl": ("litige (gelijk)", "Klassiek: de spelende partij en de tegenpartij hebben evenveel punten; "
                                         "de punten van de spelers gaan in reserve voor de winnaar van het "
                                         "volgende spel.")},
    "pit": {"en": ("pit (kapot, capot)", "One player (team) wins every trick: 100 points more (classic capot: "
                                         "252 instead of 162); in Piekjas and Dekjas a player with no trick gives "
                                         "100 points to the others."),
            "nl": ("pit (kapot)", "Eén speler (partij) haalt alle slagen: 100 punten extra (klassiek capot: 252 in "
                                  "plaats van 162); bij Piekjas en Dekjas geeft een speler zonder slag 100 punten "
                                  "aan de anderen.")},
    "koe": {"en": ("koe", "Piekjas and Dekjas: when everyone passes twice, voorhand must play on a suit of its "
                          "choice: the forced troefmaker."),
            "nl": ("koe", "Piekjas en Dekjas: past iedereen twee keer, dan moet voorhand spelen op een kleur "
                          "naar keuze: de gedwongen troefmaker.")},
    "smous": {"en": ("smous", "Two players: an offer to play, or to have a new deal; the other player chooses "
                              "which."),
              "nl": ("smous", "Met twee spelers: een aanbod om óf speler te worden óf opnieuw te delen; de "
                              "tegenstander kiest.")},
    "dix": {"en": ("dix", "Piekjas: whoever holds the trump 7 may exchange it for the turned card, right after "
                          "the bidding."),
            "nl": ("dix", "Piekjas: wie de troef 7 heeft, mag die na het bieden ruilen met de gedraaide kaart.")},
    "fille": {"en": ("fille", "Piekjas with 2 or 3 players: the last card of the stock, turned face up for "
                              "information; it is not played."),
              "nl": ("fille", "Piekjas met 2 of 3 spelers: de laatste kaart van de stok, ter informatie open "
                              "gelegd; ze wordt niet gespeeld.")},
    "reserve": {"en": ("reserve", "Points nobody won (a tie, a nat shared by two): they go to the winner of "
                                  "the next hand."),
                "nl": ("reserve", "Punten die niemand kreeg (gelijkspel, nat bij twee gelijken): ze gaan naar de "
                                  "winnaar van het volgende spel.")},
    "net": {"en": ("net", "Your score minus the best other player's (team's) score in the same hand: what wins "
                          "games, since a nat gives your points away."),
            "nl": ("netto", "Jouw score min die van de beste andere speler (partij) in hetzelfde spel: dat wint "
                            "partijen, want bij nat geef je je punten weg.")},
    "paired": {"en": ("same deals", "Every choice is played out on the same sampled deals, so their difference "
                                    "is measured deal by deal."),
               "nl": ("dezelfde spellen", "Elke keuze wordt op dezelfde getrokken spellen uitgespeeld, dus het "
                                          "verschil wordt spel voor spel gemeten.")},
    "ci": {"en": ("± (95%)", "The margin of the simulation: the true value lies within it 95 times in 100."),
           "nl": ("± (95%)", "De marge van de simulatie: de echte waarde ligt er 95 van de 100 keer binnen.")},
    "open": {"en": ("open cards", "The review values each card as if every card were visible (double dummy): "
                                  "perfect play from there on."),
             "nl": ("open kaarten", "De nabespreking waardeert elke kaart alsof alle kaarten open liggen "
                                    "(double dummy): perfect spel vanaf daar.")},
}
TERM_ALIASES = {"troefmaker": ("speler",), "nat": ("dedans",), "pit": ("kapot", "capot"),
                "stuk": ("brok", "belote", "rebelote"), "gever": ("dealer",), "gedraaid": ("gedraaide kaart",)}
GLOSSARY = ("troef", "troefmaker", "voorhand", "gever", "maat", "gedraaid", "slag", "bekennen", "troeven", "jas",
            "letters", "kleuren", "stok", "roem", "carre", "stuk", "gehaald", "nat", "litige", "pit", "koe", "smous",
            "dix", "fille", "reserve", "net", "paired", "ci", "open")


def term(key: str, lang: str) -> str:
    return TERMS[key][lang][0]


def glossary(lang: str) -> list[dict]:
    """The terms in order: ``{key, word, other (the word in the other language), explain, aliases}``."""
    other = "en" if lang == "nl" else "nl"
    return [{"key": k, "word": TERMS[k][lang][0], "other": TERMS[k][other][0], "explain": TERMS[k][lang][1],
             "aliases": list(TERM_ALIASES.get(k, ()))} for k in GLOSSARY]


# ---- the rows of a take answer ------------------------------------------------------------------

# CallStats field -> {lang: (row label, explanation)}, and the term the row leans on
ROWS = {
    "score": {"en": ("Your score a hand", "Your (team's) points on the score sheet for this hand, on average."),
              "nl": ("Jouw score per spel", "Je punten (van je partij) op het scoreblad voor dit spel, "
                                            "gemiddeld.")},
    "vs_pass": {"en": ("Score gained over passing", "This call's score minus passing's, deal by deal."),
                "nl": ("Score winst t.o.v. passen", "De score van deze keuze min die van passen, spel voor spel.")},
    "net": {"en": ("Net a hand", "Your score minus the best other player's (team's), on average."),
            "nl": ("Netto per spel", "Jouw score min die van de beste andere speler (partij), gemiddeld.")},
    "net_vs_pass": {"en": ("Net gained over passing", "This call's net minus passing's, deal by deal: what the "
                                                      "verdict ranks."),
                    "nl": ("Netto winst t.o.v. passen", "Het netto van deze keuze min dat van passen, spel voor "
                                                        "spel: waarop het oordeel rangschikt.")},
    "we_take": {"en": ("You become troefmaker", "Your side becomes troefmaker, now or later in the bidding "
                                                "(your partner, round 2, koe)."),
                "nl": ("Jij wordt troefmaker", "Jouw kant wordt troefmaker, nu of later in het bieden (je maat, "
                                               "ronde 2, koe).")},
    "made": {"en": ("… and make it", "Your side took and made it (a share of all deals)."),
             "nl": ("… en haalt het", "Jouw kant speelde en haalde het (een deel van alle spellen).")},
    "dedans": {"en": ("… and go nat", "Your side took and went nat (dedans)."),
               "nl": ("… en gaat nat", "Jouw kant speelde en ging nat.")},
    "tie": {"en": ("… and tie", "Your side took and tied (classic: litige)."),
            "nl": ("… en speelt gelijk", "Jouw kant speelde en speelde gelijk (klassiek: litige).")},
    "capot_for": {"en": ("You win every trick", "Your side won all tricks (pit, capot), whoever took."),
                  "nl": ("Jij haalt alle slagen", "Jouw kant haalde alle slagen (pit), wie ook speelde.")},
    "pit_against": {"en": ("You win no trick", "Your side won no trick (pit against you), whoever took."),
                    "nl": ("Jij haalt geen slag", "Jouw kant haalde geen enkele slag (pit tegen), wie ook "
                                                  "speelde.")},
    "not_played": {"en": ("Not played", "Everyone passed twice (classic: a new deal) or a smous was answered "
                                        "with a new deal."),
                   "nl": ("Niet gespeeld", "Iedereen paste twee keer (klassiek: opnieuw delen) of een smous werd "
                                           "met opnieuw delen beantwoord.")},
}
ROW_TERMS = {"net": "net", "net_vs_pass": "net", "we_take": "troefmaker", "dedans": "nat", "tie": "litige",
             "capot_for": "pit", "pit_against": "pit", "not_played": "smous", "vs_pass": "paired"}


# ---- house rules as named choices -----------------------------------------------------------------

# option -> {lang: (name, {value: choice})}: analyzer.rules.options.OPTIONS in players' words
RULE_WORDS = {
    "round2_suits": {"en": ("Round 2 trump", {"any": "any suit, the turned one too", "other": "another suit than "
                                                                                              "the turned one"}),
                     "nl": ("Troef in ronde 2", {"any": "elke kleur, ook de gedraaide", "other": "een andere kleur "
                                                                                                 "dan de gedraaide"})},
    "roem_compare": {"en": ("Higher roem", {"cards": "more cards wins", "points": "more points wins"}),
                     "nl": ("Hoogste roem", {"cards": "meeste kaarten wint", "points": "meeste punten wint"})},
    "roem_tie": {"en": ("Equal best roem", {"none": "nobody scores roem", "first": "the earlier seat scores"}),
                 "nl": ("Gelijke hoogste roem", {"none": "niemand scoort roem", "first": "de eerdere stoel scoort"})},
    "classic_tie": {"en": ("Takers equal to defenders", {"litige": "litige: their points wait in reserve",
                                                         "made": "made: both teams score"}),
                    "nl": ("Spelers gelijk aan tegenpartij", {"litige": "litige: hun punten in reserve",
                                                              "made": "gehaald: beide partijen scoren"})},
    "undertrump": {"en": ("Cannot beat an opponent's trump", {"forced": "must still trump lower (undertrump)",
                                                              "free": "may play any card"}),
                   "nl": ("Kan troef van tegenstander niet overtroeven", {"forced": "moet toch ondertroeven",
                                                                          "free": "mag elke kaart spelen"})},
    "dix_timing": {"en": ("Dix exchange", {"bidding": "right after the bidding", "deal": "after the last 3 cards"}),
                   "nl": ("Dix ruilen", {"bidding": "direct na het bieden", "deal": "na de laatste 3 kaarten"})},
    "trickless_roem": {"en": ("Roem of a player without tricks", {"wins": "dropped only if it wins the game",
                                                                  "target": "dropped if it reaches the target"}),
                       "nl": ("Roem van een speler zonder slag", {"wins": "vervalt alleen als hij daarmee wint",
                                                                  "target": "vervalt als hij het doel haalt"})},
    "target": {"en": ("Game to", {}), "nl": ("Partij tot", {})},
}


def rule_change_text(option: str, a, b, lang: str = "en") -> str | None:
    """A house rule changed, by its name and choices: ``Equal best roem (nobody scores roem → the
    earlier seat scores)``; ``None`` for an option without words here."""
    if option not in RULE_WORDS:
        return None
    name, choices = RULE_WORDS[option][lang]
    return f"{name} ({choices.get(str(a), a)} → {choices.get(str(b), b)})"


# ---- seats, calls, players ----------------------------------------------------------------------

def seat_text(seat: int, players: int, lang: str = "en", you: int | None = None) -> str:
    """``seat 0 (voorhand)``, ``stoel 3 (gever)``; ``(you)`` for the player's own seat."""
    word = "seat" if lang == "en" else "stoel"
    roles = []
    if you is not None and seat == you:
        roles.append("you" if lang == "en" else "jij")
    if seat == 0:
        roles.append("voorhand")
    elif seat == players - 1:
        roles.append("dealer" if lang == "en" else "gever")
    return f"{word} {seat}" + (f" ({', '.join(roles)})" if roles else "")


def partner_text(seat: int, players: int, lang: str = "en") -> str:
    """Classic: ``partner of seat 2`` / ``maat van stoel 2``."""
    other = (seat + 2) % players
    return f"partner of seat {other}" if lang == "en" else f"maat van stoel {other}"


def side_text(side: int, rules, lang: str = "en") -> str:
    """A side as the score sheet names it: ``seats 0 + 2`` in classic, else the seat."""
    if rules.partners:
        a, b = rules.sides[side]
        return f"{'seats' if lang == 'en' else 'stoel'} {a} + {b}"
    return seat_text(side, rules.players, lang)


CALL_WORDS = {"en": {"pass": "pass", "take": "take", "smous": "smous", "smous-play": "lets the smous play",
                     "smous-redeal": "asks a new deal", "koe": "koe (forced)"},
              "nl": {"pass": "pas", "take": "speelt", "smous": "smous", "smous-play": "laat de smous spelen",
                     "smous-redeal": "vraagt opnieuw delen", "koe": "koe (gedwongen)"}}


CALL_LABELS = {"en": {"pass": "pass", "take": "take", "smous": "smous"},
               "nl": {"pass": "passen", "take": "spelen", "smous": "smous"}}


def call_text(label: str, lang: str = "en") -> str:
    """A call as the take page's columns name it (``take h`` → ``take ♥``, ``passen``)."""
    name, _, suit = label.partition(" ")
    return CALL_LABELS[lang].get(name, name) + (f" {SUIT_SIGNS[suit]}" if suit else "")


def label_text(label: str, lang: str = "en") -> str:
    """A variant's label in words: ``piekjas3`` → ``Piekjas with 3 players``."""
    if label.startswith("piekjas"):
        return f"Piekjas {'with' if lang == 'en' else 'met'} {label[-1]} {'players' if lang == 'en' else 'spelers'}"
    return {"classic": "classic Belote" if lang == "en" else "klassieke belote", "dekjas": "Dekjas"}.get(label, label)


def short_label(label: str, lang: str = "en") -> str:
    """A variant's short name, for tables and pictures: ``Classic`` / ``Klassiek``, ``Piekjas 3``, ``Dekjas``."""
    if label.startswith("piekjas"):
        return f"Piekjas {label[-1]}"
    return {"classic": "Classic" if lang == "en" else "Klassiek"}.get(label, label.capitalize())


POLICY_WORDS = {
    "en": {"heuristic": "the rules of thumb (heuristic)", "net": "the learned player (net)",
           "pimc": "a searching player that guesses the hidden cards (pimc)",
           "dd": "a player that sees every card (dd)", "random": "random cards (random)",
           "calibrated": "the calibrated bidder"},
    "nl": {"heuristic": "vuistregels (heuristic)", "net": "de getrainde speler (net)",
           "pimc": "een zoekende speler die de verborgen kaarten raadt (pimc)",
           "dd": "een speler die alle kaarten ziet (dd)", "random": "willekeurige kaarten (random)",
           "calibrated": "de gekalibreerde bieder"},
}


def policy_text(name, lang: str = "en") -> str:
    if isinstance(name, dict):
        return "; ".join(f"{k}: {policy_text(v, lang)}" for k, v in name.items())
    base, _, params = str(name).partition(":")
    return POLICY_WORDS[lang].get(base, base) + (f" [{params}]" if params else "")


def who_plays(answer: dict, lang: str = "en") -> str:
    """Who bids and who plays the cards of a ``take`` answer (the CLI's ``--json``), in words."""
    inputs = answer["inputs"]
    bid, play = inputs["policies"]["bid"], inputs["policies"]["play"]
    prov = inputs.get("bid_policy") or {}
    if isinstance(prov, dict) and prov.get("file"):
        deals = number(prov.get("deals_per_iteration") or 0, lang, 0)
        what = label_text(str(prov.get("label")), lang)
        how = (f"the bidder calibrated for {what} (tuned on {deals} deals × {prov.get('iterations')} rounds, "
               f"the cards played by {policy_text(prov.get('play'), lang)})" if lang == "en" else
               f"de bieder gekalibreerd voor {what} (afgesteld op {deals} spellen × {prov.get('iterations')} "
               f"rondes, de kaarten gespeeld met {policy_text(prov.get('play'), lang)})")
    else:
        how = policy_text(bid, lang)
    if lang == "en":
        return (f"Who bids: {how}, for the other seats and for you after this call. "
                f"Who plays the cards: {policy_text(play, lang)}, in every seat (yours included).")
    return (f"Wie biedt: {how}, voor de andere stoelen en voor jou na deze keuze. "
            f"Wie speelt de kaarten: {policy_text(play, lang)}, op elke stoel (ook de jouwe).")


# ---- the verdict and its reason -------------------------------------------------------------------

Z95 = 1.959963984540054  # analyzer.runs.stats.Z95 (not imported: this module reads JSON only)


def _describe(call: dict, lang: str) -> str:
    """``CallStats.call.describe()``: ``pass``, ``take hearts``."""
    if call["call"] == "pass":
        return "pass" if lang == "en" else "passen"
    name = call["call"] if lang == "en" else {"take": "spelen", "smous": "smous"}.get(call["call"], call["call"])
    return f"{name} {SUIT_WORDS[lang][call['suit']]}"


def _calls(answer: dict) -> tuple[dict, dict]:
    by_label = {c["label"]: c for c in answer["calls"]}
    v = answer["verdict"]
    return by_label[v["best"]], by_label[v["runner_up"]]


def verdict(answer: dict, lang: str = "en") -> str:
    """The verdict of a ``take`` answer (the CLI's ``--json``); in English word for word
    ``TakeResult.verdict()`` (``tests/output/test_words.py``)."""
    best, second = _calls(answer)
    v = answer["verdict"]
    d = v["difference"]
    b, s = _describe(best, lang), _describe(second, lang)
    n = number(d["n"], lang, 0)
    if lang == "en":
        what = "net points" if v["objective"] == "net" else "points"
        if d["n"] > 1 and d["sd"] == 0 and d["mean"] == 0:
            return (f"{b.upper()} or {s}: the same hands follow on every deal (n={d['n']:,}; e.g. passing "
                    f"leads to the same contract), so they are worth the same.")
        if v["beyond_noise"]:
            return (f"{b.upper()}: it beats {s} by {d['mean']:+.1f} {what} a hand "
                    f"(95% CI {d['lo']:+.1f} to {d['hi']:+.1f}, n={d['n']:,}), beyond the noise.")
        return (f"{b.upper()} by a nose: {d['mean']:+.1f} ± {Z95 * d['se']:.1f} {what} a hand over {s} "
                f"(n={d['n']:,}) is inside the noise; the two are not distinguishable.")
    what = "netto punten" if v["objective"] == "net" else "punten"
    if d["n"] > 1 and d["sd"] == 0 and d["mean"] == 0:
        return (f"{b.upper()} of {s}: op elk spel volgen dezelfde handen (n={n}), dus ze zijn evenveel waard.")
    if v["beyond_noise"]:
        return (f"{b.upper()}: wint van {s} met {number(d['mean'], lang, 1, True)} {what} per spel "
                f"(95%-interval {number(d['lo'], lang, 1, True)} tot {number(d['hi'], lang, 1, True)}, n={n}), "
                f"buiten de ruis.")
    return (f"{b.upper()} met een neuslengte: {number(d['mean'], lang, 1, True)} ± {number(Z95 * d['se'], lang)} "
            f"{what} per spel boven {s} (n={n}) valt binnen de ruis; de twee zijn niet te onderscheiden.")


def _later_ways(inputs: dict, lang: str) -> str:
    """How a side that passes can still become troefmaker (RULES.md §3), as one phrase."""
    en = lang == "en"
    ways = []
    if inputs["variant"] == "classic":
        ways.append("through your partner" if en else "via je maat")
    if inputs["round"] == 1:
        ways.append("in round 2" if en else "in ronde 2")
    if inputs["variant"] != "classic" and inputs["seat"] == 0:
        ways.append("as koe when everyone passes twice" if en else "als koe wanneer iedereen twee keer past")
    if len(ways) > 1:
        ways = [", ".join(ways[:-1]) + (" or " if en else " of ") + ways[-1]]
    return ways[0] if ways else ""


def reason(answer: dict, lang: str = "en") -> str:
    """One line after the verdict, from the answer's numbers: which outcomes make the difference
    between the best call and the runner-up: becoming troefmaker later after passing, going nat,
    pit, a new deal after a smous."""
    best, second = _calls(answer)
    inputs = answer["inputs"]
    en = lang == "en"
    pct = lambda c, k: percent(c[k]["p"], lang)  # noqa: E731
    parts, later = [], []
    passing = next((c for c in (best, second) if c["call"] == "pass"), None)
    if passing is not None:
        ways = _later_ways(inputs, lang)
        wt = passing["we_take"]["p"]
        how = f": {ways}" if ways else ""
        if 0.005 <= wt < 0.5 and passing is second:
            later.append((f"after passing you become troefmaker in only {pct(passing, 'we_take')} of deals{how}"
                          if en else f"na passen word je maar in {pct(passing, 'we_take')} van de spellen "
                                     f"troefmaker{how}"))
        elif wt >= 0.005:
            later.append((f"after passing you still become troefmaker in {pct(passing, 'we_take')} of deals{how}"
                          if en else f"na passen word je toch troefmaker in {pct(passing, 'we_take')} van de "
                                     f"spellen{how}"))
        else:
            later.append("after passing you almost never become troefmaker" if en
                         else "na passen word je bijna nooit troefmaker")
    later_first = passing is best and passing["we_take"]["p"] >= 0.5
    for c in (best, second):
        if c["call"] == "pass":
            continue
        call = call_text(c["label"], lang)
        subject = "it" if c is best and not later_first else call  # "Why take ♥: it is made in ..."
        parts.append((f"{subject} is made in {pct(c, 'made')} of deals and goes nat in {pct(c, 'dedans')}" if en
                      else f"het wordt gehaald in {pct(c, 'made')} van de spellen en gaat nat in {pct(c, 'dedans')}"
                      if subject == "it" else
                      f"{call}: gehaald in {pct(c, 'made')} van de spellen, nat in {pct(c, 'dedans')}"))
        if c["not_played"]["p"] >= 0.01:
            parts.append((f"{call} ends in a new deal in {pct(c, 'not_played')}" if en
                          else f"{call} eindigt in {pct(c, 'not_played')} in opnieuw delen"))
    # what decides first: when passing wins and mostly makes you troefmaker anyway, that; else how taking ends
    parts = later + parts if later_first else parts + later
    if passing is not None and passing["we_take"]["p"] >= 0.005:
        parts.append((f"after passing your side makes it in {pct(passing, 'made')} and goes nat in "
                      f"{pct(passing, 'dedans')}" if en else
                      f"na passen haalt jouw kant het in {pct(passing, 'made')} en gaat nat in "
                      f"{pct(passing, 'dedans')}"))
    for key, en_word, nl_word in (("pit_against", "you win no trick (pit against you)", "haal je geen slag (pit)"),
                                  ("capot_for", "you win every trick (pit)", "haal je alle slagen (pit)")):
        a, b = best[key]["p"], second[key]["p"]
        if max(a, b) >= 0.01 and abs(a - b) >= 0.005:
            sa, sb = call_text(best["label"], lang), call_text(second["label"], lang)
            parts.append((f"{en_word} in {percent(a, lang)} after {sa}, {percent(b, lang)} after {sb}" if en else
                          f"na {sa} {nl_word} in {percent(a, lang)}, na {sb} in {percent(b, lang)}"))
    d = answer["verdict"]["difference"]
    if not answer["verdict"]["beyond_noise"] or (d["sd"] == 0 and d["mean"] == 0):
        head = "Why so close: " if en else "Waarom zo dicht bij elkaar: "
    else:
        head = f"Why {call_text(best['label'], lang)}: " if en else f"Waarom {call_text(best['label'], lang)}: "
    return head + "; ".join(parts) + "."


def bracket_verdict(bracket: dict, lang: str = "en") -> str:
    """``Bracket.verdict()`` from its ``--json`` (in English word for word): does the best call hold
    under every play policy?"""
    plays, results = bracket["plays"], bracket["results"]
    under = ", ".join(plays)
    best = [_describe(_calls(r)[0], lang).upper() for r in results]
    if bracket["holds"]:
        unsure = [p for p, r in zip(plays, results) if not r["verdict"]["beyond_noise"]]
        if lang == "en":
            noise = f" (inside the noise under {', '.join(unsure)})" if unsure else ""
            return f"The verdict holds: {best[0]} under {under}{noise}."
        noise = f" (binnen de ruis met {', '.join(unsure)})" if unsure else ""
        return f"Het oordeel houdt stand: {best[0]} met {under}{noise}."
    parts = ", ".join(f"{p}: {b}" for p, b in zip(plays, best))
    return (f"The verdict depends on how well the hands are played: {parts}." if lang == "en" else
            f"Het oordeel hangt af van hoe goed er gespeeld wordt: {parts}.")


def bracket_head(head: str, lang: str = "en") -> str:
    """A bracket column (``pimc, adjusted by heuristic``, ``pimc, plain``) in words."""
    play, _, rest = head.partition(", ")
    if rest.startswith("adjusted by "):
        return f"{play} ({PAGE[lang]['adjusted'].format(play=rest[len('adjusted by '):])})"
    if rest == "plain":
        return f"{play} ({PAGE[lang]['plain']})"
    return head


def situation_text(inputs: dict, lang: str = "en") -> str:
    """What the player sees (a ``take`` answer's ``inputs``) in one line of words."""
    en = lang == "en"
    label = inputs["variant"] + (str(inputs["players"]) if inputs["variant"] == "piekjas" else "")
    parts = [label_text(label, lang)[0].upper() + label_text(label, lang)[1:],
             ("you: " if en else "jij: ") + seat_text(inputs["seat"], inputs["players"], lang),
             ("round " if en else "ronde ") + str(inputs["round"])]
    if inputs.get("theirs"):
        parts += [("mine " if en else "mijn ") + cards_text(inputs["hand"].split(), lang),
                  ("theirs " if en else "hun ") + cards_text(inputs["theirs"].split(), lang)]
    else:
        parts.append(("hand " if en else "hand ") + cards_text(inputs["hand"].split(), lang))
    parts.append(("turned " if en else "gedraaid ") + card_text(inputs["turned"], lang))
    return " · ".join(parts)


def bid_note_text(note: str, lang: str = "en") -> str:
    """Why the bidders are the heuristic here (``policy_files.bid_note``), for a player."""
    if lang == "en":
        return note
    return "de bieders zijn hier de vuistregels: de gekalibreerde bieder is afgesteld op de standaardregels"


# ---- a deal as it was played --------------------------------------------------------------------------

def bid_text(bid: dict, players: int, lang: str = "en") -> str:
    """``seat 1: take ♥``; the koe marked as forced."""
    suit = f" {SUIT_SIGNS[bid['suit']]}" if bid.get("suit") else ""
    return f"{seat_text(bid['seat'], players, lang)}: {CALL_WORDS[lang].get(bid['call'], bid['call'])}{suit}"


def trick_text(t: int, trick: dict, players: int, lang: str = "en") -> str:
    """``Trick 3: seat 2 wins 24 points (A♥ 10♥ 7♥)``; the last trick's 10 included."""
    cards = cards_text([c for _, c in trick["plays"]], lang)
    who = seat_text(trick["winner"], players, lang)
    if lang == "en":
        return f"Trick {t + 1}: {who} wins {trick['points']} points ({cards})"
    return f"Slag {t + 1}: {who} haalt {trick['points']} punten ({cards})"


def declaration_text(d: dict, players: int, lang: str = "en") -> str:
    kind = {"en": {"sequence": "sequence", "carre": "four of a kind"},
            "nl": {"sequence": "reeks", "carre": "vier gelijke"}}[lang][d["kind"]]
    who = seat_text(d["seat"], players, lang)
    return (f"Roem: {who} declares a {kind} {cards_text(d['cards'], lang)} ({d['points']})" if lang == "en"
            else f"Roem: {who} meldt {kind} {cards_text(d['cards'], lang)} ({d['points']})")


def stuk_text(stuk: dict, players: int, second: bool, lang: str = "en") -> str:
    who = seat_text(stuk["seat"], players, lang)
    if lang == "en":
        return f"{who}: \"brok\" — stuk (K and Q of trump), 20 points" if second else f"{who}: \"stuk\""
    return f"{who}: 'brok' — stuk (heer en vrouw van troef), 20 punten" if second else f"{who}: 'stuk'"


def result_lines(record: dict, rules, lang: str = "en") -> list[str]:
    """The hand's result in the game's words: made, nat, litige or tie, pit, who scores the roem and
    the stuk, the points of each side and what each writes on the score sheet (``record``: DEAL_LOG.md's
    ``result``, ``troefmaker``, ``declarations``, ``stuk``)."""
    res = record["result"]
    en = lang == "en"
    taker = record["troefmaker"]
    tside = rules.side_of(taker)
    sides = range(len(rules.sides))
    who = side_text(tside, rules, lang)
    outcome = res["outcome"]
    if outcome == "made":
        head = f"Made: the troefmaker, {who}, has the most points." if en else \
            f"Gehaald: de troefmaker, {who}, heeft de meeste punten."
    elif outcome == "dedans":
        if rules.team_scoring:
            head = (f"Nat (dedans): the takers, {who}, have fewer points than the defenders, who score 162 and the "
                    f"roem." if en else f"Nat: de spelers, {who}, hebben minder punten dan de tegenpartij, die 162 "
                                        f"en de roem krijgt.")
        else:
            head = (f"Nat: the troefmaker, {who}, has fewer points than another player and scores nothing." if en
                    else f"Nat: de troefmaker, {who}, heeft minder punten dan een andere speler en krijgt niets.")
    elif rules.team_scoring:
        head = (f"Litige: equal points; the takers' {res['raw_totals'][tside]} wait in reserve for the next hand."
                if en else f"Litige: gelijke punten; de {res['raw_totals'][tside]} van de spelers gaan in reserve "
                           f"voor het volgende spel.")
    else:
        head = (f"Tie: the troefmaker's {res['raw_totals'][tside]} go to the reserve for the next hand." if en
                else f"Gelijk: de {res['raw_totals'][tside]} van de troefmaker gaan in reserve voor het volgende "
                     f"spel.")
    lines = [head]
    pit = res["pit"]
    if pit["all_tricks_side"] is not None:
        s = side_text(pit["all_tricks_side"], rules, lang)
        lines.append((f"Pit: {s} won every trick" + (" (capot: 252 card points)." if rules.team_scoring else
                                                      " (+100).")) if en else
                     (f"Pit: {s} haalde alle slagen" + (" (capot: 252 kaartpunten)." if rules.team_scoring else
                                                         " (+100).")))
    elif pit["trickless_sides"] and not rules.team_scoring:
        s = ", ".join(side_text(x, rules, lang) for x in pit["trickless_sides"])
        lines.append(f"Pit: {s} won no trick: 100 points each, shared by the others." if en else
                     f"Pit: {s} haalde geen slag: 100 punten elk, verdeeld over de anderen.")
    decls = record.get("declarations") or []
    if decls:
        if res["roem_side"] is None:
            lines.append("Roem: equal best declarations, nobody scores them." if en else
                         "Roem: gelijke hoogste roem, niemand krijgt hem.")
        else:
            s = res["roem_side"]
            won = sum(d["points"] for d in decls if rules.side_of(d["seat"]) == s)
            lines.append(f"Roem: {side_text(s, rules, lang)} has the best declaration and scores {won}." if en else
                         f"Roem: {side_text(s, rules, lang)} heeft de hoogste roem en krijgt {won}.")
    if record.get("stuk"):
        who = side_text(rules.side_of(record["stuk"]["seat"]), rules, lang)
        lines.append(f"Stuk: {who} scores 20." if en else f"Stuk: {who} krijgt 20.")
    pts = ", ".join(f"{side_text(s, rules, lang)} {res['raw_totals'][s]}" for s in sides)
    lines.append((f"Points (cards, last trick, roem and stuk): {pts}." if en else
                  f"Punten (kaarten, laatste slag, roem en stuk): {pts}."))
    scores = ", ".join(f"{side_text(s, rules, lang)} {res['scores'][s]}" for s in sides)
    rounded = "" if rules.team_scoring else (" (rounded to tens)" if en else " (afgerond op tientallen)")
    lines.append(f"Score sheet{rounded}: {scores}." if en else f"Scoreblad{rounded}: {scores}.")
    if res.get("reserve_after"):
        lines.append(f"Reserve for the next hand: {res['reserve_after']}." if en else
                     f"Reserve voor het volgende spel: {res['reserve_after']}.")
    return lines


# ---- why net plays its card (analyzer.players.net_reasons) ----------------------------------------

# net's card features (analyzer.players.net.FEATURES, by index) as what a card does, in both languages
NET_FEATURE_WORDS = {
    0: ("is the rules of thumb's card", "is de kaart van de vuistregels"),
    1: ("is a trump", "is troef"),
    2: ("has points", "heeft punten"),
    3: ("ranks higher in its suit", "is hoger in zijn kleur"),
    4: ("is the master of its suit", "is baas in zijn kleur"),
    6: ("would lead a trump", "zou troef uitkomen"),
    7: ("would lead a master card", "zou een baas uitkomen"),
    8: ("would lead points", "zou punten uitkomen"),
    9: ("would take the trick so far", "zou de slag voorlopig nemen"),
    10: ("would take the trick for sure", "zou de slag zeker nemen"),
    11: ("would win the points on the table", "zou de punten op tafel winnen"),
    12: ("would load the partner's trick", "zou de slag van de maat laden"),
    13: ("would trump the partner's trick", "zou de slag van de maat troeven"),
    14: ("would give points to the trick's winner", "zou punten aan de winnaar van de slag geven"),
    15: ("would ruff", "zou introeven"),
    16: ("would draw trumps", "zou troef trekken"),
    17: ("would lead a trump while others still hold trumps", "zou troef uitkomen terwijl anderen nog troef hebben"),
    18: ("is of a longer suit", "is van een langere kleur"),
    19: ("is the lowest of its suit", "is de laagste van zijn kleur"),
    20: ("is the highest of its suit", "is de hoogste van zijn kleur"),
    21: ("would spend points early in the hand", "zou vroeg in het spel punten spelen"),
    22: ("is the rules of thumb's card, for the taker's side", "is de kaart van de vuistregels, voor de spelende kant"),
    23: ("would overtrump", "zou overtroeven"),
    24: ("would lead a suit an opponent is out of", "zou een kleur uitkomen waarin een tegenstander renonce is"),
    25: ("would lead a suit the partner is out of", "zou een kleur uitkomen waarin de maat renonce is"),
    26: ("could be ruffed by an opponent after it", "kan door een tegenstander erna getroefd worden"),
    27: ("has more unseen cards of its suit out", "heeft meer ongeziene kaarten van zijn kleur buiten"),
    28: ("would be beaten by a card a later seat shows", "zou geslagen worden door een kaart die een latere stoel toont"),
    29: ("would uncover a face-down card", "zou een dichte kaart blootleggen"),
    30: ("would lead a suit the other shows none of", "zou een kleur uitkomen die de ander niet open heeft"),
    31: ("would break a declaration still to make", "zou roem breken die nog te melden is"),
    32: ("would be taken by the likely reply", "zou door het waarschijnlijke antwoord genomen worden"),
    33: ("would bring points after the reply", "zou na het antwoord punten opleveren"),
    34: ("would take the trick and keep it", "zou de slag nemen en houden"),
}


def net_reason_text(reason: dict, lang: str = "en") -> str:
    """``net plays 7♠ rather than 10♠: 10♠ would give points to the trick's winner; ...`` from
    ``questions.review.net_reason``'s JSON: the features that decided, largest first, each said of
    the card that has it (the chosen card's good ones, the runner-up's bad ones)."""
    en = lang == "en"
    k = 0 if en else 1
    parts = []
    for f in reason["features"]:
        what = NET_FEATURE_WORDS.get(f["feature"], (f["name"], f["name"]))[k]
        if f["on_card"]:  # a feature of the card played that counts for it
            parts.append(f"{card_text(reason['card'], lang)} {what}")
        else:  # a feature of the runner-up that counts against it
            parts.append(f"{card_text(reason['other'], lang)} {what}, " + ("which counts against it" if en else
                                                                             "wat tegen hem telt"))
    card, other = card_text(reason["card"], lang), card_text(reason["other"], lang)
    head = f"net plays {card} rather than {other}" if en else f"net speelt {card} liever dan {other}"
    return head + (": " + "; ".join(parts) if parts else "") + "."


# ---- why a card may not be played ---------------------------------------------------------------

REFUSAL_WORDS = {
    "en": {"not_held": "seat {seat} does not hold {card}", "not_up": "{card} is not face up in seat {seat}'s piles",
           "follow": "{led} was led and seat {seat} holds {led}: it must follow suit (RULES.md §4.1)",
           "trump_led_higher": "trump was led: seat {seat} must play a trump higher than {best} (RULES.md §4.2)",
           "trump_led": "trump was led: seat {seat} must play a trump (RULES.md §4.2)",
           "trump": "seat {seat} cannot follow {led}: it must trump (RULES.md §4.3)",
           "overtrump": "seat {seat} cannot follow {led}: it must trump higher than {best} (RULES.md §4.3)",
           "undertrump": "seat {seat} can neither follow {led} nor beat {best}: it must still trump lower "
                         "(undertrumping is compulsory, RULES.md §4.3)",
           "line": "card {k}, {card}, is not legal for seat {seat} (its legal cards: {legal}): {why}"},
    "nl": {"not_held": "stoel {seat} heeft {card} niet", "not_up": "{card} ligt niet open bij stoel {seat}",
           "follow": "{led} werd gevraagd en stoel {seat} heeft {led}: hij moet bekennen (RULES.md §4.1)",
           "trump_led_higher": "er werd troef gevraagd: stoel {seat} moet hoger troeven dan {best} (RULES.md §4.2)",
           "trump_led": "er werd troef gevraagd: stoel {seat} moet troef spelen (RULES.md §4.2)",
           "trump": "stoel {seat} kan {led} niet bekennen: hij moet troeven (RULES.md §4.3)",
           "overtrump": "stoel {seat} kan {led} niet bekennen: hij moet hoger troeven dan {best} (RULES.md §4.3)",
           "undertrump": "stoel {seat} kan {led} niet bekennen en {best} niet overtroeven: hij moet toch "
                         "ondertroeven (verplicht, RULES.md §4.3)",
           "line": "kaart {k}, {card}, mag niet door stoel {seat} (toegestaan: {legal}): {why}"},
}


def refusal_text(why: str, facts: dict, k: int, lang: str = "en", piles: bool = False, notation: bool = False) -> str:
    """The line refusing the ``k``-th card of the plays (``analyzer.game.played.refusal``'s ``why`` and
    ``facts``). ``notation``: the cards as typed (``7h``), as the command line writes them; else as
    a player reads them (``7♥``)."""
    w = REFUSAL_WORDS[lang]
    show = (lambda c: c) if notation else (lambda c: card_text(c, lang))  # noqa: E731
    led = SUIT_WORDS[lang][facts["led"]] if facts.get("led") else ""
    key = "not_up" if why == "not_held" and piles else why
    reason_text = w[key].format(seat=facts["seat"], card=show(facts["card"]), led=led,
                                best=show(facts["best"]) if facts.get("best") else "")
    return w["line"].format(k=k, card=show(facts["card"]), seat=facts["seat"],
                            legal=" ".join(show(c) for c in facts["legal"]), why=reason_text)


# ---- the pages --------------------------------------------------------------------------------

PAGE = {
    "en": {
        "title": "belote-analyzer", "nav_take": "Should I take?", "nav_review": "Review a deal",
        "nav_reports": "Reports", "nav_words": "Words", "copy": "Copy link", "copied": "Link copied",
        "copy_fail": "Copy this link:", "stop": "Stop", "lang_name": "English",
        "cli": "The same on the command line:",
        "waiting": "waiting for a free place (number {place} in the queue)",
        "progress": "{stage}: {done} of {total}", "eta": ", about {s} s left", "finishing": ", finishing",
        "compiling": " (the first question after a fresh install compiles for minutes)",
        "variant": "Game", "v_classic": "Classic Belote (4 players, partners)", "v_piekjas": "Piekjas",
        "v_dekjas": "Dekjas (2 players, piles)", "players": "Players", "seat": "Your seat", "round": "Bidding round",
        "round1": "1", "round2": "2 (everyone passed once)", "house_rules": "House rules", "default": "default",
        "play": "Who plays the cards", "click_for": "Click the cards of:", "your_hand": "your hand",
        "turned": "the turned card", "your_up": "your face-up cards", "their_up": "their face-up cards",
        "turned_dek": "the turned card (the dealer's last face-up card)", "hand_n": "Hand ({n} cards)",
        "mine": "Mine (8 face-up)", "theirs": "Theirs (8 face-up)", "turned_field": "Turned",
        "deals": "Deals", "seed": "Seed", "bracket": "Also under other players (after the verdict):",
        "score": "Score at the table (optional)", "score_hint_sides": "ours-theirs, e.g. 820-640",
        "score_hint_seats": "every seat's total, voorhand first",
        "game_head": "Chance to win the game from {at} (to {target}):",
        "game_verdict": "Verdict by the chance to win:", "game_table": "Chances from the {note}.",
        "hand_verdict": "Verdict by the points of this hand:",
        "ask_take": "Should I take?", "n_line": "{n} deals, each choice played out on the same deals (seed "
                                                "{seed}); ± is the 95% margin.",
        "share": "Every share is of all deals, whoever took: made + nat + tie = you become troefmaker; a call that "
                 "lets the others take shows low rates, not failure.",
        "acceptance": "The earlier seats all passed in {rate} of {n} sampled deals (only those count).",
        "bracket_title": "Under other players", "hands_time": "{hands} hands in {s} s.",
        "call": "call", "adjusted": "adjusted by {play}", "plain": "plain",
        "review_src": "Which deal", "src_own": "Your own deal", "src_random": "A random deal",
        "src_log": "A deal of a log", "src_record": "A pasted record", "deal": "Deal", "log": "Log",
        "no_logs": "no log was given: start the server with belote serve --log FILE",
        "record_hint": "one line of a deal log (belote simulate --log)",
        "with_pimc": "show the card pimc plays (slower)", "ask_review": "Review",
        "give_to": "Give cards to:", "face_up": "face up", "face_down": "face down (under)",
        "trump": "Trump", "troefmaker": "Troefmaker", "bidding": "Bidding", "bidding_opt": "Bidding (optional)",
        "undo": "Undo", "clear": "Clear", "deal_rest": "Deal the rest at random",
        "step_deal": "1. Deal: choose a seat, then click its cards",
        "step_bid": "2. Trump and troefmaker (and, if you like, the bidding call by call)",
        "step_play": "3. Play: click the cards in the order they fell",
        "to_play": "{seat} to play", "over": "All cards are played.", "legal_now": "Legal now: {cards}",
        "cards_needed": "{seat}: {have} of {need} cards", "dealt_ok": "Every seat has its cards.",
        "bids_done": "The bidding is over.", "next_call": "Next call, {seat}:",
        "bid_needs_turned": "give the turned card to enter the bidding call by call",
        "headline": "Deal {deal} · {variant} · trump {trump} · troefmaker {taker}",
        "headline_own": "Your deal · {variant} · trump {trump} · troefmaker {taker}",
        "koe_mark": " (koe: forced)", "turned_card": "Turned card", "played_deal": "How it was played",
        "result": "Result", "no_bids": "(the bidding was not given)",
        "exact": "Every value is exact: perfect play with open cards (card points of the troefmaker's side).",
        "paranoid": "Piekjas with 3-4 players: the troefmaker's margin against the others playing together, a "
                    "pessimistic value, not an exact one.",
        "turned_at": " The deal turned in trick {trick} ({change}).",
        "step": "card {k} of {n}", "over_line": "The deal is over: the troefmaker's side ends with {value}.",
        "over_margin": "The deal is over: the troefmaker's margin is {value}.",
        "forced": "Trick {trick}: {seat} plays {card}, its only legal card.",
        "gives": "Trick {trick}: {seat} plays {card}, giving away {loss} card points (best: {best}{pimc}).",
        "as_best": "Trick {trick}: {seat} plays {card}, as good as the best ({best}{pimc}).",
        "pimc_plays": "; pimc plays {card}",
        "legal_head": ["legal card", "value", "gives away", ""], "played": "played",
        "knew_head": "by what the seat knew ({worlds} worlds)",
        "kind_error": "An error: by what the seat knew, {card} gives away {loss} [{lo}, {hi}] card points against "
                      "{best}, beyond the noise.",
        "kind_bad luck": "Bad luck: by what the seat knew, {card} was its best card (or as good as it could tell); "
                         "it lost on the true deal, which the seat could not see.",
        "kind_lucky": "Lucky: by what the seat knew, {card} gives away {loss} [{lo}, {hi}] card points against {best}, "
                      "but not on the true deal.",
        "kind_": "By what the seat knew, {card} was as good as its best card.",
        "luck_total": "By what each seat knew: {parts}. Error + bad luck − lucky = what the cards gave away.",
        "game_line": "With perfect play after it, {card} turns {best} into {played}: {cost} net points for its side.",
        "bot_button": "The bot plays on from here", "bot_wait": "The bot is playing…",
        "bot_head": "From card {k} on, {bot} plays every seat, each from what it sees: {cards}.",
        "bot_with": "With the bot:", "bot_played": "As played:",
        "outcome_words": {"made": "made", "dedans": "nat", "tie": "litige/tie", "made + pit": "made with pit",
                          "dedans + pit": "nat with pit", "tie + pit": "tie with pit"},
        "luck_part": "{seat} {error} error(s) ({ep} points), {bad} bad luck ({bp}), {lucky} lucky ({lp})",
        "legend": "Legal cards by what they give away against the best: ", "legend_parts": ["nothing", "1–5",
                                                                                            "6–15", "more"],
        "legend_end": "; P: pimc's card; black frame: the card played.",
        "chart_title": "The deal's value after every card",
        "chart_exact": "cards played → (grid: tricks); value: the troefmaker's side's card points with perfect play "
                       "from here",
        "chart_margin": "cards played → (grid: tricks); value: the troefmaker's margin against the others together "
                        "(pessimistic)",
        "given_title": "Given away", "given_head": ["seat", "given away", "cards valued"],
        "note_skipped": "Deal {asked} was not played ({why}); this is deal {deal}, the first played one after it.",
        "glossary_title": "Words players use", "glossary_intro": "The terms of Belote, Piekjas and Dekjas as the "
                                                                "pages use them (RULES.md §8).",
        "first_trick": "the first trick", "trick_n": "trick {t}", "trick_done": "trick {t} (done)",
        "reports_title": "Reports", "reports_intro": "The reports in the server's reports folder (belote report "
                                                     "writes them), newest first.",
        "no_reports": "No report yet: make report (or belote report) writes one.",
        "direction": "Play goes {dir}.", "clockwise": "clockwise", "counter": "counter-clockwise",
        "you": "you", "side": "side",
    },
    "nl": {
        "title": "belote-analyzer", "nav_take": "Moet ik spelen?", "nav_review": "Spel nabespreken",
        "nav_reports": "Rapporten", "nav_words": "Woorden", "copy": "Kopieer link", "copied": "Link gekopieerd",
        "copy_fail": "Kopieer deze link:", "stop": "Stop", "lang_name": "Nederlands",
        "cli": "Hetzelfde op de opdrachtregel:",
        "waiting": "wacht op een vrije plaats (nummer {place} in de rij)",
        "progress": "{stage}: {done} van {total}", "eta": ", nog ongeveer {s} s", "finishing": ", bijna klaar",
        "compiling": " (de eerste vraag na een verse installatie compileert minuten lang)",
        "variant": "Spel", "v_classic": "Klassieke belote (4 spelers, maten)", "v_piekjas": "Piekjas",
        "v_dekjas": "Dekjas (2 spelers, stapels)", "players": "Spelers", "seat": "Jouw plaats",
        "round": "Biedronde", "round1": "1", "round2": "2 (iedereen heeft één keer gepast)",
        "house_rules": "Huisregels", "default": "standaard", "play": "Wie speelt de kaarten",
        "click_for": "Klik de kaarten van:", "your_hand": "jouw hand", "turned": "de gedraaide kaart",
        "your_up": "jouw open kaarten", "their_up": "hun open kaarten",
        "turned_dek": "de gedraaide kaart (de laatste open kaart van de gever)", "hand_n": "Hand ({n} kaarten)",
        "mine": "Mijn (8 open)", "theirs": "Hun (8 open)", "turned_field": "Gedraaid",
        "deals": "Spellen", "seed": "Seed", "bracket": "Ook met andere spelers (na het oordeel):",
        "score": "Stand (optioneel)", "score_hint_sides": "wij-zij, bv. 820-640",
        "score_hint_seats": "het totaal van elke stoel, voorhand eerst",
        "game_head": "Kans om het spel te winnen vanuit {at} (tot {target}):",
        "game_verdict": "Oordeel naar de winkans:", "game_table": "Winkansen uit de {note}.",
        "hand_verdict": "Oordeel naar de punten van deze hand:",
        "ask_take": "Moet ik spelen?", "n_line": "{n} spellen, elke keuze uitgespeeld op dezelfde spellen (seed "
                                                 "{seed}); ± is de marge van 95%.",
        "share": "Elk percentage is van alle spellen, wie ook speelde: gehaald + nat + gelijk = jij wordt "
                 "troefmaker; een keuze die de anderen laat spelen, toont lage percentages, geen mislukking.",
        "acceptance": "De eerdere spelers pasten allemaal in {rate} van {n} getrokken spellen (alleen die tellen).",
        "bracket_title": "Met andere spelers", "hands_time": "{hands} handen in {s} s.",
        "call": "keuze", "adjusted": "bijgesteld met {play}", "plain": "zonder bijstelling",
        "review_src": "Welk spel", "src_own": "Je eigen spel", "src_random": "Een willekeurig spel",
        "src_log": "Een spel uit een log", "src_record": "Een geplakt record", "deal": "Spel", "log": "Log",
        "no_logs": "er is geen log gegeven: start de server met belote serve --log BESTAND",
        "record_hint": "één regel van een spellog (belote simulate --log)",
        "with_pimc": "toon de kaart die pimc speelt (trager)", "ask_review": "Nabespreken",
        "give_to": "Geef kaarten aan:", "face_up": "open", "face_down": "gedekt (eronder)",
        "trump": "Troef", "troefmaker": "Troefmaker", "bidding": "Bieden", "bidding_opt": "Bieden (optioneel)",
        "undo": "Terug", "clear": "Wissen", "deal_rest": "Deel de rest willekeurig",
        "step_deal": "1. Delen: kies een stoel en klik zijn kaarten",
        "step_bid": "2. Troef en troefmaker (en, als je wilt, het bieden bod voor bod)",
        "step_play": "3. Spelen: klik de kaarten in de volgorde waarin ze vielen",
        "to_play": "{seat} is aan de beurt", "over": "Alle kaarten zijn gespeeld.",
        "legal_now": "Nu toegestaan: {cards}", "cards_needed": "{seat}: {have} van {need} kaarten",
        "dealt_ok": "Iedere stoel heeft zijn kaarten.", "bids_done": "Het bieden is voorbij.",
        "next_call": "Volgend bod, {seat}:",
        "bid_needs_turned": "kies de gedraaide kaart om het bieden bod voor bod in te voeren",
        "headline": "Spel {deal} · {variant} · troef {trump} · troefmaker {taker}",
        "headline_own": "Jouw spel · {variant} · troef {trump} · troefmaker {taker}",
        "koe_mark": " (koe: gedwongen)", "turned_card": "Gedraaide kaart", "played_deal": "Hoe het gespeeld werd",
        "result": "Uitslag", "no_bids": "(het bieden is niet gegeven)",
        "exact": "Elke waarde is exact: perfect spel met open kaarten (kaartpunten van de kant van de "
                 "troefmaker).",
        "paranoid": "Piekjas met 3-4 spelers: de marge van de troefmaker tegen de anderen samen, een "
                    "pessimistische waarde, geen exacte.",
        "turned_at": " Het spel kantelde in slag {trick} ({change}).",
        "step": "kaart {k} van {n}", "over_line": "Het spel is uit: de kant van de troefmaker eindigt met {value}.",
        "over_margin": "Het spel is uit: de marge van de troefmaker is {value}.",
        "forced": "Slag {trick}: {seat} speelt {card}, zijn enige toegestane kaart.",
        "gives": "Slag {trick}: {seat} speelt {card} en geeft {loss} kaartpunten weg (beste: {best}{pimc}).",
        "as_best": "Slag {trick}: {seat} speelt {card}, even goed als de beste ({best}{pimc}).",
        "pimc_plays": "; pimc speelt {card}",
        "legal_head": ["toegestane kaart", "waarde", "geeft weg", ""], "played": "gespeeld",
        "knew_head": "naar wat de stoel wist ({worlds} werelden)",
        "kind_error": "Een fout: naar wat de stoel wist geeft {card} {loss} [{lo}, {hi}] kaartpunten weg tegen {best}, "
                      "buiten de ruis.",
        "kind_bad luck": "Pech: naar wat de stoel wist was {card} zijn beste kaart (of even goed voor zover hij kon "
                         "zien); ze verloor in het echte spel, dat de stoel niet kon zien.",
        "kind_lucky": "Geluk: naar wat de stoel wist geeft {card} {loss} [{lo}, {hi}] kaartpunten weg tegen {best}, "
                      "maar niet in het echte spel.",
        "kind_": "Naar wat de stoel wist was {card} even goed als zijn beste kaart.",
        "luck_total": "Naar wat elke stoel wist: {parts}. Fout + pech − geluk = wat de kaarten weggaven.",
        "game_line": "Met perfect spel erna maakt {card} van {best} {played}: {cost} netto punten voor zijn kant.",
        "bot_button": "De bot speelt verder vanaf hier", "bot_wait": "De bot speelt…",
        "bot_head": "Vanaf kaart {k} speelt {bot} elke stoel, elk met wat hij ziet: {cards}.",
        "bot_with": "Met de bot:", "bot_played": "Zoals gespeeld:",
        "outcome_words": {"made": "gehaald", "dedans": "nat", "tie": "litige/gelijk", "made + pit": "gehaald met pit",
                          "dedans + pit": "nat met pit", "tie + pit": "gelijk met pit"},
        "luck_part": "{seat} {error} fout(en) ({ep} punten), {bad} pech ({bp}), {lucky} geluk ({lp})",
        "legend": "Toegestane kaarten naar wat ze weggeven tegen de beste: ", "legend_parts": ["niets", "1–5",
                                                                                                "6–15", "meer"],
        "legend_end": "; P: de kaart van pimc; zwarte rand: de gespeelde kaart.",
        "chart_title": "De waarde van het spel na elke kaart",
        "chart_exact": "gespeelde kaarten → (raster: slagen); waarde: kaartpunten van de kant van de troefmaker "
                       "bij perfect spel vanaf hier",
        "chart_margin": "gespeelde kaarten → (raster: slagen); waarde: marge van de troefmaker tegen de anderen "
                        "samen (pessimistisch)",
        "given_title": "Weggegeven", "given_head": ["stoel", "weggegeven", "kaarten gewaardeerd"],
        "note_skipped": "Spel {asked} werd niet gespeeld ({why}); dit is spel {deal}, het eerste gespeelde "
                        "daarna.",
        "glossary_title": "Woorden die spelers gebruiken", "glossary_intro": "De termen van Belote, Piekjas en "
                                                                             "Dekjas zoals deze pagina's ze "
                                                                             "gebruiken (RULES.md §8).",
        "first_trick": "de eerste slag", "trick_n": "slag {t}", "trick_done": "slag {t} (klaar)",
        "reports_title": "Rapporten", "reports_intro": "De rapporten in de rapportenmap van de server (belote "
                                                       "report schrijft ze), nieuwste eerst.",
        "no_reports": "Nog geen rapport: make report (of belote report) schrijft er een.",
        "direction": "Er wordt {dir} gespeeld.", "clockwise": "met de klok mee", "counter": "tegen de klok in",
        "you": "jij", "side": "kant",
    },
}


def page_words(lang: str) -> dict:
    """What a page needs in ``lang``: its labels and sentences, the terms (each with its
    explanation), the glossary, the take rows, the house rules, calls, policies and suits."""
    return {
        "lang": lang, "ui": PAGE[lang],
        "terms": {k: {"word": v[lang][0], "explain": v[lang][1]} for k, v in TERMS.items()},
        "glossary": glossary(lang),
        "rows": {k: {"label": v[lang][0], "explain": v[lang][1], "term": ROW_TERMS.get(k)} for k, v in ROWS.items()},
        "rules": {k: {"name": v[lang][0], "choices": v[lang][1]} for k, v in RULE_WORDS.items()},
        "calls": CALL_WORDS[lang], "call_labels": CALL_LABELS[lang], "policies": POLICY_WORDS[lang], "suits": SUIT_WORDS[lang],
        "ranks": RANKS[lang], "seat": "seat" if lang == "en" else "stoel",
        "dealer": "dealer" if lang == "en" else "gever",
    }


__all__ = ["LANGS", "TERMS", "GLOSSARY", "ROWS", "RULE_WORDS", "PAGE", "language", "card_text", "cards_text",
           "percent", "number", "glossary", "term", "seat_text", "partner_text", "side_text", "call_text", "policy_text", "label_text",
           "who_plays", "verdict", "bracket_verdict", "bracket_head", "situation_text", "bid_note_text", "reason",
           "bid_text", "trick_text", "declaration_text", "stuk_text", "result_lines", "refusal_text", "page_words"]
