"""Vector-environment throughput next to an OpenSpiel loop, same run, same machine.

    python benchmarks/env_vector.py [--envs 1024] [--seconds 5] [--encoding tesauro]
                                    [--actions micro] [--spiel-games 200] [--repeat 3]
                                    [--threads 1]

Ours: ``VectorEnv(n, opponent="random", encoding=..., actions=...)`` stepped
with one uniformly random legal id per game drawn in the core
(``sample_actions``), observations and masks written every step, autoreset.
An *env step* is one agent decision (a checker step for ``micro``, a
half-turn for ``openspiel``); the random opponent's turns run inside the
step.  Games/s counts finished games.  Checks: every finished game's reward
is +-1, 2 or 3 and every slot always has a legal id.

Peer: an OpenSpiel loop of random games (``pyspiel``, when installed):
``legal_actions()`` then a uniform choice, ``observation_tensor()`` read
at each decision (as an env would), chance nodes from ``chance_outcomes()``.
Its steps are its decisions of both players (half-turns).  Each figure is the
median of ``--repeat`` runs; the ratio is ours / peer.
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import time

import numpy as np

from backgammon.env import VectorEnv


def ours(n: int, seconds: float, encoding: str, actions: str, seed: int,
         threads: int = 1) -> tuple[float, ...]:
    venv = VectorEnv(n, opponent="random", encoding=encoding, actions=actions, seed=seed,
                     threads=threads)
    venv.reset()
    core = venv._core
    steps = games = 0
    t0, c0 = time.perf_counter(), time.process_time()
    while time.perf_counter() - t0 < seconds:
        a = core.sample_actions()
        assert (a >= 0).all()
        _, r, term, _, _ = venv.step(a)
        assert set(np.abs(r[term]).tolist()) <= {1.0, 2.0, 3.0}
        steps += n
        games += int(term.sum())
    dt, cpu = time.perf_counter() - t0, time.process_time() - c0
    return steps / dt, games / dt, steps / cpu, games / cpu


def spiel(games: int, seed: int) -> tuple[float, ...] | None:
    try:
        import pyspiel
    except ImportError:
        return None
    rng = random.Random(seed)
    game = pyspiel.load_game("backgammon")
    steps = 0
    t0, c0 = time.perf_counter(), time.process_time()
    for _ in range(games):
        s = game.new_initial_state()
        while not s.is_terminal():
            if s.is_chance_node():
                outcomes, probs = zip(*s.chance_outcomes())
                s.apply_action(rng.choices(outcomes, probs)[0])
                continue
            s.observation_tensor(s.current_player())
            s.apply_action(rng.choice(s.legal_actions()))
            steps += 1
    dt, cpu = time.perf_counter() - t0, time.process_time() - c0
    return steps / dt, games / dt, steps / cpu, games / cpu


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--envs", type=int, default=1024)
    ap.add_argument("--seconds", type=float, default=5.0)
    ap.add_argument("--encoding", default="tesauro")
    ap.add_argument("--actions", default="micro")
    ap.add_argument("--spiel-games", type=int, default=200)
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--threads", type=int, default=1)
    a = ap.parse_args()
    print(f"machine: {os.cpu_count()} CPUs, load average {os.getloadavg()[0]:.1f}")
    mine, theirs = [], []
    for k in range(a.repeat):
        mine.append(ours(a.envs, a.seconds, a.encoding, a.actions, seed=k, threads=a.threads))
        p = spiel(a.spiel_games, seed=k)
        if p is not None:
            theirs.append(p)
    def med(rows: list[tuple[float, ...]]) -> list[float]:
        return [statistics.median(x[i] for x in rows) for i in range(4)]

    ms, mg, mcs, mcg = med(mine)
    print(f"VectorEnv({a.envs}, random opponent, {a.encoding}, {a.actions}, "
          f"threads={a.threads}): "
          f"{ms:,.0f} env steps/s, {mg:,.0f} games/s wall; per CPU second {mcs:,.0f} "
          f"steps, {mcg:,.0f} games (median of {a.repeat})")
    if theirs:
        ss, sg, scs, scg = med(theirs)
        print(f"OpenSpiel loop with observations: {ss:,.0f} steps/s, {sg:,.0f} games/s wall; "
              f"per CPU second {scs:,.0f} steps, {scg:,.0f} games")
        print(f"ratio ours/peer: steps {ms / ss:.1f}x, games {mg / sg:.1f}x wall; "
              f"per CPU second {mcs / scs:.1f}x, {mcg / scg:.1f}x")
    else:
        print("OpenSpiel (pyspiel) not installed: no peer figures")
    print(f"load average after: {os.getloadavg()[0]:.1f}")


if __name__ == "__main__":
    main()
