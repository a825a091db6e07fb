"""Incremental publishing skips an event without reading its rows while its
content stamp (kept by triggers, migration 0005), its row and its players' names
are unchanged, and a player's page while the player's events, name and ratings are.
Every change that alters a page must render it again: after each change here the
incremental site must equal a full build, file for file, and the pages the change
shows on must have changed (a player renamed, merged or withdrawn, a result
corrected or reverted, ratings recomputed, the site's settings)."""
from __future__ import annotations

import json
import random
from pathlib import Path

import pytest
from conftest import run_cli
from site_helpers import PLAYERS, EventSpec, build_league
from sqlalchemy import select

from tourney.engines import get_game
from tourney.records.csv_format import write_records
from tourney.reports.folders import MANIFEST, SITE_MARKER
from tourney.simulation import simulate_match
from tourney.storage.db import open_engine
from tourney.storage.models import Player

A = EventSpec("ev-a", "spardame", "Event A", 1, {"deals": "1"}, "4", "2024-03-01",
              players=PLAYERS[:4])
B = EventSpec("ev-b", "spardame", "Event B", 1, {"deals": "1"}, "4", "2024-04-01",
              players=PLAYERS[4:])
C = EventSpec("ev-c", "spardame", "Event C", 2, {"deals": "1"}, "4", "2024-05-01",
              players=PLAYERS[::2] + ["Zed Late"])
STAMPED = {"index.html", "data/index.json", SITE_MARKER, MANIFEST}


def files_of(folder: Path) -> dict[str, bytes]:
    return {p.relative_to(folder).as_posix(): p.read_bytes()
            for p in sorted(folder.rglob("*")) if p.is_file()}


def republish(url: str, out: Path, work: Path) -> tuple[dict, dict[str, bytes]]:
    """Publish incrementally into ``out`` and in full beside it: the same files,
    byte for byte, but the publication time. The report and the files."""
    report = run_cli(url, "publish", "--out", str(out), "--json").json["details"]
    full = work / "full"
    run_cli(url, "publish", "--out", str(full), "--full")
    incremental, rebuilt = files_of(out), files_of(full)
    assert sorted(incremental) == sorted(rebuilt)
    for name in incremental:
        if name not in STAMPED:
            assert incremental[name] == rebuilt[name], f"{name} differs from a full build"
    return report, incremental


def changed(before: dict[str, bytes], after: dict[str, bytes]) -> set[str]:
    return {n for n in after if n not in STAMPED and after[n] != before.get(n)}


def player_id(url: str, name: str) -> int:
    engine = open_engine(url)
    with engine.connect() as connection:
        found = connection.execute(select(Player.id).where(Player.name == name)).scalar_one()
    engine.dispose()
    return found


def player_page(files: dict[str, bytes], url: str, name: str) -> str:
    return f"players/{player_id(url, name)}.html"


@pytest.fixture()
def league(tmp_path):
    url = f"sqlite:///{tmp_path / 'league.db'}"
    run_cli(url, "player", "add", "Zed Late")
    build_league(run_cli, url, tmp_path, events=[A, B])
    # C: round 1 played, round 2 not yet seated (a withdrawal is still possible)
    run_cli(url, "event", "create", C.slug, "--variant", C.variant, "--name", C.name,
            "--rounds", "2", "--rule", "deals=1", "--table-sizes", "4", "--date", C.date)
    run_cli(url, "event", "enter", C.slug, *C.players[:4])
    play_round(url, tmp_path, C, 1, random.Random(5))
    out = tmp_path / "site"
    first = run_cli(url, "publish", "--out", str(out), "--json").json["details"]
    assert first["rendered"] == first["pages"]
    return url, tmp_path, out


def play_round(url: str, work: Path, spec: EventSpec, number: int, rng: random.Random,
               replace: bool = False) -> None:
    game = get_game(spec.variant)
    options = game.resolve_options(spec.rules)
    if not replace:
        run_cli(url, "round", "seat", spec.slug)
    seating = run_cli(url, "round", "show", spec.slug, str(number), "--json").json
    records = []
    for table in seating["tables"]:
        records.extend(simulate_match(game, options, table["seats"], rng, event=spec.slug,
                                      round_number=number, table=table["table"]))
    path = work / f"{spec.slug}-r{number}-{rng.random():.6f}.csv"
    with open(path, "w", encoding="utf-8", newline="") as stream:
        write_records(stream, records, game_for=lambda record: game)
    run_cli(url, "result", "import", str(path), "--event", spec.slug,
            *(["--replace", "--yes"] if replace else []))


def event_pages(files, slug: str) -> set[str]:
    return {n for n in files if n.startswith(f"events/{slug}/")}


def test_nothing_changed_reads_no_event_and_renders_no_event_page(league):
    url, work, out = league
    before = files_of(out)
    report, after = republish(url, out, work)
    assert changed(before, after) == set()
    manifest = json.loads(after[MANIFEST])
    assert all(isinstance(r["players"], list) for r in manifest["events"].values())
    # only the index, the players' list, the leaderboard and the open data index
    assert report["rendered"] <= 6


def test_a_rename_renders_the_players_pages_in_an_event_left_untouched(league):
    url, work, out = league
    before = files_of(out)
    name = PLAYERS[5]  # in event B only
    page = player_page(before, url, name)
    run_cli(url, "player", "rename", name, "Frida Sandberg")
    report, after = republish(url, out, work)
    diff = changed(before, after)
    assert page in diff and b"Frida Sandberg" in after[page]
    assert event_pages(after, "ev-b") & diff  # her event's pages name her
    # her opponents' pages name her too
    for other in PLAYERS[4:]:
        if other != name:
            assert player_page(after, url, other) in diff
    assert not event_pages(after, "ev-a") & diff
    assert report["rendered"] < report["pages"]


def test_a_merge_renders_the_pages_of_both_players_and_their_events(league):
    url, work, out = league
    run_cli(url, "player", "add", "Eva Nystrom")
    run_cli(url, "event", "enter", "ev-c", "Eva Nystrom")
    before = republish(url, out, work)[1]
    run_cli(url, "player", "merge", PLAYERS[4], "Eva Nystrom", "--yes")
    _, after = republish(url, out, work)
    diff = changed(before, after)
    assert player_page(after, url, "Eva Nystrom") in diff  # now a pointer
    assert player_page(after, url, PLAYERS[4]) in diff
    assert "events/ev-c/index.html" in diff


def test_a_withdrawal_renders_the_event(league):
    url, work, out = league
    before = files_of(out)
    run_cli(url, "event", "withdraw", "ev-c", PLAYERS[2])
    _, after = republish(url, out, work)
    assert "events/ev-c/index.html" in changed(before, after)


def test_a_corrected_result_and_its_revert_render_the_match_and_players(league):
    url, work, out = league
    before = files_of(out)
    play_round(url, work, A, 1, random.Random(99), replace=True)
    _, corrected = republish(url, out, work)
    diff = changed(before, corrected)
    assert "events/ev-a/index.html" in diff
    assert any(n.startswith("events/ev-a/match-") for n in diff)
    assert not event_pages(corrected, "ev-b") & diff
    table = run_cli(url, "round", "show", "ev-a", "1", "--json").json["tables"][0]["table"]
    run_cli(url, "result", "revert", "ev-a", "1", str(table), "1", "--yes")
    _, reverted = republish(url, out, work)
    assert changed(corrected, reverted) & event_pages(reverted, "ev-a")
    # back to the first version: the event's pages are those of the first publish
    for name in event_pages(before, "ev-a"):
        assert reverted[name] == before[name], name


def test_ratings_recomputed_render_the_players_pages(league):
    url, work, out = league
    before = files_of(out)
    run_cli(url, "rating", "pool", "spardame", "--param", "beta=2", "--yes")
    _, after = republish(url, out, work)
    diff = changed(before, after)
    assert player_page(after, url, PLAYERS[0]) in diff


def test_site_settings_render_every_page(league):
    url, work, out = league
    before = files_of(out)
    run_cli(url, "site", "set", "title", "Göteborgs Damklubb")
    report, after = republish(url, out, work)
    assert report["rendered"] == report["pages"]
    assert "events/ev-b/index.html" in changed(before, after)
