"""Per-stage process CPU of one `tourney publish` (issue 34): wrappers around the reads,
the builder's stages and the writing of the site, then one publish in this process.

Usage: python bench/publish_stages.py DB-URL SITE-FOLDER (a site published before: an
incremental publish; replays off, one job). Prints the imports' CPU, the publish's, and
each stage's (a stage inside another counts in both). Run it with bytecode written
(`env -u PYTHONDONTWRITEBYTECODE`, twice: the first run writes it), or the imports'
CPU includes compiling the project's sources."""
from __future__ import annotations

import functools
import inspect
import sys
import time

START = time.process_time()
from tourney.reports import data, site  # noqa: E402 - their import is measured
from tourney.storage.db import open_engine  # noqa: E402

IMPORTS = time.process_time() - START
SPENT: dict[str, float] = {}

READS = ("content_stamp", "events", "players", "pools", "event_data", "fill_standings",
         "boards_before", "results_being_played", "history_tops", "rated_since",
         "match_counts", "match_refs", "player_matches", "load_history", "deals",
         "standings_inputs", "_complete_round", "board_marks", "load_boards", "load_digests",
         "rating_entries", "history_players")
BUILDER = ("_event_share", "_player_context", "_players_changed", "index_page",
           "rating_pages", "site_data_files", "static_files", "series_pages",
           "_render_pages", "_player_key", "page", "event_pages", "event_data_files",
           "_event_parts", "round_pages", "_standings_outputs", "_load_ratings",
           "_load_boards", "_board_summary", "_match_counts", "_board_marks",
           "_keep_unchanged_players", "_load_match_refs")
SITE = ("write_in_place", "compare_sites", "foreign_files", "read_manifest",
        "same_folder_times", "leftovers", "prepare_target")


def timed(owner, name: str, label: str) -> None:
    work = getattr(owner, name)

    @functools.wraps(work)
    def measured(*args, **kwargs):
        began = time.process_time()
        try:
            return work(*args, **kwargs)
        finally:
            SPENT[label] = SPENT.get(label, 0.0) + time.process_time() - began

    # a static method stays one (else the instance would be passed to it)
    static = isinstance(inspect.getattr_static(owner, name), staticmethod)
    setattr(owner, name, staticmethod(measured) if static else measured)


def main(url: str, out: str) -> None:
    for name in READS:
        timed(data.SiteReader, name, "read." + name)
    for name in BUILDER:
        timed(site.SiteBuilder, name, "build." + name)
    for name in SITE:
        timed(site, name, name)
    began = time.process_time()
    report = site.publish(open_engine(url), out, replays=False, jobs=1)
    total = time.process_time() - began
    print(f"imports {IMPORTS:.2f} publish {total:.2f} rendered {report.rendered} "
          f"changed {report.changed_files}")
    for label, seconds in sorted(SPENT.items(), key=lambda item: -item[1]):
        print(f"  {label:32s} {seconds:6.2f}")


if __name__ == "__main__":
    main(*sys.argv[1:3])
