"""Gymnasium, PettingZoo and vector environments (backgammon.env)."""

from __future__ import annotations

import os

import numpy as np
import pytest

import backgammon as bg


def _need(module: str):
    """The optional ``env`` extra: skipped outside CI, a failure under CI=true."""
    if os.environ.get("CI") == "true":
        return __import__(module)
    return pytest.importorskip(module)


gymnasium = _need("gymnasium")
pettingzoo = _need("pettingzoo")

from backgammon.env import BackgammonEnv, VectorEnv, actions, aec_env  # noqa: E402

COMBOS = [(e, a) for e in ("tesauro", "openspiel", "pgx", "net") for a in ("micro", "openspiel")]


def _random_game(env, rng, info):
    total, steps = 0.0, 0
    while True:
        a = int(rng.choice(np.flatnonzero(info["action_mask"])))
        obs, r, term, trunc, info = env.step(a)
        assert env.observation_space.contains(obs)
        total += r
        steps += 1
        if term or trunc:
            return total, steps, term


@pytest.mark.parametrize("encoding,actions", COMBOS)
def test_check_env(encoding, actions):
    from gymnasium.utils.env_checker import check_env
    check_env(BackgammonEnv(opponent="random", encoding=encoding, actions=actions),
              skip_render_check=True)


def test_check_env_defaults_and_afterstate():
    from gymnasium.utils.env_checker import check_env
    check_env(BackgammonEnv(), skip_render_check=True)  # against the nets
    check_env(BackgammonEnv(opponent="pubeval", actions="afterstate", max_candidates=600),
              skip_render_check=True)


@pytest.mark.parametrize("opponent", ["random", "pubeval", "net", "callable", "bot"])
def test_games_end_with_points(opponent):
    if opponent == "callable":
        opponent = lambda boards: -boards[:, 1:25].clip(min=0).sum(axis=1)  # noqa: E731
    elif opponent == "bot":
        class First:
            def choose_play(self, game):
                return game.position.legal_plays(game.dice)[-1]
        opponent = First()
    env = BackgammonEnv(opponent=opponent, encoding="pgx")
    rng = np.random.default_rng(1)
    obs, info = env.reset(seed=4)
    for _ in range(5):
        total, steps, term = _random_game(env, rng, info)
        assert term and total in (-3, -2, -1, 1, 2, 3) and steps > 0
        obs, info = env.reset()


def test_info_and_masks_agree_with_the_position():
    env = BackgammonEnv(opponent="random", encoding="pgx", actions="micro")
    obs, info = env.reset(seed=9)
    pos, dice = info["position"], info["dice"]
    assert obs[28:].sum() == (4 if dice[0] == dice[1] else 2)
    steps = {actions.micro_step(a) for a in np.flatnonzero(info["action_mask"])}
    # every offered step starts a legal play (Position.legal_moves: steps of this turn)
    moves = set(pos.legal_moves(dice))
    assert {(s, max(s - d, 0)) for s, d in steps} == moves
    assert np.array_equal(obs, bg.encode([pos], "pgx", dice=[dice])[0])  # no step made yet


def test_illegal_action_changes_nothing():
    env = BackgammonEnv(opponent="random", encoding="tesauro", seed=3)
    obs, info = env.reset()
    bad = int(np.flatnonzero(~info["action_mask"])[0])
    obs2, r, term, trunc, info2 = env.step(bad)
    assert info2["illegal_action"] and r == 0 and not term and np.array_equal(obs, obs2)
    assert info2["position"] == info["position"]
    strict = BackgammonEnv(opponent="random", illegal_action="raise")
    _, info = strict.reset(seed=3)
    with pytest.raises(bg.IllegalActionError, match="not legal"):
        strict.step(int(np.flatnonzero(~info["action_mask"])[0]))
    with pytest.raises(bg.IllegalActionError):
        strict.step(10_000)
    with pytest.raises(bg.InvalidSetupError):
        BackgammonEnv(opponent="chess")
    with pytest.raises(bg.InvalidSetupError):
        BackgammonEnv(actions="macro")


def test_seeded_reset_is_deterministic():
    a = BackgammonEnv(opponent="net", encoding="net")
    b = BackgammonEnv(opponent="net", encoding="net")
    oa, ia = a.reset(seed=123)
    ob, ib = b.reset(seed=123)
    assert np.array_equal(oa, ob) and ia["dice"] == ib["dice"]


@pytest.mark.parametrize("actions", ["micro", "openspiel"])
def test_vector_env_equals_single_env(actions):
    """Slot 0 of a VectorEnv plays the games of BackgammonEnv with the same
    seed, step for step, across several episodes; other slots differ."""
    n, seed = 5, 77
    venv = VectorEnv(n, opponent="pubeval", encoding="tesauro", actions=actions)
    env = BackgammonEnv(opponent="pubeval", encoding="tesauro", actions=actions)
    vobs, vinfo = venv.reset(seed=seed)
    obs, info = env.reset(seed=seed)
    rng = np.random.default_rng(5)
    episodes = 0
    while episodes < 6:
        assert np.array_equal(vobs[0], obs)
        assert np.array_equal(vinfo["action_mask"][0], info["action_mask"])
        assert tuple(vinfo["dice"][0]) == info["dice"]    # the chance outcome, as rolled
        assert all(1 <= d <= 6 for d in vinfo["dice"].ravel())
        acts = np.array([rng.choice(np.flatnonzero(m)) for m in vinfo["action_mask"]])
        vobs, vr, vterm, vtrunc, vinfo = venv.step(acts)
        obs, r, term, trunc, info = env.step(int(acts[0]))
        assert vr[0] == r and vterm[0] == term
        if term:
            episodes += 1
            obs, info = env.reset()
    assert not np.array_equal(vobs[0], vobs[1]) or not np.array_equal(vobs[1], vobs[2])


def test_vector_env_slots_do_not_depend_on_n():
    small, big = VectorEnv(2, "random", "pgx", seed=5), VectorEnv(7, "random", "pgx", seed=5)
    o1, i1 = small.reset()
    o2, i2 = big.reset()
    for _ in range(200):
        assert np.array_equal(o1, o2[:2])
        a = big._core.sample_actions()
        o1, r1, t1, _, i1 = small.step(a[:2].copy())
        o2, r2, t2, _, i2 = big.step(a)
        assert np.array_equal(r1, r2[:2]) and np.array_equal(t1, t2[:2])


@pytest.mark.parametrize("actions", ["micro", "afterstate"])
def test_vector_env_threads_do_not_change_the_games(actions):
    one = VectorEnv(9, "pubeval", "tesauro", actions, seed=8, max_candidates=600)
    three = VectorEnv(9, "pubeval", "tesauro", actions, seed=8, max_candidates=600, threads=3)
    o1, _ = one.reset()
    o3, _ = three.reset()
    for _ in range(300):
        assert np.array_equal(o1, o3)
        a = one._core.sample_actions()
        o1, r1, t1, _, _ = one.step(a)
        o3, r3, t3, _, _ = three.step(a)
        assert np.array_equal(r1, r3) and np.array_equal(t1, t3)
    with pytest.raises(bg.InvalidSetupError):
        VectorEnv(2, threads=0)


def test_vector_env_illegal_ids_and_autoreset():
    venv = VectorEnv(3, opponent="random", encoding="pgx", seed=2)
    obs, infos = venv.reset()
    before = obs.copy()
    bad = np.array([np.flatnonzero(~m)[0] for m in infos["action_mask"]])
    obs, r, term, trunc, infos = venv.step(bad)
    assert infos["illegal"].tolist() == [True] * 3 and np.array_equal(obs, before)
    finished = 0
    for _ in range(3000):
        obs, r, term, trunc, infos = venv.step(venv._core.sample_actions())
        assert set(r[term].tolist()) <= {-3, -2, -1, 1, 2, 3} and not r[~term].any()
        finished += int(term.sum())
        assert infos["action_mask"].any(axis=1).all()   # always a decision after autoreset
    assert finished > 20 and (infos["episode_index"] > 0).all()
    with pytest.raises(bg.IllegalActionError):
        venv.step(np.zeros(2, dtype=np.int64))
    with pytest.raises(bg.InvalidSetupError):
        VectorEnv(2, opponent="nobody")


@pytest.mark.parametrize("cube", [False, True])
@pytest.mark.parametrize("actions", ["micro", "openspiel"])
def test_pettingzoo_api(actions, cube):
    from pettingzoo.test import api_test
    api_test(aec_env(encoding="tesauro", actions=actions, cube=cube), num_cycles=200)


def test_aec_games_and_cube():
    env = aec_env(encoding="pgx", actions="micro", cube=True)
    rng = np.random.default_rng(3)
    for game in range(6):
        env.reset(seed=game)
        for agent in env.agent_iter(max_iter=5000):
            obs, reward, term, trunc, info = env.last()
            if term or trunc:
                env.step(None)
                continue
            mask = obs["action_mask"]
            assert mask.any()
            # drop now and then, else take, roll rather than double mostly
            env.step(int(rng.choice(np.flatnonzero(mask))))
        assert sum(env._cumulative_rewards.values()) == 0
    with pytest.raises(bg.IllegalActionError):
        env.reset(seed=1)
        env.step(int(np.flatnonzero(env.observe(env.agent_selection)["action_mask"] == 0)[0]))


NPLAY = 156   # the micro play ids; roll, double, take, drop follow


def _aec_from(game, seed=1):
    env = aec_env(encoding="tesauro", actions="micro", cube=True)
    env.reset(seed=seed, options={"game": game})
    return env


def _units(env, agent):
    """(cube / 64, may double, centred) of the agent's observation."""
    return tuple(float(u) for u in env.observe(agent)["observation"][-3:])


def _play_the_turn(env):
    """The player on roll plays its first legal ids until the turn passes."""
    mover = env.agent_selection
    while env.agent_selection == mover and not any(env.terminations.values()):
        mask = env.observe(mover)["action_mask"]
        assert mask[:NPLAY].any() and not mask[NPLAY:].any()
        env.step(int(np.flatnonzero(mask)[0]))


@pytest.mark.parametrize("cube, max_cube", [(8, 8), (64, 64), (32, 16)])
def test_aec_no_double_at_the_maximum_cube(cube, max_cube):
    # Player 0 owns the cube at (or past) the rules' maximum: doubling would pass it
    # (RULES 8.4), so player 0 is never asked roll/double; it has rolled by itself and
    # moves, and neither side may double (the opponent does not own the cube).
    if cube > max_cube:   # a cube beyond the maximum cannot even be set up
        with pytest.raises(bg.IllegalActionError, match="max_cube"):
            bg.Game.from_position(bg.Position.initial(), cube=cube, cube_owner=0,
                                  rules=bg.Rules(max_cube=max_cube))
        return
    game = bg.Game.from_position(bg.Position.initial(), cube=cube, cube_owner=0,
                                 rules=bg.Rules(max_cube=max_cube))
    env = _aec_from(game)
    obs, reward, term, trunc, info = env.last()
    assert env.agent_selection == "player_0" and info["phase"] == "move"
    assert obs["action_mask"][:NPLAY].any() and not obs["action_mask"][NPLAY:].any()
    assert _units(env, "player_0") == _units(env, "player_1") == (cube / 64, 0.0, 0.0)
    assert game.phase is bg.Phase.ROLL   # the env played on a copy


def test_aec_double_up_to_the_maximum_then_no_redouble():
    # max_cube 8, player 0 owns the 4-cube: it may double (to 8), so it is asked.
    game = bg.Game.from_position(bg.Position.initial(), cube=4, cube_owner=0,
                                 rules=bg.Rules(max_cube=8))
    env = _aec_from(game)
    assert env.agent_selection == "player_0" and env.last()[4]["phase"] == "roll"
    assert np.flatnonzero(env.last()[0]["action_mask"]).tolist() == [NPLAY, NPLAY + 1]
    assert _units(env, "player_0") == (4 / 64, 1.0, 0.0)
    assert _units(env, "player_1") == (4 / 64, 0.0, 0.0)
    env.step(NPLAY + 1)                                  # double
    assert env.agent_selection == "player_1"
    assert np.flatnonzero(env.last()[0]["action_mask"]).tolist() == [NPLAY + 2, NPLAY + 3]
    env.step(NPLAY + 2)                                  # take: player 1 owns the 8-cube
    assert env.agent_selection == "player_0" and env.last()[4]["cube_owner"] == 1
    # at 8 = max_cube player 1 may not redouble: not even by ownership
    assert _units(env, "player_1") == (8 / 64, 0.0, 0.0)
    _play_the_turn(env)
    assert env.agent_selection == "player_1" and env.last()[4]["phase"] == "move"
    assert not env.last()[0]["action_mask"][NPLAY:].any()

    # a drop instead: the doubler wins the cube's value before the double, 4 (RULES 8.3)
    env = _aec_from(game)
    env.step(NPLAY + 1)
    env.step(NPLAY + 3)
    assert env.rewards == {"player_0": 4, "player_1": -4}
    assert all(env.terminations.values())


def test_aec_crawford_game_has_no_cube():
    # 5-point match, player 0 leads 4-2: the Crawford game (RULES 10.2), no cube for
    # either side through the whole game; the winner scores the game's points
    # (1, 2 or 3 at the 1-cube).  The game after it, post-Crawford, has the cube.
    crawford = bg.Game.from_position(bg.Position.initial(), match_length=5, score=(4, 2),
                                     crawford=True)
    for seed in range(3):
        env = _aec_from(crawford, seed=seed)
        rng = np.random.default_rng(seed)
        moves = 0
        while not any(env.terminations.values()):
            obs, reward, term, trunc, info = env.last()
            assert info["phase"] == "move" and not obs["action_mask"][NPLAY:].any()
            assert _units(env, "player_0")[1] == _units(env, "player_1")[1] == 0.0
            env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
            moves += 1
        assert moves > 20 and sorted(env.rewards.values()) in ([-1, 1], [-2, 2], [-3, 3])
    post = bg.Game.from_position(bg.Position.initial(), match_length=5, score=(4, 2))
    env = _aec_from(post)
    assert env.last()[4]["phase"] == "roll"
    assert np.flatnonzero(env.last()[0]["action_mask"]).tolist() == [NPLAY, NPLAY + 1]
    assert _units(env, "player_0")[1] == _units(env, "player_1")[1] == 1.0


def test_aec_refuses_a_game_it_cannot_play():
    env = aec_env(cube=True)
    with pytest.raises(bg.InvalidSetupError, match="cube"):
        env.reset(options={"game": bg.Game(bg.Rules(cube=False))})
    with pytest.raises(bg.InvalidSetupError, match="cube"):
        aec_env(cube=False).reset(options={"game": bg.Game()})
    with pytest.raises(bg.InvalidSetupError, match="Game"):
        env.reset(options={"game": "XGID=..."})
    env.reset(seed=2, options={"other": 1})      # keys not ours: a new game, as api_test wants
    info = env.last()[4]
    assert (info["phase"], info["cube"], info["position"]) == ("move", 1, bg.Position.initial())
    mid_turn = bg.Game.from_position(bg.Position.initial(), dice=(3, 1))
    mid_turn.move(8, 5)
    with pytest.raises(bg.InvalidSetupError, match="1 steps made"):
        env.reset(options={"game": mid_turn})
    over = bg.Game.from_position(bg.Position.initial())
    over.double()
    over.drop()
    with pytest.raises(bg.InvalidSetupError, match="over"):
        env.reset(options={"game": over})


@pytest.mark.parametrize("module", ["backgammon.env.gym_env", "backgammon.env.vector",
                                    "backgammon.env.aec", "backgammon.env.cube_match"])
def test_docstring_examples(module):
    import doctest
    import importlib
    result = doctest.testmod(importlib.import_module(module), optionflags=doctest.ELLIPSIS)
    assert result.failed == 0 and result.attempted > 0
