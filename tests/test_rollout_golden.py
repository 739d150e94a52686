"""Rollout results pinned bit for bit: the seeded equity, candidate and cube rollouts
(and a duel, which shares the engine's thread loop) give exactly the values recorded
in ``data/rollout_golden.json``.

The values were computed at commit c53b81a, before the rollout engine moved out of
``rollout.py`` into ``_rollout_engine.py``; a refactor of the engine must keep them.
Floats are compared as ``float.hex`` (every bit).  Each case covers one path: the
plain core playout with threads and with given chunks, unstratified, stopping rules,
the extended core path (cube, luck adjustment, truncation, rotation, a match), the
candidate rollouts (plain, luck-adjusted, truncated with a stopping rule, cubeful from
a match game) and the cube decision by rollout.

The nets are pinned too: every case runs with ``data/nets-gen2.npz`` (generation 2,
the bundled nets at c53b81a) as the default evaluator, so new bundled nets leave the
golden values alone.

Regenerate (only when a change of results is intended and explained):
``python tests/test_rollout_golden.py > tests/data/rollout_golden.json``.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import numpy as np
import pytest

import backgammon as bg

GOLDEN = Path(__file__).parent / "data" / "rollout_golden.json"
NETS = Path(__file__).parent / "data" / "nets-gen2.npz"


def _pin_default_nets() -> None:
    """Generation 2 as ``Evaluator.default()`` (what the cases were recorded with)."""
    bg.Evaluator._default = bg.Evaluator.load(NETS)


def _est(e: Any) -> list[str]:
    return [float(e.value).hex(), float(e.stderr).hex(), float(e.low).hex(), float(e.high).hex()]


def _result(r: bg.RolloutResult) -> dict[str, Any]:
    out: dict[str, Any] = {n: _est(getattr(r, n)) for n in (
        "win", "win_gammon", "win_backgammon", "lose_gammon", "lose_backgammon", "equity")}
    for n in ("cubeful", "plain_equity", "plain_cubeful"):
        if getattr(r, n) is not None:
            out[n] = _est(getattr(r, n))
    out.update(games=r.games, stratified=r.stratified, stopped=r.stopped,
               unstratified_stderr=float(r.unstratified_stderr).hex(),
               mean_plies=float(r.mean_plies).hex(),
               strata_sum=int(np.asarray(r.strata, dtype=np.int64).sum()))
    return out


def _plays(p: bg.PlaysRollout) -> dict[str, Any]:
    return {"games": p.games, "stopped": p.stopped,
            "rows": [[str(r.play), _est(r.equity), _est(r.difference), _est(r.win),
                      _est(r.lose_gammon), float(r.ply_equity).hex()] for r in p.rows]}


def _initial() -> bg.Position:
    return bg.Position.initial()


def _after_31() -> bg.Position:
    return _initial().legal_plays((3, 1))[0].result.swapped()


def _match_game(length: int, score: tuple[int, int], dice: tuple[int, int] | None = None
                ) -> bg.Game:
    game = bg.Game.from_position(_initial(), match_length=length, score=score, rng=0)
    if dice is not None:
        game.roll(dice)
    return game


CASES: dict[str, Any] = {
    "net_2592_w2": lambda: _result(bg.rollout(_initial(), 2592, seed=7, workers=2)),
    "pubeval_1000_chunk": lambda: _result(
        bg.rollout(_after_31(), 1000, seed=3, policy="pubeval", chunk_games=97)),
    "random_500_nostrat": lambda: _result(
        bg.rollout(_after_31(), 500, seed=5, policy="random", stratify=False)),
    "net_stop": lambda: _result(
        bg.rollout(_initial(), 40000, seed=11, policy="pubeval", stop_error=0.03)),
    "cube_vr_72": lambda: _result(
        bg.rollout(_initial(), 72, seed=2, cube=True, variance_reduction=True)),
    "trunc_rot3_1296": lambda: _result(
        bg.rollout(_after_31(), 1296, seed=9, truncate=5, rotation=3, workers=2)),
    "match_cube_144": lambda: _result(
        bg.rollout(_match_game(5, (2, 3)), 144, seed=4, cube=True, truncate=7)),
    "plays_31": lambda: _plays(bg.rollout_plays(_initial(), (3, 1), top=3, games=1296, seed=1,
                                                policy="pubeval", workers=2)),
    "plays_vr": lambda: _plays(bg.rollout_plays(_initial(), "64", top=2, games=72, seed=6,
                                                variance_reduction=True)),
    "plays_trunc_stop": lambda: _plays(bg.rollout_plays(_after_31(), (5, 2), top=4, games=20000,
                                                        seed=8, truncate=3, stop_error=0.05)),
    "plays_game_match": lambda: _plays(bg.rollout_plays(_match_game(7, (1, 4), (6, 5)), top=2,
                                                        games=72, seed=12, truncate=4)),
    "cube_rollout": lambda: (lambda d: {
        "action": d.action,
        "equities": [float(x).hex() for x in (d.no_double, d.double_take, d.double_pass)],
        "stderr": {k: float(v).hex() for k, v in d.stderr.items()}})(
            bg.rollout_cube(_initial(), games=1296, seed=1)),
    "duel": lambda: repr(bg.duel("pubeval", "random", games=200, seed=3, workers=2)),
}


@pytest.fixture(scope="module")
def golden() -> dict[str, Any]:
    return json.loads(GOLDEN.read_text())


@pytest.fixture
def gen2_default(monkeypatch):
    monkeypatch.setattr(bg.Evaluator, "_default", bg.Evaluator.load(NETS))


@pytest.mark.parametrize("name", sorted(CASES))
def test_rollout_matches_the_values_before_the_engine_refactor(golden, name, gen2_default):
    assert json.loads(json.dumps(CASES[name]())) == golden[name]


def test_every_golden_case_is_checked(golden):
    assert sorted(golden) == sorted(CASES)


if __name__ == "__main__":
    _pin_default_nets()
    json.dump({name: make() for name, make in sorted(CASES.items())}, sys.stdout, indent=1,
              sort_keys=True)
    sys.stdout.write("\n")
