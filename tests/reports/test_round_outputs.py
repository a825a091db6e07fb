"""A round's outputs are known as a whole by the round's key (issue 34): while a
later round is played, a complete round's pages, score sheets, match pages and
matches file are kept without each being keyed (a big event's thousands of match
pages); a change of the round (a corrected result, a forfeit) works them out again,
and only what changed is rendered."""
from __future__ import annotations

import json
import random

from site_helpers import seat_round_two

from tourney.engines import get_game
from tourney.records.csv_format import write_records
from tourney.reports.site import SiteBuilder
from tourney.simulation import simulate_match

NAMES = [f"Player {n:02d}" for n in range(1, 13)]  # three tables of four


def _rounds_worked_out(monkeypatch) -> list[int]:
    """The rounds whose match pages are keyed one by one in the publishes that follow."""
    seen: list[int] = []
    original = SiteBuilder._match_pages_of

    def spy(self, info, number, *args, **kwargs):
        seen.append(number)
        return original(self, info, number, *args, **kwargs)

    monkeypatch.setattr(SiteBuilder, "_match_pages_of", spy)
    return seen


def _play(tourney, tmp_path, number: int, table: dict, seed: int, replace: bool = False):
    game = get_game("spardame")
    records = simulate_match(game, game.resolve_options({"deals": "2"}), table["seats"],
                             random.Random(seed), event="cup", round_number=number,
                             table=table["table"])
    path = tmp_path / f"r{number}-{table['table']}-{seed}.csv"
    with open(path, "w", encoding="utf-8", newline="") as stream:
        write_records(stream, records, game_for=lambda record: game)
    tourney("result", "import", str(path), "--event", "cup",
            *(["--replace", "--yes"] if replace else []))


def test_a_complete_round_is_kept_whole_while_a_later_one_is_played(
        tourney, tmp_path, monkeypatch):
    seat_round_two(tourney, tmp_path, NAMES)
    site = tmp_path / "site"
    tourney("publish", "--out", str(site), "--lang", "en", "--lang", "sv")
    event = site / "events" / "cup"
    round_one = [*event.glob("match-*.html"), *(site / "sv" / "events" / "cup").glob("match-*"),
                 event / "round-1.html", event / "round-1-sheets.html", event / "matches-1.json"]
    # three matches, each a page and two replays, in two languages; the round's page,
    # sheets and matches file
    assert len(round_one) == 3 * 3 * 2 + 3 and all(p.is_file() for p in round_one)
    inode = {path: path.stat().st_ino for path in round_one}
    manifest = json.loads((site / ".tourney-files").read_text(encoding="utf-8"))
    (record,) = manifest["events"].values()  # the cup's
    rounds = record["rounds"]
    assert sorted(rounds) == ["1", "2"]
    assert {f"events/cup/{p.name}" for p in round_one if p.parent == event} <= set(rounds["1"][1])

    worked_out = _rounds_worked_out(monkeypatch)
    tables = tourney("round", "show", "cup", "2", "--json").json["tables"]
    _play(tourney, tmp_path, 2, tables[0], seed=5)
    tourney("publish", "--out", str(site))
    assert worked_out == [2]  # round 1's match pages not keyed one by one
    assert all(path.stat().st_ino == inode[path] for path in round_one)
    manifest = json.loads((site / ".tourney-files").read_text(encoding="utf-8"))
    (record,) = manifest["events"].values()
    assert all(manifest["files"][rel] for rel in record["rounds"]["1"][1])  # their own keys

    # a round 1 result corrected: its round worked out again, its other matches' pages kept
    worked_out.clear()
    first = tourney("round", "show", "cup", "1", "--json").json["tables"][0]
    _play(tourney, tmp_path, 1, first, seed=99, replace=True)
    tourney("publish", "--out", str(site))
    assert worked_out == [1]  # round 2 unchanged: kept whole
    kept = [p for p in round_one if p.exists() and p.stat().st_ino == inode[p]]
    assert len(kept) >= 2 * 3 * 2  # the two other tables' match pages and replays, twice
    assert (event / "matches-1.json").stat().st_ino != inode[event / "matches-1.json"]

    # and the site is the one a full publish builds
    full = tmp_path / "full"
    tourney("publish", "--out", str(full), "--lang", "en", "--lang", "sv")
    for path in round_one:
        if path.exists():
            twin = full / path.relative_to(site)
            assert path.read_bytes() == twin.read_bytes(), path


def _complete_by_results_by_round(session, slug: str) -> int:
    """The last round with it and every round before it decided, as the
    tournament's own :func:`results_by_round` tells it."""
    from sqlmodel import select

    from tourney.storage.models import Event, Round, Seat
    from tourney.tournament.standings import results_by_round

    event = session.exec(select(Event).where(Event.slug == slug)).one()
    done = results_by_round(session, event)
    complete = 0
    for rnd in session.exec(select(Round).where(Round.event_id == event.id)
                            .order_by(Round.number)).all():
        tables = {t for t in session.exec(select(Seat.table).where(
            Seat.round_id == rnd.id, Seat.table.is_not(None))).all()}
        if not tables <= done.get(rnd.number, set()):
            break
        complete = rnd.number
    return complete


def test_the_standings_round_is_the_one_results_by_round_tells(tourney, tmp_path, db_url):
    """The site tells the last complete round from the rows it reads: the same round
    as the tournament's results_by_round, through results and forfeits."""
    import datetime as dt

    from tourney.reports.data import SiteReader
    from tourney.storage.db import open_engine, reading

    seat_round_two(tourney, tmp_path, NAMES)
    tables = tourney("round", "show", "cup", "2", "--json").json["tables"]
    steps = [lambda: _play(tourney, tmp_path, 2, tables[0], seed=1),
             lambda: tourney("result", "forfeit", "cup", "2", tables[1]["table"],
                             "--absent", tables[1]["seats"][0]),
             lambda: _play(tourney, tmp_path, 2, tables[2], seed=3),
             lambda: tourney("result", "forfeit", "cup", "2", tables[1]["table"], "--undo")]
    seen = []
    for step in [lambda: None, *steps]:
        step()
        with reading(open_engine(db_url)) as session:
            reader = SiteReader(session)
            (info,) = reader.events(dt.date.today())
            after = reader.event_data(info, standings=False).after_round
            expected = _complete_by_results_by_round(session, "cup")
        # None: every seated round complete (the standings after all of them)
        assert (2 if after is None else after) == expected
        seen.append(expected)
    assert seen == [1, 1, 1, 2, 1]  # the round completes with the forfeit, not without
