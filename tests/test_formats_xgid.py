"""XGID reading and writing: fields worked out by hand from the format description
(bottom player = player 0; the board from the bottom player's side)."""

from __future__ import annotations

import warnings

import pytest
from backgammon.errors import FormatLossWarning, InvalidRecordError
from backgammon.formats.xgid import XGIDFields, decode_xgid, encode_xgid
from backgammon.game import Game, Phase
from backgammon.position import Position

START = "-b----E-C---eE---c-e----B-"  # bottom: 24(2) 13(5) 8(3) 6(5); top: b on 1, e on 12, ...


def test_money_session_score_is_reported_when_read():
    with pytest.warns(FormatLossWarning, match="session score 3-1"):
        game = Game.from_xgid(f"XGID={START}:0:0:1:52:3:1:0:0:6")
    assert game.score == (0, 0)


def test_opening_position_field_by_field():
    f = decode_xgid(f"XGID={START}:0:0:1:52:0:0:0:0:10")
    assert f.board == tuple(Position.initial().tolist())
    assert (f.cube, f.cube_owner, f.turn, f.dice, f.action) == (1, None, 0, (5, 2), "")
    assert (f.score, f.flags, f.match_length, f.max_cube) == ((0, 0), 0, 0, 1024)


def test_write_the_opening_roll():
    game = Game.from_position(Position.initial(), dice=(5, 2))
    # cube 2^0, centred, bottom on roll, 52, money, Rules() max cube 64 = 2^6
    assert game.xgid() == f"XGID={START}:0:0:1:52:0:0:0:0:6"


def test_top_player_on_roll_sees_the_swapped_board():
    # bottom has one extra checker moved 13/8 relative to the start: E on 13 -> D, C on 8 -> D
    text = "XGID=-b----E-D---eD---c-e----B-:1:-1:-1:00:0:0:0:0:10"
    game = Game.from_xgid(text)
    bottom = [0, -2, 0, 0, 0, 0, 5, 0, 4, 0, 0, 0, -5, 4, 0, 0, 0, -3, 0, -5, 0, 0, 0, 0, 2, 0]
    assert game.turn == 1 and game.board(0) == Position(bottom)
    assert game.position == Position(bottom).swapped()
    assert (game.cube, game.cube_owner, game.phase) == (2, 1, Phase.ROLL)  # 2^1, owner -1 = top


def test_doubled_and_money_flags():
    game = Game.from_xgid(f"XGID={START}:0:0:1:D:0:0:3:0:10")
    assert game.phase is Phase.DOUBLED and game.player_to_act == 1
    assert game.rules.jacoby and game.rules.beaver  # flags 3 = Jacoby 1 + beaver 2
    assert game.rules.max_cube == 64  # 2^10 is read as the library's top, 64 (RULES 8.4)
    game.beaver()
    assert (game.cube, game.cube_owner) == (4, 1)


def test_match_fields_and_crawford():
    game = Game.from_xgid(f"XGID={START}:0:0:-1:61:3:4:1:5:10")
    assert (game.match_length, game.score, game.crawford, game.turn, game.dice) == \
        (5, (3, 4), True, 1, (6, 1))
    assert not game.can_double(1)


@pytest.mark.parametrize("text", [
    f"XGID={START}:0:0:1:52:0:0:0:0:6",
    f"XGID={START}:2:1:-1:00:0:0:1:0:6",
    f"XGID={START}:1:1:1:D:2:1:0:7:6",
])
def test_round_trip(text):
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert Game.from_xgid(text).xgid() == text


def test_round_trip_of_a_played_game():
    game = Game(rng=5)
    game.roll((6, 4))
    game.play([(24, 18), (18, 14)])
    game.roll((2, 2))
    text = game.xgid()
    back = Game.from_xgid(text)
    assert (back.position, back.turn, back.dice) == (game.position, game.turn, game.dice)
    assert back.xgid() == text


def test_encode_fields():
    f = XGIDFields(tuple(Position.initial().tolist()), cube=4, cube_owner=0, turn=1,
                   dice=(3, 3), score=(2, 5), flags=1, match_length=9, max_cube=64)
    assert encode_xgid(f) == f"XGID={START}:2:1:-1:33:2:5:1:9:6"


def test_losses_reported():
    game = Game(rng=1)
    with pytest.warns(FormatLossWarning, match="opening"):
        game.xgid()
    game = Game.from_position(Position.initial())
    game.resign("gammon")
    with pytest.warns(FormatLossWarning, match="resignation"):
        game.xgid()


@pytest.mark.parametrize("bad", [
    "XGID=-b----E-C---eE---c-e----B:0:0:1:52:0:0:0:0:10",     # 25 position characters
    f"XGID={START}:0:0:1:52:0:0:0:0",                          # 9 fields
    f"XGID={START}:0:2:1:52:0:0:0:0:10",                       # owner 2
    f"XGID={START}:0:0:0:52:0:0:0:0:10",                       # turn 0
    f"XGID={START}:0:0:1:72:0:0:0:0:10",                       # a die of 7
    f"XGID={START}:0:0:1:R:0:0:0:0:10",                        # raccoon
    f"XGID={START}:x:0:1:52:0:0:0:0:10",                       # cube not a number
    "XGID=-b----E-C---eE---c-e----Z-:0:0:1:52:0:0:0:0:10",     # Z is not a count
    "XGID=-b----E-C---eE---c-e----O-:0:0:1:52:0:0:0:0:10",     # 28 bottom checkers
    f"XGID={START}:7:0:1:52:0:0:0:0:10",                       # cube 128
    f"XGID={START}:1:-1:1:D:0:0:0:0:10",                       # bottom doubles top's cube
    f"XGID={START}:0:0:1:D:4:2:1:5:10",                        # double in the Crawford game
    f"XGID={START}:0:0:1:52:5:2:0:5:10",                       # the match is already won
    f"XGID={START}:0:0:1:52:2:1:1:5:10",                       # Crawford, nobody at N-1
    f"XGID={START}:1:0:1:52:4:2:1:5:10",                       # a 2-cube in the Crawford game
    f"XGID={START}:0:1:1:52:0:0:0:0:10",                       # a cube owned at 1
    None,
])
def test_bad_xgids_are_refused(bad):
    with pytest.raises(InvalidRecordError):
        Game.from_xgid(bad)
