"""``VectorEnv(n, cube=True)`` and ``VectorEnv(n, match_length=N)``: the single env's
cubeful games and matches (``BackgammonEnv(cube=..., match_length=...)``) behind the vector API."""

from __future__ import annotations

import copy
import os
import pickle
from pathlib import Path

import numpy as np
import pytest

import backgammon as bg

if os.environ.get("CI") == "true":   # the optional env extra: required in CI
    import gymnasium  # noqa: F401
else:
    pytest.importorskip("gymnasium")

from backgammon.env import BackgammonEnv, VectorEnv  # noqa: E402

ROLL, DOUBLE, TAKE, DROP = range(4)     # the cube ids after the play ids


def _steps(venv, count, rng):
    """``count`` steps of random legal ids: the (obs, rewards, term, trunc) of each."""
    trail = []
    for _ in range(count):
        a = np.array([rng.choice(np.flatnonzero(m)) for m in venv.action_masks()])
        obs, r, term, trunc, infos = venv.step(a)
        assert not infos["illegal"].any()
        trail.append((obs.copy(), r.copy(), term.copy(), trunc.copy()))
    return trail


@pytest.mark.parametrize("kw", [
    dict(encoding="pgx", cube=True),
    dict(encoding="tesauro", match_length=3),
    dict(encoding="pgx", actions="openspiel", cube=True, match_length=2),
    dict(encoding="pgx", actions="afterstate", cube=True, max_candidates=600),
])
def test_slot_zero_plays_the_single_envs_games(kw):
    # by construction slot 0 of seed s rolls the dice of BackgammonEnv(seed=s), episode by episode
    venv = VectorEnv(3, opponent="random", seed=11, **kw)
    env = BackgammonEnv(opponent="random", seed=11, **kw)
    obs, infos = venv.reset()
    o, info = env.reset()
    flat = (lambda x: np.concatenate([x["observation"], x["candidates"].ravel()])
            if isinstance(x, dict) else x)
    assert venv.single_observation_space.shape == obs.shape[1:]
    ended = 0
    rng = np.random.default_rng(3)
    for _ in range(1500):
        assert np.array_equal(flat(o), obs[0])
        assert np.array_equal(info["action_mask"], infos["action_mask"][0])
        assert info["cube"] == infos["cube"][0] and info["dice"] == tuple(infos["dice"][0])
        if "score" in info:
            assert tuple(info["score"]) == tuple(infos["score"][0])
        a = np.array([rng.choice(np.flatnonzero(m)) for m in venv.action_masks()])
        obs, r, term, trunc, infos = venv.step(a)
        o, r0, t0, tr0, info = env.step(int(a[0]))
        assert (r0, t0, tr0) == (r[0], term[0], trunc[0])
        if t0 or tr0:
            assert np.array_equal(flat(o), infos["final_obs"][0])
            o, info = env.reset()
            ended += 1
    assert ended >= 2


def test_slots_do_not_depend_on_how_many_there_are():
    small, big = (VectorEnv(k, opponent="random", encoding="pgx", cube=True, seed=2)
                  for k in (2, 5))
    small.reset()
    big.reset()
    for _ in range(200):
        a = big.sample_actions()
        s = small.step(a[:2])
        b = big.step(a)
        assert np.array_equal(s[0], b[0][:2]) and np.array_equal(s[1], b[1][:2])


def test_money_rewards_are_points_times_the_cube():
    # RULES 7 and 8: a game ends for 1, 2 or 3 points times the cube (a power of two,
    # at most 64), or for the cube's value when a double is dropped
    venv = VectorEnv(16, opponent="random", encoding="pgx", cube=True, seed=7)
    venv.reset()
    rng = np.random.default_rng(1)
    allowed = {p * c for p in (1, 2, 3) for c in (1, 2, 4, 8, 16, 32, 64)}
    seen, cubes = set(), set()
    for _ in range(1500):
        a = np.array([rng.choice(np.flatnonzero(m)) for m in venv.action_masks()])
        _, r, term, trunc, infos = venv.step(a)
        cubes.update(infos["cube"].tolist())
        assert (r[~term] == 0).all()
        for x in r[term]:
            assert abs(x) in allowed
            seen.add(abs(x))
    assert len(seen) >= 3 and max(cubes) >= 2   # doubles were offered and taken


def test_the_rewards_of_a_match_sum_to_one_won_or_lost():
    # paid game by game as twice the change of the match winning chance, from 50 %:
    # a whole match sums to +1 or -1 (docs/env.md)
    venv = VectorEnv(8, opponent="random", encoding="pgx", cube=True, match_length=3, seed=5)
    venv.reset()
    rng = np.random.default_rng(2)
    total = np.zeros(8)
    matches = 0
    for _ in range(4000):
        a = np.array([rng.choice(np.flatnonzero(m)) for m in venv.action_masks()])
        _, r, term, trunc, infos = venv.step(a)
        assert not trunc.any()
        total += r
        for i in np.flatnonzero(term):
            assert abs(abs(total[i]) - 1.0) < 1e-5, total[i]
            assert tuple(infos["score"][i]) == (0, 0)      # the next match has begun
            total[i] = 0
            matches += 1
    assert matches >= 4


def test_the_agent_doubles_and_a_bot_drops():
    class Dropper:
        def choose_play(self, game):
            return game.position.legal_plays(game.dice)[0]

        def cube_action(self, game):
            return "drop" if game.phase is bg.Phase.DOUBLED else "roll"

    venv = VectorEnv(4, opponent=Dropper(), encoding="pgx", cube=True, seed=9)
    _, infos = venv.reset()
    rng = np.random.default_rng(0)
    done = np.zeros(4, dtype=bool)
    for _ in range(400):
        masks = venv.action_masks()
        # double at the first chance; random plays until then
        a = np.array([156 + DOUBLE if m[156 + DOUBLE] and not d else rng.choice(np.flatnonzero(m))
                      for m, d in zip(masks, done)])
        doubled = a == 156 + DOUBLE
        _, r, term, _, infos = venv.step(a)
        # the dropped double ends the game: the doubler wins the cube's value, 1 (RULES 8.3)
        assert (r[doubled] == 1.0).all() and term[doubled].all()
        done |= doubled
        if done.all():
            break
    assert done.all()


def test_saved_states_copies_and_pickles_play_on_identically():
    venv = VectorEnv(3, opponent="random", encoding="pgx", cube=True, match_length=3, seed=4)
    venv.reset()
    _steps(venv, 50, np.random.default_rng(0))
    saved = venv.clone_state()
    twins = [copy.deepcopy(venv), pickle.loads(pickle.dumps(venv))]
    rng = np.random.default_rng(9)
    ids, first = [], []
    for _ in range(150):
        a = np.array([rng.choice(np.flatnonzero(m)) for m in venv.action_masks()])
        ids.append(a)
        first.append(tuple(x.copy() for x in venv.step(a)[:4]))
    for other in twins:
        for a, want in zip(ids, first):
            got = other.step(a)[:4]
            assert all(np.array_equal(g, w) for g, w in zip(got, want))
    venv.restore_state(saved)
    for a, want in zip(ids, first):
        got = venv.step(a)[:4]
        assert all(np.array_equal(g, w) for g, w in zip(got, want))


def test_illegal_ids_do_not_move_and_the_options_are_checked():
    venv = VectorEnv(2, opponent="random", encoding="pgx", cube=True, seed=1)
    with pytest.raises(bg.IllegalActionError, match="reset"):
        venv.step(np.zeros(2, dtype=np.int64))
    obs, infos = venv.reset()
    before = obs.copy()
    bad = np.array([np.flatnonzero(~m)[0] for m in venv.action_masks()])
    obs, r, term, trunc, infos = venv.step(np.array([bad[0], -1]))
    assert infos["illegal"].all() and np.array_equal(obs, before) and not r.any()
    with pytest.raises(bg.InvalidSetupError, match="self-play"):
        VectorEnv(2, opponent="self", cube=True)
    with pytest.raises(bg.InvalidSetupError, match="threads"):
        VectorEnv(2, opponent="random", match_length=5, threads=2)
    with pytest.raises(bg.InvalidSetupError):
        VectorEnv(2, opponent="nobody", cube=True)


def test_a_bot_that_raises_demands_reset():
    class Flaky:
        calls = 0

        def choose_play(self, game):
            Flaky.calls += 1
            if Flaky.calls == 30:
                raise RuntimeError("the bot broke")
            return game.position.legal_plays(game.dice)[0]

    venv = VectorEnv(4, opponent=Flaky(), encoding="pgx", cube=True, seed=3)
    venv.reset()
    with pytest.raises(RuntimeError, match="the bot broke"):
        for _ in range(500):
            venv.step(venv.sample_actions())
    with pytest.raises(bg.IllegalActionError, match="RuntimeError.*reset"):
        venv.step(venv.sample_actions())
    venv.reset()
    _steps(venv, 20, np.random.default_rng(0))


def test_gymnasium_episode_statistics_on_cube_games():
    from gymnasium.wrappers.vector import RecordEpisodeStatistics
    venv = RecordEpisodeStatistics(VectorEnv(4, opponent="random", encoding="pgx", cube=True,
                                             seed=6))
    venv.reset()
    rng = np.random.default_rng(4)
    returns = []
    for _ in range(600):
        a = np.array([rng.choice(np.flatnonzero(m)) for m in venv.unwrapped.action_masks()])
        *_, infos = venv.step(a)
        if "episode" in infos:
            returns += infos["episode"]["r"][infos["_episode"]].tolist()
    assert returns and all(r != 0 for r in returns)


def test_the_docs_example_runs_as_written(capsys):
    # docs/env.md, "The cube and match play in the VectorEnv": its code block, executed
    root = Path(os.environ.get("BACKGAMMON_SOURCE") or Path(__file__).resolve().parents[1])
    text = (root / "docs" / "env.md").read_text()   # the checkout's (.ci/run sets the variable)
    section = text.split("### The cube and match play in the VectorEnv", 1)[1]
    code = section.split("```python\n", 1)[1].split("```", 1)[0]
    scope: dict = {}
    exec(compile(code, "docs/env.md", "exec"), scope)
    assert scope["obs"].shape == (8, 42) and scope["infos"]["score"].shape == (8, 2)
    assert capsys.readouterr().out.count("\n") >= 1


@pytest.mark.slow
def test_maskable_ppo_learns_on_cube_and_match_games():
    # the SB3 adapter over the vector API works the same with the cube and a match
    if os.environ.get("CI") != "true":
        pytest.importorskip("sb3_contrib")
    from sb3_contrib import MaskablePPO
    from backgammon.env.sb3 import SB3VecEnv
    env = SB3VecEnv(VectorEnv(4, opponent="random", encoding="pgx", cube=True, match_length=3,
                              seed=0))
    obs = env.reset()
    assert obs.shape == (4, 42)
    model = MaskablePPO("MlpPolicy", env, n_steps=32, batch_size=64, n_epochs=1, seed=0,
                        policy_kwargs={"net_arch": [16]})
    model.learn(256)
    env.step_async(model.predict(env.reset(), action_masks=np.stack(
        env.env_method("action_masks")))[0])
    *_, infos = env.step_wait()
    assert not any(i.get("illegal_action") for i in infos)
