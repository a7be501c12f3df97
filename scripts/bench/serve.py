"""How fast ``belote serve`` answers (issue 23's goals), measured on a real server.

Starts ``belote serve`` on a free port of 127.0.0.1 and times, from the request to the answer
on the page's poll (every 0.1 s here; the page polls every 0.4 s):

- the verdict of a classic hand at the page's default of 100,000 deals (heuristic play), and the
  bracket after it at its defaults (pimc 4,000 deals, dd 500; ``--no-bracket`` skips it);
- the review of a classic deal (dd on every card, pimc's card beside each), and without pimc;
- ``belote review`` of the same deal on the command line, the process included.

Each is run ``--rounds`` times after one warm-up round; the median is printed. The goals: the
verdict under 10 s, the review under 2 s warm.

    .venv/bin/python scripts/bench/serve.py --rounds 3
"""

from __future__ import annotations

import argparse
import json
import re
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

BELOTE = str(Path(sys.executable).with_name("belote"))
OPENER = urllib.request.build_opener(urllib.request.ProxyHandler({}))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--no-bracket", action="store_true")
    a = ap.parse_args()
    tmp = Path(tempfile.mkdtemp())
    log = tmp / "deals.jsonl"
    subprocess.run([BELOTE, "simulate", "--deals", "4", "--log", str(log), "-q"], check=True, capture_output=True)
    deal = next(json.loads(x)["deal"] for x in log.read_text().splitlines() if json.loads(x)["outcome"] == "played")
    proc = subprocess.Popen([BELOTE, "serve", "--port", "0", "--log", str(log), "-q"], stdout=subprocess.PIPE,
                            stderr=subprocess.DEVNULL, text=True)
    url = re.search(r"http://\S+?/", proc.stdout.readline()).group(0).rstrip("/")

    def post(path, body):
        r = urllib.request.Request(url + path, data=json.dumps(body).encode(), method="POST",
                                   headers={"Content-Type": "application/json"})  # the server refuses any other
        with OPENER.open(r) as f:
            return json.loads(f.read())["job"]

    def until(job, key):
        t0 = time.perf_counter()
        while True:
            with OPENER.open(f"{url}/api/jobs/{job}") as f:
                v = json.loads(f.read())
            if key in v["result"] or v["state"] in ("failed", "cancelled"):
                assert key in v["result"], v
                return time.perf_counter() - t0, v
            time.sleep(0.1)

    def timed(what, fn):
        fn()  # warm-up
        ts = [fn() for _ in range(a.rounds)]
        print(f"{what}: median {statistics.median(ts):.2f} s (of {', '.join(f'{t:.2f}' for t in ts)})", flush=True)

    try:
        take = {"hand": "Jh 9h Ah Tc 7s", "turned": "Qh"}

        def verdict():
            t0 = time.perf_counter()
            until(post("/api/take", take), "take")
            return time.perf_counter() - t0

        timed("take verdict, classic, 100,000 deals, heuristic", verdict)
        if not a.no_bracket:
            def bracket():
                t0 = time.perf_counter()
                until(post("/api/take", {**take, "bracket": ["pimc", "dd"]}), "bracket")
                return time.perf_counter() - t0

            timed("take verdict + bracket (pimc 4,000, dd 500)", bracket)
        for pimc in ("pimc:infer=bids", "none"):
            def review(pimc=pimc):
                t0 = time.perf_counter()
                until(post("/api/review", {"log": 0, "deal": deal, "pimc": pimc}), "review")
                return time.perf_counter() - t0

            timed(f"review of a classic deal on the page, pimc={pimc}", review)

        def cli():
            t0 = time.perf_counter()
            subprocess.run([BELOTE, "review", str(log), "--deal", str(deal), "--json"], check=True, capture_output=True)
            return time.perf_counter() - t0

        timed("belote review of the same deal, the process included", cli)
    finally:
        proc.terminate()
        proc.wait()


if __name__ == "__main__":
    main()
