# The two commands of the README:  make report  /  make test
# Each creates (or reuses) a local virtual environment in .venv and installs the project.
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed

.PHONY: test test-fast report bench docs clean install policies net browser serve lint format

# pip byte-compiles what it installs in one process: compileall does it on every core instead (a fresh
# clone's install 39 s -> 24 s), and the project's own modules too, which every command imports and which
# Python compiles again in each process where it writes no bytecode itself (PYTHONDONTWRITEBYTECODE)
$(STAMP): pyproject.toml
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet --no-compile -e '.[test,dask,web]'
	$(BIN)/python -m compileall -q -j 0 $(VENV)/lib analyzer cli.py
	touch $(STAMP)

# then compile the kernels once for this machine (belote warmup, with a progress line; under a
# second when already compiled), so a user's first command answers at once. Not in the stamp that
# make test depends on: there the suite's conftest compiles the driver while the workers run the
# tests that never call it, which a compile before pytest would serialise (CI pays no more than
# before). Run together, the two compile the driver once (kernelcache.compile_once's lock).
install: $(STAMP)
	$(BIN)/belote warmup

# Debian's chromium and its driver, for the tests that open the HTML report and drive belote serve's
# pages in a headless browser (installed once; with sudo when not root)
browser:
	@{ command -v chromium && command -v chromedriver; } >/dev/null 2>&1 || { \
	  echo "installing Debian's chromium and chromium-driver (browser tests of the report and of belote serve)"; \
	  SUDO=$$([ "$$(id -u)" = 0 ] || echo sudo); $$SUDO apt-get update -qq && \
	  DEBIAN_FRONTEND=noninteractive $$SUDO apt-get install -y -qq chromium chromium-driver >/dev/null; }

# the suite on every core (pytest-xdist): each worker loads or compiles the kernels itself
test: $(STAMP) browser
	$(BIN)/python -m pytest -q -n auto --durations=15

# the quick lane for daily work (about two minutes on a warm kernel cache with 2 cores): everything but
# the tests marked slow (whole reports, Dask clusters, searching brackets, statistical and agreement
# runs, long subprocess runs, fault injection), which make test still runs
test-fast: $(STAMP)
	$(BIN)/python -m pytest -q -n auto -m "not slow"

# the linter (ruff, configured in pyproject.toml; tests/project/test_lint.py runs the same check in make test)
lint: $(STAMP)
	$(BIN)/ruff check .

# what the linter can mend by itself (unused imports, loop variables, f-strings); the code is not
# run through a formatter: its hand-aligned tables of cards, weights and layouts would be lost
format: $(STAMP)
	$(BIN)/ruff check --fix .

report: $(STAMP)
	$(BIN)/belote report

# the local web page (http://127.0.0.1:8765/): should I take?, review a deal, the reports
serve: install
	$(BIN)/belote serve

bench: $(STAMP)
	$(BIN)/belote bench

# regenerate the shipped calibrated bidding policies (analyzer/players/policies_data/*.json):
# calibrated under heuristic play (<label>.json) and under net play (<label>.net.json)
policies: $(STAMP)
	$(BIN)/belote calibrate --variant all --ship --play heuristic --deals 200000
	$(BIN)/belote calibrate --variant all --ship --play net --deals 200000

# retrain the shipped net play policy (analyzer/players/net_data/net.npy, net v4), every row as it was made: classic
# one step of policy iteration over the frozen v3 (its games and play-outs), Piekjas 2 one step over the heuristic's,
# both fitted to the choice (--fit choice, the default); Piekjas 3, Piekjas 4 and Dekjas as v3 made them (least squares
# alone: two steps in Piekjas 3 and Dekjas, one in Piekjas 4; the steps tried with the choice fit there beat v3 over
# the heuristic or head to head, not both: docs/BENCHMARKS.md). About 40 minutes on 2 cores (classic 13.5), 15 GB at
# the most (classic). Then `make policies` calibrates the bidders under it.
net: $(STAMP)
	$(BIN)/belote learn --variant classic --start net:v=3 --deals 300000 --test-deals 20000 --write
	$(BIN)/belote learn --variant piekjas --players 2 --deals 100000 --test-deals 10000 --write
	$(BIN)/belote learn --variant piekjas --players 3 --deals 100000 --test-deals 10000 --iterations 2 --fit squares --write
	$(BIN)/belote learn --variant piekjas --players 4 --deals 100000 --test-deals 10000 --fit squares --write
	$(BIN)/belote learn --variant dekjas --deals 100000 --test-deals 10000 --iterations 2 --fit squares --write

# rerun every console example of README.md and docs/GUIDE.md and write its real output back
docs: $(STAMP)
	$(BIN)/python scripts/maintainer/readme_examples.py

clean:
	find . -name __pycache__ -type d -prune -exec rm -rf {} +
	rm -rf .pytest_cache .hypothesis "$${XDG_CACHE_HOME:-$$HOME/.cache}/belote-analyzer"
