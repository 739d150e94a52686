"""2-ply best play with and without move filters, and gnubg-nn's 2-ply, in one run.

For N positions of varied play (compare_peers.nn_positions) and a seeded
roll each: seconds a decision of ``best_play(ply=2, filtered=False)`` (the
exhaustive search: every one of the 8 best at 0-ply searched),
``best_play(ply=2)`` (the default: gnubg-style FILTERS) and
``gnubg_nn.best_move(board, d1, d2, n=2)``, the default again with the
screen narrowed (``Evaluator.with_pruning(keep=--prune)``), and how often the
filtered and pruned choices are the exhaustive one.

    python benchmarks/two_ply_filters.py [--positions 60] [--prune 4]
"""

from __future__ import annotations

import argparse
import random
import time

import backgammon as bg
from compare_peers import nn_positions, to_gnubg


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--positions", type=int, default=60)
    ap.add_argument("--prune", type=int, default=4, help="the screen's keep (default 4)")
    args = ap.parse_args()
    rng = random.Random(7)
    cases = []
    for row in nn_positions(bg, args.positions * 3, seed=77):
        pos = bg.Position.from_array(row)
        d = (rng.randint(1, 6), rng.randint(1, 6))
        if len(pos.legal_plays(d)) > 1:          # unforced decisions only
            cases.append((pos, d))
        if len(cases) == args.positions:
            break
    ev = bg.Evaluator.default()
    pruned = ev.with_pruning(keep=args.prune)
    from backgammon.nn import best_play
    times = {"plain": 0.0, "filtered": 0.0, "pruned": 0.0, "gnubg": 0.0}
    picks = {"plain": [], "filtered": [], "pruned": [], "gnubg": []}
    try:
        import gnubg_nn
    except ImportError:
        gnubg_nn = None
    for pos, d in cases:
        t = time.process_time()
        picks["plain"].append(best_play(pos, d, 2, ev, filtered=False).result)
        times["plain"] += time.process_time() - t
        t = time.process_time()
        picks["filtered"].append(best_play(pos, d, 2, ev).result)
        times["filtered"] += time.process_time() - t
        t = time.process_time()
        picks["pruned"].append(best_play(pos, d, 2, pruned).result)
        times["pruned"] += time.process_time() - t
        if gnubg_nn is not None:
            board = to_gnubg(pos.tolist())
            t = time.process_time()
            gnubg_nn.best_move(board, d[0], d[1], 2)
            times["gnubg"] += time.process_time() - t
    n = len(cases)
    print(f"{n} unforced decisions, CPU seconds a decision:")
    for k, v in times.items():
        if k != "gnubg" or gnubg_nn is not None:
            print(f"  {k:<9} {v / n:.4f} s")
    for k in ("filtered", "pruned"):
        same = sum(a == b for a, b in zip(picks["plain"], picks[k]))
        print(f"  {k} picks the unfiltered 2-ply play in {same}/{n}")
    if gnubg_nn is not None:
        print(f"  ratios: plain / filtered {times['plain'] / times['filtered']:.1f}x, "
              f"gnubg 2-ply / filtered {times['gnubg'] / times['filtered']:.2f}x, "
              f"gnubg 2-ply / pruned {times['gnubg'] / times['pruned']:.2f}x")


if __name__ == "__main__":
    main()
