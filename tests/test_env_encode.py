"""Encoders (backgammon.encode, encode.h): hand-worked units, invariants, OpenSpiel."""

from __future__ import annotations

import gzip
import json
import os
from pathlib import Path

import numpy as np
import pytest

import backgammon as bg
from backgammon import _bgcore
from backgammon.env import encode, encoding_size, openspiel
from boards import board

DATA = Path(__file__).parent / "data"
INITIAL = bg.Position.initial()


def test_sizes():
    assert encoding_size("tesauro") == 198
    assert encoding_size("openspiel") == 200
    assert encoding_size("pgx") == 34
    assert encoding_size("net") == encoding_size(f"net-v{bg.env.NET_ENCODING}") == 204


def test_tesauro_initial_seat0():
    x = encode([INITIAL], "tesauro")[0]
    # the mover's (seat 0's) point p at units 4 (p - 1)
    assert x[4 * 23:4 * 24].tolist() == [1, 1, 0, 0]          # 24 point: 2 checkers
    assert x[4 * 12:4 * 13].tolist() == [1, 1, 1, 1]          # 13 point: 5 -> (5-3)/2
    assert x[4 * 7:4 * 8].tolist() == [1, 1, 1, 0]            # 8 point: 3
    assert x[4 * 5:4 * 6].tolist() == [1, 1, 1, 1]            # 6 point: 5
    # the opponent (seat 1): its point q at units 98 + 4 (24 - q)
    assert x[98:102].tolist() == [1, 1, 0, 0]                 # its 24 point
    assert x[98 + 4 * 18:98 + 4 * 19].tolist() == [1, 1, 1, 1]  # its 6 point
    assert x[96:98].tolist() == [0, 0] and x[194:196].tolist() == [0, 0]  # bar, off
    assert x[196:].tolist() == [1, 0]                         # seat 0 on roll
    assert x.sum() == 13 + 13 + 1


def test_tesauro_bar_off_and_seat1():
    # mover: 2 on the bar, 10 on its 1 point, 3 off; opponent: 15 on our 24 point (its 1)
    pos = board({25: 2, 1: 10}, {24: 15})
    x = encode([pos], "tesauro", player=1)[0]
    mover = x[98:196]  # seat 1 is the second side
    assert mover[96] == 1.0 and mover[97] == pytest.approx(3 / 15)
    assert mover[4 * 23:4 * 24].tolist() == [1, 1, 1, 3.5]    # seat 1's point 1 -> index 23
    opp = x[:98]
    assert opp[0:4].tolist() == [1, 1, 1, 6.0]                # seat 0's point 1 -> index 0
    assert x[196:].tolist() == [0, 1]


def test_tesauro_swap_symmetry(movegen_cases):
    boards = np.array([c["board"] for c in movegen_cases[:500]], dtype=np.int8)
    swapped = np.array([bg.Position.from_array(b).swapped().to_array() for b in boards])
    a = encode(boards, "tesauro", player=0)
    b = encode(swapped, "tesauro", player=1)
    assert np.array_equal(a[:, :196], b[:, :196])
    assert (a[:, 196] == 1).all() and (b[:, 197] == 1).all()


def test_pgx_units():
    x = encode([INITIAL], "pgx", dice=[(3, 1)])[0]
    assert x[:24].tolist() == [2, 0, 0, 0, 0, -5, 0, -3, 0, 0, 0, 5,
                               -5, 0, 0, 0, 3, 0, 5, 0, 0, 0, 0, -2]
    assert x[24:28].tolist() == [0, 0, 0, 0]
    assert x[28:].tolist() == [1, 0, 1, 0, 0, 0]
    assert encode([INITIAL], "pgx", dice=[(4, 4)])[0, 28:].tolist() == [0, 0, 0, 4, 0, 0]
    assert encode([INITIAL], "pgx")[0, 28:].tolist() == [0] * 6
    pos = board({25: 1, 3: 2}, {0: 2, 20: 4})  # 12 of ours off, 9 of theirs
    x = encode([pos], "pgx", dice=[(6, 5)])[0]
    assert x[24:28].tolist() == [1, -2, 12, -9]
    assert x[21] == 2 and x[4] == -4  # our 3 point at 24 - 3; our 20 point at 24 - 20


def test_openspiel_units():
    x = encode([INITIAL], "openspiel", dice=[(5, 2)])[0]
    assert x[0:4].tolist() == [0, 1, 0, 0]          # X's 24 point is position 0
    assert x[4 * 18:4 * 19].tolist() == [0, 0, 0, 2]  # X's 6 point (5 checkers) at 18
    assert x[96 + 4 * 5:96 + 4 * 6].tolist() == [0, 0, 0, 2]  # O's 6 point at position 5
    assert x[192:].tolist() == [0, 0, 1, 0, 0, 0, 2, 5]   # dice shown lower first
    o = encode([INITIAL], "openspiel", dice=[(5, 2)], player=1)[0]
    assert o[4 * 5:4 * 6].tolist() == [0, 0, 0, 2]    # O's own 6 point at position 5


def test_net_is_the_nets_inputs(movegen_cases):
    for c in movegen_cases[:200]:
        b = np.array(c["board"], dtype=np.int8)
        idx, val = _bgcore.nn_encode(b.tobytes())
        dense = np.zeros(encoding_size("net"), dtype=np.float32)
        dense[idx] = val
        assert np.array_equal(encode(b[None], "net")[0], dense)


def test_bad_input():
    with pytest.raises(bg.InvalidSetupError, match="unknown encoding"):
        encode([INITIAL], "chess")
    with pytest.raises(bg.InvalidSetupError, match="version"):
        encode([INITIAL], "net-v99")
    with pytest.raises(bg.InvalidPositionError, match="row 1"):
        encode(np.array([INITIAL.to_array(), [0] * 25 + [-1]], dtype=np.int8), "tesauro")
    with pytest.raises(bg.InvalidPositionError):
        encode(np.zeros((2, 25), dtype=np.int8), "tesauro")
    with pytest.raises(bg.InvalidDiceError):
        encode([INITIAL], "pgx", dice=[(7, 1)])
    with pytest.raises(bg.InvalidDiceError):
        encode([INITIAL, INITIAL], "pgx", dice=[(3, 1)])
    with pytest.raises(bg.InvalidSetupError):
        encode([INITIAL], "tesauro", player=2)
    assert encode([], "pgx").shape == (0, 34)


def _openspiel_rows():
    with gzip.open(DATA / "openspiel_states.jsonl.gz", "rt") as f:
        return [json.loads(line) for line in f]


def _ours(history):
    game = openspiel.game_from_history(history)
    return game, game.current_position()


@pytest.mark.slow
def test_openspiel_vectors_file():
    """States recorded from pyspiel (tools/make_openspiel_vectors.py): the
    replayed game, its observation and its legal ids equal OpenSpiel's."""
    from backgammon.env import actions
    rows = _openspiel_rows()
    assert len(rows) > 500
    for r in rows:
        game, cur = _ours(r["history"])
        assert game.turn == r["player"]
        want = np.zeros(200, dtype=np.float32)
        for i, v in r["observation"]:
            want[i] = v
        got = encode([cur], "openspiel", dice=[game.dice], player=game.turn)[0]
        assert np.array_equal(got, want), r["history"]
        t = actions.turn(game.position, game.dice, game.turn)
        for src, dst in game.steps:
            assert any(t.step(src, d) for d in set(t.left) if src - d == dst or (dst == 0 and src <= d))
        assert np.flatnonzero(t.openspiel_mask()).tolist() == sorted(r["legal"])


def _pyspiel():
    try:
        import pyspiel
    except ImportError:
        if os.environ.get("CI") == "true" and os.environ.get("BACKGAMMON_NEED_OPENSPIEL"):
            raise
        pytest.skip("open-spiel is not installed (a peer for measurement only)")
    return pyspiel


def test_openspiel_live_random_states():
    """Thousands of random pyspiel states: observation tensors and legal ids equal."""
    pyspiel = _pyspiel()
    import random
    from backgammon.env import actions
    rng = random.Random(11)
    game = pyspiel.load_game("backgammon")
    checked = 0
    while checked < 2000:
        s = game.new_initial_state()
        ours = None
        while not s.is_terminal() and checked < 2000:
            if s.is_chance_node():
                s.apply_action(rng.choice([o for o, _ in s.chance_outcomes()]))
                continue
            p = s.current_player()
            ours = openspiel.from_pyspiel(s)
            got = encode([ours.current_position()], "openspiel", dice=[ours.dice], player=p)[0]
            assert np.array_equal(got, np.array(s.observation_tensor(p), dtype=np.float32))
            if not ours.steps:
                mask = actions.openspiel_mask(ours.position, ours.dice, p)
                assert np.flatnonzero(mask).tolist() == sorted(s.legal_actions())
            checked += 1
            s.apply_action(rng.choice(s.legal_actions()))
        if s.is_terminal():
            # the finished game: same winner and points
            final = openspiel.from_pyspiel(s)
            assert final.over and final.result is not None
            assert s.returns()[final.result.winner] > 0


def test_to_pyspiel_round_trip():
    pyspiel = _pyspiel()
    import random
    rng = random.Random(3)
    g = pyspiel.load_game("backgammon")
    for _ in range(5):
        s = g.new_initial_state()
        for _ in range(60):
            if s.is_terminal():
                break
            if s.is_chance_node():
                s.apply_action(rng.choice([o for o, _ in s.chance_outcomes()]))
            else:
                s.apply_action(rng.choice(s.legal_actions()))
        game = openspiel.from_pyspiel(s)
        if game.steps:
            continue  # a half-played double is not a committed record
        back = openspiel.to_pyspiel(game)
        # the same state (the ids of a play may differ: several spell it)
        assert back.current_player() == s.current_player()
        for p in (0, 1):
            assert np.array_equal(back.observation_tensor(p), s.observation_tensor(p))
        assert openspiel.from_pyspiel(back).position == game.position


@pytest.mark.parametrize("module", ["backgammon.env.encoders", "backgammon.env.actions",
                                    "backgammon.env.openspiel", "backgammon.env.bots"])
def test_docstring_examples(module):
    import doctest
    import importlib
    result = doctest.testmod(importlib.import_module(module), optionflags=doctest.ELLIPSIS)
    assert result.failed == 0 and result.attempted > 0
