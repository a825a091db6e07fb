"""What this process's transactions wrote, kept apart from the database code
(:mod:`.db` counts them) so that a caller can read it without loading a database
library: the command line on Ctrl-C says what an interrupted command changed
(``tourney.cli.errors.interrupted_message``), and a command that never opened a
database has begun nothing."""
from __future__ import annotations

from dataclasses import dataclass, field


@dataclass
class Writes:
    """This process's :func:`.db.transaction` s, for a caller that must say what an
    interrupted command changed (the CLI on Ctrl-C): how many ``begun`` and
    ``committed``, and whether a commit is under way (``committing``: an
    interrupt then leaves undecided whether it is stored)."""

    begun: int = 0
    committed: int = 0
    committing: bool = False
    # what the committed transactions stored, as their audit entries name it
    # (action, subject): an interrupt after a commit can say what is stored
    stored: list = field(default_factory=list)

    def mark(self) -> "Writes":
        """The counts now, to compare with later ones."""
        return Writes(self.begun, self.committed, stored=list(self.stored))


WRITES = Writes()
