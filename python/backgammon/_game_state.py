"""What a game is at any moment: :class:`GameState`, the base of
:class:`~backgammon.game.Game` that holds the setup, the read-only state and the
questions asked of it (who acts, what is legal); ``Game`` adds the actions.  And
the arguments of those actions, checked (``checked_*``): dice, points and steps,
plays written out, resignation kinds, each refusal the precise
:class:`~backgammon.errors.IllegalActionError` of what is wrong."""

from __future__ import annotations

import itertools
import operator
from types import MappingProxyType
from typing import Any, Mapping

from backgammon.dice import DiceSource
from backgammon.errors import (
    BackgammonError,
    IllegalActionError,
    IllegalDiceActionError,
    IllegalPlayActionError,
    InvalidSetupError,
)
from backgammon.game_types import MAX_MATCH_LENGTH, RESIGN_KINDS, Action, GameResult, Phase
from backgammon.position import Position, Step
from backgammon.rules import Rules
from backgammon._show import shown
from backgammon._numbers import integer

__all__ = ["GameState", "MAX_STEPS", "checked_dice", "checked_point", "checked_resign_kind",
           "checked_steps", "notation_steps"]

MAX_STEPS = 8
"""The most steps a play may list (four dice; an unchecked play, RULES 12.4, up to eight)."""


def checked_dice(dice: Any) -> tuple[int, int]:
    """Two dice: two integers from 1 to 6, or text such as ``"31"`` or ``"3-1"``."""
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
    a, b = integer(d1), integer(d2)
    if a is None or b is None or not (1 <= a <= 6 and 1 <= b <= 6):
        raise IllegalDiceActionError(f"dice are two integers from 1 to 6, got {shown(dice)}"[:300])
    return a, b


def checked_point(value: Any, step: Any) -> int:
    """One end of ``step``: a point from 0 to 25."""
    point = integer(value)
    if point is None or not 0 <= point <= 25:
        raise IllegalPlayActionError(
            f"a step is two points from 0 to 25 (from, to), got {shown(step)}"[:300])
    return point


def checked_steps(play: Any) -> tuple[Step, ...]:
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
        out.append((checked_point(src, step), checked_point(dst, step)))
    return tuple(out)


def notation_steps(text: str) -> tuple[Step, ...]:
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


def checked_resign_kind(kind: Any) -> str:
    """``"single"``, ``"gammon"`` or ``"backgammon"``, from the name or 1, 2, 3."""
    number = integer(kind)
    if number is not None and 1 <= number <= 3:
        return RESIGN_KINDS[number - 1]
    if isinstance(kind, str) and kind in RESIGN_KINDS:
        return str(kind)
    raise IllegalActionError(
        f"a resignation is 'single', 'gammon' or 'backgammon' (or 1, 2, 3), got {shown(kind)}"[:300])


class GameState:
    """A game's setup and state, read-only, and what may be done in it; the
    actions are :class:`~backgammon.game.Game`'s (see there for the arguments)."""

    def __init__(self, rules: Rules | None = None, *, rng: Any = None,
                 match_length: int = 0, score: tuple[int, int] = (0, 0),
                 crawford: bool = False) -> None:
        rules = Rules() if rules is None else rules
        if not isinstance(rules, Rules):
            raise TypeError(f"rules must be a Rules, got {shown(rules)}")
        if integer(match_length) is None:
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
        s0, s1 = integer(s0), integer(s1)  # type: ignore[assignment]
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

    def _check_cube(self, cube: Any, cube_owner: Any) -> tuple[int, int | None]:
        """``(cube, cube_owner)`` as ints, or refuse a cube this game cannot show (a game
        set up mid-way)."""
        if integer(cube) is None or (cube_owner is not None and integer(cube_owner) is None):
            raise TypeError(f"cube and cube_owner are integers, got {shown(cube)}, {shown(cube_owner)}")
        cube = integer(cube)
        cube_owner = None if cube_owner is None else integer(cube_owner)
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
        return self.position.after_steps(self.steps) if self.steps else self.position

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

            >>> from backgammon.game import Game
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

    def _beaver_refusal(self) -> str | None:
        if not self.rules.beaver:
            return "beavers are not allowed in this game (RULES 9.2)"
        if self.cube * 4 > self.rules.max_cube:
            return (f"a beaver would put the cube on {self.cube * 4}, above "
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
