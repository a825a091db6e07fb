"""Publishing without a database: paths, languages, the target folder, the swap."""
from __future__ import annotations

import datetime as dt
import os

import pytest

from tourney.errors import TourneyError, UsageError
from tourney.reports import folders as folders_module
from tourney.reports.data import EventInfo, event_status
from tourney.reports.folders import (
    SITE_MARKER,
    discard,
    leftovers,
    prepare_target,
    swap_into_place,
)
from tourney.reports.site import Links, check_relpath, choose_languages, root_of


def info(event_id=1, slug="club-1", lang=None, **counts) -> EventInfo:
    event = EventInfo(id=event_id, slug=slug, name=slug, variant="spardame", date=None,
                      lang=lang, rounds_planned=counts.pop("planned", None), table_min=4,
                      table_max=4, table_preferred=4, seating="balanced", seed=0, rules={},
                      options={}, tiebreaks=[])
    for key, value in counts.items():
        setattr(event, key, value)
    return event


def test_paths_are_made_of_ids_and_checked_slugs():
    events = [info(1, "club-1"), info(2, "../../etc"), info(3, "Café")]
    links = Links(events)
    assert links.event(1) == "events/club-1/index.html"
    assert links.event(2) == "events/e_2/index.html"  # not a slug: the id
    assert links.event(3) == "events/e_3/index.html"
    assert links.match(1, 17) == "events/club-1/match-17.html"
    assert links.deal(1, 17, 2) == "events/club-1/match-17-deal-2.html"
    assert links.player(42) == "players/42.html"
    assert root_of("events/club-1/index.html") == "../../"
    assert root_of("index.html") == ""
    for bad in ("../x.html", "/etc/passwd", "a//b.html", "a/./b.html", "a\\b.html", ""):
        with pytest.raises(TourneyError):
            check_relpath(bad)
    with pytest.raises(TourneyError):
        Links.ratings("../x")


def test_languages():
    assert choose_languages(["sv", "en", "sv"], []) == ["sv", "en"]
    assert choose_languages([], []) == ["en"]
    events = [info(1, lang="fi"), info(2, lang="sv"), info(3, lang="sv"), info(4)]
    assert choose_languages([], events) == ["sv", "fi"]  # the events' languages, most used first
    assert choose_languages(["no"], events) == ["nb"]
    with pytest.raises(UsageError):
        choose_languages(["zz-nope"], [])


def test_event_status():
    today = dt.date(2024, 6, 1)
    assert event_status(info(), today) == "upcoming"
    assert event_status(info(planned=3, rounds_seated=2, tables_seated=4, results_in=4),
                         today) == "running"
    assert event_status(info(planned=2, rounds_seated=2, tables_seated=4, results_in=3),
                         today) == "running"
    assert event_status(info(planned=2, rounds_seated=2, tables_seated=4, results_in=4),
                         today) == "finished"
    open_ended = info(rounds_seated=1, tables_seated=2, results_in=2)
    assert event_status(open_ended, today) == "running"
    open_ended.date = dt.date(2024, 5, 1)
    assert event_status(open_ended, today) == "finished"


def test_the_target_must_be_new_empty_or_a_site(tmp_path):
    assert prepare_target(tmp_path / "a" / "b" / "site") == tmp_path / "a" / "b" / "site"
    empty = tmp_path / "empty"
    empty.mkdir()
    assert prepare_target(empty) == empty
    other = tmp_path / "other"
    other.mkdir()
    (other / "notes.txt").write_text("mine")
    with pytest.raises(UsageError, match="not empty"):
        prepare_target(other)
    (other / SITE_MARKER).write_text("{}")
    assert prepare_target(other) == other
    a_file = tmp_path / "file"
    a_file.write_text("x")
    with pytest.raises(UsageError):
        prepare_target(a_file)
    with pytest.raises(UsageError):
        prepare_target("/")
    with pytest.raises(UsageError):
        prepare_target("  ")
    # A symlink to a site is followed: the real folder is replaced, beside itself.
    link = tmp_path / "link"
    link.symlink_to(other)
    assert prepare_target(link) == other


@pytest.mark.parametrize("exchange", [True, False])
def test_the_swap_replaces_the_whole_site(tmp_path, monkeypatch, exchange):
    if not exchange:  # the fallback where renameat2 is missing: two renames
        monkeypatch.setattr(folders_module, "_exchange", lambda a, b: False)
    target = tmp_path / "site"
    target.mkdir()
    (target / "old.html").write_text("old")
    (target / SITE_MARKER).write_text("{}")
    build = tmp_path / ".site.publishing-1"
    build.mkdir()
    (build / "new.html").write_text("new")
    old = swap_into_place(build, target)
    assert sorted(p.name for p in target.iterdir()) == ["new.html"]
    assert not build.exists()
    assert old is not None and (old / "old.html").read_text() == "old"
    assert leftovers(target) == [old]
    discard([old], background=False)
    assert not old.exists()
    # A first publish is a plain rename.
    fresh = tmp_path / "fresh"
    build2 = tmp_path / ".fresh.publishing-2"
    build2.mkdir()
    assert swap_into_place(build2, fresh) is None and fresh.is_dir()


def test_background_discard_finishes(tmp_path):
    old = tmp_path / ".site.old-1"
    (old / "deep").mkdir(parents=True)
    for i in range(50):
        (old / "deep" / f"{i}.html").write_text("x")
    discard([old], background=True)
    import time

    deadline = time.monotonic() + 30
    while old.exists() and time.monotonic() < deadline:
        time.sleep(0.05)
    assert not old.exists()


def test_exchange_is_atomic_where_supported(tmp_path):
    a, b = tmp_path / "a", tmp_path / "b"
    a.mkdir()
    b.mkdir()
    (a / "x").write_text("a")
    (b / "x").write_text("b")
    if folders_module._exchange(a, b):  # Linux: one atomic exchange
        assert (a / "x").read_text() == "b" and (b / "x").read_text() == "a"
    else:  # elsewhere it reports False and leaves both alone (swap_into_place renames)
        assert (a / "x").read_text() == "a" and (b / "x").read_text() == "b"
    assert os.path.isdir(a) and os.path.isdir(b)
