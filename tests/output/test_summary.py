"""The report's opening summary (analyzer.output.summary): written from the report's own frames,
in English and Dutch, each number with its interval; checked on frames made by hand and on the
session's small report."""

import pandas as pd
import pytest

from analyzer.output import summary as S

LINKS = {"take": "#1", "when": "#2", "balance": "#3", "rules": "#5", "bracket": "#6"}


def classes(rows):
    """A seat's round-1 classes: (honours, side aces, n, gain, lo, hi)."""
    return pd.DataFrame([{"round": 1, "seat": "0", "honours": h, "side_aces": k, "n": n, "gain_net": g,
                          "gain_net_lo": lo, "gain_net_hi": hi} for h, k, n, g, lo, hi in rows])


def test_the_weakest_paying_hands_are_those_every_stronger_class_confirms():
    c = classes([
        ("J...", 0, 500, -3, -5, -1), ("J...", 1, 500, 6, 2, 10), ("J...", 2, 300, 9, 4, 14),
        ("J9..", 0, 400, 12, 8, 16), ("J9..", 1, 400, 20, 15, 25),
        (".9..", 1, 400, 4, 1, 7), (".9A.", 1, 400, -2, -6, 2),  # the 9 with an ace: a stronger class that does not pay
        ("..A.", 3, 50, 30, 10, 50),  # too few decisions: neither for nor against
    ])
    found = S.paying_hands(c, min_n=200)
    got = [("".join(p["honours"]), p["side_aces"]) for p in found]
    # J+1 pays, and so do J+2, J9+1 (stronger); J9 with no ace pays but J9+... all pay: it is the weakest with the nine
    assert got == [("J", 1), ("J9", 0)]
    assert found[0]["gain"] == 6 and (found[0]["lo"], found[0]["hi"]) == (2, 10)  # the weakest class's own number
    # .9.. +1 pays on its own, but .9A. +1 (holds at least the nine and one ace) does not: no rule there
    assert ("9", 1) not in got


def test_the_weakest_paying_hands_come_in_the_same_order_under_any_string_hash_seed():
    """Three classes of three honours and no ace pay alike: their order (the report names the first two)
    is HONOURS' order, not a frozenset's, which moves with PYTHONHASHSEED from one process to the next."""
    import json
    import subprocess
    import sys

    code = """if True:
        import json, pandas as pd
        from analyzer.output import summary as S
        rows = [("J9A.", 0, 400, 27, 23, 31), ("J9.T", 0, 400, 38, 33, 42), ("J.AT", 0, 400, 14, 11, 18),
                ("J9AT", 0, 400, 60, 55, 65)]
        c = pd.DataFrame([{"round": 1, "seat": "1", "honours": h, "side_aces": k, "n": n, "gain_net": g,
                           "gain_net_lo": lo, "gain_net_hi": hi} for h, k, n, g, lo, hi in rows])
        print(json.dumps(["".join(p["honours"]) for p in S.paying_hands(c, min_n=200)]))
    """
    runs = {json.dumps(json.loads(subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True,
                                                 env={**__import__("os").environ, "PYTHONHASHSEED": str(seed)}).stdout))
            for seed in range(8)}
    assert runs == {json.dumps(["J9A", "J9T", "JAT"])}


def test_a_seat_with_no_class_of_enough_decisions_says_so_not_none():
    few = {"classic": pd.concat([classes([("J9..", 0, 50, 20, 5, 35)]).assign(seat=str(s)) for s in range(4)])}
    lines = S.pays_lines(few, "#2", "en")
    row = next(x for x in lines if x.startswith("| Classic"))
    assert row.count("too few decisions") == 4 and "none beyond" not in row
    paying = {"classic": pd.concat([classes([("J9..", 0, 500, 20, 15, 25)]).assign(seat=str(s)) for s in range(4)])}
    row = next(x for x in S.pays_lines(paying, "#2", "nl") if x.startswith("| Klassiek"))
    assert row.count("`B9` +20 [+15, +25]") == 4  # Dutch letters: B for the jack
    assert not any("koe" in x for x in S.pays_lines(paying, "#2", "en"))  # no seat without a paying hand
    # Piekjas' voorhand with no paying hand: the note says why (round 2 and koe are still to come after a pass)
    p2 = {"piekjas2": pd.concat([classes([("J9..", 0, 500, -2, -4, 0)]),
                                 classes([("J9..", 0, 500, 20, 15, 25)]).assign(seat="1")])}
    lines = S.pays_lines(p2, "#2", "en")
    assert "| Piekjas 2 | none beyond the noise | — | — | `J9` +20 [+15, +25] |" in lines
    assert any(x.startswith("*None beyond the noise* at voorhand") and "koe" in x for x in lines)


def seats(gaps):
    """A balance seat table: per variant the p_win of each seat (fair share 1/players)."""
    rows = []
    for label, ps in gaps.items():
        for s, (p, lo, hi) in enumerate(ps):
            rows.append({"variant": label, "seat": s, "p_win": p, "p_win_lo": lo, "p_win_hi": hi, "games": 1000,
                         "p_win_fair": 1 / len(ps)})
    return pd.DataFrame(rows)


def test_balance_ranks_variants_and_names_the_extremes_only_where_their_intervals_part():
    parted = seats({"classic": [(0.51, 0.49, 0.53), (0.49, 0.47, 0.51)],
                    "piekjas2": [(0.40, 0.38, 0.42), (0.60, 0.58, 0.62)]})
    text = " ".join(S.balance_lines(parted, "#3", "en"))
    assert "Classic 1.0 [0.0, 3.0]; Piekjas 2 10.0 [8.0, 12.0]" in text
    assert "voorhand wins 40.0% [38.0, 42.0] of the games against a fair 50.0%" in text  # two players: the first of the two
    assert "The most balanced is Classic, the least Piekjas 2." in text
    close = seats({"classic": [(0.51, 0.45, 0.57), (0.49, 0.43, 0.55)],
                   "piekjas2": [(0.47, 0.41, 0.53), (0.53, 0.47, 0.59)]})
    text = " ".join(S.balance_lines(close, "#3", "nl"))
    assert "geen volgorde vastgesteld" in text and "Het meest in evenwicht is" not in text
    assert "Klassiek 1,0 [0,0, 7,0]" in text  # Dutch decimal commas


def impact(rows):
    return pd.DataFrame([{"variant": v, "comparison": f"{o}: {a} → {b}", "option": o, "kind": "option", "a_value": a,
                          "b_value": b, "statistic": st, "label": st.replace("_", " "), "unit": "pp", "diff": d,
                          "lo": lo, "hi": hi, "beyond_noise": lo > 0 or hi < 0, "size": abs(d)}
                         for v, o, a, b, st, d, lo, hi in rows])


def test_house_rules_by_their_names_with_their_largest_headline_effect_and_chance_left_out():
    rows = [("classic", "roem_tie", "none", "first", "roem_points", 0.3, 0.2, 0.4),
            ("classic", "roem_tie", "none", "first", "stuk", 2.0, 1.5, 2.5),  # larger, not a headline statistic
            ("classic", "roem_tie", "none", "first", "made", 0.1, -0.1, 0.3)]
    # one statistic of twenty beyond the noise: what chance alone gives, so undertrump is said to change nothing
    rows += [("classic", "undertrump", "forced", "free", f"s{i}", 0.1, 0.05 if i == 0 else -0.1, 0.2) for i in range(20)]
    lines = S.rules_lines(impact(rows), "#5", "en")
    said = [x for x in lines if x.startswith("- **")]
    assert said == ["- **Equal best roem**, nobody scores roem → the earlier seat scores — roem points +0.30 "
                    "[+0.20, +0.40] pp in Classic; beyond the noise in 1 of 1 variants."]
    assert "- Changing nothing measured beyond the noise: Cannot beat an opponent's trump." in lines
    nl = S.rules_lines(impact(rows), "#5", "nl")
    assert any(x.startswith("- **Gelijke hoogste roem**, niemand scoort roem → de eerdere stoel scoort — roempunten "
                            "per spel +0,30 [+0,20, +0,40] procentpunt in Klassiek") for x in nl)


@pytest.mark.slow
def test_the_report_opens_with_the_summary_and_writes_the_other_language_beside(shared_report):
    folder = shared_report.path
    md = (folder / "index.md").read_text()
    assert md.index("## In short") < md.index("## What a player takes away")
    assert "Nederlands: [samenvatting](summary_nl.md)" in md
    nl = (folder / "summary_nl.md").read_text()
    assert nl.startswith("## In het kort") and "(index.md#" in nl  # its links lead into the report
    # the summary's table is the seat classes the report wrote, and quotes them
    sc = pd.read_csv(folder / "table_classic_seat_honours_aces.csv", dtype={"seat": str})
    row = next(x for x in md.splitlines() if x.startswith("| Classic"))
    for seat, cell in zip("0123", row.strip("|").split("|")[1:]):
        mine = sc[(sc["round"] == 1) & (sc["seat"] == seat)]
        found = S.paying_hands(mine)
        if found:
            p = found[0]
            assert f"{p['gain']:+.0f} [{p['lo']:+.0f}, {p['hi']:+.0f}]" in cell
        else:
            assert cell.strip() in ("none beyond the noise", "too few decisions")
    assert S.words(md[md.index("## In short"):md.index("## What a player")].splitlines()) <= 420


@pytest.mark.slow
def test_the_summary_is_rebuilt_from_the_report_s_tables_and_a_bad_one_refused(shared_report, tmp_path):
    import shutil

    from analyzer.errors import BeloteError
    from analyzer.output.report import findings_links

    folder = shared_report.path
    md = (folder / "index.md").read_text()
    again = S.from_folder(folder, findings_links(), "en", other="summary_nl.md")
    assert "\n".join(again) in md  # the same lines as the first page
    copy = tmp_path / "r"
    shutil.copytree(folder, copy)
    (copy / "table_classic_seat_honours_aces.csv").write_text("round,seat\n1,0\n")
    with pytest.raises(BeloteError, match="table_classic_seat_honours_aces.csv: not a table the report wrote"):
        S.from_folder(copy, findings_links())


@pytest.mark.slow
def test_the_first_page_s_house_rules_picture_names_the_rules_and_fits_a_page(shared_report):
    """The first page shows the house rules by their names in two panels, a picture legible at page
    width (the section's own forest plot, eight panels, stays below it)."""
    import struct

    folder = shared_report.path
    md = (folder / "index.md").read_text()
    assert "![Which house rules change the game?](rules_headline.png)" in md
    assert "![what each rule option changes](rules_impact.png)" in md
    head = (folder / "rules_headline.png").read_bytes()[:24]
    width, height = struct.unpack(">II", head[16:24])
    assert 800 <= width <= 1400, width  # about a page wide: its 9-point labels read at page width
