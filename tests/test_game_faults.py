"""The Python state of a game: one test (or a parametrized family) per class of fault.

Setup arguments stay in the error hierarchy; dice sources a server uses (SystemRandom,
numpy, callables) work and every die is checked; transactions never need getstate;
JSON records of one game with their dice; read-only state; steps are integers;
iterators are read once; game actions raise both their precise class and
IllegalActionError; chouette transactions keep the caller's game object and cost
O(current game); RULES 12.4 over-the-board recording; RULES 1.5 display orientation.
"""

from __future__ import annotations

import inspect
import itertools
import json
import random
import time

import numpy as np
import pytest
import backgammon as bg
from backgammon.display import svg
from backgammon.chouette import TEAM, Chouette, roll_off
from backgammon.cube import PipCountCubePolicy
from backgammon.errors import (
    AmbiguousPlayError,
    BackgammonError,
    FormatLossError,
    FormatLossWarning,
    IllegalActionError,
    IllegalPlayError,
    InvalidDiceError,
    InvalidPlayError,
    InvalidRecordError,
    InvalidRulesError,
    InvalidSetupError,
)
from backgammon.formats import record
from backgammon.game import DiceSource, Game, Phase
from backgammon.match import Match
from backgammon.position import Position
from backgammon.rules import Rules
from test_game import full_state

OTB = Rules(over_the_board=True)


def refused(game: Game, error: type, action: str, *args, **kwargs) -> BackgammonError:
    """``action`` raises ``error`` (and IllegalActionError) and changes nothing."""
    before = full_state(game)
    with pytest.raises(error) as info:
        getattr(game, action)(*args, **kwargs)
    assert isinstance(info.value, IllegalActionError)
    assert full_state(game) == before
    return info.value


def opening(game: Game) -> None:
    """Player 0 opens 3-1 with 8/5 6/5; player 1 is then on roll."""
    game.roll((3, 1))
    game.play("8/5 6/5")


# ---------------------------------------------------------------------------------------
# Setup arguments: our hierarchy (TypeError only for a wrong type), a clear message

SETUP_FAULTS = {
    "match_0": (lambda: Match(0), InvalidSetupError, "positive number of points"),
    "match_negative": (lambda: Match(-3), InvalidSetupError, "positive"),
    "match_float": (lambda: Match(3.0), TypeError, "integer"),
    "match_bool": (lambda: Match(True), TypeError, "integer"),
    "match_one_name": (lambda: Match(3, names=("a",)), InvalidSetupError, "two strings"),
    "match_three_names": (lambda: Match(3, names=("a", "b", "c")), InvalidSetupError, "two"),
    "match_name_text": (lambda: Match(3, names="ab"), TypeError, "two strings"),
    "match_name_numbers": (lambda: Match(3, names=(1, 2)), TypeError, "two strings"),
    "match_name_endless": (lambda: Match(3, names=itertools.repeat("a")), InvalidSetupError,
                           "two"),
    "match_name_huge": (lambda: Match(3, names=("a" * 10**6, "b")), InvalidSetupError,
                        "characters"),
    "match_rules_type": (lambda: Match(3, rules="strict"), TypeError, "Rules"),
    "match_jacoby": (lambda: Match(3, Rules(jacoby=True)), InvalidRulesError, "Jacoby"),
    "match_crawford_text": (lambda: Match(3, crawford="yes"), TypeError, "True or False"),
    "match_orientation": (lambda: Match(3, orientation="up"), InvalidSetupError, "right"),
    "match_rng": (lambda: Match(3, rng="seed"), TypeError, "rng"),
    "game_length_negative": (lambda: Game(match_length=-1), InvalidSetupError, "match_length"),
    "game_length_text": (lambda: Game(match_length="3"), TypeError, "match_length"),
    "game_score_negative": (lambda: Game(match_length=5, score=(-1, 0)), InvalidSetupError,
                            ">= 0"),
    "game_score_short": (lambda: Game(match_length=5, score=(1,)), TypeError, "two integers"),
    "game_score_float": (lambda: Game(match_length=5, score=(1.0, 0)), TypeError, "integers"),
    "game_score_won": (lambda: Game(match_length=5, score=(5, 0)), InvalidSetupError,
                       "already won"),
    "game_crawford_money": (lambda: Game(crawford=True), InvalidSetupError, "Crawford"),
    "game_crawford_text": (lambda: Game(match_length=5, crawford="no"), TypeError,
                           "True or False"),
    "game_rng_bool": (lambda: Game(rng=True), TypeError, "rng"),
    "game_rng_object": (lambda: Game(rng=object()), TypeError, "rng"),
    "chouette_two": (lambda: Chouette(["a", "b"]), InvalidSetupError, "3 or more"),
    "chouette_text": (lambda: Chouette("abc"), TypeError, "sequence of names"),
    "chouette_names": (lambda: Chouette([1, 2, 3]), TypeError, "strings"),
    "chouette_same": (lambda: Chouette(["a", "b", "a"]), InvalidSetupError, "distinct"),
    "chouette_endless": (lambda: Chouette(itertools.repeat("a")), InvalidSetupError,
                         "at most"),
    "chouette_beaver": (lambda: Chouette.seated("a", ["b", "c"], rules=Rules(beaver=True)),
                        InvalidSetupError, "beavers"),
    "chouette_seated_two": (lambda: Chouette.seated("a", ["b"]), InvalidSetupError,
                            "3 or more"),
    "points_kind": (lambda: Rules().points("bogus", cube=1, cube_turned=False),
                    InvalidRulesError, "'single', 'gammon' or 'backgammon'"),
    "points_kind_type": (lambda: Rules().points(["single"], cube=1, cube_turned=False),
                         InvalidRulesError, "kind"),
    "points_cube": (lambda: Rules().points("single", cube=3, cube_turned=False),
                    InvalidRulesError, "power of two"),
    "points_cube_type": (lambda: Rules().points("single", cube="2", cube_turned=False),
                         TypeError, "cube"),
    "points_turned_type": (lambda: Rules().points("single", cube=1, cube_turned="no"),
                           TypeError, "cube_turned"),
    "rules_otb_type": (lambda: Rules(over_the_board=1), InvalidRulesError, "over_the_board"),
    "position_cube_bool": (lambda: Game.from_position(Position.initial(), cube=True),
                           TypeError, "integers"),
    "position_owner_bool": (lambda: Game.from_position(Position.initial(), cube=2,
                                                       cube_owner=False), TypeError,
                            "integers"),
    "position_turn_bool": (lambda: Game.from_position(Position.initial(), turn=True),
                           IllegalActionError, "turn"),
    "position_dice": (lambda: Game.from_position(Position.initial(), dice=(0, 9)),
                      InvalidDiceError, "dice"),
    "policy_text": (lambda: PipCountCubePolicy(double_lead="8%"), TypeError, "number"),
    "policy_nan": (lambda: PipCountCubePolicy(take_lead=float("nan")), InvalidSetupError,
                   "finite"),
    "policy_not_game": (lambda: PipCountCubePolicy().should_take("game"), TypeError, "Game"),
    "policy_no_double": (lambda: PipCountCubePolicy().should_take(Game(rng=1)),
                         IllegalActionError, "no double"),
    "board_player": (lambda: Game(rng=1).board(2), IllegalActionError, "players"),
    "can_double_player": (lambda: Game(rng=1).can_double(True), IllegalActionError,
                          "players"),
    "orientation_index": (lambda: Match(3).orientation("1"), TypeError, "index"),
}


@pytest.mark.parametrize("name", sorted(SETUP_FAULTS))
def test_setup_faults_stay_in_the_hierarchy(name):
    make, error, words = SETUP_FAULTS[name]
    with pytest.raises(error, match=words) as info:
        make()
    if error is not TypeError:
        assert isinstance(info.value, BackgammonError)


# ---------------------------------------------------------------------------------------
# Dice sources


class NoState(random.Random):
    """A Random whose state cannot be read: transactions must never ask for it."""

    def getstate(self):
        raise AssertionError("getstate called")

    def setstate(self, state):
        raise AssertionError("setstate called")


def roll_many(rng, n=300):
    """Dice of ``n`` rolls of a money game (opening rolls included), by playing on."""
    game = Game(rng=rng)
    seen = []
    pick = random.Random(0)
    while len(seen) < 2 * n:
        if game.phase is Phase.OVER:
            game = Game(rng=game.dice_source)
        if game.phase in (Phase.OPENING, Phase.ROLL):
            game.roll()
            last = game.actions[-1].value
            seen.extend(last)
        if game.phase is Phase.MOVE:
            game.play(pick.choice(list(game.position.legal_plays(game.dice))))
    return seen


@pytest.mark.parametrize("make", [
    lambda: random.SystemRandom(),
    lambda: np.random.default_rng(5),
    lambda: np.random.RandomState(5),
    lambda: NoState(3),
    lambda: random.Random(4),
    lambda: (lambda r=random.Random(6): r.randint(1, 6)),
    lambda: (lambda g=np.random.default_rng(7): g.integers(1, 7)),   # numpy int64 dice
], ids=["SystemRandom", "Generator", "RandomState", "no_getstate", "Random", "callable",
        "callable_numpy"])
def test_dice_sources_roll_every_face(make):
    dice = roll_many(make())
    # 600 fair dice miss a face with probability about 6 * (5/6)**600: never
    assert set(dice) == {1, 2, 3, 4, 5, 6}
    assert all(type(d) is int for d in dice)


@pytest.mark.parametrize("bad", [7, 0, -1, 2.5, 3.0, True, "3", None, 10**20])
def test_a_bad_die_from_the_source_is_refused_and_changes_nothing(bad):
    values = iter([4, bad])
    game = Game(rng=lambda: next(values))
    before = {k: v for k, v in full_state(game).items() if k != "_dice"}
    with pytest.raises(InvalidDiceError, match="dice source") as info:
        game.roll()
    assert isinstance(info.value, IllegalActionError)
    assert {k: v for k, v in full_state(game).items() if k != "_dice"} == before
    assert game.actions == () and game.phase is Phase.OPENING


def test_dice_drawn_by_a_refused_roll_are_handed_back():
    # the 4 was drawn, then the source broke: the 4 comes back as the next die
    values = iter([4, 9, 2])
    game = Game(rng=lambda: next(values))
    with pytest.raises(InvalidDiceError):
        game.roll()
    game.roll()
    assert game.actions[-1].value == (4, 2)


def test_an_interrupted_roll_hands_its_dice_back():
    values = iter([5, KeyboardInterrupt, 3])

    def die():
        v = next(values)
        if v is KeyboardInterrupt:
            raise KeyboardInterrupt
        return v

    game = Game(rng=die)
    with pytest.raises(KeyboardInterrupt):
        game.roll()
    assert game.actions == ()
    game.roll()
    assert game.actions[-1].value == (5, 3)


def test_transactions_never_read_the_generator_state():
    game = Game(rng=NoState(1))
    while game.phase is Phase.OPENING:
        game.roll()
    refused(game, IllegalActionError, "double")         # refused: MOVE, not ROLL
    refused(game, IllegalPlayError, "move", 25, 1)
    game.play(list(game.position.legal_plays(game.dice))[0])
    game.roll()
    assert game.phase is Phase.MOVE


def test_match_and_chouette_take_any_source():
    m = Match(3, rng=random.SystemRandom())
    while m.game.phase is Phase.OPENING:
        m.game.roll()
    assert m.game.phase is Phase.MOVE
    ch = Chouette(["a", "b", "c"], rng=np.random.RandomState(2))
    ch.roll()
    assert sorted(ch.players) == ["a", "b", "c"]


def test_a_constant_source_makes_the_roll_off_fail_clearly():
    with pytest.raises(InvalidSetupError, match="constant"):
        Chouette(["a", "b", "c"], rng=lambda: 3)
    with pytest.raises(InvalidSetupError, match="constant"):
        roll_off(["a", "b"], lambda: 6)
    with pytest.raises(InvalidDiceError):
        Chouette(["a", "b", "c"], rng=lambda: 7)
    # ties are still rolled off among the tied players (RULES 11.1): all three throw 4,
    # then a 2, b 6, c 3
    rolls = iter([4, 4, 4, 2, 6, 3])
    assert roll_off(["a", "b", "c"], lambda: next(rolls)) == ["b", "c", "a"]


def test_copy_of_a_game_with_a_stateless_source():
    game = Game(rng=random.SystemRandom())
    twin = game.copy()
    twin.roll()
    assert game.phase is Phase.OPENING and twin.actions


# ---------------------------------------------------------------------------------------
# JSON of one game, with its dice


def test_game_json_round_trip_keeps_the_seeded_dice():
    game = Game(rng=11)
    opening(game)
    text = game.to_json()
    again = Game.from_json(text)
    assert again.actions == game.actions and again.position == game.position
    for _ in range(5):  # both roll on with the same dice
        game.roll(); again.roll()
        assert again.dice == game.dice
        step = list(game.position.legal_plays(game.dice))[0]
        game.play(step.moves); again.play(step.moves)


def test_game_json_reader_takes_rng():
    game = Game(rng=11)
    opening(game)
    again = Game.from_json(game.to_json(), rng=lambda: 6)
    again.roll()
    assert again.dice == (6, 6)
    assert Match.from_json(Match(3, rng=2).to_json(), rng=random.SystemRandom()).length == 3


def test_sources_without_state_are_not_saved():
    game = Game(rng=random.SystemRandom())
    opening(game)
    data = json.loads(game.to_json())
    assert "dice_source" not in data
    assert Game.from_json(game.to_json()).actions == game.actions


class Scripted(random.Random):
    """A seeded Random whose first dice are scripted (to make a roll fail mid-way)."""

    def __new__(cls, seed, script):  # Python 3.10's Random.__new__ takes one argument
        return super().__new__(cls, seed)

    def __init__(self, seed, script):
        super().__init__(seed)
        self.script = list(script)

    def randint(self, a, b):
        return self.script.pop(0) if self.script else super().randint(a, b)


def test_dice_handed_back_are_saved_too():
    game = Game(rng=8)
    game.dice_source._pending.append(6)  # noqa: SLF001 - as a refused roll leaves it
    data = json.loads(game.to_json())
    assert data["dice_source"]["pending"] == [6]
    again = Game.from_json(game.to_json())
    again.roll(); game.roll()
    assert again.actions == game.actions and again.actions[-1].value[0] == 6
    # and a real refusal: the 4 is drawn, the 9 refused, the 4 handed back
    source = DiceSource(Scripted(1, [4, 9]))
    with pytest.raises(InvalidDiceError):
        Game(rng=source).roll()
    assert source.die() == 4


@pytest.mark.parametrize("change", [
    lambda d: d.update(state=[3, [1] * 624, None]),
    lambda d: d.update(state=[3, [2**40] * 625, None]),
    lambda d: d.update(state=[99, [1] * 625, None]),
    lambda d: d.update(state=[3, [1] * 625, "x"]),
    lambda d: d.update(state="x"),
    lambda d: d.update(kind="numpy"),
    lambda d: d.update(pending=[7]),
    lambda d: d.update(pending=[1] * 100),
    lambda d: d.pop("state"),
])
def test_a_tampered_dice_source_is_an_invalid_record(change):
    data = json.loads(Game(rng=5).to_json())
    change(data["dice_source"])
    with pytest.raises(InvalidRecordError, match="dice_source"):
        record.read_json(json.dumps(data))


@pytest.mark.parametrize("text", [
    "[" * 100_000 + "]" * 100_000,
    '{"a":' * 50_000 + "1" + "}" * 50_000,
    "[" * 17 + "]" * 17,
    '{"format": "backgammon.record", "version": 1, "names": [' + "[" * 5000 + "]" * 5000,
])
def test_deep_nesting_is_refused_before_parsing(text):
    with pytest.raises(InvalidRecordError, match="nested"):
        record.read_json(text)


def test_strings_do_not_count_as_nesting_and_size_is_bounded(monkeypatch):
    # brackets inside strings are text; the name is refused by the record check, not nesting
    with pytest.raises(InvalidRecordError) as info:
        record.read_json(json.dumps({"format": "[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[["}))
    assert "nested" not in str(info.value)
    monkeypatch.setattr(record, "MAX_CHARS", 1000)
    with pytest.raises(InvalidRecordError, match="characters"):
        record.read_json(" " * 1001)


def test_hostile_record_text_reads_or_fails_fast():
    for text in ('"' + "\\\\" * 500_000, "[" * 1_000_000, '"' * 1_000_000, "[]" * 500_000):
        start = time.perf_counter()
        with pytest.raises(InvalidRecordError):
            record.read_json(text)
        # a guard against a hang, not a speed claim: linear checks take well under a
        # second here, a quadratic one would take hours on these inputs
        assert time.perf_counter() - start < 30


# ---------------------------------------------------------------------------------------
# Read-only state


def public_state(obj) -> list[str]:
    return [n for n in dir(type(obj)) if not n.startswith("_")
            and isinstance(getattr(type(obj), n), property)]


@pytest.mark.parametrize("make", [lambda: Game(rng=1), lambda: Match(3, rng=1),
                                  lambda: Chouette(["a", "b", "c"], rng=1)],
                         ids=["Game", "Match", "Chouette"])
def test_public_state_is_read_only(make):
    obj = make()
    names = public_state(obj)
    assert len(names) >= 5
    for name in names:
        if isinstance(obj, Match) and name == "names":
            continue  # the one settable field: checked below
        with pytest.raises(AttributeError):
            setattr(obj, name, "nonsense")


def test_views_cannot_change_the_state():
    ch = Chouette.seated("a", ["b", "c"], rng=1)
    with pytest.raises(TypeError):
        ch.ledger["a"] = 5
    assert isinstance(ch.team, tuple) and isinstance(ch.history, tuple)
    m = Match(3, rng=1)
    assert isinstance(m.games, tuple)
    with pytest.raises(InvalidSetupError):
        m.names = ("only one",)
    m.names = ("Ann", "Bob")
    assert m.names == ("Ann", "Bob")
    g = Game.from_position(Position.initial(), dice=(3, 1))
    with pytest.raises(TypeError):
        g.start["turn"] = 1


# ---------------------------------------------------------------------------------------
# Steps are integers; iterables are read once; both error classes


@pytest.mark.parametrize("src, dst", [(8.0, 5), (8, 5.0), (True, 0), ("8", 5), (None, 5),
                                      (8.5, 5)])
def test_move_steps_are_integers(src, dst):
    game = Game(rng=1)
    game.roll((3, 1))
    refused(game, IllegalPlayError, "move", src, dst)


@pytest.mark.parametrize("play", [[(8.0, 5), (6, 5)], [(8, 5), (6, True)], [[8, 5, 1]],
                                  [8, 5], itertools.repeat((8, 5)), 85, [(8, 5)] * 9])
def test_play_steps_are_integer_pairs(play):
    game = Game(rng=1)
    game.roll((3, 1))
    refused(game, IllegalPlayError, "play", play)


def test_numpy_integers_are_integers():
    game = Game(rng=1)
    game.roll((np.int64(3), np.int8(1)))
    game.move(np.int64(8), np.int32(5))
    game.move(6, 5)
    game.commit()
    assert game.actions[-1].value == ((8, 5), (6, 5))
    assert all(type(x) is int for s in game.actions[-1].value for x in s)


def test_play_reads_an_iterator_once():
    game = Game(rng=1)
    game.roll((3, 1))
    game.play(iter([(8, 5), (6, 5)]))
    assert game.actions[-1].value == ((8, 5), (6, 5))
    game.roll((6, 5))
    game.play(s for s in [(24, 18), (18, 13)])
    assert game.turn == 0


@pytest.mark.parametrize("action, args, precise", [
    ("roll", ((7, 1),), InvalidDiceError),
    ("roll", ((3,),), InvalidDiceError),
    ("roll", ("71",), InvalidDiceError),  # "31" is read as dice
    ("play", ("hello",), InvalidPlayError),
    ("play", ("24/18",), IllegalPlayError),        # well formed, not a play of 3-1
    ("play", ([(8, 4)],), IllegalPlayError),
    ("move", (13, 9), IllegalPlayError),
    ("commit", (), IllegalPlayError),
])
def test_actions_raise_the_precise_class_and_illegal_action(action, args, precise):
    game = Game(rng=1)
    if action != "roll":
        game.roll((3, 1))
    else:
        game.roll((3, 1)); game.play("8/5 6/5")
    err = refused(game, precise, action, *args)
    assert isinstance(err, IllegalActionError) and isinstance(err, precise)


def test_ambiguous_notation_is_both_classes():
    # one checker of ours on 6 (14 off), opponent blots on our 2 and 3; 4-3 "6/off" is
    # 6/2*/off or 6/3*/off, hitting different blots: two plays (RULES 13.2)
    pos = Position([0, 0, -1, -1, 0, 0, 1] + [0] * 13 + [-13, 0, 0, 0, 0, 0])
    game = Game.from_position(pos, dice=(4, 3))
    err = refused(game, AmbiguousPlayError, "play", "6/off")
    assert len(err.candidates) == 2 and "6/2*/off" in str(err)


def test_real_signatures_through_the_transaction_decorator():
    sig = inspect.signature(Game.move)
    assert list(sig.parameters) == ["self", "src", "dst", "player"]
    assert sig.parameters["player"].kind is inspect.Parameter.KEYWORD_ONLY
    assert Game.move.__wrapped__.__name__ == "move"
    assert list(inspect.signature(Game.roll).parameters) == ["self", "dice", "player"]
    assert "Move one checker" in Game.move.__doc__
    assert list(inspect.signature(Chouette.answer).parameters) == ["self", "name", "take"]


# ---------------------------------------------------------------------------------------
# Chouette: the caller's game stays live; answers are bools; O(current game)


def box_on_roll(ch: Chouette) -> None:
    ch.roll((3, 1)); ch.play("8/5 6/5")   # the box wins the opening
    ch.roll((6, 5)); ch.play("24/13")     # the team; the box is on roll again


def test_a_refused_chouette_action_keeps_the_game_object():
    ch = Chouette.seated("a", ["b", "c"], rng=1)
    game = ch.game
    with pytest.raises(IllegalActionError):
        ch.finish_game()
    with pytest.raises(IllegalActionError):
        ch.answer("b", True)
    assert ch.game is game
    ch.roll((3, 1))
    assert game.phase is Phase.MOVE  # the caller's reference is the live game


def test_the_box_answers_a_team_double_with_a_bool():
    ch = Chouette.seated("a", ["b", "c"], rng=1)
    ch.roll((1, 3)); ch.play("8/5 6/5")
    ch.roll((6, 5)); ch.play("24/13")
    assert ch.game.turn == TEAM
    ch.double(agree=["b", "c"])
    for answer in ("yes", 1, None):
        with pytest.raises(TypeError, match="True"):
            ch.answer("a", answer)
    assert ch.game.phase is Phase.DOUBLED
    ch.answer("a", True)
    assert ch.game.cube == 2


def test_chouette_transactions_do_not_copy_the_history():
    ch = Chouette.seated("a", ["b", "c", "d"], rng=1)
    for _ in range(60):
        ch.roll((3, 1)); ch.resign("single", side="team"); ch.accept(); ch.finish_game()
    games = [h.game for h in ch.history]
    box_on_roll(ch)
    with pytest.raises(IllegalActionError):
        ch.finish_game()
    ch.double()
    ch.answer("b", False)
    # the settled games are the same objects, never copied by a transaction
    assert [h.game for h in ch.history] == games and all(
        a is b for a, b in zip((h.game for h in ch.history), games))


# ---------------------------------------------------------------------------------------
# RULES 12.4: over-the-board recording


def test_rules_12_4_strict_by_default():
    game = Game(rng=1)
    game.roll((3, 1))
    refused(game, IllegalPlayError, "play", [(8, 4)])
    refused(game, IllegalActionError, "flag")


def test_rules_12_4_illegal_play_recorded_then_flagged_before_the_roll():
    game = Game(OTB, rng=1)
    game.roll((3, 1))
    game.play([(8, 4)])  # a 4 with 3-1: illegal, recorded as made
    assert game.flaggable and game.turn == 1 and game.phase is Phase.ROLL
    assert game.legal_actions() == ["double", "roll", "resign", "flag"]
    # the board shows it: player 0's 8 has 2 checkers, their 4 one (seen from player 1)
    seen = game.board(0).tolist()
    assert seen[8] == 2 and seen[4] == 1
    game.flag()  # player 1 points it out before rolling
    assert (game.phase, game.turn, game.dice) == (Phase.MOVE, 0, (3, 1))
    assert game.position == Position.initial() and not game.flaggable
    refused(game, IllegalPlayError, "play", [(8, 4)])  # now it must be made legally
    game.play("8/5 6/5")
    assert [a.kind for a in game.actions] == ["opening", "play", "flag", "play"]


def test_rules_12_4_after_the_next_roll_the_illegal_play_stands():
    game = Game(OTB, rng=1)
    game.roll((3, 1))
    game.play([(8, 4)])
    game.roll((6, 5))
    refused(game, IllegalActionError, "flag")
    assert game.board(0).tolist()[4] == 1  # player 0's checker stays on the 4-point
    game.play("24/13")
    game.roll((2, 1))
    game.play([(4, 2), (2, 1)])  # a legal play from the illegal position
    assert not game.flaggable


def test_rules_12_4_flag_takes_back_a_double_made_before_the_roll():
    game = Game(OTB, rng=1)
    game.roll((3, 1))
    game.play([(13, 7)])  # a 6 with 3-1
    game.double()
    assert "flag" in game.legal_actions()
    game.take()
    assert game.cube == 2
    game.flag(player=0)  # either player may flag (the mover too)
    assert game.cube == 1 and game.cube_owner is None and game.phase is Phase.MOVE


def test_rules_12_4_legal_plays_are_not_flaggable_and_the_end_is_checked():
    game = Game(OTB, rng=1)
    opening(game)
    assert not game.flaggable
    refused(game, IllegalActionError, "flag")
    # an unchecked play cannot end the game: bearing off the last checker is checked
    last = Position([0, -15] + [0] * 22 + [1, 0])  # one checker on the 24-point
    end = Game.from_position(last, dice=(1, 2), rules=OTB)
    refused(end, IllegalPlayError, "play", [(24, 0)])


@pytest.mark.parametrize("steps, why", [
    ([(7, 3)], "forward"),     # no checker on the 7
    ([(6, 8)], "forward"),     # backwards
    ([(13, 12)], "holds"),     # the opponent's 5 checkers on our 12
    ([(25, 22)], "forward"),   # nothing on the bar
    ([(8, 26)], "0 to 25"),   # no point 26
])
def test_rules_12_4_unchecked_plays_must_be_possible_on_the_board(steps, why):
    game = Game(OTB, rng=1)
    game.roll((3, 1))
    err = refused(game, IllegalPlayError, "play", steps)
    assert why in str(err)


def test_rules_12_4_json_keeps_unchecked_and_flagged_plays_and_says_so():
    game = Game(OTB, rng=4)
    game.roll((3, 1))
    game.play([(8, 4)])
    game.flag()
    game.play("8/5 6/5")
    game.roll((6, 5))
    game.play([(24, 14)])    # illegal (an 11 in one step), not flagged
    game.roll((2, 1))        # now it stands
    data = json.loads(game.to_json())
    acts = data["games"][0]["actions"]
    assert [a["action"] for a in acts] == ["opening", "play", "flag", "play", "roll", "play",
                                           "roll"]
    assert acts[1]["unchecked"] is True and acts[5]["unchecked"] is True
    assert "unchecked" not in acts[3]
    assert data["rules"]["over_the_board"] is True
    again = Game.from_json(game.to_json())
    assert again.actions == game.actions and again.position == game.position
    # the same record under strict rules is refused: its plays are illegal
    data["rules"]["over_the_board"] = False
    with pytest.raises(InvalidRecordError, match="illegal"):
        record.read_json(json.dumps(data))


def test_rules_12_4_a_pending_flag_survives_the_record():
    game = Game(OTB, rng=4)
    game.roll((3, 1))
    game.play([(8, 4)])
    again = Game.from_json(game.to_json())
    assert again.flaggable
    again.flag()
    assert again.phase is Phase.MOVE and again.dice == (3, 1)


def otb_match() -> Match:
    m = Match(3, OTB, rng=1)
    g = m.game
    g.roll((3, 1))
    g.play([(8, 4)])       # illegal (a 4 with 3-1)...
    g.double()
    g.flag()               # ...flagged before the roll: the play and the double go back
    g.play("8/5 6/5")
    g.roll((6, 5))
    g.play([(24, 14)])     # illegal (a 10 in one step), stands after the next roll
    g.roll((2, 1))
    g.play("6/4 5/4")
    return m


def test_rules_12_4_mat_keeps_the_standing_play_and_reports_the_rest():
    m = otb_match()
    with pytest.warns(FormatLossWarning) as caught:
        text = m.to_mat()
    message = str(caught[0].message)
    assert "unchecked" in message and "flagged" in message
    assert "31: 8/5 6/5" in text and "65: 24/14" in text and "Doubles" not in text
    with pytest.raises(FormatLossError):
        m.to_mat(strict=True)
    with pytest.raises(InvalidRecordError, match="24/14"):  # strict readers check plays
        Match.from_mat(text)
    again = Match.from_mat(text, rules=OTB)
    assert again.game.position == m.game.position
    kept = [a for a in m.game.actions if a.kind != "flag"]
    assert list(again.game.actions) == [kept[0]] + kept[3:]  # without 8/4 and the flag


def test_rules_12_4_notation_of_an_illegal_play_is_recorded_as_written():
    game = Game(OTB, rng=1)
    game.roll((3, 1))
    game.play("24/14 13/9(2)")
    assert game.actions[-1].value == ((24, 14), (13, 9), (13, 9)) and game.flaggable
    game.flag()
    refused(game, IllegalPlayError, "play", "24/14")  # after a flag: checked
    refused(game, InvalidPlayError, "play", "hello")


# ---------------------------------------------------------------------------------------
# RULES 1.5: the display swaps sides after every game


def finish(m: Match) -> None:
    m.game.roll((3, 1)); m.game.resign("single", player=1); m.game.accept()
    m.next_game()


def test_rules_1_5_orientation_swaps_after_every_game():
    m = Match(7, rng=1, swap_sides=True)
    seen = [m.orientation()]
    for _ in range(3):
        finish(m)
        seen.append(m.orientation())
    assert seen == ["right", "left", "right", "left"]
    assert [m.orientation(i) for i in range(4)] == seen
    fixed = Match(7, rng=1, orientation="left")
    finish(fixed)
    assert fixed.orientation() == "left" and fixed.orientation(0) == "left"
    with pytest.raises(IllegalActionError):
        m.orientation(-1)


def test_rules_1_5_orientation_draws_mirrored_boards():
    m = Match(7, rng=1, swap_sides=True)
    first = svg.board(m.game.position, orientation=m.orientation()).svg
    finish(m)
    second = svg.board(m.game.position, orientation=m.orientation()).svg
    assert first != second
    assert second == svg.board(m.game.position, orientation="left").svg


# ---------------------------------------------------------------------------------------
# The examples in the docstrings of these modules run


@pytest.mark.parametrize("module", [
    "backgammon.game", "backgammon.game_types", "backgammon.dice", "backgammon._game_state",
    "backgammon.match", "backgammon.chouette", "backgammon.rules",
    "backgammon.cube.decision", "backgammon.errors", "backgammon.formats.record",
])
def test_docstring_examples_of_the_state_modules(module):
    import doctest
    import importlib

    result = doctest.testmod(importlib.import_module(module), optionflags=doctest.ELLIPSIS)
    assert result.failed == 0 and result.attempted > 0


# ---------------------------------------------------------------------------
# Numbers past Python's int-digit limit, and match lengths past a Match ID's

_HUGE = 10 ** 5000

_HUGE_CALLS = {
    "Game match_length": lambda: bg.Game(match_length=_HUGE),
    "Game score": lambda: bg.Game(match_length=5, score=(_HUGE, 0)),
    "Match length": lambda: bg.Match(_HUGE),
    "Rules max_cube": lambda: bg.Rules(max_cube=_HUGE),
    "Rules points cube": lambda: bg.Rules().points("single", cube=_HUGE, cube_turned=False),
    "Game move": lambda: _rolled().move(_HUGE, 5),
    "from_position turn": lambda: bg.Game.from_position(bg.Position.initial(), turn=_HUGE),
    "from_position cube": lambda: bg.Game.from_position(bg.Position.initial(), cube=_HUGE),
    "met equity": lambda: bg.met.equity(_HUGE, 3),
    "match equity": lambda: bg.cubeful.match_equity((0.5, 0, 0, 0, 0), 3, _HUGE),
    "cube decision": lambda: bg.CubeDecision.from_chances((0.5, 0, 0, 0, 0), cube=_HUGE),
}


def _rolled():
    game = bg.Game(rng=1)
    game.roll((3, 1))
    return game


@pytest.mark.parametrize("name", sorted(_HUGE_CALLS))
def test_huge_numbers_raise_our_errors_not_the_digit_limit(name):
    # repr() of such an int raises ValueError: messages must not quote it raw.
    with pytest.raises(bg.BackgammonError) as info:
        _HUGE_CALLS[name]()
    assert len(str(info.value)) < 400


def test_match_lengths_stop_where_a_match_id_does():
    assert bg.Match(32767).length == 32767
    with pytest.raises(bg.InvalidSetupError, match="32767"):
        bg.Match(32768)
    with pytest.raises(bg.InvalidSetupError, match="32767"):
        bg.Game(match_length=32768)
