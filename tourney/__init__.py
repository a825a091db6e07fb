"""tourney: tournaments and ratings for the Nordic games called "Dam".

The domain core. Sub-packages: ``engines`` (rules, pure Python), ``records`` (the
deal-record CSV), ``storage`` (database), ``pairing`` (seating and pairing, pure),
``tournament`` (players, events, results, standings on the database), ``ratings``
(OpenSkill); above them ``app``, the use cases that call tournament and then
ratings. The command line (``tourney.cli``, source folder ``cli/``)
and the static site (``tourney.reports``, source folder ``reports/``) are mapped into
this namespace by ``pyproject.toml``; nothing in the core imports them.
"""

__version__ = "0.1.0"
