"""A publish into a site it published before updates that site where it is (issue 34):
the changed files renamed into place, the pages a page links to before it, the
files removed and the manifest last. A publish killed on the way leaves a site whose
links resolve, and the next publish finishes it: the same bytes as a full publish."""
from __future__ import annotations

import csv
import io
import json
import re
import shutil
import signal
import subprocess
import sys
import textwrap
from contextlib import ExitStack
from pathlib import Path

from site_helpers import seat_round_two

from tourney.reports.folders import MANIFEST, SITE_MARKER

NAMES = [f"Player {c}" for c in "ABCDEFGHIJKL"]
# what says when the site was published (and the bookkeeping): differs between publishes
PUBLICATION = {"index.html", "sv/index.html", "data/index.json", SITE_MARKER, MANIFEST}


def files_of(folder: Path) -> dict[str, bytes]:
    return {p.relative_to(folder).as_posix(): p.read_bytes()
            for p in sorted(folder.rglob("*")) if p.is_file()}


LINK = re.compile(r'(?:href|src)="([^"]*)"')


def broken_links(site: Path) -> list[str]:
    """Every link of every page reachable from the index pages (of each language) to
    a file of the site that is not there, as "page -> link"."""
    todo = [site / "index.html", site / "sv" / "index.html"]
    seen: set[Path] = set()
    broken = []
    while todo:
        page = todo.pop()
        if page in seen:
            continue
        seen.add(page)
        for link in LINK.findall(page.read_text(encoding="utf-8")):
            link = link.split("#")[0].split("?")[0]
            if not link or ":" in link or link.startswith("/"):
                continue  # within the page, another site, mail
            target = (page.parent / link).resolve()
            if not target.is_file():
                broken.append(f"{page.relative_to(site)} -> {link}")
            elif target.suffix == ".html":
                todo.append(target)
    return broken


def cup_in_round_two(tourney, tmp_path) -> list[Path]:
    """Three tables of four, round 1 played, round 2 seated; the records of round 2's
    tables, one file each."""
    seat_round_two(tourney, tmp_path, NAMES)
    rows = list(csv.reader(io.StringIO(tourney("simulate", "--event", "cup", "--round", "2",
                                               "--seed", "2").stdout)))
    table = rows[0].index("table")
    paths = []
    for label in sorted({r[table] for r in rows[1:]}):
        path = tmp_path / f"t{label}.csv"
        with open(path, "w", newline="", encoding="utf-8") as stream:
            csv.writer(stream).writerows([rows[0]] + [r for r in rows[1:] if r[table] == label])
        paths.append(path)
    return paths


def killed_publish(db_url: str, out: Path, after: int) -> subprocess.CompletedProcess:
    """``tourney publish`` into ``out``, killed (SIGKILL: no clean-up runs) as it is
    about to put its file number ``after`` + 1 into the site."""
    script = textwrap.dedent(f"""
        import os, signal
        from tourney.reports import site
        from tourney.storage.db import open_engine

        real, placed = site.place_file, []

        def dying(staged, live):
            if len(placed) == {after}:
                os.kill(os.getpid(), signal.SIGKILL)
            placed.append(live)
            real(staged, live)

        site.place_file = dying
        site.publish(open_engine({db_url!r}), {str(out)!r}, jobs=1)
    """)
    return subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                          timeout=300)


def test_a_publish_killed_while_writing_leaves_links_that_resolve_and_the_next_finishes(
        tourney, db_url, tmp_path):
    tables = cup_in_round_two(tourney, tmp_path)
    site = tmp_path / "site"
    tourney("publish", "--out", str(site), "--lang", "en", "--lang", "sv")
    before = tmp_path / "before"
    shutil.copytree(site, before)
    tourney("result", "import", str(tables[0]))

    # an uninterrupted publish, in place: how many files it writes
    whole = tourney("publish", "--out", str(site), "--json").json["details"]
    assert not whole["new_site"] and whole["rendered"] < whole["pages"] / 2
    written = whole["changed_files"] + len(whole["stamp_only"])
    assert written >= 8  # the match, the round, 4 players (2 languages), index, data
    assert broken_links(site) == []
    full = tmp_path / "full"
    tourney("publish", "--out", str(full), "--full", "--lang", "en", "--lang", "sv")
    clean = files_of(full)

    for after in (1, written // 2, written - 1):
        out = tmp_path / f"killed-{after}"
        shutil.copytree(before, out)
        run = killed_publish(db_url, out, after)
        assert run.returncode == -signal.SIGKILL, run.stderr
        halfway = files_of(out)
        assert halfway != files_of(before)  # some files are new ...
        assert halfway != files_of(site)  # ... and some not yet
        assert broken_links(out) == [], after
        # the manifest is whole (the one written before the files, listing them)
        assert isinstance(json.loads(halfway[MANIFEST])["files"], dict)

        again = tourney("publish", "--out", str(out), "--json").json["details"]
        assert not again["new_site"] and again["rendered"] < again["pages"] / 2
        now = files_of(out)
        assert sorted(now) == sorted(clean), after
        assert [n for n in now if n not in PUBLICATION and now[n] != clean[n]] == [], after
        assert broken_links(out) == []
        # and the killed publish's build folder (beside the site) is gone
        assert not [p for p in tmp_path.iterdir() if p.name.startswith(f".{out.name}.")]


def test_a_result_writes_only_its_files_into_the_live_site_and_keeps_the_rest(
        tourney, db_url, tmp_path):
    """The pages a result leaves as they were stay the very files they were (same
    inode, not linked into a new tree); the ones it changes are replaced whole (a
    new inode: a reader never sees part of a page); the site folder stays the same."""
    tables = cup_in_round_two(tourney, tmp_path)
    site = tmp_path / "site"
    tourney("publish", "--out", str(site), "--lang", "en", "--lang", "sv")
    folder = site.stat().st_ino
    inodes = {rel: (site / rel).stat().st_ino for rel in files_of(site)}
    old = files_of(site)
    tourney("result", "import", str(tables[1]))
    # the old files held open, so that a file replaced (or the manifest, replaced
    # twice) cannot be given the inode number of one freed meanwhile
    with ExitStack() as held:
        for rel in old:
            held.enter_context(open(site / rel, "rb"))
        details = tourney("publish", "--out", str(site), "--json").json["details"]
        now = files_of(site)
        inodes_now = {rel: (site / rel).stat().st_ino for rel in now}
    assert site.stat().st_ino == folder  # not swapped for another folder
    changed = {rel for rel in now if now[rel] != old.get(rel)}
    assert "events/cup/round-2.html" in changed and "sv/events/cup/round-2.html" in changed
    for rel in now:
        if rel in changed:
            assert inodes_now[rel] != inodes.get(rel), rel
        else:
            assert inodes_now[rel] == inodes[rel], rel
    assert details["changed_files"] == len(changed - {SITE_MARKER, MANIFEST}) - len(
        details["stamp_only"])
    # no build folder or temporary file is left beside or in the site
    assert [p.name for p in tmp_path.iterdir() if p.name.startswith(".site.")] == []
    assert not [rel for rel in now if rel.endswith(".tmp")]

    # the round's last results: a page removed from the site meanwhile comes back
    (site / "events" / "cup" / "round-1.html").unlink()
    for path in tables[2:]:
        tourney("result", "import", str(path))
    tourney("publish", "--out", str(site))
    full = tmp_path / "full"
    tourney("publish", "--out", str(full), "--full", "--lang", "en", "--lang", "sv")
    assert sorted(files_of(site)) == sorted(files_of(full))
    assert (site / "events" / "cup" / "round-1.html").is_file()


def test_pages_are_put_in_place_after_the_pages_they_link_to(tmp_path):
    """The order :func:`write_in_place` puts files into the site: styles and open data
    first, then replays, matches, players' pages, a round's pages of tables, rounds,
    event pages, the lists and the index last (in every language)."""
    from tourney.reports.site import PublishReport, SiteBuilder

    builder = SiteBuilder(tmp_path, None, [], ["en", "sv"], None,
                          PublishReport(tmp_path, ["en", "sv"]))
    paths = ["index.html", "data/index.json", "sv/players/index.html", "ratings/spardame.html",
             "events/cup/index.html", "events/cup/feed.atom", "sv/events/cup/round-2.html",
             "events/cup/round-2-sheets.html", "events/cup/screen.html",
             "events/cup/round-2-part-3.html", "players/12.html", "sv/players/12.html",
             "events/cup/match-7.html", "sv/events/cup/match-7-deal-1.html",
             "events/cup/matches-2.json", "events/cup/standings.json", "static/site.css"]
    order = [builder.placing_order(p)[0] for p in paths]
    assert order == [9, 9, 8, 8, 7, 7, 6, 6, 6, 5, 4, 4, 3, 2, 1, 1, 0]
