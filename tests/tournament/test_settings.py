"""An event's settings: decoded once, one policy for unreadable stored text."""
from __future__ import annotations

import pytest

from tourney.errors import TourneyError
from tourney.storage.models import Event
from tourney.tournament.settings import event_settings
from tourney.tournament.standings import DEFAULT_TIEBREAKS, event_tiebreaks


def make(**fields) -> Event:
    values = dict(slug="cup", name="Cup", variant="spardame", table_min=4, table_max=4,
                  table_preferred=4, seating="balanced", seed=1)
    values.update(fields)
    return Event(**values)


def test_rules_resolved_and_tiebreaks_as_stored():
    settings = event_settings(make(rules_json='{"pass": "cycle"}',
                                   tiebreaks_json='["wins", "lot"]'))
    assert settings.game.id == "spardame" and settings.rules == {"pass": "cycle"}
    assert settings.options["pass"] == "cycle"
    assert set(settings.options) == {spec.key for spec in settings.game.option_specs}
    assert settings.tiebreaks == ("wins", "lot")
    assert event_tiebreaks(make()) == list(DEFAULT_TIEBREAKS)


@pytest.mark.parametrize("fields, what", [
    ({"rules_json": "{pass"}, "rules"),
    ({"rules_json": "[1]"}, "rules"),
    ({"tiebreaks_json": "wins"}, "tie-breaks"),
    ({"tiebreaks_json": '{"a": 1}'}, "tie-breaks"),
])
def test_unreadable_stored_settings_name_the_event(fields, what):
    with pytest.raises(TourneyError, match=f"event cup: its stored {what} are not readable"):
        event_settings(make(**fields))
