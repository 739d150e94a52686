"""backgammon.judge: a bot judged on the decisions of recorded games."""

from __future__ import annotations

import doctest

import numpy as np
import pytest

import backgammon as bg
from backgammon.analysis import judging as judge_module
from backgammon.analysis.judging import judge


class BarCount:
    """An evaluator worked by hand: the player on roll wins with 0.5 + 0.1 x the
    opponent's checkers on the bar - 0.1 x its own, never a gammon."""

    def evaluate_batch(self, boards):
        b = np.asarray(boards)
        out = np.zeros((len(b), 5), np.float32)
        out[:, 0] = 0.5 - 0.1 * b[:, 0] - 0.1 * b[:, 25]   # b[:, 0] <= 0: the opponent's bar
        return out


class Fixed:
    def __init__(self, play):
        self.play = play

    def choose_play(self, game):
        return self.play


def _hit_game():
    # player 0: a checker on 13 and 14 on the 6 point; player 1: a blot on 0's 10 point
    # (its 15 point) and 14 on its 6 point.  3-1: only a 3 from 13 hits (13/10*).
    board = [0] * 26
    board[13], board[6], board[10], board[19] = 1, 14, -1, -14
    game = bg.Game.from_position(bg.Position(board), dice=(3, 1), rules=bg.Rules(cube=False))
    game.play("6/5 6/3")
    return game


@pytest.mark.parametrize("play,loss", [("13/10*/9", 0.0), ("13/10* 6/5", 0.0),
                                       ("6/5 6/3", 0.2), ("13/12 6/3", 0.2), ("13/9", 0.2),
                                       ("6/2", 0.2)])
def test_hand_derived_losses(play, loss):
    # with the cube out of play the value of a result for the mover is minus the
    # opponent's cubeless equity 2p - 1 = -0.2 x (hit checkers): a hit is worth 0.2,
    # and every play that leaves the blot alone gives up exactly 0.2 (200 mp)
    j = judge(Fixed(play), _hit_game(), ply=0, evaluator=BarCount())
    (d,) = j.decisions
    assert (d.kind, d.player, d.bot, d.made) == ("play", 0, play, "6/5 6/3")
    assert d.best in ("13/10*/9", "13/10* 6/5")
    assert d.equity_best == pytest.approx(0.2, abs=1e-6)
    assert d.loss == pytest.approx(loss, abs=1e-6) and d.loss_mwc is None
    assert j.mean_loss() == pytest.approx(1000 * loss, abs=1e-3)
    assert j.best_share() == (1.0 if loss == 0 else 0.0)


def _recorded_games():
    """Two money games of random plays with scripted cube actions (a take, a drop)."""
    games = []
    for seed, answer in ((3, "take"), (4, "drop")):
        game, rng, turns = bg.Game(rng=seed), np.random.default_rng(seed), 0
        while not game.over:
            if game.phase is bg.Phase.OPENING:
                game.roll()
            elif game.phase is bg.Phase.ROLL:
                turns += 1
                game.double() if turns == 6 and game.can_double() else game.roll()
            elif game.phase is bg.Phase.DOUBLED:
                getattr(game, answer)()
            else:
                plays = game.position.legal_plays(game.dice)
                game.play(plays[int(rng.integers(len(plays)))])
        games.append(game)
    return games


class Replay:
    """A bot that does what the recorded players did."""

    def __init__(self, games):
        self.games = games

    def _action(self, game):
        for g in self.games:
            if g.actions[:len(game.actions)] == game.actions:
                return g.actions[len(game.actions)]
        raise AssertionError("not a recorded state")

    def choose_play(self, game):
        return self._action(game).value

    def cube_action(self, game):
        return {"double": "double", "roll": "roll", "take": "take",
                "drop": "drop"}[self._action(game).kind]


def test_replaying_the_players_loses_what_the_analysis_says():
    games = _recorded_games()
    analysis = bg.analyse(games, ply=0)
    j = judge(Replay(games), games, ply=0)
    ours = [(d.game, d.action, d.kind, d.bot, d.best) for d in j.decisions]
    theirs = [(d.game, d.action, d.kind, d.made, d.best) for d in analysis.decisions]
    assert ours == theirs and j.count("cube") >= 3   # no double(s), a double, a take, a drop
    assert [d.loss for d in j.decisions] == pytest.approx([d.loss for d in analysis.decisions],
                                                          abs=1e-12)
    assert all(d.bot == d.made for d in j.decisions)


def test_the_analysis_best_loses_nothing():
    games = _recorded_games()
    analysis = bg.analyse(games, ply=0, cube=False)
    best = {(d.position_id, d.dice): d.best for d in analysis.decisions}

    class Best:
        def choose_play(self, game):
            return best[(game.position.position_id(), game.dice)]

    j = judge(Best(), games, ply=0)
    assert j.count() == j.count("play") == len(analysis.decisions) > 50
    assert j.total_loss() == 0 and j.best_share() == 1.0 and j.mean_loss("play") == 0
    assert "100.0%" in str(j)


def test_players_and_policies():
    games = _recorded_games()
    j0 = judge("pubeval", games, ply=0, players=(0,))
    assert j0.count() > 0 and {d.player for d in j0.decisions} == {0}
    assert j0.count("cube") == 0      # pubeval answers no cube questions
    assert j0.mean_loss() > 0
    assert np.isnan(judge("pubeval", [], ply=0).mean_loss())


def test_bad_input():
    game = _hit_game()
    with pytest.raises(bg.InvalidSetupError):
        judge(object(), game, ply=0, evaluator=BarCount())
    with pytest.raises(bg.InvalidSetupError):
        judge("pubeval", game, ply=0, players=(2,))
    with pytest.raises(bg.IllegalPlayError):
        judge(Fixed("24/20"), game, ply=0, evaluator=BarCount())

    class BadCube:
        def choose_play(self, game):
            return game.position.legal_plays(game.dice)[0]

        def cube_action(self, game):
            return "maybe"

    with pytest.raises(bg.InvalidSetupError, match="cube_action"):
        judge(BadCube(), _recorded_games(), ply=0)
    with pytest.raises(bg.InvalidSetupError):
        judge("pubeval", [game], ply=0, evaluator=BarCount()).mean_loss(kind="cubes")


def test_docstring_example():
    result = doctest.testmod(judge_module, optionflags=doctest.ELLIPSIS)
    assert result.failed == 0 and result.attempted > 0


def test_replaying_at_one_ply_equals_the_analysis():
    games = _recorded_games()[1:]
    analysis = bg.analyse(games, ply=1)
    j = judge(Replay(games), games, ply=1)
    assert [(d.action, d.best) for d in j.decisions] == \
        [(d.action, d.best) for d in analysis.decisions]
    assert [d.loss for d in j.decisions] == pytest.approx([d.loss for d in analysis.decisions],
                                                          abs=1e-12)


def test_standard_errors_and_paired_comparison():
    games = _recorded_games()
    pub = judge("pubeval", games, ply=0)
    rnd = judge("random", games, ply=0)
    losses = np.array([d.loss for d in pub.decisions])
    n = len(losses)
    # the textbook formulas, written out: sample standard deviation / sqrt(n)
    mean = losses.sum() / n
    sd = np.sqrt(((losses - mean) ** 2).sum() / (n - 1))
    assert pub.stderr() == pytest.approx(1000 * sd / np.sqrt(n))
    diff, se, m = rnd.versus(pub)
    paired = np.array([a.loss - b.loss for a, b in zip(rnd.decisions, pub.decisions)])
    assert m == n == len(rnd.decisions)
    assert diff == pytest.approx(1000 * paired.mean())
    assert se == pytest.approx(1000 * paired.std(ddof=1) / np.sqrt(n))
    assert diff > 0          # random play loses more than pubeval on these games
    assert pub.versus(pub) == (0.0, 0.0, n)
    one = judge(Fixed("6/5 6/3"), _hit_game(), ply=0, evaluator=BarCount())
    assert np.isnan(one.stderr()) and "±" not in str(one)
    with pytest.raises(bg.InvalidSetupError):
        pub.versus("pubeval")
