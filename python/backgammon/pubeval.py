"""pubeval, Tesauro's public linear evaluator (the benchmark opponent).

The weights (``data/pubeval.json``, public domain) and the exact inputs follow
the project's specification, docs/pubeval.md (cited by section as
``PUBEVAL.md 5``).  pubeval scores a position for the side that has just
moved: the positive side of a result of :meth:`Position.successors`.  Higher
is better for that side.

    >>> import backgammon as bg
    >>> from backgammon import pubeval
    >>> round(pubeval.score(bg.Position.initial()), 5)
    6.84055
    >>> str(pubeval.best_play(bg.Position.initial(), (3, 1)))
    '8/5 6/5'
"""

from __future__ import annotations

import json
import threading
from importlib import resources
from typing import Any

import numpy as np

from backgammon import _bgcore
from backgammon.batch import board_rows
from backgammon.position import Dice, Play, Position

__all__ = ["WIN_SCORE", "best_play", "install", "is_race", "score", "scores", "weights"]

WIN_SCORE = 99999999.0
"""The score of a position where the side that moved has borne off all 15."""


def weights() -> dict[str, list[float]]:
    """The two weight vectors, ``{"race": [...], "contact": [...]}`` (122 each)."""
    data = json.loads(resources.files("backgammon").joinpath("data/pubeval.json").read_text())
    return {"race": list(data["race"]), "contact": list(data["contact"])}


_installed = False
_install_lock = threading.Lock()


def install() -> None:
    """Installs the weights in the core, once: every path to the core's pubeval (its
    scores, playouts and duel players) calls it first, so that importing this module
    changes nothing.  Cheap after the first call.

        >>> install(); install()   # the second call does nothing
    """
    global _installed
    if _installed:
        return
    with _install_lock:
        if not _installed:
            w = weights()
            _bgcore.set_pubeval_weights(w["race"], w["contact"])
            _installed = True


def is_race(position: Position) -> bool:
    """Whether no contact is left: the positive side's rearmost checker (bar
    included) is past the other side's rearmost one (PUBEVAL.md 5)."""
    return _bgcore.is_race(_position(position)._b)


def score(position: Position, race: bool | None = None) -> float:
    """pubeval's score of ``position`` for its positive side, who has just moved
    (the inputs are defined in docs/pubeval.md).

    ``race`` picks the weight vector; by default it is decided from the
    position itself (PUBEVAL.md 6 explains why a move choice decides it from
    the position before the move instead, as :func:`best_play` does).
    """
    install()
    return float(_bgcore.pubeval_scores(_position(position).to_array()[None, :],
                                        _race_flag(race))[0])


def scores(boards: Any, race: bool | None = None) -> np.ndarray:
    """pubeval scores of an ``(m, 26)`` integer array of boards (float64 ``(m,)``).

    Every row must be a valid board with checkers on it: a wrong shape or
    dtype, a value outside -15..15, too many checkers or an empty board
    raises :class:`~backgammon.InvalidPositionError` naming the row.
    """
    # the core checks every row (an empty board too) in its scoring pass, which
    # Ctrl-C stops: no whole-array pass here
    install()
    return _bgcore.pubeval_scores(board_rows(boards), _race_flag(race))


def _race_flag(race: Any) -> int:
    if race is None:
        return -1
    if not isinstance(race, (bool, np.bool_)):
        raise TypeError(f"race is True, False or None, got {type(race).__name__}")
    return int(race)


def _position(position: Any) -> Position:
    if not isinstance(position, Position):
        raise TypeError(f"pubeval scores a Position, got {type(position).__name__}")
    return position


def best_play(position: Position, dice: Dice) -> Play:
    """The play pubeval chooses: the highest score with the race flag of the
    position before the move; among equal scores the first play in
    :meth:`Position.legal_plays` order (PUBEVAL.md 7)."""
    plays = _position(position).legal_plays(dice)
    if len(plays) == 1:
        return plays[0]
    install()
    values = _bgcore.pubeval_scores(plays.results(), int(is_race(position)))
    return plays[int(np.argmax(values))]
