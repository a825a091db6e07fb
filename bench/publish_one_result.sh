#!/usr/bin/env bash
# Re-publish after one result in a big event (issue 34): one event of N players at tables of
# four, round 1 played, round 2 seated; a full `tourney publish --no-replays`, then one match of
# round 2 imported and the same folder published again. Prints both: wall seconds, peak RSS,
# pages and pages rendered. Usage: bash bench/publish_one_result.sh [N] (default 4000).
# Uses .venv/bin/tourney of this checkout; works in /tmp/pubbigN (made afresh).
set -euo pipefail
N=${1:-4000}
T="$(cd "$(dirname "$0")/.." && pwd)/.venv/bin/tourney"
D=/tmp/pubbig$N; rm -rf "$D"; mkdir "$D"; cd "$D"
python3 -c "
print('name,club'); [print(f'Player {i:05d},Club {i%50}') for i in range($N)]" > players.csv
$T --db l.db player import players.csv >/dev/null 2>&1
$T --db l.db event create big --variant spardame --table-sizes 4 --rule deals=2 >/dev/null 2>&1
$T --db l.db event enter big --all >/dev/null 2>&1
$T --db l.db round seat big >/dev/null 2>&1
$T --db l.db simulate --event big --round 1 > r1.csv 2>/dev/null
$T --db l.db result import r1.csv >/dev/null 2>&1
$T --db l.db round seat big >/dev/null 2>&1
$T --db l.db simulate --event big --round 2 > r2.csv 2>/dev/null
python3 - <<'PY'
import csv
rows = list(csv.reader(open("r2.csv")))
head = rows[0]; t = head.index("table")
one = [rows[0]] + [r for r in rows[1:] if r[t] == "1"]
csv.writer(open("one.csv","w",newline="")).writerows(one)
PY
/usr/bin/time -f "full %e s %M KB" $T --db l.db publish --out site --no-replays --json > full.json 2> full.time
$T --db l.db result import one.csv >/dev/null 2>&1
/usr/bin/time -f "one %e s %M KB" $T --db l.db publish --out site --no-replays --json > one.json 2> one.time
python3 -c "
import json
for n in ('full','one'):
    d=json.load(open(n+'.json'))['details']; print(n, open(n+'.time').read().strip().splitlines()[-1], 'pages', d['pages'], 'rendered', d['rendered'])"
