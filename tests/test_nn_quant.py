"""Encodings 5 and 6 (binary one-hot inputs) and the integer kernels that run
their nets: the inputs worked by hand and by an independent implementation,
incremental move choice against full evaluation, quantised outputs against the
float reference, the same answers on every target, the quantiser's bounds, and
clear errors."""

from __future__ import annotations

import pickle

import numpy as np
import pytest

import backgammon as bg
from backgammon import _bgcore
from backgammon.nn import Evaluator
from backgammon.nn.quant import input_groups, quantise, quantise_net, rounding, sum_bounds
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


@pytest.mark.parametrize("encoding", [5, 6])
def test_every_input_group_has_at_most_one_input_set(positions, encoding):
    groups = input_groups(encoding)
    for row in positions:
        idx, _ = _bgcore.nn_encode(row.tobytes(), encoding)
        g = groups[idx]
        assert len(set(g.tolist())) == len(g)


def test_encoding_5_does_not_grow_from_or_into_another():
    with pytest.raises(bg.InvalidWeightsError):
        Evaluator.random((8, 8), seed=1, encoding=1).grown(encoding=5)
    with pytest.raises(bg.InvalidWeightsError):
        Evaluator.random((8, 8), seed=1, encoding=5).grown(encoding=1)


# ----------------------------------------------------------------------
# Encoding 6: encoding 5's board, eleven feature counts a side

SIDE6 = 394                                     # a side's feature inputs (nn/feat6.h)
BASE6 = (0, 36, 72, 79, 115, 129, 189, 214, 250, 290, 370)
MAX6 = (36, 36, 7, 36, 14, 60, 25, 36, 40, 80, 24)


def counts6(row: np.ndarray) -> list[int]:
    """Encoding 6's 22 feature counts from their definitions (docs/nn.md): the bar
    counts from the board itself, the others from encodings 1, 3 and 4's features
    (tested on their own) scaled back to integers and binned."""
    f1 = _bgcore.nn_features(row.tobytes(), 1)
    f4 = _bgcore.nn_features(row.tobytes(), 4)
    b = [int(x) for x in row]
    out = []
    for side in (0, 1):
        hits, escapes, run = (f1[2], f1[6], f1[4]) if side == 0 else (f1[3], f1[7], f1[5])
        e3 = f4[28 + 7 * side: 35 + 7 * side]   # contain, contain2, dance, dance2, break, rear, dshots
        e4 = f4[42 + 5 * side: 47 + 5 * side]   # saved, cross, outside, turns, first
        on_bar = b[25] if side == 0 else -b[0]
        if side == 0:   # the opponent's made home points: ours 19..24 / theirs (our 1..6)
            made = sum(1 for p in range(19, 25) if b[p] <= -2)
        else:
            made = sum(1 for p in range(1, 7) if b[p] >= 2)
        bar = 1 + made + (7 if on_bar >= 2 else 0) if on_bar > 0 else 0
        pips = round(e3[4] * 150)
        race = any(e4)                           # contact positions leave them all 0
        cross = min(round(e4[1] * 10), 40) if race else 0
        turns = 1 + min(max(round(4 * e4[3] * 10), 0), 79) if race else 0
        first = min(max(round(4 * e4[4] * 3), 1), 24) if race and not e4[0] else 0
        out += [round(hits * 36), round(escapes * 36), min(round(run * 6), 7),
                round(e3[0] * 36), bar, min((pips + 5) // 6, 60), round(e3[5] * 25),
                round(e3[6] * 36), cross, turns, first]
    return out


def encode6(row: np.ndarray) -> list[int]:
    """Encoding 6's set inputs: encoding 5's board inputs and the counts, one-hot."""
    on = [i for i in encode5(row) if i < RAW]
    for k, v in enumerate(counts6(row)):
        assert 0 <= v <= MAX6[k % 11], (k, v)
        if v:
            on.append(RAW + (k // 11) * SIDE6 + BASE6[k % 11] + v - 1)
    return sorted(on)


def _near_a_tie(row: np.ndarray) -> bool:
    """A race whose bear-off means sit within float error of a bin's edge (4 x
    turns ending in .5): the float features of encoding 4 may round either way."""
    f4 = _bgcore.nn_features(row.tobytes(), 4)
    vals = [4 * f4[45] * 10, 4 * f4[50] * 10, 4 * f4[46] * 3, 4 * f4[51] * 3]
    return any(abs(v - np.floor(v) - 0.5) < 1e-4 for v in vals)


def test_encoding_6_layout():
    assert sum(MAX6) == SIDE6 and tuple(np.cumsum((0,) + MAX6[:-1])) == BASE6
    assert _bgcore.NN_INPUTS_BY_ENCODING[6] == RAW + 2 * SIDE6 == 1568
    from backgammon.nn.quant import FEATURE_VALUES
    assert FEATURE_VALUES[6] == MAX6


def test_encoding_6_of_the_initial_position_by_hand():
    # encoding 5's board; each side: no hit, no escape, run 1; its rearmost checkers
    # on its 24-point; to pass the other's rearmost (on our 1-point) ours move
    # 5 x 5 + 3 x 7 + 5 x 12 + 2 x 23 = 152 pips, 26 sixes rounded up; no blots,
    # nobody on the bar, no race.  The blockade: a checker on our 1-point faces our
    # points 6, 8 and 13 (5, 7 and 12 pips ahead): no roll passes the 13 (6-6 and
    # 3-3 stop on it, 4-4 lands on it, 5-5 on the 6), so contain is 36 - 0
    idx, val = _bgcore.nn_encode(bg.Position.initial()._b, 6)
    x = [RAW + BASE6[2] + 0, RAW + BASE6[3] + 35, RAW + BASE6[5] + 25, RAW + BASE6[6] + 23]
    assert idx == [i for i in _bgcore.nn_encode(bg.Position.initial()._b, 5)[0] if i < RAW] \
        + x + [i + SIDE6 for i in x]
    assert val == [1.0] * len(idx)


def test_encoding_6_bar_and_race_by_hand():
    # ours: two on the bar, 13 on the 1; theirs: made points on our 19, 20 and 22
    pos = board({25: 2, 1: 13}, {19: 5, 20: 5, 22: 5})
    counts = _bgcore.nn_features(pos._b, 6)
    assert counts[4] == 1 + 3 + 7 and counts[11 + 4] == 0
    # a race: ours 15 on the 1 (8 turns: seven 2-checker rolls and the last; doubles
    # take 4), theirs 15 on their 1 too: no crossovers, first checker off in 1 turn
    race = board({1: 15}, {24: 15})
    c = _bgcore.nn_features(race._b, 6)
    assert c[8] == 0 and c[10] == 4 and c[11 + 8] == 0 and c[11 + 10] == 4
    assert c[9] == c[11 + 9] == 1 + round(4 * _bgcore.nn_features(race._b, 4)[45] * 10)
    assert 1 + 4 * 6 <= c[9] <= 1 + 4 * 8
    # one checker borne off: saved, no first-off count
    saved = board({1: 14}, {24: 15})
    assert _bgcore.nn_features(saved._b, 6)[10] == 0


def test_encoding_6_matches_an_independent_implementation(positions):
    checked = 0
    for row in positions:
        if _near_a_tie(row):
            continue
        idx, val = _bgcore.nn_encode(row.tobytes(), 6)
        assert sorted(idx) == encode6(row)
        assert set(val) == {1.0}
        checked += 1
    assert checked > 0.99 * len(positions)
    races = sum(1 for row in positions if any(_bgcore.nn_features(row.tobytes(), 6)[8:11]))
    assert races > 100                     # the race counts are exercised too


def test_encoding_6_swapping_sides_swaps_the_blocks(positions):
    for row in positions[:500]:
        own = set(_bgcore.nn_encode(row.tobytes(), 6)[0])
        other = set(_bgcore.nn_encode(_bgcore.swapped(row.tobytes()), 6)[0])

        def flip(i: int) -> int:
            return (i + SIDE) % RAW if i < RAW else RAW + (i - RAW + SIDE6) % (2 * SIDE6)
        assert {flip(i) for i in own} == other


def test_encoding_6_does_not_grow_from_or_into_another():
    for a, b in ((1, 6), (4, 6), (5, 6), (6, 5), (6, 4)):
        with pytest.raises(bg.InvalidWeightsError):
            Evaluator.random((8, 8), seed=1, encoding=a).grown(encoding=b)


# ----------------------------------------------------------------------
# Float and integer evaluation

SHAPES = [((64, 32, 32), (16, 0, 8)), ((96, 32), (0, 0)), ((256, 64, 128), (32, 0, 0))]


@pytest.mark.parametrize("encoding", [5, 6])
@pytest.mark.parametrize("hidden, middle", SHAPES)
def test_incremental_choice_equals_full_evaluation(positions, hidden, middle, encoding):
    ev = Evaluator.random(hidden, seed=3, encoding=encoding, middle=middle)
    for nets, tol in ((ev, 0.0), (ev.as_float(), 2e-6)):    # integer sums are exact
        rng = np.random.default_rng(4)
        for row in positions[:400]:
            b = row.tobytes()
            res = _bgcore.successors(b, (int(rng.integers(1, 7)), int(rng.integers(1, 7))))
            pick, probs = nets._nets.choose(b, res)
            full = nets.evaluate_batch(np.ascontiguousarray(-res[:, ::-1]))
            np.testing.assert_allclose(probs, full, atol=tol, rtol=0)


@pytest.mark.parametrize("encoding", [5, 6])
@pytest.mark.parametrize("hidden, middle", SHAPES)
def test_quantised_within_tolerance_of_float_in_every_class(positions, hidden, middle, encoding):
    ev = Evaluator.random(hidden, seed=5, encoding=encoding, middle=middle)
    q, f = ev.evaluate_batch(positions), ev.as_float().evaluate_batch(positions)
    cls = ev._nets.classify(positions)
    assert set(cls.tolist()) >= set(range(len(hidden)))      # every net answers some
    assert np.abs(q - f).max() < 1e-3
    eq = lambda p: 2 * p[:, 0] - 1 + p[:, 1] - p[:, 3] + p[:, 2] - p[:, 4]   # noqa: E731
    assert np.abs(eq(q) - eq(f)).mean() < 2e-4


@pytest.mark.parametrize("encoding", [5, 6])
def test_the_same_answers_on_every_target(positions, encoding):
    ev = Evaluator.random((256, 64, 128), seed=7, encoding=encoding, middle=(32, 0, 16))
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


def test_only_encodings_5_and_6_run_quantised():
    with pytest.raises(bg.InvalidWeightsError, match="only nets of encodings 5 and 6"):
        Evaluator(Evaluator.random((8, 8), seed=1).weights(), quantised=True)
    ev = Evaluator.random((8, 8), seed=1)
    assert not ev.quantised and ev.as_float() is ev
    with pytest.raises(ValueError, match="encodings 5 and 6"):
        ev._nets.quantise(quantise(Evaluator.random((8, 8), seed=1, encoding=5)))


def test_quantise_refuses_arrays_of_the_wrong_shapes():
    ev = Evaluator.random((64, 32), seed=1, encoding=5)
    nets = quantise(ev)
    bad = nets[0]._replace(w1=nets[0].w1[:, :48].copy(), s1=nets[0].s1[:48].copy())
    with pytest.raises(ValueError, match="wrong shapes"):                # 48: not a multiple of 32
        ev._nets.quantise([bad, nets[1]])
    with pytest.raises(ValueError, match="s1 must be 64 shifts"):
        ev._nets.quantise([nets[0]._replace(s1=nets[0].s1[:8].copy()), nets[1]])
    before = ev.evaluate_batch(bg.Position.initial().to_array()[None])
    with pytest.raises(ValueError):                                      # the second net is bad:
        ev._nets.quantise([nets[0], nets[1]._replace(s1=-nets[1].s1 - 1)])  # the first unchanged
    assert np.array_equal(ev.evaluate_batch(bg.Position.initial().to_array()[None]), before)
    with pytest.raises(ValueError, match="8 items for each"):
        ev._nets.quantise(nets[:1])


# ----------------------------------------------------------------------
# The quantiser's bounds

def test_the_sum_bound_by_hand():
    # unit 0: our 6-point's count n weighs n, their 4-point's 2n, a bias of 1: at most
    # 1 + 15 + 30; at least -1 (no checkers there).  Unit 1: also a lone checker on our
    # 20-point weighs 10, so 14 on the 6 and that one: 1 + (14 + 10) + 30
    w1 = np.zeros((938, 2), np.float32)
    for n in range(1, 16):
        w1[5 * 15 + n - 1] = n
        w1[SIDE + 3 * 15 + n - 1] = 2 * n
    w1[19 * 15 + 0, 1] = 10
    b1 = np.ones(2, np.float32)
    assert sum_bounds(w1, b1, input_groups()).tolist() == [46.0, 55.0]
    # a feature adds its largest weight; the most negative side bounds too
    w1[RAW + 5, 0] = 7         # our hits, count 6
    w1[RAW + 80, 0] = -100     # their hits, count 2
    assert sum_bounds(w1, b1, input_groups()).tolist() == [99.0, 55.0]


@pytest.mark.parametrize("encoding", [5, 6])
def test_no_position_reaches_past_the_bound(positions, encoding):
    rng = np.random.default_rng(3)
    groups = input_groups(encoding)
    w1 = rng.normal(0, 0.5, (groups.size, 64))
    b1 = rng.normal(0, 0.5, 64)
    bound = sum_bounds(w1, b1, groups)
    for row in positions:
        idx, _ = _bgcore.nn_encode(row.tobytes(), encoding)
        assert (np.abs(b1 + w1[idx].sum(axis=0)) <= bound + 1e-9).all()


def test_each_unit_takes_the_finest_scale_that_cannot_overflow():
    rng = np.random.default_rng(2)
    w1 = (rng.normal(0, 0.4, (938, 64)) * rng.uniform(0.1, 3, 64)).astype(np.float32)
    b1 = rng.normal(0, 0.4, 64).astype(np.float32)
    q = quantise_net(w1, b1, rng.normal(0, 0.3, (5, 64)).astype(np.float32),
                     np.zeros(5, np.float32))
    bound = sum_bounds(w1, b1, input_groups())
    s = q.s1.astype(np.float64)
    assert len(set(q.s1.tolist())) > 1                    # units of other sizes, other scales
    assert (bound * 2**s + rounding(input_groups()) <= 32767).all()
    assert (bound * 2**(s + 1) + rounding(input_groups()) > 32767).all()
    assert np.array_equal(q.w1[:, :64], np.rint(w1.astype(np.float64) * 2**s))
    assert q.w1.shape == (938, 64) and q.wd.shape == (8, 64)
    # the dense rows: sum of |w| times the largest activation within int32
    assert np.abs(q.wd.astype(np.int64)).sum(axis=1).max() * 2**13 <= 2**31 - 1
    # the clipped ReLU: one scale for every unit (its activation is the sum itself)
    c = quantise_net(w1, b1, np.zeros((5, 8), np.float32), np.zeros(5, np.float32),
                     rng.normal(0, 0.3, (8, 64)).astype(np.float32), np.zeros(8, np.float32),
                     crelu=True)
    assert len(set(c.s1.tolist())) == 1 and c.s1[0] == min(q.s1.min(), 14)


def test_weights_too_large_to_quantise_are_refused():
    w1 = np.full((938, 32), 1e6, np.float32)
    with pytest.raises(bg.InvalidWeightsError, match="too large"):
        quantise_net(w1, np.zeros(32, np.float32), np.zeros((5, 32), np.float32),
                     np.zeros(5, np.float32))
    with pytest.raises(bg.InvalidWeightsError, match="encoding 5 or 6"):
        input_groups(4)


# ----------------------------------------------------------------------
# The clipped ReLU (first layers of nets with a middle layer)

def _clip(a: np.ndarray) -> np.ndarray:
    return np.clip(a, 0.0, 1.0)


def _soft(a: np.ndarray) -> np.ndarray:
    return 0.5 + a / (2 * (1 + np.abs(a)))


def _inputs(board: np.ndarray, n: int) -> np.ndarray:
    idx, val = _bgcore.nn_encode(board.tobytes(), 5)
    x = np.zeros(n)
    np.add.at(x, idx, val)
    return x


def _crelu_step(w: dict, boards: np.ndarray, targets: np.ndarray, lr: float) -> dict:
    """One plain gradient step of the contact net, clipped ReLU then soft sigmoid, in float64."""
    p = {k[8:]: v.astype(np.float64) for k, v in w.items() if k.startswith("contact_")}
    g = {k: np.zeros_like(v) for k, v in p.items()}
    for b, t in zip(boards, targets):
        x = _inputs(b, p["w1"].shape[0])
        a = p["b1"] + x @ p["w1"]
        h = _clip(a)
        u = _soft(p["bm"] + p["wm"] @ h)
        o = 1 / (1 + np.exp(-(p["w2"] @ u + p["b2"])))
        d = o - t
        gu = (p["w2"].T @ d) * 0.5 * (1 - np.abs(2 * u - 1)) ** 2
        gh = (p["wm"].T @ gu) * ((a > 0) & (a < 1))
        g["w2"] += np.outer(d, u)
        g["b2"] += d
        g["wm"] += np.outer(gu, h)
        g["bm"] += gu
        g["w1"] += np.outer(x, gh)
        g["b1"] += gh
    return {f"contact_{k}": p[k] - lr * g[k] / len(boards) for k in p}


@pytest.fixture(scope="module")
def data(positions):
    from backgammon.training.targets import TargetSet
    b = positions[:500]
    t = Evaluator.fast().evaluate_batch(b)
    return TargetSet(b, t, np.zeros(len(b), np.float32), ())


def test_crelu_forward_pass_matches_numpy(positions):
    ev = Evaluator.random((40, 16), seed=6, encoding=5, middle=(12, 0), crelu=True).as_float()
    w = ev.weights()
    for row in positions[:300]:
        if ev._nets.classify(row[None])[0] != 0:
            continue
        x = _inputs(row, 938)
        h = _clip(w["contact_b1"] + x @ w["contact_w1"].astype(np.float64))
        u = _soft(w["contact_bm"] + w["contact_wm"].astype(np.float64) @ h)
        want = 1 / (1 + np.exp(-(w["contact_w2"] @ u + w["contact_b2"])))
        zero = np.zeros((1, 5), np.float32)
        loss = ev._nets.sgd_loss(0, row[None].copy(), zero, np.zeros(1, np.int64))
        assert loss == pytest.approx(-np.log(1 - want).sum(), rel=1e-5)


def test_crelu_core_step_is_the_gradient(data):
    from test_supervised import core_step_matches
    ev = Evaluator.random((20, 8), seed=4, encoding=5, middle=(10, 0), crelu=True).as_float()
    core_step_matches(ev, data, _crelu_step)


def test_crelu_quantised_within_tolerance_and_alike_on_every_target(positions):
    ev = Evaluator.random((256, 64, 128), seed=8, encoding=5, middle=(32, 0, 16), crelu=True)
    q, f = ev.evaluate_batch(positions), ev.as_float().evaluate_batch(positions)
    assert np.abs(q - f).max() < 1e-3
    was = _bgcore.nn_quant_target()
    try:
        got = []
        for t in _bgcore.nn_quant_targets():
            _bgcore.nn_quant_target(t)
            got.append(ev.evaluate_batch(positions))
        assert all(np.array_equal(g, got[0]) for g in got)
    finally:
        _bgcore.nn_quant_target(was)
    rng = np.random.default_rng(1)
    for row in positions[:200]:
        b = row.tobytes()
        res = _bgcore.successors(b, (int(rng.integers(1, 7)), int(rng.integers(1, 7))))
        probs = ev._nets.choose(b, res)[1]
        assert np.array_equal(probs, ev.evaluate_batch(np.ascontiguousarray(-res[:, ::-1])))


def test_crelu_training_learns_is_deterministic_and_round_trips(data, tmp_path):
    from backgammon.nn import ARCHITECTURE_CRELU
    lines: list[str] = []
    kw = dict(targets=data, hidden=(24, 8), middle=(8, 0), encoding=5, seed=2, crelu=True,
              validation=0.2, progress=False)
    a = bg.train(epochs=8, log=lines.append, **kw)
    assert a.crelu and a.quantised and a.middle == (8, 0)
    loss = [float(line.split("train_loss=")[1].split()[0].split("all:")[1])
            for line in lines if line.startswith("epoch=")]
    assert loss[-1] < 0.9 * loss[0]
    b = bg.train(epochs=8, threads=1, **kw)
    assert all(np.array_equal(v, b.weights()[k]) for k, v in a.weights().items())
    a.save(tmp_path / "c.npz")
    with np.load(tmp_path / "c.npz") as f:
        assert str(f["architecture"]) == ARCHITECTURE_CRELU
    back = Evaluator.load(tmp_path / "c.npz")
    assert back.crelu and back.quantised
    assert np.array_equal(back.evaluate_batch(data.boards), a.evaluate_batch(data.boards))
    assert "clipped ReLU" in repr(back)


def test_crelu_needs_a_middle_layer_and_supervised_training(data):
    with pytest.raises(bg.InvalidWeightsError, match="middle layer"):
        Evaluator.random((8, 8), seed=1, encoding=5, crelu=True)
    with pytest.raises(bg.BackgammonError, match="middle"):
        bg.train(targets=data, hidden=(8, 8), encoding=5, crelu=True, epochs=1, progress=False)
    with pytest.raises(bg.BackgammonError, match="supervised"):
        bg.train(10, crelu=True, progress=False)
    with pytest.raises(bg.InvalidWeightsError, match="share"):
        Evaluator.ensemble([Evaluator.random((8, 8), seed=1, encoding=5, middle=(8, 0)),
                            Evaluator.random((8, 8), seed=1, encoding=5, middle=(8, 0), crelu=True)])
