# Sourced by publish_one_result.sh and publish_one_result_ab.sh (issue 34): the league they
# both publish, built the one way.
#   build_league TOURNEY N DB   in the current folder, N players (players.csv) in one event
#                               "big" at tables of four, round 1 played (r1.csv, imported),
#                               round 2 seated and simulated (r2.csv, not imported)
#   table_records K FILE        round 2's table K: r2.csv's header and that table's rows
# The installs run from their modules' bytecode, as an installed tourney does (pip
# compiles them; the first commands of build_league write it): PYTHONDONTWRITEBYTECODE,
# set in some shells, made every publish compile the project's modules from source again
# (~0.1 CPU s of a publish: 0.70 against 0.80 at 4,000 players, nothing changed).
unset PYTHONDONTWRITEBYTECODE

build_league() {
  local t=$1 n=$2 db=$3  # $t unquoted, as the scripts ran it: TOURNEY="python -m ..." works
  python3 -c "
print('name,club'); [print(f'Player {i:05d},Club {i%50}') for i in range($n)]" > players.csv
  $t --db "$db" player import players.csv >/dev/null 2>&1
  $t --db "$db" event create big --variant spardame --table-sizes 4 --rule deals=2 \
    >/dev/null 2>&1
  $t --db "$db" event enter big --all >/dev/null 2>&1
  $t --db "$db" round seat big >/dev/null 2>&1
  $t --db "$db" simulate --event big --round 1 > r1.csv 2>/dev/null
  $t --db "$db" result import r1.csv >/dev/null 2>&1
  $t --db "$db" round seat big >/dev/null 2>&1
  $t --db "$db" simulate --event big --round 2 > r2.csv 2>/dev/null
}

table_records() {
  python3 - "$1" "$2" <<'PY'
import csv, sys
rows = list(csv.reader(open("r2.csv")))
head = rows[0]; t = head.index("table")
csv.writer(open(sys.argv[2], "w", newline="")).writerows(
    [head] + [r for r in rows[1:] if r[t] == sys.argv[1]])
PY
}
