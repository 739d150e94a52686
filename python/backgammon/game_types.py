"""The values a game is told in: its phases, its recorded actions, how it ended,
and the limits of a match and of a resignation.

:mod:`backgammon.game` offers each of them too, beside :class:`~backgammon.game.Game`.
"""

from __future__ import annotations

from enum import Enum
from typing import Any, NamedTuple

__all__ = ["MAX_MATCH_LENGTH", "RESIGN_KINDS", "Action", "GameResult", "Phase"]

MAX_MATCH_LENGTH = 32767
"""The longest match: what a gnubg Match ID can carry (15 bits)."""

RESIGN_KINDS = ("single", "gammon", "backgammon")
"""What a player may resign, in increasing order (RULES 7.2-7.4)."""


class Phase(str, Enum):
    """The phases of a game; each allows its own actions."""

    OPENING = "opening"
    """Nobody has rolled: ``roll`` throws one die for each player (RULES 2.1)."""
    ROLL = "roll"
    """The player on roll may ``double`` (when allowed) or ``roll`` (RULES 8.1)."""
    MOVE = "move"
    """The dice are out: ``move``, ``undo``, ``commit`` or a whole ``play`` (RULES 12.2)."""
    DOUBLED = "doubled"
    """A double is offered: the other player answers ``take``, ``drop`` or ``beaver``."""
    RESIGNED = "resigned"
    """A resignation is offered: the other player answers ``accept`` or ``reject``."""
    OVER = "over"
    """The game has ended; :attr:`Game.result` says how."""


class GameResult(NamedTuple):
    """How a game ended.

    ``winner`` 0 or 1; ``points`` scored; ``kind`` ``"single"``, ``"gammon"``
    or ``"backgammon"`` (what was won or resigned; a drop is a single game);
    ``reason`` ``"bearoff"``, ``"drop"``, ``"resign"`` or ``"forfeit"`` (the match
    forfeited: ``points`` are what the winner needed); ``cube`` the cube
    value the points were counted with.
    """

    winner: int
    points: int
    kind: str
    reason: str
    cube: int

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready data.

            >>> GameResult(0, 2, "gammon", "bearoff", 1).to_dict()
            {'winner': 0, 'points': 2, 'kind': 'gammon', 'reason': 'bearoff', 'cube': 1}
        """
        return self._asdict()

    @classmethod
    def from_dict(cls, data: Any) -> GameResult:
        """The result :meth:`to_dict` wrote (:class:`InvalidRecordError` if not)."""
        from backgammon._dicts import Reader
        r = Reader(data, "a game result")
        cube = r.int("cube", 1)
        if cube & (cube - 1):
            raise r.fail("cube", f"is a power of 2, got {cube}")
        return cls(r.int("winner", 0, 1), r.int("points", 1), r.str("kind", RESIGN_KINDS),
                   r.str("reason", ("bearoff", "drop", "resign")), cube)

    def to_json(self) -> str:
        from backgammon._dicts import dumps
        return dumps(self.to_dict())

    @classmethod
    def from_json(cls, text: str | bytes) -> GameResult:
        from backgammon._dicts import loads
        return cls.from_dict(loads(text, "a game result"))


class Action(NamedTuple):
    """One recorded action: ``player`` (``None`` for the opening roll), ``kind``, ``value``.

    Kinds and values: ``opening`` (player 0's die, player 1's die), ``roll``
    (the dice), ``play`` (the steps, a tuple of ``(from, to)``), ``double``,
    ``take``, ``drop``, ``beaver``, ``accept``, ``reject``, ``forfeit`` (``None``) and
    ``resign`` (the kind).  Replaying the actions with :meth:`Game.apply`
    rebuilds the game.
    """

    player: int | None
    kind: str
    value: Any = None
