"""Analyse a whole match: every checker play and cube decision, errors, rates and luck.

This module values the decisions (:class:`Valuer`) and walks the games
(:func:`analyse`); what it finds is in :mod:`.decisions`, the report in :mod:`.report`.

:func:`analyse` replays each game of a :class:`~backgammon.Match` (or a list
of games) and values, with the neural evaluator, every decision a player
made:

- each **checker play** with more than one legal play (forced plays are no
  decision): the equity of the play made, of the best play, and the loss;
- each **cube decision**: a player on roll who could double (doubled or
  rolled), and the answer to every double (take, pass or beaver).

Equities are cubeful, from the decider's side, in gnubg's *normalised* units
(EMG, "equivalent to money game"): in money play points per unit of the cube;
in match play the match winning chance (MWC) rescaled so that winning the
cube's points is +1 and losing them -1.  ``Decision.loss`` is in these units
(so the thresholds below apply to money and match alike); in match play
``Decision.loss_mwc`` is the same loss in match winning chances, which is
what the report shows beside it.

Flags use gnubg 1.1.0a16's default thresholds (its ``show analysis``: a loss
above 0.03 is *doubtful*, above 0.06 *bad*, above 0.12 *very bad*; settable
with ``analyse(..., thresholds=...)``) and XG's
(0.020 an *error*, 0.080 a *blunder*, in ``Decision.xg``).  A cube error is
flagged with its kind (``"missed double"``, ``"wrong double"``, ``"wrong
take"``, ``"wrong pass"``) once its loss passes gnubg's doubtful threshold;
``Decision.skill`` holds the severity for every kind.

Rates, per player:

- :meth:`Analysis.error_rate`: gnubg's "error rate per decision": the total
  loss divided by the counted decisions, times 1000 (mEMG).  Counted: the
  unforced checker plays, every double and answer, and the no-doubles that
  were close (gnubg's ``isCloseCubedecision``: the best cube action minus
  double-take-or-pass, whichever the taker picks, is under 0.16).
- :meth:`Analysis.pr`: a PR-like figure, XG's convention: 500 times the
  average loss per counted decision, where a no-double counts when its
  no-double equity is positive and within 0.2 of doubling (XG's rule for
  "close" cube decisions) and a checker play only when its plays differ by
  0.001 or more.  With the same evaluator it reads like XG's PR;
  the evaluator differs, so the figures do not match XG's.

Luck (gnubg's ``LuckNormal`` / ``LuckFirst``): the value after the best play
of the roll rolled minus the average, over the 36 rolls (30 non-doubles for
the opening roll), of the value after each roll's best play, evaluated at
0-ply whatever ``ply`` the decisions use (gnubg's default).  Rolls with luck
above 0.3 are *lucky*, above 0.6 *very lucky* (gnubg.c ``arLuckLevel``),
and likewise unlucky.

    >>> import backgammon as bg
    >>> from backgammon.analysis import analyse
    >>> m = bg.Match(1, rng=3)
    >>> m.game.roll((3, 1)); m.game.play("8/5 6/5")
    >>> a = analyse(m)
    >>> [(d.player, d.kind, d.made, d.best, d.flag) for d in a.decisions]
    [(0, 'play', '8/5 6/5', '8/5 6/5', None)]
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import numpy as np

from backgammon import _bgcore
from backgammon.cube.search import CubeState, decision_values, efficiencies, leaf_values, position_values
from backgammon.errors import BackgammonError
from backgammon.game import Game, Phase
from backgammon.position import Position
from backgammon.analysis.decisions import (CLOSE_CUBE, OPENING_ROLLS, OPENING_WEIGHTS, ROLL_WEIGHTS,
                                           ROLLS, SKILL_THRESHOLDS, XG_CLOSE_CUBE, Decision,
                                           GameEnd, Roll, luck_label, skill_of, xg_of)
from backgammon.analysis.report import Analysis

if TYPE_CHECKING:
    from backgammon.nn.evaluator import Evaluator

__all__ = ["analyse", "default_evaluator"]

# ---------------------------------------------------------------- valuation

@dataclass(frozen=True)
class _Context(CubeState):
    """The cube and score as the player on roll sees them, with the scale that turns
    match winning chances into gnubg's normalised equity."""

    scale: float = 1.0               # MWC of winning minus losing the cube's points / 2
    lose: float = 0.0                # MWC after losing the cube's points

    def normalise(self, mwc: np.ndarray | float) -> Any:
        """Match winning chances -> normalised equity (gnubg's mwc2eq)."""
        return (mwc - self.lose) / self.scale - 1.0


def decision_context(game: Game, player: int) -> _Context:
    """The cube, score and match model of ``player``'s decisions in ``game`` now."""
    owner = ("centred" if game.cube_owner is None
             else "own" if game.cube_owner == player else "opponent")
    if not game.match_length:
        return _Context(game.cube, owner, None, False, game.rules)
    from backgammon.cube.cubeful import MatchModel
    away = game.match_length - game.score[player]
    opp = game.match_length - game.score[1 - player]
    post = (away == 1 or opp == 1) and not game.crawford
    model = MatchModel((0.5, 0.0, 0.0, 0.0, 0.0), away, opp, post, game.rules.max_cube, None)
    win, lose = model.mwc(0, game.cube, 0), model.mwc(0, 0, game.cube)
    return _Context(game.cube, owner, (away, opp), post, game.rules,
                    scale=max((win - lose) / 2.0, 1e-9), lose=lose)


DEFAULT_PLY = 2
"""The ply :func:`analyse` uses with the nets when given none: the deepest that
analyses a 7-point match in under 10 seconds (benchmarks/test_bench_analysis.py)."""


def is_nets(evaluator: Any) -> bool:
    """Whether ``evaluator`` is a backgammon.nn.Evaluator (deeper plies need one)."""
    try:
        from backgammon.nn import Evaluator
    except ImportError:  # pragma: no cover
        return False
    return isinstance(evaluator, Evaluator)


def default_evaluator() -> Any:
    """The evaluator :func:`analyse` uses when given none: the bundled nets."""
    try:
        from backgammon.nn import Evaluator
    except ImportError:  # pragma: no cover - the nets land with backgammon.nn
        raise BackgammonError(
            "analysis needs an evaluator: backgammon.nn is not available") from None
    return Evaluator.default()


class Valuer:
    """Values positions for analysis with an evaluator at a ply."""

    def __init__(self, evaluator: Evaluator | None, ply: int) -> None:
        if isinstance(ply, bool) or not isinstance(ply, int) or not 0 <= ply <= 2:
            raise BackgammonError(f"ply is 0, 1 or 2, got {ply!r}")
        if evaluator is None:
            evaluator = default_evaluator()
        if not callable(getattr(evaluator, "evaluate_batch", None)):
            raise TypeError(f"evaluator must have evaluate_batch(boards), got {evaluator!r}"[:300])
        if ply:
            from backgammon.nn import Evaluator as NN
            if not isinstance(evaluator, NN):
                raise BackgammonError("ply 1 and 2 need a backgammon.nn.Evaluator")
        self.evaluator = evaluator
        self.ply = ply

    def chances(self, boards: np.ndarray, ply: int = 0) -> np.ndarray:
        """(n, 5) cubeless chances of boards for their player on roll."""
        if not len(boards):
            return np.zeros((0, 5), np.float32)
        if ply == 0:
            out = np.asarray(self.evaluator.evaluate_batch(boards), np.float32)
            if out.shape != (len(boards), 5) or not np.isfinite(out).all():
                raise BackgammonError(f"the evaluator gave {out.shape} chances for "
                                      f"{len(boards)} boards, or values that are not finite")
            return np.clip(out, 0.0, 1.0)
        from backgammon.nn import eval_ply
        # one batched search; at ply 2 each roll's reply is chosen with gnubg-style filters
        return eval_ply(self.evaluator, np.ascontiguousarray(boards, np.int8), ply, filtered=True)

    @staticmethod
    def no_double(chances: np.ndarray, boards: np.ndarray, ctx: CubeState) -> np.ndarray:
        """Cubeful value (native units: equity per cube, or MWC) of boards for their player
        on roll, who does not double now (Janowski's model, gnubg's efficiency a board)."""
        return leaf_values(chances, boards, ctx)

    def after(self, results: np.ndarray, ctx: _Context, ply: int = 0) -> tuple[np.ndarray, np.ndarray | None]:
        """Normalised values (and MWC) for the mover of boards after the move: the
        opponent's cubeful value of each, their cube action included, searched ``ply``
        deep with the cube at every node (:mod:`backgammon.cube.search`), as gnubg does."""
        opp = np.ascontiguousarray(-results[:, ::-1])
        theirs = position_values(self.evaluator, opp, ctx.flipped(), ply, static=self.chances)
        if ctx.score is None:
            return -theirs, None
        mwc = 1.0 - theirs
        return ctx.normalise(mwc), mwc

    def play_values(self, results: np.ndarray, ctx: _Context,
                    made: int) -> tuple[np.ndarray, np.ndarray | None]:
        """Normalised values (and MWC) of a roll's results for the mover at this ply,
        through gnubg's move filters (:data:`backgammon.nn.FILTERS`): level by level,
        at most ``keep`` of the best within ``margin`` of the best go one ply deeper,
        and ``made`` always does; the plays left behind are ``-inf``."""
        from backgammon.nn import FILTERS
        values, mwc = self.after(results, ctx)
        live = np.arange(len(results))
        for level in range(1, self.ply + 1):
            f = FILTERS[level - 1]
            order = live[np.argsort(-values[live], kind="stable")]
            best = values[order[0]]
            top = [int(i) for i in order[:f.keep] if values[i] >= best - f.margin]
            if made not in top:
                top.append(made)
            deep, deep_mwc = self.after(results[top], ctx, level)
            values = np.full(len(results), -np.inf)
            values[top] = deep
            if mwc is not None and deep_mwc is not None:
                mwc = np.full(len(results), -np.inf)
                mwc[top] = deep_mwc
            live = np.array(top)
        return values, mwc

    def cube_values(self, game: Game, player: int) -> tuple[Any, _Context,
                                                            tuple[float, float, float]] | None:
        """The cube decision of ``player`` on roll in ``game`` (before the roll) and its
        normalised no double / double, take / double, pass values, searched with the cube
        at every node (:func:`backgammon.cube.search.decision_values`); None for a dead
        cube."""
        from backgammon.cube import CubeDecision
        if game.match_length and game.score[player] + game.cube >= game.match_length:
            return None  # a dead cube: winning the game at this cube wins the match (gnubg's GetDPEq)
        board = np.frombuffer(game.position._b, np.int8).reshape(1, 26)
        ctx = decision_context(game, player)
        v = decision_values(self.evaluator, board, ctx, self.ply, static=self.chances)
        d = CubeDecision.from_values(v, cube=ctx.cube, owner=ctx.owner, score=ctx.score,
                                     post_crawford=ctx.post_crawford, rules=ctx.rules,
                                     x=float(efficiencies(board)[0]))
        if not d.available:
            return None
        if ctx.score is None:
            return d, ctx, (d.no_double, d.double_take, d.double_pass)
        return d, ctx, tuple(float(ctx.normalise(v))  # type: ignore[return-value]
                             for v in (d.no_double, d.double_take, d.double_pass))

    def luck(self, board: np.ndarray, dice: tuple[int, int], ctx: _Context,
             opening: bool) -> tuple[float, float | None]:
        """gnubg's luck of ``dice`` rolled in ``board`` (the roller's view), at 0-ply."""
        rolls, weights = (OPENING_ROLLS, OPENING_WEIGHTS) if opening else (ROLLS, ROLL_WEIGHTS)
        befores = np.repeat(board.reshape(1, 26), len(rolls), axis=0)
        results, offsets = _bgcore.batch_successors(befores, rolls)
        values, mwc = self.after(results, ctx)
        starts = offsets[:-1].astype(np.intp)
        best = np.maximum.reduceat(values, starts)
        hi, lo = max(dice), min(dice)
        k = int(np.flatnonzero((rolls[:, 0] == lo) & (rolls[:, 1] == hi))[0])
        luck = float(best[k] - weights @ best)
        if mwc is None:
            return luck, None
        best_mwc = np.maximum.reduceat(mwc, starts)
        return luck, float(best_mwc[k] - weights @ best_mwc)


# ---------------------------------------------------------------- the analysis

def play_text(play: Any) -> str:
    """A play as the analysis writes it (``"(no move)"`` for the empty play)."""
    return str(play) or "(no move)"


def _state(game: Game) -> str:
    """The game's GNUbgID (what a decision's to_game() rebuilds), losses not reported."""
    import warnings

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            return game.gnubg_id()
        except BackgammonError:  # a state gnubg's IDs cannot hold (e.g. a cube above 2^15)
            return ""


def doubler_choice(d: Any, values: tuple[float, float, float],
                    made: str) -> tuple[float, float, str]:
    """(equity of ``made``, "double" or "no double"; the optimal equity; the best choice)."""
    nd, dt, dp = values
    doubled = min(dt, dp)
    best = "double" if d.action.startswith(("Double", "Redouble")) else "no double"
    return (doubled if made == "double" else nd), max(nd, doubled), best


def taker_choice(d: Any, values: tuple[float, float, float],
                  made: str) -> tuple[float, float, str]:
    """(equity of ``made``, "take", "beaver" or "pass", for the taker; the optimal; the best)."""
    _, dt, dp = values
    best = ("beaver" if d.beaver else "take") if d.take else "pass"
    # from the taker's side: taking gives the doubler dt, passing dp
    equity, other = (-dp, -dt) if made == "pass" else (-dt, -dp)
    return equity, max(equity, other), best


class _Analyser:
    def __init__(self, valuer: Valuer, cube: bool,
                 thresholds: Any = SKILL_THRESHOLDS) -> None:
        self.valuer = valuer
        self.cube = cube
        self.thresholds = thresholds
        self.decisions: list[Decision] = []
        self.rolls: list[Roll] = []
        self.forced = [0, 0]

    def game(self, number: int, game: Game) -> None:
        replay = game.restart()
        pending: tuple[Any, ...] | None = None  # the doubler's decision, for the answer
        for index, action in enumerate(game.actions):
            kind = action.kind
            if kind == "roll" and replay.phase is Phase.ROLL:
                player = replay.turn
                if self.cube and replay.can_double():
                    self._cube(number, index, replay, player, "no double")
                board = np.frombuffer(replay.position._b, np.int8)
                ctx = decision_context(replay, player)
                replay.apply(action)
                self._luck(number, index, player, board, replay.dice, ctx, opening=False)
                continue
            if kind == "double" and replay.phase is Phase.ROLL:
                player = replay.turn
                pending = self._cube(number, index, replay, player, "double") if self.cube else None
            elif kind in ("take", "drop", "beaver") and pending is not None:
                self._answer(number, index, replay, pending, kind)
                pending = None
            elif kind == "play" and replay.phase is Phase.MOVE:
                self._play(number, index, replay, action.value)
            replay.apply(action)
            if kind == "opening" and replay.phase is Phase.MOVE:
                player = replay.turn
                board = np.frombuffer(replay.position._b, np.int8)
                self._luck(number, index, player, board, replay.dice,
                           decision_context(replay, player), opening=True)

    def _luck(self, number: int, index: int, player: int, board: np.ndarray,
              dice: Any, ctx: _Context, opening: bool) -> None:
        luck, luck_mwc = self.valuer.luck(board, tuple(dice), ctx, opening)
        self.rolls.append(Roll(number, index, player, (int(dice[0]), int(dice[1])),
                               luck, luck_mwc, luck_label(luck)))

    def _play(self, number: int, index: int, game: Game, steps: Any) -> None:
        position, dice = game.position, game.dice
        assert dice is not None
        plays = position.legal_plays(dice)
        if len(plays) < 2:
            self.forced[game.turn] += 1
            return  # forced: no decision
        try:
            made_result = position.play(tuple(map(tuple, steps)), dice)
        except BackgammonError:
            return  # an unchecked illegal play (RULES 12.4) is no choice among legal plays
        results = plays._results
        try:
            made = plays.index(made_result)
        except ValueError:
            return
        ctx = decision_context(game, game.turn)
        values, mwc = self.valuer.play_values(results, ctx, made)
        order = np.argsort(-values, kind="stable")
        best = int(order[0])
        finite = values[np.isfinite(values)]
        spread = float(finite.max() - finite.min())  # XG does not count plays all alike
        loss = max(0.0, float(values[best] - values[made]))
        loss_mwc = None if mwc is None else max(0.0, float(mwc[best] - mwc[made]))
        skill = skill_of(loss, self.thresholds)
        options = tuple((play_text(plays[int(i)]), float(values[i]))
                        for i in order[:5] if np.isfinite(values[i]))
        self.decisions.append(Decision(
            number, index, game.turn, "play", play_text(plays[made]), play_text(plays[best]),
            float(values[made]), float(values[best]), loss, loss_mwc, skill, skill, xg_of(loss),
            True, bool(spread >= 0.001), position.position_id(), (int(dice[0]), int(dice[1])), game.cube,
            game.cube_owner, options, gnubg_id=_state(game)))

    def _cube(self, number: int, index: int, game: Game, player: int, made: str) -> tuple[Any, ...] | None:
        valued = self.valuer.cube_values(game, player)
        if valued is None:
            return None
        d, ctx, (nd, dt, dp) = valued
        position = game.position
        doubled = min(dt, dp)
        equity, optimal, best = doubler_choice(d, (nd, dt, dp), made)
        loss = max(0.0, optimal - equity)
        if made == "double":
            kind = "wrong double" if best == "no double" else None
            counted = counted_pr = True
        else:
            kind = "missed double" if best == "double" else None
            counted = optimal - doubled < CLOSE_CUBE
            counted_pr = nd > 0 and nd - doubled < XG_CLOSE_CUBE
        self._cube_decision(number, index, player, made, best, equity, optimal, loss, kind,
                            counted, counted_pr, game, ctx, d, position, (nd, dt, dp),
                            state=_state(game))
        return (d, ctx, position, (nd, dt, dp), game.cube, game.cube_owner)

    def _answer(self, number: int, index: int, game: Game, pending: tuple[Any, ...],
                kind: str) -> None:
        d, ctx, position, (nd, dt, dp), cube, owner = pending
        made = {"drop": "pass"}.get(kind, kind)
        took = made != "pass"
        equity, optimal, best = taker_choice(d, (nd, dt, dp), made)
        loss = max(0.0, optimal - equity)
        error = None
        if took and not d.take:
            error = "wrong take"
        elif not took and d.take:
            error = "wrong pass"
        self._cube_decision(number, index, 1 - game.turn, made, best, equity, optimal, loss,
                            error, True, True, game, ctx, d, position, (nd, dt, dp),
                            cube=cube, owner=owner, state=_state(game))

    def _cube_decision(self, number: int, index: int, player: int, made: str, best: str,
                       equity: float, optimal: float, loss: float, error: str | None,
                       counted: bool, counted_pr: bool, game: Game, ctx: _Context, d: Any,
                       position: Position, values: tuple[float, float, float],
                       cube: int | None = None, owner: int | None = None,
                       state: str = "") -> None:
        skill = skill_of(loss, self.thresholds)
        flag = error if (error is not None and skill is not None) else None
        loss_mwc = None if ctx.score is None else loss * ctx.scale
        nd, dt, dp = values
        sign = 1.0 if made in ("double", "no double") else -1.0
        take = "beaver" if d.beaver else "take"
        options = tuple(sorted((("no double", sign * nd), (f"double, {take}", sign * dt),
                                ("double, pass", sign * dp)), key=lambda o: -o[1]))
        self.decisions.append(Decision(
            number, index, player, "cube", made, best, equity, optimal, loss, loss_mwc, flag,
            skill, xg_of(loss), counted, counted_pr, position.position_id(), None,
            game.cube if cube is None else cube, game.cube_owner if cube is None else owner,
            options, d.action, state))


def games_of(source: Any) -> tuple[list[Game], tuple[str, str], int]:
    """The games, player names and match length of a Match, a Game, a list of games or a
    record read by :mod:`backgammon.formats` (``read_record(path)``: a match or a money
    session, with its players' names)."""
    from backgammon.formats import MatRecord, Record, SgfRecord
    from backgammon.match import Match
    if isinstance(source, (MatRecord, SgfRecord, Record)):
        return list(source.games), source.names, source.match_length
    if isinstance(source, Match):
        return list(source.games), source.names, source.length
    if isinstance(source, Game):
        return [source], ("Player 0", "Player 1"), source.match_length
    if isinstance(source, (str, bytes)):
        raise TypeError("analyse a Match, a Game, a list of Games or a record; read a file "
                        "first (backgammon.formats.read_record(path))")
    try:
        games = list(source)
    except TypeError:
        raise TypeError(f"analyse a Match, a Game or a list of Games, got {source!r}"[:300]) from None
    if not all(isinstance(g, Game) for g in games):
        raise TypeError("analyse a Match, a Game or a list of Games")
    length = games[0].match_length if games else 0
    return games, ("Player 0", "Player 1"), length


def _thresholds(value: Any) -> tuple[tuple[str, float], ...]:
    """(doubtful, bad, very bad) losses -> SKILL_THRESHOLDS' form, checked."""
    try:
        limits = tuple(float(v) for v in value)
    except (TypeError, ValueError):
        raise TypeError(f"thresholds are three numbers (doubtful, bad, very bad), "
                        f"got {value!r}"[:300]) from None
    if (len(limits) != 3 or not all(math.isfinite(v) and v >= 0 for v in limits)
            or not limits[0] <= limits[1] <= limits[2]):
        raise BackgammonError(f"thresholds are three losses 0 <= doubtful <= bad <= very bad, "
                              f"got {value!r}"[:300])
    return (("very bad", limits[2]), ("bad", limits[1]), ("doubtful", limits[0]))


def analyse(match: Any, ply: int | None = None, cube: bool = True,
            evaluator: Evaluator | None = None, *, thresholds: Any = (0.03, 0.06, 0.12),
            workers: int | None = None) -> Analysis:
    """Analyse every decision of a :class:`~backgammon.Match`, a :class:`~backgammon.Game`,
    a list of games or a record file read by :func:`backgammon.formats.read_record`
    (its names kept, money sessions too), with ``evaluator`` (default: the bundled
    nets) at ``ply``.

    ``ply`` defaults to 2 with the nets (the deepest level that analyses a 7-point
    match in under 10 seconds, and the one whose error rates and flags come closest
    to gnubg's 2-ply analysis of real matches, docs/analysis.md) and to 0 with any
    other evaluator.

    ``cube=False`` leaves cube decisions out.  Checker plays are valued at
    ``ply`` through gnubg-style move filters (:data:`backgammon.nn.FILTERS`): at
    ply 1 the 8 best plays within 0.16 at 0-ply, and at ply 2 the 2 best of those
    within 0.04 at 1-ply, are looked at again one ply deeper, and the play made
    always is; luck is always found at 0-ply.
    Any object with ``evaluate_batch(boards) -> (n, 5)`` chances may serve as
    the evaluator at ply 0.  ``thresholds``: the losses above which a decision
    is doubtful, bad and very bad (default gnubg 1.1.0a16's 0.03, 0.06, 0.12).
    ``workers``: threads analysing games at once with the nets (default: every
    core; the core's searches run without the GIL); the result is the same for
    any number.  Other evaluators run in the calling thread.

        >>> import backgammon as bg
        >>> m = bg.Match(1, rng=3)
        >>> m.game.roll((6, 1)); m.game.play("13/7 8/7")
        >>> a = analyse(m)
        >>> len(a.decisions), a.error_rate(0)
        (1, 0.0)
    """
    games, names, length = games_of(match)
    if not isinstance(cube, bool):
        raise TypeError(f"cube is True or False, got {cube!r}")
    if ply is None:
        if evaluator is None:
            evaluator = default_evaluator()
        ply = DEFAULT_PLY if is_nets(evaluator) else 0
    valuer = Valuer(evaluator, ply)
    limits = _thresholds(thresholds)
    threads = _analysis_workers(workers, len(games))
    if not is_nets(valuer.evaluator):  # a Python evaluator may not be thread-safe
        threads = 1

    def one(number: int) -> _Analyser:
        analyser = _Analyser(valuer, bool(cube), limits)
        analyser.game(number, games[number])
        return analyser

    if threads > 1:  # games are independent: each its own analyser, merged in order
        from concurrent.futures import ThreadPoolExecutor
        # the longest games first, so that no thread is left with a long one at the end
        order = sorted(range(len(games)), key=lambda n: -len(games[n].actions))
        with ThreadPoolExecutor(threads, thread_name_prefix="backgammon-analyse") as pool:
            done = dict(zip(order, pool.map(one, order)))
        parts = [done[number] for number in range(len(games))]
    else:
        parts = [one(number) for number in range(len(games))]
    results = []
    for game in games:
        r = game.result
        results.append(None if r is None else GameEnd(winner=r.winner, points=r.points,
                                                      kind=r.kind, reason=r.reason))
    return Analysis(names=names, match_length=length, ply=ply, cube=bool(cube),
                    decisions=tuple(d for a in parts for d in a.decisions),
                    rolls=tuple(r for a in parts for r in a.rolls), results=tuple(results),
                    forced=(sum(a.forced[0] for a in parts), sum(a.forced[1] for a in parts)))


_MAX_WORKERS = 256


def _analysis_workers(workers: int | None, games: int) -> int:
    """The threads :func:`analyse` uses: ``workers`` (checked), else every core,
    never more than the games."""
    if workers is None:
        import os
        workers = os.cpu_count() or 1
    elif isinstance(workers, bool) or not isinstance(workers, int) or not 1 <= workers <= _MAX_WORKERS:
        raise BackgammonError(f"workers is a whole number from 1 to {_MAX_WORKERS}, got "
                              f"{workers!r}"[:200])
    return max(1, min(workers, games))
