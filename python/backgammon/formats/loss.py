"""Reporting what a format cannot carry (never dropped silently).

    >>> import warnings
    >>> with warnings.catch_warnings(record=True) as caught:
    ...     warnings.simplefilter("always")
    ...     report_loss("gnubg ID", ["beaver rule"], strict=False)
    >>> str(caught[0].message)
    'a gnubg ID cannot carry: beaver rule'
"""

from __future__ import annotations

import warnings

from backgammon.errors import FormatLossError, FormatLossWarning

__all__ = ["report_loss"]


def report_loss(fmt: str, lost: list[str], *, strict: bool) -> None:
    """Warn (:class:`FormatLossWarning`) or, if ``strict``, raise :class:`FormatLossError`
    when ``lost`` names fields that ``fmt`` cannot carry; do nothing when it is empty."""
    if not lost:
        return
    message = f"a {fmt} cannot carry: {', '.join(lost)}"
    if strict:
        raise FormatLossError(message)
    warnings.warn(FormatLossWarning(message), stacklevel=4)  # the caller of Game.xxx()
