"""FIBS board strings: Game.from_fibs_board / game.to_fibs_board."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

import backgammon as bg

DATA = Path(__file__).parent / "data"

# as gnubg 1.08 prints it (set output rawboard on): a 5-point match, 3-1 to
# play by "root", colour 1 (X) moving from 24 down
GNUBG_OPENING = ("board:root:gnubg:5:0:0:0:-2:0:0:0:0:5:0:3:0:0:0:-5:5:0:0:0:-3:0:-5:0:0:0:0"
                 ":2:0:1:3:1:3:1:1:1:1:0:1:-1:0:25:0:0:0:0:0:0:0:1")


def test_gnubg_opening_board():
    g = bg.Game.from_fibs_board(GNUBG_OPENING)
    assert g.position == bg.Position.initial()
    assert g.turn == 0 and g.dice == (3, 1) and g.phase is bg.Phase.MOVE
    assert g.match_length == 5 and g.score == (0, 0) and g.cube == 1 and g.cube_owner is None
    assert g.to_fibs_board(names=("root", "gnubg")) == GNUBG_OPENING


def _mirror(text: str) -> str:
    """The same board for a player of colour -1 moving up (FIBS's other convention)."""
    f = text.split(":")
    board = [int(x) for x in f[6:32]]
    f[6:32] = [str(-board[25 - i]) for i in range(26)]
    f[32] = str(-int(f[32]))                         # the turn is a colour
    f[41], f[42], f[43], f[44] = "-1", "1", "25", "0"
    return ":".join(f)


def test_other_colour_and_direction():
    g = bg.Game.from_fibs_board(_mirror(GNUBG_OPENING))
    assert g.position == bg.Position.initial() and g.turn == 0 and g.dice == (3, 1)


def test_opponent_on_roll_and_player_argument():
    text = GNUBG_OPENING.split(":")
    text[32] = "-1"   # the opponent (colour -1) is on roll with the opponent's dice
    g = bg.Game.from_fibs_board(":".join(text), player=1)
    assert g.turn == 0 and g.dice == (3, 1)   # "you" are player 1: player 0 is on roll


def test_cube_owner_and_doubled():
    f = GNUBG_OPENING.split(":")
    f[37], f[38], f[39] = "2", "1", "0"           # cube 2, only you may double: you own it
    f[34] = f[35] = f[36] = f[33] = "0"           # not rolled yet
    g = bg.Game.from_fibs_board(":".join(f))
    assert g.cube == 2 and g.cube_owner == 0 and g.phase is bg.Phase.ROLL
    f[37], f[38], f[39], f[40] = "1", "1", "1", "1"  # you doubled: the opponent must answer
    g = bg.Game.from_fibs_board(":".join(f))
    assert g.phase is bg.Phase.DOUBLED and g.player_to_act == 1


@pytest.mark.parametrize("change,match", [
    (lambda f: f[:-1], "52 fields"),
    (lambda f: f + ["0"], "52 fields"),
    (lambda f: f[:6] + ["x"] + f[7:], "integer"),
    (lambda f: f[:41] + ["2"] + f[42:], "colour"),
    (lambda f: f[:43] + ["25", "0"] + f[45:], "home and bar"),
    (lambda f: f[:12] + ["9"] + f[13:], "not a position"),
    (lambda f: f[:32] + ["0"] + f[33:], "finished"),
    (lambda f: f[:33] + ["7", "1"] + f[35:], "dice"),
    (lambda f: f[:37] + ["3"] + f[38:], "power of two"),
    (lambda f: ["bored"] + f[1:], "starts with"),
    (lambda f: f[:4] + ["5"] + f[5:], "match"),
])
def test_malformed_boards(change, match):
    f = GNUBG_OPENING.split(":")
    with pytest.raises(bg.InvalidRecordError, match=match):
        bg.Game.from_fibs_board(":".join(change(f)))
    with pytest.raises(bg.InvalidRecordError):
        bg.Game.from_fibs_board("board:" + "1:" * 5000)
    with pytest.raises(bg.InvalidRecordError):
        bg.Game.from_fibs_board(None)


def test_round_trips_of_random_games():
    rng = random.Random(4)
    checked = 0
    for seed in range(30):
        m = bg.Match(7, rng=seed)
        g = m.game
        while not g.over and checked < 600:
            acts = g.legal_actions()
            if "take" in acts:
                g.take()
            elif "double" in acts and rng.random() < 0.1:
                g.double()
            elif "roll" in acts:
                g.roll()
            else:
                g.play(rng.choice(g.position.legal_plays(g.dice)))
            if g.over:
                break
            if g.phase is bg.Phase.OPENING:
                continue  # a tied opening roll: FIBS has no opening phase
            for player in (0, 1):
                back = bg.Game.from_fibs_board(g.to_fibs_board(player=player), player=player)
                assert (back.position, back.turn, back.dice, back.phase, back.cube,
                        back.cube_owner, back.score) == (g.position, g.turn, g.dice, g.phase,
                                                         g.cube, g.cube_owner, g.score)
            checked += 1
    assert checked > 200


def test_boards_gnubg_printed():
    """Boards gnubg printed for states of our games (tools/check_gnubg_fibs_board.py)."""
    rows = [json.loads(line) for line in (DATA / "gnubg_fibs_boards.jsonl").read_text().splitlines()]
    assert len(rows) >= 100
    for r in rows:
        want = bg.Game.from_gnubg_id(r["gnubg_id"])
        got = bg.Game.from_fibs_board(r["board"], player=1)  # gnubg's "you" is its player 1
        assert (got.position, got.turn, got.cube, got.cube_owner, got.score, got.phase) == \
            (want.position, want.turn, want.cube, want.cube_owner, want.score, want.phase), r
        # gnubg prints the dice in its own order, which carries no meaning
        assert sorted(got.dice or ()) == sorted(want.dice or ())
        # written back: equal but for fields 45..48 (off and bar counts), which gnubg leaves 0
        ours, theirs = got.to_fibs_board(player=1).split(":"), r["board"].split(":")
        assert [x for i, x in enumerate(ours) if i > 2 and not 45 <= i <= 48] == \
            [x for i, x in enumerate(theirs) if i > 2 and not 45 <= i <= 48]
