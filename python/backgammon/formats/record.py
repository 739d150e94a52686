"""The library's own JSON record of a match or of money games (schema: docs/records.md).

Lossless: every action of every game (opening ties included), the rules, the
names, each game's starting setup and the steps of a turn not yet committed.
Reading replays everything through :class:`Game` and checks the recorded
results and scores, so a record that was edited into an illegal one is an
:class:`InvalidRecordError`.

    >>> from backgammon.match import Match
    >>> m = Match(3, rng=1)
    >>> m.game.roll((3, 1)); m.game.play("8/5 6/5")
    >>> data = record_to_dict(m)
    >>> data["games"][0]["actions"][1]
    {'player': 0, 'action': 'play', 'moves': [[8, 5], [6, 5]], 'notation': '8/5 6/5'}
    >>> read_json(write_json(m)).match.game.position == m.game.position
    True

The dice source: when the match or games roll with a plain ``random.Random``
(an integer seed gives one), its state is saved (``"dice_source"``) and the
reader restores it, so the restored game rolls the same dice as the saved one
would have.  Any other source (``SystemRandom``, numpy, a callable) is not
saved: pass ``rng=`` to the reader, which also overrides a saved state.

Reading is bounded: at most :data:`MAX_CHARS` characters nested at most
:data:`MAX_DEPTH` deep, anything else an :class:`InvalidRecordError`.
"""

from __future__ import annotations

import json
import re
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, NamedTuple

from backgammon.errors import BackgammonError, InvalidRecordError
from backgammon.notation import format_play
from backgammon._show import shown
from backgammon._numbers import integer
from backgammon.formats._walk import set_up_match_game

if TYPE_CHECKING:  # pragma: no cover
    from backgammon.game import Game
    from backgammon.match import Match

__all__ = [
    "FORMAT",
    "MAX_CHARS",
    "MAX_DEPTH",
    "VERSION",
    "Record",
    "read_json",
    "record_from_dict",
    "record_to_dict",
    "write_json",
]

FORMAT = "backgammon.record"
VERSION = 1
_RULE_FIELDS = ("cube", "max_cube", "jacoby", "beaver", "automatic_doubles",
                "backgammon_value", "opening", "over_the_board")
MAX_CHARS = 64 * 2**20
"""The longest JSON text read (a money session of thousands of games fits)."""
MAX_DEPTH = 16
"""The deepest nesting of ``[]`` and ``{}`` read (a record nests 6 deep)."""


class Record(NamedTuple):
    """A replayed record: ``names``, ``match_length`` (0 = money), the ``games``, and
    the :class:`Match` (``None`` for money games)."""

    names: tuple[str, str]
    match_length: int
    games: list[Game]
    match: Match | None


# ----------------------------------------------------------------------
# Writing


def _action_dict(action: Any, scratch: Game) -> dict[str, Any]:
    player, kind, value = action
    out: dict[str, Any] = {"player": player, "action": kind}
    if kind in ("opening", "roll"):
        out["dice"] = list(value)
    elif kind == "play":
        out["moves"] = [list(s) for s in value]
        out["notation"] = format_play(scratch.position.tolist(), [tuple(s) for s in value])
        try:
            scratch.position.play(value, scratch.dice)
        except BackgammonError:  # RULES 12.4: an illegal play recorded unchecked
            out["unchecked"] = True
    elif kind == "resign":
        out["kind"] = value
    return out


def _game_dict(game: Game, rules: Any, length: int) -> dict[str, Any]:
    scratch = game.restart()
    actions = []
    for action in game.actions:
        actions.append(_action_dict(action, scratch))
        scratch.apply(action)
    start = None
    if game.start is not None:
        start = {k: (list(v) if isinstance(v, tuple) else v) for k, v in game.start.items()}
    r = game.result
    out = {
        "score": list(game.score),
        "crawford": game.crawford,
        "start": start,
        "actions": actions,
        "steps": [list(s) for s in game.steps],
        "result": None if r is None else {"winner": r.winner, "points": r.points,
                                          "kind": r.kind, "reason": r.reason, "cube": r.cube},
    }
    # money games may differ from the first one (RULES 8.4: the cube on or off for
    # each game) or belong to a match: only then are these written
    if game.rules != rules:
        out["rules"] = {f: getattr(game.rules, f) for f in _RULE_FIELDS}
    if game.match_length != length:
        out["match_length"] = game.match_length
    return out


def record_to_dict(source: Match | Sequence[Game], *,
                   names: Sequence[str] | None = None) -> dict[str, Any]:
    """The JSON-ready dict of a :class:`Match` or of money games (see docs/records.md)."""
    from backgammon.match import Match

    if isinstance(source, Match):
        games, length = list(source.games), source.length
        names = names or source.names
        crawford, score, winner = source.crawford_rule, source.score, source.winner
    else:
        games, length = list(source), 0
        names = names or ("Player 0", "Player 1")
        crawford, winner = False, None
        score = (sum(g.result.points for g in games if g.result and g.result.winner == 0),
                 sum(g.result.points for g in games if g.result and g.result.winner == 1))
    if not games:
        raise InvalidRecordError("a record needs at least one game")
    rules = games[0].rules
    dice_state = (source.dice_source if isinstance(source, Match)
                  else games[-1].dice_source).state()
    out = {
        "format": FORMAT,
        "version": VERSION,
        "names": [str(names[0]), str(names[1])],
        "match_length": length,
        "crawford": crawford,
        "rules": {f: getattr(rules, f) for f in _RULE_FIELDS},
        "games": [_game_dict(g, rules, length) for g in games],
        "score": list(score),
        "winner": winner,
    }
    if dice_state is not None:
        out["dice_source"] = dice_state
    return out


def write_json(source: Match | Sequence[Game], *, names: Sequence[str] | None = None,
               indent: int | None = 1) -> str:
    """The JSON text of :func:`record_to_dict`."""
    return json.dumps(record_to_dict(source, names=names), indent=indent)


# ----------------------------------------------------------------------
# Reading


def _need(data: Any, key: str, kind: type | tuple[type, ...], where: str) -> Any:
    if not isinstance(data, dict) or key not in data:
        raise InvalidRecordError(f"record: {where} has no {shown(key)}")
    value = data[key]
    if not isinstance(value, kind) or (isinstance(value, bool) and kind is int):
        raise InvalidRecordError(f"record: {where}.{key} has the wrong type: {shown(value)}")
    return value


def _action_tuple(item: Any, where: str) -> tuple[Any, str, Any]:
    from backgammon.game import Action

    kind = _need(item, "action", str, where)
    player = item.get("player")
    if kind == "opening" or kind == "roll":
        return Action(player, kind, tuple(_need(item, "dice", list, where)))
    if kind == "play":
        moves = _need(item, "moves", list, where)
        try:  # integers only: int() would take 8.7 or "٨"
            return Action(player, kind, tuple((_step_int(a), _step_int(b)) for a, b in moves))
        except (TypeError, ValueError):
            raise InvalidRecordError(f"record: {where}.moves are [from, to] pairs: {shown(moves)}") from None
    if kind == "resign":
        return Action(player, kind, _need(item, "kind", (str, int), where))
    return Action(player, kind, None)


def _replay(game: Game, data: dict[str, Any], where: str) -> None:
    from backgammon.game import Phase

    actions = [_action_tuple(item, f"{where}.actions[{k}]")
               for k, item in enumerate(_need(data, "actions", list, where))]
    steps = list(data.get("steps") or [])
    for k, action in enumerate(actions):
        # The uncommitted steps were made in the last turn, before any
        # resignation offered (and rejected) after them: replay them first.
        if steps and game.phase is Phase.MOVE and all(
                a[1] in _AFTER_STEPS for a in actions[k:]):
            _replay_steps(game, steps, where)
            steps = []
        try:
            game.apply(action)
        except InvalidRecordError:
            raise
        except (BackgammonError, TypeError) as e:
            raise InvalidRecordError(
                f"record: {where}.actions[{k}] {shown(data['actions'][k])}: {e}"[:500]) from None
    _replay_steps(game, steps, where)
    recorded = data.get("result")
    r = game.result
    got = None if r is None else {"winner": r.winner, "points": r.points, "kind": r.kind,
                                  "reason": r.reason, "cube": r.cube}
    if recorded != got:
        raise InvalidRecordError(f"record: {where} records the result {shown(recorded)}, "
                                 f"but its actions give {shown(got)}")


_AFTER_STEPS = ("resign", "reject")
"""What may follow steps not yet committed: a resignation offered and rejected."""


def _step_int(value: Any) -> int:
    """A point of a recorded step: a JSON integer, nothing int() merely converts."""
    number = integer(value)
    if number is None:
        raise TypeError(f"a point is an integer, got {shown(value)}")
    return number


def _replay_steps(game: Game, steps: list[Any], where: str) -> None:
    for k, step in enumerate(steps):
        try:
            game.move(_step_int(step[0]), _step_int(step[1]))
        except (BackgammonError, TypeError, ValueError, IndexError) as e:
            raise InvalidRecordError(f"record: {where}.steps[{k}] {shown(step)}: {e}") from None


def _dice_source(data: dict[str, Any], rng: Any) -> Any:
    """The dice source of the read games: ``rng``, else the saved one, else a new one."""
    from backgammon.game import DiceSource

    if rng is not None:
        return DiceSource(rng)
    if data.get("dice_source") is None:
        return DiceSource(None)
    try:
        return DiceSource.from_state(data["dice_source"])
    except (BackgammonError, TypeError, ValueError, KeyError, OverflowError) as e:
        raise InvalidRecordError(f"record: dice_source: {e}"[:300]) from None


def record_from_dict(data: Any, *, rng: Any = None) -> Record:
    """Replay a record dict; :class:`InvalidRecordError` if it is malformed or illegal.

    The games roll with ``rng`` (any source :class:`~backgammon.game.DiceSource`
    takes), else with the saved ``random.Random`` state, else a new one.
    """
    from backgammon.game import Game
    from backgammon.match import Match
    from backgammon.rules import Rules

    if _need(data, "format", str, "the record") != FORMAT:
        raise InvalidRecordError(f"record: format is {shown(data['format'])}, not {shown(FORMAT)}")
    if _need(data, "version", int, "the record") != VERSION:
        raise InvalidRecordError(f"record: version {data['version']} is not {VERSION}")
    names = _need(data, "names", list, "the record")
    length = _need(data, "match_length", int, "the record")
    rules_data = _need(data, "rules", dict, "the record")
    games_data = _need(data, "games", list, "the record")
    if len(names) != 2 or not games_data:
        raise InvalidRecordError("record: two names and at least one game are needed")
    dice = _dice_source(data, rng)
    try:
        rules = Rules(**{f: rules_data[f] for f in _RULE_FIELDS if f in rules_data})
        match = None
        if length:
            # a match taken up at a score (one game of a match in a file, as Gibbon
            # writes it): its first game's score, Crawford game or post-Crawford
            first = games_data[0] if isinstance(games_data[0], dict) else {}
            start = tuple(first.get("score", (0, 0)))
            crawford_rule = bool(data.get("crawford", True))
            crawford_game = (bool(first.get("crawford", False))
                             if crawford_rule and length > 1 and length - 1 in start else None)
            match = Match(length, rules, rng=dice, crawford=crawford_rule,
                          names=(names[0], names[1]), score=start,
                          crawford_game=crawford_game)
    except (BackgammonError, TypeError) as e:
        raise InvalidRecordError(f"record: {e}") from None
    games = []
    for i, gd in enumerate(games_data):
        where = f"games[{i}]"
        score = tuple(_need(gd, "score", list, where))
        if match is not None:
            if i:
                try:
                    match.next_game()
                except BackgammonError as e:
                    raise InvalidRecordError(f"record: {where}: {e}") from None
            game = match.game
            if gd.get("rules") is not None or "match_length" in gd:
                raise InvalidRecordError(
                    f"record: {where}: every game of a match has the match's rules and length")
            if game.score != score or game.crawford != bool(gd.get("crawford", False)):
                raise InvalidRecordError(
                    f"record: {where} starts at {list(score)} (Crawford "
                    f"{gd.get('crawford')}), the games before give {list(game.score)} "
                    f"(Crawford {game.crawford})")
            if gd.get("start") is not None:  # a match game set up from a position
                start = gd["start"]
                try:
                    set_up_match_game(game, _set_up(start, rules, dice, {
                        "match_length": length, "score": game.score,
                        "crawford": game.crawford}))
                except (BackgammonError, KeyError, TypeError, ValueError) as e:
                    raise InvalidRecordError(f"record: {where}.start {shown(start)}: {e}") from None
        else:
            start = gd.get("start")
            try:
                game_rules = rules
                if gd.get("rules") is not None:
                    game_rules = Rules(**{f: gd["rules"][f] for f in _RULE_FIELDS
                                          if f in gd["rules"]})
                context = {"match_length": gd.get("match_length", 0),
                           "score": score, "crawford": bool(gd.get("crawford", False))}
                if start is None:
                    game = Game(game_rules, rng=dice, **context)
                else:
                    game = _set_up(start, game_rules, dice, context)
            except (BackgammonError, KeyError, TypeError, ValueError) as e:
                raise InvalidRecordError(f"record: {where}.start {shown(start)}: {e}") from None
        _replay(game, gd, where)
        games.append(game)
    if match is not None and (list(match.score) != data.get("score", list(match.score))
                              or match.winner != data.get("winner", match.winner)):
        raise InvalidRecordError(f"record: score {data.get('score')} and winner "
                                 f"{data.get('winner')} differ from the games' "
                                 f"{list(match.score)} and {match.winner}")
    return Record((str(names[0]), str(names[1])), length, games, match)


def _set_up(start: Any, rules: Any, dice: Any, context: dict[str, Any]) -> Game:
    """The game a record's ``start`` sets up: a GNUbgID, an XGID (each with its own
    score), or a Position ID with the turn, dice and cube, in ``context`` (the match
    length, score and Crawford flag)."""
    from backgammon.game import Game
    from backgammon.position import Position

    if "gnubg_id" in start:
        return Game.from_gnubg_id(start["gnubg_id"], rules=rules, rng=dice)
    if "xgid" in start:
        return Game.from_xgid(start["xgid"], rules=rules, rng=dice)
    return Game.from_position(
        Position.from_position_id(start["position_id"]), turn=start["turn"],
        dice=start.get("dice"), cube=start.get("cube", 1), cube_owner=start.get("cube_owner"),
        rules=rules, rng=dice, **context)


_STRING = re.compile(r'"(?:[^"\\]|\\.)*"')
_INNERMOST = re.compile(r"\[[^\[\]{}]*\]|\{[^\[\]{}]*\}")


def _check_bounds(text: Any) -> None:
    """Refuse text too long or nested too deeply before parsing it (no RecursionError)."""
    if isinstance(text, (bytes, bytearray)):
        try:
            text = bytes(text).decode("utf-8")
        except UnicodeDecodeError as e:
            raise InvalidRecordError(f"record: not UTF-8 text: {e}") from None
    if not isinstance(text, str):
        raise TypeError(f"a JSON record is text, got {type(text).__name__}")
    if len(text) > MAX_CHARS:
        raise InvalidRecordError(f"record: {len(text)} characters, more than {MAX_CHARS}")
    rest = _STRING.sub("", text)
    for _ in range(MAX_DEPTH):  # each pass removes the innermost brackets, in linear time
        if not any(c in rest for c in "[]{}"):
            return
        rest = _INNERMOST.sub("", rest)
    if any(c in rest for c in "[]{}"):
        raise InvalidRecordError(
            f"record: nested more than {MAX_DEPTH} deep (or unbalanced brackets)")


def read_json(text: str | bytes, *, rng: Any = None) -> Record:
    """Replay the JSON text of a record (see :func:`record_from_dict`; ``rng`` as there)."""
    _check_bounds(text)
    try:
        data = json.loads(text)
    except RecursionError:  # pragma: no cover - the bounds check comes first
        raise InvalidRecordError("record: nested too deeply") from None
    except (TypeError, ValueError) as e:
        raise InvalidRecordError(f"record: not JSON: {e}"[:300]) from None
    return record_from_dict(data, rng=rng)
