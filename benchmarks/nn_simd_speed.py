"""0-ply evaluation speed on each SIMD path of the core, beside gnubg-nn's, in one run.

For the bundled nets (default and fast) and any ``--nets`` files, CPU seconds to
evaluate N distinct positions (``compare_peers.nn_positions``) with the AVX2 kernels
and with the baseline (SSE2) ones, chosen by ``_bgcore.nn_use_avx2``; nets of encoding
5 on each integer target the CPU runs (``_bgcore.nn_quant_target``: VNNI, AVX2, SSE2,
plain) and in float (their reference).  The answers of a nets' paths are identical,
checked here.  Then gnubg-nn's ``probabilities(board, 0)`` on N other positions (it
caches evaluations).  Each figure is the best of ``--rounds`` rounds, the paths
alternating; ratios are against gnubg-nn measured in the same run.  The baseline
path is what a CPU without AVX2 runs (``qemu-x86_64 -cpu Nehalem`` checks that it is
chosen there: .ci/no_avx2_check.py).

    python benchmarks/nn_simd_speed.py [--positions 20000] [--rounds 3] [--nets FILE ...]
"""

from __future__ import annotations

import argparse
import time

import numpy as np

import backgammon as bg
from backgammon import _bgcore
from compare_peers import nn_positions, to_gnubg


def best_cpu(fn, rounds: int) -> float:
    best = float("inf")
    for _ in range(rounds):
        t = time.process_time()
        fn()
        best = min(best, time.process_time() - t)
    return best


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--positions", type=int, default=20000)
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--nets", nargs="*", default=[], help="nets files measured beside the bundled")
    args = ap.parse_args()
    n = args.positions
    pool = nn_positions(bg, 2 * n, seed=2026)
    ours, theirs = np.ascontiguousarray(pool[:n]), pool[n:]
    had_avx2, had_target = _bgcore.NN_AVX2, _bgcore.nn_quant_target()
    rates = {}
    for name in ["net", "fast", *args.nets]:
        ev = bg.Evaluator.named(name)
        label = name if name in ("net", "fast") else f"{ev.policy_name}"
        answers = {}
        if ev.quantised:
            for target in reversed(_bgcore.nn_quant_targets()):
                _bgcore.nn_quant_target(target)
                answers[target] = ev.evaluate_batch(ours)
                rates[f"{label} {target}"] = n / best_cpu(lambda: ev.evaluate_batch(ours), args.rounds)
            _bgcore.nn_quant_target(had_target)
            flt = ev.as_float()
            rates[f"{label} float"] = n / best_cpu(lambda: flt.evaluate_batch(ours), args.rounds)
            err = np.abs(flt.equities(ours) - ev.equities(ours))
            print(f"  {label}: integer against float equity, mean {err.mean():.1e}, "
                  f"max {err.max():.1e}")
        else:
            for path, allow in (("avx2", True), ("sse2", False)):
                if _bgcore.nn_use_avx2(allow) != allow:
                    print(f"  {path}: this CPU has no AVX2, skipped")
                    continue
                answers[path] = ev.evaluate_batch(ours)
                rates[f"{label} {path}"] = n / best_cpu(lambda: ev.evaluate_batch(ours), args.rounds)
        first = next(iter(answers.values()))
        assert all(np.array_equal(a, first) for a in answers.values()), "the paths disagree"
    _bgcore.nn_use_avx2(had_avx2)
    try:
        import gnubg_nn
    except ImportError:
        gnubg_nn = None
    if gnubg_nn is not None:
        boards = [to_gnubg(b.tolist()) for b in theirs]
        rounds = iter(range(args.rounds))

        def gnubg_round() -> None:   # new positions each round: gnubg caches
            k = next(rounds)
            for b in boards[k * n // args.rounds:(k + 1) * n // args.rounds]:
                gnubg_nn.probabilities(b, 0)

        rates["gnubg-nn"] = (n // args.rounds) / best_cpu(gnubg_round, args.rounds)
    print(f"0-ply evaluations per CPU-second, {n} distinct positions, best of {args.rounds}:")
    for k, v in rates.items():
        ratio = f"  {v / rates['gnubg-nn']:.1f}x gnubg-nn" if "gnubg-nn" in rates and k != "gnubg-nn" \
            else ""
        print(f"  {k:<24} {v:>12,.0f}{ratio}")


if __name__ == "__main__":
    main()
