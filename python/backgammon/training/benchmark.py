"""The strength benchmark: how much equity a move chooser loses against rolled-out references.

A *position set* holds decisions: the position before a move (seen by the
player on roll), the dice, and every distinct legal play with a reference
equity for the mover (cubeless, from rollouts made by this library;
benchmarks/strength/README.md says how).  A chooser's **error rate** on a set
is the mean equity it loses per decision against the reference best play,
times 1000 (gnubg's "mEMG per move" at money play, cubeless), with its
standard error, and the share of decisions where it picks the reference best.

    >>> import backgammon as bg
    >>> from backgammon import benchmark
    >>> pos = bg.Position.initial()
    >>> plays = pos.legal_plays((3, 1))
    >>> eq = [0.2 if str(p) == "8/5 6/5" else 0.0 for p in plays]
    >>> s = benchmark.PositionSet.from_decisions("demo", [(pos, (3, 1), eq)])
    >>> r = benchmark.error_rate("pubeval", {"demo": s})["demo"]
    >>> r.decisions, r.error, r.best_share
    (1, 0.0, 1.0)

Three sets are the yardstick (``benchmarks/strength/``): **contact**,
**crashed** (contact, and one side has at most 6 checkers left in play, on
the board or the bar) and **race** (no contact); see :func:`position_class`.
:func:`gate` says whether a new generation of nets lands.
"""

from __future__ import annotations

import json
import math
import os
import zipfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Iterable, Mapping, Union

import numpy as np

from backgammon import _bgcore
from backgammon import pubeval as _pubeval
from backgammon.batch import batch_successors, board_rows
from backgammon.errors import BackgammonError, InvalidBenchmarkError
from backgammon.position import Play, Position

__all__ = ["CLASSES", "ErrorRate", "GateResult", "PositionSet", "combined", "default_sets_dir",
           "error_rate", "gate", "load_sets", "picks", "position_class"]

CLASSES = ("contact", "crashed", "race")
CRASHED_IN_PLAY = 6
"""A contact position is crashed when one side has at most this many checkers
left in play (on the board or the bar: 15 minus those borne off)."""
FORMAT = "backgammon-strength-set"
VERSION = 1
MAX_FILE = 64 << 20        # bytes: a set of thousands of decisions is a few MB
MAX_DECISIONS = 1_000_000
_KEYS = ("boards", "dice", "offsets", "results", "equities", "stderr")

Chooser = Union[str, Any, Callable[[Position, tuple[int, int]], Any]]
"""``"net"`` (the bundled nets), ``"pubeval"``, an :class:`~backgammon.Evaluator`,
or a callable ``f(position, dice)`` returning the chosen :class:`Play` or
its resulting :class:`Position`."""


def position_class(position: Position | bytes) -> str:
    """``"race"`` (no contact), ``"crashed"`` (contact, and one side has at
    most 6 checkers left in play: on the board or the bar) or ``"contact"``.

        >>> import backgammon as bg
        >>> position_class(bg.Position.initial())
        'contact'
    """
    b = position if isinstance(position, bytes) else _as_position(position)._b
    if _bgcore.is_race(b):
        return "race"
    a = np.frombuffer(b, np.int8)
    mine, theirs = int(a[a > 0].sum()), int(-a[a < 0].sum())
    return "crashed" if min(mine, theirs) <= CRASHED_IN_PLAY else "contact"


@dataclass(frozen=True, eq=False)
class PositionSet:
    """Decisions with reference equities (read by :meth:`load` or :func:`load_sets`).

    Decision ``i`` is ``boards[i]`` (before the move, the player on roll
    positive) with ``dice[i]``; its plays are the rows
    ``results[offsets[i]:offsets[i + 1]]``, exactly
    :func:`~backgammon.batch_successors`'s (the order of
    :meth:`Position.legal_plays`; seen by the mover), with the mover's
    reference ``equities`` and ``stderr``, the standard error of each play's
    difference to the reference best (0 for the best; NaN for a play given
    only a cheap estimate).  ``meta`` is the provenance."""

    name: str
    boards: np.ndarray
    dice: np.ndarray
    offsets: np.ndarray
    results: np.ndarray
    equities: np.ndarray
    stderr: np.ndarray
    meta: dict[str, Any] = field(default_factory=dict)

    def __post_init__(self) -> None:
        # checked on every construction: the core trusts these rows
        arrays = _checked_arrays({k: getattr(self, k) for k in _KEYS}, self.name)
        for k, v in arrays.items():
            object.__setattr__(self, k, v)
        object.__setattr__(self, "name", str(self.name))
        if not isinstance(self.meta, dict):
            raise InvalidBenchmarkError(f"{self.name}: meta must be a dict")

    def __len__(self) -> int:
        return len(self.boards)

    def __repr__(self) -> str:
        return f"<PositionSet {self.name}: {len(self)} decisions, {len(self.results)} plays>"

    @property
    def best(self) -> np.ndarray:
        """``(n,)`` row index (into ``results``) of each decision's reference
        best play (the first among equal equities)."""
        return _group_argmax(self.equities, self.offsets)

    def losses(self, picks: np.ndarray) -> np.ndarray:
        """``(n,)`` equity lost by choosing rows ``picks`` (absolute indices)."""
        lost: np.ndarray = self.equities[self.best] - self.equities[picks]
        return lost

    def subset(self, index: Any) -> PositionSet:
        """The decisions ``index`` (a slice, or integers in any order) as a new set.

            >>> import backgammon as bg
            >>> pos = bg.Position.initial()
            >>> s = PositionSet.from_decisions("x", [(pos, (3, 1), [0.0] * 16),
            ...                                      (pos, (6, 5), [0.0] * 7)])
            >>> len(s.subset([1])), len(s.subset([1]).results)
            (1, 7)
        """
        idx = np.arange(len(self))[index] if isinstance(index, slice) else np.asarray(index)
        if idx.dtype.kind not in "iu" or idx.ndim != 1:
            raise TypeError("index is a slice or a 1-d array of integers")
        if (idx < -len(self)).any() or (idx >= len(self)).any():
            raise IndexError(f"a decision index is out of range ({len(self)} decisions)")
        idx = idx % len(self)
        rows = np.concatenate([np.arange(self.offsets[i], self.offsets[i + 1]) for i in idx]
                              ) if len(idx) else np.zeros(0, np.int64)
        counts = np.diff(self.offsets)[idx]
        offsets = np.concatenate([[0], np.cumsum(counts)]).astype(np.int64)
        return PositionSet(self.name, self.boards[idx], self.dice[idx], offsets,
                           self.results[rows], self.equities[rows], self.stderr[rows],
                           dict(self.meta))

    def position(self, i: int) -> tuple[Position, tuple[int, int]]:
        """Decision ``i`` as a :class:`Position` and its dice."""
        return (Position._from_bytes(self.boards[i].tobytes()),
                (int(self.dice[i, 0]), int(self.dice[i, 1])))

    @classmethod
    def from_decisions(cls, name: str,
                       decisions: Iterable[tuple[Position, Any, Iterable[float]]],
                       stderr: Iterable[Iterable[float]] | None = None,
                       meta: Mapping[str, Any] | None = None) -> PositionSet:
        """A set of ``(position, dice, equities)``, the equities in the order
        of ``position.legal_plays(dice)``, one for every play."""
        boards, dice, eqs = [], [], []
        for pos, roll, eq in decisions:
            pos = _as_position(pos)
            plays = pos.legal_plays(roll)
            boards.append(pos.to_array())
            dice.append(plays.dice)
            e = np.asarray(list(eq), np.float64)
            if e.shape != (len(plays),):
                raise InvalidBenchmarkError(f"decision {len(boards) - 1}: {len(plays)} plays "
                                            f"but {e.size} equities")
            eqs.append(e)
        if not boards:
            raise InvalidBenchmarkError("a position set needs at least one decision")
        b = np.array(boards, np.int8)
        d = np.array(dice, np.uint8)
        results, offsets = batch_successors(b, d)
        equities = np.concatenate(eqs)
        se = (np.zeros(len(results)) if stderr is None
              else np.concatenate([np.asarray(list(s), np.float64) for s in stderr]))
        return cls(name, b, d, offsets, results, equities, se, dict(meta or {}))

    # ------------------------------------------------------------------
    # Files

    def save(self, path: str | os.PathLike[str]) -> None:
        """Writes the set as a compressed ``.npz`` (no pickles)."""
        with open(path, "wb") as f:
            np.savez_compressed(
                f, format=np.array(FORMAT), version=np.array(str(VERSION)),
                name=np.array(self.name), meta=np.array(json.dumps(self.meta)),
                boards=self.boards, dice=self.dice, offsets=self.offsets,
                results=self.results, equities=self.equities.astype(np.float32),
                stderr=self.stderr.astype(np.float32))

    @classmethod
    def load(cls, path: str | os.PathLike[str]) -> PositionSet:
        """Reads a file written by :meth:`save`; anything else raises
        :class:`InvalidBenchmarkError` naming what was wrong."""
        where = os.fspath(path)
        try:
            size = os.path.getsize(path)
        except OSError as exc:
            raise InvalidBenchmarkError(f"cannot read position set {where!r}: {exc}") from None
        if size > MAX_FILE:
            raise InvalidBenchmarkError(f"{where!r} is {size} bytes: too large for a position "
                                        f"set (at most {MAX_FILE})")
        try:
            z = np.load(path, allow_pickle=False)
            if not hasattr(z, "files"):  # a bare .npy array
                raise ValueError("not an .npz archive")
            with z:
                data = {k: z[k] for k in z.files}
        except (OSError, ValueError, zipfile.BadZipFile, EOFError) as exc:
            raise InvalidBenchmarkError(f"{where!r} is not a position set: {exc}") from None

        def text(key: str) -> str:
            a = data.get(key)
            if a is None or a.dtype.kind != "U" or a.shape != ():
                raise InvalidBenchmarkError(f"{where}: missing or bad {key!r}")
            return str(a)

        if text("format") != FORMAT:
            raise InvalidBenchmarkError(f"{where}: not a {FORMAT} file")
        if text("version") != str(VERSION):
            raise InvalidBenchmarkError(f"{where}: version {text('version')}, this library "
                                        f"reads {VERSION}")
        try:
            meta = json.loads(text("meta"))
        except json.JSONDecodeError as exc:
            raise InvalidBenchmarkError(f"{where}: meta is not JSON: {exc}") from None
        if not isinstance(meta, dict):
            raise InvalidBenchmarkError(f"{where}: meta must be a JSON object")
        missing = [k for k in _KEYS if k not in data]
        if missing:
            raise InvalidBenchmarkError(f"{where}: missing arrays {', '.join(missing)}")
        try:
            return cls(text("name"), boards=data["boards"], dice=data["dice"],
                       offsets=data["offsets"], results=data["results"],
                       equities=data["equities"], stderr=data["stderr"], meta=meta)
        except InvalidBenchmarkError as exc:
            raise InvalidBenchmarkError(f"{where} (set {exc})") from None


def _checked_arrays(data: Mapping[str, Any], where: str) -> dict[str, np.ndarray]:
    """The arrays of a set, checked and normalised (InvalidBenchmarkError)."""
    missing = [k for k in _KEYS if k not in data]
    if missing:
        raise InvalidBenchmarkError(f"{where}: missing arrays {', '.join(missing)}")
    boards, dice, offsets, results, equities, stderr = (np.asarray(data[k]) for k in _KEYS)
    for key, a, kinds in (("boards", boards, "i"), ("dice", dice, "iu"),
                          ("offsets", offsets, "iu"), ("results", results, "i"),
                          ("equities", equities, "f"), ("stderr", stderr, "f")):
        if a.dtype.kind not in kinds:
            raise InvalidBenchmarkError(f"{where}: {key} has dtype {a.dtype}")
    n = len(boards)
    if not 1 <= n <= MAX_DECISIONS:
        raise InvalidBenchmarkError(f"{where}: {n} decisions, from 1 to {MAX_DECISIONS} "
                                    "allowed")
    if boards.shape != (n, 26) or dice.shape != (n, 2) or offsets.shape != (n + 1,):
        raise InvalidBenchmarkError(
            f"{where}: boards (n, 26), dice (n, 2) and offsets (n + 1,) needed, got "
            f"{boards.shape}, {dice.shape} and {offsets.shape}")
    m = len(results)
    if results.shape != (m, 26) or equities.shape != (m,) or stderr.shape != (m,):
        raise InvalidBenchmarkError(
            f"{where}: results (m, 26), equities (m,) and stderr (m,) needed, got "
            f"{results.shape}, {equities.shape} and {stderr.shape}")
    if offsets[0] != 0 or offsets[-1] != m or (np.diff(offsets) < 1).any():
        raise InvalidBenchmarkError(f"{where}: offsets must rise from 0 to {m}, every "
                                    "decision with at least one play")
    if not np.isfinite(equities).all() or (np.abs(equities) > 3).any():
        raise InvalidBenchmarkError(f"{where}: equities must be finite, within -3..3")
    if (stderr < 0).any():
        raise InvalidBenchmarkError(f"{where}: a negative standard error")
    try:
        b8 = board_rows(boards)
        want, want_offsets = batch_successors(b8, dice)
    except BackgammonError as exc:
        raise InvalidBenchmarkError(f"{where}: {exc}") from None
    if (want_offsets.shape != offsets.shape or (want_offsets != offsets).any()
            or want.shape != results.shape or (want != results).any()):
        bad = _first_bad_decision(want, want_offsets, results, offsets)
        raise InvalidBenchmarkError(f"{where}: decision {bad}: the plays are not the "
                                    "legal plays of its board and dice")
    return {"boards": b8, "dice": np.ascontiguousarray(dice, np.uint8),
            "offsets": np.ascontiguousarray(offsets, np.int64), "results": want,
            "equities": equities.astype(np.float64), "stderr": stderr.astype(np.float64)}


def _first_bad_decision(want: np.ndarray, want_offsets: np.ndarray, results: np.ndarray,
                        offsets: np.ndarray) -> int:
    for i in range(len(want_offsets) - 1):
        a, b = want[want_offsets[i]:want_offsets[i + 1]], results[offsets[i]:offsets[i + 1]]
        if a.shape != b.shape or (a != b).any():
            return i
    return len(want_offsets) - 2  # pragma: no cover (the arrays differ somewhere)


def default_sets_dir() -> Path | None:
    """The bundled position sets (``backgammon/data/strength``, shipped in the
    wheel; made by ``benchmarks/strength/generate.py`` of a checkout), or None
    where a packager left them out.

        >>> sorted(p.name for p in default_sets_dir().glob("*.npz"))
        ['contact.npz', 'crashed.npz', 'race.npz']
    """
    d = Path(__file__).resolve().parent.with_name("data") / "strength"
    if all((d / f"{c}.npz").is_file() for c in CLASSES):
        return d
    return None


def load_sets(where: str | os.PathLike[str] | None = None) -> dict[str, PositionSet]:
    """The position sets of a directory (``contact.npz``, ``crashed.npz``,
    ``race.npz``, else every ``*.npz`` in name order) or of one file, keyed by
    name.  Without ``where``: the bundled sets (:func:`default_sets_dir`)."""
    if where is None:
        where = default_sets_dir()
        if where is None:
            raise InvalidBenchmarkError("no position sets found: this install has no bundled "
                                        "sets (backgammon/data/strength); pass a directory")
    path = Path(where)
    if path.is_dir():
        files = [path / f"{c}.npz" for c in CLASSES if (path / f"{c}.npz").is_file()]
        files = files or sorted(path.glob("*.npz"))
        if not files:
            raise InvalidBenchmarkError(f"{os.fspath(path)!r} holds no .npz position sets")
    else:
        files = [path]
    out: dict[str, PositionSet] = {}
    for f in files:
        s = PositionSet.load(f)
        if s.name in out:
            raise InvalidBenchmarkError(f"two position sets named {s.name!r} in {os.fspath(path)!r}")
        out[s.name] = s
    return out


# ----------------------------------------------------------------------
# Scoring


@dataclass(frozen=True)
class ErrorRate:
    """A chooser's score on one set: ``error`` is the mean equity lost per
    decision x 1000 and ``stderr`` its standard error (over the decisions);
    ``best_share`` the fraction of decisions where it chose the reference
    best; ``losses`` the equity lost at each decision (for paired
    comparisons of two choosers on the same set)."""

    set: str
    decisions: int
    error: float
    stderr: float
    best_share: float
    losses: np.ndarray = field(repr=False, compare=False)

    def __str__(self) -> str:
        return (f"{self.set:<8} {self.decisions:>6,} decisions: error rate {self.error:6.2f} "
                f"± {self.stderr:4.2f}, best play {100 * self.best_share:5.1f} %")


def picks(choose: Chooser, pset: PositionSet, ply: int = 0) -> np.ndarray:
    """``(n,)`` rows of ``pset.results`` that ``choose`` plays (see :data:`Chooser`).

    The nets at ply 0 choose every decision in one core call
    (``choose_groups``: incremental first layer, no Python per decision);
    pubeval scores all plays in two calls."""
    from backgammon.nn import Evaluator, checked_ply, rank_plays

    ply = checked_ply(ply)
    if isinstance(choose, str):
        if choose == "net":
            choose = Evaluator.default()
        elif choose == "pubeval":
            if ply:
                raise ValueError("pubeval has no plies: use ply 0")
            return _pubeval_picks(pset)
        else:
            raise ValueError(f"unknown chooser {choose!r}: use 'net', 'pubeval', an "
                             "Evaluator or a callable")
    if isinstance(choose, Evaluator):
        if ply == 0:
            out, _ = choose._nets.choose_groups(pset.boards, pset.results, pset.offsets)
            return np.asarray(out, np.int64)
        ev = choose
        choose = lambda pos, dice: rank_plays(pos, dice, ply, ev)[0].play  # noqa: E731
    elif ply:
        raise ValueError("ply applies to nets: a callable chooses by itself")
    if not callable(choose):
        raise TypeError(f"a chooser is 'net', 'pubeval', an Evaluator or a callable, got "
                        f"{type(choose).__name__}")
    out = np.empty(len(pset), np.int64)
    for i in range(len(pset)):
        pos, dice = pset.position(i)
        got = choose(pos, dice)
        res = got.result if isinstance(got, Play) else got
        if not isinstance(res, Position):
            raise TypeError(f"the chooser returned {type(got).__name__}, not a Play or Position")
        lo, hi = int(pset.offsets[i]), int(pset.offsets[i + 1])
        hit = np.flatnonzero((pset.results[lo:hi] == res.to_array()).all(axis=1))
        if not hit.size:
            raise BackgammonError(f"the chooser's play at decision {i} of {pset.name} "
                                  f"({pos.position_id()} {dice[0]}{dice[1]}) is not legal")
        out[i] = lo + int(hit[0])
    return out


def _pubeval_picks(pset: PositionSet) -> np.ndarray:
    """pubeval's choice at every decision (its race flag is the position's
    before the move, ties to the first play: :func:`backgammon.pubeval.best_play`)."""
    race = np.array([_bgcore.is_race(b.tobytes()) for b in pset.boards])
    per_row = np.repeat(race, np.diff(pset.offsets))
    scores = np.empty(len(pset.results))
    for flag in (False, True):
        rows = np.flatnonzero(per_row == flag)
        if rows.size:
            _pubeval.install()
            scores[rows] = _bgcore.pubeval_scores(np.ascontiguousarray(pset.results[rows]),
                                                  int(flag))
    return _group_argmax(scores, pset.offsets)


def _group_argmax(values: np.ndarray, offsets: np.ndarray) -> np.ndarray:
    """The first row of the largest value in each group (absolute indices)."""
    starts = offsets[:-1]
    top = np.maximum.reduceat(values, starts)
    rows = np.arange(len(values))
    at_top = np.where(values == np.repeat(top, np.diff(offsets)), rows, len(values))
    first: np.ndarray = np.minimum.reduceat(at_top, starts)
    return first


def error_rate(choose: Chooser, sets: Any = None, *, ply: int = 0) -> dict[str, ErrorRate]:
    """The error rate of ``choose`` on each position set, keyed by set name.

    ``sets``: a mapping of names to :class:`PositionSet` (as
    :func:`load_sets` returns), one set, a list of sets, or a path for
    :func:`load_sets` (None: the checkout's ``benchmarks/strength``).
    ``ply`` is the depth at which nets choose (0: one batched core call per
    set; 1 and 2: :func:`~backgammon.Position.rank_plays` per decision).

        >>> import backgammon as bg
        >>> from backgammon import benchmark
        >>> pos = bg.Position.initial()
        >>> eq = [0.1 * (i == 0) for i in range(len(pos.legal_plays((6, 5))))]
        >>> s = benchmark.PositionSet.from_decisions("one", [(pos, (6, 5), eq)])
        >>> r = benchmark.error_rate(lambda p, d: p.legal_plays(d)[0], s)["one"]
        >>> r.error, r.best_share
        (0.0, 1.0)
    """
    out = {}
    for s in _as_sets(sets):
        loss = s.losses(picks(choose, s, ply))
        n = len(loss)
        sd = float(np.std(loss, ddof=1)) if n > 1 else 0.0
        out[s.name] = ErrorRate(s.name, n, 1000.0 * float(loss.mean()),
                                1000.0 * sd / math.sqrt(n), float((loss <= 0).mean()), loss)
    return out


def _as_sets(sets: Any) -> list[PositionSet]:
    if sets is None or isinstance(sets, (str, os.PathLike)):
        return list(load_sets(sets).values())
    if isinstance(sets, PositionSet):
        return [sets]
    if isinstance(sets, Mapping):
        sets = list(sets.values())
    found = list(sets)
    if not found or not all(isinstance(s, PositionSet) for s in found):
        raise TypeError("sets are PositionSet objects, a mapping of them or a path")
    return found


def combined(rates: Mapping[str, ErrorRate]) -> ErrorRate:
    """One error rate over every decision of the sets (each decision weighs the same)."""
    loss = np.concatenate([r.losses for r in rates.values()])
    n = len(loss)
    sd = float(np.std(loss, ddof=1)) if n > 1 else 0.0
    return ErrorRate("all", n, 1000.0 * float(loss.mean()), 1000.0 * sd / math.sqrt(n),
                     float((loss <= 0).mean()), loss)


# ----------------------------------------------------------------------
# The gate between generations


@dataclass(frozen=True)
class GateResult:
    """:func:`gate`'s verdict: ``lands`` when the new nets' error rate over
    all sets is lower than the old nets' and their duel against them is
    positive.  ``difference`` is new minus old error rate (x 1000) over the
    same decisions with its paired standard error; ``duel`` the
    :class:`~backgammon.DuelResult` (new nets as ``a``); ``differing`` the
    decisions where the two lose different equity (choose plays of different
    value): the paired difference rests on these alone, and between close
    nets they are few."""

    lands: bool
    new: dict[str, ErrorRate]
    old: dict[str, ErrorRate]
    difference: float
    difference_stderr: float
    duel: Any
    differing: int = 0

    def __str__(self) -> str:
        lines = ["set      decisions   new error rate   old error rate"]
        for name in self.new:
            a, b = self.new[name], self.old[name]
            lines.append(f"{name:<8} {a.decisions:>9,}   {a.error:6.2f} ± {a.stderr:4.2f}"
                         f"    {b.error:6.2f} ± {b.stderr:4.2f}")
        p = self.duel.ppg
        total = sum(r.decisions for r in self.new.values())
        lines.append(f"error rate new - old: {self.difference:+.2f} ± {self.difference_stderr:.2f}"
                     f" (paired, all decisions; they differ on {self.differing:,} of {total:,})")
        lines.append(f"duel new vs old: {p.value:+.4f} ppg ± {p.stderr:.4f} "
                     f"({self.duel.games:,} games, duplicate dice, seed {self.duel.seed})")
        lines.append("lands: yes" if self.lands else "lands: no")
        return "\n".join(lines)


def gate(new: Any, old: Any, sets: Any = None, *, pairs: int = 5000, seed: int = 15,
         workers: int | None = None) -> GateResult:
    """Whether nets ``new`` should replace ``old`` (each an
    :class:`~backgammon.Evaluator`, a path to one, or ``"net"``, ``"fast"`` or
    ``"strong"`` for the bundled ones): the error
    rate over every decision of ``sets`` (see :func:`error_rate`) must drop,
    and a duplicate-dice duel of ``pairs`` pairs (``seed``) of ``new``
    against ``old`` must be positive.  Both figures come with their standard
    errors; the verdict uses the point values, so size ``pairs`` and the
    sets for the difference you mean to see."""
    from backgammon.analysis.duel import duel

    new_ev, old_ev = _nets(new), _nets(old)
    loaded = _as_sets(sets)
    a = error_rate(new_ev, loaded)
    b = error_rate(old_ev, loaded)
    diff = combined(a).losses - combined(b).losses
    n = len(diff)
    d_se = 1000.0 * float(np.std(diff, ddof=1)) / math.sqrt(n) if n > 1 else 0.0
    result = duel(new_ev, old_ev, games=2 * pairs, seed=seed, workers=workers)
    d = 1000.0 * float(diff.mean())
    return GateResult(d < 0 and result.ppg.value > 0, a, b, d, d_se, result,
                      int(np.count_nonzero(diff)))


def _nets(x: Any) -> Any:
    from backgammon.nn import Evaluator

    if isinstance(x, Evaluator):
        return x
    if isinstance(x, (str, os.PathLike)):
        return Evaluator.named(x)
    raise TypeError(f"nets are an Evaluator, a path to a .npz, or 'net', 'fast' or 'strong' "
                    f"(the bundled ones), got {type(x).__name__}")


def _as_position(position: Any) -> Position:
    if isinstance(position, Position):
        return position
    if isinstance(position, str):
        return Position.from_position_id(position)
    return Position.from_array(position)
