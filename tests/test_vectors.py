"""Cross-engine vectors (tests/data, copied from shared/vectors; see VECTORS.md)."""

from __future__ import annotations

import numpy as np

import backgammon as bg


def _rows(array) -> list[tuple[int, ...]]:
    return sorted(map(tuple, np.asarray(array).tolist()))


def test_movegen_vectors_cover_the_corpus(movegen_cases):
    assert len(movegen_cases) == 3389
    assert sum(len(c["results"]) for c in movegen_cases) == 40068


def test_movegen_vectors_through_successors(movegen_cases):
    mismatches = []
    for case in movegen_cases:
        pos = bg.Position.from_array(case["board"])
        got = pos.successors(case["dice"])
        assert got.dtype == np.int8 and got.shape[1] == 26
        if _rows(got) != sorted(map(tuple, case["results"])):
            mismatches.append(case)
        # the other die order gives the very same plays
        d1, d2 = case["dice"]
        assert _rows(pos.successors((d2, d1))) == _rows(got)
    assert not mismatches, f"{len(mismatches)} cases differ, first: {mismatches[0]}"


def test_movegen_vectors_through_legal_plays(movegen_cases):
    for case in movegen_cases:
        pos = bg.Position.from_array(case["board"])
        plays = pos.legal_plays(case["dice"])
        results = [p.result.tolist() for p in plays]
        assert sorted(map(tuple, results)) == sorted(map(tuple, case["results"]))
        # same order as successors
        assert results == pos.successors(case["dice"]).tolist()


def test_movegen_vectors_through_batch_successors(movegen_cases):
    boards = np.array([c["board"] for c in movegen_cases], dtype=np.int8)
    dice = np.array([c["dice"] for c in movegen_cases])
    results, offsets = bg.batch_successors(boards, dice)
    assert results.dtype == np.int8 and offsets.dtype == np.int64
    assert offsets.shape == (len(movegen_cases) + 1,)
    assert offsets[0] == 0 and offsets[-1] == len(results) == 40068
    for i, case in enumerate(movegen_cases):
        chunk = results[offsets[i]:offsets[i + 1]]
        assert _rows(chunk) == sorted(map(tuple, case["results"])), i


def test_batch_accepts_other_integer_dtypes_and_die_orders(movegen_cases):
    cases = movegen_cases[:200]
    boards = np.array([c["board"] for c in cases], dtype=np.int64)
    dice = np.array([c["dice"][::-1] for c in cases], dtype=np.int32)
    results, offsets = bg.batch_successors(boards.tolist(), dice)
    for i, case in enumerate(cases):
        assert _rows(results[offsets[i]:offsets[i + 1]]) == sorted(map(tuple, case["results"]))


def test_position_id_vectors_round_trip(position_id_cases):
    assert len(position_id_cases) == 150
    for case in position_id_cases:
        pos = bg.Position.from_array(case["board"])
        assert pos.position_id() == case["position_id"]
        assert bg.Position.from_position_id(case["position_id"]) == pos
        assert pos.to_array().tolist() == case["board"]


def test_initial_position_id():
    # gnubg's well-known ID of the opening position
    assert bg.Position.initial().position_id() == "4HPwATDgc/ABMA"


def test_perft_vectors(perft_table):
    start = bg.Position.initial()
    assert perft_table == [(1, 21, 447), (1, 36, 637), (2, 21, 202782), (2, 36, 419783)]
    for depth, rolls, leaves in perft_table:
        assert bg.perft(start, depth, rolls=rolls) == leaves


def test_perft_small_depths():
    start = bg.Position.initial()
    assert bg.perft(start, 0) == 1
    # a finished game is a leaf, whatever the depth
    done = bg.Position.from_array([-1] + [0] * 25)  # the player on roll has no checkers
    assert bg.perft(done, 3) == 1


def test_notation_vectors_match_gnubg_text(notation_cases):
    assert len(notation_cases) == 2749
    for case in notation_cases:
        pos = bg.Position.from_array(case["board"])
        result = bg.Position.from_array(case["result"])
        matching = [p for p in pos.legal_plays(case["dice"]) if p.result == result]
        assert len(matching) == 1
        assert str(matching[0]) == case["gnubg_text"], case
