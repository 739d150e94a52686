"""The server's CPU for ``GET /move?ply=2`` on middle-game doubles, end to end (issue 39).

    python benchmarks/server_move_cost.py [--positions 40] [--seed 3]

Starts ``backgammon serve`` on 127.0.0.1 (a free port, a fresh SQLite file),
then asks it, one request at a time, for the best play of ``--positions``
middle-game positions with a double to play (the bundled nets play both
sides from the opening for 6 to 20 rolls, seeded; kept where both sides
still have contact and the double has at least 10 legal plays), at
``ply=2``.  For each request it reads the server's CPU time from
``/proc/PID/task/*/schedstat`` (nanoseconds, every thread of the process)
before and after, so the figure is everything the request cost the server:
HTTP parsing, validation, the search, the JSON reply.  The same searches in
this process (``rank_plays(pos, dice, ply=2)``, what the route runs) give
the engine's share, and gnubg-nn's 2-ply ``best_move`` of the same decisions
(when installed) a peer.  Every reply's best play is checked against the
in-process search's.  The issue's target is 100 ms of CPU a request.

Needs the server extra and httpx (``pip install ".[server,test]"``).
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import sys
import tempfile
import time

import httpx

import backgammon as bg
from backgammon.nn import rank_plays
from server_load import HOST, Server, free_port


def middle_game_doubles(n: int, seed: int) -> list[tuple[bg.Position, tuple[int, int]]]:
    """n (position, double) decisions from the bundled nets' games: contact, >= 10 plays."""
    rng = random.Random(seed)
    out: list[tuple[bg.Position, tuple[int, int]]] = []
    seen: set[str] = set()
    while len(out) < n:
        pos = bg.Position.initial()
        for _ in range(rng.randint(6, 20)):
            dice = (rng.randint(1, 6), rng.randint(1, 6))
            pos = pos.best_play(dice).result.swapped()
            if pos.outcome() is not None:
                break
        if pos.outcome() is not None or not contact(pos) or pos.position_id() in seen:
            continue
        d = rng.randint(1, 6)
        if len(pos.legal_plays((d, d))) >= 10:
            seen.add(pos.position_id())
            out.append((pos, (d, d)))
    return out


def contact(pos: bg.Position) -> bool:
    """Whether a checker of one side still has to pass one of the other's."""
    a = pos.tolist()
    return max(i for i in range(26) if a[i] > 0) > min(i for i in range(26) if a[i] < 0)


def server_cpu_ns(pid: int) -> int:
    """CPU nanoseconds of every thread of process pid so far."""
    total = 0
    for tid in os.listdir(f"/proc/{pid}/task"):
        try:
            with open(f"/proc/{pid}/task/{tid}/schedstat") as f:
                total += int(f.read().split()[0])
        except (OSError, ValueError, IndexError):
            pass   # a thread that ended meanwhile
    return total


def pct(xs: list[float], q: float) -> float:
    s = sorted(xs)
    return s[min(len(s) - 1, int(q * len(s)))]


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--positions", type=int, default=40)
    ap.add_argument("--seed", type=int, default=3)
    args = ap.parse_args()
    cases = middle_game_doubles(args.positions, args.seed)
    ev = bg.Evaluator.default()

    engine_ms, best = [], []
    for pos, dice in cases:
        t = time.process_time()
        plays = rank_plays(pos, dice, 2, ev)
        engine_ms.append((time.process_time() - t) * 1e3)
        best.append(list(plays[0].play.moves))

    gnubg_ms: list[float] = []
    try:
        import gnubg_nn
        from compare_peers import to_gnubg
    except ImportError:
        gnubg_nn = None
    if gnubg_nn is not None:
        for pos, dice in cases:
            board = to_gnubg(pos.tolist())
            t = time.process_time()
            gnubg_nn.best_move(board, dice[0], dice[1], 2)
            gnubg_ms.append((time.process_time() - t) * 1e3)

    with tempfile.TemporaryDirectory() as tmp:
        server = Server(free_port(), f"sqlite:///{tmp}/games.db", 1)
        server.start()
        try:
            assert server.proc is not None
            pid = server.proc.pid
            base = f"http://{HOST}:{server.port}"
            with httpx.Client(base_url=base, timeout=30) as http:
                pos, dice = cases[0]       # warm up: the nets load at the first engine request
                http.get("/move", params={"position": pos.position_id(), "die1": dice[0],
                                          "die2": dice[1], "ply": 2}).raise_for_status()
                server_ms, wall_ms, wrong = [], [], 0
                for (pos, dice), want in zip(cases, best):
                    c0, t0 = server_cpu_ns(pid), time.perf_counter()
                    r = http.get("/move", params={"position": pos.position_id(),
                                                  "die1": dice[0], "die2": dice[1], "ply": 2})
                    wall_ms.append((time.perf_counter() - t0) * 1e3)
                    time.sleep(0.02)       # let the server's thread finish its bookkeeping
                    server_ms.append((server_cpu_ns(pid) - c0) / 1e6)
                    r.raise_for_status()
                    got = [(m["from"], m["to"]) for m in r.json()["moves"][0]["play"]]
                    wrong += got != [tuple(m) for m in want]
        finally:
            server.stop()

    n = len(cases)
    print(f"{n} middle-game doubles at ply 2, CPU milliseconds a decision "
          f"(median, p90, max):")
    for name, xs in (("server, GET /move?ply=2 end to end", server_ms),
                     ("engine alone, rank_plays(ply=2)", engine_ms),
                     ("gnubg-nn best_move(n=2)", gnubg_ms)):
        if xs:
            print(f"  {name:<38} {statistics.median(xs):7.1f} {pct(xs, 0.9):7.1f} "
                  f"{max(xs):7.1f}")
    print(f"  client wall time a request: median {statistics.median(wall_ms):.1f} ms")
    print(f"  replies whose best play differs from the in-process search: {wrong}")
    if wrong:
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
