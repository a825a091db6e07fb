"""`tourney round links`, `tourney player links` and `tourney notify` take --base-url
alike: optional (the links are paths without it), checked to be an http(s) address,
said so in their help; `tourney serve`'s is checked by the same check."""
import pytest


def setup(run_cli, db_url):
    run_cli(db_url, "player", "add", "Anna", "Bo", "Cai", "Dag")
    run_cli(db_url, "event", "create", "club-1", "--variant", "kortrad", "--rounds", "2",
            "--table-sizes", "4")
    run_cli(db_url, "event", "enter", "club-1", "--all")
    run_cli(db_url, "round", "seat", "club-1")


def test_round_links_are_paths_without_a_base_url_as_player_links_are(db_url, run_cli):
    setup(run_cli, db_url)
    tables = run_cli(db_url, "round", "links", "club-1", "1", "--json").json["tables"]
    assert len(tables) == 1 and tables[0]["url"].startswith("/t/")
    token = tables[0]["url"].removeprefix("/t/")
    assert len(token) >= 20
    full = run_cli(db_url, "round", "links", "club-1", "1", "--base-url",
                   "http://venue:8000/", "--json").json["tables"]
    assert full[0]["url"] == f"http://venue:8000/t/{token}"  # the same link
    text = run_cli(db_url, "round", "links", "club-1", "1").stdout
    assert f"/t/{token}" in text and "http" not in text
    players = run_cli(db_url, "player", "links", "club-1", "--json").json
    assert all(row["url"].startswith("/p/") for row in players)


@pytest.mark.parametrize("command", [("round", "links", "club-1", "1"),
                                     ("player", "links", "club-1"),
                                     ("serve",),
                                     ("notify", "club-1", "--round", "1", "--outbox", "OUTBOX")])
def test_each_refuses_an_address_that_is_not_http_alike(db_url, run_cli, command, tmp_path):
    setup(run_cli, db_url)
    command = tuple(str(tmp_path / "outbox") if arg == "OUTBOX" else arg for arg in command)
    refused = run_cli(db_url, *command, "--base-url", "venue:8000", exit_code=2)
    assert "'venue:8000' is not an http:// or https:// address" in refused.stderr
    assert "Traceback" not in refused.stderr
    # one check for all (serve's): no space, query or fragment a link's path would follow
    for address in ("http://venue 8000", "http://venue:8000/?x=1", "http://venue/#top"):
        refused = run_cli(db_url, *command, "--base-url", address, exit_code=2)
        assert f"{address!r} is not an http:// or https:// address" in refused.stderr
    assert not (tmp_path / "outbox").exists()  # nothing written
    shown = " ".join(run_cli(db_url, *command[:2], "--help").stdout.split())
    assert "--base-url URL" in shown
    if command[0] != "serve":  # serve's own address by default
        assert "without it they are paths" in shown
