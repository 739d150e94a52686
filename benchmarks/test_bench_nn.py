"""Neural evaluator benchmarks (pytest-benchmark): 0-ply evaluations a second
in batches of distinct positions (AVX2 and the SSE2 baseline), the net's move
choice, and rollouts with the net policy on one and two threads.  Each
checks its answer (shapes, identical statistics across rounds).

    python -m pytest benchmarks/test_bench_nn.py --benchmark-only

Peer comparisons (gnubg-nn, gnubg) are in compare_peers.py (``nn`` section).
"""

from __future__ import annotations

import random

import numpy as np
import pytest

pytest.importorskip("pytest_benchmark", reason="the benchmarks need pytest-benchmark")

import backgammon as bg
from backgammon import _bgcore
from compare_peers import nn_positions

N = 20_000
GAMES = 1296 * 2


@pytest.fixture(scope="module")
def positions() -> np.ndarray:
    return nn_positions(bg, N, seed=2026)  # the same positions compare_peers.py times


@pytest.mark.benchmark(group="nn-eval")
@pytest.mark.parametrize("avx2", [True, False], ids=["avx2-if-available", "sse2"])
def test_evaluate_batch(benchmark, positions, avx2):
    """0-ply evaluations of 20,000 distinct positions, one call, one thread."""
    ev = bg.Evaluator.default()
    before = _bgcore.NN_AVX2
    _bgcore.nn_use_avx2(avx2)
    try:
        out = benchmark.pedantic(ev.evaluate_batch, (positions,), rounds=7, iterations=1,
                                 warmup_rounds=1)
    finally:
        _bgcore.nn_use_avx2(before)
    assert out.shape == (N, 5)
    benchmark.extra_info["positions"] = N
    benchmark.extra_info["avx2"] = bool(_bgcore.NN_AVX2 and avx2)
    if getattr(benchmark, "stats", None):
        benchmark.extra_info["evals_per_second"] = round(N / benchmark.stats.stats.median)


@pytest.mark.benchmark(group="nn-choose")
@pytest.mark.parametrize("keep", [0, 4], ids=["full", "prune4"])
def test_move_choice(benchmark, positions, keep):
    """The net policy's choice (incremental first layer) for 2,000 (position, roll)
    pairs; prune4: screened by the bundled pruning nets, keeping 4 plays."""
    ev = bg.Evaluator.default().with_pruning(keep=keep)
    rng = random.Random(1)
    rows = positions[:2000]
    dice = np.array([(rng.randint(1, 6), rng.randint(1, 6)) for _ in rows], np.uint8)
    results, offsets = _bgcore.batch_successors(rows, dice)
    picks, _ = benchmark(ev._nets.choose_groups, rows, results, offsets, best_only=True)
    assert len(picks) == len(rows)
    benchmark.extra_info["candidates"] = int(len(results))
    if getattr(benchmark, "stats", None):
        benchmark.extra_info["candidates_per_second"] = round(len(results) / benchmark.stats.stats.median)


@pytest.mark.benchmark(group="nn-rollout")
@pytest.mark.parametrize("workers", [1, 2])
@pytest.mark.parametrize("keep", [0, 4], ids=["full", "prune4"])
def test_net_rollout(benchmark, workers, keep):
    """Opening position, 2,592 games with the net policy (prune4: screened, keeping 4)."""
    pos = bg.Position.initial()
    results = []
    policy = bg.Evaluator.default().with_pruning(keep=keep) if keep else "net"

    def run():
        r = bg.rollout(pos, games=GAMES, policy=policy, seed=2026, workers=workers)
        results.append(r)
        return r

    r = benchmark.pedantic(run, rounds=3, iterations=1, warmup_rounds=1)
    assert r.games == GAMES and all(np.array_equal(x.strata, r.strata) for x in results)
    if getattr(benchmark, "stats", None):
        benchmark.extra_info["games_per_second"] = round(GAMES / benchmark.stats.stats.median)
