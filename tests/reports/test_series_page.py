"""The site's series page (issue 32): one column an event linking to it, dropped
results in brackets, unqualified players marked, teams, in every site language;
linked from the index; reused by an incremental publish while nothing of it
changed, and made again when a result is corrected."""
from __future__ import annotations

import re

from season_helpers import correct, make_season


def cells(html: str) -> list[list[str]]:
    """The standings table's rows as text cells."""
    table = html.split('id="standings-h"', 1)[1].split("</table>", 1)[0]
    rows = re.findall(r"<tr>(.*?)</tr>", table, re.S)[1:]
    return [[re.sub(r"<[^>]+>", "", c).strip() for c in re.findall(r"<td[^>]*>(.*?)</td>", r, re.S)]
            for r in rows]


def test_series_page_in_every_language(tourney, db_url, tmp_path):
    make_season(tourney, db_url)
    tourney("team", "add", "season", "North", "Anna", "Cai")
    tourney("team", "add", "season", "South", "Bo", "Eva")
    site = tmp_path / "site"
    tourney("publish", "--out", str(site), "--lang", "sv", "--lang", "en", "--lang", "fi")
    english = (site / "en" / "series" / "season.html").read_text(encoding="utf-8")
    rows = cells(english)
    # best 2 of Anna's 3, 1, 2.5: the 1 dropped; Dag short of 2 events, no place
    assert rows[0][:7] == ["1", "Anna", "3", "3", "(1)", "2.5", "5.5"]
    assert rows[-1][0] == "–" and rows[-1][1].startswith("Dag") and "not qualified" in rows[-1][1]
    assert [r[1] for r in rows[:4]] == ["Anna", "Bo", "Cai", "Eva"]
    assert 'class="num dropped"' in english
    # a column per event, linking to the event's page
    for slug in ("ev1", "ev2", "ev3"):
        assert f'href="../events/{slug}/index.html"' in english
    teams = english.split('id="teams-h"', 1)[1]
    assert teams.index("North") < teams.index("South")  # 5.5 + 3 against 5 + 1.5
    swedish = (site / "series" / "season.html").read_text(encoding="utf-8")
    assert "Ställning" in swedish and "ej kvalificerad" in swedish and "Lag" in swedish
    finnish = (site / "fi" / "series" / "season.html").read_text(encoding="utf-8")
    assert "ei sijoitusoikeutta" in finnish
    index = (site / "en" / "index.html").read_text(encoding="utf-8")
    assert 'href="series/season.html"' in index and "Club season" in index


def test_incremental_publish_reuses_the_page_until_a_result_changes(tourney, db_url, tmp_path):
    make_season(tourney, db_url)
    site = tmp_path / "site"
    tourney("publish", "--out", str(site), "--lang", "en")
    page = site / "series" / "season.html"
    first = page.stat().st_ino
    again = tourney("publish", "--out", str(site), "--json").json
    assert page.stat().st_ino == first  # hard-linked from the site replaced
    assert again["details"]["rendered"] < again["details"]["pages"]
    correct(db_url, "ev1", [("Dag", 1, 3), ("Bo", 2, 2), ("Cai", 3, 1), ("Anna", 4, 0)])
    tourney("publish", "--out", str(site))
    assert page.stat().st_ino != first
    rows = cells(page.read_text(encoding="utf-8"))
    # Bo 2 + 3 now leads; Anna 0, 1, 2.5: 3.5
    assert rows[0][1] == "Bo" and ["Anna", "3.5"] == [rows[1][1], rows[1][6]]
