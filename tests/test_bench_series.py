"""bench/bench_series.py times the series standings from the events' snapshots and
afresh by patching what tourney.tournament.snapshots reads: a renamed helper made
the bench crash (``snapshots._stored``) unseen. Here on a league of a few players:
the patch still exists and still does what the bench says (afresh computes every
event's standings; from the snapshots computes none), and both give the same rows."""
from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "bench"))

import bench_series  # noqa: E402

from tourney.storage.db import dispose_engines  # noqa: E402


def test_the_bench_times_the_snapshots_and_afresh_on_the_current_code(tmp_path):
    url = f"sqlite:///{tmp_path}/league.db"
    bench_series.build(url, players=40, events=5, per_event=16, rounds=1, seed=1)
    try:
        kept = bench_series.in_process(url, 1)
        afresh = bench_series.in_process(url, 1, afresh=True)
    finally:
        dispose_engines()
    assert kept["rows"] == afresh["rows"] > 0
    assert kept["qualified"] == afresh["qualified"]
    assert kept["events_share"] == 0  # every event read from its snapshot
    assert afresh["events_share"] > 0  # every event computed afresh
