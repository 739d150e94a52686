"""TD self-play training: determinism for a seed and thread count, exact
resumption, learning, checkpoints and bad settings."""

from __future__ import annotations

import numpy as np
import pytest

import backgammon as bg
from backgammon.nn import Evaluator
from backgammon.training.train import TrainSettings

TINY = dict(hidden=(8, 8), round_games=10, progress=False, eval_every=0)


def same(a: Evaluator, b: Evaluator) -> bool:
    wa, wb = a.weights(), b.weights()
    return wa.keys() == wb.keys() and all(np.array_equal(wa[k], wb[k]) for k in wa)


def test_training_is_deterministic_for_a_seed_and_thread_count():
    a = bg.train(60, seed=3, threads=2, **TINY)
    b = bg.train(60, seed=3, threads=2, **TINY)
    assert same(a, b)
    assert not same(a, bg.train(60, seed=4, threads=2, **TINY))
    # the nets moved away from their random start
    assert not same(a, Evaluator.random((8, 8), seed=3))


def test_one_thread_matches_the_sequential_definition():
    # one thread, one copy: rounds chain the same weights through td_games
    net = Evaluator.random((8, 8), seed=5)
    start = bg.Position.initial()._b
    done = 0
    settings = TrainSettings(seed=5, threads=1, hidden=(8, 8), round_games=10)
    while done < 30:
        net._nets.td_games(start, 5, done, 10, settings.lr_at(done))
        done += 10
    assert same(net, bg.train(30, seed=5, threads=1, **TINY))


def test_a_resumed_run_continues_exactly(tmp_path):
    bg.train(40, out=tmp_path, seed=2, threads=2, **TINY)
    assert (tmp_path / "checkpoint.npz").exists() and (tmp_path / "train.log").exists()
    resumed = bg.train(80, out=tmp_path, seed=2, threads=2, **TINY)
    straight = bg.train(80, seed=2, threads=2, **TINY)
    assert same(resumed, straight)
    with pytest.raises(bg.BackgammonError, match="other settings"):
        bg.train(100, out=tmp_path, seed=9, threads=2, **TINY)


def test_training_learns_and_logs_its_strength(tmp_path):
    lines = []
    net = bg.train(1200, out=tmp_path, seed=1, threads=2, hidden=(16, 8), round_games=100,
                   eval_every=600, eval_pairs=100, progress=False, log=lines.append)
    assert sum(line.startswith("games=") for line in lines) == 2
    assert "ppg=" in (tmp_path / "train.log").read_text()
    assert (tmp_path / "best.npz").exists()
    # 1,200 games of self-play beat random moves clearly
    r = bg.duel(net, "random", games=200, seed=1)
    assert r.ppg.low > 0.5


def test_learning_rate_schedule():
    s = TrainSettings(lr=0.1, lr_final=0.01, lr_halflife=1000)
    assert s.lr_at(0) == pytest.approx(0.1)
    assert s.lr_at(1000) == pytest.approx(0.055)
    assert s.lr_at(10**9) == pytest.approx(0.01, abs=1e-6)


def test_bad_settings():
    with pytest.raises(bg.BackgammonError):
        bg.train(0, **TINY)
    with pytest.raises(bg.BackgammonError):
        bg.train(10, threads=0, **TINY)
    with pytest.raises(bg.BackgammonError):
        bg.train(10, eval_every=-1, hidden=(8, 8), progress=False)


def test_cli_train(tmp_path, capsys):
    from backgammon.cli import main

    out = tmp_path / "run"
    assert main(["train", "--out", str(out), "--games", "40", "--hidden-contact", "8",
                 "--hidden-race", "8", "--round-games", "10", "--eval-every", "20",
                 "--eval-pairs", "10", "--no-progress", "--save", str(tmp_path / "n.npz")]) == 0
    assert "trained" in capsys.readouterr().out
    assert Evaluator.load(tmp_path / "n.npz").hidden == (8, 8)


@pytest.mark.ctrl_c
@pytest.mark.skipif(not hasattr(__import__("signal"), "pthread_kill"), reason="POSIX signals")
def test_training_stops_on_ctrl_c_and_keeps_its_checkpoint(tmp_path):
    import threading

    from test_interrupts import STOPPED_WITHIN, _interrupted

    # first use done before the signal (the module, the core's tables): in a fresh process
    # (the ctrl_c mark) it took the signal's 0.3 s, which then landed before the run began
    bg.train(10, seed=1, threads=2, hidden=(16, 8), progress=False, eval_every=0)
    latency = _interrupted(lambda: bg.train(10_000_000, out=tmp_path, seed=1, threads=2,
                                            hidden=(16, 8), round_games=100_000,
                                            progress=False, eval_every=0))
    assert latency < STOPPED_WITHIN
    assert not [t for t in threading.enumerate() if t.name.startswith("backgammon-train")]
    assert Evaluator.load(tmp_path / "checkpoint.npz").hidden == (16, 8)


def test_threads_beyond_the_work_make_no_idle_copies(monkeypatch):
    import sys

    train_module = sys.modules["backgammon.training.train"]   # bg.train is the function

    jobs = []
    real = train_module._td_job
    monkeypatch.setattr(train_module, "_td_job", lambda *a: jobs.append(a[4]) or real(*a))
    bg.train(10, threads=4000, seed=1, **TINY)
    assert jobs == [0]        # one job of 10 games: one copy of the nets, not 4,000
    with pytest.raises(bg.BackgammonError, match="threads"):
        bg.train(10, threads=10**6, **TINY)
