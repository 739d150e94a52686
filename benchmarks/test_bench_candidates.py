"""Rolling out the candidate plays of a roll (pytest-benchmark): the 5 best
plays of the opening 3-1, 1,296 games each, with the net policy on 2 native
threads (issue 12's target: under 10 s on 2 cores), and as a baseline the
same five rollouts made one after the other with ``rollout()``.  A seed fixes
the games, so every round must give the same rows, and the rows must equal
the plain rollouts of the positions after the plays.

    python -m pytest benchmarks/test_bench_candidates.py --benchmark-only
"""

from __future__ import annotations

import pytest

pytest.importorskip("pytest_benchmark", reason="the benchmarks need pytest-benchmark")

import backgammon as bg

GAMES = 1296
POS = bg.Position.initial()
DICE = (3, 1)


@pytest.mark.benchmark(group="candidates")
def test_rollout_plays_opening_top5_net(benchmark):
    """rollout_plays(initial, 3-1, top=5, games=1,296, policy="net", workers=2)."""
    results = []

    def run():
        r = bg.rollout_plays(POS, DICE, top=5, games=GAMES, seed=2026, workers=2)
        results.append(r)
        return r

    rows = benchmark.pedantic(run, rounds=3, iterations=1, warmup_rounds=0)
    assert len(rows) == 5 and rows.games == GAMES
    assert all(r == rows for r in (x.__class__(**{**x.__dict__, "seconds": rows.seconds})
                                   for x in results))
    benchmark.extra_info["games"] = 5 * GAMES


@pytest.mark.benchmark(group="candidates")
def test_five_plain_rollouts_baseline(benchmark):
    """The same games as five rollout() calls (workers=2), one per play."""
    plays = [r.play for r in POS.rank_plays(DICE)[:5]]

    def run():
        return [bg.rollout(p.result.swapped(), games=GAMES, seed=2026, workers=2)
                for p in plays]

    rollouts = benchmark.pedantic(run, rounds=3, iterations=1, warmup_rounds=0)
    rows = bg.rollout_plays(POS, DICE, plays=plays, games=GAMES, seed=2026, workers=2)
    by_play = {r.play: r for r in rows}
    for play, theirs in zip(plays, rollouts):
        assert by_play[play].equity.value == pytest.approx(-theirs.equity.value, abs=1e-12)
    benchmark.extra_info["games"] = 5 * GAMES
