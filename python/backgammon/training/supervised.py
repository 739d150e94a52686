"""Supervised training of the nets on (position, target probabilities) data, in the core.

``backgammon.train(targets=...)`` lands here.  Each position is learned by
the net that answers it (contact or race; finished and bear-off positions,
which the Evaluator knows exactly, are left out).  A validation split is
held out; every epoch each net sees its training positions once, in an
order drawn from ``(seed, epoch, net)``, in minibatches (``sgd.h``:
cross-entropy on the five outputs, Adam or SGD with momentum, the learning
rate falling from ``lr`` to ``lr_final`` on a cosine over the run).  The
nets learn in parallel threads (at most one a net): a run depends only on
its data, seed and settings, never on the thread count.

With ``out`` the run keeps ``checkpoint.npz`` (a nets file whose
``train_state`` says where it stopped, with the optimizer's moments as
``train_opt_*`` arrays), ``best.npz`` (lowest validation loss) and
``train.log``; a run started again with the same ``out`` resumes from the
checkpoint exactly, wherever it stopped (Ctrl-C included), given the same
data and settings.

    >>> import numpy as np, backgammon as bg
    >>> from backgammon.training.targets import TargetSet
    >>> b = np.stack([bg.Position.initial().to_array()] * 8)
    >>> t = np.tile(np.array([0.5, 0.15, 0.01, 0.14, 0.01], np.float32), (8, 1))
    >>> data = TargetSet(b, t, np.zeros(8, np.float32), ())
    >>> ev = bg.train(targets=data, epochs=2, hidden=(8, 8), validation=0.25, progress=False)
    >>> ev.hidden
    (8, 8)
"""

from __future__ import annotations

import json
import math
import os
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any, Callable, Iterable

import numpy as np

from backgammon import _bgcore
from backgammon.nn._npz import read_npz
from backgammon.errors import BackgammonError, InvalidWeightsError, TrainingDataError
from backgammon.nn import Evaluator
from backgammon.training.targets import Source, TargetSet, read_targets

__all__ = ["FitSettings", "fit"]

_CHECKPOINT = "checkpoint.npz"
_BEST = "best.npz"
_LOG = "train.log"
_KIND = "supervised-v1"
OPTIMIZERS = ("adam", "momentum")
DEFAULT_LR = {"adam": 0.003, "momentum": 0.1}
_MAX_EPOCHS = 1_000_000
_MAX_BATCH = 1 << 20


@dataclass(frozen=True)
class FitSettings:
    """Everything that decides a supervised run's result besides its data."""

    seed: int = 0
    hidden: tuple[int, ...] = (128, 64)   # contact, race[, crashed]
    encoding: int = 1
    middle: tuple[int, ...] = ()  # second hidden layers, one size a net (0: none); (): none
    epochs: int = 20
    batch: int = 128
    optimizer: str = "adam"
    lr: float = 0.003
    lr_final: float = 0.0001
    momentum: float = 0.9        # Adam's beta1, or the momentum
    beta2: float = 0.999
    eps: float = 1e-8
    validation: float = 0.05     # the held-out fraction
    frozen: tuple[str, ...] = ()  # nets kept as they are (their positions are not trained)
    crelu: bool = False          # the clipped ReLU in the first layer of nets with a middle layer


def fit(targets: Source | TargetSet, *, out: str | os.PathLike[str] | None = None,
        epochs: int = 20, batch: int = 128, optimizer: str = "adam", lr: float | None = None,
        lr_final: float | None = None, seed: int = 0, hidden: tuple[int, ...] = (128, 64),
        encoding: int = 1, validation: float = 0.05, threads: int | None = None,
        start: Evaluator | str | os.PathLike[str] | None = None,
        max_minutes: float | None = None, progress: bool = True,
        log: Callable[[str], Any] | None = None, frozen: Iterable[str] = (),
        middle: tuple[int, ...] | None = None, crelu: bool = False) -> Evaluator:
    """Trains nets on ``targets`` (a file, a directory, a list of files and directories,
    or a read :class:`~backgammon.training.targets.TargetSet`) and returns the
    :class:`~backgammon.Evaluator` after ``epochs`` epochs (counting a resumed
    run's).  ``hidden`` gives the sizes of the contact, race and (a third
    size) crashed nets; ``encoding`` the inputs (1 to 6, docs/nn.md);
    ``middle``, one size a net (0: none), a second hidden layer between the
    first and the outputs; ``crelu``, the clipped ReLU in those nets' first
    layer (:data:`~backgammon.nn.ARCHITECTURE_CRELU`).  ``start`` (an Evaluator or a nets file) replaces
    the random initial nets of a fresh run (its nets, sizes and encoding win
    over ``hidden``, ``middle`` and ``encoding``).  ``frozen`` names nets (``"race"``, ``"crashed"``,
    ``"contact"``) that keep the weights they start with: e.g. a new contact
    net trained beside the race and crashed nets of ``start``.
    ``max_minutes`` stops at the end of the first epoch past that wall time."""
    optimizer = _choice(optimizer)
    sizes = _hidden(hidden)
    settings = FitSettings(
        seed=training_seed(seed), hidden=sizes, encoding=_encoding(encoding),
        middle=_middle(middle, len(sizes)), epochs=_count(epochs, "epochs", _MAX_EPOCHS),
        batch=_count(batch, "batch", _MAX_BATCH), optimizer=optimizer,
        lr=learning_rate(DEFAULT_LR[optimizer] if lr is None else lr, "lr"),
        lr_final=learning_rate(DEFAULT_LR[optimizer] / 30 if lr_final is None else lr_final, "lr_final",
                       zero=True),
        validation=_fraction(validation), frozen=_frozen(frozen), crelu=bool(crelu))
    if settings.crelu and not any(settings.middle):
        raise BackgammonError("crelu: the clipped ReLU runs in nets with a middle layer; "
                              "give middle sizes")
    nthreads = _threads(threads, len(settings.hidden))
    if max_minutes is not None and not (isinstance(max_minutes, (int, float))
                                        and math.isfinite(max_minutes) and max_minutes >= 0):
        raise BackgammonError(f"max_minutes must be a number >= 0, got {max_minutes!r}")
    data = targets if isinstance(targets, TargetSet) else read_targets(targets)
    if not len(data):
        raise TrainingDataError("the targets hold no positions")
    init = start_nets(start)
    if init is not None:
        settings = FitSettings(**{**asdict(settings), "hidden": init.hidden,
                                  "middle": init.middle if any(init.middle) else (),
                                  "encoding": init.encoding, "frozen": settings.frozen,
                                  "crelu": init.crelu})
        nthreads = _threads(threads, len(settings.hidden))
    net = (init.copy() if init is not None
           else Evaluator.random(settings.hidden, settings.seed, settings.encoding,
                                 middle=settings.middle or None, crelu=settings.crelu)
           ).as_float()   # it learns in float
    if set(settings.frozen) - set(net.nets):
        raise BackgammonError(f"frozen names nets these nets lack: {sorted(settings.frozen)} "
                              f"of {net.nets}")
    if set(net.nets) <= set(settings.frozen):
        raise BackgammonError("every net is frozen: nothing to train")
    split = _Split(net, data, settings)
    outdir = Path(out) if out is not None else None
    st = _State.fresh(net, settings, data.fingerprint())
    if outdir is not None:
        outdir.mkdir(parents=True, exist_ok=True)
        ck = outdir / _CHECKPOINT
        if ck.exists():
            net, st = _State.load(ck, settings, data.fingerprint())
    logfile = open(outdir / _LOG, "a") if outdir is not None else None

    def say(line: str) -> None:
        if logfile is not None:
            logfile.write(line + "\n")
            logfile.flush()
        if log is not None:
            log(line)

    say(f"# start epoch={st.epoch} positions={len(data)} train={split.sizes('train')} "
        f"validation={split.sizes('val')} settings={json.dumps(asdict(settings))}")
    t0 = time.perf_counter()
    seconds_before = st.seconds
    cancel = _bgcore.Cancel()
    try:
        while st.epoch < settings.epochs:
            if max_minutes is not None and time.perf_counter() - t0 > 60 * max_minutes:
                break
            losses = _epoch(net, split, settings, st, nthreads, cancel)
            st.next_epoch()
            st.seconds = seconds_before + time.perf_counter() - t0
            val = split.validation_loss(net, cancel)
            eq_err = split.validation_equity_error(net)
            # the rate of the first net that trains (a frozen or empty one has no schedule)
            c = next((c for c in range(len(split.names)) if split.total_steps(c)), 0)
            line = (f"epoch={st.epoch} seconds={st.seconds:.1f} "
                    f"lr={_lr_at(settings, st.steps[c], split.total_steps(c)):.5f} "
                    f"train_loss={_fmt(losses)} val_loss={_fmt(val)} val_equity_mae={eq_err:.5f}")
            st.history.append({"epoch": st.epoch, "train_loss": losses, "val_loss": val,
                               "val_equity_mae": eq_err})
            say(line)
            if progress:
                print(line, flush=True)
            score = val["all"] if val["all"] is not None else losses["all"]
            if outdir is not None:
                if score is not None and (st.best is None or score < st.best):
                    st.best = score
                    st.save(net, outdir / _BEST)
                st.save(net, outdir / _CHECKPOINT)
    except BaseException:
        cancel.set()
        raise
    finally:
        if st.workers is not None:   # a Ctrl-C came before _epoch joined its threads
            _join(*st.workers, cancel)
        st.seconds = seconds_before + time.perf_counter() - t0
        if outdir is not None:
            st.save(net, outdir / _CHECKPOINT)
        say(f"# stop epoch={st.epoch} done={st.done} seconds={st.seconds:.1f}")
        if logfile is not None:
            logfile.close()
    net.meta.update(origin=f"backgammon.train: supervised, {st.epoch} epochs on {len(data)} "
                           f"positions, seed {settings.seed}")
    net.meta["train_data"] = (f"{len(data)} positions from {len(data.files)} files, "
                              f"fingerprint {st.fingerprint}")
    net.meta["train_settings"] = json.dumps(asdict(settings))
    net.meta.pop("train_state", None)
    # as any nets of its encoding run: encodings 5 and 6 on the integer kernels
    return Evaluator(net.weights(), meta=net.meta, encoding=net.encoding, crelu=net.crelu)


# ----------------------------------------------------------------------
# The data of each net

class _Split:
    """Row indices of each net's training and validation positions."""

    def __init__(self, net: Evaluator, data: TargetSet, s: FitSettings) -> None:
        self.data = data
        self.batch = s.batch
        self.epochs = s.epochs
        cls = net._nets.classify(data.boards)
        rng = np.random.default_rng([s.seed, 0x5A11D])
        held = np.zeros(len(data), bool)
        held[rng.permutation(len(data))[:int(round(s.validation * len(data)))]] = True
        self.names = net.nets
        k = len(self.names)
        # a frozen net gets no training positions (its validation loss is still reported)
        self.train = [np.flatnonzero((cls == c) & ~held & (self.names[c] not in s.frozen))
                      .astype(np.int64) for c in range(k)]
        self.val = [np.flatnonzero((cls == c) & held).astype(np.int64) for c in range(k)]
        self.val_all = np.flatnonzero(held)

    def sizes(self, which: str) -> str:
        rows = self.train if which == "train" else self.val
        return ",".join(f"{n}:{len(r)}" for n, r in zip(self.names, rows))

    def order(self, seed: int, epoch: int, c: int) -> np.ndarray:
        rows = self.train[c]
        return rows[np.random.default_rng([seed, epoch, c]).permutation(len(rows))]

    def total_steps(self, c: int) -> int:
        return self.epochs * -(-len(self.train[c]) // self.batch)

    def validation_loss(self, net: Evaluator, cancel: Any) -> dict[str, float | None]:
        out: dict[str, float | None] = {}
        total, count = 0.0, 0
        for c, name in enumerate(self.names):
            rows = self.val[c]
            s = net._nets.sgd_loss(c, self.data.boards, self.data.targets, rows, cancel)
            out[name] = s / len(rows) if len(rows) else None
            total += s
            count += len(rows)
        out["all"] = total / count if count else None
        return out

    def validation_equity_error(self, net: Evaluator) -> float:
        """Mean |equity - target equity| over the held-out positions (all of
        them: the exact ones too), as the Evaluator answers."""
        rows = self.val_all
        if not len(rows):
            return float("nan")
        got = net.equities(self.data.boards[rows])
        t = self.data.targets[rows].astype(np.float64)
        want = 2 * t[:, 0] - 1 + t[:, 1] - t[:, 3] + t[:, 2] - t[:, 4]
        return float(np.mean(np.abs(got - want)))


def _epoch(net: Evaluator, split: _Split, s: FitSettings, st: _State, nthreads: int,
           cancel: Any) -> dict[str, float | None]:
    """One epoch (the rest of it, when resumed) of every net; ``st`` follows
    each net's progress, also when stopped."""
    adam = s.optimizer == "adam"
    jobs = []
    for c in range(len(split.names)):
        order = split.order(s.seed, st.epoch, c)[st.done[c]:]
        if len(order):
            jobs.append((c, order))

    def run(job: tuple[int, np.ndarray]) -> float:
        c, order = job
        # the core moves net c's step and done on in st itself, also when stopped
        return net._nets.sgd_train(c, split.data.boards, split.data.targets, order, s.batch, adam,
                                   s.lr, s.lr_final, split.total_steps(c), s.momentum, s.beta2,
                                   s.eps, st.opt[c], st.progress(c), cancel)

    sums: dict[int, float] = {}
    if nthreads <= 1 or len(jobs) <= 1:
        for job in jobs:
            sums[job[0]] = run(job)
    else:
        from backgammon.rollout.engine import collect
        pool = ThreadPoolExecutor(max_workers=min(nthreads, len(jobs)),
                                  thread_name_prefix="backgammon-fit")
        gate = _Gate()
        futures: list[Any] = []
        st.workers = (pool, gate)   # fit joins them before its checkpoint, whatever happens here
        try:
            for job in jobs:
                futures.append(pool.submit(gate.run, run, job))
            results = list(collect(futures, cancel))
            for job, r in zip(jobs, results):
                sums[job[0]] = r
        except BaseException:
            cancel.set()  # also when the interrupt came before collect: the nets stop
            raise
        finally:
            _join(pool, gate, cancel)
            st.workers = None
    out: dict[str, float | None] = {}
    total, count = 0.0, 0
    for c, name in enumerate(split.names):
        # a resumed epoch reports the loss of the part it ran
        ran = next((len(j[1]) for j in jobs if j[0] == c), 0)
        out[name] = sums[c] / ran if c in sums and ran else None
        if c in sums:
            total += sums[c]
            count += ran
    out["all"] = total / count if count else None
    return out


class _Gate:
    """Lets the training threads start their jobs until it is closed, and
    counts the jobs that started, so that closing waits for exactly those.

    The pool cannot tell: a Ctrl-C landing in ``submit`` while a new thread
    starts leaves that thread running the job but outside the threads
    ``shutdown(wait=True)`` joins, and the checkpoint would then record the
    net's place before the batch that thread goes on to train."""

    def __init__(self) -> None:
        self._cond = threading.Condition()
        self._open = True
        self._running = 0

    def run(self, work: Callable[[Any], float], job: Any) -> float:
        with self._cond:
            if not self._open:
                raise _bgcore.Cancelled("stopped before this net's job started")
            self._running += 1
        try:
            return work(job)
        finally:
            with self._cond:
                self._running -= 1
                self._cond.notify_all()

    def close(self) -> bool:
        """Lets no more jobs start; True once none runs (waits a moment for them)."""
        with self._cond:
            self._open = False
            if self._running:
                self._cond.wait(0.05)
            return not self._running


def _join(pool: ThreadPoolExecutor, gate: _Gate, cancel: Any) -> None:
    """Waits for the training threads: a checkpoint read while one still runs would
    record where it was, not where it stops.  A Ctrl-C during the wait (also at
    the end of an epoch, when the threads are done) tells them to stop and is
    raised once they have: never swallowed.  The wait is in timed steps (a
    thread's join, once interrupted, may return before the thread ends)."""
    interrupt: KeyboardInterrupt | None = None
    while True:
        try:
            if gate.close():
                pool.shutdown(wait=True)   # idle threads now: they exit at once
                break
        except KeyboardInterrupt as stop:  # repeated Ctrl-Cs: keep waiting for the threads
            cancel.set()
            interrupt = stop
    if interrupt is not None:
        raise interrupt


def _lr_at(s: FitSettings, step: int, total: int) -> float:
    x = min(step / total, 1.0) if total else 1.0
    return s.lr_final + (s.lr - s.lr_final) * 0.5 * (1 + math.cos(math.pi * x))


def _fmt(losses: dict[str, float | None]) -> str:
    return ",".join(f"{k}:{'-' if v is None else f'{v:.5f}'}" for k, v in losses.items())


# ----------------------------------------------------------------------
# The state of a run, in its checkpoint

class _State:
    def __init__(self, epoch: int, done: list[int], steps: list[int], seconds: float,
                 best: float | None, history: list[dict[str, Any]], opt: list[np.ndarray],
                 settings: FitSettings, fingerprint: str) -> None:
        # The epoch and each net's place in it, in one array: row 0 [epoch, 0], row
        # 1 + c [optimizer step, examples done this epoch] of net c.  The core's
        # training loop writes a net's row itself and an epoch ends in one numpy
        # assignment, so a Ctrl-C landing between any two Python statements never
        # leaves a checkpoint whose counts disagree with its weights.
        self.counters = np.zeros((len(done) + 1, 2), np.int64)
        self.counters[0, 0] = epoch
        self.counters[1:, 0] = steps
        self.counters[1:, 1] = done
        self.seconds, self.best, self.history, self.opt = seconds, best, history, opt
        self.settings, self.fingerprint = settings, fingerprint
        self.workers: tuple[ThreadPoolExecutor, _Gate] | None = None   # training threads running

    @property
    def epoch(self) -> int:
        return int(self.counters[0, 0])

    @property
    def steps(self) -> list[int]:
        return [int(x) for x in self.counters[1:, 0]]

    @property
    def done(self) -> list[int]:
        return [int(x) for x in self.counters[1:, 1]]

    def progress(self, c: int) -> np.ndarray:
        """Net c's ``[step, done]`` row, for the core to update in place."""
        row: np.ndarray = self.counters[1 + c]
        return row

    def next_epoch(self) -> None:
        nxt = self.counters.copy()
        nxt[0, 0] += 1
        nxt[1:, 1] = 0
        self.counters[...] = nxt   # one assignment: a Ctrl-C lands before it or after it

    @classmethod
    def fresh(cls, net: Evaluator, s: FitSettings, fingerprint: str) -> _State:
        k = len(net.hidden)
        opt = [np.zeros(2 * net._nets.sgd_nparams(c), np.float32) for c in range(k)]
        return cls(0, [0] * k, [0] * k, 0.0, None, [], opt, s, fingerprint)

    def save(self, net: Evaluator, path: Path) -> None:
        state = {"kind": _KIND, "settings": asdict(self.settings), "data": self.fingerprint,
                 "epoch": self.epoch, "done": self.done, "steps": self.steps,
                 "seconds": self.seconds, "best": self.best, "history": self.history}
        meta = {**net.meta, "train_state": json.dumps(state),
                "origin": f"backgammon.train: supervised, epoch {self.epoch}, seed {self.settings.seed}"}
        tmp = path.with_suffix(".tmp")
        out = Evaluator(net.weights(), meta=meta, encoding=net.encoding, crelu=net.crelu)
        out._save_with(tmp, {f"train_opt_{n}": o for n, o in zip(net.nets, self.opt)})
        os.replace(tmp, path)

    @classmethod
    def load(cls, path: Path, s: FitSettings, fingerprint: str) -> tuple[Evaluator, _State]:
        where = os.fspath(path)
        net = Evaluator.load(path).as_float()
        state = train_state(net, where)
        if state.get("kind") != _KIND:
            raise TrainingDataError(f"{where}: not a checkpoint of supervised training "
                                    f"(kind {state.get('kind')!r})")
        try:
            saved = FitSettings(**{**state["settings"], "hidden": tuple(state["settings"]["hidden"]),
                                   "middle": tuple(state["settings"].get("middle", ())),
                                   "frozen": tuple(state["settings"].get("frozen", ()))})
            epoch, done, steps = int(state["epoch"]), list(map(int, state["done"])), list(map(int, state["steps"]))
            seconds = float(state["seconds"])
            best = None if state["best"] is None else float(state["best"])
            history = list(state["history"])
            data = str(state["data"])
        except (KeyError, TypeError, ValueError) as exc:
            raise TrainingDataError(f"{where}: malformed train_state: {exc!r}") from None
        if saved != s:
            raise BackgammonError(f"{where} was made with other settings: {saved}")
        if data != fingerprint:
            raise TrainingDataError(f"{where} was trained on other data (fingerprint {data}, "
                                    f"these targets {fingerprint})")
        k = len(net.hidden)
        if len(done) != k or len(steps) != k or epoch < 0 or min(done + steps) < 0:
            raise TrainingDataError(f"{where}: malformed train_state: epoch {epoch}, done {done}, "
                                    f"steps {steps}")
        arrays = read_npz(path, max_file=64 << 20, max_bytes=256 << 20,
                          error=InvalidWeightsError, what="weights")
        opt = []
        for c, name in enumerate(net.nets):
            a = arrays.get(f"train_opt_{name}")
            want = 2 * net._nets.sgd_nparams(c)
            if a is None or a.dtype != np.float32 or a.shape != (want,) or not np.isfinite(a).all():
                raise TrainingDataError(f"{where}: missing or bad optimizer state train_opt_{name}")
            opt.append(a.copy())
        return net, cls(epoch, done, steps, seconds, best, history, opt, s, fingerprint)


def train_state(net: Evaluator, where: str) -> dict[str, Any]:
    """The JSON object of a checkpoint's ``train_state``, or
    :class:`TrainingDataError` when it is missing or malformed."""
    text = net.meta.get("train_state")
    if text is None:
        raise TrainingDataError(f"{where}: a nets file without a train_state: not a checkpoint")
    try:
        state = json.loads(text)
    except ValueError as exc:
        raise TrainingDataError(f"{where}: malformed train_state: {exc}") from None
    if not isinstance(state, dict):
        raise TrainingDataError(f"{where}: malformed train_state: not a JSON object")
    return state


# ----------------------------------------------------------------------
# Arguments, refused up front with their names

def training_seed(seed: Any) -> int:
    """``seed`` checked: 0 to 2**63 - 1 (also for train.py's self-play)."""
    if isinstance(seed, bool) or not isinstance(seed, (int, np.integer)) or not 0 <= seed < 2**63:
        raise BackgammonError(f"seed must be an integer from 0 to 2**63 - 1, got {seed!r}")
    return int(seed)


def _count(n: Any, name: str, top: int) -> int:
    if isinstance(n, bool) or not isinstance(n, (int, np.integer)) or not 1 <= n <= top:
        raise BackgammonError(f"{name} must be an integer from 1 to {top:,}, got {n!r}")
    return int(n)


def learning_rate(x: Any, name: str, zero: bool = False) -> float:
    """The learning rate ``x`` (argument ``name``) checked: in (0, 10], or [0, 10] with ``zero``."""
    try:
        v = float(x)
    except (TypeError, ValueError):
        raise BackgammonError(f"the learning rate {name} must be a number, got {x!r}") from None
    if isinstance(x, bool) or not math.isfinite(v) or not (0 <= v if zero else 0 < v) or v > 10:
        raise BackgammonError(f"the learning rate {name} must be a finite number in "
                              f"{'[0' if zero else '(0'}, 10], got {x!r}")
    return v


def _fraction(x: Any) -> float:
    try:
        v = float(x)
    except (TypeError, ValueError):
        raise BackgammonError(f"validation must be a fraction, got {x!r}") from None
    if not 0 <= v < 1:
        raise BackgammonError(f"validation must be a fraction in [0, 1), got {x!r}")
    return v


def _choice(optimizer: Any) -> str:
    if optimizer not in OPTIMIZERS:
        raise BackgammonError(f"optimizer must be one of {', '.join(OPTIMIZERS)}, got {optimizer!r}")
    return str(optimizer)


def _frozen(frozen: Any) -> tuple[str, ...]:
    names = (frozen,) if isinstance(frozen, str) else tuple(frozen)
    bad = [n for n in names if n not in ("contact", "race", "crashed")]
    if bad:
        raise BackgammonError(f"frozen nets are some of contact, race and crashed, got {bad!r}"[:200])
    return tuple(sorted(set(names)))


def _hidden(hidden: Any) -> tuple[int, ...]:
    try:
        sizes = tuple(hidden)
    except TypeError:
        sizes = ()
    if len(sizes) not in (2, 3):
        raise BackgammonError(f"hidden must be 2 or 3 sizes (contact, race[, crashed]), "
                              f"got {hidden!r}")
    for h in sizes:
        if isinstance(h, bool) or not isinstance(h, (int, np.integer)) or not 1 <= h <= _bgcore.NN_MAX_HIDDEN:
            raise BackgammonError(f"hidden sizes must be integers from 1 to "
                                  f"{_bgcore.NN_MAX_HIDDEN}, got {hidden!r}")
    return tuple(int(h) for h in sizes)


def _middle(middle: Any, nets: int) -> tuple[int, ...]:
    """The second hidden layers' sizes, one a net; () when none has one."""
    if middle is None:
        return ()
    try:
        sizes = tuple(middle)
    except TypeError:
        sizes = (None,)
    if len(sizes) != nets or any(
            isinstance(m, bool) or not isinstance(m, (int, np.integer))
            or not 0 <= m <= _bgcore.NN_MAX_MIDDLE for m in sizes):
        raise BackgammonError(f"middle must be {nets} integers from 0 to "
                              f"{_bgcore.NN_MAX_MIDDLE} (0: no middle layer), got {middle!r}")
    return tuple(int(m) for m in sizes) if any(sizes) else ()


def _encoding(encoding: Any) -> int:
    from backgammon.nn import ENCODINGS
    if isinstance(encoding, bool) or encoding not in ENCODINGS:
        raise BackgammonError(f"encoding must be one of {sorted(ENCODINGS)}, got {encoding!r}")
    return int(encoding)


def _threads(threads: Any, nets: int) -> int:
    """Threads for the nets: at most one a net (more would idle), at most the CPUs."""
    cpus = os.cpu_count() or 1
    if threads is None:
        return min(nets, cpus)
    if isinstance(threads, bool) or not isinstance(threads, (int, np.integer)) or threads < 1:
        raise BackgammonError(f"threads must be an integer >= 1, got {threads!r}")
    return int(min(threads, nets, cpus))


def start_nets(start: Any) -> Evaluator | None:
    """The nets a run starts from: None, an Evaluator, or one loaded from a nets file;
    without a screen (the one bundled was trained on the choices of other nets, and
    TD self-play chooses every move with the nets it trains)."""
    if isinstance(start, Evaluator) and start.pruning is not None:
        return start.with_pruning(keep=0)
    if start is None or isinstance(start, Evaluator):
        return start
    if isinstance(start, (str, os.PathLike)):
        return Evaluator.load(start)
    raise BackgammonError(f"start must be an Evaluator or a nets file, got {type(start).__name__}")
