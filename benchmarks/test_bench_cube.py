"""Cube decision benchmarks (pytest-benchmark): the C model (cube.h) against the Python reference.

    python -m pytest benchmarks/test_bench_cube.py --benchmark-only

A decision is the three values (no double, double/take, double/pass), the
take and the action, from five cubeless chances.  Timed in the same run, per
group (money; match play at 7-away 5-away):

* ``core_batch``: ``_bgcore.cube_decide_batch`` on 20,000 float32 rows, one call;
* ``core_calls``: 2,000 ``_bgcore.cube_decide`` calls (one Python call each);
* ``from_chances``: 2,000 ``CubeDecision.from_chances`` (the public object,
  numbers from the core);
* ``python_reference``: 2,000 decisions' values from ``backgammon.cube.cubeful``
  (what ``from_chances`` computed before it used the core).

Every benchmark checks its answer against the reference on some rows.
"""

from __future__ import annotations

import numpy as np
import pytest

pytest.importorskip("pytest_benchmark", reason="the benchmarks need pytest-benchmark")

from backgammon import _bgcore
from backgammon.cube import met
from backgammon.cube import cubeful as cf
from backgammon.cube import CubeDecision

N_BATCH = 20_000
N_LOOP = 2_000
SCORE = (7, 5)
TABLE = _bgcore.cube_table(met.default_table())


def _record(benchmark, decisions: int) -> None:
    benchmark.extra_info["decisions"] = decisions
    median = getattr(getattr(getattr(benchmark, "stats", None), "stats", None), "median", None)
    if median:
        benchmark.extra_info["decisions_per_second"] = round(decisions / median)


@pytest.fixture(scope="module")
def chances() -> np.ndarray:
    """Valid cumulative chances, float32: w, wg <= w, wb <= wg, lg <= 1 - w, lb <= lg."""
    rng = np.random.default_rng(2026)
    w = rng.random(N_BATCH)
    u = rng.random((4, N_BATCH)) * np.array([[0.4], [0.1], [0.4], [0.1]])
    c = np.stack([w, w * u[0], w * u[0] * u[1], (1 - w) * u[2], (1 - w) * u[2] * u[3]], axis=1)
    return c.astype(np.float32)


@pytest.fixture(scope="module")
def rows(chances) -> list[tuple[float, ...]]:
    return [tuple(float(v) for v in r) for r in chances[:N_LOOP]]


def _reference(c, score):
    """The values of a decision from cubeful (centred cube, x = 0.68, default rules)."""
    if score is None:
        return (cf.money_equity(c, "centred", 0.68), 2 * cf.money_equity(c, "opponent", 0.68), 1.0)
    model = cf.MatchModel(c, *score, False, 64, None)
    return model.cubeful(1, "centred", 0.68), model.cubeful(2, "opponent", 0.68), model.mwc(0, 1, 0)


def _check(values, rows, score):
    for i in range(0, len(rows), 97):
        assert np.allclose(values[i], _reference(rows[i], score), rtol=0, atol=1e-9)


PLAY = pytest.mark.parametrize("score", [None, SCORE], ids=["money", "match"])


@PLAY
def test_core_batch(benchmark, chances, rows, score):
    benchmark.group = f"cube-{'money' if score is None else 'match'}"
    out = benchmark(_bgcore.cube_decide_batch, chances, score=score, table=TABLE)
    assert out[0].shape == (N_BATCH, 3)
    _check(out[0], rows, score)
    _record(benchmark, N_BATCH)


@PLAY
def test_core_calls(benchmark, rows, score):
    benchmark.group = f"cube-{'money' if score is None else 'match'}"
    decide = _bgcore.cube_decide

    def run():
        return [decide(c, score=score, table=TABLE) for c in rows]

    out = benchmark(run)
    _check([o[:3] for o in out], rows, score)
    _record(benchmark, N_LOOP)


@PLAY
def test_from_chances(benchmark, rows, score):
    benchmark.group = f"cube-{'money' if score is None else 'match'}"

    def run():
        return [CubeDecision.from_chances(c, score=score) for c in rows]

    out = benchmark(run)
    _check([(d.no_double, d.double_take, d.double_pass) for d in out], rows, score)
    _record(benchmark, N_LOOP)


@PLAY
def test_python_reference(benchmark, rows, score):
    benchmark.group = f"cube-{'money' if score is None else 'match'}"

    def run():
        return [_reference(c, score) for c in rows]

    out = benchmark.pedantic(run, rounds=3, warmup_rounds=1)
    assert len(out) == N_LOOP
    _record(benchmark, N_LOOP)
