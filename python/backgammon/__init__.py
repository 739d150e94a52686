"""backgammon: a fast, exact backgammon engine.

    >>> import backgammon as bg
    >>> pos = bg.Position.initial()
    >>> len(pos.legal_plays((3, 1)))
    16
"""

from backgammon.errors import (
    AmbiguousPlayError,
    BackgammonError,
    GameOverError,
    IllegalPlayError,
    InvalidDiceError,
    InvalidPlayError,
    InvalidPositionError,
)
from backgammon.position import ALL_ROLLS, LegalPlays, Outcome, Play, Position
from backgammon import svg
from backgammon.batch import batch_successors
from backgammon.perft import perft
from backgammon import pubeval
from backgammon.rollout import Estimate, RolloutError, RolloutResult, rollout

__version__ = "0.1.0"

__all__ = [
    "ALL_ROLLS",
    "AmbiguousPlayError",
    "Estimate",
    "BackgammonError",
    "GameOverError",
    "IllegalPlayError",
    "InvalidDiceError",
    "InvalidPlayError",
    "InvalidPositionError",
    "LegalPlays",
    "Outcome",
    "Play",
    "Position",
    "RolloutError",
    "RolloutResult",
    "batch_successors",
    "perft",
    "pubeval",
    "rollout",
    "svg",
]
