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

import os
import time
from concurrent.futures import Executor
from dataclasses import MISSING, dataclass, field, fields, replace
from typing import TYPE_CHECKING, Any, Callable, TypedDict

import numpy as np

from backgammon import _bgcore
from backgammon.rollout.engine import (FIELDS, PLIES, POLICIES, SV, SV2, STRATA, G, LB, LG,
                                        W, WB, WG, PolicyRunner, Progress, checked_seed,
                                        checked_truncation, chunks, estimate,
                                        estimation_strata, never_moves, past_budget,
                                        positive_int, rotation_offset, rounds, start_options,
                                        stopping_rules)
from backgammon.rollout.engine import DEFAULT_IN_FLIGHT, Estimate, Policy
# kept importable from here, where users and pickled chunks have found them
from backgammon.rollout.engine import read_estimate as read_estimate
from backgammon.rollout.engine import run_chunk as run_chunk  # noqa: F401
from backgammon.rollout.engine import run_chunk_ex as run_chunk_ex  # noqa: F401
from backgammon.errors import RolloutError
from backgammon.position import Position

if TYPE_CHECKING:
    from backgammon.game import Game

__all__ = ["Estimate", "RolloutError", "RolloutResult", "rollout", "read_position", "Policy"]

# Below this ratio of standard errors the summary says stratifying gained
# nothing: from one position a gain of a few percent is within what the
# error estimates themselves vary from seed to seed.
_MEASURABLE_GAIN = 1.05


class Chances(TypedDict):
    """The five chances by name: a ``**`` of this type-checks as keyword
    arguments under mypy --strict, where one of a ``dict[str, Estimate]`` does not.
    Public within the package (candidates uses it), not in ``__all__``."""

    win: Estimate
    win_gammon: Estimate
    win_backgammon: Estimate
    lose_gammon: Estimate
    lose_backgammon: Estimate


def chances(get: Callable[[str], Estimate]) -> Chances:
    """The five chances, each ``get(name)`` in the fields' order: the one place
    that spells them out for ``RolloutResult(..., **chances(get))`` and its like."""
    return Chances(win=get("win"), win_gammon=get("win_gammon"),
                   win_backgammon=get("win_backgammon"), lose_gammon=get("lose_gammon"),
                   lose_backgammon=get("lose_backgammon"))


@dataclass(frozen=True)
class RolloutResult:
    """The outcome of :func:`rollout`, from the side of the player on roll.

    ``policy`` names what played: ``"pubeval"``, ``"random"``, a callable's
    name, or nets by :attr:`Evaluator.policy_name <backgammon.Evaluator.policy_name>`
    (``"net"`` for the bundled nets, ``"net(FILE)"`` for nets read from FILE).

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
            chunk_games: int | None = None, in_flight: int = DEFAULT_IN_FLIGHT,
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
    setup = _start(position, cube)
    pos = setup.pop("position")
    if not isinstance(no_double, bool):
        raise TypeError(f"no_double is True or False, got {no_double!r}")
    if no_double and not cube:
        raise RolloutError("no_double is a cube choice: give cube=True with it")
    setup["no_double"] = no_double
    if pos.outcome() is not None:
        raise RolloutError(f"the game is already over in {pos!r}")
    games = positive_int(games, "games")
    if seed is None:
        seed = int.from_bytes(os.urandom(8), "little") >> 1
    seed = checked_seed(seed)
    play = PolicyRunner(policy, workers, executor, in_flight)
    if chunk_games is not None:
        chunk_games = positive_int(chunk_games, "chunk_games")
    if rotation is None:
        rotation = 2 if stratify else 0
    elif isinstance(rotation, bool) or not isinstance(rotation, (int, np.integer)) \
            or not 0 <= rotation <= 3:
        raise RolloutError(f"rotation is 0, 1, 2 or 3 (rolls scheduled), got {rotation!r}")
    elif not stratify and rotation:
        raise RolloutError("stratify=False schedules no rolls: leave rotation out or give 0")
    rotation = int(rotation)
    truncate = checked_truncation(truncate)
    if not isinstance(variance_reduction, bool):
        raise TypeError(f"variance_reduction is True or False, got {variance_reduction!r}")
    extended = bool(cube or variance_reduction or truncate is not None or rotation in (1, 3))
    if extended and play.code != POLICIES["net"]:
        raise RolloutError("cube, variance_reduction, truncate and rotation 1 or 3 need the "
                           f"net policy ('net' or an Evaluator), got {policy!r}")
    stop_error, max_seconds = stopping_rules(stop_error, max_seconds)
    stuck = never_moves(pos)
    if stuck:
        raise RolloutError(f"the game can never end: {stuck} in {pos!r}")
    staged = stop_error is not None or max_seconds is not None
    schedule = rounds(games) if staged else [(0, games)]

    def finish(done: int, seconds: float) -> RolloutResult:
        if not extended:
            return _result(pos, done, play.name, seed, stratify, stats, seconds)
        return _result_ex(pos, done, play.name, seed, rotation, stats, seconds,
                          cube=bool(cube), match=setup["score"] is not None,
                          vr=variance_reduction, truncate=truncate)

    bar = Progress(progress, games)
    start = time.perf_counter()
    stats = np.zeros((STRATA, len(FIELDS)), dtype=np.int64)
    done, stopped = 0, None
    try:
        if extended:
            opts = dict(setup, vr=variance_reduction, rotation=rotation,
                        truncate=-1 if truncate is None else truncate,
                        rot_offset=rotation_offset(seed))
            stats = np.zeros((STRATA, _bgcore.ROLLOUT_FIELDS), dtype=np.int64)
        for first, count in schedule:
            if max_seconds is not None and done and past_budget(start, done, count, max_seconds):
                stopped = f"time budget of {max_seconds:g} s reached after {done:,} games"
                break
            pieces = chunks(count, play.workers, play.executor, chunk_games)  # lazily
            jobs = ((pos._b, seed, first + f, c) for f, c in pieces)
            parts = play.parts_ex(jobs, opts) if extended else play.parts(jobs, stratify)
            try:
                for part in parts:
                    stats += part
                    c = int(part[:, G].sum())  # every game of a chunk is counted (column 0)
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


def _equity_note(stats: np.ndarray, stratify: bool) -> str:
    strata, stratified = estimation_strata(stats, stratify)
    n = strata[:, G]
    if n.sum() < 2:
        return ""
    eq = estimate(n, strata[:, SV], strata[:, SV2], stratified)
    return f"equity {eq.value:+.4f} \u00b1 {eq.stderr:.4f}"


def _start(position: Any, cube: Any) -> dict[str, Any]:
    """:func:`start_options` of a Game or of any spelling of a position (the
    ``cube`` flag checked before the spelling is read)."""
    from backgammon.game import Game

    if isinstance(cube, bool) and not isinstance(position, Game):
        position = as_position(position)
    return start_options(position, cube)


def as_position(position: Any) -> Position:
    """A :class:`Position`, any spelling :func:`read_position` reads (its
    position), or a board array (:meth:`Position.from_array`) as a Position."""
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
    where = read_game_or_position(text)
    if isinstance(where, Position):
        return where, None
    return where.position, where.dice


def read_game_or_position(text: str) -> Game | Position:
    """What a spelling records: a GNUbgID or an XGID as its
    :class:`~backgammon.Game` (position, dice, cube, owner, score, Crawford
    game), a gnubg Position ID as its :class:`Position` (how ``backgammon cube``
    reads its argument).

        >>> read_game_or_position("XGID=-b----E-C---eE---c-e----B-:1:1:1:52:0:0:0:0:10").cube
        2
        >>> read_game_or_position("4HPwATDgc/ABMA") == Position.initial()
        True
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
        return Game.from_xgid(body)
    if ":" in body or body.startswith("GNUbgID"):
        return Game.from_gnubg_id(body)
    return Position.from_position_id(body)


def _from_dict(cls: type[RolloutResult], data: Any) -> RolloutResult:
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
                kwargs["strata"] = np.zeros((0, len(FIELDS)), dtype=np.int64)
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
                if value.shape not in ((STRATA, len(FIELDS)),
                                       (STRATA, _bgcore.ROLLOUT_FIELDS)):
                    raise ValueError(f"shape {value.shape}, not ({STRATA}, {len(FIELDS)}) "
                                     f"or ({STRATA}, {_bgcore.ROLLOUT_FIELDS})")
            elif isinstance(value, dict) and "value" in value:
                value = read_estimate(value)
        except (TypeError, ValueError, OverflowError) as exc:
            raise RolloutError(f"the saved rollout's {key!r} is bad: {exc}") from None
        kwargs[f.name] = value
    return cls(**kwargs)


def _result(pos: Position, games: int, policy: str, seed: int, stratify: bool,
            stats: np.ndarray, seconds: float) -> RolloutResult:
    strata, stratified = estimation_strata(stats, stratify)
    n = strata[:, G]
    est: dict[str, Estimate] = {}
    for name, col in (("win", W), ("win_gammon", WG), ("win_backgammon", WB),
                      ("lose_gammon", LG), ("lose_backgammon", LB)):
        s = strata[:, col]
        est[name] = estimate(n, s, s, stratified, probability=True)
    sv, sv2 = strata[:, SV], strata[:, SV2]
    est["equity"] = estimate(n, sv, sv2, stratified)
    plain = estimate(n, sv, sv2, False)
    return RolloutResult(
        position=pos, games=games, policy=policy, seed=seed, stratified=stratified,
        unstratified_stderr=plain.stderr, seconds=seconds,
        mean_plies=float(stats[:, PLIES].sum()) / games, strata=stats,
        rotation=2 if stratify else 0, equity=est["equity"], **chances(est.__getitem__))


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
        return estimate(n, rows[:, 2 + 2 * q] * scale, rows[:, 3 + 2 * q] * scale2, strat,
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
        rotation=rotation, equity=values["equity"], **chances(values.__getitem__))
