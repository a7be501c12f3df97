"""Game equity (issue 52): the chance to win the game from the score, its table and its file, and
``take --score``: games drawn from hands against a slow reference, real games against drawn ones,
the table's shape and monotony, its file checked when read, the score carried into the next deal."""

import json

import numpy as np
import pytest

from analyzer.errors import BeloteError
from analyzer.game.dealing import rand_below, seed_stream
from analyzer.players.equity import equity_table, read_table
from analyzer.players.policies import Policies
from analyzer.questions.take_score import next_deal, parse_score, region
from analyzer.rules import Rules
from analyzer.rules.reference import game_winner as reference_winner
from analyzer.runs import equity as E
from analyzer.runs.simulate import SimConfig


def config(label, bid="heuristic", seed=1):
    rules = Rules.from_label(label)
    return SimConfig(rules=rules, policies=Policies.parse(bid, "heuristic", rules.players), seed=seed)


@pytest.fixture(scope="module")
def piekjas3_sample():
    return E.sample_games(config("piekjas3", "calibrated"), 1500)


@pytest.fixture(scope="module")
def small_tables():
    """Tables of classic and piekjas3 from few games (shape and files, not precision)."""
    return {label: E.build_table(config(label), games=300, k=200, check_games=100)[0]
            for label in ("classic", "piekjas3")}


def reference_game(s: E.GameSample, totals, rng, cap=1000):
    """A game drawn from the hands as RULES.md §7 and §6 say it, written plainly: each deal a hand
    drawn at random (hand u of the sample in its sorted order); seat s of deal d is the player of seat
    (s + d) mod n at the start (classic: the teams swap sides every deal); a hand's reserve goes to
    the side that wins the next hand played."""
    full = np.concatenate([s.kind[:, None], s.added[:, None], s.paid[:, None], s.scores], axis=1)
    hands = full[np.lexsort(full.T[::-1])]  # the hands in the rows' order, each as often as it came
    totals = list(totals)
    n = s.n_sides
    reserve = 0
    for d in range(cap):
        kind, added, paid, *scores = (int(x) for x in hands[rand_below(rng, s.hands)])
        if kind == E.HAND_PASSED:
            continue
        def player(hs):
            return (hs + d) % 2 if s.partners else (hs + d) % n
        for hs in range(n):
            totals[player(hs)] += scores[hs]
        if added:
            reserve += added
        elif reserve and paid >= 0:
            totals[player(paid)] += reserve if s.partners else (reserve + 5) // 10 * 10
            reserve = 0
        w = reference_winner(totals, s.target)
        if w is not None:
            return w
    return -1


@pytest.mark.parametrize("label", ["classic", "piekjas3", "dekjas"])
def test_a_game_drawn_from_hands_is_the_reference_game(label):
    s = E.sample_games(config(label), 200)
    assert s.hands > 600 and (s.scores >= 0).all()
    rng, ref_rng = np.zeros(1, np.uint64), np.zeros(1, np.uint64)
    for j in range(300):
        start = np.array([(37 * j) % 700 if side == 0 else (53 * j * (side + 1)) % 600 for side in range(s.n_sides)],
                         np.int64)
        seed_stream(rng, 5, j)
        seed_stream(ref_rng, 5, j)
        w = E.play_out(*s.outcomes(), s.n_sides, s.partners, s.target, start.copy(), 0, rng, 1000)
        assert w == reference_game(s, start, ref_rng)


def test_real_games_and_games_drawn_from_their_hands_agree(piekjas3_sample):
    """The hands of a game do not depend on the score (the players do not read it), so games drawn
    from single hands must win as often as real ones: from 0-0, each seat within the noise. This
    found a player bidding with its first seat's calibrated row all game (tests/runs/test_games.py)."""
    s = piekjas3_sample
    _, firsts = np.unique(s.state_game, return_index=True)
    real = np.array([(s.state_winner[firsts] == u).mean() for u in range(3)])
    rng = np.zeros(1, np.uint64)
    drawn = np.zeros(3)
    m = 12_000
    rows, cum = s.outcomes()
    for j in range(m):
        seed_stream(rng, 9, j)
        drawn[E.play_out(rows, cum, 3, False, s.target, np.zeros(3, np.int64), 0, rng, 1000)] += 1
    drawn /= m
    se = np.sqrt(drawn * (1 - drawn) * (1 / m + 1 / firsts.shape[0]))
    assert (np.abs(real - drawn) < 4 * se).all(), (real, drawn)


def test_the_table_is_monotone_and_right_at_the_end_of_a_game(small_tables):
    for t in small_tables.values():
        assert (np.diff(t.p, axis=1) >= -1e-12).all()  # more points for us never lowers our chance
        assert (np.diff(t.p, axis=2) <= 1e-12).all()  # more for the best other never raises it
        n = t.sides
        won = np.zeros(n, np.int64)
        won[0] = t.target + 20
        assert t.win_chance(0, won) == 1.0 and t.win_chance(1, won) == 0.0
        tied = np.zeros(n, np.int64)
        tied[:2] = t.target + 10  # an exact tie at the top plays on
        assert 0 < t.win_chance(0, tied) < 1
    c = small_tables["classic"]
    assert (c.n > 0).all()  # two sides: every cell is a state, played from
    # seat 1 with (a, b) is the other side of seat 0 with (b, a)
    assert np.array_equal(c.n[1], c.n[0].T) and np.array_equal(c.wins[1], c.n[0].T - c.wins[0].T - c.capped[0].T)


def test_isotonic_fit_keeps_what_is_already_monotone():
    p = np.clip(np.add.outer(np.linspace(0, 1, 20), -np.linspace(0, 1, 20)) + 0.5, 0, 1)[None]
    assert np.allclose(E.monotone(p, np.ones_like(p)), p)
    noisy = p + np.random.default_rng(1).normal(0, 0.05, p.shape)
    q = E.monotone(noisy, np.ones_like(p))
    assert (np.diff(q, axis=1) >= -1e-12).all() and (np.diff(q, axis=2) <= 1e-12).all()
    assert np.abs(q - p).mean() < np.abs(noisy - p).mean()  # the fit is nearer the truth than the noise


def test_a_table_file_is_read_back_as_written_and_a_damaged_one_refused(small_tables, tmp_path):
    from analyzer.output.equity import write_table

    t = small_tables["piekjas3"]
    path = tmp_path / "p3.npz"
    write_table(t, path)
    back = read_table(path)
    assert np.array_equal(back.p, t.p) and np.array_equal(back.wins, t.wins) and back.hand_sd == t.hand_sd
    assert back.provenance["real_games"] == 300 and "reduced_state" in back.provenance
    assert equity_table(Rules.from_label("piekjas3"), path).label == "piekjas3"
    with pytest.raises(BeloteError, match="built for variant piekjas3"):
        equity_table(Rules.from_label("piekjas2"), path)
    with pytest.raises(BeloteError, match="built for rules target"):
        equity_table(Rules.from_label("piekjas3", ["target=500"]), path)
    data = bytearray(path.read_bytes())
    data[len(data) // 2] ^= 0xFF
    path.write_bytes(bytes(data))
    with pytest.raises(BeloteError, match=r"p3.npz: its sha256 is not the one its header records"):
        read_table(path)
    write_table(t, tmp_path / "q.npz")
    h = json.loads((tmp_path / "q.json").read_text())
    h["shape"] = [3, 70, 69]
    (tmp_path / "q.json").write_text(json.dumps(h))
    with pytest.raises(BeloteError, match="shape"):
        read_table(tmp_path / "q.npz")
    with pytest.raises(BeloteError, match="no such file"):
        read_table(tmp_path / "none.npz")


@pytest.mark.parametrize("label", ["classic", "piekjas2", "piekjas3", "piekjas4", "dekjas"])
def test_the_shipped_tables_are_read_and_fit_their_variant(label):
    rules = Rules.from_label(label)
    t = equity_table(rules)
    assert t.target == rules.target and t.sides == (2 if rules.partners else rules.players)
    zero = np.zeros(t.sides, np.int64)
    assert abs(sum(float(t.win_chance(u, zero)) for u in range(t.sides)) - 1) < 0.03  # someone wins
    hw = t.half_width()
    open_ = (t.p >= 0.1) & (t.p <= 0.9) & (t.n > 0)
    assert np.nanmax(hw[open_]) <= 0.01  # the goal: +-1 point of percentage where the game is open


def test_the_score_carries_into_the_next_deal():
    # piekjas 3, seat order voorhand first: 100 200 300; I am seat 1 and score 50, seat 0 scores 30
    totals = np.array([100, 200, 300])
    scores = np.array([50, 0, 30])  # mine, then the sides after mine: seat 2, seat 0
    nxt, me = next_deal(totals, 1, scores)
    # after: seat0 130, seat1 250, seat2 300; the dealer moves on: seat s next is seat s + 1 now
    assert list(nxt) == [250, 300, 130] and me == 0
    # classic: ours 820 (voorhand's team) - theirs 640, we score 100 and they 62; the teams swap sides
    nxt, me = next_deal(np.array([820, 640]), 0, np.array([100, 62]))
    assert list(nxt) == [702, 920] and me == 1


def test_a_score_is_read_as_players_say_it():
    classic = Rules()
    assert list(parse_score("820-640", classic, 0)) == [820, 640]  # ours first, we are voorhand's team
    assert list(parse_score("820-640", classic, 1)) == [640, 820]  # we are the dealer's team
    assert list(parse_score("120-300-80", Rules.from_label("piekjas3"), 2)) == [120, 300, 80]
    for bad, why in (("820", "give 2 totals"), ("1010-640", "that game is over"), ("a-b", "give 2 totals")):
        with pytest.raises(BeloteError, match=why):
            parse_score(bad, classic, 0)
    assert region(classic, 500, 480) == "level" and region(classic, 900, 500) == "ahead near the target"


def test_the_take_point_is_where_the_fitted_gain_reaches_zero():
    from analyzer.questions.take_point import take_point

    rng = np.random.default_rng(2)
    x = rng.uniform(0, 100, 20_000)
    gain = (x - 40) / 10 + rng.normal(0, 2, x.shape[0])
    assert abs(take_point(x, gain) - 40) < 3
    assert take_point(x, gain + 100) is None  # taking gains at every strength: no point to name


def test_take_points_by_region_of_the_score(small_tables):
    from analyzer.questions.take_point import take_points, take_points_text

    tp = take_points(config("classic"), small_tables["classic"], games=300, per_region=600, boot=20)
    assert [r.region for r in tp.regions][:3] == ["level", "ahead", "behind"]
    level = tp.regions[0]
    assert level.states >= 600 and level.point is not None and level.lo <= level.point <= level.hi
    assert "How the score moves the take point, classic" in take_points_text(tp)


def run(args, capsys):
    import cli

    code = cli.main(args)
    out, err = capsys.readouterr()
    return code, out, err


def test_the_commands_answer_with_the_score_and_refuse_in_one_line(capsys):
    code, out, _ = run(["equity"], capsys)
    assert code == 0 and "From 0-0, voorhand's team wins" in out and "Checked against" in out
    code, out, _ = run(["equity", "--variant", "dekjas", "--lang", "nl"], capsys)
    assert code == 0 and "Vanuit 0-0 wint" in out
    for args, why in ((["equity", "--ship"], "add --build"),
                      (["take", "Jh 9h Ah Tc 7s", "--turned", "Qh", "--objective", "win"], "needs the score"),
                      (["take", "Jh 9h Ah Tc 7s", "--turned", "Qh", "--score", "1010-640"], "that game is over"),
                      (["take", "Jh 9h Ah Tc 7s", "--turned", "Qh", "--score", "800"], "give 2 totals")):
        code, _, err = run(args + ["--quiet"], capsys)
        assert code == 2 and why in err and len(err.strip().splitlines()) == 1, err
    code, out, _ = run(["take", "Jh 9h Ac Tc 7s", "--turned", "Qh", "--score", "850-400", "--deals", "3000",
                        "--play", "heuristic", "--quiet", "--json"], capsys)
    d = json.loads(out)
    assert code == 0 and d["inputs"]["objective"] == "win" and d["game"]["score"] == [850, 400]
    assert {c["label"] for c in d["game"]["calls"]} == {"take h", "pass"} and d["game"]["by_score"]
    code, out, _ = run(["duel", "--games", "60", "--variant", "piekjas", "--players", "2", "--a",
                        "heuristic/heuristic", "--b", "heuristic/random", "--quiet"], capsys)
    assert code == 0 and "Whole-game duplicate duel, piekjas2 to 500" in out and "Verdict:" in out


def test_calls_that_lead_to_the_same_hands_have_the_same_chance_and_are_said_to(capsys):
    """Dekjas voorhand with this pair: passing leads to the same contract as taking, so the two calls win
    the game equally often on every deal; the verdict says so instead of 'inside the noise'."""
    code, out, _ = run(["take", "--variant", "dekjas", "--mine", "Jh 9h Ah Ac Tc 7d 8s Ks", "--theirs",
                        "7c 8c 9c Qd Kd Ad Ts Qh", "--turned", "Qh", "--score", "380-420", "--deals", "2000",
                        "--play", "heuristic", "--quiet"], capsys)
    assert code == 0 and "TAKE HEARTS or pass: the same hands follow on every deal" in " ".join(out.split())
