"""Nets files are checked before they are inflated: a small file that declares
huge arrays is refused without the process growing by what it declares."""

from __future__ import annotations

import subprocess
import sys
import textwrap

import numpy as np
import pytest

import backgammon as bg


def _fast_nets_file(path, part, array):
    """The fast nets' file (version 2) with weight array ``part`` replaced by ``array``."""
    ev = bg.Evaluator.fast()
    data = {"format": np.array("backgammon-nn"), "version": np.array("2"),
            "architecture": np.array("mlp-1-softsigmoid-logistic5"),
            "encoding": np.array("tesauro4-bar-off-feat6-v1"),
            "nets": np.array(",".join(ev.nets))}
    data.update(ev.weights())
    data[part] = array
    np.savez_compressed(path, **data)


def _huge_declaring_file(path, hidden=250_000):
    """A nets file whose contact_w1 declares (204, hidden) float32 zeros:
    204 MB unpacked at hidden=250,000, under 1 MB on disk."""
    _fast_nets_file(path, "contact_w1", np.zeros((204, hidden), np.float32))


def test_a_file_declaring_a_huge_array_is_refused_before_it_is_read(tmp_path):
    path = tmp_path / "huge.npz"
    _huge_declaring_file(path)
    assert path.stat().st_size < 2 << 20
    # in a fresh process, so that the peak resident size is this load's alone
    code = textwrap.dedent(f"""
        import resource, backgammon as bg
        bg.Evaluator.fast()        # the core and numpy loaded, as before any load
        before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
        try:
            bg.Evaluator.load({str(path)!r})
        except bg.InvalidWeightsError as exc:
            print("refused:", exc)
        after = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
        print("grew_kb", after - before)
    """)
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         timeout=120, check=True).stdout
    assert "refused:" in out and "contact_w1" in out
    grew_kb = int(out.split("grew_kb")[1])
    assert grew_kb < 60 * 1024          # the bound: 60 MB


def test_a_checkpoints_optimizer_arrays_are_not_read(tmp_path):
    """Members a load does not use (a checkpoint's train_* moments) are checked
    but never unpacked, so large ones cost nothing."""
    ev = bg.Evaluator.fast()
    path = tmp_path / "ckpt.npz"
    ev._save_with(path, {"train_m": np.zeros((8, 1 << 20), np.float32)})   # 32 MB of zeros
    again = bg.Evaluator.load(path)
    b = bg.Position.initial().to_array()[None]
    assert np.array_equal(again.evaluate_batch(b), ev.evaluate_batch(b))


def test_old_files_load(tmp_path):
    """Every bundled nets file and the files the training folder keeps in the
    old layouts (version 1: two nets of encoding 1) still load."""
    ev = bg.Evaluator.random((16, 8), seed=3)        # two nets, encoding 1: version 1 layout
    path = tmp_path / "v1.npz"
    ev.save(path)
    with np.load(path) as f:
        assert str(f["version"]) == "1"
    back = bg.Evaluator.load(path)
    b = bg.Position.initial().to_array()[None]
    assert np.array_equal(back.evaluate_batch(b), ev.evaluate_batch(b))


@pytest.mark.parametrize("part,shape", [("contact_w1", (204, 5000, 2)), ("race_b2", (5, 3000, 3000))])
def test_bad_shapes_are_refused_clearly(tmp_path, part, shape):
    path = tmp_path / "bad.npz"
    _fast_nets_file(path, part, np.zeros(shape, np.float32))
    with pytest.raises(bg.InvalidWeightsError):
        bg.Evaluator.load(path)
