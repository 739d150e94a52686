"""Backgammon Galaxy's resignations and forfeits in .mat files, Gibbon's SGF spellings,
and records of one game of a match at a score.

The fixtures in tests/data (galaxy_*.txt) were written for these tests in the style of
Galaxy's exports (its header tags, CRLF, ``Losses N point`` cells in a row or at the
left margin); the expected results are worked out by hand in each test.
"""

from __future__ import annotations

import glob
import os
import warnings
from pathlib import Path

import pytest

import backgammon as bg
from backgammon.errors import IllegalActionError, InvalidRecordError, InvalidSetupError

DATA = Path(__file__).parent / "data"


def _shared() -> Path:
    """The shared folder: where $BACKGAMMON_SHARED points, else ``../shared`` from the
    checkout's root (.ci/run sets the variable: CI tests a copy of tests/)."""
    env = os.environ.get("BACKGAMMON_SHARED")
    return Path(env) if env else Path(__file__).resolve().parent.parent.parent / "shared"


REALWORLD = _shared() / "realworld" / "galaxy"


def _read(name: str) -> bg.Match:
    return bg.Match.from_mat((DATA / name).read_text())


def _round_trip(m: bg.Match) -> bg.Match:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return bg.Match.from_mat(m.to_mat())


# ---------------------------------------------------------------- resignations

def test_losses_in_a_row_is_that_players_resignation():
    # Game 1: Bob doubled to 2 and Ann took; in Bob's column "Losses 4 point" with
    # the cube on 2: 4 / 2 = 2, Bob resigned a gammon, and Ann "Wins 4 point".
    # Game 2 (4-0): "Losses 1 point" at the left margin, then Ann's "Wins 1 point":
    # the loser is Ann's opponent, Bob, resigning a single game (1 / 1).
    m = _read("galaxy_resignations.txt")
    g1, g2 = m.games
    assert g1.result == bg.GameResult(0, 4, "gammon", "resign", 2)
    assert g1.actions[-2:] == (bg.Action(1, "resign", "gammon"), bg.Action(0, "accept", None))
    assert g2.score == (4, 0)
    assert g2.result == bg.GameResult(0, 1, "single", "resign", 1)
    assert m.score == (5, 0) and not m.over
    assert m.names == ("Ann", "Bob")


def test_losses_for_a_game_not_over_without_a_wins_line():
    # The Losses cell alone (no "Wins" below): the player of its column resigned.
    text = (DATA / "galaxy_resignations.txt").read_text()
    text = text.replace("      Wins 4 point", "")
    m = bg.Match.from_mat(text)
    assert m.games[0].result == bg.GameResult(0, 4, "gammon", "resign", 2)


def test_losses_that_no_resignation_scores_and_is_no_forfeit_is_refused():
    # cube 2: resignations score 2, 4 or 6; Ann needed 7: "Losses 5 point" is neither
    text = (DATA / "galaxy_resignations.txt").read_text()
    text = text.replace("Losses 4 point", "Losses 5 point").replace("Wins 4 point", "Wins 5 point")
    with pytest.raises(InvalidRecordError, match="no resignation with the cube on 2 scores 5"):
        bg.Match.from_mat(text)


def test_losses_restating_a_bear_off_still_checked():
    # Galaxy restates a borne-off game in the loser's column: it must agree with it
    m = bg.Match(3, names=("A", "B"), rng=1)
    g = m.game
    g.roll((3, 1))
    g.play("8/5 6/5")
    g.double()
    g.drop()
    text = m.to_mat().replace("Wins 1 point", "Wins 1 point").rstrip("\n")
    # the drop: B wins 1; A's column says "Losses 1 point"
    lines = text.splitlines()
    lines.append("  3)  Losses 1 point")
    assert bg.Match.from_mat("\n".join(lines) + "\n").score == (0, 1)
    lines[-1] = "  3)  Losses 2 point"
    with pytest.raises(InvalidRecordError, match="loses 2"):
        bg.Match.from_mat("\n".join(lines) + "\n")


# ---------------------------------------------------------------- forfeits

def test_losses_of_the_points_the_opponent_needed_is_a_forfeit():
    # 5-point match, game 2 at 0-1 with the cube on 1: "Losses 4 point" at the margin
    # opposite Di's "Wins 4 point and the match": 4 / 1 is no resignation, and Di
    # needed 5 - 1 = 4: Cy forfeited the match.  Final score 0-5.
    m = _read("galaxy_forfeit.txt")
    g1, g2 = m.games
    assert g1.result == bg.GameResult(1, 1, "single", "drop", 1)
    assert g2.result == bg.GameResult(1, 4, "single", "forfeit", 1)
    assert g2.actions[-1] == bg.Action(0, "forfeit", None)
    assert m.score == (0, 5) and m.winner == 1


def test_forfeit_is_written_back_as_galaxy_does():
    m = _read("galaxy_forfeit.txt")
    text = m.to_mat()
    lines = text.splitlines()
    # gnubg's layout: Di's "Wins" on the row of Cy's last (left) cell
    row = next(line for line in lines if "Losses" in line)
    left, right = row.split(")", 1)[1][:28].strip(), row[33:].strip()
    assert (left, right) == ("Losses 4 point", "Wins 4 points and the match")
    back = bg.Match.from_mat(text)
    assert [g.result for g in back.games] == [g.result for g in m.games]
    assert back.score == (0, 5)
    # and through SGF and JSON
    sgf = bg.Match.from_sgf(m.to_sgf())
    assert [g.result for g in sgf.games] == [g.result for g in m.games]
    assert "RE[B+4F]" in m.to_sgf()
    js = bg.Match.from_json(m.to_json())
    assert [g.result for g in js.games] == [g.result for g in m.games]


def test_game_forfeit_rules():
    g = bg.Game(match_length=7, score=(2, 5))
    g.roll((3, 1))
    g.forfeit()                  # player 0 on roll forfeits: player 1 needed 7 - 5 = 2
    assert g.result == bg.GameResult(1, 2, "single", "forfeit", 1)
    with pytest.raises(IllegalActionError, match="forfeit"):
        g.forfeit()              # over
    money = bg.Game()
    money.roll((3, 1))
    with pytest.raises(IllegalActionError, match="only a match"):
        money.forfeit()
    assert money.result is None and money.actions[-1].kind == "opening"  # unchanged
    before = bg.Game(match_length=3)
    with pytest.raises(IllegalActionError, match="say who"):
        before.forfeit()
    before.forfeit(player=1)     # before the opening: player 0 needed 3
    assert before.result == bg.GameResult(0, 3, "single", "forfeit", 1)
    # a forfeit replays from the record
    again = before.restart()
    for a in before.actions:
        again.apply(a)
    assert again.result == before.result


# ---------------------------------------------------------------- SGF: Gibbon

def _sgf_game(moves: str, re: str = "", mi: str = "[length:7][game:1][ws:0][bs:0]",
              ru: str = "RU[Crawford]") -> str:
    return f"(;FF[4]GM[6]MI{mi}PW[Ann]PB[Bob]{ru}{re}\n{moves})\n"


@pytest.mark.parametrize("spelling, kind", [("resign", "single"), ("resign:1", "single"),
                                            ("resign:2", "gammon"), ("resign:3", "backgammon"),
                                            ("resign:gammon", "gammon")])
def test_gibbon_resignations(spelling, kind):
    # Ann plays 31 (8/5 6/5), Bob resigns on roll; accepted by the record's end
    moves = f";W[31hefe]\n;B[{spelling}]"
    m = bg.Match.from_sgf(_sgf_game(moves))
    points = {"single": 1, "gammon": 2, "backgammon": 3}[kind]
    assert m.games[0].result == bg.GameResult(0, points, kind, "resign", 1)
    # with the acceptance spelled out, and the result stated
    m = bg.Match.from_sgf(_sgf_game(moves + "\n;W[accept]", re=f"RE[W+{points}R]"))
    assert m.score == (points, 0)
    # a result that disagrees is refused
    with pytest.raises(InvalidRecordError, match="RE"):
        bg.Match.from_sgf(_sgf_game(moves, re=f"RE[W+{points + 1}R]"))


def test_gibbon_rejected_resignation_goes_on():
    moves = ";W[31hefe]\n;B[resign:3]\n;W[reject]\n;B[61lrqr]"
    g = bg.Match.from_sgf(_sgf_game(moves)).games[0]
    assert g.result is None and [a.kind for a in g.actions][-4:] == ["resign", "reject", "roll", "play"]


def test_bad_resign_spelling_is_refused():
    with pytest.raises(InvalidRecordError, match="resign:4"):
        bg.Match.from_sgf(_sgf_game(";W[31hefe]\n;B[resign:4]"))


def test_one_game_of_a_match_at_a_score():
    # MI[ws:6][bs:3] in an 11-point match: the game starts at 6-3 (White = player 0)
    text = _sgf_game(";W[31hefe]\n;B[resign]", mi="[length:11][game:10][ws:6][bs:3]")
    m = bg.Match.from_sgf(text)
    assert m.length == 11 and m.games[0].score == (6, 3)
    assert m.games[0].result.winner == 0 and m.score == (7, 3)
    # it writes back at that score
    assert "[ws:6][bs:3]" in m.to_sgf()
    assert bg.Match.from_sgf(m.to_sgf()).score == (7, 3)
    assert bg.Match.from_mat(m.to_mat()).games[0].score == (6, 3)


def test_one_game_at_match_point_minus_one_crawford_or_not():
    # 7-point match at 6-3: RU[Crawford:CrawfordGame] is the Crawford game (no double);
    # RU[Crawford] without it is post-Crawford: the trailer may double
    crawford = bg.Match.from_sgf(_sgf_game(";W[31hefe]", mi="[length:7][ws:6][bs:3]",
                                           ru="RU[Crawford:CrawfordGame]"))
    assert crawford.game.crawford and not crawford.game.can_double()
    post = bg.Match.from_sgf(_sgf_game(";W[31hefe]\n;B[double]\n;W[take]",
                                       mi="[length:7][ws:6][bs:3]"))
    assert not post.game.crawford and post.post_crawford and post.game.cube == 2
    with pytest.raises(InvalidRecordError, match="scores from 0 to 6"):
        bg.Match.from_sgf(_sgf_game(";W[31hefe]", mi="[length:7][ws:7][bs:3]"))


def test_match_taken_up_at_a_score():
    m = bg.Match(5, score=(2, 4), crawford_game=False)
    assert m.game.score == (2, 4) and not m.game.crawford and m.post_crawford
    assert bg.Match(5, score=(2, 4)).game.crawford
    for bad in [(5, 0), (-1, 0), (0, 9)]:
        with pytest.raises(InvalidSetupError):
            bg.Match(5, score=bad)
    with pytest.raises(TypeError):
        bg.Match(5, score="2-4")
    with pytest.raises(InvalidSetupError, match="Crawford"):
        bg.Match(5, score=(1, 2), crawford_game=True)


# ---------------------------------------------------------------- the real files

@pytest.mark.slow
def test_every_real_galaxy_file_reads_and_writes_back():
    if not REALWORLD.is_dir():
        # CI has the shared folder beside its clone: there a missing one is a failure
        if os.environ.get("CI") == "true":
            pytest.fail(f"no real Galaxy files in {REALWORLD}")
        pytest.skip(f"the real Galaxy files are not here ({REALWORLD}; set BACKGAMMON_SHARED)")
    files = sorted(glob.glob(str(REALWORLD / "*.txt")))
    assert files
    for path in files:
        with open(path, encoding="utf-8-sig") as f:
            m = bg.Match.from_mat(f.read())
        back = _round_trip(m)
        assert back.score == m.score, path
        assert [g.result for g in back.games] == [g.result for g in m.games], path
