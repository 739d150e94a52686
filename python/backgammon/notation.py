"""Writing plays in gnubg's notation (RULES 13.1).

Steps are sorted by starting point, highest first (ties: highest destination
first); the steps of one checker
are then joined into a chain, showing an intermediate point only where a blot
was hit; identical moves are grouped with a count; ``bar`` and ``off`` name
the bar and bearing off; ``*`` marks the first move that reaches a blot.

    >>> import backgammon as bg
    >>> pos = bg.Position.initial()
    >>> sorted(str(p) for p in pos.legal_plays((6, 5)))[:2]
    ['13/2', '13/7 8/3']
"""

from __future__ import annotations

from typing import Sequence

__all__ = ["format_play", "format_point"]

Step = tuple[int, int]


def format_point(point: int) -> str:
    """``25`` -> ``bar``, ``0`` -> ``off``, else the number."""
    if point == 25:
        return "bar"
    if point == 0:
        return "off"
    return str(point)


def format_play(board: Sequence[int], moves: Sequence[Step]) -> str:
    """The canonical text of ``moves`` played from the signed 26-int ``board``.

    A blot's point gets its ``*`` once, on the first move (in written order)
    that reaches it; a group of identical moves counts as one move.

        >>> start = [0, -2, 0, 0, 0, 0, 5, 0, 3, 0, 0, 0, -5, 5, 0, 0, 0, -3, 0, -5,
        ...          0, 0, 0, 0, 2, 0]
        >>> format_play(start, [(13, 10), (13, 10), (10, 7), (10, 7)])
        '13/7(2)'
    """
    if not moves:
        return ""
    steps = sorted(moves, key=lambda m: (-m[0], -m[1]))
    chains: list[list[int]] = []
    for src, dst in steps:
        for chain in chains:  # RULES 13.1: one checker's steps are written as one move
            if chain[-1] == src:
                chain.append(dst)
                break
        else:
            chains.append([src, dst])
    units: list[tuple[list[int], int]] = []
    for chain in chains:
        if units and units[-1][0] == chain:
            units[-1] = (chain, units[-1][1] + 1)
        else:
            units.append((chain, 1))
    hit: set[int] = set()
    out = []
    for chain, count in units:
        text = _format_chain(board, chain, hit)
        out.append(text if count == 1 else f"{text}({count})")
    return " ".join(out)


def _format_chain(board: Sequence[int], chain: list[int], hit: set[int]) -> str:
    parts = [format_point(chain[0])]
    for k, point in enumerate(chain[1:], start=1):
        star = 1 <= point <= 24 and board[point] < 0 and point not in hit
        if star:
            hit.add(point)
        if star or k == len(chain) - 1:
            parts.append(format_point(point) + ("*" if star else ""))
    return "/".join(parts)
