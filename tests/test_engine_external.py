"""backgammon external: gnubg's external player protocol over a loopback socket."""

from __future__ import annotations

import socket
import subprocess
import sys

import pytest

import backgammon as bg

OPENING_31 = ("board:You:Opponent:0:0:0:0:-2:0:0:0:0:5:0:3:0:0:0:-5:5:0:0:0:-3:0:-5:0:0:0:0"
              ":2:0:1:3:1:3:1:1:1:1:0:1:-1:0:25:0:0:0:0:0:0:0:1")


@pytest.fixture(scope="module")
def server():
    p = subprocess.Popen([sys.executable, "-m", "backgammon", "external", "--port", "0"],
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    line = p.stdout.readline()
    assert line.startswith("listening on 127.0.0.1:"), line + p.stderr.read()
    yield int(line.rsplit(":", 1)[1])
    p.terminate()
    p.wait(timeout=30)


def _ask(port: int, lines: list[str]) -> list[str]:
    with socket.create_connection(("127.0.0.1", port), timeout=60) as s:
        f = s.makefile("rwb")
        out = []
        for line in lines:
            f.write(line.encode() + b"\n")
            f.flush()
            out.append(f.readline().decode().rstrip("\n"))
        return out


def test_plays_cube_and_evaluation(server):
    no_dice = OPENING_31.split(":")
    no_dice[33:37] = ["0"] * 4
    doubled = list(no_dice)
    doubled[40] = "1"
    out = _ask(server, [OPENING_31, ":".join(no_dice), ":".join(doubled),
                        "evaluation fibsboard " + ":".join(no_dice)])
    assert out[0] == "8/5 6/5"
    assert out[1] == "roll"           # nobody doubles at the opening
    assert out[2] == "take"           # and a double there is an easy take
    chances = [float(x) for x in out[3].split()]
    e = bg.evaluate(bg.Position.initial())
    assert chances[:5] == pytest.approx([e.win, e.win_gammon, e.win_backgammon,
                                         e.lose_gammon, e.lose_backgammon], abs=1e-5)


def test_malformed_requests_answer_errors_and_live_on(server):
    bad = ["", "hello", "board:1:2:3", "evaluation", "evaluation board:x",
           OPENING_31 + " extra", "board:" + "9:" * 52, "é" * 10, "x" * 6000]
    out = _ask(server, bad + [OPENING_31])
    assert all(o.startswith("Error: ") for o in out[:-1]), out
    assert out[-1] == "8/5 6/5"
    # a second connection is served too
    assert _ask(server, [OPENING_31]) == ["8/5 6/5"]


def test_nul_framed_requests_as_gnubg_sends_them(server):
    # gnubg writes each request with its C terminator: "board:...\n\0"
    with socket.create_connection(("127.0.0.1", server), timeout=60) as s:
        f = s.makefile("rwb")
        out = []
        for _ in range(3):
            f.write(OPENING_31.encode() + b"\n\0")
            f.flush()
            out.append(f.readline().decode().rstrip("\n"))
        f.write(b"\0")      # a frame of NULs alone asks nothing: no answer comes
        f.write(b"\0" + OPENING_31.encode() + b"\n")
        f.flush()
        out.append(f.readline().decode().rstrip("\n"))
    assert out == ["8/5 6/5"] * 4


def test_a_dance_is_an_empty_answer(server):
    # 6-6 for "you" against a closed board: no checker can move (RULES 5.4), and gnubg
    # reads an empty answer as "no move" (it crashes on the word "pass")
    f = OPENING_31.split(":")
    # in this string's direction your point p is board field p and your bar field 25
    board = ["0"] * 26
    board[25] = "1"                                  # your checker on the bar
    for p in range(19, 25):
        board[p] = "-2"                              # the opponent holds your 19..24
    board[6] = "3"
    board[8] = "11"
    board[12] = "-3"
    f[6:32] = board
    f[33:37] = ["6", "6", "6", "6"]
    game = bg.Game.from_fibs_board(":".join(f))
    assert [p.moves for p in game.position.legal_plays(game.dice)] == [()]
    assert _ask(server, [":".join(f)]) == [""]


def _gnubg() -> str:
    """Debian's gnubg (in /usr/games): skipped outside CI, a failure under CI=true."""
    import os
    import shutil
    path = shutil.which("gnubg") or next(
        (p for p in ("/usr/games/gnubg",) if os.access(p, os.X_OK)), None)
    if path is None:
        if os.environ.get("CI") == "true":
            pytest.fail("gnubg is not installed: .ci/run installs Debian's gnubg package")
        pytest.skip("gnubg is not installed (apt-get install gnubg)")
    return path


@pytest.mark.slow
def test_gnubg_plays_whole_games_against_the_server(server, tmp_path):
    """Debian's real gnubg, as a client of `backgammon external`, plays 3 cubeless and
    3 cube money games; its own SGF record of them replays as legal in our reader."""
    from backgammon.formats import read_sgf
    record = tmp_path / "session.sgf"
    commands = "\n".join([
        "set seed 12", "set jacoby off", "set automatic game off",
        f"set player 0 external localhost:{server}",
        "set player 1 gnubg",
        "set player 1 chequerplay evaluation plies 0",
        "set player 1 cubedecision evaluation plies 0",
        "set cube use off", "new session", "new game", "new game",
        "set cube use on", "new game", "new game", "new game",
        f"save match {record}", "quit", "y", ""])
    env = {"HOME": str(tmp_path), "PATH": "/usr/bin:/bin", "LANG": "C"}
    p = subprocess.run([_gnubg(), "-t", "-q", "-r"], input=commands, capture_output=True,
                       text=True, timeout=300, env=env)
    out = p.stdout + p.stderr
    assert p.returncode == 0, out[-3000:]
    assert "Error" not in out and "Warning" not in out, out[-3000:]
    assert out.count(" wins a ") == 6, out[-3000:]
    assert "Use of the doubling cube is permitted." in out
    games = read_sgf(record.read_text()).games   # every play replayed, checked legal
    assert len(games) == 6 and all(g.result is not None for g in games)
