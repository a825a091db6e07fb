"""The pure rating engine: matches in, ratings out; no database.

A match is given as its ranking, a sequence of ``(player_key, place)`` with place 1
the best and shared places for ties (1, 2, 2, 4). Every player is a one-player team
(free-for-all). Places are passed to openskill as ``ranks``, never as scores, so a
shared place is a tie.

Ratings are floats: ``{player_key: (mu, sigma)}``. openskill's Rating objects are made
only for players the engine meets (from their floats) and then kept: ``model.rate``
returns fresh copies, which are the next inputs, so the loop makes no Rating objects
beyond those a bare ``model.rate`` loop makes. The Rating objects never leave the
:class:`Rater` (they cannot be unpickled; see :mod:`tourney.ratings.models`).

Decisions:

- a "match" of fewer than two players is not rated (openskill needs two teams):
  :meth:`Rater.rate` returns no changes and counts no match for the player;
- a player listed twice in one match is an error (:class:`ValueError`).
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Hashable, Iterable, Mapping, NamedTuple, Sequence

from .models import DEFAULT_SPEC

PlayerKey = Hashable
Ranking = Sequence[tuple[PlayerKey, int]]


class Change(NamedTuple):
    """One player's rating before and after one match: the field order of the plain
    tuples the engine returns (``Change._make(row)`` or ``Change(*row)`` names them).
    """

    player: PlayerKey
    place: int
    mu_before: float
    sigma_before: float
    mu_after: float
    sigma_after: float


# The engine returns changes as plain tuples in Change's field order, not as Change
# objects: the cyclic garbage collector stops tracking a plain tuple of numbers after
# its first pass, but never a tuple subclass, and 400,000 retained tracked objects
# (a 100,000-match recompute) are rescanned by every full collection. Measured with
# bench/bench_ratings.py: 0.76 of the bare loop's rate with Change objects, 0.87-0.90
# with plain tuples.
ChangeRow = tuple  # (player, place, mu_before, sigma_before, mu_after, sigma_after)


def ordinal(mu: float, sigma: float) -> float:
    """openskill's default ordinal: mu - 3 sigma (the displayed, conservative rating)."""
    return mu - 3.0 * sigma


class Rater:
    """Rates matches in order and holds the ratings reached so far.

    ``ratings`` and ``matches`` give a starting state (e.g. the state of a pool before
    the first match to replay); players not in it start at the model's default.
    """

    __slots__ = ("model", "_start", "_objects", "_counts", "_new_rating", "_mu0", "_sigma0")

    def __init__(self, model=None, ratings: Mapping[PlayerKey, tuple[float, float]] | None = None,
                 matches: Mapping[PlayerKey, int] | None = None):
        self.model = model if model is not None else DEFAULT_SPEC.build()
        self._start: dict = dict(ratings or {})
        self._objects: dict = {}  # player -> openskill Rating (made on first use)
        self._counts: dict = dict(matches or {})
        self._new_rating = self.model.rating
        self._mu0 = float(self.model.mu)
        self._sigma0 = float(self.model.sigma)

    # ---- state

    def get(self, player: PlayerKey) -> tuple[float, float]:
        """A player's (mu, sigma): current, starting, or the model's default."""
        obj = self._objects.get(player)
        if obj is not None:
            return (obj.mu, obj.sigma)
        return self._start.get(player, (self._mu0, self._sigma0))

    def is_rated(self, player: PlayerKey) -> bool:
        return player in self._objects or player in self._start

    def ratings(self) -> dict[PlayerKey, tuple[float, float]]:
        """Every player with a rating: ``{player: (mu, sigma)}``."""
        result = dict(self._start)
        for player, obj in self._objects.items():
            result[player] = (obj.mu, obj.sigma)
        return result

    def match_counts(self) -> dict[PlayerKey, int]:
        return dict(self._counts)

    def matches(self, player: PlayerKey) -> int:
        return self._counts.get(player, 0)

    # ---- rating

    def rate(self, ranking: Ranking) -> tuple[ChangeRow, ...]:
        """Rate one match; the players' changes in the ranking's order."""
        return self.rate_all((ranking,))[0]

    def rate_all(self, rankings: Iterable[Ranking]) -> list[tuple[ChangeRow, ...]]:
        """Rate matches in the given order; each match's changes (in its ranking's
        order; empty for a match of fewer than two players)."""
        # One loop with everything in locals: this is the pool recompute's hot path,
        # measured against a bare model.rate() loop by bench/bench_ratings.py.
        objects = self._objects
        start = self._start
        counts = self._counts
        new_rating = self._new_rating
        rate = self.model.rate
        default = (self._mu0, self._sigma0)
        result = []
        for ranking in rankings:
            if len(ranking) < 2:
                result.append(())
                continue
            teams = []
            ranks = []
            seen = set()
            for player, place in ranking:
                seen.add(player)
                obj = objects.get(player)
                if obj is None:
                    mu, sigma = start.get(player, default)
                    obj = objects[player] = new_rating(mu, sigma)
                teams.append([obj])
                ranks.append(place)
            if len(seen) != len(teams):
                raise ValueError(f"a player is listed twice in one match: {list(ranking)!r}")
            # Ranks (places), not scores: equal places are ties. No tau, limit_sigma
            # or weights here: see tourney.ratings.models for why each is left out.
            rated = rate(teams, ranks=ranks)
            changes = []
            for (player, place), before, after in zip(ranking, teams, rated):
                old = before[0]
                new = after[0]
                objects[player] = new
                counts[player] = counts.get(player, 0) + 1
                changes.append((player, place, old.mu, old.sigma, new.mu, new.sigma))
            result.append(tuple(changes))  # a plain tuple, for the collector (above)
        return result

    # ---- prediction

    def predict(self, players: Sequence[PlayerKey]) -> "Prediction":
        """Win probabilities and ranks for a table of these players (unrated
        players at the model's default)."""
        return predict(self.model, [self.get(p) for p in players], players)


def rate_matches(model, rankings: Iterable[Ranking],
                 ratings: Mapping[PlayerKey, tuple[float, float]] | None = None,
                 matches: Mapping[PlayerKey, int] | None = None) -> tuple[Rater, list[tuple[ChangeRow, ...]]]:
    """Rate a sequence of matches from a starting state: the rater (final state) and
    each match's changes."""
    rater = Rater(model, ratings, matches)
    return rater, rater.rate_all(rankings)


@dataclass(frozen=True)
class Prediction:
    """A table's outlook, per player in the order asked.

    ``win``: openskill's ``predict_win`` (sums to 1). ``rank`` and
    ``rank_probability``: openskill's ``predict_rank`` (1 = most likely best; equal
    ratings share a rank). ``expected_place``: 1 + the sum over the other players of
    the probability that they finish ahead, from the model's two-player
    ``predict_win`` (1 .. n; a tie counts as half).
    """

    players: tuple
    mu: tuple[float, ...]
    sigma: tuple[float, ...]
    win: tuple[float, ...]
    rank: tuple[int, ...]
    rank_probability: tuple[float, ...]
    expected_place: tuple[float, ...]
    draw: float


def predict(model, ratings: Sequence[tuple[float, float]],
            players: Sequence[PlayerKey] | None = None) -> Prediction:
    """Predictions for a table whose players have these (mu, sigma)."""
    if len(ratings) < 2:
        raise ValueError("a prediction needs at least two players")
    teams = [[model.rating(mu, sigma)] for mu, sigma in ratings]
    win = model.predict_win(teams)
    ranked = model.predict_rank(teams)
    n = len(teams)
    expected = [1.0] * n
    for i in range(n):
        for j in range(i + 1, n):
            p_i, p_j = model.predict_win([teams[i], teams[j]])
            expected[i] += p_j
            expected[j] += p_i
    return Prediction(
        players=tuple(players) if players is not None else tuple(range(n)),
        mu=tuple(float(mu) for mu, _ in ratings),
        sigma=tuple(float(sigma) for _, sigma in ratings),
        win=tuple(win),
        rank=tuple(int(r) for r, _ in ranked),
        rank_probability=tuple(p for _, p in ranked),
        expected_place=tuple(expected),
        draw=model.predict_draw(teams),
    )
