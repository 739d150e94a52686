"""Move-generation and perft benchmarks (pytest-benchmark).

Every benchmark also asserts the counts of the work it timed, so a fast wrong
answer fails instead of reporting a good number.  Throughput (positions or
calls per second, from the median round) is written to ``extra_info`` and shows
up in ``--benchmark-json`` output.

    python -m pytest benchmarks --benchmark-only
"""

from __future__ import annotations

import numpy as np
import pytest

pytest.importorskip("pytest_benchmark", reason="the benchmarks need pytest-benchmark")

import backgammon
from backgammon import Position

# Totals of tests/data/movegen.jsonl.gz (also checked by conftest when loading).
# Not imported from conftest: with several conftest.py files in one session the
# module named "conftest" may be another directory's.
CORPUS_ROWS = 3389
CORPUS_RESULTS = 40_068

PERFT2_21 = 202_782
# perft 3 (21 rolls) from the opening position is not in tests/data/perft.txt.
# This value was counted independently with GNU Backgammon's move generator
# (gnubg_nn.moves): `python benchmarks/compare_peers.py --perft 3`.
PERFT3_21 = 116_154_993


def _median(benchmark) -> float | None:
    """Median seconds per round, or None when benchmarking is disabled."""
    meta = getattr(benchmark, "stats", None)
    stats = getattr(meta, "stats", None)
    median = getattr(stats, "median", None)
    return median if median else None


def _record(benchmark, **work: int) -> None:
    """Store the work done per round and its rate (per second, median round)."""
    median = _median(benchmark)
    for name, amount in work.items():
        benchmark.extra_info[name] = amount
        if median is not None:
            benchmark.extra_info[f"{name}_per_second"] = round(amount / median)


# ---------------------------------------------------------------------------
# Move generation over the whole corpus


@pytest.mark.benchmark(group="movegen")
def test_batch_successors(benchmark, corpus):
    """``backgammon.batch_successors`` on all 3,389 corpus rows in one call."""
    boards, dice = corpus.boards, corpus.dice

    results, offsets = benchmark(backgammon.batch_successors, boards, dice)

    assert results.shape == (CORPUS_RESULTS, 26)
    assert offsets.shape == (CORPUS_ROWS + 1,)
    assert int(offsets[-1]) == CORPUS_RESULTS
    assert np.array_equal(np.diff(offsets), corpus.counts)
    _record(benchmark, rows=CORPUS_ROWS, positions=CORPUS_RESULTS)


@pytest.mark.benchmark(group="movegen")
def test_position_successors(benchmark, corpus, corpus_positions):
    """``Position.successors(dice)``: one Python call per corpus row."""
    positions, dice = corpus_positions
    per_row = [len(p.successors(d)) for p, d in zip(positions, dice)]
    assert per_row == corpus.counts.tolist()

    def run() -> int:
        n = 0
        for p, d in zip(positions, dice):
            n += len(p.successors(d))
        return n

    total = benchmark(run)

    assert total == CORPUS_RESULTS
    _record(benchmark, calls=len(positions), positions=CORPUS_RESULTS)


@pytest.mark.benchmark(group="movegen")
def test_position_legal_plays(benchmark, corpus, corpus_positions):
    """``Position.legal_plays(dice)`` and its ``len()``, one call per corpus row."""
    positions, dice = corpus_positions
    per_row = [len(p.legal_plays(d)) for p, d in zip(positions, dice)]
    assert per_row == corpus.counts.tolist()

    def run() -> int:
        n = 0
        for p, d in zip(positions, dice):
            plays = p.legal_plays(d)
            n += len(plays)
        return n

    total = benchmark(run)

    assert total == CORPUS_RESULTS
    _record(benchmark, calls=len(positions), plays=CORPUS_RESULTS)


# ---------------------------------------------------------------------------
# perft


@pytest.mark.benchmark(group="perft")
@pytest.mark.parametrize("rolls", [21, 36])
def test_perft2(benchmark, perft_known, rolls):
    """perft 2 from the opening position; exact value from tests/data/perft.txt."""
    start = Position.initial()
    assert backgammon.perft(start, 1, rolls=rolls) == perft_known[(1, rolls)]

    leaves = benchmark(backgammon.perft, start, 2, rolls=rolls)

    assert leaves == perft_known[(2, rolls)]
    _record(benchmark, leaves=leaves)


@pytest.mark.benchmark(group="perft")
def test_perft3(benchmark, perft_known):
    """perft 3 (21 rolls) from the opening position: a few seconds a round."""
    start = Position.initial()
    assert backgammon.perft(start, 1) == perft_known[(1, 21)] == 447
    assert backgammon.perft(start, 2) == perft_known[(2, 21)] == PERFT2_21
    seen: list[int] = []

    def run() -> int:
        leaves = backgammon.perft(start, 3)
        seen.append(leaves)
        return leaves

    leaves = benchmark.pedantic(run, rounds=3, iterations=1, warmup_rounds=0)

    assert len(set(seen)) == 1, f"perft 3 not stable across rounds: {seen}"
    assert leaves > PERFT2_21 * 100, leaves
    assert leaves == PERFT3_21, f"perft 3 = {leaves}, gnubg counts {PERFT3_21}"
    benchmark.extra_info["perft3"] = leaves
    _record(benchmark, leaves=leaves)
