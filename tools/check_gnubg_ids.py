"""Does GNU Backgammon accept the GNUbgID and XGID the analysis reports show?

Every analysed decision carries the game at that moment as a GNUbgID
(``Decision.gnubg_id``) and an XGID (``Decision.xgid``), which the text and HTML
reports print for each flagged decision so that it can be pasted into gnubg or XG.
This script analyses matches (at 0-ply by default: the IDs do not depend on the
ply), gives every decision's two IDs to the ``gnubg`` PyPI module (GPL;
measurement only, never a dependency of the package) with ``set_gnubg_id`` and
``set xgid``, and compares the game gnubg then holds (its own GNUbgID back) with
the decision's:

- *same*: gnubg holds the very game (position, player on roll, dice, cube and
  owner, score, match length, Crawford game);
- *same, players named the other way*: the same game with gnubg's player 0 and 1
  swapped (gnubg's ``set xgid`` makes the player on roll its player 1 whoever it
  is; nothing of the game differs);
- *double dropped*: the decision answers a double (a take or a pass); gnubg
  1.1.0a16 sets the game just before the double (the doubler on roll, the cube
  where it was) and drops the pending double: the same question, asked one step
  earlier;
- anything else is a failure, printed with both IDs.

The matches: real match exports (``--matches DIR``, default ``$BACKGAMMON_REALWORLD``
or ``../shared/realworld/galaxy`` beside the checkout, read in place, never
copied), ``--limit`` of them, and ``--random N`` random matches (doubles, takes,
drops, resignations: tools/check_gnubg_mat_import.py's).

    pip install gnubg            # into a separate environment or --target dir
    PYTHONPATH=python python tools/check_gnubg_ids.py --limit 40 --random 40

Prints the counts per kind of decision and ID, and every failure.
"""

from __future__ import annotations

import argparse
import collections
import glob
import os
import sys
from pathlib import Path
from typing import Any, Iterator

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO / "tools"))
from check_gnubg_mat_import import quiet, random_match  # noqa: E402  (gnubg's stdout, random matches)
SENTINEL = "4HPwATDgc/ABMA:MIEFAAAAAAAE"
"""A money game at the opening, 3-1 rolled: what gnubg holds before each ID is set."""


def canonical(gnubg_id: str, mirrored: bool = False) -> tuple[Any, ...]:
    """A GNUbgID's game as fields, with players 0 and 1 swapped when ``mirrored``."""
    from backgammon.formats import decode_match_id

    position, _, match = gnubg_id.partition(":")
    k = decode_match_id(match)

    def who(p: int) -> int:
        return p if p < 0 or not mirrored else 1 - p

    score = tuple(reversed(k.score)) if mirrored else tuple(k.score)
    return (position, k.cube, who(k.cube_owner), who(k.move), who(k.turn), k.doubled,
            k.resigned, tuple(k.dice), k.match_length, score, k.crawford, k.game_state)


def before_double(decision: Any) -> str:
    """The GNUbgID of the game just before the double a take or pass answers."""
    from backgammon.game import Game

    g = decision.to_game()
    before = Game.from_position(g.position, turn=g.turn, cube=g.cube, cube_owner=g.cube_owner,
                                rules=g.rules, rng=0, match_length=g.match_length,
                                score=g.score, crawford=g.crawford)
    return before.gnubg_id()


def verdict(ours: str, theirs: str, doubled: str) -> str:
    """How gnubg's game (``theirs``, its GNUbgID) stands to the decision's (``ours``)."""
    if theirs == ours:
        return "same"
    if canonical(theirs) == canonical(ours, mirrored=True):
        return "same, players named the other way"
    if doubled and (theirs == doubled or canonical(theirs) == canonical(doubled, mirrored=True)):
        return "double dropped"
    return "FAILED"


def matches(args: argparse.Namespace) -> Iterator[tuple[str, Any]]:
    """(name, match or record) of the real files, then of the random matches."""
    from backgammon.formats import read_record

    folder = args.matches or os.environ.get("BACKGAMMON_REALWORLD") or str(
        REPO.parent / "shared" / "realworld" / "galaxy")
    files = sorted(glob.glob(os.path.join(folder, "*")))[: args.limit]
    if not files and args.limit:
        print(f"no match files in {folder} (--matches DIR or $BACKGAMMON_REALWORLD)",
              file=sys.stderr)
    for path in files:
        try:
            yield os.path.basename(path), read_record(path)
        except Exception as e:  # noqa: BLE001 - a file this reader refuses is counted apart
            print(f"{os.path.basename(path)}: not read: {type(e).__name__}: {e}"[:300])
    if args.random:
        import random
        for n in range(args.random):
            seed = args.seed + n
            yield f"random {seed}", random_match(seed, random.Random(seed).choice([1, 3, 5, 7, 9]))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--matches", help="a folder of match files (.txt/.mat, .sgf, .json)")
    parser.add_argument("--limit", type=int, default=40, help="real match files read (0: none)")
    parser.add_argument("--random", type=int, default=40, help="random matches played")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--ply", type=int, default=0, choices=(0, 1, 2))
    args = parser.parse_args()
    try:
        import gnubg  # noqa: PLC0415 - measurement only
    except ImportError:
        print("the gnubg module is not installed (pip install gnubg)", file=sys.stderr)
        return 2
    import warnings

    from backgammon.analysis import analyse

    counts: collections.Counter[tuple[str, str, str]] = collections.Counter()
    flagged: collections.Counter[str] = collections.Counter()
    played = 0
    for name, source in matches(args):
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            a = analyse(source, ply=args.ply)
        played += 1
        for d in a.decisions:
            kind = "answer" if d.made in ("take", "pass", "beaver") else d.kind
            doubled = before_double(d) if kind == "answer" else ""
            for label, text, command in (("GNUbgID", d.gnubg_id, None),
                                         ("XGID", d.xgid, "set xgid ")):
                if not text:
                    counts[(kind, label, "no ID")] += 1
                    continue
                with quiet():
                    gnubg.set_gnubg_id(SENTINEL)       # a refused ID leaves it there
                    if command is None:
                        gnubg.set_gnubg_id(text)
                    else:
                        gnubg.command(command + text)
                    theirs = gnubg.gnubg_id()
                v = verdict(d.gnubg_id, theirs, doubled)
                counts[(kind, label, v)] += 1
                if d.flag is not None:
                    flagged[f"{label}: {v}"] += 1
                if v == "FAILED":
                    print(f"{name}, {d.describe(a.names)[:80]}: {label} {text} -> gnubg "
                          f"{theirs} (ours {d.gnubg_id})")
    print(f"{played} matches analysed at {args.ply}-ply; gnubg {gnubg.version}")
    for (kind, label, v), n in sorted(counts.items()):
        print(f"  {kind:<7} {label:<8} {v:<36} {n:>7}")
    print("flagged decisions (what the reports show): "
          + ", ".join(f"{k} {n}" for k, n in sorted(flagged.items())))
    return 1 if any(v == "FAILED" for _, _, v in counts) else 0


if __name__ == "__main__":
    sys.exit(main())
