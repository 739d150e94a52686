"""gnubg's 12-character Match ID and the combined GNUbgID ``PositionID:MatchID``.

The match key is 66 bits (plus gnubg's Jacoby bit) packed least significant
bit first into 9 bytes and written in base64 without padding:

=========  =====================================================================
bits       field
=========  =====================================================================
0-3        log2 of the cube value
4-5        cube owner: 0, 1, or 3 = centred
6          dice owner: the player on roll, or who rolled ("move")
7          Crawford game
8-10       game state: 0 none, 1 playing, 2 over, 3 resigned, 4 dropped
11         turn: the player who must decide now (the taker while doubled)
12         a double is offered
13-14      resignation offered: 0 none, 1 single, 2 gammon, 3 backgammon
15-17      die 1 (0 = not rolled), 18-20 die 2
21-35      match length (0 = money), 36-50 score of player 0, 51-65 of player 1
66         set when the Jacoby rule is OFF (what gnubg itself writes)
=========  =====================================================================

    >>> key = decode_match_id("cAkAAAAAAAAA")
    >>> key.turn, key.move, key.game_state, key.jacoby
    (1, 1, 1, True)
    >>> encode_match_id(key)
    'cAkAAAAAAAAA'
"""

from __future__ import annotations

import base64
from collections.abc import Mapping
import binascii
from typing import TYPE_CHECKING, NamedTuple

from backgammon.errors import BackgammonError, InvalidRecordError
from backgammon.formats.loss import common_losses, report_loss
from backgammon._show import shown

if TYPE_CHECKING:  # pragma: no cover
    from backgammon.game import Game
    from backgammon.rules import Rules

__all__ = [
    "GAME_DROP",
    "GAME_NONE",
    "GAME_OVER",
    "GAME_PLAYING",
    "GAME_RESIGNED",
    "MatchKey",
    "decode_match_id",
    "encode_match_id",
    "game_from_gnubg_id",
    "game_gnubg_id",
]

GAME_NONE, GAME_PLAYING, GAME_OVER, GAME_RESIGNED, GAME_DROP = range(5)
_ALPHABET = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/")
_FIELDS = (  # (name, first bit, width)
    ("cube_log", 0, 4), ("owner", 4, 2), ("move", 6, 1), ("crawford", 7, 1),
    ("game_state", 8, 3), ("turn", 11, 1), ("doubled", 12, 1), ("resigned", 13, 2),
    ("die1", 15, 3), ("die2", 18, 3), ("match_length", 21, 15), ("score0", 36, 15),
    ("score1", 51, 15), ("no_jacoby", 66, 1),
)


class MatchKey(NamedTuple):
    """The fields of a Match ID.  ``cube_owner`` is -1 when centred; ``dice`` is
    ``(0, 0)`` when not rolled; ``resigned`` 0-3; ``game_state`` 0-4."""

    cube: int = 1
    cube_owner: int = -1
    move: int = 0
    crawford: bool = False
    game_state: int = GAME_PLAYING
    turn: int = 0
    doubled: bool = False
    resigned: int = 0
    dice: tuple[int, int] = (0, 0)
    match_length: int = 0
    score: tuple[int, int] = (0, 0)
    jacoby: bool = True


def encode_match_id(key: MatchKey) -> str:
    """The 12-character Match ID of ``key`` (dice written higher first, as gnubg does).

        >>> encode_match_id(MatchKey(dice=(3, 1)))
        'MIEFAAAAAAAA'
    """
    cube_log = key.cube.bit_length() - 1
    if key.cube < 1 or key.cube != 1 << cube_log or cube_log > 15:
        raise InvalidRecordError(f"the cube is a power of two up to 2^15, got {key.cube}")
    d1, d2 = sorted(key.dice, reverse=True)
    values = {
        "cube_log": cube_log, "owner": 3 if key.cube_owner == -1 else key.cube_owner,
        "move": key.move, "crawford": int(key.crawford), "game_state": key.game_state,
        "turn": key.turn, "doubled": int(key.doubled), "resigned": key.resigned,
        "die1": d1, "die2": d2, "match_length": key.match_length,
        "score0": key.score[0], "score1": key.score[1], "no_jacoby": int(not key.jacoby),
    }
    bits = 0
    for name, start, width in _FIELDS:
        value = values[name]
        if not 0 <= value < 1 << width:
            raise InvalidRecordError(f"Match ID field {name} out of range: {value}")
        bits |= value << start
    return base64.b64encode(bits.to_bytes(9, "little")).decode("ascii")


def decode_match_id(text: str) -> MatchKey:
    """The :class:`MatchKey` of a 12-character Match ID; :class:`InvalidRecordError` if malformed."""
    if not isinstance(text, str):
        raise InvalidRecordError(f"a Match ID is a string, got {shown(text)}")
    text = text.strip()
    if len(text) != 12 or not set(text) <= _ALPHABET:
        raise InvalidRecordError(
            f"a Match ID is 12 base64 characters (A-Z a-z 0-9 + /), got {shown(text)}")
    try:
        bits = int.from_bytes(base64.b64decode(text, validate=True), "little")
    except (binascii.Error, ValueError):  # pragma: no cover - alphabet checked above
        raise InvalidRecordError(f"not a Match ID: {shown(text)}") from None
    f = {name: (bits >> start) & ((1 << width) - 1) for name, start, width in _FIELDS}
    if bits >> 67:
        raise InvalidRecordError(f"Match ID {shown(text)} has bits set past its last field")
    if f["owner"] == 2:
        raise InvalidRecordError(f"Match ID {shown(text)}: cube owner bits 10 mean nothing")
    if f["game_state"] > GAME_DROP:
        raise InvalidRecordError(f"Match ID {shown(text)}: game state {f['game_state']} is not 0-4")
    if f["die1"] > 6 or f["die2"] > 6 or (f["die1"] == 0) != (f["die2"] == 0):
        raise InvalidRecordError(
            f"Match ID {shown(text)}: dice {f['die1']}-{f['die2']} are neither rolled nor unrolled")
    return MatchKey(
        cube=1 << f["cube_log"], cube_owner=-1 if f["owner"] == 3 else f["owner"],
        move=f["move"], crawford=bool(f["crawford"]), game_state=f["game_state"],
        turn=f["turn"], doubled=bool(f["doubled"]), resigned=f["resigned"],
        dice=(f["die1"], f["die2"]), match_length=f["match_length"],
        score=(f["score0"], f["score1"]), jacoby=not f["no_jacoby"])


# ----------------------------------------------------------------------
# Games


def game_match_key(game: Game) -> tuple[MatchKey, list[str]]:
    """The Match key of a game and the names of the fields it cannot carry."""
    from backgammon.game import RESIGN_KINDS, Phase

    rules = game.rules
    lost = common_losses(game)
    if rules.beaver:
        lost.append("the beaver rule")
    if rules.max_cube != 64:
        lost.append(f"max_cube={rules.max_cube}")
    if game.steps:
        lost.append(f"the steps made this turn {list(game.steps)}")
    phase = game.phase
    state, resigned, doubled, turn = GAME_PLAYING, 0, False, game.turn
    if phase is Phase.OPENING:
        state = GAME_NONE
    elif phase is Phase.DOUBLED:
        doubled, turn = True, 1 - game.turn
    elif phase is Phase.RESIGNED:
        assert game.resignation is not None
        resigned = RESIGN_KINDS.index(game.resignation[1]) + 1
        turn = 1 - game.resignation[0]
        doubled = game._resume is Phase.DOUBLED
        if game._resume is Phase.OPENING:
            state = GAME_NONE
    elif phase is Phase.OVER:
        assert game.result is not None
        reason = game.result.reason
        state = {"bearoff": GAME_OVER, "resign": GAME_RESIGNED, "drop": GAME_DROP}[reason]
        if reason == "resign":
            resigned = RESIGN_KINDS.index(game.result.kind) + 1
            turn = game.result.winner
        elif reason == "drop":
            turn = 1 - game.turn
    jacoby = rules.jacoby if not game.match_length else False  # gnubg's default
    read = _read_id(game)
    if read is not None and game.match_length:
        jacoby = decode_match_id(read.split(":")[1]).jacoby  # the bit as it was read
    key = MatchKey(
        cube=game.cube, cube_owner=-1 if game.cube_owner is None else game.cube_owner,
        move=game.turn, crawford=game.crawford, game_state=state, turn=turn,
        doubled=doubled, resigned=resigned, dice=game.dice or (0, 0),
        match_length=game.match_length, score=game.score, jacoby=jacoby)
    return key, lost


def _read_id(game: Game) -> str | None:
    """The GNUbgID a game was set up from, if any."""
    start = game.start
    return start.get("gnubg_id") if isinstance(start, Mapping) else None


def game_gnubg_id(game: Game, *, strict: bool = False) -> str:
    """``PositionID:MatchID`` of a game (see :meth:`Game.gnubg_id`)."""
    key, lost = game_match_key(game)
    report_loss("gnubg ID", lost, strict=strict)
    read = _read_id(game)
    if read is not None and not game.actions and not game.steps:
        return read  # untouched since it was read: the same string (gnubg's state 0 too)
    return f"{game.position.position_id()}:{encode_match_id(key)}"


def split_gnubg_id(text: str) -> tuple[str, str]:
    """(Position ID, Match ID) of ``PositionID:MatchID`` (either order; ``GNUbgID`` prefix allowed)."""
    if not isinstance(text, str):
        raise InvalidRecordError(f"a GNUbgID is a string, got {shown(text)}")
    body = text.strip()
    for prefix in ("GNUbgID=", "GNUbgID:", "GNUbgID"):
        if body.startswith(prefix):
            body = body[len(prefix):].strip()
            break
    parts = [p.strip() for p in body.split(":")]
    if len(parts) != 2:
        raise InvalidRecordError(f"a GNUbgID is PositionID:MatchID, got {shown(text)}")
    a, b = parts
    if len(a) == 12 and len(b) == 14:
        a, b = b, a
    return a, b


def game_from_gnubg_id(text: str, *, rules: Rules | None = None, rng: object = None) -> Game:
    """The game of a GNUbgID (see :meth:`Game.from_gnubg_id`)."""
    from backgammon.game import RESIGN_KINDS, Game, GameResult, Phase
    from backgammon.position import Position
    from backgammon.rules import Rules

    pos_text, match_text = split_gnubg_id(text)
    try:
        position = Position.from_position_id(pos_text)
    except BackgammonError as e:
        raise InvalidRecordError(f"GNUbgID {shown(text)}: {e}") from None
    key = decode_match_id(match_text)
    base = Rules() if rules is None else rules
    match_play = key.match_length > 0
    if key.cube > 64:
        raise InvalidRecordError(f"GNUbgID {shown(text)}: cube {key.cube} is above 64 (RULES 8.4)")
    if key.crawford and not match_play:
        raise InvalidRecordError(f"GNUbgID {shown(text)}: a Crawford flag in a money game")
    if not match_play and key.score != (0, 0):
        report_loss("Game read from a GNUbgID",
                    [f"the money session score {key.score[0]}-{key.score[1]}"], strict=False)
    try:
        rules = base.replace(jacoby=key.jacoby and not match_play,
                             max_cube=max(base.max_cube, key.cube))
        if match_play:
            rules = rules.replace(automatic_doubles=0)
        if key.game_state == GAME_NONE:
            if position != Position.initial():
                raise InvalidRecordError(
                    f"GNUbgID {shown(text)}: no game yet, but the Position ID is not the "
                    "opening position")
            if key.cube_owner != -1 or (key.cube > 1 and (match_play or not rules.cube)):
                raise InvalidRecordError(
                    f"GNUbgID {shown(text)}: before the opening roll the cube is in the middle "
                    "(only automatic doubles, RULES 9.3, can have raised it)")
            if key.dice != (0, 0):
                # gnubg's analysis exports show the first play of a game this way: the
                # game at its first play, the dice owner to play them
                if key.doubled or key.resigned or key.turn != key.move:
                    raise InvalidRecordError(
                        f"GNUbgID {shown(text)}: no game yet with dice shown is the first play: "
                        "nothing offered, the player to act on roll")
                if key.dice[0] == key.dice[1]:
                    raise InvalidRecordError(
                        f"GNUbgID {shown(text)}: the first play of a game is never a double "
                        "(RULES 2.1)")
                game = Game.from_position(position, turn=key.move, dice=key.dice,
                                          cube=key.cube, rules=rules, rng=rng,
                                          match_length=key.match_length, score=key.score,
                                          crawford=key.crawford)
                game._set(automatic_doubles_used=key.cube.bit_length() - 1,
                          start=dict(game.start or {}, gnubg_id=f"{pos_text}:{match_text}"))
                return game
            game = Game(rules, rng=rng, match_length=key.match_length, score=key.score,
                        crawford=key.crawford)
            game._set(cube=key.cube,  # automatic doubles on opening ties
                      automatic_doubles_used=key.cube.bit_length() - 1)
            if key.doubled:
                raise InvalidRecordError(f"GNUbgID {shown(text)}: no game, yet a double")
            if key.resigned:  # a resignation offered before the opening roll
                game._set(resignation=(1 - key.turn, RESIGN_KINDS[key.resigned - 1]),
                          resume=Phase.OPENING, phase=Phase.RESIGNED)
            if key.cube > 1 or key.resigned or (match_play and key.jacoby):
                # not a plain new game (or gnubg's Jacoby bit clear in a match, kept as
                # read): restart() and writing need the ID
                game._set(start={"gnubg_id": f"{pos_text}:{match_text}"})
            return game
        dice = key.dice if key.dice != (0, 0) else None
        owner = None if key.cube_owner == -1 else key.cube_owner
        if key.game_state in (GAME_PLAYING, GAME_RESIGNED, GAME_DROP):
            if key.game_state != GAME_PLAYING and position.outcome() is not None:
                raise InvalidRecordError(f"GNUbgID {shown(text)}: the position is already over")
            game = Game.from_position(position, turn=key.move, dice=dice, cube=key.cube,
                                      cube_owner=owner, rules=rules, rng=rng,
                                      match_length=key.match_length, score=key.score,
                                      crawford=key.crawford)
        else:  # GAME_OVER: the board shows the end
            game = Game(rules, rng=rng, match_length=key.match_length, score=key.score,
                        crawford=key.crawford)
            outcome = position.outcome()
            if outcome is None:
                raise InvalidRecordError(f"GNUbgID {shown(text)}: game over but nobody has won")
            game._check_cube(key.cube, owner)
            game._set(position=position, turn=key.move, rolled=dice, cube=key.cube,
                      cube_owner=owner)
            winner = key.move if outcome.winner == 0 else 1 - key.move
            game._end(winner, outcome.kind, "bearoff", key.cube)
            game._set(start={"gnubg_id": f"{pos_text}:{match_text}"})
            return game
    except InvalidRecordError:
        raise
    except ValueError as e:  # BackgammonError, or a match score no game can have
        raise InvalidRecordError(f"GNUbgID {shown(text)}: {e}") from None
    # restart() and the records set a game up again from its ID, whatever its state
    game._set(start=dict(game.start or {}, gnubg_id=f"{pos_text}:{match_text}"))
    if key.game_state == GAME_DROP:
        game._set(rolled=None, result=GameResult(key.move, key.cube, "single", "drop", key.cube),
                  phase=Phase.OVER)
        return game
    if key.game_state == GAME_RESIGNED:
        if not key.resigned:
            raise InvalidRecordError(f"GNUbgID {shown(text)}: resigned, but no resignation kind")
        game._end(key.turn, RESIGN_KINDS[key.resigned - 1], "resign", key.cube)
        return game
    if key.doubled:
        if dice is not None:
            raise InvalidRecordError(f"GNUbgID {shown(text)}: a double offered after rolling")
        if key.turn == key.move and not key.resigned:
            raise InvalidRecordError(f"GNUbgID {shown(text)}: the doubler cannot answer the double")
        refusal = game._double_refusal(game.turn)
        if refusal is not None:
            raise InvalidRecordError(f"GNUbgID {shown(text)}: a double offered, but {refusal}")
        game._set(phase=Phase.DOUBLED)
    elif not key.resigned and key.turn != key.move:
        raise InvalidRecordError(
            f"GNUbgID {shown(text)}: player {key.turn} to act but player {key.move} is on roll")
    if key.resigned:
        game._set(resignation=(1 - key.turn, RESIGN_KINDS[key.resigned - 1]),
                  resume=game.phase, phase=Phase.RESIGNED)
    return game
