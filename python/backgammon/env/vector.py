"""N games stepped in lockstep in the core: a ``gymnasium.vector.VectorEnv``.

    >>> import numpy as np
    >>> from backgammon.env import VectorEnv
    >>> venv = VectorEnv(4, opponent="random", encoding="pgx", seed=1)
    >>> obs, infos = venv.reset(seed=1)
    >>> obs.shape, infos["action_mask"].shape
    ((4, 34), (4, 156))
    >>> a = np.array([np.flatnonzero(m)[0] for m in venv.action_masks()])
    >>> obs, rewards, terminations, truncations, infos = venv.step(a)

Slot ``k`` plays the same games as ``BackgammonEnv(seed=s)`` would in slot
0 only for ``k = 0``; every slot draws its dice from streams seeded by
``(seed, k, episode)``, so results depend on the seed alone.  A finished
game is reset in the same step (Gymnasium's ``AutoresetMode.SAME_STEP``):
the step returns its reward and flags with the first observation of the
next game, and the game's last observation in ``infos["final_obs"]``.  Built-in opponents (``"net"``, ``"pubeval"``, ``"random"``, an
Evaluator) play in the core without the GIL; a Python opponent (a callable
scoring candidate results, or a Bot) is called by :class:`VectorEnv` for
the pending turns of all games at once: a scoring callable gets every
game's candidates in one array, once per round of opponent turns.
``opponent="self"`` is self-play: the agent makes the steps of both seats,
each observation seen from the player to act (``infos["to_play"]``, its
seat), and a game's points are the reward of the step that ended it (the
winner's last step: +1, 2 or 3 for the player who acted).
With ``cube=True`` or ``match_length=N`` the games are those of
``BackgammonEnv(cube=..., match_length=...)`` (ids, observations, rewards;
``infos`` adds ``cube`` and, in match play, ``score``), stepped from Python
one game at a time (:mod:`backgammon.env.cube_vector`): the same API at the
single env's speed.
"""

from __future__ import annotations

import copy
from typing import Any

import numpy as np

from backgammon import _bgcore
from backgammon.env._checks import seed_value
from backgammon.env.cube_match import check_options
from backgammon.env.cube_vector import CubeMatchGames
from backgammon.env.encoders import encoding_kind, encoding_size
from backgammon.env.gym_env import dice_units_for
from backgammon.env.opponents import EXTERNAL, core_opponent, python_chooser
from backgammon.errors import IllegalActionError, InvalidSetupError
from backgammon.position import Position

try:
    import gymnasium
    from gymnasium import spaces
    from gymnasium.vector import AutoresetMode
    from gymnasium.vector.utils import batch_space
except ImportError as e:  # pragma: no cover - the optional extra
    raise ImportError("backgammon.env.VectorEnv needs gymnasium: "
                      "pip install 'backgammon[env]'") from e

ACTIONS = {"micro": 0, "openspiel": 1, "afterstate": 2}
_OPPONENT_TO_MOVE = 200   # the core's status of a slot whose Python opponent is due


class VectorEnv(gymnasium.vector.VectorEnv):
    """``n`` games against ``opponent``, stepped in the core.

    ``opponent``: ``"net"``, ``"pubeval"``, ``"random"``, an Evaluator, a
    scoring callable, a Bot, or ``"self"`` (self-play, see the module doc).
    ``threads`` > 1 steps equal shares of the games on that many threads
    (without the GIL); the games are the same for any number of threads.
    ``dice_units`` as for :class:`BackgammonEnv` (6 units: the dice still to
    play by face; on by default but for afterstate actions and ``"pgx"``).

    ``reset(seed=None) -> (obs, infos)`` and ``step(actions) -> (obs, rewards,
    terminations, truncations, infos)`` with numpy arrays; ``infos`` holds
    ``action_mask`` (bool ``(n, ids)``), ``episode_index`` (episodes begun
    per slot since the seed), ``illegal`` (bool ``(n,)``: the slots whose
    id was refused, they did not move) and ``dice`` (uint8 ``(n, 2)``: the
    dice of each game's turn in progress as rolled, the chance outcome the
    agent faces; 0, 0 at a cube decision); every value has one row per game,
    as Gymnasium's vector wrappers (``DictInfoToList``) expect.  The arrays returned are views the next call
    overwrites: copy to keep.  ``action_masks()`` gives the masks (maskable
    policies).  In a step where games end (same-step autoreset, as
    Gymnasium 1.x defines it) ``infos`` adds ``final_obs`` (an object array:
    the last observation of each finished game, the final board seen by the
    agent without dice, None elsewhere), ``final_info`` (``episode_index`` of
    the finished games) and the masks ``_final_obs`` and ``_final_info``.  ``clone_state()`` /
    ``restore_state()`` save and restore every game, and the env can be
    pickled and deep-copied.

        >>> venv = VectorEnv(2, opponent="random", seed=5)
        >>> _ = venv.reset()
        >>> saved = venv.clone_state()
        >>> first = venv.step(venv.sample_actions())[0].copy()
        >>> venv.restore_state(saved)
        >>> bool((venv.step(venv.sample_actions())[0] == first).all())
        True
    """

    metadata = {"autoreset_mode": AutoresetMode.SAME_STEP}

    def __init__(self, n: int, opponent: Any = "net", encoding: str = "tesauro",
                 actions: str = "micro", seed: int | None = None,
                 max_candidates: int = 1024, threads: int = 1, cube: bool = False,
                 match_length: int | None = None, dice_units: bool | None = None) -> None:
        if isinstance(n, bool) or not isinstance(n, int) or n < 1:
            raise InvalidSetupError(f"n is the number of games, an integer >= 1, got {n!r}")
        cube, match_length = check_options(cube, match_length)
        if (cube or match_length) and isinstance(opponent, str) and opponent == "self":
            raise InvalidSetupError("self-play is cubeless money play: opponent='self' takes "
                                    "neither cube=True nor match_length")
        if (cube or match_length) and threads != 1:
            raise InvalidSetupError("cube and match games are stepped in Python, on one "
                                    f"thread: threads must be 1, got {threads!r}")
        self.cube, self.match_length = cube, match_length
        if actions not in ACTIONS:
            raise InvalidSetupError(f"unknown action space {actions!r}: use {sorted(ACTIONS)}")
        enc = encoding_kind(encoding)
        if isinstance(threads, bool) or not isinstance(threads, int) or not 1 <= threads <= 256:
            raise InvalidSetupError(f"threads is an integer 1..256, got {threads!r}")
        if isinstance(max_candidates, bool) or not isinstance(max_candidates, int) \
                or not 1 <= max_candidates <= 1 << 16:
            raise InvalidSetupError(f"max_candidates is an integer 1..65536, got {max_candidates!r}")
        self.dice_units = dice_units_for(encoding, actions, dice_units)
        self.num_envs = n
        self.encoding, self.actions = encoding, actions
        self._opponent = opponent
        self._args = (n, ACTIONS[actions], enc, max_candidates, threads)
        self._make_core()
        self._k = encoding_size(encoding)
        self._seed = seed_value(seed) if seed is not None else None
        self._started = False
        self._broken: str | None = None
        self._illegal = np.zeros(n, dtype=bool)
        bound = 15.0  # every unit of every encoding lies in -15..15 (docs/env.md)
        self.single_observation_space = spaces.Box(-bound, bound, shape=(self._core.obs_size,),
                                                   dtype=np.float32)
        self.single_action_space = spaces.Discrete(self._core.mask_size)
        self.observation_space = batch_space(self.single_observation_space, n)
        self.action_space = batch_space(self.single_action_space, n)

    def _make_core(self) -> None:
        n, act, enc, max_candidates, threads = self._args
        self._core: _bgcore.VecEnv | CubeMatchGames
        if self.cube or self.match_length:
            if core_opponent(self._opponent) is None:
                python_chooser(self._opponent)  # refuses an unknown opponent now
            self._choose, self._batched = None, False
            self._core = CubeMatchGames(n, self._opponent, enc, encoding_size(self.encoding),
                                        self.actions, max_candidates, self.cube,
                                        self.match_length, self.dice_units)
            return
        if isinstance(self._opponent, str) and self._opponent == "self":
            self._choose, self._batched = None, False
            self._core = _bgcore.VecEnv(n, act, enc, _bgcore.OPP_SELF, None, None,
                                        max_candidates, threads, self.dice_units)
            return
        core = core_opponent(self._opponent)
        self._choose = None if core is not None else python_chooser(self._opponent)
        # a scoring callable without context keywords is batched over all games
        from backgammon.env.duel_loop import wants_context
        self._batched = (core is None and not hasattr(self._opponent, "choose_play")
                         and not wants_context(self._opponent))
        code, nets = core if core is not None else (EXTERNAL, None)
        self._core = _bgcore.VecEnv(n, act, enc, code, nets, None, max_candidates, threads,
                                    self.dice_units)

    # -- Gymnasium's vector API ------------------------------------------------

    def reset(self, *, seed: int | None = None, options: dict[str, Any] | None = None
              ) -> tuple[np.ndarray, dict[str, Any]]:
        """Begins a game in every slot; ``seed`` (0 .. 2**64 - 1) seeds the dice."""
        if seed is not None:
            self._seed = seed_value(seed)
        if self._seed is None:
            self._seed = seed_value(None)
        super().reset(seed=self._seed)
        self._started = True
        self._broken = None
        self._guarded(lambda: self._core.reset(self._seed))
        self._play_opponents()
        self._illegal = np.zeros(self.num_envs, dtype=bool)
        return self._core.obs, self._infos()

    def step(self, actions: Any) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray,
                                          dict[str, Any]]:
        """One id per game (int ``(n,)``); a game whose id is not legal does not move."""
        if not self._started:
            raise IllegalActionError("call reset() before step()")
        if self._broken is not None:
            raise IllegalActionError(f"the opponent raised {self._broken} in the last step or "
                                     "reset; its games cannot go on: call reset()")
        a = np.asarray(actions)
        if a.shape != (self.num_envs,) or not np.issubdtype(a.dtype, np.integer):
            raise IllegalActionError(f"step needs {self.num_envs} integer ids, got shape "
                                     f"{a.shape} of {a.dtype}")
        self._illegal = np.zeros(self.num_envs, dtype=bool)
        self._illegal[self._guarded(
            lambda: self._core.step(np.ascontiguousarray(a, dtype=np.int64), True))] = True
        self._play_opponents()
        term, trunc = self._core.terminated.view(bool), self._core.truncated.view(bool)
        infos = self._infos()
        done = term | trunc
        if done.any():
            # Gymnasium's same-step autoreset: the finished games' last observations
            final = np.full(self.num_envs, None, dtype=object)
            for i in np.flatnonzero(done):
                final[i] = self._core.final_obs[i].copy()
            infos["final_obs"], infos["_final_obs"] = final, done.copy()
            ended = np.where(done, self._core.episode.astype(np.int64) - 1, 0)
            infos["final_info"] = {"episode_index": ended, "_episode_index": done.copy()}
            infos["_final_info"] = done.copy()
        return self._core.obs, self._core.reward, term, trunc, infos

    def action_masks(self) -> np.ndarray:
        """bool ``(n, ids)``: the legal ids of every game now (a view)."""
        return self._core.mask.view(bool)

    def sample_actions(self, logits: Any = None) -> np.ndarray:
        """One random legal id per game (int64 ``(n,)``), drawn in the core from
        streams of the reset seed: uniformly, or from the softmax of ``logits``
        (``(n, ids)``, a policy's scores) over each game's legal ids, so a masked
        categorical policy samples without building its own noise.  A logit of
        -inf gives its id no chance; NaN, +inf or no finite legal logit raise.

            >>> import numpy as np
            >>> venv = VectorEnv(2, opponent="random", encoding="pgx", seed=3)
            >>> obs, infos = venv.reset()
            >>> a = venv.sample_actions(np.zeros((2, 156)))   # uniform over the legal ids
            >>> bool(venv.action_masks()[np.arange(2), a].all())
            True
        """
        if not self._started:
            raise IllegalActionError("call reset() before sample_actions()")
        if logits is None:
            return self._core.sample_actions()
        shape = (self.num_envs, int(self._core.mask_size))
        try:
            lg = np.ascontiguousarray(logits, dtype=np.float64)
        except (TypeError, ValueError) as e:
            raise InvalidSetupError(f"logits must be numbers of shape {shape}: {e}"[:300]) from e
        if lg.shape != shape:
            raise InvalidSetupError(f"logits must have shape {shape}, got {lg.shape}")
        out = self._core.sample_actions(lg)
        bad = np.flatnonzero(out == -2)
        if len(bad):
            raise InvalidSetupError(f"the logits of game {int(bad[0])} give its legal ids no "
                                    "distribution (NaN, +inf, or -inf for every legal id)")
        return out

    def _infos(self) -> dict[str, Any]:
        infos = {"action_mask": self._core.mask.view(bool), "episode_index": self._core.episode,
                 "illegal": self._illegal, "dice": self._core.dice}
        if self._core.selfplay:
            infos["to_play"] = self._core.to_play
        if isinstance(self._core, CubeMatchGames):
            infos["cube"] = self._core.cube
            if self.match_length:
                infos["score"] = self._core.score
        return infos

    # -- Python opponents, all games at once ----------------------------------

    def _play_opponents(self) -> None:
        if self._choose is not None:
            self._guarded(self._opponent_rounds)

    def _guarded(self, run: Any) -> Any:
        """``run()``; if it raises (an opponent did: some games moved, others wait for
        its turns), the env refuses to step until reset(), as BackgammonEnv does."""
        try:
            return run()
        except BaseException as e:
            self._broken = f"{type(e).__name__}: {str(e)[:200]}"
            raise

    def _opponent_rounds(self) -> None:
        core = self._core
        assert self._choose is not None and isinstance(core, _bgcore.VecEnv)
        while True:
            due = np.flatnonzero(core.status == _OPPONENT_TO_MOVE)
            if not len(due):
                return
            turns = [core.opponent_turn(int(i)) for i in due]
            positions = [Position.from_array(np.frombuffer(b, dtype=np.int8)) for b, _, _ in turns]
            if self._batched:
                results = self._batched_choices(positions, [(d1, d2) for _, d1, d2 in turns])
            else:
                results = [self._choose(p, (d1, d2), 1).result.to_array().tobytes()
                           for p, (_, d1, d2) in zip(positions, turns)]
            for i, after in zip(due, results):
                core.opponent_done(int(i), after, True)

    def _batched_choices(self, positions: list[Position], dice: list[tuple[int, int]]
                         ) -> list[bytes]:
        """One call of the scoring callable for the candidates of all pending games."""
        boards = [p.successors(d) for p, d in zip(positions, dice)]
        counts = [len(b) for b in boards]
        scores = np.asarray(self._opponent(np.concatenate(boards)), dtype=np.float64).reshape(-1)
        if scores.shape != (sum(counts),) or not np.isfinite(scores).all():
            raise InvalidSetupError(f"the opponent callable must return {sum(counts)} finite "
                                    f"scores, got shape {scores.shape}")
        out, start = [], 0
        for b, m in zip(boards, counts):
            out.append(b[int(np.argmax(scores[start:start + m]))].tobytes())
            start += m
        return out

    # -- copies and saved states -----------------------------------------------

    def clone_state(self) -> dict[str, Any]:
        """Every game's state (dice streams included), for :meth:`restore_state`."""
        return {"config": self._config(), "core": self._core.get_state(), "seed": self._seed,
                "started": self._started, "illegal": self._illegal.copy()}

    def restore_state(self, state: dict[str, Any]) -> None:
        """Returns to a :meth:`clone_state` of a VectorEnv made with the same arguments."""
        if not isinstance(state, dict) or state.get("config") != self._config():
            raise InvalidSetupError("restore_state takes a clone_state() of a VectorEnv made "
                                    "with the same arguments")
        self._core.set_state(copy.deepcopy(state["core"]))
        self._seed, self._started = state["seed"], state["started"]
        self._illegal = state["illegal"].copy()

    def _config(self) -> tuple[Any, ...]:
        return (self._args, self.encoding, self.actions, self.dice_units, self.cube,
                self.match_length, type(self._opponent).__name__)

    def __getstate__(self) -> dict[str, Any]:
        state = self.__dict__.copy()
        state["_core"] = self._core.get_state()
        state.pop("_choose", None)
        return state

    def __setstate__(self, state: dict[str, Any]) -> None:
        state = dict(state)
        core = state.pop("_core")
        self.__dict__.update(state)
        self._make_core()
        self._core.set_state(core)

    def __deepcopy__(self, memo: dict[int, Any]) -> VectorEnv:
        memo.setdefault(id(self._opponent), self._opponent)  # a policy: shared by the copies
        new = type(self).__new__(type(self))
        new.__setstate__(copy.deepcopy(self.__getstate__(), memo))
        return new

    def close_extras(self, **kwargs: Any) -> None:
        pass
