"""SVG boards (issue 3), checked in a real renderer.

The pictures are rendered to PNG by resvg (the ``resvg-py`` wheel: no system library,
no fonts needed, since the board draws its numbers as strokes) and decoded by Pillow;
the tests then read pixels.  Where each checker must be comes from the geometry the
module documents, re-derived here: 648 x 508 units, points 40 wide, the top row 13-18
then (past the 40-unit bar) 19-24 from the left, the bottom row 12-7 then 6-1, checkers
of radius 18 every 36 units from the board's edge at y = 34 and y = 474; "left" mirrors x.
Rendering at ``size=1296`` makes one unit exactly two pixels.
"""

from __future__ import annotations

import doctest
import io
import xml.etree.ElementTree as ET

import pytest
import resvg_py
from PIL import Image

import backgammon as bg
import backgammon.display.svg
from backgammon.errors import BackgammonError, IllegalPlayError, InvalidDiceError
from backgammon.display.svg import COLOURS, BoardSVG, board

SCALE = 2                      # pixels per unit at size=1296
R = 18

OWN, OPP = COLOURS["own"], COLOURS["opp"]


def render(picture: BoardSVG) -> Image.Image:
    png = bytes(resvg_py.svg_to_bytes(svg_string=picture.svg, skip_system_fonts=True))
    return Image.open(io.BytesIO(png)).convert("RGB")


def rgb(hex_colour: str) -> tuple[int, int, int]:
    return tuple(int(hex_colour[i:i + 2], 16) for i in (1, 3, 5))


def near(pixel, hex_colour, tolerance=8) -> bool:
    return all(abs(p - q) <= tolerance for p, q in zip(pixel, rgb(hex_colour)))


def pixel(img, x, y):
    """The colour at drawing units (x, y)."""
    return img.getpixel((int(x * SCALE), int(y * SCALE)))


def column(point: int, orientation: str) -> float:
    """x of a point's column centre, by the documented layout."""
    if point >= 13:
        k = point - 13                   # 13..18 left half, 19..24 right half
    else:
        k = 12 - point                   # 12..7 left half, 6..1 right half
    x = 64 + 40 * k + 20 if k < 6 else 344 + 40 * (k - 6) + 20
    return 648 - x if orientation == "left" else x


def slot_y(point: int, i: int) -> float:
    return 34 + 1 + R + 36 * i if point >= 13 else 474 - 1 - R - 36 * i


def mirror(x: float, orientation: str) -> float:
    return 648 - x if orientation == "left" else x


def checker_colour(img, x, y, labelled=False):
    """The checker colour there: at the centre, or (for a checker carrying a count, whose
    centre holds the digits) between its inner ring and its rim."""
    return pixel(img, x - 0.78 * R, y) if labelled else pixel(img, x, y)


def is_checker(px) -> bool:
    return near(px, OWN) or near(px, OPP)


def check_stacks(img, position, orientation):
    a = position.tolist()
    for point in range(1, 25):
        count, colour = abs(a[point]), OWN if a[point] > 0 else OPP
        x = column(point, orientation)
        for i in range(min(count, 5)):
            px = checker_colour(img, x, slot_y(point, i), labelled=(i == 4 and count > 5))
            assert near(px, colour), (point, i, px, orientation)
        if count < 5:
            px = pixel(img, x, slot_y(point, count))
            assert not is_checker(px), (point, count, px, orientation)


def check_bar(img, position, orientation):
    a = position.tolist()
    x = mirror(324, orientation)
    for count, colour, y_of in ((a[25], OWN, lambda i: 284 + 36 * i),
                                (-a[0], OPP, lambda i: 224 - 36 * i)):
        for i in range(min(count, 5)):
            px = checker_colour(img, x, y_of(i), labelled=(i == 4 and count > 5))
            assert near(px, colour), (count, i, px)
        if count < 5:
            assert not is_checker(pixel(img, x, y_of(count)))


def slab_runs(img, x, y0, y1, colour) -> int:
    """How many separate runs of ``colour`` a vertical scan from y0 to y1 crosses."""
    runs, inside = 0, False
    for y in range(int(y0 * SCALE), int(y1 * SCALE)):
        hit = near(img.getpixel((int(x * SCALE), y)), colour, 12)
        runs += hit and not inside
        inside = hit
    return runs


def check_trays(img, position, orientation):
    own_off, opp_off = position.borne_off()
    x = mirror(634, orientation)      # inside the slabs (607-637), beside the count label
    assert slab_runs(img, x, 264, 474, OWN) == own_off
    assert slab_runs(img, x, 34, 244, OPP) == opp_off
    # the count label, drawn in the middle of the tray column, is there when a side has any
    label_x = mirror(622, orientation)
    for off, y in ((own_off, 270), (opp_off, 238)):
        box = [pixel(img, label_x + dx, y + dy) for dx in range(-6, 7) for dy in range(-4, 5)]
        assert any(near(px, OWN, 40) for px in box) == (off > 0)


# Positions: the opening; bars on both sides and stacks past five; a bear-off race with
# checkers off on both sides; a side with 15 off-board-to-be (all on one point).
BARS = [-3, 0, 0, 0, 0, 0, 12, -1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, -7, 0, 2]
RACE = [0, 3, 2, 0, 1, 0, 2, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, -1, -2, -4, 0, -6, 0, 0]
BIG_BAR = [-6, 15] + [0] * 24
BLITZ = [0, -2, 2, 2, 2, 2, 2, 0, 1, 0, 0, 0, -5, 0, 0, 0, 0, -3, 0, -4, 0, 0, 0, 0, 0, 4]


@pytest.mark.parametrize("orientation", ["right", "left"])
@pytest.mark.parametrize("array", [None, BARS, RACE, BIG_BAR, BLITZ], ids=[
    "opening", "bars", "race", "big-bar", "blitz"])
def test_checkers_bar_and_trays_in_both_orientations(array, orientation):
    position = bg.Position(array)
    img = render(board(position, orientation=orientation, size=1296))
    assert img.size == (1296, 1016)
    check_stacks(img, position, orientation)
    check_bar(img, position, orientation)
    check_trays(img, position, orientation)


def test_corpus_positions_in_both_orientations(movegen_cases):
    for case in movegen_cases[::700]:
        position = bg.Position(case["board"])
        for orientation in ("right", "left"):
            img = render(board(position, orientation=orientation, size=1296))
            check_stacks(img, position, orientation)
            check_bar(img, position, orientation)
            check_trays(img, position, orientation)


def test_the_opening_by_hand():
    """Spot checks written out.  Right orientation: the bottom right quarter holds 6, 5, 4,
    3, 2, 1 from the left, so the 6-point is its first column (x = 344 + 20)."""
    img = render(board(bg.Position.initial(), size=1296))
    assert near(pixel(img, 364, 455), OWN)          # 6-point, first checker
    assert near(pixel(img, 364, 455 - 4 * 36), OWN)  # 6-point, fifth checker
    assert near(pixel(img, 564, 455), OPP)          # 1-point: the opponent's two back checkers
    assert near(pixel(img, 564, 53), OWN)           # 24-point: our back checkers
    assert near(pixel(img, 84, 53), OWN)            # 13-point (top left)
    assert near(pixel(img, 84, 455), OPP)           # 12-point (bottom left)
    left = render(board(bg.Position.initial(), orientation="left", size=1296))
    assert near(pixel(left, 648 - 364, 455), OWN)    # the 6-point is now left of the bar
    assert near(pixel(left, 84, 455), OPP)           # 1-point at the bottom far left
    assert near(pixel(left, 84, 53), OWN)            # 24-point at the top far left


def test_count_labels_past_five():
    img = render(board(bg.Position(BARS), size=1296))
    # the 6-point holds 12: the fifth checker carries dark digits on the light checker
    x, y = column(6, "right"), slot_y(6, 4)
    box = [pixel(img, x + dx, y + dy) for dx in range(-8, 9) for dy in range(-6, 7)]
    assert any(near(px, COLOURS["own_text"], 60) for px in box)
    # a stack of exactly five has no label
    img5 = render(board(bg.Position.initial(), size=1296))
    x, y = column(6, "right"), slot_y(6, 4)
    box = [pixel(img5, x + dx, y + dy) for dx in range(-8, 9) for dy in range(-6, 7)]
    assert not any(near(px, COLOURS["own_text"], 60) for px in box)
    # different counts draw different digits
    b = list(BARS)
    b[6], b[5] = 11, 1
    img_b = render(board(bg.Position(b), size=1296))
    box_a = [pixel(img, x + dx, y + dy) for dx in range(-8, 9) for dy in range(-6, 7)]
    box_b = [pixel(img_b, x + dx, y + dy) for dx in range(-8, 9) for dy in range(-6, 7)]
    assert box_a != box_b


@pytest.mark.parametrize("orientation", ["right", "left"])
def test_dice_are_in_the_right_hand_half(orientation):
    # RULES 12.1: the dice lie in the right-hand half, whichever way the board is drawn
    for dice in [(1, 2), (3, 4), (5, 6)]:
        img = render(board(bg.Position.initial(), dice=dice, orientation=orientation, size=1296))
        for die, cx in zip(dice, (440, 488)):
            pips = {(0, 0): die % 2 == 1, (-1, -1): die >= 2, (1, 1): die >= 2,
                    (1, -1): die >= 4, (-1, 1): die >= 4, (-1, 0): die == 6, (1, 0): die == 6}
            for (dx, dy), dark in pips.items():
                px = pixel(img, cx + 9.5 * dx, 254 + 9.5 * dy)
                assert near(px, COLOURS["die_pip"], 30) == dark, (dice, die, dx, dy, px)
                assert near(px, COLOURS["die"]) == (not dark)
    plain = render(board(bg.Position.initial(), orientation=orientation, size=1296))
    assert near(pixel(plain, 440, 254), COLOURS["field"])


@pytest.mark.parametrize("orientation", ["right", "left"])
def test_cube_value_and_side(orientation):
    x = mirror(26, orientation)
    for cube, y in ((1, 254), ((2, None), 254), ((4, 1), 100), ((8, 0), 408), ((64, "opponent"), 100)):
        img = render(board(bg.Position.initial(), cube=cube, orientation=orientation, size=1296))
        assert near(pixel(img, x - 13, y - 13), COLOURS["cube"]), cube
        for other in {254, 100, 408} - {y}:
            assert near(pixel(img, x - 13, other - 13), COLOURS["case"]), (cube, other)
        ink = [pixel(img, x + dx, y + dy) for dx in range(-9, 10) for dy in range(-7, 8)]
        assert any(near(px, COLOURS["cube_text"], 60) for px in ink)
    none = render(board(bg.Position.initial(), orientation=orientation, size=1296))
    assert near(pixel(none, x - 13, 254 - 13), COLOURS["case"])
    # a centred cube of 1 shows 64, like a cube of 64: the same digits
    one = render(board(bg.Position.initial(), cube=1, size=1296))
    sixty_four = render(board(bg.Position.initial(), cube=64, size=1296))
    two = render(board(bg.Position.initial(), cube=2, size=1296))
    box = [(26 + dx, 254 + dy) for dx in range(-12, 13) for dy in range(-9, 10)]
    assert [pixel(one, *p) for p in box] == [pixel(sixty_four, *p) for p in box]
    assert [pixel(one, *p) for p in box] != [pixel(two, *p) for p in box]


def test_last_play_arrows_and_highlights():
    pos = bg.Position.initial()
    play = pos.parse_play("24/13", (6, 5))
    plain = render(board(pos, size=1296))
    before = render(board(pos, last_play=play, size=1296))
    # the arrow runs from the top checker of 24 (slot 1) to 13 (slot 4 at most): over the bar
    ax, ay = 564, slot_y(24, 1)
    bx, by = 84, slot_y(13, 4)
    mx, my = (ax + bx) / 2, (ay + by) / 2
    r, g, b = pixel(before, mx, my)
    assert b > r + 60 and b > g + 20, (r, g, b)
    # the touched points are highlighted (a triangle's colour changes), others are not
    assert pixel(before, 564, 150) != pixel(plain, 564, 150)     # 24, below its checkers
    assert pixel(before, 244, 300) == pixel(plain, 244, 300)     # the 8-point's triangle tip
    # after the play, seen by its mover, and by the next player (swapped, mirrored numbers)
    after = board(play.result, last_play=play, size=1296)
    assert "<path" in after.svg
    swapped = render(board(play.result.swapped(), last_play=play, size=1296))
    plain_swapped = render(board(play.result.swapped(), size=1296))
    # the opponent's 24 and 13 are our 1 and 12, in the bottom row: 1 is highlighted (its
    # one checker left leaves the triangle's tip free) and the arrow runs from the empty
    # second slot of 1 (y = 419) to the sixth checker's place on 12 (the fifth slot, y = 311)
    assert pixel(swapped, 564, 320) != pixel(plain_swapped, 564, 320)
    assert pixel(swapped, 564, 150) == pixel(plain_swapped, 564, 150)
    r, g, b = pixel(swapped, (564 + 84) / 2, (419 + 311) / 2)
    assert b > r + 60 and b > g + 20, (r, g, b)


def test_last_play_of_another_position():
    play = bg.Position.initial().parse_play("24/18 13/11", (6, 2))
    other = bg.Position(BARS)
    with pytest.raises(IllegalPlayError) as info:
        board(other, last_play=play)
    assert type(info.value) is IllegalPlayError
    with pytest.raises(IllegalPlayError):
        board(bg.Position.initial(), last_play="24/18 13/11")


def test_last_play_from_the_bar_and_off():
    pos = bg.Position([0, 0, 0, 0, 2, 2, 2] + [0] * 13 + [-15, 0, 0, 0, 0, 0])
    play = pos.parse_play("6/off 5/off", (6, 5))
    for p in (play.position, play.result, play.result.swapped()):
        for orientation in ("right", "left"):
            assert board(p, last_play=play, orientation=orientation).svg.count('fill="#1565c0"') == 2
    entering = [0, -2, 0, 0, 0, 0, 5, 0, 3, 0, 0, 0, -5, 5, 0, 0, 0, -3, 0, -4, 0, 0, -1, 0, 1, 1]
    play = bg.Position(entering).parse_play("bar/22* 6/5", (3, 1))
    for p in (play.position, play.result, play.result.swapped()):
        assert board(p, last_play=play).svg.count('fill="#1565c0"') == 2


# ---------------------------------------------------------------------------------------------
# The SVG text itself
# ---------------------------------------------------------------------------------------------

def test_svg_is_self_contained_and_well_formed(movegen_cases):
    play = bg.Position.initial().parse_play("8/5 6/5", (3, 1))
    pictures = [board(bg.Position(c["board"]), dice=c["dice"], cube=(2, 0))
                for c in movegen_cases[::300]]
    pictures.append(board(play.result, last_play=play, orientation="left", cube=1))
    for picture in pictures:
        root = ET.fromstring(picture.svg)
        assert root.tag == "{http://www.w3.org/2000/svg}svg"
        assert root.get("viewBox") == "0 0 648 508"
        tags = {el.tag.split("}")[1] for el in root.iter()}
        assert tags <= {"svg", "title", "rect", "polygon", "circle", "path"}, tags
        for banned in ("<use", "<text", "<image", "href", "font", "url(", " id=", "<style"):
            assert banned not in picture.svg


def test_size_and_jupyter_hooks(tmp_path):
    pos = bg.Position.initial()
    picture = board(pos)
    assert (picture.width, picture.height) == (540, 423)           # 540 * 508 / 648 = 423.3
    small = board(pos, size=324)
    assert (small.width, small.height) == (324, 254)
    assert 'width="324" height="254"' in small.svg
    assert picture._repr_svg_() == str(picture) == picture.svg
    assert picture.svg in picture._repr_html_()
    assert pos._repr_svg_() == board(pos).svg
    path = tmp_path / "board.svg"
    picture.save(path)
    assert path.read_text(encoding="utf-8") == picture.svg
    assert repr(picture) == "<BoardSVG 540x423>"
    assert "4HPwATDgc/ABMA" in picture.svg                          # in the title


@pytest.mark.parametrize("kwargs", [
    {"orientation": "up"}, {"orientation": None}, {"size": 0}, {"size": -5},
    {"size": "big"}, {"size": float("nan")}, {"size": True}, {"size": 10**6},
    {"cube": 3}, {"cube": 128}, {"cube": 0}, {"cube": "2"}, {"cube": (2, 2)},
    {"cube": (2, "me")}, {"cube": (2, 1, 0)}, {"cube": True}, {"cube": 2.0},
])
def test_bad_options(kwargs):
    with pytest.raises(BackgammonError) as info:
        board(bg.Position.initial(), **kwargs)
    assert type(info.value) is BackgammonError


def test_an_array_draws_like_its_position():
    assert board(bg.Position(BARS).tolist()).svg == board(bg.Position(BARS)).svg
    with pytest.raises(bg.InvalidPositionError):
        board([0] * 26)


@pytest.mark.parametrize("dice", [(7, 1), (0, 3), "71", (1,), (1, 2, 3)])
def test_bad_dice(dice):
    with pytest.raises(InvalidDiceError):
        board(bg.Position.initial(), dice=dice)


def test_docstring_examples():
    assert doctest.testmod(backgammon.display.svg, optionflags=doctest.ELLIPSIS).failed == 0
