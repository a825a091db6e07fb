"""`tourney serve`: a result sent with decomposed letters (as a Mac may type them) is
the same players' result."""
from __future__ import annotations

import unicodedata

from serve_helpers import client, match_csv, path_of, seated_event


def test_a_result_with_decomposed_names_is_accepted(tourney, db_url):
    links = seated_event(tourney, tables=4)
    seats = tourney("round", "show", "club", "1", "--json").json
    table = next(t for t in seats["tables"] if "Åsa" in t["seats"] or "Örjan" in t["seats"])
    body = unicodedata.normalize("NFD", match_csv(tourney, "club", 1, table["table"]))
    assert "A\u030asa" in body or "O\u0308rjan" in body
    web = client(db_url, auto_accept=True)
    answer = web.post(path_of(links[table["table"]]["url"]), content=body.encode("utf-8"),
                      headers={"Content-Type": "text/csv"})
    assert answer.status_code == 200, answer.text
    assert answer.json()["outcome"] == "stored"
