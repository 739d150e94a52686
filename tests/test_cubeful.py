"""Cubeful money equity (Janowski), take, cash and doubling points, cube efficiency.

Expected values are worked by hand from the model in backgammon/cubeful.py's
docstring; the doubling points are also found by an independent bisection of
"no double = double, take" on the equity functions.
"""

from __future__ import annotations

import pytest

from backgammon import Position
from backgammon import cubeful as cf
from backgammon.errors import BackgammonError

GAMMONLESS = (0.5, 0.0, 0.0, 0.0, 0.0)


def chances(p: float, gammon_rate: float = 0.0, lose_gammon_rate: float = 0.0):
    """Chances with fixed gammon rates (fractions of wins and of losses)."""
    return (p, p * gammon_rate, 0.0, (1 - p) * lose_gammon_rate, 0.0)


def swap(c):
    w, wg, wb, lg, lb = c
    return (1 - w, lg, lb, wg, wb)


def test_take_points_without_gammons():
    assert cf.take_point(GAMMONLESS, x=0.0) == pytest.approx(0.25)    # dead: risk 1 to win 3... 1/4
    assert cf.take_point(GAMMONLESS, x=1.0) == pytest.approx(0.20)    # fully live: 1/5
    assert cf.take_point(GAMMONLESS, x=0.68) == pytest.approx(0.5 / 2.34)   # 21.37 %
    assert cf.cash_point(GAMMONLESS, x=1.0) == pytest.approx(0.80)


def test_take_point_with_the_doublers_gammons():
    # The doubler wins 1.5 points a win on average: the taker's loss is worth 1.5,
    # dead cube: (1.5 - 0.5) / (1 + 1.5) = 0.4.
    assert cf.take_point(chances(0.7, 0.5), x=0.0) == pytest.approx(0.4)


def test_doubling_points_without_gammons():
    assert cf.doubling_point(GAMMONLESS, x=0.0) == pytest.approx(0.5)
    assert cf.doubling_point(GAMMONLESS, x=1.0) == pytest.approx(0.8)
    assert cf.doubling_point(GAMMONLESS, x=2 / 3) == pytest.approx(11 / 16)
    assert cf.doubling_point(GAMMONLESS, x=2 / 3, owner="own") == pytest.approx(5 / 7)
    assert cf.doubling_point(GAMMONLESS, x=1.0, owner="own") == pytest.approx(0.8)
    with pytest.raises(BackgammonError, match="owner"):
        cf.doubling_point(GAMMONLESS, owner="opponent")


def _bisect(f, lo: float, hi: float) -> float:
    for _ in range(60):
        mid = (lo + hi) / 2
        if (f(lo) > 0) == (f(mid) > 0):
            lo = mid
        else:
            hi = mid
    return (lo + hi) / 2


@pytest.mark.parametrize("x", [0.0, 0.3, 0.68, 1.0])
@pytest.mark.parametrize("rates", [(0.0, 0.0), (0.3, 0.1), (0.1, 0.4)])
@pytest.mark.parametrize("owner", ["centred", "own"])
def test_doubling_point_solves_no_double_equals_double_take(x, rates, owner):
    def gain(p):
        c = chances(p, *rates)
        return 2 * cf.money_equity(c, "opponent", x) - cf.money_equity(c, owner, x)

    found = _bisect(gain, 0.3, cf.cash_point(chances(0.6, *rates), x) - 1e-9)
    assert cf.doubling_point(chances(0.6, *rates), x, owner) == pytest.approx(found, abs=1e-6)


@pytest.mark.parametrize("x", [0.0, 0.5, 0.68, 1.0])
@pytest.mark.parametrize("rates", [(0.0, 0.0), (0.3, 0.1), (0.2, 0.5)])
def test_at_the_take_point_taking_and_passing_are_equal(x, rates):
    p = 1 - cf.take_point(chances(0.7, *rates), x)
    # Double, take = twice the doubler's equity with the opponent owning the cube; pass = +1.
    assert 2 * cf.money_equity(chances(p, *rates), "opponent", x) == pytest.approx(1.0)


def test_fully_live_equities_by_hand():
    assert cf.money_equity(GAMMONLESS, "centred", x=1.0) == pytest.approx(0.0)
    assert cf.money_equity(GAMMONLESS, "own", x=1.0) == pytest.approx(0.25)       # -1 + 0.5 * 2 / 0.8
    assert cf.money_equity(GAMMONLESS, "opponent", x=1.0) == pytest.approx(-0.25)
    assert cf.money_equity((0.8, 0, 0, 0, 0), "centred", x=1.0) == pytest.approx(1.0)  # cash point
    assert cf.money_equity((0.2, 0, 0, 0, 0), "centred", x=1.0) == pytest.approx(-1.0)


@pytest.mark.parametrize("owner", ["centred", "own", "opponent"])
def test_a_dead_cube_is_the_cubeless_equity(owner):
    c = (0.62, 0.2, 0.03, 0.1, 0.01)
    assert cf.money_equity(c, owner, x=0.0) == pytest.approx(cf.cubeless_equity(c))
    assert cf.cubeless_equity(c) == pytest.approx(2 * 0.62 - 1 + 0.2 - 0.1 + 0.03 - 0.01)


@pytest.mark.parametrize("x", [0.0, 0.68, 1.0])
def test_swapping_sides_negates_the_equity(x):
    c = (0.62, 0.2, 0.03, 0.1, 0.01)
    assert cf.money_equity(c, "centred", x) == pytest.approx(-cf.money_equity(swap(c), "centred", x))
    assert cf.money_equity(c, "own", x) == pytest.approx(-cf.money_equity(swap(c), "opponent", x))


@pytest.mark.parametrize("owner", ["centred", "own", "opponent"])
@pytest.mark.parametrize("x", [0.0, 0.68, 1.0])
def test_cubeful_equity_rises_with_the_win_chance(owner, x):
    values = [cf.money_equity(chances(i / 100, 0.25, 0.15), owner, x) for i in range(101)]
    assert all(b >= a - 1e-12 for a, b in zip(values, values[1:]))
    # Owning the cube is worth something; the opponent owning it costs.
    mid = chances(0.55, 0.25, 0.15)
    assert cf.money_equity(mid, "own", x) >= cf.money_equity(mid, "centred", x) - 1e-12
    assert cf.money_equity(mid, "centred", x) >= cf.money_equity(mid, "opponent", x) - 1e-12


def test_jacoby_makes_gammons_single_while_the_cube_is_centred():
    c = (0.6, 0.3, 0.0, 0.1, 0.0)
    assert cf.money_equity(c, "centred", x=0.0, jacoby=True) == pytest.approx(0.2)   # 2 p - 1
    assert cf.money_equity(c, "own", x=0.0, jacoby=True) == pytest.approx(cf.cubeless_equity(c))


@pytest.mark.parametrize("bad, error", [
    ((0.5, 0.6, 0, 0, 0), BackgammonError),      # more gammons than wins
    ((0.5, 0.1, 0.2, 0, 0), BackgammonError),    # more backgammons than gammons
    ((0.7, 0, 0, 0.4, 0), BackgammonError),      # lose gammon above the loss chance
    ((1.5, 0, 0, 0, 0), BackgammonError),
    ((0.5, 0, 0, 0), BackgammonError),
    (("a", 0, 0, 0, 0), TypeError),
    (0.5, TypeError),
])
def test_bad_chances_are_refused(bad, error):
    with pytest.raises(error):
        cf.money_equity(bad)


def test_bad_arguments_are_refused():
    with pytest.raises(BackgammonError, match="owner"):
        cf.money_equity(GAMMONLESS, "mine")
    with pytest.raises(BackgammonError, match="efficiency"):
        cf.money_equity(GAMMONLESS, x=1.5)


def test_chances_as_an_object_with_named_fields():
    class E:
        win, win_gammon, win_backgammon, lose_gammon, lose_backgammon = 0.6, 0.2, 0.0, 0.1, 0.0
    assert cf.cubeless_equity(E()) == pytest.approx(0.3)


def _race(own: dict[int, int], opp: dict[int, int]) -> Position:
    a = [0] * 26
    for p, n in own.items():
        a[p] = n
    for p, n in opp.items():
        a[p] = -n
    return Position.from_array(a)


def test_cube_efficiency_defaults():
    assert cf.cube_efficiency(Position.initial()) == 0.68
    # Both sides in their home boards: 0.6.
    assert cf.cube_efficiency(_race({1: 15}, {24: 15})) == 0.6
    # A race: the opponent's 15 checkers on our 9-point (their 16-point) = 240 pips: 0.85 -> 0.7.
    assert cf.cube_efficiency(_race({1: 15}, {9: 15})) == 0.7
    # Opponent on our 20-point (their 5-point) and 15-point (their 10-point): 10 * 5 + 5 * 10 = 100 pips.
    assert cf.cube_efficiency(_race({8: 15}, {20: 10, 15: 5})) == pytest.approx(0.55 + 0.125)
    # The opponent home, but we are not bearing off: 15 * 5 = 75 pips -> 0.64375.
    assert cf.cube_efficiency(_race({7: 15}, {20: 15})) == pytest.approx(0.64375)
