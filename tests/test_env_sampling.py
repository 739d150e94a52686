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
