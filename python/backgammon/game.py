"""One game of backgammon as a state machine: dice, plays, the cube, resignations, scoring.

A :class:`Game` is always in one explicit :class:`Phase` and accepts only the
actions of that phase; any other action raises :class:`IllegalActionError`
(a ``ValueError``) whose message says why, and leaves the game exactly as it
was.  Players are 0 and 1; :attr:`Game.position` is seen from the player on
roll (:attr:`Game.turn`), like every :class:`Position`.  The values it is told in
(:class:`Phase`, :class:`Action`, :class:`GameResult`) are those of
:mod:`backgammon.game_types`, its dice a :class:`~backgammon.dice.DiceSource`; this
module offers them all.

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

import copy
import functools
from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING, Any, TypeVar

if TYPE_CHECKING:
    from backgammon.nn.evaluator import Evaluator  # pragma: no cover
    from backgammon.cube import CubeDecision

from backgammon.dice import DiceSource
from backgammon.errors import (
    BackgammonError,
    IllegalActionError,
    IllegalPlayActionError,
    IllegalPlayError,
    action_error,
)
from backgammon.game_types import MAX_MATCH_LENGTH, RESIGN_KINDS, Action, GameResult, Phase
from backgammon.position import Play, Position, Step
from backgammon.rules import OPENING_DICE, Rules
from backgammon._game_state import (
    MAX_STEPS,
    GameState,
    checked_dice,
    checked_point,
    checked_resign_kind,
    checked_steps,
    notation_steps,
)
from backgammon._show import shown
from backgammon._numbers import integer

__all__ = ["MAX_MATCH_LENGTH", "MAX_STEPS", "RESIGN_KINDS", "Action", "DiceSource", "Game", "GameResult",
           "Phase"]

_F = TypeVar("_F", bound=Callable[..., Any])


def _action(method: _F) -> _F:
    """Run an action as a transaction: on any error the game is restored as it was.

    The saved state is the game's own attributes (immutable values, so a
    shallow copy is a snapshot) and the dice drawn, handed back on failure.
    A refused game action raises an :class:`IllegalActionError`; one refused
    for its dice or its play is also the precise class (errors.action_error).
    """

    @functools.wraps(method)
    def wrapper(self: Game, *args: Any, **kwargs: Any) -> Any:
        saved = dict(self.__dict__)
        outer = self._dice.begin()
        try:
            result = method(self, *args, **kwargs)
        except BaseException as e:
            self.__dict__.clear()
            self.__dict__.update(saved)
            self._dice.end(outer, ok=False)
            if isinstance(e, BackgammonError) and not isinstance(e, IllegalActionError):
                raise action_error(e) from None
            raise
        self._dice.end(outer, ok=True)
        return result

    return wrapper  # type: ignore[return-value]


class Game(GameState):
    """One game between players 0 and 1 (RULES 2, 7, 8, 9, 12).

    ``rules``: a :class:`Rules` (default ``Rules()``).  ``rng``: where dice
    come from when :meth:`roll` is called without dice: an integer seed,
    ``None`` (seeded from the system), a ``random.Random``-like object, a
    ``numpy.random.Generator`` or ``RandomState``, or a callable returning a
    die (see :class:`DiceSource`; every die is checked).  ``match_length``,
    ``score`` (before this game) and ``crawford`` place the game in a match
    (:class:`Match` sets them): in match play Jacoby and automatic doubles
    are refused (RULES 9.4), and the Crawford game has no cube (RULES 10.2).

    The state is read-only (properties holding values: tuples, a
    :class:`Position`, a read-only mapping for :attr:`start`); only actions
    change it, each a transaction.

        >>> game = Game(Rules(jacoby=True), rng=7)
        >>> game.phase
        <Phase.OPENING: 'opening'>
        >>> game.turn = 1  # doctest: +IGNORE_EXCEPTION_DETAIL
        Traceback (most recent call last):
        ...
        AttributeError: property 'turn' of 'Game' object has no setter
    """

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
            raise TypeError(f"position must be a Position, got {shown(position)}")
        if position.outcome() is not None:
            raise IllegalActionError(f"the game in {shown(position)} is already over")
        player = integer(turn)  # numpy integers too; 1.0 is no player
        if player is None or player not in (0, 1):
            raise IllegalActionError(f"turn is player 0 or 1, got {shown(turn)}")
        turn = player
        cube, cube_owner = game._check_cube(cube, cube_owner)
        game._position = position
        game._turn = turn
        game._cube = cube
        game._cube_owner = cube_owner
        if dice is None:
            game._phase = Phase.ROLL
        else:
            game._rolled = checked_dice(dice)
            game._phase = Phase.MOVE
        game._start = {"position_id": position.position_id(), "turn": turn,
                       "dice": game._rolled, "cube": cube, "cube_owner": cube_owner}
        return game

    def cube_decision(self, ply: int = 0, evaluator: Evaluator | None = None) -> CubeDecision:
        """Double, take or pass now, by the nets (see :func:`backgammon.cube_decision`).

        Asked before the roll, it is the decision of the player on roll; while
        a double waits for its answer, ``take`` is the doubled player's answer.
        """
        from backgammon.cube import cube_decision
        return cube_decision(self, ply, evaluator)

    # ------------------------------------------------------------------
    # Steps shared by the actions

    def _record(self, player: int | None, kind: str, value: Any = None) -> None:
        self._actions = self.actions + (Action(player, kind, value),)

    def _roll_dice(self, dice: Any) -> tuple[int, int]:
        if dice is not None:
            return checked_dice(dice)
        return self._dice.die(), self._dice.die()

    def _end(self, winner: int, kind: str, reason: str, cube: int) -> None:
        points = self.rules.points(kind, cube=cube, cube_turned=self.cube_turned,
                                   match_play=self.match_play)
        self._result = GameResult(winner, points, kind, reason, cube)
        self._phase = Phase.OVER
        self._steps = ()  # steps never committed (a resignation mid-turn) are no play
        self._resignation = None
        self._resume = None
        self._unchecked = None  # RULES 12.4: no roll follows the end, the play stands

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
            if player is not None and (isinstance(player, bool) or player not in (0, 1)):
                raise IllegalActionError(f"players are 0 and 1, got {shown(player)}")
            d0, d1 = self._roll_dice(dice)
            self._record(None, "opening", (d0, d1))
            if d0 == d1:  # RULES 2.1: equal dice are rolled again
                if (self.automatic_doubles_used < self.rules.automatic_doubles
                        and self.rules.can_double_to(self.cube * 2)):  # RULES 9.3
                    self._cube *= 2
                    self._automatic_doubles_used += 1
                return
            self._turn = 0 if d0 > d1 else 1
            if self.rules.opening == OPENING_DICE:
                self._rolled = (d0, d1) if self.turn == 0 else (d1, d0)
                self._phase = Phase.MOVE
            else:  # RULES 2.2
                self._phase = Phase.ROLL
            return
        self._need(Phase.ROLL, "roll", player)
        self._rolled = self._roll_dice(dice)
        self._record(self.turn, "roll", self.dice)
        self._phase = Phase.MOVE
        self._unchecked = None  # RULES 12.4: an illegal play not flagged by now stands

    @_action
    def move(self, src: int, dst: int, *, player: int | None = None) -> None:
        """Move one checker from ``src`` to ``dst`` (25 = bar, 0 = off; integers).

        Only the steps :meth:`legal_moves` offers are accepted (RULES 4.3);
        the turn ends with :meth:`commit`.
        """
        step = (src, dst)
        src, dst = checked_point(src, step), checked_point(dst, step)
        self._need(Phase.MOVE, "move", player)
        allowed = self.legal_moves()
        if (src, dst) not in allowed:
            options = ", ".join(f"{s}/{d}" for s, d in allowed) or "none (commit the turn)"
            raise IllegalPlayActionError(
                f"{src}/{dst} is not a legal step now with {self.dice}; legal steps: {options}")
        self._steps = self.steps + ((src, dst),)

    @_action
    def undo(self, *, player: int | None = None) -> None:
        """Take back the last step of this turn (RULES 12.2: until the turn is committed)."""
        self._need(Phase.MOVE, "undo", player)
        if not self.steps:
            raise IllegalActionError("cannot undo: no step has been made this turn")
        self._steps = self.steps[:-1]

    @_action
    def commit(self, *, player: int | None = None) -> None:
        """End the turn with the steps made (RULES 12.2); they must be a complete legal play.

        A player who cannot move commits with no steps (RULES 4.4).
        """
        self._need(Phase.MOVE, "commit", player)
        if self.legal_moves():
            raise IllegalPlayActionError(
                f"cannot commit: the play is not complete, more dice must be played "
                f"(RULES 4.1); legal next steps: {self.legal_moves()}")
        self._finish_turn(self.steps)

    @_action
    def play(self, play: Play | str | Iterable[Step], *, player: int | None = None) -> None:
        """Make and commit a whole play: a :class:`Play`, notation text, or its steps
        (any iterable of ``(from, to)`` integer pairs, read once).

        With ``Rules(over_the_board=True)`` (RULES 12.4) steps that are not a
        legal play are recorded unchecked as long as they can be made on the
        board: each moves one of the mover's checkers forward, onto a point
        the opponent does not hold with two or more checkers, without ending
        the game.  Either player may then :meth:`flag` the play until the next
        roll; after it the play stands.

            >>> game = Game(Rules(over_the_board=True), rng=1)
            >>> game.roll((3, 1)); game.play([(8, 4)])      # a 4 with 3-1: illegal
            >>> game.flaggable, game.actions[-1]
            (True, Action(player=0, kind='play', value=((8, 4),)))
            >>> game.flag(); game.phase, game.turn, game.dice
            (<Phase.MOVE: 'move'>, 0, (3, 1))
        """
        self._need(Phase.MOVE, "play", player)
        if self.steps:
            raise IllegalActionError(
                f"cannot play a whole play after {len(self.steps)} single steps: undo them first")
        assert self.dice is not None
        if isinstance(play, str):
            try:
                steps = self._parse(play)
            except IllegalPlayError:  # well-formed notation that no legal play matches
                if not self.rules.over_the_board or self._checked_turn:
                    raise
                steps = notation_steps(play)  # RULES 12.4: as written, checked below
        elif isinstance(play, Play):
            if play.position != self.position:
                raise IllegalPlayActionError(f"{shown(play)} is a play of another position")
            steps = tuple(play.moves)
        else:
            steps = checked_steps(play)
        try:
            self.position.play(steps, self.dice)
        except BackgammonError as e:
            if not self.rules.over_the_board or self._checked_turn:
                raise action_error(e, f"illegal play: {e}") from None
            self._play_unchecked(steps, e)
            return
        self._finish_turn(steps)

    def _play_unchecked(self, steps: tuple[Step, ...], error: BackgammonError) -> None:
        """Record an illegal play as made on the board (RULES 12.4)."""
        board = self.position.tolist()
        for src, dst in steps:
            if not (1 <= src <= 25 and 0 <= dst < src and board[src] > 0):
                raise IllegalPlayActionError(
                    f"{src}/{dst} cannot be made on the board even unchecked: a step moves one "
                    f"of the mover's checkers forward (illegal play: {error})")
            if dst and board[dst] < -1:
                raise IllegalPlayActionError(
                    f"{src}/{dst} cannot be made on the board even unchecked: the opponent "
                    f"holds point {dst} (illegal play: {error})")
            board[src] -= 1
            if dst:
                if board[dst] == -1:  # a blot is hit and goes to the bar
                    board[dst] = 0
                    board[0] -= 1
                board[dst] += 1
        result = Position(board)
        if result.outcome() is not None:
            raise IllegalPlayActionError(
                f"an unchecked play may not end the game: {error}")
        before = {k: v for k, v in self.__dict__.items() if k != "_dice"}
        self._record(self.turn, "play", steps)
        self._position = result.swapped()
        self._turn = 1 - self.turn
        self._rolled = None
        self._steps = ()
        self._phase = Phase.ROLL
        self._unchecked = before

    @_action
    def flag(self, *, player: int | None = None) -> None:
        """Point out that the last play was illegal (RULES 12.4): it is taken back and
        its mover must play the same dice legally.  Allowed until the next roll (what
        happened since, a double or a resignation, is taken back too)."""
        if self._unchecked is None:
            raise IllegalActionError(
                "nothing to flag: the last play was legal, or the next roll has been "
                "made and it stands (RULES 12.4)")
        if player is not None and (isinstance(player, bool) or player not in (0, 1)):
            raise IllegalActionError(f"players are 0 and 1, got {shown(player)}")
        actions, dice = self.actions, self._dice
        before = self._unchecked
        self.__dict__.clear()
        self.__dict__.update(before)
        self._actions, self._dice = actions, dice
        self._record(player, "flag")
        self._checked_turn = True

    def _parse(self, text: str) -> tuple[Step, ...]:
        parse = getattr(Position, "parse_play", None)
        if parse is None:  # pragma: no cover - depends on notation support
            raise IllegalActionError("notation text needs Position.parse_play (not available)")
        try:
            parsed = parse(self.position, text, self.dice)
        except BackgammonError as e:
            raise action_error(e, f"cannot read {shown(text)}: {e}"[:500]) from None
        return tuple(parsed.moves) if isinstance(parsed, Play) else tuple(parsed)

    def _finish_turn(self, steps: tuple[Step, ...]) -> None:
        assert self.dice is not None
        result = self.position.play(steps, self.dice)
        self._record(self.turn, "play", tuple(steps))
        self._checked_turn = False
        outcome = result.outcome()
        if outcome is not None:  # RULES 7.1: the mover bore off the last checker
            self._position = result
            self._steps = ()
            self._end(self.turn, outcome.kind, "bearoff", self.cube)
            return
        self._position = result.swapped()
        self._turn = 1 - self.turn
        self._rolled = None
        self._steps = ()
        self._phase = Phase.ROLL

    @_action
    def double(self, *, player: int | None = None) -> None:
        """Offer a double before rolling (RULES 8.1, 8.3; allowed while blocked)."""
        self._need(Phase.ROLL, "double", player)
        reason = self._double_refusal(self.turn)
        if reason is not None:
            raise IllegalActionError(f"cannot double: {reason}")
        self._record(self.turn, "double", self.cube * 2)
        self._phase = Phase.DOUBLED

    @_action
    def take(self, *, player: int | None = None) -> None:
        """Accept the double: the stake doubles and the taker owns the cube (RULES 8.2)."""
        self._need(Phase.DOUBLED, "take", player)
        self._record(1 - self.turn, "take")
        self._cube *= 2
        self._cube_owner = 1 - self.turn
        self._phase = Phase.ROLL

    @_action
    def drop(self, *, player: int | None = None) -> None:
        """Refuse the double: the doubler wins the stake before the double (RULES 8.2)."""
        self._need(Phase.DOUBLED, "drop", player)
        self._record(1 - self.turn, "drop")
        # RULES 8.2: the cube value before the double; a drop scores a single game
        points = self.cube
        self._result = GameResult(self.turn, points, "single", "drop", self.cube)
        self._phase = Phase.OVER
        self._unchecked = None

    @_action
    def beaver(self, *, player: int | None = None) -> None:
        """Take and redouble at once: the stake goes to 4 times, cube kept by the beaver (RULES 9.2)."""
        self._need(Phase.DOUBLED, "beaver", player)
        reason = self._beaver_refusal()
        if reason is not None:
            raise IllegalActionError(f"cannot beaver: {reason}")
        self._record(1 - self.turn, "beaver")
        self._cube *= 4
        self._cube_owner = 1 - self.turn
        self._phase = Phase.ROLL

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
                f"cannot resign: the game is in phase {shown(self.phase.value)}")
        if self.phase is Phase.OPENING and player is None:
            raise IllegalActionError("before the opening roll say who resigns (player=0 or 1)")
        who = self.player_to_act if player is None else player
        if isinstance(who, bool) or who not in (0, 1):
            raise IllegalActionError(f"players are 0 and 1, got {shown(player)}")
        kind = checked_resign_kind(kind)
        self._record(who, "resign", kind)
        self._resignation = (who, kind)
        self._resume = self.phase
        self._phase = Phase.RESIGNED

    @_action
    def forfeit(self, *, player: int | None = None) -> None:
        """Forfeit the match (a player who leaves it, as Backgammon Galaxy records it):
        the opponent wins this game for the points it needed to win the match.

        Match play only; ``player`` (default: the player to act) may forfeit whenever
        the game is in ROLL, MOVE, DOUBLED or RESIGNED, and before the opening roll
        (then ``player`` must be given).  The result's ``reason`` is ``"forfeit"``.

            >>> g = Game(match_length=5, score=(0, 1))
            >>> g.forfeit(player=0)
            >>> g.result.winner, g.result.points, g.result.reason
            (1, 4, 'forfeit')
        """
        if not self.match_length:
            raise IllegalActionError("cannot forfeit: only a match can be forfeited "
                                     "(resign the game instead)")
        if self.phase not in (Phase.OPENING, Phase.ROLL, Phase.MOVE, Phase.DOUBLED,
                              Phase.RESIGNED):
            raise IllegalActionError(
                f"cannot forfeit: the game is in phase {shown(self.phase.value)}")
        if self.phase is Phase.OPENING and player is None:
            raise IllegalActionError("before the opening roll say who forfeits (player=0 or 1)")
        who = self.player_to_act if player is None else player
        if isinstance(who, bool) or who not in (0, 1):
            raise IllegalActionError(f"players are 0 and 1, got {shown(player)}"[:300])
        self._record(who, "forfeit")
        winner = 1 - who
        self._end(winner, "single", "forfeit", self.cube)
        self._result = GameResult(winner, self.match_length - self.score[winner], "single",
                                  "forfeit", self.cube)

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
        self._phase = self._resume
        self._resignation = None
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

    @classmethod
    def from_fibs_board(cls, text: str, *, player: int = 0, rules: Rules | None = None,
                        rng: Any = None) -> Game:
        """A game set up from a FIBS ``board:`` string (as FIBS and gnubg's
        rawboard write it); "you" becomes ``player`` (``backgammon.protocols.fibs``)."""
        from backgammon.protocols.fibs import from_fibs_board
        return from_fibs_board(text, player=player, rules=rules, rng=rng)

    def to_fibs_board(self, *, player: int | None = None,
                      names: tuple[str, str] = ("You", "Opponent")) -> str:
        """The FIBS ``board:`` string seen by ``player`` (default: the player to act)."""
        from backgammon.protocols.fibs import to_fibs_board
        return to_fibs_board(self, player=player, names=names)

    def to_json(self, *, names: tuple[str, str] | None = None) -> str:
        """The JSON record of this game (schema: docs/records.md), every action kept.

        A plain ``random.Random`` dice source (an integer seed gives one) is saved
        with its state, so :meth:`from_json` rolls on with the same dice.

            >>> game = Game(rng=3); game.roll((3, 1)); game.play("8/5 6/5")
            >>> again = Game.from_json(game.to_json())
            >>> again.actions == game.actions, again.roll() == game.roll(), again.dice == game.dice
            (True, True, True)
        """
        from backgammon.formats.record import write_json
        return write_json([self], names=names)

    @classmethod
    def from_json(cls, text: str | bytes, *, rng: Any = None) -> Game:
        """The game of a JSON record of one game, every action replayed and checked
        (:class:`InvalidRecordError` if not).  It rolls with ``rng`` if given, else
        with the saved ``random.Random`` state, else with a new ``random.Random()``."""
        from backgammon.errors import InvalidRecordError
        from backgammon.formats.record import read_json
        record = read_json(text, rng=rng)
        if len(record.games) != 1:
            raise InvalidRecordError(f"record: {len(record.games)} games, not one")
        return record.games[0]

    # ------------------------------------------------------------------
    # Records

    @_action
    def apply(self, action: Action | tuple[Any, ...]) -> None:
        """Replay one recorded :class:`Action` (dice come from the record)."""
        try:
            player, kind, value = Action(*action)
        except TypeError:
            raise IllegalActionError(
                f"an action is (player, kind, value), got {shown(action)}"[:300]) from None
        if kind in ("opening", "roll") and value is None:
            raise IllegalActionError(f"a recorded {kind} gives its dice, got {shown(action)}"[:300])
        if kind == "opening":
            if self.phase is not Phase.OPENING:
                raise IllegalActionError("an opening roll is recorded after the opening")
            self.roll(value)
        elif kind == "roll":
            self.roll(value, player=player)
        elif kind == "play":
            self.play(checked_steps(value), player=player)
        elif kind == "resign":
            self.resign(value, player=player)
        elif kind in ("double", "take", "drop", "beaver", "accept", "reject", "flag", "forfeit"):
            getattr(self, kind)(player=player)
        else:
            raise IllegalActionError(f"unknown action {shown(kind)}"[:300])

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
        """An independent copy (its dice source is copied too; a source without state,
        such as ``random.SystemRandom``, is shared)."""
        return copy.deepcopy(self)

    def _repr_html_(self) -> str:  # Jupyter: the board, score, cube and turn
        from backgammon.display import game_html
        return game_html(self)

    def __repr__(self) -> str:
        extra = f" dice={self.dice}" if self.dice else ""
        return (f"<Game {self.phase.value} turn={self.turn}{extra} cube={self.cube}"
                f"{'' if self.cube_owner is None else f' owner={self.cube_owner}'} "
                f"{self.position.position_id()}>")

