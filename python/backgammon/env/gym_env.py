"""A Gymnasium environment: the agent (seat 0) against an opponent.

    >>> from backgammon.env import BackgammonEnv
    >>> env = BackgammonEnv(opponent="random", encoding="pgx", actions="micro")
    >>> obs, info = env.reset(seed=1)
    >>> obs.shape, info["action_mask"].shape, info["dice"]
    ((34,), (156,), (4, 1))
    >>> BackgammonEnv(opponent="random").observation_space.shape  # 198 + 6 dice units
    (204,)

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

The env is registered with Gymnasium as ``"backgammon/Backgammon-v0"``
(``gymnasium.make``, with keyword arguments as above).
"""

from __future__ import annotations

import copy
from typing import Any, Callable, TypeVar

import numpy as np

from backgammon import _bgcore
from backgammon.env._checks import action_id, check_playable, game_option, seed_value
from backgammon.env.cube_match import CubeMatchDriver, check_options, illegal
from backgammon.env.encoders import encoding_kind, encoding_size
from backgammon.env.opponents import EXTERNAL, core_opponent, python_chooser
from backgammon.errors import IllegalActionError, InvalidSetupError
from backgammon.game import Game
from backgammon.position import Position

try:
    import gymnasium
    from gymnasium import spaces
except ImportError as e:  # pragma: no cover - the optional extra
    raise ImportError("backgammon.env.BackgammonEnv needs gymnasium: "
                      "pip install 'backgammon[env]'") from e

ACTIONS = {"micro": 0, "openspiel": 1, "afterstate": 2}
_T = TypeVar("_T")


def _action_kind(actions: Any) -> int:
    if actions not in ACTIONS:
        raise InvalidSetupError(f"unknown action space {actions!r}: use {sorted(ACTIONS)}")
    return ACTIONS[actions]


def _obs_box(encoding: str, shape: tuple[int, ...]) -> Any:
    bound = 15.0  # every unit of every encoding lies in -15..15 (docs/env.md)
    return spaces.Box(-bound, bound, shape=shape, dtype=np.float32)


def dice_units_for(encoding: str, actions: str, dice_units: Any) -> bool:
    """Whether observations end with the 6 dice units: by default yes, except for
    afterstate actions (the candidates show every result of the roll) and the
    ``"pgx"`` encoding (whose units 28..33 are already the dice still to play)."""
    if dice_units is None:
        return actions != "afterstate" and encoding != "pgx"
    if not isinstance(dice_units, (bool, np.bool_)):
        raise InvalidSetupError(f"dice_units is True, False or None, got {dice_units!r}"[:300])
    if dice_units and actions == "afterstate":
        raise InvalidSetupError("dice_units=True needs the 'micro' or 'openspiel' actions: the "
                                "afterstate observation lists every result of the roll")
    return bool(dice_units)


class BackgammonEnv(gymnasium.Env[Any, np.int64]):  # observation: an array, or a dict of two
    """Backgammon for one agent against ``opponent``.

    ``opponent``: ``"net"`` (the bundled nets), ``"pubeval"``, ``"random"``,
    an :class:`~backgammon.Evaluator` (all played in the core), a callable
    scoring candidate results (int8 ``(m, 26)`` -> ``m`` scores) or a Bot.
    ``encoding``: see :func:`backgammon.encode`.  ``actions``: ``"micro"``,
    ``"openspiel"`` or ``"afterstate"`` (with ``max_candidates`` slots).
    ``info`` holds ``action_mask``, ``dice`` (as rolled), ``dice_left``,
    ``position`` (the agent's, steps of this turn included) and
    ``episode_index`` (episodes begun since the seed; ``info["episode"]`` is
    left to Gymnasium's ``RecordEpisodeStatistics`` and SB3).  An id
    outside the mask changes nothing: with ``illegal_action="ignore"`` the
    step returns reward 0 and ``info["illegal_action"] = True``, with
    ``"raise"`` it raises :class:`~backgammon.IllegalActionError`.
    ``cube`` and ``match_length``: cubeful money play and match play
    (``docs/env.md``: ids, the extra observation units, the rewards).
    ``dice_units`` (default: on, but for afterstate actions and ``"pgx"``)
    appends 6 units, how many dice of each face 1..6 the agent has still to
    play this turn.  An exception raised by the opponent inside ``step`` or
    ``reset`` propagates, and the env then demands ``reset()``.

    The env can be copied (``copy.deepcopy``, sharing the opponent) and
    pickled (when its opponent can be), and ``clone_state()`` /
    ``restore_state(state)`` save and restore the game in progress (search).

        >>> env = BackgammonEnv(opponent="random", seed=3)
        >>> obs, info = env.reset()
        >>> saved = env.clone_state()
        >>> a = int(np.flatnonzero(info["action_mask"])[0])
        >>> first = env.step(a)[0]
        >>> env.restore_state(saved)
        >>> bool((env.step(a)[0] == first).all())
        True
    """

    metadata = {"render_modes": ["ansi"]}

    def __init__(self, opponent: Any = "net", encoding: str = "tesauro", actions: str = "micro",
                 seed: int | None = None, max_candidates: int = 1024,
                 illegal_action: str = "ignore", render_mode: str | None = None,
                 cube: bool = False, match_length: int | None = None,
                 dice_units: bool | None = None) -> None:
        enc = encoding_kind(encoding)
        act = _action_kind(actions)
        dice = dice_units_for(encoding, actions, dice_units)
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
        self._opponent, self._enc, self._act, self.dice_units = opponent, enc, act, dice
        self._k, self._max_candidates = k, max_candidates
        self._driver: CubeMatchDriver | None = None   # the cube or a match: always
        self._active: CubeMatchDriver | None = None   # this episode's driver, if any
        if core is None:
            python_chooser(opponent)  # refuses an unknown opponent now
        if self.cube or self.match_length:
            # the cube or a match: the rules of Game/Match, driven in Python (cube_match.py)
            self._driver = CubeMatchDriver(opponent, enc, k, actions, max_candidates,
                                           self.cube, self.match_length, dice)
            nact, kobs = self._driver.nact, k + self._driver.extra
        else:
            self._make_core()
            nact, kobs = self._core.mask_size, self._core.obs_size
            if actions == "afterstate":
                kobs = k
        if actions == "afterstate":
            self.observation_space = spaces.Dict({
                "observation": _obs_box(encoding, (kobs,)),
                "candidates": _obs_box(encoding, (max_candidates, k))})
        else:
            self.observation_space = _obs_box(encoding, (kobs,))
        self.action_space = spaces.Discrete(nact)
        self._nact = nact
        self._seed = seed_value(seed)
        self._started = False
        self._done = True
        self._episode = 0
        self._broken: str | None = None   # what the opponent raised: reset() is due

    def _make_core(self) -> None:
        core = core_opponent(self._opponent)
        self._choose = None if core is not None else python_chooser(self._opponent)
        code, nets = core if core is not None else (EXTERNAL, None)
        self._core = _bgcore.VecEnv(1, self._act, self._enc, code, nets, None,
                                    self._max_candidates, 1, self.dice_units)

    # -- Gymnasium API ---------------------------------------------------

    def reset(self, *, seed: int | None = None, options: dict[str, Any] | None = None
              ) -> tuple[Any, dict[str, Any]]:
        """Begins the next game (or match); ``seed`` restarts the dice streams.

        ``options={"game": game}`` plays on from a copy of ``game`` (a money
        :class:`~backgammon.Game` waiting for the opening, a roll, an answer to a
        double or a play, its rules' cube matching the env's), the agent holding
        its player 0, with this env's dice; other keys of ``options`` are ignored.
        """
        game = self._start_game(options)
        if seed is not None:
            seed = seed_value(seed)
        super().reset(seed=seed)
        self._broken = None
        if self._driver is not None or game is not None:
            if self._driver is None:
                self._active = CubeMatchDriver(self._opponent, self._enc, self._k, self.actions,
                                               self._max_candidates, False, None,
                                               self.dice_units)
            else:
                self._active = self._driver
            return self._guarded(lambda: self._driver_reset(seed, game))
        self._active = None
        if seed is not None or not self._started:
            if seed is not None:
                self._seed = seed
            self._core.reset(self._seed)
            self._episode = 0
            self._started = True
        else:
            self._core.next_episode(0)
            self._episode += 1
        self._guarded(self._play_opponent)
        self._done = bool(self._core.terminated[0] or self._core.truncated[0])
        return self._observation(), self._info()

    def step(self, action: Any) -> tuple[Any, float, bool, bool, dict[str, Any]]:
        if self._broken is not None:
            raise IllegalActionError(f"the last step or reset raised {self._broken} (the "
                                     "opponent's or the game's error); the game cannot go on: "
                                     "call reset()")
        if self._done:
            raise IllegalActionError("the game is over: call reset()")
        a = action_id(action, self._nact)
        if self._active is not None:
            return self._guarded(lambda: self._driver_step(a))
        bad = self._core.step(np.array([a], dtype=np.int64), False)
        if len(bad):
            if self.illegal_action == "raise":
                legal = np.flatnonzero(self._core.mask[0]).tolist()
                raise IllegalActionError(f"action {a} is not legal now (legal: {legal[:40]}"
                                         f"{' ...' if len(legal) > 40 else ''}); nothing changed")
            info = self._info()
            info["illegal_action"] = True
            return self._observation(), 0.0, False, False, info
        self._guarded(self._play_opponent)
        reward = float(self._core.reward[0])
        terminated = bool(self._core.terminated[0])
        truncated = bool(self._core.truncated[0])
        self._done = terminated or truncated
        return self._observation(), reward, terminated, truncated, self._info()

    def render(self) -> str | None:
        if self.render_mode != "ansi":
            return None
        if self._active is not None:
            return str(self._active.game.board(0))
        return str(self._info()["position"])

    def action_masks(self) -> np.ndarray:
        """The legal ids now (for maskable policies)."""
        if self._done:
            return np.zeros(self._nact, dtype=bool)
        if self._active is not None:
            return self._active.mask()
        return np.array(self._core.mask[0], dtype=bool)  # a copy: the core reuses its mask

    # -- copies and saved states ---------------------------------------------

    def clone_state(self) -> dict[str, Any]:
        """The game in progress (dice streams, opponent's randomness, episode
        count), for :meth:`restore_state` on this env or a copy of it."""
        state = self.__getstate__()
        keep = {id(self._opponent): self._opponent}   # the opponent is shared, not copied
        return copy.deepcopy({k: state[k] for k in _STATE_KEYS if k in state}, keep)

    def restore_state(self, state: dict[str, Any]) -> None:
        """Returns to a :meth:`clone_state` of an env made with the same arguments."""
        if not isinstance(state, dict) or state.get("_config") != self._config():
            raise InvalidSetupError("restore_state takes a clone_state() of an env made with "
                                    "the same arguments")
        keep = {id(self._opponent): self._opponent}
        state = copy.deepcopy(state, keep)
        core = state.pop("_core_state", None)
        state.pop("_config")
        self.__dict__.update(state)
        if core is not None:
            self._core.set_state(core)

    def _config(self) -> tuple[Any, ...]:
        return (self.encoding, self.actions, self._max_candidates, self.cube,
                self.match_length, self.dice_units, type(self._opponent).__name__)

    def __getstate__(self) -> dict[str, Any]:
        state = self.__dict__.copy()
        core = state.pop("_core", None)
        state.pop("_choose", None)
        state["_core_state"] = None if core is None else core.get_state()
        state["_config"] = self._config()
        return state

    def __setstate__(self, state: dict[str, Any]) -> None:
        state = dict(state)
        core = state.pop("_core_state", None)
        state.pop("_config", None)
        self.__dict__.update(state)
        if core is not None:
            self._make_core()
            self._core.set_state(core)

    def __deepcopy__(self, memo: dict[int, Any]) -> BackgammonEnv:
        memo.setdefault(id(self._opponent), self._opponent)  # a policy: shared by the copies
        new = type(self).__new__(type(self))
        new.__setstate__(copy.deepcopy(self.__getstate__(), memo))
        return new

    # -- internals ---------------------------------------------------------

    def _guarded(self, fn: Callable[[], _T]) -> _T:
        """Runs ``fn``; if the opponent (or anything) raises, the env demands reset()."""
        try:
            return fn()
        except BaseException as e:
            self._broken = f"{type(e).__name__}: {str(e)[:200]}"
            self._done = True
            raise

    def _start_game(self, options: Any) -> Game | None:
        """``options["game"]`` checked for this env, or None (other keys are not ours)."""
        game = game_option(options)
        if game is None:
            return None
        if self.match_length:
            raise InvalidSetupError("an episode of this env is a whole match from 0-0: "
                                    "options['game'] is for money play")
        if game.match_length:
            raise InvalidSetupError("options['game'] must be a money game (this env has no "
                                    f"match), got a game of a {game.match_length}-point match")
        check_playable(game, self.cube)
        return game

    def _driver_reset(self, seed: int | None, game: Game | None = None
                      ) -> tuple[Any, dict[str, Any]]:
        # episode e of seed s draws its dice from (s, e): reproducible like the core's slots
        assert self._active is not None
        if seed is not None or not self._started:
            if seed is not None:
                self._seed = seed
            self._episode = 0
            self._started = True
            if self._driver is None:
                self._core.reset(self._seed)    # the next plain episode follows from here
        else:
            self._episode += 1
            if self._driver is None:
                self._core.next_episode(0)
        self._active.reset(self._seed + (self._episode << 64), game)
        self._done = self._active.done
        return self._driver_observation(), self._driver_info()

    def _driver_step(self, a: int) -> tuple[Any, float, bool, bool, dict[str, Any]]:
        d = self._active
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
        assert self._active is not None
        obs, cands = self._active.observation()
        return obs if cands is None else {"observation": obs, "candidates": cands}

    def _driver_info(self) -> dict[str, Any]:
        assert self._active is not None
        info = self._active.info()
        info["action_mask"] = self._active.mask()
        info["episode_index"] = self._episode
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
                "episode_index": self._episode}


# what clone_state keeps: the game in progress, not the env's configuration
_STATE_KEYS = ("_core_state", "_config", "_active", "_driver", "_seed", "_started", "_done",
               "_episode", "_broken", "_np_random", "_np_random_seed")


def _register() -> None:
    """``gymnasium.make("backgammon/Backgammon-v0", **kwargs)``."""
    if "backgammon/Backgammon-v0" not in gymnasium.registry:
        gymnasium.register("backgammon/Backgammon-v0",
                           entry_point="backgammon.env.gym_env:BackgammonEnv")


_register()
