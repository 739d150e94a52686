"""Converters between OpenSpiel's backgammon (``pyspiel``) and this library.

OpenSpiel numbers its seats X = 0 and O = 1 (here player 0 and 1), rolls
the opening as one of 30 chance outcomes (``2 k`` X starts, ``2 k + 1`` O
starts, dice pair ``k`` of 12, 13, ..., 56) and later rolls as one of 36
(30 ordered non-doubles as pairs, then 11..66).  A double is two half-turn
actions of the same player.  pyspiel is needed only by :func:`to_pyspiel`;
the other converters read a state's public methods.

    >>> from backgammon.env import openspiel
    >>> openspiel.chance_dice(15, opening=True)
    ((2, 5), 1)
"""

from __future__ import annotations

from typing import Any

import numpy as np

from backgammon._show import shown
from backgammon.env.actions import openspiel_steps, play_to_openspiel
from backgammon.errors import IllegalActionError, InvalidRecordError
from backgammon.game import Game, Phase

_PAIRS = [(a, b) for a in range(1, 7) for b in range(a + 1, 7)]  # 15 pairs, low die first


def chance_dice(outcome: int, opening: bool = False) -> tuple[tuple[int, int], int | None]:
    """``((low, high), starter)`` of a chance outcome; starter only at the opening."""
    outcome = int(outcome)
    if opening:
        if not 0 <= outcome < 30:
            raise InvalidRecordError(f"an opening chance outcome is 0..29, got {outcome}")
        return _PAIRS[outcome // 2], outcome % 2
    if not 0 <= outcome < 36:
        raise InvalidRecordError(f"a chance outcome is 0..35, got {outcome}")
    if outcome >= 30:
        return (outcome - 29, outcome - 29), None
    return _PAIRS[outcome // 2], None


def dice_outcome(dice: tuple[int, int], starter: int | None = None) -> int:
    """The chance outcome of ``dice``; with ``starter`` (0 or 1) the opening's."""
    lo, hi = sorted(dice)
    if starter is not None:
        return 2 * _PAIRS.index((lo, hi)) + starter
    if lo == hi:
        return 29 + lo
    return 2 * _PAIRS.index((lo, hi))


def game_from_history(history: Any) -> Game:
    """A :class:`Game` replaying an OpenSpiel history (``state.history()``).

    A double's first half-turn is left as steps made but not committed.
    """
    actions = [int(a) for a in history]
    game = Game(rng=0)
    half = 0  # half-turns played of the current double
    first = True
    for i, a in enumerate(actions):
        try:
            if first:
                (lo, hi), starter = chance_dice(a, opening=True)
                game.roll((hi, lo) if starter == 0 else (lo, hi))
                first = False
                continue
            if game.phase is Phase.ROLL:
                (lo, hi), _ = chance_dice(a)
                game.roll((lo, hi))
                continue
            if game.phase is not Phase.MOVE:
                raise InvalidRecordError(f"action {i} ({a}) comes after the game ended")
            assert game.dice is not None
            d1, d2 = game.dice
            steps = openspiel_steps(a, (d1, d2), game.turn)
            for src, die in steps:
                game.move(src, max(src - die, 0))
            half += 1
            # a double is two half-turns, unless the first could not make two
            # steps or bore off the last checker
            if (d1 != d2 or half == 2 or len(steps) < 2
                    or game.current_position().borne_off()[0] == 15):
                game.commit()
                half = 0
        except IllegalActionError as e:
            raise InvalidRecordError(f"OpenSpiel action {i} ({a}) is not legal here: {e}") from None
    return game


def from_pyspiel(state: Any) -> Game:
    """The :class:`Game` of a pyspiel backgammon state (replayed from its history)."""
    try:
        history = state.history()
    except AttributeError:
        raise TypeError(f"state must be a pyspiel backgammon state, got {shown(state)}") from None
    return game_from_history(history)


def to_history(game: Game) -> list[int]:
    """OpenSpiel's action history of a cubeless :class:`Game`'s opening, rolls and plays."""
    hist: list[int] = []
    replay = Game(rng=0)
    for act in game.actions:
        if act.kind == "opening":
            d0, d1 = act.value
            if d0 != d1:  # OpenSpiel's opening outcomes never tie
                hist.append(dice_outcome((d0, d1), starter=0 if d0 > d1 else 1))
        elif act.kind == "roll":
            hist.append(dice_outcome(act.value))
        elif act.kind == "play":
            dice = replay.dice
            assert dice is not None
            result = replay.position.play(list(act.value), dice)
            play = next(p for p in replay.position.legal_plays(dice) if p.result == result)
            hist.extend(play_to_openspiel(play, dice, replay.turn))
        else:
            raise InvalidRecordError(f"OpenSpiel's backgammon has no {act.kind!r} action "
                                     "(no cube, no resignations)")
        replay.apply(act)
    if game.steps:
        hist.append(_first_half(game))
    return hist


def _first_half(game: Game) -> int:
    """The OpenSpiel id of the steps made but not committed: the first half-turn of a
    double (two steps), the state :func:`game_from_history` leaves it in."""
    from backgammon.env.actions import turn
    assert game.dice is not None
    d1, d2 = game.dice
    if d1 != d2 or len(game.steps) != 2:
        raise InvalidRecordError(f"OpenSpiel has no state for {len(game.steps)} step(s) made "
                                 f"of {d1}-{d2}: only a double's first two steps are a half-turn")
    want = game.current_position().to_array().tobytes()
    t0 = turn(game.position, (d1, d2), game.turn)
    for a in np.flatnonzero(t0.openspiel_mask()):
        t = t0.copy()
        t.openspiel(int(a))
        if t.board == want and len(openspiel_steps(int(a), (d1, d2))) == 2:
            return int(a)
    raise InvalidRecordError(f"the steps {list(game.steps)} of {d1}-{d2} are not the first half "
                             "of a legal play")


def to_pyspiel(game: Game) -> Any:
    """A pyspiel backgammon state reached by the game's history (needs ``open-spiel``)."""
    try:
        # OpenSpiel is optional and ships no type information
        import pyspiel  # type: ignore[import-not-found,import-untyped,unused-ignore]
    except ImportError as e:
        raise ImportError("to_pyspiel needs OpenSpiel: pip install open-spiel") from e
    state = pyspiel.load_game("backgammon").new_initial_state()
    for a in to_history(game):
        state.apply_action(a)
    return state
