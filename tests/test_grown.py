"""Evaluator.grown: a later encoding and more hidden units, answering exactly as before."""

from __future__ import annotations

import numpy as np
import pytest

import backgammon as bg
from backgammon import _bgcore
from backgammon.training import targets
from backgammon.cli import main


@pytest.fixture(scope="module")
def boards():
    b = targets.sample_positions(400, seed=31, explore=0.3, varied=0.6)
    # every class the nets answer: contact, crashed and race all occur
    assert any(_bgcore.nn_is_race(r.tobytes()) for r in b)
    return b


@pytest.mark.parametrize("which", ["default", "fast"])
def test_grown_bundled_nets_answer_exactly_as_before(boards, which):
    old = getattr(bg.Evaluator, which)()
    top = _bgcore.NN_MAX_HIDDEN
    hidden = (min(old.hidden[0] + 32, top), old.hidden[1], min(old.hidden[-1] + 8, top))
    big = old.grown(hidden, encoding=4, seed=3)
    assert big.hidden == hidden and big.encoding == 4
    assert (big.evaluate_batch(boards) == old.evaluate_batch(boards)).all()
    # and the move choice, which adds the changed columns incrementally
    pos = bg.Position.from_array(boards[7])
    assert [str(r.play) for r in pos.rank_plays((3, 1), evaluator=big)] == \
        [str(r.play) for r in pos.rank_plays((3, 1), evaluator=old)]


def test_grown_keeps_the_old_weights_and_silences_the_new(boards):
    old = bg.Evaluator.random((8, 4), seed=2)
    w = old.grown((10, 4, 12), encoding=2, seed=0).weights()
    o = old.weights()
    assert w["contact_w1"].shape == (224, 10)
    assert (w["contact_w1"][:204, :8] == o["contact_w1"]).all()
    assert (w["contact_w1"][204:, :8] == 0).all()          # new inputs: no effect yet
    assert (w["contact_w2"][:, 8:] == 0).all()              # new units: no effect yet
    assert (w["crashed_w1"][:204, :8] == o["contact_w1"]).all()   # crashed from contact
    assert (w["race_w1"][:204] == o["race_w1"]).all()


@pytest.mark.parametrize("hidden, encoding, match", [
    ((4, 4), 1, "shrink"),
    ((8, 4), 5, "encoding"),
    ((8,), 1, "hidden sizes"),
])
def test_grown_refuses_what_would_change_the_nets(hidden, encoding, match):
    with pytest.raises(bg.InvalidWeightsError, match=match):
        bg.Evaluator.random((8, 4), seed=2).grown(hidden, encoding)
    with pytest.raises(bg.InvalidWeightsError, match="encoding"):
        bg.Evaluator.random((8, 4), seed=2).grown((8, 4), 2).grown((8, 4), 1)


def test_train_cli_grows_the_init_nets(tmp_path, capsys):
    init = tmp_path / "small.npz"
    bg.Evaluator.random((8, 4), seed=2).save(init)
    data = tmp_path / "t"
    targets.make_targets(data, range(1), seed=1, chunk_positions=40, ply=1)
    out = tmp_path / "nets.npz"
    args = ["train", "--targets", str(data), "--init", str(init), "--grow", "--encoding", "2",
            "--hidden-contact", "12", "--hidden-race", "4", "--hidden-crashed", "8",
            "--epochs", "1", "--validation", "0.1", "--save", str(out), "--no-progress"]
    assert main(args) == 0
    ev = bg.Evaluator.load(out)
    assert ev.hidden == (12, 4, 8) and ev.encoding == 2
    assert main(["train", "--targets", str(data), "--grow", "--no-progress"]) == 2
    assert "--init" in capsys.readouterr().err
