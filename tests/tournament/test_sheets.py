"""Score-sheet templates: `round sheet` -> filled -> import -> export (issue: club
nights without move records)."""
import csv
import io
import json

from tourney.records.csv_format import read_records_text


def seat_event(tourney, variant="spardame", rules=("deals=2",), players=8):
    names = [f"P{i}" for i in range(1, players + 1)]
    tourney("player", "add", *names)
    args = ["event", "create", "club", "--variant", variant]
    for r in rules:
        args += ["--rule", r]
    tourney(*args)
    tourney("event", "enter", "club", *names)
    return tourney("round", "seat", "club", "--json").json


def fill(template: str, scores_for) -> str:
    rows = list(csv.DictReader(io.StringIO(template)))
    for row in rows:
        row["scores"] = scores_for(row)
    out = io.StringIO()
    writer = csv.DictWriter(out, fieldnames=list(rows[0]), lineterminator="\n")
    writer.writeheader()
    writer.writerows(rows)
    return out.getvalue()


def template_rows(text: str) -> list[dict]:
    """The template's rows as written (the record reader skips unfilled rows)."""
    return list(csv.DictReader(io.StringIO(text)))


def test_template_rows_follow_the_seating_and_the_dealer_rule(tourney):
    seating = seat_event(tourney)
    rows_all = template_rows(tourney("round", "sheet", "club", "1").stdout)
    assert len(rows_all) == 2 * len(seating["tables"])
    assert not read_records_text(tourney("round", "sheet", "club", "1").stdout)  # all unfilled
    for table in seating["tables"]:
        rows = [r for r in rows_all if r["table"] == table["table"]]
        assert [r["deal"] for r in rows] == ["1", "2"]
        assert all(r["players"].split(";") == table["seats"] for r in rows)
        assert rows[0]["dealer"] == table["dealer"] == table["seats"][0]
        assert rows[1]["dealer"] == table["seats"][1]  # clockwise
        assert all(r["scores"] == "" and r["play"] == "" for r in rows)


def test_filled_sheet_imports_exports_and_reimports_unchanged(tourney, run_cli, tmp_path):
    seat_event(tourney)
    template = tourney("round", "sheet", "club", "1").stdout
    pattern = {"1": "100;40;50;50", "2": "0;100;100;100"}
    path = tmp_path / "filled.csv"
    path.write_text(fill(template, lambda row: pattern[row["deal"]]))
    report = tourney("result", "import", str(path), "--json").json["details"]
    assert report["added"] == 2 and report["rejected"] == 0
    exported = tourney("result", "export", "club").stdout
    records = read_records_text(exported)
    assert {";".join(r.scores) for r in records} == set(pattern.values())
    again = tmp_path / "again.csv"
    again.write_text(exported)
    assert tourney("result", "import", str(again), "--json").json["details"]["unchanged"] == 2
    # validate marks them as score sheets
    lines = [json.loads(x) for x in
             run_cli(None, "validate", str(again), "--json").stdout.splitlines()]
    assert {x["verified"] for x in lines if x["kind"] == "deal"} == {"scores"}
    # every player ends with a place: P-totals 100+0, 40+100, 50+100, 50+100
    standings = tourney("standings", "club", "--json").json
    assert len(standings) == 8


def test_an_impossible_sheet_is_rejected_with_the_reason(tourney, tmp_path):
    seat_event(tourney)
    template = tourney("round", "sheet", "club", "1").stdout
    path = tmp_path / "bad.csv"
    path.write_text(fill(template, lambda row: "100;40;50;40"))  # totals 230
    result = tourney("result", "import", str(path), exit_code=1)
    assert "230" in result.stderr and "240" in result.stderr and "scores" in result.stderr


def test_checkers_sheet_alternates_colours(tourney):
    seat_event(tourney, variant="dam-brade", rules=("games=2",), players=4)
    first, second = template_rows(tourney("round", "sheet", "club", "1").stdout)[:2]
    assert second["players"].split(";") == list(reversed(first["players"].split(";")))
    assert first["dealer"] == "" and second["dealer"] == ""


def test_unfilled_rows_of_an_open_ended_match_are_skipped(tourney, tmp_path):
    seat_event(tourney, variant="dam-stick", rules=("target=30",), players=8)
    template = tourney("round", "sheet", "club", "1", "--deals", "4").stdout
    scores = {"1": "0;25;0;0", "2": "0;10;5;10"}  # 35 reaches 30; 0 is alone lowest
    path = tmp_path / "filled.csv"
    path.write_text(fill(template, lambda row: scores.get(row["deal"], "")))
    result = tourney("result", "import", str(path))
    assert "added: 2 matches" in result.stderr
    assert "skipped 4 empty score-sheet rows" in result.stderr


def test_an_endless_match_is_refused_with_bounded_rows(tourney, tmp_path):
    from tourney.records.validation import MAX_DEALS_PER_MATCH

    seat_event(tourney, rules=(), players=4)
    import csv
    import io

    # The sheet itself stops at the bound; the scorer adds five more rows.
    template = tourney("round", "sheet", "club", "1", "--deals", str(MAX_DEALS_PER_MATCH)).stdout
    rows = list(csv.DictReader(io.StringIO(template)))
    for extra in range(1, 6):
        rows.append(dict(rows[-1], deal=str(MAX_DEALS_PER_MATCH + extra)))
    out = io.StringIO()
    writer = csv.DictWriter(out, fieldnames=list(rows[0]), lineterminator="\n")
    writer.writeheader()
    writer.writerows(rows)
    template = out.getvalue()
    path = tmp_path / "endless.csv"
    path.write_text(fill(template, lambda row: "240;0;0;0"))
    result = tourney("result", "import", str(path), exit_code=1)
    assert "more than 1000 deals" in result.stderr and "match-too-long" in result.stderr
    assert tourney("standings", "club", "--json").json[0]["points"] == 0


def test_a_match_may_mix_full_records_and_score_sheet_deals(tourney, run_cli, tmp_path):
    import random

    from tourney.engines import get_game
    from tourney.records.csv_format import write_records
    from tourney.simulation import simulate_match

    seating = seat_event(tourney)
    game = get_game("spardame")
    options = game.resolve_options({"deals": "2"})
    records = []
    for table in seating["tables"]:
        records += simulate_match(game, options, table["seats"], random.Random(7), event="club",
                                  round_number=1, table=table["table"])
    for record in records:
        if record.deal == 2:  # the second deal of every match comes from a score sheet
            record.play, record.hands, record.stock, record.passes = [], None, None, None
    path = tmp_path / "mixed.csv"
    with open(path, "w", newline="") as stream:
        write_records(stream, records)
    lines = [json.loads(x) for x in run_cli(None, "validate", str(path), "--rule", "deals=2",
                                           "--json").stdout.splitlines()]
    assert [x["verified"] for x in lines if x["kind"] == "deal"] == ["moves", "scores"] * len(
        seating["tables"])
    assert tourney("result", "import", str(path), "--json").json["details"]["added"] == len(seating["tables"])
    exported = tmp_path / "exported.csv"
    exported.write_text(tourney("result", "export", "club").stdout)
    assert tourney("result", "import", str(exported), "--json").json["details"]["unchanged"] == len(
        seating["tables"])
    site = tmp_path / "site"
    tourney("publish", "--out", str(site))
    player_page = next((site / "players").glob("*.html")).read_text()
    assert "Results checked move by move: 0 of 1" in player_page
    assert "partly score sheet" in player_page


def test_rounds_evicted_from_the_import_cache_are_read_again(tourney, tmp_path, monkeypatch):
    """A season file walks through many rounds; the importer keeps only the latest
    few in memory. Re-reading an evicted round must give the same answers."""
    from tourney.tournament import stored_rounds

    monkeypatch.setattr(stored_rounds, "ROUNDS_CACHED", 1)
    seat_event(tourney, rules=("deals=1",), players=4)
    for _ in range(2):
        tourney("round", "seat", "club", "--force")
    rows = []
    for number in (1, 2, 3):
        rows += template_rows(tourney("round", "sheet", "club", str(number)).stdout)
    for row in rows:
        row["scores"] = "100;140;0;0"
    path = tmp_path / "season.csv"
    with open(path, "w", newline="") as stream:
        writer = csv.DictWriter(stream, fieldnames=list(rows[0]), lineterminator="\n")
        writer.writeheader()
        writer.writerows(rows)
    assert tourney("result", "import", str(path), "--json").json["details"]["added"] == 3
    assert tourney("result", "import", str(path), "--json").json["details"]["unchanged"] == 3
    rows[0]["scores"] = "140;100;0;0"
    with open(path, "w", newline="") as stream:
        writer = csv.DictWriter(stream, fieldnames=list(rows[0]), lineterminator="\n")
        writer.writeheader()
        writer.writerows(rows)
    tourney("result", "import", str(path), exit_code=1)
    report = tourney("result", "import", str(path), "--replace", "--json").json["details"]
    assert (report["replaced"], report["unchanged"]) == (1, 2)
