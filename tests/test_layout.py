"""The package layout follows the pipeline, and imports point one way (issue 9).

rules -> game -> players -> runs -> questions -> output -> web -> cli: a module may import from
its own package and from the packages before it, never from a later one (web, ``belote serve``,
is an interface over the questions and their renderers, like the command line, ``analyzer.cli``,
which the top-level ``cli.py`` only re-exports). Kernel packages
(rules, game, players, runs) never import pandas, matplotlib, typer or rich.
"""

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent / "analyzer"
ORDER = ("rules", "game", "players", "runs", "questions", "output", "web", "cli")
KERNEL_PACKAGES = ("rules", "game", "players")
PRESENTATION = ("pandas", "matplotlib", "typer", "rich")


def _modules():
    for path in sorted(ROOT.rglob("*.py")):
        rel = path.relative_to(ROOT)
        if len(rel.parts) >= 2 and rel.parts[0] in ORDER:
            yield rel.parts[0], path


def _imports(path):
    tree = ast.parse(path.read_text())
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module:
            yield node.module, [a.name for a in node.names]
        elif isinstance(node, ast.Import):
            for a in node.names:
                yield a.name, []


def test_every_package_is_in_the_pipeline():
    packages = sorted(p.parent.name for p in ROOT.glob("*/__init__.py"))
    assert packages == sorted(ORDER), packages


def test_every_module_sits_in_a_pipeline_package():
    # errors.py (the one-line error), schema.py (checking what is read back), compiling.py (a kernel
    # compiled once per machine: the players' entry and solver, the runs' driver) and layout.py (the
    # offsets of a record declared as named fields: the game's auction, the runs' counts) serve every stage
    shared = ("__init__.py", "errors.py", "schema.py", "compiling.py", "layout.py")
    flat = [p.name for p in ROOT.glob("*.py") if p.name not in shared]
    assert flat == [], f"modules outside the pipeline packages: {flat}"


@pytest.mark.parametrize("package,path", list(_modules()), ids=lambda v: str(v).rsplit("analyzer/", 1)[-1])
def test_imports_point_one_way(package, path):
    rank = ORDER.index(package)
    for module, names in _imports(path):
        parts = module.split(".")
        if parts[0] != "analyzer":
            continue
        targets = [parts[1]] if len(parts) > 1 else names
        for target in targets:
            if target in ORDER:
                assert ORDER.index(target) <= rank, f"{path.name} ({package}) imports {module} {names or ''}: a later stage"


@pytest.mark.parametrize("package,path", [m for m in _modules() if m[0] in KERNEL_PACKAGES],
                         ids=lambda v: str(v).rsplit("analyzer/", 1)[-1])
def test_kernel_packages_import_no_presentation_libraries(package, path):
    for module, _ in _imports(path):
        assert module.split(".")[0] not in PRESENTATION, f"{path.name} imports {module}"
