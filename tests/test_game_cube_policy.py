"""The baseline pip-count cube policy (backgammon.cube), thresholds checked by hand."""

from __future__ import annotations

import pytest
from backgammon.cube import PipCountCubePolicy
from backgammon.game import Game
from backgammon.position import Position
from test_game import board


def race(opp_points: dict) -> Position:
    # ours: 10 on the 6-point (60 pips) + 5 on the 8-point (40 pips) = 100 pips
    return board({6: 10, 8: 5}, opp_points)


# opponent pips count 25 - p for a checker on our point p
EVEN = race({19: 10, 17: 5})        # 10 x 6 + 5 x 8 = 100: lead 0
AHEAD_10 = race({19: 10, 15: 5})    # 60 + 5 x 10 = 110: lead 10 %
AHEAD_15 = race({19: 10, 14: 5})    # 60 + 5 x 11 = 115: lead 15 %


def test_lead_is_relative_pip_difference():
    policy = PipCountCubePolicy()
    assert policy.lead(EVEN) == 0.0
    assert policy.lead(AHEAD_10) == pytest.approx(0.10)
    assert policy.lead(AHEAD_15) == pytest.approx(0.15)
    assert policy.lead(Position.initial()) == 0.0  # 167 each


def test_double_and_redouble_thresholds():
    policy = PipCountCubePolicy()
    assert not policy.should_double(Game.from_position(EVEN))
    assert policy.should_double(Game.from_position(AHEAD_10))  # 10 % >= 8 %
    # owning the cube: a redouble needs 9 %; 10 % is enough, and with a 10 % redouble bar not
    assert policy.should_double(Game.from_position(AHEAD_10, cube=2, cube_owner=0))
    strict = PipCountCubePolicy(redouble_lead=0.11)
    assert not strict.should_double(Game.from_position(AHEAD_10, cube=2, cube_owner=0))
    assert strict.should_double(Game.from_position(AHEAD_10))  # first double still at 8 %


def test_never_offers_an_illegal_double():
    policy = PipCountCubePolicy()
    assert not policy.should_double(Game.from_position(AHEAD_15, cube=2, cube_owner=1))
    assert not policy.should_double(Game.from_position(AHEAD_15, match_length=5,
                                                       score=(4, 0), crawford=True))


def test_take_up_to_12_percent():
    policy = PipCountCubePolicy()
    game = Game.from_position(AHEAD_10)
    game.double()
    assert policy.should_take(game)  # the doubler leads by 10 % <= 12 %
    game = Game.from_position(AHEAD_15)
    game.double()
    assert not policy.should_take(game)  # 15 % > 12 %
    with pytest.raises(ValueError):
        policy.should_take(Game.from_position(EVEN))
