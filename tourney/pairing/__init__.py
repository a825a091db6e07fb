"""Seating and pairing for events: pure logic, no database.

The database services that call it (the players of a round, its history and
standings) are in :mod:`tourney.tournament.rounds`.

An event seats each round's entrants at tables of the sizes its variant allows and
every table plays a match. This package decides who sits where:

- :mod:`.seating` is the entry point: :func:`~.seating.plan_table_sizes` splits a
  field into legal tables and :func:`~.seating.seat_round` seats one round by one of
  three methods, ``balanced`` (few repeated meetings, balanced seat positions),
  ``swiss`` (equal scores meet, no rematches, alternating colours) and ``random``.
- :mod:`.history` holds the plain data the caller passes in and gets back
  (:class:`~.history.Entrant`, :class:`~.history.PastRound`,
  :class:`~.history.Seating`) and what is derived from the rounds played so far.
- :mod:`.schedules` builds or reads the perfect schedules (resolvable designs:
  affine geometries, transversal designs, round robins, and the designs stored in
  ``schedules.json``) that ``balanced`` follows where one fits the field.
- :mod:`.groups` is the seeded local search that splits players into tables with as
  few repeated meetings as possible, and the seat-order balancing.
- :mod:`.swiss` is the Swiss pairing (maximum-weight matching for two-player tables).

Everything is reproducible from the event's seed and the round number; nothing here
uses the global random generator.
"""
