"""Where a game's dice come from: :class:`DiceSource`, every die checked, with undo.

:mod:`backgammon.game` offers it too, beside :class:`~backgammon.game.Game`.
"""

from __future__ import annotations

import copy
import operator
import random
from typing import Any

import numpy as np

from backgammon.errors import IllegalDiceActionError
from backgammon._show import shown

__all__ = ["DiceSource"]


def _die_value(value: Any, source: Any) -> int:
    """Check one die a dice source gave."""
    try:
        die = None if isinstance(value, bool) else operator.index(value)
    except TypeError:
        die = None
    if die is None or not 1 <= die <= 6:
        raise IllegalDiceActionError(
            f"the dice source {shown(source)} gave {shown(value)}: a die is an integer from 1 to 6")
    return die


class DiceSource:
    """Where a game's dice come from, checked die by die, with undo.

    ``rng`` is an integer seed or ``None`` (a new ``random.Random``), a
    ``random.Random``-like object (``randint(1, 6)``, inclusive, as
    ``random.Random``, ``random.SystemRandom`` and the tests' scripted dice),
    a ``numpy.random.Generator`` (``integers(1, 7)``), a
    ``numpy.random.RandomState`` (``randint(1, 7)``: its upper bound is
    exclusive), or a callable returning one die.  Every die is checked: a
    value that is not an integer from 1 to 6 raises
    :class:`~backgammon.errors.IllegalDiceActionError`.

    A refused action that drew dice hands them back: the next dice drawn are
    those, in order, so the game goes on as if the refused action never
    happened, with no ``getstate`` needed (a server's ``SystemRandom`` has none).

        >>> import random
        >>> dice = DiceSource(random.SystemRandom())
        >>> 1 <= dice.die() <= 6
        True
        >>> DiceSource(lambda: 7).die()
        Traceback (most recent call last):
        ...
        backgammon.errors.IllegalDiceActionError: the dice source <function <lambda> at ...> gave 7: a die is an integer from 1 to 6
    """

    __slots__ = ("source", "_kind", "_pending", "_log")
    source: Any  # what rng became: a random.Random-like object, a numpy generator or a callable

    def __init__(self, rng: Any = None) -> None:
        if isinstance(rng, DiceSource):
            rng = rng.source
        if isinstance(rng, bool):
            raise TypeError(f"rng is a seed, a random number generator or a callable, got {shown(rng)}")
        if rng is None or isinstance(rng, int):
            rng = random.Random(rng)
        if isinstance(rng, np.random.Generator):
            kind = "integers"
        elif isinstance(rng, np.random.RandomState):
            kind = "exclusive"
        elif callable(getattr(rng, "randint", None)):
            kind = "randint"
        elif callable(rng):
            kind = "call"
        else:
            raise TypeError(
                "rng is an integer seed, a random.Random-like object (randint), a numpy "
                f"Generator or RandomState, or a callable returning a die, got {shown(rng)}")
        self.source = rng
        self._kind = kind
        self._pending: list[int] = []   # dice handed back by refused actions, next last
        self._log: list[int] | None = None  # dice drawn in the running transaction

    def die(self) -> int:
        """One die from 1 to 6."""
        if self._pending:
            value = self._pending.pop()
        else:
            src = self.source
            if self._kind == "randint":
                raw = src.randint(1, 6)
            elif self._kind == "integers":
                raw = src.integers(1, 7)
            elif self._kind == "exclusive":
                raw = src.randint(1, 7)
            else:
                raw = src()
            value = _die_value(raw, src)
        if self._log is not None:
            self._log.append(value)
        return value

    def begin(self) -> list[int] | None:
        """Start a transaction; returns what :meth:`end` needs."""
        outer, self._log = self._log, []
        return outer

    def end(self, outer: list[int] | None, ok: bool) -> None:
        """End a transaction: keep its dice (``ok``) or hand them back."""
        drawn, self._log = self._log or [], outer
        if ok:
            if outer is not None:
                outer.extend(drawn)
        else:
            self._pending.extend(reversed(drawn))

    def state(self) -> dict[str, Any] | None:
        """A JSON-ready state when the source is a plain ``random.Random``, else ``None``."""
        if type(self.source) is not random.Random:
            return None
        version, internal, gauss = self.source.getstate()
        return {"kind": "random.Random", "state": [version, list(internal), gauss],
                "pending": list(reversed(self._pending))}

    @classmethod
    def from_state(cls, data: Any) -> DiceSource:
        """The source :meth:`state` described (``ValueError`` or ``TypeError`` if malformed)."""
        if not isinstance(data, dict) or data.get("kind") != "random.Random":
            raise ValueError(f"a dice source state is a random.Random state, got {shown(data)}"[:200])
        version, internal, gauss = data["state"]
        if not (isinstance(internal, list) and len(internal) == 625
                and all(isinstance(x, int) and not isinstance(x, bool) for x in internal)):
            raise ValueError("a random.Random state holds 625 integers")
        if gauss is not None and (isinstance(gauss, bool) or not isinstance(gauss, float)):
            raise ValueError(f"a random.Random state ends with a float or null, got {shown(gauss)}"[:200])
        rng = random.Random()
        rng.setstate((version, tuple(internal), gauss))
        source = cls(rng)
        pending = data.get("pending", [])
        if not isinstance(pending, list) or len(pending) > 64:
            raise ValueError("pending dice are a short list")
        source._pending = [_die_value(d, "the record") for d in reversed(pending)]
        return source

    def __deepcopy__(self, memo: dict[int, Any]) -> DiceSource:
        new = DiceSource.__new__(DiceSource)
        try:
            new.source = copy.deepcopy(self.source, memo)
        except Exception:  # noqa: BLE001 - no state to copy (SystemRandom): share it
            new.source = self.source
        new._kind = self._kind
        new._pending = list(self._pending)
        new._log = None
        return new

    def __repr__(self) -> str:
        return f"DiceSource({shown(self.source)})"
