"""gnubg's SGF match files (``GM[6]``, gnubg's native ``save match``): reading and writing.

A file holds one game tree per game.  The root node carries the match::

    (;FF[4]GM[6]CA[UTF-8]MI[length:5][game:0][ws:0][bs:0]PW[Ann]PB[Bob]RU[Crawford]RE[B+2R]
    ;W[31hefe]
    ;B[double]
    ;W[take]
    ;B[52lqqs])

``MI`` gives the match length (0 = money), the game's number (gnubg counts from 0,
the GM[6] specification from 1: both are read) and the
scores of White (player 0) and Black (player 1) before it; ``RU`` the rules
(``Crawford``, ``CrawfordGame``, ``Jacoby``, joined by ``:``); ``RE`` the
result, ``W+3`` or ``B+2R`` (R: resigned), read in every spelling of the SGF
specification (``W+2Resign``, ``B+R``, ``W+F``/``W+Forfeit``, ``W+T``/``W+Time``
for a match lost on time, read as a forfeit; ``?``, ``Void``: unknown).  A move ``W[31hefe]`` is the dice
then one from/to letter pair per checker step: ``a`` to ``x`` are White's
points 1 to 24 (so Black's 24 to 1), ``y`` the mover's bar, ``z`` off; dice
alone (``B[22]``) are a roll that cannot be played.  ``B[double]``,
``W[take]``, ``W[drop]`` are cube actions (a ``double`` answering a double is a
beaver, then taken by the doubler: the specification's spelling; ``beaver`` is read).  ``PL[W]DI[44]`` is a
roll not played (before a resignation); ``AE``/``AW``/``AB`` (points, one
letter per checker, ``a:y`` a range), ``PL``, ``CV`` (cube value) and ``CP``
(cube owner) set a game up, in money play or in a match (Gibbon writes an edited
position so; the game is analysed from there, and written back the same way).  Comments and analysis (``C``, ``A``, ``GS``, ...)
are skipped; of variations the main line is read.

Every play, roll and cube action is replayed through :class:`Game`, so an
illegal one is an :class:`InvalidRecordError` naming the game and node.

    >>> from backgammon.match import Match
    >>> m = Match(3, names=("Ann", "Bob"), rng=1)
    >>> m.game.roll((3, 1)); m.game.play("8/5 6/5"); m.game.double(); m.game.drop()
    >>> text = write_sgf(m)
    >>> print(text.split("\\n", 1)[1])
    ;W[31hefe]
    ;B[double]
    ;W[drop])
    <BLANKLINE>
    >>> read_sgf(text).match.score
    (0, 1)
"""

from __future__ import annotations

import random
import re
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, NamedTuple

from backgammon.errors import BackgammonError, InvalidRecordError
from backgammon.formats._walk import Event, record_games, set_up_match_game, walk
from backgammon.formats.loss import report_loss
from backgammon._numbers import read_int
from backgammon._show import shown

if TYPE_CHECKING:  # pragma: no cover
    from backgammon.game import Game
    from backgammon.match import Match
    from backgammon.rules import Rules

__all__ = ["SgfRecord", "read_sgf", "write_sgf", "parse_sgf"]

MAX_TEXT = 1 << 26
"""The longest SGF text read (64 Mi characters)."""
MAX_DEPTH = 64          # nested game trees (gnubg writes 1; variations add a level each)
MAX_PROPERTIES = 1 << 22  # properties in a file (a long money session has ~10^5)
MAX_GAMES = 100_000
"""The most games (game trees) a file may hold (a long money session has a few hundred)."""
_DIGITS = 6


class SgfRecord(NamedTuple):
    """What an SGF file holds: the players' ``names``, the ``match_length``
    (0 = money), the replayed ``games``, and the :class:`Match` (``None`` for money)."""

    names: tuple[str, str]
    match_length: int
    games: list[Game]
    match: Match | None


def _fail(msg: str, where: str = "") -> InvalidRecordError:
    return InvalidRecordError(f"SGF{' ' + where if where else ''}: {msg}")


# ----------------------------------------------------------------------
# The SGF structure: Collection = GameTree+, GameTree = "(" Node+ GameTree* ")",
# Node = ";" Property*, Property = Ident Value+, Value = "[" text "]" (\ escapes).

Node = list[tuple[str, list[str]]]
"""A node: its properties in order, each (identifier, values)."""


class Tree(NamedTuple):
    """A game tree: its sequence of nodes and its variations."""

    nodes: list[Node]
    children: list[Tree]


def parse_sgf(text: str) -> list[Tree]:
    """The game trees of an SGF text (any game type): a single pass, sizes bounded.

        >>> [t.nodes for t in parse_sgf("(;GM[6]C[a \\\\] b];W[31hefe])")]
        [[[('GM', ['6']), ('C', ['a ] b'])], [('W', ['31hefe'])]]]
    """
    if not isinstance(text, str):
        raise InvalidRecordError(f"an SGF record is text, got {type(text).__name__}")
    if len(text) > MAX_TEXT:
        raise _fail(f"the text is {len(text)} characters long (at most {MAX_TEXT})")
    roots: list[Tree] = []
    stack: list[Tree] = []
    node: Node | None = None
    count = 0
    i, n = 0, len(text)
    while i < n:
        c = text[i]
        if c == "(":
            if len(stack) >= MAX_DEPTH:
                raise _fail(f"game trees nested deeper than {MAX_DEPTH} (offset {i})")
            if not stack and len(roots) >= MAX_GAMES:  # a replayed game holds ~0.5 KB
                raise _fail(f"more than {MAX_GAMES:,} game trees (games) at offset {i}")
            tree = Tree([], [])
            (stack[-1].children if stack else roots).append(tree)
            stack.append(tree)
            node = None
            i += 1
        elif c == ")":
            if not stack:
                raise _fail(f"')' without '(' at offset {i}")
            if not stack[-1].nodes:
                raise _fail(f"a game tree without a node at offset {i}")
            stack.pop()
            node = None
            i += 1
        elif c == ";":
            if not stack or stack[-1].children:
                raise _fail(f"a node outside a game tree's sequence at offset {i}")
            node = []
            stack[-1].nodes.append(node)
            i += 1
        elif c.isalpha():
            start = i
            while i < n and text[i].isalpha():
                i += 1
            # FF[3] allows lower case letters in identifiers ("AddBlack"): only the
            # capitals count
            ident = "".join(ch for ch in text[start:i] if ch.isupper())
            if node is None or not ident:
                raise _fail(f"property {shown(text[start:i][:20])} outside a node at offset {start}")
            values: list[str] = []
            while True:
                while i < n and text[i].isspace():
                    i += 1
                if i >= n or text[i] != "[":
                    break
                value, i = _value(text, i + 1)
                values.append(value)
            if not values:
                raise _fail(f"property {ident} without a value at offset {start}")
            count += 1
            if count > MAX_PROPERTIES:
                raise _fail(f"more than {MAX_PROPERTIES} properties")
            node.append((ident, values))
        elif c.isspace():
            i += 1
        else:
            raise _fail(f"unexpected {shown(c)} at offset {i}")
    if stack:
        raise _fail("a game tree is not closed (missing ')')")
    if not roots:
        raise _fail("no game tree")
    return roots


def _value(text: str, i: int) -> tuple[str, int]:
    """The text of a value starting after its '[' and where it ends (after ']')."""
    out: list[str] = []
    start = i
    n = len(text)
    while True:
        j = i
        while j < n and text[j] != "]" and text[j] != "\\":
            j += 1
        out.append(text[i:j])
        if j >= n:
            raise _fail(f"a value opened at offset {start - 1} is not closed (missing ']')")
        if text[j] == "]":
            return "".join(out), j + 1
        if j + 1 >= n:
            raise _fail(f"a value opened at offset {start - 1} ends in a lone '\\'")
        nxt = text[j + 1]
        if nxt == "\n" or nxt == "\r":  # a soft line break
            i = j + 2 + (text[j + 1:j + 3] in ("\r\n", "\n\r"))
        else:
            out.append(nxt)
            i = j + 2


def _escape(value: str) -> str:
    return value.replace("\\", "\\\\").replace("]", "\\]")


# ----------------------------------------------------------------------
# gnubg's backgammon encoding

_SIDES = {"W": 0, "B": 1}


def _letter(player: int, point: int) -> str:
    """The letter of a point in ``player``'s numbering (25 bar, 0 off)."""
    if point == 25:
        return "y"
    if point == 0:
        return "z"
    return chr(ord("a") + (point - 1 if player == 0 else 24 - point))


def _point(player: int, letter: str) -> int:
    if letter == "y":
        return 25
    if letter == "z":
        return 0
    k = ord(letter) - ord("a")
    if not 0 <= k < 24:
        raise ValueError(f"{shown(letter)} is no point (a-x, y bar, z off)")
    return k + 1 if player == 0 else 24 - k


def _points(values: list[str]) -> list[int]:
    """Letters of a point list (``a:y`` a range) as indexes 0-24 (24 = bar)."""
    out = []
    for v in values:
        v = v.strip()
        if len(v) == 3 and v[1] == ":":
            lo, hi = sorted((ord(v[0]) - 97, ord(v[2]) - 97))
            ks = range(lo, hi + 1)
        elif len(v) == 1:
            ks = range(ord(v) - 97, ord(v) - 96)
        else:
            raise ValueError(f"{shown(v)} is no point")
        for k in ks:
            if not 0 <= k <= 24:
                raise ValueError(f"{shown(v)} is no point (a-x, y the bar)")
            out.append(k)
    return out


# ----------------------------------------------------------------------
# Writing


def _node(event: Event) -> str:
    """The node of one event of a game."""
    kind, player, dice = event.kind, event.player, event.dice
    if kind == "play":
        assert dice is not None  # walk gives every play its dice
        steps = "".join(_letter(player, a) + _letter(player, b) for a, b in event.moves)
        return f";{'WB'[player]}[{dice[0]}{dice[1]}{steps}]"
    if kind == "beaver":  # the spec's spelling: a double answered by a double, taken
        return f";{'WB'[player]}[double]\n;{'WB'[1 - player]}[take]"
    if kind in ("double", "take", "drop"):
        return f";{'WB'[player]}[{kind}]"
    # "accept" (rolled, then resigned: gnubg writes the dice so) or "unplayed"
    assert dice is not None  # walk gives these events their dice
    return f";PL[{'WB'[player]}]DI[{dice[0]}{dice[1]}]"


def _game_nodes(game: Game, lost: list[str]) -> list[str]:
    nodes = _setup_nodes(game.restart(), lost) if game.start is not None else []
    return nodes + walk(game, lost, _node, "SGF readers")


def _setup_nodes(start: Game, lost: list[str]) -> list[str]:
    from backgammon.game import Phase

    if start.phase not in (Phase.ROLL, Phase.MOVE):
        lost.append(f"a game set up in phase {shown(start.phase.value)}")
    board = start.board(0).tolist()
    white = "".join(f"[{_letter(0, p)}]" * board[p] for p in range(1, 26) if board[p] > 0)
    black = "".join(f"[{chr(96 + p)}]" * -board[p] for p in range(1, 25) if board[p] < 0)
    black += "[y]" * -board[0]
    node = f";PL[{'WB'[start.turn]}]AE[a:y]" + (f"AW{white}" if white else "") + \
        (f"AB{black}" if black else "")
    nodes = [node]
    if start.cube > 1:
        nodes.append(f";CV[{start.cube}]")
    if start.cube_owner is not None:
        nodes.append(f";CP[{'wb'[start.cube_owner]}]")
    if start.dice is not None:  # gnubg writes the dice of a setup so, and again on the move
        nodes.append(f";PL[{'WB'[start.turn]}]DI[{start.dice[0]}{start.dice[1]}]")
    return nodes


def write_sgf(source: Match | Sequence[Game], *, names: Sequence[str] | None = None,
              strict: bool = False) -> str:
    """gnubg's SGF text of a :class:`Match`, or of money games (match length 0).

    The beaver rule of a money session is written ``RU[Beaver]`` (read back here;
    gnubg skips the word).  What gnubg's SGF cannot carry (automatic doubles, a cube
    limit, rejected resignations, a backgammon worth 2, uncommitted steps) is
    reported with :class:`FormatLossWarning` (:class:`FormatLossError` if ``strict``).
    """
    from backgammon import __version__
    from backgammon.formats.mat import resigned_kind_hidden
    from backgammon.match import Match

    lost: list[str] = []
    games, length, names = record_games(source, names, "an SGF", "write_sgf")
    crawford = source.crawford_rule if isinstance(source, Match) else False
    rules = games[0].rules
    if rules.backgammon_value != 3:
        lost.append("a backgammon worth 2")
    if not rules.cube:
        lost.append("games without the cube")
    if rules.max_cube != 64:
        lost.append(f"max_cube={rules.max_cube}")
    if rules.opening != "opening_dice":
        lost.append("the roll-again opening")
    if any(g.rules != rules for g in games):
        lost.append("games with other rules than the first")
    if not isinstance(source, Match) and any(g.match_length for g in games):
        lost.append("a game of a match in a money session")
    if any(resigned_kind_hidden(g) for g in games):
        lost.append("the kind resigned where another kind scores the same (only the points "
                    "are written)")
    pw, pb = (_escape(" ".join(str(x).split())) for x in names[:2])
    if (pw, pb) != tuple(str(x) for x in names[:2]):
        lost.append(f"the names {shown(tuple(names[:2]))} as one line each")
    trees = []
    totals = [0, 0]
    for k, game in enumerate(games):
        score = game.score if length else tuple(totals)
        ru = []
        if length and crawford:
            ru.append("Crawford")
            if game.crawford:
                ru.append("CrawfordGame")
        elif length:  # no RU reads as gnubg's default, the Crawford rule on
            ru.append("NoCrawford")
        if not length and rules.jacoby:
            ru.append("Jacoby")
        if not length and rules.beaver:  # this library's word: read back as the rule
            ru.append("Beaver")
        root = (f"(;FF[4]GM[6]CA[UTF-8]AP[backgammon:{__version__}]"
                f"MI[length:{length}][game:{k}][ws:{score[0]}][bs:{score[1]}]"
                f"PW[{pw}]PB[{pb}]" + (f"RU[{':'.join(ru)}]" if ru else ""))
        r = game.result
        if r is not None:
            suffix = {"resign": "R", "forfeit": "F"}.get(r.reason, "")
            root += f"RE[{'WB'[r.winner]}+{r.points}{suffix}]"
            totals[r.winner] += r.points
        nodes = _game_nodes(game, lost)
        trees.append(root + "".join("\n" + x for x in nodes) + ")\n")
    report_loss("gnubg SGF record", lost, strict=strict)
    return "".join(trees)


# ----------------------------------------------------------------------
# Reading


def _number(text: str, what: str, where: str) -> int:
    return read_int(text.strip(), what, lambda msg: _fail(msg, where), digits=_DIGITS)


def _main_line(tree: Tree) -> list[Node]:
    nodes = list(tree.nodes)
    while tree.children:  # the main line: the first variation at each branch
        tree = tree.children[0]
        nodes.extend(tree.nodes)
    return nodes


def _match_info(root: Node, where: str) -> dict[str, int]:
    info: dict[str, int] = {}
    for ident, values in root:
        if ident == "MI":
            for v in values:
                key, _, val = v.partition(":")
                key = key.strip().lower()
                if key in ("length", "game", "ws", "bs"):
                    info[key] = _number(val, f"MI {key}", where)
    return info


def read_sgf(text: str, *, rules: Rules | None = None) -> SgfRecord:
    """Replay gnubg's SGF text of a match or money session; :class:`InvalidRecordError`
    (naming the game and node) if anything in it is malformed or illegal."""
    from backgammon.game import Phase
    from backgammon.match import Match
    from backgammon.rules import Rules

    trees = parse_sgf(text.removeprefix("\ufeff") if isinstance(text, str) else text)
    first = trees[0].nodes[0]
    props = {ident: values for ident, values in reversed(first)}
    if props.get("GM", ["6"])[0].strip() != "6":
        raise _fail(f"GM[{props['GM'][0]}] is not backgammon (GM[6])")
    info = _match_info(first, "game 1")
    length = info.get("length", 0)
    rule_words = {w.strip().lower() for v in props.get("RU", []) for w in v.split(":")}
    base = Rules() if rules is None else rules
    try:
        if length:
            base = base.replace(jacoby=False, automatic_doubles=0)
        elif "RU" in props:
            base = base.replace(jacoby="jacoby" in rule_words,
                                beaver=bool(rule_words & {"beaver", "beavers"}) or base.beaver)
    except BackgammonError as e:
        raise _fail(str(e)) from None
    if rule_words & {"nackgammon", "hypergammon"}:
        raise _fail(f"rules {shown(props['RU'])}: only standard backgammon is read")
    names = (props.get("PW", ["White"])[0].strip() or "White",
             props.get("PB", ["Black"])[0].strip() or "Black")
    match = None
    if length:
        # one game of a match in a file (Gibbon): the match taken up at that game's score
        start = (info.get("ws", 0), info.get("bs", 0))
        crawford_game = ("crawfordgame" in rule_words if "RU" in props and length - 1 in start
                         else None)
        try:
            match = Match(length, base, rng=0, names=names, score=start,
                          crawford="crawford" in rule_words or "RU" not in props,
                          crawford_game=crawford_game)
        except BackgammonError as e:
            raise _fail(str(e), "game 1") from None
    games: list[Game] = []
    totals = [0, 0]
    dice_source = random.Random(0)
    # gnubg numbers games from 0, the GM[6] specification (and so other writers) from 1;
    # a file of one game of a match (Gibbon) carries that game's number
    offset = info.get("game", 0)
    for k, tree in enumerate(trees):
        where = f"game {k + 1}"
        nodes = _main_line(tree)
        root = nodes[0]
        rp = {ident: values for ident, values in reversed(root)}
        if rp.get("GM", ["6"])[0].strip() != "6":
            raise _fail(f"GM[{rp['GM'][0]}] is not backgammon (GM[6])", where)
        gi = _match_info(root, where)
        if gi.get("length", length) != length:
            raise _fail(f"match length {gi['length']}, the first game says {length}", where)
        if "game" in gi and gi["game"] != k + offset:
            raise _fail(f"MI game {gi['game']}, expected {k + offset} (games count from "
                        f"{offset})", where)
        words = {w.strip().lower() for v in rp.get("RU", []) for w in v.split(":")}
        if match is not None:
            if k:
                try:
                    match.next_game()
                except BackgammonError as e:
                    raise _fail(str(e), where) from None
            game = match.game
            score = (gi.get("ws", game.score[0]), gi.get("bs", game.score[1]))
            if score != game.score:
                raise _fail(f"starts at {score[0]}-{score[1]}, but the games before give "
                            f"{game.score[0]}-{game.score[1]}", where)
            if "RU" in rp and ("crawfordgame" in words) != game.crawford:
                raise _fail(f"RU{shown(rp['RU'])} and the score disagree on the Crawford game "
                            "(RULES 10.2)", where)
        else:
            score = (gi.get("ws", totals[0]), gi.get("bs", totals[1]))
            if score != tuple(totals):
                raise _fail(f"starts at {score[0]}-{score[1]}, but the games before give "
                            f"{totals[0]}-{totals[1]}", where)
            game = None
        game = _replay(game, nodes, base, where, dice_source)
        if game.phase is Phase.RESIGNED:  # a resignation the file ends on: accepted
            game.accept()
        result = rp.get("RE")
        if result:
            _check_result(game, result[0].strip(), where,
                          _points_scored(trees, k, game.score if match else tuple(totals)))
        if game.result is not None:
            totals[game.result.winner] += game.result.points
        games.append(game)
    return SgfRecord(names, length, games, match)


def _points_scored(trees: list[Tree], k: int, start: tuple[int, ...]) -> int | None:
    """The points game ``k`` scored by the next game's starting score (``MI`` ``ws`` and
    ``bs``), when it says: one side's score grew, the other's did not."""
    if k + 1 >= len(trees):
        return None
    try:
        info = _match_info(trees[k + 1].nodes[0], f"game {k + 2}")
    except InvalidRecordError:
        return None  # said when that game is read
    if "ws" not in info or "bs" not in info:
        return None
    gained = sorted((info["ws"] - start[0], info["bs"] - start[1]))
    return gained[1] if gained[0] == 0 and gained[1] > 0 else None


def _replay(game: Game | None, nodes: list[Node], rules: Rules, where: str,
            dice_source: Any = 0) -> Game:
    """Play a game's nodes on ``game`` (a match game) or on a new money game, whose
    dice source is ``dice_source`` (one shared by a record's games: a
    ``random.Random`` each would be 2.5 KB a game)."""
    from backgammon.game import Game
    from backgammon.position import Position

    setup: dict[str, Any] = {}
    turn_seen: int | None = None
    dice_seen: tuple[int, int] | None = None

    def start() -> Game:
        if game is not None and setup and \
                setup.get("board", Position.initial().tolist()) == Position.initial().tolist() \
                and setup.get("cube", 1) == 1 and setup.get("owner") is None:
            setup.clear()  # the opening position set up: the match's game as it is
        if setup:
            board = setup.get("board") or Position.initial().tolist()
            turn = 0 if turn_seen is None else turn_seen
            context: dict[str, Any] = {} if game is None else {
                "match_length": game.match_length, "score": game.score,
                "crawford": game.crawford}
            try:
                pos = Position.from_array(board)
                made = Game.from_position(pos if turn == 0 else pos.swapped(), turn=turn,
                                          dice=dice_seen, cube=setup.get("cube", 1),
                                          cube_owner=setup.get("owner"),
                                          rules=rules, rng=dice_source, **context)
                if game is not None:  # a match game set up (Gibbon writes an edited
                    set_up_match_game(game, made)  # position so): the match keeps it
                    return game
            except BackgammonError as e:
                raise _fail(f"the setup: {e}", where) from None
            return made
        made = game if game is not None else Game(rules, rng=dice_source)
        if dice_seen is not None:
            _roll(made, turn_seen if turn_seen is not None else 0, dice_seen)
        return made

    current: Game | None = None
    for number, node in enumerate(nodes, start=1):  # the root may set up too
        here = f"{where}, node {number}"
        for ident, values in node:
            value = values[0].strip()
            try:
                if ident in ("W", "B"):
                    player = _SIDES[ident]
                    if current is None:
                        current = start()
                    _action(current, player, value)
                elif ident == "PL":
                    side = value.upper()[:1]
                    if side not in _SIDES:
                        raise ValueError(f"PL[{value}] is not W or B")
                    turn_seen = _SIDES[side]
                elif ident == "DI":
                    if len(value) != 2 or not all(c in "123456" for c in value):
                        raise ValueError(f"DI[{value}] is not two dice")
                    dice = (int(value[0]), int(value[1]))
                    if current is None:
                        dice_seen = dice  # held: a setup may follow (gnubg writes it so)
                    else:
                        _roll(current, turn_seen if turn_seen is not None else current.turn,
                              dice)
                elif ident in ("AE", "AW", "AB", "CV", "CP", "CO"):
                    if current is not None:
                        raise ValueError(f"{ident} in the middle of a game")
                    _setup(setup, ident, values)
            except InvalidRecordError:
                raise
            except (BackgammonError, ValueError) as e:
                raise _fail(f"{ident}[{value[:40]}]: {e}", here) from None
    if current is not None:
        return current
    try:  # a game of setup or dice nodes only (DI[66] before any move): the same checks
        return start()
    except InvalidRecordError:
        raise
    except (BackgammonError, ValueError) as e:
        raise _fail(str(e), f"{where}, node {len(nodes)}") from None


def _setup(setup: dict[str, Any], ident: str, values: list[str]) -> None:
    """Apply a setup property to ``setup`` (board from White's side, cube, owner)."""
    from backgammon.position import Position

    if ident == "CV":
        setup["cube"] = read_int(values[0].strip(), "CV", ValueError, digits=_DIGITS)
        return
    if ident in ("CP", "CO"):  # gnubg writes CP, the spec says CO
        side = values[0].strip().upper()
        if side not in ("W", "B", "C", "N", ""):
            raise ValueError(f"{ident}[{values[0]}] is not w, b, c or n")
        setup["owner"] = _SIDES.get(side)
        return
    board = setup.setdefault("board", Position.initial().tolist())
    if ident == "AE":
        for k in _points(values):
            if k == 24:
                board[0] = board[25] = 0
            else:
                board[k + 1] = 0
        return
    sign = 1 if ident == "AW" else -1
    for k in _points(values):
        index = (25 if sign > 0 else 0) if k == 24 else k + 1
        if board[index] * sign < 0:
            raise ValueError(f"point {index} holds the other side's checkers")
        if abs(board[index]) >= 15:
            raise ValueError("more than 15 checkers on a point")
        board[index] += sign


def _roll(game: Game, player: int, dice: tuple[int, int]) -> None:
    from backgammon.game import Phase

    d1, d2 = dice
    if game.phase is Phase.OPENING:
        if d1 == d2:
            raise ValueError("the first roll of a game is a double: the opening dice are "
                             "never equal (RULES 2.1)")
        hi, lo = max(d1, d2), min(d1, d2)
        game.roll((hi, lo) if player == 0 else (lo, hi))  # the higher die moves
        if game.turn != player:  # pragma: no cover - the higher die moves
            raise ValueError(f"player {player} does not move first with {d1}-{d2}")
    else:
        game.roll((d1, d2), player=player)


def _action(game: Game, player: int, value: str) -> None:
    from backgammon.game import Phase

    low = value.lower()
    last = game.actions[-1] if game.actions else None
    if low == "double" and game.phase is Phase.DOUBLED and player != game.turn:
        game.beaver(player=player)  # "double" answering a double is a beaver (the spec)
    elif low == "double":
        game.double(player=player)
    elif low == "take" and last is not None and last.kind == "beaver" and \
            last.player is not None and player == 1 - last.player:  # a beaver has its player
        pass  # the doubler accepts the beaver: the spec writes it, the game needs nothing
    elif low == "take":
        game.take(player=player)
    elif low in ("drop", "pass"):
        game.drop(player=player)
    elif low == "beaver":  # what some writers spell out
        game.beaver(player=player)
    elif low.startswith("resign"):  # Gibbon: resign, resign:2, resign:gammon
        kind = value.partition(":")[2].strip().lower() or "single"
        kinds = {"1": "single", "2": "gammon", "3": "backgammon", "single": "single",
                 "gammon": "gammon", "backgammon": "backgammon"}
        if kind not in kinds:
            raise ValueError(f"resign:{kind[:20]} is not resign:1, 2 or 3 (single, gammon, "
                             "backgammon)")
        game.resign(kinds[kind], player=player)
    elif low in ("accept", "accepts", "agree"):
        game.accept(player=player)
    elif low in ("reject", "rejects", "decline"):
        game.reject(player=player)
    elif len(value) >= 2 and value[0] in "123456" and value[1] in "123456":
        letters = value[2:]
        if len(letters) % 2 or len(letters) > 8:
            raise ValueError("a move is the dice and up to 4 from/to letter pairs")
        steps = tuple((_point(player, letters[i]), _point(player, letters[i + 1]))
                      for i in range(0, len(letters), 2))
        dice = (int(value[0]), int(value[1]))
        if not (game.phase is Phase.MOVE and game.turn == player and game.dice is not None
                and sorted(game.dice) == sorted(dice)):  # not rolled yet by a DI node
            _roll(game, player, dice)
        game.play(_legal_spelling(game, steps), player=player)
    else:
        raise ValueError("not a move, double, take, drop, beaver, resign, accept or reject")


def _legal_spelling(game: Game, steps: tuple[tuple[int, int], ...]) -> Any:
    """The steps, or the legal play they stand for.

    gnubg reads ``61: 6/off`` (a checker borne off with both dice, 6/5/off) as a
    single step and saves it as ``61fz``: a play that ends where exactly one legal
    play ends stands for it.  Anything else is left for :meth:`Game.play` to judge."""
    if game.dice is None:
        return steps   # no roll to play: Game.play says so
    board = game.position.tolist()
    for src, dst in steps:
        if not (0 < src <= 25 and 0 <= dst < 25 and board[src] > 0):
            return steps
        board[src] -= 1
        if dst:
            if board[dst] == -1:
                board[dst], board[0] = 0, board[0] - 1
            board[dst] += 1
    plays = game.position.legal_plays(game.dice)
    if any(tuple(p.moves) == tuple(sorted(steps, reverse=True)) for p in plays):
        return steps
    same = [p for p in plays if p.result.tolist() == board]
    return same[0].moves if len(same) == 1 and steps else steps


_RE = re.compile(r"([WB])\+(.*?)(R|RESIGN|T|TIME|F|FORFEIT)?", re.IGNORECASE | re.DOTALL)
"""A win in the SGF spelling: side, points (optional) and how (resigned, on time,
by forfeit), each way the specification allows: ``W+3``, ``B+2R``, ``W+2Resign``,
``W+R``, ``B+Resign``, ``W+T``/``W+Time``, ``W+F``/``W+Forfeit``, any case."""


def _check_result(game: Game, text: str, where: str, points_hint: int | None = None) -> None:
    """Check ``RE`` against the game, or end the game as it says.

    Every spelling of the SGF specification is read (:data:`_RE`; ``?``, ``Void``,
    ``0`` and ``Draw`` say nothing of a winner): a game the moves leave unfinished
    is resigned for the points (``R``, ``Resign``; without points: ``points_hint``,
    what the next game's score says it scored, else a single game) or forfeited
    (``F``, ``Forfeit``, and ``T``, ``Time``: a match lost on time), and a finished
    one must have that winner (and those points, when given)."""
    from backgammon.game import RESIGN_KINDS

    if text.upper() in ("?", "VOID", "0", "DRAW", ""):
        if text.upper() in ("0", "DRAW") and game.result is not None:
            raise _fail(f"RE[{text}] is a draw, but player {game.result.winner} won", where)
        return  # an unknown or void result, or none: nothing to check
    found = _RE.fullmatch(text)
    if found is None:
        if game.result is None:
            return  # a score of an unfinished game, or another program's words
        raise _fail(f"RE[{text[:20]}] is not W+N or B+N (with R, Resign, T, Time, F or "
                    "Forfeit)", where)
    # what stands between "+" and the way it was won are the points: ASCII digits or
    # nothing (anything else is named as bad points)
    winner = _SIDES[found.group(1).upper()]
    how = (found.group(3) or "").upper()[:1]           # "", "R", "T" or "F"
    digits = found.group(2)
    points = _number(digits, "RE points", where) if digits else None
    if game.result is None and how in ("F", "T"):
        try:
            game.forfeit(player=1 - winner)
        except BackgammonError as e:
            raise _fail(f"RE[{text}]: {e}", where) from None
    if game.result is None:
        if how != "R":
            raise _fail(f"RE[{text}], but the game is not over", where)
        wanted = points if points is not None else points_hint
        for kind in RESIGN_KINDS:
            scored = game.rules.points(kind, cube=game.cube, cube_turned=game.cube_turned,
                                       match_play=game.match_play)
            if wanted is None or scored == wanted:
                try:
                    game.resign(kind, player=1 - winner)
                    game.accept(player=winner)
                except BackgammonError as e:
                    raise _fail(f"RE[{text}]: {e}", where) from None
                break
        else:
            raise _fail(f"RE[{text}]: no resignation with the cube on {game.cube} "
                        f"scores {wanted}", where)
    r = game.result
    assert r is not None
    if r.winner != winner or (points is not None and r.points != points):
        raise _fail(f"RE[{text}], but player {r.winner} won {r.points}", where)
