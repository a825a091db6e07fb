"""The organizer's round page follows the round: ``/org/<slug>/live`` says each
table's state, how many have their result and a fingerprint that changes with what
the page shows of the round; a read only, for the organizer only; the page carries
what its script asks for and a refresh link for a browser without script (no meta
refresh: it would lose what the organizer is typing). On SQLite and PostgreSQL."""
from __future__ import annotations

import re

from serve_helpers import TOKEN, client, csrf_of, match_csv, seated_event, send_csv
from sqlalchemy import func
from sqlmodel import select

from tourney.reports.i18n import translations
from tourney.storage.db import open_engine, reading
from tourney.storage.models import AuditLog, TableLink

BEARER = {"Authorization": f"Bearer {TOKEN}", "Accept": "application/json"}


def logged_in(web):
    web.post("/login", data={"token": TOKEN, "csrf": csrf_of(web.get("/login").text)})
    return web


def counts(db_url) -> tuple[int, int]:
    with reading(open_engine(db_url)) as session:
        return (session.exec(select(func.count()).select_from(TableLink)).one(),
                session.exec(select(func.count()).select_from(AuditLog)).one())


def test_the_round_page_says_what_its_script_follows(tourney, db_url):
    links = seated_event(tourney, lang="en")
    web = logged_in(client(db_url))  # review mode
    page = web.get("/org/club").text
    live = re.search(r'<p id="round-live"[^>]*>', page).group(0)
    assert 'data-live="/org/club/live?round=1"' in live and 'data-round="1"' in live
    assert 'data-every="5"' in live
    state = re.search(r'data-state="([0-9a-f]{16})"', live).group(1)
    assert "Results in: 0 of 2." in page
    assert '<a href="/org/club" id="refresh">Refresh</a>' in page
    assert 'http-equiv="refresh"' not in page  # what is typed is never lost to a reload
    for lang in ("sv", "nb", "fi"):
        words = translations(lang)
        for msgid in ("Refresh", "Another round was seated since this page was loaded.",
                      "Show the round now"):
            assert words.gettext(msgid) != msgid, (lang, msgid)
            assert words.gettext(msgid) in web.get(f"/org/club?lang={lang}").text

    before = counts(db_url)
    answer = web.get("/org/club/live?round=1")
    assert answer.headers["cache-control"] == "no-store"
    data = answer.json()
    assert data == {"event": "club", "round": 1, "latest": 1, "open": True,
                    "results_in": 0, "state": state,
                    "tables": [{"table": "1", "state": "waiting", "conflict": False},
                               {"table": "2", "state": "waiting", "conflict": False}]}
    assert web.get("/org/club/live").json() == data  # the latest round by default
    assert counts(db_url) == before  # asked every few seconds: never writes

    # a table sends its result: the state and the fingerprint follow
    sent = send_csv(web, links["1"], match_csv(tourney, "club", 1, "1")).json()
    waiting = web.get("/org/club/live").json()
    assert waiting["tables"][0]["state"] == "submitted" and waiting["state"] != state
    assert waiting["results_in"] == 0
    # the same answer until something changes
    assert web.get("/org/club/live").json()["state"] == waiting["state"]
    web.post("/org/club/accept", data={"submission": sent["submission"]}, headers=BEARER)
    accepted = web.get("/org/club/live").json()
    assert accepted["tables"][0]["state"] == "accepted" and accepted["results_in"] == 1
    assert accepted["state"] not in (state, waiting["state"])
    page = web.get("/org/club?lang=en").text
    assert f'data-state="{accepted["state"]}"' in page and "Results in: 1 of 2." in page
    # a second result differing from the stored one: a conflict to settle
    send_csv(web, links["1"], match_csv(tourney, "club", 1, "1", loser_seat=2))
    conflict = web.get("/org/club/live").json()
    assert conflict["tables"][0]["conflict"] and conflict["state"] != accepted["state"]
    # the round's clock marks results late: it changes what the page shows
    tourney("round", "start", "club", "1", "--minutes", "30")
    assert web.get("/org/club/live").json()["state"] != conflict["state"]


def test_only_the_organizer_follows_the_round(tourney, db_url):
    seated_event(tourney, lang="en")
    web = client(db_url)
    assert web.get("/org/club/live", headers={"Accept": "application/json"}
                   ).status_code in (401, 403)
    assert web.get("/org/club/live", headers={"Authorization": "Bearer wrong"}
                   ).status_code in (401, 403)
    assert web.get("/org/club/live", headers=BEARER).json()["round"] == 1
    assert web.get("/org/nope/live", headers=BEARER).json()["code"] == "unknown-event"


def test_a_round_the_event_does_not_have_is_said_so_in_the_pages_language(tourney, db_url):
    seated_event(tourney, lang="en")
    web = client(db_url)
    unknown = web.get("/org/nope/live?round=1", headers=BEARER)
    assert (unknown.status_code, unknown.json()["code"]) == (404, "unknown-event")
    for asked in ("9", "x", "-1"):
        answer = web.get(f"/org/club/live?round={asked}", headers=BEARER)
        assert answer.status_code == 404
        assert answer.json()["code"] == "unknown-round"
        assert answer.json()["message"] == f"This event has no round {asked}."
    swedish = web.get("/org/club/live?round=9", headers={**BEARER, "Accept-Language": "sv"})
    assert swedish.json()["message"] == translations("sv").gettext(
        "This event has no round %(round)s.") % {"round": 9} == "Tävlingen har ingen rond 9."


def test_before_the_first_round_the_page_waits_for_one(tourney, db_url):
    tourney("player", "add", "Anna", "Bo", "Cai", "Dag")
    tourney("event", "create", "club", "--variant", "svarta-maja", "--table-sizes", "4",
            "--lang", "en")
    tourney("event", "enter", "club", "--all")
    web = logged_in(client(db_url))
    page = web.get("/org/club").text
    assert 'data-live="/org/club/live"' in page and 'data-round="0"' in page
    assert web.get("/org/club/live").json()["latest"] == 0
    tourney("round", "seat", "club")
    assert web.get("/org/club/live").json()["latest"] == 1  # the page says so
