"""A Gymnasium environment: the agent (seat 0) against an opponent.

    >>> from backgammon.env import BackgammonEnv
    >>> env = BackgammonEnv(opponent="random", encoding="pgx", actions="micro")
    >>> obs, info = env.reset(seed=1)
    >>> obs.shape, info["action_mask"].shape, info["dice"]
    ((34,), (156,), (4, 1))

Each step is one decision of the agent: a checker step (``"micro"``, Pgx's
156 ids), a half-turn (``"openspiel"``, OpenSpiel's 1,352 ids) or a whole
play (``"afterstate"``: an index among the roll's distinct results, every
one encoded in the observation).  The opponent's turns, the opening roll
(ties rolled again) and turns without a legal step happen inside ``step``.
The reward is the agent's points when the game ends (+-1, 2 or 3).
``cube=True`` adds the doubling cube (ids ``roll``, ``double``, ``take``,
``drop`` after the play ids; rewards are points times the cube) and
``match_length=N`` makes an episode a whole match (rewards in match
equity, summing to +1 or -1); see :mod:`backgammon.env.cube_match`.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from backgammon import _bgcore
from backgammon.env.cube_match import CubeMatchDriver, check_options, illegal
from backgammon.env.encoders import encoding_kind, encoding_size
from backgammon.env.opponents import EXTERNAL, core_opponent, python_chooser
from backgammon.errors import IllegalActionError, InvalidSetupError
from backgammon.position import Position

try:
    import gymnasium
    from gymnasium import spaces
except ImportError as e:  # pragma: no cover - the optional extra
    raise ImportError("backgammon.env.BackgammonEnv needs gymnasium: "
                      "pip install 'backgammon[env]'") from e

ACTIONS = {"micro": 0, "openspiel": 1, "afterstate": 2}


def _action_kind(actions: Any) -> int:
    if actions not in ACTIONS:
        raise InvalidSetupError(f"unknown action space {actions!r}: use {sorted(ACTIONS)}")
    return ACTIONS[actions]


def _obs_box(encoding: str, shape: tuple[int, ...]) -> Any:
    bound = 15.0  # every unit of every encoding lies in -15..15 (docs/env.md)
    return spaces.Box(-bound, bound, shape=shape, dtype=np.float32)


def _seed_value(seed: Any) -> int:
    if seed is None:
        return int(np.random.SeedSequence().generate_state(1, np.uint64)[0])
    if isinstance(seed, bool) or not isinstance(seed, (int, np.integer)) or seed < 0:
        raise InvalidSetupError(f"seed is an integer >= 0 or None, got {seed!r}")
    return int(seed) & (2 ** 64 - 1)


class BackgammonEnv(gymnasium.Env[Any, np.int64]):  # observation: an array, or a dict of two
    """Backgammon for one agent against ``opponent``.

    ``opponent``: ``"net"`` (the bundled nets), ``"pubeval"``, ``"random"``,
    an :class:`~backgammon.Evaluator` (all played in the core), a callable
    scoring candidate results (int8 ``(m, 26)`` -> ``m`` scores) or a Bot.
    ``encoding``: see :func:`backgammon.encode`.  ``actions``: ``"micro"``,
    ``"openspiel"`` or ``"afterstate"`` (with ``max_candidates`` slots).
    ``info`` holds ``action_mask``, ``dice`` (as rolled), ``dice_left``
    and ``position`` (the agent's, steps of this turn included).  An id
    outside the mask changes nothing: with ``illegal_action="ignore"`` the
    step returns reward 0 and ``info["illegal_action"] = True``, with
    ``"raise"`` it raises :class:`~backgammon.IllegalActionError`.
    ``cube`` and ``match_length``: cubeful money play and match play
    (``docs/env.md``: ids, the extra observation units, the rewards).
    """

    metadata = {"render_modes": ["ansi"]}

    def __init__(self, opponent: Any = "net", encoding: str = "tesauro", actions: str = "micro",
                 seed: int | None = None, max_candidates: int = 1024,
                 illegal_action: str = "ignore", render_mode: str | None = None,
                 cube: bool = False, match_length: int | None = None) -> None:
        enc = encoding_kind(encoding)
        act = _action_kind(actions)
        self.cube, self.match_length = check_options(cube, match_length)
        if render_mode not in (None, "ansi"):
            raise InvalidSetupError(f"render_mode is None or 'ansi', got {render_mode!r}")
        if isinstance(max_candidates, bool) or not isinstance(max_candidates, int) \
                or not 1 <= max_candidates <= 1 << 16:
            raise InvalidSetupError(f"max_candidates is an integer 1..65536, got {max_candidates!r}")
        if illegal_action not in ("ignore", "raise"):
            raise InvalidSetupError(f"illegal_action is 'ignore' or 'raise', got {illegal_action!r}")
        self.render_mode = render_mode
        self.illegal_action = illegal_action
        self.encoding, self.actions = encoding, actions
        core = core_opponent(opponent)
        k = encoding_size(encoding)
        self._driver: CubeMatchDriver | None = None
        if self.cube or self.match_length:
            # the cube or a match: the rules of Game/Match, driven in Python (cube_match.py)
            if core is None:
                python_chooser(opponent)  # refuses an unknown opponent now
            self._driver = CubeMatchDriver(opponent, enc, k, actions, max_candidates,
                                           self.cube, self.match_length)
            nact, kobs = self._driver.nact, k + self._driver.extra
        else:
            self._choose = None if core is not None else python_chooser(opponent)
            code, nets = core if core is not None else (EXTERNAL, None)
            self._core = _bgcore.VecEnv(1, act, enc, code, nets, None, max_candidates)
            nact, kobs = self._core.mask_size, k
        if actions == "afterstate":
            self.observation_space = spaces.Dict({
                "observation": _obs_box(encoding, (kobs,)),
                "candidates": _obs_box(encoding, (max_candidates, k))})
        else:
            self.observation_space = _obs_box(encoding, (kobs,))
        self.action_space = spaces.Discrete(nact)
        self._nact = nact
        self._k, self._max_candidates = k, max_candidates
        self._seed = _seed_value(seed)
        self._started = False
        self._done = True

    # -- Gymnasium API ---------------------------------------------------

    def reset(self, *, seed: int | None = None, options: dict[str, Any] | None = None
              ) -> tuple[Any, dict[str, Any]]:
        super().reset(seed=seed)
        if self._driver is not None:
            return self._driver_reset(seed)
        if seed is not None or not self._started:
            if seed is not None:
                self._seed = _seed_value(seed)
            self._core.reset(self._seed)
            self._started = True
        else:
            self._core.next_episode(0)
        self._play_opponent()
        self._done = bool(self._core.terminated[0] or self._core.truncated[0])
        return self._observation(), self._info()

    def step(self, action: Any) -> tuple[Any, float, bool, bool, dict[str, Any]]:
        if self._done:
            raise IllegalActionError("the game is over: call reset()")
        try:
            a = int(action)
        except (TypeError, ValueError):
            raise IllegalActionError(f"an action is an integer id, got {action!r}") from None
        if a != action or not 0 <= a < self._nact:
            raise IllegalActionError(f"action {action!r} is not an id of {self.action_space}")
        if self._driver is not None:
            return self._driver_step(a)
        bad = self._core.step(np.array([a], dtype=np.int64), False)
        if len(bad):
            if self.illegal_action == "raise":
                legal = np.flatnonzero(self._core.mask[0]).tolist()
                raise IllegalActionError(f"action {a} is not legal now (legal: {legal[:40]}"
                                         f"{' ...' if len(legal) > 40 else ''}); nothing changed")
            info = self._info()
            info["illegal_action"] = True
            return self._observation(), 0.0, False, False, info
        self._play_opponent()
        reward = float(self._core.reward[0])
        terminated = bool(self._core.terminated[0])
        truncated = bool(self._core.truncated[0])
        self._done = terminated or truncated
        return self._observation(), reward, terminated, truncated, self._info()

    def render(self) -> str | None:
        if self.render_mode != "ansi":
            return None
        if self._driver is not None:
            return str(self._driver.game.board(0))
        return str(self._info()["position"])

    def action_masks(self) -> np.ndarray:
        """The legal ids now (for maskable policies)."""
        if self._driver is not None:
            return self._driver.mask()
        return np.array(self._core.mask[0], dtype=bool)  # a copy: the core reuses its mask

    # -- internals ---------------------------------------------------------

    def _driver_reset(self, seed: int | None) -> tuple[Any, dict[str, Any]]:
        # episode e of seed s draws its dice from (s, e): reproducible like the core's slots
        assert self._driver is not None
        if seed is not None or not self._started:
            if seed is not None:
                self._seed = _seed_value(seed)
            self._episode = 0
            self._started = True
        else:
            self._episode += 1
        self._driver.reset(self._seed + (self._episode << 64))
        self._done = self._driver.done
        return self._driver_observation(), self._driver_info()

    def _driver_step(self, a: int) -> tuple[Any, float, bool, bool, dict[str, Any]]:
        d = self._driver
        assert d is not None
        mask = d.mask()
        if not mask[a]:
            if self.illegal_action == "raise":
                raise illegal(a, mask)
            info = self._driver_info()
            info["illegal_action"] = True
            return self._driver_observation(), 0.0, False, False, info
        reward = d.act(a)
        self._done = d.done
        return (self._driver_observation(), reward, d.terminated, d.truncated,
                self._driver_info())

    def _driver_observation(self) -> Any:
        assert self._driver is not None
        obs, cands = self._driver.observation()
        return obs if cands is None else {"observation": obs, "candidates": cands}

    def _driver_info(self) -> dict[str, Any]:
        assert self._driver is not None
        info = self._driver.info()
        info["action_mask"] = self._driver.mask()
        info["episode"] = self._episode
        return info

    def _play_opponent(self) -> None:
        # an external opponent's turns, until the agent decides or the game ends
        while self._core.status[0] == 200:
            board, d1, d2 = self._core.opponent_turn(0)
            pos = Position.from_array(np.frombuffer(board, dtype=np.int8))
            assert self._choose is not None
            play = self._choose(pos, (d1, d2), 1)
            self._core.opponent_done(0, play.result.to_array().tobytes(), False)

    def _observation(self) -> Any:
        row = self._core.obs[0]
        if self.actions == "afterstate":
            return {"observation": row[:self._k].copy(),
                    "candidates": row[self._k:].reshape(self._max_candidates, self._k).copy()}
        return row.copy()

    def _info(self) -> dict[str, Any]:
        t = self._core.turn(0)
        return {"action_mask": self._core.mask[0].astype(bool),
                "dice": tuple(t.dice), "dice_left": t.left,
                "position": Position.from_array(np.frombuffer(t.board, dtype=np.int8)),
                "episode": int(self._core.episode[0])}
