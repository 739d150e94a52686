"""Writing and reading plays in gnubg's notation (RULES 13.1).

Steps are sorted by starting point, highest first (ties: highest destination
first); the steps of one checker
are then joined into a chain, showing an intermediate point only where a blot
was hit; identical moves are grouped with a count; ``bar`` and ``off`` name
the bar and bearing off; ``*`` marks the first move that reaches a blot.

    >>> import backgammon as bg
    >>> pos = bg.Position.initial()
    >>> sorted(str(p) for p in pos.legal_plays((6, 5)))[:2]
    ['13/2', '13/7 8/3']

:func:`parse_play` reads the spellings people and programs write (gnubg,
eXtreme Gammon, FIBS, books) back into the legal play they denote:

    >>> str(parse_play(pos, "13/11  24-18", (6, 2)))
    '24/18 13/11'
"""

from __future__ import annotations

import re
from itertools import islice
from typing import TYPE_CHECKING, Iterator, NamedTuple, Sequence

from backgammon import _bgcore
from backgammon.errors import AmbiguousPlayError, IllegalPlayError, InvalidPlayError

if TYPE_CHECKING:  # pragma: no cover
    from backgammon.position import Dice, Play, Position

__all__ = ["format_play", "format_point", "parse_play", "play_chains"]

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
    chains = play_chains(moves)  # checks the number of steps
    if not chains:
        return ""
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


def play_chains(moves: Sequence[Step]) -> list[list[int]]:
    """The steps of a play joined into one point list per checker, in written order.

    Steps are sorted by starting point, highest first (ties: highest destination
    first), and a step that starts where an earlier chain ends continues it.

        >>> play_chains([(8, 5), (6, 5)]), play_chains([(24, 18), (18, 13)])
        ([[8, 5], [6, 5]], [[24, 18, 13]])
    """
    steps = list(islice(moves, 5))  # one past a turn: an endless iterable stops here
    if len(steps) > 4:
        raise IllegalPlayError(f"a turn has at most 4 steps, got more: {steps}")
    chains: list[list[int]] = []
    for src, dst in sorted(steps, key=lambda m: (-m[0], -m[1])):
        for chain in chains:  # RULES 13.1: one checker's steps are written as one move
            if chain[-1] == src:
                chain.append(dst)
                break
        else:
            chains.append([src, dst])
    return chains


def _format_chain(board: Sequence[int], chain: list[int], hit: set[int]) -> str:
    parts = [format_point(chain[0])]
    for k, point in enumerate(chain[1:], start=1):
        star = 1 <= point <= 24 and board[point] < 0 and point not in hit
        if star:
            hit.add(point)
        if star or k == len(chain) - 1:
            parts.append(format_point(point) + ("*" if star else ""))
    return "/".join(parts)


# ----------------------------------------------------------------------------
# Reading notation

class _Leg(NamedTuple):
    """One written move ``src/dst`` of one checker; ``mark``: written with a hit mark."""

    src: int
    dst: int
    mark: bool


class _Segment(NamedTuple):
    """One written chain such as ``13/7*/5(2)``: its points, hit marks and count."""

    points: tuple[int, ...]
    marks: tuple[bool, ...]  # one per point after the first
    repeat: int
    text: str


_SEPARATORS = re.compile(r"[\s,;]*")
_POINT = re.compile(r"(bar|b|off|o|[0-9]{1,3})(?![a-wyz0-9])")  # ASCII digits (\d takes "٣")
_JOIN = re.compile(r"\s*[/-]\s*")
_MARK = re.compile(r"[*x]")
_COUNT = re.compile(r"\s*\(\s*([0-9]+)\s*\)")
_MAX_TEXT = 1000  # a play has at most 4 steps: real notation is a few dozen characters
_NO_MOVE = frozenset({"", "no move", "(no move)", "no play", "cannot move", "can't move"})
_EXPECTED = "play notation looks like '24/18 13/11', 'bar/22*', '6/off' or '8/5(2)'"


def _point_value(token: str) -> int:
    if token in ("bar", "b"):
        return 25
    if token in ("off", "o"):
        return 0
    return int(token)


def parse_segments(text: str) -> list[_Segment]:
    """The chains of ``text``, or :class:`InvalidPlayError` when it is not notation."""
    if not isinstance(text, str):
        raise InvalidPlayError(f"a play in notation is a str, got {type(text).__name__}")
    if len(text) > _MAX_TEXT:
        raise InvalidPlayError(f"play notation is at most {_MAX_TEXT} characters, got "
                               f"{len(text):,}: {text[:40]!r}...")
    shown = text.strip()
    low = shown.lower()
    if low in _NO_MOVE:
        return []
    if len(low) != len(shown):  # lower() changed the length: show the lower-case text
        shown = low
    segments = []
    i = _SEPARATORS.match(low).end()  # type: ignore[union-attr]

    def fail(why: str, at: int) -> InvalidPlayError:
        where = f"at {low[at:at + 8]!r}" if at < len(low) else "at the end"
        return InvalidPlayError(f"{text!r} is not play notation: {why} {where} "
                                f"(character {at + 1}); {_EXPECTED}")

    while i < len(low):
        start = i
        match = _POINT.match(low, i)
        if match is None:
            raise fail("expected a point (1-24, bar or off)", i)
        points = [_point_value(match.group(1))]
        marks: list[bool] = []
        i = match.end()
        if _MARK.match(low, i):
            raise fail("a hit mark follows the point where the hit happens, not the start", i)
        while True:
            join = _JOIN.match(low, i)
            if join is None:
                break
            match = _POINT.match(low, join.end())
            if match is None:
                raise fail("expected a point (1-24, bar or off) after the '/'", join.end())
            points.append(_point_value(match.group(1)))
            i = match.end()
            mark = _MARK.match(low, i)
            marks.append(mark is not None)
            if mark:
                i = mark.end()
        if len(points) < 2:
            raise fail("a move is written from/to", start)
        count = 1
        counted = _COUNT.match(low, i)
        if counted:
            digits = counted.group(1)  # int() of 4,301 digits raises: look at the length first
            count = int(digits) if len(digits) <= 4 else 0
            if not 1 <= count <= 4:
                raise fail("a repeat count is 1 to 4", counted.start())
            i = counted.end()
        for value in points:
            if value > 25:
                raise fail(f"{value} is not a point (1-24, bar = 25, off = 0)", start)
        end = _SEPARATORS.match(low, i).end()  # type: ignore[union-attr]
        if end == i and i < len(low):
            raise fail("moves are separated by spaces", i)
        segments.append(_Segment(tuple(points), tuple(marks), count, shown[start:i].strip()))
        i = end
    return segments


def _legs(segments: list[_Segment], board: list[int]) -> list[_Leg]:
    """The written moves, each checker's separately; :class:`IllegalPlayError`
    for moves no play can make (backwards, hit marks where no blot stands)."""
    legs: list[_Leg] = []
    for seg in segments:
        for k in range(1, len(seg.points)):
            src, dst = seg.points[k - 1], seg.points[k]
            if dst >= src:
                raise IllegalPlayError(
                    f"{seg.text!r} moves from {format_point(src)} to {format_point(dst)}: "
                    f"checkers move from higher to lower points, from the bar (25) "
                    f"to 1 and then off (RULES 1.3)")
            if seg.marks[k - 1] and not (1 <= dst <= 24 and board[dst] == -1):
                raise IllegalPlayError(
                    f"{seg.text!r} marks a hit on {format_point(dst)}, but no single "
                    f"opposing checker (a blot) stands there to hit (RULES 3.4)")
        for _ in range(seg.repeat):
            legs.extend(_Leg(seg.points[k - 1], seg.points[k], seg.marks[k - 1])
                        for k in range(1, len(seg.points)))
    return legs


_Die = tuple[int, int, int]  # one single-die step: (from, die, to)


def _splits(src: int, dst: int, pool: tuple[int, ...]) -> Iterator[tuple[list[_Die], tuple[int, ...]]]:
    """Every way to move one checker ``src`` -> ``dst`` with dice of ``pool``:
    the steps and the dice left.  Only a last step into ``off`` may use a die
    larger than the distance left (RULES 6.4)."""
    if src == dst:
        yield [], pool
        return
    for die in sorted(set(pool), reverse=True):
        rest = list(pool)
        rest.remove(die)
        nxt = src - die
        if dst == 0 and nxt <= 0:
            yield [(src, die, 0)], tuple(rest)
        elif nxt >= max(dst, 1):
            for steps, left in _splits(nxt, dst, tuple(rest)):
                yield [(src, die, nxt)] + steps, left


def _decompositions(legs: list[_Leg], pool: tuple[int, ...]) -> list[tuple[_Die, ...]]:
    """Every distinct multiset of single-die steps that carries out all ``legs``."""
    found: set[tuple[_Die, ...]] = set()
    out: list[tuple[_Die, ...]] = []

    def walk(k: int, pool: tuple[int, ...], acc: list[_Die]) -> None:
        if k == len(legs):
            key = tuple(sorted(acc, key=lambda s: (-s[0], -s[1])))
            if key not in found:
                found.add(key)
                out.append(tuple(acc))
            return
        for steps, left in _splits(legs[k].src, legs[k].dst, pool):
            walk(k + 1, left, acc + steps)

    walk(0, pool, [])
    return out


def _step_text(src: int, to: int) -> str:
    return f"{format_point(src)}/{format_point(to)}"


def _why_not(board: bytes, src: int, die: int, to: int) -> str:
    """Why the single step ``src`` -> ``to`` with ``die`` is not legal on ``board``."""
    a = [v - 256 if v > 127 else v for v in board]
    if src == 25 and a[25] <= 0:
        return "no checker of yours is on the bar"
    if src != 25 and a[25] > 0:
        return "your checkers on the bar must enter first (RULES 5.1)"
    if src != 25 and a[src] <= 0:
        return f"no checker of yours is on {src}"
    if to >= 1 and a[to] <= -2:
        rule = "RULES 5.2" if src == 25 else "RULES 3.3"
        return f"{to} is closed, {-a[to]} opposing checkers stand there ({rule})"
    if to == 0 and any(a[p] > 0 for p in range(7, 26)):
        return "bearing off needs all your checkers in your home board (RULES 6.1)"
    if to == 0 and die > src:
        return (f"a {die} bears off from {src} only when no checker of yours "
                f"is on a higher point (RULES 6.4)")
    return "not a legal move"  # pragma: no cover - every case is named above


_Failure = tuple[int, int, str, str]  # (steps made, -index, step, why)


def _carry_out(board: bytes, steps: tuple[_Die, ...]) -> tuple[bytes | None, _Failure]:
    """The board after ``steps`` made in some legal order, else ``None`` and the
    furthest failure."""
    worst: _Failure = (-1, 0, "", "")

    def walk(board: bytes, left: tuple[_Die, ...], depth: int) -> bytes | None:
        nonlocal worst
        if not left:
            return board
        tried = set()
        for i, (src, die, to) in enumerate(left):
            if (src, die) in tried:
                continue
            tried.add((src, die))
            after = _bgcore.step(board, src, die)
            if after is None:
                if (depth, -i) > worst[:2]:
                    worst = (depth, -i, f"{_step_text(src, to)} with the {die}",
                             _why_not(board, src, die, to))
                continue
            done = walk(after, left[:i] + left[i + 1:], depth + 1)
            if done is not None:
                return done
        return None

    return walk(board, steps, 0), worst


def _dice_words(ndice: int, d1: int, d2: int) -> str:
    if ndice == 0:
        return "no move"
    if d1 == d2:
        return f"{ndice} moves of {d1}" if ndice != 1 else f"one move of {d1}"
    return {2: "both dice", 1: "one die"}.get(ndice, "no die")


def parse_play(position: Position, text: str, dice: Dice) -> Play:
    """The legal :class:`~backgammon.Play` of ``dice`` that ``text`` denotes.

    Accepts gnubg's canonical form and the common variants: moves in any
    order and separated by any spaces (or commas); ``/`` or ``-`` between
    points; ``bar``, ``b`` or ``25`` for the bar and ``off``, ``o`` or ``0``
    for bearing off (any case); hit marks ``*`` or ``x``, present or absent;
    one checker's moves joined (``13/7*/5``, ``13/5``) or apart
    (``24/21 21/16``); repeats as ``(2)`` or written out; ``""`` or
    ``"no move"`` when no checker can move (RULES 4.4).

    A move written without its intermediate points may go either way round
    (``13/5`` with 6-2: via 7 or via 11).  When only some of those ways hit,
    the text's hit marks choose: a way that hits exactly the marked points
    wins, so gnubg's ``13/5`` is the way that hits nothing and ``13/7*/5``
    the way that hits on 7.

    Raises :class:`InvalidPlayError` for text that is not notation,
    :class:`IllegalPlayError` (the message gives the reason) for notation no
    legal play of the roll matches, and :class:`AmbiguousPlayError` (listing
    the plays) when it fits several; :class:`InvalidDiceError` and
    :class:`GameOverError` as :meth:`Position.legal_plays` does.

        >>> import backgammon as bg
        >>> pos = bg.Position.initial()
        >>> parse_play(pos, "Bar/22", (3, 1))
        Traceback (most recent call last):
        ...
        backgammon.errors.IllegalPlayError: 'Bar/22' moves from the bar, but no checker of yours is on the bar
        >>> str(parse_play(pos, "8/5 6/5", (3, 1))), str(parse_play(pos, "24/16", (5, 3)))
        ('8/5 6/5', '24/16')
    """
    segments = parse_segments(text)
    plays = position.legal_plays(dice)
    said = repr(text.strip()) if segments else "no move"
    d1, d2 = plays.dice
    ndice = plays.ndice
    board = position.tolist()
    if board[25] == 0:
        for seg in segments:
            if seg.points[0] == 25:
                raise IllegalPlayError(
                    f"{seg.text!r} moves from the bar, but no checker of yours is on the bar")
    legs = _legs(segments, board)
    marked = {leg.dst for leg in legs if leg.mark}
    pool = (d1,) * 4 if d1 == d2 else (d1, d2)
    decomps = _decompositions(legs, pool)
    roll = f"{d1}-{d2}"
    if not decomps:
        for leg in legs:
            if next(_splits(leg.src, leg.dst, pool), None) is None:
                pips = f"{leg.src - leg.dst} pips" if leg.dst else f"{leg.src} pips to bear off"
                raise IllegalPlayError(
                    f"{said} cannot be played with {roll}: "
                    f"{_step_text(leg.src, leg.dst)} is {pips}, which no dice of {roll} make "
                    f"(each die is a separate move, RULES 3.1)")
        raise IllegalPlayError(
            f"{said} cannot be played with {roll}: its moves need more dice than "
            f"{roll} gives (RULES 3.1, 3.2)")
    fitting = [steps for steps in decomps if len(steps) == ndice]
    if not fitting:
        used = min(len(steps) for steps in decomps)
        if ndice == 0:
            raise IllegalPlayError(
                f"{said} is not a legal play of {roll}: no checker can move, the turn is "
                f"lost (RULES 4.4); the only legal play is no move")
        if not segments:
            raise IllegalPlayError(
                f"no move is not a legal play of {roll}: checkers can move, and every "
                f"legal play uses {_dice_words(ndice, d1, d2)} (RULES 4.1, 4.4)")
        if used < ndice:
            words = _dice_words(used, d1, d2)
            raise IllegalPlayError(
                f"{said} is an incomplete play of {roll}: it plays {words}, but every "
                f"legal play uses {_dice_words(ndice, d1, d2)} (RULES 4.1)")
        raise IllegalPlayError(
            f"{said} is not a legal play of {roll}: only {_dice_words(ndice, d1, d2)} "
            f"can be played here (RULES 4.1, 4.2)")
    targets = {row.tobytes(): i for i, row in enumerate(plays.results())}
    start = bytes(v & 0xFF for v in board)
    found: dict[bytes, bool] = {}  # result -> whether some way hits exactly the marks
    failures: list[_Failure] = []
    for steps in fitting:
        result, worst = _carry_out(start, steps)
        if result is None:
            failures.append(worst)
            continue
        if result not in targets:  # a legal single step, but the other die was playable
            failures.append((ndice, 0, "", (
                f"with {roll} a play that uses one die must use the higher one, "
                f"{max(d1, d2)}, when it can be played (RULES 4.2)")))
            continue
        hits = {to for _, _, to in steps if 1 <= to <= 24 and board[to] == -1}
        found[result] = found.get(result, False) or hits == marked
    if not found:
        reasons: dict[str, list[str]] = {}  # why -> the steps it stops
        for _, _, step, why in sorted(failures, key=lambda f: (-f[0], -f[1])):
            reasons.setdefault(why, [])
            if step and step not in reasons[why]:
                reasons[why].append(step)
        raise IllegalPlayError(f"{said} is not a legal play of {roll}: " + "; or ".join(
            (", ".join(steps) + ": " if steps else "") + why
            for why, steps in list(reasons.items())[:3]))
    if len(found) > 1:
        exact = [r for r, fits in found.items() if fits]
        if len(exact) == 1:
            return plays[targets[exact[0]]]
        candidates = tuple(plays[targets[r]] for r in found)
        names = sorted(str(p) for p in candidates)
        raise AmbiguousPlayError(
            f"{said} fits {len(names)} plays of {roll}: {', '.join(names)} "
            f"(mark the hits with * to choose one)", tuple(
                sorted(candidates, key=str)))
    (result,) = found
    return plays[targets[result]]
