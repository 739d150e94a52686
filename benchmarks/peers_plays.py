"""How often our nets' 0-ply best play is gnubg's 0-ply best play, on positions of real play.

    python benchmarks/peers_plays.py [--games N] [--seed S] [--json OUT]
    python benchmarks/compare_peers.py --plays [--plays-games N]

The positions are those of games played by the bundled nets against gnubg-nn
(``gnubg_nn.best_move(board, d1, d2)``, 0-ply), seats alternating, seeded
Python dice: the positions a match between two strong players reaches.  At
every roll with more than one distinct play, both engines pick their best
play; they agree when the two plays give the same position.  Disagreements
are scored by our own nets (the equity our 0-ply evaluation gives up by
playing gnubg's choice) and by gnubg's (``gnubg_nn.probabilities`` of both
results): a small loss on both sides means a close call, not a blunder.
gnubg-nn is measurement only (GPL): never imported by the package.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
import time
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parent.parent


def _gnubg_equity(gnubg_nn, result) -> float:
    """gnubg's 0-ply cubeless equity of a play's result for the player who made it."""
    done = result.outcome()            # the mover (positive side) has borne off: a win
    if done is not None:
        return float(done.points if done.winner == 0 else -done.points)
    nxt = result.swapped()
    w, wg, wb, lg, lb = gnubg_nn.probabilities(nxt.to_gnubg_board(), 0)
    return -(2 * w - 1 + wg - lg + wb - lb)


def compare(bg, gnubg_nn, games: int, seed: int) -> dict[str, Any]:
    decisions = agree = 0
    ours_loss: list[float] = []
    gnubg_loss: list[float] = []
    worst: list[tuple[float, str, tuple[int, int], str, str]] = []
    start = time.perf_counter()
    for g in range(games):
        rng = random.Random(seed * 1_000_003 + g)
        pos = bg.Position.initial()
        for ply in range(10_000):
            dice = (rng.randint(1, 6), rng.randint(1, 6))
            plays = pos.legal_plays(dice)
            ranked = pos.rank_plays(dice)
            moves = gnubg_nn.best_move(pos.to_gnubg_board(), *dice)
            theirs = pos.play(list(moves), dice) if moves else pos
            mine = ranked[0].play.result
            if len(plays) > 1:
                decisions += 1
                if theirs == mine:
                    agree += 1
                else:
                    eq = {r.play.result: r.equity for r in ranked}
                    loss = ranked[0].equity - eq[theirs]
                    ours_loss.append(loss)
                    gl = _gnubg_equity(gnubg_nn, theirs) - _gnubg_equity(gnubg_nn, mine)
                    gnubg_loss.append(gl)
                    worst.append((loss, pos.position_id(), dice, str(ranked[0].play),
                                  str(next(p for p in plays if p.result == theirs))))
            # Seats alternate by game: the side to move plays its own engine's choice.
            res = mine if (ply + g) % 2 == 0 else theirs
            if res.outcome() is not None:
                break
            pos = res.swapped()
    worst.sort(reverse=True)
    out = {
        "games": games, "seed": seed, "decisions": decisions, "agree": agree,
        "agreement": agree / decisions if decisions else float("nan"),
        "our_loss_of_gnubg_choice_mean": statistics.fmean(ours_loss) if ours_loss else 0.0,
        "gnubg_loss_of_our_choice_mean": statistics.fmean(gnubg_loss) if gnubg_loss else 0.0,
        "seconds": time.perf_counter() - start,
        "worst": [{"position_id": p, "dice": d, "ours": a, "gnubg": b, "our_loss": round(l, 4)}
                  for l, p, d, a, b in worst[:10]],
    }
    return out


def report(out: dict[str, Any]) -> None:
    print(f"  {out['decisions']} unforced plays in {out['games']} games (net vs gnubg-nn, seed "
          f"{out['seed']}): same best play {out['agree']} = {out['agreement']:.1%}")
    print(f"  where they differ: our nets rate gnubg's choice {out['our_loss_of_gnubg_choice_mean']:.4f} "
          f"worse on average; gnubg's nets rate ours {out['gnubg_loss_of_our_choice_mean']:.4f} worse")
    for w in out["worst"][:5]:
        print(f"    {w['position_id']} {w['dice'][0]}{w['dice'][1]}: ours {w['ours']:<24} "
              f"gnubg {w['gnubg']:<24} (our loss {w['our_loss']:.4f})")


def run(bg, args) -> dict[str, Any] | None:
    print("\n== Best plays at 0-ply: our nets against gnubg-nn ==")
    try:
        import gnubg_nn
    except ImportError as exc:
        print(f"  skipped: cannot import gnubg_nn ({exc}); pip install gnubg-nn")
        return None
    out = compare(bg, gnubg_nn, args.plays_games, args.plays_seed)
    report(out)
    return out


def add_arguments(ap: argparse.ArgumentParser) -> None:
    ap.add_argument("--plays-games", type=int, default=100, metavar="N",
                    help="games whose plays are compared (default 100)")
    ap.add_argument("--plays-seed", type=int, default=2026, metavar="S")


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
    if out is None:
        return 2
    if args.json:
        args.json.write_text(json.dumps(out, indent=2) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
