"""The players' rows of an event as the manifest keeps them (JSON lists), made into
the rows of the players' pages (issue 34: a big event's 16,000 on each publish)."""
from __future__ import annotations

import orjson

from tourney.reports.site import PlayerEvent, SiteBuilder


def test_rows_as_this_version_writes_them_are_the_named_tuples_they_were_made_of():
    made = [(7, PlayerEvent(3, 2, 5.5, 2, 16, True, (1,), 2, (2,), (True,), ("late",),
                            (-1.0,), ("slow play",), (2,))),
            (9, PlayerEvent(3, None, 0.0, 0, 16, False, (), None))]
    # as the manifest keeps them: JSON, tuples read back as lists
    kept = orjson.loads(orjson.dumps([[pid, *row[1:]] for pid, row in made]))
    rows = SiteBuilder._player_rows(3, kept)
    assert rows == made
    assert all(type(row) is PlayerEvent and all(not isinstance(v, list) for v in row)
               for _, row in rows)
    assert rows[0][1].forfeit_reasons == ("late",) and rows[1][1].after_round is None


def test_rows_of_an_older_manifest_are_read_with_the_fields_it_did_not_keep_empty():
    rows = SiteBuilder._player_rows(3, [[7, 1, 3.0, 1, 4, False, [2]]])
    assert rows == [(7, PlayerEvent(3, 1, 3.0, 1, 4, False, (2,)))]
    assert rows[0][1].after_round is None and rows[0][1].forfeits == ()
