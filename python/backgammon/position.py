"""Positions, plays and outcomes: the value types of the library.

A :class:`Position` is seen from the player on roll (the board convention of
the README).  Its legal plays come from the compiled core; Python objects are
made only when you ask for them.  The rules are those of docs/rules.md, cited
by section as ``RULES 4.2``.

    >>> import backgammon as bg
    >>> pos = bg.Position.initial()
    >>> plays = pos.legal_plays((3, 1))
    >>> len(plays)
    16
    >>> play = next(p for p in plays if str(p) == "8/5 6/5")
    >>> play.result.pip_counts()
    (163, 167)
"""

from __future__ import annotations

import operator
from collections.abc import Iterable, Iterator, Sequence
from itertools import islice
from typing import TYPE_CHECKING, Any, NamedTuple, Union, overload

import numpy as np

from backgammon import _bgcore
from backgammon._show import shown
from backgammon.errors import IllegalPlayError, InvalidPositionError
from backgammon.formats.position_id import decode_position_id, encode_position_id
from backgammon.notation import format_play

if TYPE_CHECKING:
    from backgammon.nn.evaluator import Evaluator  # pragma: no cover
    from backgammon.display import RankedPlays

__all__ = ["Position", "Play", "LegalPlays", "Outcome", "Step", "Dice", "ALL_ROLLS",
           "parse_dice_text"]

Step = tuple[int, int]
"""One checker step ``(from, to)``: 25 is the bar, 0 is off."""

Dice = Union[tuple[int, int], Sequence[int], str]  # (3, 1) or text such as "31"

ALL_ROLLS: tuple[tuple[int, int], ...] = tuple(
    (d1, d2) for d1 in range(6, 0, -1) for d2 in range(d1, 0, -1))
"""The 21 distinct rolls, higher die first."""


def parse_dice_text(text: str) -> tuple[int, int]:
    """A roll written as text: ``"31"``, ``"3-1"``, ``"3 1"`` or ``"3,1"`` ->
    ``(3, 1)``, the dice in the order written; anything else raises
    :class:`~backgammon.errors.InvalidDiceError` (the parser every method
    taking :data:`Dice` uses).

        >>> parse_dice_text("6-5"), parse_dice_text("13")
        ((6, 5), (1, 3))
    """
    return _bgcore.parse_dice(text)

_INITIAL = (0, -2, 0, 0, 0, 0, 5, 0, 3, 0, 0, 0, -5,
            5, 0, 0, 0, -3, 0, -5, 0, 0, 0, 0, 2, 0)


def _signed(board: bytes) -> list[int]:
    return [v - 256 if v > 127 else v for v in board]


class Outcome(NamedTuple):
    """How a finished game ended (RULES 7).

    ``winner`` is 0 for the side whose checkers are positive in the array
    (the player on roll) and 1 for the other; ``kind`` is ``"single"``,
    ``"gammon"`` or ``"backgammon"``; ``points`` is 1, 2 or 3 (times the cube,
    which the game layer applies).
    """

    winner: int
    kind: str
    points: int


class Position:
    """An immutable backgammon position, seen from the player on roll.

    ``Position()`` is the opening position; ``Position(array)`` is the same as
    :meth:`from_array`.  Positions are hashable and compare by value.

        >>> Position() == Position.initial()
        True
        >>> Position.initial().pip_counts()
        (167, 167)
    """

    __slots__ = ("_b",)
    _b: bytes

    def __init__(self, array: Iterable[int] | None = None) -> None:
        board = _INITIAL if array is None else array
        object.__setattr__(self, "_b", board_bytes(board))

    @classmethod
    def _from_bytes(cls, board: bytes) -> Position:
        """Wraps a board the core produced (already valid): no checks."""
        pos = object.__new__(cls)
        object.__setattr__(pos, "_b", board)
        return pos

    # ------------------------------------------------------------------
    # Constructors and conversions

    @classmethod
    def initial(cls) -> Position:
        """The opening position (RULES 1.4)."""
        return cls(_INITIAL)

    @classmethod
    def from_array(cls, array: Iterable[int]) -> Position:
        """A position from 26 integers in the board convention.

        Raises :class:`InvalidPositionError` for anything else: a wrong
        length or type, a value that is not an integer, more than 15
        checkers a side, ``a[25] < 0`` or ``a[0] > 0``, or no checkers at all
        on both sides.

            >>> Position.from_array([0] * 26)  # doctest: +ELLIPSIS
            Traceback (most recent call last):
            ...
            backgammon.errors.InvalidPositionError: no checkers of either side on the board: [0, 0, ...]
        """
        if array is None:
            raise InvalidPositionError("a position is 26 integers, got None")
        return cls(array)

    @classmethod
    def from_position_id(cls, text: str) -> Position:
        """The position of a gnubg Position ID (14 characters).

            >>> Position.from_position_id("4HPwATDgc/ABMA") == Position.initial()
            True
        """
        return cls(decode_position_id(text))

    def position_id(self) -> str:
        """gnubg's Position ID of this position."""
        return encode_position_id(self._b)

    def to_array(self) -> np.ndarray:
        """A fresh ``int8`` numpy array of shape ``(26,)``."""
        board: np.ndarray = np.frombuffer(self._b, dtype=np.int8).copy()
        return board

    def __array__(self, dtype: Any = None, copy: Any = None) -> np.ndarray:
        arr = self.to_array()
        return arr if dtype is None else arr.astype(dtype)

    def tolist(self) -> list[int]:
        """The 26 integers as a list."""
        return _signed(self._b)

    def __getitem__(self, index: int) -> int:
        """``pos[p]``: the signed count on point ``p`` (0 and 25 are the bars)."""
        value = self._b[index]
        return value - 256 if value > 127 else value

    def swapped(self) -> Position:
        """The same position seen by the other player."""
        return Position._from_bytes(_bgcore.swapped(self._b))

    # ------------------------------------------------------------------
    # Counts

    def pip_counts(self) -> tuple[int, int]:
        """``(on_roll, opponent)`` pips to bear off; a checker on the bar counts 25."""
        a = _signed(self._b)
        own = sum(p * a[p] for p in range(1, 26) if a[p] > 0)
        opp = sum((25 - p) * -a[p] for p in range(0, 25) if a[p] < 0)
        return own, opp

    def borne_off(self) -> tuple[int, int]:
        """``(on_roll, opponent)`` checkers borne off."""
        a = _signed(self._b)
        return (15 - sum(v for v in a if v > 0), 15 + sum(v for v in a if v < 0))

    def outcome(self) -> Outcome | None:
        """``None`` while both sides have checkers, else the :class:`Outcome` (RULES 7).

            >>> Position.initial().outcome() is None
            True
        """
        a = _signed(self._b)
        own_left = any(v > 0 for v in a)
        opp_left = any(v < 0 for v in a)
        if own_left and opp_left:
            return None
        if not own_left:  # the on-roll side has borne off everything
            loser_off = 15 + sum(v for v in a if v < 0)
            # RULES 7.4: a loser's checker on the bar (a[0]) or in the winner's home (1..6)
            stuck = a[0] < 0 or any(a[p] < 0 for p in range(1, 7))
            return _outcome(0, loser_off, stuck)
        loser_off = 15 - sum(v for v in a if v > 0)
        stuck = a[25] > 0 or any(a[p] > 0 for p in range(19, 25))
        return _outcome(1, loser_off, stuck)

    # ------------------------------------------------------------------
    # Plays

    def legal_plays(self, dice: Dice) -> LegalPlays:
        """The legal plays of a roll, one per distinct resulting position.

        When no checker can move there is exactly one play, with no moves,
        whose result is this position (RULES 4.4).  Raises
        :class:`InvalidDiceError` and :class:`GameOverError`.

            >>> [str(p) for p in Position.initial().legal_plays((6, 6))][:2]
            ['24/18(2) 13/7(2)', '24/18(2) 13/7 8/2']
        """
        d1, d2 = _bgcore.parse_dice(dice)
        results, moves, ndice = _bgcore.plays(self._b, d1, d2)
        return LegalPlays(self, (d1, d2), results, moves, ndice)

    def successors(self, dice: Dice) -> np.ndarray:
        """The resulting positions of a roll as an ``int8`` array ``(n, 26)``,
        in the order of :meth:`legal_plays` (not swapped)."""
        return _bgcore.successors(self._b, dice)

    def legal_moves(self, dice: Dice, played: Iterable[Step] = ()) -> list[Step]:
        """The single-checker steps that may be made next (RULES 4.3).

        ``played`` holds the steps already made this turn.  A step is offered
        only if the turn can still be completed as a legal play, so a server
        or GUI that accepts only these steps enforces every rule move by move.
        Returns ``[]`` once the turn is complete; raises
        :class:`IllegalPlayError` when ``played`` is not the start of a legal
        play.  Steps come highest starting point first.

            >>> Position.initial().legal_moves((6, 5), [(24, 18)])
            [(18, 13), (13, 8), (8, 3)]
        """
        d1, d2 = _bgcore.parse_dice(dice)
        steps = _normalize_steps(played)
        turn = _Turn(self, d1, d2)
        states = turn.replay(steps)
        if not states:
            raise IllegalPlayError(
                f"{_describe(steps)} is not the start of a legal play of "
                f"{d1}-{d2} from {self!r}")
        if len(steps) == turn.ndice:
            return []
        found: set[Step] = set()
        for board, remaining in states:
            for die in set(remaining):
                rest = list(remaining)
                rest.remove(die)
                for src in _sources(board):
                    after = _bgcore.step(board, src, die)
                    if after is not None and turn.completes(
                            after, rest, turn.ndice - len(steps) - 1):
                        found.add((src, max(src - die, 0)))
        return sorted(found, reverse=True)

    def after_steps(self, steps: Iterable[Step]) -> Position:
        """The position after single steps ``(src, dst)`` of the player on
        roll, part of a turn (for display): each is assumed legal, as
        :meth:`legal_moves` gives them; a blot hit goes to the bar.

            >>> Position.initial().after_steps([(24, 21)]).tolist()[21:]
            [1, 0, 0, 1, 0]
        """
        board = self.tolist()
        for src, dst in steps:
            board[src] -= 1
            if dst:
                if board[dst] == -1:
                    board[dst] = 0
                    board[0] -= 1
                board[dst] += 1
        return Position(board)

    def play(self, play: Play | Iterable[Step], dice: Dice | None = None) -> Position:
        """The position after a complete legal play (checked).

        ``play`` is a :class:`Play` of this position or its steps as
        ``(from, to)`` pairs in the order they are made.  With ``dice`` the
        steps must be a legal play of that roll; without, of some roll.
        Raises :class:`IllegalPlayError` otherwise; this position never
        changes (positions are immutable).

            >>> Position.initial().play([(8, 5), (6, 5)]).pip_counts()
            (163, 167)
        """
        if isinstance(play, Play):
            if play.position != self:
                raise IllegalPlayError(f"{play!r} is a play of another position, not of {self!r}")
            steps = play.moves
        else:
            steps = _normalize_steps(play)
        rolls = [_bgcore.parse_dice(dice)] if dice is not None else list(ALL_ROLLS)
        best_reason = None
        for d1, d2 in rolls:
            turn = _Turn(self, d1, d2)
            if len(steps) != turn.ndice:
                if dice is not None:
                    best_reason = (f"every legal play of {d1}-{d2} uses {turn.ndice} "
                                   f"dice, this one {len(steps)}")
                continue
            for board, _ in turn.replay(steps):
                if board in turn.targets:
                    return Position._from_bytes(board)
        where = f"of {rolls[0][0]}-{rolls[0][1]}" if dice is not None else "for any roll"
        reason = f": {best_reason}" if best_reason else ""
        raise IllegalPlayError(f"{_describe(steps)} is not a legal play {where} "
                               f"from {self!r}{reason}")

    # ------------------------------------------------------------------
    # Python protocol

    def __eq__(self, other: object) -> bool:
        if isinstance(other, Position):
            return self._b == other._b
        return NotImplemented

    def __hash__(self) -> int:
        return hash(self._b)

    def __repr__(self) -> str:
        return f"Position.from_position_id({self.position_id()!r})"

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError("Position is immutable")

    def __delattr__(self, name: str) -> None:
        raise AttributeError("Position is immutable")

    def __reduce__(self) -> tuple[Any, ...]:
        return (Position, (self.tolist(),))

    # ------------------------------------------------------------------
    # Notation, interchange and pictures: parse_play,
    # from_gnubg_board / to_gnubg_board, __str__ (ASCII board), _repr_svg_.

    def parse_play(self, text: str, dice: Dice) -> Play:
        """The legal play of ``dice`` that the notation ``text`` denotes (RULES 13.1).

        Any common spelling: ``"24/18 13/11"``, ``"bar/22*"``, ``"b/22"``,
        ``"25/22"``, ``"6/off"``, ``"6/0"``, ``"8/5(2) 6/5(2)"``, ``"13/7*/5"``,
        ``"13/5"``, ``"24/21 21/16"``, hit marks ``*`` or ``x`` or none.  Raises
        :class:`InvalidPlayError`, :class:`IllegalPlayError` (with the reason)
        or :class:`AmbiguousPlayError` (listing the plays); see
        :func:`backgammon.notation.parse_play`.

            >>> pos = Position.initial()
            >>> play = pos.parse_play("13/11 24/18", (6, 2))
            >>> str(play), play in pos.legal_plays((6, 2))
            ('24/18 13/11', True)
        """
        from backgammon.notation import parse_play
        return parse_play(self, text, dice)

    @classmethod
    def from_gnubg_board(cls, board: Any) -> Position:
        """A position from gnubg's board form ``[[25 ints], [25 ints]]``.

        The first list is the player NOT on roll, the second the player on
        roll (as gnubg's Python API and ``gnubg-nn`` write them); each counts
        that side's checkers from its own ace point: index ``i`` is its point
        ``i + 1`` and index 24 its bar.  Raises :class:`InvalidPositionError`
        for anything else (a point claimed by both sides, a negative count,
        a wrong shape, more than 15 checkers a side).

            >>> start = [0, 0, 0, 0, 0, 5, 0, 3, 0, 0, 0, 0, 5, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 2, 0]
            >>> Position.from_gnubg_board([start, start]) == Position.initial()
            True
        """
        if isinstance(board, (str, bytes, bytearray)) or board is None:
            raise InvalidPositionError(
                f"a gnubg board is two lists of 25 checker counts, got {_short(board)}")
        try:  # one more than needed at each level: endless iterables fail at once
            sides = [[operator.index(v) for v in islice(side, 26)] for side in islice(board, 3)]
        except TypeError:
            raise InvalidPositionError(
                f"a gnubg board is two lists of 25 checker counts, got {_short(board)}") from None
        if len(sides) != 2 or any(len(side) != 25 for side in sides):
            raise InvalidPositionError(
                f"a gnubg board is two lists of 25 checker counts "
                f"(opponent, player on roll), got {_short(board)}")
        opponent, on_roll = sides
        for name, side in (("opponent", opponent), ("player on roll", on_roll)):
            bad = [v for v in side if not 0 <= v <= 15]
            if bad:
                raise InvalidPositionError(
                    f"gnubg board counts are 0 to 15, got {shown(bad[0])} for the {name}: "
                    f"{shown(sides)}")
        array = [0] * 26
        array[25] = on_roll[24]
        array[0] = -opponent[24]
        for p in range(1, 25):  # our point p is the opponent's point 25 - p
            mine, theirs = on_roll[p - 1], opponent[24 - p]
            if mine and theirs:
                raise InvalidPositionError(
                    f"point {p} (of the player on roll; {25 - p} of the opponent) holds "
                    f"checkers of both sides in the gnubg board {sides}")
            array[p] = mine - theirs
        try:
            return cls(array)
        except InvalidPositionError as e:
            raise InvalidPositionError(f"{e} (from the gnubg board {sides})") from None

    def to_gnubg_board(self) -> list[list[int]]:
        """gnubg's board form: ``[opponent, on_roll]``, 25 counts each, each side
        from its own ace point with its bar at index 24 (see
        :meth:`from_gnubg_board`).

            >>> Position.initial().to_gnubg_board()[1]
            [0, 0, 0, 0, 0, 5, 0, 3, 0, 0, 0, 0, 5, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 2, 0]
        """
        a = self.tolist()
        opponent = [max(-a[25 - i], 0) for i in range(1, 25)] + [-a[0]]
        on_roll = [max(a[i], 0) for i in range(1, 25)] + [a[25]]
        return [opponent, on_roll]

    def __str__(self) -> str:
        """An ASCII board in gnubg's style (see :mod:`backgammon.display.diagram`)."""
        from backgammon.display.diagram import board_text
        return board_text(self)

    def _repr_svg_(self) -> str:
        """The board as SVG, for Jupyter (see :func:`backgammon.display.svg.board`)."""
        from backgammon.display.svg import board
        return board(self)._repr_svg_()

    # ------------------------------------------------------------------
    # The neural evaluator: thin delegations to backgammon.nn

    def evaluate(self, ply: int = 0, evaluator: Evaluator | None = None,
                 filtered: bool | None = None) -> Any:
        """The nets' :class:`~backgammon.nn.Evaluation` of this position for
        the player on roll, before rolling (see :func:`backgammon.evaluate`)."""
        from backgammon.nn import evaluate
        return evaluate(self, ply, evaluator, filtered)

    def rank_plays(self, dice: Dice, ply: int = 0, evaluator: Evaluator | None = None,
                   filtered: bool | None = None) -> RankedPlays:
        """Every legal play with its equity, best first (see :func:`backgammon.nn.rank_plays`):
        a list of :class:`~backgammon.RankedPlay` that shows as a table."""
        from backgammon.display import RankedPlays
        from backgammon.nn import rank_plays
        return RankedPlays(rank_plays(self, dice, ply, evaluator, filtered))

    def best_play(self, dice: Dice, ply: int = 0, evaluator: Evaluator | None = None,
                  filtered: bool | None = None) -> Play:
        """The nets' best play of ``dice`` (see :func:`backgammon.nn.rank_plays`;
        at ply 2 with gnubg-style move filters unless ``filtered=False``)."""
        from backgammon.nn import best_play
        return best_play(self, dice, ply, evaluator, filtered)


def _outcome(winner: int, loser_off: int, stuck: bool) -> Outcome:
    if loser_off > 0:
        return Outcome(winner, "single", 1)          # RULES 7.2
    if stuck:
        return Outcome(winner, "backgammon", 3)      # RULES 7.4
    return Outcome(winner, "gammon", 2)              # RULES 7.3


def board_bytes(array: Any) -> bytes:
    """Validated 26-byte board from any 26-integer sequence."""
    if isinstance(array, Position):
        return array._b
    if isinstance(array, (str, bytes, bytearray)):
        raise InvalidPositionError(f"a position is 26 integers, got {shown(array)}")
    if isinstance(array, np.ndarray):
        if array.ndim != 1 or array.shape[0] != 26:
            raise InvalidPositionError(
                f"a position is 26 integers, got an array of shape {array.shape}")
        if array.dtype.kind not in "iu":
            raise InvalidPositionError(
                f"a position array needs an integer dtype, got {array.dtype}: {array.tolist()}")
        values = [int(v) for v in array.tolist()]
    else:
        try:  # one more than needed: an endless iterable fails at once
            values = [operator.index(v) for v in islice(array, 27)]
        except TypeError:
            raise InvalidPositionError(
                f"a position is 26 integers, got {_short(array)}") from None
        if len(values) != 26:
            got = "more" if len(values) > 26 else str(len(values))
            raise InvalidPositionError(f"a position is 26 integers, got {got}: {_short(values)}")
    bad = [v for v in values if not -15 <= v <= 15]
    if bad:
        raise InvalidPositionError(
            f"a point holds at most 15 checkers, got {shown(bad[0])}: {shown(values)}")
    board = bytes(v & 0xFF for v in values)
    code = _bgcore.validate(board)
    if code:
        raise InvalidPositionError(f"{_bgcore.validation_error(code)}: {values}")
    if not any(values):
        raise InvalidPositionError(f"no checkers of either side on the board: {values}")
    return board


_short = shown  # a caller's value in a message: short, and never raising


def _normalize_steps(steps: Iterable[Any]) -> tuple[Step, ...]:
    if isinstance(steps, (str, bytes)):
        raise IllegalPlayError(
            f"steps are (from, to) pairs, got the text {shown(steps)} (parse notation first)")
    out = []
    try:  # one more than a turn has: an endless iterable fails at once
        items = list(islice(steps, 5))
    except TypeError:
        raise IllegalPlayError(f"steps are (from, to) pairs, got {_short(steps)}") from None
    if len(items) > 4:
        raise IllegalPlayError(f"a turn has at most 4 steps, got more: {_short(items)}")
    for item in items:
        if isinstance(item, (str, bytes)):
            raise IllegalPlayError(f"a step is a pair (from, to), got {shown(item)}")
        try:
            src, dst = item
            if isinstance(src, bool) or isinstance(dst, bool):
                raise TypeError  # True is not point 1
            src, dst = operator.index(src), operator.index(dst)
        except (TypeError, ValueError):
            raise IllegalPlayError(f"a step is a pair (from, to), got {_short(item)}") from None
        if not (1 <= src <= 25 and 0 <= dst < src and src - dst <= 6):
            raise IllegalPlayError(
                f"no die moves a checker from {shown(src)} to {shown(dst)} (25 = bar, 0 = off)")
        out.append((src, dst))
    return tuple(out)


def _describe(steps: tuple[Step, ...]) -> str:
    if not steps:
        return "no move"
    return " ".join(f"{s}/{d}" for s, d in steps).replace("25/", "bar/").replace("/0", "/off")


def _sources(board: bytes) -> list[int]:
    return [p for p in range(25, 0, -1) if 0 < board[p] < 128]


class _Turn:
    """The legal plays of one roll, as needed to check steps one by one."""

    __slots__ = ("board", "dice", "ndice", "targets")

    def __init__(self, position: Position, d1: int, d2: int) -> None:
        results, _, ndice = _bgcore.plays(position._b, d1, d2)
        self.board = position._b
        self.dice = [d1] * 4 if d1 == d2 else [d1, d2]
        self.ndice = ndice
        self.targets = {row.tobytes() for row in results}

    def replay(self, steps: tuple[Step, ...]) -> list[tuple[bytes, list[int]]]:
        """Every ``(board, remaining dice)`` the steps can lead to (a bear-off
        may use more than one die value) from which the turn can still end in
        a legal play."""
        if len(steps) > self.ndice:
            return []
        states = [(self.board, self.dice)]
        for src, dst in steps:
            nxt = []
            for board, remaining in states:
                for die in sorted(set(remaining)):
                    if dst > 0 and src - dst != die or dst == 0 and die < src:
                        continue
                    after = _bgcore.step(board, src, die)
                    if after is not None:
                        rest = list(remaining)
                        rest.remove(die)
                        nxt.append((after, rest))
            states = nxt
        need = self.ndice - len(steps)
        return [(b, r) for b, r in states if self.completes(b, r, need)]

    def completes(self, board: bytes, remaining: list[int], need: int) -> bool:
        """Whether ``need`` more steps with ``remaining`` dice reach a legal result."""
        if need == 0:
            return board in self.targets
        if len(set(remaining)) == 1:
            return any(r in self.targets for r in _bgcore.reach(board, remaining[0], need))
        # two different dice still unused: only at the start of a turn
        return any(
            self.completes(after, [d for d in remaining if d != die], need - 1)
            for die in remaining
            for after in _bgcore.reach(board, die, 1))


class Play:
    """One legal play: ``position`` before, ``moves`` made, ``result`` after.

    ``moves`` has one ``(from, to)`` step per die used (25 = bar, 0 = off);
    ``result`` is seen by the player who moved (not swapped).  Two plays are
    equal when they start from the same position and end in the same one
    (RULES 13.2), whatever the order of their steps.  ``str(play)`` is gnubg's
    notation.

        >>> pos = Position.initial()
        >>> play = Play(pos, [(24, 18), (18, 13)])
        >>> str(play), play in pos.legal_plays((6, 5))
        ('24/13', True)
    """

    __slots__ = ("position", "moves", "result")
    position: Position
    moves: tuple[Step, ...]
    result: Position

    def __init__(self, position: Position, moves: Iterable[Step], dice: Dice | None = None) -> None:
        steps = _normalize_steps(moves)
        result = position.play(steps, dice)
        object.__setattr__(self, "position", position)
        object.__setattr__(self, "moves", steps)
        object.__setattr__(self, "result", result)

    @classmethod
    def _make(cls, position: Position, moves: tuple[Step, ...], result: Position) -> Play:
        play = object.__new__(cls)
        object.__setattr__(play, "position", position)
        object.__setattr__(play, "moves", moves)
        object.__setattr__(play, "result", result)
        return play

    def __str__(self) -> str:
        return format_play(self.position.tolist(), self.moves)

    def __repr__(self) -> str:
        return f"Play({self.position!r}, {self.moves!r})"

    def _repr_svg_(self) -> str:  # Jupyter: the board with the play's arrows
        from backgammon.display import play_svg
        return play_svg(self)

    def __eq__(self, other: object) -> bool:
        if isinstance(other, Play):
            return self.position == other.position and self.result == other.result
        return NotImplemented

    def __hash__(self) -> int:
        return hash((self.position, self.result))

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError("Play is immutable")

    def __reduce__(self) -> tuple[Any, ...]:
        return (Play._make, (self.position, self.moves, self.result))

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready data: the position's ID, the notation and the steps.

            >>> Play(Position.initial(), [(8, 5), (6, 5)]).to_dict()
            {'position_id': '4HPwATDgc/ABMA', 'play': '8/5 6/5', 'moves': [[8, 5], [6, 5]]}
        """
        return {"position_id": self.position.position_id(), "play": str(self),
                "moves": [list(m) for m in self.moves]}

    @classmethod
    def from_dict(cls, data: Any) -> Play:
        """The play :meth:`to_dict` wrote, checked legal for some roll
        (:class:`~backgammon.InvalidRecordError` names what is wrong)."""
        from backgammon._dicts import Reader
        from backgammon.errors import InvalidRecordError
        r = Reader(data, "a play")
        try:
            play = cls(Position.from_position_id(r.str("position_id")), r.steps("moves"))
        except InvalidRecordError:
            raise
        except ValueError as exc:  # our errors are ValueErrors
            raise InvalidRecordError(f"a play: {exc}"[:300]) from None
        if "play" in r.data and r.str("play") != str(play):
            raise r.fail("play", f"is {str(play)!r} for these moves, got {r.data['play']!r}")
        return play

    def to_json(self) -> str:
        from backgammon._dicts import dumps
        return dumps(self.to_dict())

    @classmethod
    def from_json(cls, text: str | bytes) -> Play:
        from backgammon._dicts import loads
        return cls.from_dict(loads(text, "a play"))


class LegalPlays(Sequence[Play]):
    """The legal plays of one roll: a sequence of :class:`Play`.

    Supports ``len``, iteration, indexing and ``in`` (a :class:`Play`, or a
    :class:`Position` meaning "is this a legal result").  Play objects are
    made on first access.
    """

    __slots__ = ("position", "dice", "ndice", "_results", "_moves", "_plays", "_index")

    def __init__(self, position: Position, dice: tuple[int, int],
                 results: np.ndarray, moves: np.ndarray, ndice: int) -> None:
        self.position = position
        self.dice = dice
        self.ndice = ndice
        """How many dice every play uses (RULES 4.1, 4.2)."""
        self._results = results
        self._moves = moves
        self._plays: list[Play | None] = [None] * len(results)
        self._index: dict[bytes, int] | None = None

    def __len__(self) -> int:
        return len(self._plays)

    @overload
    def __getitem__(self, index: int) -> Play: ...
    @overload
    def __getitem__(self, index: slice) -> list[Play]: ...
    def __getitem__(self, index: int | slice) -> Play | list[Play]:
        if isinstance(index, slice):
            return [self[i] for i in range(*index.indices(len(self)))]
        i = operator.index(index)
        if i < 0:
            i += len(self._plays)
        if not 0 <= i < len(self._plays):
            raise IndexError(f"play index {index} out of range ({len(self._plays)} plays)")
        play = self._plays[i]
        if play is None:
            row = self._moves[i].tolist()
            steps = tuple((row[2 * k], row[2 * k + 1]) for k in range(self.ndice))
            result = Position._from_bytes(self._results[i].tobytes())
            play = self._plays[i] = Play._make(self.position, steps, result)
        return play

    def __iter__(self) -> Iterator[Play]:
        for i in range(len(self._plays)):
            yield self[i]

    def __contains__(self, item: object) -> bool:
        if isinstance(item, Play):
            if item.position != self.position:
                return False
            item = item.result
        if not isinstance(item, Position):
            return False
        if self._index is None:
            self._index = {row.tobytes(): i for i, row in enumerate(self._results)}
        return item._b in self._index

    def index(self, value: Any, start: int = 0, stop: int | None = None) -> int:
        if value in self:
            target = value.result if isinstance(value, Play) else value
            assert self._index is not None
            i = self._index[target._b]
            if start <= i and (stop is None or i < stop):
                return i
        raise ValueError(f"{value!r} is not a legal play of {self.dice}")

    def results(self) -> np.ndarray:
        """The resulting positions as an ``int8`` array ``(n, 26)`` (a copy)."""
        results: np.ndarray = self._results.copy()
        return results

    def __repr__(self) -> str:
        shown = ", ".join(str(p) or "(no move)" for p in self[:8])
        more = ", ..." if len(self) > 8 else ""
        return f"<LegalPlays {self.dice[0]}-{self.dice[1]} ({len(self)}): {shown}{more}>"
