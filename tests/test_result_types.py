"""What results give users: dice as text everywhere, probability intervals in [0, 1]."""

from __future__ import annotations

import numpy as np
import pytest

import backgammon as bg
from backgammon.errors import BackgammonError
from boards import board


@pytest.mark.parametrize("text", ["31", "3-1", "3 1", "3,1", "3/1", " 31 "])
def test_dice_as_text_everywhere(text):
    pos = bg.Position.initial()
    assert list(pos.legal_plays(text)) == list(pos.legal_plays((3, 1)))
    assert pos.legal_moves(text) == pos.legal_moves((3, 1))
    assert pos.play([(8, 5), (6, 5)], text) == pos.play([(8, 5), (6, 5)], (3, 1))
    assert pos.parse_play("8/5 6/5", text) == pos.parse_play("8/5 6/5", (3, 1))
    g = bg.Game()
    g.roll(text)
    assert g.dice == (3, 1)
    assert bg.Game.from_position(pos, dice=text).dice == (3, 1)
    results, offsets = bg.batch_successors(pos.to_array()[None, :], [text])
    assert len(results) == len(pos.legal_plays((3, 1)))


@pytest.mark.parametrize("text", ["71", "30", "311", "3--1", "", "x1", "3" * 1000])
def test_text_that_is_no_dice_is_refused(text):
    pos = bg.Position.initial()
    with pytest.raises(BackgammonError, match="dice"):
        pos.legal_plays(text)
    g = bg.Game()
    with pytest.raises(BackgammonError, match="dice"):
        g.roll(text)
    assert g.actions == () and g.phase is bg.Phase.OPENING  # unchanged


def test_probability_intervals_stay_inside_0_1():
    # the opening: backgammons are rare, so a plain interval of 72 games would reach
    # below 0; every chance's interval is kept inside [0, 1], the equity's is not
    for kw in ({}, {"cube": True}):
        r = bg.rollout(bg.Position.initial(), games=72, seed=3, **kw)
        for name in ("win", "win_gammon", "win_backgammon", "lose_gammon", "lose_backgammon"):
            e = getattr(r, name)
            assert 0.0 <= e.low <= e.value <= e.high <= 1.0, (name, e)
    # a sure win: every game won, the chance 1 and its interval [1, 1]
    r = bg.rollout(board({1: 1}, {19: 3, 20: 3, 21: 3}), games=72, seed=3)
    assert (r.win.low, r.win.value, r.win.high) == (1.0, 1.0, 1.0)
    rows = bg.rollout_plays(bg.Position.initial(), "31", top=2, games=72, seed=1,
                            policy="pubeval")
    for row in rows:
        for e in (row.win, row.win_gammon, row.win_backgammon, row.lose_gammon,
                  row.lose_backgammon):
            assert 0.0 <= e.low <= e.high <= 1.0
    assert np.isfinite(rows[0].equity.low)
