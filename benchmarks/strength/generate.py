"""Generate the strength benchmark's position sets (benchmarks/strength/README.md).

    nice -n 15 python benchmarks/strength/generate.py sample --chunk 0 --games 2500   # chunks 0-3
    python benchmarks/strength/generate.py select --chunks 0 1 2 3 --seed 1
    nice -n 15 python benchmarks/strength/generate.py rollout --part 0 --parts 2 [--max-minutes M]
    nice -n 15 python benchmarks/strength/generate.py rollout --part 1 --parts 2 [--max-minutes M]
    python benchmarks/strength/generate.py pack            # -> python/backgammon/data/strength/*.npz
    nice -n 15 python benchmarks/strength/generate.py reroll --set race --part 0 --parts 2 [--nets F]
    nice -n 15 python benchmarks/strength/generate.py reroll --set race --part 1 --parts 2 [--nets F]
    python benchmarks/strength/generate.py reroll --set race --pack [--nets F]   # every play rolled out

Four steps, each resumable, every chunk and decision with its own seed:

* ``sample``: games of the bundled nets with exploration and of varied play (a
  few plies of pubeval or random moves, then the nets), dice from
  ``numpy.random.default_rng((TAG, chunk, game))``; at most one unforced
  decision of each class per game (two crashed) is kept, drawn at random.
  Writes ``work/sample-CHUNK.npz``.
* ``select``: SIZES decisions of each class drawn (seeded) from the chunks:
  ``work/selected.npz``.
* ``rollout``: the reference equities of the selected decisions of one part
  (``reference()``, decision ``i`` with seed ``TAG * 10000 + i``), appended
  one decision at a time to ``work/rollout-PART-of-PARTS.jsonl``; a rerun
  skips the decisions already in any log.
* ``pack``: the rolled-out decisions -> one compact ``.npz`` per class.
* ``reroll``: a packed set's decisions again, **every** play rolled out (same
  seeds and settings, no cheap estimates left), logged to
  ``work/reroll-SET-PART-of-PARTS.jsonl``; ``--pack`` rewrites ``SET.npz``.
  Races are cheap to roll out, and a play given only its shifted 1-ply value
  keeps the judgement of the nets that made it (README, "The race set").

``work/`` (ignored by git) holds the chunks and logs; the packed sets are committed.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path
from typing import Any, Iterator

import numpy as np

HERE = Path(__file__).resolve().parent
try:
    import backgammon as bg
except ImportError:  # a checkout without an install
    sys.path.insert(0, str(HERE.parents[1] / "python"))
    import backgammon as bg
from backgammon import _bgcore, nn
from backgammon.training.benchmark import CLASSES, position_class

WORK = HERE / "work"
SETS = HERE.parents[1] / "python" / "backgammon" / "data" / "strength"   # shipped in the wheel
TAG = 15_000_777          # the seed namespace of the benchmark (training uses small seeds)
EXPLORE = 0.15            # self-play: chance of a random play among the top three
KEEP = {"contact": 1, "crashed": 2, "race": 1}   # decisions kept a game, at most

SIZES = {"contact": 2000, "crashed": 1000, "race": 1000}   # decisions a set
# The reference (measured: README "How the reference was chosen")
MARGIN = 0.16             # deep rollouts for plays within this of the cheap best ...
DEEP_MAX = 6              # ... at most this many, at least two
ROLLED_MAX = 64           # plays a rollout_plays call takes (reroll goes past it in groups)
DEEP = {                  # rollout_plays settings of the deep candidates, by class
    "contact": {"games": 144, "truncate": 5, "vr": True},
    "crashed": {"games": 2592, "truncate": None, "vr": False},
    "race": {"games": 144, "truncate": None, "vr": True},
}


def _rng(chunk: int, game: int) -> np.random.Generator:
    return np.random.default_rng((TAG, chunk, game))


def play_game(ev: nn.Evaluator, rng: np.random.Generator) -> Iterator[tuple[bytes, tuple[int, int], int, str]]:
    """The decisions of one game: (board, dice, plays, source) at every roll."""
    r = rng.random()
    if r < 0.5:
        source, prefix, first = "self", 0, None
    elif r < 0.8:
        source, prefix, first = "pubeval", int(rng.integers(2, 21)), "pubeval"
    else:
        source, prefix, first = "random", int(rng.integers(2, 13)), "random"
    pos = bg.Position.initial()
    for ply in range(2000):
        dice = (int(rng.integers(1, 7)), int(rng.integers(1, 7)))
        plays = pos.legal_plays(dice)
        results = plays._results
        n = len(results)
        yield pos._b, dice, n, source
        if n == 1:
            pick = 0
        elif ply < prefix and first == "random":
            pick = int(rng.integers(n))
        elif ply < prefix:
            pick = plays.index(bg.pubeval.best_play(pos, dice))
        else:
            best, probs = ev._nets.choose(pos._b, results)
            pick = int(best)
            if source == "self" and rng.random() < EXPLORE:
                order = nn.search._mover_order(probs, pick)
                pick = order[int(rng.integers(min(3, n)))]
        res = bg.Position._from_bytes(results[pick].tobytes())
        if res.outcome() is not None:
            return
        pos = res.swapped()


def sample(chunk: int, games: int) -> Path:
    ev = nn.Evaluator.default()
    boards, dice, classes, sources, where = [], [], [], [], []
    for g in range(games):
        rng = _rng(chunk, g)
        seen: dict[str, list[tuple[bytes, tuple[int, int], str, int]]] = {c: [] for c in CLASSES}
        for ply, (b, d, n, src) in enumerate(play_game(ev, rng)):
            if n < 2 or _bgcore.bearoff_applies(b):
                continue  # forced, or the bear-off database answers it exactly
            seen[position_class(b)].append((b, d, src, ply))
        for c in CLASSES:
            items = seen[c]
            if not items:
                continue
            for i in rng.choice(len(items), size=min(KEEP[c], len(items)), replace=False):
                b, d, src, ply = items[int(i)]
                boards.append(np.frombuffer(b, np.int8))
                dice.append(d)
                classes.append(c)
                sources.append(src)
                where.append((g, ply))
    WORK.mkdir(exist_ok=True)
    out = WORK / f"sample-{chunk:03d}.npz"
    np.savez_compressed(out, boards=np.array(boards, np.int8), dice=np.array(dice, np.uint8),
                        classes=np.array(classes), sources=np.array(sources),
                        where=np.array(where, np.int32),
                        meta=np.array(json.dumps({"chunk": chunk, "games": games, "tag": TAG,
                                                  "explore": EXPLORE, "keep": KEEP})))
    counts = {c: classes.count(c) for c in CLASSES}
    print(f"chunk {chunk}: {games} games -> {len(boards)} decisions {counts}", flush=True)
    return out


def cheap_equities(ev: nn.Evaluator, results: np.ndarray) -> np.ndarray:
    """The mover's 1-ply equity of each result (exact: every reply roll, the
    reply chosen at 0-ply)."""
    opp = nn.eval_ply(ev, nn.search._swapped_rows(results), 1).astype(np.float64)
    return -(2 * opp[:, 0] - 1 + opp[:, 1] - opp[:, 3] + opp[:, 2] - opp[:, 4])


def reference(ev: nn.Evaluator, board: bytes, dice: tuple[int, int], seed: int, *,
              games: int, truncate: int | None, vr: bool, margin: float = MARGIN,
              deep_max: int = DEEP_MAX) -> dict[str, Any]:
    """Reference equities of every distinct play of ``dice`` (legal_plays order).

    Every play gets its 1-ply equity; the plays within ``margin`` of the best
    by it (at least two, at most ``deep_max``) are rolled out with common dice
    (``rollout_plays``, ``games`` each, ``truncate`` plies, seed ``seed``).  A
    play not rolled out keeps its 1-ply equity shifted by the mean of
    (rollout - 1-ply) over the rolled-out plays, so both kinds are on the
    rollout's scale."""
    pos = bg.Position._from_bytes(board)
    plays = pos.legal_plays(dice)
    results = plays._results
    cheap = cheap_equities(ev, results)
    order = np.argsort(-cheap, kind="stable")
    deep = [int(i) for i in order[:deep_max] if cheap[i] >= cheap[order[0]] - margin]
    if len(deep) < 2:
        deep = [int(i) for i in order[:2]]
    t0 = time.process_time()
    # rollout_plays takes 64 plays at a time: later groups (the 1-ply order's
    # tail) share the seed, so their dice, but not a paired error with the best
    groups = [deep[i:i + ROLLED_MAX] for i in range(0, len(deep), ROLLED_MAX)]
    got = [bg.rollout_plays(pos, dice, plays=[plays[i] for i in g], games=games, seed=seed,
                            policy=ev, workers=1, truncate=truncate, variance_reduction=vr)
           for g in groups]
    rows = got[0]
    at = {r.play.result._b: r for group in got for r in group}
    cpu = time.process_time() - t0
    eq = cheap.copy()
    se = np.full(len(results), np.nan)
    deep_eq = np.array([at[results[i].tobytes()].equity.value for i in deep])
    shift = float(np.mean(deep_eq - cheap[deep]))
    eq = np.clip(eq + shift, -3.0, 3.0)  # no value beyond a backgammon
    best = rows[0].play.result._b
    paired = {r.play.result._b for r in rows}
    for i in deep:
        r = at[results[i].tobytes()]
        eq[i] = r.equity.value
        if r.play.result._b in paired:
            se[i] = r.difference.stderr if r.play.result._b != best else 0.0
    return {"equities": eq.tolist(), "cheap": cheap.tolist(), "deep": deep,
            "diff_stderr": [None if np.isnan(x) else float(x) for x in se],
            "shift": shift, "cpu": cpu}


def select(chunks: list[int], seed: int) -> Path:
    """SIZES decisions of each class drawn (seeded) from the sample chunks."""
    parts = [np.load(WORK / f"sample-{c:03d}.npz") for c in chunks]
    boards = np.concatenate([p["boards"] for p in parts])
    dice = np.concatenate([p["dice"] for p in parts])
    classes = np.concatenate([p["classes"] for p in parts])
    sources = np.concatenate([p["sources"] for p in parts])
    origin = np.concatenate([np.column_stack([np.full(len(p["boards"]), c), p["where"]])
                             for c, p in zip(chunks, parts)])
    rng = np.random.default_rng((TAG, seed))
    keep = []
    for c in CLASSES:
        idx = np.flatnonzero(classes == c)
        if len(idx) < SIZES[c]:
            print(f"only {len(idx)} {c} decisions in the sample (wanted {SIZES[c]})")
        keep += sorted(rng.choice(idx, size=min(SIZES[c], len(idx)), replace=False).tolist())
    keep_arr = np.array(keep)
    out = WORK / "selected.npz"
    np.savez_compressed(out, boards=boards[keep_arr], dice=dice[keep_arr],
                        classes=classes[keep_arr], sources=sources[keep_arr],
                        origin=origin[keep_arr],
                        meta=np.array(json.dumps({"chunks": chunks, "seed": seed,
                                                  "sizes": SIZES})))
    print(f"selected {len(keep)} decisions -> {out}")
    return out


def rollout(part: int, parts: int, max_minutes: float | None) -> None:
    """Reference equities of the selected decisions ``i`` with ``i % parts == part``."""
    ev = nn.Evaluator.default()
    data = np.load(WORK / "selected.npz")
    out = WORK / f"rollout-{part}-of-{parts}.jsonl"
    done = {r["index"] for f in WORK.glob("rollout-*.jsonl") for r in _lines(f)}
    start = time.process_time()
    n = 0
    with out.open("a") as f:
        # a fixed shuffle, the cheap classes first: a part stopped early has
        # whole race and crashed sets and a random part of the contact set
        order = np.random.default_rng((TAG, 2)).permutation(len(data["boards"]))
        rank = {"race": 0, "crashed": 1, "contact": 2}
        order = order[np.argsort([rank[str(data["classes"][i])] for i in order], kind="stable")]
        for i in (int(x) for x in order[part::parts]):
            if i in done:
                continue
            if max_minutes is not None and time.process_time() - start > 60 * max_minutes:
                print(f"part {part}: CPU budget reached before decision {i}", flush=True)
                break
            board = data["boards"][i].tobytes()
            dice = (int(data["dice"][i][0]), int(data["dice"][i][1]))
            cls = str(data["classes"][i])
            seed = TAG * 10_000 + i
            ref = reference(ev, board, dice, seed, **DEEP[cls])
            ref.update(index=i, seed=seed, cls=cls)
            f.write(json.dumps(ref) + "\n")
            f.flush()
            n += 1
            if n % 100 == 0:
                print(f"part {part}: {n} decisions, {time.process_time() - start:.0f} CPU s",
                      flush=True)
    print(f"part {part}: done {n} decisions in {time.process_time() - start:.0f} CPU s",
          flush=True)


def _lines(path: Path) -> Iterator[dict[str, Any]]:
    """The complete records of a rollout log (a line cut by a kill is skipped)."""
    if not path.exists():
        return
    for line in path.read_text().splitlines():
        try:
            yield json.loads(line)
        except json.JSONDecodeError:
            continue


def pack() -> None:
    """The rolled-out decisions -> contact.npz, crashed.npz, race.npz (in selection order)."""
    import hashlib
    import subprocess

    from backgammon.training.benchmark import FORMAT, VERSION, PositionSet

    data = np.load(WORK / "selected.npz")
    refs: dict[int, dict[str, Any]] = {}
    for f in sorted(WORK.glob("rollout-*.jsonl")):
        for r in _lines(f):
            refs[r["index"]] = r
    nets = Path(nn.__file__).with_name("data") / "nets.npz"
    try:
        commit = subprocess.run(["git", "-C", str(HERE), "rev-parse", "HEAD"], text=True,
                                capture_output=True, check=True).stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        commit = "unknown"
    for c in CLASSES:
        idx = [i for i in range(len(data["boards"])) if str(data["classes"][i]) == c and i in refs]
        if not idx:
            continue
        decisions = [(bg.Position._from_bytes(data["boards"][i].tobytes()),
                      tuple(int(x) for x in data["dice"][i]),
                      np.clip(refs[i]["equities"], -3.0, 3.0))  # a shifted 1-ply value may
                     for i in idx]                               # pass a backgammon's 3
        stderr = [[np.nan if x is None else x for x in refs[i]["diff_stderr"]] for i in idx]
        meta = {
            "class": c, "generator": "benchmarks/strength/generate.py", "commit": commit,
            "commands": [f"generate.py sample --chunk {k} --games 2500" for k in range(4)]
                        + ["generate.py select --chunks 0 1 2 3 --seed 1",
                           "generate.py rollout --part 0 --parts 2 --max-minutes 36",
                           "generate.py rollout --part 1 --parts 2 --max-minutes 36",
                           "generate.py pack"],
            "tag": TAG, "explore": EXPLORE, "keep": KEEP, "sizes": SIZES,
            "reference": {"cheap": "1-ply of every play (reply chosen at 0-ply)",
                          "margin": MARGIN, "deep_max": DEEP_MAX, "deep": DEEP[c],
                          "rollout seed of decision i": f"{TAG} * 10000 + i (i: index in "
                                                        "selected.npz)",
                          "policy": "bundled nets, 0-ply, cubeless"},
            "nets_sha256": hashlib.sha256(nets.read_bytes()).hexdigest(),
            "cpu_seconds": round(sum(refs[i]["cpu"] for i in idx), 1),
        }
        s = PositionSet.from_decisions(c, decisions, stderr, meta)
        deep = np.zeros(len(s.results), bool)
        for k, i in enumerate(idx):
            deep[s.offsets[k] + np.array(refs[i]["deep"])] = True
        out = SETS / f"{c}.npz"
        with open(out, "wb") as f:
            np.savez_compressed(
                f, format=np.array(FORMAT), version=np.array(str(VERSION)), name=np.array(c),
                meta=np.array(json.dumps(meta)), boards=s.boards, dice=s.dice,
                offsets=s.offsets, results=s.results, equities=s.equities.astype(np.float32),
                stderr=s.stderr.astype(np.float32), deep=deep,
                cheap=np.concatenate([refs[i]["cheap"] for i in idx]).astype(np.float32),
                source=data["sources"][idx], seed=np.array([refs[i]["seed"] for i in idx]))
        print(f"{out.name}: {len(s)} decisions, {len(s.results)} plays, "
              f"{out.stat().st_size:,} bytes")


def _reroll_file(nets: str | None) -> Path:
    """The nets file of a reroll's policy: ``nets``, or the bundled nets."""
    return Path(nets) if nets else Path(nn.__file__).with_name("data") / "nets.npz"


def reroll(name: str, part: int, parts: int, nets: str | None) -> None:
    """Every play of the packed set ``name``'s decisions ``k`` with ``k % parts == part``
    rolled out (``reference()`` with no margin, seeds and settings as recorded) by
    ``nets`` (default: the bundled nets)."""
    # the bundled nets, or ``nets`` screened as the bundled nets are
    ev = nn.Evaluator.load(nets).with_pruning() if nets else nn.Evaluator.default()
    with np.load(SETS / f"{name}.npz") as z:
        boards, dice, seeds = z["boards"], z["dice"], z["seed"]
    out = WORK / f"reroll-{name}-{part}-of-{parts}.jsonl"
    WORK.mkdir(exist_ok=True)
    done = {r["k"] for f in WORK.glob(f"reroll-{name}-*.jsonl") for r in _lines(f)}
    start = time.process_time()
    with out.open("a") as f:
        for k in range(part, len(boards), parts):
            if k in done:
                continue
            d = (int(dice[k][0]), int(dice[k][1]))
            ref = reference(ev, boards[k].tobytes(), d, int(seeds[k]), margin=np.inf,
                            deep_max=10**6, **DEEP[name])
            ref.update(k=k, seed=int(seeds[k]))
            f.write(json.dumps(ref) + "\n")
            f.flush()
    print(f"reroll {name} part {part}: {time.process_time() - start:.0f} CPU s", flush=True)


def pack_reroll(name: str, nets: str | None) -> None:
    """The rerolled decisions -> ``name.npz`` (the set's other fields kept)."""
    import hashlib

    with np.load(SETS / f"{name}.npz") as z:
        data = {k: z[k] for k in z.files}
    refs = {r["k"]: r for f in WORK.glob(f"reroll-{name}-*.jsonl") for r in _lines(f)}
    n = len(data["boards"])
    if len(refs) < n:
        sys.exit(f"reroll {name}: {len(refs)} of {n} decisions done; run the parts first")
    off = data["offsets"]
    eq = np.concatenate([refs[k]["equities"] for k in range(n)]).astype(np.float32)
    se = np.concatenate([[np.nan if x is None else x for x in refs[k]["diff_stderr"]]
                         for k in range(n)]).astype(np.float32)
    if len(eq) != off[-1]:
        sys.exit(f"reroll {name}: the plays do not match the set's")
    meta = json.loads(str(data["meta"]))
    path = _reroll_file(nets)
    opt = f" --nets {nets}" if nets else ""
    meta["reference"]["margin"] = meta["reference"]["deep_max"] = "all plays"
    meta["rerolled"] = {
        "commands": [f"generate.py reroll --set {name} --part {p} --parts 2{opt}" for p in (0, 1)]
                    + [f"generate.py reroll --set {name} --pack{opt}"],
        "policy": f"{path.name}, screened as the bundled nets (with_pruning), 0-ply, cubeless",
        "why": "every play rolled out: a play given only its shifted 1-ply value kept the "
               "judgement of the nets that made it (README, "
               + ("'The race set')" if name == "race" else
                  "'The contact set's reference, checked against gnubg 2-ply')"),
        "nets_sha256": hashlib.sha256(path.read_bytes()).hexdigest(),
        "cpu_seconds": round(sum(refs[k]["cpu"] for k in range(n)), 1),
        "previous_equities_sha256": hashlib.sha256(data["equities"].tobytes()).hexdigest(),
    }
    data.update(meta=np.array(json.dumps(meta)), equities=eq, stderr=se,
                deep=np.ones(len(eq), bool))
    out = HERE / f"{name}.npz"
    with open(out, "wb") as f:
        np.savez_compressed(f, **data)
    print(f"{out.name}: {n} decisions, {len(eq)} plays, every one rolled out, "
          f"{out.stat().st_size:,} bytes")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    sub = ap.add_subparsers(dest="step", required=True)
    s = sub.add_parser("sample")
    s.add_argument("--chunk", type=int, required=True)
    s.add_argument("--games", type=int, default=400)
    e = sub.add_parser("select")
    e.add_argument("--chunks", type=int, nargs="+", required=True)
    e.add_argument("--seed", type=int, default=1)
    r = sub.add_parser("rollout")
    r.add_argument("--part", type=int, required=True)
    r.add_argument("--parts", type=int, default=1)
    r.add_argument("--max-minutes", type=float)
    sub.add_parser("pack")
    rr = sub.add_parser("reroll")
    rr.add_argument("--set", choices=CLASSES, required=True)
    rr.add_argument("--part", type=int, default=0)
    rr.add_argument("--parts", type=int, default=1)
    rr.add_argument("--pack", action="store_true")
    rr.add_argument("--nets", help="the rollout policy (default: the bundled nets)")
    args = ap.parse_args(argv)
    if args.step == "sample":
        sample(args.chunk, args.games)
    elif args.step == "select":
        select(args.chunks, args.seed)
    elif args.step == "rollout":
        rollout(args.part, args.parts, args.max_minutes)
    elif args.step == "reroll":
        if args.pack:
            pack_reroll(args.set, args.nets)
        else:
            reroll(args.set, args.part, args.parts, args.nets)
    else:
        pack()
    return 0


if __name__ == "__main__":
    sys.exit(main())
