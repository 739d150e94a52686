"""Bear-off database benchmarks (pytest-benchmark): its build, and lookups.

    python -m pytest benchmarks/test_bench_bearoff.py --benchmark-only

Every benchmark checks its answer.  The lookups are timed on 20,000 random
bear-off positions (both sides 1-15 checkers, each on a uniform home point);
pubeval's batch scores of the same boards, timed in the same run, give a
baseline for the ratio.
"""

from __future__ import annotations

import numpy as np
import pytest

pytest.importorskip("pytest_benchmark", reason="the benchmarks need pytest-benchmark")

from backgammon import Position, _bgcore, bearoff, pubeval

N = 20_000


def _record(benchmark, **work: int) -> None:
    median = getattr(getattr(getattr(benchmark, "stats", None), "stats", None), "median", None)
    for name, amount in work.items():
        benchmark.extra_info[name] = amount
        if median:
            benchmark.extra_info[f"{name}_per_second"] = round(amount / median)


@pytest.fixture(scope="module")
def boards() -> np.ndarray:
    rng = np.random.default_rng(2026)
    out = np.zeros((N, 26), dtype=np.int8)
    for side, sign, first in ((0, 1, 1), (1, -1, 19)):
        counts = rng.integers(1, 16, size=N)
        for r, k in enumerate(counts):
            home = np.bincount(rng.integers(0, 6, size=k), minlength=6)
            out[r, first:first + 6] = sign * (home if side == 0 else home[::-1])
    return out


@pytest.mark.benchmark(group="bearoff")
def test_build(benchmark):
    """One whole build of the database (54,264 positions x 21 rolls), GIL released."""
    mean = benchmark.pedantic(_bgcore.bearoff_build_fresh, rounds=5, warmup_rounds=1)
    assert mean == pytest.approx(bearoff.expected_turns([0, 0, 0, 0, 0, 15]))
    assert 12 < mean < 13
    _record(benchmark, positions=bearoff.NPOS)


@pytest.mark.benchmark(group="bearoff")
def test_batch_probabilities(benchmark, boards):
    """``bearoff.batch_probabilities`` on 20,000 boards in one call."""
    p = benchmark(bearoff.batch_probabilities, boards)
    assert p.shape == (N, 5)
    assert (p[:, 0] >= p[:, 1]).all() and not p[:, 2].any() and not p[:, 4].any()
    np.testing.assert_array_equal(p[123], bearoff.probabilities(boards[123]))
    _record(benchmark, positions=N)


@pytest.mark.benchmark(group="bearoff")
def test_probabilities_loop(benchmark, boards):
    """2,000 ``bearoff.probabilities(position)`` calls on pre-built positions."""
    positions = [Position(b) for b in boards[:2000]]
    out = benchmark(lambda: [bearoff.probabilities(p) for p in positions])
    np.testing.assert_array_equal(np.array(out), bearoff.batch_probabilities(boards[:2000]))
    _record(benchmark, calls=len(positions))


@pytest.mark.benchmark(group="bearoff")
def test_pubeval_scores_baseline(benchmark, boards):
    """Baseline: ``pubeval.scores`` of the same 20,000 boards in one call."""
    s = benchmark(pubeval.scores, boards, True)
    assert s.shape == (N,) and np.isfinite(s).all()
    _record(benchmark, positions=N)
