"""`tourney player ...` on every backend: add, list, rename, merge, import."""
import json

import pytest
from conftest import stored_match
from hypothesis import given, settings
from hypothesis import strategies as st
from sqlmodel import Session, select

from tourney.errors import TourneyError
from tourney.person_names import normalize_name
from tourney.storage.db import open_engine
from tourney.storage.models import (
    AuditLog,
    Entry,
    Event,
    MatchPlace,
    Player,
    Rating,
    RatingHistory,
    RatingPool,
    Round,
    Seat,
)
from tourney.tournament.players import PlayerFileRejected, clean_name, parse_player_csv


def names(tourney, *extra):
    return [p["name"] for p in tourney("player", "list", "--json", *extra).json]


def audit(db_url, action=None):
    with Session(open_engine(db_url)) as session:
        query = select(AuditLog).order_by(AuditLog.id)
        if action:
            query = query.where(AuditLog.action == action)
        return session.exec(query).all()


# ----------------------------------------------------------------- add and list

def test_add_and_list(tourney, db_url):
    tourney("player", "add", "  Åsa Öberg ", "Bo", "--club", "Vasa")
    tourney("player", "add", "Cai", "--email", "cai@example.org")
    listing = tourney("player", "list", "--json", "--with-email", env={"LC_ALL": "sv_SE.UTF-8"}).json
    assert listing == [  # Å after Z in Swedish
        {"name": "Bo", "club": "Vasa", "email": None, "events": []},
        {"name": "Cai", "club": None, "email": "cai@example.org", "events": []},
        {"name": "Åsa Öberg", "club": "Vasa", "email": None, "events": []},
    ]
    plain = tourney("player", "list", "--with-email", env={"LC_ALL": "sv_SE.UTF-8"}).stdout.splitlines()
    assert plain[0].split() == ["name", "club", "email", "events"]
    assert plain[1].split() == ["Bo", "Vasa"]
    # Addresses only when asked for: a player list is often passed on.
    assert "email" not in tourney("player", "list", "--json").json[1]
    assert "cai@example.org" not in tourney("player", "list").stdout
    assert tourney("player", "list").stdout.splitlines()[0].split() == ["name", "club", "events"]
    assert [a.subject for a in audit(db_url, "player.add")] == ["Åsa Öberg", "Bo", "Cai"]


def test_list_shows_events_entered(tourney):
    tourney("player", "add", "Anna", "Bo")
    tourney("event", "create", "cup-1", "--variant", "kortrad", "--date", "2024-01-05")
    tourney("event", "create", "cup-2", "--variant", "kortrad", "--date", "2024-02-05")
    tourney("event", "enter", "cup-2", "Anna")
    tourney("event", "enter", "cup-1", "Anna", "Bo")
    listing = {p["name"]: p["events"] for p in tourney("player", "list", "--json").json}
    assert listing == {"Anna": ["cup-1", "cup-2"], "Bo": ["cup-1"]}
    assert "cup-1, cup-2" in tourney("player", "list").stdout


@pytest.mark.parametrize("bad, why", [
    ("", "cannot be empty"),
    ("   ", "cannot be empty"),
    ("x" * 201, "at most 200"),
    ("Anna\x00", "control characters"),
    ("An\tna", "control characters"),
    ("Anna;Bo", "cannot contain ';'"),
    ("=HYPERLINK(1)", "cannot begin with '='"),
])
def test_bad_names_are_refused_and_nothing_is_added(tourney, bad, why):
    result = tourney("player", "add", "Fine", bad, exit_code=1)
    assert why in result.stderr
    assert names(tourney) == []


def test_a_taken_name_is_refused(tourney):
    tourney("player", "add", "Anna")
    assert "already registered" in tourney("player", "add", "Bo", "Anna", exit_code=1).stderr
    assert "named twice" in tourney("player", "add", "Bo", "Bo", exit_code=1).stderr
    assert names(tourney) == ["Anna"]
    assert "one player at a time" in tourney(
        "player", "add", "Bo", "Cai", "--email", "x@y.se", exit_code=2).stderr
    assert "not an e-mail" in tourney("player", "add", "Bo", "--email", "nope", exit_code=1).stderr


def test_names_are_stored_as_given(tourney):
    odd = ["anna", "ANNA", "Ünïcødé 名前", "O'Brien, Jr.", "x" * 200]
    tourney("player", "add", *odd)
    assert sorted(names(tourney)) == sorted(odd)


@settings(max_examples=60, deadline=None)
@given(st.text(max_size=220))
def test_clean_name_keeps_or_refuses(text):
    stripped = normalize_name(text)  # NFC, then stripped
    try:
        name = clean_name(text)
    except TourneyError:
        assert (not stripped or len(stripped) > 200 or ";" in stripped
                or stripped[0] in "=+-@"  # would be a formula in a spreadsheet
                or any(ord(c) < 32 or 0x7F <= ord(c) < 0xA0 or 0xD800 <= ord(c) < 0xE000
                       for c in stripped))
    else:
        assert name == stripped and 0 < len(name) <= 200


# ----------------------------------------------------------------- rename

def test_rename(tourney, db_url):
    tourney("player", "add", "Ana", "Bo")
    tourney("player", "rename", "Ana", "Anna")
    assert names(tourney) == ["Anna", "Bo"]
    assert "already registered" in tourney("player", "rename", "Anna", "Bo", exit_code=1).stderr
    unknown = tourney("player", "rename", "anna", "X", exit_code=2).stderr
    assert "unknown player 'anna'" in unknown and "'Anna'" in unknown
    [row] = audit(db_url, "player.rename")
    assert json.loads(row.before_json)["name"] == "Ana"
    assert json.loads(row.after_json)["name"] == "Anna"


def test_names_are_nfc_normalised_where_they_enter(tourney, db_url, tmp_path):
    decomposed = "A\u030asa O\u0308berg"  # as a Mac keyboard may send "Åsa Öberg"
    tourney("player", "add", decomposed)
    assert names(tourney) == ["\u00c5sa \u00d6berg"]
    assert "already registered" in tourney("player", "add", "\u00c5sa \u00d6berg",
                                           exit_code=1).stderr
    tourney("player", "rename", decomposed, "Bo Ek")  # found by either spelling
    players = tmp_path / "players.csv"
    players.write_text("name\nCe\u0301line Dahl\n", encoding="utf-8")
    tourney("player", "import", str(players))
    assert "C\u00e9line Dahl" in names(tourney)


def test_rename_keeps_the_old_name_as_an_alias(tourney, db_url):
    tourney("player", "add", "Ana")
    tourney("player", "rename", "Ana", "Anna")
    listed = tourney("player", "list", "--all", "--json").json
    assert {"Ana": "Anna"} == {p["name"]: p["merged_into"] for p in listed if p["merged_into"]}
    assert "is taken" in tourney("player", "add", "Ana", exit_code=1).stderr
    tourney("player", "rename", "Anna", "Ana")  # back again: the alias gives way
    listed = tourney("player", "list", "--all", "--json").json
    assert {p["name"]: p["merged_into"] for p in listed} == {"Ana": None, "Anna": "Ana"}


# ----------------------------------------------------------------- merge

def seat_round(db_url, slug, number, tables, byes=()):
    """Seat a round straight in the database (tables: lists of names)."""
    with Session(open_engine(db_url)) as session:
        event = session.exec(select(Event).where(Event.slug == slug)).one()
        ids = dict(session.exec(select(Player.name, Player.id)).all())
        row = Round(event_id=event.id, number=number)
        session.add(row)
        session.flush()
        for label, table in enumerate(tables, 1):
            for seat, name in enumerate(table):
                session.add(Seat(round_id=row.id, player_id=ids[name], table=str(label), seat=seat))
        for name in byes:
            session.add(Seat(round_id=row.id, player_id=ids[name]))
        session.commit()


def test_merge_moves_history_to_the_kept_player(tourney, db_url):
    tourney("player", "add", "Anna Berg", "Cai", "Dag", "Eva")
    tourney("player", "add", "Anna  Berg", "--club", "Vasa", "--email", "a@b.se")
    tourney("event", "create", "one", "--variant", "kortrad", "--table-sizes", "2")
    tourney("event", "create", "two", "--variant", "kortrad", "--table-sizes", "2")
    tourney("event", "enter", "one", "Anna  Berg", "Cai")
    tourney("event", "enter", "two", "Anna Berg", "Anna  Berg", "Dag", "Eva")
    seat_round(db_url, "one", 1, [["Anna  Berg", "Cai"]])
    seat_round(db_url, "two", 1, [["Anna  Berg", "Dag"]], byes=["Eva"])
    engine = open_engine(db_url)
    with Session(engine) as session:
        ids = dict(session.exec(select(Player.name, Player.id)).all())
        one = session.exec(select(Event).where(Event.slug == "one")).one()
        match, version = stored_match(session, one.id, 1, "1")
        session.add(MatchPlace(version_id=version.id, player_id=ids["Anna  Berg"], seat=0,
                               place=1, total=0, match_points=2))
        pool = RatingPool(variant="kortrad")
        other = RatingPool(variant="dam-brade")
        session.add_all([pool, other])
        session.flush()
        session.add_all([
            Rating(pool_id=pool.id, player_id=ids["Anna  Berg"], mu=30, sigma=5),
            Rating(pool_id=other.id, player_id=ids["Anna  Berg"], mu=20, sigma=5),
            Rating(pool_id=other.id, player_id=ids["Anna Berg"], mu=25, sigma=5),
            RatingHistory(pool_id=pool.id, sequence=1, match_id=match.id, version_id=version.id,
                          player_id=ids["Anna  Berg"], place=1, mu_before=25, sigma_before=8,
                          mu_after=30, sigma_after=5),
        ])
        session.commit()

    report = tourney("player", "merge", "Anna Berg", "Anna  Berg", "--json")
    assert report.json["action"] == "player.merge" and report.json["changed"] is True
    data = report.json["details"]
    assert data["entries_moved"] == ["one"] and data["entries_folded"] == ["two"]
    assert (data["seats_moved"], data["places_moved"], data["history_moved"]) == (2, 1, 1)
    assert data["ratings_moved"] == ["kortrad"] and data["ratings_conflicting"] == ["dam-brade"]
    # merge refreshes the ratings like an import: both pools are brought in step
    assert set(data["ratings_refreshed"]) == {"kortrad", "dam-brade"}
    assert "dam-brade: those ratings were recomputed" in report.stderr

    with Session(engine) as session:
        keep = session.exec(select(Player).where(Player.name == "Anna Berg")).one()
        dup = session.exec(select(Player).where(Player.name == "Anna  Berg")).one()
        assert dup.merged_into_id == keep.id
        assert (keep.club, keep.email) == ("Vasa", "a@b.se")
        assert session.exec(select(Entry).where(Entry.player_id == dup.id)).all() == []
        assert len(session.exec(select(Entry).where(Entry.player_id == keep.id)).all()) == 2
        assert session.exec(select(Seat).where(Seat.player_id == dup.id)).all() == []
        assert session.exec(select(MatchPlace.player_id)).all() == [keep.id]
        assert session.exec(select(RatingHistory.player_id)).all() == [keep.id]
        # the pool both were rated in was replayed: no rating names the duplicate
        assert session.exec(select(Rating).where(Rating.player_id == dup.id)).all() == []

    assert names(tourney) == ["Anna Berg", "Cai", "Dag", "Eva"]
    merged = {p["name"]: p["merged_into"] for p in tourney("player", "list", "--all", "--json").json}
    assert merged["Anna  Berg"] == "Anna Berg" and merged["Cai"] is None
    # The old spelling still finds the kept player.
    tourney("event", "withdraw", "one", "Anna  Berg")
    shown = tourney("event", "show", "one", "--json").json
    assert {e["name"]: e["withdrawn_after"] for e in shown["entrants"]} == {"Anna Berg": 1, "Cai": None}
    [row] = audit(db_url, "player.merge")
    assert json.loads(row.before_json)["duplicate"]["name"] == "Anna  Berg"
    assert "already merged" in tourney("player", "merge", "Cai", "Anna  Berg", exit_code=1).stderr


def test_merge_is_refused_when_both_sat_in_one_round(tourney, db_url):
    tourney("player", "add", "Anna", "Anna B", "Cai", "Dag")
    tourney("event", "create", "one", "--variant", "kortrad", "--table-sizes", "2")
    tourney("event", "enter", "one", "--all")
    seat_round(db_url, "one", 1, [["Anna", "Anna B"], ["Cai", "Dag"]])
    refused = tourney("player", "merge", "Anna", "Anna B", exit_code=1).stderr
    assert "both sat at the same table 1" in refused and "round 1" in refused
    with Session(open_engine(db_url)) as session:
        assert session.exec(select(Player.merged_into_id)).all() == [None] * 4
    assert audit(db_url, "player.merge") == []
    assert "itself" in tourney("player", "merge", "Cai", "Cai", exit_code=1).stderr
    assert "unknown player" in tourney("player", "merge", "Cai", "Nobody", exit_code=2).stderr


# ----------------------------------------------------------------- import

def write(tmp_path, text, name="players.csv"):
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


def test_import_is_idempotent(tourney, tmp_path, db_url):
    tourney("player", "add", "Bo", "--club", "Old club")
    path = write(tmp_path, "\ufeffName,CLUB,Email\nAnna,Vasa,anna@x.se\nBo,New club,\n\n"
                           "\"Berg, Cai\",,\n")
    first = tourney("player", "import", str(path), "--json")
    # Bo's club in the file is not the one stored, which is kept: said, with the
    # command that changes it
    assert first.json["details"] == {"file": str(path), "added": ["Anna", "Berg, Cai"],
                                     "already_registered": ["Bo"], "warnings": [],
                                     "differ": [{"name": "Bo", "fields": ["club"]}]}
    assert "already registered: Bo (the file's club is not the one stored" in first.stderr
    second = tourney("player", "import", str(path), "--json").json
    assert second["changed"] is False
    assert second["details"] == {"file": str(path), "added": [],
                                 "already_registered": ["Anna", "Bo", "Berg, Cai"],
                                 "warnings": [], "differ": [{"name": "Bo", "fields": ["club"]}]}
    listing = {p["name"]: (p["club"], p["email"]) for p in tourney("player", "list", "--json",
                                                                         "--with-email").json}
    assert listing == {"Anna": ("Vasa", "anna@x.se"), "Bo": ("Old club", None),
                       "Berg, Cai": (None, None)}
    [row] = audit(db_url, "player.import")
    assert [p["name"] for p in json.loads(row.after_json)["added"]] == ["Anna", "Berg, Cai"]


@pytest.mark.parametrize("content, code, where", [
    ("name,phone\nAnna,1\n", 2, "unknown column 'phone'"),
    ("name,clib\nAnna,Vasa\n", 2, "unknown column 'clib' (did you mean club?)"),
    ("club\nVasa\n", 2, "no name column"),
    # one column headed by a misspelt name: a typo, not a list whose first player is 'nme'
    ("nme\nAnna\n", 2, "line 1: unknown column 'nme' (did you mean name?)"),
    ("Nmae\nAnna\n", 2, "unknown column 'Nmae' (did you mean name?)"),
    ("Name:\nAnna\n", 2, "unknown column 'Name:' (did you mean name?)"),
    ("name,Name\nA,B\n", 2, "appears twice"),
    ("", 2, "no header"),
    ("name\nAnna\n\nBo\nAnna\n", 1, "line 5, name: 'Anna' is already on line 2"),
    ("name,club\nAnna,Vasa\nBo\n", 1, "line 3: 1 field where the header has 2"),
    ("name,email\nAnna,anna@x.se\nBo,not-mail\n", 1, "line 3, email: not an e-mail"),
    ("name\nAnna\n \n", 0, None),
    ("name\nAnna\n\"Bo\x01\"\n", 1, "line 3, name: a player name cannot hold control"),
    ("name\nAnna\n\"\"\n", 0, None),
    ("name,club\nAnna,Vasa\n,Vasa\n", 1, "players.csv, line 3, name: a player name cannot be empty"),
])
def test_import_errors_name_the_line_and_import_nothing(tourney, tmp_path, content, code, where):
    path = write(tmp_path, content)
    result = tourney("player", "import", str(path), exit_code=code)
    if code:
        assert where in result.stderr
        assert names(tourney) == []
    else:
        assert names(tourney) == ["Anna"]


def test_import_refuses_bad_bytes_and_missing_files(tourney, tmp_path):
    path = tmp_path / "latin1.csv"
    path.write_bytes(b"name\nAnna\nJ\xf6rgen\n")
    # not text in the encoding given: the file cannot be read, a usage error
    forced = tourney("player", "import", str(path), "--encoding", "utf-8", exit_code=2).stderr
    assert "latin1.csv, line 3, name: not utf-8" in forced
    assert "cannot read" in tourney("player", "import", str(tmp_path / "nope.csv"), exit_code=2).stderr
    assert names(tourney) == []


def test_line_numbers_count_physical_lines():
    rows = parse_player_csv('name,club\n"Anna","Vasa SK"\n\n"Bo, Jr.",\n')
    assert [(r.line, r.name, r.club) for r in rows] == [(2, "Anna", "Vasa SK"), (4, "Bo, Jr.", None)]
    with pytest.raises(PlayerFileRejected) as rejected:
        parse_player_csv('name,club\nAnna,\n"Bo","Vasa\nSK"\n')
    assert [str(e) for e in rejected.value.errors] == [
        "players.csv, line 3, club: a club name cannot hold control characters: "
        "'Vasa\\nSK'"]
    with pytest.raises(PlayerFileRejected) as rejected:
        parse_player_csv('name,club\nAnna,\n"Bo","Vasa\nSK"\nAnna,\n'.replace("Vasa\nSK", "Vasa SK")
                         .replace("Anna,\n\"Bo\"", "Anna,\n\n\"Bo\""))
    assert [str(e) for e in rejected.value.errors] == [
        "players.csv, line 5, name: 'Anna' is already on line 2"]


@pytest.mark.parametrize("header", [
    "Name,Club,E-mail",          # English
    "Namn;Klubb;E-post",         # Swedish (a spreadsheet's semicolons)
    "Navn;Klubb;E-post",         # Norwegian
    "Nimi\tSeura\tSähköposti",  # Finnish (tabs)
])
def test_a_player_files_header_may_be_in_the_clubs_language(header):
    """A club keeps its list in its own language: the header names of the four
    languages the tool speaks are read as the columns they name."""
    delimiter = header[4]
    rows = parse_player_csv(f"{header}\nAnna Berg{delimiter}Vasa{delimiter}anna@x.se\n")
    assert [(r.name, r.club, r.email) for r in rows] == [("Anna Berg", "Vasa", "anna@x.se")]


def test_a_workbook_headed_in_finnish_imports(tourney, tmp_path):
    from tourney.records.spreadsheets import open_table

    path = tmp_path / "seura.xlsx"
    with open_table(str(path), ["Nimi", "Seura", "Sähköposti"], title="Jäsenet") as table:
        table.write(["Aino Virta", "Kerho", "aino@x.fi"])
    tourney("player", "import", str(path))
    assert [(p["name"], p["club"], p["email"]) for p in
            tourney("player", "list", "--json", "--with-email").json] == [
        ("Aino Virta", "Kerho", "aino@x.fi")]


def test_a_plain_list_of_names_imports(tourney, tmp_path):
    """One name per line, no header, as a club keeps its list: every line a player."""
    names = tmp_path / "names.txt"
    names.write_text("Anna Berg\nBo Ek\n\nCai Dahl\n", encoding="utf-8")
    run = tourney("player", "import", str(names))
    assert "3 added" in run.stderr
    assert [p["name"] for p in tourney("player", "list", "--json").json] == [
        "Anna Berg", "Bo Ek", "Cai Dahl"]
    # a file with a header is read as before, and a wrong header is still said
    wrong = tmp_path / "wrong.csv"
    wrong.write_text("nmae,club\nDag,Vasa\n", encoding="utf-8")
    assert "did you mean name?" in tourney("player", "import", str(wrong), exit_code=2).stderr


def test_standard_input_is_named_as_every_reader_names_it(tourney):
    """`player import -`: '<stdin>' in its summary and its JSON, as in its errors and
    in `result import -` and `validate -`."""
    run = tourney("player", "import", "-", "--json", input="name\nAnna\n")
    assert run.json["details"]["file"] == "<stdin>"
    assert run.stderr == "<stdin>: 1 added, 0 already registered\n"
    refused = tourney("player", "import", "-", input="nme\nBo\n", exit_code=2).stderr
    assert refused.startswith("Error: <stdin>, line 1: unknown column 'nme'")
