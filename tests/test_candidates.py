"""Rolling out the candidate plays of a roll: common dice, the error of a
difference (checked against a slow game-by-game computation), the choice of
candidates, stopping rules, position spellings, saving and the CLI."""

from __future__ import annotations

import json
from concurrent.futures import ThreadPoolExecutor

import numpy as np
import pytest

import backgammon as bg
from backgammon.cli import main
from backgammon.rollout.engine import SV as _SV
from backgammon.rollout.equity import run_chunk
from boards import board

XGID_52 = "XGID=-b----E-C---eE---c-e----B-:0:0:1:52:0:0:0:0:10"  # the opening position, 5-2


# A close race, 68 to 64 pips: the plays of 6-2 differ by a pip or two, so the
# same dice decide the games of every play alike.
RACE = board({8: 2, 6: 3, 5: 3, 4: 2, 3: 2, 2: 2, 1: 1}, {17: 2, 19: 2, 20: 2, 21: 3, 22: 3,
                                                         23: 2, 24: 1})


def test_common_dice_make_the_difference_error_smaller_than_either_equity_error():
    rows = bg.rollout_plays(RACE, (6, 2), top=3, games=2592, seed=1, policy="pubeval")
    assert len(rows) == 3 and rows.games == 2592
    for row in rows[1:]:
        assert row.difference.stderr > 0
        assert row.difference.stderr < min(row.equity.stderr, rows[0].equity.stderr) * 0.7
        # independent rollouts would give sqrt(se1^2 + se2^2), twice as large here
        assert row.difference.stderr < 0.5 * np.hypot(row.equity.stderr, rows[0].equity.stderr)


def test_the_best_row_has_difference_zero_and_the_others_are_equity_minus_best():
    rows = bg.rollout_plays(bg.Position.initial(), (3, 1), top=4, games=1296, seed=2,
                            policy="pubeval")
    assert rows[0].difference == bg.Estimate(0.0, 0.0, 0.0, 0.0)
    assert rows.best is rows[0]
    equities = [r.equity.value for r in rows]
    assert equities == sorted(equities, reverse=True)
    for row in rows[1:]:
        assert row.difference.value == pytest.approx(row.equity.value - equities[0], abs=1e-12)
        assert row.difference.value <= 0
        low, high = row.difference.low, row.difference.high
        assert low < row.difference.value < high
    for row in rows:  # the mover's chances: win + lose = 1, gammons within wins
        w, wg, wb, lg, lb = row.probabilities
        assert 0 <= wb <= wg <= w <= 1 and 0 <= lb <= lg <= 1 - w
        assert row.equity.value == pytest.approx(2 * w - 1 + wg - lg + wb - lb, abs=1e-12)


def _per_game_points(play: bg.Play, games: int) -> tuple[np.ndarray, np.ndarray]:
    """The mover's points and the stratum of each game, one game at a time."""
    start = play.result.swapped()._b
    points, strata = np.zeros(games), np.zeros(games, dtype=int)
    for k in range(games):
        stats = run_chunk(start, 5, k, 1, 1, True)  # pubeval, stratified
        (row,) = np.flatnonzero(stats[:, 0])
        strata[k], points[k] = row, -stats[row, _SV]  # the opponent rolled first
    return points, strata


@pytest.mark.parametrize("games, groups", [(2592, 1296), (1396, 36)])
def test_the_difference_and_its_error_match_a_game_by_game_computation(games, groups):
    # 2,592 games: two per pair of first rolls, stratified by the pairs;
    # 1,396: some pairs have one game, so the 36 first rolls are the strata.
    rows = bg.rollout_plays(bg.Position.initial(), (4, 2), top=2, games=games, seed=5,
                            policy="pubeval")
    a, sa = _per_game_points(rows[1].play, games)
    b, sb = _per_game_points(rows[0].play, games)
    assert (sa == sb).all()  # the same first two rolls for both plays
    d = a - b
    group = sa if groups == 1296 else sa // 36
    means = np.array([d[group == h].mean() for h in range(groups)])
    variances = np.array([d[group == h].var(ddof=1) / (group == h).sum() for h in range(groups)])
    assert rows[1].difference.value == pytest.approx(means.mean(), abs=1e-12)
    assert rows[1].difference.stderr == pytest.approx(np.sqrt(variances.sum()) / groups,
                                                      rel=1e-9)
    assert rows[1].equity.value == pytest.approx(
        np.mean([a[group == h].mean() for h in range(groups)]), abs=1e-12)


def test_plays_in_any_notation_or_as_play_objects():
    pos = bg.Position.initial()
    given = ["6/5 8/5", "13/10 24/23", pos.parse_play("24/20", (3, 1))]
    rows = bg.rollout_plays(pos, (3, 1), plays=given, games=72, seed=3, policy="pubeval")
    assert {str(r.play) for r in rows} == {"8/5 6/5", "24/23 13/10", "24/20"}
    again = bg.rollout_plays(pos, "31", plays=["8/5 6/5", "24/23 13/10", "24/20"], games=72,
                             seed=3, policy="pubeval")
    assert [r.equity for r in again] == [r.equity for r in rows]
    # a single play by its notation
    assert len(bg.rollout_plays(pos, (3, 1), plays="24/20", games=36, seed=3,
                                policy="pubeval")) == 1
    with pytest.raises(bg.IllegalPlayError):
        bg.rollout_plays(pos, (3, 1), plays=["24/18"], games=36, seed=3)
    with pytest.raises(bg.RolloutError, match="twice"):
        bg.rollout_plays(pos, (3, 1), plays=["8/5 6/5", "6/5 8/5"], games=36, seed=3)
    with pytest.raises(bg.RolloutError, match="no plays"):
        bg.rollout_plays(pos, (3, 1), plays=[], games=36, seed=3)
    other = pos.parse_play("24/20", (3, 1)).result  # a play of another position
    with pytest.raises(bg.RolloutError, match="not a legal play"):
        bg.rollout_plays(pos, (3, 1), plays=[bg.Play(other, [(13, 10), (6, 5)])], games=36)
    with pytest.raises(TypeError):
        bg.rollout_plays(pos, (3, 1), plays=[42], games=36)


def test_top_is_clipped_to_the_legal_plays_and_ranked_by_the_pre_screen():
    # two checkers on our 5-point against a race: 1-1 moves them 5/4(2), 5/3 5/4 ... few plays
    pos = board({5: 2}, {19: 5, 20: 5, 21: 5})
    legal = pos.legal_plays((1, 1))
    rows = bg.rollout_plays(pos, (1, 1), top=50, games=72, seed=1, policy="pubeval")
    assert len(rows) == len(legal) < 50
    assert {r.play for r in rows} == set(legal)
    screened = bg.rollout_plays(bg.Position.initial(), (6, 5), top=1, games=36, seed=1,
                                policy="random")
    assert screened[0].play == bg.Position.initial().rank_plays((6, 5))[0].play
    assert screened[0].ply_equity == pytest.approx(
        bg.Position.initial().rank_plays((6, 5))[0].equity)
    with pytest.raises(bg.RolloutError, match="top"):
        bg.rollout_plays(bg.Position.initial(), (6, 5), top=0)


def test_a_forced_roll_gives_one_row():
    # the mover is on the bar against five closed points (our 19..23): 6-6 dances
    pos = board({25: 1, 6: 14}, {19: 2, 20: 2, 21: 2, 22: 2, 23: 2, 24: 5})
    rows = bg.rollout_plays(pos, (6, 6), games=72, seed=1, policy="pubeval")
    assert len(rows) == 1 and rows[0].play.moves == ()
    assert rows[0].difference == bg.Estimate(0.0, 0.0, 0.0, 0.0)
    assert "(no move)" in str(rows)


def test_a_play_that_ends_the_game_is_exact_and_pairs_with_the_others():
    # Our last checkers on the 5- and 4-points, the opponent's last two on its 6-point
    # (our 19).  5-4 bears both off: a single win (+1, they have 13 off).  The other
    # play, 5/1 4/off, leaves one checker on our 1-point: we win next turn unless they
    # bear both off first, with 3-3, 4-4, 5-5 or 6-6 (4 of 36): 32/36 - 4/36 = 28/36.
    pos = board({5: 1, 4: 1}, {19: 2})
    rows = bg.rollout_plays(pos, (5, 4), top=10, games=1296, seed=1, policy="pubeval")
    assert len(rows) == 2
    best, other = rows
    assert best.play.result.outcome() is not None
    assert best.equity == bg.Estimate(1.0, 0.0, 1.0, 1.0)
    assert best.probabilities == (1.0, 0.0, 0.0, 0.0, 0.0)
    assert other.play.result.tolist()[1] == 1
    assert other.equity.value == pytest.approx(28 / 36, abs=1e-12)
    assert other.win.value == pytest.approx(32 / 36, abs=1e-12)
    assert other.difference.value == pytest.approx(28 / 36 - 1, abs=1e-12)
    assert other.difference.stderr == 0.0  # stratified: their first roll decides


def test_same_result_for_any_workers_executor_and_policy_kinds():
    pos = bg.Position.initial()
    base = bg.rollout_plays(pos, (4, 1), top=3, games=1500, seed=8, policy="pubeval")
    two = bg.rollout_plays(pos, (4, 1), top=3, games=1500, seed=8, policy="pubeval", workers=2)
    with ThreadPoolExecutor(2) as pool:
        pooled = bg.rollout_plays(pos, (4, 1), top=3, games=1500, seed=8, policy="pubeval",
                                  executor=pool)
    for other in (two, pooled):
        assert [(r.play, r.equity, r.difference) for r in other] == \
            [(r.play, r.equity, r.difference) for r in base]
    net = bg.rollout_plays(pos, (4, 1), top=2, games=72, seed=8, workers=2)
    assert net.policy == "net" and len(net) == 2
    rnd = bg.rollout_plays(pos, (4, 1), top=2, games=72, seed=8, policy="random")
    assert rnd.policy == "random"
    first = bg.rollout_plays(RACE, (6, 2), top=2, games=72, seed=8,
                             policy=lambda c: bg.pubeval.scores(c, race=True))
    builtin = bg.rollout_plays(RACE, (6, 2), top=2, games=72, seed=8, policy="pubeval")
    assert [r.equity for r in first] == [r.equity for r in builtin]


def test_the_candidates_roll_out_from_the_movers_side():
    # each row is the rollout of the position after the play, opponent on roll, flipped
    pos = bg.Position.initial()
    rows = bg.rollout_plays(pos, (6, 5), top=1, games=1296, seed=4, policy="pubeval")
    theirs = bg.rollout(rows[0].play.result.swapped(), games=1296, seed=4, policy="pubeval")
    assert rows[0].equity.value == pytest.approx(-theirs.equity.value, abs=1e-12)
    assert rows[0].equity.stderr == pytest.approx(theirs.equity.stderr, rel=1e-12)
    assert rows[0].win.value == pytest.approx(1 - theirs.win.value, abs=1e-12)
    assert rows[0].win_gammon.value == pytest.approx(theirs.lose_gammon.value, abs=1e-12)
    assert rows[0].lose_backgammon.value == pytest.approx(theirs.win_backgammon.value,
                                                          abs=1e-12)


def test_stop_error_stops_at_a_fixed_game_count_and_says_so():
    pos = bg.Position.initial()
    r = bg.rollout(pos, games=1296 * 20, seed=1, policy="pubeval", stop_error=0.03)
    assert r.games < 1296 * 20 and r.games % 1296 == 0
    assert r.equity.stderr < 0.03 and "below 0.03" in r.stopped and "stopped early" in str(r)
    two = bg.rollout(pos, games=1296 * 20, seed=1, policy="pubeval", stop_error=0.03,
                     workers=2)
    assert two.games == r.games and np.array_equal(two.strata, r.strata)
    # the same games as a plain rollout of that many games
    plain = bg.rollout(pos, games=r.games, seed=1, policy="pubeval")
    assert np.array_equal(plain.strata, r.strata) and plain.stopped is None
    never = bg.rollout(pos, games=2592, seed=1, policy="pubeval", stop_error=1e-6)
    assert never.games == 2592 and never.stopped is None
    with pytest.raises(bg.RolloutError, match="stop_error"):
        bg.rollout(pos, games=100, stop_error=0)
    with pytest.raises(bg.RolloutError, match="max_seconds"):
        bg.rollout(pos, games=100, max_seconds=float("nan"))


def test_max_seconds_stops_early_and_says_so():
    pos = bg.Position.initial()
    r = bg.rollout(pos, games=1296 * 50, seed=1, policy="pubeval", max_seconds=1e-9)
    assert r.games == 1296 and "time budget" in r.stopped
    rows = bg.rollout_plays(pos, (3, 1), top=2, games=1296 * 50, seed=1, policy="pubeval",
                            max_seconds=1e-9)
    assert rows.games == 1296 and "time budget" in rows.stopped and "stopped early" in str(rows)


def test_rollout_plays_stops_when_every_difference_error_is_small():
    rows = bg.rollout_plays(RACE, (6, 2), top=3, games=1296 * 20, seed=1, policy="pubeval",
                            stop_error=0.012)
    assert rows.games < 1296 * 20 and "every difference error below" in rows.stopped
    assert all(r.difference.stderr < 0.012 for r in rows)
    full = bg.rollout_plays(RACE, (6, 2), top=3, games=rows.games, seed=1, policy="pubeval")
    assert [r.difference for r in full] == [r.difference for r in rows]
    single = bg.rollout_plays(RACE, (6, 2), plays=["8/2 6/4"], games=1296 * 20, seed=1,
                              policy="pubeval", stop_error=0.02)
    assert "every equity error" in single.stopped and single[0].equity.stderr < 0.02


def test_rollouts_accept_every_position_spelling():
    pos, dice = bg.read_position(XGID_52)
    assert pos == bg.Position.initial() and dice == (5, 2)
    assert bg.read_position("4HPwATDgc/ABMA:cAkAAAAAAAAA") == (bg.Position.initial(), None)
    assert bg.read_position(" 4HPwATDgc/ABMA ") == (bg.Position.initial(), None)
    base = bg.rollout(bg.Position.initial(), games=72, seed=1, policy="pubeval")
    for text in (XGID_52, "4HPwATDgc/ABMA:cAkAAAAAAAAA", "4HPwATDgc/ABMA"):
        assert np.array_equal(bg.rollout(text, games=72, seed=1, policy="pubeval").strata,
                              base.strata)
    rows = bg.rollout_plays(XGID_52, (5, 2), top=1, games=36, seed=1, policy="pubeval")
    assert rows.position == bg.Position.initial()
    with pytest.raises(bg.BackgammonError):
        bg.read_position("XGID=nonsense")
    with pytest.raises(bg.BackgammonError):
        bg.read_position("x" * 10_000)
    with pytest.raises(TypeError):
        bg.read_position(42)


def test_rollout_results_reload_from_json():
    r = bg.rollout(bg.Position.initial(), games=2592, seed=1, policy="pubeval", stop_error=0.5)
    back = bg.RolloutResult.from_dict(json.loads(json.dumps(r.to_dict(strata=True))))
    assert back == r and np.array_equal(back.strata, r.strata) and back.stopped == r.stopped
    summary = bg.RolloutResult.from_dict(json.loads(json.dumps(r.to_dict())))
    assert summary == r and summary.strata.shape == (0, 9)
    data = r.to_dict()
    del data["equity"]
    with pytest.raises(bg.RolloutError, match="equity"):
        bg.RolloutResult.from_dict(data)
    with pytest.raises(bg.RolloutError, match="strata"):
        bg.RolloutResult.from_dict({**r.to_dict(), "strata": [[1, 2]]})
    with pytest.raises(bg.RolloutError):
        bg.RolloutResult.from_dict([1, 2])


def test_rollouts_of_plays_reload_from_json():
    rows = bg.rollout_plays(bg.Position.initial(), (6, 4), top=3, games=72, seed=1,
                            policy="pubeval")
    back = bg.PlaysRollout.from_dict(json.loads(json.dumps(rows.to_dict())))
    assert back == rows and str(back) == str(rows)
    data = rows.to_dict()
    data["rows"][0]["moves"] = [[24, 18]]
    with pytest.raises(bg.RolloutError, match="bad"):
        bg.PlaysRollout.from_dict(data)
    with pytest.raises(bg.RolloutError, match="dice"):
        bg.PlaysRollout.from_dict({k: v for k, v in rows.to_dict().items() if k != "dice"})


def test_the_table_and_the_html_with_the_board():
    rows = bg.rollout_plays(bg.Position.initial(), (3, 1), top=2, games=72, seed=1,
                            policy="pubeval")
    text = str(rows)
    assert "8/5 6/5" in text and "equity" in text and "diff" in text and "seed 1" in text
    page = rows._repr_html_()
    assert "<svg" in page and "<table>" in page and "8/5 6/5" in page


def test_bad_arguments_are_clear_errors():
    pos = bg.Position.initial()
    with pytest.raises(bg.InvalidDiceError):
        bg.rollout_plays(pos, (0, 7))
    with pytest.raises(bg.RolloutError, match="games"):
        bg.rollout_plays(pos, (3, 1), games=0)
    with pytest.raises(bg.RolloutError, match="policy"):
        bg.rollout_plays(pos, (3, 1), policy="gnubg")
    with pytest.raises(bg.RolloutError, match="over"):
        bg.rollout_plays(board({}, {1: 15}), (3, 1))


def test_cli_analyse_roll_on_an_xgid(capsys):
    assert main(["analyse-roll", XGID_52, "--games", "72", "--top", "2", "--seed", "1",
                 "--policy", "pubeval", "--no-progress"]) == 0
    out = capsys.readouterr().out
    assert "plays of 5-2" in out and "13/11 13/8" in out
    assert main(["analyse-roll", "4HPwATDgc/ABMA:cAkAAAAAAAAA", "31", "--games", "36",
                 "--top", "1", "--seed", "1", "--policy", "pubeval", "--no-progress",
                 "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["dice"] == [3, 1] and len(data["rows"]) == 1
    assert main(["analyse-roll", "4HPwATDgc/ABMA", "--no-progress"]) == 2
    assert "carries no dice" in capsys.readouterr().err
    assert main(["rollout", XGID_52, "--games", "2592", "--seed", "1", "--policy", "pubeval",
                 "--stop-error", "0.5", "--no-progress"]) == 0
    assert "stopped early" in capsys.readouterr().out


def test_a_process_pool_and_a_progress_callback():
    from concurrent.futures import ProcessPoolExecutor

    pos = bg.Position.initial()
    seen = []
    base = bg.rollout_plays(pos, (2, 1), top=2, games=400, seed=6, policy="pubeval",
                            progress=lambda done, total: seen.append((done, total)))
    assert seen[-1] == (800, 800) and all(t == 800 for _, t in seen)
    with ProcessPoolExecutor(2) as pool:
        far = bg.rollout_plays(pos, (2, 1), top=2, games=400, seed=6, policy="pubeval",
                               executor=pool)
    assert [(r.play, r.equity, r.difference) for r in far] == \
        [(r.play, r.equity, r.difference) for r in base]


def test_docstring_examples():
    import doctest
    import importlib

    for name in ("backgammon.rollout.plays", "backgammon.rollout.equity"):
        result = doctest.testmod(importlib.import_module(name), optionflags=doctest.ELLIPSIS)
        assert result.failed == 0 and result.attempted > 0, name


# Luck adjustment and truncation (issue 12): the candidates' games run through
# the core's rollout, and the differences pair the adjusted values game by game.

def test_luck_adjustment_narrows_the_difference_error_at_the_same_games():
    plain = bg.rollout_plays(RACE, (6, 2), top=2, games=144, seed=1)
    vr = bg.rollout_plays(RACE, (6, 2), top=2, games=144, seed=1, variance_reduction=True)
    assert vr.variance_reduction and not plain.variance_reduction
    assert {r.play for r in vr} == {r.play for r in plain}
    assert 0 < vr[1].difference.stderr < plain[1].difference.stderr / 2
    assert vr[0].equity.stderr < plain[0].equity.stderr / 2
    assert vr[1].difference.value == pytest.approx(vr[1].equity.value - vr[0].equity.value,
                                                   abs=1e-12)
    assert "luck-adjusted" in str(vr)


def test_truncate_zero_gives_each_play_the_evaluators_value_with_no_error():
    rows = bg.rollout_plays(RACE, (6, 2), top=3, games=72, seed=1, truncate=0)
    assert rows.truncate == 0 and len(rows) == 3
    for row in rows:
        # the opponent is on roll after the play: their chances, turned
        theirs = bg.evaluate(row.play.result.swapped())
        assert row.equity.value == pytest.approx(-theirs.equity, abs=1e-6)
        assert row.win.value == pytest.approx(1 - theirs.win, abs=1e-6)
        assert row.win_gammon.value == pytest.approx(theirs.lose_gammon, abs=1e-6)
        assert row.lose_gammon.value == pytest.approx(theirs.win_gammon, abs=1e-6)
        # every game has the same value: no error (up to the rounding of the variance sums)
        assert row.equity.stderr < 1e-9 and row.difference.stderr < 1e-9
        assert row.difference.value == pytest.approx(row.equity.value - rows[0].equity.value,
                                                     abs=1e-12)
    assert rows[2].difference.value < rows[1].difference.value < 0


def test_a_truncation_no_game_reaches_is_the_plain_rollout():
    # every field's mover's-side turn and the paired error, against the plain path
    a = bg.rollout_plays(RACE, (6, 2), top=3, games=1400, seed=3, truncate=10**9)
    b = bg.rollout_plays(RACE, (6, 2), top=3, games=1400, seed=3)
    assert [r.play for r in a] == [r.play for r in b]
    for x, y in zip(a, b):
        for name in ("equity", "difference", "win", "win_gammon", "win_backgammon",
                     "lose_gammon", "lose_backgammon"):
            ex, ey = getattr(x, name), getattr(y, name)
            assert ex.value == pytest.approx(ey.value, abs=1e-9)
            assert ex.stderr == pytest.approx(ey.stderr, abs=1e-9)


def test_luck_adjusted_candidates_are_the_same_for_any_workers():
    kw = dict(top=2, games=100, seed=5, variance_reduction=True, truncate=12)
    one = bg.rollout_plays(bg.Position.initial(), (4, 1), workers=1, **kw)
    two = bg.rollout_plays(bg.Position.initial(), (4, 1), workers=2, **kw)
    assert [(r.play, r.equity, r.difference, r.win) for r in one] == \
        [(r.play, r.equity, r.difference, r.win) for r in two]
    back = bg.PlaysRollout.from_dict(json.loads(json.dumps(one.to_dict())))
    assert back.variance_reduction and back.truncate == 12 and back.rows == one.rows


def test_luck_adjustment_and_truncation_need_the_net_policy():
    pos = bg.Position.initial()
    for policy in ("random", "pubeval"):
        with pytest.raises(bg.RolloutError, match="net policy"):
            bg.rollout_plays(pos, (3, 1), games=36, policy=policy, variance_reduction=True)
        with pytest.raises(bg.RolloutError, match="net policy"):
            bg.rollout_plays(pos, (3, 1), games=36, policy=policy, truncate=5)
    with pytest.raises(bg.RolloutError, match="net policy"):
        bg.rollout_plays(pos, (3, 1), games=36, policy=lambda c: np.zeros(len(c)), truncate=5)
    with pytest.raises(bg.RolloutError, match="truncate"):
        bg.rollout_plays(pos, (3, 1), games=36, truncate=-1)
    with pytest.raises(TypeError):
        bg.rollout_plays(pos, (3, 1), games=36, variance_reduction=1)


def test_cli_analyse_roll_with_luck_adjustment_and_truncation(capsys):
    assert main(["analyse-roll", XGID_52, "--games", "36", "--top", "2", "--seed", "1",
                 "--variance-reduction", "--truncate", "8", "--workers", "1",
                 "--no-progress", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["variance_reduction"] and data["truncate"] == 8 and len(data["rows"]) == 2
    assert main(["analyse-roll", XGID_52, "--games", "36", "--policy", "pubeval",
                 "--truncate", "3", "--no-progress"]) == 2
    assert "net policy" in capsys.readouterr().err


@pytest.mark.parametrize("options", [{"variance_reduction": True}, {"truncate": 0}])
def test_a_play_that_ends_the_game_pairs_with_adjusted_values(options):
    # The position of the exact test above: the evaluator is the bear-off
    # database there, exact, so a luck-adjusted game of the other play is worth
    # its value 28/36 (no luck is left) and so is its score at the start.
    pos = board({5: 1, 4: 1}, {19: 2})
    best, other = bg.rollout_plays(pos, (5, 4), top=10, games=72, seed=1, **options)
    assert best.equity == bg.Estimate(1.0, 0.0, 1.0, 1.0)
    assert best.probabilities == (1.0, 0.0, 0.0, 0.0, 0.0)
    assert other.equity.value == pytest.approx(28 / 36, abs=1e-6)
    assert other.win.value == pytest.approx(32 / 36, abs=1e-6)
    assert other.difference.value == pytest.approx(28 / 36 - 1, abs=1e-6)
    assert other.difference.stderr < 1e-6
