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
    assert info["actor"] and "--cancel 1" in done.stderr
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
    removed = tourney("result", "adjust", "ev", "--cancel", "1", "--json").json
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
    # as a person types a number: "1e3" is a typo as often as a thousand, and 0.0001
    # would show as +0 points
    for typo in ("1e3", "0.0001", "inf", "1.5.2", "--"):
        refused = tourney("result", "adjust", "ev", "Ann", "--points", typo, "--reason", "x",
                          exit_code=2)
        assert "not a number like -1 or 0.5 (at most 2 decimals)" in refused.stderr, typo
    tourney("result", "adjust", "ev", "Ann", "--points", "1001", "--reason", "x", exit_code=2)
    tourney("result", "adjust", "ev", "Ann", "--points", "1", "--reason", "x", "--round", "5",
            exit_code=2)
    tourney("result", "adjust", "ev", "Nobody", "--points", "1", "--reason", "x", exit_code=2)
    tourney("result", "adjust", "ev", "--cancel", "9", exit_code=2)
    tourney("result", "adjust", "ev", "Ann", exit_code=2)
    assert tourney("result", "adjust", "ev", "--list", "--json").json == []
    # a comma and the minus sign are as good as a point and a hyphen
    done = tourney("result", "adjust", "ev", "Ann", "--points", "\u22121,25", "--reason", "x",
                   "--json")
    assert done.json["details"]["points"] == -1.25


def test_the_library_refuses_an_adjustment_finer_than_shown(tourney, db_url):
    """0.0001 points would be shown as +0 beside the standings: refused with its
    typed words, whatever the caller."""
    import pytest

    from tourney.errors import UsageError
    from tourney.storage.db import open_engine, transaction
    from tourney.tournament.events import get_event
    from tourney.tournament.forfeits import adjust_points

    setup(tourney)
    with transaction(open_engine(db_url)) as session, pytest.raises(UsageError) as refused:
        adjust_points(session, get_event(session, "ev"), "Ann", 0.0001, "x")
    assert refused.value.words.params["decimals"] == 2
    assert "with at most 2 decimals, not 0.0001" in str(refused.value)


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
