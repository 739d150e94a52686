"""gnubg Match IDs and GNUbgIDs: every row of tests/data/match_ids.jsonl (made with gnubg),
both directions, through the key and through Game; losses reported; bad IDs refused."""

from __future__ import annotations

import json
import warnings
from pathlib import Path

import pytest
from backgammon.errors import FormatLossError, FormatLossWarning, InvalidRecordError
from backgammon.formats.match_id import MatchKey, decode_match_id, encode_match_id
from backgammon.game import Game, Phase
from backgammon.position import Position
from backgammon.rules import Rules

ROWS = [json.loads(line) for line in
        (Path(__file__).parent / "data" / "match_ids.jsonl").read_text().splitlines()]
START_ID = "4HPwATDgc/ABMA"


def key_of(params: dict) -> MatchKey:
    """The vector's params with the defaults of vectors/README.md."""
    turn = params.get("turn", 0)
    return MatchKey(
        cube=params.get("cube", 1), cube_owner=params.get("cubeowner", -1),
        move=params.get("move", turn), crawford=bool(params.get("crawford", 0)),
        game_state=params.get("gamestate", 1), turn=turn,
        doubled=bool(params.get("doubled", 0)), resigned=params.get("resigned", 0),
        dice=tuple(sorted(params.get("dice", [0, 0]), reverse=True)),
        match_length=params.get("matchto", 0), score=tuple(params.get("score", [0, 0])),
        jacoby=bool(params.get("jacoby", 1)))


def test_all_26_rows_are_used():
    assert len(ROWS) == 26


@pytest.mark.parametrize("row", ROWS, ids=[r["match_id"] + str(i) for i, r in enumerate(ROWS)])
def test_encode_matches_gnubg(row):
    assert encode_match_id(key_of(row["params"])) == row["match_id"]


@pytest.mark.parametrize("row", ROWS, ids=[r["match_id"] + str(i) for i, r in enumerate(ROWS)])
def test_decode_matches_gnubg(row):
    assert decode_match_id(row["match_id"]) == key_of(row["params"])


@pytest.mark.parametrize("row", [r for r in ROWS if r["params"].get("gamestate", 1) != 2],
                         ids=lambda r: r["match_id"])
def test_game_round_trip_of_every_playable_row(row):
    gid = f"{START_ID}:{row['match_id']}"
    game = Game.from_gnubg_id(gid)
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # nothing is lost: these are gnubg's own states
        assert game.gnubg_id() == gid


def test_game_states_read_from_ids():
    # turn 1, doubled, move 0: player 0 doubled, player 1 answers
    g = Game.from_gnubg_id(f"{START_ID}:MBkAAAAAAAAA")
    assert (g.phase, g.turn, g.player_to_act) == (Phase.DOUBLED, 0, 1)
    # turn 0, move 1, resigned 2: player 1 (on roll) offers a gammon, player 0 answers
    g = Game.from_gnubg_id(f"{START_ID}:cEEAAAAAAAAA")
    assert (g.phase, g.resignation, g.player_to_act) == (Phase.RESIGNED, (1, "gammon"), 0)
    g.accept()
    # the ID has Jacoby on (bit 66 clear) and a centred cube: the gammon counts single
    assert (g.result.winner, g.result.points, g.rules.jacoby) == (0, 1, True)
    # 7-point match, 3-6, Crawford, player 0 to play 6-5
    g = Game.from_gnubg_id(f"{START_ID}:sAH3ADAAMAAE")
    assert (g.match_length, g.score, g.crawford, g.dice, g.turn) == (7, (3, 6), True, (6, 5), 0)
    assert not g.rules.jacoby
    # cube 8 owned by player 1, player 1 on roll with 4-2
    g = Game.from_gnubg_id(f"{START_ID}:UwkKAAAAAAAA")
    assert (g.cube, g.cube_owner, g.turn, g.dice) == (8, 1, 1, (4, 2))
    # no game yet
    assert Game.from_gnubg_id(f"{START_ID}:MAAAAAAAAAAA").phase is Phase.OPENING


def test_gnubg_id_order_and_prefix_are_forgiven():
    a = Game.from_gnubg_id(f"cAkAAAAAAAAA:{START_ID}")
    b = Game.from_gnubg_id(f"GNUbgID: {START_ID}:cAkAAAAAAAAA")
    assert a.gnubg_id() == b.gnubg_id() == f"{START_ID}:cAkAAAAAAAAA"


def test_game_written_after_play_and_double():
    game = Game(rng=1)
    game.roll((3, 1))
    game.move(8, 5)
    game.move(6, 5)
    game.commit()
    game.double()
    pos_id, match_id = game.gnubg_id().split(":")
    assert pos_id == game.position.position_id()
    key = decode_match_id(match_id)
    # player 1 (now on roll) doubled: move 1, turn 0 deciding, doubled, cube still 1 centred
    assert (key.move, key.turn, key.doubled, key.cube, key.cube_owner) == (1, 0, True, 1, -1)
    assert Game.from_gnubg_id(game.gnubg_id()).gnubg_id() == game.gnubg_id()


def test_finished_games_round_trip():
    g = Game.from_position(Position.initial(), cube=2, cube_owner=0)
    g.double()
    g.drop()
    back = Game.from_gnubg_id(g.gnubg_id())
    assert back.result == g.result and back.phase is Phase.OVER
    g = Game.from_position(Position.initial())
    g.resign("backgammon", player=1)
    g.accept()
    back = Game.from_gnubg_id(g.gnubg_id())
    assert back.result == g.result  # player 0 wins 3


def test_losses_are_reported_not_dropped():
    game = Game.from_position(Position.initial(), rules=Rules(beaver=True))
    with pytest.warns(FormatLossWarning, match="beaver"):
        game.gnubg_id()
    with pytest.raises(FormatLossError, match="beaver"):
        game.gnubg_id(strict=True)
    game = Game.from_position(Position.initial(), dice=(3, 1))
    game.move(8, 5)
    with pytest.warns(FormatLossWarning, match="steps made"):
        game.gnubg_id()


@pytest.mark.parametrize("bad", [
    "MAEAAAAAAAA",      # 11 characters
    "MAEAAAAAAAA!",     # not base64
    "IAEAAAAAAAAA",     # cube owner bits 10
    "MAcAAAAAAAAA",     # game state 7... (bits 8-10 = 111)
    "MAEMAAAAAAAA",     # die 1 zero, die 2 = 3 (bytes 30 01 0C)
    12,
])
def test_bad_match_ids_are_refused(bad):
    with pytest.raises(InvalidRecordError):
        decode_match_id(bad)


def _gid(position_id: str, **fields: object) -> str:
    return f"{position_id}:{encode_match_id(MatchKey(**fields))}"


_OVER_ID = "cAAAAAAAAAAAAA"  # the player on roll has borne off every checker
IMPOSSIBLE_MATCH_STATES = [
    _gid(START_ID, match_length=5, score=(5, 2)),                    # RULES 10.1: won
    _gid(START_ID, game_state=0, match_length=5, score=(2, 6)),
    _gid(START_ID, match_length=5, score=(2, 1), crawford=True),     # RULES 10.2
    _gid(START_ID, game_state=0, match_length=5, score=(4, 4), crawford=True),
    _gid(START_ID, cube=1, cube_owner=0),                            # owned at 1 (8.2)
    _gid(START_ID, cube=2, match_length=5, score=(4, 2), crawford=True, game_state=3,
         resigned=1),                                                # cube in Crawford
    _gid(_OVER_ID, cube=4, cube_owner=1, match_length=5, score=(4, 2), crawford=True,
         game_state=2),                                              # over, same
    _gid(_OVER_ID, cube=1, cube_owner=0, game_state=2),
]


@pytest.mark.parametrize("bad", [
    f"{START_ID}",                      # no Match ID
    f"{START_ID}:MAEAAAAAAAA!",
    "AAAAAAAAAAAAAA:MAEAAAAAAAAA",      # Position ID of an empty board
    f"{START_ID}:MAkAAAAAAAAA",         # turn 1 to act, move 0 on roll, nothing offered
    f"{START_ID}:sIEFAAAAAAAA",         # Crawford flag (bit 7: byte 0 = B0) in a money game
    f"{START_ID}:ERkAAAAAAAAA",         # player 0 doubles player 1's 2-cube: bytes 11 19 00
    *IMPOSSIBLE_MATCH_STATES,
])
def test_bad_gnubg_ids_are_refused(bad):
    with pytest.raises(InvalidRecordError):
        Game.from_gnubg_id(bad)


def test_opening_after_an_automatic_double_keeps_the_cube():
    game = Game(Rules(automatic_doubles=1), rng=1)
    game.roll((4, 4))  # a tie: the cube goes to 2 in the middle
    with pytest.warns(FormatLossWarning, match="automatic doubles"):
        gid = game.gnubg_id()
    # cube log 1 (bits 0-3 = 0001), centred (bits 4-5 = 11), no game yet: byte 0 = 0x31
    assert gid.split(":")[1].startswith("MQ")
    back = Game.from_gnubg_id(gid, rules=game.rules)
    assert (back.phase, back.cube, back.cube_owner) == (Phase.OPENING, 2, None)


def test_finished_by_bearing_off_round_trips():
    from test_game import GAMMON, bear_off_last
    game = Game.from_position(GAMMON, turn=1, cube=2, cube_owner=0)
    assert bear_off_last(game).points == 4  # player 1 wins a gammon on a 2-cube
    gid = game.gnubg_id()
    # game state 2 (over): bits 8-10 = 010 -> byte 1 bit 1
    assert decode_match_id(gid.split(":")[1]).game_state == 2
    back = Game.from_gnubg_id(gid)
    assert back.result == game.result and back.phase is Phase.OVER


# ----------------------------------------------------------------------
# What gnubg writes beyond the vectors


def test_no_game_with_dice_shown_is_the_first_play():
    # gnubg's analysis exports show a game's first play with game state 0 and the dice.
    # By hand: cube 1 centred (byte 0 = 0x30), state 0, dice 3-1 (bits 15-17 = 3,
    # 18-20 = 1), 5-point match (bits 21-35 = 5), Jacoby bit 66 set:
    # bytes 30 80 A5 00 00 00 00 00 04.
    key = MatchKey(game_state=0, dice=(3, 1), match_length=5, jacoby=False)
    assert encode_match_id(key) == "MIClAAAAAAAE"
    gid = f"{START_ID}:MIClAAAAAAAE"
    g = Game.from_gnubg_id(gid)
    assert (g.phase, g.turn, g.dice, g.match_length, g.position) == \
        (Phase.MOVE, 0, (3, 1), 5, Position.initial())
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert g.gnubg_id() == gid              # read, then written back: the same
    g.play("8/5 6/5")
    assert decode_match_id(g.gnubg_id().split(":")[1]).game_state == 1
    # player 1 with 6-5; a double or a resignation offered is no first play
    assert Game.from_gnubg_id(
        _gid(START_ID, game_state=0, dice=(6, 5), move=1, turn=1)).turn == 1
    for bad in (_gid(START_ID, game_state=0, dice=(4, 4)),
                _gid(START_ID, game_state=0, dice=(3, 1), resigned=1),
                _gid(START_ID, game_state=0, dice=(3, 1), move=1, turn=0)):
        with pytest.raises(InvalidRecordError):
            Game.from_gnubg_id(bad)


def test_the_jacoby_bit_is_kept_as_read_and_written_as_gnubg_does():
    # gnubg 1.1 ("new match 5", player 1 wins the opening with 2-1) writes cAmlAAAAAAAE:
    # bit 66 set in a match.  Games we create write the same.
    from backgammon.match import Match
    m = Match(5, rng=0)
    m.game.roll((1, 2))                         # player 0's die 1, player 1's die 2
    assert m.game.gnubg_id() == f"{START_ID}:cAmlAAAAAAAE"
    # the same state from a gnubg that leaves the bit clear (E -> A): kept as read,
    # also after the game goes on
    gid = f"{START_ID}:cAmlAAAAAAAA"
    g = Game.from_gnubg_id(gid)
    assert not g.rules.jacoby                   # no Jacoby rule in a match (RULES 9.4)
    assert g.gnubg_id() == gid
    g.play("13/11 6/5")
    assert decode_match_id(g.gnubg_id().split(":")[1]).jacoby   # still clear
    # a match before its first roll, bit clear: the same string back
    fresh = _gid(START_ID, game_state=0, match_length=5, jacoby=True)
    assert Game.from_gnubg_id(fresh).gnubg_id() == fresh
    fresh_set = _gid(START_ID, game_state=0, match_length=5, jacoby=False)
    assert Game.from_gnubg_id(fresh_set).gnubg_id() == fresh_set


def test_no_game_yet_with_another_position_is_refused():
    # not silently the opening: a Position ID that is not the start position
    moved = Game(rng=0)
    moved.roll((3, 1)); moved.play("8/5 6/5")
    other = moved.position.position_id()
    assert other != START_ID
    with pytest.raises(InvalidRecordError, match="not the opening position"):
        Game.from_gnubg_id(_gid(other, game_state=0))
    with pytest.raises(InvalidRecordError, match="not the opening position"):
        Game.from_gnubg_id(_gid(other, game_state=0, dice=(3, 1)))


def test_a_position_id_has_one_spelling():
    # 14 characters carry 84 bits; the key is 80: the last character's low 4 bits are
    # unused and must be 0.  START_ID ends in "A" (0); "B".."P" (1-15) decode to the
    # same bits under a lax reader and are refused.
    from backgammon.errors import InvalidPositionError
    digits = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/"
    assert Position.from_position_id(START_ID) == Position.initial()
    for c in digits[1:16]:
        with pytest.raises(InvalidPositionError, match="unused bits"):
            Position.from_position_id(START_ID[:-1] + c)
    with pytest.raises(InvalidRecordError):
        Game.from_gnubg_id(f"{START_ID[:-1]}B:cAkAAAAAAAAA")


def test_written_position_ids_end_in_a_character_with_the_low_bits_clear(position_id_cases):
    digits = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/"
    for case in position_id_cases:
        pid = case["position_id"]
        assert digits.index(pid[-1]) % 16 == 0
