"""How often nets' 0-ply best play is gnubg-nn's 0-ply best play on the decisions of real matches.

    python benchmarks/peers_agreement.py [NETS.npz ...] [--matches DIR] [--limit N]

Every unforced checker play of every game of the ``.mat`` files in DIR (default: the
real Galaxy matches beside the checkout, ``../shared/realworld/galaxy``, or under
$BACKGAMMON_SHARED, which are
never copied into the project): the position before the play and its dice, from the
analysis' decisions. For each nets file (and the bundled nets) the share of those
decisions where its 0-ply best play gives the same position as ``gnubg_nn.best_move``
(0-ply). gnubg-nn is a yardstick only (GPL), never imported by the package.
"""
from __future__ import annotations

import argparse
import json
import os
import sys
from pathlib import Path

import backgammon as bg
from backgammon.formats.mat import read_mat

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(Path(__file__).parent))


def decisions(folder: Path, limit: int) -> list[tuple[bg.Position, tuple[int, int]]]:
    """(position, dice) of every unforced checker play of the first ``limit`` matches."""
    from backgammon.analysis import analyse

    out = []
    for path in sorted(folder.glob("*.txt"))[:limit]:
        record = read_mat(path.read_text(encoding="utf-8", errors="replace"))
        source = record.match if record.match is not None else record.games
        for d in analyse(source, ply=0, cube=False).decisions:
            if d.kind != "play" or d.dice is None:
                continue
            pos = bg.Position.from_position_id(d.position_id)
            if len(pos.legal_plays(d.dice)) > 1:
                out.append((pos, d.dice))
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("nets", nargs="*")
    shared = Path(os.environ.get("BACKGAMMON_SHARED") or REPO.parent / "shared")
    ap.add_argument("--matches", default=str(shared / "realworld" / "galaxy"))
    ap.add_argument("--limit", type=int, default=200, help="matches read (default 200)")
    a = ap.parse_args()
    import gnubg_nn
    from compare_peers import to_gnubg

    cases = decisions(Path(a.matches), a.limit)
    theirs = []
    for pos, (d1, d2) in cases:
        moves = gnubg_nn.best_move(to_gnubg(pos.tolist()), d1, d2)
        theirs.append(pos.play(list(moves), (d1, d2)) if moves else pos)
    report = {"decisions": len(cases), "matches": a.limit}
    for label in ["bundled"] + a.nets:
        ev = bg.Evaluator.default() if label == "bundled" else bg.Evaluator.load(label)
        same = sum(pos.best_play(dice, evaluator=ev).result == t
                   for (pos, dice), t in zip(cases, theirs))
        report[label] = {"same": same, "share": same / len(cases)}
        print(f"{label}: {same:,} of {len(cases):,} unforced decisions, "
              f"{100 * same / len(cases):.1f} % the same play as gnubg-nn 0-ply", flush=True)
    print(json.dumps(report))


if __name__ == "__main__":
    main()
