"""Error rates on the strength benchmark's sets: our nets, pubeval and gnubg-nn's 0-ply best move.

    python benchmarks/peers_strength.py [--sets DIR] [--json OUT]
    python benchmarks/compare_peers.py --strength --skip movegen --skip rollout --skip nn

The sets are the bundled ones (``backgammon/data/strength``: contact, crashed, race;
benchmarks/strength/README.md).
Every chooser plays every decision of every set: our bundled nets at 0-ply
(one batched core call a set), pubeval, and gnubg-nn's ``best_move(board, d1,
d2)`` (0-ply, a Python loop).  The error rate is the mean equity lost per
decision against the rolled-out reference best, x 1000, with its standard
error; "ours - gnubg" is the paired difference over the same decisions.
gnubg-nn is measurement only (GPL): never imported by the package.
"""

from __future__ import annotations

import argparse
import json
import math
import sys
import time
from pathlib import Path
from typing import Any


REPO = Path(__file__).resolve().parent.parent


def gnubg_chooser(gnubg_nn):
    """``f(position, dice)``: the position after gnubg-nn's 0-ply best move."""
    def choose(pos, dice):
        moves = gnubg_nn.best_move(pos.to_gnubg_board(), *dice)
        return pos.play(list(moves), dice) if moves else pos
    return choose


def _paired(a, b) -> tuple[float, float]:
    d = a.losses - b.losses
    return 1000.0 * float(d.mean()), 1000.0 * float(d.std(ddof=1)) / math.sqrt(len(d))


def compare(bg, sets_dir: Path | None, gnubg_nn) -> dict[str, Any]:
    from backgammon.training import benchmark

    sets = benchmark.load_sets(sets_dir)
    choosers: dict[str, Any] = {"nets 0-ply": "net", "pubeval": "pubeval"}
    if gnubg_nn is not None:
        choosers["gnubg-nn 0-ply"] = gnubg_chooser(gnubg_nn)
    rates, seconds = {}, {}
    for name, choose in choosers.items():
        start = time.perf_counter()
        rates[name] = benchmark.error_rate(choose, sets)
        rates[name]["all"] = benchmark.combined(rates[name])
        seconds[name] = time.perf_counter() - start
    out: dict[str, Any] = {"sets": {k: {"decisions": len(s), "plays": len(s.results)}
                                    for k, s in sets.items()},
                           "seconds": seconds, "rates": {}}
    for name, by_set in rates.items():
        out["rates"][name] = {k: {"error": r.error, "stderr": r.stderr, "best": r.best_share}
                              for k, r in by_set.items()}
    if gnubg_nn is not None:
        out["ours_minus_gnubg"] = {k: _paired(rates["nets 0-ply"][k], rates["gnubg-nn 0-ply"][k])
                                   for k in rates["nets 0-ply"]}
    return out


def report(out: dict[str, Any]) -> None:
    names = list(out["rates"])
    head = "  set       decisions" + "".join(f"  {n:>24}" for n in names)
    if "ours_minus_gnubg" in out:
        head += f"  {'ours - gnubg':>16}"
    print(head)
    for k in out["rates"][names[0]]:
        n = out["sets"][k]["decisions"] if k in out["sets"] else sum(
            v["decisions"] for v in out["sets"].values())
        line = f"  {k:<8} {n:>10,}"
        for name in names:
            r = out["rates"][name][k]
            line += f"  {r['error']:7.2f} ± {r['stderr']:4.2f} ({100 * r['best']:4.1f} %)"
        if "ours_minus_gnubg" in out:
            d, se = out["ours_minus_gnubg"][k]
            line += f"  {d:+7.2f} ± {se:4.2f}"
        print(line)
    print("  error rate: mean equity lost a decision x 1000 ± standard error (share of "
          "decisions with the reference best play)")
    print("  seconds: " + ", ".join(f"{n} {s:.2f}" for n, s in out["seconds"].items()))


def run(bg, args) -> dict[str, Any] | None:
    print("\n== Strength benchmark: error rates against rolled-out references ==")
    try:
        import gnubg_nn
    except ImportError as exc:
        print(f"  gnubg-nn skipped: cannot import gnubg_nn ({exc}); pip install gnubg-nn")
        gnubg_nn = None
    out = compare(bg, args.strength_sets, gnubg_nn)
    report(out)
    return out


def add_arguments(ap: argparse.ArgumentParser) -> None:
    ap.add_argument("--strength-sets", type=Path, default=None,
                    metavar="DIR", help="the position sets (default: the bundled ones)")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    add_arguments(ap)
    ap.add_argument("--json", type=Path)
    args = ap.parse_args(argv)
    try:
        import backgammon as bg
    except ImportError:
        sys.path.insert(0, str(REPO / "python"))
        import backgammon as bg
    out = run(bg, args)
    if args.json:
        args.json.write_text(json.dumps(out, indent=2) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
