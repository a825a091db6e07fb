"""What the last walk-throughs at the venue left: a refusal in JSON says where in a
file as the command line's --json does, a sign-up's thank-you page reloads without
sending the form again, a player's page says their table's result is stored, the
organizer's page tells a missing result from a conflict, a half written one way per
language, names quoted as each language quotes. SQLite only: the words, not the
storage, are under test."""
from __future__ import annotations

import pytest
from serve_helpers import TOKEN, client, seated_event

from tourney.errors import UsageError, in_file
from tourney.errors.words import N_, Message

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
