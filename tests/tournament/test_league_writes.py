"""Statements an organizer's league commands send as the league grows (issue 34):
`player import`, `event enter --all` and `round seat` send as many statements for
400 players as for 40 (on PostgreSQL each statement is a round trip: the import
sent a lookup and an INSERT a player), and still do what they did."""
from __future__ import annotations

import contextlib
import json

from conftest import cli_on_url
from sqlalchemy import event as sa_event
from sqlalchemy import select
from sqlalchemy.engine import Engine
from sqlmodel import Session

from tourney.storage.db import open_engine
from tourney.storage.models import AuditLog, Entry, Event, Player


@contextlib.contextmanager
def statements_sent():
    """The statements every engine sends while the block runs, by command."""
    sent = {"count": 0}

    def count(*_args) -> None:
        sent["count"] += 1

    sa_event.listen(Engine, "before_cursor_execute", count)
    try:
        yield sent
    finally:
        sa_event.remove(Engine, "before_cursor_execute", count)


def counted(tourney, *args) -> int:
    with statements_sent() as sent:
        tourney(*args)
    return sent["count"]


def test_league_commands_send_the_same_statements_for_ten_times_the_players(db_url, tmp_path):
    tourney = cli_on_url(db_url)
    tourney("player", "add", "Setup")  # the schema made before anything is counted
    counts = {}
    for n in (40, 400):
        players = tmp_path / f"players-{n}.csv"
        players.write_text("name,club\n" + "".join(f"P{n} {i:04d},Club {i % 7}\n"
                                                   for i in range(n)), encoding="utf-8")
        counts[n, "import"] = counted(tourney, "player", "import", str(players))
        counts[n, "again"] = counted(tourney, "player", "import", str(players))
        slug = f"big-{n}"
        tourney("event", "create", slug, "--variant", "spardame", "--table-sizes", "4",
                "--seed", "1")
        counts[n, "enter"] = counted(tourney, "event", "enter", slug, "--all")
        counts[n, "seat"] = counted(tourney, "round", "seat", slug)
    # Writing rows in bulk on SQLite is one executemany of full many-row INSERTs and
    # one of the rows left over: the 40 rows fit in the second alone. On PostgreSQL a
    # few rows go as one INSERT ... VALUES and many as COPY (bulk.PG_VALUES_ROWS):
    # the count may differ by one either way, never grow with the players.
    # (`round seat` writes its tables' links so: 10 tables against 100)
    for what in ("import", "enter", "seat"):
        assert abs(counts[400, what] - counts[40, what]) <= 1, (what, counts)
    for what in ("again",):
        assert counts[40, what] == counts[400, what], (what, counts)
    with Session(open_engine(db_url)) as session:
        for n in (40, 400):
            event_id = session.execute(select(Event.id).where(Event.slug == f"big-{n}")
                                       ).scalar_one()
            entered = session.execute(select(Entry.player_id, Entry.first_round)
                                      .where(Entry.event_id == event_id)).all()
            # --all enters every registered player: the setup one, the 40 and the 400
            assert len(entered) == 1 + 40 + (400 if n == 400 else 0)
            assert {first for _, first in entered} == {1}
        imports = session.execute(select(AuditLog.after_json)
                                  .where(AuditLog.action == "player.import")
                                  .order_by(AuditLog.id)).scalars().all()
        ids = dict(session.execute(select(Player.name, Player.id)).all())
    # one audit row per import that added players, each player with the id stored
    assert len(imports) == 2
    for after, n in zip(imports, (40, 400)):
        added = json.loads(after)["added"]
        assert [p["name"] for p in added] == [f"P{n} {i:04d}" for i in range(n)]
        assert all(p["id"] == ids[p["name"]] and p["club"] == f"Club {i % 7}"
                   for i, p in enumerate(added))


def test_import_leaves_merged_names_alone_and_warns_of_lookalikes(db_url, tmp_path):
    tourney = cli_on_url(db_url)
    tourney("player", "add", "Åsa Öberg", "Anna", "Ana", "--club", "Vasa")
    tourney("player", "merge", "Anna", "Ana")  # Ana's name stays taken: it finds Anna
    path = tmp_path / "players.csv"
    path.write_text("name,club,email\nAna,Other,\nasa öberg,Umeå,asa@x.se\nBo,,\n"
                    "ANA,,\nBO,,\n", encoding="utf-8")
    report = tourney("player", "import", str(path), "--json")
    details = report.json["details"]
    assert details["added"] == ["asa öberg", "Bo", "ANA", "BO"]
    assert details["already_registered"] == ["Ana"]
    # a merged name is not one to look like (Ana went into Anna); a name earlier in
    # the file is
    assert [(w["name"], w["like"], w["differs"]) for w in details["warnings"]] == [
        ("asa öberg", "Åsa Öberg", "case and accents"), ("BO", "Bo", "case")]
    listed = {p["name"]: (p["club"], p["email"], p["merged_into"]) for p in
              tourney("player", "list", "--all", "--json", "--with-email").json}
    assert listed["Ana"] == ("Vasa", None, "Anna")  # not updated by the file's row
    assert listed["asa öberg"] == ("Umeå", "asa@x.se", None)
    assert listed["ANA"] == (None, None, None)
    again = tourney("player", "import", str(path), "--json").json
    assert again["changed"] is False and again["details"]["added"] == []
