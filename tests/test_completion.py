"""Shell completion: event slugs, player names and variants, read-only."""
from __future__ import annotations

import os
import subprocess
import sys

import pytest


def complete(words: str, db: str | None, cwd) -> list[str]:
    """What bash completion offers for the command line `words` (the last word
    being completed), through click's real completion protocol."""
    env = {k: v for k, v in os.environ.items() if k != "TOURNEY_DB"}
    env.update(_TOURNEY_COMPLETE="bash_complete", COMP_WORDS=words,
               COMP_CWORD=str(len(words.split(" ")) - 1))
    if db:
        env["TOURNEY_DB"] = db
    done = subprocess.run([sys.executable, "-m", "tourney.cli.main"], env=env, cwd=cwd,
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    # bash_complete prints "type,value" lines
    return [line.split(",", 1)[1] for line in done.stdout.splitlines() if "," in line]


@pytest.fixture
def club(tmp_path, run_cli):
    db = str(tmp_path / "club.db")
    run_cli(db, "player", "add", "Anna Berg", "Anders Ek", "Bertil Falk")
    run_cli(db, "event", "create", "spring-cup", "--variant", "spardame")
    run_cli(db, "event", "create", "summer-cup", "--variant", "dam-brade")
    return db


def test_completes_event_slugs(club, tmp_path):
    assert complete("tourney standings sp", club, tmp_path) == ["spring-cup"]
    assert complete("tourney round seat ", club, tmp_path) == ["spring-cup", "summer-cup"]


def test_completes_player_names_and_variants(club, tmp_path):
    # as click hands them to the bash script, which `read` takes one level of
    # backslashes off (see test_bash_puts_a_name_with_spaces_on_the_line_as_one_word)
    assert complete("tourney player rename An", club, tmp_path) == [
        "Anders\\\\ Ek", "Anna\\\\ Berg"]
    assert complete("tourney variants dam-", club, tmp_path) == ["dam-stick", "dam-brade"]
    assert "spardame" in complete("tourney event create x --variant s", club, tmp_path)


def test_completion_never_creates_a_database(tmp_path):
    missing = tmp_path / "nope.db"
    assert complete("tourney standings s", str(missing), tmp_path) == []
    assert not missing.exists()
    assert not (tmp_path / "tourney.db").exists()


def test_bash_puts_a_name_with_spaces_on_the_line_as_one_word(run_cli, tmp_path):
    """The real bash script click writes, run by bash: a candidate is put on the
    command line as it is, so a name with a space (or a quote) must come quoted."""
    db = str(tmp_path / "club.db")
    run_cli(db, "player", "add", "Anna Berg", "Anders O'Brien", "Bertil Falk")
    tourney = os.path.join(os.path.dirname(sys.executable), "tourney")
    script = (f'source <(_TOURNEY_COMPLETE=bash_source "{tourney}")\n'
              "COMP_WORDS=(tourney player rename An); COMP_CWORD=3\n"
              f'_tourney_completion "{tourney}"\n'
              'printf "%s\\n" "${COMPREPLY[@]}"\n')
    env = dict(os.environ, TOURNEY_DB=db, PATH=os.path.dirname(sys.executable) + ":"
               + os.environ.get("PATH", ""))
    done = subprocess.run(["/bin/bash", "-c", script], env=env, cwd=tmp_path,
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines() == ["Anders\\ O\\'Brien", "Anna\\ Berg"]
