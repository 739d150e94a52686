"""Reporting what a format cannot carry (never dropped silently).

    >>> import warnings
    >>> with warnings.catch_warnings(record=True) as caught:
    ...     warnings.simplefilter("always")
    ...     report_loss("gnubg ID", ["beaver rule"], strict=False)
    >>> str(caught[0].message)
    'a gnubg ID cannot carry: beaver rule'
"""

from __future__ import annotations

import warnings
from typing import TYPE_CHECKING

from backgammon.errors import FormatLossError, FormatLossWarning

if TYPE_CHECKING:
    from backgammon.game import Game

__all__ = ["report_loss", "common_losses"]


def common_losses(game: Game) -> list[str]:
    """What neither gnubg's IDs nor the XGID can carry of a game's rules."""
    rules = game.rules
    lost = []
    if rules.automatic_doubles:
        lost.append("automatic doubles")
    if rules.backgammon_value != 3:
        lost.append("a backgammon worth 2")
    if rules.opening != "opening_dice":
        lost.append("the roll-again opening")
    if not rules.cube and not game.crawford:
        lost.append("a game without the cube")
    return lost


def report_loss(fmt: str, lost: list[str], *, strict: bool) -> None:
    """Warn (:class:`FormatLossWarning`) or, if ``strict``, raise :class:`FormatLossError`
    when ``lost`` names fields that ``fmt`` cannot carry; do nothing when it is empty."""
    if not lost:
        return
    message = f"a {fmt} cannot carry: {', '.join(lost)}"
    if strict:
        raise FormatLossError(message)
    warnings.warn(FormatLossWarning(message), stacklevel=4)  # the caller of Game.xxx()
