"""Duels over duplicate dice: self-play is exactly even, workers do not
change results, callables agree with the core, and bad arguments."""

from __future__ import annotations

import numpy as np
import pytest

import backgammon as bg
from backgammon.nn import Evaluator


@pytest.mark.parametrize("policy", ["net", "pubeval", "random"])
def test_a_policy_against_itself_is_exactly_even(policy):
    # With duplicate dice the two games of a pair see the same rolls at the
    # same plies.  A policy whose choice depends only on the position and the
    # game's own stream (random draws from the dice stream, identically in both
    # games) plays the same moves in both, so the games are identical and each
    # side wins one of them by the same points: every pair sums to 0.
    r = bg.duel(policy, policy, games=200, seed=4)
    assert r.games == 200 and r.ppg.value == 0.0 and r.ppg.stderr == 0.0
    assert r.wins == (100, 100) and r.gammons[0] == r.gammons[1]


def test_a_noisy_policy_against_itself_is_even_within_its_error():
    rng = np.random.default_rng(7)
    r = bg.duel(lambda c: rng.random(len(c)), lambda c: rng.random(len(c)), games=1000, seed=5)
    assert r.ppg.stderr > 0
    assert abs(r.ppg.value) < 4 * r.ppg.stderr


def test_workers_do_not_change_the_result():
    one = bg.duel("net", "pubeval", games=300, seed=9, workers=1)
    two = bg.duel("net", "pubeval", games=300, seed=9, workers=3)
    assert one == two
    assert one.games == 300 and sum(one.wins) == 300


def test_a_callable_plays_like_the_evaluator_it_wraps():
    ev = Evaluator.default().with_pruning(keep=0)   # a callable scores every play

    def net_scores(cands):  # candidates are seen by the mover: swap, negate
        return -ev.equities(-cands[:, ::-1])

    a = bg.duel(net_scores, "random", games=100, seed=2)
    b = bg.duel(ev, "random", games=100, seed=2)
    assert (a.ppg, a.wins, a.gammons, a.backgammons) == (b.ppg, b.wins, b.gammons, b.backgammons)


def test_stronger_beats_weaker_and_the_sides_are_antisymmetric():
    r = bg.duel("pubeval", "random", games=200, seed=1)
    assert r.ppg.value > 1.0 and r.ppg.low > 0
    s = bg.duel("random", "pubeval", games=200, seed=1)
    # seats swap within each pair, so swapping a and b negates every pair
    assert s.ppg.value == -r.ppg.value and s.wins == r.wins[::-1]
    assert "pubeval vs random" in str(r)


def test_error_comes_from_pair_totals():
    r = bg.duel("net", "pubeval", games=400, seed=3)
    assert 0 < r.ppg.stderr < 0.2
    assert r.ppg.low < r.ppg.value < r.ppg.high


def test_odd_games_round_up_to_pairs():
    assert bg.duel("random", "pubeval", games=3, seed=1).games == 4


def test_bad_arguments():
    with pytest.raises(bg.RolloutError, match="unknown policy"):
        bg.duel("gnubg", "net", games=2)
    with pytest.raises(bg.RolloutError, match="unknown policy"):
        bg.duel(3, "net", games=2)
    with pytest.raises(bg.RolloutError, match="games"):
        bg.duel("net", "net", games=0)
    with pytest.raises(bg.RolloutError, match="seed"):
        bg.duel("net", "net", games=2, seed=-1)
    with pytest.raises(bg.RolloutError, match="calling thread"):
        bg.duel(lambda c: np.zeros(len(c)), "net", games=2, workers=2)
    with pytest.raises(bg.RolloutError, match="scores"):
        bg.duel(lambda c: np.zeros(len(c) + 1), "net", games=2, seed=1)
    with pytest.raises(bg.RolloutError, match="over"):
        bg.duel("net", "net", games=2, position=bg.Position.from_array([-1] + [0] * 25))


def test_cli_duel(capsys, tmp_path):
    from backgammon.cli import main

    assert main(["duel", "net", "pubeval", "--games", "100", "--seed", "1"]) == 0
    assert "net vs pubeval" in capsys.readouterr().out
    path = tmp_path / "n.npz"
    Evaluator.default().save(path)
    assert main(["duel", str(path), "random", "--games", "20", "--seed", "1"]) == 0
    assert main(["duel", str(tmp_path / "none.npz"), "random", "--games", "2"]) == 2
    # "fast" names the bundled fast nets: the same games as passing them
    assert main(["duel", "fast", "pubeval", "--games", "40", "--seed", "2"]) == 0
    out = capsys.readouterr().out
    want = bg.duel(Evaluator.fast(), "pubeval", games=40, seed=2)
    assert f"{want.ppg:+.4f}" in out


@pytest.mark.ctrl_c
@pytest.mark.skipif(not hasattr(__import__("signal"), "pthread_kill"), reason="POSIX signals")
@pytest.mark.parametrize("workers", [1, 2])
def test_a_duel_stops_on_ctrl_c(workers):
    import threading

    from test_interrupts import STOPPED_WITHIN, _interrupted

    latency = _interrupted(lambda: bg.duel("net", "pubeval", games=10_000_000, seed=1,
                                           workers=workers))
    assert latency < STOPPED_WITHIN
    assert not [t for t in threading.enumerate() if t.name.startswith("backgammon-duel")]


@pytest.mark.slow
def test_net_rollouts_are_identical_for_any_workers():
    ev = Evaluator.default()
    pos = bg.Position.initial()
    one = bg.rollout(pos, games=1296, seed=5, policy=ev, workers=1)
    three = bg.rollout(pos, games=1296, seed=5, policy=ev, workers=3, chunk_games=300)
    named = bg.rollout(pos, games=1296, seed=5, policy="net", workers=2)
    assert np.array_equal(one.strata, three.strata) and np.array_equal(one.strata, named.strata)
    assert one.policy == "net" and one.games == 1296
    # the net policy is neither random nor pubeval
    assert not np.array_equal(one.strata, bg.rollout(pos, games=1296, seed=5,
                                                     policy="pubeval").strata)


def test_results_name_the_nets_that_played(tmp_path):
    # rollouts and duels name an Evaluator by what it is, not "net" for any nets
    import pickle
    pos = bg.Position.initial()
    assert bg.rollout(pos, games=36, seed=1, policy=Evaluator.default()).policy == "net"
    assert bg.rollout(pos, games=36, seed=1, policy=Evaluator.fast()).policy == "fast"
    mine = Evaluator.random(hidden=(8, 4), seed=1)
    assert bg.rollout(pos, games=36, seed=1, policy=mine).policy == "net(contact 8/race 4)"
    mine.save(tmp_path / "mine.npz")
    loaded = Evaluator.load(tmp_path / "mine.npz")
    assert loaded.policy_name == "net(mine.npz)"
    assert pickle.loads(pickle.dumps(loaded)).policy_name == "net(mine.npz)"
    assert loaded.copy().policy_name == "net(mine.npz)"
    result = bg.duel(loaded, Evaluator.default(), games=4, seed=2)
    assert (result.a, result.b) == ("net(mine.npz)", "net")
    plays = bg.rollout_plays(pos, (3, 1), top=2, games=36, seed=1, policy=loaded)
    assert plays.policy == "net(mine.npz)"
