"""Tournament services on the database: players, events, rounds, results, standings.

Every module here reads and writes :mod:`tourney.storage` through a session the
caller opens (the caller owns the transaction, see
:func:`tourney.storage.db.transaction`), writes an audit row for every change, and
raises :class:`~tourney.errors.TourneyError` for anything a user can get wrong:

- :mod:`.players`: registering, renaming, merging duplicates, importing a player list.
- :mod:`.events`: creating an event, entering and withdrawing players;
  :mod:`.settings`: an event's game, house rules and tie-breaks, decoded once.
- :mod:`.rounds`: seating a round (the pure seating itself is :mod:`tourney.pairing`),
  showing and reseating it.
- :mod:`.results`: importing match results; :mod:`.versions`: every stored version
  of a match, showing one, reverting; :mod:`.export` writes the results back out.
- :mod:`.standings`: an event's standings and tie-breaks.
- :mod:`.sheets`: score-sheet templates for a seated round.

Nothing here imports :mod:`tourney.ratings`; the use cases that change results and
then refresh ratings call both.
"""
