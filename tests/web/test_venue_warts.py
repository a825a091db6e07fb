"""What the last walk-throughs at the venue left: a refusal in JSON says where in a
file as the command line's --json does, a sign-up's thank-you page reloads without
sending the form again, a player's page says their table's result is stored, the
organizer's page tells a missing result from a conflict, a half written one way per
language, names quoted as each language quotes. SQLite only: the words, not the
storage, are under test."""
from __future__ import annotations

import pytest
from serve_helpers import TOKEN, client, csrf_of, match_csv, path_of, seated_event, send_csv

from tourney.errors import UsageError, in_file
from tourney.errors.words import N_, Message
from tourney.reports.i18n import translations

pytestmark = pytest.mark.parametrize("backend", ["sqlite"])

ORGANIZER = {"Authorization": f"Bearer {TOKEN}", "Accept": "application/json"}


def test_a_json_refusal_says_where_in_a_file_as_the_command_line_does(
        tourney, db_url, monkeypatch):
    seated_event(tourney, lang="en")
    web = client(db_url)

    def refused(*args, **kwargs):
        raise in_file(UsageError, "players.csv", Message(N_("no name")), line=3,
                      column="name")

    monkeypatch.setattr("tourney.web.app.mark", refused)
    answer = web.post("/org/club/checkin", data={"player": "Anna"}, headers=ORGANIZER)
    assert answer.status_code == 409
    body = answer.json()
    assert (body["file"], body["line"], body["column"]) == ("players.csv", 3, "name")
    assert body["code"] == "refused" and "players.csv, line 3, name: " in body["message"]


def test_the_sign_up_thank_you_page_reloads_without_sending_the_form_again(tourney, db_url):
    seated_event(tourney, lang="en")
    tourney("event", "set", "club", "--signup", "open")
    visitor = client(db_url)
    csrf = csrf_of(visitor.get("/signup/club").text)
    form = {"csrf": csrf, "name": "Pia Lind", "email": "pia@x.se"}
    visitor.post("/signup/club", data=form)
    sent = visitor.post("/signup/club", data=form, follow_redirects=False)
    assert sent.status_code == 303
    thanks = sent.headers["location"]
    assert thanks.startswith("/signup/club/thanks?")
    page = visitor.get(thanks)
    assert "Thank you, Pia Lind: you had signed up already." in page.text
    updates = len(tourney("log", "--json").json)
    assert visitor.get(thanks).text == page.text  # a reload: the same words, nothing sent
    assert len(tourney("log", "--json").json) == updates
    # only a sign-up sent here makes the page thank anyone
    forged = visitor.get(thanks.replace("Pia+Lind", "Mallory"))
    assert "Thank you" not in forged.text and 'name="email"' in forged.text


def test_a_players_page_says_their_tables_result_is_stored(tourney, db_url):
    links = seated_event(tourney, lang="fi")
    web = client(db_url, auto_accept=True)
    send_csv(web, links["1"], match_csv(tourney, "club", 1, "1"))
    seats = {t["table"]: t["seats"] for t in
             tourney("round", "show", "club", "1", "--json").json["tables"]}
    own = {r["player"]: r["url"] for r in tourney("player", "links", "club", "--json").json}
    played = web.get(own[seats["1"][0]]).text.split('id="seat"')[1].split("</section>")[0]
    assert "Syötä pöytäsi tulos" not in played and path_of(links["1"]["url"]) not in played
    assert translations("fi").gettext("Your table's result is stored.") in played
    waiting = web.get(own[seats["2"][0]]).text.split('id="seat"')[1].split("</section>")[0]
    assert "Syötä pöytäsi tulos" in waiting and path_of(links["2"]["url"]) in waiting


def test_the_organizers_page_tells_a_missing_result_from_a_conflict(tourney, db_url):
    links = seated_event(tourney, lang="en")
    web = client(db_url, auto_accept=True)
    for table in links:
        send_csv(web, links[table], match_csv(tourney, "club", 1, table))
    assert send_csv(web, links["1"], match_csv(tourney, "club", 1, "1",
                                               loser_seat=2)).status_code == 409
    page = web.get("/org/club", headers={"Authorization": f"Bearer {TOKEN}"}).text
    close = page[page.index('id="close-round"'):].partition("</form>")[0]
    assert "1 table has a stored result and a different one waiting for your decision." in close
    assert "no stored result" not in close


def test_a_name_is_quoted_as_each_language_quotes_it(tourney, db_url):
    """Refusals quoted names as Python does: 'Nils Moe', but "Daniel O'Brien"."""
    seated_event(tourney, lang="en")
    tourney("player", "add", "Daniel O'Brien")  # registered, not entered
    web = client(db_url)
    said = {}
    for lang in ("sv", "nb", "fi", "en"):
        answer = web.post("/org/club/withdraw", data={"player": "Daniel O'Brien"},
                          headers={**ORGANIZER, "Accept-Language": lang})
        assert answer.status_code == 409
        said[lang] = answer.json()["message"]
    assert "”Daniel O'Brien”" in said["sv"] and "”Daniel O'Brien”" in said["fi"]
    assert "«Daniel O'Brien»" in said["nb"] and "'Daniel O'Brien'" in said["en"]
    # the command line's English, its own sentences too
    assert "unknown player 'Daniel O'Bryan'" in tourney(
        "player", "rename", "Daniel O'Bryan", "Dan", exit_code=2).stderr
    assert "renamed 'Daniel O'Brien' to 'Dan'" in tourney(
        "player", "rename", "Daniel O'Brien", "Dan").stderr
    assert "unknown player 'Nils Moe'" in tourney("player", "rename", "Nils Moe", "N",
                                                   exit_code=2).stderr
