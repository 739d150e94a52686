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
    with pytest.raises(InvalidRecordError, match="match game set up"):
        read_sgf(SETUP.replace("length:0", "length:3"))
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
    assert read_sgf(text).match.score == (5, 2)
    with pytest.raises(InvalidRecordError, match="match game set up"):
        read_sgf(text.replace("AW[x][x]", "AW[x][w]", 1))
