"""A baseline cube policy for a computer opponent: offer and take by pip-count lead.

This is the simple rule of thumb a casual app uses, kept as a documented
baseline object (a better policy comes with rollouts).  The player on roll's
*lead* is ``(opponent pips - own pips) / own pips``.  The policy offers a first
double at a lead of at least 8 %, a redouble (owning the cube) at 9 %, and
takes while the doubler's lead is at most 12 %: the "8-9-12" race rule, here
applied to any position, contact or not.

    >>> from backgammon import Position
    >>> from backgammon.game import Game
    >>> policy = PipCountCubePolicy()
    >>> game = Game.from_position(Position.initial())
    >>> policy.lead(game.position), policy.should_double(game)
    (0.0, False)
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import numpy as np

from backgammon.errors import BackgammonError, GameOverError, IllegalActionError, InvalidSetupError
from backgammon.game import Game, Phase
from backgammon.position import Position
from backgammon._show import shown

if TYPE_CHECKING:
    from backgammon.nn.evaluator import Evaluator

__all__ = ["CubeDecision", "EvaluatorCubePolicy", "PipCountCubePolicy", "cube_decision"]


class _CubePolicy:
    """What every cube policy checks before it decides: ``wants_double`` and
    ``takes`` see only games where the question arises."""

    def should_double(self, game: Game) -> bool:
        """Whether the player on roll should double now (False when doubling is not allowed)."""
        if not isinstance(game, Game):
            raise TypeError(f"game must be a Game, got {shown(game)}"[:300])
        return game.can_double() and self.wants_double(game)

    def should_take(self, game: Game) -> bool:
        """Whether the doubled player should take (the game must be waiting for the answer)."""
        if not isinstance(game, Game):
            raise TypeError(f"game must be a Game, got {shown(game)}"[:300])
        if game.phase is not Phase.DOUBLED:
            raise IllegalActionError(
                f"no double to answer: the game is in phase {shown(game.phase.value)}")
        return self.takes(game)

    def wants_double(self, game: Game) -> bool:
        raise NotImplementedError

    def takes(self, game: Game) -> bool:
        raise NotImplementedError


@dataclass(frozen=True)
class PipCountCubePolicy(_CubePolicy):
    """Double, redouble and take thresholds on the relative pip-count lead."""

    double_lead: float = 0.08
    redouble_lead: float = 0.09
    take_lead: float = 0.12

    def __post_init__(self) -> None:
        for name in ("double_lead", "redouble_lead", "take_lead"):
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, (int, float)):
                raise TypeError(f"{name} is a number, got {shown(value)}")
            if not math.isfinite(value):
                raise InvalidSetupError(f"{name} is a finite lead, got {shown(value)}")

    @staticmethod
    def lead(position: Position) -> float:
        """The relative lead of the player on roll (negative when behind)."""
        own, opp = position.pip_counts()
        return (opp - own) / own if own else float("inf")

    def wants_double(self, game: Game) -> bool:
        need = self.redouble_lead if game.cube_owner == game.turn else self.double_lead
        return self.lead(game.position) >= need

    def takes(self, game: Game) -> bool:
        return self.lead(game.position) <= self.take_lead  # the doubler's lead


# ---------------------------------------------------------------- cube decisions

_TIE = 1e-9  # equities closer than this are equal


@dataclass(frozen=True)
class CubeDecision:
    """Double or not, take or pass: the equities of the three cube actions.

    Values are for the player on roll (the would-be doubler): in money play,
    cubeful equities per unit of the current stake; in match play, match
    winning chances.  ``no_double``, ``double_take`` and ``double_pass`` are
    the three outcomes (``double_take`` is what the taker's best answer gives
    when it is a beaver, see ``beaver``); ``action`` spells the proper action
    as analysts do; ``take`` says whether the opponent should take (a beaver
    is a take); ``errors`` is what each action costs against the best one, in
    the same units (0 for the right ones).  A decision by rollout
    (:func:`backgammon.rollout_cube`) has ``games`` (per branch) and ``stderr``:
    the standard errors of ``"no double"``, ``"double, take"`` and of their
    ``"difference"`` (double, take minus no double; from the paired games);
    ``x`` is then ``None`` and ``probabilities`` the no-double branch's cubeless ones.

        >>> d = CubeDecision.from_chances((0.5, 0.0, 0.0, 0.0, 0.0))
        >>> d.action, d.take
        ('No double, take', True)
        >>> CubeDecision.from_chances((1.0, 0.0, 0.0, 0.0, 0.0)).action
        'Double, pass'
    """

    no_double: float
    double_take: float
    double_pass: float
    action: str
    take: bool
    beaver: bool
    probabilities: tuple[float, float, float, float, float]
    errors: dict[str, float] = field(compare=False)
    cube: int = 1
    owner: str = "centred"
    score: tuple[int, int] | None = None
    post_crawford: bool = False
    x: float | None = 0.68
    available: bool = True
    stderr: dict[str, float] | None = field(default=None, compare=False)
    games: int = 0

    @classmethod
    def from_chances(cls, chances: Any, *, cube: int = 1, owner: str = "centred",
                     score: tuple[int, int] | None = None, post_crawford: bool = False,
                     rules: Any = None, x: float = 0.68) -> CubeDecision:
        """The decision for given cubeless chances of the player on roll.

        ``score``: ``(away, opponent_away)`` for match play, ``None`` for money.
        ``rules``: a :class:`~backgammon.Rules` (cube limit; Jacoby and beavers
        in money play).  ``x``: the cube efficiency
        (:func:`backgammon.cube.cubeful.cube_efficiency` gives gnubg's for a position).
        """
        from backgammon import _bgcore
        from backgammon.cube import met
        from backgammon.cube import cubeful as cf
        from backgammon.rules import Rules

        rules = rules or Rules()
        chances = cf.chances_tuple(chances)
        cube = cf.check_cube(cube)
        if score is not None:
            score = met.check_score(score)  # numpy integers too; "ab" or 2**40 named
        if owner not in (cf.CENTRED, cf.OWN, cf.OPPONENT):
            raise BackgammonError(f"owner is 'centred', 'own' or 'opponent', got {shown(owner)}")
        available, why = cls._availability(cube, owner, score, post_crawford, rules)
        # The numbers come from the core (cube.h), the same model as
        # backgammon.cube.cubeful, which stays the reference (tests/test_cube_core.py).
        table = None if score is None else _bgcore.cube_table(met.default_table())
        # A cube that can no longer move (no cube, or at its limit) is dead for
        # both sides: Janowski's money model has no limit of its own.
        live_x = x if rules.can_double_to(2 * cube) else 0.0
        nd, dt, dp, _, beaver, _, _ = _bgcore.cube_decide(
            chances, cube=cube, owner=owner, x=live_x, max_cube=rules.max_cube,
            cube_disabled=not rules.cube, jacoby=rules.jacoby, beaver=rules.beaver,
            score=score, post_crawford=post_crawford, table=table)
        return cls._from_values(nd, dt, dp, beaver=bool(beaver), probabilities=chances,
                                cube=cube, owner=owner, score=score,
                                post_crawford=post_crawford, x=x, available=available, why=why)

    @classmethod
    def from_values(cls, values: Any, *, cube: int = 1, owner: str = "centred",
                    score: tuple[int, int] | None = None, post_crawford: bool = False,
                    rules: Any = None, x: float | None = None) -> CubeDecision:
        """The decision from a search's values (:func:`backgammon.cube.search.decision_values`:
        no double, double, take, double, pass, beaver and chances), with the cube and
        score they were searched at; ``x`` the root's cube efficiency, for the record."""
        from backgammon.cube import cubeful as cf
        from backgammon.rules import Rules

        rules = rules or Rules()
        available, why = cls._availability(cube, owner, score, post_crawford, rules)
        return cls._from_values(float(values.no_double), float(values.double_take),
                                float(values.double_pass), beaver=bool(values.beaver),
                                probabilities=cf.chances_tuple(values.chances), cube=cube,
                                owner=owner, score=score, post_crawford=post_crawford, x=x,
                                available=available, why=why)

    @staticmethod
    def _availability(cube: int, owner: str, score: tuple[int, int] | None,
                      post_crawford: bool, rules: Any) -> tuple[bool, str]:
        """Whether the player on roll may double, and why not."""
        from backgammon.cube import cubeful as cf

        if owner == cf.OPPONENT:
            return False, "the opponent owns the cube"
        if not rules.cube:
            return False, "these rules play without the cube"
        if not rules.can_double_to(2 * cube):
            return False, "the cube is at its limit"
        if score is not None and 1 in score and not post_crawford and score != (1, 1):
            return False, "the Crawford game"
        return True, ""

    @classmethod
    def _from_values(cls, nd: float, dt: float, dp: float, *, beaver: bool,
                     probabilities: tuple[float, float, float, float, float], cube: int,
                     owner: str, score: tuple[int, int] | None, post_crawford: bool,
                     x: float | None,
                     available: bool, why: str, stderr: dict[str, float] | None = None,
                     games: int = 0) -> CubeDecision:
        """The decision from the three equities (by Janowski's model or by rollout)."""
        from backgammon.cube import cubeful as cf

        chances = probabilities
        take = dt <= dp
        answer = "beaver" if beaver else ("take" if take else "pass")
        doubled = min(dt, dp)
        verb = "redouble" if owner == cf.OWN else "double"
        if not available:
            action = f"No {verb} ({why})"
        elif doubled > nd + _TIE or (not take and doubled >= nd - _TIE):  # cash on a tie
            action = f"{verb.capitalize()}, {answer}"
        elif not take:
            action = f"Too good to {verb}, pass"
        elif nd > dp:
            action = f"Too good to {verb}, {answer}"
        else:
            action = f"No {verb}, {answer}"
        best = max(nd, doubled) if available else nd
        errors = {"no double": best - nd}
        if available:
            # The taker's cost of each answer: taking gives the doubler dt, passing dp.
            errors.update({"double": best - doubled,
                           "take": max(0.0, dt - dp), "pass": max(0.0, dp - dt)})
        return cls(no_double=nd, double_take=dt, double_pass=dp, action=action, take=take,
                   beaver=beaver, probabilities=chances, errors=errors, cube=cube,
                   owner=owner, score=score, post_crawford=post_crawford, x=x,
                   available=available, stderr=stderr, games=games)

    @property
    def match_play(self) -> bool:
        return self.score is not None

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready data: every field (``score`` is ``[away, opponent_away]`` or null).

            >>> d = CubeDecision.from_chances((0.5, 0.0, 0.0, 0.0, 0.0))
            >>> CubeDecision.from_dict(d.to_dict()) == d, d.to_dict()["action"]
            (True, 'No double, take')
        """
        return {"no_double": self.no_double, "double_take": self.double_take,
                "double_pass": self.double_pass, "action": self.action, "take": self.take,
                "beaver": self.beaver, "probabilities": list(self.probabilities),
                "errors": dict(self.errors), "cube": self.cube, "owner": self.owner,
                "score": None if self.score is None else list(self.score),
                "post_crawford": self.post_crawford, "x": self.x, "available": self.available}

    @classmethod
    def from_dict(cls, data: Any) -> CubeDecision:
        """The decision :meth:`to_dict` wrote (:class:`~backgammon.InvalidRecordError` if not)."""
        from backgammon._dicts import Reader
        r = Reader(data, "a cube decision")
        errors = Reader(r.get("errors"), "a cube decision's errors")
        names = ("no double", "double", "take", "pass")
        if set(errors.data) - set(names):
            raise r.fail("errors", f"has the keys {', '.join(names)}, got {sorted(errors.data)}")
        cube = r.int("cube", 1)
        if cube & (cube - 1):
            raise r.fail("cube", f"is a power of 2, got {cube}")
        return cls(no_double=r.float("no_double"), double_take=r.float("double_take"),
                   double_pass=r.float("double_pass"), action=r.str("action"),
                   take=r.bool("take"), beaver=r.bool("beaver"),
                   probabilities=r.floats("probabilities", 5, 0.0, 1.0),  # type: ignore[arg-type]
                   errors={k: errors.float(k, 0.0) for k in errors.data}, cube=cube,
                   owner=r.str("owner", ("centred", "own", "opponent")),
                   score=r.optional("score", r.ints, 2, 1),
                   post_crawford=r.bool("post_crawford"), x=r.float("x", 0.0, 1.0),
                   available=r.bool("available"))

    def to_json(self) -> str:
        from backgammon._dicts import dumps
        return dumps(self.to_dict())

    @classmethod
    def from_json(cls, text: str | bytes) -> CubeDecision:
        from backgammon._dicts import loads
        return cls.from_dict(loads(text, "a cube decision"))

    def _rows(self) -> list[tuple[str, float, float]]:
        best = max(self.no_double, min(self.double_take, self.double_pass)) \
            if self.available else self.no_double
        take = "beaver" if self.beaver else "take"
        return [(name, v, v - best) for name, v in (
            ("No double", self.no_double), (f"Double, {take}", self.double_take),
            ("Double, pass", self.double_pass))]

    def _heading(self) -> str:
        cube = f"cube {self.cube} " + {"centred": "centred", "own": "owned by the player on roll",
                                        "opponent": "owned by the opponent"}.get(self.owner, self.owner)
        how = f"x = {self.x:.2f}" if self.x is not None else f"rollout of {self.games:,} games"
        if self.score is not None:
            away, opp = self.score
            crawford = ", post-Crawford" if self.post_crawford else ""
            return f"Cube decision, match: {away}-away vs {opp}-away{crawford}, {cube}, {how}"
        return f"Cube decision, money: {cube}, {how}"

    def _error_text(self, row: int) -> str:
        """`` ± e`` of a rolled-out row (0 no double, 1 double, take), else ''."""
        if not self.stderr or row > 1:
            return ""
        e = self.stderr["no double" if row == 0 else "double, take"]
        return f" \u00b1 {e:.2%}" if self.match_play else f" \u00b1 {e:.4f}"

    def __str__(self) -> str:
        w, wg, wb, lg, lb = self.probabilities
        fmt = "{:7.2%}" if self.match_play else "{:+.4f}"
        lines = [self._heading(),
                 f"  Chances: win {w:.1%} (gammon {wg:.1%}, backgammon {wb:.1%}), "
                 f"lose {1 - w:.1%} (gammon {lg:.1%}, backgammon {lb:.1%})"]
        rows = self._rows() if self.available else self._rows()[:1]
        for i, (name, v, diff) in enumerate(rows, 1):
            delta = "" if abs(diff) < 5e-10 else f"  ({diff:+.4f})"
            lines.append(f"  {i}. {name:<16} {fmt.format(v)}{self._error_text(i - 1)}{delta}")
        if self.stderr:
            lines.append(f"  Double, take minus no double: error {self.stderr['difference']:.4f} "
                         "(paired games)")
        lines.append(f"  Proper cube action: {self.action}")
        return "\n".join(lines)

    def _repr_html_(self) -> str:  # Jupyter: backgammon.display.cube_html
        from backgammon.display import cube_html
        return cube_html(self)



def cube_decision(game_or_position: Game | Position, ply: int = 0,
                  evaluator: Evaluator | None = None, *,
                  cube: int = 1, owner: str = "centred", score: tuple[int, int] | None = None,
                  post_crawford: bool = False, rules: Any = None,
                  x: float | None = None) -> CubeDecision:
    """Double, take or pass for the player on roll, by the nets at ``ply``.

    At ply 0 the nets' chances give the three values by Janowski's model
    (:mod:`backgammon.cube.cubeful`); at ply 1 and 2 the position is searched with
    the cube at every node below the top, each side doubling, taking and
    passing where it pays, as gnubg's cubeful evaluations do
    (:mod:`backgammon.cube.search`; the plays inside at 0 ply).
    A :class:`~backgammon.Game` supplies its cube, owner, score and rules (it
    must be waiting for a roll, or for the answer to a double: then the
    decision is the doubler's, and ``take`` answers for the doubled player).
    A :class:`~backgammon.Position` takes them as arguments: ``score`` is
    ``(away, opponent_away)`` in match play, ``None`` for money.  ``x``
    defaults to gnubg's cube efficiency for the position.

        >>> import backgammon as bg
        >>> bg.cube_decision(bg.Position.initial()).action
        'No double, take'
    """
    from backgammon.cube import cubeful
    from backgammon.nn import evaluate

    if isinstance(game_or_position, Game):
        game = game_or_position
        if game.phase not in (Phase.ROLL, Phase.DOUBLED):
            raise IllegalActionError(
                "a cube decision comes before the roll or while a double is pending; the game "
                f"is in phase {shown(game.phase.value)}")
        position, rules = game.position, game.rules
        cube = game.cube
        owner = ("centred" if game.cube_owner is None
                 else "own" if game.cube_owner == game.turn else "opponent")
        score, post_crawford = game_score(game)
    elif isinstance(game_or_position, Position):
        position = game_or_position
        if position.outcome() is not None:
            raise GameOverError(f"no cube decision in a finished position: {position.outcome()}")
    else:
        raise TypeError(f"cube_decision takes a Game or a Position, got {shown(game_or_position)}"[:300])
    if ply:   # searched with the cube at every node below the top, as gnubg does
        from backgammon.cube import met
        from backgammon.cube.search import CubeState, decision_values
        from backgammon.nn import Evaluator, checked_ply
        from backgammon.rules import Rules

        if score is not None:
            score = met.check_score(score)
        ev = evaluator if evaluator is not None else Evaluator.default()
        if not isinstance(ev, Evaluator):
            raise BackgammonError(f"ply {ply} needs nets (a backgammon.Evaluator), "
                                  f"got {shown(ev)}"[:300])
        state = CubeState(cubeful.check_cube(cube), owner, score, post_crawford,
                          rules or Rules())
        board = np.frombuffer(position._b, np.int8).reshape(1, 26)
        values = decision_values(ev, board, state, checked_ply(ply), x=x)
        return CubeDecision.from_values(
            values, cube=state.cube, owner=owner, score=score, post_crawford=post_crawford,
            rules=state.rules, x=cubeful.cube_efficiency(position) if x is None else x)
    chances = evaluate(position, ply=ply, evaluator=evaluator)
    if x is None:
        x = cubeful.cube_efficiency(position)
    return CubeDecision.from_chances(chances, cube=cube, owner=owner, score=score,
                                     post_crawford=post_crawford, rules=rules, x=x)


def game_score(game: Game) -> tuple[tuple[int, int] | None, bool]:
    """``(away, opponent_away)`` of the player on roll and the post-Crawford flag."""
    if not game.match_length:
        return None, False
    own, opp = game.score[game.turn], game.score[1 - game.turn]
    away = (game.match_length - own, game.match_length - opp)
    return away, 1 in away and not game.crawford


@dataclass(frozen=True)
class EvaluatorCubePolicy(_CubePolicy):
    """Double, redouble and take as the nets' cube decisions say (see :func:`cube_decision`).

    ``ply``: the evaluation depth; ``evaluator``: ``None`` for the bundled nets.
    The same interface as :class:`PipCountCubePolicy`, so a game loop can use either.

        >>> from backgammon.game import Game
        >>> game = Game.from_position(Position.initial())
        >>> EvaluatorCubePolicy().should_double(game)
        False
    """

    ply: int = 0
    evaluator: Evaluator | None = None

    def decision(self, game: Game) -> CubeDecision:
        return cube_decision(game, self.ply, self.evaluator)

    def wants_double(self, game: Game) -> bool:
        return self.decision(game).action.startswith(("Double", "Redouble"))

    def takes(self, game: Game) -> bool:
        return self.decision(game).take  # a beaver counts as a take
