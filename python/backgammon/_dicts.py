"""Reading and writing the plain-data forms of the result types (``to_dict`` /
``from_dict`` / ``to_json`` / ``from_json``).

Every reader names the field that was wrong in an error of the caller's class
(:class:`~backgammon.InvalidRecordError` unless the type already had its own),
and bounds what it reads, so a service can hand these dicts to clients and
read them back from untrusted input.  JSON is strict (``NaN`` and infinities
are refused on the way out, so every output parses in any JSON reader).
"""

from __future__ import annotations

import builtins
import json
import math
from typing import Any, Callable

from backgammon.errors import BackgammonError, InvalidRecordError

MAX_JSON = 16 << 20    # bytes: the largest result, a rollout with its strata, is ~0.3 MB
MAX_STEPS = 8          # steps of one play (an unchecked play, RULES 12.4)
MAX_TEXT = 256         # characters of a name, an action or a play

Error = Callable[[str], BackgammonError]


def dumps(data: Any, indent: int | None = None) -> str:
    """Strict JSON of ``data``."""
    return json.dumps(data, indent=indent, allow_nan=False)


def loads(text: str | bytes, what: str, error: Error = InvalidRecordError) -> Any:
    """The data of a JSON text of at most :data:`MAX_JSON` bytes."""
    if not isinstance(text, (str, bytes, bytearray)):
        raise error(f"{what}: JSON is text, got {type(text).__name__}")
    if len(text) > MAX_JSON:
        raise error(f"{what}: {len(text):,} bytes of JSON, at most {MAX_JSON:,}")
    try:
        return json.loads(text)
    except (ValueError, RecursionError) as exc:  # UnicodeDecodeError is a ValueError
        raise error(f"{what}: not JSON ({exc})"[:300]) from None


class Reader:
    """Typed access to the fields of one dict, each error naming the field.

        >>> r = Reader({"games": 3}, "a duel", InvalidRecordError)
        >>> r.int("games")
        3
        >>> r.int("seed")
        Traceback (most recent call last):
        ...
        backgammon.errors.InvalidRecordError: a duel has no 'seed'
    """

    __slots__ = ("data", "what", "error")

    def __init__(self, data: Any, what: str, error: Error = InvalidRecordError) -> None:
        if not isinstance(data, dict):
            raise error(f"{what} is a dict, got {type(data).__name__}")
        self.data, self.what, self.error = data, what, error

    def fail(self, key: str, why: str) -> BackgammonError:
        return self.error(f"{self.what}: {key!r} {why}"[:300])

    def has(self, key: str) -> bool:
        return self.data.get(key) is not None

    def get(self, key: str) -> Any:
        if key not in self.data:
            raise self.error(f"{self.what} has no {key!r}")
        return self.data[key]

    def int(self, key: str, low: int | None = None, high: int | None = None) -> int:
        return self._int(key, self.get(key), low, high)

    def _int(self, key: str, value: Any, low: builtins.int | None,
             high: builtins.int | None) -> builtins.int:
        if isinstance(value, bool) or not isinstance(value, int):
            raise self.fail(key, f"is an integer, got {_shown(value)}")
        if (low is not None and value < low) or (high is not None and value > high):
            raise self.fail(key, f"is out of range, got {value}")
        return value

    def float(self, key: str, low: float | None = None, high: float | None = None) -> float:
        return self._float(key, self.get(key), low, high)

    def _float(self, key: str, value: Any, low: builtins.float | None,
               high: builtins.float | None) -> builtins.float:
        if isinstance(value, bool) or not isinstance(value, (int, float)):
            raise self.fail(key, f"is a number, got {_shown(value)}")
        number = float(value)
        if not math.isfinite(number):
            raise self.fail(key, f"is a finite number, got {number}")
        if (low is not None and number < low) or (high is not None and number > high):
            raise self.fail(key, f"is out of range, got {number}")
        return number

    def bool(self, key: str) -> bool:
        value = self.get(key)
        if not isinstance(value, bool):
            raise self.fail(key, f"is true or false, got {_shown(value)}")
        return value

    def str(self, key: str, choices: tuple[str, ...] | None = None) -> str:
        value = self.get(key)
        if not isinstance(value, str) or len(value) > MAX_TEXT:
            raise self.fail(key, f"is text of at most {MAX_TEXT} characters, got {_shown(value)}")
        if choices is not None and value not in choices:
            raise self.fail(key, f"is one of {', '.join(choices)}, got {_shown(value)}")
        return value

    def optional(self, key: builtins.str, read: Callable[..., Any], *args: Any) -> Any:
        """``None`` when the field is absent or null, else ``read(key, *args)``."""
        return read(key, *args) if self.has(key) else None

    def ints(self, key: builtins.str, n: builtins.int, low: builtins.int | None = None,
             high: builtins.int | None = None) -> tuple[builtins.int, ...]:
        items = self._list(key, n)
        return tuple(self._int(key, v, low, high) for v in items)

    def floats(self, key: builtins.str, n: builtins.int, low: builtins.float | None = None,
               high: builtins.float | None = None) -> tuple[builtins.float, ...]:
        items = self._list(key, n)
        return tuple(self._float(key, v, low, high) for v in items)

    def _list(self, key: builtins.str, n: builtins.int) -> list[Any]:
        value = self.get(key)
        if not isinstance(value, list) or len(value) != n:
            raise self.fail(key, f"is a list of {n}, got {_shown(value)}")
        return value

    def estimate(self, key: builtins.str) -> Any:
        from backgammon.rollout import Estimate
        r = Reader(self.get(key), f"{self.what}: {key!r}", self.error)
        low, high = r.floats("ci95", 2)
        return Estimate(r.float("value"), r.float("stderr", 0.0), low, high)

    def steps(self, key: builtins.str) -> tuple[tuple[builtins.int, builtins.int], ...]:
        value = self.get(key)
        if not isinstance(value, list) or len(value) > MAX_STEPS:
            raise self.fail(key, f"is a list of at most {MAX_STEPS} [from, to] steps")
        out = []
        for step in value:
            if (not isinstance(step, list) or len(step) != 2
                    or not all(isinstance(x, int) and not isinstance(x, bool) for x in step)):
                raise self.fail(key, f"is a list of [from, to] steps, got {_shown(step)}")
            out.append((step[0], step[1]))
        return tuple(out)


def estimate(e: Any) -> dict[str, Any]:
    """The form of an :class:`~backgammon.Estimate` that ``Reader.estimate`` reads."""
    return {"value": e.value, "stderr": e.stderr, "ci95": [e.low, e.high]}


def _shown(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= 60 else text[:57] + "..."
