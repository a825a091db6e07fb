#!/usr/bin/env bash
# A complete small event: 14 players, Spardame at tables of 3 to 5, 3 rounds: seating,
# result import, standings, ratings, the exported records and the published site.
#
#   examples/run-example.sh [FOLDER]
#
# Works in FOLDER (created if missing; default: a new temporary folder) on the
# default database, tourney.db in that folder. The round files are the records of
# the tables `tourney round seat` prints for this event (seed 2026);
# examples/make_records.py regenerates them.
set -euo pipefail

HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
WORK="${1:-$(mktemp -d "${TMPDIR:-/tmp}/tourney-example.XXXXXX")}"
mkdir -p "$WORK"
cd "$WORK"
if [ -e tourney.db ]; then
    echo "$WORK/tourney.db exists already; give an empty folder" >&2
    exit 1
fi
source "$HERE/example-event.sh"

for round in 1 2 3; do
    echo >&2
    echo "== round $round" >&2
    tourney round seat example-cup
    tourney result import "$HERE/round-$round.csv" --event example-cup
    tourney standings example-cup
done

echo >&2
echo "== ratings" >&2
tourney rating show --variant spardame
tourney result export example-cup --out example-cup.csv
# A club on paper prints a round's score sheet and fills it in a spreadsheet.
tourney round sheet example-cup 3 --out round-3-sheet.xlsx
tourney standings example-cup --out example-cup-standings.xlsx
tourney publish --out site --lang en --lang sv
echo "done: the database is $WORK/tourney.db, the results in $WORK/example-cup.csv," >&2
echo "a score sheet in $WORK/round-3-sheet.xlsx," >&2
echo "the site in $WORK/site/index.html" >&2
