"""Which cube efficiency x makes the 0-ply cube decisions of our nets closest to rollouts?

    python benchmarks/cube_efficiency.py [--files GLOB] [--positions N] [--games G]
                                         [--seed S] [--max-seconds T] [--json OUT]

Cube decisions are sampled from real matches (default: the Backgammon Galaxy
exports in ../shared/realworld/galaxy beside the checkout, or under
$BACKGAMMON_SHARED, read in place): the library's
analysis lists every cube decision with its game state (``Decision.to_game``);
close ones are kept (doubles, and no-doubles within 0.16 of doubling, gnubg's
``isCloseCubedecision``).  Each is rolled out with :func:`backgammon.rollout_cube`
(no double and double/take, cubefully, common dice, ``--games`` per branch),
then the 0-ply decision (Janowski's model on the nets' 0-ply chances) is made
with each candidate set of efficiencies:

* ``deep``: gnubg's 2+ ply set, the library's default (contact 0.68, race
  0.55 + 0.00125 * pips in [0.6, 0.7], bear-off 0.6);
* ``gnubg-0ply``: gnubg's 0-1 ply set (contact 0.76, race 0.60 + 0.0025 * pips in
  [0.6, 0.8], bear-off 0.6);
* ``contact=X``: the deep set with contact positions at X.

Printed per set: the mean absolute error, against the rollout, of the two
quantities that decide (double, take minus no double; double, take minus
double, pass), in normalised equity (match winning chances rescaled as the
analysis does), and how often the proper action (double or not; take or pass)
is the rollout's.  The rollouts' own cube decisions use the deep set, a bias
toward it; the rollout error is printed beside.
"""

from __future__ import annotations

import argparse
import glob
import json
import os
import random
import sys
import time
import warnings
from typing import Any

import numpy as np

# The shared folder beside the checkout (``../shared`` from its root), or where
# BACKGAMMON_SHARED points
SHARED = os.environ.get("BACKGAMMON_SHARED") or os.path.join(
    os.path.dirname(os.path.dirname(os.path.abspath(__file__))), os.pardir, "shared")
GALAXY = os.path.join(SHARED, "realworld", "galaxy", "*.txt")


def efficiency(position: Any, contact: float, race: tuple[float, float, float, float]) -> float:
    a = position.tolist()
    own = [p for p in range(1, 26) if a[p] > 0]
    opp = [p for p in range(0, 25) if a[p] < 0]
    if not own or not opp:
        return 0.6
    if max(own) > min(opp):
        return contact
    if max(own) <= 6 and min(opp) >= 19:
        return 0.6
    base, slope, low, high = race
    return min(high, max(low, base + slope * position.pip_counts()[0]))


SETS = {
    "deep": (0.68, (0.55, 0.00125, 0.6, 0.7)),
    "gnubg-0ply": (0.76, (0.60, 0.0025, 0.6, 0.8)),
}
for _x in (0.60, 0.64, 0.72, 0.76, 0.80):
    SETS[f"contact={_x:.2f}"] = (_x, (0.55, 0.00125, 0.6, 0.7))


def sample(files: list[str], n: int, seed: int) -> list[Any]:
    import backgammon as bg

    found = []
    for path in files:
        with open(path, encoding="utf-8-sig") as f:
            match = bg.Match.from_mat(f.read())
        for d in bg.analyse(match).decisions:
            if d.kind == "cube" and d.made in ("double", "no double") and d.counted:
                found.append(d)
    random.Random(seed).shuffle(found)
    return found[:n]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--files", default=GALAXY)
    parser.add_argument("--positions", type=int, default=40)
    parser.add_argument("--games", type=int, default=1296)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--max-seconds", type=float, default=1800.0)
    parser.add_argument("--json")
    args = parser.parse_args()

    import backgammon as bg
    from backgammon.analysis import _context
    from backgammon.cube import CubeDecision

    warnings.simplefilter("ignore")
    files = sorted(glob.glob(args.files))
    decisions = sample(files, args.positions, args.seed)
    start = time.perf_counter()
    rows = []
    for k, d in enumerate(decisions):
        if time.perf_counter() - start > args.max_seconds:
            print(f"time budget reached after {k} positions", file=sys.stderr)
            break
        game = d.to_game()
        ctx = _context(game, game.turn)
        norm = (lambda v: v) if ctx.score is None else (lambda v: float(ctx.normalise(v)))
        r = bg.rollout_cube(game, games=args.games, seed=args.seed + k)
        chances = bg.evaluate(game.position).probabilities
        row = {"gnubg_id": d.gnubg_id, "rollout": [norm(r.no_double), norm(r.double_take),
                                                   norm(r.double_pass)],
               "stderr": r.stderr["difference"] / (1 if ctx.score is None else ctx.scale),
               "sets": {}}
        for name, (contact, race) in SETS.items():
            x = efficiency(game.position, contact, race)
            c = CubeDecision.from_chances(chances, cube=ctx.cube, owner=ctx.owner,
                                          score=ctx.score, post_crawford=ctx.post_crawford,
                                          rules=ctx.rules, x=x)
            row["sets"][name] = [norm(c.no_double), norm(c.double_take), norm(c.double_pass)]
        rows.append(row)
        print(f"{k + 1}/{len(decisions)} {d.gnubg_id} rollout ND {row['rollout'][0]:+.3f} "
              f"DT {row['rollout'][1]:+.3f}", file=sys.stderr, flush=True)

    def decide(nd: float, dt: float, dp: float) -> tuple[bool, bool]:
        return min(dt, dp) > nd, dt <= dp  # doubles, takes

    print(f"{len(rows)} close cube decisions from {len(files)} files, {args.games} games "
          f"per branch; mean error of the rollout's DT - ND: "
          f"{np.mean([r['stderr'] for r in rows]):.4f}")
    print(f"{'set':<14} {'|d(DT-ND)|':>10} {'|d(DT-DP)|':>10} {'double ok':>9} {'take ok':>8}")
    for name in SETS:
        e1 = e2 = ok_d = ok_t = 0.0
        for r in rows:
            nd, dt, dp = r["rollout"]
            a, b, c = r["sets"][name]
            e1 += abs((b - a) - (dt - nd))
            e2 += abs((b - c) - (dt - dp))
            ok_d += decide(a, b, c)[0] == decide(nd, dt, dp)[0]
            ok_t += decide(a, b, c)[1] == decide(nd, dt, dp)[1]
        n = max(len(rows), 1)
        print(f"{name:<14} {e1 / n:10.4f} {e2 / n:10.4f} {ok_d / n:9.1%} {ok_t / n:8.1%}")
    if args.json:
        with open(args.json, "w") as f:
            json.dump(rows, f)
    return 0


if __name__ == "__main__":
    sys.exit(main())
