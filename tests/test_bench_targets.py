"""bench/run_all.py's "Issue 19 targets" summary, built from the benchmarks' JSON
figures (sample figures here, no benchmark run)."""
from __future__ import annotations

import importlib.util
import json
import sys
from pathlib import Path

BENCH = Path(__file__).resolve().parent.parent / "bench"


def _load(name: str):
    spec = importlib.util.spec_from_file_location(f"bench_{name}_under_test", BENCH / f"{name}.py")
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses look their module up
    spec.loader.exec_module(module)
    return module


run_all = _load("run_all")

MEASURES = ["rematches", "colour breaks", "downfloaters", "score diff", "absolute unmet",
            "strong unmet", "mild unmet"]


def swiss_size(players: int, ours: dict, peer: dict, cpu=(0.01, 0.02), wall=(0.05, 0.1)):
    values = dict.fromkeys(MEASURES, 0)
    return {"players": players, "seeds": 2, "rounds": 9,
            "ours": {"values": {**values, **ours}, "cpu": cpu[0], "wall": wall[0]},
            "own_event": {"values": values, "cpu": cpu[0], "wall": wall[0]},
            "bbp": {"values": {**values, **peer}, "cpu": cpu[1], "wall": wall[1]},
            "worse": [], "own_event_worse": [], "cpu_ratio": cpu[0] / cpu[1],
            "wall_ratio": wall[0] / wall[1], "peer_cached": 0}


def sample() -> dict:
    """Figures as the bench scripts write them: some targets met, some not."""
    repeats = [{"players": n, "rounds": r, "target": t, "open_ended": a, "with_rounds": b}
               for n, r, t, a, b in [(20, 5, 0, 0, 0), (20, 6, 6, 6, 5), (24, 6, 0, 2, 0),
                                     (24, 7, 4, 0, 0), (28, 7, 0, 0, 0), (32, 8, 0, 0, 0),
                                     (36, 9, 0, 0, 0), (36, 10, 8, 0, 0), (36, 11, 20, 0, 0),
                                     (44, 11, 0, 0, 0), (48, 11, 0, 0, 0), (48, 12, 0, 0, 0),
                                     (48, 13, 7, 0, 0), (48, 14, 20, 0, 0),
                                     (48, 15, 42, 43, 41), (52, 13, 0, 0, 0),
                                     (64, 16, 0, 0, 0)]]
    return {
        "bench_validate": {"deals": 20_000, "speed": {"jobs1": 0.75, "jobs2": 0.85,
                                                      "default": 1.1},
                           "medians": {"openspiel": {"wall": 0.9, "cpu": 0.92}}},
        "bench_import": {"backend": "SQLite", "sizes": [
            {"rows": 100_000, "rows_per_s": 14_000, "import_over_floor": 0.6,
             "import_over_floor_cpu": 0.6},
            {"rows": 1_000_000, "rows_per_s": 26_000, "import_over_floor": 0.7,
             "import_over_floor_cpu": 0.72}]},
        "bench_import_pg": {"backend": "PostgreSQL", "sizes": [
            {"rows": 100_000, "rows_per_s": 9_000, "import_over_floor": 0.9,
             "copy_statements": 20}]},
        "bench_publish": {"cpus": 2, "sizes": [
            {"players": 1000, "incremental_ratio": 0.2, "again": 2.0, "auto_full": 10.0,
             "auto_jobs": 2},
            {"players": 10_000, "incremental_ratio": 0.1, "again": 10.0, "auto_full": 100.0,
             "auto_jobs": 1, "again_rendered": 360, "again_pages": 121_537}]},
        "bench_swiss": {"peer": True, "measures": MEASURES, "sizes": [
            swiss_size(20, {}, {}),
            swiss_size(100, {"strong unmet": 120}, {"strong unmet": 100}, cpu=(0.07, 0.03)),
            swiss_size(1000, {}, {"mild unmet": 3}, wall=(1.5, 200.0))]},
        "bench_repeats": {"targets": repeats},
    }


def find(rows, *words):
    found = [r for r in rows if all(w in r.figure for w in words)]
    assert len(found) == 1, (words, [r.figure for r in found])
    return found[0]


def test_every_target_of_issue_19_has_a_row():
    rows = run_all.issue19_targets(sample())
    # 2 validate, 3 import, 2 publish, 3 swiss sizes + ratio + s/round, 17 seating fields
    assert len(rows) == 2 + 3 + 2 + 3 + 2 + 17
    assert all(r.met in ("yes", "no") for r in rows)


def test_met_and_not_met():
    rows = run_all.issue19_targets(sample())
    assert find(rows, "--jobs 1").met == "yes"
    assert find(rows, "--jobs 2").met == "no"  # 0.85 < 0.9
    rate = find(rows, "rows/s", "SQLite")
    assert rate.met == "yes" and rate.measured == "26,000"  # >= 25,000
    floor = find(rows, "import/floor")
    assert floor.met == "no" and floor.measured.startswith("0.70")
    pg = find(rows, "PostgreSQL")
    assert pg.met == "yes" and "COPY" in pg.measured  # 20 COPY statements
    incremental = find(rows, "one more round")
    assert incremental.met == "yes" and incremental.measured.startswith("0.100")
    assert find(rows, "every core").met == "no"  # 1 process at 10k on 2 cores
    assert find(rows, "Swiss", " 20 players").met == "yes"
    worse = find(rows, "Swiss", " 100 players", "quality")
    assert worse.met == "no" and "strong unmet 120 vs 100" in worse.measured
    assert find(rows, "Swiss", "1,000 players", "quality").met == "yes"  # fewer is better
    assert find(rows, "time / bbpPairings").met == "no"  # 0.07 / 0.03 > 2
    assert find(rows, "s/round").met == "no"  # 1.5 s wall
    figures = sample()
    figures["bench_swiss"]["sizes"][2]["ours"].update(wall=0.6, slowest_wall=0.9)
    per_round = find(run_all.issue19_targets(figures), "s/round")
    assert per_round.met == "yes" and "slowest round 0.900 s" in per_round.measured
    assert find(rows, "seating 20 x 6").met == "yes"
    assert find(rows, "seating 24 x 6").met == "no"  # open-ended 2
    seating = find(rows, "seating 48 x 15")
    assert seating.met == "no" and seating.measured == "43 / 41"


def test_the_import_rate_at_the_earlier_machine_speed_is_shown_beside_it():
    figures = sample()
    figures["bench_import"]["sizes"][1]["rows_per_s"] = 12_000
    figures["machine_speed"] = {"openskill": {"slower_than_earlier": 2.5}}
    rate = find(run_all.issue19_targets(figures), "rows/s", "SQLite")
    assert rate.measured.startswith("12,000 (x2.50 = 30,000 at the speed of the machine")
    assert rate.met == "no"  # the target is on the figure measured


def test_a_missing_benchmark_or_size_is_not_measured():
    figures = sample()
    del figures["bench_validate"]
    figures["bench_import"]["sizes"] = figures["bench_import"]["sizes"][:1]
    figures["bench_repeats"]["targets"] = [
        t for t in figures["bench_repeats"]["targets"] if t["players"] <= 48]
    rows = run_all.issue19_targets(figures)
    assert find(rows, "--jobs 1").met == "-"
    rate = find(rows, "rows/s", "SQLite")
    assert rate.met == "-" and "not 1,000,000" in rate.measured
    assert find(rows, "seating 64 x 16").met == "-"
    assert find(rows, "seating 48 x 12").met == "yes"
    assert "bench_validate.py not run" in find(rows, "--jobs 2").measured
    figures["_why"] = {"bench_swiss": "bench_swiss.py failed: exit 1"}
    del figures["bench_swiss"]
    swiss = find(run_all.issue19_targets(figures), "s/round")
    assert swiss.met == "-" and "bench_swiss.py failed: exit 1" in swiss.measured
    none = run_all.issue19_targets({})
    assert {r.met for r in none} == {"-"}
    assert len(none) == 2 + 3 + 2 + 3 + 17


def test_markdown_counts(tmp_path, monkeypatch):
    rows = run_all.issue19_targets(sample())
    text = run_all.targets_markdown(rows)
    assert text[0] == "| figure | measured | target | met |"
    yes = sum(r.met == "yes" for r in rows)
    assert text[-1] == f"{yes} of {len(rows)} met, {len(rows) - yes} not met, 0 not measured in this run."
    # the figures are read back from bench/out/NAME.json as the scripts write them
    monkeypatch.setattr(run_all, "OUT", tmp_path)
    (tmp_path / "bench_swiss.json").write_text(json.dumps(sample()["bench_swiss"]))
    assert run_all.read_figures("bench_swiss")["sizes"][0]["players"] == 20
    assert run_all.read_figures("bench_publish") is None


def test_figures_are_written_where_run_all_reads_them(tmp_path, monkeypatch):
    figures = _load("figures")
    monkeypatch.setattr(figures, "OUT", tmp_path)
    path = figures.write_figures("bench_x", {"sizes": [{"rows": 1}]})
    assert path == tmp_path / "bench_x.json"
    monkeypatch.setattr(run_all, "OUT", tmp_path)
    assert run_all.read_figures("bench_x")["sizes"] == [{"rows": 1}]
