"""Nets with a second ("middle") hidden layer: the forward pass and one
training step against independent numpy implementations, the AVX2 and
baseline kernels, incremental move choice, files, growth, training and bad
input."""

from __future__ import annotations

import random

import numpy as np
import pytest

import backgammon as bg
from backgammon import _bgcore
from backgammon.nn import ARCHITECTURE, ARCHITECTURE_MIDDLE, Evaluator
from backgammon.training.targets import TargetSet
from test_nn import sample_positions
from test_supervised import core_step_matches


@pytest.fixture(scope="module")
def positions() -> np.ndarray:
    return sample_positions(400)


@pytest.fixture(scope="module")
def net() -> Evaluator:
    # odd sizes: the padding of both hidden layers must stay silent
    return Evaluator.random((21, 9, 13), seed=5, encoding=3, middle=(11, 0, 6))


def soft(a: np.ndarray) -> np.ndarray:
    return 0.5 + a / (2 * (1 + np.abs(a)))


def raw_outputs(w: dict, name: str, board: np.ndarray, encoding: int) -> np.ndarray:
    """Net ``name``'s five raw outputs at ``board``, in float64 from the
    unpadded weights: inputs, soft sigmoid, (middle soft sigmoid,) logistic."""
    idx, val = _bgcore.nn_encode(board.tobytes(), encoding)
    x = np.zeros(w[f"{name}_w1"].shape[0])
    np.add.at(x, idx, val)
    h = soft(w[f"{name}_b1"] + x @ w[f"{name}_w1"].astype(np.float64))
    if f"{name}_wm" in w:
        h = soft(w[f"{name}_bm"] + w[f"{name}_wm"].astype(np.float64) @ h)
    return 1 / (1 + np.exp(-(w[f"{name}_w2"] @ h + w[f"{name}_b2"])))


def test_forward_pass_matches_numpy(net, positions):
    w = net.weights()
    cls = net._nets.classify(positions)
    rows = [i for i in range(len(positions)) if cls[i] in (0, 2)][:80]
    assert {int(cls[i]) for i in rows} == {0, 2} or len(rows) == 80
    # raw outputs before tidying, read back from the loss against zero targets
    for i in rows:
        name = ("contact", "race", "crashed")[cls[i]]
        want = raw_outputs(w, name, positions[i], 3)
        zero = np.zeros((1, 5), np.float32)
        loss = net._nets.sgd_loss(int(cls[i]), positions[i:i + 1], zero, np.zeros(1, np.int64))
        assert loss == pytest.approx(-np.log(1 - want).sum(), rel=1e-5)


def test_evaluation_is_the_tidied_forward_pass(net, positions):
    w = net.weights()
    cls = net._nets.classify(positions)
    got = net.evaluate_batch(positions)
    checked = 0
    for i, c in enumerate(cls):
        b = positions[i]
        if c != 0 or (b > 0).sum() == 0 or np.abs(b).sum() < 30:   # full boards, contact
            continue
        if b[b > 0].sum() != 15 or -b[b < 0].sum() != 15:
            continue
        o = raw_outputs(w, "contact", b, 3)
        o[1] = min(o[1], o[0])
        o[2] = min(o[2], o[1])
        o[3] = min(o[3], 1 - o[0])
        o[4] = min(o[4], o[3])
        np.testing.assert_allclose(got[i], o, atol=2e-6)
        checked += 1
    assert checked > 100


def test_avx2_and_baseline_kernels_agree_exactly(net, positions):
    before = _bgcore.NN_AVX2
    pos = bg.Position(positions[7])
    try:
        _bgcore.nn_use_avx2(False)
        base = net.evaluate_batch(positions)
        pick_base = net._nets.choose(pos._b, pos.successors((6, 4)))
        _bgcore.nn_use_avx2(True)
        assert np.array_equal(net.evaluate_batch(positions), base)
        pick = net._nets.choose(pos._b, pos.successors((6, 4)))
        assert pick[0] == pick_base[0] and np.array_equal(pick[1], pick_base[1])
    finally:
        _bgcore.nn_use_avx2(before)


def test_incremental_move_choice_matches_full_evaluation(net):
    rng = random.Random(3)
    for row in sample_positions(80, seed=4):
        pos = bg.Position.from_array(row)
        cands = pos.successors((rng.randint(1, 6), rng.randint(1, 6)))
        pick, probs = net._nets.choose(pos._b, cands)
        full = net.evaluate_batch(-cands[:, ::-1])
        assert np.allclose(probs, full, atol=2e-5)


def test_files_name_the_architecture_and_round_trip(tmp_path, net, positions):
    path = tmp_path / "mid.npz"
    net.save(path)
    with np.load(path) as f:
        assert str(f["architecture"]) == ARCHITECTURE_MIDDLE
        assert f["contact_wm"].shape == (11, 21) and f["contact_w2"].shape == (5, 11)
        assert "race_wm" not in f.files and f["race_w2"].shape == (5, 9)
    back = Evaluator.load(path)
    assert back.middle == (11, 0, 6) and back.hidden == (21, 9, 13)
    assert np.array_equal(back.evaluate_batch(positions), net.evaluate_batch(positions))
    # nets without a middle layer keep the old architecture (older readers load them)
    plain = tmp_path / "plain.npz"
    Evaluator.random((8, 8, 8), encoding=3).save(plain)
    with np.load(plain) as f:
        assert str(f["architecture"]) == ARCHITECTURE


def test_middle_arrays_in_a_one_layer_file_are_refused(tmp_path, net):
    path = tmp_path / "mixed.npz"
    net.save(path)
    with np.load(path) as f:
        data = {k: f[k] for k in f.files}
    data["architecture"] = np.array(ARCHITECTURE)
    with open(path, "wb") as f:
        np.savez(f, **data)
    with pytest.raises(bg.InvalidWeightsError, match="middle-layer arrays"):
        Evaluator.load(path)


def test_pickle_and_copy_keep_the_middle_layer(net, positions):
    import pickle

    for twin in (pickle.loads(pickle.dumps(net)), net.copy()):
        assert twin.middle == net.middle
        assert np.array_equal(twin.evaluate_batch(positions[:40]), net.evaluate_batch(positions[:40]))


def test_growing_keeps_the_answers(net, positions):
    big = net.grown((29, 12, 16))
    assert big.middle == net.middle and big.hidden == (29, 12, 16)
    assert np.array_equal(big.evaluate_batch(positions), net.evaluate_batch(positions))
    two = Evaluator.random((10, 6), seed=2, encoding=2, middle=(8, 0))
    three = two.grown((10, 6, 10), encoding=3)   # the crashed net starts as the contact net
    assert three.middle == (8, 0, 8)
    assert np.array_equal(three.evaluate_batch(positions), two.evaluate_batch(positions))


def test_names_and_repr(net):
    assert net.policy_name == "net(contact 21x11/race 9/crashed 13x6)"
    assert "contact 21x11 hidden" in repr(net)


@pytest.mark.parametrize("weights, match", [
    (lambda w: {k: v for k, v in w.items() if k != "contact_bm"}, "both contact_wm and contact_bm"),
    (lambda w: {**w, "contact_wm": np.zeros((11, 20), np.float32)}, r"contact_wm must have shape"),
    (lambda w: {**w, "contact_bm": np.zeros(10, np.float32)}, r"contact_bm must have shape"),
    (lambda w: {**w, "contact_w2": np.zeros((5, 21), np.float32)}, r"contact_w2 must have shape"),
    (lambda w: {**w, "contact_wm": np.zeros((129, 21), np.float32),
                "contact_bm": np.zeros(129, np.float32)}, "middle units"),
    (lambda w: {**w, "race_wm": np.zeros((4, 9), np.float32)}, "both race_wm and race_bm"),
    (lambda w: {**w, "contact_bm": np.full(11, np.inf, np.float32)}, "not finite"),
    (lambda w: {**w, "contact_wm": np.array([["x"] * 21] * 11)}, "numeric"),
])
def test_bad_middle_arrays(net, weights, match):
    with pytest.raises(bg.InvalidWeightsError, match=match):
        Evaluator(weights(net.weights()), encoding=3)


@pytest.mark.parametrize("middle, match", [
    ((8,), "one size a net"), ((8, 0, 0), "one size a net"), ((-1, 0), "from 0 to"),
    ((129, 0), "from 0 to"), ((True, 0), "from 0 to"), (8, "one size a net"),
])
def test_bad_middle_sizes(middle, match):
    with pytest.raises(bg.InvalidWeightsError, match=match):
        Evaluator.random((8, 8), middle=middle)


# ----------------------------------------------------------------------
# Training

def _numpy_step(w: dict, boards: np.ndarray, targets: np.ndarray, lr: float) -> dict:
    """One plain gradient step (momentum 0) of a contact net with a middle
    layer on a batch, in float64: backpropagation written out."""
    p = {k[8:]: v.astype(np.float64) for k, v in w.items() if k.startswith("contact_")}
    g = {k: np.zeros_like(v) for k, v in p.items()}
    for b, t in zip(boards, targets):
        idx, val = _bgcore.nn_encode(b.tobytes(), 3)
        x = np.zeros(p["w1"].shape[0])
        np.add.at(x, idx, val)
        h = soft(p["b1"] + x @ p["w1"])
        u = soft(p["bm"] + p["wm"] @ h)
        o = 1 / (1 + np.exp(-(p["w2"] @ u + p["b2"])))
        d = o - t
        gu = (p["w2"].T @ d) * 0.5 * (1 - np.abs(2 * u - 1)) ** 2
        gh = (p["wm"].T @ gu) * 0.5 * (1 - np.abs(2 * h - 1)) ** 2
        g["w2"] += np.outer(d, u)
        g["b2"] += d
        g["wm"] += np.outer(gu, h)
        g["bm"] += gu
        g["w1"] += np.outer(x, gh)
        g["b1"] += gh
    n = len(boards)
    return {f"contact_{k}": p[k] - lr * g[k] / n for k in p}


@pytest.fixture(scope="module")
def data() -> TargetSet:
    b = sample_positions(500, seed=8)
    t = Evaluator.default().evaluate_batch(b)
    return TargetSet(b, t, np.zeros(len(b), np.float32), ())


def test_one_core_step_is_the_gradient_of_the_cross_entropy(data):
    ev = Evaluator.random((12, 8), seed=4, encoding=3, middle=(10, 0))   # pads 16 and 16
    core_step_matches(ev, data, _numpy_step)
    w1, b1, w2, b2, wm, bm = ev._nets.arrays[:6]
    # the padding stays zero: first-layer units 12..15, middle units 10..15
    assert not w1[:, 12:].any() and not b1[12:].any() and not wm[:, 12:].any()
    assert not wm[10:].any() and not bm[10:].any() and not w2[:, 10:].any()
    assert ev._nets.sgd_nparams(0) == 238 * 16 + 16 + 5 * 16 + 5 + 16 * 16 + 16


def test_supervised_training_learns_and_is_deterministic(data):
    lines: list[str] = []
    kw = dict(targets=data, hidden=(16, 8), middle=(8, 4), encoding=3, seed=2,
              validation=0.2, progress=False)
    a = bg.train(epochs=10, log=lines.append, **kw)
    assert a.middle == (8, 4)
    hist = [line for line in lines if line.startswith("epoch=")]
    loss = [float(line.split("train_loss=")[1].split()[0].split("all:")[1]) for line in hist]
    assert loss[-1] < 0.9 * loss[0]
    b = bg.train(epochs=10, threads=1, **kw)
    assert all(np.array_equal(v, b.weights()[k]) for k, v in a.weights().items())


def test_a_run_with_a_middle_layer_resumes_from_its_checkpoint(data, tmp_path):
    kw = dict(targets=data, hidden=(16, 8), middle=(8, 0), encoding=3, seed=3, epochs=3,
              progress=False)

    def stop(line: str) -> None:
        if line.startswith("epoch=1 "):
            raise KeyboardInterrupt
    with pytest.raises(KeyboardInterrupt):
        bg.train(out=tmp_path, log=stop, **kw)
    resumed = bg.train(out=tmp_path, **kw)
    assert resumed.middle == (8, 0)
    whole = bg.train(**kw)
    assert all(np.array_equal(v, resumed.weights()[k]) for k, v in whole.weights().items())
    with pytest.raises(bg.BackgammonError, match="other settings"):
        bg.train(out=tmp_path, **{**kw, "middle": (4, 0)})


def test_a_start_with_a_middle_layer_wins_over_the_sizes(data):
    start = Evaluator.random((16, 8), seed=1, encoding=3, middle=(8, 0))
    ev = bg.train(targets=data, epochs=1, start=start, hidden=(32, 8), progress=False)
    assert ev.middle == (8, 0) and ev.hidden == (16, 8)


def test_td_self_play_refuses_a_middle_layer():
    with pytest.raises(bg.BackgammonError, match="one hidden layer"):
        bg.train(10, middle=(8, 0), progress=False)
    start = Evaluator.random((16, 8), seed=1, middle=(8, 0))
    with pytest.raises(bg.BackgammonError, match="one hidden layer"):
        bg.train(10, start=start, progress=False)
    with pytest.raises(ValueError, match="one hidden layer"):
        start._nets.td_games(bg.Position.initial()._b, 1, 0, 1, 0.1)


@pytest.mark.parametrize("middle", [(8,), (8, 0, 0), (-1, 0), (129, 0), "ab"])
def test_bad_middle_settings(data, middle):
    with pytest.raises(bg.BackgammonError, match="middle must be"):
        bg.train(targets=data, epochs=1, hidden=(8, 8), middle=middle, progress=False)


def test_cli_trains_a_middle_layer(tmp_path, data, capsys):
    import json

    from backgammon.cli import main

    np.savez(tmp_path / "t.npz", boards=data.boards, targets=data.targets, stderr=data.stderr,
             meta=np.array(json.dumps({"generator": "test"})))
    out = tmp_path / "nets.npz"
    assert main(["train", "--targets", str(tmp_path / "t.npz"), "--epochs", "1",
                 "--hidden-contact", "16", "--hidden-race", "8", "--middle-contact", "8",
                 "--encoding", "3", "--save", str(out), "--no-progress"]) == 0
    assert Evaluator.load(out).middle == (8, 0)
    assert main(["train", "--games", "10", "--middle-contact", "8"]) == 2
    assert "supervised" in capsys.readouterr().err
