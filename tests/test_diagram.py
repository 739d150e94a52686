"""The ASCII board of ``str(position)`` (issue 3), in the style of gnubg's ``show board``.

The expected boards are drawn by hand from the rules of the layout: the player on roll is
X, top row points 13-24 and bottom row 12-1 from left to right (home board bottom right,
RULES 1.3, 1.5), a stack grows from the board's edge toward the middle, five rows a
point, the fifth showing the count past five.
"""

from __future__ import annotations

import doctest

import pytest

import backgammon as bg
import backgammon.display.diagram
from backgammon.display.diagram import board_text
from backgammon.errors import BackgammonError

OPENING = """\
 Position ID: 4HPwATDgc/ABMA
 +13-14-15-16-17-18------19-20-21-22-23-24-+   O: 167 pips, 0 borne off
 | X           O    |   | O              X |
 | X           O    |   | O              X |
 | X           O    |   | O                |
 | X                |   | O                |
 | X                |   | O                |
 |                  |BAR|                  |
 | O                |   | X                |
 | O                |   | X                |
 | O           X    |   | X                |
 | O           X    |   | X              O |
 | O           X    |   | X              O |
 +12-11-10--9--8--7-------6--5--4--3--2--1-+   X: 167 pips, 0 borne off, on roll"""

OPENING_LEFT = """\
 Position ID: 4HPwATDgc/ABMA
 +24-23-22-21-20-19------18-17-16-15-14-13-+   O: 167 pips, 0 borne off
 | X              O |   |    O           X |
 | X              O |   |    O           X |
 |                O |   |    O           X |
 |                O |   |                X |
 |                O |   |                X |
 |                  |BAR|                  |
 |                X |   |                O |
 |                X |   |                O |
 |                X |   |    X           O |
 | O              X |   |    X           O |
 | O              X |   |    X           O |
 +-1--2--3--4--5--6-------7--8--9-10-11-12-+   X: 167 pips, 0 borne off, on roll"""


def test_opening_position():
    pos = bg.Position.initial()
    assert str(pos) == OPENING
    assert board_text(pos) == OPENING
    assert board_text(pos, orientation="right") == OPENING


def test_opening_position_mirrored():
    assert board_text(bg.Position.initial(), orientation="left") == OPENING_LEFT


# X: 12 on the 6-point, 2 on the bar (14 on the board, 1 off): 72 + 50 = 122 pips.
# O: 3 on the bar, 1 on our 7 (their 18), 7 on our 23 (their 2): 75 + 18 + 14 = 107 pips,
# 11 checkers, 4 off.
BARS = [-3, 0, 0, 0, 0, 0, 12, -1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, -7, 0, 2]

BARS_TEXT = """\
 Position ID: {pid}
 +13-14-15-16-17-18------19-20-21-22-23-24-+   O: 107 pips, 4 borne off
 |                  | O |             O    |
 |                  | O |             O    |
 |                  | O |             O    |
 |                  |   |             O    |
 |                  |   |             7    |
 |                  |BAR|                  |
 |                  |   |12                |
 |                  |   | X                |
 |                  |   | X                |
 |                  | X | X                |
 |                O | X | X                |
 +12-11-10--9--8--7-------6--5--4--3--2--1-+   X: 122 pips, 1 borne off, on roll"""


def test_bar_counts_past_five_and_borne_off():
    pos = bg.Position(BARS)
    assert str(pos) == BARS_TEXT.format(pid=pos.position_id())


def test_counts_up_to_fifteen_and_a_bar_past_five():
    # X: all 15 on the ace point (0 off, 15 pips); O: 6 on the bar (150 pips), 9 off
    pos = bg.Position([-6, 15] + [0] * 24)
    lines = str(pos).splitlines()
    assert lines[1].endswith("O: 150 pips, 9 borne off")
    assert lines[-1].endswith("X: 15 pips, 0 borne off, on roll")
    # a row is " |", 18 columns, "|", the bar's 3, "|", 18 columns, "|": the bar is 21-23 and
    # the last point of the right quarter 40-42
    assert [line[21:24] for line in lines[2:7]] == [" O ", " O ", " O ", " O ", " 6 "]
    assert [line[40:43] for line in lines[8:13]] == ["15 ", " X ", " X ", " X ", " X "]


def test_five_checkers_show_as_five_and_no_count():
    pos = bg.Position([0, 0, 0, 0, 0, 5, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, -5] + [0] * 5)
    lines = str(pos).splitlines()
    column_5 = 26 + 3 * 1                    # bottom right quarter 6..1: the 5-point is second
    assert [line[column_5] for line in lines[8:13]] == ["X"] * 5
    column_20 = 26 + 3 * 1                   # top right quarter 19..24: 20 is second
    assert [line[column_20] for line in lines[2:7]] == ["O"] * 5


def test_every_line_of_the_frame_has_the_same_width(movegen_cases):
    for case in movegen_cases[:300]:
        pos = bg.Position(case["board"])
        for orientation in ("right", "left"):
            lines = board_text(pos, orientation=orientation).splitlines()
            assert len(lines) == 14
            assert lines[0] == f" Position ID: {pos.position_id()}"
            assert all(len(line) == 44 and line.endswith("|") for line in lines[2:13])
            assert lines[1][1] == lines[1][43] == lines[13][1] == lines[13][43] == "+"


def test_an_array_draws_like_its_position():
    assert board_text(list(bg.Position.initial().tolist())) == OPENING
    with pytest.raises(bg.InvalidPositionError):
        board_text([0] * 26)


@pytest.mark.parametrize("bad", ["up", "RIGHT", None, 1, ""])
def test_bad_orientation(bad):
    with pytest.raises(BackgammonError, match="orientation") as info:
        board_text(bg.Position.initial(), orientation=bad)
    assert type(info.value) is BackgammonError


def test_docstring_examples():
    assert doctest.testmod(backgammon.display.diagram, optionflags=doctest.ELLIPSIS).failed == 0
