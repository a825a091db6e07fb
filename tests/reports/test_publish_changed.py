"""`publish --json`'s "changed": whether the site differs from the one it replaced
beyond the publication time, and a summary that says so."""
from __future__ import annotations

import datetime as dt
from pathlib import Path

from conftest import seat_example_cup

from tourney.reports.site import publish
from tourney.storage.db import open_engine

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"


def example_results(tourney) -> None:
    seat_example_cup(tourney)
    tourney("result", "import", str(EXAMPLES / "round-1.csv"))


def test_republishing_the_same_data_changes_nothing(tourney, db_url, tmp_path):
    example_results(tourney)
    out = tmp_path / "site"
    first = tourney("publish", "--out", str(out), "--json").json
    assert first["changed"] is True and first["details"]["new_site"] is True
    assert ", all new (" in first["summary"] and "the rest" not in first["summary"]
    engine = open_engine(db_url)
    later = dt.datetime(2030, 5, 17, 12, 30, tzinfo=dt.UTC)
    for incremental in (True, False):
        report = publish(engine, out, now=later, incremental=incremental)
        assert report.changed is False and report.changed_files == 0
        assert report.removed_files == 0
        assert "index.html" in report.stamp_only and "data/index.json" in report.stamp_only
        assert not any(p.startswith(("events/", "players/")) for p in report.stamp_only)
        later += dt.timedelta(days=1)
    again = tourney("publish", "--out", str(out), "--json").json
    assert again["changed"] is False and again["details"]["changed_files"] == 0
    assert ": nothing changed" in again["summary"]
    tourney("site", "set", "title", "Another club")
    retitled = tourney("publish", "--out", str(out), "--json").json
    assert retitled["changed"] is True and retitled["details"]["changed_files"] > 10
    assert "pages changed" in retitled["summary"]


def test_a_publish_counts_the_replays_it_reused(tourney, db_url, tmp_path):
    """The report's replays are the site's, however many of them were reused (an
    incremental publish counted only those it rendered)."""
    example_results(tourney)
    out = tmp_path / "site"
    first = tourney("publish", "--out", str(out), "--json").json["details"]["replays"]
    on_disk = len(list((out / "events").rglob("match-*-deal-*.html")))
    assert first > 0 and on_disk % first == 0  # a replay page in every language
    player = tourney("standings", "example-cup", "--json").json[0]["player"]
    tourney("result", "adjust", "example-cup", player, "--points", "1", "--reason", "a test")
    again = tourney("publish", "--out", str(out), "--json").json["details"]
    assert again["rendered"] < again["pages"]  # an incremental publish
    assert again["replays"] == first
    fresh = tourney("publish", "--out", str(tmp_path / "fresh"), "--json").json["details"]
    assert fresh["replays"] == first
