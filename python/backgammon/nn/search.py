"""The n-ply search of the nets: :func:`evaluate`, :func:`rank_plays` and
:func:`best_play` at ply 0, 1 or 2, gnubg-style move filters, and the batched
evaluation of many boards at a ply (:func:`eval_ply`) that the cube search,
analysis and training targets build on.

    >>> import backgammon as bg
    >>> str(bg.Position.initial().best_play((3, 1), ply=1))
    '8/5 6/5'
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Iterable, NamedTuple

import numpy as np

from backgammon import _bgcore
from backgammon.errors import BackgammonError
from backgammon.nn.evaluator import SEARCH_KEEP, Evaluation, Evaluator, as_position, position_rows
from backgammon.position import Play, Position

__all__ = ["FILTERS", "MoveFilter", "RankedPlay", "best_play", "checked_ply", "eval_ply",
           "evaluate", "rank_plays", "search_screen"]


class RankedPlay(NamedTuple):
    """A play with its cubeless ``equity`` for the player who makes it, and
    ``evaluation``: the five probabilities of the resulting position for that
    player (the opponent then rolls), found at ``ply``."""

    play: Play
    equity: float
    evaluation: Evaluation
    ply: int

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready data: ``play`` and ``evaluation`` as their own ``to_dict``."""
        return {"play": self.play.to_dict(), "equity": self.equity,
                "evaluation": self.evaluation.to_dict(), "ply": self.ply}

    @classmethod
    def from_dict(cls, data: Any) -> RankedPlay:
        """The ranked play :meth:`to_dict` wrote (:class:`~backgammon.InvalidRecordError` if not)."""
        from backgammon._dicts import Reader
        r = Reader(data, "a ranked play")
        return cls(Play.from_dict(r.get("play")), r.float("equity", -3.0, 3.0),
                   Evaluation.from_dict(r.get("evaluation")), r.int("ply", 0))

    def to_json(self) -> str:
        from backgammon._dicts import dumps
        return dumps(self.to_dict())

    @classmethod
    def from_json(cls, text: str | bytes) -> RankedPlay:
        from backgammon._dicts import loads
        return cls.from_dict(loads(text, "a ranked play"))


def evaluate(position: Position | str | Iterable[int], ply: int = 0,
             evaluator: Evaluator | None = None, filtered: bool | None = None) -> Evaluation:
    """The evaluation of ``position`` for the player on roll, before rolling,
    by the bundled nets (or ``evaluator``).

    ``ply`` 0 is the net itself; ply ``n`` is the mean over the 21 rolls
    (non-doubles counting twice) of the position after the best play of each
    roll, evaluated at ply ``n - 1`` (gnubg's n-ply).  At ply 2 the best play
    of a roll is chosen at ply 0, as gnubg's own n-ply evaluations do
    (``filtered``, the default); ``filtered=False`` chooses it at ply 1 among
    the 8 best at ply 0, the exhaustive search (about 8 times the work;
    docs/nn.md).

        >>> import backgammon as bg
        >>> bg.evaluate(bg.Position.initial()).win > 0.4
        True
    """
    ev = evaluator if evaluator is not None else Evaluator.default()
    ply = checked_ply(ply)
    pos = as_position(position)
    return Evaluation._from_row(eval_ply(ev, position_rows(pos), ply, _filters(ply, filtered))[0])


def rank_plays(position: Position, dice: Any, ply: int = 0,
               evaluator: Evaluator | None = None,
               filtered: bool | None = None) -> list[RankedPlay]:
    """Every legal play of ``dice`` with its equity, best first (ties keep
    the order of :meth:`Position.legal_plays`).  At ply 0 the first is the
    play the net policy makes in rollouts and duels.  At ply 1 or 2 the 8
    best plays at ply 0 are evaluated again at ``ply`` and ranked first; the
    rest keep their ply-0 equity (``RankedPlay.ply`` says which).

    ``filtered`` uses gnubg-style move filters (:data:`FILTERS`): only the
    plays within a margin of the best go deeper, level by level.  At ply 1
    the 8 best within 0.16 of the best at ply 0 are evaluated at ply 1; at
    ply 2 those are screened at ply 1 and the 2 best within 0.04 go on to
    ply 2, where the replies inside each evaluation are chosen at ply 0, as
    in gnubg.  ``None`` (the default) filters at ply 2 and not at ply 1; at
    ply 2 ``filtered=False`` is the exhaustive search, tens of times the
    work for a little more accuracy (docs/nn.md, "Move filters").

        >>> import backgammon as bg
        >>> ranked = bg.Position.initial().rank_plays((3, 1), ply=2)
        >>> str(ranked[0].play), ranked[0].ply
        ('8/5 6/5', 2)
    """
    return _ranked(position, dice, ply, evaluator, _filters(ply, filtered))


def _ranked(position: Position, dice: Any, ply: int, evaluator: Evaluator | None,
            filtered: bool, first_only: bool = False) -> list[RankedPlay]:
    """:func:`rank_plays`; ``first_only`` gives its first play alone, and stops
    the filters' levels where one play is left (it leads the ranking whatever
    its deeper value)."""
    ev = evaluator if evaluator is not None else Evaluator.default()
    ply = checked_ply(ply)
    pos = as_position(position)
    plays = pos.legal_plays(dice)
    results = plays._results
    pick, probs = ev._nets.choose(pos._b, results)
    order = _mover_order(probs, int(pick))
    ranked = [(int(i), probs[i], 0) for i in order]
    if ply > 0 and not filtered:
        top = order[:_PRUNE]
        again = eval_ply(ev, _swapped_rows(results[top]), ply)
        ranked = _sorted_at(top, again, ply) + ranked[len(top):]
    elif ply > 0:
        for level in range(1, ply + 1):
            f = FILTERS[level - 1]
            # the plays ranked at the level below, best first
            below = [r for r in ranked if r[2] == level - 1]
            best = float(_mover_equity(np.asarray(below[0][1], np.float32).reshape(1, 5))[0])
            eqs = _mover_equity(np.array([r[1] for r in below], np.float32))
            top = [r[0] for r, e in zip(below[:f.keep], eqs[:f.keep]) if e >= best - f.margin]
            if first_only and len(top) == 1:
                break
            again = eval_ply(ev, _swapped_rows(results[top]), level, filtered=True)
            done = {i for i in top}
            deeper = [r for r in ranked if r[2] >= level]
            ranked = deeper + _sorted_at(top, again, level) + [
                r for r in ranked if r[2] < level and r[0] not in done]
    out = []
    for i, p, at in ranked[:1] if first_only else ranked:
        mover = Evaluation._from_row(_flip(np.asarray(p, np.float32).reshape(1, 5))[0])
        out.append(RankedPlay(plays[i], mover.equity, mover, at))
    return out


def _sorted_at(top: list[int], probs: np.ndarray, ply: int) -> list[tuple[int, np.ndarray, int]]:
    """(index, probabilities, ply) of plays ``top``, best first (stable)."""
    rows = [(int(i), probs[k], ply) for k, i in enumerate(top)]
    eq = _mover_equity(np.array([r[1] for r in rows], np.float32).reshape(-1, 5))
    return [rows[k] for k in np.argsort(-eq, kind="stable")]


def best_play(position: Position, dice: Any, ply: int = 0,
              evaluator: Evaluator | None = None, filtered: bool | None = None) -> Play:
    """The best play of ``dice`` by the nets at ``ply`` (see :func:`rank_plays`,
    whose move filters it takes by default at ply 2): its first play, found
    without the deeper look at a play the filters leave alone.

        >>> import backgammon as bg
        >>> str(bg.Position.initial().best_play((6, 5), ply=2))
        '24/13'
    """
    return _ranked(position, dice, ply, evaluator, _filters(ply, filtered),
                   first_only=True)[0].play


def _filters(ply: int, filtered: bool | None) -> bool:
    """Whether a search at ``ply`` filters: ``filtered`` as given, by default
    at ply 2 only (gnubg's 2-ply always filters; at ply 1 the 8 best go deeper)."""
    if filtered is None:
        return ply == 2
    if not isinstance(filtered, (bool, np.bool_)):
        raise BackgammonError(f"filtered must be True, False or None, got {filtered!r}")
    return bool(filtered)


_PRUNE = 8  # plays a roll keeps for a deeper look (gnubg's move filters do the same)


@dataclass(frozen=True)
class MoveFilter:
    """Of the plays ranked at one ply, at most ``keep``, and only those within
    ``margin`` (cubeless equity) of the best, are evaluated one ply deeper."""

    keep: int
    margin: float


FILTERS = (MoveFilter(8, 0.16), MoveFilter(2, 0.04))
"""The filters of ``filtered=True``: from ply 0 to 1, and from ply 1 to 2
(gnubg's published defaults for its 2-ply are of this kind)."""
_ROLLS = np.array([(a, b) for a in range(1, 7) for b in range(a, 7)], np.uint8)
_WEIGHTS = np.array([1.0 if a == b else 2.0 for a, b in _ROLLS], np.float64) / 36.0


def checked_ply(ply: Any) -> int:
    """``ply`` checked: 0, 1 or 2 (shared with benchmark.py)."""
    if isinstance(ply, bool) or not isinstance(ply, (int, np.integer)) or not 0 <= ply <= 2:
        raise BackgammonError(f"ply must be 0, 1 or 2, got {ply!r}")
    return int(ply)


def _flip(p: np.ndarray) -> np.ndarray:
    """The other player's view of rows of five probabilities."""
    return np.stack([1.0 - p[:, 0], p[:, 3], p[:, 4], p[:, 1], p[:, 2]], axis=1).astype(p.dtype)


def _mover_equity(p: np.ndarray) -> np.ndarray:
    """The mover's equity of rows of the opponent's probabilities, in float32
    and in the order of the core's bg_equity, so that ranks match its choice."""
    p = p.astype(np.float32)
    eq: np.ndarray = (np.float32(2.0) * p[:, 0] - np.float32(1.0) + p[:, 1] - p[:, 3]
                      + p[:, 2] - p[:, 4])
    return -eq


def _mover_order(probs: np.ndarray, pick: int) -> list[int]:
    order = [int(i) for i in np.argsort(-_mover_equity(probs), kind="stable")]
    if order[0] != pick:  # the core's choice leads (equal equities: the first)
        order.remove(pick)
        order.insert(0, pick)
    return order


def _swapped_rows(results: np.ndarray) -> np.ndarray:
    """Rows seen by the player who moved -> seen by the opponent, now on roll."""
    return np.ascontiguousarray(-results[:, ::-1])


def search_screen(ev: Evaluator) -> Evaluator:
    """``ev`` with its screen narrowed to :data:`SEARCH_KEEP` plays, as the
    replies inside a search choose (``ev`` itself where it keeps no more, or
    has no screen); made once an evaluator.

        >>> wide = Evaluator.default().with_pruning(keep=8)
        >>> wide.keep, search_screen(wide).keep, search_screen(wide) is search_screen(wide)
        (8, 3, True)
        >>> search_screen(Evaluator.default()) is Evaluator.default()   # keeps 3 already
        True
    """
    if ev.pruning is None or ev.keep <= SEARCH_KEEP:
        return ev
    narrow = ev._narrow
    if narrow is None:   # two threads may both build one: equal, and either is kept
        narrow = ev._narrow = ev._screened(ev.pruning, SEARCH_KEEP, ev.margin)
    return narrow


def eval_ply(ev: Evaluator, boards: np.ndarray, ply: int, filtered: bool = False) -> np.ndarray:
    """(m, 5) float32 evaluations at ``ply`` of boards (player on roll).  At
    ply 2 each roll's reply is chosen at ply 1 among the 8 best at ply 0
    (``filtered``: chosen at ply 0, as gnubg's evaluations choose the replies
    inside them, and valued at ply 1).  Replies chosen at ply 0 are screened
    keeping at most :data:`SEARCH_KEEP` plays (:func:`search_screen`).  A board
    that comes more than once (the same reply to different plays) is searched
    once."""
    boards = np.ascontiguousarray(boards, dtype=np.int8)
    if ply == 0 or not len(boards):
        return ev._nets.evaluate(boards)
    if len(boards) > 1:
        distinct, inverse = np.unique(boards, axis=0, return_inverse=True)
        if len(distinct) < len(boards):
            return eval_ply(ev, distinct, ply, filtered)[inverse.reshape(-1)]
    # both sides still have checkers; a finished board gets its exact value
    playing = (boards > 0).any(axis=1) & (boards < 0).any(axis=1)
    live = np.flatnonzero(playing)
    out = np.empty((len(boards), 5), np.float32)
    if len(live) < len(boards):
        done = np.flatnonzero(~playing)
        out[done] = ev._nets.evaluate(np.ascontiguousarray(boards[done]))
    if not len(live):
        return out
    m = len(live)
    befores = np.repeat(boards[live], len(_ROLLS), axis=0)
    dice = np.tile(_ROLLS, (m, 1))
    results, offsets = _bgcore.batch_successors(befores, dice)
    if ply == 1 or filtered:   # only the chosen replies count: a screen may apply
        picks, chosen = search_screen(ev)._nets.choose_groups(befores, results, offsets,
                                                               best_only=True)
        if ply > 1:  # gnubg's internal nodes: the 0-ply choice, valued one ply less deep
            chosen = eval_ply(ev, _swapped_rows(results[picks]), ply - 1)
    else:
        picks, probs = ev._nets.choose_groups(befores, results, offsets)
        groups = len(befores)
        counts = np.diff(offsets)
        gid = np.repeat(np.arange(groups), counts)
        eq = _mover_equity(probs)
        # each group's plays best first (ties: the generator's order), as argsort(stable)
        order = np.lexsort((-eq, gid))
        rank = np.arange(len(order)) - offsets[gid[order]]
        keep = rank < _PRUNE
        rows = order[keep]                     # grouped, best first within each group
        owner = gid[rows]
        deeper = eval_ply(ev, _swapped_rows(results[rows]), ply - 1)
        deq = _mover_equity(deeper)
        # per group the first (best at ply 0) of the highest deeper equity
        pick = np.lexsort((np.arange(len(rows)), -deq, owner))
        first = pick[np.r_[True, owner[pick][1:] != owner[pick][:-1]]]
        chosen = deeper[first]
    mover = _flip(chosen).astype(np.float64).reshape(m, len(_ROLLS), 5)
    out[live] = np.einsum("mrk,r->mk", mover, _WEIGHTS).astype(np.float32)
    return out
