"""Race positions with a gammon at stake, labelled by luck-adjusted rollouts.

Self-play rarely reaches the races real players lose gammons in: the trailer's
checkers stacked on its 6-point with a few in the outfield (or one still in the
opponent's home board) while the opponent bears off its last few. The nets
misjudge those most among races (training/README.md, "Generation 13"), so this
tool draws them at random and rolls each out with the nets:

- the leader has 1 to 12 checkers left, all in its home board, spread at random;
- the trailer has borne off none: each of its 15 checkers is in its home board
  (leaning to the high points, as players stack them) with a chance drawn per
  position, else in its outfield (the nearer points the likelier), now and then
  in the leader's home board, always in front of the leader's checkers (no
  contact);
- either side is on roll; after a position with the trailer on roll come the
  positions after the nets' two best plays of a random roll (the choices a net's
  error changes);
- positions the bear-off database answers are drawn again.

Each chunk ``OUT/chunk-NNNNNN.npz`` (the targets files of
``backgammon.training.targets``) uses seed ``(SEED, chunk)`` and is labelled by
36 luck-adjusted games a position played to the end (``rollout_targets``), so
a chunk is the same wherever it is made and a stopped run resumes::

    python tools/make_gammon_races.py --out DIR --seed 20261213 --chunks 0 200 --processes 2
"""

from __future__ import annotations

import argparse
import functools
import os
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

import numpy as np

import backgammon as bg
from backgammon import _bgcore
from backgammon.training import targets

_HOME_LEAN = np.array([0.3, 0.4, 0.6, 0.8, 1.2, 2.0])  # Dirichlet weights of points 1-6
_OUTFIELD = np.arange(7, 19)
_OUTFIELD_LEAN = (19 - _OUTFIELD) / (19 - _OUTFIELD).sum()  # the 7-point 12 times the 18's


def gammon_race(rng: np.random.Generator) -> np.ndarray:
    """One race board (26 int8, the player on roll's view) of the kind above."""
    while True:
        leader = np.zeros(26, np.int64)               # in the leader's own numbering
        home = rng.dirichlet(np.ones(6))
        for p in rng.choice(np.arange(1, 7), size=int(rng.integers(1, 13)), p=home):
            leader[p] += 1
        rear = int(np.nonzero(leader)[0].max())       # the leader's rearmost point
        front = 24 - rear                             # the trailer's highest point without contact
        trailer = np.zeros(26, np.int64)
        stay = rng.uniform(0.4, 1.0)                  # the share of checkers already home
        lean = rng.dirichlet(_HOME_LEAN * 2)
        for _ in range(15):
            u = rng.random()
            if u < stay:
                p = int(rng.choice(np.arange(1, 7), p=lean))
            elif u < stay + (1 - stay) * 0.9 or front < 19:
                p = int(rng.choice(_OUTFIELD, p=_OUTFIELD_LEAN))
            else:
                p = int(rng.integers(19, front + 1))
            trailer[p] += 1
        board = trailer.copy()
        board[1:25] -= leader[24:0:-1]                # the leader's point p is the trailer's 25 - p
        if rng.random() < 0.5:
            board = np.array(bg.Position.from_array(board.tolist()).swapped().to_array())
        b = board.astype(np.int8)
        if not _bgcore.bearoff_applies(b.tobytes()) and _bgcore.nn_is_race(b.tobytes()):
            return b


def chunk_boards(n: int, seed: int, nets: object) -> np.ndarray:
    """``n`` boards: drawn races, each with the trailer on roll followed by its siblings."""
    rng = targets._rng(seed)
    out: list[bytes] = []
    while len(out) < n:
        b = gammon_race(rng)
        out.append(b.tobytes())
        pos = bg.Position.from_array(b.tolist())
        if pos.pip_counts()[0] > pos.pip_counts()[1]:      # the trailer is on roll
            dice = (int(rng.integers(1, 7)), int(rng.integers(1, 7)))
            out.extend(targets._siblings(pos, dice, nets, 2, None))
    return np.frombuffer(b"".join(out[:n]), np.int8).reshape(-1, 26).copy()


def make_chunk(c: int, out: str, seed: int, positions: int, games: int) -> str:
    path = Path(out) / f"chunk-{c:06d}.npz"
    if path.exists():
        return f"{path.name}: kept"
    start = time.time()
    ev = bg.Evaluator.default()
    chunk_seed = int(targets._rng(seed, c).integers(1 << 62))
    boards = chunk_boards(positions, chunk_seed, ev._nets)
    t, se = targets.rollout_targets(boards, seed=chunk_seed, games=games, truncate=None,
                                    evaluator=ev, variance_reduction=True)
    meta = {"generator": "tools/make_gammon_races.py", "seed": seed, "chunk": c,
            "chunk_seed": chunk_seed, "positions": positions, "method": "rollout",
            "games": games, "truncate": None, "variance_reduction": True,
            "evaluator": ev.meta.get("origin", repr(ev)), **targets._screen_meta(ev),
            "made": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
            "seconds": round(time.time() - start, 1)}
    targets._write_chunk(path, boards, t, se, meta)
    return f"{path.name}: {len(boards)} positions in {meta['seconds']} s, " \
           f"mean stderr {float(se.mean()):.4f}"


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--out", required=True)
    ap.add_argument("--seed", type=int, required=True)
    ap.add_argument("--chunks", type=int, nargs=2, required=True, metavar=("FIRST", "END"))
    ap.add_argument("--positions", type=int, default=250)
    ap.add_argument("--games", type=int, default=36)
    ap.add_argument("--processes", type=int, default=1)
    args = ap.parse_args(argv)
    os.makedirs(args.out, exist_ok=True)
    make = functools.partial(make_chunk, out=args.out, seed=args.seed,
                             positions=args.positions, games=args.games)
    with ProcessPoolExecutor(args.processes) as pool:
        for line in pool.map(make, range(*args.chunks)):
            print(time.strftime("%H:%M:%S"), line, flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
