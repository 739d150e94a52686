"""Who plays the other side of an environment: a built-in policy run in the
core, or a Python decision maker (a callable scoring candidates, or a
:class:`~backgammon.env.bots.Bot`)."""

from __future__ import annotations

from typing import Any, Callable

import numpy as np

from backgammon._show import shown
from backgammon.errors import IllegalPlayError, InvalidSetupError
from backgammon.position import Play, Position

CODES = {"random": 0, "pubeval": 1, "net": 2}
EXTERNAL = -1


def core_opponent(opponent: Any) -> tuple[int, Any] | None:
    """``(policy code, nets)`` for a policy the core plays, else None."""
    from backgammon.nn import Evaluator
    if isinstance(opponent, Evaluator):
        return CODES["net"], opponent._nets
    if isinstance(opponent, str):
        if opponent not in CODES:
            raise InvalidSetupError(f"unknown opponent {opponent!r}: use 'net', 'pubeval', "
                                    "'random', an Evaluator, a callable or a Bot")
        if opponent == "pubeval":
            from backgammon import pubeval
            pubeval.install()   # its weights reach the core on first use
        return CODES[opponent], Evaluator.default()._nets if opponent == "net" else None
    return None


def python_chooser(opponent: Any) -> Callable[[Position, tuple[int, int], int], Play]:
    """``choose(position, dice, seat) -> Play`` for a Bot or a scoring callable."""
    from backgammon.env.bots import choose_with
    if hasattr(opponent, "choose_play") or callable(opponent):
        return lambda pos, dice, seat: choose_with(opponent, pos, dice, seat)
    raise InvalidSetupError(f"unknown opponent {shown(opponent)}: use 'net', 'pubeval', "
                            "'random', an Evaluator, a callable or a Bot")


def checked_play(position: Position, dice: tuple[int, int], play: Any) -> Play:
    """The legal Play of ``position`` that ``play`` (a Play, notation or steps) denotes."""
    if isinstance(play, Play):
        if play.position != position or play not in position.legal_plays(dice):
            raise IllegalPlayError(f"{play} is not a legal play of {dice[0]}-{dice[1]} "
                                   f"in {position!r}")
        return play
    if isinstance(play, str):
        return position.parse_play(play, dice)
    result = position.play(list(play), dice)
    return next(p for p in position.legal_plays(dice) if p.result == result)


def scores_choice(fn: Any, position: Position, dice: tuple[int, int]) -> Play:
    """The play whose result ``fn`` (int8 (m, 26) -> m scores) scores highest."""
    plays = position.legal_plays(dice)
    boards = position.successors(dice)
    scores = np.asarray(fn(boards), dtype=np.float64).reshape(-1)
    if scores.shape != (len(plays),) or not np.isfinite(scores).all():
        raise InvalidSetupError(f"the opponent callable must return {len(plays)} finite "
                                f"scores, got {shown(scores)}"[:300])
    return plays[int(np.argmax(scores))]
