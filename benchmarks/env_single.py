"""Single-environment throughput of ``BackgammonEnv``: cubeless, with the cube, in match play.

    python benchmarks/env_single.py [--seconds 3]

Random legal ids (numpy's choice over ``info["action_mask"]``, the Python loop
a user writes) against the ``"random"`` and ``"net"`` opponents, in the
default (cubeless, core-stepped) env and with ``cube=True`` and
``match_length=5`` (driven through ``Game``/``Match`` in Python).  Prints env
steps per second (wall and per CPU second) and episodes (games, or matches)
per CPU second.
"""

from __future__ import annotations

import argparse
import os
import time

import numpy as np

from backgammon.env import BackgammonEnv


def run(seconds: float, **kwargs: object) -> tuple[float, float, float]:
    env = BackgammonEnv(**kwargs)  # type: ignore[arg-type]
    rng = np.random.default_rng(0)
    obs, info = env.reset(seed=1)
    steps = episodes = 0
    t0, c0 = time.perf_counter(), time.process_time()
    while time.perf_counter() - t0 < seconds:
        obs, r, term, trunc, info = env.step(int(rng.choice(np.flatnonzero(info["action_mask"]))))
        steps += 1
        if term or trunc:
            episodes += 1
            obs, info = env.reset()
    dt, cpu = time.perf_counter() - t0, time.process_time() - c0
    return steps / dt, steps / cpu, episodes / cpu


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--seconds", type=float, default=3.0)
    a = ap.parse_args()
    print(f"machine: {os.cpu_count()} CPUs, load average {os.getloadavg()[0]:.1f}")
    for options in ({}, {"cube": True}, {"cube": True, "match_length": 5}):
        for opponent in ("random", "net"):
            wall, cpu, eps = run(a.seconds, opponent=opponent, **options)
            print(f"BackgammonEnv(opponent={opponent!r}, {options}): {wall:,.0f} steps/s wall, "
                  f"{cpu:,.0f} per CPU s, {eps:,.1f} episodes per CPU s")
    print(f"load average after: {os.getloadavg()[0]:.1f}")


if __name__ == "__main__":
    main()
