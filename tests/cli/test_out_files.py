"""Every command that writes a table with --out says what it wrote (stderr), and
with --json answers what it wrote (stdout) instead of the rows."""
from __future__ import annotations

import json

import pytest
from conftest import from_snapshot
from simulated_rounds import kortrad_cup_seated

WRITERS = {
    "standings": (["standings", "cup"], "player", 8),
    "player list": (["player", "list"], "player", 8),
    "result export": (["result", "export", "cup"], "deal", 4),
    "round sheet": (["round", "sheet", "cup", "1", "--deals", "2"], "deal", 4),
}


@pytest.fixture
def cup(tourney, db_url, tmp_path):
    def build(_):
        records = kortrad_cup_seated(tourney, tmp_path, rounds=2)
        tourney("result", "import", str(records))  # standings and export have rows

    # built once per backend, then copied for each test
    from_snapshot(db_url, "out-files cup", build)
    return tourney


@pytest.mark.parametrize("name", WRITERS)
@pytest.mark.parametrize("suffix", ["csv", "xlsx"])
def test_every_out_says_what_it_wrote(cup, tmp_path, name, suffix):
    args, noun, rows = WRITERS[name]
    out = tmp_path / f"{name.replace(' ', '-')}.{suffix}"
    run = cup(*args, "--out", str(out))
    assert run.stderr.strip().endswith(f"wrote {rows} {noun}s to {out}"), run.stderr
    assert run.stdout == "" and out.stat().st_size > 0
    as_json = cup(*args, "--out", str(out), "--yes", "--json")
    answer = json.loads(as_json.stdout)
    assert answer["file"] == str(out) and answer["format"] == suffix


@pytest.mark.parametrize("args, option", [
    *[(args, "--out") for args, _, _ in WRITERS.values()],
    (["publish"], "--out"),
    (["notify", "cup", "--round", "1"], "--outbox"),
    (["result", "import", "records.csv"], "--skip-invalid"),
], ids=lambda value: value if isinstance(value, str) else " ".join(value[:2]))
def test_an_output_named_like_an_option_is_refused(cup, tmp_path, monkeypatch, args, option):
    """`--out --json`: the name forgotten, the next option taken for it. Refused
    (exit 2) before anything is written, rather than a file or folder `--json`."""
    monkeypatch.chdir(tmp_path)
    (tmp_path / "records.csv").write_text("round\n", encoding="utf-8")
    before = sorted(p.name for p in tmp_path.iterdir())
    run = cup(*args, option, "--json", exit_code=2)
    assert run.stderr == (f"Error: {option} '--json' looks like an option, not a name; "
                          f"nothing was written. Give the name after {option} (./--json "
                          "for one that really begins with -).\n")
    assert sorted(p.name for p in tmp_path.iterdir()) == before
