"""Match versions: every stored import of a match, which one is current, reverting.

Each import of new content for a match (event, round, table) stores a new
:class:`~tourney.storage.models.MatchVersion` (see :mod:`.results`); the match points
at its current one. :func:`match_history` lists the versions, :func:`match_detail`
shows one (:func:`round_results`: the current one of every match of a round),
:func:`revert_match` makes an older one current again (the caller then
refreshes the ratings: :func:`tourney.app.results.revert_result`).
"""
from __future__ import annotations

import json
from dataclasses import dataclass, replace

from sqlalchemy import select
from sqlmodel import Session

from ..errors import Remedy, TourneyError, no_table, no_version
from ..errors.seats import seat_number
from ..errors.words import N_, Message
from ..numbers import plain_number
from ..storage.audit import record_change
from ..storage.merges import current_names, rename_players
from ..storage.models import Deal, Event, Match, MatchPlace, MatchVersion, Player, utcnow
from ..times import utc_iso
from .events import get_event
from .results import current_user


def find_match(session: Session, event: Event, round_number: int, table: str,
               for_update: bool = False) -> Match:
    """A stored match; ``for_update`` locks its row until the transaction ends
    (a command about to change its current version)."""
    query = select(Match).where(Match.event_id == event.id,
                                Match.round_number == round_number, Match.table == table)
    if for_update:
        query = query.with_for_update()
    match = session.execute(query).scalars().first()
    if match is None:
        raise no_match(session, event, round_number, table)
    return match


def no_match(session: Session, event: Event, round_number: int, table: str) -> TourneyError:
    """Why a table has no stored result: a round or table the event does not have
    (a usage error, worded as everywhere: :func:`tourney.errors.no_round`,
    :func:`~tourney.errors.no_table`), else a seated table whose result is not in
    yet (refused)."""
    from .rounds import get_round, seated_keys  # rounds reads results: imported late

    tables, _ = seated_keys(session, get_round(session, event, round_number))
    if table not in tables:
        return no_table(event.slug, round_number, table, tables)
    return TourneyError(Message(N_("%(event)s round %(round)s, table %(table)s has no result "
                                   "stored yet; import it first"),
                                {"event": event.slug, "round": round_number, "table": table}),
                        remedy=Remedy("import-results"))


def _no_version(session: Session, match: Match, slug: str, version: int) -> TourneyError:
    known = session.execute(select(MatchVersion.version).where(
        MatchVersion.match_id == match.id).order_by(MatchVersion.version)).scalars().all()
    return no_version(slug, match.round_number, match.table, version, known)


@dataclass(frozen=True)
class VersionInfo:
    """A stored version of a match's result, as ``result history`` and ``result
    show`` report it: ``current`` when it is the match's live version."""

    version: int
    current: bool
    imported_at: str | None
    imported_by: str | None
    file: str | None
    file_sha256: str | None
    content_sha256: str
    superseded_at: str | None
    deals: int
    verified_moves: int
    ranking: list

    @classmethod
    def of(cls, version: MatchVersion, current_id: int | None) -> "VersionInfo":
        return cls(version.version, version.id == current_id, utc_iso(version.imported_at),
                   version.imported_by, version.source_file, version.source_sha256,
                   version.content_sha256, utc_iso(version.superseded_at), version.deals,
                   version.verified_moves, json.loads(version.ranking_json or "[]"))

    def to_json(self) -> dict:
        return {
            "version": self.version, "current": self.current,
            "imported_at": self.imported_at, "imported_by": self.imported_by,
            "file": self.file, "file_sha256": self.file_sha256,
            "content_sha256": self.content_sha256, "superseded_at": self.superseded_at,
            "deals": self.deals, "verified_moves": self.verified_moves,
            "ranking": self.ranking,
        }


def match_history(session: Session, slug: str, round_number: int, table: str) -> list[dict]:
    """Every stored version of a match, oldest first."""
    event = get_event(session, slug)
    match = find_match(session, event, round_number, table)
    versions = session.execute(select(MatchVersion).where(MatchVersion.match_id == match.id)
                               .order_by(MatchVersion.version)).scalars().all()
    names = current_names(session)  # the versions keep the names as imported
    return [replace(info, ranking=[[names.get(name, name), place] for name, place in info.ranking])
            .to_json() for info in (VersionInfo.of(v, match.current_version_id) for v in versions)]


def revert_match(session: Session, slug: str, round_number: int, table: str, version: int,
                 actor: str | None = None) -> bool:
    """Make an older version of a match current again; False if it already was.

    The version that was current is marked superseded; the reinstated one loses its
    mark. Audit-logged (``result.revert``). The caller refreshes the ratings of the
    event's variant (:func:`tourney.app.results.revert_result` does).
    """
    event = get_event(session, slug)
    match = find_match(session, event, round_number, table, for_update=True)
    target = session.execute(select(MatchVersion).where(
        MatchVersion.match_id == match.id, MatchVersion.version == version)).scalars().first()
    if target is None:
        raise _no_version(session, match, slug, version)
    if target.id == match.current_version_id:
        return False
    now = utcnow()
    before = None
    if match.current_version_id is not None:
        current = session.get(MatchVersion, match.current_version_id)
        current.superseded_at = now
        before = {"version": current.version, "content_sha256": current.content_sha256}
        session.add(current)
    target.superseded_at = None
    match.current_version_id = target.id
    session.add(target)
    session.add(match)
    session.flush()
    record_change(session, "result.revert", f"{slug} round {round_number} table {table}",
                  before, {"version": target.version, "content_sha256": target.content_sha256},
                  event_id=event.id, actor=(actor or current_user())[:100])
    return True


def match_detail(session: Session, slug: str, round_number: int, table: str,
                 version: int | None = None) -> dict:
    """A match's version (the current one unless ``version``): places and deals."""
    event = get_event(session, slug)
    match = find_match(session, event, round_number, table)
    query = select(MatchVersion).where(MatchVersion.match_id == match.id)
    if version is None:
        query = query.where(MatchVersion.id == match.current_version_id)
    else:
        query = query.where(MatchVersion.version == version)
    chosen = session.execute(query).scalars().first()
    if chosen is None and version is not None:
        raise _no_version(session, match, slug, version)
    if chosen is None:  # every version superseded: none is current
        raise TourneyError(Message(N_("%(event)s round %(round)s, table %(table)s has no "
                                      "current result; name a version"),
                                   {"event": slug, "round": round_number, "table": table}),
                           setting="version")
    places = session.execute(
        select(MatchPlace, Player.name).join(Player, Player.id == MatchPlace.player_id)
        .where(MatchPlace.version_id == chosen.id)
        .order_by(MatchPlace.place, MatchPlace.seat)).all()
    deals = session.execute(select(Deal).where(Deal.version_id == chosen.id)
                            .order_by(Deal.number)).scalars().all()
    detail = {"event": slug, "variant": event.variant, "round": round_number, "table": table}
    detail.update(VersionInfo.of(chosen, match.current_version_id).to_json())
    detail["deal_count"] = detail.pop("deals")
    detail["places"] = [_place_json(p, name) for p, name in places]
    names = current_names(session)  # the deals keep the names as imported
    detail["deals"] = [_deal_json(d, names, detail["places"]) for d in deals]
    return detail


def _place_json(place, name: str) -> dict:
    return {"player": name, "seat": seat_number(place.seat), "place": place.place,
            "total": plain_number(place.total), "points": plain_number(place.match_points)}


def _deal_json(deal, names: dict[str, str], places: list[dict]) -> dict:
    """A stored deal: its ``players`` and ``scores`` in the deal's own order (a
    game's players in its colour order when colours alternate), and ``by_seat``
    the same scores by the match's seats (``places``: :func:`_place_json`), so
    every deal of a match reads in one order."""
    players = rename_players(deal.players, names).split(";")
    scores = dict(zip(players, deal.scores.split(";") if deal.scores else ()))
    by_seat = [{"seat": place["seat"], "player": place["player"],
                "score": _score(scores.get(place["player"]))}
               for place in sorted(places, key=lambda place: place["seat"])]
    return {"deal": deal.number, "players": players,
            "dealer": rename_players(deal.dealer, names), "scores": deal.scores,
            "by_seat": by_seat, "verified": deal.verified}


def _score(text: str | None) -> int | float | str | None:
    """A stored score (canonical text) as a number; ``None`` when the deal has none."""
    if text is None or text == "":
        return None
    try:
        return plain_number(float(text))
    except ValueError:
        return text


def round_results(session: Session, event: Event, round_number: int) -> dict[str, dict]:
    """The current result of every match of a round that has one, by table: its
    ``places`` and ``deals`` as :func:`match_detail` gives them, read in a few
    queries for the whole round (the organizer's page shows every table's)."""
    current = (select(Match.current_version_id, Match.table)
               .where(Match.event_id == event.id, Match.round_number == round_number,
                      Match.current_version_id.is_not(None)))
    tables = dict(session.execute(current).all())
    if not tables:
        return {}
    out = {table: {"places": [], "deals": []} for table in tables.values()}
    of_round = (Match.event_id == event.id, Match.round_number == round_number)
    for place, name in session.execute(
            select(MatchPlace, Player.name).join(Player, Player.id == MatchPlace.player_id)
            .join(Match, Match.current_version_id == MatchPlace.version_id).where(*of_round)
            .order_by(MatchPlace.version_id, MatchPlace.place, MatchPlace.seat)).all():
        out[tables[place.version_id]]["places"].append(_place_json(place, name))
    names = current_names(session)  # the deals keep the names as imported
    for deal in session.execute(
            select(Deal.version_id, Deal.number, Deal.players, Deal.dealer, Deal.scores,
                   Deal.verified)
            .join(Match, Match.current_version_id == Deal.version_id).where(*of_round)
            .order_by(Deal.version_id, Deal.number)).all():
        table = out[tables[deal.version_id]]
        table["deals"].append(_deal_json(deal, names, table["places"]))
    return out

