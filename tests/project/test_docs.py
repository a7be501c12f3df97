"""The project's documents stay true to the code: docs/RULES.md documents every rule option
with its values and its default per variant, docs/DEAL_LOG.md every field the deal log
writes, its example record is a real, clean record, and every link and pointer resolves.
"""

from __future__ import annotations

import ast
import copy
import importlib
import json
import re
from pathlib import Path

import pytest

from analyzer import rules as rules_module
from analyzer.rules.reference import replay
from analyzer.rules import ALL_LABELS, OPTIONS, PLAYER_COUNTS, Rules, default_target

ROOT = Path(__file__).resolve().parents[2]
RULES_MD = ROOT / "docs" / "RULES.md"
DEAL_LOG_MD = ROOT / "docs" / "DEAL_LOG.md"



# --- reading the markdown ---------------------------------------------------------------


def _text(path: Path) -> str:
    return path.read_text(encoding="utf-8")


def _section(text: str, heading: str) -> str:
    """The body of the section whose heading line is ``heading`` (up to the next heading
    of the same or a higher level)."""
    lines = text.splitlines()
    level = heading.split(" ", 1)[0]
    start = lines.index(heading)  # ValueError (test error) if the heading is gone
    out = []
    for line in lines[start + 1:]:
        m = re.match(r"(#+) ", line)
        if m and len(m.group(1)) <= len(level):
            break
        out.append(line)
    return "\n".join(out)


def _tables(text: str) -> list[list[list[str]]]:
    """Every markdown table of ``text``, as rows of cells (header first, rule line dropped)."""
    tables, current = [], []
    for line in text.splitlines() + [""]:
        if line.startswith("|"):
            cells = [c.strip() for c in line.strip().strip("|").split("|")]
            if not all(re.fullmatch(r":?-+:?", c) for c in cells):
                current.append(cells)
        elif current:
            tables.append(current)
            current = []
    return tables


def _table_by_header(text: str, first_cell: str, second_cell: str) -> list[list[str]]:
    found = [t for t in _tables(text) if t[0][:2] == [first_cell, second_cell]]
    assert len(found) == 1, f"expected one table headed | {first_cell} | {second_cell} |, found {len(found)}"
    return found[0]


def _codes(cell: str) -> list[str]:
    """The `code` spans of a cell, in order."""
    return re.findall(r"`([^`]+)`", cell)


def _rows_by_option(table) -> dict[str, list[str]]:
    rows = {}
    for row in table[1:]:
        codes = _codes(row[0])
        assert codes, f"row {row} does not name an option in `code`"
        rows[codes[0]] = row
    return rows


def _label_variant(label: str) -> tuple[str, int]:
    """``piekjas3`` -> ("piekjas", 3); ``classic`` -> ("classic", 4)."""
    variant = label.rstrip("234")
    return variant, int(label[len(variant):] or PLAYER_COUNTS[variant][0])


# --- docs/RULES.md: every option, its values and defaults --------------------------------


def test_every_rule_option_is_documented_with_its_values():
    table = _table_by_header(_section(_text(RULES_MD), "## Rule options"), "option", "values")
    rows = _rows_by_option(table)
    for key, (values, _meaning) in OPTIONS.items():
        assert key in rows, f"option {key} is missing from the options table of docs/RULES.md"
        assert set(_codes(rows[key][1])) == set(values), (
            f"docs/RULES.md lists {key} values {_codes(rows[key][1])}, analyzer.rules allows {list(values)}")
    assert "target" in rows


def test_no_option_is_documented_that_the_code_lacks():
    table = _table_by_header(_section(_text(RULES_MD), "## Rule options"), "option", "values")
    extra = set(_rows_by_option(table)) - set(OPTIONS) - {"target"}
    assert not extra, f"docs/RULES.md documents options the code does not have: {sorted(extra)}"


def _defaults_table():
    table = _table_by_header(_section(_text(RULES_MD), "## Rule options"), "option", "classic")
    header = table[0]
    assert header[1:] == list(ALL_LABELS), f"defaults table columns {header[1:]} should be {list(ALL_LABELS)}"
    return {opt: dict(zip(header[1:], row[1:])) for opt, row in _rows_by_option(table).items()}


def test_documented_targets_are_the_code_defaults():
    targets = _defaults_table()["target"]
    for label in ALL_LABELS:
        assert int(targets[label]) == default_target(*_label_variant(label)), label


def test_documented_defaults_per_variant_are_option_choices():
    table = _defaults_table()
    assert set(table) == set(OPTIONS) | {"target"}
    for label in ALL_LABELS:
        choices = rules_module.option_choices(*_label_variant(label))
        for key in OPTIONS:
            cell = table[key][label]
            allowed = choices.get(key, ())
            if len(allowed) >= 2:
                assert _codes(cell)[:1] == [allowed[0]], (
                    f"docs/RULES.md: default of {key} for {label} is {cell!r}, the code's is {allowed[0]!r}")
            else:
                assert cell.startswith("—"), (
                    f"docs/RULES.md offers {key} for {label} ({cell!r}); option_choices does not")


def test_every_change_of_revision_2_is_documented():
    text = _text(RULES_MD)
    changes = _section(text, "## Changes")
    table = _defaults_table()
    options = _rows_by_option(_table_by_header(_section(text, "## Rule options"), "option", "values"))
    assert rules_module.REVISION_2, "REVISION_2 lists no change"
    for ch in rules_module.REVISION_2:
        assert f"`{ch.option}={ch.before}`" in changes and f"`{ch.option}={ch.after}`" in changes, (
            f"the Changes section of docs/RULES.md does not show {ch.option}: {ch.before} -> {ch.after}")
        assert _codes(options[ch.option][3])[:1] == [ch.before], f"revision-1 column of {ch.option}"
        for label in ch.labels:
            assert _codes(table[ch.option][label])[:1] == [ch.after], f"{ch.option} default for {label}"


def test_changes_section_is_dated_revision_2():
    changes = _section(_text(RULES_MD), "## Changes")
    assert "Revision 2, 2026-12-01" in changes


# --- docs/RULES.md: readings ------------------------------------------------------------


def _reading_numbers() -> list[int]:
    table = _table_by_header(_section(_text(RULES_MD), "## Readings by number"), "#", "§")
    return [int(row[0].lstrip("R")) for row in table[1:]]


def test_readings_are_numbered_once_in_order():
    numbers = _reading_numbers()
    assert numbers == list(range(1, len(numbers) + 1))


def test_every_reading_is_folded_into_its_section():
    text = _text(RULES_MD)
    body = text[: text.index("## Readings by number")]
    marked = {int(n) for n in re.findall(r"\*\*R(\d+)\*\*", body)}
    numbers = set(_reading_numbers())
    assert numbers - marked == set(), f"readings listed but not marked in the text: {sorted(numbers - marked)}"
    assert marked - numbers == set(), f"readings marked but not listed: {sorted(marked - numbers)}"


def test_reading_numbers_cited_in_code_resolve():
    numbers = set(_reading_numbers())
    cited = {}
    for path in list((ROOT / "analyzer").rglob("*.py")) + list((ROOT / "tests").rglob("*.py")) + [ROOT / "cli.py"]:
        for n in re.findall(r"\bReadings? R?(\d+)\b", _text(path)):
            cited.setdefault(int(n), path.name)
    unknown = {n: where for n, where in cited.items() if n not in numbers}
    assert not unknown, f"reading numbers cited in code but not in docs/RULES.md: {unknown}"


# --- docs/DEAL_LOG.md -------------------------------------------------------------------


def _written_fields() -> set[str]:
    """Every key analyzer/runs/records.py writes into a record: dict literal keys and
    ``record["key"] = ...`` assignments."""
    tree = ast.parse(_text(ROOT / "analyzer" / "runs" / "records.py"))
    keys = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Dict):
            keys |= {k.value for k in node.keys if isinstance(k, ast.Constant) and isinstance(k.value, str)}
        elif isinstance(node, ast.Assign):
            for t in node.targets:
                if isinstance(t, ast.Subscript) and isinstance(t.slice, ast.Constant) and isinstance(t.slice.value, str):
                    keys.add(t.slice.value)
    return keys


def test_every_deal_log_field_is_documented():
    doc = _text(DEAL_LOG_MD)
    fields = _written_fields()
    assert {"schema", "deck", "tricks", "result", "scores"} <= fields  # the scan finds the record
    missing = sorted(f for f in fields if f"`{f}`" not in doc and f'"{f}"' not in doc)
    assert not missing, f"fields written by analyzer/runs/records.py but not in docs/DEAL_LOG.md: {missing}"
    assert "`totals_before`" in doc


def _example() -> dict:
    blocks = re.findall(r"```json\n(.*?)```", _text(DEAL_LOG_MD), re.S)
    assert len(blocks) == 1, "docs/DEAL_LOG.md should hold one ```json example record"
    return json.loads(blocks[0])


def test_example_record_deals_32_distinct_cards():
    deck = _example()["deck"]
    assert len(deck) == 32 and len(set(deck)) == 32


def test_example_record_replays_cleanly():
    assert replay(_example()) == []


def _totals_scenarios():
    section = _section(_text(DEAL_LOG_MD), "## Fields")
    table = _table_by_header(section, "totals_before", "trickless_roem")
    return [(json.loads(_codes(r[0])[0]), _codes(r[1])[0], json.loads(_codes(r[2])[0])) for r in table[1:]]


def _totals_target() -> int:
    """The game's target the scenarios name ("played inside a game to 700"), not the example's default."""
    return int(re.search(r"played inside a game to (\d+)", _section(_text(DEAL_LOG_MD), "## Fields"))[1])


def test_totals_before_examples_cover_both_readings():
    scenarios = _totals_scenarios()
    assert {reading for _, reading, _ in scenarios} == {"wins", "target"}


@pytest.mark.parametrize("case", range(3))
def test_totals_before_examples_replay(case):
    totals, reading, scores = _totals_scenarios()[case]
    rec = copy.deepcopy(_example())
    rec["totals_before"] = totals
    rec["rules"]["trickless_roem"] = reading
    rec["rules"]["target"] = _totals_target()
    rec["result"]["scores"] = scores
    assert replay(rec) == []


@pytest.mark.slow
def test_example_record_is_what_the_simulator_writes():
    from analyzer.runs.records import hand_record
    from analyzer.players.policies import Policies
    from analyzer.runs.simulate import SimConfig

    ex = _example()
    rules = Rules.make(ex["variant"], ex["players"])
    assert ex["rules"] == rules.options(), "the example should show the variant's default rules"
    policies = Policies.parse(ex["policies"]["bid"], ex["policies"]["play"], ex["players"])
    cfg = SimConfig(rules=rules, policies=policies, deals=ex["deal"] + 1, seed=ex["seed"], threads=1)
    assert hand_record(cfg, ex["deal"]) == ex, (
        "docs/DEAL_LOG.md's example is no longer what 'belote simulate' writes for its seed and deal: "
        "regenerate it with analyzer.runs.records.hand_record and update the explanation below it")


# --- links and pointers -----------------------------------------------------------------

DOCS = [ROOT / "README.md"] + sorted((ROOT / "docs").glob("*.md"))


def _slug(heading: str) -> str:
    """GitHub's anchor for a heading: lower case, punctuation dropped, spaces to hyphens."""
    s = re.sub(r"[^\w\- ]", "", heading.strip().lower())
    return s.replace(" ", "-")


def _anchors(path: Path) -> set[str]:
    return {_slug(m) for m in re.findall(r"^#+ (.+)$", _text(path), re.M)}


def test_links_between_documents_resolve():
    broken = []
    for doc in DOCS:
        for target in re.findall(r"\]\(([^)\s]+)\)", _text(doc)):
            if re.match(r"[a-z]+:", target):
                continue  # http(s) and mailto links are not checked here
            file_part, _, anchor = target.partition("#")
            dest = (doc.parent / file_part).resolve() if file_part else doc
            if not dest.exists():
                broken.append(f"{doc.name}: {target} (no such file)")
            elif anchor and dest.suffix == ".md" and anchor not in _anchors(dest):
                broken.append(f"{doc.name}: {target} (no such heading)")
    assert not broken, broken


def test_readme_links_the_rules_and_the_deal_log():
    readme = _text(ROOT / "README.md")
    assert "](docs/RULES.md)" in readme and "](docs/DEAL_LOG.md)" in readme


def test_nothing_points_outside_the_repository_or_at_removed_docs():
    """A fresh clone has only its own docs: no link to the rules contract outside the
    repository, none to the rule-readings file that docs/RULES.md replaced."""
    shared = "shared" + "/"  # spelt in pieces so that this file does not match itself
    words = ("../" + shared, shared + "RULES", shared + "DEAL_LOG", "RULE_" + "READINGS")
    files = DOCS + [ROOT / "cli.py", ROOT / "Makefile"]
    for folder in ("analyzer", "tests", "scripts"):
        files += list((ROOT / folder).rglob("*.py"))
    hits = [f"{p.relative_to(ROOT)}: {word}" for p in files for word in words if word in _text(p)]
    assert not hits, hits


def _resolves(dotted: str) -> bool:
    """``analyzer.rules.legal`` or ``analyzer.rules.option_choices``: a module, then attributes."""
    parts = dotted.split(".")
    for cut in range(len(parts), 0, -1):
        try:
            obj = importlib.import_module(".".join(parts[:cut]))
        except ImportError:
            continue
        for attr in parts[cut:]:
            if not hasattr(obj, attr):
                return False
            obj = getattr(obj, attr)
        return True
    return False


def test_module_pointers_in_docs_exist():
    """Sections point at the modules that implement them (``analyzer.rules.legal``); when modules
    move, this names the pointers to update."""
    pointers = set()
    for doc in DOCS:
        pointers |= set(re.findall(r"`(analyzer(?:\.\w+)+)", _text(doc)))
    assert "analyzer.rules.legal" in pointers
    stale = sorted(p for p in pointers if not _resolves(p))
    assert not stale, f"docs point at modules or names that do not exist: {stale}"


def test_every_section_of_the_rules_points_at_its_code():
    text = _text(RULES_MD)
    for n in range(1, 8):
        heading = next(line for line in text.splitlines() if line.startswith(f"## §{n} "))
        assert re.search(r"\*Where in the code:\* `analyzer\.", _section(text, heading)), heading
