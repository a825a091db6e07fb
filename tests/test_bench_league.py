"""bench/bench_league.py builds a league's small events by the library in process,
one transaction a step for all events; what it stores must be what the commands it
replaced stored (``event create``, ``event enter``, ``round seat`` and ``simulate
--event --round`` an event, each round's records imported by one ``result import``):
the league the measured commands see keeps its shape."""
from __future__ import annotations

import datetime as dt
import sqlite3
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "bench"))

import bench_league  # noqa: E402

from tourney.storage.db import dispose_engines  # noqa: E402

PLAYERS = 150  # three events of 100, each player in two
# Written by the clock, not by the build.
TIMES = ("_at", "stamp", "time")
DRAWN = ("token", "code")  # a table link's, drawn at random


def _league(folder: Path) -> bench_league.League:
    folder.mkdir()
    league = bench_league.League(str(folder), "league.db")
    league.write("players.csv", "name,club\n" + "".join(
        f"{bench_league.player_name(i)},Club {i % 50}\n" for i in range(PLAYERS)))
    league.run("player", "import", "players.csv")
    return league


def _by_commands(league: bench_league.League, n: int) -> None:
    """The build as it was: a command an event and step, run in this process."""
    events = [f"club-{e:04d}" for e in range(max(1, n // 50))]
    for e, slug in enumerate(events):
        league.run("event", "create", slug, *bench_league.RULES,
                   "--date", (bench_league.FIRST_DAY + dt.timedelta(days=e)).isoformat())
        league.run("event", "enter", slug, *(bench_league.player_name((e * 50 + i) % n)
                                             for i in range(bench_league.SMALL_EVENT)))
    for number in range(1, bench_league.SMALL_ROUNDS + 1):
        records = []
        for slug in events:
            league.run("round", "seat", slug)
            played = league.run("simulate", "--event", slug, "--round", str(number))
            records.append(played if not records else played.split("\n", 1)[1])
        league.run("result", "import", league.write(f"small-{number}.csv", "".join(records)))


def _rows(path: Path) -> dict[str, list[tuple]]:
    """Every table's rows, sorted, without the columns the clock writes or drawn at
    random."""
    connection = sqlite3.connect(path)
    try:
        tables = [name for (name,) in connection.execute(
            "SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name")]
        rows = {}
        for table in tables:
            columns = [f'"{c}"' for _, c, *_ in connection.execute(f'PRAGMA table_info("{table}")')
                       if not any(mark in c for mark in TIMES) and c != "at"
                       and c not in DRAWN]
            listed = ", ".join(columns)
            rows[table] = connection.execute(
                f'SELECT {listed} FROM "{table}" ORDER BY {listed}').fetchall()
        return rows
    finally:
        connection.close()


def test_the_small_events_built_in_process_are_those_the_commands_built(tmp_path):
    by_commands, in_process = _league(tmp_path / "commands"), _league(tmp_path / "library")
    _by_commands(by_commands, PLAYERS)
    bench_league.build_small_events(in_process, PLAYERS)
    dispose_engines()
    old, new = _rows(tmp_path / "commands" / "league.db"), _rows(tmp_path / "library" / "league.db")
    counts = {table: len(rows) for table, rows in new.items() if rows}
    # 3 events of 100 players, 2 rounds of 25 tables of 4, 2 deals a match; every
    # match rated (4 history rows), every player rated.
    assert {k: counts.get(k) for k in ("player", "event", "entry", "round", "seat", "match",
                                       "matchplace", "deal", "rating", "ratinghistory")} == {
        "player": 150, "event": 3, "entry": 300, "round": 6, "seat": 300 * 2, "match": 150,
        "matchplace": 600, "deal": 300, "rating": 150, "ratinghistory": 600}
    assert {table: len(rows) for table, rows in old.items()} == {
        table: len(rows) for table, rows in new.items()}
    for table in old:
        assert old[table] == new[table], table
