"""The options of a game: cube, money conventions, scoring and opening variants.

Every convention on which the rule texts differ (RULES 2, 7-9) is an option of
one frozen value, :class:`Rules`.  The defaults are plain match-style rules:
a cube up to 64, no Jacoby, no beavers, no automatic doubles, a backgammon
worth 3, and the opening dice played by the player who rolled higher.

    >>> from backgammon.rules import Rules
    >>> Rules().points("gammon", cube=4, cube_turned=True)
    8
    >>> Rules(jacoby=True).points("gammon", cube=1, cube_turned=False)
    1
    >>> Rules(jacoby=True).check_match_play()
    Traceback (most recent call last):
    ...
    backgammon.errors.InvalidRulesError: match play forbids the Jacoby rule (RULES 9.4)
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import Literal

from backgammon.errors import InvalidRulesError
from backgammon._show import shown
from backgammon._numbers import integer

__all__ = ["KIND_MULTIPLIERS", "OPENING_DICE", "ROLL_AGAIN", "Rules"]

OPENING_DICE = "opening_dice"
"""RULES 2.1: the higher opening die moves first and plays both opening dice."""
ROLL_AGAIN = "roll_again"
"""RULES 2.2: the higher opening die moves first but rolls both of its own dice."""

KIND_MULTIPLIERS = {"single": 1, "gammon": 2, "backgammon": 3}
"""How many times the cube each kind of win scores (RULES 7.2-7.4)."""


@dataclass(frozen=True)
class Rules:
    """Frozen rule options of a game (RULES 2, 7, 8, 9).

    ``cube``: whether the doubling cube is used at all (RULES 8.4).
    ``max_cube``: the highest value the cube may reach, a power of two up to 64
    (RULES 8.4).  ``jacoby``: gammons count single until the cube is turned
    (RULES 9.1).  ``beaver``: a doubled player may take and redouble at once
    (RULES 9.2).  ``automatic_doubles``: how many opening ties double the cube
    per game, 0 = off (RULES 9.3).  ``backgammon_value``: 3, or 2 in the
    variant of RULES 7.4.  ``opening``: :data:`OPENING_DICE` (RULES 2.1) or
    :data:`ROLL_AGAIN` (RULES 2.2).  ``over_the_board``: the recording mode of
    RULES 12.4: :meth:`Game.play` records an illegal play unchecked, either
    player may :meth:`Game.flag` it until the next roll, and after that roll
    it stands (off: every play is checked, the default).

        >>> Rules(cube=False).can_double_to(2)
        False
    """

    cube: bool = True
    max_cube: int = 64
    jacoby: bool = False
    beaver: bool = False
    automatic_doubles: int = 0
    backgammon_value: int = 3
    opening: Literal["opening_dice", "roll_again"] = "opening_dice"
    over_the_board: bool = False

    def __post_init__(self) -> None:
        for name in ("cube", "jacoby", "beaver", "over_the_board"):
            if not isinstance(getattr(self, name), bool):
                raise InvalidRulesError(f"{name} is True or False, got {shown(getattr(self, name))}")
        for name in ("max_cube", "automatic_doubles", "backgammon_value"):
            value = getattr(self, name)
            if integer(value) is None:
                raise InvalidRulesError(f"{name} is an integer, got {shown(value)}")
            object.__setattr__(self, name, integer(value))  # a numpy integer kept as int
        if self.max_cube not in (1, 2, 4, 8, 16, 32, 64):
            raise InvalidRulesError(
                f"max_cube is a power of two from 1 to 64 (RULES 8.4), got {shown(self.max_cube)}")
        if self.automatic_doubles < 0:
            raise InvalidRulesError(
                f"automatic_doubles counts doubles per game (0 = off), got {self.automatic_doubles}")
        if self.automatic_doubles and not self.cube:
            raise InvalidRulesError("automatic doubles need the cube (RULES 9.3, 8.4)")
        if self.backgammon_value not in (2, 3):
            raise InvalidRulesError(
                f"a backgammon is worth 3 or 2 (RULES 7.4), got {self.backgammon_value}")
        if self.opening not in (OPENING_DICE, ROLL_AGAIN):
            raise InvalidRulesError(
                f"opening is {shown(OPENING_DICE)} (RULES 2.1) or {shown(ROLL_AGAIN)} (RULES 2.2), "
                f"got {shown(self.opening)}")

    def replace(self, **changes: object) -> Rules:
        """A copy with some options changed (checked again).

            >>> Rules().replace(beaver=True).beaver
            True
        """
        try:
            return dataclasses.replace(self, **changes)  # type: ignore[arg-type]
        except TypeError as e:
            raise InvalidRulesError(str(e)) from None

    def check_match_play(self) -> None:
        """Raise :class:`InvalidRulesError` unless these rules may be used in a match.

        Match play forbids the Jacoby rule and automatic doubles (RULES 9.4).
        """
        if self.jacoby:
            raise InvalidRulesError("match play forbids the Jacoby rule (RULES 9.4)")
        if self.automatic_doubles:
            raise InvalidRulesError("match play forbids automatic doubles (RULES 9.4)")

    def can_double_to(self, value: int) -> bool:
        """Whether the cube may show ``value`` under these rules (RULES 8.4)."""
        return self.cube and value <= self.max_cube

    def multiplier(self, kind: str, *, cube_turned: bool, match_play: bool = False) -> int:
        """How many times the cube a win of ``kind`` scores (RULES 7.2-7.4, 9.1).

            >>> Rules().multiplier("bogus", cube_turned=False)
            Traceback (most recent call last):
            ...
            backgammon.errors.InvalidRulesError: kind is 'single', 'gammon' or 'backgammon' (RULES 7.2-7.4), got 'bogus'
        """
        if not isinstance(kind, str) or kind not in KIND_MULTIPLIERS:
            raise InvalidRulesError(
                f"kind is 'single', 'gammon' or 'backgammon' (RULES 7.2-7.4), got {shown(kind)}"[:300])
        for name, flag in (("cube_turned", cube_turned), ("match_play", match_play)):
            if not isinstance(flag, bool):
                raise TypeError(f"{name} is True or False, got {shown(flag)}")
        mult = self.backgammon_value if kind == "backgammon" else KIND_MULTIPLIERS[kind]
        if self.jacoby and not match_play and not cube_turned:  # RULES 9.1, 9.4
            mult = 1
        return mult

    def points(self, kind: str, *, cube: int, cube_turned: bool, match_play: bool = False) -> int:
        """The points of a win of ``kind`` with the cube on ``cube`` (RULES 8.5)."""
        value = integer(cube)
        if value is None:
            raise TypeError(f"cube is an integer, got {shown(cube)}")
        cube = value
        if cube not in (1, 2, 4, 8, 16, 32, 64):
            raise InvalidRulesError(
                f"the cube shows a power of two up to 64 (RULES 8.4), got {shown(cube)}")
        return cube * self.multiplier(kind, cube_turned=cube_turned, match_play=match_play)
