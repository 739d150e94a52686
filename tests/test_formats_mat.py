"""Jellyfish/gnubg .mat records: a hand-written match replayed with hand-derived scores,
the exact text written for a known game, export-then-import of random matches, and
refusal (with the line) of illegal or malformed records."""

from __future__ import annotations

import random
import warnings

import pytest
from backgammon.errors import FormatLossError, FormatLossWarning, InvalidRecordError
from backgammon.formats.mat import read_mat, write_mat
from backgammon.game import Game
from backgammon.match import Match
from backgammon.rules import Rules
from hypothesis import given, settings
from hypothesis import strategies as st


def row(n, left="", right=""):
    """A gnubg row: 'NNN) ' then the left cell as "%-27s ", then the right cell; a left
    cell alone keeps its padding, as gnubg writes it."""
    line = f"{n:3d}) {left:<27} {right}"
    return line.rstrip() if right or not left else line


def score_line(a, sa, b, sb):
    return " " + f"{a} : {sa}".ljust(31) + f"{b} : {sb}"


WIN_LEFT, WIN_RIGHT = " " * 6, " " * 34

# Game 1: Bob takes Ann's 2-cube, redoubles to 4, Ann drops: Bob wins 2 (RULES 8.2).
# Game 2: Bob at 2 = N-1: the Crawford game; Bob resigns a single game: Ann wins 1.
# Game 3: post-Crawford; Ann doubles, Bob takes, Bob resigns a gammon: 2 x 2 = 4 for Ann.
HEADER = [
    '; [Player 1 "Ann"]',
    '; [Player 2 "Bob"]',
    '; [Variation "Backgammon"]',
    '; [Crawford "On"]',
    '; [CubeLimit "64"]',
    "",
]
MATCH_TEXT = "\n".join([
    *HEADER,
    " 3 point match",
    "",
    " Game 1",
    score_line("Ann", 0, "Bob", 0),
    row(1, "31: 8/5 6/5", "61: 13/7 8/7"),
    row(2, " Doubles => 2", " Takes"),
    row(3, "52: 13/11 13/8", " Doubles => 4"),
    row(4, " Drops", " Wins 2 points"),  # gnubg: the result on the drop's row
    "",
    " Game 2",
    score_line("Ann", 0, "Bob", 2),
    row(1, "", "43: 24/20 13/10"),
    row(2, "62: 24/18 13/11"),
    WIN_LEFT + "Wins 1 point",
    "",
    " Game 3",
    score_line("Ann", 1, "Bob", 2),
    row(1, "61: 13/7 8/7", "21: 13/11 6/5"),
    row(2, " Doubles => 2", " Takes"),
    row(3, "66: 24/18(2) 13/7(2)"),
    WIN_LEFT + "Wins 4 points and the match",
    "",
])


def play_match_by_hand() -> Match:
    m = Match(3, names=("Ann", "Bob"), rng=0)
    g = m.game
    g.roll((3, 1)); g.play("8/5 6/5")
    g.roll((6, 1)); g.play("13/7 8/7")
    g.double(); g.take()
    g.roll((5, 2)); g.play("13/8 13/11")  # written canonically: 13/11 13/8
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


def test_read_hand_written_match():
    record = read_mat(MATCH_TEXT)
    m = record.match
    assert record.names == ("Ann", "Bob") and record.match_length == 3
    assert [g.result.winner for g in m.games] == [1, 0, 0]
    assert [g.result.points for g in m.games] == [2, 1, 4]
    assert [g.crawford for g in m.games] == [False, True, False]
    assert m.score == (5, 2) and m.winner == 0


def test_write_gives_the_hand_written_text():
    assert write_mat(play_match_by_hand()) == MATCH_TEXT


def test_crawford_double_in_a_record_is_refused_with_its_line():
    bad = MATCH_TEXT.replace(row(2, "62: 24/18 13/11"), row(2, " Doubles => 2"))
    with pytest.raises(InvalidRecordError, match=r"line 19.*Crawford"):  # 13 + 6 header
        read_mat(bad)


@pytest.mark.parametrize("old,new,why", [
    ("31: 8/5 6/5", "31: 8/4 6/5", "cannot be played with 3-1"),  # 8/4 is 4 pips
    ("52: 13/11 13/8", "52: 13/11", "incomplete"),              # the 5 can be played too
    (" Doubles => 4", " Doubles => 8", "expected 4"),
    (" Wins 2 points", " Wins 3 points", "won by player 1 for 2"),
    ("Bob : 2", "Bob : 1", "starts at 0-1"),
    ("61: 13/7 8/7", "61: Moves somewhere", "61"),
    (" Takes", " Ponders", "not a roll"),
])
def test_illegal_or_malformed_records_are_refused(old, new, why):
    with pytest.raises(InvalidRecordError, match=why):
        read_mat(MATCH_TEXT.replace(old, new.ljust(len(old)), 1))  # columns kept


@pytest.mark.parametrize("text", ["", "Game 1\n", " 5 point match\n", " x point match\n", 5])
def test_not_a_record(text):
    with pytest.raises(InvalidRecordError):
        read_mat(text)


def test_other_programs_spellings():
    # XG-style wider columns, a double at the first chance, "Passes" for a drop
    text = "\n".join([
        "; [Player 1 \"X\"]",
        " 1 point match",
        " Game 1",
        " X : 0                                 Y : 0",
        "  1) 42: 8/4 6/4                        Doubles => 2",
        "  2) Passes",
        "                                       Wins 1 point and the match",
    ])
    record = read_mat(text)
    assert record.match.score == (0, 1) and record.names == ("X", "Y")


def random_match(seed: int, length: int) -> Match:
    rng = random.Random(seed)
    m = Match(length, names=("Amy", "Ben"), rng=seed)
    while True:
        g = m.game
        while not g.over:
            acts = g.legal_actions()
            if "take" in acts:
                getattr(g, rng.choice(["take", "take", "drop"]))()
            elif "double" in acts and rng.random() < 0.05:
                g.double()
            elif "roll" in acts:
                g.roll()
            elif "play" in acts:
                g.play(rng.choice(list(g.position.legal_plays(g.dice))))
            if rng.random() < 0.004 and g.phase.value == "roll":
                g.resign(rng.choice(["single", "gammon", "backgammon"]))
                g.accept()
        if m.over:
            return m
        m.next_game()


@pytest.mark.parametrize("seed", range(6))
def test_export_then_import_gives_the_same_match(seed):
    m = random_match(seed, length=5)
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # nothing lost for a plain match
        text = write_mat(m)
    back = read_mat(text).match
    assert back.score == m.score and back.winner == m.winner
    assert len(back.games) == len(m.games)
    for a, b in zip(m.games, back.games):
        assert a.result == b.result and a.crawford == b.crawford
        # the same plays, cube actions and rolls; opening ties are not in the format
        keep = [x for x in a.actions if not (x.kind == "opening" and x.value[0] == x.value[1])]
        assert [(x.player, x.kind, x.value) for x in keep] == \
            [(x.player, x.kind, x.value) for x in b.actions]
    assert write_mat(back) == text


def test_money_session_and_losses():
    g = Game(Rules(jacoby=True, beaver=True), rng=3)
    g.roll((5, 3)); g.play("8/3 6/3")
    g.double(); g.beaver()
    with pytest.warns(FormatLossWarning, match="beaver"):
        text = write_mat([g])
    assert '; [Jacoby "On"]\n; [Beaver "On"]\n; [CubeLimit "64"]\n\n 0 point match\n' in text
    record = read_mat(text)
    assert record.match is None and record.match_length == 0
    back = record.games[0]
    # player 0 opened, player 1 doubled, player 0 beavered: cube 4 owned by player 0
    assert (back.cube, back.cube_owner, back.rules.jacoby) == (4, 0, True)


def test_a_full_left_cell_is_split_from_the_right_one():
    from backgammon.formats.mat import _split_cells
    line = "  7) " + "66: 24/18(2) 13/7(2) 8/2x" + "  " + "Takes"   # 25 chars then 2 spaces
    assert _split_cells(line, 32) == [(0, "66: 24/18(2) 13/7(2) 8/2x"), (1, "Takes")]
    line = "  7) " + "a" * 27 + " " + "Takes"                         # one space only
    assert _split_cells(line, 32) == [(0, "a" * 27), (1, "Takes")]


def test_header_tags_carry_crawford_and_cube_limit():
    m = Match(3, Rules(max_cube=8), crawford=False, rng=1)
    m.game.roll((3, 1)); m.game.play("8/5 6/5")
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        text = write_mat(m)
    assert '; [Crawford "Off"]' in text and '; [CubeLimit "8"]' in text
    back = read_mat(text).match
    assert not back.crawford_rule and back.rules.max_cube == 8
    assert read_mat(text.replace('"8"', '"1024"')).match.rules.max_cube == 64
    with pytest.raises(InvalidRecordError, match="CubeLimit"):
        read_mat(text.replace('"8"', '"lots"'))


@settings(max_examples=15, deadline=None)
@given(seed=st.integers(0, 10**6), length=st.integers(1, 9))
def test_property_mat_round_trip(seed, length):
    m = random_match(seed, length)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        text = write_mat(m)
    back = read_mat(text).match
    assert (back.score, back.winner, len(back.games)) == (m.score, m.winner, len(m.games))
    assert [g.result for g in back.games] == [g.result for g in m.games]
    assert write_mat(back) == text


@pytest.mark.parametrize("seed,length,cell", [
    (120221, 1, "11: bar/24* 22/21 18/17 3/2*"),   # 28 characters: fills the left column
    (40, 3, "33: bar/22* 24/21* 17/14 6/3*"),     # 29 characters: runs past it
])
def test_long_left_cells_keep_a_space_and_read_back(seed, length, cell):
    # gnubg writes the left cell as "%-27s " (always one space after it); a reader must
    # then find where the right cell starts even when the left one runs past column 33.
    m = random_match(seed, length)
    text = write_mat(m)
    line = next(x for x in text.splitlines() if cell in x)
    after = line[line.index(cell) + len(cell):]
    assert after[:1] == " " and after.strip()[:3].rstrip(":").isdigit()  # player 1's roll
    back = read_mat(text).match
    assert (back.score, [g.result for g in back.games]) == (m.score, [g.result for g in m.games])
    assert write_mat(back) == text


def test_money_games_with_other_rules_or_of_a_match_are_reported():
    # the header carries one set of rules; a game with others (RULES 8.4: the cube on or
    # off for each game) or a game of a match cannot be written as a money session
    g1 = Game(Rules(jacoby=True), rng=1)
    g1.roll((3, 1)); g1.play("8/5 6/5")
    g2 = Game(Rules(), rng=2)
    g2.roll((6, 5)); g2.play("24/13")
    with pytest.warns(FormatLossWarning, match="other rules than the first"):
        write_mat([g1, g2])
    g3 = Match(5, rng=3).game
    g3.roll((4, 2)); g3.play("8/4 6/4")
    with pytest.warns(FormatLossWarning, match="game of a match"):
        write_mat([g3])
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        write_mat([g1, g1])


def test_a_game_set_up_with_the_dice_rolled_is_reported_and_its_plays_written():
    # .mat has no setup: reported (it used to fail an assertion on the first play, the
    # set-up dice not counted as rolled); the play is still written with those dice
    from backgammon.position import Position
    g = Game.from_position(Position.initial(), turn=0, dice=(3, 1), rng=0)
    g.play("8/5 6/5")
    with pytest.raises(FormatLossError, match="set up from a position"):
        write_mat([g], strict=True)
    with pytest.warns(FormatLossWarning, match="set up from a position"):
        text = write_mat([g])
    assert "  1) 31: 8/5 6/5 " in text


def test_a_roll_made_before_a_resignation_is_written_and_read_as_gnubg_does():
    # gnubg writes dice rolled and never played before a resignation as "NN:" alone
    # ("%3d) %-3s" for player 0); the resignation's "Wins" follows in the winner's column.
    text = "\n".join([
        " 3 point match",
        "",
        " Game 1",
        score_line("Ann", 0, "Bob", 0),
        row(1, "31: 8/5 6/5", "52:"),                   # Bob rolls 5-2 and resigns
        WIN_LEFT + "Wins 1 point",
        "",
        " Game 2",
        score_line("Ann", 1, "Bob", 0),
        row(1, "", "43: 24/20 13/10"),
        "  2) 64: " + " " * 24 + "Wins 2 points",       # Ann rolls 6-4, resigns a gammon
        "",
    ])
    m = read_mat(text).match
    assert [(g.result.winner, g.result.points, g.result.kind) for g in m.games] == \
        [(0, 1, "single"), (1, 2, "gammon")]
    assert m.games[0].actions[-3:-1] == (
        (1, "roll", (5, 2)), (1, "resign", "single"))
    assert m.score == (1, 2)
    with warnings.catch_warnings():
        warnings.simplefilter("error")                  # nothing is lost now
        again = write_mat(m)
    assert row(1, "31: 8/5 6/5", "52:") in again and "  2) 64:" in again
    assert read_mat(again).match.score == (1, 2)


def test_a_rejected_resignation_between_roll_and_play_is_written():
    m = Match(3, rng=1)
    g = m.game
    g.roll((3, 1)); g.resign("single"); g.reject(); g.play("8/5 6/5")
    with pytest.warns(FormatLossWarning, match="rejected resignations"):
        text = write_mat(m)
    assert row(1, "31: 8/5 6/5") in text
    assert read_mat(text).match.game.position == g.position


def test_a_resigned_kind_that_only_its_points_show_is_reported():
    # Jacoby with a centred cube: a resigned gammon scores 1 (RULES 9.1), like a single
    # game; "Wins 1 point" reads back as a single game, so the kind must be reported
    g = Game(Rules(jacoby=True), rng=1)
    g.roll((3, 1)); g.resign("gammon"); g.accept()
    assert g.result.points == 1
    with pytest.warns(FormatLossWarning, match="resigned"):
        text = write_mat([g])
    assert read_mat(text).games[0].result.kind == "single"
    h = Game(Rules(jacoby=True), rng=1)
    h.roll((3, 1)); h.resign("single"); h.accept()
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        write_mat([h])


def test_the_right_column_is_found_when_a_name_looks_like_a_score():
    # the right column starts where player 1's name does, not where its text first
    # appears after the colon (here inside player 0's score)
    m = Match(5, names=("Ann", "1"), rng=0)
    m.game.roll((3, 1)); m.game.play("8/5 6/5"); m.game.resign("single", player=1)
    m.game.accept()
    m.next_game()
    m.game.roll((1, 3)); m.game.play("8/7 24/21")
    m.game.roll((6, 4)); m.game.play("24/14")
    text = write_mat(m)
    assert " Ann : 1" in text
    back = read_mat(text).match
    assert back.game.position == m.game.position and back.names == ("Ann", "1")


# ----------------------------------------------------------------------
# What real exporters write (excerpts written by hand in each one's style)


def result_row(left="", right=""):
    """A result line without a row number: cells at columns 6 and 34."""
    return (" " * 6 + left.ljust(28) + right).rstrip()


def test_galaxy_losses_cells_and_a_capped_match_result():
    # Galaxy restates each result in the loser's column ("Losses N point", singular or
    # plural) and, on the game that ends the match, states the points the winner lacked.
    # Game 1: Ann doubles, Bob drops: Ann +1 (1-0).
    # Game 2: Ann resigns a gammon on Bob's turn: Bob +2 (1-2).
    # Game 3: Bob at 2 = N-1: Crawford; Bob rolls 6-4 and resigns a single game (2-2).
    # Game 4: post-Crawford; Bob doubles, Ann takes and redoubles to 4, Bob drops: Ann
    #         scores 2 (the 2-cube) and wins 4-2; the file says "Wins 1 point and the
    #         match" (Ann lacked 1).
    text = "\n".join([
        " 3 point match", "",
        " Game 1", score_line("Ann", 0, "Bob", 0),
        row(1, "31: 8/5 6/5", "61: 13/7 8/7"),
        row(2, " Doubles => 2", " Drops"),
        result_row("Wins 1 point", "Losses 1 point"), "",
        " Game 2", score_line("Ann", 1, "Bob", 0),
        row(1, "", "43: 24/20 13/10"),
        row(2, "62: 24/18 13/11"),
        result_row("Losses 2 point", "Wins 2 point"), "",
        " Game 3", score_line("Ann", 1, "Bob", 2),
        row(1, "31: 8/5 6/5", "64:"),
        result_row("Wins 1 point", "Losses 1 points"), "",
        " Game 4", score_line("Ann", 2, "Bob", 2),
        row(1, "42: 8/4 6/4", " Doubles => 2"),
        row(2, " Takes", "61: 13/7 8/7"),
        row(3, " Doubles => 4", " Drops"),
        result_row("Wins 1 point and the match", "Losses 1 point"), "",
    ])
    m = read_mat(text).match
    assert [(g.result.winner, g.result.points, g.result.kind) for g in m.games] == [
        (0, 1, "single"), (1, 2, "gammon"), (0, 1, "single"), (0, 2, "single")]
    assert [g.crawford for g in m.games] == [False, False, True, False]
    assert m.score == (4, 2) and m.winner == 0
    # the loss and the win must agree: "Losses 1 point" is Ann resigning a single
    # game, which Bob's "Wins 2 point" contradicts
    with pytest.raises(InvalidRecordError, match="line 13.*won by player 1 for 1"):
        read_mat(text.replace("Losses 2 point", "Losses 1 point"))
    with pytest.raises(InvalidRecordError, match="line 7.*won by player 0 for 1"):
        read_mat(text.replace(result_row("Wins 1 point", "Losses 1 point"),
                              result_row("Losses 1 point", "Wins 1 point"), 1))


@pytest.mark.parametrize("stated", [1, 2, 3, 4, 5])
def test_a_final_result_capped_at_what_was_missing_or_the_match_length(stated):
    # 3-point match.  Game 1: Bob rolls 6-4, Ann resigns: Bob +1 (0-1).
    # Game 2: Bob doubles, Ann takes and redoubles to 4, Bob takes and redoubles to 8,
    # Ann drops: Bob scores 4 (the 4-cube).  Bob lacked 2 of the 3: the file may say 4
    # (the game), 2 (what Bob lacked) or 3 (the match length), nothing else.
    text = "\n".join([
        " 3 point match", "",
        " Game 1", score_line("Ann", 0, "Bob", 0),
        row(1, "31: 8/5 6/5", "64:"),
        result_row("", "Wins 1 point"), "",
        " Game 2", score_line("Ann", 0, "Bob", 1),
        row(1, "42: 8/4 6/4", " Doubles => 2"),
        row(2, " Takes", "61: 13/7 8/7"),
        row(3, " Doubles => 4", " Takes"),
        row(4, "31: 8/5 6/5", " Doubles => 8"),
        row(5, " Drops", f" Wins {stated} point and the match"), "",
    ])
    if stated in (2, 3, 4):
        m = read_mat(text).match
        assert m.games[-1].result.points == 4 and m.score == (0, 5) and m.winner == 1
    else:
        with pytest.raises(InvalidRecordError, match="line 14.*won by player 1 for 4"):
            read_mat(text)
    # without "and the match" only the real points stand
    if stated != 4:
        with pytest.raises(InvalidRecordError, match="won by player 1 for 4"):
            read_mat(text.replace(" and the match", ""))


def test_a_capped_result_is_only_for_the_game_that_ends_the_match():
    text = "\n".join([
        " 5 point match", "", " Game 1", score_line("Ann", 0, "Bob", 0),
        row(1, "42: 8/4 6/4", " Doubles => 2"),
        row(2, " Drops"),
        result_row("", "Wins 2 point and the match"), "",
    ])
    with pytest.raises(InvalidRecordError, match="won by player 1 for 1"):
        read_mat(text)


def test_xg_bom_crlf_and_a_roll_never_played():
    # XG: a UTF-8 byte-order mark, CRLF line ends, "NN: ????" for dice rolled before a
    # resignation.  Bob opens 6-1; Ann rolls 5-5 and resigns a gammon: Bob +2.
    lines = [
        '; [Player 1 "Ann"]', '; [Player 2 "Bob"]', "", " 3 point match", "",
        " Game 1", score_line("Ann", 0, "Bob", 0),
        row(1, "", "61: 13/7 8/7"),
        row(2, "55: ????"),
        result_row("", "Wins 2 points"), "",
    ]
    m = read_mat("\ufeff" + "\r\n".join(lines)).match
    g = m.games[0]
    assert (g.result.winner, g.result.points, g.result.kind) == (1, 2, "gammon")
    assert g.actions[-3:-1] == ((0, "roll", (5, 5)), (0, "resign", "gammon"))
    assert m.names == ("Ann", "Bob")


def test_gnubg_long_names_run_the_left_score_into_the_right_name():
    # gnubg pads " Ann : 0" to 31 columns; a longer one runs into player 1's name.
    # The left score is the digits after the first colon, as gnubg reads it (gnubg then
    # drops the rest of that word: it names player 1 "Other Name"; we keep "Bob").
    text = "\n".join([
        " 3 point match", "", " Game 1",
        " Annabelle Longname-Smithers : 0Bob Other Name : 0",
        row(1, "31: 8/5 6/5", "61: 13/7 8/7"),
        row(2, " Doubles => 2", " Drops"),
        result_row("Wins 1 point"), "",
        " Game 2",
        " Annabelle Longname-Smithers : 1Bob Other Name : 0",
        row(1, "", "43: 24/20 13/10"), "",
    ])
    record = read_mat(text)
    assert record.names == ("Annabelle Longname-Smithers", "Bob Other Name")
    assert record.match.score == (1, 0) and record.match.game.turn == 0
    # we write one space between them, which gnubg and we read back
    again = write_mat(record.match)
    assert " Annabelle Longname-Smithers : 1 Bob Other Name : 0" in again
    assert read_mat(again).names == record.names


@pytest.mark.parametrize("names,written", [
    (("Ann\nSmith", "Bob"), ("Ann Smith", "Bob")),
    (("Ann : 3", "Bob"), ("Ann ; 3", "Bob")),
    (("", "Bob"), ("Player 1", "Bob")),
    (("Ann", '"B"'), ("Ann", "'B'")),
    (("  Ann  ", "Bob\t"), ("Ann", "Bob")),
])
def test_names_that_cannot_round_trip_are_mended_and_reported(names, written):
    m = Match(1, names=names, rng=0)
    m.game.roll((3, 1)); m.game.play("8/5 6/5"); m.game.resign("single", player=1)
    m.game.accept()
    with pytest.warns(FormatLossWarning, match="the name"):
        text = write_mat(m)
    assert read_mat(text).names == written
    with pytest.raises(FormatLossError, match="the name"):
        write_mat(m, strict=True)


def test_a_drop_by_the_left_player_puts_the_result_on_its_row():
    # gnubg writes "Wins" in the winner's column on the row of the drop when that
    # column is free; otherwise on a line of its own (here Bob drops, Ann wins)
    m = Match(3, names=("Ann", "Bob"), rng=0)
    g = m.game
    g.roll((3, 1)); g.play("8/5 6/5")
    g.double(); g.drop()                        # Bob doubles, Ann drops
    m.next_game()
    g = m.game
    g.roll((3, 1)); g.play("8/5 6/5")
    g.roll((6, 1)); g.play("13/7 8/7")
    g.double(); g.drop()                        # Ann doubles, Bob drops
    text = write_mat(m)
    assert row(1, "31: 8/5 6/5", " Doubles => 2") + "\n" + \
        row(2, " Drops", " Wins 1 point") + "\n" in text
    assert row(2, " Doubles => 2", " Drops") + "\n" + result_row("Wins 1 point") in text
    assert read_mat(text).match.score == (1, 1)


def test_a_forced_play_s_roll_before_a_resignation_is_reported():
    # gnubg plays the only legal play of a roll written "NN:" alone, so such a roll
    # cannot be written as unplayed: it is left out and reported.
    from backgammon.position import Position
    board = [0] * 26
    board[1], board[19] = 1, -15          # Ann's last checker on her ace point
    g = Game.from_position(Position.from_array(board), turn=0, rng=0)
    g.roll((6, 5)); g.resign("single", player=1); g.accept()   # 1/off was forced
    with pytest.warns(FormatLossWarning, match="the roll 65 made before a resignation"):
        text = write_mat([g])
    assert "65:" not in text
    # not forced: written "66:" and read back as rolled, then resigned
    m = Match(3, rng=0)
    g = m.game
    g.roll((3, 1)); g.play("8/5 6/5")
    g.roll((6, 6)); g.resign("single"); g.accept()
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        text = write_mat(m)
    assert row(1, "31: 8/5 6/5", "66:") in text
    assert read_mat(text).match.games[0].actions[-3:] == (
        (1, "roll", (6, 6)), (1, "resign", "single"), (0, "accept", None))


def test_the_4_4_play_that_ran_past_the_left_column_reads_back():
    # Found by test_property_mat_round_trip (seed=442, length=1): a 30-character left
    # cell, gnubg's one space, then " Doubles => 2".  The two spaces before the right
    # cell end the left one: it is whole (it used to be cut at the column, losing 13/9*).
    line = " 13) 44: bar/21* 24/20 22/18* 13/9*  Doubles => 2"
    from backgammon.formats.mat import _split_cells
    assert _split_cells(line, 32) == [(0, "44: bar/21* 24/20 22/18* 13/9*"),
                                      (1, "Doubles => 2")]
    m = random_match(442, 1)
    text = write_mat(m)
    assert line in text.splitlines()
    back = read_mat(text).match
    assert [g.actions for g in back.games] == [g.actions for g in m.games]
    assert write_mat(back) == text


# ----------------------------------------------------------------------
# Hostile input: linear time, bounded numbers


@pytest.mark.parametrize("line", [
    " " + "a " * 500_000 + ":",                        # the old score-line pattern
    " a" + " " * 1_000_000 + ": 1 b : x",
    "; [" + " " * 1_000_000 + "x",                     # the old tag pattern
    "; [k" + " \t" * 300_000 + '"v"',
    "  1) " + "31: " + "8/5 " * 250_000,
    "  1) " + "a" * 1_000_000,
    "  1) " + "Wins " * 200_000,
], ids=["score", "score2", "tag", "tag2", "play", "word", "wins"])
def test_a_megabyte_hostile_line_reads_or_fails_at_once(line):
    # quadratic reading took 4 s for 40 KB: this many characters would take minutes
    head = [" 3 point match", "", " Game 1", score_line("Ann", 0, "Bob", 0)]
    for text in ("\n".join(head + [line]), line + "\n" + "\n".join(head),
                 "\n".join(head[:3] + [line])):
        try:
            read_mat(text)  # a comment line before the match is fine
        except InvalidRecordError:
            pass


@pytest.mark.parametrize("old,new,what", [
    (" 3 point match", " " + "9" * 5000 + " point match", "match length"),
    ("Bob : 0", "Bob : " + "0" * 5000, "score"),
    ("Ann : 0", "Ann : " + "1" * 5000, "score"),
    (" Doubles => 4", " Doubles => " + "4" * 5000, "cell of"),
    ('"64"', '"' + "6" * 5000 + '"', "CubeLimit"),
])
def test_huge_numbers_are_refused_with_their_line(old, new, what):
    with pytest.raises(InvalidRecordError, match=what):
        read_mat(MATCH_TEXT.replace(old, new, 1))
