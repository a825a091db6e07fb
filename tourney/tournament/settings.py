"""An event's settings, decoded once from its row.

The event row stores its house rules and tie-breaks as JSON text
(``Event.rules_json``, ``Event.tiebreaks_json``). :func:`event_settings` is the one
place that decodes them, with one policy for stored text that is not what it
should be (a :class:`~tourney.errors.TourneyError` naming the event), and resolves
the rules with the variant's engine. Everything that needs an event's game,
options or tie-breaks asks it: the importer, the score sheets, the standings,
``event show`` and the site.
"""
from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from ..engines import get_game
from ..engines.base import Game
from ..engines.presentation import N_, Message, did_you_mean
from ..errors import RecordError, TourneyError
from ..records.csv_format import DealRecord
from ..records.validation import RecordChecker, other_event, other_variant  # noqa: F401  (their home is the records)
from ..storage.models import Event


@dataclass(frozen=True)
class EventSettings:
    """What an event plays: its variant's engine, the house rules as given and as
    resolved by the engine, and its tie-break ids as stored (empty: the default
    order, :data:`tourney.tournament.standings.DEFAULT_TIEBREAKS`)."""

    slug: str
    game: Game
    rules: dict[str, str]  # as given at creation (not to be changed)
    options: dict[str, Any]  # every option of the variant, resolved (not to be changed)
    tiebreaks: tuple[str, ...]


def event_settings(event: Event) -> EventSettings:
    """The settings of ``event``; a :class:`TourneyError` when its stored rules or
    tie-breaks are not readable (a database edited by hand)."""
    rules = _stored(event, event.rules_json, "rules", dict, "{}")
    tiebreaks = _stored(event, event.tiebreaks_json, "tie-breaks", list, "[]")
    game = get_game(event.variant)
    return EventSettings(
        slug=event.slug, game=game, rules=dict(rules),
        options=game.resolve_options(rules),
        tiebreaks=tuple(str(t) for t in tiebreaks))


def not_entered(strangers: list[str], slug: str, entered,
                players: list[str] | None = None) -> RecordError:
    """Names in a row that find no player entered in the event; a look-alike of an
    entered name (apart from case, accents or spaces), else a close misspelling of
    one, is offered as the result import offers it. With the row's ``players`` (in
    seat order) the error names the first stranger's seat and name, as the
    import's ``not-seated`` does."""
    from ..person_names import suggested_names

    seat = (players.index(strangers[0]) if players is not None and strangers[0] in players
            else None)
    hint = did_you_mean(suggested_names(strangers, entered))
    words = {"players": ", ".join(strangers), "event": slug}
    return RecordError(Message(N_("%(players)s not entered in %(event)s"), words) if hint is None
                       else Message(N_("%(players)s not entered in %(event)s (%(hint)s)"),
                                    {**words, "hint": hint}),
                       rule="not-entered", column="players", seat=seat,
                       player=strangers[0] if seat is not None else None)


def event_checker(settings: EventSettings, entered: dict[str, str] | None = None,
                  **kwargs) -> RecordChecker:
    """A :class:`RecordChecker` for the records of one event: every deal and match
    checked with the event's variant, house rules and match rules, as the result
    import checks them (its settings are these), and a row naming another event or
    variant refused in the import's words. With ``entered`` (the names of the
    event's players, :func:`~tourney.tournament.players.entered_names`) a name of
    no entered player is refused (``not-entered``). Nothing is written; the seating
    is the import's to check."""
    game_id = settings.game.id

    def options_for(record: DealRecord, game: Game) -> dict:
        if record.event is not None and record.event != settings.slug:
            raise other_event(record.event, settings.slug)
        if game.id != game_id:
            raise other_variant(settings.slug, game_id, game.id)
        if entered is not None:
            strangers = [p for p in record.players if p not in entered]
            if strangers:
                raise not_entered(strangers, settings.slug, entered, record.players)
        return settings.options

    return RecordChecker(variant=game_id, options_for=options_for, **kwargs)


# a stored setting that cannot be read (a damaged database), by the setting
STORED_WORDS = {"rules": N_("event %(event)s: its stored rules are not readable"),
                "tie-breaks": N_("event %(event)s: its stored tie-breaks are not readable")}


def _stored(event: Event, text: str | None, what: str, kind: type, empty: str):
    try:
        value = json.loads(text or empty)
    except ValueError:
        value = None
    if not isinstance(value, kind):
        raise TourneyError(Message(STORED_WORDS[what], {"event": event.slug}))
    return value


def table_sizes_json(low: int, high: int, preferred: int) -> dict:
    """The one JSON shape of an event's table sizes, in every report of it."""
    return {"min": low, "max": high, "preferred": preferred}
