"""Shared fixtures for the benchmarks: the move-generation corpus, loaded once.

The corpus is ``tests/data/movegen.jsonl.gz`` (3,389 lines ``{"board", "dice",
"results"}``, see ``tests/data/VECTORS.md``).  It is read once per session and
exposed as numpy arrays, so no benchmark pays for JSON parsing.

These benchmarks are not part of the normal test run (``testpaths = ["tests"]``);
run them with ``python -m pytest benchmarks --benchmark-only``.
"""

from __future__ import annotations

import gzip
import json
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import pytest

DATA_DIR = Path(__file__).resolve().parent.parent / "tests" / "data"
MOVEGEN = DATA_DIR / "movegen.jsonl.gz"
PERFT = DATA_DIR / "perft.txt"

# Known totals of the corpus; checked when it is loaded so that a changed data
# file is noticed here rather than as a puzzling benchmark failure.
CORPUS_ROWS = 3389
CORPUS_RESULTS = 40068


@dataclass(frozen=True)
class Corpus:
    boards: np.ndarray   # int8 (m, 26), the project's board convention
    dice: np.ndarray     # int8 (m, 2), d1 >= d2
    counts: np.ndarray   # int64 (m,), number of distinct resulting positions
    results: np.ndarray  # int8 (n, 26), every row's sorted results, concatenated
    offsets: np.ndarray  # int64 (m + 1,), results of row i: results[offsets[i]:offsets[i+1]]

    @property
    def total(self) -> int:
        return int(self.offsets[-1])

    def __len__(self) -> int:
        return len(self.boards)


def load_corpus(path: Path = MOVEGEN) -> Corpus:
    boards, dice, counts, results = [], [], [], []
    with gzip.open(path, "rt", encoding="utf-8") as fh:
        for line in fh:
            if not line.strip():
                continue
            row = json.loads(line)
            boards.append(row["board"])
            dice.append(row["dice"])
            counts.append(len(row["results"]))
            results.extend(row["results"])
    counts_a = np.asarray(counts, dtype=np.int64)
    offsets = np.zeros(len(counts_a) + 1, dtype=np.int64)
    np.cumsum(counts_a, out=offsets[1:])
    corpus = Corpus(
        boards=np.asarray(boards, dtype=np.int8).reshape(-1, 26),
        dice=np.asarray(dice, dtype=np.int8).reshape(-1, 2),
        counts=counts_a,
        results=np.asarray(results, dtype=np.int8).reshape(-1, 26),
        offsets=offsets,
    )
    assert len(corpus) == CORPUS_ROWS, f"{path}: {len(corpus)} rows, expected {CORPUS_ROWS}"
    assert corpus.total == CORPUS_RESULTS, (
        f"{path}: {corpus.total} results, expected {CORPUS_RESULTS}")
    return corpus


def load_perft(path: Path = PERFT) -> dict[tuple[int, int], int]:
    """``{(depth, rolls): leaves}`` from ``tests/data/perft.txt``."""
    known = {}
    for line in path.read_text(encoding="utf-8").splitlines():
        line = line.split("#", 1)[0].strip()
        if line:
            depth, rolls, leaves = (int(x) for x in line.split())
            known[(depth, rolls)] = leaves
    return known


@pytest.fixture(scope="session")
def corpus() -> Corpus:
    return load_corpus()


@pytest.fixture(scope="session")
def perft_known() -> dict[tuple[int, int], int]:
    return load_perft()


@pytest.fixture(scope="session")
def corpus_positions(corpus: Corpus):
    """``(positions, dice)``: pre-built ``Position`` objects and dice tuples."""
    import backgammon

    positions = [backgammon.Position.from_array(b) for b in corpus.boards]
    dice = [(int(d1), int(d2)) for d1, d2 in corpus.dice]
    return positions, dice
