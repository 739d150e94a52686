"""perft: counting the leaves of the play tree, the engine's whole-tree check.

    >>> import backgammon as bg
    >>> bg.perft(bg.Position.initial(), 1), bg.perft(bg.Position.initial(), 1, rolls=36)
    (447, 637)
"""

from __future__ import annotations

import operator

from backgammon import _bgcore
from backgammon._show import shown
from backgammon.errors import BackgammonError
from backgammon.position import Position

__all__ = ["perft"]

_MAX_DEPTH = 64  # far past anything computable, and well inside a C int


def perft(position: Position, depth: int, rolls: int = 21) -> int:
    """The number of leaves of the play tree ``depth`` plies deep.

    Each ply takes every one of the 21 distinct rolls (``rolls=21``) or the 36
    ordered rolls (``rolls=36``, non-doubles counted twice), then every
    distinct legal play, then the other side moves.  A finished game is a
    leaf.  From the opening position: 447, 202,782 (637, 419,783 with 36
    rolls).  Runs in the core without the GIL; depth 3 takes seconds, each
    further ply several hundred times longer.  Ctrl-C stops it within
    milliseconds (KeyboardInterrupt).
    """
    if not isinstance(position, Position):
        position = Position(position)
    depth = _integer(depth, "depth")
    if depth < 0:
        raise BackgammonError(f"depth must be >= 0, got {shown(depth)}")
    if isinstance(rolls, bool) or _integer(rolls, "rolls") not in (21, 36):
        raise BackgammonError(f"rolls must be 21 or 36, got {shown(rolls)}")
    if depth == 0 or position.outcome() is not None:
        return 1  # a finished game is a leaf, whatever the depth
    if depth > _MAX_DEPTH:
        raise BackgammonError(
            f"depth {shown(depth)} is beyond reach: the tree grows about 500-fold a ply "
            f"(depth {_MAX_DEPTH} at most)")
    return _bgcore.perft(position._b, depth, rolls == 36)


def _integer(value: object, name: str) -> int:
    """``value`` as an int; an array or anything else is refused (no truth tests)."""
    if isinstance(value, bool):
        raise BackgammonError(f"{name} must be an integer, got {value!r}")
    try:
        return operator.index(value)  # type: ignore[arg-type]
    except TypeError:
        raise BackgammonError(f"{name} must be an integer, got {shown(value)}") from None
