"""The report folder: contents, run.json, and the all-or-nothing move into place."""

import json

import pytest

from analyzer.output import report as R
from analyzer.errors import BeloteError
from analyzer.output.outdir import write_run

pytestmark = pytest.mark.slow  # whole reports: out of make test-fast (make test runs them)

EXAMPLES = R.EXAMPLES[:1] + R.EXAMPLES[6:7]  # one classic, one piekjas2 (smous)
VARIANTS = ("classic", "piekjas2")


def small_report(tmp_path, name="r", **kw):
    return R.make_report(tmp_path / name, deals=kw.pop("deals", 4000), seed=kw.pop("seed", 2), examples=EXAMPLES,
                         variants=VARIANTS, **kw)


@pytest.fixture(scope="module")
def built(shared_report):
    """The session's small report (tests/conftest.py): these examples and variants, 4,000 deals, seed 2."""
    assert (shared_report.examples, shared_report.variants) == (EXAMPLES, VARIANTS)
    assert (shared_report.deals, shared_report.seed) == (4000, 2)
    return shared_report.path.parent, shared_report


def test_report_folder_holds_index_tables_plots_and_run_json(built):
    tmp, r = built
    names = {p.name for p in r.path.iterdir()}
    assert {"index.md", "run.json", "take_examples.csv", "take_examples.parquet", "take_examples.png",
            "table_classic_classes.parquet", "table_piekjas2_break_even.png", "balance_seats.csv",
            "balance_win.png"} <= names
    md = (r.path / "index.md").read_text()
    # every embedded plot exists
    import re

    for img in re.findall(r"!\[[^\]]*\]\(([^)]+)\)", md):
        assert (r.path / img).is_file(), img
    assert "Verdict" in md and "rule of thumb" in md.lower() and "n=" in md
    assert "heuristic" in md and "| `undertrump` |" in md and "| forced |" in md  # policies and rule options stated


def test_run_json_records_version_commit_seed_parameters_timings_and_hands(built):
    _, r = built
    run = json.loads((r.path / "run.json").read_text())
    assert run["version"] and "git_commit" in run and run["seed"] == 2
    assert run["parameters"]["deals"] == 4000 and run["parameters"]["variants"] == list(VARIANTS)
    parts = {"take", "table", "balance", "calibration", "rules", "bracket", "score"}  # every section that simulates
    # each section's CPU too: the bracket's cost is reported, and the plan's prices are fitted to them all
    assert set(run["timings"]) == parts | {"total"} | {f"{p}_cpu" for p in parts}
    hands = run["hands_simulated"]
    assert hands["total"] == sum(hands[p] for p in parts) > 4000 * len(VARIANTS)
    assert all(hands[p] > 0 for p in parts)


def test_no_temporary_folder_is_left(built):
    tmp, _ = built
    assert [p.name for p in tmp.iterdir()] == ["r"]


def earlier_report(folder, **files):
    """A folder as an earlier run of ours leaves it: its files, listed with their digests in our run.json."""
    folder.mkdir()
    for name, text in files.items():
        (folder / name.replace("_", ".")).write_text(text)
    write_run(folder, {"tool": "belote-analyzer"})


def test_an_interrupted_run_leaves_no_half_report_and_keeps_the_earlier_one(tmp_path, monkeypatch):
    earlier = tmp_path / "r"
    earlier_report(earlier, index_md="the earlier report")

    def interrupt(*a, **k):
        raise KeyboardInterrupt

    monkeypatch.setattr(R, "compare_variants", interrupt)  # stop in the last part
    with pytest.raises(KeyboardInterrupt):
        small_report(tmp_path, deals=400)
    assert (earlier / "index.md").read_text() == "the earlier report"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["r"]


def test_a_complete_run_replaces_the_earlier_report(tmp_path):
    earlier = tmp_path / "r"
    earlier_report(earlier, stale_txt="old")
    r = small_report(tmp_path, deals=400)
    assert (r.path / "index.md").is_file() and not (r.path / "stale.txt").exists()
    assert sorted(p.name for p in tmp_path.iterdir()) == ["r"]


def test_a_folder_holding_a_file_we_did_not_write_is_refused_before_any_work(tmp_path, monkeypatch):
    earlier = tmp_path / "r"
    earlier_report(earlier, index_md="an earlier report")
    (earlier / "notes.txt").write_text("the user's")
    monkeypatch.setattr(R, "_write", lambda *a: pytest.fail("the analysis ran"))
    with pytest.raises(BeloteError, match="did not write"):
        small_report(tmp_path, deals=400)
    assert (earlier / "notes.txt").read_text() == "the user's"
    assert sorted(p.name for p in earlier.iterdir()) == ["index.md", "notes.txt", "run.json"]


def test_default_name_is_built_from_parameters_and_seed():
    assert R.default_name(2_000_000, 1) == "report-deals2M-seed1"
    assert R.default_name(150_000, 7) == "report-deals150k-seed7"
    assert R.default_name(1234, 0) == "report-deals1234-seed0"
    assert R.default_name(200, 1, variants=("classic", "piekjas2")) == "report-deals200-seed1-classic-piekjas2"
    assert R.default_name(200, 1, variants=R.ALL_LABELS) == "report-deals200-seed1"  # every variant: the default


def test_unwritable_or_file_output_is_a_domain_error(tmp_path):
    f = tmp_path / "file"
    f.write_text("")
    with pytest.raises(BeloteError, match="is a file"):
        R.make_report(f, deals=100, examples=EXAMPLES, variants=VARIANTS)
    with pytest.raises(BeloteError, match="cannot write"):
        R.make_report(f / "sub" / "r", deals=100, examples=EXAMPLES, variants=VARIANTS)
    with pytest.raises(BeloteError, match="--deals"):
        R.make_report(tmp_path / "x", deals=0)
