"""Match analysis side by side with GNU Backgammon on real match files.

    python benchmarks/gnubg_analysis.py [--files GLOB] [--sample N] [--seed S]
        [--ply P] [--nets FILE] [--prune K] [--gnubg-ply 2] [--cache DIR] [--json OUT]

For each match file (default: the Backgammon Galaxy exports in
../shared/realworld/galaxy beside the checkout, or under $BACKGAMMON_SHARED,
read in place, never copied), the match is read
with ``Match.from_mat``, written back with ``Match.to_mat`` (so both programs
analyse the very same games) and imported into the ``gnubg`` PyPI module
(1.1.0a16; measurement only, never a dependency of the package), which runs
``analyse match`` at its default settings (2-ply chequer play and cube,
thresholds 0.03/0.06/0.12; ``--gnubg-ply`` changes the plies).  From gnubg we
read ``show statistics match`` (each player's overall error rate in mEMG) and
its SGF of the analysed match (``BM[n]``/``DO[]`` marks on each checker play).
The library analyses the same match with :func:`backgammon.analyse` at
``--ply`` (default: the library's default analysis level), with the bundled
nets or ``--nets FILE``, screened by the bundled pruning nets with ``--prune K``.

Printed: the Pearson correlation of the per-player error rates and their
means, the flagged checker plays of each program and how many are common
(the plays are matched in order, game by game), and the counted decisions.
gnubg runs in a subprocess per match (its module keeps state and may crash);
its results are cached under ``--cache`` (default
``~/.cache/backgammon/gnubg-analysis``, or under ``XDG_CACHE_HOME``),
keyed by the .mat text and the plies, so re-measuring the library is cheap.
"""

from __future__ import annotations

import argparse
import glob
import hashlib
import json
import math
import os
import random
import subprocess
import sys
import tempfile
import time
import warnings
from typing import Any

# The shared folder beside the checkout (``../shared`` from its root), or where
# BACKGAMMON_SHARED points
SHARED = os.environ.get("BACKGAMMON_SHARED") or os.path.join(
    os.path.dirname(os.path.dirname(os.path.abspath(__file__))), os.pardir, "shared")
GALAXY = os.path.join(SHARED, "realworld", "galaxy", "*.txt")
# gnubg's analyses take minutes a match: kept where a reboot does not clear them
CACHE = os.path.join(os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache"),
                     "backgammon", "gnubg-analysis")


# ---------------------------------------------------------------- the gnubg side

def worker(mat_path: str, out_path: str, ply: int) -> None:
    """Run in a subprocess: analyse ``mat_path`` with gnubg, write the figures as JSON."""
    import gnubg  # noqa: PLC0415 - measurement only

    saved = os.dup(1)
    log = tempfile.TemporaryFile(mode="w+")
    os.dup2(log.fileno(), 1)  # the C library prints on file descriptor 1
    try:
        gnubg.command("set threads 1")  # more threads hang in this build
        for part in ("chequerplay", "cubedecision"):
            gnubg.command(f"set analysis {part} evaluation plies {ply}")
        gnubg.command(f"import mat {mat_path}")
        gnubg.command("analyse match")
        sys.stdout.flush()
        log.seek(0, 2)
        start = log.tell()
        gnubg.command("show statistics match")
        sgf = mat_path + ".sgf"
        gnubg.command(f"save match {sgf}")
        sys.stdout.flush()
        os.fsync(log.fileno())
        log.seek(start)
        stats = log.read()
    finally:
        os.dup2(saved, 1)
    with open(sgf, encoding="utf-8") as f:
        sgf_text = f.read()
    out = {"error_rate": overall_error_rates(stats), "marks": sgf_marks(sgf_text),
           "stats": stats}
    with open(out_path, "w") as f:
        json.dump(out, f)


def overall_error_rates(stats: str) -> list[float]:
    """Both players' 'Error rate mEMG' of the 'Overall statistics' section."""
    section = stats.split("Overall statistics", 1)[1]
    for line in section.splitlines():
        if line.startswith("Error rate mEMG"):
            cells = line[len("Error rate mEMG (MWC)"):].split()
            numbers = [c for c in cells if not c.startswith("(") and not c.endswith(")")
                       and c not in ("(", ")")]
            return [abs(float(numbers[0])), abs(float(numbers[1]))]
    raise ValueError("no overall error rate in gnubg's statistics")


def section_totals(stats: str) -> dict[str, list[float]]:
    """Both players' 'Error total EMG' of the chequer play and cube sections."""
    out = {}
    for name, key in (("Chequerplay statistics", "plays"), ("Cube statistics", "cube")):
        section = stats.split(name, 1)[1]
        for line in section.splitlines():
            if line.startswith("Error total EMG"):
                cells = line[len("Error total EMG (MWC)"):].split()
                numbers = [c for c in cells if c[:1] in "+-" and not c.endswith("%)")
                           and not c.endswith("%")]
                out[key] = [abs(float(numbers[0])), abs(float(numbers[1]))]
                break
    for line in stats.splitlines():  # gnubg's denominator of the error rate
        for label, key in (("Unforced moves", "unforced"),
                           ("Close or actual cube decisions", "close_cube")):
            if line.startswith(label):
                out[key] = [float(v) for v in line[len(label):].split()[:2]]
    return out


def sgf_marks(text: str) -> list[list[list[Any]]]:
    """Per game, each checker play node as [player, mark]: mark 0 none, 1 doubtful,
    2 bad, 3 very bad (gnubg writes DO[], BM[1], BM[2])."""
    from backgammon.formats.sgf import parse_sgf

    games = []
    for tree in parse_sgf(text):
        plays: list[list[Any]] = []
        for node in tree.nodes[1:]:
            props = dict(node)
            for side, player in (("W", 0), ("B", 1)):
                value = props.get(side, [""])[0]
                if value[:1].isdigit():
                    mark = 0
                    if "DO" in props:
                        mark = 1
                    if "BM" in props:
                        mark = 1 + int(props["BM"][0] or 1)
                    plays.append([player, mark])
        games.append(plays)
    return games


def gnubg_figures(mat_text: str, ply: int, cache: str, timeout: float,
                  cached_only: bool = False) -> dict[str, Any] | None:
    key = hashlib.sha256(f"{ply}\n{mat_text}".encode()).hexdigest()[:24]
    path = os.path.join(cache, key + ".json")
    if os.path.exists(path):
        with open(path) as f:
            return json.load(f)
    if cached_only:
        return None
    with tempfile.TemporaryDirectory() as tmp:
        mat = os.path.join(tmp, "m.mat")
        with open(mat, "w", encoding="utf-8") as f:
            f.write(mat_text)
        out = os.path.join(tmp, "out.json")
        try:
            subprocess.run([sys.executable, __file__, "--worker", mat, out, str(ply)],
                           timeout=timeout, check=True, stdout=subprocess.DEVNULL,
                           stderr=subprocess.DEVNULL)
        except (subprocess.CalledProcessError, subprocess.TimeoutExpired) as e:
            print(f"  gnubg failed: {type(e).__name__}", file=sys.stderr)
            return None
        with open(out) as f:
            data = json.load(f)
    os.makedirs(cache, exist_ok=True)
    with open(path, "w") as f:
        json.dump(data, f)
    return data


# ---------------------------------------------------------------- the library side

def our_figures(match: Any, ply: int | None, evaluator: Any = None) -> dict[str, Any]:
    import backgammon as bg

    kw: dict[str, Any] = {} if ply is None else {"ply": ply}
    a = bg.analyse(match, evaluator=evaluator, **kw)
    marks: list[list[list[Any]]] = []
    levels = {None: 0, "doubtful": 1, "bad": 2, "very bad": 3}
    for number, game in enumerate(match.games):
        by_action = {d.action: d for d in a.decisions if d.game == number and d.kind == "play"}
        plays = []
        for index, action in enumerate(game.actions):
            if action.kind == "play":
                d = by_action.get(index)
                plays.append([action.player, levels[d.skill] if d else 0])
        marks.append(plays)
    totals = {"plays": [a.stats(p).loss_plays for p in (0, 1)],
              "cube": [a.stats(p).loss_cube for p in (0, 1)]}
    return {"error_rate": [a.error_rate(0), a.error_rate(1)], "marks": marks, "totals": totals,
            "counted": [a.stats(p).counted for p in (0, 1)], "ply": a.ply,
            "unforced": [a.stats(p).unforced_plays for p in (0, 1)]}


# ---------------------------------------------------------------- comparison

def pearson(xs: list[float], ys: list[float]) -> float:
    n = len(xs)
    mx, my = sum(xs) / n, sum(ys) / n
    sxy = sum((x - mx) * (y - my) for x, y in zip(xs, ys))
    sxx = sum((x - mx) ** 2 for x in xs)
    syy = sum((y - my) ** 2 for y in ys)
    return sxy / math.sqrt(sxx * syy) if sxx and syy else float("nan")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--files", default=GALAXY)
    parser.add_argument("--sample", type=int, default=0, help="a random sample of N files")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--ply", type=int, default=None,
                        help="the library's ply (default: analyse's default)")
    parser.add_argument("--gnubg-ply", type=int, default=2)
    parser.add_argument("--cache", default=CACHE,
                        help=f"gnubg's analyses, kept between runs (default {CACHE})")
    parser.add_argument("--timeout", type=float, default=900.0, help="seconds per gnubg match")
    parser.add_argument("--gnubg-only", action="store_true", help="only fill gnubg's cache")
    parser.add_argument("--cached-only", action="store_true",
                        help="compare only the matches gnubg's cache holds")
    parser.add_argument("--nets", help="the library analyses with these nets (default: bundled)")
    parser.add_argument("--prune", type=int, default=0, metavar="K",
                        help="... screened by the bundled pruning nets, keeping K (default: no)")
    parser.add_argument("--json", help="write the per-match figures here")
    args = parser.parse_args()

    import backgammon as bg

    evaluator = bg.Evaluator.load(args.nets) if args.nets else bg.Evaluator.default()
    if args.prune:
        evaluator = evaluator.with_pruning(keep=args.prune)

    files = sorted(glob.glob(args.files))
    if args.sample and args.sample < len(files):
        files = sorted(random.Random(args.seed).sample(files, args.sample))
    rows, refused, failed = [], 0, 0
    t_ours = t_gnubg = 0.0
    for path in files:
        with open(path, encoding="utf-8-sig") as f:
            text = f.read()
        try:
            match = bg.Match.from_mat(text)
        except bg.BackgammonError as e:
            refused += 1
            print(f"{os.path.basename(path)}: refused: {str(e)[:100]}", file=sys.stderr)
            continue
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            mat = match.to_mat()
        t = time.perf_counter()
        theirs = gnubg_figures(mat, args.gnubg_ply, args.cache, args.timeout, args.cached_only)
        t_gnubg += time.perf_counter() - t
        if theirs is None:
            failed += not args.cached_only
            continue
        if args.gnubg_only:
            continue
        t = time.perf_counter()
        ours = our_figures(match, args.ply, evaluator)
        t_ours += time.perf_counter() - t
        rows.append({"file": os.path.basename(path), "ours": ours,
                     "gnubg": {"error_rate": theirs["error_rate"], "marks": theirs["marks"],
                               "totals": section_totals(theirs["stats"])}})
        print(f"{os.path.basename(path)}: error rates ours {ours['error_rate'][0]:.1f} "
              f"{ours['error_rate'][1]:.1f}, gnubg {theirs['error_rate'][0]:.1f} "
              f"{theirs['error_rate'][1]:.1f}", file=sys.stderr, flush=True)
    print(f"{len(files)} files: {refused} refused by the reader, {failed} failed in gnubg, "
          f"{len(rows)} compared")
    if not rows:
        return 0
    xs = [r["ours"]["error_rate"][p] for r in rows for p in (0, 1)]
    ys = [r["gnubg"]["error_rate"][p] for r in rows for p in (0, 1)]
    flagged_ours = flagged_gnubg = common = plays = unmatched = 0
    for r in rows:
        for g_ours, g_theirs in zip(r["ours"]["marks"], r["gnubg"]["marks"]):
            if len(g_ours) != len(g_theirs) or any(a[0] != b[0] for a, b in zip(g_ours, g_theirs)):
                unmatched += 1
                continue
            for (_, mo), (_, mt) in zip(g_ours, g_theirs):
                plays += 1
                flagged_ours += mo > 0
                flagged_gnubg += mt > 0
                common += mo > 0 and mt > 0
    ply = rows[0]["ours"]["ply"]
    n_ours = [r["ours"]["counted"][p] for r in rows for p in (0, 1)]
    n_gnubg = [r["gnubg"]["totals"]["unforced"][p] + r["gnubg"]["totals"]["close_cube"][p]
               for r in rows for p in (0, 1)]
    print(f"  counted decisions: ours {sum(n_ours)}, gnubg {sum(n_gnubg):.0f} (unforced plays "
          f"{sum(r['gnubg']['totals']['unforced'][p] for r in rows for p in (0, 1)):.0f} + close "
          f"or actual cube {sum(r['gnubg']['totals']['close_cube'][p] for r in rows for p in (0, 1)):.0f}); "
          f"players with the same count {sum(a == b for a, b in zip(n_ours, n_gnubg))}")
    for part in ("plays", "cube"):
        xs_t = [r["ours"]["totals"][part][p] for r in rows for p in (0, 1)]
        ys_t = [r["gnubg"]["totals"][part][p] for r in rows for p in (0, 1)]
        print(f"  total loss of the {part} (EMG): r = {pearson(xs_t, ys_t):.3f}; sum ours "
              f"{sum(xs_t):.2f}, gnubg {sum(ys_t):.2f}")
    print(f"library ply {ply} vs gnubg {args.gnubg_ply}-ply, {len(xs)} players")
    print(f"  error rate (mEMG): r = {pearson(xs, ys):.3f}; mean ours {sum(xs) / len(xs):.1f}, "
          f"gnubg {sum(ys) / len(ys):.1f}")
    print(f"  flagged checker plays (of {plays} matched plays; {unmatched} games not matched): "
          f"ours {flagged_ours}, gnubg {flagged_gnubg}, common {common}")
    print(f"  time: ours {t_ours:.0f} s, gnubg {t_gnubg:.0f} s (cached runs count ~0)")
    if args.json:
        with open(args.json, "w") as f:
            json.dump(rows, f)
    return 0


if __name__ == "__main__":
    if len(sys.argv) == 5 and sys.argv[1] == "--worker":
        worker(sys.argv[2], sys.argv[3], int(sys.argv[4]))
        sys.exit(0)
    sys.exit(main())
