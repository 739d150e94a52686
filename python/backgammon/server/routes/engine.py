"""The engine routes: wildbg's ``GET /move`` and ``GET /eval``, and ``GET /cube``
(the full cube decision).  A search at ply 1 or 2 waits for no place: beyond
``Limits.deep_searches`` at once it is refused (503 ``Busy``)."""

import inspect
import threading
from contextlib import contextmanager
from typing import TYPE_CHECKING, Any, Iterator, Literal, Optional

from fastapi import Depends, FastAPI, Query

from backgammon.errors import BackgammonError
from backgammon.server import engine
from backgammon.server.errors import Busy
from backgammon.server.limits import Limits
from backgammon.server.models import ErrorMessage, EvalResponse, MoveResponse

if TYPE_CHECKING:
    from backgammon.nn.evaluator import Evaluator

__all__ = ["add_routes", "points_dependency"]


def points_dependency() -> Any:
    """p0..p25 as 26 documented query parameters (wildbg's PipParams)."""
    params = [inspect.Parameter(f"p{i}", inspect.Parameter.KEYWORD_ONLY,
                                default=Query(None, ge=-15 if i < 25 else 0,
                                              le=0 if i == 0 else 15,
                                              description=("the opponent's bar (<= 0)" if i == 0
                                                           else "your bar" if i == 25 else None)),
                                annotation=Optional[int]) for i in range(26)]

    def points(**kw: Any) -> dict[str, Optional[int]]:
        return kw

    points.__signature__ = inspect.Signature(params)  # type: ignore[attr-defined]
    return points


def add_routes(app: FastAPI, evaluator: "Evaluator | None", limits: Limits) -> None:
    """``/move``, ``/eval`` and ``/cube`` on ``app``, evaluated by ``evaluator``."""
    deep = threading.BoundedSemaphore(limits.deep_searches)   # ply >= 1 engine work at once

    @contextmanager
    def searching(ply: int) -> Iterator[None]:
        """A place for an engine request at ``ply`` (ply 0 needs none): else 503 Busy."""
        if ply == 0:
            yield
            return
        if not deep.acquire(blocking=False):
            raise Busy(f"{limits.deep_searches} searches at ply 1 or 2 are running: "
                       "try again in a second, or ask at ply 0")
        try:
            yield
        finally:
            deep.release()

    errors: dict[int | str, dict[str, Any]] = {400: {"model": ErrorMessage}}
    Points = Depends(points_dependency())
    ply_q = Query(0, ge=0, le=2, description="evaluation depth (ours: 0, 1 or 2)")
    pos_q = Query(None, max_length=100, description="ours: a Position ID, GNUbgID or XGID "
                                                    "instead of p0..p25")

    @app.get("/move", response_model=MoveResponse, responses=errors, tags=["engine (wildbg)"])
    def get_move(die1: Optional[int] = Query(None, ge=1, le=6, examples=[3]),
                 die2: Optional[int] = Query(None, ge=1, le=6, examples=[1]),
                 x_away: int = Query(0, ge=0, description="points you need (0: money play)"),
                 o_away: int = Query(0, ge=0, description="points the opponent needs"),
                 ply: int = ply_q, position: Optional[str] = pos_q,
                 points: dict[str, Optional[int]] = Points) -> Any:
        """Every legal play of the dice, best first, each with the five chances
        after it (wildbg's ``/move``); at a match score ranked by match winning
        chance from the match equity table."""
        pos, carried = engine.position_from_query(points, position)
        dice = engine.dice_from_query(die1, die2, carried)
        score = engine.score_from_query(x_away, o_away)
        game = engine.game_from_id(position)
        if game is not None and score is None:
            score = engine.id_score(game)   # an XGID or GNUbgID brings its match score
        with searching(ply):
            return engine.move_response(pos, dice, score, ply, evaluator)

    @app.get("/eval", response_model=EvalResponse, responses=errors, tags=["engine (wildbg)"])
    def get_eval(x_away: int = Query(0, ge=0), o_away: int = Query(0, ge=0),
                 ply: int = ply_q, position: Optional[str] = pos_q,
                 cube: int = Query(1, ge=1, le=64, description="ours: the cube's value"),
                 owner: Literal["centred", "own", "opponent"] = Query("centred"),
                 post_crawford: bool = Query(False), points: dict[str, Optional[int]] = Points) -> Any:
        """The five chances of the player on roll and the cube advice (wildbg's ``/eval``).
        An XGID or GNUbgID as ``position`` brings its cube, owner and match score."""
        with searching(ply):
            decision = _decision(points, position, x_away, o_away, ply, cube, owner,
                                 post_crawford)
        double = decision.available and decision.action.startswith(("Double", "Redouble"))
        return {"cube": {"double": bool(double), "accept": bool(decision.take)},
                "probabilities": dict(zip(("win", "winG", "winBg", "loseG", "loseBg"),
                                          decision.probabilities))}

    def _decision(points: dict[str, Optional[int]], position: Optional[str], x_away: int, o_away: int, ply: int,
                  cube: int, owner: str, post_crawford: bool) -> Any:
        pos, _ = engine.position_from_query(points, position)
        score = engine.score_from_query(x_away, o_away)
        game = engine.game_from_id(position)
        if game is None:
            return engine.cube_advice(pos, score, ply, cube=cube, owner=owner,
                                      post_crawford=post_crawford, evaluator=evaluator)
        if score is not None or cube != 1 or owner != "centred" or post_crawford:
            raise BackgammonError("an XGID or GNUbgID gives the cube and the score: "
                                  "leave out x_away, o_away, cube, owner and post_crawford")
        from backgammon.cube import cube_decision
        return cube_decision(game, ply, evaluator)

    @app.get("/cube", responses=errors, tags=["engine"])
    def get_cube(x_away: int = Query(0, ge=0), o_away: int = Query(0, ge=0),
                 ply: int = ply_q, position: Optional[str] = pos_q,
                 cube: int = Query(1, ge=1, le=64),
                 owner: Literal["centred", "own", "opponent"] = Query("centred"),
                 post_crawford: bool = Query(False), points: dict[str, Optional[int]] = Points) -> Any:
        """The full cube decision: the equities of no double, double/take and
        double/pass, the proper action and each action's error
        (:meth:`CubeDecision.to_dict`); an XGID or GNUbgID brings its cube and score."""
        with searching(ply):
            return _decision(points, position, x_away, o_away, ply, cube, owner,
                             post_crawford).to_dict()
