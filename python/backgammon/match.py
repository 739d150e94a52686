"""A match to N points: games in a row, the score, the Crawford rule, the winner (RULES 10).

The current game is :attr:`Match.game`, a :class:`Game` played with its own
actions; when it is over, :meth:`Match.next_game` starts the next one, set up
with the score and, for the Crawford game, no cube.  Every game stays in
:attr:`Match.games` with its record of actions.

    >>> from backgammon.match import Match
    >>> m = Match(3, rng=5)
    >>> m.game.roll((3, 1)); m.game.resign("gammon", player=1); m.game.accept()
    >>> m.score, m.winner
    ((2, 0), None)
    >>> m.next_game(); m.game.crawford          # player 0 reached 2 = N-1
    True
"""

from __future__ import annotations

import itertools

from typing import Any

from backgammon.errors import IllegalActionError, InvalidSetupError
from backgammon.game import MAX_MATCH_LENGTH, DiceSource, Game
from backgammon.rules import Rules
from backgammon._show import shown
from backgammon._numbers import integer

__all__ = ["ORIENTATIONS", "Match"]

MAX_NAME = 256
"""The longest player name (characters)."""


def _start_score(score: Any, length: int) -> tuple[int, int]:
    """The score a match is taken up at: two integers from 0 to length - 1."""
    if isinstance(score, (str, bytes)):
        raise TypeError(f"score is two integers, got {shown(score)}")
    try:
        a, b = score
    except (TypeError, ValueError):
        raise TypeError(f"score is two integers, got {shown(score)}"[:300]) from None
    if any(isinstance(v, bool) or not isinstance(v, int) for v in (a, b)):
        raise TypeError(f"score is two integers, got {shown(score)}"[:300])
    if not (0 <= a < length and 0 <= b < length):
        raise InvalidSetupError(f"a match to {length} is taken up at scores from 0 to "
                                f"{length - 1}, got {a}-{b}")
    return a, b


def _names(names: Any) -> tuple[str, str]:
    if isinstance(names, (str, bytes)):
        raise TypeError(f"names are two strings, got {shown(names)}"[:300])
    try:
        items = list(itertools.islice(iter(names), 3))
    except TypeError:
        raise TypeError(f"names are two strings, got {shown(names)}"[:300]) from None
    if len(items) != 2:
        raise InvalidSetupError(f"names are two strings, one per player, got {shown(names)}"[:300])
    if not all(isinstance(n, str) for n in items):
        raise TypeError(f"names are two strings, got {shown(names)}"[:300])
    if any(len(n) > MAX_NAME for n in items):
        raise InvalidSetupError(f"a name has at most {MAX_NAME} characters")
    return items[0], items[1]


ORIENTATIONS = ("right", "left")
"""Where a board shows the home board of the player it is drawn for (RULES 1.5)."""


class Match:
    """A match of ``length`` points between players 0 and 1 (RULES 10).

    ``rules`` apply to every game and must allow match play (no Jacoby, no
    automatic doubles: RULES 9.4).  ``crawford`` turns the Crawford rule on
    (the default) or off.  ``rng`` is shared by all games (an integer seed,
    ``None``, a ``random.Random``-like object, a numpy Generator or
    RandomState, or a callable returning a die: see :class:`DiceSource`).
    ``names`` are the two players' names, for records.  ``score`` takes the
    match up at a score (a file holding one game of a match); with a player at
    N-1 its first game is the Crawford game unless ``crawford_game=False``
    (post-Crawford).

    ``orientation`` and ``swap_sides`` are the display setting of RULES 1.5:
    the first game is shown with the home board at the bottom ``"right"``
    (or ``"left"``) and, with ``swap_sides``, each later game the other way,
    so a player practises both directions; :meth:`orientation` gives each
    game's, for :func:`backgammon.display.svg.board` and
    :func:`backgammon.display.diagram.board_text`.

    The state is read-only: :attr:`games` is a tuple, and only the games'
    actions and :meth:`next_game` change it.

        >>> Match(7).game.match_length
        7
        >>> m = Match(3, swap_sides=True)
        >>> m.orientation(), m.orientation(1)
        ('right', 'left')
    """

    def __init__(self, length: int, rules: Rules | None = None, *, rng: Any = None,
                 crawford: bool = True, names: tuple[str, str] = ("Player 0", "Player 1"),
                 orientation: str = "right", swap_sides: bool = False,
                 score: tuple[int, int] = (0, 0), crawford_game: bool | None = None) -> None:
        number = integer(length)  # numpy integers too
        if number is None:
            raise TypeError(f"a match length is an integer, got {shown(length)}")
        length = number
        if not 1 <= length <= MAX_MATCH_LENGTH:
            raise InvalidSetupError(
                f"a match is played to a positive number of points up to {MAX_MATCH_LENGTH}, "
                f"got {shown(length)}")
        rules = Rules() if rules is None else rules
        if not isinstance(rules, Rules):
            raise TypeError(f"rules must be a Rules, got {shown(rules)}")
        rules.check_match_play()  # RULES 9.4
        if crawford not in (True, False):
            raise TypeError(f"crawford is True or False, got {shown(crawford)}")
        if orientation not in ORIENTATIONS:
            raise InvalidSetupError(
                f"orientation is 'right' or 'left' (RULES 1.5), got {shown(orientation)}"[:300])
        if swap_sides not in (True, False):
            raise TypeError(f"swap_sides is True or False, got {shown(swap_sides)}")
        self._length = length
        self._rules = rules
        self._crawford_rule = bool(crawford)
        self._names = _names(names)
        self._orientation = str(orientation)
        self._swap_sides = bool(swap_sides)
        self._dice = rng if isinstance(rng, DiceSource) else DiceSource(rng)
        self._games: list[Game] = []
        start = _start_score(score, length)
        # a match taken up at a score (one game of a match in a file): with a player at
        # N-1 the first game is the Crawford game unless crawford_game says otherwise
        if crawford_game not in (None, True, False):
            raise TypeError(f"crawford_game is None, True or False, got {shown(crawford_game)}")
        if crawford_game and not (self._crawford_rule and length - 1 in start and length > 1):
            raise InvalidSetupError(
                f"no Crawford game at {start[0]}-{start[1]} of a {length}-point match "
                f"(RULES 10.2: a player at {length - 1} with the Crawford rule)")
        self._post_crawford_start = (crawford_game is False and self._crawford_rule
                                     and length - 1 in start and length > 1)
        self._games.append(self._new_game(start))

    # ------------------------------------------------------------------

    @property
    def length(self) -> int:
        """The points needed to win (RULES 10.1)."""
        return self._length

    @property
    def rules(self) -> Rules:
        """The rules of every game."""
        return self._rules

    @property
    def crawford_rule(self) -> bool:
        """Whether the Crawford rule is played (RULES 10.2)."""
        return self._crawford_rule

    @property
    def names(self) -> tuple[str, str]:
        """Names of players 0 and 1, for records (may be set: two strings)."""
        return self._names

    @names.setter
    def names(self, names: tuple[str, str]) -> None:
        self._names = _names(names)

    @property
    def games(self) -> tuple[Game, ...]:
        """Every game so far, the current one last."""
        return tuple(self._games)

    @property
    def dice_source(self) -> DiceSource:
        """Where the games' dice come from."""
        return self._dice

    @property
    def swap_sides(self) -> bool:
        """Whether the display swaps sides after every game (RULES 1.5)."""
        return self._swap_sides

    def orientation(self, game: int | None = None) -> str:
        """Where boards of game ``game`` (0-based, played or to come; default the current
        one) show the home board of the player they are drawn for: ``"right"`` or
        ``"left"`` (RULES 1.5).

            >>> from backgammon import svg
            >>> m = Match(5, swap_sides=True)
            >>> picture = svg.board(m.game.position, orientation=m.orientation())
        """
        number = integer(len(self._games) - 1 if game is None else game)
        if number is None:
            raise TypeError(f"game is an index, got {shown(game)}")
        index = number
        if index < 0:
            raise IllegalActionError(f"games are numbered from 0, got {index}")
        if self._swap_sides and index % 2:
            return "left" if self._orientation == "right" else "right"
        return self._orientation

    def _new_game(self, score: tuple[int, int]) -> Game:
        return Game(self.rules, rng=self._dice, match_length=self.length, score=score,
                    crawford=self._is_crawford(score))

    def _is_crawford(self, score: tuple[int, int]) -> bool:
        """RULES 10.2: the first game after a player reaches exactly N-1 points."""
        if not self.crawford_rule or self.length < 2:
            return False  # in a 1-point match nobody "reaches" N-1 = 0
        if self.length - 1 not in score or self._post_crawford_start:
            return False
        return not any(g.crawford for g in self._games)

    @property
    def game(self) -> Game:
        """The current (last) game."""
        return self._games[-1]

    @property
    def score(self) -> tuple[int, int]:
        """Points of players 0 and 1, counting the current game once it is over."""
        game = self.game
        s0, s1 = game.score
        if game.result is not None:
            if game.result.winner == 0:
                s0 += game.result.points
            else:
                s1 += game.result.points
        return s0, s1

    @property
    def winner(self) -> int | None:
        """The player who reached or passed N points (RULES 10.1), else ``None``."""
        s0, s1 = self.score
        if s0 >= self.length:
            return 0
        if s1 >= self.length:
            return 1
        return None

    @property
    def over(self) -> bool:
        return self.winner is not None

    @property
    def crawford_game(self) -> bool:
        """Whether the current game is the Crawford game (no cube, RULES 10.2)."""
        return self.game.crawford

    @property
    def post_crawford(self) -> bool:
        """Whether the Crawford game has been played before the current game."""
        return self._post_crawford_start or any(g.crawford for g in self._games[:-1])

    def next_game(self) -> None:
        """Start the next game; refused while the current one is going on or the match is won."""
        if not self.game.over:
            raise IllegalActionError(
                f"cannot start the next game: game {len(self.games)} is not over "
                f"(phase {shown(self.game.phase.value)})")
        if self.over:
            raise IllegalActionError(
                f"cannot start another game: player {self.winner} has won the match "
                f"{self.score[0]}-{self.score[1]} (RULES 10.1)")
        self._games.append(self._new_game(self.score))

    def replay(self, games: Any) -> None:
        """Replay recorded games (each an iterable of :class:`Action`) from the current one on."""
        for i, actions in enumerate(games):
            if i:
                self.next_game()
            self.game.replay(actions)

    # ------------------------------------------------------------------
    # Records (the work is done in backgammon.formats)

    def to_mat(self, *, strict: bool = False) -> str:
        """The Jellyfish/gnubg ``.mat`` text of the match (see :mod:`backgammon.formats.mat`)."""
        from backgammon.formats.mat import write_mat
        return write_mat(self, strict=strict)

    @classmethod
    def from_mat(cls, text: str, *, rules: Rules | None = None) -> Match:
        """The match of a ``.mat`` record, every play replayed and checked."""
        from backgammon.errors import InvalidRecordError
        from backgammon.formats.mat import read_mat
        record = read_mat(text, rules=rules)
        if record.match is None:
            raise InvalidRecordError(".mat: a 0 point match holds money games, not a match")
        return record.match

    def to_sgf(self, *, strict: bool = False) -> str:
        """gnubg's SGF text of the match (see :mod:`backgammon.formats.sgf`)."""
        from backgammon.formats.sgf import write_sgf
        return write_sgf(self, strict=strict)

    @classmethod
    def from_sgf(cls, text: str, *, rules: Rules | None = None) -> Match:
        """The match of gnubg's SGF text, every play replayed and checked."""
        from backgammon.errors import InvalidRecordError
        from backgammon.formats.sgf import read_sgf
        record = read_sgf(text, rules=rules)
        if record.match is None:
            raise InvalidRecordError("SGF: a match length of 0 holds money games, not a match")
        return record.match

    def to_json(self) -> str:
        """The JSON record of the match (schema: docs/records.md)."""
        from backgammon.formats.record import write_json
        return write_json(self)

    @classmethod
    def from_json(cls, text: str | bytes, *, rng: Any = None) -> Match:
        """The match of a JSON record, every action replayed and checked; it rolls with
        ``rng`` if given, else the saved ``random.Random`` state, else a new one."""
        from backgammon.errors import InvalidRecordError
        from backgammon.formats.record import read_json
        record = read_json(text, rng=rng)
        if record.match is None:
            raise InvalidRecordError("record: money games, not a match")
        return record.match

    def _repr_html_(self) -> str:  # Jupyter: the current game's board and the score
        from backgammon.display import match_html
        return match_html(self)

    def __repr__(self) -> str:
        s0, s1 = self.score
        tag = " crawford" if self.crawford_game else ""
        state = f" won by {self.winner}" if self.over else f" game {len(self.games)}{tag}"
        return f"<Match to {self.length}: {s0}-{s1}{state}>"
