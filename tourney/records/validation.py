"""Checking a record file: every deal through its engine, every match through the
match rules. Used by ``tourney validate`` (no database) and by the importer.

:class:`RecordChecker` is streaming: it checks each deal as it is read and closes a
match when the rows of the next match begin (a match's rows must stand together).
"""
from __future__ import annotations

import math
from dataclasses import dataclass, field, replace
from typing import Any, Callable, Iterable, Iterator, Mapping

from ..engines import get_game
from ..engines.base import MAX_DEALS_PER_MATCH as _MAX_DEALS
from ..engines.base import DealOutcome, Game, MatchRules
from ..engines.match import MatchRanking, PlayedDeal, check_match, match_errors
from ..engines.presentation import N_, Message
from ..errors import IllegalMove, RecordError, TourneyError, UnreadableFile, UsageError
from ..errors.words import quoted
from .csv_format import MAX_NUMBER as MAX_DEAL_NUMBER
from .csv_format import DealRecord, dealer_error

# The matches one file may hold: a season of a national league is tens of thousands
# (a million deals at 20 a match: 50,000). Every match's key is kept while the file is
# read (a match's rows must stand together), so a file of a million one-row
# "matches" (garbage) would hold hundreds of MB; past this it is refused instead.
MAX_MATCHES_PER_FILE = 200_000


def too_many_matches(line: int | None) -> UnreadableFile:
    return UnreadableFile(Message(N_("more than %(most)s matches in one file; not one "
                                     "season's records (split the file, or check that it is "
                                     "a record file)"), {"most": MAX_MATCHES_PER_FILE}),
                          rule="too-large", line=line)


def other_event(record_event: str, slug: str) -> RecordError:
    """A row of another event than the one the file is checked or imported for."""
    return RecordError(Message(N_("the row is for event %(row)s, but the file is for %(file)s"),
                               {"row": quoted(record_event), "file": quoted(slug)}),
                       rule="other-event", column="event", setting="event")


def not_a_score(text: str) -> Message:
    """The one wording of a score cell that is no number."""
    return Message(N_("%(text)s is not a score"), {"text": quoted(text)})


def match_split(round_number: int, table: str, event: str | None, began) -> Message:
    """The rows of a match that do not stand together; ``began``: where it began."""
    where = {"round": round_number, "table": table, "began": began}
    if event:
        return Message(N_("the rows of match round %(round)s, table %(table)s of %(event)s must "
                          "stand together; the match began at %(began)s"), {**where, "event": event})
    return Message(N_("the rows of match round %(round)s, table %(table)s must stand together; "
                      "the match began at %(began)s"), where)


def other_variant(slug: str, variant: str, record_variant: str) -> RecordError:
    """A row whose variant is not its event's."""
    return RecordError(Message(N_("event %(event)s plays %(variant)s, not %(other)s"),
                               {"event": slug, "variant": variant, "other": record_variant}),
                       rule="variant", column="variant")


def nothing_filled_in(rows: int) -> RecordError:
    """A score sheet with every row still empty: nothing to check or import (saying
    "0 deals" or "added: 0" would read as success). One wording for validate and
    import, which refuse it alike."""
    return RecordError(
        Message(N_("nothing is filled in: the score sheet's %(rows)s row is empty; fill in each "
                   "deal's scores, save, and import it again") if rows == 1 else
                N_("nothing is filled in: the score sheet's %(rows)s rows are empty; fill in "
                   "each deal's scores, save, and import it again"), {"rows": rows}),
        rule="nothing-filled-in")


@dataclass
class DealCheck:
    line: int
    record: DealRecord | None
    outcome: DealOutcome | None = None
    error: RecordError | None = None
    # A row that could not be read (no record): its deal cell, when that reads as a
    # deal number (the match's numbering can still be judged with it).
    number: int | None = None

    @property
    def valid(self) -> bool:
        return self.error is None


@dataclass
class MatchCheck:
    """One match as checked. ``errors``: what is wrong with it as a match, by line
    (:meth:`RecordChecker.check_match`); when some of its rows are refused, the
    first is the ``invalid-deals`` summary naming their lines, the rows' own errors
    being on their :class:`DealCheck`."""

    event: str | None
    round: int | None  # None (and table None): a file's first rows, none readable
    table: str | None
    variant: str | None
    lines: list[int] = field(default_factory=list)
    result: MatchRanking | None = None
    errors: list[RecordError] = field(default_factory=list)
    deals: list[DealCheck] = field(default_factory=list)

    @property
    def error(self) -> RecordError | None:
        """The first of :attr:`errors` (None: the match is valid)."""
        return self.errors[0] if self.errors else None

    @property
    def valid(self) -> bool:
        return not self.errors

    @property
    def problems(self) -> list[RecordError]:
        """:attr:`errors` without the ``invalid-deals`` summary: the errors to list
        beside the rows' own."""
        return [err for err in self.errors if err.rule != "invalid-deals"]

    @property
    def key(self) -> tuple[str | None, int, str]:
        return (self.event, self.round, self.table)


OptionsFor = Callable[[DealRecord, Game], dict]
_PARSE_SCORE = Game.parse_score
# Where another row of the file is, for a message about two rows: "line 14" in a
# CSV file, the cell ("rejects!D14") in a workbook (see :func:`row_place`).
RowPlace = Callable[[int, "str | None"], "str | Message"]
# Rows refused for where they stand in the file, not for what they say: the rows
# of a match that closed earlier. They are no match of their own, and nothing else
# is checked of them as one (their numbering would be a follow-on).
GROUPING_RULES = ("match-split",)


def line_place(line: int, column: str | None = None) -> Message:
    return Message(N_("line %(number)s"), {"number": line})


def row_place(records) -> RowPlace:
    """How messages name another row of ``records`` (a
    :class:`~tourney.records.csv_format.RecordReader`, or any iterable): its cell
    in a workbook, else its line."""
    source = getattr(records, "source", None)
    if source is not None and getattr(source, "kind", None) == "xlsx":
        return lambda line, column=None: source.cell(line, column) or line_place(line)
    return line_place

def name_player(err: RecordError, record: DealRecord) -> None:
    """Give an error about one seat the name of the player there (the record's
    players are in seat order). Only ever on an error: nothing is looked up per move."""
    if err.seat is not None and err.player is None and 0 <= err.seat < len(record.players):
        err.player = record.players[err.seat]


# It bounds the deals held while a match is open (hardening); the engines' own
# `deals` option has the same bound (one home: tourney.engines.base).
MAX_DEALS_PER_MATCH = _MAX_DEALS


class RecordChecker:
    """Checks records against the engines.

    ``variant`` is used for rows without a ``variant`` cell; ``rules`` (key -> text)
    apply to every row, resolved per variant. ``options_for(record, game)``, when
    given, replaces both (the importer takes the event's rules from the database).
    ``keep_deals`` keeps each match's deal checks on its :class:`MatchCheck`.
    """

    def __init__(self, variant: str | None = None, rules: Mapping[str, Any] | None = None,
                 options_for: OptionsFor | None = None, keep_deals: bool = False):
        self.variant = variant
        self.rules = dict(rules or {})
        self.options_for = options_for
        self.keep_deals = keep_deals
        self._options: dict[str, dict] = {}
        # variant -> (game, options) without options_for; variant -> game with it
        self._games: dict[str, tuple[Game, dict] | Game] = {}
        self.place: RowPlace = line_place  # set by check_stream for its file
        if variant is not None:
            self._resolve(get_game(variant))

    def _resolve(self, game: Game) -> dict:
        options = self._options.get(game.id)
        if options is None:
            options = self._options[game.id] = game.resolve_options(self.rules)
        return options

    @property
    def games_used(self) -> list[str]:
        """The variants whose rules were resolved so far (the one given first), in
        the order first used; with ``options_for`` the given variant only."""
        if self.options_for is not None:
            return [self.variant] if self.variant is not None else []
        return list(self._options)

    def game_and_options(self, record: DealRecord) -> tuple[Game, dict]:
        variant = record.variant or self.variant
        known = self._games.get(variant)  # the hot path: a variant met before
        if known is not None:
            if self.options_for is not None:
                return known, self.options_for(record, known)
            return known
        if variant is None:
            raise RecordError(Message(N_("no variant: add a variant column or name the variant")),
                              rule="variant", column="variant", setting="variant")
        try:
            game = get_game(variant)
        except UsageError as err:
            raise RecordError(err.words or str(err), rule="variant", column="variant") from None
        if self.options_for is not None:
            options = self.options_for(record, game)
            self._games[variant] = game
            return game, options
        options = self._resolve(game)
        self._games[variant] = (game, options)
        return game, options

    # ------------------------------------------------------------------ one deal

    def check_deal(self, record: DealRecord) -> DealCheck:
        try:
            outcome = self._check_deal(record)
        except RecordError as err:
            if err.line is None:
                err.line = record.line
            name_player(err, record)
            return DealCheck(record.line, record, error=err)
        return DealCheck(record.line, record, outcome=outcome)

    def _check_deal(self, record: DealRecord) -> DealOutcome:
        game, options = self.game_and_options(record)
        n = len(record.players)
        if not game.min_players <= n <= game.max_players:
            raise RecordError(Message(N_("%(game)s is played by %(low)s-%(high)s players, not "
                                         "%(n)s"), {"game": game.id, "low": game.min_players,
                                                    "high": game.max_players, "n": n}),
                              rule="player-count", column="players")
        if game.uses_dealer and record.dealer is None:
            raise RecordError(Message(N_("%(game)s needs the dealer's name"), {"game": game.id}),
                              rule="dealer", column="dealer")
        if not game.uses_dealer and record.dealer is not None:
            raise RecordError(Message(N_("%(game)s has no dealer; leave the column empty"),
                                      {"game": game.id}),
                              rule="dealer", column="dealer")
        wrong_dealer = dealer_error(record)
        if wrong_dealer is not None:
            raise wrong_dealer
        setup = record.setup()
        claimed = self._claimed_scores(game, record)
        score_sheet = record.is_score_sheet
        try:
            if score_sheet:
                return game.check_score_sheet(setup, claimed, options)
            outcome = game.replay(setup, record.play or [], options)
        except IllegalMove as err:
            column = "scores" if score_sheet else "play"
            error = RecordError.from_illegal(err, column=column)
            error.by_rules = True
            raise error from None
        except RecordError as err:
            err.by_rules = True
            raise
        except TourneyError as err:
            raise RecordError(err.words or str(err), rule="record") from None
        except Exception as err:  # an engine bug must not become a traceback
            raise RecordError(Message(N_("the %(variant)s engine failed on this record "
                                         "(%(error)s); please report it"),
                                      {"variant": game.id,
                                       "error": f"{type(err).__name__}: {err}"}),
                              rule="internal") from None
        if claimed is not None and claimed != list(outcome.scores):
            shown = ";".join(game.format_score(s) for s in outcome.scores)
            error = RecordError(Message(N_("claimed scores %(claimed)s but the rules give "
                                           "%(shown)s"),
                                        {"claimed": ";".join(record.scores), "shown": shown}),
                                rule="scores-mismatch", column="scores")
            error.by_rules = True
            raise error
        return outcome

    @staticmethod
    def _claimed_scores(game: Game, record: DealRecord) -> list | None:
        if record.scores is None:
            return None
        parse = game.parse_score
        if getattr(parse, "__func__", None) is _PARSE_SCORE:
            parse = int  # what Game.parse_score does, without a call of its own per score
        try:  # the hot path: every score parses, and none is a float
            values = list(map(parse, record.scores))
            if parse is int or float not in map(type, values):
                return values
        except (ValueError, TypeError, ArithmeticError):
            pass
        values = []  # the careful way: the seat of the first score that is not one
        for seat, text in enumerate(record.scores):
            try:
                value = game.parse_score(text)
                # float("nan"), float("inf") and float("1e999") parse, but no game
                # scores them (and engines' int() of them crashed: hardening)
                if isinstance(value, float) and not math.isfinite(value):
                    raise ValueError(text)
                values.append(value)
            except (ValueError, TypeError, ArithmeticError):
                raise RecordError(not_a_score(text[:40]), rule="score",
                                  column="scores", seat=seat) from None
        return values

    # ------------------------------------------------------------------ matches

    def check_match(self, deals: list[DealCheck],
                    key: tuple[str | None, int | None, str | None] | None = None) -> MatchCheck:
        """Check one match's deals (any order) against the match rules. ``key``
        names the match when no deal could be read (its rows all unreadable).

        A valid match is checked by :func:`~tourney.engines.match.check_match`
        alone (the hot path); only a match it refuses, or one with a refused row,
        or a deal number twice, is looked at again for every problem that can be
        told apart (:meth:`match_problems`)."""
        first = next((d.record for d in deals if d.record is not None), None)
        if first is not None:
            match = MatchCheck(first.event, first.round, first.table,
                               first.variant or self.variant, lines=[d.line for d in deals])
        else:
            event, number, table = key or (None, None, None)
            match = MatchCheck(event, number, table, self.variant,
                               lines=[d.line for d in deals])
        if self.keep_deals:
            match.deals = deals
        bad = [d for d in deals if d.error is not None]  # not d.valid, without a call each
        if bad:
            lines = ", ".join(str(d.line) for d in bad)
            match.errors = [RecordError(Message(N_("the match has invalid deals (line %(lines)s)")
                                                if len(bad) == 1 else
                                                N_("the match has invalid deals (lines %(lines)s)"),
                                                {"lines": lines}),
                                        rule="invalid-deals", line=bad[0].line)]
            match.errors += self.match_problems(deals)
            return match
        numbers = [d.record.deal for d in deals]
        if len(set(numbers)) != len(numbers):  # a number given twice: which, and what else
            match.errors = self.match_problems(deals)
            return match
        # the deals in number order (a stable sort: as they are, when they are in order)
        ordered = (deals if numbers == sorted(numbers)
                   else sorted(deals, key=lambda d: d.record.deal))
        try:
            game, options = self.game_and_options(first)
            match.variant = game.id
            played = [PlayedDeal(d.line, d.record.deal, d.record.players, d.record.dealer,
                                 d.outcome.scores) for d in ordered]
            match.result = check_match(game.match_rules(options), played)
        except RecordError as err:
            err.by_rules = True  # the match rules (deals, target, dealer) decided it
            match.errors = self.match_problems(deals) or [err]
        return match

    def match_problems(self, deals: list[DealCheck]) -> list[RecordError]:
        """Every problem of a match's rows as a match (:func:`match_problems`),
        with the match rules of its game when a row of it was checked."""
        rules = None
        valid = next((d.record for d in deals if d.error is None), None)
        if valid is not None:
            try:
                game, options = self.game_and_options(valid)
                rules = game.match_rules(options)
            except RecordError:
                pass
        return match_problems(deals, rules, place=self.place)

    # ------------------------------------------------------------------ a stream

    def check_stream(self, records: Iterable[DealRecord | RecordError], *,
                     resolve: Callable[[DealRecord], None] | None = None,
                     guess_key: Callable[[RecordError], tuple | None] | None = None,
                     ) -> Iterator[DealCheck | MatchCheck]:
        """Yield a :class:`DealCheck` per row as it is read and a
        :class:`MatchCheck` as each match's rows end: the one match grouper of
        ``tourney validate`` and ``tourney result import``.

        Every row belongs to exactly one match: the :class:`DealCheck` of each row
        comes before the :class:`MatchCheck` of its match, and every DealCheck
        yielded belongs to the next MatchCheck yielded. A match is the run of rows
        with one key (event, round, table):

        - a row that cannot be read joins the match ``guess_key(error)`` names
          (by default, for a :class:`~tourney.records.csv_format.RecordReader`,
          the row's event, round and table cells when they are readable: see
          :func:`row_key_guesser`), else the match it follows (a file's first
          rows, unreadable, form a match of no key: round and table None);
        - rows of a match that closed earlier are each refused (``match-split``)
          and stand as a match of their own, so the first occurrence is unharmed;
        - past :data:`MAX_DEALS_PER_MATCH` deals each row is refused
          (``match-too-long``), and only the first refused one is kept on the
          match (bounded memory for a hostile file of one endless match);
        - ``resolve(record)``, when given, completes a record before it is keyed
          (the importer fills event and variant from the database) and may raise
          :class:`RecordError`: the row is then refused and kept in its match (a
          bad event cell amid a match's rows joins that match: a slip in it, not a
          match of its own).

        A reader given a file name (``filename``: a :class:`RecordReader`'s, as
        :func:`~tourney.records.csv_format.open_records` names it) names that file in
        every error whose file is not known yet, the problem of the file as a whole
        it raises too.
        """
        checks = self._checks(records, resolve, guess_key)
        name = getattr(records, "filename", None)
        if name is None:
            yield from checks
            return
        try:
            for check in checks:
                for error in (check.errors if isinstance(check, MatchCheck)
                              else (check.error,) if check.error is not None else ()):
                    if error.file is None:
                        error.file = name
                yield check
        except RecordError as err:
            if err.file is None:
                err.file = name
            raise

    def _checks(self, records, resolve, guess_key) -> Iterator[DealCheck | MatchCheck]:
        """:meth:`check_stream`'s checks, files not named."""
        current_key = None
        current: list[DealCheck] = []
        count = 0  # rows of the open match
        closed: dict[tuple, int] = {}  # key -> first line of its first match
        check_deal = self.check_deal
        place = self.place = row_place(records)
        deal_cell = None
        if hasattr(records, "raw_row"):
            deal_cell = raw_deal_number(records)
            if guess_key is None:
                guess_key = row_key_guesser(records)
        for item in records:
            if isinstance(item, RecordError):
                key = guess_key(item) if guess_key is not None else None
                check = DealCheck(item.line or 0, None, error=item,
                                  number=deal_cell() if deal_cell is not None else None)
                if key is None or key == current_key:
                    if not count:
                        current_key = None
                    key = current_key
                else:
                    if count:
                        closed.setdefault(current_key, current[0].line)
                        if len(closed) > MAX_MATCHES_PER_FILE:
                            raise too_many_matches(item.line)
                        yield self.check_match(current, current_key)
                    current, count, current_key = [], 0, key
                yield check
                count += 1
                if count <= MAX_DEALS_PER_MATCH + 1:
                    current.append(check)
                continue
            error = None
            if resolve is not None:
                try:
                    resolve(item)
                except RecordError as err:
                    if err.line is None:
                        err.line = item.line
                    error = err
            key = item.match_key
            if (error is not None and error.column == "event" and count
                    and current_key is not None and key[1:] == current_key[1:]):
                key = current_key  # a slip in the open match's rows
            if key != current_key or not count:
                if count:
                    closed.setdefault(current_key, current[0].line)
                    if len(closed) > MAX_MATCHES_PER_FILE:
                        raise too_many_matches(item.line)
                    yield self.check_match(current, current_key)
                current, count, current_key = [], 0, key
            count += 1
            if error is not None:
                check = DealCheck(item.line, item, error=error)
            elif key in closed:
                check = DealCheck(item.line, item, error=RecordError(
                    match_split(item.round, item.table, item.event,
                                place(closed[key], "table")),
                    rule="match-split", line=item.line, column="table"))
            elif count > MAX_DEALS_PER_MATCH:
                check = DealCheck(item.line, item, error=RecordError(
                    Message(N_("match round %(round)s, table %(table)s has more than %(most)s "
                               "deals; no match is that long"),
                            {"round": item.round, "table": item.table,
                             "most": MAX_DEALS_PER_MATCH}),
                    rule="match-too-long", line=item.line, column="deal"))
            else:
                check = check_deal(item)
            yield check
            if count <= MAX_DEALS_PER_MATCH + 1:
                current.append(check)
        if count:
            yield self.check_match(current, current_key)


def raw_deal_number(reader) -> Callable[[], int | None]:
    """The deal cell of the row ``reader`` just gave (a
    :class:`~tourney.records.csv_format.RecordReader`), as a deal number when it
    reads as one, for a row that could not be read otherwise."""
    def number() -> int | None:
        columns, raw = reader.columns, reader.raw_row
        if "deal" not in columns or len(raw) != len(columns):
            return None
        text = raw[columns.index("deal")].strip()
        if not (text.isascii() and text.isdigit()) or not 1 <= int(text) <= MAX_DEAL_NUMBER:
            return None
        return int(text)
    return number


def row_key_guesser(reader, default_event: str | None = None
                    ) -> Callable[[RecordError], tuple | None]:
    """For :meth:`RecordChecker.check_stream`: the match of an unreadable row of
    ``reader`` (a :class:`~tourney.records.csv_format.RecordReader`), when its
    event (or ``default_event``), round and table cells are readable."""
    def guess(_err: RecordError) -> tuple | None:
        columns, raw = reader.columns, reader.raw_row
        if len(raw) != len(columns):
            return None
        fields = dict(zip(columns, raw))
        number = fields.get("round", "").strip()
        if not (number.isascii() and number.isdigit()):
            return None
        table = fields.get("table", "").strip()
        event = (fields.get("event") or "").strip() or default_event
        if not table:
            return None
        return (event, int(number), table)
    return guess


def match_problems(deals: list[DealCheck], rules: MatchRules | None, *,
                   place: RowPlace = line_place,
                   seated: tuple[list[str], dict[str, str]] | None = None
                   ) -> list[RecordError]:
    """Every problem of a match's rows as a match that can be told apart from the
    others, by line: each deal number given twice (:func:`deals_twice`), then what
    :func:`~tourney.engines.match.match_errors` finds of the rows that were read,
    a row's own refusal kept out of it (a row refused for its players is not
    compared with the others' players, one refused for its dealer has no dealer
    to judge, one refused by the rules has no scores). Nothing, when the rows
    stand where no match can be (:data:`GROUPING_RULES`).

    ``seated``: (the seated players in seat order, file name -> seated name),
    to check the match as if its deal 1 were as seated: its players in seat order
    (and every deal listing them as deal 1 does), seat 1 dealing it. The importer
    asks it to tell the dealer and players errors that the seating explains.
    """
    if any(d.error is not None and d.error.rule in GROUPING_RULES for d in deals):
        return []
    read = [d for d in deals if d.record is not None]
    errors = deals_twice(read, place)
    # Each deal number once (its first row), an unreadable row's too when its deal
    # cell reads (it counts for the numbering, not for the players or dealer).
    numbered = [(d.record.deal if d.record is not None else d.number, d) for d in deals]
    distinct, numbers = [], set()
    for number, check in sorted((n for n in numbered if n[0] is not None),
                                key=lambda n: n[0]):
        if number not in numbers:
            numbers.add(number)
            distinct.append((number, check))
    played = []
    for number, check in distinct:
        record, error = check.record, check.error
        if record is None:
            played.append(PlayedDeal(check.line, number, None, None, None))
            continue
        column = error.column if error is not None else None
        scores = check.outcome.scores if check.outcome is not None else None
        played.append(PlayedDeal(check.line, number,
                                 None if column == "players" else record.players,
                                 None if column in ("players", "dealer") else record.dealer,
                                 scores))
    if seated is not None and played and played[0].number == 1 and played[0].players:
        played = _as_seated(played, *seated)
    problems = match_errors(rules, played,
                            numbered=all(number is not None for number, _ in numbered))
    for err in problems:
        err.by_rules = True  # the match rules (deals, target, dealer) decided it
    errors += problems
    errors.sort(key=lambda err: (err.line is None, err.line or 0))
    return errors


def _as_seated(played: list[PlayedDeal], names: list[str], aliases: dict[str, str]
               ) -> list[PlayedDeal]:
    """The deals with deal 1 as seated (see :func:`match_problems`): every deal
    listing the players as deal 1 does lists them in seat order (scores going with
    their players), and seat 1 deals deal 1."""
    written = played[0].players
    seated = set(names)
    out = []
    for deal in played:
        players, dealer, scores = deal.players, deal.dealer, deal.scores
        if players == written:
            if dealer is not None:
                dealer = aliases.get(dealer, dealer)
                if dealer not in seated:
                    dealer = None  # not at the table: not judged
            if scores is not None:
                by_name = {aliases.get(p, p): s for p, s in zip(players, scores)}
                scores = [by_name[n] for n in names] if seated <= by_name.keys() else None
            players = list(names)
        if deal.number == 1 and dealer is not None:
            dealer = names[0]
        out.append(PlayedDeal(deal.line, deal.number, players, dealer, scores))
    return out


def deals_twice(deals: list[DealCheck], place: RowPlace = line_place) -> list[RecordError]:
    """Each deal number given again in one match (the rows read, in file order):
    the same row twice (``duplicate-row``), or two different deals under one
    number (``duplicate-deal``); ``place`` names the earlier row."""
    seen: dict[int, DealCheck] = {}
    errors = []
    for check in deals:
        number = check.record.deal
        other = seen.get(number)
        if other is None:
            seen[number] = check
            continue
        where = place(other.line, "deal")
        if replace(other.record, line=check.record.line) == check.record:
            text = Message(N_("a duplicate row: deal %(number)s of this match is also on "
                              "%(where)s"), {"number": number, "where": where})
            rule = "duplicate-row"
        else:
            text = Message(N_("deal %(number)s of this match appears twice with different "
                              "content (also on %(where)s)"), {"number": number, "where": where})
            rule = "duplicate-deal"
        errors.append(RecordError(text, rule=rule, line=check.line, column="deal"))
    return errors
