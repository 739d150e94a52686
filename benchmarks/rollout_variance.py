"""Luck adjustment against plain rollouts on the same games (issue 12).

Rolls out a contact position (default: the opening) with the cube, once plain
and once with ``variance_reduction=True`` (same seed, so the same games), and
prints the standard errors, their ratio and the time each took.

    PYTHONPATH=python python benchmarks/rollout_variance.py [--games 1296] [--seed 77]
"""

from __future__ import annotations

import argparse
import time

import backgammon as bg


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=1296)
    parser.add_argument("--seed", type=int, default=77)
    parser.add_argument("--position", default=None, help="a Position ID (default: the opening)")
    args = parser.parse_args()
    pos = bg.Position.initial() if args.position is None else \
        bg.Position.from_position_id(args.position)
    bg.rollout(pos, games=36, seed=0, cube=True)  # warm-up: the nets and the bear-off tables
    t = time.perf_counter()
    plain = bg.rollout(pos, games=args.games, seed=args.seed, cube=True, workers=1)
    t_plain = time.perf_counter() - t
    t = time.perf_counter()
    vr = bg.rollout(pos, games=args.games, seed=args.seed, cube=True, workers=1,
                    variance_reduction=True)
    t_vr = time.perf_counter() - t
    print(vr)
    print(f"time: plain {t_plain:.2f} s, luck-adjusted {t_vr:.2f} s ({t_vr / t_plain:.1f}x)")
    for name in ("win", "equity", "cubeful"):
        a, b = getattr(plain, name).stderr, getattr(vr, name).stderr
        print(f"{name:>8} error: plain {a:.4f}, adjusted {b:.4f} ({a / b:.2f}x narrower)")


if __name__ == "__main__":
    main()
