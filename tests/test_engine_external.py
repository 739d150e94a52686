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
