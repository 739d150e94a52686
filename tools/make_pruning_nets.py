"""Make a screen for ``Evaluator.with_pruning``: small nets trained to rank a move
choice's plays as a nets file's full nets do.  (The bundled screen, ``data/nets-screen.npz``,
is instead an integer net taught as the other nets are: training/README.md, "The screen";
this one, the bundled screen until 2026-12-07, serves nets of your own.)

    python tools/make_pruning_nets.py [--nets FILE] [--out FILE] [--work DIR]
        [--chunks 8] [--positions 60000] [--seed 1] [--hidden 256 32 256]
        [--encoding 1] [--epochs 8]

The data: ``--chunks`` chunks (chunk i seeded ``--seed`` + i), each ``--positions``
positions drawn from the boards of the committed training sets (their labels are not
used), each with one random roll and every legal play of it; the plays' resulting
positions, seen by the opponent now on roll (what a move choice evaluates), labelled
by the full nets' 0-ply (``--nets``, default the bundled nets).  That is the
distribution a screen ranks, and siblings teach it to rank them.  Then
``backgammon.training.supervised.fit`` trains nets of ``--hidden`` on ``--encoding`` (1: the
cheapest inputs; a screen's cost is mostly its inputs) for ``--epochs``, one thread,
deterministic for the seed.  About 10 minutes on one core.  Chunks already in
``--work`` are kept, so a stopped run resumes.
"""

from __future__ import annotations

import argparse
import json
import os
import sys

import numpy as np

import backgammon as bg
from backgammon import _bgcore
from backgammon.training.supervised import fit
from backgammon.training.targets import read_targets

SETS = ["training/ply2f-g7", "training/ply2f-g7w", "training/ply2f-e9",
        "training/ply2f-crashed5", "training/ply2f-race7"]
ROLLS = np.array([(a, b) for a in range(1, 7) for b in range(1, 7)], np.uint8)


def make_chunk(boards: np.ndarray, nets: bg.Evaluator, seed: int, n: int, path: str) -> int:
    """One chunk of candidate plays labelled by ``nets``; returns its size."""
    rng = np.random.default_rng(seed)
    b = np.ascontiguousarray(boards[rng.choice(len(boards), n, replace=False)])
    dice = np.ascontiguousarray(ROLLS[rng.integers(0, 36, n)])
    results, _ = _bgcore.batch_successors(b, dice)
    seen = np.ascontiguousarray(-results[:, ::-1])      # the opponent on roll
    live = np.array([_bgcore.sides(x.tobytes()) == 0 for x in seen])
    seen = seen[live]
    meta = json.dumps({"generator": f"tools/make_pruning_nets.py: the plays of one random roll "
                                    f"of {n} training positions (seed {seed}), labelled by "
                                    f"the 0-ply of {nets.policy_name}"})
    np.savez(path, boards=seen, targets=nets.evaluate_batch(seen),
             stderr=np.zeros(len(seen), np.float32), meta=np.array(meta))
    return len(seen)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--nets", help="the full nets (default: the bundled nets)")
    ap.add_argument("--out", default="nets-prune.npz")
    ap.add_argument("--work", default="/tmp/pruning-data")
    ap.add_argument("--chunks", type=int, default=8)
    ap.add_argument("--positions", type=int, default=60000)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--hidden", type=int, nargs="+", default=[256, 32, 256])
    ap.add_argument("--encoding", type=int, default=1)
    ap.add_argument("--epochs", type=int, default=8)
    args = ap.parse_args(argv)
    nets = bg.Evaluator.load(args.nets) if args.nets else bg.Evaluator.default()
    os.makedirs(args.work, exist_ok=True)
    boards = None
    files = []
    for i in range(args.chunks):
        path = os.path.join(args.work, f"chunk-{i:04d}.npz")
        files.append(path)
        if os.path.exists(path):
            continue
        if boards is None:
            boards = read_targets(SETS, max_positions=10**8).boards
        print(f"chunk {i}: {make_chunk(boards, nets, args.seed + i, args.positions, path):,} "
              "plays", flush=True)
    screen = fit(files, hidden=tuple(args.hidden), encoding=args.encoding, epochs=args.epochs,
                 seed=args.seed, threads=1, progress=False, out=os.path.join(args.work, "run"),
                 log=print)
    screen.meta["origin"] = (f"screen for {nets.policy_name} (tools/make_pruning_nets.py "
                             f"--chunks {args.chunks} --positions {args.positions} --seed "
                             f"{args.seed} --hidden {' '.join(map(str, args.hidden))} "
                             f"--encoding {args.encoding} --epochs {args.epochs})")
    screen.save(args.out)
    print(f"wrote {args.out}: {screen!r}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
