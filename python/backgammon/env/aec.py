"""A PettingZoo AEC environment: two agents, ``player_0`` and ``player_1``.

    >>> from backgammon.env import aec_env
    >>> env = aec_env(encoding="pgx", actions="micro")
    >>> env.reset(seed=3)
    >>> obs, reward, terminated, truncated, info = env.last()
    >>> sorted(obs), obs["observation"].shape
    (['action_mask', 'observation'], (34,))

The agent on turn acts (checker steps, half-turns or whole plays as in
:class:`~backgammon.env.BackgammonEnv`); observations are from each agent's
own side.  With ``cube=True`` the player on roll first chooses between
``roll`` and ``double`` and a doubled player between ``take`` and ``drop``,
each its own id after the play ids.  Rewards are points (cube value times
1, 2 or 3) for the winner and their negative for the loser.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from backgammon import _bgcore
from backgammon.env.encoders import encoding_kind, encoding_size
from backgammon.errors import IllegalActionError, InvalidSetupError
from backgammon.position import Position

try:
    from gymnasium import spaces
    from pettingzoo import AECEnv
except ImportError as e:  # pragma: no cover - the optional extra
    raise ImportError("backgammon.env.aec_env needs pettingzoo and gymnasium: "
                      "pip install 'backgammon[env]'") from e

_PLAY_IDS = {"micro": 156, "openspiel": 1352}
CUBE_ACTIONS = ("roll", "double", "take", "drop")


def aec_env(**kwargs: Any) -> "BackgammonAEC":
    """A :class:`BackgammonAEC` (keyword arguments as its constructor)."""
    return BackgammonAEC(**kwargs)


class BackgammonAEC(AECEnv):  # type: ignore[misc]
    """Two-player backgammon for PettingZoo.

    ``encoding``: see :func:`backgammon.encode` (oriented by each agent's
    seat); ``actions``: ``"micro"`` or ``"openspiel"``; ``cube``: the
    doubling cube (money play, no limit but 64); ``seed`` for the dice.
    """

    metadata = {"render_modes": ["ansi"], "name": "backgammon_v0", "is_parallelizable": False}

    def __init__(self, encoding: str = "tesauro", actions: str = "micro", cube: bool = False,
                 render_mode: str | None = None) -> None:
        super().__init__()
        if actions not in _PLAY_IDS:
            raise InvalidSetupError(f"unknown action space {actions!r}: use {sorted(_PLAY_IDS)}")
        if cube not in (True, False):
            raise InvalidSetupError(f"cube is True or False, got {cube!r}")
        self._enc = encoding_kind(encoding)
        self.encoding, self.actions, self.cube = encoding, actions, bool(cube)
        self.render_mode = render_mode
        self._nplay = _PLAY_IDS[actions]
        self._nact = self._nplay + (len(CUBE_ACTIONS) if cube else 0)
        k = encoding_size(encoding)
        bound = 15.0  # every unit of every encoding lies in -15..15 (docs/env.md)
        # with the cube: the cube value / 64 and who may double, after the board
        self._k = k + (3 if cube else 0)
        self.possible_agents = ["player_0", "player_1"]
        self.observation_spaces = {a: spaces.Dict({
            "observation": spaces.Box(-bound, bound, shape=(self._k,), dtype=np.float32),
            "action_mask": spaces.Box(0, 1, shape=(self._nact,), dtype=np.int8)})
            for a in self.possible_agents}
        self.action_spaces = {a: spaces.Discrete(self._nact) for a in self.possible_agents}
        self._rng = np.random.default_rng()

    def observation_space(self, agent: str) -> Any:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> Any:
        return self.action_spaces[agent]

    # -- state -------------------------------------------------------------

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        if seed is not None:
            self._rng = np.random.default_rng(seed)
        self.agents = list(self.possible_agents)
        self.rewards = {a: 0 for a in self.agents}
        self._cumulative_rewards = {a: 0 for a in self.agents}
        self.terminations = {a: False for a in self.agents}
        self.truncations = {a: False for a in self.agents}
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
        self._board = Position.initial().to_array()   # seen from the seat on roll
        self._seat = 0
        self._cube_value, self._owner = 1, None        # owner None: centred
        self._phase = "move"                           # "roll" (cube decision), "doubled", "move"
        self._turn = None
        while True:  # RULES 2.1: one die each, ties rolled again
            a, b = (int(x) for x in self._rng.integers(1, 7, size=2))
            if a != b:
                break
        self._seat = 0 if a > b else 1  # the opening position is the same from both sides
        self._begin_turn((a, b) if self._seat == 0 else (b, a))
        self._update_infos()

    def _roll(self) -> tuple[int, int]:
        d = self._rng.integers(1, 7, size=2)
        return int(d[0]), int(d[1])

    def _begin_turn(self, dice: tuple[int, int]) -> None:
        self._phase = "move"
        self._turn = _bgcore.Turn(self._board.tobytes(), self._seat, dice[0], dice[1])
        if self._turn.need == 0:   # no legal step: the turn passes (RULES 4.4)
            self._end_turn()

    def _next_player_turn(self) -> None:
        """The next player's turn begins: a cube decision when allowed, else the roll."""
        if self.cube and self._owner in (None, self._seat) and self._cube_value < 64:
            self._phase = "roll"
            self._turn = None
        else:
            self._begin_turn(self._roll())

    def _end_turn(self) -> None:
        assert self._turn is not None
        after = np.frombuffer(self._turn.board, dtype=np.int8)
        pts = Position.from_array(after).outcome()
        if pts is not None:
            self._finish(self._seat, pts.points)
            return
        self._board = Position.from_array(after).swapped().to_array()
        self._seat ^= 1
        self._next_player_turn()

    def _finish(self, winner: int, points: int) -> None:
        value = points * self._cube_value
        self.rewards = {self.possible_agents[winner]: value,
                        self.possible_agents[1 - winner]: -value}
        self.terminations = {a: True for a in self.agents}
        self._phase = "over"

    def _actor(self) -> int:
        return 1 - self._seat if self._phase == "doubled" else self._seat

    def _mask(self) -> np.ndarray:
        m = np.zeros(self._nact, dtype=np.int8)
        if self._phase == "move":
            assert self._turn is not None
            m[:self._nplay] = (self._turn.micro_mask() if self.actions == "micro"
                               else self._turn.openspiel_mask())
        elif self._phase == "roll":
            m[self._nplay + 0] = m[self._nplay + 1] = 1
        elif self._phase == "doubled":
            m[self._nplay + 2] = m[self._nplay + 3] = 1
        return m

    def _update_infos(self) -> None:
        if self._phase != "over":
            self.agent_selection = self.possible_agents[self._actor()]
        for a in self.agents:
            self.infos[a] = {"dice": self._turn.dice if self._turn is not None else None,
                             "position": self._position(self.possible_agents.index(a)),
                             "cube": self._cube_value}

    def _position(self, seat: int) -> Position:
        board = self._turn.board if self._turn is not None else self._board.tobytes()
        pos = Position.from_array(np.frombuffer(board, dtype=np.int8))
        return pos if seat == self._seat else pos.swapped()

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        seat = self.possible_agents.index(agent)
        pos = self._position(seat)
        dice = self._turn.dice if (self._turn is not None and seat == self._seat) else (0, 0)
        x = _bgcore.encode(pos.to_array()[None], self._enc, np.array([dice], dtype=np.uint8),
                           np.array([seat], dtype=np.uint8))[0]
        if self.cube:
            may = self._owner in (None, seat)
            x = np.concatenate([x, [self._cube_value / 64.0, float(may),
                                    float(self._owner is None)]]).astype(np.float32)
        mask = self._mask() if (seat == self._actor() and self._phase != "over") \
            else np.zeros(self._nact, dtype=np.int8)
        return {"observation": x, "action_mask": mask}

    def step(self, action: Any) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        a = int(action)
        if not 0 <= a < self._nact or not self._mask()[a]:
            raise IllegalActionError(f"action {action!r} is not legal for {agent} now; "
                                     f"legal: {np.flatnonzero(self._mask()).tolist()[:40]}")
        self._cumulative_rewards[agent] = 0
        if a < self._nplay:
            assert self._turn is not None
            ok = self._turn.micro(a) if self.actions == "micro" else self._turn.openspiel(a)
            assert ok
            if self._turn.need == 0:
                self._end_turn()
        else:
            kind = CUBE_ACTIONS[a - self._nplay]
            if kind == "roll":
                self._begin_turn(self._roll())
            elif kind == "double":
                self._phase = "doubled"
            elif kind == "take":
                self._cube_value *= 2
                self._owner = 1 - self._seat
                self._begin_turn(self._roll())
            else:  # drop: the doubler wins the cube's value (RULES 8.3)
                self._finish(self._seat, 1)
        self._update_infos()
        self._accumulate_rewards()

    def render(self) -> str | None:
        if self.render_mode != "ansi":
            return None
        return str(self._position(self._seat))

    def close(self) -> None:
        pass
