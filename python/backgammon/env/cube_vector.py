"""The games of ``VectorEnv(n, cube=True)`` and ``VectorEnv(n, match_length=N)``.

The core steps cubeless money games only; with the cube or a match each slot
is a :class:`~backgammon.env.cube_match.CubeMatchDriver` (the rules of
:class:`~backgammon.Game` and :class:`~backgammon.Match`, as
``BackgammonEnv(cube=..., match_length=...)`` plays them), stepped from
Python.  :class:`CubeMatchGames` keeps the arrays and methods of the core's
``VecEnv`` that :class:`~backgammon.env.VectorEnv` reads, so the vector API
is the same; its speed is the single env's, once per game.

    >>> from backgammon.env import VectorEnv
    >>> venv = VectorEnv(3, opponent="random", encoding="pgx", cube=True, seed=4)
    >>> obs, infos = venv.reset()
    >>> obs.shape, infos["action_mask"].shape, infos["cube"].tolist()
    ((3, 38), (3, 160), [1, 1, 1])
"""

from __future__ import annotations

import copy
from typing import Any

import numpy as np

from backgammon.env.cube_match import CubeMatchDriver


class CubeMatchGames:
    """``n`` cubeful games or matches, one :class:`CubeMatchDriver` a slot.

    Slot ``k``'s episode ``e`` of seed ``s`` rolls the dice of
    ``s + (e << 64) + (k << 128)``: slot 0 plays the episodes of
    ``BackgammonEnv(seed=s)`` with the same options.
    """

    selfplay = False

    def __init__(self, n: int, opponent: Any, enc: int, k: int, actions: str,
                 max_candidates: int, cube: bool, match_length: int | None,
                 dice_units: bool) -> None:
        self.n = n
        self.drivers = [CubeMatchDriver(opponent, enc, k, actions, max_candidates, cube,
                                        match_length, dice_units) for _ in range(n)]
        d = self.drivers[0]
        self.afterstate = actions == "afterstate"
        self.head = k + d.extra                  # the agent's units, cube and match units
        self.obs_size = self.head + (max_candidates * k if self.afterstate else 0)
        self.mask_size = d.nact
        self.seed = 0
        self.obs = np.zeros((n, self.obs_size), dtype=np.float32)
        self.final_obs = np.zeros((n, self.obs_size), dtype=np.float32)
        self.mask = np.zeros((n, self.mask_size), dtype=np.uint8)
        self.reward = np.zeros(n, dtype=np.float32)
        self.terminated = np.zeros(n, dtype=np.uint8)
        self.truncated = np.zeros(n, dtype=np.uint8)
        self.episode = np.zeros(n, dtype=np.uint64)
        self.status = np.zeros(n, dtype=np.int32)     # no opponent turn is ever left pending
        self.to_play = np.zeros(n, dtype=np.uint8)
        self.dice = np.zeros((n, 2), dtype=np.uint8)
        self.cube = np.ones(n, dtype=np.int64)
        self.score = np.zeros((n, 2), dtype=np.int64)
        self._pick = np.random.default_rng(0)

    def reset(self, seed: int) -> None:
        self.seed = seed
        self._pick = np.random.default_rng([seed, 0x5851F42D])
        self.reward[:] = 0
        self.terminated[:] = 0
        self.truncated[:] = 0
        self.episode[:] = 0
        for i in range(self.n):
            self._begin(i)

    def _begin(self, i: int) -> None:
        self.drivers[i].reset(self.seed + (int(self.episode[i]) << 64) + (i << 128))
        self._show(i)

    def _show(self, i: int, row: np.ndarray | None = None) -> None:
        """Writes slot i's observation (into ``row``: the final one), mask and info."""
        d = self.drivers[i]
        obs, cands = d.observation()
        out = self.obs[i] if row is None else row
        out[:self.head] = obs
        if cands is not None:
            out[self.head:] = cands.reshape(-1)
        if row is None:
            self.mask[i] = d.mask()
            game = d.game
            self.cube[i] = game.cube
            self.score[i] = game.score
            self.dice[i] = d.dice

    def step(self, actions: np.ndarray, autoreset: bool = True) -> np.ndarray:
        """One id per slot; returns the slots whose id was not legal (they did not move)."""
        bad = []
        self.reward[:] = 0
        self.terminated[:] = 0
        self.truncated[:] = 0
        for i in range(self.n):
            a = int(actions[i])
            if not 0 <= a < self.mask_size or not self.mask[i, a]:
                bad.append(i)
                continue
            d = self.drivers[i]
            self.reward[i] = d.act(a)
            if d.done:
                self.terminated[i], self.truncated[i] = d.terminated, d.truncated
                self._show(i, self.final_obs[i])
                if autoreset:
                    self.episode[i] += 1
                    self._begin(i)
                    continue
            self._show(i)
        return np.asarray(bad, dtype=np.int64)

    def sample_actions(self, logits: np.ndarray | None = None) -> np.ndarray:
        """One random legal id per slot, from a stream of the reset seed: uniformly,
        or from the softmax of ``logits`` (float64 ``(n, mask_size)``) over the legal
        ids.  When a slot's legal logits are NaN, +inf or all -inf, nothing is
        drawn: that slot's row is -2, the others -1 (as the core's VecEnv)."""
        out = np.full(self.n, -1, dtype=np.int64)
        legal = [np.flatnonzero(m) for m in self.mask]
        if logits is not None:
            for i, ids in enumerate(legal):
                x = logits[i, ids]
                if len(ids) and (np.isnan(x).any() or (x == np.inf).any()
                                 or (x == -np.inf).all()):
                    out[i] = -2
                    return out
        for i, ids in enumerate(legal):
            if not len(ids):
                continue
            if logits is None:
                out[i] = ids[self._pick.integers(len(ids))]
            else:
                x = logits[i, ids]
                p = np.exp(x - x.max())
                out[i] = ids[self._pick.choice(len(ids), p=p / p.sum())]
        return out

    def get_state(self) -> dict[str, Any]:
        arrays = {name: getattr(self, name).copy() for name in _ARRAYS}
        return {"seed": self.seed, "drivers": copy.deepcopy(self.drivers),
                "pick": copy.deepcopy(self._pick), **arrays}

    def set_state(self, state: dict[str, Any]) -> None:
        self.seed = state["seed"]
        self.drivers = copy.deepcopy(state["drivers"])
        self._pick = copy.deepcopy(state["pick"])
        for name in _ARRAYS:
            getattr(self, name)[...] = state[name]


_ARRAYS = ("obs", "final_obs", "mask", "reward", "terminated", "truncated", "episode", "cube",
           "score", "dice")
