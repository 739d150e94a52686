"""Match analysis benchmarks (pytest-benchmark): a 7-point match analysed at 0-ply.

    python -m pytest benchmarks/test_bench_analysis.py --benchmark-only

The match is played once per session, seeded: both sides make the nets'
0-ply best play, and double, take and pass by the pip-count policy
(:class:`backgammon.PipCountCubePolicy`), so the record has doubles, takes and
passes as well as plays.  Timed in the same run:

* ``analyse``: :func:`backgammon.analyse` of the whole match (checker plays,
  cube decisions and the luck of every roll), default nets, 0-ply;
* ``analyse_deeper[1]``, ``[2]``: the same at 1-ply and 2-ply;
* ``analyse_no_cube``: the same with ``cube=False``;
* ``replay``: replaying every game from its actions (what the analysis does
  besides evaluating), the baseline.

The issue's target is under 2 seconds for about 150 decisions at 0-ply.
"""

from __future__ import annotations

import pytest

pytest.importorskip("pytest_benchmark", reason="the benchmarks need pytest-benchmark")
nn = pytest.importorskip("backgammon.nn", reason="match analysis needs the nets")

import backgammon as bg


@pytest.fixture(scope="module")
def match():
    policy = bg.PipCountCubePolicy()
    m = bg.Match(7, rng=2024)
    while True:
        g = m.game
        while not g.over:
            if g.phase is bg.Phase.OPENING:
                g.roll()
            elif g.phase is bg.Phase.ROLL:
                g.double() if policy.should_double(g) else g.roll()
            elif g.phase is bg.Phase.DOUBLED:
                g.take() if policy.should_take(g) else g.drop()
            else:
                g.play(nn.best_play(g.position, g.dice))
        if m.over:
            return m
        m.next_game()


def _record(benchmark, result) -> None:
    benchmark.extra_info["decisions"] = len(result.decisions)
    benchmark.extra_info["cube_decisions"] = sum(d.kind == "cube" for d in result.decisions)
    benchmark.extra_info["rolls"] = len(result.rolls)


def test_analyse(benchmark, match):
    nn.Evaluator.default()  # loaded outside the timing
    result = benchmark(bg.analyse, match, ply=0)  # 0-ply: the figures in benchmarks/README.md
    _record(benchmark, result)
    assert len(result.decisions) > 50
    assert all(d.loss >= 0 for d in result.decisions)


@pytest.mark.parametrize("ply", [1, 2])
def test_analyse_deeper(benchmark, match, ply):
    """The whole match at 1-ply and 2-ply (gnubg-style move filters): the
    analysis default is the deepest level that does a 7-point match in under
    10 seconds (issue 15)."""
    nn.Evaluator.default()
    result = benchmark.pedantic(bg.analyse, args=(match,), kwargs={"ply": ply},
                                rounds=3, iterations=1)
    _record(benchmark, result)
    assert result.ply == ply and len(result.decisions) > 50


def test_analyse_no_cube(benchmark, match):
    result = benchmark(bg.analyse, match, ply=0, cube=False)
    _record(benchmark, result)
    assert all(d.kind == "play" for d in result.decisions)


def test_replay(benchmark, match):
    def replay():
        for game in match.games:
            again = game.restart()
            again.replay(game.actions)
        return again

    assert benchmark(replay).over
