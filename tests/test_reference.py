"""The engine against the independent reference generator (tests/reference.py)
on random positions: random games, and random scatterings of checkers that
real games rarely reach (many on the bar, bear-offs with contact, primes)."""

from __future__ import annotations

import random

import pytest

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import backgammon as bg
from reference import reference_results

dice_st = st.tuples(st.integers(1, 6), st.integers(1, 6))


@st.composite
def scattered(draw) -> list[int]:
    """Any valid board: each side 1-15 checkers on random points and bars."""
    board = [0] * 26
    own = draw(st.integers(1, 15))
    opp = draw(st.integers(1, 15))
    # a bias toward the home boards makes bear-offs and closed boards common
    home_bias = draw(st.booleans())
    for _ in range(own):
        p = draw(st.integers(1, 6)) if home_bias and draw(st.booleans()) else draw(st.integers(1, 25))
        if p == 25 or board[p] >= 0:
            board[p] += 1
    for _ in range(opp):
        p = draw(st.integers(0, 24))
        if p == 0 or board[p] <= 0:
            board[p] -= 1
    if not any(v > 0 for v in board):
        board[25] = 1
    if not any(v < 0 for v in board):
        board[0] = -1
    return board


@st.composite
def played(draw) -> list[int]:
    """A position of a random game after 0-80 plies."""
    rng = random.Random(draw(st.integers(0, 2**32)))
    pos = bg.Position.initial()
    for _ in range(draw(st.integers(0, 80))):
        plays = pos.legal_plays((rng.randint(1, 6), rng.randint(1, 6)))
        nxt = plays[rng.randrange(len(plays))].result
        if nxt.outcome() is not None:
            break
        pos = nxt.swapped()
    return pos.tolist()


@pytest.mark.slow
@settings(max_examples=1500, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(board=st.one_of(scattered(), played()), dice=dice_st)
def test_engine_agrees_with_reference(board, dice):
    pos = bg.Position.from_array(board)
    got = {tuple(r) for r in pos.successors(dice).tolist()}
    assert len(got) == len(pos.successors(dice))  # no duplicates
    assert got == reference_results(tuple(board), *dice)


@settings(max_examples=150, deadline=None)
@given(board=st.one_of(scattered(), played()), dice=dice_st)
def test_every_play_replays_and_legal_moves_reach_it(board, dice):
    pos = bg.Position.from_array(board)
    plays = pos.legal_plays(dice)
    for play in plays:
        assert pos.play(play.moves, dice) == play.result
        assert pos.play(play.moves) == play.result
        # every prefix of the stored steps is offered move by move (RULES 4.3)
        for k, step in enumerate(play.moves):
            assert step in pos.legal_moves(dice, play.moves[:k])
        assert pos.legal_moves(dice, play.moves) == []
