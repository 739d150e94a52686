"""A slow, obviously-correct reference move generator, written from RULES.md
alone, independent of the engine: sets of boards after each step, the
maximal-dice and higher-die rules (RULES 4.1, 4.2), one play per distinct
result (RULES 13.2).  Used to cross-check the engine on positions that no
vector file covers."""

from __future__ import annotations

Board = tuple[int, ...]


def single_steps(b: Board, d: int) -> list[Board]:
    """Boards after one legal step of die ``d`` (RULES 3.3-3.4, 5.1-5.2, 6.1-6.4)."""
    sources = [25] if b[25] > 0 else [p for p in range(1, 25) if b[p] > 0]
    home = all(b[p] <= 0 for p in range(7, 26))
    out = []
    for s in sources:
        t = s - d
        a = list(b)
        if t >= 1:
            if a[t] <= -2:
                continue  # closed point
            a[s] -= 1
            if a[t] == -1:  # hit: the blot goes to the opponent's bar
                a[t] = 0
                a[0] -= 1
            a[t] += 1
        else:
            if not home:
                continue
            if t < 0 and any(a[p] > 0 for p in range(s + 1, 7)):
                continue  # a larger die bears off from the highest point only
            a[s] -= 1
        out.append(tuple(a))
    return out


def reference_results(board: Board, d1: int, d2: int) -> set[Board]:
    """The set of distinct resulting boards of the roll.

    Doubles: the boards after k steps for the largest k (at most 4) that any
    sequence reaches.  Non-doubles: the boards after both dice in either
    order; if none, after the higher die alone; if none, the lower; if none,
    the board itself (RULES 4.4).
    """
    board = tuple(board)
    if d1 == d2:
        level = {board}
        for _ in range(4):
            nxt = {after for b in level for after in single_steps(b, d1)}
            if not nxt:
                break
            level = nxt
        return level
    both = {final
            for first, second in ((d1, d2), (d2, d1))
            for middle in single_steps(board, first)
            for final in single_steps(middle, second)}
    if both:
        return both
    for die in (max(d1, d2), min(d1, d2)):
        one = set(single_steps(board, die))
        if one:
            return one
    return {board}
