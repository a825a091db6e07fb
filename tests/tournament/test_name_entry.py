"""Names in record files are NFC-normalised as they are read: a file written on a Mac
(decomposed letters) imports against players registered on Windows, and back."""
from __future__ import annotations

import json
import unicodedata

from results_helpers import (
    create_event,
    import_json,
    make_engine,
    run,
    seat_round,
    simulate,
    unique,
    write_csv,
)

from tourney.records.csv_format import parse_row


def nfd(text: str) -> str:
    return unicodedata.normalize("NFD", text)


def test_record_players_and_dealer_are_nfc():
    record = parse_row({"round": "1", "table": "1", "deal": "1", "play": "x",
                        "players": f"{nfd('Åsa Öberg')};Bo ;{nfd('Ødegaard Ærlig')}",
                        "dealer": nfd("Åsa Öberg")}, 2)
    assert record.players == ["Åsa Öberg", "Bo", "Ødegaard Ærlig"]
    assert record.players[0] != nfd("Åsa Öberg")  # composed, not as typed
    assert record.dealer == "Åsa Öberg" and record.dealer_seat() == 0


def test_a_record_file_typed_on_a_mac_imports(db_url, tmp_path):
    engine = make_engine(db_url)
    slug = unique("nfc")
    create_event(engine, slug, "spardame", size=4)
    seated = [f"Åsa {slug}", f"Björn {slug}", f"Céline {slug}", f"Örjan {slug}"]
    seat_round(engine, slug, 1, [seated])
    path = write_csv(tmp_path / "r1.csv", simulate("spardame", slug, 1, [seated], deals=2),
                     "spardame")
    path.write_text(nfd(path.read_text(encoding="utf-8")), encoding="utf-8")
    assert f"A\u030asa {slug}" in path.read_text(encoding="utf-8")
    code, report, result = import_json(db_url, path)
    assert code == 0, result.output
    shown = json.loads(run(db_url, "result", "show", slug, "1", "1", "--json", ok=True).stdout)
    assert {p["player"] for p in shown["places"]} == set(seated)
