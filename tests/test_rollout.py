"""Rollouts: exact answers, determinism across threads and executors, an
independent slow simulator, and bad arguments."""

from __future__ import annotations

import random
from concurrent.futures import ProcessPoolExecutor, ThreadPoolExecutor

import numpy as np
import pytest

import backgammon as bg
from backgammon import pubeval
from reference import reference_results
from boards import board

INITIAL = tuple(bg.Position.initial().tolist())


def test_a_gammon_nobody_can_avoid():
    # RULES 7.3: two checkers on our 1-point bear off with any roll (6.2/6.4);
    # the opponent has all 15 at home in its own board (our 19-24), none off
    pos = board({1: 2}, {19: 3, 20: 3, 21: 3, 22: 3, 23: 3})
    r = bg.rollout(pos, games=72, seed=3)
    assert r.probabilities == (1.0, 1.0, 0.0, 0.0, 0.0)
    assert r.equity.value == 2.0 and r.equity.stderr == 0.0
    assert r.mean_plies == 1.0


def test_a_backgammon_nobody_can_avoid():
    # RULES 7.4: as above, but one opposing checker is still in our home board (point 2)
    pos = board({1: 2}, {2: 1, 19: 3, 20: 3, 21: 3, 22: 3, 23: 2})
    r = bg.rollout(pos, games=72, seed=3, policy="pubeval")
    assert r.probabilities == (1.0, 1.0, 1.0, 0.0, 0.0)
    assert r.equity.value == 3.0


def test_one_checker_on_six_against_a_sure_bear_off():
    # Our last checker on 6, theirs on their 1-point (our 24), 14 off each.
    # We bear off this turn unless the roll moves fewer than 6 pips in one
    # checker: 1-2, 2-1, 1-3, 3-1, 1-4, 4-1, 2-3, 3-2 and 1-1 (9 of 36) fail,
    # then they bear off with any roll.  P(win) = 27/36; all games are single.
    pos = board({6: 1}, {24: 1})
    r = bg.rollout(pos, games=36 * 100, seed=11)
    assert r.stratified
    assert r.win.value == pytest.approx(27 / 36, abs=1e-12)
    assert r.win.stderr == 0.0  # stratified: each first roll decides the game
    assert r.win_gammon.value == 0.0 and r.lose_gammon.value == 0.0
    assert r.equity.value == pytest.approx(0.5, abs=1e-12)
    # plain dice: the same answer within four standard errors
    plain = bg.rollout(pos, games=20000, seed=11, stratify=False)
    assert not plain.stratified and plain.win.stderr > 0
    assert abs(plain.win.value - 0.75) < 4 * plain.win.stderr
    assert plain.unstratified_stderr == pytest.approx(plain.equity.stderr)


def test_same_seed_same_games_for_any_workers_and_chunks():
    pos = bg.Position.initial()
    base = bg.rollout(pos, games=5000, seed=42, policy="pubeval")
    for kwargs in ({"workers": 2}, {"workers": 3, "chunk_games": 777}, {"chunk_games": 1}):
        other = bg.rollout(pos, games=5000, seed=42, policy="pubeval", **kwargs)
        assert np.array_equal(other.strata, base.strata), kwargs
        assert other.equity == base.equity and other.probabilities == base.probabilities
    assert not np.array_equal(bg.rollout(pos, games=5000, seed=43, policy="pubeval").strata,
                              base.strata)


def test_remembered_first_choices_change_no_game():
    # The core remembers each thread's choices at the first two plies
    # (PlayCache): the statistics must be those of choosing afresh every
    # time, for the screened default nets, unscreened nets and pubeval, from
    # the opening and from a middle game, stratified or not, with a table
    # already full (every first choice looked up) and with one that held
    # another policy's choices (bound again, so emptied).
    from backgammon import _bgcore
    pubeval.install()
    default = bg.Evaluator.default()
    unscreened = default.with_pruning(keep=0)
    middle = board({24: 1, 13: 4, 8: 3, 6: 5, 5: 2}, {1: 2, 12: 5, 17: 3, 19: 4, 20: 1})
    cases = [(code, net, stratify, games) for stratify in (True, False)
             for code, net, games in ((2, default, 120), (2, unscreened, 40), (1, None, 700))]
    for start in (bg.Position.initial(), middle):
        for code, net, stratify, games in cases:
            nets = net._nets if net is not None else None
            args = (start._b, 11, 0, games, code, stratify, None, nets)
            fresh = _bgcore.playout(*args, None)
            cache = _bgcore.PlayCache()
            assert np.array_equal(_bgcore.playout(*args, cache), fresh)
            assert np.array_equal(_bgcore.playout(*args, cache), fresh)   # all looked up
            other = _bgcore.PlayCache()
            _bgcore.playout(start._b, 3, 0, 50, 1 if code == 2 else 2, stratify, None,
                            default._nets if code == 1 else None, other)
            assert np.array_equal(_bgcore.playout(*args, other), fresh)


def test_a_boards_rolls_take_their_own_slots():
    # A lookup that hashes a board's 36 rolls into a few slots evicts as often
    # as it finds, which costs time and no answer (a test of the answers alone
    # passes): the 36 rolls of a board and the first replies of the opening
    # must spread over the table.
    from backgammon import _bgcore
    pos = bg.Position.initial()
    rolls = [(a, b) for a in range(1, 7) for b in range(1, 7)]
    assert len({_bgcore._play_cache_slot(pos._b, a, b) for a, b in rolls}) >= 34
    replies = {(p.result.swapped()._b, r) for d in rolls for p in pos.legal_plays(d)[:1]
               for r in rolls}
    slots = {_bgcore._play_cache_slot(b, *r) for b, r in replies}
    assert len(slots) >= 0.7 * len(replies)     # 4,096 slots; random: about 86 %


def test_remembered_first_choices_with_their_chances_change_no_game():
    # The same for the extended rollouts (rollout_games: the cube, truncation,
    # rotation, luck adjustment), whose tables keep each choice's chances for
    # the next cube decision (with luck adjustment, every roll's): the sums
    # must be those of choosing afresh, also after the table held other
    # choices (bound again, so emptied).
    from backgammon import _bgcore
    from backgammon.cube import met
    nets = bg.Evaluator.default()._nets
    table = _bgcore.cube_table(met.default_table())
    middle = board({24: 1, 13: 4, 8: 3, 6: 5, 5: 2}, {1: 2, 12: 5, 17: 3, 19: 4, 20: 1})
    for start in (bg.Position.initial(), middle):
        for games, opts in ((100, {"cube": True}),
                            (100, {"cube": True, "score": (5, 3), "table": table}),
                            (100, {"truncate": 7}), (100, {"rotation": 0}),
                            (100, {"rotation": 1, "truncate": 12}),     # rollout targets
                            (100, {"cube": True, "rotation": 3}),
                            (12, {"vr": True}), (12, {"vr": True, "cube": True})):
            fresh = _bgcore.rollout_games(start._b, 5, 0, games, nets, **opts)
            cache = _bgcore.PlayCache()
            for _ in range(2):                           # filling, then all looked up
                assert np.array_equal(
                    _bgcore.rollout_games(start._b, 5, 0, games, nets, cache=cache, **opts),
                    fresh), opts
            other = _bgcore.PlayCache()                  # held other choices: emptied
            if opts.get("vr"):
                _bgcore.rollout_games(start._b, 5, 0, games, nets, cache=other, cube=True)
            else:
                _bgcore.playout(start._b, 5, 0, games, 2, True, None, nets, other)
            assert np.array_equal(
                _bgcore.rollout_games(start._b, 5, 0, games, nets, cache=other, **opts), fresh)


@pytest.mark.slow
def test_executors_give_the_local_result():
    # nets sent to threads and to processes (pickled); the fast nets keep it quick
    pos, fast = bg.Position.initial(), bg.Evaluator.fast()
    base = bg.rollout(pos, games=3000, seed=7, policy=fast)
    with ThreadPoolExecutor(2) as pool:
        assert np.array_equal(bg.rollout(pos, games=3000, seed=7, policy=fast,
                                         executor=pool).strata, base.strata)
    with ProcessPoolExecutor(2) as pool:
        assert np.array_equal(
            bg.rollout(pos, games=3000, seed=7, policy=fast, executor=pool,
                       chunk_games=500).strata, base.strata)


@pytest.mark.slow
def test_dask_local_cluster_gives_the_local_result():
    distributed = pytest.importorskip("distributed")
    pos = bg.Position.initial()
    base = bg.rollout(pos, games=2592, seed=9, policy="pubeval")
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                                  dashboard_address=None) as cluster:
        with distributed.Client(cluster) as client:
            r = bg.rollout(pos, games=2592, seed=9, policy="pubeval",
                           executor=client.get_executor(), chunk_games=648)
    assert np.array_equal(r.strata, base.strata)


def test_a_python_evaluator_matches_the_built_in_policy_in_a_race():
    # In a race the race flag cannot change, so pubeval's scores as a Python
    # batch evaluator make the very same choices as the built-in policy.
    pos = board({6: 3, 5: 3, 4: 3, 8: 2, 10: 2}, {20: 4, 21: 4, 22: 3, 15: 2})
    assert pubeval.is_race(pos)
    calls = []

    def evaluator(candidates):
        calls.append(len(candidates))
        return pubeval.scores(candidates, race=True)

    mine = bg.rollout(pos, games=1296, seed=5, policy=evaluator, in_flight=100)
    built_in = bg.rollout(pos, games=1296, seed=5, policy="pubeval")
    assert np.array_equal(mine.strata, built_in.strata)
    assert max(calls) > 100  # candidates of many games in one call


@pytest.mark.slow
def test_random_opening_rollout_agrees_with_an_independent_simulator():
    # A slow simulator with its own move generator (tests/reference.py) and
    # Python's random: uniform over distinct plays, both sides, to the end.
    rng = random.Random(2026)

    def swap(b):
        return tuple(-b[25 - i] for i in range(26))

    def game():
        b, ply = INITIAL, 0
        while True:
            r = rng.choice(sorted(reference_results(b, rng.randint(1, 6), rng.randint(1, 6))))
            if not any(v > 0 for v in r):
                opp = -sum(v for v in r if v < 0)
                kind = 1 if opp < 15 else (3 if r[0] < 0 or any(v < 0 for v in r[1:7]) else 2)
                return kind if ply % 2 == 0 else -kind
            b, ply = swap(r), ply + 1

    n = 1000
    points = [game() for _ in range(n)]
    slow_win = sum(p > 0 for p in points) / n
    slow_gammon = sum(p >= 2 for p in points) / n
    fast = bg.rollout(bg.Position.initial(), games=36 * 36 * 20, seed=1, policy="random")
    for slow, est in ((slow_win, fast.win), (slow_gammon, fast.win_gammon)):
        se_slow = (slow * (1 - slow) / n) ** 0.5
        assert abs(slow - est.value) < 4 * (se_slow ** 2 + est.stderr ** 2) ** 0.5


def test_result_reads_well_and_serialises():
    r = bg.rollout(bg.Position.initial(), games=1296, seed=1, policy="pubeval")
    text = str(r)
    assert "win gammon" in text and "equity" in text and "games/s" in text
    d = r.to_dict()
    assert d["games"] == 1296 and d["seed"] == 1 and d["position_id"] == "4HPwATDgc/ABMA"
    assert d["win"]["ci95"][0] <= d["win"]["value"] <= d["win"]["ci95"][1]
    assert 0 < r.win.value < 1 and r.win.low < r.win.value < r.win.high
    assert f"{r.equity:+.3f}".startswith(("+", "-"))
    assert r.games_per_second > 0 and r.mean_plies > 10


def test_progress_callback_and_bar(capsys):
    seen = []
    fast = bg.Evaluator.fast()
    bg.rollout(bg.Position.initial(), games=2592, seed=1, chunk_games=1296, policy=fast,
               progress=lambda done, total: seen.append((done, total)))
    assert seen == [(1296, 2592), (2592, 2592)]
    bg.rollout(bg.Position.initial(), games=1296, seed=1, policy=fast, progress=True)
    err = capsys.readouterr().err
    assert "1,296" in err or "1.30k" in err  # the plain bar, or tqdm's


@pytest.mark.parametrize("kwargs, match", [
    ({"games": 0}, "games"),
    ({"games": -5}, "games"),
    ({"games": 2.5}, "games"),
    ({"policy": "gnubg"}, "unknown policy"),
    ({"seed": -1}, "seed"),
    ({"seed": 2**64}, "seed"),
    ({"workers": 0}, "workers"),
    ({"workers": 2, "executor": ThreadPoolExecutor(1)}, "not both"),
    ({"executor": object()}, "Executor"),
    ({"policy": lambda c: np.zeros(len(c)), "workers": 2}, "callable policy"),
])
def test_bad_arguments(kwargs, match):
    with pytest.raises(bg.RolloutError, match=match):
        bg.rollout(bg.Position.initial(), **{"games": 100, **kwargs})


@pytest.mark.parametrize("policy, match", [
    (lambda c: np.zeros(len(c) + 1), "scores for"),
    (lambda c: np.zeros((len(c), 2)), "scores for"),
    (lambda c: np.full(len(c), np.nan), "returned nan"),
    (lambda c: [float("inf")] * len(c), "returned inf"),
    (lambda c: "high", "numbers|scores for"),
    (lambda c: None, "numbers|scores for"),
])
def test_a_misbehaving_evaluator_raises_and_does_not_hang(policy, match):
    with pytest.raises(bg.RolloutError, match=match):
        bg.rollout(bg.Position.initial(), games=50, seed=1, policy=policy)


def test_an_evaluator_exception_propagates():
    def boom(candidates):
        raise KeyError("model not loaded")

    with pytest.raises(KeyError, match="model not loaded"):
        bg.rollout(bg.Position.initial(), games=10, seed=1, policy=boom)


def test_finished_position_is_refused():
    with pytest.raises(bg.RolloutError, match="over"):
        bg.rollout(bg.Position.from_array([-1] + [0] * 25), games=10)


def test_cli_rollout(capsys):
    from backgammon.cli import main

    assert main(["rollout", "--games", "1296", "--seed", "3", "--workers", "2",
                 "--no-progress"]) == 0
    out = capsys.readouterr().out
    assert "1,296 games" in out and "policy net" in out and "equity" in out
    assert main(["rollout", "4HPwATDgc/ABMA", "--games", "1296", "--seed", "3",
                 "--policy", "random", "--json"]) == 0
    captured = capsys.readouterr()
    import json

    assert json.loads(captured.out)["policy"] == "random"
    assert "rollout" in captured.err  # the progress bar went to stderr
    # --policy fast: the bundled fast nets play, as bg.rollout with them does
    assert main(["rollout", "--games", "1296", "--seed", "3", "--policy", "fast", "--json",
                 "--no-progress"]) == 0
    got = json.loads(capsys.readouterr().out)
    want = bg.rollout(bg.Position.initial(), games=1296, seed=3, policy=bg.Evaluator.fast())
    assert got["equity"]["value"] == pytest.approx(want.equity.value, abs=1e-12)


# Both sides on the bar against a closed board: neither can ever move (RULES 5.1, 4.4).
FROZEN = {"own": {25: 2, 1: 2, 2: 2, 3: 2, 4: 2, 5: 2, 6: 2, 13: 1},
          "opp": {0: 2, 19: 2, 20: 2, 21: 2, 22: 2, 23: 2, 24: 2, 12: 1}}


def test_a_position_where_neither_side_can_ever_move_is_refused_up_front():
    frozen = board(**FROZEN)
    for pos in (frozen, frozen.swapped()):
        with pytest.raises(bg.RolloutError, match="can never end.*neither side can move"):
            bg.rollout(pos, games=10, seed=1)
        with pytest.raises(bg.RolloutError, match="can never end"):
            bg.rollout(pos, games=10, seed=1, policy=lambda c: np.zeros(len(c)))


def test_one_side_closed_out_still_rolls_out():
    # only the player on roll is stuck: the other side moves, so games end
    own = dict(FROZEN["own"])
    opp = {19: 2, 20: 2, 21: 2, 22: 2, 23: 2, 24: 2, 12: 3}
    r = bg.rollout(board(own, opp), games=200, seed=1)
    assert r.games == 200
    # and the other way round: the player on roll is free, the opponent stuck
    r = bg.rollout(board(own, opp).swapped(), games=200, seed=1)
    assert r.games == 200


def test_the_ply_cap_stays_as_a_guard_and_raises_rollout_error():
    from backgammon import _bgcore

    frozen = board(**FROZEN)._b
    with pytest.raises(bg.RolloutError, match="100,000 plies"):
        _bgcore.playout(frozen, 1, 0, 1, 0, True)
    with pytest.raises(bg.RolloutError, match="100,000 plies"):
        _bgcore.playout_batched(frozen, 1, 0, 1, True, lambda c: np.zeros(len(c)), 1)


def test_cli_prints_a_clean_error_for_a_position_that_never_ends(capsys):
    from backgammon.cli import main

    assert main(["rollout", board(**FROZEN).position_id(), "--games", "10",
                 "--no-progress"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("backgammon: error: the game can never end")
    assert "Traceback" not in err


@pytest.mark.parametrize("games, workers", [
    (1, 2), (5, 2), (1296, 2), (25_920, 2), (25_921, 2), (64_800, 3), (10**7, 2),
    (1296 * 20, None), (99_999, 7)])
def test_default_chunks_are_equal_and_a_multiple_of_the_workers(games, workers):
    from backgammon.rollout.engine import chunks as _chunks

    chunks = list(_chunks(games, workers, None, None))
    firsts = [first for first, _ in chunks]
    counts = [count for _, count in chunks]
    assert firsts == [sum(counts[:i]) for i in range(len(counts))]  # contiguous from 0
    assert sum(counts) == games and min(counts) >= 1
    assert max(counts) - min(counts) <= 1                 # equal within one game
    if len(chunks) >= (workers or 1):
        assert len(chunks) % (workers or 1) == 0          # every thread the same number
    assert max(counts) <= 1296 * 64                       # progress and memory stay bounded


def test_chunks_of_a_huge_rollout_come_lazily():
    from backgammon.rollout.engine import chunks as _chunks

    chunks = _chunks(2**53, 2, None, None)   # 10**11 chunks: none is listed up front
    first, second = next(chunks), next(chunks)
    assert first == (0, 1296 * 64) and second == (1296 * 64, 1296 * 64)


@pytest.mark.parametrize("kwargs, match", [
    ({"games": 2**63}, "games"),
    ({"games": 2**53 + 1}, "games"),
    ({"workers": 10**6}, "workers"),
    ({"in_flight": 2**40}, "in_flight"),
    ({"chunk_games": 2**63}, "chunk_games"),
    ({"chunk_games": 0}, "chunk_games"),
])
def test_huge_sizes_are_refused(kwargs, match):
    with pytest.raises(bg.RolloutError, match=match):
        bg.rollout(bg.Position.initial(), **{"games": 100, **kwargs})


def test_summary_says_plainly_when_stratifying_gained_nothing():
    import dataclasses

    r = bg.rollout(bg.Position.initial(), games=2592, seed=1, policy=bg.Evaluator.fast())
    same = dataclasses.replace(r, unstratified_stderr=r.equity.stderr * 1.01)
    text = str(same)
    assert "gained nothing measurable" in text and "cut the equity error" not in text
    better = dataclasses.replace(r, unstratified_stderr=r.equity.stderr * 1.5)
    assert "cut the equity error" in str(better) and "(1.50x)" in str(better)
