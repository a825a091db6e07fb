"""Bot-played record files for a seated round, shared by the end-to-end tests."""
from __future__ import annotations

import random
from pathlib import Path

from tourney.engines import get_game
from tourney.records.csv_format import write_records
from tourney.simulation import simulate_match


def play_round(seating: dict, slug: str, variant: str, rules: dict, seed: int, path):
    """Bot-played records for every seated table of a round (``round show --json``'s
    seating; players in seat order, seat 0 dealing first), written to ``path``."""
    game = get_game(variant)
    options = game.resolve_options(rules)
    rng = random.Random(seed)
    records = []
    for table in seating["tables"]:
        records += simulate_match(game, options, table["seats"], rng, event=slug,
                                  round_number=seating["round"], table=table["table"],
                                  first_dealer=0)
    with open(path, "w", encoding="utf-8", newline="") as stream:
        write_records(stream, records, game_for=lambda r: game)
    return records


def kortrad_cup_seated(tourney, tmp_path, rounds: int = 1) -> Path:
    """Eight players entered in ``cup`` (kortrad, matches of two deals, tables of 4,
    ``rounds`` rounds), round 1 seated and played by the bots into
    ``tmp_path/round1.csv`` (not imported): that file."""
    tourney("player", "add", *[f"Player {n}" for n in range(1, 9)])
    tourney("event", "create", "cup", "--variant", "kortrad", "--rounds", str(rounds),
            "--table-sizes", "4", "--rule", "deals=2")
    tourney("event", "enter", "cup", "--all")
    records = tmp_path / "round1.csv"
    play_round(tourney("round", "seat", "cup", "--json").json, "cup", "kortrad",
               {"deals": "2"}, 1, records)
    return records


def one_deal_event_round_one_played(tourney, tmp_path, slug: str, names, rounds: int) -> dict:
    """Players ``names`` entered in ``slug`` (``rounds`` rounds of one-deal spardame
    matches at tables of 4), round 1 seated, played by bots into
    ``tmp_path/r1.csv`` and imported: round 1's seating (``round seat --json``)."""
    tourney("player", "add", *names)
    tourney("event", "create", slug, "--variant", "spardame", "--rounds", str(rounds),
            "--table-sizes", "4", "--rule", "deals=1")
    tourney("event", "enter", slug, "--all")
    seating = tourney("round", "seat", slug, "--json").json
    play_round(seating, slug, "spardame", {"deals": "1"}, 1, tmp_path / "r1.csv")
    tourney("result", "import", str(tmp_path / "r1.csv"))
    return seating


def brade_round_one_imported(tourney, tmp_path, records: str) -> None:
    """A dam-brade event ``b`` of 2 games a match (colours alternate), Anna, Bo,
    Cilla and Dag entered, round 1 seated (Anna v Bo, Cilla v Dag) and the record
    CSV text ``records`` imported as its results."""
    tourney("player", "add", "Anna", "Bo", "Cilla", "Dag")
    tourney("event", "create", "b", "--variant", "dam-brade", "--rounds", "2",
            "--rule", "games=2")
    tourney("event", "enter", "b", "--all")
    tourney("round", "seat", "b")
    path = tmp_path / "r1.csv"
    path.write_text(records, encoding="utf-8")
    tourney("result", "import", str(path))
