"""Do our FIBS board strings read and write as GNU Backgammon's?

Plays random money and match games with the library, hands each state to
the ``gnubg`` PyPI module (GPL; measurement only) as ``set matchid`` /
``set board``, has gnubg print it with ``set output rawboard on``, then:
(1) parses gnubg's string with ``Game.from_fibs_board`` and compares the
position, player on roll, dice, cube, owner and score with the state sent;
(2) compares ``game.to_fibs_board(player=1)`` with gnubg's string field by
field (names aside; gnubg prints from its player 1, "you" on its board).
Writes the boards to ``--out`` (JSON lines) for tests/test_engine_fibs.py.

    PYTHONPATH=python python tools/check_gnubg_fibs_board.py --states 300
"""

from __future__ import annotations

import argparse
import json
import random
import subprocess
import sys

from backgammon.game import Game
from backgammon.match import Match

GNUBG = r'''
import ctypes, os, sys, tempfile
import gnubg
libc = ctypes.CDLL(None)
gnubg.command("set confirm new off")
gnubg.command("set player 0 human")
gnubg.command("set player 1 human")
gnubg.command("set output rawboard on")
gnubg.command("new match 7")
out = sys.stdout
for line in sys.stdin:
    mid, pid = line.split()
    gnubg.command(f"set matchid {mid}")
    gnubg.command(f"set board {pid}")
    # gnubg writes to C's stdout: catch what "show board" prints in a file
    libc.fflush(None)
    with tempfile.TemporaryFile("w+") as f:
        saved = os.dup(1)
        os.dup2(f.fileno(), 1)
        gnubg.command("show board")
        libc.fflush(None)
        os.dup2(saved, 1)
        os.close(saved)
        f.seek(0)
        boards = [x for x in f.read().splitlines() if x.startswith("board:")]
    out.write(f"STATE {mid} {pid} {boards[-1] if boards else 'none'}\n")
    out.flush()
'''


def states(n: int, seed: int) -> list[Game]:
    rng = random.Random(seed)
    out: list[Game] = []
    while len(out) < n:
        length = rng.choice([0, 3, 5, 7])
        game = Match(length, rng=rng.randrange(10 ** 6)).game if length else Game(rng=rng.randrange(10 ** 6))
        while not game.over and len(out) < n:
            acts = game.legal_actions()
            if "take" in acts:
                game.take() if rng.random() < 0.7 else game.drop()
            elif "double" in acts and rng.random() < 0.1:
                game.double()
            elif "roll" in acts:
                game.roll()
            elif "play" in acts or "commit" in acts:
                if rng.random() < 0.3:
                    out.append(game.copy())
                plays = game.position.legal_plays(game.dice)
                game.play(rng.choice(plays))
            else:
                break
            if game.phase.value == "roll" and rng.random() < 0.2:
                out.append(game.copy())
    return out


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--states", type=int, default=300)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--out", default=None)
    a = ap.parse_args()
    games = states(a.states, a.seed)
    lines = []
    for g in games:
        pid, mid = g.gnubg_id().split(":")
        lines.append(f"{mid} {pid}")
    proc = subprocess.run([sys.executable, "-c", GNUBG], input="\n".join(lines) + "\n",
                          capture_output=True, text=True, timeout=600)
    boards: dict[str, str] = {}
    for line in proc.stdout.splitlines():
        if line.startswith("STATE "):
            _, mid, pid, board = line.split(" ", 3)
            if board.startswith("board:"):
                boards[f"{mid} {pid}"] = board
    if not boards:
        sys.exit(f"gnubg printed no boards: {proc.stderr[-2000:]}")
    read_ok = write_ok = 0
    rows = []
    for g, key in zip(games, lines):
        text = boards.get(key)
        if text is None:
            print("gnubg printed no board for", key)
            continue
        back = Game.from_fibs_board(text, player=1)
        fields = ("position", "turn", "dice", "cube", "cube_owner", "score", "match_length",
                  "phase")
        # gnubg prints the dice in its own order: the order carries no meaning
        bad = [f for f in fields if (sorted(getattr(back, f)) if f == "dice" and g.dice
                                     else getattr(back, f)) != (sorted(g.dice) if f == "dice"
                                                                and g.dice else getattr(g, f))]
        read_ok += not bad
        if bad:
            print("read differs:", key, text, [(f, getattr(back, f), getattr(g, f)) for f in bad])
        # fields 45..48 (checkers off and on the bar) are derived: gnubg prints 0s
        ours = back.to_fibs_board(player=1).split(":")
        theirs = text.split(":")
        diff = [i for i, (x, y) in enumerate(zip(ours, theirs)) if x != y and i > 2
                and not 45 <= i <= 48]
        write_ok += not diff
        if diff:
            print("written differs at fields", diff, "\n ours  ", ":".join(ours), "\n gnubg ", ":".join(theirs))
        rows.append({"gnubg_id": g.gnubg_id(), "board": text})
    print(f"{len(games)} states: gnubg's boards read back equal {read_ok}, "
          f"ours written equal to gnubg's {write_ok}")
    if a.out:
        with open(a.out, "w") as f:
            for r in rows:
                f.write(json.dumps(r) + "\n")


if __name__ == "__main__":
    main()
