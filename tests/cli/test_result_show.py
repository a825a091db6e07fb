"""`result show`: each deal's scores under the players' names, in seat order,
whatever order the deal names its players in; a dealer column only for a game
that is dealt."""
from __future__ import annotations

import re

from conftest import play_cup_round_one
from simulated_rounds import brade_round_one_imported

BRADE = ("event,round,table,deal,players,scores\n"
         "b,1,1,1,Anna;Bo,1;0\n"
         "b,1,1,2,Bo;Anna,0;1\n"
         "b,1,2,1,Cilla;Dag,0.5;0.5\n"
         "b,1,2,2,Dag;Cilla,1;0\n")


def _table(text: str) -> list[list[str]]:
    return [re.split(r"\s{2,}", line.strip()) for line in text.strip().splitlines()]


def test_checkers_games_read_by_player_not_by_colour(tourney, tmp_path):
    """Colours alternate: game 2 names Bo first (Black), yet Anna won it."""
    brade_round_one_imported(tourney, tmp_path, BRADE)

    text = tourney("result", "show", "b", "1", "1").stdout
    places, deals = text.split("\n\n")[0].split("\n", 1)[1], text.split("\n\n")[1]
    assert _table(places)[1][:3] == ["1", "Anna", "1"]
    assert _table(deals) == [["deal", "black", "Anna", "Bo", "verified"],
                             ["1", "Anna", "1", "0", "scores"],
                             ["2", "Bo", "1", "0", "scores"]]
    assert "dealer" not in text  # checkers has no dealer

    shown = tourney("result", "show", "b", "1", "2", "--json").json
    # the deal's own order kept, and the scores by seat beside it
    assert [(d["players"], d["scores"]) for d in shown["deals"]] == [
        (["Cilla", "Dag"], "0.5;0.5"), (["Dag", "Cilla"], "1;0")]
    assert [[(s["seat"], s["player"], s["score"]) for s in d["by_seat"]]
            for d in shown["deals"]] == [[(1, "Cilla", 0.5), (2, "Dag", 0.5)],
                                         [(1, "Cilla", 0), (2, "Dag", 1)]]


def test_card_games_keep_the_dealer_and_read_in_seat_order(tourney, tmp_path):
    seating, path = play_cup_round_one(tourney, tmp_path,
                                       ["Ana Berg", "Bo Ek", "Cai Dahl", "Dan Falk"])
    tourney("result", "import", str(path))
    seats = seating["tables"][0]["seats"]
    shown = tourney("result", "show", "cup", "1", "1", "--json").json
    for deal in shown["deals"]:
        by_name = dict(zip(deal["players"], map(int, deal["scores"].split(";"))))
        assert [(s["player"], s["score"]) for s in deal["by_seat"]] == [
            (name, by_name[name]) for name in seats]
    text = tourney("result", "show", "cup", "1", "1").stdout
    deals = _table(text.split("\n\n")[1])
    assert deals[0] == ["deal", "dealer", *seats, "verified"]
    for row, deal in zip(deals[1:], shown["deals"]):
        assert row[1] == deal["dealer"]
        assert row[2:-1] == [str(s["score"]) for s in deal["by_seat"]]
