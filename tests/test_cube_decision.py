"""Cube decisions by the nets: positions, games, the evaluator cube policy."""

from __future__ import annotations

import pytest

import backgammon as bg
from backgammon.cube import EvaluatorCubePolicy, cube_decision
from backgammon.errors import IllegalActionError
from backgammon.game import Game, Phase
from boards import board


# One checker on our 1-point: any roll bears it off.  The opponent has borne off
# 13 checkers already, so no gammon is possible: a certain single win.
SURE_WIN = board({1: 1}, {19: 2})


def test_the_opening_is_no_double_take():
    d = cube_decision(bg.Position.initial())
    assert d.action == "No double, take" and d.take and d.available
    assert d.probabilities == pytest.approx(bg.evaluate(bg.Position.initial()).probabilities)
    assert d.x == 0.68 and d.score is None


def test_a_certain_win_is_double_pass():
    d = cube_decision(SURE_WIN)
    assert d.probabilities[0] == pytest.approx(1.0) and d.probabilities[1] == 0.0
    assert (d.action, d.take) == ("Double, pass", False)
    assert d.no_double == pytest.approx(1.0) and d.double_pass == 1.0
    assert d.x == 0.6      # both sides bearing off


def test_a_game_supplies_cube_owner_score_and_rules():
    game = Game.from_position(SURE_WIN, turn=1, cube=2, cube_owner=1, match_length=7, score=(2, 4))
    d = game.cube_decision()
    # Player 1 is on roll with 4 of 7: 3-away against 5-away, owning the 2-cube.
    assert (d.score, d.cube, d.owner, d.post_crawford) == ((3, 5), 2, "own", False)
    assert d.action == "Redouble, pass"
    assert bg.cube_decision(game) == d


def test_crawford_and_post_crawford_games():
    crawford = Game.from_position(SURE_WIN, match_length=5, score=(2, 4), crawford=True)
    d = crawford.cube_decision()
    assert not d.available and "Crawford" in d.action
    post = Game.from_position(SURE_WIN, match_length=5, score=(2, 4))
    d = post.cube_decision()
    assert d.post_crawford and d.score == (3, 1) and d.available


def test_while_a_double_waits_the_decision_answers_the_take():
    game = Game.from_position(SURE_WIN)
    game.double()
    assert game.phase is Phase.DOUBLED
    assert game.cube_decision().take is False
    policy = EvaluatorCubePolicy()
    assert policy.should_take(game) is False
    game.drop()
    assert game.over


def test_evaluator_cube_policy_interface():
    policy = EvaluatorCubePolicy()
    opening = Game.from_position(bg.Position.initial())
    assert policy.should_double(opening) is False
    assert policy.should_double(Game.from_position(SURE_WIN)) is True
    owned = Game.from_position(SURE_WIN, cube=2, cube_owner=1)   # the opponent owns it
    assert policy.should_double(owned) is False
    with pytest.raises(IllegalActionError):
        policy.should_take(opening)
    with pytest.raises(TypeError):
        policy.should_double("game")


def test_cube_decision_refuses_other_phases_and_types():
    game = Game.from_position(bg.Position.initial(), dice=(3, 1))
    with pytest.raises(IllegalActionError, match="before the roll"):
        game.cube_decision()
    with pytest.raises(TypeError):
        cube_decision("4HPwATDgc/ABMA")


def test_a_position_takes_the_cube_state_as_arguments():
    d = cube_decision(SURE_WIN, cube=4, owner="opponent")
    assert not d.available and "opponent owns" in d.action
    d = cube_decision(bg.Position.initial(), score=(7, 7), x=0.5)
    assert d.match_play and d.x == 0.5 and 0.0 < d.no_double < 1.0
