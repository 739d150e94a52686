"""The JSON record (docs/records.md): the exact dict of a known game, lossless round
trips of random matches and money games, and refusal of tampered records."""

from __future__ import annotations

import copy
import json

import pytest
from backgammon.errors import FormatLossWarning, InvalidRecordError
from backgammon.formats.record import (
    read_json,
    record_from_dict,
    record_to_dict,
    write_json,
)
from backgammon.game import Game
from backgammon.match import Match
from backgammon.position import Position
from backgammon.rules import Rules
from test_formats_mat import random_match


def small_match() -> Match:
    m = Match(3, names=("Ann", "Bob"), rng=0)
    g = m.game
    g.roll((2, 2))          # a tie: rolled again
    g.roll((3, 1)); g.play("8/5 6/5")
    g.roll((6, 4))
    g.play("24/14")
    g.double(); g.take()
    g.resign("gammon", player=1); g.accept()
    return m


def test_the_exact_record_of_a_known_game():
    data = record_to_dict(small_match())
    assert data == {
        "format": "backgammon.record", "version": 1, "names": ["Ann", "Bob"],
        "match_length": 3, "crawford": True,
        "rules": {"cube": True, "max_cube": 64, "jacoby": False, "beaver": False,
                  "automatic_doubles": 0, "backgammon_value": 3, "opening": "opening_dice"},
        "games": [{
            "score": [0, 0], "crawford": False, "start": None, "steps": [],
            "actions": [
                {"player": None, "action": "opening", "dice": [2, 2]},
                {"player": None, "action": "opening", "dice": [3, 1]},
                {"player": 0, "action": "play", "moves": [[8, 5], [6, 5]], "notation": "8/5 6/5"},
                {"player": 1, "action": "roll", "dice": [6, 4]},
                {"player": 1, "action": "play", "moves": [[24, 18], [18, 14]],
                 "notation": "24/14"},
                {"player": 0, "action": "double"},
                {"player": 1, "action": "take"},
                {"player": 1, "action": "resign", "kind": "gammon"},
                {"player": 0, "action": "accept"},
            ],
            # player 1 owns a 2-cube and resigns a gammon: 2 x 2 = 4 to player 0
            "result": {"winner": 0, "points": 4, "kind": "gammon", "reason": "resign", "cube": 2},
        }],
        "score": [4, 0], "winner": 0,
    }


@pytest.mark.parametrize("seed", range(4))
def test_round_trip_of_random_matches(seed):
    m = random_match(seed, length=5)
    back = read_json(write_json(m)).match
    assert record_to_dict(back) == record_to_dict(m)
    assert [g.actions for g in back.games] == [g.actions for g in m.games]


def test_unfinished_turn_and_money_games_from_positions():
    g1 = Game(Rules(jacoby=True, automatic_doubles=1), rng=2)
    g1.roll((5, 5)); g1.roll((4, 2)); g1.move(8, 4)   # one step made, not committed
    g2 = Game.from_gnubg_id("4HPwATDgc/ABMA:cAkAAAAAAAAA", rules=g1.rules)
    g3 = Game.from_position(Position.initial(), turn=1, dice=(6, 5), rules=g1.rules)
    rec = read_json(write_json([g1, g2, g3], names=("A", "B")))
    assert rec.match is None and rec.names == ("A", "B")
    a, b, c = rec.games
    assert (a.steps, a.cube, a.dice) == (((8, 4),), 2, (4, 2))
    with pytest.warns(FormatLossWarning, match="automatic doubles"):
        assert b.gnubg_id() == g2.gnubg_id()
    assert (c.turn, c.dice) == (1, (6, 5))


def tamper(path, value):
    data = record_to_dict(small_match())
    target = data
    for key in path[:-1]:
        target = target[key]
    target[path[-1]] = value
    return data


@pytest.mark.parametrize("data", [
    tamper(("games", 0, "result", "points"), 2),
    tamper(("games", 0, "actions", 2, "moves"), [[8, 4], [6, 5]]),
    tamper(("games", 0, "actions", 6, "action"), "drop"),   # then resign after the end
    tamper(("games", 0, "actions", 5, "player"), 1),        # player 1 doubles on 0's turn
    tamper(("games", 0, "score"), [1, 0]),
    tamper(("score",), [2, 0]),
    tamper(("format",), "other"),
    tamper(("version",), 2),
    tamper(("rules", "jacoby"), True),                      # RULES 9.4 in a match
    tamper(("games", 0, "actions", 2, "moves"), "8/5 6/5"),
    tamper(("games",), []),
    {"format": "backgammon.record"},
    [],
])
def test_tampered_records_are_refused(data):
    with pytest.raises(InvalidRecordError):
        record_from_dict(copy.deepcopy(data))


def test_not_json():
    with pytest.raises(InvalidRecordError):
        read_json("{not json")
    assert json.loads(write_json(small_match()))["winner"] == 0
