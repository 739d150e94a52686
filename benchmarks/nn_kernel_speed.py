"""CPU time of the nets' hot paths, with fingerprints of their answers, for A/B runs of two builds.

    PYTHONPATH=BUILD_A/python python benchmarks/nn_kernel_speed.py
    PYTHONPATH=BUILD_B/python python benchmarks/nn_kernel_speed.py

Times (best of several rounds, CPU time of this process): a move choice of the bundled
nets screened and unscreened (3,000 contact positions of the rollout-labelled sets in
``training/``, a random roll each), the opening rollout of 2,592 games on one thread, and 150 filtered 2-ply best
plays.  Each line ends with a fingerprint of the answers (the picks, the rollout's
equity, the plays), so a change meant to keep every bit shows the same fingerprints.
Alternate the two builds a few times and compare medians: a shared machine drifts.
"""

from __future__ import annotations

import hashlib
import os
import time
from typing import Any, Callable

import numpy as np

import backgammon as bg
from backgammon import _bgcore, nn
from backgammon.training.targets import read_targets

HERE = os.path.dirname(os.path.abspath(__file__))
CONTACT_SETS = ("rollouts-blitz", "rollouts-trailing", "rollouts-bg")   # in the tree


def best_of(rounds: int, f: Callable[[], Any]) -> tuple[float, Any]:
    best, out = float("inf"), None
    for _ in range(rounds):
        start = time.process_time()
        out = f()
        best = min(best, time.process_time() - start)
    return best, out


def fingerprint(data: bytes) -> str:
    return hashlib.md5(data).hexdigest()[:12]


def main() -> None:
    print(bg.__file__)
    rng = np.random.default_rng(5)
    boards = read_targets([os.path.join(HERE, "..", "training", name) for name in CONTACT_SETS],
                          max_positions=10**6).boards
    b = np.ascontiguousarray(boards[rng.choice(len(boards), 3000, replace=False)])
    rolls = np.array([(x, y) for x in range(1, 7) for y in range(1, 7)], np.uint8)
    dice = np.ascontiguousarray(rolls[rng.integers(0, 36, len(b))])
    cands, offsets = _bgcore.batch_successors(b, dice)
    ev = bg.Evaluator.default()
    for name, e in (("screened", ev), ("unscreened", ev.with_pruning(keep=0))):
        t, (picks, probs) = best_of(5, lambda: e._nets.choose_groups(b, cands, offsets,
                                                                      best_only=True))
        data = picks.tobytes() + probs.tobytes()
        print(f"{name} move choice: {t / len(b) * 1e6:.2f} us  [{fingerprint(data)}]")
    t, r = best_of(3, lambda: bg.rollout(bg.Position.initial(), games=2592, seed=1, workers=1))
    print(f"opening rollout, 2,592 games: {t:.3f} s  [equity {r.equity.value!r}]")
    positions = [bg.Position.from_array(x) for x in b[:150]]
    rolls150 = [(int(x), int(y)) for x, y in dice[:150]]
    t, plays = best_of(2, lambda: [str(nn.best_play(p, d, ply=2, filtered=True))
                                   for p, d in zip(positions, rolls150)])
    print(f"filtered 2-ply best play: {t / 150 * 1e3:.2f} ms  "
          f"[{fingerprint(' '.join(plays).encode())}]")


if __name__ == "__main__":
    main()
