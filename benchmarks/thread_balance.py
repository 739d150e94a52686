"""How evenly a rollout's work is split between worker threads, independent of load.

Each worker thread's CPU seconds inside its chunks are summed (``time.thread_time``,
which other jobs on the machine hardly change); ``total / max`` is the speedup the split
allows on idle cores, the figure a busy shared machine cannot give by wall clock.

    PYTHONPATH=python python benchmarks/thread_balance.py [--workers 2]
"""

from __future__ import annotations

import argparse
import collections
import importlib
import threading
import time

import backgammon as bg

engine = importlib.import_module("backgammon.rollout.engine")  # where the chunks run


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--workers", type=int, default=2)
    args = parser.parse_args()
    cpu: dict[int, float] = collections.defaultdict(float)
    original = engine.run_chunk

    def timed(*a, **k):
        start = time.thread_time()
        out = original(*a, **k)
        cpu[threading.get_ident()] += time.thread_time() - start
        return out

    engine.run_chunk = timed  # run_chunks looks it up at each call
    for policy in ("random", "pubeval"):
        for games in (1296 * 20, 1296 * 50):
            cpu.clear()
            bg.rollout(bg.Position.initial(), games=games, policy=policy, seed=2026,
                       workers=args.workers)
            per = sorted(cpu.values())
            print(f"{policy:8s} {games:7,d} games, {len(per)} threads, CPU s "
                  f"{[round(x, 3) for x in per]}: the split allows {sum(per) / max(per):.3f}x")


if __name__ == "__main__":
    main()
