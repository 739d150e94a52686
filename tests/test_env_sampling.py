"""``VectorEnv.sample_actions(logits)``: a masked softmax draw per game, in the core."""

from __future__ import annotations

import os

import numpy as np
import pytest

import backgammon as bg

if os.environ.get("CI") == "true":   # the optional env extra: required in CI
    import gymnasium  # noqa: F401
else:
    pytest.importorskip("gymnasium")

from backgammon.env import VectorEnv  # noqa: E402


def _frequencies(venv, logits, draws):
    counts = np.zeros(logits.shape, dtype=np.int64)
    rows = np.arange(venv.num_envs)
    for _ in range(draws):
        counts[rows, venv.sample_actions(logits)] += 1
    return counts / draws


@pytest.mark.parametrize("kw", [dict(), dict(cube=True)])
def test_draws_follow_the_softmax_over_the_legal_ids(kw):
    venv = VectorEnv(4, opponent="random", encoding="pgx", seed=8, **kw)
    venv.reset()
    masks = venv.action_masks().copy()
    rng = np.random.default_rng(0)
    logits = rng.normal(scale=1.5, size=masks.shape)
    logits[~masks] = 50.0                       # illegal ids: never drawn, whatever their logit
    # the expected law, by definition: exp(logit) normalised over each game's legal ids
    want = np.where(masks, np.exp(logits - 50.0), 0.0)
    want /= want.sum(axis=1, keepdims=True)
    draws = 4000 if kw else 20000
    got = _frequencies(venv, logits, draws)
    assert (got[~masks] == 0).all()
    se = np.sqrt(want * (1 - want) / draws)
    assert (np.abs(got - want) <= 5 * se + 1e-12).all(), np.abs(got - want).max()


def test_minus_infinity_excludes_an_id_and_draws_depend_on_the_seed_alone():
    venv = VectorEnv(3, opponent="random", encoding="pgx", seed=2)
    venv.reset()
    masks = venv.action_masks()
    logits = np.zeros(masks.shape)
    first = np.array([np.flatnonzero(m)[0] for m in masks])
    logits[np.arange(3), first] = -np.inf
    several = masks.sum(axis=1) > 1
    draws = np.array([venv.sample_actions(logits) for _ in range(300)])
    assert (draws[:, several] != first[several]).all()
    again = VectorEnv(3, opponent="random", encoding="pgx", seed=2)
    again.reset()
    assert (np.array([again.sample_actions(logits) for _ in range(300)]) == draws).all()


@pytest.mark.parametrize("kw", [dict(), dict(cube=True)])
def test_bad_logits_raise_our_error_and_change_nothing(kw):
    venv = VectorEnv(2, opponent="random", encoding="pgx", seed=1, **kw)
    ids = venv.single_action_space.n
    with pytest.raises(bg.IllegalActionError, match="reset"):
        venv.sample_actions(np.zeros((2, ids)))
    venv.reset()
    masks = venv.action_masks()
    for bad in (np.zeros((2, ids - 1)), np.zeros(ids), [["x"] * ids] * 2):
        with pytest.raises(bg.InvalidSetupError, match="logits"):
            venv.sample_actions(bad)
    fresh = VectorEnv(2, opponent="random", encoding="pgx", seed=1, **kw)
    fresh.reset()
    for value in (np.nan, np.inf):
        logits = np.zeros((2, ids))
        logits[1, np.flatnonzero(masks[1])[0]] = value
        with pytest.raises(bg.InvalidSetupError, match="game 1"):
            venv.sample_actions(logits)
    # refused before any game's stream moved: the next draws are a fresh env's
    assert all((venv.sample_actions(np.zeros((2, ids))) == fresh.sample_actions(
        np.zeros((2, ids)))).all() for _ in range(20))
    logits = np.where(masks, -np.inf, 0.0)
    with pytest.raises(bg.InvalidSetupError, match="game 0"):
        venv.sample_actions(logits)
    logits = np.where(masks, 0.0, np.nan)          # NaN on illegal ids is never read
    assert masks[np.arange(2), venv.sample_actions(logits)].all()


def test_a_game_with_more_legal_ids_than_the_one_pass_buffer_draws_by_the_same_law():
    """Afterstate ids count the plays, and a position can have more than the
    1,352 ids the core's one-pass draw keeps (here 1-1 with fifteen checkers
    one a point): such a row takes the two-pass draw, which must follow the same
    softmax law, exclude -inf and never draw an illegal id."""
    from backgammon.env.actions import OPENSPIEL_ACTIONS

    board = np.zeros(26, np.int8)
    board[[3, 4, 6, 7, 9, 11, 12, 13, 14, 15, 16, 18, 20, 22, 23]] = 1
    board[1] = -15
    assert len(bg.Position.from_array(board).legal_plays((1, 1))) > OPENSPIEL_ACTIONS
    legal = 2000
    venv = VectorEnv(2, opponent="random", actions="afterstate", max_candidates=4096, seed=3)
    venv.reset()
    state = venv.clone_state()
    core = list(state["core"])
    mask = core[4].copy()
    mask[0] = 0
    mask[0, :legal] = 1            # game 0: the two-pass draw; game 1 as it stands
    core[4] = mask
    state["core"] = tuple(core)
    venv.restore_state(state)
    masks = venv.action_masks()
    assert masks[0].sum() == legal > OPENSPIEL_ACTIONS
    rng = np.random.default_rng(4)
    logits = rng.normal(size=masks.shape)
    logits[0, :3] = (8.0, 7.0, -np.inf)  # two ids that weigh most, one with no chance
    logits[~masks] = 60.0                # illegal ids: never drawn
    want = np.where(masks, np.exp(np.minimum(logits, 8.0) - 8.0), 0.0)
    want /= want.sum(axis=1, keepdims=True)
    draws = 6000
    got = _frequencies(venv, logits, draws)
    assert (got[~masks] == 0).all() and got[0, 2] == 0
    # game 0's two heavy ids one by one, its 1,997 light ones together (each alone is
    # too rare for a normal bound); id 0's chance is 1 / (1 + e^-1 + 1,997 E[e^(z - 8)]),
    # z standard normal: about 0.4, so a uniform draw would fail at once
    got_groups = got[0, 0], got[0, 1], got[0, 3:legal].sum()
    want_groups = want[0, 0], want[0, 1], want[0, 3:legal].sum()
    for g, w in zip(got_groups, want_groups):
        assert abs(g - w) <= 5 * np.sqrt(w * (1 - w) / draws), (g, w)
    assert 0.3 < want[0, 0] < 0.5
