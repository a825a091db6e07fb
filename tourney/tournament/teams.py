"""Teams from the same tables: team standings of an event or a series.

Players play their own games; a team's score is made of its players' results
(the rules are :mod:`.season`'s :func:`~.season.team_table`). Teams are either

- ``club``: every player with a club (``player add --club``) plays for it; players
  without a club are left out (and counted);
- ``declared``: the teams declared for the event or series (:func:`add_members`), a
  player in at most one of them.

A player's value is, in an event, their points in the event's standings; in a
series, their series total (net with handicaps), qualified or not (qualifying,
``min_events``, decides a player's own place only; docs/decisions.md). A player who has not played (no
match or bye in the event, no event of the series) brings nothing and is not
listed. Declared teams belong to one event or one series, named by its slug (a
series' slug is never an event's: :func:`.series.create_series`).
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Sequence

from sqlalchemy import delete, select
from sqlmodel import Session

from ..errors import InvalidValue, Remedy, TourneyError, UsageError, unknown_name
from ..errors.words import N_, Message, or_words, quoted
from ..ordering import name_order
from ..storage.audit import record_change
from ..storage.merges import canonical_players
from ..storage.models import Event, Player, Series, Team, TeamMember
from .players import clean_title, find_player
from .season import TeamRow, team_table
from .series import find_series, series_standings
from .snapshots import event_results

# What makes a team, as codes: the players' clubs, or the teams declared (team add)
TEAM_KINDS: tuple[str, ...] = ("club", "declared")
MAX_COUNT = 1000


def check_count(count: int | None) -> int | None:
    if count is not None and not 1 <= count <= MAX_COUNT:
        raise InvalidValue("count", count, Message(N_("a number of players from %(least)s to "
                                                      "%(most)s"), {"least": 1, "most": MAX_COUNT}))
    return count


def check_kind(kind: str) -> str:
    if kind not in TEAM_KINDS:
        raise InvalidValue("teams", quoted(kind), or_words(TEAM_KINDS))
    return kind


def team_scope(session: Session, slug: str) -> Series | Event:
    """The series or event named ``slug`` (a slug is one or the other)."""
    series = find_series(session, slug)
    if series is not None:
        return series
    event = session.execute(select(Event).where(Event.slug == slug)).scalar()
    if event is None:
        known = sorted(set(session.execute(select(Event.slug)).scalars())
                       | set(session.execute(select(Series.slug)).scalars()))
        raise unknown_name("event-or-series", slug, known,
                           otherwise=None if known else Message(N_("there are no events yet")),
                           remedy=None if known else Remedy("create-event"))
    return event


def _scope_filter(scope: Series | Event):
    return (Team.series_id == scope.id) if isinstance(scope, Series) else (
        Team.event_id == scope.id)


def _teams(session: Session, scope: Series | Event) -> dict[str, Team]:
    return {t.name: t for t in session.execute(select(Team).where(_scope_filter(scope)))
            .scalars()}


def _lock(session: Session, scope: Series | Event) -> None:
    model = type(scope)
    session.execute(select(model.id).where(model.id == scope.id).with_for_update()).first()


def add_members(session: Session, slug: str, team: str, names: Sequence[str]) -> dict:
    """Declare a team of an event or series (made on first use) and add players to
    it. A player already in another team of the same event or series is refused;
    one already in this team is left as is. Every name is checked first."""
    scope = team_scope(session, slug)
    _lock(session, scope)
    team = clean_title(team, "team name")
    if not names:
        raise UsageError(Message(N_("name at least one player")))
    players = list({p.id: p for p in (find_player(session, n) for n in names)}.values())
    teams = _teams(session, scope)
    in_team = dict(session.execute(
        select(TeamMember.player_id, Team.name).join(Team, Team.id == TeamMember.team_id)
        .where(_scope_filter(scope))).all())
    elsewhere = [f"{p.name} ({in_team[p.id]})" for p in players
                 if p.id in in_team and in_team[p.id] != team]
    if elsewhere:
        raise TourneyError(Message(N_("in another team of %(scope)s already: %(players)s (a "
                                      "player plays for one team; remove them from that team "
                                      "first)"),
                                   {"scope": scope.slug, "players": list(elsewhere)}),
                           remedy=Remedy("list-teams", scope=scope.slug))
    row = teams.get(team)
    if row is None:
        row = Team(name=team, **({"series_id": scope.id} if isinstance(scope, Series)
                                 else {"event_id": scope.id}))
        session.add(row)
        session.flush()
    added = [p.name for p in players if p.id not in in_team]
    for player in players:
        if player.id not in in_team:
            session.add(TeamMember(team_id=row.id, player_id=player.id))
    session.flush()
    if added:
        record_change(session, "team.add", f"{scope.slug}: {team}", None, {"players": added},
                      event_id=scope.id if isinstance(scope, Event) else None)
    return {"scope": scope.slug, "team": team, "added": added,
            "already": [p.name for p in players if p.name not in added]}


def remove_members(session: Session, slug: str, team: str, names: Sequence[str] = (), *,
                   lang: str | None = None) -> dict:
    """Take players out of a declared team, or (no names) remove the team (its
    players listed by name, as ``lang`` sorts names)."""
    scope = team_scope(session, slug)
    _lock(session, scope)
    row = _teams(session, scope).get(team)
    if row is None:
        raise unknown_name("team", team, list(_teams(session, scope)), quote=True,
                           otherwise=Message(N_("%(scope)s has no teams"), {"scope": scope.slug}))
    members = dict(session.execute(
        select(TeamMember.player_id, TeamMember.id).where(TeamMember.team_id == row.id)).all())
    if names:
        players = [find_player(session, n) for n in names]
        missing = [p.name for p in players if p.id not in members]
        if missing:
            raise UsageError(Message(N_("not in %(team)s: %(players)s"),
                                     {"team": team, "players": list(missing)}),
                             remedy=Remedy("list-teams", scope=scope.slug))
        removed = [p.name for p in players]
        session.execute(delete(TeamMember).where(
            TeamMember.id.in_([members[p.id] for p in players])))
        gone = False
    else:
        removed = sorted(session.execute(
            select(Player.name).join(TeamMember, TeamMember.player_id == Player.id)
            .where(TeamMember.team_id == row.id)).scalars(), key=name_order(lang))
        session.execute(delete(TeamMember).where(TeamMember.team_id == row.id))
        session.delete(row)
        gone = True
    session.flush()
    record_change(session, "team.remove", f"{scope.slug}: {team}", {"players": removed},
                  None if gone else {"team": team},
                  event_id=scope.id if isinstance(scope, Event) else None)
    return {"scope": scope.slug, "team": team, "removed": removed, "team_removed": gone}


def list_teams(session: Session, slug: str, *, lang: str | None = None) -> list[dict]:
    """The declared teams of an event or series with their players, by name (as
    ``lang`` sorts names)."""
    scope = team_scope(session, slug)
    out: dict[str, list[str]] = {name: [] for name in _teams(session, scope)}
    for team, player in session.execute(
            select(Team.name, Player.name).join(TeamMember, TeamMember.team_id == Team.id)
            .join(Player, Player.id == TeamMember.player_id).where(_scope_filter(scope))):
        out[team].append(player)
    order = name_order(lang)
    return [{"team": team, "players": sorted(players, key=order)}
            for team, players in sorted(out.items(), key=lambda item: order(item[0]))]


@dataclass
class TeamStandings:
    scope: str  # the event's or series' slug
    kind: str  # event | series
    teams: str  # club | declared
    count: int | None
    rows: list[TeamRow]
    left_out: int  # players with a result but no team
    # players counted for a team who have not qualified in the series (--min-events):
    # they count all the same (docs/decisions.md), and the standings say so
    unqualified: int = 0

    def to_json(self) -> dict:
        return {self.kind: self.scope, "teams": self.teams, "count": self.count,
                "left_out": self.left_out, "unqualified_counted": self.unqualified,
                "standings": [row.to_json() for row in self.rows]}


def team_standings(session: Session, slug: str, teams: str = "club", *,
                   count: int | None = None, lang: str | None = None,
                   series_rows: Sequence | None = None) -> TeamStandings:
    """The team standings of an event or series (the module's rules);
    ``series_rows``: the series' standings when the caller has them already."""
    teams, count = check_kind(teams), check_count(count)
    scope = team_scope(session, slug)
    if isinstance(scope, Series):
        if series_rows is None:
            series_rows = series_standings(session, scope, lang=lang).rows
        values = {row.player_id: (row.player, row.total) for row in series_rows}
    else:
        values = {r.player_id: (r.player, r.points)
                  for r in event_results(session, scope, lang=lang or scope.lang)}
    if teams == "club":
        clubs = dict(session.execute(select(Player.id, Player.club).where(
            Player.id.in_(list(values)))).all()) if values else {}
        membership = {pid: club for pid, club in clubs.items() if club}
        names = sorted(set(membership.values()))
    else:
        merged = canonical_players(session)
        membership = {}
        for player_id, team in session.execute(
                select(TeamMember.player_id, Team.name).join(Team, Team.id == TeamMember.team_id)
                .where(_scope_filter(scope))):
            membership.setdefault(merged.get(player_id, player_id), team)
        names = list(_teams(session, scope))
    grouped: dict[str, list] = {name: [] for name in names}
    for player_id, value in values.items():
        if player_id in membership:
            grouped[membership[player_id]].append(value)
    left_out = sum(1 for pid in values if pid not in membership)
    grouped = {name: members for name, members in grouped.items() if members}
    rows = team_table(grouped, count, lang=lang)
    not_qualified = ({row.player for row in series_rows if not row.qualified}
                     if isinstance(scope, Series) else set())
    unqualified = sum(1 for row in rows for player, _ in row.counted if player in not_qualified)
    return TeamStandings(scope.slug, "series" if isinstance(scope, Series) else "event",
                         teams, count, rows, left_out, unqualified)
