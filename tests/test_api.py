"""The public API: value semantics, conversions, sequences, threads, CLI."""

from __future__ import annotations

import doctest
import importlib
import os
import pickle
import subprocess
import sys
import threading

import numpy as np
import pytest

import backgammon as bg
from reference import reference_results

INITIAL = [0, -2, 0, 0, 0, 0, 5, 0, 3, 0, 0, 0, -5, 5, 0, 0, 0, -3, 0, -5, 0, 0, 0, 0, 2, 0]


def test_initial_position_values():
    pos = bg.Position.initial()
    assert pos.tolist() == INITIAL
    assert pos == bg.Position() == bg.Position(INITIAL) == bg.Position.from_array(INITIAL)
    assert pos.pip_counts() == (167, 167)
    assert pos.borne_off() == (0, 0)
    assert pos.outcome() is None
    arr = pos.to_array()
    assert arr.dtype == np.int8 and arr.shape == (26,)
    arr[1] = 0  # a copy: the position does not change
    assert pos.tolist() == INITIAL
    assert pos[24] == 2 and pos[1] == -2


def test_position_is_immutable_hashable_and_repr_evaluates_back():
    pos = bg.Position.initial()
    with pytest.raises(AttributeError):
        pos._b = b""
    assert {pos, bg.Position.initial()} == {pos}
    assert repr(pos) == "Position.from_position_id('4HPwATDgc/ABMA')"
    assert eval(repr(pos), {"Position": bg.Position}) == pos
    assert pickle.loads(pickle.dumps(pos)) == pos


def test_swapped_is_the_other_side_of_the_board():
    pos = bg.Position.from_array([-1, 2, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
                                  0, 0, 0, 0, 0, 0, 0, 0, 0, 0, -3, 0, 1])
    s = pos.swapped()
    # s[i] = -a[25 - i]: our bar becomes their (negative) bar, and so on
    assert s.tolist() == [-1, 0, 3, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
                          0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, -2, 1]
    assert s.swapped() == pos
    assert s.pip_counts() == pos.pip_counts()[::-1]
    assert s.borne_off() == pos.borne_off()[::-1]
    assert bg.Position.initial().swapped() == bg.Position.initial()


def test_pip_counts_count_the_bar_as_25():
    # mover: one on the bar (25) and one on 3; opponent: one on its bar (25), one on our 20 (its 5)
    pos = bg.Position.from_array([-1, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0,
                                  0, 0, 0, 0, 0, 0, 0, -1, 0, 0, 0, 0, 1])
    assert pos.pip_counts() == (28, 30)
    assert pos.borne_off() == (13, 13)


def test_legal_plays_is_a_sequence_of_plays():
    pos = bg.Position.initial()
    plays = pos.legal_plays((3, 1))
    assert len(plays) == 16 and plays.ndice == 2
    assert plays[0] == plays[-16] and plays[-1] == list(plays)[-1]
    assert plays[1:3] == [plays[1], plays[2]]
    with pytest.raises(IndexError):
        plays[16]
    point = next(p for p in plays if str(p) == "8/5 6/5")
    assert point in plays and point.result in plays
    assert plays.index(point) == list(plays).index(point)
    assert bg.Play(pos, [(6, 5), (8, 5)]) == point   # order of steps does not matter
    assert hash(bg.Play(pos, [(6, 5), (8, 5)])) == hash(point)
    elsewhere = pos.play([(24, 23), (24, 21)]).swapped()  # a play of another position
    assert elsewhere.legal_plays((3, 1))[0] not in plays
    assert "8/5 6/5" not in plays  # text is not a play (notation parsing is separate)
    assert "8/5 6/5" in repr(plays) or "(16)" in repr(plays)
    assert np.array_equal(plays.results(), pos.successors((3, 1)))


def test_play_repr_evaluates_back_and_pickles():
    pos = bg.Position.initial()
    play = pos.legal_plays((6, 4))[0]
    again = eval(repr(play), {"Play": bg.Play, "Position": bg.Position})
    assert again == play and again.moves == play.moves
    assert pickle.loads(pickle.dumps(play)) == play


def test_a_double_with_more_than_854_plays_has_no_cap():
    # opponent blots everywhere, one of our checkers on most points: every
    # 1-1 step is legal and many hit, so the four steps give 2,226 distinct
    # positions; the slow reference generator agrees
    board = [-6, -1, -1, 1, 1, -1, 1, 1, -1, 1, 1, -1, 1, 1, -1, 1, 1, -1, 1, -1, 1, 1, -1, 1, 1, 0]
    pos = bg.Position.from_array(board)
    got = pos.successors((1, 1))
    assert len(got) > 854
    assert len({tuple(r) for r in got.tolist()}) == len(got)
    assert {tuple(r) for r in got.tolist()} == reference_results(tuple(board), 1, 1)
    results, offsets = bg.batch_successors(np.array([board] * 3), [(1, 1)] * 3)
    assert offsets.tolist() == [0, len(got), 2 * len(got), 3 * len(got)]


def test_batch_successors_from_many_threads(movegen_cases):
    boards = np.array([c["board"] for c in movegen_cases], dtype=np.int8)
    dice = np.array([c["dice"] for c in movegen_cases])
    expected_results, expected_offsets = bg.batch_successors(boards, dice)
    outputs: list = [None] * 4

    def work(i):
        outputs[i] = bg.batch_successors(boards, dice)

    threads = [threading.Thread(target=work, args=(i,)) for i in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    for results, offsets in outputs:
        assert np.array_equal(results, expected_results)
        assert np.array_equal(offsets, expected_offsets)


def test_batch_successors_empty_batch():
    results, offsets = bg.batch_successors(np.zeros((0, 26), np.int8), np.zeros((0, 2), np.int8))
    assert results.shape == (0, 26) and offsets.tolist() == [0]


def test_legal_moves_walks_to_every_play():
    pos = bg.Position.initial()
    for dice in bg.ALL_ROLLS:
        targets = {p.result for p in pos.legal_plays(dice)}
        reached: set = set()

        def walk(played, dice=dice, reached=reached):
            steps = pos.legal_moves(dice, played)
            if not steps:
                reached.add(pos.play(played, dice))
            for step in steps:
                walk(played + [step])

        walk([])
        assert reached == targets, dice


@pytest.mark.parametrize("module", [
    "backgammon", "backgammon.position", "backgammon.notation", "backgammon.batch",
    "backgammon.perft", "backgammon.errors", "backgammon.cli", "backgammon.formats.position_id",
    "backgammon.training.targets", "backgammon.formats.files", "backgammon.cube.search",
    "backgammon.display", "backgammon._blas",
])
def test_docstring_examples(module):
    result = doctest.testmod(importlib.import_module(module), optionflags=doctest.ELLIPSIS)
    assert result.failed == 0


@pytest.mark.skipif(not os.path.isdir("/proc/self/task"), reason="counts threads in /proc")
@pytest.mark.parametrize("argv0, env, want", [
    ("/venv/bin/backgammon", {}, ("1", 1)),        # the command: one BLAS thread, none started
    ("/venv/bin/backgammon", {"OPENBLAS_NUM_THREADS": "3"}, ("3", None)),   # the user's choice
    ("/venv/bin/backgammon", {"OMP_NUM_THREADS": "2"}, (None, None)),
    ("my_script.py", {}, (None, None)),              # a program using the library: untouched
])
def test_the_command_starts_no_blas_threads(argv0, env, want):
    code = (f"import sys; sys.argv[0] = {argv0!r}\n"
            "import backgammon, os\n"
            "print(os.environ.get('OPENBLAS_NUM_THREADS'), len(os.listdir('/proc/self/task')))")
    base = {k: v for k, v in os.environ.items()
            if k not in ("OPENBLAS_NUM_THREADS", "GOTO_NUM_THREADS", "OMP_NUM_THREADS")}
    out = subprocess.run([sys.executable, "-c", code], env={**base, **env}, check=True,
                         capture_output=True, text=True).stdout.split()
    assert (None if out[0] == "None" else out[0]) == want[0]
    if want[1] is not None:
        assert int(out[1]) == want[1]


def test_cli_moves_and_perft(capsys):
    from backgammon.cli import main

    assert main(["moves", "31"]) == 0
    out = capsys.readouterr().out
    assert "16 legal plays" in out and "8/5 6/5" in out and "4HPwATCwZ/ABMA" in out
    assert main(["moves", "4HPwATDgc/ABMA", "6-5"]) == 0
    assert "24/13" in capsys.readouterr().out
    assert main(["perft", "1", "--rolls", "36"]) == 0
    assert "637 leaves" in capsys.readouterr().out
    assert main(["moves", "71"]) == 2
    assert "dice" in capsys.readouterr().err
    assert main(["moves", "not-an-id!!!!!", "31"]) == 2
    assert "Position ID" in capsys.readouterr().err
