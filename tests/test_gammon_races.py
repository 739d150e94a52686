"""tools/make_gammon_races.py: the drawn races a race net's gammon-saving targets come from."""

from __future__ import annotations

import importlib.util
import os
from pathlib import Path

import numpy as np

import backgammon as bg
from backgammon import _bgcore

# the source tree: CI runs a copy of tests/ against the installed wheel and names it
_ROOT = Path(os.environ.get("BACKGAMMON_SOURCE") or Path(__file__).resolve().parents[1])
_TOOL = _ROOT / "tools" / "make_gammon_races.py"


def _tool():
    spec = importlib.util.spec_from_file_location("make_gammon_races", _TOOL)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_drawn_races_are_gammon_races_either_side_on_roll():
    tool = _tool()
    rng = np.random.default_rng(5)
    trailer_on_roll = 0
    for _ in range(300):
        b = tool.gammon_race(rng)
        a = bg.Position.from_array(b.tolist()).to_array()      # a valid board
        assert _bgcore.nn_is_race(b.tobytes()) and not _bgcore.bearoff_applies(b.tobytes())
        mine = sum(n for n in a if n > 0)
        theirs = -sum(n for n in a if n < 0)
        if mine == 15:      # the trailer is on roll; the leader's 1-12 are in its home board
            trailer_on_roll += 1
            assert 1 <= theirs <= 12 and all(n >= 0 for n in a[:19])
        else:               # the leader is on roll, its 1-12 checkers in its home board
            assert theirs == 15 and 1 <= mine <= 12 and all(n <= 0 for n in a[7:])
    assert 100 < trailer_on_roll < 200                     # either side is on roll, about half


def test_chunks_are_the_same_for_a_seed_with_siblings_after_the_trailer():
    tool = _tool()
    nets = bg.Evaluator.fast()._nets
    a = tool.chunk_boards(40, 7, nets)
    assert a.shape == (40, 26) and (a == tool.chunk_boards(40, 7, nets)).all()
    assert not (a == tool.chunk_boards(40, 8, nets)).all()
    assert len({r.tobytes() for r in a}) > 30
