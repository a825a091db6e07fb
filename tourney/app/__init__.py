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
- :mod:`.tables`: results entered at the tables (links, submissions, review), for
  the server;
- :mod:`.publish`: the static site;
- :mod:`.site`: the site's settings (title, organisation, address);
- :mod:`.database`: upgrading the database's schema (logged like any change).

Conventions: every function but :func:`.publish.publish_site` and
:func:`.database.upgrade_database` takes an open session and works inside the
caller's transaction (:func:`tourney.storage.db.transaction`;
:func:`tourney.storage.db.reading` for a dry run); it never commits. Events are named by slug and players by name, as a
user names them. Errors are :class:`tourney.errors.TourneyError` (a user's
mistake; nothing was changed once the caller rolls back).

Reading needs no use case: the read models are the query functions of the
services (``tourney.tournament.events.describe_event``,
``tourney.tournament.standings.standings_table``,
``tourney.tournament.versions.match_history`` and ``match_detail``,
``tourney.ratings.service.rating_list``, ...), which change nothing.
"""
