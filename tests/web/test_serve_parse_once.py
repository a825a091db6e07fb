"""`tourney serve` reads a posted result at most once: the body goes to stage one of
the import in memory (one reader, each deal replayed once), whatever the flow decides
(stored, unchanged, invalid, waiting for the organizer), and not at all when it is
the text the link stored; on SQLite and PostgreSQL."""
from __future__ import annotations

import csv
import io

import pytest
from serve_helpers import client, match_csv, seated_event, send_csv

from tourney.records.csv_format import RecordReader
from tourney.records.validation import RecordChecker


@pytest.fixture
def parses(monkeypatch):
    """Counts of record readers made and deals checked by an engine."""
    counts = {"readers": 0, "deals": 0}
    make_reader, check_deal = RecordReader.__init__, RecordChecker.check_deal

    def counted_reader(self, *args, **kwargs):
        counts["readers"] += 1
        return make_reader(self, *args, **kwargs)

    def counted_deal(self, record):
        counts["deals"] += 1
        return check_deal(self, record)

    monkeypatch.setattr(RecordReader, "__init__", counted_reader)
    monkeypatch.setattr(RecordChecker, "check_deal", counted_deal)
    return counts


def posted(web, link, body, parses) -> tuple[dict, dict]:
    """The answer to one POST and the parses it took."""
    parses.update(readers=0, deals=0)
    answer = send_csv(web, link, body)
    return answer.json(), dict(parses)


def test_a_posted_result_is_parsed_once(tourney, db_url, parses):
    links = seated_event(tourney)
    body = match_csv(tourney, "club", 1, "1")
    deals = len(body.strip().splitlines()) - 1
    web = client(db_url, auto_accept=True)
    answer, count = posted(web, links["1"], body, parses)
    assert answer["outcome"] == "stored"
    assert count == {"readers": 1, "deals": deals}
    answer, count = posted(web, links["1"], body, parses)  # the table's second phone
    assert answer["outcome"] == "unchanged"
    assert count == {"readers": 0, "deals": 0}  # the text this link stored: its digest says so
    rows = list(csv.reader(io.StringIO(match_csv(tourney, "club", 1, "2"))))
    rows[1][11] = "9;9;9;9"  # scores no deal of svarta-maja gives
    bad = io.StringIO()
    csv.writer(bad, lineterminator="\n").writerows(rows)
    answer, count = posted(web, links["2"], bad.getvalue(), parses)
    assert answer["outcome"] == "invalid" and answer["errors"][0]["line"] == 2
    assert count == {"readers": 1, "deals": deals}


def test_a_result_waiting_for_the_organizer_is_parsed_once(tourney, db_url, parses):
    links = seated_event(tourney)
    body = match_csv(tourney, "club", 1, "1")
    deals = len(body.strip().splitlines()) - 1
    web = client(db_url, auto_accept=False)
    answer, count = posted(web, links["1"], body, parses)
    assert answer["outcome"] == "received"
    assert count == {"readers": 1, "deals": deals}
    answer, count = posted(web, links["1"], body, parses)
    assert answer["outcome"] == "pending" and count["readers"] == 1
