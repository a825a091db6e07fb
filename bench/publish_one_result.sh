#!/usr/bin/env bash
# Re-publish after one result in a big event (issue 34): one event of N players at tables of
# four, round 1 played, round 2 seated; a full `tourney publish --no-replays`, then one match of
# round 2 imported and the same folder published again, then published once more with nothing
# changed. Prints each: wall seconds, CPU seconds (user+system: steadier on a shared machine),
# peak RSS, pages and pages rendered.
# Usage: bash bench/publish_one_result.sh [N] [DB-URL]   (N default 4000; DB default an SQLite
# file in the work folder; a PostgreSQL URL names a scratch database this script fills: e.g.
# createdb -h 127.0.0.1 bench_pub, then postgresql://127.0.0.1:5432/bench_pub, then dropdb).
# Uses .venv/bin/tourney of this checkout (TOURNEY=path: another); works in /tmp/pubbigN (WORK=
# another folder), made afresh.
set -euo pipefail
# The installs run from their modules' bytecode, as an installed tourney does (pip
# compiles them; the first commands below write it): PYTHONDONTWRITEBYTECODE, set in
# some shells, made every publish compile the project's modules from source again
# (~0.1 CPU s of a publish: 0.70 against 0.80 at 4,000 players, nothing changed).
unset PYTHONDONTWRITEBYTECODE
N=${1:-4000}
DB=${2:-sqlite:///l.db}
T=${TOURNEY:-"$(cd "$(dirname "$0")/.." && pwd)/.venv/bin/tourney"}
D=${WORK:-/tmp/pubbig$N}; rm -rf "$D"; mkdir "$D"; cd "$D"
python3 -c "
print('name,club'); [print(f'Player {i:05d},Club {i%50}') for i in range($N)]" > players.csv
$T --db "$DB" player import players.csv >/dev/null 2>&1
$T --db "$DB" event create big --variant spardame --table-sizes 4 --rule deals=2 >/dev/null 2>&1
$T --db "$DB" event enter big --all >/dev/null 2>&1
$T --db "$DB" round seat big >/dev/null 2>&1
$T --db "$DB" simulate --event big --round 1 > r1.csv 2>/dev/null
$T --db "$DB" result import r1.csv >/dev/null 2>&1
$T --db "$DB" round seat big >/dev/null 2>&1
$T --db "$DB" simulate --event big --round 2 > r2.csv 2>/dev/null
python3 - <<'PY'
import csv
rows = list(csv.reader(open("r2.csv")))
head = rows[0]; t = head.index("table")
one = [rows[0]] + [r for r in rows[1:] if r[t] == "1"]
csv.writer(open("one.csv","w",newline="")).writerows(one)
PY
/usr/bin/time -f "full %e s %U+%S cpu-s %M KB" $T --db "$DB" publish --out site --no-replays --json > full.json 2> full.time
$T --db "$DB" result import one.csv >/dev/null 2>&1
/usr/bin/time -f "one %e s %U+%S cpu-s %M KB" $T --db "$DB" publish --out site --no-replays --json > one.json 2> one.time
/usr/bin/time -f "same %e s %U+%S cpu-s %M KB" $T --db "$DB" publish --out site --no-replays --json > same.json 2> same.time
python3 -c "
import json
for n in ('full','one','same'):
    d=json.load(open(n+'.json'))['details']; print(n, open(n+'.time').read().strip().splitlines()[-1], 'pages', d['pages'], 'rendered', d['rendered'])"
