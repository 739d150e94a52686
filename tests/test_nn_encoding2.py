"""Encoding 2, the crashed net and the version 2 file format: features
counted by hand, symmetry under swapping sides, the crashed classifier on
hand-worked positions, incremental move choice against full evaluation,
files of both versions."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np
import pytest

import backgammon as bg
from backgammon import _bgcore
from backgammon.nn import Evaluator
from boards import board

NAMES = ["anchors", "back", "timing", "home", "piploss", "exposed", "shots", "prime", "in_play",
         "buried"]

DATA = Path(__file__).parent / "data"


def features(pos: bg.Position) -> tuple[dict[str, float], dict[str, float]]:
    """The 20 features of encoding 2 beyond encoding 1's 8: (on roll, opponent)."""
    f = _bgcore.nn_features(pos._b, 2)
    assert len(f) == 28
    assert f[:8] == _bgcore.nn_features(pos._b, 1)      # encoding 1's features come first
    return dict(zip(NAMES, f[8:18])), dict(zip(NAMES, f[18:28]))


def check(got: dict[str, float], want: dict[str, float]) -> None:
    for k, v in want.items():
        assert got[k] == pytest.approx(v, abs=1e-6), k


# Checks every encoding's tests share (test_nn_encoding3, test_nn_encoding4)

def check_swap_symmetry(features: Any, positions: np.ndarray) -> None:
    """``features(pos)`` -> (on roll, opponent): a swapped position's are the same, exchanged."""
    for row in positions:
        pos = bg.Position.from_array(row)
        own, opp = features(pos)
        sown, sopp = features(pos.swapped())
        assert own == sopp and opp == sown


def check_growth(encoding: int, positions: np.ndarray) -> None:
    """The fast nets (encoding 1) grown to ``encoding`` answer as before, and do not
    shrink back."""
    ev = Evaluator.fast()
    big = ev.grown(encoding=encoding)
    assert big.encoding == encoding and big.hidden == ev.hidden
    np.testing.assert_allclose(big.evaluate_batch(positions), ev.evaluate_batch(positions),
                               atol=2e-6)
    with pytest.raises(bg.InvalidWeightsError):
        big.grown(encoding=encoding - 1)


def check_files(tmp_path: Path, positions: np.ndarray, encoding: int, name: str) -> None:
    """Nets of ``encoding`` saved and loaded answer the same under the file's encoding
    ``name``; the previous encoding's name over these input rows is refused, not misread."""
    ev = Evaluator.random((16, 8, 8), seed=2, encoding=encoding)
    ev.save(tmp_path / "nets.npz")
    back = Evaluator.load(tmp_path / "nets.npz")
    assert back.encoding == encoding
    assert np.array_equal(back.evaluate_batch(positions), ev.evaluate_batch(positions))
    with np.load(tmp_path / "nets.npz") as z:
        assert str(z["encoding"]) == name
        data = {k: z[k] for k in z.files}
    np.savez(tmp_path / "bad.npz", **{**data, "encoding": np.array(bg.nn.ENCODINGS[encoding - 1])})
    with pytest.raises(bg.InvalidWeightsError):
        Evaluator.load(tmp_path / "bad.npz")


def test_features_of_the_opening():
    own, opp = features(bg.Position.initial())
    # 24:2 13:5 8:3 6:5 for both sides
    want = dict(anchors=1 / 3, back=2 / 5, timing=(18 * 2 + 7 * 5 + 2 * 3) / 100, home=1 / 6,
                piploss=0, exposed=0, shots=0, prime=1 / 6, in_play=1, buried=0)
    check(own, want)
    check(opp, want)


def test_features_with_blots_and_a_checker_on_the_bar():
    # on roll (X): 6:4 8:3 10:1 13:5 21:1 24:1; opponent (Y), our numbering:
    # bar 1, 19:5 (its 6), 17:3 (its 8), 12:5 (its 13), 1:1 (its 24)
    pos = board({6: 4, 8: 3, 10: 1, 13: 5, 21: 1, 24: 1}, {0: 1, 19: 5, 17: 3, 12: 5, 1: 1})
    own, opp = features(pos)
    # X's blots are Y's points 15, 4 and 1.  Y must enter first (its 19 = our
    # 6 is closed): non-doubles 1-2 1-4 1-5 2-3 2-4 2-5 3-4 3-5 4-5 (enter,
    # then hit 4 or 1 from its 6 or 8) and 4-6 (enter on 21, then 21-6 hits
    # 15); doubles 1-1 2-2 3-3 4-4 5-5 (6-6 cannot enter): 10 x 2 + 5 = 25.
    # The worst hit of each: 15 pips for 4-6, 3-3 (24-21-18-15) and 5-5
    # (20-15), 1 pip for 1-5 and 3-5, else 4: 2 x 45 + (4 + 4 + 15 + 4 + 15).
    check(own, dict(anchors=0, back=2 / 5, timing=(2 * 3 + 4 + 7 * 5 + 15 + 18) / 100,
                    home=1 / 6, exposed=2 / 3, shots=25 / 36, piploss=132 / 900,
                    prime=1 / 6, in_play=1, buried=0))
    # Y's only blot is on its 24 (our 1): we hit it with a 5 (from 6), 5 pips
    # (1-4, 2-3), 7 (1-6, 3-4 from 8), 9 (3-6 from 10): 10 rolls x 2, and
    # 3-3, 4-4, 5-5, 6-6: 24 rolls, one pip lost each time
    check(opp, dict(anchors=0, back=2 / 5, timing=(2 * 3 + 7 * 5 + 18 + 19) / 100, home=1 / 6,
                    exposed=1 / 3, shots=24 / 36, piploss=24 / 900, prime=1 / 6, in_play=1,
                    buried=0))


def test_prime_in_front_of_the_rearmost_checker_and_buried_checkers():
    # X: a 5-point prime 4..8 and 3 on its ace; Y's rearmost on our 2 (its 23):
    # the prime is in front of it.  A 2-point block 20-21 behind it does not count.
    pos = board({4: 2, 5: 2, 6: 2, 7: 2, 8: 2, 1: 3, 20: 2}, {2: 2, 19: 5, 17: 3, 12: 5})
    own, opp = features(pos)
    check(own, dict(prime=5 / 6, buried=3 / 15, home=4 / 6, anchors=1 / 3,
                    in_play=(15 - 3) / 15))
    # Y's points in front of our rearmost (our 20 = its 5, moving up its
    # numbering): its 6, 8, 13 and 23 are made, none adjacent: a run of 1
    check(opp, dict(prime=1 / 6, anchors=1 / 3, back=2 / 5))


def test_features_are_symmetric_under_swapping(positions):
    check_swap_symmetry(features, positions)


def test_the_fast_features_equal_the_point_by_point_ones(positions):
    extra = [board({1: 3, 2: 2, 25: 2, 8: 8}, {0: 3, 24: 2, 23: 3, 12: 7}),
             board({25: 4, 13: 11}, {0: 1, 1: 1, 3: 1, 5: 1, 7: 1, 12: 10}),
             board({6: 1}, {19: 1})]
    for row in list(positions) + [p.to_array() for p in extra]:
        b = np.asarray(row, np.int8).tobytes()
        assert _bgcore.nn_features2_agree(b)
        assert _bgcore.nn_features2_agree(_bgcore.swapped(b))


@pytest.fixture(scope="module")
def positions() -> np.ndarray:
    from test_supervised import positions as make
    return make(800, seed=11)


# ----------------------------------------------------------------------
# The crashed classifier

@pytest.mark.parametrize("own, opp, crashed", [
    # 10 checkers left, 3 on the ace and 2 on the deuce: in play 10 - 3 - 1 = 6
    ({1: 3, 2: 2, 5: 4, 20: 1}, {3: 2, 12: 5, 17: 3, 19: 5}, True),
    # one fewer on the deuce, one more on the 5: in play 7
    ({1: 3, 2: 1, 5: 5, 20: 1}, {3: 2, 12: 5, 17: 3, 19: 5}, False),
    # a single checker on the ace counts: in play 10 - 0 - 1 = 9
    ({1: 1, 2: 2, 5: 6, 20: 1}, {3: 2, 12: 5, 17: 3, 19: 5}, False),
    # six checkers left, none buried: 6
    ({5: 5, 20: 1}, {3: 2, 12: 5, 17: 3, 19: 5}, True),
    # seven left: not crashed
    ({5: 6, 20: 1}, {3: 2, 12: 5, 17: 3, 19: 5}, False),
    # a race is never crashed
    ({1: 3, 8: 1}, {19: 5, 20: 5, 21: 5}, False),
    # the opponent crashed: its 1-point is our 24, its 2-point our 23
    ({3: 2, 12: 5, 17: 3, 19: 5}, {24: 3, 23: 2, 20: 4, 5: 1}, True),
])
def test_crashed_positions_by_hand(own, opp, crashed):
    pos = board(own, opp)
    assert _bgcore.nn_is_crashed(pos._b) is crashed
    assert _bgcore.nn_is_crashed(pos.swapped()._b) is crashed
    three = Evaluator.random((8, 8, 8), seed=1)
    two = Evaluator.random((8, 8), seed=1)
    rows = pos.to_array().reshape(1, 26).astype(np.int8)
    race = _bgcore.nn_is_race(pos._b)
    assert three._nets.classify(rows).tolist() == [2 if crashed else (1 if race else 0)]
    assert two._nets.classify(rows).tolist() == [1 if race else 0]   # two nets: contact answers


# ----------------------------------------------------------------------
# Nets of encoding 2 with a crashed net

@pytest.mark.parametrize("hidden, encoding", [((24, 16, 16), 2), ((16, 8, 12), 1), ((16, 8), 2),
                                              ((24, 16, 16), 3), ((16, 8), 3),
                                              ((24, 16, 16), 4), ((16, 8), 4)])
def test_incremental_choice_equals_full_evaluation(positions, hidden, encoding):
    ev = Evaluator.random(hidden, seed=3, encoding=encoding)
    rng = np.random.default_rng(4)
    for row in positions[:300]:
        b = row.tobytes()
        d = (int(rng.integers(1, 7)), int(rng.integers(1, 7)))
        res = _bgcore.successors(b, d)
        pick, probs = ev._nets.choose(b, res)
        full = ev.evaluate_batch(np.ascontiguousarray(-res[:, ::-1]))
        np.testing.assert_allclose(probs, full, atol=2e-5)
        eq = -(2 * full[:, 0] - 1 + full[:, 1] - full[:, 3] + full[:, 2] - full[:, 4])
        assert eq[pick] >= eq.max() - 1e-5


@pytest.mark.parametrize("encoding, inputs", [(2, 224), (3, 238), (4, 248)])
def test_encoding_inputs_and_a_numpy_forward_pass(positions, encoding, inputs):
    ev = Evaluator.random((16, 8, 8), seed=5, encoding=encoding)
    w = ev.weights()
    assert w["contact_w1"].shape == (inputs, 16) and w["crashed_w1"].shape == (inputs, 8)
    cls = ev._nets.classify(positions)
    assert set(cls.tolist()) >= {0, 1, 2}
    got = ev.evaluate_batch(positions)
    for row, c, p in zip(positions[:200], cls[:200], got[:200]):
        if c < 0:
            continue
        name = ev.nets[c]
        idx, val = _bgcore.nn_encode(row.tobytes(), encoding)
        x = np.zeros(inputs)
        np.add.at(x, idx, val)
        assert np.allclose(x[196:], _bgcore.nn_features(row.tobytes(), encoding), atol=1e-7)
        a = w[f"{name}_b1"] + x @ w[f"{name}_w1"]
        h = 0.5 + a / (2 * (1 + np.abs(a)))
        raw = 1 / (1 + np.exp(-(w[f"{name}_w2"] @ h + w[f"{name}_b2"])))
        # evaluate tidies (orders the outputs); compare where it left them alone
        if raw[1] <= raw[0] and raw[2] <= raw[1] and raw[3] <= 1 - raw[0] and raw[4] <= raw[3]:
            if ((row[row > 0]).sum() == 15) and (-(row[row < 0]).sum() == 15):
                np.testing.assert_allclose(p, raw, rtol=1e-4, atol=1e-6)


def test_files_of_both_versions(tmp_path, positions):
    three = Evaluator.random((16, 8, 8), seed=2, encoding=2)
    three.save(tmp_path / "v2.npz")
    back = Evaluator.load(tmp_path / "v2.npz")
    assert back.nets == ("contact", "race", "crashed") and back.encoding == 2
    assert np.array_equal(back.evaluate_batch(positions), three.evaluate_batch(positions))
    with np.load(tmp_path / "v2.npz") as z:
        assert str(z["version"]) == "2" and str(z["nets"]) == "contact,race,crashed"
        assert str(z["encoding"]) == bg.nn.ENCODINGS[2]
        data = {k: z[k] for k in z.files}
    # two nets of encoding 1 (the TD nets bundled before generation 2) keep the version 1 layout
    two = Evaluator.load(DATA / "nets-v1-td.npz")
    assert two.encoding == 1 and two.nets == ("contact", "race")
    two.save(tmp_path / "v1.npz")
    with np.load(tmp_path / "v1.npz") as z:
        assert str(z["version"]) == "1" and "nets" not in z.files
    assert np.array_equal(Evaluator.load(tmp_path / "v1.npz").evaluate_batch(positions),
                          two.evaluate_batch(positions))
    bad = {
        "nets": {**data, "nets": np.array("contact,crashed")},
        "missing": {k: v for k, v in data.items() if k != "crashed_b2"},
        "encoding": {**data, "encoding": np.array("tesauro4-bar-off-feat6-v9")},
        "inputs": {**data, "encoding": np.array(bg.nn.ENCODINGS[1])},   # 224 rows for 204 inputs
        "v1-crashed": {**data, "version": np.array("1"), "encoding": np.array(bg.nn.ENCODINGS[1])},
        "version": {**data, "version": np.array("3")},
    }
    for name, content in bad.items():
        path = tmp_path / f"{name}.npz"
        np.savez(path, **content)
        with pytest.raises(bg.InvalidWeightsError):
            Evaluator.load(path)


def test_pickles_and_copies_keep_the_encoding(positions):
    import pickle

    ev = Evaluator.random((16, 8, 8), seed=2, encoding=2)
    for other in (pickle.loads(pickle.dumps(ev)), ev.copy()):
        assert other.encoding == 2 and other.hidden == (16, 8, 8)
        assert np.array_equal(other.evaluate_batch(positions[:50]), ev.evaluate_batch(positions[:50]))


@pytest.mark.parametrize("encoding", [2, 3, 4])
def test_supervised_training_of_three_nets(positions, encoding):
    t = Evaluator.default().evaluate_batch(positions)
    from backgammon.training.targets import TargetSet
    data = TargetSet(positions, t, np.zeros(len(t), np.float32), ())
    lines: list[str] = []
    a = bg.train(targets=data, epochs=6, hidden=(16, 8, 8), encoding=encoding, seed=1, validation=0.2,
                 progress=False, log=lines.append)
    assert a.encoding == encoding and a.nets == ("contact", "race", "crashed")
    hist = [line for line in lines if line.startswith("epoch=")]
    assert "crashed:" in hist[0]
    first = float(hist[0].split("train_loss=")[1].split("all:")[1].split()[0])
    last = float(hist[-1].split("train_loss=")[1].split("all:")[1].split()[0])
    assert last < first
    b = bg.train(targets=data, epochs=6, hidden=(16, 8, 8), encoding=encoding, seed=1, validation=0.2,
                 progress=False, threads=1)
    assert all(np.array_equal(a.weights()[k], b.weights()[k]) for k in a.weights())


def test_td_training_runs_three_nets_of_encoding_2():
    start = Evaluator.random((16, 8, 8), seed=1, encoding=2)
    net = bg.train(40, start=start, threads=2, round_games=10, progress=False, eval_every=0)
    assert net.encoding == 2 and net.hidden == (16, 8, 8)
    assert not all(np.array_equal(net.weights()[k], start.weights()[k]) for k in net.weights())


# ----------------------------------------------------------------------
# Move filters (2-ply as gnubg prunes it)

@pytest.mark.slow
def test_filters_wide_open_give_the_unfiltered_answers(monkeypatch, positions):
    from backgammon import nn

    monkeypatch.setattr(nn.search, "FILTERS", (nn.MoveFilter(8, 1e9), nn.MoveFilter(8, 1e9)))
    fast = bg.Evaluator.fast()  # the search, not the weights, is under test
    rng = np.random.default_rng(5)
    for row in positions[:6]:
        pos = bg.Position.from_array(row)
        d = (int(rng.integers(1, 7)), int(rng.integers(1, 7)))
        a = nn.rank_plays(pos, d, 1, fast)
        b = nn.rank_plays(pos, d, 1, fast, filtered=True)
        assert [(r.play, r.equity, r.ply) for r in a] == [(r.play, r.equity, r.ply) for r in b]
        # at ply 2 the same 8 plays go deeper; each is valued by the filtered 2-ply
        a = nn.rank_plays(pos, d, 2, fast, filtered=False)
        b = nn.rank_plays(pos, d, 2, fast, filtered=True)
        assert {r.play for r in a if r.ply == 2} == {r.play for r in b if r.ply == 2}
        for r in b:
            if r.ply == 2:
                seen = r.play.result.swapped()
                assert r.equity == pytest.approx(
                    -nn.evaluate(seen, 2, fast, filtered=True).equity, abs=1e-6)


def _slow_filtered_two_ply(pos, ev):
    """gnubg's 2-ply, one roll at a time through the public API: each roll's
    play chosen at ply 0, the position after it valued at ply 1 by the
    opponent, the mover's equity averaged over the 36 rolls."""
    total = 0.0
    for a in range(1, 7):
        for b in range(a, 7):
            play = pos.best_play((a, b), 0, evaluator=ev)
            total += (1 if a == b else 2) * -bg.evaluate(play.result.swapped(), 1, ev).equity
    return total / 36


def test_filtered_two_ply_evaluation_is_gnubgs_two_ply(positions):
    # unscreened: a screen chooses the replies inside a search, not a top-level best play
    ev = bg.Evaluator.default().with_pruning(keep=0)
    for row in positions[:5]:
        pos = bg.Position.from_array(row)
        assert bg.evaluate(pos, 2, ev, filtered=True).equity == pytest.approx(
            _slow_filtered_two_ply(pos, ev), abs=2e-5)


def test_filtered_two_ply_ranks_level_by_level(positions):
    from backgammon import nn

    rng = np.random.default_rng(6)
    for row in positions[:6]:
        pos = bg.Position.from_array(row)
        d = (int(rng.integers(1, 7)), int(rng.integers(1, 7)))
        ranked = pos.rank_plays(d, ply=2, filtered=True)
        assert len(ranked) == len(pos.legal_plays(d))
        levels = [r.ply for r in ranked]
        assert levels == sorted(levels, reverse=True)       # 2-ply first, then 1, then 0
        assert 1 <= levels.count(2) <= nn.FILTERS[1].keep
        assert levels.count(2) + levels.count(1) <= nn.FILTERS[0].keep
        for level in (2, 1, 0):
            eqs = [r.equity for r in ranked if r.ply == level]
            assert eqs == sorted(eqs, reverse=True)
        # a 2-ply play was within the 1-ply margin of the best at 1 ply
        at1 = {r.play: r.equity for r in pos.rank_plays(d, ply=1, filtered=True) if r.ply == 1}
        best1 = max(at1.values())
        for r in ranked:
            if r.ply == 2:
                assert at1[r.play] >= best1 - nn.FILTERS[1].margin - 1e-6
        assert pos.best_play(d, ply=2, filtered=True) == ranked[0].play


def test_the_old_bundled_file_still_evaluates_as_it_did():
    # tests/data/nets-v1-td.npz is the version 1 file bundled before generation 2
    # (training/gen0-td.npz); its opening evaluation as the README printed it then
    e = Evaluator.load(DATA / "nets-v1-td.npz").evaluate(bg.Position.initial())
    assert (round(e.win, 4), round(e.win_gammon, 4), round(e.equity, 4)) == (0.5237, 0.1299, 0.067)
