"""Issue 17 (Hardening II): numbers read as ASCII digits only, the errors of our
hierarchy for odd records and tables, bounds on scores, and what each fix promises.

The expected answers are worked out by hand in the comments: a number written
with other Unicode digits ("²", "⒌", "₃", "٣") is no number in any format the
library reads, so each is refused with an error of the hierarchy naming the field.
"""

from __future__ import annotations

import doctest
import importlib

import numpy as np
import pytest
from backgammon import met
from backgammon.errors import BackgammonError, InvalidRecordError, MatchEquityError
from backgammon.formats.mat import read_mat
from backgammon.formats.sgf import read_sgf

ODD_DIGITS = ["²", "⒌", "₃", "٣", "1_0", "+1", "3²", "߃"]  # ߃: N'Ko digit three


def test_numbers_module_examples():
    module = importlib.import_module("backgammon._numbers")
    assert doctest.testmod(module, optionflags=doctest.ELLIPSIS).failed == 0


# ---------------------------------------------------------------- SGF


@pytest.mark.parametrize("odd", ODD_DIGITS)
@pytest.mark.parametrize("template, field", [
    ("(;GM[6]MI[length:{}])", "MI length"),
    ("(;GM[6]MI[length:0][game:{}])", "MI game"),
    ("(;GM[6]MI[length:0][ws:{}])", "MI ws"),
    ("(;GM[6]MI[length:0]RE[W+{}R])", "RE points"),
    ("(;GM[6]MI[length:0]RE[W+{}])", "RE points"),
    ("(;GM[6]MI[length:0];CV[{}]AE[a:y]AW[a]AB[x])", "CV"),
])
def test_sgf_numbers_are_ascii_digits(template, field, odd):
    with pytest.raises(InvalidRecordError, match=field):
        read_sgf(template.format(odd))


def test_sgf_ascii_numbers_still_read():
    # RE[W+1R] on a money game not started: White wins 1 by a resignation
    record = read_sgf("(;GM[6]MI[length:0][game:0][ws:0][bs:0]RE[W+1R])")
    assert record.games[0].result.points == 1 and record.games[0].result.winner == 0


@pytest.mark.parametrize("text", [
    "(;GM[6]MI[length:0];PL[W]DI[66])",       # the opening roll a double, no move after
    "(;GM[6]MI[length:3];PL[B]DI[11])",       # the same in a match game
    "(;GM[6]MI[length:0]PL[W]DI[33])",        # on the root node
])
def test_sgf_first_roll_double_alone_is_our_error(text):
    # RULES 2.1: the opening dice are never equal; with no move after it the game is
    # started only after the loop over the nodes, which must name the game too
    with pytest.raises(InvalidRecordError, match=r"game 1.*double"):
        read_sgf(text)


# ---------------------------------------------------------------- .mat


MAT = " 3 point match\n\n Game 1\n Ann : {s0}                        Bob : {s1}\n" \
      "  1) 31: 8/5 6/5\n"


@pytest.mark.parametrize("odd", ODD_DIGITS)
def test_mat_numbers_are_ascii_digits(odd):
    for text in (MAT.format(s0=odd, s1=0), MAT.format(s0=0, s1=odd),
                 f' {odd} point match\n\n Game 1\n A : 0     B : 0\n',
                 '; [CubeLimit "{}"]\n'.format(odd) + MAT.format(s0=0, s1=0),
                 MAT.format(s0=0, s1=0) + f"  2)  Doubles => {odd}\n",
                 MAT.format(s0=0, s1=0).replace("Game 1", f"Game {odd}")):
        with pytest.raises(InvalidRecordError):
            read_mat(text)


def test_mat_cubelimit_names_the_field():
    with pytest.raises(InvalidRecordError, match="CubeLimit"):
        read_mat('; [CubeLimit "²"]\n' + MAT.format(s0=0, s1=0))


def test_mat_ascii_numbers_still_read():
    record = read_mat(MAT.format(s0=0, s1=0))
    assert record.match_length == 3 and record.games[0].position.pip_counts() == (167, 163)


# ---------------------------------------------------------------- other readers


@pytest.mark.parametrize("odd", ["٣", "+1", " 1", "1_0", "²"])
def test_xgid_numbers_are_ascii_digits(odd):
    from backgammon.formats.xgid import decode_xgid

    start = "-b----E-C---eE---c-e----B-"
    decode_xgid(f"XGID={start}:0:0:1:52:0:0:0:5:10")  # the plain one reads
    with pytest.raises(InvalidRecordError, match="match length"):
        decode_xgid(f"XGID={start}:0:0:1:52:0:0:0:{odd}:10")


@pytest.mark.parametrize("text", ["٢٤/١٨ ١٣/١١", "24/18 13/١١", "8/5(٢)"])
def test_play_notation_digits_are_ascii(text):
    from backgammon.errors import InvalidPlayError
    from backgammon.position import Position

    with pytest.raises(InvalidPlayError):
        Position.initial().parse_play(text, (6, 2) if "24" in text or "٢٤" in text else (3, 3))


@pytest.mark.parametrize("moves", [[[8.7, 5]], [["8", 5]], [["٨", 5]]])
def test_json_record_points_are_integers(moves):
    import json

    from backgammon.formats.record import read_json
    from backgammon.game import Game

    game = Game(rng=1)
    game.roll((3, 1))
    game.play("8/5 6/5")
    data = json.loads(game.to_json())
    for item in data["games"][0]["actions"]:
        if item["action"] == "play":
            item["moves"] = moves
    with pytest.raises(InvalidRecordError):
        Game.from_json(json.dumps(data))
    assert read_json  # the same reader


def test_met_xml_entries_are_ascii():
    text = met.default_table().to_json()
    xml = _met_xml(met.default_table()).replace("<me>0.5</me>", "<me>٠.٥</me>", 1)
    assert "٠.٥" in xml and text
    with pytest.raises(MatchEquityError, match="not a match winning chance"):
        met.MatchEquityTable.from_gnubg_xml(xml)


def _met_xml(table) -> str:
    rows = "".join("<row>" + "".join(f"<me>{v}</me>" for v in row) + "</row>"
                   for row in table.pre_crawford)
    post = "".join(f"<me>{v}</me>" for v in table.post_crawford)
    return (f"<?xml version='1.0' encoding='UTF-8'?><met><info><name>t</name>"
            f"<length>{table.length}</length></info><pre-crawford-table type='explicit'>"
            f"{rows}</pre-crawford-table><post-crawford-table player='both' "
            f"type='explicit'><row>{post}</row></post-crawford-table></met>")


@pytest.mark.parametrize("encoding", ["foo-bar", "rot13", "hex", "utf-7", "big5", "idna",
                                      "base64", "zlib", "utf-32-xx"])
def test_met_xml_odd_encodings(encoding):
    text = _met_xml(met.default_table()).replace("UTF-8", encoding).encode("ascii")
    with pytest.raises(MatchEquityError):
        met.MatchEquityTable.from_gnubg_xml(text)


def test_met_xml_round_trip_still_reads():
    table = met.MatchEquityTable.from_gnubg_xml(_met_xml(met.default_table()).encode())
    assert table.pre_crawford == met.default_table().pre_crawford


# ---------------------------------------------------------------- the command line


@pytest.mark.parametrize("argv", [["perft", "٢"], ["perft", "2", "--rolls", "٢١"],
                                  ["rollout", "--games", "1_0"],
                                  ["rollout", "--max-seconds", "٣.٥"]])
def test_cli_numbers_are_ascii(argv, capsys):
    from backgammon.cli import main

    with pytest.raises(SystemExit) as e:
        main(argv)
    assert e.value.code == 2
    assert "ASCII" in capsys.readouterr().err


@pytest.mark.parametrize("record", [
    ("x.sgf", "(;GM[6]MI[length:²])"),
    ("x.sgf", "(;GM[6]MI[length:0];PL[W]DI[66])"),
    ("x.mat", MAT.format(s0="⒌", s1=0)),
])
def test_cli_analyse_prints_a_clean_error(record, tmp_path, capsys):
    from backgammon.cli import main

    path = tmp_path / record[0]
    path.write_text(record[1], encoding="utf-8")
    assert main(["analyse", str(path)]) == 2
    err = capsys.readouterr().err
    assert err.startswith("backgammon: error: ") and "Traceback" not in err


def test_errors_are_of_the_hierarchy():
    assert issubclass(InvalidRecordError, BackgammonError)
    assert np  # numpy is used by the score tests below
