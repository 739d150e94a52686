"""FIBS ``board:`` strings ("boardstyle 3"), as FIBS sends them and GNU
Backgammon prints them (``set output rawboard``) and reads them (its
external player).

A board string is ``board:`` and 52 colon-separated fields::

    | fields | meaning |
    |---|---|
    | 1, 2 | your name, the opponent's name |
    | 3, 4, 5 | match length (0 money), your score, the opponent's score |
    | 6..31 | the board, 26 integers: index 0 and 25 are the bars, positive counts are the checkers of colour 1 (X), negative of colour -1 (O) |
    | 32 | turn: the colour on roll (1 or -1), 0 when the game is over |
    | 33, 34, 35, 36 | your dice, the opponent's dice (0 0: not rolled) |
    | 37 | the cube value |
    | 38, 39 | whether you may double, whether the opponent may double |
    | 40 | whether a double was offered (1) |
    | 41, 42 | your colour (1 or -1), your direction (-1: you move from index 24 down to 1, 1: up) |
    | 43, 44 | your home and bar index (0 and 25 for direction -1, 25 and 0 for direction 1) |
    | 45, 46, 47, 48 | checkers borne off (you, opponent), on the bar (you, opponent) |
    | 49, 50, 51, 52 | checkers you can move, forced move, whether the Crawford game is done, redoubles |

Fields 45..52 are derived or advisory: they are checked for range, and
the board itself decides.  The cube owner comes from fields 38 and 39:
both set, centred; one set, its player owns the cube; neither, centred
with a cube of 1 (the Crawford game in a match), else refused.
"""

from __future__ import annotations

from typing import Any, NamedTuple


from backgammon._show import shown
from backgammon.errors import BackgammonError, InvalidRecordError
from backgammon.game import Game, Phase
from backgammon.position import Position

_FIELDS = 52
_MAX_LEN = 2000  # characters: a real board string is about 150


class FibsBoard(NamedTuple):
    """The fields of a board string, read and checked (see the module doc)."""

    you: str
    opponent: str
    match_length: int
    score: tuple[int, int]          # (you, opponent)
    position: Position              # seen from you
    turn: int                       # 0 you are on roll, 1 the opponent, -1 game over
    dice: tuple[int, int] | None    # the dice of the player on roll
    cube: int
    may_double: tuple[bool, bool]   # (you, opponent)
    doubled: bool
    crawford: bool


def _ints(fields: list[str], text: str) -> list[int]:
    out = []
    for i, f in enumerate(fields):
        try:
            out.append(int(f))
        except ValueError:
            raise InvalidRecordError(f"field {i + 3} of a FIBS board must be an integer, "
                                     f"got {f!r}: {text[:200]!r}") from None
    return out


def parse_fibs_board(text: Any) -> FibsBoard:
    """The checked fields of a FIBS board string; :class:`InvalidRecordError` if malformed."""
    if not isinstance(text, str):
        raise InvalidRecordError(f"a FIBS board is a string, got {shown(text)}")
    text = text.strip()
    if len(text) > _MAX_LEN:
        raise InvalidRecordError(f"a FIBS board has about 150 characters, got {len(text)}")
    parts = text.split(":")
    if parts[0] != "board":
        raise InvalidRecordError(f"a FIBS board starts with 'board:', got {text[:40]!r}")
    if len(parts) != _FIELDS + 1:
        raise InvalidRecordError(f"a FIBS board has {_FIELDS} fields after 'board:', got "
                                 f"{len(parts) - 1}: {text[:200]!r}")
    you, opp = parts[1], parts[2]
    v = _ints(parts[3:], text)
    match_length, s_you, s_opp = v[0], v[1], v[2]
    board = v[3:29]
    turn, dice_you, dice_opp = v[29], (v[30], v[31]), (v[32], v[33])
    cube, may_you, may_opp, doubled = v[34], v[35], v[36], v[37]
    colour, direction, home, bar = v[38], v[39], v[40], v[41]
    if match_length < 0 or min(s_you, s_opp) < 0 or (match_length and match_length < 9999
                                                        and max(s_you, s_opp) >= match_length):
        raise InvalidRecordError(f"match length {match_length} and score {s_you}-{s_opp} "
                                 "do not describe a match in play")
    if colour not in (1, -1) or direction not in (1, -1):
        raise InvalidRecordError(f"colour and direction are 1 or -1, got {colour}, {direction}")
    if (home, bar) != ((0, 25) if direction == -1 else (25, 0)):
        raise InvalidRecordError(f"with direction {direction} home and bar are "
                                 f"{(0, 25) if direction == -1 else (25, 0)}, got {home}, {bar}")
    if turn not in (1, -1, 0):
        raise InvalidRecordError(f"turn is 1, -1 or 0 (game over), got {turn}")
    if turn == 0:
        raise InvalidRecordError("this board is of a finished game (turn 0)")
    if cube < 1 or cube & (cube - 1) or cube > 2 ** 15:
        raise InvalidRecordError(f"the cube shows a power of two, got {cube}")
    if may_you not in (0, 1) or may_opp not in (0, 1) or doubled not in (0, 1, -1):
        raise InvalidRecordError("the may-double fields are 0 or 1 and was-doubled 0, 1 or -1, "
                                 f"got {may_you}, {may_opp}, {doubled}")
    # your view: your point p at index p (direction -1) or 25 - p (direction 1)
    a = [colour * board[p if direction == -1 else 25 - p] for p in range(26)]
    try:
        pos = Position.from_array(a)
    except BackgammonError as e:
        raise InvalidRecordError(f"the board of this FIBS string is not a position: {e}") from None
    on_roll = 0 if turn == colour else 1
    raw = dice_you if on_roll == 0 else dice_opp
    if raw == (0, 0):
        dice = None
    elif all(1 <= d <= 6 for d in raw):
        dice = (int(raw[0]), int(raw[1]))
    else:
        raise InvalidRecordError(f"dice are two integers 1..6 (or 0 0), got {raw}")
    crawford = bool(match_length and cube == 1 and not may_you and not may_opp
                    and match_length - 1 in (s_you, s_opp))
    return FibsBoard(you, opp, match_length if match_length < 9999 else 0, (s_you, s_opp), pos,
                     on_roll, dice, cube, (bool(may_you), bool(may_opp)), bool(doubled), crawford)


def from_fibs_board(text: Any, *, player: int = 0, rules: Any = None, rng: Any = None) -> Game:
    """A :class:`Game` set up from a FIBS board string; "you" becomes ``player``."""
    if isinstance(player, bool) or player not in (0, 1):
        raise InvalidRecordError(f"player is 0 or 1, got {shown(player)}")
    fb = parse_fibs_board(text)
    you, opp = player, 1 - player
    if fb.may_double == (True, True):
        owner = None
    elif fb.may_double == (True, False):
        owner = you
    elif fb.may_double == (False, True):
        owner = opp
    elif fb.cube == 1:
        owner = None
    else:
        raise InvalidRecordError(f"a cube on {fb.cube} that neither player may turn: "
                                 "its owner is unknown")
    if owner is not None and fb.cube == 1:
        owner = None  # an owned cube shows at least 2: both may double a centred one
    turn = you if fb.turn == 0 else opp
    pos = fb.position if fb.turn == 0 else fb.position.swapped()
    score = (fb.score[0], fb.score[1]) if you == 0 else (fb.score[1], fb.score[0])
    try:
        game = Game.from_position(pos, turn=turn, dice=None if fb.doubled else fb.dice,
                                  cube=fb.cube, cube_owner=owner, rules=rules, rng=rng,
                                  match_length=fb.match_length, score=score,
                                  crawford=fb.crawford)
        if fb.doubled:
            game.double()
    except BackgammonError as e:
        raise InvalidRecordError(f"this FIBS board does not set up a game: {e}") from None
    return game


def to_fibs_board(game: Game, *, player: int | None = None,
                  names: tuple[str, str] = ("You", "Opponent")) -> str:
    """The FIBS board string of ``game`` seen by ``player`` ("you"; default
    the player to act, else 0), colour 1 moving down (as gnubg prints it).
    FIBS has no opening phase: before the opening roll player 0 shows as
    on roll without dice.  Fields 45..48 hold the checkers off and on the
    bar as FIBS fills them (gnubg's rawboard prints 0s there)."""
    if not isinstance(game, Game):
        raise TypeError(f"game must be a Game, got {shown(game)}")
    you = game.player_to_act if player is None else player
    you = 0 if you is None else you
    if isinstance(you, bool) or you not in (0, 1):
        raise InvalidRecordError(f"player is 0 or 1, got {shown(player)}")
    for n in names:
        if not isinstance(n, str) or not n or ":" in n or "\n" in n:
            raise InvalidRecordError(f"names are non-empty strings without ':', got {shown(names)}")
    if game.phase is Phase.OVER:
        turn = 0
    else:
        turn = 1 if game.turn == you else -1
    a = game.board(you).to_array()
    dice = game.dice if game.phase is Phase.MOVE and game.dice is not None else (0, 0)
    owner = game.cube_owner
    crawford = game.crawford

    def may(p: int) -> int:
        return int(game.rules.cube and not crawford and owner in (None, p))

    own_off, opp_off = game.board(you).borne_off()
    fields = [names[0], names[1], game.match_length, game.score[you], game.score[1 - you],
              *a.tolist(), turn, *dice, *dice, game.cube, may(you), may(1 - you),
              int(game.phase is Phase.DOUBLED), 1, -1, 0, 25, own_off, opp_off,
              int(a[25]), int(-a[0]), 0, 0, int(crawford), 1]
    return "board:" + ":".join(str(f) for f in fields)
