"""The C cube model (src/bgcore/cube.h) against the Python reference (backgammon.cube.cubeful).

The core evaluates the same formulas in the same order in double precision, so
on the same inputs it agrees with the reference to rounding: every comparison
here allows TOL = 1e-9 (with the default build the results are bit-identical:
without FMA contraction the operations are the same; a BACKGAMMON_NATIVE=1
build that fuses multiply-adds differed by at most 4.4e-16).  The
batch form reads float32 chances; its rows are compared with the reference fed
the same float32 values (widened exactly to doubles).

The reference decision below is CubeDecision.from_chances as it was before it
used the core: the values from cubeful's functions, the action spelled by the
rules of cube.py.
"""

from __future__ import annotations

import itertools
import math
import threading

import numpy as np
import pytest

from backgammon import Position, _bgcore
from backgammon.cube import met
from backgammon.cube import cubeful as cf
from backgammon.cube import CubeDecision
from backgammon.errors import BackgammonError, InvalidPositionError, MatchEquityError
from backgammon.rules import Rules

TOL = 1e-9
TABLE = met.default_table()
CORE_TABLE = _bgcore.cube_table(TABLE)
OWNERS = ("centred", "own", "opponent")
CUBES = (1, 2, 4, 8, 16, 32, 64)


def random_chances(n: int, seed: int) -> np.ndarray:
    """n valid cumulative chances as float32: w, then wg <= w, wb <= wg, lg <= 1 - w, lb <= lg.

    Some rows are pushed to the edges: certain wins and losses, no gammons,
    all gammons, an even game.
    """
    rng = np.random.default_rng(seed)
    w = rng.random(n)
    w[: n // 20] = rng.choice([0.0, 1.0, 0.5, 1e-7, 1 - 1e-7], size=n // 20)
    u = rng.random((4, n))
    u[:, n // 20: n // 10] = rng.choice([0.0, 1.0], size=(4, n // 10 - n // 20))
    wg = w * u[0]
    wb = wg * u[1]
    lg = (1 - w) * u[2]
    lb = lg * u[3]
    c = np.stack([w, wg, wb, lg, lb], axis=1).astype(np.float32)
    # float32 rounding can lift a gammon rate a hair above its win chance: clip to stay cumulative.
    c[:, 1] = np.minimum(c[:, 1], c[:, 0])
    c[:, 2] = np.minimum(c[:, 2], c[:, 1])
    c[:, 3] = np.minimum(c[:, 3], np.float32(1) - c[:, 0])
    c[:, 4] = np.minimum(c[:, 4], c[:, 3])
    return c


CHANCES = random_chances(3000, 11)
ROWS = [tuple(float(v) for v in row) for row in CHANCES]


def reference_decision(chances, cube=1, owner="centred", score=None, post_crawford=False,
                       rules=Rules(), x=0.68):
    """(no double, double/take, double/pass, take, beaver, action text) from cubeful."""
    if owner == "opponent":
        available, why = False, "the opponent owns the cube"
    elif not rules.can_double_to(2 * cube):
        available, why = False, "the cube is at its limit"
    elif score is not None and 1 in score and not post_crawford and score != (1, 1):
        available, why = False, "the Crawford game"
    else:
        available, why = True, ""
    beaver = False
    if score is None:
        nd = cf.money_equity(chances, owner, x, jacoby=rules.jacoby and owner == "centred")
        dt, dp = 2 * cf.money_equity(chances, "opponent", x), 1.0
        if rules.beaver and dt < 0 and rules.can_double_to(4 * cube):
            dt, beaver = 2 * dt, True
    else:
        model = cf.MatchModel(chances, *score, post_crawford, rules.max_cube, None)
        nd = model.cubeful(cube, owner, x)
        dt = model.cubeful(2 * cube, "opponent", x)
        dp = model.mwc(0, cube, 0)
    take = dt <= dp
    answer = "beaver" if beaver else ("take" if take else "pass")
    doubled = min(dt, dp)
    verb = "redouble" if owner == "own" else "double"
    if not available:
        action = f"No {verb} ({why})"
    elif doubled > nd + 1e-9 or (not take and doubled >= nd - 1e-9):
        action = f"{verb.capitalize()}, {answer}"
    elif not take:
        action = f"Too good to {verb}, pass"
    elif nd > dp:
        action = f"Too good to {verb}, {answer}"
    else:
        action = f"No {verb}, {answer}"
    return nd, dt, dp, take, beaver, action


def core_text(action: int, reason: int, owner: str) -> str:
    return _bgcore.cube_action_text(action, reason, owner == "own")


def assert_decision(core, ref, owner, where):
    nd, dt, dp, take, beaver, action, reason = core
    for name, a, b in zip(("no double", "double/take", "double/pass"), (nd, dt, dp), ref[:3]):
        assert abs(a - b) <= TOL, f"{where}: {name} {a!r} vs reference {b!r}"
    assert (take, beaver) == ref[3:5], where
    assert core_text(action, reason, owner) == ref[5], where


# ---------------------------------------------------------------- money play

@pytest.mark.parametrize("x", [0.0, 0.37, 0.68, 1.0])
@pytest.mark.parametrize("jacoby", [False, True])
def test_money_equity_equals_the_reference(x, jacoby):
    worst = 0.0
    for c in ROWS:
        for owner in OWNERS:
            a = _bgcore.cube_money_equity(c, owner, x, jacoby)
            b = cf.money_equity(c, owner, x, jacoby=jacoby)
            worst = max(worst, abs(a - b))
    assert worst <= TOL


def test_the_float_entry_point_reads_float32_chances():
    # The batch (bg_cube_decide on float[5]) and the double path see the same widened numbers.
    values, *_ = _bgcore.cube_decide_batch(CHANCES[:200])
    for row, v in zip(ROWS[:200], values):
        assert v[0] == _bgcore.cube_decide(row)[0]


@pytest.mark.parametrize("rules", [Rules(), Rules(jacoby=True), Rules(beaver=True),
                                   Rules(jacoby=True, beaver=True), Rules(max_cube=4),
                                   Rules(cube=False)], ids=repr)
def test_money_decisions_equal_the_reference(rules):
    x_values = (0.0, 0.6, 0.68, 1.0)
    for i, c in enumerate(ROWS[::3]):
        owner, cube, x = OWNERS[i % 3], CUBES[i % 5], x_values[i % 4]
        core = _bgcore.cube_decide(c, cube=cube, owner=owner, x=x, max_cube=rules.max_cube,
                                   cube_disabled=not rules.cube, jacoby=rules.jacoby,
                                   beaver=rules.beaver)
        ref = reference_decision(c, cube, owner, None, False, rules, x)
        assert_decision(core, ref, owner, f"{c} cube {cube} {owner} x {x} {rules}")


# ---------------------------------------------------------------- match play

SCORES_PRE = list(itertools.product(range(1, 26), repeat=2))
SCORES_POST = [(1, n) for n in range(1, 26)] + [(n, 1) for n in range(2, 26)]


@pytest.mark.parametrize("post_crawford", [False, True])
def test_match_equity_over_the_whole_table(post_crawford):
    """Every score of the table, every owner, cubes 1 to 64, several chances each."""
    scores = SCORES_POST if post_crawford else SCORES_PRE
    picks = 12 if post_crawford else 2
    worst = 0.0
    k = 0
    for score in scores:
        for _ in range(picks):
            c = ROWS[k % len(ROWS)]
            k += 1
            owner = OWNERS[k % 3]
            for cube in CUBES:
                a = _bgcore.cube_match_equity(c, *score, cube, owner, 0.68, post_crawford, 64,
                                              CORE_TABLE)
                b = cf.match_equity(c, *score, cube, owner, 0.68, post_crawford, 64)
                worst = max(worst, abs(a - b))
                assert 0.0 <= a <= 1.0
    assert worst <= TOL


@pytest.mark.parametrize("max_cube", [1, 2, 4, 8, 64, 1 << 20])
def test_match_equity_with_cube_limits(max_cube):
    for k, score in enumerate(SCORES_PRE[::7]):
        c = ROWS[k]
        for owner, x in itertools.product(OWNERS, (0.0, 0.5, 1.0)):
            cube = 1 if owner == "centred" else min(2, max_cube)
            a = _bgcore.cube_match_equity(c, *score, cube, owner, x, False, max_cube, CORE_TABLE)
            b = cf.match_equity(c, *score, cube, owner, x, False, max_cube)
            assert abs(a - b) <= TOL, (c, score, owner, x, max_cube)


def test_won_matches_on_one_side():
    # The table accepts a side 0-away or below (the match is won): so does the core.
    for c, score in itertools.product(ROWS[:50], [(0, 3), (3, 0), (-2, 5), (1, 0)]):
        for owner in OWNERS:
            a = _bgcore.cube_match_equity(c, *score, 1, owner, 0.68, False, 64, CORE_TABLE)
            assert a == cf.match_equity(c, *score, 1, owner)


@pytest.mark.parametrize("post_crawford", [False, True])
def test_match_decisions_over_the_whole_table(post_crawford):
    scores = SCORES_POST if post_crawford else SCORES_PRE
    limits = (Rules(), Rules(max_cube=8), Rules(max_cube=2))
    k = 0
    for score in scores:
        for _ in range(6 if post_crawford else 1):
            c = ROWS[k % len(ROWS)]
            owner, cube, rules = OWNERS[k % 3], CUBES[k % 7], limits[k % 3]
            k += 1
            core = _bgcore.cube_decide(c, cube=cube, owner=owner, max_cube=rules.max_cube,
                                       score=score, post_crawford=post_crawford, table=CORE_TABLE)
            ref = reference_decision(c, cube, owner, score, post_crawford, rules)
            assert_decision(core, ref, owner, f"{c} {score} post {post_crawford} cube {cube} {owner}")


def test_batch_decisions_equal_single_ones_and_the_reference():
    cases = [dict(), dict(owner="own", cube=4, x=0.6), dict(beaver=True, jacoby=True),
             dict(score=(5, 3)), dict(score=(2, 1), post_crawford=True, owner="opponent", cube=2),
             dict(score=(7, 1)), dict(score=(4, 4), max_cube=4, cube=4, owner="own")]
    for kw in cases:
        kw.setdefault("table", CORE_TABLE)
        values, action, take, beaver, reason = _bgcore.cube_decide_batch(CHANCES[:600], **kw)
        assert values.shape == (600, 3) and action.dtype == np.int8 and take.dtype == np.bool_
        rules = Rules(max_cube=kw.get("max_cube", 64), jacoby=kw.get("jacoby", False),
                      beaver=kw.get("beaver", False))
        owner = kw.get("owner", "centred")
        for i, c in enumerate(ROWS[:600]):
            single = _bgcore.cube_decide(c, **kw)
            assert tuple(values[i]) == single[:3]
            assert (bool(take[i]), bool(beaver[i]), int(action[i]), reason) == single[3:]
            if i % 10 == 0:
                ref = reference_decision(c, kw.get("cube", 1), owner, kw.get("score"),
                                         kw.get("post_crawford", False), rules, kw.get("x", 0.68))
                assert_decision(single, ref, owner, f"{c} {kw}")


def test_the_batch_releases_the_gil_and_threads_agree():
    big = np.tile(CHANCES, (20, 1))
    expected = _bgcore.cube_decide_batch(big, score=(9, 6), table=CORE_TABLE)
    results = [None] * 4

    def work(i):
        results[i] = _bgcore.cube_decide_batch(big, score=(9, 6), table=CORE_TABLE)

    threads = [threading.Thread(target=work, args=(i,)) for i in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    for r in results:
        for a, b in zip(r[:4], expected[:4]):
            np.testing.assert_array_equal(a, b)


def test_an_empty_batch():
    values, action, take, beaver, reason = _bgcore.cube_decide_batch(
        np.zeros((0, 5), np.float32), owner="opponent")
    assert values.shape == (0, 3) and len(action) == 0 and reason == 1


def test_cube_decision_takes_its_numbers_from_the_core():
    for i, c in enumerate(ROWS[:300]):
        owner, cube = OWNERS[i % 3], CUBES[i % 6]
        score = None if i % 2 else SCORES_PRE[i * 7 % 625]
        d = CubeDecision.from_chances(c, cube=cube, owner=owner, score=score,
                                      rules=Rules(beaver=True))
        core = _bgcore.cube_decide(c, cube=cube, owner=owner, beaver=True, score=score,
                                   table=CORE_TABLE)
        assert (d.no_double, d.double_take, d.double_pass, d.take, d.beaver) == core[:5]
        assert d.action == core_text(core[5], core[6], owner)


# ---------------------------------------------------------------- action codes

def test_action_texts_as_the_analysts_spell_them():
    expected = ["No double, take", "No double, beaver", "Double, take", "Double, beaver",
                "Double, pass", "Too good to double, pass", "Too good to double, take",
                "Too good to double, beaver"]
    assert [_bgcore.cube_action_text(a, 0, False) for a in range(8)] == expected
    assert _bgcore.cube_action_text(2, 0, True) == "Redouble, take"
    assert _bgcore.cube_action_text(5, 0, True) == "Too good to redouble, pass"
    assert [_bgcore.cube_action_text(8, r, False) for r in (1, 2, 3)] == [
        "No double (the opponent owns the cube)", "No double (the cube is at its limit)",
        "No double (the Crawford game)"]
    assert _bgcore.CUBE_OWNERS == {"centred": 0, "own": 1, "opponent": 2}
    with pytest.raises(BackgammonError):
        _bgcore.cube_action_text(9, 0, False)


def test_the_random_decisions_reach_the_common_actions():
    seen = set()
    for score in (None, (5, 3), (3, 5), (2, 1), (1, 2)):
        for owner in ("centred", "own", "opponent"):
            _, action, _, _, _ = _bgcore.cube_decide_batch(
                CHANCES, owner=owner, cube=1 if owner == "centred" else 2, beaver=True,
                score=score, post_crawford=score is not None and 1 in score, table=CORE_TABLE)
            seen |= set(action.tolist())
    for code in (0, 1, 2, 4, 5, 8):    # no double/take, /beaver, double/take, /pass, too good/pass, n/a
        assert code in seen


# ---------------------------------------------------------------- cube efficiency

def test_cube_efficiency_equals_the_reference(movegen_cases):
    boards = {tuple(case["board"]) for case in movegen_cases}
    boards |= {tuple(r) for case in movegen_cases[::10] for r in case["results"]}
    rng = np.random.default_rng(5)
    for _ in range(500):           # races and bear-offs with random spreads
        a = [0] * 26
        top = int(rng.integers(1, 25))
        for p in rng.integers(1, top + 1, size=int(rng.integers(1, 16))):
            a[int(p)] += 1
        for p in rng.integers(top, 25, size=int(rng.integers(1, 16))):
            if a[int(p)] <= 0:
                a[int(p)] -= 1
        boards.add(tuple(a))
    kinds = set()
    for b in boards:
        pos = Position.from_array(b)
        for side in (pos, Position.from_array(_swap(b))):
            want = cf.cube_efficiency(side)
            got = _bgcore.cube_efficiency(bytes(np.array(side.tolist(), np.int8)))
            assert got == want, side.tolist()
            kinds.add(round(want, 2) if want in (0.6, 0.68, 0.7) else "race")
    assert kinds == {0.6, 0.68, 0.7, "race"}


def _swap(b):
    return [-b[25 - i] for i in range(26)]


def test_cube_efficiency_refuses_a_bad_board():
    with pytest.raises(InvalidPositionError):
        _bgcore.cube_efficiency(bytes(25))
    with pytest.raises(InvalidPositionError):
        _bgcore.cube_efficiency(bytes([16] + [0] * 25))


# ---------------------------------------------------------------- tables

def test_cube_table_is_built_once_per_table_and_copies_the_entries():
    assert _bgcore.cube_table(TABLE) is CORE_TABLE and CORE_TABLE.length == 25
    small = met.MatchEquityTable(
        name="toy", pre_crawford=((0.5, 0.7), (0.3, 0.5)), post_crawford=(0.5, 0.45))
    core = _bgcore.cube_table(small)
    c = (0.6, 0.2, 0.01, 0.1, 0.0)
    for score, post in (((2, 2), False), ((2, 1), False), ((2, 1), True), ((1, 2), True)):
        for owner in OWNERS:
            a = _bgcore.cube_match_equity(c, *score, 1, owner, 0.68, post, 64, core)
            assert abs(a - cf.match_equity(c, *score, 1, owner, 0.68, post, 64, small)) <= TOL
    with pytest.raises(MatchEquityError, match="beyond the table's 2 points"):
        _bgcore.cube_decide(c, score=(3, 2), table=core)


@pytest.mark.parametrize("pre, post", [
    (((0.5,),), (0.5,)),                              # 1 point: too short
    (((0.5, 0.6), (0.4,)), (0.5, 0.4)),               # ragged
    (((0.5, 0.6), (0.4, 0.5)), (0.5,)),               # post-Crawford too short
    (((0.5, 1.6), (0.4, 0.5)), (0.5, 0.4)),           # not a chance
    (((0.5, float("nan")), (0.4, 0.5)), (0.5, 0.4)),
    (((0.5, "a"), (0.4, 0.5)), (0.5, 0.4)),
])
def test_bad_tables_are_refused(pre, post):
    with pytest.raises(MatchEquityError):
        _bgcore.CubeTable(pre, post)


# ---------------------------------------------------------------- bad input

@pytest.mark.parametrize("bad, error, message", [
    ((0.5, 0.6, 0, 0, 0), BackgammonError, "cumulative"),
    ((0.5, 0.1, 0.2, 0, 0), BackgammonError, "cumulative"),
    ((0.7, 0, 0, 0.4, 0), BackgammonError, "cumulative"),
    ((1.5, 0, 0, 0, 0), BackgammonError, "from 0 to 1"),
    ((-0.1, 0, 0, 0, 0), BackgammonError, "from 0 to 1"),
    ((math.nan, 0, 0, 0, 0), BackgammonError, "from 0 to 1"),
    ((0.5, 0, 0, math.inf, 0), BackgammonError, "from 0 to 1"),
    ((0.5, 0, 0, 0), BackgammonError, "five numbers"),
    (("a", 0, 0, 0, 0), TypeError, "five numbers"),
    (0.5, TypeError, "five numbers"),
])
def test_bad_chances_are_refused(bad, error, message):
    for call in (lambda: _bgcore.cube_decide(bad), lambda: _bgcore.cube_money_equity(bad),
                 lambda: _bgcore.cube_match_equity(bad, 3, 3, table=CORE_TABLE)):
        with pytest.raises(error, match=message):
            call()


@pytest.mark.parametrize("kwargs, error, message", [
    (dict(owner="mine"), BackgammonError, "owner"),
    (dict(owner=3), BackgammonError, "owner"),
    (dict(x=1.5), BackgammonError, "efficiency"),
    (dict(x=math.nan), BackgammonError, "efficiency"),
    (dict(x=True), BackgammonError, "efficiency"),
    (dict(x="0.5"), BackgammonError, "efficiency"),
    (dict(cube=3), BackgammonError, "power of two"),
    (dict(cube=0), BackgammonError, "power of two"),
    (dict(cube=1 << 31), BackgammonError, "power of two"),
    (dict(cube=2.0), BackgammonError, "power of two"),
    (dict(score=(32768, 3)), MatchEquityError, "away = 32768 is beyond the longest match"),
    (dict(score=(3, 40000)), MatchEquityError, "opponent_away = 40000 is beyond"),
    (dict(score=(1 << 40, 3)), MatchEquityError, "beyond"),
    (dict(score=(0, 0)), MatchEquityError, "both players"),
    (dict(score=(5, 3), post_crawford=True), MatchEquityError, "post-Crawford"),
    (dict(score=(5,)), BackgammonError, "score"),
    (dict(score=(5, 3.0)), TypeError, "int"),
    (dict(score=(5, 3), table=None), BackgammonError, "table"),
])
def test_bad_arguments_are_refused(kwargs, error, message):
    kwargs.setdefault("table", CORE_TABLE)
    with pytest.raises(error, match=message):
        _bgcore.cube_decide((0.6, 0.1, 0.0, 0.1, 0.0), **kwargs)
    with pytest.raises(error, match=message):
        _bgcore.cube_decide_batch(CHANCES[:3], **kwargs)


@pytest.mark.parametrize("probs, error, message", [
    (np.zeros((3, 4), np.float32), BackgammonError, r"\(n, 5\)"),
    (np.zeros(5, np.float32), BackgammonError, r"\(n, 5\)"),
    (np.zeros((2, 3, 5), np.float32), BackgammonError, r"\(n, 5\)"),
    (np.array([["a"] * 5]), TypeError, "numbers"),
])
def test_bad_batch_shapes_are_refused(probs, error, message):
    with pytest.raises(error, match=message):
        _bgcore.cube_decide_batch(probs)


@pytest.mark.parametrize("row, message", [
    ([np.nan, 0, 0, 0, 0], "from 0 to 1"), ([0.5, 0, 0, 0.6, 0], "cumulative"),
    ([2, 0, 0, 0, 0], "from 0 to 1"),
])
def test_a_bad_batch_row_is_named(row, message):
    probs = CHANCES[:10].copy()
    probs[7] = row
    with pytest.raises(BackgammonError, match=f"row 7: .*{message}"):
        _bgcore.cube_decide_batch(probs)


def test_float64_batches_are_read_as_float32():
    a = _bgcore.cube_decide_batch(CHANCES[:50].astype(np.float64))
    b = _bgcore.cube_decide_batch(CHANCES[:50])
    np.testing.assert_array_equal(a[0], b[0])
