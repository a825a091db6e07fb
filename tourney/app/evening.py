"""A player's own evening, as their private link shows it (``tourney serve``'s
``/p/TOKEN``) and the results e-mail tells it (``tourney notify --what results``).

One read model, :class:`PlayerEvening`, serves both: this round's table and seat,
the player's results, the standings with their row, their rating in the event's
game and its history. Ratings are read here, where tournament and ratings meet
(the application layer), never by the tournament services.
"""
from __future__ import annotations

from dataclasses import dataclass, field

from sqlalchemy import func
from sqlmodel import Session, select

from ..ratings.engine import ordinal
from ..ratings.service import HistoryEntry, player_history
from ..storage.models import Entry, Event, Forfeit, Match, MatchPlace, Player, Round, Seat, TableLink
from ..tournament.arbiter import absent_players
from ..tournament.evening import (
    checked_in_after,
    entry_marks,
    event_options,
    link_by_token,
    mark,
)
from ..tournament.events import last_seated_round
from ..tournament.rounds import get_round, seated_keys
from ..tournament.scoring import event_bye_points
from ..tournament.standings import StandingRow, standings_table

__all__ = ["PlayerEvening", "RoundResult", "player_evening", "evening_of", "check_in_by_link"]


@dataclass(frozen=True)
class RoundResult:
    """The player's round: their match (place at the table, score and match points),
    or what they scored without one: a forfeited table (``kind`` "forfeit":
    ``absent`` for the player who did not play, 0 points; the others a bye's
    worth) or a bye. Every round that gave the player points is here, so the
    match points shown add up to the standings' points (adjustments aside)."""

    round: int
    table: str | None  # None: a bye
    place: int | None  # None: no match played
    players: int
    total: float | None
    match_points: float
    kind: str = "match"  # "match", "forfeit" or "bye"
    absent: bool = False  # a forfeit: this player did not play
    reason: str | None = None  # a forfeit: the arbiter's reason, if given
    shared: bool = False  # a match: another player of the table has the same place (1=)


@dataclass
class PlayerEvening:
    event: Event
    player: str
    player_id: int
    round: int  # the latest seated round (0: none yet)
    table: str | None  # None: a bye, or not seated this round
    seat: int | None
    tablemates: list[str]
    table_url: str | None  # the table's result link (a path)
    results: list[RoundResult]
    rows: list[StandingRow]  # the standings
    history: list[HistoryEntry] = field(default_factory=list)  # rated matches, this game
    checkin_required: bool = False
    checked_in: bool = False
    bye_points: float | None = None  # a bye this round: what it gives (None: no bye)
    absent: bool = False  # marked absent from the latest seated round (`round absent`)
    # checked in only after the latest seated round was seated
    checked_in_late: bool = False
    forfeited: bool = False  # the player's table of the latest seated round was forfeited
    # the last round the player played before withdrawing (`event withdraw`); None:
    # not withdrawn. Their page says so rather than that they are not seated.
    withdrawn_after: int | None = None

    @property
    def waits_for_next_round(self) -> bool:
        """Checked in after the latest seated round was seated, and not in it (no
        table, no bye): the next one seats them."""
        return (self.checkin_required and self.checked_in_late and bool(self.round)
                and self.table is None and self.bye_points is None and not self.absent)

    @property
    def result_stored(self) -> bool:
        """The result of the player's table of the latest seated round is stored:
        their page says so instead of asking for it."""
        return self.table is not None and any(
            r.kind == "match" and r.round == self.round and r.table == self.table
            for r in self.results)

    @property
    def standing(self) -> StandingRow | None:
        return next((r for r in self.rows if r.player_id == self.player_id), None)

    @property
    def rating(self) -> float | None:
        """The displayed rating (mu - 3 sigma) after the latest rated match."""
        if not self.history:
            return None
        last = self.history[-1]
        return ordinal(last.mu_after, last.sigma_after)

    def rating_change(self, number: int) -> tuple[float, float] | None:
        """(before, after) of the rating across this event's round ``number``."""
        for entry in self.history:
            if entry.event == self.event.slug and entry.round == number:
                return (ordinal(entry.mu_before, entry.sigma_before),
                        ordinal(entry.mu_after, entry.sigma_after))
        return None

    def result_of(self, number: int) -> RoundResult | None:
        return next((r for r in self.results if r.round == number), None)


def player_evening(session: Session, token: str) -> PlayerEvening | None:
    """The evening of the player whose private link ``token`` is (None: no such
    link, or a revoked one)."""
    found = link_by_token(session, token)
    if found is None:
        return None
    _, player, event = found
    return evening_of(session, event, session.get(Player, player.id))


def evening_of(session: Session, event: Event, player: Player, *,
               up_to_round: int | None = None,
               rows: list[StandingRow] | None = None) -> PlayerEvening:
    """``player``'s evening in ``event``: standings up to ``up_to_round`` (all);
    ``rows``: those standings, when the caller has them (one message per player
    must not work out the whole event's standings again for each)."""
    number = up_to_round or last_seated_round(session, event)
    table = seat = url = None
    mates: list[str] = []
    bye = None
    seated_at = None
    if number:
        round_row = get_round(session, event, number)
        seated_at = round_row.seated_at
        tables, byes = seated_keys(session, round_row)
        for label, ids in tables.items():
            if player.id in ids:
                table, seat = label, ids.index(player.id) + 1
                names = {p.id: p.name for p in session.exec(
                    select(Player).where(Player.id.in_(ids)))}
                mates = [names[i] for i in ids if i != player.id]
        if player.id in byes:
            bye = event_bye_points(event)
        if table is not None:
            link = session.exec(select(TableLink).where(
                TableLink.event_id == event.id, TableLink.round_number == number,
                TableLink.table == table)).first()
            url = f"/t/{link.token}" if link is not None else None
    results = _results(session, event, player)
    if up_to_round is not None:
        results = [r for r in results if r.round <= up_to_round]
    marks = entry_marks(session, event).get(player.id)
    forfeited = table is not None and any(
        r.kind == "forfeit" and r.round == number and r.table == table for r in results)
    return PlayerEvening(
        event, player.name, player.id, number, table, seat, mates,
        None if forfeited else url, results,
        rows if rows is not None else standings_table(session, event, up_to_round=up_to_round),
        player_history(session, player, event.variant),
        event_options(session, event).checkin,
        marks is not None and marks.checked_in_at is not None, bye,
        bool(number) and player.id in absent_players(session, event, number),
        seated_at is not None and checked_in_after(marks, seated_at), forfeited,
        session.exec(select(Entry.withdrawn_after).where(
            Entry.event_id == event.id, Entry.player_id == player.id)).first())


def _results(session: Session, event: Event, player: Player) -> list[RoundResult]:
    rows = session.exec(
        select(Match.round_number, Match.table, MatchPlace.place, MatchPlace.total,
               MatchPlace.match_points, Match.current_version_id)
        .join(MatchPlace, MatchPlace.version_id == Match.current_version_id)
        .where(Match.event_id == event.id, MatchPlace.player_id == player.id)
        .order_by(Match.round_number)).all()
    sizes: dict[int, int] = {}
    at_place: dict[tuple[int, int], int] = {}  # (version, place) -> players there
    versions = [r[5] for r in rows]
    if versions:
        for version, place, count in session.exec(
                select(MatchPlace.version_id, MatchPlace.place, func.count())
                .where(MatchPlace.version_id.in_(versions))
                .group_by(MatchPlace.version_id, MatchPlace.place)).all():
            sizes[version] = sizes.get(version, 0) + count
            at_place[(version, place)] = count
    results = [RoundResult(r[0], r[1], r[2], sizes.get(r[5], 0), r[3], r[4],
                           shared=at_place.get((r[5], r[2]), 1) > 1) for r in rows]
    # the rounds scored without a match: a forfeited table, a bye (as the standings
    # count them)
    seats = session.exec(
        select(Round.number, Seat.table).join(Round, Round.id == Seat.round_id)
        .where(Round.event_id == event.id, Seat.player_id == player.id)).all()
    if seats:
        forfeits: dict[tuple[int, str], tuple[set[int], str | None]] = {}
        for number, table, absent_id, reason in session.exec(
                select(Forfeit.round_number, Forfeit.table, Forfeit.player_id, Forfeit.reason)
                .where(Forfeit.event_id == event.id)):
            gone, _ = forfeits.setdefault((number, table), (set(), reason))
            gone.add(absent_id)
        bye_points = event_bye_points(event)
        for number, table in seats:
            if table is None:
                results.append(RoundResult(number, None, None, 0, None, bye_points, "bye"))
            elif (number, table) in forfeits:
                gone, reason = forfeits[(number, table)]
                size = session.exec(select(func.count()).select_from(Seat).join(
                    Round, Round.id == Seat.round_id).where(
                    Round.event_id == event.id, Round.number == number,
                    Seat.table == table)).one()
                absent = player.id in gone
                results.append(RoundResult(number, table, None, size, None,
                                           0.0 if absent else bye_points, "forfeit",
                                           absent=absent, reason=reason))
    return sorted(results, key=lambda r: r.round)


def check_in_by_link(session: Session, token: str) -> str | None:
    """Check in the player of a private link (the player's own "I am here"); their
    name, or None for no such link. Checking in twice changes nothing."""
    found = link_by_token(session, token)
    if found is None:
        return None
    _, player, event = found
    mark(session, event, [player.name], "checkin", actor="player (own link)")
    return player.name


@dataclass(frozen=True)
class EntryMarks:
    name: str
    checked_in: bool
    paid: bool


@dataclass
class OrganizerEvening:
    """The evening on the organizer's page: the settings, each entered player's
    marks, the sign-ups waiting. Names only: addresses stay out of pages."""

    checkin_required: bool
    signup: str
    fee: float | None
    players: list[EntryMarks]
    waiting: list  # SignupRequest rows, pending
    # a waiting name that looks like a registered player's (case, accents, spaces
    # aside), with that name: entering it would register a second player
    lookalikes: dict[str, str] = field(default_factory=dict)
    # the players who withdrew, with the last round they are in: the page offers
    # to take a withdrawal back (entering them again)
    withdrawn: list[tuple[str, int]] = field(default_factory=list)

    @property
    def checked_in(self) -> int:
        return sum(p.checked_in for p in self.players)

    @property
    def paid(self) -> int:
        return sum(p.paid for p in self.players)

    def to_json(self) -> dict:
        return {"checkin_required": self.checkin_required, "signup": self.signup,
                "fee": self.fee,
                "players": [{"name": p.name, "checked_in": p.checked_in, "paid": p.paid}
                            for p in self.players],
                "signups_waiting": [{"id": r.id, "name": r.name, "club": r.club}
                                    for r in self.waiting]}


def organizer_evening(session: Session, event: Event) -> OrganizerEvening:
    from ..tournament.evening import signups
    from ..tournament.events import entries
    from ..tournament.players import registered_lookalikes

    options = event_options(session, event)
    marks = entry_marks(session, event)
    players = []
    withdrawn = []
    for entry, player in entries(session, event):
        if player.merged_into_id is not None:
            continue
        if entry.withdrawn_after is not None:
            withdrawn.append((player.name, entry.withdrawn_after))
            continue
        row = marks.get(player.id)
        players.append(EntryMarks(player.name, row is not None and row.checked_in_at is not None,
                                  row is not None and row.paid_at is not None))
    waiting = [r for r in signups(session, event) if r.status == "pending"]
    return OrganizerEvening(options.checkin, options.signup, options.fee, players, waiting,
                            registered_lookalikes(session, [r.name for r in waiting]),
                            withdrawn)
