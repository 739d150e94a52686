"""The exceptions of ``backgammon``: one hierarchy, all ``ValueError``.

Catch :class:`BackgammonError` for any of them, or a precise subclass::

    >>> import backgammon as bg
    >>> try:
    ...     bg.Position.initial().legal_plays((7, 1))
    ... except bg.InvalidDiceError as e:
    ...     print(e)
    dice must be two integers from 1 to 6, got (7, 1)
"""

__all__ = [
    "BackgammonError",
    "InvalidPositionError",
    "InvalidDiceError",
    "IllegalPlayError",
    "GameOverError",
]


class BackgammonError(ValueError):
    """Base class of every error this library raises on bad input."""


class InvalidPositionError(BackgammonError):
    """A board array or Position ID that does not describe a position."""


class InvalidDiceError(BackgammonError):
    """Dice that are not two integers from 1 to 6."""


class IllegalPlayError(BackgammonError):
    """Steps that are not a complete legal play (or a legal start of one)."""


class GameOverError(BackgammonError):
    """Plays asked for in a position where a side has borne off all checkers."""
