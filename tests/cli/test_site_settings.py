"""`tourney site set/unset/show`: the site's title, organisation and address in
the database, used by `tourney publish`."""
from __future__ import annotations

import json

from tourney.storage.db import open_engine
from tourney.storage.schema import schema_status


def test_settings_are_stored_shown_and_published(tourney, db_url, tmp_path):
    tourney("player", "add", "Anna", "Bo")
    assert tourney("site", "show", "--json").json == {
        "title": None, "organisation": None, "url": None}
    run = tourney("site", "set", "title", "  Göteborgs Damklubb ", "--json")
    assert run.json["details"] == {"setting": "title", "before": None,
                                   "after": "Göteborgs Damklubb"}
    assert (run.json["action"], run.json["changed"]) == ("site.set", True)
    tourney("site", "set", "organisation", "<b>GDK</b> & co")
    tourney("site", "set", "url", "https://dam.example.org")
    shown = tourney("site", "show", "--json").json
    assert shown == {"title": "Göteborgs Damklubb", "organisation": "<b>GDK</b> & co",
                     "url": "https://dam.example.org/"}
    assert "Göteborgs Damklubb" in tourney("site", "show").stdout
    assert tourney("site", "set", "title", "Göteborgs Damklubb", "--json").json["changed"] \
        is False
    # Bad values: one line, exit 2, nothing changed.
    for key, value in (("url", "ftp://x"), ("url", "dam.example.org"), ("title", "   "),
                       ("title", "x" * 201), ("title", "a\x1b[2Jb"), ("colour", "red")):
        run = tourney("site", "set", key, value, exit_code=2)
        assert run.stderr.strip().splitlines()[-1].startswith("Error:"), run.stderr
        assert "Traceback" not in run.stderr and "\x1b" not in run.stderr
    assert tourney("site", "show", "--json").json == shown
    log = tourney("log", "--json").json
    assert any(row.get("action") == "site.set" for row in (log if isinstance(log, list)
                                                           else log.get("changes", [])))

    site = tmp_path / "site"
    tourney("publish", "--out", str(site))
    index = (site / "index.html").read_text(encoding="utf-8")
    player = (site / "players" / "1.html").read_text(encoding="utf-8")
    for page in (index, player):
        assert "<title>" in page and "· Göteborgs Damklubb</title>" in page
        assert "&lt;b&gt;GDK&lt;/b&gt; &amp; co" in page and "<b>GDK" not in page
        assert "Dam tournaments" not in page
    # A changed title is a change of every page: nothing is reused.
    tourney("site", "unset", "title")
    report = tourney("publish", "--out", str(site), "--json").json["details"]
    assert report["rendered"] == report["pages"]
    assert "Dam tournaments" in (site / "players" / "1.html").read_text(encoding="utf-8")
    assert tourney("site", "show", "--json").json["title"] is None


def test_site_show_never_creates_a_database(tmp_path, run_cli):
    missing = tmp_path / "nothing.db"
    run_cli(f"sqlite:///{missing}", "site", "show", exit_code=2)
    assert not missing.exists()


def test_the_settings_table_comes_with_db_upgrade(db_url, run_cli):
    run_cli(db_url, "db", "init")
    status = schema_status(open_engine(db_url, read_only=True))
    # the settings table came with 0003; later migrations keep it
    assert status.state == "current" and status.revision == status.head >= "0003"
    run_cli(db_url, "site", "set", "title", "Klubben")
    assert json.loads(run_cli(db_url, "site", "show", "--json").stdout)["title"] == "Klubben"
