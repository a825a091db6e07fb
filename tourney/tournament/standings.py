"""An event's standings: match points, then the event's tie-breaks.

Standings are summed from the places of the current version of every match of the
event (:class:`~tourney.storage.models.MatchPlace`, whose match points follow the
event's points system, :mod:`.scoring`), plus the points of the byes seated. Every
entered player has a row, with or without matches. Players equal on points and on
every tie-break share a place (competition places: 1, 2, 2, 4).

Tie-breaks (``Event.tiebreaks_json``, a list of ids, in order; empty means
:data:`DEFAULT_TIEBREAKS`):

- ``score``: the player's deal scores relative to their tables: for each match the
  player's total minus the mean total of the table, summed. Lower is better in the
  card games (scores are penalties), higher in dam-brade (game points).
- ``opponents``: the opponents' strength: the average, over the opponents met
  (each counted once per match played against them), of that opponent's average
  share per match in the event (the share of a place: :func:`.scoring.place_shares`,
  whatever the points system). An average, not a sum, so meeting more opponents
  at bigger tables does not raise it.
- ``buchholz``: the sum of the match points of the opponents met (each opponent
  counted once per match played against them; their points in the whole event).
  It grows with the number of opponents, so it favours players seated at big
  tables; kept for events that ask for it.
- ``wins``: the number of first places (a shared first place counts).
- ``share``: the average share per match played (the points per match under
  ``share`` points): separates a player who missed a round from one who did not.
- ``matches``: matches played; more ranks higher.
- ``lot``: a drawing of lots, seeded by the event's seed and the player: reproducible,
  and a player's draw does not change when others enter or withdraw.

Decisions (the specs are silent):

- A bye gives the event's bye points (:func:`.scoring.event_bye_points`, by default
  a win's worth) once the round is seated; byes count in ``points`` but not in
  ``matches``, ``wins`` or the per-match averages. The number of byes is reported
  on each row.
- The arbiter's forfeits and adjustments (:mod:`.forfeits`) count in ``points``
  only: a forfeit gives the absent player 0 and the table's others a bye's
  points (``forfeits``, ``forfeit_wins`` on each row); an adjustment adds its
  points (``adjustments``, with the reason). Neither counts as a match played or
  in a tie-break.
- ``matches``: more matches played ranks higher (the player who played every round
  ahead of one who missed some, at equal points).
- ``decided_by`` names what separated a player from the player just above: ``points``
  or a tie-break id; ``shared`` when nothing did (the two share a place); ``None``
  for the leader (nobody above). So the first player of a group sharing a place
  still says what put the group below the player above it. ``shared`` (the flag)
  marks every player of such a group, the first one too.
- The relative score is computed exactly (fractions), so players whose scores are
  equal are never separated by a rounding error. Values are kept as they are (JSON
  has them in full); where they are shown, :func:`standing_decimals` says with how
  many decimals, enough that a difference which decided a place shows.
"""
from __future__ import annotations

import math
from dataclasses import dataclass, field
from fractions import Fraction
from functools import lru_cache
from typing import Iterable, NamedTuple, Sequence

from sqlalchemy import func, select
from sqlmodel import Session

from ..engines import get_game
from ..errors import UsageError, no_round
from ..errors.words import N_, Message, quoted
from ..numbers import column_decimals, fixed_text, plain_number
from ..ordering import name_order
from ..storage.models import (
    Adjustment,
    Entry,
    Event,
    Forfeit,
    Match,
    MatchPlace,
    Player,
    Round,
    Seat,
)
from .scoring import DEFAULT_POINTS, check_bye_points, check_points_system, event_bye_points, match_points
from .scoring import bye_points as scoring_bye_points
from .settings import event_settings
from .tiebreaks import DEFAULT_TIEBREAKS, TIEBREAKS, Field, Tally, needs_of


def results_by_round(session: Session, event: Event) -> dict[int, set[str]]:
    """Round number -> the tables whose match has a current result, or that were
    forfeited (``tourney result forfeit``: scored without a match)."""
    rows = session.exec(
        select(Match.round_number, Match.table)
        .where(Match.event_id == event.id, Match.current_version_id.is_not(None))).all()
    forfeited = session.exec(select(Forfeit.round_number, Forfeit.table)
                             .where(Forfeit.event_id == event.id)).all()
    out: dict[int, set[str]] = {}
    for number, table in [*rows, *forfeited]:
        out.setdefault(number, set()).add(table)
    return out


HALF = Fraction(1, 2)


def check_tiebreaks(ids: Sequence[str]) -> list[str]:
    """The tie-break ids as given, checked: known ids, none twice (the one check,
    for ``event create --tiebreaks`` and for what an event stores)."""
    ids = [str(i).strip() for i in ids]
    for tiebreak in ids:
        if tiebreak not in TIEBREAKS:
            raise UsageError(Message(N_("unknown tie-break %(name)s (tie-breaks: %(known)s)"),
                                     {"name": quoted(tiebreak), "known": list(TIEBREAKS)}))
    if len(set(ids)) != len(ids):
        raise UsageError(Message(N_("a tie-break is named twice")))
    return ids


def event_tiebreaks(event: Event) -> list[str]:
    """The event's tie-breaks in order, the default order when it names none."""
    return tiebreaks_in_force(event_settings(event).tiebreaks)


def tiebreaks_in_force(ids) -> list[str]:
    """The tie-breaks an event's stored ones put in force: the default order when
    it names none (what every report of an event shows)."""
    return check_tiebreaks(list(ids)) if ids else list(DEFAULT_TIEBREAKS)


def place_text(place: int, shared: bool) -> str:
    """A place as the pages show it: ``1=`` when shared (a tie on everything, or a
    drawn place at a table), else ``1``; the command line's tables and the
    players' e-mails say it so too."""
    return f"{place}=" if shared else str(place)


@dataclass
class StandingRow:
    player_id: int
    player: str
    place: int
    points: float
    tiebreaks: dict[str, float]  # in the event's tie-break order
    decided_by: str | None
    matches: int = 0
    wins: int = 0
    byes: int = 0
    withdrawn_after: int | None = None
    shared: bool = False  # another player has the same place (equal on everything)
    sort_key: tuple = field(default=(), repr=False, compare=False)
    # the arbiter's (tourney.tournament.forfeits): tables this player forfeited (0
    # points), tables forfeited against them (a bye's points each), and the point
    # adjustments ({"id", "points", "reason", "round"}) counted in ``points``
    forfeits: int = 0
    forfeit_wins: int = 0
    adjustments: list = field(default_factory=list)

    @property
    def rank(self) -> int:
        return self.place

    def to_json(self) -> dict:
        # the numbers as they are: a rounded copy would hide the differences
        # that decided places (0.41358 and 0.40741 both read 0.41)
        return {"place": self.place, "shared": self.shared, "player": self.player,
                "points": plain_number(self.points),
                "tiebreaks": {k: plain_number(v) for k, v in self.tiebreaks.items()},
                "decided_by": self.decided_by, "matches": self.matches, "byes": self.byes,
                "withdrawn_after": self.withdrawn_after, "forfeits": self.forfeits,
                "forfeit_wins": self.forfeit_wins,
                "adjustments": [dict(a, points=plain_number(a["points"]))
                                for a in self.adjustments]}


@lru_cache(maxsize=4096)
def _exact(points: float) -> Fraction:
    """A stored match-point value as the fraction it stands for (thirds, quarters...);
    an event has few distinct values, each worked out once."""
    return Fraction(points).limit_denominator(10_000)


@lru_cache(maxsize=4096)
def _exact_shares(places: tuple[int, ...]) -> list[Fraction]:
    """:func:`.scoring.place_shares` as fractions: averages of them never drift.
    Cached by the table's places (a tuple; the list returned is never changed)."""
    n = len(places)
    if n < 2:
        return [Fraction(1)] * n
    return [Fraction(2 * sum(p > place for p in places)
                     + sum(p == place for p in places) - 1, 2 * (n - 1)) for place in places]


def check_round_number(session: Session, event: Event, number: int) -> None:
    """:class:`UsageError` unless ``number`` is a round the event has seated: the
    standings after a round that does not exist are not the final table."""
    seated = max(
        session.execute(select(func.max(Round.number)).where(Round.event_id == event.id))
        .scalar() or 0,
        session.execute(select(func.max(Match.round_number)).where(Match.event_id == event.id))
        .scalar() or 0)
    if not 1 <= number <= seated:
        raise no_round(event.slug, number, seated)


def standings_table(session: Session, event: Event, *, up_to_round: int | None = None,
                    lang: str | None = None) -> list[StandingRow]:
    """The standings of an event, best first (after ``up_to_round`` when given: a
    round the event has seated, with the players entered by then); players
    sharing a place by name, as the event's language sorts names (``lang`` for an
    event without one). The event's results read, then ordered as
    :func:`rank_standings` orders plain data."""
    if up_to_round is not None:
        check_round_number(session, event, up_to_round)
    query = (select(Entry.player_id, Player.name, Entry.withdrawn_after)
             .join(Player, Player.id == Entry.player_id).where(Entry.event_id == event.id))
    if up_to_round is not None:
        # the standings after a round are of the players entered by then: one
        # entered from a later round is in none of its rows (nor in their count)
        query = query.where(Entry.first_round <= up_to_round)
    entries = session.execute(query).all()
    names = {pid: name for pid, name, _ in entries}
    withdrawn = {pid: w for pid, _, w in entries}

    query = (select(Match.id, MatchPlace.player_id, MatchPlace.place, MatchPlace.total,
                    MatchPlace.match_points, Match.round_number)
             .join(MatchPlace, MatchPlace.version_id == Match.current_version_id)
             .where(Match.event_id == event.id).order_by(Match.id))
    if up_to_round is not None:
        query = query.where(Match.round_number <= up_to_round)
    tables: dict[int, list[tuple[int, int, float, float]]] = {}
    round_of: dict[int, int] = {}
    for match_id, player_id, place, total, points, number in session.execute(query):
        tables.setdefault(match_id, []).append((player_id, place, total, points))
        round_of[match_id] = number
    missing = {pid for seats in tables.values() for pid, _, _, _ in seats if pid not in names}
    others = dict(session.execute(select(Player.id, Player.name)
                                  .where(Player.id.in_(missing))).all()) if missing else {}

    bye_query = (select(Seat.player_id, Round.number).join(Round, Round.id == Seat.round_id)
                 .where(Round.event_id == event.id, Seat.table.is_(None)))
    if up_to_round is not None:
        bye_query = bye_query.where(Round.number <= up_to_round)
    forfeits, forfeit_wins = _forfeits(session, event, up_to_round)
    return _order(_Results(
        names=names, withdrawn=withdrawn, other_names=others, tables=tables,
        round_of=round_of, byes=session.execute(bye_query).all(), forfeits=forfeits,
        forfeit_wins=forfeit_wins, adjusted=_adjustments(session, event, up_to_round),
        bye_points=event_bye_points(event)),
        event_tiebreaks(event), get_game(event.variant).higher_is_better, event.seed,
        event.lang or lang)


class MatchResult(NamedTuple):
    """One match as the standings count it: the ``round`` it was played in and its
    ``seats``, each ``(player, place, total)``: the player's name, their place at
    the table (1 the best; equal places a tie) and their total score (the deals'
    scores summed, which the ``score`` tie-break compares with the table's mean)."""

    round: int
    seats: Sequence[tuple[str, int, float]]


def rank_standings(matches: Iterable[MatchResult], *, players: Iterable[str] = (),
                   points: str = DEFAULT_POINTS,
                   tiebreaks: Sequence[str] = DEFAULT_TIEBREAKS,
                   higher_is_better: bool = False,
                   byes: Iterable[tuple[str, int]] = (), bye_points: float | None = None,
                   table_size: int = 4, seed: int = 0,
                   lang: str | None = None) -> list[StandingRow]:
    """Standings from plain data, no database: the event's ordering
    (:func:`standings_table` orders an event's results with it), match points,
    then ``tiebreaks`` in order, players equal on everything sharing a place.

    ``matches``: each a :class:`MatchResult` (or a ``(round, seats)`` pair);
    ``players``: players entered besides those who played (a row each, with no
    matches); ``points``: the points system (``share`` or ``place``,
    :mod:`.scoring`); ``tiebreaks``: ids from
    :data:`~tourney.tournament.tiebreaks.TIEBREAKS` (``opponents``, ``score``,
    ``wins``, ``buchholz``, ``lot``...); ``higher_is_better``: whether a higher
    total is the better score (dam-brade's game points; the card games' totals
    are penalties: the game's ``get_game(variant).higher_is_better``); ``byes``:
    ``(player, round)`` of each bye, worth ``bye_points`` (``None``: a win's worth,
    at a table of ``table_size`` under ``place``); ``seed``: the ``lot``
    tie-break's drawing, each player's draw seeded by it and their position in
    ``players`` then the matches; ``lang``: the language whose order names sort
    in where players share a place. :class:`~tourney.errors.UsageError` for a
    tie-break or points system that does not exist."""
    system = check_points_system(points)
    tiebreaks = tiebreaks_in_force(check_tiebreaks(list(tiebreaks)))
    ids: dict[str, int] = {}
    for name in players:
        ids.setdefault(name, len(ids) + 1)
    tables: dict[int, list[tuple[int, int, float, float]]] = {}
    round_of: dict[int, int] = {}
    for number, (round_number, seats) in enumerate(matches, start=1):
        seats = list(seats)
        worth = match_points([place for _, place, _ in seats], system)
        tables[number] = [(ids.setdefault(name, len(ids) + 1), place, total, value)
                          for (name, place, total), value in zip(seats, worth)]
        round_of[number] = round_number
    bye_rows = [(ids.setdefault(name, len(ids) + 1), number) for name, number in byes]
    return _order(_Results(
        names={pid: name for name, pid in ids.items()}, withdrawn={}, other_names={},
        tables=tables, round_of=round_of, byes=bye_rows, forfeits={}, forfeit_wins={},
        adjusted={}, bye_points=scoring_bye_points(system, check_bye_points(bye_points),
                                                   table_size)),
        tiebreaks, higher_is_better, seed, lang)


@dataclass
class _Results:
    """What the standings are summed from, by player id: the entered players'
    names and withdrawals (``other_names``: players with results no longer
    entered), each match's seats ``(player, place, total, match points)`` and
    round, the byes ``(player, round)``, the arbiter's forfeits and adjustments,
    and a bye's points."""

    names: dict[int, str]
    withdrawn: dict[int, int | None]
    other_names: dict[int, str]
    tables: dict[int, list[tuple[int, int, float, float]]]
    round_of: dict[int, int]
    byes: Sequence[tuple[int, int]]
    forfeits: dict[int, int]
    forfeit_wins: dict[int, int]
    adjusted: dict[int, list[dict]]
    bye_points: float


def _order(results: _Results, tiebreaks: list[str], higher_is_better: bool, seed: int,
           lang: str | None) -> list[StandingRow]:
    """The standings rows of ``results``, best first, places assigned: no database."""
    names, tables, round_of = results.names, results.tables, results.round_of
    forfeits, forfeit_wins, adjusted = (results.forfeits, results.forfeit_wins,
                                        results.adjusted)
    tallies: dict[int, Tally] = {pid: Tally() for pid in names}
    needs = needs_of(tiebreaks)
    beaten, by_round = "beaten" in needs, "by_round" in needs
    # Points, shares and relative scores are summed as integers over one common
    # denominator (exact, as fractions are, at a fraction of the cost: a season's
    # standings sum forty events); each tally gets its fractions once, at the end.
    per_bye = _exact(results.bye_points)
    scale = _common_denominator(tables.values(), [per_bye] + [
        _exact(a["points"]) for items in adjusted.values() for a in items])
    per_bye_n = (per_bye * scale).numerator
    scaled_points, scaled_totals = {}, {}  # a stored float -> its value times scale
    points_n: dict[int, int] = dict.fromkeys(tallies, 0)
    shares_n: dict[int, int] = dict.fromkeys(tallies, 0)
    score_n: dict[int, int] = dict.fromkeys(tallies, 0)
    for match_id, seats in tables.items():
        totals = [_scaled(scaled_totals, total, scale, Fraction) for _, _, total, _ in seats]
        mean = sum(totals) // len(seats)  # exact: scale is a multiple of the table size
        shares = _scaled_shares(tuple(place for _, place, _, _ in seats), scale)
        for (player_id, place, _, points), share, total in zip(seats, shares, totals):
            tally = tallies.get(player_id)
            if tally is None:  # a result for a player no longer entered
                tally = tallies[player_id] = Tally()
                points_n[player_id] = shares_n[player_id] = score_n[player_id] = 0
            points_n[player_id] += _scaled(scaled_points, points, scale)
            shares_n[player_id] += share
            score_n[player_id] += total - mean
            tally.wins += place == 1
            tally.matches += 1
            tally.opponents.extend(p for p, _, _, _ in seats if p != player_id)
            if beaten:
                tally.beaten.extend((p, HALF if q == place else Fraction(int(q > place)))
                                    for p, q, _, _ in seats if p != player_id)
            if by_round:
                number = round_of[match_id]
                tally.by_round[number] = tally.by_round.get(number, Fraction(0)) + _exact(points)
    names = {**results.other_names, **names}

    byes: dict[int, int] = {}
    for player_id, number in results.byes:
        byes[player_id] = byes.get(player_id, 0) + 1
        if player_id in tallies:
            tally = tallies[player_id]
            points_n[player_id] += per_bye_n
            if by_round:
                tally.by_round[number] = tally.by_round.get(number, Fraction(0)) + per_bye

    for player_id, count in forfeit_wins.items():
        if player_id in points_n:
            points_n[player_id] += count * per_bye_n
    for player_id, items in adjusted.items():
        if player_id in points_n:
            points_n[player_id] += sum(_scaled(scaled_points, a["points"], scale) for a in items)
    for player_id, tally in tallies.items():
        tally.points = Fraction(points_n[player_id], scale)
        tally.shares_n = shares_n[player_id]
        tally.shares = Fraction(tally.shares_n, scale)
        tally.score = Fraction(score_n[player_id], scale)

    used = [TIEBREAKS[t] for t in tiebreaks]
    signs = [t.key_sign(higher_is_better) for t in used]
    equal: dict = {}
    matches_lcm = math.lcm(1, *{tally.matches for tally in tallies.values() if tally.matches})
    # only the event's tie-breaks are computed: the FIDE ones sum over every
    # opponent, and a season's standings read forty events' tables
    player = Field(0, Tally(), tallies, seed, scale, matches_lcm)
    rows = []
    for player_id, tally in tallies.items():
        player.player_id, player.tally = player_id, tally
        values = [t.value(player) for t in used]
        sort_key = (-points_n[player_id],
                    *(_quick(value, sign, equal) for sign, value in zip(signs, values)))
        rows.append(StandingRow(
            player_id=player_id, player=names.get(player_id, f"#{player_id}"), place=0,
            points=points_n[player_id] / scale, tiebreaks=dict(zip(tiebreaks, values)),
            decided_by=None, matches=tally.matches, wins=tally.wins,
            byes=byes.get(player_id, 0), withdrawn_after=results.withdrawn.get(player_id),
            sort_key=sort_key, forfeits=forfeits.get(player_id, 0),
            forfeit_wins=forfeit_wins.get(player_id, 0),
            adjustments=adjusted.get(player_id, [])))
    for position, tiebreak in enumerate(used, start=1):
        if tiebreak.among_equals is not None:
            _among_equals(rows, position, tiebreak, signs[position - 1], tallies, equal)
    rows.sort(key=lambda r: r.sort_key)
    _by_name_where_equal(rows, name_order(lang))
    _assign_places(rows, tiebreaks)
    _show_lots(rows)
    return rows


def _quick(value, sign: int, equal: dict):
    """``sign * value`` as a sort key that compares as it does, fast: a fraction is
    compared by its float first and exactly only where the floats are equal, and
    equal fractions are one object (``equal``: one per value and sign), which a
    tuple's comparison takes as equal at once (comparing or multiplying fractions
    costs microseconds, and sorting thousands of rows compares them many times)."""
    if not isinstance(value, Fraction):
        return sign * value
    exact = equal.get((value.numerator, value.denominator, sign))
    if exact is None:
        exact = equal[value.numerator, value.denominator, sign] = (
            value if sign > 0 else _Reversed(value))
    return (sign * float(value), exact)


class _Reversed:
    """A value that sorts in the reverse order of its fractions (a higher-is-better
    key's exact part, without making a negated fraction per row)."""

    __slots__ = ("value",)

    def __init__(self, value: Fraction):
        self.value = value

    def __eq__(self, other) -> bool:
        return self.value == other.value

    def __lt__(self, other) -> bool:
        return other.value < self.value

    def __hash__(self) -> int:
        return hash(self.value)


def _common_denominator(tables, others: Sequence[Fraction]) -> int:
    """A denominator every summed value of these tables is a whole multiple of:
    the match points' (thirds...), each size's shares (halves of 1/(n - 1)) and
    mean totals (1/n of the totals' own denominator), and ``others``' (a bye's
    points, the arbiter's adjustments)."""
    totals, points, sizes = set(), set(), set()
    for seats in tables:
        sizes.add(len(seats))
        for _, _, total, value in seats:
            totals.add(total)
            points.add(value)
    of_totals = math.lcm(1, *(Fraction(t).denominator for t in totals))
    scale = math.lcm(of_totals, *(_exact(p).denominator for p in points),
                     *(value.denominator for value in others))
    for n in sizes:
        scale = math.lcm(scale, n * of_totals, 2 * max(n - 1, 1))
    return scale


def _scaled(cache: dict, value: float, scale: int, exact=_exact) -> int:
    """A stored float (``exact``: as the fraction it stands for) as an integer count
    of 1/scale (a whole number: scale is a multiple of its denominator); each
    distinct value worked out once."""
    scaled = cache.get(value)
    if scaled is None:
        scaled = cache[value] = (exact(value) * scale).numerator
    return scaled


@lru_cache(maxsize=4096)
def _scaled_shares(places: tuple[int, ...], scale: int) -> list[int]:
    """:func:`_exact_shares` as integer counts of 1/scale."""
    return [(share * scale).numerator for share in _exact_shares(places)]


def _among_equals(rows: list[StandingRow], position: int, tiebreak, sign: int,
                  tallies: dict, equal: dict) -> None:
    """A tie-break computed among the players equal on every key before it (at
    ``position`` in the sort keys): each such group's values set in the rows."""
    groups: dict[tuple, list[StandingRow]] = {}
    for row in rows:
        groups.setdefault(row.sort_key[:position], []).append(row)
    for group in groups.values():
        if len(group) < 2:
            continue
        values = tiebreak.among_equals([row.player_id for row in group], tallies)
        for row in group:
            value = values[row.player_id]
            row.tiebreaks[tiebreak.id] = value
            key = list(row.sort_key)
            key[position] = _quick(value, sign, equal)
            row.sort_key = tuple(key)


def _by_name_where_equal(rows: list, order) -> None:
    """Rows sorted by their keys put in name order (``order``: the event language's
    key) within each run of equal keys; a name's key is worked out only there."""
    start = 0
    for end in range(1, len(rows) + 1):
        if end == len(rows) or rows[end].sort_key != rows[start].sort_key:
            if end - start > 1:
                rows[start:end] = sorted(rows[start:end], key=lambda r: order(r.player))
            start = end


def _forfeits(session: Session, event: Event, up_to_round: int | None
              ) -> tuple[dict[int, int], dict[int, int]]:
    """Player id -> tables they forfeited, and -> tables forfeited against them
    (the table's other players), in the rounds counted."""
    query = select(Forfeit.round_number, Forfeit.table, Forfeit.player_id).where(
        Forfeit.event_id == event.id)
    if up_to_round is not None:
        query = query.where(Forfeit.round_number <= up_to_round)
    rows = session.execute(query).all()
    if not rows:
        return {}, {}
    lost: dict[int, int] = {}
    gone = {(number, table, pid) for number, table, pid in rows}
    for _, _, pid in gone:
        lost[pid] = lost.get(pid, 0) + 1
    tables = {(number, table) for number, table, _ in rows}
    won: dict[int, int] = {}
    for number, table, pid in session.execute(
            select(Round.number, Seat.table, Seat.player_id).join(Round, Round.id == Seat.round_id)
            .where(Round.event_id == event.id, Round.number.in_({n for n, _ in tables}),
                   Seat.table.in_({t for _, t in tables}))):
        if (number, table) in tables and (number, table, pid) not in gone:
            won[pid] = won.get(pid, 0) + 1
    return lost, won


def _adjustments(session: Session, event: Event, up_to_round: int | None
                 ) -> dict[int, list[dict]]:
    """Player id -> the adjustments counted (one of a later round than
    ``up_to_round`` is not), oldest first."""
    query = (select(Adjustment.id, Adjustment.player_id, Adjustment.points,
                    Adjustment.reason, Adjustment.round_number)
             .where(Adjustment.event_id == event.id).order_by(Adjustment.id))
    out: dict[int, list[dict]] = {}
    for adjustment_id, player_id, points, reason, number in session.execute(query):
        if up_to_round is not None and number is not None and number > up_to_round:
            continue
        out.setdefault(player_id, []).append(
            {"id": adjustment_id, "points": points, "reason": reason, "round": number})
    return out


def _assign_places(rows: list[StandingRow], tiebreaks: list[str]) -> None:
    assign_places(rows, ["points"] + list(tiebreaks))


def assign_places(rows: Sequence, criteria: Sequence[str]) -> None:
    """Places of rows sorted best first by their ``sort_key`` (one value per
    criterion): equal keys share the place of the first (``shared`` on each), and
    ``decided_by`` names the criterion that put a row below the one above
    (``"shared"`` when none did). One rule for players', series' and teams' tables."""
    for index, row in enumerate(rows):
        above = rows[index - 1] if index else None
        below = rows[index + 1] if index + 1 < len(rows) else None
        equal_above = above is not None and above.sort_key == row.sort_key
        row.shared = equal_above or (below is not None and below.sort_key == row.sort_key)
        row.place = above.place if equal_above else index + 1
        if equal_above:
            row.decided_by = "shared"
        elif above is not None:
            row.decided_by = next(c for c, a, b in zip(criteria, above.sort_key, row.sort_key)
                                  if a != b)


# The most decimals a standings column is widened to so that the difference that
# decided a place shows; exact values this close apart are beyond what a float
# tells apart anyway.
MOST_DECIMALS = 12


def standing_decimals(rows: Sequence[StandingRow]) -> dict[str, int]:
    """The decimals each number column of the standings is shown with, by
    ``points`` and tie-break id: the column's own (:func:`~tourney.numbers.column_decimals`:
    the fewest, up to two, that show each value), more where a place was decided
    by that column and its value would otherwise read the same as the one above
    (0.41358 and 0.40741: 0.414 and 0.407, not 0.41 twice). The one rule for the
    terminal, CSV and XLSX files and the site's pages."""
    columns = {"points": [float(row.points) for row in rows]}
    for tiebreak in (rows[0].tiebreaks if rows else ()):
        columns[tiebreak] = [float(row.tiebreaks[tiebreak]) for row in rows]
    decimals = {}
    for name, values in columns.items():
        decided = [(values[i - 1], values[i]) for i, row in enumerate(rows)
                   if i and row.decided_by == name]
        shown = column_decimals(values)
        while shown < MOST_DECIMALS and any(fixed_text(above, shown) == fixed_text(value, shown)
                                            for above, value in decided):
            shown += 1
        decimals[name] = shown
    return decimals


def _show_lots(rows: list[StandingRow]) -> None:
    """Show a lot as the player's position in the drawing (1 = best), not the raw draw."""
    if not rows or "lot" not in rows[0].tiebreaks:
        return
    order = sorted(rows, key=lambda r: r.tiebreaks["lot"])
    for position, row in enumerate(order, 1):
        row.tiebreaks["lot"] = position
