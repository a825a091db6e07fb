"""The live standings (/standings/SLUG) show the tie-breaks that separate players on
equal points, named as the published standings name them, the deciding value
marked; on SQLite and PostgreSQL."""
from __future__ import annotations

import html
import re

from serve_helpers import NAMES, client

from tourney.reports.site import Renderer

# two rounds of svarta-maja at two tables whose standings separate players on equal
# points by both tie-breaks (seeded: the same every run)
TIEBREAKS = "progressive,opponents"


def two_rounds(tourney, tiebreaks=TIEBREAKS, lang="fi"):
    tourney("player", "add", *NAMES[:8])
    tourney("event", "create", "club", "--variant", "svarta-maja", "--rounds", "3",
            "--table-sizes", "4", "--rule", "deals=3", "--lang", lang,
            "--tiebreaks", tiebreaks)
    tourney("event", "enter", "club", "--all")
    for number in (1, 2):
        tourney("round", "seat", "club")
        played = tourney("simulate", "--event", "club", "--round", str(number),
                         "--seed", str(40 + number)).stdout
        tourney("result", "import", "-", "--event", "club", input=played)
    return tourney("standings", "club", "--json").json


def rows_of(page: str) -> list[list[str]]:
    body = page[page.index("<tbody>"):page.index("</tbody>")]
    return [re.findall(r"<td[^>]*>(.*?)</td>", row, re.S)
            for row in re.findall(r"<tr>(.*?)</tr>", body, re.S)]


def test_live_standings_show_the_tie_breaks_that_separate_equal_points(tourney, db_url):
    standings = two_rounds(tourney)
    rows = standings if isinstance(standings, list) else standings["standings"]
    decided = {row["decided_by"] for row in rows}
    assert {"progressive", "opponents"} <= decided  # both separate someone
    web = client(db_url)
    for lang in ("fi", "en", "sv"):
        page = web.get(f"/standings/club?lang={lang}").text
        names = Renderer(lang, "", ("en",), None).names  # the site's one wording
        headings = [html.unescape(h) for h in
                    re.findall(r'<th scope="col" class="tb[^"]*">(.*?)</th>', page)]
        assert headings == [names.tiebreak("progressive"), names.tiebreak("opponents")]
        shown = rows_of(page)
        assert len(shown) == len(rows)
        for row, cells in zip(rows, shown):
            assert len(cells) == 5
            for tb, cell in zip(("progressive", "opponents"), cells[3:]):
                assert ('class="decided"' in cell) is (row["decided_by"] == tb), (row, cell)
        note = html.unescape(re.search(r'<p class="hint" id="tiebreak-note">(.*?)</p>',
                                       page, re.S).group(1))
        order = f"{names.tiebreak('progressive')}, {names.tiebreak('opponents')}."
        assert order in note
    # a shared place stays marked
    assert any('class="shared"' in cells[0] for cells in shown) is any(
        row["shared"] for row in rows)


def test_live_standings_without_a_tie_break_to_show_have_no_column(tourney, db_url):
    tourney("player", "add", *NAMES[:4])
    tourney("event", "create", "club", "--variant", "svarta-maja", "--rounds", "3",
            "--table-sizes", "4", "--rule", "deals=3", "--lang", "en")
    tourney("event", "enter", "club", "--all")
    page = client(db_url).get("/standings/club").text
    # nobody has played: everyone shares the first place, nothing separates anyone
    assert 'class="tb"' not in page and "separated" not in page
    assert page.count('class="shared"') == 4 and "= marks a shared place." in page


def test_a_players_own_page_shows_the_standings_as_the_venue_screen_does(tourney, db_url):
    """Found at a club night: a player's own page headed the places "Placering" (a
    name wrapped onto two lines at 375 px) and showed no tie-break, so two players
    on equal points stood 2 and 3 with nothing to say why. It now shows the venue
    screen's table: "#" heading the places, the deciding tie-breaks, the player's
    own row marked."""
    standings = two_rounds(tourney, lang="sv")
    rows = standings if isinstance(standings, list) else standings["standings"]
    web = client(db_url)
    venue = web.get("/standings/club").text
    own = {r["player"]: r["url"] for r in tourney("player", "links", "club", "--json").json}
    me = rows[-1]["player"]
    page = web.get(own[me]).text
    table = re.search(r'<table class="standings.*?</table>', page, re.S).group(0)
    assert re.search(r'<th scope="col" class="place" aria-label="Placering">', table)
    assert ">Placering</th>" not in table
    # the same cells as the venue's screen, the player's own row marked
    inside = table.split(">", 1)[1].replace(' class="me" aria-current="true"', "")
    assert inside in venue
    assert re.findall(r'<tr class="me" aria-current="true"><td class="place">[^<]*</td>'
                      r'<td class="name"><bdi>([^<]*)</bdi>', table) == [me]
    assert 'id="tiebreak-note"' in page and 'id="tiebreak-places"' in page
