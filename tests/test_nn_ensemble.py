"""Evaluator.ensemble: one net per class holding the members side by side,
checked against the mean of the members' output sums computed in numpy;
shared nets kept once, files, move choice, and members that cannot be
combined."""

from __future__ import annotations

import numpy as np
import pytest

import backgammon as bg
from backgammon import _bgcore
from backgammon.nn import Evaluator
from test_nn import sample_positions
from test_nn_middle import raw_outputs


@pytest.fixture(scope="module")
def positions() -> np.ndarray:
    return sample_positions(300, seed=6)


def members() -> list[Evaluator]:
    return [Evaluator.random((21, 9, 13), seed=s, encoding=3, middle=(m, 0, 5))
            for s, m in ((1, 7), (2, 11), (3, 4))]


def test_the_ensemble_is_the_mean_of_the_members_output_sums(positions):
    ms = members()
    ens = Evaluator.ensemble(ms)
    assert ens.hidden == (63, 27, 39) and ens.middle == (22, 0, 15)
    cls = ens._nets.classify(positions)
    ws = [m.weights() for m in ms]
    zero = np.zeros((1, 5), np.float32)
    checked = 0
    for i, c in enumerate(cls):
        if c < 0:     # finished or in the bear-off database: no net answers
            continue
        name = ("contact", "race", "crashed")[c]
        logits = [np.log(o / (1 - o)) for o in (raw_outputs(w, name, positions[i], 3) for w in ws)]
        want = 1 / (1 + np.exp(-np.mean(logits, axis=0)))
        # the core's raw outputs, read back from the loss against zero targets
        loss = ens._nets.sgd_loss(int(c), positions[i:i + 1], zero, np.zeros(1, np.int64))
        assert loss == pytest.approx(-np.log(1 - want).sum(), rel=2e-5)
        checked += 1
    assert checked > 250


def test_a_net_shared_by_every_member_is_kept_once(positions):
    a, b = members()[:2]
    w = b.weights()
    w.update({k: v for k, v in a.weights().items() if k.startswith("race_")})
    b = Evaluator(w, encoding=3)
    ens = Evaluator.ensemble([a, b])
    assert ens.hidden == (42, 9, 26)
    race = ens._nets.classify(positions) == 1
    assert race.any()
    assert np.array_equal(ens.evaluate_batch(positions[race]), a.evaluate_batch(positions[race]))
    assert Evaluator.ensemble([a]).weights().keys() == a.weights().keys()
    assert all(np.array_equal(v, a.weights()[k]) for k, v in Evaluator.ensemble([a, a]).weights().items())


def test_two_members_of_one_layer_are_exact_halves():
    # w2 / 2 and the mean of two biases are exact in float arithmetic
    a = Evaluator.random((8, 4), seed=1)
    b = Evaluator.random((8, 4), seed=2)
    w = Evaluator.ensemble([a, b]).weights()
    assert np.array_equal(w["contact_w2"][:, :8], a.weights()["contact_w2"] / 2)
    assert np.array_equal(w["contact_w1"][:, 8:], b.weights()["contact_w1"])


def test_files_and_move_choice(tmp_path, positions):
    ens = Evaluator.ensemble(members())
    ens.save(tmp_path / "e.npz")
    back = Evaluator.load(tmp_path / "e.npz")
    assert back.hidden == ens.hidden and back.middle == ens.middle
    assert np.array_equal(back.evaluate_batch(positions), ens.evaluate_batch(positions))
    assert back.meta["origin"].startswith("ensemble of ")
    pos = bg.Position(positions[11])
    cands = pos.successors((5, 2))
    pick, probs = ens._nets.choose(pos._b, cands)
    assert np.allclose(probs, ens.evaluate_batch(-cands[:, ::-1]), atol=2e-5)


def test_members_that_cannot_be_combined():
    one = Evaluator.random((8, 4, 8), seed=1, encoding=3)
    two = Evaluator.random((8, 4, 8), seed=2, encoding=3, middle=(4, 0, 0))
    with pytest.raises(bg.InvalidWeightsError, match="mix one and two hidden layers"):
        Evaluator.ensemble([one, two])
    with pytest.raises(bg.InvalidWeightsError, match="share their encoding and nets"):
        Evaluator.ensemble([one, Evaluator.random((8, 4, 8), seed=1, encoding=2)])
    with pytest.raises(bg.InvalidWeightsError, match="share their encoding and nets"):
        Evaluator.ensemble([one, Evaluator.random((8, 4), seed=1, encoding=3)])
    with pytest.raises(bg.InvalidWeightsError, match="one or more"):
        Evaluator.ensemble([])
    with pytest.raises(bg.InvalidWeightsError, match="one or more"):
        Evaluator.ensemble([one, "nets.npz"])
    top = _bgcore.NN_MAX_HIDDEN
    big = [Evaluator.random((top // 2 + 1, 4), seed=s) for s in (1, 2)]
    with pytest.raises(bg.InvalidWeightsError, match="hidden units"):
        Evaluator.ensemble(big)


def test_a_bad_net_index_is_refused_not_read_out_of_bounds(positions):
    nets = Evaluator.random((8, 4)).copy()._nets     # two nets: 0 and 1
    zero = np.zeros((1, 5), np.float32)
    for c in (-1, 2, 3):
        with pytest.raises(ValueError, match="net index"):
            nets.sgd_loss(c, positions[:1], zero, np.zeros(1, np.int64))
        with pytest.raises(ValueError, match="net index"):
            nets.sgd_nparams(c)
        with pytest.raises(ValueError, match="net index"):
            nets.sgd_train(c, positions[:1], zero, np.zeros(1, np.int64), 1, True, 0.1, 0.1, 1,
                           0.9, 0.999, 1e-8, np.zeros(8, np.float32), np.zeros(2, np.int64))
