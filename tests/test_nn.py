"""The neural evaluator: the input encoding on hand-worked positions, the
outputs' invariants, batch/single/thread agreement, incremental move choice
against full evaluation, n-ply against a slow reference, and weight files."""

from __future__ import annotations

import os
import random
from concurrent.futures import ThreadPoolExecutor

import numpy as np
import pytest

import backgammon as bg
from backgammon import _bgcore
from backgammon.nn import Evaluation, Evaluator, rank_plays
from boards import board

# indices of the feature inputs (docs/nn.md)
PIPS, SHOTS, PRIME, ESCAPE = 196, 198, 200, 202


def encoding(pos: bg.Position) -> dict[int, float]:
    idx, val = _bgcore.nn_encode(pos._b)
    assert len(set(idx)) == len(idx)
    return dict(zip(idx, val))


def sample_positions(n: int, seed: int = 1) -> np.ndarray:
    """Positions from random games (player on roll), both sides playing."""
    rng = random.Random(seed)
    out = []
    while len(out) < n:
        pos = bg.Position.initial()
        for _ in range(400):
            res = pos.successors((rng.randint(1, 6), rng.randint(1, 6)))
            nxt = bg.Position.from_array(res[rng.randrange(len(res))]).swapped()
            if nxt.outcome() is not None:
                break
            pos = nxt
            out.append(pos.to_array())
    return np.array(out[:n], np.int8)


@pytest.fixture(scope="module")
def positions() -> np.ndarray:
    return sample_positions(600)


@pytest.fixture(scope="module")
def net() -> Evaluator:
    return Evaluator.default()


# ----------------------------------------------------------------------
# Encoding

def test_encoding_of_the_opening():
    # Own checkers: 24 x2, 13 x5, 8 x3, 6 x5; unit k of point p is (p - 1) * 4 + k.
    # The opponent's: its 24 x2, 13 x5, 8 x3, 6 x5 at 98 + (q - 1) * 4 + k.
    # A point of n checkers sets units n >= 1, n >= 2, n >= 3 and (n - 3) / 2.
    want = {}
    for side in (0, 98):
        for point, n in ((24, 2), (13, 5), (8, 3), (6, 5)):
            base = side + (point - 1) * 4
            units = [1.0, 1.0 if n >= 2 else 0, 1.0 if n >= 3 else 0, (n - 3) / 2 if n > 3 else 0]
            want.update({base + k: u for k, u in enumerate(units) if u})
    # 167 pips each; no blots so no shots; longest run of made points 1 (of 6);
    # escapes 0: from the 24-point every landing within 12 pips in front of the
    # opponent's midpoint (our 12) is on a closed point or short of it.
    want.update({PIPS: 1.67, PIPS + 1: 1.67, PRIME: 1 / 6, PRIME + 1: 1 / 6})
    got = encoding(bg.Position.initial())
    assert got.keys() == want.keys()
    for k in want:
        assert got[k] == pytest.approx(want[k], rel=1e-6), k


def test_encoding_with_bar_off_blots_and_shots():
    # Ours: one on the bar, a blot on our 6 (13 off).  Theirs: two on their bar,
    # a blot on our 3 = their 22 (12 off).
    pos = board({25: 1, 6: 1}, {0: 2, 3: 1})
    # Our shots at their blot on our 3 from our 6 (3 away; the bar checker is
    # 22 away, out of reach): rolls with a 3 (11), 1-2 (2), 1-1 (6-5-4-3: 1) = 14.
    # Their shots at our blot on their 19 (our 6), from their 22 (3 away) and
    # bar 25 (6 away): a 3 or a 6 (20), 1-2, 1-5, 2-4 (6), 1-1, 2-2 (2) = 28.
    # Nobody has made points: both escape with every roll.
    want = {96: 0.5, 20: 1.0, 97: 13 / 15,
            98 + 96: 1.0, 98 + (22 - 1) * 4: 1.0, 98 + 97: 12 / 15,
            PIPS: 0.31, PIPS + 1: 0.72, SHOTS: 14 / 36, SHOTS + 1: 28 / 36,
            ESCAPE: 1.0, ESCAPE + 1: 1.0}
    got = encoding(pos)
    assert got.keys() == want.keys()
    for k in want:
        assert got[k] == pytest.approx(want[k], rel=1e-6), k


def test_escapes_behind_a_five_point_prime():
    # Our last checker on 24 behind their points on our 19..23 (a 5-prime):
    # only a 6 jumps it (24 -> 18, then on past the prime): 11 rolls of 36.
    pos = board({24: 1, 6: 14}, {19: 2, 20: 2, 21: 2, 22: 2, 23: 2, 1: 5})
    got = encoding(pos)
    assert got[ESCAPE] == pytest.approx(11 / 36)
    assert got[PRIME] == pytest.approx(1 / 6) and got[PRIME + 1] == pytest.approx(5 / 6)
    # a sixth point (18) closes it: no escape at all
    closed = board({24: 1, 6: 14}, {18: 2, 19: 2, 20: 2, 21: 2, 22: 2, 23: 2, 1: 3})
    got = encoding(closed)
    assert ESCAPE not in got and got[PRIME + 1] == pytest.approx(1.0)


def test_encoding_is_symmetric_under_swapping(positions):
    # The opponent's inputs are ours of the swapped board, and vice versa.
    for row in positions[:200]:
        pos = bg.Position.from_array(row)
        a, b = encoding(pos), encoding(pos.swapped())
        mirror = {}
        for k, v in b.items():
            if k < 196:
                mirror[(k + 98) % 196] = v
            else:
                mirror[196 + ((k - 196) ^ 1)] = v
        assert a.keys() == mirror.keys()
        for k in a:
            assert a[k] == pytest.approx(mirror[k], rel=1e-6)


def test_vector_scan_equals_the_portable_one(positions):
    rows = list(positions) + [board({25: 15}, {0: 15}).to_array(), board({1: 1}, {24: 1}).to_array(),
                              board({}, {0: 2, 12: 13}).to_array(), board({25: 3, 7: 12}, {}).to_array()]
    assert all(_bgcore.nn_scan_agrees(np.asarray(r, np.int8).tobytes()) for r in rows)


def test_race_classification():
    assert not _bgcore.nn_is_race(bg.Position.initial()._b)
    assert _bgcore.nn_is_race(board({6: 3}, {19: 3})._b)        # passed each other
    assert not _bgcore.nn_is_race(board({20: 1}, {19: 1})._b)    # still in contact


# ----------------------------------------------------------------------
# Outputs

def test_outputs_are_ordered_probabilities(net, positions):
    p = net.evaluate_batch(positions)
    assert p.dtype == np.float32 and p.shape == (len(positions), 5)
    assert ((p >= 0) & (p <= 1)).all()
    assert (p[:, 0] >= p[:, 1]).all() and (p[:, 1] >= p[:, 2]).all()
    assert (1 - p[:, 0] >= p[:, 3] - 1e-7).all() and (p[:, 3] >= p[:, 4]).all()


def test_no_gammon_for_a_side_that_has_borne_off(net):
    # we have borne off 5: we cannot lose a gammon; they have all 15
    pos = board({1: 5, 2: 5}, {24: 5, 23: 5, 22: 5})
    e = net.evaluate(pos)
    assert e.lose_gammon == 0 and e.lose_backgammon == 0


def test_finished_positions_are_exact(net):
    # the opponent has borne off everything: the player on roll lost a gammon
    # (no checker off) with a checker in the winner's home board: a backgammon
    lost = board({20: 1, 6: 14}, {})
    assert net.evaluate(lost).probabilities == (0.0, 0.0, 0.0, 1.0, 1.0)
    single = board({6: 3}, {})
    assert net.evaluate(single).probabilities == (0.0, 0.0, 0.0, 0.0, 0.0)
    won = board({}, {1: 1})
    assert net.evaluate(won).probabilities == (1.0, 0.0, 0.0, 0.0, 0.0)


def test_a_won_position_evaluates_to_a_win(net):
    # Two of ours on the 1-point bear off with any roll; the opponent has all 15
    # at home with none off: a sure gammon.  One ply looks at every roll.
    pos = board({1: 2}, {19: 3, 20: 3, 21: 3, 22: 3, 23: 3})
    assert bg.evaluate(pos, ply=1).probabilities == (1.0, 1.0, 0.0, 0.0, 0.0)
    assert bg.evaluate(pos, ply=2).equity == 2.0
    # both sides are home: the bear-off database answers at ply 0 too
    assert bg.evaluate(pos).probabilities == (1.0, 1.0, 0.0, 0.0, 0.0)


def test_bear_offs_come_from_the_database(net):
    rows = [board({1: 3, 4: 2}, {24: 2, 20: 3}).to_array(),
            board({6: 5, 5: 5, 4: 5}, {19: 15}).to_array(),
            board({2: 1}, {23: 1, 22: 1}).to_array()]
    rows = np.array(rows, np.int8)
    assert np.array_equal(net.evaluate_batch(rows), _bgcore.bearoff_probs(rows))
    # and in move choice: the candidates of a bear-off are bear-offs
    pos = bg.Position.from_array(rows[0])
    cands = pos.successors((4, 1))
    _, probs = net._nets.choose(pos._b, cands)
    assert np.array_equal(probs, _bgcore.bearoff_probs(np.ascontiguousarray(-cands[:, ::-1])))


def test_evaluation_and_equity():
    e = Evaluation(0.6, 0.2, 0.05, 0.1, 0.01)
    assert e.equity == pytest.approx(2 * 0.6 - 1 + 0.2 - 0.1 + 0.05 - 0.01)
    assert e.lose == pytest.approx(0.4)
    assert "equity +0.3400" in str(e)


def test_batch_equals_single(net, positions):
    batch = net.evaluate_batch(positions[:50])
    for row, p in zip(positions[:50], batch):
        e = net.evaluate(row.tolist())
        assert e.probabilities == tuple(float(x) for x in p)


def test_threads_agree(net, positions):
    want = net.evaluate_batch(positions)
    with ThreadPoolExecutor(4) as pool:
        for got in pool.map(lambda _: net.evaluate_batch(positions), range(8)):
            assert np.array_equal(got, want)


def test_incremental_move_choice_matches_full_evaluation(net):
    # bg_nn_choose adds each candidate's differences to the sums of the
    # position before the roll; a full evaluation of every candidate must agree.
    rng = random.Random(5)
    for row in sample_positions(120, seed=9):
        pos = bg.Position.from_array(row)
        dice = (rng.randint(1, 6), rng.randint(1, 6))
        cands = pos.successors(dice)
        pick, probs = net._nets.choose(pos._b, cands)
        full = net.evaluate_batch(-cands[:, ::-1])
        assert np.allclose(probs, full, atol=2e-5)
        mover = -(2 * full[:, 0] - 1 + full[:, 1] - full[:, 3] + full[:, 2] - full[:, 4])
        assert mover[pick] >= mover.max() - 1e-4


def test_rank_plays_and_best_play(net):
    pos = bg.Position.initial()
    ranked = pos.rank_plays((3, 1))
    assert len(ranked) == len(pos.legal_plays((3, 1)))
    eqs = [r.equity for r in ranked]
    assert eqs == sorted(eqs, reverse=True)
    assert pos.best_play((3, 1)) == ranked[0].play
    # the first is the play the net policy makes (the rollout/duel code path)
    pick, _ = net._nets.choose(pos._b, pos.successors((3, 1)))
    assert ranked[0].play == pos.legal_plays((3, 1))[pick]
    # each equity is the negated evaluation of the opponent's position
    for r in ranked[:5]:
        opp = net.evaluate(r.play.result.swapped())
        assert r.equity == pytest.approx(-opp.equity, abs=1e-4)
        assert r.evaluation.win == pytest.approx(1 - opp.win, abs=1e-5)


def test_one_ply_matches_a_slow_reference(net):
    # Mean over the 36 rolls of the mover's value after the best reply, every
    # candidate evaluated in full by evaluate_batch.
    pos = bg.Position.from_array(sample_positions(40, seed=3)[31])
    total = np.zeros(5)
    for d1 in range(1, 7):
        for d2 in range(1, 7):
            cands = pos.successors((d1, d2))
            opp = net.evaluate_batch(-cands[:, ::-1]).astype(np.float64)
            eq = -(2 * opp[:, 0] - 1 + opp[:, 1] - opp[:, 3] + opp[:, 2] - opp[:, 4])
            best = opp[int(np.argmax(eq))]
            total += [1 - best[0], best[3], best[4], best[1], best[2]]
    got = bg.evaluate(pos, ply=1, evaluator=net.with_pruning(keep=0))   # every reply scored
    assert np.allclose(got.probabilities, total / 36, atol=1e-4)


def test_two_ply_runs_and_stays_a_probability():
    e = bg.evaluate(bg.Position.initial(), ply=2, filtered=False)
    assert 0.4 < e.win < 0.65 and e.win >= e.win_gammon >= e.win_backgammon
    ranked = bg.Position.initial().rank_plays((4, 2), ply=2, filtered=False)
    assert len(ranked) > 8
    assert [r.ply for r in ranked[:8]] == [2] * 8 and all(r.ply == 0 for r in ranked[8:])


def test_two_ply_filters_by_default_as_gnubg_does():
    """At ply 2 the move filters apply unless filtered=False: at most the 2 best
    of the 1-ply screen go to ply 2 (nn.FILTERS), and the default equals the
    explicit filtered=True; ply 1 stays exhaustive over its 8."""
    pos = bg.Position.initial()
    default = pos.rank_plays((4, 2), ply=2)
    explicit = pos.rank_plays((4, 2), ply=2, filtered=True)
    assert [(r.play, r.equity, r.ply) for r in default] == \
        [(r.play, r.equity, r.ply) for r in explicit]
    assert 1 <= sum(r.ply == 2 for r in default) <= 2
    assert pos.best_play((4, 2), ply=2) == pos.best_play((4, 2), ply=2, filtered=True)
    assert bg.evaluate(pos, ply=2).equity == bg.evaluate(pos, ply=2, filtered=True).equity
    assert pos.evaluate(2).equity == bg.evaluate(pos, ply=2).equity
    one = pos.rank_plays((4, 2), ply=1)
    assert [r.ply for r in one[:8]] == [1] * 8
    with pytest.raises(ValueError, match="filtered"):
        pos.rank_plays((4, 2), ply=2, filtered="yes")


def test_bad_ply_and_positions(net):
    for ply in (-1, 3, 1.0, True, "1"):
        with pytest.raises(ValueError, match="ply"):
            bg.evaluate(bg.Position.initial(), ply=ply)
    with pytest.raises(bg.InvalidPositionError, match="shape"):
        net.evaluate_batch(np.zeros((3, 25), np.int8))
    with pytest.raises(bg.InvalidPositionError, match="row 1"):
        net.evaluate_batch([bg.Position.initial().tolist(), [0] * 25 + [-1]])
    with pytest.raises(bg.InvalidPositionError, match="row 0"):
        net.evaluate_batch([[99] + [0] * 25])
    with pytest.raises(bg.InvalidPositionError, match="integer"):
        net.evaluate_batch(np.zeros((2, 26), np.float64))
    with pytest.raises(bg.GameOverError, match="row 0"):
        net.evaluate_batch(np.zeros((1, 26), np.int8))
    assert net.evaluate_batch(np.zeros((0, 26), np.int8)).shape == (0, 5)


# ----------------------------------------------------------------------
# Weights and files

def test_save_load_round_trip(tmp_path, net, positions):
    path = tmp_path / "nets.npz"
    net.save(path)
    back = Evaluator.load(path)
    assert back.hidden == net.hidden and back.meta == net.meta
    assert np.array_equal(back.evaluate_batch(positions), net.evaluate_batch(positions))
    for k, v in net.weights().items():
        assert np.array_equal(back.weights()[k], v)


def test_random_nets_with_odd_hidden_sizes(positions):
    ev = Evaluator.random(hidden=(13, 5), seed=2)
    assert ev.hidden == (13, 5)
    assert ev.weights()["contact_w1"].shape == (204, 13)
    p = ev.evaluate_batch(positions[:20])
    assert ((p >= 0) & (p <= 1)).all()


def test_pickle_round_trip(net, positions):
    import pickle

    back = pickle.loads(pickle.dumps(net))
    assert np.array_equal(back.evaluate_batch(positions[:30]), net.evaluate_batch(positions[:30]))


def _write(path, **arrays):
    with open(path, "wb") as f:
        np.savez(f, **arrays)


def test_bad_files_raise_our_error(tmp_path, net):
    good = {"format": np.array("backgammon-nn"), "version": np.array("1"),
            "architecture": np.array(bg.nn.ARCHITECTURE), "encoding": np.array(bg.nn.ENCODING),
            **net.weights()}
    cases = {
        "missing": None,
        "text": b"not a zip",
        "other-format": {**good, "format": np.array("gnubg")},
        "version": {**good, "version": np.array("99")},
        "encoding": {**good, "encoding": np.array("raw-198")},
        "shape": {**good, "contact_w1": np.zeros((198, 128), np.float32)},
        "b2": {**good, "race_b2": np.zeros(4, np.float32)},
        "nan": {**good, "race_w2": np.full((5, 64), np.nan, np.float32)},
        "huge": {**good, "contact_b1": np.full(128, 1e39)},
        "absent": {k: v for k, v in good.items() if k != "race_w1"},
        "object": {**good, "contact_b2": np.array([object()] * 5)},
    }
    for name, content in cases.items():
        path = tmp_path / f"{name}.npz"
        if isinstance(content, bytes):
            path.write_bytes(content)
        elif content is not None:
            _write(path, **content)
        with pytest.raises(bg.InvalidWeightsError):
            Evaluator.load(path)


def test_bad_weight_arrays():
    w = Evaluator.random(hidden=(8, 8)).weights()
    with pytest.raises(bg.InvalidWeightsError, match="missing"):
        Evaluator({k: v for k, v in w.items() if k != "contact_b1"})
    with pytest.raises(bg.InvalidWeightsError, match="unknown"):
        Evaluator({**w, "extra": np.zeros(3)})
    with pytest.raises(bg.InvalidWeightsError, match="hidden units"):
        Evaluator({**w, "race_w1": np.zeros((204, 0)), "race_b1": np.zeros(0),
                   "race_w2": np.zeros((5, 0))})
    with pytest.raises(bg.InvalidWeightsError, match="numeric"):
        Evaluator({**w, "race_b2": np.array(["a"] * 5)})
    with pytest.raises(TypeError):
        Evaluator([1, 2, 3])
    with pytest.raises(bg.InvalidWeightsError, match="hidden sizes"):
        Evaluator.random(hidden=(0, 8))


def test_avx2_and_baseline_kernels_agree_exactly(net, positions):
    # the same products summed in the same order, no fused multiply-add
    before = _bgcore.NN_AVX2
    try:
        _bgcore.nn_use_avx2(False)
        base = net.evaluate_batch(positions)
        pick_base = net._nets.choose(bg.Position(positions[7])._b,
                                     bg.Position(positions[7]).successors((6, 4)))
        _bgcore.nn_use_avx2(True)
        assert np.array_equal(net.evaluate_batch(positions), base)
        pick = net._nets.choose(bg.Position(positions[7])._b,
                                bg.Position(positions[7]).successors((6, 4)))
        assert pick[0] == pick_base[0] and np.array_equal(pick[1], pick_base[1])
    finally:
        _bgcore.nn_use_avx2(before)


@pytest.mark.parametrize("module", ["backgammon.nn", "backgammon.nn.evaluator", "backgammon.nn.search",
                                    "backgammon.nn.quant", "backgammon.analysis.duel",
                                    "backgammon.training.train"])
def test_docstring_examples(module):
    import doctest
    import importlib

    result = doctest.testmod(importlib.import_module(module), optionflags=doctest.ELLIPSIS)
    assert result.failed == 0 and result.attempted > 0


# ----------------------------------------------------------------------
# Hostile files: refused before anything big is read (issue 17)

def test_a_plain_npy_file_is_refused(tmp_path):
    np.save(tmp_path / "w.npy", np.zeros((204, 8), np.float32))
    with pytest.raises(bg.InvalidWeightsError, match="single .npy"):
        Evaluator.load(tmp_path / "w.npy")


def _declaring(path, shape, dtype=np.float32, body=b"\0" * 64):
    """An .npz whose one member's header declares ``shape`` over a tiny body."""
    import io
    import zipfile

    header = np.lib.format.header_data_from_array_1_0(np.zeros((1,), dtype))
    header["shape"] = shape
    buf = io.BytesIO()
    np.lib.format.write_array_header_1_0(buf, header)
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as z:
        z.writestr("contact_w1.npy", buf.getvalue() + body)
    return path


def test_a_member_declaring_a_huge_shape_is_refused_without_allocating(tmp_path):
    with pytest.raises(bg.InvalidWeightsError, match="declares shape"):
        Evaluator.load(_declaring(tmp_path / "huge.npz", (10**6, 10**6)))
    with pytest.raises(bg.InvalidWeightsError, match="declares shape"):
        Evaluator.load(_declaring(tmp_path / "short.npz", (204, 128)))


def test_a_zip_bomb_is_refused_by_its_declared_size(tmp_path):
    import zipfile

    with zipfile.ZipFile(tmp_path / "bomb.npz", "w", zipfile.ZIP_DEFLATED) as z:
        z.writestr("contact_w1.npy", b"\0" * (300 << 20))   # compresses to ~300 KB
    with pytest.raises(bg.InvalidWeightsError, match="unpacks to"):
        Evaluator.load(tmp_path / "bomb.npz")


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="POSIX FIFOs")
def test_a_fifo_is_refused_instead_of_blocking(tmp_path):
    import threading

    fifo = tmp_path / "nets.npz"
    os.mkfifo(fifo)
    errors = []
    t = threading.Thread(target=lambda: errors.append(_load_error(fifo)), daemon=True)
    t.start()
    t.join(10)
    if t.is_alive():   # unblock the reader before failing
        with open(fifo, "wb"):
            pass
        t.join(10)
        pytest.fail("Evaluator.load blocked on a FIFO")
    assert errors and isinstance(errors[0], bg.InvalidWeightsError)
    assert "not a regular file" in str(errors[0])


def _load_error(path):
    try:
        Evaluator.load(path)
    except Exception as exc:  # noqa: BLE001 - the test checks the class
        return exc
    return None


def test_ply_3_is_an_error_of_our_hierarchy():
    for ply in (3, -1):
        with pytest.raises(bg.BackgammonError, match="ply must be 0, 1 or 2"):
            bg.evaluate(bg.Position.initial(), ply=ply)
        with pytest.raises(bg.BackgammonError, match="ply"):
            rank_plays(bg.Position.initial(), (3, 1), ply=ply)
