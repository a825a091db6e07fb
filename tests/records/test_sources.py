"""Reading tables as spreadsheets write them (tourney/records/sources.py) and the
formula rule for files written for them (tourney/records/spreadsheets.py)."""
import codecs
import io

import pytest
from hypothesis import given
from hypothesis import strategies as st
from openpyxl import Workbook

from tourney.errors import RecordError
from tourney.records.csv_format import RecordReader
from tourney.records.sources import Source, formula_safe, restore_cell
from tourney.records.spreadsheets import CsvTable

HEADER = ["round", "table", "deal", "players", "play", "scores"]
ROWS = [["1", "1", "1", "Åsa Öberg;Bo", "S1", ""], ["1", "1", "2", "Bo;Åsa Öberg", "S0", ""]]


def as_text(delimiter: str, rows=None, newline="\n") -> str:
    out = io.StringIO()
    import csv
    csv.writer(out, delimiter=delimiter, lineterminator=newline).writerows([HEADER] + (rows or ROWS))
    return out.getvalue()


def read(data: bytes, **kw):
    reader = RecordReader(io.BytesIO(data), "f.csv", **kw)
    return [(r.line, r.players, r.play) for r in reader], reader


EXPECTED = [(2, ["Åsa Öberg", "Bo"], ["S1"]), (3, ["Bo", "Åsa Öberg"], ["S0"])]


@pytest.mark.parametrize("delimiter", [",", ";", "\t"])
@pytest.mark.parametrize("encode", [
    lambda t: t.encode("utf-8"),
    lambda t: codecs.BOM_UTF8 + t.encode("utf-8"),
    lambda t: t.encode("utf-16"),  # with its BOM: Excel's "Unicode text"
    lambda t: codecs.BOM_UTF16_BE + t.encode("utf-16-be"),
    lambda t: t.encode("cp1252"),
], ids=["utf8", "utf8-bom", "utf16", "utf16-be", "cp1252"])
def test_every_dialect_and_encoding_reads_the_same(delimiter, encode):
    records, reader = read(encode(as_text(delimiter, newline="\r\n")))
    assert records == EXPECTED
    notices = reader.source.notices
    assert bool(notices) == (encode(";") == b";" and encode("Å") == "Å".encode("cp1252"))
    if notices:
        assert "Windows-1252" in notices[0] and notices[0].setting == "encoding"
        assert "--" not in notices[0]  # the library names no flag; the CLI adds it


def test_a_notice_is_words_a_page_says_in_its_language():
    """How a file was read is a warning, words like a refusal: its English the
    command line's, unchanged; a page's in its language (a pickled notice, as a
    part of a big file sends it back, keeps them)."""
    import datetime as dt
    import pickle

    from tourney.reports.site import Renderer

    _, reader = read(as_text(";", newline="\r\n").encode("cp1252"))
    (notice,) = pickle.loads(pickle.dumps(reader.source.notices))
    assert notice == ("f.csv: not UTF-8 (line 2); read as Windows-1252; give the file's "
                      "encoding if it is another")
    assert notice.setting == "encoding"
    swedish = Renderer("sv", "", ["sv"], dt.datetime.now(dt.timezone.utc)).message(notice.words)
    assert swedish == ("f.csv: inte UTF-8 (rad 2); lästes som Windows-1252; ange filens "
                       "teckenkodning om det är en annan")


def test_forced_encoding_and_a_mixed_file_say_what_was_tried():
    latin = as_text(",").encode("latin-1")
    with pytest.raises(RecordError) as err:
        read(latin, encoding="utf-8")
    assert err.value.rule == "encoding" and err.value.line == 2 and "its encoding" in str(err.value)
    assert err.value.setting == "encoding"  # the command line adds "(--encoding)"
    # 0x81 is not a character in Windows-1252 either
    with pytest.raises(RecordError) as err:
        read(as_text(",").encode("ascii", "ignore") + b"1,1,3,\x81;b,S0,\n")
    assert "neither UTF-8 nor Windows-1252" in str(err.value) and err.value.line == 4


def test_the_header_tells_the_delimiter_even_with_semicolons_in_cells():
    text = "round;table;deal;players;play\n1;1;1;\"a;b\";S1\n"
    records, reader = read(text.encode())
    assert records == [(2, ["a", "b"], ["S1"])]


def test_rejects_error_column_is_ignored():
    rows = [row + ["line 2, play: must follow suit"] for row in ROWS]
    text = as_text(",", rows).replace("scores\n", "scores,error\n", 1)
    records, _ = read(text.encode())
    assert records == EXPECTED


@given(st.text(max_size=12))
def test_formula_safe_never_starts_a_formula_and_restores_exactly(text):
    written = formula_safe(text)
    assert not written.startswith(("=", "+", "-", "@", "\t", "\r"))
    assert restore_cell(written) == text


def test_csv_table_escapes_and_the_reader_restores():
    out = io.StringIO()
    table = CsvTable(out, HEADER, bom=True)
    hostile = ["1", "=cmd|' /C calc'!A0", "1", "a;b", "S1", "-100;130"]
    table.write(hostile)
    text = out.getvalue()
    assert text.startswith("\ufeff")
    assert "'=cmd" in text and "'-100;130" in text and ",=" not in text and ",-" not in text
    reader = RecordReader(io.BytesIO(text.encode()), "f.csv", errors="yield")
    list(reader)  # read to the end: raw_row is the last row's
    assert reader.raw_row == hostile  # the values come back exactly


def workbook_bytes(rows, title="Round 1") -> bytes:
    workbook = Workbook()
    sheet = workbook.active
    sheet.title = title
    for row in rows:
        sheet.append(row)
    out = io.BytesIO()
    workbook.save(out)
    return out.getvalue()


def test_xlsx_rows_numbers_as_text_and_errors_name_sheet_and_cell():
    data = workbook_bytes([HEADER, [1, 1, 1, "a;b", "S1", None], [1, 1, 2.0, "a;b;", "S0", None]])
    reader = RecordReader(Source(io.BytesIO(data), "r.xlsx"), errors="yield")
    first, second = list(reader)
    assert (first.round, first.deal, first.play) == (1, 1, ["S1"])
    assert isinstance(second, RecordError) and second.column == "players"
    reader.source.locate(second)
    assert str(second).startswith("r.xlsx, Round 1!D3, players: ")


def test_a_damaged_workbook_and_a_missing_sheet_are_one_line():
    with pytest.raises(RecordError, match="not a readable XLSX"):
        list(RecordReader(io.BytesIO(b"PK\x03\x04garbage"), "x.xlsx"))
    data = workbook_bytes([HEADER])
    from tourney.errors import UsageError
    with pytest.raises(UsageError, match="no sheet 'Nope'; its sheets: 'Round 1'"):
        list(RecordReader(Source(io.BytesIO(data), "r.xlsx", sheet="Nope")))


@pytest.mark.parametrize("value", ["３", "٣", "1.0", "+1", " 2x"])
def test_numbers_take_ascii_digits_only(value):
    text = f"round,table,deal,players,play\n{value},1,1,a;b,S1\n"
    [item] = list(RecordReader(io.BytesIO(text.encode()), "f.csv", errors="yield"))
    assert isinstance(item, RecordError) and item.column == "round" and item.rule == "number"


@pytest.mark.parametrize("row, column", [
    ("no-such-game,1,1,1,a;b,a", "variant"),
    ("spardame,one,1,1,a;b,a", "round"),
    ("spardame,1,1,-4,a;b,a", "deal"),
])
def test_unfilled_rows_still_have_valid_key_columns(row, column):
    text = ("variant,round,table,deal,players,dealer,play,scores\n"
            "spardame,1,1,1,a;b,a,,\n" + row + ",,\n")
    skipped = []
    reader = RecordReader(io.BytesIO(text.encode()), "f.csv", errors="yield",
                          on_skipped=lambda line, reason: skipped.append(line))
    [item] = list(reader)
    assert isinstance(item, RecordError) and item.column == column and item.line == 3
    assert skipped == [2] and reader.unfilled == 1


def test_an_unfilled_row_with_a_spoilt_dealer_is_still_unfilled():
    """The dealer is no key column: a sheet's unused row whose dealer cell was
    spoilt is skipped like any unused row (it once became a row of its own, and the
    match's numbering then wanted a deal that was never played)."""
    text = ("variant,round,table,deal,players,dealer,play,scores\n"
            "spardame,1,1,1,a;b,a,,\nspardame,1,1,2,a;b,nobody,,\n")
    skipped = []
    reader = RecordReader(io.BytesIO(text.encode()), "f.csv", errors="yield",
                          on_skipped=lambda line, reason: skipped.append(line))
    assert list(reader) == [] and skipped == [2, 3] and reader.unfilled == 2


# ---------------------------------------------------------------- errors of the file
# The reader names the column of a bad byte or an oversized field itself (the line is
# known from the lines it reads; the column from the record read so far).

def file_error(data: bytes, **kw) -> RecordError:
    with pytest.raises(RecordError) as caught:
        list(RecordReader(io.BytesIO(data), "f.csv", errors="yield", **kw))
    return caught.value


@pytest.mark.parametrize("delimiter", [",", ";", "\t"])
def test_a_bad_byte_is_named_by_line_and_column(delimiter):
    text = as_text(delimiter, ROWS + [["1", "1", "3", "Bo;Cy", "S1 S2", "1;2"]])
    data = text.encode("utf-8").replace(b"S1 S2", b"S1 \xff2")
    err = file_error(data, encoding="utf-8")  # forced: the byte is not UTF-8
    assert (err.rule, err.line, err.column) == ("encoding", 4, "play")
    assert "byte 0xff" in str(err) and "f.csv, line 4, play" in str(err)
    # not forced: read as Windows-1252 from the first non-UTF-8 line, where 0x81 is no
    # character either
    data = text.encode("utf-8").replace(b"Bo;Cy", b"Bo;C\x81")
    err = file_error(data)
    assert (err.rule, err.line, err.column) == ("encoding", 4, "players")


def test_a_bad_byte_in_a_quoted_field_over_lines_names_its_column():
    data = ('round,table,deal,players,play,scores\n'
            '1,1,1,"A;B","S1\nS2 ;x",""\n').encode() + b'1,1,2,"A;B","S1\n\xff",""\n'
    err = file_error(data, encoding="utf-8")
    assert (err.rule, err.line, err.column) == ("encoding", 5, "play")


def test_a_nul_byte_is_named_by_column():
    data = as_text(",").encode().replace(b"S0", b"S\x000")
    err = file_error(data)
    assert (err.rule, err.line, err.column) == ("encoding", 3, "play")


def test_a_field_over_the_limit_is_named_on_its_record_first_line():
    from tourney.records.sources import MAX_FIELD_CHARS

    long_line = as_text(",", [["1", "1", "1", "A;B", "AS " * (MAX_FIELD_CHARS // 3 + 10), ""]])
    err = file_error(long_line.encode())
    assert (err.rule, err.line, err.column) == ("csv", 2, "play")
    assert "the play field of the record on line 2" in str(err)
    over_lines = ("round,table,deal,players,play,scores\n1,1,1,A;B,S1,\n"
                  + '1,1,2,A;B,"' + "AS\n" * (MAX_FIELD_CHARS // 3 + 10) + '",\n')
    err = file_error(over_lines.encode())
    assert (err.rule, err.line, err.column) == ("csv", 3, "play")


def test_a_line_too_long_names_the_field_that_is():
    from tourney.records.sources import MAX_LINE_BYTES

    data = ("round,table,deal,players,play,scores\n"
            "1,1,1,A;B," + "AS " * (MAX_LINE_BYTES // 3 + 10) + ",\n").encode()
    err = file_error(data)
    assert (err.rule, err.line, err.column) == ("line-too-long", 2, "play")


def test_a_problem_of_the_header_names_no_column():
    err = file_error(b"round,table,deal,\xffplayers,play\n", encoding="utf-8")
    assert (err.rule, err.line, err.column) == ("encoding", 1, None)
