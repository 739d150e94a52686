"""``backgammon external --port N``: GNU Backgammon's "external player" socket protocol.

gnubg (``external localhost:N``) or any client connects over TCP and sends
one line per question; each is answered with one line::

    | request | answer |
    |---|---|
    | a FIBS board (``board:...``, see ``backgammon.protocols.fibs``) with dice | the play in gnubg notation (``8/5 6/5``; an empty line when no checker can move: gnubg 1.07 reads that as "no move" and crashes on a word such as ``pass``) |
    | the same without dice, the player on roll able to double | ``double`` or ``roll`` |
    | the same with a double pending (field 40) | ``take`` or ``drop`` |
    | ``evaluation <board>`` (any words before the board are ignored) | the five cubeless chances of the player on roll before rolling, ``win win_gammon win_backgammon lose_gammon lose_backgammon``, and the equity |

The board is read from "you"'s side: you are the player to act.  A request
ends at a newline; NUL bytes are dropped wherever they are, so gnubg's own
framing (each request written with its C string terminator, ``\n\0``, as
gnubg 1.07 and 1.08 do) reads as plain lines, and a frame that was only
NULs gets no answer.  Anything
malformed gets ``Error: <what was wrong>`` and the connection stays open.
The server listens on 127.0.0.1 unless ``--host`` says otherwise, serves
each connection on its own thread, and prints ``listening on HOST:PORT``
first (``--port 0`` picks a free port).
"""

from __future__ import annotations

import socketserver
import sys
from typing import Any

from backgammon.errors import BackgammonError
from backgammon.game import Game, Phase

_MAX_LINE = 4096


def answer(line: str, ply: int = 0, bot: Any = None) -> str:
    """The answer to one request line (without its newline); decisions by
    ``bot`` (a Bot) when given, else by the nets at ``ply``."""
    line = line.strip()
    if not line:
        return "Error: empty request"
    words = line.split()
    try:
        if words[0] == "evaluation":
            board = next((w for w in words[1:] if w.startswith("board:")), None)
            if board is None:
                return "Error: evaluation needs a FIBS board (board:...)"
            game = Game.from_fibs_board(board)
            from backgammon.nn import evaluate
            e = evaluate(game.position, ply=ply)
            return (f"{e.win:.6f} {e.win_gammon:.6f} {e.win_backgammon:.6f} "
                    f"{e.lose_gammon:.6f} {e.lose_backgammon:.6f} {e.equity:.6f}")
        if not words[0].startswith("board:") or len(words) != 1:
            return f"Error: expected a FIBS board (board:...) or 'evaluation', got {line[:60]!r}"
        from backgammon.protocols.ubgi import decide
        game = Game.from_fibs_board(words[0])
        reply = decide(game, ply, bot)
        # a dance: gnubg parses the answer as a move, and an empty one is "no move"
        return "" if reply == "pass" and game.phase is Phase.MOVE else reply
    except BackgammonError as e:
        return f"Error: {' '.join(str(e).split())}"


class _Handler(socketserver.StreamRequestHandler):
    def handle(self) -> None:
        ply = getattr(self.server, "ply", 0)
        bot = getattr(self.server, "bot", None)
        while True:
            raw = self.rfile.readline(_MAX_LINE + 1)
            if not raw:
                return
            if b"\0" in raw:
                # gnubg ends each request with "\n\0": the NUL begins the next read
                raw = raw.replace(b"\0", b"")
                if not raw.strip(b"\r\n\t "):
                    continue  # only NULs (and a newline): nothing was asked
            if len(raw) > _MAX_LINE and not raw.endswith(b"\n"):
                while raw and not raw.endswith(b"\n"):
                    raw = self.rfile.readline(_MAX_LINE + 1)
                reply = f"Error: a request has at most {_MAX_LINE} characters"
            else:
                try:
                    reply = answer(raw.decode("utf-8"), ply, bot)
                except UnicodeDecodeError:
                    reply = "Error: requests are UTF-8 text"
            self.wfile.write((reply + "\n").encode())
            self.wfile.flush()


class Server(socketserver.ThreadingTCPServer):
    daemon_threads = True
    allow_reuse_address = True


def serve(port: int, host: str = "127.0.0.1", ply: int = 0, out: Any = None,
          bot: Any = None) -> int:
    """Serves until interrupted (decisions by ``bot`` if given, a Bot)."""
    out = out or sys.stdout
    with Server((host, port), _Handler) as server:
        server.ply = ply  # type: ignore[attr-defined]
        server.bot = bot  # type: ignore[attr-defined]
        h, p = server.server_address[:2]
        out.write(f"listening on {h!s}:{p}\n")
        out.flush()
        try:
            server.serve_forever(poll_interval=0.2)
        except KeyboardInterrupt:
            pass
    return 0
