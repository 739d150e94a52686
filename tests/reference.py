"""A slow, obviously-correct reference move generator, written from RULES.md
alone, independent of the engine: every order of every die, then the
maximal-dice and higher-die rules (RULES 4.1, 4.2), then one play per
distinct result (RULES 13.2).  Used to cross-check the engine on positions
that no vector file covers."""

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
    """The set of distinct resulting boards of the roll."""
    orders = [[d1] * 4] if d1 == d2 else [[d1, d2], [d2, d1]]
    found: dict[Board, tuple[int, int]] = {}

    def walk(b: Board, dice: list[int], used: list[int]) -> None:
        nexts = single_steps(b, dice[0]) if dice else []
        for nb in nexts:
            walk(nb, dice[1:], used + [dice[0]])
        if not nexts:
            score = (len(used), max(used) if used else 0)
            if score > found.get(b, (-1, -1)):
                found[b] = score

    for order in orders:
        walk(tuple(board), order, [])
    best_len = max(n for n, _ in found.values())
    kept = {b: s for b, s in found.items() if s[0] == best_len}
    if d1 != d2 and best_len == 1:
        best_die = max(s[1] for s in kept.values())
        kept = {b: s for b, s in kept.items() if s[1] == best_die}
    return set(kept)
