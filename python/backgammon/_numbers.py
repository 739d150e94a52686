"""Numbers read from input: ASCII digits only, integers of any integral type.

``str.isdigit`` is true of ``"²"``, ``"⒌"`` and ``"₃"``, which ``int`` refuses, and
``int`` (like the regular expression ``\\d``) reads ``"٣"`` or ``"1_0"`` as numbers no
file format writes.  Every number the library reads from text goes through
:func:`read_int`, so a number is plain ASCII digits, bounded in length, and a bad
one is an error of the caller's class naming the field.

    >>> read_int("25", "the match length", ValueError)
    25
    >>> read_int("²", "MI length", ValueError)
    Traceback (most recent call last):
    ...
    ValueError: MI length '²' is not a number (ASCII digits only, at most 6 digits)
"""

from __future__ import annotations

import operator
from collections.abc import Callable
from typing import Any

from backgammon._show import shown

__all__ = ["is_digits", "read_int", "integer", "json_int"]

DIGITS = 6
"""The most digits a count in any record needs (match lengths stop at 32767)."""


def is_digits(text: str) -> bool:
    """Whether ``text`` is one or more ASCII digits ``0``-``9`` and nothing else.

        >>> is_digits("042"), is_digits("٣"), is_digits("²"), is_digits(""), is_digits("+1")
        (True, False, False, False, False)
    """
    return text.isascii() and text.isdigit()


def read_int(text: str, what: str, error: Callable[[str], Exception], *,
             digits: int = DIGITS, signed: bool = False) -> int:
    """The integer of ``text``: ASCII digits, at most ``digits`` of them, a leading
    ``-`` if ``signed`` (no blanks, no ``+``, no ``_``); else ``error(message)`` is
    raised, the message naming ``what`` and showing the text."""
    body = text
    if isinstance(body, str):
        sign, magnitude = (-1, body[1:]) if signed and body[:1] == "-" else (1, body)
        if is_digits(magnitude) and len(magnitude) <= digits:
            return sign * int(magnitude)
    kind = "a signed number" if signed else "a number"
    raise error(f"{what} {shown(body[:20] if isinstance(body, str) else body)} is not "
                f"{kind} (ASCII digits only, at most {digits} digits)")


def integer(value: Any) -> int | None:
    """``value`` as an ``int`` if it is an integer of any integral type (numpy's
    too, anything with ``__index__``), not a bool; else ``None``.

        >>> import numpy as np
        >>> integer(np.int64(3)), integer(True), integer(2.0), integer("3")
        (3, None, None, None)
    """
    if isinstance(value, bool):
        return None
    try:
        return operator.index(value)
    except TypeError:
        return None


def json_int(value: Any, what: str) -> int:
    """An integer field of a saved record (JSON): an integer, never a float or a
    string that ``int`` would convert (``8.7``, ``"٣"``); else ``TypeError``, which
    the record's reader reports as its own error.

        >>> json_int(3, "games")
        3
        >>> json_int("3", "games")
        Traceback (most recent call last):
        ...
        TypeError: games is an integer, got '3'
    """
    number = integer(value)
    if number is None:
        raise TypeError(f"{what} is an integer, got {shown(value, 40)}")
    return number
