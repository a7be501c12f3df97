"""``belote serve``'s pages driven in a real browser (Debian's chromium through its chromedriver and
Selenium; ``make test`` installs them), on a phone (390 px wide, touch) and a desktop (1280 px), in
English and Dutch:

- a link answers on load: the take page's verdict, reason and table are those of ``belote take
  --json`` for the same seed, cell for cell, and with a score each call's chance to win the game is
  ``take --score``'s; the bracket streams in after; a hand picked by clicking gets the Dutch verdict
  of the same numbers and its address becomes the link, a score typed on a phone the Dutch chances;
- the review of a logged deal shows the values of ``belote review --json`` card by card, and its
  bidding and result; a random deal's link reviews it; a deal entered by clicking (dealt, bid, played
  card by card) is reviewed as ``belote review --hands`` reviews it, and an illegal card is refused
  with the command line's own line naming the rule;
- every page fits a phone without sideways scrolling, its touch targets at least 40 px; the words
  page lists every term; a report opens; closing a page stops its question.

Screenshots of each page go to the test's folder (and to ``$BELOTE_SCREENSHOTS`` when set: the
README's pictures, ``BELOTE_SCREENSHOTS=/tmp/shots pytest tests/web/test_web_browser.py`` then
``cp /tmp/shots/serve_{take,review}_{desktop,phone}.png docs/images/``)."""

from __future__ import annotations

import base64
import json
import re
import os
import shlex
import shutil
import time
from pathlib import Path

import pytest

from analyzer.output import take_table, words
from analyzer.players.policies import DEFAULT_PLAY
from analyzer.runs.stats import Mean, Rate
from web_server import Server, write_log

pytestmark = pytest.mark.slow  # a browser, a server and the CLI: about a minute

selenium = pytest.importorskip("selenium", reason="the test extra installs selenium (make test)")
from selenium import webdriver  # noqa: E402
from selenium.webdriver.chrome.service import Service  # noqa: E402
from selenium.webdriver.common.by import By  # noqa: E402
from selenium.webdriver.support.select import Select  # noqa: E402
from selenium.webdriver.support.ui import WebDriverWait  # noqa: E402

PHONE, DESKTOP = 390, 1280
HANDS = "Jh 9h Ah Tc 7s Ks Qd 8c / 7h 8h Qh Kh Ac Kc 9c 7c / Th As Ts 9s 8s Js Qs Ad / Qc Jc 8d 7d 9d Td Kd Jd"


@pytest.fixture(scope="module")
def browser():
    chromium, driver = shutil.which("chromium"), shutil.which("chromedriver")
    assert chromium and driver, "Debian's chromium and chromium-driver are missing: make test installs them"
    opts = webdriver.ChromeOptions()
    for flag in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--window-size=1280,1000"):
        opts.add_argument(flag)
    opts.binary_location = chromium
    d = webdriver.Chrome(service=Service(driver), options=opts)  # the driver given: selenium-manager fetches nothing
    yield d
    d.quit()


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    root = tmp_path_factory.mktemp("web")
    (root / "reports" / "demo").mkdir(parents=True)
    (root / "reports" / "demo" / "index.html").write_text("<html><body><h1 id=title>demo report</h1></body></html>")
    server = Server("--reports", root / "reports", "--log", write_log(root, deals=8))
    server.root = root
    yield server
    server.stop()


@pytest.fixture(scope="module")
def shots(tmp_path_factory):
    return tmp_path_factory.mktemp("screenshots")


def _device(d, width: int) -> None:
    """The page as a phone (390 px, touch) or a desktop (1280 px) shows it."""
    phone = width == PHONE
    height = 844 if phone else 1000
    d.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", {"width": width, "height": height, "screenWidth": width,
                                                             "screenHeight": height, "deviceScaleFactor": 1,
                                                             "mobile": phone})
    d.execute_cdp_cmd("Emulation.setTouchEmulationEnabled", {"enabled": phone, "maxTouchPoints": 5 if phone else 1})


def _open(d, site, path: str, width: int = DESKTOP):
    _device(d, width)
    d.get(site.url.rstrip("/") + path)
    WebDriverWait(d, 60).until(lambda d: d.find_element(By.TAG_NAME, "body").get_attribute("data-ready") == "1")


def _shot(d, name: str, folder: Path, element: str | None = None, most: int = 4000) -> Path:
    """The whole page (or one element, at most ``most`` px tall) as a PNG in ``folder``; with
    ``$BELOTE_SCREENSHOTS`` also there, named ``serve_NAME.png``."""
    if element:
        r = d.execute_script("const r = document.getElementById(arguments[0]).getBoundingClientRect();"
                             "return [r.left + scrollX, r.top + scrollY, r.width, r.height];", element)
    else:
        r = [0, 0, d.execute_script("return innerWidth"), d.execute_script("return document.documentElement.scrollHeight")]
    clip = {"x": r[0], "y": r[1], "width": r[2], "height": min(r[3], most), "scale": 1}
    data = d.execute_cdp_cmd("Page.captureScreenshot", {"format": "png", "captureBeyondViewport": True, "clip": clip})
    path = folder / f"{name}.png"
    path.write_bytes(base64.b64decode(data["data"]))
    assert path.stat().st_size > 10_000  # a page drawn, not a blank one
    if os.environ.get("BELOTE_SCREENSHOTS"):  # the README's: small, a palette of 128 colours
        from PIL import Image

        Image.open(path).convert("RGB").quantize(128).save(Path(os.environ["BELOTE_SCREENSHOTS"]) / f"serve_{name}.png",
                                                           optimize=True)
    return path


def _ended(d, timeout=900):
    WebDriverWait(d, timeout, poll_frequency=0.2).until(
        lambda d: d.find_element(By.TAG_NAME, "body").get_attribute("data-state") in ("done", "failed", "cancelled", "refused"))
    state = d.find_element(By.TAG_NAME, "body").get_attribute("data-state")
    assert state == "done", d.find_element(By.ID, "error").text
    return state


def _table(d, table_id: str) -> list[list[str]]:
    rows = d.find_elements(By.CSS_SELECTOR, f"#{table_id} tr")
    return [[c.get_attribute("textContent").strip() for c in r.find_elements(By.CSS_SELECTOR, "th, td")] for r in rows]


def _cells_of(call: dict) -> dict:
    """The CLI's JSON of one call as the table's cells (the one formatter, ``take_table.cell``)."""
    return {col.attr: take_table.cell(Rate(**call[col.attr]) if col.kind == "rate" else Mean(**call[col.attr]))
            for col in take_table.COLUMNS}


def _args(command: str) -> list[str]:
    args = shlex.split(command)
    assert args[0] == "belote"
    return args[1:]


def _fits(d) -> None:
    """No sideways scrolling, and every control a finger can reach at least 40 px on its short side
    where it is a button or a card to click (a check box's label is the target around it)."""
    # a phone widens its viewport to what overflows (innerWidth), a desktop scrolls sideways (scrollWidth)
    width, inner, scroll, client = d.execute_script("const e = document.documentElement; "
                                                    "return [screen.width, innerWidth, e.scrollWidth, e.clientWidth]")
    assert inner == width and scroll <= client, (width, inner, scroll, client)
    small = d.execute_script("""
        return [...document.querySelectorAll('button, select, input[type=text], input[type=number], .card.pick, label.pill, header a')]
          .filter(e => e.offsetParent !== null)
          .map(e => [e.id || e.className || e.tagName, e.getBoundingClientRect()])
          .filter(([, r]) => r.height < 39.5 || r.width < 39.5).map(([n, r]) => `${n} ${Math.round(r.width)}x${Math.round(r.height)}`);""")
    assert not small, small


# ---- should I take? ---------------------------------------------------------------------------------

def test_a_link_to_the_take_page_answers_on_load_with_the_cli_s_numbers(belote, browser, site, shots):
    d = browser
    _open(d, site, "/take?hand=Jh+9h+Ah+Tc+7s&turned=Qh&deals=20000&seed=7&bracket-plays=heuristic,net,pimc"
                   "&bracket-deals=pimc=120&score=820-640&lang=en")
    assert d.find_element(By.ID, "score").get_attribute("value") == "820-640"
    assert d.find_element(By.ID, "score-hint").text == "ours-theirs, e.g. 820-640"
    # the bracket offers the players other than the answer's (net by default: the heuristic, pimc, dd)
    assert [p for p in ("heuristic", "net") if d.find_element(By.ID, f"pill-{p}").is_displayed()] == ["heuristic"]
    assert d.find_element(By.ID, "b-heuristic").is_selected() and d.find_element(By.ID, "b-pimc").is_selected()
    WebDriverWait(d, 600).until(lambda d: d.find_element(By.ID, "verdict").text)  # the verdict before the bracket
    _ended(d)
    command = d.find_element(By.ID, "command").text
    assert command == "belote take 'Jh 9h Ah Tc 7s' --turned Qh --deals 20000 --seed 7 --score 820-640"
    cli = belote.json(*_args(command))
    # the score's block under the verdict: each call's chance to win the game, the CLI's for the same seed
    from analyzer.runs.fmt import ci_pct

    chances = " · ".join(f"{words.call_text(c['label'], 'en')} {ci_pct(c['win']['mean'], c['win']['lo'], c['win']['hi'])}"
                         for c in cli["game"]["calls"])
    assert d.find_element(By.ID, "game-chances").text == f"Chance to win the game from 820-640 (to 1000): {chances}"
    assert d.find_element(By.ID, "game-verdict").text.startswith("Verdict by the chance to win: TAKE ♥")
    assert d.find_element(By.ID, "game-regions").text.startswith("By the score (every 100 points on each total): ")
    assert d.find_element(By.ID, "game-table").text.startswith("Chances from the equity table classic: ")
    assert "score=820-640" in d.current_url
    assert d.find_element(By.ID, "verdict").text == cli["verdict"]["text"] == words.verdict(cli, "en")
    assert d.find_element(By.ID, "reason").text == words.reason(cli, "en")
    assert d.find_element(By.ID, "bidders").text.startswith(words.who_plays(cli, "en"))
    shown = _table(d, "take-table")
    assert shown[0][1:] == [words.call_text(c["label"], "en") for c in cli["calls"]] == ["take ♥", "pass"]
    expected = [_cells_of(c) for c in cli["calls"]]
    labels = {v["en"][0]: k for k, v in words.ROWS.items()}
    for name, *cells in shown[1:]:
        assert cells == [e[labels[name]] for e in expected], name
    assert len(shown) - 1 >= 10  # every row of the CLI's table (not played only when it happened)
    # the bracket: the command it shows gives the same verdicts and columns
    bracket = belote.json(*_args(d.find_element(By.ID, "bracket-command").text))
    assert d.find_element(By.ID, "bracket-verdict").text == bracket["text"]
    assert bracket["plays"] == ["heuristic", "net", "pimc"]
    heads = _table(d, "bracket-table")[0][2:]
    assert [h.split(" (n=")[1].rstrip(")").replace(",", "") for h in heads][:3] == ["20000", "20000", "120"]
    # each term explained where it appears: a tap (focus) shows it
    term = d.find_element(By.CSS_SELECTOR, "#take-table .term[data-key=dedans]")
    term.click()
    assert d.execute_script("return document.activeElement.dataset.tip").startswith(words.ROWS["dedans"]["en"][1])
    d.find_element(By.ID, "copy-link").click()
    WebDriverWait(d, 10).until(lambda d: d.find_element(By.TAG_NAME, "body").get_attribute("data-copied"))
    assert "hand=Jh+9h+Ah+Tc+7s" in d.find_element(By.TAG_NAME, "body").get_attribute("data-copied")
    _fits(d)
    _shot(d, "take_en_1280", shots)
    _shot(d, "take_desktop", shots, element="answer", most=1100)


def test_a_hand_clicked_on_a_phone_gets_the_dutch_verdict_and_its_link(belote, browser, site, shots):
    d = browser
    _open(d, site, "/?lang=nl", PHONE)
    assert d.find_element(By.ID, "go").text == "Moet ik spelen?"
    Select(d.find_element(By.ID, "variant")).select_by_value("piekjas")
    Select(d.find_element(By.ID, "players")).select_by_value("3")
    for c in "Jh 9h 7h Ac 8c Kd".split():
        d.find_element(By.CSS_SELECTOR, f'#grid [data-card="{c}"]').click()
    assert [e.text for e in d.find_elements(By.CSS_SELECTOR, '#grid .card.chosen')] == ["8♣", "A♣", "H♦", "7♥", "9♥", "B♥"]
    d.find_element(By.CSS_SELECTOR, "input[name=target][value=turned]").click()
    d.find_element(By.CSS_SELECTOR, '#grid [data-card="Th"]').click()
    assert d.find_element(By.ID, "hand").get_attribute("value") == "Jh 9h 7h Ac 8c Kd"
    deals = d.find_element(By.ID, "deals")
    deals.clear()
    deals.send_keys("20000")
    d.find_element(By.ID, "go").click()
    _ended(d)
    assert "hand=Jh+9h+7h+Ac+8c+Kd" in d.current_url and "turned=Th" in d.current_url
    assert d.find_element(By.ID, "command").text == ("belote take 'Jh 9h 7h Ac 8c Kd' --turned Th --variant piekjas "
                                                     "--players 3 --deals 20000 --seed 1")
    cli = belote.json("take", "Jh 9h 7h Ac 8c Kd", "--turned", "Th", "--variant", "piekjas", "--players", "3",
                   "--deals", "20000")
    assert d.find_element(By.ID, "verdict").text == words.verdict(cli, "nl")
    reason = d.find_element(By.ID, "reason").text
    assert reason == words.reason(cli, "nl") and reason.startswith("Waarom passen: na passen word je toch troefmaker")
    rows = _table(d, "take-table")
    assert [r[0] for r in rows[1:4]] == [words.ROWS[k]["nl"][0] for k in ("score", "vs_pass", "net")]
    cells = " ".join(c for r in rows[1:] for c in r[1:])  # the numbers with the Dutch decimal comma, as the verdict's
    assert re.search(r"\d,\d", cells) and not re.search(r"\d\.\d", cells), cells
    assert d.find_element(By.ID, "game").get_attribute("hidden")  # no score, no block
    assert d.find_element(By.ID, "score-hint").text == "het totaal van elke stoel, voorhand eerst"
    assert d.find_element(By.ID, "score").get_attribute("placeholder") == "120-300-80"
    _fits(d)
    _shot(d, "take_nl_390", shots)
    # a classic hand with the score typed: the chances to win the game, with the decimal comma
    _open(d, site, "/?lang=nl&hand=Jh+9h+Ac+Tc+7s&deals=20000&seed=2", PHONE)
    assert d.find_element(By.ID, "score-hint").text == "wij-zij, bv. 820-640"
    d.find_element(By.ID, "turned").send_keys("Qh")
    d.find_element(By.ID, "score").send_keys("820-640")
    d.find_element(By.ID, "go").click()
    _ended(d)
    assert "score=820-640" in d.current_url and d.find_element(By.ID, "command").text.endswith(" --score 820-640")
    chances = d.find_element(By.ID, "game-chances").text
    assert re.fullmatch(r"Kans om het spel te winnen vanuit 820-640 \(tot 1000\): spelen ♥ \d+,\d% \[\d+,\d, \d+,\d\] · "
                        r"passen \d+,\d% \[\d+,\d, \d+,\d\]", chances), chances
    assert d.find_element(By.ID, "game-verdict").text.startswith("Oordeel naar de winkans: SPELEN ♥")
    assert d.find_element(By.ID, "verdict-by").text == "Oordeel naar de punten van deze hand:"
    assert d.find_element(By.ID, "game-regions").text.startswith("Naar de stand (elke 100 punten op elk totaal): ")
    assert d.find_element(By.ID, "game-table").text.startswith("Winkansen uit de winkanstabel classic: ")
    _fits(d)
    _shot(d, "take_score_nl_390", shots)
    _shot(d, "take_phone", shots, element="answer", most=1300)


def test_house_rules_are_named_choices_and_the_play_policy_the_cli_s_default(browser, site):
    d = browser
    _open(d, site, "/?lang=en&variant=piekjas&players=2", PHONE)
    d.find_element(By.CSS_SELECTOR, "#more summary").click()
    undertrump = d.find_element(By.ID, "rule-undertrump")
    assert [o.text for o in undertrump.find_elements(By.TAG_NAME, "option")] == [
        "must still trump lower (undertrump) (default)", "may play any card"]
    assert {e.get_attribute("data-rule") for e in d.find_elements(By.CSS_SELECTOR, "#rules-box [data-rule]")} == {
        "round2_suits", "roem_compare", "roem_tie", "undertrump", "dix_timing", "trickless_roem", "target"}
    default = site.request("/api/options")[1]["default_play"]
    assert d.find_element(By.ID, "play").get_attribute("value") == default
    _fits(d)


def test_the_dekjas_turned_card_is_picked_among_the_dealer_s_face_up_cards(browser, site):
    d = browser
    _open(d, site, "/?variant=dekjas&lang=en&seat=0", PHONE)
    for c in "Jh 9h Ah Ac Tc 7d 8s Ks".split():
        d.find_element(By.CSS_SELECTOR, f'#grid [data-card="{c}"]').click()
    d.find_element(By.CSS_SELECTOR, "input[name=target][value=theirs]").click()
    for c in "7c 8c 9c Qd Kd Ad Ts Qh".split():
        d.find_element(By.CSS_SELECTOR, f'#grid [data-card="{c}"]').click()
    d.find_element(By.CSS_SELECTOR, "input[name=target][value=turned]").click()
    d.find_element(By.CSS_SELECTOR, '#grid [data-card="Qh"]').click()  # one of theirs: the dealer's (seat 1)
    assert d.find_element(By.ID, "turned").get_attribute("value") == "Qh"
    assert d.find_element(By.ID, "theirs").get_attribute("value") == "7c 8c 9c Qd Kd Ad Ts Qh"
    _fits(d)


def test_a_bracket_s_time_left_is_its_stage_s_own_and_says_finishing_at_the_end(browser, site):
    """The progress of a bracket: the heuristic's 100,000 deals in 2 s, then dd's 500 at a hand a
    second: dd's time left comes from dd's own rate, not the whole job's; a full count says finishing
    (the control run that follows has no count of its own)."""
    d = browser
    _open(d, site, "/?lang=en")
    said = d.execute_script("""
        const box = document.getElementById('progress'), out = [];
        const step = (stage, done, total, seconds) => { showProgress(box, {state: 'running', progress: {stage, done, total, seconds}});
                                                        out.push(box.querySelector('.ptext').textContent); };
        STAGE = {name: null, since: 0};
        step('heuristic', 50000, 100000, 1.5); step('dd', 50, 500, 62); step('dd', 100, 500, 112); step('dd', 500, 500, 512);
        return out;""")
    assert said == ["heuristic: 50,000 of 100,000, about 2 s left", "dd: 50 of 500", "dd: 100 of 500, about 200 s left",
                    "dd: 500 of 500, finishing"]


# ---- review a deal ---------------------------------------------------------------------------------

def test_a_logged_deal_s_link_shows_the_cli_s_review_its_bidding_and_result(belote, browser, site, shots):
    d = browser
    log = next(site.root.glob("*.jsonl"))
    deal = next(r["deal"] for r in site.request("/api/logs")[1][0]["deals"] if r["outcome"] == "played")
    _open(d, site, f"/review?log=0&deal={deal}&lang=en&worlds=8")
    _ended(d)
    cli = belote.json("review", log, "--deal", deal, "--worlds", "8")
    cards = cli["cards"]
    assert [e.text for e in d.find_elements(By.CSS_SELECTOR, "#bids-list li")] == [
        words.bid_text(b, 4, "en") for b in cli["bids"]]
    assert len(d.find_elements(By.CSS_SELECTOR, "#value-chart circle")) == len(cards) + 1
    valued = 0
    for k, c in enumerate(cards):
        assert d.find_element(By.TAG_NAME, "body").get_attribute("data-step") == str(k)
        if c["forced"]:
            assert not d.find_elements(By.ID, "legal-table")
        else:
            rows = _table(d, "legal-table")[1:]
            assert {words.card_text(_card_of(r[0]), "en"): (int(r[1]), int(r[2])) for r in rows} == {
                words.card_text(x, "en"): (c["values"][x], c["losses"][x]) for x in c["values"]}
            # beside each, its value by what the seat knew, and the card's verdict in words
            shown = {_card_of(r[0]): [float(x) for x in r[3].split(" ± ")] for r in rows}  # one decimal shown
            assert set(shown) == set(c["info"]["values"])
            assert all(abs(a - b) <= 0.051 for x, v in c["info"]["values"].items() for a, b in zip(shown[x], v))
            verdict = d.find_element(By.ID, "verdict-line").text
            assert verdict.startswith({"error": "An error", "bad luck": "Bad luck", "lucky": "Lucky",
                                       "": "By what the seat knew"}[c["info"]["kind"]]), verdict
            played = d.find_element(By.ID, f"seat-{c['seat']}").find_element(By.CSS_SELECTOR, f'[data-card="{c["card"]}"]')
            assert "played" in played.get_attribute("class")
        if k >= 4 and not c["forced"] and not valued:  # a card with a choice: the legal cards coloured
            _shot(d, "review_log_en_1280", shots)
            _shot(d, "review_desktop", shots, element="answer", most=1250)
        valued += k >= 4 and not c["forced"]
        d.find_element(By.ID, "next").click()
    assert valued > 0
    assert f"step={len(cards)}" in d.current_url  # the step is in the link
    result = [p.text for p in d.find_elements(By.CSS_SELECTOR, "#result p")]
    from analyzer.rules import Rules

    assert result == words.result_lines({"troefmaker": cli["troefmaker"], **cli["played"]}, Rules.from_label("classic"),
                                        "en")
    assert len(d.find_elements(By.CSS_SELECTOR, "#story > li")) == 8
    totals = _table(d, "totals-table")[1:]
    assert [int(r[1]) for r in totals] == [cli["given_away"]["seats"][str(s)] for s in range(len(totals))]
    d.find_element(By.ID, "first").click()  # the bot beside you, from the first card: net plays every seat
    d.find_element(By.ID, "bot-go").click()
    WebDriverWait(d, 120).until(lambda drv: drv.find_elements(By.ID, "bot-with"))
    assert d.find_element(By.ID, "bot-head").text.startswith("From card 1 on, the learned player (net) plays every seat")
    assert d.find_element(By.ID, "bot-with").text.startswith("With the bot: ")
    assert d.find_element(By.ID, "bot-reason").text.startswith("net plays ")  # what decided its first card
    assert d.find_element(By.ID, "bot-command").text.endswith("--bot net --bot-from 1")
    luck = d.find_element(By.ID, "luck-total").text
    assert luck.startswith("By what each seat knew: seat 0 (voorhand) ") and f"{cli['luck']['seats']['0']['error']} " \
        "error(s)" in luck


def test_a_pasted_record_s_link_shows_the_same_review(belote, browser, site):
    """A pasted deal record is kept in the link (base64url of its JSON): opening the link on a phone
    reviews the same deal, as belote review reviews the log it came from."""
    d = browser
    log = next(site.root.glob("*.jsonl"))
    from analyzer.output.deallog import read_log

    record = next(r for r in read_log(log) if r["outcome"] == "played")
    _open(d, site, "/review?lang=en&pimc=none&worlds=0")
    d.find_element(By.CSS_SELECTOR, "input[name=source][value=record]").click()
    box = d.find_element(By.ID, "record")
    d.execute_script("arguments[0].value = arguments[1];", box, json.dumps(record))
    d.find_element(By.ID, "go").click()
    _ended(d)
    assert "record=" in d.current_url
    first = [e.text for e in d.find_elements(By.CSS_SELECTOR, "#bids-list li")]
    _device(d, PHONE)
    d.get(d.current_url.replace("lang=en", "lang=nl"))
    _ended(d)
    assert d.find_element(By.CSS_SELECTOR, "input[name=source][value=record]").is_selected()
    assert json.loads(d.find_element(By.ID, "record").get_attribute("value")) == json.loads(json.dumps(record))
    d.find_element(By.ID, "last").click()
    cli = belote.json("review", log, "--deal", record["deal"], "--pimc", "none", "--worlds", "0")
    assert "worlds=0" in d.current_url
    assert [e.text for e in d.find_elements(By.CSS_SELECTOR, "#bids-list li")] == [
        words.bid_text(b, record["players"], "nl") for b in cli["bids"]]
    assert len(first) == len(cli["bids"])
    assert d.find_element(By.TAG_NAME, "body").get_attribute("data-step") == str(len(cli["cards"]))
    _fits(d)


def _card_of(text: str) -> str:
    """A card as the page shows it (``10♥``) back in notation (``Th``)."""
    rank = {"10": "T", "B": "J", "V": "Q", "H": "K"}.get(text[:-1], text[:-1])
    return rank + {"♣": "c", "♦": "d", "♥": "h", "♠": "s"}[text[-1]]


def test_a_random_deal_s_link_is_reviewed_and_its_command_reproduces_it(browser, site):
    d = browser
    _open(d, site, "/review?variant=classic&seed=3&deal=0&pimc=none&worlds=4&lang=nl", PHONE)
    _ended(d)
    command = d.find_element(By.ID, "command").text
    assert command.startswith("belote simulate --variant classic --seed 3 ") and command.endswith("--pimc none --worlds 4")
    for _ in range(6):  # to a card with a choice: its table has the column of the values by what the seat knew
        d.find_element(By.ID, "next").click()
        if d.find_elements(By.ID, "verdict-line"):
            break
    assert d.find_element(By.ID, "verdict-line").text and "naar wat de stoel wist (4 werelden)" in \
        d.find_element(By.ID, "legal-table").text
    assert d.find_element(By.ID, "headline").text.startswith("Spel ")
    _fits(d)


def test_an_illegal_card_is_refused_with_the_cli_s_line_naming_the_rule(belote, browser, site, shots):
    d = browser
    cli = belote("review", "--hands", HANDS, "--trump", "h", "--plays", "Jh Ac")
    assert cli.returncode == 2
    line = cli.stderr.strip().removeprefix("belote: error: --plays: ")
    for lang, width in (("en", DESKTOP), ("nl", PHONE)):
        _open(d, site, f"/review?hands={HANDS.replace(' ', '+')}&trump=h&taker=0&plays=Jh&worlds=0&lang={lang}", width)
        seat1 = WebDriverWait(d, 30).until(lambda d: d.find_element(By.CSS_SELECTOR, "#edit-seat-1.to-move"))
        seat1.find_element(By.CSS_SELECTOR, '[data-card="Ac"]').click()
        WebDriverWait(d, 30).until(lambda d: d.find_element(By.ID, "deal-error").text)
        shown = d.find_element(By.ID, "deal-error").text
        if lang == "en":
            assert shown == line == ("card 2, Ac, is not legal for seat 1 (its legal cards: 7h 8h Qh Kh): trump was led: "
                                     "seat 1 must play a trump (RULES.md §4.2)")
        else:
            assert shown.startswith("kaart 2, A♣, mag niet door stoel 1 (toegestaan: 7♥ 8♥ V♥ H♥): er werd troef gevraagd")
            _fits(d)
            _shot(d, "editor_refusal_nl_390", shots)
        assert "plays=Jh" in d.current_url and "Ac" not in d.current_url.split("plays=")[1]
        d.find_element(By.CSS_SELECTOR, '#edit-seat-1 [data-card="Qh"]').click()  # a legal one is taken
        WebDriverWait(d, 30).until(lambda d: "plays=Jh+Qh" in d.current_url)
        assert d.find_element(By.ID, "deal-error").text == ""


def _deal_by_clicking(d, record: dict) -> None:
    """Deal a logged Dekjas deal by clicking: each seat's face-up then face-down cards, the turned card,
    the bidding's calls, then every card in the order played."""
    for s, seat in enumerate(record["piles"]):
        d.find_element(By.ID, f"give-{s}").click()
        for layer, k in (("up", 1), ("down", 0)):
            d.find_element(By.ID, f"layer-{layer}").click()
            for pile in seat:
                d.find_element(By.CSS_SELECTOR, f'#deal-grid [data-card="{pile[k]}"]').click()
    d.find_element(By.ID, "give-turned").click()
    d.find_element(By.CSS_SELECTOR, f'#deal-grid [data-card="{record["turned"]}"]').click()
    from analyzer.game.played import call_token
    from analyzer.rules.calls import CALL_NAMES

    for b in record["bids"]:
        token = call_token(CALL_NAMES.index(b["call"]), "cdhs".index(b["suit"]) if "suit" in b else -1)
        if b["round"] == 1 and b["call"] == "take":
            token = f"take:{b['suit']}"
        WebDriverWait(d, 30).until(lambda d: d.find_elements(By.CSS_SELECTOR, f'#bids-box [data-call="{token}"]'))
        d.find_element(By.CSS_SELECTOR, f'#bids-box [data-call="{token}"]').click()
    for k, (s, card) in enumerate((s, c) for tr in record["tricks"] for s, c in tr["plays"]):
        box = WebDriverWait(d, 30).until(lambda d: d.find_element(By.CSS_SELECTOR, f"#edit-seat-{s}.to-move"))
        box.find_element(By.CSS_SELECTOR, f'[data-card="{card}"]').click()
        WebDriverWait(d, 30).until(lambda d: d.find_element(By.TAG_NAME, "body").get_attribute("data-plays") == str(k + 1))
        assert d.find_element(By.ID, "deal-error").text == ""


def test_a_dekjas_deal_entered_by_clicking_is_reviewed_as_the_cli_reviews_it(belote, browser, site, shots):
    d = browser
    log = write_log(site.root, deals=3, variant="dekjas")
    from analyzer.output.deallog import read_log

    record = next(r for r in read_log(log) if r["outcome"] == "played")
    _open(d, site, "/review?variant=dekjas&lang=en&pimc=none")
    t0 = time.monotonic()
    _deal_by_clicking(d, record)
    clicking = time.monotonic() - t0
    d.find_element(By.ID, "go").click()
    _ended(d)
    hands = " / ".join(" ".join(f"{up}:{down}" for down, up in seat) for seat in record["piles"])
    plays = " ".join(c for t in record["tricks"] for _, c in t["plays"])
    command = d.find_element(By.ID, "command").text
    from analyzer.game.played import bids_text

    # the bidding clicked decides the trump and the troefmaker on the command line too
    assert _args(command) == ["review", "--variant", "dekjas", "--hands", hands, "--turned", record["turned"], "--bids",
                              bids_text(record["bids"]), "--plays", plays, "--pimc", "none"]
    cli = belote.json(*_args(command))
    assert cli["played"]["result"] == record["result"]  # the typed deal scores as its log
    assert (cli["trump"], cli["troefmaker"], cli["bids"]) == (record["trump"], record["troefmaker"], record["bids"])
    d.find_element(By.ID, "last").click()
    from analyzer.rules import Rules

    assert [p.text for p in d.find_elements(By.CSS_SELECTOR, "#result p")] == words.result_lines(
        record, Rules.from_label("dekjas"), "en")
    assert [e.text for e in d.find_elements(By.CSS_SELECTOR, "#bids-list li")] == [
        words.bid_text(b, 2, "en") for b in record["bids"]]
    _fits(d)
    d.find_element(By.ID, "first").click()
    for _ in range(9):
        d.find_element(By.ID, "next").click()
    _shot(d, "review_dekjas_en_1280", shots, element="answer", most=1250)
    # the same deal's link, on a phone, in Dutch: answered on load
    url = d.current_url.replace("lang=en", "lang=nl")
    _device(d, PHONE)
    d.get(url)
    _ended(d)
    assert d.find_element(By.ID, "headline").text.startswith("Jouw spel · Dekjas · troef")
    assert d.find_element(By.TAG_NAME, "body").get_attribute("data-step") == "9"
    _fits(d)
    _shot(d, "review_nl_390", shots)
    _shot(d, "review_phone", shots, element="answer", most=1400)
    print(f"a Dekjas deal dealt, bid and played by clicking in {clicking:.1f} s")


# ---- the other pages ----------------------------------------------------------------------------------

def test_the_words_page_lists_every_term_in_both_languages(browser, site, shots):
    d = browser
    for lang, width in (("nl", PHONE), ("en", DESKTOP)):
        _open(d, site, f"/glossary?lang={lang}", width)
        terms = [e.get_attribute("id") for e in d.find_elements(By.CSS_SELECTOR, "#glossary dt")]
        assert terms == list(words.GLOSSARY)
        assert d.find_element(By.ID, "nat").text.startswith(words.TERMS["nat"][lang][0])
        _fits(d)
    _shot(d, "glossary_en_1280", shots)


def test_the_reports_page_opens_a_report(browser, site, shots):
    d = browser
    _open(d, site, "/reports?lang=nl", PHONE)
    link = WebDriverWait(d, 30).until(lambda d: d.find_element(By.LINK_TEXT, "demo"))
    _fits(d)
    _shot(d, "reports_nl_390", shots)
    link.click()
    WebDriverWait(d, 30).until(lambda d: d.find_elements(By.ID, "title"))
    assert d.find_element(By.ID, "title").text == "demo report"


@pytest.mark.parametrize("lang, width", [("en", PHONE), ("nl", DESKTOP)])
def test_every_page_speaks_the_language_asked_and_fits_the_screen(browser, site, lang, width):
    """The combinations the other tests leave out: each page in English on a phone and in Dutch on a
    desktop, its header in the language, no sideways scrolling, every target big enough."""
    d = browser
    for path in ("/", "/review", "/glossary", "/reports"):
        _open(d, site, f"{path}?lang={lang}", width)
        nav = [a.text for a in d.find_elements(By.CSS_SELECTOR, "header nav a")]
        assert nav == [words.PAGE[lang][k] for k in ("nav_take", "nav_review", "nav_words", "nav_reports")], path
        assert d.find_element(By.TAG_NAME, "html").get_attribute("lang") == lang
        _fits(d)
    _open(d, site, f"/?lang={lang}", width)  # the game's terms, each explained where the seat is chosen
    d.find_element(By.CSS_SELECTOR, "#seat-words .term[data-key=voorhand]").click()
    assert d.execute_script("return document.activeElement.dataset.tip") == words.TERMS["voorhand"][lang][1]


def test_the_language_switch_keeps_the_page_s_state(browser, site):
    d = browser
    _open(d, site, "/review?variant=piekjas&players=4&lang=en", PHONE)
    assert d.find_element(By.ID, "go").text == "Review"
    d.find_element(By.ID, "lang-nl").click()
    WebDriverWait(d, 30).until(lambda d: d.find_element(By.TAG_NAME, "body").get_attribute("data-ready") == "1"
                               and d.find_element(By.ID, "go").text == "Nabespreken")
    assert "players=4" in d.current_url and d.find_element(By.ID, "players").get_attribute("value") == "4"
    d.execute_script("localStorage.removeItem('belote-lang')")


def test_closing_the_page_stops_its_question(browser, site):
    d = browser
    _open(d, site, "/")
    d.find_element(By.ID, "hand").send_keys("Jh 9h Ah Tc 7s")
    d.find_element(By.ID, "turned").send_keys("Qh")
    deals = d.find_element(By.ID, "deals")
    deals.clear()
    deals.send_keys("200000")  # the most the page takes under the default player: seconds of net's play
    end = time.monotonic() + 300  # the questions of the pages before have ended (a review still running when its
    while time.monotonic() < end:  # page went is cancelled when it next looks: it would count here)
        jobs = site.request("/api/status")[1]["jobs"]
        if jobs["running"] == 0 and jobs["waiting"] == 0:
            break
        time.sleep(0.2)
    before = site.request("/api/status")[1]["jobs"]["cancelled"]
    d.find_element(By.ID, "go").click()
    WebDriverWait(d, 300).until(lambda d: d.find_element(By.CSS_SELECTOR, "#progress .ptext").text.startswith(
        DEFAULT_PLAY + ":"))
    d.get("about:blank")  # the page closes: its beacon cancels the question
    end = time.monotonic() + 60
    while time.monotonic() < end:
        jobs = site.request("/api/status")[1]["jobs"]
        if jobs["cancelled"] > before and jobs["running"] == 0:
            break
        time.sleep(0.2)
    assert jobs["cancelled"] == before + 1 and jobs["running"] == 0, jobs
