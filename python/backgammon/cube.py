"""A baseline cube policy for a computer opponent: offer and take by pip-count lead.

This is the simple rule of thumb a casual app uses, kept as a documented
baseline object (a better policy comes with rollouts).  The player on roll's
*lead* is ``(opponent pips - own pips) / own pips``.  The policy offers a first
double at a lead of at least 8 %, a redouble (owning the cube) at 9 %, and
takes while the doubler's lead is at most 12 %: the "8-9-12" race rule, here
applied to any position, contact or not.

    >>> from backgammon import Position
    >>> from backgammon.game import Game
    >>> policy = PipCountCubePolicy()
    >>> game = Game.from_position(Position.initial())
    >>> policy.lead(game.position), policy.should_double(game)
    (0.0, False)
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from backgammon.errors import IllegalActionError, InvalidSetupError
from backgammon.game import Game, Phase
from backgammon.position import Position

__all__ = ["PipCountCubePolicy"]


@dataclass(frozen=True)
class PipCountCubePolicy:
    """Double, redouble and take thresholds on the relative pip-count lead."""

    double_lead: float = 0.08
    redouble_lead: float = 0.09
    take_lead: float = 0.12

    def __post_init__(self) -> None:
        for name in ("double_lead", "redouble_lead", "take_lead"):
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, (int, float)):
                raise TypeError(f"{name} is a number, got {value!r}")
            if not math.isfinite(value):
                raise InvalidSetupError(f"{name} is a finite lead, got {value!r}")

    @staticmethod
    def lead(position: Position) -> float:
        """The relative lead of the player on roll (negative when behind)."""
        own, opp = position.pip_counts()
        return (opp - own) / own if own else float("inf")

    def should_double(self, game: Game) -> bool:
        """Whether the player on roll should double now (False when doubling is not allowed)."""
        if not isinstance(game, Game):
            raise TypeError(f"game must be a Game, got {game!r}"[:300])
        if not game.can_double():
            return False
        need = self.redouble_lead if game.cube_owner == game.turn else self.double_lead
        return self.lead(game.position) >= need

    def should_take(self, game: Game) -> bool:
        """Whether the doubled player should take (the game must be waiting for the answer)."""
        if not isinstance(game, Game):
            raise TypeError(f"game must be a Game, got {game!r}"[:300])
        if game.phase is not Phase.DOUBLED:
            raise IllegalActionError(
                f"no double to answer: the game is in phase {game.phase.value!r}")
        return self.lead(game.position) <= self.take_lead  # the doubler's lead
