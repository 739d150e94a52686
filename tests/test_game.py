"""Scenario tests of backgammon.Game for RULES 2, 7, 8, 9 and 12.

Every expected score is worked out by hand in a comment next to it; the engine is
never used to compute an expectation.  Boards are 26 ints seen from the player on
roll (README): positive = on roll, negative = opponent, a[25] own bar, a[0]
opponent's bar; missing checkers are borne off.
"""

from __future__ import annotations

import copy
import random

import backgammon as bg
import pytest
from backgammon.errors import IllegalActionError, InvalidRulesError
from backgammon.game import Action, DiceSource, Game, GameResult, Phase
from backgammon.position import Position
from backgammon.rules import ROLL_AGAIN, Rules


def board(own=None, opp=None, bar=0, opp_bar=0):
    a = [0] * 26
    for p, n in (own or {}).items():
        a[p] = abs(n)
    for p, n in (opp or {}).items():
        a[p] = -abs(n)
    a[25] = bar
    a[0] = -abs(opp_bar)
    return Position(a)


def dice_future(source: DiceSource, n: int = 8) -> tuple:
    """What a dice source will hand out next (drawn from a copy): a refused action
    may have drawn dice, but it hands them back, so the future is what must not change."""
    if type(source.source) is not random.Random:
        # drawing from a copy would consume the original (a closure, a script)
        return ("dice", id(source.source), tuple(source._pending))
    return ("dice", id(source.source), tuple(copy.deepcopy(source).die() for _ in range(n)))


def full_state(game: Game) -> dict:
    """Everything the game holds, with its dice source reduced to the dice to come."""
    state = {}
    for key, value in game.__dict__.items():
        if isinstance(value, DiceSource):
            state[key] = dice_future(value)
        else:
            state[key] = copy.deepcopy(value)
    return state


def assert_refused(game: Game, action: str, *args, **kwargs) -> IllegalActionError:
    """The action raises IllegalActionError and the game is exactly as it was."""
    before = full_state(game)
    with pytest.raises(IllegalActionError) as info:
        getattr(game, action)(*args, **kwargs)
    assert full_state(game) == before
    return info.value


# One checker left on our 1-point: any roll bears it off and ends the game.
LAST_CHECKER = {1: 1}
# Opponent with 14 checkers on our 20 (their 5-point): one borne off -> single game.
SINGLE = board(LAST_CHECKER, {20: 14})
# Opponent with all 15 on our 20 (their home), none off, none in our home -> gammon.
GAMMON = board(LAST_CHECKER, {20: 15})
# Opponent with 14 on our 20 and one on our 3 (our home board), none off -> backgammon.
BACKGAMMON = board(LAST_CHECKER, {20: 14, 3: 1})
# Opponent with 14 on our 20 and one on the bar, none off -> backgammon.
BACKGAMMON_BAR = board(LAST_CHECKER, {20: 14}, opp_bar=1)


def bear_off_last(game: Game) -> GameResult:
    game.roll((2, 1))
    # RULES 6.4: the 2 bears off the checker on the 1-point (higher than any point held);
    # either die does it, and the turn is then over (no checker left).
    game.move(1, 0)
    game.commit()
    assert game.phase is Phase.OVER
    return game.result


# ---------------------------------------------------------------------------------------
# RULES 2: the opening


def test_rules_2_1_higher_die_moves_first_playing_both_dice():
    game = Game(rng=0)
    game.roll((3, 1))  # player 0 threw 3, player 1 threw 1: player 0 plays 3-1
    assert (game.phase, game.turn, game.dice) == (Phase.MOVE, 0, (3, 1))
    game = Game(rng=0)
    game.roll((2, 5))  # player 1's 5 beats player 0's 2: player 1 plays 5-2
    assert (game.phase, game.turn, game.dice) == (Phase.MOVE, 1, (5, 2))
    assert game.position == Position.initial()  # the start is the same from either side


def test_rules_2_1_equal_opening_dice_are_rolled_again():
    game = Game(rng=0)
    game.roll((4, 4))
    assert (game.phase, game.cube, game.dice) == (Phase.OPENING, 1, None)
    game.roll((6, 1))
    assert (game.phase, game.turn, game.dice) == (Phase.MOVE, 0, (6, 1))
    assert game.actions[:2] == (Action(None, "opening", (4, 4)), Action(None, "opening", (6, 1)))


def test_rules_2_2_roll_again_variant():
    game = Game(Rules(opening=ROLL_AGAIN), rng=0)
    game.roll((5, 2))  # player 0 wins the opening and now rolls both of their own dice
    assert (game.phase, game.turn, game.dice) == (Phase.ROLL, 0, None)
    game.roll((6, 6))
    assert (game.phase, game.dice) == (Phase.MOVE, (6, 6))
    assert game.legal_moves()[0] == (24, 18)  # 6-6 from the start, highest step first


def test_rules_2_3_players_alternate():
    game = Game(rng=0)
    game.roll((3, 1))
    game.move(8, 5)
    game.move(6, 5)
    game.commit()
    assert (game.phase, game.turn, game.dice) == (Phase.ROLL, 1, None)
    # player 0's board after 8/5 6/5: 8 has 2, 6 has 4, 5 has 2
    after = [0, -2, 0, 0, 0, 2, 4, 0, 2, 0, 0, 0, -5, 5, 0, 0, 0, -3, 0, -5, 0, 0, 0, 0, 2, 0]
    assert game.board(0) == Position(after)
    assert game.position == Position(after).swapped()  # seen by player 1, now on roll
    game.roll((4, 2))
    assert (game.phase, game.turn, game.dice) == (Phase.MOVE, 1, (4, 2))


def test_seeded_dice_repeat_and_caller_dice_are_recorded():
    a, b = Game(rng=42), Game(rng=random.Random(42))
    a.roll()
    b.roll()
    assert a.actions == b.actions
    assert a.actions[0].kind == "opening"


# ---------------------------------------------------------------------------------------
# RULES 7: end of game and scoring


@pytest.mark.parametrize("turn", [0, 1])
def test_rules_7_1_7_2_single_game_scores_the_cube(turn):
    game = Game.from_position(SINGLE, turn=turn)
    # the loser has borne off one checker: a single game, 1 x cube 1 = 1 to the mover
    assert bear_off_last(game) == GameResult(turn, 1, "single", "bearoff", 1)


def test_rules_7_3_gammon_scores_twice_the_cube():
    game = Game.from_position(GAMMON, cube=2, cube_owner=0)
    assert bear_off_last(game) == GameResult(0, 4, "gammon", "bearoff", 2)  # 2 x 2


@pytest.mark.parametrize("pos", [BACKGAMMON, BACKGAMMON_BAR], ids=["home", "bar"])
def test_rules_7_4_backgammon_scores_three_times_the_cube(pos):
    game = Game.from_position(pos, cube=2, cube_owner=1)
    assert bear_off_last(game) == GameResult(0, 6, "backgammon", "bearoff", 2)  # 3 x 2


def test_rules_7_4_variant_backgammon_counts_double():
    game = Game.from_position(BACKGAMMON, cube=2, cube_owner=1, rules=Rules(backgammon_value=2))
    assert bear_off_last(game).points == 4  # 2 x 2


# ---------------------------------------------------------------------------------------
# RULES 8: the doubling cube

# On the bar against a closed board (our 19-24 held by two opposing checkers each).
BLOCKED = board({6: 14}, {19: 2, 20: 2, 21: 2, 22: 2, 23: 2, 24: 2, 12: 3}, bar=1)


def test_rules_8_1_double_only_before_rolling():
    game = Game.from_position(Position.initial(), dice=(3, 1))
    assert_refused(game, "double")  # dice are out: too late to double
    game = Game.from_position(Position.initial())
    assert game.can_double()
    game.double()
    assert game.phase is Phase.DOUBLED and game.player_to_act == 1


def test_rules_8_1_blocked_player_may_double_and_then_loses_the_turn():
    game = Game.from_position(BLOCKED)
    game.double()
    game.take()
    game.roll((6, 5))
    assert game.legal_moves() == []  # RULES 5.4: cannot enter
    game.commit()  # RULES 4.4: the turn is lost
    assert (game.turn, game.position) == (1, BLOCKED.swapped())
    assert (game.cube, game.cube_owner) == (2, 1)


def test_rules_8_2_take_doubles_stake_and_gives_the_cube_to_the_taker():
    game = Game.from_position(Position.initial(), turn=1)
    game.double(player=1)
    game.take(player=0)
    assert (game.cube, game.cube_owner, game.phase, game.turn) == (2, 0, Phase.ROLL, 1)


def test_rules_8_2_drop_with_centred_cube_scores_one():
    game = Game.from_position(Position.initial())
    game.double()
    game.drop()
    assert game.result == GameResult(0, 1, "single", "drop", 1)


def test_rules_8_2_drop_of_a_redouble_to_4_scores_2():
    game = Game.from_position(Position.initial(), cube=2, cube_owner=0)
    game.double()  # 2 -> 4 offered by player 0, who owns the cube
    game.drop()
    assert game.result == GameResult(0, 2, "single", "drop", 2)  # the stake before the double


def test_rules_8_3_only_the_owner_may_redouble():
    game = Game.from_position(Position.initial(), cube=2, cube_owner=1)
    assert not game.can_double()
    err = assert_refused(game, "double")
    assert "owns the cube" in str(err)
    game = Game.from_position(Position.initial(), cube=2, cube_owner=0)
    game.double()
    game.take()
    assert (game.cube, game.cube_owner) == (4, 1)


def test_rules_8_4_no_cube_and_no_cube_above_64():
    assert "not used" in str(assert_refused(Game.from_position(Position.initial(),
                                                               rules=Rules(cube=False)), "double"))
    assert "64" in str(assert_refused(Game.from_position(Position.initial(), cube=64,
                                                         cube_owner=0), "double"))
    game = Game.from_position(Position.initial(), cube=8, cube_owner=0, rules=Rules(max_cube=8))
    assert_refused(game, "double")
    game = Game.from_position(Position.initial(), cube=32, cube_owner=0)
    game.double()
    game.take()
    assert game.cube == 64


def test_rules_8_5_winner_scores_cube_times_kind():
    game = Game.from_position(GAMMON, cube=4, cube_owner=0)
    assert bear_off_last(game).points == 8  # 4 x 2
    game = Game.from_position(BACKGAMMON_BAR, cube=8, cube_owner=1)
    assert bear_off_last(game).points == 24  # 8 x 3


# ---------------------------------------------------------------------------------------
# RULES 9: money conventions


def test_rules_9_1_jacoby_gammon_counts_single_with_centred_cube():
    game = Game.from_position(GAMMON, rules=Rules(jacoby=True))
    assert bear_off_last(game) == GameResult(0, 1, "gammon", "bearoff", 1)  # 1 x 1
    game = Game.from_position(BACKGAMMON, rules=Rules(jacoby=True))
    assert bear_off_last(game).points == 1


def test_rules_9_1_jacoby_gammon_with_cube_turned_to_4_scores_8():
    game = Game.from_position(GAMMON, cube=4, cube_owner=0, rules=Rules(jacoby=True))
    assert bear_off_last(game).points == 8  # 4 x 2: the cube was turned


def test_rules_9_1_jacoby_counts_a_double_taken_in_the_game():
    game = Game.from_position(GAMMON, rules=Rules(jacoby=True))
    game.double()
    game.take()  # now player 1 owns a 2-cube; player 0 still on roll
    assert bear_off_last(game).points == 4  # 2 x 2


def test_rules_9_2_beaver_makes_stake_4_with_cube_kept_by_the_beaver():
    game = Game.from_position(Position.initial(), rules=Rules(beaver=True))
    game.double()
    game.beaver()
    assert (game.cube, game.cube_owner, game.phase, game.turn) == (4, 1, Phase.ROLL, 0)
    assert game.cube_turned


def test_rules_9_2_beaver_then_gammon():
    game = Game.from_position(GAMMON, rules=Rules(beaver=True, jacoby=True))
    game.double()
    game.beaver()
    assert bear_off_last(game).points == 8  # cube 4 x gammon 2, Jacoby satisfied


def test_rules_9_2_beaver_refused_when_off_or_above_64():
    game = Game.from_position(Position.initial())
    game.double()
    assert "not allowed" in str(assert_refused(game, "beaver"))
    game = Game.from_position(Position.initial(), cube=32, cube_owner=0, rules=Rules(beaver=True))
    game.double()
    assert "128" in str(assert_refused(game, "beaver"))  # 32 x 4 = 128 > 64


def test_rules_9_3_two_ties_with_a_limit_of_one_give_a_cube_of_2():
    game = Game(Rules(automatic_doubles=1), rng=0)
    game.roll((3, 3))  # first tie: cube 1 -> 2
    game.roll((5, 5))  # second tie: the limit of one is used up
    game.roll((6, 1))
    assert (game.cube, game.cube_owner, game.automatic_doubles_used) == (2, None, 1)
    assert game.phase is Phase.MOVE


def test_rules_9_3_automatic_doubles_limit_two_and_max_cube():
    game = Game(Rules(automatic_doubles=2), rng=0)
    for tie in ((1, 1), (2, 2), (3, 3)):
        game.roll(tie)
    assert game.cube == 4  # two doubles: 1 -> 2 -> 4, the third tie only rerolls
    game = Game(Rules(automatic_doubles=3, max_cube=2), rng=0)
    for tie in ((1, 1), (2, 2)):
        game.roll(tie)
    assert game.cube == 2  # the cube never passes max_cube (RULES 8.4)


def test_rules_9_3_jacoby_automatic_double_is_not_a_turned_cube():
    game = Game(Rules(automatic_doubles=1, jacoby=True), rng=0)
    game.roll((2, 2))
    assert game.cube == 2 and not game.cube_turned


def test_rules_9_4_match_play_forbids_jacoby_and_automatic_doubles():
    with pytest.raises(InvalidRulesError):
        Game(Rules(jacoby=True), match_length=5)
    with pytest.raises(InvalidRulesError):
        Game(Rules(automatic_doubles=1), match_length=5)
    assert isinstance(InvalidRulesError("x"), ValueError)


def test_match_play_scores_gammons_in_full():
    # a match game (no Jacoby allowed): a gammon with the cube on 2 is worth 4
    game = Game.from_position(GAMMON, cube=2, cube_owner=0, match_length=7, score=(1, 2))
    assert bear_off_last(game).points == 4


# ---------------------------------------------------------------------------------------
# Resignations


def test_resign_gammon_accepted_scores_the_resigned_kind():
    game = Game.from_position(Position.initial(), cube=2, cube_owner=1)
    game.resign("gammon")  # player 0 resigns a gammon with the cube on 2
    assert game.phase is Phase.RESIGNED and game.player_to_act == 1
    game.accept()
    assert game.result == GameResult(1, 4, "gammon", "resign", 2)  # 2 x 2


def test_resign_rejected_returns_to_the_same_place():
    game = Game.from_position(Position.initial(), dice=(3, 1))
    game.move(8, 5)
    game.resign(3)
    game.reject()
    assert (game.phase, game.steps, game.resignation) == (Phase.MOVE, ((8, 5),), None)
    game.move(6, 5)
    game.commit()


def test_resign_backgammon_variant_and_jacoby():
    game = Game.from_position(Position.initial(), rules=Rules(backgammon_value=2))
    game.resign("backgammon")
    game.accept()
    assert game.result.points == 2  # a backgammon worth 2 x cube 1
    game = Game.from_position(Position.initial(), rules=Rules(jacoby=True))
    game.resign("gammon")
    game.accept()
    assert game.result.points == 1  # Jacoby, cube never turned


def test_resign_before_the_opening_roll_needs_the_player():
    game = Game(rng=0)
    assert "say who" in str(assert_refused(game, "resign", "single"))
    game.resign("single", player=1)
    game.reject()
    assert game.phase is Phase.OPENING
    game.resign("backgammon", player=0)
    game.accept()
    assert game.result == GameResult(1, 3, "backgammon", "resign", 1)


def test_resign_while_doubled_by_the_doubled_player():
    game = Game.from_position(Position.initial())
    game.double()
    game.resign("single", player=1)
    game.accept(player=0)
    assert game.result == GameResult(0, 1, "single", "resign", 1)


# ---------------------------------------------------------------------------------------
# RULES 12.2: undo until committed


def test_rules_12_2_undo_until_commit():
    game = Game.from_position(Position.initial(), dice=(3, 1))
    before = full_state(game)
    game.move(8, 5)
    game.undo()
    assert full_state(game) == before
    game.move(24, 21)
    game.move(21, 20)
    game.commit()
    assert_refused(game, "undo")  # the turn is committed: it stands


def test_commit_refused_until_the_play_is_complete():
    game = Game.from_position(Position.initial(), dice=(3, 1))
    game.move(8, 5)
    assert "not complete" in str(assert_refused(game, "commit"))


def test_play_whole_play_and_steps():
    game = Game.from_position(Position.initial(), dice=(3, 1))
    play = next(p for p in game.position.legal_plays((3, 1)) if str(p) == "8/5 6/5")
    game.play(play)
    assert game.turn == 1 and game.actions[-1] == Action(0, "play", ((8, 5), (6, 5)))
    game.roll((6, 5))
    game.play([(24, 18), (18, 13)])
    assert game.turn == 0


# ---------------------------------------------------------------------------------------
# Illegal actions change nothing


def _states():
    """(name, game) pairs covering every phase."""
    out = [("opening", Game(rng=3))]
    g = Game.from_position(Position.initial(), rng=3)
    out.append(("roll", g))
    g = Game.from_position(Position.initial(), dice=(3, 1), rng=3)
    out.append(("move", g))
    g = Game.from_position(Position.initial(), dice=(3, 1), rng=3)
    g.move(8, 5)
    out.append(("move-partial", g))
    g = Game.from_position(Position.initial(), rng=3)
    g.double()
    out.append(("doubled", g))
    g = Game.from_position(Position.initial(), rng=3)
    g.resign("gammon")
    out.append(("resigned", g))
    g = Game.from_position(Position.initial(), rng=3)
    g.double()
    g.drop()
    out.append(("over", g))
    g = Game.from_position(BLOCKED, rng=3)
    g.roll((6, 6))
    out.append(("blocked", g))
    g = Game.from_position(Position.initial(), rng=3, match_length=5, score=(4, 2), crawford=True)
    out.append(("crawford", g))
    return out


ALL_ACTIONS = ["roll", "move", "undo", "commit", "play", "double", "take", "drop",
               "beaver", "resign", "accept", "reject"]

_CALLS = {
    "move": ((13, 1),),           # never a legal step: 12 pips
    "play": ([(13, 1)],),
    "resign": ("gammon",),
}


def _refused_cases():
    """(state, action) pairs where the action is not allowed; move and play
    are always tried, with a step and a play that are never legal."""
    return [pytest.param(name, game, action, id=f"{name}-{action}")
            for name, game in _states() for action in ALL_ACTIONS
            if action in ("move", "play") or action not in game.legal_actions()]


@pytest.mark.parametrize("name,game,action", _refused_cases())
def test_every_refused_action_leaves_the_game_as_it_was(name, game, action):
    args = _CALLS.get(action, ())
    if action == "move":
        args = (13, 1)
    assert_refused(game, action, *args)


@pytest.mark.parametrize("name,game", [
    pytest.param(name, game, id=name) for name, game in _states()
    if game.player_to_act is not None])
def test_wrong_player_is_refused(name, game):
    who = game.player_to_act
    for action in game.legal_actions():
        if action == "resign":
            continue  # either player may resign
        args: tuple = ()
        if action == "move":
            args = game.legal_moves()[0]
        elif action == "play":
            args = (game.position.legal_plays(game.dice)[0].moves,)
        assert_refused(game, action, *args, player=1 - who)


@pytest.mark.parametrize("bad", [(0, 3), (7, 1), "71", (1, 2, 3), (True, 2), (2.0, 1)])
def test_bad_dice_are_refused(bad):
    assert_refused(Game(rng=1), "roll", bad)
    assert_refused(Game.from_position(Position.initial(), rng=1), "roll", bad)


def test_bad_resign_kind_and_bad_play_text_are_refused():
    game = Game.from_position(Position.initial(), dice=(3, 1))
    assert_refused(game, "resign", "everything")
    assert_refused(game, "play", [(8, 5)])  # one step of a two-step play
    assert_refused(game, "play", "not a play at all")


def test_illegal_action_error_is_a_value_error():
    assert issubclass(IllegalActionError, bg.BackgammonError)
    assert issubclass(IllegalActionError, ValueError)


def test_replay_rebuilds_the_game():
    game = Game(rng=11)
    for _ in range(40):
        if game.over:
            break
        acts = game.legal_actions()
        if "roll" in acts:
            game.roll()
        elif "move" in acts:
            game.move(*game.legal_moves()[0])
        else:
            game.commit()
    copy_ = Game(rng=0)
    copy_.replay(game.actions)
    assert (copy_.position, copy_.turn, copy_.phase, copy_.dice) == \
        (game.position, game.turn, game.phase, game.dice)


# ---------------------------------------------------------------------------------------
# RULES 12: over-the-board etiquette as software enforces it


def test_rules_12_1_a_void_roll_is_refused_and_rolled_again():
    game = Game.from_position(Position.initial(), rng=0)
    assert_refused(game, "roll", (7, 1))  # a die "outside the board": no such roll
    game.roll((6, 1))
    assert game.dice == (6, 1)


def test_rules_12_3_rolling_before_the_opponent_has_finished_is_void():
    game = Game.from_position(Position.initial(), dice=(3, 1))
    game.move(8, 5)
    assert_refused(game, "roll", (4, 2), player=1)  # player 0 has not picked up the dice
    game.move(6, 5)
    assert_refused(game, "roll", (4, 2), player=1)  # moved, but not committed
    game.commit()
    game.roll((4, 2), player=1)


def test_rules_12_4_an_illegal_move_never_stands():
    game = Game.from_position(Position.initial(), dice=(6, 5))
    assert_refused(game, "move", 24, 19)          # 19 is closed (RULES 3.3)
    assert_refused(game, "play", [(13, 2)])       # one checker, 11 pips in one step
    assert_refused(game, "play", "13/8 24/13")    # 24/13 is 11 pips: not 6 and 5 from 24
    game.play("24/13")                            # 24/18/13 is legal
    assert game.actions[-1].value == ((24, 18), (18, 13))


def test_play_notation_text():
    game = Game.from_position(Position.initial(), dice=(3, 1))
    game.play("8/5 6/5")
    assert game.board(0)[5] == 2 and game.turn == 1


def test_legal_actions_of_each_phase():
    game = Game(rng=0)
    assert game.legal_actions() == ["roll", "resign"]
    game = Game.from_position(Position.initial())
    assert game.legal_actions() == ["double", "roll", "resign"]
    game.roll((3, 1))
    assert game.legal_actions() == ["move", "play", "resign"]
    game.move(8, 5)
    assert game.legal_actions() == ["move", "undo", "resign"]
    game.move(6, 5)
    assert game.legal_actions() == ["commit", "undo", "resign"]
    game.commit()
    game.double()
    assert game.legal_actions() == ["take", "drop", "resign"]
    game.resign("single")
    assert game.legal_actions() == ["accept", "reject"]
    game.accept()
    assert game.legal_actions() == []
    game = Game.from_position(Position.initial(), cube=2, cube_owner=1)
    assert game.legal_actions() == ["roll", "resign"]  # player 1 owns the cube


def test_current_position_shows_the_steps_made():
    game = Game.from_position(board({13: 2, 6: 13}, {10: 1, 20: 14}), dice=(3, 1))
    game.move(13, 10)  # hits the blot on 10: it goes to the opponent's bar (a[0])
    now = game.current_position()
    assert (now[13], now[10], now[0]) == (1, 1, -1)
    assert game.position[10] == -1  # the turn's start is unchanged until the commit
    game.undo()
    assert game.current_position() == game.position


def test_apply_refuses_unknown_or_illegal_recorded_actions():
    game = Game.from_position(Position.initial(), dice=(3, 1), rng=0)
    assert_refused(game, "apply", (0, "teleport", None))
    assert_refused(game, "apply", (None, "opening", (3, 1)))   # not at the opening any more
    assert_refused(game, "apply", (0, "play", ((8, 4), (6, 5))))
    assert_refused(game, "apply", (1, "play", ((8, 5), (6, 5))))  # player 0's turn


@pytest.mark.parametrize("kwargs", [
    {"match_length": 5, "score": (5, 2)},                         # RULES 10.1: already won
    {"match_length": 5, "score": (2, 7)},
    {"match_length": 5, "score": (2, 1), "crawford": True},      # RULES 10.2: nobody at N-1
    {"match_length": 5, "score": (4, 4), "crawford": True},      # both at N-1: it was played
    {"match_length": 1, "score": (0, 0), "crawford": True},
])
def test_impossible_match_setups_are_refused(kwargs):
    with pytest.raises(ValueError):
        Game(**kwargs)
    with pytest.raises(ValueError):
        Game.from_position(Position.initial(), **kwargs)


@pytest.mark.parametrize("kwargs", [
    {"cube": 1, "cube_owner": 0},              # RULES 8.2: owning the cube takes a double
    {"cube": 1, "cube_owner": 1},
    {"cube": 2, "match_length": 5, "score": (4, 2), "crawford": True},   # RULES 10.2
    {"cube": 2, "match_length": 5},            # a centred cube above 1 comes only from
])                                             # automatic doubles, not in a match (9.4)
def test_impossible_cube_setups_are_refused(kwargs):
    with pytest.raises(IllegalActionError):
        Game.from_position(Position.initial(), **kwargs)


def test_possible_setups_are_accepted():
    assert Game(match_length=5, score=(4, 2), crawford=True).crawford
    assert Game(match_length=5, score=(4, 4)).can_double() is False  # opening: not yet
    assert Game.from_position(Position.initial(), cube=2).cube == 2  # automatic double
    assert Game.from_position(Position.initial(), cube=2, cube_owner=1,
                              match_length=5, score=(4, 4)).cube_owner == 1
