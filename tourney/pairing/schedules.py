"""Perfect schedules: rounds in which no two players meet twice.

A schedule for ``n`` players at tables of ``k`` is a list of rounds; a round is a
partition of the points ``0..n-1`` into tables of ``k`` (a *parallel class*). It is
*perfect* when no pair of points shares a table in two rounds. No player can meet more
than ``n - 1`` others, ``k - 1`` per round, so a perfect schedule has at most
``floor((n - 1) / (k - 1))`` rounds. The designs below reach that bound, except the
transversal designs, which are the longest perfect schedules known for their fields.

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
- Known designs that no such formula gives, stored below and checked by
  :func:`check_schedule` in the tests: Kirkman's 15 schoolgirls (15 at 3, 7 rounds), the
  21-at-3 Kirkman system (10 rounds), the resolvable 2-(28, 4, 1) and 2-(40, 4, 1)
  designs (9 and 13 rounds), and the 8-4-10 social golfer solution (32 at 4 for 10
  rounds; Aguado's 2004 schedule, as published in the social-golfer literature). The
  32-player one is not complete: each player misses exactly one other, which is the
  best possible, since 32 players at 4 cannot have 11 perfect rounds (each would
  need to meet 33 others).

Every table is a sorted tuple of points and every round a sorted tuple of tables, so
two rounds are equal exactly when they seat the same groups.
"""
from __future__ import annotations

from functools import lru_cache
from itertools import combinations, product

Table = tuple[int, ...]
Round = tuple[Table, ...]
Schedule = tuple[Round, ...]

# The largest field a perfect schedule is built for. Beyond it the local search
# seats the round; building AG(d, q) for thousands of points is wasted work then.
MAX_SCHEDULE_PLAYERS = 4096

# Resolvable designs that are stored rather than built, keyed by (players, table size).
# Points are numbered 0..n-1; each line is one round. Checked in the tests.
KNOWN_DESIGNS: dict[tuple[int, int], tuple[tuple[tuple[int, ...], ...], ...]] = {
    (15, 3): (
        ((0, 1, 2), (3, 4, 5), (6, 7, 8), (9, 10, 11), (12, 13, 14)),
        ((0, 3, 6), (1, 4, 9), (2, 5, 12), (7, 10, 13), (8, 11, 14)),
        ((0, 4, 13), (1, 3, 14), (2, 7, 11), (5, 8, 10), (6, 9, 12)),
        ((0, 8, 12), (1, 6, 11), (2, 3, 10), (4, 7, 14), (5, 9, 13)),
        ((0, 7, 9), (1, 10, 12), (2, 4, 8), (3, 11, 13), (5, 6, 14)),
        ((0, 5, 11), (1, 8, 13), (2, 9, 14), (3, 7, 12), (4, 6, 10)),
        ((0, 10, 14), (1, 5, 7), (2, 6, 13), (3, 8, 9), (4, 11, 12)),
    ),
    (21, 3): (
        ((0, 1, 5), (2, 9, 19), (3, 10, 17), (4, 6, 12), (7, 14, 20), (8, 13, 15),
         (11, 16, 18)),
        ((0, 16, 17), (1, 13, 14), (2, 11, 20), (3, 4, 9), (5, 12, 18), (6, 15, 19),
         (7, 8, 10)),
        ((0, 7, 11), (1, 6, 18), (2, 13, 17), (3, 12, 19), (4, 8, 16), (5, 15, 20),
         (9, 10, 14)),
        ((0, 10, 19), (1, 2, 3), (4, 11, 15), (5, 7, 13), (6, 14, 16), (8, 12, 20),
         (9, 17, 18)),
        ((0, 9, 20), (1, 15, 17), (2, 12, 14), (3, 13, 18), (4, 5, 10), (6, 8, 11),
         (7, 16, 19)),
        ((0, 14, 15), (1, 8, 9), (2, 7, 18), (3, 16, 20), (4, 13, 19), (5, 6, 17),
         (10, 11, 12)),
        ((0, 2, 4), (1, 11, 19), (3, 8, 14), (5, 9, 16), (6, 13, 20), (7, 12, 17),
         (10, 15, 18)),
        ((0, 12, 13), (1, 10, 20), (2, 15, 16), (3, 5, 11), (4, 14, 18), (6, 7, 9),
         (8, 17, 19)),
        ((0, 8, 18), (1, 12, 16), (2, 6, 10), (3, 7, 15), (4, 17, 20), (5, 14, 19),
         (9, 11, 13)),
        ((0, 3, 6), (1, 4, 7), (2, 5, 8), (9, 12, 15), (10, 13, 16), (11, 14, 17),
         (18, 19, 20)),
    ),
    (28, 4): (
        ((0, 1, 2, 3), (4, 5, 6, 7), (8, 9, 10, 11), (12, 13, 14, 15), (16, 17, 18, 19),
         (20, 21, 22, 23), (24, 25, 26, 27)),
        ((0, 4, 20, 24), (1, 5, 12, 16), (2, 10, 15, 27), (3, 11, 19, 23), (6, 8, 18, 26),
         (7, 9, 14, 22), (13, 17, 21, 25)),
        ((0, 5, 23, 27), (1, 4, 14, 18), (2, 8, 13, 24), (3, 9, 17, 20), (6, 11, 12, 21),
         (7, 10, 16, 25), (15, 19, 22, 26)),
        ((0, 8, 16, 22), (1, 9, 13, 27), (2, 6, 14, 19), (3, 7, 21, 24), (4, 10, 12, 23),
         (5, 11, 17, 26), (15, 18, 20, 25)),
        ((0, 6, 15, 17), (1, 7, 20, 26), (2, 9, 18, 23), (3, 8, 12, 25), (4, 11, 13, 22),
         (5, 10, 19, 24), (14, 16, 21, 27)),
        ((0, 10, 18, 21), (1, 11, 15, 24), (2, 7, 12, 17), (3, 6, 22, 27), (4, 9, 19, 25),
         (5, 8, 14, 20), (13, 16, 23, 26)),
        ((0, 7, 13, 19), (1, 6, 23, 25), (2, 11, 16, 20), (3, 10, 14, 26), (4, 8, 17, 27),
         (5, 9, 15, 21), (12, 18, 22, 24)),
        ((0, 11, 14, 25), (1, 10, 17, 22), (2, 4, 21, 26), (3, 5, 13, 18), (6, 9, 16, 24),
         (7, 8, 15, 23), (12, 19, 20, 27)),
        ((0, 9, 12, 26), (1, 8, 19, 21), (2, 5, 22, 25), (3, 4, 15, 16), (6, 10, 13, 20),
         (7, 11, 18, 27), (14, 17, 23, 24)),
    ),
    (32, 4): (
        ((0, 1, 2, 3), (4, 5, 6, 7), (8, 9, 10, 11), (12, 13, 14, 15), (16, 17, 18, 19),
         (20, 21, 22, 23), (24, 25, 26, 27), (28, 29, 30, 31)),
        ((0, 4, 8, 28), (1, 7, 18, 22), (2, 6, 17, 23), (3, 5, 10, 31), (9, 14, 27, 29),
         (11, 13, 25, 30), (12, 16, 20, 24), (15, 19, 21, 26)),
        ((0, 21, 27, 30), (1, 23, 26, 28), (2, 9, 15, 20), (3, 6, 13, 24), (4, 18, 25, 31),
         (5, 11, 14, 16), (7, 10, 12, 17), (8, 19, 22, 29)),
        ((0, 11, 18, 24), (1, 10, 19, 25), (2, 8, 16, 27), (3, 9, 17, 26), (4, 12, 23, 29),
         (5, 15, 22, 30), (6, 14, 21, 31), (7, 13, 20, 28)),
        ((0, 10, 13, 22), (1, 4, 15, 27), (2, 21, 25, 28), (3, 7, 8, 30), (5, 9, 12, 18),
         (6, 16, 26, 29), (11, 17, 20, 31), (14, 19, 23, 24)),
        ((0, 9, 23, 31), (1, 5, 24, 29), (2, 12, 19, 30), (3, 14, 18, 28), (4, 11, 22, 26),
         (6, 10, 20, 27), (7, 15, 16, 25), (8, 13, 17, 21)),
        ((0, 5, 19, 20), (1, 6, 9, 30), (2, 7, 11, 29), (3, 4, 16, 21), (8, 12, 26, 31),
         (10, 15, 24, 28), (13, 18, 23, 27), (14, 17, 22, 25)),
        ((0, 15, 17, 29), (1, 13, 16, 31), (2, 4, 10, 14), (3, 12, 22, 27), (5, 8, 23, 25),
         (6, 11, 19, 28), (7, 9, 21, 24), (18, 20, 26, 30)),
        ((0, 6, 12, 25), (1, 8, 14, 20), (2, 5, 13, 26), (3, 11, 15, 23), (4, 17, 24, 30),
         (7, 19, 27, 31), (9, 16, 22, 28), (10, 18, 21, 29)),
        ((0, 7, 14, 26), (1, 11, 12, 21), (2, 22, 24, 31), (3, 20, 25, 29), (4, 9, 13, 19),
         (5, 17, 27, 28), (6, 8, 15, 18), (10, 16, 23, 30)),
    ),
    (40, 4): (
        ((0, 13, 26, 39), (1, 12, 18, 21), (2, 11, 29, 36), (3, 10, 15, 24), (4, 9, 19, 20),
         (5, 8, 27, 38), (6, 7, 30, 35), (14, 25, 31, 34), (16, 23, 28, 37),
         (17, 22, 32, 33)),
        ((0, 2, 19, 22), (1, 14, 27, 39), (3, 12, 30, 37), (4, 11, 16, 25), (5, 10, 20, 21),
         (6, 9, 26, 28), (7, 8, 31, 36), (13, 15, 32, 35), (17, 24, 29, 38),
         (18, 23, 33, 34)),
        ((0, 4, 31, 38), (1, 3, 20, 23), (2, 15, 28, 39), (5, 12, 13, 17), (6, 11, 21, 22),
         (7, 10, 27, 29), (8, 9, 32, 37), (14, 16, 33, 36), (18, 25, 26, 30),
         (19, 24, 34, 35)),
        ((0, 6, 14, 18), (1, 5, 26, 32), (2, 4, 21, 24), (3, 16, 29, 39), (7, 12, 22, 23),
         (8, 11, 28, 30), (9, 10, 33, 38), (13, 19, 27, 31), (15, 17, 34, 37),
         (20, 25, 35, 36)),
        ((0, 8, 23, 24), (1, 7, 15, 19), (2, 6, 27, 33), (3, 5, 22, 25), (4, 17, 30, 39),
         (9, 12, 29, 31), (10, 11, 26, 34), (13, 21, 36, 37), (14, 20, 28, 32),
         (16, 18, 35, 38)),
        ((0, 10, 30, 32), (1, 9, 24, 25), (2, 8, 16, 20), (3, 7, 28, 34), (4, 6, 13, 23),
         (5, 18, 31, 39), (11, 12, 27, 35), (14, 22, 37, 38), (15, 21, 29, 33),
         (17, 19, 26, 36)),
        ((0, 12, 28, 36), (1, 11, 31, 33), (2, 10, 13, 25), (3, 9, 17, 21), (4, 8, 29, 35),
         (5, 7, 14, 24), (6, 19, 32, 39), (15, 23, 26, 38), (16, 22, 30, 34),
         (18, 20, 27, 37)),
        ((0, 1, 29, 37), (2, 12, 32, 34), (3, 11, 13, 14), (4, 10, 18, 22), (5, 9, 30, 36),
         (6, 8, 15, 25), (7, 20, 33, 39), (16, 24, 26, 27), (17, 23, 31, 35),
         (19, 21, 28, 38)),
        ((0, 3, 33, 35), (1, 2, 30, 38), (4, 12, 14, 15), (5, 11, 19, 23), (6, 10, 31, 37),
         (7, 9, 13, 16), (8, 21, 34, 39), (17, 25, 27, 28), (18, 24, 32, 36),
         (20, 22, 26, 29)),
        ((0, 5, 15, 16), (1, 4, 34, 36), (2, 3, 26, 31), (6, 12, 20, 24), (7, 11, 32, 38),
         (8, 10, 14, 17), (9, 22, 35, 39), (13, 18, 28, 29), (19, 25, 33, 37),
         (21, 23, 27, 30)),
        ((0, 7, 21, 25), (1, 6, 16, 17), (2, 5, 35, 37), (3, 4, 27, 32), (8, 12, 26, 33),
         (9, 11, 15, 18), (10, 23, 36, 39), (13, 20, 34, 38), (14, 19, 29, 30),
         (22, 24, 28, 31)),
        ((0, 9, 27, 34), (1, 8, 13, 22), (2, 7, 17, 18), (3, 6, 36, 38), (4, 5, 28, 33),
         (10, 12, 16, 19), (11, 24, 37, 39), (14, 21, 26, 35), (15, 20, 30, 31),
         (23, 25, 29, 32)),
        ((0, 11, 17, 20), (1, 10, 28, 35), (2, 9, 14, 23), (3, 8, 18, 19), (4, 7, 26, 37),
         (5, 6, 29, 34), (12, 25, 38, 39), (13, 24, 30, 33), (15, 22, 27, 36),
         (16, 21, 31, 32)),
    ),
}


def round_bound(n_players: int, table_size: int) -> int:
    """Most rounds any schedule without a repeated pair can have: ``(n-1) // (k-1)``."""
    if table_size < 2 or n_players < table_size:
        return 0
    return (n_players - 1) // (table_size - 1)


def perfect_schedule(n_players: int, table_size: int) -> Schedule | None:
    """A perfect schedule for ``n_players`` at tables of ``table_size``, or None.

    None where this module knows no perfect schedule for those numbers (the local
    search in :mod:`.groups` seats such fields). The result is cached: it is pure.
    """
    if table_size < 2 or n_players % table_size or n_players <= table_size:
        return None
    if n_players > MAX_SCHEDULE_PLAYERS:
        return None
    return _perfect_schedule(n_players, table_size)


@lru_cache(maxsize=64)
def _perfect_schedule(n_players: int, table_size: int) -> Schedule | None:
    if (n_players, table_size) in KNOWN_DESIGNS:
        return _normalise(KNOWN_DESIGNS[n_players, table_size])
    if table_size == 2:
        return round_robin(n_players)
    dimension = _power_of(n_players, table_size)
    if dimension >= 2 and _prime_power(table_size) is not None:
        return affine_space(dimension, table_size)
    q = n_players // table_size
    if q >= table_size and _prime_power(q) is not None:
        return transversal_design(table_size, q)
    return None


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
