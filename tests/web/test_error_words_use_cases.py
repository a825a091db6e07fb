"""The refusals of the tournament's and the application's use cases (events,
players, series, teams, scoring, standings, the seating and player files, the
database, notifications) are words: a page says them in its language, the command
line in English (tests/cli keep that English). A sample of them, each raised by the
library call a user makes, is said in Swedish here: no message of it is left
without a translation, nothing of it is the English, and its parameters (names,
numbers, the file's place) are in it. tests/test_library_words.py keeps any of them
from going back to English text."""
from __future__ import annotations

from types import SimpleNamespace

import pytest
from serve_helpers import quoted_as, seated_event
from sqlmodel import Session
from test_error_words_rest import renderer, untranslated

from tourney.app.database import backup_database
from tourney.errors import InvalidValue, TourneyError
from tourney.storage.db import open_engine
from tourney.tournament import events, players, scoring, seating_import, series, standings, teams


def said_in_swedish(call, *params: str) -> str:
    """What ``call`` refuses, as a Swedish page says it (checked: its words have a
    translation for every message in them, and name ``params``)."""
    with pytest.raises(TourneyError) as raised:
        call()
    err = raised.value
    assert err.words is not None, f"given as English text: {err}"
    assert untranslated(err.words, "sv") == [], str(err)
    said = renderer("sv").message(err.words)
    assert said != err.words.english(), said
    for param in params:
        param = quoted_as("sv", param)
        assert param in said, (param, said)
    return said


def test_the_use_cases_refusals_are_said_in_swedish(tourney, db_url, tmp_path):
    seated_event(tourney, tables=1)
    tourney("player", "add", "Åsa Öberg")
    with Session(open_engine(db_url)) as session:
        event = events.get_event(session, "club")

        def said(call, *params):
            session.rollback()
            return said_in_swedish(call, *params)

        assert "finns redan en tävling ”club”" in said(
            lambda: events.create_event(session, "club", "svarta-maja"))
        assert "kortnamn" in said(lambda: events.check_slug("Club Cup"), "'Club Cup'")
        # a setting's value: the setting's name as the library has it, what it takes
        # in the language (numbers as the language groups them: 1 000)
        assert "1 000" in said(lambda: events.check_rounds(0), "rounds", "0").replace(
            "\xa0", " ")
        assert "lottningsmetod" in said(lambda: events.check_seating("lucky"), "'lucky'")
        assert "okänt poängsystem" in said(lambda: scoring.check_points_system("goals"))
        assert "okänd särskiljning" in said(lambda: standings.check_tiebreaks(["luck"]))
        # a choice joined by the language's "or"
        assert "club eller declared" in said(lambda: teams.check_kind("school"))
        assert "två gånger" in said(
            lambda: players.add_players(session, ["Bo Ek", "Bo Ek"]), "'Bo Ek'")
        assert "spelarnamn får inte vara tomt" in said(lambda: players.clean_name(" "))
        assert "sig själv" in said(
            lambda: players.merge_players(session, "Åsa Öberg", "Åsa Öberg"))
        assert "är inte anmäld till club" in said(
            lambda: events.withdraw_player(session, event, "Åsa Öberg"), "'Åsa Öberg'")
        # why an event's settings cannot change, said after the event
        assert said(lambda: events.change_event(session, event, seating="random",
                                                seed=7)).startswith(
            "club: dess lottningsmetod och slumptal kan inte ändras när rond 1 är lottad")
        assert "rond 3 i club kan inte läsas in: nästa rond att lotta är 2" in said(
            lambda: seating_import.import_seating(session, event, 3, str(tmp_path / "x.csv")))
        assert "är en tävlings kortnamn" in said(
            lambda: series.create_series(session, "club"), "'club'")

        # a seating file's refusal and its rows' problems: a ragged row is worded as
        # a record file's is (one home), in the language too
        sheet = tmp_path / "seating.csv"
        sheet.write_text("table,player\n1,Åsa Öberg,\n", encoding="utf-8")
        session.rollback()
        with pytest.raises(seating_import.SeatingFileRejected) as raised:
            seating_import.import_seating(session, event, 1, str(sheet))
        rejected = raised.value
        assert renderer("sv").message(rejected.words) == (
            f"{sheet}: lottningen lästes inte in: {len(rejected.errors)} problem i filen")
        (ragged,) = [e for e in rejected.errors if e.line == 2]
        assert ragged.message == ("3 fields where the header has 2 (a ragged row; check for "
                                  "an unquoted delimiter)")
        assert renderer("sv").message(ragged.words).startswith("3 fält där rubrikraden har 2")

    # a file's refusal says its place (file, line) in the language too
    with pytest.raises(TourneyError) as raised:
        players.parse_player_csv("name,clib\nAnna,Vasa\n", "members.csv")
    assert str(raised.value) == ("members.csv, line 1: unknown column 'clib' (did you mean "
                                 "club?); a player file has name, club and email")
    assert renderer("sv").message(raised.value.words) == (
        "members.csv, rad 1: okänd kolumn ”clib” (menade du club?); en spelarfil har name, "
        "club och email")


def test_a_refusal_without_a_database_is_said_in_swedish(tmp_path):
    # a backup of a server database is its own tools' work (refused by its dialect,
    # before anything is connected to)
    server = SimpleNamespace(dialect=SimpleNamespace(name="postgresql"))
    said = said_in_swedish(lambda: backup_database(server, str(tmp_path / "b.db")),
                           "postgresql")
    assert "säkerhetskopia" in said
    assert not (tmp_path / "b.db").exists()


def test_a_setting_given_as_words_keeps_its_english():
    """The command line words an InvalidValue with its flag (cli/errors.py): the
    English of what it takes is unchanged by its being words."""
    with pytest.raises(InvalidValue) as raised:
        events.check_rounds(0)
    assert raised.value.describe("--rounds") == "--rounds takes 1 to 1000, not 0"
    assert str(raised.value) == "rounds takes 1 to 1000, not 0"


def test_every_unknown_name_is_said_in_swedish_its_english_unchanged(tourney, db_url):
    """Each kind of unknown name (event, series, event or series, team, player,
    variant) and what is said when no name is close, or after it ("register it
    first"), is words: Swedish on a page, the English the command line always had
    (tests/cli/test_unknown_names.py and test_series.py keep the command line's)."""
    from tourney.engines import get_game

    with Session(open_engine(db_url)) as session:
        def said(call, *params):
            session.rollback()
            with pytest.raises(TourneyError) as raised:
                call()
            return str(raised.value), said_in_swedish(call, *params)

        assert said(lambda: events.get_event(session, "cup"), "'cup'") == (
            "unknown event 'cup': there are no events yet",
            "okänd tävling ”cup”: det finns inga tävlingar än")
        assert said(lambda: series.get_series(session, "cup"), "'cup'") == (
            "unknown series 'cup': there are no series yet",
            "okänd serie ”cup”: det finns inga serier än")
        assert said(lambda: teams.team_scope(session, "cup"), "'cup'") == (
            "unknown event or series 'cup': there are no events yet",
            "okänd tävling eller serie ”cup”: det finns inga tävlingar än")
        assert said(lambda: get_game("chess"), "'chess'")[1].startswith(
            "okänd variant ”chess” (varianter: ")
        tourney("player", "add", "Anna Berg")
        tourney("event", "create", "club", "--variant", "spardame")
        event = events.get_event(session, "club")
        assert said(lambda: teams.remove_members(session, "club", "Vasa"), "'Vasa'") == (
            "unknown team 'Vasa' (club has no teams)", "okänt lag ”Vasa” (club har inga lag)")
        assert said(lambda: events.enter_players(session, event, ["Ana Berg"]),
                    "'Ana Berg'") == (
            "unknown player 'Ana Berg' (did you mean 'Anna Berg'?); register it first",
            "okänd spelare ”Ana Berg” (menade du ”Anna Berg”?); registrera den först")


def test_the_seatings_and_the_players_warnings_are_words():
    """A look-alike name and a seating constraint a round breaks: warnings, not
    refusals, but words all the same (their English is the command line's)."""
    from tourney.tournament.arbiter import unmet_words
    from tourney.tournament.players import LOOKALIKE_SENTENCES, Lookalike

    for differs in LOOKALIKE_SENTENCES:
        like = Lookalike("asa oberg", "Åsa Öberg", differs)
        assert untranslated(like.words, "sv") == []
        assert like.text.startswith("'asa oberg' looks like 'Åsa Öberg' (they differ only by ")
        assert renderer("sv").message(like.words).startswith("”asa oberg” liknar ”Åsa Öberg”")
    shared = unmet_words("apart", "unavoidable", ["Anna", "Bo"], "2", club="Vasa",
                         members=5, tables=2)
    assert str(shared) == ("Anna and Bo (both of club Vasa) share table 2: club Vasa has 5 "
                           "players in the round at 2 tables, so some share one")
    assert renderer("sv").message(shared) == (
        "Anna och Bo (båda från klubben Vasa) sitter vid bord 2: klubben Vasa har 5 spelare "
        "i ronden vid 2 bord, så några delar bord")
    for reason in ("no-such-table", "bye", "table-full", "seated-elsewhere"):
        fixed = unmet_words("fixed", reason, ["Anna"], "3", seated_at="1", tables=2)
        assert untranslated(fixed, "sv") == [] and "is fixed to table 3" in str(fixed)
        assert "har fast plats vid bord 3" in renderer("sv").message(fixed)
