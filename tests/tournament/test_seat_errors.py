"""Seats from 1 and players by name in what `result import` and `result show` say
(issue 15): the text, the --json error objects, the seat column."""
from __future__ import annotations

import json

from results_helpers import (
    create_event,
    import_json,
    make_engine,
    names,
    run,
    seat_round,
    simulate,
    tables_of,
    unique,
    write_csv,
)

from tourney.engines import get_game


def _event(db_url, variant="spardame", size=4):
    engine = make_engine(db_url)
    slug = unique(variant)
    create_event(engine, slug, variant, size=size, rules={"deals": "1"})
    seating = tables_of(names(slug, size), size)
    seat_round(engine, slug, 1, seating)
    return slug, seating


def test_import_json_errors_give_seat_from_one_and_player(db_url, tmp_path):
    slug, seating = _event(db_url)
    records = simulate("spardame", slug, 1, seating, rules={"deals": "1"}, seed=3)
    record = records[0]
    game = get_game("spardame")
    options = game.resolve_options({"deals": "1"})
    play = list(record.play)
    play[5], play[9] = play[9], play[5]  # move 6: a card its player does not hold
    state = game.new_deal(record.setup(), options)
    for token in play[:5]:
        game.play(state, game.parse_move(token))
    seat = game.to_move(state)
    record.play = play
    code, report, result = import_json(db_url, write_csv(tmp_path / "r1.csv", records,
                                                         "spardame"))
    assert code == 1, result.output
    (error,) = [e for e in report["errors"] if e["move"] is not None]
    player = seating[0][seat]
    assert (error["seat"], error["player"], error["move"], error["column"]) == (
        seat + 1, player, 6, "play")
    assert error["rule"] and error["message"]  # the keys kept
    assert f"move 6 (seat {seat + 1}, {player}, {play[5]!r}): " in error["error"]
    assert f"(seat {seat + 1}, {player}, " in result.stderr


def test_result_show_counts_seats_from_one(db_url, tmp_path):
    slug, seating = _event(db_url, variant="dam-stick")
    records = simulate("dam-stick", slug, 1, seating, rules={"deals": "1"}, seed=2)
    code, report, result = import_json(db_url, write_csv(tmp_path / "r1.csv", records,
                                                         "dam-stick"))
    assert code == 0, result.output
    shown = run(db_url, "result", "show", slug, "1", "1", "--json", ok=True)
    places = json.loads(shown.stdout)["places"]
    assert sorted(p["seat"] for p in places) == [1, 2, 3, 4]
    assert {p["player"]: p["seat"] for p in places} == {
        name: index + 1 for index, name in enumerate(seating[0])}
    text = run(db_url, "result", "show", slug, "1", "1", ok=True).stdout
    places_table = text.split("\n\n")[0]  # the deals' table follows a blank line
    seat_of = {}
    for line in places_table.splitlines():
        for index, name in enumerate(seating[0]):
            if name in line:
                seat_of[name] = line.split(name, 1)[1].split()[0]
    assert seat_of == {name: str(index + 1) for index, name in enumerate(seating[0])}
