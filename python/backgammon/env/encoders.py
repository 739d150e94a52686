"""Observation encoders: boards as float32 inputs, batched in the core (encode.h).

    >>> import backgammon as bg
    >>> x = bg.encode([bg.Position.initial()], "tesauro")
    >>> x.shape, x.dtype.name
    ((1, 198), 'float32')
    >>> bg.encode([bg.Position.initial()], "pgx", dice=[(3, 1)])[0, 28:].tolist()
    [1.0, 0.0, 1.0, 0.0, 0.0, 0.0]

Every kind is defined unit by unit in ``docs/env.md``.
"""

from __future__ import annotations

from typing import Any, Iterable

import numpy as np

from backgammon import _bgcore
from backgammon._show import shown
from backgammon.errors import InvalidSetupError

NET_ENCODING: int = _bgcore.NET_ENCODING
"""The input encoding of the ``"net"`` observation: encoding 1 (``docs/nn.md``), the
inputs of the fast nets and of the screen; the default nets read encoding 4, which
extends it with more features."""

_KINDS = {"tesauro": "tesauro", "openspiel": "openspiel", "pgx": "pgx", "net": "net",
          f"net-v{NET_ENCODING}": "net"}


def encoding_kind(kind: Any) -> int:
    """The core's code of an encoding name; refuses unknown names and net versions."""
    if isinstance(kind, str) and kind.startswith("net-v") and kind not in _KINDS:
        raise InvalidSetupError(
            f"this build's nets use input encoding version {NET_ENCODING} "
            f"('net-v{NET_ENCODING}'), not {kind!r}")
    try:
        return _bgcore.ENCODINGS[_KINDS[kind]]
    except (KeyError, TypeError):
        raise InvalidSetupError(
            f"unknown encoding {shown(kind)}; choose one of {sorted(_KINDS)}") from None


def encoding_size(kind: str) -> int:
    """Floats per board: 198 (tesauro), 200 (openspiel), 34 (pgx), the nets' inputs (net)."""
    return _bgcore.encoding_size(encoding_kind(kind))


def _boards(boards: Any) -> np.ndarray:
    from backgammon.position import Position
    if isinstance(boards, Position):
        boards = [boards]
    if isinstance(boards, np.ndarray):
        a = boards
    else:
        rows = [b.to_array() if isinstance(b, Position) else b for b in boards]
        a = np.asarray(rows) if rows else np.zeros((0, 26), dtype=np.int8)
    if a.ndim != 2 or a.shape[1] != 26:
        from backgammon.errors import InvalidPositionError
        raise InvalidPositionError(f"boards must be an (n, 26) array or a list of Positions, "
                                   f"got shape {a.shape}")
    if a.dtype != np.int8:
        if not np.issubdtype(a.dtype, np.integer) or a.size and (a.min() < -15 or a.max() > 15):
            from backgammon.errors import InvalidPositionError
            raise InvalidPositionError("boards hold integers from -15 to 15")
        a = a.astype(np.int8)
    return np.ascontiguousarray(a)


def encode(boards: Any, kind: str = "tesauro", dice: Iterable[Any] | None = None,
           player: Any = None) -> np.ndarray:
    """float32 ``(n, k)`` inputs of ``boards`` (Positions or an ``(n, 26)`` array).

    ``kind``: ``"tesauro"`` (198), ``"openspiel"`` (200, equal to OpenSpiel's
    ``observation_tensor`` of the player on roll), ``"pgx"`` (34, Pgx's
    observation), ``"net"`` / ``f"net-v{NET_ENCODING}"`` (encoding 1 of
    docs/nn.md: the fast nets' inputs).  ``dice``: one ``(d1, d2)`` per board
    (``(0, 0)``: not rolled), used by openspiel and pgx.  ``player``: the seat (0 or 1, one or one per
    board) of the player on roll, which orients tesauro and openspiel
    (seat 0 is Tesauro's first side and OpenSpiel's X); default 0.
    The loop runs in the core without the GIL.
    """
    code = encoding_kind(kind)
    a = _boards(boards)
    n = a.shape[0]
    d = None
    if dice is not None:
        d = np.asarray(list(dice) if not isinstance(dice, np.ndarray) else dice)
        if d.ndim == 1 and d.shape == (2,) and n != 2:
            d = np.tile(d, (n, 1))
        if d.ndim != 2 or d.shape != (n, 2) or (d.size and not np.issubdtype(d.dtype, np.integer)):
            from backgammon.errors import InvalidDiceError
            raise InvalidDiceError(f"dice must be one (d1, d2) pair of integers per board "
                                   f"({n}), got {shown(dice)}"[:300])
        if d.size and (d.min() < 0 or d.max() > 6):
            from backgammon.errors import InvalidDiceError
            raise InvalidDiceError(f"a die is 1..6 (0, 0: not rolled), got {shown(dice)}"[:300])
        d = np.ascontiguousarray(d, dtype=np.uint8)
    s = None
    if player is not None:
        s = np.asarray(player)
        if s.ndim == 0:
            s = np.full(n, s)
        if s.shape != (n,) or not np.isin(s, (0, 1)).all() or s.dtype == np.bool_:
            raise InvalidSetupError(f"player is a seat 0 or 1, or one per board, got "
                                    f"{shown(player)}"[:300])
        s = np.ascontiguousarray(s, dtype=np.uint8)
    return _bgcore.encode(a, code, d, s)
