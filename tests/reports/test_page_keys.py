"""Incremental publishing keys a round's, a match's and a replay's pages by what
they show (issue 34): a result coming in re-renders its own match and round pages
and the pages that show standings, not every page of the event."""
from __future__ import annotations

import json

from site_helpers import seat_round_two

NAMES = [f"Player {c}" for c in "ABCDEFGH"]


def test_a_new_result_renders_its_own_pages_not_the_events_others(tourney, tmp_path):
    tourney("player", "add", *NAMES)
    tourney("event", "create", "cup", "--variant", "spardame", "--table-sizes", "4",
            "--rounds", "2", "--rule", "deals=2")
    tourney("event", "enter", "cup", "--all")
    for number in (1, 2):
        tourney("round", "seat", "cup")
        records = tmp_path / f"r{number}.csv"
        records.write_text(tourney("simulate", "--event", "cup", "--round", str(number),
                                   "--seed", str(number)).stdout, encoding="utf-8")
        if number == 1:
            tourney("result", "import", str(records))
    site = tmp_path / "site"
    tourney("publish", "--out", str(site), "--event", "cup", "--lang", "en", "--lang", "sv")
    event = site / "events" / "cup"
    replays = sorted(event.glob("match-*-deal-*.html"))
    round_one = sorted(set(event.glob("match-*.html")) - set(replays)) + [event / "round-1.html"]
    assert len(round_one) == 3 and replays
    before = {path: path.stat().st_ino for path in [*round_one, *replays]}

    # round 2's two results come in
    tourney("result", "import", str(tmp_path / "r2.csv"))
    details = tourney("publish", "--out", str(site), "--json").json["details"]
    for path, inode in before.items():
        assert path.stat().st_ino == inode, path  # linked from the old site, not rendered
    new_matches = set(event.glob("match-*.html")) - set(round_one) - set(replays)
    assert len([p for p in new_matches if "-deal-" not in p.name]) == 2
    assert details["rendered"] < details["pages"]
    # and the manifest keeps each page's own key across a publish that reuses the event
    tourney("publish", "--out", str(site))
    manifest = json.loads((site / ".tourney-files").read_text(encoding="utf-8"))
    keys = manifest["files"]
    assert all(keys[f"events/cup/{p.name}"] for p in round_one)


def test_a_players_page_changes_with_their_own_result_until_the_round_is_complete(
        tourney, tmp_path):
    """A player's page shows their place after the last round with every result in:
    a result of a round being played re-renders the pages of its own players only;
    the round's last result, every player's page once."""
    assert _cup_in_round_two(tourney, tmp_path) == ["1", "2"]
    seating = tourney("round", "show", "cup", "2", "--json").json
    site = tmp_path / "site"
    tourney("publish", "--out", str(site), "--lang", "en")
    listed = json.loads((site / "data" / "players.json").read_text(encoding="utf-8"))
    page = {p["name"]: site / p["page"] for p in listed["players"]}
    inode = {name: path.stat().st_ino for name, path in page.items()}

    tourney("result", "import", str(tmp_path / "t1.csv"))  # one of round 2's two tables
    tourney("publish", "--out", str(site))
    at_table_one = set(next(t["seats"] for t in seating["tables"] if t["table"] == "1"))
    for name in NAMES:
        changed = page[name].stat().st_ino != inode[name]
        assert changed == (name in at_table_one), name
    text = page[sorted(at_table_one)[0]].read_text(encoding="utf-8")
    assert "after round 1" in text  # the place shown is after the last complete round

    inode = {name: path.stat().st_ino for name, path in page.items()}
    tourney("result", "import", str(tmp_path / "t2.csv"))  # the round is complete
    tourney("publish", "--out", str(site))
    assert all(page[name].stat().st_ino != inode[name] for name in NAMES)
    assert "after round" not in page[NAMES[0]].read_text(encoding="utf-8")


def _cup_in_round_two(tourney, tmp_path) -> list[str]:
    """An event of eight at tables of four, round 1 played, round 2 seated; the
    records of round 2's two tables in t1.csv and t2.csv. Round 2's tables' labels."""
    import csv
    import io

    seat_round_two(tourney, tmp_path, NAMES)
    rows = list(csv.reader(io.StringIO(tourney("simulate", "--event", "cup", "--round", "2",
                                               "--seed", "2").stdout)))
    table = rows[0].index("table")
    labels = sorted({r[table] for r in rows[1:]})
    for n, label in enumerate(labels, 1):
        with open(tmp_path / f"t{n}.csv", "w", newline="", encoding="utf-8") as stream:
            csv.writer(stream).writerows([rows[0]] + [r for r in rows[1:] if r[table] == label])
    return labels


def test_a_result_mid_round_leaves_the_standings_outputs_as_they_were(tourney, tmp_path):
    """The event's page, its venue screen and standings.json show the standings after
    the last complete round: a result of the round being played leaves them
    byte-identical (linked from the old site) and changes the round's page, the
    match's page and the round's matches file; the round's last result changes the
    standings everywhere."""
    assert len(_cup_in_round_two(tourney, tmp_path)) == 2
    site = tmp_path / "site"
    tourney("publish", "--out", str(site), "--lang", "en", "--lang", "sv")
    event = site / "events" / "cup"
    standings_outputs = [event / "index.html", site / "sv" / "events" / "cup" / "index.html",
                         event / "screen.html", event / "standings.json", event / "rounds.json",
                         event / "event.json", event / "matches-1.json"]
    live = [event / "round-2.html", event / "matches-2.json"]
    before = {path: (path.stat().st_ino, path.read_bytes()) for path in standings_outputs + live}
    matches_before = set(event.glob("match-*.html"))
    standings = json.loads((event / "standings.json").read_text(encoding="utf-8"))
    assert standings["after_round"] == 1
    assert "after round 1" in (event / "index.html").read_text(encoding="utf-8")
    assert "efter rond 1" in (site / "sv" / "events" / "cup" / "screen.html").read_text(
        encoding="utf-8")

    tourney("result", "import", str(tmp_path / "t1.csv"))
    details = tourney("publish", "--out", str(site), "--json").json["details"]
    for path in standings_outputs:
        assert (path.stat().st_ino, path.read_bytes()) == before[path], path
    for path in live:
        assert path.read_bytes() != before[path][1], path
    new_match = {p for p in set(event.glob("match-*.html")) - matches_before
                 if "-deal-" not in p.name}
    assert len(new_match) == 1
    round_two = json.loads((event / "matches-2.json").read_text(encoding="utf-8"))
    assert [m["match"] for m in round_two["matches"]] == [
        int(new_match.pop().stem.removeprefix("match-"))]
    # the match's pages and replays, the round's page, the round's matches file, the
    # feed, its four players' pages and the site-wide lists, in two languages: not the
    # event's pages
    assert details["rendered"] < details["pages"] / 2, details

    tourney("result", "import", str(tmp_path / "t2.csv"))  # the round is complete
    tourney("publish", "--out", str(site))
    standings = json.loads((event / "standings.json").read_text(encoding="utf-8"))
    assert standings["after_round"] is None
    cli = tourney("standings", "cup", "--json").json
    rows = cli["standings"] if isinstance(cli, dict) else cli
    assert [(r["name"], r["points"]) for r in standings["standings"]] == [
        (r["player"], r["points"]) for r in rows]
    for path in (event / "index.html", event / "screen.html", event / "standings.json"):
        assert path.read_bytes() != before[path][1], path
    assert "after round" not in (event / "index.html").read_text(encoding="utf-8")


def test_a_publish_with_nothing_changed_reads_and_renders_nothing(tourney, tmp_path,
                                                                  monkeypatch):
    """The site's marker keeps one stamp of everything the site shows: a publish
    that finds it equal renders no page and reads no event's rows nor the manifest;
    a change anywhere (a player's name) publishes again."""
    from tourney.reports import site as site_module
    from tourney.reports.data import SiteReader

    _cup_in_round_two(tourney, tmp_path)
    site = tmp_path / "site"
    published = tourney("publish", "--out", str(site), "--lang", "en", "--lang", "sv",
                        "--json").json["details"]
    files = {p: p.stat().st_ino for p in site.rglob("*") if p.is_file()}

    def refuse(*args, **kwargs):
        raise AssertionError("read on a publish with nothing changed")

    with monkeypatch.context() as patched:
        for name in ("event_data", "events", "players", "pools", "deals"):
            patched.setattr(SiteReader, name, refuse)
        patched.setattr(site_module, "read_manifest", refuse)
        first = tourney("publish", "--out", str(site), "--json").json["details"]
        second = tourney("publish", "--out", str(site), "--lang", "en", "--lang", "sv",
                         "--json").json["details"]
    for details in (first, second):
        assert details["unchanged"] and details["rendered"] == 0
        assert details["changed_files"] == 0
        assert (details["pages"], details["events"], details["players"], details["matches"]) \
            == (published["pages"], published["events"], published["players"],
                published["matches"])
    assert {p: p.stat().st_ino for p in site.rglob("*") if p.is_file()} == files

    # a file put in the site folder: published again (and kept)
    (site / "events" / "cup" / "invitation.pdf").write_bytes(b"%PDF-1.4")
    details = tourney("publish", "--out", str(site), "--json").json["details"]
    assert not details["unchanged"] and details["kept"] == ["events/cup/invitation.pdf"]
    assert tourney("publish", "--out", str(site), "--json").json["details"]["unchanged"]
    # another language, replays left out or one change in the database: published again
    for args in (["--lang", "en"], ["--no-replays"]):
        details = tourney("publish", "--out", str(site), *args, "--json").json["details"]
        assert not details["unchanged"], args
    tourney("player", "rename", NAMES[0], "Player Z")
    details = tourney("publish", "--out", str(site), "--json").json["details"]
    assert not details["unchanged"] and details["rendered"] > 0
    assert "Player Z" in (site / "events" / "cup" / "index.html").read_text(encoding="utf-8")
