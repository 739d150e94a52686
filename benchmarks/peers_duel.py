"""Duplicate-dice duel of a nets file's 0-ply best play against gnubg-nn's 0-ply best move.

    python benchmarks/peers_duel.py [NETS.npz] --pairs 3000 --seed 20261201

Without NETS the bundled nets play. Each pair plays one dice sequence twice with the
seats swapped (compare_peers.nn_vs_gnubg); ppg is ours, with its standard error.
"""
from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))

import backgammon as bg  # noqa: E402
import compare_peers  # noqa: E402


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("nets", nargs="?", default=None)
    ap.add_argument("--pairs", type=int, default=3000)
    ap.add_argument("--seed", type=int, default=20261201)
    a = ap.parse_args()
    import gnubg_nn

    if a.nets:  # the duel's best_play uses the default evaluator
        bg.Evaluator._default = bg.Evaluator.load(a.nets)
    start = time.time()
    r = compare_peers.nn_vs_gnubg(bg, gnubg_nn, a.pairs, a.seed, check=5)
    r.update(nets=a.nets or "bundled", seed=a.seed, seconds=round(time.time() - start))
    print(json.dumps(r))


if __name__ == "__main__":
    main()
