"""Writes tests/data/nn_golden.npz: net outputs recorded from the core, so
that speed work on the evaluator can be checked to change no bit of them
(tests/test_nn_golden.py).

Positions: 400 distinct ones from random games (seeded), plus 200 (position,
roll) decisions among them.  Nets: the TD nets bundled until generation 2 (encoding 1, 128/64; nets-v1-td.npz),
and seeded random nets of encoding 1 with a crashed net and of encoding 2
(Evaluator.random is deterministic for a seed).  Recorded: evaluate_batch's
probabilities, the 28 features of encoding 2, and choose_groups' picks and
probabilities of every play (the incremental path).

    python tests/data/make_nn_golden.py      # rewrites the file; only when outputs are meant to change
"""

from __future__ import annotations

import hashlib
import random
from pathlib import Path

import numpy as np

import backgammon as bg
from backgammon import _bgcore

OUT = Path(__file__).with_name("nn_golden.npz")
NETS = {"bundled": None,
        "enc1_crashed": dict(hidden=(128, 64, 64), encoding=1, seed=3),
        "enc2_192": dict(hidden=(192, 64, 128), encoding=2, seed=1),
        "enc2_40": dict(hidden=(40, 20, 12), encoding=2, seed=2)}


def positions(n: int, seed: int) -> np.ndarray:
    """n distinct positions (player on roll, both sides playing), every
    position of each random game kept, so openings, contact, bar fights,
    crashed boards and races all occur."""
    rng = random.Random(seed)
    seen: set[bytes] = set()
    out: list[np.ndarray] = []
    while len(out) < n:
        pos = bg.Position.initial()
        for _ in range(400):
            res = pos.successors((rng.randint(1, 6), rng.randint(1, 6)))
            pos = bg.Position.from_array(res[rng.randrange(len(res))]).swapped()
            if pos.outcome() is not None:
                break
            key = pos.to_array().tobytes()
            if key not in seen and rng.random() < 0.25:
                seen.add(key)
                out.append(pos.to_array())
    return np.array(out[:n], np.int8)


TD_NETS = Path(__file__).parent / "nets-v1-td.npz"  # the bundled nets until generation 2


def bundled_sha256() -> str:
    """The digest of the encoding-1 nets file recorded (the TD nets bundled until
    generation 2, tests/data/nets-v1-td.npz): its outputs hold for that file only."""
    return hashlib.sha256(TD_NETS.read_bytes()).hexdigest()


def evaluator(spec):
    return bg.Evaluator.load(TD_NETS) if spec is None else bg.Evaluator.random(**spec)


def record() -> dict[str, np.ndarray]:
    boards = positions(400, seed=15)
    rng = random.Random(16)
    rows = boards[:200]
    dice = np.array([(rng.randint(1, 6), rng.randint(1, 6)) for _ in rows], np.uint8)
    cands, offsets = _bgcore.batch_successors(rows, dice)
    data = {"boards": boards, "dice": dice, "bundled_sha256": np.array(bundled_sha256()),
            "features": np.array([_bgcore.nn_features(b.tobytes(), 2) for b in boards], np.float32)}
    for name, spec in NETS.items():
        ev = evaluator(spec)
        data[f"{name}_eval"] = ev.evaluate_batch(boards)
        picks, probs = ev._nets.choose_groups(rows, cands, offsets)
        data[f"{name}_picks"] = np.asarray(picks)
        data[f"{name}_choose"] = np.asarray(probs)
    return data


if __name__ == "__main__":
    np.savez_compressed(OUT, **record())
    print(f"wrote {OUT} ({OUT.stat().st_size:,} bytes)")
