"""Reading tables as spreadsheets write them: every file tourney reads goes through here.

A *source* is a file (or ``-``, standard input, or a pipe) read exactly once,
streaming: its bytes are hashed and counted as they pass, so nothing is read twice
and an endless input is refused by the same bounds as a long line, in bounded
memory. What it yields is *rows*: the header, then each data row with the line it
starts on (CSV) or its row number (XLSX), as lists of text cells.

CSV as spreadsheets save it:

- the delimiter (``,``, ``;`` or tab) is told by the header: the one that splits it
  into known column names (else the most frequent one);
- the encoding: UTF-8 with or without a byte-order mark, UTF-16 with a BOM (Excel's
  "Unicode text"), or, when the bytes are not UTF-8, Windows-1252 with a notice
  (the decision is taken at the first byte that is not ASCII, so the file is still
  read once); ``encoding=`` forces one.

XLSX (a zip file, told by its first bytes, not its name): the first sheet or a named
one, through openpyxl in read-only mode; cells are text as a spreadsheet shows them.

Formula cells: a cell that a spreadsheet would run as a formula is never written by
tourney (see :func:`formula_safe`); on reading, the apostrophe it was given is taken
off again (:func:`restore_cell`), so values come back exactly.
"""
from __future__ import annotations

import codecs
import csv
import hashlib
import io
import os
import re
import sys
from typing import IO, Iterator, Sequence

from ..engines.presentation import N_, Message, then_words
from ..errors import InvalidValue, RecordError, Remedy, UnreadableFile, UsageError
from ..errors.words import quoted

# Bounds that keep hostile files cheap to refuse (hardening): no real record comes
# near them. A deal has at most 52 cards; the longest plausible play column (a long
# checkers game, a svarta-maja deal of many exchanges) is a few kB.
MAX_LINE_BYTES = 1 << 20
MAX_FIELD_CHARS = 1 << 16
MAX_RECORD_CHARS = MAX_LINE_BYTES  # one record, over all its lines
# An XLSX is unpacked by openpyxl; a workbook bigger than this (compressed, or any
# part of it uncompressed) is no score sheet or season file (a zip bomb is refused
# before it is inflated).
MAX_XLSX_BYTES = 256 << 20
MAX_XLSX_PART_BYTES = 1 << 30
MAX_XLSX_COLUMNS = 64
# openpyxl builds a whole row of a sheet (every cell, as a dict) before handing it
# over, and holds the workbook's whole shared-strings table: a row of a million cells
# took ~950 MB. A row past Excel's own width, or a strings table past this, is
# refused before openpyxl reads it (found by a streaming pass over the sheet).
MAX_XLSX_ROW_CELLS = 16_384
MAX_XLSX_STRINGS_BYTES = 64 << 20

READ_CHUNK = 1 << 16
DELIMITERS = (",", ";", "\t")
# The first characters that make a spreadsheet read a cell as a formula (OWASP's
# list: = + - @, and tab and carriage return, which some strip before looking).
FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")
class Notice(str):
    """What a user should know about how a file was read (it was read anyway),
    given as words (a :class:`~tourney.errors.words.Message`, kept as ``words`` for
    a page to say in its language): the notice is their English. ``setting`` names
    the option that would read it otherwise; the command line shows it as its flag.
    A ``str``, so notices compare and pickle as text."""

    setting: str | None
    words: Message | None

    def __new__(cls, words, setting: str | None = None) -> "Notice":
        notice = super().__new__(cls, str(words))
        notice.words = words if isinstance(words, Message) else None
        notice.setting = setting
        return notice


ENCODING_HINT = N_("save it as CSV UTF-8, or give its encoding (utf-8, utf-16, windows-1252 "
                    "or latin-1) if you know what it is")


def _with_encoding_hint(words: Message) -> Message:
    """An encoding problem and what to do about it (:data:`ENCODING_HINT`)."""
    return then_words(words, Message(ENCODING_HINT))

_UTF16_BOMS = (codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE)
_XLSX_MAGIC = b"PK\x03\x04"


# ------------------------------------------------------------------- formula cells

def formula_safe(text: str) -> str:
    """A cell's text as written to a file meant for spreadsheets.

    Text that would start a formula gets a leading apostrophe (``=1+2`` is written
    ``'=1+2``), and so does text that already starts with apostrophes before such a
    character, so :func:`restore_cell` gives every value back exactly.
    """
    if text.lstrip("'").startswith(FORMULA_STARTS):
        return "'" + text
    return text


def restore_cell(text: str) -> str:
    """The value of a cell written by :func:`formula_safe` (every other cell as is)."""
    if text.startswith("'") and text.lstrip("'").startswith(FORMULA_STARTS):
        return text[1:]
    return text


# ------------------------------------------------------------------- bytes, once

class _HashingRaw(io.RawIOBase):
    """A binary stream read through once: every byte hashed and counted."""

    def __init__(self, stream: IO[bytes], prefix: bytes = b""):
        self._stream = stream
        self._prefix = prefix  # already read (and hashed) while sniffing
        self.digest = hashlib.sha256(prefix)
        self.bytes_read = len(prefix)

    def readable(self) -> bool:
        return True

    def readinto(self, buffer) -> int:
        if self._prefix:
            count = min(len(buffer), len(self._prefix))
            buffer[:count] = self._prefix[:count]
            self._prefix = self._prefix[count:]
            return count
        read = getattr(self._stream, "read1", self._stream.read)
        data = read(len(buffer))
        if not data:
            return 0
        self.digest.update(data)
        self.bytes_read += len(data)
        buffer[:len(data)] = data
        return len(data)


class Source:
    """One input file read once. ``kind`` is ``"csv"`` or ``"xlsx"``.

    ``sha256`` and ``bytes_read`` grow as the rows are read; once :meth:`rows` is
    exhausted they cover the whole file. ``notices`` collects what a user should
    know about how the file was read (the encoding guessed).
    """

    def __init__(self, stream: IO[bytes], name: str, *, encoding: str | None = None,
                 sheet: str | None = None, owned: bool = True, line_offset: int = 0):
        self.name = name
        self.encoding = encoding
        self.sheet = sheet
        # Lines of the file left out after the first (a part of a file read with its
        # header line: tourney.records.parallel): added to every line number after 1.
        self.line_offset = line_offset
        self.notices: list[str] = []
        self._stream = stream
        self._owned = owned
        prefix = b""
        while len(prefix) < 4:  # a pipe may hand over fewer bytes than asked
            piece = stream.read(4 - len(prefix))
            if not piece:
                break
            prefix += piece
        self._raw = _HashingRaw(stream, prefix)
        self.kind = "xlsx" if prefix.startswith(_XLSX_MAGIC) else "csv"
        if sheet is not None and self.kind != "xlsx":
            raise UsageError(Message(N_("%(file)s: a sheet is for XLSX workbooks; this is a "
                                        "text file"), {"file": name}), setting="sheet")
        self.sheet_title: str | None = None
        self._columns: list[str] = []

    # -- what the reading left behind
    @property
    def sha256(self) -> str:
        return self._raw.digest.hexdigest()

    @property
    def bytes_read(self) -> int:
        return self._raw.bytes_read

    def close(self) -> None:
        if self._owned:
            self._stream.close()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    def drain(self) -> None:
        """Read what is left (a reader that stopped early), so :attr:`sha256` is the
        whole file's; bounded like everything else only by the file."""
        while self._raw.readinto(bytearray(READ_CHUNK)):
            pass

    # -- locating an error the way the file's kind says it
    def cell(self, line: int | None, column: str | None) -> str | None:
        """``Sheet!K7`` for an XLSX row and column name; None for a CSV."""
        if self.kind != "xlsx" or line is None:
            return None
        from openpyxl.utils import get_column_letter

        letter = ""
        if column is not None and column in self._columns:
            letter = get_column_letter(self._columns.index(column) + 1)
        return f"{self.sheet_title}!{letter or 'A'}{line}" if letter else f"{self.sheet_title}!{line}:{line}"

    def locate(self, err: RecordError) -> RecordError:
        """Fill ``err.cell`` for an XLSX source (``Round 1!K7``)."""
        cell = self.cell(err.line, err.column)
        if cell is not None:
            err.cell = cell
        return err

    # -- rows
    def rows(self, known: Sequence[str] = ()) -> "Rows":
        """The rows; ``known`` column names tell the delimiter of a CSV header."""
        if self.kind == "xlsx":
            return _XlsxRows(self)
        return _CsvRows(self, known)

    def set_columns(self, columns: Sequence[str]) -> None:
        self._columns = list(columns)


def open_source(path: str, *, encoding: str | None = None, sheet: str | None = None,
                stdin: IO[bytes] | None = None) -> Source:
    """Open ``path`` (``-``: standard input) as a :class:`Source`;
    :class:`UsageError` (exit 2) if it cannot be read."""
    if encoding is not None:
        try:
            encoding = codecs.lookup(encoding).name
        except LookupError:
            raise InvalidValue("encoding", quoted(encoding), Message(
                N_("an encoding Python knows (try %(examples)s)"),
                {"examples": "utf-8, utf-16, windows-1252, latin-1"})) from None
    if path == "-":
        stream = stdin if stdin is not None else sys.stdin.buffer
        return Source(stream, "<stdin>", encoding=encoding, sheet=sheet, owned=False)
    if os.path.isdir(path):
        raise UsageError(Message(N_("%(file)s: is a folder, not a file"), {"file": path}))
    try:
        stream = open(path, "rb")
    except OSError as err:
        raise UsageError(Message(N_("%(file)s: cannot read the file: %(reason)s"),
                                 {"file": path, "reason": err.strerror})) from None
    try:
        return Source(stream, path, encoding=encoding, sheet=sheet)
    except BaseException:
        stream.close()
        raise


# ------------------------------------------------------------------- text lines

def _encoding_error(source: Source, line: int, message: Message, before: str) -> RecordError:
    """``message``: the problem, said with :data:`ENCODING_HINT`; ``before``: the
    line's text before the bad byte (the reader names its column)."""
    err = UnreadableFile(_with_encoding_hint(message), rule="encoding", file=source.name, line=line, setting="encoding")
    err.text_before = before
    return err


def _line_too_long_words() -> Message:
    return Message(N_("line longer than %(most)s kB; not a table of records"),
                   {"most": MAX_LINE_BYTES // 1024})


def _line_too_long(source: Source, number: int, raw: bytes) -> None:
    err = UnreadableFile(_line_too_long_words(), rule="line-too-long", file=source.name,
                         line=number)
    err.text_before = raw.decode(source.encoding or "utf-8", errors="replace")
    raise err


def _check_nul(source: Source, number: int, text: str) -> str:
    if "\x00" in text:
        # No column holds a NUL, and PostgreSQL text cannot store one (a lookup with
        # it failed inside the driver): refused as not text (hardening).
        at = text.index(chr(0))
        raise _encoding_error(
            source, number, Message(N_("a NUL byte at character %(at)s; not a text file "
                                       "(UTF-16 without a byte-order mark?)"), {"at": at + 1}),
            text[:at])
    return text


def _eight_bit_lines(buffer: io.BufferedReader, source: Source) -> Iterator[str]:
    """UTF-8 (BOM dropped) unless told otherwise; Windows-1252 when the first
    non-ASCII line is not UTF-8."""
    forced = source.encoding
    encoding = forced or "utf-8"
    settled = forced is not None  # decided once a non-ASCII line was decoded
    guessed_at = 0  # the line whose bytes decided the encoding (not forced)
    other_at = 0  # read as Windows-1252: the last line that is not UTF-8
    readline = buffer.readline
    number = 0
    while True:  # each line's bytes, numbered, and bounded
        raw = readline(MAX_LINE_BYTES + 1)
        if not raw:
            return
        number += 1
        if number == 2:
            number += source.line_offset
        if len(raw) > MAX_LINE_BYTES and not raw.endswith(b"\n"):
            _line_too_long(source, number, raw)
        if number == 1 and raw.startswith(codecs.BOM_UTF8) and encoding in ("utf-8", "utf-8-sig"):
            raw = raw[3:]
            settled = True
        if not settled and not raw.isascii():
            try:
                raw.decode("utf-8")
                settled = True
                guessed_at = number  # the line that told UTF-8
            except UnicodeDecodeError:
                encoding, settled = "cp1252", True
                guessed_at = other_at = number  # the line that told Windows-1252
                source.notices.append(Notice(Message(N_("%(subject)s: %(problem)s"), {
                    "subject": source.name or Message(N_("the file")),
                    "problem": Message(N_("not UTF-8 (line %(line)s); read as Windows-1252; "
                                          "give the file's encoding if it is another"),
                                       {"line": number})}), setting="encoding"))
        elif (encoding == "cp1252" and forced is None and number != guessed_at
              and not raw.isascii()):
            # Windows-1252 text is next to never valid UTF-8 where it is not ASCII: a
            # line that is, in a file told Windows-1252 by an earlier line, is a part
            # in the other encoding (two files put together), whose names would all
            # read garbled. Only lines that are not ASCII are tried.
            try:
                raw.decode("utf-8")
            except UnicodeDecodeError:
                other_at = number  # the last line read as Windows-1252 for certain
            else:
                at = next(i for i, byte in enumerate(raw) if byte > 0x7f)
                raise _encoding_error(
                    source, number, Message(N_(
                        "this line is UTF-8 (character %(at)s on), but line %(other)s is not, "
                        "and the file is read as Windows-1252: two encodings in one file "
                        "(parts put together?), changing between line %(other)s and this "
                        "one"), {"at": at + 1, "other": other_at}),
                    raw[:at].decode("cp1252", "replace"))
        try:
            text = raw.decode(encoding)
        except UnicodeDecodeError as err:
            bad = {"byte": f"0x{raw[err.start]:02x}", "at": err.start + 1}
            if encoding == "cp1252" and forced is None:
                message = Message(N_("byte %(byte)s at character %(at)s is neither UTF-8 "
                                     "nor Windows-1252"), bad)
            elif forced is None:
                told = (Message(N_("line %(line)s is"), {"line": guessed_at}) if guessed_at
                        else Message(N_("the file begins with a UTF-8 byte-order mark")))
                message = Message(N_("not UTF-8: byte %(byte)s at character %(at)s, though "
                                     "earlier lines were UTF-8 (%(told)s): two encodings in "
                                     "one file (parts put together?), changing by this line"),
                                  {**bad, "told": told})
            else:
                message = Message(N_("not %(encoding)s: byte %(byte)s at character %(at)s"),
                                  {**bad, "encoding": forced})
            before = raw[:err.start].decode(encoding, errors="replace")
            raise _encoding_error(source, number, message, before) from None
        source.encoding = encoding
        if "\x00" in text:
            _check_nul(source, number, text)  # raises
        yield text


def _utf16_lines(buffer: io.BufferedReader, source: Source, encoding: str) -> Iterator[str]:
    """UTF-16 text (the BOM tells the byte order), decoded as it streams."""
    text_stream = io.TextIOWrapper(buffer, encoding=encoding, errors="strict", newline="")
    number = 0
    limit = MAX_LINE_BYTES // 2
    while True:
        try:
            text = text_stream.readline(limit + 1)
        except UnicodeDecodeError:
            raise _encoding_error(source, number + 1,
                                  Message(N_("not valid UTF-16 text")), "") from None
        if not text:
            return
        number += 1
        if len(text) > limit and not text.endswith("\n"):
            raise UnreadableFile(_line_too_long_words(), rule="line-too-long", file=source.name, line=number)
        if number == 1:
            text = text.lstrip("\ufeff")
        yield _check_nul(source, number, text)


def text_lines(source: Source) -> Iterator[str]:
    """A CSV source's lines as text (line ends kept, as the csv module wants them)."""
    buffer = io.BufferedReader(source._raw, READ_CHUNK)
    head = buffer.peek(2)[:2]
    encoding = source.encoding
    if encoding is None and head in _UTF16_BOMS:
        source.encoding = "utf-16"
        return _utf16_lines(buffer, source, "utf-16")
    if encoding is not None and encoding.startswith("utf-16"):
        return _utf16_lines(buffer, source, encoding)
    return _eight_bit_lines(buffer, source)


# ------------------------------------------------------------------- rows

class Rows:
    """Iterating gives ``(line, cells)`` for each non-blank data row; ``header`` is
    the first row's cells (read on first use); ``line`` is where the row being read
    began. Cells are text, formula apostrophes taken off."""

    header: list[str]


class _RecordLines:
    """The decoded lines, counting the characters of the record being read.

    A quoted field may span lines, so the line bound alone does not bound a
    record: a record of many quoted multi-line fields would be gathered whole by
    the csv module. A record growing past :data:`MAX_RECORD_CHARS` is refused.
    """

    def __init__(self, lines: Iterator[str], source: Source):
        self._lines = lines
        self.source = source
        self.line = 0
        self.record_line = 1
        self.record_chars = 0
        self.first: str | None = None
        self.delimiter = ","
        # The record being read, to name the column of an error in it: its last line
        # read, and its lines before that (only when a quoted field spans lines).
        self.last = ""
        self.earlier: list[str] = []

    def __iter__(self):
        return self

    def __next__(self) -> str:
        if self.first is not None:
            text, self.first = self.first, None
        else:
            if self.record_chars:  # the record goes on past its last line
                self.earlier.append(self.last)
            try:
                text = next(self._lines)
            except RecordError as err:  # a bad byte, a line too long: name the column
                self.locate(err, getattr(err, "text_before", ""), continued=True)
                raise
            self.line += 1
            if self.line == 2:
                self.line += self.source.line_offset
        self.last = text
        self.record_chars += len(text)
        if self.record_chars > MAX_RECORD_CHARS:
            err = UnreadableFile(
                Message(N_("a record longer than %(most)s kB (a quoted field left open?); not "
                           "a deal record"), {"most": MAX_RECORD_CHARS // 1024}),
                rule="record-too-large", file=self.source.name,
                line=self.record_line)
            self.locate(err)
            raise err
        return text

    def locate(self, err: RecordError, more: str = "", continued: bool = False) -> None:
        """Name the column of a problem in the record being read (only ever on an
        error): the field holding a bad byte (``more`` is its line up to the byte,
        the line after the last one read), or the first field over
        :data:`MAX_FIELD_CHARS`, whose record's first line ``err.line`` becomes."""
        columns = self.source._columns
        if not columns:
            return  # the header itself
        if continued:  # ``more`` is on the line after the last one read
            text = "".join(self.earlier) + more if self.record_chars else more
        else:
            text = "".join(self.earlier) + self.last
        fields = _field_lengths(text, self.delimiter)
        if err.rule == "encoding":
            index = len(fields) - 1
        else:
            index = next((i for i, n in enumerate(fields) if n > MAX_FIELD_CHARS), None)
            if index is None or index >= len(columns):
                return
            err.line = self.record_line
            err.words = Message(N_("%(problem)s (the %(column)s field of the record on line "
                                   "%(line)s is over %(most)s k characters)"),
                                {"problem": err.words or err.message, "column": columns[index],
                                 "line": self.record_line, "most": MAX_FIELD_CHARS // 1024})
            err.message = str(err.words)
        if index < len(columns):
            err.column = columns[index]

    def peek_first(self) -> str:
        if self.first is None and self.line == 0:
            self.first = next(self._lines, "")
            self.line = 1
        return self.first or ""

    def record_done(self) -> None:
        self.record_chars = 0
        if self.earlier:
            self.earlier = []
        self.record_line = self.line + 1
        if self.line == 1:
            self.record_line += self.source.line_offset


def _field_lengths(text: str, delimiter: str) -> list[int]:
    """The characters of each field of a record's text (or of its beginning),
    quote-aware: the last one is the field the text ends in."""
    lengths, start, quotes, quoted = [], 0, 0, False
    for match in re.finditer(f'["{re.escape(delimiter)}]', text):
        if match.group() == '"':
            quoted = not quoted
            quotes += 1
        elif not quoted:
            lengths.append(match.start() - start - quotes)
            start, quotes = match.end(), 0
    lengths.append(len(text.rstrip("\r\n")) - start - quotes)
    return lengths


def _split_unquoted(text: str, delimiter: str) -> list[str]:
    try:
        return next(csv.reader([text], delimiter=delimiter))
    except (csv.Error, StopIteration):
        return []


def sniff_delimiter(header: str, known: Sequence[str] = ()) -> str:
    """The delimiter a header line is written with: the one that splits it into the
    most known column names, then the most frequent; a comma when in doubt."""
    known_set = {k.lower() for k in known}

    def score(delimiter: str) -> tuple[int, int]:
        cells = _split_unquoted(header.rstrip("\r\n"), delimiter)
        hits = sum(1 for c in cells if c.strip().lower() in known_set)
        return hits, len(cells)

    best = max(DELIMITERS, key=lambda d: (score(d), d == ","))
    return best if score(best)[1] > 1 or not known_set else ","


_DELIMITER_NAMES = {",": N_("commas"), ";": N_("semicolons"), "\t": N_("tabs")}

# What Python's csv module says of a broken record, in words a page translates (the
# English is the module's); a message not here is shown as the module gives it.
_CSV_REASONS = {
    "unexpected end of data": N_("unexpected end of data"),
    "new-line character seen in unquoted field - do you need to open the file with "
    "newline=''?": N_("new-line character seen in unquoted field - do you need to open the "
                      "file with newline=''?"),
}
_CSV_EXPECTED = re.compile(r"'(.)' expected after '(.)'")
_CSV_FIELD_LIMIT = re.compile(r"field larger than field limit \((\d+)\)")


def csv_reason(err: Exception) -> str | Message:
    """The csv module's ``err`` as words (its English kept as the English)."""
    text = str(err)
    if text in _CSV_REASONS:
        return Message(_CSV_REASONS[text])
    limit = _CSV_FIELD_LIMIT.fullmatch(text)
    if limit:
        return Message(N_("field larger than field limit (%(most)s)"), {"most": int(limit.group(1))})
    expected = _CSV_EXPECTED.fullmatch(text)
    if expected:
        return Message(N_("%(expected)s expected after %(after)s"),
                       {"expected": quoted(expected.group(1)), "after": quoted(expected.group(2))})
    return text


def other_delimiter(delimiter: str, header: Sequence[str], text: str) -> str | None:
    """The delimiter a row's ``text`` is written with when it is not the header's
    ``delimiter``: the row has none of the header's outside quotes but another,
    one the header's cells do not hold; None otherwise (a row of the header's
    delimiter holds ';' in its players cell: that is no sign)."""
    outside = _unquoted(text)
    if delimiter in outside:
        return None
    for other in DELIMITERS:
        if other != delimiter and other in outside and not any(other in c for c in header):
            return other
    return None


def _unquoted(text: str) -> str:
    """The characters of a row's text outside quoted parts."""
    return "".join(text.split('"')[0::2])


class _CsvRows(Rows):
    def delimiter_hint(self, text: str | None = None) -> tuple[Message | None, Remedy | None]:
        """For a row that cannot be read (``text``: its text, by default the line
        read last): when it is separated by another delimiter than the header,
        what to add to its message and the remedy that helps (a score sheet as a
        workbook), else ``(None, None)``. A comma CSV opened in a spreadsheet whose
        list separator is ';' (Excel in a Nordic language) is one column there;
        saved again, its rows are ';'-separated under a header that still has
        commas."""
        if text is None:
            text = self._lines.last
        other = other_delimiter(self.delimiter, self.header or (), text)
        if other is None:
            return None, None
        return (Message(N_("the header is separated by %(header)s but this row by %(row)s: a "
                           "spreadsheet that separates by %(row)s (Excel in a Nordic language, "
                           "say) opened it and saved it again; save it as CSV with one "
                           "separator, or fill in the score sheet as XLSX, which keeps its "
                           "columns in every spreadsheet"),
                        {"header": Message(_DELIMITER_NAMES[self.delimiter]),
                         "row": Message(_DELIMITER_NAMES[other])}),
                Remedy("score-sheet"))

    def __init__(self, source: Source, known: Sequence[str]):
        self.source = source
        self._lines = _RecordLines(text_lines(source), source)
        self.delimiter = self._lines.delimiter = sniff_delimiter(self._lines.peek_first(), known)
        csv.field_size_limit(MAX_FIELD_CHARS)
        self._reader = csv.reader(self._lines, delimiter=self.delimiter, strict=True)
        self.header: list[str] | None = None
        self._saved_width = 0  # the header's fields, empty trailing ones included
        self.line = 1
        self.raw: list[str] = []

    def read_header(self) -> list[str] | None:
        try:
            header = next(self._reader, None)
        except csv.Error as err:
            raise UnreadableFile(Message(N_("the header is not valid CSV: %(reason)s"),
                                         {"reason": csv_reason(err)}), rule="csv",
                              file=self.source.name, line=1) from None
        self._lines.record_done()
        if header is not None:
            # A spreadsheet's trailing empty columns (`...;scores;;`) are not columns:
            # dropped, as from a workbook's first row; so are a row's empty cells
            # under them. A value under one is an error of its row (more fields than
            # the header has).
            self._saved_width = len(header)
            while len(header) > 1 and not header[-1].strip():
                header.pop()
        self.header = [restore_cell(c) for c in header] if header is not None else None
        return self.header

    def __iter__(self) -> Iterator[tuple[int, list[str]]]:
        if self.header is None:
            self.read_header()
        reader, lines = self._reader, self._lines
        width = len(self.header or ())
        saved_width = max(width, self._saved_width)  # with the empty ones
        end_line = lines.line  # the lines read so far (csv's line_num, plus line_offset)
        while True:
            start_line = end_line + 1
            try:
                row = next(reader)
            except StopIteration:
                return
            except csv.Error as err:
                # the line the broken record begins on, as for every record error
                hint, remedy = self.delimiter_hint("".join(lines.earlier) + lines.last)
                words = Message(N_("not valid CSV: %(reason)s"), {"reason": csv_reason(err)})
                if hint:
                    words = then_words(words, hint)
                problem = UnreadableFile(words, rule="csv",
                                      file=self.source.name, line=lines.record_line,
                                      remedy=remedy)
                lines.locate(problem)  # a field over the limit: its column
                raise problem from None
            end_line = lines.line
            # lines.record_done(), without a call per row
            lines.record_chars = 0
            if lines.earlier:
                lines.earlier = []
            lines.record_line = end_line + 1
            if end_line == 1:
                lines.record_line += lines.source.line_offset
            if not row:
                continue  # blank lines are ignored
            if not row[0] or row[0].isspace():  # most rows start with a value: one test
                for cell in row:  # else the first cell with a value is near
                    if cell and not cell.isspace():
                        break
                else:
                    continue  # and so are rows of delimiters only (;;;;;;)
            if width < len(row) <= saved_width and not any(
                    c and not c.isspace() for c in row[width:]):
                del row[width:]  # the empty cells of the trailing columns without a name
            # A record spanning lines starts after the blank lines csv skipped.
            if end_line - start_line:
                start_line = end_line - sum(f.count("\n") for f in row)
            self.line = start_line
            self.raw = row
            # a formula apostrophe can only be where the record has an apostrophe
            yield start_line, ([restore_cell(c) for c in row] if "'" in "".join(row) else row)


def _xlsx_text(value) -> str:
    """A cell's value as the text a spreadsheet shows for it."""
    if value is None:
        return ""
    if isinstance(value, bool):
        return "TRUE" if value else "FALSE"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, float):
        if value.is_integer() and abs(value) < 1e15:
            return str(int(value))
        return repr(value)
    if hasattr(value, "isoformat"):
        return value.isoformat()
    return str(value)


def _check_row_widths(archive, path: str, source: Source) -> None:
    """Refuse a sheet with a row of more than :data:`MAX_XLSX_ROW_CELLS` cells, found
    by streaming its XML (nothing kept but a count) before openpyxl opens the
    workbook (which takes hundreds of MB for such a row before any is read)."""
    from xml.etree.ElementTree import ParseError, iterparse

    sheet = path.rpartition("/")[2].removesuffix(".xml")
    cells = 0
    row = 0
    rows_parent = None
    try:
        with archive.open(path) as stream:
            for event, element in iterparse(stream, events=("start", "end")):
                tag = element.tag.rpartition("}")[2]
                if event == "start":
                    if tag == "row":
                        number = element.get("r")
                        row = int(number) if number and number.isdigit() else row + 1
                        cells = 0
                    elif tag == "sheetData":
                        rows_parent = element
                    continue
                if tag == "c":
                    cells += 1
                    if cells > MAX_XLSX_ROW_CELLS:
                        raise UnreadableFile(
                            Message(N_("row %(row)s of the workbook's %(sheet)s has more than "
                                       "%(most)s cells; not a table of records"),
                                    {"row": row, "sheet": sheet,
                                     "most": MAX_XLSX_ROW_CELLS}),
                            rule="too-large", file=source.name, line=row)
                    element.clear()
                elif tag == "row" and rows_parent is not None:
                    rows_parent.remove(element)  # nothing of a row is kept
    except ParseError:
        raise UnreadableFile(Message(N_("not a readable XLSX workbook (a damaged sheet); save it "
                                        "again from the spreadsheet, as .xlsx or CSV UTF-8")),
                             rule="xlsx",
                             file=source.name) from None


class _XlsxRows(Rows):
    def __init__(self, source: Source):
        self.source = source
        self.header = None
        self.line = 1
        self.raw: list[str] = []
        self._sheet = self._open(source)

    def _open(self, source: Source):
        import tempfile
        import zipfile

        # A zip is read from its end: the stream (a pipe too) is copied to a
        # temporary file first, hashed as it goes, and bounded.
        spool = tempfile.TemporaryFile()
        self._spool = spool
        copied = 0
        while True:
            chunk = source._raw.read(READ_CHUNK)
            if not chunk:
                break
            copied += len(chunk)
            if copied > MAX_XLSX_BYTES:
                raise UnreadableFile(Message(N_("a workbook larger than %(most)s MB; not a "
                                                "table of records"),
                                             {"most": MAX_XLSX_BYTES >> 20}), rule="too-large", file=source.name)
            spool.write(chunk)
        spool.seek(0)
        try:
            with zipfile.ZipFile(spool) as archive:
                for info in archive.infolist():
                    if info.file_size > MAX_XLSX_PART_BYTES:
                        raise UnreadableFile(
                            Message(N_("a part of the workbook unpacks to more than %(most)s "
                                       "MB; not a table of records"),
                                    {"most": MAX_XLSX_PART_BYTES >> 20}),
                            rule="too-large", file=source.name)
                    if (info.filename.lower().endswith("sharedstrings.xml")
                            and info.file_size > MAX_XLSX_STRINGS_BYTES):
                        raise UnreadableFile(
                            Message(N_("the workbook's text cells take more than %(most)s MB; "
                                       "not a table of records"),
                                    {"most": MAX_XLSX_STRINGS_BYTES >> 20}),
                            rule="too-large", file=source.name)
        except zipfile.BadZipFile:
            raise UnreadableFile(Message(N_("not a readable XLSX workbook (a damaged zip file)")),
                              rule="xlsx", file=source.name) from None
        spool.seek(0)
        with zipfile.ZipFile(spool) as archive:
            for info in archive.infolist():
                if info.filename.startswith("xl/worksheets/") and info.filename.endswith(".xml"):
                    _check_row_widths(archive, info.filename, source)
        spool.seek(0)
        try:
            from openpyxl import load_workbook

            workbook = load_workbook(spool, read_only=True, data_only=True)
        except Exception as err:  # openpyxl raises many kinds for a damaged file
            raise UnreadableFile(Message(N_("not a readable XLSX workbook (%(kind)s); save it "
                                            "again from the spreadsheet, as .xlsx or CSV "
                                            "UTF-8"), {"kind": type(err).__name__}),
                              rule="xlsx", file=source.name) from None
        self._workbook = workbook
        names = workbook.sheetnames
        if source.sheet is not None:
            if source.sheet not in names:
                raise UsageError(Message(N_("%(file)s: no sheet %(sheet)s; its sheets: "
                                            "%(sheets)s"),
                                         {"file": source.name, "sheet": quoted(source.sheet),
                                          "sheets": [quoted(n) for n in names]}))
            title = source.sheet
        else:
            if not names:
                raise UnreadableFile(Message(N_("the workbook has no sheet")), rule="xlsx",
                                     file=source.name)
            title = names[0]
        source.sheet_title = title
        return workbook[title]

    def read_header(self) -> list[str] | None:
        # max_col: a sheet's declared size (its dimension) pads every row to it
        self._rows = self._sheet.iter_rows(values_only=True, max_col=MAX_XLSX_COLUMNS + 1)
        first = next(self._rows, None)
        if first is None:
            self.header = None
            return None
        cells = [_xlsx_text(v) for v in first[:MAX_XLSX_COLUMNS + 1]]
        while cells and not cells[-1].strip():
            cells.pop()
        self.header = cells
        return cells

    def __iter__(self) -> Iterator[tuple[int, list[str]]]:
        if self.header is None:
            self.read_header()
        width = len(self.header or [])
        number = 1
        try:
            for values in self._rows:
                number += 1
                cells = [_xlsx_text(v) for v in values[:max(width, MAX_XLSX_COLUMNS) + 1]]
                while len(cells) > width and not cells[-1].strip():
                    cells.pop()
                if not any(c.strip() for c in cells):
                    continue
                if len(cells) < width:
                    cells += [""] * (width - len(cells))
                for index, cell in enumerate(cells):
                    if len(cell) > MAX_FIELD_CHARS:
                        raise UnreadableFile(Message(N_("a cell of more than %(most)s k "
                                                        "characters; not a record"),
                                                     {"most": MAX_FIELD_CHARS // 1024}),
                                             rule="csv",
                                          file=self.source.name, line=number)
                self.line = number
                self.raw = cells
                yield number, cells
        finally:
            self._workbook.close()
            self._spool.close()


def read_all(source: Source) -> bytes:
    """Every byte of a source (for a copy); hashed like any read."""
    import shutil

    out = io.BytesIO()
    shutil.copyfileobj(io.BufferedReader(source._raw, READ_CHUNK), out)
    return out.getvalue()


__all__ = [
    "DELIMITERS", "FORMULA_STARTS", "MAX_FIELD_CHARS", "MAX_LINE_BYTES", "MAX_RECORD_CHARS",
    "Rows", "Source", "formula_safe", "open_source", "restore_cell", "sniff_delimiter",
    "text_lines",
]
