"""Rules tests: one or more named tests for every clause of RULES 3.1-3.4, 4.1-4.5, 5.1-5.5,
6.1-6.7 and 7.1-7.4 (RULES.md of the shared folder), plus the opening position, the forced
"last checker" play, closed boards, outcomes and the error contract of notes/API.md.

Every expected answer is worked out by hand from the rules and written as a literal in the
test, with the reasoning in a comment. The engine is never used to compute an expectation.

Conventions (notes/API.md): a board is 26 ints seen from the player on roll, who moves from
24 toward 1 and bears off past 1; a[25] = their bar (>= 0), a[0] = opponent's bar (<= 0),
positive = on-roll checkers, negative = opponent checkers. Missing checkers are borne off.

Expected plays are written in the project's notation (RULES 13.1) and turned into result
boards by `apply_notation`, a purely mechanical helper: it moves one checker per step, checks
that a step marked `*` really hits a blot and that an unmarked step does not, and refuses to
land on a closed point. So a wrong hand derivation fails loudly instead of silently.
"""

import re

import pytest

import backgammon as bg
from backgammon import Position

NON_DOUBLES = [(h, l) for h in range(2, 7) for l in range(1, h)]          # 15 rolls
DOUBLES = [(d, d) for d in range(1, 7)]                                    # 6 rolls
ALL_21 = NON_DOUBLES + DOUBLES

INITIAL = [0, -2, 0, 0, 0, 0, 5, 0, 3, 0, 0, 0, -5, 5, 0, 0, 0, -3, 0, -5, 0, 0, 0, 0, 2, 0]


# ---------------------------------------------------------------------------------------------
# Helpers
# ---------------------------------------------------------------------------------------------

def board(own=None, opp=None, bar=0, opp_bar=0):
    """26-int array. own: {point: n} of the player on roll; opp: {point: n} of the opponent
    (given as positive counts or negative, stored negative); bar / opp_bar: checkers on the bar."""
    a = [0] * 26
    for p, n in (own or {}).items():
        assert 1 <= p <= 24 and n > 0
        a[p] += n
    for p, n in (opp or {}).items():
        assert 1 <= p <= 24 and n != 0 and a[p] == 0
        a[p] -= abs(n)
    a[25] = bar
    a[0] = -abs(opp_bar)
    assert sum(x for x in a if x > 0) <= 15 and -sum(x for x in a if x < 0) <= 15
    return a


def pos_of(own=None, opp=None, bar=0, opp_bar=0):
    return Position.from_array(board(own, opp, bar, opp_bar))


def arr(position):
    return tuple(int(x) for x in position.to_array())


def _point(tok):
    if tok == "bar":
        return 25
    if tok == "off":
        return 0
    return int(tok)


def apply_notation(start, text):
    """Mechanically apply a play written like '24/18 13/8', '13/7*/5', 'bar/22*(2)', '6/off(2)'
    to the 26-int list `start`; returns the resulting tuple. '' = no move."""
    a = list(start)
    for token in text.split():
        m = re.fullmatch(r"(.+?)(?:\((\d)\))?", token)
        chain, count = m.group(1), int(m.group(2) or 1)
        parts = chain.split("/")
        for _ in range(count):
            for src_t, dst_t in zip(parts, parts[1:]):
                src, dst = _point(src_t.rstrip("*")), _point(dst_t.rstrip("*"))
                marked = dst_t.endswith("*")
                assert src > dst, f"{token}: steps go from higher to lower points"
                assert a[src] > 0, f"{token}: no own checker on {src_t}"
                a[src] -= 1
                if dst != 0:
                    assert a[dst] >= -1, f"{token}: {dst} is closed"
                    if a[dst] == -1:
                        assert marked or count > 1, f"{token}: unmarked hit on {dst}"
                        a[dst] = 0
                        a[0] -= 1
                    else:
                        assert not (marked and count == 1), f"{token}: no blot on {dst}"
                    a[dst] += 1
    return tuple(a)


def describe(a):
    own = {p: a[p] for p in range(1, 25) if a[p] > 0}
    opp = {p: -a[p] for p in range(1, 25) if a[p] < 0}
    return f"own={own} bar={a[25]} opp={opp} opp_bar={-a[0]}"


def result_set(position, dice):
    plays = list(position.legal_plays(dice))
    results = [arr(p.result) for p in plays]
    # RULES 13.2: exactly one Play per distinct resulting position.
    assert len(results) == len(set(results)), "duplicate resulting positions"
    return set(results)


def assert_plays(position, dice, expected_texts):
    """The set of legal results for `dice` is exactly the hand-derived list of plays."""
    start = arr(position)
    expected = [apply_notation(start, t) for t in expected_texts]
    assert len(set(expected)) == len(expected), "test bug: two expected plays coincide"
    got = result_set(position, dice)
    missing = [describe(e) for e in expected if e not in got]
    extra = [describe(g) for g in got if g not in set(expected)]
    assert not missing and not extra, f"dice {dice}: missing {missing}, unexpected {extra}"
    assert len(position.legal_plays(dice)) == len(expected_texts)


def the_only_play(position, dice):
    plays = list(position.legal_plays(dice))
    assert len(plays) == 1, f"expected one play, got {[str(p) for p in plays]}"
    return plays[0]


def moves_of(play):
    return tuple((int(f), int(t)) for f, t in play.moves)


def move_set(moves):
    return {(int(f), int(t)) for f, t in moves}


def assert_no_move(position, dice):
    """RULES 4.4: exactly one play, with no moves, whose result is the position itself."""
    play = the_only_play(position, dice)
    assert moves_of(play) == ()
    assert play.result == position
    assert arr(play.result) == arr(position)


def outcome_tuple(position):
    o = position.outcome()
    return None if o is None else (o.winner, o.kind, o.points)


# A self-check of the helper (so the expectations below can be trusted): 13/7*/5 on a board
# with a blot on 7 sends it to the bar, and 6/off(2) removes two checkers.
def test_apply_notation_helper():
    b = board({13: 1, 6: 2}, {7: 1, 24: 2})
    r = apply_notation(b, "13/7*/5 6/off(2)")
    assert r == tuple(board({5: 1}, {24: 2}, opp_bar=1))
    with pytest.raises(AssertionError):
        apply_notation(b, "13/7/5")          # the hit must be marked
    with pytest.raises(AssertionError):
        apply_notation(board({13: 1}, {7: 2}), "13/7")     # closed point


# ---------------------------------------------------------------------------------------------
# RULES 3: moving checkers
# ---------------------------------------------------------------------------------------------

def test_rules_3_1_each_die_moves_one_checker_separately():
    # RULES 3.1: 4-2 with checkers on 20 and 10, nothing in the way. Either one checker takes
    # both numbers (20/14 or 10/4, in either order: one play each, RULES 13.2) or each checker
    # takes one number (20/16 10/8, 20/18 10/6). 4 plays, each made of a 4-step and a 2-step.
    p = pos_of({20: 1, 10: 1}, {24: 2})
    assert_plays(p, (4, 2), ["20/14", "10/4", "20/16 10/8", "20/18 10/6"])
    for play in p.legal_plays((4, 2)):
        assert sorted(f - t for f, t in moves_of(play)) == [2, 4]


def test_rules_3_1_either_order_is_one_play():
    # RULES 3.1 + 13.2: a lone checker on 13 with 4-2 and open points: 13/9/7 and 13/11/7 end
    # in the same position, so there is exactly one play.
    p = pos_of({13: 1}, {24: 2})
    play = the_only_play(p, (4, 2))
    assert arr(play.result) == tuple(board({7: 1}, {24: 2}))
    assert len(moves_of(play)) == 2


def test_rules_3_1_dice_are_never_added():
    # RULES 3.1: 13 with 4-2; 9 and 11 are closed, 7 is open. A single move of 6 (the sum)
    # does not exist, so no checker can move at all.
    p = pos_of({13: 1}, {11: 2, 9: 2})
    assert_no_move(p, (4, 2))
    assert_no_move(p, (2, 4))


def test_rules_3_2_doubles_four_moves_by_one_checker():
    # RULES 3.2: 3-3, a lone checker on 20: 20/17/14/11/8, four moves of 3, one play.
    p = pos_of({20: 1}, {24: 2})
    play = the_only_play(p, (3, 3))
    assert arr(play.result) == tuple(board({8: 1}, {24: 2}))
    assert sorted(f - t for f, t in moves_of(play)) == [3, 3, 3, 3]


def test_rules_3_2_doubles_spread_over_one_to_four_checkers():
    # RULES 3.2: 2-2 with four checkers on 22: the four 2s split over the (identical) checkers
    # as the partitions of 4: 4, 3+1, 2+2, 2+1+1, 1+1+1+1 -> 5 plays, each of four moves of 2.
    p = pos_of({22: 4}, {24: 2})
    assert_plays(p, (2, 2), ["22/14", "22/16 22/20", "22/18(2)", "22/18 22/20(2)", "22/20(4)"])
    for play in p.legal_plays((2, 2)):
        assert sorted(f - t for f, t in moves_of(play)) == [2, 2, 2, 2]


def test_rules_3_3_stop_on_empty_own_or_blot():
    # RULES 3.3/3.4: own 10 and 7, opposing blot on 9; 3-1.
    # 3s: 10/7 (own point), 7/4 (empty). 1s: 10/9* (blot), 7/6 (empty).
    # 10/7 7/6 = 7/6 10/7 -> {7,6} without hit ("10/6" via 7); 10/9*/6 -> {7,6} with the blot
    # on the bar; 10/9* 7/4 (either order); 7/4/3 = 7/6/3 -> {10,3}. 4 distinct results.
    p = pos_of({10: 1, 7: 1}, {9: 1, 24: 2})
    assert_plays(p, (3, 1), ["10/6", "10/9*/6", "10/9* 7/4", "7/3"])


def test_rules_3_3_no_limit_on_own_checkers_on_a_point():
    # RULES 3.3: 14 checkers on 6 and one on 11; 3 and 4 closed, so the stack cannot move
    # (6/3, 6/4 closed). The 11 must play both dice: 11/8/6 or 11/9/6 -> 15 checkers on 6.
    p = pos_of({6: 14, 11: 1}, {3: 2, 4: 2})
    play = the_only_play(p, (3, 2))
    assert arr(play.result) == tuple(board({6: 15}, {3: 2, 4: 2}))


def test_rules_3_3_cannot_stop_on_closed_point():
    # RULES 3.3: own 13 and 8, opponent holds 9; 4-2.
    # 4s: 13/9 closed, 8/4 open. 2s: 13/11, 8/6.
    # 13/11/7 (13/9/7 is closed on the way, but this order is open), 13/11 8/4,
    # 8/6/2 = 8/4/2. Nothing can stop on 9 -> 3 plays.
    p = pos_of({13: 1, 8: 1}, {9: 2, 24: 2})
    assert_plays(p, (4, 2), ["13/7", "13/11 8/4", "8/2"])


def test_rules_3_3_intermediate_point_closed_for_one_checker_using_both_dice():
    # RULES 3.3: 13 and 20 with 4-2, opponent holds 9 and 11 (both intermediate points of
    # 13/7), 7 itself open. 13 cannot move at all, so 20 plays both: 20/16/14 = 20/18/14.
    p = pos_of({13: 1, 20: 1}, {9: 2, 11: 2})
    assert_plays(p, (4, 2), ["20/14"])


def test_rules_3_3_intermediate_closed_in_one_order_only():
    # RULES 3.3: a lone 10 with 4-1, opponent holds 6. 10/6 is closed, so the 4 can only be
    # played after the 1: 10/9/5. One play, moved in that order.
    p = pos_of({10: 1}, {6: 2, 24: 2})
    play = the_only_play(p, (4, 1))
    assert arr(play.result) == tuple(board({5: 1}, {6: 2, 24: 2}))
    assert moves_of(play) == ((10, 9), (9, 5))


def test_rules_3_3_jumping_over_closed_points_is_allowed():
    # RULES 3.3: a lone 13 facing a 5-point prime 12..8, 6-5. 13/8 is closed, 13/7 jumps the
    # whole prime, then 7/2. One play: 13/7/2.
    p = pos_of({13: 1}, {12: 2, 11: 2, 10: 2, 9: 2, 8: 2})
    play = the_only_play(p, (6, 5))
    assert arr(play.result) == tuple(board({2: 1}, {12: 2, 11: 2, 10: 2, 9: 2, 8: 2}))
    assert moves_of(play) == ((13, 7), (7, 2))


def test_rules_3_4_hitting_is_optional_and_sends_blot_to_bar():
    # RULES 3.4: own 20 and 10, opposing blot on 6; 4-3.
    # 4s: 20/16, 10/6*. 3s: 20/17, 10/7.
    # 20/13 (either order), 10/6*/3 and 10/7/3 (different: one hits), 20/16 10/7,
    # 20/17 10/6* -> 5 plays, 3 of which do not hit.
    p = pos_of({20: 1, 10: 1}, {6: 1, 24: 2})
    assert_plays(p, (4, 3), ["20/13", "10/6*/3", "10/7/3", "20/16 10/7", "20/17 10/6*"])
    hits = [pl for pl in p.legal_plays((4, 3)) if arr(pl.result)[0] == -1]
    assert len(hits) == 2
    for pl in hits:
        assert arr(pl.result)[6] != -1            # the blot left point 6 for the bar


def test_rules_3_4_hit_on_intermediate_point():
    # RULES 3.4: a lone 13 with 6-2 and an opposing blot on 7: 13/7*/5 hits on the way,
    # 13/11/5 does not -> two different plays.
    p = pos_of({13: 1}, {7: 1, 24: 2})
    assert_plays(p, (6, 2), ["13/7*/5", "13/11/5"])
    hit = [pl for pl in p.legal_plays((6, 2)) if arr(pl.result)[0] == -1]
    assert len(hit) == 1
    assert str(hit[0]) == "13/7*/5"


def test_rules_3_4_double_hits_two_blots_on_the_way():
    # RULES 3.4: a lone 13 with 3-3, blots on 10 and 7: 13/10*/7*/4/1, both go to the bar.
    p = pos_of({13: 1}, {10: 1, 7: 1, 24: 2})
    assert_plays(p, (3, 3), ["13/10*/7*/1"])
    play = the_only_play(p, (3, 3))
    assert arr(play.result) == tuple(board({1: 1}, {24: 2}, opp_bar=2))


# ---------------------------------------------------------------------------------------------
# RULES 4: compulsory play
# ---------------------------------------------------------------------------------------------

def test_rules_4_1_must_play_both_dice_when_possible():
    # RULES 4.1: own 13 and 9 with 6-2, opponent holds 7 and 3.
    # 6s: 13/7 closed, 9/3 closed. 2s: 13/11 open, 9/7 closed. After 13/11 the 6 plays 11/5.
    # So 13/11/5 is the only play; 13/11 alone (one die) is not legal.
    p = pos_of({13: 1, 9: 1}, {7: 2, 3: 2})
    assert_plays(p, (6, 2), ["13/5"])
    with pytest.raises(bg.IllegalPlayError):
        p.play([(13, 11)], dice=(6, 2))


def test_rules_4_1_last_checker_must_hit_to_use_both_dice():
    # RULES 4.1 / 6.4: our last checker on 2, opposing blot on 1, 4-1. 2/off with the 4 would
    # end the turn after one die; 2/1* then 1/off (4 > 1, highest point) uses both dice,
    # so 2/1*/off is the only legal play even though 2/off also wins.
    p = pos_of({2: 1}, {1: 1, 20: 5, 21: 5, 22: 4})
    for dice in [(4, 1), (1, 4)]:
        play = the_only_play(p, dice)
        assert moves_of(play) == ((2, 1), (1, 0))
        assert arr(play.result) == tuple(board({}, {20: 5, 21: 5, 22: 4}, opp_bar=1))
        assert str(play) == "2/1*/off"
    assert move_set(p.legal_moves((4, 1))) == {(2, 1)}          # RULES 4.3
    assert move_set(p.legal_moves((4, 1), [(2, 1)])) == {(1, 0)}


def test_rules_4_1_doubles_all_four_when_possible():
    # RULES 4.1: own 10 and 9 with 2-2, opponent holds 5. 9 can move once (9/7; 7/5 closed),
    # 10 up to four times (10/8/6/4/2). Four moves are possible: 10/2, or 10/4 9/7.
    # (No bear-off: a checker stays outside.) Plays of three moves such as 10/4 are illegal.
    p = pos_of({10: 1, 9: 1}, {5: 2, 24: 2})
    assert_plays(p, (2, 2), ["10/2", "10/4 9/7"])
    for play in p.legal_plays((2, 2)):
        assert len(moves_of(play)) == 4


def test_rules_4_1_doubles_as_many_as_possible_three():
    # RULES 4.1: own 11 and 10 with 3-3, opponent holds 4 and 2.
    # 11/8/5 then 5/2 closed: at most two moves; 10/7 then 7/4 closed: at most one.
    # Three moves is the most: 11/5 10/7, the only play.
    p = pos_of({11: 1, 10: 1}, {4: 2, 2: 2, 24: 2})
    play = the_only_play(p, (3, 3))
    assert arr(play.result) == tuple(board({7: 1, 5: 1}, {4: 2, 2: 2, 24: 2}))
    assert len(moves_of(play)) == 3


def test_rules_4_1_doubles_only_one_of_four():
    # RULES 4.1: a lone 10 with 3-3, opponent holds 4: 10/7, then 7/4 closed. One move.
    p = pos_of({10: 1}, {4: 2, 24: 2})
    play = the_only_play(p, (3, 3))
    assert moves_of(play) == ((10, 7),)


def test_rules_4_2_higher_die_when_only_one_can_be_played():
    # RULES 4.2: a lone 10 with 5-1, opponent holds 4. 10/5 then 5/4 closed (and no bear-off
    # with the 1: point 1 empty, 5 higher); 10/9 then 9/4 closed. Either die alone, never
    # both -> the larger must be played: 10/5 only.
    p = pos_of({10: 1}, {4: 2, 24: 2})
    for dice in [(5, 1), (1, 5)]:
        play = the_only_play(p, dice)
        assert moves_of(play) == ((10, 5),)
    assert move_set(p.legal_moves((5, 1))) == {(10, 5)}          # 10/9 not offered
    assert p.legal_moves((5, 1), [(10, 5)]) == []


def test_rules_4_2_smaller_die_when_larger_cannot_be_played():
    # RULES 4.2: a lone 10 with 5-1, opponent holds 5 and 4. 10/5 closed; 10/9 then 9/4
    # closed. Only the smaller can be played: 10/9.
    p = pos_of({10: 1}, {5: 2, 4: 2, 24: 2})
    play = the_only_play(p, (5, 1))
    assert moves_of(play) == ((10, 9),)


def test_rules_4_2_higher_playable_only_after_lower_so_both_must_be_played():
    # RULES 4.1/4.2: a lone 10 with 6-1, opponent holds 4. The 6 cannot be played first
    # (10/4 closed), but after 10/9 it can (9/3). Both dice can be played, so they must:
    # 10/9/3 is the only play (not 10/9 alone, not "the larger die" alone).
    p = pos_of({10: 1}, {4: 2, 24: 2})
    play = the_only_play(p, (6, 1))
    assert moves_of(play) == ((10, 9), (9, 3))
    assert move_set(p.legal_moves((6, 1))) == {(10, 9)}


def test_rules_4_3_first_move_that_kills_other_die_is_not_offered():
    # RULES 4.3: own 12 and 8 with 5-2, opponent holds 6 and 5.
    # 5s: 12/7, 8/3. 2s: 12/10, 8/6 closed.
    # After 12/7 the 2 is dead (7/5 and 8/6 closed), but 12/10 8/3 and 8/3/1 play both dice,
    # so 12/7 must never be offered as a first move.
    p = pos_of({12: 1, 8: 1}, {6: 2, 5: 2, 24: 2})
    assert_plays(p, (5, 2), ["12/10 8/3", "8/1"])
    assert move_set(p.legal_moves((5, 2))) == {(12, 10), (8, 3)}
    assert move_set(p.legal_moves((5, 2), [(12, 10)])) == {(8, 3)}        # 10/5 closed
    assert move_set(p.legal_moves((5, 2), [(8, 3)])) == {(12, 10), (3, 1)}
    assert p.legal_moves((5, 2), [(8, 3), (3, 1)]) == []
    with pytest.raises(bg.IllegalPlayError):
        p.legal_moves((5, 2), [(12, 7)])
    with pytest.raises(bg.IllegalPlayError):
        p.play([(12, 7)], dice=(5, 2))


def test_rules_4_3_forced_order_offered_move_by_move():
    # RULES 4.3: same position as 4.1 (13 and 9 with 6-2 against 7 and 3): the only first
    # move is 13/11, then 11/5, then nothing.
    p = pos_of({13: 1, 9: 1}, {7: 2, 3: 2})
    assert move_set(p.legal_moves((6, 2))) == {(13, 11)}
    assert move_set(p.legal_moves((6, 2), [(13, 11)])) == {(11, 5)}
    assert p.legal_moves((6, 2), [(13, 11), (11, 5)]) == []
    with pytest.raises(bg.IllegalPlayError):
        p.legal_moves((6, 2), [(9, 7)])                  # onto a closed point


def test_rules_4_3_opening_3_1_every_first_move_offered():
    # RULES 4.3: from the opening, 3-1: every single 3 (24/21, 13/10, 8/5, 6/3) and every
    # single 1 (24/23, 8/7, 6/5; 13/12 is closed) leaves the other die playable.
    p = Position.initial()
    assert move_set(p.legal_moves((3, 1))) == {
        (24, 21), (13, 10), (8, 5), (6, 3), (24, 23), (8, 7), (6, 5)}
    assert move_set(p.legal_moves((3, 1), [(8, 5)])) == {
        (24, 23), (8, 7), (6, 5), (5, 4)}          # 13/12 closed; 5/4 with the moved checker


def test_rules_4_4_closed_board_with_checker_on_bar():
    # RULES 4.4 / 5.4: opponent holds all of 19..24; one of ours on the bar. No roll enters,
    # and nothing else may move (RULES 5.1): one empty play, result = the position itself.
    p = pos_of({13: 5, 8: 3, 6: 5}, {19: 2, 20: 2, 21: 2, 22: 2, 23: 2, 24: 2}, bar=1)
    for dice in ALL_21:
        assert_no_move(p, dice)
        succ = p.successors(dice)
        assert succ.shape == (1, 26)
        assert tuple(int(x) for x in succ[0]) == arr(p)


def test_rules_4_4_no_legal_move_on_the_board():
    # RULES 4.4: a lone 13 with 6-5, opponent holds 7 and 8: both dice forfeited.
    p = pos_of({13: 1}, {8: 2, 7: 2, 24: 2})
    assert_no_move(p, (6, 5))


def test_rules_4_5_only_legal_play_must_be_taken():
    # RULES 4.5: a lone 10 with 6-1 against a point on 4: only 10/9/3 (see 4.2).
    p = pos_of({10: 1}, {4: 2, 24: 2})
    expected = tuple(board({3: 1}, {4: 2, 24: 2}))
    play = the_only_play(p, (6, 1))
    assert arr(p.play(play)) == expected
    assert arr(p.play([(10, 9), (9, 3)], dice=(6, 1))) == expected
    assert arr(p.play([(10, 9), (9, 3)])) == expected
    for bad in ([(10, 9)], [(10, 4)], [(10, 3)], [(10, 9), (9, 8)], []):
        with pytest.raises(bg.IllegalPlayError):
            p.play(bad, dice=(6, 1))


# ---------------------------------------------------------------------------------------------
# RULES 5: the bar
# ---------------------------------------------------------------------------------------------

def test_rules_5_1_bar_checker_enters_before_any_other_move():
    # RULES 5.1: one on the bar and one on 13, 6-5, entry points 19 and 20 open.
    # bar/19 then 19/14 or 13/8; bar/20 then 20/14 or 13/7. bar/19/14 = bar/20/14.
    # Nothing like 13/2 (13 moving both dice) is allowed.
    p = pos_of({13: 1}, {1: 2}, bar=1)
    assert_plays(p, (6, 5), ["bar/14", "bar/19 13/8", "bar/20 13/7"])
    for play in p.legal_plays((6, 5)):
        assert 25 in {f for f, _ in moves_of(play)}


def test_rules_5_1_two_on_bar_with_doubles():
    # RULES 5.1: two on the bar and one on 13, 3-3. Both enter first (bar/22(2)); the last two
    # 3s go to {22,22,13} as: one 22 twice (22/16), both 22s once (= bar/19(2)),
    # a 22 and the 13 (22/19 13/10), the 13 twice (13/7) -> 4 plays.
    p = pos_of({13: 1}, {1: 2}, bar=2)
    assert_plays(p, (3, 3), ["bar/22(2) 22/16", "bar/19(2)", "bar/22(2) 22/19 13/10",
                             "bar/22(2) 13/7"])


@pytest.mark.parametrize("dice", NON_DOUBLES)
def test_rules_5_2_entry_point_is_25_minus_die(dice):
    # RULES 5.2: two on the bar, everything open: the two checkers must use one die each,
    # entering on 25 - d: one play, moves {(25, 25-d1), (25, 25-d2)}.
    d1, d2 = dice
    p = pos_of({}, {12: 2}, bar=2)
    play = the_only_play(p, dice)
    assert arr(play.result) == tuple(board({25 - d1: 1, 25 - d2: 1}, {12: 2}))
    assert move_set(moves_of(play)) == {(25, 25 - d1), (25, 25 - d2)}


@pytest.mark.parametrize("d", range(1, 7))
def test_rules_5_2_entry_with_doubles(d):
    # RULES 5.2 / 3.2: two on the bar with d-d: both enter on 25-d, then the last two moves go
    # to one of them (-> 25-d and 25-3d) or one each (-> two on 25-2d). 25-3d >= 7 for every
    # d, and none of these points is 12 (the only opposing point). 2 plays.
    p = pos_of({}, {12: 2}, bar=2)
    e, x2, x3 = 25 - d, 25 - 2 * d, 25 - 3 * d
    assert result_set(p, (d, d)) == {tuple(board({e: 1, x3: 1}, {12: 2})),
                                     tuple(board({x2: 2}, {12: 2}))}


def test_rules_5_2_entering_hits_a_blot():
    # RULES 5.2: one on the bar, 3-1, opposing blot on 22 (entry point of the 3).
    # bar/22*/21 hits, bar/24/21 does not -> 2 plays.
    p = pos_of({}, {22: 1, 19: 2, 12: 3}, bar=1)
    assert_plays(p, (3, 1), ["bar/22*/21", "bar/24/21"])


def test_rules_5_2_cannot_enter_on_closed_point():
    # RULES 5.2: one on the bar and two on 13, 6-4, opponent holds 19 (the 6's entry point).
    # Only bar/21 enters; then the 6: 21/15 or 13/7 -> 2 plays.
    p = pos_of({13: 2}, {19: 2, 20: 2}, bar=1)
    assert_plays(p, (6, 4), ["bar/15", "bar/21 13/7"])


def test_rules_5_3_dice_never_summed_to_enter():
    # RULES 5.3: 2-1 with 23 and 24 closed: 22 (the sum 3) is open, but entry needs the exact
    # number of one die. Nothing enters, and the 13 may not move (RULES 5.1).
    p = pos_of({13: 1}, {24: 2, 23: 2}, bar=1)
    assert_no_move(p, (2, 1))


def test_rules_5_4_both_entry_points_closed_loses_the_turn():
    # RULES 5.4: 6-5 with 19 and 20 closed: no entry, and 13/7, 8/3 etc. are not allowed.
    p = pos_of({13: 3, 8: 3}, {19: 2, 20: 2}, bar=1)
    assert_no_move(p, (6, 5))


def test_rules_5_4_board_with_one_open_point():
    # RULES 5.4: 19..23 closed, a blot on 24. With a 1 the checker enters (hitting) and the
    # other die is then free: 2-1 -> bar/24* then 24/22 closed, 6/4: one play. Without a 1
    # (6-2) the turn is lost.
    p = pos_of({6: 2}, {19: 2, 20: 2, 21: 2, 22: 2, 23: 2, 24: 1}, bar=1)
    assert_plays(p, (2, 1), ["bar/24* 6/4"])
    assert_no_move(p, (6, 2))


def test_rules_5_5_two_on_bar_only_one_can_enter():
    # RULES 5.5: two on the bar, 6-3, 19 closed, 22 open: bar/22 and the 6 is lost (the other
    # checker still on the bar forbids 22/16 and 13/7). One play of one move.
    p = pos_of({13: 1}, {19: 2, 1: 2}, bar=2)
    play = the_only_play(p, (6, 3))
    assert moves_of(play) == ((25, 22),)
    assert arr(play.result) == tuple(board({22: 1, 13: 1}, {19: 2, 1: 2}, bar=1))


def test_rules_5_5_three_on_bar_two_enter():
    # RULES 5.5: three on the bar, 4-2, all open: bar/21 bar/23, the third stays on the bar.
    p = pos_of({13: 1}, {12: 2}, bar=3)
    assert_plays(p, (4, 2), ["bar/21 bar/23"])


def test_rules_5_5_rest_of_roll_played_by_any_checker_once_in():
    # RULES 5.5: one on the bar and one on 8, 4-3, 22 closed. bar/21 with the 4; the 3 may
    # then be played by the checker just entered (21/18) or by the 8 (8/5) -> 2 plays.
    p = pos_of({8: 1}, {22: 2}, bar=1)
    assert_plays(p, (4, 3), ["bar/18", "bar/21 8/5"])


def test_rules_5_5_doubles_rest_played_after_entering():
    # RULES 5.5: two on the bar and one on 8, 5-5: bar/20(2), then two 5s among {20,20,8}:
    # 20/10, 20/15(2), 20/15 8/3 (8/3/off is not possible: not all home) -> 3 plays.
    p = pos_of({8: 1}, {12: 2}, bar=2)
    assert_plays(p, (5, 5), ["bar/20(2) 20/10", "bar/15(2)", "bar/20(2) 20/15 8/3"])


# ---------------------------------------------------------------------------------------------
# RULES 6: bearing off
# ---------------------------------------------------------------------------------------------

def test_rules_6_1_no_bear_off_with_a_checker_outside():
    # RULES 6.1: own 9 and 1, 2-1. 1/off is forbidden while 9 is outside, so the 9 plays both:
    # 9/8/6 = 9/7/6. One play, no checker borne off.
    p = pos_of({9: 1, 1: 1}, {24: 2})
    assert_plays(p, (2, 1), ["9/6"])


def test_rules_6_1_no_bear_off_with_a_checker_on_the_bar():
    # RULES 6.1: one on the bar, two on 1, 6-5. Enter on 19 or 20; 1/off is forbidden, so the
    # entered checker takes the other die: bar/19/14 = bar/20/14. One play.
    p = pos_of({1: 2}, {12: 2}, bar=1)
    assert_plays(p, (6, 5), ["bar/14"])


def test_rules_6_1_bear_off_becomes_legal_mid_turn():
    # RULES 6.1: own 8 and 4, 5-3.
    # 8/3 (5) brings the last checker home, then the 3 may bear off 3/off (-> 8 gone, 4 left)
    # or play 4/1 (-> {3,1}). 8/5 (3) then 5/off -> same as 8/off. 4/1 first then 8/3.
    # The 4 cannot bear off first (8 still outside). 2 plays.
    p = pos_of({8: 1, 4: 1}, {24: 2})
    assert_plays(p, (5, 3), ["8/off", "8/3 4/1"])


def test_rules_6_1_bear_off_mid_turn_with_doubles():
    # RULES 6.1: own 7 and 2, 2-2. 2/off is forbidden at first (7 outside), so 7/5 comes first;
    # now all are home and the other three 2s come from {5,2}: 5/3, 3/1 and 2/off in any
    # order. (The 7 checker cannot take a 4th step 1/off: the checker on 2 is higher, RULES
    # 6.4, and the 2 can only go off.) One play: one checker borne off, one left on 1.
    p = pos_of({7: 1, 2: 1}, {24: 2})
    play = the_only_play(p, (2, 2))
    assert arr(play.result) == tuple(board({1: 1}, {24: 2}))
    assert sorted(moves_of(play)) == [(2, 0), (3, 1), (5, 3), (7, 5)]
    assert moves_of(play)[0] == (7, 5)


def test_rules_6_1_doubles_bear_off_after_coming_home():
    # RULES 6.1: own 8, 3, 3 with 5-5. The 3s cannot bear off while 8 is outside, and 3/-2 is
    # not a move, so 8/3 first; then all home and the three other 5s each bear off from the
    # highest point (3, RULES 6.4): 3/off(3). One play: everything off.
    p = pos_of({8: 1, 3: 2}, {24: 2})
    play = the_only_play(p, (5, 5))
    assert arr(play.result) == tuple(board({}, {24: 2}))
    assert move_set(moves_of(play)) == {(8, 3), (3, 0)}
    assert len(moves_of(play)) == 4


def test_rules_6_2_die_bears_off_from_its_own_point():
    # RULES 6.2: own 5 and 3, opponent holds 2 and 1 (so 5/2 and 3/... are blocked). 5-3:
    # 5/off with the 5, 3/off with the 3 (5/2 is closed; the 5 cannot take the 3 off while 5
    # is occupied). One play, both checkers off.
    p = pos_of({5: 1, 3: 1}, {2: 2, 1: 2})
    play = the_only_play(p, (5, 3))
    assert move_set(moves_of(play)) == {(5, 0), (3, 0)}
    assert arr(play.result) == tuple(board({}, {2: 2, 1: 2}))


def test_rules_6_3_empty_point_means_move_from_a_higher_point():
    # RULES 6.3: own 6 and 3, 5-4. Points 5 and 4 are empty and 6 is higher, so the first die
    # must move the 6 (6/1 or 6/2); then the other die is higher than the highest point (3)
    # and bears it off (RULES 6.4). 3/off first is not allowed. 2 plays.
    p = pos_of({6: 1, 3: 1}, {24: 2})
    assert_plays(p, (5, 4), ["6/1 3/off", "6/2 3/off"])
    assert move_set(p.legal_moves((5, 4))) == {(6, 1), (6, 2)}


def test_rules_6_3_six_and_four_inside_home():
    # RULES 6.3/6.7: two on 6, 4-3: 4 and 3 are empty and 6 higher, so both dice move
    # checkers down: 6/2 6/3 (6/2/... can not continue with a 3: 6 is still higher). One play,
    # nothing borne off.
    p = pos_of({6: 2}, {24: 2})
    assert_plays(p, (4, 3), ["6/2 6/3"])


def test_rules_6_4_higher_die_bears_off_from_highest_point():
    # RULES 6.4: own 3 and 2 with 6-5: each die is higher than the highest point: 3/off 2/off.
    p = pos_of({3: 1, 2: 1}, {24: 2})
    assert_plays(p, (6, 5), ["3/off 2/off"])


def test_rules_6_4_larger_die_from_highest_point_only_when_none_higher():
    # RULES 6.4: own 5 and 2 with 6-3. The 6 bears off the 5 (highest point), never the 2.
    # The 3 (point 3 empty, 5 higher) must play 5/2, never 2/off.
    # 5/off then 2/off -> all off; 5/2 then 2/off (6) -> one left on 2. 2 plays.
    p = pos_of({5: 1, 2: 1}, {24: 2})
    assert_plays(p, (6, 3), ["5/off 2/off", "5/2/off"])
    assert move_set(p.legal_moves((6, 3))) == {(5, 0), (5, 2)}


def test_rules_6_4_blocked_higher_checker_still_prevents_bear_off():
    # RULES 6.4: own 6 and 2 with 5-4, opponent holds 1. The 5 cannot be played at first:
    # 6/1 is closed and the 5 may not take the 2 off while 6 is occupied. The 4: 6/2. Then
    # the 5 is higher than the highest point (2): 2/off. One play: 6/2 2/off.
    p = pos_of({6: 1, 2: 1}, {1: 2, 24: 2})
    assert_plays(p, (5, 4), ["6/2 2/off"])


def test_rules_6_4_small_die_moves_a_higher_checker_first():
    # RULES 6.4: own 4 and 1 with 5-2. 5 > 4: 4/off, then 2 > 1: 1/off -> all off.
    # 2 first: point 2 empty and 4 higher -> 4/2, then 5 > 2: 2/off -> one left on 1.
    p = pos_of({4: 1, 1: 1}, {24: 2})
    assert_plays(p, (5, 2), ["4/off 1/off", "4/2/off"])


def test_rules_6_5_bearing_off_is_not_compulsory():
    # RULES 6.5 (the rules' own example): every home point holds two or more, 6-4.
    # The 6 must be 6/off (no other 6). The 4: 4/off, 6/2 or 5/1 (3/, 2/, 1/ cannot: higher
    # points are occupied). 3 plays.
    p = pos_of({6: 2, 5: 2, 4: 2, 3: 3, 2: 3, 1: 3}, {24: 2})
    assert_plays(p, (6, 4), ["6/off 4/off", "6/off 6/2", "6/off 5/1"])
    assert move_set(p.legal_moves((6, 4))) == {(6, 0), (4, 0), (6, 2), (5, 1)}


def test_rules_6_6_hit_checker_must_come_home_before_bearing_off():
    # RULES 6.6: bearing off with one checker on the bar, 6-5. Enter on 19 (6) or 20 (5).
    # Nothing may bear off (a checker is outside). After bar/19 the 5: 19/14 or 6/1;
    # after bar/20 the 6: 20/14 only (every home 6 would be a bear-off). 2 plays.
    p = pos_of({6: 3, 5: 3, 4: 3, 3: 2, 2: 2}, {12: 2}, bar=1)
    assert_plays(p, (6, 5), ["bar/14", "bar/19 6/1"])
    for play in p.legal_plays((6, 5)):
        assert all(t != 0 for _, t in moves_of(play))


def test_rules_6_6_reentered_checker_runs_home_with_doubles():
    # RULES 6.6: one on the bar, three on 2, 6-6. bar/19/13/7/1: the home checkers may not bear
    # off until the entered checker is home, which takes all four 6s. One play.
    p = pos_of({2: 3}, {12: 2}, bar=1)
    assert_plays(p, (6, 6), ["bar/1"])
    assert len(moves_of(the_only_play(p, (6, 6)))) == 4


def test_rules_6_6_hit_during_bear_off():
    # RULES 6.6 / 3.4: bearing off from 5 and 3 with an opposing blot on 2, 3-1.
    # 3/off 5/4 (either order); 5/2* then 3/2 (= 3/2* 5/2) or 2/1 (5/2*/1);
    # 5/4/1 without hitting. 4 plays, two of them hit.
    p = pos_of({5: 1, 3: 1}, {2: 1, 24: 2})
    assert_plays(p, (3, 1), ["3/off 5/4", "5/2* 3/2", "5/2*/1", "5/1"])


def test_rules_6_7_die_played_for_full_value():
    # RULES 6.7 / 6.3: own 6 and 1 with 4-4. The 4: point 4 empty, 6 higher -> 6/2 (the 1 may
    # not go off with a 4 while 6 is occupied). Then 4 > 2: 2/off; then 4 > 1: 1/off. All off
    # after three 4s (the fourth cannot be played: no checker left). One play of three moves.
    p = pos_of({6: 1, 1: 1}, {24: 2})
    play = the_only_play(p, (4, 4))
    assert sorted(moves_of(play)) == [(1, 0), (2, 0), (6, 2)]
    assert arr(play.result) == tuple(board({}, {24: 2}))


def test_rules_6_7_exact_bear_off_or_full_move_inside():
    # RULES 6.7 / 6.2 / 6.5: own 6, 5 and 1 with 6-1. The 6 is 6/off (exact); the 1 is 6/5,
    # 5/4 or 1/off (exact). 6/off 5/4 -> {4,1}; 6/off 1/off -> {5}; 6/5 then the 6 (now higher
    # than the highest point 5) 5/off -> {5,1}; 5/4 6/off -> {4,1}; 1/off 6/off -> {5}.
    # 3 plays.
    p = pos_of({6: 1, 5: 1, 1: 1}, {24: 2})
    assert_plays(p, (6, 1), ["6/off 5/4", "6/off 1/off", "6/5/off"])


# ---------------------------------------------------------------------------------------------
# RULES 7: end of game and scoring
# ---------------------------------------------------------------------------------------------

def test_rules_7_1_no_outcome_while_both_sides_have_checkers():
    # RULES 7.1: the game goes on while both sides have checkers, even just one each.
    assert Position.initial().outcome() is None
    assert pos_of({1: 1}, {24: 1}).outcome() is None
    assert pos_of({}, {24: 1}, bar=1).outcome() is None     # our last checker on the bar


def test_rules_7_1_side_with_no_checkers_wins():
    # RULES 7.1: the side with no checkers left has borne off all 15 and wins.
    won = pos_of({}, {19: 5, 20: 5, 21: 4})          # opponent 14 left, 1 off -> single
    assert outcome_tuple(won) == (0, "single", 1)
    assert outcome_tuple(won.swapped()) == (1, "single", 1)
    lost = pos_of({1: 5, 2: 5, 3: 4}, {})              # we still have 14: opponent won
    assert outcome_tuple(lost) == (1, "single", 1)


def test_rules_7_1_game_over_error_on_finished_position():
    # RULES 7.1: no plays once a side has borne off everything.
    for p in (pos_of({}, {19: 5}), pos_of({6: 3}, {})):
        for dice in [(6, 5), (3, 3)]:
            with pytest.raises(bg.GameOverError):
                p.legal_plays(dice)


def test_rules_7_2_single_game():
    # RULES 7.2: the loser has borne off at least one: 1 point, even with a checker on the bar
    # or in the winner's home board (backgammon needs none off).
    assert outcome_tuple(pos_of({}, {19: 14})) == (0, "single", 1)
    assert outcome_tuple(pos_of({}, {19: 13}, opp_bar=1)) == (0, "single", 1)
    assert outcome_tuple(pos_of({}, {1: 1, 19: 12})) == (0, "single", 1)
    assert outcome_tuple(pos_of({1: 14}, {})) == (1, "single", 1)
    assert outcome_tuple(pos_of({24: 1, 1: 13}, {})) == (1, "single", 1)


def test_rules_7_3_gammon():
    # RULES 7.3: the loser has borne off none (15 on the board), none on the bar or in the
    # winner's home board: 2 points.
    assert outcome_tuple(pos_of({}, {19: 15})) == (0, "gammon", 2)
    assert outcome_tuple(pos_of({}, {12: 5, 17: 3, 19: 7})) == (0, "gammon", 2)
    assert outcome_tuple(pos_of({}, {7: 1, 19: 14})) == (0, "gammon", 2)   # 7: just outside
    assert outcome_tuple(pos_of({1: 15}, {})) == (1, "gammon", 2)
    assert outcome_tuple(pos_of({18: 1, 1: 14}, {})) == (1, "gammon", 2)


def test_rules_7_4_backgammon_checker_on_bar():
    # RULES 7.4: none off and a checker on the bar: 3 points.
    assert outcome_tuple(pos_of({}, {19: 14}, opp_bar=1)) == (0, "backgammon", 3)
    assert outcome_tuple(pos_of({1: 14}, {}, bar=1)) == (1, "backgammon", 3)


def test_rules_7_4_backgammon_checker_in_winners_home_board():
    # RULES 7.4: none off and a checker in the winner's home board (points 1-6 of the winner:
    # our 1-6 when we won, our 19-24 when the opponent won): 3 points.
    assert outcome_tuple(pos_of({}, {6: 1, 19: 14})) == (0, "backgammon", 3)
    assert outcome_tuple(pos_of({}, {1: 2, 19: 13})) == (0, "backgammon", 3)
    assert outcome_tuple(pos_of({19: 1, 1: 14}, {})) == (1, "backgammon", 3)
    assert outcome_tuple(pos_of({24: 2, 13: 13}, {})) == (1, "backgammon", 3)


def test_rules_7_4_last_checker_play_wins_a_backgammon():
    # RULES 7.4: after the forced 2/1*/off of test_rules_4_1_last_checker..., the opponent
    # (15 checkers, none off) has one on the bar: a backgammon.
    p = pos_of({2: 1}, {1: 1, 20: 5, 21: 5, 22: 4})
    assert p.outcome() is None
    play = the_only_play(p, (4, 1))
    assert outcome_tuple(play.result) == (0, "backgammon", 3)


# ---------------------------------------------------------------------------------------------
# The opening position
# ---------------------------------------------------------------------------------------------

OPENING_COUNTS = {(2, 1): 15, (3, 1): 16, (6, 5): 7, (1, 1): 42, (2, 2): 75, (3, 3): 73,
                  (4, 4): 52, (5, 5): 4, (6, 6): 11}


@pytest.mark.parametrize("dice", sorted(OPENING_COUNTS))
def test_opening_play_counts(dice):
    p = Position.initial()
    assert arr(p) == tuple(INITIAL)
    assert len(p.legal_plays(dice)) == OPENING_COUNTS[dice]
    assert len(result_set(p, dice)) == OPENING_COUNTS[dice]
    assert len(p.legal_plays(dice[::-1])) == OPENING_COUNTS[dice]


def test_opening_all_21_rolls_sum():
    p = Position.initial()
    counts = {d: len(p.legal_plays(d)) for d in ALL_21}
    assert sum(counts.values()) == 447
    assert sum(counts[d] for d in NON_DOUBLES) == 190


def test_opening_6_5_exact_plays():
    # From the opening: 6s are 24/18, 13/7, 8/2 (6/off illegal); 5s are 13/8, 8/3 (24/19 and
    # 6/1 closed). Combinations: 24/18/13, 24/18 13/8, 24/18 8/3, 13/7/2 (= 13/8/2), 13/7 13/8,
    # 13/7 8/3, 8/2 8/3 -> 7 plays; 24/13 only via 18 (19 is closed).
    p = Position.initial()
    assert_plays(p, (6, 5), ["24/13", "24/18 13/8", "24/18 8/3", "13/2", "13/7 13/8",
                             "13/7 8/3", "8/2 8/3"])
    run = [pl for pl in p.legal_plays((6, 5)) if arr(pl.result)[24] == 1 and arr(pl.result)[13] == 6]
    assert len(run) == 1 and moves_of(run[0]) == ((24, 18), (18, 13))


def test_opening_3_1_makes_the_5_point():
    # The standard 3-1 (8/5 6/5) is among the 16 plays and play() accepts it.
    p = Position.initial()
    r = p.play([(8, 5), (6, 5)], dice=(3, 1))
    exp = list(INITIAL)
    exp[8], exp[6], exp[5] = 2, 4, 2
    assert arr(r) == tuple(exp)
    assert tuple(exp) in result_set(p, (3, 1))


def test_incomplete_play_is_rejected():
    # RULES 4.1: from the opening with 3-1, 8/5 alone leaves the 1 unplayed: illegal, with or
    # without the dice given (no roll makes 8/5 alone complete: any 1..6 is playable after it).
    p = Position.initial()
    with pytest.raises(bg.IllegalPlayError):
        p.play([(8, 5)], dice=(3, 1))
    with pytest.raises(bg.IllegalPlayError):
        p.play([(8, 5)])
    with pytest.raises(bg.IllegalPlayError):
        p.play([(8, 5), (6, 5), (5, 4)], dice=(3, 1))       # one step too many
