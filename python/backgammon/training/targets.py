"""Training targets: positions from varied self-play, their rolled-out chances,
and the ``.npz`` chunk files that hold them.

Supervised training fits the nets to targets (``backgammon train --targets``).
:func:`make_targets` (``backgammon targets``) makes a data set: a directory of
chunk files, each with its own seed, written whole or not at all, so a run that
stops (Ctrl-C, the end of a session) resumes by making only the chunks still
missing.

The format: an ``.npz`` with ``boards`` int8 ``(n, 26)`` (the player on roll,
before rolling), ``targets`` float32 ``(n, 5)`` (win, win gammon, win
backgammon, lose gammon, lose backgammon, cumulative as the Evaluator's
outputs), ``stderr`` float32 ``(n,)`` (the standard error of each target's
cubeless equity) and ``meta`` (a 0-d string of JSON: how the chunk was made).
A data set is one file, a directory (every ``*.npz`` in name order) or a list
of files.

    >>> import numpy as np, os, tempfile, backgammon as bg
    >>> boards = sample_positions(3, seed=1)
    >>> boards.shape, boards.dtype
    ((3, 26), dtype('int8'))
    >>> t, se = rollout_targets(boards[:1], seed=1, games=36, truncate=4)
    >>> t.shape, bool(0 <= t[0, 0] <= 1)
    ((1, 5), True)
    >>> path = os.path.join(tempfile.mkdtemp(), "chunk-000000.npz")
    >>> b = bg.Position.initial().to_array().reshape(1, 26)
    >>> t = np.array([[0.5, 0.15, 0.01, 0.14, 0.01]], np.float32)
    >>> np.savez(path, boards=b, targets=t, stderr=np.zeros(1, np.float32), meta=np.array("{}"))
    >>> read_targets(path).boards.shape
    (1, 26)
"""

from __future__ import annotations

import functools
import hashlib
import json
import os
import time
import zlib
from concurrent.futures import FIRST_COMPLETED, Executor, Future, ThreadPoolExecutor, wait
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, Collection, Iterable, Iterator, Union

import numpy as np

from backgammon import _bgcore
from backgammon import pubeval
from backgammon.nn._npz import read_npz
from backgammon.errors import TrainingDataError
from backgammon.position import Position
from backgammon.rollout.engine import MAX_GAMES, estimate

if TYPE_CHECKING:
    from backgammon.nn.evaluator import Evaluator

__all__ = ["TargetSet", "read_targets", "target_files", "sample_positions", "rollout_targets",
           "make_targets", "ply_targets", "net_class", "NET_CLASSES", "is_backgame", "is_blitz",
           "is_trailing",
           "TARGET_CLASSES",
           "relabel_targets"]

Source = Union[str, "os.PathLike[str]", Iterable[Union[str, "os.PathLike[str]"]]]

MAX_FILE = 2 << 30           # bytes of one chunk file
MAX_POSITIONS = 50_000_000   # rows in a data set, all files together (~2.3 GB in memory)
MAX_FILES = 100_000
_TOLERANCE = 1e-3            # slack of the cumulative order (win >= wg >= wb, ...)


@dataclass(frozen=True)
class TargetSet:
    """Boards ``(n, 26)`` int8, targets ``(n, 5)`` float32 and stderr ``(n,)``
    float32 of a data set, and the files it came from."""

    boards: np.ndarray
    targets: np.ndarray
    stderr: np.ndarray
    files: tuple[str, ...]

    def __len__(self) -> int:
        return len(self.boards)

    def fingerprint(self) -> str:
        """A digest of the boards and targets (a resumed run checks it)."""
        h = hashlib.sha256()
        for a in (self.boards, self.targets):
            flat = a.reshape(-1).view(np.uint8)
            for lo in range(0, len(flat), 1 << 24):   # 16 MB at a time: Ctrl-C gets through
                h.update(flat[lo:lo + (1 << 24)].tobytes())
        return h.hexdigest()[:32]


def target_files(source: Source) -> list[Path]:
    """The chunk files of ``source``: a file, a directory (its ``*.npz`` in
    name order) or a list of files and directories (each expanded so, in
    the list's order)."""
    if isinstance(source, (str, os.PathLike)):
        p = Path(source)
        if p.is_dir():
            found = sorted(f for f in p.iterdir() if f.suffix == ".npz" and f.is_file())
            if not found:
                raise TrainingDataError(f"{os.fspath(p)!r}: no .npz files in the directory")
            return found if len(found) <= MAX_FILES else _too_many(len(found))
        return [p]
    try:
        items = [Path(f) for f in source]
    except TypeError:
        raise TrainingDataError(f"targets must be a path or a list of paths, got "
                                f"{type(source).__name__}") from None
    if not items:
        raise TrainingDataError("targets: an empty list of files")
    files: list[Path] = []
    for item in items:
        files.extend(target_files(item))
        if len(files) > MAX_FILES:
            _too_many(len(files))
    return files


def _too_many(n: int) -> list[Path]:
    raise TrainingDataError(f"{n} target files: at most {MAX_FILES}")


def read_targets(source: Source, *, max_positions: int = MAX_POSITIONS) -> TargetSet:
    """Reads and checks a data set; raises :class:`TrainingDataError` naming
    the file (and row) of anything that does not fit the format."""
    files = target_files(source)
    boards, targets, stderr, total = [], [], [], 0
    for f in files:
        b, t, s = _read_one(f, max_positions - total)
        total += len(b)
        boards.append(b)
        targets.append(t)
        stderr.append(s)
    return TargetSet(np.ascontiguousarray(np.concatenate(boards)),
                     np.ascontiguousarray(np.concatenate(targets)),
                     np.ascontiguousarray(np.concatenate(stderr)),
                     tuple(os.fspath(f) for f in files))


def _read_one(path: Path, room: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    where = os.fspath(path)
    # 26 + 20 + 4 bytes a row, plus the header and meta: rows are bounded by room
    data = read_npz(path, max_file=MAX_FILE, max_bytes=min(MAX_FILE, 50 * max(room, 0) + (1 << 20)),
                    error=TrainingDataError, what="training targets")
    for key in ("boards", "targets", "stderr", "meta"):
        if key not in data:
            raise TrainingDataError(f"{where!r}: no {key!r} array")
    b, t, s, meta = data["boards"], data["targets"], data["stderr"], data["meta"]
    if b.dtype != np.int8 or b.ndim != 2 or b.shape[1] != 26:
        raise TrainingDataError(f"{where!r}: boards must be int8 (n, 26), got {b.dtype} {b.shape}")
    n = b.shape[0]
    if n > room:
        raise TrainingDataError(f"{where!r}: {n} positions would pass the limit of the data set")
    if t.dtype != np.float32 or t.shape != (n, 5):
        raise TrainingDataError(f"{where!r}: targets must be float32 ({n}, 5), got {t.dtype} {t.shape}")
    if s.dtype != np.float32 or s.shape != (n,):
        raise TrainingDataError(f"{where!r}: stderr must be float32 ({n},), got {s.dtype} {s.shape}")
    if meta.dtype.kind != "U" or meta.shape != ():
        raise TrainingDataError(f"{where!r}: meta must be a 0-d string")
    _check_boards(b, where)
    _check_targets(t, where)
    if not np.isfinite(s).all() or (s < 0).any():
        raise TrainingDataError(f"{where!r}: stderr holds negative or non-finite values")
    return b, t, s


def _check_boards(b: np.ndarray, where: str) -> None:
    bad, why = _bgcore.first_invalid_row(b)
    if bad >= 0:
        raise TrainingDataError(f"{where!r}: row {bad}: {why}: {b[bad].tolist()}")


def _check_targets(t: np.ndarray, where: str) -> None:
    bad = ~np.isfinite(t).all(axis=1) | ((t < 0) | (t > 1)).any(axis=1)
    eps = _TOLERANCE
    bad |= (t[:, 1] > t[:, 0] + eps) | (t[:, 2] > t[:, 1] + eps)
    bad |= (t[:, 3] > 1 - t[:, 0] + eps) | (t[:, 4] > t[:, 3] + eps)
    if bad.any():
        row = int(np.flatnonzero(bad)[0])
        raise TrainingDataError(
            f"{where!r}: row {row}: targets {t[row].tolist()} are not five cumulative "
            "probabilities (0 <= wb <= wg <= win, 0 <= lb <= lg <= 1 - win)")


# ---------------------------------------------------------------------------
# Making targets

_MAX_PLIES = 2_000              # a self-play game longer than this is abandoned


def _rng(seed: int, *stream: int) -> np.random.Generator:
    return np.random.default_rng([int(seed) & ((1 << 63) - 1), *stream])


def _roll(rng: np.random.Generator, opening: bool) -> tuple[int, int]:
    while True:
        d1, d2 = (int(x) for x in rng.integers(1, 7, 2))
        if not opening or d1 != d2:
            return d1, d2


def _choose(pos: Position, dice: tuple[int, int], nets: Any, rng: np.random.Generator,
            explore: float, mode: str) -> Position:
    """The position after the mover's play (still seen by the mover)."""
    plays = pos.legal_plays(dice)
    results = plays._results
    if len(results) == 1:
        return Position._from_bytes(results[0].tobytes())
    if mode == "random":
        i = int(rng.integers(len(results)))
    elif mode == "pubeval":
        pubeval.install()
        i = int(np.argmax(_bgcore.pubeval_scores(results, -1)))
    else:
        pick, probs = nets.choose(pos._b, results)
        i = int(pick)
        if rng.random() < explore:
            top = _best_first(probs)[:4]
            i = int(top[rng.integers(len(top))])
    return Position._from_bytes(results[i].tobytes())


def _best_first(probs: np.ndarray) -> np.ndarray:
    """The plays' indices best first for the mover (ties: the generator's order),
    from the nets' chances of each result for the opponent, on roll next."""
    p = probs.astype(np.float64)
    eq = -(2 * p[:, 0] - 1 + p[:, 1] - p[:, 3] + p[:, 2] - p[:, 4])
    return np.argsort(-eq, kind="stable")


NET_CLASSES = ("contact", "crashed", "race")


def net_class(board: bytes) -> str:
    """The class of net that answers a board (seen by the player on roll), as
    the nets tell it whatever nets are loaded: ``"race"`` (no contact),
    ``"crashed"`` (a side has at most 6 checkers in play, docs/nn.md "Crashed
    positions") or ``"contact"``.

        >>> net_class(Position.initial()._b)
        'contact'
    """
    if _bgcore.nn_is_race(board):
        return "race"
    return "crashed" if _bgcore.nn_is_crashed(board) else "contact"


TARGET_CLASSES = NET_CLASSES + ("backgame", "blitz", "trailing")
"""What ``classes`` may name in :func:`sample_positions`: the net classes,
``"backgame"`` (:func:`is_backgame`), ``"blitz"`` (:func:`is_blitz`) and
``"trailing"`` (:func:`is_trailing`), positions the nets judge worst."""

_BACKGAME_TRAIL = 50   # pips a back-game side trails the race by, at least


def is_backgame(board: bytes) -> bool:
    """Whether a side of ``board`` plays a back game (either side, whoever is on
    roll): it holds two or more points in its opponent's home board and trails
    the race by 50 pips or more.  Self-play reaches such positions rarely, and
    the nets' largest losses on real decisions are in them (training/README.md,
    ``ply2f-bg``), so targets can aim at them.

        >>> is_backgame(Position.initial()._b)
        False
        >>> b = Position.from_position_id("sNs2EAiiEwC8Kw")   # holds O's 3 and 4 points, 96 behind
        >>> is_backgame(b._b)
        True
    """
    pts = np.frombuffer(board, np.int8)[1:25]
    own, opp = Position._from_bytes(board).pip_counts()
    own_held = int((pts[18:24] >= 2).sum())      # own checkers on the opponent's home board
    opp_held = int((pts[0:6] <= -2).sum())
    return (own_held >= 2 and own - opp >= _BACKGAME_TRAIL) or \
        (opp_held >= 2 and opp - own >= _BACKGAME_TRAIL)


_BLITZ_BOARD = 4       # closed points of the attacker's home board against one checker on the bar


def is_blitz(board: bytes) -> bool:
    """Whether a side of ``board`` is being blitzed (either side, whoever is on
    roll): it has two or more checkers on the bar, or one against a home board
    of four or more closed points (two or more checkers each).  The nets' 0-ply
    and 2-ply underrate the attacker's gammons there (three on the bar against
    a four-point board: 33 % and 40 % gammons where a rollout finds 47 %), and a
    search inherits that, so such targets come from rollouts.

        >>> is_blitz(Position.initial()._b)
        False
        >>> is_blitz(Position.from_position_id("2LYFAHRmW6EBJA")._b)   # O: three on the bar
        True
    """
    a = np.frombuffer(board, np.int8)
    own_bar, opp_bar = int(a[25]), int(-a[0])
    own_board = int((a[1:7] >= 2).sum())            # the player on roll's home board
    opp_board = int((a[19:25] <= -2).sum())
    return own_bar >= 2 or opp_bar >= 2 or (own_bar == 1 and opp_board >= _BLITZ_BOARD) or \
        (opp_bar == 1 and own_board >= _BLITZ_BOARD)


_TRAILING_PIPS = 20    # pips the player on roll trails the race by, at least


def is_trailing(board: bytes) -> bool:
    """Whether the player on roll of a contact position (``net_class``
    ``"contact"``) trails the race by 20 pips or more: positions where the nets'
    play was found weakest against gnubg's judgement (too safe from behind;
    docs/history.md), so targets can aim at them.

        >>> is_trailing(Position.initial()._b)
        False
        >>> a = [0] * 26
        >>> a[24], a[13], a[18], a[19] = 3, 12, -12, -3    # 228 pips against 102
        >>> is_trailing(Position.from_array(a)._b), is_trailing(Position.from_array(a).swapped()._b)
        (True, False)
    """
    if net_class(board) != "contact":
        return False
    own, opp = Position._from_bytes(board).pip_counts()
    return own - opp >= _TRAILING_PIPS


def _wanted(board: bytes, wanted: frozenset[str] | None) -> bool:
    """Whether a board is of one of the ``wanted`` classes (None: any)."""
    if wanted is None or net_class(board) in wanted:
        return True
    return ("backgame" in wanted and is_backgame(board)) or \
        ("blitz" in wanted and is_blitz(board)) or \
        ("trailing" in wanted and is_trailing(board))


def sample_positions(n: int, *, seed: int, evaluator: Evaluator | None = None, explore: float = 0.1,
                     varied: float = 0.3, keep: float = 0.2,
                     classes: Collection[str] | None = None, siblings: int = 0) -> np.ndarray:
    """``n`` positions (int8 ``(n, 26)``, before the roll, the player on roll's
    view) drawn from self-play of ``evaluator`` (default: the bundled nets).

    Each game starts with an opening roll; a fraction ``varied`` of the games
    play their first 1-10 plies by pubeval or at random (to reach positions the
    nets would avoid), then every play is the nets' choice except that with
    probability ``explore`` a play among the nets' four best is taken at
    random.  Each position before a roll is kept with probability ``keep``
    (so that neighbours in one game rarely both appear), unless the game is
    over or both sides are home (the bear-off database answers those
    exactly).  ``classes`` keeps only positions of those classes
    (:func:`net_class`: ``"contact"``, ``"crashed"``, ``"race"``; and
    ``"backgame"``, :func:`is_backgame`), to aim targets at the positions the
    nets judge worst.  ``siblings`` k > 0 also
    keeps, after each kept position, the positions after the nets' k best
    plays of the roll the game goes on with (seen by the opponent, on roll
    next): the near alternatives among which the nets choose, the positions
    where a net's error changes its play (the games are the same as without).
    The same arguments give the same positions.

        >>> rows = sample_positions(3, seed=1, classes={"crashed"}, keep=0.5)
        >>> [net_class(r.tobytes()) for r in rows]
        ['crashed', 'crashed', 'crashed']
    """
    from backgammon.nn import Evaluator

    n = int(n)
    if n < 0:
        raise TrainingDataError(f"n must be >= 0, got {n}")
    if not (0 <= explore <= 1 and 0 <= varied <= 1 and 0 < keep <= 1):
        raise TrainingDataError("explore and varied are in [0, 1], keep in (0, 1]")
    if isinstance(siblings, bool) or not isinstance(siblings, (int, np.integer)) \
            or not 0 <= siblings <= 16:
        raise TrainingDataError(f"siblings must be an integer from 0 to 16, got {siblings!r}")
    wanted = None if classes is None else frozenset(classes)
    if wanted is not None and (not wanted or not wanted <= set(TARGET_CLASSES)):
        raise TrainingDataError(f"classes must be some of {', '.join(TARGET_CLASSES)}, "
                                f"got {sorted(map(str, wanted))!r}"[:200])
    nets = (evaluator if evaluator is not None else Evaluator.default())._nets
    out: list[bytes] = []
    game = 0
    while len(out) < n:
        rng = _rng(seed, game)
        game += 1
        scripted = int(rng.integers(1, 11)) if rng.random() < varied else 0
        script_mode = "pubeval" if rng.random() < 0.5 else "random"
        pos = Position.initial()
        for ply in range(_MAX_PLIES):
            kept = False
            if ply > 0 and len(out) < n and rng.random() < keep \
                    and not _bgcore.bearoff_applies(pos._b) \
                    and _wanted(pos._b, wanted):
                out.append(pos._b)
                kept = True
            dice = _roll(rng, ply == 0)
            if kept and siblings:
                out.extend(_siblings(pos, dice, nets, siblings, wanted)[:n - len(out)])
            after = _choose(pos, dice, nets, rng, explore,
                            script_mode if ply < scripted else "net")
            if after.outcome() is not None:
                break
            pos = after.swapped()
    if not out:
        return np.zeros((0, 26), np.int8)
    boards: np.ndarray = np.frombuffer(b"".join(out), np.int8).reshape(-1, 26).copy()
    return boards


def _siblings(pos: Position, dice: tuple[int, int], nets: Any, k: int,
              wanted: frozenset[str] | None) -> list[bytes]:
    """The boards after the nets' ``k`` best plays of ``dice`` (best first),
    seen by the opponent, that a net answers (not over, no bear-off database)."""
    results = pos.legal_plays(dice)._results
    if len(results) < 2:
        return []
    _, probs = nets.choose(pos._b, results)
    out = []
    for i in _best_first(probs)[:k]:
        seen = Position._from_bytes(results[i].tobytes())
        if seen.outcome() is not None:
            continue
        b = seen.swapped()._b
        if not _bgcore.bearoff_applies(b) and _wanted(b, wanted):
            out.append(b)
    return out


_SHIFT, _SHIFT2 = 2.0 ** -_bgcore.ROLLOUT_SHIFT, 2.0 ** -_bgcore.ROLLOUT_SHIFT2


def _one_target(board: bytes, seed: int, games: int, truncate: int, nets: Any,
                cancel: Any, vr: bool = False) -> tuple[np.ndarray, float]:
    # the first roll is rotated: each of its 36 choices is made once (PlayCache)
    stats = _bgcore.rollout_games(board, seed, 0, games, nets, truncate=truncate,
                                  rotation=1, vr=vr, cancel=cancel, cache=_bgcore.PlayCache())
    rows = stats.astype(np.float64).reshape(36, 36, -1).sum(axis=1)   # first roll strata
    n = rows[:, 0]
    first = 2 + 2 * (_bgcore.ROLLOUT_QUANTITIES // 2 if vr else 0)   # the luck-adjusted half
    means = np.empty(6)
    for q in range(6):                      # the five chances, then the equity
        means[q] = (rows[:, first + 2 * q] * _SHIFT / n).mean()
    # the equity's error as rollouts report it: stratified over the first roll when
    # every stratum has two games, else plain
    equity = estimate(n, rows[:, first + 10] * _SHIFT, rows[:, first + 11] * _SHIFT2,
                      bool((n >= 2).all()))
    return (_chances(means[:5]) if vr else means[:5].astype(np.float32)), equity.stderr


def _chances(p: np.ndarray) -> np.ndarray:
    """Luck-adjusted chances made consistent as targets: their means may stray
    outside [0, 1] by their error, or past the chance that contains them (a
    gammon's past its win's); plain means cannot."""
    c: np.ndarray = np.clip(p, 0.0, 1.0)
    c[1] = min(c[1], c[0])
    c[2] = min(c[2], c[1])
    c[3] = min(c[3], 1.0 - c[0])
    c[4] = min(c[4], c[3])
    return c.astype(np.float32)


def rollout_targets(boards: Any, *, seed: int, games: int = 324, truncate: int | None = 12,
                    evaluator: Evaluator | None = None, workers: int = 1,
                    variance_reduction: bool = False) -> tuple[np.ndarray, np.ndarray]:
    """Rolled-out chances of each board: ``(targets (n, 5) float32, stderr (n,)
    float32)``.  Each board is played ``games`` times by the nets (a multiple
    of 36: every first roll equally often), games still going after
    ``truncate`` plies scored by the nets' 0-ply chances (``None``: to the
    end); board ``i`` uses seed ``(seed, i)``, so the result does not depend
    on ``workers``.  ``variance_reduction`` subtracts each roll's luck as the
    nets see it (as :func:`~backgammon.rollout` does): in a race 36 such games
    give an error about twenty times smaller than 324 plain ones, in about
    twice their time.

        >>> import numpy as np, backgammon as bg
        >>> race = bg.Position.from_position_id("uwAIAHdDAAAAAA").to_array()
        >>> targets, stderr = rollout_targets([race], seed=1, games=36, truncate=None,
        ...                                   variance_reduction=True)
        >>> targets.shape, bool(stderr[0] < 0.01)
        ((1, 5), True)
    """
    from backgammon.nn import Evaluator

    rows = np.ascontiguousarray(np.asarray(boards, dtype=np.int8).reshape(-1, 26))
    if isinstance(games, bool) or not isinstance(games, (int, np.integer)) \
            or not 36 <= games <= MAX_GAMES or games % 36:
        raise TrainingDataError(f"games must be a multiple of 36 from 36 to {MAX_GAMES:,}, "
                                f"got {games!r}"[:300])
    games = int(games)
    trunc = -1 if truncate is None else int(truncate)
    nets = (evaluator if evaluator is not None else Evaluator.default())._nets
    seeds = [int(_rng(seed, i).integers(1 << 62)) for i in range(len(rows))]
    cancel = _bgcore.Cancel()

    def job(i: int) -> tuple[np.ndarray, float]:
        return _one_target(rows[i].tobytes(), seeds[i], games, trunc, nets, cancel,
                           bool(variance_reduction))

    try:
        if workers <= 1:
            done = [job(i) for i in range(len(rows))]
        else:
            with ThreadPoolExecutor(workers) as pool:
                done = list(pool.map(job, range(len(rows))))
    except BaseException:
        cancel.set()
        raise
    targets = np.array([d[0] for d in done], np.float32).reshape(-1, 5)
    stderr = np.array([d[1] for d in done], np.float32)
    return targets, stderr


def ply_targets(boards: Any, ply: int, *, evaluator: Evaluator | None = None,
                filtered: bool = False) -> np.ndarray:
    """The nets' own chances of each board at ``ply`` 0, 1 or 2: targets from
    the current nets, ``(n, 5)`` float32.  At ply 0 the nets' evaluation
    itself (microseconds a board): the targets that teach a smaller net what
    bigger ones know (the fast nets learnt from the strong nets so,
    docs/nn.md).  At ply 1 and 2 the mean over the 21 rolls of the position
    after each roll's best play, a deeper search than the nets': about 1 ms a
    board at ply 1 and 35 ms at ply 2.  ``filtered`` chooses the replies
    inside a 2-ply evaluation at ply 0, as gnubg does
    (``backgammon.evaluate``): about 5 ms a board.

        >>> import numpy as np, backgammon as bg
        >>> start = np.array([bg.Position.initial().to_array()])
        >>> ply_targets(start, 1).shape
        (1, 5)
    """
    from backgammon.nn import Evaluator, eval_ply

    if ply not in (0, 1, 2):
        raise TrainingDataError(f"ply targets are made at ply 0, 1 or 2, got {ply!r}")
    if filtered and ply != 2:
        raise TrainingDataError(f"filtered chooses the replies inside a 2-ply search: "
                                f"it needs ply 2, got ply {ply}")
    ev = evaluator if evaluator is not None else Evaluator.default()
    rows = np.ascontiguousarray(np.asarray(boards, dtype=np.int8).reshape(-1, 26))
    if not len(rows):
        return np.zeros((0, 5), np.float32)
    return np.ascontiguousarray(eval_ply(ev, rows, ply, filtered), dtype=np.float32)


IN_FLIGHT = 16
"""Chunks submitted to an executor at a time by :func:`make_targets` and
:func:`relabel_targets` (each task holds its positions and a copy of the nets)."""


def make_targets(out: str | os.PathLike[str], chunks: Iterable[int], *, seed: int,
                 chunk_positions: int = 1000, games: int = 324, truncate: int | None = 12,
                 ply: int | None = None, filtered: bool = False, explore: float = 0.1,
                 varied: float = 0.3, keep: float = 0.2, classes: Collection[str] | None = None,
                 siblings: int = 0, evaluator: Evaluator | None = None, workers: int = 1,
                 executor: Executor | None = None, in_flight: int = IN_FLIGHT,
                 log: Any = None, variance_reduction: bool = False) -> list[Path]:
    """Makes the missing chunk files ``out/chunk-NNNNNN.npz`` of ``chunks``:
    chunk ``c`` samples ``chunk_positions`` positions with seed ``(seed, c)``
    and rolls each out (:func:`rollout_targets`, with ``variance_reduction``),
    or with ``ply`` evaluates
    each at that depth (:func:`ply_targets`, with ``filtered``; ``games`` and
    ``truncate`` are then unused); ``explore``, ``varied``, ``keep``, ``classes`` and
    ``siblings`` go to :func:`sample_positions`.  Existing chunks are kept, so an interrupted run resumes
    where it stopped.  Returns the paths written.

    ``executor`` (any ``concurrent.futures`` executor, as rollouts take: a
    process pool, or ``distributed.Client(...).get_executor()`` for a Dask
    cluster) makes the chunks as its tasks, ``workers`` threads each; this
    process writes each chunk as it comes back, so the workers need no shared
    disk; at most ``in_flight`` chunks are submitted at a time (each task
    carries the nets).  A chunk's content depends only on its seed, not on
    where it ran.

        >>> import tempfile
        >>> from concurrent.futures import ThreadPoolExecutor
        >>> with ThreadPoolExecutor(2) as pool:
        ...     paths = make_targets(tempfile.mkdtemp(), range(2), seed=1, chunk_positions=2,
        ...                          ply=0, executor=pool)
        >>> [p.name for p in paths]
        ['chunk-000000.npz', 'chunk-000001.npz']
    """
    from backgammon.nn import Evaluator

    _check_executor(executor, in_flight)
    ev = evaluator if evaluator is not None else Evaluator.default()
    folder = Path(out)
    folder.mkdir(parents=True, exist_ok=True)
    todo = [(int(c), folder / f"chunk-{int(c):06d}.npz") for c in chunks]
    todo = [(c, path) for c, path in todo if not path.exists()]
    make = functools.partial(_make_chunk, seed=seed, chunk_positions=chunk_positions,
                             games=games, truncate=truncate, ply=ply, filtered=filtered,
                             explore=explore, varied=varied, keep=keep, classes=classes,
                             siblings=siblings, evaluator=ev, workers=workers,
                             variance_reduction=bool(variance_reduction))

    def done(path: Path, made: tuple[np.ndarray, np.ndarray, np.ndarray, dict[str, Any]]) -> None:
        boards, targets, stderr, meta = made
        _write_chunk(path, boards, targets, stderr, meta)
        written.append(path)
        if log is not None:
            log(f"{path.name}: {len(boards)} positions in {meta['seconds']} s, "
                f"mean stderr {float(stderr.mean()):.4f}")

    written: list[Path] = []
    if executor is None:
        for c, path in todo:
            done(path, make(c))
    else:
        _run_bounded(executor, ((path, make, (c,)) for c, path in todo), done, in_flight)
    return sorted(written)


def _check_executor(executor: Any, in_flight: Any) -> None:
    if executor is not None and not callable(getattr(executor, "submit", None)):
        raise TrainingDataError(f"executor must be a concurrent.futures.Executor, got "
                                f"{type(executor).__name__}")
    if isinstance(in_flight, bool) or not isinstance(in_flight, (int, np.integer)) \
            or in_flight < 1:
        raise TrainingDataError(f"in_flight is an integer >= 1, got {in_flight!r}"[:200])


def _run_bounded(executor: Executor, jobs: Iterable[tuple[Any, Any, tuple[Any, ...]]],
                 done: Any, in_flight: int) -> None:
    """Runs each ``(key, fn, args)`` of ``jobs`` on ``executor``, at most
    ``in_flight`` at a time (``jobs`` is read lazily: each job's inputs are
    made just before it is submitted), calling ``done(key, result)`` here as
    each finishes; on any error the jobs not yet started are cancelled."""
    todo = iter(jobs)
    pending: dict[Future[Any], Any] = {}

    def submit_next() -> None:
        job = next(todo, None)
        if job is not None:
            key, fn, args = job
            pending[executor.submit(fn, *args)] = key

    try:
        for _ in range(int(in_flight)):
            submit_next()
        while pending:
            finished, _ = wait(pending, return_when=FIRST_COMPLETED)
            for f in finished:
                done(pending.pop(f), f.result())
                submit_next()
    except BaseException:
        for f in pending:
            f.cancel()
        raise


def _make_chunk(c: int, *, seed: int, chunk_positions: int, games: int, truncate: int | None,
                ply: int | None, filtered: bool, explore: float, varied: float, keep: float,
                classes: Collection[str] | None, siblings: int, evaluator: Evaluator,
                workers: int, variance_reduction: bool = False
                ) -> tuple[np.ndarray, np.ndarray, np.ndarray, dict[str, Any]]:
    """Chunk ``c`` of :func:`make_targets`: boards, targets, stderr and meta."""
    ev = evaluator
    start = time.time()
    chunk_seed = int(_rng(seed, int(c)).integers(1 << 62))
    boards = sample_positions(chunk_positions, seed=chunk_seed, evaluator=ev,
                              explore=explore, varied=varied, keep=keep, classes=classes,
                              siblings=siblings)
    if ply is None:
        targets, stderr = rollout_targets(boards, seed=chunk_seed, games=games,
                                          truncate=truncate, evaluator=ev, workers=workers,
                                          variance_reduction=variance_reduction)
    else:
        targets = ply_targets(boards, ply, evaluator=ev, filtered=filtered)
        stderr = np.zeros(len(boards), np.float32)
    meta = {"generator": "backgammon.training.targets.make_targets", "seed": seed, "chunk": int(c),
            "chunk_seed": chunk_seed, "positions": chunk_positions,
            "method": "rollout" if ply is None else _ply_method(ply, filtered),
            "games": games if ply is None else None,
            "truncate": truncate if ply is None else None,
            **({"variance_reduction": True} if variance_reduction and ply is None else {}),
            "explore": explore, "varied": varied,
            **({} if keep == 0.2 else {"keep": keep}),
            **({} if classes is None else {"classes": sorted(classes)}),
            **({"siblings": siblings} if siblings else {}),
            "evaluator": ev.meta.get("origin", repr(ev)),
            **_screen_meta(ev),
            "made": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
            "seconds": round(time.time() - start, 1)}
    return boards, targets, stderr, meta


def _write_chunk(path: Path, boards: np.ndarray, targets: np.ndarray, stderr: np.ndarray,
                 meta: dict[str, Any]) -> None:
    """Writes a chunk whole or not at all (a temporary file renamed)."""
    tmp = path.with_suffix(".tmp")
    with open(tmp, "wb") as f:
        np.savez_compressed(f, boards=boards, targets=targets, stderr=stderr,
                            meta=np.array(json.dumps(meta)))
    os.replace(tmp, path)


def _screen_meta(ev: Any) -> dict[str, float]:
    """The screen the nets choose with, as a chunk's meta records it (none: no key;
    ``margin`` only where it has one: chunks made before margins had none)."""
    if ev.pruning is None:
        return {}
    return {"prune": ev.keep, **({"margin": ev.margin} if ev.margin else {})}


def _ply_method(ply: int, filtered: bool) -> str:
    """A chunk's ``meta["method"]`` for targets at ``ply``."""
    return f"{ply}-ply filtered" if filtered and ply == 2 else f"{ply}-ply"


def relabel_targets(source: Source, out: str | os.PathLike[str], *, ply: int | None = 1,
                    filtered: bool = False, evaluator: Evaluator | None = None,
                    executor: Executor | None = None, in_flight: int = IN_FLIGHT,
                    log: Any = None, games: int | None = None, truncate: int | None = None,
                    variance_reduction: bool = False, seed: int = 0) -> list[Path]:
    """Writes ``out/NAME`` for every chunk file ``NAME`` of ``source`` not yet
    there: the same positions with new targets, the nets' own evaluation at
    ``ply`` (:func:`ply_targets`, with ``filtered``), or with ``games`` and
    ``ply=None`` rollouts of that many games a position (:func:`rollout_targets`,
    with ``truncate`` and ``variance_reduction``; chunk file ``chunk-N.npz``
    uses seed ``(seed, N)``).  The next generation's targets from the last
    one's positions, at a fraction of the cost of sampling them again (at ply
    0, a smaller net's targets from bigger nets; luck-adjusted rollouts, labels
    far less noisy than plain ones); resumable like :func:`make_targets`, and
    like it labels on ``executor`` where one is given (one task a chunk,
    ``in_flight`` at a time; this process reads each chunk as it submits it
    and writes each as it comes back)."""
    from backgammon.nn import Evaluator

    _check_executor(executor, in_flight)
    if (ply is None) == (games is None):
        raise TrainingDataError("relabel with ply (the nets' evaluation) or games (rollouts), "
                                "one of the two")
    if games is None and (truncate is not None or variance_reduction):
        raise TrainingDataError("truncate and variance_reduction belong to rollouts: give games")
    ev = evaluator if evaluator is not None else Evaluator.default()
    folder = Path(out)
    folder.mkdir(parents=True, exist_ok=True)
    written: list[Path] = []
    label = functools.partial(_timed_targets, ply=ply, evaluator=ev, filtered=filtered,
                              games=games, truncate=truncate,
                              variance_reduction=bool(variance_reduction))
    if ply is None:
        method: dict[str, Any] = {"method": "rollout", "games": games, "truncate": truncate,
                                  "relabel_seed": seed,
                                  **({"variance_reduction": True} if variance_reduction else {})}
    else:
        method = {"method": _ply_method(ply, filtered), "games": None, "truncate": None}

    def read(src: Path) -> tuple[np.ndarray, dict[str, Any]]:
        old = read_targets(src)
        meta_src = read_npz(src, max_file=MAX_FILE, max_bytes=MAX_FILE, error=TrainingDataError,
                            what="training targets")["meta"]
        meta = json.loads(str(meta_src)) if str(meta_src).startswith("{") else {}
        return old.boards, meta

    def done(src: Path, boards: np.ndarray, meta: dict[str, Any], targets: np.ndarray,
             stderr: np.ndarray, seconds: float) -> None:
        for key in ("prune", "margin", "variance_reduction"):   # the source's; ours below
            meta.pop(key, None)
        meta.update({**_screen_meta(ev), **method, "relabelled_from": os.fspath(src),
                     "evaluator": ev.meta.get("origin", repr(ev)),
                     "made": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
                     "seconds": round(seconds, 1)})
        path = folder / src.name
        _write_chunk(path, boards, targets, stderr, meta)
        written.append(path)
        if log is not None:
            log(f"{path.name}: {len(boards)} positions relabelled in {meta['seconds']} s"
                + (f", mean stderr {float(stderr.mean()):.4f}" if ply is None else ""))

    def jobs() -> Iterator[tuple[Any, Any, tuple[Any, ...]]]:
        for src in target_files(source):
            if not (folder / src.name).exists():
                boards, meta = read(src)
                yield (src, boards, meta), label, (boards, _chunk_seed(seed, src.name))

    if executor is None:
        for key, fn, args in jobs():
            done(*key, *fn(*args))
    else:
        _run_bounded(executor, jobs(), lambda key, result: done(*key, *result), in_flight)
    return sorted(written)


def _chunk_seed(seed: int, name: str) -> int:
    """The rollouts' seed for relabelling chunk file ``name``: from ``(seed, N)``
    for ``chunk-N.npz``, else from ``seed`` and the name's CRC-32."""
    stem = name.removesuffix(".npz")
    number = stem.removeprefix("chunk-")
    return int(_rng(seed, int(number) if number.isdigit() else zlib.crc32(stem.encode()))
               .integers(1 << 62))


def _timed_targets(boards: np.ndarray, seed: int, *, ply: int | None, evaluator: Evaluator,
                   filtered: bool, games: int | None, truncate: int | None,
                   variance_reduction: bool) -> tuple[np.ndarray, np.ndarray, float]:
    """:func:`relabel_targets`' new targets of ``boards``, their errors (zero at
    a ply) and the seconds they took."""
    start = time.time()
    if ply is not None:
        targets = ply_targets(boards, ply, evaluator=evaluator, filtered=filtered)
        stderr = np.zeros(len(boards), np.float32)
    else:
        assert games is not None
        targets, stderr = rollout_targets(boards, seed=seed, games=games, truncate=truncate,
                                          evaluator=evaluator,
                                          variance_reduction=variance_reduction)
    return targets, stderr, time.time() - start
