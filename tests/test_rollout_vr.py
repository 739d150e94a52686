"""Luck adjustment (variance reduction), rotation of the first three rolls and
truncated rollouts (issue 12)."""

from __future__ import annotations

import math
from collections import Counter

import numpy as np
import pytest

import backgammon as bg
from backgammon import _bgcore
from boards import board


RACE = board({6: 3, 5: 3, 4: 3, 3: 2, 2: 2, 8: 2}, {19: 3, 20: 3, 21: 3, 22: 2, 23: 2, 17: 2})
# Our last checker on 6, theirs on their 1-point: we win unless the roll
# moves fewer than 6 pips in one checker (9 of 36 rolls), P(win) = 27/36.
LAST_CHECKERS = board({6: 1}, {24: 1})


def test_an_exact_evaluator_leaves_no_luck_unexplained():
    # Both sides home: the evaluator is the bear-off database, exact here, so
    # a game's result minus its luck telescopes to the value of the start:
    # every adjusted game is 27/36, with plain dice as well.
    r = bg.rollout(LAST_CHECKERS, games=500, seed=4, stratify=False, variance_reduction=True)
    assert r.win.value == pytest.approx(27 / 36, abs=1e-6)
    assert r.win.stderr < 1e-6
    assert r.equity.value == pytest.approx(0.5, abs=1e-6)
    assert r.plain_equity.stderr > 0.01  # the games themselves vary
    assert "luck adjustment cut" in str(r)


@pytest.mark.slow
def test_luck_adjustment_keeps_the_mean():
    # Unbiased: a luck-adjusted rollout agrees with a large plain one
    # within four standard errors of the difference.
    vr = bg.rollout(RACE, games=432, seed=21, variance_reduction=True)
    plain = bg.rollout(RACE, games=1296 * 8, seed=22)
    for name in ("win", "equity"):
        a, b = getattr(vr, name), getattr(plain, name)
        assert abs(a.value - b.value) < 4 * math.hypot(a.stderr, b.stderr)


@pytest.mark.slow
def test_luck_adjustment_narrows_the_error_on_a_contact_position():
    # The opening position: the same games, adjusted and not.
    r = bg.rollout(bg.Position.initial(), games=144, seed=5, variance_reduction=True)
    assert r.plain_equity is not None and r.stratified
    assert r.equity.stderr < r.plain_equity.stderr / 1.5
    # the plain estimate is that of the same games without the adjustment
    plain = bg.rollout(bg.Position.initial(), games=144, seed=5)
    assert plain.mean_plies == r.mean_plies
    assert plain.equity.value == pytest.approx(r.plain_equity.value, abs=1e-9)


def test_cubeful_luck_adjustment_and_any_workers():
    a = bg.rollout(RACE, games=216, seed=3, variance_reduction=True, cube=True, rotation=3)
    b = bg.rollout(RACE, games=216, seed=3, variance_reduction=True, cube=True, rotation=3,
                   workers=2, chunk_games=50)
    assert np.array_equal(a.strata, b.strata)
    assert a.cubeful == b.cubeful and a.plain_cubeful == b.plain_cubeful
    assert a.cubeful.stderr < a.plain_cubeful.stderr


def test_rotation_of_three_rolls():
    # Every 1,296 games give each third roll 36 times; every 46,656 games
    # give each triple of first rolls once (for any offset).
    for offset in (0, 17):
        block = Counter(_bgcore.scheduled_roll(g, 2, 3, offset) for g in range(1296))
        assert sorted(block) == list(range(36)) and set(block.values()) == {36}
        triples = {(_bgcore.scheduled_roll(g, 0, 3, offset), _bgcore.scheduled_roll(g, 1, 3, offset),
                    _bgcore.scheduled_roll(g, 2, 3, offset)) for g in range(46656)}
        assert len(triples) == 46656
    # the first two rolls are today's stratification: the same games
    two = bg.rollout(RACE, games=216, seed=6)
    rotated = bg.rollout(RACE, games=216, seed=6, rotation=2, truncate=10**9)
    assert two.equity.value == pytest.approx(rotated.equity.value, abs=1e-9)
    assert two.mean_plies == rotated.mean_plies


def test_truncated_rollouts():
    pos = bg.Position.initial()
    chances = bg.Evaluator.default().evaluate(pos)
    # truncate=0 scores every game at the start: the evaluator's value, no error but
    # the rounding of the core's sums of squares (kept to 2**-ROLLOUT_SHIFT2 a game)
    r = bg.rollout(pos, games=72, seed=1, truncate=0)
    assert r.equity.stderr <= math.sqrt(2.0 ** -_bgcore.ROLLOUT_SHIFT2) and r.mean_plies == 0.0
    assert r.win.value == pytest.approx(chances.win, abs=1e-6)
    assert r.equity.value == pytest.approx(chances.equity, abs=1e-5)
    # a decided position (both home, the bear-off database exact): its value
    r = bg.rollout(LAST_CHECKERS, games=72, seed=1, truncate=0)
    assert r.win.value == pytest.approx(27 / 36, abs=1e-6)
    # a game that ends before the truncation is scored by its result
    sure = board({1: 1}, {19: 3, 20: 3, 21: 3})
    r = bg.rollout(sure, games=72, seed=1, truncate=5, cube=True)
    assert r.equity.value == 1.0 and r.cubeful.value == 1.0 and r.mean_plies == 1.0
    # after one ply the games are short and still centred on the value
    r = bg.rollout(RACE, games=1296, seed=2, truncate=2)
    assert r.mean_plies <= 2.0
    full = bg.rollout(RACE, games=1296 * 4, seed=3)
    assert abs(r.equity.value - full.equity.value) < 4 * math.hypot(r.equity.stderr,
                                                                     full.equity.stderr) + 0.05
    assert "truncated after 2 plies" in str(r)


def test_bad_options():
    with pytest.raises(bg.RolloutError, match="rotation"):
        bg.rollout(RACE, games=10, rotation=4)
    with pytest.raises(bg.RolloutError, match="rotation"):
        bg.rollout(RACE, games=10, rotation=2, stratify=False)
    with pytest.raises(bg.RolloutError, match="truncate"):
        bg.rollout(RACE, games=10, truncate=-1)
    with pytest.raises(bg.RolloutError, match="net policy"):
        bg.rollout(RACE, games=10, variance_reduction=True, policy="random")
    with pytest.raises(TypeError):
        bg.rollout(RACE, games=10, variance_reduction=1)


@pytest.mark.slow
def test_match_luck_adjustment():
    from backgammon.game import Game

    # Double match point: the cubeful match winning chance of a position is
    # its cubeless win chance, so the two adjusted figures agree game by game.
    dmp = Game.from_position(RACE, match_length=1)
    r = bg.rollout(dmp, games=216, seed=12, cube=True, variance_reduction=True)
    assert r.match
    assert r.cubeful.value == pytest.approx(r.win.value, abs=1e-6)
    assert r.cubeful.stderr < r.plain_cubeful.stderr
    # a 5-point match from the opening: narrower, and the same for any workers
    game = Game.from_position(bg.Position.initial(), match_length=5, score=(2, 1))
    fast = bg.Evaluator.fast()  # the adjustment, not the weights, is under test
    a = bg.rollout(game, games=108, seed=13, cube=True, variance_reduction=True, policy=fast)
    b = bg.rollout(game, games=108, seed=13, cube=True, variance_reduction=True, workers=2,
                   policy=fast)
    assert np.array_equal(a.strata, b.strata)
    assert a.cubeful.stderr < a.plain_cubeful.stderr
    assert abs(a.cubeful.value - a.plain_cubeful.value) < 4 * a.plain_cubeful.stderr


def test_a_set_cancel_token_stops_the_loop():
    # The core loop checks its token once a game (cancel.h): a token already
    # set stops it before the first game.
    token = _bgcore.Cancel()
    token.set()
    nets = bg.Evaluator.default()._nets
    with pytest.raises(_bgcore.Cancelled):
        _bgcore.rollout_games(RACE._b, 1, 0, 1000, nets, cube=True, vr=True, cancel=token)
