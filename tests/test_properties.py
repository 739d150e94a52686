"""Property-based tests (hypothesis) for the core of `backgammon`.

Contract: notes/API.md (issue 2). Rules: RULES.md (sections cited as `RULES x.y`).

Positions come from two kinds of strategies:
  * `scattered_boards`: any valid array (0..15 checkers a side on points and bars, never both
    sides on one point), with styles biased toward hard cases (bear-off, bar vs. blocks);
  * `played_positions`: positions reached by playing random legal plays with random dice from
    the initial position, handing the turn over with `result.swapped()` every ply.

Besides the engine-only properties (conservation, pips, swap symmetry, replay, successors,
batch, legal_moves vs legal_plays, maximal-dice rule, ID and repr round trips), the plays are
compared with a small brute-force generator written here from RULES 3-6 (`ref_sequences`).
It enumerates every ordered sequence of single-checker steps, so it also gives the exact
answer for `legal_moves(dice, played)` for every legal prefix. It was checked against all
3,389 cases of tests/data/movegen.jsonl.gz when it was written (see
`test_reference_generator_agrees_with_vectors`, which re-checks a slice of them).

Everything here is sized to run in well under a minute on 2 cores.
"""

import gzip
import itertools
import json
import os
import random

import numpy as np
import pytest
from hypothesis import HealthCheck, given, note, settings
from hypothesis import strategies as st

import backgammon as bg
from backgammon import Position

HERE = os.path.dirname(os.path.abspath(__file__))

INITIAL = [0, -2, 0, 0, 0, 0, 5, 0, 3, 0, 0, 0, -5, 5, 0, 0, 0, -3, 0, -5, 0, 0, 0, 0, 2, 0]

COMMON = dict(
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much,
                           HealthCheck.data_too_large],
)


# ---------------------------------------------------------------------------------------------
# Independent reference (brute force over ordered single steps), RULES 3-6.
# Board: list of 26 ints in the project's array convention. Step: (from, to), 25 = bar, 0 = off.
# ---------------------------------------------------------------------------------------------

def single_steps(b, d):
    """Every legal single-checker step with die d (RULES 3.3, 5.1-5.3, 6.1-6.4)."""
    if b[25] > 0:                                 # RULES 5.1: bar checkers first
        to = 25 - d                               # RULES 5.2
        return [(25, to)] if b[to] >= -1 else []
    out = []
    home_only = all(b[p] <= 0 for p in range(7, 25))          # RULES 6.1
    highest = max((p for p in range(1, 25) if b[p] > 0), default=0)
    for p in range(1, 25):
        if b[p] <= 0:
            continue
        to = p - d
        if to >= 1:
            if b[to] >= -1:                       # RULES 3.3: open point or a blot
                out.append((p, to))
        elif home_only and (to == 0 or p == highest):         # RULES 6.2, 6.4
            out.append((p, 0))
    return out


def apply_step(b, step):
    b = list(b)
    f, t = step
    b[f] -= 1
    if t > 0:
        if b[t] == -1:                            # RULES 3.4: hit, blot to the bar
            b[t] = 0
            b[0] -= 1
        b[t] += 1
    return b


def ref_sequences(board, dice):
    """{ordered step tuple: result tuple} of every complete legal way to play `dice`."""
    d1, d2 = int(dice[0]), int(dice[1])
    orders = [(d1,) * 4] if d1 == d2 else [(d1, d2), (d2, d1)]   # RULES 3.1, 3.2
    found = {}

    def rec(b, rem, steps, used):
        moved = False
        if rem:
            for s in single_steps(b, rem[0]):
                moved = True
                rec(apply_step(b, s), rem[1:], steps + (s,), used + (rem[0],))
        if not moved:
            entry = found.setdefault(steps, [tuple(b), set()])
            entry[1].add(used)

    for order in orders:
        rec(list(board), order, (), ())
    longest = max(len(s) for s in found)                          # RULES 4.1
    seqs = {s: v for s, v in found.items() if len(s) == longest}
    if d1 != d2 and longest == 1:                                  # RULES 4.2
        hi = max(d1, d2)
        big = {s: v for s, v in seqs.items() if (hi,) in v[1]}
        if big:
            seqs = big
    return {s: v[0] for s, v in seqs.items()}


# ---------------------------------------------------------------------------------------------
# Small helpers computed from the raw array (independent of the engine's accessors)
# ---------------------------------------------------------------------------------------------

def arr(pos):
    return [int(x) for x in pos.to_array()]


def mover_total(a):       # on board + on bar
    return sum(x for x in a[1:26] if x > 0)


def opp_total(a):
    return -sum(x for x in a[0:25] if x < 0)


def mover_pips(a):
    return sum(a[p] * p for p in range(1, 26) if a[p] > 0)


def opp_pips(a):
    return sum(-a[p] * (25 - p) for p in range(0, 25) if a[p] < 0)


def norm_steps(steps):
    return tuple((int(f), int(t)) for f, t in steps)


def is_valid_board(a):
    return (len(a) == 26 and a[25] >= 0 and a[0] <= 0
            and mover_total(a) <= 15 and opp_total(a) <= 15)


# ---------------------------------------------------------------------------------------------
# Strategies
# ---------------------------------------------------------------------------------------------

dice_st = st.tuples(st.integers(1, 6), st.integers(1, 6))

_POINTS = list(range(1, 25))


@st.composite
def scattered_boards(draw, min_mover=0, min_opp=0):
    """A valid array. Styles bias toward bear-offs and bar-vs-block fights."""
    style = draw(st.sampled_from(["any", "any", "bearoff", "bearoff_contact", "bar_block",
                                  "race"]))
    a = [0] * 26
    n_me = draw(st.integers(min_mover, 15))
    n_op = draw(st.integers(min_opp, 15))

    if style in ("bearoff", "bearoff_contact"):
        # mostly home, sometimes a straggler outside or on the bar (RULES 6.1, 6.6)
        my_slots = [1, 2, 3, 4, 5, 6] * 6 + _POINTS + [25]
    elif style == "race":
        my_slots = list(range(1, 13)) * 2 + [25]
    elif style == "bar_block":
        my_slots = _POINTS + [25] * 12
    else:
        my_slots = _POINTS * 3 + [25]
    for s in draw(st.lists(st.sampled_from(my_slots), min_size=n_me, max_size=n_me)):
        a[s] += 1

    free = [p for p in _POINTS if a[p] == 0]
    if style == "bar_block":
        # opponent makes points in its home board = our 19..24, where our bar checkers enter
        home = [p for p in range(19, 25) if a[p] == 0]
        k = draw(st.integers(0, min(len(home), n_op // 2)))
        if k:
            for p in draw(st.lists(st.sampled_from(home), min_size=k, max_size=k, unique=True)):
                a[p] -= 2
        left = n_op - (-sum(x for x in a if x < 0))
    elif style == "race":
        left = n_op
        free = [p for p in free if p >= 13] or free
    elif style == "bearoff":
        left = n_op
        free = [p for p in free if p >= 13] or free
    else:
        left = n_op
    opp_slots = [0] + free * 3 if free else [0]
    for s in draw(st.lists(st.sampled_from(opp_slots), min_size=left, max_size=left)):
        a[s] -= 1
    assert is_valid_board(a)
    return a


@st.composite
def played_positions(draw, live=True):
    """Play random legal plays from the initial position; swap sides each ply.

    live=True: the returned position still has checkers on both sides (plays can be asked).
    """
    seed = draw(st.integers(0, 2 ** 32 - 1))
    plies = draw(st.integers(0, 160))
    rng = random.Random(seed)
    pos = Position.initial()
    for _ in range(plies):
        dice = (rng.randint(1, 6), rng.randint(1, 6))
        plays = pos.legal_plays(dice)
        nxt = plays[rng.randrange(len(plays))].result.swapped()
        if nxt.outcome() is not None:
            if not live:
                pos = nxt
            break
        pos = nxt
    return pos


live_positions = st.one_of(
    scattered_boards(min_mover=1, min_opp=1).map(Position.from_array),
    played_positions(live=True),
)

# The engine rejects a board with no checkers at all (InvalidPositionError, documented in
# Position.from_array): that board is not a position of any game, so it is not generated.
any_positions = st.one_of(
    scattered_boards().filter(any).map(Position.from_array),
    played_positions(live=False),
)


def plays_list(pos, dice):
    plays = pos.legal_plays(dice)
    return list(plays)


# ---------------------------------------------------------------------------------------------
# Swap symmetry, accessors, conservation on the position itself
# ---------------------------------------------------------------------------------------------

@settings(max_examples=200, **COMMON)
@given(any_positions)
def test_swap_symmetry(pos):
    a = arr(pos)
    s = pos.swapped()
    sa = arr(s)
    assert sa == [-a[25 - i] for i in range(26)]
    assert s.swapped() == pos
    assert hash(s.swapped()) == hash(pos)
    assert s.pip_counts() == tuple(reversed(pos.pip_counts()))
    assert s.borne_off() == tuple(reversed(pos.borne_off()))
    assert (s == pos) == (sa == a)
    assert (s.position_id() == pos.position_id()) == (s == pos)
    # outcome seen from the other side: same result, other winner (RULES 7)
    o, so = pos.outcome(), s.outcome()
    if o is None:
        assert so is None
    else:
        assert so is not None
        assert so.winner == 1 - o.winner
        assert (so.kind, so.points) == (o.kind, o.points)


@settings(max_examples=200, **COMMON)
@given(any_positions)
def test_accessors_and_conservation(pos):
    a = arr(pos)
    t = pos.to_array()
    assert isinstance(t, np.ndarray) and t.dtype == np.int8 and t.shape == (26,)
    t[:] = 0                                      # a fresh copy: the position must not change
    assert arr(pos) == a
    assert Position.from_array(a) == pos
    assert Position.from_array(tuple(a)) == pos
    assert Position.from_array(np.array(a, dtype=np.int64)) == pos
    assert hash(Position.from_array(a)) == hash(pos)
    assert pos.pip_counts() == (mover_pips(a), opp_pips(a))
    on, off = pos.borne_off()
    assert mover_total(a) + on == 15 and opp_total(a) + off == 15
    assert 0 <= on <= 15 and 0 <= off <= 15
    # outcome iff a side has no checkers left (RULES 7.1). Both sides with none left cannot
    # happen in a game; the contract says nothing about it, so it is not checked.
    if not (on == 15 and off == 15):
        assert (pos.outcome() is None) == (on < 15 and off < 15)


@settings(max_examples=300, **COMMON)
@given(any_positions)
def test_position_id_and_repr_round_trip(pos):
    pid = pos.position_id()
    assert isinstance(pid, str) and len(pid) == 14
    assert set(pid) <= set("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/")
    back = Position.from_position_id(pid)
    assert back == pos and arr(back) == arr(pos)
    r = repr(pos)
    assert eval(r, {"Position": Position}) == pos
    assert eval(repr(pos.swapped()), {"Position": Position}) == pos.swapped()


# ---------------------------------------------------------------------------------------------
# legal_plays: reference, conservation, pips, replay
# ---------------------------------------------------------------------------------------------

@pytest.mark.slow
@settings(max_examples=500, **COMMON)
@given(live_positions, dice_st)
def test_legal_plays_match_reference(pos, dice):
    a = arr(pos)
    ref = ref_sequences(a, dice)
    plays = plays_list(pos, dice)
    results = [arr(p.result) for p in plays]
    note(f"board={a} dice={dice}")
    # one Play per distinct resulting position (RULES 13.2)
    assert len({tuple(r) for r in results}) == len(results), "duplicate results"
    assert sorted(map(tuple, results)) == sorted(set(ref.values()))
    # every Play's own moves are a complete legal sequence of steps
    for p in plays:
        assert norm_steps(p.moves) in ref, (p.moves, str(p))
    # the LegalPlays object reports the same size through len / iter / index
    lp = pos.legal_plays(dice)
    assert len(lp) == len(plays)
    assert [lp[i] for i in range(len(lp))] == plays
    assert lp[-1] == plays[-1]
    # deterministic order
    assert [arr(p.result) for p in pos.legal_plays(dice)] == results
    # dice in either order mean the same roll (API: any order accepted); Plays compare by
    # (position, result), so the two lists hold equal Plays
    other = plays_list(pos, (dice[1], dice[0]))
    assert sorted(arr(p.result) for p in other) == sorted(results)
    for p in other:
        assert p in lp
        assert p == plays[results.index(arr(p.result))]
    for i, p in enumerate(plays):
        assert all(p != q for q in plays[i + 1:])


@settings(max_examples=400, **COMMON)
@given(live_positions, dice_st)
def test_conservation_pips_and_hits(pos, dice):
    a = arr(pos)
    on0, off0 = pos.borne_off()
    pm0, po0 = pos.pip_counts()
    d1, d2 = dice
    for play in pos.legal_plays(dice):
        note(f"board={a} dice={dice} play={play} moves={play.moves}")
        assert play.position == pos
        moves = norm_steps(play.moves)
        r = arr(play.result)
        assert is_valid_board(r)
        for f, t in moves:
            assert 1 <= f <= 25 and 0 <= t <= 24 and f > t
        # 15 checkers a side: on board + bar + borne off (RULES 1.1)
        on1, off1 = play.result.borne_off()
        assert mover_total(r) + on1 == 15
        assert opp_total(r) + off1 == 15
        offs = sum(1 for _, t in moves if t == 0)
        assert (on1, off1) == (on0 + offs, off0)
        assert opp_total(r) == opp_total(a)
        # opponent checkers never move on our turn: each point either keeps its opponent
        # checkers or loses a blot to the bar (RULES 3.4)
        hit_points = []
        for p in range(1, 25):
            if a[p] < 0:
                if a[p] == -1 and r[p] != -1:
                    assert r[p] >= 0
                    hit_points.append(p)
                else:
                    assert r[p] == a[p]
        assert r[0] - a[0] == -len(hit_points)
        assert set(hit_points) <= {t for _, t in moves}
        # pips: mover falls by the sum of the pips moved, a bear-off counts the checker's point
        pm1, po1 = play.result.pip_counts()
        assert pm0 - pm1 == sum(f - t for f, t in moves)
        # the opponent's blot on our point p stands on their point 25-p; on the bar it counts
        # 25 pips, so each hit adds p pips to them
        assert po1 - po0 == sum(hit_points)
        # each step uses one die: exact distance, or a bear-off with a die at least as high
        # (RULES 3.1, 6.2, 6.4)
        if d1 == d2:
            assert len(moves) <= 4
            for f, t in moves:
                assert f - t == d1 or (t == 0 and f < d1)
        else:
            assert len(moves) <= 2

            def fits(step, d):
                f, t = step
                return f - t == d or (t == 0 and f < d)
            if len(moves) == 2:
                assert ((fits(moves[0], d1) and fits(moves[1], d2))
                        or (fits(moves[0], d2) and fits(moves[1], d1)))
            elif len(moves) == 1:
                assert fits(moves[0], d1) or fits(moves[0], d2)
        if offs == 0:
            drop = pm0 - pm1
            if d1 == d2:
                assert drop == len(moves) * d1
            elif len(moves) == 2:
                assert drop == d1 + d2
            elif len(moves) == 1:
                assert drop in (d1, d2)
            else:
                assert drop == 0


@settings(max_examples=200, **COMMON)
@given(live_positions, dice_st)
def test_every_play_replays(pos, dice):
    before = (arr(pos), pos.position_id(), hash(pos))
    plays = pos.legal_plays(dice)
    for play in plays:
        note(f"board={arr(pos)} dice={dice} moves={play.moves}")
        assert play in plays
        assert pos.play(play) == play.result
        assert pos.play(play.moves) == play.result
        assert pos.play(play.moves, dice=dice) == play.result
        assert pos.play(list(play.moves), dice=(dice[1], dice[0])) == play.result
        assert pos.play([list(m) for m in play.moves], dice=dice) == play.result
        str(play)                                 # formatting never fails
    assert (arr(pos), pos.position_id(), hash(pos)) == before   # the position never changes


@settings(max_examples=400, **COMMON)
@given(live_positions, dice_st)
def test_maximal_dice_and_higher_die(pos, dice):
    a = arr(pos)
    plays = plays_list(pos, dice)
    ref = ref_sequences(a, dice)
    note(f"board={a} dice={dice}")
    lens = {len(p.moves) for p in plays}
    assert len(lens) == 1, "plays use different numbers of dice (RULES 4.1)"
    n = lens.pop()
    assert n == len(next(iter(ref)))
    if n == 0:                                    # RULES 4.4
        assert len(plays) == 1
        assert tuple(plays[0].moves) == ()
        assert plays[0].result == pos
        assert list(pos.legal_moves(dice)) == []
        assert pos.play((), dice=dice) == pos
    d1, d2 = dice
    if d1 != d2 and n == 1:                       # RULES 4.2
        hi, lo = max(dice), min(dice)
        hi_steps = set(single_steps(a, hi))
        lo_steps = set(single_steps(a, lo))
        for p in plays:
            step = norm_steps(p.moves)[0]
            if hi_steps:
                assert step in hi_steps, f"{p} does not use the higher die {hi}"
            else:
                assert step in lo_steps


# ---------------------------------------------------------------------------------------------
# successors / batch_successors
# ---------------------------------------------------------------------------------------------

@settings(max_examples=200, **COMMON)
@given(live_positions, dice_st)
def test_successors_stack_of_results(pos, dice):
    plays = plays_list(pos, dice)
    succ = pos.successors(dice)
    assert isinstance(succ, np.ndarray)
    assert succ.dtype == np.int8
    assert succ.shape == (len(plays), 26)
    expected = np.stack([p.result.to_array() for p in plays])
    assert np.array_equal(succ, expected)
    assert len({row.tobytes() for row in succ}) == len(succ)


@settings(max_examples=100, **COMMON)
@given(st.lists(st.tuples(live_positions, dice_st), min_size=1, max_size=8))
def test_batch_successors_matches_individual(rows):
    boards = np.stack([p.to_array() for p, _ in rows]).astype(np.int8)
    dice = np.array([d for _, d in rows], dtype=np.int64)
    boards_before = boards.copy()
    results, offsets = bg.batch_successors(boards, dice)
    assert np.array_equal(boards, boards_before)  # input not modified
    offsets = np.asarray(offsets)
    assert offsets.dtype == np.int64 and offsets.shape == (len(rows) + 1,)
    assert offsets[0] == 0 and offsets[-1] == len(results)
    assert np.all(np.diff(offsets) >= 1)          # at least one play (maybe the empty one)
    results = np.asarray(results)
    assert results.dtype == np.int8 and results.ndim == 2 and results.shape[1] == 26
    for i, (pos, d) in enumerate(rows):
        assert np.array_equal(results[offsets[i]:offsets[i + 1]], pos.successors(d)), i
    # the same with plain Python lists and another integer dtype
    r2, o2 = bg.batch_successors([arr(p) for p, _ in rows], [list(d) for _, d in rows])
    assert np.array_equal(np.asarray(r2), results) and np.array_equal(np.asarray(o2), offsets)
    r3, o3 = bg.batch_successors(boards.astype(np.int32), dice.astype(np.int8))
    assert np.array_equal(np.asarray(r3), results) and np.array_equal(np.asarray(o3), offsets)


# ---------------------------------------------------------------------------------------------
# legal_moves vs legal_plays (and vs the reference, prefix by prefix)
# ---------------------------------------------------------------------------------------------

def _moves_set(lst):
    out = [tuple(int(x) for x in m) for m in lst]
    assert len(out) == len(set(out)), f"duplicate steps in legal_moves: {lst}"
    return set(out)


@settings(max_examples=200, **COMMON)
@given(live_positions, dice_st)
def test_legal_moves_first_steps(pos, dice):
    a = arr(pos)
    plays = plays_list(pos, dice)
    first = _moves_set(pos.legal_moves(dice))
    assert _moves_set(pos.legal_moves(dice, ())) == first
    note(f"board={a} dice={dice} legal_moves={sorted(first)}")
    ref = ref_sequences(a, dice)
    if len(next(iter(ref))) == 0:
        assert first == set()
        return
    # first steps of every legal ordering of every Play's moves are offered ...
    sample = plays if len(plays) <= 40 else random.Random(0).sample(plays, 40)
    seen_first = set()
    for p in sample:
        moves = norm_steps(p.moves)
        for perm in set(itertools.permutations(moves)):
            if perm in ref:
                assert pos.play(perm, dice=dice) == p.result
                seen_first.add(perm[0])
            else:                                 # not a legal order of these steps
                with pytest.raises(bg.IllegalPlayError):
                    pos.play(perm, dice=dice)
    assert seen_first <= first
    if len(sample) == len(plays):
        assert {norm_steps(p.moves)[0] for p in plays} <= first
    # ... and exactly the steps that start some complete legal play are offered
    assert first == {s[0] for s in ref}


def _prefix_tree(ref):
    tree = {}
    for seq in ref:
        for k in range(len(seq)):
            tree.setdefault(seq[:k], set()).add(seq[k])
        tree.setdefault(seq, set())
    return tree


@settings(max_examples=200, **COMMON)
@given(live_positions, dice_st, st.integers(0, 2 ** 32 - 1))
def test_legal_moves_walk(pos, dice, seed):
    """DFS over legal_moves from (): leaves are exactly the legal plays."""
    a = arr(pos)
    ref = ref_sequences(a, dice)
    tree = _prefix_tree(ref)
    legal_results = {arr(p.result).__repr__() for p in pos.legal_plays(dice)}
    note(f"board={a} dice={dice}")
    if len(tree) <= 1500:
        # full DFS, bounded by the number of prefixes of the plays
        leaves = set()
        visited = 0
        stack = [()]
        while stack:
            prefix = stack.pop()
            visited += 1
            assert visited <= len(tree), "legal_moves offers more prefixes than exist"
            nxt = _moves_set(pos.legal_moves(dice, prefix))
            assert nxt == tree.get(prefix), (prefix, sorted(nxt), sorted(tree.get(prefix, ())))
            if not nxt:
                res = pos.play(prefix, dice=dice)
                assert repr(arr(res)) in legal_results
                leaves.add(repr(arr(res)))
            for s in nxt:
                stack.append(prefix + (s,))
        assert leaves == legal_results
        assert visited == len(tree)
    else:
        # too many prefixes for a full DFS: random walks, each step checked
        rng = random.Random(seed)
        for _ in range(25):
            prefix = ()
            while True:
                nxt = _moves_set(pos.legal_moves(dice, prefix))
                assert nxt == tree.get(prefix), prefix
                if not nxt:
                    break
                prefix = prefix + (rng.choice(sorted(nxt)),)
            assert prefix in ref
            assert repr(arr(pos.play(prefix, dice=dice))) in legal_results


# ---------------------------------------------------------------------------------------------
# perft against the Python API
# ---------------------------------------------------------------------------------------------

ROLLS_21 = [(a, b) for a in range(1, 7) for b in range(1, a + 1)]
ROLLS_36 = [(a, b) for a in range(1, 7) for b in range(1, 7)]


@settings(max_examples=40, **COMMON)
@given(live_positions)
def test_perft_depth_1_counts_plays(pos):
    assert bg.perft(pos, 0) == 1
    assert bg.perft(pos, 1) == sum(len(pos.legal_plays(r)) for r in ROLLS_21)
    assert bg.perft(pos, 1, rolls=36) == sum(len(pos.legal_plays(r)) for r in ROLLS_36)


@settings(max_examples=8, **COMMON)
@given(played_positions(live=True))
def test_perft_depth_2_is_sum_over_children(pos):
    """perft(pos, 2) = sum over rolls and plays of perft(child seen by the other side, 1);
    a child where the game is over is one leaf."""
    total = 0
    for r in ROLLS_21:
        for p in pos.legal_plays(r):
            child = p.result.swapped()
            if child.outcome() is not None:
                assert bg.perft(child, 1) == 1
                total += 1
            else:
                total += bg.perft(child, 1)
    assert bg.perft(pos, 2) == total


# ---------------------------------------------------------------------------------------------
# The reference itself (so that a failure above can be blamed on the right side)
# ---------------------------------------------------------------------------------------------

def test_reference_generator_agrees_with_vectors():
    path = os.path.join(HERE, "data", "movegen.jsonl.gz")
    if not os.path.exists(path):
        pytest.skip("movegen vectors not present")
    with gzip.open(path, "rt") as fh:
        for i, line in enumerate(fh):
            if i % 7:
                continue
            case = json.loads(line)
            got = sorted(set(ref_sequences(case["board"], case["dice"]).values()))
            assert got == sorted(tuple(r) for r in case["results"]), case


def test_strategies_produce_valid_positions():
    """Sanity of the strategies: valid, and both sides alive for live_positions."""
    @settings(max_examples=50, **COMMON)
    @given(live_positions)
    def inner(pos):
        a = arr(pos)
        assert is_valid_board(a)
        assert mover_total(a) > 0 and opp_total(a) > 0
    inner()
