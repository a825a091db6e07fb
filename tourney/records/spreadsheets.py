"""Writing tables for spreadsheets: CSV as Excel and LibreOffice open it, and XLSX.

Every table tourney writes for people to open (exports, standings, player lists,
score sheets, rejects files) goes through :func:`open_table`:

- CSV is comma-separated UTF-8; a file gets a byte-order mark (without it a
  spreadsheet guesses the locale's 8-bit encoding and mangles every name with an
  accent), standard output does not (a pipe into another tool wants none);
- XLSX is written by openpyxl, a frozen header row, readable widths;
- in both, a text cell that a spreadsheet would run as a formula gets a leading
  apostrophe (:func:`~tourney.records.sources.formula_safe`); the readers take it
  off again, so an exported file imports back exactly. Numbers are numbers.

``-`` (or no path) is standard output; a file is written to a temporary file and
renamed into place (:func:`tourney.files.atomic_write`).
"""
from __future__ import annotations

import csv
import os
import re
import sys
from contextlib import contextmanager
from decimal import Decimal
from typing import IO, Callable, Iterator, Sequence

from ..errors import UsageError
from ..errors.words import N_, Message, quoted
from ..numbers import fixed_text
from ..terminal import terminal_text
from .sources import formula_safe

FORMATS = ("csv", "xlsx")
# Text tables and their delimiters: CSV, and TSV (`--tsv`, as sqlite-utils has it;
# written only when asked for, never told by a file's extension)
DELIMITERS = {"csv": ",", "tsv": "\t"}
# What a table writes as a number (a Decimal keeps the digits it was shown with:
# "1.50", not 1.5), never given a formula apostrophe ("-3" is a number, not a formula)
NUMBER_TYPES = (int, float, Decimal)
BOM = "\ufeff"
# Excel's limits on a sheet title: 31 characters, none of []:*?/\
_TITLE_BAD = re.compile(r"[\[\]:*?/\\]")


def table_format(path: str | None, given: str | None = None, *,
                 choosable: bool = True) -> str:
    """The format asked for, else told by the file's extension (``.xlsx``), else CSV.

    Any other extension (``.ods``, ``.xls``, ``.tsv``, ``.txt``...) is refused rather
    than silently given CSV bytes under a name that promises something else (a
    ``.txt`` the terminal's table); a name without one gets CSV. ``choosable``:
    the caller lets the format be given (else the refusal names the extensions only).
    """
    if given:
        return given.lower()
    if not path or path == "-":
        return "csv"
    extension = os.path.splitext(path)[1].lower()
    if extension == ".xlsx":
        return "xlsx"
    if extension in ("", ".csv"):
        return "csv"
    said = {"file": path, "extension": extension}
    if not choosable:
        raise UsageError(Message(N_("%(file)s: tourney writes .csv and .xlsx files, not "
                                    "%(extension)s; name the file .csv or .xlsx"), said))
    raise UsageError(Message(N_("%(file)s: tourney writes .csv and .xlsx files, not "
                                "%(extension)s; name the file .csv or .xlsx, or give the "
                                "format"), said), setting="format")


def sheet_title(text: str) -> str:
    return (_TITLE_BAD.sub(" ", text).strip() or "Sheet")[:31]


# Record columns a spreadsheet types as numbers (as `round sheet` and `result
# export` write them, and a rejects file gives them back).
NUMBER_COLUMNS = ("round", "table", "deal")


def typed_cell(column: str, value):
    """A record cell as a workbook holds it: a whole number in a number column is
    an int, spaces around it or not (as the reader takes it: a CSV typed by hand
    has ``ev; 1; 2``); a label such as "01" or "A" stays text, and so does
    anything else."""
    if column in NUMBER_COLUMNS and isinstance(value, str):
        digits = value.strip()
        # ASCII digits only: "²" and "٣" are digits to isdigit(), and no number here
        if digits.isascii() and digits.isdigit() and str(int(digits)) == digits:
            return int(digits)
    return value


def _cell_text(value) -> str:
    return "" if value is None else formula_safe(str(value))


def _terminal_cell_text(value) -> str:
    return terminal_text(_cell_text(value), keep_newlines=False)


class CsvTable:
    """Rows to a text stream as CSV for spreadsheets (``delimiter`` a tab: TSV).
    ``terminal``: the stream is a terminal a person reads, so each text cell's
    control and invisible format characters are shown as escapes
    (:func:`tourney.terminal.terminal_text`), as every table printed there has
    them; a file or a pipe gets the cells' exact text."""

    format = "csv"

    def __init__(self, stream: IO[str], columns: Sequence[str] | None, *, bom: bool = True,
                 decimals: Sequence[int | None] | None = None, choosable: bool = True,
                 delimiter: str = ",", terminal: bool = False):
        if bom:
            stream.write(BOM)
        self._writer = csv.writer(stream, delimiter=delimiter, lineterminator="\n")
        self._decimals = decimals
        self._text = _terminal_cell_text if terminal else _cell_text
        if columns is not None:
            self._writer.writerow([self._text(c) for c in columns])

    def write(self, row: Sequence) -> None:
        places = self._decimals or ()
        self._writer.writerow([
            (fixed_text(v, places[i]) if i < len(places) and places[i] is not None else v)
            if isinstance(v, NUMBER_TYPES) and not isinstance(v, bool)
            else self._text(v) for i, v in enumerate(row)])

    def close(self) -> None:
        pass


class XlsxTable:
    """Rows to an XLSX workbook of one sheet, streamed (openpyxl's write-only mode)."""

    format = "xlsx"

    def __init__(self, stream: IO[bytes], columns: Sequence[str] | None, *, title: str = "Sheet",
                 widths: Sequence[int] | None = None,
                 decimals: Sequence[int | None] | None = None, choosable: bool = True):
        from openpyxl import Workbook
        from openpyxl.cell import WriteOnlyCell
        from openpyxl.styles import Font
        from openpyxl.utils import get_column_letter

        self._stream = stream
        self._cell = WriteOnlyCell
        # a number column's format: its decimals shown alike in every row ("0.00")
        self._formats = [None if d is None else "0" + ("." + "0" * d if d else "")
                         for d in (decimals or ())]
        self._workbook = Workbook(write_only=True)
        self._sheet = sheet = self._workbook.create_sheet(sheet_title(title))
        sheet.freeze_panes = "A2"
        if columns is None:  # the caller writes the header as the first row
            return
        for index, name in enumerate(columns):
            width = widths[index] if widths else max(10, len(name) + 2)
            sheet.column_dimensions[get_column_letter(index + 1)].width = width
        bold = Font(bold=True)
        header = []
        for name in columns:
            cell = WriteOnlyCell(sheet, _cell_text(name))
            cell.font = bold
            header.append(cell)
        sheet.append(header)

    def write(self, row: Sequence) -> None:
        cells = []
        for index, v in enumerate(row):
            if isinstance(v, NUMBER_TYPES) and not isinstance(v, bool):
                number_format = (self._formats[index] if index < len(self._formats)
                                 else None)
                if number_format is not None:
                    v = self._cell(self._sheet, v)
                    v.number_format = number_format
                cells.append(v)
            else:
                cells.append(None if v in (None, "") else _cell_text(v))
        self._sheet.append(cells)

    def close(self) -> None:
        self._workbook.save(self._stream)


@contextmanager
def output_stream(path: str | None, binary: bool = False) -> Iterator[IO]:
    """A stream for ``path``: standard output for ``-`` or None, else an atomic file."""
    from ..files import atomic_write

    if path is None or path == "-":
        if binary:
            if sys.stdout.isatty():
                raise UsageError(Message(N_("an XLSX workbook is binary: give a FILE.xlsx to "
                                            "write or redirect standard output to a file")),
                                 setting="out")
            sys.stdout.flush()
            yield sys.stdout.buffer
            sys.stdout.buffer.flush()
        else:
            yield sys.stdout
            sys.stdout.flush()
        return
    with atomic_write(path, "wb" if binary else "w") as stream:
        yield stream


@contextmanager
def open_table(path: str | None, columns: Sequence[str] | None, *, format: str | None = None,
               title: str = "Sheet", widths: Sequence[int] | None = None,
               decimals: Sequence[int | None] | None = None, choosable: bool = True):
    """A table writer (``write(row)``) to ``path`` (``-``/None: standard output) in
    ``format`` (else told by the extension); the file appears complete or not at all.
    ``decimals``: per column, the decimals its numbers are shown with (None: as
    they are), written so in a CSV file and as the cells' number format in XLSX
    (the values stay numbers); ``choosable`` as :func:`table_format`'s."""
    kind = table_format(path, format, choosable=choosable)
    if kind not in (*FORMATS, *DELIMITERS):
        raise UsageError(Message(N_("unknown format %(format)s (formats: %(formats)s)"),
                                 {"format": quoted(kind), "formats": list(FORMATS)}))
    with output_stream(path, binary=kind == "xlsx") as stream:
        to_file = path is not None and path != "-"
        table = (XlsxTable(stream, columns, title=title, widths=widths, decimals=decimals)
                 if kind == "xlsx" else CsvTable(stream, columns, bom=to_file,
                                                 decimals=decimals,
                                                 delimiter=DELIMITERS[kind],
                                                 terminal=not to_file and stream.isatty()))
        yield table
        table.close()


__all__ = ["DELIMITERS", "FORMATS", "NUMBER_TYPES", "CsvTable", "XlsxTable", "open_table",
           "output_stream", "sheet_title", "table_format"]


# ------------------------------------------------------------------- score sheets

# The columns of an XLSX score sheet, in the order a scorer reads them; play is
# required by the record format and left empty (hidden, not printed).
SHEET_COLUMNS = ("event", "variant", "round", "table", "deal", "players", "dealer",
                 "scores", "play")
_SHEET_WIDTHS = {"event": 12, "variant": 12, "round": 7, "table": 7, "deal": 6,
                 "players": 44, "dealer": 16, "scores": 26, "play": 6}


# What the score sheet's checks say to the scorer (their titles are the columns'
# names, as the header has them): words, said in the event's language by the caller
# (write_score_sheet_xlsx's ``say``)
DEALER_ERROR = N_("The dealer is one of the table's players.")
# The score sheet's tab and the heading printed on each page, said in the event's
# language as its checks are (tourney.records.spreadsheets.write_score_sheet_xlsx)
SHEET_TAB = N_("Round %(n)s")
SHEET_HEADING = N_("%(event)s: round %(n)s")
SCORES_ERROR = N_("One score per seat, %(count)s in all, separated by ';' in the order of "
                  "the players column.")
SCORES_PROMPT = N_("%(count)s scores, seat 1 first, separated by ';'")


def score_sheet_words(event: str, number: int) -> tuple[Message, Message]:
    """The tab and the page heading of round ``number``'s score sheet of the event
    named ``event``, as words a caller says in the event's language."""
    return (Message(SHEET_TAB, {"n": number}),
            Message(SHEET_HEADING, {"event": event, "n": number}))


def write_score_sheet_xlsx(stream: IO[bytes], records, *, title: str, heading: str,
                           say: Callable[[Message], str] = str) -> None:
    """A score sheet a club prints on A4 and fills on a laptop.

    One row per deal with the key columns filled in (``records``: score-sheet
    :class:`~tourney.records.csv_format.DealRecord` rows, a table's rows together);
    the header frozen and printed on every page; ``scores`` a text column (a typed
    ``-10;5`` stays text) checked to hold one score per seat; ``dealer`` offered
    from the table's players. ``heading`` is printed at the top of each page.
    ``say`` words the checks' messages to the scorer (the event's language; by
    default English).
    """
    from openpyxl import Workbook
    from openpyxl.styles import Alignment, Border, Font, PatternFill, Side
    from openpyxl.utils import get_column_letter, quote_sheetname
    from openpyxl.worksheet.datavalidation import DataValidation

    workbook = Workbook()
    sheet = workbook.active
    sheet.title = sheet_title(title)
    lists = workbook.create_sheet("players")
    lists.sheet_state = "hidden"  # the dealer choices, one row per table

    letter = {name: get_column_letter(i + 1) for i, name in enumerate(SHEET_COLUMNS)}
    bold = Font(bold=True)
    for index, name in enumerate(SHEET_COLUMNS, 1):
        cell = sheet.cell(row=1, column=index, value=name)
        cell.font = bold
        cell.fill = PatternFill("solid", fgColor="DDDDDD")
        sheet.column_dimensions[get_column_letter(index)].width = _SHEET_WIDTHS[name]
    sheet.column_dimensions[letter["play"]].hidden = True
    sheet.freeze_panes = "A2"

    fill = PatternFill("solid", fgColor="FFF7D6")  # the cells to fill in
    rule = Border(top=Side(style="thin"))
    tables: list[tuple[int, int, list[str]]] = []  # first row, last row, players
    row = 1
    for record in records:
        row += 1
        values = {"event": record.event or "", "variant": record.variant or "",
                  "round": record.round, "table": record.table, "deal": record.deal,
                  "players": ";".join(record.players), "dealer": record.dealer or "",
                  "scores": None, "play": None}
        for index, name in enumerate(SHEET_COLUMNS, 1):
            value = values[name]
            if isinstance(value, str):
                value = formula_safe(value) or None
            cell = sheet.cell(row=row, column=index, value=value)
            if name == "table" and isinstance(value, str) and value.isdigit():
                cell.value = int(value)  # a number, as a spreadsheet would take it
        sheet[f"{letter['scores']}{row}"].number_format = "@"
        sheet[f"{letter['scores']}{row}"].fill = fill
        if not record.dealer:
            sheet[f"{letter['dealer']}{row}"].fill = fill
        if tables and tables[-1][2] == record.players and record.deal != 1:
            first, _, players = tables[-1]
            tables[-1] = (first, row, players)
        elif tables and record.deal != 1 and sorted(tables[-1][2]) == sorted(record.players):
            first, _, players = tables[-1]  # colours alternate: the same players
            tables[-1] = (first, row, players)
        else:
            tables.append((row, row, list(record.players)))
            for index in range(1, len(SHEET_COLUMNS) + 1):
                sheet.cell(row=row, column=index).border = rule

    for number, (first, last, players) in enumerate(tables, 1):
        for column, name in enumerate(players, 1):
            lists.cell(row=number, column=column, value=formula_safe(name))
        end = get_column_letter(len(players))
        dealer = DataValidation(
            type="list", allow_blank=True,
            formula1=f"{quote_sheetname(lists.title)}!$A${number}:${end}${number}",
            showErrorMessage=True, errorTitle="dealer", error=say(Message(DEALER_ERROR)))
        dealer.add(f"{letter['dealer']}{first}:{letter['dealer']}{last}")
        sheet.add_data_validation(dealer)
        top = f"{letter['scores']}{first}"
        scores = DataValidation(
            type="custom", allow_blank=True,
            formula1=f'OR({top}="",LEN({top})-LEN(SUBSTITUTE({top},";",""))={len(players) - 1})',
            showErrorMessage=True, showInputMessage=True, errorTitle="scores",
            error=say(Message(SCORES_ERROR, {"count": len(players)})),
            promptTitle="scores", prompt=say(Message(SCORES_PROMPT, {"count": len(players)})))
        scores.add(f"{top}:{letter['scores']}{last}")
        sheet.add_data_validation(scores)

    for cells in sheet.iter_rows(min_row=2, max_row=row):
        for cell in cells:
            cell.alignment = Alignment(vertical="center")
    sheet.print_title_rows = "1:1"
    sheet.print_area = f"A1:{letter['scores']}{max(row, 1)}"
    sheet.page_setup.paperSize = sheet.PAPERSIZE_A4
    sheet.page_setup.orientation = "landscape"
    sheet.page_setup.fitToWidth = 1
    sheet.page_setup.fitToHeight = 0
    sheet.sheet_properties.pageSetUpPr.fitToPage = True
    sheet.print_options.gridLines = True
    sheet.oddHeader.center.text = heading.replace("&", "&&")
    sheet.oddFooter.right.text = "&P / &N"
    workbook.save(stream)
