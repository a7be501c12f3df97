"""The report's opening summary, for a club organiser or a player who reads one screen: which
variant is the most balanced, from which cards taking pays in each variant and seat, which
house rules change the game and by how much; in English or Dutch, each number with its 95%
interval and a link down to the section behind it.

Like the first page's findings (``analyzer.output.findings``), every sentence is written from
the report's own tables, so each function takes those frames and can be tested on frames made
by hand:

- ``balance``: the balance's seat table (``BalanceResult.seat_table()``, ``balance_seats.csv``);
- ``seat_classes``: per variant, its bidding table's classes by round, seat, trump honours and
  side aces (``TableResult.view(["round", "seat", "honours", "side_aces"])``,
  ``table_<label>_seat_honours_aces.csv``);
- ``impact``: what each house rule changes (``ImpactResult.table()``, ``rules_impact.csv``).
"""

from __future__ import annotations

from pathlib import Path

import pandas as pd

from analyzer.output.findings import _read
from analyzer.output.words import RULE_WORDS, number, short_label
from analyzer.questions.take import seat_name
from analyzer.rules import Rules

MIN_N = 200  # the decisions a class needs before it counts for or against a rule (findings.class_findings)
HONOURS = ("J", "9", "A", "T")  # the order of a class's honours string (``J9..``: the jack and the nine)
HEADLINE = ("taken", "made", "dedans", "tie", "roem_points", "dix", "taker_score", "hands_per_game")
"""The statistics a house rule's effect is quoted by, where one moved beyond the noise (what an organiser
weighs: how often hands are taken and made, roem, the taker's score, the length of a game); else its largest."""

WORDS = {
    "en": {
        "title": "In short",
        "intro": "For a club organiser or a player: each number with its 95% interval, the details linked.",
        "other": "Nederlands: [samenvatting]({file}).",
        "balanced": "**Which variant is the most balanced?**",
        "gap": ("How far the seat furthest from a fair share of the games lies from it (points of percentage, "
                "{games} games per variant), from the most to the least balanced: {parts}."),
        "extreme": " ({who} wins {p} of the games against a fair {fair})",
        "parted": "The most balanced is {most}, the least {least}.",
        "unparted": "The intervals of the most and the least balanced overlap: no ranking is established.",
        "pays": "**From which cards does taking pay?**",
        "pays_intro": ("In round 1 (the turned suit is trump), the weakest hands from which taking gains over "
                       "passing beyond the noise, in net points a hand, by seat: `J9` is the trump jack and nine, "
                       "`A` and `10` the trump ace and ten, `+1` at least one ace of another suit; every hand "
                       "holding at least those cards pays too, in every class with {min_n} decisions or more. The "
                       "number is that of the weakest such hand."),
        "nothing": "none beyond the noise",
        "no_data": "too few decisions",
        "no_honour": "no trump honour",
        "or": " or ",
        "rules": "**Which house rules change the game?**",
        "rule_line": "**{name}**, {a} → {b} — {effect} in {variant}; beyond the noise in {k} of {n} variants.",
        "koe_note": ("*None beyond the noise* at voorhand: a voorhand who passes in Piekjas and Dekjas still "
                     "chooses trump in round 2 or becomes troefmaker as koe when everyone passes twice, so taking the "
                     "turned suit is seldom worth more (the Piekjas example of section 1 gives the numbers)."),
        "quiet": "Changing nothing measured beyond the noise: {names}.",
        "none_moved": "No house rule changes a measured statistic beyond what chance alone gives.",
        "details": "details",
        "variant": "variant",
        "seat": {"voorhand": "voorhand", "2nd": "2nd", "3rd": "3rd", "dealer": "dealer"},
        "units": {"pp": "pp", "points": "points", "hands": "hands"},
    },
    "nl": {
        "title": "In het kort",
        "intro": ("Voor een clubbestuurder of een speler: elk getal met zijn 95%-interval, de details (in het "
                  "Engels) gekoppeld."),
        "other": "English: [summary]({file}).",
        "balanced": "**Welk spel is het meest in evenwicht?**",
        "gap": ("Hoe ver de stoel die het verst van een eerlijk deel van de partijen zit ervan af ligt "
                "(procentpunten, {games} partijen per spel), van meest naar minst in evenwicht: {parts}."),
        "extreme": " ({who} wint {p} van de partijen tegen eerlijk {fair})",
        "parted": "Het meest in evenwicht is {most}, het minst {least}.",
        "unparted": ("De intervallen van het meest en het minst evenwichtige spel overlappen: er is geen volgorde "
                     "vastgesteld."),
        "pays": "**Vanaf welke kaarten loont spelen?**",
        "pays_intro": ("In ronde 1 (de gedraaide kleur is troef) de zwakste handen waarmee spelen meer oplevert dan "
                       "passen, buiten de ruis, in netto punten per spel, per stoel: `B9` is troefboer en nel, `A` "
                       "en `10` troefaas en -tien, `+1` minstens één aas van een andere kleur; elke hand met minstens "
                       "die kaarten loont ook, in elke klasse met {min_n} beslissingen of meer. Het getal is dat van "
                       "de zwakste zulke hand."),
        "nothing": "geen buiten de ruis",
        "no_data": "te weinig beslissingen",
        "no_honour": "geen troefhonneur",
        "or": " of ",
        "rules": "**Welke huisregels veranderen het spel?**",
        "rule_line": "**{name}**, {a} → {b} — {effect} in {variant}; buiten de ruis in {k} van de {n} spellen.",
        "koe_note": ("*Geen buiten de ruis* op voorhand: een voorhand die past kiest in Piekjas en Dekjas toch troef "
                     "in ronde 2, of wordt als koe troefmaker wanneer iedereen twee keer past, dus de gedraaide kleur "
                     "spelen levert zelden meer op (het Piekjas-voorbeeld van sectie 1 geeft de getallen)."),
        "quiet": "Veranderen niets dat buiten de ruis gemeten is: {names}.",
        "none_moved": "Geen huisregel verandert een gemeten getal meer dan toeval alleen zou geven.",
        "details": "details",
        "variant": "spel",
        "seat": {"voorhand": "voorhand", "2nd": "2e", "3rd": "3e", "dealer": "gever"},
        "units": {"pp": "procentpunt", "points": "punten", "hands": "spellen"},
    },
}

# what each house rule's statistics are called (analyzer.questions.impact.hand_stats, game_stats), in Dutch;
# English uses the table's own labels. A key with {s}: a seat's statistic.
STAT_WORDS_NL = {
    "taken": "gespeeld (elke ronde, koe)", "take_round1": "gespeeld in ronde 1", "take_round2": "gespeeld in ronde 2",
    "koe": "koe (gedwongen troefmaker)", "passed_out": "iedereen past", "smous_offered": "smous aangeboden",
    "redeal": "opnieuw gedeeld na een smous", "made": "gehaald", "dedans": "nat", "tie": "gelijk / litige",
    "capot_for": "pit voor de troefmaker", "pit_against": "pit tegen de troefmaker",
    "hands_with_trickless": "een speler zonder slag", "roem_scored": "roem gescoord",
    "roem_points": "roempunten per spel", "stuk": "stuk", "dix": "Dix geruild", "taker_score": "score van de troefmaker",
    "score_seat{s}": "score van stoel {s}", "advantage_seat{s}": "voordeel van stoel {s}",
    "hands_per_game": "spellen per partij", "p_win_first_seat{s}": "kans op de partij, stoel {s} in het eerste spel",
    "capped": "partijen afgebroken",
}


def _stat_text(key: str, label: str, lang: str) -> str:
    if lang == "en":
        return label
    if key in STAT_WORDS_NL:
        return STAT_WORDS_NL[key]
    base, _, seat = key.rpartition("seat")
    return STAT_WORDS_NL.get(base + "seat{s}", label).format(s=seat)


def _ci(m: float, lo: float, hi: float, lang: str, digits: int = 1, sign: bool = True) -> str:
    return f"{number(m, lang, digits, sign)} [{number(lo, lang, digits, sign)}, {number(hi, lang, digits, sign)}]"


def _pct(p: float, lo: float, hi: float, lang: str) -> str:
    return f"{number(100 * p, lang, 1, False)}% [{number(100 * lo, lang, 1, False)}, {number(100 * hi, lang, 1, False)}]"


def _seat_word(seat: int, players: int, lang: str) -> str:
    return WORDS[lang]["seat"].get(seat_name(seat, players), seat_name(seat, players))


# ---- the most balanced variant ---------------------------------------------------------------------

def balance_lines(seats: pd.DataFrame, link: str, lang: str = "en") -> list[str]:
    """Every variant by how far its seat furthest from a fair share of the games lies from it
    (``|P(win) − fair|``, in points of percentage, with its interval); the most and the least
    balanced named only where their intervals part."""
    w = WORDS[lang]
    rows = []
    for label, g in seats.groupby("variant", sort=False):
        if "p_win" not in g or g["p_win"].isna().all():
            continue
        top = g.loc[(g["p_win"] - g["p_win_fair"]).abs().idxmax()]
        d, lo, hi = (100 * (top[c] - top["p_win_fair"]) for c in ("p_win", "p_win_lo", "p_win_hi"))
        gap = (abs(d), 0.0 if lo <= 0 <= hi else min(abs(lo), abs(hi)), max(abs(lo), abs(hi)))
        players = len(g)
        rows.append((gap, label, top, players))
    if not rows:
        return []
    rows.sort(key=lambda r: r[0][0])
    parts = [f"{short_label(label, lang)} {_ci(*gap, lang, sign=False)}" for gap, label, _, _ in rows]
    _, _, top, players = rows[-1]
    parts[-1] += w["extreme"].format(who=_seat_word(int(top["seat"]), players, lang),
                                     p=_pct(top["p_win"], top["p_win_lo"], top["p_win_hi"], lang),
                                     fair=f"{number(100 * top['p_win_fair'], lang, 1, False)}%")
    games = int(rows[0][2]["games"])
    out = [w["balanced"] + f" ([{w['details']}]({link}))", "",
           w["gap"].format(games=number(games, lang, 0), parts="; ".join(parts))]
    if len(rows) >= 2:
        (most, least) = rows[0], rows[-1]
        out[-1] += " " + (w["parted"].format(most=short_label(most[1], lang), least=short_label(least[1], lang))
                          if least[0][1] > most[0][2] else w["unparted"])
    return out + [""]


# ---- from which cards taking pays ------------------------------------------------------------------

def _held(honours: str) -> frozenset:
    return frozenset(h for h, c in zip(HONOURS, honours) if c != ".")


def paying_hands(classes: pd.DataFrame, min_n: int = MIN_N) -> list[dict]:
    """The weakest holdings from which taking pays, for one round and seat (``classes``: its
    rows of ``round, seat, honours, side_aces, n, gain_net, gain_net_lo, gain_net_hi``).

    A holding is a set of trump honours H and a number k of side aces. It *pays* where its
    own class (exactly H, exactly k side aces) has at least ``min_n`` decisions and gains
    beyond the noise (``gain_net_lo > 0``), and so does every class with at least ``min_n``
    decisions that holds at least H and at least k side aces: a rule a player can follow. The
    weakest are those no other paying holding lies under (fewer or the same honours, no more
    aces); each with its own class's gain. Sorted by number of honours, then aces."""
    rows = classes[classes["n"] >= min_n]
    cls = {(_held(r.honours), int(r.side_aces)): r for r in rows.itertuples()}
    pays = []
    for (held, k), r in cls.items():
        if not r.gain_net_lo > 0:
            continue
        if all(o.gain_net_lo > 0 for (h2, k2), o in cls.items() if h2 >= held and k2 >= k):
            pays.append((held, k, r))
    weakest = [(h, k, r) for h, k, r in pays
               if not any((h2 <= h and k2 <= k) and (h2, k2) != (h, k) for h2, k2, _ in pays)]
    # ties in honours and aces by the honours in HONOURS' order: a frozenset's own order moves with the string
    # hash seed, which named other weakest hands in another process (the report's first page, 2026-12-07)
    weakest.sort(key=lambda x: (len(x[0]), x[1], sorted(HONOURS.index(c) for c in x[0])))
    return [{"honours": tuple(c for c in HONOURS if c in h), "side_aces": k, "n": int(r.n), "gain": r.gain_net,
             "lo": r.gain_net_lo, "hi": r.gain_net_hi} for h, k, r in weakest]


def _holding(p: dict, lang: str) -> str:
    w = WORDS[lang]
    letters = {"J": "J" if lang == "en" else "B", "9": "9", "A": "A", "T": "10"}
    cards = "".join(letters[c] for c in p["honours"]) or w["no_honour"]
    aces = f" +{p['side_aces']}" if p["side_aces"] else ""
    return f"`{cards}{aces}` {_ci(p['gain'], p['lo'], p['hi'], lang, 0)}"


def pays_lines(seat_classes: dict[str, pd.DataFrame], link: str, lang: str = "en", min_n: int = MIN_N,
               most: int = 2) -> list[str]:
    """A table, a variant a row and a seat a column: round 1's weakest paying holdings
    (``paying_hands``, at most ``most`` per seat)."""
    w = WORDS[lang]
    if not seat_classes:
        return []
    cols = ("voorhand", "2nd", "3rd", "dealer")
    out = [w["pays"] + f" ([{w['details']}]({link}))", "", w["pays_intro"].format(min_n=min_n), "",
           f"| {w['variant']} | " + " | ".join(w["seat"][c] for c in cols) + " |",
           "|---|" + "---|" * len(cols)]

    koe_none = False
    for label, classes in seat_classes.items():
        players = Rules.from_label(label).players
        cells = {c: "—" for c in cols}
        r1 = classes[classes["round"] == 1]
        for seat in range(players):
            mine = r1[r1["seat"].astype(str) == str(seat)]
            if not (mine["n"] >= min_n).any():
                cells[seat_name(seat, players)] = w["no_data"]
                continue
            found = paying_hands(mine, min_n)[:most]
            cells[seat_name(seat, players)] = w["or"].join(_holding(p, lang) for p in found) or w["nothing"]
            koe_none |= not found and seat == 0 and Rules.from_label(label).koe
        out.append(f"| {short_label(label, lang)} | " + " | ".join(cells[c] for c in cols) + " |")
    return out + ([""] + [w["koe_note"]] if koe_none else []) + [""]


# ---- which house rules matter ----------------------------------------------------------------------

def _chance(k: int, n: int) -> bool:
    """No more statistics beyond the noise than chance alone gives (one in twenty, at least one):
    ``findings.rules_findings``' rule."""
    return k <= max(1, round(0.05 * n))


def rules_lines(impact: pd.DataFrame, link: str, lang: str = "en") -> list[str]:
    """Each house rule (a rule option changed from the variant's default) by its name and
    choices in words: the variants where it moves more statistics beyond the noise than chance
    alone gives, and its largest effect (by standardised size) with its interval; then the
    rules that change nothing measured."""
    w = WORDS[lang]
    opts = impact[impact["kind"] == "option"]
    if opts.empty:
        return []
    out = [w["rules"] + f" ([{w['details']}]({link}))", ""]
    moved, quiet = [], []
    for option, rows in opts.groupby("option", sort=False):
        name, choices = RULE_WORDS.get(option, {}).get(lang, (option, {}))
        variants = rows["variant"].nunique()
        hits = []
        for (variant, _), c in rows.groupby(["variant", "comparison"], sort=False):
            k = int(c["beyond_noise"].sum())
            if k and not _chance(k, len(c)):
                moved_ = c[c["beyond_noise"]]
                head = moved_[moved_["statistic"].isin(HEADLINE)]  # a headline statistic where one moved
                top = (head if len(head) else moved_).sort_values("size", ascending=False).iloc[0]
                hits.append((top["size"], variant, top))
        if not hits:
            quiet.append(name)
            continue
        _, variant, top = max(hits, key=lambda h: h[0])
        unit = w["units"].get(top["unit"], top["unit"])
        effect = f"{_stat_text(top['statistic'], top['label'], lang)} {_ci(top['diff'], top['lo'], top['hi'], lang, 2)} {unit}"
        moved.append((top["size"], w["rule_line"].format(
            name=name, a=choices.get(top["a_value"], top["a_value"]), b=choices.get(top["b_value"], top["b_value"]),
            effect=effect, variant=short_label(variant, lang), k=len({h[1] for h in hits}), n=variants)))
    moved.sort(key=lambda m: -m[0])
    out += [f"- {line}" for _, line in moved] or [f"- {w['none_moved']}"]
    if quiet:
        out.append(f"- {w['quiet'].format(names=', '.join(quiet))}")
    return out + [""]


def markdown(balance: pd.DataFrame, seat_classes: dict[str, pd.DataFrame], impact: pd.DataFrame,
             links: dict[str, str], lang: str = "en", other: str | None = None) -> list[str]:
    """The summary (``## In short`` / ``## In het kort``): its three questions, each linked down
    (``links``: ``findings_links()``); ``other``: the file of the other language's summary."""
    w = WORDS[lang]
    out = [f"## {w['title']}", "", f"*{w['intro']}*" + (" " + w["other"].format(file=other) if other else ""), ""]
    out += balance_lines(balance, links["balance"], lang)
    out += pays_lines(seat_classes, links["when"], lang)
    out += rules_lines(impact, links["rules"], lang)
    return out


def from_folder(folder, links: dict[str, str], lang: str = "en", other: str | None = None) -> list[str]:
    """The summary of a written report, from the tables it wrote (``balance_seats.csv``, each
    variant's ``table_<label>_seat_honours_aces.csv``, ``rules_impact.csv``): the same lines as its
    first page (the README quotes them). A file that is not as the report wrote it is refused in
    one line naming it."""
    folder = Path(folder)
    seats = _read(folder / "balance_seats.csv", "games")
    seat_classes = {}
    for label in dict.fromkeys(seats["variant"]):
        path = folder / f"table_{label}_seat_honours_aces.csv"
        if path.exists():
            seat_classes[label] = _read(path, "seat_classes", dtype={"seat": str})
    return markdown(seats, seat_classes, _read(folder / "rules_impact.csv", "impact"), links, lang, other)


def words(lines: list[str]) -> int:
    """The words of a summary a reader reads (table rules and markup left out): the issue asks
    for about 300."""
    text = " ".join(x for x in lines if not x.startswith("|---"))
    return sum(1 for t in text.replace("|", " ").split() if any(ch.isalpha() for ch in t))


__all__ = ["markdown", "from_folder", "balance_lines", "pays_lines", "paying_hands", "rules_lines", "words", "WORDS", "MIN_N"]
