"""The JSON record (docs/records.md): the exact dict of a known game, lossless round
trips of random matches and money games, and refusal of tampered records."""

from __future__ import annotations

import copy
import json
import warnings

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
    source = data.pop("dice_source")  # the seeded random.Random's state (tested below)
    assert source["kind"] == "random.Random" and source["pending"] == []
    assert data == {
        "format": "backgammon.record", "version": 1, "names": ["Ann", "Bob"],
        "match_length": 3, "crawford": True,
        "rules": {"cube": True, "max_cube": 64, "jacoby": False, "beaver": False,
                  "automatic_doubles": 0, "backgammon_value": 3, "opening": "opening_dice",
                  "over_the_board": False},
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


def _from_id_states():
    """Games read from GNUbgIDs in every game state: (label, rules, game)."""
    auto = Rules(automatic_doubles=1)
    out = []
    g = Game(auto, rng=1); g.roll((3, 3))                    # tie: cube 2, still the opening
    out.append(("auto-doubled opening", auto, g))
    g = Game(rng=1); g.resign("gammon", player=0)            # resigning before the opening roll
    out.append(("resignation at the opening", Rules(), g))
    g = Game(rng=1); g.roll((3, 1)); g.play("8/5 6/5"); g.double(); g.drop()
    out.append(("dropped", Rules(), g))
    g = Game(rng=1); g.roll((3, 1)); g.play("8/5 6/5"); g.resign("gammon"); g.accept()
    out.append(("resigned", Rules(), g))
    board = [0] * 26; board[1] = 1; board[20] = -3
    g = Game.from_position(Position(board), dice=(2, 1)); g.play("1/off")
    out.append(("borne off", Rules(), g))
    return out


@pytest.mark.parametrize("label,rules,original", _from_id_states(),
                         ids=[x[0] for x in _from_id_states()])
def test_games_read_from_gnubg_ids_in_any_state_keep_their_record(label, rules, original):
    # A game set up from a GNUbgID must restart as it was read, or its record is lost:
    # the JSON record could not be written, or read back with another cube or result.
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", FormatLossWarning)
        game = Game.from_gnubg_id(original.gnubg_id(), rules=rules)
        setup = (game.phase, game.cube, game.resignation, game.result)
        restarted = game.restart()
        if game.phase.value == "resigned":
            game.accept(); original.accept()                 # one action after the setup
        back = read_json(write_json([game])).games[0]
    assert (restarted.phase, restarted.cube, restarted.resignation, restarted.result) == setup
    assert (back.phase, back.cube, back.cube_owner, back.result) == \
        (game.phase, game.cube, game.cube_owner, game.result)
    assert back.result == original.result and back.cube == original.cube


def test_money_games_keep_their_own_rules_and_match_context():
    # RULES 8.4: the cube can be switched on or off for each game; a list of games may
    # also hold a game of a match (here the Crawford game, RULES 10.2).  The record of
    # such games must not give them the first game's rules or drop their match context.
    g1 = Game(Rules(jacoby=True), rng=1)
    g1.roll((3, 1)); g1.play("8/5 6/5")
    g2 = Game(Rules(cube=False), rng=2)
    g2.roll((6, 5)); g2.play("24/13")
    g3 = Game.from_position(Position.initial(), match_length=5, score=(4, 2), crawford=True)
    g4 = Match(3, rng=3).game
    g4.roll((4, 2)); g4.play("8/4 6/4")
    a, b, c, d = read_json(write_json([g1, g2, g3, g4])).games
    assert (a.rules, b.rules, c.rules, d.rules) == (g1.rules, g2.rules, g3.rules, g4.rules)
    assert not b.can_double() and not c.can_double()         # no cube; the Crawford game
    assert (c.match_length, c.score, c.crawford) == (5, (4, 2), True)
    assert (d.match_length, d.score, d.crawford) == (3, (0, 0), False)
    assert [x.gnubg_id() for x in (a, c, d)] == [x.gnubg_id() for x in (g1, g3, g4)]


def test_a_game_resigned_in_the_middle_of_a_turn_reads_back():
    # steps made but never committed (RULES 12.2) are no play: once the resignation is
    # accepted they are void, and the record must still read back
    m = Match(3, rng=1)
    g = m.game
    g.roll((3, 1)); g.move(8, 5)
    g.resign("gammon"); g.accept()
    assert g.steps == () and g.result.points == 2
    back = read_json(write_json(m)).match
    assert back.score == (0, 2) and back.game.position == g.position


def test_a_resignation_offered_mid_turn_reads_back_with_its_steps():
    # 3-1 from the opening: 8/5, then a resignation offered before committing
    # (RULES 12.2: the turn is not over).  The record keeps the step and the
    # pending offer; rejected, the turn goes on from the same step.
    g = Game(rng=1)
    g.roll((3, 1)); g.move(8, 5); g.resign("single")
    back = read_json(write_json([g])).games[0]
    assert back.phase is g.phase and back.steps == ((8, 5),) and back.actions == g.actions
    g.reject()
    back = read_json(write_json([g])).games[0]
    # the 1 still to play: 24/23, 8/7, 6/5 or 5/4 (13/12 is their closed point)
    assert back.steps == ((8, 5),)
    assert back.legal_moves() == g.legal_moves() == [(24, 23), (8, 7), (6, 5), (5, 4)]


def test_a_match_taken_up_at_a_score_or_set_up_round_trips():
    # One game of a match in a file (Gibbon) starts the match at that game's score: the
    # JSON record keeps it, with the Crawford game (4-2 of 5: Crawford) or not (a
    # post-Crawford start, crawford_game=False).
    from backgammon.formats._walk import set_up_match_game
    from backgammon.position import Position

    for crawford_game, expect in ((None, True), (False, False)):
        m = Match(5, rng=2, score=(4, 2), crawford_game=crawford_game)
        m.game.roll((3, 1))
        m.game.play("8/5 6/5")
        back = Match.from_json(m.to_json())
        assert (back.score, back.game.score, back.game.crawford) == ((4, 2), (4, 2), expect)
        assert back.game.actions == m.game.actions
    # a match game set up from a position (cube 2 owned by player 1, player 1 on roll
    # with 6-5 rolled) keeps its setup through the record
    m = Match(7, rng=2, score=(2, 1))
    set_up_match_game(m.game, Game.from_position(
        Position.initial(), turn=1, dice=(6, 5), cube=2, cube_owner=1, match_length=7,
        score=(2, 1)))
    m.game.play("24/13")
    back = Match.from_json(m.to_json())
    assert dict(back.game.start) == dict(m.game.start)
    assert (back.game.cube, back.game.cube_owner, back.game.turn) == (2, 1, 0)
    assert back.game.actions == m.game.actions and back.score == (2, 1)
