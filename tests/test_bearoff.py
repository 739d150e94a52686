"""The one-sided bear-off database (backgammon.bearoff, src/bgcore/bearoff.h).

Expected answers are worked by hand (RULES 6.2-6.4) or come from the slow
implementation below, which shares nothing with the core: its own one-sided
move generation, exact fractions, and the database's documented choice of
play (least expected turns; ties to the fewest checkers on points >= 1, then
>= 2, ..., then >= 6).
"""

from __future__ import annotations

import doctest
import subprocess
import sys
from fractions import Fraction
from functools import lru_cache

import numpy as np
import pytest

import backgammon as bg
from backgammon import _bgcore, bearoff

ROLLS = [(a, b) for a in range(1, 7) for b in range(1, a + 1)]   # 21 rolls, a >= b


def weight(roll):
    return Fraction(1 if roll[0] == roll[1] else 2, 36)


def board(mine, theirs):
    """A 26-value board: `mine` on my points 1..6, `theirs` on the opponent's
    points 1..6 (our 24..19)."""
    b = [0] * 26
    for i, n in enumerate(mine):
        b[1 + i] = n
    for i, n in enumerate(theirs):
        b[24 - i] = -n
    return b


# ----------------------------------------------------------------------
# The slow implementation

def steps(home, d):
    """Homes after one legal step of die d (RULES 6.2-6.4): bear off from
    point d; or move a checker from a higher point; or, with no checker on d
    or above, bear off from the highest point."""
    out = set()
    if home[d - 1]:
        h = list(home)
        h[d - 1] -= 1
        out.add(tuple(h))
    for p in range(d + 1, 7):
        if home[p - 1]:
            h = list(home)
            h[p - 1] -= 1
            h[p - d - 1] += 1
            out.add(tuple(h))
    if not any(home[d - 1:]):
        top = max(p for p in range(1, 7) if home[p - 1])
        h = list(home)
        h[top - 1] -= 1
        out.add(tuple(h))
    return out


def plays(home, roll):
    """Every result of a roll.  A home board blocks nothing, so a die can
    always be played while checkers remain: every order of the dice is a
    whole play (RULES 4.1) until the side is off."""
    a, b = roll
    seqs = [(a,) * 4] if a == b else [(a, b), (b, a)]
    results = set()
    for seq in seqs:
        level = {tuple(home)}
        for d in seq:
            level = {r for h in level for r in (steps(h, d) if sum(h) else {h})}
        results |= level
    return results


def order_key(home):
    """Checkers on points >= 1, >= 2, ..., >= 6: the database's tie order."""
    return tuple(sum(home[p:]) for p in range(6))


def best(candidates, value):
    low = min(value(h) for h in candidates)
    return min((h for h in candidates if value(h) == low), key=order_key)


@lru_cache(maxsize=None)
def slow_mean(home):
    if not sum(home):
        return Fraction(0)
    return 1 + sum(weight(r) * min(slow_mean(h) for h in plays(home, r)) for r in ROLLS)


@lru_cache(maxsize=None)
def slow_off(home):
    """Exact distribution of turns to bear off all, as a tuple of fractions."""
    dist = [Fraction(0)] * 40
    if not sum(home):
        dist[0] = Fraction(1)
        return tuple(dist)
    for r in ROLLS:
        nxt = slow_off(best(plays(home, r), slow_mean))
        for t in range(39):
            dist[t + 1] += weight(r) * nxt[t]
    return tuple(dist)


def first_value(n):
    return lambda h: Fraction(0) if sum(h) < n else slow_mean_first(h)


@lru_cache(maxsize=None)
def slow_mean_first(home):
    if not sum(home):
        return Fraction(0)
    value = first_value(sum(home))
    return 1 + sum(weight(r) * min(value(h) for h in plays(home, r)) for r in ROLLS)


@lru_cache(maxsize=None)
def slow_first(home):
    dist = [Fraction(0)] * 40
    if not sum(home):
        dist[0] = Fraction(1)
        return tuple(dist)
    for r in ROLLS:
        h = best(plays(home, r), first_value(sum(home)))
        if sum(h) < sum(home):
            dist[1] += weight(r)
        else:
            for t, p in enumerate(slow_first(h)[:39]):
                dist[t + 1] += weight(r) * p
    return tuple(dist)


@lru_cache(maxsize=None)
def slow_win(me, opp):
    """P(the side on roll with `me` wins the race against `opp`), both
    playing the database's play, by the two-sided recursion itself."""
    total = Fraction(0)
    for r in ROLLS:
        h = best(plays(me, r), slow_mean)
        total += weight(r) * (1 if not sum(h) else 1 - slow_win(opp, h))
    return total


def homes_upto(n, points=6):
    """Every home of at most n checkers, as 6-tuples."""
    if points == 0:
        return [()]
    return [(k,) + rest for k in range(n + 1) for rest in homes_upto(n - k, points - 1)]


# ----------------------------------------------------------------------
# Hand-worked cases

def exact(values, expected):
    np.testing.assert_allclose(values[:len(expected)], [float(x) for x in expected], atol=2e-7)
    assert not values[len(expected):].any()


def test_one_checker_on_the_1_point_is_off_in_one_turn():
    exact(bearoff.turns([1, 0, 0, 0, 0, 0]), [0, 1])
    assert bearoff.expected_turns([1, 0, 0, 0, 0, 0]) == 1.0


def test_no_checkers_is_zero_turns():
    exact(bearoff.turns([0] * 6), [1])
    exact(bearoff.turns([0] * 6, first=True), [1])
    assert bearoff.expected_turns([0] * 6) == 0.0


def test_one_checker_on_the_6_point():
    # One turn: every non-double totalling >= 6 (6-x: 5, 5-1..5-4: 4, 4-2, 4-3:
    # 2, so 22 of 36) and the doubles 2-2 up (8 pips and more): 27/36.  1-1 and
    # the other 8 leave it on the 1..5-point, from where any roll takes it off.
    exact(bearoff.turns([0, 0, 0, 0, 0, 1]), [0, Fraction(27, 36), Fraction(9, 36)])
    assert bearoff.expected_turns([0, 0, 0, 0, 0, 1]) == pytest.approx(1.25)


def test_two_checkers_on_the_2_point():
    # Both come off unless a 1 goes with a higher die (2-1 .. 6-1, 10 of 36):
    # the 1 can move 2/1 but never bear off from the 2 (RULES 6.2), so one
    # checker stays.  1-1 plays 2/1/off twice; other rolls take one each.
    exact(bearoff.turns([0, 2, 0, 0, 0, 0]), [0, Fraction(26, 36), Fraction(10, 36)])


def test_two_checkers_on_the_6_point_in_one_turn():
    # Two checkers need 12 pips and one die each at least: only 3-3, 4-4, 5-5, 6-6.
    off = bearoff.turns([0, 0, 0, 0, 0, 2])
    assert off[1] == pytest.approx(4 / 36, abs=1e-7)
    assert off[0] == 0
    # and the rest exactly as the slow implementation
    np.testing.assert_allclose(off, [float(x) for x in slow_off((0, 0, 0, 0, 0, 2))[:32]], atol=2e-7)


def test_first_checker_off_from_fifteen_on_the_6_point():
    # In one turn: any 6 (11 rolls), 5-1 and 4-2 (6/1/off, 6/2/off: 4), 3-3, 2-2;
    # not 1-1 (four pips), 4-4 (6/2 but a 4 may not bear off from the 2 while
    # checkers stand on the 6, RULES 6.3) nor 5-5 (the same from the 1).
    first = bearoff.turns([0, 0, 0, 0, 0, 15], first=True)
    assert first[1] == pytest.approx(17 / 36, abs=1e-7)


def test_fifteen_on_the_5_point_can_wait_ten_turns_for_a_first_checker():
    # 4-2 must play 5/1 5/3 or 5/1 3/1, and a 2 never bears off from the 1
    # while checkers stand higher (RULES 6.3): 4-2 after 4-2 takes none off.
    first = bearoff.turns([0, 0, 0, 0, 15, 0], first=True)
    assert first[10] > 0 and not first[11:].any()


def test_the_longest_bear_off_takes_30_turns():
    off, first, _, _ = _bgcore.bearoff_tables()
    longest = int(np.nonzero(off.any(axis=0))[0].max())
    assert longest == 30                      # 2-1 every turn (bearoff.h)
    assert not off[:, 31].any() and not first[:, 31].any()


def test_moving_a_checker_up_can_save_turns():
    # Three on the 1-point and one on the 3, rolling 2-1: the 2 may not bear
    # off (no checker on the 2, one stands higher, RULES 6.3) and must play
    # 3/1, so only one checker comes off; with one of them moved up to the 2,
    # 2-1 takes two off.  Expected turns are not monotone in the pips.
    assert bearoff.expected_turns([2, 1, 1, 0, 0, 0]) < bearoff.expected_turns([3, 0, 1, 0, 0, 0])
    assert slow_mean((2, 1, 1, 0, 0, 0)) < slow_mean((3, 0, 1, 0, 0, 0))


# ----------------------------------------------------------------------
# Against the slow implementation, every position of up to 5 checkers

SMALL = homes_upto(5)


def test_every_small_position_matches_the_slow_implementation():
    off, first, mean, mean_first = _bgcore.bearoff_tables()
    assert len(SMALL) == 462                  # C(11, 6)
    for h in SMALL:
        i = bearoff.index(h)
        np.testing.assert_allclose(off[i], [float(x) for x in slow_off(h)[:32]], atol=3e-7, err_msg=str(h))
        np.testing.assert_allclose(first[i], [float(x) for x in slow_first(h)[:32]], atol=3e-7,
                                   err_msg=str(h))
        assert mean[i] == pytest.approx(float(slow_mean(h)), rel=1e-6), h
        assert mean_first[i] == pytest.approx(float(slow_mean_first(h)), rel=1e-6), h
        assert not any(slow_off(h)[32:]) and not any(slow_first(h)[32:])


def test_two_sided_win_matches_the_two_sided_recursion():
    rng = np.random.default_rng(7)
    small = homes_upto(3)[1:]
    for _ in range(60):
        me, opp = (small[k] for k in rng.integers(len(small), size=2))
        got = bearoff.probabilities(board(me, opp))
        assert got[0] == pytest.approx(float(slow_win(me, opp)), abs=3e-7), (me, opp)


# ----------------------------------------------------------------------
# The whole database

def test_distributions_sum_to_one_and_means_are_their_means():
    off, first, mean, mean_first = _bgcore.bearoff_tables()
    assert off.shape == first.shape == (bearoff.NPOS, bearoff.TURNS) == (54264, 32)
    assert (off >= 0).all() and (first >= 0).all()
    np.testing.assert_allclose(off.sum(axis=1, dtype=np.float64), 1, atol=1e-5)
    np.testing.assert_allclose(first.sum(axis=1, dtype=np.float64), 1, atol=1e-5)
    t = np.arange(32)
    np.testing.assert_allclose(off @ t, mean, rtol=1e-5)
    np.testing.assert_allclose(first @ t, mean_first, rtol=1e-5)
    # the first checker comes off no later, on average, than the last
    assert (mean_first <= mean + 1e-5).all()
    assert mean[-1] == pytest.approx(bearoff.expected_turns([0, 0, 0, 0, 0, 15]))


def test_adding_a_checker_never_saves_turns():
    off, first, mean, _ = _bgcore.bearoff_tables()
    homes = [_bgcore.bearoff_home(i) for i in range(bearoff.NPOS)]
    where = {h: i for i, h in enumerate(homes)}
    for i, h in enumerate(homes):
        if sum(h) < 15:
            for p in range(6):
                j = where[h[:p] + (h[p] + 1,) + h[p + 1:]]
                assert mean[j] >= mean[i] - 1e-6, (h, p)


def test_index_is_a_bijection_sorted_by_checkers_on_points_from_1_up():
    homes = homes_upto(15)
    indices = [bearoff.index(h) for h in homes]
    assert sorted(indices) == list(range(bearoff.NPOS))
    by_key = sorted(homes, key=order_key)
    assert [bearoff.index(h) for h in by_key] == list(range(bearoff.NPOS))
    assert all(_bgcore.bearoff_home(bearoff.index(h)) == h for h in homes[::97])
    assert bearoff.index([0] * 6) == 0 and bearoff.index([0, 0, 0, 0, 0, 15]) == 54263
    # fifteen checkers exactly at index >= C(20, 6) (the gammon test of bearoff.h)
    assert all((bearoff.index(h) >= 38760) == (sum(h) == 15) for h in homes)


# ----------------------------------------------------------------------
# The build against the move generator
#
# bg_bearoff_build chains single steps (bg_bearoff_steps) and keeps the best
# results of 1 to 3 steps of each die for every position, instead of calling
# bg_generate for each position and roll; bg_bearoff_build_reference still
# does that and takes each roll's best over all its plays at once.

def test_chained_steps_are_exactly_the_move_generators_plays():
    # every position and roll: d1 then d2 and d2 then d1, four steps of a double
    assert _bgcore._bearoff_check_steps() == 0


def test_the_build_equals_the_move_generators_build_bit_for_bit():
    new = _bgcore.bearoff_tables()
    ref = _bgcore._bearoff_reference_tables()
    for name, a, b in zip(("off", "first", "mean", "mean_first"), new, ref):
        assert a.dtype == b.dtype == np.float32 and a.shape == b.shape, name
        differ = (a.view(np.uint32) != b.view(np.uint32)).reshape(len(a), -1).any(axis=1)
        where = np.nonzero(differ)[0]
        assert where.size == 0, (name, [(int(i), _bgcore.bearoff_home(int(i))) for i in where[:10]])


# ----------------------------------------------------------------------
# Two-sided chances

def probs(me, opp):
    return [float(x) for x in bearoff.probabilities(board(me, opp))]


def test_won_in_one_roll():
    # two on the 1-point, or one on the 1 and one on the 2: any roll takes both off
    for me in ([2, 0, 0, 0, 0, 0], [1, 1, 0, 0, 0, 0]):
        assert probs(me, [0, 0, 0, 0, 0, 3]) == [1, 0, 0, 0, 0]    # 12 of its checkers are off
        assert probs(me, [0, 0, 0, 0, 0, 15]) == [1, 1, 0, 0, 0]   # none are: a gammon
    assert bearoff.equity(board([2, 0, 0, 0, 0, 0], [0, 0, 0, 0, 0, 15])) == 2.0


def test_the_roller_loses_to_one_checker_on_its_1_point():
    # The opponent is off on its first turn; 15 on my 6-point cannot be.  A
    # gammon unless my first roll takes a checker off: 17/36 (see above).
    assert probs([0, 0, 0, 0, 0, 15], [1, 0, 0, 0, 0, 0]) == pytest.approx([0, 0, 0, 19 / 36, 0], abs=1e-6)
    # 15 on the 1-point: a checker is off on the first roll, no gammon
    assert probs([15, 0, 0, 0, 0, 0], [1, 0, 0, 0, 0, 0]) == pytest.approx([0, 0, 0, 0, 0], abs=1e-6)


def test_gammon_against_fifteen_on_the_6_point():
    # One checker on my 6-point: off at once (27/36) or on my second turn
    # (9/36), before the opponent's 15 can be: always a win.  A gammon when
    # off at once, or on the second turn if the opponent's first roll took
    # none off (19/36).
    gammon = Fraction(27, 36) + Fraction(9, 36) * Fraction(19, 36)
    assert probs([0, 0, 0, 0, 0, 1], [0, 0, 0, 0, 0, 15]) == pytest.approx(
        [1, float(gammon), 0, 0, 0], abs=1e-6)
    # Against 15 on its 1-point (four turns at least) also a sure win, but its
    # first roll takes a checker off: a gammon only when I am off at once.
    assert probs([0, 0, 0, 0, 0, 1], [15, 0, 0, 0, 0, 0]) == pytest.approx([1, 27 / 36, 0, 0, 0], abs=1e-6)


def test_two_sided_identities_and_order():
    rng = np.random.default_rng(3)
    off, _, _, _ = _bgcore.bearoff_tables()
    homes = homes_upto(15)[1:]
    rows, pairs = [], []
    for _ in range(400):
        a, b = (homes[k] for k in rng.integers(len(homes), size=2))
        pairs.append((a, b))
        rows += [board(a, b), board(b, a)]
    p = bearoff.batch_probabilities(np.array(rows)).astype(np.float64)
    assert p.shape == (800, 5)
    win, wg, wb, lg, lb = p.T
    assert (win >= wg - 1e-7).all() and (wg >= 0).all() and (wb == 0).all()
    assert (1 - win >= lg - 1e-6).all() and (lg >= 0).all() and (lb == 0).all()
    for k, (a, b) in enumerate(pairs):
        # P(a wins on roll) + P(b wins on roll) = 1 + P(they need as many turns)
        tie = float(off[bearoff.index(a)] @ off[bearoff.index(b)])
        assert win[2 * k] + win[2 * k + 1] == pytest.approx(1 + tie, abs=1e-5)
        assert (wg[2 * k] > 0) <= (sum(b) == 15) and (lg[2 * k] > 0) <= (sum(a) == 15)
    # the same position on both sides: rolling first is an edge
    for h in homes[::501]:
        assert probs(h, h)[0] > 0.5


def test_single_equals_batch_and_equity_formula():
    b = board([0, 2, 3, 0, 1, 4], [3, 3, 3, 2, 2, 2])
    single = bearoff.probabilities(b)
    assert single.dtype == np.float32 and single.shape == (5,)
    np.testing.assert_array_equal(single, bearoff.batch_probabilities(np.array([b]))[0])
    assert bearoff.probabilities(bg.Position(b)).tolist() == single.tolist()
    w, wg, wb, lg, lb = (float(x) for x in single)
    assert bearoff.equity(b) == pytest.approx(2 * w - 1 + wg - lg + wb - lb)
    assert bearoff.OUTPUTS == ("win", "win_gammon", "win_backgammon", "lose_gammon", "lose_backgammon")


# ----------------------------------------------------------------------
# Where it applies, and errors

def test_applies():
    assert bearoff.applies(board([1, 0, 0, 0, 0, 0], [0, 0, 0, 0, 0, 1]))
    assert not bearoff.applies(bg.Position.initial())
    b = board([1, 0, 0, 0, 0, 0], [0, 0, 0, 0, 0, 1])
    for p, v in ((7, 1), (18, -1), (25, 1), (0, -1)):        # outside home, or on a bar
        c = list(b)
        c[p] = v
        assert not bearoff.applies(c), (p, v)
    assert not bearoff.applies(board([1, 0, 0, 0, 0, 0], [0] * 6))   # the game is over
    assert _bgcore.bearoff_applies(bytes(x & 0xFF for x in b))


def test_errors():
    with pytest.raises(bg.InvalidPositionError, match="home"):
        bearoff.probabilities(bg.Position.initial())
    with pytest.raises(bg.GameOverError):
        bearoff.probabilities(board([1, 0, 0, 0, 0, 0], [0] * 6))
    with pytest.raises(bg.InvalidPositionError):
        bearoff.probabilities([0] * 25)
    for home in ([0] * 5, [0] * 7, [-1, 0, 0, 0, 0, 1], [0, 0, 0, 0, 0, 16], [8, 8, 0, 0, 0, 0],
                 "000001", [0.5, 0, 0, 0, 0, 0], None, 3):
        with pytest.raises(bg.InvalidPositionError):
            bearoff.turns(home)
        with pytest.raises(bg.InvalidPositionError):
            bearoff.expected_turns(home)
    with pytest.raises(bg.InvalidPositionError, match="row 1"):
        bearoff.batch_probabilities(np.array([board([1] * 6, [1] * 6), np.zeros(26)], dtype=np.int8))
    for bad in (np.zeros((2, 25), np.int8), np.zeros(26, np.int8), np.zeros((1, 26), np.float64),
                np.full((1, 26), 40)):
        with pytest.raises(bg.InvalidPositionError):
            bearoff.batch_probabilities(bad)
    with pytest.raises(bg.InvalidPositionError):
        _bgcore.bearoff_index(bytes([0, 0, 0, 0, 0, 200]))
    with pytest.raises(bg.InvalidPositionError):
        _bgcore.bearoff_home(bearoff.NPOS)
    assert bearoff.batch_probabilities(np.zeros((0, 26), np.int8)).shape == (0, 5)


def test_first_use_from_many_threads_builds_one_database():
    # a fresh interpreter, so that the threads race for the first build
    code = """
import threading, numpy as np
from backgammon import bearoff
b = [0, 0, 2, 3, 0, 1, 4] + [0] * 12 + [-2, -2, -2, -3, -3, -3, 0]
out = [None] * 8
def work(k):
    out[k] = bearoff.probabilities(b).tolist()
ts = [threading.Thread(target=work, args=(k,)) for k in range(8)]
[t.start() for t in ts]; [t.join() for t in ts]
assert all(o == out[0] for o in out), out
print(out[0])
"""
    res = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert res.returncode == 0, res.stderr
    b = [0, 0, 2, 3, 0, 1, 4] + [0] * 12 + [-2, -2, -2, -3, -3, -3, 0]
    assert eval(res.stdout) == bearoff.probabilities(b).tolist()


def test_docstring_examples():
    assert doctest.testmod(bearoff, optionflags=doctest.ELLIPSIS).failed == 0
