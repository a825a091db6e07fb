"""A publish keeps what lives through it out of the collector's sight: the
modules and the old site's manifest are frozen (``gc.freeze``) while the site's
rows are read, so a full collection set off by those rows does not walk them
again (issue 34: 0.23 of ~1.1 CPU s of a publish after one result at 16,000
players went to the collector); the collector is as it was once publish returns
(``tourney serve`` publishes in a long-lived process)."""
from __future__ import annotations

import gc

from conftest import run_cli
from site_helpers import build_league, publish_site

from tourney.collector import BULK_YOUNG
from tourney.reports import data, site


def test_a_publish_reads_with_the_manifest_frozen_and_restores_the_collector(
        tmp_path, monkeypatch):
    url = f"sqlite:///{tmp_path / 'league.db'}"
    build_league(run_cli, url, tmp_path)
    out = publish_site(run_cli, url, tmp_path / "site")
    seen: dict = {}
    read_manifest, events = site.read_manifest, data.SiteReader.events

    def reading_manifest(target):
        manifest = read_manifest(target)
        seen["manifest"] = manifest
        seen["enabled after the manifest"] = gc.isenabled()
        return manifest

    def reading_events(self, today):
        seen["frozen"] = gc.get_freeze_count()
        seen["young"] = gc.get_threshold()[0]
        tracked = {id(o) for o in gc.get_objects()}  # the generations a collection walks
        seen["manifest walked"] = id(seen["manifest"]) in tracked
        seen["files walked"] = id(seen["manifest"]["files"]) in tracked
        return events(self, today)

    monkeypatch.setattr(site, "read_manifest", reading_manifest)
    monkeypatch.setattr(data.SiteReader, "events", reading_events)
    threshold, frozen = gc.get_threshold(), gc.get_freeze_count()
    run_cli(url, "publish", "--out", str(out), "--full")
    assert seen["manifest"] is not None and seen["enabled after the manifest"]
    assert seen["frozen"] > frozen
    assert seen["young"] == BULK_YOUNG
    assert not seen["manifest walked"] and not seen["files walked"]
    # as it was, for a long-lived process
    assert gc.get_threshold() == threshold and gc.get_freeze_count() == frozen
    assert gc.isenabled()
