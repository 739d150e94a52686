"""Backgammon boards as SVG pictures, for Jupyter, web pages and documents.

:func:`board` draws a position seen by the player on roll: their checkers
are the light ones and move from the top row round to their home board,
bottom right by default or bottom left with ``orientation="left"``
(RULES 1.3, 1.5).  The points are numbered from their side; the borne-off
trays stand beside their home board (the opponent's tray above theirs);
the cube, with its value and side, and both pip counts stand on the other
side; the dice lie in the right-hand half of the board (RULES 12.1).

The SVG is self-contained: flat shapes and paths only, no fonts (numbers are
drawn as strokes), no ``<text>``, no ``<use>``, no ids, no external
references, so every renderer and every page shows the same picture, and
several boards on one page do not interfere.

    >>> import backgammon as bg
    >>> picture = board(bg.Position.initial(), dice=(3, 1), cube=1)
    >>> picture.svg.startswith("<svg") and "<use" not in picture.svg
    True
    >>> picture.width, picture.height
    (540, 423)

Geometry, in drawing units (the picture is 648 x 508 units, scaled to
``size`` pixels wide), for ``orientation="right"``; ``"left"`` mirrors every
x: ``x -> 648 - x``.

- Point numbers in bands ``y`` 0-22 (top row) and 486-508 (bottom row).
- The wooden case spans ``y`` 22-486; the playing field ``y`` 34-474, in two
  halves of six points 40 wide: ``x`` 64-304 and 344-584, the bar between
  (centre ``x`` 324).  The top row holds points 13-18 then 19-24 from left to
  right, the bottom row 12-7 then 6-1, so point 1's column centre is
  ``x`` 564 and point 13's is 84.
- Checkers have radius 18 and stack 36 apart, at most five shown: on the top
  row the ``i``-th (from 0) is centred at ``y = 53 + 36 i``, on the bottom row at
  ``y = 455 - 36 i``.  Past five the fifth carries the count.
- The bar: the opponent's checkers above the middle (``y = 224 - 36 i``), those
  of the player on roll below it (``y = 284 + 36 i``).
- The trays, ``x`` 604-640 (centre 622): the opponent's ``y`` 34-244, filled from
  the top, the player on roll's ``y`` 264-474, filled from the bottom; each
  borne-off checker is a slab 11 high every 13 units (the ``j``-th from 0 spans
  ``y`` 37 + 13 j to 48 + 13 j above, 460 - 13 j to 471 - 13 j below).
- The cube and pip counts: ``x`` 0-52 (centre 26); the cube (36 square) is
  centred at ``y`` 254 when in the middle, 100 when the opponent owns it, 408
  when the player on roll does.
- The dice: 36 squares centred at ``y`` 254 and ``x`` 440 and 488 (the
  right-hand half in both orientations).
"""

from __future__ import annotations

import math
import operator
import re
from typing import TYPE_CHECKING, Any, Sequence

from backgammon import _bgcore
from backgammon.display.diagram import as_position, check_orientation
from backgammon.errors import BackgammonError, IllegalPlayError
from backgammon.notation import play_chains

if TYPE_CHECKING:  # pragma: no cover
    from backgammon.position import Play, Position

__all__ = ["board", "BoardSVG", "COLOURS"]

WIDTH, HEIGHT = 648, 508
_FIELD_TOP, _FIELD_BOTTOM, _MIDDLE = 34, 474, 254
_POINT_W, _R, _PITCH = 40, 18, 36
_TRI_H = 176
_LEFT_X, _RIGHT_X, _BAR_X = 64, 344, 324
_TRAY_X0, _TRAY_X1 = 604, 640
_INFO_X = 26

COLOURS = {
    "background": "#ffffff",
    "case": "#6b4226",
    "field": "#2e6b45",
    "point_dark": "#9c3b30",
    "point_light": "#d8c39a",
    "tray": "#3a2414",
    "label": "#333333",
    "own": "#f4f1ea",          # the player on roll
    "own_edge": "#3b3b3b",
    "own_ring": "#c9c2b3",
    "own_text": "#222222",
    "opp": "#2f2f33",          # the opponent
    "opp_edge": "#000000",
    "opp_ring": "#5a5a62",
    "opp_text": "#f4f1ea",
    "cube": "#fdfdfd",
    "cube_text": "#222222",
    "die": "#f4f1ea",
    "die_pip": "#222222",
    "highlight": "#ffd54a",
    "arrow": "#1565c0",
}
"""The colours of the picture (flat fills, so a test can look for them)."""

# ----------------------------------------------------------------------------
# Numbers and labels drawn as strokes (no fonts): glyphs in a 6 x 10 box, y down.

_GLYPHS = {
    "0": "M3 0 C4.66 0 5.7 2.24 5.7 5 C5.7 7.76 4.66 10 3 10 C1.34 10 0.3 7.76 0.3 5 "
         "C0.3 2.24 1.34 0 3 0 Z",
    "1": "M1.2 2.2 L3.6 0 L3.6 10",
    "2": "M0.6 2.4 C0.9 0.8 1.9 0 3.1 0 C4.6 0 5.5 1 5.5 2.5 C5.5 4.2 4.2 5.4 0.4 10 L5.8 10",
    "3": "M0.6 1.2 C1.3 0.4 2.1 0 3 0 C4.5 0 5.4 0.9 5.4 2.3 C5.4 3.8 4.3 4.7 2.5 4.7 "
         "C4.6 4.7 5.7 5.8 5.7 7.3 C5.7 9 4.5 10 2.9 10 C1.9 10 1 9.6 0.3 8.7",
    "4": "M4.4 10 L4.4 0 L0.2 7 L5.9 7",
    "5": "M5.3 0 L1.2 0 L0.7 4.4 C1.4 3.9 2.2 3.6 3 3.6 C4.7 3.6 5.7 4.9 5.7 6.8 "
         "C5.7 8.7 4.5 10 2.9 10 C1.9 10 1 9.6 0.3 8.8",
    "6": "M5.1 0.7 C4.5 0.2 3.9 0 3.2 0 C1.3 0 0.3 2.3 0.3 5.5 C0.3 8.5 1.3 10 3.1 10 "
         "C4.7 10 5.7 8.8 5.7 7 C5.7 5.2 4.7 4.1 3.1 4.1 C1.9 4.1 0.9 4.8 0.3 6",
    "7": "M0.3 0 L5.7 0 L2 10",
    "8": "M3 4.7 C1.6 4.7 0.7 3.8 0.7 2.4 C0.7 1 1.6 0 3 0 C4.4 0 5.3 1 5.3 2.4 "
         "C5.3 3.8 4.4 4.7 3 4.7 C1.4 4.7 0.3 5.7 0.3 7.3 C0.3 9 1.5 10 3 10 "
         "C4.5 10 5.7 9 5.7 7.3 C5.7 5.7 4.6 4.7 3 4.7 Z",
    "9": "M0.9 9.3 C1.5 9.8 2.1 10 2.8 10 C4.7 10 5.7 7.7 5.7 4.5 C5.7 1.5 4.7 0 2.9 0 "
         "C1.3 0 0.3 1.2 0.3 3 C0.3 4.8 1.3 5.9 2.9 5.9 C4.1 5.9 5.1 5.2 5.7 4",
    "p": "M0.8 3 L0.8 13 M0.8 4.8 C1.4 3.6 2.3 3 3.2 3 C4.7 3 5.6 4.4 5.6 6.5 "
         "C5.6 8.6 4.7 10 3.2 10 C2.3 10 1.4 9.4 0.8 8.2",
    "i": "M3 3.6 L3 10 M3 0.7 L3 0.9",
    "s": "M5 4 C4.4 3.3 3.7 3 2.9 3 C1.7 3 0.9 3.6 0.9 4.6 C0.9 6.7 5.3 5.8 5.3 8.1 "
         "C5.3 9.3 4.3 10 3 10 C2 10 1.2 9.7 0.6 9",
}
_ADVANCE = 7.6
_TOKEN = re.compile(r"[MLCZ]|-?\d+(?:\.\d+)?")


def _num(value: float) -> str:
    text = f"{value:.2f}".rstrip("0").rstrip(".")
    return "0" if text == "-0" else text


def _text_path(text: str, cx: float, cy: float, height: float, colour: str) -> str:
    """``text`` (digits and ``pis``) centred on ``(cx, cy)``, ``height`` units tall."""
    scale = height / 10
    width = (len(text) * _ADVANCE - (_ADVANCE - 6)) * scale
    x0, y0 = cx - width / 2, cy - height / 2
    parts = []
    for k, char in enumerate(text):
        ox = x0 + k * _ADVANCE * scale
        coords = 0
        for token in _TOKEN.findall(_GLYPHS[char]):
            if token in "MLCZ":
                parts.append(token)
                continue
            value = float(token) * scale + (ox if coords % 2 == 0 else y0)
            parts.append(_num(value))
            coords += 1
    return (f'<path d="{" ".join(parts)}" fill="none" stroke="{colour}" '
            f'stroke-width="{_num(max(height * 0.15, 1.0))}" stroke-linecap="round" '
            f'stroke-linejoin="round"/>')


# ----------------------------------------------------------------------------
# The picture object


class BoardSVG:
    """An SVG picture: ``str()`` or ``.svg`` is the markup; Jupyter shows it.

        >>> import backgammon as bg
        >>> pic = board(bg.Position.initial(), size=324)
        >>> (pic.width, pic.height), pic._repr_svg_() == str(pic) == pic.svg
        ((324, 254), True)
    """

    __slots__ = ("svg", "width", "height")

    def __init__(self, svg: str, width: int, height: int) -> None:
        self.svg = svg
        self.width = width
        self.height = height

    def _repr_svg_(self) -> str:
        return self.svg

    def _repr_html_(self) -> str:
        return f'<div style="max-width:100%">{self.svg}</div>'

    def __str__(self) -> str:
        return self.svg

    def __repr__(self) -> str:
        return f"<BoardSVG {self.width}x{self.height}>"

    def save(self, path: Any) -> None:
        """Writes the SVG to ``path`` (UTF-8)."""
        with open(path, "w", encoding="utf-8") as f:
            f.write(self.svg)


# ----------------------------------------------------------------------------
# Options


def _check_size(size: Any) -> float:
    if isinstance(size, bool) or not isinstance(size, (int, float)) or not (
            math.isfinite(size) and 16 <= size <= 10000):
        raise BackgammonError(f"size is the picture's width in pixels, 16 to 10000, got {size!r}")
    return float(size)


_OWNERS = {None: None, "centre": None, "center": None, "middle": None,
           0: 0, "on_roll": 0, "on roll": 0, 1: 1, "opponent": 1}


def _check_cube(cube: Any) -> tuple[int, int | None] | None:
    """``(value, owner)``: owner ``None`` (centred), 0 (on roll) or 1 (opponent)."""
    if cube is None:
        return None
    value, owner = (cube, None) if not isinstance(cube, (tuple, list)) else (
        tuple(cube) + (None,))[:2] if len(cube) in (1, 2) else (None, None)
    try:
        value = operator.index(value)
    except TypeError:
        value = None
    if isinstance(cube, bool) or value not in (1, 2, 4, 8, 16, 32, 64):
        raise BackgammonError(
            f"cube is a value 1, 2, 4, ..., 64 (RULES 8.4) or (value, owner), got {cube!r}")
    try:
        key = owner if isinstance(owner, (str, type(None))) else operator.index(owner)
        if isinstance(owner, bool) or key not in _OWNERS:
            raise TypeError
    except TypeError:
        raise BackgammonError(
            f"the cube's owner is None (centred), 0 (the player on roll) or 1 (the "
            f"opponent), got {owner!r}") from None
    return value, _OWNERS[key]


# ----------------------------------------------------------------------------
# Drawing


class _Canvas:
    """Collects SVG elements in right-orientation units, mirroring x for "left"."""

    def __init__(self, mirror: bool) -> None:
        self.mirror = mirror
        self.parts: list[str] = []
        self.marker = 0  # where highlights go: above the points, under the checkers

    def x(self, x: float) -> float:
        return WIDTH - x if self.mirror else x

    def rect(self, x0: float, y0: float, x1: float, y1: float, fill: str,
             extra: str = "", mirror: bool = True) -> None:
        a, b = (self.x(x0), self.x(x1)) if mirror else (x0, x1)
        left, right = min(a, b), max(a, b)
        self.parts.append(f'<rect x="{_num(left)}" y="{_num(y0)}" width="{_num(right - left)}" '
                          f'height="{_num(y1 - y0)}" fill="{fill}"{extra}/>')

    def polygon(self, points: Sequence[tuple[float, float]], fill: str, extra: str = "") -> None:
        text = " ".join(f"{_num(self.x(x))},{_num(y)}" for x, y in points)
        self.parts.append(f'<polygon points="{text}" fill="{fill}"{extra}/>')

    def circle(self, cx: float, cy: float, r: float, fill: str, extra: str = "",
               mirror: bool = True) -> None:
        x = self.x(cx) if mirror else cx
        self.parts.append(f'<circle cx="{_num(x)}" cy="{_num(cy)}" r="{_num(r)}" '
                          f'fill="{fill}"{extra}/>')

    def text(self, text: str, cx: float, cy: float, height: float, colour: str,
             mirror: bool = True) -> None:
        self.parts.append(_text_path(text, self.x(cx) if mirror else cx, cy, height, colour))


def _point_x(point: int) -> float:
    """Column centre of a point (1-24) in right-orientation units."""
    if point >= 13:
        k = point - 13
    else:
        k = 12 - point
    return (_LEFT_X if k < 6 else _RIGHT_X - 6 * _POINT_W) + _POINT_W * k + _POINT_W / 2


def _slot_y(point: int, slot: int) -> float:
    if point >= 13:
        return _FIELD_TOP + _R + 1 + _PITCH * slot
    return _FIELD_BOTTOM - _R - 1 - _PITCH * slot


def _bar_y(side: int, slot: int) -> float:
    """``side`` 0: the player on roll (below the middle), 1: the opponent (above)."""
    return _MIDDLE + 30 + _PITCH * slot if side == 0 else _MIDDLE - 30 - _PITCH * slot


def _tray_slab(side: int, j: int) -> tuple[float, float]:
    """(top, bottom) of the ``j``-th borne-off slab of ``side``."""
    if side == 0:
        return _FIELD_BOTTOM - 14 - 13 * j, _FIELD_BOTTOM - 3 - 13 * j
    return _FIELD_TOP + 3 + 13 * j, _FIELD_TOP + 14 + 13 * j


def _checker(canvas: _Canvas, cx: float, cy: float, side: int, label: str = "") -> None:
    key = "own" if side == 0 else "opp"
    canvas.circle(cx, cy, _R - 0.75, COLOURS[key],
                  f' stroke="{COLOURS[key + "_edge"]}" stroke-width="1.5"')
    canvas.circle(cx, cy, _R * 0.62, "none",
                  f' stroke="{COLOURS[key + "_ring"]}" stroke-width="1.2"')
    if label:
        canvas.text(label, cx, cy, 13 if len(label) == 1 else 12, COLOURS[key + "_text"])


def _stack(canvas: _Canvas, count: int, side: int, place: Any) -> None:
    """Up to five checkers at ``place(slot) -> (x, y)``, the fifth labelled past five."""
    for slot in range(min(count, 5)):
        cx, cy = place(slot)
        _checker(canvas, cx, cy, side, str(count) if slot == 4 and count > 5 else "")


def _draw_board(canvas: _Canvas, a: list[int]) -> None:
    canvas.rect(0, 0, WIDTH, HEIGHT, COLOURS["background"], mirror=False)
    canvas.rect(0, 22, WIDTH, 486, COLOURS["case"], ' rx="6"')
    for x0 in (_LEFT_X, _RIGHT_X):
        canvas.rect(x0, _FIELD_TOP, x0 + 6 * _POINT_W, _FIELD_BOTTOM, COLOURS["field"])
    for point in range(1, 25):
        cx = _point_x(point)
        colour = COLOURS["point_dark"] if point % 2 else COLOURS["point_light"]
        half = _POINT_W / 2 - 1
        if point >= 13:
            tri = [(cx - half, _FIELD_TOP), (cx + half, _FIELD_TOP), (cx, _FIELD_TOP + _TRI_H)]
            label_y = 11.5
        else:
            tri = [(cx - half, _FIELD_BOTTOM), (cx + half, _FIELD_BOTTOM),
                   (cx, _FIELD_BOTTOM - _TRI_H)]
            label_y = HEIGHT - 11.5
        canvas.polygon(tri, colour)
        canvas.text(str(point), cx, label_y, 11, COLOURS["label"])
    for y0, y1 in ((_FIELD_TOP, _MIDDLE - 10), (_MIDDLE + 10, _FIELD_BOTTOM)):
        canvas.rect(_TRAY_X0, y0, _TRAY_X1, y1, COLOURS["tray"], ' rx="3"')


def _draw_checkers(canvas: _Canvas, a: list[int]) -> None:
    for point in range(1, 25):
        if a[point]:
            side = 0 if a[point] > 0 else 1
            _stack(canvas, abs(a[point]), side,
                   lambda slot, p=point: (_point_x(p), _slot_y(p, slot)))
    _stack(canvas, a[25], 0, lambda slot: (_BAR_X, _bar_y(0, slot)))
    _stack(canvas, -a[0], 1, lambda slot: (_BAR_X, _bar_y(1, slot)))
    off = (15 - sum(v for v in a if v > 0), 15 + sum(v for v in a if v < 0))
    for side in (0, 1):
        key = "own" if side == 0 else "opp"
        for j in range(off[side]):
            top, bottom = _tray_slab(side, j)
            canvas.rect(_TRAY_X0 + 3, top, _TRAY_X1 - 3, bottom, COLOURS[key],
                        f' stroke="{COLOURS[key + "_edge"]}" stroke-width="0.8" rx="2"')
        if off[side]:
            label_y = _MIDDLE + 16 if side == 0 else _MIDDLE - 16
            canvas.text(str(off[side]), (_TRAY_X0 + _TRAY_X1) / 2, label_y, 9, COLOURS["own"])


def _draw_info(canvas: _Canvas, pips: tuple[int, int],
               cube: tuple[int, int | None] | None) -> None:
    light = COLOURS["own"]
    canvas.text("pips", _INFO_X, _FIELD_TOP + 9, 8, light)
    canvas.text(str(pips[1]), _INFO_X, _FIELD_TOP + 26, 11, light)
    canvas.text(str(pips[0]), _INFO_X, _FIELD_BOTTOM - 26, 11, light)
    canvas.text("pips", _INFO_X, _FIELD_BOTTOM - 11, 8, light)
    if cube is not None:
        value, owner = cube
        cy = {None: _MIDDLE, 1: 100, 0: 408}[owner]
        canvas.rect(_INFO_X - 18, cy - 18, _INFO_X + 18, cy + 18, COLOURS["cube"],
                    ' stroke="#222222" stroke-width="1.5" rx="5"')
        shown = "64" if owner is None and value == 1 else str(value)
        canvas.text(shown, _INFO_X, cy, 15 if len(shown) == 1 else 13, COLOURS["cube_text"])


_PIPS = {1: [(0, 0)], 2: [(-1, -1), (1, 1)], 3: [(-1, -1), (0, 0), (1, 1)],
         4: [(-1, -1), (1, -1), (-1, 1), (1, 1)],
         5: [(-1, -1), (1, -1), (0, 0), (-1, 1), (1, 1)],
         6: [(-1, -1), (1, -1), (-1, 0), (1, 0), (-1, 1), (1, 1)]}


def _draw_dice(canvas: _Canvas, dice: tuple[int, int]) -> None:
    for die, cx in zip(dice, (440, 488)):  # the right-hand half, in both orientations
        canvas.rect(cx - 18, _MIDDLE - 18, cx + 18, _MIDDLE + 18, COLOURS["die"],
                    ' stroke="#222222" stroke-width="1.5" rx="6"', mirror=False)
        for dx, dy in _PIPS[die]:
            canvas.circle(cx + 9.5 * dx, _MIDDLE + 9.5 * dy, 3.6, COLOURS["die_pip"],
                          mirror=False)


def _draw_last_play(canvas: _Canvas, position: Position, play: Play) -> None:
    """Highlights the points a play touched and draws one arrow per checker."""
    if play.position == position:
        after, flip = False, False        # the play about to be made
    elif play.result == position:
        after, flip = True, False         # the play just made, seen by its mover
    elif play.result.swapped() == position:
        after, flip = True, True          # just made by the opponent of the player on roll
    else:
        raise IllegalPlayError(
            f"last_play {play!r} is neither a play of {position!r} nor one that led to it")
    a = position.tolist()
    side = 1 if flip else 0
    sign = -1 if flip else 1

    def own_count(point: int) -> int:
        """The mover's checkers on ``point`` (mover's numbering; 25 = bar) as drawn."""
        if point == 25:
            return -a[0] if flip else a[25]
        value = a[25 - point] if flip else a[point]
        return max(sign * value, 0)

    def anchor(point: int, slot: int) -> tuple[float, float]:
        if point == 25:
            return _BAR_X, _bar_y(side, min(slot, 4))
        if point == 0:
            off = position.borne_off()[side]
            top, bottom = _tray_slab(side, min(max(off - 1 if after else off, 0), 14))
            return (_TRAY_X0 + _TRAY_X1) / 2, (top + bottom) / 2
        drawn = 25 - point if flip else point
        return _point_x(drawn), _slot_y(drawn, min(max(slot, 0), 4))

    chains = play_chains(play.moves)
    before = play.position.tolist()  # the mover's view before the play
    departed: dict[int, int] = {}
    arrived: dict[int, int] = {}
    touched: set[int] = set()
    paths = []
    for chain in chains:
        src, dst = chain[0], chain[-1]
        touched.update((src, dst))
        n_src, n_dst = own_count(src), own_count(dst)
        if after:
            start = anchor(src, n_src + departed.get(src, 0))
            end = anchor(dst, n_dst - 1 - arrived.get(dst, 0))
        else:
            start = anchor(src, n_src - 1 - departed.get(src, 0))
            end = anchor(dst, n_dst + arrived.get(dst, 0))
        departed[src] = departed.get(src, 0) + 1
        arrived[dst] = arrived.get(dst, 0) + 1
        middle = [anchor(p, 0) for p in chain[1:-1] if before[p] == -1]  # bends at hits
        paths.append([start] + middle + [end])
    for point in sorted(touched):
        if 1 <= point <= 24:
            drawn = 25 - point if flip else point
            cx = _point_x(drawn)
            y0, y1 = ((_FIELD_TOP, _FIELD_TOP + _TRI_H) if drawn >= 13
                      else (_FIELD_BOTTOM - _TRI_H, _FIELD_BOTTOM))
            highlight = (f'<rect x="{_num(min(canvas.x(cx - 20), canvas.x(cx + 20)))}" '
                         f'y="{_num(y0)}" width="40" height="{_num(y1 - y0)}" '
                         f'fill="{COLOURS["highlight"]}" fill-opacity="0.4"/>')
            canvas.parts.insert(canvas.marker, highlight)
            canvas.marker += 1
    for path in paths:
        _arrow(canvas, path)


def _arrow(canvas: _Canvas, points: list[tuple[float, float]]) -> None:
    (x0, y0), (x1, y1) = points[-2], points[-1]
    length = math.hypot(x1 - x0, y1 - y0)
    if length < 1:
        return
    ux, uy = (x1 - x0) / length, (y1 - y0) / length
    head = 14
    base = (x1 - ux * head, y1 - uy * head)
    line = points[:-1] + [base]
    d = "M" + " L".join(f"{_num(canvas.x(x))} {_num(y)}" for x, y in line)
    colour = COLOURS["arrow"]
    canvas.parts.append(f'<path d="{d}" fill="none" stroke="{colour}" stroke-width="4.5" '
                        f'stroke-linecap="round" stroke-linejoin="round" stroke-opacity="0.9"/>')
    px, py = -uy * 7, ux * 7
    canvas.polygon([(x1, y1), (base[0] + px, base[1] + py), (base[0] - px, base[1] - py)],
                   colour, ' fill-opacity="0.9"')


def board(position: Position | Sequence[int], *, orientation: str = "right", dice: Any = None,
          cube: Any = None, last_play: Play | None = None, size: float = 540) -> BoardSVG:
    """The board of ``position`` (or of its 26-integer array) as an SVG picture.

    The result shows itself in Jupyter; ``str()`` of it is the SVG markup.

    - ``orientation``: ``"right"`` puts the home board of the player on roll
      bottom right (the default), ``"left"`` bottom left (RULES 1.5).
    - ``dice``: the roll to show, e.g. ``(3, 1)``.
    - ``cube``: ``None`` (not drawn), a value such as ``1`` or ``2`` for a
      centred cube (value 1 shows 64, RULES 1.1), or ``(value, owner)`` with
      owner ``None`` (centred), ``0`` (the player on roll) or ``1`` (the opponent).
    - ``last_play``: a :class:`~backgammon.Play` to mark with arrows and
      highlighted points: a play of ``position`` (about to be made), or the
      play that led to it (``position`` is its ``result``, or that result
      swapped when the opponent has just moved).
    - ``size``: the width in pixels (the height follows, 508/648 of it).

    Raises :class:`~backgammon.BackgammonError` for a bad option,
    :class:`~backgammon.InvalidDiceError` for bad dice and
    :class:`~backgammon.IllegalPlayError` for a ``last_play`` of another
    position.

        >>> import backgammon as bg
        >>> pos = bg.Position.initial()
        >>> play = pos.parse_play("8/5 6/5", (3, 1))
        >>> after = board(play.result, last_play=play, cube=(2, 1), orientation="left")
        >>> after.svg.count("<polygon") > 24
        True
    """
    orientation = check_orientation(orientation)
    position = as_position(position)
    width = _check_size(size)
    roll = None if dice is None else _bgcore.parse_dice(dice)
    cube_state = _check_cube(cube)
    if last_play is not None:
        from backgammon.position import Play  # svg is imported by position
        if not isinstance(last_play, Play):
            raise IllegalPlayError(f"last_play is a Play, got {type(last_play).__name__}: "
                                   f"{repr(last_play)[:80]}")
    a = position.tolist()
    canvas = _Canvas(orientation == "left")
    _draw_board(canvas, a)
    canvas.marker = len(canvas.parts)
    pips = position.pip_counts()
    _draw_info(canvas, pips, cube_state)
    _draw_checkers(canvas, a)
    if roll is not None:
        _draw_dice(canvas, roll)
    if last_play is not None:
        _draw_last_play(canvas, position, last_play)
    height = round(width * HEIGHT / WIDTH)
    w = round(width)
    title = (f"Backgammon position {position.position_id()}: player on roll (light) "
             f"{pips[0]} pips, opponent (dark) {pips[1]} pips"
             + (f", roll {roll[0]}-{roll[1]}" if roll else ""))
    svg = (f'<svg xmlns="http://www.w3.org/2000/svg" width="{w}" height="{height}" '
           f'viewBox="0 0 {WIDTH} {HEIGHT}" role="img" aria-label="{title}">'
           f"<title>{title}</title>" + "".join(canvas.parts) + "</svg>")
    return BoardSVG(svg, w, height)
