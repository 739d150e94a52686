"""The cubeful search (backgammon.cube.search): the cube played at every node."""

from __future__ import annotations

import numpy as np
import pytest

import backgammon as bg
from backgammon import _bgcore
from backgammon.cube import cubeful
from backgammon.cube.search import (CubeState, decision_values, efficiencies, leaf_values,
                                    position_values)
from backgammon.nn import rank_plays
from test_analysis import _board

ROLLS = [(a, b) for a in range(1, 7) for b in range(a, 7)]


def _rows(*positions: bg.Position) -> np.ndarray:
    return np.array([p.to_array() for p in positions], np.int8)


# ---------------------------------------------------------------- hand-worked

def test_the_last_roll_leaves_the_cube_no_leverage():
    # Two checkers on my 6-point against one on the opponent's ace: I win now with
    # 3-3, 4-4, 5-5 or 6-6 (4 of 36), else the opponent bears off next turn.  No
    # gammons (both sides have borne off).  Every node below is decided: the
    # opponent's doubles change nothing (they win at once), so no double is worth
    # 4/36 - 32/36 = -7/9 a unit and double, take twice that; a pass gives +1.
    # Janowski's model at the root would count cube leverage that the game's
    # end leaves none of.
    pos = _board({6: 2}, {1: 1})
    ev = bg.Evaluator.default()
    money = CubeState.money()
    for ply in (1, 2):
        v = decision_values(ev, _rows(pos), money, ply)
        assert v.no_double == pytest.approx(-7 / 9, abs=1e-6)
        assert v.double_take == pytest.approx(-14 / 9, abs=1e-6)
        assert v.double_pass == 1.0 and not v.beaver
        assert v.chances[0] == pytest.approx(1 / 9, abs=1e-6)
    janowski = cubeful.money_equity((1 / 9, 0, 0, 0, 0), "centred", x=0.68)
    assert janowski < -7 / 9 - 0.1
    d = bg.cube_decision(pos, ply=2)
    assert d.action == "No double, take"
    assert d.errors["double"] == pytest.approx(7 / 9, abs=1e-6)
    # with beavers the taker, a 32-to-4 favourite, beavers: the double is worth 4 x -7/9
    beavers = CubeState.money(rules=bg.Rules(beaver=True))
    v = decision_values(ev, _rows(pos), beavers, 2)
    assert v.beaver and v.double_take == pytest.approx(-28 / 9, abs=1e-6)
    d = bg.cube_decision(pos, ply=2, rules=bg.Rules(beaver=True))
    assert d.action == "No double, beaver" and d.beaver and d.take


def test_a_sure_win_cashes_and_is_worth_the_cube_at_every_node():
    # One checker on my ace against fifteen at home with one borne off: every roll
    # wins a single game.  Top: no double 1, double, take 2, pass 1: double, pass.
    # As the value of a position (not the top) the player doubles and is passed: 1.
    pos = _board({1: 1}, {6: 14})
    ev = bg.Evaluator.default()
    v = decision_values(ev, _rows(pos), CubeState.money(), 1)
    assert (v.no_double, v.double_take, v.double_pass) == pytest.approx((1.0, 2.0, 1.0))
    assert bg.cube_decision(pos, ply=1).action == "Double, pass"
    assert position_values(ev, _rows(pos), CubeState.money(), 1) == pytest.approx([1.0])
    # the opponent owns the cube at 2: no double possible; the cube's 2 points won
    owned = CubeState.money(2, "opponent")
    assert position_values(ev, _rows(pos), owned, 1) == pytest.approx([1.0])
    assert decision_values(ev, _rows(pos), owned, 1).no_double == pytest.approx(1.0)


@pytest.mark.parametrize("state, expected", [
    (CubeState.money(), True),
    (CubeState.money(1, "own"), True),
    (CubeState.money(2, "opponent"), False),
    (CubeState.money(64), False),                                   # the default limit
    (CubeState.money(rules=bg.Rules(cube=False)), False),
    (CubeState(1, "centred", (5, 3), False, bg.Rules()), True),
    (CubeState(2, "own", (2, 5), False, bg.Rules()), False),        # 2-away at 2: dead
    (CubeState(1, "centred", (1, 4), False, bg.Rules()), False),    # the Crawford game
    (CubeState(1, "centred", (4, 1), False, bg.Rules()), False),
    (CubeState(1, "centred", (4, 1), True, bg.Rules()), True),      # the trailer after it
    (CubeState(1, "centred", (1, 4), True, bg.Rules()), False),     # the leader: dead
    (CubeState(1, "centred", (1, 1), False, bg.Rules()), False),    # double match point
])
def test_who_may_double(state, expected):
    assert state.can_double is expected


def test_states_flip_and_double():
    s = CubeState(2, "own", (3, 5), False, bg.Rules())
    assert s.flipped() == CubeState(2, "opponent", (5, 3), False, bg.Rules())
    assert s.doubled() == CubeState(4, "opponent", (3, 5), False, bg.Rules())
    assert s.flipped().flipped() == s
    with pytest.raises(bg.BackgammonError, match="owner"):
        CubeState(1, "mine", None, False, bg.Rules())


# ---------------------------------------------------------------- a slow search

FULL = bg.Evaluator.default().with_pruning(keep=0)   # the slow search ranks every play


def _slow_leaf(pos: bg.Position, s: CubeState) -> float:
    """Janowski's value of one position in points (money) or MWC, from the Python model."""
    e = bg.evaluate(pos, 0, evaluator=FULL)
    chances = (e.win, e.win_gammon, e.win_backgammon, e.lose_gammon, e.lose_backgammon)
    r = s.rules
    x = cubeful.cube_efficiency(pos)
    if s.score is None:
        if not r.can_double_to(2 * s.cube):
            x = 0.0
        return s.cube * cubeful.money_equity(chances, s.owner, x, jacoby=r.jacoby)
    return cubeful.match_equity(chances, s.score[0], s.score[1], s.cube, s.owner, x,
                                s.post_crawford, r.max_cube)


def _slow(pos: bg.Position, s: CubeState, ply: int, top: bool) -> float:
    """The search, one position and one play at a time, from the public API."""
    def nd_of(state: CubeState) -> float:
        if ply == 0 or pos.outcome() is not None:
            return _slow_leaf(pos, state)
        total = 0.0
        for dice in ROLLS:
            best = rank_plays(pos, dice, 0, FULL)[0].play
            theirs = _slow(best.result.swapped(), state.flipped(), ply - 1, False)
            mine = -theirs if state.score is None else 1.0 - theirs
            total += (1 if dice[0] == dice[1] else 2) / 36 * mine
        return total
    nd = nd_of(s)
    if top or not s.can_double:
        return nd
    dt = nd_of(s.doubled())
    dp = s.cube * s.double_pass() if s.score is None else s.double_pass()
    return min(dt, dp) if dt >= nd and dp >= nd else nd


POSITIONS = {
    "blitz": "2LYFAHRmW6EBJA",          # three of the opponent's checkers on the bar
    "opening": "4HPwATDgc/ABMA",
    "race": "2+4OAADfbgAAAA",
}
STATES = [
    CubeState.money(),
    CubeState.money(2, "own"),
    CubeState.money(2, "opponent"),
    CubeState.money(rules=bg.Rules(jacoby=True)),
    CubeState(1, "centred", (5, 3), False, bg.Rules()),
    CubeState(2, "opponent", (2, 4), False, bg.Rules()),
    CubeState(1, "centred", (3, 1), True, bg.Rules()),
]


@pytest.mark.parametrize("name", sorted(POSITIONS))
def test_position_values_match_a_slow_search_at_one_ply(name):
    pos = bg.Position.from_position_id(POSITIONS[name])
    ev = FULL
    for s in STATES:
        got = position_values(ev, _rows(pos), s, 1)[0]
        want = _slow(pos, s, 1, False)
        want = want / s.cube if s.score is None else want
        assert got == pytest.approx(want, abs=2e-5), (name, s)


def test_decision_values_match_a_slow_search_at_two_plies():
    pos = bg.Position.from_position_id(POSITIONS["blitz"])
    ev = FULL
    for s in (CubeState.money(4, "own"), CubeState(1, "centred", (5, 3), False, bg.Rules())):
        v = decision_values(ev, _rows(pos), s, 2)
        nd, dt = _slow(pos, s, 2, True), _slow(pos, s.doubled(), 2, True)
        if s.score is None:
            nd, dt = nd / s.cube, dt / s.cube
        assert (v.no_double, v.double_take) == pytest.approx((nd, dt), abs=2e-5)
        e = bg.evaluate(pos, 2, evaluator=ev, filtered=True)
        assert v.chances == pytest.approx((e.win, e.win_gammon, e.win_backgammon,
                                           e.lose_gammon, e.lose_backgammon), abs=1e-6)


def test_at_zero_ply_a_position_is_worth_its_players_cube_action():
    ev = bg.Evaluator.default()
    pos = bg.Position.from_position_id(POSITIONS["blitz"])
    boards = _rows(pos)
    s = CubeState.money(2, "own")
    chances = ev.evaluate_batch(boards)
    d = bg.CubeDecision.from_chances(chances[0], cube=2, owner="own",
                                     x=cubeful.cube_efficiency(pos))
    doubled = min(d.double_take, d.double_pass)
    want = doubled if doubled >= d.no_double else d.no_double
    assert position_values(ev, boards, s, 0)[0] == pytest.approx(want, abs=1e-9)
    assert leaf_values(chances, boards, s)[0] == pytest.approx(d.no_double, abs=1e-9)


def test_cube_decision_at_depth_is_the_search():
    pos = bg.Position.from_position_id(POSITIONS["blitz"])
    d = bg.cube_decision(pos, ply=2, cube=4, owner="own")
    v = decision_values(bg.Evaluator.default(), _rows(pos), CubeState.money(4, "own"), 2)
    assert (d.no_double, d.double_take, d.double_pass) == (v.no_double, v.double_take, 1.0)
    assert d.probabilities == v.chances and d.x == cubeful.cube_efficiency(pos)
    game = bg.Game.from_position(pos)
    assert game.cube_decision(ply=1) == bg.cube_decision(pos, ply=1)


def test_efficiencies_and_per_row_efficiencies_in_the_core():
    pos = [bg.Position.from_position_id(i) for i in POSITIONS.values()]
    boards = _rows(*pos)
    assert efficiencies(boards) == pytest.approx([cubeful.cube_efficiency(p) for p in pos])
    chances = bg.Evaluator.default().evaluate_batch(boards)
    xs = np.array([0.0, 0.5, 1.0])
    rows = _bgcore.cube_decide_batch(chances, x=xs)[0]
    for i, x in enumerate(xs):
        assert rows[i] == pytest.approx(_bgcore.cube_decide_batch(chances[i:i + 1], x=float(x))[0][0])
    for bad in (np.array([0.5, 0.5]), np.array([0.5, 0.5, 1.5]), np.array([0.5, np.nan, 0.5])):
        with pytest.raises(bg.BackgammonError):
            _bgcore.cube_decide_batch(chances, x=bad)


def test_bad_input_is_refused():
    ev = bg.Evaluator.default()
    board = _rows(bg.Position.initial())
    with pytest.raises(bg.BackgammonError, match="ply"):
        position_values(ev, board, CubeState.money(), 3)
    with pytest.raises(bg.BackgammonError, match="shape"):
        position_values(ev, board[:, :20], CubeState.money(), 0)

    class Flat:
        def evaluate_batch(self, boards):
            return np.full((len(boards), 5), 0.2, np.float32)
    with pytest.raises(bg.BackgammonError, match="Evaluator"):
        position_values(Flat(), board, CubeState.money(), 1)
    assert position_values(Flat(), board, CubeState.money(), 0).shape == (1,)
    with pytest.raises(bg.BackgammonError, match="nets"):
        bg.cube_decision(bg.Position.initial(), ply=1, evaluator=Flat())
