"""Training the nets by TD(0) self-play, in the core.

Games are played and learned from in C (``train.h``), with no Python per
move.  Training goes in rounds: each of ``threads`` threads plays its share
of the round's games with its own copy of the nets, updating it after every
move, and the copies are then averaged in a fixed order.  Game ``k`` takes
its dice from stream ``(seed, k)``, so a run depends only on its seed, its
thread count and its settings, and a resumed run continues exactly.

Every ``eval_every`` games the nets play a short duplicate-dice duel against
pubeval (the same dice every time); the log and the progress bar show it.

    >>> import backgammon as bg
    >>> ev = bg.train(games=40, hidden=(16, 8), seed=3, threads=1, progress=False,
    ...               eval_every=0)
    >>> ev.hidden
    (16, 8)
"""

from __future__ import annotations

import json
import math
import os
import sys
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any, Callable, Iterable, Protocol

import numpy as np

from backgammon import _bgcore
from backgammon.analysis.duel import DuelResult, core_duel_stats, duel_result
from backgammon.errors import BackgammonError, TrainingDataError
from backgammon.nn import Evaluator
from backgammon.position import Position
from backgammon.rollout.engine import collect

__all__ = ["TrainSettings", "train"]

_CHECKPOINT = "checkpoint.npz"
_BEST = "best.npz"
_LOG = "train.log"
_MAX_THREADS = 4096  # a round runs at most one copy of the nets per thread with games to play
_EVAL_SEED = 0x5EED  # the duel's dice: the same at every evaluation, so the curve compares


@dataclass(frozen=True)
class TrainSettings:
    """Everything that decides a run's games besides its length."""

    seed: int = 0
    threads: int = 2
    hidden: tuple[int, ...] = (128, 64)
    lr: float = 0.1              # learning rate at the start ...
    lr_final: float = 0.01       # ... falling toward this ...
    lr_halflife: int = 200_000   # ... halfway there after this many games: lr(g) = f + (lr - f) h / (h + g)
    round_games: int = 200       # games per thread between averages

    def lr_at(self, games: int) -> float:
        h = self.lr_halflife
        return self.lr_final + (self.lr - self.lr_final) * h / (h + games)


def train(games: int | None = None, *, targets: Any = None, out: str | os.PathLike[str] | None = None,
          seed: int = 0, threads: int | None = None, hidden: tuple[int, int] = (128, 64),
          lr: float | None = None, lr_final: float | None = None, lr_halflife: int = 200_000,
          round_games: int = 200, eval_every: int = 10_000, eval_pairs: int = 500,
          max_minutes: float | None = None, start: Evaluator | str | os.PathLike[str] | None = None,
          progress: bool = True, log: Callable[[str], Any] | None = None,
          epochs: int = 20, batch: int = 128, optimizer: str = "adam",
          validation: float = 0.05, encoding: int = 1, frozen: Iterable[str] = (),
          middle: tuple[int, ...] | None = None, crelu: bool = False) -> Evaluator:
    """Trains for ``games`` self-play games (in total, counting a resumed
    run's) and returns the :class:`~backgammon.Evaluator`; with ``targets``
    (a targets file, a directory of them, a list of files), trains
    supervised on them instead (:func:`backgammon.training.supervised.fit`: ``epochs``,
    ``batch``, ``optimizer`` "adam" or "momentum", ``validation`` the
    held-out fraction; ``lr`` and ``lr_final`` default to 0.003 and 0.0001
    for Adam, 0.1 and 0.0033 for momentum; ``threads`` at most one a net;
    ``frozen`` names nets that keep their starting weights; ``middle`` gives
    fresh nets a second hidden layer, one size a net, 0 for none; ``crelu`` the
    clipped ReLU in those nets' first layer).

    With ``out``, a directory, the run keeps ``checkpoint.npz`` (the nets and
    the training state, after every evaluation and at the end), ``best.npz``
    (the nets that scored best against pubeval) and ``train.log``, and a run
    started again with the same ``out`` resumes from its checkpoint (the
    settings must match).  ``max_minutes`` stops early, at a round's end, once
    that much wall time has passed in this call.  ``start`` (an Evaluator or
    a nets file) replaces the random initial nets of a fresh run.
    """
    if targets is not None:
        if games is not None:
            raise BackgammonError("give games (self-play) or targets (supervised), not both")
        from backgammon.training.supervised import fit
        return fit(targets, out=out, epochs=epochs, batch=batch, optimizer=optimizer, lr=lr,
                   lr_final=lr_final, seed=seed, hidden=hidden, encoding=encoding,
                   validation=validation,
                   threads=threads, start=start, max_minutes=max_minutes, progress=progress,
                   log=log, frozen=frozen, middle=middle, crelu=crelu)
    if frozen:
        raise BackgammonError("frozen nets are a setting of supervised training (targets=...)")
    if crelu:
        raise BackgammonError("crelu is a setting of supervised training (targets=...)")
    if middle is not None and any(middle):
        raise BackgammonError("TD self-play trains nets of one hidden layer; a middle layer "
                              "is a setting of supervised training (targets=...)")
    if games is None:
        raise BackgammonError("train needs games (self-play) or targets (supervised)")
    from backgammon.training.supervised import learning_rate, start_nets, training_seed
    seed = training_seed(seed)
    lr = learning_rate(0.1 if lr is None else lr, "lr")
    lr_final = learning_rate(0.01 if lr_final is None else lr_final, "lr_final", zero=True)
    start = start_nets(start)
    if start is not None and any(start.middle):
        raise BackgammonError("TD self-play trains nets of one hidden layer; these nets have "
                              "a middle layer (train them on targets)")
    if threads is None:
        threads = min(2, os.cpu_count() or 1)
    if isinstance(games, bool) or not isinstance(games, (int, np.integer)):
        raise BackgammonError(f"games must be an integer, got {games!r}")
    if isinstance(threads, bool) or not isinstance(threads, (int, np.integer)):
        raise BackgammonError(f"threads must be an integer, got {threads!r}")
    settings = TrainSettings(seed=int(seed), threads=int(threads),
                             hidden=tuple(int(h) for h in hidden), lr=float(lr),
                             lr_final=float(lr_final), lr_halflife=int(lr_halflife),
                             round_games=int(round_games))
    if games < 1 or settings.threads < 1 or settings.round_games < 1 or settings.lr_halflife < 1:
        raise BackgammonError("games, threads, round_games and lr_halflife must be positive")
    if settings.threads > _MAX_THREADS:
        raise BackgammonError(f"threads must be at most {_MAX_THREADS}, got {settings.threads}")
    if eval_every < 0 or eval_pairs < 1:
        raise BackgammonError("eval_every must be >= 0 and eval_pairs >= 1")
    outdir = Path(out) if out is not None else None
    done, seconds_before, best = 0, 0.0, -math.inf
    net = (start.copy() if start is not None
           else Evaluator.random(settings.hidden, settings.seed)).as_float()
    if outdir is not None:
        outdir.mkdir(parents=True, exist_ok=True)
        ck = outdir / _CHECKPOINT
        if ck.exists():
            net = Evaluator.load(ck)
            from backgammon.training.supervised import train_state
            state = train_state(net, os.fspath(ck))
            try:
                saved = TrainSettings(**{**state["settings"], "hidden": tuple(state["settings"]["hidden"])})
                done, seconds_before = int(state["games"]), float(state["seconds"])
                best = float(state["best"])
            except (KeyError, TypeError, ValueError) as exc:
                raise TrainingDataError(f"{ck}: malformed train_state: {exc!r}") from None
            if saved != settings:
                raise BackgammonError(f"{ck} was made with other settings: {saved}")
            if done < 0:
                raise TrainingDataError(f"{ck}: malformed train_state: games {done}")
    logfile = open(outdir / _LOG, "a") if outdir is not None else None

    def say(line: str) -> None:
        if logfile is not None:
            logfile.write(line + "\n")
            logfile.flush()
        if log is not None:
            log(line)

    board = Position.initial()._b
    bar = _bar(progress, games, done)
    t0 = time.perf_counter()
    last_eval = done
    say(f"# start games={done} settings={json.dumps(asdict(settings))}")
    cancel = _bgcore.Cancel()
    try:
        # the round's partition into jobs depends on settings.threads only;
        # the pool runs them on at most one OS thread a CPU, and each job
        # makes its copy of the nets when it starts (none for idle threads)
        with ThreadPoolExecutor(max_workers=max(1, min(settings.threads, os.cpu_count() or 1)),
                                thread_name_prefix="backgammon-train") as pool:
            while done < games:
                if max_minutes is not None and time.perf_counter() - t0 > 60 * max_minutes:
                    break
                per = settings.round_games
                count = min(per * settings.threads, games - done)
                rate = settings.lr_at(done)
                base = net.weights()
                jobs = []
                for first in range(done, done + count, per):
                    n = min(per, done + count - first)
                    jobs.append(pool.submit(_td_job, base, net.encoding, board, settings.seed,
                                            first, n, rate, cancel))
                total = None
                for w in collect(jobs, cancel):  # Ctrl-C or an error stops every thread
                    total = _add(total, w)        # in job order: a fixed sum
                net = _mean(total, len(jobs), net.meta, net.encoding)
                done += count
                if bar is not None:
                    bar.update(count)
                if eval_every and (done - last_eval >= eval_every or done >= games):
                    last_eval = done
                    r = _strength(net, board, eval_pairs, min(settings.threads, os.cpu_count() or 1))
                    elapsed = seconds_before + time.perf_counter() - t0
                    say(f"games={done} seconds={elapsed:.1f} games_per_s={done / max(elapsed, 1e-9):.1f} "
                        f"lr={rate:.4f} ppg={r.ppg.value:+.4f} se={r.ppg.stderr:.4f}")
                    if bar is not None:
                        bar.set_postfix_str(f"vs pubeval {r.ppg.value:+.3f}±{r.ppg.stderr:.3f}")
                    if outdir is not None:
                        if r.ppg.value > best:
                            best = r.ppg.value
                            _save(net, outdir / _BEST, settings, done, elapsed, best)
                        _save(net, outdir / _CHECKPOINT, settings, done, elapsed, best)
    finally:
        if bar is not None:
            bar.close()
        elapsed = seconds_before + time.perf_counter() - t0
        if outdir is not None:
            _save(net, outdir / _CHECKPOINT, settings, done, elapsed, best)
        say(f"# stop games={done} seconds={elapsed:.1f}")
        if logfile is not None:
            logfile.close()
    net.meta.update(origin=f"backgammon.train: {done} games, seed {settings.seed}, "
                           f"{settings.threads} threads")
    return net


def _td_job(base: dict[str, np.ndarray], encoding: int, board: bytes, seed: int, first: int,
            n: int, rate: float, cancel: Any) -> dict[str, np.ndarray]:
    copy = Evaluator(base, encoding=encoding, quantised=False)   # it learns in float
    copy._nets.td_games(board, seed, first, n, rate, cancel)
    return copy.weights()


def _add(total: dict[str, np.ndarray] | None, w: dict[str, np.ndarray]) -> dict[str, np.ndarray]:
    if total is None:
        return w
    for k, v in w.items():
        total[k] += v
    return total


def _mean(total: dict[str, np.ndarray] | None, count: int, meta: dict[str, str],
          encoding: int) -> Evaluator:
    """The mean of the copies' weights (summed in job order)."""
    assert total is not None
    if count > 1:
        for k in total:
            total[k] /= np.float32(count)
    return Evaluator(total, meta=meta, encoding=encoding)


def _strength(net: Evaluator, board: bytes, pairs: int, threads: int) -> DuelResult:
    stats = core_duel_stats(board, _EVAL_SEED, pairs, (2, net._nets), (1, None), threads)
    return duel_result("net", "pubeval", _EVAL_SEED, stats)


def _save(net: Evaluator, path: Path, settings: TrainSettings, games: int, seconds: float,
          best: float) -> None:
    state = {"settings": asdict(settings), "games": games, "seconds": seconds, "best": best}
    out = Evaluator(net.weights(), encoding=net.encoding,
                    meta={**net.meta, "train_state": json.dumps(state),
                                         "origin": f"backgammon.train: {games} games, seed "
                                                   f"{settings.seed}, {settings.threads} threads"})
    tmp = path.with_suffix(".tmp")
    out.save(tmp)
    os.replace(tmp, path)


class _Bar(Protocol):
    """What the training loop asks of a progress bar (tqdm's or :class:`_PlainBar`)."""

    def update(self, n: int) -> object: ...
    def set_postfix_str(self, s: str) -> object: ...
    def close(self) -> object: ...


def _bar(progress: bool, total: int, done: int) -> _Bar | None:
    if not progress:
        return None
    try:
        from tqdm import tqdm  # type: ignore[import-untyped,unused-ignore]  # no stubs installed
    except ImportError:
        return _PlainBar(total, done)
    bar: _Bar = tqdm(total=total, initial=done, unit="game", unit_scale=True, desc="train",
                     file=sys.stderr, dynamic_ncols=True)
    return bar


class _PlainBar:
    """A one-line progress report when tqdm is not installed."""

    def __init__(self, total: int, done: int) -> None:
        self.total, self.done, self.note = total, done, ""
        self.start, self.first = time.perf_counter(), done

    def update(self, n: int) -> None:
        self.done += n
        rate = (self.done - self.first) / max(time.perf_counter() - self.start, 1e-9)
        sys.stderr.write(f"\rtrain {self.done:,}/{self.total:,} games, {rate:,.0f} games/s {self.note}")
        sys.stderr.flush()

    def set_postfix_str(self, s: str) -> None:
        self.note = s

    def close(self) -> None:
        sys.stderr.write("\n")
        sys.stderr.flush()
