"""Positions written by hand for the tests."""

from __future__ import annotations

import backgammon as bg


def board(own: dict[int, int], opp: dict[int, int]) -> bg.Position:
    """own: {point: count} (25 = bar); opp: {point: count} in OUR numbering (0 = bar)."""
    a = [0] * 26
    for p, n in own.items():
        a[p] += n
    for p, n in opp.items():
        a[p] -= n
    return bg.Position.from_array(a)
