"""Incremental publishing keys a round's, a match's and a replay's pages by what
they show (issue 34): a result coming in re-renders its own match and round pages
and the pages that show standings, not every page of the event."""
from __future__ import annotations

import json

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
    import csv
    import io

    tourney("player", "add", *NAMES)
    tourney("event", "create", "cup", "--variant", "spardame", "--table-sizes", "4",
            "--rounds", "2", "--rule", "deals=2")
    tourney("event", "enter", "cup", "--all")
    tourney("round", "seat", "cup")
    first = tmp_path / "r1.csv"
    first.write_text(tourney("simulate", "--event", "cup", "--round", "1").stdout,
                     encoding="utf-8")
    tourney("result", "import", str(first))
    seating = tourney("round", "seat", "cup", "--json").json
    rows = list(csv.reader(io.StringIO(tourney("simulate", "--event", "cup", "--round", "2",
                                               "--seed", "2").stdout)))
    table = rows[0].index("table")
    for label in ("1", "2"):
        (tmp_path / f"t{label}.csv").write_text(
            "\n".join(",".join(f'"{c}"' for c in r) for r in
                      [rows[0]] + [r for r in rows[1:] if r[table] == label]) + "\n",
            encoding="utf-8")
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
