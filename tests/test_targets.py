"""Training targets: self-play positions, their rollouts, chunk files (backgammon.training.targets)."""

from __future__ import annotations

import json

import numpy as np
import pytest

import backgammon as bg
from backgammon import _bgcore
from backgammon.training import targets
from backgammon.training.targets import TrainingDataError


def _board(points: dict[int, int]) -> np.ndarray:
    a = np.zeros(26, np.int8)
    for i, n in points.items():
        a[i] = n
    return a


def test_sampled_positions_are_valid_live_and_reproducible():
    a = targets.sample_positions(60, seed=7)
    b = targets.sample_positions(60, seed=7)
    assert a.shape == (60, 26) and a.dtype == np.int8
    assert (a == b).all()
    assert not (a == targets.sample_positions(60, seed=8)).all()
    for row in a:
        pos = bg.Position.from_array(row)       # validates the board
        assert pos.outcome() is None
        assert not _bgcore.bearoff_applies(row.tobytes())   # the database answers those


def test_sampling_without_exploration_follows_the_nets():
    # With no exploration and no scripted openings every kept position is on
    # the nets' own line: the second position of a game follows the nets'
    # choice for the opening roll, so all are reachable, and keep=1 keeps them all.
    a = targets.sample_positions(30, seed=3, explore=0.0, varied=0.0, keep=1.0)
    assert len({r.tobytes() for r in a}) > 20


def test_a_certain_backgammon_has_exact_targets():
    # On roll: one checker on the 1-point, 14 off. The opponent has all 15
    # still on our 6-point (in our home board, none off). Every roll bears the
    # last checker off: a win, a gammon and a backgammon in every game.
    board = _board({1: 1, 6: -15})
    t, se = targets.rollout_targets(board[None], seed=1, games=36, truncate=None)
    assert t.tolist() == [[1.0, 1.0, 1.0, 0.0, 0.0]]
    assert se.tolist() == [0.0]


def test_a_certain_loss_is_exact_for_the_side_on_roll():
    # On roll: 15 checkers on our 19-point (the opponent's 6-point, in its home
    # board), none off. The opponent's last checker is on our 24-point, its
    # 1-point: we move away from it (down from 19) and cannot hit it, and it
    # bears off with any roll. We lose a backgammon in every game.
    board = _board({19: 15, 24: -1})
    t, se = targets.rollout_targets(board[None], seed=2, games=72, truncate=None)
    assert t.tolist() == [[0.0, 0.0, 0.0, 1.0, 1.0]]
    assert se.tolist() == [0.0]


def test_targets_do_not_depend_on_workers():
    boards = targets.sample_positions(6, seed=11)
    t1, s1 = targets.rollout_targets(boards, seed=5, games=36, truncate=3, workers=1)
    t2, s2 = targets.rollout_targets(boards, seed=5, games=36, truncate=3, workers=2)
    assert (t1 == t2).all() and (s1 == s2).all()
    assert (t1[:, 0] >= t1[:, 1]).all() and (t1[:, 1] >= t1[:, 2]).all()
    assert (s1 > 0).all()                   # live contact positions: the games differ


def test_luck_adjusted_targets_are_exact_where_no_roll_matters():
    # The certain backgammon above: every roll's result is the same, so no roll has
    # luck to subtract and the luck-adjusted targets are the plain exact ones.
    board = _board({1: 1, 6: -15})
    t, se = targets.rollout_targets(board[None], seed=1, games=36, truncate=None,
                                    variance_reduction=True)
    assert t.tolist() == [[1.0, 1.0, 1.0, 0.0, 0.0]] and se.tolist() == [0.0]


def test_luck_adjusted_targets_agree_with_plain_ones_at_a_fraction_of_the_error():
    """Subtracting each roll's luck leaves a rollout's mean unbiased (the luck
    of a roll averages zero over the 36), so 36 luck-adjusted games agree with
    2,592 plain ones within their errors; in a race they are the finer."""
    races = [bg.Position.from_position_id(p).to_array()
             for p in ("uwAIAHdDAAAAAA", "tHubAADt7IAHAA", "d0AAALcFAAAAAA")]
    vr, vr_se = targets.rollout_targets(races, seed=3, games=36, truncate=None,
                                        variance_reduction=True)
    plain, plain_se = targets.rollout_targets(races, seed=4, games=2592, truncate=None)

    def equity(t: np.ndarray) -> np.ndarray:
        t = t.astype(np.float64)
        return 2 * t[:, 0] - 1 + t[:, 1] - t[:, 3] + t[:, 2] - t[:, 4]

    error = np.hypot(vr_se, plain_se)
    assert (np.abs(equity(vr) - equity(plain)) < 4 * error).all()
    assert (vr_se < plain_se / 2).all()      # 36 games against 2,592
    assert (vr >= 0).all() and (vr <= 1).all()
    assert (vr[:, 0] >= vr[:, 1]).all() and (vr[:, 1] >= vr[:, 2]).all()
    assert (vr[:, 3] <= 1 - vr[:, 0]).all() and (vr[:, 4] <= vr[:, 3]).all()


def test_luck_adjusted_chances_are_made_consistent():
    got = targets._chances(np.array([1.002, 1.001, 0.3, 0.001, 0.002]))
    assert got.tolist() == [1.0, 1.0, np.float32(0.3), 0.0, 0.0]
    got = targets._chances(np.array([0.2, 0.25, -0.01, 0.85, 0.9]))
    assert got.tolist() == [np.float32(0.2), np.float32(0.2), 0.0, np.float32(0.8),
                            np.float32(0.8)]


def test_relabel_by_rollouts_keeps_the_positions_and_records_how(tmp_path, capsys):
    from backgammon.cli import main

    src = tmp_path / "old"
    targets.make_targets(src, range(2), seed=4, chunk_positions=3, ply=0, classes={"race"})
    fast = bg.Evaluator.fast()
    written = targets.relabel_targets(src, tmp_path / "vr", ply=None, games=36,
                                      variance_reduction=True, seed=9, evaluator=fast)
    old = targets.read_targets(src)
    for path in written:
        got = targets.read_targets(path)
        boards = targets.read_targets(src / path.name).boards
        want, se = targets.rollout_targets(boards, seed=targets._chunk_seed(9, path.name),
                                           games=36, truncate=None, evaluator=fast,
                                           variance_reduction=True)
        assert np.array_equal(got.boards, boards)
        assert np.array_equal(got.targets, want) and np.array_equal(got.stderr, se)
        meta = json.loads(str(np.load(path)["meta"]))
        assert meta["method"] == "rollout" and meta["games"] == 36
        assert meta["variance_reduction"] is True and meta["relabel_seed"] == 9
        assert meta["truncate"] is None and meta["classes"] == ["race"]
    assert len(targets.read_targets(tmp_path / "vr")) == len(old)
    # each chunk has its own seed, named by its number (else by its name)
    assert targets._chunk_seed(9, "chunk-000001.npz") != targets._chunk_seed(9, "chunk-000000.npz")
    assert targets._chunk_seed(9, "mine.npz") == targets._chunk_seed(9, "mine.npz")
    # the command line rolls out where no --ply is given
    assert main(["targets", "--relabel", str(src), "--out", str(tmp_path / "cli"),
                 "--games", "36", "--truncate", "2", "--nets", "fast", "--prune", "0"]) == 0
    meta = json.loads(str(np.load(tmp_path / "cli" / "chunk-000000.npz")["meta"]))
    assert meta["method"] == "rollout" and meta["truncate"] == 2
    assert "variance_reduction" not in meta
    capsys.readouterr()
    assert main(["targets", "--relabel", str(src), "--out", str(tmp_path / "x"),
                 "--ply", "1", "--variance-reduction"]) == 2
    assert "--variance-reduction" in capsys.readouterr().err
    for bad in (dict(ply=1, games=36), dict(ply=None), dict(ply=1, variance_reduction=True),
                dict(ply=0, truncate=3)):
        with pytest.raises(TrainingDataError, match="games|ply"):
            targets.relabel_targets(src, tmp_path / "bad", **bad)
    assert not (tmp_path / "bad").exists()


def test_make_targets_records_luck_adjusted_rollouts(tmp_path):
    made = targets.make_targets(tmp_path, range(1), seed=2, chunk_positions=2, games=36,
                                truncate=None, classes={"race"}, variance_reduction=True,
                                evaluator=bg.Evaluator.fast())
    meta = json.loads(str(np.load(made[0])["meta"]))
    assert meta["variance_reduction"] is True and meta["method"] == "rollout"
    plain = targets.make_targets(tmp_path / "plain", range(1), seed=2, chunk_positions=2,
                                 games=36, truncate=None, classes={"race"},
                                 evaluator=bg.Evaluator.fast())
    assert "variance_reduction" not in json.loads(str(np.load(plain[0])["meta"]))
    a, b = targets.read_targets(made[0]), targets.read_targets(plain[0])
    assert np.array_equal(a.boards, b.boards)       # the same positions, other labels


def test_targets_refuse_bad_settings():
    boards = targets.sample_positions(1, seed=1)
    with pytest.raises(TrainingDataError, match="multiple of 36"):
        targets.rollout_targets(boards, seed=1, games=100)
    # the count is bounded (the rollout engine's MAX_GAMES, 2**53 rounded down to a
    # multiple of 36 is the largest) and an integer: refused before any game is played
    with pytest.raises(TrainingDataError, match="9,007,199,254,740,992"):
        targets.rollout_targets(boards, seed=1, games=36 * 2**60)
    for bad in (36.0, "36", True, None):
        with pytest.raises(TrainingDataError, match="games"):
            targets.rollout_targets(boards, seed=1, games=bad)
    with pytest.raises(TrainingDataError):
        targets.sample_positions(1, seed=1, explore=2.0)


def test_make_targets_resumes_with_the_same_chunks(tmp_path):
    kw = dict(seed=99, chunk_positions=4, games=36, truncate=2)
    first = targets.make_targets(tmp_path / "a", range(0, 2), **kw)
    assert [p.name for p in first] == ["chunk-000000.npz", "chunk-000001.npz"]
    before = [p.read_bytes() for p in first]
    more = targets.make_targets(tmp_path / "a", range(0, 3), **kw)   # a resumed run
    assert [p.name for p in more] == ["chunk-000002.npz"]
    assert [p.read_bytes() for p in first] == before
    fresh = targets.make_targets(tmp_path / "b", range(0, 3), **kw)  # one run of all three
    a, b = targets.read_targets(tmp_path / "a"), targets.read_targets(fresh)
    assert (a.boards == b.boards).all() and (a.targets == b.targets).all()
    assert (a.stderr == b.stderr).all() and a.boards.shape == (12, 26)
    with np.load(first[0]) as z:
        meta = json.loads(str(z["meta"]))
    assert meta["chunk"] == 0 and meta["games"] == 36 and meta["truncate"] == 2


def test_targets_cli_makes_and_resumes(tmp_path, capsys):
    from backgammon.cli import main

    args = ["targets", "--out", str(tmp_path), "--seed", "5", "--chunks", "0", "1",
            "--positions", "3", "--games", "36", "--truncate", "2"]
    assert main(args) == 0
    assert "chunk-000000.npz: 3 positions" in capsys.readouterr().out
    assert main(args) == 0                  # nothing left to make
    assert capsys.readouterr().out == ""
    assert targets.read_targets(tmp_path).boards.shape == (3, 26)


def test_ply_targets_are_the_nets_deeper_evaluation(tmp_path):
    boards = targets.sample_positions(5, seed=21)
    t = targets.ply_targets(boards, 1)
    for row, got in zip(boards, t):
        want = bg.evaluate(bg.Position.from_array(row), ply=1)
        assert abs(float(got[0]) - want.win) < 1e-5
    written = targets.make_targets(tmp_path, range(1), seed=3, chunk_positions=4, ply=1)
    data = targets.read_targets(written)
    assert (data.stderr == 0).all() and data.boards.shape == (4, 26)
    with np.load(written[0]) as z:
        meta = json.loads(str(z["meta"]))
    assert meta["method"] == "1-ply" and meta["games"] is None
    with pytest.raises(TrainingDataError, match="ply 0, 1 or 2"):
        targets.ply_targets(boards, 3)
    with pytest.raises(TrainingDataError, match="needs ply 2, got ply 1"):
        targets.ply_targets(boards, 1, filtered=True)   # not silently a plain 1-ply


def test_zero_ply_targets_are_the_teachers_own_evaluation(tmp_path, capsys):
    """Ply 0 labels positions with the teaching nets' evaluation itself (how the
    fast nets learnt from the strong ones): for every board, what the teacher
    answers, finished boards their exact value; by the CLI with a bundled
    nets' name."""
    from backgammon.cli import main

    boards = targets.sample_positions(6, seed=22)
    teacher = bg.Evaluator.random((8, 4), seed=5)
    t = targets.ply_targets(boards, 0, evaluator=teacher)
    for row, got in zip(boards, t):
        want = teacher.evaluate(bg.Position.from_array(row))
        assert np.allclose(got, want.probabilities, atol=1e-6)
    won = np.zeros(26, np.int8)
    won[5] = -1       # the mover has borne off all 15, the opponent 14: a single win
    assert np.allclose(targets.ply_targets([won], 0, evaluator=teacher)[0], [1, 0, 0, 0, 0])
    src = tmp_path / "old"
    targets.make_targets(src, range(1), seed=4, chunk_positions=4, games=36, truncate=2)
    assert main(["targets", "--relabel", str(src), "--out", str(tmp_path / "strong"),
                 "--ply", "0", "--nets", "strong", "--prune", "0"]) == 0
    new = targets.read_targets(tmp_path / "strong")
    assert np.allclose(new.targets, bg.Evaluator.strong()._nets.evaluate(new.boards))
    meta = json.loads(str(np.load(tmp_path / "strong" / "chunk-000000.npz")["meta"]))
    assert meta["method"] == "0-ply" and "strong" in meta["evaluator"]


def test_filtered_two_ply_targets_are_gnubgs_two_ply(tmp_path, capsys):
    from backgammon.cli import main

    boards = targets.sample_positions(3, seed=22)
    t = targets.ply_targets(boards, 2, filtered=True)
    for row, got in zip(boards, t):
        want = bg.evaluate(bg.Position.from_array(row), ply=2, filtered=True)
        assert abs(float(got[0]) - want.win) < 1e-5
    written = targets.make_targets(tmp_path / "a", range(1), seed=3, chunk_positions=2, ply=2,
                                   filtered=True)
    with np.load(written[0]) as z:
        assert json.loads(str(z["meta"]))["method"] == "2-ply filtered"
    assert main(["targets", "--out", str(tmp_path / "b"), "--chunks", "0", "1",
                 "--ply", "1", "--filtered"]) == 2
    assert "--filtered needs --ply 2" in capsys.readouterr().err
    assert not (tmp_path / "b").exists()


def test_siblings_add_the_near_alternatives_of_each_kept_position():
    base = targets.sample_positions(12, seed=23)
    more = targets.sample_positions(60, seed=23, siblings=3)
    # the games are the same: the positions without siblings come in the same order
    i = last = 0
    for j, row in enumerate(more):
        if i < len(base) and (row == base[i]).all():
            i, last = i + 1, j
    assert i == len(base)
    # every other position follows a legal play from one of them, seen by the opponent
    kept = {row.tobytes() for row in base}
    after = {r.tobytes() for row in base for a in range(1, 7) for b in range(a, 7)
             for r in bg.Position.from_array(row).legal_plays((a, b))._results}
    extra = [row for row in more[:last] if row.tobytes() not in kept]   # up to the 12th
    assert len(extra) > len(base)
    for e in extra:
        assert bg.Position.from_array(e).swapped()._b in after
    with pytest.raises(TrainingDataError, match="siblings"):
        targets.sample_positions(3, seed=1, siblings=-1)


def test_relabel_keeps_the_positions_and_changes_the_targets(tmp_path, capsys):
    from backgammon.cli import main

    src = tmp_path / "old"
    targets.make_targets(src, range(2), seed=4, chunk_positions=5, games=36, truncate=2)
    other = bg.Evaluator.random((8, 4), seed=3)
    written = targets.relabel_targets(src, tmp_path / "new", ply=1, evaluator=other)
    assert [p.name for p in written] == ["chunk-000000.npz", "chunk-000001.npz"]
    old, new = targets.read_targets(src), targets.read_targets(tmp_path / "new")
    assert (old.boards == new.boards).all()
    assert np.allclose(new.targets, targets.ply_targets(old.boards, 1, evaluator=other))
    assert not np.allclose(old.targets, new.targets)
    assert targets.relabel_targets(src, tmp_path / "new", ply=1, evaluator=other) == []
    assert main(["targets", "--relabel", str(src), "--out", str(tmp_path / "cli"),
                 "--ply", "1"]) == 0
    assert len(targets.read_targets(tmp_path / "cli")) == 10
    # the screen of the relabelling nets is recorded in each chunk, as make_targets does
    assert main(["targets", "--relabel", str(src), "--out", str(tmp_path / "screened"),
                 "--ply", "1", "--prune", "3"]) == 0
    meta = json.loads(str(np.load(tmp_path / "screened" / "chunk-000001.npz")["meta"]))
    assert meta["prune"] == 3 and meta["relabelled_from"].endswith("chunk-000001.npz")
    assert meta["margin"] == bg.nn.DEFAULT_MARGIN
    meta = json.loads(str(np.load(tmp_path / "cli" / "chunk-000000.npz")["meta"]))
    assert meta["prune"] == bg.nn.DEFAULT_KEEP           # the bundled nets come screened
    assert meta["margin"] == bg.nn.DEFAULT_MARGIN
    assert main(["targets", "--relabel", str(tmp_path / "cli"), "--out", str(tmp_path / "bare"),
                 "--ply", "1", "--prune", "0"]) == 0
    meta = json.loads(str(np.load(tmp_path / "bare" / "chunk-000000.npz")["meta"]))
    assert "prune" not in meta and "margin" not in meta
    # a screen without a margin records none, as chunks made before margins
    assert main(["targets", "--relabel", str(src), "--out", str(tmp_path / "wide"),
                 "--ply", "1", "--prune", "3m0"]) == 0
    meta = json.loads(str(np.load(tmp_path / "wide" / "chunk-000001.npz")["meta"]))
    assert meta["prune"] == 3 and "margin" not in meta


def test_a_class_filter_only_drops_positions():
    """The filter never changes the games: the crashed positions sampled with
    ``classes={"crashed"}`` are exactly, in order, the crashed ones of the
    unfiltered sample of the same seed, and every one is crashed."""
    def position_class(b: bytes) -> str:
        return ("race" if _bgcore.nn_is_race(b) else
                "crashed" if _bgcore.nn_is_crashed(b) else "contact")

    every = targets.sample_positions(600, seed=3, keep=0.5)
    crashed = [r.tobytes() for r in every if position_class(r.tobytes()) == "crashed"]
    assert 5 <= len(crashed) < 600
    only = targets.sample_positions(len(crashed), seed=3, keep=0.5, classes={"crashed"})
    assert [r.tobytes() for r in only] == crashed
    two = targets.sample_positions(50, seed=3, keep=0.5, classes=("race", "crashed"))
    assert {position_class(r.tobytes()) for r in two} <= {"race", "crashed"}
    for bad in (set(), {"bearoff"}, ["contact", "nope"]):
        with pytest.raises(TrainingDataError, match="classes"):
            targets.sample_positions(1, seed=1, classes=bad)


def test_targets_cli_keeps_the_class_and_records_it(tmp_path, capsys):
    out = tmp_path / "crashed"
    assert bg.cli.main(["targets", "--out", str(out), "--seed", "4", "--chunks", "0", "1",
                        "--positions", "6", "--games", "36", "--truncate", "0",
                        "--classes", "crashed", "--keep", "0.5", "--workers", "2"]) == 0
    ts = targets.read_targets(out)
    assert len(ts) == 6
    assert {targets.net_class(b.tobytes()) for b in ts.boards} == {"crashed"}
    meta = json.loads(str(np.load(out / "chunk-000000.npz")["meta"]))
    assert meta["classes"] == ["crashed"] and meta["keep"] == 0.5 and meta["truncate"] is None


def _valid(points: dict[int, int]) -> bytes:
    """_board's board, checked legal (missing checkers are borne off)."""
    return bg.Position.from_array(_board(points))._b


def test_a_back_game_holds_two_points_in_the_other_board_and_trails_by_50():
    # the board: the player on roll's view, the opponent's checkers negative and its home
    # board our points 19-24
    # 2 on 24, 2 on 23 (both in the opponent's home board), 11 on 6: 48 + 46 + 66 = 160
    # pips; the opponent's 15 on our 19 point, 6 pips each from home: 90. 70 behind.
    behind = _valid({24: 2, 23: 2, 6: 11, 19: -15})
    assert targets.is_backgame(behind)
    assert targets.is_backgame(bg.Position._from_bytes(behind).swapped()._b)  # either side
    # one point held (24; a blot on 22): 48 + 22 + 72 = 142 against 90, 52 behind
    assert not targets.is_backgame(_valid({24: 2, 22: 1, 6: 12, 19: -15}))
    # two points held but ahead: 48 + 46 + 11 = 105 against 15 x 12 = 180
    assert not targets.is_backgame(_valid({24: 2, 23: 2, 1: 11, 13: -15}))
    # 105 against 5 x 11 = 55: exactly 50 behind counts; 105 against 4 x 11 + 12 = 56 does not
    assert targets.is_backgame(_valid({24: 2, 23: 2, 1: 11, 14: -5}))
    assert not targets.is_backgame(_valid({24: 2, 23: 2, 1: 11, 14: -4, 13: -1}))
    assert not targets.is_backgame(bg.Position.initial()._b)


def test_a_blitz_has_two_checkers_on_the_bar_or_one_against_a_four_point_board():
    # our bar is index 25, the opponent's index 0 (negative); our home board 1-6, the
    # opponent's our 19-24
    two_up = _valid({0: -2, 6: 5, 8: 3, 13: 5, 24: 2, 19: -5, 17: -3, 12: -5})
    assert targets.is_blitz(two_up)
    assert targets.is_blitz(bg.Position._from_bytes(two_up).swapped()._b)   # either side
    # one of theirs on the bar against our 6, 5, 4 and 2 points: four closed
    four = _valid({0: -1, 6: 3, 5: 2, 4: 2, 2: 2, 13: 4, 24: 2, 19: -6, 17: -3, 12: -5})
    assert targets.is_blitz(four)
    # ... against three closed points and a blot: not a blitz
    three = _valid({0: -1, 6: 3, 5: 2, 4: 2, 2: 1, 13: 5, 24: 2, 19: -6, 17: -3, 12: -5})
    assert not targets.is_blitz(three)
    # our own checker on the bar against their four-point board (19, 20, 21, 23)
    ours = _valid({25: 1, 13: 12, 6: 2, 19: -3, 20: -2, 21: -2, 23: -2, 12: -6})
    assert targets.is_blitz(ours)
    assert not targets.is_blitz(bg.Position.initial()._b)


def test_trailing_is_the_player_on_roll_20_pips_behind_in_contact():
    # ours: 2 x 24 + 13 x 6 = 126; theirs (their numbering): 13 x 6 + 2 x 24 = 126
    even = _valid({24: 2, 6: 13, 19: -13, 1: -2})
    assert not targets.is_trailing(even)
    # one of ours moved from the 6 to the 24 point: 144 against 126, 18 behind
    assert not targets.is_trailing(_valid({24: 3, 6: 12, 19: -13, 1: -2}))
    # one on the bar, 3 on the 24, 11 on the 6: 25 + 72 + 66 = 163 against 126
    behind = _valid({25: 1, 24: 3, 6: 11, 19: -13, 1: -2})
    assert targets.is_trailing(behind)
    assert not targets.is_trailing(bg.Position._from_bytes(behind).swapped()._b)   # the leader
    # exactly 20 behind counts, 19 does not: 72 + 8 + 66 = 146, 72 + 7 + 66 = 145
    assert targets.is_trailing(_valid({24: 3, 8: 1, 6: 11, 19: -13, 1: -2}))
    assert not targets.is_trailing(_valid({24: 3, 7: 1, 6: 11, 19: -13, 1: -2}))
    # no contact: a race is not trailing, however far behind
    assert not targets.is_trailing(_valid({18: 15, 19: -15}))


@pytest.mark.parametrize("cls, test", [("backgame", targets.is_backgame),
                                       ("trailing", targets.is_trailing)])
def test_a_special_class_only_drops_positions(cls, test):
    every = targets.sample_positions(3000, seed=5, explore=0.3, varied=0.6, keep=0.5)
    kept = [r.tobytes() for r in every if test(r.tobytes())]
    assert 10 <= len(kept) < 3000
    only = targets.sample_positions(len(kept), seed=5, explore=0.3, varied=0.6, keep=0.5,
                                    classes={cls})
    assert [r.tobytes() for r in only] == kept


def test_the_backgame_class_reaches_the_cli(tmp_path):
    from backgammon.cli import main

    out = tmp_path / "bg"
    assert main(["targets", "--out", str(out), "--seed", "4", "--chunks", "0", "1",
                        "--positions", "4", "--ply", "1", "--classes", "backgame",
                        "--prune", "3"]) == 0
    ts = targets.read_targets(out)
    assert len(ts) == 4 and all(targets.is_backgame(b.tobytes()) for b in ts.boards)
    meta = json.loads(str(np.load(out / "chunk-000000.npz")["meta"]))
    assert meta["classes"] == ["backgame"] and meta["prune"] == 3


# Labelling on an executor (any concurrent.futures executor, a Dask cluster's too)

def test_make_targets_on_an_executor_writes_the_same_chunks(tmp_path):
    """A chunk depends only on its seed: made as tasks of a process pool (the
    evaluator pickled to the workers) it is the chunk made here, array for array."""
    from concurrent.futures import ProcessPoolExecutor

    kw = dict(seed=11, chunk_positions=3, ply=1, evaluator=bg.Evaluator.fast())
    here = targets.make_targets(tmp_path / "here", range(3), **kw)
    with ProcessPoolExecutor(2) as pool:
        there = targets.make_targets(tmp_path / "pool", range(3), executor=pool, **kw)
    assert [p.name for p in here] == [p.name for p in there] == \
        ["chunk-000000.npz", "chunk-000001.npz", "chunk-000002.npz"]
    for a, b in zip(here, there):
        with np.load(a) as x, np.load(b) as y:
            assert np.array_equal(x["boards"], y["boards"])
            assert np.array_equal(x["targets"], y["targets"])
    # resumable as before: nothing is left to make
    with ProcessPoolExecutor(2) as pool:
        assert targets.make_targets(tmp_path / "pool", range(3), executor=pool, **kw) == []


def test_relabel_on_an_executor_equals_relabel_here(tmp_path):
    from concurrent.futures import ThreadPoolExecutor

    src = tmp_path / "src"
    targets.make_targets(src, range(2), seed=4, chunk_positions=3, ply=0)
    fast = bg.Evaluator.fast()
    here = targets.relabel_targets(src, tmp_path / "a", ply=1, evaluator=fast)
    with ThreadPoolExecutor(2) as pool:
        there = targets.relabel_targets(src, tmp_path / "b", ply=1, evaluator=fast, executor=pool)
    assert [p.name for p in here] == [p.name for p in there]
    for a, b in zip(here, there):
        assert np.array_equal(targets.read_targets(a).targets, targets.read_targets(b).targets)


def test_a_bad_executor_is_refused(tmp_path):
    with pytest.raises(bg.TrainingDataError, match="executor"):
        targets.make_targets(tmp_path, range(1), seed=1, chunk_positions=2, ply=0, executor=4)
    with pytest.raises(bg.TrainingDataError, match="executor"):
        targets.relabel_targets(tmp_path, tmp_path / "o", ply=0, executor="pool")
    assert not any(tmp_path.glob("*.npz"))


class _CountingExecutor:
    """A thread pool that records the most tasks it held at once and the order in which
    the chunks' sources were read relative to submissions."""

    def __init__(self) -> None:
        from concurrent.futures import ThreadPoolExecutor
        import threading
        self.pool = ThreadPoolExecutor(2)
        self.lock = threading.Lock()
        self.held = self.most = self.submitted = 0

    def submit(self, fn, *args):
        with self.lock:
            self.held += 1
            self.submitted += 1
            self.most = max(self.most, self.held)
        f = self.pool.submit(fn, *args)
        f.add_done_callback(self._finished)
        return f

    def _finished(self, f) -> None:
        with self.lock:
            self.held -= 1


@pytest.mark.parametrize("in_flight", [1, 2])
def test_executors_hold_at_most_in_flight_chunks(tmp_path, in_flight):
    # a cluster labelling millions of positions must not get every chunk (and a copy of
    # the nets each) at once: at most in_flight tasks are out, and the result is the same
    fast = bg.Evaluator.fast()
    kw = dict(seed=12, chunk_positions=2, ply=0, evaluator=fast)
    here = targets.make_targets(tmp_path / "here", range(5), **kw)
    ex = _CountingExecutor()
    there = targets.make_targets(tmp_path / "there", range(5), executor=ex, in_flight=in_flight,
                                 **kw)
    assert ex.submitted == 5 and ex.most <= in_flight
    for a, b in zip(here, there):
        assert np.array_equal(targets.read_targets(a).targets, targets.read_targets(b).targets)
    ex = _CountingExecutor()
    relabelled = targets.relabel_targets(tmp_path / "here", tmp_path / "re", ply=0,
                                         evaluator=fast, executor=ex, in_flight=in_flight)
    assert len(relabelled) == 5 and ex.submitted == 5 and ex.most <= in_flight
    ex.pool.shutdown()
    for bad in (0, -1, 1.5, True, "4"):
        with pytest.raises(bg.TrainingDataError, match="in_flight"):
            targets.make_targets(tmp_path / "x", range(1), executor=ex, in_flight=bad, **kw)


def test_a_failing_chunk_cancels_the_rest(tmp_path):
    from concurrent.futures import ThreadPoolExecutor

    src = tmp_path / "src"
    targets.make_targets(src, range(4), seed=4, chunk_positions=2, ply=0)
    (src / "chunk-000001.npz").write_bytes(b"not a chunk")     # read when its turn comes
    with ThreadPoolExecutor(1) as pool, pytest.raises(bg.TrainingDataError):
        targets.relabel_targets(src, tmp_path / "out", ply=0, evaluator=bg.Evaluator.fast(),
                                executor=pool, in_flight=1)
    # the chunk before the bad one was written, none after it
    assert sorted(p.name for p in (tmp_path / "out").glob("*.npz")) == ["chunk-000000.npz"]
