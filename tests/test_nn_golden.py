"""Net outputs bit for bit as recorded (tests/data/nn_golden.npz, written by
tests/data/make_nn_golden.py from the core before its speed work): the
features of encoding 2, full evaluations and incremental move choice of
encoding 1 and 2 nets, whichever kernels (SSE2 or AVX2) the CPU runs."""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np
import pytest

from backgammon import _bgcore

DATA = Path(__file__).parent / "data"
sys.path.insert(0, str(DATA))
import make_nn_golden as golden  # noqa: E402

REF = np.load(DATA / "nn_golden.npz")


def same_bits(got, want) -> None:
    got, want = np.asarray(got), np.asarray(want)
    assert got.shape == want.shape
    bad = np.flatnonzero(got.view(np.uint32) != want.view(np.uint32)) if got.dtype == np.float32 \
        else np.flatnonzero(got != want)
    assert bad.size == 0, f"{bad.size} values differ, first at flat index {bad[0]}"


def test_the_positions_are_the_recorded_ones():
    same_bits(golden.positions(400, seed=15), REF["boards"])


def test_the_encoding_1_nets_are_the_recorded_ones():
    # the TD nets (tests/data/nets-v1-td.npz) whose outputs were recorded
    assert golden.bundled_sha256() == str(REF["bundled_sha256"]), \
        "tests/data/nets-v1-td.npz changed since tests/data/nn_golden.npz was recorded"


def test_features_of_encoding_2():
    got = np.array([_bgcore.nn_features(b.tobytes(), 2) for b in REF["boards"]], np.float32)
    same_bits(got, REF["features"])


@pytest.mark.parametrize("avx2", [True, False])
@pytest.mark.parametrize("name", list(golden.NETS))
def test_evaluations_and_move_choice(name, avx2):
    ev = golden.evaluator(golden.NETS[name])
    boards = REF["boards"]
    rows = boards[:len(REF["dice"])]
    cands, offsets = _bgcore.batch_successors(rows, REF["dice"])
    before = _bgcore.NN_AVX2
    _bgcore.nn_use_avx2(avx2)
    try:
        same_bits(ev.evaluate_batch(boards), REF[f"{name}_eval"])
        picks, probs = ev._nets.choose_groups(rows, cands, offsets)
        same_bits(picks, REF[f"{name}_picks"])
        same_bits(probs, REF[f"{name}_choose"])
    finally:
        _bgcore.nn_use_avx2(before)
