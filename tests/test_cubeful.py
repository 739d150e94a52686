"""Cubeful money equity (Janowski), take, cash and doubling points, cube efficiency.

Expected values are worked by hand from the model in backgammon/cubeful.py's
docstring; the doubling points are also found by an independent bisection of
"no double = double, take" on the equity functions.
"""

from __future__ import annotations

import pytest

from backgammon import Position
from backgammon.cube import cubeful as cf
from backgammon.errors import BackgammonError
from boards import board

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


def test_cube_efficiency_defaults():
    assert cf.cube_efficiency(Position.initial()) == 0.68
    # Both sides in their home boards: 0.6.
    assert cf.cube_efficiency(board({1: 15}, {24: 15})) == 0.6
    # Races count the pips of the player on roll (as gnubg does).
    # 15 checkers on the 9-point: 135 pips, 0.55 + 0.16875 -> 0.7 at most.
    assert cf.cube_efficiency(board({9: 15}, {20: 15})) == 0.7
    # 10 on the 8-point and 5 on the 2-point: 90 pips -> 0.6625, whatever the opponent has.
    assert cf.cube_efficiency(board({8: 10, 2: 5}, {20: 10, 15: 5})) == pytest.approx(0.6625)
    assert cf.cube_efficiency(board({8: 10, 2: 5}, {24: 15})) == pytest.approx(0.6625)
    # 15 on our 1-point against checkers outside their home board: 15 pips -> 0.6 at least.
    assert cf.cube_efficiency(board({1: 15}, {9: 15})) == 0.6


# ---------------------------------------------------------------- match play

def test_double_match_point_is_the_win_chance_whatever_the_gammons():
    for x in (0.0, 0.68, 1.0):
        assert cf.match_equity((0.6, 0.3, 0.1, 0.2, 0.05), 1, 1, x=x) == pytest.approx(0.6)


def test_the_crawford_game_has_a_dead_cube():
    # 2-away vs 1-away: a single win leads to DMP (0.5), a gammon wins the match.
    c = (0.5, 0.1, 0.0, 0.05, 0.0)
    for x in (0.0, 0.68, 1.0):
        assert cf.match_equity(c, 2, 1, x=x) == pytest.approx(0.4 * 0.5 + 0.1 * 1.0)


def test_post_crawford_trailer_two_away_doubles_at_once():
    # On a 2-cube the game decides the match: the trailer's chance is p; passing
    # leaves both 1-away (0.5), so the leader takes below 50 %.
    c = (0.45, 0.0, 0.0, 0.0, 0.0)
    assert cf.match_equity(c, 2, 1, cube=2, owner="opponent", post_crawford=True) == pytest.approx(0.45)
    d = CubeDecision.from_chances(c, score=(2, 1), post_crawford=True)
    assert d.action == "Double, take" and d.take
    assert d.double_take == pytest.approx(0.45) and d.double_pass == pytest.approx(0.5)
    assert d.no_double < d.double_take


@pytest.mark.parametrize("owner, other", [("centred", "centred"), ("own", "opponent")])
@pytest.mark.parametrize("score", [(5, 3), (7, 7), (2, 4), (3, 1)])
def test_match_equity_is_symmetric_between_the_sides(owner, other, score):
    c = (0.58, 0.17, 0.01, 0.09, 0.004)
    a, b = score
    post = 1 in score
    assert cf.match_equity(c, a, b, 1, owner, post_crawford=post) == pytest.approx(
        1 - cf.match_equity(swap(c), b, a, 1, other, post_crawford=post))


@pytest.mark.parametrize("owner", ["centred", "own", "opponent"])
@pytest.mark.parametrize("score", [(5, 3), (9, 9), (4, 1)])
def test_match_equity_rises_with_the_win_chance(owner, score):
    values = [cf.match_equity(chances(i / 50, 0.2, 0.1), *score, cube=2 if owner != "centred" else 1,
                              owner=owner, post_crawford=1 in score) for i in range(51)]
    assert all(b >= a - 1e-12 for a, b in zip(values, values[1:]))
    assert all(0.0 <= v <= 1.0 for v in values)


@pytest.mark.parametrize("c", [(0.5, 0.15, 0.01, 0.1, 0.005), (0.72, 0.2, 0.01, 0.05, 0.0),
                               (0.3, 0.05, 0.0, 0.2, 0.01)])
@pytest.mark.parametrize("owner", ["centred", "own", "opponent"])
def test_long_matches_agree_with_money_play(c, owner):
    # At 25-away each, match winning chances rescaled so that a single win of
    # the stake is +1 and a single loss -1 give the money equity.  The residue
    # comes from the table's gammon value (0.508 against money's 0.5) and its
    # slight curvature: 0.01 bounds both.
    from backgammon.cube import met
    win, lose = met.equity(24, 25), met.equity(25, 24)
    m = cf.match_equity(c, 25, 25, owner=owner, cube=1 if owner == "centred" else 2)
    if owner != "centred":
        win, lose = met.equity(23, 25), met.equity(25, 23)
    assert 2 * (m - lose) / (win - lose) - 1 == pytest.approx(cf.money_equity(c, owner), abs=0.01)


def test_match_equity_bad_arguments():
    with pytest.raises(BackgammonError, match="power of two"):
        cf.match_equity(GAMMONLESS, 3, 3, cube=3)
    with pytest.raises(BackgammonError, match="owner"):
        cf.match_equity(GAMMONLESS, 3, 3, owner="me")
    with pytest.raises(BackgammonError, match="beyond"):
        cf.match_equity(GAMMONLESS, 32768, 3)


# ---------------------------------------------------------------- decisions

from backgammon.cube import CubeDecision  # noqa: E402
from backgammon.rules import Rules  # noqa: E402


def test_even_position_no_double_take():
    d = CubeDecision.from_chances(GAMMONLESS)
    # Centred and even: 0 by symmetry; doubling hands over a live cube: 2 x 0.68 x (-0.25).
    assert d.no_double == pytest.approx(0.0) and d.double_take == pytest.approx(-0.34)
    assert d.double_pass == 1.0
    assert (d.action, d.take, d.beaver) == ("No double, take", True, False)
    assert d.errors == pytest.approx({"no double": 0.0, "double": 0.34, "take": 0.0, "pass": 1.34})


def test_past_the_cash_point_double_pass():
    # p = 0.85, no gammons: live 1 (past the 80 % cash point), dead 0.7:
    # ND = 0.68 + 0.32 x 0.7 = 0.904; D/T = 2 (0.68 x 0.625 + 0.32 x 0.7) = 1.298.
    d = CubeDecision.from_chances((0.85, 0, 0, 0, 0))
    assert d.no_double == pytest.approx(0.904) and d.double_take == pytest.approx(1.298)
    assert (d.action, d.take) == ("Double, pass", False)
    assert d.errors["no double"] == pytest.approx(0.096) and d.errors["take"] == pytest.approx(0.298)


def test_a_certain_win_without_gammons_is_double_pass():
    assert CubeDecision.from_chances((1.0, 0, 0, 0, 0)).action == "Double, pass"


def test_too_good_to_double():
    # p = 0.9 with 60 % gammons: W = 5/3, cash point 2 / (19/6) = 12/19, ND = 1.458 > 1.
    d = CubeDecision.from_chances((0.9, 0.6, 0.0, 0.0, 0.0))
    assert d.no_double == pytest.approx(0.68 * (1 + (0.9 - 12 / 19) * (2 / 3) / (7 / 19)) + 0.32 * 1.4)
    assert d.action == "Too good to double, pass"


def test_redouble_and_beaver_spellings():
    assert CubeDecision.from_chances((0.85, 0, 0, 0, 0), owner="own", cube=2).action == "Redouble, pass"
    d = CubeDecision.from_chances((0.3, 0.0, 0.0, 0.1, 0.0), rules=Rules(beaver=True))
    assert (d.action, d.beaver, d.take) == ("No double, beaver", True, True)
    assert CubeDecision.from_chances((0.3, 0.0, 0.0, 0.1, 0.0)).action == "No double, take"


@pytest.mark.parametrize("kwargs, why", [
    ({"owner": "opponent", "cube": 2}, "opponent owns"),
    ({"cube": 64}, "limit"),
    ({"score": (5, 1)}, "Crawford"),
])
def test_doubling_not_available(kwargs, why):
    d = CubeDecision.from_chances((0.7, 0.1, 0.0, 0.05, 0.0), **kwargs)
    assert not d.available and why in d.action and d.action.startswith("No ")
    assert "Double" not in str(d).split("Proper")[0]


@pytest.mark.parametrize("c", [(0.5, 0, 0, 0, 0), (0.7, 0.1, 0, 0.05, 0), (0.8, 0.3, 0.02, 0.05, 0),
                               (0.95, 0.6, 0.1, 0.0, 0.0), (0.66, 0.05, 0, 0.01, 0)])
@pytest.mark.parametrize("score", [None, (5, 3), (3, 5), (7, 7), (2, 1)])
def test_action_agrees_with_the_equities(c, score):
    d = CubeDecision.from_chances(c, score=score, post_crawford=score is not None and 1 in score)
    doubled = min(d.double_take, d.double_pass)
    assert d.take == (d.double_take <= d.double_pass)
    if d.action.startswith("Double"):
        assert doubled >= d.no_double - 1e-9
    else:
        assert doubled <= d.no_double + 1e-9
    assert d.action.startswith("Too good") == (d.action.startswith("Too") and d.no_double > d.double_pass)
    assert min(d.errors.values()) == pytest.approx(0.0) and all(v >= 0 for v in d.errors.values())
    text = str(d)
    assert d.action in text and "Cube decision" in text and d._repr_html_().startswith("<table>")


@pytest.mark.parametrize("kwargs", [
    {"rules": Rules(cube=False)},
    {"cube": 64, "owner": "own"},
    {"cube": 4, "owner": "opponent", "rules": Rules(max_cube=4)},
])
def test_a_cube_that_cannot_move_is_dead(kwargs):
    c = (0.62, 0.2, 0.03, 0.1, 0.01)
    d = CubeDecision.from_chances(c, **kwargs)
    assert not d.available
    assert d.no_double == pytest.approx(cf.cubeless_equity(c))
