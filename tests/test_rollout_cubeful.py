"""Cubeful rollouts (issue 11): both sides double, take and pass by the
evaluator's 0-ply cube decisions; expected answers worked by hand."""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor

import numpy as np
import pytest

import backgammon as bg
from backgammon.cube import met
from backgammon.game import Game, Phase
from boards import board

RACE_GAMES = 216


# One checker on our 1-point: any roll bears it off; the opponent has borne
# off 6, so no gammon either way: a sure single win (RULES 7.2).
SURE_WIN = board({1: 1}, {19: 3, 20: 3, 21: 3})
# Five checkers on our 6-point (10 off): no roll bears off five (6-6 takes
# four), then their last checker, on their 1-point, leaves with any roll: a
# sure single loss.
SURE_LOSS = board({6: 5}, {24: 1})
# A race with play in it, for the statistical checks (cheap games).
RACE = board({6: 3, 5: 3, 4: 3, 3: 2, 2: 2, 8: 2}, {19: 3, 20: 3, 21: 3, 22: 2, 23: 2, 17: 2})


def test_sure_win_doubles_and_cashes():
    # p = 1, no gammons: the cubeful equity centred is 1 (x * 1 + (1 - x) * 1),
    # doubled and taken 2, so the opponent passes and double/pass (+1) ties
    # no double: cube.h cashes on a tie.  Every game is +1 exactly.
    r = bg.rollout(SURE_WIN, games=72, seed=5, cube=True)
    assert r.cube and not r.match
    assert r.cubeful.value == 1.0 and r.cubeful.stderr == 0.0
    assert r.equity.value == 1.0
    assert r.mean_plies == 1.0


def test_a_gammon_nobody_can_avoid_is_too_good_to_double():
    # Two checkers on the 1-point against 15 not off: a sure gammon.  No
    # double is worth 2, double/pass 1: too good, play on, win 2 (RULES 7.3).
    pos = board({1: 2}, {19: 3, 20: 3, 21: 3, 22: 3, 23: 3})
    assert bg.rollout(pos, games=72, seed=5, cube=True).cubeful.value == 2.0
    # Jacoby (RULES 9.1): the gammon counts single with the cube centred,
    # so no double is worth 1 and the player cashes: +1.
    game = Game.from_position(pos, rules=bg.Rules(jacoby=True))
    assert bg.rollout(game, games=72, seed=5, cube=True).cubeful.value == 1.0


def test_per_unit_of_the_starting_stake():
    # The player on roll owns the cube on 2: redouble, pass: 2 points, +1 per
    # unit of the starting stake; the opponent owns it: no redouble, the game
    # is won single on 2: again +1.
    for owner in (0, 1):
        game = Game.from_position(SURE_WIN, cube=2, cube_owner=owner)
        r = bg.rollout(game, games=72, seed=5, cube=True)
        assert r.cubeful.value == 1.0 and r.cubeful.stderr == 0.0


def test_sure_loss_money_and_match():
    # We cannot double (p = 0); the opponent, sure of a single win, cashes.
    r = bg.rollout(SURE_LOSS, games=72, seed=2, cube=True)
    assert r.cubeful.value == -1.0 and r.equity.value == -1.0
    table = met.default_table().pre_crawford
    # 4-away against 2-away: the opponent wins 1 point (a pass, or the game
    # on 1) and is then 1-away with the Crawford game next: our chance is
    # 1 - MET(1-away, 4-away).
    game = Game.from_position(SURE_LOSS, match_length=7, score=(3, 5))
    r = bg.rollout(game, games=72, seed=2, cube=True)
    assert r.match
    assert r.cubeful.value == pytest.approx(1 - table[0][3], abs=1e-8)
    # the Crawford game, we 2-away and they 1-away: their win ends the match
    game = Game.from_position(SURE_LOSS, match_length=7, score=(5, 6), crawford=True)
    assert bg.rollout(game, games=72, seed=2, cube=True).cubeful.value == 0.0
    # post-Crawford, we 1-away and they 2-away: they win 1 point (doubling
    # to 2 would win the match, so we pass) and reach 1-away/1-away: 0.5
    game = Game.from_position(SURE_LOSS, match_length=7, score=(6, 5))
    assert bg.rollout(game, games=72, seed=2, cube=True).cubeful.value == pytest.approx(0.5)


def test_dmp_cubeful_is_the_win_chance():
    # Double match point: whatever the cube does the winner of the game wins
    # the match, so each game's match winning chance is its win indicator.
    game = Game.from_position(RACE, match_length=1)
    r = bg.rollout(game, games=RACE_GAMES, seed=9, cube=True)
    assert r.match
    assert r.cubeful.value == r.win.value
    assert r.cubeful.stderr == r.win.stderr


def test_cubeless_figures_are_those_of_cube_false():
    # The plays do not depend on the cube, so the same games are played;
    # cube=False is today's rollout, without cubeful figures.
    plain = bg.rollout(RACE, games=RACE_GAMES, seed=4)
    cubed = bg.rollout(RACE, games=RACE_GAMES, seed=4, cube=True)
    assert plain.cubeful is None and not plain.cube
    for name in ("win", "win_gammon", "win_backgammon", "lose_gammon", "lose_backgammon",
                 "equity"):
        assert getattr(plain, name) == getattr(cubed, name)
    assert plain.mean_plies == cubed.mean_plies
    assert "cubeful" in str(cubed) and "cubeful" not in str(plain)
    assert cubed.to_dict()["cubeful"]["value"] == cubed.cubeful.value


@pytest.mark.parametrize("match", [False, True])
def test_identical_for_any_workers(match):
    start = (Game.from_position(RACE, match_length=5, score=(1, 3)) if match
             else Game.from_position(RACE, rules=bg.Rules(beaver=True)))
    a = bg.rollout(start, games=RACE_GAMES, seed=8, cube=True, workers=1)
    b = bg.rollout(start, games=RACE_GAMES, seed=8, cube=True, workers=3, chunk_games=37)
    assert np.array_equal(a.strata, b.strata)
    assert a.cubeful == b.cubeful and a.equity == b.equity
    with ThreadPoolExecutor(2) as pool:
        c = bg.rollout(start, games=RACE_GAMES, seed=8, cube=True, executor=pool, chunk_games=50)
    assert np.array_equal(a.strata, c.strata)


def test_match_rollouts_stay_within_the_match():
    # Every game's match winning chance is in [0, 1]: per stratum the mean is
    # in [0, 1] and the mean square at most the mean.
    game = Game.from_position(bg.Position.initial(), match_length=3, score=(0, 1))
    r = bg.rollout(game, games=RACE_GAMES, seed=1, cube=True)
    s = r.strata.astype(np.float64)
    n = s[:, 0]
    q = 6  # the cubeful quantity of bg_rollout_range
    sums = s[:, 2 + 2 * q] * 2.0 ** -bg._bgcore.ROLLOUT_SHIFT
    squares = s[:, 3 + 2 * q] * 2.0 ** -bg._bgcore.ROLLOUT_SHIFT2
    seen = n > 0
    assert (sums[seen] >= 0).all() and (sums[seen] <= n[seen] + 1e-9).all()
    assert (squares[seen] <= sums[seen] + 1e-5).all()
    assert 0.0 <= r.cubeful.value <= 1.0


def test_bad_starts_are_refused():
    game = Game.from_position(RACE, dice=(3, 1))
    assert game.phase is Phase.MOVE
    with pytest.raises(bg.RolloutError, match="waiting for a roll"):
        bg.rollout(game, games=10, cube=True)
    with pytest.raises(bg.RolloutError, match="net policy"):
        bg.rollout(RACE, games=10, cube=True, policy="pubeval")
    with pytest.raises(TypeError):
        bg.rollout(RACE, games=10, cube="yes")


def test_saved_cubeful_results_reload_and_stopping_rules():
    import json

    r = bg.rollout(RACE, games=RACE_GAMES, seed=4, cube=True, variance_reduction=True)
    back = bg.RolloutResult.from_dict(json.loads(json.dumps(r.to_dict(strata=True))))
    assert back.cube and back.variance_reduction and back.rotation == 2
    assert back.cubeful == r.cubeful and back.plain_cubeful == r.plain_cubeful
    assert np.array_equal(back.strata, r.strata)
    # a stopping rule: rounds of 1,296 games; an error bound every round meets
    s = bg.rollout(RACE, games=1296 * 3, seed=4, cube=True, stop_error=1.0)
    assert s.games == 1296 and s.stopped and s.cubeful is not None
