"""Match points of wholes and halves: a half is ½ on the pages (the standings
too, as chess tables show them) and a decimal in the terminal and the CSV and
XLSX files, which spreadsheets read as numbers (docs/guide/scoring.md)."""
from __future__ import annotations

import csv
import io
import re

from simulated_rounds import brade_round_one_imported

# Anna beats Bo in both games; Cilla and Dag draw both, so their match is
# drawn: match points 1, ½, ½ and 0.
ROUND_1 = ("event,round,table,deal,players,scores\n"
           "b,1,1,1,Anna;Bo,1;0\n"
           "b,1,1,2,Bo;Anna,0;1\n"
           "b,1,2,1,Cilla;Dag,0.5;0.5\n"
           "b,1,2,2,Dag;Cilla,0.5;0.5\n")


def test_a_half_is_a_half_on_the_pages_and_a_decimal_in_files(tourney, tmp_path):
    brade_round_one_imported(tourney, tmp_path, ROUND_1)
    data = tourney("standings", "b", "--json").json
    assert sorted(row["points"] for row in data) == [0, 0.5, 0.5, 1]

    lines = tourney("standings", "b").stdout.splitlines()[1:]
    assert sorted(re.split(r"\s{2,}", line)[2] for line in lines) == ["0.0", "0.5", "0.5",
                                                                     "1.0"]
    rows = list(csv.DictReader(io.StringIO(tourney("standings", "b", "--format",
                                                   "csv").stdout)))
    assert sorted(row["points"] for row in rows) == ["0.0", "0.5", "0.5", "1.0"]

    site = tmp_path / "site"
    tourney("publish", "--out", str(site), "--lang", "en", "--lang", "sv", "--no-replays")
    for folder in ("", "sv/"):
        page = (site / f"{folder}events/b/index.html").read_text(encoding="utf-8")
        section = page.split('id="standings"')[1].split("</section>")[0]
        points = re.findall(r'lead-cell" data-label="[^"]*" data-sort="[^"]*">([^<]*)<',
                            section)
        assert points == ["1", "½", "½", "0"], (folder, points)
        screen = (site / f"{folder}events/b/screen.html").read_text(encoding="utf-8")
        assert "½" in screen and "0.5" not in screen and "0,5" not in screen


def test_a_negative_half_is_minus_a_half_on_the_pages():
    """An arbiter's -0.5 in a column of halves was "-1½" (divmod's floor)."""
    import datetime as dt

    from tourney.reports.site import Renderer

    renderer = Renderer("nb", "", ("nb",), dt.datetime.now(dt.UTC))
    column = renderer.point_column([-0.5, 1.5, 2])
    assert [renderer.match_points(v, column) for v in (-0.5, 1.5, 2)] == ["-½", "1½", "2"]
    assert renderer.match_points(-0.5) == "-½"
