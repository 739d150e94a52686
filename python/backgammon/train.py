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
from typing import Any, Callable

import numpy as np

from backgammon import _bgcore
from backgammon.duel import _duel_stats, _result as _duel_result
from backgammon.errors import BackgammonError
from backgammon.nn import Evaluator
from backgammon.position import Position
from backgammon.rollout import _collect

__all__ = ["TrainSettings", "train"]

_CHECKPOINT = "checkpoint.npz"
_BEST = "best.npz"
_LOG = "train.log"
_EVAL_SEED = 0x5EED  # the duel's dice: the same at every evaluation, so the curve compares


@dataclass(frozen=True)
class TrainSettings:
    """Everything that decides a run's games besides its length."""

    seed: int = 0
    threads: int = 2
    hidden: tuple[int, int] = (128, 64)
    lr: float = 0.1              # learning rate at the start ...
    lr_final: float = 0.01       # ... falling toward this ...
    lr_halflife: int = 200_000   # ... halfway there after this many games: lr(g) = f + (lr - f) h / (h + g)
    round_games: int = 200       # games per thread between averages

    def lr_at(self, games: int) -> float:
        h = self.lr_halflife
        return self.lr_final + (self.lr - self.lr_final) * h / (h + games)


def train(games: int, *, out: str | os.PathLike[str] | None = None, seed: int = 0,
          threads: int | None = None, hidden: tuple[int, int] = (128, 64), lr: float = 0.1,
          lr_final: float = 0.01, lr_halflife: int = 200_000, round_games: int = 200,
          eval_every: int = 10_000, eval_pairs: int = 500, max_minutes: float | None = None,
          start: Evaluator | None = None, progress: bool = True,
          log: Callable[[str], Any] | None = None) -> Evaluator:
    """Trains for ``games`` self-play games (in total, counting a resumed
    run's) and returns the :class:`~backgammon.Evaluator`.

    With ``out``, a directory, the run keeps ``checkpoint.npz`` (the nets and
    the training state, after every evaluation and at the end), ``best.npz``
    (the nets that scored best against pubeval) and ``train.log``, and a run
    started again with the same ``out`` resumes from its checkpoint (the
    settings must match).  ``max_minutes`` stops early, at a round's end, once
    that much wall time has passed in this call.  ``start`` replaces the
    random initial nets of a fresh run.
    """
    if threads is None:
        threads = min(2, os.cpu_count() or 1)
    settings = TrainSettings(seed=int(seed), threads=int(threads),
                             hidden=(int(hidden[0]), int(hidden[1])), lr=float(lr),
                             lr_final=float(lr_final), lr_halflife=int(lr_halflife),
                             round_games=int(round_games))
    if games < 1 or settings.threads < 1 or settings.round_games < 1 or settings.lr_halflife < 1:
        raise BackgammonError("games, threads, round_games and lr_halflife must be positive")
    if eval_every < 0 or eval_pairs < 1:
        raise BackgammonError("eval_every must be >= 0 and eval_pairs >= 1")
    outdir = Path(out) if out is not None else None
    done, seconds_before, best = 0, 0.0, -math.inf
    net = start.copy() if start is not None else Evaluator.random(settings.hidden, settings.seed)
    if outdir is not None:
        outdir.mkdir(parents=True, exist_ok=True)
        ck = outdir / _CHECKPOINT
        if ck.exists():
            net = Evaluator.load(ck)
            state = json.loads(net.meta["train_state"])
            saved = TrainSettings(**{**state["settings"], "hidden": tuple(state["settings"]["hidden"])})
            if saved != settings:
                raise BackgammonError(f"{ck} was made with other settings: {saved}")
            done, seconds_before, best = state["games"], state["seconds"], state["best"]
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
        with ThreadPoolExecutor(max_workers=settings.threads,
                                thread_name_prefix="backgammon-train") as pool:
            while done < games:
                if max_minutes is not None and time.perf_counter() - t0 > 60 * max_minutes:
                    break
                per = settings.round_games
                count = min(per * settings.threads, games - done)
                rate = settings.lr_at(done)
                copies = [Evaluator(net.weights(), meta=net.meta) for _ in range(settings.threads)]
                jobs = []
                first = done
                for c in copies:
                    n = min(per, done + count - first)
                    if n <= 0:
                        break
                    jobs.append(pool.submit(c._nets.td_games, board, settings.seed, first, n,
                                            rate, cancel))
                    first += n
                for _ in _collect(jobs, cancel):  # Ctrl-C or an error stops every thread
                    pass
                net = _average(copies[:len(jobs)], net.meta)
                done += count
                if bar is not None:
                    bar.update(count)
                if eval_every and (done - last_eval >= eval_every or done >= games):
                    last_eval = done
                    r = _strength(net, board, eval_pairs, settings.threads)
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


def _average(copies: list[Evaluator], meta: dict[str, str]) -> Evaluator:
    """The mean of the copies' weights, summed in a fixed order."""
    weights = copies[0].weights()
    for c in copies[1:]:
        for k, v in c.weights().items():
            weights[k] += v
    if len(copies) > 1:
        for k in weights:
            weights[k] /= np.float32(len(copies))
    return Evaluator(weights, meta=meta)


def _strength(net: Evaluator, board: bytes, pairs: int, threads: int):
    stats = _duel_stats(board, _EVAL_SEED, pairs, (2, net._nets), (1, None), threads)
    return _duel_result("net", "pubeval", _EVAL_SEED, stats)


def _save(net: Evaluator, path: Path, settings: TrainSettings, games: int, seconds: float,
          best: float) -> None:
    state = {"settings": asdict(settings), "games": games, "seconds": seconds, "best": best}
    out = Evaluator(net.weights(), meta={**net.meta, "train_state": json.dumps(state),
                                         "origin": f"backgammon.train: {games} games, seed "
                                                   f"{settings.seed}, {settings.threads} threads"})
    tmp = path.with_suffix(".tmp")
    out.save(tmp)
    os.replace(tmp, path)


def _bar(progress: bool, total: int, done: int):
    if not progress:
        return None
    try:
        from tqdm import tqdm
    except ImportError:
        return _PlainBar(total, done)
    return tqdm(total=total, initial=done, unit="game", unit_scale=True, desc="train",
                file=sys.stderr, dynamic_ncols=True)


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
