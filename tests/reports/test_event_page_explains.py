"""The event page explains its numbers: the points system in force (share or place), a
bye's worth, every tie-break in the event's order with what it measures, and how
often each player sat at each table size."""
from __future__ import annotations

import html as htmllib
import random
import re

from site_helpers import EventSpec, play_rounds

from tourney.tournament.tiebreaks import TIEBREAKS

PLAYERS = ["Ada Ek", "Bo Falk", "Cia Gran", "Dan Holm", "Eja Ivars", "Fred Jonsson",
           "Gun Karlsson"]


def text_of(html: str) -> str:
    return htmllib.unescape(re.sub(r"\s+", " ", re.sub(r"<[^>]+>", "", html)))


def event_page(tourney, tmp_path, *options: str, tiebreaks: str) -> str:
    tourney("player", "add", *PLAYERS)
    spec = EventSpec("fair", "kortrad", "Fair", 2, {"deals": "1"}, "3-4", players=PLAYERS)
    tourney("event", "create", spec.slug, "--variant", "kortrad", "--rounds", "2",
            "--table-sizes", "3-4", "--rule", "deals=1", "--tiebreaks", tiebreaks, *options)
    tourney("event", "enter", spec.slug, "--all")
    play_rounds(lambda _url, *args: tourney(*args), None, tmp_path, spec, random.Random(3))
    site = tmp_path / "site"
    tourney("publish", "--out", str(site), "--lang", "en")
    (event_dir,) = site.glob("events/*/")
    return (event_dir / "index.html").read_text(encoding="utf-8")


def test_share_points_every_tiebreak_and_table_sizes_explained(tourney, tmp_path):
    order = list(TIEBREAKS)  # every tie-break defined
    html = event_page(tourney, tmp_path, "--bye-points", "0.5", tiebreaks=",".join(order))
    text = text_of(html)
    assert "each match is worth the share of the table's other players" in text
    assert "Points for a bye: ½." in text  # a half as the standings write it
    notes = text_of(html.split('class="note tiebreak-notes"')[1].split("</ul>")[0])
    positions = [notes.index(text_of(TIEBREAKS[name].note)) for name in order]
    assert positions == sorted(positions)  # every one explained, in the event's order
    # 7 players at 3-4: a table of 3 and one of 4 every round; each player's sizes shown
    standings = html.split('class="sortable standings')[1].split("</table>")[0]
    cells = re.findall(r'<td class="table-sizes line"[^>]*>(.*?)</td>', standings)
    assert len(cells) == len(PLAYERS)
    for cell in cells:
        counts = dict(re.findall(r"(\d+): (\d+)", cell))
        assert set(counts) == {"3", "4"} and sum(map(int, counts.values())) == 2


def test_place_points_are_explained_as_such(tourney, tmp_path):
    html = event_page(tourney, tmp_path, "--points", "place", tiebreaks="wins")
    text = text_of(html)
    assert "at a table of n players the winner gets n − 1, the last 0" in text
    assert "share of the table's other players" not in text
    assert re.search(r"Points for a bye: 3(\.0+)?\.", text)  # a win at the preferred size
