"""backgammon.nn.export: the nets' forward pass in numpy equals the core's (issue 40)."""

from __future__ import annotations

import numpy as np
import pytest

import backgammon as bg
from backgammon.nn.export import NumpyNets, act, logistic


def _game_boards(games: int, seed: int) -> np.ndarray:
    """Positions of random games, seen from the player on roll (contact, race, crashed)."""
    rng = np.random.default_rng(seed)
    out = []
    for k in range(games):
        game = bg.Game(rng=seed + k)
        while not game.over:
            game.roll()
            if game.phase is bg.Phase.MOVE:
                plays = game.position.legal_plays(game.dice)
                game.play(plays[int(rng.integers(len(plays)))])
                out.append(game.position.to_array())
    return np.array(out, dtype=np.int8)


@pytest.mark.parametrize("name", ["fast", "default"])
def test_numpy_forward_pass_equals_the_core(name):
    ev = getattr(bg.Evaluator, name)()
    ref = NumpyNets.from_evaluator(ev)
    boards = _game_boards(3, 7)
    core_net = ev._nets.classify(boards)   # -1: an exact value (finished, bear-off database)
    by_nets = core_net >= 0
    assert by_nets.sum() > 150 and set(core_net[by_nets].tolist()) >= {0, 1}
    assert (ref.classify(boards)[by_nets] == core_net[by_nets]).all()
    # the same formula in float64 against the core's float32: equal to its rounding
    assert np.allclose(ref.evaluate(boards)[by_nets], ev.evaluate_batch(boards)[by_nets],
                       atol=1e-5, rtol=0)


def test_save_load_and_the_activations(tmp_path):
    ref = NumpyNets.from_evaluator(bg.Evaluator.fast())
    ref.save(tmp_path / "fast.npz")
    back = NumpyNets.load(tmp_path / "fast.npz")
    assert back.encoding == ref.encoding and back.nets == ref.nets
    x = bg.Position.initial().to_array()[None]
    assert np.allclose(back.evaluate(x), ref.evaluate(x), atol=1e-6)
    # act(a) = 0.5 + 0.5 a / (1 + |a|): 0 -> 0.5, 1 -> 0.75, -1 -> 0.25
    assert act(np.array([0.0, 1.0, -1.0])).tolist() == [0.5, 0.75, 0.25]
    assert logistic(np.array([0.0]))[0] == 0.5 and logistic(np.array([-1000.0]))[0] > 0


def test_bad_input_raises_our_errors(tmp_path):
    w = bg.Evaluator.fast().weights()
    with pytest.raises(bg.InvalidWeightsError, match="encoding"):
        NumpyNets(w, 7)
    with pytest.raises(bg.InvalidWeightsError, match="contact and race"):
        NumpyNets({k: v for k, v in w.items() if not k.startswith("race")}, 1)
    with pytest.raises(bg.InvalidWeightsError, match="do not fit"):
        NumpyNets(w, 4)
    with pytest.raises(bg.InvalidWeightsError):
        NumpyNets.from_evaluator("fast")
    ref = NumpyNets(w, 1)
    with pytest.raises(bg.InvalidPositionError):
        ref.evaluate(np.zeros((1, 25), dtype=np.int8))
    with pytest.raises(bg.InvalidWeightsError, match="no net"):
        ref.forward(np.zeros((1, 204)), "bearoff")


@pytest.mark.slow
def test_torch_modules_give_the_same_outputs():
    import os
    if os.environ.get("CI") != "true":
        pytest.importorskip("torch")
    import torch
    ref = NumpyNets.from_evaluator(bg.Evaluator.fast())
    mods = ref.to_torch()
    boards = _game_boards(1, 3)
    x = ref.inputs(boards)
    nets = ref.classify(boards)
    for c, name in enumerate(ref.nets):
        rows = nets == c
        if rows.any():
            with torch.no_grad():
                got = mods[name](torch.from_numpy(x[rows])).numpy()
            assert np.allclose(got, ref.forward(x[rows], name), atol=1e-5, rtol=0)
