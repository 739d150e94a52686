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
    "RolloutError",
    "BackgammonError",
    "InvalidPositionError",
    "InvalidDiceError",
    "IllegalPlayError",
    "GameOverError",
    "InvalidPlayError",
    "AmbiguousPlayError",
    "IllegalActionError",
    "InvalidRulesError",
    "InvalidRecordError",
    "InvalidWeightsError",
    "FormatLossError",
    "FormatLossWarning",
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


class InvalidPlayError(BackgammonError):
    """Text that is not play notation at all (RULES 13.1), such as ``"24-"`` or ``"hello"``.

    Well-formed notation that no legal play matches is an :class:`IllegalPlayError`.
    """


class AmbiguousPlayError(BackgammonError):
    """Play notation that fits more than one distinct legal play.

    The message lists the candidates in canonical notation; they are also in
    ``candidates``, a tuple of :class:`~backgammon.Play`.
    """

    def __init__(self, message: str, candidates: tuple = ()) -> None:
        super().__init__(message)
        self.candidates = tuple(candidates)


class IllegalActionError(BackgammonError):
    """A game, match or chouette action that is not allowed now.

    The message says why; the object acted on is left exactly as it was.
    """


class InvalidRulesError(BackgammonError):
    """Rule options that do not fit together (for example Jacoby in a match, RULES 9.4)."""


class InvalidRecordError(BackgammonError):
    """A Match ID, GNUbgID, XGID, .mat or JSON record that does not describe a game."""


class RolloutError(BackgammonError):
    """Bad rollout arguments, or a policy callable that misbehaves."""


class InvalidWeightsError(BackgammonError):
    """A weights file or array set that is not a valid :class:`~backgammon.Evaluator`."""


class FormatLossWarning(UserWarning):
    """Issued when a game is written in a format that cannot carry all of its state.

    The message lists the fields left out (for example a beaver rule in a gnubg
    Match ID); pass ``strict=True`` to the writer to get :class:`FormatLossError`.
    """


class FormatLossError(BackgammonError):
    """A strict writer was asked for a format that cannot carry all of the game's state."""
