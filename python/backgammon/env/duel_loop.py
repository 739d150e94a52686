"""Duels in Python for decision makers the core cannot run: nets searching at
ply 1 or 2, Bots (``choose_play(game)``) and callables that want the position
before the move and the dice.  Same duplicate-dice pairs and statistics as
the core's duels (:func:`backgammon.analysis.duel` calls this when needed).
"""

from __future__ import annotations

import inspect
from typing import Any, Callable

import numpy as np

from backgammon.errors import RolloutError
from backgammon.position import Play, Position

Chooser = Callable[[Position, tuple[int, int], int], Play]
_MAX_PLIES = 100_000


def wants_context(fn: Any) -> bool:
    """Whether a callable policy takes ``before`` / ``dice`` keywords (the new
    signature ``fn(candidates, *, before, dice)``) rather than candidates alone."""
    try:
        params = inspect.signature(fn).parameters
    except (TypeError, ValueError):
        return False
    return "before" in params or "dice" in params


def chooser(policy: Any, ply: int, rng: np.random.Generator) -> Chooser:
    """``choose(position, dice, seat) -> Play`` for a duel side."""
    from backgammon import pubeval
    from backgammon.env.bots import choose_with
    from backgammon.env.opponents import scores_choice
    from backgammon.nn import Evaluator

    if isinstance(policy, Evaluator) or policy == "net":
        ev = policy if isinstance(policy, Evaluator) else None
        return lambda pos, dice, seat: pos.best_play(dice, ply=ply, evaluator=ev)
    if policy == "pubeval":
        return lambda pos, dice, seat: pubeval.best_play(pos, dice)
    if policy == "random":
        def pick(pos: Position, dice: tuple[int, int], seat: int) -> Play:
            plays = pos.legal_plays(dice)
            return plays[int(rng.integers(len(plays)))]
        return pick
    if hasattr(policy, "choose_play"):
        return lambda pos, dice, seat: choose_with(policy, pos, dice, seat)
    if callable(policy):
        if wants_context(policy):
            def ask(pos: Position, dice: tuple[int, int], seat: int) -> Play:
                before = pos.to_array()
                return scores_choice(lambda c: policy(c, before=before, dice=dice), pos, dice)
            return ask
        return lambda pos, dice, seat: scores_choice(policy, pos, dice)
    raise RolloutError(f"unknown policy {policy!r}: use 'net', 'pubeval', 'random', "
                       "an Evaluator, a callable or a Bot")


def duel_stats(start: Position, seed: int, pairs: int, a: Chooser, b: Chooser) -> np.ndarray:
    """The core's 11 duel statistics for ``pairs`` duplicate pairs played here."""
    st = np.zeros(11, dtype=np.int64)
    for k in range(pairs):
        dice_rng = np.random.default_rng([seed, k])
        rolls: list[tuple[int, int]] = []
        total = 0
        for first in (0, 1):  # game 1: a moves first; game 2: b does
            pos, mover, ply = start, first, 0
            while True:
                while len(rolls) <= ply:
                    d = dice_rng.integers(1, 7, size=2)
                    rolls.append((int(d[0]), int(d[1])))
                dice = rolls[ply]
                play = (a if mover == 0 else b)(pos, dice, mover)
                out = play.result.outcome()
                ply += 1
                if out is not None:
                    pts = out.points if mover == 0 else -out.points
                    break
                if ply > _MAX_PLIES:
                    raise RolloutError(f"a game passed {_MAX_PLIES:,} plies without ending")
                pos, mover = play.result.swapped(), 1 - mover
            st[1] += 1
            st[10] += ply
            side = 2 if pts > 0 else 5           # a's or b's wins, gammons, backgammons
            st[side] += 1
            st[side + 1] += abs(pts) >= 2
            st[side + 2] += abs(pts) >= 3
            st[8] += pts
            total += pts
        st[0] += 1
        st[9] += total * total
    return st
