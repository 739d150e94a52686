"""``backgammon ubgi``: a UCI-style text protocol over stdin and stdout.

No public UBGI draft was found when this was written, so this is the
protocol implemented, modelled on UCI.  One command per line; the engine
answers only what is listed and never speaks unasked.

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

The UBI draft of bgammon.org's author (November 2023, discussed on the
bug-gnubg list) is not spoken: its text could not be found to follow.
"""

from __future__ import annotations

import sys
from typing import IO, Any

from backgammon.errors import BackgammonError
from backgammon.game import Game, Phase

_MAX_LINE = 4096


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
            return [f"error a command has at most {_MAX_LINE} characters"], False
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
                return ids + ["option name ply type spin default 0 min 0 max 2", "ubgiok"], False
            if cmd == "isready":
                return ["readyok"], False
            if cmd == "stop":
                return [], False
            if cmd == "newgame":
                self.game = None
                return [], False
            if cmd == "setoption":
                return self._setoption(rest), False
            if cmd == "position":
                return self._position(rest), False
            if cmd == "go":
                return [self._go()], False
            return [f"error unknown command {cmd!r}"], False
        except BackgammonError as e:
            return [f"error {' '.join(str(e).split())}"], False

    def _setoption(self, rest: list[str]) -> list[str]:
        if len(rest) != 4 or rest[0] != "name" or rest[2] != "value" or rest[1].lower() != "ply":
            return ["error setoption takes 'name ply value N'"]
        if rest[3] not in ("0", "1", "2"):
            return [f"error ply is 0, 1 or 2, got {rest[3]!r}"]
        self.ply = int(rest[3])
        return []

    def _position(self, rest: list[str]) -> list[str]:
        if len(rest) != 2:
            return ["error position takes 'fibs BOARD', 'xgid XGID' or 'gnubgid ID'"]
        kind, text = rest
        if kind == "fibs":
            game = Game.from_fibs_board(text)
        elif kind == "xgid":
            game = Game.from_xgid(text)
        elif kind == "gnubgid":
            game = Game.from_gnubg_id(text)
        else:
            return [f"error unknown position kind {kind!r}: fibs, xgid or gnubgid"]
        if game.phase not in (Phase.ROLL, Phase.MOVE, Phase.DOUBLED):
            return [f"error no decision to make in this position (phase {game.phase.value})"]
        self.game = game
        return []

    def _bare(self, text: str) -> str:
        """The UBGI draft's answer to a bare position: the action, the play written out."""
        game = Game.from_fibs_board(text) if text.startswith("board:") else Game.from_xgid(text)
        if game.phase not in (Phase.ROLL, Phase.MOVE, Phase.DOUBLED):
            return f"error no decision to make in this position (phase {game.phase.value})"
        if game.phase is not Phase.MOVE:
            return decide(game, self.ply, self.bot)
        return " ".join(f"{a}/{b}" for a, b in choose(game, self.ply, self.bot).moves)

    def _go(self) -> str:
        if self.game is None:
            return "error no position: send 'position ...' first"
        return f"bestmove {decide(self.game, self.ply, self.bot)}"


def choose(game: Game, ply: int = 0, bot: Any = None) -> Any:
    """The play for ``game`` (waiting for one): ``bot``'s, else the nets' at ``ply``."""
    assert game.dice is not None
    if bot is not None:
        from backgammon.env.bots import choose_with
        return choose_with(bot, game.position, game.dice, game.turn)
    return game.position.best_play(game.dice, ply=ply)


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
