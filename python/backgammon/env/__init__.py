"""Environments and encoders for bots and reinforcement learning.

``encode`` (observation encoders in the core), ``actions`` (micro, OpenSpiel
and afterstate ids and masks), ``openspiel`` (converters to and from
pyspiel), and, with the optional ``env`` extra (gymnasium, pettingzoo),
``BackgammonEnv`` (Gymnasium, registered as ``"backgammon/Backgammon-v0"``),
``aec_env`` (PettingZoo AEC) and ``VectorEnv`` (N games stepped in the core,
a ``gymnasium.vector.VectorEnv``; ``opponent="self"`` for self-play);
``backgammon.env.sb3.SB3VecEnv`` adapts the VectorEnv to Stable-Baselines3.
See ``docs/env.md``.

    >>> from backgammon.env import actions
    >>> actions.micro_step(actions.micro_action(25, 3))
    (25, 3)
"""

from __future__ import annotations

import sys
from typing import Any

from backgammon.env import actions, openspiel
from backgammon.env.bots import Bot
from backgammon.env.encoders import NET_ENCODING, encode, encoding_size

__all__ = ["NET_ENCODING", "BackgammonEnv", "Bot", "VectorEnv", "actions", "aec_env", "encode",
           "encoding_size", "openspiel"]


def __getattr__(name: str) -> Any:
    # gymnasium and pettingzoo are imported only when an environment is asked for
    if name == "BackgammonEnv":
        from backgammon.env.gym_env import BackgammonEnv
        return BackgammonEnv
    if name == "VectorEnv":
        from backgammon.env.vector import VectorEnv
        return VectorEnv
    if name == "aec_env":
        from backgammon.env.aec import aec_env
        return aec_env
    raise AttributeError(f"module 'backgammon.env' has no attribute {name!r}")


if "gymnasium" in sys.modules:
    # gymnasium is loaded already: registering "backgammon/Backgammon-v0" costs nothing
    from backgammon.env import gym_env as _gym_env  # noqa: F401
