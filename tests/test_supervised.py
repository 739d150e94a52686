"""Supervised training (sgd.h, backgammon.training.supervised): the gradient against an
independent numpy implementation, learning, determinism, exact resumption
from any stop, Ctrl-C, the targets reader and bad input."""

from __future__ import annotations

import json
import os
import signal
import sys
import threading
import zipfile

import numpy as np
import pytest

import backgammon as bg
from backgammon import _bgcore
from backgammon.nn import Evaluator
from backgammon.training.targets import TargetSet, read_targets


def positions(n: int, seed: int = 0) -> np.ndarray:
    """n distinct-ish live positions from random games (no exact ones filtered)."""
    rng = np.random.default_rng(seed)
    out = []
    while len(out) < n:
        b = bg.Position.initial()._b
        for _ in range(200):
            if _bgcore.sides(b) != 0:
                break
            out.append(np.frombuffer(b, np.int8).copy())
            res = _bgcore.successors(b, (int(rng.integers(1, 7)), int(rng.integers(1, 7))))
            after = res[int(rng.integers(len(res)))].tobytes()
            if _bgcore.sides(after) != 0:
                break
            b = _bgcore.swapped(after)
    return np.array(out[:n], np.int8)


@pytest.fixture(scope="module")
def data() -> TargetSet:
    b = positions(600)
    t = Evaluator.default().evaluate_batch(b)   # any cumulative probabilities will do
    return TargetSet(b, t, np.zeros(len(b), np.float32), ())


def same(a: Evaluator, b: Evaluator) -> bool:
    wa, wb = a.weights(), b.weights()
    return wa.keys() == wb.keys() and all(np.array_equal(wa[k], wb[k]) for k in wa)


TINY = dict(hidden=(16, 8), progress=False)


# ----------------------------------------------------------------------
# The core's gradient step against numpy

def _numpy_step(w: dict, boards: np.ndarray, targets: np.ndarray, lr: float) -> dict:
    """One plain gradient step (momentum 0) of the contact net on a batch, in float64."""
    w1, b1, w2, b2 = (w[f"contact_{p}"].astype(np.float64) for p in ("w1", "b1", "w2", "b2"))
    g1, gb1, g2, gb2 = np.zeros_like(w1), np.zeros_like(b1), np.zeros_like(w2), np.zeros_like(b2)
    for b, t in zip(boards, targets):
        idx, val = _bgcore.nn_encode(b.tobytes())
        x = np.zeros(w1.shape[0])
        np.add.at(x, idx, val)
        a = b1 + x @ w1
        h = 0.5 + a / (2 * (1 + np.abs(a)))
        o = 1 / (1 + np.exp(-(w2 @ h + b2)))
        d = o - t
        ga = (w2.T @ d) * 0.5 * (1 - np.abs(2 * h - 1)) ** 2
        g2 += np.outer(d, h)
        gb2 += d
        gb1 += ga
        g1 += np.outer(x, ga)
    n = len(boards)
    return {"contact_w1": w1 - lr * g1 / n, "contact_b1": b1 - lr * gb1 / n,
            "contact_w2": w2 - lr * g2 / n, "contact_b2": b2 - lr * gb2 / n}


def core_step_matches(ev: Evaluator, data: TargetSet, numpy_step) -> None:
    """One plain gradient step (momentum 0, lr 0.5) of the core on 40 contact
    rows of ``data`` as one batch equals ``numpy_step`` on the same rows."""
    rows = np.flatnonzero(ev._nets.classify(data.boards) == 0)[:40].astype(np.int64)
    want = numpy_step(ev.weights(), data.boards[rows], data.targets[rows].astype(np.float64), 0.5)
    state = np.zeros(2 * ev._nets.sgd_nparams(0), np.float32)
    progress = np.zeros(2, np.int64)
    ev._nets.sgd_train(0, data.boards, data.targets, rows, len(rows), False, 0.5, 0.5, 1,
                       0.0, 0.999, 1e-8, state, progress)
    assert progress.tolist() == [1, len(rows)]
    got = ev.weights()
    for k, v in want.items():
        np.testing.assert_allclose(got[k], v, rtol=1e-4, atol=1e-6)
    # a second call moves the step on and adds its examples to the count
    ev._nets.sgd_train(0, data.boards, data.targets, rows[:16], 8, False, 0.5, 0.5, 3,
                       0.0, 0.999, 1e-8, state, progress)
    assert progress.tolist() == [3, len(rows) + 16]


def test_one_core_step_is_the_gradient_of_the_cross_entropy(data):
    ev = Evaluator.random((12, 8), seed=4)   # 12: the padding to 16 must stay zero
    core_step_matches(ev, data, _numpy_step)
    assert not ev._nets.arrays[0][:, 12:].any()   # padding columns untouched


def test_the_loss_is_the_mean_cross_entropy(data):
    ev = Evaluator.random((16, 8), seed=2)
    rows = np.flatnonzero(ev._nets.classify(data.boards) == 0)[:30].astype(np.int64)
    raw = []
    for r in rows:   # raw outputs: the evaluator's, before tidying, agree for these
        idx, val = _bgcore.nn_encode(data.boards[r].tobytes())
        w = ev.weights()
        x = np.zeros(w["contact_w1"].shape[0])
        np.add.at(x, idx, val)
        a = w["contact_b1"] + x @ w["contact_w1"]
        h = 0.5 + a / (2 * (1 + np.abs(a)))
        raw.append(1 / (1 + np.exp(-(w["contact_w2"] @ h + w["contact_b2"]))))
    o, t = np.array(raw), data.targets[rows].astype(np.float64)
    want = -(t * np.log(o) + (1 - t) * np.log(1 - o)).sum()
    assert ev._nets.sgd_loss(0, data.boards, data.targets, rows) == pytest.approx(want, rel=1e-5)


# ----------------------------------------------------------------------
# Learning, determinism, resumption

@pytest.mark.parametrize("optimizer", ["adam", "momentum"])
def test_the_loss_decreases_on_a_fixed_small_set(data, optimizer):
    lines: list[str] = []
    bg.train(targets=data, epochs=12, optimizer=optimizer, seed=1, validation=0.2,
             log=lines.append, **TINY)
    hist = [line for line in lines if line.startswith("epoch=")]
    assert len(hist) == 12
    def loss(line: str, key: str) -> float:
        part = line.split(f"{key}=")[1].split()[0]
        return float(part.split("all:")[1])
    assert loss(hist[-1], "train_loss") < 0.9 * loss(hist[0], "train_loss")
    assert loss(hist[-1], "val_loss") < loss(hist[0], "val_loss")


def test_the_same_seed_gives_bit_identical_nets_on_any_thread_count(data):
    a = bg.train(targets=data, epochs=3, seed=5, threads=1, **TINY)
    b = bg.train(targets=data, epochs=3, seed=5, threads=2, **TINY)
    assert same(a, b)
    assert not same(a, bg.train(targets=data, epochs=3, seed=6, threads=2, **TINY))


def test_a_run_stopped_after_an_epoch_resumes_exactly(data, tmp_path):
    def stop(line: str) -> None:
        if line.startswith("epoch=2 "):
            raise KeyboardInterrupt
    with pytest.raises(KeyboardInterrupt):
        bg.train(targets=data, epochs=4, seed=3, out=tmp_path, log=stop, **TINY)
    state = json.loads(Evaluator.load(tmp_path / "checkpoint.npz").meta["train_state"])
    assert state["epoch"] == 2
    resumed = bg.train(targets=data, epochs=4, seed=3, out=tmp_path, **TINY)
    assert same(resumed, bg.train(targets=data, epochs=4, seed=3, **TINY))
    assert (tmp_path / "best.npz").exists()
    log = (tmp_path / "train.log").read_text()
    assert [line.split()[0] for line in log.splitlines() if line.startswith("epoch=")] == [
        "epoch=1", "epoch=2", "epoch=3", "epoch=4"]
    with pytest.raises(bg.BackgammonError, match="other settings"):
        bg.train(targets=data, epochs=5, seed=3, out=tmp_path, **TINY)


@pytest.mark.ctrl_c
@pytest.mark.slow
@pytest.mark.skipif(not hasattr(signal, "pthread_kill"), reason="POSIX signals")
@pytest.mark.parametrize("threads", [1, 2])
def test_ctrl_c_stops_training_and_the_run_resumes_exactly_from_where_it_stopped(tmp_path, threads):
    import threading

    from test_interrupts import STOPPED_WITHIN, _interrupted

    import time

    b = positions(1000, seed=9)
    big = TargetSet(b, Evaluator.default().evaluate_batch(b), np.zeros(len(b), np.float32), ())
    kw = dict(targets=big, seed=2, batch=16, threads=threads, hidden=(32, 16), progress=False)
    # about two seconds of work on this machine: the signal (after 0.3 s) lands mid-run
    # even when the timing run was slowed down by other load
    t = time.perf_counter()
    bg.train(epochs=3, **kw)
    kw["epochs"] = epochs = max(12, int(2.0 / ((time.perf_counter() - t) / 3)))
    latency = _interrupted(lambda: bg.train(out=tmp_path, **kw))
    assert latency < STOPPED_WITHIN
    assert not [t for t in threading.enumerate() if t.name.startswith("backgammon-fit")]
    state = json.loads(Evaluator.load(tmp_path / "checkpoint.npz").meta["train_state"])
    assert state["epoch"] < epochs
    assert same(bg.train(out=tmp_path, **kw), bg.train(**kw))


def test_resume_continues_exactly_from_a_mid_epoch_stop(data, tmp_path):
    from backgammon.training import supervised

    kw = dict(targets=data, epochs=3, seed=4, batch=8, hidden=(16, 8), progress=False)
    calls = {"n": 0}

    class Stop(Exception):
        pass

    original = supervised._epoch

    def epoch_then_stop(net, split, s, st, nthreads, cancel):
        calls["n"] += 1
        if calls["n"] == 2:
            # part of epoch 2: 5 batches of the contact net, then a stop
            order = split.order(s.seed, st.epoch, 0)[:40]
            net._nets.sgd_train(0, split.data.boards, split.data.targets, order, s.batch, True,
                                s.lr, s.lr_final, split.total_steps(0), s.momentum, s.beta2,
                                s.eps, st.opt[0], st.progress(0))
            raise Stop
        return original(net, split, s, st, nthreads, cancel)

    supervised._epoch = epoch_then_stop
    try:
        with pytest.raises(Stop):
            bg.train(out=tmp_path, **kw)
    finally:
        supervised._epoch = original
    state = json.loads(Evaluator.load(tmp_path / "checkpoint.npz").meta["train_state"])
    assert state["epoch"] == 1 and state["done"] == [40, 0]
    assert same(bg.train(out=tmp_path, **kw), bg.train(**kw))


@pytest.mark.slow
@pytest.mark.parametrize("threads", [1, 2])
def test_a_ctrl_c_at_any_line_of_the_training_loop_leaves_a_checkpoint_that_resumes_exactly(
        data, tmp_path, threads):
    """KeyboardInterrupt raised at each line the main thread runs in fit's loop
    and in _epoch, in turn (a real Ctrl-C lands between such steps): the run
    resumed from its checkpoint ends with the uninterrupted run's nets.  (A
    Ctrl-C that landed between recording one net's progress and the next's once
    made a two-thread run train part of an epoch twice.)"""
    import inspect

    from backgammon.training import supervised

    kw = dict(targets=data, epochs=2, seed=4, batch=64, hidden=(16, 8), threads=threads,
              progress=False)
    want = bg.train(**kw)
    lines, first = inspect.getsourcelines(supervised.fit)
    # fit's lines up to the finally that writes the checkpoint (a second Ctrl-C there is not this test's)
    end = first + next(i for i, line in enumerate(lines) if line.strip() == "finally:")
    codes = {supervised.fit.__code__: end, supervised._epoch.__code__: 10**9}

    def interrupted_at(k: int) -> bool:
        seen = [0]

        def tracer(frame, event, arg):
            if frame.f_code not in codes:
                return None
            def local(frame, event, arg):
                if event == "line" and frame.f_lineno < codes[frame.f_code]:
                    seen[0] += 1
                    if seen[0] == k:
                        raise KeyboardInterrupt
                return local
            return local

        sys.settrace(tracer)
        try:
            bg.train(out=out, **kw)
        except KeyboardInterrupt:
            return True
        finally:
            sys.settrace(None)
        return False

    k = 0
    while True:
        k += 1
        out = tmp_path / f"k{k}"
        if not interrupted_at(k):
            break
        assert not [t for t in threading.enumerate() if t.name.startswith("backgammon-fit")]
        assert same(bg.train(out=out, **kw), want), f"stopped at line event {k}"
    assert k > 20   # the loop's lines were all tried


def test_init_starts_from_existing_nets(data, tmp_path):
    start = Evaluator.random((24, 8), seed=7)
    start.save(tmp_path / "start.npz")
    a = bg.train(targets=data, epochs=1, start=tmp_path / "start.npz", progress=False)
    assert a.hidden == (24, 8)
    assert same(a, bg.train(targets=data, epochs=1, start=start, progress=False))


def test_exact_positions_are_not_trained_and_classes_are_right():
    ev = Evaluator.default()
    race = np.zeros(26, np.int8)
    race[6], race[13] = 5, 10        # ours all past theirs
    race[20], race[15] = -10, -5
    home = np.zeros(26, np.int8)
    home[1:4], home[22:25] = 5, -5   # both sides home: the bear-off database
    cls = ev._nets.classify(np.stack([bg.Position.initial().to_array(), race, home]).astype(np.int8))
    assert cls.tolist() == [0, 1, -1]


# ----------------------------------------------------------------------
# The targets files

def _write(path, **arrays):
    base = dict(boards=np.stack([bg.Position.initial().to_array()]).astype(np.int8),
                targets=np.array([[0.5, 0.15, 0.01, 0.14, 0.01]], np.float32),
                stderr=np.zeros(1, np.float32), meta=np.array("{}"))
    base.update(arrays)
    np.savez(path, **{k: v for k, v in base.items() if v is not None})
    return path


def test_a_directory_of_chunks_reads_in_name_order(tmp_path):
    b1 = bg.Position.initial().to_array().reshape(1, 26).astype(np.int8)
    b2 = bg.Position.initial().swapped().to_array().reshape(1, 26).astype(np.int8)
    _write(tmp_path / "chunk-000001.npz", boards=b2)
    _write(tmp_path / "chunk-000000.npz", boards=b1)
    (tmp_path / "notes.txt").write_text("not a chunk")
    s = read_targets(tmp_path)
    assert [os.path.basename(f) for f in s.files] == ["chunk-000000.npz", "chunk-000001.npz"]
    assert np.array_equal(s.boards, np.concatenate([b1, b2]))
    assert len(read_targets([tmp_path / "chunk-000001.npz"])) == 1
    other = tmp_path / "more"
    other.mkdir()
    _write(other / "chunk-000000.npz", boards=b2)
    both = read_targets([other, tmp_path])       # directories in a list, in its order
    assert np.array_equal(both.boards, np.concatenate([b2, b1, b2]))


@pytest.mark.parametrize("arrays, match", [
    (dict(targets=None), "no 'targets'"),
    (dict(boards=np.zeros((1, 26), np.int16)), "boards must be int8"),
    (dict(targets=np.zeros((1, 5), np.float64)), "targets must be float32"),
    (dict(targets=np.array([[0.5, 0.6, 0.0, 0.0, 0.0]], np.float32)), "cumulative"),
    (dict(targets=np.array([[np.nan, 0, 0, 0, 0]], np.float32)), "cumulative"),
    (dict(targets=np.array([[0.3, 0, 0, 0.8, 0]], np.float32)), "cumulative"),
    (dict(stderr=np.array([-1.0], np.float32)), "stderr"),
    (dict(meta=np.array([1, 2])), "meta"),
    (dict(boards=np.full((1, 26), 3, np.int8)), "row 0"),
])
def test_bad_target_files_are_refused(tmp_path, arrays, match):
    path = _write(tmp_path / "bad.npz", **arrays)
    with pytest.raises(bg.TrainingDataError, match=match):
        read_targets(path)
    with pytest.raises(bg.TrainingDataError):
        bg.train(targets=path, epochs=1, progress=False)


def test_hostile_target_files_are_refused_before_reading(tmp_path):
    empty = tmp_path / "empty"
    empty.mkdir()
    with pytest.raises(bg.TrainingDataError, match="no .npz"):
        read_targets(empty)
    np.save(tmp_path / "plain.npy", np.zeros(3))
    with pytest.raises(bg.TrainingDataError, match="single .npy"):
        read_targets(tmp_path / "plain.npy")
    huge = _huge_npz(tmp_path / "huge.npz", "boards")
    with pytest.raises(bg.TrainingDataError, match="bytes"):
        read_targets(huge)
    with pytest.raises(bg.TrainingDataError, match="positions"):
        read_targets(_write(tmp_path / "ok.npz"), max_positions=0)


def _huge_npz(path, name: str):
    """A small .npz whose member declares a 10^12-byte array."""
    header = np.lib.format.header_data_from_array_1_0(np.zeros((1,), np.int8))
    header["shape"] = (10**12 // 26, 26)
    import io
    buf = io.BytesIO()
    np.lib.format.write_array_header_1_0(buf, header)
    with zipfile.ZipFile(path, "w") as z:
        z.writestr(f"{name}.npy", buf.getvalue() + b"\0" * 64)
    return path


# ----------------------------------------------------------------------
# Bad arguments and checkpoints, for both kinds of training

@pytest.mark.parametrize("kw, match", [
    (dict(seed=-1), "seed"), (dict(seed=2**64), "seed"), (dict(seed=1.5), "seed"),
    (dict(lr=float("nan")), "learning rate lr"), (dict(lr=1e30), "learning rate lr"),
    (dict(lr=0), "learning rate lr"), (dict(lr_final=float("inf")), "lr_final"),
])
@pytest.mark.parametrize("kind", ["self-play", "supervised"])
def test_bad_arguments_are_refused_up_front(data, kw, match, kind):
    where = dict(games=10) if kind == "self-play" else dict(targets=data)
    with pytest.raises(bg.BackgammonError, match=match):
        bg.train(**where, **kw, hidden=(8, 8), progress=False, eval_every=0)


@pytest.mark.parametrize("kw, match", [
    (dict(epochs=0), "epochs"), (dict(batch=0), "batch"), (dict(optimizer="sgd"), "optimizer"),
    (dict(validation=1.0), "validation"), (dict(threads=0), "threads"),
    (dict(hidden=(0, 8)), "hidden"), (dict(games=10), "not both"),
])
def test_bad_supervised_settings(data, kw, match):
    with pytest.raises(bg.BackgammonError, match=match):
        bg.train(**{"targets": data, "progress": False, **kw})


@pytest.mark.parametrize("state", [None, "not json {", "[1, 2]", '{"kind": "supervised-v1"}',
                                   '{"settings": 3, "games": 1}'])
@pytest.mark.parametrize("kind", ["self-play", "supervised"])
def test_a_checkpoint_with_a_missing_or_malformed_train_state(tmp_path, data, state, kind):
    meta = {} if state is None else {"train_state": state}
    Evaluator(Evaluator.random((8, 8), seed=1).weights(), meta=meta).save(tmp_path / "checkpoint.npz")
    where = dict(games=10, eval_every=0) if kind == "self-play" else dict(targets=data)
    with pytest.raises(bg.TrainingDataError, match="train_state|checkpoint"):
        bg.train(out=tmp_path, hidden=(8, 8), progress=False, **where)


def test_cli_supervised_with_init(tmp_path, data, capsys):
    from backgammon.cli import main

    path = tmp_path / "t.npz"
    np.savez(path, boards=data.boards, targets=data.targets, stderr=data.stderr,
             meta=np.array(json.dumps({"generator": "test"})))
    Evaluator.random((16, 8), seed=3).save(tmp_path / "init.npz")
    assert main(["train", "--targets", str(path), "--out", str(tmp_path / "run"), "--epochs", "2",
                 "--init", str(tmp_path / "init.npz"), "--no-progress",
                 "--save", str(tmp_path / "n.npz")]) == 0
    assert "trained" in capsys.readouterr().out
    assert Evaluator.load(tmp_path / "n.npz").hidden == (16, 8)
    assert "epoch=2 " in (tmp_path / "run" / "train.log").read_text()
    (tmp_path / "bad.npz").write_bytes(b"PK\x03\x04garbage")
    assert main(["train", "--targets", str(tmp_path / "bad.npz"), "--no-progress"]) == 2
    assert "error" in capsys.readouterr().err
    (tmp_path / "run2").mkdir()
    Evaluator.random((16, 8), seed=3).save(tmp_path / "run2" / "checkpoint.npz")  # no train_state
    assert main(["train", "--targets", str(path), "--out", str(tmp_path / "run2"),
                 "--hidden-contact", "16", "--hidden-race", "8", "--no-progress"]) == 2
    assert "train_state" in capsys.readouterr().err


@pytest.mark.parametrize("module", ["backgammon.training.supervised", "backgammon.training.targets",
                                    "backgammon.nn._npz"])
def test_docstring_examples(module):
    import doctest
    import importlib

    result = doctest.testmod(importlib.import_module(module), optionflags=doctest.ELLIPSIS)
    assert result.failed == 0 and result.attempted > 0


@pytest.mark.ctrl_c
@pytest.mark.skipif(not hasattr(signal, "pthread_kill"), reason="POSIX signals")
def test_a_ctrl_c_while_the_threads_are_joined_is_raised_not_swallowed():
    """At the end of an epoch the main thread waits for the training threads; a
    Ctrl-C landing in that wait stops them and comes out as KeyboardInterrupt
    once they have stopped (it was once swallowed, and training went on)."""
    import time
    from concurrent.futures import ThreadPoolExecutor

    from backgammon import _bgcore
    from backgammon.training import supervised
    from test_interrupts import _run_armed

    cancel = _bgcore.Cancel()
    pool = ThreadPoolExecutor(max_workers=1, thread_name_prefix="backgammon-fit")
    gate = supervised._Gate()
    done = []
    pool.submit(gate.run, lambda job: (time.sleep(0.6), done.append(job)), "job")
    time.sleep(0.05)
    interrupted, _ = _run_armed(lambda: supervised._join(pool, gate, cancel), [0.15])
    assert interrupted
    assert done == ["job"] and cancel.is_set()   # the thread finished first, and was told to stop


def test_the_join_waits_for_a_job_the_pool_does_not_know_it_runs():
    """A Ctrl-C landing in ``submit`` while the pool starts a thread leaves that
    thread running the job outside the threads ``shutdown(wait=True)`` joins
    (under load, one checkpoint in about fifteen recorded a net's place before
    the batch such a thread then trained).  The gate counts the jobs that
    started, whoever runs them, and a closed gate starts none."""
    import time
    from concurrent.futures import ThreadPoolExecutor

    from backgammon import _bgcore
    from backgammon.training import supervised

    gate = supervised._Gate()
    done = []
    stray = threading.Thread(target=gate.run, args=(lambda job: (time.sleep(0.4), done.append(job)), 1))
    stray.start()   # a thread no pool would join
    time.sleep(0.05)
    pool = ThreadPoolExecutor(max_workers=1)
    supervised._join(pool, gate, _bgcore.Cancel())
    assert done == [1]
    with pytest.raises(_bgcore.Cancelled):
        gate.run(lambda job: done.append(job), 2)   # closed: nothing more starts
    assert done == [1]
    stray.join()


def test_the_log_shows_the_learning_rate_of_a_net_that_trains(data):
    """With the contact net frozen the log's rate is the race net's, halfway down its
    cosine after the first of two epochs (it once showed the frozen net's, lr_final)."""
    lines: list[str] = []
    start = Evaluator.random((16, 8), seed=4, encoding=2)
    bg.train(targets=data, epochs=2, start=start, seed=1, progress=False, lr=0.002,
             lr_final=0.0002, frozen=("contact",), log=lines.append)
    first = next(line for line in lines if line.startswith("epoch=1 "))
    assert " lr=0.00110 " in first
    assert "train_loss=contact:-,race:" in first


def test_frozen_nets_keep_their_weights(data, tmp_path):
    from backgammon.cli import main

    start = Evaluator.random((16, 8, 8), seed=4, encoding=3)
    net = bg.train(targets=data, epochs=2, start=start, seed=1, progress=False,
                   frozen=("race", "crashed"))
    w, w0 = net.weights(), start.weights()
    for name in ("race", "crashed"):
        assert all(np.array_equal(w[f"{name}_{p}"], w0[f"{name}_{p}"]) for p in ("w1", "b1", "w2", "b2"))
    assert not np.array_equal(w["contact_w1"], w0["contact_w1"])
    assert json.loads(net.meta["train_settings"])["frozen"] == ["crashed", "race"]
    with pytest.raises(bg.BackgammonError, match="nothing to train"):
        bg.train(targets=data, epochs=1, start=start, progress=False,
                 frozen=("contact", "race", "crashed"))
    with pytest.raises(bg.BackgammonError, match="frozen"):
        bg.train(targets=data, epochs=1, start=start, progress=False, frozen=("bear-off",))
    with pytest.raises(bg.BackgammonError, match="lack"):
        bg.train(targets=data, epochs=1, start=Evaluator.random((8, 8), seed=1), progress=False,
                 frozen=("crashed",))
    with pytest.raises(bg.BackgammonError, match="supervised"):
        bg.train(10, start=start, progress=False, frozen=("race",))
    # the command line, and a run resumed with the same frozen nets
    init, out = tmp_path / "init.npz", tmp_path / "run"
    start.save(init)
    files = tmp_path / "t.npz"
    np.savez(files, boards=data.boards, targets=data.targets, stderr=data.stderr,
             meta=np.array("{}"))
    args = ["train", "--targets", str(files), "--init", str(init), "--frozen", "race", "crashed",
            "--epochs", "1", "--out", str(out), "--save", str(tmp_path / "n.npz"), "--no-progress"]
    assert main(args) == 0
    got = Evaluator.load(tmp_path / "n.npz").weights()
    assert np.array_equal(got["race_w1"], w0["race_w1"])
    assert main(args) == 0                          # the same run: resumed, already done
    other = [a for a in args if a != "crashed"]     # other frozen nets: other settings, refused
    assert main(other) == 2
