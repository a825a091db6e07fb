"""Reading the database into plain view data for the site. Every query the site
makes is in this module; templates and the page builder see only the dataclasses.

Loading is in bulk, never per row: the whole site needs a handful of queries for
players, events, counts and ratings, then per event a few for its standings,
rounds and matches, and per round one for its deals. Nothing here loads ORM
objects per match or per player (no N+1), and rows are read as plain tuples.

Decisions:

- An event's *status*: ``upcoming`` until its first round is seated; ``finished``
  when every round it plans (``Event.rounds``) is seated and every seated table has a
  result, or, for an open-ended event, when its date has passed and every seated
  table has a result; ``running`` otherwise.
- Standings come from :func:`tourney.tournament.standings.standings_table`, the same
  function as ``tourney standings``, so the site and the CLI never disagree.
- Leaderboards come from :func:`tourney.ratings.service.rating_list` (provisional
  players apart, the pool's threshold); rating histories are read per pool in one
  query.
"""
from __future__ import annotations

import datetime as dt
import hashlib
import marshal
from collections.abc import Collection
from dataclasses import dataclass, field
from typing import NamedTuple

from sqlalchemy import Numeric, and_, cast, func, select
from sqlmodel import Session

from tourney.errors import TourneyError
from tourney.ordering import natural_key
from tourney.ratings.service import (
    RatingEntry,
    rating_list,
    rating_list_before,
    ratings_before,
)
from tourney.storage.models import (
    Adjustment,
    Deal,
    Entry,
    Event,
    Forfeit,
    Match,
    MatchPlace,
    MatchVersion,
    Player,
    Rating,
    RatingHistory,
    RatingPool,
    Round,
    Seat,
    Series,
    SeriesEvent,
    SeriesHandicap,
    SiteSetting,
    Team,
    TeamMember,
)
from tourney.tournament.scoring import event_bye_points
from tourney.tournament.settings import event_settings
from tourney.tournament.standings import (
    StandingRow,
    event_tiebreaks,
    standings_table,
)

PLAYERS_PER_QUERY = 500  # player ids in one IN (...) list

# ------------------------------------------------------------------------ view data

@dataclass(slots=True)
class PlayerInfo:
    id: int
    name: str
    club: str | None
    merged_into: int | None


@dataclass
class EventInfo:
    id: int
    slug: str
    name: str
    variant: str
    date: dt.date | None
    lang: str | None
    rounds_planned: int | None
    table_min: int
    table_max: int
    table_preferred: int
    seating: str
    seed: int
    rules: dict  # as given (key -> text)
    options: dict | None  # resolved by the engine; None if it refuses them
    tiebreaks: list[str]
    points: str = "share"  # the points system (tourney.tournament.scoring)
    bye_points: float = 1.0  # what a bye is worth in this event
    entrants: int = 0
    rounds_seated: int = 0
    tables_seated: int = 0
    results_in: int = 0
    forfeited: int = 0  # tables scored by a forfeit (decided without a result)
    status: str = "upcoming"
    created: dt.datetime | None = None
    # Changes with any write to the event's rows (``Event.content_stamp``, kept by
    # triggers): the event's pages are reused while it, this info and the names of
    # its players are unchanged.
    stamp: int | None = None

    @property
    def sort_date(self) -> dt.date:
        if self.date is not None:
            return self.date
        return self.created.date() if self.created is not None else dt.date.min


@dataclass(slots=True)
class PlaceData:
    player_id: int
    seat: int
    place: int
    total: float
    match_points: float


@dataclass
class MatchData:
    id: int
    event_id: int
    round: int
    table: str
    version_id: int | None
    version: int | None = None
    imported_at: dt.datetime | None = None
    imported_by: str | None = None
    deals: int = 0
    verified_moves: int = 0
    places: list[PlaceData] = field(default_factory=list)  # by seat

    @property
    def has_result(self) -> bool:
        return self.version_id is not None and bool(self.places)


class ForfeitData(NamedTuple):
    """A table scored by a forfeit (``tourney result forfeit``): the players who did
    not play (0 points; the table's others a bye's worth each) and the reason given,
    if any."""
    absent: tuple[int, ...]
    reason: str | None = None
    at: dt.datetime | None = None  # when the arbiter forfeited the table


@dataclass
class TableData:
    label: str
    players: list[int]  # seat order
    match: MatchData | None = None
    forfeit: ForfeitData | None = None

    @property
    def decided(self) -> bool:
        """Whether the table has its result in, or was forfeited."""
        return self.forfeit is not None or (self.match is not None and self.match.has_result)


@dataclass
class RoundData:
    number: int
    tables: list[TableData]
    byes: list[int]
    repeated_pairs: int = 0
    seated_at: dt.datetime | None = None
    # changes with any write to the round's seats, matches and forfeits
    # (``Round.content_stamp``, kept by triggers): see SiteReader.event_data's ``known``
    stamp: int | None = None

    @property
    def results_in(self) -> int:
        """The tables decided: with a result in, or forfeited."""
        return sum(1 for t in self.tables if t.decided)


@dataclass(slots=True)
class EntryData:
    player_id: int
    first_round: int
    withdrawn_after: int | None


class UnreadRound(NamedTuple):
    """A round :meth:`SiteReader.event_data` was told it need not read (``known``):
    its row, without its seats, matches and forfeits."""
    number: int
    repeated_pairs: int
    seated_at: dt.datetime | None
    stamp: int


@dataclass
class EventData:
    info: EventInfo
    entries: list[EntryData]
    standings: list[StandingRow]
    rounds: list[RoundData]  # the rounds read, by number
    matches: list[MatchData]  # every match with a row of the rounds read, by round and table
    standings_error: str | None = None
    # While a round is being played (a seated round lacks a result), the standings
    # are those after the last round with every result in, and this says which (0:
    # none is); None: the standings after every seated round. See event_data.
    after_round: int | None = None
    # the seated rounds not read (event_data's ``known``), by number; while there is
    # one, ``rounds`` and ``matches`` hold only the others'
    unread: dict[int, UnreadRound] = field(default_factory=dict)


@dataclass(slots=True)
class DealData:
    version_id: int
    number: int
    players: str
    dealer: str | None
    scores: str
    verified: str
    hands: str = ""
    stock: str = ""
    passes: str = ""
    play: str = ""


class HistoryPoint(NamedTuple):
    """One rated match of a player (a tuple: there are hundreds of thousands)."""

    sequence: int
    match_id: int
    place: int
    mu_before: float
    sigma_before: float
    mu_after: float
    sigma_after: float


@dataclass
class PoolData:
    variant: str
    provisional_matches: int
    leaderboard: list[RatingEntry] | None  # established first, then provisional (rating_list order)
    # player id -> points in rating order: every player's, or only those loaded
    # (:meth:`SiteReader.load_history`)
    history: dict[int, list[HistoryPoint]]
    pool_id: int = 0
    # the leaderboard the site's lists show (:meth:`SiteReader.boards_before`): without
    # the results of rounds being played, and those rounds, (event id, round) each
    board: list[RatingEntry] | None = None
    board_pending: list[tuple[int, int]] = field(default_factory=list)
    # player id -> a digest of the player's history in this pool, made by the
    # database (count, last sequence, highest row id, sums of the values), for
    # the player's page's key without reading the history; and the events of
    # the matches the history links to
    digest: dict[int, tuple] = field(default_factory=dict)
    history_events: dict[int, set[int]] = field(default_factory=dict)
    # a publish into a site it published before reads the leaderboard (None until
    # then, :meth:`SiteReader.load_boards`), the digests and history events (of the
    # players asked for, :meth:`SiteReader.load_digests`) only as far as it needs them
    digests_of: set[int] | None = None  # None: every player's are loaded
    # what the board is made of (:meth:`SiteReader.board_marks`): a digest of its
    # ratings (as they stood before the rounds being played) and the pool's settings;
    # and how many players the leaderboard has
    board_mark: str = ""
    rated: int = 0
    model: str = ""
    params_json: str | None = None
    # changed by the database whenever a row of the pool's history is deleted or
    # changed, not when one is appended (migration 0015)
    history_stamp: int | None = None


# ------------------------------------------------------------------------ reading

def round_decided(rnd: RoundData) -> bool:
    """Whether every table of a round is decided as the standings count it (its match
    has a current version, or it was forfeited)."""
    return not any(t.forfeit is None and (t.match is None or t.match.version_id is None)
                   for t in rnd.tables)


def event_status(info: EventInfo, today: dt.date) -> str:
    if info.rounds_seated == 0:
        return "upcoming"
    all_in = info.results_in + info.forfeited >= info.tables_seated
    if info.rounds_planned is not None:
        return "finished" if info.rounds_seated >= info.rounds_planned and all_in else "running"
    if info.date is not None and info.date < today and all_in:
        return "finished"
    return "running"


class SiteReader:
    """The site's queries, over one read session."""

    def __init__(self, session: Session):
        self.session = session
        self._event_rows: dict[int, Event] = {}
        # the players' rows as :meth:`content_stamp` read them (the same read session):
        # :meth:`players` makes its infos of them instead of reading them again
        self._player_rows: list | None = None
        # per rating pool, its history's count of rows and highest row id, as
        # :meth:`content_stamp` read them (see :meth:`history_tops`)
        self._history_tops: dict[int, tuple[int, int]] | None = None

    def _rows(self, statement) -> list:
        """A query of columns, run on the session's connection and fetched at once:
        plain rows (the ORM's handling of each row, and fetching them one by one,
        cost more than reading them, and a big league's publish reads hundreds of
        thousands)."""
        return self.session.connection().execute(statement).fetchall()

    # ---- whole site

    def _players_rows(self) -> list:
        if self._player_rows is None:
            self._player_rows = self._rows(select(
                Player.id, Player.name, Player.club, Player.merged_into_id).order_by(Player.id))
        return self._player_rows

    def players(self) -> dict[int, PlayerInfo]:
        rows = self._players_rows()
        return {pid: PlayerInfo(pid, name, club, merged) for pid, name, club, merged in rows}

    def events(self, today: dt.date) -> list[EventInfo]:
        """Every event with its counts, newest first (by date, then creation)."""
        session = self.session
        entrants = dict(self._rows(
            select(Entry.event_id, func.count()).group_by(Entry.event_id)))
        rounds = dict(self._rows(
            select(Round.event_id, func.max(Round.number)).group_by(Round.event_id)))
        tables: dict[int, int] = {}  # seated tables (a bye is no table)
        table_rows = self._rows(
            select(Round.event_id, Seat.round_id, Seat.table)
            .join(Round, Round.id == Seat.round_id)
            .where(Seat.table.is_not(None))
            .group_by(Round.event_id, Seat.round_id, Seat.table))
        for event_id, _round_id, _table in table_rows:
            tables[event_id] = tables.get(event_id, 0) + 1
        results = dict(self._rows(
            select(Match.event_id, func.count())
            .where(Match.current_version_id.is_not(None))
            .group_by(Match.event_id)))
        forfeited: dict[int, int] = {}
        for event_id, _round, _table in self._rows(
                select(Forfeit.event_id, Forfeit.round_number, Forfeit.table).distinct()):
            forfeited[event_id] = forfeited.get(event_id, 0) + 1
        infos = []
        for event in session.execute(select(Event)).scalars():
            self._event_rows[event.id] = event
            info = self._info(event)
            info.entrants = entrants.get(event.id, 0)
            info.rounds_seated = rounds.get(event.id) or 0
            info.tables_seated = tables.get(event.id, 0)
            info.results_in = results.get(event.id, 0)
            info.forfeited = forfeited.get(event.id, 0)
            info.status = event_status(info, today)
            infos.append(info)
        infos.sort(key=lambda e: (e.sort_date, e.id), reverse=True)
        return infos

    @staticmethod
    def _info(event: Event) -> EventInfo:
        # A broken event (stored settings edited by hand) still gets its pages,
        # without the rules in words and the tie-break columns.
        try:
            settings = event_settings(event)
            rules, options = settings.rules, settings.options
        except TourneyError:
            rules, options = {}, None
        try:
            tiebreaks = event_tiebreaks(event)
        except TourneyError:
            tiebreaks = []
        return EventInfo(
            id=event.id, slug=event.slug, name=event.name, variant=event.variant,
            date=event.date, lang=event.lang, rounds_planned=event.rounds,
            table_min=event.table_min, table_max=event.table_max,
            table_preferred=event.table_preferred, seating=event.seating, seed=event.seed,
            rules=rules, options=options, tiebreaks=tiebreaks, points=event.points,
            bye_points=event_bye_points(event), created=event.created_at,
            stamp=event.content_stamp)

    def content_stamp(self, today: dt.date) -> tuple:
        """What the whole site is made of, in a few queries that read no event's
        rows: equal stamps, an equal site (publish then renders nothing).

        Per table: the events' rows with their content stamps (which triggers change
        on any write to an event's entries, rounds, seats, matches, places,
        forfeits and adjustments); the players' names, clubs and merges; the
        rating pools; per pool, the ratings' count, sums and highest id and the
        histories' count and highest id (a rated match adds to the matches' sum,
        a re-rating writes new rows); the series, their events, handicaps and
        teams; the site's settings; and today (an event's status depends on it).
        Updates in place outside the events are of names, settings and series,
        read here in full."""
        numeric = lambda column: func.sum(cast(column, Numeric))  # noqa: E731 exact on PG
        tables = [self._rows(select(model.__table__).order_by(model.id))
                  for model in (Event, RatingPool, Series, SeriesEvent, SeriesHandicap, Team,
                                TeamMember, SiteSetting)]
        players = self._players_rows()
        ratings = self._rows(
            select(Rating.pool_id, func.count(), func.max(Rating.id), func.sum(Rating.matches),
                   numeric(Rating.mu), numeric(Rating.sigma))
            .group_by(Rating.pool_id).order_by(Rating.pool_id))
        histories = self._history_rows()
        self._history_tops = {pool_id: (count, top) for pool_id, count, top in histories}
        return (today, [[tuple(row) for row in rows] for rows in tables],
                [tuple(row) for row in players], [tuple(row) for row in ratings],
                [tuple(row) for row in histories])

    def _history_rows(self) -> list:
        return self._rows(
            select(RatingHistory.pool_id, func.count(), func.max(RatingHistory.id))
            .group_by(RatingHistory.pool_id).order_by(RatingHistory.pool_id))

    def history_tops(self) -> dict[int, tuple[int, int]]:
        """Per rating pool with a history, its count of rows and highest row id (those
        :meth:`content_stamp` read, in the same read session, if it ran)."""
        if self._history_tops is None:
            self._history_tops = {pool_id: (count, top)
                                  for pool_id, count, top in self._history_rows()}
        return self._history_tops

    def pools(self, history: bool = True, lazy: bool = False) -> list[PoolData]:
        """Every rating pool: its leaderboard, each player's history digest and
        history events, and (``history``) every player's history. ``lazy``: none of
        them (:meth:`load_boards`, :meth:`load_digests`, :meth:`load_history` read
        them as far as they are needed)."""
        pools = []
        pool_rows = self._rows(
            select(RatingPool.id, RatingPool.variant, RatingPool.provisional_matches,
                   RatingPool.model, RatingPool.params_json, RatingPool.history_stamp)
            .order_by(RatingPool.variant))
        for pool_id, variant, provisional, model, params_json, stamp in pool_rows:
            pools.append(PoolData(variant, provisional, None, {}, pool_id, model=model,
                                  params_json=params_json, digests_of=set(),
                                  history_stamp=stamp))
        if lazy:
            return pools
        self.load_boards(pools)
        self.load_digests(pools, None)
        if history:
            self.load_history(pools, None)
        return pools

    def load_boards(self, pools: list[PoolData]) -> None:
        """Each pool's leaderboard (:func:`rating_list`), if not read yet."""
        if all(pool.leaderboard is not None for pool in pools):
            return
        by_variant: dict[str, list[RatingEntry]] = {}
        for entry in rating_list(self.session):
            by_variant.setdefault(entry.variant, []).append(entry)
        for pool in pools:
            pool.leaderboard = by_variant.get(pool.variant, [])

    def rating_entries(self, pools: list[PoolData], player_ids: Collection[int]
                       ) -> dict[str, dict[int, RatingEntry]]:
        """Per game, these players' entries of its leaderboard, by player id (from the
        leaderboard if it was read, else only theirs)."""
        out: dict[str, dict[int, RatingEntry]] = {pool.variant: {} for pool in pools}
        if all(pool.leaderboard is not None for pool in pools):
            wanted = set(player_ids)
            for pool in pools:
                out[pool.variant] = {e.player_id: e for e in pool.leaderboard
                                     if e.player_id in wanted}
            return out
        for entry in rating_list(self.session, player_ids=list(player_ids)):
            out.setdefault(entry.variant, {})[entry.player_id] = entry
        return out

    def load_digests(self, pools: list[PoolData], player_ids: Collection[int] | None) -> None:
        """Each player's history digest and history events in each pool (None: every
        player's), those not read yet."""
        h = RatingHistory
        for pool in pools:
            if pool.digests_of is None:
                continue  # every player's are read
            ids = None if player_ids is None else sorted(set(player_ids) - pool.digests_of)
            if ids == []:
                continue
            digest_query = (select(h.player_id, func.count(), func.max(h.sequence),
                                   func.max(h.id), func.sum(h.match_id), func.sum(h.place),
                                   func.sum(h.mu_before), func.sum(h.sigma_before),
                                   func.sum(h.mu_after), func.sum(h.sigma_after))
                            .where(h.pool_id == pool.pool_id).group_by(h.player_id))
            events_query = (select(h.player_id, Match.event_id).distinct()
                            .join(Match, Match.id == h.match_id)
                            .where(h.pool_id == pool.pool_id))
            chunks = [None] if ids is None else [
                ids[i:i + PLAYERS_PER_QUERY] for i in range(0, len(ids), PLAYERS_PER_QUERY)]
            for chunk in chunks:
                where = [] if chunk is None else [h.player_id.in_(chunk)]
                for player_id, *digest in self._rows(digest_query.where(*where)):
                    pool.digest[player_id] = tuple(digest)
                for player_id, event_id in self._rows(events_query.where(*where)):
                    found = pool.history_events.get(player_id)
                    if found is None:
                        found = pool.history_events[player_id] = set()
                    found.add(event_id)
            if ids is None:
                pool.digests_of = None
            else:
                pool.digests_of.update(ids)

    def history_players(self, event_id: int) -> set[int]:
        """The players with a rating history row of a match of this event (any pool)."""
        return {pid for pid, in self._rows(
            select(RatingHistory.player_id).distinct()
            .join(Match, Match.id == RatingHistory.match_id)
            .where(Match.event_id == event_id))}

    def board_marks(self, pools: list[PoolData], pending: Collection[int]) -> None:
        """Each pool's ``board_mark``: a digest of what its board (:meth:`boards_before`)
        is made of, without ranking it: the pool's settings and each rated player's
        (players merged into another left out) μ, σ and matches, as they stood before
        the matches ``pending`` for the players of those; and ``rated``, the count
        of its leaderboard's players. With the players' names, the mark stands for
        the board: its entries, their order and which are provisional."""
        rows = self._rows(
            select(Rating.pool_id, Rating.player_id, Rating.mu, Rating.sigma, Rating.matches)
            .join(Player, Player.id == Rating.player_id)
            .where(Player.merged_into_id.is_(None))
            .order_by(Rating.pool_id, Rating.player_id))
        before = ratings_before(self.session, list(pending)) if pending else {}
        by_pool: dict[int, list[tuple]] = {}
        counts: dict[int, int] = {}
        for pool_id, pid, mu, sigma, matches in rows:
            counts[pool_id] = counts.get(pool_id, 0) + 1
            was = before.get((pool_id, pid))
            if was is not None:
                mu, sigma, later = was
                matches -= later
                if matches <= 0:
                    continue  # not rated before them: not on the board
            found = by_pool.get(pool_id)
            if found is None:
                found = by_pool[pool_id] = []
            found.append((pid, float(mu), float(sigma), int(matches)))
        for pool in pools:
            pool.rated = counts.get(pool.pool_id, 0)
            data = marshal.dumps((pool.variant, pool.provisional_matches, pool.model,
                                  pool.params_json, tuple(by_pool.get(pool.pool_id, ()))), 2)
            pool.board_mark = hashlib.blake2b(data, digest_size=16).hexdigest()

    def load_history(self, pools: list[PoolData], player_ids: Collection[int] | None) -> None:
        """The rating histories of these players (None: every player's) into the pools."""
        ids = None if player_ids is None else sorted(player_ids)
        for pool in pools:
            query = (select(RatingHistory.player_id, RatingHistory.sequence,
                            RatingHistory.match_id, RatingHistory.place,
                            RatingHistory.mu_before, RatingHistory.sigma_before,
                            RatingHistory.mu_after, RatingHistory.sigma_after)
                     .where(RatingHistory.pool_id == pool.pool_id)
                     .order_by(RatingHistory.player_id, RatingHistory.sequence))
            queries = [query] if ids is None else [
                query.where(RatingHistory.player_id.in_(ids[i:i + PLAYERS_PER_QUERY]))
                for i in range(0, len(ids), PLAYERS_PER_QUERY)]
            history = pool.history
            for each in queries:
                for player_id, *rest in self._rows(each):
                    points = history.get(player_id)
                    if points is None:
                        points = history[player_id] = []
                    points.append(HistoryPoint(*rest))

    # ---- one event

    def _event_row(self, info: EventInfo) -> Event:
        return self._event_rows.get(info.id) or self.session.get(Event, info.id)

    def event_data(self, info: EventInfo, standings: bool = True,
                   known: dict[int, tuple[int, bool]] | None = None) -> EventData:
        """An event's rows for its pages. Its standings are ranked after the last
        round with every result in (or forfeited) while a later seated round is being
        played (``after_round``; as chess-results ranks "after round N"), else after
        every round: one result of a round being played changes that round's and that
        match's pages, not the standings every page of a big event shows.
        ``standings``: False leaves them to :meth:`fill_standings`.

        ``known``: per round number, a round's content stamp as the caller last read
        the round, and whether every table of it was decided then: a round whose stamp
        is still that is not read (its seats, matches, places and forfeits; a big
        event's rounds are tens of thousands of rows each), only its row
        (``EventData.unread``)."""
        entries = [EntryData(*row) for row in self._rows(
            select(Entry.player_id, Entry.first_round, Entry.withdrawn_after)
            .where(Entry.event_id == info.id))]
        round_rows = self._rows(
            select(Round.id, Round.number, Round.repeated_pairs, Round.seated_at,
                   Round.content_stamp)
            .where(Round.event_id == info.id).order_by(Round.number))
        known = known or {}
        unread = {number: UnreadRound(number, repeated or 0, seated_at, stamp)
                  for _, number, repeated, seated_at, stamp in round_rows
                  if stamp is not None and known.get(number, (None,))[0] == stamp}
        skipped_ids = [round_id for round_id, number, *_ in round_rows if number in unread]
        skipped = sorted(unread)

        matches: dict[int, MatchData] = {}
        by_key: dict[tuple[int, str], MatchData] = {}
        rows = self._rows(
            select(Match.id, Match.round_number, Match.table, Match.current_version_id,
                   MatchVersion.version, MatchVersion.imported_at, MatchVersion.imported_by,
                   MatchVersion.deals, MatchVersion.verified_moves)
            .outerjoin(MatchVersion, MatchVersion.id == Match.current_version_id)
            .where(Match.event_id == info.id, Match.round_number.not_in(skipped)))
        for mid, rnd, table, vid, version, at, by, deals, verified in rows:
            match = MatchData(mid, info.id, rnd, table, vid, version, at, by, deals or 0,
                              verified or 0)
            matches[mid] = match
            by_key[(rnd, table)] = match
        place_rows = self._rows(
            select(Match.id, MatchPlace.player_id, MatchPlace.seat, MatchPlace.place,
                   MatchPlace.total, MatchPlace.match_points)
            .join(MatchPlace, MatchPlace.version_id == Match.current_version_id)
            .where(Match.event_id == info.id, Match.round_number.not_in(skipped)))
        for mid, pid, seat, place, total, points in place_rows:
            matches[mid].places.append(PlaceData(pid, seat, place, total, points))
        for match in matches.values():
            match.places.sort(key=lambda p: p.seat)

        seats: dict[int, list[tuple]] = {}
        seat_rows = self._rows(
            select(Seat.round_id, Seat.player_id, Seat.table, Seat.seat)
            .join(Round, Round.id == Seat.round_id)
            .where(Round.event_id == info.id, Round.id.not_in(skipped_ids)))
        for round_id, pid, table, seat in seat_rows:
            seats.setdefault(round_id, []).append((table, seat, pid))
        forfeits = self.forfeits(info.id, skipped)
        rounds = []
        for round_id, number, repeated, seated_at, stamp in round_rows:
            if number in unread:
                continue
            tables: dict[str, list[tuple[int, int]]] = {}
            byes = []
            for table, seat, pid in seats.get(round_id, ()):
                if table is None:
                    byes.append(pid)
                else:
                    tables.setdefault(table, []).append((seat or 0, pid))
            table_list = [
                TableData(label, [pid for _, pid in sorted(tables[label])],
                          by_key.get((number, label)), forfeits.get((number, label)))
                for label in sorted(tables, key=natural_key)]
            rounds.append(RoundData(number, table_list, byes, repeated or 0, seated_at, stamp))
        ordered = sorted(matches.values(), key=lambda m: (m.round, natural_key(m.table)))
        after = self._complete_round(rounds, {n: known[n][1] for n in unread})
        if not round_rows or after == round_rows[-1][1]:
            after = None
        data = EventData(info, entries, [], rounds, ordered, None, after, unread)
        if standings:
            self.fill_standings(data)
        return data

    def forfeits(self, event_id: int, without: Collection[int] = ()
                 ) -> dict[tuple[int, str], ForfeitData]:
        """An event's forfeited tables by (round, table): who did not play (by player
        id) and the reason given (the same on each of the table's rows), in one query
        for the whole event but its rounds ``without`` (numbers)."""
        absent: dict[tuple[int, str], list[int]] = {}
        reasons: dict[tuple[int, str], str | None] = {}
        times: dict[tuple[int, str], dt.datetime] = {}
        for number, table, pid, reason, at in self._rows(
                select(Forfeit.round_number, Forfeit.table, Forfeit.player_id, Forfeit.reason,
                       Forfeit.created_at)
                .where(Forfeit.event_id == event_id, Forfeit.round_number.not_in(without))
                .order_by(Forfeit.player_id)):
            key = (number, table)
            absent.setdefault(key, []).append(pid)
            reasons[key] = reason
            times[key] = max(times.get(key, at), at)
        return {key: ForfeitData(tuple(ids), reasons[key], times[key])
                for key, ids in absent.items()}

    def fill_standings(self, data: EventData) -> None:
        """The event's standings, after ``data.after_round`` (:meth:`event_data`)."""
        if data.after_round == 0:  # none complete: no standings yet (the entrants are listed)
            return
        try:
            data.standings = standings_table(self.session, self._event_row(data.info),
                                             up_to_round=data.after_round)
        except TourneyError as err:
            data.standings_error = str(err)

    def standings_inputs(self, data: EventData) -> tuple:
        """Beside the event's info, entries, matches and byes (in ``data``), the rows
        its standings are made of: its forfeits of the rounds they count (a forfeit in
        the round being played changes its round's pages, not the standings) and its
        adjustments, every round's."""
        event_id, after = data.info.id, data.after_round
        forfeits = select(Forfeit.__table__).where(Forfeit.event_id == event_id)
        if after is not None:
            forfeits = forfeits.where(Forfeit.round_number <= after)
        adjustments = select(Adjustment.__table__).where(Adjustment.event_id == event_id)
        return tuple(tuple(tuple(row) for row in self._rows(query.order_by(model.id)))
                     for query, model in ((forfeits, Forfeit), (adjustments, Adjustment)))

    @staticmethod
    def _complete_round(rounds: list[RoundData], unread: dict[int, bool] | None = None) -> int:
        """The last round such that it and every round before it have every table's
        result in (or forfeited); 0 when none has. A table counts as
        :func:`~tourney.tournament.standings.results_by_round` counts it (its match
        has a current version, or it was forfeited), told from the rows just read
        (a query of the event's every match again, through the ORM, cost a
        hundredth of a CPU second at 16,000 players); of a round not read (``unread``,
        by number), as the caller knew it (:func:`round_decided`)."""
        decided = {rnd.number: round_decided(rnd) for rnd in rounds}
        decided.update(unread or {})
        complete = 0
        for number in sorted(decided):
            if not decided[number]:
                break
            complete = number
        return complete

    def player_matches(self, player_ids: Collection[int] | None = None
                       ) -> dict[int, list[tuple]]:
        """The matches with a result that these players (None: every player) have a
        place in, by match id: per match ``(event_id, round, table, deals,
        verified_moves, places)`` with the places ``(player_id, seat, place, total,
        match_points)`` by seat (every player of the match, not only those asked
        for)."""
        columns = (Match.id, Match.event_id, Match.round_number, Match.table,
                   MatchVersion.deals, MatchVersion.verified_moves, MatchPlace.player_id,
                   MatchPlace.seat, MatchPlace.place, MatchPlace.total,
                   MatchPlace.match_points)
        base = (select(*columns)
                .join(MatchVersion, MatchVersion.id == Match.current_version_id)
                .join(MatchPlace, MatchPlace.version_id == Match.current_version_id))
        if player_ids is None:
            queries = [base]
        else:
            ids = sorted(player_ids)
            queries = [base.where(Match.current_version_id.in_(
                select(MatchPlace.version_id).where(
                    MatchPlace.player_id.in_(ids[i:i + PLAYERS_PER_QUERY]))))
                for i in range(0, len(ids), PLAYERS_PER_QUERY)]
        out: dict[int, list[tuple]] = {}
        seen: set[int] = set()
        for query in queries:
            fresh: set[int] = set()
            for mid, event_id, rnd, table, deals, verified, *place in self._rows(
                    query.order_by(Match.id, MatchPlace.seat, MatchPlace.player_id)):
                if mid in seen:
                    continue
                match = out.get(mid)
                if match is None:
                    match = out[mid] = (event_id, rnd, table, deals or 0, verified or 0, [])
                    fresh.add(mid)
                match[5].append(tuple(place))
            seen |= fresh
        return out

    def rated_since(self, pool_id: int, last: int) -> set[tuple[int, int]]:
        """The (player, match) of each of a pool's history rows after row id ``last``."""
        return {(pid, mid) for pid, mid in self._rows(
            select(RatingHistory.player_id, RatingHistory.match_id).where(
                RatingHistory.pool_id == pool_id, RatingHistory.id > last))}

    def match_counts(self, without: Collection[int] = ()) -> dict[int, int]:
        """Per player: the matches with a result the player has a place in, but
        those of ``without`` (match ids)."""
        query = (select(MatchPlace.player_id, func.count())
                 .join(Match, Match.current_version_id == MatchPlace.version_id)
                 .group_by(MatchPlace.player_id))
        counts = dict(self._rows(query))
        ids = sorted(without)
        for i in range(0, len(ids), PLAYERS_PER_QUERY):
            for pid, count in self._rows(
                    query.where(Match.id.in_(ids[i:i + PLAYERS_PER_QUERY]))):
                counts[pid] -= count
        return {pid: count for pid, count in counts.items() if count}

    def results_being_played(self, after_rounds: dict[int, int]) -> dict[int, tuple[int, int]]:
        """The matches with a result of the rounds being played: per event, of the
        rounds after ``after_rounds[event id]`` (its last complete round). By match
        id: (event id, round)."""
        out: dict[int, tuple[int, int]] = {}
        for event_id, after in sorted(after_rounds.items()):
            for mid, number in self._rows(
                    select(Match.id, Match.round_number)
                    .where(Match.event_id == event_id, Match.round_number > after,
                           Match.current_version_id.is_not(None))):
                out[mid] = (event_id, number)
        return out

    def boards_before(self, pools: list[PoolData], pending: dict[int, tuple[int, int]],
                      being_played: dict[str, list[tuple[int, int]]]) -> None:
        """Each pool's ``board``: its leaderboard without the matches ``pending``
        (:meth:`results_being_played`), as the ratings stood before them, and its
        ``board_pending``: the rounds being played of its game's events
        (``being_played``, by game), whether or not a result of them is in yet, so
        that the board's note changes when a round is seated or complete."""
        self.load_boards(pools)
        for pool in pools:
            pool.board = pool.leaderboard
            pool.board_pending = sorted(being_played.get(pool.variant, ()))
        if not pending:
            return
        before = rating_list_before(
            self.session, [e for pool in pools for e in pool.leaderboard], list(pending))
        by_variant: dict[str, list[RatingEntry]] = {}
        for entry in before:
            by_variant.setdefault(entry.variant, []).append(entry)
        for pool in pools:
            pool.board = by_variant.get(pool.variant, [])

    def match_refs(self, match_ids: Collection[int] | None = None
                   ) -> dict[int, tuple[int, int]]:
        """The matches with a result (of ``match_ids``; None: every one): their event
        and round, by match id (a rating history links to its matches)."""
        query = (select(Match.id, Match.event_id, Match.round_number)
                 .where(Match.current_version_id.is_not(None)))
        ids = None if match_ids is None else sorted(match_ids)
        queries = [query] if ids is None else [
            query.where(Match.id.in_(ids[i:i + PLAYERS_PER_QUERY]))
            for i in range(0, len(ids), PLAYERS_PER_QUERY)]
        return {mid: (event_id, rnd) for each in queries
                for mid, event_id, rnd in self._rows(each)}

    def deals(self, event_id: int, round_number: int | None = None, *,
              with_moves: bool = False) -> dict[int, list[DealData]]:
        """The current deals of an event's matches (one round's, if given), by
        version id; the move columns only when ``with_moves``."""
        columns = [Deal.version_id, Deal.number, Deal.players, Deal.dealer, Deal.scores,
                   Deal.verified]
        if with_moves:
            columns += [Deal.hands, Deal.stock, Deal.passes, Deal.play]
        condition = [Match.event_id == event_id]
        if round_number is not None:
            condition.append(Match.round_number == round_number)
        rows = self._rows(
            select(*columns)
            .join(Match, Match.current_version_id == Deal.version_id)
            .where(and_(*condition))
            .order_by(Deal.version_id, Deal.number))
        out: dict[int, list[DealData]] = {}
        for row in rows:
            out.setdefault(row[0], []).append(DealData(*row))
        return out


__all__ = [
    "DealData",
    "EntryData",
    "EventData",
    "EventInfo",
    "ForfeitData",
    "HistoryPoint",
    "MatchData",
    "PlaceData",
    "PlayerInfo",
    "PoolData",
    "RoundData",
    "SiteReader",
    "TableData",
    "UnreadRound",
    "event_status",
    "round_decided",
]
