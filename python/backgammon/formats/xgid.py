"""eXtreme Gammon's XGID: ``XGID=position:cube:owner:turn:dice:s0:s1:flags:length:maxcube``.

In this library the bottom player is player 0 and the top player is player 1.

==============  ==================================================================
field           meaning
==============  ==================================================================
position        26 characters seen from the bottom player: [0] the top player's
                bar, [1..24] the points in the bottom player's numbering, [25] the
                bottom player's bar; ``-`` empty, ``A``-``O`` 1-15 bottom checkers,
                ``a``-``o`` top checkers.  The same layout as this library's arrays.
cube            log2 of the cube value
owner           1 bottom, -1 top, 0 centred
turn            1 bottom player on roll, -1 top
dice            ``00`` not rolled, ``D`` the player on roll doubled (the other must
                answer), ``B`` beavered, ``R`` raccoon; else two digits
s0, s1          scores of bottom and top
flags           match: 1 = Crawford game; money: 1 = Jacoby, + 2 = beaver
length          match length, 0 = money
maxcube         log2 of the highest cube
==============  ==================================================================

    >>> fields = decode_xgid("XGID=-b----E-C---eE---c-e----B-:0:0:1:52:0:0:0:0:10")
    >>> fields.board[24], fields.dice, fields.max_cube
    (2, (5, 2), 1024)
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, NamedTuple

from backgammon.errors import InvalidRecordError
from backgammon.formats.loss import common_losses, report_loss
from backgammon._numbers import read_int
from backgammon._show import shown

if TYPE_CHECKING:  # pragma: no cover
    from backgammon.game import Game
    from backgammon.rules import Rules

__all__ = ["XGIDFields", "decode_xgid", "encode_xgid", "game_from_xgid", "game_xgid"]


class XGIDFields(NamedTuple):
    """The fields of an XGID.  ``board`` is 26 ints from the bottom player's side;
    ``cube_owner`` and ``turn`` are players 0 (bottom) / 1 (top), owner ``None`` when
    centred; ``dice`` is ``None`` or two dice; ``action`` is ``""``, ``"D"``, ``"B"``
    or ``"R"``."""

    board: tuple[int, ...]
    cube: int = 1
    cube_owner: int | None = None
    turn: int = 0
    dice: tuple[int, int] | None = None
    action: str = ""
    score: tuple[int, int] = (0, 0)
    flags: int = 0
    match_length: int = 0
    max_cube: int = 1024


def _char(n: int) -> str:
    if n == 0:
        return "-"
    return chr(ord("A") + n - 1) if n > 0 else chr(ord("a") - n - 1)


def encode_xgid(f: XGIDFields) -> str:
    """The ``XGID=...`` text of ``f``.

        >>> start = (0, -2, 0, 0, 0, 0, 5, 0, 3, 0, 0, 0, -5, 5, 0, 0, 0, -3, 0, -5,
        ...          0, 0, 0, 0, 2, 0)
        >>> encode_xgid(XGIDFields(start, max_cube=64))
        'XGID=-b----E-C---eE---c-e----B-:0:0:1:00:0:0:0:0:6'
    """
    pos = "".join(_char(v) for v in f.board)
    owner = {None: 0, 0: 1, 1: -1}[f.cube_owner]
    turn = 1 if f.turn == 0 else -1
    dice = f.action or (f"{f.dice[0]}{f.dice[1]}" if f.dice else "00")
    return (f"XGID={pos}:{f.cube.bit_length() - 1}:{owner}:{turn}:{dice}:"
            f"{f.score[0]}:{f.score[1]}:{f.flags}:{f.match_length}:{f.max_cube.bit_length() - 1}")


def _int(text: str, what: str, whole: str) -> int:
    return read_int(text, what, lambda msg: InvalidRecordError(f"XGID {shown(whole)}: {msg}"),
                    signed=True)


def decode_xgid(text: str) -> XGIDFields:
    """The :class:`XGIDFields` of an XGID (prefix optional); :class:`InvalidRecordError` if bad."""
    if not isinstance(text, str):
        raise InvalidRecordError(f"an XGID is a string, got {shown(text)}")
    body = text.strip()
    body = body.removeprefix("XGID=")
    parts = body.split(":")
    if len(parts) != 10:
        raise InvalidRecordError(f"an XGID has 10 fields separated by ':', got {shown(text)}")
    pos = parts[0]
    if len(pos) != 26:
        raise InvalidRecordError(f"XGID {shown(text)}: the position has 26 characters, not {len(pos)}")
    board = []
    for ch in pos:
        if ch == "-":
            board.append(0)
        elif "A" <= ch <= "O":
            board.append(ord(ch) - ord("A") + 1)
        elif "a" <= ch <= "o":
            board.append(-(ord(ch) - ord("a") + 1))
        else:
            raise InvalidRecordError(f"XGID {shown(text)}: {shown(ch)} is not a checker count")
    cube_log = _int(parts[1], "the cube", text)
    owner = _int(parts[2], "the cube owner", text)
    turn = _int(parts[3], "the turn", text)
    if not 0 <= cube_log <= 15 or owner not in (-1, 0, 1) or turn not in (-1, 1):
        raise InvalidRecordError(f"XGID {shown(text)}: cube, owner or turn out of range")
    dice_text = parts[4]
    dice, action = None, ""
    if dice_text in ("D", "B", "R"):
        action = dice_text
    elif dice_text != "00":
        if len(dice_text) != 2 or not all(c in "123456" for c in dice_text):
            raise InvalidRecordError(f"XGID {shown(text)}: dice {shown(dice_text)} are not 00, D, B, R or two dice")
        dice = (int(dice_text[0]), int(dice_text[1]))
    s0, s1, flags, length, max_log = (_int(parts[i], name, text) for i, name in
                                      ((5, "score 1"), (6, "score 2"), (7, "the flags"),
                                       (8, "the match length"), (9, "the max cube")))
    if min(s0, s1, flags, length, max_log) < 0 or flags > 3 or max_log > 15:
        raise InvalidRecordError(f"XGID {shown(text)}: a number is out of range")
    return XGIDFields(tuple(board), 1 << cube_log, {0: None, 1: 0, -1: 1}[owner],
                      0 if turn == 1 else 1, dice, action, (s0, s1), flags, length,
                      1 << max_log)


# ----------------------------------------------------------------------
# Games


def game_xgid(game: Game, *, strict: bool = False) -> str:
    """The XGID of a game (see :meth:`Game.xgid`)."""
    from backgammon.game import Phase

    rules = game.rules
    lost = common_losses(game)
    if game.match_length and rules.beaver:
        lost.append("the beaver rule in a match")
    if game.steps:
        lost.append(f"the steps made this turn {list(game.steps)}")
    phase = game.phase
    if phase is Phase.OPENING:
        lost.append("the opening roll not yet made")
    elif phase is Phase.RESIGNED:
        lost.append("the resignation offered")
    elif phase is Phase.OVER:
        lost.append("the end of the game")
    if game.match_length:
        flags = int(game.crawford)
    else:
        flags = int(rules.jacoby) + 2 * int(rules.beaver)
    doubled = phase is Phase.DOUBLED or (phase is Phase.RESIGNED
                                         and game._resume is Phase.DOUBLED)
    fields = XGIDFields(tuple(game.board(0).tolist()), game.cube, game.cube_owner, game.turn,
                        game.dice if not doubled else None, "D" if doubled else "",
                        game.score, flags, game.match_length, rules.max_cube)
    report_loss("XGID", lost, strict=strict)
    return encode_xgid(fields)


def game_from_xgid(text: str, *, rules: Rules | None = None, rng: Any = None) -> Game:
    """The game of an XGID (see :meth:`Game.from_xgid`).

    ``D`` gives a game waiting for the other player's answer; ``B`` (the
    double was beavered) a game where the player on roll now rolls, with the
    cube as the XGID shows it; ``R`` (raccoon) is not a rule of this library.
    A max cube above 64 is read as 64 (RULES 8.4).
    """
    from backgammon.game import Game, Phase
    from backgammon.position import Position
    from backgammon.rules import Rules

    f = decode_xgid(text)
    if f.action == "R":
        raise InvalidRecordError(f"XGID {shown(text)}: raccoons are not a rule of this library")
    base = Rules() if rules is None else rules
    match_play = f.match_length > 0
    ignored = []  # XG's usual max cube 2^10 is not reported: this library's cube stops at 64
    if not match_play and f.score != (0, 0):
        ignored.append(f"the money session score {f.score[0]}-{f.score[1]}")
    report_loss("Game read from an XGID", ignored, strict=False)
    if f.cube > 64:
        raise InvalidRecordError(f"XGID {shown(text)}: cube {f.cube} is above 64 (RULES 8.4)")
    try:
        position0 = Position(f.board)
        if match_play:
            if f.flags > 1:
                raise InvalidRecordError(f"XGID {shown(text)}: match flags are 0 or 1 (Crawford)")
            rules = base.replace(jacoby=False, automatic_doubles=0,
                                 max_cube=max(f.cube, min(f.max_cube, 64)))
        else:
            rules = base.replace(jacoby=bool(f.flags & 1), beaver=bool(f.flags & 2),
                                 max_cube=max(f.cube, min(f.max_cube, 64)))
        position = position0 if f.turn == 0 else position0.swapped()
        game = Game.from_position(position, turn=f.turn, dice=f.dice, cube=f.cube,
                                  cube_owner=f.cube_owner, rules=rules, rng=rng,
                                  match_length=f.match_length,
                                  score=f.score if match_play else (0, 0),
                                  crawford=match_play and bool(f.flags & 1))
    except InvalidRecordError:
        raise
    except ValueError as e:  # BackgammonError, or a match score no game can have
        raise InvalidRecordError(f"XGID {shown(text)}: {e}") from None
    if f.action == "D":
        refusal = game._double_refusal(game.turn)
        if refusal is not None:
            raise InvalidRecordError(f"XGID {shown(text)}: a double offered, but {refusal}")
        game._set(phase=Phase.DOUBLED)
    game._set(start=dict(game.start or {}, xgid=text.strip()))
    return game
