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

ROOT = Path(__file__).resolve().parents[2] / "analyzer"
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


def test_the_tests_sit_in_a_folder_per_package():
    """``tests/PACKAGE/`` for each package (the command line's is ``tests/commands``: a folder named
    ``cli`` on the tests' path would shadow the top-level ``cli.py``), ``tests/project`` for the checks of
    the whole checkout; test modules are named uniquely (pytest imports them by their name), and the
    modules conftest.py collects first (``WITHOUT_DRIVER``, by name) all exist."""
    from conftest import WITHOUT_DRIVER

    tests = ROOT.parent / "tests"
    folders = {p.parent.name for p in tests.rglob("test_*.py")}
    assert folders == {*ORDER, "project"} - {"cli"} | {"commands"}, folders
    stems = [p.stem for p in tests.rglob("test_*.py")]
    assert len(stems) == len(set(stems)) and set(WITHOUT_DRIVER) <= set(stems)


def test_every_package_is_in_the_pipeline():
    packages = sorted(p.parent.name for p in ROOT.glob("*/__init__.py"))
    assert packages == sorted(ORDER), packages


def test_every_module_sits_in_a_pipeline_package():
    # errors.py (the one-line error), schema.py (checking what is read back), compiling.py (a kernel
    # compiled once per machine: the players' entry and solver, the runs' driver) and layout.py (the
    # offsets of a record declared as named fields: the game's auction, the runs' counts) serve every stage, and
    # processes.py (whether a process runs: the leftovers of killed runs, which runs and output both clean up)
    shared = ("__init__.py", "errors.py", "schema.py", "compiling.py", "layout.py", "processes.py")
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


# ---- records declared once keep the numbers the kernels were compiled with ------------------
# The searching players' workspaces were hand-numbered before they were declared as named fields
# (analyzer.layout.offsets); the numbers below are the hand-numbered ones, so a field added,
# dropped or moved in a declaration is seen here before it changes a compiled kernel.


def test_solver_records_keep_their_offsets():
    from analyzer.players import solver as S

    assert (S.C_NODES, S.C_GEN, S.C_OBJ, S.C_TT_MASK, S.C_PASSES, S.C_MTD_STEPS, S.C_SIZE) == (0, 1, 2, 3, 4, 5, 6)
    assert (S.E_KA, S.E_KB, S.E_LO, S.E_META, S.ENTRY) == (0, 1, 2, 3, 4)
    frame = (S.F_ALPHA, S.F_BETA, S.F_A0, S.F_B0, S.F_BEST, S.F_BEST_CARD, S.F_I, S.F_M, S.F_MAX, S.F_BOUNDARY,
             S.F_IDX, S.F_KA, S.F_KB, S.F_OFF, S.F_HIT)
    assert frame == tuple(range(15)) and S.FRAME == 16


def test_pimc_scratch_rows_keep_their_offsets():
    from analyzer.players import pimc as P

    rows = (P.SC_CARD, P.SC_TRICKS, P.SC_DECL, P.SC_STUK, P.SC_TOTALS, P.SC_BONUS, P.SC_AWARD, P.SC_OUT_CARD,
            P.SC_OUT_RAW, P.SC_OUT_SCORES, P.SC_HAND, P.SC_DECLARED, P.SC_DECLARED_KEY, P.SC_DECLARED_USED)
    assert rows == tuple(range(14)) and P.N_SC == 14


def test_strong_link_keeps_its_offsets():
    from analyzer.players import strong as G

    assert (G.L_FN, G.L_REC, G.L_SW) == (0, 1, 1 + G.N_REC)
    assert G.LINK_SIZE == 1 + G.N_REC + 2 * G.N_SW


def test_bidding_parameters_keep_their_offsets():
    from analyzer.players import bidding as B

    assert [B.BID_PARAM_OFFSETS[f"w_{r}"] for r in ("7", "8", "9", "10", "J", "Q", "K", "A")] == list(range(8))
    named = (B.P_W_SIDE_ACE, B.P_W_SIDE_TEN, B.P_W_LENGTH, B.P_W_VOID, B.P_W_STUK, B.P_THR1, B.P_THR2,
             B.P_SEAT_STEP, B.P_SMOUS_MARGIN, B.P_SMOUS_ANSWER, B.P_KOE_LENGTH, B.P_KOE_TURNED)
    assert named == tuple(range(8, 20))
    assert B.P_SHIFTS == 20 and len(B.SCORE_REGIONS) == 6  # the score shifts, one a region (issue 52)
    assert (B.N_SCALAR_PARAMS, B.P_N_OVERRIDES, B.P_OVERRIDES, B.N_BID_PARAMS) == (26, 26, 27, 91)


def test_runs_records_keep_their_offsets():
    # the bidding tables', the suit measurement's and the units' rows, configurations and scratch, numbered by
    # hand before they were declared (issue 54): the compiled kernels and the saved tables read these numbers
    from analyzer.runs import classes as T, suits as K, units as U

    assert (T.Q_N, T.Q_TAKE, T.Q_DNET_SQ, T.Q_PIT, T.Q_TH_N, T.Q_TH_DNET_SQ, T.NQ) == (0, 3, 14, 19, 20, 24, 25)
    assert (T.M_DEALS, T.M_HANDS, T.M_R1, T.M_R2, T.N_META) == (0, 1, 2, 3, 4)
    assert (T.TS_SCORE, T.TS_INFO, T.TS_DEC, T.TS_DEAL, T.TS_TRACE, T.TS_BID_OUT) == (68, 204, 357, 421, 453, 502)
    assert (T.TABLE_ROUNDS, T.TABLE_REUSE, T.TROW_STR, T.TROW_META) == (0, 1, T.CLS_SIZE, T.CLS_SIZE + T.STR_SIZE)
    assert (K.S_N, K.S_DNET, K.S_POL_MADE, K.NS) == (0, 1, 6, 7)
    assert (K.SM_DEC, K.SM_POL_NET, K.SM_POL_NET_SQ, K.SM_R2_SMOUS, K.SM_UNREACHED, K.N_SMETA) == (2, 7, 12, 17, 18, 19)
    assert (K.CAND_N, K.CAND_SWITCHED, K.NC, K.SUITS_N_CAND, K.SUITS_CAND) == (0, 3, 4, 0, 1)
    assert (K.CAND_OFFSET, K.SS_DEAL, K.SS_LEN, K.SUITS_SCRATCH) == (K.CELLS_SIZE + K.N_SMETA, 59, 103, 107)
    assert (U.SIM_PLAYED, U.SIM_MADE, U.SIM_DIX, U.SIM_HIST, U.SIM_DECL, U.SIM_DEDANS_SEAT, U.N_COUNTS) == (
        1, 16, 24, 40, 293, 306, 310)
    assert (U.ADV_SUM, U.ADV_SQ, U.SEATS_ROW) == (310, 314, 318)
    assert (U.T_ATTEMPTS, U.T_ACCEPTED, U.T_HANDS, U.T_HEAD) == (0, 1, 2, 3)
    assert (U.F_WE_TAKE, U.F_MADE, U.F_TIE, U.F_NOT_PLAYED, U.F_OTHERS, U.N_F) == (4, 5, 7, 10, 11, 14)
    assert (U.TAKE_SIDE, U.TAKE_K, U.TAKE_DECK, U.TAKE_FIXED, U.TAKE_CALLS) == (0, 1, 2, 34, 66)
    assert (U.G_WINNER, U.G_REDEAL, U.G_TOTALS, U.N_GCOLS, U.GAMES_MAX_DEALS, U.GAMES_DUPLICATE) == (0, 4, 5, 9, 0, 1)
    assert (U.GS_SEAT_BID, U.GS_PSIDE, U.GS_SEAT_PLAY, U.GAMES_SCRATCH) == (4, 8, 16, 24)
    assert (U.GL_ROT, U.GL_RESERVE, U.GL_TOTALS, U.N_LCOLS) == (0, 1, 2, 6)
    assert (U.DUEL_K, U.DUEL_WHO, U.D_BEST_SQ, U.D_TAKE, U.D_DEFEND, U.D_SIDE, U.D_NOT_PLAYED, U.DUEL_ROW) == (
        0, 1, 5, 6, 11, 16, 26, 27)
    assert (U.DS_SEAT_PLAY, U.DS_DEAL, U.DUEL_SCRATCH) == (4, 12, 44)
