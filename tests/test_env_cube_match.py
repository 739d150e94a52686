"""BackgammonEnv with the cube and in match play (backgammon.env.cube_match)."""

from __future__ import annotations

import os

import numpy as np
import pytest

import backgammon as bg
from backgammon.cube import met


def _need(module: str):
    """The optional ``env`` extra: skipped outside CI, a failure under CI=true."""
    if os.environ.get("CI") == "true":
        return __import__(module)
    return pytest.importorskip(module)


gymnasium = _need("gymnasium")

from backgammon.env import BackgammonEnv  # noqa: E402
from backgammon.env.cube_match import _cube_answerer  # noqa: E402

ROLL, DOUBLE, TAKE, DROP = range(4)   # after the play ids


def _k(env):
    return bg.env.encoding_size(env.encoding)


@pytest.mark.parametrize("actions", ["micro", "openspiel", "afterstate"])
@pytest.mark.parametrize("cube,match_length", [(True, None), (False, 5), (True, 3), (True, 1)])
def test_check_env(actions, cube, match_length):
    from gymnasium.utils.env_checker import check_env
    env = BackgammonEnv(opponent="random", encoding="pgx", actions=actions, max_candidates=600,
                        cube=cube, match_length=match_length)
    check_env(env, skip_render_check=True)


def test_spaces_and_extra_units():
    k = 34
    assert BackgammonEnv(opponent="random", encoding="pgx", cube=True).observation_space.shape \
        == (k + 4,)
    env = BackgammonEnv(opponent="random", encoding="pgx", match_length=7)
    assert env.observation_space.shape == (k + 4,) and env.action_space.n == 156  # no cube ids
    env = BackgammonEnv(opponent="random", encoding="pgx", cube=True, match_length=7)
    assert env.observation_space.shape == (k + 8,) and env.action_space.n == 160
    obs, info = env.reset(seed=3)
    # both 7 away, not the Crawford game, cube 1 centred
    assert obs[k:].tolist() == [1 / 64, 1.0, 1.0, 0.0, 1.0, 1.0, 0.0, 0.0]
    assert info["score"] == (0, 0) and info["cube"] == 1 and info["cube_owner"] is None
    env = BackgammonEnv(opponent="random", encoding="pgx", actions="afterstate", cube=True,
                        max_candidates=600)
    assert env.action_space.n == 604
    assert env.observation_space["candidates"].shape == (600, k)


@pytest.mark.parametrize("bad", [dict(cube=1), dict(cube="yes"), dict(match_length=0),
                                 dict(match_length=65), dict(match_length=True),
                                 dict(match_length=2.0), dict(cube=True, opponent="nobody")])
def test_bad_options(bad):
    with pytest.raises(bg.InvalidSetupError):
        BackgammonEnv(**{"opponent": "random", **bad})


class _Cube:
    """A bot that plays its first legal play and answers the cube as told."""

    def __init__(self, offer: str, answer: str) -> None:
        self.offer, self.answer = offer, answer

    def choose_play(self, game):
        return game.position.legal_plays(game.dice)[0]

    def cube_action(self, game):
        if game.phase is bg.Phase.DOUBLED:
            return self.answer
        return self.offer if game.can_double() else "roll"


def _to_roll_decision(env, info, rng):
    """Random legal plays until the agent faces its first roll-or-double decision."""
    while info["phase"] != "roll":
        _, r, term, _, info = env.step(int(rng.choice(np.flatnonzero(info["action_mask"]))))
        assert not term
    return info


def test_agent_doubles_and_the_opponent_drops():
    # the doubler wins the cube's value when the double is dropped (RULES 8.3): +1
    env = BackgammonEnv(opponent=_Cube("roll", "drop"), encoding="pgx", cube=True)
    obs, info = env.reset(seed=5)
    info = _to_roll_decision(env, info, np.random.default_rng(0))
    assert np.flatnonzero(info["action_mask"]).tolist() == [156 + ROLL, 156 + DOUBLE]
    obs, r, term, trunc, info = env.step(156 + DOUBLE)
    assert (r, term, trunc, info["phase"]) == (1.0, True, False, "over")


def _no_double(info, rng):
    if info["phase"] == "roll":
        return 156 + ROLL
    return int(rng.choice(np.flatnonzero(info["action_mask"])))


def test_opponent_doubles_agent_takes_then_owns_the_cube():
    env = BackgammonEnv(opponent=_Cube("double", "take"), encoding="pgx", cube=True)
    obs, info = env.reset(seed=5)
    rng = np.random.default_rng(1)
    while info["phase"] != "doubled":
        # the bot doubles at its first turn; the agent only rolls before that
        assert info["cube"] == 1
        obs, r, term, _, info = env.step(_no_double(info, rng))
    assert np.flatnonzero(info["action_mask"]).tolist() == [156 + TAKE, 156 + DROP]
    assert obs[34:].tolist() == [1 / 64, 1.0, 1.0, 1.0]  # answering a double on a centred cube
    obs, r, term, _, info = env.step(156 + TAKE)
    assert r == 0 and info["cube"] == 2 and info["cube_owner"] == 0
    # the agent owns the cube: it may redouble; the bot may not double again
    seen_roll = False
    while not term:
        assert info["cube"] == 2 and info["cube_owner"] == 0
        if info["phase"] == "roll":
            seen_roll = True
            assert info["cube_owner"] == 0 and obs[34:].tolist()[:3] == [2 / 64, 1.0, 0.0]
            a = 156 + ROLL
        else:
            a = int(rng.choice(np.flatnonzero(info["action_mask"])))
        obs, r, term, _, info = env.step(a)
    assert seen_roll and abs(r) in (2, 4, 6)


def test_agent_drops_loses_one():
    env = BackgammonEnv(opponent=_Cube("double", "take"), encoding="pgx", cube=True)
    obs, info = env.reset(seed=5)
    rng = np.random.default_rng(1)
    while info["phase"] != "doubled":
        obs, r, term, _, info = env.step(_no_double(info, rng))
    obs, r, term, _, info = env.step(156 + DROP)
    assert (r, term) == (-1.0, True)


def _random_episode(env, seed, rng):
    obs, info = env.reset(seed=seed)
    rewards, infos = [], [info]
    while True:
        mask = info["action_mask"]
        assert env.observation_space.contains(obs) and mask.any()
        phase, k = info["phase"], _k(env)
        if env.cube:
            cube_ids = np.flatnonzero(mask[-4:]).tolist()
            # double offered only before the roll, to the cube's owner or on a centred cube,
            # never in the Crawford game (RULES 8.1, 8.3, 10.2)
            assert cube_ids == {"roll": [ROLL, DOUBLE], "doubled": [TAKE, DROP], "move": []}[phase]
            if phase == "roll":
                assert info["cube_owner"] in (None, 0) and not info.get("crawford", False)
                assert obs[k + 1] == 1.0
            assert obs[k] == info["cube"] / 64
        obs, r, term, trunc, info = env.step(int(rng.choice(np.flatnonzero(mask))))
        rewards.append(r)
        infos.append(info)
        if term or trunc:
            return rewards, infos, term


class _Last:
    """A Bot without cube_action: the pip-count cube policy answers for it."""

    def choose_play(self, game):
        assert game.cube >= 1 and game.rules.cube   # it sees the real game
        return game.position.legal_plays(game.dice)[-1]


@pytest.mark.parametrize("opponent", ["random", "pubeval", "net", "evaluator", "callable", "bot"])
def test_money_games_pay_points_times_cube(opponent):
    if opponent == "evaluator":
        opponent = bg.Evaluator.default()
    elif opponent == "callable":
        opponent = lambda boards: -boards[:, 1:25].clip(min=0).sum(axis=1)  # noqa: E731
    elif opponent == "bot":
        opponent = _Last()
    env = BackgammonEnv(opponent=opponent, encoding="pgx", cube=True)
    rng = np.random.default_rng(2)
    for seed in range(6):
        rewards, infos, term = _random_episode(env, seed, rng)
        assert term and all(r == 0 for r in rewards[:-1])
        cube = infos[-1]["cube"]
        # a game ends by a drop (the cube's value) or on the board (1, 2 or 3 times it)
        assert abs(rewards[-1]) in (cube, 2 * cube, 3 * cube)


@pytest.mark.parametrize("cube", [False, True])
def test_match_rewards_sum_to_the_match_result(cube):
    env = BackgammonEnv(opponent="random", encoding="pgx", cube=cube, match_length=3)
    rng = np.random.default_rng(3)
    crawford_seen = 0
    for seed in range(8):
        rewards, infos, term = _random_episode(env, seed, rng)
        s0, s1 = infos[-1]["score"]
        assert term and max(s0, s1) >= 3 and min(s0, s1) < 3
        assert sum(rewards) == pytest.approx(1.0 if s0 >= 3 else -1.0)
        # each game's reward: twice the change of the agent's match winning chance
        mwc, score = 0.5, (0, 0)
        for r, info in zip(rewards, infos[1:]):
            if info["score"] != score and info["phase"] != "over":
                score, post = info["score"], 2 in score and not info["crawford"]
                new = met.equity(3 - score[0], 3 - score[1], post_crawford=post)
                assert r == pytest.approx(2 * (new - mwc))
                mwc = new
            elif info["phase"] != "over":
                assert r == 0
        crawford_seen += any(i.get("crawford") for i in infos)
    assert crawford_seen  # the Crawford game was played (and checked cubeless above)


def test_first_game_reward_is_hand_derived():
    # a 1-point match: the game decides the match, +1 or -1 whatever the points
    env = BackgammonEnv(opponent="random", encoding="pgx", match_length=1)
    rewards, infos, term = _random_episode(env, 4, np.random.default_rng(4))
    assert term and rewards[-1] in (1.0, -1.0) and sum(rewards[:-1]) == 0


def test_seeded_episodes_repeat():
    env = BackgammonEnv(opponent="random", encoding="pgx", cube=True, match_length=3)
    a = _random_episode(env, 11, np.random.default_rng(5))[0]
    b = _random_episode(env, 11, np.random.default_rng(5))[0]
    assert a == b


def test_illegal_ids_change_nothing():
    env = BackgammonEnv(opponent="random", encoding="pgx", cube=True)
    obs, info = env.reset(seed=1)
    assert info["phase"] in ("move", "roll")
    bad = 156 + TAKE   # no double to answer
    obs2, r, term, trunc, info2 = env.step(bad)
    assert info2["illegal_action"] and r == 0 and not term and (obs2 == obs).all()
    strict = BackgammonEnv(opponent="random", encoding="pgx", cube=True, illegal_action="raise")
    strict.reset(seed=1)
    with pytest.raises(bg.IllegalActionError):
        strict.step(bad)


@pytest.mark.parametrize("opponent", ["net", "pubeval"])
def test_opponent_cube_answers(opponent):
    answer = _cube_answerer(opponent)
    # doubled at the opening position: an easy take
    game = bg.Game.from_position(bg.Position.initial())
    game.double()
    assert answer(game) == "take"
    # the doubler bears off its last checker next roll whatever it rolls: a certain loss
    board = [0] * 26
    board[1] = 1
    board[19] = -14   # the doubled player has 14 checkers on its 6 point, one off: no gammon
    game = bg.Game.from_position(bg.Position(board))
    game.double()
    assert answer(game) == "drop"


def test_defaults_unchanged():
    env = BackgammonEnv()
    assert env.cube is False and env.match_length is None and env._driver is None
    # 198 Tesauro units and the 6 dice units (dice still to play, issue 40)
    assert env.observation_space.shape == (198 + 6,) and env.action_space.n == 156


@pytest.mark.parametrize("bad", [dict(cube=1), dict(match_length=0), dict(match_length="5")])
def test_vector_env_checks_the_options_as_the_single_env(bad):
    from backgammon.env import VectorEnv
    with pytest.raises(bg.InvalidSetupError, match="cube is|match_length is"):
        VectorEnv(2, opponent="random", **bad)
    VectorEnv(2, opponent="random", cube=False, match_length=None)  # the defaults, accepted


def test_afterstate_candidates_are_the_legal_plays():
    env = BackgammonEnv(opponent="random", encoding="tesauro", actions="afterstate", cube=True,
                        match_length=3, max_candidates=600)
    obs, info = env.reset(seed=8)
    rng = np.random.default_rng(8)
    checked = 0
    for _ in range(60):
        if info["phase"] == "move":
            plays = info["position"].legal_plays(info["dice"])
            assert np.flatnonzero(info["action_mask"]).tolist() == list(range(len(plays)))
            want = bg.encode([p.result for p in plays], "tesauro")
            assert (obs["candidates"][:len(plays)] == want).all()
            assert not obs["candidates"][len(plays):].any()
            assert (obs["observation"][:198] == bg.encode([info["position"]], "tesauro")[0]).all()
            checked += 1
        obs, r, term, trunc, info = env.step(int(rng.choice(np.flatnonzero(info["action_mask"]))))
        if term:
            obs, info = env.reset()
    assert checked > 20
