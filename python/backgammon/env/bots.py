"""The Bot protocol: one way in for a decision maker.

A bot answers two questions about a :class:`~backgammon.Game`: which play
to make (:meth:`Bot.choose_play`, called in the move phase with the dice
rolled) and, optionally, what to do with the cube (``cube_action(game)``
answering ``"double"``, ``"roll"``, ``"take"`` or ``"drop"``).  Environments
(``BackgammonEnv(cube=True)`` asks the cube of a Bot opponent), duels, the
engine protocols and :func:`backgammon.judge` (a bot judged on recorded
games with the analysis' values) accept any object with these methods.

    >>> import backgammon as bg
    >>> class FirstPlay:
    ...     def choose_play(self, game):
    ...         return game.position.legal_plays(game.dice)[0]
    >>> game = bg.Game.from_position(bg.Position.initial(), dice=(3, 1))
    >>> str(choose_with(FirstPlay(), game.position, game.dice, 0))
    '24/23 24/21'
"""

from __future__ import annotations

from typing import Any, Protocol, runtime_checkable

from backgammon.game import Game
from backgammon.position import Play, Position


@runtime_checkable
class Bot(Protocol):
    """What a bot implements; ``cube_action`` is optional (cubeless play)."""

    def choose_play(self, game: Game) -> Play | str | Any:
        """The play to make now: a :class:`Play`, its notation or its steps."""
        ...


def choose_with(bot: Any, position: Position, dice: tuple[int, int], seat: int = 0) -> Play:
    """The legal play ``bot`` (a Bot or a scoring callable) makes with ``dice``."""
    from backgammon.env.opponents import checked_play, scores_choice
    if hasattr(bot, "choose_play"):
        game = Game.from_position(position, turn=seat, dice=dice)
        return checked_play(position, dice, bot.choose_play(game))
    return scores_choice(bot, position, dice)
