"""Instructions a position of the evaluator, counted by valgrind's callgrind
(repeatable on a loaded machine, where CPU times are not).

Runs one workload on the positions nn_architectures.py uses; callgrind's
inclusive count of ``bg_eval`` (full evaluation) or ``bg_nn_choose``
(incremental move choice) divided by the calls or candidates gives the
figure recorded in benchmarks/README.md:

    valgrind --tool=callgrind --callgrind-out-file=cg.out \\
        python benchmarks/nn_callgrind.py eval NETS.npz
    callgrind_annotate --inclusive=yes --threshold=100 cg.out | grep -E 'bg_eval|bg_nn_choose'

WHAT is ``eval`` (2 x 2,000 positions) or ``choose`` (2 x 500 decisions,
8,759 candidates); NETS a weights file, or ``bundled``.
"""

from __future__ import annotations

import random
import sys

import numpy as np

import backgammon as bg
from backgammon import _bgcore
from compare_peers import nn_positions


def main() -> None:
    what, nets = sys.argv[1], sys.argv[2]
    pos = nn_positions(bg, 2000, seed=2026)
    ev = bg.Evaluator.default() if nets == "bundled" else bg.Evaluator.load(nets)
    rng = random.Random(1)
    rows = pos[:500]
    dice = np.array([(rng.randint(1, 6), rng.randint(1, 6)) for _ in rows], np.uint8)
    cands, offsets = _bgcore.batch_successors(rows, dice)
    ev.evaluate_batch(pos[:10])
    for _ in range(2):
        if what == "eval":
            ev.evaluate_batch(pos)
        else:
            ev._nets.choose_groups(rows, cands, offsets)
    print(f"{what}: {len(pos) if what == 'eval' else len(cands)} a round, 2 rounds")


if __name__ == "__main__":
    main()
