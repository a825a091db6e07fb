"""Seats counted from 1 and players named wherever an error is shown (issue 15).

Inside tourney seats are 0-based; every text and JSON error object counts them
from 1 (tourney/errors/seats.py) and an error about a move names the player there.
"""
import datetime as dt
import json
import random
from dataclasses import replace

import pytest

from tourney.cards import parse_card
from tourney.engines import get_game
from tourney.errors import RecordError
from tourney.errors.seats import seat_number, seat_numbers, seat_text, seats_text
from tourney.records.csv_format import read_records_text, write_records
from tourney.records.validation import RecordChecker
from tourney.simulation import simulate_match

PLAYERS = ["Anna Berg", "Ingrid Falk", "Cecilia Dahl", "David Ek"]


def test_the_one_helper_counts_from_one():
    assert (seat_number(0), seat_number(3), seat_number(None)) == (1, 4, None)
    assert seat_text(1) == "seat 2"
    assert seat_numbers([0, 2, 5]) == "1, 3, 6"
    assert (seats_text([2]), seats_text([1, 2])) == ("seat 3", "seats 2, 3")


def test_where_counts_the_seat_from_one_and_names_the_player():
    err = RecordError("must follow suit (clubs led): holds 7C, JC", rule="follow-suit",
                      line=3, column="play", move=6, seat=1, token="9D", player="Ingrid Falk")
    assert str(err) == ("line 3, play, move 6 (seat 2, Ingrid Falk, '9D'): "
                        "must follow suit (clubs led): holds 7C, JC")
    assert err.seat == 1  # the library keeps it 0-based
    assert err.position() == {"line": 3, "column": "play", "move": 6, "seat": 2,
                              "player": "Ingrid Falk"}


def test_an_error_about_one_seat_but_no_move_names_it_beside_the_column():
    err = RecordError("'x' is not a score", line=4, column="scores", seat=0, player="Anna Berg")
    assert str(err) == "line 4, scores (seat 1, Anna Berg): 'x' is not a score"
    assert RecordError("no seat", line=4, column="scores").position()["seat"] is None


ONE_DEAL = {"deals": "1"}


def _match(variant: str, seed: int):
    """A one-deal match of ``variant`` played by bots (the rules: ONE_DEAL)."""
    game = get_game(variant)
    resolved = game.resolve_options(ONE_DEAL)
    records = simulate_match(game, resolved, PLAYERS[:4], random.Random(seed), deals=1)
    return game, resolved, records


def _bad_move(game, options, record):
    """Swap moves 6 and 10: move 6 is then a card its player does not hold (or
    some other broken rule). The seat to move at move 6, by the engine."""
    play = list(record.play)
    play[5], play[9] = play[9], play[5]
    state = game.new_deal(record.setup(), options)
    for token in play[:5]:
        game.play(state, game.parse_move(token))
    record.play = play
    return game.to_move(state), play[5]


@pytest.mark.parametrize("variant", ["dam-stick", "spardame"])
def test_a_move_error_names_the_seat_from_one_and_its_player(variant):
    game, options, records = _match(variant, 5)
    seat, token = _bad_move(game, options, records[0])
    check = RecordChecker(variant=variant, rules=ONE_DEAL).check_deal(records[0])
    err = check.error
    assert err is not None and err.move == 6 and err.seat == seat
    assert err.player == PLAYERS[seat]
    assert f"move 6 (seat {seat + 1}, {PLAYERS[seat]}, {token!r}): " in str(err)


def test_a_bad_card_in_a_hand_names_its_seat_and_player():
    text = ("round,table,deal,players,dealer,hands,play\n"
            "1,A,1,Anna Berg;Ingrid Falk,Anna Berg,QS AS;KD XX,\n")
    with pytest.raises(RecordError) as caught:
        read_records_text(text)
    err = caught.value
    assert (err.seat, err.player) == (1, "Ingrid Falk")
    assert "hands (seat 2, Ingrid Falk): not a card: 'XX'" in str(err)
    assert "(seat 1)" not in err.message


def test_a_claimed_score_that_is_not_a_score_names_its_seat_and_player():
    game, options, records = _match("dam-stick", 2)
    records[0].scores = ["0", "0", "zz", "25"]
    err = RecordChecker(variant="dam-stick", rules=ONE_DEAL).check_deal(records[0]).error
    assert err.rule == "score" and (err.seat, err.player) == (2, PLAYERS[2])
    assert "scores (seat 3, Cecilia Dahl): 'zz' is not a score" in str(err)


def test_a_pass_error_names_the_passing_seat_and_player():
    game, options, records = _match("spardame", 3)
    record = records[0]
    queen = parse_card("QS")
    holder = next(s for s, hand in enumerate(record.hands) if queen in hand)
    assert queen not in record.passes[holder]  # QS may not be passed by default
    record.passes[holder] = [queen] + record.passes[holder][1:]
    err = RecordChecker(variant="spardame", rules=ONE_DEAL).check_deal(record).error
    assert err is not None and err.column == "passes", err
    assert (err.seat, err.player) == (holder, PLAYERS[holder])
    assert f"passes (seat {holder + 1}, {PLAYERS[holder]}): " in str(err)


def test_engine_texts_count_seats_from_one():
    game = get_game("svarta-maja")
    options = game.resolve_options({})
    records = simulate_match(game, options, PLAYERS[:3], random.Random(1), deals=1)
    outcome = game.replay(records[0].setup(), records[0].play, options)
    lost = [e for e in outcome.events if e.kind == "lost"]
    assert lost and lost[0].text.startswith(f"seat {lost[0].seat + 1} ")
    spardame = get_game("spardame")
    opts = spardame.resolve_options({})
    rec = simulate_match(spardame, opts, PLAYERS, random.Random(4), deals=1)[0]
    taken = [e for e in spardame.replay(rec.setup(), rec.play, opts).events
             if e.kind == "queen-taken"]
    assert taken and taken[0].text.startswith(f"seat {taken[0].seat + 1} takes QS")


# ------------------------------------------------------------------ tourney validate

def _write(path, records, game):
    with open(path, "w", newline="", encoding="utf-8") as stream:
        write_records(stream, records, game_for=lambda record: game)
    return path


def test_validate_json_gives_seat_player_move_and_column(run_cli, tmp_path):
    game, options, records = _match("dam-stick", 5)
    seat, token = _bad_move(game, options, records[0])
    path = _write(tmp_path / "bad.csv", records, game)
    run = run_cli(None, "validate", str(path), "--json", "--rule", "deals=1",
                  exit_code=1)
    rows = [json.loads(line) for line in run.stdout.splitlines()]
    bad = [r for r in rows if r["kind"] == "deal" and not r["valid"]]
    assert len(bad) == 1
    deal = bad[0]
    assert deal["seat"] == seat + 1 and deal["player"] == PLAYERS[seat]
    assert (deal["move"], deal["column"], deal["line"]) == (6, "play", 2)
    assert deal["rule"] and f"(seat {seat + 1}, {PLAYERS[seat]}, " in deal["error"]
    match = next(r for r in rows if r["kind"] == "match")
    assert {"error", "rule", "seat", "player", "move", "column"} <= set(match)
    assert match["valid"] is False and match["seat"] is None


def test_validate_text_names_the_player(run_cli, tmp_path):
    game, options, records = _match("spardame", 5)
    seat, token = _bad_move(game, options, records[0])
    path = _write(tmp_path / "bad.csv", records, game)
    run = run_cli(None, "validate", str(path), "--rule", "deals=1", exit_code=1)
    assert f"bad.csv, line 2, play, move 6 (seat {seat + 1}, {PLAYERS[seat]}, {token!r}): " \
        in run.stdout


# ------------------------------------------------------------------ tourney serve

def test_serve_error_objects_and_table_pages_count_seats_from_one():
    from tourney.app.tables import _stored_error, error_from_json, error_json
    from tourney.reports.site import Renderer
    from tourney.web.messages import error_lines

    err = RecordError("must follow suit", rule="follow-suit", line=2, column="play", move=6,
                      seat=1, token="9D", player="Ingrid Falk")
    data = error_json(err)
    assert (data["seat"], data["player"], data["move"], data["column"]) == (2, "Ingrid Falk", 6,
                                                                            "play")
    assert data["error"] == str(err) and data["rule"] == "follow-suit"
    again = error_from_json(json.loads(json.dumps(_stored_error(err))))  # kept in the database
    assert (again.seat, again.player) == (1, "Ingrid Falk") and str(again) == str(err)
    (line,) = error_lines([again], Renderer("en", "", ("en",), dt.datetime.now(dt.UTC)))
    assert "seat 2" in line.where and "Ingrid Falk" in line.where
    assert "seat 1" not in line.where


@pytest.mark.parametrize("variant, players, scores, seat", [
    ("spardame", PLAYERS, "0;125;100;5", 1),
    ("dam-stick", PLAYERS, "5;5;7;8", 2),
    ("svarta-maja", PLAYERS[:3], "0;0;2", 2),
])
def test_an_impossible_score_on_a_score_sheet_names_its_seat_and_player(variant, players, scores, seat):
    text = ("round,table,deal,players,dealer,scores\n"
            f"1,A,1,{';'.join(players)},{players[0]},{scores}\n")
    record = read_records_text(text)[0]
    err = RecordChecker(variant=variant).check_deal(record).error
    assert err is not None and err.rule == "score-sheet-value", err
    assert (err.seat, err.player) == (seat, players[seat])
    assert f"scores (seat {seat + 1}, {players[seat]}): " in str(err)
    assert f"seat {seat + 1}" not in err.message  # said once, in the position
    assert err.position()["seat"] == seat + 1 and err.position()["player"] == players[seat]


def test_a_match_with_invalid_deals_counts_their_lines_in_the_right_number():
    game, options, records = _match("dam-stick", 2)
    checker = RecordChecker(variant="dam-stick", rules=ONE_DEAL)
    two = [replace(records[0], line=5, scores=["x"] * 4), replace(records[0], line=6, deal=2, scores=["y"] * 4)]
    error = checker.check_match([checker.check_deal(r) for r in two]).error
    assert error.message == "the match has invalid deals (lines 5, 6)"
    one = checker.check_match([checker.check_deal(two[0])]).error
    assert one.message == "the match has invalid deals (line 5)"
