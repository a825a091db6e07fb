"""What this process's transactions wrote, kept apart from the database code
(:mod:`.db` counts them) so that a caller can read it without loading a database
library: the command line on Ctrl-C says what an interrupted command changed
(``tourney.cli.errors.interrupted_message``), and a command that never opened a
database has begun nothing."""
from __future__ import annotations

from collections import deque
from dataclasses import dataclass, field

# The entries kept: a command's interrupt names its first few, and a server commits for
# as long as it runs, so the list must not grow with its life.
KEPT_ENTRIES = 256


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
    # (action, subject): an interrupt after a commit can say what is stored. The
    # latest KEPT_ENTRIES of them; ``stored_count`` counts them all.
    stored: deque = field(default_factory=lambda: deque(maxlen=KEPT_ENTRIES))
    stored_count: int = 0

    def store(self, entries) -> None:
        """A commit's audit entries."""
        for entry in entries:
            self.stored.append(entry)
            self.stored_count += 1

    def mark(self) -> "Writes":
        """The counts now, to compare with later ones (the entries are not copied)."""
        return Writes(self.begun, self.committed, stored_count=self.stored_count)

    def stored_since(self, before: "Writes") -> tuple[list, int]:
        """The entries stored since ``before`` was marked that are still kept (the
        first of them lost when more than KEPT_ENTRIES came since), and how many
        there were in all."""
        count = self.stored_count - before.stored_count
        kept = list(self.stored)[-count:] if count else []
        return kept, count


WRITES = Writes()
