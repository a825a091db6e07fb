"""What spreadsheets leave in a CSV they save: trailing empty columns and rows of
delimiters only. Both are nothing, and a good file with them imports.

Excel keeps the width of a column that once held something: the header may end
in ``;scores;;`` and an emptied row is saved as ``;;;;;;;;;;;``. Such a header
failed (``unknown column ''``) and such a row was charged to the match above it
("players must name every seat").
"""
import io

import pytest

from tourney.errors import RecordError
from tourney.records.csv_format import RecordReader
from tourney.tournament.players import PlayerFileRejected, parse_player_csv

HEADER = "round,table,deal,players,dealer,hands,play"
ROW = "1,A,1,x;y,x,10h q♠ As|2c;KD 3D,S1"


def read(text, **kw):
    return list(RecordReader(io.BytesIO(text.encode()), "f.csv", **kw))


def test_trailing_empty_header_columns_are_ignored():
    (record,) = read(f"{HEADER},,\n{ROW},,\n")
    assert record.players == ["x", "y"] and record.play == ["S1"]


def test_rows_may_be_shorter_or_longer_by_the_empty_columns():
    records = read(f"{HEADER},, \n{ROW}\n{ROW.replace(',1,', ',2,', 1)},,\n")
    assert [r.deal for r in records] == [1, 2]


def test_a_value_under_an_empty_header_names_its_line_and_column():
    with pytest.raises(RecordError) as err:
        read(f"{HEADER},,\n{ROW},,\n{ROW},,oops\n")
    assert err.value.line == 3
    assert "a value in column 9, which has no name in the header" in str(err.value)


@pytest.mark.parametrize("empty", [",,,,,,,,", ",,,,,,", " , ,\t, ,,,", ",,,,,,,,,,,,"])
def test_rows_of_delimiters_only_are_skipped_like_blank_lines(empty):
    records = read(f"{HEADER},,\n{ROW},,\n{empty}\n{ROW.replace(',1,', ',2,', 1)},,\n{empty}\n")
    assert [r.deal for r in records] == [1, 2]


def test_the_same_in_a_semicolon_file():
    text = ("round;table;deal;players;dealer;play;;\n"
            '1;A;1;"x;y";x;S1;;\n'
            ";;;;;;;\n"
            ";;;;;;;\n")
    (record,) = read(text)
    assert record.players == ["x", "y"]


def test_player_files_too():
    rows = parse_player_csv("name;club;;\nAnna;Vasa;;\n;;;\nBo;;;\n")
    assert [(r.name, r.club) for r in rows] == [("Anna", "Vasa"), ("Bo", None)]
    with pytest.raises(PlayerFileRejected) as rejected:  # every bad row is listed
        parse_player_csv("name;club;;\nAnna;Vasa;x;\n")
    [error] = rejected.value.errors
    assert "a value in column 3, which has no name" in error.message

