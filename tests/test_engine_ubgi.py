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
    out = session.send("ubgi", 6)
    assert out[0] == "id name backgammon" and "proto 0.2" in out and out[-1] == "ubgiok"
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


# -- UBGI v0.2 (bgci's protocol): keys, bare position IDs, dice, go chequer/cube/turn ------

def test_v02_keys_position_dice_and_go():
    from backgammon.protocols.ubgi import UbgiEngine
    e = UbgiEngine()
    assert e.handle("keys")[0] == ["key engine.ply int 0..2 0 search depth (plies: 0, 1 or 2)"]
    assert e.handle("get engine.ply")[0] == ["value engine.ply 0"]
    assert e.handle("set engine.ply 1") == ([], False)
    assert e.handle("get engine.ply")[0] == ["value engine.ply 1"]
    # the opening by its bare GNU position ID: no double before the roll; 3-1 makes the 5
    assert e.handle(f"position gnubgid {bg.Position.initial().position_id()}") == ([], False)
    assert e.handle("go cube")[0] == ["bestcube nodouble"]
    assert e.handle("go chequer")[0] == ["error bad_state missing dice: send 'dice D1 D2' first"]
    assert e.handle("dice 3 1") == ([], False)
    assert e.handle("go")[0] == e.handle("go chequer")[0] == ["bestmove 8/5 6/5"]
    assert e.handle("go turn")[0] == ["bestturn cube=nodouble move=8/5 6/5"]
    # a new position forgets the dice
    e.handle(f"position gnubgid {bg.Position.initial().position_id()}")
    assert e.handle("go")[0] == ["bestmove roll"]


def test_v02_moves_name_the_bar_and_off_and_pass():
    from backgammon.protocols.ubgi import UbgiEngine
    from boards import board
    e = UbgiEngine()

    def best(pos, dice):
        e.handle(f"position gnubgid {pos.position_id()}")
        e.handle(f"dice {dice[0]} {dice[1]}")
        return e.handle("go chequer")[0][0]

    # on the bar against an open board: the play starts by entering
    entering = board({25: 1, 6: 5, 8: 3, 13: 5, 24: 1}, {19: 5, 17: 3, 12: 5, 1: 2})
    assert best(entering, (6, 5)).split()[1].startswith("bar/")
    # a race at home: 6-5 bears two checkers off
    home = board({1: 3, 2: 3, 3: 3, 4: 2, 5: 2, 6: 2}, {24: 15})
    assert best(home, (6, 5)) == "bestmove 6/off 5/off"
    # on the bar against a closed board: nothing to play (RULES 5.4)
    closed = board({25: 1, 6: 3, 8: 11}, {19: 2, 20: 2, 21: 2, 22: 2, 23: 2, 24: 2, 12: 3})
    assert best(closed, (6, 6)) == "bestmove pass"


def test_v02_errors_have_codes_and_change_nothing():
    from backgammon.protocols.ubgi import UbgiEngine
    e = UbgiEngine()
    assert e.handle("go")[0] == ["error bad_state missing position: send 'position ...' first"]
    assert e.handle("hello")[0] == ["error bad_command unknown command 'hello'"]
    assert e.handle("set engine.ply 9")[0] == ["error bad_value engine.ply must_be 0..2"]
    assert e.handle("set engine.hash 64")[0][0].startswith("error unsupported ")
    assert e.handle("set engine.ply")[0][0].startswith("error bad_command ")
    assert e.handle("dice 0 7")[0][0].startswith("error bad_value ")
    assert e.handle("go sideways")[0][0].startswith("error bad_command ")
    assert e.handle("position gnubgid notanid")[0][0].startswith("error bad_value ")
    assert e.handle("get engine.ply")[0] == ["value engine.ply 0"]       # nothing changed
    # the cube's question is asked before the roll: not when doubled
    g = bg.Game.from_position(bg.Position.initial(), turn=0)
    g.double()
    e.handle(f"position xgid {g.xgid()}")
    assert e.handle("go cube")[0][0].startswith("error bad_state ")
    assert e.handle("go")[0] == ["bestmove take"]


def test_the_module_examples_run():
    import doctest

    import backgammon.protocols.ubgi as ubgi
    result = doctest.testmod(ubgi, optionflags=doctest.ELLIPSIS)
    assert result.failed == 0 and result.attempted >= 6
