"""The benchmark behind ``belote bench``: hands per second, side by side in one run.

Each case simulates whole hands (deal, bidding, play, declarations, scoring and
aggregation) for about ``seconds`` of wall time after a warm-up that compiles or loads
the kernels; the figure is hands / elapsed seconds. A searching play policy (``pimc``,
``dd``) bids as the heuristic; ``cost_in`` says what one of its hands costs in hands of
another policy measured in the same run.
"""

from __future__ import annotations

import os
import statistics
import subprocess
import sys
import time
from importlib import metadata

import numba

from analyzer.players.policies import BID_POLICIES, Policies, searches
from analyzer.rules import ALL_LABELS, Rules
from analyzer.runs.limits import derived_seed
from analyzer.runs.simulate import SimConfig, set_threads, simulate

DEFAULT_POLICIES = ("random", "heuristic", "pimc")


def cases(labels=ALL_LABELS, policies=DEFAULT_POLICIES, threads=None):
    top = numba.config.NUMBA_NUM_THREADS
    thread_counts = threads or sorted({1, top})
    for label in labels:
        for pol in policies:
            for t in thread_counts:
                yield label, pol, t


def measure(label: str, policy: str, threads: int, seconds: float, seed: int = 1) -> dict:
    rules = Rules.from_label(label)
    base = policy.partition(":")[0]
    bid = base if base in BID_POLICIES else "heuristic"  # heuristic:v=1 bids as heuristic, pimc too
    pols = Policies.parse(bid, policy, rules.players)
    search = searches(policy)
    warm = SimConfig(rules=rules, policies=pols, deals=40 if search else 20_000, seed=seed, threads=threads)
    r = simulate(warm)  # compiles or loads the cache; also a first rate estimate
    rate = warm.deals / max(r.seconds, 1e-6)
    n = max(100 if search else 50_000, int(rate * seconds))
    cfg = SimConfig(rules=rules, policies=pols, deals=n, seed=derived_seed(seed, 1), threads=threads)
    t0 = time.perf_counter()
    res = simulate(cfg)
    elapsed = time.perf_counter() - t0
    set_threads(None)
    return {
        "variant": rules.variant,
        "players": rules.players,
        "bid": bid,
        "play": policy,
        "threads": threads,
        "hands": n,
        "seconds": round(elapsed, 3),
        "hands_per_s": round(n / elapsed),
        # cards actually played (passed-out and redealt hands play none)
        "cards_per_s": round(res.get("played") * rules.n_tricks * rules.players / elapsed),
    }


def cost_in(rows: list[dict]) -> list[dict]:
    """The searching policies' rows, each given ``heuristic_hands``: how many hands of the
    heuristic (same variant, players and threads, same run) one of its hands costs."""
    out = []
    for r in rows:
        if not searches(r["play"]):
            continue
        for b in rows:
            if b["play"] == "heuristic" and (b["variant"], b["players"], b["threads"]) == (
                    r["variant"], r["players"], r["threads"]):
                r["heuristic_hands"] = round(b["hands_per_s"] / max(r["hands_per_s"], 1))
                out.append(r)
    return out


# --- against a peer engine ------------------------------------------------------------------

PEERS = {"colver": "0.11.1"}  # peer: the version measured (the optional ``bench`` extra pins it)

# colver (Rust, rayon) measured in its own process, so RAYON_NUM_THREADS=1 is read before its
# thread pool starts: a line "seconds" in, a line "rollouts/s" out.
_COLVER_CHILD = r"""
import sys, time
import colver
env = colver.Env.deal(dealer=0, seed=7)
env.rollout(20000)  # warm-up
print("ready", flush=True)
for line in sys.stdin:
    seconds = float(line)
    n = 0
    t0 = time.perf_counter()
    while True:
        env.rollout(20000)
        n += 20000
        dt = time.perf_counter() - t0
        if dt >= seconds:
            break
    print(n / dt, flush=True)
"""


def peer_missing(peer: str) -> str | None:
    """None when ``peer`` is installed at the version measured, else why not (one line)."""
    want = PEERS[peer]
    try:
        have = metadata.version(peer)
    except metadata.PackageNotFoundError:
        return f"{peer} is not installed: pip install 'belote-analyzer[bench]' ({peer}=={want})"
    if have != want:
        return f"{peer} {have} is installed, the comparison is for {peer}=={want}: pip install {peer}=={want}"
    return None


class _ColverChild:
    """A colver process on one thread: ``rate(seconds)`` measures its rollouts/s."""

    def __enter__(self):
        env = dict(os.environ, RAYON_NUM_THREADS="1")
        self.proc = subprocess.Popen([sys.executable, "-c", _COLVER_CHILD], env=env, text=True,
                                     stdin=subprocess.PIPE, stdout=subprocess.PIPE)
        if self.proc.stdout.readline().strip() != "ready":
            raise RuntimeError("colver did not start")
        return self

    def rate(self, seconds: float) -> float:
        self.proc.stdin.write(f"{seconds}\n")
        self.proc.stdin.flush()
        return float(self.proc.stdout.readline())

    def __exit__(self, *exc):
        self.proc.stdin.close()
        self.proc.wait(timeout=30)


def _hands_per_s(policy: str, seconds: float, guess: float, seed: int) -> float:
    """Classic hands/s on one thread with ``policy`` for bidding and play, for about
    ``seconds`` at the rate ``guess``."""
    cfg = SimConfig(rules=Rules(), policies=Policies.parse(policy, policy, 4), deals=max(20_000, int(guess * seconds)),
                    seed=seed, threads=1)
    return cfg.deals / max(simulate(cfg).seconds, 1e-6)


def compare_peer(peer: str = "colver", seconds: float = 2.0, rounds: int = 3) -> dict:
    """Alternate ``rounds`` times: colver's ``Env.deal(dealer=0, seed=7).rollout(20000)`` (one
    thread), then the project's classic hand with random and with heuristic policies (one
    thread); each for about ``seconds``. Returns the figures, their medians and the ratios."""
    guess = {}
    for pol in ("random", "heuristic"):  # compile or load the kernels, a first rate
        guess[pol] = _hands_per_s(pol, 0.0, 0.0, 1)
    figures = {"colver": [], "random": [], "heuristic": []}
    try:
        with _ColverChild() as child:
            for k in range(rounds):
                figures["colver"].append(child.rate(seconds))
                for pol in ("random", "heuristic"):
                    guess[pol] = _hands_per_s(pol, seconds, guess[pol], 2 + k)
                    figures[pol].append(guess[pol])
    finally:
        set_threads(None)
    med = {k: statistics.median(v) for k, v in figures.items()}
    return {
        "peer": f"{peer}=={PEERS[peer]}",
        "peer_measure": "Env.deal(dealer=0, seed=7).rollout(20000), RAYON_NUM_THREADS=1",
        "ours": "classic whole hands (deal, bidding, play, declarations, scoring, counting), 1 thread",
        "rounds": rounds,
        "seconds": seconds,
        "per_round": {k: [round(x) for x in v] for k, v in figures.items()},
        "median_per_s": {k: round(v) for k, v in med.items()},
        "ratio_random": round(med["random"] / med["colver"], 2),
        "ratio_heuristic": round(med["heuristic"] / med["colver"], 2),
        "goals": {"ratio_random": 2.5, "ratio_heuristic": 1.5},
    }
