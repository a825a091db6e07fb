"""A publish after one result does no work over the whole league that the result
cannot change (issue 34): the players' list's match counts, the boards' marks and
the rating histories' marks are known from what the last publish kept while the
rounds the lists count, the rounds being played and the histories (appended to only:
the pool's history stamp of migration 0015 unchanged) say nothing else changed; the
events and rounds of every match are not read, only those the rendered pages'
histories link to. A round completed, a correction (the history rewritten) and a
merge do read them again; the site is the one a full publish makes (the random
changes' test, test_publish_random_changes.py, compares them byte for byte)."""
from __future__ import annotations

import random

import pytest
from conftest import run_cli
from test_publish_random_changes import STAMPED, League, files_of

from tourney.reports.data import SiteReader


@pytest.fixture
def league_reads(monkeypatch):
    """The whole-league reads of the publishes that follow: the calls of the
    reader's match counts and board marks, the match refs asked for every match,
    and the queries that aggregate rating history columns over every player."""
    seen: list[str] = []
    rows = SiteReader._rows
    for name in ("match_counts", "board_marks"):
        def spy(self, *args, _name=name, _real=getattr(SiteReader, name), **kwargs):
            seen.append(_name)
            return _real(self, *args, **kwargs)
        monkeypatch.setattr(SiteReader, name, spy)
    refs = SiteReader.match_refs

    def spy_refs(self, *args, **kwargs):
        if (args[0] if args else kwargs.get("match_ids")) is None:
            seen.append("match_refs of every match")
        return refs(self, *args, **kwargs)

    def spy_rows(self, statement):
        sql = " ".join(str(statement.compile()).split())
        if "FROM ratinghistory" in sql and "sum(" in sql and "player_id IN" not in sql:
            seen.append("rating history sums")
        return rows(self, statement)

    monkeypatch.setattr(SiteReader, "match_refs", spy_refs)
    monkeypatch.setattr(SiteReader, "_rows", spy_rows)
    return seen


def _publish(league: League, site) -> None:
    run_cli(league.url, "publish", "--out", str(site), "--no-replays")


def _same_as_full(league: League, site, full) -> None:
    run_cli(league.url, "publish", "--out", str(full), "--no-replays", "--full")
    done, rebuilt = files_of(site), files_of(full)
    assert sorted(done) == sorted(rebuilt)
    assert [n for n in done if n not in STAMPED and done[n] != rebuilt[n]] == []


def test_one_result_reads_nothing_of_the_whole_league(db_url, tmp_path, league_reads):
    league = League(db_url, tmp_path, random.Random(5))
    site, full = tmp_path / "site", tmp_path / "full"
    _publish(league, site)
    league.result()
    league_reads.clear()
    _publish(league, site)
    assert league_reads == []
    league.result()  # and again: what the last publish kept is kept on
    _publish(league, site)
    assert league_reads == []
    _same_as_full(league, site, full)


@pytest.mark.parametrize("change", ["complete", "correction", "merge"])
def test_what_changes_the_lists_reads_them_again(db_url, tmp_path, league_reads, change):
    league = League(db_url, tmp_path, random.Random(6))
    site, full = tmp_path / "site", tmp_path / "full"
    league.result()
    _publish(league, site)
    league_reads.clear()
    if change == "complete":  # the round's other results: the lists count it now
        while league.result() is not None:
            pass
    elif change == "correction":  # a match of round 1 rated again: the history rewritten
        league.correction()
    else:
        assert "(exit 0)" in league.merge()
    _publish(league, site)
    assert {"match_counts", "board_marks"} <= set(league_reads)
    _same_as_full(league, site, full)
