"""The data a round is seated from, and what the rounds played so far tell.

:class:`Entrant`, :class:`PastRound` and :class:`Seating` are the plain values the
storage and CLI layers pass to :func:`tourney.pairing.seating.seat_round` and get
back. :class:`EventHistory` digests the past rounds once per call: who met whom and
when, who sat in which seat, who sat at whose left, each player's colours (two-player
tables: seat 0 is Black) and byes.

Decisions (the rules say nothing about seating):

- Byes had: the larger of ``Entrant.byes`` and the byes the history lists for that
  player, so a caller that passes only one of the two still counts them all.
- "Lowest ranked" for byes means fewest points first; among equal points the larger
  ``rank`` number (worse standing) first, and ``rank == 0`` (not given) counts as the
  lowest of all; remaining ties are broken by a seeded draw.
- Colours come only from two-player tables (seat 0 = Black in the round's first game,
  as the dam-brade record names Black first); a bye or a larger table gives no colour.
"""
from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Iterable, Sequence

BLACK = 1
WHITE = -1


@dataclass(frozen=True)
class Entrant:
    """One player in the round being seated."""

    key: int  # player id
    points: float = 0.0  # match points so far (Swiss; byes go to the fewest points)
    rank: int = 0  # current standing, 1 = best; 0 = not given
    byes: int = 0  # byes had so far


@dataclass
class PastRound:
    """A round already seated: tables of player keys in seat order, and the byes."""

    tables: list[list[int]]
    byes: list[int] = field(default_factory=list)


@dataclass
class Seating:
    """The seating of one round.

    ``tables`` list player keys in seat order (seat 0 deals first; at a two-player
    table seat 0 is Black). ``repeated_pairs`` counts the pairs sharing a table in this
    round who already shared one in an earlier round, once per pair. ``method`` names
    how the tables were formed: ``"perfect"`` when a perfect schedule was followed,
    otherwise the method asked for.
    """

    tables: list[list[int]]
    byes: list[int]
    repeated_pairs: int
    method: str = ""
    # Constraints (:mod:`.constraints`) this seating could not meet, with why.
    unmet: list = field(default_factory=list)


def pair(a: int, b: int) -> tuple[int, int]:
    """The key of an unordered pair of players."""
    return (a, b) if a < b else (b, a)


class EventHistory:
    """What the past rounds say, indexed by player key.

    ``rounds_played`` is the number of past rounds; a meeting in past round ``i``
    (0-based) is ``rounds_played - i`` rounds ago.
    """

    __slots__ = ("rounds_played", "met", "last_met", "seat_counts", "size_counts", "left_of",
                 "colours", "listed_byes", "tables_by_round", "byes_by_round")

    def __init__(self, history: Sequence[PastRound]):
        self.rounds_played = len(history)
        self.met: dict[tuple[int, int], int] = {}
        self.last_met: dict[tuple[int, int], int] = {}
        self.seat_counts: dict[int, list[int]] = {}
        self.size_counts: dict[int, dict[int, int]] = {}  # key -> table size -> rounds
        self.left_of: dict[tuple[int, int], int] = {}
        self.colours: dict[int, list[int]] = {}
        self.listed_byes: dict[int, int] = {}
        self.tables_by_round: list[list[list[int]]] = []
        self.byes_by_round: list[list[int]] = []
        for index, past in enumerate(history):
            tables = [list(t) for t in past.tables]
            self.tables_by_round.append(tables)
            self.byes_by_round.append(list(past.byes))
            for key in past.byes:
                self.listed_byes[key] = self.listed_byes.get(key, 0) + 1
            for table in tables:
                size = len(table)
                for key in table:
                    sized = self.size_counts.setdefault(key, {})
                    sized[size] = sized.get(size, 0) + 1
                for seat, key in enumerate(table):
                    counts = self.seat_counts.setdefault(key, [])
                    if len(counts) <= seat:
                        counts.extend([0] * (seat + 1 - len(counts)))
                    counts[seat] += 1
                    if size >= 3:
                        left = table[(seat + 1) % size]
                        self.left_of[key, left] = self.left_of.get((key, left), 0) + 1
                for i in range(size):
                    for j in range(i + 1, size):
                        p = pair(table[i], table[j])
                        self.met[p] = self.met.get(p, 0) + 1
                        self.last_met[p] = index
                if size == 2:
                    self.colours.setdefault(table[0], []).append(BLACK)
                    self.colours.setdefault(table[1], []).append(WHITE)

    def meetings(self, a: int, b: int) -> int:
        return self.met.get(pair(a, b), 0)

    def rounds_since(self, a: int, b: int) -> int | None:
        """How many rounds ago a and b last met (1 = the previous round), or None."""
        last = self.last_met.get(pair(a, b))
        return None if last is None else self.rounds_played - last

    def byes_had(self, entrant: Entrant) -> int:
        return max(entrant.byes, self.listed_byes.get(entrant.key, 0))

    def seat_count(self, key: int, seat: int) -> int:
        counts = self.seat_counts.get(key)
        return counts[seat] if counts and seat < len(counts) else 0

    def colour_history(self, key: int) -> list[int]:
        return self.colours.get(key, [])

    def repeated_pairs(self, tables: Iterable[Sequence[int]]) -> int:
        """Pairs sharing a table in ``tables`` who met before, once per pair."""
        count = 0
        for table in tables:
            for i in range(len(table)):
                for j in range(i + 1, len(table)):
                    if pair(table[i], table[j]) in self.met:
                        count += 1
        return count


def check_entrants(entrants: Sequence[Entrant]) -> list[Entrant]:
    """The entrants sorted by key (so the caller's order never matters); no
    duplicates: one player twice is the caller's bug (the entries a seating is given
    have one row per player), never a user's mistake, so a ValueError, not a refusal."""
    ordered = sorted(entrants, key=lambda e: e.key)
    for a, b in zip(ordered, ordered[1:]):
        if a.key == b.key:
            raise ValueError(f"player {a.key} is entered twice in the round")
    return ordered


def bye_order(entrants: Sequence[Entrant], history: EventHistory,
              rng: random.Random) -> list[Entrant]:
    """Entrants in the order they should get a bye: fewest byes, then lowest ranked.

    Fewest byes first makes "never a second bye while someone has had none" hold.
    Lowest ranked: fewest points, then the larger rank number, with rank 0 (not given)
    lowest; ties drawn by ``rng``.
    """
    draw = {e.key: rng.random() for e in entrants}
    return sorted(
        entrants,
        key=lambda e: (history.byes_had(e), e.points, 0 if e.rank == 0 else 1, -e.rank,
                       draw[e.key]),
    )


def standing_order(entrants: Sequence[Entrant], rng: random.Random) -> list[Entrant]:
    """Best first: most points, then rank (1 best, 0 = not given = last), then a draw."""
    draw = {e.key: rng.random() for e in entrants}
    return sorted(
        entrants,
        key=lambda e: (-e.points, e.rank if e.rank > 0 else float("inf"), draw[e.key]),
    )
