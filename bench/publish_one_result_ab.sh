#!/usr/bin/env bash
# Re-publishing after one result, two installs of tourney in the same run (issue 34): the
# league of publish_one_result.sh (one event of N players at tables of four, round 1
# played, round 2 seated) built once by install A; then each install publishes it in full
# into a folder of its own (`tourney publish --no-replays`), and for each of R tables of
# round 2 the table is imported (by A) and each install publishes its folder again, in
# turns (A first, then B first, ...); then each publishes twice with nothing changed. Prints
# per publish: CPU seconds (user+system: steadier on a shared machine), wall seconds, peak
# RSS, pages and pages rendered; then whether the two sites hold the same bytes (but the
# publication time).
# Usage: A=path/to/tourney B=path/to/tourney bash bench/publish_one_result_ab.sh [N] [DB-URL] [R]
# (N default 4000; DB default an SQLite file in the work folder; a PostgreSQL URL names a
# scratch database this script fills: createdb first, dropdb after; R default 3). Works in
# /tmp/pubab$N (WORK= another folder), made afresh.
set -euo pipefail
. "$(dirname "$0")/league_one_event.sh"  # build_league, table_records: the league
N=${1:-4000}
DB=${2:-sqlite:///l.db}
R=${3:-3}
: "${A:?A=path of install A's tourney}" "${B:?B=path of install B's tourney}"
D=${WORK:-/tmp/pubab$N}; rm -rf "$D"; mkdir "$D"; cd "$D"
build_league "$A" "$N" "$DB"
for k in $(seq 1 "$R"); do table_records "$k" "t$k.csv"; done
pub() {  # label tourney site
  /usr/bin/time -f "%U %S %e %M" "$2" --db "$DB" publish --out "$3" --no-replays --json \
    > "$1.json" 2> "$1.time"
  python3 -c "
import json
d = json.load(open('$1.json'))['details']; u, s, e, m = open('$1.time').read().split()[-4:]
print('$1', 'cpu %.2f' % (float(u) + float(s)), 'wall', e, 'rss_MB', int(m) // 1024,
      'pages', d['pages'], 'rendered', d['rendered'])"
}
$B publish --help >/dev/null  # B's bytecode of the publish command (A's: the commands above)
echo "load $(cut -d' ' -f1-3 /proc/loadavg)"
pub full_A "$A" siteA
pub full_B "$B" siteB
for k in $(seq 1 "$R"); do
  $A --db "$DB" result import "t$k.csv" >/dev/null 2>&1
  if [ $((k % 2)) -eq 1 ]; then pub "one${k}_A" "$A" siteA; pub "one${k}_B" "$B" siteB
  else pub "one${k}_B" "$B" siteB; pub "one${k}_A" "$A" siteA; fi
  echo "load $(cut -d' ' -f1-3 /proc/loadavg)"
done
pub same_A "$A" siteA
pub same_B "$B" siteB
pub same2_B "$B" siteB
pub same2_A "$A" siteA
python3 - <<'PY'
from pathlib import Path
def files(d):
    return {p.relative_to(d).as_posix(): p.read_bytes()
            for p in sorted(Path(d).rglob("*")) if p.is_file()}
a, b = files("siteA"), files("siteB")
skip = {"index.html", "data/index.json", ".tourney-site", ".tourney-files"}
diff = sorted(n for n in set(a) | set(b) if n not in skip and a.get(n) != b.get(n))
print("the two sites differ in", len(diff), "files", diff[:5])
PY
echo "load $(cut -d' ' -f1-3 /proc/loadavg)"
