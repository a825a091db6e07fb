"""Series in the database: a season of events whose standings add up.

A series names its events (in the order they were added: the columns of its
standings), how each event scores (:data:`.season.SCORING`), how many events count
(``best``), how many a player must play to qualify (``min_events``), and whether
handicaps give net points beside gross. Its standings are computed from the
events' own standings (:func:`.standings.standings_table`) each time they are read
(:func:`series_standings`; the rules are :mod:`.season`'s), taken from an event's
snapshot only while it is still valid (:mod:`.snapshots`), so a corrected result, a
late import or a withdrawn player shows at once.

Events of different variants may form one series: each event's standings are the
event's own (its points system, its tie-breaks, so its places).

A player who *played* an event is one with a match or a bye in it: entering an
event and never playing it is not an event played.

Handicaps are stored per series and player (:class:`SeriesHandicap`), set by hand
or derived from a rating (:mod:`tourney.app.series`, which may read ratings).
"""
from __future__ import annotations

import json
import zlib
from dataclasses import dataclass, field
from typing import Sequence

from sqlalchemy import delete, func, select
from sqlmodel import Session

from ..collector import frozen
from ..errors import InvalidValue, Remedy, TourneyError, UnknownName, UsageError, unknown_name
from ..errors.words import N_, Message, and_words, comma_words, or_words, quoted
from ..numbers import plain_number
from ..storage.audit import record_change
from ..storage.merges import canonical_players
from ..storage.models import (
    Event,
    Player,
    Series,
    SeriesEvent,
    SeriesHandicap,
    Team,
    TeamMember,
    utcnow,
)
from .events import MAX_SLUG, SLUG_PATTERN, check_seed, get_event
from .players import clean_title, find_player
from .season import (
    DEFAULT_PLACING,
    SCORING,
    SeriesRow,
    SeriesRules,
    series_table,
)
from .snapshots import event_results_of, keep_snapshots

MAX_PLACING = 1000  # places in a placing table
MAX_POINTS = 1_000_000  # a placing value or a handicap, either way
# a placing table given to a series not scored by placing (creating it or changing it)
PLACING_TABLE_REFUSED = Message(N_("a placing table is for placing scoring"))


# ------------------------------------------------------------------- checking input

def check_series_slug(slug: str) -> str:
    slug = (slug or "").strip()
    if not SLUG_PATTERN.fullmatch(slug) or len(slug) > MAX_SLUG:
        raise UsageError(Message(N_("a series slug is lower-case letters, digits and dashes "
                                    "of at most %(most)s characters (e.g. club-2025), not "
                                    "%(slug)s"),
                                 {"most": MAX_SLUG,
                                  "slug": quoted(slug[:60] + ('...' if len(slug) > 60 else ''))}))
    return slug


def check_best(best: int | None) -> int | None:
    if best is not None and not 1 <= best <= MAX_PLACING:
        raise InvalidValue("best", best, Message(N_("a number of events from %(least)s to "
                                                    "%(most)s"), {"least": 1, "most": MAX_PLACING}))
    return best


def check_min_events(count: int | None) -> int:
    count = 0 if count is None else count
    if not 0 <= count <= MAX_PLACING:
        raise InvalidValue("min_events", count,
                           Message(N_("a number of events from %(least)s to %(most)s"),
                                   {"least": 0, "most": MAX_PLACING}))
    return count


def check_scoring(scoring: str | None) -> str:
    scoring = scoring or "points"
    if scoring not in SCORING:
        raise InvalidValue("scoring", quoted(scoring), or_words(SCORING))
    return scoring


def parse_placing(text: str | Sequence | None) -> tuple:
    """A placing table from ``"25,18,15"`` (or a list of numbers): the points of
    place 1, 2, 3...; numbers from 0 up, at least one, none more than the place
    before it's (equal points for places next to each other are fine)."""
    if text is None:
        return DEFAULT_PLACING
    items = text.split(",") if isinstance(text, str) else list(text)
    allowed = Message(N_("comma-separated points of place 1, 2, 3... (e.g. 25,18,15,12)"))
    values = []
    for item in items:
        try:
            value = float(str(item).strip())
        except ValueError:
            raise InvalidValue("placing_points", quoted(text), allowed) from None
        if not 0 <= value <= MAX_POINTS:
            raise InvalidValue("placing_points", quoted(text),
                               Message(N_("points from %(least)s to %(most)s for each place"),
                                       {"least": 0, "most": MAX_POINTS}))
        values.append(plain_number(value))
    if not values or len(values) > MAX_PLACING:
        raise InvalidValue("placing_points", quoted(text), allowed)
    for place, (better, worse) in enumerate(zip(values, values[1:]), 2):
        if worse > better:  # 10,20 gives the second more than the winner: a slip
            raise InvalidValue("placing_points", quoted(text), Message(
                N_("points that never grow with the place (place %(place)s would get more "
                   "than place %(before)s)"), {"place": place, "before": place - 1}))
    return tuple(values)


def check_handicap_value(value: float) -> float:
    if not -MAX_POINTS <= value <= MAX_POINTS or value != value:
        raise InvalidValue("handicap", value, Message(N_("points from %(least)s to %(most)s"),
                                                      {"least": -MAX_POINTS, "most": MAX_POINTS}))
    return plain_number(value)


def default_seed(slug: str) -> int:
    return zlib.crc32(("series:" + slug).encode()) & 0x7FFFFFFF


# ------------------------------------------------------------------------ the series

def get_series(session: Session, slug: str) -> Series:
    """The series named ``slug``; every command names an unknown series this way."""
    found = find_series(session, slug)
    if found is None:
        known = list(session.execute(select(Series.slug).order_by(Series.slug)).scalars())
        raise unknown_name("series", slug, known,
                           otherwise=None if known else Message(N_("there are no series yet")),
                           remedy=None if known else Remedy("create-series"))
    return found


def find_series(session: Session, slug: str) -> Series | None:
    return session.execute(select(Series).where(Series.slug == slug)).scalar()


@dataclass(frozen=True)
class SeriesInfo:
    """A series' settings as commands report them and the audit log keeps them."""

    slug: str
    name: str
    best: int | None
    min_events: int
    scoring: str
    placing: tuple
    handicap: bool
    seed: int

    @classmethod
    def of(cls, series: Series) -> "SeriesInfo":
        return cls(series.slug, series.name, series.best, series.min_events, series.scoring,
                   tuple(json.loads(series.placing_json) or DEFAULT_PLACING),
                   series.handicap, series.seed)

    def rules(self) -> SeriesRules:
        return SeriesRules(best=self.best, min_events=self.min_events, scoring=self.scoring,
                           placing=self.placing, handicap=self.handicap, seed=self.seed)

    def to_json(self) -> dict:
        return {"slug": self.slug, "name": self.name, "best": self.best,
                "min_events": self.min_events, "scoring": self.scoring,
                "placing_points": list(self.placing) if self.scoring == "placing" else None,
                "handicap": self.handicap, "seed": self.seed}


def create_series(session: Session, slug: str, *, name: str | None = None,
                  best: int | None = None, min_events: int | None = None,
                  scoring: str | None = None, placing: str | Sequence | None = None,
                  handicap: bool = False, seed: int | None = None) -> Series:
    """Create a series; every setting is checked before anything is written. A
    series' slug is never an event's (``team add SLUG`` names either)."""
    slug = check_series_slug(slug)
    title = clean_title(name, "series name") if name is not None else slug
    best = check_best(best)
    min_events = check_min_events(min_events)
    scoring = check_scoring(scoring)
    if placing is not None and scoring != "placing":
        raise UsageError(PLACING_TABLE_REFUSED, setting="scoring")
    table = parse_placing(placing)
    seed = default_seed(slug) if seed is None else check_seed(seed)
    if find_series(session, slug) is not None:
        raise TourneyError(Message(N_("there is already a series %(slug)s"),
                                   {"slug": quoted(slug)}))
    if session.execute(select(Event.id).where(Event.slug == slug)).first() is not None:
        raise TourneyError(Message(N_("%(slug)s is an event's slug; a series needs a slug of "
                                      "its own"), {"slug": quoted(slug)}))
    series = Series(slug=slug, name=title, best=best, min_events=min_events, scoring=scoring,
                    placing_json=json.dumps(list(table) if scoring == "placing" else []),
                    handicap=bool(handicap), seed=seed)
    session.add(series)
    session.flush()
    record_change(session, "series.create", slug, None, SeriesInfo.of(series).to_json())
    return series


def lock_series(session: Session, series: Series) -> None:
    """Serialise changes to one series (PostgreSQL; SQLite's writes are serial)."""
    session.execute(select(Series.id).where(Series.id == series.id).with_for_update()).first()


SETTINGS = ("name", "best", "min_events", "scoring", "placing_points", "handicap", "seed")


def change_series(session: Session, series: Series, *, name: str | None = None,
                  best: int | None = None, min_events: int | None = None,
                  scoring: str | None = None, placing: str | Sequence | None = None,
                  handicap: bool | None = None, seed: int | None = None,
                  unset: Sequence[str] = ()) -> dict[str, tuple]:
    """Change a series' settings (any of them, at any time: the standings are
    computed when read). ``unset``: ``best`` (every event counts again). The
    changes, ``{setting: (before, after)}``; empty when nothing changed."""
    lock_series(session, series)
    for setting in unset:
        if setting != "best":
            raise UsageError(Message(N_("only best can be unset, not %(setting)s"),
                                     {"setting": quoted(setting)}), setting="unset")
    before = _stored_settings(series)
    if name is not None:
        series.name = clean_title(name, "series name")
    if best is not None:
        series.best = check_best(best)
    elif "best" in unset:
        series.best = None
    if min_events is not None:
        series.min_events = check_min_events(min_events)
    if scoring is not None:
        series.scoring = check_scoring(scoring)
    if placing is not None:
        if series.scoring != "placing":
            raise UsageError(PLACING_TABLE_REFUSED, setting="scoring")
        series.placing_json = json.dumps(list(parse_placing(placing)))
    elif series.scoring == "placing" and not json.loads(series.placing_json):
        series.placing_json = json.dumps(list(DEFAULT_PLACING))
    if handicap is not None:
        series.handicap = bool(handicap)
    if seed is not None:
        series.seed = check_seed(seed)
    after = _stored_settings(series)
    changes = {k: (before[k], after[k]) for k in after if before[k] != after[k]}
    if changes:
        session.add(series)
        session.flush()
        record_change(session, "series.set", series.slug,
                      {k: b for k, (b, _) in changes.items()},
                      {k: a for k, (_, a) in changes.items()})
    return changes


def kept_placing(series: Series) -> list | None:
    """The placing table a series keeps (None: none given, the default is used)."""
    return json.loads(series.placing_json) or None


def _stored_settings(series: Series) -> dict:
    """A series' settings as stored, for what a change changed: its placing table
    is kept while it scores points (a switch back to placing uses it again), so
    a change of scoring alone is no change of the table."""
    settings = SeriesInfo.of(series).to_json()
    settings["placing_points"] = kept_placing(series)
    return settings


def series_events(session: Session, series: Series) -> list[Event]:
    """The series' events in column order (the order they were added)."""
    return list(session.execute(
        select(Event).join(SeriesEvent, SeriesEvent.event_id == Event.id)
        .where(SeriesEvent.series_id == series.id)
        .order_by(SeriesEvent.position, SeriesEvent.id)).scalars())


@dataclass
class EventsChange:
    series: str
    verb: str  # added | removed
    changed: list[str]  # the events added or removed
    unchanged: list[str]  # already in (add) or not in (remove)
    events: list[str]  # the series' events after
    warnings: list["SeriesWarning"] = field(default_factory=list)

    def to_json(self) -> dict:
        return {"series": self.series, self.verb: self.changed,
                "already_in" if self.verb == "added" else "not_in": self.unchanged,
                "events": self.events, "warnings": [w.to_json() for w in self.warnings]}


# Players named, at most, in a warning of places that changed (the rest counted).
MOVES_NAMED = 5


@dataclass(frozen=True)
class SeriesWarning:
    """A change to a series done, with something its organizer should know, as a
    code and its data (the command line and the pages word it: :attr:`words`):

    - ``standings-changed``: events taken out changed the standings; ``events``,
      ``players`` (in the standings before), ``totals`` (of them, those whose total
      changed or who left the standings), ``moved`` (``[player, place before,
      place after]`` of the first :data:`MOVES_NAMED` whose place changed, best
      after first; a place ``None``: none, not qualified or gone), ``moved_count``;
    - ``no-handicap``: events added to a series with handicaps are of another game
      than its handicaps' (:func:`handicap_game`) and count without one; ``events``,
      their ``games``, ``handicap_game``.
    - ``handicap-game-changed``: events taken out of a series with handicaps took
      its first event with them, and the game the handicaps are for changed (the
      cause of a ``standings-changed`` beside it); ``events``, the game ``before``
      and ``after``, the ``first`` event now (whose game it is).
    """

    code: str
    data: tuple  # the data's items, in order (frozen: a dict is not)

    @property
    def fields(self) -> dict:
        return dict(self.data)

    @property
    def words(self) -> Message:
        data = self.fields
        if self.code == "standings-changed":
            params = {"events": and_words(data["events"]), "totals": data["totals"],
                      "players": data["players"]}
            if not data["moved"]:
                return Message(N_("taking %(events)s out changes the standings: %(totals)s of "
                                  "%(players)s players have another total; no place "
                                  "changes"), params)
            moves = [Message(N_("%(player)s %(before)s → %(after)s"),
                             {"player": player, "before": "–" if before is None else before,
                              "after": "–" if after is None else after})
                     for player, before, after in data["moved"]]
            moved = comma_words(moves)
            if data["moved_count"] > len(moves):
                moved = Message(N_("%(names)s and %(count)s more"),
                                {"names": moved, "count": data["moved_count"] - len(moves)})
            return Message(N_("taking %(events)s out changes the standings: %(totals)s of "
                              "%(players)s players have another total; places: %(moved)s"),
                           {**params, "moved": moved})
        if self.code == "handicap-game-changed":
            return Message(N_("taking %(events)s out changes the game the handicaps are for "
                              "from %(before)s to %(after)s, the game of %(first)s, now the "
                              "series' first event: the handicaps now add to %(after)s "
                              "results only"),
                           {"events": and_words(data["events"]), "before": data["before"],
                            "after": data["after"], "first": data["first"]})
        if self.code == "no-handicap":
            return Message(N_("%(events)s counts without a handicap: the series' handicaps are "
                              "for %(game)s (the game of its first event), %(events)s is "
                              "%(other)s") if len(data["events"]) == 1 else
                           N_("%(events)s count without a handicap: the series' handicaps are "
                              "for %(game)s (the game of its first event), %(events)s are "
                              "%(other)s"),
                           {"events": and_words(data["events"]),
                            "game": data["handicap_game"],
                            "other": and_words(data["games"])})
        raise ValueError(self.code)

    @property
    def text(self) -> str:
        return str(self.words)

    def to_json(self) -> dict:
        return {"warning": self.code, **self.fields, "message": self.text}


def standings_change(events: Sequence[str], before: Sequence[SeriesRow],
                     after: Sequence[SeriesRow]) -> SeriesWarning | None:
    """What taking ``events`` out of a series did to its standings (``before`` and
    ``after``), as a warning; ``None`` when no total and no place changed."""
    now = {row.player_id: row for row in after}
    totals = 0
    moved = []
    for row in before:
        later = now.get(row.player_id)
        if later is None or (later.gross, later.net) != (row.gross, row.net):
            totals += 1
        if later is None or later.place != row.place:
            moved.append((row.player, row.place, None if later is None else later.place))
    if not totals and not moved:
        return None
    # best place after first, then those who have none
    moved.sort(key=lambda m: (m[2] is None, m[2] or 0, m[1] is None, m[1] or 0))
    return SeriesWarning("standings-changed", (
        ("events", list(events)), ("players", len(before)), ("totals", totals),
        ("moved", [list(m) for m in moved[:MOVES_NAMED]]), ("moved_count", len(moved))))


def handicap_game_change(series: Series, events: Sequence[str], before: Sequence[Event],
                         after: Sequence[Event]) -> SeriesWarning | None:
    """The ``handicap-game-changed`` warning when taking ``events`` out of a series
    with handicaps changed its first event's game (``before`` and ``after``: its
    events in column order); None when the game is the same, or no event is left
    (nothing counts then)."""
    if not series.handicap or not after:
        return None
    was, now = handicap_game(before), handicap_game(after)
    if was == now:
        return None
    return SeriesWarning("handicap-game-changed", (
        ("events", list(events)), ("before", was), ("after", now), ("first", after[0].slug)))


def _slugs_given(slugs: Sequence[str]) -> list[str]:
    given = list(dict.fromkeys(s.strip() for s in slugs))
    if not given:
        raise UsageError(Message(N_("name at least one event")))
    return given


def _series_event(session: Session, slug: str) -> Event:
    """The event of a slug given to a series; a series' slug is said to be one (a
    series holds events, not other series)."""
    try:
        return get_event(session, slug)
    except UnknownName as err:
        if find_series(session, slug) is None:
            raise
        raise UnknownName(Message(N_("%(slug)s is a series, not an event: a series holds "
                                     "events only"), {"slug": quoted(slug)}),
                          kind="event", names=(slug,)) from err


def add_events(session: Session, series: Series, slugs: Sequence[str]) -> EventsChange:
    """Add events to a series, after those it has (each one is a new column); an
    event already in it is left where it is. Every slug is checked first."""
    lock_series(session, series)
    events = [_series_event(session, slug) for slug in _slugs_given(slugs)]
    have = {e.id for e in series_events(session, series)}
    position = session.execute(select(func.max(SeriesEvent.position))
                               .where(SeriesEvent.series_id == series.id)).scalar() or 0
    added = []
    for event in events:
        if event.id in have:
            continue
        position += 1
        session.add(SeriesEvent(series_id=series.id, event_id=event.id, position=position))
        have.add(event.id)
        added.append(event.slug)
    session.flush()
    now = series_events(session, series)
    report = EventsChange(series.slug, "added", added, [e.slug for e in events if e.slug not in added],
                          [e.slug for e in now])
    warning = no_handicap_warning(series, now, added)
    if warning is not None:
        report.warnings.append(warning)
    if added:
        record_change(session, "series.add", series.slug, None, {"events": added})
        keep_snapshots(session, [e.id for e in events if e.slug in added])
    return report


def remove_events(session: Session, series: Series, slugs: Sequence[str]) -> EventsChange:
    """Take events out of a series (the events themselves stay)."""
    lock_series(session, series)
    events = [_series_event(session, slug) for slug in _slugs_given(slugs)]
    had = series_events(session, series)
    before = series_standings(session, series).rows
    removed = []
    for event in events:
        row = session.execute(select(SeriesEvent).where(
            SeriesEvent.series_id == series.id, SeriesEvent.event_id == event.id)).scalar()
        if row is not None:
            session.delete(row)
            removed.append(event.slug)
    session.flush()
    now = series_events(session, series)
    report = EventsChange(series.slug, "removed", removed,
                          [e.slug for e in events if e.slug not in removed],
                          [e.slug for e in now])
    if removed:
        record_change(session, "series.remove", series.slug, {"events": removed}, None)
        # the cause (another game's handicaps), then its effect on the standings
        for warning in (handicap_game_change(series, removed, had, now),
                        standings_change(removed, before, series_standings(session, series).rows)):
            if warning is not None:
                report.warnings.append(warning)
    return report


def delete_series(session: Session, series: Series) -> dict:
    """Delete a series with its handicaps and declared teams (its events stay);
    what it had, as the audit log keeps it."""
    lock_series(session, series)
    before = {**SeriesInfo.of(series).to_json(),
              "events": [e.slug for e in series_events(session, series)]}
    teams = list(session.execute(select(Team.id).where(Team.series_id == series.id)).scalars())
    if teams:
        session.execute(delete(TeamMember).where(TeamMember.team_id.in_(teams)))
        session.execute(delete(Team).where(Team.id.in_(teams)))
    handicaps = session.execute(delete(SeriesHandicap).where(
        SeriesHandicap.series_id == series.id)).rowcount
    session.execute(delete(SeriesEvent).where(SeriesEvent.series_id == series.id))
    session.delete(series)
    session.flush()
    record_change(session, "series.delete", before["slug"], before, None)
    return {"series": before["slug"], "events": before["events"], "teams": len(teams),
            "handicaps": handicaps}


def list_series(session: Session) -> list[dict]:
    """Every series with its settings and event count, by slug."""
    counts = dict(session.execute(select(SeriesEvent.series_id, func.count())
                                  .group_by(SeriesEvent.series_id)).all())
    return [{**SeriesInfo.of(s).to_json(), "events": counts.get(s.id, 0)}
            for s in session.execute(select(Series).order_by(Series.slug)).scalars()]


def handicaps(session: Session, series: Series) -> dict[int, SeriesHandicap]:
    return {h.player_id: h for h in session.execute(
        select(SeriesHandicap).where(SeriesHandicap.series_id == series.id)).scalars()}


def handicap_list(session: Session, series: Series) -> list[dict]:
    """The series' handicaps: player, value, how it was set (hand or rating)."""
    from ..ordering import name_key

    rows = session.execute(
        select(Player.name, SeriesHandicap.value, SeriesHandicap.source)
        .join(Player, Player.id == SeriesHandicap.player_id)
        .where(SeriesHandicap.series_id == series.id)).all()
    return [{"player": name, "handicap": plain_number(value), "source": source}
            for name, value, source in sorted(rows, key=lambda r: name_key(r[0]))]


def describe_series(session: Session, series: Series) -> dict:
    """A series as `series show` reports it: settings, events, handicaps, teams."""
    events = series_events(session, series)
    teams = session.execute(
        select(Team.name, func.count(TeamMember.id)).outerjoin(
            TeamMember, TeamMember.team_id == Team.id)
        .where(Team.series_id == series.id).group_by(Team.id, Team.name)
        .order_by(Team.name)).all()
    return {**SeriesInfo.of(series).to_json(),
            "events": [{"slug": e.slug, "name": e.name, "variant": e.variant,
                        "date": e.date.isoformat() if e.date else None} for e in events],
            "handicaps": handicap_list(session, series),
            "teams": [{"team": name, "players": count} for name, count in teams]}


def set_handicaps(session: Session, series: Series, values: dict[str, float | None], *,
                  source: str = "hand") -> dict[str, tuple]:
    """Set players' handicaps in a series (name -> points added to each event
    counted; ``None`` removes one). The changes, ``{player: (before, after)}``."""
    lock_series(session, series)
    have = handicaps(session, series)
    changes = {}
    for name, value in values.items():
        player = find_player(session, name)
        row = have.get(player.id)
        before = plain_number(row.value) if row is not None else None
        after = None if value is None else check_handicap_value(float(value))
        if before == after and (row is None or row.source == source or after is None):
            continue
        if after is None:
            session.delete(row)
        elif row is None:
            row = SeriesHandicap(series_id=series.id, player_id=player.id, value=after,
                                 source=source)
            session.add(row)
            have[player.id] = row
        else:
            row.value, row.source, row.updated_at = after, source, utcnow()
            session.add(row)
        changes[player.name] = (before, after)
    session.flush()
    if changes:
        record_change(session, "series.handicap", series.slug,
                      {p: b for p, (b, _) in changes.items()},
                      {p: a for p, (_, a) in changes.items()})
    return changes


# ----------------------------------------------------------------------- standings

def handicap_game(events: Sequence[Event]) -> str | None:
    """The game a series' handicaps are for: its first event's (a handicap comes
    from one game's ratings); None for a series with no events yet."""
    return events[0].variant if events else None


def without_handicap(handicap: bool, events: Sequence[Event]) -> list[Event]:
    """The events of a series that count without a handicap: with handicaps on,
    those of another game than :func:`handicap_game`'s."""
    game = handicap_game(events)
    return [e for e in events if e.variant != game] if handicap else []


def no_handicap_warning(series: Series, events: Sequence[Event],
                        among: Sequence[str] | None = None) -> SeriesWarning | None:
    """The ``no-handicap`` warning of a series with handicaps whose ``events`` (all
    of them, in column order) include some of another game (of ``among``, slugs,
    when given: the events just added); None when there is nothing to say."""
    other_game = [e for e in without_handicap(series.handicap, events)
                  if among is None or e.slug in among]
    if not other_game:
        return None
    return SeriesWarning("no-handicap", (
        ("events", [e.slug for e in other_game]),
        ("games", sorted({e.variant for e in other_game})),
        ("handicap_game", handicap_game(events))))


@dataclass
class SeriesStandings:
    series: SeriesInfo
    events: list[Event]
    rows: list[SeriesRow]

    @property
    def slugs(self) -> list[str]:
        return [e.slug for e in self.events]

    @property
    def handicap_game(self) -> str | None:
        return handicap_game(self.events) if self.series.handicap else None

    @property
    def without_handicap(self) -> list[Event]:
        return without_handicap(self.series.handicap, self.events)

    def to_json(self) -> dict:
        slugs = self.slugs
        return {"series": self.series.to_json(),
                "events": [{"slug": e.slug, "name": e.name, "variant": e.variant,
                            "date": e.date.isoformat() if e.date else None}
                           for e in self.events],
                "handicap_game": self.handicap_game,
                "without_handicap": [e.slug for e in self.without_handicap],
                "standings": [row.to_json(slugs) for row in self.rows]}


def series_standings(session: Session, series: Series, *, lang: str | None = None
                     ) -> SeriesStandings:
    """The series' standings now, from its events' standings (:mod:`.season`)."""
    info = SeriesInfo.of(series)
    events = series_events(session, series)
    # bulk work: what is read stays alive while the events' standings make many
    # short-lived objects (tourney.collector)
    with frozen(young=50_000):
        results = event_results_of(session, events, lang=lang)
    merged = canonical_players(session)  # a merged duplicate's handicap is the kept one's
    values = {}
    stored = session.execute(select(SeriesHandicap.player_id, SeriesHandicap.value)
                             .where(SeriesHandicap.series_id == series.id)).all()
    for player_id, value in sorted(stored, key=lambda item: item[0] in merged):
        values.setdefault(merged.get(player_id, player_id), value)
    unhandicapped = {e.id for e in without_handicap(info.handicap, events)}
    rows = series_table(info.rules(), results, values, lang=lang,
                        unhandicapped={i for i, e in enumerate(events) if e.id in unhandicapped})
    return SeriesStandings(info, events, rows)
