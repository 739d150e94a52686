"""Walking a game's recorded actions for the record writers (.mat, gnubg SGF).

One job: replay ``game.actions`` on a scratch game and hand each writer the events it
spells (plays with their dice, cube actions, a roll left before a resignation or at the
end), keeping the bookkeeping both share: the opening (ties, the roll-again opening),
the pending roll, a flag taking back the flagged play (RULES 12.4) and the losses to
report. The writer only formats.

    >>> from backgammon.game import Game
    >>> game = Game()
    >>> game.apply((None, "opening", (3, 1)))
    >>> game.play([(8, 5), (6, 5)])
    >>> walk(game, [], lambda e: (e.kind, e.player, e.dice), "test readers")
    [('play', 0, (3, 1))]
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Callable, NamedTuple, TypeVar

from backgammon.errors import BackgammonError, InvalidRecordError

if TYPE_CHECKING:  # pragma: no cover
    from backgammon.game import Game

T = TypeVar("T")


class Event(NamedTuple):
    """What a writer spells. ``kind`` is ``"play"`` (``moves`` played with ``dice``
    from ``position``, before the play), ``"double"``, ``"take"``, ``"drop"``,
    ``"beaver"`` (``cube`` the value before the action), ``"accept"`` (a resignation
    accepted after ``player`` rolled ``dice`` and did not play) or ``"unplayed"``
    (the game's record ends on ``player``'s roll of ``dice``, not played)."""

    kind: str
    player: Any
    dice: tuple[int, int] | None
    moves: Any
    position: Any
    cube: int


def record_games(source: Any, names: Any, record: str, writer: str) -> tuple[list[Game], int, Any]:
    """``(games, match length, names)`` of what a writer was given: a Match, or money
    games (length 0); ``record`` and ``writer`` name them in the errors."""
    from backgammon.game import Game
    from backgammon.match import Match

    if isinstance(source, Match):
        games, length, names = list(source.games), source.length, names or source.names
    else:
        games, length, names = list(source), 0, names or ("Player 0", "Player 1")
    if not games:
        raise InvalidRecordError(f"{record} record needs at least one game")
    if any(not isinstance(g, Game) for g in games):
        raise TypeError(f"{writer} takes a Match or Game objects")
    return games, length, names


def lose(lost: list[str], what: str) -> None:
    """Add ``what`` to ``lost`` once."""
    if what not in lost:
        lost.append(what)


def walk(game: Game, lost: list[str], cell: Callable[[Event], T | None],
         readers: str) -> list[T]:
    """The cells ``cell`` makes of ``game``'s events, in order (``None`` adds nothing),
    a flag taking back the flagged play's cell and every cell since; what cannot be
    written goes to ``lost`` (``readers`` names who checks plays, for its wording)."""
    from backgammon.game import Phase

    scratch = game.restart()
    cells: list[T] = []

    def add(event: Event) -> None:
        made = cell(event)
        if made is not None:
            cells.append(made)

    pending: tuple[Any, Any] | None = None
    if scratch.phase is Phase.MOVE:  # set up with the dice rolled (the setup spells them)
        pending = (scratch.turn, scratch.dice)
    from_setup = pending
    flagged: tuple[int, Any] = (0, None)
    for action in game.actions:
        player, kind, value = action
        if kind == "opening":
            scratch.apply(action)
            if value[0] == value[1]:
                if scratch.cube > 1:
                    lose(lost, "automatic doubles")
            elif scratch.phase is Phase.MOVE:
                pending = (scratch.turn, scratch.dice)
            else:
                lose(lost, "the roll-again opening's dice")
            continue
        if kind == "roll":
            scratch.apply(action)
            pending = (player, tuple(value))
            continue
        if kind == "play":
            assert pending is not None
            flagged = (len(cells), pending)  # RULES 12.4: a flag takes it back
            add(Event("play", player, pending[1], value, scratch.position, scratch.cube))
            pending = None
            try:
                scratch.position.play(value, scratch.dice)
            except BackgammonError:
                lose(lost, f"an illegal play recorded unchecked (RULES 12.4; {readers} "
                           "check plays: read it with Rules(over_the_board=True))")
        elif kind == "flag":  # the flagged play (and any cube action since) is left out
            del cells[flagged[0]:]
            pending = flagged[1]
            lose(lost, "a flagged illegal play, taken back (RULES 12.4)")
        elif kind in ("double", "take", "drop", "beaver"):
            add(Event(kind, player, None, None, scratch.position, scratch.cube))
        elif kind == "accept" and pending is not None and pending is not from_setup:
            add(Event("accept", pending[0], pending[1], None, scratch.position,
                      scratch.cube))
            pending = None
        elif kind == "reject":
            lose(lost, "rejected resignations")
        scratch.apply(action)
    if pending is not None and pending is not from_setup:
        add(Event("unplayed", pending[0], pending[1], None, scratch.position, scratch.cube))
        if game.steps:
            lost.append(f"the steps made this turn {list(game.steps)}")
    return cells


def set_up_match_game(game: Game, made: Game) -> None:
    """Set ``game``, a match's current game not yet begun, up as ``made`` (a game set up
    from a position at the same score, Crawford flag and length): the match keeps its
    game object, which now starts from the position, cube, turn and dice of ``made``
    and records them as its :attr:`~backgammon.Game.start` (the record readers only).

        >>> from backgammon.game import Game
        >>> from backgammon.match import Match
        >>> from backgammon.position import Position
        >>> m = Match(5, rng=1, score=(2, 1))
        >>> made = Game.from_position(Position.initial().swapped(), turn=1, dice=(5, 2),
        ...                           match_length=5, score=(2, 1))
        >>> set_up_match_game(m.game, made)
        >>> m.game.turn, m.game.dice, m.game.start["turn"]
        (1, (5, 2), 1)
    """
    if game.actions or made.actions:
        raise InvalidRecordError("a match game is set up before anything is played in it")
    ours = (game.match_length, game.score, game.crawford)
    theirs = (made.match_length, made.score, made.crawford)
    if ours != theirs:
        raise InvalidRecordError(
            f"a set-up game at length, score, Crawford {theirs}, its match says {ours}")
    start = made.start
    assert start is not None  # made by Game.from_position or an ID reader
    game._set(position=made.position, turn=made.turn, rolled=made.dice, cube=made.cube,
              cube_owner=made.cube_owner, phase=made.phase, start=dict(start))
