"""What the report says: take tables as the CLI shows them, commands that reproduce them,
one notation for intervals, a line where numbers surprise a player, and legible plots."""

import json
import os
import re
import shlex
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from matplotlib.colors import to_rgba

from analyzer.rules import option_choices
from analyzer.output.files import balance_figures
from analyzer.output import plots as P
from analyzer.output import report as R
from analyzer.output import report_plan as RP
from analyzer.rules import Rules
from analyzer.runs.simulate import SimConfig
from analyzer.runs.stats import rate
from analyzer.questions.table import RAW_FIELDS, TableResult

pytestmark = pytest.mark.slow  # whole reports: out of make test-fast (make test runs them)

EXAMPLES = (R.EXAMPLES[0], R.EXAMPLES[6])  # classic voorhand (its pass row), piekjas2 dealer (smous)
VARIANTS = ("classic", "piekjas3")
WIDE = dict(os.environ, COLUMNS="220")  # rich wraps nothing at this width
# the names of a take answer's statistics in the CLI, the report and take_examples.csv
NAMES = ("score", "score_vs_pass", "net", "net_vs_pass", "p_we_take", "p_made", "p_dedans", "p_tie", "p_capot_for",
         "p_pit_against", "p_not_played")
SHARE = "Every rate is a share of all n paired deals"


@pytest.fixture(scope="module")
def built(tmp_path_factory):
    r = R.make_report(tmp_path_factory.mktemp("content") / "r", deals=4000, seed=3, examples=EXAMPLES,
                      variants=VARIANTS)
    return r.path, (r.path / "index.md").read_text()


# --- the first page ---------------------------------------------------------------------------


def test_the_report_opens_with_findings_that_quote_its_own_numbers(built):
    """The first section is the findings page; each example's take finding quotes the gain over
    passing of its best call as take_examples.csv has it."""
    path, md = built
    assert md.index("## What a player takes away") < md.index("**Policies**") < md.index("## Contents")
    take = pd.read_csv(path / "take_examples.csv")
    page = md[:md.index("**Policies**")]
    for _k, rows in take.groupby("example"):
        best = rows[rows["call"] != "pass"].sort_values("net_vs_pass").iloc[-1]
        quoted = f"{best.net_vs_pass:+.1f} [{best.net_vs_pass_lo:+.1f}, {best.net_vs_pass_hi:+.1f}] net points"
        assert quoted in page, quoted
    for link in ("#1-should-i-take-example-hands", "#2-bidding-tables", "#3-balance-of-the-variants",
                 "#5-what-each-rule-option-changes"):
        assert f"([details]({link}))" in page
    # the same page again from the tables the report wrote (what the README quotes)
    from analyzer.output import findings as F

    again = "\n".join(F.markdown(F.from_folder(path, R.findings_links()), R.findings_links(), R.findings_pictures(path)))
    assert page[page.index("## What a player"):].strip() == again.strip()


def test_a_tampered_or_missing_report_table_is_refused_in_one_line_naming_it(built, tmp_path):
    """``findings.from_folder`` reads a report's tables back: one that is not as the report wrote
    it (a column gone, unreadable, missing) is refused naming the file, not quoted."""
    import shutil

    from analyzer.errors import BeloteError
    from analyzer.output import findings as F

    path, _ = built
    copy = tmp_path / "r"
    shutil.copytree(path, copy)
    links = R.findings_links()
    take = pd.read_csv(copy / "take_examples.csv")
    take.drop(columns=["net_vs_pass_lo"]).to_csv(copy / "take_examples.csv", index=False)
    with pytest.raises(BeloteError, match=r"take_examples\.csv: not a table the report wrote \(no column net_vs_pass_lo\)"):
        F.from_folder(copy, links)
    (copy / "take_examples.csv").write_bytes(b"\x00\x01\xff garbage\n\"unclosed")
    with pytest.raises(BeloteError, match=r"take_examples\.csv: "):
        F.from_folder(copy, links)
    take.to_csv(copy / "take_examples.csv", index=False)
    (copy / "rules_impact.csv").unlink()
    with pytest.raises(BeloteError, match=r"rules_impact\.csv: cannot be read"):
        F.from_folder(copy, links)


# --- "Should I take?" tables ------------------------------------------------------------------


def test_take_table_columns_are_the_agreed_names():
    from analyzer.output import take_table

    assert tuple(c.name for c in take_table.COLUMNS) == NAMES
    assert take_table.SHARE_SENTENCE.startswith(SHARE)


def test_report_take_tables_show_the_cli_rows_with_pass_p_we_take_and_passed_out(built):
    _, md = built
    for name in NAMES:
        assert md.count(f"| `{name}` |") >= 1, name
    assert md.count("| `p_we_take` |") == len(EXAMPLES)
    assert "| | take h | pass |" in md  # the pass column is there
    assert "| | take s | smous s | pass |" in md
    assert SHARE in md  # what every rate is a share of


def test_csv_columns_carry_the_names_of_the_cli_and_the_report(built):
    path, _ = built
    cols = set(pd.read_csv(path / "take_examples.csv").columns)
    for name in NAMES:
        assert {name, name + "_lo", name + "_hi"} <= cols, name


def test_cli_take_prints_the_same_row_names_and_what_rates_are_a_share_of(belote):
    out = belote.out("take", "Jh 9h Ah Tc 7s", "--turned", "Qh", "--deals", "300", "--quiet", env=WIDE)
    rows = {line.split("│")[1].strip() for line in out.splitlines() if line.count("│") > 2}
    shown = set(NAMES) - {"p_not_played"}  # shown only when a deal was passed out or redealt
    assert shown <= rows, shown - rows
    assert SHARE in out


def test_cli_take_says_why_and_who_plays_and_answers_in_dutch_when_asked(belote):
    """The verdict's reason and who bids and plays, in words (analyzer.output.words, as on the page),
    and the whole answer in Dutch with --lang nl or cards typed in Dutch letters."""
    from analyzer.output import words

    en = belote.out("take", "Jh 9h 7h Ac 8c Kd", "--turned", "Th", "--variant", "piekjas", "--players", "3",
                "--deals", "300", "--quiet", "--play", "heuristic", env=WIDE)
    flat = " ".join(en.split())
    assert "Why pass: after passing you still become troefmaker in" in flat and "in round 2 or as koe" in flat
    assert "Who plays the cards: the rules of thumb (heuristic), in every seat" in flat
    nl = belote.out("take", "Bh 9h Ah 10k 7s", "--turned", "Vh", "--deals", "300", "--quiet", "--play", "heuristic",
                    env=WIDE)
    rows = {line.split("│")[1].strip() for line in nl.splitlines() if line.count("│") > 2}
    assert {words.ROWS[k]["nl"][0] for k in ("net", "net_vs_pass", "we_take", "made", "dedans")} <= rows
    flat = " ".join(nl.split())
    assert "Oordeel: SPELEN HARTEN" in flat and "Waarom spelen ♥" in flat and "Wie speelt de kaarten" in flat
    assert "Klassieke belote · jij: stoel 0 (voorhand)" in flat and "gedraaid V♥" in flat
    assert not re.search(r"\d\.\d", flat.split("Oordeel")[0]), "a Dutch number with a decimal point"
    same = belote.out("take", "Bh 9h Ah 10k 7s", "--turned", "Vh", "--lang", "nl", "--deals", "300", "--quiet",
                  "--play", "heuristic", env=WIDE)
    assert same.split("handen in")[0] == nl.split("handen in")[0]  # --lang nl said: the same Dutch answer


def test_each_example_prints_the_take_command_that_reproduces_its_numbers(belote, built):
    path, md = built
    commands = [c for c in re.findall(r"Reproduce these numbers:\n\n```\n(belote take [^\n]+)\n```", md)
                if "--bracket" not in c]  # section 1's; the bracket's are the next test's
    assert len(commands) == len(EXAMPLES)
    assert all("--play" not in shlex.split(c) for c in commands)  # the report plays net, the command's default
    csv = pd.read_csv(path / "take_examples.csv")
    for k, cmd in enumerate(commands, start=1):
        args = shlex.split(cmd)[1:]
        assert f"--seed {3 + k - 1}" in cmd  # example k runs with seed + k - 1
        d = belote.json(*args, env=WIDE)
        rows = csv[csv["example"] == k].set_index("call")
        assert d["n"] == int(rows["n"].iloc[0])
        for c in d["calls"]:
            row = rows.loc[c["label"]]
            assert c["net"]["mean"] == pytest.approx(row["net"], rel=1e-12, abs=1e-12)
            assert c["vs_pass"]["mean"] == pytest.approx(row["score_vs_pass"], rel=1e-12, abs=1e-12)
            assert c["made"]["k"] / d["n"] == pytest.approx(row["p_made"], rel=1e-12, abs=1e-12)


def test_take_notes_explain_pass_p_we_take_and_smous_redeals(built):
    _, md = built
    assert "`p_we_take` of pass is" in md  # the classic partner (or round 2) takes after a pass
    assert "smous s: the opponent answers play or redeal. It redealt on" in md


# --- words and notation -------------------------------------------------------------------------


def test_rule_of_thumb_once_per_variant_and_no_seed_text(built):
    _, md = built
    assert "(seed text)" not in md and "defaults of RULES.md" not in md
    assert md.count('Rule of thumb, "trump jack and nine') == len(VARIANTS)
    findings = [line for line in md.splitlines() if "with the trump J and 9 and one or two side aces" in line]
    assert findings and len(findings) == len(set(findings))  # no paragraph said twice


def test_break_even_n_is_every_decision_and_seat_rows_add_up_to_all(built):
    path, md = built
    for lab in VARIANTS:
        be = pd.read_csv(path / f"table_{lab}_break_even.csv", dtype={"seat": str})
        for rnd, sub in be.groupby("round"):
            seats = sub[sub["seat"] != "all"]
            assert seats["n"].sum() == int(sub.loc[sub["seat"] == "all", "n"].iloc[0]), (lab, rnd)
            assert (sub["n_bins"] <= sub["n"]).all()
        classes = pd.read_csv(path / f"table_{lab}_classes.csv")
        assert be.loc[be["seat"] == "all", "n"].sum() == classes["n"].sum()  # every decision counted once
    assert "`n` counts every bidding decision reached in that round at that seat" in md


def test_a_standard_deviation_is_never_written_with_plus_minus(belote, built):
    _, md = built
    assert "± sd" not in md and "mean score (sd)" in md
    assert not re.search(r"\d ± \d+ \(n=", md.split("### Seats")[1].split("###")[0])
    out = belote.out("balance", "--variant", "classic", "--deals", "300", "--games", "0", "--quiet", env=WIDE)
    assert "± sd" not in out and "score (sd)" in out


def test_small_rates_print_more_decimals_where_the_half_width_rounds_to_zero():
    from analyzer.runs.fmt import ci_rate, pm_rate

    assert pm_rate(rate(500, 1000)) == "50.0% ± 3.1"
    small = pm_rate(rate(0, 100_000))
    assert small != "0.0% [0.0, 0.0]"
    hi = float(small.split(", ")[1].rstrip("]"))
    assert hi > 0 and small.startswith("0.00")
    assert ci_rate(rate(1, 100_000)).startswith("0.001% [")


def test_report_links_the_project_docs_and_names_every_variants_options(built, tmp_path):
    _, md = built
    assert "docs/RULES.md" in md and "docs/DEAL_LOG.md" in md
    root = Path(R.__file__).resolve().parents[2]  # analyzer/output/report.py -> the checkout
    assert R.docs_link(root / "reports" / "x") == "../../docs"  # inside the checkout: relative
    assert (root / "reports" / "x" / "../../docs" / "RULES.md").resolve().is_file()
    assert R.docs_link(tmp_path) == (root / "docs").as_posix()
    lines = md.splitlines()
    header = next(line for line in lines if line.startswith("| variant | `"))
    keys = [k.strip(" `") for k in header.strip("|").split("|")[1:]]
    for lab in VARIANTS:
        opts = Rules.from_label(lab).options()
        assert set(keys) == set(opts)  # every option named
        r = Rules.from_label(lab)
        live = set(option_choices(r.variant, r.players))
        cells = next(line for line in lines if line.startswith(f"| {lab} | ")).strip("|").split("|")[1:]
        for k, cell in zip(keys, cells):
            assert cell.strip() == (str(opts[k]) if k in live or k == "target" else "—"), (lab, k)


# --- a line of explanation where a number surprises --------------------------------------------


def _synthetic_table(label, classes):
    """A TableResult from classes ``(honours, side_aces, n, gain, made, take, pass)`` (net
    and own scores equal, sd 80 for every mean): enough for ``notes``."""
    rows = []
    for hon, aces, n, gain, made, take, pas in classes:
        row = {"round": 1, "seat": 0, "honours": hon, "trump_J": hon[0] == "J", "trump_9": hon[1] == "9",
               "trump_A": hon[2] == "A", "trump_10": hon[3] == "T", "trump_length": 3, "side_aces": aces, "voids": 0}
        sums = {"n": n, "nat_take": n, "nat_smous": 0, "made": round(made * n), "dedans": n - round(made * n),
                "tie": 0, "capot": 0, "pit": 0}
        for s, m in (("take", take), ("pass", pas), ("d", gain), ("tnet", take), ("pnet", pas), ("dnet", gain)):
            sums[s], sums[s + "_sq"] = m * n, (m * m + 80 * 80) * n
        row.update({f: sums.get(f, 0) for f in RAW_FIELDS})  # th_*: the threshold part, not read by notes
        rows.append(row)
    return TableResult(SimConfig(rules=Rules.from_label(label), deals=1), pd.DataFrame(rows), pd.DataFrame(),
                       1, 1, (1, 0), 0.0, 1)


def test_note_says_why_j9t_beats_j9a_only_when_it_does():
    t = _synthetic_table("classic", [("J9.T", 0, 2000, 90.0, 0.9, 150, 60), ("J9A.", 0, 2000, 60.0, 0.8, 130, 70)])
    (note,) = [n for n in t.notes(1) if n.startswith("`J9.T`")]
    assert "sequence" in note and "+90" in note and "+60" in note
    same = _synthetic_table("classic", [("J9.T", 0, 2000, 60.0, 0.9, 150, 90), ("J9A.", 0, 2000, 61.0, 0.8, 130, 69)])
    assert not [n for n in same.notes(1) if n.startswith("`J9.T`")]  # inside the noise: nothing to explain


def test_note_explains_a_class_made_often_that_loses_to_passing():
    t = _synthetic_table("piekjas3", [("..A.", 3, 400, -57.0, 0.92, 164, 199), ("J9..", 1, 4000, 44.0, 0.78, 100, 56)])
    notes = t.notes(1)
    (note,) = [n for n in notes if n.startswith("`..A.`")]
    assert "92%" in note and "passing is better" in note and "199" in note and "164" in note
    assert "all four aces" in note and "goes to the best other player" in note
    assert not [n for n in notes if n.startswith("`J9..`")]  # taking wins there: no note


# --- plots ----------------------------------------------------------------------------------------


def _grid_frame(cols=(1, 2, 3, 4), n=500):
    hons = ["J9A.", "J9..", "J...", "...."]
    vals = np.linspace(-120, 120, len(hons) * len(cols))
    rows = [{"round": 1, "honours": h, "trump_length": c, "n": n, "gain_net": vals[i * len(cols) + j],
             "p_made": (vals[i * len(cols) + j] + 120) / 240}
            for i, h in enumerate(hons) for j, c in enumerate(cols)]
    return pd.DataFrame(rows)


@pytest.mark.parametrize("value,kw", [("gain_net", {"center": 0.0}), ("p_made", {"percent": True})])
def test_heatmap_labels_contrast_with_their_cell_colour(value, kw):
    fig = P.heatmap(_grid_frame(), value, "honours", "trump_length", "t", min_n=200, **kw)
    ax = fig.axes[0]
    im = ax.images[0]
    grid = im.get_array()
    assert ax.texts
    for t in ax.texts:
        j, i = (int(round(v)) for v in t.get_position())
        cell = im.cmap(im.norm(grid[i, j]))
        assert P.contrast_ratio(cell, to_rgba(t.get_color())) >= 4.5, (t.get_text(), cell, t.get_color())


def test_text_colour_picks_white_on_dark_and_black_on_light():
    assert P.text_colour((0.02, 0.19, 0.38, 1)) == "white"  # the dark end of RdBu
    assert P.text_colour((0.97, 0.97, 0.97, 1)) == "black"
    assert P.text_colour((0.99, 0.91, 0.14, 1)) == "black"  # the light end of viridis


def test_heatmap_drops_columns_without_a_cell():
    df = _grid_frame(cols=(1, 2, 3, 4, 5))
    df.loc[df["trump_length"] == 5, "n"] = 10  # below min_n everywhere
    fig = P.heatmap(df, "gain_net", "honours", "trump_length", "t", min_n=200, center=0.0)
    assert [t.get_text() for t in fig.axes[0].get_xticklabels()] == ["1", "2", "3", "4"]


def test_take_examples_plot_one_row_per_call_against_pass_on_one_scale():
    rows = []
    for ex, calls in ((1, ("take h", "pass")), (2, ("take c", "take s", "pass"))):
        for k, c in enumerate(calls):
            g = 0.0 if c == "pass" else 30.0 * (k + 1) * (-1) ** ex
            rows.append({"example": ex, "variant": "classic", "call": c, "net_vs_pass": g,
                         "net_vs_pass_lo": g - 5, "net_vs_pass_hi": g + 5})
    fig = P.take_examples_plot(pd.DataFrame(rows))
    assert len(fig.axes) == 1  # one scale
    ax = fig.axes[0]
    assert len(ax.patches) == 3  # pass is the reference line, not a bar
    assert [t.get_text() for t in ax.get_yticklabels()] == ["1. classic: take h", "2. classic: take c",
                                                            "2. classic: take s"]


def _seat_frame():
    rows = []
    for lab, sides, seats in (("classic", 2, 4), ("piekjas3", 3, 3)):
        for s in range(seats):
            rows.append({"variant": lab, "seat": s, "p_win": 1 / sides + 0.01, "p_win_lo": 1 / sides - 0.02,
                         "p_win_hi": 1 / sides + 0.04, "p_win_fair": 1 / sides})
    return pd.DataFrame(rows)


def test_p_win_plot_draws_the_fair_share_and_keeps_its_legend_off_the_data():
    fig = P.bars_ci(_seat_frame(), "seat", "variant", "p_win", "p_win_lo", "p_win_hi", "P(win)", "games won",
                    percent=True, ref="p_win_fair", ref_label="fair share")
    ax = fig.axes[0]
    fair = [c for c in ax.collections if c.get_label() == "fair share"]
    assert fair
    from matplotlib.collections import LineCollection

    ys = sorted({round(seg[0][1], 6) for c in ax.collections if isinstance(c, LineCollection)
                 for seg in c.get_segments() if len(seg) == 2 and seg[0][1] == seg[1][1]})  # horizontal
    assert pytest.approx(50.0) in ys and pytest.approx(100 / 3) in ys
    fig.canvas.draw()
    assert ax.get_legend().get_window_extent().x0 >= ax.get_window_extent().x1 - 1  # right of the axes


def test_balance_wires_the_fair_share_into_the_p_win_plot(monkeypatch):
    from analyzer.questions import balance

    seen = {}
    real = P.bars_ci

    def spy(df, *a, **kw):
        seen[a[5]] = kw.get("ref")
        return real(df, *a, **kw)

    monkeypatch.setattr(P, "bars_ci", spy)
    st = _seat_frame().assign(seat_name="x", advantage=0.0, advantage_lo=-1.0, advantage_hi=1.0)
    b = balance.BalanceResult([], 1, 1, 1, 0.0)
    b._cache["hands"] = pd.DataFrame({"statistic": ["made"], "label": ["made"], "variant": ["classic"],
                                      "value": [0.8], "lo": [0.7], "hi": [0.9]})
    b._cache["seats"] = st
    monkeypatch.setattr(balance.BalanceResult, "hands_per_game", lambda self: pd.DataFrame(
        {"variant": ["classic"], "hands": [5], "games": [1]}))
    balance_figures(b)
    assert seen["P(win) by seat in the first hand"] == "p_win_fair"


def test_last_break_even_bin_is_drawn_with_its_width_and_the_legend_below():
    s = pd.DataFrame({"round": 1, "strength_lo": [36.0, 40.0, 44.0], "strength_hi": [40.0, 44.0, 48.0], "n": 500,
                      "gain_net": [-10.0, 5.0, 20.0], "gain_net_lo": [-15.0, 0.0, 15.0], "gain_net_hi": [-5.0, 10, 25]})
    x, g, lo, hi = P.step_edges(s)
    assert list(x) == [36, 40, 44, 48] and g[-1] == g[-2] == 20
    open_last = s.assign(strength_hi=[40.0, 44.0, np.inf])
    assert P.step_edges(open_last)[0][-1] == 48  # an open last bin gets the others' width
    be = pd.DataFrame({"round": [1], "seat": ["all"], "break_even": [40.0], "policy_threshold": [np.nan]})
    fig = P.break_even_plot(s, be, "t")
    ax = fig.axes[0]
    assert max(ax.lines[0].get_xdata()) == 48
    fig.canvas.draw()
    assert fig.legends[0].get_window_extent().y1 <= ax.get_window_extent().y0


def test_heatmap_panel_without_a_cell_says_so():
    df = pd.concat([_grid_frame(), _grid_frame().assign(round=2, n=10)], ignore_index=True)
    fig = P.heatmap(df, "gain_net", "honours", "trump_length", "t", min_n=200, center=0.0)
    assert [t.get_text() for t in fig.axes[1].texts] == ["no cell with n ≥ 200"]
    assert len(fig.axes[0].texts) == len(_grid_frame())


# --- structure and bidders ----------------------------------------------------------------------


def test_every_section_is_numbered_in_order_and_listed_in_the_contents(built):
    _, md = built
    heads = [line for line in md.splitlines() if line.startswith("## ")]
    # the first page (the summary, then the findings), then the contents
    assert heads[:3] == ["## In short", "## What a player takes away", "## Contents"]
    assert heads[3:] == [f"## {k}. {title}" for k, title in enumerate(R.SECTIONS, start=1)]
    contents = md.split("## Contents")[1].split("## 1.")[0]
    for k, title in enumerate(R.SECTIONS, start=1):
        assert f"{k}. [{title}](#{R.anchor(k, title)})" in contents
    assert R.anchor(1, "Should I take? Example hands") == "1-should-i-take-example-hands"  # GitHub's anchors


def test_report_bids_with_the_calibrated_policies_and_names_their_files(built):
    path, md = built
    run = json.loads((path / "run.json").read_text())
    for lab in VARIANTS:
        assert run["parameters"]["policies"][lab]["bid"] == "calibrated"
        assert run["parameters"]["policies"][lab]["play"] == "net"  # the default player, net's own bidders
        assert run["parameters"]["bid_policy"][lab]["file"] == f"analyzer/players/policies_data/{lab}.net.json"
        assert f"### Bidding table: {lab} (" in md and "bid=calibrated play=net)" in md
        assert f"- {lab}: calibrated (shipped {lab} policy, analyzer/players/policies_data/{lab}.net.json" in md
    assert md.count("bid=calibrated)") >= len(EXAMPLES)  # each example names the bidders it conditions on
    assert (path / "calibration_effect.csv").is_file() and (path / "calibration_effect.png").is_file()
    assert "![what calibration changes](calibration_effect.png)" in md
    assert "The bidders here are the `heuristic` ones in every reading" in md  # the rule-option section says why


def test_report_with_heuristic_bidders_or_players_is_named_so(tmp_path):
    assert R.default_name(2_000_000, 1, "heuristic") == "report-deals2M-seed1-bidheuristic"
    assert R.default_name(2_000_000, 1, "calibrated") == R.default_name(2_000_000, 1)
    assert R.default_name(None, 1) == "report-deals1200k-seed1"  # net, the default player, at its default size
    assert R.default_name(None, 1, play="heuristic") == "report-deals2M-seed1-playheuristic"
    with pytest.raises(R.BeloteError, match="--play"):
        R.make_report(tmp_path / "y", deals=400, play="pimc")
    with pytest.raises(R.BeloteError, match="--bid"):
        R.make_report(tmp_path / "x", deals=400, bid="0=random")


# --- the bracket: the examples and the classic table under stronger players ----------------------


def test_report_brackets_every_example_and_the_classic_table_with_their_n_and_cost(built):
    path, md = built
    section = md.split(R.heading(R.BRACKET_SECTION))[1].split(R.heading(R.BRACKET_SECTION + 1))[0]
    run = json.loads((path / "run.json").read_text())
    n = run["parameters"]["bracket_deals"]
    assert section.count("**Bracket:**") == len(EXAMPLES)
    # classic and piekjas 2 get dd; each searching column names its own n, the cheap players play every deal
    take_n = run['parameters']['take_deals']
    assert section.count(f"| call | | heuristic (n={take_n:,}) | net (n={take_n:,}) | pimc (n={n['pimc']:,}) | "
                         f"dd (n={n['dd']:,}) |") == 2
    # one command for each example's bracket, each searching player with its own sample
    assert section.count(f"--bracket --bracket-plays heuristic,net,pimc,dd --bracket-deals pimc={n['pimc']},"
                         f"dd={n['dd']}\n") == len(EXAMPLES)
    assert "### Bidding-table bracket" not in section and "#### The classic bidding table under each play policy" in section
    # at this size (5 dd deals) no class reaches the section's n, and it says so rather than show noise
    assert f"No class has {R.BRACKET_MIN_N} or more decisions under every policy's paired deals" in section
    assert "![P(made) and net gain per class under each play policy](table_bracket_classic.png)" in section
    assert (path / "table_bracket_classic.png").is_file() and (path / "table_bracket_classic.csv").is_file()
    # its measured cost, in the report and in run.json
    t = run["timings"]
    assert t["bracket"] > 0 and t["bracket_cpu"] > 0 and run["hands_simulated"]["bracket"] > 0
    assert f"This section took {t['bracket']:.0f} s of wall time and {t['bracket_cpu']:.0f} s of CPU" in section


def test_each_bracket_command_reproduces_its_columns(belote, built):
    """The bracket's command gives every column's numbers again: the same deals, and every column bidding
    as net, the report's player, does (net's calibrated file; before, the CLI's bracket bid as its first
    column, the heuristic)."""
    path, md = built
    commands = [c for c in re.findall(r"Reproduce these numbers:\n\n```\n(belote take [^\n]+)\n```", md)
                if "--bracket" in c]
    assert len(commands) == len(EXAMPLES)
    rows = pd.read_csv(path / "bracket_examples.csv")
    d = belote.json(*shlex.split(commands[0])[1:], env=WIDE)
    mine = rows[rows["example"] == 1].set_index("play")
    assert d["plays"] == list(mine.index)
    for play, r in zip(d["plays"], d["results"]):
        assert r["n"] == mine.loc[play, "n"], play
        gain = next(c for c in r["calls"] if c["label"] == mine.loc[play, "call"])["net_vs_pass"]["mean"]
        assert gain == pytest.approx(mine.loc[play, "gain"], abs=0.006), play  # the csv rounds to 2 decimals


def test_report_sets_the_balance_under_the_heuristic_beside_net_s(built):
    """Section 6 plays section 3's balance again under the other cheap player, the heuristic (its own
    calibrated bidders), on as many deals and games: each seat's cell net → heuristic, read back from the
    two seat tables."""
    path, md = built
    section = md.split(R.heading(R.BRACKET_SECTION))[1].split(R.heading(R.BRACKET_SECTION + 1))[0]
    part = section.split("#### The balance of the variants under heuristic")[1]
    sizes = R.Sizes.from_deals(json.loads((path / "run.json").read_text())["parameters"]["deals"])
    assert f"on the first {sizes.deals:,} deals and {sizes.games:,} games" in part
    assert "policies_data/classic.json" in part and "play=heuristic" in part  # the heuristic's own bidders, named
    ref, alt = (pd.read_csv(path / f"{p}_seats.csv") for p in ("balance", "balance_heuristic"))
    assert len(alt) == len(ref) == 4 + 3 and set(alt["hands"]) == {sizes.deals}
    first = md.split(R.heading(2))[0]  # the findings page: per variant, the heuristic's figure for net's seat furthest from even
    for label, rows in ref.groupby("variant"):
        top = rows.loc[rows["advantage"].abs().idxmax()]
        n = alt[(alt["variant"] == label) & (alt["seat"] == top["seat"])].iloc[0]
        assert (f"{n.advantage:+.1f} [{n.advantage_lo:+.1f}, {n.advantage_hi:+.1f}] under heuristic "
                f"(n={int(n.hands):,} hands), against {top.advantage:+.1f}") in first, label
    for h, n in zip(ref.itertuples(), alt.itertuples()):
        assert f"| {n.variant} | {n.seat} " in part
        assert (f"{h.advantage:+.2f} [{h.advantage_lo:+.2f}, {h.advantage_hi:+.2f}] → {n.advantage:+.2f} "
                f"[{n.advantage_lo:+.2f}, {n.advantage_hi:+.2f}] (n={n.hands:,})") in part


def test_bracket_sizes_shrink_with_the_report_and_price_dd_apart():
    full = RP.Sizes.from_deals(RP.DEFAULT_DEALS)
    assert full.bracket_deals == RP.BRACKET_DEALS and full.bracket_table_deals == RP.BRACKET_TABLE_DEALS
    small = R.Sizes.from_deals(3000)
    assert set(small.bracket_deals.values()) == {5} and set(small.bracket_table_deals.values()) == {5}
    plan = {name: sec for name, _, sec in R.bracket_plan(full, R.EXAMPLES, ["classic"])}
    assert "example 6 dd" not in plan and "example 8 dd" not in plan  # piekjas3, dekjas: no dd
    per_deal = {p: plan[f"classic table {p}"] / full.bracket_table_deals[p] for p in ("dd", "pimc")}
    assert per_deal["dd"] > 10 * per_deal["pimc"]  # a dd deal costs many pimc deals: each priced at its own rate
    assert plan["balance heuristic"] > 0  # the report plays net; the heuristic beside it
    fast = {name for name, _, _ in R.bracket_plan(full, R.EXAMPLES, ["classic"], play="heuristic")}
    assert "balance net" in fast and "example 1 net" in fast and "example 1 heuristic" not in fast


@pytest.mark.slow  # reads the session's whole report
def test_the_report_tells_how_the_score_moves_the_take_point(shared_report):
    index = (shared_report.path / "index.md").read_text()
    section = index.split(R.heading(R.SCORE_SECTION))[1].split(R.heading(R.SCORE_SECTION + 1))[0]
    for lab in shared_report.variants:
        assert f"### {lab}" in section
    assert "| region of the score | states met | deals played | take point [95% CI] | against level |" in section
    assert "![The take point by region of the score](take_point_by_score.png)" in section
    assert (shared_report.path / "take_point_by_score.png").stat().st_size > 10_000
    assert "take point" in index.split("## Contents")[0]  # the first page says whether the score moves it
