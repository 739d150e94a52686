"""The engine routes: wildbg's ``GET /move`` and ``GET /eval``, and the extras.

wildbg's board convention is the library's own: ``p1``..``p24`` are the points
of the player on roll (``x``, positive counts, moving from 24 to 1), ``p25``
its bar, ``p0`` the opponent's bar (negative), other points negative for the
opponent (``o``); missing points are empty.  Its probabilities are gnubg's
cumulative five, named ``win``, ``winG``, ``winBg``, ``loseG``, ``loseBg``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from backgammon.errors import BackgammonError, InvalidDiceError, InvalidPositionError
from backgammon.position import Position

if TYPE_CHECKING:
    from backgammon.nn.evaluator import Evaluator
    from backgammon.nn import Evaluation

__all__ = ["cube_advice", "game_from_id", "id_score", "move_response", "position_from_query",
           "wildbg_probabilities"]

MAX_AWAY = 25  # the bundled match equity table's length


def position_from_query(points: dict[str, int | None], position: str | None
                        ) -> tuple[Position, tuple[int, int] | None]:
    """The position of ``p0``..``p25`` (wildbg) or of ``position`` (a Position ID,
    GNUbgID or XGID, which may carry dice), never both."""
    given = {k: v for k, v in points.items() if v is not None}
    if position is not None:
        if given:
            raise InvalidPositionError("give the position as p0..p25 or as position=, not both")
        from backgammon.rollout import read_position
        return read_position(position)
    board = [given.get(f"p{i}", 0) for i in range(26)]
    if board[0] > 0:
        raise InvalidPositionError(f"p0 is the opponent's bar: its count is negative, got {board[0]}")
    if board[25] < 0:
        raise InvalidPositionError(f"p25 is the bar of the player on roll: its count is "
                                   f"positive, got {board[25]}")
    return Position(board), None


def game_from_id(position: str | None) -> Any:
    """The :class:`~backgammon.Game` of an XGID or GNUbgID (they carry the cube, its
    owner, the score and the dice), or None for a Position ID or no ``position``."""
    if position is None:
        return None
    body = position.strip()
    if not (body.upper().startswith(("XGID", "GNUBGID")) or ":" in body):
        return None
    from backgammon.game import Game
    if body.upper().startswith("XGID") or body.count(":") >= 8:
        return Game.from_xgid(body)
    return Game.from_gnubg_id(body)


def id_score(game: Any) -> tuple[int, int] | None:
    """``(away, opponent_away)`` of the player on roll of an ID's game, None for money."""
    if not game.match_length:
        return None
    s = game.score
    return game.match_length - s[game.turn], game.match_length - s[1 - game.turn]


def dice_from_query(die1: int | None, die2: int | None,
                    carried: tuple[int, int] | None) -> tuple[int, int]:
    if die1 is None and die2 is None and carried is not None:
        return carried
    if die1 is None or die2 is None:
        raise InvalidDiceError("a move needs the dice: die1 and die2, each from 1 to 6 "
                               "(or a position= XGID or GNUbgID that carries them)")
    return die1, die2


def score_from_query(x_away: int, o_away: int) -> tuple[int, int] | None:
    """``None`` for money (both 0), else ``(x_away, o_away)``."""
    if (x_away == 0) != (o_away == 0):
        raise BackgammonError(f"x_away and o_away are both 0 (money play) or both from 1 to "
                              f"{MAX_AWAY} (match play), got {x_away} and {o_away}")
    if max(x_away, o_away) > MAX_AWAY:
        raise BackgammonError(f"the match equity table goes to {MAX_AWAY} away, "
                              f"got {x_away} and {o_away}")
    return None if x_away == 0 else (x_away, o_away)


def wildbg_probabilities(p: Any) -> dict[str, float]:
    """wildbg's names for the five probabilities of an Evaluation."""
    return {"win": p.win, "winG": p.win_gammon, "winBg": p.win_backgammon,
            "loseG": p.lose_gammon, "loseBg": p.lose_backgammon}


def _mwc_after(p: Evaluation, away: int, opp: int) -> float:
    """The mover's cubeless match winning chance after a play with
    probabilities ``p`` (the mover's, the opponent then on roll), at a
    score of ``away`` vs ``opp`` with the cube on 1."""
    from backgammon.cube import met
    post = 1 in (away, opp)  # any later game with a 1-away player is post-Crawford

    def e(a: int, b: int) -> float:
        if a <= 0:
            return 1.0
        if b <= 0:
            return 0.0
        return met.equity(a, b, post_crawford=post and 1 in (a, b))

    w, wg, wb, lg, lb = p.probabilities
    return ((w - wg) * e(away - 1, opp) + (wg - wb) * e(away - 2, opp) + wb * e(away - 3, opp)
            + (1 - w - lg) * e(away, opp - 1) + (lg - lb) * e(away, opp - 2)
            + lb * e(away, opp - 3))


def ranked(position: Position, dice: tuple[int, int], score: tuple[int, int] | None,
           ply: int, evaluator: Evaluator | None = None) -> list[tuple[Any, float]]:
    """Every legal play with its value (money: cubeless equity; match:
    cubeless match winning chance), best first."""
    from backgammon.nn import rank_plays
    plays = rank_plays(position, dice, ply, evaluator)
    if score is None:
        return [(r, r.equity) for r in plays]
    valued = [(r, _mwc_after(r.evaluation, *score)) for r in plays]
    return sorted(valued, key=lambda rv: -rv[1])  # stable: ties keep the nets' order


def move_response(position: Position, dice: tuple[int, int], score: tuple[int, int] | None,
                  ply: int, evaluator: Evaluator | None = None) -> dict[str, Any]:
    """wildbg's MoveResponse: ``{"moves": [{"play": [{"from", "to"}...],
    "probabilities": {...}}, ...]}``, best first; a roll that cannot move gives
    one move with an empty ``play``."""
    return {"moves": [{"play": [{"from": a, "to": b} for a, b in r.play.moves],
                       "probabilities": wildbg_probabilities(r.evaluation)}
                      for r, _ in ranked(position, dice, score, ply, evaluator)]}


def cube_advice(position: Position, score: tuple[int, int] | None, ply: int, *,
                cube: int = 1, owner: str = "centred", post_crawford: bool = False,
                evaluator: Evaluator | None = None) -> Any:
    from backgammon.cube import cube_decision
    return cube_decision(position, ply, evaluator, cube=cube, owner=owner, score=score,
                         post_crawford=post_crawford)
