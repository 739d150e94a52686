"""Move-generation and rollout speed of ``backgammon`` next to peer engines, same run, same work.

    python benchmarks/compare_peers.py [--limit N] [--min-time S] [--json OUT]
                                       [--rollout-games N] [--skip movegen|rollout|nn|gnubg|openspiel]
                                       [--nn-positions N] [--nn-rollout-games N] [--nn-pairs N]
                                       [--cube [--cube-positions N]] [--plays [--plays-games N]]
                                       [--strength [--strength-sets DIR]]

Peers (each skipped with a message when it cannot be imported):

* ``gnubg-nn`` (``pip install gnubg-nn``, module ``gnubg_nn``): GNU Backgammon's
  move generator.  ``gnubg_nn.moves(board, die1, die2, verbose=0, /)`` takes a
  gnubg board ``[[25 ints: player not on roll], [25 ints: player on roll]]``,
  each side counted from its own ace point (index 0 = ace point, 23 = 24-point,
  24 = bar), and returns a tuple with one 20-character position key per
  distinct resulting position (``verbose=1``: ``(key, steps)`` pairs); an empty
  tuple when no checker can move.  Positional arguments only.
* ``open_spiel`` (``pip install open_spiel``, module ``pyspiel``): the
  ``backgammon`` game.  Its Python state has no way to set a position, so each
  corpus position is *built* by replaying crafted (unchecked) actions from the
  opening position; every built state is read back and compared with the corpus
  board before use.  An OpenSpiel action is half a turn (two dice); a double
  is two decisions, so "resulting positions" means: every action, and for
  doubles every second action, applied to a copy, distinct final boards kept.

Every peer is first checked against the corpus (``tests/data/movegen.jsonl.gz``):
its set of distinct resulting positions per row must equal the corpus's.
Disagreements are counted and shown, never hidden; the timing still covers all
rows it was given.  Ratios are "ours / peer" of the same rate measured in this
run (> 1: we are faster).  Our side is measured on exactly the rows the peer
was timed on.

Rollouts (games/s, whole games from the opening position, one core): ours are
``backgammon.rollout(Position.initial(), games=N, policy="random"|"pubeval",
seed=2026, workers=1)``.  gnubg-nn has no random playout, so a Python loop
plays it: dice from Python's ``random``, ``gnubg_nn.moves`` and a uniform
choice among its distinct positions (``board_from_position_key``, sides swapped
each ply, ``()`` passes the turn) for ``random``; ``gnubg_nn.pub_best_move``
(its play applied in the loop, checked against ``moves`` on 20 games first) for
``pubeval``.  OpenSpiel: random playouts from ``new_initial_state()``, uniform
over ``legal_actions()`` (half turns), chance nodes from ``chance_outcomes()``.
Each peer's P(win) for the player who moves first is compared with ours
(``SANITY_GAMES`` games): gnubg-nn's must agree within 4 standard errors;
OpenSpiel's random policy is a different one (uniform over half-turn actions,
and a non-double opening roll), so its P(win) is reported, not checked.

The neural evaluator (``nn`` section; docs/nn.md):

* 0-ply evaluations per second, one core: ours ``Evaluator.default().evaluate_batch``
  on an ``(N, 26)`` array against ``gnubg_nn.probabilities(board, 0)`` called on
  each of the same N positions.  The positions are distinct (from random games)
  and every round of gnubg-nn gets N new ones, since gnubg caches evaluations.
* Rollout games per second from the opening, one core, cubeless, 0-ply: ours
  ``rollout(..., policy="net", workers=1)``; gnubg's own rollout, driven in a
  separate process through ``gnubg.command`` (``set threads 1``, a game set up
  with both players human and no automatic roll, ``set board 4HPwATDgc/ABMA``,
  ``set rollout trials N``, ``set rollout cubeful off``, ``set rollout
  chequerplay plies 0``, ``set rollout varredn off``, then ``rollout`` timed
  alone).  gnubg keeps its defaults otherwise: quasi-random dice, and games
  stopped once both sides reach its bear-off databases (ours play to the end).
* Strength: our nets' 0-ply play against gnubg-nn's 0-ply ``best_move(board,
  d1, d2)``, duplicate dice (each pair of games shares its rolls, seats
  swapped), a Python loop; ppg for us with its standard error from the pair
  totals.
"""

from __future__ import annotations

import argparse
import gzip
import json
import math
import os
import platform
import random
import re
import statistics
import sys
import time
from collections import deque
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import numpy as np

import peers_cube  # benchmarks/peers_cube.py: the --cube section
import peers_plays  # benchmarks/peers_plays.py: the --plays section
import peers_strength  # benchmarks/peers_strength.py: the --strength section

REPO = Path(__file__).resolve().parent.parent
MOVEGEN = REPO / "tests" / "data" / "movegen.jsonl.gz"

Board = list[int]  # 26 ints, the project's convention (see tests/data/VECTORS.md)


# ---------------------------------------------------------------------------
# Corpus and our library


class Corpus:
    def __init__(self, path: Path = MOVEGEN) -> None:
        self.boards: list[Board] = []
        self.dice: list[tuple[int, int]] = []
        self.results: list[list[Board]] = []
        with gzip.open(path, "rt", encoding="utf-8") as fh:
            for line in fh:
                if line.strip():
                    row = json.loads(line)
                    self.boards.append(row["board"])
                    self.dice.append((row["dice"][0], row["dice"][1]))
                    self.results.append(row["results"])
        self.boards_np = np.asarray(self.boards, dtype=np.int8)
        self.dice_np = np.asarray(self.dice, dtype=np.int8)
        self.counts = [len(r) for r in self.results]

    def __len__(self) -> int:
        return len(self.boards)

    def total(self, rows: Sequence[int]) -> int:
        return sum(self.counts[i] for i in rows)

    def result_set(self, i: int) -> set[tuple[int, ...]]:
        return {tuple(r) for r in self.results[i]}


def import_backgammon():
    try:
        import backgammon
    except ImportError:
        # Not installed: fall back to an in-place build in the source tree.
        sys.path.insert(0, str(REPO / "python"))
        try:
            import backgammon
        except ImportError as exc:
            sys.exit(f"cannot import backgammon ({exc}); install the package "
                     f"(pip install .) or build it in place and use PYTHONPATH=python")
    return backgammon


# ---------------------------------------------------------------------------
# Timing


class Timing:
    """Round times of one measurement; ``work`` maps a unit to its amount per round."""

    def __init__(self, label: str, work: dict[str, int], times: list[float]) -> None:
        self.label, self.work, self.times = label, work, times

    @property
    def median(self) -> float:
        return statistics.median(self.times)

    def rate(self, unit: str) -> float:
        return self.work[unit] / self.median

    def as_dict(self) -> dict[str, Any]:
        return {"label": self.label, "work_per_round": self.work, "rounds": len(self.times),
                "median_s": self.median, "min_s": min(self.times),
                "per_second": {u: self.rate(u) for u in self.work}}


def measure(label: str, fn: Callable[[], int], work: dict[str, int],
            min_rounds: int, min_time: float) -> Timing:
    """Time ``fn`` (one round = all the work).  Every call must return the first
    amount of ``work`` (the count it timed), so a wrong answer stops the run."""
    expect = next(iter(work.values()))
    got = fn()  # warm-up, and a check that the work is the work we think
    if got != expect:
        raise AssertionError(f"{label}: counted {got}, expected {expect}")
    times: list[float] = []
    start = time.perf_counter()
    while len(times) < min_rounds or (time.perf_counter() - start < min_time
                                      and len(times) < 10_000):
        t0 = time.perf_counter()
        got = fn()
        times.append(time.perf_counter() - t0)
        if got != expect:
            raise AssertionError(f"{label}: counted {got}, expected {expect}")
    return Timing(label, work, times)


def fmt_rate(x: float) -> str:
    for div, suffix in ((1e9, "G"), (1e6, "M"), (1e3, "k")):
        if x >= div:
            return f"{x / div:.2f} {suffix}"
    return f"{x:.1f} "


def print_table(timings: list[Timing]) -> None:
    print(f"  {'measurement':<44} {'rounds':>6} {'median':>12}   rates (median round)")
    for t in timings:
        rates = ", ".join(f"{fmt_rate(t.rate(u))}{u}/s" for u in t.work)
        work = ", ".join(f"{n} {u}" for u, n in t.work.items())
        print(f"  {t.label:<44} {len(t.times):>6} {t.median * 1e3:>9.3f} ms   "
              f"{rates}   [{work}]")


def print_ratios(pairs: list[tuple[str, Timing, Timing, str]]) -> dict[str, float]:
    """Print and return ours/peer rate ratios (> 1: ours is faster)."""
    out = {}
    for name, ours, peer, unit in pairs:
        ratio = ours.rate(unit) / peer.rate(unit)
        out[name] = ratio
        print(f"  ours/peer {name:<40} {ratio:8.1f}x  ({fmt_rate(ours.rate(unit))}{unit}/s "
              f"vs {fmt_rate(peer.rate(unit))}{unit}/s)")
    return out


class Ours:
    """Our measurements, cached per row subset."""

    def __init__(self, bg, corpus: Corpus, min_rounds: int, min_time: float) -> None:
        self.bg, self.corpus = bg, corpus
        self.min_rounds, self.min_time = min_rounds, min_time
        self._cache: dict[tuple[int, ...], dict[str, Timing]] = {}

    def timings(self, rows: Sequence[int]) -> dict[str, Timing]:
        key = tuple(rows)
        if key in self._cache:
            return self._cache[key]
        bg, c = self.bg, self.corpus
        idx = np.asarray(rows, dtype=np.int64)
        boards = np.ascontiguousarray(c.boards_np[idx])
        dice = np.ascontiguousarray(c.dice_np[idx])
        positions = [bg.Position.from_array(c.boards[i]) for i in rows]
        rolls = [c.dice[i] for i in rows]
        total = c.total(rows)
        tag = "" if len(rows) == len(c) else f" [{len(rows)} rows]"

        def batch() -> int:
            results, _offsets = bg.batch_successors(boards, dice)
            return len(results)

        def successors() -> int:
            n = 0
            for p, d in zip(positions, rolls):
                n += len(p.successors(d))
            return n

        out = {
            "batch": measure("ours: batch_successors, one call" + tag, batch,
                             {"positions": total, "rows": len(rows)},
                             self.min_rounds, self.min_time),
            "successors": measure("ours: Position.successors loop" + tag, successors,
                                  {"positions": total, "calls": len(rows)},
                                  self.min_rounds, self.min_time),
        }
        self._cache[key] = out
        return out


def report_disagreements(name: str, bad: list[tuple[int, int, int, str]],
                         corpus: Corpus, checked: int) -> None:
    if not bad:
        print(f"  agreement: {name} gives exactly the corpus's resulting positions "
              f"on all {checked} rows checked")
        return
    print(f"  DISAGREEMENT: {name} differs from the corpus on {len(bad)} of {checked} rows:")
    for i, peer_n, corpus_n, why in bad[:8]:
        print(f"    row {i}: board={corpus.boards[i]} dice={corpus.dice[i]} "
              f"peer={peer_n} corpus={corpus_n} {why}")
    if len(bad) > 8:
        print(f"    ... and {len(bad) - 8} more")


# ---------------------------------------------------------------------------
# gnubg-nn


def to_gnubg(a: Board) -> list[list[int]]:
    """Our 26-int board -> gnubg ``[[opponent x25], [on roll x25]]``."""
    me = [0] * 25
    opp = [0] * 25
    for i in range(1, 25):
        v = a[i]
        if v > 0:
            me[i - 1] = v
        elif v < 0:
            opp[24 - i] = -v  # our point i is the opponent's point 25 - i
    me[24] = a[25]
    opp[24] = -a[0]
    return [opp, me]


def from_gnubg(b: Sequence[Sequence[int]]) -> tuple[int, ...]:
    opp, me = b
    a = [0] * 26
    for i in range(1, 25):
        a[i] = me[i - 1] - opp[24 - i]
    a[25] = me[24]
    a[0] = -opp[24]
    return tuple(a)


def run_gnubg(corpus: Corpus, rows: list[int], ours: Ours, args) -> dict[str, Any] | None:
    print("\n== gnubg-nn (gnubg_nn.moves) ==")
    try:
        import gnubg_nn
    except ImportError as exc:
        print(f"  skipped: cannot import gnubg_nn ({exc}); pip install gnubg-nn")
        return None
    print(f"  version {_dist_version('gnubg-nn')}, {gnubg_nn.__file__}")
    moves = gnubg_nn.moves
    boards = [to_gnubg(corpus.boards[i]) for i in rows]
    dice = [corpus.dice[i] for i in rows]

    # Agreement with the corpus, row by row (before any timing).
    bad = []
    empty = 0
    for i, b, (d1, d2) in zip(rows, boards, dice):
        keys = moves(b, d1, d2)
        if len(keys) == 0:
            empty += 1
            got = {tuple(corpus.boards[i])}  # no move: the board itself, as the corpus
        else:
            got = {from_gnubg(gnubg_nn.board_from_position_key(k)) for k in keys}
        if len(got) != len(keys) and keys:
            bad.append((i, len(keys), corpus.counts[i], "(duplicate keys)"))
        elif got != corpus.result_set(i):
            bad.append((i, len(got), corpus.counts[i], "(different positions)"))
    report_disagreements("gnubg_nn.moves", bad, corpus, len(rows))
    print(f"  note: moves() returns () when no checker can move ({empty} rows); "
          f"counted as 1 resulting position, as the corpus does")

    work = [(b, d1, d2) for b, (d1, d2) in zip(boards, dice)]

    def positions() -> int:
        n = 0
        for b, d1, d2 in work:
            n += len(moves(b, d1, d2)) or 1
        return n

    total = corpus.total(rows)
    t_peer = measure("gnubg_nn.moves loop", positions,
                     {"positions": total, "calls": len(work)},
                     args.min_rounds, args.min_time)
    o = ours.timings(rows)
    print_table([o["successors"], o["batch"], t_peer])
    ratios = print_ratios([
        ("successors vs moves, calls/s", o["successors"], t_peer, "calls"),
        ("successors vs moves, positions/s", o["successors"], t_peer, "positions"),
        ("batch_successors vs moves, positions/s", o["batch"], t_peer, "positions"),
    ])
    perft = check_perft(ours.bg, gnubg_nn, args.perft) if args.perft else None
    return {"rows": len(rows), "disagreements": len(bad), "no_move_rows": empty,
            "perft": perft, "peer": t_peer.as_dict(),
            "ours": {k: v.as_dict() for k, v in o.items()}, "ratios": ratios}


def gnubg_perft(gnubg_nn, depth: int) -> int:
    """perft from the opening position (21 rolls) counted with gnubg_nn.moves.

    Positions reached by several paths are merged with a multiplicity (the
    count below a position depends only on the position), so this is an
    independent check of ``backgammon.perft``, not a copy of its algorithm.
    """
    rolls = [(a, b) for a in range(1, 7) for b in range(1, a + 1)]
    start = [[0] * 25, [0] * 25]
    for side in start:
        for point, n in OpenSpielBuilder.START:
            side[point - 1] = n
    level = {gnubg_nn.key_of_board(start): (start, 1)}
    leaves = 0
    for ply in range(1, depth + 1):
        leaves = 0
        nxt: dict[str, list] = {}
        for board, mult in level.values():
            if sum(board[1]) == 0 or sum(board[0]) == 0:  # finished game: a leaf
                leaves += mult
                if ply < depth:
                    key = gnubg_nn.key_of_board(board)
                    if key in nxt:
                        nxt[key][1] += mult
                    else:
                        nxt[key] = [board, mult]
                continue
            for d1, d2 in rolls:
                keys = gnubg_nn.moves(board, d1, d2)
                leaves += mult * (len(keys) or 1)
                if ply == depth:
                    continue
                after = ([gnubg_nn.board_from_position_key(k) for k in keys]
                         if keys else [board])
                for opp, me in after:
                    swapped = [list(me), list(opp)]  # the other side is on roll
                    key = gnubg_nn.key_of_board(swapped)
                    if key in nxt:
                        nxt[key][1] += mult
                    else:
                        nxt[key] = [swapped, mult]
        level = {k: (b, m) for k, (b, m) in nxt.items()}
    return leaves


def check_perft(bg, gnubg_nn, depth: int) -> dict[str, Any]:
    print(f"  perft {depth} from the opening position (21 rolls):")
    t0 = time.perf_counter()
    ours = bg.perft(bg.Position.initial(), depth)
    t1 = time.perf_counter()
    theirs = gnubg_perft(gnubg_nn, depth)
    t2 = time.perf_counter()
    verdict = "agree" if ours == theirs else "DISAGREE"
    print(f"    backgammon.perft: {ours} leaves in {t1 - t0:.2f} s; counted with "
          f"gnubg_nn.moves (transpositions merged): {theirs} in {t2 - t1:.2f} s: {verdict}")
    return {"depth": depth, "ours": ours, "gnubg_nn": theirs,
            "ours_s": t1 - t0, "gnubg_nn_s": t2 - t1}


# ---------------------------------------------------------------------------
# OpenSpiel


class BuildError(Exception):
    pass


class OpenSpielBuilder:
    """Build an OpenSpiel backgammon state for any corpus position.

    The wheel's ``BackgammonState`` exposes no ``set_state``, but ``apply_action``
    does not check legality and the engine keeps plain per-point counters, so a
    position can be reached by replaying crafted single-checker steps with
    chosen dice.  Checkers only move forward, so checkers that must end further
    back (or on the bar) are sent there by deliberate hits.  Counters may be
    negative in between; only the final state matters, and it is read back.

    The player on roll is OpenSpiel's O (player 1): O's point ``n`` is board
    index ``n - 1``, the same numbering as our array.  X (player 0) is the
    opponent: X's own point ``m`` is index ``24 - m``.
    """

    START = ((24, 2), (13, 5), (8, 3), (6, 5))  # each side, (own point, checkers)
    PASS = 25 * 26 + 25

    def __init__(self, pyspiel) -> None:
        try:
            self.game = pyspiel.load_game("backgammon", {"max_player_turns": 10**6})
        except Exception:  # noqa: BLE001 - older versions: no turn limit, no parameter
            self.game = pyspiel.load_game("backgammon")
        s0 = self.game.new_initial_state()
        # The chance encodings changed between OpenSpiel versions: learn them.
        self.first: dict[tuple[int, tuple[int, int]], int] = {}
        for o, _ in s0.chance_outcomes():
            c = s0.child(o)
            self.first.setdefault((c.current_player(), self.dice_of(c)), o)
        c = s0.child(s0.chance_outcomes()[0][0])
        c.apply_action(c.legal_actions()[0])
        self.roll: dict[tuple[int, int], int] = {}
        for o, _ in c.chance_outcomes():
            self.roll.setdefault(self.dice_of(c.child(o)), o)
        if len(self.roll) != 21 or len(self.first) != 30:
            raise BuildError(f"unexpected chance outcomes: {len(self.roll)} rolls, "
                             f"{len(self.first)} opening rolls")

    @staticmethod
    def dice_of(state) -> tuple[int, int]:
        m = re.search(r"Dice: (\d)(\d)", str(state))
        if not m:
            raise BuildError("cannot read the dice of a state")
        d = sorted((int(m.group(1)), int(m.group(2))), reverse=True)
        return (d[0], d[1])

    # -- planning, on a mirror of OpenSpiel's counters -------------------------

    def build(self, board: Board, dice: tuple[int, int]):
        tgt = [[0] * 26, [0] * 26]  # [player][own point]; 0 = off, 25 = bar
        for i in range(1, 25):
            if board[i] > 0:
                tgt[1][i] = board[i]
            elif board[i] < 0:
                tgt[0][25 - i] = -board[i]
        tgt[1][25] = board[25]
        tgt[0][25] = -board[0]
        for p in (0, 1):
            tgt[p][0] = 15 - sum(tgt[p][1:])
        cnt = [[0] * 26, [0] * 26]
        for p in (0, 1):
            for n, k in self.START:
                cnt[p][n] = k
        plan: list[tuple[int, int, int]] = []

        def hop(p: int, n: int, d: int, must_hit: bool = False) -> None:
            dest = n - d
            cnt[p][n] -= 1
            hit = False
            if dest <= 0:
                cnt[p][0] += 1
            else:
                cnt[p][dest] += 1
                if cnt[1 - p][25 - dest] == 1:
                    cnt[1 - p][25 - dest] = 0
                    cnt[1 - p][25] += 1
                    hit = True
            if hit != must_hit:
                raise BuildError(f"planning error: hit={hit} at step {(p, n, d)}")
            plan.append((p, n, d))

        def slack(p: int, k: int) -> int:  # surplus of checkers at points >= k
            return sum(cnt[p][n] - tgt[p][n] for n in range(k, 26))

        def lands_on_blot(p: int, dest: int) -> bool:
            return 1 <= dest <= 24 and cnt[1 - p][25 - dest] == 1

        # 1. Checkers that must end on the bar: V steps from y to a point z where
        #    it has no checker, H steps from w onto z and hits.  Net: V y -> bar,
        #    H w -> z.  Points where H already has checkers (and so keeps no
        #    blot) and sources with surplus checkers are preferred.
        def surplus(p: int, n: int) -> int:
            return cnt[p][n] - tgt[p][n]

        for v in (0, 1):
            h = 1 - v
            while cnt[v][25] < tgt[v][25]:
                best = None
                # Sources stay below the 24-points, so that the 24- and 1-points
                # keep what step 2 relies on.
                for z in range(3, 22):
                    zh = 25 - z
                    if cnt[v][z] != 0 or cnt[h][zh] == 1:
                        continue
                    y = max(range(z + 1, min(z + 6, 23) + 1), key=lambda n: surplus(v, n))
                    w = max(range(zh + 1, min(zh + 6, 23) + 1), key=lambda n: surplus(h, n))
                    score = ((cnt[h][zh] >= 1) * 4 + (surplus(v, y) > 0) * 2
                             + (surplus(h, w) > 0) + (tgt[v][y] > 0 or tgt[h][25 - y] == 0)
                             + (tgt[h][w] > 0 or tgt[v][25 - w] == 0))
                    if best is None or score > best[0]:
                        best = (score, z, y, w)
                if best is None:
                    raise BuildError("no point to put a checker on the bar from")
                _, z, y, w = best
                hop(v, y, y - z)
                hop(h, w, w - (25 - z), must_hit=True)

        # 2. Backward jumps until each side's checkers are never "ahead" of the
        #    target: P steps 2 -> 1, H enters on it and hits; H steps 2 -> 1 and
        #    P enters on H's 1-point (P's 24) and hits.  Net: one P checker
        #    2 -> 24 and one H checker 2 -> 24; nobody ends on the bar.
        for _ in range(400):
            short = [(p, k) for p in (0, 1) for k in range(1, 25) if slack(p, k) < 0]
            if not short:
                break
            p, _k = short[0]
            h = 1 - p
            if cnt[p][1] != 0 or cnt[h][1] != 0 or cnt[h][24] == 1 or cnt[p][24] == 1:
                raise BuildError("backward jump not possible")
            hop(p, 2, 1)
            hop(h, 25, 1, must_hit=True)
            hop(h, 2, 1)
            hop(p, 25, 1, must_hit=True)
        else:
            raise BuildError("too many backward jumps")

        # 3. Forward transfers: surplus checkers (from the back) fill deficits.
        pending: list[tuple[int, int, int]] = []
        for p in (0, 1):
            if cnt[p][25] != tgt[p][25]:
                raise BuildError("planning error: bar")
            stack: list[int] = []
            for n in range(25, -1, -1):
                diff = cnt[p][n] - tgt[p][n]
                if diff > 0:
                    stack.extend([n] * diff)
                for _ in range(-diff):
                    if not stack:
                        raise BuildError("planning error: no surplus")
                    pending.append((p, stack.pop(), n))

        def path(p: int, src: int, dst: int) -> list[int] | None:
            prev: dict[int, tuple[int, int]] = {}
            queue = deque([src])
            seen = {src}
            while queue:
                n = queue.popleft()
                for d in range(1, 7):
                    m = n - d
                    done = (m == dst) or (dst == 0 and m < 0)
                    if not done and (m < max(dst, 1) or m in seen):
                        continue
                    if m >= 1 and lands_on_blot(p, m):
                        continue
                    if done:
                        steps = [d]
                        while n != src:
                            n, d = prev[n]
                            steps.append(d)
                        return steps[::-1]
                    seen.add(m)
                    prev[m] = (n, d)
                    queue.append(m)
            return None

        # Refills of points that the other side will occupy go first, before
        # one of its checkers arrives there alone.
        pending.sort(key=lambda t: -tgt[1 - t[0]][25 - t[2]] if 1 <= t[2] <= 24 else 0)
        while pending:
            progress = False
            for item in list(pending):
                p, src, dst = item
                steps = path(p, src, dst)
                if steps is None:
                    continue
                n = src
                for d in steps:
                    hop(p, n, d)
                    n -= d
                pending.remove(item)
                progress = True
            if progress:
                continue
            # Blocked, e.g. each side's target point holds the other's blot: move
            # a lone checker part of its way to let the other side land.
            for k, (p, src, dst) in sorted(enumerate(pending),
                                           key=lambda e: cnt[e[1][0]][e[1][1]] != 1):
                for d in range(1, 7):
                    m = src - d
                    if dst < m and not lands_on_blot(p, m):
                        hop(p, src, d)
                        pending[k] = (p, m, dst)
                        progress = True
                        break
                if progress:
                    break
            if not progress:
                raise BuildError("blocked transfers")
        if cnt != tgt:
            raise BuildError("planning error: final counts")
        return self.replay(plan, board, dice)

    # -- emitting OpenSpiel actions --------------------------------------------

    @staticmethod
    def enc(p: int, n: int) -> int:
        if n == 25:
            return 24  # bar
        return n - 1 if p == 1 else 24 - n

    def replay(self, plan: list[tuple[int, int, int]], board: Board, dice: tuple[int, int]):
        actions: list[int] = []
        nxt: int | None = None  # whose turn follows the next chance node

        def chance(p: int, pair: tuple[int, int]) -> None:
            nonlocal nxt
            if nxt is None:
                actions.append(self.first[(p, pair)])
            else:
                if nxt != p:  # the other side passes a turn
                    actions.append(self.roll[(2, 1)])
                    actions.append(self.PASS)
                actions.append(self.roll[pair])
            nxt = 1 - p

        i = 0
        while i < len(plan):
            p, n, d = plan[i]
            two = (i + 1 < len(plan) and plan[i + 1][0] == p and plan[i + 1][2] != d)
            if two:
                _, n2, d2 = plan[i + 1]
                pair = (max(d, d2), min(d, d2))
                dig1 = self.enc(p, n2)
                i += 2
            else:
                other = 1 if d != 1 else 2
                pair = (max(d, other), min(d, other))
                dig1 = 25
                i += 1
            chance(p, pair)
            actions.append(dig1 * 26 + self.enc(p, n) + (0 if d == pair[0] else 676))
        # O (player 1) is on roll with the corpus dice.
        if nxt is None:
            actions.append(self.first[(0, (2, 1))])
            actions.append(self.PASS)
        elif nxt == 0:
            actions.append(self.roll[(2, 1)])
            actions.append(self.PASS)
        actions.append(self.roll[(max(dice), min(dice))])

        state = self.game.new_initial_state()
        for a in actions:
            state.apply_action(a)
        if state.current_player() != 1 or self.dice_of(state) != (max(dice), min(dice)):
            raise BuildError("built state has the wrong player or dice")
        if read_board(state) != tuple(board):
            raise BuildError(f"built state reads back as {read_board(state)}")
        off = re.search(r"Scores, X: (-?\d+), O: (-?\d+)", str(state))
        want = (15 + sum(v for v in board if v < 0), 15 - sum(v for v in board if v > 0))
        if not off or (int(off.group(1)), int(off.group(2))) != want:
            raise BuildError("built state has the wrong borne-off counts")
        return state, len(actions)


def read_board(state) -> tuple[int, ...]:
    """An OpenSpiel state in our convention, O (player 1) on roll."""
    a = [0] * 26
    for i in range(1, 25):
        a[i] = state.board(1, i - 1) - state.board(0, i - 1)
    a[25] = state.board(1, 100)  # kBarPos
    a[0] = -state.board(0, 100)
    return tuple(a)


def _board_key(state) -> str:
    """A cheap exact key of the checkers (board, bar, borne off) of a state."""
    s = str(state)
    return s[: s.index("Turn:")] + s[s.index("Bar:"):]


def openspiel_results(state, key=_board_key) -> set:
    """Distinct positions after the whole turn (both halves of a double)."""
    player = state.current_player()
    out = set()
    stack = [state]
    while stack:
        s = stack.pop()
        for a in s.legal_actions():
            c = s.child(a)
            if c.current_player() == player:  # second half of a double
                stack.append(c)
            else:
                out.add(key(c))
    return out


def run_openspiel(corpus: Corpus, rows: list[int], ours: Ours, args) -> dict[str, Any] | None:
    print("\n== OpenSpiel (pyspiel 'backgammon') ==")
    try:
        import pyspiel
    except ImportError as exc:
        print(f"  skipped: cannot import pyspiel ({exc}); pip install open_spiel")
        return None
    print(f"  version {_dist_version('open_spiel')}, {pyspiel.__file__}")
    try:
        builder = OpenSpielBuilder(pyspiel)
    except Exception as exc:  # noqa: BLE001 - an unknown OpenSpiel version
        print(f"  skipped: cannot drive this OpenSpiel version ({exc})")
        return None
    t0 = time.perf_counter()
    states, built, failed, n_actions = [], [], [], 0
    for i in rows:
        try:
            state, n = builder.build(corpus.boards[i], corpus.dice[i])
        except Exception as exc:  # noqa: BLE001 - report, do not hide
            failed.append((i, str(exc)[:120]))
            continue
        states.append(state)
        built.append(i)
        n_actions += n
    print(f"  built {len(built)} of {len(rows)} corpus positions in "
          f"{time.perf_counter() - t0:.1f} s ({n_actions} replayed actions, not timed)")
    for i, why in failed[:8]:
        print(f"    could not build row {i}: {why}")
    if not built:
        return None

    bad = []
    for i, s in zip(built, states):
        got = openspiel_results(s, key=read_board)
        if got != corpus.result_set(i):
            bad.append((i, len(got), corpus.counts[i], "(different positions)"))
    report_disagreements("OpenSpiel", bad, corpus, len(built))

    total = sum(len(openspiel_results(s)) for s in states)
    n_legal = sum(len(s.legal_actions()) for s in states)

    def positions() -> int:
        n = 0
        for s in states:
            n += len(openspiel_results(s))
        return n

    def calls() -> int:
        n = 0
        for s in states:
            n += len(s.legal_actions())
        return n

    t_pos = measure("OpenSpiel: whole turn, distinct results", positions,
                    {"positions": total}, 3, args.min_time)
    t_calls = measure("OpenSpiel: legal_actions() loop", calls,
                      {"actions": n_legal, "calls": len(states)},
                      args.min_rounds, args.min_time)
    o = ours.timings(built)
    print_table([o["successors"], o["batch"], t_calls, t_pos])
    ratios = print_ratios([
        ("successors vs legal_actions, calls/s", o["successors"], t_calls, "calls"),
        ("successors vs whole turn, positions/s", o["successors"], t_pos, "positions"),
        ("batch_successors vs whole turn, positions/s", o["batch"], t_pos, "positions"),
    ])
    print("  note: an OpenSpiel action is half a turn and legal_actions() of a double "
          "lists only the first half, so calls/s is not the same work as a successors "
          "call; the positions/s ratios are (children built with State.child, "
          "distinct boards kept).")
    return {"rows": len(built), "not_built": len(failed), "disagreements": len(bad),
            "peer": [t_calls.as_dict(), t_pos.as_dict()],
            "ours": {k: v.as_dict() for k, v in o.items()}, "ratios": ratios}


# ---------------------------------------------------------------------------
# Rollouts: whole games from the opening position


ROLLOUT_SEED = 2026
SANITY_GAMES = 1296 * 20  # our P(win) for the check: 25,920 games, stratified
ROLLS = tuple((a, b) for a in range(1, 7) for b in range(1, 7))  # 36, doubles once


class Tally:
    """Outcomes of a peer's games, from the side of the player on roll at the start."""

    def __init__(self) -> None:
        self.games = self.wins = self.win_gammons = self.lose_gammons = 0
        self.plies = self.unfinished = 0

    def record(self, won: bool, gammon: bool, plies: int) -> None:
        """One finished game: won by the starting player or not, a gammon or not."""
        self.plies += plies
        if won:
            self.wins += 1
            self.win_gammons += gammon
        else:
            self.lose_gammons += gammon

    def add(self, other: Tally) -> None:
        for k, v in vars(other).items():
            setattr(self, k, getattr(self, k) + v)

    def p_win(self) -> tuple[float, float]:
        """P(win) and its binomial standard error (unfinished games count as not won)."""
        p = self.wins / self.games
        return p, math.sqrt(p * (1 - p) / self.games)

    def as_dict(self) -> dict[str, Any]:
        p, se = self.p_win()
        return {"games": self.games, "win": p, "win_stderr": se,
                "win_gammon": self.win_gammons / self.games,
                "lose_gammon": self.lose_gammons / self.games,
                "mean_plies": self.plies / self.games, "unfinished": self.unfinished}


def gnubg_start() -> tuple[tuple[int, ...], tuple[int, ...]]:
    side = [0] * 25
    for point, n in OpenSpielBuilder.START:
        side[point - 1] = n
    return tuple(side), tuple(side)


def gnubg_random_games(gnubg_nn, n: int, rng: random.Random) -> Tally:
    """``n`` games, each player choosing uniformly among the distinct positions
    ``gnubg_nn.moves`` returns; dice from ``rng``.  A ply is one roll (passes count)."""
    moves, from_key, choice = gnubg_nn.moves, gnubg_nn.board_from_position_key, rng.choice
    start_opp, start_me = gnubg_start()
    t = Tally()
    for _ in range(n):
        opp, me = start_opp, start_me  # gnubg order: not on roll, on roll
        side = 0  # 0: the player on roll at the start
        plies = 0
        while True:
            d1, d2 = choice(ROLLS)
            plies += 1
            keys = moves((opp, me), d1, d2)
            if keys:
                opp, me = from_key(choice(keys))
                if not any(me):
                    break
            opp, me = me, opp  # () : the turn passes
            side ^= 1
        t.record(side == 0, sum(opp) == 15, plies)
    t.games = n
    return t


def gnubg_pubeval_games(gnubg_nn, n: int, rng: random.Random, check: bool = False) -> Tally:
    """``n`` games, both players playing ``gnubg_nn.pub_best_move`` (gnubg's pubeval).

    It returns the play as ``[from, to, ...]`` (0-based points of the mover,
    24 = bar, -1 = off; ``[]`` when nothing can move), applied here, hits
    included.  ``check`` verifies every resulting position against
    ``gnubg_nn.moves`` (slow; the timed runs do not)."""
    best, choice = gnubg_nn.pub_best_move, rng.choice
    start_opp, start_me = gnubg_start()
    t = Tally()
    for _ in range(n):
        opp, me = list(start_opp), list(start_me)
        side = 0
        plies = 0
        while True:
            d1, d2 = choice(ROLLS)
            plies += 1
            play = best([opp, me], d1, d2)
            if check:
                keys = gnubg_nn.moves([opp, me], d1, d2)
            for i in range(0, len(play), 2):
                src, dst = play[i], play[i + 1]
                me[src] -= 1
                if dst >= 0:
                    me[dst] += 1
                    if opp[23 - dst] == 1:  # a blot: hit it
                        opp[23 - dst] = 0
                        opp[24] += 1
            if check and (gnubg_nn.key_of_board([opp, me]) not in keys if keys else play):
                raise AssertionError(f"pub_best_move play {play} with {d1}-{d2} gives a "
                                     f"position that moves() does not list")
            if play and not any(me):
                break
            opp, me = me, opp
            side ^= 1
        t.record(side == 0, sum(opp) == 15, plies)
    t.games = n
    return t


def openspiel_random_games(game, n: int, rng: random.Random) -> Tally:
    """``n`` OpenSpiel games from the initial state, uniform over ``legal_actions()``
    (half turns), chance nodes drawn from ``chance_outcomes()``.  The player on
    roll "at the start" is the one the opening roll lets move first; a ply is a
    decision (a double is two)."""
    choice, uniform = rng.choice, rng.random
    t = Tally()
    for _ in range(n):
        s = game.new_initial_state()
        first = None
        plies = 0
        while not s.is_terminal():
            if s.is_chance_node():
                x = uniform()
                for a, p in s.chance_outcomes():
                    x -= p
                    if x < 0:
                        break
                s.apply_action(a)
            else:
                if first is None:
                    first = s.current_player()
                plies += 1
                s.apply_action(choice(s.legal_actions()))
        r = s.returns()
        if r[0] == r[1]:  # the turn limit ended it: a draw
            t.plies += plies
            t.unfinished += 1
            continue
        # Checkers borne off, X (player 0) and O (player 1): the loser's 0 is a gammon.
        off = re.search(r"Scores, X: (\d+), O: (\d+)", str(s))
        gammon = off is not None and int(off.group(2 if r[0] > 0 else 1)) == 0
        t.record(r[first] > 0, gammon, plies)
    t.games = n
    return t


def sanity_win(name: str, ours, peer: Tally, assert_it: bool = True) -> dict[str, Any]:
    """Our P(win) (``ours``: an Estimate) against the peer's, in standard errors."""
    p, se = peer.p_win()
    diff = ours.value - p
    comb = math.hypot(ours.stderr, se)
    z = diff / comb if comb > 0 else 0.0
    ok = abs(z) <= 4
    verdict = ("agree (within 4 standard errors)" if ok else "DISAGREE (beyond 4 standard errors)"
               ) if assert_it else "not expected to agree (different policy)"
    print(f"  P(win) {name}: ours {ours.value:.4f} +- {ours.stderr:.4f}, peer {p:.4f} +- "
          f"{se:.4f} ({peer.games} games, binomial): difference {diff:+.4f} = {z:+.1f} "
          f"standard errors: {verdict}")
    return {"ours": ours.value, "ours_stderr": ours.stderr, "peer": p, "peer_stderr": se,
            "z": z, "within_4_se": ok, "asserted": assert_it}


def measure_cpu(label: str, fn: Callable[[], int], work: dict[str, int],
                min_rounds: int, min_time: float) -> Timing:
    """``measure``, also recording this process's CPU time of each timed round
    (``timing.cpu``).  On a shared machine other load slows the wall clock of
    a round but hardly its CPU time, so ratios of CPU times are the steadier
    check of the wall-clock ratios."""
    cpu: list[float] = []

    def timed() -> int:
        c0 = time.process_time()
        got = fn()
        cpu.append(time.process_time() - c0)
        return got

    timing = measure(label, timed, work, min_rounds, min_time)
    timing.cpu = cpu[1:]  # type: ignore[attr-defined]  # without the warm-up call
    return timing


def cpu_rate(t: Timing, unit: str) -> float:
    return t.work[unit] / statistics.median(t.cpu)  # type: ignore[attr-defined]


def cpu_timing_dict(t: Timing) -> dict[str, Any]:
    return dict(t.as_dict(), cpu_median_s=statistics.median(t.cpu))  # type: ignore[attr-defined]


def print_cpu_ratios(pairs: list[tuple[str, Timing, Timing, str]]) -> dict[str, float]:
    """The same ratios by CPU time of the rounds, and the share of the wall clock
    each measurement got (< 100%: other processes took the core)."""
    out = {}
    for name, ours, peer, unit in pairs:
        ratio = cpu_rate(ours, unit) / cpu_rate(peer, unit)
        out[name] = ratio
        share = [statistics.median(t.cpu) / t.median for t in (ours, peer)]  # type: ignore[attr-defined]
        print(f"  by CPU time {name:<38} {ratio:8.1f}x  ({fmt_rate(cpu_rate(ours, unit))}{unit}"
              f"/CPU-s vs {fmt_rate(cpu_rate(peer, unit))}{unit}/CPU-s; CPU/wall "
              f"{share[0]:.0%} and {share[1]:.0%})")
    return out


def peer_games(label: str, play: Callable[[int], Tally], games: int, args) -> tuple[Timing, Tally]:
    """Time ``play(games)`` (warm-up and 3 rounds at least); the games of every
    round, warm-up included, are pooled for the P(win) check."""
    total = Tally()

    def one() -> int:
        t = play(games)
        total.add(t)
        return t.games

    timing = measure_cpu(label, one, {"games": games}, 3, args.min_time)
    return timing, total


def run_rollouts(bg, args) -> dict[str, Any]:
    print("\n== Rollouts of the opening position ==")
    n = args.rollout_games
    start = bg.Position.initial()
    print(f"  {n} games a round, player on roll at the start rolls first (any of 36 "
          f"rolls); ours: workers=1, seed {ROLLOUT_SEED}; peers: Python's random, "
          f"seed {ROLLOUT_SEED}")
    out: dict[str, Any] = {"games_per_round": n}
    ours: dict[str, Timing] = {}
    check: dict[str, Any] = {}
    for policy in ("random", "pubeval"):
        def one(policy: str = policy) -> int:
            return bg.rollout(start, games=n, policy=policy, seed=ROLLOUT_SEED,
                              workers=1).games

        ours[policy] = measure_cpu(f"ours: rollout {policy}, workers=1", one, {"games": n},
                                   args.min_rounds, args.min_time)
        check[policy] = bg.rollout(start, games=max(n, SANITY_GAMES), policy=policy,
                                   seed=ROLLOUT_SEED, workers=1)
    print_table(list(ours.values()))
    for policy, r in check.items():
        print(f"  ours, {policy}, {r.games} games: P(win) {r.win.value:.4f} +- "
              f"{r.win.stderr:.4f}, gammons {r.win_gammon.value:.4f} / "
              f"{r.lose_gammon.value:.4f}, {r.mean_plies:.1f} plies a game")
    out["ours"] = {p: cpu_timing_dict(t) for p, t in ours.items()}
    out["ours_check"] = {p: r.to_dict() for p, r in check.items()}

    if "gnubg" not in args.skip:
        out["gnubg_nn"] = rollout_gnubg(args, ours, check)
    if "openspiel" not in args.skip:
        out["open_spiel"] = rollout_openspiel(args, ours, check)
    return out


def _print_tally(name: str, t: Tally) -> None:
    p, se = t.p_win()
    print(f"  {name}, {t.games} games: P(win) {p:.4f} +- {se:.4f}, gammons "
          f"{t.win_gammons / t.games:.4f} / {t.lose_gammons / t.games:.4f}, "
          f"{t.plies / t.games:.1f} plies a game"
          + (f", {t.unfinished} unfinished" if t.unfinished else ""))


def rollout_gnubg(args, ours: dict[str, Timing], check) -> dict[str, Any] | None:
    print("\n  -- gnubg-nn: Python loop over gnubg_nn.moves / gnubg_nn.pub_best_move --")
    try:
        import gnubg_nn
    except ImportError as exc:
        print(f"  skipped: cannot import gnubg_nn ({exc}); pip install gnubg-nn")
        return None
    n = args.rollout_games
    rng = random.Random(ROLLOUT_SEED)
    gnubg_pubeval_games(gnubg_nn, 20, random.Random(-ROLLOUT_SEED), check=True)
    print("  checked: 20 pubeval games, every pub_best_move play applied here is one "
          "of the positions gnubg_nn.moves lists")
    t_rand, tally_rand = peer_games("gnubg-nn: random, Python loop",
                                    lambda k: gnubg_random_games(gnubg_nn, k, rng), n, args)
    t_pub, tally_pub = peer_games("gnubg-nn: pubeval, Python loop",
                                  lambda k: gnubg_pubeval_games(gnubg_nn, k, rng), n, args)
    print_table([ours["random"], t_rand, ours["pubeval"], t_pub])
    pairs = [("rollout random, games/s", ours["random"], t_rand, "games"),
             ("rollout pubeval, games/s", ours["pubeval"], t_pub, "games")]
    ratios = print_ratios(pairs)
    cpu_ratios = print_cpu_ratios(pairs)
    _print_tally("gnubg-nn random", tally_rand)
    _print_tally("gnubg-nn pubeval", tally_pub)
    sanity = {"random": sanity_win("random, ours vs gnubg-nn", check["random"].win, tally_rand),
              "pubeval": sanity_win("pubeval, ours vs gnubg-nn", check["pubeval"].win,
                                    tally_pub)}
    return {"peer": {"random": cpu_timing_dict(t_rand), "pubeval": cpu_timing_dict(t_pub)},
            "peer_outcomes": {"random": tally_rand.as_dict(), "pubeval": tally_pub.as_dict()},
            "ratios": ratios, "cpu_ratios": cpu_ratios, "p_win": sanity}


def rollout_openspiel(args, ours: dict[str, Timing], check) -> dict[str, Any] | None:
    print("\n  -- OpenSpiel: random playouts of pyspiel.load_game('backgammon') --")
    try:
        import pyspiel
    except ImportError as exc:
        print(f"  skipped: cannot import pyspiel ({exc}); pip install open_spiel")
        return None
    game = pyspiel.load_game("backgammon")
    print(f"  game parameters {game.get_parameters()}")
    n = args.rollout_games
    rng = random.Random(ROLLOUT_SEED)
    t_rand, tally = peer_games("OpenSpiel: random playouts",
                               lambda k: openspiel_random_games(game, k, rng), n, args)
    print_table([ours["random"], t_rand])
    pairs = [("rollout random, games/s", ours["random"], t_rand, "games")]
    ratios = print_ratios(pairs)
    cpu_ratios = print_cpu_ratios(pairs)
    print("  note: OpenSpiel has no pubeval.  Its random policy is uniform over "
          "half-turn actions (legal_actions()), not over distinct plays, and its game "
          "opens with a non-double roll, so its P(win) is a different quantity: "
          "reported, not checked.  Its plies are decisions (a double is two).")
    _print_tally("OpenSpiel random (first mover)", tally)
    sanity = sanity_win("random, ours vs OpenSpiel", check["random"].win, tally,
                        assert_it=False)
    return {"peer": {"random": cpu_timing_dict(t_rand)}, "peer_outcomes": {"random": tally.as_dict()},
            "ratios": ratios, "cpu_ratios": cpu_ratios, "p_win": sanity}


# ---------------------------------------------------------------------------
# The neural evaluator against gnubg


def nn_positions(bg, n: int, seed: int) -> np.ndarray:
    """n distinct positions (player on roll, both sides playing) from random games."""
    rng = random.Random(seed)
    seen: set[bytes] = set()
    out: list[np.ndarray] = []
    while len(out) < n:
        pos = bg.Position.initial()
        for _ in range(400):
            res = pos.successors((rng.randint(1, 6), rng.randint(1, 6)))
            pos = bg.Position.from_array(res[rng.randrange(len(res))]).swapped()
            if pos.outcome() is not None:
                break
            key = pos.to_array().tobytes()
            if key not in seen:
                seen.add(key)
                out.append(pos.to_array())
    return np.array(out[:n], np.int8)


_GNUBG_ROLLOUT = r"""
import sys, time
import gnubg
n = int(sys.argv[1])
for c in ["set threads 1", "set player 0 human", "set player 1 human",
          "set automatic roll off", "new game", "set dice 3 1", "move 8 5 6 5",
          "set board 4HPwATDgc/ABMA", f"set rollout trials {n}", "set rollout cubeful off",
          "set rollout chequerplay plies 0", "set rollout varredn off"]:
    gnubg.command(c)
t, c = time.perf_counter(), time.process_time()
gnubg.command("rollout")
sys.stderr.write(f"@@seconds {time.perf_counter() - t} {time.process_time() - c}\n")
"""


def gnubg_rollout_seconds(n: int) -> tuple[float, float] | None:
    """(wall, CPU) seconds of gnubg's rollout of n games, in a fresh process."""
    import subprocess
    proc = subprocess.run([sys.executable, "-c", _GNUBG_ROLLOUT, str(n)], capture_output=True,
                          text=True, timeout=3600)
    m = re.search(r"@@seconds ([0-9.eE+-]+) ([0-9.eE+-]+)", proc.stderr)
    if not m:
        print(f"  gnubg rollout failed: {proc.stderr[-500:]}")
        return None
    return float(m.group(1)), float(m.group(2))


def nn_points(res: tuple[int, ...]) -> int:
    """Points won by the side that just moved into res (26 ints, its view), or 0."""
    if any(v > 0 for v in res[1:26]):
        return 0
    if sum(-v for v in res if v < 0) < 15:
        return 1
    return 3 if res[0] < 0 or any(res[p] < 0 for p in range(1, 7)) else 2


def nn_vs_gnubg(bg, gnubg_nn, pairs: int, seed: int, check: int = 0,
                ev=None) -> dict[str, Any]:
    """Duplicate-dice games of our 0-ply best play (by ``ev``, default: the
    bundled nets) against gnubg_nn.best_move."""
    totals, wins, gammons, plies = [], [0, 0], [0, 0], 0
    for k in range(pairs):
        pair = 0
        for seat in (0, 1):
            rng = random.Random(seed * 1_000_003 + k)
            pos = bg.Position.initial()
            for ply in range(10_000):
                d1, d2 = rng.randint(1, 6), rng.randint(1, 6)
                ours = (ply % 2) == seat
                if ours:
                    res = pos.best_play((d1, d2), evaluator=ev).result
                else:
                    moves = gnubg_nn.best_move(to_gnubg(pos.tolist()), d1, d2)
                    res = pos.play(list(moves), (d1, d2)) if moves else pos
                    if k < check:  # gnubg's play is legal
                        assert res in pos.legal_plays((d1, d2)), (pos, (d1, d2), moves)
                pts = nn_points(tuple(res.tolist()))
                if pts:
                    plies += ply + 1
                    side = 0 if ours else 1
                    wins[side] += 1
                    gammons[side] += pts >= 2
                    pair += pts if ours else -pts
                    break
                pos = res.swapped()
        totals.append(pair)
    t = np.array(totals, np.float64)
    ppg = t.mean() / 2
    se = t.std(ddof=1) / math.sqrt(len(t)) / 2 if len(t) > 1 else 0.0
    return {"pairs": pairs, "games": 2 * pairs, "ppg": ppg, "stderr": se, "wins": wins,
            "gammons": gammons, "mean_plies": plies / (2 * pairs)}


def run_nn(bg, args) -> dict[str, Any]:
    print("\n== The neural evaluator (docs/nn.md) ==")
    policy = args.nn_nets   # "net" (Evaluator.default), "fast", "strong" or a nets file
    named = policy in ("net", "fast", "strong")
    ev = bg.Evaluator.named(policy) if named else bg.Evaluator.load(policy)
    played = "net" if policy == "net" else ev   # rollout and duel take "net" or an Evaluator
    from backgammon import _bgcore
    print(f"  {ev!r}; AVX2 kernels: {_bgcore.NN_AVX2}")
    out: dict[str, Any] = {}
    n = args.nn_positions
    rounds = max(args.min_rounds, 3)
    pool = nn_positions(bg, n * (rounds + 1), seed=2026)
    mine = pool[:n]
    ev.evaluate_batch(mine)
    t_ours = measure_cpu(f"ours: evaluate_batch of {n} positions", lambda: len(ev.evaluate_batch(mine)),
                         {"positions": n}, args.min_rounds, args.min_time)
    print_table([t_ours])
    out["eval_ours"] = cpu_timing_dict(t_ours)
    gnubg_nn = None
    if "gnubg" not in args.skip:
        try:
            import gnubg_nn
        except ImportError as exc:
            print(f"  gnubg-nn skipped: cannot import gnubg_nn ({exc}); pip install gnubg-nn")
    if gnubg_nn is not None:
        boards = [to_gnubg(b.tolist()) for b in pool]
        diff = max(abs(a - b) for a, b in zip(gnubg_nn.probabilities(boards[0], 0),
                                              ev.evaluate(pool[0].tolist()).probabilities))
        print(f"  (one position: gnubg-nn and our outputs differ by {diff:.3f} at most)")
        state = {"next": n}

        def gnubg_round() -> int:
            lo = state["next"] % len(boards)
            chunk = boards[lo:lo + n]
            state["next"] = lo + n
            for b in chunk:
                gnubg_nn.probabilities(b, 0)
            return len(chunk)

        t_g = measure_cpu(f"gnubg-nn: probabilities(board, 0), {n} new positions a round",
                          gnubg_round, {"positions": n}, rounds, 0.0)
        print_table([t_ours, t_g])
        pairs = [("0-ply evaluations/s", t_ours, t_g, "positions")]
        out["eval_gnubg_nn"] = cpu_timing_dict(t_g)
        out["eval_ratios"] = print_ratios(pairs)
        out["eval_cpu_ratios"] = print_cpu_ratios(pairs)

    g = args.nn_rollout_games
    start = bg.Position.initial()
    t_ro = measure_cpu(f"ours: rollout {policy}, {g} games, workers=1",
                       lambda: bg.rollout(start, games=g, policy=played, seed=ROLLOUT_SEED,
                                          workers=1).games, {"games": g}, 3, 0.0)
    out["rollout_ours"] = cpu_timing_dict(t_ro)
    pruned = ev.with_pruning(keep=4)   # the bundled screen (docs/nn.md, "Pruning")
    t_rp = measure_cpu(f"ours: rollout {policy}+prune4, {g} games, workers=1",
                       lambda: bg.rollout(start, games=g, policy=pruned, seed=ROLLOUT_SEED,
                                          workers=1).games, {"games": g}, 3, 0.0)
    out["rollout_ours_prune4"] = cpu_timing_dict(t_rp)
    if "gnubg" not in args.skip:
        secs = []
        for _ in range(3):
            s_ = gnubg_rollout_seconds(g)
            if s_ is None:
                break
            secs.append(s_)
        if secs:
            t_gr = Timing("gnubg: cubeless 0-ply rollout, threads 1", {"games": g},
                          [w for w, _ in secs])
            t_gr.cpu = [c for _, c in secs]  # type: ignore[attr-defined]
            print_table([t_ro, t_rp, t_gr])
            pairs = [(f"{policy} rollout games/s", t_ro, t_gr, "games"),
                     (f"{policy}+prune4 rollout games/s", t_rp, t_gr, "games")]
            out["rollout_gnubg"] = cpu_timing_dict(t_gr)
            out["rollout_ratios"] = print_ratios(pairs)
            out["rollout_cpu_ratios"] = print_cpu_ratios(pairs)
        else:
            print_table([t_ro, t_rp])
    else:
        print_table([t_ro, t_rp])

    p = args.nn_pairs
    r = bg.duel(played, "pubeval", games=2 * p, seed=ROLLOUT_SEED, workers=os.cpu_count())
    print(f"  strength: {r}")
    out["vs_pubeval"] = {"pairs": p, "ppg": r.ppg.value, "stderr": r.ppg.stderr}
    if gnubg_nn is not None and args.nn_gnubg_pairs:
        t0 = time.perf_counter()
        h = nn_vs_gnubg(bg, gnubg_nn, args.nn_gnubg_pairs, ROLLOUT_SEED, check=20, ev=ev)
        print(f"  head to head, our net (0-ply) vs gnubg-nn best_move (0-ply): "
              f"{h['ppg']:+.4f} ppg (std err {h['stderr']:.4f}) over {h['games']} games "
              f"({h['pairs']} duplicate pairs), wins {h['wins'][0]}-{h['wins'][1]}, "
              f"{time.perf_counter() - t0:.0f} s")
        out["vs_gnubg_nn"] = h
    return out


def _dist_version(name: str) -> str:
    try:
        from importlib.metadata import version
        return version(name)
    except Exception:  # noqa: BLE001
        return "?"


def _cpu_model() -> str:
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or platform.machine()


def main(argv: Sequence[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--limit", type=int, default=0,
                    help="use only the first N corpus rows (default: all)")
    ap.add_argument("--min-rounds", type=int, default=5,
                    help="at least this many timed rounds per measurement (default 5)")
    ap.add_argument("--min-time", type=float, default=1.0,
                    help="keep timing rounds for at least this many seconds (default 1)")
    ap.add_argument("--skip", action="append", default=[],
                    choices=["gnubg", "openspiel", "movegen", "rollout", "nn"],
                    help="skip a peer, or the move-generation or rollout comparisons "
                         "(repeatable)")
    ap.add_argument("--rollout-games", type=int, default=2000, metavar="N",
                    help="games a round in the rollout comparisons (default 2000; the "
                         "peers play a warm-up and 3 rounds, OpenSpiel about 700 games/s)")
    ap.add_argument("--perft", type=int, default=0, metavar="DEPTH",
                    help="also count perft DEPTH with gnubg_nn and compare it with "
                         "backgammon.perft (3: about 20 s)")
    ap.add_argument("--nn-positions", type=int, default=20000, metavar="N",
                    help="distinct positions a round in the evaluation comparison")
    ap.add_argument("--nn-rollout-games", type=int, default=1296, metavar="N",
                    help="games a round in the net rollout comparison (default 1296)")
    ap.add_argument("--nn-nets", default="net", metavar="NETS",
                    help="the nets the evaluator comparison measures: net "
                         "(Evaluator.default, the default), fast, strong or a nets file")
    ap.add_argument("--nn-pairs", type=int, default=20000, metavar="N",
                    help="duplicate pairs of the net against pubeval (default 20,000)")
    ap.add_argument("--nn-gnubg-pairs", type=int, default=1000, metavar="N",
                    help="duplicate pairs of the net against gnubg-nn (default 1,000; 0: none)")
    ap.add_argument("--json", type=Path, help="also write the figures to this JSON file")
    ap.add_argument("--cube", action="store_true",
                    help="also compare cube decisions with gnubg's (benchmarks/peers_cube.py)")
    peers_cube.add_arguments(ap)
    ap.add_argument("--plays", action="store_true",
                    help="also count how often our 0-ply best play is gnubg-nn's "
                         "(benchmarks/peers_plays.py)")
    peers_plays.add_arguments(ap)
    ap.add_argument("--strength", action="store_true",
                    help="also score our nets, pubeval and gnubg-nn 0-ply on the strength "
                         "benchmark's sets (benchmarks/peers_strength.py)")
    peers_strength.add_arguments(ap)
    args = ap.parse_args(argv)
    if args.rollout_games <= 0:
        ap.error("--rollout-games must be positive")

    bg = import_backgammon()
    print(f"backgammon {getattr(bg, '__version__', '?')} from {Path(bg.__file__).parent}")
    print(f"Python {platform.python_version()}, numpy {np.__version__}, "
          f"{platform.system()} {platform.machine()}, {_cpu_model()}, "
          f"{os.cpu_count()} CPUs")
    report: dict[str, Any] = {"cpu": _cpu_model(), "cpus": os.cpu_count(),
                              "python": platform.python_version()}

    if "movegen" not in args.skip:
        corpus = Corpus()
        rows = list(range(len(corpus)))
        if args.limit:
            rows = rows[: args.limit]
        print(f"corpus: {len(rows)} rows, {corpus.total(rows)} resulting positions "
              f"({MOVEGEN.relative_to(REPO)})")

        ours = Ours(bg, corpus, args.min_rounds, args.min_time)
        o = ours.timings(rows)
        print("\n== backgammon (this library) ==")
        print_table([o["batch"], o["successors"]])
        report["ours"] = {k: v.as_dict() for k, v in o.items()}
        if "gnubg" not in args.skip:
            report["gnubg_nn"] = run_gnubg(corpus, rows, ours, args)
        if "openspiel" not in args.skip:
            report["open_spiel"] = run_openspiel(corpus, rows, ours, args)
    elif args.perft and "gnubg" not in args.skip:
        try:
            import gnubg_nn
        except ImportError as exc:
            print(f"perft skipped: cannot import gnubg_nn ({exc})")
        else:
            report["perft"] = check_perft(bg, gnubg_nn, args.perft)
    if "rollout" not in args.skip:
        report["rollout"] = run_rollouts(bg, args)
    if "nn" not in args.skip:
        report["nn"] = run_nn(bg, args)
    if args.cube:
        report["cube"] = peers_cube.run(bg, args)
    if args.plays:
        report["plays"] = peers_plays.run(bg, args)
    if args.strength:
        report["strength"] = peers_strength.run(bg, args)
    if args.json:
        args.json.write_text(json.dumps(report, indent=2) + "\n")
        print(f"\nwrote {args.json}")
    return 0

if __name__ == "__main__":
    sys.exit(main())
