"""Encoding 3: the escape table and the 14 features beyond encoding 2's,
counted by hand, against a slow point-by-point reference written here,
under swapping sides; nets of encoding 3 (growth, files; test_nn_encoding2 runs its
incremental choice, forward pass and training tests on encoding 3 too)."""

from __future__ import annotations

import numpy as np
import pytest

import backgammon as bg
from backgammon import _bgcore
from backgammon.nn import Evaluator
from boards import board
from test_nn_encoding2 import check, check_files, check_growth, check_swap_symmetry

NAMES = ["contain", "contain2", "dance", "dance2", "break", "rear", "dshots"]


def features(pos: bg.Position) -> tuple[dict[str, float], dict[str, float]]:
    """The 14 features of encoding 3 beyond encoding 2's 28: (on roll, opponent)."""
    f = _bgcore.nn_features(pos._b, 3)
    assert len(f) == 42
    assert f[:28] == _bgcore.nn_features(pos._b, 2)     # encoding 2's features come first
    return dict(zip(NAMES, f[28:35])), dict(zip(NAMES, f[35:42]))


# ----------------------------------------------------------------------
# A slow reference: sets of points, one roll at a time

ROLLS = [(d1, d2) for d1 in range(1, 7) for d2 in range(d1, 7)]


def weight(d1: int, d2: int) -> int:
    return 1 if d1 == d2 else 2


def escapes(blocked: set[int]) -> int:
    """Rolls with which a lone checker lands beyond the farthest of `blocked`
    (distances 1..12 ahead; landing on one is not allowed)."""
    if not blocked:
        return 36
    far = max(blocked)
    count = 0
    for d1, d2 in ROLLS:
        if d1 == d2:
            reach, at = set(), 0
            for _ in range(4):
                at += d1
                if at in blocked:
                    break
                reach.add(at)
        else:
            reach = {d for d in (d1, d2) if d not in blocked}
            if reach and d1 + d2 not in blocked:
                reach.add(d1 + d2)
        if any(r > far for r in reach):
            count += weight(d1, d2)
    return count


def landings(checkers: set[int], bar: int, closed: set[int], d1: int, d2: int) -> set[int]:
    """The points (1..24, the hitter's numbering, moving down) the hitter can
    land on with one roll, entering first from the bar."""
    def step(points: set[int], d: int) -> set[int]:
        return {q - d for q in points if 1 <= q - d <= 24 and q - d not in closed}

    def enter(d: int) -> set[int]:
        return step({25}, d)

    if d1 == d2:
        if bar == 0:
            x = step(checkers, d1)
            h = set(x)
            for _ in range(3):
                x = step(x, d1)
                h |= x
            return h
        if not enter(d1):
            return set()
        h, x = set(enter(d1)), checkers | enter(d1)
        for _ in range(4 - min(bar, 4)):
            x = step(x, d1)
            h |= x
        return h
    if bar >= 2:
        return enter(d1) | enter(d2)
    if bar == 1:
        h: set[int] = set()
        for a, b in ((d1, d2), (d2, d1)):
            if enter(a):
                h |= enter(a) | step(checkers, b) | step(enter(a), b)
        return h
    r1, r2 = step(checkers, d1), step(checkers, d2)
    return r1 | r2 | step(r1, d2) | step(r2, d1)


def side(cx: list[int], cy: list[int]) -> list[float]:
    """The seven features of X (counts by its points, 25 = bar) against Y (its own numbering)."""
    made_x = {p for p in range(1, 25) if cx[p] >= 2}
    low = min(escapes({j for j in range(1, 13) if t + j in made_x}) for t in range(1, 11))
    contain = (36 - low) / 36
    k = sum(1 for q in range(1, 7) if cy[q] >= 2)
    dance = (k / 6) ** 2 if cx[25] >= 1 else 0.0
    dance2 = 1 - ((6 - k) / 6) ** 2 if cx[25] >= 2 else 0.0
    xs = [p for p in range(1, 26) if cx[p] > 0]
    ys = [q for q in range(1, 26) if cy[q] > 0]
    brk = 0
    if xs and ys:
        r = 25 - max(ys)
        brk = sum((p - r) * cx[p] for p in xs if p > r)
    rear = max(xs) if xs else 0
    # Y hits X's blots: both in Y's numbering (X's point p is Y's 25 - p)
    blots = {25 - p for p in range(1, 25) if cx[p] == 1}
    closed = {25 - p for p in made_x}
    ychk = {q for q in range(1, 25) if cy[q] > 0}
    dshots = 0
    if len(blots) >= 2:
        for d1, d2 in ROLLS:
            if len(landings(ychk, cy[25], closed, d1, d2) & blots) >= 2:
                dshots += weight(d1, d2)
    return [contain, contain * contain, dance, dance2, brk / 150, rear / 25, dshots / 36]


def reference(row: np.ndarray) -> list[float]:
    a = [int(v) for v in row]
    cx = [0] * 26
    cy = [0] * 26
    for p in range(1, 25):
        cx[p] = max(a[p], 0)
        cy[p] = max(-a[25 - p], 0)
    cx[25] = max(a[25], 0)
    cy[25] = max(-a[0], 0)
    return side(cx, cy) + side(cy, cx)


# ----------------------------------------------------------------------
# The escape table

@pytest.mark.parametrize("blocked, want", [
    (set(), 36),
    # a block right in front: every roll but 1-1 lands beyond it
    ({1}, 35),
    # a block 5 ahead: 1-2, 1-3, 1-4 and 2-3 fall short (8 rolls); 1-1 reaches 4
    # and 5-5 is blocked at once: 36 - 8 - 2 = 26
    ({5}, 26),
    # a block 6 ahead: the nine pairs summing to 7 or more (18 rolls), and
    # 4-4 and 5-5 (6-6 is blocked, 2-2 and 3-3 stop at 6): 20
    ({6}, 20),
    # a six-prime right in front: nothing escapes
    ({1, 2, 3, 4, 5, 6}, 0),
    # blocks 5, 7 and 12 ahead (the ace against 6, 8 and the midpoint): only
    # beyond 12 escapes; 6-6 stops at 12, 4-4 too, 5-5 at 5, 3-3 reaches 12 exactly
    ({5, 7, 12}, 0),
])
def test_escapes_by_hand(blocked, want):
    pattern = sum(1 << (d - 1) for d in blocked)
    assert _bgcore.nn3_escapes(pattern) == want
    assert escapes(blocked) == want


def test_the_escape_table_equals_the_reference():
    for pattern in range(4096):
        blocked = {j + 1 for j in range(12) if pattern >> j & 1}
        assert _bgcore.nn3_escapes(pattern) == escapes(blocked), pattern
    with pytest.raises(ValueError):
        _bgcore.nn3_escapes(4096)


# ----------------------------------------------------------------------
# Features by hand

def test_features_of_the_opening():
    own, opp = features(bg.Position.initial())
    # no roll takes a back checker past the midpoint (12 ahead): contained;
    # to break contact: 24 -> 23 x 2, 13 -> 12 x 5, 8 -> 7 x 3, 6 -> 5 x 5 = 152
    want = dict(contain=1, contain2=1, dance=0, dance2=0, **{"break": 152 / 150},
                rear=24 / 25, dshots=0)
    check(own, want)
    check(opp, want)


def test_features_with_two_blots_in_front_of_a_hitter():
    # X: blots on 5 and 9, 13 on the 6; Y: one checker on our 2 (its 23), 14 on our 20 (its 5)
    pos = board({5: 1, 9: 1, 6: 13}, {2: 1, 20: 14})
    own, opp = features(pos)
    # Y's checker on our 2 reaches 5 (3 pips) and 9 (7) with 3-4 only (3 then 4;
    # 4 is our 6, closed); 1-1 and 3-3 reach 3 but not 7: 2 rolls.
    # X's 6-point is the only block: from our 1 it is 5 ahead (26 escapes, the
    # fewest; from 2..5 it is 4..1 ahead: 29, 32, 34, 35).
    # Y's rearmost is our 2: to pass it 3 + 7 + 13 x 4 = 62 pips.
    check(own, dict(contain=10 / 36, contain2=(10 / 36) ** 2, dance=0, dance2=0,
                    **{"break": 62 / 150}, rear=9 / 25, dshots=2 / 36))
    # Y: its 5-point is 4 ahead of its 1 at most (29 escapes); its checker on
    # its 23 is 7 behind our rearmost (our 9 = its 16); one blot, no double shot
    check(opp, dict(contain=7 / 36, contain2=(7 / 36) ** 2, dance=0, dance2=0,
                    **{"break": 7 / 150}, rear=23 / 25, dshots=0))


def test_bar_entry():
    # two of ours on the bar against a 4-point board (our 19..22)
    pos = board({25: 2, 6: 13}, {19: 2, 20: 2, 21: 2, 22: 2, 12: 7})
    own, opp = features(pos)
    check(own, dict(dance=16 / 36, dance2=32 / 36, rear=1))
    check(opp, dict(dance=0, dance2=0))
    # one on the bar: no second checker to enter
    own, _ = features(board({25: 1, 6: 14}, {19: 2, 20: 2, 21: 2, 22: 2, 12: 7}))
    check(own, dict(dance=16 / 36, dance2=0))
    # three of theirs on the bar against our 5-point board (its dance counts our home points)
    _, opp = features(board({1: 2, 2: 2, 3: 2, 4: 2, 5: 2, 13: 5}, {0: 3, 12: 12}))
    check(opp, dict(dance=25 / 36, dance2=35 / 36, rear=1))


def test_a_race_has_nothing_to_break():
    own, opp = features(board({1: 5, 2: 5, 3: 5}, {24: 5, 23: 5, 22: 5}))
    assert own["break"] == 0 and opp["break"] == 0


# ----------------------------------------------------------------------
# Whole classes

@pytest.fixture(scope="module")
def positions() -> np.ndarray:
    from test_supervised import positions as make
    return make(800, seed=13)


def test_features_equal_the_reference(positions):
    extra = [board({1: 3, 2: 2, 25: 2, 8: 8}, {0: 3, 24: 2, 23: 3, 12: 7}),
             board({25: 4, 13: 11}, {0: 1, 1: 1, 3: 1, 5: 1, 7: 1, 12: 10}),
             board({6: 1}, {19: 1}),
             board({25: 1, 10: 1, 11: 1, 14: 1, 6: 11}, {0: 1, 3: 1, 4: 1, 20: 12})]
    rows = list(positions) + [p.to_array() for p in extra]
    for row in rows:
        got = _bgcore.nn_features(np.asarray(row, np.int8).tobytes(), 3)[28:]
        np.testing.assert_allclose(got, reference(np.asarray(row)), atol=1e-6)


def test_features_are_symmetric_under_swapping(positions):
    check_swap_symmetry(features, positions)


# ----------------------------------------------------------------------
# Nets of encoding 3

def test_the_fast_nets_grow_to_encoding_3_and_answer_as_before(positions):
    check_growth(3, positions)   # the fast nets (encoding 1) grown


def test_files_of_encoding_3(tmp_path, positions):
    check_files(tmp_path, positions, 3, "tesauro4-bar-off-feat42-v3")


def test_the_fast_nets_are_bundled_beside_the_default_ones(positions):
    fast, strong = Evaluator.fast(), Evaluator.default()
    assert Evaluator.fast() is fast                    # loaded once
    assert fast.hidden[0] < strong.hidden[0]
    p = fast.evaluate_batch(positions[:50])
    assert p.shape == (50, 5) and np.isfinite(p).all()


def test_the_strong_nets_are_the_default_with_a_second_contact_net(positions):
    # the default's contact net and a second one in a mean-logit ensemble, 2,048 units
    # (the first 1,024 the default's, their output weights halved); race and crashed
    # nets the default's
    strong, default = Evaluator.strong(), Evaluator.default()
    assert Evaluator.strong() is strong and strong.policy_name == "strong"
    assert strong.hidden == (2 * default.hidden[0],) + default.hidden[1:]
    w, d = strong.weights(), default.weights()
    for k in d:
        if not k.startswith("contact_"):
            np.testing.assert_array_equal(w[k], d[k])
    n = default.hidden[0]
    np.testing.assert_array_equal(w["contact_w1"][:, :n], d["contact_w1"])
    np.testing.assert_array_equal(w["contact_b1"][:n], d["contact_b1"])
    np.testing.assert_array_equal(2 * w["contact_w2"][:, :n], d["contact_w2"])
    cls = default._nets.classify(positions)
    race = positions[cls == 1]
    assert len(race) and (strong.evaluate_batch(race) == default.evaluate_batch(race)).all()
    contact = positions[cls == 0][:50]
    assert not np.allclose(strong.evaluate_batch(contact), default.evaluate_batch(contact))
    assert strong.with_pruning(keep=4).policy_name == "strong+prune4"
