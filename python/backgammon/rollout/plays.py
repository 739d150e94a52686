"""Roll out the candidate plays of a roll, with common dice.

:func:`rollout_plays` pre-screens the plays of a roll by evaluation, rolls each
candidate out from the mover's side and ranks them.  Every candidate plays the
same games (game ``k`` takes the same dice for every play: the same seed), so
the errors of the differences between plays are much smaller than the errors
of their equities.

    >>> import backgammon as bg
    >>> rows = bg.rollout_plays(bg.Position.initial(), (3, 1), top=2, games=72, seed=1,
    ...                         policy="pubeval")
    >>> len(rows), rows[0].difference.value, rows[0].difference.stderr
    (2, 0.0, 0.0)

How the error of a difference is found.  The core adds up the games of a
rollout per stratum (the 1,296 pairs of first two rolls), and game ``k`` of a
block of 1,296 games aligned on a multiple of 1,296 falls in a stratum of its
own.  The candidates are therefore played in such blocks (split further only
inside a block), which gives every game's result for every play: the sums of
the paired differences and of their squares per stratum.  The difference is
then estimated exactly as the equities are (the same strata and weights, so
``difference`` is the difference of the two equities), and its error is the
stratified error of the paired differences, not a bound.
"""

from __future__ import annotations

import html
import math
import os
import time
from collections.abc import Sequence
from concurrent.futures import Executor
from dataclasses import dataclass
from typing import Any, Callable, Iterable, Iterator, overload

import numpy as np

from backgammon.errors import RolloutError
from backgammon._numbers import json_int
from backgammon.position import Play, Position
from backgammon import _bgcore
from backgammon.rollout.engine import (DEFAULT_IN_FLIGHT, FIELDS, PLIES, POLICIES, SV, SV2,
                                        STRATA, G, LB, LG, W, WB, WG, Estimate, Policy,
                                        PolicyRunner, Progress, checked_seed,
                                        checked_truncation, estimate, estimation_strata,
                                        never_moves, past_budget, positive_int, read_estimate,
                                        rotation_offset, rounds, start_options, stopping_rules)
from backgammon.rollout.equity import as_position, chances

__all__ = ["CandidateRow", "PlaysRollout", "rollout_plays"]

_MAX_CANDIDATES = 64     # plays rolled out at once: gnubg's move filters keep far fewer
_ROUND_TABLES = 256      # (candidate, block) tables held per round: memory stays ~25 MB
_ZERO = Estimate(0.0, 0.0, 0.0, 0.0)
_PROBABILITIES = ("win", "win_gammon", "win_backgammon", "lose_gammon", "lose_backgammon")
# With luck adjustment or truncation the core's fixed-point sums are read into
# float64 tables of each block's games, from the mover's side: the games, then
# the sum and the sum of squares of each quantity of _PROBABILITIES + equity
# (one game per stratum in a block: its value and its square; exact, since a
# value is a multiple of 2**-ROLLOUT_SHIFT).
_XQ = len(_PROBABILITIES) + 1
_XEQ = 1 + 2 * len(_PROBABILITIES)  # the equity's sum (its squares follow)


@dataclass(frozen=True)
class CandidateRow:
    """One rolled-out play, from the side of the player who makes it.

    ``equity`` is cubeless, in points per game; ``difference`` is this play's
    equity minus the best play's (0 with error 0 for the best), its error
    from the paired games; the five probabilities are gnubg's (cumulative).
    ``ply_equity`` is the equity at ``ply`` that pre-screened the play."""

    play: Play
    equity: Estimate
    difference: Estimate
    win: Estimate
    win_gammon: Estimate
    win_backgammon: Estimate
    lose_gammon: Estimate
    lose_backgammon: Estimate
    ply_equity: float

    @property
    def probabilities(self) -> tuple[float, float, float, float, float]:
        """``(win, win_gammon, win_backgammon, lose_gammon, lose_backgammon)``."""
        return (self.win.value, self.win_gammon.value, self.win_backgammon.value,
                self.lose_gammon.value, self.lose_backgammon.value)

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready data: ``play`` as :meth:`Play.to_dict`, each estimate as
        ``{"value", "stderr", "ci95": [low, high]}``."""
        from backgammon._dicts import estimate
        return {"play": self.play.to_dict(), "ply_equity": self.ply_equity,
                "equity": estimate(self.equity), "difference": estimate(self.difference),
                **{n: estimate(getattr(self, n)) for n in _PROBABILITIES}}

    @classmethod
    def from_dict(cls, data: Any) -> CandidateRow:
        """The row :meth:`to_dict` wrote (:class:`RolloutError` names a bad field)."""
        from backgammon._dicts import Reader
        r = Reader(data, "a candidate row", RolloutError)
        try:
            play = Play.from_dict(r.get("play"))
        except ValueError as exc:
            raise RolloutError(f"a candidate row: {exc}"[:300]) from None
        return cls(play, r.estimate("equity"), r.estimate("difference"),
                   **chances(r.estimate), ply_equity=r.float("ply_equity"))

    def to_json(self) -> str:
        from backgammon._dicts import dumps
        return dumps(self.to_dict())

    @classmethod
    def from_json(cls, text: str | bytes) -> CandidateRow:
        from backgammon._dicts import loads
        return cls.from_dict(loads(text, "a candidate row", RolloutError))


@dataclass(frozen=True)
class PlaysRollout(Sequence[CandidateRow]):
    """The outcome of :func:`rollout_plays`: the rows, best first.

    ``games`` is the number of games each candidate played (the same games);
    ``stopped`` says why the rollout stopped before the games asked for, or is
    None."""

    position: Position
    dice: tuple[int, int]
    rows: tuple[CandidateRow, ...]
    games: int
    policy: str
    seed: int
    ply: int
    seconds: float
    stopped: str | None = None
    variance_reduction: bool = False
    truncate: int | None = None
    cube: str | None = None  # None: cubeless; "money" or "match": cubeful, from a Game

    @overload
    def __getitem__(self, index: int) -> CandidateRow: ...
    @overload
    def __getitem__(self, index: slice) -> tuple[CandidateRow, ...]: ...
    def __getitem__(self, index: int | slice) -> CandidateRow | tuple[CandidateRow, ...]:
        return self.rows[index]

    def __len__(self) -> int:
        return len(self.rows)

    def __iter__(self) -> Iterator[CandidateRow]:
        return iter(self.rows)

    @property
    def best(self) -> CandidateRow:
        return self.rows[0]

    def __str__(self) -> str:
        d1, d2 = self.dice
        lines = [f"Rollout of the plays of {d1}-{d2} in {self.position.position_id()}: "
                 f"{self.games:,} games each (common dice), policy {self.policy}, "
                 f"seed {self.seed}, pre-screened at {self.ply}-ply",
                 f"  {'#':>2}  {'play':<22}{'equity':>9}{'± se':>8}{'diff':>9}{'± se':>8}"
                 f"   {'win':>5} {'w g':>5} {'w bg':>5}  {'lose':>5} {'l g':>5} {'l bg':>5}"]
        for i, row in enumerate(self.rows, 1):
            text = str(row.play) or "(no move)"
            diff = (f"{'':>9}{'':>8}" if i == 1 else
                    f"{row.difference.value:>+9.4f}{row.difference.stderr:>8.4f}")
            lines.append(
                f"  {i:>2}  {text:<22}{row.equity.value:>+9.4f}{row.equity.stderr:>8.4f}{diff}"
                f"   {row.win.value:>5.3f} {row.win_gammon.value:>5.3f} "
                f"{row.win_backgammon.value:>5.3f}  {1 - row.win.value:>5.3f} "
                f"{row.lose_gammon.value:>5.3f} {row.lose_backgammon.value:>5.3f}")
        units = {None: "cubeless equities", "money": "cubeful equities per unit of the stake",
                 "match": "cubeful match winning chances"}[self.cube]
        lines.append(f"  {units} for the player on roll; {self.seconds:.2f} s")
        if self.variance_reduction:
            lines.append("  luck-adjusted: every figure has each roll's luck subtracted")
        if self.truncate is not None:
            lines.append(f"  truncated after {self.truncate} plies (scored by the evaluator)")
        if self.stopped:
            lines.append(f"  stopped early: {self.stopped}")
        return "\n".join(lines)

    def _repr_html_(self) -> str:
        from backgammon.display.svg import board

        head = ("<tr><th>#</th><th>play</th><th>equity</th><th>± se</th><th>diff</th>"
                "<th>± se</th><th>win</th><th>w g</th><th>w bg</th><th>l g</th>"
                "<th>l bg</th></tr>")
        cells = []
        for i, row in enumerate(self.rows, 1):
            diff = ("<td></td><td></td>" if i == 1 else
                    f"<td>{row.difference.value:+.4f}</td><td>{row.difference.stderr:.4f}</td>")
            probs = "".join(f"<td>{getattr(row, n).value:.3f}</td>" for n in _PROBABILITIES)
            cells.append(f"<tr><td>{i}</td><td>{html.escape(str(row.play) or '(no move)')}"
                         f"</td><td>{row.equity.value:+.4f}</td>"
                         f"<td>{row.equity.stderr:.4f}</td>{diff}{probs}</tr>")
        caption = html.escape(f"{self.dice[0]}-{self.dice[1]} in {self.position.position_id()}: "
                              f"{self.games:,} games each, policy {self.policy}, "
                              f"seed {self.seed}" + (f"; stopped early: {self.stopped}"
                                                     if self.stopped else ""))
        svg = board(self.position, dice=self.dice, size=360).svg
        return (f'<div style="display:flex;gap:1em;align-items:flex-start">'
                f'<div>{svg}</div><table><caption>{caption}</caption>{head}'
                f'{"".join(cells)}</table></div>')

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready record; :meth:`from_dict` reads it back."""
        def est(e: Estimate) -> dict[str, Any]:
            return {"value": e.value, "stderr": e.stderr, "ci95": [e.low, e.high]}

        return {
            "position_id": self.position.position_id(), "dice": list(self.dice),
            "games": self.games, "policy": self.policy, "seed": self.seed, "ply": self.ply,
            "seconds": self.seconds, "stopped": self.stopped,
            "variance_reduction": self.variance_reduction, "truncate": self.truncate,
            "cube": self.cube,
            "rows": [{"play": str(r.play), "moves": [list(m) for m in r.play.moves],
                      "ply_equity": r.ply_equity, "equity": est(r.equity),
                      "difference": est(r.difference),
                      **{n: est(getattr(r, n)) for n in _PROBABILITIES}}
                     for r in self.rows],
        }

    @classmethod
    def from_dict(cls, data: Any) -> PlaysRollout:
        """The result :meth:`to_dict` wrote; :class:`RolloutError` names a bad field."""
        if not isinstance(data, dict):
            raise RolloutError(f"a saved rollout of plays is a dict, got {type(data).__name__}")
        try:
            position = Position.from_position_id(data["position_id"])
            d1, d2 = data["dice"]
            dice = (json_int(d1, "dice"), json_int(d2, "dice"))
            rows = []
            for item in data["rows"]:
                play = Play(position, [tuple(m) for m in item["moves"]], dice)
                if str(play) != item["play"]:
                    raise ValueError(f"play {item['play']!r} is not its moves {item['moves']}")
                rows.append(CandidateRow(
                    play, read_estimate(item["equity"]), read_estimate(item["difference"]),
                    **chances(lambda name: read_estimate(item[name])),
                    ply_equity=float(item["ply_equity"])))
            stopped = data.get("stopped")
            truncate = data.get("truncate")
            return cls(position, dice, tuple(rows), json_int(data["games"], "games"),
                       str(data["policy"]), json_int(data["seed"], "seed"),
                       json_int(data["ply"], "ply"), float(data["seconds"]),
                       None if stopped is None else str(stopped),
                       bool(data.get("variance_reduction", False)),
                        None if truncate is None else json_int(truncate, "truncate"),
                        _cube_kind(data.get("cube")))
        except KeyError as exc:
            raise RolloutError(f"the saved rollout of plays has no {exc.args[0]!r}") from None
        except (TypeError, ValueError) as exc:  # BackgammonError is a ValueError
            raise RolloutError(f"the saved rollout of plays is bad: {exc}") from None


def _cube_kind(value: Any) -> str | None:
    if value not in (None, "money", "match"):
        raise ValueError(f"cube is null, 'money' or 'match', got {value!r}")
    kind: str | None = value
    return kind


def rollout_plays(position: Any, dice: Any = None, plays: Iterable[Play | str] | None = None,
                  top: int = 5, games: int = STRATA, *, ply: int = 0, policy: Policy = "net",
                  seed: int | None = None, workers: int | None = None,
                  executor: Executor | None = None,
                  progress: bool | Callable[[int, int], Any] = False,
                  stop_error: float | None = None, max_seconds: float | None = None,
                  in_flight: int = DEFAULT_IN_FLIGHT, variance_reduction: bool = False,
                  truncate: int | None = None,
                  include: Iterable[Play | str] | None = None) -> PlaysRollout:
    """Rolls out the candidate plays of ``dice`` in ``position`` and ranks them.

    ``position`` is a :class:`Position` or any spelling :func:`~backgammon.read_position`
    reads; ``dice`` two numbers or text such as ``"31"``.  It may also be a
    :class:`~backgammon.Game` whose player has rolled (its dice are used, unless
    given): then the rollouts are cubeful and match-aware, from the game's cube,
    owner, score and Crawford game (both sides play the cube by the nets' 0-ply
    decisions), and ``equity`` is the cubeful equity per unit of the stake (money) or
    the match winning chance (match); the probabilities stay cubeless.

    The candidates are ``plays`` (:class:`Play` objects or any notation
    :meth:`Position.parse_play` reads), else the ``top`` best plays at ``ply``
    by the nets (by ``policy`` when it is an :class:`~backgammon.Evaluator`),
    at most as many as there are legal plays; ``include`` (plays or notation,
    e.g. the play made in a game) are rolled out too, whatever their rank.
    Each is rolled out for
    ``games`` games with the same dice (the same ``seed``), the opponent
    rolling first, and read from the mover's side.  ``policy``, ``workers``,
    ``executor``, ``progress`` and ``in_flight`` are as in
    :func:`~backgammon.rollout`; the first two rolls are always stratified.
    ``stop_error`` stops at the end of the first round (the fixed schedule of
    :func:`~backgammon.rollout`) where the error of every difference to the
    best play is below it (with a single candidate: its equity's error);
    ``max_seconds`` is a time budget.  ``variance_reduction`` and
    ``truncate`` are as in :func:`~backgammon.rollout` (the net policy only):
    every candidate's games run through the same core path with the same seed,
    and the equities, probabilities and difference errors all come from the
    adjusted (or truncated) values of the games.  Returns a
    :class:`PlaysRollout`: rows best first, each with ``play``, ``equity`` and
    ``difference``.
    """
    from backgammon.game import Game, Phase

    game: Game | None = None
    if isinstance(position, Game):
        game = position
        if game.phase is not Phase.MOVE or game.dice is None:
            raise RolloutError("rollout_plays of a game needs its player to have rolled; "
                               f"the game is in phase {game.phase.value!r}")
        if game.steps:
            raise RolloutError("the game has steps of this turn made: undo them first")
        dice = game.dice if dice is None else dice
        pos = game.position
    else:
        pos = as_position(position)
        if dice is None:
            raise RolloutError("rollout_plays needs the dice (or a Game that rolled them)")
    if pos.outcome() is not None:
        raise RolloutError(f"the game is already over in {pos!r}")
    legal = pos.legal_plays(dice)  # two dice, or text such as "31"
    dice = legal.dice
    from backgammon.nn import Evaluator, rank_plays

    screen = rank_plays(pos, dice, ply, policy if isinstance(policy, Evaluator) else None)
    ply_equity = {r.play: r.equity for r in screen}
    if plays is None:
        top = positive_int(top, "top")
        candidates = [r.play for r in screen[:top]]
    else:
        candidates = _given_plays(pos, dice, plays)
    if include is not None:
        candidates += [p for p in _given_plays(pos, dice, include) if p not in candidates]
    if len(candidates) > _MAX_CANDIDATES:
        raise RolloutError(f"at most {_MAX_CANDIDATES} plays are rolled out at once, "
                           f"got {len(candidates)}")
    games = positive_int(games, "games")
    seed = checked_seed(int.from_bytes(os.urandom(8), "little") >> 1 if seed is None else seed)
    runner = PolicyRunner(policy, workers, executor, in_flight)
    stop_error, max_seconds = stopping_rules(stop_error, max_seconds)
    truncate = checked_truncation(truncate)
    if not isinstance(variance_reduction, bool):
        raise TypeError(f"variance_reduction is True or False, got {variance_reduction!r}")
    opts: dict[str, Any] | None = None
    cube_kind: str | None = None
    exact_value: Callable[[int], float] | None = None
    if game is not None and game.rules.cube:
        if runner.code != POLICIES["net"]:
            raise RolloutError(f"a cubeful rollout of a game needs the net policy ('net' or "
                               f"an Evaluator), got {policy!r}")
        going_on = next((p for p in legal if p.result.outcome() is None), None)
        if going_on is not None:  # any play: the cube state the opponent then rolls in
            after = game.copy()
            after.play(going_on.moves)
            opts = start_options(after, True)
            del opts["position"]
        cube_kind = "match" if game.match_length else "money"
        exact_value = _exact_cubeful(game)
    if (variance_reduction or truncate is not None or cube_kind) and opts is None:
        if runner.code != POLICIES["net"]:
            raise RolloutError("variance_reduction and truncate need the net policy ('net' or "
                               f"an Evaluator), got {policy!r}")
        # cubeless money games, the first two rolls stratified as in the plain path
        opts = start_options(pos, False)
        del opts["position"]
    if opts is not None:
        opts.update(vr=variance_reduction, rotation=2, rot_offset=rotation_offset(seed),
                    truncate=-1 if truncate is None else truncate)
    starts: list[bytes | None] = []
    exact: list[int] = []
    for play in candidates:
        done_now = play.result.outcome()
        if done_now is not None:  # the play bears off the last checker
            starts.append(None)
            exact.append(done_now.points)
            continue
        start = play.result.swapped()
        stuck = never_moves(start)
        if stuck:
            raise RolloutError(f"the game can never end after {play}: {stuck}")
        starts.append(start._b)
        exact.append(0)

    k = len(candidates)
    rolled = [i for i in range(k) if starts[i] is not None]
    tables: np.ndarray
    cross: np.ndarray
    if opts is None:
        tables = np.zeros((k, STRATA, len(FIELDS)), dtype=np.int64)  # mover's side
        cross = np.zeros((k, k, STRATA), dtype=np.int64)  # sum over games of v_a * v_b
    else:
        tables = np.zeros((k, STRATA, 1 + 2 * _XQ))
        cross = np.zeros((k, k, STRATA))
    staged = stop_error is not None or max_seconds is not None
    # memory: a round holds one table per candidate and block of 1,296 games
    # (the core's rollout tables are wider: fewer of them)
    per_round = (_ROUND_TABLES if opts is None
                 else _ROUND_TABLES * len(FIELDS) // _bgcore.ROLLOUT_FIELDS)
    most = STRATA * max(1, per_round // k)
    schedule: Iterable[tuple[int, int]] = rounds(games) if staged else (
        (f, min(most, games - f)) for f in range(0, games, most))  # lazily: any games
    parallel = runner.parallel
    bar = Progress(progress, games * max(len(rolled), 1))
    begin = time.perf_counter()
    done, stopped, rows = 0, None, None
    try:
        for first, count in schedule:
            if max_seconds is not None and done and past_budget(begin, done, count,
                                                                 max_seconds):
                stopped = f"time budget of {max_seconds:g} s reached after {done:,} games"
                break
            for part in range(first, first + count, most):
                _play_round(runner, seed, starts, exact,
                            _blocks(part, min(most, first + count - part)), parallel,
                            tables, cross, bar, opts, cube_kind, exact_value)
            done += count
            rows = _rows(candidates, tables, cross, ply_equity, opts is not None)
            if bar.shows_notes:
                worst = max((r.difference.stderr for r in rows[1:]), default=0.0)
                bar.update(0, f"best {rows[0].equity.value:+.4f}, largest diff error "
                              f"{worst:.4f}")
            if stop_error is not None and done < games:
                worst = (max(r.difference.stderr for r in rows[1:]) if k > 1
                         else rows[0].equity.stderr)
                if worst < stop_error:
                    what = "difference" if k > 1 else "equity"
                    stopped = (f"every {what} error below {stop_error:g} "
                               f"(largest {worst:.4f}) after {done:,} games")
                    break
    finally:
        bar.close()
    assert rows is not None
    return PlaysRollout(pos, dice, tuple(rows), done, runner.name, seed, ply,
                        time.perf_counter() - begin, stopped, variance_reduction, truncate,
                        cube_kind)


def _exact_cubeful(game: Any) -> Callable[[int], float]:
    """The mover's cubeful value of a play that ends ``game`` winning ``points`` (1-3)."""
    if not game.match_length:
        return lambda points: float(points)  # per unit of the stake
    from backgammon.cube import met

    from backgammon.cube.decision import game_score
    score, post = game_score(game)
    assert score is not None  # a match game has a score
    away, opp = score
    return lambda points: (1.0 if away <= points * game.cube else
                           met.equity(away - points * game.cube, opp, post_crawford=post))


def _given_plays(pos: Position, dice: tuple[int, int], plays: Iterable[Play | str]) -> list[Play]:
    if isinstance(plays, (str, Play)):
        plays = [plays]
    out: list[Play] = []
    legal = pos.legal_plays(dice)
    for item in plays:
        if isinstance(item, str):
            play = pos.parse_play(item, dice)
        elif isinstance(item, Play):
            if item not in legal:
                raise RolloutError(f"{item!r} is not a legal play of {dice[0]}-{dice[1]} in "
                                   f"{pos.position_id()}")
            play = item
        else:
            raise TypeError(f"a candidate is a Play or its notation, got {type(item).__name__}")
        if play in out:
            raise RolloutError(f"the play {play} is given twice")
        out.append(play)
    if not out:
        raise RolloutError("no plays given to roll out")
    return out


def _blocks(first: int, count: int) -> list[tuple[int, int]]:
    """The round ``first .. first + count - 1`` cut at multiples of 1,296: in
    each piece every stratum has at most one game."""
    out, k, end = [], first, first + count
    while k < end:
        stop = min((k // STRATA + 1) * STRATA, end)
        out.append((k, stop - k))
        k = stop
    return out


def _play_round(runner: PolicyRunner, seed: int, starts: list[bytes | None],
                exact: list[int], blocks: list[tuple[int, int]], parallel: int,
                tables: np.ndarray, cross: np.ndarray, bar: Progress,
                opts: dict[str, Any] | None = None, cube_kind: str | None = None,
                exact_value: Callable[[int], float] | None = None) -> None:
    """Plays the blocks of a round for every candidate and adds them to the
    mover's ``tables`` and to ``cross``, the per-stratum sums of the products
    of two candidates' points in the same game.  With ``opts`` (the keywords
    of ``_bgcore.rollout_games``) the games run through the core's rollout
    with luck adjustment or truncation, and the tables are its values."""
    rolled = [i for i, s in enumerate(starts) if s is not None]
    width = len(FIELDS) if opts is None else _bgcore.ROLLOUT_FIELDS
    per_block = np.zeros((len(blocks), len(starts), STRATA, width), dtype=np.int64)
    if rolled:
        # enough chunks for the threads, never one across a block's end
        units = len(blocks) * len(rolled)
        pieces = max(1, min(8, math.ceil(4 * parallel / units))) if parallel > 1 else 1
        jobs, where = [], []
        for b, (b_first, b_count) in enumerate(blocks):
            size = math.ceil(b_count / pieces)
            for i in rolled:
                start = starts[i]
                assert start is not None  # rolled: the candidates with a start
                for f in range(b_first, b_first + b_count, size):
                    jobs.append((start, seed, f, min(size, b_first + b_count - f)))
                    where.append((b, i))
        if opts is None:
            parts = runner.parts(jobs, True)
        else:
            parts = runner.parts_ex(jobs, opts)
        try:
            for part, (b, i), job in zip(parts, where, jobs):
                per_block[b, i] += part
                bar.update(job[3])
        finally:
            parts.close()
    if opts is not None:
        for b, (b_first, b_count) in enumerate(blocks):
            _add_values(per_block[b], starts, exact, bool(opts["vr"]),
                        _block_counts(b_first, b_count), tables, cross, cube_kind, exact_value)
        return
    for b, (b_first, b_count) in enumerate(blocks):
        table = per_block[b]
        table[rolled] = _mover_side(table[rolled])
        n = _block_counts(b_first, b_count)
        for i, points in enumerate(exact):
            if starts[i] is None:  # the play bears off the last checker: won in every game
                table[i, :, G] = table[i, :, W] = n
                table[i, :, WG] = n * (points >= 2)
                table[i, :, WB] = n * (points == 3)
                table[i, :, SV] = n * points
                table[i, :, SV2] = n * points * points
        tables += table
        v = table[:, :, SV]  # one game or none per stratum: that game's points
        cross += v[:, None, :] * v[None, :, :]


def _add_values(raw: np.ndarray, starts: list[bytes | None], exact: list[int], vr: bool,
                n: np.ndarray, tables: np.ndarray, cross: np.ndarray,
                cube_kind: str | None = None,
                exact_value: Callable[[int], float] | None = None) -> None:
    """Adds one block's fixed-point sums ``raw`` (candidate, stratum, field)
    to the float ``tables`` and ``cross``, from the mover's side.  A block has
    at most one game per stratum, so a sum is that game's value; only with
    ``truncate=0`` do all its games fall in stratum 0 (no roll is made), and
    then each is scored by the evaluator at the start: every game has the
    mean value."""
    k = len(starts)
    sums = np.zeros((k, STRATA, _XQ))
    first = 2 + 2 * (_bgcore.ROLLOUT_QUANTITIES // 2 if vr else 0)  # the luck-adjusted half
    opp = raw[..., first:first + 2 * _XQ:2] * 2.0 ** -_bgcore.ROLLOUT_SHIFT  # exact
    rolled = [i for i in range(k) if starts[i] is not None]
    games = raw[rolled[0], :, 0].astype(np.float64) if rolled else n.astype(np.float64)
    # the opponent's chances and equity, turned: the mover wins where they lose
    sums[..., 0] = games - opp[..., 0]
    sums[..., 1], sums[..., 2] = opp[..., 3], opp[..., 4]
    sums[..., 3], sums[..., 4] = opp[..., 1], opp[..., 2]
    sums[..., 5] = -opp[..., 5]
    if cube_kind is not None:  # the cubeful value (quantity 6) in place of the equity
        cf = raw[..., first + 2 * 6] * 2.0 ** -_bgcore.ROLLOUT_SHIFT
        sums[..., 5] = -cf if cube_kind == "money" else games - cf
    for i, points in enumerate(exact):
        if starts[i] is None:  # the play bears off the last checker: won in every game
            value = points if exact_value is None else exact_value(points)
            sums[i] = games[:, None] * np.array([1, points >= 2, points == 3, 0, 0, value])
    mean = sums / np.maximum(games, 1)[:, None]  # the one game's value (or every game's)
    block = np.empty_like(tables)
    block[..., 0] = games
    block[..., 1::2] = sums
    block[..., 2::2] = games[:, None] * mean * mean
    tables += block
    v = mean[..., 5]
    cross += games * v[:, None, :] * v[None, :, :]


def _mover_side(stats: np.ndarray) -> np.ndarray:
    """Statistics of rollouts with the opponent on roll, from the mover's side:
    the opponent's wins are the mover's losses, and the points change sign."""
    out = np.empty_like(stats)
    out[..., G] = stats[..., G]
    out[..., W] = stats[..., G] - stats[..., W]
    out[..., WG], out[..., WB] = stats[..., LG], stats[..., LB]
    out[..., LG], out[..., LB] = stats[..., WG], stats[..., WB]
    out[..., SV] = -stats[..., SV]
    out[..., SV2] = stats[..., SV2]
    out[..., PLIES] = stats[..., PLIES]
    return out


def _block_counts(first: int, count: int) -> np.ndarray:
    """Games per stratum among games ``first .. first + count - 1`` (stratified:
    game k's first roll is k mod 36, the reply (k // 36) mod 36)."""
    k = np.arange(first, first + count, dtype=np.int64)
    return np.bincount(36 * (k % 36) + (k // 36) % 36, minlength=STRATA)


def _rows(candidates: list[Play], tables: np.ndarray, cross: np.ndarray,
          ply_equity: dict[Play, float], values: bool = False) -> list[CandidateRow]:
    """The rows, best first; ``values``: the float tables of :func:`_add_values`."""
    est = [(_value_estimates if values else _estimates)(t) for t in tables]
    order = sorted(range(len(candidates)), key=lambda i: -est[i]["equity"].value)
    best = order[0]
    rows = []
    for i in order:
        diff = (_ZERO if i == best else _value_difference(tables, cross, i, best) if values
                else _difference(tables, cross, i, best))
        e = est[i]
        rows.append(CandidateRow(candidates[i], e["equity"], diff, **chances(e.__getitem__),
                                 ply_equity=float(ply_equity[candidates[i]])))
    return rows


def _estimates(table: np.ndarray) -> dict[str, Estimate]:
    strata, stratified = estimation_strata(table, True)
    n = strata[:, G]
    out = {name: estimate(n, strata[:, col], strata[:, col], stratified, probability=True)
           for name, col in zip(_PROBABILITIES, (W, WG, WB, LG, LB))}
    out["equity"] = estimate(n, strata[:, SV], strata[:, SV2], stratified)
    return out


def _difference(tables: np.ndarray, cross: np.ndarray, i: int, best: int) -> Estimate:
    """Play ``i``'s equity minus the best's, from the paired games: per stratum
    the sum of the differences and of their squares, in the same strata and
    weights as the equities."""
    a, b = tables[i], tables[best]
    diff = np.zeros_like(a)
    diff[:, G] = a[:, G]
    diff[:, SV] = a[:, SV] - b[:, SV]
    diff[:, SV2] = a[:, SV2] + b[:, SV2] - 2 * cross[i, best]
    strata, stratified = estimation_strata(diff, True)
    return estimate(strata[:, G], strata[:, SV], strata[:, SV2], stratified)


def _value_estimates(table: np.ndarray) -> dict[str, Estimate]:
    strata, stratified = estimation_strata(table, True)
    n = strata[:, 0]
    return {name: estimate(n, strata[:, 1 + 2 * q], strata[:, 2 + 2 * q], stratified,
                            probability=q < len(_PROBABILITIES))
            for q, name in enumerate((*_PROBABILITIES, "equity"))}


def _value_difference(tables: np.ndarray, cross: np.ndarray, i: int, best: int) -> Estimate:
    """:func:`_difference` from the float tables of :func:`_add_values`."""
    a, b = tables[i], tables[best]
    diff = np.zeros((STRATA, 3))
    diff[:, 0] = a[:, 0]
    diff[:, 1] = a[:, _XEQ] - b[:, _XEQ]
    diff[:, 2] = a[:, _XEQ + 1] + b[:, _XEQ + 1] - 2 * cross[i, best]
    strata, stratified = estimation_strata(diff, True)
    return estimate(strata[:, 0], strata[:, 1], strata[:, 2], stratified)
