"""Evaluator.with_pruning: a screen of small nets in the move choices that need only
the chosen play.  The pruned choice is checked against one computed in numpy from
both nets' full rankings (the best by the full nets among the screen's ``keep``
best, within ``margin`` of its best), a screen that ranks as the full nets changes
nothing, and best_play's shortcut gives rank_plays' first play."""

from __future__ import annotations

import json
import pickle

import numpy as np
import pytest

import backgammon as bg
from backgammon import _bgcore
from backgammon.cube.search import CubeState, position_values
from backgammon.nn import SEARCH_KEEP, Evaluator, search_screen, eval_ply
from backgammon.nn.search import _ROLLS, _mover_equity
from test_nn import sample_positions


@pytest.fixture(scope="module")
def positions() -> np.ndarray:
    return sample_positions(120, seed=11)


@pytest.fixture(scope="module")
def groups(positions: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Every roll of each position: (befores, results, offsets)."""
    befores = np.ascontiguousarray(np.repeat(positions, len(_ROLLS), axis=0))
    dice = np.ascontiguousarray(np.tile(_ROLLS, (len(positions), 1)))
    results, offsets = _bgcore.batch_successors(befores, dice)
    return befores, results, offsets


def nets() -> tuple[Evaluator, Evaluator]:
    full = Evaluator.random((40, 12, 24), seed=3, encoding=3)
    screen = Evaluator.random((8, 4, 8), seed=4, encoding=1)
    return full, screen


@pytest.mark.parametrize("keep, margin", [(1, 0), (2, 0), (5, 0), (16, 0), (3, 0.02),
                                          (16, 0.05), (8, 0.12)])
def test_the_pruned_choice_is_the_full_nets_best_of_the_screens_keep_best(groups, keep, margin):
    befores, results, offsets = groups
    full, screen = nets()
    pruned = full.with_pruning(screen, keep, margin)
    picks, best = pruned._nets.choose_groups(befores, results, offsets, best_only=True)
    _, p_full = full._nets.choose_groups(befores, results, offsets)
    _, p_screen = screen._nets.choose_groups(befores, results, offsets)
    e_full, e_screen = _mover_equity(p_full), _mover_equity(p_screen)
    differ = 0
    for g in range(len(befores)):
        lo, hi = offsets[g], offsets[g + 1]
        # the screen's best, ties to the first; then the full nets' best of those, ties to the first
        kept = np.argsort(-e_screen[lo:hi], kind="stable")[:keep]
        if margin:   # only those within the margin of the screen's best (in float32, as the core)
            kept = kept[e_screen[lo:hi][kept] >= e_screen[lo + kept[0]] - np.float32(margin)]
        kept = np.sort(kept)
        expected = lo + kept[int(np.argmax(e_full[lo:hi][kept]))]
        assert picks[g] == expected
        np.testing.assert_array_equal(best[g], p_full[expected])
        differ += expected != lo + int(np.argmax(e_full[lo:hi]))
    if keep < 16 or margin:
        assert differ > 0   # the screen is a real one: it changes some choices


def test_a_screen_that_ranks_as_the_full_nets_changes_nothing(groups, positions):
    befores, results, offsets = groups
    full, _ = nets()
    same = full.with_pruning(full, 1)
    p0, q0 = full._nets.choose_groups(befores, results, offsets)
    p1, q1 = same._nets.choose_groups(befores, results, offsets, best_only=True)
    np.testing.assert_array_equal(p0, p1)
    np.testing.assert_array_equal(q0[p0], q1)
    for ply in (1, 2):
        np.testing.assert_array_equal(eval_ply(full, positions[:6], ply, filtered=True),
                                      eval_ply(same, positions[:6], ply, filtered=True))


def test_searches_choose_their_replies_with_the_screen_narrowed_to_search_keep(groups, positions):
    full, screen = nets()
    wide, narrow = full.with_pruning(screen, 8, 0.12), full.with_pruning(screen, SEARCH_KEEP, 0.12)
    assert SEARCH_KEEP == 3
    # the narrowed twin: same nets and screen, SEARCH_KEEP plays, the margin kept; made once
    twin = search_screen(wide)
    assert (twin.keep, twin.margin, twin.pruning) == (3, 0.12, screen)
    assert search_screen(wide) is twin and twin.policy_name == narrow.policy_name
    for ev in (narrow, full.with_pruning(screen, 2), full):   # nothing narrower to do
        assert search_screen(ev) is ev
    for ply in (1, 2):
        a = eval_ply(wide, positions[:8], ply, filtered=True)
        np.testing.assert_array_equal(a, eval_ply(narrow, positions[:8], ply, filtered=True))
        # the screen matters in these searches: the unscreened nets value them otherwise
        assert not np.array_equal(a, eval_ply(full, positions[:8], ply, filtered=True))
    money = CubeState.money()
    np.testing.assert_array_equal(position_values(wide, positions[:4], money, 1),
                                  position_values(narrow, positions[:4], money, 1))
    # a move choice for play (rollouts, duels) keeps the evaluator's own 8, not 3
    befores, results, offsets = groups
    p_wide, _ = wide._nets.choose_groups(befores, results, offsets, best_only=True)
    p_narrow, _ = narrow._nets.choose_groups(befores, results, offsets, best_only=True)
    assert wide.keep == 8 and (p_wide != p_narrow).any()


def test_top_level_rankings_score_every_play_with_the_full_nets(positions):
    full, screen = nets()
    pruned = full.with_pruning(screen, 1)
    pos = bg.Position.from_array(positions[7])
    a = pos.rank_plays((6, 5), 0, full)
    b = pos.rank_plays((6, 5), 0, pruned)
    assert [r.play for r in a] == [r.play for r in b]
    assert [r.equity for r in a] == [r.equity for r in b]


def test_best_play_is_the_first_of_rank_plays(positions):
    ev = Evaluator.fast()
    for i, dice in zip(range(0, 120, 8), [(3, 1), (6, 6), (5, 2), (4, 3), (2, 1)] * 3):
        pos = bg.Position.from_array(positions[i])
        for ply in (1, 2):
            assert pos.best_play(dice, ply, ev, filtered=True) == \
                pos.rank_plays(dice, ply, ev, filtered=True)[0].play


def test_a_pruned_duel_is_deterministic_and_differs_from_the_full_nets():
    full, screen = nets()
    pruned = full.with_pruning(screen, 1)
    a = bg.duel(pruned, full, games=200, seed=5, workers=1)
    b = bg.duel(pruned, full, games=200, seed=5, workers=1)
    assert a == b
    assert bg.duel(full, full, games=200, seed=5, workers=1).ppg.value == 0.0  # same play
    assert a.ppg.value != 0.0


def test_names_copies_and_pickles_keep_the_screen():
    full, screen = nets()
    pruned = full.with_pruning(screen, 3)
    assert pruned.policy_name == full.policy_name + "+prune3"
    assert f"screened by 8/4/8 (keep 3, margin {bg.nn.DEFAULT_MARGIN})" in repr(pruned)
    assert pruned.pruning is screen and pruned.keep == 3 and pruned.margin == bg.nn.DEFAULT_MARGIN
    assert full.pruning is None and full.keep == 0            # the original is unchanged
    wide = full.with_pruning(screen, 3, margin=0)
    assert wide.policy_name == full.policy_name + "+prune3m0"
    assert "screened by 8/4/8 (keep 3)" in repr(wide)
    for twin in (pruned.copy(), pickle.loads(pickle.dumps(pruned)), wide.copy(),
                 pickle.loads(pickle.dumps(wide))):
        assert twin.keep == 3 and twin.pruning is not None
        assert twin.pruning.hidden == screen.hidden
        assert twin.margin == twin._nets.margin or abs(twin.margin - twin._nets.margin) < 1e-7
    assert pickle.loads(pickle.dumps(wide)).margin == 0.0
    off = pruned.with_pruning(None, 0)
    assert off.pruning is None and off.policy_name == full.policy_name
    assert Evaluator.default().with_pruning(keep=4).policy_name == "net+prune4"
    assert Evaluator.default().with_pruning(keep=6, margin=0.2).policy_name == "net+prune6m0.2"


def test_the_bundled_nets_come_screened_and_unscreen_on_request():
    from backgammon.nn import DEFAULT_KEEP

    ev = Evaluator.default()
    assert ev.keep == DEFAULT_KEEP and ev.pruning is Evaluator._pruning
    # the bundled screen is the integer net docs/nn.md names (Q9 of training/README.md)
    screen = ev.pruning
    assert screen.encoding == 5 and screen.quantised
    assert screen.hidden == (128, 128, 256) and screen.middle == (32, 0, 32)
    assert ev.policy_name == "net" and Evaluator.default() is ev
    off = ev.with_pruning(keep=0)
    assert off.pruning is None and off.policy_name == "net+prune0"
    assert off.with_pruning().policy_name == "net"                  # the usual screen again
    assert Evaluator.strong().keep == DEFAULT_KEEP and Evaluator.strong().policy_name == "strong"
    assert Evaluator.fast().pruning is None and Evaluator.fast().policy_name == "fast"
    # the same weights, so top-level rankings are those of the unscreened nets
    pos = bg.Position.from_position_id("4HPwATDgc/ABMA")
    assert [r.play for r in bg.nn.rank_plays(pos, (6, 4), 0, ev)] == \
        [r.play for r in bg.nn.rank_plays(pos, (6, 4), 0, off)]
    # a run of training starts from the nets without the screen
    from backgammon.training.supervised import start_nets
    assert start_nets(ev).pruning is None and start_nets(ev).policy_name == "net+prune0"
    from backgammon.cli import _policy
    assert _policy("net") == "net" and _policy("net+prune0").pruning is None
    assert _policy("net", (3, None)).keep == 3 and _policy("strong").keep == DEFAULT_KEEP
    assert _policy("net+prune6m0").margin == 0 and _policy("net+prune6m0").keep == 6
    assert _policy("net+prune4m0.05").margin == 0.05
    assert _policy("net+prune4").margin == bg.nn.DEFAULT_MARGIN
    with pytest.raises(bg.BackgammonError, match="expected K or KmM"):
        _policy("net+prune4x")


@pytest.mark.parametrize("keep", [-1, 17, 2.5, True, "3"])
def test_a_bad_keep_is_refused(keep):
    full, screen = nets()
    with pytest.raises(bg.BackgammonError, match="keep must be an integer"):
        full.with_pruning(screen, keep)


@pytest.mark.parametrize("margin", [-0.1, 4.5, float("nan"), float("inf"), True, "0.1", None])
def test_a_bad_margin_is_refused(margin):
    full, screen = nets()
    with pytest.raises(bg.BackgammonError, match="margin must be a number"):
        full.with_pruning(screen, 3, margin)


def test_the_cli_reads_a_screen_with_or_without_a_margin():
    import argparse

    from backgammon.cli import _prune

    assert _prune("8") == (8, None) and _prune("6m0") == (6, 0.0)
    assert _prune("8m0.12") == (8, 0.12) and _prune("4m.5") == (4, 0.5)
    for bad in ("", "m0.1", "8m", "8m-1", "eight", "8m0.1x", "1234"):
        with pytest.raises(argparse.ArgumentTypeError, match="expected K or KmM"):
            _prune(bad)


def test_bad_screens_are_refused():
    full, screen = nets()
    with pytest.raises(bg.BackgammonError, match="pruning must be an Evaluator"):
        full.with_pruning("nets.npz", 3)   # type: ignore[arg-type]
    with pytest.raises(bg.BackgammonError, match="cannot have a screen of its own"):
        full.with_pruning(screen.with_pruning(screen, 2), 3)
    with pytest.raises(ValueError, match="TD training"):
        full.with_pruning(screen, 2)._nets.td_games(bg.Position.initial()._b, 1, 0, 1, 0.1)


def test_the_cli_analyses_and_rolls_out_with_the_screen(tmp_path, capsys):
    from backgammon.cli import main

    from test_analysis import _bot_match

    match, _ = _bot_match(1, seed=4, evaluator=Evaluator.fast(), blunder_at=None)
    path = tmp_path / "match.mat"
    path.write_text(match.to_mat())
    assert main(["analyse", str(path), "--ply", "1", "--prune", "3", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["ply"] == 1
    assert main(["analyse", str(path), "--ply", "0", "--nets", "strong", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["ply"] == 0
    assert main(["analyse", str(path), "--nets", "pubeval"]) == 2
    assert "needs nets" in capsys.readouterr().err
    assert main(["rollout", "--games", "36", "--seed", "1", "--prune", "3", "--policy", "fast",
                 "--no-progress", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["policy"] == "fast+prune3"
    assert main(["duel", "pubeval+prune3", "net", "--games", "2"]) == 2
    assert "not pubeval's" in capsys.readouterr().err
