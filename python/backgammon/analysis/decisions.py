"""What an analysis finds: each :class:`Decision` (a checker play or a cube
decision, its equities, loss and flags), each :class:`Roll` with its luck,
:class:`PlayerStats` and the thresholds of the flags (gnubg's and XG's).

Definitions (equities, flags, error rates, PR, luck): :mod:`backgammon.analysis.analyser`.

    >>> SKILL_THRESHOLDS[0]
    ('very bad', 0.12)
"""

from __future__ import annotations

import math
from dataclasses import asdict, dataclass, fields
from typing import Any, Iterable, TypedDict

import numpy as np

from backgammon.errors import BackgammonError, InvalidRecordError
from backgammon._numbers import json_int
from backgammon.game import Game


__all__ = ["Decision", "GameEnd", "PlayerStats", "Roll", "SKILL_THRESHOLDS", "XG_THRESHOLDS", "LUCK_THRESHOLDS"]

SKILL_THRESHOLDS = (("very bad", 0.12), ("bad", 0.06), ("doubtful", 0.03))
"""gnubg 1.1.0a16's default skill thresholds (``show analysis``), normalised equity
(older releases and gnubg.c's ``arSkillLevel`` once had 0.04, 0.08, 0.16)."""
XG_THRESHOLDS = (("blunder", 0.080), ("error", 0.020))
"""XG's default error and blunder thresholds, normalised equity."""
LUCK_THRESHOLDS = (("very lucky", 0.6), ("lucky", 0.3))
"""gnubg's default luck thresholds (gnubg.c ``arLuckLevel``); negated for unlucky."""
CLOSE_CUBE = 0.16
"""gnubg's isCloseCubedecision: a no-double counts when doubling loses less than this."""
XG_CLOSE_CUBE = 0.2
"""XG's rule for a counted no-double: ND > 0 and ND - min(DT, DP) < 0.2."""

FORMAT = "backgammon-analysis"
VERSION = 1
MAX_ITEMS = 100_000  # decisions or rolls read from a dict: a long match has a few thousand
ROLLS = np.array([(a, b) for a in range(1, 7) for b in range(a, 7)], np.uint8)
ROLL_WEIGHTS = np.array([1.0 if a == b else 2.0 for a, b in ROLLS]) / 36.0
OPENING_ROLLS = ROLLS[ROLLS[:, 0] != ROLLS[:, 1]]
OPENING_WEIGHTS = np.full(len(OPENING_ROLLS), 1.0 / len(OPENING_ROLLS))



# ---------------------------------------------------------------- results

@dataclass(frozen=True)
class Decision:
    """One decision of one player.

    ``game`` (0-based) and ``action`` (the index of the action in that game's
    record) place it; ``kind`` is ``"play"`` or ``"cube"``.  ``made`` and
    ``best`` are a play in gnubg's notation, or ``"double"``, ``"no double"``,
    ``"take"``, ``"pass"``, ``"beaver"``.  ``equity_made``, ``equity_best`` and
    ``loss`` (>= 0) are normalised cubeful equities for ``player``;
    ``loss_mwc`` the loss in match winning chances (``None`` in money play).
    ``flag``: ``None``, a severity (``"doubtful"``, ``"bad"``, ``"very bad"``)
    for a play, or the cube error's kind.  ``counted``: in gnubg's error rate;
    ``counted_pr``: in the PR.  ``position_id`` is the position seen by
    ``player`` (for an answer to a double: seen by the doubler, as gnubg
    shows it); ``options`` the best few choices with their equities.
    """

    game: int
    action: int
    player: int
    kind: str
    made: str
    best: str
    equity_made: float
    equity_best: float
    loss: float
    loss_mwc: float | None
    flag: str | None
    skill: str | None
    xg: str | None
    counted: bool
    counted_pr: bool
    position_id: str
    dice: tuple[int, int] | None
    cube: int
    cube_owner: int | None
    options: tuple[tuple[str, float], ...] = ()
    cube_action: str | None = None
    gnubg_id: str = ""

    def to_game(self, rules: Any = None) -> Game:
        """The game at the moment of this decision: position, dice, cube, owner, score,
        Crawford game and match length (from ``gnubg_id``, gnubg's ``PositionID:MatchID``).

        A checker play's game waits for the play (the dice rolled); a no double or a
        double waits for the roll (ask ``to_game().cube_decision()``); a take or pass
        waits for the answer to the double.  ``rules`` adds what the ID does not carry
        (beavers; Jacoby is in it).

            >>> import backgammon as bg
            >>> m = bg.Match(5, rng=1)
            >>> m.game.roll((3, 1)); m.game.play("8/5 6/5")
            >>> d = bg.analyse(m).decisions[0]
            >>> g = d.to_game()
            >>> g.dice, g.match_length, g.phase.value
            ((3, 1), 5, 'move')
        """
        if not self.gnubg_id:
            raise BackgammonError("this decision carries no game state (an analysis saved "
                                  "by an older version of the library)")
        return Game.from_gnubg_id(self.gnubg_id, rules=rules)

    def _game(self) -> Game | None:
        """:meth:`to_game`, or None when the decision carries no state or a bad one."""
        if not self.gnubg_id:
            return None
        try:
            return self.to_game()
        except BackgammonError:
            return None

    @property
    def xgid(self) -> str:
        """eXtreme Gammon's ``XGID=...`` of the moment of this decision (as ``gnubg_id``
        is gnubg's: paste either into gnubg or XG to look at it there); ``""`` when the
        decision carries no game state.

            >>> import backgammon as bg
            >>> m = bg.Match(5, rng=1)
            >>> m.game.roll((3, 1)); m.game.play("8/5 6/5")
            >>> bg.analyse(m).decisions[0].xgid
            'XGID=-b----E-C---eE---c-e----B-:0:0:1:31:0:0:0:5:6'
        """
        import warnings

        game = self._game()
        if game is None:
            return ""
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            try:
                return game.xgid()
            except BackgammonError:  # a state an XGID cannot hold
                return ""

    @property
    def away(self) -> tuple[int, int] | None:
        """The match score as ``(away, opponent_away)`` from ``player``'s side (points
        each still needs), ``None`` in money play or without game state.

            >>> import backgammon as bg
            >>> m = bg.Match(5, rng=1)
            >>> m.game.roll((3, 1)); m.game.play("8/5 6/5")
            >>> bg.analyse(m).decisions[0].away
            (5, 5)
        """
        game = self._game()
        if game is None or not game.match_length:
            return None
        return (game.match_length - game.score[self.player],
                game.match_length - game.score[1 - self.player])

    def situation(self, names: tuple[str, str] = ("player 0", "player 1")) -> str:
        """The score and the cube at this decision, in words, ``names`` for players 0
        and 1: ``"money game, cube 1 centred"``, ``"Ann 3-away, Bob 5-away, cube 2
        owned by Bob"``; an answer to a double adds ``"doubled to 4"``."""
        game = self._game()
        parts = []
        if game is not None:
            if not game.match_length:
                parts.append("money game")
            else:
                away, opp = self.away or (0, 0)
                me, them = names[self.player], names[1 - self.player]
                score = f"{me} {away}-away, {them} {opp}-away"
                if game.crawford:
                    score += ", Crawford game"
                elif 1 in (away, opp):
                    score += ", post-Crawford"
                parts.append(score)
        owner = "centred" if self.cube_owner is None else f"owned by {names[self.cube_owner]}"
        cube = f"cube {self.cube} {owner}"
        if self.kind == "cube" and self.made in ("take", "pass", "beaver"):
            cube += f", doubled to {2 * self.cube}"
        parts.append(cube)
        return ", ".join(parts)

    def loss_text(self) -> str:
        """The loss as the reports write it: ``"0.143"``, in match play with the MWC
        (``"0.143 (1.52% MWC)"``)."""
        text = f"{self.loss:.3f}"
        if self.loss_mwc is not None:
            text += f" ({100 * self.loss_mwc:.2f}% MWC)"
        return text

    def describe(self, names: tuple[str, str] = ("player 0", "player 1")) -> str:
        """One line for people: the game (numbered from 1), the player (``names``),
        the dice, what was done and, unless it was the best (or tied with it), its
        flag, the best choice and the loss; then the score and the cube (:meth:`situation`).  ``str()`` of a
        decision is this with ``"player 0"`` and ``"player 1"``.

            >>> import backgammon as bg
            >>> m = bg.Match(5, rng=1)
            >>> m.game.roll((3, 1)); m.game.play("8/5 6/5")
            >>> print(bg.analyse(m).decisions[0])
            game 1, player 0 (31): 8/5 6/5, the best; player 0 5-away, player 1 5-away, cube 1 centred
        """
        dice = f" ({self.dice[0]}{self.dice[1]})" if self.dice else ""
        text = f"game {self.game + 1}, {names[self.player]}{dice}: {self.made}"
        if self.made == self.best or self.loss <= 0.0:   # the best, or tied with it
            text += ", the best"
        else:
            text += (f" ({self.flag})" if self.flag else "") + \
                f", best {self.best}, loss {self.loss_text()}"
        return f"{text}; {self.situation(names)}"

    def __str__(self) -> str:
        return self.describe()

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready data: every field, tuples as lists (as in :meth:`Analysis.to_dict`)."""
        return plain_dict(asdict(self))

    @classmethod
    def from_dict(cls, data: Any) -> Decision:
        """The decision :meth:`to_dict` wrote (:class:`InvalidRecordError` if malformed)."""
        try:
            return items_of([data], cls)[0]  # type: ignore[no-any-return]
        except (KeyError, TypeError, ValueError) as exc:
            raise InvalidRecordError(f"a decision: malformed ({exc})"[:300]) from None

    def to_json(self) -> str:
        from backgammon._dicts import dumps
        return dumps(self.to_dict())

    @classmethod
    def from_json(cls, text: str | bytes) -> Decision:
        from backgammon._dicts import loads
        return cls.from_dict(loads(text, "a decision"))


@dataclass(frozen=True)
class Roll:
    """The luck of one roll: ``luck`` (normalised equity) and ``luck_mwc`` (match play)."""

    game: int
    action: int
    player: int
    dice: tuple[int, int]
    luck: float
    luck_mwc: float | None
    label: str | None


class GameEnd(TypedDict):
    """How a game of :attr:`Analysis.results` ended: ``winner`` (0 or 1), ``points``,
    ``kind`` (``"single"``, ``"gammon"``, ``"backgammon"``) and ``reason``
    (``"bearoff"``, ``"drop"``, ``"resign"`` or ``"forfeit"``), as in
    :class:`~backgammon.GameResult`."""

    winner: int
    points: int
    kind: str
    reason: str


@dataclass(frozen=True)
class PlayerStats:
    """Totals of one player (losses and luck in normalised equity unless ``_mwc``)."""

    player: int
    name: str
    plays: int
    unforced_plays: int
    cube_decisions: int
    counted: int
    counted_pr: int
    loss: float
    loss_plays: float
    loss_cube: float
    loss_mwc: float | None
    error_rate: float
    pr: float
    flags: dict[str, int]
    luck: float
    luck_mwc: float | None
    rolls: int
    lucky: int
    unlucky: int


def skill_of(loss: float,
           thresholds: Iterable[tuple[str, float]] = SKILL_THRESHOLDS) -> str | None:
    for name, limit in thresholds:
        if loss > limit:  # gnubg's Skill(): strictly worse than the threshold
            return name
    return None


def xg_of(loss: float) -> str | None:
    for name, limit in XG_THRESHOLDS:
        if loss >= limit:
            return name
    return None


def luck_label(luck: float) -> str | None:
    (very, very_limit), (lucky, limit) = LUCK_THRESHOLDS
    if abs(luck) <= limit:
        return None
    name = very if abs(luck) > very_limit else lucky
    return name if luck > 0 else name.replace("lucky", "unlucky")


def plain_dict(d: dict[str, Any]) -> dict[str, Any]:
    """Tuples -> lists, for JSON."""
    out = {}
    for k, v in d.items():
        if isinstance(v, tuple):
            v = [list(x) if isinstance(x, tuple) else x for x in v]
        out[k] = v
    return out


_FLOATS = {"equity_made", "equity_best", "loss", "loss_mwc", "luck", "luck_mwc"}


def items_of(items: Any, cls: type) -> tuple[Any, ...]:
    bounded_list(items)
    names = [f.name for f in fields(cls)]
    out = []
    for item in items:
        if not isinstance(item, dict) or set(item) - set(names):
            raise ValueError(f"a {cls.__name__.lower()} is an object with the fields {names}")
        values = dict(item)
        for k in ("dice",):
            if values.get(k) is not None:
                values[k] = tuple(json_int(v, k) for v in values[k])
        if "options" in values:
            values["options"] = tuple((str(t), float(e)) for t, e in values["options"])
        for k in _FLOATS & set(values):
            if values[k] is not None:
                values[k] = float(values[k])
                if not math.isfinite(values[k]):
                    raise ValueError(f"{k} is a finite number")
        item = cls(**values)
        if item.player not in (0, 1) or isinstance(item.player, bool):
            raise ValueError(f"players are 0 and 1, got {item.player!r}")
        if not all(isinstance(getattr(item, k), int) for k in ("game", "action")):
            raise ValueError("game and action are integers")
        if cls is Decision and (item.kind not in ("play", "cube") or not all(
                isinstance(getattr(item, k), str) for k in ("made", "best", "position_id"))):
            raise ValueError("a decision's kind is 'play' or 'cube', made and best are text")
        out.append(item)
    return tuple(out)


def bounded_list(items: Any) -> list[Any]:
    if not isinstance(items, list) or len(items) > MAX_ITEMS:
        raise ValueError(f"a list of at most {MAX_ITEMS} items")
    return items
