"""`tourney player links`: each entered player's private link, stable, revocable."""
from sqlmodel import select

from tourney.storage.db import open_engine, reading
from tourney.storage.models import PlayerLink
from tourney.tournament.evening import link_by_token


def setup(run_cli, db_url):
    run_cli(db_url, "player", "add", "Anna Berg", "--email", "anna@example.org")
    run_cli(db_url, "player", "add", "Bo Ek", "Cai Dahl", "--club", "Vasa")
    run_cli(db_url, "event", "create", "club-1", "--variant", "kortrad", "--rounds", "2")
    run_cli(db_url, "event", "enter", "club-1", "Anna Berg", "Bo Ek")


def test_links_are_unguessable_stable_and_private(db_url, run_cli):
    setup(run_cli, db_url)
    first = run_cli(db_url, "player", "links", "club-1", "--base-url",
                    "http://venue:8000/", "--json")
    rows = first.json
    assert [r["player"] for r in rows] == ["Anna Berg", "Bo Ek"]  # entered players only
    tokens = [r["token"] for r in rows]
    assert len(set(tokens)) == 2 and all(len(t) >= 32 for t in tokens)
    assert rows[0]["url"] == f"http://venue:8000/p/{tokens[0]}"
    assert "anna@example.org" not in first.stdout
    again = run_cli(db_url, "player", "links", "club-1", "--json").json
    assert [r["token"] for r in again] == tokens and again[0]["url"] == f"/p/{tokens[0]}"
    text = run_cli(db_url, "player", "links", "club-1").stdout
    assert f"/p/{tokens[1]}" in text and "Bo Ek" in text


def test_renew_revokes_the_old_link(db_url, run_cli):
    setup(run_cli, db_url)
    old = {r["player"]: r["token"] for r in
           run_cli(db_url, "player", "links", "club-1", "--json").json}
    new = {r["player"]: r for r in run_cli(db_url, "player", "links", "club-1", "--renew",
                                           "Anna Berg", "--json").json}
    assert new["Anna Berg"]["renewed"] and new["Anna Berg"]["token"] != old["Anna Berg"]
    assert new["Bo Ek"]["token"] == old["Bo Ek"] and not new["Bo Ek"]["renewed"]
    with reading(open_engine(db_url)) as session:
        assert link_by_token(session, old["Anna Berg"]) is None
        link, player, event = link_by_token(session, new["Anna Berg"]["token"])
        assert (player.name, event.slug) == ("Anna Berg", "club-1")
        assert len(session.exec(select(PlayerLink)).all()) == 3


def test_renewing_a_player_not_entered_is_refused(db_url, run_cli):
    setup(run_cli, db_url)
    refused = run_cli(db_url, "player", "links", "club-1", "--renew", "Cai Dahl",
                      exit_code=1)
    assert "Cai Dahl" in refused.stderr and "Traceback" not in refused.stderr
    with reading(open_engine(db_url)) as session:
        assert session.exec(select(PlayerLink)).all() == []
