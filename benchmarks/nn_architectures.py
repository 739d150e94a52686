"""0-ply speed of the net architectures against gnubg-nn, in one run.

Times ``Evaluator.evaluate_batch`` on the positions compare_peers.py uses
(20,000 distinct ones) for the bundled nets and for untrained nets of other
shapes (speed does not depend on the weights): encodings 1 to 3, more hidden
units, a second hidden layer ("512x32": 32 middle units); the net's move
choice (``choose_groups``, incremental) on 2,000 (position, roll) pairs; and
gnubg-nn's ``probabilities(board, 0)`` loop.  Ratios by CPU time.

    python benchmarks/nn_architectures.py [--positions 20000]
"""

from __future__ import annotations

import argparse
import random
import statistics

import numpy as np

import backgammon as bg
from backgammon import _bgcore
from compare_peers import cpu_rate, measure_cpu, nn_positions, print_table, to_gnubg

SHAPES = [("bundled", None),
          ("enc 1, 128/64 (generation 0)", dict(hidden=(128, 64), encoding=1)),
          ("enc 2, 128/64/128 (generation 4)", dict(hidden=(128, 64, 128), encoding=2)),
          ("enc 3, 128/64/128", dict(hidden=(128, 64, 128), encoding=3)),
          ("enc 3, 256/64/128", dict(hidden=(256, 64, 128), encoding=3)),
          ("enc 3, 384/64/128", dict(hidden=(384, 64, 128), encoding=3)),
          ("enc 3, 512/64/128", dict(hidden=(512, 64, 128), encoding=3)),
          ("enc 3, 512/64/512 (generation 6)", dict(hidden=(512, 64, 512), encoding=3)),
          ("enc 3, 1024/64/512", dict(hidden=(1024, 64, 512), encoding=3)),
          ("enc 3, 512x32/64/512", dict(hidden=(512, 64, 512), encoding=3, middle=(32, 0, 0))),
          ("enc 3, 768x32/64/512", dict(hidden=(768, 64, 512), encoding=3, middle=(32, 0, 0))),
          ("enc 3, 1024x32/64/512", dict(hidden=(1024, 64, 512), encoding=3, middle=(32, 0, 0)))]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--positions", type=int, default=20_000)
    ap.add_argument("--min-rounds", type=int, default=5)
    args = ap.parse_args()
    n = args.positions
    pool = nn_positions(bg, n * 6, seed=2026)
    mine = pool[:n]
    rng = random.Random(1)
    rows = mine[:2000]
    dice = np.array([(rng.randint(1, 6), rng.randint(1, 6)) for _ in rows], np.uint8)
    results, offsets = _bgcore.batch_successors(rows, dice)
    timings = []
    for label, kw in SHAPES:
        ev = bg.Evaluator.default() if kw is None else bg.Evaluator.random(seed=1, **kw)
        ev.evaluate_batch(mine)
        timings.append(measure_cpu(f"eval {label}", lambda ev=ev: len(ev.evaluate_batch(mine)),
                                   {"positions": n}, args.min_rounds, 1.0))
        timings.append(measure_cpu(f"choose {label}",
                                   lambda ev=ev: len(ev._nets.choose_groups(rows, results, offsets)[0]),
                                   {"decisions": len(rows)}, args.min_rounds, 1.0))
    try:
        import gnubg_nn
    except ImportError:
        gnubg_nn = None
        print("gnubg-nn not installed: no ratios")
    if gnubg_nn is not None:
        boards = [to_gnubg(b.tolist()) for b in pool]
        state = {"next": n}

        def gnubg_round() -> int:
            lo = state["next"] % len(boards)
            chunk = boards[lo:lo + n]
            state["next"] = lo + n
            for b in chunk:
                gnubg_nn.probabilities(b, 0)
            return len(chunk)

        g = measure_cpu("gnubg-nn probabilities(board, 0)", gnubg_round, {"positions": n},
                        max(args.min_rounds, 3), 0.0)
        timings.append(g)
    print_table(timings)
    if gnubg_nn is not None:
        print("  ours / gnubg-nn, 0-ply evaluations by CPU time:")
        for t in timings:
            if t.label.startswith("eval "):
                print(f"    {t.label[5:]:<32} {cpu_rate(t, 'positions') / cpu_rate(g, 'positions'):6.1f}x"
                      f"  ({cpu_rate(t, 'positions') / 1e3:,.0f} k/s, cpu median "
                      f"{statistics.median(t.cpu) * 1e3:.1f} ms)")


if __name__ == "__main__":
    main()
