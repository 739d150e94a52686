"""The rollout engine: the machinery every rollout of the package shares.

:func:`backgammon.rollout` (equities), :func:`backgammon.rollout_plays` (the
candidate plays of a roll, with common dice) and :func:`backgammon.rollout_cube`
(through :func:`~backgammon.rollout`) play seeded games in the compiled core
and read statistics from them.  What they have in common lives here, behind
the names below; everything else in this module is private to it.

The counts
    :data:`STRATA` rows (one per pair of first two rolls) of the core's
    integer statistics, columns :data:`FIELDS` (indices :data:`G` ..
    :data:`PLIES`).
Checked arguments
    :func:`positive_int`, :func:`checked_seed`, :func:`checked_truncation`,
    :func:`stopping_rules`; the start of a game: :func:`start_options`,
    :func:`never_moves`, :func:`rotation_offset`.
Playing chunks of games
    :class:`PolicyRunner` (a checked policy with its threads or executor),
    :func:`chunks` (how a round is cut), :func:`run_chunks` (chunks on
    threads or an executor, in order, stopped together on an error, Ctrl-C
    or an early close), :func:`run_chunk` / :func:`run_chunk_ex` (one chunk:
    top-level so that process and cluster executors can pickle them),
    :func:`collect` (the same waiting loop for other modules' futures).
Stopping and progress
    :func:`rounds` (the fixed schedule with stopping rules),
    :func:`past_budget`, :class:`Progress`.
Estimates
    :class:`Estimate`, :func:`estimate` (stratified or plain mean, error and
    95% interval), :func:`estimation_strata` (the finest strata with two games
    each), :func:`read_estimate`.

A chunk's games depend on ``(seed, game number)`` alone, so neither the
chunks, the threads nor the executor change a result.

    >>> from backgammon.rollout import engine
    >>> list(engine.chunks(10, workers=2, executor=None, chunk_games=4))
    [(0, 4), (4, 4), (8, 2)]
    >>> engine.rounds(3000)
    [(0, 1296), (1296, 1296), (2592, 408)]
"""

from __future__ import annotations

import collections
import math
import queue
import sys
import time
from concurrent.futures import Executor, ThreadPoolExecutor
from concurrent.futures import TimeoutError as FutureTimeout
from typing import Any, Callable, Generator, Iterable, Iterator, NamedTuple, Union

import numpy as np

from backgammon import _bgcore
from backgammon._show import shown
from backgammon.errors import RolloutError
from backgammon.position import ALL_ROLLS, Position

__all__ = [
    "STRATA", "FIELDS", "G", "W", "WG", "WB", "LG", "LB", "SV", "SV2", "PLIES", "Z95",
    "POLICIES", "DEFAULT_IN_FLIGHT", "MAX_GAMES", "Policy",
    "Estimate", "estimate", "estimation_strata", "read_estimate",
    "positive_int", "checked_seed", "checked_truncation", "stopping_rules",
    "start_options", "never_moves", "rotation_offset",
    "PolicyRunner", "checked_evaluator", "chunks", "run_chunks", "run_chunk", "run_chunk_ex",
    "collect", "rounds", "past_budget", "Progress",
]

Policy = Union[str, Any, Callable[[np.ndarray], Any]]
"""``"net"`` (the bundled :class:`~backgammon.Evaluator`), ``"random"``,
``"pubeval"``, an :class:`~backgammon.Evaluator`, or a batch evaluator: a callable taking an
``int8`` array ``(m, 26)`` of candidate positions (each seen by the player who
just moved, not swapped) and returning ``m`` scores; the highest is played."""

POLICIES = {"random": 0, "pubeval": 1, "net": 2}
"""The built-in policies' codes in the core."""
STRATA = 1296  # 36 first rolls x 36 replies
FIELDS = ("games", "win", "win_gammon", "win_backgammon", "lose_gammon",
          "lose_backgammon", "sum_v", "sum_v2", "plies")
"""The columns of the core's plain playout statistics, one row per stratum."""
G, W, WG, WB, LG, LB, SV, SV2, PLIES = range(9)
Z95 = 1.959963984540054  # the normal quantile of a two-sided 95% interval
DEFAULT_IN_FLIGHT = 1024
MAX_GAMES = 2**53  # far past any rollout, and game numbers stay exact everywhere
_MAX_IN_FLIGHT = 1 << 20  # games in lockstep: their candidates must fit in memory
_MAX_WORKERS = 1024


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


Estimate.__module__ = "backgammon.rollout"  # where users (and pickles) find it


def read_estimate(data: dict[str, Any]) -> Estimate:
    """An :class:`Estimate` from ``{"value", "stderr", "ci95": [low, high]}``."""
    low, high = data["ci95"]
    return Estimate(float(data["value"]), float(data["stderr"]), float(low), float(high))


def estimate(n: np.ndarray, s: np.ndarray, q: np.ndarray, stratified: bool,
             probability: bool = False) -> Estimate:
    """The mean of a quantity from per-stratum games ``n``, sums ``s`` and sums of
    squares ``q``: stratified (equal weights over the rows of n: strata of equal
    probability, two games each at least) or plain, with its standard error;
    ``probability``: the 95% interval kept inside [0, 1].

        >>> import numpy as np
        >>> games = np.array([2.0, 2.0])  # two strata of two games: 0 and 1 points, 1 and 1
        >>> estimate(games, np.array([1.0, 2.0]), np.array([1.0, 2.0]), True)[:2]
        (0.75, 0.25)
    """
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
        return Estimate(value, se, max(0.0, value - Z95 * se), min(1.0, value + Z95 * se))
    return Estimate(value, se, value - Z95 * se, value + Z95 * se)


def estimation_strata(stats: np.ndarray, stratify: bool) -> tuple[np.ndarray, bool]:
    """The rows to estimate from (float64) and whether they are strata: the finest
    strata with two games each, the 1,296 pairs of first two rolls, else the 36
    first rolls, else none (plain estimates over the rows)."""
    pairs = stats.astype(np.float64)
    if not stratify:
        return pairs, False
    if (pairs[:, G] >= 2).all():
        return pairs, True
    first = pairs.reshape(36, 36, -1).sum(axis=1)
    if (first[:, G] >= 2).all():
        return first, True
    return pairs, False


# -- checked arguments --------------------------------------------------------------

def positive_int(value: Any, name: str, limit: int = MAX_GAMES) -> int:
    """``value`` as an int from 1 to ``limit``; :class:`RolloutError` naming ``name`` else."""
    if isinstance(value, bool) or not isinstance(value, (int, np.integer)):
        raise RolloutError(f"{name} must be a positive integer, got {shown(value)}")
    if not 1 <= value <= limit:
        raise RolloutError(f"{name} must be an integer from 1 to {limit:,}, got {shown(value)}")
    return int(value)


def checked_seed(seed: Any) -> int:
    """``seed`` as an int from 0 to 2**64 - 1; :class:`RolloutError` else."""
    if isinstance(seed, bool) or not isinstance(seed, (int, np.integer)) or not 0 <= seed < 2**64:
        raise RolloutError(f"seed must be an integer from 0 to 2**64 - 1, got {shown(seed)}")
    return int(seed)


def checked_truncation(truncate: Any) -> int | None:
    """``truncate`` checked: None or a number of plies >= 0."""
    if truncate is None:
        return None
    if isinstance(truncate, bool) or not isinstance(truncate, (int, np.integer)) \
            or not 0 <= truncate <= MAX_GAMES:
        raise RolloutError(f"truncate is a number of plies >= 0, got {truncate!r}")
    return int(truncate)


def stopping_rules(stop_error: Any, max_seconds: Any) -> tuple[float | None, float | None]:
    """``(stop_error, max_seconds)`` checked: each None or a positive finite float."""
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


# -- the start of the games ---------------------------------------------------------

def start_options(position: Any, cube: Any) -> dict[str, Any]:
    """The start of a rollout: ``position`` (a :class:`~backgammon.Game` waiting for
    a roll, or a :class:`Position`) and, for the core's ``rollout_games``, the
    cube, its owner, the rules and the score (from a Game; money defaults else).
    ``cube`` is the caller's flag, checked here first."""
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
        pos = position
    met = None
    if score is not None:
        from backgammon.cube import met as _met
        met = _met.default_table()  # extended past its 25 points to any match (met.py)
    return dict(position=pos, cube=cube, cube_value=value, owner=owner,
                max_cube=rules.max_cube, cube_disabled=not rules.cube,
                jacoby=rules.jacoby and score is None, beaver=rules.beaver and score is None,
                backgammon_value=rules.backgammon_value, score=score, post_crawford=post,
                met=met)


def never_moves(pos: Position) -> str | None:
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


def rotation_offset(seed: int) -> int:
    """The third roll's offset (0..35) of a rotated rollout, from its seed."""
    x = (seed * 0x9E3779B97F4A7C15 + 0x632BE59BD9B4E019) % 2**64
    return ((x ^ (x >> 29)) * 0xBF58476D1CE4E5B9 % 2**64 >> 32) % 36


# -- playing chunks of games --------------------------------------------------------

class PolicyRunner:
    """A checked policy with where to run it: plays chunks of games and yields
    their statistics in order.

    ``name`` is the policy's name in results, ``code`` its core code (-1 for a
    callable), ``net`` the :class:`~backgammon.Evaluator` of the net policy,
    ``workers`` / ``executor`` where chunks run."""

    def __init__(self, policy: Policy, workers: int | None, executor: Executor | None,
                 in_flight: int) -> None:
        from backgammon.nn import Evaluator

        net = policy if isinstance(policy, Evaluator) else None
        callable_policy = callable(policy) and net is None
        if net is None and not callable_policy and (not isinstance(policy, str)
                                                    or policy not in POLICIES):
            raise RolloutError(f"unknown policy {shown(policy)}: use 'net', 'random', "
                               "'pubeval', an Evaluator or a callable")
        if workers is not None:
            workers = positive_int(workers, "workers", _MAX_WORKERS)
        if executor is not None and workers is not None:
            raise RolloutError("give workers or executor, not both")
        if executor is not None and not hasattr(executor, "submit"):
            raise RolloutError(f"executor must be a concurrent.futures.Executor, "
                               f"got {shown(executor)}")
        if callable_policy and (executor is not None or (workers or 1) > 1):
            raise RolloutError("a callable policy runs in the calling thread, batching all "
                               "games in flight: workers and executor apply to built-in "
                               "policies")
        self.in_flight = positive_int(in_flight, "in_flight", _MAX_IN_FLIGHT)
        self.workers, self.executor = workers, executor
        self.evaluate = checked_evaluator(policy) if callable_policy and callable(policy) \
            else None
        self.name: str
        self.code: int
        if callable_policy:
            self.name = getattr(policy, "__name__", type(policy).__name__)
            self.code, self.net = -1, None
        else:
            self.name = net.policy_name if net is not None else str(policy)
            self.code = POLICIES["net" if net is not None else self.name]
            self.net = net if net is not None or self.code != 2 else Evaluator.default()
        self._caches: queue.SimpleQueue[Any] = queue.SimpleQueue()

    @property
    def _thread_caches(self) -> queue.SimpleQueue[Any] | None:
        """The tables of first choices this rollout's own threads pass on
        (:func:`run_chunk`); None for another executor, whose chunks (maybe in
        other processes) make their own."""
        return self._caches if self.executor is None else None

    @property
    def parallel(self) -> int:
        """How many chunks run at once, for cutting work: 16 on an executor."""
        return 16 if self.executor is not None else self.workers or 1

    def parts(self, jobs: Iterable[tuple[bytes, int, int, int]],
              stratify: bool) -> Generator[np.ndarray, None, None]:
        """The ``(1296, 9)`` statistics of each job ``(board, seed, first, count)``,
        in order (jobs are read lazily); close the iterator to stop the rest."""
        if self.evaluate is not None:
            return (_bgcore.playout_batched(b, seed, first, count, stratify, self.evaluate,
                                            self.in_flight) for b, seed, first, count in jobs)
        args = ((b, seed, first, count, self.code, stratify, self.net, self._thread_caches)
                for b, seed, first, count in jobs)
        return run_chunks(args, self.workers, self.executor)

    def parts_ex(self, jobs: Iterable[tuple[bytes, int, int, int]],
                 opts: dict[str, Any]) -> Generator[np.ndarray, None, None]:
        """The ``(1296, ROLLOUT_FIELDS)`` fixed-point sums of each job of the
        core's extended rollout (cube, luck adjustment, truncation, rotation:
        ``opts``, the keywords of ``_bgcore.rollout_games``), in order; the net
        policy only.  Close the iterator to stop the rest."""
        return run_chunks(((*job, self.net, opts, self._thread_caches) for job in jobs),
                          self.workers, self.executor, run_chunk_ex)


def checked_evaluator(policy: Callable[[np.ndarray], Any]) -> Callable[[np.ndarray], np.ndarray]:
    """``policy`` (a batch callable) wrapped so that its scores are checked: a
    finite float64 array of one score per candidate, :class:`RolloutError` else."""
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


def chunks(games: int, workers: int | None, executor: Executor | None,
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


def run_chunk(board: bytes, seed: int, first: int, count: int, policy: int,
              stratify: bool, net: Any = None, caches: Any = None,
              cancel: Any = None) -> np.ndarray:
    """One seeded chunk of a rollout with a built-in policy: the ``(1296, 9)``
    statistics of games ``first .. first + count - 1``; ``net`` is the
    :class:`~backgammon.Evaluator` of the net policy (code 2).  ``caches``, a
    ``queue.SimpleQueue`` one rollout's threads share, passes on the tables
    in which a thread's chunks remember their games' first two choices (the
    same games, found faster).  Top-level so that process and cluster
    executors can pickle it.  ``cancel`` (a private token) stops it early
    from another thread; Ctrl-C stops it in the main thread."""
    if policy == 1:   # the weights, in this process (a fresh worker's too)
        from backgammon import pubeval

        pubeval.install()
    cache = _take(caches) if policy != 0 else None   # random choices draw dice: not kept
    try:
        return _bgcore.playout(board, seed, first, count, policy, stratify, cancel,
                               net._nets if net is not None else None, cache)
    finally:
        if caches is not None and cache is not None:
            caches.put(cache)


def run_chunk_ex(board: bytes, seed: int, first: int, count: int, net: Any,
                 opts: dict[str, Any], caches: Any = None, cancel: Any = None) -> np.ndarray:
    """One seeded chunk of a rollout with the cube, luck adjustment,
    truncation or rotation (``opts``: the keywords of
    ``_bgcore.rollout_games``): its ``(1296, ROLLOUT_FIELDS)`` fixed-point
    sums; ``caches`` as for :func:`run_chunk` (these chunks' tables keep the
    choices' chances too).  Top-level so that process and cluster executors
    can pickle it."""
    opts = dict(opts)
    table = opts.pop("met", None)
    if table is not None:
        opts["table"] = _bgcore.cube_table(table)
    cache = _take(caches)
    try:
        return _bgcore.rollout_games(board, seed, first, count, net._nets, cancel=cancel,
                                     cache=cache, **opts)
    finally:
        if caches is not None:
            caches.put(cache)


def _take(caches: Any) -> Any:
    """A table of first choices for this chunk: one of ``caches`` (a
    ``queue.SimpleQueue`` of them), or a new one when none is free or given."""
    if caches is not None:
        try:
            return caches.get_nowait()
        except queue.Empty:
            pass
    return _bgcore.PlayCache()


def run_chunks(args: Iterator[tuple[Any, ...]], workers: int | None, executor: Executor | None,
               fn: Callable[..., np.ndarray] | None = None) -> Generator[np.ndarray, None, None]:
    """``fn(*a, cancel)`` (default :func:`run_chunk`) of each ``a`` of ``args``,
    in order: in this thread, on ``workers`` threads or on ``executor``.  On
    an error, an interrupt or the iterator's ``close()`` the chunks not started
    are cancelled and the running ones told to stop."""
    if fn is None:
        fn = run_chunk  # looked up now: a benchmark may time it (thread_balance.py)
    if executor is not None:
        # a token pickled to another process is a fresh one: remote chunks
        # already running finish there; in-process executors stop at once
        return _submit_and_collect(executor, args, _bgcore.Cancel(), _EXECUTOR_WINDOW, fn)
    if (workers or 1) == 1:
        return (fn(*a) for a in args)
    return _threaded(args, workers or 1, fn)


def _threaded(args: Iterator[tuple[Any, ...]], workers: int,
              fn: Callable[..., np.ndarray]) -> Generator[np.ndarray, None, None]:
    # leaving the block joins the threads: none outlives the rollout
    with ThreadPoolExecutor(max_workers=workers, thread_name_prefix="backgammon-rollout") as pool:
        yield from _submit_and_collect(pool, args, _bgcore.Cancel(), 2 * workers, fn)


_WAIT = 0.1  # seconds: a wait for a chunk wakes this often (Ctrl-C on every platform)
_EXECUTOR_WINDOW = 256  # chunks submitted ahead to an executor (a cluster's workers)


def _submit_and_collect(executor: Executor, args: Iterator[tuple[Any, ...]], cancel: Any,
                        window: int, fn: Callable[..., np.ndarray]
                        ) -> Generator[np.ndarray, None, None]:
    """The chunks' results in order, at most ``window`` submitted ahead (any
    number of chunks in bounded memory).  On an error, an interrupt or an
    early close, the chunks not started are cancelled and the running ones
    told to stop, so nothing keeps running behind the caller's back."""
    pending: collections.deque[Any] = collections.deque()
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


def collect(futures: list[Any], cancel: Any) -> Iterator[Any]:
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


# -- stopping and progress ----------------------------------------------------------

def rounds(games: int) -> list[tuple[int, int]]:
    """The fixed schedule of rounds ``(first, count)`` of a rollout with
    stopping rules: rounds end every 1,296 games up to 10,368, then about an
    eighth more each time, at multiples of 1,296 (so every stratum has the same count), and
    at ``games``.  It depends on nothing but ``games``, so a seed gives one
    result whatever the threads."""
    out, done = [], 0
    while done < games:
        step = STRATA * max(1, done // (STRATA * 8))
        count = min(step, games - done)
        out.append((done, count))
        done += count
    return out


def past_budget(start: float, done: int, count: int, budget: float) -> bool:
    """Whether a round of ``count`` more games would end past the budget
    (``budget`` seconds from ``time.perf_counter()`` = ``start``), at the speed
    of the ``done`` games so far."""
    spent = time.perf_counter() - start
    return spent + spent / done * count > budget


class Progress:
    """A progress bar on stderr: tqdm when installed, else a plain one; or a
    callback ``progress(done, total)``; or nothing (``progress`` False).

    :meth:`update` adds games done with an optional note (the current
    estimate), :meth:`close` ends the bar; :attr:`shows_notes` says whether a
    note would be seen (so that a caller computes one only then)."""

    def __init__(self, progress: bool | Callable[[int, int], Any], total: int) -> None:
        self.callback = progress if callable(progress) else None
        self.total = total
        self.done = 0
        self.bar: Any = None
        self.plain = False
        self.start = time.perf_counter()
        if progress is True:
            try:
                from tqdm import tqdm  # type: ignore[import-untyped,unused-ignore]  # no stubs installed
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
