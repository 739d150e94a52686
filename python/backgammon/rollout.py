"""Rollouts: play a position out many times and read its chances.

Games are played to the end in the compiled core, without the GIL and without
Python per move.  Game number ``k`` of a rollout takes its dice from its own
stream, seeded from ``(seed, k)`` alone, so a seed gives the same games and the
same result whether they run in one thread, many threads, or a cluster.

    >>> import backgammon as bg
    >>> result = bg.rollout(bg.Position.initial(), games=1296, seed=1)
    >>> result.games, round(result.win.value + (1 - result.win.value), 6)
    (1296, 1.0)
"""

from __future__ import annotations

import collections
import math
import os
import sys
import time
from concurrent.futures import Executor, ThreadPoolExecutor
from concurrent.futures import TimeoutError as FutureTimeout
from dataclasses import MISSING, dataclass, field, fields, replace
from typing import Any, Callable, Iterable, Iterator, NamedTuple, Union

import numpy as np

from backgammon import _bgcore
from backgammon import pubeval as _pubeval  # noqa: F401  (installs the weights)
from backgammon._show import shown
from backgammon.errors import RolloutError
from backgammon.position import ALL_ROLLS, Position

__all__ = ["Estimate", "RolloutError", "RolloutResult", "rollout", "read_position", "Policy"]

Policy = Union[str, Any, Callable[[np.ndarray], Any]]
"""``"net"`` (the bundled :class:`~backgammon.Evaluator`), ``"random"``,
``"pubeval"``, an :class:`~backgammon.Evaluator`, or a batch evaluator: a callable taking an
``int8`` array ``(m, 26)`` of candidate positions (each seen by the player who
just moved, not swapped) and returning ``m`` scores; the highest is played."""

_POLICIES = {"random": 0, "pubeval": 1, "net": 2}
_STRATA = 1296  # 36 first rolls x 36 replies
_FIELDS = ("games", "win", "win_gammon", "win_backgammon", "lose_gammon",
           "lose_backgammon", "sum_v", "sum_v2", "plies")
_G, _W, _WG, _WB, _LG, _LB, _SV, _SV2, _PLIES = range(9)
_Z95 = 1.959963984540054
_DEFAULT_IN_FLIGHT = 1024
_MAX_IN_FLIGHT = 1 << 20  # games in lockstep: their candidates must fit in memory
_MAX_WORKERS = 1024
# Below this ratio of standard errors the summary says stratifying gained
# nothing: from one position a gain of a few percent is within what the
# error estimates themselves vary from seed to seed.
_MEASURABLE_GAIN = 1.05


class Estimate(NamedTuple):
    """A rolled-out quantity: its value, standard error and 95% interval."""

    value: float
    stderr: float
    low: float
    high: float

    def __float__(self) -> float:
        return self.value

    def __format__(self, spec: str) -> str:
        return format(self.value, spec)


@dataclass(frozen=True)
class RolloutResult:
    """The outcome of :func:`rollout`, from the side of the player on roll.

    The five probabilities are gnubg's (cumulative: ``win_gammon`` includes
    backgammons); ``equity`` is cubeless, in points per game (backgammons
    count 3).  Each is an :class:`Estimate`.  With stratification the values
    and errors are those of the stratified estimator over the 1,296 pairs of
    first two rolls (from 2,592 games), or over the 36 first rolls (from 72
    games); ``unstratified_stderr`` is the equity error the same games give
    read as plain random games, so the ratio shows what stratifying gained.
    ``strata`` holds the raw integer counts, one row per pair of first rolls
    (with ``cube``, ``variance_reduction``, ``truncate`` or a ``rotation`` of
    1 or 3: the fixed-point sums of the core's bg_rollout_range).

    With ``cube``: ``cubeful`` is the cubeful equity per unit of the starting
    stake (money) or, with ``match``, the match winning chance, played with
    the evaluator's cube decisions; the cubeless figures beside it are those
    of the same games.  With ``variance_reduction`` every figure has each
    roll's luck subtracted; ``plain_equity`` and ``plain_cubeful`` are the
    unadjusted estimates of the same games.  ``truncate``: the plies after
    which games were scored by the evaluator; ``rotation``: how many of the
    first rolls were scheduled (2 is the stratification above, 3 adds the
    third roll).
    """

    position: Position
    games: int
    policy: str
    seed: int
    stratified: bool
    win: Estimate
    win_gammon: Estimate
    win_backgammon: Estimate
    lose_gammon: Estimate
    lose_backgammon: Estimate
    equity: Estimate
    unstratified_stderr: float
    seconds: float
    mean_plies: float
    strata: np.ndarray = field(repr=False, compare=False)
    cube: bool = False
    match: bool = False
    cubeful: Estimate | None = None
    variance_reduction: bool = False
    plain_equity: Estimate | None = None
    plain_cubeful: Estimate | None = None
    truncate: int | None = None
    rotation: int = 0
    stopped: str | None = None
    """Why the rollout stopped before ``games`` asked for (``stop_error`` or
    ``max_seconds``), or None when it played them all."""

    @property
    def probabilities(self) -> tuple[float, float, float, float, float]:
        """``(win, win_gammon, win_backgammon, lose_gammon, lose_backgammon)``."""
        return (self.win.value, self.win_gammon.value, self.win_backgammon.value,
                self.lose_gammon.value, self.lose_backgammon.value)

    @property
    def games_per_second(self) -> float:
        return self.games / self.seconds if self.seconds > 0 else float("inf")

    def to_dict(self, *, strata: bool = False) -> dict[str, Any]:
        """A JSON-ready summary; with ``strata`` also the raw per-stratum counts,
        so that :meth:`from_dict` gives back the whole result."""
        out: dict[str, Any] = {
            "position_id": self.position.position_id(),
            "games": self.games, "policy": self.policy, "seed": self.seed,
            "stratified": self.stratified,
        }
        for name in ("win", "win_gammon", "win_backgammon", "lose_gammon",
                     "lose_backgammon", "equity"):
            est = getattr(self, name)
            out[name] = {"value": est.value, "stderr": est.stderr,
                         "ci95": [est.low, est.high]}
        for name in ("cubeful", "plain_equity", "plain_cubeful"):
            est = getattr(self, name)
            if est is not None:
                out[name] = {"value": est.value, "stderr": est.stderr,
                             "ci95": [est.low, est.high]}
        out.update(cube=self.cube, match=self.match,
                   variance_reduction=self.variance_reduction, truncate=self.truncate,
                   rotation=self.rotation)
        out.update(unstratified_equity_stderr=self.unstratified_stderr,
                   seconds=self.seconds,
                   games_per_second=self.games_per_second if self.seconds > 0 else None,
                   mean_plies=self.mean_plies, stopped=self.stopped)
        if strata:
            out["strata"] = self.strata.tolist()
        return out

    @classmethod
    def from_dict(cls, data: Any) -> RolloutResult:
        """The result :meth:`to_dict` wrote (after a JSON round trip too).

        Without ``"strata"`` the raw counts come back empty, shape ``(0, 9)``.
        Raises :class:`RolloutError` naming a missing or bad field."""
        return _from_dict(cls, data)

    def to_json(self, *, strata: bool = False) -> str:
        """Strict JSON of :meth:`to_dict`."""
        from backgammon._dicts import dumps
        return dumps(self.to_dict(strata=strata))

    @classmethod
    def from_json(cls, text: str | bytes) -> RolloutResult:
        from backgammon._dicts import loads
        return cls.from_dict(loads(text, "a saved rollout", RolloutError))

    def _repr_html_(self) -> str:  # Jupyter: a table of the estimates
        from backgammon.display import rollout_html
        return rollout_html(self)

    def __str__(self) -> str:
        rows = [("win", self.win), ("win gammon", self.win_gammon),
                ("win backgammon", self.win_backgammon), ("lose", None),
                ("lose gammon", self.lose_gammon), ("lose backgammon", self.lose_backgammon)]
        lines = [f"Rollout of {self.position.position_id()}: {self.games:,} games, "
                 f"policy {self.policy}, seed {self.seed}"
                 f"{', stratified' if self.stratified else ''}",
                 f"  {'':<16}{'value':>9}{'std err':>10}   95% interval"]
        for label, est in rows:
            if est is None:
                lose = 1.0 - self.win.value
                lines.append(f"  {label:<16}{lose:>9.4f}{self.win.stderr:>10.4f}   "
                             f"[{1 - self.win.high:.4f}, {1 - self.win.low:.4f}]")
                continue
            lines.append(f"  {label:<16}{est.value:>9.4f}{est.stderr:>10.4f}   "
                         f"[{est.low:.4f}, {est.high:.4f}]")
        eq = self.equity
        lines.append(f"  {'equity':<16}{eq.value:>+9.4f}{eq.stderr:>10.4f}   "
                     f"[{eq.low:+.4f}, {eq.high:+.4f}]  (cubeless)")
        cf = self.cubeful
        if cf is not None:
            if self.match:
                lines.append(f"  {'match winning':<16}{cf.value:>9.4f}{cf.stderr:>10.4f}   "
                             f"[{cf.low:.4f}, {cf.high:.4f}]  (cubeful)")
            else:
                lines.append(f"  {'equity':<16}{cf.value:>+9.4f}{cf.stderr:>10.4f}   "
                             f"[{cf.low:+.4f}, {cf.high:+.4f}]  (cubeful, per unit of "
                             "the starting stake)")
        if self.variance_reduction and self.plain_equity is not None:
            plain = self.plain_equity.stderr
            factor = f"{plain / eq.stderr:.2f}x" if eq.stderr > 0 else "all of it"
            lines.append(f"  luck adjustment cut the cubeless equity error from {plain:.4f} to "
                         f"{eq.stderr:.4f} ({factor})")
            pc = self.plain_cubeful
            if cf is not None and pc is not None and cf.stderr > 0:
                what = "match winning chance's" if self.match else "cubeful equity's"
                lines.append(f"  and the {what} from {pc.stderr:.4f} to {cf.stderr:.4f} "
                             f"({pc.stderr / cf.stderr:.2f}x)")
        if self.truncate is not None:
            lines.append(f"  truncated after {self.truncate} plies (scored by the evaluator)")
        if self.stratified and eq.stderr > 0:
            gain = self.unstratified_stderr / eq.stderr
            if gain < _MEASURABLE_GAIN:
                lines.append(f"  stratifying the first rolls gained nothing measurable "
                             f"(equity error {eq.stderr:.4f}, {self.unstratified_stderr:.4f} "
                             f"without)")
            else:
                lines.append(f"  stratifying the first rolls cut the equity error from "
                             f"{self.unstratified_stderr:.4f} to {eq.stderr:.4f} ({gain:.2f}x)")
        lines.append(f"  {self.games_per_second:,.0f} games/s, {self.seconds:.2f} s, "
                     f"{self.mean_plies:.1f} plies a game")
        if self.stopped:
            lines.append(f"  stopped early: {self.stopped}")
        return "\n".join(lines)


def rollout(position: Any, games: int = 36 * 36 * 10, *,
            policy: Policy = "net", seed: int | None = None,
            workers: int | None = None, executor: Executor | None = None,
            stratify: bool = True, progress: bool | Callable[[int, int], Any] = False,
            chunk_games: int | None = None, in_flight: int = _DEFAULT_IN_FLIGHT,
            cube: bool = False, variance_reduction: bool = False,
            truncate: int | None = None, rotation: int | None = None,
            stop_error: float | None = None, max_seconds: float | None = None,
            no_double: bool = False,
            ) -> RolloutResult:
    """Plays ``position`` out ``games`` times and returns the statistics.

    ``position`` is seen from the player on roll, who rolls first; it may be
    a :class:`Position`, a gnubg Position ID, a GNUbgID or an XGID.  ``policy`` is ``"net"`` (the
    default: the bundled nets' 0-ply choice, :class:`~backgammon.Evaluator`),
    an :class:`~backgammon.Evaluator` of your own, ``"random"``
    (uniform over distinct plays), ``"pubeval"`` (Tesauro's evaluator,
    :mod:`backgammon.pubeval`), or a batch evaluator callable (see
    :data:`Policy`), called once per ply with the candidates of every game in
    flight (``in_flight`` games advance in lockstep).  ``seed`` fixes the
    games (a random one is drawn and recorded when None).  ``workers`` runs
    that many native threads; ``executor`` (any ``concurrent.futures``
    executor, e.g. ``distributed.Client(...).get_executor()``) runs seeded
    chunks of ``chunk_games`` games where it likes.  The result is identical
    for any ``workers``, ``executor`` and ``chunk_games``.  ``stratify``
    gives every 1,296 games each pair of first two rolls once.  ``progress``
    shows a bar on stderr (tqdm when installed) with the current equity and
    its error, or is called as ``progress(done, total)``.

    Stopping rules: with ``stop_error`` the games are played in rounds that
    end at fixed game counts (every 1,296 games up to 10,368, then about an
    eighth more each time, in whole multiples of 1,296) and the rollout stops at the first end of a
    round where the equity's standard error is below ``stop_error``, so a
    seed still gives one result.  ``max_seconds`` stops before a round that
    would end past the time budget (the games played then depend on the
    machine's speed).  ``RolloutResult.stopped`` says why it stopped early.

    ``position`` may also be a :class:`~backgammon.Game` waiting for a roll:
    its position, cube, owner, score, Crawford flag and rules are used.
    ``cube``: both sides double, take and pass by the evaluator's 0-ply cube
    decisions (money with Jacoby and beavers as the rules say; in a match at
    its score, with the Crawford rule, a game ending the match where it is
    won); :attr:`RolloutResult.cubeful` is reported beside the cubeless
    figures of the same games.  ``variance_reduction`` subtracts each roll's
    luck as the evaluator sees it (about 21 times the work a game).
    ``truncate`` scores a game still going after that many plies by the
    evaluator's 0-ply chances (exact from the bear-off database when both
    sides are home).  ``rotation`` schedules the first 0 to 3 rolls (default
    2 when ``stratify``, else 0; 3 adds the third roll: 46,656 strata).
    These four options need the net policy.  ``no_double`` (with ``cube``):
    the player on roll rolls without doubling first, as in the no-double
    branch of a cube decision (:func:`backgammon.rollout_cube`).

        >>> import backgammon as bg
        >>> r = bg.rollout(bg.Position.initial(), games=72, seed=1, cube=True)
        >>> -1.5 < r.cubeful.value < 1.5
        True
    """
    setup = _cube_setup(position, cube)
    pos = setup.pop("position")
    if not isinstance(no_double, bool):
        raise TypeError(f"no_double is True or False, got {no_double!r}")
    if no_double and not cube:
        raise RolloutError("no_double is a cube choice: give cube=True with it")
    setup["no_double"] = no_double
    if pos.outcome() is not None:
        raise RolloutError(f"the game is already over in {pos!r}")
    games = _positive_int(games, "games")
    if seed is None:
        seed = int.from_bytes(os.urandom(8), "little") >> 1
    seed = _seed(seed)
    play = _PolicyRunner(policy, workers, executor, in_flight)
    if chunk_games is not None:
        chunk_games = _positive_int(chunk_games, "chunk_games")
    if rotation is None:
        rotation = 2 if stratify else 0
    elif isinstance(rotation, bool) or not isinstance(rotation, (int, np.integer)) \
            or not 0 <= rotation <= 3:
        raise RolloutError(f"rotation is 0, 1, 2 or 3 (rolls scheduled), got {rotation!r}")
    elif not stratify and rotation:
        raise RolloutError("stratify=False schedules no rolls: leave rotation out or give 0")
    rotation = int(rotation)
    truncate = _truncation(truncate)
    if not isinstance(variance_reduction, bool):
        raise TypeError(f"variance_reduction is True or False, got {variance_reduction!r}")
    extended = bool(cube or variance_reduction or truncate is not None or rotation in (1, 3))
    if extended and play.code != _POLICIES["net"]:
        raise RolloutError("cube, variance_reduction, truncate and rotation 1 or 3 need the "
                           f"net policy ('net' or an Evaluator), got {policy!r}")
    stop_error, max_seconds = _stopping(stop_error, max_seconds)
    stuck = _never_moves(pos)
    if stuck:
        raise RolloutError(f"the game can never end: {stuck} in {pos!r}")
    staged = stop_error is not None or max_seconds is not None
    rounds = _rounds(games) if staged else [(0, games)]

    def finish(done: int, seconds: float) -> RolloutResult:
        if not extended:
            return _result(pos, done, play.name, seed, stratify, stats, seconds)
        return _result_ex(pos, done, play.name, seed, rotation, stats, seconds,
                          cube=bool(cube), match=setup["score"] is not None,
                          vr=variance_reduction, truncate=truncate)

    bar = _Progress(progress, games)
    start = time.perf_counter()
    stats = np.zeros((_STRATA, len(_FIELDS)), dtype=np.int64)
    done, stopped = 0, None
    try:
        if extended:
            opts = dict(setup, vr=variance_reduction, rotation=rotation,
                        truncate=-1 if truncate is None else truncate,
                        rot_offset=_rotation_offset(seed))
            stats = np.zeros((_STRATA, _bgcore.ROLLOUT_FIELDS), dtype=np.int64)
        for first, count in rounds:
            if max_seconds is not None and done and _past_budget(start, done, count, max_seconds):
                stopped = f"time budget of {max_seconds:g} s reached after {done:,} games"
                break
            chunks = _chunks(count, play.workers, play.executor, chunk_games)  # lazily
            if extended:
                parts = _run_chunks(((pos._b, seed, first + f, c, play.net, opts)
                                     for f, c in chunks), play.workers, play.executor,
                                    run_chunk_ex)
            else:
                parts = play.parts(((pos._b, seed, first + f, c) for f, c in chunks), stratify)
            try:
                for part in parts:
                    stats += part
                    c = int(part[:, _G].sum())  # every game of a chunk is counted (column 0)
                    done += c
                    note = _equity_note(stats, stratify) if bar.shows_notes and not extended \
                        else None
                    bar.update(c, note)
            finally:
                parts.close()  # an interrupt between chunks: stop and join the workers now
            if stop_error is not None and done < games:
                err = finish(done, 0.0).equity.stderr
                if err < stop_error:
                    stopped = (f"equity error {err:.4f} below {stop_error:g} after "
                               f"{done:,} games")
                    break
    finally:
        bar.close()
    seconds = time.perf_counter() - start
    result = finish(done, seconds)
    return replace(result, stopped=stopped) if stopped else result


class _PolicyRunner:
    """A checked policy with where to run it: plays chunks of games and yields
    their statistics in order."""

    def __init__(self, policy: Policy, workers: int | None, executor: Executor | None,
                 in_flight: int) -> None:
        from backgammon.nn import Evaluator

        net = policy if isinstance(policy, Evaluator) else None
        callable_policy = callable(policy) and net is None
        if net is None and not callable_policy and (not isinstance(policy, str)
                                                    or policy not in _POLICIES):
            raise RolloutError(f"unknown policy {shown(policy)}: use 'net', 'random', "
                               "'pubeval', an Evaluator or a callable")
        if workers is not None:
            workers = _positive_int(workers, "workers", _MAX_WORKERS)
        if executor is not None and workers is not None:
            raise RolloutError("give workers or executor, not both")
        if executor is not None and not hasattr(executor, "submit"):
            raise RolloutError(f"executor must be a concurrent.futures.Executor, "
                               f"got {shown(executor)}")
        if callable_policy and (executor is not None or (workers or 1) > 1):
            raise RolloutError("a callable policy runs in the calling thread, batching all "
                               "games in flight: workers and executor apply to built-in "
                               "policies")
        self.in_flight = _positive_int(in_flight, "in_flight", _MAX_IN_FLIGHT)
        self.workers, self.executor = workers, executor
        self.evaluate = _checked_evaluator(policy) if callable_policy else None
        if callable_policy:
            self.name = getattr(policy, "__name__", type(policy).__name__)
            self.code, self.net = -1, None
        else:
            self.name = "net" if net is not None else str(policy)
            self.code = _POLICIES[self.name]
            self.net = net if net is not None or self.code != 2 else Evaluator.default()

    def parts(self, jobs: Iterable[tuple[bytes, int, int, int]],
              stratify: bool) -> Iterator[np.ndarray]:
        """The ``(1296, 9)`` statistics of each job ``(board, seed, first, count)``,
        in order (jobs are read lazily); close the iterator to stop the rest."""
        if self.evaluate is not None:
            return (_bgcore.playout_batched(b, seed, first, count, stratify, self.evaluate,
                                            self.in_flight) for b, seed, first, count in jobs)
        args = ((b, seed, first, count, self.code, stratify, self.net)
                for b, seed, first, count in jobs)
        return _run_chunks(args, self.workers, self.executor)


def _stopping(stop_error: Any, max_seconds: Any) -> tuple[float | None, float | None]:
    out = []
    for value, name in ((stop_error, "stop_error"), (max_seconds, "max_seconds")):
        if value is not None:
            if isinstance(value, bool) or not isinstance(value, (int, float, np.integer,
                                                                 np.floating)):
                raise RolloutError(f"{name} must be a positive number, got {value!r}")
            if not (math.isfinite(value) and value > 0):
                raise RolloutError(f"{name} must be a positive number, got {value!r}")
            value = float(value)
        out.append(value)
    return out[0], out[1]


def _rounds(games: int) -> list[tuple[int, int]]:
    """The fixed schedule of rounds ``(first, count)`` of a rollout with
    stopping rules: rounds end every 1,296 games up to 10,368, then about an
    eighth more each time, at multiples of 1,296 (so every stratum has the same count), and
    at ``games``.  It depends on nothing but ``games``, so a seed gives one
    result whatever the threads."""
    out, done = [], 0
    while done < games:
        step = _STRATA * max(1, done // (_STRATA * 8))
        count = min(step, games - done)
        out.append((done, count))
        done += count
    return out


def _past_budget(start: float, done: int, count: int, budget: float) -> bool:
    """Whether a round of ``count`` more games would end past the budget, at
    the speed so far."""
    spent = time.perf_counter() - start
    return spent + spent / done * count > budget


def _equity_note(stats: np.ndarray, stratify: bool) -> str:
    strata, stratified = _strata_for_estimates(stats, stratify)
    n = strata[:, _G]
    if n.sum() < 2:
        return ""
    eq = _estimate(n, strata[:, _SV], strata[:, _SV2], stratified)
    return f"equity {eq.value:+.4f} \u00b1 {eq.stderr:.4f}"


def run_chunk(board: bytes, seed: int, first: int, count: int, policy: int,
              stratify: bool, net: Any = None, cancel: Any = None) -> np.ndarray:
    """One seeded chunk of a rollout with a built-in policy: the ``(1296, 9)``
    statistics of games ``first .. first + count - 1``; ``net`` is the
    :class:`~backgammon.Evaluator` of the net policy (code 2).  Top-level so
    that process and cluster executors can pickle it.  ``cancel`` (a private
    token) stops it early from another thread; Ctrl-C stops it in the main
    thread."""
    from backgammon import pubeval  # noqa: F401  (a fresh worker process needs the weights)

    return _bgcore.playout(board, seed, first, count, policy, stratify, cancel,
                           net._nets if net is not None else None)


def run_chunk_ex(board: bytes, seed: int, first: int, count: int, net: Any,
                 opts: dict[str, Any], cancel: Any = None) -> np.ndarray:
    """One seeded chunk of a rollout with the cube, luck adjustment,
    truncation or rotation (``opts``: the keywords of
    ``_bgcore.rollout_games``): its ``(1296, ROLLOUT_FIELDS)`` fixed-point
    sums.  Top-level so that process and cluster executors can pickle it."""
    opts = dict(opts)
    table = opts.pop("met", None)
    if table is not None:
        opts["table"] = _bgcore.cube_table(table)
    return _bgcore.rollout_games(board, seed, first, count, net._nets, cancel=cancel, **opts)


def _run_chunks(args: Iterator[tuple], workers: int | None, executor: Executor | None,
                fn: Callable[..., np.ndarray] = run_chunk) -> Iterator[np.ndarray]:
    if executor is not None:
        # a token pickled to another process is a fresh one: remote chunks
        # already running finish there; in-process executors stop at once
        return _submit_and_collect(executor, args, _bgcore.Cancel(), _EXECUTOR_WINDOW, fn)
    if (workers or 1) == 1:
        return (fn(*a) for a in args)
    return _threaded(args, workers or 1, fn)


def _threaded(args: Iterator[tuple], workers: int,
              fn: Callable[..., np.ndarray] = run_chunk) -> Iterator[np.ndarray]:
    # leaving the block joins the threads: none outlives the rollout
    with ThreadPoolExecutor(max_workers=workers, thread_name_prefix="backgammon-rollout") as pool:
        yield from _submit_and_collect(pool, args, _bgcore.Cancel(), 2 * workers, fn)


_WAIT = 0.1  # seconds: a wait for a chunk wakes this often (Ctrl-C on every platform)
_EXECUTOR_WINDOW = 256  # chunks submitted ahead to an executor (a cluster's workers)


def _submit_and_collect(executor: Executor, args: Iterator[tuple], cancel: Any,
                        window: int, fn: Callable[..., np.ndarray] = run_chunk
                        ) -> Iterator[np.ndarray]:
    """The chunks' results in order, at most ``window`` submitted ahead (any
    number of chunks in bounded memory).  On an error, an interrupt or an
    early close, the chunks not started are cancelled and the running ones
    told to stop, so nothing keeps running behind the caller's back."""
    pending: collections.deque = collections.deque()
    try:
        for a in args:
            pending.append(executor.submit(fn, *a, cancel))
            if len(pending) >= window:
                yield _result_of(pending.popleft())
        while pending:
            yield _result_of(pending.popleft())
    except BaseException:
        cancel.set()
        for f in pending:
            f.cancel()
        raise


def _collect(futures: list, cancel: Any) -> Iterator[Any]:
    """The results of submitted futures in order, for loops of other modules
    (duels, training): on an error, an interrupt or an early close the
    futures not started are cancelled and ``cancel`` (a Cancel token the
    running ones watch) is set."""
    try:
        for f in futures:
            yield _result_of(f)
    except BaseException:
        cancel.set()
        for f in futures:
            f.cancel()
        raise


def _result_of(future: Any) -> Any:
    while True:  # a timed wait: Ctrl-C gets through on every platform
        try:
            return future.result(timeout=_WAIT)
        except FutureTimeout:
            continue


def _checked_evaluator(policy: Callable[[np.ndarray], Any]) -> Callable[[np.ndarray], np.ndarray]:
    def evaluate(candidates: np.ndarray) -> np.ndarray:
        raw = policy(candidates)
        try:
            scores = np.asarray(raw, dtype=np.float64)
        except (TypeError, ValueError) as exc:
            raise RolloutError(f"the policy must return numbers, got {type(raw).__name__}: "
                               f"{exc}") from None
        m = len(candidates)
        if scores.shape not in ((m,), (m, 1)):
            raise RolloutError(f"the policy must return {m} scores for {m} candidates, "
                               f"got shape {scores.shape}")
        scores = np.ascontiguousarray(scores.reshape(m))
        if not np.isfinite(scores).all():
            bad = int(np.flatnonzero(~np.isfinite(scores))[0])
            raise RolloutError(f"the policy returned {scores[bad]} for candidate {bad}: "
                               f"{candidates[bad].tolist()}")
        return scores
    return evaluate


_MAX_CHUNK = 1296 * 64  # games: progress updates at least this often
_MIN_CHUNK = 1296       # games: a chunk costs ~0.1 ms of overhead


def _chunks(games: int, workers: int | None, executor: Executor | None,
            chunk_games: int | None) -> Iterator[tuple[int, int]]:
    """``(first, count)`` of each chunk, lazily (a huge rollout lists nothing
    up front).  By default a multiple of the workers of chunks of equal size
    (within one game), so that every thread gets the same work.  The split
    never changes the result."""
    if chunk_games is not None:
        for first in range(0, games, chunk_games):
            yield first, min(chunk_games, games - first)
        return
    parallel = 16 if executor is not None else workers or 1
    per_worker = 4  # a few each: a thread slowed by the machine is evened out
    n = parallel * per_worker
    n = max(min(n, games // _MIN_CHUNK), math.ceil(games / _MAX_CHUNK), 1)
    n = math.ceil(n / parallel) * parallel if n >= parallel else n
    n = min(n, games)
    size, extra = divmod(games, n)
    first = 0
    for i in range(n):
        count = size + (i < extra)
        yield first, count
        first += count


_MAX_GAMES = 2**53  # far past any rollout, and game numbers stay exact everywhere


def _positive_int(value: Any, name: str, limit: int = _MAX_GAMES) -> int:
    if isinstance(value, bool) or not isinstance(value, (int, np.integer)):
        raise RolloutError(f"{name} must be a positive integer, got {shown(value)}")
    if not 1 <= value <= limit:
        raise RolloutError(f"{name} must be an integer from 1 to {limit:,}, got {shown(value)}")
    return int(value)


def _never_moves(pos: Position) -> str | None:
    """Why no game from ``pos`` can end, or None: when neither side can move
    with any of the 21 rolls nothing ever changes (both on the bar against a
    closed board, RULES 5.1 and 4.4).  No move leads into such a position
    (the mover would have to stay on the bar against a board that let it
    enter), so the start is the one place to look; the core's ply cap stays
    as a guard."""
    for side in (pos, pos.swapped()):
        board = side._b
        for roll in ALL_ROLLS:
            results = _bgcore.successors(board, roll)
            if len(results) > 1 or results[0].tobytes() != board:
                return None
    return "neither side can move with any roll (both on the bar against a closed board)"


def _truncation(truncate: Any) -> int | None:
    """``truncate`` checked: None or a number of plies >= 0."""
    if truncate is not None:
        if isinstance(truncate, bool) or not isinstance(truncate, (int, np.integer)) \
                or not 0 <= truncate <= _MAX_GAMES:
            raise RolloutError(f"truncate is a number of plies >= 0, got {truncate!r}")
        truncate = int(truncate)
    return truncate


def _seed(seed: Any) -> int:
    if isinstance(seed, bool) or not isinstance(seed, (int, np.integer)) or not 0 <= seed < 2**64:
        raise RolloutError(f"seed must be an integer from 0 to 2**64 - 1, got {shown(seed)}")
    return int(seed)


def _as_position(position: Any) -> Position:
    if isinstance(position, Position):
        return position
    if isinstance(position, str):
        return read_position(position)[0]
    return Position.from_array(position)


_MAX_ID_TEXT = 200  # characters: every ID spelling is far shorter


def read_position(text: str) -> tuple[Position, tuple[int, int] | None]:
    """The position (from the player on roll) and the dice, when the text
    carries them, of a gnubg Position ID, a GNUbgID ``PositionID:MatchID`` or
    an XGID (with or without ``XGID=``).

        >>> read_position("4HPwATDgc/ABMA")[0] == Position.initial()
        True
        >>> read_position("XGID=-b----E-C---eE---c-e----B-:0:0:1:52:0:0:0:0:10")[1]
        (5, 2)
    """
    from backgammon.errors import InvalidPositionError
    from backgammon.game import Game

    if not isinstance(text, str):
        raise TypeError(f"a position spelling is a string, got {type(text).__name__}")
    body = text.strip()
    if len(body) > _MAX_ID_TEXT:
        raise InvalidPositionError(f"not a Position ID, GNUbgID or XGID: {text[:40]!r}... "
                                   f"({len(text):,} characters)")
    if body.upper().startswith("XGID") or body.count(":") >= 8:
        game = Game.from_xgid(body)
    elif ":" in body or body.startswith("GNUbgID"):
        game = Game.from_gnubg_id(body)
    else:
        return Position.from_position_id(body), None
    return game.position, game.dice


def _from_dict(cls: type, data: Any) -> Any:
    """A :class:`RolloutResult` from :meth:`RolloutResult.to_dict` data; the
    fields are read by name, so results with more fields read the same way."""
    if not isinstance(data, dict):
        raise RolloutError(f"a saved rollout is a dict, got {type(data).__name__}")
    keys = {"position": "position_id", "unstratified_stderr": "unstratified_equity_stderr"}
    kwargs: dict[str, Any] = {}
    for f in fields(cls):
        key = keys.get(f.name, f.name)
        if key not in data:
            if f.name == "strata":
                kwargs["strata"] = np.zeros((0, len(_FIELDS)), dtype=np.int64)
                continue
            if f.default is not MISSING:
                continue
            raise RolloutError(f"the saved rollout has no {key!r}")
        value = data[key]
        try:
            if f.name == "position":
                value = Position.from_position_id(value)
            elif f.name == "strata":
                value = np.array(value, dtype=np.int64)
                if value.shape not in ((_STRATA, len(_FIELDS)),
                                       (_STRATA, _bgcore.ROLLOUT_FIELDS)):
                    raise ValueError(f"shape {value.shape}, not ({_STRATA}, {len(_FIELDS)}) "
                                     f"or ({_STRATA}, {_bgcore.ROLLOUT_FIELDS})")
            elif isinstance(value, dict) and "value" in value:
                value = read_estimate(value)
        except (TypeError, ValueError, OverflowError) as exc:
            raise RolloutError(f"the saved rollout's {key!r} is bad: {exc}") from None
        kwargs[f.name] = value
    return cls(**kwargs)


def read_estimate(data: dict[str, Any]) -> Estimate:
    """An :class:`Estimate` from ``{"value", "stderr", "ci95": [low, high]}``."""
    low, high = data["ci95"]
    return Estimate(float(data["value"]), float(data["stderr"]), float(low), float(high))


def _estimate(n: np.ndarray, s: np.ndarray, q: np.ndarray, stratified: bool,
              probability: bool = False) -> Estimate:
    """Stratified (equal weights over the rows of n: strata of equal
    probability, two games each at least) or plain mean and error;
    ``probability``: the 95% interval kept inside [0, 1]."""
    if stratified:
        mean_h = s / n
        var_h = (q - s * s / n) / (n - 1)
        value = float(mean_h.mean())
        se = float(math.sqrt(max(float((var_h / n).sum()) / len(n) ** 2, 0.0)))
    else:
        total, sum_s, sum_q = int(n.sum()), float(s.sum()), float(q.sum())
        value = sum_s / total
        var = (sum_q - sum_s * sum_s / total) / (total - 1) if total > 1 else 0.0
        se = math.sqrt(max(var, 0.0) / total)
    if probability:
        return Estimate(value, se, max(0.0, value - _Z95 * se), min(1.0, value + _Z95 * se))
    return Estimate(value, se, value - _Z95 * se, value + _Z95 * se)


def _strata_for_estimates(stats: np.ndarray, stratify: bool) -> tuple[np.ndarray, bool]:
    """The finest strata with two games each: the 1,296 pairs of first two
    rolls, else the 36 first rolls, else none (plain estimates)."""
    pairs = stats.astype(np.float64)
    if not stratify:
        return pairs, False
    if (pairs[:, _G] >= 2).all():
        return pairs, True
    first = pairs.reshape(36, 36, -1).sum(axis=1)
    if (first[:, _G] >= 2).all():
        return first, True
    return pairs, False


def _result(pos: Position, games: int, policy: str, seed: int, stratify: bool,
            stats: np.ndarray, seconds: float) -> RolloutResult:
    strata, stratified = _strata_for_estimates(stats, stratify)
    n = strata[:, _G]
    est = {}
    for name, col in (("win", _W), ("win_gammon", _WG), ("win_backgammon", _WB),
                      ("lose_gammon", _LG), ("lose_backgammon", _LB)):
        s = strata[:, col]
        est[name] = _estimate(n, s, s, stratified, probability=True)
    sv, sv2 = strata[:, _SV], strata[:, _SV2]
    est["equity"] = _estimate(n, sv, sv2, stratified)
    plain = _estimate(n, sv, sv2, False)
    return RolloutResult(
        position=pos, games=games, policy=policy, seed=seed, stratified=stratified,
        unstratified_stderr=plain.stderr, seconds=seconds,
        mean_plies=float(stats[:, _PLIES].sum()) / games, strata=stats,
        rotation=2 if stratify else 0, **est)


def _cube_setup(position: Any, cube: Any) -> dict[str, Any]:
    """The start of a rollout: the position and, for the core, the cube, its
    owner, the rules and the score (from a Game; money defaults else)."""
    from backgammon.game import Game, Phase
    from backgammon.rules import Rules

    if not isinstance(cube, bool):
        raise TypeError(f"cube is True or False, got {cube!r}")
    rules, value, owner, score, post = Rules(), 1, "centred", None, False
    if isinstance(position, Game):
        game = position
        if game.phase is not Phase.ROLL:
            raise RolloutError(f"a rollout starts from a game waiting for a roll; this one is "
                               f"in phase {game.phase.value!r}")
        pos, rules, value = game.position, game.rules, game.cube
        owner = ("centred" if game.cube_owner is None
                 else "own" if game.cube_owner == game.turn else "opponent")
        if game.match_length:
            me, them = game.score[game.turn], game.score[1 - game.turn]
            score = (game.match_length - me, game.match_length - them)
            post = 1 in score and not game.crawford
    else:
        pos = _as_position(position)
    met = None
    if score is not None:
        from backgammon import met as _met
        met = _met.default_table()  # extended past its 25 points to any match (met.py)
    return dict(position=pos, cube=cube, cube_value=value, owner=owner,
                max_cube=rules.max_cube, cube_disabled=not rules.cube,
                jacoby=rules.jacoby and score is None, beaver=rules.beaver and score is None,
                backgammon_value=rules.backgammon_value, score=score, post_crawford=post,
                met=met)


def _rotation_offset(seed: int) -> int:
    """The third roll's offset (0..35) of a rotated rollout, from its seed."""
    x = (seed * 0x9E3779B97F4A7C15 + 0x632BE59BD9B4E019) % 2**64
    return ((x ^ (x >> 29)) * 0xBF58476D1CE4E5B9 % 2**64 >> 32) % 36


# The quantities of bg_rollout_range, in order (playout.h)
_RX_NAMES = ("win", "win_gammon", "win_backgammon", "lose_gammon", "lose_backgammon",
             "equity", "cubeful")


def _result_ex(pos: Position, games: int, policy: str, seed: int, rotation: int,
               stats: np.ndarray, seconds: float, *, cube: bool, match: bool, vr: bool,
               truncate: int | None) -> RolloutResult:
    """The result from bg_rollout_range's fixed-point sums."""
    nq = _bgcore.ROLLOUT_QUANTITIES
    rows = stats.astype(np.float64)
    if rotation == 1 or (rotation >= 2 and not (rows[:, 0] >= 2).all()):
        rows = rows.reshape(36, 36, -1).sum(axis=1)   # only the first roll is a stratum
    stratified = rotation >= 1 and bool((rows[:, 0] >= 2).all())
    n = rows[:, 0]
    scale, scale2 = 2.0 ** -_bgcore.ROLLOUT_SHIFT, 2.0 ** -_bgcore.ROLLOUT_SHIFT2

    def est(q: int, strat: bool = stratified) -> Estimate:
        return _estimate(n, rows[:, 2 + 2 * q] * scale, rows[:, 3 + 2 * q] * scale2, strat,
                         probability=q % (nq // 2) < 5)  # the five chances (or their VR ones)

    off = nq // 2 if vr else 0
    values = {name: est(q + off) for q, name in enumerate(_RX_NAMES)}
    cubeful = values.pop("cubeful")
    plain = est(5 + off, False)
    return RolloutResult(
        position=pos, games=games, policy=policy, seed=seed, stratified=stratified,
        unstratified_stderr=plain.stderr, seconds=seconds,
        mean_plies=float(stats[:, 1].sum()) / games, strata=stats,
        cube=cube, match=match and cube, cubeful=cubeful if cube else None,
        variance_reduction=vr, plain_equity=est(5) if vr else None,
        plain_cubeful=est(6) if vr and cube else None, truncate=truncate,
        rotation=rotation, **values)


class _Progress:
    """A progress bar on stderr: tqdm when installed, else a plain one."""

    def __init__(self, progress: bool | Callable[[int, int], Any], total: int) -> None:
        self.callback = progress if callable(progress) else None
        self.total = total
        self.done = 0
        self.bar = None
        self.plain = False
        self.start = time.perf_counter()
        if progress is True:
            try:
                from tqdm import tqdm
            except ImportError:
                self.plain = True
            else:
                self.bar = tqdm(total=total, unit="game", unit_scale=True,
                                desc="rollout", file=sys.stderr, dynamic_ncols=True)

    @property
    def shows_notes(self) -> bool:
        """Whether a note (the current estimate) would be shown."""
        return self.bar is not None or self.plain

    def update(self, count: int, note: str | None = None) -> None:
        self.done += count
        if self.callback is not None:
            self.callback(self.done, self.total)
        if self.bar is not None:
            if note:
                self.bar.set_postfix_str(note, refresh=False)
            self.bar.update(count)
        elif self.plain:
            width = 30
            filled = int(width * self.done / self.total)
            rate = self.done / max(time.perf_counter() - self.start, 1e-9)
            sys.stderr.write(f"\rrollout [{'#' * filled}{'.' * (width - filled)}] "
                             f"{self.done:,}/{self.total:,} games, {rate:,.0f} games/s"
                             f"{', ' + note if note else ''}  ")
            sys.stderr.flush()

    def close(self) -> None:
        if self.bar is not None:
            self.bar.close()
        elif self.plain:
            sys.stderr.write("\n")
            sys.stderr.flush()
