"""The application layer: what an organizer does, one function per use case.

The command line (``tourney.cli``) and the web server call these functions for
every change; they call the tournament services (:mod:`tourney.tournament`) and
then the ratings (:mod:`tourney.ratings`), so a change to the results always
leaves the rating pools in step. tournament and ratings never import each other:
this layer is where they meet.

- :mod:`.players`: add, import, rename, merge (the merge refreshes the ratings);
- :mod:`.events`: create an event, change or delete it, enter and withdraw players;
- :mod:`.rounds`: seat the next round, reseat the latest;
- :mod:`.results`: import a record file (new, replaced or skipped matches),
  revert a match to an older version; both refresh the ratings of the variants
  they changed;
- :mod:`.ratings`: recompute pools, configure a pool, a player's rating history
  and a table's prediction by player names;
- :mod:`.series`: seasons: series, teams, and handicaps (by hand or derived from
  the ratings);
- :mod:`.tables`: results entered at the tables (links, submissions, review), for
  the server;
- :mod:`.evening`: a player's evening (their private page: table, results,
  standings, rating) and the organizer's view of the evening;
- :mod:`.notify`: e-mail to the players (their seats, their results);
- :mod:`.publish`: the static site;
- :mod:`.site`: the site's settings (title, organisation, address);
- :mod:`.database`: upgrading the database's schema (logged like any change),
  a backup copy.

Conventions: a use case that reads or changes the database takes an open session
first and works inside the caller's transaction (:func:`tourney.storage.db.transaction`;
:func:`tourney.storage.db.reading` for a dry run); it never commits. Three take the
engine instead, since they open sessions (or processes) of their own:
:func:`.publish.publish_site`, :func:`.database.upgrade_database` and
:func:`.database.backup_database`. Events are named by slug and players by name, as
a user names them. Errors are :class:`tourney.errors.TourneyError` (a user's
mistake; nothing was changed once the caller rolls back). docs/guide/library.md runs
an event through these functions.

Reading needs no use case: the read models are the query functions of the
services (``tourney.tournament.events.describe_event``,
``tourney.tournament.standings.standings_table``,
``tourney.tournament.versions.match_history`` and ``match_detail``,
``tourney.ratings.service.rating_list``, ...), which change nothing.
"""
