"""One kind of value, one JSON shape, in every command that prints it: an event's
settings (EventInfo.to_json: table sizes, house rules, the tie-breaks in force)
and times (tourney.times.utc_iso)."""
from __future__ import annotations

import re

from simulated_rounds import one_deal_event_round_one_played

SETTINGS = ("slug", "name", "variant", "date", "rules", "table_sizes", "rounds", "seating",
            "seed", "tiebreaks", "lang", "points", "bye_points")
MOMENT = re.compile(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ")


def test_an_event_reads_alike_when_created_shown_changed_and_logged(tourney):
    created = tourney("event", "create", "ev2", "--variant", "spardame", "--table-sizes", "3-5",
                      "--rule", "deals=4", "--json").json["details"]
    shown = tourney("event", "show", "ev2", "--json").json
    assert {k: shown[k] for k in SETTINGS} == created
    assert created["table_sizes"] == {"min": 3, "max": 5, "preferred": 4}
    assert created["rules"] == {"deals": "4"}
    assert created["tiebreaks"] == ["opponents", "score", "wins"]  # in force, not []
    # every option described beside, in event show
    details = {r["key"]: r for r in shown["rule_details"]}
    assert details["deals"]["value"] == 4 and details["deals"]["set"] is True
    [logged] = [e for e in tourney("log", "--json").json if e["action"] == "event.create"]
    assert logged["after"] == created
    change = tourney("event", "set", "ev2", "--table-sizes", "4", "--json").json["details"]
    assert change["changes"]["table_sizes"] == {
        "before": {"min": 3, "max": 5, "preferred": 4},
        "after": {"min": 4, "max": 4, "preferred": 4}}
    assert {k: change["settings"][k] for k in SETTINGS} == {
        k: tourney("event", "show", "ev2", "--json").json[k] for k in SETTINGS}


def test_times_read_alike_in_the_log_and_the_results(tourney, tmp_path):
    one_deal_event_round_one_played(tourney, tmp_path, "cup",
                                    ["A", "B", "C", "D", "E", "F", "G", "H"], rounds=1)
    times = [entry["at"] for entry in tourney("log", "--json").json]
    [version] = tourney("result", "history", "cup", "1", "1", "--json").json
    shown = tourney("result", "show", "cup", "1", "1", "--json").json
    times += [version["imported_at"], shown["imported_at"]]
    assert all(MOMENT.fullmatch(at) for at in times), times


def test_one_helper_gives_the_one_form_of_a_time():
    import datetime as dt

    from tourney.times import utc_iso

    naive = dt.datetime(2026, 12, 3, 16, 45, 14, 358566)  # as SQLite gives a stored time back
    aware = dt.datetime(2026, 12, 3, 17, 45, 14, tzinfo=dt.timezone(dt.timedelta(hours=1)))
    assert utc_iso(naive) == utc_iso(aware) == "2026-12-03T16:45:14Z"
    assert utc_iso(None) is None
