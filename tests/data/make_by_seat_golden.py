"""Regenerate by_seat_before_roles.json from the code before policies by role (commit 5da2980):

    mkdir /tmp/before && git archive 5da2980 | tar -x -C /tmp/before
    .venv/bin/python tests/data/make_by_seat_golden.py /tmp/before tests/data/by_seat_before_roles.json
"""
import json
import sys

sys.path.insert(0, sys.argv[1])  # the old checkout's analyzer package first

from analyzer.players.policies import Policies  # noqa: E402
from analyzer.rules import Rules  # noqa: E402
from analyzer.runs.games import play_games  # noqa: E402
from analyzer.runs.simulate import SimConfig, simulate  # noqa: E402

out = {}
for label, play in (("classic", "0=random,1=heuristic,2=random"), ("piekjas3", "1=random"), ("dekjas", "0=random")):
    r = Rules.from_label(label)
    cfg = SimConfig(rules=r, policies=Policies.parse("heuristic", play, r.players), deals=3000, seed=5, threads=1)
    out[f"simulate {label} --play {play}"] = simulate(cfg).counts.tolist()
    out[f"games {label} --play {play}"] = play_games(cfg, 40).games.tolist()
with open(sys.argv[2], "w") as f:
    json.dump(out, f, separators=(",", ":"))
