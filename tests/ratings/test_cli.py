"""`tourney rating ...` on every backend, and ratings kept in step by the importer."""
from __future__ import annotations

import csv
import datetime as dt
import random

import pytest
import simulated_rounds
from rating_helpers import add_event, add_match, add_players, make_engine

from tourney.ratings.service import refresh_after_results
from tourney.storage.db import transaction

VARIANT = "dam-stick"


@pytest.fixture
def rated(db_url):
    """Eight players, four rounds of two tables, and a newcomer with one match."""
    engine = make_engine(db_url)
    rng = random.Random(11)
    with transaction(engine) as session:
        ids = add_players(session, ["Åsa Öberg", "Björn", "Cilla", "Dag", "Eva", "Finn",
                                    "Gun", "Hans", "Newcomer", "Unrated"])
        regulars = [ids[n] for n in list(ids)[:8]]
        event = add_event(session, "club-1", variant=VARIANT, date=dt.date(2024, 5, 11))
        for number in range(1, 6):
            rng.shuffle(regulars)
            for t in range(2):
                seats = regulars[4 * t:4 * t + 4]
                places = [1, 2, 2, 4] if (number, t) == (1, 0) else [1, 2, 3, 4]
                add_match(session, event, number, str(t + 1), list(zip(seats, places)))
        later = add_event(session, "club-2", variant=VARIANT, date=dt.date(2024, 6, 1))
        add_match(session, later, 1, "1", [(ids["Newcomer"], 1), (ids["Åsa Öberg"], 2)])
        refresh_after_results(session, VARIANT)
    return ids


def test_show_plain_and_json(tourney, rated):
    data = tourney("rating", "show", "--variant", VARIANT, "--json").json
    assert len(data) == 9
    for row in data:
        assert set(row) == {"rank", "player", "variant", "mu", "sigma", "ordinal",
                            "matches", "provisional"}
        assert row["variant"] == VARIANT
        assert row["ordinal"] == pytest.approx(row["mu"] - 3 * row["sigma"])
    # Everyone is ranked by ordinal; only the newcomer (one match: sigma still
    # high) is provisional, after a season of five matches nobody is.
    provisional = [r for r in data if r["provisional"]]
    assert [r["player"] for r in provisional] == ["Newcomer"]
    assert provisional[0]["matches"] == 1
    ordinals = [r["ordinal"] for r in data]
    assert ordinals == sorted(ordinals, reverse=True)
    asa = next(r for r in data if r["player"] == "Åsa Öberg")
    assert asa["matches"] == 6

    plain = tourney("rating", "show", "--variant", VARIANT)
    lines = plain.stdout.splitlines()
    assert lines[0].split() == ["#", "player", "mu", "sigma", "ordinal", "matches"]
    assert lines[1].split()[0] == "1" and lines[1].split()[1] == data[0]["player"]
    newcomer = next(line.split() for line in lines if "Newcomer" in line)
    rank = 1 + [r["player"] for r in data].index("Newcomer")
    assert newcomer[:2] == [f"{rank}*", "Newcomer"]
    assert f"{data[0]['ordinal']:.2f}" in lines[1]
    assert "provisional" in plain.stderr
    assert "Åsa Öberg" in plain.stdout


def test_show_as_csv_keeps_the_rank_a_number(tourney, rated):
    """--csv is read by programs: the rank a number, provisional a column of its own
    (the terminal's `2*` would be text in a spreadsheet and in sqlite-utils)."""
    data = tourney("rating", "show", "--variant", VARIANT, "--json").json
    rows = list(csv.DictReader(tourney("rating", "show", "--csv").stdout.splitlines()))
    assert list(rows[0]) == ["variant", "rank", "player", "mu", "sigma", "ordinal",
                             "matches", "provisional"]
    assert [row["rank"] for row in rows] == [str(n) for n in range(1, len(data) + 1)]
    assert [row["rank"] for row in rows] == [str(r["rank"]) for r in data]
    assert [row["player"] for row in rows] == [r["player"] for r in data]
    assert {row["player"]: row["provisional"] for row in rows} == {
        r["player"]: "yes" if r["provisional"] else "" for r in data}
    tsv = tourney("rating", "show", "--tsv").stdout.splitlines()
    assert tsv[0].split("\t")[1] == "rank" and "*" not in "".join(tsv)


def test_show_provisional_threshold(tourney, rated):
    data = tourney("rating", "show", "--variant", VARIANT, "--provisional", "6", "--json").json
    provisional = {r["player"] for r in data if r["provisional"]}
    assert provisional == {r["player"] for r in data if r["matches"] < 6}
    assert "Åsa Öberg" not in provisional and "Björn" in provisional
    tourney("rating", "pool", VARIANT, "--provisional", "5")
    data = tourney("rating", "show", "--json").json
    assert {r["player"] for r in data if r["provisional"]} == {"Newcomer"}
    tourney("rating", "pool", VARIANT, "--provisional", "6")
    data = tourney("rating", "show", "--json").json
    assert {r["player"] for r in data if r["provisional"]} == {
        r["player"] for r in data if r["matches"] < 6}


def test_show_every_pool_and_an_empty_one(tourney, rated):
    plain = tourney("rating", "show")
    assert plain.stdout.startswith(f"{VARIANT}:")
    empty = tourney("rating", "show", "--variant", "spardame")
    assert empty.stdout == "" and "no ratings yet" in empty.stderr
    assert tourney("rating", "show", "--variant", "spardame", "--json").json == []
    bad = tourney("rating", "show", "--variant", "chess", exit_code=2)
    assert "unknown variant 'chess'" in bad.stderr


def test_history(tourney, rated):
    data = tourney("rating", "history", "Åsa Öberg", "--json").json
    assert len(data) == 6
    assert [(r["event"], r["round"]) for r in data] == [("club-1", n) for n in range(1, 6)] + [
        ("club-2", 1)]
    assert data[-1]["players"] == 2 and data[-1]["place"] == 2
    assert data[0]["mu_before"] == 25.0 and data[0]["player"] == "Åsa Öberg"
    for earlier, later in zip(data, data[1:]):
        assert later["mu_before"] == earlier["mu_after"]
        assert later["sigma_before"] == earlier["sigma_after"]
    plain = tourney("rating", "history", "Åsa Öberg", "--variant", VARIANT).stdout.splitlines()
    assert plain[0].split()[:6] == ["variant", "date", "event", "round", "table", "place"]
    assert len(plain) == 7 and "2/2" in plain[-1] and "2024-06-01" in plain[-1]
    none = tourney("rating", "history", "Unrated")
    assert none.stdout == "" and "no rated matches" in none.stderr
    missing = tourney("rating", "history", "Nobody", exit_code=2)
    assert "unknown player 'Nobody'" in missing.stderr


def test_predict(tourney, rated):
    data = tourney("rating", "predict", "--variant", VARIANT, "Åsa Öberg", "Björn", "Unrated",
                   "--json").json
    assert data["variant"] == VARIANT and data["model"] == "PlackettLuce"
    players = data["players"]
    assert [p["player"] for p in players] == ["Åsa Öberg", "Björn", "Unrated"]
    assert sum(p["win_probability"] for p in players) == pytest.approx(1.0)
    assert players[2]["rated"] is False and players[2]["mu"] == 25.0
    assert sorted(p["predicted_rank"] for p in players)[0] == 1
    assert sum(p["expected_place"] for p in players) == pytest.approx(6.0)
    plain = tourney("rating", "predict", "--variant", VARIANT, "Åsa Öberg", "Unrated")
    assert "Unrated (unrated)" in plain.stdout and "%" in plain.stdout
    assert "PlackettLuce" in plain.stderr
    tourney("rating", "predict", "--variant", VARIANT, "Åsa Öberg", "Nobody", exit_code=2)
    tourney("rating", "predict", "--variant", VARIANT, "Björn", exit_code=2)
    tourney("rating", "predict", "Björn", "Cilla", exit_code=2)  # --variant is required
    tourney("player", "add", "Asa Oberg")
    tourney("player", "merge", "Åsa Öberg", "Asa Oberg", "--yes")
    twice = tourney("rating", "predict", "--variant", VARIANT, "Åsa Öberg", "Björn",
                    "Asa Oberg", exit_code=2)
    assert "'Åsa Öberg' and 'Asa Oberg' are one player (Åsa Öberg)" in twice.stderr
    again = tourney("rating", "predict", "--variant", VARIANT, "Björn", "Björn", exit_code=2)
    assert "'Björn' is named twice" in again.stderr


def test_pool_and_recompute(tourney, rated):
    before = tourney("rating", "show", "--json").json
    shown = tourney("rating", "pool", VARIANT, "--json").json
    assert shown["model"] == "PlackettLuce" and shown["matches"] == 11
    assert shown["params"]["tau"] == pytest.approx(25 / 300) and shown["recomputed"] is None
    changed = tourney("rating", "pool", VARIANT, "--model", "BradleyTerryFull",
                      "--param", "tau=0", "--json").json
    assert changed["action"] == "rating.pool" and changed["changed"] is True
    changed = changed["details"]
    assert changed["model"] == "BradleyTerryFull" and changed["params"]["tau"] == 0.0
    assert changed["recomputed"] == 11
    assert tourney("rating", "show", "--json").json != before
    plain = tourney("rating", "pool", VARIANT, "--reset-params", "--model", "PlackettLuce")
    assert "model: PlackettLuce" in plain.stdout and "recomputed" in plain.stderr
    assert tourney("rating", "show", "--json").json == before
    bad = tourney("rating", "pool", VARIANT, "--param", "margin=3", exit_code=2)
    assert "margin" in bad.stderr
    tourney("rating", "pool", VARIANT, "--model", "Elo", exit_code=2)

    result = tourney("rating", "recompute", "--json").json
    assert result["details"] == {"pools": [{"variant": VARIANT, "matches": 11,
                                            "changed": False}]}
    assert result["changed"] is False  # the same results give the same ratings
    assert tourney("rating", "show", "--json").json == before
    assert ("dam-stick: 11 matches rated, ratings unchanged"
            in tourney("rating", "recompute").stderr)


def test_recompute_says_changed_only_when_a_rating_changed(tourney, rated, db_url):
    from sqlalchemy import update

    from tourney.storage.models import Rating

    assert tourney("rating", "recompute", "--json").json["changed"] is False
    with transaction(make_engine(db_url)) as session:
        session.execute(update(Rating.__table__).values(mu=Rating.__table__.c.mu + 1))
    run = tourney("rating", "recompute", "--json")
    assert run.json["changed"] is True and "ratings changed" in run.json["summary"]
    assert run.json["details"]["pools"][0]["changed"] is True
    assert tourney("rating", "recompute", "--json").json["changed"] is False


def test_help_reads_like_documentation(run_cli):
    text = run_cli(None, "rating", "--help").stdout
    assert "mu - 3 sigma" in text and "Examples" in text
    for command in ("show", "history", "recompute", "predict", "pool"):
        assert "Example" in run_cli(None, "rating", command, "--help").stdout


# --------------------------------------------------- through the results importer

PLAYERS = ["Anna", "Bo", "Cilla", "Dag", "Eva", "Finn", "Gun", "Hans"]


def play_round(seating: dict, slug: str, seed: int, path) -> None:
    simulated_rounds.play_round(seating, slug, "spardame", {"deals": "2"}, seed, path)


def test_importer_keeps_ratings_in_step_with_corrections(tourney, tmp_path):
    players = tmp_path / "players.csv"
    with open(players, "w", encoding="utf-8", newline="") as stream:
        csv.writer(stream).writerows([["name"]] + [[p] for p in PLAYERS])
    tourney("player", "import", str(players))
    tourney("event", "create", "e2e", "--variant", "spardame", "--table-sizes", "4",
            "--rounds", "3", "--seed", "5", "--rule", "deals=2", "--date", "2024-05-11")
    tourney("event", "enter", "e2e", "--all")
    files = []
    for number in (1, 2, 3):
        seating = tourney("round", "seat", "e2e", "--json").json
        path = tmp_path / f"round-{number}.csv"
        play_round(seating, "e2e", number, path)
        files.append((seating, path))
        tourney("result", "import", str(path))
        data = tourney("rating", "show", "--variant", "spardame", "--json").json
        assert sorted(r["player"] for r in data) == sorted(PLAYERS)
        assert all(r["matches"] == number for r in data)
    before = tourney("rating", "show", "--json").json

    seating, path = files[1]  # round 2 corrected: other deals, same seating
    corrected = tmp_path / "round-2-corrected.csv"
    play_round(seating, "e2e", 99, corrected)
    report = tourney("result", "import", str(corrected), "--replace", "--json").json["details"]
    assert report["replaced"] == 2
    after = tourney("rating", "show", "--json").json
    assert after != before
    history = tourney("rating", "history", "Anna", "--json").json
    assert [r["round"] for r in history] == [1, 2, 3]
    tourney("rating", "recompute")
    assert tourney("rating", "show", "--json").json == after  # bit-identical
