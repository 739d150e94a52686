"""The agent's side of a cubeful game or a whole match, for :class:`BackgammonEnv`.

``BackgammonEnv(cube=True)`` and ``BackgammonEnv(match_length=N)`` play
through this driver: the rules (doubling, RULES 8; Crawford, RULES 10.2;
points, RULES 7) are those of :class:`~backgammon.Game` and
:class:`~backgammon.Match`, the checker steps and their masks those of the
core's turns (the same ids as the cubeless env).  The opponent's plays come
from the duel chooser of its kind and its cube actions from the library's
cube decisions (an Evaluator or ``"net"``), a Bot's ``cube_action(game)``,
or else :class:`~backgammon.PipCountCubePolicy`.

    >>> import numpy as np
    >>> from backgammon.env import BackgammonEnv
    >>> env = BackgammonEnv(opponent="random", encoding="pgx", cube=True, match_length=3)
    >>> obs, info = env.reset(seed=2)
    >>> obs.shape, info["action_mask"].shape, info["score"], info["cube"]
    ((42,), (160,), (0, 0), 1)
"""

from __future__ import annotations

from typing import Any

import numpy as np

from backgammon import _bgcore
from backgammon.cube import EvaluatorCubePolicy, PipCountCubePolicy
from backgammon.errors import IllegalActionError, InvalidSetupError
from backgammon.game import Game, Phase
from backgammon.match import Match
from backgammon.cube.met import equity as match_equity
from backgammon.position import Play, Position
from backgammon.rules import Rules

CUBE_ACTIONS = ("roll", "double", "take", "drop")   # as the AEC env's, after the play ids
CUBE_UNITS = 4    # cube / 64, the agent may double, centred, the agent answers a double
MATCH_UNITS = 4   # agent's points to go / N, opponent's / N, Crawford game, post-Crawford
DICE_UNITS = 6    # how many dice of each face (1..6) the agent has still to play
_MAX_DECISIONS = 100_000   # decisions of both sides in one episode before truncation
_NO_DICE = np.zeros((1, 2), dtype=np.uint8)
_SEAT0 = np.zeros(1, dtype=np.uint8)


def _cube_answerer(opponent: Any) -> Any:
    """``answer(game) -> "double" | "roll" | "take" | "drop"`` for the opponent."""
    from backgammon.nn import Evaluator
    if hasattr(opponent, "cube_action"):
        def ask(game: Game) -> str:
            allowed = (("take", "drop") if game.phase is Phase.DOUBLED else
                       ("double", "roll") if game.can_double() else ("roll",))
            action = opponent.cube_action(game.copy())
            if action not in allowed:
                raise InvalidSetupError(f"the opponent's cube_action must be one of {allowed}, "
                                        f"got {action!r}"[:300])
            return str(action)
        return ask
    if isinstance(opponent, Evaluator) or opponent == "net":
        policy: Any = EvaluatorCubePolicy(evaluator=opponent if isinstance(opponent, Evaluator)
                                          else None)
    else:  # pubeval, random and scoring callables have no cube judgement of their own
        policy = PipCountCubePolicy()

    def decide(game: Game) -> str:
        if game.phase is Phase.DOUBLED:
            return "take" if policy.should_take(game) else "drop"
        return "double" if policy.should_double(game) else "roll"
    return decide


class CubeMatchDriver:
    """One agent (player 0) in a cubeful money game or a match; see the module doc."""

    def __init__(self, opponent: Any, enc: int, k: int, actions: str, max_candidates: int,
                 cube: bool, match_length: int | None, dice_units: bool = False) -> None:
        self._opponent = opponent
        self._answer = _cube_answerer(opponent)
        self._enc, self._k, self.actions = enc, k, actions
        self._max_candidates = max_candidates
        self.cube, self.match_length = cube, match_length
        self.dice_units = dice_units
        self.nplay = {"micro": 156, "openspiel": 1352}.get(actions, max_candidates)
        self.nact = self.nplay + (len(CUBE_ACTIONS) if cube else 0)
        self.extra = ((CUBE_UNITS if cube else 0) + (MATCH_UNITS if match_length else 0)
                      + (DICE_UNITS if dice_units else 0))
        self._roll_rng: np.random.Generator | None = None
        self.done = True

    # copy.deepcopy and pickle: the closures are rebuilt from the opponent and its rng
    def __getstate__(self) -> dict[str, Any]:
        state = self.__dict__.copy()
        state.pop("_answer", None)
        state.pop("_play", None)
        return state

    def __setstate__(self, state: dict[str, Any]) -> None:
        from backgammon.env.duel_loop import chooser
        self.__dict__.update(state)
        self._answer = _cube_answerer(self._opponent)
        if "_opp_rng" in state:
            self._play = chooser(self._opponent, 0, self._opp_rng)

    # -- episodes ------------------------------------------------------------

    def reset(self, seed: int, game: Game | None = None) -> None:
        """Begins an episode (a game, or a match) with the dice of ``seed``; with
        ``game``, plays on from a copy of it (money play), rolling from ``seed``."""
        from backgammon.env.duel_loop import chooser
        dice_seed, opp_seed = np.random.SeedSequence(seed).spawn(2)
        self._opp_rng = np.random.default_rng(opp_seed)
        self._play = chooser(self._opponent, 0, self._opp_rng)
        rules = Rules(cube=self.cube)
        rng = np.random.default_rng(dice_seed)
        self._roll_rng = None
        self._match: Match | None = None
        if game is not None:
            self._game = game.copy()
            self._roll_rng = rng    # the copy keeps its own dice source; ours roll it
        elif self.match_length:
            self._match = Match(self.match_length, rules, rng=rng)
            self._mwc = 0.5   # both players need N points: an even match
        else:
            self._game = Game(rules, rng=rng)
        self._decisions = 0
        self.done, self.terminated, self.truncated = False, False, False
        # no reward can be due yet: the agent's first turn of a game, at most one opponent
        # turn from the opening position, always has a legal step (so a decision)
        due = self._advance()
        if game is not None and (due != 0.0 or self.done):
            raise InvalidSetupError("the game given to reset ends before the agent's first "
                                    "decision (the opponent bears off): nothing to play")
        assert due == 0.0 and not self.done

    @property
    def game(self) -> Game:
        return self._match.game if self._match is not None else self._game

    def act(self, a: int) -> float:
        """Applies legal id ``a`` (the caller checked the mask); returns the reward."""
        game = self.game
        self._decisions += 1
        if a >= self.nplay:
            kind = CUBE_ACTIONS[a - self.nplay]
            if kind == "roll":
                self._roll(game)
            else:
                getattr(game, kind)()
            return self._advance()
        assert self._turn is not None
        assert game.dice is not None
        if self.actions == "afterstate":
            game.play(game.position.legal_plays(game.dice)[a])
            return self._advance()
        ok = self._turn.micro(a) if self.actions == "micro" else self._turn.openspiel(a)
        assert ok
        if self._turn.need > 0:
            return 0.0          # more steps of this turn to choose
        game.play(self._play_made())
        return self._advance()

    def _play_made(self) -> Play:
        game = self.game
        assert self._turn is not None and game.dice is not None
        after = Position.from_array(np.frombuffer(self._turn.board, dtype=np.int8))
        return next(p for p in game.position.legal_plays(game.dice) if p.result == after)

    def _advance(self) -> float:
        """Plays on until the agent decides or the episode ends; the reward meanwhile."""
        reward = 0.0
        self._turn = None
        while True:
            game = self.game
            if game.over:
                reward += self._game_over(game)
                if self.done:
                    return reward
                continue
            if self._decisions > _MAX_DECISIONS:
                self.done = self.truncated = True
                return reward
            phase = game.phase
            if phase is Phase.OPENING:
                self._roll(game)     # one die each, ties rolled again (RULES 2.1)
            elif phase is Phase.DOUBLED:
                if game.player_to_act == 0:
                    return reward
                self._decisions += 1
                getattr(game, self._answer(game))()
            elif phase is Phase.ROLL:
                if game.turn == 0:
                    if game.can_double():
                        return reward       # the agent chooses: roll or double (RULES 8.1)
                    self._roll(game)
                else:
                    self._decisions += 1
                    if game.can_double() and self._answer(game) == "double":
                        game.double()
                    else:
                        self._roll(game)
            else:  # MOVE
                assert game.dice is not None
                plays = game.position.legal_plays(game.dice)
                if len(plays) == 1 and not plays[0].moves:
                    game.play(plays[0])     # no legal step: the turn passes (RULES 4.4)
                elif game.turn == 0:
                    if self.actions == "afterstate" and len(plays) > self._max_candidates:
                        from backgammon.errors import RolloutError
                        raise RolloutError(f"a roll has {len(plays)} distinct plays, more than "
                                           f"max_candidates={self._max_candidates}; raise it")
                    d1, d2 = game.dice
                    self._turn = _bgcore.Turn(game.position.to_array().tobytes(), 0, d1, d2)
                    return reward
                else:
                    self._decisions += 1
                    game.play(self._opponent_play(game))

    def _roll(self, game: Game) -> None:
        """Rolls: the game's own dice, or ours for a game given to reset."""
        if self._roll_rng is None:
            game.roll()
        else:
            d = self._roll_rng.integers(1, 7, size=2)
            game.roll((int(d[0]), int(d[1])))

    def _opponent_play(self, game: Game) -> Play:
        assert game.dice is not None
        if hasattr(self._opponent, "choose_play"):   # a Bot sees the whole game: cube, score
            from backgammon.env.opponents import checked_play
            return checked_play(game.position, game.dice, self._opponent.choose_play(game.copy()))
        return self._play(game.position, game.dice, 1)

    def _game_over(self, game: Game) -> float:
        """The agent's reward for the game just over; starts the match's next game."""
        result = game.result
        assert result is not None
        if self._match is None:
            self.done = self.terminated = True
            return float(result.points if result.winner == 0 else -result.points)
        match = self._match
        before = self._mwc
        if match.over:
            self._mwc = 1.0 if match.winner == 0 else 0.0
            self.done = self.terminated = True
        else:
            match.next_game()
            self._mwc = self._match_winning_chance()
        return 2.0 * (self._mwc - before)

    def _match_winning_chance(self) -> float:
        match = self._match
        assert match is not None
        s0, s1 = match.score
        n = match.length
        return match_equity(n - s0, n - s1, post_crawford=match.post_crawford)

    # -- what the agent sees -------------------------------------------------

    @property
    def phase(self) -> str:
        """The agent's decision now: "move", "roll" (roll or double), "doubled" (take or drop)."""
        return "move" if self._turn is not None else self.game.phase.value

    @property
    def dice(self) -> tuple[int, int]:
        """The dice of the agent's turn in progress as rolled; (0, 0) at a cube decision."""
        return (int(self._turn.dice[0]), int(self._turn.dice[1])) if self._turn is not None \
            else (0, 0)

    def mask(self) -> np.ndarray:
        m = np.zeros(self.nact, dtype=bool)
        if self.done:
            return m
        phase = self.phase
        if phase == "move":
            assert self._turn is not None
            if self.actions == "afterstate":
                game = self.game
                assert game.dice is not None
                m[:len(game.position.legal_plays(game.dice))] = True
            else:
                m[:self.nplay] = (self._turn.micro_mask() if self.actions == "micro"
                                  else self._turn.openspiel_mask())
        elif phase == "roll":
            m[self.nplay:self.nplay + 2] = True
        elif phase == "doubled":
            m[self.nplay + 2:self.nplay + 4] = True
        return m

    def observation(self) -> tuple[np.ndarray, np.ndarray | None]:
        """(the agent's units with the cube and match units, the candidates or None)."""
        game = self.game
        if self._turn is not None:
            x = self._turn.encode(self._enc)
        else:
            x = _bgcore.encode(game.board(0).to_array()[None], self._enc, _NO_DICE, _SEAT0)[0]
        extra = []
        if self.cube:
            owner = game.cube_owner
            extra += [game.cube / 64.0,
                      float(game.may_double(0)),   # ownership, Crawford, max_cube
                      float(owner is None),
                      float(game.phase is Phase.DOUBLED and game.player_to_act == 0)]
        if self.match_length:
            n = self.match_length
            s0, s1 = game.score
            post = self._match is not None and self._match.post_crawford
            extra += [(n - s0) / n, (n - s1) / n, float(game.crawford), float(post)]
        if self.dice_units:
            left = self._turn.left if self._turn is not None else ()
            extra += [float(left.count(d)) for d in range(1, 7)]
        obs = np.concatenate([x, np.asarray(extra, dtype=np.float32)]).astype(np.float32)
        cands = None
        if self.actions == "afterstate":
            cands = np.zeros((self._max_candidates, self._k), dtype=np.float32)
            if self._turn is not None:
                assert game.dice is not None
                boards = game.position.successors(game.dice)
                cands[:len(boards)] = _bgcore.encode(
                    boards, self._enc, np.zeros((len(boards), 2), dtype=np.uint8),
                    np.zeros(len(boards), dtype=np.uint8))
        return obs, cands

    def info(self) -> dict[str, Any]:
        game = self.game
        turn = self._turn
        if turn is not None:
            dice, left = self.dice, turn.left
            position = Position.from_array(np.frombuffer(turn.board, dtype=np.int8))
        else:
            dice, left, position = (0, 0), (), game.board(0)
        info: dict[str, Any] = {"dice": dice, "dice_left": left, "position": position,
                                "phase": "over" if self.done else self.phase,
                                "cube": game.cube, "cube_owner": game.cube_owner}
        if self._match is not None:
            info.update(score=self._match.score, crawford=game.crawford,
                        game_number=len(self._match.games))
        return info


def check_options(cube: Any, match_length: Any) -> tuple[bool, int | None]:
    """``(cube, match_length)`` checked: a bool and None or a length 1..64."""
    if not isinstance(cube, (bool, np.bool_)):
        raise InvalidSetupError(f"cube is True or False, got {cube!r}"[:300])
    if match_length is not None and (isinstance(match_length, bool)
                                     or not isinstance(match_length, (int, np.integer))
                                     or not 1 <= match_length <= 64):
        raise InvalidSetupError(f"match_length is None (money play) or a number of points "
                                f"1..64, got {match_length!r}"[:300])
    return bool(cube), None if match_length is None else int(match_length)


def illegal(a: int, mask: np.ndarray) -> IllegalActionError:
    legal = np.flatnonzero(mask).tolist()
    return IllegalActionError(f"action {a} is not legal now (legal: {legal[:40]}"
                              f"{' ...' if len(legal) > 40 else ''}); nothing changed")
