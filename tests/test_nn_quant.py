"""Encoding 5 (binary one-hot inputs) and the integer kernels that run its nets:
the inputs worked by hand and by an independent implementation, incremental move
choice against full evaluation, quantised outputs against the float reference,
the same answers on every target, the quantiser's bounds, and clear errors."""

from __future__ import annotations

import pickle

import numpy as np
import pytest

import backgammon as bg
from backgammon import _bgcore
from backgammon.nn import Evaluator
from backgammon.nn.quant import input_groups, quantise, quantise_net
from boards import board

SIDE = 26 * 15
RAW = 2 * SIDE


@pytest.fixture(scope="module")
def positions() -> np.ndarray:
    from test_supervised import positions as make
    return make(3000, seed=23)


def encode5(row: np.ndarray) -> list[int]:
    """Encoding 5 from its definition (docs/nn.md), independent of the core's code."""
    on = []
    for i, v in enumerate(int(x) for x in row):
        if v > 0:       # ours: point i, the bar (cell 25) in slot 24
            on.append((24 if i == 25 else i - 1) * 15 + v - 1)
        elif v < 0:     # theirs: their point 25 - i, their bar (cell 0) in slot 24
            on.append(SIDE + (24 if i == 0 else 24 - i) * 15 + (-v) - 1)
    own_off = 15 - int(row[row > 0].sum())
    opp_off = 15 + int(row[row < 0].sum())
    if own_off:
        on.append(25 * 15 + own_off - 1)
    if opp_off:
        on.append(SIDE + 25 * 15 + opp_off - 1)
    f = _bgcore.nn_features(row.tobytes(), 1)    # encoding 1's features, as fractions
    counts = [round(f[2] * 36), round(f[6] * 36), min(round(f[4] * 6), 7),   # hits, escapes, run
              round(f[3] * 36), round(f[7] * 36), min(round(f[5] * 6), 7)]
    for k, v in enumerate(counts):
        if v:
            on.append(RAW + (k // 3) * 79 + (0, 36, 72)[k % 3] + v - 1)
    return sorted(on)


# ----------------------------------------------------------------------
# Encoding 5

def test_the_initial_position_by_hand():
    # ours: 5 on the 6, 3 on the 8, 5 on the 13, 2 on the 24; theirs the same in their
    # numbering; no blot to hit, no escape past their points; each side's longest run 1
    idx, val = _bgcore.nn_encode(bg.Position.initial()._b, 5)
    assert idx == [5 * 15 + 4, 7 * 15 + 2, 12 * 15 + 4, 23 * 15 + 1,
                   SIDE + 79, SIDE + 107, SIDE + 184, SIDE + 346, RAW + 72, RAW + 79 + 72]
    assert val == [1.0] * 10
    assert _bgcore.NN_INPUTS_BY_ENCODING[5] == RAW + 2 * 79 == 938


def test_bar_borne_off_and_a_blot_by_hand():
    # ours: one on the bar, 2 on the 1, 10 borne off, 2 on the 20; theirs: a blot on
    # our 4 (their 21), 14 on our 19 (their 6)
    pos = board({25: 1, 1: 2, 20: 2}, {4: 1, 19: 14})
    idx, _ = _bgcore.nn_encode(pos._b, 5)
    raw = [i for i in idx if i < RAW]
    assert raw == sorted([0 * 15 + 1, 19 * 15 + 1, 24 * 15 + 0, 25 * 15 + 9,
                          SIDE + 20 * 15 + 0, SIDE + 5 * 15 + 13])
    assert idx == encode5(pos.to_array().astype(np.int8))


def test_matches_an_independent_implementation(positions):
    for row in positions:
        idx, val = _bgcore.nn_encode(row.tobytes(), 5)
        assert sorted(idx) == encode5(row)
        assert set(val) == {1.0}


def test_swapping_sides_swaps_the_blocks(positions):
    for row in positions[:500]:
        b = row.tobytes()
        own = {i for i in _bgcore.nn_encode(b, 5)[0]}
        other = {i for i in _bgcore.nn_encode(_bgcore.swapped(b), 5)[0]}

        def flip(i: int) -> int:
            if i < RAW:
                return (i + SIDE) % RAW
            return RAW + (i - RAW + 79) % 158
        assert {flip(i) for i in own} == other


def test_every_input_group_has_at_most_one_input_set(positions):
    groups = input_groups()
    for row in positions:
        idx, _ = _bgcore.nn_encode(row.tobytes(), 5)
        g = groups[idx]
        assert len(set(g.tolist())) == len(g)


def test_encoding_5_does_not_grow_from_or_into_another():
    with pytest.raises(bg.InvalidWeightsError):
        Evaluator.random((8, 8), seed=1, encoding=1).grown(encoding=5)
    with pytest.raises(bg.InvalidWeightsError):
        Evaluator.random((8, 8), seed=1, encoding=5).grown(encoding=1)


# ----------------------------------------------------------------------
# Float and integer evaluation

SHAPES = [((64, 32, 32), (16, 0, 8)), ((96, 32), (0, 0)), ((256, 64, 128), (32, 0, 0))]


@pytest.mark.parametrize("hidden, middle", SHAPES)
def test_incremental_choice_equals_full_evaluation(positions, hidden, middle):
    ev = Evaluator.random(hidden, seed=3, encoding=5, middle=middle)
    for nets, tol in ((ev, 0.0), (ev.as_float(), 2e-6)):    # integer sums are exact
        rng = np.random.default_rng(4)
        for row in positions[:400]:
            b = row.tobytes()
            res = _bgcore.successors(b, (int(rng.integers(1, 7)), int(rng.integers(1, 7))))
            pick, probs = nets._nets.choose(b, res)
            full = nets.evaluate_batch(np.ascontiguousarray(-res[:, ::-1]))
            np.testing.assert_allclose(probs, full, atol=tol, rtol=0)


@pytest.mark.parametrize("hidden, middle", SHAPES)
def test_quantised_within_tolerance_of_float_in_every_class(positions, hidden, middle):
    ev = Evaluator.random(hidden, seed=5, encoding=5, middle=middle)
    q, f = ev.evaluate_batch(positions), ev.as_float().evaluate_batch(positions)
    cls = ev._nets.classify(positions)
    assert set(cls.tolist()) >= set(range(len(hidden)))      # every net answers some
    assert np.abs(q - f).max() < 1e-3
    eq = lambda p: 2 * p[:, 0] - 1 + p[:, 1] - p[:, 3] + p[:, 2] - p[:, 4]   # noqa: E731
    assert np.abs(eq(q) - eq(f)).mean() < 2e-4


def test_the_same_answers_on_every_target(positions):
    ev = Evaluator.random((256, 64, 128), seed=7, encoding=5, middle=(32, 0, 16))
    targets = _bgcore.nn_quant_targets()
    assert "plain" in targets and _bgcore.nn_quant_target() in targets
    was = _bgcore.nn_quant_target()
    try:
        answers = {}
        for t in targets:
            assert _bgcore.nn_quant_target(t) == t
            res = _bgcore.successors(positions[5].tobytes(), (6, 5))
            answers[t] = (ev.evaluate_batch(positions), ev._nets.choose(positions[5].tobytes(), res)[1])
        for t in targets:
            assert np.array_equal(answers[t][0], answers["plain"][0]), t
            assert np.array_equal(answers[t][1], answers["plain"][1]), t
    finally:
        _bgcore.nn_quant_target(was)


def test_an_unknown_or_missing_target_is_refused():
    with pytest.raises(ValueError, match="integer kernels 'bogus'"):
        _bgcore.nn_quant_target("bogus")
    missing = {"neon"} if _bgcore.nn_quant_target() != "neon" else {"avx2"}
    with pytest.raises(ValueError, match="this CPU runs"):
        _bgcore.nn_quant_target(missing.pop())


def test_files_pickles_and_copies_keep_the_mode(tmp_path, positions):
    ev = Evaluator.random((64, 32), seed=9, encoding=5, middle=(8, 0))
    ev.save(tmp_path / "q.npz")
    back = Evaluator.load(tmp_path / "q.npz")
    assert back.quantised and back.encoding == 5
    assert np.array_equal(back.evaluate_batch(positions), ev.evaluate_batch(positions))
    for twin in (pickle.loads(pickle.dumps(ev)), ev.copy(), ev.with_pruning(keep=0)):
        assert twin.quantised
        assert np.array_equal(twin.evaluate_batch(positions[:50]), ev.evaluate_batch(positions[:50]))
    flt = pickle.loads(pickle.dumps(ev.as_float()))
    assert not flt.quantised
    assert np.array_equal(flt.evaluate_batch(positions[:50]),
                          ev.as_float().evaluate_batch(positions[:50]))


def test_only_encoding_5_runs_quantised():
    with pytest.raises(bg.InvalidWeightsError, match="only nets of encoding 5"):
        Evaluator(Evaluator.random((8, 8), seed=1).weights(), quantised=True)
    ev = Evaluator.random((8, 8), seed=1)
    assert not ev.quantised and ev.as_float() is ev
    with pytest.raises(ValueError, match="encoding 5"):
        ev._nets.quantise(quantise(Evaluator.random((8, 8), seed=1, encoding=5)))


def test_quantise_refuses_arrays_of_the_wrong_shapes():
    ev = Evaluator.random((64, 32), seed=1, encoding=5)
    nets = quantise(ev)
    bad = nets[0]._replace(w1=nets[0].w1[:, :48].copy())      # not a multiple of 32
    with pytest.raises(ValueError, match="wrong shapes"):
        ev._nets.quantise([bad, nets[1]])
    with pytest.raises(ValueError, match="8 items for each"):
        ev._nets.quantise(nets[:1])


# ----------------------------------------------------------------------
# The quantiser's bounds

def test_first_layer_scale_is_the_finest_that_cannot_overflow():
    rng = np.random.default_rng(2)
    w1 = rng.normal(0, 0.4, (938, 64)).astype(np.float32)
    b1 = rng.normal(0, 0.4, 64).astype(np.float32)
    q = quantise_net(w1, b1, rng.normal(0, 0.3, (5, 64)).astype(np.float32),
                     np.zeros(5, np.float32))
    groups = input_groups()

    def worst(shift: int) -> float:
        a = np.abs(np.rint(w1.astype(np.float64) * 2.0**shift))
        per_group = np.array([a[groups == g].max(axis=0) for g in range(groups.max() + 1)])
        return float((per_group.sum(axis=0) + np.abs(np.rint(b1 * 2.0**shift))).max())
    assert worst(q.s1) <= 32767 < worst(q.s1 + 1)
    assert np.array_equal(q.w1[:, :64], np.rint(w1.astype(np.float64) * 2.0**q.s1))
    assert q.w1.shape == (938, 64) and q.wd.shape == (8, 64)
    # the dense rows: sum of |w| times the largest activation within int32
    assert np.abs(q.wd.astype(np.int64)).sum(axis=1).max() * 2**13 <= 2**31 - 1


def test_weights_too_large_to_quantise_are_refused():
    w1 = np.full((938, 32), 1e6, np.float32)
    with pytest.raises(bg.InvalidWeightsError, match="too large"):
        quantise_net(w1, np.zeros(32, np.float32), np.zeros((5, 32), np.float32),
                     np.zeros(5, np.float32))
    with pytest.raises(bg.InvalidWeightsError, match="encoding 5"):
        input_groups(4)
