"""Reading and writing the deal-record CSV (docs/guide/records.md).

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
import re
from dataclasses import dataclass, field
from functools import lru_cache
from typing import IO, Iterable, Iterator, NamedTuple, Sequence

from ..cards import CARD_NAMES, RANKS, SUITS, parse_card
from ..engines.base import DealSetup
from ..engines.presentation import N_, Message, did_you_mean, or_words, then_words
from ..errors import CardError, RecordError, TourneyError, UnreadableFile, close_names
from ..errors.words import quoted
from ..person_names import normalize_name, suggested_names
from .sources import (  # noqa: F401  (the bounds are part of this module's interface)
    MAX_FIELD_CHARS,
    MAX_LINE_BYTES,
    MAX_RECORD_CHARS,
    Source,
    formula_safe,
    open_source,
)

_CANONICAL = {name: card for card, name in enumerate(CARD_NAMES)}
_CANONICAL_CARD = _CANONICAL.__getitem__

COLUMNS = (
    "event", "variant", "round", "table", "deal", "players", "dealer",
    "hands", "stock", "passes", "play", "scores",
)
REQUIRED = ("round", "table", "deal", "players", "play")
# A score sheet has no moves: `scores` stands in for `play` (docs/guide/records.md).
REQUIRED_ONE_OF = {"play": ("play", "scores")}
# The key columns: checked even on an unfilled score-sheet row.
# The column a rejects file adds (`result import --skip-invalid`): ignored on
# reading, so a fixed rejects file imports as it is.
ERROR_COLUMN = "error"

# Bounds that keep hostile files cheap to refuse (hardening): no real record comes
# near them. A deal has at most 52 cards; the longest plausible play column (a long
# checkers game, a svarta-maja deal of many exchanges) is a few kB.
MAX_TOKENS = 5000
# The longest real move token is a svarta-maja exchange of 13 cards spelt "10♠"
# (about 105 characters); a longer one is not a move, and refusing it here keeps
# error messages short and the engines' parsers away from pathological text.
MAX_TOKEN_CHARS = 200
MAX_PLAYERS = 16
# Round and deal numbers: no event has more rounds, no match more deals, and the
# bound keeps them inside every backend's INTEGER (a round of 2**31 made the
# PostgreSQL lookup fail, 2**63 the SQLite one).
MAX_NUMBER = 1_000_000


class HeaderError(UnreadableFile):
    """The header names a column the record format does not know, or lacks a required one:
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
    # Which card cells (HANDS_AS_READ, STOCK_AS_READ, PASSES_AS_READ bits) the file
    # gives in canonical spelling, nothing around them: parse_row knows it from
    # the hot path that read them, so canonical_fields keeps them without testing
    # the text again. Not content: two records with the same cards are equal.
    as_read: int = field(default=0, compare=False, repr=False)

    @property
    def match_key(self) -> tuple[str | None, int, str]:
        return (self.event, self.round, self.table)

    @property
    def is_score_sheet(self) -> bool:
        return not self.play and self.scores is not None

    def dealer_seat(self) -> int | None:
        return None if self.dealer is None else self.players.index(self.dealer)

    def setup(self) -> DealSetup:
        # positional, in DealSetup's field order: nplayers, dealer, hands, secrets,
        # stock, passes, deal_number (keyword arguments cost a dict per deal)
        dealer = self.dealer
        return DealSetup(len(self.players), None if dealer is None else self.players.index(dealer),
                         self.hands, self.secrets, self.stock, self.passes, self.deal)


# DealRecord.as_read: these cells, exactly as the file gives them, are canonical.
HANDS_AS_READ, STOCK_AS_READ, PASSES_AS_READ = 1, 2, 4


# ------------------------------------------------------------------------- reading
# Bytes, encodings, delimiters and spreadsheets: tourney.records.sources.

def _split_seats(text: str, nplayers: int, column: str) -> list[str]:
    parts = text.split(";")
    if len(parts) != nplayers:
        raise RecordError(Message(
            N_("%(seats)s given for %(players)s (seats are separated by ';')"),
            {"seats": Message(N_("%(n)s seat") if len(parts) == 1 else N_("%(n)s seats"),
                              {"n": len(parts)}),
             "players": Message(N_("%(n)s player") if nplayers == 1 else N_("%(n)s players"),
                                {"n": nplayers})}),
            rule="seat-count", column=column,
        )
    return parts


# The hot path of card cells: canonical spelling (rank then suit, in upper case)
# with one separator character between cards, as tourney writes them and
# simulations and spreadsheets keep them ("JD KS QS|KC;2D 3C 7C|8C"). Every card is
# then three bytes: rank, suit, separator, so slicing every third byte gives all
# ranks and all suits at once, and translating them gives each card's parts: its
# rank (0-12) and 13 * its suit, or _NOT_A_CARD for any other byte.
_NOT_A_CARD = 255
_RANK_PARTS = bytes(RANKS.find(chr(b)) if chr(b) in RANKS else _NOT_A_CARD for b in range(256))
_SUIT_PARTS = bytes(13 * SUITS.find(chr(b)) if chr(b) in SUITS else _NOT_A_CARD
                    for b in range(256))


def _canonical_cards(text: str) -> tuple[list[int], bytes] | None:
    """The cards of a text in canonical spelling, one separator between cards, and
    the separators (``b" |;"`` for ``"JD KS|KC;QS"``); ``None`` for any other text
    (the careful way then reads it). Make sure of the separators before use."""
    if not text.isascii():
        return None
    data = text.encode()
    ranks = data[0::3].translate(_RANK_PARTS)
    suits = data[1::3].translate(_SUIT_PARTS)
    if len(data) % 3 != 2 or _NOT_A_CARD in ranks or _NOT_A_CARD in suits:
        return None
    # Each card is its rank plus 13 * its suit, at most 51: adding the two byte
    # strings as big numbers adds them byte by byte (no byte carries), in C.
    cards = int.from_bytes(ranks, "big") + int.from_bytes(suits, "big")
    return list(cards.to_bytes(len(ranks), "big")), data[2::3]


@lru_cache(maxsize=64)
def _seat_slices(separators: bytes) -> tuple[tuple[slice, ...], tuple[slice, ...] | None] | None:
    """Where each seat's cards are in a cell read by :func:`_canonical_cards`, from
    its separators: the slices of each seat's cards (the row, for the row games)
    and of its secret cards after ``|`` (``None`` when no seat has any); ``None``
    unless seats are separated by ``;``, cards by a space, and either every seat or
    none has one ``|`` (the careful way reads the rest)."""
    if separators.translate(None, b" ;|"):
        return None
    seats, secrets, start = [], [], 0
    for seat in separators.split(b";"):
        end = start + len(seat) + 1
        bar = seat.find(b"|")
        if bar < 0:
            seats.append(slice(start, end))
        elif bar == seat.rfind(b"|"):
            seats.append(slice(start, start + bar + 1))
            secrets.append(slice(start + bar + 1, end))
        else:
            return None
        start = end
    if not secrets:
        return tuple(seats), None
    return (tuple(seats), tuple(secrets)) if len(secrets) == len(seats) else None


def _cards(text: str, column: str, seat: int | None = None,
           players: Sequence[str] | None = None) -> list[int]:
    parsed = _canonical_cards(text)
    if parsed is not None and not parsed[1].strip(b" "):  # the hot path (above)
        return parsed[0]
    tokens = text.split()
    try:  # every card in its canonical spelling
        return list(map(_CANONICAL_CARD, tokens))
    except KeyError:
        pass
    out = []
    for token in tokens:
        try:
            out.append(parse_card(token))
        except CardError:
            raise RecordError(
                Message(N_("not a card: %(token)s; cards are rank then suit, e.g. QS, TH, 10H, 2♣"),
                        {"token": quoted(token)}),
                rule="card", column=column, token=token, seat=seat,
                player=players[seat] if seat is not None and players else None,
            ) from None
    return out


def _positive_int(text: str, column: str) -> int:
    digits = text.strip()
    # ASCII digits only: int() also takes "３" and "٣", which would import as 3 and
    # export as another text than the file's.
    if not (digits.isascii() and digits.isdigit()):
        raise RecordError(Message(N_("%(column)s must be a whole number in digits 0-9, not "
                                     "%(text)s"), {"column": _column_words(column),
                                                   "text": quoted(text[:40])}),
                          rule="number", column=column)
    value = int(digits)
    if value < 1:
        raise RecordError(Message(N_("%(column)s must be 1 or more, not %(value)s"),
                                  {"column": _column_words(column), "value": str(value)}),
                          rule="number", column=column)
    if value > MAX_NUMBER:
        raise RecordError(Message(N_("%(column)s must be at most %(most)s, not %(text)s"),
                                  {"column": _column_words(column), "most": MAX_NUMBER,
                                   "text": text.strip()[:40]}),
                          rule="number", column=column)
    return value


# The numbered columns in words (the catalogue has them: the table page's column
# names, tourney/web/messages.py COLUMN_NAMES).
_NUMBER_COLUMNS = {"round": N_("round"), "deal": N_("deal")}


def _column_words(column: str) -> Message | str:
    words = _NUMBER_COLUMNS.get(column)
    return Message(words) if words else column


def dealer_error(record: DealRecord) -> RecordError | None:
    """A dealer who is not one of the record's players (said with the closest)."""
    if record.dealer is None or record.dealer in record.players:
        return None
    hint = did_you_mean(suggested_names([record.dealer], record.players))
    if hint is None:
        words = Message(N_("dealer %(dealer)s is not one of the players"),
                        {"dealer": quoted(record.dealer)})
    else:
        words = Message(N_("dealer %(dealer)s is not one of the players (%(hint)s)"),
                        {"dealer": quoted(record.dealer), "hint": hint})
    return RecordError(words, rule="dealer", column="dealer", line=record.line)


def parse_row(fields: dict[str, str], line: int) -> DealRecord:
    """One row's fields (already keyed by lower-case column) as a record."""
    get = fields.get
    players_text = get("players", "").strip()
    if not players_text:
        players = []
    elif players_text.isascii():  # NFC leaves ASCII text as it is: only strip
        players = list(map(str.strip, players_text.split(";")))
    else:
        players = [normalize_name(p) for p in players_text.split(";")]
    if len(players) == 1 and "," in players_text:
        raise RecordError(Message(
            N_("the players are separated by ',' (%(players)s); separate them by ';' (in a "
               "file whose fields are separated by ';', put the players in quotes: "
               '"Anna;Bo;Cai;Dag")'), {"players": quoted(players_text[:60])}),
            rule="players", column="players")
    if not players or "" in players:
        raise RecordError(Message(N_("players must name every seat, separated by ';'")),
                          rule="players", column="players")
    if len(players) > MAX_PLAYERS:
        raise RecordError(Message(N_("%(n)s players at one table; no game seats more than 6"),
                                  {"n": len(players)}),
                          rule="players", column="players")
    if len(set(players)) != len(players):
        raise RecordError(Message(N_("a player is named twice at the table")),
                          rule="players", column="players")
    n = len(players)
    table = get("table", "").strip()
    if not table:
        raise RecordError(Message(N_("table is empty")), rule="table", column="table")

    dealer = get("dealer")
    if dealer and dealer.isascii():  # as for the players
        dealer = dealer.strip() or None
    else:
        dealer = normalize_name(dealer) or None
    # A dealer who is not one of the players is refused when the deal is checked
    # (dealer_error), not here: the row stays readable, so its players can still be
    # checked against the seating (a typo in the players is the likelier slip).

    # A card cell read by the hot path (_canonical_cards, _seat_slices) is in
    # canonical spelling: one separator between cards, seats by ';', every seat's
    # or no seat's secret cards after one '|' (what canonical_fields writes); it
    # is kept as read when nothing was stripped around it (as_read).
    as_read = 0
    hands = secrets = None
    cell = get("hands") or ""
    hands_text = cell.strip()
    parsed = _canonical_cards(hands_text) if hands_text else None
    if parsed is not None:  # the hot path: see _canonical_cards
        cards, separators = parsed
        where = _seat_slices(separators)
        if where is not None and len(where[0]) == n:
            hands = list(map(cards.__getitem__, where[0]))
            if where[1] is not None:
                secrets = list(map(cards.__getitem__, where[1]))
            if len(cell) == len(hands_text):
                as_read = HANDS_AS_READ
    if hands_text and hands is None:
        hands, secrets = [], []
        any_secret = False
        for seat, part in enumerate(_split_seats(hands_text, n, "hands")):
            row, bar, secret = part.partition("|")
            hands.append(_cards(row, "hands", seat, players))
            if bar:
                any_secret = True
                secrets.append(_cards(secret, "hands", seat, players))
            else:
                secrets.append([])
        if not any_secret:
            secrets = None

    stock = None
    cell = get("stock") or ""
    stock_text = cell.strip()
    if stock_text:
        parsed = _canonical_cards(stock_text)  # the hot path, as for hands (_cards)
        if parsed is not None and not parsed[1].strip(b" "):
            stock = parsed[0]
            if len(cell) == len(stock_text):
                as_read |= STOCK_AS_READ
        else:
            stock = _cards(stock_text, "stock")

    passes = None
    cell = get("passes") or ""
    passes_text = cell.strip()
    if passes_text:
        parsed = _canonical_cards(passes_text)  # the hot path, as for hands
        where = _seat_slices(parsed[1]) if parsed is not None else None
        if where is not None and where[1] is None and len(where[0]) == n:
            passes = list(map(parsed[0].__getitem__, where[0]))
            if len(cell) == len(passes_text):
                as_read |= PASSES_AS_READ
        else:
            seats = _split_seats(passes_text, n, "passes")
            try:
                passes = [list(map(_CANONICAL_CARD, p.split())) for p in seats]
            except KeyError:
                passes = [_cards(p, "passes", seat, players) for seat, p in enumerate(seats)]

    play_text = get("play") or ""
    play = play_text.split()
    if len(play) > MAX_TOKENS:
        raise RecordError(Message(N_("%(n)s moves in one deal; more than any deal can have "
                                     "(%(most)s)"), {"n": len(play), "most": MAX_TOKENS}),
                          rule="too-many-moves", column="play")
    if len(play_text) > MAX_TOKEN_CHARS and max(map(len, play)) > MAX_TOKEN_CHARS:
        number, token = next((number, token) for number, token in enumerate(play, 1)
                             if len(token) > MAX_TOKEN_CHARS)
        raise RecordError(Message(N_("a move token of %(n)s characters; no move is longer than "
                                     "%(most)s"), {"n": len(token), "most": MAX_TOKEN_CHARS}),
                          rule="token-too-long", column="play",
                          move=number, token=token[:40] + "...")

    scores = None
    scores_text = (get("scores") or "").strip()
    if scores_text:
        scores = list(map(str.strip, _split_seats(scores_text, n, "scores")))

    event = (get("event") or "").strip() or None
    variant = (get("variant") or "").strip() or None
    # positional (in field order): keyword arguments cost a dict per record
    return DealRecord(
        line, event, variant, _positive_int(get("round", ""), "round"), table,
        _positive_int(get("deal", ""), "deal"), players, dealer,
        hands, secrets, stock, passes, play, scores, as_read,
    )


_CONTENT_COLUMNS = ("play", "scores", "hands", "stock", "passes")


def check_key_columns(fields: dict[str, str], line: int) -> DealRecord:
    """The key columns of an unfilled row, checked as any row's would be."""
    from ..engines import VARIANT_IDS, unknown_variant

    record = parse_row(fields, line)
    if record.variant is not None and record.variant not in VARIANT_IDS:
        unknown = unknown_variant(record.variant)
        raise RecordError(unknown.words or str(unknown), rule="variant", column="variant")
    return record


class RecordReader:
    """Iterate over the records of a file, streaming.

    ``stream`` is a binary stream or a :class:`~tourney.records.sources.Source`
    (CSV in any dialect and encoding spreadsheets write, or an XLSX sheet).
    ``errors`` decides what a bad row does: ``"raise"`` (the default) raises the
    :class:`RecordError`; ``"yield"`` yields it in place of the record, so a caller
    can report every bad row and go on. Problems of the file as a whole (header,
    encoding, oversized lines) always raise. ``on_skipped(line, reason)`` hears of
    each unfilled score-sheet row skipped.
    """

    def __init__(self, stream: IO[bytes] | Source, filename: str | None = None,
                 errors: str = "raise", *, encoding: str | None = None,
                 on_skipped=None):
        if isinstance(stream, Source):
            self.source = stream
            filename = filename or stream.name
        else:
            self.source = Source(stream, filename, encoding=encoding, owned=False)
        self.filename = filename
        self.errors = errors
        self.on_skipped = on_skipped
        self.columns: list[str] = []
        self.raw_row: list[str] = []
        # Rows with nothing in play, scores, hands, stock and passes: the unused rows
        # of a score-sheet template (`tourney round sheet`). They are skipped, and
        # counted so commands can say so.
        self.unfilled = 0
        self._rows = None

    def _header(self, rows) -> list[str]:
        try:
            header = rows.read_header()
        except RecordError as err:
            if err.rule != "csv":
                raise
            raise HeaderError(err.message, rule=err.rule, file=self.filename,
                              line=1) from None
        if header is None:
            raise HeaderError(Message(N_("the file is empty; it needs a header row")),
                              rule="header", file=self.filename, line=1)
        columns = [c.strip().lower() for c in header]
        for index, name in enumerate(columns):
            if name not in COLUMNS and name != ERROR_COLUMN:
                close = close_names(name, COLUMNS, limit=2) if name else []
                unknown = {"name": quoted(header[index][:40]), "number": index + 1,
                           "known": ", ".join(COLUMNS)}
                raise HeaderError(
                    Message(N_("unknown column %(name)s (column %(number)s; did you mean "
                               "%(close)s?); known columns: %(known)s"),
                            {**unknown, "close": or_words(close)}) if close else
                    Message(N_("unknown column %(name)s (column %(number)s); known columns: "
                               "%(known)s"), unknown),
                    rule="header", file=self.filename, line=1, column=header[index][:40],
                )
        seen = set()
        for name in columns:
            if name in seen:
                raise HeaderError(Message(N_("column %(name)s appears twice"),
                                          {"name": quoted(name)}), rule="header",
                                  file=self.filename, line=1, column=name)
            seen.add(name)
        missing = [c for c in REQUIRED
                   if not any(name in seen for name in REQUIRED_ONE_OF.get(c, (c,)))]
        if missing:
            named = [c if c not in REQUIRED_ONE_OF else
                     Message(N_("%(column)s (or scores, for a score sheet)"), {"column": c})
                     for c in missing]
            words = named[0]
            for more in named[1:]:
                words = Message(N_("%(first)s, %(then)s"), {"first": words, "then": more})
            raise HeaderError(Message(N_("missing required column: %(columns)s")
                                      if len(missing) == 1 else
                                      N_("missing required columns: %(columns)s"),
                                      {"columns": words}),
                              rule="header", file=self.filename, line=1)
        self.source.set_columns(columns)
        return columns

    def __iter__(self) -> Iterator[DealRecord | RecordError]:
        rows = self._rows = self.source.rows(known=COLUMNS)
        self.columns = columns = self._header(rows)
        width = len(columns)
        said_delimiter = 0  # the line of the first row told to have another delimiter
        for line, row in rows:
            # The fields of the row just read, for callers that write rows back
            # as given (the importer's rejects file). Additive: set before each yield.
            self.raw_row = row
            if len(row) != width:
                # a row written with another delimiter than the header: said in full
                # once, then in short (a whole file of such rows)
                hint, remedy = getattr(rows, "delimiter_hint", lambda: (None, None))()
                if hint is not None and said_delimiter:
                    hint, remedy = Message(N_("this row too is separated by another "
                                              "delimiter than the header (see line "
                                              "%(line)s)"), {"line": said_delimiter}), None
                elif hint is not None:
                    said_delimiter = line
                words = ragged_row_message(row, width)
                if hint is not None:
                    words = then_words(words, hint)
                err = RecordError(words, rule="ragged-row",
                                  file=self.filename, line=line, remedy=remedy)
                if self.errors == "raise":
                    raise err
                yield err
                continue
            fields = dict(zip(columns, row))
            try:
                play = fields.get("play")  # most rows have one: no need to look further
                if not (play and not play.isspace()) and not any(
                        fields.get(c, "").strip() for c in _CONTENT_COLUMNS):
                    check_key_columns(fields, line)
                    self.unfilled += 1
                    if self.on_skipped is not None:
                        self.on_skipped(line, "an unfilled score-sheet row (no play, scores, "
                                              "hands, stock or passes)")
                    continue
                yield parse_row(fields, line)
            except RecordError as err:
                err.file, err.line = self.filename, line
                if self.errors == "raise":
                    raise
                yield err


def ragged_row_message(row: Sequence[str], width: int) -> Message:
    """What is wrong with a row of another length than the header; a value past the
    header's last column is named by its column number (that column has no name)."""
    counts = {"n": len(row), "width": width}
    words = Message(N_("%(n)s field where the header has %(width)s (a ragged row; check for "
                       "an unquoted delimiter)") if len(row) == 1 else
                    N_("%(n)s fields where the header has %(width)s (a ragged row; check for "
                       "an unquoted delimiter)"), counts)
    extra = next((i for i in range(width, len(row)) if row[i].strip()), None)
    if extra is not None:
        words = Message(N_("a value in column %(number)s, which has no name in the header: "
                           "%(problem)s"), {"number": extra + 1, "problem": words})
    return words


class OpenRecords(NamedTuple):
    """A record file opened by :func:`open_records`: ``source``, the file as read
    (its encoding's notices, the cell of a line in a workbook), and ``reader``, its
    records. A pair, as it always was (``source, reader = open_records(...)``); as a
    context manager it closes the file."""

    source: Source
    reader: RecordReader

    def __enter__(self) -> "OpenRecords":
        return self

    def __exit__(self, *exc) -> None:
        self.source.close()


def open_records(path: str, errors: str = "raise", *, encoding: str | None = None,
                 sheet: str | None = None, on_skipped=None) -> OpenRecords:
    """Open a record file (``-``: standard input; CSV or XLSX) for streaming;
    :class:`~tourney.errors.UsageError` if unreadable. The reader is named after
    the file, so its errors name it (``<stdin>`` for standard input)."""
    source = open_source(path, encoding=encoding, sheet=sheet)
    name = "<stdin>" if path == "-" else path
    return OpenRecords(source, RecordReader(source, filename=name, errors=errors,
                                            on_skipped=on_skipped))


def read_records_text(text: str, filename: str | None = None) -> list[DealRecord]:
    """All records of a CSV text (tests and small inputs)."""
    return list(RecordReader(io.BytesIO(text.encode("utf-8")), filename))


# ------------------------------------------------------------------------- writing

_CARD_NAME = CARD_NAMES.__getitem__
# Card text already in canonical spelling (each card as CARD_NAMES spells it, one
# space between cards, ';' between seats, nothing around them): the text as read
# is then the canonical text, and building it again can be skipped.
_CARD = "[2-9TJQKA][SHDC]"
_SEAT = f"(?:{_CARD}(?: {_CARD})*)?"
_CANONICAL_CARDS = re.compile(_SEAT).fullmatch
_CANONICAL_SEATS = re.compile(f"{_SEAT}(?:;{_SEAT})*").fullmatch
_CANONICAL_SEATS_SECRET = re.compile(f"{_SEAT}\\|{_SEAT}(?:;{_SEAT}\\|{_SEAT})*").fullmatch

# The content fields of a row, in the order :func:`canonical_fields` gives them.
CONTENT_FIELDS = ("players", "dealer", "hands", "stock", "passes", "play", "scores")


def _seat_cards(seats: Sequence[Sequence[int]]) -> str:
    return ";".join([" ".join(map(_CARD_NAME, seat)) for seat in seats])


def canonical_fields(record: DealRecord, canonical_token=None, format_score=None,
                     scores=None, read: Sequence[str] | None = None, play: str | None = None
                     ) -> tuple[str, str, str, str, str, str, str]:
    """A record's :data:`CONTENT_FIELDS` in canonical spelling, as a tuple (the
    importer's hot path; :func:`format_row` gives the whole row as a dict).
    Arguments as for :func:`format_row`; ``read``: the record's hands, stock and
    passes cells as read, when known (text already canonical is kept as it is);
    ``play``: the play column already spelt canonically, when known."""
    hands = stock = passes = None
    if read is not None:  # text already canonical is kept as read
        hands_text, stock_text, passes_text = read
        # as_read: parse_row read the cell as canonical (no need to test it again)
        as_read = record.as_read
        if record.hands is not None and (
                as_read & HANDS_AS_READ
                or (_CANONICAL_SEATS_SECRET if record.secrets is not None
                    else _CANONICAL_SEATS)(hands_text)):
            hands = hands_text
        if record.stock and (as_read & STOCK_AS_READ or _CANONICAL_CARDS(stock_text)):
            stock = stock_text
        if record.passes is not None and (as_read & PASSES_AS_READ
                                          or _CANONICAL_SEATS(passes_text)):
            passes = passes_text
    if hands is not None:
        pass
    elif record.hands is None:
        hands = ""
    elif record.secrets is not None:
        hands = ";".join([" ".join(map(_CARD_NAME, row)) + "|"
                          + " ".join(map(_CARD_NAME, secret))
                          for row, secret in zip(record.hands, record.secrets)])
    else:
        hands = _seat_cards(record.hands)
    if stock is None:
        stock = " ".join(map(_CARD_NAME, record.stock)) if record.stock else ""
    if passes is None:
        passes = _seat_cards(record.passes) if record.passes is not None else ""
    if play is not None:
        pass
    elif not record.play:
        play = ""
    elif canonical_token is not None:
        play = " ".join(map(canonical_token, record.play))
    else:
        play = " ".join(record.play)
    if scores is None:
        scores = record.scores
    if scores is None:
        scores = ""
    elif format_score is not None:
        scores = ";".join(map(format_score, scores))
    else:
        scores = ";".join(scores)
    return (";".join(record.players), record.dealer or "", hands, stock, passes, play, scores)


# The columns a record row holds as numbers outside CSV (JSON lines, workbooks):
# the round and the deal. A table is a label ("1", "A", "12b") and stays text.
NUMBER_FIELDS = ("round", "deal")


def typed_record(fields: dict[str, str]) -> dict:
    """A record row's fields (keyed by column, text as in the CSV) in
    :data:`COLUMNS` order with the round and deal as numbers: the one shape of a
    record in `--json` output (``simulate``, ``round sheet``, ``result export``)."""
    return {c: int(fields[c]) if c in NUMBER_FIELDS and fields.get(c, "").isdigit()
            else fields.get(c, "") for c in COLUMNS}


def format_row(record: DealRecord, canonical_token=None, format_score=None,
               scores=None) -> dict[str, str]:
    """A record's fields in canonical spelling: the one codec of the record CSV,
    for the export, the importer's stored content and the replay pages.

    ``canonical_token`` (a variant's :meth:`Game.canonical_token`) rewrites move
    tokens; ``format_score`` rewrites scores. Without them they are written as read.
    ``scores``: the scores to write instead of the record's (the importer writes
    the ones the engine computed).
    """
    row = {
        "event": record.event or "",
        "variant": record.variant or "",
        "round": str(record.round),
        "table": record.table,
        "deal": str(record.deal),
    }
    row.update(zip(CONTENT_FIELDS, canonical_fields(record, canonical_token, format_score,
                                                    scores)))
    return row


class RecordWriter:
    """Write records as CSV with the header of :data:`COLUMNS` (or a subset)."""

    def __init__(self, stream: IO[str], columns: Sequence[str] = COLUMNS):
        self.columns = list(columns)
        self._writer = csv.writer(stream, lineterminator="\n")
        self._writer.writerow(self.columns)

    def write(self, fields: dict[str, str]) -> None:
        self._writer.writerow([fields.get(c, "") for c in self.columns])


def canonical_rows(records: Iterable[DealRecord], game_for=None) -> Iterator[dict[str, str]]:
    """Each record's fields (:func:`format_row`) in canonical spelling;
    ``game_for(record)`` gives the engine for its moves and scores."""
    for record in records:
        game = game_for(record) if game_for else None
        yield format_row(
            record,
            canonical_token=game.canonical_token if game else None,
            format_score=(lambda s, g=game: g.format_score(g.parse_score(s))) if game else None,
        )


def write_records(stream: IO[str], records: Iterable[DealRecord], game_for=None,
                  columns: Sequence[str] = COLUMNS) -> int:
    """Write records canonically; ``game_for(record)`` gives the engine for its moves."""
    writer = RecordWriter(stream, columns)
    count = 0
    for fields in canonical_rows(records, game_for):
        writer.write(fields)
        count += 1
    return count


__all__ = [
    "COLUMNS", "REQUIRED", "DealRecord", "HeaderError", "RecordReader", "RecordWriter",
    "open_records", "read_records_text", "format_row", "canonical_rows", "write_records",
    "parse_row",
    "TourneyError",
]
