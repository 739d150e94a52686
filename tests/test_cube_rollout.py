"""Cube decisions by rollout (backgammon.rollout_cube), the no-double start of a
cubeful rollout, and the game state every analysed decision carries (Decision.to_game)."""

from __future__ import annotations

import pytest

import backgammon as bg
from backgammon.cube import met
from backgammon.errors import IllegalActionError, RolloutError
from boards import board

# One checker on our 1-point against three left on the opponent's: any roll wins a
# single game (RULES 7.2) at once.
SURE_WIN = board({1: 1}, {19: 3, 20: 3, 21: 3})
# Two checkers on our 6-point against four on the opponent's 5- and 6-points: we bear
# off both at once with 33, 44, 55, 66, else next turn, unless the opponent rolls
# 55 or 66 first; no gammons either way.
RACE = board({6: 2}, {19: 2, 20: 2})


def test_sure_win_is_double_pass_with_exact_values():
    # No double: +1 in every game.  Double, take: the taker loses 2 at the 2-cube,
    # +2 per unit of the stake.  Double, pass: +1.  So pass (2 > 1), and the double
    # cashes at the tie of +1 (cube.h and CubeDecision cash on a tie).
    d = bg.rollout_cube(SURE_WIN, games=1296, seed=4)
    assert (d.no_double, d.double_take, d.double_pass) == (1.0, 2.0, 1.0)
    assert d.stderr == {"no double": 0.0, "double, take": 0.0, "difference": 0.0}
    assert d.action == "Double, pass" and not d.take and d.games == 1296 and d.x is None


def test_branches_are_the_cubeful_rollouts_with_common_dice():
    # Independently: the no-double branch is rollout(no_double=True), the double/take
    # branch the rollout of the game after double and take, twice its value per unit
    # of the stake (money); one block of 1,296 games uses the seed as given.
    game = bg.Game.from_position(RACE)
    d = bg.rollout_cube(game, games=1296, seed=7)
    nd = bg.rollout(game, 1296, seed=7, cube=True, no_double=True)
    taken = game.copy()
    taken.double()
    taken.take()
    dt = bg.rollout(taken, 1296, seed=7, cube=True)
    assert d.no_double == pytest.approx(nd.cubeful.value, abs=1e-12)
    assert d.double_take == pytest.approx(2 * dt.cubeful.value, abs=1e-12)
    # the paired difference is known far better than either equity's sum of errors
    assert 0 < d.stderr["difference"] < d.stderr["no double"] + d.stderr["double, take"]
    # the start's no double matters: doubling at once here cashes in every game
    cash = bg.rollout(game, 1296, seed=7, cube=True)
    assert cash.cubeful.value == 1.0 and cash.cubeful.stderr == 0.0
    assert nd.cubeful.value < 1.0


def test_two_blocks_stratified_error_and_seed_fixes_the_result():
    a = bg.rollout_cube(RACE, games=1297, seed=3)   # rounded up to 2 blocks
    b = bg.rollout_cube(RACE, games=2592, seed=3)
    assert a.games == 2592 and a == b and a.stderr == b.stderr


def test_match_play_values_are_match_winning_chances():
    # 5-point match at 2-1 (3-away vs 4-away), the race: double, pass gives the
    # player MWC(2-away, 4-away) from the table.
    game = bg.Game.from_position(RACE, match_length=5, score=(2, 1))
    d = bg.rollout_cube(game, games=1296, seed=5)
    assert d.score == (3, 4) and d.double_pass == pytest.approx(met.equity(2, 4))
    assert 0.0 <= d.no_double <= 1.0 and 0.0 <= d.double_take <= 1.0
    # a position spelt with the score as arguments gives the same
    e = bg.rollout_cube(RACE, games=1296, seed=5, score=(3, 4))
    assert (e.no_double, e.double_take) == (d.no_double, d.double_take)


def test_refusals():
    crawford = bg.Game.from_position(RACE, match_length=5, score=(4, 1), crawford=True)
    with pytest.raises(IllegalActionError, match="may not double"):
        bg.rollout_cube(crawford, games=1296)
    owned = bg.Game.from_position(RACE, cube=2, cube_owner=1)
    with pytest.raises(IllegalActionError, match="may not double"):
        bg.rollout_cube(owned, games=1296)
    moving = bg.Game.from_position(RACE, dice=(3, 1))
    with pytest.raises(IllegalActionError, match="before the roll"):
        bg.rollout_cube(moving)
    with pytest.raises(RolloutError, match="games"):
        bg.rollout_cube(RACE, games=0)
    with pytest.raises(TypeError):
        bg.rollout_cube(42)
    with pytest.raises(RolloutError, match="no_double"):
        bg.rollout(RACE, 72, no_double=True)


def test_a_double_just_offered_rolls_out_the_doublers_decision():
    # A game waiting for the answer to a double (phase "doubled", what an analysed take
    # or pass rebuilds) asks the doubler's question from the moment before the double:
    # the same games (same seed) as the game before it, so the very same figures.  In
    # SURE_WIN the taker loses the 2-cube in every game: double, pass, and take is False.
    before = bg.Game.from_position(SURE_WIN, match_length=5, score=(2, 1))
    doubled = before.copy()
    doubled.double()
    assert doubled.phase is bg.Phase.DOUBLED
    d = bg.rollout_cube(doubled, games=1296, seed=3)
    assert d == bg.rollout_cube(before, games=1296, seed=3)
    assert (d.score, d.cube, d.owner) == ((3, 4), 1, "centred")   # the cube before the double
    assert d.action == "Double, pass" and not d.take
    # the doubled game is left as it was, and the ID of it reads the same
    assert doubled.phase is bg.Phase.DOUBLED and doubled.cube == 1
    assert bg.rollout_cube(doubled.gnubg_id(), games=1296, seed=3) == d
    # a redouble of an owned cube: the owner's decision at cube 2
    owned = bg.Game.from_position(RACE, cube=2, cube_owner=0)
    redoubled = owned.copy()
    redoubled.double()
    r = bg.rollout_cube(redoubled, games=1296, seed=8)
    assert r == bg.rollout_cube(owned, games=1296, seed=8) and (r.cube, r.owner) == (2, "own")


def test_an_analysed_pass_rolls_out():
    # The analyst's case: an analysed answer to a double rebuilds a game in phase
    # "doubled"; its rollout is the doubler's decision, the same as the game's before
    # the double (player 0 doubled in RACE at 2-1 of a 5-point match, and 1 passed).
    import numpy as np

    class Even:   # every board an even game: a cheap evaluator for the analysis
        def evaluate_batch(self, boards):
            out = np.zeros((len(boards), 5), np.float32)
            out[:, 0] = 0.5
            return out

    game = bg.Game.from_position(RACE, match_length=5, score=(2, 1))
    game.double()
    game.drop()
    answer = bg.analyse(game, evaluator=Even(), ply=0).decisions[-1]
    assert (answer.player, answer.made) == (1, "pass")
    doubled = answer.to_game()
    assert doubled.phase is bg.Phase.DOUBLED
    d = bg.rollout_cube(doubled, games=1296, seed=2)
    before = bg.Game.from_position(RACE, match_length=5, score=(2, 1))
    assert d == bg.rollout_cube(before, games=1296, seed=2) and d.score == (3, 4)


def test_decision_to_game_rebuilds_the_moment():
    m = bg.Match(5, rng=1)
    g = m.game
    g.roll((3, 1))
    g.play("8/5 6/5")
    g.double()
    g.take()
    g.roll((6, 4))
    g.play("24/18 13/9")
    a = bg.analyse(m)
    play0, double, take, play1 = a.decisions
    t = play0.to_game()
    assert (t.phase, t.dice, t.turn, t.match_length, t.score) == (bg.Phase.MOVE, (3, 1), 0, 5, (0, 0))
    assert t.position == bg.Position.initial()
    t = double.to_game()   # player 1 before its double: waiting for the roll, cube 1
    assert (t.phase, t.turn, t.cube, t.cube_owner) == (bg.Phase.ROLL, 1, 1, None)
    assert t.cube_decision().action == double.cube_action
    t = take.to_game()     # the double pending
    assert (t.phase, t.cube) == (bg.Phase.DOUBLED, 1)
    t = play1.to_game()
    assert (t.phase, t.dice, t.cube, t.cube_owner) == (bg.Phase.MOVE, (6, 4), 2, 0)
    # saved and read back, the state stays
    back = bg.Analysis.from_json(a.to_json())
    assert back.decisions[1].to_game().gnubg_id() == double.to_game().gnubg_id()


def test_cli_cube(capsys):
    from backgammon.cli import main

    assert main(["cube", "4HPwATDgc/ABMA"]) == 0
    assert "Proper cube action: No double, take" in capsys.readouterr().out
    assert main(["cube", RACE.position_id(), "--rollout", "1296", "--seed", "2"]) == 0
    out = capsys.readouterr().out
    assert "rollout of 1,296 games" in out and "paired games" in out and "Double, pass" in out
    assert main(["cube", "XGID=-b----E-C---eE---c-e----B-:0:0:1:52:0:0:0:7:10"]) == 2
    assert "before the roll" in capsys.readouterr().err


def test_rollout_plays_include_is_always_rolled_out():
    # 31 at the opening: 8/5 6/5 is the best by far; 6/2 is far down the list
    pos = bg.Position.initial()
    ranked = [str(r.play) for r in pos.rank_plays("31")]
    assert ranked[0] == "8/5 6/5" and ranked.index("6/2") >= 2
    rows = bg.rollout_plays(pos, "31", top=2, games=72, seed=1, policy="pubeval",
                            include=["6/2", "8/5 6/5"])
    assert sorted(str(r.play) for r in rows) == sorted(ranked[:2] + ["6/2"])
    from backgammon.cli import main
    assert main(["analyse-roll", pos.position_id(), "31", "--top", "1", "--games", "72",
                 "--policy", "pubeval", "--include", "6/2", "--no-progress",
                 "--seed", "1"]) == 0


def test_rollout_plays_of_a_game_is_cubeful_and_match_aware():
    # Each candidate's equity is the opponent's cubeful rollout after the play, turned:
    # money -value (per unit of the stake), match 1 - MWC; the same seed plays the same
    # games, so the figures agree exactly with bg.rollout of the game after the play.
    for kw in ({}, {"match_length": 5, "score": (2, 3)}):
        game = bg.Game.from_position(board({6: 3, 5: 2}, {19: 3, 20: 2}), dice=(2, 1), **kw)
        rows = bg.rollout_plays(game, top=2, games=1296, seed=9)
        assert rows.cube == ("match" if kw else "money")
        for row in rows:
            after = game.copy()
            after.play(row.play.moves)
            r = bg.rollout(after, 1296, seed=9, cube=True)
            expect = (1.0 - r.cubeful.value) if kw else -r.cubeful.value
            assert row.equity.value == pytest.approx(expect, abs=1e-9)
        assert "cubeful" in str(rows)
        assert bg.PlaysRollout.from_dict(rows.to_dict()).cube == rows.cube
    # a play that ends the game: its exact cubeful value (match: the MWC of the win)
    game = bg.Game.from_position(board({1: 1, 2: 1}, {19: 3}), dice=(2, 1), match_length=5,
                                 score=(0, 0))
    rows = bg.rollout_plays(game, games=1296, seed=1, top=1)
    assert rows[0].equity.value == pytest.approx(met.equity(4, 5))
    moving = bg.Game.from_position(RACE)
    with pytest.raises(RolloutError, match="rolled"):
        bg.rollout_plays(moving)


def test_an_xgid_or_gnubg_id_brings_its_cube_and_score():
    # The spelling of a game records its cube, owner, score and Crawford game; the
    # rollout must read them as `backgammon cube ID --rollout N` does, not start
    # again at a centred 1-cube in money play.
    owned = bg.Game.from_position(RACE, cube=2, cube_owner=1)    # the opponent owns it
    crawford = bg.Game.from_position(RACE, match_length=5, score=(4, 1), crawford=True)
    for game in (owned, crawford):
        for spelling in (game.xgid(), game.gnubg_id()):
            with pytest.raises(IllegalActionError, match="may not double"):
                bg.rollout_cube(spelling, games=1296, seed=1)
    # ours, on 2, in a 5-point match at 2-1 (3-away vs 4-away): double, pass wins the
    # 2-cube, leaving 1-away vs 4-away, and the decision carries the ID's cube and score
    ours = bg.Game.from_position(RACE, cube=2, cube_owner=0, match_length=5, score=(2, 1))
    d = bg.rollout_cube(ours.xgid(), games=1296, seed=5)
    assert (d.cube, d.owner, d.score) == (2, "own", (3, 4))
    assert d.double_pass == pytest.approx(met.equity(1, 4))
    assert d == bg.rollout_cube(ours, games=1296, seed=5)
    # arguments that the spelling already records are refused, not dropped
    with pytest.raises(bg.BackgammonError, match="score"):
        bg.rollout_cube(ours.xgid(), games=1296, score=(3, 4))


def test_games_has_an_upper_limit():
    from backgammon.rollout.cube import MAX_CUBE_GAMES

    assert MAX_CUBE_GAMES == 1000 * 1296
    # refused before any array is made or game played, naming the limit
    with pytest.raises(RolloutError, match="1,296,000"):
        bg.rollout_cube(RACE, games=MAX_CUBE_GAMES + 1)
    with pytest.raises(RolloutError, match="games"):
        bg.rollout_cube(RACE, games=10**30)
