"""Bot kit II (issue 40): the environments with the clients bot authors use."""

from __future__ import annotations

import copy
import os
import pickle

import numpy as np
import pytest

import backgammon as bg


def _need(module: str):
    """The optional ``env`` extra: skipped outside CI, a failure under CI=true."""
    if os.environ.get("CI") == "true":
        return __import__(module)
    return pytest.importorskip(module)


gymnasium = _need("gymnasium")
_need("pettingzoo")

from backgammon.env import BackgammonEnv, VectorEnv, actions, aec_env, openspiel  # noqa: E402


def _first_legal(info) -> int:
    return int(np.flatnonzero(info["action_mask"])[0])


def _play_out(env, info, rng):
    """Random legal ids to the end of the game: the (obs, reward) trail."""
    trail = []
    while True:
        obs, r, term, trunc, info = env.step(int(rng.choice(np.flatnonzero(info["action_mask"]))))
        o = obs["observation"] if isinstance(obs, dict) else obs
        trail.append((o.tobytes(), r))
        if term or trunc:
            return trail


# -- 1. info["episode"] belongs to Gymnasium and SB3 --------------------------------

def test_info_leaves_the_episode_key_to_gymnasium():
    env = BackgammonEnv(opponent="random", seed=1)
    _, info = env.reset()
    assert "episode" not in info and info["episode_index"] == 0
    _, info = env.reset()
    assert info["episode_index"] == 1
    cube = BackgammonEnv(opponent="random", cube=True, seed=1)
    _, info = cube.reset()
    assert "episode" not in info and info["episode_index"] == 0


def test_record_episode_statistics_on_the_bare_env():
    from gymnasium.wrappers import RecordEpisodeStatistics
    env = RecordEpisodeStatistics(BackgammonEnv(opponent="random"))
    _, info = env.reset(seed=3)
    total, steps = 0.0, 0
    while True:
        _, r, term, trunc, info = env.step(_first_legal(info))
        total += r
        steps += 1
        if term or trunc:
            break
    # the wrapper's own record of the episode: our reward sum and step count
    assert info["episode"]["r"] == total and info["episode"]["l"] == steps
    assert total in (-3, -2, -1, 1, 2, 3)


# -- 3. an opponent that raises --------------------------------------------------------

@pytest.mark.parametrize("cube", [False, True])
def test_an_opponent_exception_demands_reset(cube):
    calls = {"n": 0}

    def flaky(boards):
        calls["n"] += 1
        if calls["n"] == 3:
            raise RuntimeError("the opponent broke")
        return -boards[:, 1:25].clip(min=0).sum(axis=1)

    env = BackgammonEnv(opponent=flaky, cube=cube, seed=4)
    _, info = env.reset()
    rng = np.random.default_rng(0)
    with pytest.raises(RuntimeError, match="the opponent broke"):
        for _ in range(500):
            _, _, term, _, info = env.step(int(rng.choice(np.flatnonzero(info["action_mask"]))))
            if term:
                _, info = env.reset()
    # every id is refused with our error, naming the cause, until reset()
    for a in (0, _first_legal(info)):
        with pytest.raises(bg.IllegalActionError, match="RuntimeError.*reset"):
            env.step(a)
    assert not env.action_masks().any()
    _, info = env.reset()
    _play_out(env, info, rng)     # and the env plays whole games again


# -- 4. the dice still to play are in the observation ----------------------------------

@pytest.mark.parametrize("encoding,k", [("tesauro", 198), ("openspiel", 200), ("net", None)])
def test_the_observation_ends_with_the_dice_left(encoding, k):
    env = BackgammonEnv(opponent="random", encoding=encoding, seed=5)
    k = k or bg.env.encoding_size(encoding)
    assert env.observation_space.shape == (k + 6,)
    obs, info = env.reset()
    rng = np.random.default_rng(5)
    seen_mid_turn = 0
    for _ in range(300):
        left = info["dice_left"]
        assert obs[k:].tolist() == [left.count(d) for d in range(1, 7)]
        if len(left) not in (2, 4):
            seen_mid_turn += 1
        obs, _, term, _, info = env.step(int(rng.choice(np.flatnonzero(info["action_mask"]))))
        if term:
            obs, info = env.reset()
    assert seen_mid_turn > 20


def test_the_opening_rolls_give_distinct_observations():
    # the same board, 15 opening rolls: without the dice units all 15 observations were one
    env = BackgammonEnv(opponent="random", seed=0)
    by_dice = {}
    for seed in range(200):
        obs, info = env.reset(seed=seed)
        if info["position"] == bg.Position.initial():
            by_dice[tuple(sorted(info["dice"]))] = obs.tobytes()
    assert len(by_dice) >= 10 and len(set(by_dice.values())) == len(by_dice)


def test_dice_units_option():
    assert BackgammonEnv(opponent="random", dice_units=False).observation_space.shape == (198,)
    assert BackgammonEnv(opponent="random", encoding="pgx").observation_space.shape == (34,)
    assert BackgammonEnv(opponent="random", cube=True).observation_space.shape == (198 + 4 + 6,)
    with pytest.raises(bg.InvalidSetupError, match="afterstate"):
        BackgammonEnv(opponent="random", actions="afterstate", dice_units=True)
    with pytest.raises(bg.InvalidSetupError, match="dice_units"):
        BackgammonEnv(opponent="random", dice_units=1)
    venv = VectorEnv(2, opponent="random", seed=1)
    obs, _ = venv.reset()
    assert obs.shape == (2, 204) and obs[:, 198:].sum(axis=1).tolist() in ([2, 2], [2, 4],
                                                                            [4, 2], [4, 4])


# -- 5. micro ids: the helpers' numbering and whole plays ------------------------------

def test_micro_helpers_take_points_and_refuse_bad_input_with_our_error():
    # docs/env.md: id = 6 src + die - 1, Pgx's src = 26 - point, the bar (25) is src 1
    assert actions.micro_action(25, 3) == 6 * 1 + 2
    assert actions.micro_action(8, 3) == 6 * 18 + 2
    assert actions.micro_step(6 * 18 + 2) == (8, 3)
    for bad in [(0, 1), (26, 1), (24, 0), (24, 7), (24.0, 1), (True, 1)]:
        with pytest.raises(bg.IllegalActionError):
            actions.micro_action(*bad)
    for bad in (-1, 156, 3.0, True):
        with pytest.raises(bg.IllegalActionError):
            actions.micro_step(bad)


def test_play_to_micro_and_back(movegen_cases):
    pos = bg.Position.initial()
    assert actions.play_to_micro(pos.parse_play("8/5 6/5", (3, 1)), (3, 1)) == [
        actions.micro_action(8, 3), actions.micro_action(6, 1)]
    checked = 0
    for case in movegen_cases[:300:3]:
        position, dice = bg.Position.from_array(case["board"]), tuple(case["dice"])
        for play in position.legal_plays(dice)[:6]:
            ids = actions.play_to_micro(play, dice)
            assert len(ids) <= (4 if dice[0] == dice[1] else 2)   # one id per die played
            assert actions.micro_to_play(position, dice, ids) == play
            checked += 1
    assert checked > 100
    with pytest.raises(bg.IllegalActionError):
        actions.micro_to_play(pos, (3, 1), [actions.micro_action(8, 3)])   # a step short
    with pytest.raises(bg.IllegalActionError):
        actions.micro_to_play(pos, (3, 1), [actions.micro_action(24, 6)])  # not a step of 3-1


# -- 6. OpenSpiel histories that stop inside a double ----------------------------------

def test_openspiel_history_round_trips_mid_double():
    game = bg.Game(rng=11)
    rng = np.random.default_rng(11)
    doubles = 0
    while doubles < 3:        # a stretch of a game with three doubles rolled
        game.roll()
        if game.phase is bg.Phase.MOVE:
            doubles += game.dice[0] == game.dice[1]
            plays = game.position.legal_plays(game.dice)
            game.play(plays[int(rng.integers(len(plays)))])
    history = openspiel.to_history(game)
    mid_double = 0
    for n in range(1, len(history) + 1):
        g = openspiel.game_from_history(history[:n])
        assert openspiel.to_history(g) == history[:n]
        mid_double += bool(g.steps)
    assert mid_double > 0      # prefixes that end after a double's first half-turn


# -- 7. bad input: our own errors ------------------------------------------------------

def test_bad_actions_and_seeds_raise_our_errors():
    env = BackgammonEnv(opponent="random")
    with pytest.raises(bg.InvalidSetupError, match="2\\*\\*64"):
        env.reset(seed=2 ** 64)
    with pytest.raises(bg.InvalidSetupError):
        BackgammonEnv(opponent="random", seed=2 ** 64)
    _, info = env.reset(seed=2 ** 64 - 1)
    a = _first_legal(info)
    for bad in (float(a), True, np.float64(a), float("inf"), float("nan"), "3", None,
                np.array([a]), -1, 156):
        with pytest.raises(bg.IllegalActionError):
            env.step(bad)
    env.step(np.array(a))        # a 0-d integer array: what predict() returns
    venv = VectorEnv(2, opponent="random")
    with pytest.raises(bg.IllegalActionError, match="reset"):
        venv.step(np.zeros(2, dtype=np.int64))
    for bad_seed in (2 ** 64, -1, 1.5, True):
        with pytest.raises(bg.InvalidSetupError):
            venv.reset(seed=bad_seed)
    venv.reset(seed=1)
    with pytest.raises(bg.IllegalActionError):
        venv.step(np.array([True, False]))
    with pytest.raises(bg.IllegalActionError):
        venv.step(np.array([1.0, 2.0]))
    aec = aec_env()
    for bad_seed in (2 ** 64, -1, 1.5, "x"):
        with pytest.raises(bg.InvalidSetupError):
            aec.reset(seed=bad_seed)
    # every one of these is a ValueError too (the errors' common base)
    assert issubclass(bg.InvalidSetupError, ValueError)
    assert issubclass(bg.IllegalActionError, ValueError)


# -- 8. copies, pickles and saved states -----------------------------------------------

@pytest.mark.parametrize("kw", [dict(), dict(cube=True), dict(actions="afterstate",
                                                              max_candidates=600)])
def test_copies_and_pickles_play_on_identically(kw):
    env = BackgammonEnv(opponent="random", seed=9, **kw)
    _, info = env.reset()
    for _ in range(5):
        _, _, term, _, info = env.step(_first_legal(info))
        assert not term
    twins = [copy.deepcopy(env), pickle.loads(pickle.dumps(env))]
    saved = env.clone_state()
    want = _play_out(env, info, np.random.default_rng(1))
    for twin in twins:
        assert _play_out(twin, info, np.random.default_rng(1)) == want
    env.restore_state(saved)
    assert _play_out(env, info, np.random.default_rng(1)) == want
    with pytest.raises(bg.InvalidSetupError):
        env.restore_state({"not": "a state"})


def test_vector_env_copies_and_saved_states():
    venv = VectorEnv(3, opponent="random", seed=2)
    venv.reset()
    venv.step(venv.sample_actions())
    saved = venv.clone_state()
    dice = venv._core.dice.copy()
    twin = pickle.loads(pickle.dumps(venv))
    assert np.array_equal(twin._core.dice, dice)      # the chance outcomes travel too
    twin2 = copy.deepcopy(venv)
    runs = []
    for v in (venv, twin, twin2):
        out = []
        for _ in range(50):
            obs, r, *_ = v.step(v.sample_actions())
            out.append((obs.tobytes(), r.tobytes()))
        runs.append(out)
    assert runs[0] == runs[1] == runs[2]
    venv.restore_state(saved)
    assert np.array_equal(venv._core.dice, dice)
    assert [(o.tobytes(), r.tobytes()) for o, r, *_ in
            (venv.step(venv.sample_actions()) for _ in range(50))] == runs[0]


def test_turns_copy_and_pickle():
    t = actions.turn(bg.Position.initial(), (6, 6))
    t.micro(actions.micro_action(24, 6))
    for c in (copy.deepcopy(t), pickle.loads(pickle.dumps(t))):
        assert c.board == t.board and c.left == t.left == (6, 6, 6)


# -- 8. reset(options={"game": g}) -----------------------------------------------------

def test_reset_plays_on_from_a_given_game():
    pos = bg.Position.from_array([0, 0, 2, 2, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
                                  0, 0, -2, -2, 0, 0, 0, 0, 0])
    game = bg.Game.from_position(pos, turn=0, dice=(6, 5), rules=bg.Rules(cube=False))
    env = BackgammonEnv(opponent="random", seed=3)
    obs, info = env.reset(options={"game": game})
    # our 4 checkers on 2 and 3 (none borne off): 6-5 bears off two from the 3 point
    assert info["position"] == pos and info["dice"] == (6, 5) and info["dice_left"] == (6, 5)
    assert obs[198:].tolist() == [0, 0, 0, 0, 1, 1]
    assert game.phase is bg.Phase.MOVE and game.position == pos    # the caller's game untouched
    total = sum(r for _, r in _play_out(env, info, np.random.default_rng(0)))
    assert total in (-1, 1)        # both sides have borne off checkers: no gammon
    _, info = env.reset()          # without options: the opening again
    assert info["episode_index"] == 1
    with pytest.raises(bg.InvalidSetupError, match="Game"):
        env.reset(options={"game": "not a game"})
    with pytest.raises(bg.InvalidSetupError, match="cube"):
        env.reset(options={"game": bg.Game(bg.Rules(cube=True))})   # this env has no cube
    with pytest.raises(bg.InvalidSetupError, match="whole match"):
        BackgammonEnv(opponent="random", match_length=3).reset(options={"game": bg.Game()})


def test_a_registered_gym_id():
    # "module:id" imports the module that registers the id
    env = gymnasium.make("backgammon.env.gym_env:backgammon/Backgammon-v0", opponent="random",
                         encoding="pgx")
    obs, info = env.reset(seed=1)
    assert obs.shape == (34,) and info["action_mask"].shape == (156,)
    env.step(_first_legal(info))


# -- SB3 on the bare env, and the VectorEnv as Gymnasium's ------------------------------

@pytest.mark.slow
def test_maskable_ppo_learns_on_the_bare_env():
    if os.environ.get("CI") != "true":
        pytest.importorskip("sb3_contrib")
    # docs/env.md's example as written (it crashed at its first log on the int info["episode"])
    from sb3_contrib import MaskablePPO
    from backgammon.env import BackgammonEnv

    env = BackgammonEnv(opponent="random", encoding="pgx")
    model = MaskablePPO("MlpPolicy", env, n_steps=64, batch_size=64, n_epochs=1, seed=0)
    model.learn(128)                       # a smoke run: raise to 1e6 steps to train
    obs, info = env.reset(seed=1)
    action, _ = model.predict(obs, action_masks=env.action_masks())
    obs, reward, terminated, truncated, info = env.step(action)
    assert info["action_mask"].shape == (156,)


def test_vector_env_is_a_gymnasium_vector_env_with_statistics():
    from gymnasium.vector import AutoresetMode
    from gymnasium.wrappers.vector import RecordEpisodeStatistics
    venv = VectorEnv(4, opponent="random", encoding="pgx", seed=3)
    assert isinstance(venv, gymnasium.vector.VectorEnv)
    assert venv.metadata["autoreset_mode"] is AutoresetMode.SAME_STEP
    assert venv.observation_space.shape == (4, 34) and venv.single_action_space.n == 156
    env = RecordEpisodeStatistics(venv)
    env.reset(seed=3)
    done = 0
    for _ in range(2000):
        _, r, term, trunc, infos = env.step(venv.sample_actions())
        if "episode" in infos:
            ended = infos["_episode"]
            # the wrapper's returns are the games' points
            assert set(infos["episode"]["r"][ended].tolist()) <= {-3, -2, -1, 1, 2, 3}
            done += int(ended.sum())
    assert done > 10


def test_vector_env_calls_a_python_opponent_once_for_all_games():
    calls = []

    def racer(boards):
        calls.append(len(boards))
        return -boards[:, 1:25].clip(min=0).sum(axis=1)

    venv = VectorEnv(8, opponent=racer, seed=4)
    venv.reset()
    rounds, ended = 0, 0
    for _ in range(300):
        before = len(calls)
        _, r, term, _, _ = venv.step(venv.sample_actions())
        rounds += len(calls) - before
        ended += int(term.sum())
        assert set(r[term].tolist()) <= {-3, -2, -1, 1, 2, 3}
    # at most a few rounds of opponent turns per step (a turn, or a game ended and the
    # opponent opened the next), never one call per game
    assert ended > 0 and rounds <= 3 * 300 and max(calls) > 20


# -- self-play on the VectorEnv ------------------------------------------------------------

def test_vector_self_play_both_seats_act_and_winners_score():
    venv = VectorEnv(16, opponent="self", encoding="pgx", seed=6)
    obs, infos = venv.reset()
    seats_seen, ended = set(), 0
    for _ in range(600):
        seats_seen.update(infos["to_play"].tolist())
        # each observation is the mover's: its 15 checkers on points, bar and off
        assert (np.clip(obs[:, :24], 0, None).sum(axis=1) + obs[:, 24] + obs[:, 26] == 15).all()
        obs, r, term, trunc, infos = venv.step(venv.sample_actions())
        assert not infos["illegal"].any()
        # the step that ends a game is the winner's last: its points, +1, 2 or 3
        assert set(r[term].tolist()) <= {1, 2, 3} and not r[~term].any()
        ended += int(term.sum())
    assert seats_seen == {0, 1} and ended > 5


def test_cleanrl_style_self_play_loop_of_the_docs():
    # docs/env.md, "Self-play": a linear policy played by both seats, 64 games in lockstep
    envs = VectorEnv(64, opponent="self", encoding="pgx", seed=0)
    obs, infos = envs.reset()
    w = np.zeros((34, 156))                      # the policy's weights (logits = obs @ w)
    wins = 0
    for step in range(300):
        actions = envs.sample_actions(obs @ w)   # softmax over each game's legal ids, in the core
        obs, rewards, terminations, truncations, infos = envs.step(actions)
        wins += int((rewards > 0).sum())         # a game's points go to its winner's last step
    assert not infos["illegal"].any() and wins > 0, wins


@pytest.mark.slow
def test_maskable_ppo_learns_on_the_vector_env():
    if os.environ.get("CI") != "true":
        pytest.importorskip("sb3_contrib")
    from sb3_contrib import MaskablePPO
    from backgammon.env.sb3 import SB3VecEnv
    env = SB3VecEnv(VectorEnv(8, opponent="random", encoding="pgx", seed=0))
    obs = env.reset()
    masks = np.stack(env.env_method("action_masks"))
    assert obs.shape == (8, 34) and masks.shape == (8, 156) and masks.any(axis=1).all()
    model = MaskablePPO("MlpPolicy", env, n_steps=32, batch_size=64, n_epochs=1, seed=0,
                        policy_kwargs={"net_arch": [16]})
    model.learn(512)
    # every id the policy chose under the masks was legal: none refused by the games
    env.step_async(model.predict(env.reset(), action_masks=np.stack(
        env.env_method("action_masks")))[0])
    *_, infos = env.step_wait()
    assert not any(i.get("illegal_action") for i in infos)
    # docs/env.md's example as written
    env = SB3VecEnv(VectorEnv(64, opponent="random", encoding="pgx", seed=0))
    model = MaskablePPO("MlpPolicy", env, n_steps=8, batch_size=512, n_epochs=1, seed=0)
    model.learn(1_024)                     # a smoke run (run as written by the tests)


def test_aec_max_cycles_truncates_and_passes_the_api_test():
    from pettingzoo.test import api_test
    env = aec_env(max_cycles=7)
    env.reset(seed=2)
    for n in range(7):
        assert not any(env.truncations.values())
        mask = env.observe(env.agent_selection)["action_mask"]
        env.step(int(np.flatnonzero(mask)[0]))
    # 7 actions of the two players: no game ends that soon, both are truncated
    assert env.truncations == {"player_0": True, "player_1": True}
    assert not any(env.terminations.values()) and env.rewards == {"player_0": 0, "player_1": 0}
    api_test(aec_env(max_cycles=30), num_cycles=40)
    with pytest.raises(bg.InvalidSetupError):
        aec_env(max_cycles=0)


def test_aec_refuses_ids_that_are_not_integers():
    env = aec_env()
    env.reset(seed=3)
    a = int(np.flatnonzero(env.observe(env.agent_selection)["action_mask"])[0])
    for bad in (float(a), True, float("inf"), "1"):
        with pytest.raises(bg.IllegalActionError):
            env.step(bad)
    env.step(np.int64(a))


def test_rolls_are_the_chance_outcomes():
    rolls = dict(actions.ROLLS)
    assert len(rolls) == 21 and abs(sum(rolls.values()) - 1) < 1e-12
    assert rolls[(6, 6)] == 1 / 36 and rolls[(6, 5)] == 2 / 36 and (5, 6) not in rolls
    # a chosen roll played from a chosen position (an expectimax node's child)
    env = BackgammonEnv(opponent="random", seed=0)
    game = bg.Game.from_position(bg.Position.initial(), dice=(6, 6), rules=bg.Rules(cube=False))
    _, info = env.reset(options={"game": game})
    assert info["dice_left"] == (6, 6, 6, 6)


def test_vector_infos_have_a_row_per_game():
    from gymnasium.wrappers.vector import DictInfoToList
    env = DictInfoToList(VectorEnv(3, opponent="random", seed=1))
    _, infos = env.reset()
    assert len(infos) == 3 and infos[0]["action_mask"].shape == (156,)
    _, _, _, _, infos = env.step(np.zeros(3, dtype=np.int64))   # id 0: Pgx's no-op, refused
    assert [i["illegal"] for i in infos] == [True, True, True]


def test_reset_from_a_cube_game():
    env = BackgammonEnv(opponent="random", cube=True, seed=1)
    # the opponent (player 1) to play 6-5 first; then the agent, centred cube, may double
    g = bg.Game.from_position(bg.Position.initial(), turn=1, dice=(6, 5))
    _, info = env.reset(options={"game": g})
    assert info["phase"] == "roll" and info["cube"] == 1
    # the agent owns a 2-cube and is on roll: roll (156) or double (157), RULES 8.1
    g = bg.Game.from_position(bg.Position.initial(), turn=0, cube=2, cube_owner=0)
    _, info = env.reset(options={"game": g})
    assert (info["cube"], info["cube_owner"]) == (2, 0)
    assert np.flatnonzero(info["action_mask"]).tolist() == [156, 157]


def test_vector_final_obs_is_the_finished_games_last_board():
    venv = VectorEnv(8, opponent="random", encoding="pgx", seed=9)
    venv.reset()
    seen = 0
    for _ in range(400):
        _, r, term, trunc, infos = venv.step(venv.sample_actions())
        if not term.any():
            assert "final_obs" not in infos
            continue
        assert infos["_final_obs"].tolist() == term.tolist()
        for i in np.flatnonzero(term):
            last = infos["final_obs"][i]
            own_off, opp_off = last[26], -last[27]      # pgx: borne-off counts (docs/env.md)
            # the winner has borne off all 15: the agent when it scored, else the opponent
            assert (own_off == 15) if r[i] > 0 else (opp_off == 15)
            assert not last[28:].any()                   # no dice left to play
            seen += 1
        assert all(infos["final_obs"][i] is None for i in np.flatnonzero(~term))
    assert seen > 5


def test_vector_env_opponent_exception_demands_reset():
    calls = {"n": 0}

    def flaky(boards):
        calls["n"] += 1
        if calls["n"] == 3:
            raise RuntimeError("the opponent broke")
        return -boards[:, 1:25].clip(min=0).sum(axis=1)

    venv = VectorEnv(4, opponent=flaky, seed=2)
    venv.reset()
    with pytest.raises(RuntimeError, match="the opponent broke"):
        for _ in range(50):
            venv.step(venv.sample_actions())
    with pytest.raises(bg.IllegalActionError, match="RuntimeError.*reset"):
        venv.step(venv.sample_actions())
    venv.reset()
    for _ in range(20):
        _, _, _, _, infos = venv.step(venv.sample_actions())
        assert not infos["illegal"].any()


def test_vector_self_play_dice_units_are_the_movers():
    venv = VectorEnv(8, opponent="self", seed=4)      # tesauro: 198 units, then 6 dice units
    obs, infos = venv.reset()
    for _ in range(200):
        left = obs[:, 198:]
        # at every decision the player to act has 1..4 dice to play, all of them one face
        # when more than 2 (a double)
        assert ((left.sum(axis=1) >= 1) & (left.sum(axis=1) <= 4)).all()
        assert all((row > 0).sum() == 1 for row in left if row.sum() > 2)
        obs, *_ = venv.step(venv.sample_actions())
