#!/usr/bin/env bash
# Round 1 of the example event entered at the tables through `tourney serve`:
# the server runs over the event's database, each table's link is listed with
# `tourney round links`, and each table sends its match (the rows of
# examples/round-1.csv for that table) to its link as text/csv, as a score app
# or a phone would. The engines check every deal; the verdicts come back as JSON.
#
#   examples/serve-round.sh [FOLDER]        (PORT=0 by default: a free port)
set -euo pipefail

HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
WORK="${1:-$(mktemp -d "${TMPDIR:-/tmp}/tourney-serve.XXXXXX")}"
PORT="${PORT:-0}"
mkdir -p "$WORK"
cd "$WORK"
source "$HERE/example-event.sh"
tourney round seat example-cup >/dev/null

# PORT=0 (the default) takes a free port; the server prints the address it listens on,
# and this script talks to that address only: never to whatever else holds a port.
: > serve.log  # there before the loop reads it (the server's shell may start after)
TOURNEY_SERVE_PASSWORD=example-password tourney serve --port "$PORT" 2> serve.log &
SERVER=$!
trap 'kill "$SERVER" 2>/dev/null || true' EXIT
URL=""
for _ in $(seq 600); do  # wait for it to listen (at most a minute)
    URL="$(sed -n 's|^tourney serve on \(http://[^ ]*\)/ .*|\1|p' serve.log | head -n1)"
    [ -n "$URL" ] && break
    if ! kill -0 "$SERVER" 2>/dev/null; then
        echo "serve-round.sh: the server did not start:" >&2
        cat serve.log >&2
        exit 1
    fi
    sleep 0.1
done
if [ -z "$URL" ]; then
    echo "serve-round.sh: the server did not listen within a minute" >&2
    exit 1
fi
PORT="${URL##*:}"

tourney round links example-cup 1 --base-url "http://127.0.0.1:$PORT"
tourney round links example-cup 1 --base-url "http://127.0.0.1:$PORT" --json > links.json

# One file per table: the header and that table's rows (as each table would send).
python3 - "$HERE/round-1.csv" links.json <<'PY'
import csv, json, sys
rows = list(csv.reader(open(sys.argv[1], encoding="utf-8")))
for link in json.load(open(sys.argv[2], encoding="utf-8"))["tables"]:
    with open(f"table-{link['table']}.csv", "w", encoding="utf-8", newline="") as out:
        writer = csv.writer(out, lineterminator="\n")
        writer.writerow(rows[0])
        writer.writerows(r for r in rows[1:] if r[3] == link["table"])
    with open(f"table-{link['table']}.url", "w") as out:
        out.write(link["url"])
PY

for sheet in table-*.csv; do
    url="$(cat "${sheet%.csv}.url")"
    curl -s -H 'Content-Type: text/csv' --data-binary @"$sheet" "$url"
    echo
done

curl -s "http://127.0.0.1:$PORT/api/events/example-cup/standings"
echo
tourney standings example-cup
