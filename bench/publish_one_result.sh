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
. "$(dirname "$0")/league_one_event.sh"  # build_league, table_records: the league
N=${1:-4000}
DB=${2:-sqlite:///l.db}
T=${TOURNEY:-"$(cd "$(dirname "$0")/.." && pwd)/.venv/bin/tourney"}
D=${WORK:-/tmp/pubbig$N}; rm -rf "$D"; mkdir "$D"; cd "$D"
build_league "$T" "$N" "$DB"
table_records 1 one.csv
/usr/bin/time -f "full %e s %U+%S cpu-s %M KB" $T --db "$DB" publish --out site --no-replays --json > full.json 2> full.time
$T --db "$DB" result import one.csv >/dev/null 2>&1
/usr/bin/time -f "one %e s %U+%S cpu-s %M KB" $T --db "$DB" publish --out site --no-replays --json > one.json 2> one.time
/usr/bin/time -f "same %e s %U+%S cpu-s %M KB" $T --db "$DB" publish --out site --no-replays --json > same.json 2> same.time
python3 -c "
import json
for n in ('full','one','same'):
    d=json.load(open(n+'.json'))['details']; print(n, open(n+'.time').read().strip().splitlines()[-1], 'pages', d['pages'], 'rendered', d['rendered'])"
