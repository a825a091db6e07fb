"""A season's tables, computed: series standings and team standings from the
events' results. Pure: no database (:mod:`.series` reads the events' standings and
calls this), so the rules below are tested alone.

Series standings
----------------

Each event of a series gives every player who played in it (a match or a bye) a
*result*:

- scoring ``points``: the player's points in the event's own standings (match
  points, byes included: the event's standings total);
- scoring ``placing``: the points of the player's place in the event's standings,
  from the series' placing table (place 1 gets the first number, place 2 the
  second...; a place past the table's end gets 0; players sharing a place each get
  that place's points).

With handicaps (a series created with ``handicap``), each result also has a *net*
value: the result plus the player's handicap (0 for a player without one). The
*gross* value is the result itself; both are shown.

A player's total counts their best N results (``best``; all of them when the
series has no ``best``); the others are *dropped* (and marked). Among equal
results the earlier event (the series' column order) counts. Adding a handicap
adds the same amount to each result, so the same results count gross and net.

A player *qualifies* with at least ``min_events`` events played. Qualified players
come first, with places 1, 2, 3...; players who have not qualified (yet) are shown
after them, in the same order, without a place.

The order (the tie-break chain), what ``decided_by`` names:

1. ``total``: the total, higher first (net with handicaps, else gross);
2. ``events``: events played, more first;
3. ``countback``: the best single result, then the second best, and so on (every
   result played, counted or dropped; net with handicaps);
4. ``lot``: a drawing of lots, seeded by the series' seed and the player
   (reproducible; a player's lot does not change when others join).

The lot always separates two players, so no place is shared.

Each result counts as it is shown, rounded to two decimals
(:func:`~tourney.numbers.as_shown`: an event's 7/6 counts 1.17, and three of them
make 3.51), as a handicap does: the results a reader adds up on the page, the
terminal or the spreadsheet make the total, and the totals, the order and the
countback are those numbers'. They are summed exactly (fractions), so equal totals
are never told apart by a rounding error.

Team standings
--------------

A team's members each bring one value (in an event: their standings points; in a
series: their series total, net with handicaps). The team's total is the sum of its
best ``count`` members' values (all members without a count; a team with fewer
members counts those it has). Teams are ordered by total, then by countback over
the counted values (best member first); teams equal on both share a place and are
listed by name.
"""
from __future__ import annotations

import math
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Collection, Iterable, Sequence

from ..numbers import as_shown, column_decimals, plain_number
from ..ordering import name_order
from .standings import assign_places
from .tiebreaks import lot_draw

# How each event scores in a series, as codes: ``points`` (the event's standings
# points) or ``placing`` (points for the place, from the placing table); the command
# line says what each is.
SCORING: tuple[str, ...] = ("points", "placing")
# Placing scoring's table unless the series names one (the motor-racing table).
DEFAULT_PLACING = (25, 18, 15, 12, 10, 8, 6, 4, 2, 1)


def exact(value) -> Fraction:
    """A stored or typed number as the fraction it stands for (thirds, tenths)."""
    if isinstance(value, Fraction):
        return value
    found = _EXACT.get(value)
    if found is None:
        found = Fraction(value) if isinstance(value, int) else \
            Fraction(value).limit_denominator(10_000)
        if len(_EXACT) < 100_000:  # a season has few distinct values (thirds, halves...)
            _EXACT[value] = found
    return found


_EXACT: dict = {}


@dataclass(frozen=True)
class SeriesRules:
    best: int | None = None
    min_events: int = 0
    scoring: str = "points"
    placing: tuple = DEFAULT_PLACING
    handicap: bool = False
    seed: int = 0


@dataclass(frozen=True)
class EventResult:
    """One player's line in one event's standings (a player who played)."""

    player_id: int
    player: str
    points: float | Fraction
    place: int


@dataclass(slots=True)
class SeriesCell:
    """A player's result in one event of the series."""

    place: int  # in the event's standings
    gross: Fraction
    handicap: Fraction | None  # None without handicaps
    counted: bool = True
    net: Fraction | None = None  # gross + handicap; None without handicaps

    def __post_init__(self):
        if self.net is None and self.handicap is not None:
            self.net = self.gross + self.handicap

    @property
    def value(self) -> Fraction:
        """What counts: net with handicaps, else gross."""
        return self.gross if self.net is None else self.net

    def to_json(self) -> dict:
        data = {"place": self.place, "points": _plain(self.gross), "counted": self.counted}
        if self.net is not None:
            data["net"] = _plain(self.net)
        return data


def _plain(value: Fraction) -> int | float:
    """:func:`plain_number` of a series' value, for hundreds of thousands of cells
    (a true division of the two integers rounds as ``float()`` does)."""
    number = value.numerator / value.denominator
    return int(number) if number.is_integer() else number


@dataclass
class SeriesRow:
    player_id: int
    player: str
    place: int | None  # None: not qualified
    qualified: bool
    played: int
    cells: list[SeriesCell | None]  # one per event, in column order
    gross: Fraction
    handicap: Fraction | None  # None without handicaps
    net: Fraction | None
    decided_by: str | None = None
    sort_key: tuple = field(default=(), repr=False, compare=False)

    @property
    def total(self) -> Fraction:
        return self.gross if self.net is None else self.net

    @property
    def counted(self) -> int:
        return sum(1 for cell in self.cells if cell is not None and cell.counted)

    def to_json(self, events: Sequence[str]) -> dict:
        data = {"place": self.place, "player": self.player, "qualified": self.qualified,
                "events_played": self.played, "events_counted": self.counted,
                "gross": _plain(self.gross)}
        if self.net is not None:
            data["handicap"] = _plain(self.handicap)
            data["net"] = _plain(self.net)
        data["total"] = _plain(self.total)
        data["decided_by"] = self.decided_by
        # the events played (a league's player plays few of its many events)
        data["events"] = {slug: cell.to_json() for slug, cell in zip(events, self.cells)
                          if cell is not None}
        return data


def placing_value(place: int, table: Sequence) -> Fraction:
    """The placing points of ``place`` (1-based) from ``table``; 0 past its end."""
    return exact(table[place - 1]) if 1 <= place <= len(table) else Fraction(0)


def lot(seed: int, player_id: int) -> float:
    """A player's lot in a series (the events' drawing of lots, seeded by the series)."""
    return lot_draw(seed, player_id)


def series_table(rules: SeriesRules, events: Sequence[Iterable[EventResult]],
                 handicaps: dict[int, float] | None = None, *,
                 unhandicapped: Collection[int] = (),
                 lang: str | None = None) -> list[SeriesRow]:
    """The series standings from each event's results (``events`` in column order:
    the players who played each event), best first: qualified players with their
    places, then the others without one (the module's rules). ``unhandicapped``:
    the indices of the events that count without a handicap (another game's: a
    handicap comes from one game's ratings)."""
    handicaps = handicaps or {}
    placing = rules.scoring == "placing"
    # Sums and orders as integers over one common denominator: exact, as fractions
    # are, but a league's season orders hundreds of thousands of results. Each
    # distinct stored value (a place, a float of points, a handicap) is made
    # exact and scaled once.
    exact_of = {}
    for results in events:
        for result in results:
            raw = result.place if placing else result.points
            if raw not in exact_of:
                # each result counts as it is shown (16/3 counts 5.33): the
                # results a reader adds up make the total (docs/decisions.md)
                exact_of[raw] = as_shown(placing_value(raw, rules.placing) if placing
                                         else exact(raw))
    # a league's handicaps are thousands of players' but few distinct values
    shown = {value: as_shown(exact(value)) for value in set(handicaps.values())}
    handicap_of = ({player_id: shown[value] for player_id, value in handicaps.items()}
                   if rules.handicap else {})
    scale = math.lcm(1, *{value.denominator for value in exact_of.values()},
                     *{value.denominator for value in handicap_of.values()})
    scaled_of = {raw: (value * scale).numerator for raw, value in exact_of.items()}
    none = Fraction(0) if rules.handicap else None
    names: dict[int, str] = {}
    cells: dict[int, list[SeriesCell | None]] = {}
    scaled: dict[int, list[int]] = {}  # a player's results played, as counts of 1/scale
    # for each result of ``scaled``: whether the player's handicap is added to it
    # (kept only when some event counts without: the usual series has none, and a
    # league's season is hundreds of thousands of results)
    with_handicap: dict[int, list[bool]] = {}
    mixed = bool(unhandicapped) and rules.handicap
    nets: dict[tuple, Fraction] = {}  # gross + handicap: few distinct sums
    for index, results in enumerate(events):
        handicapped = index not in unhandicapped
        for result in results:
            player_id = result.player_id
            names[player_id] = result.player
            row = cells.get(player_id)
            if row is None:
                row = cells[player_id] = [None] * len(events)
                scaled[player_id] = []
                if mixed:
                    with_handicap[player_id] = []
            raw = result.place if placing else result.points
            gross = exact_of[raw]
            handicap = handicap_of.get(player_id, none) if handicapped else None
            net = None
            if handicap is not None:
                # keyed by the stored values: a fraction's hash costs more than its sum
                net = nets.get((raw, handicaps.get(player_id)))
                if net is None:
                    net = nets[raw, handicaps.get(player_id)] = gross + handicap
            row[index] = SeriesCell(result.place, gross, handicap, net=net)
            scaled[player_id].append(scaled_of[raw])
            if mixed:
                with_handicap[player_id].append(handicapped)
    rows = []
    for player_id, row_cells in cells.items():
        played = [c for c in row_cells if c is not None]
        handicap = handicap_of.get(player_id, none)
        extra = (handicap * scale).numerator if handicap else 0
        grosses = scaled[player_id]
        added = with_handicap.get(player_id)
        values = ([g + extra if h else g for g, h in zip(grosses, added)] if added
                  else [g + extra for g in grosses])
        # best N: the highest results; among equal ones the earlier event
        ranked = sorted(range(len(played)), key=lambda i: (-values[i], i))
        kept = set(ranked[:rules.best] if rules.best else ranked)
        for i, cell in enumerate(played):
            cell.counted = i in kept
        gross_n = sum(grosses[i] for i in kept)
        gross = Fraction(gross_n, scale)
        kept_handicapped = sum(1 for i in kept if added[i]) if added else len(kept)
        net = gross + handicap * kept_handicapped if rules.handicap else None
        qualified = len(played) >= rules.min_events
        total_n = gross_n + extra * kept_handicapped
        countback = tuple(sorted(-v for v in values))
        sort_key = (not qualified, -total_n, -len(played), countback)
        rows.append(SeriesRow(player_id, names[player_id], None, qualified, len(played),
                              row_cells, gross, handicap, net, sort_key=sort_key))
    rows.sort(key=lambda r: r.sort_key)
    # the lot, drawn only where it decides (a draw costs more than the rest of a row)
    start = 0
    for end in range(1, len(rows) + 1):
        if end == len(rows) or rows[end].sort_key != rows[start].sort_key:
            group = rows[start:end]
            for row in group:
                row.sort_key += (lot(rules.seed, row.player_id) if len(group) > 1 else 0.0,)
            if len(group) > 1:
                order = name_order(lang)
                rows[start:end] = sorted(group, key=lambda r: (r.sort_key, order(r.player)))
            start = end
    criteria = ("qualified", "total", "events", "countback", "lot")
    place = 0
    for index, row in enumerate(rows):
        if row.qualified:
            place += 1
            row.place = place
        if index:
            above = rows[index - 1].sort_key
            row.decided_by = next((c for c, a, b in zip(criteria, above, row.sort_key)
                                   if a != b), "shared")
    return rows


def points_decimals(rows: Sequence[SeriesRow]) -> int:
    """The decimals every points column of a series' standings is shown with: each
    event's, gross, handicap and net alike (:func:`~tourney.numbers.column_decimals`
    over them all). One precision for the one kind of number, on the page, the
    terminal and the spreadsheet: a row read 5.5 gross beside a 0.00 handicap when
    each column had its own, though the net is the one plus the other."""
    values = [float(r.gross) for r in rows]
    values += [float(r.handicap) for r in rows if r.handicap is not None]
    values += [float(r.net) for r in rows if r.net is not None]
    values += [float(c.value) for r in rows for c in r.cells if c is not None]
    return column_decimals(values)


# ----------------------------------------------------------------------- teams

@dataclass
class TeamRow:
    team: str
    place: int
    shared: bool
    total: Fraction
    counted: list[tuple[str, Fraction]]  # (player, value), best first
    others: list[tuple[str, Fraction]]  # members beyond the count
    decided_by: str | None = None
    sort_key: tuple = field(default=(), repr=False, compare=False)

    @property
    def players(self) -> int:
        return len(self.counted) + len(self.others)

    def to_json(self) -> dict:
        return {"place": self.place, "shared": self.shared, "team": self.team,
                "total": plain_number(self.total), "players": self.players,
                "counted": [{"player": p, "points": plain_number(v)} for p, v in self.counted],
                "not_counted": [{"player": p, "points": plain_number(v)}
                                for p, v in self.others],
                "decided_by": self.decided_by}


def team_table(teams: dict[str, Sequence[tuple[str, float | Fraction]]],
               count: int | None = None, *, lang: str | None = None) -> list[TeamRow]:
    """Team standings from each team's members' values (``teams``: team name ->
    [(player, value)]): the sum of the best ``count`` values (all without one),
    then countback; equal teams share a place, listed by name. Each value counts
    as it is shown (:func:`~tourney.numbers.as_shown`: 16/3 counts 5.33), so the
    members' values a reader adds up make the team's total (docs/decisions.md)."""
    order = name_order(lang)
    rows = []
    for team, members in teams.items():
        ranked = sorted(((p, as_shown(v)) for p, v in members),
                        key=lambda m: (-m[1], order(m[0])))
        counted = ranked[:count] if count else ranked
        others = ranked[len(counted):]
        total = sum((v for _, v in counted), Fraction(0))
        rows.append(TeamRow(team, 0, False, total, counted, others,
                            sort_key=(-total, tuple(-v for _, v in counted))))
    rows.sort(key=lambda r: (r.sort_key, order(r.team)))
    assign_places(rows, ("total", "countback"))
    return rows
