"""Argument checks shared by the environments: seeds, action ids and the games
``reset(options={"game": g})`` starts from.

    >>> from backgammon.env._checks import action_id, seed_value
    >>> seed_value(7), action_id(3, 156)
    (7, 3)
"""

from __future__ import annotations

from typing import Any

import numpy as np

from backgammon._show import shown
from backgammon.errors import IllegalActionError, InvalidSetupError
from backgammon.game import Game, Phase

SEED_LIMIT = 2 ** 64   # the core seeds its dice streams with 64 bits


def seed_value(seed: Any) -> int:
    """``seed`` checked (an integer 0 .. 2**64 - 1), or a fresh one for None.

    Larger seeds are refused rather than wrapped: 2**64 would otherwise play the
    games of seed 0.
    """
    if seed is None:
        return int(np.random.SeedSequence().generate_state(1, np.uint64)[0])
    if isinstance(seed, (bool, np.bool_)) or not isinstance(seed, (int, np.integer)) \
            or not 0 <= seed < SEED_LIMIT:
        raise InvalidSetupError(f"seed is an integer 0 .. 2**64 - 1 or None, got {shown(seed)}"
                                [:300])
    return int(seed)


def action_id(action: Any, n: int) -> int:
    """``action`` as an id 0..n-1: a Python or numpy integer, or a 0-d integer array
    (what a policy's ``predict`` returns for one observation); bools and floats
    (even ``3.0``) are refused with :class:`~backgammon.IllegalActionError`."""
    if isinstance(action, np.ndarray) and action.ndim == 0 \
            and np.issubdtype(action.dtype, np.integer):
        action = action[()]
    if isinstance(action, (bool, np.bool_)) or not isinstance(action, (int, np.integer)):
        raise IllegalActionError(f"an action is an integer id 0..{n - 1}, got {shown(action)}"
                                 [:300])
    if not 0 <= action < n:
        raise IllegalActionError(f"action {int(action)} is not an id 0..{n - 1}")
    return int(action)


def game_option(options: Any) -> Game | None:
    """``options["game"]`` if there is one (other keys are not ours: PettingZoo's
    ``api_test`` passes ``{"options": 1}``), checked to be a :class:`~backgammon.Game`."""
    game = options.get("game") if isinstance(options, dict) else None
    if game is not None and not isinstance(game, Game):
        raise InvalidSetupError(f"options['game'] is a backgammon.Game, "
                                f"got {type(game).__name__}")
    return game


def check_playable(game: Game, cube: bool) -> None:
    """Refuses a game an env of ``cube`` cannot play on: other cube rules, or a game
    not waiting for the opening, a roll, an answer to a double or a play."""
    if game.rules.cube != cube:
        raise InvalidSetupError(f"the game's rules {'use' if game.rules.cube else 'have no'} "
                                f"cube, this env was made with cube={cube}")
    if game.phase not in (Phase.OPENING, Phase.ROLL, Phase.DOUBLED, Phase.MOVE) or game.steps:
        raise InvalidSetupError(f"a game to play on waits for the opening, a roll, an answer "
                                f"to a double or a play; this one is in phase "
                                f"{game.phase.value!r}"
                                + (f" with {len(game.steps)} steps made" if game.steps else ""))
