"""What `tourney publish` owns and how it republishes: leftovers of killed
publishes, folders and files it did not make, the database, mount points, a full
disk, workers that outlive their parent, and incremental publishing (unchanged
pages byte-identical and not rendered)."""
from __future__ import annotations

import errno
import fcntl
import json
import os
import random
import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest
from conftest import run_cli
from site_helpers import EVENTS, PLAYERS, EventSpec, build_league, play_rounds

from tourney.errors import UsageError
from tourney.reports import folders, site
from tourney.reports.folders import MANIFEST, SITE_MARKER, leftovers, prepare_target

CUP = EventSpec("cup", "spardame", "The cup", 1, {"deals": "1"}, "4", "2024-05-11", "en")


@pytest.fixture(scope="module")
def small(tmp_path_factory):
    """A league of two events (one played, one upcoming) on SQLite; its URL and folder."""
    work = tmp_path_factory.mktemp("owned")
    url = f"sqlite:///{work / 'league.db'}"
    build_league(run_cli, url, work, events=[CUP, EVENTS[-1]])
    return url, work


def files_of(folder: Path) -> dict[str, bytes]:
    return {p.relative_to(folder).as_posix(): p.read_bytes()
            for p in sorted(folder.rglob("*")) if p.is_file()}


def fake_leftover(parent: Path, name: str, marker: bool = True) -> Path:
    folder = parent / name
    (folder / "events").mkdir(parents=True)
    (folder / "events" / "index.html").write_text("old")
    if marker:
        (folder / SITE_MARKER).write_text("{}")
    return folder


# ------------------------------------------------------------------ folders beside the site

def test_only_folders_carrying_the_marker_are_removed(small, tmp_path):
    url, _ = small
    out = tmp_path / "site"
    killed_build = fake_leftover(tmp_path, ".site.publishing-abcd1234")
    killed_cleanup = fake_leftover(tmp_path, ".site.old-123-456")
    backup = fake_leftover(tmp_path, ".site.old-backup")  # a person's copy, marker and all
    unmarked = fake_leftover(tmp_path, ".site.publishing-zzzz9999", marker=False)
    other_site = fake_leftover(tmp_path, ".site2.old-1-2")
    running = fake_leftover(tmp_path, ".site.publishing-busy0000")
    lock = os.open(running / SITE_MARKER, os.O_RDONLY)
    fcntl.flock(lock, fcntl.LOCK_EX)  # a publish still building there
    try:
        assert sorted(leftovers(out)) == sorted([killed_build, killed_cleanup])
        result = run_cli(url, "publish", "--out", str(out), "--json")
    finally:
        os.close(lock)
    assert sorted(result.json["details"]["removed_leftovers"]) == sorted(
        [killed_build.name, killed_cleanup.name])
    assert _removed([killed_build, killed_cleanup])
    for kept in (backup, unmarked, other_site, running):
        assert (kept / "events" / "index.html").read_text() == "old", kept.name


def _zombie_or_gone(pid: int) -> bool:
    try:
        with open(f"/proc/{pid}/status", encoding="ascii") as stream:
            return any(line.startswith("State:") and "Z" in line.split()[1] for line in stream)
    except FileNotFoundError:
        return True


def _removed(paths, timeout: float = 60) -> bool:
    """Whether every one of ``paths`` is gone, waiting up to ``timeout`` s: the command
    line deletes what a killed publish left in a detached process (nobody waits for
    it), so a folder is gone once that process is done, however loaded the machine."""
    deadline = time.monotonic() + timeout
    while any(os.path.lexists(p) for p in paths):
        if time.monotonic() > deadline:
            return False
        time.sleep(0.05)
    return True


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="prctl is Linux's")
def test_killed_publish_leaves_no_workers_and_its_folder_is_removed_next_time(small, tmp_path):
    """The parent is killed while its two workers render (they wait on a pipe that
    the test holds); the workers die with it, and the next publish removes the
    build folder it left."""
    url, _ = small
    out = tmp_path / "site"
    pids = tmp_path / "pids"
    pids.mkdir()
    script = textwrap.dedent(f"""
        import os, sys
        from tourney.reports import site
        from tourney.storage.db import open_engine

        def stuck(self, share):
            open(os.path.join({str(pids)!r}, str(os.getpid())), "w").close()
            os.read(0, 1)  # until the test says so: never, the parent is killed first

        site.SiteBuilder._event_share = stuck
        site.publish(open_engine({url!r}), {str(out)!r}, jobs=2)
    """)
    events_before = [e for e in (CUP, EVENTS[-1])]
    assert len(events_before) == 2  # two events: one for each worker
    parent = subprocess.Popen([sys.executable, "-c", script], stdin=subprocess.PIPE)
    try:
        deadline = time.monotonic() + 60
        while len(list(pids.iterdir())) < 2 and time.monotonic() < deadline:
            assert parent.poll() is None, "the publish ended early"
            time.sleep(0.05)
        workers = [int(p.name) for p in pids.iterdir()]
        assert len(workers) == 2
        assert [p.name for p in tmp_path.iterdir() if ".publishing-" in p.name]
        parent.send_signal(signal.SIGKILL)
        parent.wait()
        deadline = time.monotonic() + 30
        while not all(_zombie_or_gone(w) for w in workers) and time.monotonic() < deadline:
            time.sleep(0.05)
        assert all(_zombie_or_gone(w) for w in workers)
    finally:
        if parent.poll() is None:
            parent.kill()
        parent.stdin.close()
    left = [p for p in tmp_path.iterdir() if p.name.startswith(".site.")]
    run_cli(url, "publish", "--out", str(out))
    assert _removed(left)
    assert [p.name for p in tmp_path.iterdir() if p.name.startswith(".site.")] == []
    assert (out / "index.html").is_file()


# ------------------------------------------------------------------ files inside the site

def test_files_publish_did_not_write_are_carried_or_refused(small, tmp_path):
    url, _ = small
    out = tmp_path / "site"
    run_cli(url, "publish", "--out", str(out))
    (out / "CNAME").write_text("dam.example.org\n")
    (out / ".htaccess").write_text("Options -Indexes\n")
    (out / "events" / "cup" / "invitation.pdf").write_bytes(b"%PDF-1.4")
    result = run_cli(url, "publish", "--out", str(out))
    assert "kept 3 files publish did not write" in result.stderr
    assert (out / "CNAME").read_text() == "dam.example.org\n"
    assert (out / ".htaccess").read_text() == "Options -Indexes\n"
    assert (out / "events" / "cup" / "invitation.pdf").read_bytes() == b"%PDF-1.4"
    # Kept again next time: carried files stay foreign, never adopted.
    run_cli(url, "publish", "--out", str(out))
    assert (out / "CNAME").is_file()

    # A foreign file where the new site puts a page: refused, named, nothing changed.
    before = files_of(out)
    (out / "events" / "cup" / "round-9.html").write_text("mine")  # not a page yet
    run_cli(url, "publish", "--out", str(out))
    manifest = json.loads((out / MANIFEST).read_text())
    del manifest["files"]["players/index.html"]  # as if a person had put it there
    (out / MANIFEST).write_text(json.dumps(manifest))
    result = run_cli(url, "publish", "--out", str(out), exit_code=1)
    assert "players/index.html" in result.stderr and "--force" in result.stderr
    assert "Traceback" not in result.stderr
    assert (out / "events" / "cup" / "round-9.html").read_text() == "mine"
    assert set(before) <= set(files_of(out))

    # --force drops every file publish did not write.
    result = run_cli(url, "publish", "--out", str(out), "--force", "--json")
    assert sorted(result.json["details"]["dropped"]) == sorted(
        [".htaccess", "CNAME", "events/cup/invitation.pdf", "events/cup/round-9.html",
         "players/index.html"])
    assert not (out / "CNAME").exists() and (out / "players" / "index.html").is_file()
    assert "mine" not in (out / "players" / "index.html").read_text()


def test_the_database_is_never_inside_the_site(tmp_path):
    site_dir = tmp_path / "site"
    site_dir.mkdir()
    db = site_dir / "tourney.db"
    url = f"sqlite:///{db}"
    run_cli(url, "player", "add", "Anna")
    result = run_cli(url, "publish", "--out", str(site_dir), exit_code=2)
    assert "tourney.db" in result.stderr and "inside the site folder" in result.stderr
    assert sorted(p.name for p in site_dir.iterdir() if not p.name.startswith("tourney.db")) \
        == []
    assert db.stat().st_size > 0


def test_a_mount_point_gets_a_clear_error(tmp_path, monkeypatch):
    mount = tmp_path / "mnt"
    mount.mkdir()
    monkeypatch.setattr(folders.os.path, "ismount", lambda path: Path(path) == mount)
    with pytest.raises(UsageError, match="mount point.*inside it"):
        prepare_target(mount)
    assert prepare_target(mount / "site") == mount / "site"


def test_a_full_disk_gives_one_line_and_keeps_the_old_site(small, tmp_path, monkeypatch):
    url, _ = small
    out = tmp_path / "site"
    run_cli(url, "publish", "--out", str(out))
    before = files_of(out)
    written = []
    real_write = site.write_file

    def filling(path, data):
        if len(written) >= 5:
            raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC), path)
        written.append(path)
        real_write(path, data)

    monkeypatch.setattr(site, "write_file", filling)
    result = run_cli(url, "publish", "--out", str(out), "--full", "--jobs", "1",
                     exit_code=1)
    assert result.stderr.strip().count("\n") == 0, result.stderr
    assert "no space left" in result.stderr and "unchanged" in result.stderr
    assert files_of(out) == before
    assert [p.name for p in tmp_path.iterdir() if p.name.startswith(".site.")] == []


# ------------------------------------------------------------------ incremental

def publish_and_compare(url: str, out: Path, full: Path) -> dict:
    """Publish incrementally into ``out`` and in full into ``full``: every file but
    the index (the publication time) and the bookkeeping is the same."""
    report = run_cli(url, "publish", "--out", str(out), "--lang", "en", "--lang", "sv",
                     "--json").json["details"]
    run_cli(url, "publish", "--out", str(full), "--lang", "en", "--lang", "sv", "--full")
    incremental, rebuilt = files_of(out), files_of(full)
    assert sorted(incremental) == sorted(rebuilt)
    for name in incremental:
        if name not in ("index.html", "sv/index.html", "data/index.json", SITE_MARKER, MANIFEST):
            assert incremental[name] == rebuilt[name], name
    return report


def test_unchanged_pages_are_reused_byte_for_byte_and_match_a_full_build(tmp_path):
    work = tmp_path
    url = f"sqlite:///{work / 'league.db'}"
    cup = EventSpec("cup", "spardame", "The cup", 2, {"deals": "1"}, "4", "2024-05-11", "en")
    other = EventSpec("other", "kortrad", "Other", 1, {"deals": "1"}, "4", "2024-04-01")
    build_league(run_cli, url, work, events=[cup, other])
    out = work / "site"
    first = run_cli(url, "publish", "--out", str(out), "--lang", "en", "--lang", "sv",
                    "--json").json["details"]
    assert first["rendered"] == first["pages"]
    old = files_of(out)
    # Nothing changed: only the index, the players' list and leaderboards are rendered.
    again = run_cli(url, "publish", "--out", str(out), "--lang", "en", "--lang", "sv",
                    "--json").json["details"]
    assert again["pages"] == first["pages"]
    # index + players list + 2 leaderboards in 2 languages, and the 4 site data files
    assert again["rendered"] <= 2 * (2 + 2) + 4
    now = files_of(out)
    changed = {name for name in now if now[name] != old.get(name)}
    assert changed <= {"index.html", "sv/index.html", "data/index.json", SITE_MARKER}, changed
    assert b"Published" not in now["players/index.html"]
    assert b"Published" in now["index.html"]

    # A player renamed: every page naming her changes, and only those. (Her events'
    # pages and their players' pages are rendered again: a player's key stands for
    # the names in the player's events. Here every player is in both events.)
    run_cli(url, "player", "rename", PLAYERS[0], "Anna Lindqvist-Berg")
    third = publish_and_compare(url, out, work / "full")
    assert 0 < third["rendered"] <= third["pages"]
    after = files_of(out)
    for name, data in old.items():
        if PLAYERS[0].encode() not in data and name not in (
                "index.html", "sv/index.html", SITE_MARKER, MANIFEST, "players/index.html",
                "sv/players/index.html", "data/index.json", "data/players.json"):
            assert after[name] == data, name

    # One more event played: its pages and its players' pages are new.
    late = EventSpec("late", "spardame", "Late", 1, {"deals": "1"}, "4", "2024-06-01")
    run_cli(url, "event", "create", "late", "--variant", "spardame", "--rounds", "1",
            "--rule", "deals=1", "--table-sizes", "4", "--date", "2024-06-01")
    run_cli(url, "event", "enter", "late", *PLAYERS[1:5])
    play_rounds(run_cli, url, work, late, random.Random(3))
    fourth = publish_and_compare(url, out, work / "full")
    other_pages = [n for n in after if n.startswith("events/other/")]
    assert other_pages and all(files_of(out)[n] == after[n] for n in other_pages)
    assert fourth["rendered"] < fourth["pages"] / 2


def test_files_publish_did_not_write_are_not_looked_for_again_in_an_untouched_site(
        tmp_path, monkeypatch):
    """A site whose folders are as the last publish left them holds the files that
    publish kept and no other: the next publish takes them from its marker instead of
    walking every file of the site (a big league's tens of thousands); a file added
    since is found by the walk."""
    from tourney.storage.db import open_engine

    url = f"sqlite:///{tmp_path / 'league.db'}"
    build_league(run_cli, url, tmp_path, events=[CUP])
    out = tmp_path / "site"
    run_cli(url, "publish", "--out", str(out))
    (out / "CNAME").write_text("dam.example.org\n")
    assert run_cli(url, "publish", "--out", str(out), "--json").json["details"]["kept"] == [
        "CNAME"]
    assert json.loads((out / SITE_MARKER).read_text())["foreign"] == ["CNAME"]

    walks = []
    walk = site.foreign_files
    monkeypatch.setattr(site, "foreign_files", lambda *a: walks.append(a) or walk(*a))
    run_cli(url, "player", "add", "Walter Newcomer")  # the site's content changes
    report = site.publish(open_engine(url), out)
    assert not report.unchanged and report.kept == ["CNAME"] and walks == []
    assert (out / "CNAME").read_text() == "dam.example.org\n"
    assert "Walter Newcomer" in (out / "players" / "index.html").read_text()

    (out / "events" / "notes.txt").write_text("mine")  # the folder's time changes
    run_cli(url, "player", "add", "Wilma Newcomer")
    report = site.publish(open_engine(url), out)
    assert len(walks) == 1 and report.kept == ["CNAME", "events/notes.txt"]
    assert json.loads((out / SITE_MARKER).read_text())["foreign"] == [
        "CNAME", "events/notes.txt"]
