"""Compares backgammon.bearoff with GNU Backgammon's bear-off databases.

Measurement only (gnubg-nn is GPL: never imported by the package or the tests):

    pip install gnubg-nn
    PYTHONPATH=python python tools/compare_bearoff_gnubg.py [--positions 2000] [--seed 5]

For random bear-offs it prints the largest and mean absolute difference of each
of the five outputs against ``gnubg_nn.probabilities(board, 0)``, which answers
bear-offs from its own databases: an exact two-sided one (playing to win) when
both sides have 6 checkers or fewer, else a one-sided one like ours.
"""

from __future__ import annotations

import argparse

import numpy as np

import backgammon as bg
from backgammon import bearoff

try:
    import gnubg_nn
except ImportError:  # pragma: no cover
    raise SystemExit("needs gnubg-nn: pip install gnubg-nn")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--positions", type=int, default=2000, help="positions per group")
    ap.add_argument("--seed", type=int, default=5)
    args = ap.parse_args()
    rng = np.random.default_rng(args.seed)

    def home(k: int) -> np.ndarray:
        return np.bincount(rng.integers(0, 6, size=k), minlength=6)

    groups = (("1-6 checkers a side", (1, 6), (1, 6)),
              ("7-15 checkers a side", (7, 15), (7, 15)),
              ("15 against 1-15", (15, 15), (1, 15)))
    print(f"{'group':24} {'gnubg class':>11}  max |ours - gnubg| (win, wg, wbg, lg, lbg); mean")
    for label, mine, theirs in groups:
        diffs, classes = [], set()
        for _ in range(args.positions):
            a, b = home(rng.integers(mine[0], mine[1] + 1)), home(rng.integers(theirs[0], theirs[1] + 1))
            if rng.random() < 0.5:
                a, b = b, a
            board = [0] * 26
            board[1:7] = a.tolist()
            board[19:25] = (-b[::-1]).tolist()
            pos = bg.Position(board)
            gb = pos.to_gnubg_board()
            classes.add(gnubg_nn.classify(gb))
            diffs.append(bearoff.probabilities(pos).astype(float) - np.array(gnubg_nn.probabilities(gb, 0)))
        d = np.abs(np.array(diffs))
        print(f"{label:24} {sorted(classes)!s:>11}  {np.round(d.max(axis=0), 5)}; {np.round(d.mean(axis=0), 6)}")


if __name__ == "__main__":
    main()
