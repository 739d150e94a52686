"""Action ids and masks: Pgx's micro actions, OpenSpiel's 1,352 ids, afterstates.

A *micro* action is one checker step with one die, Pgx's ids:
``id = 6 * src + die - 1`` with Pgx's ``src`` 1 for the bar and ``26 - point``
for the mover's points 24..1 (``src`` 0, ids 0..5, is Pgx's no-op, legal
only when no step is possible).  The helpers speak the library's numbering
instead: :func:`micro_action` takes the *point* a step starts from (the
mover's 1..24, 25 = the bar) and computes Pgx's ``src`` itself, and
:func:`micro_step` gives the point back; :func:`play_to_micro` and
:func:`micro_to_play` convert whole plays, so no caller needs ``src``.  An *OpenSpiel* action is two steps (a half-turn
of a double), ``id = 676 * low_first + a + 26 * b`` in OpenSpiel's absolute
positions (X: ``24 - point``, O: ``point - 1``, 24 = the bar, 25 = no
step); the first step uses the higher die unless ``low_first``.  Masks are
computed in the core from the move generator (venv.h) and always describe
exactly its legal plays.

    >>> import backgammon as bg
    >>> from backgammon.env import actions
    >>> m = actions.micro_mask(bg.Position.initial(), (6, 5))
    >>> [actions.micro_step(i) for i in m.nonzero()[0]][:3]
    [(24, 6), (13, 5), (13, 6)]
    >>> actions.micro_action(24, 6)        # point 24 is Pgx's src 2: 6 * 2 + 6 - 1
    17
    >>> pos = bg.Position.initial()
    >>> ids = actions.play_to_micro(pos.parse_play("8/5 6/5", (3, 1)), (3, 1))
    >>> [actions.micro_step(i) for i in ids]
    [(8, 3), (6, 1)]
    >>> str(actions.micro_to_play(pos, (3, 1), ids))
    '8/5 6/5'
"""

from __future__ import annotations

from typing import Any, Iterable, Sequence

import numpy as np

from backgammon import _bgcore
from backgammon._show import shown
from backgammon.errors import IllegalActionError, IllegalPlayError
from backgammon.position import Play, Position

ROLLS: tuple[tuple[tuple[int, int], float], ...] = tuple(
    ((hi, lo), (1 if hi == lo else 2) / 36) for hi in range(1, 7) for lo in range(1, hi + 1))
"""The 21 distinct rolls (higher die first) with their probabilities: a chance node's
outcomes for search (1/36 for a double, 2/36 otherwise).  A chosen roll is played
with ``env.reset(options={"game": Game.from_position(position, dice=roll)})``."""

MICRO_ACTIONS = _bgcore.MICRO_ACTIONS      # 156
OPENSPIEL_ACTIONS = _bgcore.OPENSPIEL_ACTIONS  # 1352
OPENSPIEL_PASS = OPENSPIEL_ACTIONS - 1     # 1351: a half-turn without a step


def _seat(player: Any) -> int:
    if isinstance(player, bool) or player not in (0, 1):
        raise IllegalActionError(f"player is seat 0 or 1, got {shown(player)}")
    return int(player)


def turn(position: Position, dice: Any, player: int = 0) -> _bgcore.Turn:
    """A turn in progress in the core (``_bgcore.Turn``): steps, masks, encodings."""
    d1, d2 = _bgcore.parse_dice(dice)
    return _bgcore.Turn(position.to_array().tobytes(), _seat(player), d1, d2)


def micro_action(point: int, die: int) -> int:
    """The micro id of the step from the mover's ``point`` (1..24, 25 = the bar)
    with ``die`` 1..6: ``6 * (26 - point) + die - 1`` (Pgx's ``src`` is
    ``26 - point``).  Not a legality check (see :func:`micro_mask`).

        >>> micro_action(25, 3), micro_action(1, 1)   # bar (src 1), the 1 point (src 25)
        (8, 150)
    """
    for name, v, hi in (("point", point, 25), ("die", die, 6)):
        if isinstance(v, (bool, np.bool_)) or not isinstance(v, (int, np.integer)) \
                or not 1 <= v <= hi:
            raise IllegalActionError(f"a micro step starts on a point 1..25 (25 = the bar) "
                                     f"with a die 1..6; {name} is {shown(v)}")
    return int(_bgcore.micro_id(int(point), int(die)))


def micro_step(action: int) -> tuple[int | None, int]:
    """``(point, die)`` of a micro id (the point in the mover's numbering, 25 =
    the bar); ``(None, die)`` for a no-op (ids 0..5).

        >>> micro_step(8), micro_step(0)
        ((25, 3), (None, 1))
    """
    if isinstance(action, (bool, np.bool_)) or not isinstance(action, (int, np.integer)) \
            or not 0 <= action < MICRO_ACTIONS:
        raise IllegalActionError(f"a micro action id is an integer 0..{MICRO_ACTIONS - 1}, "
                                 f"got {shown(action)}")
    return _bgcore.micro_decode(int(action))


def play_to_micro(play: Play, dice: Any) -> list[int]:
    """The micro ids that make ``play`` of ``dice`` step by step, each legal in
    turn under the masks (the lowest such sequence); ``[]`` for a play without
    a step.  The mover is player 0 (micro ids do not depend on the seat).

        >>> import backgammon as bg
        >>> play = bg.Position.initial().parse_play("24/18(2) 13/7(2)", (6, 6))
        >>> [micro_step(i) for i in play_to_micro(play, (6, 6))]
        [(24, 6), (24, 6), (13, 6), (13, 6)]
    """
    if not isinstance(play, Play):
        raise IllegalActionError(f"play must be a Play, got {shown(play)}")
    d1, d2 = _bgcore.parse_dice(dice)
    if play not in play.position.legal_plays((d1, d2)):
        raise IllegalPlayError(f"{play} is not a legal play of {d1}-{d2} in {play.position!r}")
    if not play.moves:
        return []
    want = play.result.to_array().tobytes()
    seen: set[tuple[bytes, tuple[int, ...]]] = set()

    def search(t: Any) -> list[int] | None:
        if t.need == 0:
            return [] if t.board == want else None
        for a in np.flatnonzero(t.micro_mask()):
            nxt = t.copy()
            nxt.micro(int(a))
            key = (nxt.board, nxt.left)
            if key in seen:
                continue
            seen.add(key)
            rest = search(nxt)
            if rest is not None:
                return [int(a)] + rest
        return None

    found = search(turn(play.position, (d1, d2)))
    if found is None:  # pragma: no cover - the masks reach every legal play (tested)
        raise AssertionError(f"no micro path to {play}")
    return found


def micro_to_play(position: Position, dice: Any, ids: Iterable[int]) -> Play:
    """The :class:`Play` that micro ``ids`` make from ``position`` with ``dice``
    (all the turn's steps, each legal in turn); :class:`IllegalActionError`
    naming the first id that is not."""
    d1, d2 = _bgcore.parse_dice(dice)
    t = turn(position, (d1, d2))
    for i, a in enumerate(ids):
        micro_step(a)   # an id at all
        if t.need == 0 or not t.micro_mask()[int(a)]:
            raise IllegalActionError(f"micro id {int(a)} ({i + 1}. step) is not legal now with "
                                     f"{d1}-{d2} in {position!r}")
        t.micro(int(a))
    if t.need > 0:
        raise IllegalActionError(f"the micro ids leave {t.need} step(s) of {d1}-{d2} to play")
    result = Position.from_array(np.frombuffer(t.board, dtype=np.int8))
    return next(p for p in position.legal_plays((d1, d2)) if p.result == result)


def micro_mask(position: Position, dice: Any, played: Iterable[tuple[int, int]] = ()) -> np.ndarray:
    """bool ``(156,)``: the micro ids legal now, after the ``(src, die)`` steps ``played``."""
    t = turn(position, dice)
    for src, die in played:
        if not t.step(src, die):
            raise IllegalPlayError(f"the step ({src}, {die}) is not legal here: {position!r}")
    return t.micro_mask()


def openspiel_mask(position: Position, dice: Any, player: int = 0) -> np.ndarray:
    """bool ``(1352,)``: OpenSpiel ids of the first half-turn legal now."""
    return turn(position, dice, player).openspiel_mask()


def afterstate_mask(position: Position, dice: Any, max_candidates: int) -> np.ndarray:
    """bool ``(max_candidates,)``: the first ``len(position.legal_plays(dice))`` set."""
    n = len(position.legal_plays(dice))
    if n > max_candidates:
        raise IllegalActionError(f"{n} distinct plays exceed max_candidates={max_candidates}")
    m = np.zeros(max_candidates, dtype=bool)
    m[:n] = True
    return m


def openspiel_steps(action: int, dice: Any, player: int = 0) -> tuple[tuple[int, int], ...]:
    """The ``(src, die)`` steps of an OpenSpiel id (without checking legality)."""
    d1, d2 = _bgcore.parse_dice(dice)
    action = int(action)
    if not 0 <= action < OPENSPIEL_ACTIONS:
        raise IllegalActionError(f"an OpenSpiel action is 0..{OPENSPIEL_ACTIONS - 1}, got {action}")
    low_first, rest = divmod(action, 676)
    hi, lo = max(d1, d2), min(d1, d2)
    dice_order = (lo, hi) if low_first else (hi, lo)
    steps = []
    for digit, die in zip((rest % 26, rest // 26), dice_order):
        if digit != 25:
            steps.append((_bgcore.openspiel_src(_seat(player), digit), die))
    return tuple(steps)


def play_to_openspiel(play: Play, dice: Any, player: int = 0) -> list[int]:
    """OpenSpiel's ids for ``play`` of ``dice`` by seat ``player``: one id, or
    two for a double whose first half-turn makes two steps without ending
    the game (OpenSpiel then asks for a second half, possibly the pass 1351).

    Of the ids that make the same play the lowest is returned.
    """
    if not isinstance(play, Play):
        raise IllegalActionError(f"play must be a Play, got {shown(play)}")
    d1, d2 = _bgcore.parse_dice(dice)
    if play not in play.position.legal_plays((d1, d2)):
        raise IllegalPlayError(f"{play} is not a legal play of {d1}-{d2} in {play.position!r}")
    want = play.result.to_array().tobytes()
    t0 = turn(play.position, (d1, d2), player)
    for a in np.flatnonzero(t0.openspiel_mask()):
        t1 = t0.copy()
        t1.openspiel(int(a))
        if not _second_half(int(a), (d1, d2), t1):
            if t1.board == want:
                return [int(a)]
            continue
        for b in np.flatnonzero(t1.openspiel_mask()):
            t2 = t1.copy()
            t2.openspiel(int(b))
            if t2.board == want:
                return [int(a), int(b)]
    raise AssertionError("a legal play is always reachable by legal half-turns")


def _second_half(first: int, dice: tuple[int, int], t: Any) -> bool:
    """Whether OpenSpiel asks for a second half-turn after ``first``: only in a
    double whose first half made two steps and did not end the game."""
    if dice[0] != dice[1] or len(openspiel_steps(first, dice)) < 2:
        return False
    return any(v > 0 for v in np.frombuffer(t.board, dtype=np.int8)[1:])


def openspiel_to_play(position: Position, dice: Any, actions: Sequence[int], player: int = 0) -> Play:
    """The :class:`Play` that OpenSpiel ids ``actions`` (one, two for a double) make."""
    d1, d2 = _bgcore.parse_dice(dice)
    actions = [int(a) for a in actions]
    t = turn(position, (d1, d2), player)
    halves = 1
    for i, a in enumerate(actions):
        if i >= 2 or not t.openspiel(a):
            raise IllegalActionError(f"OpenSpiel action {a} is not legal now with {d1}-{d2} "
                                     f"in {position!r}")
        if i == 0 and _second_half(a, (d1, d2), t):
            halves = 2
    if len(actions) != halves:
        raise IllegalActionError(f"this turn of {d1}-{d2} is {halves} OpenSpiel action(s), "
                                 f"got {len(actions)}")
    result = Position.from_array(np.frombuffer(t.board, dtype=np.int8))
    return next(p for p in position.legal_plays((d1, d2)) if p.result == result)
