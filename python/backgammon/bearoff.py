"""Exact bear-off chances from the one-sided bear-off database.

The core builds, on first use (about 50 ms), the distribution of the number
of turns one side needs to bear off all its checkers, for every position of
up to 15 checkers on its six home points, playing each roll to minimise the
expected number of turns; and the distribution of turns to its first
checker off, playing to save the gammon (docs/bearoff.md).  Two of them give
the cubeless chances of a race where both sides are home.

A *home* is six checker counts, points 1 to 6 of one side.

    >>> import backgammon as bg
    >>> from backgammon import bearoff
    >>> bearoff.expected_turns([0, 0, 0, 0, 0, 1])     # one checker on the 6-point
    1.25
    >>> pos = bg.Position([0, 1] + [0] * 22 + [-1, 0])  # one checker each, on the 1-points
    >>> bearoff.applies(pos), bearoff.equity(pos)
    (True, 1.0)
"""

from __future__ import annotations

import operator
from typing import Any, Iterable

import numpy as np

from backgammon import _bgcore
from backgammon.errors import GameOverError, InvalidPositionError
from backgammon.position import Position, board_bytes
from backgammon._show import shown

__all__ = [
    "NPOS",
    "OUTPUTS",
    "TURNS",
    "applies",
    "batch_probabilities",
    "equity",
    "expected_turns",
    "index",
    "probabilities",
    "turns",
]

NPOS: int = _bgcore.BEAROFF_NPOS
"""Positions in the database: 0 to 15 checkers on six points, C(21, 6) = 54,264."""

TURNS: int = _bgcore.BEAROFF_TURNS
"""Length of a distribution: turns 0 to 31 (the longest bear-off takes 30)."""

OUTPUTS = ("win", "win_gammon", "win_backgammon", "lose_gammon", "lose_backgammon")
"""The names of the five chances of :func:`probabilities`, in order (gnubg's, cumulative)."""


def _home(home: Any) -> bytes:
    """Six counts, each >= 0, at most 15 in all, as the core's 6 bytes."""
    if isinstance(home, (str, bytes, bytearray)):
        raise InvalidPositionError(f"a home board is 6 checker counts (points 1 to 6), got {shown(home)}")
    try:
        values = [operator.index(v) for v in home]
    except TypeError:
        raise InvalidPositionError(
            f"a home board is 6 checker counts (points 1 to 6), got {shown(home)}") from None
    if len(values) != 6:
        raise InvalidPositionError(
            f"a home board is 6 checker counts (points 1 to 6), got {len(values)}: {values}")
    if any(v < 0 for v in values):
        raise InvalidPositionError(f"a point holds 0 or more checkers, got {values}")
    if sum(values) > 15:
        raise InvalidPositionError(f"a side has at most 15 checkers, got {sum(values)}: {values}")
    return bytes(values)


def index(home: Iterable[int]) -> int:
    """The database index of a home, 0 (no checkers) to ``NPOS - 1`` (15 on the 6-point).

        >>> index([0] * 6), index([0, 0, 0, 0, 0, 15])
        (0, 54263)
    """
    return _bgcore.bearoff_index(_home(home))


def turns(home: Iterable[int], first: bool = False) -> np.ndarray:
    """float32 ``(TURNS,)``: entry ``t`` is the chance the side needs exactly
    ``t`` of its turns to bear off all its checkers (with ``first``: to bear
    off its first checker, playing for that).

        >>> turns([0, 0, 0, 0, 0, 2])[:3] * 36            # 3-3, 4-4, 5-5, 6-6 in one turn
        array([ 0.      ,  4.      , 24.166...], dtype=float32)
    """
    return _bgcore.bearoff_turns(_home(home), bool(first))


def expected_turns(home: Iterable[int], first: bool = False) -> float:
    """The expected number of turns of :func:`turns` (rounded to float32 precision)."""
    return round(_bgcore.bearoff_mean(_home(home), bool(first)), 6)


def _bearoff_board(position: Any) -> bytes:
    board = board_bytes(position)
    if not _bgcore.bearoff_applies(board):
        values = list(np.frombuffer(board, dtype=np.int8).tolist())
        if _bgcore.sides(board):
            raise GameOverError(f"the game is over, a side has no checkers: {values}")
        raise InvalidPositionError(
            "the bear-off database needs every checker home (the on-roll player's on "
            f"points 1-6, the opponent's on 19-24) and none on a bar: {values}")
    return board


def applies(position: Position | Iterable[int]) -> bool:
    """Whether the database answers ``position`` (a :class:`Position` or 26
    integers): both sides have checkers, none is on a bar, the on-roll
    player's are all on points 1-6 and the opponent's on 19-24.

        >>> applies(Position.initial())
        False
    """
    return _bgcore.bearoff_applies(board_bytes(position))


def probabilities(position: Position | Iterable[int]) -> np.ndarray:
    """float32 ``(5,)``: the cubeless chances of the player on roll, before
    rolling, in gnubg's order :data:`OUTPUTS` (cumulative: a gammon is also a
    win).  Backgammons are 0: without contact no checker can be left in the
    winner's home board or on the bar (RULES 7.4).

    Raises :class:`InvalidPositionError` where :func:`applies` is false, or
    :class:`GameOverError` when a side has no checkers left.
    """
    row = np.frombuffer(_bearoff_board(position), dtype=np.int8)[None, :]
    probs: np.ndarray = _bgcore.bearoff_probs(row)[0]
    return probs


def batch_probabilities(boards: Any) -> np.ndarray:
    """float32 ``(m, 5)`` of an ``(m, 26)`` integer array of bear-off boards
    (every row must be one; the error names the first that is not)."""
    arr = np.asarray(boards)
    if arr.ndim != 2 or arr.shape[1] != 26:
        raise InvalidPositionError(f"boards must have shape (m, 26), got {arr.shape}")
    if arr.dtype.kind not in "iu":
        raise InvalidPositionError(f"boards need an integer dtype, got {arr.dtype}")
    if arr.size and (arr.min() < -15 or arr.max() > 15):
        raise InvalidPositionError("a point holds at most 15 checkers")
    return _bgcore.bearoff_probs(np.ascontiguousarray(arr, dtype=np.int8))


def equity(position: Position | Iterable[int]) -> float:
    """The cubeless equity of the player on roll, before rolling:
    ``2 win - 1 + win_gammon - lose_gammon + win_backgammon - lose_backgammon``.

        >>> board = [0, 0, 0, 0, 0, 0, 15] + [0] * 17 + [-1, 0]   # 15 on the 6-point against 1 on the 1-point
        >>> equity(board)          # lost; a gammon unless 17 of the 36 rolls take a checker off now
        -1.52777...
    """
    w, wg, wb, lg, lb = (float(x) for x in probabilities(position))
    return 2.0 * w - 1.0 + wg - lg + wb - lb
