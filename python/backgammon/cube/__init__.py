"""The doubling cube: decisions (:mod:`.decision`), Janowski's cubeful equities
(:mod:`.cubeful`), match equity tables (:mod:`.met`) and the cubeful 1- and 2-ply
search (:mod:`.search`).

    >>> import backgammon as bg
    >>> bg.cube_decision(bg.Position.initial()).action
    'no double'
"""

from backgammon.cube.decision import (
    CubeDecision,
    EvaluatorCubePolicy,
    PipCountCubePolicy,
    cube_decision,
)

__all__ = [
    "CubeDecision",
    "EvaluatorCubePolicy",
    "PipCountCubePolicy",
    "cube_decision",
]

# the rest of what the module cube.py offered before it became this package
from backgammon.cube.decision import (  # noqa: E402
    game_score as game_score,
)
