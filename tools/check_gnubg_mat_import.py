"""Do the .mat (and SGF) files we write open in GNU Backgammon unchanged?

Plays N random matches with the library (doubles, takes, drops, resignations of
every kind, so Crawford and post-Crawford games), writes each with
``Match.to_mat()``, imports it into the ``gnubg`` PyPI module (GPL; measurement
only, never a dependency of the package) and compares what gnubg read with the
match: every game's start score, winner and points, every play (by its net
effect on the board), every cube action and resignation, and the final score.
With ``--sgf`` it also saves gnubg's own SGF of the imported match, reads it
back with ``Match.from_sgf``, and compares ``Match.to_sgf()`` with it node for
node (the gnubg 1.1.0a16 Python module crashes on ``load match``, even of its
own files, so gnubg cannot load ours here).

    pip install gnubg            # into a separate environment or --target dir
    PYTHONPATH=python python tools/check_gnubg_mat_import.py --matches 200 --sgf

Prints how many of the N matches gnubg imported with every game and score.
"""

from __future__ import annotations

import argparse
import collections
import contextlib
import os
import random
import sys
import tempfile
import warnings
from typing import Any

from backgammon.match import Match

KINDS = ("single", "gammon", "backgammon")


def random_match(seed: int, length: int) -> Match:
    """A match played with random legal plays, doubles, takes, drops and resignations."""
    rng = random.Random(seed)
    # Crawford on: gnubg's "import mat" ignores a [Crawford "Off"] tag (it keeps its own
    # setting), so a match without the rule does not import as such
    m = Match(length, names=("Amy Lee", "Ben"), rng=seed)
    while True:
        g = m.game
        while not g.over:
            acts = g.legal_actions()
            if "take" in acts:
                g.take() if rng.random() < 0.7 else g.drop()
            elif "double" in acts and rng.random() < 0.08:
                g.double()
            elif "roll" in acts:
                if rng.random() < 0.01 and g.phase.value == "roll":
                    g.resign(rng.choice(KINDS))
                    g.accept()
                    continue
                g.roll()
                if rng.random() < 0.005:  # rolled, then resigned before playing
                    g.resign(rng.choice(KINDS))
                    g.accept()
            elif "play" in acts:
                g.play(rng.choice(list(g.position.legal_plays(g.dice))))
        if m.over:
            return m
        m.next_game()


@contextlib.contextmanager
def quiet() -> Any:
    """gnubg prints boards on stdout: send file descriptor 1 to /dev/null meanwhile."""
    sys.stdout.flush()
    saved = os.dup(1)
    devnull = os.open(os.devnull, os.O_WRONLY)
    os.dup2(devnull, 1)
    try:
        yield
    finally:
        os.dup2(saved, 1)
        os.close(devnull)
        os.close(saved)


def net(steps: Any) -> list[tuple[int, int]]:
    """A play by what it does: checkers taken from and put on each point."""
    count: collections.Counter[int] = collections.Counter()
    for src, dst in steps:
        count[src] -= 1
        count[dst] += 1
    return sorted((p, c) for p, c in count.items() if c)


def ours(m: Match) -> list[tuple[Any, list[tuple[Any, ...]]]]:
    """Per game: (score, winner, points) and the actions as gnubg lists them."""
    out = []
    for g in m.games:
        actions: list[tuple[Any, ...]] = []
        for a in g.actions:
            if a.kind == "play":
                actions.append((a.player, "move", net(a.value)))
            elif a.kind in ("double", "take", "drop"):
                actions.append((a.player, a.kind))
            elif a.kind == "accept":
                actions.append((1 - a.player, "resign"))
        r = g.result
        out.append(((g.score, r.winner, r.points), actions))
    return out


def theirs(data: dict[str, Any]) -> list[tuple[Any, list[tuple[Any, ...]]]]:
    out = []
    for game in data["games"]:
        info = game["info"]
        actions: list[tuple[Any, ...]] = []
        for a in game["game"]:
            player = 0 if a.get("player") == "X" else 1
            if a["action"] == "move":
                if a.get("move"):
                    actions.append((player, "move", net(a["move"])))
            elif a["action"] in ("double", "take", "drop", "resign"):
                actions.append((player, a["action"]))
        winner = 0 if info["winner"] == "X" else 1
        out.append((((info["score-X"], info["score-O"]), winner, info["points-won"]), actions))
    return out


def same(m: Match, data: dict[str, Any]) -> str:
    """'' when gnubg's match is ours, else the first difference."""
    a, b = ours(m), theirs(data)
    if len(a) != len(b):
        return f"{len(b)} games read, {len(a)} written"
    for k, ((ra, xa), (rb, xb)) in enumerate(zip(a, b), start=1):
        if ra != rb:
            return f"game {k}: (score, winner, points) {rb}, written {ra}"
        # a roll that cannot be played is no action in gnubg's list nor in ours
        xa = [x for x in xa if x[1] != "move" or x[2]]
        if xa != xb:
            at = next(i for i, (p, q) in enumerate(zip(xa + [None], xb + [None])) if p != q)
            return f"game {k}: action {at}: gnubg {xb[at:at + 2]}, written {xa[at:at + 2]}"
    return ""


def sgf_nodes(text: str) -> list[list[tuple[Any, ...]]]:
    """Per game: the root's MI, RU and RE, then each move, cube and dice node."""
    from backgammon.formats.sgf import parse_sgf

    games = []
    for tree in parse_sgf(text):
        root = dict(tree.nodes[0])
        out: list[tuple[Any, ...]] = [(tuple(root.get("MI", [])), tuple(root.get("RU", [])),
                                       tuple(root.get("RE", [])))]
        for node in tree.nodes[1:]:
            props = dict(node)
            for side in ("W", "B"):
                if side in props:
                    v = props[side][0]
                    if v[:1].isdigit():  # dice, then the steps by their net effect
                        pairs = [(v[i], v[i + 1]) for i in range(2, len(v), 2)]
                        out.append((side, v[:2], net(pairs)))
                    else:
                        out.append((side, v))
            if "DI" in props:
                out.append(("PL", tuple(props.get("PL", [])), props["DI"][0]))
        games.append(out)
    return games


def same_sgf(ours_text: str, gnubg_text: str) -> str:
    """'' when our SGF has gnubg's nodes (the same spelling), else the first difference."""
    a, b = sgf_nodes(ours_text), sgf_nodes(gnubg_text)
    if len(a) != len(b):
        return f"{len(a)} games written, gnubg wrote {len(b)}"
    for k, (x, y) in enumerate(zip(a, b), start=1):
        if x != y:
            at = next(i for i, (p, q) in enumerate(zip(x + [None], y + [None])) if p != q)
            return f"game {k}: node {at}: ours {x[at:at + 2]}, gnubg {y[at:at + 2]}"
    return ""


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--matches", type=int, default=100)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--sgf", action="store_true", help="check SGF both ways too")
    parser.add_argument("--keep", help="a folder to keep the files that fail in")
    args = parser.parse_args()
    try:
        import gnubg  # noqa: PLC0415 - measurement only
    except ImportError:
        print("the gnubg module is not installed (pip install gnubg)", file=sys.stderr)
        return 2
    counts = collections.Counter()
    with tempfile.TemporaryDirectory() as tmp:
        for n in range(args.matches):
            seed = args.seed + n
            m = random_match(seed, random.Random(seed).choice([1, 3, 5, 7, 9, 11]))
            path = os.path.join(tmp, f"m{seed}.mat")
            with warnings.catch_warnings(record=True) as caught:
                warnings.simplefilter("always")
                text = m.to_mat()
            if caught:
                counts["mat lossy"] += 1
                print(f"seed {seed}: .mat: {caught[0].message}")
            with open(path, "w") as f:
                f.write(text)
            with quiet():
                gnubg.command(f"import mat {path}")
                data = gnubg.match()
            why = same(m, data)
            counts["mat"] += not why
            if why:
                print(f"seed {seed}: .mat: {why}")
            if not args.sgf:
                continue
            # gnubg's own SGF of the match it imported, read by us
            gpath = os.path.join(tmp, f"g{seed}.sgf")
            with quiet():
                gnubg.command(f"save match {gpath}")
            try:
                with open(gpath, encoding="utf-8") as f:
                    back = Match.from_sgf(f.read())
                why_read = "" if (back.score, [g.result for g in back.games]) == \
                    (m.score, [g.result for g in m.games]) else "another score or result"
            except Exception as e:  # noqa: BLE001 - report any failure
                why_read = f"{type(e).__name__}: {e}"
            counts["gnubg sgf read"] += not why_read
            if why_read:
                print(f"seed {seed}: reading gnubg's SGF: {why_read}")
            # our SGF, node by node against gnubg's own (gnubg 1.1.0a16's Python module
            # crashes on "load match", so gnubg cannot load it here)
            spath = os.path.join(tmp, f"m{seed}.sgf")
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                text = m.to_sgf()
            with open(spath, "w", encoding="utf-8") as f:
                f.write(text)
            try:
                with open(gpath, encoding="utf-8") as f:
                    why_sgf = same_sgf(text, f.read())
            except Exception as e:  # noqa: BLE001 - report any failure
                why_sgf = f"{type(e).__name__}: {e}"
            counts["sgf"] += not why_sgf
            # gnubg's import of a .mat drops a roll made before a resignation, or plays it
            # as a dance: its SGF then lacks our PL[.]DI[..] node
            counts["sgf roll before a resignation"] += "ours [('PL'" in why_sgf
            if why_sgf:
                print(f"seed {seed}: SGF: {why_sgf}")
            if args.keep and (why or why_read or why_sgf):
                os.makedirs(args.keep, exist_ok=True)
                for p in (path, gpath, spath):
                    with open(p) as f, open(os.path.join(args.keep, os.path.basename(p)),
                                            "w") as g:
                        g.write(f.read())
    print(f"gnubg {getattr(gnubg, '__version__', '?')}: {args.matches} random matches")
    print(f"  .mat written by us, imported by gnubg with every game and score: "
          f"{counts['mat']}/{args.matches} ({counts['mat lossy']} written with a "
          "FormatLossWarning)")
    if args.sgf:
        print(f"  SGF written by us, node for node gnubg's own SGF of the match: "
              f"{counts['sgf']}/{args.matches} (differing at a roll made before a "
              f"resignation, which gnubg's .mat import drops or reads as a dance: "
              f"{counts['sgf roll before a resignation']})")
        print(f"  gnubg's SGF of the match, read back by us: "
              f"{counts['gnubg sgf read']}/{args.matches}")
    return 0 if all(v == args.matches for k, v in counts.items() if 'lossy' not in k and 'before' not in k) else 1


if __name__ == "__main__":
    sys.exit(main())
