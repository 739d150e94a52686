"""Showing a caller's values in error messages, safely.

``repr`` of an integer past Python's digit limit (4,300 digits by default)
raises ``ValueError``, so an error message that quotes such a value would
raise the wrong exception; a huge list would make a huge message.
:func:`shown` never raises and stays short.

    >>> shown(10 ** 5000)
    '<an integer of more than 4,300 digits>'
    >>> shown(list(range(100)), 20)
    '[0, 1, 2, 3, 4, 5, 6...'
"""

from __future__ import annotations

import sys
from typing import Any

__all__ = ["shown"]


def shown(value: Any, limit: int = 200) -> str:
    """``repr(value)``, cut to ``limit`` characters; never raises."""
    try:
        text = repr(value)
    except ValueError:  # an int past sys.get_int_max_str_digits(), maybe inside a container
        if isinstance(value, int):
            limit_digits = getattr(sys, "get_int_max_str_digits", lambda: 4300)()
            return f"<an integer of more than {limit_digits:,} digits>"
        text = f"<a {type(value).__name__} holding an integer too long to print>"
    except Exception:  # a broken __repr__ of the caller's object
        text = f"<a {type(value).__name__}>"
    return text if len(text) <= limit else text[:limit] + "..."
