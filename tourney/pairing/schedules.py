"""Perfect schedules: rounds in which no two players meet twice.

A schedule for ``n`` players at tables of ``k`` is a list of rounds; a round is a
partition of the points ``0..n-1`` into tables of ``k`` (a *parallel class*). It is
*perfect* when no pair of points shares a table in two rounds. No player can meet more
than ``n - 1`` others, ``k - 1`` per round, so a perfect schedule has at most
``floor((n - 1) / (k - 1))`` rounds. The designs below reach that bound, except the
transversal designs and the stored 56 at 4 (17 of 18 rounds), which are the longest
perfect schedules known here for their fields.

Where they come from:

- ``k == 2`` and ``n`` even: the round robin by the circle method (``n - 1`` rounds).
- ``n == q ** d`` with ``q`` a prime power, ``k == q``, ``d >= 2``: the affine space
  AG(d, q). Points are the vectors of GF(q)^d, tables are the lines, and the lines of
  one direction form a round; there are ``(q**d - 1) / (q - 1)`` directions. This
  gives 16 players at 4 for 5 rounds (AG(2, 4)), 64 at 4 for 21 (AG(3, 4)), 9 at 3
  for 4, 27 at 3 for 13, 25 at 5 for 6, and so on.
- ``n == k * q`` with ``q`` a prime power and ``k <= q`` (and neither of the above):
  the resolvable transversal design RTD(k, q), ``q`` rounds. This gives 20 players at 4
  for 5 rounds, 36 at 4 for 9, 44 at 4 for 11, 52 at 4 for 13, 15 at 3 for 5 (where no
  Kirkman system is stored), and so on.
- Schedules no such formula gives, stored in the data file ``schedules.json`` next to
  this module and checked when first read (:func:`stored_schedules`; a damaged file
  raises :class:`ScheduleDataError`): Kirkman's 15 schoolgirls (15 at 3, 7 rounds),
  the 21-at-3 Kirkman system (10 rounds), the resolvable 2-(28, 4, 1) and
  2-(40, 4, 1) designs (9 and 13 rounds), the 8-4-10 social golfer solution (32 at 4
  for 10 rounds; Aguado's 2004 schedule), and schedules found offline by
  ``bench/find_schedules.py`` as translates of one base round: 24 at 4 for 7 rounds,
  36 for 11, 48 for 15, 60 for 19 (every player meets all but two others: resolvable
  designs with groups of three), 44 for 14 (all but one other: groups of two), 52
  for 17 (a resolvable 2-(52, 4, 1) design) and 56 for 17 (one round short of the
  bound; the 18th seats some pairs twice). Where a field has a stored schedule and a
  built one, the longer comes first.

An incomplete schedule (each player missing one or two others, as at 32, 44 or 48
players) is still the longest possible: one more round would have to seat someone
with a player met before.

Every table is a sorted tuple of points and every round a sorted tuple of tables, so
two rounds are equal exactly when they seat the same groups.
"""
from __future__ import annotations

import json
from functools import lru_cache
from itertools import combinations, product
from pathlib import Path

from ..errors import TourneyError

Table = tuple[int, ...]
Round = tuple[Table, ...]
Schedule = tuple[Round, ...]

# The largest field a perfect schedule is built for. Beyond it the local search
# seats the round; building AG(d, q) for thousands of points is wasted work then.
MAX_SCHEDULE_PLAYERS = 4096

# The stored schedules: a data file shipped with the package, read and checked on
# first use (see stored_schedules).
SCHEDULE_FILE = Path(__file__).with_name("schedules.json")


class ScheduleDataError(TourneyError):
    """The stored schedules file is damaged: a round is no partition into tables, a
    pair meets twice, or the file cannot be read. Names the file, the schedule and
    the round (from 1)."""


def round_bound(n_players: int, table_size: int) -> int:
    """Most rounds any schedule without a repeated pair can have: ``(n-1) // (k-1)``."""
    if table_size < 2 or n_players < table_size:
        return 0
    return (n_players - 1) // (table_size - 1)


def perfect_schedule(n_players: int, table_size: int) -> Schedule | None:
    """The longest perfect schedule known here for ``n_players`` at ``table_size``, or None.

    None where this module knows no perfect schedule for those numbers (the local
    search in :mod:`.groups` seats such fields). The result is cached: it is pure.
    """
    found = perfect_schedules(n_players, table_size)
    return found[0] if found else None


def perfect_schedules(n_players: int, table_size: int) -> tuple[Schedule, ...]:
    """Every perfect schedule known here for the field, the longest first.

    A stored schedule (:func:`stored_schedules`) comes before the one a formula
    builds for the same field; the seating follows the first whose rounds match an
    event's history, so an event begun on a shorter schedule can go on with it.
    """
    if table_size < 2 or n_players % table_size or n_players <= table_size:
        return ()
    if n_players > MAX_SCHEDULE_PLAYERS:
        return ()
    return _perfect_schedules(n_players, table_size)


@lru_cache(maxsize=64)
def _perfect_schedules(n_players: int, table_size: int) -> tuple[Schedule, ...]:
    found = []
    stored = stored_schedules().get((n_players, table_size))
    if stored is not None:
        found.append(stored)
    built = _built_schedule(n_players, table_size)
    if built is not None:
        found.append(built)
    return tuple(sorted(found, key=len, reverse=True))


def _built_schedule(n_players: int, table_size: int) -> Schedule | None:
    if table_size == 2:
        return round_robin(n_players)
    dimension = _power_of(n_players, table_size)
    if dimension >= 2 and _prime_power(table_size) is not None:
        return affine_space(dimension, table_size)
    q = n_players // table_size
    if q >= table_size and _prime_power(q) is not None:
        return transversal_design(table_size, q)
    return None


@lru_cache(maxsize=1)
def stored_schedules() -> dict[tuple[int, int], Schedule]:
    """The schedules of :data:`SCHEDULE_FILE`, keyed by (players, table size).

    Read once and checked on the way in (:func:`read_schedule_file`): a damaged
    file raises :class:`ScheduleDataError` rather than seat anyone by it.
    """
    return read_schedule_file(SCHEDULE_FILE)


def read_schedule_file(path: str | Path) -> dict[tuple[int, int], Schedule]:
    """Read and check a schedules file; raises :class:`ScheduleDataError` if damaged.

    The file is JSON: ``{"schedules": [{"players": n, "table_size": k, "source":
    text, "rounds": ["0 1 2 3|4 5 6 7|...", ...]}, ...]}``, one string per round,
    tables separated by ``|``, players 0..n-1 by spaces. Every round must seat each
    player exactly once at tables of k, no pair may share a table in two rounds,
    and no field may appear twice.
    """
    name = Path(path).name
    try:
        data = json.loads(Path(path).read_text(encoding="utf-8"))
        entries = data["schedules"]
        if not isinstance(entries, list):
            raise TypeError("'schedules' is not a list")
    except (OSError, ValueError, KeyError, TypeError) as err:
        raise ScheduleDataError(f"{name}: cannot read the stored schedules: {err}") from None
    found: dict[tuple[int, int], Schedule] = {}
    for number, entry in enumerate(entries, 1):
        where = f"{name}: schedule {number}"
        try:
            n, k, rounds = int(entry["players"]), int(entry["table_size"]), entry["rounds"]
            where = f"{name}: schedule {number} ({n} players at {k})"
            parsed = [[[int(p) for p in table.split()] for table in text.split("|")]
                      for text in rounds]
        except (KeyError, TypeError, ValueError, AttributeError) as err:
            raise ScheduleDataError(f"{where}: malformed entry: {err}") from None
        if (n, k) in found:
            raise ScheduleDataError(f"{where}: a second schedule for this field")
        if k < 2 or n <= k or n % k or not parsed:
            raise ScheduleDataError(f"{where}: no rounds, or {n} players do not fill "
                                    f"tables of {k}")
        try:
            verify_perfect(parsed, n, k)
        except ValueError as err:
            raise ScheduleDataError(f"{where}: {err}") from None
        found[n, k] = _normalise(parsed)
    return found


def verify_perfect(schedule, n_players: int, table_size: int) -> None:
    """Raise ValueError unless every round seats 0..n-1 once at tables of
    ``table_size`` and no pair shares a table twice (rounds and tables from 1)."""
    met: dict[tuple[int, int], int] = {}
    if len(schedule) > round_bound(n_players, table_size):
        raise ValueError(f"{len(schedule)} rounds, more than a perfect schedule can have "
                         f"({round_bound(n_players, table_size)})")
    for number, rnd in enumerate(schedule, 1):
        seen: set[int] = set()
        for t, table in enumerate(rnd, 1):
            if len(table) != table_size:
                raise ValueError(f"round {number}, table {t} seats {len(table)}, "
                                 f"not {table_size}")
            for p in table:
                if not 0 <= p < n_players:
                    raise ValueError(f"round {number}, table {t}: player {p} is not "
                                     f"one of 0..{n_players - 1}")
                if p in seen:
                    raise ValueError(f"round {number}: player {p} is seated twice")
                seen.add(p)
            for pair in combinations(sorted(table), 2):
                if pair in met:
                    raise ValueError(f"round {number}, table {t}: players {pair[0]} and "
                                     f"{pair[1]} met already in round {met[pair]}")
                met[pair] = number
        if len(seen) != n_players:
            raise ValueError(f"round {number} seats {len(seen)} players, not {n_players}")


def round_robin(n_players: int) -> Schedule:
    """The circle method: player ``n-1`` stays, the others rotate one place a round."""
    if n_players % 2 or n_players < 2:
        raise ValueError(f"a round robin of pairs needs an even field, not {n_players}")
    fixed = n_players - 1
    rounds = []
    for r in range(n_players - 1):
        tables = [(r, fixed)]
        for i in range(1, n_players // 2):
            tables.append(((r + i) % fixed, (r - i) % fixed))
        rounds.append(tables)
    return _normalise(rounds)


def affine_space(dimension: int, q: int) -> Schedule:
    """The lines of AG(dimension, q), one round per direction.

    A direction is a nonzero vector whose first nonzero coordinate is 1 (a point of
    the projective space PG(dimension-1, q)); its lines ``{x + t*v : t in GF(q)}`` split
    the q**dimension points into q**(dimension-1) tables of q. Two points lie on exactly
    one line, so no pair meets twice.
    """
    field = GaloisField(q)
    points = list(product(range(q), repeat=dimension))
    index = {p: i for i, p in enumerate(points)}
    rounds = []
    for direction in points:
        nonzero = [c for c in direction if c]
        if not nonzero or nonzero[0] != 1:
            continue
        seen: set[int] = set()
        tables = []
        for base in points:
            if index[base] in seen:
                continue
            line = tuple(
                index[tuple(field.add(b, field.mul(t, v)) for b, v in zip(base, direction))]
                for t in range(q)
            )
            seen.update(line)
            tables.append(line)
        rounds.append(tables)
    return _normalise(rounds)


def transversal_design(k: int, q: int) -> Schedule:
    """The resolvable transversal design RTD(k, q): ``k * q`` points, ``q`` rounds.

    Points are pairs (group g, x in GF(q)), numbered ``g * q + x``; pick k distinct
    field elements t_0..t_{k-1} (here 0..k-1). The table of (a, b) is
    ``{(g, a + b * t_g) : g}``. Two points of different groups lie at exactly one
    table (b and then a are fixed by the two equations), two of one group at none;
    the tables with the same b seat every point once, so each b is a round.
    Needs ``k <= q``.
    """
    if not 2 <= k <= q:
        raise ValueError(f"RTD({k}, {q}) needs 2 <= k <= q")
    field = GaloisField(q)
    rounds = []
    for b in range(q):
        rounds.append([tuple(g * q + field.add(a, field.mul(b, g)) for g in range(k))
                       for a in range(q)])
    return _normalise(rounds)


class GaloisField:
    """GF(q) for a prime power q, elements 0..q-1 as base-p digit vectors.

    Element ``e`` stands for the polynomial whose coefficients are the base-p digits
    of ``e`` (lowest first); multiplication reduces modulo the first monic
    irreducible polynomial of degree m found by trial division.
    """

    __slots__ = ("q", "p", "m", "_add", "_mul")

    def __init__(self, q: int):
        found = _prime_power(q)
        if found is None:
            raise ValueError(f"GF({q}) does not exist: {q} is not a prime power")
        self.q = q
        self.p, self.m = found
        modulus = _irreducible(self.p, self.m)
        digits = [self._digits(e) for e in range(q)]
        self._add = [[self._number([(a + b) % self.p for a, b in zip(x, y)]) for y in digits]
                     for x in digits]
        self._mul = [[self._number(_poly_mulmod(x, y, modulus, self.p)) for y in digits]
                     for x in digits]

    def add(self, a: int, b: int) -> int:
        return self._add[a][b]

    def mul(self, a: int, b: int) -> int:
        return self._mul[a][b]

    def _digits(self, e: int) -> list[int]:
        out = []
        for _ in range(self.m):
            out.append(e % self.p)
            e //= self.p
        return out

    def _number(self, digits: list[int]) -> int:
        e = 0
        for d in reversed(digits):
            e = e * self.p + d
        return e


def check_schedule(schedule, n_players: int, table_size: int) -> int:
    """How many pairs repeat in ``schedule``; raises ValueError if a round is no partition.

    Used by the tests (and cheap enough to run anywhere): a perfect schedule gives 0.
    """
    met: set[tuple[int, int]] = set()
    repeats = 0
    for number, rnd in enumerate(schedule, 1):
        seated = sorted(p for table in rnd for p in table)
        if seated != list(range(n_players)):
            raise ValueError(f"round {number} does not seat each of {n_players} players once")
        for table in rnd:
            if len(table) != table_size:
                raise ValueError(f"round {number} has a table of {len(table)}, not {table_size}")
            for pair in combinations(sorted(table), 2):
                if pair in met:
                    repeats += 1
                met.add(pair)
    return repeats


# ----------------------------------------------------------------------------- helpers

def _normalise(rounds) -> Schedule:
    return tuple(tuple(sorted(tuple(sorted(t)) for t in rnd)) for rnd in rounds)


def _power_of(n: int, base: int) -> int:
    """d with base**d == n, or 0."""
    d, value = 0, 1
    while value < n:
        value *= base
        d += 1
    return d if value == n else 0


def _prime_power(q: int) -> tuple[int, int] | None:
    """(p, m) with p prime and p**m == q, or None."""
    if q < 2:
        return None
    p = next(d for d in range(2, q + 1) if q % d == 0)
    m = _power_of(q, p)
    return (p, m) if m else None


def _poly_mulmod(x: list[int], y: list[int], modulus: list[int], p: int) -> list[int]:
    """x*y mod modulus over GF(p); polynomials as coefficient lists, lowest first."""
    m = len(modulus) - 1
    product_ = [0] * (2 * m)
    for i, a in enumerate(x):
        if a:
            for j, b in enumerate(y):
                product_[i + j] = (product_[i + j] + a * b) % p
    for top in range(len(product_) - 1, m - 1, -1):
        c = product_[top]
        if c:
            # modulus is monic: subtract c * x^(top-m) * modulus
            for i, coeff in enumerate(modulus):
                product_[top - m + i] = (product_[top - m + i] - c * coeff) % p
    return product_[:m]


def _irreducible(p: int, m: int) -> list[int]:
    """The first monic irreducible polynomial of degree m over GF(p), lowest first."""
    if m == 1:
        return [0, 1]
    for low in product(range(p), repeat=m):
        candidate = list(low) + [1]
        if candidate[0] == 0:
            continue
        if not any(_divides(list(f) + [1], candidate, p)
                   for degree in range(1, m // 2 + 1)
                   for f in product(range(p), repeat=degree)):
            return candidate
    raise AssertionError(f"no irreducible polynomial of degree {m} over GF({p})")


def _divides(divisor: list[int], poly: list[int], p: int) -> bool:
    """Whether the monic ``divisor`` divides ``poly`` over GF(p)."""
    rest = list(poly)
    d = len(divisor) - 1
    for top in range(len(rest) - 1, d - 1, -1):
        c = rest[top]
        if c:
            for i, coeff in enumerate(divisor):
                rest[top - d + i] = (rest[top - d + i] - c * coeff) % p
    return not any(rest[:d])
