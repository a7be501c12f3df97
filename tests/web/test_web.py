"""``belote serve`` without a browser: the bounded table of jobs, and the server's API as a client
(and an attacker) sees it: bad input refused with the CLI's own line, paths that leave the
reports folder refused, a burst of concurrent questions answered without losing one, a
question stopped by its page, and the numbers those of the CLI."""

from __future__ import annotations

import json
import os
import re
import shlex
import signal
import threading
import time
from concurrent.futures import ThreadPoolExecutor

import pytest

from analyzer.errors import BeloteError
from analyzer.players.policies import DEFAULT_PLAY
from analyzer.web.jobs import Busy, Jobs, Limits
from web_server import Server, write_log

# ---- the table of jobs ----------------------------------------------------------------------


def _until(cond, timeout=10.0):
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        if cond():
            return True
        time.sleep(0.01)
    return False


def _stepping(job, steps=10_000, pause=0.005):
    for k in range(steps):
        job.step("work", k, steps)
        time.sleep(pause)
    job.publish("answer", 42)


def test_a_full_table_refuses_the_next_question_and_takes_it_once_a_place_is_free():
    jobs = Jobs(Limits(running=1, waiting=1, idle=60))
    gate = threading.Event()

    def blocked(job):
        while not gate.is_set():
            job.step("blocked", 0, 1)
            time.sleep(0.01)

    first, second = jobs.submit("t", blocked), jobs.submit("t", blocked)
    assert _until(lambda: jobs.get(first.id)["state"] == "running")
    waiting = jobs.get(second.id)
    assert waiting["state"] == "waiting" and waiting["progress"] == {"stage": "waiting", "place": 1}
    with pytest.raises(Busy, match=r"the server is busy: 2 questions are running or waiting \(at most 1 at once, 1 waiting\)"):
        jobs.submit("t", blocked)
    gate.set()
    assert _until(lambda: jobs.get(second.id)["state"] == "done")
    third = jobs.submit("t", lambda job: job.publish("answer", 1))
    assert _until(lambda: jobs.get(third.id)["state"] == "done")
    assert jobs.get(third.id)["result"] == {"answer": 1}


def test_a_cancelled_job_stops_at_its_next_step_and_says_why():
    jobs = Jobs(Limits(idle=60))
    job = jobs.submit("t", _stepping)
    assert _until(lambda: jobs.get(job.id)["state"] == "running" and job.done > 2)
    assert jobs.cancel(job.id)
    assert _until(lambda: jobs.get(job.id)["state"] == "cancelled", 2)
    v = jobs.get(job.id)
    assert v["error"] == "stopped: its page asked to stop it" and "answer" not in v["result"]
    assert not jobs.cancel("no-such-job")


def test_a_job_whose_page_stopped_asking_is_stopped():
    jobs = Jobs(Limits(idle=0.3))
    job = jobs.submit("t", _stepping)  # nobody polls it
    assert _until(lambda: job.state == "cancelled", 5)
    assert "its page stopped asking for it for 0.3 s" in job.error


def test_a_job_that_runs_too_long_is_stopped_though_its_page_keeps_asking():
    jobs = Jobs(Limits(seconds=0.3, idle=60))
    job = jobs.submit("t", _stepping)
    assert _until(lambda: jobs.get(job.id)["state"] == "cancelled", 5)
    assert "ran longer than the server's limit of 0.3 s" in jobs.get(job.id)["error"]


def test_a_waiting_job_cancelled_never_starts():
    jobs = Jobs(Limits(running=1, waiting=2, idle=60))
    started = []
    blocker = jobs.submit("t", _stepping)
    later = jobs.submit("t", lambda job: started.append(job.id))
    assert _until(lambda: jobs.get(blocker.id)["state"] == "running")
    jobs.cancel(later.id)
    assert _until(lambda: jobs.get(later.id)["state"] == "cancelled", 3)
    assert jobs.get(later.id)["error"].startswith("stopped before it started")
    jobs.cancel(blocker.id)
    assert _until(lambda: jobs.get(blocker.id)["state"] == "cancelled", 3)
    assert started == []


def test_errors_end_a_job_with_one_line():
    jobs = Jobs(Limits(idle=60))

    def bad_input(job):
        raise BeloteError("seat 7 does not exist with 4 players")

    def bug(job):
        raise ZeroDivisionError("division by zero")

    a, b = jobs.submit("t", bad_input), jobs.submit("t", bug)
    assert _until(lambda: jobs.get(a.id)["state"] == "failed" and jobs.get(b.id)["state"] == "failed")
    assert jobs.get(a.id)["error"] == "seat 7 does not exist with 4 players"
    assert jobs.get(b.id)["error"].startswith("internal error (ZeroDivisionError: division by zero)")


def test_finished_jobs_are_dropped_once_the_table_is_full():
    jobs = Jobs(Limits(running=2, waiting=2, table=4, idle=60))
    ids = []
    for _ in range(10):
        j = jobs.submit("t", lambda job: None)
        assert _until(lambda: jobs.get(j.id)["state"] == "done")
        ids.append(j.id)
    assert len(jobs._jobs) <= 4 and jobs.get(ids[0]) is None and jobs.get(ids[-1]) is not None


# ---- the server -----------------------------------------------------------------------------

SECRET = "not-for-the-web-0b5e"


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    """A server with one deal log and a reports folder holding one report; a secret file beside
    the reports folder and a symbolic link to it inside, which no request may read."""
    root = tmp_path_factory.mktemp("site")
    reports = root / "reports"
    (reports / "demo").mkdir(parents=True)
    (reports / "demo" / "index.html").write_text("<html><body><h1>demo report</h1></body></html>")
    (root / "secret.txt").write_text(SECRET)
    os.symlink(root / "secret.txt", reports / "demo" / "link.txt")
    os.symlink(root, reports / "outside")
    log = write_log(root)
    server = Server("--reports", reports, "--log", log, "--jobs", "2", "--queue", "6")
    server.root, server.log = root, log
    yield server
    code, err = server.stop()
    assert code == 130 and "belote: interrupted" in err, err[-2000:]  # Ctrl-C: says so, exit 130


def test_the_three_pages_and_their_files_are_served(site):
    for path, text in (("/", "Should I take?"), ("/review", "Review a deal"), ("/reports", "Reports"),
                       ("/static/common.js", "function follow(job"), ("/static/take.js", "runQuestion("), ("/static/style.css", ".card")):
        status, body = site.request(path)
        assert status == 200 and text in body, path
    status, listed = site.request("/api/reports")
    assert status == 200 and [r["name"] for r in listed] == ["demo"]  # the link to outside is no report
    status, body = site.request("/report/demo/")
    assert status == 200 and "demo report" in body


@pytest.mark.parametrize("path", [
    "/report/../secret.txt", "/report/demo/../../secret.txt", "/report/%2e%2e/secret.txt",
    "/report/demo/%2e%2e/%2e%2e/secret.txt", "/report/..%2fsecret.txt", "/report/demo/link.txt",
    "/report/outside/secret.txt", "/static/../app.py", "/static/%2e%2e/app.py", "/static/..%2f..%2f..%2fcli.py",
    "/report//etc/passwd", "/report/%2fetc%2fpasswd",
])
def test_no_path_leaves_the_reports_folder_or_the_pages(site, path):
    import http.client

    conn = http.client.HTTPConnection(site.host, site.port, timeout=30)  # the path sent as written, not normalised
    conn.request("GET", path)
    r = conn.getresponse()
    body = r.read().decode(errors="replace")
    assert r.status == 404 and SECRET not in body and "root:" not in body and "def make_app" not in body, (path, r.status)


def test_a_log_is_named_by_its_number_never_by_a_path(site):
    status, logs = site.request("/api/logs")
    assert status == 200 and logs[0]["name"] == site.log.name and logs[0]["deals"]
    for bad in ("/etc/passwd", str(site.root / "secret.txt"), "../secret.txt", -1, 1, True, [0]):
        status, body = site.request("/api/review", {"log": bad, "deal": 0})
        assert status == 400 and body["error"].startswith("log must be a whole number from 0 to 0"), (bad, body)


@pytest.mark.parametrize("hand, turned", [("Jh 9h Ah Tc", "Qh"), ("Jh 9h Ah Tc 7s", "Jh"), ("Jh 9h Ah Tc Zz", "Qh"),
                                          ("Bh 9h Ah 10k Jc", "Vh")])
def test_bad_cards_are_refused_with_the_cli_s_own_line(belote, site, hand, turned):
    status, body = site.request("/api/take", {"hand": hand, "turned": turned})
    p = belote("take", hand, "--turned", turned)
    assert p.returncode == 2 and status == 400
    assert p.stderr.strip() == f"belote: error: {body['error']}"


@pytest.mark.parametrize("form, message", [
    ({"variant": "rummy", "hand": "Jh", "turned": "Qh"}, 'unknown variant "rummy"'),
    ({"hand": "Jh 9h Ah Tc 7s", "turned": "Qh", "deals": 10**9}, "deals must be a whole number from 1 to 200,000"),
    ({"hand": "Jh 9h Ah Tc 7s", "turned": "Qh", "deals": "many"}, "deals must be a whole number"),
    ({"hand": "Jh 9h Ah Tc 7s", "turned": "Qh", "seat": 4}, "seat must be a whole number from 0 to 3"),
    ({"hand": "Jh 9h Ah Tc 7s", "turned": "Qh", "seed": -1}, "seed must be a whole number from 0 to 2**64 - 1"),
    ({"hand": "Jh 9h Ah Tc 7s", "turned": "Qh", "bracket": ["pimc"], "pimc_deals": 10**6},
     "pimc_deals must be a whole number from 30 to 20,000"),
    ({"hand": "Jh 9h Ah Tc 7s", "turned": "Qh", "bracket": ["mcts"]}, "bracket must list some of heuristic, net, pimc, dd"),
    ({"hand": "Jh 9h Ah Tc 7s Qs", "turned": "Qh", "variant": "piekjas", "players": 4},
     "piekjas with 4 players deals 5 cards, not 6"),
    ({"hand": "Jh 9h Ah Tc 7s", "turned": "Qh", "rules": "undertrump=sometimes"},
     "rule undertrump=sometimes is not an option: use undertrump=forced or free"),
    ({"hand": "Jh 9h Ah Tc 7s", "turned": "Qh", "rules": "trumps=none"}, 'unknown rule "trumps"'),
    ({"hand": "Jh 9h Ah Tc 7s", "turned": "Qh", "score": "820"},
     "--score '820': give 2 totals, e.g. --score 820-640 (ours first)"),
    ({"hand": "Jh 9h Ah Tc 7s", "turned": "Qh", "score": "1000-200"},
     "--score '1000-200': that game is over (a side at or over 1000, alone at the top)"),
    ({"hand": "Jh 9h 7h Ac 8c Kd", "turned": "Th", "variant": "piekjas", "players": 3, "score": "120-300"},
     "--score '120-300': give 3 totals, e.g. --score 120-300-80 (every seat's total, voorhand first)"),
    ({"hand": "Jh 9h Ah Tc 7s", "turned": "Qh", "score": 820}, "score must be text of at most 40 characters"),
    # the shipped table is the default rules': a house rule that changes the game has none (said without the
    # server's own folder)
    ({"hand": "Jh 9h Ah Tc 7s", "turned": "Qh", "score": "820-640", "rules": "target=1500"},
     "equity table analyzer/players/equity_data/classic.npz was built for rules target=1000, not these"),
])
def test_every_field_is_checked_before_anything_runs(site, form, message):
    status, body = site.request("/api/take", form)
    assert status == 400 and body["error"].startswith(message), body


def test_a_request_too_large_or_not_json_is_refused(site):
    status, body = site.request("/api/take", raw=b"{" + b" " * 200_000 + b"}", headers={"Content-Type": "application/json"})
    assert status == 413 and "larger than 131,072 bytes" in body["error"]
    status, body = site.request("/api/take", raw=b"hand=Jh", headers={"Content-Type": "application/json"})
    assert status == 400 and body["error"] == "the request is not JSON"
    status, body = site.request("/api/review", {"record": "{not json"})
    assert status == 400 and body["error"].startswith("the pasted record is not JSON")
    status, body = site.request("/api/review", {"record": '{"schema": "belote-deal/1"}'})
    assert status == 400 and body["error"].startswith("the pasted record")


def test_a_pasted_record_the_rules_do_not_allow_is_refused_as_belote_review_refuses_it(belote, site, tmp_path):
    """A real logged record with trick 4's winner written as another seat: before, the page
    reviewed it (202); now it is replayed through the reference first, and refused (400) with the
    line belote review gives for it."""
    import json

    lines = site.log.read_text().splitlines()
    record = next(r for r in map(json.loads, lines) if r["outcome"] == "played")
    real = record["tricks"][3]["winner"]
    record["tricks"][3]["winner"] = (real + 1) % 4
    status, body = site.request("/api/review", {"record": json.dumps(record), "pimc": "none"})
    assert status == 400, body
    says = f"trick 4: winner {(real + 1) % 4}, but seat {real}'s"
    assert body["error"].startswith(f"the pasted record: deal {record['deal']}: {says}"), body
    path = tmp_path / "deal.jsonl"
    path.write_text(json.dumps(record) + "\n")
    cli = belote("review", str(path), "--pimc", "none", timeout=120)
    assert cli.returncode == 2 and f"{path}:1: deal {record['deal']}: {says}" in cli.stderr
    assert body["error"].removeprefix("the pasted record") in cli.stderr


def test_a_request_for_another_host_name_is_refused(site):
    """A page of another site that resolves its name to 127.0.0.1 (DNS rebinding) gets nothing."""
    status, _ = site.request("/api/logs", headers={"Host": "evil.example:80"})
    assert status == 400


# ---- who may ask, and what ----------------------------------------------------------------------

QUESTION = {"hand": "Jh 9h Ah Tc 7s", "turned": "Qh", "deals": 1000, "seed": 2}
REFUSED = "refused: this request comes from a page of another site"
# What a page of another site sends (a "simple" request needs no preflight: the first is the
# fault probe's, which got 202 and a job), and a browser's other ways of saying so.
CROSS_SITE = [
    {"Content-Type": "text/plain", "Origin": "http://evil.example"},
    {"Content-Type": "application/json", "Origin": "http://evil.example", "Sec-Fetch-Site": "cross-site"},
    {"Content-Type": "application/json", "Origin": "null"},  # a sandboxed frame, a file:// page
    {"Content-Type": "application/json", "Sec-Fetch-Site": "cross-site"},
    {"Content-Type": "application/json", "Origin": "http://127.0.0.1:1", "Sec-Fetch-Site": "same-site"},  # another local server
]


def _own(site) -> dict:
    """The headers a browser adds to a request of the server's own page."""
    return {"Origin": site.url.rstrip("/"), "Sec-Fetch-Site": "same-origin"}


@pytest.mark.parametrize("headers", CROSS_SITE)
def test_a_page_of_another_site_cannot_start_a_question(site, headers):
    before = site.request("/api/status")[1]["jobs"]
    for path, form in (("/api/take", QUESTION), ("/api/review", {"log": 0, "deal": 0, "pimc": "none"})):
        status, body = site.request(path, raw=json.dumps(form).encode(), headers=headers)
        assert status == 403 and body["error"].startswith(REFUSED), (path, status, body)
        assert body["error"].endswith(f"ask from this server's own pages, {site.url}") and "\n" not in body["error"]
    assert site.request("/api/status")[1]["jobs"] == before  # no job was started


def test_a_page_of_another_site_cannot_stop_a_question(site):
    status, body = site.request("/api/take", {**QUESTION, "deals": 200_000})
    assert status == 202, body
    job = body["job"]
    for headers in CROSS_SITE:
        for method, path in (("POST", f"/api/jobs/{job}/cancel"), ("DELETE", f"/api/jobs/{job}")):
            status, body = site.request(path, method=method, headers=headers)
            assert status == 403 and body["error"].startswith(REFUSED), (method, headers, status, body)
    v = site.request(f"/api/jobs/{job}")[1]
    assert v["state"] in ("waiting", "running") and "error" not in v, v
    status, _ = site.request(f"/api/jobs/{job}/cancel", method="POST", headers=_own(site))  # its own page's beacon
    assert status == 200 and site.wait(job, 60)["error"] == "stopped: its page asked to stop it"


@pytest.mark.parametrize("kind", ["text/plain", "application/x-www-form-urlencoded", "multipart/form-data; boundary=x", None])
def test_a_question_not_sent_as_json_is_refused(site, kind):
    """The JSON of a question, sent as a type a page of another site may send without a preflight
    (or as none), from a client that says nothing of its origin: 415, nothing started."""
    import http.client

    before = site.request("/api/status")[1]["jobs"]
    conn = http.client.HTTPConnection(site.host, site.port, timeout=30)  # urllib would add a type
    conn.request("POST", "/api/take", body=json.dumps(QUESTION).encode(), headers={"Content-Type": kind} if kind else {})
    r = conn.getresponse()
    body = json.loads(r.read())
    said = kind or "none"
    assert r.status == 415 and body["error"] == ("send the request's body as JSON, with Content-Type: application/json "
                                                 f"(this one says {said})"), body
    assert site.request("/api/status")[1]["jobs"] == before


def test_the_server_s_own_pages_and_scripts_may_ask(site):
    """A request of the server's own page (Origin and Sec-Fetch-Site its own, under either of its
    names) and one of a script (curl: no Origin) are answered; a beacon (no body, no type) stops."""
    port = site.port
    for headers in ({**_own(site), "Content-Type": "application/json; charset=utf-8"},
                    {"Host": f"localhost:{port}", "Origin": f"http://localhost:{port}", "Content-Type": "application/json"},
                    {}):
        status, body = site.request("/api/take", QUESTION, headers=headers)
        assert status == 202, (headers, body)
        assert site.wait(body["job"])["state"] == "done"
    status, body = site.request("/api/take", {**QUESTION, "deals": 200_000}, headers=_own(site))
    assert status == 202, body
    status, _ = site.request(f"/api/jobs/{body['job']}/cancel", method="POST", headers=_own(site))
    assert status == 200 and site.wait(body["job"], 60)["state"] == "cancelled"


TAKE = {"hand": "Jh 9h Ah Tc 7s", "turned": "Qh"}
DIGITS = "1" * 5000  # more than int()'s 4,300
# Requests that used to be a 500 and a traceback on the server's terminal: (path, body, the line).
HOSTILE = [
    ("/api/take", b"[" * 50_000, "the request nests lists or objects deeper than 16 levels"),
    ("/api/take", b'{"hand": ' + b"[" * 50_000, "the request nests lists or objects deeper than 16 levels"),
    ("/api/take", b'{"bracket": ' + b"[" * 900 + b"]" * 900 + b"}",  # well formed, under json's recursion limit
     "the request nests lists or objects deeper than 16 levels"),
    ("/api/review", json.dumps({"record": "[" * 50_000}).encode(),
     "the pasted record nests lists or objects deeper than 16 levels: paste one line of a deal log (belote simulate --log)"),
    ("/api/take", json.dumps({**TAKE, "deals": DIGITS}).encode(),
     "deals must be a whole number from 1 to 200,000, not a number of 5,000 digits"),
    ("/api/take", json.dumps({**TAKE, "seed": DIGITS}).encode(),
     "seed must be a whole number from 0 to 2**64 - 1 = 18,446,744,073,709,551,615, not a number of 5,000 digits"),
    ("/api/take", ('{"hand": "Jh 9h Ah Tc 7s", "turned": "Qh", "seed": %s}' % DIGITS).encode(),  # a JSON number
     "seed must be a whole number from 0 to 2**64 - 1 = 18,446,744,073,709,551,615, not a number of 5,000 digits"),
    ("/api/review", json.dumps({"log": DIGITS, "deal": 0}).encode(),
     "log must be a whole number from 0 to 0, not a number of 5,000 digits"),
    ("/api/review", json.dumps({"log": 0, "deal": "-" + DIGITS}).encode(),
     "deal must be a whole number from 0 to 9,223,372,036,854,775,807, not a number of 5,000 digits"),
    ("/api/take", json.dumps({**TAKE, "seat": "+-1"}).encode(), "seat must be a whole number from 0 to 3, not '+-1'"),
    ("/api/take", json.dumps({**TAKE, "seat": "\u00b2"}).encode(), "seat must be a whole number from 0 to 3, not '\u00b2'"),
    ("/api/take", json.dumps({**TAKE, "bracket": [["pimc"]]}).encode(),
     "bracket must list some of heuristic, net, pimc, dd, not [['pimc']]"),
]


@pytest.mark.parametrize("path, raw, message", HOSTILE)
def test_a_hostile_body_is_refused_in_one_line(site, path, raw, message):
    status, body = site.request(path, raw=raw, headers={"Content-Type": "application/json"})
    assert status == 400 and body["error"] == message, (status, body)


def test_hostile_requests_leave_no_traceback_on_the_server_s_terminal(site, tmp_path):
    """Every hostile request above, and the cross-site ones, against a server of their own: its
    terminal says nothing but the Ctrl-C that stops it."""
    server = Server("--reports", tmp_path, "--log", site.log)
    try:
        statuses = [server.request(path, raw=raw, headers={"Content-Type": "application/json"})[0] for path, raw, _ in HOSTILE]
        statuses += [server.request("/api/take", raw=json.dumps(QUESTION).encode(), headers=h)[0] for h in CROSS_SITE]
        jobs = server.request("/api/status")[1]["jobs"]
    finally:
        code, err = server.stop()
    assert code == 130 and err.strip() == "belote: interrupted", err[-3000:]
    assert statuses == [400] * len(HOSTILE) + [403] * len(CROSS_SITE) and sum(jobs.values()) == 0, (statuses, jobs)


def test_the_take_answer_is_the_cli_s_for_the_same_seed(belote, site):
    status, body = site.request("/api/take", {"hand": "Js 9s As 7h 8c", "turned": "Td", "seat": 1, "deals": 3000, "seed": 5})
    assert status == 202
    v = site.wait(body["job"])
    assert v["state"] == "done", v
    take = v["result"]["take"]
    assert take["command"] == "belote take 'Js 9s As 7h 8c' --turned Td --seat 1 --deals 3000 --seed 5"
    cli = belote.json("take", "Js 9s As 7h 8c", "--turned", "Td", "--seat", "1", "--deals", "3000", "--seed", "5")
    for key in ("n", "calls", "verdict", "acceptance", "hands_simulated"):
        assert take["json"][key] == cli[key], key
    assert take["verdict"] == cli["verdict"]["text"]


def test_house_rules_on_the_page_are_the_cli_s_rule_options(belote, site):
    """A house rule changes the bidders to the heuristic (the shipped policy assumes the default
    rules): the answer says so, and its command reproduces it."""
    status, body = site.request("/api/take", {"hand": "Jh 9h Ah Tc 7s", "turned": "Qh", "deals": 2000, "seed": 4,
                                              "rules": "undertrump=free"})
    assert status == 202, body
    v = site.wait(body["job"])
    take = v["result"]["take"]
    assert take["command"] == "belote take 'Jh 9h Ah Tc 7s' --turned Qh --rule undertrump=free --deals 2000 --seed 4"
    assert take["rules"] == {"undertrump": "free"} and "default --bid is heuristic here" in take["bidders"]
    cli = belote.json("take", "Jh 9h Ah Tc 7s", "--turned", "Qh", "--rule", "undertrump=free",
                   "--deals", "2000", "--seed", "4")
    assert take["json"]["calls"] == cli["calls"] and take["json"]["inputs"]["rules"] == cli["inputs"]["rules"]


def test_a_score_answers_each_call_s_chance_to_win_the_game_as_take_score_does(belote, site):
    """A score at the table (take --score): the answer carries each call's chance to win the game, the
    verdict by it and where it changes with the score, in both languages; its command is the CLI's and
    the CLI's JSON for it holds the same chances. A bad score is refused in the CLI's own line."""
    form = {"hand": "Jh 9h Ac Tc 7s", "turned": "Qh", "score": " 820 - 640 ", "deals": 2000, "seed": 3,
            "play": "heuristic"}
    status, body = site.request("/api/take", form)
    assert status == 202, body
    v = site.wait(body["job"])
    assert v["state"] == "done", v
    take = v["result"]["take"]
    g = take["game"]
    assert take["command"] == ("belote take 'Jh 9h Ac Tc 7s' --turned Qh --play heuristic --deals 2000 --seed 3 "
                               "--score 820-640")
    assert (g["at"], g["score"], g["target"]) == ("820-640", [820, 640], 1000)
    assert [c["label"] for c in g["calls"]] == take["calls"] == ["take h", "pass"]
    from analyzer.runs.fmt import ci_pct

    assert g["chances"] == [ci_pct(c["win"]["mean"], c["win"]["lo"], c["win"]["hi"]) for c in g["calls"]]
    assert all(re.fullmatch(r"\d+\.\d% \[\d+\.\d, \d+\.\d\]", c) for c in g["chances"]), g["chances"]
    en, nl = g["words"]["en"], g["words"]["nl"]
    assert en["verdict"].startswith("TAKE ♥: it wins the game ") and en["verdict"].endswith("beyond the noise.")
    assert nl["verdict"].startswith("SPELEN ♥: daarmee win je het spel ") and "n=2.000" in nl["verdict"]
    assert en["regions"].startswith("By the score (every 100 points on each total): ")
    assert nl["regions"].startswith("Naar de stand (elke 100 punten op elk totaal): ")
    assert en["table"].startswith("equity table classic: ") and nl["table"].startswith("winkanstabel classic: ")
    assert take["json"]["inputs"]["objective"] == "win" and take["json"]["game"]["best"] == "take h"
    cli = belote.json(*shlex.split(take["command"])[1:])
    assert cli["game"] == take["json"]["game"] and cli["calls"] == take["json"]["calls"]
    # a bad score: the CLI's own line
    status, body = site.request("/api/take", {**form, "score": "820-640-10"})
    p = belote("take", form["hand"], "--turned", "Qh", "--score", "820-640-10")
    assert status == 400 and p.returncode == 2 and p.stderr.strip() == f"belote: error: {body['error']}"
    assert body["error"] == "--score '820-640-10': give 2 totals, e.g. --score 820-640 (ours first)"


def test_a_logged_deal_reviewed_on_the_server_is_the_cli_s_review(belote, site):
    status, body = site.request("/api/review", {"log": 0, "deal": 1, "pimc": "none", "worlds": 4})
    if status == 400:  # deal 1 of this log passed out: the first played one
        deal = next(d["deal"] for d in site.request("/api/logs")[1][0]["deals"] if d["outcome"] == "played")
        status, body = site.request("/api/review", {"log": 0, "deal": deal, "pimc": "none", "worlds": 4})
    assert status == 202, body
    v = site.wait(body["job"])
    assert v["state"] == "done", v
    r = v["result"]["review"]
    deal = r["deal"]
    cli = belote.json("review", site.log, "--deal", deal, "--pimc", "none", "--worlds", "4")
    # the values from what each seat knew (4 worlds a decision: a quick check) too
    for key in ("cards", "given_away", "trajectory", "values_after", "turning_trick", "costliest", "luck"):
        assert r["json"][key] == cli[key], key
    assert r["json"]["luck"]["worlds"] == 4
    assert r["command"].endswith(f"--deal {deal} --pimc none --worlds 4")
    assert sorted(c for seat in r["start"] for c in seat) == sorted(c["card"] for c in cli["cards"])


def test_a_question_stopped_by_its_page_stops(site):
    status, body = site.request("/api/take", {"hand": "Jh 9h Ah Tc 7s", "turned": "Qh", "deals": 200_000, "seed": 3})
    assert status == 202
    job = body["job"]
    assert _until(lambda: site.request(f"/api/jobs/{job}")[1]["state"] == "running", 120)
    status, _ = site.request(f"/api/jobs/{job}/cancel", method="POST")  # what a closing page sends
    assert status == 200
    t0 = time.monotonic()
    v = site.wait(job, 60)
    assert v["state"] == "cancelled" and v["error"] == "stopped: its page asked to stop it"
    assert time.monotonic() - t0 < 30 and "take" not in v["result"]
    assert site.request("/api/jobs/nope")[0] == 404


def test_a_burst_of_concurrent_requests_is_answered_and_loses_nothing(site):
    """Forty requests at once from eight threads: pages, status and questions. Each is answered
    (202, or 503 when every place is taken; never an error of the server's), every accepted
    question finishes, and the same question gives the same numbers every time."""
    form = {"hand": "Jh 9h Ah Tc 7s", "turned": "Qh", "deals": 2000, "seed": 11}

    def one(k):
        if k % 4 == 0:
            return "page", site.request("/" if k % 8 else "/review")
        if k % 4 == 1:
            return "status", site.request("/api/status")
        return "ask", site.request("/api/take", form)

    with ThreadPoolExecutor(8) as pool:
        answers = list(pool.map(one, range(40)))
    kinds = {"page": [], "status": [], "ask": []}
    for kind, (status, body) in answers:
        kinds[kind].append((status, body))
    assert all(s == 200 for s, _ in kinds["page"] + kinds["status"])
    asked = kinds["ask"]
    assert {s for s, _ in asked} <= {202, 503} and any(s == 202 for s, _ in asked)
    assert all("the server is busy" in b["error"] for s, b in asked if s == 503)
    accepted = [b["job"] for s, b in asked if s == 202]
    with ThreadPoolExecutor(8) as pool:
        ends = list(pool.map(site.wait, accepted))
    assert all(v["state"] == "done" for v in ends), [v.get("error") for v in ends]
    numbers = {repr(v["result"]["take"]["json"]["calls"]) for v in ends}
    assert len(numbers) == 1 and ends[0]["result"]["take"]["json"]["n"] == 2000
    status, s = site.request("/api/status")
    assert status == 200 and s["jobs"]["running"] == 0 and s["jobs"]["waiting"] == 0


def test_another_host_is_said_loudly(tmp_path):
    server = Server("--host", "0.0.0.0", "--reports", tmp_path)
    try:
        assert server.request("/api/status")[0] == 200
    finally:
        code, err = server.stop(signal.SIGTERM)
    assert "belote: WARNING: listening on 0.0.0.0, not only this machine" in err
    assert code == 130


@pytest.mark.parametrize("host, loopback", [
    ("127.0.0.1", True), ("127.0.0.2", True), ("127.255.255.254", True), ("::1", True), ("::ffff:127.0.0.3", True),
    ("localhost", True), ("LocalHost", True), ("0.0.0.0", False), ("::", False), ("128.0.0.1", False),
    ("192.168.1.10", False), ("::ffff:10.0.0.1", False), ("evil.example", False),
])
def test_the_whole_loopback_range_is_this_machine(host, loopback):
    from analyzer.web.serve import is_loopback

    assert is_loopback(host) is loopback


def test_another_loopback_address_keeps_the_host_check_and_says_nothing(tmp_path):
    """--host 127.0.0.2 answers this machine only, as 127.0.0.1 does: no warning, and a request for
    another host name (DNS rebinding) is refused; its own name is answered."""
    server = Server("--host", "127.0.0.2", "--reports", tmp_path)
    try:
        assert server.host == "127.0.0.2" and server.request("/api/status")[0] == 200
        assert server.request("/api/status", headers={"Host": f"evil.example:{server.port}"})[0] == 400
    finally:
        code, err = server.stop()
    assert code == 130 and err.strip() == "belote: interrupted", err[-2000:]


def test_a_bad_log_is_refused_at_start_in_one_line(belote, tmp_path):
    bad = tmp_path / "bad.jsonl"
    bad.write_text('{"schema": "belote-deal/1"}\n')
    p = belote("serve", "--port", "0", "--no-warmup", "--log", bad, timeout=120)
    assert p.returncode == 2 and p.stderr.count("\n") == 1 and p.stderr.startswith(f"belote: error: {bad}:1")
    p = belote("serve", "--port", "0", "--no-warmup", "--log", tmp_path, timeout=120)
    assert p.returncode == 2 and "is a folder, not a deal log" in p.stderr


@pytest.mark.parametrize("variant, players", [("piekjas", 3), ("dekjas", None)])
def test_a_random_deal_of_every_variant_is_reviewed_as_its_command_reviews_it(belote, site, tmp_path, variant, players):
    """Piekjas 3-4 say their values are the solver's pessimistic ones (``exact`` false); Dekjas deals
    its piles. (Classic: the browser test; Piekjas 2 and 4 review as these do: tests/questions/test_review.py.)"""
    form = {"variant": variant, "seed": 4, "deal": 2, **({"players": players} if players else {})}
    status, body = site.request("/api/review", {"random": form, "pimc": "none", "worlds": 0})
    assert status == 202, body
    v = site.wait(body["job"])
    assert v["state"] == "done", v
    r = v["result"]["review"]
    assert r["json"]["exact"] == (variant == "dekjas" or players == 2)
    simulate, review = r["command"].split(" && ")
    p = belote(*simulate.split()[1:], cwd=tmp_path)
    assert p.returncode == 0, p.stderr
    cli = belote.json(*review.split()[1:], cwd=tmp_path)  # where the log was written
    assert r["json"]["cards"] == cli["cards"] and r["json"]["values_after"] == cli["values_after"]


@pytest.mark.parametrize("form, args", [
    ({"variant": "piekjas", "players": 3, "hand": "Js Qs Ks 9d Ad 7c", "turned": "8s", "seat": 2},
     ["Js Qs Ks 9d Ad 7c", "--turned", "8s", "--variant", "piekjas", "--players", "3", "--seat", "2"]),
    ({"variant": "dekjas", "mine": "Jh 9h Ah Ac Tc 7d 8s Ks", "theirs": "7c 8c 9c Qd Kd Ad Ts Qh", "turned": "Qh"},
     ["--variant", "dekjas", "--mine", "Jh 9h Ah Ac Tc 7d 8s Ks", "--theirs", "7c 8c 9c Qd Kd Ad Ts Qh", "--turned", "Qh"]),
    ({"variant": "classic", "hand": "Bh 9h Ah 10k 7s", "turned": "Vh", "round": 2},  # Dutch notation, round 2
     ["Bh 9h Ah 10k 7s", "--turned", "Vh", "--round", "2"]),
])
def test_the_take_answer_of_every_variant_is_the_cli_s(belote, site, form, args):
    status, body = site.request("/api/take", {**form, "deals": 2000, "seed": 9})
    assert status == 202, body
    v = site.wait(body["job"])
    assert v["state"] == "done", v
    cli = belote.json("take", *args, "--deals", "2000", "--seed", "9")
    assert v["result"]["take"]["json"]["calls"] == cli["calls"] and v["result"]["take"]["json"]["n"] == cli["n"]


# ---- the players' pages (issue 50): words, options, a deal entered by hand ---------------------------

HANDS = "Jh 9h Ah Tc 7s Ks Qd 8c / 7h 8h Qh Kh Ac Kc 9c 7c / Th As Ts 9s 8s Js Qs Ad / Qc Jc 8d 7d 9d Td Kd Jd"


def test_the_pages_words_and_options_come_from_the_code(site):
    import inspect

    from analyzer.cli.take import take
    from analyzer.output.words import page_words

    for lang in ("en", "nl"):
        status, w = site.request(f"/api/words?lang={lang}")
        assert status == 200 and w == json.loads(json.dumps(page_words(lang)))
    assert site.request("/api/words?lang=fr")[0] == 400
    status, opts = site.request("/api/options")
    assert status == 200 and opts["default_play"] == DEFAULT_PLAY
    assert inspect.signature(take).parameters["play"].default is None  # --play unset: DEFAULT_PLAY (issue 49)
    assert opts["variants"]["classic"]["direction"] == "counter" and opts["variants"]["piekjas3"]["direction"] == "clockwise"
    assert opts["variants"]["dekjas"]["piles"] and opts["variants"]["piekjas2"]["rules"]["undertrump"] == ["forced", "free"]
    for path, text in (("/take", "Should I take?"), ("/glossary", "Words"), ("/static/glossary.html", "glossary")):
        status, body = site.request(path)
        assert status == 200 and text in body, path


@pytest.mark.parametrize("play, option, who", [("heuristic", " --play heuristic", "the rules of thumb (heuristic)"),
                                               (DEFAULT_PLAY, "", "the learned player (net)")])
def test_the_play_policy_of_the_take_page_is_the_cli_s_play_option(belote, site, play, option, who):
    status, body = site.request("/api/take", {"hand": "Jh 9h Ah Tc 7s", "turned": "Qh", "deals": 2000, "seed": 4,
                                              "play": play})
    assert status == 202, body
    take = site.wait(body["job"])["result"]["take"]
    assert take["command"] == "belote take 'Jh 9h Ah Tc 7s' --turned Qh" + option + " --deals 2000 --seed 4"
    cli = belote.json(*shlex.split(take["command"])[1:])
    assert take["json"]["calls"] == cli["calls"] and take["words"]["en"]["verdict"] == cli["verdict"]["text"]
    assert who in take["words"]["en"]["who"]
    assert site.request("/api/take", {"hand": "Jh 9h Ah Tc 7s", "turned": "Qh", "play": "dd"})[1]["error"] == \
        "play must be one of heuristic, net, not 'dd'"


def test_the_bot_beside_you_plays_on_as_belote_review_bot_does(belote, site):
    deal = next(d["deal"] for d in site.request("/api/logs")[1][0]["deals"] if d["outcome"] == "played")
    status, v = site.request("/api/bot", {"log": 0, "deal": deal, "bot": "net", "from": 5})
    assert status == 200, v
    cli = belote.json(*shlex.split(v["command"])[1:], "--pimc", "none", "--worlds", "0")
    assert v["bot"] == cli["bot"] and v["bot"]["from"] == 4 and len(v["bot"]["cards"]) == len(cli["cards"]) - 4
    assert v["lines"]["en"]["bot"][0].split(":")[0] in ("Made", "Nat (dedans)", "Litige")
    assert v["lines"]["nl"]["played"][0].split(":")[0] in ("Gehaald", "Nat", "Litige")
    for form, message in (({"bot": "dd", "from": 1}, "bot must be one of net, heuristic, pimc, not 'dd'"),
                          ({"bot": "net", "from": 999}, "--bot-from 999: the deal has cards 1 to 32")):
        status, e = site.request("/api/bot", {"log": 0, "deal": deal, **form})
        assert status == 400 and e["error"] == message, e


def test_a_deal_entered_by_hand_is_reviewed_as_belote_review_hands_reviews_it(belote, site):
    typed = {"variant": "classic", "hands": HANDS, "turned": "Kh", "bids": "pass take", "plays": "Jh 7h Th Qc Tc"}
    status, body = site.request("/api/review", {"typed": typed, "pimc": "none", "worlds": 0})
    assert status == 202, body
    v = site.wait(body["job"])
    assert v["state"] == "done", v
    r = v["result"]["review"]
    # the bidding decides the trump and the troefmaker, on the command line too (--turned, --bids)
    assert r["command"] == (f"belote review --hands '{HANDS}' --turned Kh --bids 'pass take:h' --plays 'Jh 7h Th Qc Tc' "
                            "--pimc none --worlds 0")
    cli = belote.json(*shlex.split(r["command"])[1:])
    for key in ("cards", "values_after", "played", "bids", "turned"):
        assert r["json"][key] == cli[key], key
    assert cli["troefmaker"] == 1 and cli["trump"] == "h" and cli["bids"] == r["bids"]
    assert [b["call"] for b in r["bids"]] == ["pass", "take"] and r["turned"] == "Kh"
    assert r["story"]["en"]["bids"] == ["seat 0 (voorhand): pass", "seat 1: take ♥"]
    assert r["story"]["nl"]["tricks"] == ["Slag 1: stoel 0 (voorhand) haalt 33 punten (B♥ 7♥ 10♥ V♣)"]


@pytest.mark.parametrize("typed, message", [
    ({"bids": "pass", "turned": "Kh"}, "the bidding is not over: seat 1 still calls (pass take:h)"),
    ({"bids": "pass take", "turned": "Kh", "trump": "s"}, "the bidding makes seat 1 troefmaker in h, not the trump"),
    ({"bids": "pass take:s", "turned": "Kh"}, "--bids: call 2, take:s, is not open to seat 1 in round 1: it may call "
                                              "pass take:h"),
    ({"turned": "Qs", "trump": "s", "taker": 1}, "the turned card Qs goes to the troefmaker (RULES.md §3): seat 1 must "
                                                 "hold it"),
    ({"bids": "pass take", "turned": "Kh", "plays": "Jh Ac"}, "--plays: card 2, Ac, is not legal for seat 1 (its legal "
                                                              "cards: 7h 8h Qh Kh): trump was led"),
    ({"trump": "h", "plays": "Jh 7h Th Qc"}, None),  # the bidding is optional
])
def test_a_deal_entered_by_hand_with_a_mistake_is_one_line_naming_it(site, typed, message):
    status, body = site.request("/api/review", {"typed": {"hands": HANDS, **typed}, "pimc": "none"})
    if message is None:
        assert status == 202, body
        assert site.wait(body["job"])["state"] == "done"
        return
    assert status == 400 and body["error"].startswith(message), body


def test_the_editor_is_told_the_next_calls_the_tricks_and_why_a_card_is_refused(site):
    status, s = site.request("/api/deal", {"hands": HANDS, "turned": "Kh", "bids": "pass"})
    assert status == 200 and s["bidding"]["next"] == {"seat": 1, "round": 1, "calls": ["pass", "take:h"]}
    assert "held" not in s  # no play before the bidding is over
    status, s = site.request("/api/deal", {"hands": HANDS, "turned": "Kh", "bids": "pass take", "plays": "Jh 7h Th Qc Ac"})
    assert status == 200 and s["plays"] == ["Jh", "7h", "Th", "Qc"]
    assert s["tricks"] == [{"leader": 0, "plays": [[0, "Jh"], [1, "7h"], [2, "Th"], [3, "Qc"]], "winner": 0, "points": 33}]
    assert s["to_move"] == 0 and "Ac" not in s["held"][0] and s["legal"] == s["held"][0]
    assert s["refused"]["en"] == ("card 5, Ac, is not legal for seat 0 (its legal cards: 8c Tc Qd 9h Ah 7s Ks): seat 0 "
                                  "does not hold Ac")
    assert s["refused"]["words"]["nl"] == ("kaart 5, A♣, mag niet door stoel 0 (toegestaan: 8♣ 10♣ V♦ 9♥ A♥ 7♠ H♠): "
                                           "stoel 0 heeft A♣ niet")
    status, s = site.request("/api/deal", {"variant": "dekjas", "hands": "Jh 9h", "trump": "h"})
    assert status == 400 and s["error"] == "--hands gives 1 hands for 2 players: one per seat, seat 0 first, separated " \
                                           "by / (e.g. \"Jh 9h ... / 7h 8h ... / ...\")"


def test_a_random_deal_that_was_not_played_says_which_deal_is_shown(site):
    status, body = site.request("/api/review", {"random": {"variant": "classic", "seed": 1, "deal": 0}, "pimc": "none",
                                                "worlds": 0})
    r = site.wait(body["job"])["result"]["review"]
    assert r["deal"] == 1 and r["note"] == {"asked": 0, "deal": 1, "why": "passed_out"}
    assert r["story"]["en"]["note"] == ("Deal 0 was not played (everyone passed twice); this is deal 1, the first played "
                                        "one after it.")


def test_the_documents_a_report_links_to_are_served(site):
    from analyzer.web.app import DOCS

    status, body = site.request("/docs/RULES.md")
    assert status == 200 and "<h1" in body and "§8 Words" in body
    assert site.request(DOCS.as_posix() + "/NOTATION.md")[0] == 200  # a report outside the checkout links so
    for path in ("/docs/../README.md", "/docs/%2e%2e/README.md", "/docs/nope.md", "/docs/images/../RULES.md"):
        assert site.request(path)[0] == 404, path
