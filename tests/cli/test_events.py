"""`tourney event ...` on every backend: create, list, show, enter, withdraw."""
import json

import pytest
from conftest import stored_match
from sqlmodel import Session, select

from tourney.engines import VARIANT_IDS, get_game
from tourney.storage.db import open_engine
from tourney.storage.models import AuditLog, Entry, Event, Round
from tourney.storage.schema import ensure_schema


def event_row(db_url, slug):
    with Session(open_engine(db_url)) as session:
        return session.exec(select(Event).where(Event.slug == slug)).one()


def count(db_url, model):
    ensure_schema(open_engine(db_url))  # a usage error may come before the database
    with Session(open_engine(db_url)) as session:
        return len(session.exec(select(model)).all())


# ----------------------------------------------------------------- create

def test_create_with_every_setting(tourney, db_url):
    created = tourney("event", "create", "club-2024-03", "--variant", "spardame",
                      "--name", "Klubbkväll mars", "--date", "2024-03-02",
                      "--rule", "pass=cycle", "--rule", "jd_bonus=-50",
                      "--table-sizes", "3-5", "--rounds", "4", "--seating", "random",
                      "--seed", "7", "--tiebreaks", "buchholz,wins", "--lang", "sv", "--json")
    assert created.json["action"] == "event.create"
    assert created.json["details"] == {
        "slug": "club-2024-03", "name": "Klubbkväll mars", "variant": "spardame",
        "date": "2024-03-02", "rules": {"jd_bonus": "-50", "pass": "cycle"},
        "table_sizes": {"min": 3, "max": 5, "preferred": 4}, "rounds": 4,
        "seating": "random", "seed": 7,
        "tiebreaks": ["buchholz", "wins"], "lang": "sv", "points": "share", "bye_points": None,
    }
    assert "created club-2024-03" in created.stderr
    [row] = [a for a in _audit(db_url) if a.action == "event.create"]
    assert json.loads(row.after_json)["slug"] == "club-2024-03" and row.event_id is not None


def _audit(db_url):
    with Session(open_engine(db_url)) as session:
        return session.exec(select(AuditLog).order_by(AuditLog.id)).all()


@pytest.mark.parametrize("variant", VARIANT_IDS)
def test_defaults_follow_the_variant(tourney, db_url, variant):
    game = get_game(variant)
    tourney("event", "create", "e", "--variant", variant)
    row = event_row(db_url, "e")
    assert (row.table_min, row.table_max) == (game.min_players, game.max_players)
    preferred = min(max(game.preferred_players or 4, game.min_players), game.max_players)
    assert row.table_preferred == preferred
    assert row.seating == ("swiss" if game.max_players == 2 else "balanced")
    assert row.name == "e" and row.rounds is None and row.date is None


def test_dam_brade_is_two_player_swiss(tourney, db_url):
    tourney("event", "create", "brade", "--variant", "dam-brade")
    row = event_row(db_url, "brade")
    assert (row.table_min, row.table_max, row.table_preferred, row.seating) == (2, 2, 2, "swiss")
    assert "not possible" in tourney("event", "create", "b2", "--variant", "dam-brade",
                                     "--table-sizes", "2-3", exit_code=2).stderr


def test_table_sizes(tourney, db_url):
    tourney("event", "create", "four", "--variant", "spardame", "--table-sizes", "4")
    assert (event_row(db_url, "four").table_min, event_row(db_url, "four").table_max) == (4, 4)
    tourney("event", "create", "three", "--variant", "svarta-maja", "--table-sizes", "5-6")
    row = event_row(db_url, "three")
    assert (row.table_min, row.table_max, row.table_preferred) == (5, 6, 5)


@pytest.mark.parametrize("args, code, why", [
    (["Bad_Slug", "--variant", "kortrad"], 2, "lower-case letters"),
    (["-x", "--variant", "kortrad"], 2, None),
    (["ok", "--variant", "nope"], 2, "unknown variant"),
    (["ok", "--variant", "spardame", "--rule", "bogus=1"], 2, "no option 'bogus'"),
    (["ok", "--variant", "spardame", "--rule", "pass=sideways"], 2, "option pass takes"),
    (["ok", "--variant", "spardame", "--rule", "pass"], 2, "KEY=VALUE"),
    (["ok", "--variant", "spardame", "--table-sizes", "2-5"], 2, "not possible"),
    (["ok", "--variant", "spardame", "--table-sizes", "5-3"], 2, "the smaller size first"),
    (["ok", "--variant", "spardame", "--table-sizes", "four"], 2, "--table-sizes takes"),
    (["ok", "--variant", "spardame", "--date", "2024-02-30"], 2, "not a date"),
    (["ok", "--variant", "spardame", "--date", "2/3/2024"], 2, "YYYY-MM-DD"),
    (["ok", "--variant", "spardame", "--rounds", "0"], 2, "--rounds"),
    (["ok", "--variant", "spardame", "--seating", "chaos"], 2, None),
    (["ok", "--variant", "spardame", "--lang", "de"], 2, None),
    (["ok", "--variant", "spardame", "--tiebreaks", "score,height"], 2, "unknown tie-break"),
    (["ok", "--variant", "spardame", "--seed", str(2 ** 40)], 2, "--seed"),
    (["ok", "--variant", "spardame", "--name", ""], 1, "Error: an event name cannot be empty"),
    (["ok", "--variant", "spardame", "--name", "Cup\x1b[2J"], 1,
     "Error: an event name cannot hold control characters (U+001B"),
])
def test_bad_settings_are_refused_and_nothing_is_created(tourney, db_url, args, code, why):
    result = tourney("event", "create", *args, exit_code=code)
    if why:
        assert why in result.stderr
    assert count(db_url, Event) == 0


def test_a_duplicate_slug_is_refused(tourney, db_url):
    tourney("event", "create", "cup", "--variant", "kortrad")
    result = tourney("event", "create", "cup", "--variant", "spardame", exit_code=1)
    assert "already an event 'cup'" in result.stderr
    assert event_row(db_url, "cup").variant == "kortrad"


# ----------------------------------------------------------------- list and show

def test_list(tourney):
    assert tourney("event", "list", "--json").json == []
    tourney("player", "add", "Anna", "Bo")
    tourney("event", "create", "b", "--variant", "kortrad", "--date", "2024-02-01", "--rounds", "3")
    tourney("event", "create", "a", "--variant", "dam-brade", "--date", "2024-01-01")
    tourney("event", "enter", "b", "Anna", "Bo")
    listing = tourney("event", "list", "--json").json
    assert listing == [
        {"slug": "a", "name": "a", "variant": "dam-brade", "date": "2024-01-01",
         "entrants": 0, "rounds_seated": 0, "rounds": None},
        {"slug": "b", "name": "b", "variant": "kortrad", "date": "2024-02-01",
         "entrants": 2, "rounds_seated": 0, "rounds": 3},
    ]
    lines = tourney("event", "list").stdout.splitlines()
    assert lines[0].split() == ["slug", "name", "variant", "date", "entrants", "rounds"]
    assert lines[2].split() == ["b", "b", "kortrad", "2024-02-01", "2", "0/3"]


def test_show(tourney, db_url):
    tourney("player", "add", "Anna", "Bo", "Cai", "Dag", "Eva")
    tourney("event", "create", "cup", "--variant", "spardame", "--rule", "pass=cycle",
            "--rounds", "3", "--table-sizes", "4", "--seed", "3")
    tourney("event", "enter", "cup", "Anna", "Bo", "Cai", "Dag")
    tourney("round", "seat", "cup")
    tourney("event", "enter", "cup", "Eva")
    tourney("event", "withdraw", "cup", "Bo", "--from-round", "2")
    add_result(db_url, "cup", 1, "1")
    data = tourney("event", "show", "cup", "--json").json
    assert data["rules"] == {"pass": "cycle"}  # the house rules set, as everywhere
    rules = {r["key"]: r for r in data["rule_details"]}
    spec = {s.key: s for s in get_game("spardame").option_specs}
    assert set(rules) == set(spec)
    assert rules["pass"]["value"] == "cycle" and rules["pass"]["set"] is True
    assert rules["pass"]["doc"] == spec["pass"].doc
    assert rules["jd_bonus"]["set"] is False and rules["jd_bonus"]["value"] == spec["jd_bonus"].default
    assert data["variant"] == "spardame" and data["variant_name"] == get_game("spardame").name
    entrants = {e["name"]: e for e in data["entrants"]}
    assert entrants["Eva"]["first_round"] == 2 and entrants["Eva"]["active"]
    assert entrants["Bo"]["withdrawn_after"] == 1 and not entrants["Bo"]["active"]
    assert data["rounds_seated"] == 1 and data["results_in"] == 1
    assert data["round_status"] == [{"round": 1, "tables": 1, "byes": 0, "results": 1}]
    assert data["table_sizes"] == {"min": 4, "max": 4, "preferred": 4}
    plain = tourney("event", "show", "cup").stdout
    # one sentence per rule, as the event's pages state it (the doc is in --json)
    assert "  pass = cycle: " + rules["pass"]["sentence"] + "\n" in plain
    assert spec["pass"].doc not in plain
    assert "Eva (from round 2)" in plain and "Bo (withdrew after round 1)" in plain
    assert "round 1: 1 table, 1 result in" in plain
    unknown = tourney("event", "show", "cap", exit_code=2).stderr
    assert "unknown event 'cap'" in unknown and "cup" in unknown


def add_result(db_url, slug, number, table):
    """A result for a table, straight in the database (result import is elsewhere)."""
    with Session(open_engine(db_url)) as session:
        event = session.exec(select(Event).where(Event.slug == slug)).one()
        stored_match(session, event.id, number, table)
        session.commit()


# ----------------------------------------------------------------- enter and withdraw

def entries(db_url, slug):
    with Session(open_engine(db_url)) as session:
        event = session.exec(select(Event).where(Event.slug == slug)).one()
        from tourney.storage.models import Player

        rows = session.exec(select(Player.name, Entry.first_round, Entry.withdrawn_after)
                            .join(Entry, Entry.player_id == Player.id)
                            .where(Entry.event_id == event.id)).all()
        return {name: (first, withdrawn) for name, first, withdrawn in rows}


def test_enter_refuses_unknown_names_unless_add(tourney, db_url):
    tourney("player", "add", "Anna")
    tourney("event", "create", "cup", "--variant", "kortrad")
    refused = tourney("event", "enter", "cup", "Anna", "anna b", exit_code=2).stderr
    assert "unknown player 'anna b'" in refused and "tourney player add" in refused
    assert entries(db_url, "cup") == {}
    added = tourney("event", "enter", "cup", "Anna", "Bo", "Cai", "--add", "--json")
    added = added.json["details"]
    assert added["entered"] == ["Anna", "Bo", "Cai"] and added["added"] == ["Bo", "Cai"]
    assert set(entries(db_url, "cup")) == {"Anna", "Bo", "Cai"}
    again = tourney("event", "enter", "cup", "Anna", "--json").json["details"]
    assert again["entered"] == [] and again["already"] == ["Anna"]
    assert "name the players" in tourney("event", "enter", "cup", exit_code=2).stderr
    assert "unknown event" in tourney("event", "enter", "nope", "Anna", exit_code=2).stderr


def test_enter_all_and_late_entries(tourney, db_url):
    tourney("player", "add", "Anna", "Bo", "Cai", "Dag")
    tourney("event", "create", "cup", "--variant", "kortrad", "--table-sizes", "2", "--rounds", "2")
    tourney("event", "enter", "cup", "--all")
    tourney("round", "seat", "cup")
    tourney("player", "add", "Eva", "Finn")
    late = tourney("event", "enter", "cup", "--all", "--json")
    assert late.json["details"]["entered"] == ["Eva", "Finn"]
    assert late.json["details"]["first_round"] == 2
    assert "from round 2" in late.stderr
    assert entries(db_url, "cup")["Eva"] == (2, None)
    tourney("round", "seat", "cup", "--force")
    assert "all 2 rounds" in tourney("event", "enter", "cup", "Gun", "--add", exit_code=1).stderr


def test_withdraw_and_reenter(tourney, db_url):
    tourney("player", "add", "Anna", "Bo", "Cai", "Dag", "Eva")
    tourney("event", "create", "cup", "--variant", "kortrad", "--table-sizes", "2")
    tourney("event", "enter", "cup", "--all")
    gone = tourney("event", "withdraw", "cup", "Eva")  # before round 1: no longer entered
    assert "no longer entered" in gone.stderr
    assert "Eva" not in entries(db_url, "cup")
    tourney("round", "seat", "cup")
    # (without --from-round: from round 1 itself, none of its results being in)
    result = tourney("event", "withdraw", "cup", "Bo", "--from-round", "2")
    assert "not seated after round 1" in result.stderr
    assert entries(db_url, "cup")["Bo"] == (1, 1)
    assert "already withdrew" in tourney("event", "withdraw", "cup", "Bo", exit_code=1).stderr
    assert "not entered" in tourney("event", "withdraw", "cup", "Eva", exit_code=1).stderr
    assert "unknown player" in tourney("event", "withdraw", "cup", "Nobody", exit_code=2).stderr
    back = tourney("event", "enter", "cup", "Bo", "--json").json["details"]
    assert back["reentered"] == ["Bo"] and entries(db_url, "cup")["Bo"] == (1, None)
    actions = [a.action for a in _audit(db_url)]
    assert actions.count("event.withdraw") == 2 and "event.reenter" in actions


def test_changes_from_the_latest_round_before_its_results(tourney, db_url):
    tourney("player", "add", "Anna", "Bo", "Cai", "Dag")
    tourney("event", "create", "cup", "--variant", "kortrad", "--table-sizes", "2")
    tourney("event", "enter", "cup", "Anna", "Bo", "Cai")
    tourney("round", "seat", "cup")
    late = tourney("event", "enter", "cup", "Dag", "--from-round", "1")
    assert "round reseat cup 1" in late.stderr
    assert entries(db_url, "cup")["Dag"] == (1, None)
    left = tourney("event", "withdraw", "cup", "Anna", "--from-round", "1")
    assert "round reseat cup 1" in left.stderr
    assert entries(db_url, "cup")["Anna"] == (1, 0)
    tourney("round", "reseat", "cup", "1")
    assert "Anna" not in entries(db_url, "cup")  # she played nothing: no longer entered
    seated = tourney("round", "show", "cup", "1", "--json").json
    everyone = sorted([n for t in seated["tables"] for n in t["seats"]] + seated["byes"])
    assert everyone == ["Bo", "Cai", "Dag"]
    add_result(db_url, "cup", 1, seated["tables"][0]["table"])
    refused = tourney("event", "enter", "cup", "Eva", "--add", "--from-round", "1", exit_code=1)
    assert "has results in" in refused.stderr
    assert "Eva" not in entries(db_url, "cup")
    assert count(db_url, Round) == 1


# ----------------------------------------------------------------- the organizer's small findings

def test_show_after_the_last_round_names_no_next_round(tourney, db_url):
    tourney("player", "add", "Anna", "Bo", "Cai", "Dag", "Eva")
    tourney("event", "create", "cup", "--variant", "kortrad", "--table-sizes", "2",
            "--rounds", "2")
    tourney("event", "enter", "cup", "--all")
    seated = tourney("round", "seat", "cup", "--json").json
    assert "entrants: 5 (5 playing round 1)" in tourney("event", "show", "cup").stdout
    for table in seated["tables"]:
        add_result(db_url, "cup", 1, table["table"])
    tourney("event", "withdraw", "cup", "Eva")
    assert "entrants: 5 (4 playing round 2)" in tourney("event", "show", "cup").stdout
    seated = tourney("round", "seat", "cup", "--json").json
    for table in seated["tables"]:
        add_result(db_url, "cup", 2, table["table"])
    shown = tourney("event", "show", "cup")
    assert "entrants: 5 (4 in round 2, the last)" in shown.stdout
    assert "next round" not in shown.stdout
    data = tourney("event", "show", "cup", "--json").json
    assert data["current_round"] is None
    assert [e["name"] for e in data["entrants"] if not e["active"]] == ["Eva"]


def test_entering_everyone_when_no_one_is_registered_is_refused(run_cli, tmp_path):
    league = str(tmp_path / "leage.db")
    run_cli(league, "db", "init")
    unknown = run_cli(league, "event", "enter", "liga-vt26", "--all", exit_code=2)
    assert "unknown event 'liga-vt26'" in unknown.stderr
    assert "`tourney event create`" in unknown.stderr
    run_cli(league, "event", "create", "liga-vt26", "--variant", "spardame")
    refused = run_cli(league, "event", "enter", "liga-vt26", "--all", exit_code=1)
    assert "no player is registered yet" in refused.stderr
    assert "`tourney player import`" in refused.stderr and "0 entered" not in refused.stderr


def test_entering_everyone_again_says_they_are_entered(tourney):
    tourney("player", "add", "Anna", "Bo")
    tourney("event", "create", "cup", "--variant", "kortrad")
    tourney("event", "enter", "cup", "--all")
    again = tourney("event", "enter", "cup", "--all", "--json")
    assert again.json["changed"] is False
    assert "every registered player is entered already: 2 players" in again.stderr


def test_event_show_states_each_rule_in_one_sentence(tourney):
    tourney("event", "create", "cup", "--variant", "spardame", "--rule", "deals=3")
    shown = tourney("event", "show", "cup").stdout
    rules = shown.split("rules:\n")[1].split("entrants:")[0].splitlines()
    assert "  pass = left (default): Cards are passed to the left every deal." in rules
    assert "  deals = 3: A match is 3 deals, with no extra deals on a tie." in rules
    assert "  jd_bonus = 0 (default): The jack of diamonds scores nothing." in rules
    assert all(line.count(".") <= 1 and "(cycle)" not in line for line in rules), rules
    as_json = tourney("event", "show", "cup", "--json").json["rule_details"]
    assert {r["key"]: r["sentence"] for r in as_json}["pass"] == (
        "Cards are passed to the left every deal.")


def test_three_close_names_are_suggested_as_a_list_with_one_or(tourney):
    """"did you mean night-1, night-3 or night-2?" (one "or", before the last), not
    "night-1 or night-3 or night-2", in English as in a page's words."""
    from tourney.errors.words import did_you_mean

    for slug in ("night-1", "night-2", "night-3"):
        tourney("event", "create", slug, "--variant", "svarta-maja", "--table-sizes", "4",
                "--rule", "deals=3")
    said = tourney("event", "show", "night", exit_code=2).stderr
    assert "(did you mean night-" in said and said.count(" or ") == 1, said
    assert ", night-" in said.split("did you mean")[1], said
    assert str(did_you_mean(["a", "b", "c"])) == "did you mean a, b or c?"
    assert str(did_you_mean(["a", "b"])) == "did you mean a or b?"
