"""`tourney series` and `tourney team` on both databases: series standings (best N,
min-events, placing points, handicaps) and team standings, each worked out by hand
here from the results stored; corrections show at once; bad input is a clear error;
read commands change nothing."""
from __future__ import annotations

import csv
import json

import openpyxl
import pytest
from conftest import from_snapshot
from season_helpers import RESULTS, correct, make_season, sixths_series
from sqlalchemy import func, select
from sqlmodel import Session

from tourney.storage.db import open_engine
from tourney.storage.models import (
    AuditLog,
    Series,
    SeriesEvent,
    SeriesHandicap,
    Team,
    TeamMember,
)


@pytest.fixture
def season(tourney, db_url):
    # built once per backend, then copied: most of these tests' time was the building
    from_snapshot(db_url, "season", lambda url: make_season(tourney, url))
    return tourney


def reference(results, best=None, min_events=0, placing=None, handicaps=None,
              unhandicapped=("ev3",)):
    """The series worked out the plain way: per player the values of the events
    played (placing points by place when ``placing``), the best ``best`` summed,
    plus the handicap for each counted but those of ``unhandicapped`` (ev3: a
    dam-brade event in a spardame series); qualified players by total, then events
    played, then the best single result; the rest after, unplaced."""
    values: dict[str, list] = {}
    for slug, tables in results.items():
        for table in tables:
            for name, place, points in table:
                value = (placing[place - 1] if place <= len(placing) else 0) if placing \
                    else points
                handicap = 0 if slug in unhandicapped else (handicaps or {}).get(name, 0)
                values.setdefault(name, []).append(value + handicap)
    rows = []
    for name, got in values.items():
        kept = sorted(got, reverse=True)[:best] if best else got
        rows.append((name, sum(kept), len(got), max(got)))
    qualified = sorted([r for r in rows if r[2] >= min_events],
                       key=lambda r: (-r[1], -r[2], -r[3]))
    others = sorted([r for r in rows if r[2] < min_events], key=lambda r: (-r[1], -r[2], -r[3]))
    return ([(place, name, total) for place, (name, total, _, _) in enumerate(qualified, 1)]
            + [(None, name, total) for name, total, _, _ in others])


def got(run):
    return [(r["place"], r["player"], r["total"]) for r in run.json["standings"]]


def test_best_n_and_min_events(season):
    data = season("series", "standings", "season", "--json").json
    assert got(season("series", "standings", "season", "--json")) == reference(
        RESULTS, best=2, min_events=2) == [
        (1, "Anna", 5.5), (2, "Bo", 5), (3, "Cai", 3), (4, "Eva", 1.5), (None, "Dag", 0)]
    anna = data["standings"][0]
    assert anna["events"]["ev2"] == {"place": 3, "points": 1, "counted": False}
    assert anna["events_played"] == 3 and anna["events_counted"] == 2
    assert data["standings"][-1]["qualified"] is False
    assert [e["slug"] for e in data["events"]] == ["ev1", "ev2", "ev3"]
    assert [e["variant"] for e in data["events"]] == ["spardame", "spardame", "dam-brade"]
    text = season("series", "standings", "season")
    lines = text.stdout.splitlines()
    assert lines[0].split() == ["place", "player", "events", "ev1", "ev2", "ev3", "total",
                                "decided", "by"]
    # every points column with one precision: the 2.5's
    assert lines[1].split()[:7] == ["1", "Anna", "3", "3.0", "(1.0)", "2.5", "5.5"]
    assert lines[-1].split()[:5] == ["-", "Dag", "1", "0.0", "-"]
    assert "dropped" in text.stderr and "not qualified" in text.stderr
    assert "season: points scoring; best 2 events count; 2 events to qualify" in text.stderr
    # every event counts, nobody short
    season("series", "set", "season", "--unset", "best", "--min-events", "0")
    assert got(season("series", "standings", "season", "--json")) == reference(RESULTS)


def test_placing_points(season):
    season("series", "set", "season", "--scoring", "placing", "--placing-points", "10,6,4")
    assert got(season("series", "standings", "season", "--json")) == reference(
        RESULTS, best=2, min_events=2, placing=[10, 6, 4]) == [
        (1, "Anna", 20), (2, "Bo", 16), (3, "Cai", 10), (4, "Eva", 6), (None, "Dag", 0)]


def test_a_change_of_scoring_keeps_the_placing_table(season):
    season("series", "set", "season", "--scoring", "placing", "--placing-points", "10,6,4")
    to_points = season("series", "set", "season", "--scoring", "points")
    # the table is not said to be gone: it is kept for placing scoring
    assert "placing points: none" not in to_points.stdout + to_points.stderr
    assert "its placing points (10,6,4) are kept for placing scoring" in (
        to_points.stdout + to_points.stderr)
    assert season("series", "set", "season", "--scoring", "points",
                  "--json").json["changed"] is False
    changed = season("series", "set", "season", "--scoring", "placing", "--json").json
    assert changed["details"]["changes"] == {"scoring": {"before": "points",
                                                         "after": "placing"}}
    assert got(season("series", "standings", "season", "--json")) == reference(
        RESULTS, best=2, min_events=2, placing=[10, 6, 4])


def test_handicaps_by_hand(season):
    season("series", "set", "season", "--handicap")
    season("series", "handicap", "season", "Bo", "1")
    season("series", "handicap", "season", "Eva", "2.5")
    season("series", "handicap", "season", "Cai", "-0.5")  # a negative one reads as a value
    data = season("series", "standings", "season", "--json").json
    assert got(season("series", "standings", "season", "--json")) == reference(
        RESULTS, best=2, min_events=2, handicaps={"Bo": 1, "Eva": 2.5, "Cai": -0.5}) == [
        (1, "Bo", 7), (2, "Anna", 5.5), (3, "Eva", 4), (4, "Cai", 2), (None, "Dag", 0)]
    # ev3 is dam-brade, the series' handicaps spardame's (ev1's): Eva's 1.5 there is net
    eva = next(r for r in data["standings"] if r["player"] == "Eva")
    assert eva["events"]["ev3"] == {"place": 2, "points": 1.5, "counted": True}
    assert (eva["gross"], eva["handicap"], eva["net"]) == (1.5, 2.5, 4)
    assert (data["handicap_game"], data["without_handicap"]) == ("spardame", ["ev3"])
    said = season("series", "standings", "season").stderr
    assert "without a handicap: ev3 (not spardame, the game the handicaps are for)" in said
    bo = data["standings"][0]
    assert (bo["gross"], bo["handicap"], bo["net"]) == (5, 1, 7)
    assert bo["events"]["ev1"] == {"place": 2, "points": 2, "net": 3, "counted": True}
    header = season("series", "standings", "season").stdout.splitlines()[0].split()
    assert header[-5:] == ["gross", "handicap", "net", "decided", "by"]
    listed = season("series", "handicap", "season", "--json").json
    assert listed == [{"player": "Bo", "handicap": 1, "source": "hand"},
                      {"player": "Cai", "handicap": -0.5, "source": "hand"},
                      {"player": "Eva", "handicap": 2.5, "source": "hand"}]
    season("series", "handicap", "season", "Eva", "--undo")
    assert got(season("series", "standings", "season", "--json"))[3] == (4, "Eva", 1.5)
    logged = season("log", "--json").json
    assert [e["action"] for e in logged].count("series.handicap") == 4


def test_an_event_of_another_game_added_to_a_handicapped_series_is_warned_of(season):
    season("series", "create", "hc", "--handicap")
    run = season("series", "add", "hc", "ev1", "ev3")
    assert ("warning: ev3 counts without a handicap: the series' handicaps are for "
            "spardame (the game of its first event), ev3 is dam-brade"
            in run.stderr.splitlines())
    season("series", "remove", "hc", "ev3")
    [warning] = season("series", "add", "hc", "ev3", "--json").json["details"]["warnings"]
    assert {k: v for k, v in warning.items() if k != "message"} == {
        "warning": "no-handicap", "events": ["ev3"], "games": ["dam-brade"],
        "handicap_game": "spardame"}
    # the series' own game, or a series without handicaps: nothing to warn of
    assert "warning" not in season("series", "add", "hc", "ev2").stderr
    assert "warning" not in season("series", "add", "season", "ev3").stderr
    # handicaps turned on where an event of another game is in: said alike
    turned = season("series", "set", "season", "--handicap", "--json")
    assert [w["events"] for w in turned.json["details"]["warnings"]] == [["ev3"]]
    assert "warning: ev3 counts without a handicap" in turned.stderr
    assert season("series", "set", "season", "--best", "3",
                  "--json").json["details"]["warnings"] == []


def test_every_points_column_reads_one_precision(season, tmp_path):
    """A row read gross 5.5 beside a handicap 0.00 (each column its own decimals):
    the events', gross, handicap and net columns share one, on the terminal and
    in the CSV."""
    season("series", "set", "season", "--handicap")
    season("series", "handicap", "season", "Bo", "0.25")
    lines = season("series", "standings", "season").stdout.splitlines()
    anna = next(line.split() for line in lines if "Anna" in line)
    # events ev1 ev2 ev3, gross, handicap, net
    assert anna[3:9] == ["3.00", "(1.00)", "2.50", "5.50", "0.00", "5.50"]
    out = tmp_path / "season.csv"
    season("series", "standings", "season", "--out", str(out))
    with out.open(encoding="utf-8-sig", newline="") as f:
        rows = list(csv.DictReader(f))
    anna = next(r for r in rows if r["player"] == "Anna")
    assert [anna[c] for c in ("ev1", "ev2", "ev3", "gross", "handicap", "net")] == [
        "3.00", "1.00", "2.50", "5.50", "0.00", "5.50"]


def test_a_total_reads_as_the_sum_of_the_results_shown(season, db_url, tmp_path):
    """Anna's 7/6 in each of three events reads 1.17: her total reads 3.51 (what a
    reader adds up), not 3.50, on the terminal, in the CSV and in --json."""
    sixths_series(season, db_url)
    anna = next(line.split() for line in season("series", "standings", "sixths")
                .stdout.splitlines() if "Anna" in line)
    assert anna[3:7] == ["1.17", "1.17", "1.17", "3.51"]
    out = tmp_path / "sixths.csv"
    season("series", "standings", "sixths", "--out", str(out))
    with out.open(encoding="utf-8-sig", newline="") as f:
        anna = next(r for r in csv.DictReader(f) if r["player"] == "Anna")
    assert [anna[c] for c in ("s1", "s2", "s3", "total")] == ["1.17", "1.17", "1.17", "3.51"]
    [anna] = [r for r in season("series", "standings", "sixths", "--json").json["standings"]
              if r["player"] == "Anna"]
    assert anna["total"] == 3.51 and anna["events"]["s1"]["points"] == 1.17


def test_handicaps_from_the_rating(season):
    season("rating", "recompute")
    ratings = {e["player"]: e["ordinal"]
               for e in season("rating", "show", "--variant", "spardame", "--json").json}
    report = season("series", "handicap", "season", "--from-rating", "--variant", "spardame",
                    "--factor", "0.5", "--json").json
    best = max(ratings.values())
    expected = {name: round(0.5 * (best - value), 2) for name, value in ratings.items()}
    assert report["details"]["handicaps"] == pytest.approx(expected)
    assert report["details"]["best_rating"] == pytest.approx(best)
    assert min(expected.values()) == 0 and max(expected.values()) > 0
    listed = {r["player"]: (r["handicap"], r["source"])
              for r in season("series", "handicap", "season", "--json").json}
    assert listed == {name: (pytest.approx(value), "rating") for name, value in expected.items()}
    # the pool is the series' game's (its first event's) without --variant, and no other
    again = season("series", "handicap", "season", "--from-rating", "--factor", "0.5",
                   "--json").json
    assert again["details"]["variant"] == "spardame"
    failed = season("series", "handicap", "season", "--from-rating", "--variant", "dam-brade",
                    exit_code=2)
    assert ("season counts handicaps in its spardame events (the game of its first event): "
            "they come from spardame ratings, not dam-brade") in failed.stderr
    assert "Traceback" not in failed.stderr


def test_a_correction_changes_the_series_at_once(season, db_url):
    before = got(season("series", "standings", "season", "--json"))
    assert before[0] == (1, "Anna", 5.5)
    # ev1 corrected: Dag won, Anna last
    fixed = [("Dag", 1, 3), ("Bo", 2, 2), ("Cai", 3, 1), ("Anna", 4, 0)]
    correct(db_url, "ev1", fixed)
    after = got(season("series", "standings", "season", "--json"))
    assert after == reference({**RESULTS, "ev1": [fixed]}, best=2, min_events=2)
    assert after[0] == (1, "Bo", 5) and (2, "Anna", 3.5) in after
    assert (None, "Dag", 3) in after


def test_team_standings_by_club_and_declared(season):
    # the series: Anna 5.5, Bo 5 (Vasa); Cai 3, Eva 1.5 (Göta); Dag no club
    data = season("series", "standings", "season", "--teams", "club", "--json").json
    assert [(r["place"], r["team"], r["total"]) for r in data["standings"]] == [
        (1, "Vasa", 10.5), (2, "Göta", 4.5)]
    assert data["left_out"] == 1
    # what the standings count, as the command line says it (cli/series.py)
    said = season("series", "standings", "season", "--teams", "club").stderr
    assert ("season: teams by club; every player of a team counts; 1 player with no club "
            "left out") in said
    data = season("standings", "season", "--teams", "club", "--count", "1", "--json").json
    assert [(r["team"], r["total"]) for r in data["standings"]] == [("Vasa", 5.5), ("Göta", 3)]
    assert data["standings"][0]["not_counted"] == [{"player": "Bo", "points": 5}]
    # one event: its standings points (ev1: Anna 3, Bo 2, Cai 1)
    data = season("standings", "ev1", "--teams", "club", "--json").json
    assert data["event"] == "ev1"
    assert [(r["team"], r["total"]) for r in data["standings"]] == [("Vasa", 5), ("Göta", 1)]
    # declared teams
    season("team", "add", "season", "North", "Anna", "Cai")
    season("team", "add", "season", "South", "Bo", "Dag", "Eva")
    refused = season("team", "add", "season", "South", "Anna", exit_code=1)
    assert "North" in refused.stderr
    assert season("team", "list", "season", "--json").json == [
        {"team": "North", "players": ["Anna", "Cai"]},
        {"team": "South", "players": ["Bo", "Dag", "Eva"]}]
    rows = season("standings", "season", "--teams", "declared", "--json").json["standings"]
    assert [(r["team"], r["total"], r["players"]) for r in rows] == [
        ("North", 8.5, 2), ("South", 6.5, 3)]
    rows = season("series", "standings", "season", "--teams", "declared", "--count", "1",
                  "--json").json["standings"]
    assert [(r["team"], r["total"]) for r in rows] == [("North", 5.5), ("South", 5)]
    season("team", "remove", "season", "South", "Bo")
    rows = season("standings", "season", "--teams", "declared", "--json").json["standings"]
    assert [(r["team"], r["total"]) for r in rows] == [("North", 8.5), ("South", 1.5)]
    season("team", "remove", "season", "South")
    assert [t["team"] for t in season("team", "list", "season", "--json").json] == ["North"]
    # an event's own declared teams
    season("team", "add", "ev1", "Pair", "Anna", "Dag")
    rows = season("standings", "ev1", "--teams", "declared", "--json").json["standings"]
    assert [(r["team"], r["total"]) for r in rows] == [("Pair", 3)]
    text = season("standings", "ev1", "--teams", "club")
    assert text.stdout.splitlines()[1].split()[:3] == ["1", "Vasa", "5"]


def test_a_team_counts_players_not_qualified_and_says_so(season):
    """Dag played one event of the two --min-events asks: no place of his own, but his
    points count for his team, and the standings say how many such players count."""
    season("series", "set", "season", "--min-events", "2")
    season("team", "add", "season", "South", "Bo", "Dag")
    season("team", "add", "season", "North", "Anna", "Cai")
    data = season("standings", "season", "--teams", "declared", "--json").json
    south = next(r for r in data["standings"] if r["team"] == "South")
    assert {m["player"] for m in south["counted"]} == {"Bo", "Dag"}
    assert data["unqualified_counted"] == 1
    said = season("standings", "season", "--teams", "declared").stderr
    assert ("1 player counted not qualified yet (qualifying decides a player's own "
            "place only)") in said
    # no one short of the events asked: not said
    season("series", "set", "season", "--min-events", "0")
    assert season("standings", "season", "--teams", "declared",
                  "--json").json["unqualified_counted"] == 0
    assert "not qualified" not in season("standings", "season", "--teams", "declared").stderr


def test_spreadsheets(season, tmp_path):
    out = tmp_path / "season.csv"
    run = season("series", "standings", "season", "--out", str(out), "--json")
    assert run.json["file"] == str(out) and "wrote 5 players" in run.stderr
    with open(out, encoding="utf-8-sig", newline="") as stream:
        rows = list(csv.DictReader(stream))
    assert [r["player"] for r in rows] == ["Anna", "Bo", "Cai", "Eva", "Dag"]
    # one precision for every points column (the 2.5's)
    assert rows[0]["ev2"] == "1.0" and rows[0]["dropped"] == "ev2" and rows[0]["total"] == "5.5"
    assert rows[4]["place"] == "" and rows[4]["qualified"] == "no" and rows[4]["ev2"] == ""
    # never overwrites without --yes
    season("series", "standings", "season", "--out", str(out), exit_code=2)
    xlsx = tmp_path / "teams.xlsx"
    season("series", "standings", "season", "--teams", "club", "--out", str(xlsx))
    sheet = openpyxl.load_workbook(xlsx).active
    values = list(sheet.iter_rows(values_only=True))
    assert values[0][:3] == ("place", "team", "total")
    assert values[1][:3] == (1, "Vasa", 10.5)
    xlsx = tmp_path / "season.xlsx"
    season("series", "standings", "season", "--out", str(xlsx))
    values = list(openpyxl.load_workbook(xlsx).active.iter_rows(values_only=True))
    assert values[1][:2] == (1, "Anna") and 5.5 in values[1]


def test_removing_an_event_says_how_the_standings_change(season):
    """Taking ev3 out drops Anna's 2.5 and Eva's 1.5 (Eva, one event left, no longer
    qualifies): the command says so, and --json has it as data."""
    run = season("series", "remove", "season", "ev3")
    assert ("warning: taking ev3 out changes the standings: 2 of 5 players have another "
            "total; places: Bo 2 → 1, Anna 1 → 2, Eva 4 → –") in run.stderr.splitlines()
    season("series", "add", "season", "ev3")
    [warning] = season("series", "remove", "season", "ev3", "--json").json["details"][
        "warnings"]
    assert {k: v for k, v in warning.items() if k != "message"} == {
        "warning": "standings-changed", "events": ["ev3"], "players": 5, "totals": 2,
        "moved": [["Bo", 2, 1], ["Anna", 1, 2], ["Eva", 4, None]], "moved_count": 3}
    # an event nobody's result comes from changes nothing: no warning
    season("event", "create", "ev4", "--variant", "spardame")
    season("series", "add", "season", "ev4")
    assert "warning" not in season("series", "remove", "season", "ev4").stderr


def test_removing_the_first_event_says_the_handicaps_game_changed(season):
    """ev1 and ev2 are spardame, ev3 dam-brade: taking the first two out makes ev3
    the first event, and the handicaps (spardame's) are dam-brade's now. Eva's 1
    moves from her ev2 to her ev3: the standings-changed warning shows the effect,
    the handicap-game-changed warning before it says the cause. Without handicaps,
    or with the first event's game unchanged, nothing is said of it."""
    plain = season("series", "remove", "season", "ev1", "ev2", "--json").json
    assert [w["warning"] for w in plain["details"]["warnings"]] == ["standings-changed"]
    season("series", "add", "season", "ev1", "ev2")  # after ev3: ev3 first, dam-brade
    season("series", "set", "season", "--handicap")
    season("series", "handicap", "season", "Eva", "1")
    season("series", "remove", "season", "ev3")
    season("series", "add", "season", "ev3")  # ev1, ev2, ev3 again: spardame first
    unchanged = season("series", "remove", "season", "ev1", "--json").json
    assert "handicap-game-changed" not in [w["warning"] for w in
                                           unchanged["details"]["warnings"]]
    season("series", "add", "season", "ev1")  # ev2, ev3, ev1: spardame first
    run = season("series", "remove", "season", "ev2", "ev1", "--json")
    cause, effect = run.json["details"]["warnings"]
    assert {k: v for k, v in cause.items() if k != "message"} == {
        "warning": "handicap-game-changed", "events": ["ev2", "ev1"],
        "before": "spardame", "after": "dam-brade", "first": "ev3"}
    assert effect["warning"] == "standings-changed"
    assert run.stderr.splitlines()[-2] == (
        "warning: taking ev2 and ev1 out changes the game the handicaps are for from "
        "spardame to dam-brade, the game of ev3, now the series' first event: the "
        "handicaps now add to dam-brade results only")
    eva = next(r for r in season("series", "standings", "season", "--json").json["standings"]
               if r["player"] == "Eva")
    assert eva["events"]["ev3"] == {"place": 2, "points": 1.5, "counted": True, "net": 2.5}


def test_show_list_set_remove_delete(season):
    shown = season("series", "show", "season", "--json").json
    assert shown["best"] == 2 and shown["min_events"] == 2 and shown["scoring"] == "points"
    assert [e["slug"] for e in shown["events"]] == ["ev1", "ev2", "ev3"]
    assert "best 2 events count" in season("series", "show", "season").stdout
    listed = season("series", "list", "--json").json
    assert [(s["slug"], s["events"]) for s in listed] == [("season", 3)]
    same = season("series", "set", "season", "--best", "2", "--json").json
    assert same["changed"] is False
    changed = season("series", "set", "season", "--best", "1", "--json").json
    assert changed["details"]["changes"] == {"best": {"before": 2, "after": 1}}
    removed = season("series", "remove", "season", "ev3", "--json").json
    assert removed["details"]["removed"] == ["ev3"] and removed["changed"] is True
    # without ev3, the best one counts: Anna 3 (of 3, 1), Bo 3 (of 2, 3): Bo's second
    # best decides (countback)
    rows = season("series", "standings", "season", "--json").json["standings"]
    assert [(r["player"], r["total"], r["decided_by"]) for r in rows[:2]] == [
        ("Bo", 3, None), ("Anna", 3, "countback")]
    season("series", "add", "season", "ev3")
    assert [e["slug"] for e in season("series", "show", "season", "--json").json["events"]] \
        == ["ev1", "ev2", "ev3"]
    actions = [e["action"] for e in season("log", "--json").json]
    for action in ("series.create", "series.add", "series.set", "series.remove"):
        assert action in actions
    season("team", "add", "season", "North", "Anna")
    season("series", "handicap", "season", "Anna", "2")
    deleted = season("series", "delete", "season", "--yes", "--json").json
    assert deleted["details"]["events"] == ["ev1", "ev2", "ev3"]
    assert season("series", "list", "--json").json == []
    assert len(season("event", "list", "--json").json) == 3  # the events stay


def test_deleting_an_event_takes_it_out_of_the_series(season):
    season("event", "create", "ev4", "--variant", "spardame")
    season("series", "add", "season", "ev4")
    season("team", "add", "ev4", "Solo", "Anna")
    season("event", "delete", "ev4", "--yes")
    assert [e["slug"] for e in season("series", "show", "season", "--json").json["events"]] \
        == ["ev1", "ev2", "ev3"]


def test_slugs_of_series_and_events_never_collide(season):
    failed = season("series", "create", "ev1", exit_code=1)
    assert "event" in failed.stderr
    failed = season("event", "create", "season", "--variant", "spardame", exit_code=1)
    assert "series" in failed.stderr
    # `tourney standings SERIES` shows the series
    assert got(season("standings", "season", "--json"))[0] == (1, "Anna", 5.5)


@pytest.mark.parametrize("args,code,words", [
    (("series", "standings", "nope"), 2, "unknown series 'nope'"),
    (("series", "standings", "seasn"), 2, "did you mean season"),
    (("series", "create", "Bad Slug"), 2, "lower-case"),
    (("series", "create", "s2", "--placing-points", "25,x"), 2, "--scoring"),
    (("series", "create", "s2", "--scoring", "placing", "--placing-points", "25,x"), 2,
     "--placing-points"),
    (("series", "create", "s2", "--scoring", "placing", "--placing-points", "25,-1"), 2,
     "--placing-points"),
    (("series", "create", "season"), 1, "already"),
    (("series", "add", "season", "nope"), 2, "unknown event 'nope'"),
    (("series", "handicap", "season", "Nobody", "1"), 2, "Nobody"),
    (("series", "handicap", "season", "Anna", "lots"), 2, "not 'lots'"),
    (("series", "handicap", "season", "Anna"), 2, "VALUE"),
    (("series", "handicap", "season", "Anna", "1e9"), 2, "the handicap VALUE takes"),
    (("series", "standings", "season", "--count", "2"), 2, "--teams"),
    (("standings", "ev1", "--round", "1", "--teams", "club"), 2, "--round"),
    (("team", "add", "nope", "T", "Anna"), 2, "unknown event or series"),
    (("team", "remove", "season", "Nope"), 2, "unknown team"),
    (("series", "set", "season", "--placing-points", "3,2"), 2, "--scoring"),
])
def test_bad_input_is_a_clear_error(season, args, code, words):
    run = season(*args, "--json", exit_code=code)
    assert words in run.stderr
    assert run.json["exit_code"] == code
    assert "Traceback" not in run.stderr


def snapshot(db_url):
    engine = open_engine(db_url)
    with Session(engine) as session:
        counts = [session.execute(select(func.count()).select_from(model)).scalar()
                  for model in (AuditLog, Series, SeriesEvent, SeriesHandicap, Team, TeamMember)]
        settings = session.execute(select(Series.best, Series.min_events, Series.scoring,
                                          Series.handicap)).all()
    engine.dispose()
    return counts, settings


def test_read_commands_change_nothing(season, db_url, tmp_path):
    season("team", "add", "season", "North", "Anna")
    season("series", "handicap", "season", "Anna", "1")
    before = snapshot(db_url)
    for args in (("series", "standings", "season"), ("series", "standings", "season", "--json"),
                 ("series", "standings", "season", "--teams", "club"),
                 ("series", "show", "season"), ("series", "list"), ("series", "handicap", "season"),
                 ("team", "list", "season"), ("standings", "ev1", "--teams", "declared"),
                 ("standings", "season")):
        season(*args)
    season("series", "standings", "season", "--out", str(tmp_path / "s.xlsx"))
    assert snapshot(db_url) == before


def test_every_series_command_answers_json(season):
    """Changing commands answer in the one shape; the read ones in JSON."""
    for args in (("series", "create", "s2", "--scoring", "placing"),
                 ("series", "add", "s2", "ev1"), ("series", "remove", "s2", "ev1"),
                 ("series", "set", "s2", "--name", "Two"),
                 ("series", "handicap", "s2", "Anna", "1"),
                 ("team", "add", "s2", "T", "Anna"), ("team", "remove", "s2", "T"),
                 ("series", "delete", "s2", "--yes")):
        data = season(*args, "--json").json
        assert set(data) == {"action", "changed", "summary", "details"}, args
        assert data["action"] == f"{args[0]}.{args[1]}"
    created = json.loads(season("series", "create", "s3", "--scoring", "placing", "--json")
                         .stdout)
    assert created["details"]["placing_points"] == [25, 18, 15, 12, 10, 8, 6, 4, 2, 1]


def test_handicap_help_points_to_the_rule_where_it_is(tourney):
    text = " ".join(tourney("series", "handicap", "--help").stdout.split())
    rule = text.index("--from-rating sets each entrant's handicap to FACTOR x")
    option = text.index("Derive every entrant's handicap from their rating")
    # the option's help names the rule as above it, where --help prints it
    assert rule < option and "(the rule above)" in text[option:]


def test_handicap_of_a_misspelled_player_says_did_you_mean(season):
    for args in (["1"], ["--undo"]):
        refused = season("series", "handicap", "season", "Anan", *args, exit_code=2)
        assert "unknown player 'Anan' (did you mean 'Anna'?)" in refused.stderr


def test_a_series_given_as_an_event_is_said_to_be_a_series(season):
    season("series", "create", "other")
    for verb in ("add", "remove"):
        for slug in ("season", "other"):
            refused = season("series", verb, "season", slug, exit_code=2)
            assert f"'{slug}' is a series, not an event" in refused.stderr
    # an unknown slug is still an unknown event
    assert "unknown event 'nope'" in season("series", "add", "season", "nope",
                                            exit_code=2).stderr


def test_a_handicap_value_that_is_no_number_of_points_names_the_value(season):
    """`series handicap S P nan` blames the VALUE given, not the series' --handicap
    flag; removing a handicap says it was removed, not "handicap none"."""
    for bad in ("nan", "1e9"):
        said = season("series", "handicap", "season", "Bo", bad, exit_code=2).stderr
        assert "the handicap VALUE takes points from -" in said and f"not {float(bad)}" in said
        assert "--handicap" not in said
    season("series", "handicap", "season", "Bo", "1")
    removed = season("series", "handicap", "season", "Bo", "--undo")
    assert "season: Bo's handicap removed (was 1)" in removed.stderr, removed.stderr
    assert "none" not in removed.stderr


def test_team_standings_read_their_numbers_with_one_number_of_decimals(capsys):
    """A team of 21.6 and 1 totalling 22.6 beside one of 20.25: every number of the
    table with two decimals (22.60, 21.60, 1.00, 20.25), as the series' columns read,
    not each its own ("22.6", "1")."""
    from fractions import Fraction

    from tourney.cli.series import _emit_teams
    from tourney.tournament.season import TeamRow
    from tourney.tournament.teams import TeamStandings

    rows = [TeamRow("Vasa", 1, False, Fraction("22.6"),
                    [("Anna", Fraction("21.6")), ("Bo", Fraction(1))], []),
            TeamRow("Ystad", 2, False, Fraction("20.25"), [("Cai", Fraction("20.25"))], [])]
    _emit_teams(TeamStandings("season", "series", "club", None, rows, 0),
                format_=None, out=None, as_json=False)
    shown = capsys.readouterr().out
    assert "22.60" in shown and "Anna 21.60, Bo 1.00" in shown and "Cai 20.25" in shown
    assert "22.6 " not in shown and "Bo 1\n" not in shown and "Bo 1 " not in shown


def test_placing_points_that_grow_with_the_place_are_refused(season, db_url):
    """--placing-points 10,20 gives the second more than the winner: refused,
    naming the place, with the series unchanged; equal points for places next to
    each other are fine. The refusal is typed, its words said in each language."""
    from tourney.errors import InvalidValue
    from tourney.reports.i18n import translations
    from tourney.tournament.series import parse_placing

    before = snapshot(db_url)
    said = season("series", "set", "season", "--scoring", "placing", "--placing-points",
                  "10,20", exit_code=2).stderr
    assert ("--placing-points takes points that never grow with the place (place 2 would "
            "get more than place 1), not '10,20'") in said, said
    assert snapshot(db_url) == before
    season("series", "set", "season", "--scoring", "placing", "--placing-points", "10,6,6,1")
    try:
        parse_placing("25,18,20")
    except InvalidValue as err:
        words = err.words.params["allowed"]
    assert words.params == {"place": 3, "before": 2}
    for lang in ("sv", "nb", "fi"):
        assert translations(lang).gettext(words.msgid) != words.msgid, lang


def test_standings_of_an_unknown_slug_suggest_events_and_series(season):
    """`tourney standings SLUG` shows an event or a series: a misspelt slug is an
    unknown event or series, the series among the suggestions; a series with
    --round (a series has no rounds) is said to be a series, not an unknown event."""
    refused = season("standings", "seasn", exit_code=2)
    assert "unknown event or series 'seasn' (did you mean season" in refused.stderr
    refused = season("standings", "ev", "--round", "1", exit_code=2)
    assert "unknown event or series 'ev' (did you mean " in refused.stderr
    assert "ev1" in refused.stderr
    refused = season("standings", "season", "--round", "1", "--json", exit_code=2)
    assert "'season' is a series" in refused.stderr and "unknown event" not in refused.stderr
    assert "tourney series standings season" in refused.stderr
    assert refused.json["exit_code"] == 2 and "Traceback" not in refused.stderr


def test_a_series_named_where_an_event_is_wanted_is_said_to_be_a_series(season):
    """Commands of one event (`player links`, `event show`, `round seat`, ...) given a
    series' slug say it is a series, not "unknown event 'season' (did you mean ...)"
    of an event that merely looks alike."""
    for command in (["player", "links", "season"], ["event", "show", "season"],
                    ["round", "seat", "season"], ["result", "export", "season"]):
        refused = season(*command, "--json", exit_code=2)
        assert "'season' is a series, not an event" in refused.stderr, command
        assert "unknown event" not in refused.stderr and refused.json["exit_code"] == 2
    # a slug that is neither is still an unknown event, with its suggestions
    assert "unknown event 'ev5' (did you mean " in season("event", "show", "ev5",
                                                          exit_code=2).stderr


def test_lang_sorts_the_names_of_series_standings_and_team_commands(season):
    """Örn and Zebra level on 3 (Cai's 3; Eva's 1.5 with a handicap of 1.5 on her
    spardame night) share a place and are listed by name: --lang sv on an English
    terminal puts Ö after Z, --lang en with O; without --lang the terminal's
    language sorts. `team list` and the players of a team removed whole sort alike."""
    season("series", "set", "season", "--handicap")
    season("series", "handicap", "season", "Eva", "1.5")
    season("team", "add", "season", "Zebra", "Eva")
    season("team", "add", "season", "Örn", "Cai")

    def teams(*args, env):
        run = season("series", "standings", "season", "--teams", "declared", "--json", *args,
                     env=env)
        return [(t["team"], t["total"], t["shared"]) for t in run.json["standings"]]

    english, swedish = {"LC_ALL": "en_US.UTF-8"}, {"LC_ALL": "sv_SE.UTF-8"}
    assert teams("--lang", "sv", env=english) == [("Zebra", 3, True), ("Örn", 3, True)]
    assert teams(env=swedish) == teams("--lang", "fi", env=english) == [
        ("Zebra", 3, True), ("Örn", 3, True)]
    assert teams("--lang", "en", env=swedish) == [("Örn", 3, True), ("Zebra", 3, True)]
    assert [t["team"] for t in season("team", "list", "season", "--lang", "sv", "--json",
                                      env=english).json] == ["Zebra", "Örn"]
    assert [t["team"] for t in season("team", "list", "season", "--lang", "en", "--json",
                                      env=swedish).json] == ["Örn", "Zebra"]
    season("player", "add", "Åsa", "Ödd")
    season("team", "add", "season", "Zebra", "Åsa", "Ödd")
    assert season("team", "list", "season", "--lang", "nb", "--json", env=english).json[0][
        "players"] == ["Eva", "Ödd", "Åsa"]
    removed = season("team", "remove", "season", "Zebra", "--lang", "sv", "--json",
                     env=english).json
    assert removed["details"]["removed"] == ["Eva", "Åsa", "Ödd"]
