"""Terminal escape injection: text from files and the database printed inert.

A name such as ``ESC[2J ESC[H ESC[32m added: 3 matches ESC]0;pwned BEL`` would
clear the organizer's screen, print fake success text and retitle the window;
a right-to-left override reorders what follows it. Every message and table
shows such characters as visible escapes (``\\x1b``, ``\\u202e``); JSON and CSV
output keep the data exact, on a terminal escaped too (CSV and TSV cells as the
tables', JSON with its own ``\\uXXXX`` escapes: the same data).
"""
from __future__ import annotations

import json
import re

import pytest

from tourney.cli.output import terminal_text

HOSTILE = "Eve\x1b[2J\x1b[H\x1b[32madded: 3 matches\x1b]0;pwned\x07"
BIDI = "Mallory\u202eredro\u200b\u2066x\u2069"
# What must never reach a terminal raw.
RAW = re.compile("[\x00-\x09\x0b-\x1f\x7f-\x9f\u200b-\u200f\u202a-\u202e\u2066-\u2069\ufeff]")


def assert_inert(*texts: str) -> None:
    for text in texts:
        found = RAW.search(text)
        assert found is None, f"raw {found.group()!r} in {text!r}"


@pytest.mark.parametrize("text, shown", [
    (HOSTILE, "Eve\\x1b[2J\\x1b[H\\x1b[32madded: 3 matches\\x1b]0;pwned\\x07"),
    (BIDI, "Mallory\\u202eredro\\u200b\\u2066x\\u2069"),
    ("C1 \x9b2J and DEL \x7f", "C1 \\x9b2J and DEL \\x7f"),
    ("Åsa Öberg, Jyväskylä, مرحبا", "Åsa Öberg, Jyväskylä, مرحبا"),  # letters stay
])
def test_terminal_text(text, shown):
    assert terminal_text(text) == shown
    assert terminal_text("a\nb") == "a\nb"
    assert terminal_text("a\nb", keep_newlines=False) == "a\\x0ab"


def store_names(db_url: str, *names: str) -> None:
    """Players stored as an older version or another program may have left them
    (`player add` refuses control characters in new names)."""
    from sqlalchemy import insert

    from tourney.storage.db import open_engine, transaction
    from tourney.storage.models import Player

    with transaction(open_engine(db_url)) as session:
        session.execute(insert(Player), [{"name": name} for name in names])


def test_names_in_tables_and_messages(tourney, db_url):
    store_names(db_url, HOSTILE, BIDI)
    listing = tourney("player", "list")
    assert_inert(listing.stdout, listing.stderr)
    assert "Eve\\x1b[2J" in listing.stdout and "Mallory\\u202e" in listing.stdout
    # JSON keeps the names exactly (and JSON itself escapes control characters)
    names = {p["name"] for p in tourney("player", "list", "--json").json}
    assert {HOSTILE, BIDI} <= names
    refused = tourney("player", "add", HOSTILE, exit_code=None)
    assert refused.exit_code in (1, 2)
    assert_inert(refused.stderr)
    renamed = tourney("player", "rename", BIDI, "Mallory")
    assert_inert(renamed.stderr)
    tourney("event", "create", "cup", "--variant", "kortrad", "--name", "Cup\u202e1")
    for command in (("event", "show", "cup"), ("event", "list"),
                    ("player", "add", "Bo", "Cilla"), ("event", "enter", "cup", "--all"),
                    ("round", "seat", "cup"), ("round", "show", "cup", "1"),
                    ("standings", "cup"), ("log",)):
        result = tourney(*command)
        assert_inert(result.stdout, result.stderr)


def test_names_in_import_errors(tourney, tmp_path):
    tourney("player", "add", "Anna", "Bo", "Cilla", "Dag")
    tourney("event", "create", "cup", "--variant", "kortrad", "--rule", "deals=1",
            "--table-sizes", "4")
    tourney("event", "enter", "cup", "--all")
    tourney("round", "seat", "cup")
    record = tmp_path / "evil.csv"
    record.write_text(
        "event,variant,round,table,deal,players,dealer,hands,stock,passes,play,scores\n"
        f"cup,kortrad,1,1,1,{HOSTILE};Bo;Cilla;Dag,{HOSTILE},,,,junk,\n", encoding="utf-8")
    result = tourney("result", "import", record, exit_code=None)
    assert result.exit_code in (1, 2)
    assert_inert(result.stdout, result.stderr)
    assert "\\x1b" in result.stderr


def test_click_usage_errors(tourney):
    result = tourney("pl\x1b[2Jayer", exit_code=2)
    assert_inert(result.stderr)
    assert "pl\\x1b[2Jayer" in result.stderr
    result = tourney("result", "history", "cup", "\x1b[31m", "1", exit_code=2)
    assert_inert(result.stderr)


def on_a_terminal(*arguments: str) -> str:
    """What ``tourney ARGUMENTS`` prints on standard output when it is a terminal
    (a pseudo-terminal; its ``\\r\\n`` line ends read as ``\\n``)."""
    import os
    import pty
    import subprocess
    import sys

    primary, secondary = pty.openpty()
    try:
        run = subprocess.run([sys.executable, "-m", "tourney.cli.main", *arguments],
                             stdout=secondary, stderr=subprocess.PIPE, timeout=120)
        os.close(secondary)
        shown = b""
        while True:
            try:
                chunk = os.read(primary, 65536)
            except OSError:  # EIO: everything written has been read
                break
            if not chunk:
                break
            shown += chunk
    finally:
        os.close(primary)
    assert run.returncode == 0, run.stderr
    return shown.decode().replace("\r\n", "\n")


@pytest.mark.parametrize("command", [
    ("player", "list", "--csv"),  # a table the library writes (open_table)
    ("player", "list", "--tsv"),
    ("player", "list", "--format", "csv"),
    ("event", "list", "--csv"),  # a table the command line prints (emit_table)
    ("event", "list", "--tsv"),
])
def test_csv_and_tsv_on_a_terminal_are_inert_and_exact_in_a_pipe(tourney, db_url, command):
    store_names(db_url, HOSTILE, BIDI)
    tourney("event", "create", "cup", "--variant", "kortrad", "--name", "Cup\u202e1")
    shown = on_a_terminal(*command, "--db", db_url)
    assert_inert(shown.replace("\t", ","))  # a TSV's own tabs are its delimiters
    piped = tourney(*command).stdout  # a file or a pipe gets the exact text
    if command[0] == "player":
        assert "Eve\\x1b[2J" in shown and "Mallory\\u202eredro" in shown
        assert HOSTILE in piped and BIDI in piped
    else:
        assert "Cup\\u202e1" in shown and "Cup\u202e1" in piped


def test_json_on_a_terminal_is_inert_and_reads_back_the_same(tourney, db_url):
    """A JSON encoder escapes C0 controls but leaves C1 controls (\\x9b is a CSI)
    and bidirectional overrides as they are: on a terminal they are written as JSON
    escapes, the same data; a pipe gets them as encoded."""
    c1 = "Csi\x9b2J"
    store_names(db_url, HOSTILE, BIDI, c1)
    shown = on_a_terminal("player", "list", "--json", "--db", db_url)
    assert_inert(shown)
    assert "\\u009b" in shown and "\\u202e" in shown
    piped = tourney("player", "list", "--json").stdout
    assert c1 in piped and BIDI in piped  # a pipe: as encoded
    assert json.loads(shown) == json.loads(piped)
    assert {HOSTILE, BIDI, c1} <= {row["name"] for row in json.loads(shown)}
