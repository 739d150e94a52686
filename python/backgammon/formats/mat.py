"""Jellyfish / gnubg ``.mat`` match records: writing, and reading with every play checked.

The layout is gnubg's (``export match mat``)::

     5 point match

     Game 1
     Ann : 0                         Bob : 0
      1) 31: 8/5 6/5                 61: 13/7 8/7
      2)  Doubles => 2                Takes
      3) 52: 13/8 13/11              ...
                                      Wins 1 point

Each numbered row holds player 0's turn (from column 6) and player 1's (from
column 34): a roll and its play in the mover's own numbering (RULES 13.1),
``Doubles => N``, ``Takes``, ``Drops``; ``Wins N point(s)`` ends a game.  A
money session is a ``0 point match``.

The header tags ``; [Key "Value"]`` name the players and carry the Crawford
rule, the Jacoby and beaver rules (money) and the cube limit, as gnubg writes
them.  Reading accepts what other programs write too: either column width (the
right column is found from the score line), ``Cannot Move`` or nothing after
a roll that cannot be played (nothing also after dice rolled just before a
resignation, as gnubg writes them), ``Passes`` for ``Drops``, any spelling of plays
that :meth:`Position.parse_play` reads.  A ``Wins`` line for a game that is
not over is the accepted resignation it implies.  Every roll, play and cube
action is replayed through :class:`Game`, so an illegal play is an
:class:`InvalidRecordError` naming the game and line.

    >>> from backgammon.match import Match
    >>> m = Match(3, names=("Ann", "Bob"), rng=1)
    >>> m.game.roll((3, 1)); m.game.play("8/5 6/5"); m.game.roll((6, 1)); m.game.play("13/7 8/7")
    >>> m.game.double(); m.game.drop()
    >>> print(write_mat(m))
    ; [Player 1 "Ann"]
    ; [Player 2 "Bob"]
    ; [Variation "Backgammon"]
    ; [Crawford "On"]
    ; [CubeLimit "64"]
    <BLANKLINE>
     3 point match
    <BLANKLINE>
     Game 1
     Ann : 0                        Bob : 0
      1) 31: 8/5 6/5                 61: 13/7 8/7
      2)  Doubles => 2                Drops
          Wins 1 point
    <BLANKLINE>
    >>> read_mat(write_mat(m)).match.score
    (1, 0)
"""

from __future__ import annotations

import random
import re
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, NamedTuple

from backgammon.errors import BackgammonError, InvalidRecordError
from backgammon.formats._walk import Event, lose, record_games, walk
from backgammon.formats.loss import report_loss
from backgammon.notation import format_play
from backgammon._numbers import is_digits, read_int
from backgammon._show import shown

if TYPE_CHECKING:  # pragma: no cover
    from backgammon.game import Game
    from backgammon.match import Match
    from backgammon.rules import Rules

__all__ = ["MatRecord", "read_mat", "write_mat"]

_LEFT = 5      # cells start after "NNN) "
_WIDTH = 28    # gnubg's left cell width: the right column starts at 33 (0-based)


class MatRecord(NamedTuple):
    """What a ``.mat`` file holds: the players' ``names``, the ``match_length``
    (0 = money), the replayed ``games``, and the :class:`Match` (``None`` for money)."""

    names: tuple[str, str]
    match_length: int
    games: list[Game]
    match: Match | None


# ----------------------------------------------------------------------
# Writing


def _cell(event: Event, lost: list[str]) -> tuple[Any, str] | None:
    """The (player, text) cell of one event of a game, or ``None``."""
    kind, player, dice = event.kind, event.player, event.dice
    if kind == "play":
        assert dice is not None  # walk gives every play its dice
        text = format_play(event.position.tolist(), [tuple(s) for s in event.moves])
        return (player, f"{dice[0]}{dice[1]}: {text}".rstrip())
    if kind == "double":
        return (player, f" Doubles => {event.cube * 2}")
    if kind == "take":
        return (player, " Takes")
    if kind == "drop":
        return (player, " Drops")
    if kind == "beaver":
        lose(lost, "a beaver (not Jellyfish notation)")
        return (player, f" Beavers => {event.cube * 4}")
    assert dice is not None  # "accept" and "unplayed": walk gives them their dice
    d1, d2 = dice
    if kind == "accept":  # rolled, then resigned: gnubg writes "NN:" alone
        plays = event.position.legal_plays((d1, d2))
        if len(plays) == 1 and plays[0].moves:
            # gnubg plays a forced play of "NN:" when it reads it
            lost.append(f"the roll {d1}{d2} made before a resignation (its play "
                        "is forced: gnubg would read it as played)")
            return None
        return (player, f"{d1}{d2}:")
    # "unplayed": rolled, never played: "NN:" would read as a lost turn
    lost.append(f"the roll {d1}{d2} made but not played")
    return None


def _cells(game: Game, lost: list[str]) -> list[tuple[Any, str]]:
    """(player, text) for every turn and cube action of a game, in order."""
    return walk(game, lost, lambda event: _cell(event, lost), ".mat readers")


def resigned_kind_hidden(game: Game) -> bool:
    """Whether reading "Wins N points" back would give another kind than was resigned."""
    from backgammon.game import RESIGN_KINDS

    r = game.result
    if r is None or r.reason != "resign":
        return False
    first = next(k for k in RESIGN_KINDS
                 if game.rules.points(k, cube=r.cube, cube_turned=game.cube_turned,
                                      match_play=game.match_play) == r.points)
    return first != r.kind


def _rows(cells: list[tuple[Any, str]]) -> list[list[str]]:
    rows: list[list[str]] = []
    for player, text in cells:
        if player == 0:
            if not rows or rows[-1][0] or rows[-1][1]:
                rows.append(["", ""])
            rows[-1][0] = text
        else:
            if not rows or rows[-1][1]:
                rows.append(["", ""])
            rows[-1][1] = text
    return rows


def _game_text(number: int, game: Game, names: Sequence[str], match_won: bool,
               lost: list[str]) -> str:
    s0, s1 = game.score
    left = f"{names[0]} : {s0}"
    # gnubg pads the left score to 31 columns; a longer one runs into the right name,
    # which then reads back only if one space separates them
    gap = "" if len(left) < 31 else " "
    lines = [f" Game {number}", f" {left:<31}{gap}{names[1]} : {s1}"]
    rows = _rows(_cells(game, lost))
    last = ""
    if game.result is not None and game.result.reason == "forfeit":
        # Galaxy's spelling of a forfeited match: "Losses N point" in the forfeiter's column
        rows.append(["", ""])
        rows[-1][1 - game.result.winner] = f" Losses {game.result.points} point"
    if game.result is not None:
        r = game.result
        text = f"Wins {r.points} point{'s' if r.points != 1 else ''}"
        if match_won:
            text += " and the match"
        if r.winner == 1 and rows and not rows[-1][1]:
            rows[-1][1] = " " + text  # gnubg: on the row of the last left cell (a drop)
        else:
            last = (" " * (_LEFT + 1) if r.winner == 0 else " " * (_LEFT + _WIDTH + 1)) + text
    for i, (a, b) in enumerate(rows, start=1):
        # gnubg's "%-27s ": a left cell longer than the column still ends with a space,
        # and one alone keeps its padding (gnubg misreads "Takes" then "Wins" without)
        line = f"{i:3d}) {a:<{_WIDTH - 1}} {b}"
        lines.append(line.rstrip() if b or not a else line)
    if last:
        lines.append(last)
    return "\n".join(lines) + "\n"


def _safe_names(names: Sequence[str], lost: list[str]) -> tuple[str, str]:
    """Names that read back as written: one line, no ``:`` (the score line splits at
    it), no ``"`` (the header tags quote them), not empty; others are mended and reported."""
    out = []
    for k, name in enumerate(names[:2]):
        name = str(name)
        safe = " ".join("".join(c if c.isprintable() else " " for c in name).split())
        safe = safe.replace(":", ";").replace('"', "'")
        safe = safe or f"Player {k + 1}"
        if safe != name:
            lost.append(f"the name {shown(name)} (written {shown(safe)})")
        out.append(safe)
    return out[0], out[1]


def write_mat(source: Match | Sequence[Game], *, names: Sequence[str] | None = None,
              strict: bool = False) -> str:
    """The ``.mat`` text of a :class:`Match`, or of money games (a ``0 point match``).

    What the format cannot carry (automatic doubles, beavers, rejected
    resignations, games set up from a position, uncommitted steps, rule
    options) is reported with :class:`FormatLossWarning` (:class:`FormatLossError`
    if ``strict``).
    """
    from backgammon.match import Match

    lost: list[str] = []
    games, length, names = record_games(source, names, "a .mat", "write_mat")
    winner = source.winner if isinstance(source, Match) else None
    names = _safe_names(names, lost)
    rules = games[0].rules
    if rules.backgammon_value != 3:
        lost.append("a backgammon worth 2")
    if not rules.cube:
        lost.append("games without the cube")
    if any(g.start is not None for g in games):
        lost.append("games set up from a position")
    if any(g.rules != rules for g in games):
        lost.append("games with other rules than the first")
    if not isinstance(source, Match) and any(g.match_length for g in games):
        lost.append("a game of a match in a money session")
    if any(resigned_kind_hidden(g) for g in games):
        lost.append("the kind resigned where another kind scores the same (only the points "
                    "are written)")
    header = [f'; [Player 1 "{names[0]}"]', f'; [Player 2 "{names[1]}"]',
              '; [Variation "Backgammon"]']
    if isinstance(source, Match):
        header.append(f'; [Crawford "{"On" if source.crawford_rule else "Off"}"]')
    else:
        header.append(f'; [Jacoby "{"On" if rules.jacoby else "Off"}"]')
        header.append(f'; [Beaver "{"On" if rules.beaver else "Off"}"]')
    header.append(f'; [CubeLimit "{rules.max_cube}"]')
    header.append("")
    header.append(f" {length} point match")
    parts = ["\n".join(header) + "\n"]
    for i, game in enumerate(games, start=1):
        last = i == len(games)
        parts.append(_game_text(i, game, names, last and winner is not None, lost))
    report_loss(".mat record", lost, strict=strict)
    return "\n".join(parts)


# ----------------------------------------------------------------------
# Reading
#
# Every pattern here runs in time linear in its line (no nested or adjacent
# unbounded repeats that can overlap), and every number is at most _DIGITS long.

MAX_TEXT = 1 << 26
"""The longest ``.mat`` text read (64 Mi characters; real files are a few hundred KB)."""
MAX_GAMES = 100_000
"""The most games a file may hold (a long money session has a few hundred)."""
_DIGITS = 6     # no count in a .mat file needs more (gnubg: match length < 2^15)
_MAX_CELL = 200  # a roll and the longest play spelled out fit in far less

# numbers are ASCII digits ([0-9], never \d, which matches "٣")
_GAME = re.compile(r"\s*Game\s+([0-9]+)\s*", re.IGNORECASE)
_LENGTH = re.compile(r"\s*([0-9]+)\s+point\s+match\s*", re.IGNORECASE)
_ROW = re.compile(r"\s*[0-9]+\)")
_ROLL = re.compile(r"([1-6])([1-6]):(.*)", re.DOTALL)
_CUBE = re.compile(r"(Doubles|Beavers)\s*=>\s*([0-9]+)", re.IGNORECASE)
_WINS = re.compile(r"(Wins|Losses|Loses)\s+([0-9]+)\s+points?(\s+and\s+the\s+match)?",
                   re.IGNORECASE)
_RUN = re.compile(r"\S+(?: \S+)*")
_CELL_START = re.compile(r"(?<= )(?:[1-6][1-6]:|(?:Doubles|Beavers|Takes|Accepts|Drops|Passes|"
                         r"Rejects|Refuses|Wins|Losses|Loses)\b)", re.IGNORECASE)
_NO_MOVE = {"", "cannot move", "can't move", "no move", "cannot play"}
_UNPLAYED = {"", "????"}  # a roll made, then a resignation or the end (gnubg, XG, BGStudio)


def _fail(msg: str, line_no: int | None) -> InvalidRecordError:
    where = f" (line {line_no})" if line_no is not None else ""
    return InvalidRecordError(f".mat{where}: {msg}")


def _number(digits: str, what: str, line_no: int | None) -> int:
    return read_int(digits, what, lambda msg: _fail(msg, line_no), digits=_DIGITS)


def _tag(line: str) -> tuple[str, str] | None:
    """(key, value) of a header tag ``; [Key "Value"]``, else ``None``."""
    body = line.strip()
    if not body.startswith(";"):
        return None
    body = body[1:].strip()
    if len(body) < 4 or body[0] != "[" or body[-1] != "]":
        return None
    body = body[1:-1].strip()
    quote = body.find('"')
    key, value = body[:quote], body[quote + 1:]
    if quote < 1 or not key[-1].isspace() or '"' in key or "]" in key or \
            not value.endswith('"') or '"' in value[:-1]:
        return None
    return key.strip(), value[:-1]


def _score_line(line: str, line_no: int) -> tuple[str, int, str, int, int] | None:
    """(name 0, score 0, name 1, score 1, where the right column starts) of
    ``name : score   name : score``, else ``None``.

    Split as gnubg's reader does: player 0's name ends at the first colon and
    their score is the digits after it, so a long left score that runs into the
    right name (gnubg pads it to 31 columns) still splits; player 1's name ends
    at the last colon.
    """
    first = line.find(":")
    last = line.rfind(":")
    n0 = line[:first].strip()
    if first < 0 or last == first or not n0:
        return None
    i = first + 1
    while i < len(line) and line[i] == " ":
        i += 1
    j = i
    while j < len(line) and is_digits(line[j]):
        j += 1
    if j < len(line) and (line[j] == "_" or line[j].isdigit()):
        # '1_0', '1²': int() would take them or isdigit() does; not a run-in name
        raise _fail(f"a score {line[i:j + 1]!r} (ASCII digits only)", line_no)
    k = j
    while k < len(line) and line[k].isspace():
        k += 1
    n1, s1 = line[k:last].strip(), line[last + 1:].strip()
    if i == j or not n1 or not is_digits(s1) or k >= last:
        return None
    # a padded right name starts the right column; a run-in one says nothing of
    # it: gnubg's column then
    boundary = k if k - j >= 2 else _LEFT + _WIDTH - 1
    return (n0, _number(line[i:j], "a score", line_no), n1,
            _number(s1, "a score", line_no), boundary)


def _split_cells(line: str, boundary: int) -> list[tuple[int, str]]:
    """(column 0 or 1, text) of the cells on a line: runs of text separated by two or
    more spaces, placed by where they start."""
    body_start = 0
    m = _ROW.match(line)
    if m:
        body_start = m.end()
    runs = [(r.start(), r.group()) for r in _RUN.finditer(line, body_start)]
    out = []
    for n, (start, text) in enumerate(runs):
        end = start + len(text)
        if m and n == len(runs) - 1 and start < boundary - 3 and end > boundary + 1:
            # the last run starts left and crosses the column: a full left cell runs
            # into the right one with a single space between: cut before the first
            # word that starts a cell (a roll "NN:", a cube action, "Wins"), else at
            # the last space before the column.  (A left cell followed by two spaces
            # and more text is whole, however long: gnubg's "%-27s " then " Takes".)
            nxt = _CELL_START.search(text, 1)
            cut = start + nxt.start() - 1 if nxt else line.rfind(" ", start, boundary + 2)
            if cut > start:
                out.append((0, line[start:cut]))
                out.append((1, line[cut + 1:end]))
                continue
        out.append((0 if start < boundary - 3 else 1, text))
    return out


def read_mat(text: str, *, rules: Rules | None = None) -> MatRecord:
    """Replay a ``.mat`` record; :class:`InvalidRecordError` (with the line) if anything
    in it is malformed or illegal.  ``rules`` gives options the file does not carry.

    A byte-order mark and any line ends (CRLF, CR, LF) are accepted."""
    from backgammon.game import Game
    from backgammon.match import Match
    from backgammon.rules import Rules

    if not isinstance(text, str):
        raise InvalidRecordError(f"a .mat record is text, got {type(text).__name__}")
    if len(text) > MAX_TEXT:
        raise _fail(f"the text is {len(text)} characters long (at most {MAX_TEXT})", None)
    lines = text.removeprefix("\ufeff").splitlines()
    tags: dict[str, str] = {}
    length: int | None = None
    i = 0
    while i < len(lines):
        line = lines[i]
        tag = _tag(line)
        found = _LENGTH.fullmatch(line)
        if tag is not None:
            tags[tag[0].lower()] = tag[1]
        elif found:
            length = _number(found.group(1), "the match length", i + 1)
            i += 1
            break
        elif line.strip() and not line.lstrip().startswith(";"):
            raise _fail(f"expected 'N point match', got {_show(line)}", i + 1)
        i += 1
    if length is None:
        raise _fail("no 'N point match' line", None)
    base = Rules() if rules is None else rules
    try:
        if length == 0:
            base = base.replace(jacoby=tags.get("jacoby", "off").lower() == "on"
                                if "jacoby" in tags else base.jacoby,
                                beaver=tags.get("beaver", "off").lower() == "on"
                                if "beaver" in tags else base.beaver)
        else:
            base = base.replace(jacoby=False, automatic_doubles=0)
    except BackgammonError as e:
        raise _fail(str(e), None) from None
    crawford = tags.get("crawford", "on").lower() != "off"
    if "cubelimit" in tags:
        value = tags["cubelimit"].strip()
        limit = _number(value, "CubeLimit", None)
        if limit < 1:
            raise _fail(f"CubeLimit {limit} is below 1", None)
        top = 1
        while top * 2 <= min(limit, 64):  # the largest power of two allowed (RULES 8.4)
            top *= 2
        base = base.replace(max_cube=top)
    # group the games
    blocks: list[tuple[int, list[tuple[int, str]]]] = []
    for j in range(i, len(lines)):
        if _GAME.fullmatch(lines[j]):
            blocks.append((j + 1, []))
        elif lines[j].strip():
            if not blocks:
                raise _fail(f"text before the first game: {_show(lines[j])}", j + 1)
            blocks[-1][1].append((j + 1, lines[j]))
    if not blocks:
        raise _fail("no games", None)
    if len(blocks) > MAX_GAMES:  # a replayed game holds ~0.5 KB: bound them, not only the text
        raise _fail(f"{len(blocks):,} games (at most {MAX_GAMES:,})", None)
    dice_source = random.Random(0)
    names: tuple[str, str] | None = None
    match: Match | None = None
    games: list[Game] = []
    for number, (game_line, body) in enumerate(blocks, start=1):
        found_score = _score_line(body[0][1], body[0][0]) if body else None
        if found_score is None:
            raise _fail(f"game {number} has no score line 'name : score   name : score'",
                        game_line + 1)
        score_no = body[0][0]
        n0, s0, n1, s1, boundary = found_score
        names = names or (n0, n1)
        score = (s0, s1)
        if length and match is None:  # a file may take a match up at a score
            try:
                match = Match(length, base, rng=0, crawford=crawford, score=score)
            except BackgammonError as e:
                raise _fail(f"game {number}: {e}", score_no) from None
        if match is not None:
            if number > 1:
                try:
                    match.next_game()
                except BackgammonError as e:
                    raise _fail(f"game {number}: {e}", game_line) from None
            game = match.game
            if game.score != score:
                raise _fail(f"game {number} starts at {score[0]}-{score[1]}, but the games "
                            f"before give {game.score[0]}-{game.score[1]}", score_no)
        else:
            game = Game(base, rng=dice_source)  # one dice source for the session's games
        _replay_game(game, number, body[1:], boundary)
        games.append(game)
    assert names is not None
    if match is not None:
        match.names = names
    return MatRecord(names, length, games, match)


def _show(text: str) -> str:
    """A line or cell for an error message, cut to a readable length."""
    text = text.strip()
    return repr(text) if len(text) <= 60 else repr(text[:60]) + f"... ({len(text)} characters)"


def _replay_game(game: Game, number: int, body: list[tuple[int, str]], boundary: int) -> None:
    stated: list[int] = []  # the points of the game's "Wins" line, for a "Losses" line
    held: tuple[int, int, str] | None = None  # a "Losses" line of its own, not yet placed
    for line_no, line in body:
        cells = _split_cells(line, boundary)
        # Galaxy's "Losses N point" may stand left of the roll that ends the game, or
        # of the "Wins" it restates (checked after it), or of a "Wins" of the
        # resignation or forfeit it records (applied before it)
        def order(c: tuple[int, str]) -> int:
            head = c[1].strip()[:4].lower()
            return {"loss": 1, "lose": 1, "wins": 2}.get(head, 0)
        cells.sort(key=order)
        if len(cells) == 2 and [order(c) for c in cells] == [1, 2] and \
                game.result is not None:
            cells.reverse()
        for player, cell in cells:
            found = _WINS.fullmatch(cell.strip())
            if found and game.result is None:
                wins = found.group(1).lower() == "wins"
                if not wins and not _ROW.match(line):
                    # Galaxy writes a resignation or forfeit at the left margin, in no
                    # column: the loser is the opponent of the "Wins" line below it
                    held = (player, line_no, cell)
                    continue
                if wins and held is not None:
                    _cell_or_fail(game, number, 1 - player, held[2], stated, held[1])
                    held = None
            _cell_or_fail(game, number, player, cell, stated, line_no)
    if held is not None:  # no "Wins" line: the loser is the player of its column
        _cell_or_fail(game, number, held[0], held[2], stated, held[1])


def _cell_or_fail(game: Game, number: int, player: int, cell: str, stated: list[int],
                  line_no: int) -> None:
    try:
        _apply_cell(game, player, cell.strip(), stated, line_no)
    except InvalidRecordError:
        raise
    except (BackgammonError, _CellError) as e:
        raise _fail(f"game {number}, player {player}, {_show(cell)}: {e}", line_no) from None


class _CellError(Exception):
    pass


def _apply_cell(game: Game, player: int, cell: str, stated: list[int], line_no: int) -> None:
    from backgammon.game import Phase
    from backgammon.rules import ROLL_AGAIN

    if len(cell) > _MAX_CELL:
        raise _CellError(f"a cell of {len(cell)} characters is no roll, play or result")
    m = _ROLL.fullmatch(cell)
    if m:
        d1, d2, play = int(m.group(1)), int(m.group(2)), m.group(3).strip()
        if game.phase is Phase.OPENING:
            hi, lo = max(d1, d2), min(d1, d2)
            if game.rules.opening == ROLL_AGAIN or d1 == d2:
                if game.rules.opening != ROLL_AGAIN:
                    raise _CellError("the first roll of a game is a double: the opening "
                                     "dice are never equal (RULES 2.1)")
                game.roll((2, 1) if player == 0 else (1, 2))  # the opening's dice are not recorded
                game.roll((d1, d2), player=player)
            else:
                game.roll((hi, lo) if player == 0 else (lo, hi))  # the higher die moves
        else:
            game.roll((d1, d2), player=player)
        if play in _UNPLAYED and game.legal_moves():
            return  # dice rolled, then a resignation: gnubg writes "NN:" alone, XG "NN: ????"
        if play.lower() in _NO_MOVE or play in _UNPLAYED:
            game.play((), player=player)
        else:
            game.play(play, player=player)
        return
    m = _CUBE.fullmatch(cell)
    if m:
        kind, value = m.group(1).lower(), _number(m.group(2), "the cube", line_no)
        expect = game.cube * (2 if kind == "doubles" else 4)
        if value != expect:
            raise _CellError(f"the cube is on {game.cube}: expected {expect}")
        if kind == "doubles":
            game.double(player=player)
        else:
            game.beaver(player=player)
        return
    low = cell.lower()
    if low in ("takes", "accepts"):
        game.take(player=player)
        return
    if low in ("drops", "passes", "rejects", "refuses"):
        game.drop(player=player)
        return
    m = _WINS.fullmatch(cell)
    if m:
        points = _number(m.group(2), "the points", line_no)
        if m.group(1).lower() != "wins":  # restates the result (Galaxy): it must agree
            r = game.result
            if r is None:  # Galaxy: a resignation, or a forfeit of the match
                _apply_losses(game, player, points)
                return
            if r.winner != 1 - player or points not in (r.points, *stated):
                won = "nobody has won" if r is None else \
                    f"player {r.winner} won {r.points}"
                raise _CellError(f"the result says player {player} loses {points}, "
                                 f"but {won}")
            return
        _apply_wins(game, player, points, bool(m.group(3)))
        stated.append(points)
        return
    raise _CellError("not a roll, cube action or result")


def _apply_losses(game: Game, player: int, points: int) -> None:
    """Galaxy's ``Losses N point`` for a game not over: ``player`` resigned the kind
    that scores ``N`` at the cube (N / cube = 1, 2 or 3), or else forfeited the match
    (``N`` = the points the opponent needed)."""
    from backgammon.game import RESIGN_KINDS, Phase

    for kind in RESIGN_KINDS:
        if game.rules.points(kind, cube=game.cube, cube_turned=game.cube_turned,
                             match_play=game.match_play) == points:
            if game.phase is Phase.RESIGNED:
                assert game.resignation is not None  # offered, so the game holds it
                game.reject(player=1 - game.resignation[0])
            game.resign(kind, player=player)
            game.accept(player=1 - player)
            return
    needed = game.match_length - game.score[1 - player] if game.match_length else None
    if points == needed:
        game.forfeit(player=player)
        return
    raise _CellError(f"no resignation with the cube on {game.cube} scores {points}"
                     + ("" if needed is None else
                        f", and the opponent needed {needed} to win the match (a forfeit)"))


def _apply_wins(game: Game, player: int, points: int, the_match: bool) -> None:
    """Check a ``Wins N point(s) [and the match]`` cell, or resign for it (RULES 7, 8.5).

    Some exporters (Galaxy) state on the game that ends the match the points it
    needed, capped at what the winner lacked or at the match length: accepted on
    that game only; the real score of the game stands."""
    from backgammon.game import RESIGN_KINDS

    def stated(p: int) -> bool:
        if p == points:
            return True
        if not the_match or not game.match_length:
            return False
        lacked = game.match_length - game.score[player]
        return p >= lacked and points in (min(p, lacked), min(p, game.match_length))

    if game.result is None:  # an accepted resignation: the least kind that scores it
        for kind in RESIGN_KINDS:
            if stated(game.rules.points(kind, cube=game.cube, cube_turned=game.cube_turned,
                                        match_play=game.match_play)):
                game.resign(kind, player=1 - player)
                game.accept(player=player)
                break
        else:
            raise _CellError(f"no resignation with the cube on {game.cube} scores {points}")
    r = game.result
    assert r is not None
    if r.winner != player or not stated(r.points):
        raise _CellError(f"the game was won by player {r.winner} for {r.points}")
