"""Same seed, same numbers: a digest of the raw integer outputs of every analysis (simulate
and seats counts, traced hands, games rows, bidding tables, take rows), for every variant,
policy pair and the rule options that change play, against the digests recorded in
``tests/golden/fingerprint.json`` (``scripts/maintainer/fingerprint.py``).

A change that is meant to move numbers (a rule, a policy's decision, the use of the random
stream) regenerates the golden file with ``.venv/bin/python scripts/maintainer/fingerprint.py --write``
and says in its commit why the numbers moved; a refactor (the hand loop on the game state)
must leave every digest as it is.
"""

import json

import pytest

from scripts.maintainer import fingerprint


@pytest.mark.slow
def test_every_analysis_gives_the_recorded_numbers():
    want = json.loads(fingerprint.GOLDEN.read_text())
    got = fingerprint.fingerprint()
    assert set(got) == set(want)
    differ = sorted(k for k in want if got[k] != want[k])
    assert not differ, f"{len(differ)} of {len(want)} cases changed, e.g. {differ[:5]}"
