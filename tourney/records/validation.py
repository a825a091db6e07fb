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
from ..engines.base import DealOutcome, Game
from ..engines.match import MatchRanking, PlayedDeal, check_match
from ..errors import IllegalMove, RecordError, TourneyError, UsageError
from ..numbers import plural_word
from .csv_format import DealRecord


@dataclass
class DealCheck:
    line: int
    record: DealRecord | None
    outcome: DealOutcome | None = None
    error: RecordError | None = None

    @property
    def valid(self) -> bool:
        return self.error is None


@dataclass
class MatchCheck:
    event: str | None
    round: int | None  # None (and table None): a file's first rows, none readable
    table: str | None
    variant: str | None
    lines: list[int] = field(default_factory=list)
    result: MatchRanking | None = None
    error: RecordError | None = None
    deals: list[DealCheck] = field(default_factory=list)

    @property
    def valid(self) -> bool:
        return self.error is None

    @property
    def key(self) -> tuple[str | None, int, str]:
        return (self.event, self.round, self.table)


OptionsFor = Callable[[DealRecord, Game], dict]
_PARSE_SCORE = Game.parse_score

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
            raise RecordError("no variant: add a variant column or name the variant",
                              rule="variant", column="variant", setting="variant")
        try:
            game = get_game(variant)
        except UsageError as err:
            raise RecordError(str(err), rule="variant", column="variant") from None
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
            raise RecordError(f"{game.id} is played by {game.min_players}-{game.max_players} "
                              f"players, not {n}", rule="player-count", column="players")
        if game.uses_dealer and record.dealer is None:
            raise RecordError(f"{game.id} needs the dealer's name", rule="dealer",
                              column="dealer")
        if not game.uses_dealer and record.dealer is not None:
            raise RecordError(f"{game.id} has no dealer; leave the column empty",
                              rule="dealer", column="dealer")
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
            raise RecordError(str(err), rule="record") from None
        except Exception as err:  # an engine bug must not become a traceback
            raise RecordError(f"the {game.id} engine failed on this record "
                              f"({type(err).__name__}: {err}); please report it",
                              rule="internal") from None
        if claimed is not None and claimed != list(outcome.scores):
            shown = ";".join(game.format_score(s) for s in outcome.scores)
            error = RecordError(f"claimed scores {';'.join(record.scores)} but the rules "
                                f"give {shown}", rule="scores-mismatch", column="scores")
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
                raise RecordError(f"{text[:40]!r} is not a score", rule="score",
                                  column="scores", seat=seat) from None
        return values

    # ------------------------------------------------------------------ matches

    def check_match(self, deals: list[DealCheck],
                    key: tuple[str | None, int | None, str | None] | None = None) -> MatchCheck:
        """Check one match's deals (any order) against the match rules. ``key``
        names the match when no deal could be read (its rows all unreadable)."""
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
            match.error = RecordError(f"the match has invalid deals "
                                      f"({plural_word(len(bad), 'line')} {lines})",
                                      rule="invalid-deals", line=bad[0].line)
            return match
        numbers = [d.record.deal for d in deals]
        # _deal_twice finds a number given twice (only then is it asked which)
        twice = _deal_twice(deals) if len(set(numbers)) != len(numbers) else None
        if twice is not None:
            match.error = twice
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
            match.error = err
        return match

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
        """
        current_key = None
        current: list[DealCheck] = []
        count = 0  # rows of the open match
        closed: dict[tuple, int] = {}  # key -> first line of its first match
        check_deal = self.check_deal
        if guess_key is None and hasattr(records, "raw_row"):
            guess_key = row_key_guesser(records)
        for item in records:
            if isinstance(item, RecordError):
                key = guess_key(item) if guess_key is not None else None
                check = DealCheck(item.line or 0, None, error=item)
                if key is None or key == current_key:
                    if not count:
                        current_key = None
                    key = current_key
                else:
                    if count:
                        closed.setdefault(current_key, current[0].line)
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
                    yield self.check_match(current, current_key)
                current, count, current_key = [], 0, key
            count += 1
            if error is not None:
                check = DealCheck(item.line, item, error=error)
            elif key in closed:
                of = f" of {item.event}" if item.event else ""
                check = DealCheck(item.line, item, error=RecordError(
                    f"the rows of match round {item.round}, table {item.table}{of} must "
                    f"stand together; the match began at line {closed[key]}",
                    rule="match-split", line=item.line, column="table"))
            elif count > MAX_DEALS_PER_MATCH:
                check = DealCheck(item.line, item, error=RecordError(
                    f"match round {item.round}, table {item.table} has more than "
                    f"{MAX_DEALS_PER_MATCH} deals; no match is that long",
                    rule="match-too-long", line=item.line, column="deal"))
            else:
                check = check_deal(item)
            yield check
            if count <= MAX_DEALS_PER_MATCH + 1:
                current.append(check)
        if count:
            yield self.check_match(current, current_key)


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


def _deal_twice(deals: list[DealCheck]) -> RecordError | None:
    """A deal number given twice in one match: the same row twice, or two
    different deals under one number."""
    seen: dict[int, DealCheck] = {}
    for check in deals:
        number = check.record.deal
        other = seen.get(number)
        if other is None:
            seen[number] = check
            continue
        if replace(other.record, line=check.record.line) == check.record:
            text = f"a duplicate row: deal {number} of this match is also on line {other.line}"
            rule = "duplicate-row"
        else:
            text = (f"deal {number} of this match appears twice with different content "
                    f"(also on line {other.line})")
            rule = "duplicate-deal"
        return RecordError(text, rule=rule, line=check.line, column="deal")
    return None
