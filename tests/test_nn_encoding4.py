"""Encoding 4: the 10 race inputs beyond encoding 3's, counted by hand, against
a slow reference written here (the bear-off database's expected turns of the
gathered position), zero in every contact position, under swapping sides;
nets of encoding 4 (growth, files; test_nn_encoding2 runs its incremental choice,
forward pass and training tests on encoding 4 too)."""

from __future__ import annotations

import numpy as np
import pytest

import backgammon as bg
from backgammon import _bgcore, bearoff
from boards import board
from test_nn_encoding2 import check, check_files, check_growth, check_swap_symmetry

NAMES = ["saved", "cross", "outside", "turns", "first"]


def features(pos: bg.Position) -> tuple[dict[str, float], dict[str, float]]:
    """The 10 race inputs of encoding 4 beyond encoding 3's 42: (on roll, opponent)."""
    f = _bgcore.nn_features(pos._b, 4)
    assert len(f) == 52
    assert f[:42] == _bgcore.nn_features(pos._b, 3)     # encoding 3's features come first
    return dict(zip(NAMES, f[42:47])), dict(zip(NAMES, f[47:52]))


def side(counts: list[int]) -> list[float]:
    """A side's five inputs from its checkers counts[1..25] (its numbering), the slow way."""
    on_board = sum(counts[1:26])
    outside = sum(counts[7:26])
    cross = sum(n * (4 if p == 25 else (p - 1) // 6) for p, n in enumerate(counts) if p >= 7)
    gathered = counts[1:7]
    gathered[5] += outside
    saved = on_board < 15
    return [float(saved), cross / 10, outside / 15, bearoff.expected_turns(gathered) / 10,
            0.0 if saved else bearoff.expected_turns(gathered, first=True) / 3]


def reference(row: np.ndarray) -> list[float]:
    if not _bgcore.nn_is_race(row.tobytes()):
        return [0.0] * 10
    own = [0] * 26
    opp = [0] * 26
    for p in range(1, 25):
        own[p] = max(int(row[p]), 0)
        opp[25 - p] = max(-int(row[p]), 0)
    own[25], opp[25] = max(int(row[25]), 0), max(-int(row[0]), 0)
    return side(own) + side(opp)


# ----------------------------------------------------------------------
# By hand

def test_contact_positions_have_no_race_inputs():
    own, opp = features(bg.Position.initial())
    assert set(own.values()) == {0.0} and set(opp.values()) == {0.0}


def test_a_lone_checker_against_a_full_ace_point():
    # X: one checker on its 8-point, 14 borne off; Y: 15 on its 1-point (our 24)
    own, opp = features(board({8: 1}, {24: 15}))
    # X: one crossing (8 is in the outer board), one checker outside; gathered
    # on the 6-point a lone checker is off in one turn except with 1-1, 1-2,
    # 1-3, 1-4 and 2-3 (9 rolls of 36), then always: 1 + 9/36 turns
    check(own, dict(saved=1, cross=0.1, outside=1 / 15, turns=1.25 / 10, first=0))
    # Y: nothing outside, and any roll bears a checker off the 1-point
    check(opp, dict(saved=0, cross=0, outside=0, first=1 / 3))


def test_crossovers_count_the_quarters_each_checker_crosses():
    # X: 23 (3 boundaries), 18 (2), 12 (1), 7 (1) and 11 on the 6-point;
    # Y: 15 on its 1-point, behind X's rearmost (our 24 is its 1: no contact)
    own, _ = features(board({23: 1, 18: 1, 12: 1, 7: 1, 6: 11}, {24: 15}))
    check(own, dict(saved=0, cross=0.7, outside=4 / 15))
    # gathered: all 15 on the 6-point
    check(own, dict(turns=bearoff.expected_turns([0, 0, 0, 0, 0, 15]) / 10,
                    first=bearoff.expected_turns([0, 0, 0, 0, 0, 15], first=True) / 3))


def test_the_gathered_position_is_the_database_answer_at_home():
    # both sides home: the gathered positions are the positions themselves
    own, opp = features(board({1: 3, 2: 4, 6: 2}, {19: 5, 24: 10}))
    check(own, dict(saved=1, cross=0, outside=0, first=0,
                    turns=bearoff.expected_turns([3, 4, 0, 0, 0, 2]) / 10))
    check(opp, dict(saved=0, cross=0, outside=0,
                    turns=bearoff.expected_turns([10, 0, 0, 0, 0, 5]) / 10,
                    first=bearoff.expected_turns([10, 0, 0, 0, 0, 5], first=True) / 3))


# ----------------------------------------------------------------------
# Whole classes

@pytest.fixture(scope="module")
def positions() -> np.ndarray:
    from test_supervised import positions as make
    return make(1500, seed=17)


def test_features_equal_the_reference(positions):
    races = 0
    for row in positions:
        got = _bgcore.nn_features(row.tobytes(), 4)[42:]
        np.testing.assert_allclose(got, reference(row), atol=1e-6)
        races += bool(_bgcore.nn_is_race(row.tobytes()))
    assert races >= 100        # the sample holds races, not only contact


def test_features_are_symmetric_under_swapping(positions):
    check_swap_symmetry(features, positions)


# ----------------------------------------------------------------------
# Nets of encoding 4

def test_nets_grow_to_encoding_4_and_answer_as_before(positions):
    check_growth(4, positions)   # the fast nets (encoding 1) grown


def test_files_of_encoding_4(tmp_path, positions):
    check_files(tmp_path, positions, 4, "tesauro4-bar-off-feat52-race-v4")
