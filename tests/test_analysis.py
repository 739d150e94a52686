"""Match analysis (backgammon.analysis): decisions, flags, totals, luck, reports, CLI.

The evaluators here are transparent (a fixed chance, exact bear-off chances,
a pip-and-blot formula), so expected answers follow from the cube model by
hand and do not depend on trained nets.
"""

from __future__ import annotations

import doctest
import json
import shutil
import subprocess

import numpy as np
import pytest

import backgammon as bg
from backgammon import analysis, bearoff
from backgammon.cube import cubeful
from backgammon.analysis import Analysis, analyse
from backgammon.cube.search import efficiencies
from backgammon.errors import BackgammonError, InvalidRecordError


# ---------------------------------------------------------------- evaluators

class Fixed:
    """Every board: the player on roll wins with chance p, no gammons."""

    def __init__(self, p: float) -> None:
        self.p = p

    def evaluate_batch(self, boards):
        out = np.zeros((len(boards), 5), np.float32)
        out[:, 0] = self.p
        return out


class Exact:
    """Exact cubeless chances of bear-offs (and of finished games)."""

    def evaluate_batch(self, boards):
        b = np.asarray(boards, np.int8)
        out = np.zeros((len(b), 5), np.float32)
        live = [i for i, row in enumerate(b) if (row > 0).any() and (row < 0).any()]
        if live:
            out[live] = bearoff.batch_probabilities(b[live])
        # a finished board seen by the player on roll: the opponent bore off, we lost
        return out


class PipsAndBlots:
    """Win chance from the pip-count lead and the blots (a blot costs 0.3 in logit)."""

    def evaluate_batch(self, boards):
        b = np.asarray(boards, np.int16)
        idx = np.arange(26)
        own = np.where(b > 0, b, 0)
        opp = np.where(b < 0, -b, 0)
        lead = (opp * (25 - idx)).sum(axis=1) - (own * idx).sum(axis=1)
        blots = (b[:, 1:25] == 1).sum(axis=1) - (b[:, 1:25] == -1).sum(axis=1)
        out = np.zeros((len(b), 5), np.float32)
        out[:, 0] = 1.0 / (1.0 + np.exp(-(0.05 * lead - 0.3 * blots)))
        done = ~(b < 0).any(axis=1)      # the opponent has borne off: we lost
        out[done, 0] = 0.0
        return out


def _board(own: dict[int, int], opp: dict[int, int]) -> bg.Position:
    """A position from the mover's points -> checkers and the opponent's (its own numbering)."""
    a = [0] * 26
    for p, n in own.items():
        a[p] = n
    for p, n in opp.items():
        a[25 - p] = -n
    return bg.Position(a)


# ---------------------------------------------------------------- forced plays and luck

def test_forced_only_game_has_no_decisions_and_exact_luck():
    # Two checkers on my 6-point against one on the opponent's ace: I win only with
    # 3-3, 4-4, 5-5 or 6-6 (4 rolls of 36), else the opponent bears off next.  Every
    # play here is forced; the cube is off, so cubeful = cubeless equity.
    pos = _board({6: 2}, {1: 1})
    for dice, expected in (((6, 6), 1 - (2 * 4 / 36 - 1)), ((6, 5), -1 - (2 * 4 / 36 - 1))):
        game = bg.Game.from_position(pos, rules=bg.Rules(cube=False))
        game.roll(dice)
        game.play(game.position.legal_plays(dice)[0])
        if not game.over:
            game.roll((2, 1))
            game.play(game.position.legal_plays((2, 1))[0])
        assert game.over
        a = analyse(game, evaluator=Exact())
        assert a.decisions == ()
        assert a.rolls[0].player == 0 and a.rolls[0].dice == dice
        assert a.rolls[0].luck == pytest.approx(expected, abs=1e-6)
        assert all(r.luck == pytest.approx(0, abs=1e-6) for r in a.rolls[1:])  # a sure win
        assert a.stats(0).plays == 1 and a.stats(0).unforced_plays == 0
        assert a.error_rate(0) == 0.0
    assert analysis.decisions.luck_label(1.778) == "very lucky"
    assert analysis.decisions.luck_label(-0.222) is None
    assert analysis.decisions.luck_label(-0.45) == "unlucky"


def test_luck_averages_to_zero_over_the_rolls():
    valuer = analysis.Valuer(PipsAndBlots(), 0)
    game = bg.Game.from_position(bg.Position.initial())
    ctx = analysis.decision_context(game, 0)
    board = np.frombuffer(bg.Position.initial()._b, np.int8)
    total = sum((1 if a == b else 2) / 36 * valuer.luck(board, (a, b), ctx, opening=False)[0]
                for a in range(1, 7) for b in range(a, 7))
    assert total == pytest.approx(0.0, abs=1e-9)
    opening = sum(valuer.luck(board, (a, b), ctx, opening=True)[0] / 15
                  for a in range(1, 7) for b in range(a + 1, 7))
    assert opening == pytest.approx(0.0, abs=1e-9)


def test_efficiencies_match_cube_efficiency():
    rng = np.random.default_rng(4)
    boards = []
    m = bg.Match(5, rng=2)
    g = m.game
    while not g.over and len(boards) < 120:
        if g.phase is bg.Phase.MOVE:
            plays = g.position.legal_plays(g.dice)
            g.play(plays[int(rng.integers(len(plays)))])
        else:
            g.roll()
        boards.append(g.position.to_array())
    boards.append(_board({6: 2}, {1: 1}).to_array())
    boards.append(_board({6: 2, 9: 1}, {1: 1, 20: 3}).to_array())
    arr = np.array(boards, np.int8)
    expected = [cubeful.cube_efficiency(bg.Position.from_array(row)) for row in arr]
    assert efficiencies(arr) == pytest.approx(expected)


# ---------------------------------------------------------------- checker plays

def test_blot_left_needlessly_is_flagged_with_the_hand_computed_loss():
    # Money, no cube: the loss is the cubeless equity difference, computed here
    # from the evaluator directly (swap the result to the opponent, flip the chance).
    pos = _board({13: 5, 8: 3, 6: 5, 24: 2}, {13: 5, 8: 3, 6: 5, 24: 2})
    dice = (6, 1)
    game = bg.Game.from_position(pos, dice=dice, rules=bg.Rules(cube=False))
    blunder = pos.parse_play("24/18 8/7", dice)     # two blots; 13/7 8/7 makes a point
    game.play(blunder)
    a = analyse(game, evaluator=PipsAndBlots())
    [d] = a.decisions
    ev = PipsAndBlots()

    def value(play):
        p = ev.evaluate_batch(np.array([play.result.swapped().to_array()]))[0, 0]
        return 1 - 2 * p                            # the mover's cubeless equity
    best = max(pos.legal_plays(dice), key=value)
    assert str(best) == "13/7 8/7"
    assert d.kind == "play" and d.player == 0 and d.made == "24/18 8/7" and d.best == "13/7 8/7"
    assert d.loss == pytest.approx(value(best) - value(blunder), abs=1e-5)
    assert d.loss > 0.16 and d.flag == "very bad" and d.xg == "blunder"
    assert d.equity_best - d.equity_made == pytest.approx(d.loss)
    assert d.loss_mwc is None and d.options[0][0] == "13/7 8/7"


def _bot_match(length: int, seed: int, evaluator, blunder_at: int | None):
    """A match where both sides make the analysis's best play, except one blunder:
    the first decision from number ``blunder_at`` on whose worst play loses > 0.2."""
    valuer = analysis.Valuer(evaluator, 0)
    m = bg.Match(length, rng=seed)
    count, blunder = 0, None
    while True:
        g = m.game
        while not g.over:
            if g.phase is not bg.Phase.MOVE:
                g.roll()
                continue
            plays = g.position.legal_plays(g.dice)
            values, _ = valuer.after(plays._results, analysis.decision_context(g, g.turn))
            pick = int(np.argmax(values))
            if len(plays) > 1:
                count += 1
                worst = int(np.argmin(values))
                if (blunder is None and blunder_at is not None and count >= blunder_at
                        and values[pick] - values[worst] > 0.2):
                    blunder = (len(m.games) - 1, g.turn, str(plays[worst]))
                    pick = worst
            g.play(plays[pick])
        if m.over:
            return m, blunder
        m.next_game()


def test_one_deliberate_blunder_is_the_only_flag():
    m, blunder = _bot_match(3, seed=11, evaluator=PipsAndBlots(), blunder_at=12)
    assert blunder is not None
    a = analyse(m, cube=False, evaluator=PipsAndBlots())
    flagged = a.flagged()
    assert [(d.game, d.player, d.made) for d in flagged] == [blunder]
    assert flagged[0].flag == "very bad" and flagged[0].loss > 0.2
    assert all(d.loss < 1e-9 for d in a.decisions if d is not flagged[0])
    assert all(d.kind == "play" for d in a.decisions)
    # every unforced play of the record is a decision, each of its mover
    for player in (0, 1):
        s = a.stats(player)
        assert s.unforced_plays == sum(d.player == player for d in a.decisions)
        assert s.loss_mwc is not None and s.loss_mwc == pytest.approx(flagged[0].loss_mwc
                                                                      if player == blunder[1] else 0)


def test_totals_add_up():
    m, _ = _bot_match(5, seed=3, evaluator=PipsAndBlots(), blunder_at=5)
    a = analyse(m, evaluator=PipsAndBlots())
    for player in (0, 1):
        s = a.stats(player)
        mine = [d for d in a.decisions if d.player == player]
        assert all(d.loss >= 0 for d in mine)
        assert s.loss == pytest.approx(sum(d.loss for d in mine))
        assert s.loss_plays + s.loss_cube == pytest.approx(s.loss)
        assert s.unforced_plays + s.cube_decisions == len(mine)
        assert s.counted == sum(d.counted for d in mine)
        assert a.error_rate(player) == pytest.approx(1000 * s.loss / s.counted)
        assert a.pr(player) == pytest.approx(500 * s.loss / s.counted_pr)
        assert sum(s.flags.values()) == len(a.flagged(player))
        rolls = [r for r in a.rolls if r.player == player]
        assert s.luck == pytest.approx(sum(r.luck for r in rolls)) and s.rolls == len(rolls)
        assert s.loss_mwc == pytest.approx(sum(d.loss_mwc for d in mine))
    assert sum(a.stats(p).plays for p in (0, 1)) == sum(
        1 for g in m.games for act in g.actions if act.kind == "play")


def test_a_play_the_nets_rate_far_worse_is_the_only_flag():
    nets = bg.Evaluator.default()
    m, blunder = _bot_match(1, seed=7, evaluator=nets, blunder_at=6)
    assert blunder is not None
    # the bundled nets by default; at 0-ply, where the bot's plays (the nets' 0-ply
    # best) lose nothing but the blunder (the default ply 1 sees deeper)
    a = analyse(m, ply=0, cube=False)
    assert a.ply == 0 and analyse(bg.Match(1), cube=False).ply == analysis.DEFAULT_PLY == 2
    assert [(d.game, d.player, d.made) for d in a.flagged()] == [blunder]
    assert a.flagged()[0].flag == "very bad"


def test_deeper_plies_with_the_nets():
    game = bg.Game(rng=4)
    for _ in range(12):
        if game.phase is bg.Phase.MOVE:
            game.play(bg.nn.best_play(game.position, game.dice))
        else:
            game.roll()
    a0, a1 = analyse(game, ply=0), analyse(game, ply=1)
    assert a1.ply == 1 and len(a1.decisions) == len(a0.decisions) > 0
    assert [d.made for d in a1.decisions] == [d.made for d in a0.decisions]
    for d in a1.decisions:
        assert d.loss >= 0 and d.equity_best >= d.equity_made - 1e-12
    assert [r.luck for r in a1.rolls] == [r.luck for r in a0.rolls]   # luck stays at 0-ply


# ---------------------------------------------------------------- cube decisions

def _money(p: float):
    game = bg.Game.from_position(bg.Position.initial())   # contact: x = 0.68
    return game, Fixed(p)


def test_missed_double_is_flagged():
    # p = 0.78, no gammons, x = 0.68 (Janowski by hand): no double
    # 0.68 * 0.9333 + 0.32 * 0.56 = 0.814; double, take 2 * (0.68 * 0.45 + 0.32 * 0.56)
    # = 0.970 < double, pass 1: the proper action is double, take; not doubling loses 0.156.
    game, ev = _money(0.78)
    game.roll((3, 1))
    game.play("8/5 6/5")
    a = analyse(game, evaluator=ev)
    [cube] = [d for d in a.decisions if d.kind == "cube"]
    assert (cube.player, cube.made, cube.best) == (0, "no double", "double")
    assert cube.loss == pytest.approx(0.970 - 0.814, abs=2e-3)
    assert cube.flag == "missed double" and cube.skill == "very bad" and cube.counted  # 0.156 > 0.12
    assert cube.cube_action == "Double, take"
    assert a.stats(0).flags == {"missed double": 1}


def test_wrong_take_is_flagged():
    # p = 0.95: double, take is worth 2 * (0.68 * 0.875 + 0.32 * 0.9) = 1.766 > 1: pass.
    game, ev = _money(0.95)
    game.double()
    game.take()
    a = analyse(game, evaluator=ev)
    double, take = a.decisions
    assert (double.player, double.made, double.best, double.flag) == (0, "double", "double", None)
    assert double.loss == pytest.approx(0.0, abs=1e-9)
    assert (take.player, take.made, take.best, take.flag) == (1, "take", "pass", "wrong take")
    assert take.loss == pytest.approx(1.766 - 1.0, abs=2e-3)


def test_wrong_double_and_wrong_pass_are_flagged():
    # p = 0.60: no double 0.68 * 1/3 + 0.32 * 0.2 = 0.291; double, take
    # 2 * (0.68 * 0 + 0.32 * 0.2) = 0.128: no double, take.  Doubling loses 0.163,
    # passing loses 1 - 0.128 = 0.872 for the taker.
    game, ev = _money(0.60)
    game.double()
    game.drop()
    a = analyse(game, evaluator=ev)
    double, drop = a.decisions
    assert (double.made, double.best, double.flag) == ("double", "no double", "wrong double")
    assert double.loss == pytest.approx(0.291 - 0.128, abs=2e-3) and double.skill == "very bad"
    assert (drop.player, drop.made, drop.best, drop.flag) == (1, "pass", "take", "wrong pass")
    assert drop.loss == pytest.approx(1.0 - 0.128, abs=2e-3)
    assert analyse(game, cube=False, evaluator=ev).decisions == ()


def test_match_play_losses_in_mwc():
    # At 7-away each, a normalised loss converts to MWC with half the gap between
    # winning and losing the cube's point: (MET(6, 7) - MET(7, 6)) / 2.
    m = bg.Match(7)
    m.game.roll((3, 1))
    m.game.play("8/5 6/5")
    m.game.double()
    m.game.drop()
    a = analyse(m, evaluator=Fixed(0.6))
    drop = a.decisions[-1]
    assert (drop.player, drop.made) == (0, "pass")      # player 1 doubled at its first turn
    half_gap = (bg.met.equity(6, 7) - bg.met.equity(7, 6)) / 2
    assert drop.loss_mwc == pytest.approx(drop.loss * half_gap, rel=1e-6)
    assert a.stats(0).loss_mwc == pytest.approx(drop.loss_mwc)
    assert "match winning chances" in str(a)


def test_crawford_game_has_no_cube_decisions():
    game = bg.Game.from_position(bg.Position.initial(), match_length=5, score=(4, 2),
                                 crawford=True)
    game.roll((3, 1))
    game.play("8/5 6/5")
    assert [d.kind for d in analyse(game, evaluator=Fixed(0.8)).decisions] == ["play"]


def test_dead_cube_has_no_cube_decision():
    # 5-point match at 3-0: player 0 takes player 1's double and owns the cube at 2;
    # then winning the game at the cube wins player 0 the match (3 + 2 >= 5), so its
    # redouble is no decision (gnubg's GetDPEq).  Live ones: player 0 at cube 1
    # (3 + 1 < 5), player 1 (0 + 1 < 5) and the take.
    game = bg.Game.from_position(bg.Position.initial(), match_length=5, score=(3, 0))
    game.roll((3, 1))
    game.play("8/5 6/5")
    game.double()
    game.take()
    game.roll((4, 2))
    game.play("8/4 6/4")
    game.roll((6, 1))   # player 0 on roll with a dead cube
    game.play("13/7 8/7")
    cubes = [d for d in analyse(game, evaluator=Fixed(0.8)).decisions if d.kind == "cube"]
    assert [(d.player, d.made) for d in cubes] == [(0, "no double"), (1, "double"), (0, "take")]
    # doubling a dead cube anyway (player 1 at 4-away needs the one point: 4 + 1 >= 5):
    # neither the double nor its answer is a decision
    game = bg.Game.from_position(bg.Position.initial(), match_length=5, score=(0, 4))
    game.roll((3, 1))
    game.play("8/5 6/5")
    game.double()
    game.take()
    cubes = [d for d in analyse(game, evaluator=Fixed(0.8)).decisions if d.kind == "cube"]
    assert [(d.player, d.made) for d in cubes] == [(0, "no double")]


def test_thresholds_are_gnubgs_and_settable():
    assert analysis.SKILL_THRESHOLDS == (("very bad", 0.12), ("bad", 0.06), ("doubtful", 0.03))
    # p = 0.78 (test_missed_double_is_flagged): not doubling loses 0.156
    game, ev = _money(0.78)
    game.roll((3, 1))
    game.play("8/5 6/5")
    [cube] = [d for d in analyse(game, evaluator=ev, thresholds=(0.1, 0.2, 0.3)).decisions
              if d.kind == "cube"]
    assert cube.skill == "doubtful" and cube.flag == "missed double"
    [cube] = [d for d in analyse(game, evaluator=ev, thresholds=(0.2, 0.3, 0.4)).decisions
              if d.kind == "cube"]
    assert cube.skill is None and cube.flag is None
    for bad in [(0.1, 0.05, 0.2), (0.1, 0.2), (-0.1, 0.1, 0.2), (0.1, 0.2, float("nan"))]:
        with pytest.raises(BackgammonError, match="thresholds"):
            analyse(game, evaluator=ev, thresholds=bad)
    with pytest.raises(TypeError, match="thresholds"):
        analyse(game, evaluator=ev, thresholds=0.1)


# ---------------------------------------------------------------- reports

@pytest.fixture(scope="module")
def report():
    m, _ = _bot_match(3, seed=5, evaluator=PipsAndBlots(), blunder_at=3)
    return analyse(m, evaluator=PipsAndBlots())


def test_from_dict_refuses_a_bad_player(report):
    data = report.to_dict()
    data["decisions"][0]["player"] = 5
    with pytest.raises(InvalidRecordError):
        Analysis.from_dict(data)
    data = report.to_dict()
    data["decisions"][0]["loss"] = float("nan")
    with pytest.raises(InvalidRecordError):
        Analysis.from_dict(data)


def test_json_round_trip(report):
    text = report.to_json()
    again = Analysis.from_json(text)
    assert again == report
    assert json.loads(again.to_json()) == json.loads(text)
    assert Analysis.from_dict(report.to_dict()).error_rate(1) == report.error_rate(1)


@pytest.mark.parametrize("bad", [
    None, [], {"format": "x"}, {"format": "backgammon-analysis", "version": 2},
    {"format": "backgammon-analysis", "version": 1},
    {"format": "backgammon-analysis", "version": 1, "names": ["a", "b"], "match_length": 3,
     "ply": 0, "cube": True, "decisions": [{"nope": 1}], "rolls": []},
    {"format": "backgammon-analysis", "version": 1, "names": ["a", "b"], "match_length": 3,
     "ply": 0, "cube": True, "decisions": "x", "rolls": []},
    {"format": "backgammon-analysis", "version": 1, "names": ["a", "b"], "match_length": 3,
     "ply": 0, "cube": True, "decisions": [], "rolls": [], "results": [{"winner": 2}]},
])
def test_from_dict_refuses_malformed(bad):
    with pytest.raises(InvalidRecordError):
        Analysis.from_dict(bad)
    with pytest.raises(InvalidRecordError):
        Analysis.from_json("{not json")


def test_text_report(report):
    text = str(report)
    assert "Error rate" in text and "PR" in text and "Luck" in text
    assert "game 1: Player " in text and " wins " in text
    assert f"Flagged decisions ({len(report.flagged())})" in text


def test_html_is_self_contained(report):
    page = report.to_html()
    assert page.startswith("<!DOCTYPE html>")
    assert page.count("<svg") == len(report.flagged()) > 0
    lowered = page.lower()
    for ref in ("http://", "https://", "src=", "href=", "@import", "url(", "<script", "<link"):
        assert ref not in lowered.replace('xmlns="http://www.w3.org/2000/svg"', ""), ref


def _browser():
    for name in ("chromium", "chromium-browser", "google-chrome", "chrome"):
        path = shutil.which(name)
        if path:
            return path
    return None


@pytest.mark.browser
@pytest.mark.skipif(_browser() is None, reason="no headless Chromium installed")
def test_html_renders_in_a_browser(report, tmp_path):
    from PIL import Image

    page = tmp_path / "report.html"
    page.write_text(report.to_html(), encoding="utf-8")
    png = tmp_path / "report.png"
    cmd = [_browser(), "--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars",
           f"--screenshot={png}", "--window-size=900,1400", page.as_uri()]
    subprocess.run(cmd, check=False, capture_output=True, timeout=120)
    assert png.exists(), "the browser wrote no screenshot"
    image = np.asarray(Image.open(png).convert("RGB"), np.int16)
    assert image.shape[0] >= 1000 and image.shape[1] >= 800
    # not blank: many colours, and a fair share of non-white pixels (text, boards)
    assert len(np.unique(image.reshape(-1, 3), axis=0)) > 50
    assert (image.sum(axis=2) < 600).mean() > 0.05


# ---------------------------------------------------------------- API edges and CLI

def test_bad_arguments():
    game, ev = _money(0.5)
    with pytest.raises(TypeError):
        analyse("match.mat", evaluator=ev)
    with pytest.raises(TypeError):
        analyse(game, cube=1, evaluator=ev)
    with pytest.raises(BackgammonError):
        analyse(game, ply=3, evaluator=ev)
    with pytest.raises(BackgammonError):
        analyse(game, ply=1, evaluator=ev)       # deeper plies need the nets
    with pytest.raises(TypeError):
        analyse(game, evaluator=object())
    with pytest.raises(BackgammonError):
        analyse(game, evaluator=ev).error_rate(2)
    for workers in (0, -1, 1.5, True, 257):
        with pytest.raises(BackgammonError, match="workers"):
            analyse(game, evaluator=ev, workers=workers)


def test_games_analysed_on_threads_give_the_same_analysis():
    # each game is analysed by its own analyser; merged in order, any number of
    # threads gives the very same report as one
    m, _ = _bot_match(5, seed=11, evaluator=bg.Evaluator.default(), blunder_at=None)
    assert len(m.games) >= 2
    one = analyse(m, ply=0, workers=1)
    for workers in (2, 3, None):
        assert analyse(m, ply=0, workers=workers) == one


@pytest.mark.slow
def test_cli_analyses_a_mat(tmp_path, monkeypatch, capsys):
    from backgammon.cli import main

    m, blunder = _bot_match(3, seed=11, evaluator=PipsAndBlots(), blunder_at=12)
    m.names = ("Alice", "Bob")
    path = tmp_path / "match.mat"
    path.write_text(m.to_mat())
    monkeypatch.setattr(analysis.analyser, "default_evaluator", PipsAndBlots)
    assert main(["analyse", str(path), "--no-cube"]) == 0
    out = capsys.readouterr().out
    assert "Alice" in out and "Bob" in out and "Flagged decisions (1)" in out
    assert blunder[2] in out
    assert main(["analyse", str(path), "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["names"] == ["Alice", "Bob"]
    html_path = tmp_path / "report.html"
    assert main(["analyse", str(path), "--html", str(html_path)]) == 0
    assert html_path.read_text().startswith("<!DOCTYPE html>")
    capsys.readouterr()
    assert main(["analyse", str(tmp_path / "missing.mat")]) == 2
    assert "cannot read" in capsys.readouterr().err
    assert main(["analyse", str(path), "--workers", "0"]) == 2
    assert "workers" in capsys.readouterr().err
    monkeypatch.undo()                                # now with the bundled nets (1-ply:
    assert main(["analyse", str(path), "--ply", "1"]) == 0   # the default 2-ply takes ~10 s)
    assert "Error rate" in capsys.readouterr().out
    json_path = tmp_path / "match.json"
    json_path.write_text(m.to_json())
    assert main(["analyse", str(json_path), "--no-cube", "--ply", "1"]) == 0
    assert "Alice" in capsys.readouterr().out
    sgf_path = tmp_path / "match.sgf"
    sgf_path.write_text(m.to_sgf())
    monkeypatch.setattr(analysis.analyser, "default_evaluator", PipsAndBlots)
    assert main(["analyse", str(sgf_path), "--no-cube"]) == 0
    out = capsys.readouterr().out
    assert "Alice" in out and "Flagged decisions (1)" in out and blunder[2] in out


def test_docstring_examples():
    import backgammon.analysis.html as page

    for module in (analysis.decisions, analysis.analyser, analysis.report, page):
        assert doctest.testmod(module, optionflags=doctest.ELLIPSIS).failed == 0


def test_unchecked_plays_and_resignations_are_no_decisions():
    # RULES 12.4: an illegal play recorded unchecked is no choice among legal plays;
    # flagged, its mover plays the same dice again, and that play is analysed.
    game = bg.Game(bg.Rules(over_the_board=True), rng=1)
    game.roll((3, 1))
    game.play([(8, 4)])                     # a 4 with 3-1
    game.flag()
    game.play("8/5 6/5")
    game.roll((6, 4))
    game.play([(24, 13)])                   # 11 pips with 6-4: stands unflagged
    game.roll((2, 1))
    game.resign("single")
    game.accept()
    a = analyse(game, evaluator=PipsAndBlots())
    plays = [d for d in a.decisions if d.kind == "play"]
    assert [(d.player, d.made) for d in plays] == [(0, "8/5 6/5")]
    assert a.results[0]["reason"] == "resign"
    assert "resigned" in str(a)


def test_deeper_plies_follow_the_move_filters():
    """At ply 2 a roll's plays go deeper by gnubg's filters, checked against a
    slow walk of one play at a time: every play at 0-ply, then the 8 best
    within 0.16 at 1-ply, then the 2 best of those within 0.04 at 2-ply; the
    play made always reaches 2-ply, and the plays left behind are not ranked."""
    ev = bg.Evaluator.default()
    pos = bg.Position.from_position_id("4HPwATDgc/ABMA")   # the opening position
    plays = pos.legal_plays((6, 4))
    results = plays._results
    ctx = analysis.decision_context(bg.Game(), 0)
    valuer = analysis.Valuer(ev, 2)

    def value(i, ply):
        return float(valuer.after(results[[i]], ctx, ply)[0][0])

    eq0 = {i: value(i, 0) for i in range(len(plays))}
    order0 = sorted(eq0, key=lambda i: -eq0[i])
    made = order0[-1]                   # the worst play, far behind the best
    level1 = [i for i in order0[:8] if eq0[i] >= eq0[order0[0]] - 0.16]
    assert made not in level1 and len(level1) >= 3
    eq1 = {i: value(i, 1) for i in level1 + [made]}
    order1 = sorted(level1, key=lambda i: -eq1[i])
    level2 = [i for i in order1[:2] if eq1[i] >= eq1[order1[0]] - 0.04] + [made]
    expected = {i: value(i, 2) for i in level2}

    values, mwc = valuer.play_values(results, ctx, made)
    assert mwc is None
    assert {i for i in range(len(plays)) if np.isfinite(values[i])} == set(expected)
    for i, v in expected.items():
        assert values[i] == pytest.approx(v, abs=1e-6)


def test_cli_checks_the_html_path_before_analysing(tmp_path, monkeypatch, capsys):
    # A report path that cannot be written (its folder missing, or a folder itself) is
    # refused at once, before the analysis: the analysis must not even start.
    from backgammon.cli import main

    path = tmp_path / "match.json"
    path.write_text(bg.Match(3, rng=1).to_json())

    def no_analysis(*args, **kwargs):
        raise AssertionError("analysed before checking the output")

    monkeypatch.setattr(analysis, "analyse", no_analysis)
    for bad in (tmp_path / "missing" / "report.html", tmp_path):
        assert main(["analyse", str(path), "--html", str(bad)]) == 2
        err = capsys.readouterr().err
        assert f"cannot write {str(bad)!r}" in err
    assert "folder" in err
    # a writable path is checked without leaving a file behind, and an existing
    # file is left as it was until the report is written over it
    from backgammon.cli import _unwritable

    good = tmp_path / "report.html"
    assert _unwritable(str(good)) == "" and not good.exists()
    good.write_text("old")
    assert _unwritable(str(good)) == "" and good.read_text() == "old"


# ---------------------------------------------------------------- for people

def _doubled_and_passed():
    """A 7-point match: player 0 plays 8/5 6/5 (31), player 1 doubles, player 0 passes,
    valued with an even game everywhere (Fixed(0.6) from the doubler's side, as in
    test_match_play_losses_in_mwc): no double is right, and passing is a wrong pass."""
    m = bg.Match(7, names=("Ann", "Bob"))
    m.game.roll((3, 1))
    m.game.play("8/5 6/5")
    m.game.double()
    m.game.drop()
    return m


def test_reports_show_score_cube_and_ids_of_flagged_decisions(report):
    m = _doubled_and_passed()
    # the moment of the pass, rebuilt independently: the same actions up to the double
    moment = bg.Game(match_length=7)
    moment.roll((3, 1))
    moment.play("8/5 6/5")
    moment.double()
    gnubg_id, xgid = moment.gnubg_id(), moment.xgid()
    a = analyse(m, evaluator=Fixed(0.6))
    drop = a.decisions[-1]
    assert (drop.made, drop.flag) == ("pass", "wrong pass")
    assert (drop.gnubg_id, drop.xgid, drop.away) == (gnubg_id, xgid, (7, 7))
    situation = "Ann 7-away, Bob 7-away, cube 1 centred, doubled to 2"
    assert drop.situation(a.names) == situation
    text = str(a)
    assert situation in text and f"GNUbgID {gnubg_id}" in text and xgid in text
    page = a.to_html()
    assert situation in page
    assert f"<code class='id'>{gnubg_id}</code>" in page and f"<code class='id'>{xgid}</code>" in page
    assert "user-select: all" in page          # a click selects the whole ID, to paste
    # every flagged decision of a longer match has its IDs in both reports
    text, page = str(report), report.to_html()
    assert report.flagged()
    for d in report.flagged():
        assert d.gnubg_id in text and d.xgid in text and d.xgid.startswith("XGID=")
        assert d.gnubg_id in page and d.situation(report.names) in page


def test_decisions_read_as_text_with_games_from_1():
    m = _doubled_and_passed()
    a = analyse(m, evaluator=Fixed(0.6))
    play, double, drop = a.decisions      # the opening roll has no cube decision
    assert (play.game, play.made, double.made) == (0, "8/5 6/5", "double")
    # every play is worth the same to an evaluator that sees an even game everywhere,
    # so the play made is a best one (tied): no loss to report
    assert str(play) == ("game 1, player 0 (31): 8/5 6/5, the best; "
                         "player 0 7-away, player 1 7-away, cube 1 centred")
    # the pass: flagged, the better answer and the loss (normalised, then MWC)
    text = drop.describe(a.names)
    assert text.startswith("game 1, Ann: pass (wrong pass), best take, loss ")
    assert f"loss {drop.loss:.3f} ({100 * drop.loss_mwc:.2f}% MWC); Ann 7-away" in text
    assert "dataclass" not in str(drop) and not str(drop).startswith("Decision(")
    # a decision of a later game says its game from 1 as well
    m.next_game()
    m.game.roll((4, 2))
    m.game.play("8/4 6/4")
    later = analyse(m, evaluator=Fixed(0.6)).decisions[-1]
    assert later.game == 1 and str(later).startswith("game 2, player ")
    assert "Ann 7-away, Bob 6-away" in later.describe(("Ann", "Bob"))   # Bob won 1
    # a decision saved by an older version has no game state: the cube alone, no IDs
    import dataclasses
    old = dataclasses.replace(drop, gnubg_id="")
    assert (old.xgid, old.away) == ("", None)
    assert str(old).endswith("; cube 1 centred, doubled to 2")
    report = str(dataclasses.replace(a, decisions=(play, double, old)))
    assert report.endswith(f"doubled to 2\n      Position ID {drop.position_id}")


def test_worst_decisions_by_loss_and_player():
    # p = 0.60 in money play (test_wrong_double_and_wrong_pass_are_flagged): doubling
    # loses 0.163 (player 0), passing 0.872 (player 1)
    game, ev = _money(0.60)
    game.double()
    game.drop()
    a = analyse(game, evaluator=ev)
    double, drop = a.decisions
    assert a.worst() == [drop, double]
    assert a.worst(1) == [drop]
    assert a.worst(5, player=0) == [double] and a.worst(player=1) == [drop]
    assert a.worst(kind="play") == [] and a.worst(0) == []
    # a lossless decision is no "worst" one
    game, ev = _money(0.5)
    game.roll((3, 1))
    game.play("8/5 6/5")
    b = analyse(game, evaluator=ev)
    assert all(d.loss == 0 for d in b.decisions) and b.worst() == []
    for bad in (-1, 1.5, True, "3"):
        with pytest.raises(BackgammonError, match="n is"):
            a.worst(bad)
    with pytest.raises(BackgammonError, match="players"):
        a.worst(player=2)
    with pytest.raises(BackgammonError, match="kind"):
        a.worst(kind="double")


def test_a_record_read_by_path_is_analysed_with_its_names(tmp_path):
    # The analyst's two lines: read any record file by its path, analyse it.  A money
    # session keeps its players' names too (no Match to carry them).
    from backgammon.formats import read_record

    game, ev = _money(0.60)
    game.double()
    game.drop()
    path = tmp_path / "session.sgf"
    path.write_text(bg.formats.write_sgf([game], names=("Ann", "Bob")))
    record = read_record(path)
    assert record.match is None
    a = analyse(record, evaluator=ev)
    assert a.names == ("Ann", "Bob") and a.match_length == 0
    assert [d.made for d in a.decisions] == ["double", "pass"]
    assert "Bob: pass (wrong pass)" in str(a)
    m = _doubled_and_passed()
    path = tmp_path / "match.mat"
    path.write_text(m.to_mat())
    b = analyse(read_record(path), evaluator=Fixed(0.6))
    assert (b.names, b.match_length) == (("Ann", "Bob"), 7)
