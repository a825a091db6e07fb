"""bench/publish_one_result.sh and publish_one_result_ab.sh publish the same league,
built in one place (bench/league_one_event.sh, which both source): the commands it
runs, in order, and round 2's table files it cuts from the simulated round (a stub
tourney here that logs its commands; no benchmark run)."""
from __future__ import annotations

import csv
import re
import subprocess
from pathlib import Path

BENCH = Path(__file__).resolve().parent.parent / "bench"
STUB = """#!/usr/bin/env bash
echo "$*" >> commands.log
if [ "$3" = simulate ]; then
  echo "event,variant,round,table,deal,seat,player,score"
  for t in 1 2 3; do echo "big,spardame,$7,$t,1,1,P$t,0"; echo "big,spardame,$7,$t,1,2,Q$t,3"; done
fi
"""


def test_both_publish_scripts_source_the_one_league():
    for script in ("publish_one_result.sh", "publish_one_result_ab.sh"):
        text = (BENCH / script).read_text(encoding="utf-8")
        assert '. "$(dirname "$0")/league_one_event.sh"' in text, script
        assert "build_league " in text and "table_records " in text, script
        # none of the league's own commands is there a second time
        assert not re.search(r"event create|round seat|simulate --event|player import", text)


def test_the_league_is_built_and_its_tables_cut_as_both_scripts_publish_them(tmp_path):
    stub = tmp_path / "tourney"
    stub.write_text(STUB, encoding="utf-8")
    stub.chmod(0o755)
    work = tmp_path / "work"
    work.mkdir()
    script = (f'set -euo pipefail; . "{BENCH}/league_one_event.sh"; '
              f'build_league "{stub}" 5 sqlite:///l.db; table_records 2 t2.csv')
    subprocess.run(["bash", "-c", script], cwd=work, check=True, timeout=60)
    commands = (work / "commands.log").read_text(encoding="utf-8").splitlines()
    db = "--db sqlite:///l.db"
    assert commands == [
        f"{db} player import players.csv",
        f"{db} event create big --variant spardame --table-sizes 4 --rule deals=2",
        f"{db} event enter big --all", f"{db} round seat big",
        f"{db} simulate --event big --round 1", f"{db} result import r1.csv",
        f"{db} round seat big", f"{db} simulate --event big --round 2"]
    players = list(csv.reader((work / "players.csv").open(encoding="utf-8")))
    assert players[0] == ["name", "club"] and len(players) == 6
    table = list(csv.reader((work / "t2.csv").open(encoding="utf-8")))
    assert table[0][:4] == ["event", "variant", "round", "table"]
    assert [(r[2], r[3], r[6]) for r in table[1:]] == [("2", "2", "P2"), ("2", "2", "Q2")]
