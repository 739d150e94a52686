"""Stable-Baselines3's ``VecEnv`` over :class:`~backgammon.env.VectorEnv` (needs the
``stable-baselines3`` package, and ``sb3-contrib`` for ``MaskablePPO``).

SB3 trains on its own vector interface rather than Gymnasium's; this adapter
lets it step the core's games directly (no Python env per game):

    >>> from backgammon.env import VectorEnv
    >>> from backgammon.env.sb3 import SB3VecEnv
    >>> env = SB3VecEnv(VectorEnv(8, opponent="random", encoding="pgx", seed=0))
    >>> env.reset().shape, env.env_method("action_masks")[0].shape
    ((8, 34), (156,))

With ``sb3_contrib.MaskablePPO("MlpPolicy", env)`` the masks reach the policy
through ``env_method("action_masks")``.  Observations and rewards are copies
(SB3 keeps them across steps; the VectorEnv's arrays are overwritten).
Games reset in the step that ends them, as SB3 expects, their last
observations in ``infos[i]["terminal_observation"]``.
"""

from __future__ import annotations

from typing import Any, Iterable, Sequence

import numpy as np

from backgammon._show import shown
from backgammon.env.vector import VectorEnv
from backgammon.errors import InvalidSetupError

try:
    from stable_baselines3.common.vec_env import VecEnv  # type: ignore[import-not-found,unused-ignore]
except ImportError as e:  # pragma: no cover - an optional dependency
    raise ImportError("backgammon.env.sb3 needs Stable-Baselines3: "
                      "pip install stable-baselines3 sb3-contrib") from e


class SB3VecEnv(VecEnv):  # type: ignore[misc,unused-ignore]
    """``venv`` (a :class:`VectorEnv`) as an SB3 ``VecEnv``."""

    def __init__(self, venv: VectorEnv) -> None:
        if not isinstance(venv, VectorEnv):
            raise InvalidSetupError(f"SB3VecEnv wraps a backgammon VectorEnv, got {shown(venv)}")
        self.venv = venv
        self._actions: np.ndarray | None = None
        super().__init__(venv.num_envs, venv.single_observation_space, venv.single_action_space)

    def reset(self) -> np.ndarray:
        seed = self._seeds[0] if getattr(self, "_seeds", None) else None
        obs, _ = self.venv.reset(seed=seed)
        if hasattr(self, "_reset_seeds"):
            self._reset_seeds()
        return np.array(obs)

    def step_async(self, actions: np.ndarray) -> None:
        self._actions = np.asarray(actions).reshape(self.num_envs).astype(np.int64)

    def step_wait(self) -> tuple[np.ndarray, np.ndarray, np.ndarray, list[dict[str, Any]]]:
        if self._actions is None:
            raise InvalidSetupError("step_wait() needs a step_async() first")
        obs, rewards, term, trunc, infos = self.venv.step(self._actions)
        self._actions = None
        out: list[dict[str, Any]] = [{} for _ in range(self.num_envs)]
        for i in np.flatnonzero(term | trunc):
            out[i]["terminal_observation"] = infos["final_obs"][i]
            out[i]["TimeLimit.truncated"] = bool(trunc[i] and not term[i])
        for i in np.flatnonzero(infos["illegal"]):
            out[i]["illegal_action"] = True
        return np.array(obs), rewards.astype(np.float32), term | trunc, out

    def close(self) -> None:
        self.venv.close()

    def _indices(self, indices: Any) -> Sequence[int]:
        if indices is None:
            return range(self.num_envs)
        if isinstance(indices, (int, np.integer)):
            return [int(indices)]
        return list(indices)

    def get_attr(self, attr_name: str, indices: Any = None) -> list[Any]:
        value = getattr(self.venv, attr_name)
        return [value for _ in self._indices(indices)]

    def set_attr(self, attr_name: str, value: Any, indices: Any = None) -> None:
        setattr(self.venv, attr_name, value)

    def env_method(self, method_name: str, *method_args: Any, indices: Any = None,
                   **method_kwargs: Any) -> list[Any]:
        """``action_masks``: each game's mask (a row of ``VectorEnv.action_masks()``);
        other methods are the VectorEnv's, called once, its result given to every index."""
        rows: Iterable[int] = self._indices(indices)
        if method_name == "action_masks":
            masks = self.venv.action_masks()
            return [masks[i].copy() for i in rows]
        result = getattr(self.venv, method_name)(*method_args, **method_kwargs)
        return [result for _ in rows]

    def env_is_wrapped(self, wrapper_class: Any, indices: Any = None) -> list[bool]:
        return [False for _ in self._indices(indices)]
