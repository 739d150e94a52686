"""N games stepped in lockstep in the core, with Gymnasium's vector API.

    >>> import numpy as np
    >>> from backgammon.env import VectorEnv
    >>> venv = VectorEnv(4, opponent="random", encoding="pgx", seed=1)
    >>> obs, infos = venv.reset(seed=1)
    >>> obs.shape, infos["action_mask"].shape
    ((4, 34), (4, 156))
    >>> a = np.array([np.flatnonzero(m)[0] for m in infos["action_mask"]])
    >>> obs, rewards, terminations, truncations, infos = venv.step(a)

Slot ``k`` plays the same games as ``BackgammonEnv(seed=s)`` would in slot
0 only for ``k = 0``; every slot draws its dice from streams seeded by
``(seed, k, episode)``, so results depend on the seed alone.  A finished
game is reset in the same step (Gymnasium's "same-step" autoreset): the
step returns its reward and flags with the first observation of the next
game.  Built-in opponents only (``"net"``, ``"pubeval"``, ``"random"``,
an Evaluator): their turns run in the core too, without the GIL.  Cubeless
money games only: ``cube=True`` and ``match_length`` are refused with
:class:`~backgammon.InvalidSetupError` (see :class:`BackgammonEnv` for those).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from backgammon import _bgcore
from backgammon.env.cube_match import check_options
from backgammon.env.encoders import encoding_kind, encoding_size
from backgammon.env.opponents import core_opponent
from backgammon.errors import IllegalActionError, InvalidSetupError

ACTIONS = {"micro": 0, "openspiel": 1, "afterstate": 2}


class VectorEnv:
    """``n`` games against a built-in ``opponent``, stepped in the core.

    ``threads`` > 1 steps equal shares of the games on that many threads
    (without the GIL); the games are the same for any number of threads.

    ``reset(seed=None) -> (obs, infos)`` and ``step(actions) -> (obs, rewards,
    terminations, truncations, infos)`` with numpy arrays; ``infos`` holds
    ``action_mask`` (bool ``(n, ids)``), ``episode`` (games begun per slot)
    and ``illegal`` (the slots whose id was refused: they did not move).
    The arrays returned are views the next call overwrites: copy to keep.
    """

    metadata = {"autoreset_mode": "same-step"}

    def __init__(self, n: int, opponent: Any = "net", encoding: str = "tesauro",
                 actions: str = "micro", seed: int | None = None,
                 max_candidates: int = 1024, threads: int = 1, cube: bool = False,
                 match_length: int | None = None) -> None:
        if isinstance(n, bool) or not isinstance(n, int) or n < 1:
            raise InvalidSetupError(f"n is the number of games, an integer >= 1, got {n!r}")
        cube, match_length = check_options(cube, match_length)
        if cube or match_length:
            # the core's games are cubeless money games; refused rather than half done
            raise InvalidSetupError(
                "VectorEnv does not support cube=True or match_length yet (its games run in "
                "the core, cubeless); use BackgammonEnv(cube=..., match_length=...), e.g. in "
                "gymnasium.vector.SyncVectorEnv")
        self.cube, self.match_length = cube, match_length
        if actions not in ACTIONS:
            raise InvalidSetupError(f"unknown action space {actions!r}: use {sorted(ACTIONS)}")
        core = core_opponent(opponent)
        if core is None:
            raise InvalidSetupError("VectorEnv plays built-in opponents in the core: 'net', "
                                    "'pubeval', 'random' or an Evaluator")
        enc = encoding_kind(encoding)
        if isinstance(threads, bool) or not isinstance(threads, int) or not 1 <= threads <= 256:
            raise InvalidSetupError(f"threads is an integer 1..256, got {threads!r}")
        self.num_envs = n
        self.encoding, self.actions = encoding, actions
        self._core = _bgcore.VecEnv(n, ACTIONS[actions], enc, core[0], core[1], None,
                                    max_candidates, threads)
        self._k = encoding_size(encoding)
        self._seed = seed
        self._illegal = np.zeros(0, dtype=np.int64)

    @property
    def single_observation_space(self) -> Any:
        from gymnasium import spaces
        bound = 15.0  # every unit of every encoding lies in -15..15 (docs/env.md)
        return spaces.Box(-bound, bound, shape=(self._core.obs_size,), dtype=np.float32)

    @property
    def single_action_space(self) -> Any:
        from gymnasium import spaces
        return spaces.Discrete(self._core.mask_size)

    @property
    def observation_space(self) -> Any:
        from gymnasium.vector.utils import batch_space
        return batch_space(self.single_observation_space, self.num_envs)

    @property
    def action_space(self) -> Any:
        from gymnasium.vector.utils import batch_space
        return batch_space(self.single_action_space, self.num_envs)

    def reset(self, *, seed: int | None = None, options: dict[str, Any] | None = None
              ) -> tuple[np.ndarray, dict[str, Any]]:
        if seed is not None:
            self._seed = seed
        if self._seed is None:
            self._seed = int(np.random.SeedSequence().generate_state(1, np.uint64)[0])
        if isinstance(self._seed, bool) or not isinstance(self._seed, (int, np.integer)) \
                or self._seed < 0:
            raise InvalidSetupError(f"seed is an integer >= 0 or None, got {self._seed!r}")
        self._core.reset(int(self._seed) & (2 ** 64 - 1))
        self._illegal = np.zeros(0, dtype=np.int64)
        return self._core.obs, self._infos()

    def step(self, actions: Any) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray,
                                          dict[str, Any]]:
        a = np.asarray(actions)
        if a.shape != (self.num_envs,) or not np.issubdtype(a.dtype, np.integer):
            raise IllegalActionError(f"step needs {self.num_envs} integer ids, got shape "
                                     f"{a.shape} of {a.dtype}")
        self._illegal = self._core.step(np.ascontiguousarray(a, dtype=np.int64), True)
        return (self._core.obs, self._core.reward, self._core.terminated.view(bool),
                self._core.truncated.view(bool), self._infos())

    def _infos(self) -> dict[str, Any]:
        return {"action_mask": self._core.mask.view(bool), "episode": self._core.episode,
                "illegal": self._illegal}

    def close(self) -> None:
        pass
