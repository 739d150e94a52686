"""Legal plays of many positions at once, in the compiled core.

    >>> import numpy as np, backgammon as bg
    >>> boards = np.stack([bg.Position.initial().to_array()] * 2)
    >>> results, offsets = bg.batch_successors(boards, [(3, 1), (6, 6)])
    >>> offsets.tolist()
    [0, 16, 27]
    >>> bool((results[offsets[1]:offsets[2]][:, 24] >= 0).all())
    True
"""

from __future__ import annotations

from typing import Any

import numpy as np

from backgammon import _bgcore
from backgammon.errors import InvalidDiceError, InvalidPositionError

__all__ = ["batch_successors"]


def batch_successors(boards: Any, dice: Any) -> tuple[np.ndarray, np.ndarray]:
    """The resulting positions of many ``(board, roll)`` pairs.

    ``boards`` is an ``(m, 26)`` integer array in the board convention and
    ``dice`` an ``(m, 2)`` integer array (either die order) or a list of ``m``
    rolls as text (``"31"``).  Returns
    ``(results, offsets)``: ``results`` is ``int8`` ``(n, 26)`` and the plays
    of row ``i`` are ``results[offsets[i]:offsets[i + 1]]``, in the order of
    :meth:`Position.legal_plays`.  The GIL is released during generation, so
    threads run in parallel.  A bad row raises :class:`InvalidPositionError`,
    :class:`InvalidDiceError` or :class:`GameOverError` naming its index.
    """
    b8 = board_rows(boards)
    if isinstance(dice, (list, tuple)) and dice and all(isinstance(x, str) for x in dice):
        dice = [_bgcore.parse_dice(x) for x in dice[:b8.shape[0] + 1]]  # ["31", "6-6"]
    d = _int_array(dice, "dice", InvalidDiceError)
    if d.ndim != 2 or d.shape[1] != 2:
        raise InvalidDiceError(f"dice must have shape (m, 2), got {d.shape}")
    if d.shape[0] != b8.shape[0]:
        raise InvalidDiceError(
            f"{b8.shape[0]} boards but {d.shape[0]} rolls: one roll per board")
    bad = np.flatnonzero(((d < 1) | (d > 6)).any(axis=1))
    if bad.size:
        row = int(bad[0])
        raise InvalidDiceError(
            f"row {row}: dice must be two integers from 1 to 6, got {d[row].tolist()}")
    d8 = np.ascontiguousarray(d, dtype=np.uint8)
    return _bgcore.batch_successors(b8, d8)


def board_rows(boards: Any) -> np.ndarray:
    """``boards`` as a C-contiguous ``int8`` array ``(m, 26)``, checked at the
    boundary: an integer dtype (no floats truncated), exactly two dimensions
    (nothing reshaped), every value within -15..15 before the cast (no int64
    261 wrapping to 5).  The core checks each row's checker counts."""
    b = _int_array(boards, "boards", InvalidPositionError)
    if b.ndim != 2 or b.shape[1] != 26:
        raise InvalidPositionError(f"boards must have shape (m, 26), got {b.shape}")
    if b.dtype != np.int8:
        bad = np.flatnonzero(((b < -15) | (b > 15)).any(axis=1))
        if bad.size:
            row = int(bad[0])
            raise InvalidPositionError(
                f"row {row}: a point holds at most 15 checkers: {b[row].tolist()}")
    return np.ascontiguousarray(b, dtype=np.int8)


def _int_array(value: Any, name: str, error: type[Exception]) -> np.ndarray:
    try:
        arr = np.asarray(value)
    except (ValueError, TypeError) as exc:
        raise error(f"{name} must be an integer array: {exc}") from None
    if arr.dtype.kind not in "iu":
        if arr.size == 0 and arr.dtype.kind == "f":
            return arr.astype(np.int64)
        raise error(f"{name} must be an integer array, got dtype {arr.dtype}")
    return arr
