"""Action ids and masks (backgammon.env.actions, venv.h) against the move generator."""

from __future__ import annotations

import random

import numpy as np
import pytest

import backgammon as bg
from backgammon.env import actions
from boards import board


def _leaves(t, kind, out):
    """Every board reachable by following the mask to the end of the turn."""
    if t.need == 0:
        out.add(t.board)
        return
    mask = t.micro_mask() if kind == "micro" else t.openspiel_mask()
    assert mask.any()
    for a in np.flatnonzero(mask):
        t2 = t.copy()
        assert (t2.micro(int(a)) if kind == "micro" else t2.openspiel(int(a)))
        assert t2.need < t.need
        _leaves(t2, kind, out)


@pytest.mark.parametrize("kind", ["micro", "openspiel"])
def test_masks_reach_exactly_the_legal_plays(movegen_cases, kind):
    """On every case of tests/data/movegen.jsonl.gz the sequences of masked
    ids end in exactly the distinct results of the move generator."""
    for i, c in enumerate(movegen_cases):
        pos = bg.Position.from_array(c["board"])
        dice = tuple(c["dice"])
        want = {p.result.to_array().tobytes() for p in pos.legal_plays(dice)}
        got: set[bytes] = set()
        _leaves(actions.turn(pos, dice, i % 2), kind, got)
        assert got == want, (c["board"], dice)


def test_illegal_ids_change_nothing(movegen_cases):
    rng = random.Random(5)
    for c in movegen_cases[:300]:
        pos = bg.Position.from_array(c["board"])
        t = actions.turn(pos, tuple(c["dice"]))
        m, o = t.micro_mask(), t.openspiel_mask()
        for a in rng.sample(range(156), 20):
            t2 = t.copy()
            assert t2.micro(a) == bool(m[a])
            if not m[a]:
                assert t2.board == t.board and t2.need == t.need
        for a in rng.sample(range(1352), 40):
            t2 = t.copy()
            assert t2.openspiel(a) == bool(o[a])
            if not o[a]:
                assert t2.board == t.board and t2.left == t.left
        t2 = t.copy()
        assert not t2.micro(-1) and not t2.micro(156) and not t2.openspiel(1352)


def test_micro_ids_are_pgx():
    # Pgx: id = 6 * src + die - 1, src 1 = bar, src 2.. = the mover's 24 .. 1 points
    assert actions.micro_action(25, 1) == 6
    assert actions.micro_action(24, 6) == 2 * 6 + 5
    assert actions.micro_action(1, 1) == 25 * 6
    assert actions.micro_step(155) == (1, 6)
    assert actions.micro_step(3) == (None, 4)
    for a in range(6, 156):
        assert actions.micro_action(*actions.micro_step(a)) == a
    with pytest.raises(ValueError):
        actions.micro_step(156)


def test_micro_mask_hand_cases():
    # opening 6-5: 6s 24/18 13/7 8/2 (6/off is no bear-off yet); 5s 13/8 8/3
    # (24/19 and 6/1 land on the opponent's made points)
    m = actions.micro_mask(bg.Position.initial(), (6, 5))
    steps = {actions.micro_step(a) for a in np.flatnonzero(m)}
    assert steps == {(24, 6), (13, 6), (8, 6), (13, 5), (8, 5)}
    # RULES 4.2: only one die can be played, the higher: a single checker on 24
    # against points 18 and 17 closed after 6 or 5 ... here 24/18 blocked, 24/19 then 19/13 blocked
    pos = board({24: 1, 1: 14}, {18: 2, 13: 2, 14: 2, 20: 2, 17: 2})
    # 6-5: 24/19 (the 5) then 19/13 (6) closed; 24/18 closed: only the 5 plays
    m = actions.micro_mask(pos, (6, 5))
    assert {actions.micro_step(a) for a in np.flatnonzero(m)} == {(24, 5)}
    # bar: a checker on the bar must enter first
    pos = board({25: 1, 6: 5, 8: 3, 13: 5, 24: 1}, {1: 2, 12: 5, 17: 3, 19: 5})
    m = actions.micro_mask(pos, (3, 1))
    assert {actions.micro_step(a) for a in np.flatnonzero(m)} == {(25, 3), (25, 1)}
    # a player who cannot move gets Pgx's no-ops
    pos = board({25: 2, 6: 13}, {19: 2, 20: 2, 21: 2, 22: 2, 23: 2, 24: 2})
    m = actions.micro_mask(pos, (4, 4))
    assert np.flatnonzero(m).tolist() == [0, 1, 2, 3, 4, 5]
    assert actions.openspiel_mask(pos, (4, 4)).nonzero()[0].tolist() == [actions.OPENSPIEL_PASS]


def test_openspiel_round_trips(movegen_cases):
    rng = random.Random(2)
    for c in rng.sample(movegen_cases, 400):
        pos = bg.Position.from_array(c["board"])
        dice = tuple(c["dice"])
        seat = rng.randrange(2)
        for play in pos.legal_plays(dice):
            ids = actions.play_to_openspiel(play, dice, seat)
            assert actions.openspiel_to_play(pos, dice, ids, seat) == play


def test_openspiel_ids_hand():
    pos = bg.Position.initial()
    play = pos.parse_play("24/23 24/22", (2, 1))
    # X: 24 point is position 0; high die (2) first: 0 + 26 * 0
    assert actions.play_to_openspiel(play, (2, 1), 0) == [0]
    assert actions.openspiel_steps(676 + 0 + 26 * 16, (2, 1), 0) == ((24, 1), (8, 2))
    with pytest.raises(bg.IllegalActionError):
        actions.openspiel_to_play(pos, (2, 1), [1351])
    with pytest.raises(bg.IllegalActionError):
        actions.openspiel_steps(1352, (2, 1))
