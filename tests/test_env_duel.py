"""duel(..., ply=), Bots and callables given the position before the move and the dice."""

from __future__ import annotations

import numpy as np
import pytest

import backgammon as bg


class PubevalBot:
    """pubeval's choice through the Bot protocol."""

    def choose_play(self, game):
        return bg.pubeval.best_play(game.position, game.dice)


def test_identical_players_draw_every_pair():
    # duplicate dice, the same deterministic decisions on both sides: every
    # pair's two games mirror each other, so each pair totals 0
    r = bg.duel(PubevalBot(), "pubeval", games=40, seed=3)
    assert r.games == 40 and r.ppg.value == 0 and r.ppg.stderr == 0
    assert r.wins[0] == r.wins[1] == 20


def test_bot_answers_may_be_notation_or_steps():
    class Text:
        def choose_play(self, game):
            return str(game.position.legal_plays(game.dice)[0])

    class Steps:
        def choose_play(self, game):
            return game.position.legal_plays(game.dice)[0].moves

    a = bg.duel(Text(), "random", games=10, seed=1)
    b = bg.duel(Steps(), "random", games=10, seed=1)
    assert a.ppg == b.ppg and a.wins == b.wins


def test_illegal_bot_play_is_refused():
    class Cheat:
        def choose_play(self, game):
            return "24/1"

    with pytest.raises(bg.BackgammonError):
        bg.duel(Cheat(), "random", games=2, seed=1)


def test_callable_gets_before_and_dice():
    seen = []

    def policy(candidates, *, before, dice):
        pos = bg.Position.from_array(before)
        want = {bytes(r.tobytes()) for r in pos.successors(dice)}
        assert {bytes(c.tobytes()) for c in candidates} == want
        seen.append(dice)
        return -candidates[:, 1:25].clip(min=0).sum(axis=1)

    r = bg.duel(policy, "random", games=6, seed=2)
    assert r.games == 6 and len(seen) > 20
    assert all(1 <= d1 <= 6 and 1 <= d2 <= 6 for d1, d2 in seen)


def test_old_callable_signature_still_batched():
    def scores(candidates):
        return np.zeros(len(candidates))

    r = bg.duel(scores, "random", games=20, seed=4)
    assert r.games == 20


def test_ply():
    r = bg.duel("net", "net", games=4, seed=5, ply=(1, 0))
    assert r.games == 4
    with pytest.raises(bg.RolloutError, match="ply"):
        bg.duel("net", "pubeval", games=2, ply=3)
