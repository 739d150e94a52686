"""backgammon ubgi: a session driven through a subprocess."""

from __future__ import annotations

import subprocess
import sys

import pytest

import backgammon as bg

OPENING_31 = ("board:You:Opponent:0:0:0:0:-2:0:0:0:0:5:0:3:0:0:0:-5:5:0:0:0:-3:0:-5:0:0:0:0"
              ":2:0:1:3:1:3:1:1:1:1:0:1:-1:0:25:0:0:0:0:0:0:0:1")


class Session:
    def __init__(self):
        self.p = subprocess.Popen([sys.executable, "-m", "backgammon", "ubgi"],
                                  stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                  stderr=subprocess.PIPE, text=True, bufsize=1)

    def send(self, line: str, answers: int = 1) -> list[str]:
        self.p.stdin.write(line + "\n")
        self.p.stdin.flush()
        return [self.p.stdout.readline().rstrip("\n") for _ in range(answers)]

    def close(self) -> int:
        self.p.stdin.write("quit\n")
        self.p.stdin.flush()
        return self.p.wait(timeout=60)


@pytest.fixture
def session():
    s = Session()
    yield s
    if s.p.poll() is None:
        s.p.kill()


def test_handshake_and_moves(session):
    out = session.send("ubgi", 5)
    assert out[0] == "id name backgammon" and out[-1] == "ubgiok"
    assert session.send("isready") == ["readyok"]
    session.p.stdin.write(f"position fibs {OPENING_31}\n")
    # the nets' best 3-1 at the opening (README): 8/5 6/5
    assert session.send("go") == ["bestmove 8/5 6/5"]
    session.p.stdin.write("setoption name ply value 1\n")
    assert session.send("go") == ["bestmove 8/5 6/5"]
    # before the roll at the opening: no double
    g = bg.Game.from_position(bg.Position.initial(), turn=0)
    session.p.stdin.write(f"position gnubgid {g.gnubg_id()}\n")
    assert session.send("go") == ["bestmove roll"]
    # doubled at the opening (about 50% to win): take
    g = bg.Game.from_position(bg.Position.initial(), turn=0)
    g.double()
    session.p.stdin.write(f"position xgid {g.xgid()}\n")
    assert session.send("go") == ["bestmove take"]
    assert session.close() == 0


def test_malformed_commands_answer_errors_and_live_on(session):
    bad = ["fly", "position", "position fibs board:1:2", "position xgid XGID=nonsense",
           "position chess e4", "setoption name ply value 9",
           "setoption name speed value 1", "go", "x" * 5000]
    session.send("newgame", 0)
    for line in bad:
        out = session.send(line)
        assert out[0].startswith("error "), (line, out)
    assert session.send("isready") == ["readyok"]
    session.p.stdin.write(f"position fibs {OPENING_31}\n")
    assert session.send("go") == ["bestmove 8/5 6/5"]
    assert session.close() == 0


def test_a_bot_decides_in_the_engines():
    from backgammon.engine.external import answer
    from backgammon.engine.ubgi import UbgiEngine

    class LastPlayAlwaysDouble:
        def choose_play(self, game):
            return game.position.legal_plays(game.dice)[-1]

        def cube_action(self, game):
            return "double" if game.phase is bg.Phase.ROLL else "drop"

    bot = LastPlayAlwaysDouble()
    want = str(bg.Position.initial().legal_plays((3, 1))[-1])
    e = UbgiEngine(bot)
    assert e.handle(f"position fibs {OPENING_31}") == ([], False)
    assert e.handle("go") == ([f"bestmove {want}"], False)
    g = bg.Game.from_position(bg.Position.initial(), turn=0)
    e.handle(f"position gnubgid {g.gnubg_id()}")
    assert e.handle("go") == (["bestmove double"], False)
    assert answer(OPENING_31, bot=bot) == want

    class Bad:
        def choose_play(self, game):
            return "24/1"

        def cube_action(self, game):
            return "beaver"

    e = UbgiEngine(Bad())
    e.handle(f"position fibs {OPENING_31}")
    assert e.handle("go")[0][0].startswith("error ")
    e.handle(f"position gnubgid {g.gnubg_id()}")
    assert e.handle("go")[0][0].startswith("error ")
    assert e.handle("isready") == (["readyok"], False)
