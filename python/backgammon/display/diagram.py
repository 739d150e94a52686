"""The ASCII board of ``str(position)``, in the style of gnubg's ``show board``.

The player on roll is ``X``: their checkers move from their 24-point at the
top right, leftwards along the top row and back along the bottom row to their
home board at the bottom right (``orientation="left"`` mirrors the board, home
at the bottom left, RULES 1.5); the points are numbered from their side
(RULES 1.3).  A point shows up to five checkers; a fifth row holds the
count when there are more (``7``, ``12``).  The bar shows each side's checkers
on its own half (``O`` above, ``X`` below); the side lines give each player's
pip count and checkers borne off, and the first line the gnubg Position ID.

    >>> import backgammon as bg
    >>> print(bg.Position.initial())
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
     +12-11-10--9--8--7-------6--5--4--3--2--1-+   X: 167 pips, 0 borne off, on roll
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Sequence

if TYPE_CHECKING:  # pragma: no cover
    from backgammon.position import Position

__all__ = ["board_text", "ORIENTATIONS"]

ORIENTATIONS = ("right", "left")
"""Where the home board of the player on roll is drawn: bottom right or bottom left."""

_ROWS = 5  # checkers shown on a point; the fifth row shows the count past five


def check_orientation(orientation: object) -> str:
    """``orientation`` checked: one of :data:`ORIENTATIONS` (shared with svg.py)."""
    if orientation not in ORIENTATIONS:
        from backgammon.errors import BackgammonError
        raise BackgammonError(
            f"orientation is 'right' or 'left' (where the home board of the player on "
            f"roll is drawn, RULES 1.5), got {orientation!r}")
    return orientation


def as_position(position: object) -> Position:
    """``position`` itself, or the position of a 26-integer array (checked)."""
    from backgammon.position import Position
    return position if isinstance(position, Position) else Position.from_array(position)  # type: ignore[arg-type]


def _layout(orientation: str) -> tuple[list[int], list[int], list[int], list[int]]:
    """The points of the (top left, top right, bottom left, bottom right) quarters,
    each from left to right."""
    top = list(range(13, 25))        # 13 .. 24, left to right, when home is bottom right
    bottom = list(range(12, 0, -1))  # 12 .. 1
    if orientation == "left":
        top, bottom = top[::-1], bottom[::-1]
    return top[:6], top[6:], bottom[:6], bottom[6:]


def _cell(count: int, char: str, row: int) -> str:
    """Row ``row`` (0 at the edge of the board) of a stack of ``count`` checkers, 3 wide."""
    if count <= row:
        return "   "
    if row < _ROWS - 1 or count == _ROWS:
        return f" {char} "
    return f"{count:>2} "  # the count past five, aligned like the point numbers


def _label_row(points: list[int]) -> str:
    return "".join(f"{p:->2}-" for p in points)


def board_text(position: Position | Sequence[int], *, orientation: str = "right") -> str:
    """The ASCII diagram of ``position`` (what ``str(position)`` prints), or of
    its 26-integer array.

    ``orientation`` is ``"right"`` (the home board of the player on roll, ``X``,
    at the bottom right, as gnubg draws it) or ``"left"`` (mirrored).

        >>> import backgammon as bg
        >>> text = board_text(bg.Position.initial(), orientation="left")
        >>> text.splitlines()[1][:44]
        ' +24-23-22-21-20-19------18-17-16-15-14-13-+'
    """
    orientation = check_orientation(orientation)
    position = as_position(position)
    a = position.tolist()
    top_left, top_right, bottom_left, bottom_right = _layout(orientation)
    own_pips, opp_pips = position.pip_counts()
    own_off, opp_off = position.borne_off()

    def stack(p: int) -> tuple[int, str]:
        return (a[p], "X") if a[p] > 0 else (-a[p], "O")

    def row_line(left: list[int], right: list[int], bar: tuple[int, str], row: int) -> str:
        cells = [_cell(*stack(p), row) for p in left]
        cells2 = [_cell(*stack(p), row) for p in right]
        return " |" + "".join(cells) + "|" + _cell(*bar, row) + "|" + "".join(cells2) + "|"

    lines = [f" Position ID: {position.position_id()}"]
    lines.append(" +" + _label_row(top_left) + "-----" + _label_row(top_right) + "+"
                 + f"   O: {opp_pips} pips, {opp_off} borne off")
    for row in range(_ROWS):  # the top half grows down from the top edge
        lines.append(row_line(top_left, top_right, (-a[0], "O"), row))
    lines.append(" |" + " " * 18 + "|BAR|" + " " * 18 + "|")
    for row in reversed(range(_ROWS)):  # the bottom half grows up from the bottom edge
        lines.append(row_line(bottom_left, bottom_right, (a[25], "X"), row))
    lines.append(" +" + _label_row(bottom_left) + "-----" + _label_row(bottom_right) + "+"
                 + f"   X: {own_pips} pips, {own_off} borne off, on roll")
    return "\n".join(line.rstrip() for line in lines)
