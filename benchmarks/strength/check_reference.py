"""How much the sets' reference errors move the error rates (benchmarks/strength/README.md).

    python benchmarks/strength/check_reference.py                 # noise model only, no games
    nice -n 15 python benchmarks/strength/check_reference.py --rerun 40 [--full]

* Noise model: each rolled-out play's difference to the best has a standard
  error (``stderr`` in the sets).  Drawing that noise again (normal,
  independent between plays: an upper bound, since common dice correlate
  them) and taking the best of the noisy values, the reference best is
  wrongly placed by a mean amount per decision: the figure a chooser's error
  rate can be off by from the noise alone.
* ``--rerun N``: the first N decisions of each set rolled out again with the
  same settings and another seed (``--full``: plain untruncated rollouts of
  2,592 games, no variance reduction, the same plays), and the error rates
  of the bundled nets and pubeval against both references.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

import numpy as np

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
import generate  # noqa: E402  (benchmarks/strength/generate.py)
from generate import bg  # noqa: E402
from backgammon import nn  # noqa: E402
from backgammon.training import benchmark  # noqa: E402


def noise_inflation(s: benchmark.PositionSet, draws: int = 400, seed: int = 1) -> float:
    """Mean over decisions of E[true value of the best play] - E[max noisy]... in x 1000:
    how much higher the noisy reference's best is than the true best, on average."""
    rng = np.random.default_rng(seed)
    total = 0.0
    for i in range(len(s)):
        lo, hi = int(s.offsets[i]), int(s.offsets[i + 1])
        eq, se = s.equities[lo:hi], s.stderr[lo:hi]
        deep = np.isfinite(se)
        e, sd = eq[deep], se[deep]
        noisy = e + rng.standard_normal((draws, len(e))) * sd
        # the play a noisy reference calls best, and what it loses in truth
        pick = noisy.argmax(axis=1)
        total += float((e.max() - e[pick]).mean())
    return 1000.0 * total / len(s)


def rerun(s: benchmark.PositionSet, n: int, full: bool, seed_base: int) -> benchmark.PositionSet:
    ev = nn.Evaluator.default()
    sub = s.subset(slice(0, min(n, len(s))))
    eqs = []
    for i in range(len(sub)):
        lo, hi = int(sub.offsets[i]), int(sub.offsets[i + 1])
        deep = [k for k in range(hi - lo) if np.isfinite(sub.stderr[lo + k])]
        pos, dice = sub.position(i)
        plays = pos.legal_plays(dice)
        kw = (dict(games=2592, truncate=None, variance_reduction=False) if full else
              {"games": generate.DEEP[s.name]["games"],
               "truncate": generate.DEEP[s.name]["truncate"],
               "variance_reduction": generate.DEEP[s.name]["vr"]})
        rows = bg.rollout_plays(pos, dice, plays=[plays[k] for k in deep], seed=seed_base + i,
                                policy=ev, workers=1, **kw)
        at = {r.play.result: r.equity.value for r in rows}
        e = sub.equities[lo:hi].copy()
        new = np.array([at[plays[k].result] for k in deep])
        shift = float(np.mean(new - e[deep]))   # cheap plays follow the deep ones' scale
        e += shift
        e[deep] = new
        eqs.append(e)
    return benchmark.PositionSet(sub.name, sub.boards, sub.dice, sub.offsets, sub.results,
                                 np.concatenate(eqs), sub.stderr, sub.meta)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--sets", type=Path, default=HERE)
    ap.add_argument("--rerun", type=int, default=0, metavar="N")
    ap.add_argument("--full", action="store_true")
    args = ap.parse_args(argv)
    sets = benchmark.load_sets(args.sets)
    for name, s in sets.items():
        se = s.stderr[np.isfinite(s.stderr) & (s.stderr > 0)]
        deep = np.isfinite(s.stderr).sum()
        print(f"{name:<8} {len(s):>5} decisions, {len(s.results):>6} plays, {deep} rolled out "
              f"deeply ({deep / len(s):.1f} a decision); difference errors: mean "
              f"{se.mean():.4f}, rms {np.sqrt((se ** 2).mean()):.4f}; noise moves the best by "
              f"{noise_inflation(s):.2f} x 1000 a decision (model)")
    if args.rerun:
        for name, s in sets.items():
            t = time.process_time()
            again = rerun(s, args.rerun, args.full, 77_000_000)
            sub = s.subset(slice(0, len(again)))
            line = f"{name:<8} first {len(again)} again ({'full 2592' if args.full else 'same settings'}, "
            line += f"{time.process_time() - t:.0f} CPU s):"
            for who in ("net", "pubeval"):
                a = benchmark.error_rate(who, sub)[name]
                b = benchmark.error_rate(who, again)[name]
                line += f"  {who} {a.error:.2f} -> {b.error:.2f}"
            same = (sub.best == again.best).mean()
            line += f"; same best play {100 * same:.0f} %"
            print(line, flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
