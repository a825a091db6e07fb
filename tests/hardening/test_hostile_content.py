"""Hostile text in names, on SQLite and PostgreSQL, and in what is made of them.

Player, club and event names holding HTML, quotes, line breaks, right-to-left
marks, 10,000 characters, NUL bytes or lone surrogates are stored and shown as
the same text, or refused with a one-line message (exit 1, nothing stored, no
traceback). Exports contain no spreadsheet formula (the scheme: player names may
not begin with = + - @, so the only cells of an export that begin with one of
them are numeric scores such as -50) and import back as a no-op. The published
site shows names escaped, and `publish --out` writes only inside the folder it
was given, whatever the slugs in the database or the symlinks in an old site.
"""
from __future__ import annotations

import csv
import io
import os
import re
from pathlib import Path

import pytest
from event_setup import seated_event, simulate_tables, write_file
from sqlmodel import Session

from tourney.cli.output import terminal_text
from tourney.storage.db import open_engine
from tourney.storage.models import Event
from tourney.storage.schema import ensure_schema

# name -> must it be refused? (None: either is fine, as long as it is clean)
PLAYER_NAMES = {
    "<script>alert('x')</script>": False,
    '"><img src=x onerror=alert(1)>': False,
    "O'Brien \"Ace\" `tick` \\back": False,
    "Anna, Berg": False,
    "\u202eevil\u202c Berg": False,          # right-to-left override
    "\u200fعلي بن أحمد": False,               # right-to-left mark, Arabic
    "A\u200bnna": False,                      # zero-width space
    "🂡 Ace of Spades": False,
    "x" * 200: False,
    "Anna\nBerg": True,
    "Anna\r\nBerg": True,
    "Anna\tBerg": True,
    "An\x00na": True,
    "x" * 10_000: True,
    "x" * 201: True,
    "bad\udcffbyte": True,                    # what argv holds for a non-UTF-8 byte
    "=HYPERLINK(\"http://evil\",\"x\")": True,
    "+46 70 123": True,
    "-2+3+cmd|' /C calc'!A0": True,
    "@SUM(1+1)*cmd|' /C calc'!A0": True,
    "  =padded": True,
    "Anna;Berg": True,
    "   ": True,
}


@pytest.fixture
def raw_cli(run_cli, db_url):
    """The CLI with the database named by TOURNEY_DB rather than a trailing
    --db, so arguments may follow a ``--`` (names that begin with '-')."""
    def run(*args, exit_code=0):
        return run_cli(None, *args, exit_code=exit_code, env={"TOURNEY_DB": db_url})
    return run


def one_line_error(run) -> str:
    text = run.stderr.strip()
    assert text.startswith("Error: "), run.stderr
    assert "\n" not in text, "the message is one line (line breaks in names are escaped)"
    assert len(text) < 600, "a long name is not echoed whole"
    assert "Traceback" not in run.stderr
    return text


def listed_errors(run, path) -> str:
    """A file's errors, each on a line of its own naming the file (as `result
    import` and `player import` list them), then one line "Error: ..."."""
    lines = run.stderr.strip().splitlines()
    assert lines[-1].startswith("Error: "), run.stderr
    for line in lines[:-1]:
        assert line.startswith(f"{path}, "), "one error a line (line breaks escaped)"
    assert all(len(line) < 600 for line in lines), "a long name is not echoed whole"
    assert "Traceback" not in run.stderr
    return run.stderr


def player_names(tourney) -> list[str]:
    return [p["name"] for p in tourney("player", "list", "--json").json]


@pytest.mark.parametrize("name", list(PLAYER_NAMES), ids=lambda n: repr(n[:24]))
def test_player_names(tourney, raw_cli, name):
    refused = PLAYER_NAMES[name]
    run = raw_cli("player", "add", "--", name, exit_code=None)
    if run.exit_code == 0:
        assert not refused, f"{name!r} should have been refused"
        assert player_names(tourney) == [name.strip()]
        listing = tourney("player", "list").stdout
        # the table shows it terminal-safe: format characters as escapes
        assert terminal_text(name.strip(), keep_newlines=False) in listing
    else:
        assert refused is not False, f"{name!r} was refused: {run.stderr}"
        assert run.exit_code == 1
        one_line_error(run)
        assert player_names(tourney) == []


@pytest.mark.parametrize("name", [n for n, bad in PLAYER_NAMES.items() if bad is True][:8],
                         ids=lambda n: repr(n[:24]))
def test_renaming_to_a_hostile_name_is_refused(tourney, raw_cli, name):
    tourney("player", "add", "Anna")
    one_line_error(raw_cli("player", "rename", "--", "Anna", name, exit_code=1))
    assert player_names(tourney) == ["Anna"]


@pytest.mark.parametrize("club", ["<b>Vasa</b> & \"Co\"", "\u202eabc", "Vasa\nIF", "V\x00",
                                  "c" * 10_000])
def test_club_names(tourney, club):
    run = tourney("player", "add", "Anna", "--club", club, exit_code=None)
    if run.exit_code == 0:
        assert tourney("player", "list", "--json").json[0]["club"] == club.strip()
    else:
        assert run.exit_code == 1
        one_line_error(run)
        assert any(c in club for c in "\n\x00") or len(club) > 200
        assert player_names(tourney) == []


@pytest.mark.parametrize("title", ["<script>alert(1)</script>", "Cup \"2024\" & 'more'",
                                   "\u202eevil", "Cup\nNight", "N\x00", "t" * 10_000,
                                   "=1+1"])
def test_event_names(tourney, title):
    run = tourney("event", "create", "cup", "--variant", "spardame", "--name", title,
                  exit_code=None)
    if run.exit_code == 0:
        assert tourney("event", "show", "cup", "--json").json["name"] == title.strip()
        assert terminal_text(title.strip()) in tourney("event", "show", "cup").stdout
    else:
        assert run.exit_code == 1
        one_line_error(run)
        assert tourney("event", "list", "--json").json == []


@pytest.mark.parametrize("slug", ["../escape", "a/b", "<b>", "Cup", "a b", "a\x00b", "-cup",
                                  "s" * 10_000],
                         ids=lambda s: repr(s[:12]))
def test_hostile_event_slugs_are_refused(tourney, raw_cli, slug):
    run = raw_cli("event", "create", "--variant", "spardame", "--", slug, exit_code=None)
    assert run.exit_code in (1, 2)
    one_line_error(run)
    assert tourney("event", "list", "--json").json == []


@pytest.mark.parametrize("content, phrase, code", [
    (b"name\nAnna\x00Berg\n", "a NUL byte", 2),  # not a text file: a usage error
    (b"name\nAnna\nBo\x81Ek\n", "neither UTF-8 nor Windows-1252", 2),
    (b"name\n" + b"n" * 10_000 + b"\n", "at most 200", 1),
    (b"name\n=cmd|' /C calc'!A0\n", "formula", 1),
    (b"name,club\n\"Anna\nBerg\",x\n", "control characters", 1),
])
def test_player_files_with_hostile_names(tourney, tmp_path, content, phrase, code):
    path = tmp_path / "players.csv"
    path.write_bytes(content)
    run = tourney("player", "import", str(path), exit_code=code)
    # a file that cannot be read stops at once; every bad row is listed
    text = one_line_error(run) if code == 2 else listed_errors(run, path)
    assert phrase in text
    assert player_names(tourney) == []


# ------------------------------------------------------------------- export and site

HOSTILE_PLAYERS = [
    "<script>alert('x')</script>", '"><img src=x onerror=alert(1)>',
    "O'Brien \"Ace\", Jr.", "\u202eevil\u202c Berg", "Bo Ek", "Cai", "Di", "Ed",
]
FORMULA_CELL = re.compile(r"^[=+@]|^-(?!\d+(?:\.\d+)?(?:;-?\d+(?:\.\d+)?)*$)")


@pytest.fixture
def hostile_event(tourney, tmp_path):
    rules = {"deals": 2, "jd_bonus": -50}
    tables = seated_event(tourney, "cup", "spardame", HOSTILE_PLAYERS, table_size=4,
                          rules=rules)
    records = simulate_tables("spardame", "cup", tables, rules=rules, seed=3, deals=2)
    path = write_file(tmp_path / "round1.csv", records, "spardame")
    assert "added: 2 matches" in tourney("result", "import", str(path)).stderr
    return tables


def test_export_has_no_formulas_and_imports_back_unchanged(tourney, hostile_event, tmp_path):
    out = tmp_path / "export.csv"
    tourney("result", "export", "cup", "--out", str(out))
    rows = list(csv.reader(io.StringIO(out.read_text(encoding="utf-8"))))
    header, body = rows[0], rows[1:]
    assert len(body) == 4
    players = {name for row in body for name in row[header.index("players")].split(";")}
    assert players == set(HOSTILE_PLAYERS)
    negative_scores = 0
    for row in body:
        for column, cell in zip(header, row):
            assert not FORMULA_CELL.search(cell), (column, cell)
            negative_scores += column == "scores" and cell.startswith("-")
    # the one kind of cell that begins with '-' (numbers) does occur: jd_bonus=-50
    assert any("-50" in row[header.index("scores")] for row in body)
    again = tourney("result", "import", str(out))
    assert "added: 0 matches, unchanged: 2" in again.stderr


@pytest.mark.parametrize("column, value", [
    ("event", "cup\x00"), ("players", None), ("table", "1\x00"), ("table", "9" * 300),
    ("round", str(2 ** 31)), ("round", str(2 ** 63)), ("deal", str(2 ** 31)),
    ("event", "e" * 10_000), ("event", "../../cup"), ("dealer", "<script>x</script>"),
], ids=lambda v: repr(v)[:16])
def test_import_of_hostile_cells_is_refused_cleanly(tourney, tmp_path, column, value):
    """Cells that reach database lookups: NUL (PostgreSQL cannot hold it) and
    numbers past INTEGER crashed the importer in the driver before the reader
    refused them."""
    rules = {"deals": 2}
    tables = seated_event(tourney, "cup", "spardame", HOSTILE_PLAYERS, table_size=4,
                          rules=rules)
    records = simulate_tables("spardame", "cup", tables, rules=rules, seed=4, deals=2)
    good = write_file(tmp_path / "good.csv", records, "spardame")
    rows = list(csv.reader(io.StringIO(good.read_text(encoding="utf-8"))))
    index = rows[0].index(column)
    for row in rows[1:3]:  # the first match
        row[index] = value if value is not None else row[index].replace(";", "\x00;", 1)
    bad = tmp_path / "bad.csv"
    with open(bad, "w", encoding="utf-8", newline="") as stream:
        csv.writer(stream, lineterminator="\n").writerows(rows)
    run = tourney("result", "import", str(bad), exit_code=None)
    assert "Traceback" not in run.stderr and "line 2" in run.stderr
    if "unknown event" in run.stderr:  # a usage error, said once for the file
        assert run.exit_code == 2 and column == "event"
        assert run.stderr.count("unknown event") == 1
    elif "a NUL byte" in run.stderr:  # not a text file: reading stops, a usage error
        assert run.exit_code == 2 and "the database is unchanged" in run.stderr
    else:
        assert run.exit_code == 1 and "the database is unchanged" in run.stderr
    # nothing was stored and nothing is held: the good file imports whole
    assert "added: 2 matches" in tourney("result", "import", str(good)).stderr


def test_published_site_escapes_names(tourney, hostile_event, tmp_path):
    site = tmp_path / "site"
    tourney("publish", "--out", str(site), "--no-replays")
    pages = [p for p in site.rglob("*.html")]
    assert pages
    texts = {p: p.read_text(encoding="utf-8") for p in pages}
    for page, text in texts.items():
        assert "<script>alert(" not in text, page
        assert "<img src=x" not in text, page
    everything = "\n".join(texts.values())
    assert "&lt;script&gt;alert(" in everything
    assert "&#34;&gt;&lt;img src=x onerror=alert(1)&gt;" in everything \
        or "&quot;&gt;&lt;img src=x onerror=alert(1)&gt;" in everything
    assert "\u202eevil\u202c Berg" in everything  # shown as text, not dropped


def files_outside(root: Path, keep: Path) -> set[str]:
    return {str(p) for p in root.rglob("*") if keep not in p.parents and p != keep}


def test_publish_writes_only_inside_out_whatever_the_slugs(tourney, db_url, tmp_path):
    """Slugs the CLI refuses may still be in a database (written by another tool,
    an older version): the site must not follow them out of its folder."""
    engine = open_engine(db_url)
    ensure_schema(engine)
    with Session(engine) as session:
        for slug in ("../../escaped", "/tmp/absolute", "..", "a/../../b"):
            session.add(Event(slug=slug, name=slug, variant="spardame", rules_json="{}",
                              table_min=4, table_max=4, table_preferred=4, seating="random",
                              seed=1, tiebreaks_json="[]"))
        session.commit()
    root = tmp_path / "root"
    out = root / "a" / "site"
    out.parent.mkdir(parents=True)
    (root / "sentinel").write_text("x")
    before = files_outside(root, out)
    tourney("publish", "--out", str(out))
    assert files_outside(root, out) == before
    assert not Path("/tmp/absolute").exists() or not any(Path("/tmp/absolute").iterdir())
    assert (out / "index.html").is_file()
    # each unsafe slug got a folder named by the event's id instead
    assert sorted(p.name for p in (out / "events").iterdir()) == [f"e_{i}" for i in range(1, 5)]


def test_publish_over_a_site_holding_symlinks_leaves_their_targets_alone(tourney, tmp_path):
    tourney("player", "add", "Anna", "Bo")
    site = tmp_path / "site"
    tourney("publish", "--out", str(site))
    victim = tmp_path / "victim"
    victim.mkdir()
    (victim / "precious.txt").write_text("keep me")
    # planted in the old site: a folder the builder writes, and a link beside it
    players = site / "players"
    os.rename(players, tmp_path / "old-players")
    os.symlink(victim, players)
    os.symlink(victim, site / "link-to-victim")
    tourney("publish", "--out", str(site))
    assert sorted(p.name for p in victim.iterdir()) == ["precious.txt"]
    assert (victim / "precious.txt").read_text() == "keep me"
    assert (site / "players").is_dir() and not (site / "players").is_symlink()
    assert not (site / "link-to-victim").exists()


def test_publish_refuses_a_folder_that_holds_something_else(tourney, tmp_path):
    home = tmp_path / "home"
    home.mkdir()
    (home / "thesis.tex").write_text("years of work")
    run = tourney("publish", "--out", str(home), exit_code=None)
    assert run.exit_code == 2
    one_line_error(run)
    assert (home / "thesis.tex").read_text() == "years of work"
