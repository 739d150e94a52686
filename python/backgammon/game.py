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

import copy
import functools
import itertools
import operator
import random
from collections.abc import Callable, Iterable
from enum import Enum
from types import MappingProxyType
from typing import TYPE_CHECKING, Any, Mapping, NamedTuple, TypeVar

import numpy as np

if TYPE_CHECKING:  # pragma: no cover
    from backgammon.cube import CubeDecision

from backgammon.errors import (
    BackgammonError,
    IllegalActionError,
    IllegalDiceActionError,
    IllegalPlayActionError,
    IllegalPlayError,
    InvalidSetupError,
    action_error,
)
from backgammon.position import Play, Position, Step
from backgammon.rules import OPENING_DICE, Rules
from backgammon._show import shown
from backgammon._numbers import integer

__all__ = ["MAX_MATCH_LENGTH", "MAX_STEPS", "RESIGN_KINDS", "Action", "DiceSource", "Game", "GameResult",
           "Phase"]

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


_F = TypeVar("_F", bound=Callable[..., Any])

MAX_STEPS = 8
"""The most steps a play may list (four dice; an unchecked play, RULES 12.4, up to eight)."""


def _die_value(value: Any, source: Any) -> int:
    """Check one die a dice source gave."""
    try:
        die = None if isinstance(value, bool) else operator.index(value)
    except TypeError:
        die = None
    if die is None or not 1 <= die <= 6:
        raise IllegalDiceActionError(
            f"the dice source {shown(source)} gave {shown(value)}: a die is an integer from 1 to 6")
    return die


class DiceSource:
    """Where a game's dice come from, checked die by die, with undo.

    ``rng`` is an integer seed or ``None`` (a new ``random.Random``), a
    ``random.Random``-like object (``randint(1, 6)``, inclusive, as
    ``random.Random``, ``random.SystemRandom`` and the tests' scripted dice),
    a ``numpy.random.Generator`` (``integers(1, 7)``), a
    ``numpy.random.RandomState`` (``randint(1, 7)``: its upper bound is
    exclusive), or a callable returning one die.  Every die is checked: a
    value that is not an integer from 1 to 6 raises
    :class:`~backgammon.errors.IllegalDiceActionError`.

    A refused action that drew dice hands them back: the next dice drawn are
    those, in order, so the game goes on as if the refused action never
    happened, with no ``getstate`` needed (a server's ``SystemRandom`` has none).

        >>> import random
        >>> dice = DiceSource(random.SystemRandom())
        >>> 1 <= dice.die() <= 6
        True
        >>> DiceSource(lambda: 7).die()
        Traceback (most recent call last):
        ...
        backgammon.errors.IllegalDiceActionError: the dice source <function <lambda> at ...> gave 7: a die is an integer from 1 to 6
    """

    __slots__ = ("source", "_kind", "_pending", "_log")
    source: Any  # what rng became: a random.Random-like object, a numpy generator or a callable

    def __init__(self, rng: Any = None) -> None:
        if isinstance(rng, DiceSource):
            rng = rng.source
        if isinstance(rng, bool):
            raise TypeError(f"rng is a seed, a random number generator or a callable, got {shown(rng)}")
        if rng is None or isinstance(rng, int):
            rng = random.Random(rng)
        if isinstance(rng, np.random.Generator):
            kind = "integers"
        elif isinstance(rng, np.random.RandomState):
            kind = "exclusive"
        elif callable(getattr(rng, "randint", None)):
            kind = "randint"
        elif callable(rng):
            kind = "call"
        else:
            raise TypeError(
                "rng is an integer seed, a random.Random-like object (randint), a numpy "
                f"Generator or RandomState, or a callable returning a die, got {shown(rng)}")
        self.source = rng
        self._kind = kind
        self._pending: list[int] = []   # dice handed back by refused actions, next last
        self._log: list[int] | None = None  # dice drawn in the running transaction

    def die(self) -> int:
        """One die from 1 to 6."""
        if self._pending:
            value = self._pending.pop()
        else:
            src = self.source
            if self._kind == "randint":
                raw = src.randint(1, 6)
            elif self._kind == "integers":
                raw = src.integers(1, 7)
            elif self._kind == "exclusive":
                raw = src.randint(1, 7)
            else:
                raw = src()
            value = _die_value(raw, src)
        if self._log is not None:
            self._log.append(value)
        return value

    def begin(self) -> list[int] | None:
        """Start a transaction; returns what :meth:`end` needs."""
        outer, self._log = self._log, []
        return outer

    def end(self, outer: list[int] | None, ok: bool) -> None:
        """End a transaction: keep its dice (``ok``) or hand them back."""
        drawn, self._log = self._log or [], outer
        if ok:
            if outer is not None:
                outer.extend(drawn)
        else:
            self._pending.extend(reversed(drawn))

    def state(self) -> dict[str, Any] | None:
        """A JSON-ready state when the source is a plain ``random.Random``, else ``None``."""
        if type(self.source) is not random.Random:
            return None
        version, internal, gauss = self.source.getstate()
        return {"kind": "random.Random", "state": [version, list(internal), gauss],
                "pending": list(reversed(self._pending))}

    @classmethod
    def from_state(cls, data: Any) -> DiceSource:
        """The source :meth:`state` described (``ValueError`` or ``TypeError`` if malformed)."""
        if not isinstance(data, dict) or data.get("kind") != "random.Random":
            raise ValueError(f"a dice source state is a random.Random state, got {shown(data)}"[:200])
        version, internal, gauss = data["state"]
        if not (isinstance(internal, list) and len(internal) == 625
                and all(isinstance(x, int) and not isinstance(x, bool) for x in internal)):
            raise ValueError("a random.Random state holds 625 integers")
        if gauss is not None and (isinstance(gauss, bool) or not isinstance(gauss, float)):
            raise ValueError(f"a random.Random state ends with a float or null, got {shown(gauss)}"[:200])
        rng = random.Random()
        rng.setstate((version, tuple(internal), gauss))
        source = cls(rng)
        pending = data.get("pending", [])
        if not isinstance(pending, list) or len(pending) > 64:
            raise ValueError("pending dice are a short list")
        source._pending = [_die_value(d, "the record") for d in reversed(pending)]
        return source

    def __deepcopy__(self, memo: dict[int, Any]) -> DiceSource:
        new = DiceSource.__new__(DiceSource)
        try:
            new.source = copy.deepcopy(self.source, memo)
        except Exception:  # noqa: BLE001 - no state to copy (SystemRandom): share it
            new.source = self.source
        new._kind = self._kind
        new._pending = list(self._pending)
        new._log = None
        return new

    def __repr__(self) -> str:
        return f"DiceSource({shown(self.source)})"


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


_integer = integer  # an int of any integral type (numpy's too), not a bool; else None


def _dice(dice: Any) -> tuple[int, int]:
    if isinstance(dice, str):  # "31", "3-1"
        from backgammon import _bgcore
        try:
            return _bgcore.parse_dice(dice)
        except BackgammonError as e:
            raise IllegalDiceActionError(str(e)) from None
    try:
        d1, d2 = dice
    except (TypeError, ValueError):
        raise IllegalDiceActionError(
            f"dice are two integers from 1 to 6, got {shown(dice)}"[:300]) from None
    a, b = _integer(d1), _integer(d2)
    if a is None or b is None or not (1 <= a <= 6 and 1 <= b <= 6):
        raise IllegalDiceActionError(f"dice are two integers from 1 to 6, got {shown(dice)}"[:300])
    return a, b


def _point(value: Any, step: Any) -> int:
    point = _integer(value)
    if point is None or not 0 <= point <= 25:
        raise IllegalPlayActionError(
            f"a step is two points from 0 to 25 (from, to), got {shown(step)}"[:300])
    return point


def _steps(play: Any) -> tuple[Step, ...]:
    """The steps of ``play`` (any iterable of pairs, read once), checked to be integers."""
    if isinstance(play, (str, bytes)):
        raise IllegalPlayActionError(f"steps are (from, to) pairs, got {shown(play)}"[:300])
    try:
        items = list(itertools.islice(iter(play), MAX_STEPS + 1))
    except TypeError:
        raise IllegalPlayActionError(
            f"a play is a Play, notation text or (from, to) steps, got {shown(play)}"[:300]) from None
    if len(items) > MAX_STEPS:
        raise IllegalPlayActionError(f"a play has at most {MAX_STEPS} steps")
    out = []
    for step in items:
        try:
            src, dst = step
        except (TypeError, ValueError):
            raise IllegalPlayActionError(
                f"a step is a pair (from, to), got {shown(step)}"[:300]) from None
        out.append((_point(src, step), _point(dst, step)))
    return tuple(out)


def _notation_steps(text: str) -> tuple[Step, ...]:
    """The steps that notation text writes, as written (``"24/14"`` is one step 24 to
    14): for a play recorded unchecked (RULES 12.4), which no legal play matches."""
    from backgammon.notation import parse_segments

    steps: list[Step] = []
    for segment in parse_segments(text):
        chain = list(zip(segment.points, segment.points[1:]))
        steps.extend(chain * segment.repeat)
    if len(steps) > MAX_STEPS:
        raise IllegalPlayActionError(f"a play has at most {MAX_STEPS} steps, {shown(text)} has "
                                     f"{len(steps)}"[:300])
    return tuple(steps)


def _resign_kind(kind: Any) -> str:
    number = integer(kind)
    if number is not None and 1 <= number <= 3:
        return RESIGN_KINDS[number - 1]
    if isinstance(kind, str) and kind in RESIGN_KINDS:
        return str(kind)
    raise IllegalActionError(
        f"a resignation is 'single', 'gammon' or 'backgammon' (or 1, 2, 3), got {shown(kind)}"[:300])


class Game:
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

    def __init__(self, rules: Rules | None = None, *, rng: Any = None,
                 match_length: int = 0, score: tuple[int, int] = (0, 0),
                 crawford: bool = False) -> None:
        rules = Rules() if rules is None else rules
        if not isinstance(rules, Rules):
            raise TypeError(f"rules must be a Rules, got {shown(rules)}")
        if _integer(match_length) is None:
            raise TypeError(f"match_length is an integer, got {shown(match_length)}")
        match_length = operator.index(match_length)
        if not 0 <= match_length <= MAX_MATCH_LENGTH:
            raise InvalidSetupError(
                f"match_length is 0 (money) or a positive integer up to {MAX_MATCH_LENGTH}, "
                f"got {shown(match_length)}")
        if match_length:
            rules.check_match_play()  # RULES 9.4
        if isinstance(score, (str, bytes)):
            raise TypeError(f"score is two integers, got {shown(score)}")
        try:
            s0, s1 = score
        except (TypeError, ValueError):
            raise TypeError(f"score is two integers, got {shown(score)}"[:300]) from None
        s0, s1 = _integer(s0), _integer(s1)  # type: ignore[assignment]
        if s0 is None or s1 is None:
            raise TypeError(f"score is two integers, got {shown(score)}"[:300])
        if min(s0, s1) < 0:
            raise InvalidSetupError(f"score is two integers >= 0, got {shown(score)}")
        if crawford not in (True, False):
            raise TypeError(f"crawford is True or False, got {shown(crawford)}")
        if crawford and not match_length:
            raise InvalidSetupError("only a match game can be the Crawford game (RULES 10.2)")
        if match_length and max(s0, s1) >= match_length:
            raise InvalidSetupError(f"at {shown(s0)}-{shown(s1)} the match to {match_length} is already won "
                                    "(RULES 10.1)")
        if crawford and (s0 == match_length - 1) == (s1 == match_length - 1):
            raise InvalidSetupError(
                f"at {s0}-{s1} this is not the Crawford game: it follows the game "
                f"in which one player reached exactly {match_length - 1} (RULES 10.2)")
        self._rules = rules
        self._match_length = match_length
        self._score = (s0, s1)
        self._crawford = bool(crawford)
        # a DiceSource is shared as it is (a match's games share one)
        self._dice = rng if isinstance(rng, DiceSource) else DiceSource(rng)
        self._phase = Phase.OPENING
        self._turn = 0
        self._position = Position.initial()
        self._rolled: tuple[int, int] | None = None
        self._steps: tuple[Step, ...] = ()
        self._cube = 1
        self._cube_owner: int | None = None
        self._automatic_doubles_used = 0
        self._resignation: tuple[int, str] | None = None
        self._resume: Phase | None = None
        self._result: GameResult | None = None
        self._actions: tuple[Action, ...] = ()
        self._start: dict[str, Any] | None = None
        # RULES 12.4 (Rules.over_the_board): the state before an unchecked
        # illegal play, until the next roll; and whether the mover must now
        # play legally (the play was flagged)
        self._unchecked: dict[str, Any] | None = None
        self._checked_turn = False

    # ------------------------------------------------------------------
    # Read-only state

    @property
    def rules(self) -> Rules:
        """The :class:`Rules` of this game."""
        return self._rules

    @property
    def match_length(self) -> int:
        """The match length, 0 for a money game."""
        return self._match_length

    @property
    def score(self) -> tuple[int, int]:
        """The match score of players 0 and 1 before this game."""
        return self._score

    @property
    def crawford(self) -> bool:
        """Whether this is the Crawford game (RULES 10.2)."""
        return self._crawford

    @property
    def phase(self) -> Phase:
        """The :class:`Phase`: which actions are allowed."""
        return self._phase

    @property
    def turn(self) -> int:
        """The player on roll, 0 or 1 (the winner once over)."""
        return self._turn

    @property
    def position(self) -> Position:
        """The position seen from the player on roll, before this turn's steps."""
        return self._position

    @property
    def dice(self) -> tuple[int, int] | None:
        """The dice to play, ``None`` until rolled."""
        return self._rolled

    @property
    def steps(self) -> tuple[Step, ...]:
        """The single steps made so far this turn (not yet committed)."""
        return self._steps

    @property
    def cube(self) -> int:
        """The cube value."""
        return self._cube

    @property
    def cube_owner(self) -> int | None:
        """Who owns the cube; ``None`` while it is in the middle."""
        return self._cube_owner

    @property
    def automatic_doubles_used(self) -> int:
        """How many opening ties doubled the cube (RULES 9.3)."""
        return self._automatic_doubles_used

    @property
    def resignation(self) -> tuple[int, str] | None:
        """``(resigner, kind)`` of the resignation on offer, else ``None``."""
        return self._resignation

    @property
    def result(self) -> GameResult | None:
        """How the game ended, ``None`` until it has."""
        return self._result

    @property
    def actions(self) -> tuple[Action, ...]:
        """Every action so far, in order (:meth:`replay` rebuilds the game from them)."""
        return self._actions

    @property
    def start(self) -> Mapping[str, Any] | None:
        """``None`` for a game from the opening; else the setup it started in (read-only)."""
        return None if self._start is None else MappingProxyType(self._start)

    @property
    def dice_source(self) -> DiceSource:
        """Where :meth:`roll` draws dice (shared by the games of a match or chouette)."""
        return self._dice

    @property
    def flaggable(self) -> bool:
        """Whether the last play was recorded unchecked and is illegal, so either player
        may still :meth:`flag` it (RULES 12.4, ``Rules(over_the_board=True)``)."""
        return self._unchecked is not None

    _SETTABLE = frozenset({"position", "turn", "rolled", "cube", "cube_owner",
                           "automatic_doubles_used", "resignation", "resume", "phase",
                           "start", "result"})

    def _set(self, **fields: Any) -> None:
        """Set up state directly (the ID readers in backgammon.formats only)."""
        for name, value in fields.items():
            if name not in self._SETTABLE:
                raise AttributeError(f"{name} is not settable")
            setattr(self, "_" + name, value)

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
        player = _integer(turn)  # numpy integers too; 1.0 is no player
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
            game._rolled = _dice(dice)
            game._phase = Phase.MOVE
        game._start = {"position_id": position.position_id(), "turn": turn,
                       "dice": game._rolled, "cube": cube, "cube_owner": cube_owner}
        return game

    def _check_cube(self, cube: Any, cube_owner: Any) -> tuple[int, int | None]:
        """``(cube, cube_owner)`` as ints, or refuse a cube this game cannot show (a game
        set up mid-way)."""
        if _integer(cube) is None or (cube_owner is not None and _integer(cube_owner) is None):
            raise TypeError(f"cube and cube_owner are integers, got {shown(cube)}, {shown(cube_owner)}")
        cube = _integer(cube)
        cube_owner = None if cube_owner is None else _integer(cube_owner)
        if cube not in (1, 2, 4, 8, 16, 32, 64) or (cube > 1 and not self.rules.cube):
            raise IllegalActionError(f"the cube shows a power of two up to 64 (RULES 8.4), got {shown(cube)}")
        if cube > self.rules.max_cube:
            raise IllegalActionError(f"the cube on {cube} is above max_cube {self.rules.max_cube}")
        if cube_owner not in (None, 0, 1):
            raise IllegalActionError(f"cube_owner is None (centred), 0 or 1, got {shown(cube_owner)}")
        if self.crawford and (cube_owner is not None or cube > 1):
            raise IllegalActionError("the Crawford game has no cube action (RULES 10.2)")
        if cube_owner is not None and cube == 1:
            raise IllegalActionError(
                "an owned cube shows at least 2: the owner took a double (RULES 8.2)")
        if cube_owner is None and cube > 1 and self.match_length:
            raise IllegalActionError(
                f"a centred cube on {cube} comes only from automatic doubles, which match "
                "play forbids (RULES 9.3, 9.4)")
        return cube, cube_owner

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
        if isinstance(player, bool) or player not in (0, 1):
            raise IllegalActionError(f"players are 0 and 1, got {shown(player)}"[:300])
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

    def cube_decision(self, ply: int = 0, evaluator: Any = None) -> CubeDecision:
        """Double, take or pass now, by the nets (see :func:`backgammon.cube_decision`).

        Asked before the roll, it is the decision of the player on roll; while
        a double waits for its answer, ``take`` is the doubled player's answer.
        """
        from backgammon.cube import cube_decision
        return cube_decision(self, ply, evaluator)

    def can_double(self, player: int | None = None) -> bool:
        """Whether ``player`` (default: the player on roll) may double now (RULES 8)."""
        who = self.turn if player is None else player
        if isinstance(who, bool) or who not in (0, 1):
            raise IllegalActionError(f"players are 0 and 1, got {shown(player)}"[:300])
        return (self.phase is Phase.ROLL and who == self.turn
                and self._double_refusal(who) is None)

    def may_double(self, player: int) -> bool:
        """Whether ``player`` may double at its turns as the game stands: the cube
        is in use, centred or ``player``'s own, this is not the Crawford game, and
        a double stays within ``max_cube`` (RULES 8, 10.2).  :meth:`can_double`
        asks in addition that ``player`` be on roll now, before the roll.

            >>> game = Game.from_position(Position.initial(), cube=2, cube_owner=1)
            >>> game.may_double(0), game.may_double(1), game.can_double(1)
            (False, True, False)
        """
        if isinstance(player, bool) or player not in (0, 1):
            raise IllegalActionError(f"players are 0 and 1, got {shown(player)}"[:300])
        return self._double_refusal(player) is None

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
        """The names of the actions allowed now, e.g. ``['double', 'roll', 'resign']``
        (and ``'flag'`` while an unchecked illegal play may be flagged, RULES 12.4)."""
        flag = ["flag"] if self._unchecked is not None else []
        phase = self.phase
        if phase is Phase.OPENING:
            return ["roll", "resign"]
        if phase is Phase.ROLL:
            return (["double"] if self.can_double() else []) + ["roll", "resign"] + flag
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
            beaver = ["beaver"] if self._beaver_refusal() is None else []
            return ["take", "drop"] + beaver + ["resign"] + flag
        if phase is Phase.RESIGNED:
            return ["accept", "reject"] + flag
        return []

    # ------------------------------------------------------------------
    # Checks shared by the actions

    def _need(self, phase: Phase, action: str, player: int | None) -> None:
        if self.phase is not phase:
            raise IllegalActionError(
                f"cannot {action}: the game is in phase {shown(self.phase.value)}, "
                f"{action} needs {shown(phase.value)}")
        self._check_player(action, player)

    def _check_player(self, action: str, player: int | None) -> None:
        if player is None:
            return
        if isinstance(player, bool) or player not in (0, 1):
            raise IllegalActionError(f"players are 0 and 1, got {shown(player)}"[:300])
        if player != self.player_to_act:
            raise IllegalActionError(
                f"player {player} cannot {action}: it is player {self.player_to_act}'s decision")

    def _record(self, player: int | None, kind: str, value: Any = None) -> None:
        self._actions = self.actions + (Action(player, kind, value),)

    def _roll_dice(self, dice: Any) -> tuple[int, int]:
        if dice is not None:
            return _dice(dice)
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
        src, dst = _point(src, step), _point(dst, step)
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
                steps = _notation_steps(play)  # RULES 12.4: as written, checked below
        elif isinstance(play, Play):
            if play.position != self.position:
                raise IllegalPlayActionError(f"{shown(play)} is a play of another position")
            steps = tuple(play.moves)
        else:
            steps = _steps(play)
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
        kind = _resign_kind(kind)
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
            self.play(_steps(value), player=player)
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

