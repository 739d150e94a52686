"""Makes tests/data/pubeval_scores.jsonl: 2,000 boards scored by GNU
Backgammon's copy of pubeval (PyPI gnubg-nn, ``gnubg_nn.pub_eval_score``).

Run in an environment with gnubg-nn and this package installed:
    python tools/make_pubeval_scores.py > tests/data/pubeval_scores.jsonl

Boards: 1,000 results from the move-generation corpus and 1,000 positions of
random games, each scored for its positive side (the side that has just
moved) with the race flag of the board itself, which is what
``pub_eval_score`` does (PUBEVAL.md 8).
"""

import gzip
import json
import random
from pathlib import Path

import gnubg_nn

import backgammon as bg

DATA = Path(__file__).resolve().parent.parent / "tests" / "data"


def gnubg_layout(a):
    """[X's 25 ints, O's 25 ints] for board a whose positive side is X."""
    x = [max(a[i + 1], 0) for i in range(24)] + [a[25]]
    o = [max(-a[24 - i], 0) for i in range(24)] + [-a[0]]
    return [x, o]


def boards():
    rng = random.Random(20261129)
    seen = set()
    rows = [json.loads(line) for line in gzip.open(DATA / "movegen.jsonl.gz", "rt")]
    corpus = [tuple(r) for row in rows for r in row["results"]]
    rng.shuffle(corpus)
    for b in corpus:
        if b not in seen:
            seen.add(b)
            yield list(b)
            if len(seen) == 1000:
                break
    while len(seen) < 2000:
        pos = bg.Position.initial()
        for _ in range(rng.randint(1, 120)):
            plays = pos.legal_plays((rng.randint(1, 6), rng.randint(1, 6)))
            res = plays[rng.randrange(len(plays))].result
            if res.outcome() is not None:
                break
            pos = res.swapped()
        b = tuple(res.tolist())
        if b not in seen:
            seen.add(b)
            yield list(b)


for board in boards():
    print(json.dumps({"board": board, "score": float(gnubg_nn.pub_eval_score(gnubg_layout(board)))}))
