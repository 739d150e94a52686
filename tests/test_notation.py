"""Play notation read and written (RULES 13.1) and gnubg's board form (issue 3).

Every expected result below is worked out by hand from the board convention of the
README: ``a[1..24]`` the points of the player on roll (positive = theirs), ``a[25]`` their
bar, ``a[0]`` the opponent's bar (negative).
"""

from __future__ import annotations

import base64

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import backgammon as bg
from backgammon.errors import (
    AmbiguousPlayError,
    BackgammonError,
    GameOverError,
    IllegalPlayError,
    InvalidDiceError,
    InvalidPlayError,
    InvalidPositionError,
)
from backgammon.notation import parse_play

INITIAL = [0, -2, 0, 0, 0, 0, 5, 0, 3, 0, 0, 0, -5, 5, 0, 0, 0, -3, 0, -5, 0, 0, 0, 0, 2, 0]


def board(base=INITIAL, **points):
    """``base`` with some points changed: ``board(p13=4, p11=1)``; ``bar`` = a[25], ``obar`` = a[0]."""
    a = list(base)
    for name, value in points.items():
        index = 25 if name == "bar" else 0 if name == "obar" else int(name[1:])
        a[index] = value
    return a


def result_of(text, dice, base=INITIAL):
    return bg.Position(base).parse_play(text, dice).result.tolist()


def expect(exc_type, text, dice, base=INITIAL, match=None):
    with pytest.raises(exc_type, match=match) as info:
        bg.Position(base).parse_play(text, dice)
    assert type(info.value) is exc_type
    assert isinstance(info.value, BackgammonError) and isinstance(info.value, ValueError)
    return info.value


# ---------------------------------------------------------------------------------------------
# The round trip on the whole corpus
# ---------------------------------------------------------------------------------------------

@pytest.mark.slow
def test_parse_of_str_is_the_play_for_every_play_of_the_corpus(movegen_cases):
    count = 0
    for case in movegen_cases:
        pos = bg.Position(case["board"])
        for play in pos.legal_plays(case["dice"]):
            assert pos.parse_play(str(play), case["dice"]) == play, (case, str(play))
            count += 1
    assert count == 40068


def test_other_spellings_of_corpus_plays(movegen_cases):
    """Each single step written out (in reverse order, FIBS style, upper case) is the play;
    without hit marks the text is the play or ambiguous with the play among the candidates."""
    for case in movegen_cases[::3]:
        pos = bg.Position(case["board"])
        d1, d2 = case["dice"]
        for play in pos.legal_plays((d2, d1)):
            steps = " ".join(f"{s}-{d}" for s, d in reversed(play.moves))
            text = steps.replace("25-", "BAR-").replace("-0", "-Off")
            assert pos.parse_play(text, case["dice"]) == play, (case, text)
            bare = str(play).replace("*", "")
            try:
                assert pos.parse_play(f"  {bare}  ", case["dice"]) == play
            except AmbiguousPlayError as e:
                assert play in e.candidates and len(e.candidates) > 1
                assert str(play) in str(e)


# ---------------------------------------------------------------------------------------------
# Each spelling of the issue
# ---------------------------------------------------------------------------------------------

# 6-2 from the start, 24/18 13/11: one back checker to 18, one from the midpoint to 11
RUN_62 = board(p24=1, p18=1, p13=4, p11=1)


@pytest.mark.parametrize("text", [
    "24/18 13/11", "13/11 24/18", "  24/18    13/11 ", "24/18, 13/11", "24-18 13-11",
    "24 / 18 13 / 11", "24/18\t13/11",
])
def test_moves_in_any_order_and_spacing(text):
    assert result_of(text, (6, 2)) == RUN_62
    assert result_of(text, (2, 6)) == RUN_62


# Our last checker on the bar (one back checker sits there), an opponent blot on our 22
# (taken from their 6-point, our 19).  3-1: bar/22* 6/5 hits: their checker goes to a[0].
BAR_POS = board(p24=1, bar=1, p19=-4, p22=-1)
BAR_31 = board(BAR_POS, bar=0, p22=1, obar=-1, p6=4, p5=1)


@pytest.mark.parametrize("text", [
    "bar/22* 6/5", "Bar/22 6/5", "BAR/22x 6/5", "25/22 6/5", "b/22 6/5", "B/22* 6/5",
    "6/5 bar/22*", "bar-22* 6-5",
])
def test_bar_spellings(text):
    assert result_of(text, (3, 1), BAR_POS) == BAR_31


# Bear-off: two checkers on each of our 6, 5, 4 points (6 checkers left, 9 off); the
# opponent all on our 20 (their 5-point).  6-5 bears one off from 6 and one from 5.
BEAROFF = [0] + [0, 0, 0, 2, 2, 2] + [0] * 13 + [-15] + [0, 0, 0, 0, 0]
BEAROFF_65 = board(BEAROFF, p6=1, p5=1)


@pytest.mark.parametrize("text", ["6/off 5/off", "6/0 5/0", "6/OFF 5/o", "5/off 6/off", "6-0 5-0"])
def test_bear_off_spellings(text):
    assert result_of(text, (6, 5), BEAROFF) == BEAROFF_65


def test_bear_off_with_a_larger_die_and_one_checker_all_the_way():
    # 6-5 with checkers only on 4 and 3 (RULES 6.4): both bear off with the larger dice
    pos = [0, 0, 0, 1, 1] + [0] * 15 + [-15, 0, 0, 0, 0, 0]
    assert result_of("4/off 3/off", (6, 5), pos) == [0] * 20 + [-15, 0, 0, 0, 0, 0]
    # one checker on 6 with 4-3: 6/2 then off with the 3 (or 6/3 then off with the 4)
    pos = board(BEAROFF, p6=1, p5=0, p4=0)
    assert result_of("6/off", (4, 3), pos) == board(pos, p6=0)


# 3-3 from the start: 8/5(2) 6/3(2)
DOUBLE_33 = board(p8=1, p5=2, p6=3, p3=2)


@pytest.mark.parametrize("text", [
    "8/5(2) 6/3(2)", "8/5 8/5 6/3 6/3", "6/3 8/5 6/3 8/5", "8/5 (2) 6/3 ( 2 )", "8/5(1) 8/5 6/3(2)",
])
def test_doubles_with_and_without_counts(text):
    assert result_of(text, (3, 3)) == DOUBLE_33


def test_the_issue_example_8_5_2_6_5_2_is_notation_but_no_roll_plays_it():
    # 8/5 is 3 pips and 6/5 one pip: no roll has both as single dice, and 1-1 has only
    # four moves, not the eight it would take (RULES 3.2)
    for dice in bg.ALL_ROLLS:
        expect(IllegalPlayError, "8/5(2) 6/5(2)", dice)
    assert result_of("8/5 6/5", (3, 1)) == board(p8=2, p6=4, p5=2)


def test_one_checker_through_an_open_point():
    # 6-2 from the start, one checker 13/5 (via 7 or via 11, both open and empty)
    expected = board(p13=4, p5=1)
    for text in ("13/5", "13/7/5", "13/11/5", "13/7 7/5", "7/5 13/7", "13-5"):
        assert result_of(text, (6, 2)) == expected, text
    # 5-3: 24/21 21/16 is one checker 24/16
    expected = board(p24=1, p16=1)
    for text in ("24/21 21/16", "24/16", "24/21/16", "21/16 24/21"):
        assert result_of(text, (5, 3)) == expected, text
    # a point written on the way must be open: the opponent holds 19 (RULES 3.3)
    e = expect(IllegalPlayError, "24/19/16", (5, 3))
    assert "19 is closed" in str(e)


# An opponent blot on our 7 (from their 8-point, our 17) in the opening position.
BLOT7 = board(p17=-2, p7=-1)


def test_a_hit_on_the_way_with_or_without_marks():
    hit = board(BLOT7, p13=4, p5=1, p7=0, obar=-1)       # 13/7*/5: hits on 7
    for text in ("13/7*/5", "13/7x/5", "13/7/5", "13/7* 7/5", "13/7 7/5"):
        assert result_of(text, (6, 2), BLOT7) == hit, text
    # 13/5 written without a mark: via 11 (hits nothing) is the play gnubg writes 13/5
    assert result_of("13/5", (6, 2), BLOT7) == board(BLOT7, p13=4, p5=1)
    assert str(bg.Position(BLOT7).parse_play("13/7/5", (6, 2))) == "13/7*/5"


def test_hit_marks_on_a_plain_hit_are_optional():
    # 6-1 in BLOT7: 13/7* 8/7 hits the blot and makes the point
    expected = board(BLOT7, p13=4, p8=2, p7=2, obar=-1)
    for text in ("13/7* 8/7", "13/7 8/7", "8/7* 13/7", "13/7x 8/7x", "8/7 13/7*"):
        assert result_of(text, (6, 1), BLOT7) == expected, text


def test_no_move_when_nothing_can_move():
    # our checker on the bar and the opponent holds our 19-24 (their whole home board)
    closed = [0, 0, 0, 0, 0, 0, 5, 0, 3, 0, 0, 0, -3, 5, 0, 0, 0, 0, 0,
              -2, -2, -2, -2, -2, -2, 1]
    pos = bg.Position(closed)
    for text in ("", "  ", "no move", "(no move)", "No Move", "cannot move"):
        play = pos.parse_play(text, (6, 6))
        assert play.moves == () and play.result == pos
    assert parse_play(pos, "", (2, 1)).result == pos
    expect(IllegalPlayError, "bar/20", (5, 4), closed, match="no checker can move")


def test_module_function_and_method_agree():
    pos = bg.Position.initial()
    assert parse_play(pos, "24/18 13/11", (6, 2)) == pos.parse_play("13/11 24/18", [2, 6])
    assert pos.parse_play("24/18 13/11", np.array([6, 2])) in pos.legal_plays((6, 2))


# ---------------------------------------------------------------------------------------------
# Errors: InvalidPlayError (not notation at all)
# ---------------------------------------------------------------------------------------------

@pytest.mark.parametrize("text", [
    "hello", "24", "24/", "/18", "24//18", "24/18/", "24/18(0)", "24/18(5)", "24/18(",
    "26/20", "99/off", "24*/18", "*24/18", "24/18 13/11)", "24/18**", "24/18 & 13/11",
    "24\\18", "bar", "24/18x13/11", "2418", "24/18-", "24/18(2)(2)", "bar/2 2",
])
def test_invalid_notation(text):
    e = expect(InvalidPlayError, text, (6, 2))
    assert repr(text.strip()) in str(e)


def test_long_numbers_are_not_points():
    expect(InvalidPlayError, "9" * 5000 + "/3", (6, 2))
    expect(InvalidPlayError, "100/94", (6, 2))


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(text=st.text(alphabet="0123456789/-*x() ,bBarOofF\t", max_size=24),
       dice=st.sampled_from(bg.ALL_ROLLS),
       case=st.sampled_from([INITIAL, BLOT7, BEAROFF, [0, 14] + [0] * 7 + [-2] + [0] * 10
                             + [1, 0, 0, -13, 0, 0]]))
def test_any_text_gives_a_legal_play_or_one_of_the_three_errors(text, dice, case):
    pos = bg.Position(case)
    try:
        play = pos.parse_play(text, dice)
    except (InvalidPlayError, IllegalPlayError, AmbiguousPlayError):
        return
    assert play in pos.legal_plays(dice)
    assert pos.parse_play(str(play), dice) == play


@pytest.mark.parametrize("value", [None, 24, b"24/18 13/11", ["24/18", "13/11"], (24, 18)])
def test_a_play_text_must_be_a_string(value):
    expect(InvalidPlayError, value, (6, 2))


# ---------------------------------------------------------------------------------------------
# Errors: IllegalPlayError (notation, but no legal play of the roll), with the reason
# ---------------------------------------------------------------------------------------------

def test_incomplete_play_names_the_reason():
    e = expect(IllegalPlayError, "24/18", (6, 5))
    assert "incomplete" in str(e) and "both dice" in str(e) and "RULES 4.1" in str(e)
    e = expect(IllegalPlayError, "24/18(2) 13/7", (6, 6))
    assert "incomplete" in str(e) and "4 moves of 6" in str(e)
    e = expect(IllegalPlayError, "", (3, 1))
    assert "no move" in str(e) and "both dice" in str(e)


def test_dice_that_do_not_make_the_move():
    e = expect(IllegalPlayError, "24/20 13/11", (6, 2))
    assert "24/20 is 4 pips" in str(e)
    e = expect(IllegalPlayError, "24/18 13/7", (6, 5))   # two sixes asked of 6-5
    assert "more dice" in str(e)
    expect(IllegalPlayError, "24/18 13/11 6/5", (6, 2))   # three moves of a non-double


def test_backwards_moves_and_impossible_points():
    for text in ("13/15 6/5", "off/3 6/5", "6/bar 24/23", "13/13 24/23", "6/off/3 24/23"):
        e = expect(IllegalPlayError, text, (2, 1))
        assert "higher to lower" in str(e)


def test_a_hit_mark_where_no_blot_stands():
    e = expect(IllegalPlayError, "24/18* 13/11", (6, 2))
    assert "18" in str(e) and "blot" in str(e)
    expect(IllegalPlayError, "13/5*", (6, 2), BLOT7, match="blot")        # 5 is empty
    expect(IllegalPlayError, "13/11 13/7*", (6, 2), match="blot")         # 7 is empty
    expect(IllegalPlayError, "24/18 8/6*", (6, 2), match="blot")          # 6 is our own


def test_a_closed_point_is_named():
    e = expect(IllegalPlayError, "24/18 24/19", (6, 5))   # the opponent holds 19 with 5
    assert "19 is closed" in str(e) and "RULES 3.3" in str(e)
    e = expect(IllegalPlayError, "24/13", (6, 5), board(p18=-2, p17=-1, p19=-4))
    assert "18 is closed" in str(e) and "19 is closed" in str(e)   # both ways round


def test_the_bar_first_and_bearing_off_rules_are_named():
    e = expect(IllegalPlayError, "6/5 6/3", (3, 1), BAR_POS)
    assert "bar must enter first" in str(e) and "RULES 5.1" in str(e)
    e = expect(IllegalPlayError, "bar/20 6/5", (3, 1), BAR_POS)   # 5 pips: neither die nor both
    assert "bar/20 is 5 pips" in str(e)
    e = expect(IllegalPlayError, "6/off 6/1", (6, 5))
    assert "RULES 6.1" in str(e)
    e = expect(IllegalPlayError, "6/off 13/8", (6, 5))
    assert "RULES 6.1" in str(e)
    # 6-5 with checkers on 6 and 3 only: 3/off with the 6 while the 6-point is occupied
    pos = [0, 0, 0, 2, 0, 0, 2] + [0] * 13 + [-15, 0, 0, 0, 0, 0]
    e = expect(IllegalPlayError, "3/off 6/1", (6, 5), pos)
    assert "higher point" in str(e) and "RULES 6.4" in str(e)
    e = expect(IllegalPlayError, "bar/22 6/5", (3, 1))
    assert "no checker of yours is on the bar" in str(e)


def test_the_higher_die_rule_is_named():
    # Our checker on 20 (the rest, 14, on our 1-point: no bearing off while 20 is out), the
    # opponent holds 9 = 20 - 6 - 5: only one die of 6-5 can be played, and it must be the 6.
    pos = [0, 14] + [0] * 7 + [-2] + [0] * 10 + [1, 0, 0, -13, 0, 0]
    assert [str(p) for p in bg.Position(pos).legal_plays((6, 5))] == ["20/14"]
    assert result_of("20/14", (6, 5), pos) == board(pos, p20=0, p14=1)
    e = expect(IllegalPlayError, "20/15", (6, 5), pos)
    assert "higher one, 6" in str(e) and "RULES 4.2" in str(e)
    e = expect(IllegalPlayError, "20/14/9", (6, 5), pos)
    assert "only one die" in str(e)


def test_no_checker_on_the_source_point():
    e = expect(IllegalPlayError, "23/17 13/11", (6, 2))
    assert "no checker of yours is on 23" in str(e)


# ---------------------------------------------------------------------------------------------
# Errors: AmbiguousPlayError (several plays fit; the message lists them)
# ---------------------------------------------------------------------------------------------

def test_ambiguous_play_lists_the_candidates():
    # blots on our 7 and 11 (taken from the opponent's 17 and 12): 6-2 13/5 hits one of them
    pos = board(p17=-2, p7=-1, p12=-4, p11=-1)
    e = expect(AmbiguousPlayError, "13/5", (6, 2), pos)
    assert "13/7*/5" in str(e) and "13/11*/5" in str(e)
    assert sorted(str(p) for p in e.candidates) == ["13/11*/5", "13/7*/5"]
    assert all(p in bg.Position(pos).legal_plays((6, 2)) for p in e.candidates)
    # the marks choose
    assert result_of("13/7*/5", (6, 2), pos) == board(pos, p13=4, p7=0, p5=1, obar=-1)
    assert result_of("13/11x/5", (6, 2), pos) == board(pos, p13=4, p11=0, p5=1, obar=-1)


def test_ambiguous_bear_off_route():
    # one checker of ours on 6 (14 off), opponent blots on our 2 and 3; 4-3: 6/2*/off or
    # 6/3*/off, each hitting a different blot
    pos = [0, 0, -1, -1, 0, 0, 1] + [0] * 13 + [-13, 0, 0, 0, 0, 0]
    e = expect(AmbiguousPlayError, "6/off", (4, 3), pos)
    assert len(e.candidates) == 2 and "6/2*/off" in str(e) and "6/3*/off" in str(e)


# ---------------------------------------------------------------------------------------------
# Errors from the roll and the game state
# ---------------------------------------------------------------------------------------------

def test_bad_dice_and_finished_games():
    with pytest.raises(InvalidDiceError):
        bg.Position.initial().parse_play("24/18 13/11", (7, 1))
    with pytest.raises(InvalidDiceError):
        bg.Position.initial().parse_play("24/18 13/11", None)
    over = [0, -1] + [0] * 24                 # the player on roll has borne everything off
    with pytest.raises(GameOverError):
        bg.Position(over).parse_play("", (6, 5))


# ---------------------------------------------------------------------------------------------
# gnubg's board form
# ---------------------------------------------------------------------------------------------

START_SIDE = [0, 0, 0, 0, 0, 5, 0, 3, 0, 0, 0, 0, 5, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 2, 0]


def test_gnubg_board_of_the_opening_position():
    # RULES 1.4: each side has 2 on its 24, 5 on 13, 3 on 8, 5 on 6 (index = point - 1)
    assert bg.Position.initial().to_gnubg_board() == [START_SIDE, START_SIDE]
    assert bg.Position.from_gnubg_board([START_SIDE, START_SIDE]) == bg.Position.initial()
    assert bg.Position.from_gnubg_board(np.array([START_SIDE, START_SIDE])) == bg.Position.initial()
    assert bg.Position.from_gnubg_board((tuple(START_SIDE), tuple(START_SIDE))) == bg.Position()


def test_gnubg_board_sides_bars_and_numbering():
    # ours: 2 on the bar, 13 on our 6; theirs: 1 on their bar, 1 on our 7 (their 18),
    # 13 on our 24 (their 1)
    a = [-1, 0, 0, 0, 0, 0, 13, -1] + [0] * 16 + [-13, 2]
    opponent = [13] + [0] * 16 + [1] + [0] * 6 + [1]
    on_roll = [0] * 5 + [13] + [0] * 18 + [2]
    assert bg.Position(a).to_gnubg_board() == [opponent, on_roll]
    assert bg.Position.from_gnubg_board([opponent, on_roll]).tolist() == a
    # swapping the side to roll swaps the two lists
    assert bg.Position(a).swapped().to_gnubg_board() == [on_roll, opponent]


def _gnubg_board_from_position_id(pid):
    """Decode a Position ID by VECTORS.md, independently of the library: 80 bits, least
    significant first; for the player not on roll then the player on roll, 25 runs of
    1-bits (points 1-24 from that side's ace point, then the bar) each ended by a 0."""
    key = int.from_bytes(base64.b64decode(pid + "=="), "little")
    sides, bit = [], 0
    for _ in range(2):
        side = []
        for _ in range(25):
            run = 0
            while key >> bit & 1:
                run, bit = run + 1, bit + 1
            side.append(run)
            bit += 1
        sides.append(side)
    return sides


def test_gnubg_board_agrees_with_every_position_id_vector(position_id_cases):
    for case in position_id_cases:
        pos = bg.Position(case["board"])
        expected = _gnubg_board_from_position_id(case["position_id"])
        assert pos.to_gnubg_board() == expected
        assert bg.Position.from_gnubg_board(expected) == pos
    for case in position_id_cases:  # and for the other side to roll
        pos = bg.Position(case["board"]).swapped()
        assert bg.Position.from_gnubg_board(pos.to_gnubg_board()) == pos


@pytest.mark.parametrize("bad", [
    None, "4HPwATDgc/ABMA", 5, [START_SIDE], [START_SIDE, START_SIDE, START_SIDE],
    [START_SIDE, START_SIDE[:24]], [START_SIDE + [0], START_SIDE],
    [START_SIDE, [1.5] + START_SIDE[1:]], [START_SIDE, ["a"] + START_SIDE[1:]],
    [START_SIDE, [-1] + START_SIDE[1:]], [[16] + [0] * 24, START_SIDE],
    [[0] * 25, [0] * 25],                                   # no checkers at all
    [START_SIDE, [1] + START_SIDE[1:]],                     # 16 checkers on roll
    # our 6-point (index 5) is the opponent's 19-point (index 18): both sides on one point
    [[0] * 18 + [1] + [0] * 6, START_SIDE],
    np.zeros((2, 24), dtype=int), np.zeros((3, 25), dtype=int),
])
def test_bad_gnubg_boards(bad):
    with pytest.raises(InvalidPositionError):
        bg.Position.from_gnubg_board(bad)


def test_gnubg_board_error_names_the_shared_point():
    with pytest.raises(InvalidPositionError, match="point 6 .* 19 of the opponent"):
        bg.Position.from_gnubg_board([[0] * 18 + [1] + [0] * 6, START_SIDE])
