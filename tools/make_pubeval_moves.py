"""Makes tests/data/pubeval_moves.jsonl: the play GNU Backgammon's pubeval
(PyPI gnubg-nn, ``gnubg_nn.pub_best_move``) chooses in every case of the
move-generation corpus that has a choice (more than one legal play).

Run in an environment with gnubg-nn and this package installed:
    python tools/make_pubeval_moves.py > tests/data/pubeval_moves.jsonl
"""

import gzip
import json
from pathlib import Path

import gnubg_nn

import backgammon as bg

DATA = Path(__file__).resolve().parent.parent / "tests" / "data"


def gnubg_board(a):
    """gnubg's [[player not on roll], [player on roll]] for our board a."""
    on_roll = [max(a[i + 1], 0) for i in range(24)] + [a[25]]
    other = [max(-a[24 - i], 0) for i in range(24)] + [-a[0]]
    return [other, on_roll]


for line in gzip.open(DATA / "movegen.jsonl.gz", "rt"):
    case = json.loads(line)
    if len(case["results"]) < 2:
        continue
    pos = bg.Position.from_array(case["board"])
    d1, d2 = case["dice"]
    flat = gnubg_nn.pub_best_move(gnubg_board(case["board"]), d1, d2)
    steps = [(flat[i] + 1, max(flat[i + 1] + 1, 0)) for i in range(0, len(flat), 2)]
    result = pos.play(steps, (d1, d2))
    print(json.dumps({"board": case["board"], "dice": case["dice"], "result": result.tolist()}))
