"""``backgammon ubgi``: a UCI-style text protocol over stdin and stdout.

Our dialect was modelled on UCI before any UBGI text was found; it now speaks
UBGI v0.2 too (below).  One command per line; the engine answers only what is
listed and never speaks unasked.

::

    | command | answer |
    |---|---|
    | ``ubgi`` | ``id name backgammon``, ``id author ...``, ``id version V``, ``option name ply type spin default 0 min 0 max 2``, ``ubgiok`` |
    | ``isready`` | ``readyok`` |
    | ``setoption name ply value N`` | nothing (``error ...`` if N is not 0..2) |
    | ``newgame`` | nothing: forgets the position |
    | ``position fibs board:...`` | nothing: a FIBS board string (``Game.from_fibs_board``) |
    | ``position xgid XGID=...`` / ``position gnubgid POS:MATCH`` | nothing: an XGID or a GNUbgID |
    | ``go`` | ``bestmove 8/5 6/5`` (a play in gnubg notation; ``bestmove pass`` when no checker can move), before the roll ``bestmove double`` or ``bestmove roll``, when doubled ``bestmove take`` or ``bestmove drop`` |
    | ``stop`` | nothing: ``go`` answers at once, there is no search to stop |
    | ``quit`` | the engine exits |

Anything malformed is answered ``error <what was wrong>`` on one line and
the engine keeps its state and goes on.  Left open (no draft to follow):
beavers and resignations (never offered), time controls (``go`` takes no
arguments), and ``info`` lines during a search.

**The UBGI draft 0.01** (Øystein Schønning-Johansen, 2025, the repository
``oysteijo/Universal-Backgammon-Interface``) is spoken too.  Its UI sends a
bare position, a FIBS board (``board:...``) or an XGID (``XGID=...``), and
reads the best action at once: the play as single steps from the mover's
side, written out (``24/18 18/13`` for 24/13, ``13/10 13/10 8/5 8/5`` for
13/10(2) 8/5(2), no ``*``, 25 the bar, 0 off), an empty line when no checker
can move, or ``double``, ``roll``, ``take``, ``drop``.  Both dialects answer
bare positions so.  With ``dialect="draft"`` (``python -m
backgammon.protocols.ubgi --draft``) the handshake is the draft's (``ubgi`` ->
the ``id`` lines and ``readyok``) and anything not understood gets ``sorry``.

    >>> engine = UbgiEngine(dialect="draft")
    >>> engine.handle("ubgi")[0][-1]
    'readyok'
    >>> engine.handle("XGID=-b----E-C---eE---c-e----B-:0:0:1:65:0:0:0:0:10")[0]
    ['24/18 18/13']

**UBGI v0.2** (the protocol of the ``bgci`` engine runner) is spoken by the
default dialect as well: the handshake adds ``proto 0.2``; ``keys`` lists
``key engine.ply int 0..2 0 search depth``, ``set engine.ply N`` and ``get
engine.ply`` (``value engine.ply N``) set and read it; ``position gnubgid ID``
takes a bare GNU position ID (the player on roll, money play, the cube in the
middle) as well as ``POS:MATCH``; ``dice D1 D2`` gives the roll; ``go`` or ``go
chequer`` answers ``bestmove`` with the play as single steps (``bar/22``,
``6/off``, ``13/10 13/10`` for 13/10(2); ``pass`` when no checker can move), ``go
cube`` ``bestcube double`` or ``bestcube nodouble`` before the roll, ``go turn``
``bestturn cube=... move=...``; errors are ``error <code> <detail>``, the code
``bad_command``, ``bad_value``, ``bad_state`` or ``unsupported``.

    >>> engine = UbgiEngine()
    >>> engine.handle("position gnubgid 4HPwATDgc/ABMA")[0], engine.handle("dice 3 1")[0]
    ([], [])
    >>> engine.handle("go chequer")[0], engine.handle("go cube")[0]
    (['bestmove 8/5 6/5'], ['bestcube nodouble'])
    >>> engine.handle("set engine.ply 7")[0]
    ['error bad_value engine.ply must_be 0..2']

The UBI draft of bgammon.org's author (November 2023, discussed on the
bug-gnubg list) is not spoken: its text could not be found to follow.
"""

from __future__ import annotations

import sys
from typing import IO, Any

from backgammon.errors import BackgammonError
from backgammon.game import Game, Phase

_MAX_LINE = 4096
_KEYS = ["key engine.ply int 0..2 0 search depth (plies: 0, 1 or 2)"]


class _Refused(BackgammonError):
    """A command refused with a UBGI v0.2 error code."""

    def __init__(self, code: str, detail: str) -> None:
        super().__init__(detail)
        self.code = code


class UbgiEngine:
    """The protocol's state machine: :meth:`handle` maps a line to answer lines.

    ``bot``: a :class:`~backgammon.Bot` deciding instead of the nets (its
    ``cube_action(game)``, when it has one, answers ``"double"``, ``"roll"``,
    ``"take"`` or ``"drop"``).
    """

    def __init__(self, bot: Any = None, dialect: str = "uci") -> None:
        if dialect not in ("uci", "draft"):
            raise BackgammonError(f"dialect is 'uci' or 'draft', got {dialect!r}")
        self.game: Game | None = None
        self.dice: tuple[int, int] | None = None   # UBGI v0.2's ``dice``, for a game before its roll
        self.ply = 0
        self.bot = bot
        self.dialect = dialect

    def handle(self, line: str) -> tuple[list[str], bool]:
        """(answer lines, whether to quit)."""
        answer, done = self._handle(line)
        if self.dialect == "draft":
            answer = ["sorry" if a.startswith("error ") else a for a in answer]
        return answer, done

    def _handle(self, line: str) -> tuple[list[str], bool]:
        if len(line) > _MAX_LINE:
            return [f"error bad_command a command has at most {_MAX_LINE} characters"], False
        words = line.split()
        if not words:
            return [], False
        cmd, rest = words[0], words[1:]
        try:
            if cmd == "quit":
                return [], True
            if cmd.startswith(("board:", "XGID=")) and not rest:
                return [self._bare(cmd)], False
            if cmd == "ubgi":
                from backgammon import __version__
                ids = ["id name backgammon", "id author the backgammon library authors",
                       f"id version {__version__}"]
                if self.dialect == "draft":
                    return ids + ["readyok"], False
                return ids + ["proto 0.2", "option name ply type spin default 0 min 0 max 2",
                              "ubgiok"], False
            if cmd == "isready":
                return ["readyok"], False
            if cmd == "stop":
                return [], False
            if cmd == "newgame":
                self.game, self.dice = None, None
                return [], False
            if cmd == "setoption":
                return self._setoption(rest), False
            if cmd == "keys" and not rest:
                return list(_KEYS), False
            if cmd in ("set", "get"):
                return self._key(cmd, rest), False
            if cmd == "position":
                return self._position(rest), False
            if cmd == "dice":
                return self._dice(rest), False
            if cmd == "go":
                return [self._go(rest)], False
            raise _Refused("bad_command", f"unknown command {cmd[:40]!r}")
        except _Refused as e:
            return [f"error {e.code} {' '.join(str(e).split())}"], False
        except BackgammonError as e:
            return [f"error bad_value {' '.join(str(e).split())}"], False

    def _key(self, cmd: str, rest: list[str]) -> list[str]:
        """UBGI v0.2's ``set KEY VALUE`` and ``get KEY``."""
        if len(rest) != (2 if cmd == "set" else 1):
            raise _Refused("bad_command", f"expected: {cmd} <key>{' <value>' if cmd == 'set' else ''}")
        if rest[0] != "engine.ply":
            raise _Refused("unsupported", f"key {rest[0][:40]!r} (keys: engine.ply)")
        if cmd == "get":
            return [f"value engine.ply {self.ply}"]
        return self._set_ply(rest[1], "engine.ply must_be 0..2")

    def _set_ply(self, text: str, refusal: str) -> list[str]:
        """The search depth from ``text`` (0, 1 or 2), else ``refusal`` as bad_value."""
        if text not in ("0", "1", "2"):
            raise _Refused("bad_value", refusal)
        self.ply = int(text)
        return []

    def _dice(self, rest: list[str]) -> list[str]:
        """UBGI v0.2's ``dice D1 D2``: the roll of the position's player on roll."""
        if len(rest) != 2 or not all(r in ("1", "2", "3", "4", "5", "6") for r in rest):
            raise _Refused("bad_value", "dice are two numbers from 1 to 6")
        self.dice = (int(rest[0]), int(rest[1]))
        return []

    def _setoption(self, rest: list[str]) -> list[str]:
        if len(rest) != 4 or rest[0] != "name" or rest[2] != "value" or rest[1].lower() != "ply":
            raise _Refused("bad_command", "setoption takes 'name ply value N'")
        return self._set_ply(rest[3], f"ply is 0, 1 or 2, got {rest[3][:20]!r}")

    def _position(self, rest: list[str]) -> list[str]:
        if len(rest) != 2:
            raise _Refused("bad_command", "position takes 'fibs BOARD', 'xgid XGID' or 'gnubgid ID'")
        kind, text = rest
        if kind == "fibs":
            game = Game.from_fibs_board(text)
        elif kind == "xgid":
            game = Game.from_xgid(text)
        elif kind == "gnubgid" and ":" not in text:   # a bare position ID (UBGI v0.2)
            from backgammon.position import Position
            game = Game.from_position(Position.from_position_id(text))
        elif kind == "gnubgid":
            game = Game.from_gnubg_id(text)
        else:
            raise _Refused("unsupported", f"position kind {kind[:20]!r}: fibs, xgid or gnubgid")
        if game.phase not in (Phase.ROLL, Phase.MOVE, Phase.DOUBLED):
            raise _Refused("bad_state", f"no decision to make in this position "
                                        f"(phase {game.phase.value})")
        self.game, self.dice = game, None
        return []

    def _bare(self, text: str) -> str:
        """The UBGI draft's answer to a bare position: the action, the play written out."""
        game = Game.from_fibs_board(text) if text.startswith("board:") else Game.from_xgid(text)
        if game.phase not in (Phase.ROLL, Phase.MOVE, Phase.DOUBLED):
            return f"error no decision to make in this position (phase {game.phase.value})"
        if game.phase is not Phase.MOVE:
            return decide(game, self.ply, self.bot)
        return " ".join(f"{a}/{b}" for a, b in choose(game, self.ply, self.bot).moves)

    def _go(self, rest: list[str]) -> str:
        """``go`` (the decision of the game's phase; with ``dice`` given before the
        roll, the play), and UBGI v0.2's ``go chequer``, ``go cube``, ``go turn``."""
        if len(rest) > 1 or (rest and rest[0] not in ("chequer", "cube", "turn")):
            raise _Refused("bad_command", "go takes nothing, 'chequer', 'cube' or 'turn'")
        if self.game is None:
            raise _Refused("bad_state", "missing position: send 'position ...' first")
        kind = rest[0] if rest else ""
        if kind in ("cube", "turn"):
            if self.game.phase is not Phase.ROLL:
                raise _Refused("bad_state", f"go {kind} is asked before the roll "
                                            f"(this game is at {self.game.phase.value})")
            cube = "double" if decide(self.game, self.ply, self.bot) == "double" else "nodouble"
            if kind == "cube":
                return f"bestcube {cube}"
            return f"bestturn cube={cube} move={steps(self._rolled(), self.ply, self.bot)}"
        if kind == "chequer" or (self.dice is not None and self.game.phase is Phase.ROLL):
            return f"bestmove {steps(self._rolled(), self.ply, self.bot)}"
        return f"bestmove {decide(self.game, self.ply, self.bot)}"

    def _rolled(self) -> Game:
        """The game with its dice: its own when it has them, else ``dice``'s."""
        assert self.game is not None
        if self.game.phase is Phase.MOVE:
            return self.game
        if self.game.phase is not Phase.ROLL or self.dice is None:
            raise _Refused("bad_state", "missing dice: send 'dice D1 D2' first"
                           if self.game.phase is Phase.ROLL else
                           f"no play to choose (this game is at {self.game.phase.value})")
        game = self.game.copy()
        game.roll(self.dice)
        return game


def choose(game: Game, ply: int = 0, bot: Any = None) -> Any:
    """The play for ``game`` (waiting for one): ``bot``'s, else the nets' at ``ply``."""
    assert game.dice is not None
    if bot is not None:
        from backgammon.env.bots import choose_with
        return choose_with(bot, game.position, game.dice, game.turn)
    return game.position.best_play(game.dice, ply=ply)


def steps(game: Game, ply: int = 0, bot: Any = None) -> str:
    """The play for ``game`` as UBGI v0.2 writes it: single steps ``from/to``, the
    bar ``bar`` and off ``off`` (``bar/22 6/off``), ``pass`` when no checker can move."""
    moves = choose(game, ply, bot).moves
    name = {25: "bar", 0: "off"}
    return " ".join(f"{name.get(a, a)}/{name.get(b, b)}" for a, b in moves) or "pass"


def decide(game: Game, ply: int = 0, bot: Any = None) -> str:
    """The answer for ``game``: a play's notation (``pass`` without a move),
    ``double``/``roll`` before the roll, ``take``/``drop`` when doubled;
    by ``bot`` when given (a Bot), else by the nets at ``ply``."""
    if game.phase is Phase.MOVE:
        play = choose(game, ply, bot)
        return str(play) if play.moves else "pass"
    allowed = ("take", "drop") if game.phase is Phase.DOUBLED else (
        ("double", "roll") if game.can_double() else ("roll",))
    if bot is not None and hasattr(bot, "cube_action"):
        action = bot.cube_action(game)
        if action not in allowed:
            raise BackgammonError(f"the bot's cube action must be one of {allowed}, got {action!r}")
        return str(action)
    decision = game.cube_decision(ply=ply)
    if game.phase is Phase.DOUBLED:
        return "take" if decision.take else "drop"
    if "double" in allowed and decision.action.lower().startswith(("double", "redouble")):
        return "double"
    return "roll"


def run(stdin: IO[str] | None = None, stdout: IO[str] | None = None, bot: Any = None,
        dialect: str = "uci") -> int:
    """Serves the protocol until ``quit`` or the end of input (decisions by ``bot`` if
    given; ``dialect="draft"``: the UBGI draft's handshake and ``sorry``)."""
    stdin = stdin or sys.stdin
    stdout = stdout or sys.stdout
    engine = UbgiEngine(bot, dialect)
    while True:
        line = stdin.readline(_MAX_LINE + 2)
        if not line:
            return 0
        if len(line) > _MAX_LINE and not line.endswith("\n"):
            while line and not line.endswith("\n"):  # skip the rest of an overlong line
                line = stdin.readline(_MAX_LINE + 2)
            answer, done = engine.handle("x" * (_MAX_LINE + 1))   # the length error
        else:
            answer, done = engine.handle(line)
        for a in answer:
            stdout.write(a + "\n")
        stdout.flush()
        if done:
            return 0


def main(args: Any = None) -> int:
    """``python -m backgammon.protocols.ubgi [--draft]``."""
    argv = sys.argv[1:] if args is None else list(args)
    return run(dialect="draft" if "--draft" in argv else "uci")


if __name__ == "__main__":
    sys.exit(main())
