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
    from backgammon.protocols.external import answer
    from backgammon.protocols.ubgi import UbgiEngine

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


# -- the UBGI draft 0.01 (Schønning-Johansen 2025): bare positions, written-out steps ------

OPENING_65_XGID = "XGID=-b----E-C---eE---c-e----B-:0:0:1:65:0:0:0:0:10"


def test_draft_dialect_through_a_subprocess():
    p = subprocess.Popen([sys.executable, "-m", "backgammon.protocols.ubgi", "--draft"],
                         stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                         text=True)
    out, err = p.communicate("ubgi\n" + OPENING_31 + "\n" + OPENING_65_XGID + "\nhello\nquit\n",
                             timeout=120)
    lines = out.splitlines()
    assert lines[0] == "id name backgammon" and lines[3] == "readyok", out + err
    # 3-1: the point on 5 as single steps; 6-5: 24/13 written out as its two steps
    assert lines[4:] == ["8/5 6/5", "24/18 18/13", "sorry"]


def test_draft_answers_from_the_engine():
    from backgammon.protocols.ubgi import UbgiEngine
    draft, ours = UbgiEngine(dialect="draft"), UbgiEngine()
    # a double is written out step by step, without (2): 3-3 from the opening
    xgid_33 = OPENING_65_XGID.replace(":65:", ":33:")
    play = draft.handle(xgid_33)[0][0].split()
    assert len(play) == 4 and all("(" not in s and "*" not in s for s in play)
    # no legal step: an empty line (6-6 on the bar against a closed board, RULES 5.4)
    f = OPENING_31.split(":")
    board = ["0"] * 26
    board[25], board[6], board[8], board[12] = "1", "3", "11", "-3"
    for q in range(19, 25):
        board[q] = "-2"
    f[6:32] = board
    f[33:37] = ["6", "6", "6", "6"]
    assert draft.handle(":".join(f)) == ([""], False)
    # before the roll and when doubled: the cube words (the opening: no double, a take)
    no_dice = OPENING_31.split(":")
    no_dice[33:37] = ["0"] * 4
    doubled = list(no_dice)
    doubled[40] = "1"
    assert draft.handle(":".join(no_dice))[0] == ["roll"]
    assert draft.handle(":".join(doubled))[0] == ["take"]
    # our dialect answers a bare position too, and keeps its own errors
    assert ours.handle(OPENING_65_XGID)[0] == ["24/18 18/13"]
    assert ours.handle("hello")[0][0].startswith("error ")
    assert draft.handle("position fibs nonsense")[0] == ["sorry"]
    with pytest.raises(bg.BackgammonError):
        UbgiEngine(dialect="chess")
