"""`tourney event set` and `tourney event delete`: an event created by mistake, or
with a wrong setting, can be fixed while that is safe, and is refused with the
reason when it is not."""
from __future__ import annotations

import json

import pytest
from simulated_rounds import play_round
from sqlmodel import Session, select

import tourney.cli.output as output
from tourney.storage.db import open_engine
from tourney.storage.models import AuditLog, Entry, Event, Round, Seat, TableLink

NAMES = ["Anna", "Bo", "Cilla", "Dag", "Eva", "Fia", "Gun", "Hans"]


def created(tourney, slug="ev", *extra) -> None:
    tourney("player", "add", *NAMES)
    tourney("event", "create", slug, "--variant", "spardame", "--table-sizes", "4",
            "--rounds", "2", "--rule", "deals=2", *extra)
    tourney("event", "enter", slug, "--all")


def played_round_one(tourney, tmp_path) -> None:
    created(tourney)
    seating = tourney("round", "seat", "ev", "--json").json
    play_round(seating, "ev", "spardame", {"deals": "2"}, 1, tmp_path / "r1.csv")
    tourney("result", "import", str(tmp_path / "r1.csv"))


def audit(db_url, action):
    with Session(open_engine(db_url)) as session:
        return session.exec(select(AuditLog).where(AuditLog.action == action)
                            .order_by(AuditLog.id)).all()


# ----------------------------------------------------------------------- event set

def test_a_forgotten_house_rule_is_set_before_any_result(tourney, db_url):
    created(tourney)
    run = tourney("event", "set", "ev", "--rule", "deals=4", "--name", "Club night",
                  "--date", "2026-05-11", "--lang", "sv", "--tiebreaks", "wins",
                  "--points", "place", "--bye-points", "0.5", "--seating", "random",
                  "--seed", "7", "--rounds", "3", "--table-sizes", "3-4", "--json")
    assert run.json["action"] == "event.set" and run.json["changed"] is True
    changes = run.json["details"]["changes"]
    assert changes["rules"] == {"before": {"deals": "2"}, "after": {"deals": "4"}}
    assert changes["table_sizes"] == {"before": {"min": 4, "max": 4, "preferred": 4},
                                      "after": {"min": 3, "max": 4, "preferred": 4}}
    assert set(changes) == {"rules", "name", "date", "lang", "tiebreaks", "points",
                            "bye_points", "seating", "seed", "rounds", "table_sizes"}
    assert "house rules: deals=4 (was deals=2)" in run.stderr
    shown = tourney("event", "show", "ev", "--json").json
    assert shown["rules"] == {"deals": "4"}
    assert {r["key"]: r["value"] for r in shown["rule_details"]}["deals"] == 4
    assert (shown["name"], shown["date"], shown["lang"], shown["points"], shown["rounds"]) \
        == ("Club night", "2026-05-11", "sv", "place", 3)
    assert shown["table_sizes"] == {"min": 3, "max": 4, "preferred": 4}
    assert (shown["seating"], shown["seed"], shown["bye_points"]) == ("random", 7, 0.5)
    [row] = audit(db_url, "event.set")
    assert json.loads(row.before_json)["rules"] == {"deals": "2"}
    assert json.loads(row.after_json)["rules"] == {"deals": "4"}
    # back to the defaults
    back = tourney("event", "set", "ev", "--unset-rule", "deals", "--unset", "date",
                   "--unset", "lang", "--unset", "tiebreaks", "--unset", "bye-points",
                   "--unset", "rounds", "--json").json["details"]["settings"]
    assert (back["rules"], back["date"], back["lang"], back["tiebreaks"],
            back["bye_points"], back["rounds"]) == (
        {}, None, None, ["opponents", "score", "wins"], None, None)  # the tie-breaks in force


def test_the_same_values_change_nothing(tourney, db_url):
    created(tourney)
    run = tourney("event", "set", "ev", "--rule", "deals=2", "--table-sizes", "4", "--json")
    assert run.json["changed"] is False and run.json["details"]["changes"] == {}
    assert "nothing changed" in run.stderr
    assert audit(db_url, "event.set") == []


def test_what_cannot_change_once_results_are_stored_is_refused_with_the_reason(
        tourney, tmp_path):
    played_round_one(tourney, tmp_path)
    for args, reason in [
            (["--rule", "deals=4"], "its house rules cannot change: 2 results are stored"),
            (["--points", "place"], "its points system cannot change"),
            (["--tiebreaks", "wins"], "its tie-breaks cannot change"),
            (["--seed", "5"], "its seed cannot change once round 1 is seated"),
            (["--seating", "random"], "its seating cannot change once round 1 is seated"),
            (["--rounds", "1", "--name", "X"], None)]:
        run = tourney("event", "set", "ev", *args, exit_code=None)
        if reason is None:
            assert run.exit_code == 0, run.stderr  # 1 round seated: one round is enough
            continue
        assert run.exit_code == 1 and reason in run.stderr, (args, run.stderr)
    # what only names or shows it, and what is seated next, still change
    tourney("event", "set", "ev", "--name", "Ev", "--lang", "fi", "--table-sizes", "3-4",
            "--rounds", "4", "--bye-points", "0.5")  # no byes in round 1 (8 at 4)
    shown = tourney("event", "show", "ev", "--json").json
    assert (shown["name"], shown["lang"], shown["rounds"]) == ("Ev", "fi", 4)


def test_fewer_rounds_than_are_seated_is_refused(tourney, db_url):
    created(tourney)
    tourney("round", "seat", "ev")
    tourney("round", "seat", "ev", "--force")
    refused = tourney("event", "set", "ev", "--rounds", "1", exit_code=1)
    assert "cannot have fewer than 2 rounds: round 2 is seated" in refused.stderr


def test_new_table_sizes_say_the_seated_round_is_to_be_reseated(tourney):
    created(tourney)
    tourney("round", "seat", "ev")
    run = tourney("event", "set", "ev", "--table-sizes", "3-4", "--rule", "deals=3")
    assert ("round 1 is seated at the old table sizes: `tourney round reseat ev 1` seats "
            "it at the new ones") in run.stderr
    assert "score sheets of round 1 written before follow the old rules" in run.stderr


def test_bad_settings_are_usage_errors(tourney):
    created(tourney)
    assert "name a setting" in tourney("event", "set", "ev", exit_code=2).stderr
    assert "no house rule 'nope'" in tourney("event", "set", "ev", "--unset-rule", "nope",
                                             exit_code=2).stderr
    assert "tourney variants spardame" in tourney("event", "set", "ev", "--unset-rule",
                                                  "nope", exit_code=2).stderr
    tourney("event", "set", "ev", "--rule", "deals=many", exit_code=2)
    both = tourney("event", "set", "ev", "--date", "2026-01-01", "--unset", "date",
                   exit_code=2)
    assert "both given and unset" in both.stderr
    assert "tables of 2 are not possible" in tourney("event", "set", "ev", "--table-sizes",
                                                     "2", exit_code=2).stderr
    assert "unknown event 'ew'" in tourney("event", "set", "ew", "--name", "x",
                                           exit_code=2).stderr
    assert "unsetting the date removes it (--unset)" in tourney(
        "event", "set", "ev", "--date", "", exit_code=2).stderr


def test_set_help_says_what_may_change_when(tourney):
    text = tourney("event", "set", "--help").stdout
    for words in ("at any time", "before round 1 is seated", "while no result is stored",
                  "--bye-points", "the variant never changes"):
        assert words in text


# -------------------------------------------------------------------- event delete

def test_an_event_created_by_mistake_is_deleted_and_left_off_the_site(tourney, db_url,
                                                                      tmp_path):
    created(tourney, "x1")
    tourney("round", "seat", "x1")
    tourney("round", "links", "x1", "1", "--base-url", "http://x")
    site = tmp_path / "site"
    tourney("publish", "--out", str(site), "--no-replays")
    assert (site / "events" / "x1").exists()
    run = tourney("event", "delete", "x1", "--json")
    assert run.json["action"] == "event.delete" and run.json["changed"] is True
    assert run.json["details"] == {"event": "x1", "entrants": sorted(NAMES), "rounds": 1,
                                   "links": 2}
    assert "deleted x1 (8 entrants, 1 seated round)" in run.stderr
    with Session(open_engine(db_url)) as session:
        for table in (Event, Entry, Round, Seat, TableLink):
            assert session.exec(select(table)).all() == [], table
    [row] = audit(db_url, "event.delete")
    kept = json.loads(row.before_json)
    assert kept["slug"] == "x1" and kept["entrants"] == sorted(NAMES)
    assert row.after_json is None
    tourney("publish", "--out", str(site), "--no-replays")
    assert not (site / "events" / "x1").exists()
    assert "unknown event 'x1'" in tourney("event", "show", "x1", exit_code=2).stderr
    # the slug is free again, and the new event's log is its own
    tourney("event", "create", "x1", "--variant", "kortrad")
    assert [r["action"] for r in tourney("log", "--event", "x1", "--json").json] \
        == ["event.create"]


def test_an_event_with_results_is_not_deleted(tourney, tmp_path):
    played_round_one(tourney, tmp_path)
    refused = tourney("event", "delete", "ev", "--yes", exit_code=1)
    assert "ev cannot be deleted: it has 2 stored results (round 1)" in refused.stderr
    assert "ratings" in refused.stderr
    assert tourney("event", "show", "ev", "--json").json["results_in"] == 2
    assert "unknown event" in tourney("event", "delete", "nope", exit_code=2).stderr


@pytest.fixture
def at_a_terminal(monkeypatch):
    monkeypatch.setattr(output, "interactive", lambda: True)


def test_delete_asks_at_a_terminal(tourney, at_a_terminal):
    created(tourney, "x1")
    answered = tourney("event", "delete", "x1", input="n\n", exit_code=1)
    assert "Delete event x1 with its 8 entrants and 0 seated rounds?" in answered.stderr
    assert "nothing was changed" in answered.stderr
    tourney("event", "show", "x1")
    tourney("event", "delete", "x1", input="y\n")
    tourney("event", "show", "x1", exit_code=2)


def test_table_sizes_that_change_a_played_bye_are_refused_under_place_points(tourney,
                                                                             tmp_path):
    tourney("player", "add", *NAMES[:7])
    tourney("event", "create", "ev", "--variant", "spardame", "--table-sizes", "4",
            "--rule", "deals=2", "--points", "place")
    tourney("event", "enter", "ev", "--all")
    seating = tourney("round", "seat", "ev", "--json").json
    assert len(seating["byes"]) == 3
    play_round(seating, "ev", "spardame", {"deals": "2"}, 1, tmp_path / "r1.csv")
    tourney("result", "import", str(tmp_path / "r1.csv"))
    # a bye is worth a win at the preferred size (3 at 4): 3-5 keeps it, 5 would not
    tourney("event", "set", "ev", "--table-sizes", "3-5")
    refused = tourney("event", "set", "ev", "--table-sizes", "5", exit_code=1)
    assert "the table sizes, and with them what a bye is worth" in refused.stderr
