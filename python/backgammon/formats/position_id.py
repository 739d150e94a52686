"""gnubg's 14-character Position ID.

The ID packs both sides' checkers as a bit string: first the player NOT on
roll, then the player on roll (gnubg's manual says the opposite; gnubg itself
does this).  Each side is written from its own ace point: points 1 to 24, then
its bar; each point as one 1-bit per checker followed by a 0-bit.  The 80 bits
are packed least significant bit first into 10 bytes and written in base64
without the padding.

    >>> encode_position_id(bytes([0, 254, 0, 0, 0, 0, 5, 0, 3, 0, 0, 0, 251, 5,
    ...                           0, 0, 0, 253, 0, 251, 0, 0, 0, 0, 2, 0]))
    '4HPwATDgc/ABMA'
"""

from __future__ import annotations

import base64
import binascii

from backgammon.errors import InvalidPositionError

__all__ = ["encode_position_id", "decode_position_id"]

_DIGITS = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/"
_ALPHABET = frozenset(_DIGITS)
_ID_LENGTH = 14
_KEY_BITS = 80


def _side_counts(board: list[int]) -> tuple[list[int], list[int]]:
    """Checker counts of (not on roll, on roll), each from its own ace point, bar last."""
    opponent = [max(-board[25 - i], 0) for i in range(1, 25)] + [-board[0]]
    on_roll = [max(board[i], 0) for i in range(1, 25)] + [board[25]]
    return opponent, on_roll


def encode_position_id(board: bytes) -> str:
    """The Position ID of a valid 26-byte board (two's-complement int8)."""
    signed = [v - 256 if v > 127 else v for v in board]
    key = 0
    shift = 0
    for counts in _side_counts(signed):
        for count in counts:
            if count > 0:
                key |= ((1 << count) - 1) << shift
            shift += count + 1
    return base64.b64encode(key.to_bytes(10, "little")).decode("ascii")[:_ID_LENGTH]


def decode_position_id(text: str) -> list[int]:
    """The 26-int board array of a Position ID; InvalidPositionError if malformed.

    Checker totals are not checked here (Position.from_array does that), but a
    point claimed by both sides and a bit string that does not parse are.
    """
    if not isinstance(text, str):
        raise InvalidPositionError(f"a Position ID is a string, got {text!r}")
    text = text.strip()
    if len(text) != _ID_LENGTH or not set(text) <= _ALPHABET:
        raise InvalidPositionError(
            f"a Position ID is 14 base64 characters (A-Z a-z 0-9 + /), got {text!r}")
    if _DIGITS.index(text[-1]) & 0b1111:
        # 14 characters hold 84 bits: the last character's low 4 are not the key's
        # and gnubg writes them 0, so each position has one spelling
        raise InvalidPositionError(
            f"Position ID {text!r}: its last character carries 4 unused bits, which must "
            f"be 0 (one of {''.join(c for c in _DIGITS if not _DIGITS.index(c) & 15)})")
    try:
        data = base64.b64decode(text + "==", validate=True)
    except (binascii.Error, ValueError):  # pragma: no cover - alphabet checked above
        raise InvalidPositionError(f"not a Position ID: {text!r}") from None
    key = int.from_bytes(data[:10], "little")
    sides: list[list[int]] = []
    pos = 0
    for _ in range(2):
        counts = []
        for _ in range(25):
            count = 0
            while pos < _KEY_BITS and (key >> pos) & 1:
                count += 1
                pos += 1
            if pos >= _KEY_BITS:
                raise InvalidPositionError(
                    f"Position ID {text!r} does not parse: its 80 bits run out "
                    "before both sides' 25 points are read")
            pos += 1
            counts.append(count)
        if sum(counts) > 15:
            raise InvalidPositionError(
                f"Position ID {text!r} holds {sum(counts)} checkers for one side (at most 15)")
        sides.append(counts)
    if key >> pos:
        raise InvalidPositionError(f"Position ID {text!r} has bits set past its last point")
    opponent, on_roll = sides
    board = [0] * 26
    for i in range(24):
        board[i + 1] = on_roll[i]
    board[25] = on_roll[24]
    board[0] = -opponent[24]
    for i in range(24):
        if opponent[i]:
            point = 24 - i
            if board[point]:
                raise InvalidPositionError(
                    f"Position ID {text!r} puts checkers of both sides on point {point}")
            board[point] = -opponent[i]
    return board
