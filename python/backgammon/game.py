"""One game of backgammon as a state machine: dice, plays, the cube, resignations, scoring.

A :class:`Game` is always in one explicit :class:`Phase` and accepts only the
actions of that phase; any other action raises :class:`IllegalActionError`
(a ``ValueError``) whose message says why, and leaves the game exactly as it
was.  Players are 0 and 1; :attr:`Game.position` is seen from the player on
roll (:attr:`Game.turn`), like every :class:`Position`.

    >>> from backgammon import Position
    >>> from backgammon.game import Game, Phase
    >>> game = Game(rng=1)
    >>> game.roll((3, 1))              # the opening roll: player 0's die, player 1's die
    >>> game.phase, game.turn, game.dice
    (<Phase.MOVE: 'move'>, 0, (3, 1))
    >>> game.move(8, 5); game.move(6, 5); game.commit()
    >>> game.phase, game.turn
    (<Phase.ROLL: 'roll'>, 1)
    >>> game.double(); game.take()
    >>> game.cube, game.cube_owner
    (2, 0)
"""

from __future__ import annotations

import random
from collections.abc import Callable
from enum import Enum
from typing import Any, NamedTuple, TypeVar

from backgammon.errors import BackgammonError, IllegalActionError, IllegalPlayError
from backgammon.position import Play, Position, Step
from backgammon.rules import OPENING_DICE, Rules

__all__ = ["RESIGN_KINDS", "Action", "Game", "GameResult", "Phase"]

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
    ``reason`` ``"bearoff"``, ``"drop"`` or ``"resign"``; ``cube`` the cube
    value the points were counted with.
    """

    winner: int
    points: int
    kind: str
    reason: str
    cube: int


class Action(NamedTuple):
    """One recorded action: ``player`` (``None`` for the opening roll), ``kind``, ``value``.

    Kinds and values: ``opening`` (player 0's die, player 1's die), ``roll``
    (the dice), ``play`` (the steps, a tuple of ``(from, to)``), ``double``,
    ``take``, ``drop``, ``beaver``, ``accept``, ``reject`` (``None``) and
    ``resign`` (the kind).  Replaying the actions with :meth:`Game.apply`
    rebuilds the game.
    """

    player: int | None
    kind: str
    value: Any = None


_F = TypeVar("_F", bound=Callable[..., Any])


def _action(method: _F) -> _F:
    """Run an action as a transaction: on any error the game is restored as it was."""

    def wrapper(self: Game, *args: Any, **kwargs: Any) -> Any:
        saved = dict(self.__dict__)
        rng_state = self._rng.getstate() if hasattr(self._rng, "getstate") else None
        try:
            return method(self, *args, **kwargs)
        except BaseException:
            self.__dict__.clear()
            self.__dict__.update(saved)
            if rng_state is not None:
                self._rng.setstate(rng_state)
            raise

    wrapper.__name__ = method.__name__
    wrapper.__qualname__ = method.__qualname__
    wrapper.__doc__ = method.__doc__
    return wrapper  # type: ignore[return-value]


def _dice(dice: Any) -> tuple[int, int]:
    try:
        d1, d2 = dice
    except (TypeError, ValueError):
        raise IllegalActionError(f"dice are two integers from 1 to 6, got {dice!r}") from None
    if not all(isinstance(d, int) and not isinstance(d, bool) and 1 <= d <= 6 for d in (d1, d2)):
        raise IllegalActionError(f"dice are two integers from 1 to 6, got {dice!r}")
    return d1, d2


def _resign_kind(kind: Any) -> str:
    if isinstance(kind, int) and not isinstance(kind, bool) and 1 <= kind <= 3:
        return RESIGN_KINDS[kind - 1]
    if kind in RESIGN_KINDS:
        return str(kind)
    raise IllegalActionError(
        f"a resignation is 'single', 'gammon' or 'backgammon' (or 1, 2, 3), got {kind!r}")


class Game:
    """One game between players 0 and 1 (RULES 2, 7, 8, 9, 12).

    ``rules``: a :class:`Rules` (default ``Rules()``).  ``rng``: where dice
    come from when :meth:`roll` is called without dice: a
    ``random.Random``-compatible object (``randint``), or an integer seed;
    ``None`` seeds from the system.  ``match_length``, ``score`` (before this
    game) and ``crawford`` place the game in a match (:class:`Match` sets
    them): in match play Jacoby and automatic doubles are refused (RULES 9.4),
    and the Crawford game has no cube (RULES 10.2).

        >>> game = Game(Rules(jacoby=True), rng=7)
        >>> game.phase
        <Phase.OPENING: 'opening'>
    """

    def __init__(self, rules: Rules | None = None, *, rng: Any = None,
                 match_length: int = 0, score: tuple[int, int] = (0, 0),
                 crawford: bool = False) -> None:
        rules = Rules() if rules is None else rules
        if not isinstance(rules, Rules):
            raise TypeError(f"rules must be a Rules, got {rules!r}")
        if not isinstance(match_length, int) or match_length < 0:
            raise ValueError(f"match_length is 0 (money) or a positive integer, got {match_length!r}")
        if match_length:
            rules.check_match_play()  # RULES 9.4
        try:
            s0, s1 = score
        except (TypeError, ValueError):
            raise ValueError(f"score is two integers, got {score!r}") from None
        if not all(isinstance(x, int) and not isinstance(x, bool) and x >= 0 for x in (s0, s1)):
            raise ValueError(f"score is two integers >= 0, got {score!r}")
        if crawford and not match_length:
            raise ValueError("only a match game can be the Crawford game (RULES 10.2)")
        if match_length and max(s0, s1) >= match_length:
            raise ValueError(f"at {s0}-{s1} the match to {match_length} is already won "
                             "(RULES 10.1)")
        if crawford and (s0 == match_length - 1) == (s1 == match_length - 1):
            raise ValueError(f"at {s0}-{s1} this is not the Crawford game: it follows the game "
                             f"in which one player reached exactly {match_length - 1} "
                             "(RULES 10.2)")
        self.rules = rules
        self.match_length = match_length
        self.score = (int(s0), int(s1))
        self.crawford = bool(crawford)
        self._rng = rng if rng is not None and not isinstance(rng, int) else random.Random(rng)
        self.phase = Phase.OPENING
        self.turn = 0
        self.position = Position.initial()
        self.dice: tuple[int, int] | None = None
        self.steps: tuple[Step, ...] = ()
        self.cube = 1
        self.cube_owner: int | None = None
        self.automatic_doubles_used = 0
        self.resignation: tuple[int, str] | None = None
        self._resume: Phase | None = None
        self.result: GameResult | None = None
        self.actions: tuple[Action, ...] = ()
        self.start: dict[str, Any] | None = None
        """``None`` for a game from the opening; else the state it was set up in."""

    @classmethod
    def from_position(cls, position: Position, *, turn: int = 0,
                      dice: tuple[int, int] | None = None, cube: int = 1,
                      cube_owner: int | None = None, rules: Rules | None = None,
                      rng: Any = None, match_length: int = 0,
                      score: tuple[int, int] = (0, 0), crawford: bool = False) -> Game:
        """A game set up in ``position`` (seen from ``turn``, the player on roll).

        Without ``dice`` the game waits for the player on roll to double or
        roll; with them, for the play.  :attr:`start` records the setup.

            >>> game = Game.from_position(Position.initial(), turn=1, dice=(6, 5))
            >>> game.phase, game.turn, game.legal_moves()[:2]
            (<Phase.MOVE: 'move'>, 1, [(24, 18), (13, 8)])
        """
        game = cls(rules, rng=rng, match_length=match_length, score=score, crawford=crawford)
        if not isinstance(position, Position):
            raise TypeError(f"position must be a Position, got {position!r}")
        if position.outcome() is not None:
            raise IllegalActionError(f"the game in {position!r} is already over")
        if turn not in (0, 1):
            raise IllegalActionError(f"turn is player 0 or 1, got {turn!r}")
        game._check_cube(cube, cube_owner)
        game.position = position
        game.turn = turn
        game.cube = cube
        game.cube_owner = cube_owner
        if dice is None:
            game.phase = Phase.ROLL
        else:
            game.dice = _dice(dice)
            game.phase = Phase.MOVE
        game.start = {"position_id": position.position_id(), "turn": turn,
                      "dice": game.dice, "cube": cube, "cube_owner": cube_owner}
        return game

    def _check_cube(self, cube: Any, cube_owner: Any) -> None:
        """Refuse a cube this game cannot show (a game set up mid-way)."""
        if cube not in (1, 2, 4, 8, 16, 32, 64) or (cube > 1 and not self.rules.cube):
            raise IllegalActionError(f"the cube shows a power of two up to 64 (RULES 8.4), got {cube!r}")
        if cube > self.rules.max_cube:
            raise IllegalActionError(f"the cube on {cube} is above max_cube {self.rules.max_cube}")
        if cube_owner not in (None, 0, 1):
            raise IllegalActionError(f"cube_owner is None (centred), 0 or 1, got {cube_owner!r}")
        if self.crawford and (cube_owner is not None or cube > 1):
            raise IllegalActionError("the Crawford game has no cube action (RULES 10.2)")
        if cube_owner is not None and cube == 1:
            raise IllegalActionError(
                "an owned cube shows at least 2: the owner took a double (RULES 8.2)")
        if cube_owner is None and cube > 1 and self.match_length:
            raise IllegalActionError(
                f"a centred cube on {cube} comes only from automatic doubles, which match "
                "play forbids (RULES 9.3, 9.4)")

    # ------------------------------------------------------------------
    # State

    @property
    def player_to_act(self) -> int | None:
        """The player who must act next; ``None`` at the opening roll and when over."""
        if self.phase in (Phase.ROLL, Phase.MOVE):
            return self.turn
        if self.phase is Phase.DOUBLED:
            return 1 - self.turn
        if self.phase is Phase.RESIGNED:
            assert self.resignation is not None
            return 1 - self.resignation[0]
        return None

    @property
    def cube_turned(self) -> bool:
        """Whether the cube has been doubled and taken in this game (RULES 9.1)."""
        return self.cube_owner is not None

    @property
    def match_play(self) -> bool:
        return self.match_length > 0

    @property
    def over(self) -> bool:
        return self.phase is Phase.OVER

    def board(self, player: int = 0) -> Position:
        """The position seen from ``player`` (0 or 1), whoever is on roll."""
        return self.position if player == self.turn else self.position.swapped()

    def current_position(self) -> Position:
        """:attr:`position` with the steps made so far this turn (for display)."""
        if not self.steps:
            return self.position
        pos = self.position
        board = pos.tolist()
        for src, dst in self.steps:
            board[src] -= 1
            if dst:
                if board[dst] == -1:
                    board[dst] = 0
                    board[0] -= 1
                board[dst] += 1
        return Position(board)

    def can_double(self, player: int | None = None) -> bool:
        """Whether ``player`` (default: the player on roll) may double now (RULES 8)."""
        who = self.turn if player is None else player
        return (self.phase is Phase.ROLL and who == self.turn
                and self._double_refusal(who) is None)

    def _double_refusal(self, player: int) -> str | None:
        if not self.rules.cube:
            return "the cube is not used in this game (RULES 8.4)"
        if self.crawford:
            return "the Crawford game is played without the cube (RULES 10.2)"
        if self.cube_owner is not None and self.cube_owner != player:
            return f"player {self.cube_owner} owns the cube (RULES 8.3)"
        if self.cube * 2 > self.rules.max_cube:
            return (f"the cube is on {self.cube} and may not go above "
                    f"{self.rules.max_cube} (RULES 8.4)")
        return None

    def legal_moves(self) -> list[Step]:
        """The single steps that may be made next this turn (RULES 4.3); ``[]`` outside MOVE."""
        if self.phase is not Phase.MOVE:
            return []
        assert self.dice is not None
        return self.position.legal_moves(self.dice, self.steps)

    def legal_actions(self) -> list[str]:
        """The names of the actions allowed now, e.g. ``['double', 'roll', 'resign']``."""
        phase = self.phase
        if phase is Phase.OPENING:
            return ["roll", "resign"]
        if phase is Phase.ROLL:
            return (["double"] if self.can_double() else []) + ["roll", "resign"]
        if phase is Phase.MOVE:
            acts = []
            if self.legal_moves():
                acts.append("move")
            else:
                acts.append("commit")
            if self.steps:
                acts.append("undo")
            else:
                acts.append("play")
            return acts + ["resign"]
        if phase is Phase.DOUBLED:
            return ["take", "drop"] + (["beaver"] if self._beaver_refusal() is None else []) + ["resign"]
        if phase is Phase.RESIGNED:
            return ["accept", "reject"]
        return []

    # ------------------------------------------------------------------
    # Checks shared by the actions

    def _need(self, phase: Phase, action: str, player: int | None) -> None:
        if self.phase is not phase:
            raise IllegalActionError(
                f"cannot {action}: the game is in phase {self.phase.value!r}, "
                f"{action} needs {phase.value!r}")
        self._check_player(action, player)

    def _check_player(self, action: str, player: int | None) -> None:
        if player is None:
            return
        if player not in (0, 1):
            raise IllegalActionError(f"players are 0 and 1, got {player!r}")
        if player != self.player_to_act:
            raise IllegalActionError(
                f"player {player} cannot {action}: it is player {self.player_to_act}'s decision")

    def _record(self, player: int | None, kind: str, value: Any = None) -> None:
        self.actions = self.actions + (Action(player, kind, value),)

    def _roll_dice(self, dice: Any) -> tuple[int, int]:
        if dice is not None:
            return _dice(dice)
        return self._rng.randint(1, 6), self._rng.randint(1, 6)

    def _end(self, winner: int, kind: str, reason: str, cube: int) -> None:
        points = self.rules.points(kind, cube=cube, cube_turned=self.cube_turned,
                                   match_play=self.match_play)
        self.result = GameResult(winner, points, kind, reason, cube)
        self.phase = Phase.OVER
        self.steps = ()  # steps never committed (a resignation mid-turn) are no play
        self.resignation = None
        self._resume = None

    # ------------------------------------------------------------------
    # Actions

    @_action
    def roll(self, dice: tuple[int, int] | None = None, *, player: int | None = None) -> None:
        """Roll the dice, or record the ``dice`` the caller rolled.

        At the opening (RULES 2.1) ``dice`` is (player 0's die, player 1's
        die): the higher die moves first, playing both opening dice, or
        rolling again under ``Rules(opening="roll_again")`` (RULES 2.2).
        Equal dice are rolled again; with automatic doubles each tie, up to
        the limit, doubles the cube, which stays in the middle (RULES 9.3).
        Later the player on roll rolls both dice (RULES 2.3).
        """
        if self.phase is Phase.OPENING:
            if player is not None and player not in (0, 1):  # either player throws
                raise IllegalActionError(f"players are 0 and 1, got {player!r}")
            d0, d1 = self._roll_dice(dice)
            self._record(None, "opening", (d0, d1))
            if d0 == d1:  # RULES 2.1: equal dice are rolled again
                if (self.automatic_doubles_used < self.rules.automatic_doubles
                        and self.rules.can_double_to(self.cube * 2)):  # RULES 9.3
                    self.cube *= 2
                    self.automatic_doubles_used += 1
                return
            self.turn = 0 if d0 > d1 else 1
            if self.rules.opening == OPENING_DICE:
                self.dice = (d0, d1) if self.turn == 0 else (d1, d0)
                self.phase = Phase.MOVE
            else:  # RULES 2.2
                self.phase = Phase.ROLL
            return
        self._need(Phase.ROLL, "roll", player)
        self.dice = self._roll_dice(dice)
        self._record(self.turn, "roll", self.dice)
        self.phase = Phase.MOVE

    @_action
    def move(self, src: int, dst: int, *, player: int | None = None) -> None:
        """Move one checker from ``src`` to ``dst`` (25 = bar, 0 = off).

        Only the steps :meth:`legal_moves` offers are accepted (RULES 4.3);
        the turn ends with :meth:`commit`.
        """
        self._need(Phase.MOVE, "move", player)
        allowed = self.legal_moves()
        if (src, dst) not in allowed:
            shown = ", ".join(f"{s}/{d}" for s, d in allowed) or "none (commit the turn)"
            raise IllegalActionError(
                f"{src}/{dst} is not a legal step now with {self.dice}; legal steps: {shown}")
        self.steps = self.steps + ((src, dst),)

    @_action
    def undo(self, *, player: int | None = None) -> None:
        """Take back the last step of this turn (RULES 12.2: until the turn is committed)."""
        self._need(Phase.MOVE, "undo", player)
        if not self.steps:
            raise IllegalActionError("cannot undo: no step has been made this turn")
        self.steps = self.steps[:-1]

    @_action
    def commit(self, *, player: int | None = None) -> None:
        """End the turn with the steps made (RULES 12.2); they must be a complete legal play.

        A player who cannot move commits with no steps (RULES 4.4).
        """
        self._need(Phase.MOVE, "commit", player)
        if self.legal_moves():
            raise IllegalActionError(
                f"cannot commit: the play is not complete, more dice must be played "
                f"(RULES 4.1); legal next steps: {self.legal_moves()}")
        self._finish_turn(self.steps)

    @_action
    def play(self, play: Play | str | tuple[Step, ...] | list[Step], *,
             player: int | None = None) -> None:
        """Make and commit a whole play: a :class:`Play`, its steps, or notation text."""
        self._need(Phase.MOVE, "play", player)
        if self.steps:
            raise IllegalActionError(
                f"cannot play a whole play after {len(self.steps)} single steps: undo them first")
        assert self.dice is not None
        steps: Any
        if isinstance(play, str):
            steps = self._parse(play)
        elif isinstance(play, Play):
            if play.position != self.position:
                raise IllegalActionError(f"{play!r} is a play of another position")
            steps = play.moves
        else:
            steps = play
        try:
            result = self.position.play(steps, self.dice)
        except BackgammonError as e:
            raise IllegalActionError(f"illegal play: {e}") from None
        if isinstance(play, Play) and play.result != result:  # pragma: no cover - defensive
            raise IllegalActionError(f"{play!r} does not give its own result")
        self._finish_turn(tuple((int(a), int(b)) for a, b in steps))

    def _parse(self, text: str) -> tuple[Step, ...]:
        parse = getattr(Position, "parse_play", None)
        if parse is None:  # pragma: no cover - depends on notation support
            raise IllegalActionError("notation text needs Position.parse_play (not available)")
        try:
            parsed = parse(self.position, text, self.dice)
        except BackgammonError as e:
            raise IllegalActionError(f"cannot read {text!r}: {e}") from None
        return parsed.moves if isinstance(parsed, Play) else tuple(parsed)

    def _finish_turn(self, steps: tuple[Step, ...]) -> None:
        assert self.dice is not None
        try:
            result = self.position.play(steps, self.dice)
        except IllegalPlayError as e:  # pragma: no cover - steps were checked one by one
            raise IllegalActionError(str(e)) from None
        self._record(self.turn, "play", tuple(steps))
        outcome = result.outcome()
        if outcome is not None:  # RULES 7.1: the mover bore off the last checker
            self.position = result
            self.steps = ()
            self._end(self.turn, outcome.kind, "bearoff", self.cube)
            return
        self.position = result.swapped()
        self.turn = 1 - self.turn
        self.dice = None
        self.steps = ()
        self.phase = Phase.ROLL

    @_action
    def double(self, *, player: int | None = None) -> None:
        """Offer a double before rolling (RULES 8.1, 8.3; allowed while blocked)."""
        self._need(Phase.ROLL, "double", player)
        reason = self._double_refusal(self.turn)
        if reason is not None:
            raise IllegalActionError(f"cannot double: {reason}")
        self._record(self.turn, "double", self.cube * 2)
        self.phase = Phase.DOUBLED

    @_action
    def take(self, *, player: int | None = None) -> None:
        """Accept the double: the stake doubles and the taker owns the cube (RULES 8.2)."""
        self._need(Phase.DOUBLED, "take", player)
        self._record(1 - self.turn, "take")
        self.cube *= 2
        self.cube_owner = 1 - self.turn
        self.phase = Phase.ROLL

    @_action
    def drop(self, *, player: int | None = None) -> None:
        """Refuse the double: the doubler wins the stake before the double (RULES 8.2)."""
        self._need(Phase.DOUBLED, "drop", player)
        self._record(1 - self.turn, "drop")
        # RULES 8.2: the cube value before the double; a drop scores a single game
        points = self.cube
        self.result = GameResult(self.turn, points, "single", "drop", self.cube)
        self.phase = Phase.OVER

    def _beaver_refusal(self) -> str | None:
        if not self.rules.beaver:
            return "beavers are not allowed in this game (RULES 9.2)"
        if self.cube * 4 > self.rules.max_cube:
            return (f"a beaver would put the cube on {self.cube * 4}, above "
                    f"{self.rules.max_cube} (RULES 8.4)")
        return None

    @_action
    def beaver(self, *, player: int | None = None) -> None:
        """Take and redouble at once: the stake goes to 4 times, cube kept by the beaver (RULES 9.2)."""
        self._need(Phase.DOUBLED, "beaver", player)
        reason = self._beaver_refusal()
        if reason is not None:
            raise IllegalActionError(f"cannot beaver: {reason}")
        self._record(1 - self.turn, "beaver")
        self.cube *= 4
        self.cube_owner = 1 - self.turn
        self.phase = Phase.ROLL

    @_action
    def resign(self, kind: str | int = "single", *, player: int | None = None) -> None:
        """Offer to resign a single game, gammon or backgammon.

        ``player`` (default: the player to act) may resign whenever the game
        is in ROLL, MOVE or DOUBLED, and before the opening roll (then
        ``player`` must be given); the other player accepts or rejects.
        An accepted resignation scores the resigned kind like a finished
        game of that kind (cube, Jacoby and backgammon value included).
        """
        if self.phase not in (Phase.OPENING, Phase.ROLL, Phase.MOVE, Phase.DOUBLED):
            raise IllegalActionError(
                f"cannot resign: the game is in phase {self.phase.value!r}")
        if self.phase is Phase.OPENING and player is None:
            raise IllegalActionError("before the opening roll say who resigns (player=0 or 1)")
        who = self.player_to_act if player is None else player
        if who not in (0, 1):
            raise IllegalActionError(f"players are 0 and 1, got {player!r}")
        kind = _resign_kind(kind)
        self._record(who, "resign", kind)
        self.resignation = (who, kind)
        self._resume = self.phase
        self.phase = Phase.RESIGNED

    @_action
    def accept(self, *, player: int | None = None) -> None:
        """Accept the resignation: the resigner loses the resigned kind."""
        self._need(Phase.RESIGNED, "accept", player)
        assert self.resignation is not None
        resigner, kind = self.resignation
        self._record(1 - resigner, "accept")
        self._end(1 - resigner, kind, "resign", self.cube)

    @_action
    def reject(self, *, player: int | None = None) -> None:
        """Reject the resignation: the game goes on where it was."""
        self._need(Phase.RESIGNED, "reject", player)
        assert self.resignation is not None and self._resume is not None
        self._record(1 - self.resignation[0], "reject")
        self.phase = self._resume
        self.resignation = None
        self._resume = None

    # ------------------------------------------------------------------
    # Interchange formats (the work is done in backgammon.formats)

    def gnubg_id(self, *, strict: bool = False) -> str:
        """gnubg's ``PositionID:MatchID`` of this game.

        Fields gnubg cannot carry (a beaver rule, automatic doubles, steps
        made but not committed, ...) are reported with a
        :class:`FormatLossWarning`, or :class:`FormatLossError` if ``strict``.

            >>> Game.from_position(Position.initial(), dice=(3, 1)).gnubg_id()
            '4HPwATDgc/ABMA:MIEFAAAAAAAE'

        (The last ``E`` is gnubg's "Jacoby off" bit: ``Rules()`` has no Jacoby.)
        """
        from backgammon.formats.match_id import game_gnubg_id
        return game_gnubg_id(self, strict=strict)

    @classmethod
    def from_gnubg_id(cls, text: str, *, rules: Rules | None = None, rng: Any = None) -> Game:
        """The game of a GNUbgID ``PositionID:MatchID`` (:class:`InvalidRecordError` if bad).

        ``rules`` gives the options the ID cannot carry; Jacoby comes from the ID.

            >>> Game.from_gnubg_id("4HPwATDgc/ABMA:cAkAAAAAAAAA").turn
            1
        """
        from backgammon.formats.match_id import game_from_gnubg_id
        return game_from_gnubg_id(text, rules=rules, rng=rng)

    def xgid(self, *, strict: bool = False) -> str:
        """eXtreme Gammon's ``XGID=...`` of this game (losses reported as for :meth:`gnubg_id`).

            >>> Game.from_position(Position.initial(), dice=(5, 2)).xgid()
            'XGID=-b----E-C---eE---c-e----B-:0:0:1:52:0:0:0:0:6'
        """
        from backgammon.formats.xgid import game_xgid
        return game_xgid(self, strict=strict)

    @classmethod
    def from_xgid(cls, text: str, *, rules: Rules | None = None, rng: Any = None) -> Game:
        """The game of an XGID (with or without the ``XGID=`` prefix).

            >>> Game.from_xgid("XGID=-b----E-C---eE---c-e----B-:1:1:-1:00:0:0:0:0:10").cube
            2
        """
        from backgammon.formats.xgid import game_from_xgid
        return game_from_xgid(text, rules=rules, rng=rng)

    # ------------------------------------------------------------------
    # Records

    @_action
    def apply(self, action: Action | tuple[Any, ...]) -> None:
        """Replay one recorded :class:`Action` (dice come from the record)."""
        player, kind, value = Action(*action)
        if kind == "opening":
            if self.phase is not Phase.OPENING:
                raise IllegalActionError("an opening roll is recorded after the opening")
            self.roll(tuple(value))
        elif kind == "roll":
            self.roll(tuple(value), player=player)
        elif kind == "play":
            self.play(tuple(tuple(s) for s in value), player=player)
        elif kind == "resign":
            self.resign(value, player=player)
        elif kind in ("double", "take", "drop", "beaver", "accept", "reject"):
            getattr(self, kind)(player=player)
        else:
            raise IllegalActionError(f"unknown action {kind!r}")

    def restart(self) -> Game:
        """A new game set up as this one started (same rules, match context and
        setup), with no actions yet; its dice come from a fresh ``random.Random(0)``."""
        start = self.start
        if start is None:
            return Game(self.rules, rng=0, match_length=self.match_length, score=self.score,
                        crawford=self.crawford)
        if "gnubg_id" in start:
            return Game.from_gnubg_id(start["gnubg_id"], rules=self.rules, rng=0)
        if "xgid" in start:
            return Game.from_xgid(start["xgid"], rules=self.rules, rng=0)
        return Game.from_position(
            Position.from_position_id(start["position_id"]), turn=start["turn"],
            dice=start["dice"], cube=start["cube"], cube_owner=start["cube_owner"],
            rules=self.rules, rng=0, match_length=self.match_length, score=self.score,
            crawford=self.crawford)

    def replay(self, actions: Any) -> None:
        """Apply every action of a record in order (stops at the first illegal one)."""
        for action in actions:
            self.apply(action)

    def copy(self) -> Game:
        """An independent copy (its dice source is copied too)."""
        import copy as _copy
        return _copy.deepcopy(self)

    def __repr__(self) -> str:
        extra = f" dice={self.dice}" if self.dice else ""
        return (f"<Game {self.phase.value} turn={self.turn}{extra} cube={self.cube}"
                f"{'' if self.cube_owner is None else f' owner={self.cube_owner}'} "
                f"{self.position.position_id()}>")

