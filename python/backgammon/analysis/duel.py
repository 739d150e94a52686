"""Duels: one policy against another over duplicate dice.

Every dice sequence is played twice with the seats swapped (policy ``a``
moves first in one game, ``b`` in the other, and each ply uses the same roll
in both), so luck largely cancels within a pair.  Pair ``k`` takes its dice
from stream ``(seed, k)``: the result does not depend on ``workers``.

    >>> import backgammon as bg
    >>> r = bg.duel("pubeval", "random", games=200, seed=1)
    >>> r.games, r.ppg.value > 0
    (200, True)
"""

from __future__ import annotations

import math
import os
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from typing import Any, Callable, Union

import numpy as np

from backgammon import _bgcore
from backgammon import pubeval as _pubeval
from backgammon.errors import RolloutError
from backgammon.position import Position
from backgammon.rollout.engine import Z95, Estimate, checked_seed, collect, positive_int

__all__ = ["DuelResult", "duel"]

DuelPolicy = Union[str, Any, Callable[[np.ndarray], Any]]
"""``"net"`` (the bundled :class:`~backgammon.Evaluator`), ``"pubeval"``,
``"random"``, an :class:`~backgammon.Evaluator`, or a batch callable as
:func:`~backgammon.rollout` accepts."""

_CODES = {"random": 0, "pubeval": 1, "net": 2}
(_PAIRS, _GAMES, _AW, _AG, _AB, _BW, _BG, _BB, _SUM, _SUM2, _PLIES) = range(11)


@dataclass(frozen=True)
class DuelResult:
    """The outcome of :func:`duel`, from policy ``a``'s side.

    ``ppg`` is ``a``'s mean points per game (cubeless; gammons 2,
    backgammons 3) with its standard error from the spread of the pair
    totals; ``wins``, ``gammons`` and ``backgammons`` are ``(a, b)`` counts
    (gammons include backgammons).
    """

    a: str
    b: str
    games: int
    seed: int
    ppg: Estimate
    wins: tuple[int, int]
    gammons: tuple[int, int]
    backgammons: tuple[int, int]
    mean_plies: float

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready data; ``ppg`` is ``{"value", "stderr", "ci95": [low, high]}``."""
        from backgammon._dicts import estimate
        return {"a": self.a, "b": self.b, "games": self.games, "seed": self.seed,
                "ppg": estimate(self.ppg), "wins": list(self.wins),
                "gammons": list(self.gammons), "backgammons": list(self.backgammons),
                "mean_plies": self.mean_plies}

    @classmethod
    def from_dict(cls, data: Any) -> DuelResult:
        """The result :meth:`to_dict` wrote (:class:`RolloutError` names a bad field)."""
        from backgammon._dicts import Reader
        r = Reader(data, "a duel result", RolloutError)
        return cls(a=r.str("a"), b=r.str("b"), games=r.int("games", 0), seed=r.int("seed", 0),
                   ppg=r.estimate("ppg"), wins=r.ints("wins", 2, 0),  # type: ignore[arg-type]
                   gammons=r.ints("gammons", 2, 0),  # type: ignore[arg-type]
                   backgammons=r.ints("backgammons", 2, 0),  # type: ignore[arg-type]
                   mean_plies=r.float("mean_plies", 0.0))

    def to_json(self) -> str:
        from backgammon._dicts import dumps
        return dumps(self.to_dict())

    @classmethod
    def from_json(cls, text: str | bytes) -> DuelResult:
        from backgammon._dicts import loads
        return cls.from_dict(loads(text, "a duel result", RolloutError))

    def __str__(self) -> str:
        p = self.ppg
        return (f"{self.a} vs {self.b}: {p.value:+.4f} ppg (std err {p.stderr:.4f}, 95% "
                f"[{p.low:+.4f}, {p.high:+.4f}]) over {self.games:,} games ({self.games // 2:,} "
                f"duplicate pairs), wins {self.wins[0]}-{self.wins[1]}, gammons "
                f"{self.gammons[0]}-{self.gammons[1]}, backgammons "
                f"{self.backgammons[0]}-{self.backgammons[1]}, seed {self.seed}")


def duel(a: DuelPolicy, b: DuelPolicy, games: int = 2000, seed: int | None = None,
         workers: int | None = None, *, position: Position | None = None,
         in_flight: int = 1024, ply: int | tuple[int, int] = 0) -> DuelResult:
    """Plays ``a`` against ``b`` for ``games`` games (rounded up to whole
    pairs) from ``position`` (the opening by default) and returns the
    :class:`DuelResult`.  Built-in policies and evaluators play in the core
    on ``workers`` threads; the result is the same for any ``workers``.  A
    callable side is called from the calling thread with the candidates of
    ``in_flight`` games at a time (``workers`` must then be 1 or None).

    ``ply`` (one for both sides or ``(ply_a, ply_b)``, 0..2) makes the nets'
    sides search deeper.  A :class:`~backgammon.Bot` side, a callable taking
    ``before`` / ``dice`` keywords (``fn(candidates, *, before, dice)``: the
    position before the move and the roll, per game) and ``ply`` > 0 are
    played by a Python loop on the same duplicate pairs
    (``backgammon.env.duel_loop``)."""
    plies = _plies(ply)
    from backgammon.env.duel_loop import wants_context
    if max(plies) > 0 or any(hasattr(p, "choose_play") or (callable(p) and wants_context(p))
                             for p in (a, b)):
        return _python_duel(a, b, games, seed, position, plies)
    games = positive_int(games, "games")
    pairs = (games + 1) // 2
    if seed is None:
        seed = int.from_bytes(os.urandom(8), "little") >> 1
    seed = checked_seed(seed)
    if workers is not None:
        workers = positive_int(workers, "workers")
    pos = position if position is not None else Position.initial()
    if not isinstance(pos, Position):
        raise TypeError(f"position must be a Position, got {type(pos).__name__}")
    if pos.outcome() is not None:
        raise RolloutError(f"the game is already over in {pos!r}")
    in_flight = positive_int(in_flight, "in_flight")
    pa, pb = _player(a), _player(b)
    if pa[0] == -1 or pb[0] == -1:
        if (workers or 1) > 1:
            raise RolloutError("a callable policy runs in the calling thread, batching all "
                               "games in flight: workers apply to built-in policies")
        stats = _bgcore.duel_batched(pos._b, seed, 0, pairs, pa[0], pa[1], pa[2],
                                     pb[0], pb[1], pb[2], in_flight)
    else:
        stats = core_duel_stats(pos._b, seed, pairs, pa[:2], pb[:2], workers or 1)
    return duel_result(_name(a), _name(b), seed, stats)


def _plies(ply: Any) -> tuple[int, int]:
    pair = ply if isinstance(ply, tuple) else (ply, ply)
    if len(pair) != 2 or any(isinstance(p, bool) or p not in (0, 1, 2) for p in pair):
        raise RolloutError(f"ply is 0, 1 or 2, or a pair of them, got {ply!r}")
    return int(pair[0]), int(pair[1])


def _python_duel(a: Any, b: Any, games: Any, seed: Any, position: Any,
                 plies: tuple[int, int]) -> DuelResult:
    from backgammon.env.duel_loop import chooser, duel_stats
    games = positive_int(games, "games")
    if seed is None:
        seed = int.from_bytes(os.urandom(8), "little") >> 1
    seed = checked_seed(seed)
    pos = position if position is not None else Position.initial()
    if not isinstance(pos, Position):
        raise TypeError(f"position must be a Position, got {type(pos).__name__}")
    if pos.outcome() is not None:
        raise RolloutError(f"the game is already over in {pos!r}")
    rng = np.random.default_rng([seed, 2 ** 32])   # the random policy's own stream
    stats = duel_stats(pos, seed, (games + 1) // 2, chooser(a, plies[0], rng),
                       chooser(b, plies[1], rng))
    return duel_result(_name(a), _name(b), seed, stats)


def _player(policy: Any) -> tuple[int, Any, Any]:
    """(core policy code or -1 for a callable, nets, checked callable)."""
    from backgammon.nn import Evaluator
    from backgammon.rollout.engine import checked_evaluator

    if isinstance(policy, Evaluator):
        return 2, policy._nets, None
    if isinstance(policy, str):
        if policy not in _CODES:
            raise RolloutError(f"unknown policy {policy!r}: use 'net', 'pubeval', 'random', "
                               "an Evaluator or a callable")
        code = _CODES[policy]
        if code == 1:
            _pubeval.install()
        return code, Evaluator.default()._nets if code == 2 else None, None
    if callable(policy):
        return -1, None, checked_evaluator(policy)
    raise RolloutError(f"unknown policy {policy!r}: use 'net', 'pubeval', 'random', "
                       "an Evaluator or a callable")


def _name(policy: Any) -> str:
    from backgammon.nn import Evaluator
    if isinstance(policy, str):
        return policy
    if isinstance(policy, Evaluator):
        return policy.policy_name
    return getattr(policy, "__name__", type(policy).__name__)


def core_duel_stats(board: bytes, seed: int, pairs: int, pa: tuple[int, Any],
                    pb: tuple[int, Any], workers: int) -> np.ndarray:
    """The core's statistics of ``pairs`` duplicate pairs on ``workers`` threads
    (also train.py's duels against pubeval)."""
    if 1 in (pa[0], pb[0]):
        _pubeval.install()
    if workers == 1:
        return _bgcore.duel(board, seed, 0, pairs, pa[0], pa[1], pb[0], pb[1])
    # equal chunks, one per thread; a shared token stops them all on an
    # error or Ctrl-C (the main thread waits in collect, which wakes often)
    chunks = [(pairs * i // workers, pairs * (i + 1) // workers - pairs * i // workers)
              for i in range(workers)]
    cancel = _bgcore.Cancel()
    with ThreadPoolExecutor(max_workers=workers, thread_name_prefix="backgammon-duel") as pool:
        futures = [pool.submit(_bgcore.duel, board, seed, f, n, pa[0], pa[1], pb[0], pb[1], cancel)
                   for f, n in chunks if n]
        total = np.zeros(11, np.int64)
        for part in collect(futures, cancel):
            total += part
        return total


def duel_result(a: str, b: str, seed: int, st: np.ndarray) -> DuelResult:
    """The :class:`DuelResult` of the core's duel statistics ``st``."""
    pairs, games = int(st[_PAIRS]), int(st[_GAMES])
    mean = float(st[_SUM]) / games
    # per-pair totals t: ppg = mean(t) / 2, var(ppg) = var(t) / (4 pairs)
    if pairs > 1:
        var_t = (float(st[_SUM2]) - float(st[_SUM]) ** 2 / pairs) / (pairs - 1)
        se = math.sqrt(max(var_t, 0.0) / pairs) / 2.0
    else:
        se = 0.0
    return DuelResult(a=a, b=b, games=games, seed=seed,
                      ppg=Estimate(mean, se, mean - Z95 * se, mean + Z95 * se),
                      wins=(int(st[_AW]), int(st[_BW])), gammons=(int(st[_AG]), int(st[_BG])),
                      backgammons=(int(st[_AB]), int(st[_BB])),
                      mean_plies=float(st[_PLIES]) / games)
