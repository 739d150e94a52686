"""Writing plays in gnubg's notation (RULES 13.1).

Steps are sorted by starting point, highest first; the steps of one checker
are then joined into a chain, showing an intermediate point only where a blot
was hit; identical moves are grouped with a count; ``bar`` and ``off`` name
the bar and bearing off; ``*`` follows every point where a blot stood.

    >>> import backgammon as bg
    >>> pos = bg.Position.initial()
    >>> sorted(str(p) for p in pos.legal_plays((6, 5)))[:2]
    ['13/2', '13/7 13/8']
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

    A step's destination is marked ``*`` when an opposing checker stood there
    before the play (gnubg's rule, so ``13/7*(4)`` marks every step).
    """
    if not moves:
        return ""
    steps = sorted(moves, key=lambda m: -m[0])
    chains: list[list[int]] = []
    # chain i continues while a later step starts where it stopped
    for src, dst in steps:
        for chain in chains:
            if chain[-1] == src and _open_end(chain):
                chain.append(dst)
                break
        else:
            chains.append([src, dst])
    texts = [_format_chain(board, chain) for chain in chains]
    out: list[str] = []
    i = 0
    while i < len(texts):
        j = i
        while j < len(texts) and texts[j] == texts[i]:
            j += 1
        out.append(texts[i] if j - i == 1 else f"{texts[i]}({j - i})")
        i = j
    return " ".join(out)


def _open_end(chain: list[int]) -> bool:
    return chain[-1] != 0


def _hit(board: Sequence[int], point: int) -> bool:
    return 1 <= point <= 24 and board[point] < 0


def _format_chain(board: Sequence[int], chain: list[int]) -> str:
    parts = [format_point(chain[0])]
    for k, point in enumerate(chain[1:], start=1):
        last = k == len(chain) - 1
        if last or _hit(board, point):
            parts.append(format_point(point) + ("*" if _hit(board, point) else ""))
    return "/".join(parts)
