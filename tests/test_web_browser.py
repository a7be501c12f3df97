"""``belote serve``'s pages driven in a real browser (Debian's chromium through its chromedriver and
Selenium; ``make test`` installs them): a hand picked by clicking cards gets the verdict and the
table of ``belote take --json`` for the same seed, cell for cell, and the bracket streams in after;
a logged deal stepped through card by card shows the values of ``belote review --json``; a
report opens from the reports page; closing a page stops its question. Screenshots of each page
go to the test's folder (and to ``$BELOTE_SCREENSHOTS`` when set: the README's pictures)."""

from __future__ import annotations

import os
import shutil
import time
from pathlib import Path

import pytest

from analyzer.output import take_table
from analyzer.runs.stats import Mean, Rate
from web_server import Server, cli_json, write_log

pytestmark = pytest.mark.slow  # a browser, a server and the CLI: about a minute

selenium = pytest.importorskip("selenium", reason="the test extra installs selenium (make test)")
from selenium import webdriver  # noqa: E402
from selenium.webdriver.chrome.service import Service  # noqa: E402
from selenium.webdriver.common.by import By  # noqa: E402
from selenium.webdriver.support.ui import WebDriverWait  # noqa: E402


@pytest.fixture(scope="module")
def browser():
    chromium, driver = shutil.which("chromium"), shutil.which("chromedriver")
    assert chromium and driver, "Debian's chromium and chromium-driver are missing: make test installs them"
    opts = webdriver.ChromeOptions()
    for flag in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--window-size=1280,1500"):
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


def _shot(d, name: str, tmp_path: Path) -> Path:
    path = tmp_path / f"{name}.png"
    d.execute_script("window.scrollTo(0, 0)")
    height = d.execute_script("return document.body.scrollHeight")
    d.set_window_size(1280, min(max(height + 40, 800), 4000))  # the whole page in the picture
    d.save_screenshot(str(path))
    d.set_window_size(1280, 1500)
    assert path.stat().st_size > 20_000  # a page drawn, not a blank one
    if os.environ.get("BELOTE_SCREENSHOTS"):
        shutil.copy(path, Path(os.environ["BELOTE_SCREENSHOTS"]) / f"serve_{name}.png")
    return path


def _ended(d, timeout=900):
    WebDriverWait(d, timeout, poll_frequency=0.2).until(
        lambda d: d.find_element(By.TAG_NAME, "body").get_attribute("data-state") in ("done", "failed", "cancelled", "refused"))
    state = d.find_element(By.TAG_NAME, "body").get_attribute("data-state")
    assert state == "done", d.find_element(By.ID, "error").text
    return state


def _table(d, table_id: str) -> list[list[str]]:
    rows = d.find_elements(By.CSS_SELECTOR, f"#{table_id} tr")
    return [[c.text for c in r.find_elements(By.CSS_SELECTOR, "th, td")] for r in rows]


def _cells_of(call: dict) -> dict:
    """The CLI's JSON of one call as the table's cells (the one formatter, ``take_table.cell``)."""
    out = {}
    for col in take_table.COLUMNS:
        x = call[col.attr]
        out[col.name] = take_table.cell(Rate(**x) if col.kind == "rate" else Mean(**x))
    return out


def test_a_hand_picked_by_clicking_gets_the_cli_s_verdict_and_numbers(browser, site, tmp_path):
    d = browser
    d.get(site.url)
    for c in "Jh 9h Ah Tc 7s".split():
        d.find_element(By.CSS_SELECTOR, f'#grid [data-card="{c}"]').click()
    d.find_element(By.CSS_SELECTOR, "input[name=target][value=turned]").click()
    d.find_element(By.CSS_SELECTOR, '#grid [data-card="Qh"]').click()
    assert d.find_element(By.ID, "hand").get_attribute("value") == "Jh 9h Ah Tc 7s"
    assert d.find_element(By.ID, "turned").get_attribute("value") == "Qh"
    for field, value in (("deals", "20000"), ("seed", "7"), ("pimc-deals", "120")):
        box = d.find_element(By.ID, field)
        box.clear()
        box.send_keys(value)
    d.find_element(By.ID, "b-heuristic").click()
    d.find_element(By.ID, "b-pimc").click()
    t0 = time.monotonic()
    d.find_element(By.ID, "go").click()
    WebDriverWait(d, 600).until(lambda d: d.find_element(By.ID, "verdict").text)  # the verdict before the bracket
    verdict_seconds = time.monotonic() - t0
    _ended(d)
    command = d.find_element(By.ID, "command").text
    assert command == "belote take 'Jh 9h Ah Tc 7s' --turned Qh --deals 20000 --seed 7"
    cli = cli_json(*_args(command))
    assert d.find_element(By.ID, "verdict").text == cli["verdict"]["text"]
    shown = _table(d, "take-table")
    assert shown[0][1:] == [c["label"] for c in cli["calls"]]
    expected = [_cells_of(c) for c in cli["calls"]]
    for name, *cells in shown[1:]:
        assert cells == [e[name] for e in expected], name
    assert len(shown) - 1 >= 10  # every row of the CLI's table (p_not_played only when it happened)
    # the bracket: the command it shows gives the same verdicts and columns
    bracket = cli_json(*_args(d.find_element(By.ID, "bracket-command").text))
    assert d.find_element(By.ID, "bracket-verdict").text == bracket["text"]
    assert bracket["plays"] == ["heuristic", "net", "pimc"]
    heads = _table(d, "bracket-table")[0][2:]
    assert [h.split(" (n=")[1].rstrip(")").replace(",", "") for h in heads][:3] == \
        [str(r["n"]) for r in bracket["results"]] == ["20000", "20000", "120"]
    _shot(d, "take", tmp_path)
    print(f"verdict shown {verdict_seconds:.1f} s after the click (goal: under 10 s warm)")


def _args(command: str) -> list[str]:
    import shlex

    args = shlex.split(command)
    assert args[0] == "belote"
    return args[1:]


def test_a_logged_deal_stepped_through_shows_the_cli_s_review(browser, site, tmp_path):
    d = browser
    d.get(site.url + "review")
    d.find_element(By.CSS_SELECTOR, "input[name=source][value=log]").click()
    WebDriverWait(d, 30).until(lambda d: d.find_elements(By.CSS_SELECTOR, "#log-deal option"))
    deal = int(d.find_element(By.ID, "log-deal").get_attribute("value"))
    d.find_element(By.ID, "go").click()
    _ended(d)
    log = next(site.root.glob("*.jsonl"))
    cli = cli_json("review", log, "--deal", deal)
    cards = cli["cards"]
    assert len(d.find_elements(By.CSS_SELECTOR, "#value-chart circle")) == len(cards) + 1
    valued = 0
    for k, c in enumerate(cards):
        assert d.find_element(By.TAG_NAME, "body").get_attribute("data-step") == str(k)
        if c["forced"]:
            assert not d.find_elements(By.ID, "legal-table")
        else:
            rows = _table(d, "legal-table")[1:]
            assert {r[0]: (int(r[1]), int(r[2])) for r in rows} == {x: (c["values"][x], c["losses"][x]) for x in c["values"]}
            marks = {r[0]: r[3] for r in rows}
            assert "played" in marks[c["card"]] and (c["pimc"] is None or "pimc" in marks[c["pimc"]])
            seat = d.find_element(By.ID, f"seat-{c['seat']}")
            played = seat.find_element(By.CSS_SELECTOR, f'[data-card="{c["card"]}"]')
            assert "played" in played.get_attribute("class")
            valued += 1
        if k == 4:
            _shot(d, "review", tmp_path)
        d.find_element(By.ID, "next").click()
    assert valued > 0
    totals = _table(d, "totals-table")[1:]
    assert [int(r[1]) for r in totals] == [cli["given_away"]["seats"][str(s)] for s in range(len(totals))]


def test_a_random_deal_is_reviewed_and_its_command_reproduces_it(browser, site):
    d = browser
    d.get(site.url + "review")
    d.find_element(By.ID, "with-pimc").click()  # dd only: quicker
    seed = d.find_element(By.ID, "seed")
    seed.clear()
    seed.send_keys("3")
    d.find_element(By.ID, "go").click()
    _ended(d)
    command = d.find_element(By.ID, "command").text
    assert command.startswith("belote simulate --variant classic --seed 3 ") and command.endswith("--pimc none")
    head = d.find_element(By.ID, "headline").text
    assert head.startswith("Deal ") and "card points given away" in head


def test_the_reports_page_opens_a_report(browser, site, tmp_path):
    d = browser
    d.get(site.url + "reports")
    link = WebDriverWait(d, 30).until(lambda d: d.find_element(By.LINK_TEXT, "demo"))
    _shot(d, "reports", tmp_path)
    link.click()
    WebDriverWait(d, 30).until(lambda d: d.find_elements(By.ID, "title"))
    assert d.find_element(By.ID, "title").text == "demo report"


def test_closing_the_page_stops_its_question(browser, site):
    d = browser
    d.get(site.url)
    d.find_element(By.ID, "hand").send_keys("Jh 9h Ah Tc 7s")
    d.find_element(By.ID, "turned").send_keys("Qh")
    deals = d.find_element(By.ID, "deals")
    deals.clear()
    deals.send_keys("1000000")
    before = site.request("/api/status")[1]["jobs"]["cancelled"]
    d.find_element(By.ID, "go").click()
    WebDriverWait(d, 300).until(lambda d: "heuristic:" in d.find_element(By.CSS_SELECTOR, "#progress .ptext").text)
    d.get("about:blank")  # the page closes: its beacon cancels the question
    end = time.monotonic() + 60
    while time.monotonic() < end:
        jobs = site.request("/api/status")[1]["jobs"]
        if jobs["cancelled"] > before and jobs["running"] == 0:
            break
        time.sleep(0.2)
    assert jobs["cancelled"] == before + 1 and jobs["running"] == 0, jobs
