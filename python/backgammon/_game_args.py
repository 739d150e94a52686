"""The arguments of a game's actions, checked: dice, points and steps, plays written
out, resignation kinds.  Each refusal is the precise
:class:`~backgammon.errors.IllegalActionError` of what is wrong."""

from __future__ import annotations

import itertools
from typing import Any

from backgammon.errors import (
    BackgammonError,
    IllegalActionError,
    IllegalDiceActionError,
    IllegalPlayActionError,
)
from backgammon.game_types import RESIGN_KINDS
from backgammon.position import Step
from backgammon._show import shown
from backgammon._numbers import integer

__all__ = ["MAX_STEPS", "checked_dice", "checked_point", "checked_resign_kind", "checked_steps",
           "notation_steps"]

MAX_STEPS = 8
"""The most steps a play may list (four dice; an unchecked play, RULES 12.4, up to eight)."""


def checked_dice(dice: Any) -> tuple[int, int]:
    """Two dice: two integers from 1 to 6, or text such as ``"31"`` or ``"3-1"``."""
    if isinstance(dice, str):  # "31", "3-1"
        from backgammon import _bgcore
        try:
            return _bgcore.parse_dice(dice)
        except BackgammonError as e:
            raise IllegalDiceActionError(str(e)) from None
    try:
        d1, d2 = dice
    except (TypeError, ValueError):
        raise IllegalDiceActionError(
            f"dice are two integers from 1 to 6, got {shown(dice)}"[:300]) from None
    a, b = integer(d1), integer(d2)
    if a is None or b is None or not (1 <= a <= 6 and 1 <= b <= 6):
        raise IllegalDiceActionError(f"dice are two integers from 1 to 6, got {shown(dice)}"[:300])
    return a, b


def checked_point(value: Any, step: Any) -> int:
    """One end of ``step``: a point from 0 to 25."""
    point = integer(value)
    if point is None or not 0 <= point <= 25:
        raise IllegalPlayActionError(
            f"a step is two points from 0 to 25 (from, to), got {shown(step)}"[:300])
    return point


def checked_steps(play: Any) -> tuple[Step, ...]:
    """The steps of ``play`` (any iterable of pairs, read once), checked to be integers."""
    if isinstance(play, (str, bytes)):
        raise IllegalPlayActionError(f"steps are (from, to) pairs, got {shown(play)}"[:300])
    try:
        items = list(itertools.islice(iter(play), MAX_STEPS + 1))
    except TypeError:
        raise IllegalPlayActionError(
            f"a play is a Play, notation text or (from, to) steps, got {shown(play)}"[:300]) from None
    if len(items) > MAX_STEPS:
        raise IllegalPlayActionError(f"a play has at most {MAX_STEPS} steps")
    out = []
    for step in items:
        try:
            src, dst = step
        except (TypeError, ValueError):
            raise IllegalPlayActionError(
                f"a step is a pair (from, to), got {shown(step)}"[:300]) from None
        out.append((checked_point(src, step), checked_point(dst, step)))
    return tuple(out)


def notation_steps(text: str) -> tuple[Step, ...]:
    """The steps that notation text writes, as written (``"24/14"`` is one step 24 to
    14): for a play recorded unchecked (RULES 12.4), which no legal play matches."""
    from backgammon.notation import parse_segments

    steps: list[Step] = []
    for segment in parse_segments(text):
        chain = list(zip(segment.points, segment.points[1:]))
        steps.extend(chain * segment.repeat)
    if len(steps) > MAX_STEPS:
        raise IllegalPlayActionError(f"a play has at most {MAX_STEPS} steps, {shown(text)} has "
                                     f"{len(steps)}"[:300])
    return tuple(steps)


def checked_resign_kind(kind: Any) -> str:
    """``"single"``, ``"gammon"`` or ``"backgammon"``, from the name or 1, 2, 3."""
    number = integer(kind)
    if number is not None and 1 <= number <= 3:
        return RESIGN_KINDS[number - 1]
    if isinstance(kind, str) and kind in RESIGN_KINDS:
        return str(kind)
    raise IllegalActionError(
        f"a resignation is 'single', 'gammon' or 'backgammon' (or 1, 2, 3), got {shown(kind)}"[:300])
