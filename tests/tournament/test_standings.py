"""Standings: match points, tie-breaks in the event's order, shared places."""
from __future__ import annotations

import csv
import io
import json
import re
from fractions import Fraction

import pytest
from results_helpers import (
    create_event,
    make_engine,
    names,
    run,
    seat_round,
    simulate,
    tables_of,
    unique,
    write_csv,
)
from sqlalchemy import select
from sqlmodel import Session

from tourney.storage.models import Entry, Event, Match, MatchPlace, MatchVersion, Player
from tourney.tournament.scoring import match_points
from tourney.tournament.standings import DEFAULT_TIEBREAKS, check_tiebreaks, standings_table
from tourney.tournament.tiebreaks import lot_draw


class Results:
    """Write match results straight into the tables standings read."""

    def __init__(self, db_url, variant="spardame", tiebreaks=None, seed=1, players=(),
                 points="share", bye_points=0):
        self.engine = make_engine(db_url)
        self.slug = unique("st")
        self.points = points
        create_event(self.engine, self.slug, variant, size=2, tiebreaks=tiebreaks, seed=seed,
                     points=points, bye_points=bye_points)
        # enter everyone through a seated round 1 of byes (standings list entrants;
        # the byes are worth nothing unless a test says otherwise)
        self.players = list(players)
        seat_round(self.engine, self.slug, 1, [], byes=[self.name(p) for p in players])
        self.tables = 0

    def name(self, short: str) -> str:
        return f"{self.slug} {short}"

    def match(self, round_number: int, seats: list[tuple[str, int, float]], *,
              superseded: bool = False) -> None:
        """seats: (player, place, total) in seat order."""
        self.tables += 1
        points = match_points([place for _, place, _ in seats], self.points)
        with Session(self.engine) as session:
            event = session.execute(select(Event).where(Event.slug == self.slug)).scalar_one()
            match = Match(event_id=event.id, round_number=round_number, table=str(self.tables))
            session.add(match)
            session.flush()
            version = MatchVersion(match_id=match.id, version=1, content_sha256="x" * 64,
                                   deals=1)
            session.add(version)
            session.flush()
            for seat, ((who, place, total), pts) in enumerate(zip(seats, points)):
                pid = session.execute(select(Player.id).where(
                    Player.name == self.name(who))).scalar_one()
                session.add(MatchPlace(version_id=version.id, player_id=pid, seat=seat,
                                       place=place, total=total, match_points=pts))
            if not superseded:
                match.current_version_id = version.id
                session.add(match)
            session.commit()

    def table(self, **kw):
        with Session(self.engine) as session:
            event = session.execute(select(Event).where(Event.slug == self.slug)).scalar_one()
            rows = standings_table(session, event, **kw)
        return [(r.place, r.player.rsplit(" ", 1)[1], r.points, r.decided_by) for r in rows], rows


def test_default_tiebreaks_and_shared_places(db_url):
    results = Results(db_url, variant="dam-brade", players="ABCDEF")
    # A and B win alike, C and D lose alike: each pair shares its place
    results.match(2, [("A", 1, 1.0), ("C", 2, 0.0)])
    results.match(2, [("B", 1, 1.0), ("D", 2, 0.0)])
    results.match(2, [("E", 1, 0.5), ("F", 1, 0.5)])
    table, rows = results.table()
    # the first of each pair says what put it below the player above
    assert table == [
        (1, "A", 1, None), (1, "B", 1, "shared"),
        (3, "E", 0.5, "points"), (3, "F", 0.5, "shared"),
        (5, "C", 0, "points"), (5, "D", 0, "shared"),
    ]
    assert all(row.shared for row in rows)
    assert list(rows[0].tiebreaks) == list(DEFAULT_TIEBREAKS)
    assert rows[0].tiebreaks["score"] == Fraction(1, 2)
    assert rows[0].wins == 1 and rows[2].wins == 1  # a shared first place is a first place
    assert rows[0].byes == 1  # round 1 was a bye for everyone


def test_score_lower_is_better_in_card_games(db_url):
    results = Results(db_url, variant="spardame", tiebreaks=["score"], players="ABWXYZ")
    results.match(2, [("A", 1, 10), ("W", 2, 50)])   # A: 10 - 30 = -20
    results.match(2, [("B", 1, 30), ("X", 2, 40)])   # B: 30 - 35 = -5
    results.match(2, [("Y", 1, 0), ("Z", 2, 240)])
    table, rows = results.table()
    assert [t[1] for t in table[:3]] == ["Y", "A", "B"]
    assert table[1][3] == "score" and table[2][3] == "score"
    assert rows[1].tiebreaks["score"] == -20 and rows[2].tiebreaks["score"] == -5


def test_score_higher_is_better_in_dam_brade(db_url):
    results = Results(db_url, variant="dam-brade", tiebreaks=["score"], players="ABCD")
    results.match(2, [("A", 1, 2.0), ("C", 2, 1.0)])    # A: +0.5
    results.match(2, [("B", 1, 2.5), ("D", 2, 0.5)])    # B: +1
    table, _ = results.table()
    assert [t[1] for t in table] == ["B", "A", "C", "D"]
    assert [t[3] for t in table] == [None, "score", "points", "score"]


def test_buchholz(db_url):
    results = Results(db_url, tiebreaks=["buchholz"], players="ABCDEF")
    results.match(2, [("A", 1, 0), ("C", 2, 9)])
    results.match(2, [("B", 1, 0), ("D", 2, 9)])
    results.match(3, [("C", 1, 0), ("E", 2, 9)])
    results.match(3, [("F", 1, 0), ("D", 2, 9)])
    table, rows = results.table()
    by_name = {r.player.rsplit(" ", 1)[1]: r for r in rows}
    assert by_name["A"].tiebreaks["buchholz"] == 1  # C won a match
    assert by_name["B"].tiebreaks["buchholz"] == 0  # D won none
    assert by_name["C"].tiebreaks["buchholz"] == 1  # A 1 + E 0
    assert table[:4] == [(1, "A", 1, None), (1, "C", 1, "shared"),
                         (3, "B", 1, "buchholz"), (3, "F", 1, "shared")]


def test_wins(db_url):
    results = Results(db_url, tiebreaks=["wins"], players="ABXYZ")
    results.match(2, [("A", 1, 0), ("B", 2, 10), ("X", 3, 20)])
    results.match(3, [("A", 3, 30), ("B", 2, 20), ("Y", 1, 10)])
    table, rows = results.table()
    a = next(r for r in rows if r.player.endswith(" A"))
    b = next(r for r in rows if r.player.endswith(" B"))
    assert a.points == b.points == 1  # shares: 1 + 0 and 1/2 + 1/2
    assert a.place < b.place and b.decided_by == "wins"
    assert (a.tiebreaks["wins"], b.tiebreaks["wins"]) == (1, 0)


def test_matches_played(db_url):
    results = Results(db_url, tiebreaks=["matches"], players="ABCDE")
    results.match(2, [("A", 1, 0), ("C", 1, 0)])   # 0.5 each
    results.match(3, [("A", 1, 0), ("D", 1, 0)])   # A: 1 point in 2 matches
    results.match(2, [("B", 1, 0), ("E", 2, 10)])  # B: 1 point in 1 match
    table, rows = results.table()
    assert [t[1] for t in table[:2]] == ["A", "B"]
    assert table[1][3] == "matches"
    assert rows[0].matches == 2 and rows[1].matches == 1


def test_lot_is_reproducible_and_seeded(db_url):
    orders = set()
    for seed in (1, 2, 3, 4):
        results = Results(db_url, tiebreaks=["lot"], seed=seed, players="ABCDEFGH")
        first, rows = results.table()
        again, _ = results.table()
        assert first == again
        assert [t[0] for t in first] == list(range(1, 9))  # a lot separates everyone
        assert [t[3] for t in first] == [None] + ["lot"] * 7
        assert sorted(r.tiebreaks["lot"] for r in rows) == list(range(1, 9))
        expected = sorted(rows, key=lambda r: lot_draw(seed, r.player_id))
        assert [r.player_id for r in rows] == [r.player_id for r in expected]
        orders.add(tuple(t[1] for t in first))
    assert len(orders) > 1


def test_only_current_versions_count_and_up_to_round(db_url):
    results = Results(db_url, tiebreaks=["wins"], players="ABCD")
    results.match(2, [("A", 1, 0), ("B", 2, 9)])
    results.match(2, [("B", 1, 0), ("A", 2, 9)], superseded=True)
    results.match(3, [("C", 1, 0), ("D", 2, 9)])
    table, _ = results.table()
    assert [(t[1], t[2]) for t in table] == [("A", 1), ("C", 1), ("B", 0), ("D", 0)]
    table, _ = results.table(up_to_round=2)
    assert [(t[1], t[2]) for t in table] == [("A", 1), ("B", 0), ("C", 0), ("D", 0)]


def test_unknown_tiebreak_is_refused():
    assert check_tiebreaks(["wins", "lot"]) == ["wins", "lot"]
    with pytest.raises(Exception, match="unknown tie-break"):
        check_tiebreaks(["elo"])
    with pytest.raises(Exception, match="twice"):
        check_tiebreaks(["wins", "wins"])


def test_standings_cli_after_imports(db_url, tmp_path):
    engine = make_engine(db_url)
    slug = unique("cli")
    create_event(engine, slug, "spardame", size=4)
    players = names(slug, 8)
    for number in (1, 2):
        seating = tables_of(players[number - 1:] + players[:number - 1], 4)
        seat_round(engine, slug, number, seating)
        records = simulate("spardame", slug, number, seating, seed=number, deals=2)
        run(db_url, "result", "import", str(write_csv(tmp_path / f"r{number}.csv", records,
                                                      "spardame")), ok=True)
    data = json.loads(run(db_url, "standings", slug, "--json", ok=True).stdout)
    assert len(data) == 8
    assert set(data[0]) >= {"place", "player", "points", "tiebreaks", "decided_by"}
    assert list(data[0]["tiebreaks"]) == ["opponents", "score", "wins"]
    # 2 rounds x 2 tables x (1 + 2/3 + 1/3 + 0) points: shares of the table beaten
    assert sum(row["points"] for row in data) == pytest.approx(8, abs=0.05)
    assert [row["place"] for row in data] == sorted(row["place"] for row in data)
    points = [row["points"] for row in data]
    assert points == sorted(points, reverse=True)
    plain = run(db_url, "standings", slug, ok=True).stdout.splitlines()
    assert plain[0].split() == ["place", "player", "points", "opponents", "score", "wins",
                                "decided", "by"]
    assert len(plain) == 9
    missing = run(db_url, "standings", "no-such-event")
    assert missing.exit_code == 2 and "unknown event" in missing.stderr
    # After a round the event has: that round's table; past its rounds: an error,
    # not the final table.
    first = json.loads(run(db_url, "standings", slug, "--round", "1", "--json",
                           ok=True).stdout)
    assert sum(row["points"] for row in first) == pytest.approx(4, abs=0.05)  # 2 tables x 2
    past = run(db_url, "standings", slug, "--round", "3")
    assert past.exit_code == 2 and past.stdout == ""
    assert f"{slug} has no round 3: rounds 1-2 are seated" in past.stderr


# ----------------------------------------------------------------- fair across table sizes

def test_a_win_is_worth_the_same_at_any_table_size(db_url):
    results = Results(db_url, tiebreaks=["wins"], players="ABCDEFGH")
    results.match(2, [("A", 1, 0), ("B", 2, 5), ("C", 3, 9)])                          # 3
    results.match(2, [("D", 1, 0), ("E", 2, 5), ("F", 3, 7), ("G", 4, 8), ("H", 5, 9)])  # 5
    table, rows = results.table()
    by_name = {r.player.rsplit(" ", 1)[1]: r for r in rows}
    assert by_name["A"].points == by_name["D"].points == 1
    assert by_name["B"].points == by_name["F"].points == 0.5  # the middle of any table
    assert by_name["E"].points == 0.75 and by_name["G"].points == 0.25
    assert by_name["C"].points == by_name["H"].points == 0


def test_shares_add_up_exactly(db_url):
    # 1/3 + 1/2 + 1/6 is 0.9999999999999999 in floats: it must equal 1/2 + 1/2 + 0
    results = Results(db_url, tiebreaks=["lot"], players="ABCDEFGHIJKL")
    results.match(2, [("C", 1, 0), ("D", 2, 1), ("A", 3, 5), ("E", 4, 9)])  # A: 1/3
    results.match(3, [("F", 1, 0), ("A", 2, 5), ("G", 3, 9)])               # A: 1/2
    results.match(4, [("H", 1, 0), ("I", 2, 1), ("A", 3, 5), ("J", 3, 5)])  # A: 1/6
    results.match(2, [("B", 1, 0), ("K", 1, 0)])                            # B: 1/2
    results.match(3, [("B", 1, 0), ("L", 1, 0)])                            # B: 1/2
    results.match(4, [("K", 1, 0), ("B", 2, 9)])                            # B: 0
    table, rows = results.table()
    by_name = {r.player.rsplit(" ", 1)[1]: r for r in rows}
    assert by_name["A"].sort_key[0] == by_name["B"].sort_key[0]  # equal exactly
    assert by_name["A"].points == by_name["B"].points == 1
    tied = [r for r in rows if r.points == 1]
    assert {"A", "B"} <= {r.player.rsplit(" ", 1)[1] for r in tied}
    assert all(r.decided_by in ("lot", "points") for r in tied[1:])  # only a lot between


def test_opponents_strength_is_an_average_not_a_sum(db_url):
    """Buchholz grows with the opponents met; the opponents tie-break does not."""
    results = Results(db_url, tiebreaks=["opponents", "buchholz"], players="ABCDEFGHIJ")
    # A wins at a table of 5 against four opponents who then all come last elsewhere
    results.match(2, [("A", 1, 0), ("C", 2, 5), ("D", 3, 6), ("E", 4, 7), ("F", 5, 8)])
    # B wins at a table of 3 against two opponents who then win elsewhere
    results.match(2, [("B", 1, 0), ("G", 2, 5), ("H", 3, 9)])
    results.match(3, [("G", 1, 0), ("C", 2, 9)])
    results.match(3, [("H", 1, 0), ("D", 2, 9)])
    results.match(3, [("E", 1, 0), ("I", 2, 9)])
    results.match(3, [("F", 1, 0), ("J", 2, 9)])
    table, rows = results.table()
    by_name = {r.player.rsplit(" ", 1)[1]: r for r in rows}
    a, b = by_name["A"], by_name["B"]
    assert a.points == b.points == 1
    # A's opponents: C (3/4, 0) D (1/2, 0) E (1/4, 1) F (0, 1): 3/8, 1/4, 5/8, 1/2
    assert a.tiebreaks["opponents"] == Fraction(3 + 2 + 5 + 4, 8 * 4)
    # B's: G (1/2, 1) and H (0, 1): averages 3/4 and 1/2
    assert b.tiebreaks["opponents"] == Fraction(5, 8)
    assert b.place < a.place and a.decided_by == "opponents"
    # the sum over more opponents would have put A ahead
    assert a.tiebreaks["buchholz"] > b.tiebreaks["buchholz"]


@pytest.mark.parametrize("points, bye_points, expected", [
    ("share", None, 1), ("share", 0.5, 0.5), ("place", None, 1), ("place", 0, 0)])
def test_a_bye_is_worth_the_events_bye_points(db_url, points, bye_points, expected):
    # Results seats everyone a bye in round 1 at a two-player table size:
    # a win's worth there is 1 under either system
    results = Results(db_url, tiebreaks=["wins"], players="AB", points=points,
                      bye_points=bye_points)
    results.match(2, [("A", 1, 0), ("B", 2, 9)])
    table, rows = results.table()
    assert [(t[1], t[2]) for t in table] == [("A", 1 + expected), ("B", expected)]
    assert rows[0].byes == 1 and rows[0].matches == 1


def test_bye_points_by_default_and_the_event_settings(db_url):
    from tourney.tournament.scoring import bye_points

    assert bye_points("share", None, 4) == 1
    assert bye_points("place", None, 4) == 3  # a win at the preferred size
    assert bye_points("place", 1.5, 4) == 1.5
    slug = unique("pts")
    created = json.loads(run(db_url, "event", "create", slug, "--variant", "spardame",
                             "--table-sizes", "3-5", "--points", "place", "--bye-points",
                             "2", "--json", ok=True).stdout)["details"]
    assert (created["points"], created["bye_points"]) == ("place", 2)
    shown = json.loads(run(db_url, "event", "show", slug, "--json", ok=True).stdout)
    assert shown["bye_points_in_force"] == 2
    default = unique("pts")
    run(db_url, "event", "create", default, "--variant", "spardame", ok=True)
    shown = json.loads(run(db_url, "event", "show", default, "--json", ok=True).stdout)
    assert (shown["points"], shown["bye_points"], shown["bye_points_in_force"]) == ("share", None, 1)
    text = run(db_url, "event", "show", default, ok=True).stdout
    assert "a bye is worth 1 (a win's worth)" in text
    bad = run(db_url, "event", "create", unique("pts"), "--variant", "spardame",
              "--points", "elo")
    assert bad.exit_code == 2
    bad = run(db_url, "event", "create", unique("pts"), "--variant", "spardame",
              "--bye-points", "-1")
    assert bad.exit_code == 2


def test_standings_explain_the_points_and_every_tiebreak(db_url):
    results = Results(db_url, tiebreaks=["opponents", "score", "wins"], players="AB")
    results.match(2, [("A", 1, 0), ("B", 2, 9)])
    shown = run(db_url, "standings", results.slug, ok=True)
    assert "points: the share of the table's other players finished ahead of" in shown.stderr
    for tiebreak in ("opponents:", "score:", "wins:"):
        assert tiebreak in shown.stderr


# ----------------------------------------------------------------- what the standings show

def _terminal_rows(text: str) -> tuple[list[str], list[list[str]]]:
    """The standings table as printed: cells are apart by two spaces or more (a
    name holds single spaces); an empty last cell is left off the line."""
    lines = text.splitlines()
    header = re.split(r"\s{2,}", lines[0].strip())
    return header, [re.split(r"\s{2,}", line.strip()) for line in lines[1:]]


def _cells(header, row) -> dict[str, str]:
    return dict(zip(header, row + [""] * (len(header) - len(row))))


def _decided_rows_read_apart(header, rows, data) -> int:
    """Every row whose place a number column decided shows that column's value
    apart from the row above; how many such rows there are."""
    checked = 0
    for index in range(1, len(data)):
        decided = data[index]["decided_by"]
        if decided in header and decided != "shared":
            above, row = _cells(header, rows[index - 1]), _cells(header, rows[index])
            assert row[decided] != above[decided], (decided, above, row)
            checked += 1
    return checked


def test_a_league_shows_what_decided_every_place(db_url, tmp_path):
    """The reported league: 40 players, 3 rounds of 2-deal spardame at tables of 4.
    JSON and XLSX hold the tie-breaks in full, and the terminal and CSV show
    enough decimals that what decided a place reads apart from the row above."""
    from openpyxl import load_workbook
    from simulated_rounds import play_round

    from tourney.storage.db import open_engine

    def cli(*args):
        return run(db_url, *args, ok=True)

    slug = unique("liga")
    players = [f"{slug} Spelare {n}" for n in range(1, 41)]
    cli("player", "add", *players)
    cli("event", "create", slug, "--variant", "spardame", "--table-sizes", "4",
        "--rounds", "3", "--rule", "deals=2", "--seed", "7")
    cli("event", "enter", slug, *players)
    for number in (1, 2, 3):
        seating = json.loads(cli("round", "seat", slug, "--json").stdout)
        path = tmp_path / f"r{number}.csv"
        play_round(seating, slug, "spardame", {"deals": "2"}, number, path)
        cli("result", "import", str(path))

    data = json.loads(cli("standings", slug, "--json").stdout)
    with Session(open_engine(db_url)) as session:
        event = session.execute(select(Event).where(Event.slug == slug)).scalar_one()
        exact = standings_table(session, event)
    # JSON: the values as they are, not rounded to two decimals
    assert [row["tiebreaks"]["opponents"] for row in data] == [
        float(row.tiebreaks["opponents"]) for row in exact]
    assert [row["points"] for row in data] == [row.points for row in exact]
    assert all(row["withdrawn_after"] is None and row["shared"] is False for row in data)

    header, rows = _terminal_rows(cli("standings", slug).stdout)
    assert header == ["place", "player", "points", "opponents", "score", "wins",
                      "decided by"]
    assert [r[1] for r in rows] == [row["player"] for row in data]
    assert _decided_rows_read_apart(header, rows, data) > 10
    opponents = [_cells(header, r)["opponents"] for r in rows]
    assert len({len(text.partition(".")[2]) for text in opponents}) == 1  # alike in every row

    csv_text = cli("standings", slug, "--format", "csv").stdout
    table = list(csv.reader(io.StringIO(csv_text)))
    assert table[0] == [*header, "shared", "withdrew after"]
    assert _decided_rows_read_apart(table[0], table[1:], data) > 10
    assert [r[3] for r in table[1:]] == opponents  # as the terminal shows them

    book = tmp_path / "standings.xlsx"
    cli("standings", slug, "--out", str(book))
    sheet = load_workbook(book).active
    cells = [row[3] for row in sheet.iter_rows(min_row=2)]
    # in full (as far as a workbook's 15 digits go), shown with the terminal's decimals
    assert [c.value for c in cells] == pytest.approx(
        [row["tiebreaks"]["opponents"] for row in data], rel=1e-14)
    assert {c.number_format for c in cells} == {"0.000"}


def test_a_difference_in_the_third_decimal_is_shown(db_url, tmp_path):
    from openpyxl import load_workbook

    results = Results(db_url, variant="spardame", tiebreaks=["score"], players="ABWX")
    results.match(2, [("A", 1, 0), ("W", 2, 0.662)])   # A: -0.331
    results.match(2, [("B", 1, 0), ("X", 2, 0.668)])   # B: -0.334, ahead (lower is better)
    table, rows = results.table()
    assert [t[1] for t in table[:2]] == ["B", "A"] and table[1][3] == "score"

    header, shown = _terminal_rows(run(db_url, "standings", results.slug, ok=True).stdout)
    assert [_cells(header, r)["score"] for r in shown[:2]] == ["-0.334", "-0.331"]
    assert [_cells(header, r)["score"] for r in shown[2:]] == ["0.331", "0.334"]
    csv_rows = list(csv.DictReader(io.StringIO(
        run(db_url, "standings", results.slug, "--format", "csv", ok=True).stdout)))
    assert [r["score"] for r in csv_rows] == ["-0.334", "-0.331", "0.331", "0.334"]
    data = json.loads(run(db_url, "standings", results.slug, "--json", ok=True).stdout)
    assert data[0]["tiebreaks"]["score"] == pytest.approx(-0.334, abs=1e-12)
    book = tmp_path / "standings.xlsx"
    run(db_url, "standings", results.slug, "--out", str(book), ok=True)
    sheet = load_workbook(book).active
    score = next(c for c in sheet[1] if c.value == "score").column - 1
    cells = [row[score] for row in sheet.iter_rows(min_row=2)]
    assert cells[0].value == pytest.approx(-0.334, abs=1e-12)
    assert cells[0].number_format == "0.000"

    from tourney.tournament.standings import standing_decimals

    assert standing_decimals(rows) == {"points": 0, "score": 3}


def test_the_first_of_a_shared_place_says_what_separated_it_from_above(db_url, tmp_path):
    """Karin on -90, then Björn and Cilla equal on -50: Björn was separated from
    Karin by score and shares place 2 with Cilla, who nothing separates from him."""
    results = Results(db_url, variant="spardame", tiebreaks=["score"],
                      players=["Karin", "Björn", "Cilla", "Dag", "Eva", "Fia"])
    results.match(2, [("Karin", 1, 0), ("Dag", 2, 180)])    # Karin: -90
    results.match(2, [("Björn", 1, 0), ("Eva", 2, 100)])    # Björn: -50
    results.match(2, [("Cilla", 1, 0), ("Fia", 2, 100)])    # Cilla: -50
    table, rows = results.table()
    assert table[:3] == [(1, "Karin", 1, None), (2, "Björn", 1, "score"),
                         (2, "Cilla", 1, "shared")]
    assert [row.shared for row in rows[:3]] == [False, True, True]

    header, shown = _terminal_rows(run(db_url, "standings", results.slug, ok=True).stdout)
    cells = [_cells(header, r) for r in shown[:3]]
    assert [(c["place"], c["score"], c["decided by"]) for c in cells] == [
        ("1", "-90", ""), ("2=", "-50", "score"), ("2=", "-50", "shared")]
    explained = run(db_url, "standings", results.slug, ok=True).stderr
    assert "=: a shared place" in explained

    data = json.loads(run(db_url, "standings", results.slug, "--json", ok=True).stdout)
    assert [(r["place"], r["shared"], r["decided_by"]) for r in data[:3]] == [
        (1, False, None), (2, True, "score"), (2, True, "shared")]
    csv_rows = list(csv.DictReader(io.StringIO(
        run(db_url, "standings", results.slug, "--format", "csv", ok=True).stdout)))
    assert [(r["place"], r["shared"], r["decided by"]) for r in csv_rows[:3]] == [
        ("1", "", ""), ("2", "yes", "score"), ("2", "yes", "shared")]

    # the published standings: both marked as sharing, the open data the same
    site = tmp_path / "site"
    run(db_url, "publish", "--out", str(site), "--lang", "en", "--no-replays", ok=True)
    page = (site / "events" / results.slug / "index.html").read_text(encoding="utf-8")
    section = page.split('id="standings"')[1].split("</section>")[0]
    places = re.findall(r'data-sort="\d+">(\d+(?:<span class="shared"[^>]*>=</span>)?)</td>',
                        section)
    assert [re.sub(r"<[^>]+>", "", p) for p in places[:3]] == ["1", "2=", "2="]
    published = json.loads((site / "events" / results.slug / "standings.json")
                           .read_text(encoding="utf-8"))["standings"]
    assert [(r["place"], r["shared"], r["decided_by"]) for r in published[:3]] == [
        (1, False, None), (2, True, "score"), (2, True, "shared")]


def test_the_standings_mark_a_withdrawn_player(db_url, tmp_path):
    from openpyxl import load_workbook

    results = Results(db_url, tiebreaks=["wins"], players="ABC")
    results.match(2, [("A", 1, 0), ("B", 2, 9), ("C", 3, 20)])
    with Session(results.engine) as session:
        entry = session.execute(
            select(Entry).join(Player, Player.id == Entry.player_id)
            .where(Player.name == results.name("B"))).scalar_one()
        entry.withdrawn_after = 2
        session.add(entry)
        session.commit()

    header, shown = _terminal_rows(run(db_url, "standings", results.slug, ok=True).stdout)
    assert header[-1] == "withdrew after"
    marks = {_cells(header, r)["player"]: _cells(header, r)["withdrew after"] for r in shown}
    assert marks == {results.name("A"): "", results.name("B"): "round 2",
                     results.name("C"): ""}
    data = json.loads(run(db_url, "standings", results.slug, "--json", ok=True).stdout)
    assert {r["player"]: r["withdrawn_after"] for r in data} == {
        results.name("A"): None, results.name("B"): 2, results.name("C"): None}
    csv_rows = list(csv.DictReader(io.StringIO(
        run(db_url, "standings", results.slug, "--format", "csv", ok=True).stdout)))
    assert [r["withdrew after"] for r in csv_rows] == ["", "2", ""]
    book = tmp_path / "standings.xlsx"
    run(db_url, "standings", results.slug, "--out", str(book), ok=True)
    sheet = list(load_workbook(book).active.iter_rows(values_only=True))
    column = sheet[0].index("withdrew after")
    assert [row[column] for row in sheet[1:]] == [None, 2, None]  # a number


@pytest.mark.parametrize("tiebreaks", [None, ["buchholz", "wins"], ["share", "matches", "score"],
                                       ["direct-encounter", "sonneborn-berger", "progressive"]])
def test_plain_data_is_ordered_as_the_event_is(tiebreaks):
    """rank_standings, no database: the same players' results in plain data give the
    event's rows (places, points, tie-break values, what decided each place), byes
    and players who did not play included."""
    from tourney.tournament.standings import MatchResult, rank_standings

    played = [(2, [("A", 1, 3.0), ("B", 2, 7.0), ("C", 3, 9.0)]),
              (2, [("D", 1, 1.0), ("E", 1, 1.0), ("F", 3, 20.0)]),
              (3, [("A", 2, 5.0), ("D", 1, 2.0)]), (3, [("B", 1, 0.0), ("E", 2, 4.0)]),
              (3, [("C", 1, 2.0), ("F", 2, 6.0)])]
    results = Results("sqlite://", tiebreaks=tiebreaks, seed=5, players="ABCDEFG")
    for number, seats in played:
        results.match(number, seats)
    _, expected = results.table()
    everyone = [results.name(p) for p in "ABCDEFG"]
    rows = rank_standings([MatchResult(n, [(results.name(p), *rest) for p, *rest in seats])
                           for n, seats in played],
                          players=everyone, tiebreaks=tiebreaks or (),
                          byes=[(name, 1) for name in everyone], bye_points=0)

    def shown(table):
        return [(r.place, r.player, r.points, r.tiebreaks, r.decided_by, r.matches, r.wins,
                 r.byes) for r in table]

    assert shown(rows) == shown(expected)
    assert len({r.place for r in rows}) > 3 and rows[-1].player == results.name("G")


def test_plain_data_lots_are_seeded():
    from tourney.tournament.standings import rank_standings

    def drawn(seed):
        return [r.player for r in rank_standings([], players="ABCDEFGH", tiebreaks=["lot"],
                                                 seed=seed)]

    assert drawn(1) == drawn(1) and sorted(drawn(1)) == list("ABCDEFGH")
    assert any(drawn(1) != drawn(seed) for seed in range(2, 6))


def test_plain_data_standings_refuse_what_does_not_exist():
    from tourney.errors import UsageError
    from tourney.tournament.standings import rank_standings

    with pytest.raises(UsageError):
        rank_standings([], tiebreaks=["nope"])
    with pytest.raises(UsageError):
        rank_standings([], points="goals")
