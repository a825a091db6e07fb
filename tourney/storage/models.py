"""The schema. Every table a tournament needs, in one module: it is one concept.

Identity rules:
- a player is a row of ``player``; a merged duplicate keeps its row, with
  ``merged_into_id`` pointing at the kept one (history stays readable);
- a match is (event, round, table); each import of different content for it is a
  new ``match_version``; exactly one version is current (``match.current_version_id``);
- ratings are per pool (one per variant), with one history row per player per rated
  match, so a pool can be replayed from any match on.

Times are UTC. Rules, rankings and before/after snapshots are JSON text.
"""
from __future__ import annotations

import datetime as dt
from datetime import datetime, timezone
from typing import Optional

from sqlalchemy import BigInteger, Column, Index, Text, UniqueConstraint
from sqlmodel import Field, SQLModel

# Constraint names spelled the same on every backend, so a later migration can
# drop or alter a constraint by name (SQLite's batch mode needs names too).
# (Added by the storage helper; must be set before the first table is defined.)
NAMING_CONVENTION = {
    "ix": "ix_%(column_0_label)s",
    "uq": "uq_%(table_name)s_%(column_0_N_name)s",
    "ck": "ck_%(table_name)s_%(constraint_name)s",
    "fk": "fk_%(table_name)s_%(column_0_name)s_%(referred_table_name)s",
    "pk": "pk_%(table_name)s",
}
SQLModel.metadata.naming_convention = NAMING_CONVENTION


def utcnow() -> datetime:
    # Aware, not naive: sqlmodel maps datetime fields to its UTCDateTime type,
    # which refuses naive values and returns aware UTC ones. (Storage helper.)
    return datetime.now(timezone.utc)


class Player(SQLModel, table=True):
    id: Optional[int] = Field(default=None, primary_key=True)
    name: str = Field(index=True, unique=True, max_length=200)
    club: Optional[str] = Field(default=None, max_length=200)
    email: Optional[str] = Field(default=None, max_length=320)
    merged_into_id: Optional[int] = Field(default=None, foreign_key="player.id")
    created_at: datetime = Field(default_factory=utcnow)


class Event(SQLModel, table=True):
    id: Optional[int] = Field(default=None, primary_key=True)
    slug: str = Field(index=True, unique=True, max_length=100)
    name: str = Field(max_length=200)
    variant: str = Field(max_length=40)
    date: Optional[dt.date] = None
    # The event's house rules as given (key -> text); resolved by the engine on use.
    rules_json: str = Field(default="{}", sa_column=Column(Text, nullable=False))
    table_min: int
    table_max: int
    table_preferred: int
    rounds: Optional[int] = None
    seating: str = Field(max_length=20)  # balanced | swiss | random
    seed: int = 0
    tiebreaks_json: str = Field(default="[]", sa_column=Column(Text, nullable=False))
    lang: Optional[str] = Field(default=None, max_length=10)
    created_at: datetime = Field(default_factory=utcnow)
    # Match points (tourney.tournament.scoring): "share" or "place". Events stored
    # before the setting existed were scored by place (migration 0004).
    points: str = Field(default="share", max_length=10)
    bye_points: Optional[float] = None  # None: a win's worth
    # A random number set afresh by triggers (migration 0005) on every write to the
    # event's entries, rounds, seats, matches and their versions' places: publish
    # reuses the event's pages without reading them while it is unchanged.
    # Never written by the application.
    content_stamp: Optional[int] = Field(default=None, sa_column=Column(BigInteger,
                                                                        nullable=True))


class Entry(SQLModel, table=True):
    """A player entered in an event; late entries and withdrawals by round."""

    __table_args__ = (UniqueConstraint("event_id", "player_id"),)
    id: Optional[int] = Field(default=None, primary_key=True)
    event_id: int = Field(foreign_key="event.id", index=True)
    player_id: int = Field(foreign_key="player.id", index=True)
    first_round: int = 1  # the first round the player can be seated in
    withdrawn_after: Optional[int] = None  # last round played; not seated after it
    created_at: datetime = Field(default_factory=utcnow)


class Round(SQLModel, table=True):
    __table_args__ = (UniqueConstraint("event_id", "number"),)
    id: Optional[int] = Field(default=None, primary_key=True)
    event_id: int = Field(foreign_key="event.id", index=True)
    number: int
    repeated_pairs: int = 0
    seated_at: datetime = Field(default_factory=utcnow)
    # the clock (`tourney round start`, migration 0008_arbiter): None until started
    started_at: Optional[datetime] = None
    ends_at: Optional[datetime] = None
    # A random number set afresh by triggers (migration 0013) on every write to the
    # round's seats, matches, their versions' places and forfeits: publish keeps what
    # it worked out of the round without reading them while it is unchanged. Never
    # written by the application.
    content_stamp: Optional[int] = Field(default=None, sa_column=Column(BigInteger,
                                                                        nullable=True))


class Seat(SQLModel, table=True):
    """A player's seat in a round; ``table`` is None for a bye."""

    __table_args__ = (
        UniqueConstraint("round_id", "player_id"),
        Index("ix_seat_round_table", "round_id", "table", "seat"),
    )
    id: Optional[int] = Field(default=None, primary_key=True)
    round_id: int = Field(foreign_key="round.id")
    player_id: int = Field(foreign_key="player.id", index=True)
    table: Optional[str] = Field(default=None, max_length=20)
    seat: Optional[int] = None


class Match(SQLModel, table=True):
    """One table's match in one round; its content lives in versions."""

    # The unique constraint's index serves lookups by event_id too (its first
    # column): an index of event_id alone would only cost every insert.
    __table_args__ = (UniqueConstraint("event_id", "round_number", "table"),)
    id: Optional[int] = Field(default=None, primary_key=True)
    event_id: int = Field(foreign_key="event.id")
    round_number: int
    table: str = Field(max_length=20)
    current_version_id: Optional[int] = Field(default=None)


class MatchVersion(SQLModel, table=True):
    """One imported content of a match. Old versions stay, marked superseded."""

    __table_args__ = (UniqueConstraint("match_id", "version"),)  # serves match_id too
    id: Optional[int] = Field(default=None, primary_key=True)
    match_id: int = Field(foreign_key="match.id")
    version: int
    content_sha256: str = Field(max_length=64)  # of the canonical rows
    source_file: Optional[str] = Field(default=None, max_length=500)
    source_sha256: Optional[str] = Field(default=None, max_length=64)
    imported_by: Optional[str] = Field(default=None, max_length=100)
    imported_at: datetime = Field(default_factory=utcnow)
    superseded_at: Optional[datetime] = None
    deals: int = 0
    verified_moves: int = 0  # deals verified move by move (the rest by score sheet)
    ranking_json: str = Field(default="[]", sa_column=Column(Text, nullable=False))


class MatchPlace(SQLModel, table=True):
    """A player's result in a match version: the rows standings are summed from."""

    __table_args__ = (UniqueConstraint("version_id", "player_id"),)  # serves version_id too
    id: Optional[int] = Field(default=None, primary_key=True)
    version_id: int = Field(foreign_key="matchversion.id")
    player_id: int = Field(foreign_key="player.id", index=True)
    seat: int  # seat in deal 1
    place: int
    total: float  # sum of deal scores
    match_points: float


class Deal(SQLModel, table=True):
    """A deal of a match version, in canonical record spelling (docs/guide/records.md)."""

    # The unique constraint's index serves lookups by version_id too; a second
    # index of version_id alone cost every deal inserted (an import writes a
    # million) a B-tree insert more.
    __table_args__ = (UniqueConstraint("version_id", "number"),)
    id: Optional[int] = Field(default=None, primary_key=True)
    version_id: int = Field(foreign_key="matchversion.id")
    number: int
    players: str = Field(sa_column=Column(Text, nullable=False))  # ';'-joined, seat order
    dealer: Optional[str] = Field(default=None, max_length=200)
    hands: str = Field(default="", sa_column=Column(Text, nullable=False))
    stock: str = Field(default="", sa_column=Column(Text, nullable=False))
    passes: str = Field(default="", sa_column=Column(Text, nullable=False))
    play: str = Field(default="", sa_column=Column(Text, nullable=False))
    scores: str = Field(default="", sa_column=Column(Text, nullable=False))  # computed, canonical
    claimed_scores: bool = False  # the record carried a scores column value
    verified: str = Field(default="moves", max_length=10)  # moves | scores


class RatingPool(SQLModel, table=True):
    id: Optional[int] = Field(default=None, primary_key=True)
    variant: str = Field(index=True, unique=True, max_length=40)
    model: str = Field(default="PlackettLuce", max_length=40)
    params_json: str = Field(default="{}", sa_column=Column(Text, nullable=False))
    provisional_matches: int = 5
    # A random number set afresh by triggers (migration 0015) whenever a row of the
    # pool's rating history is deleted or changed (appended rows leave it): publish
    # knows the history only grew since while it is unchanged. Never written by the
    # application.
    history_stamp: Optional[int] = Field(default=None, sa_column=Column(BigInteger,
                                                                        nullable=True))


class Rating(SQLModel, table=True):
    __table_args__ = (UniqueConstraint("pool_id", "player_id"),)
    id: Optional[int] = Field(default=None, primary_key=True)
    pool_id: int = Field(foreign_key="ratingpool.id", index=True)
    player_id: int = Field(foreign_key="player.id", index=True)
    mu: float
    sigma: float
    matches: int = 0


class RatingHistory(SQLModel, table=True):
    """One player's rating before and after one rated match."""

    __table_args__ = (Index("ix_ratinghistory_pool_order", "pool_id", "sequence"),)
    id: Optional[int] = Field(default=None, primary_key=True)
    pool_id: int = Field(foreign_key="ratingpool.id")
    sequence: int  # the match's position in the pool's rating order
    match_id: int = Field(foreign_key="match.id", index=True)
    version_id: int = Field(foreign_key="matchversion.id")
    player_id: int = Field(foreign_key="player.id", index=True)
    place: int
    mu_before: float
    sigma_before: float
    mu_after: float
    sigma_after: float
    rated_at: datetime = Field(default_factory=utcnow)


class AuditLog(SQLModel, table=True):
    """Every change to players, events, seating and results."""

    id: Optional[int] = Field(default=None, primary_key=True)
    at: datetime = Field(default_factory=utcnow, index=True)
    actor: Optional[str] = Field(default=None, max_length=100)
    action: str = Field(max_length=60)  # e.g. player.add, event.create, round.seat, result.import
    event_id: Optional[int] = Field(default=None, index=True)
    subject: Optional[str] = Field(default=None, max_length=300)
    before_json: Optional[str] = Field(default=None, sa_column=Column(Text))
    after_json: Optional[str] = Field(default=None, sa_column=Column(Text))


class TableLink(SQLModel, table=True):
    """The private link of one table of one round, for entering its result at the
    table (``tourney serve``): an unguessable token for the URL and a short code to
    type. A link answers only for its own event, round and table, and not after
    ``closed_at`` (the round is closed when the next round is seated)."""

    # The unique constraint's index serves lookups by event_id too (its first
    # column): an index of event_id alone would only cost every insert.
    __table_args__ = (UniqueConstraint("event_id", "round_number", "table"),)
    id: Optional[int] = Field(default=None, primary_key=True)
    event_id: int = Field(foreign_key="event.id")
    round_number: int
    table: str = Field(max_length=20)
    token: str = Field(unique=True, max_length=64)
    code: str = Field(unique=True, max_length=16)
    created_at: datetime = Field(default_factory=utcnow)
    closed_at: Optional[datetime] = None


class Submission(SQLModel, table=True):
    """A result sent from a table link: the record CSV as sent, the engines'
    verdict, and what became of it (``invalid``, ``submitted`` awaiting the
    organizer, ``accepted`` as a match version, ``rejected``)."""

    id: Optional[int] = Field(default=None, primary_key=True)
    link_id: int = Field(foreign_key="tablelink.id", index=True)
    submitted_at: datetime = Field(default_factory=utcnow)
    content: str = Field(sa_column=Column(Text, nullable=False))
    content_sha256: str = Field(max_length=64)
    state: str = Field(max_length=12)
    errors_json: str = Field(default="[]", sa_column=Column(Text, nullable=False))
    version_id: Optional[int] = Field(default=None, foreign_key="matchversion.id")
    decided_by: Optional[str] = Field(default=None, max_length=100)
    decided_at: Optional[datetime] = None
    note: Optional[str] = Field(default=None, max_length=300)


# The states of a Submission (``state``): what became of a result sent from a table.
SUBMITTED, INVALID, ACCEPTED, REJECTED = "submitted", "invalid", "accepted", "rejected"
CONFLICT, DISMISSED = "conflict", "dismissed"


class SiteSetting(SQLModel, table=True):
    """A setting of the published site (``tourney site set``): its title, the
    organisation behind it, its address on the web."""

    id: Optional[int] = Field(default=None, primary_key=True)
    key: str = Field(unique=True, max_length=40)
    value: str = Field(sa_column=Column(Text, nullable=False))
    updated_at: datetime = Field(default_factory=utcnow)


# ---------------------------------------------------------------- players' evening
# (private player links, check-in, fee, sign-up, notifications: migration 0007_players)


class PlayerLink(SQLModel, table=True):
    """The private link of one entered player of one event (``tourney player
    links``): an unguessable token for the URL, no login. Renewing a link revokes
    the old token (``revoked_at``) and makes a new row."""

    __table_args__ = (Index("ix_playerlink_event_player", "event_id", "player_id"),)
    id: Optional[int] = Field(default=None, primary_key=True)
    event_id: int = Field(foreign_key="event.id")
    player_id: int = Field(foreign_key="player.id")
    token: str = Field(unique=True, max_length=64)
    created_at: datetime = Field(default_factory=utcnow)
    revoked_at: Optional[datetime] = None


class EntryStatus(SQLModel, table=True):
    """What the organizer notes about an entered player on the evening: checked
    in (``tourney event checkin``), paid the fee (``tourney event paid``)."""

    __table_args__ = (UniqueConstraint("event_id", "player_id"),)
    id: Optional[int] = Field(default=None, primary_key=True)
    event_id: int = Field(foreign_key="event.id")
    player_id: int = Field(foreign_key="player.id")
    checked_in_at: Optional[datetime] = None
    paid_at: Optional[datetime] = None
    # the check-ins taken back (`event checkin --undo`), as JSON: [[from, until], ...]
    # in ISO 8601 UTC; whether the player was checked in when a round was seated
    # (tourney.tournament.evening.checked_in_after) asks them too
    checkins_undone: Optional[str] = Field(default=None, sa_column=Column(Text))


class EventOptions(SQLModel, table=True):
    """An event's evening settings: check-in required before seating, sign-up
    open or closed, the entry fee (None: no fee)."""

    id: Optional[int] = Field(default=None, primary_key=True)
    event_id: int = Field(foreign_key="event.id", unique=True)
    checkin: bool = False
    signup: str = Field(default="closed", max_length=10)  # open | closed
    fee: Optional[float] = None


class SignupRequest(SQLModel, table=True):
    """A sign-up sent from the event's sign-up page, awaiting the organizer
    (``pending``), entered (``approved``) or turned down (``rejected``)."""

    id: Optional[int] = Field(default=None, primary_key=True)
    event_id: int = Field(foreign_key="event.id", index=True)
    name: str = Field(max_length=200)
    club: Optional[str] = Field(default=None, max_length=200)
    email: Optional[str] = Field(default=None, max_length=320)
    status: str = Field(default="pending", max_length=10)
    created_at: datetime = Field(default_factory=utcnow)
    decided_at: Optional[datetime] = None


class Notification(SQLModel, table=True):
    """One e-mail sent (or tried) to a player by ``tourney notify``: a re-run
    sends nothing already ``sent`` for the same player, event, round and kind."""

    __table_args__ = (Index("ix_notification_key", "event_id", "round_number", "what",
                            "player_id"),)
    id: Optional[int] = Field(default=None, primary_key=True)
    event_id: int = Field(foreign_key="event.id")
    player_id: int = Field(foreign_key="player.id")
    round_number: int
    what: str = Field(max_length=20)  # seating | results
    address: str = Field(max_length=320)
    message_id: str = Field(max_length=300)
    sent_at: datetime = Field(default_factory=utcnow)
    status: str = Field(max_length=10)  # sent | failed | dry-run
    error: Optional[str] = Field(default=None, max_length=500)


# ---------------------------------------------------------------- the arbiter's hand
# (seating constraints, absences, forfeits, adjustments, the clock: migration 0008_arbiter)


class SeatingRule(SQLModel, table=True):
    """One of the arbiter's seating constraints on an event (``tourney event set
    --keep-apart`` / ``--fix``): ``kind`` ``club`` (players of one club apart; no
    players), ``apart`` (``player_id`` and ``other_id`` apart, the smaller id first)
    or ``fixed`` (``player_id`` always at table ``table_number``, counted from 1)."""

    __table_args__ = (Index("ix_seatingrule_event", "event_id"),)
    id: Optional[int] = Field(default=None, primary_key=True)
    event_id: int = Field(foreign_key="event.id")
    kind: str = Field(max_length=10)
    player_id: Optional[int] = Field(default=None, foreign_key="player.id")
    other_id: Optional[int] = Field(default=None, foreign_key="player.id")
    table_number: Optional[int] = None
    created_at: datetime = Field(default_factory=utcnow)


class Absence(SQLModel, table=True):
    """A player not seated in one round (``tourney round absent``), back the next."""

    __table_args__ = (UniqueConstraint("event_id", "round_number", "player_id"),)
    id: Optional[int] = Field(default=None, primary_key=True)
    event_id: int = Field(foreign_key="event.id")
    round_number: int
    player_id: int = Field(foreign_key="player.id")
    created_at: datetime = Field(default_factory=utcnow)


class Forfeit(SQLModel, table=True):
    """A player who did not play (or left) their table's match of one round
    (``tourney result forfeit``): 0 match points; the table's others score as the
    guide says (a bye's points each)."""

    __table_args__ = (UniqueConstraint("event_id", "round_number", "player_id"),
                      Index("ix_forfeit_table", "event_id", "round_number", "table"))
    id: Optional[int] = Field(default=None, primary_key=True)
    event_id: int = Field(foreign_key="event.id")
    round_number: int
    table: str = Field(max_length=20)
    player_id: int = Field(foreign_key="player.id")
    # the arbiter's reason, if given: the same on each absent player's row of the
    # table (migration 0012_forfeit_reason)
    reason: Optional[str] = Field(default=None, sa_column=Column(Text, nullable=True))
    created_at: datetime = Field(default_factory=utcnow)


class Adjustment(SQLModel, table=True):
    """Match points given or taken by the arbiter (``tourney result adjust``), with
    the reason; a standings matter only (never a rating)."""

    __table_args__ = (Index("ix_adjustment_event", "event_id"),)
    id: Optional[int] = Field(default=None, primary_key=True)
    event_id: int = Field(foreign_key="event.id")
    player_id: int = Field(foreign_key="player.id")
    round_number: Optional[int] = None
    points: float
    reason: str = Field(sa_column=Column(Text, nullable=False))
    actor: Optional[str] = Field(default=None, max_length=100)
    created_at: datetime = Field(default_factory=utcnow)

# ---------------------------------------------------------------- a season
# (series standings over events, handicaps, declared teams: migration 0009_series)


class Series(SQLModel, table=True):
    """A season: events whose standings add up (``tourney series``). What a series
    counts is computed from its events' standings whenever it is read, never
    stored, so a corrected result changes the series at once."""

    id: Optional[int] = Field(default=None, primary_key=True)
    slug: str = Field(unique=True, max_length=100)
    name: str = Field(max_length=200)
    best: Optional[int] = None  # a player's best N events count (None: all)
    min_events: int = 0  # events a player must play to qualify
    scoring: str = Field(default="points", max_length=10)  # points | placing
    # placing scoring: the points of place 1, 2, 3... (a JSON list of numbers)
    placing_json: str = Field(default="[]", sa_column=Column(Text, nullable=False))
    handicap: bool = False  # ranked by net points (gross + handicaps)
    seed: int = 0  # the drawing of lots of the last tie-break
    created_at: datetime = Field(default_factory=utcnow)


class SeriesEvent(SQLModel, table=True):
    """An event counted in a series, ``position`` its column (order added)."""

    __table_args__ = (UniqueConstraint("series_id", "event_id"),)  # serves series_id too
    id: Optional[int] = Field(default=None, primary_key=True)
    series_id: int = Field(foreign_key="series.id")
    event_id: int = Field(foreign_key="event.id", index=True)
    position: int


class SeriesHandicap(SQLModel, table=True):
    """A player's handicap in a series: points added to each event counted."""

    __table_args__ = (UniqueConstraint("series_id", "player_id"),)  # serves series_id too
    id: Optional[int] = Field(default=None, primary_key=True)
    series_id: int = Field(foreign_key="series.id")
    player_id: int = Field(foreign_key="player.id", index=True)
    value: float
    source: str = Field(default="hand", max_length=10)  # hand | rating
    updated_at: datetime = Field(default_factory=utcnow)


class Team(SQLModel, table=True):
    """A declared team of an event or of a series (exactly one of the two)."""

    id: Optional[int] = Field(default=None, primary_key=True)
    series_id: Optional[int] = Field(default=None, foreign_key="series.id", index=True)
    event_id: Optional[int] = Field(default=None, foreign_key="event.id", index=True)
    name: str = Field(max_length=200)
    created_at: datetime = Field(default_factory=utcnow)


class TeamMember(SQLModel, table=True):
    """A player of a declared team."""

    __table_args__ = (UniqueConstraint("team_id", "player_id"),)  # serves team_id too
    id: Optional[int] = Field(default=None, primary_key=True)
    team_id: int = Field(foreign_key="team.id")
    player_id: int = Field(foreign_key="player.id", index=True)


class StandingsSnapshot(SQLModel, table=True):
    """An event's standings as last computed by a command that changed them, for
    readers of many events at once (a series' standings): valid only while
    ``key`` is the event's key now (:mod:`tourney.tournament.snapshots`), so a
    stale snapshot is never read, only computed afresh."""

    event_id: int = Field(foreign_key="event.id", primary_key=True)
    key: str = Field(max_length=64)
    # JSON: [[player_id, points, place], ...] of the players who played the event
    rows_json: str = Field(sa_column=Column(Text, nullable=False))


class ServeFailure(SQLModel, table=True):
    """The recent wrong guesses (links, codes, logins, tokens) of one client address
    against one of ``tourney serve``'s failure limits, shared by every process of a
    server started with ``--workers N`` (:mod:`tourney.storage.serve_limits`)."""

    scope: str = Field(primary_key=True, max_length=16)  # which limit: "link", "login"
    key: str = Field(primary_key=True, max_length=100)  # the client's address
    # Unix seconds of the newest failures within the window (at most the limit's
    # count of them), oldest first, separated by spaces
    times: str = Field(sa_column=Column(Text, nullable=False))
    last_at: float = Field(index=True)  # the newest of them: old rows are pruned by it


class RevokedSession(SQLModel, table=True):
    """An organizer's cookie logged out before it expired, refused by every process
    of ``tourney serve --workers N``; kept until it would have expired."""

    nonce: str = Field(primary_key=True, max_length=64)
    expires_at: int = Field(sa_column=Column(BigInteger, nullable=False, index=True))
