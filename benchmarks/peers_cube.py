"""Cube decisions side by side with GNU Backgammon: same 0-ply chances in, same decision out?

    python benchmarks/peers_cube.py [--cube-positions N] [--cube-seed S] [--cube-worst K]
                                    [--json OUT]
    python benchmarks/compare_peers.py --cube --skip movegen --skip rollout  # the same, as a section

For a few hundred positions (the opening and positions from seeded self-play
games of this library: contact, race and bear-off) and a set of cube states
(money: centred, owned, opponent-owned, Jacoby, beavers; a 7-point match at
several scores, Crawford and post-Crawford), gnubg's own 0-ply cube analysis is
read, its 0-ply cubeless chances are fed into
``backgammon.CubeDecision.from_chances`` and the two decisions are compared:
the proper action, and No double / Double, take / Double, pass (money: cubeful
equity per unit of the current stake, as gnubg prints it; match: match winning
chances, and gnubg's normalised equity through its own ``gnubg.mwc2eq``).  The
match equity table is checked too: ours against ``gnubg.met()`` and against the
Kazaross-XG2 XML shipped in the gnubg wheel.

Peers (measurement only; never imported by the package or its tests):

* ``gnubg`` (PyPI 1.1.0a16, the full engine as a module) gives the decisions.
  Its ``gnubg.hint()`` refuses cube hints ("not yet implemented") and
  ``gnubg.evaluate(board, cubeinfo, evalcontext)`` returns the cubeless
  chances and cubeless equity whatever the context's ``cubeful`` flag, so the
  decision is read from the text of the ``eval`` command: the game state is
  set with ``set gnubgid POSITIONID:MATCHID`` (``gnubg.gnubgid(board,
  cubeinfo, posinfo)`` with the dice not rolled; ``cubeinfo["jacoby"]`` sets
  the Match ID's Jacoby bit, the only way found to turn Jacoby off: ``set
  jacoby off`` after ``set gnubgid`` does not change an evaluation already
  cached), then ``eval`` prints the evaluator class, the static chances with
  the 0-ply cubeful equity of the current cube, and a "Cube analysis" block
  (No double, Double/take, Double/pass, "Proper cube action: ...") when the
  player on roll may double.  ``set threads 1`` is needed first (with more
  threads ``eval`` hangs in this build), ``set output digits 6`` gives six
  decimals and ``set output mwc on`` match winning chances.  The C library
  writes to file descriptor 1, so the text is captured by redirecting it.
  Each cube state runs in a fresh process: gnubg's evaluation cache does not
  key on the Jacoby flag.  The chances fed to us come from
  ``gnubg.evaluate`` at 0-ply (float precision); they equal the printed ones
  to the sixth decimal (checked, reported as ``chances_max_diff``).
* ``gnubg_nn`` (1.1.0a11) is not used here: its ``evaluate_cube_decision`` is
  match-only ("Not implemented for money") and its match equity tables are old
  ones (gnur, jacobs, woolsey, snowie; no Kazaross-XG2), so its match
  decisions would use another table.  The full gnubg uses Kazaross-XG2 by
  default (``show met``; ``gnubg.met()`` is compared below).

What gnubg does (found from its behaviour and its ``show cubeefficiency``):

* gnubg keeps two sets of cube efficiencies, one for 2+ ply evaluations and
  one for 0-1 ply.  The 2+ ply set is the published one the issue cites
  (contact and crashed 0.68; race ``0.55 + 0.00125 * pips`` within [0.6, 0.7];
  one-sided bear-off 0.6).  The 0-1 ply set, which its 0-ply cube decisions
  use by default, is contact and crashed 0.76, race ``0.60 + 0.0025 * pips``
  within [0.6, 0.8], bear-off 0.6.  ``set cubeefficiency contact|crashed|os
  V`` and ``set cubeefficiency race factor|coefficient|min|max V`` change the
  0-1 ply set, so the main comparison sets it to the published values.
* In a race the pips are those of the player on roll (measured: an owned cube
  on roll at 95 pips against 130 matches x = 0.66875 to 1e-6, not 0.7).
  ``backgammon.cube.cubeful.cube_efficiency`` takes the opponent's, as the issue
  text says; the comparison is made with both rules.
* Two-sided bear-offs (gnubg's class "Bearoff2", up to six checkers a side
  in the bundled database): in money play gnubg takes the cubeful equities
  from the database (exact, no x); this library applies Janowski's model to
  the exact chances, so those rows differ by design and are shown apart.
  In match play too gnubg's Bearoff2 values are not Janowski's at x = 0.6
  (no single x fits both its No double and its Double/take); how it gets
  them was not worked out.
* Beavers: gnubg prints Double/take as the plain take and says "beaver" in
  the action; ``CubeDecision`` gives the beavered value (twice the take) in
  ``double_take``, so that row is compared at half our value when we beaver.
* Beavers: gnubg says "beaver" only while -2 <= Double/take < 0 (the
  taker's cubeful equity after taking at most +1 per doubled stake); below it
  says "take" (measured on 150 such positions: -2.0000 beaver, -2.0001 take).
  ``CubeDecision`` beavers whenever Double/take < 0.  The two differ only
  on absurd doubles (the doubler's No double near -1).
* 2-away/2-away: gnubg's 0-ply No double there is the dead cube's match
  winning chance exactly (cube 1, centred or owned by either side), while our
  live-cube recursion gives the side on roll the value of doubling later
  (measured up to 8 % apart, either way).  Every other score measured
  (7-away/7-away, 5/3, 3/5, 4/2, 2/4, 3/2, 2/3, 3/3, 4/4, owned and
  opponent-owned cubes at 2 and 4, Crawford and post-Crawford) agrees with
  our recursion to 1e-6, 4-away/4-away with a centred 2-cube (the same shape
  as 2-away/2-away with a 1-cube) included: gnubg special-cases the score.
* The post-Crawford entry 25-away of ``gnubg.met()`` is 0.00118125, not the
  0.00123 of gnubg's own XML file (gnubg replaces the table's last
  post-Crawford entry); all other 649 entries equal ours as float32.
* When doubling is pointless gnubg prints no cube analysis: Crawford game,
  double match point, the post-Crawford leader; an opponent-owned cube ("You
  cannot double").  There only No double (its static cubeful equity) is
  compared, and our action must be a no double.

Run ``python benchmarks/peers_cube.py`` for the figures; benchmarks/README.md
quotes a run.
"""

from __future__ import annotations

import argparse
import ctypes
import json
import os
import random
import re
import sys
import tempfile
import time
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from multiprocessing import get_context
from pathlib import Path
from typing import Any, Sequence

REPO = Path(__file__).resolve().parent.parent
MATCH_LENGTH = 7

# gnubg's 0-1 ply cube efficiencies: its defaults, and its 2+ ply (published) values.
EFFICIENCIES = {
    "published": {"contact": 0.68, "crashed": 0.68, "os": 0.6,
                  "factor": 0.00125, "coefficient": 0.55, "min": 0.6, "max": 0.7},
    "default": {"contact": 0.76, "crashed": 0.76, "os": 0.6,
                "factor": 0.0025, "coefficient": 0.60, "min": 0.6, "max": 0.8},
}


@dataclass(frozen=True)
class CubeState:
    """One cube state, seen by the player on roll."""

    name: str
    cube: int = 1
    owner: str = "centred"              # "centred", "own", "opponent"
    score: tuple[int, int] | None = None  # (away, opponent away) in a 7-point match
    crawford: bool = False              # the Crawford game (with a side 1-away)
    jacoby: bool = False
    beaver: bool = False

    @property
    def post_crawford(self) -> bool:
        return self.score is not None and 1 in self.score and not self.crawford

    def rules(self):
        from backgammon.rules import Rules
        return Rules(jacoby=self.jacoby, beaver=self.beaver)


STATES = [
    CubeState("money centred"),
    CubeState("money centred, Jacoby", jacoby=True),
    CubeState("money centred, Jacoby+beavers", jacoby=True, beaver=True),
    CubeState("money own cube 2", cube=2, owner="own"),
    CubeState("money opp cube 2", cube=2, owner="opponent"),
    CubeState("7pt 7-away/7-away", score=(7, 7)),
    CubeState("7pt 3-away/5-away", score=(3, 5)),
    CubeState("7pt 5-away/3-away", score=(5, 3)),
    CubeState("7pt 2-away/2-away", score=(2, 2)),
    CubeState("7pt 4-away/2-away", score=(4, 2)),
    CubeState("7pt 3-away/5-away own 2", cube=2, owner="own", score=(3, 5)),
    CubeState("7pt 5-away/4-away opp 2", cube=2, owner="opponent", score=(5, 4)),
    CubeState("7pt Crawford 4-away/1-away", score=(4, 1), crawford=True),
    CubeState("7pt post-Crawford 4-away/1-away", score=(4, 1)),
    CubeState("7pt post-Crawford 2-away/1-away", score=(2, 1)),
    CubeState("7pt post-Crawford 1-away/3-away", score=(1, 3)),
    CubeState("7pt 1-away/1-away (DMP)", score=(1, 1)),
]


# ---------------------------------------------------------------------------
# Positions: the opening, then seeded self-play games of this library


def kind(position) -> str:
    """'contact', 'race' or 'bearoff' (both sides in their home boards)."""
    a = position.tolist()
    own = [p for p in range(1, 26) if a[p] > 0]
    opp = [p for p in range(0, 25) if a[p] < 0]
    if own and opp and max(own) > min(opp):
        return "contact"
    if (not own or max(own) <= 6) and (not opp or min(opp) >= 19):
        return "bearoff"
    return "race"


def sample_positions(bg, n: int, seed: int) -> list:
    """``n`` positions before the roll: the opening, then contact, race and
    bear-off positions in equal shares from self-play games (pubeval's play,
    one play in five uniformly random so the positions vary)."""
    from backgammon import pubeval
    rng = random.Random(seed)
    quota = {"contact": n // 3, "race": n // 3, "bearoff": n - 2 * (n // 3)}
    start = bg.Position.initial()
    out, seen = [start], {start}
    quota["contact"] -= 1
    for _ in range(20 * n):
        if not any(quota.values()):
            break
        pos = start
        game: list = []
        while pos.outcome() is None and len(game) < 400:
            game.append(pos)
            dice = (rng.randint(1, 6), rng.randint(1, 6))
            plays = pos.legal_plays(dice)
            if len(plays) == 0:
                pos = pos.swapped()
                continue
            play = plays[rng.randrange(len(plays))] if rng.random() < 0.2 else \
                pubeval.best_play(pos, dice)
            pos = play.result.swapped()
        # A few positions of each game, from its later part for races and bear-offs.
        for p in rng.sample(game, min(6, len(game))):
            k = kind(p)
            if quota[k] > 0 and p not in seen and p.outcome() is None and all(p.pip_counts()):
                seen.add(p)
                out.append(p)
                quota[k] -= 1
    return out


# ---------------------------------------------------------------------------
# gnubg, in a worker process


class _Capture:
    """Runs a gnubg command and returns what its C code wrote to stdout."""

    def __init__(self) -> None:
        self.libc = ctypes.CDLL(None)
        self.tmp = tempfile.TemporaryFile()

    def __call__(self, gnubg, command: str) -> str:
        sys.stdout.flush()
        self.libc.fflush(None)
        saved = os.dup(1)
        self.tmp.seek(0)
        self.tmp.truncate()
        os.dup2(self.tmp.fileno(), 1)
        try:
            gnubg.command(command)
        finally:
            self.libc.fflush(None)
            os.dup2(saved, 1)
            os.close(saved)
        self.tmp.seek(0)
        return self.tmp.read().decode("utf-8", "replace")


_ROW = re.compile(r"^\s*\d\.\s+(No double|No redouble|Double, take|Double, pass|Redouble, take|"
                  r"Redouble, pass)\s+([-+]?\s*\d+\.\d+)(%?)", re.M)
_NUMBER = re.compile(r"[-+]?\d+\.\d+%?")


def _value(text: str) -> float:
    text = text.replace(" ", "")
    return float(text[:-1]) / 100 if text.endswith("%") else float(text)


def gnubg_eval(task: dict) -> dict:
    """In a fresh process: gnubg's 0-ply evaluation of each board in one cube state."""
    import gnubg
    cap = _Capture()
    eff = EFFICIENCIES[task["efficiency"]]
    setup = ["set threads 1", "set player 0 human", "set player 1 human",
             "set output digits 6", "set output mwc on",
             "set evaluation cubedecision evaluation plies 0",
             "set evaluation chequerplay evaluation plies 0",
             f"set beavers {3 if task['beaver'] else 0}",
             f"set cubeefficiency contact {eff['contact']}",
             f"set cubeefficiency crashed {eff['crashed']}",
             f"set cubeefficiency os {eff['os']}",
             f"set cubeefficiency race factor {eff['factor']}",
             f"set cubeefficiency race coefficient {eff['coefficient']}",
             f"set cubeefficiency race min {eff['min']}",
             f"set cubeefficiency race max {eff['max']}"]
    for command in setup:
        cap(gnubg, command)
    shown = cap(gnubg, "show cubeefficiency")
    owner = {"centred": -1, "own": 1, "opponent": 0}[task["owner"]]   # player 1 is on roll
    if task["score"] is None:
        match_to, score = 0, (0, 0)
    else:
        away, opp_away = task["score"]
        match_to, score = MATCH_LENGTH, (MATCH_LENGTH - opp_away, MATCH_LENGTH - away)
    ci = gnubg.cubeinfo(task["cube"], owner, 1, match_to, score, int(task["crawford"]))
    ci["jacoby"] = int(task["jacoby"])
    pi = gnubg.posinfo(1, 0, 0, 1, (0, 0))
    ec = gnubg.evalcontext(0, 0, 1, 0, 0.0)
    rows = []
    for board in task["boards"]:
        board = (tuple(board[0]), tuple(board[1]))
        cap(gnubg, "set gnubgid " + gnubg.gnubgid(board, ci, pi))
        out = cap(gnubg, "eval")
        klass = re.search(r"Evaluator:\s*(\S+)", out)
        static = re.search(r"static:\s*(.*)", out)
        if not klass or not static:
            raise RuntimeError(f"unexpected gnubg eval output:\n{out}")
        numbers = _NUMBER.findall(static.group(1))
        full = gnubg.evaluate(board, ci, ec)
        row: dict[str, Any] = {
            "class": klass.group(1), "chances": list(full[:5]),
            "printed": [float(v) for v in numbers[:5]], "static_cubeful": _value(numbers[-1]),
            "analysis": None}
        if "Cube analysis" in out:
            values = {name.replace("Redouble", "Double").replace("No redouble", "No double"):
                      _value(v + pct) for name, v, pct in _ROW.findall(out)}
            action = re.search(r"Proper cube action:\s*(.*)", out)
            row["analysis"] = {"nd": values.get("No double"), "dt": values.get("Double, take"),
                               "dp": values.get("Double, pass"),
                               "action": action.group(1).strip() if action else ""}
        if task["score"] is not None:
            row["eq_per_mwc"] = gnubg.mwc2eq(1.0, ci) - gnubg.mwc2eq(0.0, ci)
        rows.append(row)
    met = gnubg.met() if task.get("met") else None
    return {"rows": rows, "efficiencies_shown": shown.strip(), "met": met,
            "version": getattr(gnubg, "__version__", "?")}


# ---------------------------------------------------------------------------
# Ours, and the comparison


def gnubg_x(position, klass: str, efficiency: str) -> float:
    """gnubg's cube efficiency as it behaves: by its class, race pips of the player on roll."""
    e = EFFICIENCIES[efficiency]
    if klass in ("Contact", "Crashed"):
        return e[klass.lower()]
    if klass == "Race":
        return min(e["max"], max(e["min"], e["coefficient"] + e["factor"] * position.pip_counts()[0]))
    return e["os"]


def _norm(action: str) -> str:
    """An action spelt comparably: lower case, 'redouble' as 'double', no parenthesis."""
    a = re.sub(r"\s*\(.*?\)", "", action).lower().replace("redouble", "double").strip()
    return a


def same_action(gnubg_action: str | None, ours: str) -> bool:
    o = _norm(ours)
    if gnubg_action is None:                # gnubg offers no cube analysis
        return o.startswith("no double")
    g = _norm(gnubg_action)
    if g.startswith("optional double"):     # a tie: doubling or not is equal
        answer = g.split(",")[1].strip()
        return o in (f"double, {answer}", f"no double, {answer}")
    if "dead cube" in g or g.startswith("never"):
        return o.startswith("no double")
    return g == o


@dataclass
class Tally:
    n: int = 0
    same: int = 0
    diffs: dict = field(default_factory=lambda: {"nd": [], "dt": [], "dp": [], "nd_eq": [],
                                                 "dt_eq": []})

    def add(self, agree: bool, d: dict) -> None:
        self.n += 1
        self.same += agree
        for k, v in d.items():
            if v is not None:
                self.diffs[k].append(abs(v))

    def summary(self) -> dict:
        out: dict[str, Any] = {"n": self.n, "same_action": self.same}
        for k, v in self.diffs.items():
            if v:
                out[f"max_{k}"] = max(v)
                out[f"mean_{k}"] = sum(v) / len(v)
        return out


def compare(positions: list, state: CubeState, gnubg_rows: list, efficiency: str,
            x_rule: str) -> tuple[dict, list]:
    """Per class tallies and per position records for one state and one rule for x."""
    from backgammon.cube import cubeful
    from backgammon.cube import CubeDecision
    tallies: dict[str, Tally] = {}
    records = []
    for pos, g in zip(positions, gnubg_rows):
        x = cubeful.cube_efficiency(pos) if x_rule == "ours" else gnubg_x(pos, g["class"], efficiency)
        d = CubeDecision.from_chances(g["chances"], cube=state.cube, owner=state.owner,
                                      score=state.score, post_crawford=state.post_crawford,
                                      rules=state.rules(), x=x)
        a = g["analysis"]
        ours_dt = d.double_take / 2 if d.beaver else d.double_take
        diff = {"nd": d.no_double - (a["nd"] if a else g["static_cubeful"]),
                "dt": ours_dt - a["dt"] if a and a["dt"] is not None else None,
                "dp": d.double_pass - a["dp"] if a and a["dp"] is not None else None}
        if state.score is not None:        # also in gnubg's normalised equity
            diff["nd_eq"] = diff["nd"] * g["eq_per_mwc"]
            diff["dt_eq"] = diff["dt"] * g["eq_per_mwc"] if diff["dt"] is not None else None
        agree = same_action(a["action"] if a else None, d.action)
        group = "Bearoff2" if g["class"] == "Bearoff2" else "all but Bearoff2"
        for key in (group, "all"):
            tallies.setdefault(key, Tally()).add(agree, diff)
        records.append({"position_id": pos.position_id(), "class": g["class"], "x": x,
                        "state": state.name, "agree": agree,
                        "gnubg": a or {"nd": g["static_cubeful"], "action": None},
                        "ours": {"nd": d.no_double, "dt": ours_dt, "dp": d.double_pass,
                                 "action": d.action},
                        "worst": max(abs(v) for k, v in diff.items()
                                     if v is not None and not k.endswith("_eq"))})
    return {k: t.summary() for k, t in tallies.items()}, records


def check_met(gnubg_met: Sequence) -> dict:
    """Our bundled Kazaross-XG2 against gnubg.met() (float32) and the wheel's XML."""
    import gnubg
    import numpy as np
    import xml.etree.ElementTree as ET
    from backgammon.cube import met
    t = met.default_table()
    n = t.length
    pre, post0, post1 = gnubg_met
    f32 = lambda v: float(np.float32(v))                  # noqa: E731  gnubg holds floats
    diff_api = sum(f32(t.pre_crawford[i][j]) != pre[i][j] for i in range(n) for j in range(n))
    diff_api += sum(f32(t.post_crawford[i]) != post0[i] or f32(t.post_crawford[i]) != post1[i]
                    for i in range(n))
    max_api = max([abs(t.pre_crawford[i][j] - pre[i][j]) for i in range(n) for j in range(n)]
                  + [abs(t.post_crawford[i] - p[i]) for i in range(n) for p in (post0, post1)])
    xml_path = Path(gnubg.__file__).parent / "data" / "met" / "Kazaross-XG2.xml"
    root = ET.parse(xml_path).getroot()
    xml_pre = [[float(me.text) for me in row.iter("me")]
               for row in root.find("pre-crawford-table").iter("row")]
    xml_post = [[float(me.text) for me in row.iter("me")]
                for table in root.iter("post-crawford-table") for row in table.iter("row")]
    diff_xml = sum(xml_pre[i][j] != t.pre_crawford[i][j] for i in range(n) for j in range(n))
    diff_xml += sum(row[i] != t.post_crawford[i] for row in xml_post for i in range(n))
    return {"entries": n * n + n, "length": n, "differ_from_gnubg_met_float32": diff_api,
            "max_abs_diff_gnubg_met": max_api, "differ_from_wheel_xml": diff_xml,
            "xml_shape": [len(xml_pre), len(xml_pre[0]), len(xml_post)],
            "xml": str(xml_path)}


# ---------------------------------------------------------------------------
# Driver


def _fmt(v: float | None, match: bool) -> str:
    if v is None:
        return "      -"
    return f"{v:7.4f}" if not match else f"{100 * v:6.3f}%"


def print_table(title: str, results: dict, key: str) -> None:
    print(f"\n{title}")
    print(f"  {'cube state':<34} {'n':>4} {'same':>4}  {'max ND':>7} {'mean ND':>7} "
          f"{'max DT':>7} {'mean DT':>7} {'max DP':>7}  {'max ND eq':>9} {'max DT eq':>9}")
    for name, per in results.items():
        s = per.get(key)
        if not s:
            continue
        match = name.startswith("7pt")
        eq = (f"  {s.get('max_nd_eq', 0):9.4f} {s.get('max_dt_eq', 0):9.4f}"
              if match and "max_nd_eq" in s else "")
        print(f"  {name:<34} {s['n']:>4} {s['same_action']:>4}  "
              f"{_fmt(s.get('max_nd'), match)} {_fmt(s.get('mean_nd'), match)} "
              f"{_fmt(s.get('max_dt'), match)} {_fmt(s.get('mean_dt'), match)} "
              f"{_fmt(s.get('max_dp'), match)}{eq}")


def _totals(results: dict, key: str) -> dict:
    n = same = 0
    worst = {"money": 0.0, "match": 0.0}
    for name, per in results.items():
        s = per.get(key)
        if s:
            n += s["n"]
            same += s["same_action"]
            kind_ = "match" if name.startswith("7pt") else "money"
            worst[kind_] = max([worst[kind_]] + [s.get(f"max_{k}", 0.0) for k in ("nd", "dt", "dp")])
    return {"n": n, "same_action": same, "max_diff_money": worst["money"],
            "max_diff_match_mwc": worst["match"]}


def _print_record(r: dict) -> None:
    g, o = r["gnubg"], r["ours"]
    dt = "     -" if g.get("dt") is None else f"{g['dt']:+.4f}"
    print(f"  {r['position_id']} {r['class']:<8} x={r['x']:.4f} {r['state']:<31} "
          f"gnubg ND {g['nd']:+.4f} DT {dt} {g['action'] or '(no cube analysis)'} | "
          f"ours ND {o['nd']:+.4f} DT {o['dt']:+.4f} {o['action']}  (max diff {r['worst']:.4f})")


def run(bg, args) -> dict[str, Any] | None:
    """The cube section of compare_peers.py (and this script's main)."""
    print("\n== cube decisions vs gnubg (0-ply) ==")
    try:
        import gnubg  # noqa: F401  only to know it is there; the work runs in workers
    except ImportError as exc:
        print(f"  skipped: cannot import gnubg ({exc}); pip install gnubg")
        return None
    t0 = time.perf_counter()
    positions = sample_positions(bg, args.cube_positions, args.cube_seed)
    kinds = {k: sum(kind(p) == k for p in positions) for k in ("contact", "race", "bearoff")}
    print(f"  {len(positions)} positions (opening + self-play, seed {args.cube_seed}): {kinds}")
    boards = [p.to_gnubg_board() for p in positions]
    ctx = get_context("spawn")
    report: dict[str, Any] = {"positions": len(positions), "kinds": kinds, "states": {}}
    gnubg_out: dict[tuple[str, str], list] = {}
    with ProcessPoolExecutor(max_workers=1, mp_context=ctx, max_tasks_per_child=1) as pool:
        for efficiency in ("published", "default"):
            for i, st in enumerate(STATES):
                task = {"efficiency": efficiency, "boards": boards, "cube": st.cube,
                        "owner": st.owner, "score": st.score, "crawford": st.crawford,
                        "jacoby": st.jacoby, "beaver": st.beaver,
                        "met": efficiency == "published" and i == 0}
                res = pool.submit(gnubg_eval, task).result()
                gnubg_out[(efficiency, st.name)] = res["rows"]
                if res["met"] is not None:
                    report["met"] = check_met(res["met"])
                    report["gnubg_version"] = res["version"]
                if i == 0:
                    report.setdefault("efficiencies_shown", {})[efficiency] = res["efficiencies_shown"]
    chances_diff = max(abs(a - b) for rows in gnubg_out.values() for r in rows
                       for a, b in zip(r["chances"], r["printed"]))
    classes: dict[str, int] = {}
    for r in gnubg_out[("published", STATES[0].name)]:
        classes[r["class"]] = classes.get(r["class"], 0) + 1
    print(f"  gnubg {report.get('gnubg_version')}, classes {classes}; chances fed in: "
          f"gnubg.evaluate 0-ply, within {chances_diff:.1e} of the printed ones")
    report["gnubg_classes"] = classes
    report["chances_max_diff"] = chances_diff
    runs = [("published", "ours", "A. gnubg 0-ply with its published x (set cubeefficiency: "
             "0.68, race 0.55+0.00125 pips in [0.6,0.7]); ours x = cubeful.cube_efficiency"),
            ("published", "gnubg", "B. same gnubg runs; ours x = gnubg's rule (race pips of the "
             "player on roll)"),
            ("default", "ours", "C. gnubg 0-ply defaults (x 0.76, race 0.60+0.0025 pips in "
             "[0.6,0.8]); ours x = cubeful.cube_efficiency"),
            ("default", "gnubg", "D. gnubg 0-ply defaults; ours x = gnubg's default rule")]
    records_a: list = []
    for efficiency, x_rule, title in runs:
        results = {}
        for st in STATES:
            summary, records = compare(positions, st, gnubg_out[(efficiency, st.name)],
                                       efficiency, x_rule)
            results[st.name] = summary
            if (efficiency, x_rule) == ("published", "ours"):
                records_a.extend(records)
        label = f"{efficiency}/x={x_rule}"
        report["states"][label] = results
        report.setdefault("totals", {})[label] = {k: _totals(results, k)
                                                  for k in ("all", "all but Bearoff2", "Bearoff2")}
        print_table(title + "  [all but gnubg's Bearoff2 class]", results, "all but Bearoff2")
        t = report["totals"][label]
        print(f"  total: same action {t['all but Bearoff2']['same_action']}/"
              f"{t['all but Bearoff2']['n']}; Bearoff2 rows (gnubg uses its database's "
              f"cubeful equities at money): same action {t['Bearoff2']['same_action']}/"
              f"{t['Bearoff2']['n']}, max diff money {t['Bearoff2']['max_diff_money']:.4f}, "
              f"match {t['Bearoff2']['max_diff_match_mwc']:.4f}")
    disagree = [r for r in records_a if not r["agree"]]
    per_state: dict[str, dict] = {}
    for r in records_a:
        key = r["state"] + (" (Bearoff2)" if r["class"] == "Bearoff2" else "")
        if key not in per_state or r["worst"] > per_state[key]["worst"]:
            per_state[key] = r
    largest = sorted(per_state.values(), key=lambda r: -r["worst"])
    print(f"\n  run A, action disagreements ({len(disagree)}, first {args.cube_worst}):")
    for r in disagree[: args.cube_worst]:
        _print_record(r)
    print("\n  run A, the largest value difference of each cube state (Bearoff2 apart):")
    for r in largest:
        _print_record(r)
    report["disagreements"] = disagree
    report["largest"] = largest
    m = report.get("met")
    if m:
        print(f"\n  MET Kazaross-XG2 ({m['length']} points, {m['entries']} entries): "
              f"{m['differ_from_gnubg_met_float32']} differ from gnubg.met() (as float32; max "
              f"abs diff {m['max_abs_diff_gnubg_met']:.1e}), {m['differ_from_wheel_xml']} "
              f"differ from {m['xml']}")
    report["seconds"] = time.perf_counter() - t0
    print(f"  ({report['seconds']:.0f} s)")
    return report


def add_arguments(ap: argparse.ArgumentParser) -> None:
    ap.add_argument("--cube-positions", type=int, default=300, metavar="N",
                    help="positions in the cube comparison (default 300)")
    ap.add_argument("--cube-seed", type=int, default=2026, help="seed of the self-play games")
    ap.add_argument("--cube-worst", type=int, default=15, metavar="K",
                    help="worst disagreements listed (default 15)")


def main(argv: Sequence[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    add_arguments(ap)
    ap.add_argument("--json", type=Path, help="also write the figures to this JSON file")
    args = ap.parse_args(argv)
    if args.cube_positions < 1:
        ap.error("--cube-positions must be positive")
    try:
        import backgammon
    except ImportError:                      # not installed: the in-place build
        sys.path.insert(0, str(REPO / "python"))
        import backgammon
    report = run(backgammon, args)
    if args.json and report is not None:
        args.json.write_text(json.dumps(report, indent=2, default=str) + "\n")
        print(f"wrote {args.json}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
