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
    "TrainingDataError",
    "MatchEquityError",
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
    "InvalidSetupError",
    "FormatLossError",
    "FormatLossWarning",
    "IllegalDiceActionError",
    "IllegalPlayActionError",
    "InvalidPlayActionError",
    "AmbiguousPlayActionError",
    "InvalidBenchmarkError",
    "action_error",
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

    def __init__(self, message: str, candidates: tuple[object, ...] = ()) -> None:
        super().__init__(message)
        self.candidates = tuple(candidates)


class IllegalActionError(BackgammonError):
    """A game, match or chouette action that is not allowed now.

    The message says why; the object acted on is left exactly as it was.
    """


class InvalidRulesError(BackgammonError):
    """Rule options that do not fit together (for example Jacoby in a match, RULES 9.4)."""


class InvalidSetupError(BackgammonError):
    """Arguments that set up no game, match or chouette: a match to 0 points, a score
    past the match length, one name for two players, fewer than three chouette players."""


class InvalidRecordError(BackgammonError):
    """A Match ID, GNUbgID, XGID, .mat or JSON record that does not describe a game."""


class RolloutError(BackgammonError):
    """Bad rollout arguments, or a policy callable that misbehaves."""


class InvalidWeightsError(BackgammonError):
    """A weights file or array set that is not a valid :class:`~backgammon.Evaluator`."""


class TrainingDataError(BackgammonError):
    """A training-targets file or data set that cannot be trained on, bad
    settings for making one (:mod:`backgammon.training.targets`), or a training
    checkpoint whose state is missing or malformed."""


class MatchEquityError(BackgammonError):
    """A match equity table that cannot be read, or a score it does not cover."""


class InvalidBenchmarkError(BackgammonError):
    """A strength benchmark's position set that is malformed or not one (``backgammon.training.benchmark``)."""


class FormatLossWarning(UserWarning):
    """Issued when a game is written in a format that cannot carry all of its state.

    The message lists the fields left out (for example a beaver rule in a gnubg
    Match ID); pass ``strict=True`` to the writer to get :class:`FormatLossError`.
    """


class FormatLossError(BackgammonError):
    """A strict writer was asked for a format that cannot carry all of the game's state."""


# A game action refused for its dice or its play raises the precise class of the
# problem AND IllegalActionError, so ``except InvalidDiceError`` and ``except
# IllegalActionError`` both catch it.

class IllegalDiceActionError(InvalidDiceError, IllegalActionError):
    """Dice given to (or drawn by) a game action that are not two integers from 1 to 6."""


class IllegalPlayActionError(IllegalPlayError, IllegalActionError):
    """A step or play that a game action refuses: not legal now, or not integers."""


class InvalidPlayActionError(InvalidPlayError, IllegalActionError):
    """Notation given to a game action that is not play notation at all."""


class AmbiguousPlayActionError(AmbiguousPlayError, IllegalActionError):
    """Notation given to a game action that fits more than one legal play."""


_ACTION_CLASSES = (
    (AmbiguousPlayError, AmbiguousPlayActionError),
    (InvalidPlayError, InvalidPlayActionError),
    (InvalidDiceError, IllegalDiceActionError),
    (IllegalPlayError, IllegalPlayActionError),
)


def action_error(error: BackgammonError, message: str | None = None) -> IllegalActionError:
    """The :class:`IllegalActionError` for ``error`` raised inside a game action: the
    same precise class (InvalidDiceError, IllegalPlayError, ...) and message.

        >>> e = action_error(InvalidDiceError("dice must be two integers from 1 to 6"))
        >>> isinstance(e, InvalidDiceError), isinstance(e, IllegalActionError)
        (True, True)
    """
    text = str(error) if message is None else message
    if isinstance(error, IllegalActionError):
        return error if message is None else type(error)(text)
    for base, cls in _ACTION_CLASSES:
        if isinstance(error, base):
            if cls is AmbiguousPlayActionError:
                return cls(text, getattr(error, "candidates", ()))
            return cls(text)
    return IllegalActionError(text)
