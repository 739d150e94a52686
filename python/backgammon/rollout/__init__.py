"""Rollouts: the engine that plays seeded chunks of games on threads, processes or
a cluster (:mod:`.engine`), and its clients: a position's chances and equity
(:mod:`.equity`), the plays of a roll (:mod:`.plays`) and cube decisions
(:mod:`.cube`).
"""

from backgammon.rollout.equity import (
    Estimate,
    RolloutError,
    RolloutResult,
    rollout,
    read_position,
    Policy,
)

__all__ = [
    "Estimate",
    "RolloutError",
    "RolloutResult",
    "rollout",
    "read_position",
    "Policy",
]

# kept importable from here, where users and pickled chunks have found them
from backgammon.rollout.engine import read_estimate as read_estimate  # noqa: E402
from backgammon.rollout.engine import run_chunk as run_chunk  # noqa: E402
from backgammon.rollout.engine import run_chunk_ex as run_chunk_ex  # noqa: E402

# the rest of what the module rollout.py offered before it became this package
from backgammon.rollout.equity import (  # noqa: E402
    Chances as Chances,
    chances as chances,
    as_position as as_position,
    read_game_or_position as read_game_or_position,
)
