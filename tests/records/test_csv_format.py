"""Reading and writing the record CSV (tourney/records/csv_format.py)."""
import io

import pytest

from tourney.cards import parse_card
from tourney.errors import RecordError, UsageError
from tourney.records.csv_format import (
    COLUMNS,
    HeaderError,
    RecordReader,
    format_row,
    read_records_text,
    write_records,
)

HEADER = "event,variant,round,table,deal,players,dealer,hands,stock,passes,play,scores\n"


def read(text, **kw):
    return list(RecordReader(io.BytesIO(text if isinstance(text, bytes) else text.encode()), "f.csv", **kw))


def test_cards_are_parsed_in_every_accepted_spelling():
    (r,) = read_records_text("round,table,deal,players,dealer,hands,play\n"
                             "1,A,1,x;y,x,10h q♠ As|2c;KD 3D,S1\n")
    assert r.hands == [[parse_card("TH"), parse_card("QS"), parse_card("AS")],
                       [parse_card("KD"), parse_card("3D")]]
    assert r.secrets == [[parse_card("2C")], []]
    assert format_row(r)["hands"] == "TH QS AS|2C;KD 3D|"


def test_header_is_case_insensitive_and_columns_may_come_in_any_order():
    (r,) = read_records_text("PLAY,Players,Deal,TABLE,round\nS0,a;b,2,7,3\n")
    assert (r.round, r.table, r.deal, r.players, r.play) == (3, "7", 2, ["a", "b"], ["S0"])


def test_unknown_column_is_a_header_error_on_line_1():
    with pytest.raises(HeaderError) as err:
        read("round,table,deal,players,play,scroes\n")
    assert err.value.line == 1 and "scroes" in str(err.value)
    assert isinstance(err.value, UsageError)  # not a record file: the CLI exits 2


@pytest.mark.parametrize("text, rule", [
    ("", "header"),
    ("round,table,deal,players\n", "header"),
    ("round,table,deal,players,play,play\n", "header"),
])
def test_bad_headers(text, rule):
    with pytest.raises(HeaderError) as err:
        read(text)
    assert err.value.rule == rule


def test_line_numbers_count_physical_lines_and_skip_blank_lines():
    text = ('round,table,deal,players,play\n'
            '1,1,1,a;b,S1\n'
            '\n'
            '1,1,2,"a;b","S1\nS2"\n'
            '1,1,3,a;b;,S1\n')
    items = read(text, errors="yield")
    assert [i.line for i in items] == [2, 4, 6]
    assert items[1].play == ["S1", "S2"]
    assert isinstance(items[2], RecordError) and items[2].column == "players"
    assert str(items[2]).startswith("f.csv, line 6, players: ")


def test_bom_is_accepted_and_bad_bytes_are_reported_with_their_line():
    (r,) = read(b"\xef\xbb\xbfround,table,deal,players,play\n1,1,1,a;b,S1\n")
    assert r.round == 1
    # UTF-8 on line 2, then a byte that is not: two encodings in one file
    with pytest.raises(RecordError) as err:
        read("round,table,deal,players,play\n1,1,1,é;b,S1\n".encode() + b"1,1,2,\xe5;b,S1\n")
    assert err.value.line == 3 and err.value.rule == "encoding" and "0xe5" in str(err.value)


def test_ragged_rows_and_bad_cards_name_line_and_column():
    items = read("round,table,deal,players,hands,play\n1,1,1,a;b,QS,S1,extra\n"
                 "1,1,2,a;b,QS ZZ;2C,S1\n", errors="yield")
    assert items[0].rule == "ragged-row" and items[0].line == 2
    assert items[1].rule == "card" and items[1].column == "hands" and "'ZZ'" in str(items[1])


def test_oversized_input_is_refused_cheaply():
    big = "round,table,deal,players,play\n1,1,1,a;b," + "S1 " * 400000 + "\n"
    with pytest.raises(RecordError) as err:
        read(big)
    assert err.value.rule in ("line-too-long", "csv", "too-many-moves")
    many = "round,table,deal,players,play\n1,1,1,a;b," + "S1 " * 6000 + "\n"
    with pytest.raises(RecordError) as err:
        read(many)
    assert err.value.rule == "too-many-moves"


def test_write_then_read_is_lossless():
    text = (HEADER +
            'ev,spardame,2,3,1,"Ann;Bo;Cai;Dag",Bo,"2C 3C;4C;5C;6C",,"2C;4C;5C;6C",2C 3C,10;0;0;230\n')
    (r,) = read_records_text(text)
    out = io.StringIO()
    write_records(out, [r])
    (again,) = read_records_text(out.getvalue())
    again.line = r.line
    assert again == r
    assert out.getvalue().splitlines()[0] == ",".join(COLUMNS)


def test_a_seat_count_message_counts_in_words():
    with pytest.raises(RecordError) as err:
        read_records_text("round,table,deal,players,dealer,hands,play\n"
                          "1,A,1,a;b;c;d,a,AS,S0\n")
    assert "1 seat given for 4 players" in str(err.value)
