"""Reading a record file of any format (backgammon.formats.read_record, what
``backgammon analyse FILE`` reads) and the library's dice text parser."""

from __future__ import annotations

import pytest

import backgammon as bg
from backgammon import cli
from backgammon.errors import InvalidDiceError, InvalidRecordError
from backgammon.formats import MAX_RECORD_BYTES, read_record
from test_formats_record import small_match


def test_the_format_is_told_by_the_name_then_the_content(tmp_path):
    m = small_match()   # a 3-point match of one game, Ann against Bob
    texts = {"sgf": m.to_sgf(), "json": m.to_json(), "mat": m.to_mat()}
    for fmt, text in texts.items():
        for name in (f"match.{fmt}", "match.txt"):   # by suffix, and by content alone
            path = tmp_path / name
            path.write_text(text)
            record = read_record(path)
            assert type(record).__name__ == {"sgf": "SgfRecord", "json": "Record",
                                             "mat": "MatRecord"}[fmt], (fmt, name)
            assert record.names == ("Ann", "Bob") and record.match_length == 3
            assert record.match is not None and len(record.games) == 1
            assert record.games[0].result == m.games[0].result
    # a suffix wins over the content: JSON text named .sgf is read as SGF and refused
    wrong = tmp_path / "match.sgf"
    wrong.write_text(texts["json"])
    with pytest.raises(InvalidRecordError):
        read_record(wrong)


def test_unreadable_and_oversized_files_are_refused(tmp_path):
    with pytest.raises(InvalidRecordError, match="cannot read"):
        read_record(tmp_path / "missing.mat")
    with pytest.raises(InvalidRecordError, match="cannot read"):
        read_record(tmp_path)                     # a folder
    assert MAX_RECORD_BYTES == 16 << 20
    big = tmp_path / "big.mat"
    big.write_bytes(b" " * (MAX_RECORD_BYTES + 1))   # one byte over the limit
    with pytest.raises(InvalidRecordError, match="larger than 16 MiB"):
        read_record(big)


def test_the_cli_reads_records_through_the_library(tmp_path, monkeypatch, capsys):
    from backgammon.formats import files

    assert not hasattr(cli, "_read_record")
    seen = []

    def spy(path):
        seen.append(str(path))
        raise InvalidRecordError("spied")
    monkeypatch.setattr(files, "read_record", spy)
    assert cli.main(["analyse", str(tmp_path / "x.mat")]) == 2
    assert seen == [str(tmp_path / "x.mat")] and "spied" in capsys.readouterr().err


@pytest.mark.parametrize("text, dice", [("31", (3, 1)), ("3-1", (3, 1)), ("3 1", (3, 1)),
                                        ("3,1", (3, 1)), ("13", (1, 3)), ("6-6", (6, 6))])
def test_dice_text(text, dice):
    assert bg.parse_dice_text(text) == dice


@pytest.mark.parametrize("text", ["", "7-1", "0-3", "3", "311", "a-b", "3/1x"])
def test_bad_dice_text_is_refused(text):
    with pytest.raises(InvalidDiceError):
        bg.parse_dice_text(text)


def test_the_cli_name_is_the_library_parser():
    from backgammon.position import parse_dice_text

    assert cli.parse_dice_text is parse_dice_text is bg.parse_dice_text
    assert "parse_dice_text" in cli.__all__ and "parse_dice_text" in bg.__all__
    assert parse_dice_text.__module__ == "backgammon.position"
