# The example event, sourced by run-example.sh and serve-round.sh: 14 players
# (players.csv), Spardame at tables of 3 to 5, 3 rounds, seed 2026 (the round-N.csv
# records were made for its seating: make_records.py), everyone entered. Runs in the
# current folder on the default database (tourney.db there).
unset TOURNEY_DB  # the default database: tourney.db here
echo "working in $PWD" >&2

tourney player import "$HERE/players.csv"
tourney event create example-cup --name "Example Cup" --variant spardame \
    --table-sizes 3-5 --rounds 3 --seed 2026 --rule deals=3
tourney event enter example-cup --all
