"""Reading and writing the deal-record CSV (``shared/FORMAT.md``).

The reader streams: it yields one :class:`DealRecord` per data row and never holds
the file. It tracks physical line numbers (the header is line 1; a quoted field may
span lines, and a record's line is the line it starts on), decodes UTF-8 line by
line so a bad byte is reported where it is, and refuses oversized input in bounded
time and memory.

Cards are parsed to ints here (so every later layer gets canonical cards); moves stay
tokens, because their notation belongs to the engine of the row's variant.
"""
from __future__ import annotations

import csv
import io
from dataclasses import dataclass
from typing import IO, Iterable, Iterator, Sequence

from ..cards import CARD_NAMES, parse_card

_CANONICAL = {name: card for card, name in enumerate(CARD_NAMES)}
from ..engines.base import DealSetup
from ..errors import CardError, RecordError, TourneyError, UsageError

COLUMNS = (
    "event", "variant", "round", "table", "deal", "players", "dealer",
    "hands", "stock", "passes", "play", "scores",
)
REQUIRED = ("round", "table", "deal", "players", "play")

# Bounds that keep hostile files cheap to refuse (hardening): no real record comes
# near them. A deal has at most 52 cards; the longest plausible play column (a long
# checkers game, a svarta-maja deal of many exchanges) is a few kB.
MAX_LINE_BYTES = 1 << 20
MAX_FIELD_CHARS = 1 << 16
MAX_TOKENS = 5000
MAX_RECORD_CHARS = MAX_LINE_BYTES  # one record, over all its lines
# The longest real move token is a svarta-maja exchange of 13 cards spelt "10♠"
# (about 105 characters); a longer one is not a move, and refusing it here keeps
# error messages short and the engines' parsers away from pathological text.
MAX_TOKEN_CHARS = 200
MAX_PLAYERS = 16
# Round and deal numbers: no event has more rounds, no match more deals, and the
# bound keeps them inside every backend's INTEGER (a round of 2**31 made the
# PostgreSQL lookup fail, 2**63 the SQLite one).
MAX_NUMBER = 1_000_000


class HeaderError(RecordError, UsageError):
    """The header names a column FORMAT.md does not know, or lacks a required one:
    the file is not a record file (a usage error), located like a record error."""


@dataclass(slots=True)
class DealRecord:
    """One row of the file: one deal of one match."""

    line: int
    event: str | None
    variant: str | None
    round: int
    table: str
    deal: int
    players: list[str]
    dealer: str | None = None
    hands: list[list[int]] | None = None
    secrets: list[list[int]] | None = None
    stock: list[int] | None = None
    passes: list[list[int]] | None = None
    play: list[str] | None = None
    scores: list[str] | None = None

    @property
    def match_key(self) -> tuple[str | None, int, str]:
        return (self.event, self.round, self.table)

    @property
    def is_score_sheet(self) -> bool:
        return not self.play and self.scores is not None

    def dealer_seat(self) -> int | None:
        return None if self.dealer is None else self.players.index(self.dealer)

    def setup(self) -> DealSetup:
        return DealSetup(
            nplayers=len(self.players),
            dealer=self.dealer_seat(),
            hands=self.hands,
            secrets=self.secrets,
            stock=self.stock,
            passes=self.passes,
            deal_number=self.deal,
        )


# ------------------------------------------------------------------------- reading

def _decoded_lines(stream: IO[bytes], filename: str | None) -> Iterator[str]:
    """Lines of a binary stream as text; strict UTF-8, BOM dropped, bounded length."""
    number = 0
    while True:
        raw = stream.readline(MAX_LINE_BYTES + 1)
        if not raw:
            return
        number += 1
        if len(raw) > MAX_LINE_BYTES and not raw.endswith(b"\n"):
            raise RecordError(
                f"line longer than {MAX_LINE_BYTES // 1024} kB; not a deal record",
                rule="line-too-long", file=filename, line=number,
            )
        if number == 1 and raw.startswith(b"\xef\xbb\xbf"):
            raw = raw[3:]
        try:
            text = raw.decode("utf-8")
        except UnicodeDecodeError as err:
            raise RecordError(
                f"not UTF-8: byte 0x{raw[err.start]:02x} at character {err.start + 1}; "
                "save the file as UTF-8",
                rule="encoding", file=filename, line=number,
            ) from None
        if "\x00" in text:
            # No column holds a NUL, and PostgreSQL text cannot store one (a lookup
            # with it failed inside the driver): refused as not text (hardening).
            raise RecordError(
                f"a NUL byte at character {text.index(chr(0)) + 1}; not a text file "
                "(UTF-16? save the file as UTF-8)",
                rule="encoding", file=filename, line=number,
            )
        yield text


class _RecordLines:
    """The decoded lines, counting the characters of the record being read.

    A quoted field may span lines, so the line bound alone does not bound a
    record: a record of many quoted multi-line fields would be gathered whole by
    the csv module. The reader calls :meth:`record_done` after each record; a
    record growing past :data:`MAX_RECORD_CHARS` is refused (hardening).
    """

    def __init__(self, stream: IO[bytes], filename: str | None):
        self._lines = _decoded_lines(stream, filename)
        self.filename = filename
        self.line = 0
        self.record_line = 1
        self.record_chars = 0

    def __iter__(self):
        return self

    def __next__(self) -> str:
        text = next(self._lines)
        self.line += 1
        self.record_chars += len(text)
        if self.record_chars > MAX_RECORD_CHARS:
            raise RecordError(
                f"a record longer than {MAX_RECORD_CHARS // 1024} kB (a quoted field left "
                "open?); not a deal record", rule="record-too-large", file=self.filename,
                line=self.record_line)
        return text

    def record_done(self) -> None:
        self.record_chars = 0
        self.record_line = self.line + 1


def _split_seats(text: str, nplayers: int, column: str) -> list[str]:
    parts = text.split(";")
    if len(parts) != nplayers:
        raise RecordError(
            f"{len(parts)} seats given for {nplayers} players (seats are separated by ';')",
            rule="seat-count", column=column,
        )
    return parts


def _cards(text: str, column: str, seat: int | None = None) -> list[int]:
    tokens = text.split()
    try:  # the hot path: every card in its canonical spelling
        return [_CANONICAL[t] for t in tokens]
    except KeyError:
        pass
    out = []
    for token in tokens:
        try:
            out.append(parse_card(token))
        except CardError:
            where = f" (seat {seat})" if seat is not None else ""
            raise RecordError(
                f"not a card: {token!r}{where}; cards are rank then suit, e.g. QS, TH, 10H, 2♣",
                rule="card", column=column, token=token,
            ) from None
    return out


def _positive_int(text: str, column: str) -> int:
    try:
        value = int(text.strip())
    except ValueError:
        raise RecordError(f"{column} must be a whole number, not {text!r}",
                          rule="number", column=column) from None
    if value < 1:
        raise RecordError(f"{column} must be 1 or more, not {value}", rule="number", column=column)
    if value > MAX_NUMBER:
        raise RecordError(f"{column} must be at most {MAX_NUMBER}, not {text.strip()[:40]}",
                          rule="number", column=column)
    return value


def parse_row(fields: dict[str, str], line: int) -> DealRecord:
    """One row's fields (already keyed by lower-case column) as a record."""
    get = fields.get
    players_text = get("players", "").strip()
    players = [p.strip() for p in players_text.split(";")] if players_text else []
    if not players or any(not p for p in players):
        raise RecordError("players must name every seat, separated by ';'",
                          rule="players", column="players")
    if len(players) > MAX_PLAYERS:
        raise RecordError(f"{len(players)} players at one table; no game seats more than 6",
                          rule="players", column="players")
    if len(set(players)) != len(players):
        raise RecordError("a player is named twice at the table", rule="players", column="players")
    n = len(players)
    table = get("table", "").strip()
    if not table:
        raise RecordError("table is empty", rule="table", column="table")

    dealer = (get("dealer") or "").strip() or None
    if dealer is not None and dealer not in players:
        raise RecordError(f"dealer {dealer!r} is not one of the players",
                          rule="dealer", column="dealer")

    hands = secrets = None
    hands_text = (get("hands") or "").strip()
    if hands_text:
        hands, secrets = [], []
        any_secret = False
        for seat, part in enumerate(_split_seats(hands_text, n, "hands")):
            row, bar, secret = part.partition("|")
            any_secret = any_secret or bool(bar)
            hands.append(_cards(row, "hands", seat))
            secrets.append(_cards(secret, "hands", seat))
        if not any_secret:
            secrets = None

    stock_text = (get("stock") or "").strip()
    stock = _cards(stock_text, "stock") if stock_text else None

    passes = None
    passes_text = (get("passes") or "").strip()
    if passes_text:
        passes = [_cards(p, "passes", seat)
                  for seat, p in enumerate(_split_seats(passes_text, n, "passes"))]

    play = (get("play") or "").split()
    if len(play) > MAX_TOKENS:
        raise RecordError(f"{len(play)} moves in one deal; more than any deal can have ({MAX_TOKENS})",
                          rule="too-many-moves", column="play")
    for number, token in enumerate(play, 1):
        if len(token) > MAX_TOKEN_CHARS:
            raise RecordError(f"a move token of {len(token)} characters; no move is longer "
                              f"than {MAX_TOKEN_CHARS}", rule="token-too-long", column="play",
                              move=number, token=token[:40] + "...")

    scores = None
    scores_text = (get("scores") or "").strip()
    if scores_text:
        scores = [s.strip() for s in _split_seats(scores_text, n, "scores")]

    event = (get("event") or "").strip() or None
    variant = (get("variant") or "").strip() or None
    return DealRecord(
        line=line, event=event, variant=variant,
        round=_positive_int(get("round", ""), "round"), table=table,
        deal=_positive_int(get("deal", ""), "deal"), players=players, dealer=dealer,
        hands=hands, secrets=secrets, stock=stock, passes=passes, play=play, scores=scores,
    )


_CONTENT_COLUMNS = ("play", "scores", "hands", "stock", "passes")


class RecordReader:
    """Iterate over the records of a file, streaming.

    ``errors`` decides what a bad row does: ``"raise"`` (the default) raises the
    :class:`RecordError`; ``"yield"`` yields it in place of the record, so a caller
    can report every bad row and go on. Problems of the file as a whole (header,
    encoding, oversized lines) always raise.
    """

    def __init__(self, stream: IO[bytes], filename: str | None = None, errors: str = "raise"):
        self.filename = filename
        self.errors = errors
        self._lines = _RecordLines(stream, filename)
        self.columns: list[str] = []
        self.raw_row: list[str] = []
        # Rows with nothing in play, scores, hands, stock and passes: the unused rows
        # of a score-sheet template (`tourney round sheet`). They are skipped, and
        # counted so commands can say so.
        self.unfilled = 0

    def _reader(self):
        csv.field_size_limit(MAX_FIELD_CHARS)
        return csv.reader(self._lines, strict=True)

    def _header(self, reader) -> list[str]:
        try:
            header = next(reader, None)
        except csv.Error as err:
            raise HeaderError(f"the header is not valid CSV: {err}", rule="csv",
                              file=self.filename, line=1) from None
        if header is None:
            raise HeaderError("the file is empty; it needs a header row", rule="header",
                              file=self.filename, line=1)
        columns = [c.strip().lower() for c in header]
        for index, name in enumerate(columns):
            if name not in COLUMNS:
                raise HeaderError(
                    f"unknown column {header[index][:40]!r} (column {index + 1}); "
                    f"known columns: {', '.join(COLUMNS)}",
                    rule="header", file=self.filename, line=1, column=header[index][:40],
                )
        seen = set()
        for name in columns:
            if name in seen:
                raise HeaderError(f"column {name!r} appears twice", rule="header",
                                  file=self.filename, line=1, column=name)
            seen.add(name)
        missing = [c for c in REQUIRED if c not in seen]
        if missing:
            raise HeaderError(f"missing required column(s): {', '.join(missing)}",
                              rule="header", file=self.filename, line=1)
        return columns

    def __iter__(self) -> Iterator[DealRecord | RecordError]:
        reader = self._reader()
        self.columns = columns = self._header(reader)
        self._lines.record_done()
        width = len(columns)
        end_line = reader.line_num
        while True:
            start_line = end_line + 1
            try:
                row = next(reader)
            except StopIteration:
                return
            except csv.Error as err:
                # the line the broken record begins on, as for every record error
                raise RecordError(f"not valid CSV: {err}", rule="csv",
                                  file=self.filename, line=self._lines.record_line) from None
            end_line = reader.line_num
            self._lines.record_done()
            # The raw fields of the row just read, for callers that write rows back
            # as given (the importer's rejects file). Additive: set before each yield.
            self.raw_row = row
            if not row or (len(row) == 1 and not row[0].strip()):
                continue  # blank lines are ignored
            # A record spanning lines starts after the blank lines csv skipped.
            if end_line - start_line:
                start_line = end_line - sum(f.count("\n") for f in row)
            if len(row) != width:
                err = RecordError(
                    f"{len(row)} fields where the header has {width} (a ragged row; "
                    "check for an unquoted comma)",
                    rule="ragged-row", file=self.filename, line=start_line,
                )
                if self.errors == "raise":
                    raise err
                yield err
                continue
            fields = dict(zip(columns, row))
            if not any(fields.get(c, "").strip() for c in _CONTENT_COLUMNS):
                self.unfilled += 1
                continue
            try:
                yield parse_row(fields, start_line)
            except RecordError as err:
                err.file, err.line = self.filename, start_line
                if self.errors == "raise":
                    raise
                yield err


def open_records(path: str, errors: str = "raise") -> tuple[IO[bytes], RecordReader]:
    """Open a record file (``-``: standard input) for streaming;
    :class:`~tourney.errors.UsageError` if unreadable."""
    import sys

    from ..errors import UsageError

    if path == "-":
        return sys.stdin.buffer, RecordReader(sys.stdin.buffer, filename="<stdin>", errors=errors)
    try:
        stream = open(path, "rb")
    except OSError as err:
        raise UsageError(f"{path}: cannot read the file: {err.strerror}") from None
    return stream, RecordReader(stream, filename=path, errors=errors)


def read_records_text(text: str, filename: str | None = None) -> list[DealRecord]:
    """All records of a CSV text (tests and small inputs)."""
    return list(RecordReader(io.BytesIO(text.encode("utf-8")), filename))


# ------------------------------------------------------------------------- writing

def _seat_cards(seats: Sequence[Sequence[int]]) -> str:
    return ";".join(" ".join(CARD_NAMES[c] for c in seat) for seat in seats)


def format_row(record: DealRecord, canonical_token=None, format_score=None,
               scores=None) -> dict[str, str]:
    """A record's fields in canonical spelling: the one codec of the record CSV,
    for the export, the importer's stored content and the replay pages.

    ``canonical_token`` (a variant's :meth:`Game.canonical_token`) rewrites move
    tokens; ``format_score`` rewrites scores. Without them they are written as read.
    ``scores``: the scores to write instead of the record's (the importer writes
    the ones the engine computed).
    """
    hands = ""
    if record.hands is not None:
        seats = []
        for seat, row in enumerate(record.hands):
            text = " ".join(CARD_NAMES[c] for c in row)
            if record.secrets is not None:
                text += "|" + " ".join(CARD_NAMES[c] for c in record.secrets[seat])
            seats.append(text)
        hands = ";".join(seats)
    play = record.play or []
    if canonical_token is not None:
        play = [canonical_token(t) for t in play]
    if scores is None:
        scores = record.scores
    if scores is not None and format_score is not None:
        scores = [format_score(s) for s in scores]
    return {
        "event": record.event or "",
        "variant": record.variant or "",
        "round": str(record.round),
        "table": record.table,
        "deal": str(record.deal),
        "players": ";".join(record.players),
        "dealer": record.dealer or "",
        "hands": hands,
        "stock": " ".join(CARD_NAMES[c] for c in record.stock) if record.stock else "",
        "passes": _seat_cards(record.passes) if record.passes is not None else "",
        "play": " ".join(play),
        "scores": ";".join(scores) if scores is not None else "",
    }


class RecordWriter:
    """Write records as CSV with the header of :data:`COLUMNS` (or a subset)."""

    def __init__(self, stream: IO[str], columns: Sequence[str] = COLUMNS):
        self.columns = list(columns)
        self._writer = csv.writer(stream, lineterminator="\n")
        self._writer.writerow(self.columns)

    def write(self, fields: dict[str, str]) -> None:
        self._writer.writerow([fields.get(c, "") for c in self.columns])


def write_records(stream: IO[str], records: Iterable[DealRecord], game_for=None,
                  columns: Sequence[str] = COLUMNS) -> int:
    """Write records canonically; ``game_for(record)`` gives the engine for its moves."""
    writer = RecordWriter(stream, columns)
    count = 0
    for record in records:
        game = game_for(record) if game_for else None
        writer.write(format_row(
            record,
            canonical_token=game.canonical_token if game else None,
            format_score=(lambda s, g=game: g.format_score(g.parse_score(s))) if game else None,
        ))
        count += 1
    return count


__all__ = [
    "COLUMNS", "REQUIRED", "DealRecord", "HeaderError", "RecordReader", "RecordWriter",
    "open_records", "read_records_text", "format_row", "write_records", "parse_row",
    "TourneyError",
]
