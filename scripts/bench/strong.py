"""Benchmarks of the strong play policies (issue 10), recorded in docs/BENCHMARKS.md.

    .venv/bin/python scripts/bench/strong.py speed [--deals N] [--labels classic,...]
    .venv/bin/python scripts/bench/strong.py quality [--deals N] [--policies heuristic,pimc,dd]

``speed``: hands per second and cards per second when every seat plays ``dd`` or
``pimc`` from the first trick, on hands dealt and bid by the heuristic (one thread).
``quality``: classic, the same deals (paired): the taker side's card points and P(made)
when the taker's side plays each policy against heuristic defenders (``POL``), or every seat
plays it (``POL@all``; ``dd`` every seat by default); paired differences against the heuristic
with their 95% intervals. The README's table of why net is the default player:

    .venv/bin/python scripts/bench/strong.py quality --deals 1000 \\
        --policies dd,net,pimc,net@all,pimc@all,heuristic@all,random@all

Deals come from ``belote simulate``'s stream (seed 1, heuristic bidding), played hands only.
"""

from __future__ import annotations

import argparse
import math
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from analyzer import git_commit  # noqa: E402
from analyzer.game.state import ST_POINTS, ST_TAKER_SIDE, ST_TRICKS, state_from_record  # noqa: E402
from analyzer.runs.records import hand_record  # noqa: E402
from analyzer.players.api import public_from_record, strong_workspace  # noqa: E402
from analyzer.players.policies import play_code  # noqa: E402
from analyzer.players.strong import play_to_end  # noqa: E402
from analyzer.rules import Rules  # noqa: E402
from analyzer.rules.scoring import MADE, score_classic  # noqa: E402
from analyzer.runs.simulate import SimConfig  # noqa: E402


def played_records(rules: Rules, count: int, seed: int = 1):
    cfg = SimConfig(rules=rules, deals=10 * count + 100, seed=seed)
    out, i = [], 0
    while len(out) < count:
        r = hand_record(cfg, i)
        i += 1
        if r["outcome"] == "played":
            out.append(r)
    return out


def play_record(record, rules, codes, sw, seed):
    st, _ = state_from_record(record)
    pub = public_from_record(record, rules)
    rng = np.array([seed], np.uint64)
    play_to_end(np.asarray(codes, np.int64), st, rules.record(), pub, sw, rng)
    return st


def speed(args):
    for label in args.labels.split(","):
        rules = Rules.from_label(label)
        recs = played_records(rules, args.deals)
        for pol in args.policies.split(","):
            code = play_code(pol)
            codes = [code] * rules.players
            sw = strong_workspace(rules, codes)
            play_record(recs[0], rules, codes, sw, 0)  # compile / load
            t0 = time.perf_counter()
            for i, r in enumerate(recs):
                play_record(r, rules, codes, sw, i)
            dt = time.perf_counter() - t0
            cards = len(recs) * rules.n_tricks * rules.players
            print(f"{label:9s} {pol:22s} {len(recs) / dt:8.1f} hands/s  {cards / dt:9.0f} cards/s  "
                  f"({len(recs)} hands, {dt:.1f} s)", flush=True)


def _taker_result(st, rules, record):
    rec = rules.record()
    taker_side = int(st[ST_TAKER_SIDE])
    card = np.array([st[ST_POINTS + s] for s in range(4)], np.int64)
    tricks = np.array([st[ST_TRICKS + s] for s in range(4)], np.int64)
    decl = np.zeros(4, np.int64)
    roem = record["result"]["roem_side"]
    if roem is not None:
        decl[roem] = sum(d["points"] for d in record["declarations"] if d["seat"] in record["sides"][roem])
    stuk = np.zeros(4, np.int64)
    if record["stuk"]:
        stuk[record["stuk"]["seat"] & 1] = 20
    out = [np.zeros(4, np.int64) for _ in range(3)]
    oc, _ = score_classic(taker_side, rec.n_tricks, card, tricks, decl, -1 if roem is None else roem, stuk, 0,
                          rec.classic_tie_made, *out)
    return int(out[0][taker_side]), oc == MADE


def _mean_ci(x):
    x = np.asarray(x, float)
    half = 1.96 * x.std(ddof=1) / math.sqrt(len(x))
    return x.mean(), half


def quality(args):
    """Each policy of ``--policies`` on the same played deals: ``POL`` plays the taker's side against heuristic
    defenders (``dd`` every seat, with ``--dd-all``), ``POL@all`` plays every seat. Paired differences against
    ``heuristic`` (taker side) and ``heuristic@all`` (every seat), where they are among the policies."""
    rules = Rules()
    recs = played_records(rules, args.deals)
    results = {}
    for spec in args.policies.split(","):
        pol, _, where = spec.partition("@")
        every = where == "all" or (pol.startswith("dd") and args.dd_all)
        code = play_code(pol)
        sw = strong_workspace(rules, [code])
        pts, made = [], []
        t0 = time.perf_counter()
        for i, r in enumerate(recs):
            taker_side = rules.side_of(int(r["troefmaker"]))
            codes = [code] * 4 if every else [code if rules.side_of(s) == taker_side else play_code("heuristic")
                                              for s in range(4)]
            st = play_record(r, rules, codes, sw, i)
            p, m = _taker_result(st, rules, r)
            pts.append(p)
            made.append(m)
        dt = time.perf_counter() - t0
        results[spec] = (np.array(pts), np.array(made, float), every)
        mp, hp = _mean_ci(pts)
        mm, hm = _mean_ci(made)
        who = "every seat" if every else "taker side, heuristic defence"
        print(f"{spec:22s} ({who}): taker card points {mp:6.1f} ± {hp:.1f}, P(made) {100 * mm:5.1f}% ± {100 * hm:.1f}"
              f"  [{len(recs)} deals, {dt:.0f} s]", flush=True)
    for base_name in ("heuristic", "heuristic@all"):
        base = results.get(base_name)
        if base is None:
            continue
        for spec, (p, m, every) in results.items():
            if spec == base_name or every != base[2]:
                continue
            dp, hp = _mean_ci(p - base[0])
            dm, hm = _mean_ci(m - base[1])
            print(f"  {spec} - {base_name} (paired): {dp:+.1f} ± {hp:.1f} card points, {100 * dm:+.1f} ± "
                  f"{100 * hm:.1f} points of P(made)")


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("what", choices=["speed", "quality"])
    ap.add_argument("--deals", type=int, default=200)
    ap.add_argument("--labels", default="classic,piekjas2,piekjas3,piekjas4,dekjas")
    ap.add_argument("--policies", default=None)
    ap.add_argument("--dd-all", action="store_true", default=True)
    args = ap.parse_args()
    print(f"# {time.strftime('%Y-%m-%d %H:%M', time.gmtime())} UTC, commit {git_commit()}, "
          f"{' '.join(sys.argv)}", flush=True)
    if args.what == "speed":
        args.policies = args.policies or "dd,pimc"
        speed(args)
    else:
        args.policies = args.policies or "heuristic,pimc,dd"
        quality(args)


if __name__ == "__main__":
    main()
