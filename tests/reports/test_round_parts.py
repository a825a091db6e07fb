"""A big round's tables on pages of their own, and the site-wide lists after the last
complete round (issue 34): one result of a round being played rewrites the part of
the round holding its table, its match and replays, its four players' pages and the
files that say when the site was published; not the round's page, its other parts,
the players' list, the leaderboard or the open data of ratings and players."""
from __future__ import annotations

import csv
import io
import json
import re
from pathlib import Path

import pytest
from site_helpers import seat_round_two

NAMES = [f"Player {i:02d}" for i in range(1, 25)]  # six tables of four
PART_TABLES = 2  # tables on a page of a big round, for these tests (the site's is 100)


@pytest.fixture
def small_parts(monkeypatch):
    from tourney.reports import site as site_module

    monkeypatch.setattr(site_module, "ROUND_PART_TABLES", PART_TABLES)


def _cup_in_round_two(tourney, tmp_path: Path) -> dict:
    """24 players at tables of four, round 1 played, round 2 seated; round 2's records
    per table in t<label>.csv (and other records of the same in other-t<label>.csv).
    Round 2's seating (``round show --json``)."""
    seat_round_two(tourney, tmp_path, NAMES)
    for prefix, seed in (("t", "2"), ("other-t", "9")):  # the results, and others
        rows = list(csv.reader(io.StringIO(tourney(
            "simulate", "--event", "cup", "--round", "2", "--seed", seed).stdout)))
        table = rows[0].index("table")
        for label in {r[table] for r in rows[1:]}:
            with open(tmp_path / f"{prefix}{label}.csv", "w", newline="",
                      encoding="utf-8") as stream:
                csv.writer(stream).writerows(
                    [rows[0]] + [r for r in rows[1:] if r[table] == label])
    return tourney("round", "show", "cup", "2", "--json").json


def _files(site: Path) -> dict[str, int]:
    return {p.relative_to(site).as_posix(): p.stat().st_ino
            for p in site.rglob("*") if p.is_file()}


def _part_of(site: Path, label: str) -> str:
    """The page of round 2's tables that holds table ``label``."""
    found = [p.name for p in (site / "events" / "cup").glob("round-2-part-*.html")
             if f'aria-label="Table {label}"' in p.read_text(encoding="utf-8")]
    assert len(found) == 1, found
    return found[0]


def test_one_result_in_a_big_round_rewrites_its_part_and_its_own_pages_only(
        tourney, tmp_path, small_parts):
    seating = _cup_in_round_two(tourney, tmp_path)
    site = tmp_path / "site"
    tourney("publish", "--out", str(site), "--lang", "en", "--lang", "sv")
    ids = {p["name"]: p["id"] for p in json.loads(
        (site / "data" / "players.json").read_text(encoding="utf-8"))["players"]}
    before = _files(site)

    table = seating["tables"][2]  # the second part's first table
    tourney("result", "import", str(tmp_path / f"t{table['table']}.csv"))
    details = tourney("publish", "--out", str(site), "--json").json["details"]
    after = _files(site)
    written = {rel for rel, inode in after.items() if before.get(rel) != inode}
    match = [rel for rel in written if re.fullmatch(r"events/cup/match-\d+\.html", rel)]
    assert len(match) == 1, written
    stem = match[0].removesuffix(".html")
    part = _part_of(site, table["table"])
    assert part == "round-2-part-2.html"
    own = {f"events/cup/{part}", match[0],
           *(rel for rel in after if rel.startswith(stem + "-deal-")),
           *(f"players/{ids[name]}.html" for name in table["seats"]), "index.html"}
    expected = ({prefix + rel for rel in own for prefix in ("", "sv/")}
                | {"events/cup/matches-2.json", "events/cup/feed.atom"})
    # data/index.json changes by its publication time alone: a file rendered with the
    # bytes it has is left in place, so within the same second it is not rewritten
    always = {rel for rel in written if rel.startswith(("static/", "sv/static/"))
              or rel in (".tourney-files", ".tourney-site", "data/index.json")}
    assert written - always == expected
    assert any("-deal-" in rel for rel in expected)
    # not rewritten: the round's page, its other parts, the lists and their open data
    for rel in ("events/cup/round-2.html", "events/cup/round-2-part-1.html",
                "events/cup/round-2-part-3.html", "players/index.html",
                "sv/players/index.html", "ratings/spardame.html", "data/players.json",
                "data/ratings/spardame.json", "events/cup/index.html",
                "events/cup/standings.json"):
        assert after[rel] == before[rel], rel
    # every one of them rendered, no other (data/index.json always is)
    assert details["rendered"] == len(expected) + 1


def test_a_big_rounds_pages_list_every_table_once_with_working_links(
        tourney, tmp_path, small_parts):
    seating = _cup_in_round_two(tourney, tmp_path)
    site = tmp_path / "site"
    tourney("publish", "--out", str(site), "--lang", "en")
    event = site / "events" / "cup"
    index = (event / "round-2.html").read_text(encoding="utf-8")
    parts = re.findall(r'href="\.\./\.\./events/cup/(round-2-part-\d+\.html)"', index)
    assert parts == [f"round-2-part-{k}.html" for k in (1, 2, 3)]
    assert "table-card" not in index  # the tables are on the parts
    listed = []
    for name in parts:
        text = (event / name).read_text(encoding="utf-8")
        listed += re.findall(r'<h3>Table ([^<]+)</h3>', text)
        assert 'href="../../events/cup/round-2.html"' in text  # back to the round
        assert text.count('aria-current="page"') == 2  # the crumb and the parts' list
    assert sorted(listed) == sorted(t["table"] for t in seating["tables"])
    assert len(listed) == len(set(listed)) == 6
    # every seat by name links to its table on its part
    ids = {p["name"]: p["id"] for p in json.loads(
        (site / "data" / "players.json").read_text(encoding="utf-8"))["players"]}
    rows = re.findall(r'<td><a href="\.\./\.\./players/(\d+)\.html"><bdi>[^<]*</bdi></a></td>\s*'
                      r'<td class="num"><a href="\.\./\.\./events/cup/([^"#]+)#(t\d+)">([^<]+)</a>',
                      index)
    assert len(rows) == len(NAMES)
    table_of = {ids[name]: t["table"] for t in seating["tables"] for name in t["seats"]}
    for pid, page, anchor, label in rows:
        assert table_of[int(pid)] == label
        text = (event / page).read_text(encoding="utf-8")
        card = text[text.index(f'id="{anchor}"'):]
        card = card[:card.index("</section>")]
        assert f'aria-label="Table {label}"' in card
        assert f"players/{pid}.html" in card


def test_a_small_round_stays_one_page(tourney, tmp_path):
    _cup_in_round_two(tourney, tmp_path)
    site = tmp_path / "site"
    tourney("publish", "--out", str(site), "--lang", "en")
    event = site / "events" / "cup"
    assert not list(event.glob("round-*-part-*.html"))
    text = (event / "round-2.html").read_text(encoding="utf-8")
    assert text.count('class="table-card"') == 6
    assert "Results in: 0 of 6." in text


def test_the_lists_show_the_ratings_and_matches_after_the_last_complete_round(
        tourney, tmp_path):
    seating = _cup_in_round_two(tourney, tmp_path)
    after_one = {r["player"]: (round(r["mu"], 6), round(r["sigma"], 6), r["matches"])
                 for r in tourney("rating", "show", "--variant", "spardame", "--json").json}
    site = tmp_path / "site"
    tourney("publish", "--out", str(site), "--lang", "en")

    def listed() -> tuple[dict, list, list[str], str]:
        data = json.loads((site / "data" / "ratings" / "spardame.json").read_text(
            encoding="utf-8"))
        board = {r["name"]: (r["mu"], r["sigma"], r["matches"])
                 for r in data["leaderboard"] + data["provisional"]}
        players = (site / "players" / "index.html").read_text(encoding="utf-8")
        matches = re.findall(r'<td class="num" data-label="Matches">(\d+)</td>', players)
        return board, data["not_counted"], matches, \
            (site / "ratings" / "spardame.html").read_text(encoding="utf-8")

    board, not_counted, matches, page = listed()
    assert board == after_one and not_counted == [{"event": "cup", "round": 2}]
    assert matches == ["1"] * len(NAMES)
    assert "Not counted yet:" in page and "round 2" in page

    for table in seating["tables"][:3]:  # half the round's results in
        tourney("result", "import", str(tmp_path / f"t{table['table']}.csv"))
    tourney("publish", "--out", str(site))
    now = {r["player"]: (round(r["mu"], 6), round(r["sigma"], 6), r["matches"])
           for r in tourney("rating", "show", "--variant", "spardame", "--json").json}
    assert now != after_one  # the ratings moved; the lists show them after round 1
    board, not_counted, matches, page = listed()
    assert board == after_one and not_counted == [{"event": "cup", "round": 2}]
    assert matches == ["1"] * len(NAMES)

    for table in seating["tables"][3:]:  # the round complete: the lists catch up
        tourney("result", "import", str(tmp_path / f"t{table['table']}.csv"))
    tourney("publish", "--out", str(site))
    now = {r["player"]: (round(r["mu"], 6), round(r["sigma"], 6), r["matches"])
           for r in tourney("rating", "show", "--variant", "spardame", "--json").json}
    board, not_counted, matches, page = listed()
    assert board == now and not_counted == []
    assert matches == ["2"] * len(NAMES)
    assert "Not counted yet:" not in page


def test_one_result_works_out_the_keys_of_its_own_players_pages_only(
        tourney, tmp_path, monkeypatch):
    """A publish after one result finds the players whose page may have changed (rated
    since the last publish, their rows in an event read again) without working out
    every player's key; a correction (its matches rated again) works out them all."""
    from tourney.reports import site as site_module

    seating = _cup_in_round_two(tourney, tmp_path)
    site = tmp_path / "site"
    tourney("publish", "--out", str(site), "--lang", "en")
    keyed: list[int] = []
    own_key = site_module.SiteBuilder._player_key

    def counting(self, player_id, context):
        keyed.append(player_id)
        return own_key(self, player_id, context)

    monkeypatch.setattr(site_module.SiteBuilder, "_player_key", counting)
    ids = {p["name"]: p["id"] for p in json.loads(
        (site / "data" / "players.json").read_text(encoding="utf-8"))["players"]}
    table = seating["tables"][0]
    tourney("result", "import", str(tmp_path / f"t{table['table']}.csv"))
    tourney("publish", "--out", str(site))
    assert sorted(keyed) == sorted(ids[name] for name in table["seats"])

    keyed.clear()
    tourney("publish", "--out", str(site))
    assert keyed == []  # nothing changed: no key at all

    # the same table's result corrected: its matches rated again, every key worked out
    corrected = tmp_path / f"other-t{table['table']}.csv"
    replaced = tourney("result", "import", str(corrected), "--replace", "--json").json
    assert replaced["details"]["replaced"] == 1, replaced
    tourney("publish", "--out", str(site))
    assert sorted(keyed) == sorted(ids.values())
