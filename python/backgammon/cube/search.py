"""Cubeful values one and two plies deep, the cube played at every node, as gnubg does.

At 0 ply a position's cubeful value comes from its cubeless chances by
Janowski's model (:mod:`backgammon.cube.cubeful`).  Deeper, averaging the chances
first and applying the model once at the root misses what the cube does
along the way: a position that becomes a pass after some rolls (a *market
loser*) is worth the pass, not the model's interpolation.  So, as gnubg's
cubeful evaluation does, the search values each leaf by the model in every
cube state the tree reaches, and at every node the player on roll doubles
where doubling is worth more (the opponent then takes or passes, whichever
is better for them)::

    value(node, state) = no_double                 if the roller may not double
                       = min(double_take, double_pass) if both are >= no_double
                       = no_double                 otherwise
    no_double          = mean over the 21 rolls of -value(reply, state seen by the opponent)
    double_take        = the same with the cube doubled and owned by the opponent

The plays inside the search are each roll's best at 0 ply, cubeless (the
screen of :meth:`~backgammon.Evaluator.with_pruning` applies), as in
:func:`backgammon.nn.eval_ply` with ``filtered=True``.  The top of a cube
decision does not decide: :func:`decision_values` returns its no double and
double, take values so that the question can be asked.

Values are in native units: cubeful equity per unit of the state's cube in
money play, match winning chances in match play.

    >>> import numpy as np
    >>> import backgammon as bg
    >>> from backgammon.cube.search import CubeState, decision_values
    >>> state = CubeState.money()                       # centred cube, money
    >>> board = np.frombuffer(bg.Position.initial()._b, np.int8).reshape(1, 26)
    >>> d = decision_values(bg.Evaluator.default(), board, state, 1)
    >>> bool(d.no_double > d.double_take), d.double_pass   # no double at the start
    (True, 1.0)
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Callable, NamedTuple

import numpy as np

from backgammon import _bgcore
from backgammon.cube import met
from backgammon.errors import BackgammonError
from backgammon.nn import search_screen
from backgammon.rules import Rules

if TYPE_CHECKING:
    from backgammon.nn.evaluator import Evaluator

__all__ = ["CubeState", "CubeValues", "decision_values", "efficiencies", "leaf_values",
           "position_values"]

Chances = Callable[[np.ndarray], np.ndarray]
"""(m, 26) boards -> (m, 5) cubeless chances for their player on roll."""

_ROLLS = np.array([(a, b) for a in range(1, 7) for b in range(a, 7)], np.uint8)
_WEIGHTS = np.array([1.0 if a == b else 2.0 for a, b in _ROLLS], np.float64) / 36.0
_OWNERS = ("centred", "own", "opponent")


@dataclass(frozen=True)
class CubeState:
    """The cube and the score as the player on roll sees them.

    ``owner`` is ``"centred"``, ``"own"`` or ``"opponent"``; ``score`` is
    ``(away, opponent_away)`` in match play, ``None`` for money;
    ``post_crawford`` marks the games after the Crawford game.

        >>> s = CubeState.money()
        >>> s.can_double, s.doubled().owner, s.doubled().flipped().owner
        (True, 'opponent', 'own')
    """

    cube: int
    owner: str
    score: tuple[int, int] | None
    post_crawford: bool
    rules: Any

    def __post_init__(self) -> None:
        if self.owner not in _OWNERS:
            raise BackgammonError(f"owner is 'centred', 'own' or 'opponent', got {self.owner!r}")

    @classmethod
    def money(cls, cube: int = 1, owner: str = "centred", rules: Any = None) -> CubeState:
        """A money game's cube (``rules``: a :class:`~backgammon.Rules`, default ones if None)."""
        return cls(cube, owner, None, False, rules or Rules())

    def flipped(self) -> CubeState:
        """The same cube and score seen by the opponent."""
        owner = {"centred": "centred", "own": "opponent", "opponent": "own"}[self.owner]
        score = None if self.score is None else (self.score[1], self.score[0])
        return CubeState(self.cube, owner, score, self.post_crawford, self.rules)

    def doubled(self) -> CubeState:
        """The state after the player on roll doubles and the opponent takes."""
        return CubeState(2 * self.cube, "opponent", self.score, self.post_crawford, self.rules)

    @property
    def can_double(self) -> bool:
        """Whether the player on roll may double with a live cube: the rules play
        with the cube and allow twice it, the opponent does not own it, and in
        a match it is not the Crawford game and winning the game at this cube
        does not already win the match (a dead cube, gnubg's rule)."""
        r = self.rules
        if not r.cube or self.owner == "opponent" or not r.can_double_to(2 * self.cube):
            return False
        if self.score is None:
            return True
        away, opponent_away = self.score
        if 1 in self.score and not self.post_crawford and self.score != (1, 1):
            return False
        return away > self.cube

    def core_kwargs(self) -> dict[str, Any]:
        """The cube and score as :func:`backgammon._bgcore.cube_decide_batch` takes them."""
        r = self.rules
        table = None if self.score is None else _bgcore.cube_table(met.default_table())  # cached
        return dict(cube=self.cube, owner=self.owner, max_cube=r.max_cube,
                    cube_disabled=not r.cube, jacoby=r.jacoby, beaver=r.beaver,
                    score=self.score, post_crawford=self.post_crawford, table=table)

    def double_pass(self) -> float:
        """The native value of a pass of this state's double for the player on roll."""
        values = _bgcore.cube_decide_batch(np.array([[0.5, 0, 0, 0, 0]], np.float32),
                                           **self.core_kwargs())[0]
        return float(values[0, 2])


def efficiencies(boards: np.ndarray) -> np.ndarray:
    """gnubg's cube efficiency of each (m, 26) board, vectorised
    (:func:`backgammon.cube.cubeful.cube_efficiency` one at a time)."""
    b = boards.astype(np.int16)
    n = len(b)
    idx = np.arange(26)
    own = b[:, 1:26] > 0
    opp = b[:, 0:25] < 0
    has_own, has_opp = own.any(axis=1), opp.any(axis=1)
    own_max = np.where(own, idx[1:26], 0).max(axis=1)
    opp_min = np.where(opp, idx[0:25], 99).min(axis=1)
    own_pips = (np.where(b[:, 1:26] > 0, b[:, 1:26], 0) * idx[1:26]).sum(axis=1)
    race = np.clip(0.55 + 0.00125 * own_pips, 0.6, 0.7)   # the pips of the player on roll
    x = np.where(own_max > opp_min, 0.68,
                 np.where((own_max <= 6) & (opp_min >= 19), 0.6, race))
    x = np.where(has_own & has_opp, x, 0.6)
    return x.reshape(n)


def leaf_values(chances: np.ndarray, boards: np.ndarray, state: CubeState,
                x: float | None = None) -> np.ndarray:
    """Native no-double values of boards for their player on roll by Janowski's
    model (each board's own cube efficiency, or ``x`` for all; a cube that
    can no longer be doubled in money play is dead)."""
    r = state.rules
    xs = efficiencies(boards) if x is None else np.full(len(boards), float(x))
    if state.score is None and (not r.cube or not r.can_double_to(2 * state.cube)):
        xs = np.zeros(len(boards))   # the core's money model assumes a live cube
    if not len(boards):
        return np.empty(0)
    return _bgcore.cube_decide_batch(chances, x=xs, **state.core_kwargs())[0][:, 0]


def _points(value: np.ndarray, state: CubeState) -> np.ndarray:
    """Native -> comparable across cube values: points in money play, MWC in a match."""
    return value * state.cube if state.score is None else value


def _opponents(value: np.ndarray, state: CubeState) -> np.ndarray:
    """The opponent's value (points or MWC) -> the player's."""
    return -value if state.score is None else 1.0 - value


def _flip(p: np.ndarray) -> np.ndarray:
    return np.stack([1.0 - p[:, 0], p[:, 3], p[:, 4], p[:, 1], p[:, 2]], axis=1)


def _search(evaluator: Evaluator, boards: np.ndarray, states: list[CubeState], ply: int, top: bool,
            chances: np.ndarray | None, x: float | None,
            static: Chances) -> tuple[np.ndarray, np.ndarray]:
    """((m, len(states)) values in points or MWC, (m, 5) cubeless chances) of
    boards for their player on roll, who decides the cube unless ``top``;
    ``chances`` are the boards' own when known (else ``static`` gives them)."""
    m = len(boards)
    expanded: list[CubeState] = []
    pairs: list[tuple[int, int | None]] = []
    for s in states:
        expanded.append(s)
        if not top and s.can_double:
            expanded.append(s.doubled())
            pairs.append((len(expanded) - 2, len(expanded) - 1))
        else:
            pairs.append((len(expanded) - 1, None))
    values = np.empty((m, len(expanded)))
    out_chances = np.empty((m, 5))
    playing = (boards > 0).any(axis=1) & (boards < 0).any(axis=1)
    leaf = np.ones(m, bool) if ply == 0 else ~playing
    if leaf.any():
        rows = np.flatnonzero(leaf)
        b = np.ascontiguousarray(boards[rows])
        c = chances[rows] if chances is not None else static(b)
        out_chances[rows] = c
        for k, s in enumerate(expanded):
            values[rows, k] = _points(leaf_values(c, b, s, x), s)
    if not leaf.all():
        rows = np.flatnonzero(~leaf)
        b = np.ascontiguousarray(boards[rows])
        befores = np.repeat(b, len(_ROLLS), axis=0)
        results, offsets = _bgcore.batch_successors(befores, np.tile(_ROLLS, (len(rows), 1)))
        picks, probs = search_screen(evaluator)._nets.choose_groups(befores, results, offsets,
                                                                     best_only=True)
        replies = np.ascontiguousarray(-results[picks][:, ::-1])   # seen by the opponent
        theirs, their_chances = _search(evaluator, replies, [s.flipped() for s in expanded],
                                        ply - 1, False, probs if ply == 1 else None, x,
                                        static)
        theirs = theirs.reshape(len(rows), len(_ROLLS), len(expanded))
        mine = np.stack([_opponents(theirs[:, :, k], s) for k, s in enumerate(expanded)], axis=2)
        values[rows] = np.einsum("mrk,r->mk", mine, _WEIGHTS)
        out_chances[rows] = np.einsum(
            "mrk,r->mk", _flip(their_chances).reshape(len(rows), len(_ROLLS), 5), _WEIGHTS)
    decided = np.empty((m, len(states)))
    for k, (nd_at, dt_at) in enumerate(pairs):
        nd = values[:, nd_at]
        if dt_at is None:
            decided[:, k] = nd
            continue
        s = states[k]
        dt, dp = values[:, dt_at], s.double_pass() * (s.cube if s.score is None else 1)
        doubles = (dt >= nd) & (dp >= nd)
        decided[:, k] = np.where(doubles, np.minimum(dt, dp), nd)
    return decided, out_chances


def _checked(evaluator: Evaluator, boards: Any, ply: int) -> np.ndarray:
    if isinstance(ply, bool) or not isinstance(ply, (int, np.integer)) or not 0 <= ply <= 2:
        raise BackgammonError(f"ply is 0, 1 or 2, got {ply!r}")
    if ply and not hasattr(evaluator, "_nets"):
        raise BackgammonError("ply 1 and 2 need a backgammon.nn.Evaluator")
    arr = np.ascontiguousarray(boards, dtype=np.int8)
    if arr.ndim != 2 or arr.shape[1] != 26:
        raise BackgammonError(f"boards are an (m, 26) array, got shape {arr.shape}")
    return arr


def _static(evaluator: Evaluator) -> Chances:
    """``evaluator.evaluate_batch`` with its answer checked."""
    def chances(boards: np.ndarray) -> np.ndarray:
        out = np.asarray(evaluator.evaluate_batch(boards), np.float32)
        if out.shape != (len(boards), 5) or not np.isfinite(out).all():
            raise BackgammonError(f"the evaluator gave {out.shape} chances for "
                                  f"{len(boards)} boards, or values that are not finite")
        return np.clip(out, 0.0, 1.0)
    return chances


class CubeValues(NamedTuple):
    """A cube decision's three values (native units) and the search's chances."""

    no_double: float
    double_take: float
    double_pass: float
    beaver: bool
    chances: tuple[float, float, float, float, float]


def position_values(evaluator: Evaluator, boards: Any, state: CubeState, ply: int, *,
                    x: float | None = None, static: Chances | None = None) -> np.ndarray:
    """The native cubeful value of each board for its player on roll, whose
    cube action at the board counts (gnubg's value of a position after a
    play, seen by the opponent, who is on roll), searched ``ply`` deep.
    ``evaluator`` answers ``evaluate_batch``; deeper than 0 it must be a
    :class:`~backgammon.Evaluator`.  ``x`` fixes the cube efficiency of
    every leaf (default: gnubg's, leaf by leaf); ``static`` replaces the
    evaluator's chances of the leaves that are not searched boards' replies."""
    arr = _checked(evaluator, boards, ply)
    if not len(arr):
        return np.empty(0)
    points = _search(evaluator, arr, [state], ply, False, None, x,
                     static or _static(evaluator))[0][:, 0]
    return points / state.cube if state.score is None else points


def decision_values(evaluator: Evaluator, board: Any, state: CubeState, ply: int, *,
                    x: float | None = None, static: Chances | None = None) -> CubeValues:
    """The cube decision of one board's player on roll, searched ``ply`` deep
    with the cube at every node below the top: no double, double, take and
    double, pass in native units (money: per unit of ``state.cube``), and the
    same search's cubeless chances.  A beaver, where the rules allow one and
    the taker gains by it, doubles the double, take value, as
    :class:`~backgammon.CubeDecision` counts it."""
    arr = _checked(evaluator, np.asarray(board).reshape(1, 26), ply)
    values, chances = _search(evaluator, arr, [state, state.doubled()], ply, True, None, x,
                              static or _static(evaluator))
    nd, dt = (float(v) for v in values[0])
    beaver = False
    if state.score is None:
        nd, dt = nd / state.cube, dt / state.cube
        r = state.rules
        if r.beaver and dt < 0 and r.cube and r.can_double_to(4 * state.cube):
            dt, beaver = 2 * dt, True   # the taker redoubles at once, as the core counts it
    c = tuple(float(v) for v in chances[0])
    return CubeValues(nd, dt, state.double_pass(), beaver, c)  # type: ignore[arg-type]
