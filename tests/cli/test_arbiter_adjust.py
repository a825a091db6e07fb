"""`tourney result adjust` (issue 31): points with a reason, in the standings (JSON,
terminal, CSV/XLSX), reversible, never in a rating."""
import csv
import io

from arbiter_helpers import add_result, setup, tables
from openpyxl import load_workbook


def points(tourney, *args):
    return {r["player"]: r for r in tourney("standings", "ev", *args, "--json").json}


def test_an_adjustment_moves_the_points_with_its_reason(tourney, db_url, tmp_path):
    setup(tourney)
    tourney("round", "seat", "ev")
    for label in tables(tourney)[0]:
        add_result(db_url, 1, label)
    tourney("round", "seat", "ev")
    before = points(tourney)
    tourney("rating", "recompute")  # the results above were stored without rating
    ratings_before = tourney("rating", "show", "--json").json
    assert ratings_before
    done = tourney("result", "adjust", "ev", "Ann", "--points", "-1.5", "--reason",
                   "slow play", "--round", "2", "--json")
    info = done.json["details"]
    assert done.json["action"] == "result.adjust"
    assert (info["player"], info["points"], info["reason"], info["round"]) == (
        "Ann", -1.5, "slow play", 2)
    assert info["actor"] and "--remove 1" in done.stderr
    tourney("result", "adjust", "ev", "Bo", "--points", "0.5", "--reason", "bonus")
    after = points(tourney)
    assert after["Ann"]["points"] == before["Ann"]["points"] - 1.5
    assert after["Bo"]["points"] == before["Bo"]["points"] + 0.5
    assert after["Ann"]["adjustments"] == [
        {"id": 1, "points": -1.5, "reason": "slow play", "round": 2}]
    assert after["Ann"]["tiebreaks"] == before["Ann"]["tiebreaks"]
    # after round 1 the round-2 penalty is left out; the whole-event bonus counts
    early = points(tourney, "--round", "1")
    assert early["Ann"]["adjustments"] == [] and len(early["Bo"]["adjustments"]) == 1
    text = tourney("standings", "ev").stdout
    assert "slow play (round 2, #1): -1.5" in text and "bonus (#2): +0.5" in text
    rows = list(csv.DictReader(io.StringIO(
        tourney("standings", "ev", "--format", "csv").stdout.lstrip("\ufeff"))))
    assert {r["player"]: r["adjustments"] for r in rows}["Ann"] == "slow play (round 2, #1): -1.5"
    out = tmp_path / "standings.xlsx"
    tourney("standings", "ev", "--out", str(out))
    sheet = load_workbook(out).active
    header = [c.value for c in sheet[1]]
    column = header.index("adjustments")
    cells = {row[1].value: row[column].value for row in sheet.iter_rows(min_row=2)}
    assert cells["Bo"] == "bonus (#2): +0.5"
    # ratings are the matches': untouched
    assert tourney("rating", "show", "--json").json == ratings_before
    listed = tourney("result", "adjust", "ev", "--list", "--json").json
    assert [a["id"] for a in listed] == [1, 2]
    removed = tourney("result", "adjust", "ev", "--remove", "1", "--json").json
    assert removed["action"] == "result.adjust.remove"
    assert points(tourney)["Ann"]["points"] == before["Ann"]["points"]
    actions = [c["action"] for c in tourney("log", "--json").json]
    assert actions.count("result.adjust") == 2 and "result.adjust.remove" in actions


def test_bad_adjustments_are_refused(tourney):
    setup(tourney)
    tourney("round", "seat", "ev")
    no_reason = tourney("result", "adjust", "ev", "Ann", "--points", "1", "--json",
                        exit_code=2)
    assert no_reason.json["setting"] == "--reason"
    tourney("result", "adjust", "ev", "Ann", "--points", "0", "--reason", "x", exit_code=2)
    tourney("result", "adjust", "ev", "Ann", "--points", "nan", "--reason", "x", exit_code=2)
    tourney("result", "adjust", "ev", "Ann", "--points", "1e9", "--reason", "x", exit_code=2)
    tourney("result", "adjust", "ev", "Ann", "--points", "1", "--reason", "x", "--round", "5",
            exit_code=2)
    tourney("result", "adjust", "ev", "Nobody", "--points", "1", "--reason", "x", exit_code=2)
    tourney("result", "adjust", "ev", "--remove", "9", exit_code=2)
    tourney("result", "adjust", "ev", "Ann", exit_code=2)
    assert tourney("result", "adjust", "ev", "--list", "--json").json == []


def test_the_published_standings_show_adjustments_and_forfeits(tourney, db_url, tmp_path):
    import json

    setup(tourney)
    tourney("round", "seat", "ev")
    seated, _ = tables(tourney)
    add_result(db_url, 1, "1")
    absent = seated["2"][0]
    tourney("result", "forfeit", "ev", "1", "2", "--absent", absent)
    tourney("result", "adjust", "ev", "Ann", "--points", "-1", "--reason", "<b>late</b>",
            "--round", "1")
    site = tmp_path / "site"
    tourney("publish", "--out", str(site))
    page = (site / "events" / "ev" / "index.html").read_text(encoding="utf-8")
    assert "Points adjusted by the arbiter" in page
    assert "<bdi>Ann</bdi></a>: &lt;b&gt;late&lt;/b&gt; (round 1): -1</li>" in page
    data = json.loads((site / "events" / "ev" / "standings.json").read_text())
    rows = {r["name"]: r for r in data["standings"]}
    assert rows["Ann"]["adjustments"] == [{"id": 1, "points": -1, "reason": "<b>late</b>",
                                           "round": 1}]
    assert rows[absent]["forfeits"] == 1
    assert all(rows[n]["forfeit_wins"] == 1 for n in seated["2"] if n != absent)
