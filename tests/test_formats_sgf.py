"""gnubg SGF match files: a hand-written match in gnubg's style replayed with hand-derived
results, gnubg's letter encoding worked out by hand, setups, the parser's structure and
bounds, refusal (naming the game and node) of illegal records, and random round trips."""

from __future__ import annotations

import random
import warnings

import pytest
from backgammon.errors import FormatLossError, FormatLossWarning, InvalidRecordError
from backgammon.formats import sgf
from backgammon.formats.sgf import parse_sgf, read_sgf, write_sgf
from backgammon.game import Game
from backgammon.match import Match
from backgammon.position import Position
from backgammon.rules import Rules
from hypothesis import given, settings
from hypothesis import strategies as st
from test_formats_mat import random_match

ROOT = "(;FF[4]GM[6]CA[UTF-8]AP[GNU Backgammon:1.1]MI[length:3][game:{k}][ws:{w}][bs:{b}]" \
       "PW[Ann]PB[Bob]DT[2026-12-01]{ru}RE[{re}]GS[M:0 0 24 25][C:0 0]"

# Letters: a-x are White's (Ann's, player 0) points 1-24, so Black's (Bob's) 24-1;
# y the mover's bar, z off.  Ann's 8/5 = h e; Bob's 13/7 = l (24-13=11) r (24-7=17).
# Game 1: Ann 3-1 8/5 6/5, Bob 6-1 13/7 8/7, Ann doubles, Bob takes, Ann 5-2 13/8 13/11,
#         Bob redoubles to 4, Ann drops: Bob wins 2 (RULES 8.2).
# Game 2 (Bob at 2 = N-1: the Crawford game): Bob 4-3 24/20 13/10, Ann 6-2 24/18 13/11,
#         Bob resigns a single game: Ann +1.
# Game 3: Ann 6-1 13/7 8/7, Bob 2-1 13/11 6/5, Ann doubles, Bob takes, Ann 6-6
#         24/18(2) 13/7(2), Bob resigns a gammon: 2 x 2 = 4 for Ann, who wins 5-2.
MATCH_TEXT = "\n".join([
    ROOT.format(k=0, w=0, b=0, ru="RU[Crawford]", re="B+2"),
    ";W[31hefe]C[a comment \\] with \\\\ escapes]",
    ";B[61lrqr]A[analysis 1 2 3]",
    ";W[double]", ";B[take]",
    ";W[52mhmk]",
    ";B[double]", ";W[drop])",
    ROOT.format(k=1, w=0, b=2, ru="RU[Crawford:CrawfordGame]", re="W+1R"),
    ";B[43aelo]",
    # variations: only the main line (the first) is read
    "(;W[62xrmk])(;W[66abcdefgh]))",
    ROOT.format(k=2, w=1, b=2, ru="RU[Crawford]", re="W+4R"),
    ";W[61mghg]", ";B[21lnst]", ";W[double]", ";B[take]", ";W[66xrxrmgmg])",
])


def play_match_by_hand() -> Match:
    m = Match(3, names=("Ann", "Bob"), rng=0)
    g = m.game
    g.roll((3, 1)); g.play("8/5 6/5")
    g.roll((6, 1)); g.play("13/7 8/7")
    g.double(); g.take()
    g.roll((5, 2)); g.play("13/8 13/11")
    g.double(); g.drop()
    m.next_game()
    g = m.game
    g.roll((3, 4)); g.play("24/20 13/10")
    g.roll((6, 2)); g.play("24/18 13/11")
    g.resign("single", player=1); g.accept()
    m.next_game()
    g = m.game
    g.roll((6, 1)); g.play("13/7 8/7")
    g.roll((2, 1)); g.play("13/11 6/5")
    g.double(); g.take()
    g.roll((6, 6)); g.play("24/18(2) 13/7(2)")
    g.resign("gammon", player=1); g.accept()
    return m


def test_read_a_match_written_in_gnubg_style():
    record = read_sgf(MATCH_TEXT)
    m = record.match
    assert record.names == ("Ann", "Bob") and record.match_length == 3
    assert [(g.result.winner, g.result.points, g.result.kind) for g in m.games] == [
        (1, 2, "single"), (0, 1, "single"), (0, 4, "gammon")]
    assert [g.crawford for g in m.games] == [False, True, False]
    assert m.score == (5, 2) and m.winner == 0
    assert Match.from_sgf(MATCH_TEXT).score == (5, 2)
    # the same actions as the match played by hand (the variation is not read)
    mine = play_match_by_hand()
    assert [g.actions for g in m.games] == [g.actions for g in mine.games]


def test_write_gives_gnubg_nodes():
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # nothing lost
        text = play_match_by_hand().to_sgf()
    games = parse_sgf(text)
    assert len(games) == 3
    root = dict(games[0].nodes[0])
    assert (root["GM"], root["MI"], root["PW"], root["PB"], root["RU"], root["RE"]) == (
        ["6"], ["length:3", "game:0", "ws:0", "bs:0"], ["Ann"], ["Bob"], ["Crawford"], ["B+2"])
    assert dict(games[1].nodes[0])["RU"] == ["Crawford:CrawfordGame"]
    assert dict(games[2].nodes[0])["RE"] == ["W+4R"]
    moves = [[p for node in t.nodes[1:] for p in node] for t in games]
    assert moves[0] == [("W", ["31hefe"]), ("B", ["61lrqr"]), ("W", ["double"]),
                        ("B", ["take"]), ("W", ["52mhmk"]), ("B", ["double"]), ("W", ["drop"])]
    assert moves[1] == [("B", ["43aelo"]), ("W", ["62xrmk"])]
    assert moves[2][-1] == ("W", ["66xrxrmgmg"])
    assert read_sgf(text).match.score == (5, 2)


@pytest.mark.parametrize("old,new,why", [
    (";W[31hefe]", ";W[31hefd]", "node 2.*W\\[31hefd\\]"),         # 6/4 with a 3-1
    (";B[take]", ";B[drop]", "node 6.*W\\[52mhmk\\].*over"),       # then the game is over
    ("RE[B+2]", "RE[B+3]", "game 1.*player 1 won 2"),
    ("[bs:2]", "[bs:1]", "game 2.*starts at 0-1"),
    ("[game:1]", "[game:5]", "MI game 5"),
    ("RU[Crawford:CrawfordGame]", "RU[Crawford]", "Crawford game"),
    ("GM[6]", "GM[1]", "not backgammon"),
    (";W[62xrmk]", ";W[62xrmkab]", "W\\[62xrmkab\\]"),
    (";W[62xrmk]", ";W[62x!mk]", "no point"),
    (";W[62xrmk]", ";W[whatever]", "not a move"),
    ("RE[W+4R]", "RE[W+5R]", "no resignation.*scores 5"),
    ("[ws:1]", "[ws:" + "1" * 5000 + "]", "at most 6 digits"),
])
def test_illegal_or_malformed_records_are_refused(old, new, why):
    assert old in MATCH_TEXT
    with pytest.raises(InvalidRecordError, match=why):
        read_sgf(MATCH_TEXT.replace(old, new, 1))


def test_the_parser_reads_sgf_structure():
    trees = parse_sgf("(;FF[4]C[line one\\\nstill one]AddBlack[a][b]\n;W[31hefe](;B[x])(;B[y]))")
    t = trees[0]
    assert t.nodes[0] == [("FF", ["4"]), ("C", ["line onestill one"]), ("AB", ["a", "b"])]
    assert [c.nodes for c in t.children] == [[[("B", ["x"])]], [[("B", ["y"])]]]
    assert parse_sgf("(;C[\\\\])")[0].nodes[0] == [("C", ["\\"])]


@pytest.mark.parametrize("text,why", [
    ("", "no game tree"),
    ("(;C[open", "not closed"),
    ("(;C[x\\", "lone"),
    ("(;C[x]", "not closed"),
    (";C[x]", "outside a game tree"),
    ("(;C[x]))", "without '\\('"),
    ("()", "without a node"),
    ("(;C)", "without a value"),
    ("(;C[x]{)", "unexpected"),
    ("(" * 100_000, "deeper than 64"),
    (5, "is text"),
])
def test_the_parser_refuses_what_is_not_sgf(text, why):
    with pytest.raises(InvalidRecordError, match=why):
        parse_sgf(text)


def test_sizes_are_bounded(monkeypatch):
    monkeypatch.setattr(sgf, "MAX_PROPERTIES", 10)
    with pytest.raises(InvalidRecordError, match="more than 10 properties"):
        parse_sgf("(;" + "C[x]" * 11 + ")")
    monkeypatch.setattr(sgf, "MAX_TEXT", 100)
    with pytest.raises(InvalidRecordError, match="at most 100"):
        parse_sgf("(;C[" + "x" * 100 + "])")


def test_a_megabyte_of_hostile_text_reads_or_fails_at_once():
    for text in ("(;C[" + "\\]" * 500_000 + "])", "(;" + "C[x]" * 250_000 + ")",
                 "(;C[" + "x" * 1_000_000, "(;W[31" + "a" * 1_000_000 + "])"):
        try:
            read_sgf(text)
        except InvalidRecordError:
            pass


# gnubg's "set board 70tKAQBwAAAAAA" in a game, then cube 2 owned by White, as it saves it
SETUP = ("(;FF[4]GM[6]CA[UTF-8]MI[length:0][game:0][ws:0][bs:0]PW[Ann]PB[Bob]\n"
         ";PL[W]DI[54]\n"
         ";PL[W]AE[a:y]AW[e][e][e]AB[x][x][x][x][w][w][w][w][w][v][t][r][q][o][n]\n"
         ";CV[2]\n;CP[w])")


def test_a_money_game_set_up_from_a_position():
    # AW e: White's 5-point; AB x (White's 24 = Black's 1) x4, w x5, v, t, r, q, o, n
    record = read_sgf(SETUP)
    assert record.match is None and record.match_length == 0
    g = record.games[0]
    assert g.position == Position.from_position_id("70tKAQBwAAAAAA")
    assert (g.turn, g.dice, g.cube, g.cube_owner) == (0, (5, 4), 2, 0)
    g.play("5/off 5/1")  # dice 5-4 with three checkers on the 5-point
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        text = write_sgf([g])
    back = read_sgf(text).games[0]
    assert back.position == g.position and back.actions == g.actions
    # the same setup in a match game: read (issue 38); a centred cube on 2 is no
    # match game's (automatic doubles only)
    assert read_sgf(SETUP.replace("length:0", "length:3")).games[0].start is not None
    with pytest.raises(InvalidRecordError, match="centred cube on 2"):
        read_sgf(SETUP.replace("length:0", "length:3").replace(";CP[w]", ""))
    with pytest.raises(InvalidRecordError, match="15 checkers|holds"):
        read_sgf(SETUP.replace("AW[e][e][e]", "AW[e][e][e]AB[e]"))


def test_gnubg_s_single_step_for_a_checker_borne_off_with_both_dice():
    # gnubg reads ".mat 61: 6/off" (6/5/off) as one step and saves it "61fz": the legal
    # play that ends the same way stands for it; a step that ends elsewhere is refused
    text = ("(;FF[4]GM[6]MI[length:0][game:0][ws:0][bs:0]PW[Ann]PB[Bob]\n"
            ";PL[W]AE[a:y]AW[a][a][a][a][a][f]AB[x][x][x][x][x][x][x][x]\n;W[61fz])")
    g = read_sgf(text).games[0]
    assert g.actions[-1].value == ((6, 5), (5, 0))
    with pytest.raises(InvalidRecordError, match="61ab"):
        read_sgf(text.replace("61fz", "61ab"))


def test_a_roll_before_a_resignation_is_a_dice_node():
    m = Match(3, rng=0)
    g = m.game
    g.roll((3, 1)); g.play("8/5 6/5")
    g.roll((6, 6)); g.resign("gammon"); g.accept()
    text = m.to_sgf()
    assert ";PL[B]DI[66])" in text and "RE[W+2R]" in text
    back = Match.from_sgf(text)
    assert back.games[0].actions == g.actions


def test_losses_are_reported():
    g = Game(Rules(jacoby=True, beaver=True), rng=3)
    g.roll((5, 3)); g.play("8/3 6/3")
    g.double(); g.beaver()
    text = write_sgf([g])                   # the beaver rule travels as RU[Jacoby:Beaver]
    assert "RU[Jacoby:Beaver]" in text
    back = read_sgf(text).games[0]          # and is read back (issue 17)
    assert (back.cube, back.cube_owner, back.rules.jacoby, back.rules.beaver) == (4, 0, True, True)
    with pytest.raises(InvalidRecordError, match="beaver"):
        read_sgf(text.replace(":Beaver", ""))   # without the word the beaver is refused...
    back = read_sgf(text.replace(":Beaver", ""), rules=Rules(beaver=True)).games[0]
    assert back.cube == 4                   # ...unless the rule is given
    m = Match(3, rng=1)
    m.game.roll((3, 1)); m.game.resign("single"); m.game.reject()
    with pytest.raises(FormatLossError, match="rejected resignations"):
        m.to_sgf(strict=True)
    with pytest.raises(InvalidRecordError, match="money games"):
        Match.from_sgf(text, rules=Rules(beaver=True))


def test_names_are_one_line_and_escaped():
    m = Match(1, names=("Ann ]\\ B", "Bob\nSmith"), rng=0)
    m.game.roll((3, 1)); m.game.play("8/5 6/5")
    with pytest.warns(FormatLossWarning, match="names"):
        text = m.to_sgf()
    assert "PW[Ann \\]\\\\ B]" in text
    assert Match.from_sgf(text).names == ("Ann ]\\ B", "Bob Smith")


@settings(max_examples=20, deadline=None)
@given(seed=st.integers(0, 10**6), length=st.integers(1, 9))
def test_property_sgf_round_trip(seed, length):
    m = random_match(seed, length)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        text = m.to_sgf()
    back = Match.from_sgf(text)
    assert (back.score, back.winner, len(back.games)) == (m.score, m.winner, len(m.games))
    for a, b in zip(m.games, back.games):
        assert a.result == b.result and a.crawford == b.crawford
        keep = [x for x in a.actions if not (x.kind == "opening" and x.value[0] == x.value[1])]
        assert keep == list(b.actions)
    assert back.to_sgf() == text


@pytest.mark.parametrize("seed", range(4))
def test_money_sessions_round_trip(seed):
    rng = random.Random(seed)
    games = []
    for k in range(3):
        g = Game(Rules(jacoby=bool(seed % 2)), rng=seed * 10 + k)
        while not g.over:
            acts = g.legal_actions()
            if "take" in acts:
                g.take() if rng.random() < 0.6 else g.drop()
            elif "double" in acts and rng.random() < 0.05:
                g.double()
            elif "roll" in acts:
                g.roll()
            elif "play" in acts:
                g.play(rng.choice(list(g.position.legal_plays(g.dice))))
        games.append(g)
    text = write_sgf(games)
    back = read_sgf(text)
    assert back.match is None
    assert [g.result for g in back.games] == [g.result for g in games]
    assert write_sgf(back.games) == text


@pytest.mark.parametrize("module", ["backgammon.formats.sgf", "backgammon.formats.mat",
                                    "backgammon.formats.match_id"])
def test_docstring_examples(module):
    import doctest
    import importlib
    result = doctest.testmod(importlib.import_module(module), optionflags=doctest.ELLIPSIS)
    assert result.failed == 0 and result.attempted > 0


def test_a_flagged_play_is_left_out_and_an_unchecked_one_reported():
    # RULES 12.4 over the board: a flagged play is taken back and made again legally
    rules = Rules(over_the_board=True)
    m = Match(3, rules, rng=0)
    g = m.game
    g.roll((3, 1)); g.play("8/4 6/5")        # illegal (8/4 is 4 pips), unchecked
    g.flag(); g.play("8/5 6/5")
    with pytest.warns(FormatLossWarning, match="flagged"):
        text = m.to_sgf()
    assert ";W[31hefe]" in text and "hd" not in text
    back = Match.from_sgf(text)
    assert back.game.position == g.position


def test_the_specification_s_spellings():
    # The GM[6] specification (red-bean.com/sgf/backgammon.html), which other writers
    # follow: games numbered from 1, a beaver as "double" answering a double (then taken
    # by the doubler), CO for the cube's owner.  Ann opens 3-1; Bob doubles, Ann beavers
    # (the cube goes to 4, Ann's), Bob accepts and plays 5-2 13/8 13/11 (l q, l n).
    text = ("(;FF[4]GM[6]MI[length:0][game:1][ws:0][bs:0]PW[Ann]PB[Bob]\n"
            ";W[31hefe];B[double];W[double];B[take];B[52lqln])")
    g = read_sgf(text, rules=Rules(beaver=True)).games[0]
    assert (g.cube, g.cube_owner, g.turn) == (4, 0, 0)
    assert [a.kind for a in g.actions] == ["opening", "play", "double", "beaver", "roll",
                                           "play"]
    assert ";W[double]\n;B[take]" in write_sgf([g])
    renumbered = MATCH_TEXT
    for k in (2, 1, 0):
        renumbered = renumbered.replace(f"[game:{k}]", f"[game:{k + 1}]")
    assert read_sgf(renumbered).match.score == (5, 2)
    with pytest.raises(InvalidRecordError, match="expected 2"):
        read_sgf(renumbered.replace("[game:2]", "[game:1]"))
    setup = SETUP.replace(";CP[w]", ";CO[w]")
    assert read_sgf(setup).games[0].cube_owner == 0
    assert read_sgf(SETUP.replace(";CP[w]", ";CO[c]")).games[0].cube_owner is None


def test_a_match_without_the_crawford_rule():
    # 2-point match: Ann wins game 1 (1-0, Ann at N-1), so game 2 would be the Crawford
    # game; without the rule Bob may double in it
    m = Match(2, crawford=False, rng=0)
    g = m.game
    g.roll((3, 1)); g.play("8/5 6/5"); g.resign("single", player=1); g.accept()
    m.next_game()
    m.game.roll((6, 5)); m.game.play("24/13"); m.game.double()
    text = m.to_sgf()
    back = Match.from_sgf(text)
    assert not back.crawford_rule and not back.game.crawford
    assert back.game.phase.value == "doubled"
    assert "RU[Crawford" not in text
    # with no RU at all, gnubg's default: the Crawford rule, so that double is refused
    with pytest.raises(InvalidRecordError, match="Crawford"):
        Match.from_sgf(text.replace("RU[NoCrawford]", ""))


def test_a_match_game_set_up_at_the_opening_reads_as_the_match_s_game():
    # the opening position spelled out in the root (White: x x, m x5, h x3, f x5; Black:
    # a x2 = its 24-point, l x5, q x3, s x5): the game is the match's, unchanged
    opening = ("AE[a:y]AW[x][x][m][m][m][m][m][h][h][h][f][f][f][f][f]"
               "AB[a][a][l][l][l][l][l][q][q][q][s][s][s][s][s]")
    text = MATCH_TEXT.replace("RU[Crawford]RE[B+2]", "RU[Crawford]RE[B+2]" + opening, 1)
    assert opening in text
    record = read_sgf(text)
    assert record.match.score == (5, 2) and record.games[0].start is None
    # another position (White's back checker on its 23-point, not 24) is a set-up game
    # of the match: the same moves replay from it
    moved = read_sgf(text.replace("AW[x][x]", "AW[x][w]", 1))
    assert moved.match.score == (5, 2) and moved.games[0].start is not None
    assert moved.games[0].restart().position.tolist()[23:25] == [1, 1]


# A game of a 7-point match at 2-1 set up from an edited position, as Gibbon writes it:
# one node with AE/AW/AB, the cube (CV 2, CP: White owns it), who is on roll (PL) and
# the dice (DI).  White (Ann): two checkers on its 6-point (f), one on its 5-point (e);
# Black (Bob): x x4 (its 1-point), w x5 (2), v (3), t (5), r (7), q (8), o (10), n (11),
# fifteen.  Ann plays 54 as 6/1 5/1 (f a, e a), then Bob resigns: RE says how.
GIBBON = ("(;FF[4]GM[6]CA[UTF-8]AP[GIBBON:3.3]MI[length:7][game:3][ws:2][bs:1]PW[Ann]PB[Bob]"
          "RE[{re}]\n"
          ";AE[a:y]AW[f][f][e]AB[x][x][x][x][w][w][w][w][w][v][t][r][q][o][n]CV[2]CP[w]PL[W]"
          "DI[54]\n;W[54faea])")


@pytest.mark.parametrize("re_,winner,points,reason", [
    # points then R or Resign, any case: a single game at the 2-cube is 2 points
    ("W+2Resign", 0, 2, "resign"), ("W+2R", 0, 2, "resign"), ("w+2resign", 0, 2, "resign"),
    ("W+2r", 0, 2, "resign"),
    ("W+4Resign", 0, 4, "resign"),                   # a gammon: 2 x 2
    ("B+2Resign", 1, 2, "resign"),                   # Ann resigns a single game
    # no points: the next game's score would say; the file has none, so a single game
    ("W+Resign", 0, 2, "resign"), ("W+R", 0, 2, "resign"),
    # a forfeit or a match lost on time: Ann wins the 5 points she needed (7 - 2)
    ("W+F", 0, 5, "forfeit"), ("W+Forfeit", 0, 5, "forfeit"), ("W+T", 0, 5, "forfeit"),
    ("W+Time", 0, 5, "forfeit"), ("W+5F", 0, 5, "forfeit"),
])
def test_results_in_every_spelling_of_the_spec(re_, winner, points, reason):
    g = read_sgf(GIBBON.format(re=re_)).games[0]
    assert (g.result.winner, g.result.points, g.result.reason) == (winner, points, reason)


def test_results_that_say_nothing_or_disagree():
    for re_ in ("?", "Void", "", "Unknown"):    # unknown, void, no result, other words
        assert read_sgf(GIBBON.format(re=re_)).games[0].result is None
    for re_, why in (("W+2", "not over"), ("W+3Resign", "no resignation.*scores 3"),
                     ("W+6F", "won 5"), ("W+2X", "RE points"), ("B+2.5R", "RE points")):
        with pytest.raises(InvalidRecordError, match=why):
            read_sgf(GIBBON.format(re=re_))
    # a finished game: the winner is checked, the points when given; a draw is refused
    assert read_sgf(MATCH_TEXT.replace("RE[B+2]", "RE[B+]", 1)).match.score == (5, 2)
    assert read_sgf(MATCH_TEXT.replace("RE[B+2]", "RE[?]", 1)).match.score == (5, 2)
    for re_, why in (("RE[W+]", "player 1 won 2"), ("RE[Draw]", "draw"), ("RE[0]", "draw")):
        with pytest.raises(InvalidRecordError, match=why):
            read_sgf(MATCH_TEXT.replace("RE[B+2]", re_, 1))
    # Bob's resignation in game 2 without its points: game 3 starts at 1-2, so 1
    assert read_sgf(MATCH_TEXT.replace("RE[W+1R]", "RE[W+Resign]", 1)).match.score == (5, 2)


def test_a_resignation_without_points_scores_what_the_next_game_says():
    # Ann plays 31, Bob resigns; the next game starts at 2-0: a gammon, not a single game
    text = ("(;FF[4]GM[6]MI[length:0][game:0][ws:0][bs:0]PW[Ann]PB[Bob]RE[W+R];W[31hefe])\n"
            "(;FF[4]GM[6]MI[length:0][game:1][ws:2][bs:0]PW[Ann]PB[Bob];B[31qtst])")
    first = read_sgf(text).games[0]
    assert (first.result.points, first.result.kind, first.result.reason) == (2, "gammon", "resign")


def test_a_match_game_set_up_from_a_position_reads_analyses_and_writes_back():
    import numpy as np

    import backgammon as bg

    record = read_sgf(GIBBON.format(re="W+2Resign"))
    m, g = record.match, record.games[0]
    assert m.score == (4, 1) and g.score == (2, 1) and not g.crawford   # 2 + 2, 1
    start = dict(g.start)
    assert (start["turn"], start["dice"], start["cube"], start["cube_owner"]) == (0, (5, 4), 2, 0)
    expect = [0] * 26
    expect[5], expect[6] = 1, 2
    for point, n in ((24, 4), (23, 5), (22, 1), (20, 1), (18, 1), (17, 1), (15, 1), (14, 1)):
        expect[point] = -n                         # Bob's checkers, in Ann's numbering
    assert Position.from_position_id(start["position_id"]).tolist() == expect
    assert [x.kind for x in g.actions][:1] == ["play"]

    # analysed from there: Ann's 54 is a choice (6/1 6/2, 6/1 5/1, 6/2 5/off), valued
    # at 2-1 (Ann 5-away, Bob 6-away) with her cube on 2; Bob has no cube to turn
    class Even:
        def evaluate_batch(self, boards):
            out = np.zeros((len(boards), 5), np.float32)
            out[:, 0] = 0.5
            return out

    a = bg.analyse(record, evaluator=Even(), ply=0)
    assert [(d.kind, d.player, d.dice) for d in a.decisions] == [("play", 0, (5, 4))]
    assert a.decisions[0].situation(a.names) == "Ann 5-away, Bob 6-away, cube 2 owned by Ann"
    assert len(g.restart().position.legal_plays((5, 4))) == 3

    # written back the same way (a setup node, the cube, the dice), nothing lost
    text = write_sgf(m, strict=True)
    assert "AE[a:y]AW[e][f][f]AB[n][o][q][r][t][v][w][w][w][w][w][x][x][x][x]" in text
    assert ";CV[2]" in text and ";CP[w]" in text and ";PL[W]DI[54]" in text
    assert "MI[length:7][game:0][ws:2][bs:1]" in text and "RE[W+2R]" in text
    back = read_sgf(text)
    assert back.match.score == (4, 1) and dict(back.games[0].start) == start
    assert back.games[0].actions == g.actions
    # and through the library's JSON record
    again = Match.from_json(m.to_json())
    assert again.score == (4, 1) and dict(again.games[0].start) == start
    # Bob on roll instead (PL[B], 21 rolled): he plays his 11/9 10/9 (White's 14 and 15
    # to 16: n p, o p), from his side of the same board
    bob = read_sgf(GIBBON.format(re="W+2Resign").replace("PL[W]DI[54]", "PL[B]DI[21]")
                   .replace(";W[54faea]", ";B[21npop]"))
    g = bob.games[0]
    assert (g.start["turn"], g.start["dice"]) == (1, (2, 1))
    assert g.actions[0].player == 1 and sorted(g.actions[0].value) == [(10, 9), (11, 9)]
    assert read_sgf(write_sgf(bob.match, strict=True)).games[0].actions == g.actions
