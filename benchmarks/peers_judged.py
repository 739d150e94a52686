"""Judged play: the equity engines' checker plays lose on real decisions, judged by gnubg 2-ply.

    python benchmarks/peers_judged.py [--decisions 1500] [--matches 50] [--seed 2026]
        [--nets FILE ...] [--prune K] [--focus CLASS N ...] [--cache DIR] [--json OUT]

The decisions: the unforced checker plays (more than one distinct legal
result) of ``--matches`` real matches drawn with ``--seed`` from the
Backgammon Galaxy exports (``--galaxy``, read in place with
``Match.from_mat``, never copied), pooled, and a seeded sample of
``--decisions`` of them.

The judge: the ``gnubg`` PyPI module (1.1.0a16; measurement only, never a
dependency of the package), in subprocesses, ``set threads 1``.  Every legal
result of every decision gets gnubg's 2-ply cubeless money equity for the
player who moved: ``gnubg.evaluate`` of the result seen by the opponent, now
on roll, at ``plies=2`` (pruning nets on, noiseless: gnubg's defaults for
``eval``/``hint``; the cube centred, cubeless, as our nets play), negated.
That is gnubg's own convention: the 2-ply score ``gnubg.findbestmoves`` gives a
move is exactly this number (``--check-plies`` shows it on a few decisions).
Match scores are not passed: every decision is judged as money play, so the
humans, who played to a match score and with a cube, are judged a little
harshly.  A choice's loss is the best result's equity minus the choice's, x
1000 (millipoints); a result that ends the game is worth its points exactly.
The judgements are cached in ``--cache`` (outside the project), keyed by
position and dice, so judging a new net needs no gnubg at all.

The contestants: the bundled nets (or ``--nets FILE``) at 0-ply, 1-ply and
2-ply (``best_play(..., filtered=True)``, the move filters, and unfiltered),
and the filtered 2-ply with the bundled screen keeping K (``--prune K``, ``Evaluator.with_pruning``;
0 without the screen; the bundled nets themselves come screened, keeping 6);
gnubg-nn's 0-ply and 2-ply ``best_move``; gnubg's own 0-ply and 2-ply best move
(``gnubg.findbestmove``, its default move filters, pruning); the humans of
the matches.  For each: the mean loss a decision with its standard error,
the share of decisions where the choice is the judged best, and CPU seconds a
decision.  gnubg's 2-ply best move is timed again in every run (a subprocess,
CPU time), so the speed ratio against our filtered 2-ply is of the same run.

Each contestant's loss is also split by the class of the position before the
move (``targets.net_class``: contact, crashed, race; the net that answers it).
Crashed and race positions are few in a sample (about 5 % and 14 %), so
``--focus crashed 400`` also judges 400 decisions of that class drawn (seeded)
from the matches the main sample leaves out, and scores every contestant on them.
"""

from __future__ import annotations

import argparse
import glob
import importlib.util
import json
import math
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
import warnings
from pathlib import Path
from typing import Any, Iterator

# The shared folder beside the checkout (``../shared`` from its root), or where
# BACKGAMMON_SHARED points
SHARED = os.environ.get("BACKGAMMON_SHARED") or os.path.join(
    os.path.dirname(os.path.dirname(os.path.abspath(__file__))), os.pardir, "shared")
GALAXY = os.path.join(SHARED, "realworld", "galaxy")
# outside the project, and kept between runs and reboots (a /tmp folder was not)
CACHE = os.path.join(os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache"),
                     "backgammon", "gnubg-judged")
JUDGE = "gnubg-2ply-prune-cubeless-money-v2"  # the cache file's name: change it with the judge
CHUNK = 40  # decisions a gnubg subprocess judges (a crash loses at most one chunk)


# ------------------------------------------------------------------ the gnubg side

def worker(mode: str, tasks_path: str, out_path: str) -> None:
    """In a subprocess: judge (mode ``judge``), time (``time``) or rank (``rank``) the
    decisions of ``tasks_path`` with gnubg, a JSON line each appended to ``out_path``."""
    import gnubg  # noqa: PLC0415 - measurement only

    with open(tasks_path) as f:
        tasks = json.load(f)
    os.dup2(os.open(os.devnull, os.O_WRONLY), 1)  # its C code prints on descriptor 1
    gnubg.command("set threads 1")  # more threads hang in this build
    ci = gnubg.cubeinfo(1, -1, 0, 0, (0, 0), 0, 0)  # money, cube centred
    ec0 = gnubg.evalcontext(0, 0, 1, 1, 0.0)        # cubeless, plies, deterministic, prune
    ec1 = gnubg.evalcontext(0, 1, 1, 1, 0.0)
    ec2 = gnubg.evalcontext(0, 2, 1, 1, 0.0)
    with open(out_path, "a") as out:
        for t in tasks:
            board, dice = t["board"], tuple(t["dice"])
            start = time.process_time()
            gnubg.findbestmove(board, ci, ec2, dice)  # timed only: its default hint filters
            seconds = time.process_time() - start
            row: dict[str, Any] = {"key": t["key"], "gnubg2_seconds": seconds}
            if mode == "rank":  # every move through the filters to 2-ply
                every = [dict(f, acceptmoves=1000) for f in gnubg.getevalhintfilter()]
                row["ranked"] = gnubg.findbestmoves(board, ci, ec2, dice, every)
            if mode == "judge":  # the picks' scores tell cut tuples apart (gnubg_result)
                for name, ec in (("gnubg2", ec2), ("gnubg0", ec0)):
                    best = gnubg.findbestmoves(board, ci, ec, dice)[0]
                    row[name], row[name + "_score"] = list(best["move"]), best["score"]
                row["equity"] = {pid: -equity(gnubg.evaluate(b, ci, ec2))
                                 for pid, b in t["results"].items()}
                for name, ec in (("equity0", ec0), ("equity1", ec1)):  # for cut tuples
                    row[name] = {pid: -equity(gnubg.evaluate(b, ci, ec))
                                 for pid, b in t["results"].items()}
            out.write(json.dumps(row) + "\n")
            out.flush()


def equity(probs: Any) -> float:
    """Cubeless money equity of gnubg's (win, wg, wbg, lg, lbg, ...) for the side on roll."""
    w, wg, wb, lg, lb = probs[:5]
    return 2 * w - 1 + wg - lg + wb - lb


def run_workers(mode: str, tasks: list[dict[str, Any]], out_path: str, timeout: float) -> None:
    """Feed ``tasks`` to gnubg subprocesses, CHUNK at a time; rows go to ``out_path``."""
    with tempfile.TemporaryDirectory() as tmp:
        for i in range(0, len(tasks), CHUNK):
            path = os.path.join(tmp, "tasks.json")
            with open(path, "w") as f:
                json.dump(tasks[i:i + CHUNK], f)
            try:
                subprocess.run([sys.executable, __file__, "--worker", mode, path, out_path],
                               timeout=timeout, check=True, stdout=subprocess.DEVNULL)
            except (subprocess.CalledProcessError, subprocess.TimeoutExpired) as e:
                print(f"  gnubg {mode} chunk {i // CHUNK} failed: {type(e).__name__}",
                      file=sys.stderr)
            print(f"  gnubg {mode}: {min(i + CHUNK, len(tasks))}/{len(tasks)} decisions",
                  file=sys.stderr, flush=True)


def read_rows(path: str) -> dict[str, dict[str, Any]]:
    rows = {}
    if os.path.exists(path):
        with open(path) as f:
            for line in f:
                try:
                    row = json.loads(line)
                except json.JSONDecodeError:  # a line cut short by a crash
                    continue
                rows[row["key"]] = row
    return rows


# ------------------------------------------------------------------ the decisions

def sample_decisions(bg: Any, folder: str, matches: int, n: int, seed: int) -> dict[str, Any]:
    """A seeded sample of ``n`` unforced checker plays of ``matches`` real matches:
    each a dict with the position (seen by the mover), the dice and the human's result."""
    rng = random.Random(seed)
    files = sorted(glob.glob(os.path.join(folder, "*.txt")))
    if not files:
        sys.exit(f"peers_judged: no .txt match files in {folder}")
    pool, used = [], []
    for path in rng.sample(files, len(files)):
        if len(used) == matches:
            break
        found = file_decisions(bg, path)
        if found is None:
            continue  # a file the reader refuses: the next one
        used.append(os.path.basename(path))
        pool.extend(found)
    picked = sorted(rng.sample(range(len(pool)), min(n, len(pool))))
    return {"matches": used, "pool": len(pool), "decisions": [pool[i] for i in picked]}


def file_decisions(bg: Any, path: str) -> list[dict[str, Any]] | None:
    """Every unforced checker play of the match file ``path`` (None: the reader refuses it)."""
    with open(path, encoding="utf-8-sig", errors="replace") as f:
        text = f.read()
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            match = bg.Match.from_mat(text)
        return list(match_decisions(match, os.path.basename(path)))
    except bg.BackgammonError:
        return None


def match_decisions(match: Any, name: str) -> Iterator[dict[str, Any]]:
    """Every unforced checker play of ``match``, replayed from its record."""
    for number, game in enumerate(match.games):
        g = game.restart()
        for index, action in enumerate(game.actions):
            if action.kind == "play" and g.dice is not None:
                pos, dice = g.position, g.dice
                plays = pos.legal_plays(dice)
                if len(plays) > 1:
                    human = pos.play(list(action.value), dice)
                    yield {"match": name, "game": number, "action": index, "position": pos,
                           "dice": dice, "human": human, "plays": plays}
            g.apply(action)


def key(d: dict[str, Any]) -> str:
    hi, lo = sorted(d["dice"], reverse=True)
    return f"{d['position'].position_id()}:{hi}{lo}"


def task(d: dict[str, Any]) -> dict[str, Any]:
    """What gnubg needs to judge a decision: every live result, seen by the opponent."""
    results = {}
    for play in d["plays"]:
        if play.result.outcome() is None:
            results[play.result.position_id()] = play.result.swapped().to_gnubg_board()
    return {"key": key(d), "board": d["position"].to_gnubg_board(), "dice": list(d["dice"]),
            "results": results}


def result_equity(row: dict[str, Any], result: Any, field: str = "equity") -> float:
    """gnubg's 2-ply (``equity0``: 0-ply) equity of a result for the mover
    (exact where the game is over)."""
    done = result.outcome()
    if done is not None:
        return float(done.points if done.winner == 0 else -done.points)
    return row[field][result.position_id()]


def gnubg_result(d: dict[str, Any], move: list[int], score: float, row: dict[str, Any]) -> Any:
    """The result of a gnubg move: (from, to, from, to, ...), 25 the bar.  The module
    stops its tuple at the first checker borne off (its 'to' would be 0): (6,) may be
    6/off 5/off.  The steps after the cut are found among the legal results reachable
    with the dice left; where several are, the one whose gnubg equity at 0, 1 or 2 plies
    (the ply its filters stopped at) is ``score`` (``d["ambiguous"]`` counts those)."""
    steps = [(move[i], move[i + 1]) for i in range(0, len(move) - 1, 2)]
    if len(move) % 2 == 0:
        return d["position"].play(steps, d["dice"]) if steps else d["position"]
    steps.append((move[-1], 0))
    board = d["position"].tolist()
    for src, dst in steps:
        board = one_step(board, src, dst)
    d1, d2 = d["dice"]
    if d1 == d2:
        options = [[d1] * (4 - len(steps))]
    elif len(steps) == 1:
        options = [[d2], [d1]]  # which die bore the checker off is not known
    else:
        options = [[]]
    reached = set()
    for dice in options:
        boards = [board]
        for die in dice:
            boards = boards + [b for a in boards for b in die_steps(a, die)]
        reached.update(tuple(b) for b in boards)
    legal = [p.result for p in d["plays"] if tuple(p.result.tolist()) in reached]
    if len(legal) == 1:
        return legal[0]
    if not legal:
        raise RuntimeError(f"gnubg's move {move} is no legal play of {key(d)}")
    d["ambiguous"] = d.get("ambiguous", 0) + 1

    def distance(r: Any) -> float:
        return min(abs(result_equity(row, r, k) - score)
                   for k in ("equity", "equity1", "equity0"))
    pick = min(legal, key=distance)
    if distance(pick) > 1e-4:  # counted and shown: should not happen
        d["unresolved"] = d.get("unresolved", 0) + 1
        print(f"  gnubg's move {move} of {key(d)}: no legal result has its score {score}",
              file=sys.stderr)
    return pick


def one_step(a: list[int], src: int, dst: int) -> list[int]:
    """Board ``a`` (ours: the mover positive, its bar at 25) after checker ``src`` -> ``dst``."""
    b = list(a)
    b[src] -= 1
    if dst:
        if b[dst] == -1:  # a hit: the opponent's checker to its bar
            b[dst] = 0
            b[0] -= 1
        b[dst] += 1
    return b


def die_steps(a: list[int], die: int) -> list[list[int]]:
    """The boards one checker's move of ``die`` reaches (the entering rule and
    bearing off by RULES 4; which dice must be used is left to the legal results)."""
    points = [i for i in range(1, 25) if a[i] > 0]
    sources = [25] if a[25] > 0 else points
    home = a[25] == 0 and all(a[i] <= 0 for i in range(7, 25))
    out = []
    for src in sources:
        dst = src - die
        if dst >= 1 and a[dst] >= -1:
            out.append(one_step(a, src, dst))
        elif dst <= 0 and home and (dst == 0 or src == max(points)):
            out.append(one_step(a, src, 0))
    return out


# ------------------------------------------------------------------ the contestants

def contestants(bg: Any, nets: list[str], unfiltered: bool = True,
                prune: int | None = None) -> tuple[list[str], list[tuple[str, Any]]]:
    """The names of the nets, and (label, function from a decision to its chosen result)."""
    out, names = [], []
    for path in [None, *nets]:
        try:
            ev = bg.Evaluator.default() if path is None else bg.Evaluator.load(path)
        except (OSError, bg.BackgammonError) as e:
            sys.exit(f"peers_judged: cannot load the nets {path}: {e}")
        name = "net" if path is None else Path(path).name
        name = name if name not in names else str(path)  # two files of the same name
        names.append(name)
        levels = [("0-ply", 0, False), ("1-ply", 1, False), ("2-ply filtered", 2, True)]
        if unfiltered:
            levels.append(("2-ply", 2, False))
        for label, ply, filtered in levels:
            out.append((f"{name} {label}",
                        lambda d, ev=ev, ply=ply, f=filtered:
                        d["position"].best_play(d["dice"], ply, ev, filtered=f).result))
        if prune is not None:   # the same filtered 2-ply with another screen (0: none)
            out.append((f"{name} 2-ply filtered+prune{prune}",
                        lambda d, ev=ev.with_pruning(keep=prune):
                        d["position"].best_play(d["dice"], 2, ev, filtered=True).result))
    try:
        import gnubg_nn  # noqa: PLC0415 - measurement only
    except ImportError:
        print("  gnubg-nn skipped: cannot import gnubg_nn (pip install gnubg-nn)")
    else:
        for ply in (0, 2):
            def gnubg_nn_pick(d: dict[str, Any], ply: int = ply) -> Any:
                moves = gnubg_nn.best_move(d["position"].to_gnubg_board(), *d["dice"], ply)
                return d["position"].play(list(moves), d["dice"]) if moves else d["position"]
            out.append((f"gnubg-nn {ply}-ply", gnubg_nn_pick))
    return names, out


def score(losses: list[float], seconds: float | None) -> dict[str, Any]:
    n = len(losses)
    mean = statistics.fmean(losses)
    se = statistics.stdev(losses) / math.sqrt(n) if n > 1 else float("nan")
    return {"mp": 1000 * mean, "se_mp": 1000 * se,
            "best_share": sum(x <= 1e-9 for x in losses) / n,
            "seconds": None if seconds is None else seconds / n}


def judge(bg: Any, args: argparse.Namespace) -> dict[str, Any]:
    from backgammon.training.targets import net_class  # noqa: PLC0415 - after main's checks
    # a bad nets file fails before gnubg's long work
    names, players = contestants(bg, args.nets, args.unfiltered, args.prune)
    sample = sample_decisions(bg, args.galaxy, args.matches, args.decisions, args.seed)
    decisions = sample["decisions"]
    print(f"{len(decisions)} unforced decisions sampled (seed {args.seed}) of {sample['pool']} "
          f"in {len(sample['matches'])} matches", flush=True)
    os.makedirs(args.cache, exist_ok=True)
    path = os.path.join(args.cache, JUDGE + ".jsonl")
    judged, rows = judged_decisions(decisions, path, args.timeout)
    table = play_all(players, judged, rows, args.gnubg_timing, args.timeout)
    out = {"decisions": len(judged), "pool": sample["pool"], "matches": sample["matches"],
           "seed": args.seed, "judge": JUDGE, "cache": path, "nets": names, "table": table,
           "classes": [net_class(d["position"]._b) for d in judged],
           "kinds": [decision_kinds(d["position"]) for d in judged],
           "ambiguous_gnubg_moves": sum(d.get("ambiguous", 0) for d in judged),
           "unresolved_gnubg_moves": sum(d.get("unresolved", 0) for d in judged)}
    out["focus"] = {}
    for cls, n in args.focus:
        chosen = focus_decisions(bg, args.galaxy, set(sample["matches"]), cls, n, args.seed)
        if not chosen:
            print(f"focus: no {cls} decisions outside the main sample's {len(sample['matches'])} "
                  f"matches (fewer --matches leaves some)", flush=True)
            continue
        print(f"focus: {len(chosen)} {cls} decisions of the other matches (seed {args.seed})",
              flush=True)
        judged, rows = judged_decisions(chosen, path, args.timeout)
        out["focus"][cls] = {"decisions": len(judged),
                             "table": play_all(players, judged, rows, False, args.timeout),
                             "kinds": [decision_kinds(d["position"]) for d in judged]}
    return out


def judged_decisions(decisions: list[dict[str, Any]], path: str,
                     timeout: float) -> tuple[list[dict[str, Any]], dict[str, Any]]:
    """The decisions gnubg has judged (judging those not yet in the cache ``path``),
    each with the judge's equity of every result, and the cache's rows."""
    rows = read_rows(path)
    todo = [task(d) for d in decisions if key(d) not in rows]
    if todo:
        print(f"gnubg judges {len(todo)} decisions not in {path} ...", flush=True)
        run_workers("judge", todo, path, timeout)
        rows = read_rows(path)
    judged = [d for d in decisions if key(d) in rows]
    if not judged:
        sys.exit("peers_judged: gnubg judged none of the decisions (its errors are above)")
    if len(judged) < len(decisions):
        print(f"  {len(decisions) - len(judged)} decisions gnubg failed to judge are left out")
    for d in judged:
        row = rows[key(d)]
        d["equity"] = {p.result.position_id(): result_equity(row, p.result) for p in d["plays"]}
        d["best"] = max(d["equity"].values())
    return judged, rows


def play_all(players: list[tuple[str, Any]], judged: list[dict[str, Any]], rows: dict[str, Any],
             gnubg_timing: bool, timeout: float) -> dict[str, dict[str, Any]]:
    """Every contestant's losses on the judged decisions, with gnubg's picks and the humans'."""
    def loss(d: dict[str, Any], result: Any) -> float:
        return d["best"] - d["equity"][result.position_id()]

    table: dict[str, dict[str, Any]] = {}
    for label, choose in players:
        start = time.process_time()
        picks = [choose(d) for d in judged]
        seconds = time.process_time() - start
        table[label] = score([loss(d, r) for d, r in zip(judged, picks)], seconds)
        table[label]["losses"] = [loss(d, r) for d, r in zip(judged, picks)]
        print(f"  {label}: {table[label]['mp']:.2f} mp", file=sys.stderr, flush=True)
    if gnubg_timing:
        timed_path = os.path.join(tempfile.mkdtemp(), "timed.jsonl")
        run_workers("time", [{"key": key(d), "board": d["position"].to_gnubg_board(),
                              "dice": list(d["dice"])} for d in judged], timed_path, timeout)
        timed = read_rows(timed_path)
        gnubg2_seconds = sum(r["gnubg2_seconds"] for r in timed.values())
        gnubg2_seconds *= len(judged) / max(len(timed), 1)
    else:  # the times of the run that judged them
        gnubg2_seconds = sum(rows[key(d)]["gnubg2_seconds"] for d in judged)
    for label, field, seconds in (("gnubg 0-ply", "gnubg0", None),
                                  ("gnubg 2-ply", "gnubg2", gnubg2_seconds)):
        losses = [loss(d, gnubg_result(d, rows[key(d)][field], rows[key(d)][field + "_score"],
                                       rows[key(d)])) for d in judged]
        table[label] = score(losses, seconds)
        table[label]["losses"] = losses
    table["humans"] = score([loss(d, d["human"]) for d in judged], None)
    table["humans"]["losses"] = [loss(d, d["human"]) for d in judged]
    return table


def focus_decisions(bg: Any, folder: str, exclude: set[str], cls: str, n: int,
                    seed: int) -> list[dict[str, Any]]:
    """A seeded sample of ``n`` unforced checker plays from positions of class ``cls``
    (``net_class``, ``backgame``: ``targets.is_backgame``, or ``blitz``:
    ``targets.is_blitz``) of every readable match in
    ``folder`` except ``exclude`` (the main sample's matches): a finer look at a class
    the main sample holds few of."""
    from backgammon.training.targets import is_backgame, is_blitz, net_class  # noqa: PLC0415

    def of_class(b: bytes) -> bool:
        special = {"backgame": is_backgame, "blitz": is_blitz}.get(cls)
        return special(b) if special else net_class(b) == cls
    pool = []
    for path in sorted(glob.glob(os.path.join(folder, "*.txt"))):
        if os.path.basename(path) not in exclude:
            pool.extend(d for d in file_decisions(bg, path) or ()
                        if of_class(d["position"]._b))
    rng = random.Random(f"{seed}:{cls}")
    return rng.sample(pool, min(n, len(pool)))


def paired(table: dict[str, Any], a: str, b: str) -> tuple[float, float]:
    """Mean and standard error (mp) of ``a``'s loss minus ``b``'s, decision by decision."""
    diff = [x - y for x, y in zip(table[a]["losses"], table[b]["losses"])]
    se = statistics.stdev(diff) / math.sqrt(len(diff)) if len(diff) > 1 else float("nan")
    return 1000 * statistics.fmean(diff), 1000 * se


def report(out: dict[str, Any]) -> None:
    t = out["table"]
    print(f"\nJudged by gnubg 2-ply (cubeless money), {out['decisions']} unforced decisions of "
          f"{len(out['matches'])} real matches (seed {out['seed']}):")
    print(f"  {'contestant':<28} {'loss mp/decision':>17} {'judged best':>12} "
          f"{'CPU s/decision':>15}")
    for label, r in t.items():
        secs = "" if r["seconds"] is None else f"{r['seconds']:.4f}"
        print(f"  {label:<28} {r['mp']:>9.2f} +- {r['se_mp']:<4.2f} {r['best_share']:>12.1%} "
              f"{secs:>15}")
    by_class(out)
    zero = [x for x in t if x.endswith(" 0-ply")]   # the nets' and the peers' 0-ply
    print("  by kind of decision (mp a decision, 0-ply):")
    by_kind(t, out["kinds"], zero)
    for cls, f in out.get("focus", {}).items():
        print(f"\n  focus: {f['decisions']} {cls} decisions of the other matches")
        for label, r in f["table"].items():
            print(f"    {label:<26} {r['mp']:>9.2f} +- {r['se_mp']:<4.2f} {r['best_share']:>12.1%}")
        by_kind(f["table"], f["kinds"], zero)
    if out["ambiguous_gnubg_moves"]:
        print(f"  ({out['ambiguous_gnubg_moves']} of gnubg's moves, cut short by its module at "
              f"a bear-off, told apart by their scores; {out['unresolved_gnubg_moves']} "
              f"not within 1e-4)")
    for name in out["nets"]:
        pairs = [f"{depth} {m:+.2f} (se {e:.2f})" for depth in ("0-ply", "1-ply", "2-ply filtered")
                 if name != "net" and f"{name} {depth}" in t and f"net {depth}" in t
                 for m, e in [paired(t, f"{name} {depth}", f"net {depth}")]]
        if pairs:
            print(f"  {name} minus the bundled nets, mp a decision (paired): {', '.join(pairs)}")
        filt, plain = f"{name} 2-ply filtered", f"{name} 2-ply"
        if plain not in t:
            continue
        mean, se = paired(t, filt, plain)
        peers = [f"{peer}'s {t[peer]['seconds'] / t[filt]['seconds']:.1f}x"
                 for peer in ("gnubg 2-ply", "gnubg-nn 2-ply") if peer in t]
        print(f"  {name}: 2-ply filtered minus unfiltered {mean:+.2f} mp (se {se:.2f}, paired); "
              f"CPU time of a best move against the filtered 2-ply: {', '.join(peers)}")


KINDS = ("mover on the bar", "opponent on the bar", "mover trails by 20+ pips",
         "mover leads by 20+ pips", "mover holds a point in the opponent's home",
         "mover has no back checkers", "back game", "blitz")
"""Kinds of decision (of the position before the move, the mover's view) that
``by_kind`` splits the losses by: where one engine's play is weaker than
another's, which a split by net class hides."""


def decision_kinds(position: Any) -> list[str]:
    """The :data:`KINDS` the position before a move (mover on roll) is of."""
    from backgammon.training.targets import is_backgame, is_blitz  # noqa: PLC0415

    board = position._b
    a = position.to_array()
    own, opp = position.pip_counts()
    held = sum(1 for p in range(19, 25) if a[p] >= 2)
    back = sum(a[p] for p in range(19, 26) if a[p] > 0)
    tests = (a[25] > 0, a[0] < 0, own - opp >= 20, opp - own >= 20, held > 0, back == 0,
             is_backgame(board), is_blitz(board))
    return [k for k, t in zip(KINDS, tests) if t]


def by_kind(table: dict[str, Any], kinds: list[list[str]], labels: list[str]) -> None:
    """Contestants' mean loss (mp) in each kind of decision: n, then one column
    per contestant of ``labels`` (those present)."""
    labels = [x for x in labels if x in table]
    print(f"    {'kind of decision':<44} {'n':>5} " + " ".join(f"{x[:16]:>16}" for x in labels))
    for kind in KINDS:
        rows = [i for i, ks in enumerate(kinds) if kind in ks]
        if not rows:
            continue
        cells = [1000 * statistics.fmean(table[x]["losses"][i] for i in rows) for x in labels]
        print(f"    {kind:<44} {len(rows):>5} " + " ".join(f"{c:>16.2f}" for c in cells))


def by_class(out: dict[str, Any]) -> None:
    """Each contestant's mean loss (mp) in each class of position before the move
    (``targets.net_class``: the net that answers it): where a net's loss comes from."""
    classes = out["classes"]
    names = [c for c in ("contact", "crashed", "race") if c in classes]
    counts = {c: classes.count(c) for c in names}
    print("  by class (mp a decision): " + ", ".join(f"{c} {counts[c]}" for c in names))
    for label, r in out["table"].items():
        cells = []
        for c in names:
            losses = [x for x, k in zip(r["losses"], classes) if k == c]
            cells.append(f"{c} {1000 * statistics.fmean(losses):6.2f}")
        print(f"    {label:<26} " + "   ".join(cells))


# ------------------------------------------------------------------ checks and main

def check_plies(decisions: list[dict[str, Any]]) -> None:
    """Print gnubg's own ranking of a few decisions (``findbestmoves`` at 2-ply, its
    filters opened so that every move reaches 2-ply) beside the judge's equities of
    the same results: the ply convention.  (With its default hint filters a move
    left alone by the 0-ply screen keeps its 0-ply score, one left alone at 1-ply
    its 1-ply score.)"""
    tasks = [task(d) for d in decisions[:6]]
    tmp = tempfile.mkdtemp()
    ranked, judged = os.path.join(tmp, "ranked.jsonl"), os.path.join(tmp, "judged.jsonl")
    run_workers("rank", tasks, ranked, 600)
    run_workers("judge", tasks, judged, 600)
    rows, ranks = read_rows(judged), read_rows(ranked)
    for d in decisions[:6]:
        moves = ranks[key(d)]["ranked"]
        row = rows[key(d)]
        diffs = [abs(m["score"] - result_equity(row, gnubg_result(d, list(m["move"]),
                                                                  m["score"], row)))
                 for m in moves]
        top = ", ".join(f"{tuple(m['move'])} {m['score']:+.4f}" for m in moves[:3])
        print(f"  {key(d)}: {len(moves)} moves (ours {len(d['plays'])}), largest difference "
              f"{max(diffs):.1e}; gnubg's best: {top}")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    # 1,500 of 50 matches since 2026-12-03 (600 of 20 before: se 0.7 mp at 0-ply, too
    # coarse to gate a generation)
    ap.add_argument("--decisions", type=int, default=1500, metavar="N",
                    help="decisions sampled (default 1500)")
    ap.add_argument("--matches", type=int, default=50, metavar="M",
                    help="matches they are drawn from (default 50)")
    ap.add_argument("--seed", type=int, default=2026)
    ap.add_argument("--nets", action="append", default=[], metavar="FILE",
                    help="a nets file judged beside the bundled nets (repeatable)")
    ap.add_argument("--galaxy", default=GALAXY, help=f"folder of .mat files (default {GALAXY})")
    ap.add_argument("--cache", default=CACHE, help=f"gnubg's judgements (default {CACHE})")
    ap.add_argument("--timeout", type=float, default=1800.0,
                    help="seconds a gnubg subprocess may take for a chunk of decisions")
    ap.add_argument("--no-gnubg-timing", dest="gnubg_timing", action="store_false",
                    help="use the cached times of gnubg's 2-ply best move instead of timing "
                         "it again in this run")
    ap.add_argument("--check-plies", action="store_true",
                    help="show gnubg's 2-ply ranking of a few decisions beside the judge's numbers")
    ap.add_argument("--no-unfiltered", dest="unfiltered", action="store_false",
                    help="leave out the nets' unfiltered 2-ply (the slowest contestant)")
    ap.add_argument("--prune", type=int, default=None, metavar="K",
                    help="also the filtered 2-ply with the bundled screen keeping K plays "
                         "(Evaluator.with_pruning; 0: unscreened; the bundled nets come "
                         "screened keeping 6, a nets file unscreened)")
    ap.add_argument("--focus", nargs=2, action="append", default=[], metavar=("CLASS", "N"),
                    help="also judge N decisions of positions of CLASS (contact, crashed, "
                         "race or backgame) from the matches the main sample leaves out "
                         "(repeatable)")
    ap.add_argument("--json", type=Path, metavar="OUT")
    args = ap.parse_args(argv)
    try:
        args.focus = [(c, int(n)) for c, n in args.focus]
    except ValueError:
        ap.error("--focus takes a class and a number")
    if any(c not in ("contact", "crashed", "race", "backgame", "blitz") or n < 1
           for c, n in args.focus):
        ap.error("--focus: the class is contact, crashed, race, backgame or blitz, N positive")
    if args.decisions < 1 or args.matches < 1:
        ap.error("--decisions and --matches must be positive")
    if importlib.util.find_spec("gnubg") is None:
        print("peers_judged: the judge is GNU Backgammon's Python module, which is not "
              "installed here: pip install gnubg==1.1.0a16 (measurement only)", file=sys.stderr)
        return 2
    import backgammon as bg

    if args.check_plies:
        sample = sample_decisions(bg, args.galaxy, args.matches, args.decisions, args.seed)
        check_plies(sample["decisions"])
        return 0
    out = judge(bg, args)
    report(out)
    if args.json:
        def drop(table: dict[str, Any]) -> dict[str, Any]:
            return {k: {f: v for f, v in r.items() if f != "losses"} for k, r in table.items()}
        slim = {**out, "table": drop(out["table"]),
                "focus": {c: {**f, "table": drop(f["table"])} for c, f in out["focus"].items()}}
        slim["class_counts"] = {c: out["classes"].count(c) for c in set(out["classes"])}
        del slim["classes"], slim["kinds"]
        for f in slim["focus"].values():
            del f["kinds"]
        args.json.write_text(json.dumps(slim, indent=2) + "\n")
    return 0


if __name__ == "__main__":
    if len(sys.argv) == 5 and sys.argv[1] == "--worker":
        worker(sys.argv[2], sys.argv[3], sys.argv[4])
        sys.exit(0)
    sys.exit(main())
