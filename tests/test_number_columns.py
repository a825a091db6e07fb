"""A column of numbers shows every value with the same decimals (tourney.numbers):
none when every value is whole, else the fewest up to two that show each value,
in the terminal, its CSV and XLSX files, on every page in each language's
symbols and on the venue's live standings; JSON keeps raw numbers."""
from __future__ import annotations

import datetime as dt
import re

import pytest
from conftest import play_cup_round_one

from tourney.numbers import column_decimals, number_column, number_text, signed_text

NAMES = ["Ana Berg", "Bo Ek", "Cai Dahl", "Dan Falk", "Eva Gran"]


@pytest.mark.parametrize("values, decimals, texts", [
    ([3, 2.0, 1], 0, ["3", "2", "1"]),
    ([2, 2.5, 0], 1, ["2.0", "2.5", "0.0"]),
    ([2, 2.33, 0.5], 2, ["2.00", "2.33", "0.50"]),
    ([1 / 3, 2 / 3, 1], 2, ["0.33", "0.67", "1.00"]),
    ([2.9999999, 1], 0, ["3", "1"]),  # as it reads rounded to two decimals
    ([None, 1.5, -0.001], 1, ["", "1.5", "0.0"]),  # an empty cell; never "-0.0"
    ([], 0, []),
])
def test_a_column_has_one_number_of_decimals(values, decimals, texts):
    assert column_decimals(values) == decimals
    assert number_column(values) == texts


def test_a_number_alone_is_a_column_of_one():
    assert [number_text(v) for v in (3.0, 2.5, 1 / 3, -330)] == ["3", "2.5", "0.33", "-330"]


def _played_cup(tourney, tmp_path):
    """Five players in `cup` (spardame, 2-deal matches, tables of 4): round 1
    played, so the standings hold a bye's 1 beside thirds of a point."""
    seating, path = play_cup_round_one(tourney, tmp_path, NAMES, "--seed", "5")
    tourney("result", "import", str(path))
    return seating


def _decimals(texts):
    return {len(t.partition(".")[2]) for t in texts}


def test_standings_in_the_terminal_and_its_files(tourney, tmp_path):
    _played_cup(tourney, tmp_path)
    raw = tourney("standings", "cup", "--json").json
    points = [row["points"] for row in raw]
    assert 1 in points and any(not float(p).is_integer() for p in points)
    assert isinstance(points[points.index(1)], int)  # JSON: raw numbers

    lines = tourney("standings", "cup").stdout.splitlines()
    header = lines[0].split()
    rows = [line.split() for line in lines[1:] if line.strip() and not set(line) <= {"-", " "}]
    # place, first and last name, points, tie-breaks...
    shown = [row[3] for row in rows]
    assert len(shown) == len(NAMES)
    assert _decimals(shown) == {2}, shown
    for index, name in enumerate(header[2:-2], 3):
        column = [row[index] for row in rows]
        assert len(_decimals(column)) == 1, (name, column)

    csv_text = tourney("standings", "cup", "--format", "csv").stdout
    csv_points = [line.split(",")[2] for line in csv_text.splitlines()[1:]]
    assert _decimals(csv_points) == {2}, csv_points

    from openpyxl import load_workbook

    book = tmp_path / "standings.xlsx"
    tourney("standings", "cup", "--out", str(book))
    sheet = load_workbook(book).active
    cells = [row[2] for row in sheet.iter_rows(min_row=2)]
    assert all(isinstance(c.value, (int, float)) for c in cells)  # numbers stay numbers
    assert {c.number_format for c in cells} == {"0.00"}


def test_match_and_event_pages_show_a_column_alike(tourney, tmp_path):
    _played_cup(tourney, tmp_path)
    site = tmp_path / "site"
    tourney("publish", "--out", str(site), "--lang", "en", "--lang", "sv", "--no-replays")
    for folder, label, mark in (("", "Points", "."), ("sv/", "Poäng", ",")):
        pages = {name: (site / f"{folder}{name}").read_text(encoding="utf-8")
                 for name in ("events/cup/index.html", "events/cup/match-1.html",
                              "players/1.html")}
        event = pages["events/cup/index.html"]
        section = event.split('id="standings"')[1].split("</section>")[0]
        points = re.findall(rf'data-label="{label}" data-sort="[^"]*">([^<]*)<', section)
        grid = re.findall(r"<small>([^<]*)</small>", event)
        result = pages["events/cup/match-1.html"].split('id="result-h"')[1].split("</section>")[0]
        match = re.findall(r'lead-cell" data-label="[^"]*">([^<]*)<', result)
        for column in (points, grid, match):
            assert len(column) >= 4, column
            assert {len(p.partition(mark)[2]) for p in column} == {2}, (folder, column)
            assert all(mark in p for p in column), (folder, column)


def test_the_venue_screen_keeps_raw_numbers_and_says_the_decimals(tourney, tmp_path, db_url):
    from starlette.testclient import TestClient

    from tourney.storage.db import open_engine
    from tourney.web.app import ServerConfig, create_app

    _played_cup(tourney, tmp_path)
    app = create_app(ServerConfig(engine=open_engine(db_url), secret="organizer-secret"))
    with TestClient(app, base_url="http://testserver") as client:
        data = client.get("/api/events/cup/standings").json()
        assert data["points_decimals"] == 2
        assert 1 in [row["points"] for row in data["standings"]]  # raw numbers
        page = client.get("/standings/cup?lang=sv").text
    cells = re.findall(r'<td class="points">([^<]*)</td>', page)  # the points
    assert len(cells) == len(NAMES) and all(re.fullmatch(r"\d,\d\d", c) for c in cells), cells


def test_a_page_number_takes_its_column_decimals():
    from tourney.reports.site import Renderer

    now = dt.datetime(2026, 5, 11, tzinfo=dt.UTC)
    swedish = Renderer("sv", "", ["sv"], now)
    column = [1, 2 / 3, 0.5]
    decimals = swedish.decimals(column)
    assert [swedish.number(v, decimals) for v in column] == ["1,00", "0,67", "0,50"]
    # match points: halves read as halves, else the column's decimals
    halves = swedish.point_column([1, 0.5, 1.5, 0])
    assert [swedish.match_points(v, halves) for v in (1, 0.5, 1.5, 0)] == ["1", "½", "1½", "0"]
    thirds = swedish.point_column([1, 2 / 3, 0.5])
    assert [swedish.match_points(v, thirds) for v in (1, 2 / 3, 0.5)] == ["1,00", "0,67", "0,50"]


@pytest.mark.parametrize("value, text", [
    (1.254, "+1.25"), (-0.5, "-0.50"), (-0.001, "0.00"), (0.004, "0.00"), (0, "0.00"),
    (-0.0, "0.00"), (-2, "-2.00"),
])
def test_a_change_has_its_sign_and_never_minus_zero(value, text):
    assert signed_text(value, 2) == text


def test_numbers_show_the_same_decimals_in_the_terminal_and_on_every_page():
    from tourney.reports.site import Renderer

    now = dt.datetime(2026, 5, 11, tzinfo=dt.UTC)
    swedish = Renderer("sv", "", ["sv"], now)
    english = Renderer("en", "", ["en"], now)
    # a number alone: a column of one (tourney.numbers.column_decimals)
    for value, terminal, sv in ((0.4, "0.4", "0,4"), (0.58, "0.58", "0,58"),
                                (-330.0, "-330", "-330"), (2, "2", "2"),
                                (1.3333333, "1.33", "1,33"), (2.9999999, "3", "3")):
        assert number_text(value) == terminal
        assert english.number(value) == terminal
        assert swedish.number(value).replace("\u2212", "-") == sv
    # a column: the same decimals in every row, in the terminal and on the pages
    column = [2, 2.5, 0.4, 1.3333333]
    decimals = english.decimals(column)
    assert number_column(column) == ["2.00", "2.50", "0.40", "1.33"]
    assert [english.number(v, decimals) for v in column] == number_column(column)
    assert [swedish.number(v, decimals) for v in column] == ["2,00", "2,50", "0,40", "1,33"]
