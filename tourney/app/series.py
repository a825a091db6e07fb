"""Use cases on a season: series, their handicaps (by hand or from the ratings) and
teams. The series and team services are the tournament package's; deriving
handicaps reads the ratings, so it lives here (the tournament package never reads
ratings).

Handicaps from the rating (the documented rule): in the rating pool of the
series' game (its first event's, :func:`~tourney.tournament.series.handicap_game`:
the handicaps count in the events of that game only; ``variant`` may name it, no
other), each entrant of the series' events with a rating gets

    handicap = factor x (best rating - the player's rating)

rounded to 2 decimals, where a rating is the displayed one (the ordinal, mu - 3
sigma: ``tourney rating show``) and "best" is the highest among the series'
rated entrants (so the best player gets 0, and every weaker player gets the points
that close a share of the gap, added to each event counted). ``factor`` defaults
to :data:`DEFAULT_FACTOR` (a tenth of a point per rating point); pick one to suit
the series' scoring. Entrants without a rating in the pool keep the handicap they
have (reported as unrated). Deriving again after more results updates them; a
handicap set by hand afterwards wins until the next derivation.
"""
from __future__ import annotations

from dataclasses import dataclass, field

from sqlalchemy import select
from sqlmodel import Session

from ..errors import InvalidValue, Remedy, UsageError
from ..errors.words import N_, Message
from ..numbers import plain_number
from ..ratings.service import check_variant, rating_list
from ..storage.models import Entry, Player, Series, SeriesEvent
from ..tournament.series import (
    add_events,
    change_series,
    create_series,
    delete_series,
    describe_series,
    get_series,
    handicap_game,
    handicap_list,
    kept_placing,
    list_series,
    no_handicap_warning,
    remove_events,
    series_events,
    series_standings,
    set_handicaps,
)
from ..tournament.teams import add_members, list_teams, remove_members, team_standings

DEFAULT_FACTOR = 0.1
MAX_FACTOR = 1000.0


@dataclass
class DerivedHandicaps:
    series: str
    variant: str
    factor: float
    best: float | None  # the best rating among the rated entrants
    changes: dict = field(default_factory=dict)  # player -> (before, after)
    handicaps: dict = field(default_factory=dict)  # player -> handicap derived
    unrated: list = field(default_factory=list)

    def to_json(self) -> dict:
        return {"series": self.series, "variant": self.variant, "factor": self.factor,
                "best_rating": self.best, "handicaps": self.handicaps,
                "changes": {p: {"before": b, "after": a} for p, (b, a) in self.changes.items()},
                "unrated": self.unrated}


def derive_handicaps(session: Session, series: Series, *, variant: str | None = None,
                     factor: float | None = None) -> DerivedHandicaps:
    """Set the handicaps of the series' entrants from their ratings (the module's
    rule); stored with source ``rating``, logged as ``series.handicap``."""
    factor = DEFAULT_FACTOR if factor is None else float(factor)
    if not 0 < factor <= MAX_FACTOR:
        raise InvalidValue("factor", factor, Message(N_("a number above 0, at most %(most)s"),
                                                     {"most": plain_number(MAX_FACTOR)}))
    events = series_events(session, series)
    if not events:
        raise UsageError(Message(N_("%(series)s has no events: add them first"),
                                 {"series": series.slug}),
                         remedy=Remedy("add-to-series", series=series.slug))
    game = handicap_game(events)
    if variant is None:
        variant = game
    variant = check_variant(variant)
    if variant != game:
        # the handicaps count in the events of the series' game only: another game's
        # ratings would give them numbers from a game they are never added to
        raise UsageError(Message(N_("%(series)s counts handicaps in its %(game)s events (the "
                                    "game of its first event): they come from %(game)s "
                                    "ratings, not %(variant)s"),
                                 {"series": series.slug, "game": game, "variant": variant}),
                         setting="variant")
    entrants = dict(session.execute(
        select(Player.id, Player.name).join(Entry, Entry.player_id == Player.id)
        .join(SeriesEvent, SeriesEvent.event_id == Entry.event_id)
        .where(SeriesEvent.series_id == series.id)).all())
    ratings = {r.player_id: r.ordinal for r in rating_list(session, variant)
               if r.player_id in entrants}
    best = max(ratings.values()) if ratings else None
    derived = {entrants[pid]: plain_number(factor * (best - value), 2)
               for pid, value in ratings.items()}
    report = DerivedHandicaps(series.slug, variant, factor, best, handicaps=derived,
                              unrated=sorted(n for pid, n in entrants.items()
                                             if pid not in ratings))
    report.changes = set_handicaps(session, series, derived, source="rating")
    return report


__all__ = ["DEFAULT_FACTOR", "DerivedHandicaps", "add_events", "add_members", "change_series",
           "create_series", "delete_series", "derive_handicaps", "describe_series",
           "get_series", "handicap_list", "kept_placing", "list_series", "list_teams",
           "no_handicap_warning", "remove_events",
           "remove_members", "series_events", "series_standings", "set_handicaps",
           "team_standings"]
