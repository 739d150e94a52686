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
each its own id after the play ids.  Rewards are the points of the game
(cube value times 1, 2 or 3) for the winner and their negative for the loser.

The rules are those of :class:`~backgammon.Game`, which the env plays
underneath, as :class:`~backgammon.env.BackgammonEnv` does: a player is asked
``roll`` / ``double`` only when :meth:`~backgammon.Game.can_double` (its own
or a centred cube, not the Crawford game, within the rules' ``max_cube``),
else it rolls by itself.  ``reset(options={"game": game})`` plays the rest
of a given :class:`~backgammon.Game` (a copy; e.g. one read from an XGID:
its cube, score, Crawford game and rules), with the env's dice:

    >>> import backgammon as bg
    >>> crawford = bg.Game.from_position(bg.Position.initial(), match_length=5,
    ...                                  score=(4, 2), crawford=True)
    >>> env = aec_env(cube=True)
    >>> env.reset(seed=1, options={"game": crawford})
    >>> env.last()[4]["phase"]       # no cube in the Crawford game: straight to the move
    'move'
"""

from __future__ import annotations

from typing import Any

import numpy as np

from backgammon import _bgcore
from backgammon.env._checks import action_id, check_playable, game_option, seed_value
from backgammon.env.encoders import encoding_kind, encoding_size
from backgammon.errors import IllegalActionError, InvalidSetupError
from backgammon.game import Game, Phase
from backgammon.position import Play, Position
from backgammon.rules import Rules

try:
    from gymnasium import spaces
    from pettingzoo import AECEnv  # type: ignore[import-untyped,unused-ignore]  # no type information (yet)
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
    doubling cube (money play up to 64, or the rules, cube and score of a game
    given to :meth:`reset`); ``reset(seed=)`` seeds the dice.  ``max_cycles``
    (None: no limit) truncates a game after that many actions of the two
    players together: both agents' ``truncations`` turn True, rewards 0.

        >>> env = aec_env(max_cycles=2)
        >>> env.reset(seed=1)
        >>> for _ in range(2):
        ...     mask = env.observe(env.agent_selection)["action_mask"]
        ...     env.step(int(mask.nonzero()[0][0]))
        >>> env.truncations
        {'player_0': True, 'player_1': True}
    """

    metadata = {"render_modes": ["ansi"], "name": "backgammon_v0", "is_parallelizable": False}

    def __init__(self, encoding: str = "tesauro", actions: str = "micro", cube: bool = False,
                 render_mode: str | None = None, max_cycles: int | None = None) -> None:
        super().__init__()
        if max_cycles is not None and (isinstance(max_cycles, bool)
                                       or not isinstance(max_cycles, (int, np.integer))
                                       or max_cycles < 1):
            raise InvalidSetupError(f"max_cycles is None or an integer >= 1, got {max_cycles!r}"
                                    [:300])
        self.max_cycles = None if max_cycles is None else int(max_cycles)
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
            self._rng = np.random.default_rng(seed_value(seed))
        game = self._start_game(options)
        self.agents = list(self.possible_agents)
        self.rewards = {a: 0 for a in self.agents}
        self._cumulative_rewards = {a: 0 for a in self.agents}
        self.terminations = {a: False for a in self.agents}
        self.truncations = {a: False for a in self.agents}
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
        self._game = game
        self._cycles = 0             # actions of both players this game (max_cycles)
        self._turn: Any = None       # the core's turn while the player on roll moves
        self._advance()
        self._update_infos()

    def _start_game(self, options: dict[str, Any] | None) -> Game:
        """A new game, or a copy of ``options["game"]`` checked for this env (other
        keys of ``options`` are left to others, as PettingZoo's ``api_test`` expects)."""
        game = game_option(options)
        if game is None:
            return Game(Rules(cube=self.cube))
        check_playable(game, self.cube)
        return game.copy()

    def _roll(self) -> tuple[int, int]:
        d = self._rng.integers(1, 7, size=2)
        return int(d[0]), int(d[1])

    def _advance(self) -> None:
        """Plays on until a player decides or the game ends."""
        game = self._game
        self._turn = None
        while True:
            phase = game.phase
            if phase is Phase.OVER:
                self._finish()
                return
            if phase is Phase.OPENING:
                game.roll(self._roll())   # one die each, ties rolled again (RULES 2.1)
            elif phase is Phase.ROLL:
                if game.can_double():     # RULES 8.1: roll or double
                    return
                game.roll(self._roll())
            elif phase is Phase.DOUBLED:
                return
            else:  # MOVE
                assert game.dice is not None
                d1, d2 = game.dice
                turn = _bgcore.Turn(game.position.to_array().tobytes(), game.turn, d1, d2)
                if turn.need == 0:        # no legal step: the turn passes (RULES 4.4)
                    game.play(game.position.legal_plays(game.dice)[0])
                    continue
                self._turn = turn
                return

    def _play_made(self) -> Play:
        game = self._game
        assert self._turn is not None and game.dice is not None
        after = Position.from_array(np.frombuffer(self._turn.board, dtype=np.int8))
        return next(p for p in game.position.legal_plays(game.dice) if p.result == after)

    def _finish(self) -> None:
        result = self._game.result
        assert result is not None
        value = result.points     # the cube counted (RULES 7, 8.3)
        self.rewards = {self.possible_agents[result.winner]: value,
                        self.possible_agents[1 - result.winner]: -value}
        self.terminations = {a: True for a in self.agents}

    def _actor(self) -> int:
        who = self._game.player_to_act
        assert who is not None
        return who

    def _mask(self) -> np.ndarray:
        m = np.zeros(self._nact, dtype=np.int8)
        phase = self._game.phase
        if phase is Phase.MOVE:
            assert self._turn is not None
            m[:self._nplay] = (self._turn.micro_mask() if self.actions == "micro"
                               else self._turn.openspiel_mask())
        elif phase is Phase.ROLL:     # asked only when the player may double
            m[self._nplay + 0] = m[self._nplay + 1] = 1
        elif phase is Phase.DOUBLED:
            m[self._nplay + 2] = m[self._nplay + 3] = 1
        return m

    def _update_infos(self) -> None:
        game = self._game
        if not game.over:
            self.agent_selection = self.possible_agents[self._actor()]
        for a in self.agents:
            self.infos[a] = {"dice": self._turn.dice if self._turn is not None else None,
                             "position": self._position(self.possible_agents.index(a)),
                             "cube": game.cube, "cube_owner": game.cube_owner,
                             "phase": game.phase.value}

    def _position(self, seat: int) -> Position:
        if self._turn is None:
            return self._game.board(seat)
        pos = Position.from_array(np.frombuffer(self._turn.board, dtype=np.int8))
        return pos if seat == self._game.turn else pos.swapped()

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        seat = self.possible_agents.index(agent)
        game = self._game
        pos = self._position(seat)
        dice = self._turn.dice if (self._turn is not None and seat == game.turn) else (0, 0)
        x = _bgcore.encode(pos.to_array()[None], self._enc, np.array([dice], dtype=np.uint8),
                           np.array([seat], dtype=np.uint8))[0]
        if self.cube:
            x = np.concatenate([x, [game.cube / 64.0, float(game.may_double(seat)),
                                    float(game.cube_owner is None)]]).astype(np.float32)
        mask = self._mask() if (not game.over and seat == self._actor()) \
            else np.zeros(self._nact, dtype=np.int8)
        return {"observation": x, "action_mask": mask}

    def step(self, action: Any) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        mask = self._mask()
        a = action_id(action, self._nact)   # an integer id at all (not 3.0, True, inf)
        if not mask[a]:
            raise IllegalActionError(f"action {a} is not legal for {agent} now; "
                                     f"legal: {np.flatnonzero(mask).tolist()[:40]}")
        self._cumulative_rewards[agent] = 0
        if a < self._nplay:
            assert self._turn is not None
            ok = self._turn.micro(a) if self.actions == "micro" else self._turn.openspiel(a)
            assert ok
            if self._turn.need == 0:
                self._game.play(self._play_made())
                self._advance()
        else:
            # by the game's rules (a drop: the doubler wins the cube's value, RULES 8.3)
            kind = CUBE_ACTIONS[a - self._nplay]
            if kind == "roll":
                self._game.roll(self._roll())   # the env's dice, not the game's source
            else:
                getattr(self._game, kind)()
            self._advance()
        self._cycles += 1
        if self.max_cycles is not None and self._cycles >= self.max_cycles \
                and not self._game.over:
            self.truncations = {a: True for a in self.agents}
        self._update_infos()
        self._accumulate_rewards()

    def render(self) -> str | None:
        if self.render_mode != "ansi":
            return None
        return str(self._position(self._game.turn))

    def close(self) -> None:
        pass
