"""Rollout benchmarks (pytest-benchmark): games per second of the opening
position, one core, for the random and pubeval policies, and the scaling with
2 native threads.  Each benchmark asserts the games it played and, since a
seed fixes the games, that every round gave the same statistics.

    python -m pytest benchmarks/test_bench_rollout.py --benchmark-only
"""

from __future__ import annotations

import numpy as np
import pytest

pytest.importorskip("pytest_benchmark", reason="the benchmarks need pytest-benchmark")

import backgammon as bg

GAMES = 1296 * 20  # 25,920 games a round, first two rolls balanced


def _rollout_benchmark(benchmark, policy: str, workers: int):
    pos = bg.Position.initial()
    results = []

    def run():
        r = bg.rollout(pos, games=GAMES, policy=policy, seed=2026, workers=workers)
        results.append(r)
        return r

    result = benchmark.pedantic(run, rounds=5, iterations=1, warmup_rounds=1)
    assert result.games == GAMES and int(result.strata[:, 0].sum()) == GAMES
    assert all(np.array_equal(r.strata, result.strata) for r in results)
    median = benchmark.stats.stats.median if getattr(benchmark, "stats", None) else None
    benchmark.extra_info["games"] = GAMES
    benchmark.extra_info["mean_plies"] = round(result.mean_plies, 2)
    if median:
        benchmark.extra_info["games_per_second"] = round(GAMES / median)
    return result


@pytest.mark.benchmark(group="rollout")
@pytest.mark.parametrize("policy", ["random", "pubeval"])
def test_rollout_one_thread(benchmark, policy):
    """Opening position, 25,920 games, one native thread."""
    _rollout_benchmark(benchmark, policy, workers=1)


@pytest.mark.benchmark(group="rollout")
@pytest.mark.parametrize("policy", ["random", "pubeval"])
def test_rollout_two_threads(benchmark, policy):
    """The same games on 2 native threads: compare with the one-thread median."""
    _rollout_benchmark(benchmark, policy, workers=2)


# The net policy: cubeless, cubeful (issue 11: target at least 70% of the
# cubeless speed) and luck-adjusted (issue 12), from the opening position.
# Compare the medians of one run.
NET_GAMES = 1296
VR_GAMES = 72


def _net_benchmark(benchmark, games: int, rounds: int, **options):
    pos = bg.Position.initial()
    results = []

    def run():
        r = bg.rollout(pos, games=games, seed=2026, workers=1, **options)
        results.append(r)
        return r

    result = benchmark.pedantic(run, rounds=rounds, iterations=1, warmup_rounds=1)
    assert result.games == games and int(result.strata[:, 0].sum()) == games
    assert all(np.array_equal(r.strata, result.strata) for r in results)
    median = benchmark.stats.stats.median if getattr(benchmark, "stats", None) else None
    benchmark.extra_info["games"] = games
    benchmark.extra_info["mean_plies"] = round(result.mean_plies, 2)
    if median:
        benchmark.extra_info["games_per_second"] = round(games / median, 1)
    return result


@pytest.mark.benchmark(group="rollout-net")
@pytest.mark.parametrize("cube", [False, True], ids=["cubeless", "cubeful"])
def test_rollout_net(benchmark, cube):
    """Opening position, 1,296 games with the nets, one thread, with and without the cube."""
    _net_benchmark(benchmark, NET_GAMES, 3, cube=cube)


@pytest.mark.benchmark(group="rollout-net")
def test_rollout_net_variance_reduction(benchmark):
    """72 luck-adjusted games (21 move choices a ply): games/s against test_rollout_net."""
    r = _net_benchmark(benchmark, VR_GAMES, 3, variance_reduction=True, cube=True)
    assert r.plain_equity is not None
