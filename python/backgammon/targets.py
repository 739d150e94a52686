"""Training targets: (position, five probabilities) sets read from ``.npz`` chunks.

The format (agreed with the generators of rollout targets): an ``.npz`` with
``boards`` int8 ``(n, 26)`` (the player on roll, before rolling), ``targets``
float32 ``(n, 5)`` (win, win gammon, win backgammon, lose gammon, lose
backgammon, cumulative as the Evaluator's outputs), ``stderr`` float32
``(n,)`` and ``meta`` (a 0-d string of JSON).  A data set is one file, a
directory (every ``*.npz`` in name order) or a list of files.

    >>> import numpy as np, os, tempfile, backgammon as bg
    >>> path = os.path.join(tempfile.mkdtemp(), "chunk-000000.npz")
    >>> b = bg.Position.initial().to_array().reshape(1, 26)
    >>> t = np.array([[0.5, 0.15, 0.01, 0.14, 0.01]], np.float32)
    >>> np.savez(path, boards=b, targets=t, stderr=np.zeros(1, np.float32), meta=np.array("{}"))
    >>> read_targets(path).boards.shape
    (1, 26)
"""

from __future__ import annotations

import hashlib
import os
from dataclasses import dataclass
from pathlib import Path
from typing import Iterable, Union

import numpy as np

from backgammon import _bgcore
from backgammon._npz import read_npz
from backgammon.errors import TrainingDataError

__all__ = ["TargetSet", "read_targets"]

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
                h.update(flat[lo:lo + (1 << 24)])
        return h.hexdigest()[:32]


def target_files(source: Source) -> list[Path]:
    """The chunk files of ``source``: a file, a directory (its ``*.npz`` in
    name order) or a list of files."""
    if isinstance(source, (str, os.PathLike)):
        p = Path(source)
        if p.is_dir():
            files = sorted(f for f in p.iterdir() if f.suffix == ".npz" and f.is_file())
            if not files:
                raise TrainingDataError(f"{os.fspath(p)!r}: no .npz files in the directory")
            return files[:MAX_FILES + 1] if len(files) <= MAX_FILES else _too_many(len(files))
        return [p]
    try:
        files = [Path(f) for f in source]
    except TypeError:
        raise TrainingDataError(f"targets must be a path or a list of paths, got "
                                f"{type(source).__name__}") from None
    if not files:
        raise TrainingDataError("targets: an empty list of files")
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
