"""Every refusal an organizer can meet on the organizer's page (the arbiter's swap,
move, substitute, absence, forfeit, adjustment and clock; check-in, sign-ups and
the submissions; seating with too few players) says its detail in the page's
language (issue 29): each is driven through the server, its words have a
translation for every message in them (the checker of test_error_words_rest), its
parameters (names, event, round, table, numbers) are in the detail, and nothing
on the page is left in English (no ``lang="en"``). The command line keeps its
English (tests/cli)."""
from __future__ import annotations

import html

import pytest
from serve_helpers import (
    TOKEN,
    client,
    csrf_of,
    marked_english,
    match_csv,
    quoted_as,
    seated_event,
)
from test_error_words_rest import renderer, untranslated

import tourney.web.app as web_app
from tourney.errors import TourneyError

LANGS = ("sv", "nb", "fi")


class Organizer:
    """A logged-in organizer's browser that records the error each refusal page
    words (the library's error, as the server caught it)."""

    def __init__(self, db_url, monkeypatch):
        self.web = client(db_url)
        login = self.web.get("/login")
        self.web.post("/login", data={"token": TOKEN, "csrf": csrf_of(login.text)})
        self.errors: list[Exception] = []
        worded = web_app.error_text

        def recorded(err, renderer):
            self.errors.append(err)
            return worded(err, renderer)

        monkeypatch.setattr(web_app, "error_text", recorded)

    def refused(self, action: str, *params: str, lang: str = "sv", slug: str = "club",
                **form) -> str:
        """POST ``action`` with the page in ``lang``: refused (409); the detail, said
        in ``lang`` with ``params`` in it and no English left, is returned."""
        csrf = csrf_of(self.web.get(f"/org/{slug}?lang={lang}").text)
        self.errors.clear()
        page = self.web.post(f"/org/{slug}/{action}", data={"csrf": csrf, **form})
        assert page.status_code == 409, (action, page.status_code, page.text)
        (err,) = self.errors
        assert isinstance(err, TourneyError), err
        assert err.words is not None, f"{action}: given as English text: {err}"
        assert untranslated(err.words, lang) == [], (lang, str(err))
        detail = renderer(lang).message(err.words)
        english = err.words.english()
        assert detail != english, (lang, detail)
        text = html.unescape(page.text)
        assert detail in text, (detail, text)
        assert english not in text, (english, text)
        assert not marked_english(page.text), page.text
        for param in params:
            assert quoted_as(lang, str(param)) in detail, (param, detail)
        return detail


def seats_of(tourney, slug="club", number=1) -> dict[str, list[str]]:
    shown = tourney("round", "show", slug, str(number), "--json").json
    return {table["table"]: table["seats"] for table in shown["tables"]}


def test_the_arbiters_refusals_are_said_in_the_pages_language(tourney, db_url, monkeypatch,
                                                               tmp_path):
    seated_event(tourney, lang="sv", tables=2)
    tourney("player", "add", "Ida", "Johan")
    tourney("event", "enter", "club", "Johan", "--from-round", "2")
    tables = seats_of(tourney)
    one, two = tables["1"], tables["2"]
    org = Organizer(db_url, monkeypatch)
    refused = org.refused

    # swap, move, substitute
    detail = refused("swap", one[0], first=one[0], second=one[0])
    assert "två gånger" in detail, detail
    refused("swap", "Ida", "club", first="Ida", second=one[0])
    refused("move", one[0], "1", "club", player=one[0], table="1")
    detail = refused("move", one[0], "2", "5", "4", "3", player=one[0], table="2")
    assert "bordsstorlekarna" in detail and "färre" in detail and "fler" in detail, detail
    refused("move", "club", "7", player=one[0], table="7")  # an unknown table: its words
    refused("substitute", one[0], player=one[0], substitute=one[0])
    refused("substitute", two[0], "2", one[0], player=one[0], substitute=two[0])
    refused("substitute", "Johan", "club", player=one[0], substitute="Johan")

    # absence
    refused("absent", "club", "9", "3", round="9", player=one[0])
    detail = refused("absent", "Johan", "club", "2", round="1", player="Johan")
    assert "anmäld från rond 2" in detail, detail

    # the clock
    refused("clock", "1\xa0440", "0", minutes="0")  # (numbers written as Swedish does)
    refused("clock-stop", "club", "1")

    # forfeits and adjustments
    refused("unforfeit", "club", "1", table="1")
    refused("forfeit", two[0], "club", "1", *one, table="1", player=two[0])
    refused("adjust", player=one[0], points="2")
    refused("adjust", "0", player=one[0], points="0", reason="late")
    refused("unadjust", "club", "5", adjustment="5")

    # the evening: check-in, sign-ups, submissions
    refused("checkin", "club", "Ida", player="Ida")
    refused("approve", "99", "club", signup="99")
    refused("signup", "'ajar'", value="ajar")
    refused("accept", "99", submission="99")

    # a table whose result is in cannot change
    sheet = tmp_path / "table1.csv"
    sheet.write_text(match_csv(tourney, "club", 1, "1"))
    tourney("result", "import", sheet, "--event", "club")
    detail = refused("swap", "club", "1", first=one[0], second=two[0])
    assert "resultat är sparat" in detail, detail
    refused("forfeit", "club", "1", table="1", player=one[0])
    detail = refused("absent", "club", two[1], "2", round="1", player=two[1])
    assert "walkover" in detail, detail
    refused("absent", "club", "1", "2", round="1", player=two[1], lang="fi")
    refused("swap", "club", "1", first=one[0], second=two[0], lang="nb")


@pytest.mark.parametrize("lang", LANGS)
def test_seating_too_few_players_is_said_in_the_pages_language(tourney, db_url,
                                                                monkeypatch, lang):
    tourney("player", "add", "Anna", "Bo")
    tourney("event", "create", "tiny", "--variant", "svarta-maja", "--rounds", "2",
            "--table-sizes", "4", "--lang", lang)
    tourney("event", "enter", "tiny", "--all")
    org = Organizer(db_url, monkeypatch)
    org.refused("seat", "2", "tiny", "4", slug="tiny", lang=lang)


@pytest.mark.parametrize("lang", LANGS)
def test_a_sample_of_refusals_in_norwegian_and_finnish_too(tourney, db_url, monkeypatch,
                                                           lang):
    seated_event(tourney, lang=lang, tables=2)
    one = seats_of(tourney)["1"]
    org = Organizer(db_url, monkeypatch)
    org.refused("swap", one[0], first=one[0], second=one[0], lang=lang)
    org.refused("move", one[0], "2", "5", "4", "3", player=one[0], table="2", lang=lang)
    org.refused("unadjust", "club", "5", adjustment="5", lang=lang)
    org.refused("clock-stop", "club", "1", lang=lang)


def test_the_command_line_keeps_its_english(tourney):
    seated_event(tourney, tables=2)
    one, two = seats_of(tourney)["1"], seats_of(tourney)["2"]
    out = tourney("round", "move", "club", "1", one[0], "--table", "2",
                  exit_code=None)
    assert (f"club round 1: moving {one[0]} to table 2 breaks the table sizes (table 2 "
            f"seats 5, more than the event's 4; table 1 is left with 3, fewer than the "
            f"event's 4); move another player too, or move anyway (--force)") in out.stderr
    out = tourney("round", "swap", "club", "1", one[0], one[0], exit_code=None)
    assert f"name two players to swap, not {one[0]} twice" in out.stderr
    out = tourney("result", "forfeit", "club", "1", "1", "--absent", two[0], exit_code=None)
    assert (f"{two[0]} not seated at club round 1, table 1, which seats "
            f"{', '.join(one)}") in out.stderr


@pytest.mark.parametrize("lang", LANGS)
def test_a_round_seating_players_who_withdrew_is_refused_in_every_language(tourney, db_url,
                                                                           lang):
    """The refusal of a round that seats players who withdrew (`round sheet`,
    `round links`): the players and their tables joined by the language's "and"."""
    from sqlmodel import Session

    from tourney.storage.db import open_engine
    from tourney.tournament.events import get_event
    from tourney.tournament.rounds import check_no_withdrawn

    seated_event(tourney, tables=2)
    tables = seats_of(tourney)
    gone = [tables["1"][0], tables["1"][1], tables["2"][0]]
    for name in gone:
        tourney("event", "withdraw", "club", name, "--from-round", "1")
    with Session(open_engine(db_url)) as session, pytest.raises(TourneyError) as raised:
        check_no_withdrawn(session, get_event(session, "club"), 1, "write the sheet anyway")
    err = raised.value
    table = {name: label for label, names in tables.items() for name in names}
    first, second, third = sorted(gone)  # (in name order)
    assert str(err).startswith(f"round 1 of club seats {first} (table {table[first]}), "
                               f"{second} (table {table[second]}) and {third} (table "
                               f"{table[third]}), who withdrew: ")
    assert untranslated(err.words, lang) == []
    detail = renderer(lang).message(err.words)
    both = {"sv": " och ", "nb": " og ", "fi": " ja "}[lang]
    assert f"{first} (" in detail and f", {second} (" in detail, detail
    assert f"{both}{third} (" in detail, detail
    assert "table" not in detail and "withdrew" not in detail, detail
