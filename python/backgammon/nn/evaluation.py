"""What an evaluation says: :class:`Evaluation`, the five cumulative
probabilities of the player on roll before rolling, and their cubeless equity."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

__all__ = ["Evaluation"]


@dataclass(frozen=True)
class Evaluation:
    """Five cumulative probabilities for the player on roll, before rolling.

    ``win_gammon`` includes backgammons and ``lose_gammon`` likewise;
    ``equity`` is cubeless points per game (backgammons count 3).

        >>> e = Evaluation(0.5, 0.1, 0.0, 0.1, 0.0)
        >>> e.equity, e.lose
        (0.0, 0.5)
    """

    win: float
    win_gammon: float
    win_backgammon: float
    lose_gammon: float
    lose_backgammon: float

    @property
    def lose(self) -> float:
        return 1.0 - self.win

    @property
    def equity(self) -> float:
        """Cubeless equity: 2 win - 1 + wg - lg + wb - lb."""
        return (2.0 * self.win - 1.0 + self.win_gammon - self.lose_gammon
                + self.win_backgammon - self.lose_backgammon)

    @property
    def probabilities(self) -> tuple[float, float, float, float, float]:
        return (self.win, self.win_gammon, self.win_backgammon,
                self.lose_gammon, self.lose_backgammon)

    @classmethod
    def _from_row(cls, row: np.ndarray) -> Evaluation:
        return cls(*(float(x) for x in row))

    def to_dict(self) -> dict[str, Any]:
        """The five probabilities, with ``lose`` and ``equity`` (not read back).

            >>> Evaluation(0.5, 0.1, 0.0, 0.1, 0.0).to_dict()["equity"]
            0.0
        """
        return {"win": self.win, "win_gammon": self.win_gammon,
                "win_backgammon": self.win_backgammon, "lose_gammon": self.lose_gammon,
                "lose_backgammon": self.lose_backgammon, "lose": self.lose,
                "equity": self.equity}

    @classmethod
    def from_dict(cls, data: Any) -> Evaluation:
        """The evaluation :meth:`to_dict` wrote: five probabilities in [0, 1]
        (:class:`~backgammon.InvalidRecordError` otherwise)."""
        from backgammon._dicts import Reader
        r = Reader(data, "an evaluation")
        return cls(*(r.float(k, 0.0, 1.0) for k in
                     ("win", "win_gammon", "win_backgammon", "lose_gammon", "lose_backgammon")))

    def to_json(self) -> str:
        from backgammon._dicts import dumps
        return dumps(self.to_dict())

    @classmethod
    def from_json(cls, text: str | bytes) -> Evaluation:
        from backgammon._dicts import loads
        return cls.from_dict(loads(text, "an evaluation"))

    def __str__(self) -> str:
        return (f"win {self.win:.4f} (gammon {self.win_gammon:.4f}, backgammon "
                f"{self.win_backgammon:.4f}), lose {self.lose:.4f} (gammon "
                f"{self.lose_gammon:.4f}, backgammon {self.lose_backgammon:.4f}), "
                f"equity {self.equity:+.4f}")
